package get_test

import (
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

func TestMain(m *testing.M) { cmdtesting.Main(m) }

// liveCases run against the fake cluster of
// cmd/drakit/app/testdata/live/cluster.yaml.
var liveCases = []cmdtesting.Case{
	{Name: "live-get-devices", Args: []string{"get", "devices"}},
	{Name: "live-get-devices-free-class", Args: []string{"get", "devices", "--class", "gpu.example.com", "--free"}},
	{Name: "live-get-devices-node", Args: []string{"get", "devices", "--node", "node-c"}},
	{Name: "live-get-claims", Args: []string{"get", "resourceclaims", "-A"}},
	{Name: "live-get-pools", Args: []string{"get", "pools"}},
	{Name: "live-get-pools-per-node", Args: []string{"get", "pools", "--per-node"}},
}

// fileCases count the pools of files, without a cluster.
var fileCases = []cmdtesting.Case{
	{Name: "get-pools-files", Args: []string{"get", "pools", "-f", "examples/pools"}},
	{Name: "get-pools-files-per-node", Args: []string{"get", "pools", "-f", "examples/pools", "--per-node"}},
	{Name: "get-pools-files-wide", Args: []string{"get", "pools", "-f", "examples/pools", "-o", "wide"}},
	{Name: "get-pools-files-yaml", Args: []string{"get", "pools", "-f", "examples/pools", "--driver", "gpu.example.com", "--pool", "node-a", "--partition-type-attribute", "gpu.example.com/profile", "-o", "yaml"}},
	{Name: "get-pools-bad-output", Args: []string{"get", "pools", "-f", "examples/pools", "-o", "table"}},
	{Name: "get-pools-files-bad-input", Args: []string{"get", "pools", "-f", "examples/pools", "-f", cmdtesting.InputFile("unknown-field.yaml")}},
}

func TestFilesGolden(t *testing.T) { cmdtesting.Golden(t, cmdtesting.NewFactory(), fileCases) }

func TestLiveGolden(t *testing.T) {
	cmdtesting.Golden(t, cmdtesting.NewFakeClusterFactory(t, "v1"), liveCases)
}

// TestLiveAnyRelease: the same answers from a cluster of any release
// from 1.31 on.
func TestLiveAnyRelease(t *testing.T) { cmdtesting.SameOnEveryRelease(t, liveCases) }

// TestLive130 is a 1.30 cluster (v1alpha2 with structured parameters):
// it has no DeviceTaintRules.
func TestLive130(t *testing.T) {
	f := cmdtesting.NewFakeClusterFactory(t, "v1alpha2")
	f.Fake.SetServerVersion("v1.30.14")
	cmdtesting.Golden(t, f, []cmdtesting.Case{
		{Name: "live130-get-devices", Args: []string{"get", "devices"}},
		{Name: "live130-get-pools", Args: []string{"get", "pools"}},
	})
}

// TestLiveFailures: each failure is one line naming what and where, exit 1.
func TestLiveFailures(t *testing.T) {
	t.Run("forbidden", func(t *testing.T) {
		f := cmdtesting.NewFakeClusterFactory(t, "v1")
		f.Fake.Kube.PrependReactor("list", "resourceslices", func(a clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "resource.k8s.io", Resource: "resourceslices"}, "", errors.New(`User "jane" cannot list resource "resourceslices" in API group "resource.k8s.io" at the cluster scope`))
		})
		expectFailure(t, f, []string{"get", "devices"}, `error: listing resourceslices (resource.k8s.io/v1) on the API server at https://fake:6443 (context fake): permission denied: resourceslices.resource.k8s.io is forbidden: User "jane" cannot list resource "resourceslices" in API group "resource.k8s.io" at the cluster scope; the ClusterRole in examples/rbac/drakit-reader.yaml grants everything drakit reads`)
	})
	t.Run("kind the release lacks", func(t *testing.T) {
		f := cmdtesting.NewFakeClusterFactory(t, "v1alpha1") // 1.26: no ResourceSlice
		expectFailure(t, f, []string{"get", "devices"}, "error: listing resourceslices on the API server at https://fake:6443 (context fake): the cluster does not serve ResourceSlice: its release lacks the kind (it serves resource.k8s.io v1alpha1)")
	})
	// Without a fake cluster the factory connects as drakit does.
	t.Run("unreachable", func(t *testing.T) {
		code, _, got := cmdtesting.Run(cmdtesting.NewFactory(), []string{"get", "devices", "--server", "https://127.0.0.1:1", "--request-timeout", "5s"}, nil)
		for _, want := range []string{"error: discovering the versions of resource.k8s.io on the API server at https://127.0.0.1:1: cannot reach the server:", "connection refused", "check --kubeconfig, --context or --server"} {
			if !strings.Contains(got, want) {
				t.Errorf("lacks %q:\n%s", want, got)
			}
		}
		if code != cmdutil.ExitFailure {
			t.Errorf("exit %d", code)
		}
	})
	t.Run("no kubeconfig", func(t *testing.T) {
		code, _, got := cmdtesting.Run(cmdtesting.NewFactory(), []string{"get", "devices", "--kubeconfig", "/nonexistent/config"}, nil)
		if code != cmdutil.ExitFailure || !strings.Contains(got, "/nonexistent/config") {
			t.Errorf("exit %d: %s", code, got)
		}
	})
}

func expectFailure(t *testing.T, f *cmdtesting.Factory, args []string, want string) {
	t.Helper()
	code, stdout, stderr := cmdtesting.Run(f, args, nil)
	if code != cmdutil.ExitFailure || stdout != "" || strings.TrimSpace(stderr) != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, stdout, stderr, want)
	}
}
