package upgradecheck_test

import (
	"context"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
)

func TestMain(m *testing.M) { cmdtesting.Main(m) }

var (
	policies = cmdtesting.InputFile("upgrade-policies.yaml")
	examples = "examples" // cmdtesting.Main runs the tests in the module's root
)

func TestGolden(t *testing.T) {
	cmdtesting.Golden(t, cmdtesting.NewFactory(), []cmdtesting.Case{
		// 1.26's manifests on 1.27, 1.31's on 1.32 (PodSchedulingContext
		// is gone).
		{Name: "upgrade-check-v1alpha1-to-1.27", Args: []string{"upgrade-check", "-f", examples + "/v1alpha1", "--from", "1.26", "--to", "1.27"}},
		{Name: "upgrade-check-v1alpha3-to-1.32", Args: []string{"upgrade-check", "-f", examples + "/v1alpha3", "--from", "1.31", "--to", "1.32"}},
		// 1.30's manifests on 1.31: nothing of v1alpha2 is served or read.
		{Name: "upgrade-check-v1alpha2-to-1.31", Args: []string{"upgrade-check", "-f", examples + "/v1alpha2", "--from", "1.30", "--to", "1.31"}},
		// 1.37's manifests on 1.33: no v1, fields whose gates are off, and
		// the downgrade refused.
		{Name: "upgrade-check-v1-to-1.33", Args: []string{"upgrade-check", "-f", examples + "/v1", "--from", "1.37", "--to", "1.33"}},
		// 1.37's manifests against what 1.37 announces for 1.38, for CI.
		{Name: "upgrade-check-v1-to-1.38-json", Args: []string{"upgrade-check", "-f", examples + "/v1", "--from", "1.37", "--to", "1.38", "-o", "json"}},
		// A chart's webhook, policies and RBAC, from standard input.
		{Name: "upgrade-check-policies-to-1.37", Args: []string{"upgrade-check", "-f", "-", "--from", "1.33", "--to", "1.37"}, Stdin: policies},
		{Name: "upgrade-check-policies-to-1.35", Args: []string{"upgrade-check", "-f", policies, "--to", "1.35"}},
		// An input that cannot be read: named on standard error, exit 1.
		{Name: "upgrade-check-bad-input", Args: []string{"upgrade-check", "-f", cmdtesting.InputFile("malformed.yaml"), "--to", "1.37"}},
		{Name: "usage-upgrade-check-no-to", Args: []string{"upgrade-check", "-f", policies}},
		{Name: "usage-upgrade-check-unknown-release", Args: []string{"upgrade-check", "-f", policies, "--to", "1.39"}},
		{Name: "usage-upgrade-check-nothing", Args: []string{"upgrade-check", "--to", "1.37"}},
		{Name: "usage-upgrade-check-plan-without-cluster", Args: []string{"upgrade-check", "-f", policies, "--to", "1.37", "--storage-plan"}},
	})
}

// TestGoldenLive checks the fake 1.37 cluster of testdata/live, with a
// driver's ClusterRole, against a downgrade to 1.33 and an upgrade to 1.38.
func TestGoldenLive(t *testing.T) {
	f := cmdtesting.NewFakeClusterFactory(t, "v1")
	_, err := f.Fake.Kube.RbacV1().ClusterRoles().Create(context.Background(), &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "gpu-kubelet-plugin"},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{"resource.k8s.io"}, Resources: []string{"resourceclaims/status"}, Verbs: []string{"patch"}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cmdtesting.Golden(t, f, []cmdtesting.Case{
		{Name: "live-upgrade-check-to-1.33", Args: []string{"upgrade-check", "--from-cluster", "--to", "1.33", "--storage-plan"}},
		{Name: "live-upgrade-check-to-1.38", Args: []string{"upgrade-check", "--from-cluster", "--to", "1.38", "--storage-plan"}},
		{Name: "usage-live-upgrade-check-wrong-from", Args: []string{"upgrade-check", "--from-cluster", "--from", "1.36", "--to", "1.38"}},
	})
}

// TestGoldenLiveAlpha checks a fake 1.30 cluster (v1alpha2) against 1.31: every object
// is flagged.
func TestGoldenLiveAlpha(t *testing.T) {
	f := cmdtesting.NewFakeClusterFactory(t, "v1alpha2")
	f.Fake.SetServerVersion("v1.30.14")
	cmdtesting.Golden(t, f, []cmdtesting.Case{
		{Name: "live130-upgrade-check-to-1.31", Args: []string{"upgrade-check", "--from-cluster", "--to", "1.31", "--storage-plan"}},
	})
}
