package allocate

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/inputs"
)

// readAllocateInput runs allocate's reading of the manifests in text.
func readAllocateInput(t *testing.T, text string) (*inventory, string) {
	t.Helper()
	var errOut strings.Builder
	o := NewOptions(genericiooptions.IOStreams{In: strings.NewReader(text), ErrOut: &errOut})
	inv, err := o.read([]inputs.Input{{Name: inputs.StdinName}}, cmdutil.NewReporter(&errOut))
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
