package openapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
	drakitopenapi "github.com/drakit/drakit/openapi"
)

func TestMain(m *testing.M) { cmdtesting.Main(m) }

func TestGolden(t *testing.T) {
	cmdtesting.Golden(t, cmdtesting.NewFactory(), []cmdtesting.Case{
		{Name: "usage-openapi-format", Args: []string{"openapi", "--api-version", "resource.k8s.io/v1alpha1", "--format", "v4"}},
	})
}

func TestOpenAPIPrintsThePublishedDocuments(t *testing.T) {
	for _, format := range []string{"v2", "v3", "jsonschema"} {
		want, err := drakitopenapi.Document("resource.k8s.io/v1alpha2", format)
		if err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := cmdtesting.Run(cmdtesting.NewFactory(), []string{"openapi", "--api-version", "resource.k8s.io/v1alpha2", "--format", format}, nil)
		if code != 0 || stderr != "" {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		if strings.TrimSuffix(stdout, "\n") != strings.TrimSuffix(string(want), "\n") {
			t.Errorf("%s: the output is not the published document", format)
		}
		if !json.Valid([]byte(stdout)) {
			t.Errorf("%s: not JSON", format)
		}
	}
}
