package allocator

import (
	"context"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/allocator/verify"
	"github.com/drakit/drakit/apis/resource"
)

const drv = "gpu.example.com"

var (
	gpuClass  = class("gpu", `device.driver == "gpu.example.com"`)
	nicClass  = class("nic", `device.driver == "nic.example.com"`)
	anyClass  = class("any")
	numaZero  = func(int) int { return 0 }
	numaHalf4 = func(i int) int { return i / 4 } // gpu0-3 numa 0, gpu4-7 numa 1
)

// want is the expected outcome for one claim: devices, or a failure.
type want struct {
	devices  []string // "request=driver/pool/device"; nil with reason set
	reason   Reason
	request  string
	contains string
	already  bool
}

// gatesOff are the features with every gate off.
var gatesOff = &Features{}

// verifyFeatures are the checks of allocator/verify for the features.
func verifyFeatures(f *Features) verify.Features {
	if f == nil {
		d := DefaultFeatures()
		f = &d
	}
	return verify.Features{AdminAccess: f.AdminAccess, DeviceTaints: f.DeviceTaints, PartitionableDevices: f.PartitionableDevices,
		ConsumableCapacity: f.ConsumableCapacity, DeviceBindingAndStatus: f.DeviceBindingAndStatus,
		PrioritizedList: f.PrioritizedList, ListTypeAttributes: f.ListTypeAttributes, DerivedAttributes: f.DerivedAttributes,
		CompatibilityGroups: f.CompatibilityGroups}
}

type scenario struct {
	name string
	// features are the allocator's; nil for the 1.37 defaults.
	features  *Features
	classes   []*resource.DeviceClass
	slices    []*resource.ResourceSlice
	inUse     []*resource.ResourceClaim
	inUseIDs  []DeviceID
	node      *corev1.Node
	noNode    bool
	mode      Mode
	claims    []*resource.ResourceClaim
	want      []want
	checkNode func(t *testing.T, sel []*corev1.NodeSelector)
	checkCfg  func(t *testing.T, cfg [][]resource.DeviceAllocationConfiguration)
}

func TestAllocate(t *testing.T) {
	n1 := node("n1", "zone", "a", "rack", "r1")
	q := apiresource.MustParse
	scenarios := []scenario{
		{
			name:    "one device of a node-local slice",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "gpu"))},
			want:    []want{{devices: []string{"r=gpu.example.com/n1/gpu0"}}},
			checkNode: func(t *testing.T, sel []*corev1.NodeSelector) {
				w := &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"n1"}}}}}}
				if !reflect.DeepEqual(sel[0], w) {
					t.Errorf("node selector %v", sel[0])
				}
			},
		},
		{
			name:    "count picks the first devices in order",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(4, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "gpu", count(3)))},
			want:    []want{{devices: []string{"r=gpu.example.com/n1/gpu0", "r=gpu.example.com/n1/gpu1", "r=gpu.example.com/n1/gpu2"}}},
		},
		{
			name:    "class selector admits only its driver",
			classes: []*resource.DeviceClass{gpuClass, nicClass},
			slices: []*resource.ResourceSlice{
				slice("a", "aaa.example.com", "n1", onNode("n1"), dev("x")),
				slice("s1", drv, "n1", onNode("n1"), dev("g")),
				slice("s2", "nic.example.com", "n1", onNode("n1"), dev("eth0")),
			},
			claims: []*resource.ResourceClaim{claim("c", req("gpu", "gpu"), req("nic", "nic"))},
			want:   []want{{devices: []string{"gpu=gpu.example.com/n1/g", "nic=nic.example.com/n1/eth0"}}},
		},
		{
			name:    "request selectors with attributes, semver and quantity",
			classes: []*resource.DeviceClass{gpuClass},
			slices: []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"),
				dev("old", attr("model", "a100"), attr("driverVersion", "v:1.0.0"), attr("memory", q("40Gi"))),
				dev("small", attr("model", "a100"), attr("driverVersion", "v:2.0.0"), attr("memory", q("16Gi"))),
				dev("good", attr("model", "a100"), attr("gpu.example.com/driverVersion", "v:2.1.0"), attr("memory", q("80Gi"))),
			)},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu",
				sel(`device.attributes["gpu.example.com"].model == "a100"`),
				sel(`device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.5.0"))`),
				sel(`device.capacity["gpu.example.com"].memory.compareTo(quantity("32Gi")) >= 0`)))},
			want: []want{{devices: []string{"r=gpu.example.com/n1/good"}}},
		},
		{
			name:    "cel.bind in a selector",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(8, numaHalf4)...)},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "gpu", sel(`cel.bind(g, device.attributes["gpu.example.com"], g.numa == 1 && g.index > 4)`)))},
			want:    []want{{devices: []string{"r=gpu.example.com/n1/gpu5"}}},
		},
		{
			name:    "missing class",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(1, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "tpu"))},
			want:    []want{{reason: ReasonNoClass, request: "r", contains: `DeviceClass "tpu" does not exist`}},
		},
		{
			name:    "no device matches",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "gpu", sel(`device.attributes["gpu.example.com"].numa == 7`)))},
			want:    []want{{reason: ReasonNoMatch, request: "r", contains: "of the 2 devices the node can reach, none passes"}},
		},
		{
			name:    "not enough devices, some allocated to other claims",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(4, numaZero)...)},
			inUse:   []*resource.ResourceClaim{allocated("other", "gpu.example.com/n1/gpu1", "gpu.example.com/n1/gpu2")},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "gpu", count(3)))},
			want:    []want{{reason: ReasonNotEnough, request: "r", contains: "asks for 3, 4 match, of which 2 are already allocated"}},
		},
		{
			name:     "allocated devices are skipped",
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(4, numaZero)...)},
			inUse:    []*resource.ResourceClaim{allocated("other", "gpu.example.com/n1/gpu0")},
			inUseIDs: []DeviceID{{drv, "n1", "gpu2"}},
			claims:   []*resource.ResourceClaim{claim("c", req("r", "gpu", count(2)))},
			want:     []want{{devices: []string{"r=gpu.example.com/n1/gpu1", "r=gpu.example.com/n1/gpu3"}}},
		},
		{
			name:    "All takes every device the class and request admit",
			classes: []*resource.DeviceClass{class("low", `device.driver == "gpu.example.com"`, `device.attributes["gpu.example.com"].index < 3`)},
			slices: []*resource.ResourceSlice{
				slice("s1", drv, "n1", onNode("n1"), gpus(5, numaZero)...),
				slice("s2", "nic.example.com", "n1", onNode("n1"), dev("eth0", attr("index", 0))),
			},
			claims: []*resource.ResourceClaim{claim("c", req("r", "low", all(), sel(`device.attributes["gpu.example.com"].index != 1`)))},
			want:   []want{{devices: []string{"r=gpu.example.com/n1/gpu0", "r=gpu.example.com/n1/gpu2"}}},
		},
		{
			name:    "All with a partially allocated pool fails",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(4, numaZero)...)},
			inUse:   []*resource.ResourceClaim{allocated("other", "gpu.example.com/n1/gpu2")},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "gpu", all()))},
			want:    []want{{reason: ReasonDeviceInUse, request: "r", contains: "device gpu.example.com/n1/gpu2 is already allocated"}},
		},
		{
			name:    "All with adminAccess on a partially allocated pool",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(3, numaZero)...)},
			inUse:   []*resource.ResourceClaim{allocated("other", "gpu.example.com/n1/gpu2")},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "gpu", all(), admin()))},
			want:    []want{{devices: []string{"r=gpu.example.com/n1/gpu0", "r=gpu.example.com/n1/gpu1", "r=gpu.example.com/n1/gpu2"}}},
		},
		{
			name:    "All reserves its devices before other requests choose",
			classes: []*resource.DeviceClass{gpuClass, class("numa0", `device.attributes["gpu.example.com"].numa == 0`)},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(8, numaHalf4)...)},
			claims:  []*resource.ResourceClaim{claim("c", req("one", "gpu", count(2)), req("rest", "numa0", all())), claim("d", req("r", "gpu"))},
			want: []want{
				{devices: []string{"one=gpu.example.com/n1/gpu4", "one=gpu.example.com/n1/gpu5",
					"rest=gpu.example.com/n1/gpu0", "rest=gpu.example.com/n1/gpu1", "rest=gpu.example.com/n1/gpu2", "rest=gpu.example.com/n1/gpu3"}},
				{devices: []string{"r=gpu.example.com/n1/gpu6"}},
			},
		},
		{
			name:    "only the newest generation of a pool counts",
			classes: []*resource.DeviceClass{gpuClass},
			slices: []*resource.ResourceSlice{
				poolSlice("old", drv, "p", 1, 1, onNode("n1"), dev("stale")),
				poolSlice("new-a", drv, "p", 2, 2, onNode("n1"), dev("fresh-a")),
				poolSlice("new-b", drv, "p", 2, 2, onNode("n1"), dev("fresh-b")),
			},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", all()))},
			want:   []want{{devices: []string{"r=gpu.example.com/p/fresh-a", "r=gpu.example.com/p/fresh-b"}}},
		},
		{
			name:    "a pool that names a device twice is not used",
			classes: []*resource.DeviceClass{gpuClass},
			slices: []*resource.ResourceSlice{
				poolSlice("bad-1", drv, "bad", 0, 2, onNode("n1"), dev("d0"), dev("d1")),
				poolSlice("bad-2", drv, "bad", 0, 2, onNode("n1"), dev("d1")),
				slice("good", drv, "good", onNode("n1"), dev("g0")),
			},
			mode:   Sequential,
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu")), claim("d", req("r", "gpu")), claim("all", req("r", "gpu", all()))},
			want: []want{
				{devices: []string{"r=gpu.example.com/good/g0"}},
				{reason: ReasonConflict, contains: "not together with claim ns/c allocated before it in this call"},
				{reason: ReasonInvalidPool, request: "r", contains: `resource pool gpu.example.com/bad is invalid: device name "d1" is used twice`},
			},
		},
		{
			name:    "slices of other nodes are invisible; selector and allNodes slices are visible",
			classes: []*resource.DeviceClass{anyClass},
			slices: []*resource.ResourceSlice{
				slice("other", drv, "n2", onNode("n2"), dev("far")),
				slice("zone-b", "net.example.com", "zone-b", selecting("zone", "b"), dev("b0")),
				slice("zone-a", "net.example.com", "zone-a", selecting("zone", "a"), dev("a0")),
				slice("everywhere", "san.example.com", "san", allNodes(), dev("lun0")),
				slice("mine", drv, "n1", onNode("n1"), dev("near")),
			},
			claims: []*resource.ResourceClaim{claim("c", req("r", "any", all()))},
			want:   []want{{devices: []string{"r=gpu.example.com/n1/near", "r=net.example.com/zone-a/a0", "r=san.example.com/san/lun0"}}},
		},
		{
			name:    "node selector of the result merges the slices' selectors",
			classes: []*resource.DeviceClass{anyClass},
			slices: []*resource.ResourceSlice{
				slice("zone-a", "net.example.com", "zone-a", selecting("zone", "a"), dev("a0")),
				slice("rack", "rack.example.com", "r1", selecting("rack", "r1"), dev("r0")),
				slice("everywhere", "san.example.com", "san", allNodes(), dev("lun0")),
			},
			claims: []*resource.ResourceClaim{claim("c", req("r", "any", count(3)))},
			want:   []want{{devices: []string{"r=net.example.com/zone-a/a0", "r=rack.example.com/r1/r0", "r=san.example.com/san/lun0"}}},
			checkNode: func(t *testing.T, sel []*corev1.NodeSelector) {
				w := &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{
					{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}},
					{Key: "rack", Operator: corev1.NodeSelectorOpIn, Values: []string{"r1"}},
				}}}}
				if !reflect.DeepEqual(sel[0], w) {
					t.Errorf("node selector %v", sel[0])
				}
			},
		},
		{
			name:    "allNodes devices need no node selector; no node sees only them",
			classes: []*resource.DeviceClass{anyClass},
			noNode:  true,
			slices: []*resource.ResourceSlice{
				slice("mine", drv, "n1", onNode("n1"), dev("near")),
				slice("zone-a", "net.example.com", "zone-a", selecting("zone", "a"), dev("a0")),
				slice("everywhere", "san.example.com", "san", allNodes(), dev("lun0")),
			},
			claims: []*resource.ResourceClaim{claim("c", req("r", "any", all()))},
			want:   []want{{devices: []string{"r=san.example.com/san/lun0"}}},
			checkNode: func(t *testing.T, sel []*corev1.NodeSelector) {
				if sel[0] != nil {
					t.Errorf("node selector %v, want none", sel[0])
				}
			},
		},
		{
			name:    "matchAttribute chooses devices that share the value",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(8, func(i int) int { return []int{0, 1, 1, 0, 1, 2, 2, 1}[i] })...)},
			inUse:   []*resource.ResourceClaim{allocated("other", "gpu.example.com/n1/gpu0")},
			claims:  []*resource.ResourceClaim{withConstraint(claim("c", req("r", "gpu", count(3))), "gpu.example.com/numa")},
			want:    []want{{devices: []string{"r=gpu.example.com/n1/gpu1", "r=gpu.example.com/n1/gpu2", "r=gpu.example.com/n1/gpu4"}}},
		},
		{
			name:    "matchAttribute across requests backtracks the first request",
			classes: []*resource.DeviceClass{gpuClass},
			// numa 0: gpu0, gpu1; numa 1: gpu2, gpu3, gpu4
			slices: []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(5, func(i int) int { return []int{0, 0, 1, 1, 1}[i] })...)},
			claims: []*resource.ResourceClaim{withConstraint(claim("c", req("a", "gpu"), req("b", "gpu", count(2))), "gpu.example.com/numa", "a", "b")},
			want:   []want{{devices: []string{"a=gpu.example.com/n1/gpu2", "b=gpu.example.com/n1/gpu3", "b=gpu.example.com/n1/gpu4"}}},
		},
		{
			name:    "constraint limited to some requests",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(4, func(i int) int { return i % 2 })...)},
			claims:  []*resource.ResourceClaim{withConstraint(claim("c", req("a", "gpu"), req("b", "gpu"), req("free", "gpu")), "gpu.example.com/numa", "a", "b")},
			want:    []want{{devices: []string{"a=gpu.example.com/n1/gpu0", "b=gpu.example.com/n1/gpu2", "free=gpu.example.com/n1/gpu1"}}},
		},
		{
			name:    "backtracking across requests without constraints",
			classes: []*resource.DeviceClass{gpuClass, class("first", `device.attributes["gpu.example.com"].index == 0`)},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("c", req("any", "gpu"), req("zero", "first"))},
			want:    []want{{devices: []string{"any=gpu.example.com/n1/gpu1", "zero=gpu.example.com/n1/gpu0"}}},
		},
		{
			name:    "unsatisfiable matchAttribute",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(8, func(i int) int { return i % 3 })...)},
			claims:  []*resource.ResourceClaim{withConstraint(claim("c", req("r", "gpu", count(4))), "gpu.example.com/numa")},
			want:    []want{{reason: ReasonConstraintUnsatisfiable, request: "r", contains: "no 4 of them that are free share a value"}},
		},
		{
			name:    "unsatisfiable matchAttribute across requests",
			classes: []*resource.DeviceClass{gpuClass, class("numa0", `device.attributes["gpu.example.com"].numa == 0`), class("numa1", `device.attributes["gpu.example.com"].numa == 1`)},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(8, numaHalf4)...)},
			claims:  []*resource.ResourceClaim{withConstraint(claim("c", req("a", "numa0"), req("b", "numa1")), "gpu.example.com/numa")},
			want:    []want{{reason: ReasonConstraintUnsatisfiable, request: "b", contains: "not together with request a under"}},
		},
		{
			name:    "devices without the compared attribute are left out",
			classes: []*resource.DeviceClass{gpuClass},
			slices: []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"),
				dev("bare"), dev("other-domain", attr("other.example.com/numa", 0)), dev("x", attr("numa", 3)), dev("y", attr("gpu.example.com/numa", 3)))},
			claims: []*resource.ResourceClaim{withConstraint(claim("c", req("r", "gpu", count(2))), "gpu.example.com/numa")},
			want:   []want{{devices: []string{"r=gpu.example.com/n1/x", "r=gpu.example.com/n1/y"}}},
		},
		{
			name:    "values of different types differ",
			classes: []*resource.DeviceClass{gpuClass},
			slices: []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"),
				dev("int", attr("id", 1)), dev("str", attr("id", "1")), dev("int2", attr("id", 1)))},
			claims: []*resource.ResourceClaim{withConstraint(claim("c", req("r", "gpu", count(2))), "gpu.example.com/id")},
			want:   []want{{devices: []string{"r=gpu.example.com/n1/int", "r=gpu.example.com/n1/int2"}}},
		},
		{
			name:    "too few devices have the compared attribute",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), dev("bare"), dev("x", attr("numa", 3)))},
			claims:  []*resource.ResourceClaim{withConstraint(claim("c", req("r", "gpu", count(2))), "gpu.example.com/numa")},
			want:    []want{{reason: ReasonConstraintUnsatisfiable, request: "r", contains: "only 1 of them has the attribute that the claim's constraint compares"}},
		},
		{
			name: "configuration from class and claim",
			classes: []*resource.DeviceClass{
				withClassConfig(withClassConfig(class("gpu", `device.driver == "gpu.example.com"`), drv, `{"a":1}`), drv, `{"b":2}`),
				withClassConfig(class("nic", `device.driver == "nic.example.com"`), "nic.example.com", `{"mtu":9000}`),
			},
			slices: []*resource.ResourceSlice{
				slice("s1", drv, "n1", onNode("n1"), gpus(1, numaZero)...),
				slice("s2", "nic.example.com", "n1", onNode("n1"), dev("eth0")),
			},
			claims: []*resource.ResourceClaim{withClaimConfig(withClaimConfig(claim("c", req("g", "gpu"), req("n", "nic")), drv, `{"c":3}`, "g"), "nic.example.com", `{"d":4}`)},
			want:   []want{{devices: []string{"g=gpu.example.com/n1/gpu0", "n=nic.example.com/n1/eth0"}}},
			checkCfg: func(t *testing.T, cfg [][]resource.DeviceAllocationConfiguration) {
				var got []string
				for _, c := range cfg[0] {
					got = append(got, string(c.Source)+" "+strings.Join(c.Requests, ",")+" "+c.Opaque.Driver+" "+string(c.Opaque.Parameters.Raw))
				}
				w := []string{
					`FromClass g gpu.example.com {"a":1}`, `FromClass g gpu.example.com {"b":2}`, `FromClass n nic.example.com {"mtu":9000}`,
					`FromClaim g gpu.example.com {"c":3}`, `FromClaim  nic.example.com {"d":4}`,
				}
				if !reflect.DeepEqual(got, w) {
					t.Errorf("config:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(w, "\n"))
				}
			},
		},
		{
			name:    "too many devices for one allocation",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(40, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("c", req("a", "gpu", count(20)), req("b", "gpu", count(20))), claim("d", req("all", "gpu", all()))},
			mode:    Sequential,
			want: []want{
				{reason: ReasonTooManyDevices, contains: "need 40 devices together; an allocation holds at most 32"},
				{reason: ReasonTooManyDevices, contains: "need 40 devices together"},
			},
		},
		{
			name:    "CEL runtime error names the expression and device",
			classes: []*resource.DeviceClass{anyClass},
			slices: []*resource.ResourceSlice{
				slice("s1", drv, "n1", onNode("n1"), dev("ok", attr("model", "x"))),
				slice("s2", "nic.example.com", "n1", onNode("n1"), dev("eth0")),
			},
			claims: []*resource.ResourceClaim{claim("c", req("r", "any", count(2), sel(`device.attributes["gpu.example.com"].model == "x"`)))},
			want:   []want{{reason: ReasonCELRuntimeError, request: "r", contains: `spec.devices.requests[0].exactly.selectors[0]: expression "device.attributes[\"gpu.example.com\"].model == \"x\"" failed on device nic.example.com/n1/eth0: no such key: model`}},
		},
		{
			name:    "class selector that does not compile",
			classes: []*resource.DeviceClass{class("bad", `device.driver`)},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(1, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "bad"))},
			want:    []want{{reason: ReasonInvalidSelector, request: "r", contains: `DeviceClass "bad": spec.selectors[0].cel.expression "device.driver" does not compile: must evaluate to bool or the unknown type, not string`}},
		},
		{
			name:    "joint allocation backtracks across claims",
			classes: []*resource.DeviceClass{gpuClass, class("first", `device.attributes["gpu.example.com"].index == 0`)},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("a", req("r", "gpu")), claim("b", req("r", "first"))},
			want:    []want{{devices: []string{"r=gpu.example.com/n1/gpu1"}}, {devices: []string{"r=gpu.example.com/n1/gpu0"}}},
		},
		{
			name:    "joint allocation is all or nothing",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("a", req("r", "gpu")), claim("b", req("r", "gpu", count(2))), claim("c", req("r", "gpu"))},
			want: []want{
				{reason: ReasonOtherClaimFailed, contains: "claim ns/b cannot be allocated"},
				{reason: ReasonConflict, contains: "not together with claim ns/a allocated before it in this call"},
				{reason: ReasonOtherClaimFailed},
			},
		},
		{
			name:    "sequential allocation keeps what succeeded",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			mode:    Sequential,
			claims:  []*resource.ResourceClaim{claim("a", req("r", "gpu")), claim("b", req("r", "gpu", count(2))), claim("c", req("r", "gpu"))},
			want: []want{
				{devices: []string{"r=gpu.example.com/n1/gpu0"}},
				{reason: ReasonConflict, contains: "could be allocated on its own, but not together with claim ns/a allocated before it in this call"},
				{devices: []string{"r=gpu.example.com/n1/gpu1"}},
			},
		},
		{
			name:    "claims that come allocated keep their devices",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			claims:  []*resource.ResourceClaim{allocated("done", "gpu.example.com/n1/gpu0"), claim("c", req("r", "gpu"))},
			want:    []want{{already: true, devices: []string{"r=gpu.example.com/n1/gpu0"}}, {devices: []string{"r=gpu.example.com/n1/gpu1"}}},
		},
		{
			name:    "requests compete within a claim",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(3, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("c", req("a", "gpu", count(2)), req("b", "gpu", count(2)))},
			want:    []want{{reason: ReasonNotEnough, request: "b", contains: "together with request a of the claim, which competes"}},
		},
		{
			// The hub has no "basic" wrapper: a 1.31 device without one
			// reads as `basic: {}` (docs/conversion.md), a device without
			// attributes and capacity, and is chosen like any other.
			name:    "devices without attributes are chosen like any other",
			classes: []*resource.DeviceClass{anyClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), resource.Device{Name: "opaque"}, dev("plain", attr("model", "x")))},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "any", all()))},
			want:    []want{{devices: []string{"r=gpu.example.com/n1/opaque", "r=gpu.example.com/n1/plain"}}},
		},
		{
			// With every gate off, taints play no part, and devices with
			// binding conditions or counters are not used.
			name:     "with every gate off, devices that need a gate are left out",
			features: gatesOff,
			classes:  []*resource.DeviceClass{gpuClass},
			slices: []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"),
				func() resource.Device {
					d := dev("bound", attr("index", 0))
					d.BindingConditions, d.BindingFailureConditions = []string{"Ready"}, []string{"Failed"}
					return d
				}(),
				func() resource.Device {
					d := dev("partition", attr("index", 1))
					d.ConsumesCounters = []resource.DeviceCounterConsumption{{CounterSet: "set", Counters: map[string]resource.Counter{"c": {Value: q("1")}}}}
					return d
				}(),
				func() resource.Device {
					d := dev("tainted", attr("index", 2))
					d.Taints = []resource.DeviceTaint{{Key: "k", Effect: resource.DeviceTaintEffectNoSchedule}}
					return d
				}())},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu"))},
			want:   []want{{devices: []string{"r=gpu.example.com/n1/tainted"}}},
		},
		{
			name:     "slices with per-device node selection are invisible",
			features: gatesOff,
			classes:  []*resource.DeviceClass{anyClass},
			slices: []*resource.ResourceSlice{
				func() *resource.ResourceSlice {
					s := slice("per-device", drv, "pd", onNode("n1"), dev("d0"))
					t := true
					s.Spec.NodeName, s.Spec.PerDeviceNodeSelection = nil, &t
					s.Spec.Devices[0].NodeName = &n1.Name
					return s
				}(),
				slice("mine", drv, "n1", onNode("n1"), dev("near")),
			},
			claims: []*resource.ResourceClaim{claim("c", req("r", "any", all()))},
			want:   []want{{devices: []string{"r=gpu.example.com/n1/near"}}},
		},
		{
			name:     "without ListTypeAttributes a list value equals no other device's, not even an equal list",
			mode:     Sequential,
			features: gatesOff,
			classes:  []*resource.DeviceClass{gpuClass},
			slices: []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"),
				dev("a", attr("lanes", []int64{1, 2})), dev("b", attr("lanes", []int64{2})), dev("c", attr("lanes", []int64{1, 2})),
				dev("d", attr("tags", []string{"x"})), dev("e", attr("tags", []string{"x"})))},
			claims: []*resource.ResourceClaim{
				withConstraint(claim("lanes", req("r", "gpu", count(2))), "gpu.example.com/lanes"),
				withConstraint(claim("tags", req("r", "gpu", count(2))), "gpu.example.com/tags"),
			},
			want: []want{
				{reason: ReasonConstraintUnsatisfiable, request: "r", contains: "no 2 of them that are free share a value for spec.devices.constraints[0] (matchAttribute gpu.example.com/lanes)"},
				{reason: ReasonConstraintUnsatisfiable, request: "r", contains: "no 2 of them that are free share a value for spec.devices.constraints[0] (matchAttribute gpu.example.com/tags)"},
			},
		},
		{
			name:    "an empty capacity requirement asks for nothing",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(1, numaZero)...)},
			claims: []*resource.ResourceClaim{func() *resource.ResourceClaim {
				c := claim("c", req("r", "gpu"))
				c.Spec.Devices.Requests[0].Exactly.Capacity = &resource.CapacityRequirements{}
				return c
			}()},
			want: []want{{devices: []string{"r=gpu.example.com/n1/gpu0"}}},
		},
		{
			name:     "with every gate off, what a gate switches is refused, naming claim, request and gate",
			features: gatesOff,
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			mode:     Sequential,
			claims: []*resource.ResourceClaim{
				func() *resource.ResourceClaim {
					c := claim("first-available", req("ok", "gpu"), req("r", "gpu"))
					c.Spec.Devices.Requests[1].Exactly = nil
					c.Spec.Devices.Requests[1].FirstAvailable = []resource.DeviceSubRequest{{Name: "a", DeviceClassName: "gpu", AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1}}
					return c
				}(),
				claim("admin", req("r", "gpu", admin())),
				func() *resource.ResourceClaim {
					c := claim("capacity", req("r", "gpu"))
					c.Spec.Devices.Requests[0].Exactly.Capacity = &resource.CapacityRequirements{Requests: map[resource.QualifiedName]apiresource.Quantity{"memory": q("1Gi")}}
					return c
				}(),
				func() *resource.ResourceClaim {
					c := claim("derived", req("r", "gpu"))
					c.Spec.Devices.Requests[0].Exactly.DerivedAttributes = []resource.DeviceDerivedAttribute{{Name: "derived/numa", Expression: "1"}}
					return c
				}(),
			},
			want: []want{
				{reason: ReasonFeatureDisabled, request: "r", contains: "claim ns/first-available, request \"r\": spec.devices.requests[1].firstAvailable is set, but the PrioritizedList feature (gate DRAPrioritizedList) is off"},
				{reason: ReasonFeatureDisabled, request: "r", contains: "claim ns/admin, request \"r\": spec.devices.requests[0].exactly.adminAccess is set, but the AdminAccess feature (gate DRAAdminAccess) is off"},
				{reason: ReasonFeatureDisabled, request: "r", contains: "claim ns/capacity, request \"r\": spec.devices.requests[0].exactly.capacity is set, but the ConsumableCapacity feature (gate DRAConsumableCapacity) is off"},
				{reason: ReasonFeatureDisabled, request: "r", contains: "spec.devices.requests[0].exactly.derivedAttributes is set, but the DerivedAttributes feature (gate DRADerivedAttributes) is off"},
			},
		},
		{
			name:    "a claim without requests gets an empty allocation",
			classes: []*resource.DeviceClass{gpuClass},
			claims:  []*resource.ResourceClaim{claim("c")},
			want:    []want{{devices: nil}},
		},
		{
			name:    "invalid and unsupported claims",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			mode:    Sequential,
			claims: []*resource.ResourceClaim{
				withConstraint(claim("unknown-request", req("r", "gpu")), "gpu.example.com/numa", "nope"),
				func() *resource.ResourceClaim {
					c := claim("controller", req("r", "gpu"))
					c.Spec.Controller = drv
					return c
				}(),
				func() *resource.ResourceClaim {
					c := claim("params", req("r", "gpu"))
					c.Spec.ParametersRef = &resource.ResourceClaimParametersReference{Kind: "ConfigMap", Name: "p"}
					return c
				}(),
				claim("dup", req("r", "gpu"), req("r", "gpu")),
				claim("negative", req("r", "gpu", count(-1))),
				func() *resource.ResourceClaim {
					c := claim("mode", req("r", "gpu"))
					c.Spec.Devices.Requests[0].Exactly.AllocationMode = "Some"
					return c
				}(),
				claim("neither", resource.DeviceRequest{Name: "r"}),
				func() *resource.ResourceClaim {
					c := claim("both", req("r", "gpu"))
					c.Spec.Devices.Requests[0].FirstAvailable = []resource.DeviceSubRequest{{Name: "a", DeviceClassName: "gpu"}}
					return c
				}(),
				claim("no-class", resource.DeviceRequest{Name: "r", Exactly: &resource.ExactDeviceRequest{}}),
			},
			want: []want{
				{reason: ReasonInvalidClaim, contains: `spec.devices.constraints[0].requests[0]: the claim has no request named "nope"`},
				{reason: ReasonControllerManaged},
				{reason: ReasonUnsupported, contains: "spec.parametersRef"},
				{reason: ReasonInvalidClaim, request: "r", contains: "two requests are named"},
				{reason: ReasonInvalidClaim, request: "r", contains: "count is -1"},
				{reason: ReasonInvalidClaim, request: "r", contains: `allocationMode "Some" is not supported`},
				{reason: ReasonInvalidClaim, request: "r", contains: "spec.devices.requests[0] sets neither exactly nor firstAvailable"},
				{reason: ReasonInvalidClaim, request: "r", contains: "spec.devices.requests[0] sets both exactly and firstAvailable"},
				{reason: ReasonInvalidClaim, request: "r", contains: "spec.devices.requests[0].exactly.deviceClassName is empty"},
			},
		},
		{
			name:    "undefaulted request means one device",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("c", resource.DeviceRequest{Name: "r", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "gpu"}})},
			want:    []want{{devices: []string{"r=gpu.example.com/n1/gpu0"}}},
		},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			nd := sc.node
			if nd == nil && !sc.noNode {
				nd = n1
			}
			a, err := New(Options{Classes: sc.classes, Slices: sc.slices, AllocatedClaims: sc.inUse, AllocatedDevices: sc.inUseIDs, Node: nd, Mode: sc.mode, Features: sc.features})
			if err != nil {
				t.Fatal(err)
			}
			results, err := a.Allocate(context.Background(), sc.claims)
			if err != nil {
				t.Fatal(err)
			}
			if len(results) != len(sc.want) {
				t.Fatalf("%d results, want %d", len(results), len(sc.want))
			}
			inv := &verify.Inventory{Classes: sc.classes, Slices: sc.slices, Node: nd, InUse: map[verify.DeviceID]bool{}, Features: verifyFeatures(sc.features)}
			for _, c := range sc.inUse {
				for _, r := range c.Status.Allocation.Devices.Results {
					inv.InUse[verify.DeviceID{Driver: r.Driver, Pool: r.Pool, Device: r.Device}] = true
				}
			}
			for _, id := range sc.inUseIDs {
				inv.InUse[verify.DeviceID{Driver: id.Driver, Pool: id.Pool, Device: id.Device}] = true
			}
			checker := verify.NewChecker(inv)
			var sels []*corev1.NodeSelector
			var cfgs [][]resource.DeviceAllocationConfiguration
			for i, w := range sc.want {
				r := results[i]
				if r.Claim != sc.claims[i] {
					t.Errorf("claim %d: result for another claim", i)
				}
				if w.reason != "" {
					if r.Err == nil {
						t.Errorf("claim %d: allocated %v, want %s", i, devicesOf(r.Allocation), w.reason)
						continue
					}
					var ce *ClaimError
					if !asClaimError(r.Err, &ce) || ce.Reason != w.reason || ce.Request != w.request || !strings.Contains(ce.Error(), w.contains) {
						t.Errorf("claim %d: error %v (%+v), want reason %s request %q containing %q", i, r.Err, ce, w.reason, w.request, w.contains)
					}
					if r.Allocation != nil {
						t.Errorf("claim %d: allocation together with an error", i)
					}
					continue
				}
				if r.Err != nil {
					t.Errorf("claim %d: %v", i, r.Err)
					continue
				}
				if got := devicesOf(r.Allocation); !reflect.DeepEqual(got, w.devices) {
					t.Errorf("claim %d: devices %v, want %v", i, got, w.devices)
				}
				if r.AlreadyAllocated != w.already {
					t.Errorf("claim %d: AlreadyAllocated %v", i, r.AlreadyAllocated)
				}
				if !w.already {
					for _, e := range checker.Check(sc.claims[i], r.Allocation) {
						t.Errorf("claim %d: checker: %v", i, e)
					}
					if c := r.AllocatedClaim(); c == nil || c.Status.Allocation == nil || sc.claims[i].Status.Allocation != nil {
						t.Errorf("claim %d: AllocatedClaim %v, input modified: %v", i, c, sc.claims[i].Status.Allocation)
					}
				}
				sels = append(sels, r.Allocation.NodeSelector)
				cfgs = append(cfgs, r.Allocation.Devices.Config)
			}
			if sc.checkNode != nil {
				sc.checkNode(t, sels)
			}
			if sc.checkCfg != nil {
				sc.checkCfg(t, cfgs)
			}
		})
	}
}

func asClaimError(err error, target **ClaimError) bool {
	ce, ok := err.(*ClaimError)
	*target = ce
	return ok
}
