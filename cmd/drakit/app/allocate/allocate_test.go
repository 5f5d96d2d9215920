package allocate_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/cmd/drakit/app/allocate"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
)

func TestMain(m *testing.M) { cmdtesting.Main(m) }

// factory is a fixed build, without a cluster.
var factory = cmdtesting.NewFactory()

var goldenCases = []cmdtesting.Case{
	{Name: "allocate-wide", Args: []string{"allocate", "-f", "examples/v1alpha3", "-o", "wide"}},
	{Name: "allocate-node", Args: []string{"allocate", "-f", "examples/v1alpha3/deviceclasses.yaml", "-f", "examples/v1alpha3/resourceslices.yaml", "-f", "examples/v1alpha3/resourceclaims.yaml", "--node", "node-b"}},
	{Name: "allocate-unsatisfiable", Args: []string{"allocate", "-f", "examples/v1alpha3", "--node", "node-c", "-o", "wide"}},
	{Name: "allocate-all-or-nothing", Args: []string{"allocate", "-f", "examples/v1alpha3/deviceclasses.yaml", "-f", "examples/v1alpha3/resourceslices.yaml", "-f", cmdtesting.InputFile("pod-claims.yaml"), "--all-or-nothing", "-o", "wide"}},
	{Name: "allocate-huge-exponent", Args: []string{"allocate", "-f", "examples/v1alpha3/deviceclasses.yaml", "-f", "examples/v1alpha3/resourceslices.yaml", "-f", cmdtesting.InputFile("huge-exponent-selector.yaml")}},
	{Name: "allocate-v1alpha2", Args: []string{"allocate", "-f", "examples/v1alpha2", "-o", "json"}},
	{Name: "allocate-bad-input", Args: []string{"allocate", "-f", "examples/v1alpha3", "-f", cmdtesting.InputFile("unknown-field.yaml")}},
}

func TestGolden(t *testing.T) { cmdtesting.Golden(t, factory, goldenCases) }

// laterGatesOff turns off the gates of what 1.32 and later added, as
// allocate's help says: 1.37's rules with those gates off.
const laterGatesOff = "DRAPartitionableDevices=false,DRADeviceTaints=false,DRADeviceTaintRules=false,DRAConsumableCapacity=false,DRADeviceBindingConditions=false"

// Golden cases of allocate with the 1.37 allocator: examples/v1 with its
// shared NIC, partitions on counters, taints, a DeviceTaintRule and
// firstAvailable; the same with what 1.32 and later added off; the taint rules
// on and off on one node; a DeviceTaintRule of v1alpha3 that leaves claims
// without devices.
var allocateFeatureCases = []cmdtesting.Case{
	{Name: "allocate-v1-wide", Args: []string{"allocate", "-f", "examples/v1", "-o", "wide"}},
	{Name: "allocate-v1", Args: []string{"allocate", "-f", "examples/v1"}},
	{Name: "allocate-gates-off", Args: []string{"allocate", "-f", "examples/v1", "-o", "wide", "--feature-gates", laterGatesOff}},
	{Name: "allocate-taint-rule-node-a", Args: []string{"allocate", "-f", "examples/v1", "--node", "node-a", "-o", "wide"}},
	{Name: "allocate-taint-rules-off", Args: []string{"allocate", "-f", "examples/v1", "--node", "node-a", "-o", "wide", "--feature-gates", "DRADeviceTaintRules=false"}},
	{Name: "allocate-taint-rule-v1alpha3", Args: []string{"allocate", "-f", "examples/v1", "-f", cmdtesting.InputFile("taint-rule-v1alpha3.yaml"), "-o", "wide"}},
	{Name: "help-allocate", Args: []string{"allocate", "--help"}},
	{Name: "usage-allocate-feature-gates", Args: []string{"allocate", "-f", "examples/v1", "--feature-gates", "DRAPrioritizedList=false"}},
}

// shareIDPattern matches the share IDs the allocator derives for each
// allocation of a shared device (the same on every run, so the goldens
// show them).
var shareIDPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

func TestGoldenAllocateFeatures(t *testing.T) { cmdtesting.Golden(t, factory, allocateFeatureCases) }

// Golden cases of allocate with pods (examples/pods): templates, a shared
// claim, an extended resource, priorities, node selector and affinity,
// a taint, a cordoned node, a pod waiting for a missing template; in
// every output format, with and without --explain; and pods that cannot
// be read, named by file, document and field.
var allocatePodCases = []cmdtesting.Case{
	{Name: "allocate-pods-wide", Args: []string{"allocate", "-f", "examples/pods", "-o", "wide", "--explain"}},
	{Name: "allocate-pods", Args: []string{"allocate", "-f", "examples/pods"}},
	{Name: "allocate-pods-json", Args: []string{"allocate", "-f", "examples/pods", "-o", "json", "-v"}},
	{Name: "allocate-pods-one-node", Args: []string{"allocate", "-f", "examples/pods", "--node", "gpu-3", "-o", "wide"}},
	{Name: "allocate-pods-bad-input", Args: []string{"allocate", "-f", "examples/pods", "-f", cmdtesting.InputFile("pods-bad.yaml")}},
	{Name: "allocate-pods-extended", Args: []string{"allocate", "-f", "examples/pods/deviceclasses.yaml", "-f", "examples/pods/resourceslices.yaml", "-f", cmdtesting.InputFile("pods-extended.yaml"), "-o", "wide", "--explain"}},
}

func TestGoldenAllocatePods(t *testing.T) { cmdtesting.Golden(t, factory, allocatePodCases) }

// A script that feeds drakit allocate a cluster's export must not fail
// because a namespace has no claims: with nothing to allocate, nothing is
// unsatisfiable.
func TestAllocateWithoutClaims(t *testing.T) {
	const emptyList = "apiVersion: v1\nkind: List\nitems: []\n"
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
	}{
		{name: "inventory only", args: []string{"-f", "examples/v1alpha3/deviceclasses.yaml", "-f", "examples/v1alpha3/resourceslices.yaml", "-f", "examples/v1alpha3/nodes.yaml"}},
		{name: "inventory only, table", args: []string{"-f", "examples/v1alpha3/deviceclasses.yaml", "-f", "examples/v1alpha3/resourceslices.yaml", "-o", "wide"}},
		{name: "other kinds only", args: []string{"-f", "examples/v1alpha3/podschedulingcontexts.yaml", "-f", "examples/v1alpha3/resourceclaimtemplates.yaml", "-o", "json"}},
		{name: "empty List on stdin", args: []string{"-f", "-"}, stdin: emptyList},
		{name: "empty stdin", args: []string{"-f", "-"}},
		{name: "on a node, all or nothing", args: []string{"-f", "examples/v1alpha3/resourceslices.yaml", "--node", "node-a", "--all-or-nothing"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := cmdtesting.Run(factory, append([]string{"allocate"}, tc.args...), []byte(tc.stdin))
			if code != 0 {
				t.Errorf("exit code %d, want 0; stderr:\n%s", code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if !strings.HasPrefix(stderr, "No ResourceClaim in the input: nothing to allocate.\nSummary: 0 claims allocated, 0 allocated before, 0 unsatisfiable") {
				t.Errorf("stderr:\n%s", stderr)
			}
			if strings.Contains(stderr, "error:") {
				t.Errorf("stderr reports an error:\n%s", stderr)
			}
		})
	}

	// Input problems still fail: the claim with an unknown field is not read.
	code, _, stderr := cmdtesting.Run(factory, []string{"allocate", "-f", "examples/v1alpha3/deviceclasses.yaml", "-f", cmdtesting.InputFile("unknown-field.yaml")}, nil)
	if code != 1 || !strings.Contains(stderr, "error: nothing was allocated") {
		t.Errorf("with an input problem: exit code %d, stderr:\n%s", code, stderr)
	}
}

// The help tells which features are on by default and how to leave out
// what 1.32 and later added; both must be true of the gates drakit knows.
func TestAllocateHelpFeatures(t *testing.T) {
	long := allocate.NewCmdAllocate(factory, genericiooptions.IOStreams{}).Long
	on := long[strings.Index(long, "On by default:"):strings.Index(long, "Off by default:")]
	off := long[strings.Index(long, "Off by default:"):strings.Index(long, "To leave out what")]
	defaults := features.Defaults()
	for _, spec := range features.Known() {
		name := "(" + string(spec.Name) + ")"
		if strings.Contains(on, name) && !defaults.Enabled(spec.Name) {
			t.Errorf("help says %s is on by default", spec.Name)
		}
		if strings.Contains(off, name) && defaults.Enabled(spec.Name) {
			t.Errorf("help says %s is off by default", spec.Name)
		}
	}
	var recipe string
	for _, l := range strings.Split(long, "\n") {
		if strings.HasPrefix(l, "  --feature-gates ") {
			recipe = strings.TrimPrefix(l, "  --feature-gates ")
		}
	}
	gates, err := features.Parse(recipe)
	if err != nil {
		t.Fatalf("the recipe %q: %v", recipe, err)
	}
	// What is left is what 1.31 had, or what a 1.37 cannot turn off.
	if got, want := allocator.FeaturesFromGates(gates), (allocator.Features{AdminAccess: true, PrioritizedList: true}); got != want {
		t.Errorf("the recipe gives %+v, want %+v", got, want)
	}
}

// --feature-gates is checked as validate checks it: a usage error (exit
// 2) naming the flag and the gate, before any input is read.
func TestAllocateFeatureGatesUsage(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"DRAConsumableCapacity=maybe", "DRAConsumableCapacity"},
		{"DRAPrioritizedList=false", "locked"},
		{"DRADeviceTaints=false", "DRADeviceTaintRules"},
		{"DRANoSuchGate=true", "DRANoSuchGate"},
	} {
		code, stdout, stderr := cmdtesting.Run(factory, []string{"allocate", "-f", "examples/v1", "--feature-gates", tc.value}, nil)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "--feature-gates") || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit code %d, stdout %q, stderr:\n%s", tc.value, code, stdout, stderr)
		}
	}
}

// With the gate off, the DeviceTaintRules of the input are not applied,
// and allocate says so, naming the gate that is off.
func TestAllocateTaintRulesOffNote(t *testing.T) {
	for _, tc := range []struct{ gates, want string }{
		{"DRADeviceTaintRules=false", "note: 1 DeviceTaintRule not applied: feature gate DRADeviceTaintRules is off\n"},
		{"DRADeviceTaints=false,DRADeviceTaintRules=false", "note: 1 DeviceTaintRule not applied: feature gate DRADeviceTaints is off\n"},
		{"", ""},
	} {
		_, _, stderr := cmdtesting.Run(factory, []string{"allocate", "-f", "examples/v1", "--feature-gates", tc.gates}, nil)
		if got := strings.Contains(stderr, "note: "); got != (tc.want != "") || !strings.Contains(stderr, tc.want) {
			t.Errorf("--feature-gates %q: stderr:\n%s", tc.gates, stderr)
		}
	}
}

// Claims and inventories written for 1.31 and before use none of what
// 1.32 and later added, so a 1.37 scheduler with its default gates places
// them where one with those gates off does.
func TestAllocateOldExamplesWithLaterGatesOff(t *testing.T) {
	for _, args := range [][]string{
		{"-f", "examples/v1alpha3", "-o", "wide"},
		{"-f", "examples/v1alpha3", "--node", "node-c"},
		{"-f", "examples/v1alpha3/deviceclasses.yaml", "-f", "examples/v1alpha3/resourceslices.yaml", "-f", cmdtesting.InputFile("pod-claims.yaml"), "--all-or-nothing", "-o", "json"},
		{"-f", "examples/v1alpha2", "-o", "wide"},
		{"-f", "examples/v1alpha1", "-R", "-o", "wide"},
	} {
		args = append([]string{"allocate"}, args...)
		codeNow, outNow, errNow := cmdtesting.Run(factory, args, nil)
		codeOff, outOff, errOff := cmdtesting.Run(factory, append(args, "--feature-gates", laterGatesOff), nil)
		if codeNow != codeOff || outNow != outOff || errNow != errOff {
			t.Errorf("%s: with the gates of 1.32 and later off (exit code %d):\n%s%s\nwith the 1.37 defaults (exit code %d):\n%s%s", strings.Join(args, " "), codeOff, outOff, errOff, codeNow, outNow, errNow)
		}
		if !strings.Contains(outNow, "allocated") && !strings.Contains(outNow, "allocation") {
			t.Errorf("%s: nothing allocated:\n%s%s", strings.Join(args, " "), outNow, errNow)
		}
	}
}

// Each allocation of a shared device has a share ID of its own, a UUID.
func TestAllocateSharesHaveTheirOwnID(t *testing.T) {
	code, stdout, stderr := cmdtesting.Run(factory, []string{"allocate", "-f", "examples/v1", "-o", "wide"}, nil)
	if code != 0 {
		t.Fatalf("exit code %d, stderr:\n%s", code, stderr)
	}
	ids := map[string]bool{}
	for _, l := range strings.Split(stdout, "\n") {
		if f := strings.Fields(l); len(f) > 8 && f[5] == "nic-0" {
			if !shareIDPattern.MatchString(f[8]) {
				t.Errorf("share ID %q is not a UUID: %s", f[8], l)
			}
			ids[f[8]] = true
		}
	}
	if len(ids) != 2 {
		t.Errorf("%d distinct share IDs of nic-0, want 2 (ingest-nic and serve-nic):\n%s", len(ids), stdout)
	}
}

// A kind its version does not have is refused, naming file, document and
// kind, and nothing is allocated: v1beta1 never had DeviceTaintRule.
func TestAllocateRefusesKindNotInVersion(t *testing.T) {
	rule := "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceTaintRule\nmetadata: {name: recall}\nspec: {taint: {key: k, effect: NoSchedule}}\n"
	code, stdout, stderr := cmdtesting.Run(factory, []string{"allocate", "-f", "examples/v1", "-f", "-"}, []byte(rule))
	want := "error: <stdin>:1: document 1: DeviceTaintRule recall: resource.k8s.io/v1beta1 has no kind \"DeviceTaintRule\"\nerror: nothing was allocated (1 input problem)\n"
	if code != 1 || stdout != "" || stderr != want {
		t.Errorf("exit code %d, stdout %q, stderr:\n%s\nwant:\n%s", code, stdout, stderr, want)
	}
}

// A claim that fits on no node of a large cluster is explained by reason,
// with the nodes counted; the node names come only with --explain, one
// line per reason, in runs of consecutive nodes.
func TestAllocateCountsNodesPerReason(t *testing.T) {
	var in strings.Builder
	in.WriteString("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\nspec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n")
	for i := 0; i < 10; i++ {
		devices := 2
		if i >= 7 {
			devices = 0 // nodes 7 to 9 offer no device at all
		}
		fmt.Fprintf(&in, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-%d}\nspec:\n  driver: gpu.example.com\n  nodeName: node-%d\n  pool: {name: node-%d, generation: 1, resourceSliceCount: 1}\n  devices:\n", i, i, i)
		for d := 0; d < devices; d++ {
			fmt.Fprintf(&in, "  - name: gpu-%d\n    attributes: {kind: {string: gpu}}\n", d)
		}
		if devices == 0 {
			in.WriteString("  - name: other\n    attributes: {kind: {string: nic}}\n")
		}
		fmt.Fprintf(&in, "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-%d}\n", i)
	}
	in.WriteString("---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: four, namespace: ml}\nspec:\n  devices:\n    requests:\n    - name: gpus\n      exactly: {deviceClassName: gpu, count: 4, selectors: [{cel: {expression: 'device.attributes[\"gpu.example.com\"].kind != \"nic\"'}}]}\n")

	_, _, stderr := cmdtesting.Run(factory, []string{"allocate", "-f", "-"}, []byte(in.String()))
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one error line and the summary, got:\n%s", stderr)
	}
	line := lines[0]
	for _, want := range []string{`on 7 of 10 nodes tried, first node-0: request "gpus": NotEnoughDevices`, `on node-7, node-8, node-9: request "gpus": NoMatchingDevice`} {
		if !strings.Contains(line, want) {
			t.Errorf("error line lacks %q:\n%s", want, line)
		}
	}
	if strings.Contains(line, "node-1,") || strings.Contains(line, "node-6") {
		t.Errorf("error line lists the nodes of a counted reason:\n%s", line)
	}

	_, _, stderr = cmdtesting.Run(factory, []string{"allocate", "-f", "-", "--explain"}, []byte(in.String()))
	// The nodes in runs, as describe pod --explain writes them.
	want := `  7 nodes (request "gpus": NotEnoughDevices): node-0..node-6 (7)` + "\n"
	if !strings.Contains(stderr, want) {
		t.Errorf("--explain: want the line\n%s\ngot:\n%s", want, stderr)
	}
}

// The deadline reaches the allocator's search, and the error names the
// claim being allocated with its file and document, and what to do.
func TestAllocateTimeoutNamesTheClaim(t *testing.T) {
	code, stdout, stderr := cmdtesting.Run(factory, []string{"allocate", "-f", "examples/v1", "--timeout", "1ns"}, nil)
	if code != 1 || stdout != "" {
		t.Fatalf("exit %d, stdout:\n%s", code, stdout)
	}
	want := regexp.MustCompile(`^error: examples/v1/[a-z-]+\.yaml:\d+: document \d+: ResourceClaim [a-z0-9-]+/[a-z0-9-]+: the allocation on node [a-z0-9-]+ did not finish within 1ns \(--timeout\): .*raise --timeout\n`)
	if !want.MatchString(stderr) {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// --timeout bounds each claim's search, not the run: claims that each
// take a moment all get allocated even when together they take longer.
func TestAllocateTimeoutIsPerClaim(t *testing.T) {
	var in strings.Builder
	in.WriteString("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n")
	const count = 600
	for n := 0; n < count; n++ {
		fmt.Fprintf(&in, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-%d}\nspec:\n  driver: gpu.example.com\n  nodeName: node-%d\n  pool: {name: node-%d, generation: 1, resourceSliceCount: 1}\n  devices: [{name: gpu-0}]\n", n, n, n)
	}
	for c := 0; c < count; c++ {
		fmt.Fprintf(&in, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c%d, namespace: ns}\nspec:\n  devices:\n    requests: [{name: gpu, exactly: {deviceClassName: gpu}}]\n", c)
	}
	// 600 claims, claim i on node i after the i nodes before it: 180,000
	// calls in all, each claim's at most 600.
	const timeout = 50 * time.Millisecond
	start := time.Now()
	code, _, stderr := cmdtesting.Run(factory, []string{"allocate", "-f", "-", "--timeout", timeout.String()}, []byte(in.String()))
	if code != 0 || !strings.Contains(stderr, "Summary: 600 claims allocated") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if elapsed := time.Since(start); elapsed < timeout {
		t.Skipf("the whole run took %s, less than --timeout: nothing shown", elapsed)
	}
}

// pigeonholes is an inventory of ten groups of five devices and eleven
// claims that each want four devices of one group: they cannot all fit,
// and the allocator's search, choosing four of five devices in one of ten
// groups for each claim, does not find that out in any time that matters.
func pigeonholes() string {
	var b strings.Builder
	b.WriteString("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\nspec: {}\n---\n")
	b.WriteString("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: example.com\n  nodeName: node-a\n  pool: {name: p, generation: 1, resourceSliceCount: 1}\n  devices:\n")
	for g := 0; g < 10; g++ {
		for i := 0; i < 5; i++ {
			fmt.Fprintf(&b, "  - name: d%d-%d\n    attributes:\n      example.com/group: {int: %d}\n", g, i, g)
		}
	}
	for k := 0; k < 11; k++ {
		fmt.Fprintf(&b, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c%d, namespace: ns}\nspec:\n  devices:\n    requests:\n    - name: r\n      exactly: {deviceClassName: c, count: 4}\n    constraints:\n    - requests: [r]\n      matchAttribute: example.com/group\n", k)
	}
	return b.String()
}

// A search that does not end in practice ends at --timeout, naming the
// claims allocated together.
func TestAllocateTimeoutStopsARealSearch(t *testing.T) {
	code, stdout, stderr := cmdtesting.Run(factory, []string{"allocate", "-f", "-", "--all-or-nothing", "--timeout", "300ms"}, []byte(pigeonholes()))
	want := "error: claims ResourceClaim ns/c0, ResourceClaim ns/c1, ResourceClaim ns/c2, ResourceClaim ns/c3, ResourceClaim ns/c4, ResourceClaim ns/c5, ResourceClaim ns/c6, ResourceClaim ns/c7, ResourceClaim ns/c8, ResourceClaim ns/c9, ResourceClaim ns/c10: the allocation on node node-a did not finish within 300ms (--timeout):"
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, want) {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// liveCases are allocate --from-cluster against the fake cluster of
// cmd/drakit/app/testdata/live/cluster.yaml.
var liveCases = []cmdtesting.Case{
	{Name: "live-allocate-what-if", Args: []string{"allocate", "--from-cluster", "-f", cmdtesting.AppDir + "/testdata/live/whatif.yaml", "-o", "wide"}},
}

func TestLiveGolden(t *testing.T) {
	cmdtesting.Golden(t, cmdtesting.NewFakeClusterFactory(t, "v1"), liveCases)
}

// TestLiveAnyRelease: the same answers from a cluster of any release
// from 1.31 on.
func TestLiveAnyRelease(t *testing.T) { cmdtesting.SameOnEveryRelease(t, liveCases) }

// TestLiveGates133: a 1.33 cluster's scheduler has 1.33's default gates
// (no device taints); --feature-gates applies over them.
func TestLiveGates133(t *testing.T) {
	f := cmdtesting.NewFakeClusterFactory(t, "v1alpha3")
	f.Fake.SetServerVersion("v1.33.13")
	cmdtesting.Golden(t, f, []cmdtesting.Case{
		{Name: "live133-allocate-what-if", Args: []string{"allocate", "--from-cluster", "-f", cmdtesting.AppDir + "/testdata/live/whatif.yaml", "-o", "wide", "--feature-gates", "DRADeviceTaints=true"}},
	})
}

// allocate --from-cluster makes a pod's claim from the cluster's template
// when the input lacks it, instead of leaving the pod waiting.
func TestLiveAllocateTemplateFromCluster(t *testing.T) {
	code, out, errOut := cmdtesting.Run(cmdtesting.NewFakeClusterFactory(t, "v1"), []string{"allocate", "--from-cluster", "-o", "wide", "-f", cmdtesting.AppDir + "/testdata/live/whatif-template-pod.yaml"}, nil)
	if strings.Contains(errOut, "waits") || !strings.Contains(out, "default/trainer-gpus-") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}
