package version_test

import (
	"testing"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
)

func TestMain(m *testing.M) { cmdtesting.Main(m) }

func TestGolden(t *testing.T) {
	cmdtesting.Golden(t, cmdtesting.NewFactory(), []cmdtesting.Case{
		{Name: "version", Args: []string{"version"}},
		{Name: "version-json", Args: []string{"version", "-o", "json"}},
	})
}
