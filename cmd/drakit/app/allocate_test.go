package app

import (
	"bufio"
	"fmt"
	"strings"
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/inputs"
	"github.com/drakit/drakit/cmd/drakit/internal/objects"
)

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
			code, stdout, stderr := runDrakit(append([]string{"allocate"}, tc.args...), []byte(tc.stdin))
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
	code, _, stderr := runDrakit([]string{"allocate", "-f", "examples/v1alpha3/deviceclasses.yaml", "-f", inputFile("unknown-field.yaml")}, nil)
	if code != 1 || !strings.Contains(stderr, "error: nothing was allocated") {
		t.Errorf("with an input problem: exit code %d, stderr:\n%s", code, stderr)
	}
}

// The TOLERATIONS cell of -o wide uses kubectl's taint notation, so that a
// reader can match it against the taints a driver or a DeviceTaintRule set.
func TestFormatTolerations(t *testing.T) {
	seconds := int64(300)
	for _, tc := range []struct {
		name string
		in   []resource.DeviceToleration
		want string
	}{
		{name: "none", want: ""},
		{name: "equal", in: []resource.DeviceToleration{{Key: "example.com/recall", Operator: resource.DeviceTolerationOpEqual, Value: "firmware", Effect: resource.DeviceTaintEffectNoExecute}}, want: "example.com/recall=firmware:NoExecute"},
		{name: "operator defaults to Equal", in: []resource.DeviceToleration{{Key: "k", Value: "v"}}, want: "k=v"},
		{name: "exists", in: []resource.DeviceToleration{{Key: "example.com/maintenance", Operator: resource.DeviceTolerationOpExists, Effect: resource.DeviceTaintEffectNoSchedule}}, want: "example.com/maintenance:NoSchedule"},
		{name: "everything", in: []resource.DeviceToleration{{Operator: resource.DeviceTolerationOpExists}}, want: "*"},
		{name: "seconds, two", in: []resource.DeviceToleration{
			{Key: "a", Operator: resource.DeviceTolerationOpExists, Effect: resource.DeviceTaintEffectNoExecute, TolerationSeconds: &seconds},
			{Operator: resource.DeviceTolerationOpExists, Effect: resource.DeviceTaintEffectNoSchedule},
		}, want: "a:NoExecute(300s),*:NoSchedule"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := formatTolerations(tc.in); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestFormatCapacity(t *testing.T) {
	got := formatCapacity(map[resource.QualifiedName]apiresource.Quantity{
		"memory":                       apiresource.MustParse("0"),
		"example.com/bandwidth":        apiresource.MustParse("40G"),
		"example.com/virtualFunctions": apiresource.MustParse("1"),
	})
	if want := "example.com/bandwidth=40G,example.com/virtualFunctions=1,memory=0"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := formatCapacity(nil); got != "" {
		t.Errorf("nil: got %q, want empty", got)
	}
}

// -o wide shows, per device, what a 1.37 result records besides the
// device: the share of a shared device and what it consumes, the
// tolerations, the binding conditions and admin access; the request of an
// alternative as "request/alternative".
func TestPrintTableResultFields(t *testing.T) {
	share := types.UID("4a6c3a9e-5b1f-4a57-9d0e-0c1f6a3b2d11")
	admin := true
	obj := &objects.Object{}
	obj.Head.Metadata.Name, obj.Head.Metadata.Namespace = "nic", "team-a"
	alloc := &resource.AllocationResult{Devices: resource.DeviceAllocationResult{Results: []resource.DeviceRequestAllocationResult{
		{Request: "net/fast", Driver: "nic.example.com", Pool: "rack-r1", Device: "nic-0", ShareID: &share,
			ConsumedCapacity: map[resource.QualifiedName]apiresource.Quantity{"bandwidth": apiresource.MustParse("40G")}},
		{Request: "gpu", Driver: "gpu.example.com", Pool: "node-a", Device: "gpu-0", AdminAccess: &admin,
			Tolerations:       []resource.DeviceToleration{{Key: "example.com/recall", Operator: resource.DeviceTolerationOpExists, Effect: resource.DeviceTaintEffectNoExecute}},
			BindingConditions: []string{"example.com/attached", "example.com/ready"}},
	}}}
	inv := &inventory{claims: []*claimEntry{{obj: obj, version: "v1", outcome: allocator.ObjectResult{Node: "node-a", Result: allocator.Result{Allocation: alloc}}}}}
	var b strings.Builder
	w := bufio.NewWriter(&b)
	if err := printTable(w, inv); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := [][]string{
		strings.Split(wideColumns, "\t"),
		{"team-a/nic", "v1", "net/fast", "nic.example.com", "rack-r1", "nic-0", "node-a", "allocated", string(share), "bandwidth=40G", "-", "-", "-"},
		{"team-a/nic", "v1", "gpu", "gpu.example.com", "node-a", "gpu-0", "node-a", "allocated", "-", "-", "example.com/recall:NoExecute", "example.com/attached,example.com/ready", "true"},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), b.String())
	}
	for i, l := range lines {
		if got := strings.Fields(l); strings.Join(got, "|") != strings.Join(want[i], "|") {
			t.Errorf("line %d:\n got: %q\nwant: %q", i, got, want[i])
		}
	}
}

// readAllocateInput runs allocate's reading of the manifests in text.
func readAllocateInput(t *testing.T, text string) (*inventory, string) {
	t.Helper()
	var errOut strings.Builder
	s := genericiooptions.IOStreams{In: strings.NewReader(text), ErrOut: &errOut}
	rep := cmdutil.NewReporter(&errOut)
	inv, err := (&allocateOptions{strict: true}).read([]inputs.Input{{Name: inputs.StdinName}}, s, rep)
	if err != nil {
		t.Fatal(err)
	}
	return inv, errOut.String()
}

// DeviceTaintRules of every version that has the kind reach the allocator;
// they are not counted among the skipped objects.
func TestAllocateReadsDeviceTaintRules(t *testing.T) {
	var docs []string
	for _, v := range []string{"v1alpha3", "v1beta2", "v1"} {
		docs = append(docs, `apiVersion: resource.k8s.io/`+v+`
kind: DeviceTaintRule
metadata: {name: rule-`+v+`}
spec:
  deviceSelector: {driver: gpu.example.com, pool: node-a, device: gpu-0}
  taint: {key: example.com/`+v+`, value: x, effect: NoSchedule}
`)
	}
	inv, stderr := readAllocateInput(t, strings.Join(docs, "---\n"))
	if stderr != "" {
		t.Errorf("stderr: %s", stderr)
	}
	if len(inv.skipped) != 0 {
		t.Errorf("skipped %v, want nothing", inv.skipped)
	}
	if len(inv.taintRules) != 3 {
		t.Fatalf("%d DeviceTaintRules, want 3", len(inv.taintRules))
	}
	for i, v := range []string{"v1alpha3", "v1beta2", "v1"} {
		r := inv.taintRules[i]
		sel := r.Spec.DeviceSelector
		if r.Name != "rule-"+v || string(r.Spec.Taint.Key) != "example.com/"+v || r.Spec.Taint.Effect != resource.DeviceTaintEffectNoSchedule ||
			sel == nil || sel.Driver == nil || *sel.Driver != "gpu.example.com" || sel.Pool == nil || *sel.Pool != "node-a" || sel.Device == nil || *sel.Device != "gpu-0" {
			t.Errorf("%s: read as %+v", v, r)
		}
	}
}

// Nodes keep what the allocator looks at: labels (node selectors of
// slices and devices) and status.declaredFeatures (slices with
// skipNodeOperations).
func TestAllocateReadsNodes(t *testing.T) {
	inv, stderr := readAllocateInput(t, `apiVersion: v1
kind: Node
metadata:
  name: node-a
  labels: {topology.example.com/rack: r1}
status:
  declaredFeatures: [DRAOptionalNodeOperations]
`)
	if stderr != "" {
		t.Errorf("stderr: %s", stderr)
	}
	if len(inv.nodes) != 1 {
		t.Fatalf("%d nodes, want 1", len(inv.nodes))
	}
	n := inv.nodes[0]
	if n.Name != "node-a" || n.Labels["topology.example.com/rack"] != "r1" || strings.Join(n.Status.DeclaredFeatures, ",") != "DRAOptionalNodeOperations" {
		t.Errorf("node read as %+v", n)
	}
}

// The help tells which features are on by default and how to get a 1.31
// scheduler; both must be true of the gates drakit knows.
func TestAllocateHelpFeatures(t *testing.T) {
	long := newAllocateCommand(tf, genericiooptions.IOStreams{}).Long
	on := long[strings.Index(long, "On by default:"):strings.Index(long, "Off by default:")]
	off := long[strings.Index(long, "Off by default:"):strings.Index(long, "For the behaviour")]
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
		t.Fatalf("the 1.31 recipe %q: %v", recipe, err)
	}
	// What is left is what 1.31 had, or what a 1.37 cannot turn off.
	if got, want := allocator.FeaturesFromGates(gates), (allocator.Features{AdminAccess: true, PrioritizedList: true}); got != want {
		t.Errorf("the 1.31 recipe gives %+v, want %+v", got, want)
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
		code, stdout, stderr := runDrakit([]string{"allocate", "-f", "examples/v1", "--feature-gates", tc.value}, nil)
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
		_, _, stderr := runDrakit([]string{"allocate", "-f", "examples/v1", "--feature-gates", tc.gates}, nil)
		if got := strings.Contains(stderr, "note: "); got != (tc.want != "") || !strings.Contains(stderr, tc.want) {
			t.Errorf("--feature-gates %q: stderr:\n%s", tc.gates, stderr)
		}
	}
}

// Claims and inventories written for 1.31 and before use none of what
// 1.32 and later added, so a 1.37 scheduler with its default gates places
// them where one with a 1.31 scheduler's gates does.
func TestAllocateOldExamplesAsIn131(t *testing.T) {
	for _, args := range [][]string{
		{"-f", "examples/v1alpha3", "-o", "wide"},
		{"-f", "examples/v1alpha3", "--node", "node-c"},
		{"-f", "examples/v1alpha3/deviceclasses.yaml", "-f", "examples/v1alpha3/resourceslices.yaml", "-f", inputFile("pod-claims.yaml"), "--all-or-nothing", "-o", "json"},
		{"-f", "examples/v1alpha2", "-o", "wide"},
		{"-f", "examples/v1alpha1", "-R", "-o", "wide"},
	} {
		args = append([]string{"allocate"}, args...)
		codeNow, outNow, errNow := runDrakit(args, nil)
		code131, out131, err131 := runDrakit(append(args, "--feature-gates", gates131), nil)
		if codeNow != code131 || outNow != out131 || errNow != err131 {
			t.Errorf("%s: with the 1.31 gates (exit code %d):\n%s%s\nwith the 1.37 defaults (exit code %d):\n%s%s", strings.Join(args, " "), code131, out131, err131, codeNow, outNow, errNow)
		}
		if !strings.Contains(outNow, "allocated") && !strings.Contains(outNow, "allocation") {
			t.Errorf("%s: nothing allocated:\n%s%s", strings.Join(args, " "), outNow, errNow)
		}
	}
}

// Each allocation of a shared device has a share ID of its own, a UUID.
func TestAllocateSharesHaveTheirOwnID(t *testing.T) {
	code, stdout, stderr := runDrakit([]string{"allocate", "-f", "examples/v1", "-o", "wide"}, nil)
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
	code, stdout, stderr := runDrakit([]string{"allocate", "-f", "examples/v1", "-f", "-"}, []byte(rule))
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

	_, _, stderr := runDrakit([]string{"allocate", "-f", "-"}, []byte(in.String()))
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

	_, _, stderr = runDrakit([]string{"allocate", "-f", "-", "--explain"}, []byte(in.String()))
	// The nodes in runs, as describe pod --explain writes them.
	want := `  7 nodes (request "gpus": NotEnoughDevices): node-0..node-6 (7)` + "\n"
	if !strings.Contains(stderr, want) {
		t.Errorf("--explain: want the line\n%s\ngot:\n%s", want, stderr)
	}
}
