package app

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	clienttesting "k8s.io/client-go/testing"

	"github.com/drakit/drakit/cmd/drakit/internal/cluster/clustertest"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

// withFakeCluster makes the cluster commands talk to a fake cluster
// serving version, filled with testdata/live/cluster.yaml, for the test.
func withFakeCluster(t *testing.T, versions ...string) *clustertest.Fake {
	t.Helper()
	f, err := clustertest.New(versions...)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := os.ReadFile(filepath.Join(appDir, "testdata/live/cluster.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Load(string(docs)); err != nil {
		t.Fatal(err)
	}
	tf.fake = f
	t.Cleanup(func() { tf.fake = nil })
	return f
}

var liveGoldenCases = []goldenCase{
	{name: "live-describe-pod-pending", args: []string{"describe", "pod", "inference"}},
	{name: "live-describe-pod-explain", args: []string{"describe", "pod", "inference", "--explain"}},
	{name: "live-describe-pod-template-not-made", args: []string{"describe", "pod", "waiting"}},
	{name: "live-describe-pod-template-missing", args: []string{"describe", "pod", "orphan"}},
	{name: "live-describe-pod-running", args: []string{"describe", "pod", "trainer"}},
	{name: "live-describe-claim", args: []string{"describe", "resourceclaim", "train-gpus"}},
	{name: "live-describe-claim-shared", args: []string{"describe", "claim", "net-a"}},
	{name: "live-describe-claim-pending", args: []string{"describe", "claim", "inference-gpus-x7k2p"}},
	{name: "live-get-devices", args: []string{"get", "devices"}},
	{name: "live-get-devices-free-class", args: []string{"get", "devices", "--class", "gpu.example.com", "--free"}},
	{name: "live-get-devices-node", args: []string{"get", "devices", "--node", "node-c"}},
	{name: "live-get-claims", args: []string{"get", "resourceclaims", "-A"}},
	{name: "live-describe-pod-missing", args: []string{"describe", "pod", "nosuch"}},
}

func TestLiveGolden(t *testing.T) {
	withFakeCluster(t, "v1")
	testGoldenCases(t, liveGoldenCases)
}

// TestLiveAnyRelease runs the golden cases against clusters that serve
// the resource.k8s.io versions of 1.30 (v1alpha2), 1.31-1.33 (v1alpha3)
// and 1.32-1.33 (v1beta1, v1beta2, with v1alpha3's DeviceTaintRule): the
// answers are the same as on a 1.37 cluster (v1), as what the versions
// cannot say travels in drakit's stash. The golden files' version line is
// the only difference.
func TestLiveAnyRelease(t *testing.T) {
	for _, version := range []string{"v1alpha3", "v1beta1", "v1beta2"} {
		t.Run(version, func(t *testing.T) {
			withFakeCluster(t, version, "v1alpha3")
			for _, tc := range liveGoldenCases {
				if tc.args[0] == "validate" {
					continue // each version has its release's rules
				}
				want, err := os.ReadFile(filepath.Join(appDir, "testdata/golden", tc.name+".golden"))
				if err != nil {
					t.Fatal(err)
				}
				got := strings.ReplaceAll(runGolden(t, tc), "resource.k8s.io/"+version+")", "resource.k8s.io/v1)")
				if got != string(want) {
					t.Errorf("%s: differs from the v1 answer:\n--- v1\n%s\n--- %s\n%s", tc.name, want, version, got)
				}
			}
		})
	}
}

// TestLive130 is a 1.30 cluster (v1alpha2 with structured parameters):
// it has no DeviceTaintRules, and its scheduler (1.30's default gates)
// ignores device taints, so node-b's GPUs are free for the pod there.
func TestLive130(t *testing.T) {
	f := withFakeCluster(t, "v1alpha2")
	f.SetServerVersion("v1.30.14")
	testGoldenCases(t, []goldenCase{
		{name: "live130-describe-pod-pending", args: []string{"describe", "pod", "inference", "--explain"}},
		{name: "live130-get-devices", args: []string{"get", "devices"}},
		{name: "live130-describe-claim", args: []string{"describe", "claim", "train-gpus"}},
	})
}

// TestLiveFailures: each failure is one line naming what and where, exit 1.
func TestLiveFailures(t *testing.T) {
	t.Run("forbidden", func(t *testing.T) {
		f := withFakeCluster(t, "v1")
		f.Kube.PrependReactor("list", "resourceslices", func(a clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "resource.k8s.io", Resource: "resourceslices"}, "", errors.New(`User "jane" cannot list resource "resourceslices" in API group "resource.k8s.io" at the cluster scope`))
		})
		expectFailure(t, []string{"get", "devices"}, `error: listing resourceslices (resource.k8s.io/v1) on the API server at https://fake:6443 (context fake): permission denied: resourceslices.resource.k8s.io is forbidden: User "jane" cannot list resource "resourceslices" in API group "resource.k8s.io" at the cluster scope; the ClusterRole in examples/rbac/drakit-reader.yaml grants everything drakit reads`)
	})
	t.Run("kind the release lacks", func(t *testing.T) {
		withFakeCluster(t, "v1alpha1") // 1.26: no ResourceSlice
		expectFailure(t, []string{"get", "devices"}, "error: listing resourceslices on the API server at https://fake:6443 (context fake): the cluster does not serve ResourceSlice: its release lacks the kind (it serves resource.k8s.io v1alpha1)")
	})
	t.Run("unreachable", func(t *testing.T) {
		code, _, got := runDrakit([]string{"get", "devices", "--server", "https://127.0.0.1:1", "--request-timeout", "5s"}, nil)
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
		code, _, got := runDrakit([]string{"get", "devices", "--kubeconfig", "/nonexistent/config"}, nil)
		if code != cmdutil.ExitFailure || !strings.Contains(got, "/nonexistent/config") {
			t.Errorf("exit %d: %s", code, got)
		}
	})
}

func expectFailure(t *testing.T, args []string, want string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Execute(tf, "drakit", args, genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	if code != cmdutil.ExitFailure || out.Len() != 0 || strings.TrimSpace(errOut.String()) != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, out.String(), errOut.String(), want)
	}
}

// TestPluginName: installed as kubectl-dra, drakit names itself as kubectl
// users call it, in help, examples and errors.
func TestPluginName(t *testing.T) {
	for argv0, want := range map[string]string{
		"/usr/local/bin/kubectl-dra": "kubectl dra", "kubectl-dra.exe": "kubectl dra",
		"kubectl-dra_kit": "kubectl dra-kit", "./drakit": "drakit", "/tmp/go-build/exe/app": "drakit",
	} {
		if got := displayName(argv0); got != want {
			t.Errorf("displayName(%q) = %q, want %q", argv0, got, want)
		}
	}
	var out, errOut bytes.Buffer
	code := Execute(tf, "kubectl dra", []string{"describe", "pod", "--help"}, genericiooptions.IOStreams{Out: &out, ErrOut: &errOut})
	if code != 0 || !strings.Contains(out.String(), "  kubectl dra describe pod NAME [flags]") || !strings.Contains(out.String(), "  kubectl dra describe pod inference -n serving") {
		t.Errorf("exit %d:\n%s", code, out.String())
	}
	out.Reset()
	code = Execute(tf, "kubectl dra", []string{"get"}, genericiooptions.IOStreams{Out: &out, ErrOut: &errOut})
	if code != cmdutil.ExitUsage || !strings.Contains(errOut.String(), "See 'kubectl dra get --help' for usage.") {
		t.Errorf("exit %d: %s", code, errOut.String())
	}
}

// TestDescribeAgreesWithAllocate: "describe pod" and "allocate" with a pod
// like it give the same reasons, and with --explain the same nodes,
// explanations and holders: one simulation, one vocabulary.
func TestDescribeAgreesWithAllocate(t *testing.T) {
	withFakeCluster(t, "v1")
	// reasons are the scheduler's line from "nodes can run" on, and the
	// indented explanation of each reason after it.
	reasons := func(output, pod string) []string {
		var lines []string
		head := "nodes can run default/" + pod + ": "
		for _, line := range strings.Split(output, "\n") {
			text := strings.TrimSpace(line)
			switch {
			case strings.Contains(line, head):
				lines = append(lines, line[strings.Index(line, head)+len(head):])
			case len(lines) == 0:
			case !strings.HasPrefix(line, "  ") || strings.HasPrefix(text, "Device taints") || strings.HasPrefix(text, "Not simulated"):
				return lines
			default:
				lines = append(lines, text)
			}
		}
		return lines
	}
	_, out, _ := runDrakit([]string{"describe", "pod", "inference", "--explain"}, nil)
	described := reasons(out, "inference")
	_, _, errOut := runDrakit([]string{"allocate", "--from-cluster", "--explain", "-f", appDir + "/testdata/live/whatif-pod.yaml"}, nil)
	allocated := reasons(errOut, "inference-again")
	if len(described) < 3 || strings.Join(described, "\n") != strings.Join(allocated, "\n") {
		t.Errorf("describe pod:\n%s\nallocate:\n%s", strings.Join(described, "\n"), strings.Join(allocated, "\n"))
	}
}

// TestLiveGates133: a 1.33 cluster's scheduler has 1.33's default gates
// (no device taints: the pod fits on node-b); --feature-gates applies
// over them, and a gate locked on in 1.37 may be set to its 1.33 value.
func TestLiveGates133(t *testing.T) {
	f := withFakeCluster(t, "v1alpha3")
	f.SetServerVersion("v1.33.13")
	testGoldenCases(t, []goldenCase{
		{name: "live133-describe-pod", args: []string{"describe", "pod", "inference"}},
		{name: "live133-describe-pod-gates", args: []string{"describe", "pod", "inference", "--feature-gates", "DRADeviceTaints=true,DRADeviceTaintRules=true,DRAAdminAccess=false"}},
	})
	code, _, errOut := runDrakit([]string{"describe", "pod", "inference", "--feature-gates", "DRANoSuchGate=true"}, nil)
	if code != cmdutil.ExitUsage || !strings.Contains(errOut, `invalid argument "DRANoSuchGate=true" for --feature-gates: unrecognized feature gate: DRANoSuchGate`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
