package explain_test

import (
	"testing"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
)

func TestMain(m *testing.M) { cmdtesting.Main(m) }

func TestGolden(t *testing.T) {
	cmdtesting.Golden(t, cmdtesting.NewFactory(), []cmdtesting.Case{
		{Name: "explain-devices", Args: []string{"explain", "resourceclaim.spec.devices", "--api-version", "resource.k8s.io/v1alpha3"}},
		{Name: "explain-leaf", Args: []string{"explain", "resourceclaims.spec.devices.requests.allocationMode", "--api-version", "resource.k8s.io/v1alpha3"}},
		{Name: "explain-recursive", Args: []string{"explain", "ResourceClass", "--api-version", "resource.k8s.io/v1alpha1", "--recursive"}},
		{Name: "explain-default-version", Args: []string{"explain", "resourceslice.spec.pool"}},
		{Name: "explain-v1alpha2-slice", Args: []string{"explain", "resourceslice.namedResources.instances", "--api-version", "resource.k8s.io/v1alpha2"}},
		{Name: "explain-field-not-in-version", Args: []string{"explain", "resourceslice.namedResources"}},
		{Name: "explain-no-field", Args: []string{"explain", "resourceclaim.spec.devices.colour", "--api-version", "resource.k8s.io/v1alpha3"}},
		{Name: "explain-kind-not-in-version", Args: []string{"explain", "resourceclass", "--api-version", "resource.k8s.io/v1alpha3"}},
		{Name: "usage-explain-no-args", Args: []string{"explain"}},
	})
}
