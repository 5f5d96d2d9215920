package describe_test

import (
	"strings"
	"testing"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

func TestMain(m *testing.M) { cmdtesting.Main(m) }

// liveCases run against the fake cluster of
// cmd/drakit/app/testdata/live/cluster.yaml.
var liveCases = []cmdtesting.Case{
	{Name: "live-describe-pod-pending", Args: []string{"describe", "pod", "inference"}},
	{Name: "live-describe-pod-explain", Args: []string{"describe", "pod", "inference", "--explain"}},
	{Name: "live-describe-pod-template-not-made", Args: []string{"describe", "pod", "waiting"}},
	{Name: "live-describe-pod-template-missing", Args: []string{"describe", "pod", "orphan"}},
	{Name: "live-describe-pod-running", Args: []string{"describe", "pod", "trainer"}},
	{Name: "live-describe-claim", Args: []string{"describe", "resourceclaim", "train-gpus"}},
	{Name: "live-describe-claim-shared", Args: []string{"describe", "claim", "net-a"}},
	{Name: "live-describe-claim-pending", Args: []string{"describe", "claim", "inference-gpus-x7k2p"}},
	{Name: "live-describe-pod-missing", Args: []string{"describe", "pod", "nosuch"}},
}

func TestLiveGolden(t *testing.T) {
	cmdtesting.Golden(t, cmdtesting.NewFakeClusterFactory(t, "v1"), liveCases)
}

// TestLiveAnyRelease: the same answers from a cluster of any release
// from 1.31 on.
func TestLiveAnyRelease(t *testing.T) { cmdtesting.SameOnEveryRelease(t, liveCases) }

// TestLive130 is a 1.30 cluster (v1alpha2 with structured parameters):
// it has no DeviceTaintRules, and its scheduler (1.30's default gates)
// ignores device taints, so node-b's GPUs are free for the pod there.
func TestLive130(t *testing.T) {
	f := cmdtesting.NewFakeClusterFactory(t, "v1alpha2")
	f.Fake.SetServerVersion("v1.30.14")
	cmdtesting.Golden(t, f, []cmdtesting.Case{
		{Name: "live130-describe-pod-pending", Args: []string{"describe", "pod", "inference", "--explain"}},
		{Name: "live130-describe-claim", Args: []string{"describe", "claim", "train-gpus"}},
	})
}

// TestDescribeAgreesWithAllocate: "describe pod" and "allocate" with a pod
// like it give the same reasons, and with --explain the same nodes,
// explanations and holders: one simulation, one vocabulary.
func TestDescribeAgreesWithAllocate(t *testing.T) {
	f := cmdtesting.NewFakeClusterFactory(t, "v1")
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
	_, out, _ := cmdtesting.Run(f, []string{"describe", "pod", "inference", "--explain"}, nil)
	described := reasons(out, "inference")
	_, _, errOut := cmdtesting.Run(f, []string{"allocate", "--from-cluster", "--explain", "-f", cmdtesting.AppDir + "/testdata/live/whatif-pod.yaml"}, nil)
	allocated := reasons(errOut, "inference-again")
	if len(described) < 3 || strings.Join(described, "\n") != strings.Join(allocated, "\n") {
		t.Errorf("describe pod:\n%s\nallocate:\n%s", strings.Join(described, "\n"), strings.Join(allocated, "\n"))
	}
}

// TestLiveGates133: a 1.33 cluster's scheduler has 1.33's default gates
// (no device taints: the pod fits on node-b); --feature-gates applies
// over them, and a gate locked on in 1.37 may be set to its 1.33 value.
func TestLiveGates133(t *testing.T) {
	f := cmdtesting.NewFakeClusterFactory(t, "v1alpha3")
	f.Fake.SetServerVersion("v1.33.13")
	cmdtesting.Golden(t, f, []cmdtesting.Case{
		{Name: "live133-describe-pod", Args: []string{"describe", "pod", "inference"}},
		{Name: "live133-describe-pod-gates", Args: []string{"describe", "pod", "inference", "--feature-gates", "DRADeviceTaints=true,DRADeviceTaintRules=true,DRAAdminAccess=false"}},
	})
	code, _, errOut := cmdtesting.Run(f, []string{"describe", "pod", "inference", "--feature-gates", "DRANoSuchGate=true"}, nil)
	if code != cmdutil.ExitUsage || !strings.Contains(errOut, `invalid argument "DRANoSuchGate=true" for --feature-gates: unrecognized feature gate: DRANoSuchGate`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
