package allocator

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/allocator/verify"
	"github.com/drakit/drakit/apis/resource"
)

// Table tests of the 1.32+ features, each on and off, every successful
// result checked by allocator/verify with the same features.

func withFeatures(change func(*Features)) *Features {
	f := DefaultFeatures()
	if change != nil {
		change(&f)
	}
	return &f
}

func firstAvailable(name string, subs ...resource.DeviceSubRequest) resource.DeviceRequest {
	return resource.DeviceRequest{Name: name, FirstAvailable: subs}
}

func sub(name, class string, count int64, selectors ...string) resource.DeviceSubRequest {
	s := resource.DeviceSubRequest{Name: name, DeviceClassName: class, AllocationMode: resource.DeviceAllocationModeExactCount, Count: count}
	for _, e := range selectors {
		s.Selectors = append(s.Selectors, resource.DeviceSelector{CEL: &resource.CELDeviceSelector{Expression: e}})
	}
	return s
}

func exact(name, class string, change func(*resource.ExactDeviceRequest)) resource.DeviceRequest {
	r := req(name, class)
	if change != nil {
		change(r.Exactly)
	}
	return r
}

func qty(s string) apiresource.Quantity { return apiresource.MustParse(s) }

func tainted(d resource.Device, key string, effect resource.DeviceTaintEffect) resource.Device {
	d.Taints = append(d.Taints, resource.DeviceTaint{Key: key, Value: "x", Effect: effect})
	return d
}

func boolPtr(b bool) *bool { return &b }

// counterSlice is a slice of pool "p" with one counter set "mem" of size.
func counterSlice(name, size string) *resource.ResourceSlice {
	s := poolSlice(name, drv, "p", 1, 2, onNode("n1"))
	s.Spec.SharedCounters = []resource.CounterSet{{Name: "mem", Counters: map[string]resource.Counter{"size": {Value: qty(size)}}}}
	return s
}

// partitions are devices of pool "p" that consume amount of "mem".
func partitions(name string, amounts ...string) *resource.ResourceSlice {
	var devices []resource.Device
	for i, a := range amounts {
		d := dev("part" + strconv.Itoa(i))
		d.ConsumesCounters = []resource.DeviceCounterConsumption{{CounterSet: "mem", Counters: map[string]resource.Counter{"size": {Value: qty(a)}}}}
		devices = append(devices, d)
	}
	return poolSlice(name, drv, "p", 1, 2, onNode("n1"), devices...)
}

// nic is a multi-allocation device with a bandwidth of 10 that is
// requested in steps of 2 from 1.
func nic(name string) resource.Device {
	d := dev(name)
	d.AllowMultipleAllocations = boolPtr(true)
	min, step := qty("1"), qty("2")
	d.Capacity = map[resource.QualifiedName]resource.DeviceCapacity{
		"bandwidth": {Value: qty("10"), RequestPolicy: &resource.CapacityRequestPolicy{ValidRange: &resource.CapacityRequestPolicyRange{Min: &min, Step: &step}}},
	}
	return d
}

func bandwidth(amount string) func(*resource.ExactDeviceRequest) {
	return func(r *resource.ExactDeviceRequest) {
		r.Capacity = &resource.CapacityRequirements{Requests: map[resource.QualifiedName]apiresource.Quantity{"bandwidth": qty(amount)}}
	}
}

type semanticsCase struct {
	name     string
	features *Features
	node     *corev1.Node
	classes  []*resource.DeviceClass
	slices   []*resource.ResourceSlice
	rules    []*resource.DeviceTaintRule
	inUse    []*resource.ResourceClaim
	claims   []*resource.ResourceClaim
	mode     Mode
	want     []want
	// check looks at the allocations of the claims that were allocated.
	check func(t *testing.T, allocs []*resource.AllocationResult)
}

func TestSemantics(t *testing.T) {
	n1 := node("n1")
	cases := []semanticsCase{
		{
			name:    "firstAvailable takes the first alternative that any device serves",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			claims: []*resource.ResourceClaim{claim("c", firstAvailable("r",
				sub("big", "gpu", 1, `device.attributes["gpu.example.com"].numa == 7`),
				sub("small", "gpu", 2)))},
			want: []want{{devices: []string{"r/small=gpu.example.com/n1/gpu0", "r/small=gpu.example.com/n1/gpu1"}}},
		},
		{
			name:    "firstAvailable gives up an alternative that leaves too little for a later request",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("c", firstAvailable("r", sub("two", "gpu", 2), sub("one", "gpu", 1)), req("s", "gpu"))},
			want:    []want{{devices: []string{"r/one=gpu.example.com/n1/gpu0", "s=gpu.example.com/n1/gpu1"}}},
		},
		{
			name:    "a constraint naming the request covers its alternatives",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), gpus(8, numaHalf4)...)},
			claims: []*resource.ResourceClaim{withConstraint(claim("c",
				req("a", "gpu", sel(`device.attributes["gpu.example.com"].numa == 1`)),
				firstAvailable("r", sub("x", "gpu", 1))), "gpu.example.com/numa", "a", "r")},
			want: []want{{devices: []string{"a=gpu.example.com/n1/gpu4", "r/x=gpu.example.com/n1/gpu5"}}},
		},
		{
			name:     "firstAvailable without PrioritizedList",
			features: withFeatures(func(f *Features) { f.PrioritizedList = false }),
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			claims:   []*resource.ResourceClaim{claim("c", firstAvailable("r", sub("one", "gpu", 1)))},
			want:     []want{{reason: ReasonFeatureDisabled, request: "r", contains: "spec.devices.requests[0].firstAvailable is set, but the PrioritizedList feature"}},
		},
		{
			name:    "adminAccess takes a device in use and keeps it from non-admin requests of the call",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			inUse:   []*resource.ResourceClaim{allocated("used", "gpu.example.com/n1/gpu0")},
			claims: []*resource.ResourceClaim{
				claim("watch", req("r", "gpu", admin(), count(2))),
				claim("use", req("r", "gpu")),
			},
			want: []want{{reason: ReasonOtherClaimFailed}, {reason: ReasonConflict}},
		},
		{
			name:    "adminAccess results say so",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			inUse:   []*resource.ResourceClaim{allocated("used", "gpu.example.com/n1/gpu0")},
			claims:  []*resource.ResourceClaim{claim("watch", req("r", "gpu", admin())), claim("use", req("r", "gpu"))},
			want:    []want{{devices: []string{"r=gpu.example.com/n1/gpu0"}}, {devices: []string{"r=gpu.example.com/n1/gpu1"}}},
			check: func(t *testing.T, allocs []*resource.AllocationResult) {
				if a := allocs[0].Devices.Results[0].AdminAccess; a == nil || !*a {
					t.Errorf("adminAccess result without adminAccess: true")
				}
			},
		},
		{
			name:     "adminAccess without the AdminAccess feature",
			features: withFeatures(func(f *Features) { f.AdminAccess = false }),
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			claims:   []*resource.ResourceClaim{claim("watch", req("r", "gpu", admin()))},
			want:     []want{{reason: ReasonFeatureDisabled, request: "r", contains: "adminAccess is set, but the AdminAccess feature"}},
		},
		{
			name:    "NoSchedule and NoExecute taints block unless tolerated, None does not",
			classes: []*resource.DeviceClass{gpuClass},
			slices: []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"),
				tainted(dev("gpu0"), "broken", resource.DeviceTaintEffectNoSchedule),
				tainted(dev("gpu1"), "gone", resource.DeviceTaintEffectNoExecute),
				tainted(dev("gpu2"), "note", resource.DeviceTaintEffectNone))},
			claims: []*resource.ResourceClaim{
				claim("plain", req("r", "gpu")),
				claim("tolerant", exact("r", "gpu", func(r *resource.ExactDeviceRequest) {
					r.Count = 3
					r.Tolerations = []resource.DeviceToleration{{Key: "broken", Operator: resource.DeviceTolerationOpExists}}
				})),
			},
			mode: Sequential,
			want: []want{{devices: []string{"r=gpu.example.com/n1/gpu2"}}, {reason: ReasonNotEnough, request: "r", contains: "1 has a taint the request does not tolerate (gpu.example.com/n1/gpu1: gone=x:NoExecute)"}},
		},
		{
			name:    "tolerations are copied into the results",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), tainted(dev("gpu0"), "broken", resource.DeviceTaintEffectNoSchedule))},
			claims: []*resource.ResourceClaim{claim("tolerant", exact("r", "gpu", func(r *resource.ExactDeviceRequest) {
				r.Tolerations = []resource.DeviceToleration{{Key: "broken", Value: "x", Effect: resource.DeviceTaintEffectNoSchedule}}
			}))},
			want: []want{{devices: []string{"r=gpu.example.com/n1/gpu0"}}},
			check: func(t *testing.T, allocs []*resource.AllocationResult) {
				if got := allocs[0].Devices.Results[0].Tolerations; len(got) != 1 || got[0].Key != "broken" {
					t.Errorf("tolerations %v", got)
				}
			},
		},
		{
			name:     "without DeviceTaints taints play no part",
			features: withFeatures(func(f *Features) { f.DeviceTaints, f.DeviceTaintRules = false, false }),
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), tainted(dev("gpu0"), "broken", resource.DeviceTaintEffectNoSchedule))},
			claims:   []*resource.ResourceClaim{claim("plain", req("r", "gpu"))},
			want:     []want{{devices: []string{"r=gpu.example.com/n1/gpu0"}}},
		},
		{
			name:     "DeviceTaintRules taint the devices they select",
			features: withFeatures(func(f *Features) { f.DeviceTaintRules = true }),
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			rules:    []*resource.DeviceTaintRule{taintRule("gpu0", resource.DeviceTaintEffectNoSchedule)},
			claims:   []*resource.ResourceClaim{claim("c", req("r", "gpu", all()))},
			want:     []want{{reason: ReasonDeviceTainted, request: "r", contains: "device gpu.example.com/n1/gpu0 has the taint maintenance=x:NoSchedule"}},
		},
		{
			name:     "DeviceTaintRules play no part without the DeviceTaintRules switch",
			features: withFeatures(func(f *Features) { f.DeviceTaintRules = false }),
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), gpus(2, numaZero)...)},
			rules:    []*resource.DeviceTaintRule{taintRule("gpu0", resource.DeviceTaintEffectNoSchedule)},
			claims:   []*resource.ResourceClaim{claim("c", req("r", "gpu", all()))},
			want:     []want{{devices: []string{"r=gpu.example.com/n1/gpu0", "r=gpu.example.com/n1/gpu1"}}},
		},
		{
			name:    "counters in a slice of their own limit the partitions",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{counterSlice("counters", "8Gi"), partitions("parts", "4Gi", "4Gi", "4Gi")},
			claims:  []*resource.ResourceClaim{claim("two", req("r", "gpu", count(2))), claim("one", req("r", "gpu"))},
			mode:    Sequential,
			want:    []want{{devices: []string{"r=gpu.example.com/p/part0", "r=gpu.example.com/p/part1"}}, {reason: ReasonConflict}},
		},
		{
			name:    "counters consumed by allocated devices are respected",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{counterSlice("counters", "8Gi"), partitions("parts", "4Gi", "4Gi", "4Gi")},
			inUse:   []*resource.ResourceClaim{allocated("used", "gpu.example.com/p/part1")},
			claims:  []*resource.ResourceClaim{claim("two", req("r", "gpu", count(2)))},
			want:    []want{{reason: ReasonNotEnough, request: "r", contains: "counters"}},
		},
		{
			name:     "without PartitionableDevices devices that consume counters cannot be used",
			features: withFeatures(func(f *Features) { f.PartitionableDevices = false }),
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{counterSlice("counters", "8Gi"), partitions("parts", "4Gi", "4Gi", "4Gi")},
			claims:   []*resource.ResourceClaim{claim("one", req("r", "gpu"))},
			want:     []want{{reason: ReasonNotEnough, request: "r", contains: "consumes counters, but the PartitionableDevices feature is off"}},
		},
		{
			name:    "per-device node selection",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{perDeviceSlice()},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "gpu", all()))},
			want:    []want{{devices: []string{"r=gpu.example.com/pd/mine", "r=gpu.example.com/pd/everywhere"}}},
			check: func(t *testing.T, allocs []*resource.AllocationResult) {
				if want := nodeNameSelector("n1"); !reflect.DeepEqual(allocs[0].NodeSelector, want) {
					t.Errorf("node selector %v, want node n1", allocs[0].NodeSelector)
				}
			},
		},
		{
			name:     "without PartitionableDevices slices with per-device node selection are left out",
			features: withFeatures(func(f *Features) { f.PartitionableDevices = false }),
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{perDeviceSlice()},
			claims:   []*resource.ResourceClaim{claim("c", req("r", "gpu"))},
			want:     []want{{reason: ReasonNoMatch, request: "r"}},
		},
		{
			name:    "shares of a multi-allocation device, rounded by the request policy",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), nic("nic0"))},
			claims: []*resource.ResourceClaim{
				claim("a", exact("r", "gpu", bandwidth("4"))),
				claim("b", exact("r", "gpu", bandwidth("2"))),
				claim("c", exact("r", "gpu", bandwidth("3"))),
			},
			mode: Sequential,
			want: []want{{devices: []string{"r=gpu.example.com/n1/nic0"}}, {devices: []string{"r=gpu.example.com/n1/nic0"}}, {reason: ReasonConflict}},
			check: func(t *testing.T, allocs []*resource.AllocationResult) {
				a, b := allocs[0].Devices.Results[0], allocs[1].Devices.Results[0]
				if a.ShareID == nil || b.ShareID == nil || *a.ShareID == *b.ShareID {
					t.Errorf("shareIDs %v %v", a.ShareID, b.ShareID)
				}
				if q := a.ConsumedCapacity["bandwidth"]; q.String() != "5" {
					t.Errorf("first share consumes %s, want 5 (4 rounded up to 1+2n)", q.String())
				}
			},
		},
		{
			name:    "selectors see device.allowMultipleAllocations (the 1.37 environment)",
			classes: []*resource.DeviceClass{class("shared", `device.allowMultipleAllocations`)},
			slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), dev("plain"), nic("nic0"))},
			claims:  []*resource.ResourceClaim{claim("a", exact("r", "shared", bandwidth("2"))), claim("b", req("r", "shared"))},
			mode:    Sequential,
			// Not asking for bandwidth means all of it, 10, which the
			// policy (1, 3, 5, ...) does not allow: upstream leaves the
			// device out.
			want: []want{{devices: []string{"r=gpu.example.com/n1/nic0"}}, {reason: ReasonNotEnough, request: "r", contains: "1 passes the selectors but lacks the capacity"}},
		},
		{
			name:    "capacity consumed by allocated shares is respected",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), nic("nic0"))},
			inUse:   []*resource.ResourceClaim{sharedClaim("used", "nic0", "9")},
			claims:  []*resource.ResourceClaim{claim("a", exact("r", "gpu", bandwidth("2")))},
			want:    []want{{reason: ReasonNotEnough, request: "r", contains: "1 passes the selectors but lacks the capacity"}},
		},
		{
			name:     "capacity requests without ConsumableCapacity",
			features: withFeatures(func(f *Features) { f.ConsumableCapacity = false }),
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), nic("nic0"))},
			claims:   []*resource.ResourceClaim{claim("a", exact("r", "gpu", bandwidth("2")))},
			want:     []want{{reason: ReasonFeatureDisabled, request: "r", contains: "capacity is set, but the ConsumableCapacity feature"}},
		},
		{
			name:    "distinctAttribute gives every device its own value",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), gpus(8, numaHalf4)...)},
			claims:  []*resource.ResourceClaim{distinct(claim("c", req("r", "gpu", count(2))), "gpu.example.com/numa"), distinct(claim("d", req("r", "gpu", count(3))), "gpu.example.com/numa")},
			mode:    Sequential,
			want:    []want{{devices: []string{"r=gpu.example.com/n1/gpu0", "r=gpu.example.com/n1/gpu4"}}, {reason: ReasonConstraintUnsatisfiable, request: "r", contains: "distinctAttribute"}},
		},
		{
			name:    "binding conditions are copied and bindsToNode names the node",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s", drv, "pool", allNodes(), binding(dev("gpu0")))},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "gpu"))},
			want:    []want{{devices: []string{"r=gpu.example.com/pool/gpu0"}}},
			check: func(t *testing.T, allocs []*resource.AllocationResult) {
				r := allocs[0].Devices.Results[0]
				if !reflect.DeepEqual(r.BindingConditions, []string{"attached"}) || !reflect.DeepEqual(r.BindingFailureConditions, []string{"failed"}) {
					t.Errorf("binding conditions %v/%v", r.BindingConditions, r.BindingFailureConditions)
				}
				if want := nodeNameSelector("n1"); !reflect.DeepEqual(allocs[0].NodeSelector, want) {
					t.Errorf("node selector %v, want node n1", allocs[0].NodeSelector)
				}
			},
		},
		{
			name:     "without DeviceBindingAndStatus devices with binding conditions are left out",
			features: withFeatures(func(f *Features) { f.DeviceBindingAndStatus = false }),
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{slice("s", drv, "pool", allNodes(), binding(dev("gpu0")), dev("gpu1"))},
			claims:   []*resource.ResourceClaim{claim("c", req("r", "gpu"))},
			want:     []want{{devices: []string{"r=gpu.example.com/pool/gpu1"}}},
		},
		{
			name:    "an All request needs at least one device (1.32+)",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), gpus(1, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "gpu", all(), sel(`device.attributes["gpu.example.com"].numa == 3`)))},
			want:    []want{{reason: ReasonNoMatch, request: "r", contains: "requires at least one"}},
		},
		{
			name:    "incomplete pools are not used (1.32+)",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{poolSlice("s", drv, "p", 1, 2, onNode("n1"), gpus(1, numaZero)...)},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "gpu"))},
			want:    []want{{reason: ReasonNoMatch, request: "r", contains: "not used: pool gpu.example.com/p is incomplete"}},
		},
		{
			name:    "a pool is complete when the cluster has all its slices",
			classes: []*resource.DeviceClass{gpuClass},
			slices: []*resource.ResourceSlice{
				poolSlice("s1", drv, "p", 1, 2, onNode("n1"), gpus(1, numaZero)...),
				poolSlice("s2", drv, "p", 1, 2, onNode("n2"), dev("other")),
			},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu"))},
			want:   []want{{devices: []string{"r=gpu.example.com/p/gpu0"}}},
		},
		{
			name:     "skipNodeOperations with OptionalNodeOperations on a node that declares it",
			features: withFeatures(func(f *Features) { f.OptionalNodeOperations = true }),
			node:     declaring("n1"),
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{skipping(slice("s", drv, "n1", onNode("n1"), gpus(1, numaZero)...))},
			claims:   []*resource.ResourceClaim{claim("c", req("r", "gpu"))},
			want:     []want{{devices: []string{"r=gpu.example.com/n1/gpu0"}}},
			check: func(t *testing.T, allocs []*resource.AllocationResult) {
				if got := allocs[0].Devices.Results[0].SkipNodeOperations; len(got) != 1 || got[0] != resource.SkipNodeOperationAll {
					t.Errorf("skipNodeOperations %v", got)
				}
			},
		},
		{
			name:     "skipNodeOperations on a node that does not declare it",
			features: withFeatures(func(f *Features) { f.OptionalNodeOperations = true }),
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{skipping(slice("s", drv, "n1", onNode("n1"), gpus(1, numaZero)...))},
			claims:   []*resource.ResourceClaim{claim("c", req("r", "gpu"))},
			want:     []want{{reason: ReasonNotEnough, request: "r", contains: "node does not declare DRAOptionalNodeOperations"}},
		},
		{
			name:     "skipNodeOperations without OptionalNodeOperations where the experimental implementation runs",
			features: withFeatures(func(f *Features) { f.ListTypeAttributes = true }),
			node:     declaring("n1"),
			classes:  []*resource.DeviceClass{gpuClass},
			slices:   []*resource.ResourceSlice{skipping(slice("s", drv, "n1", onNode("n1"), gpus(1, numaZero)...))},
			claims:   []*resource.ResourceClaim{claim("c", req("r", "gpu"))},
			want:     []want{{reason: ReasonNotEnough, request: "r", contains: "OptionalNodeOperations feature is off"}},
		},
		{
			name:    "skipNodeOperations plays no part where the incubating implementation runs",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{skipping(slice("s", drv, "n1", onNode("n1"), gpus(1, numaZero)...))},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "gpu"))},
			want:    []want{{devices: []string{"r=gpu.example.com/n1/gpu0"}}},
		},
		{
			name:    "without CompatibilityGroups slices that use them are left out",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{counterSlice("counters", "8Gi"), grouped(partitions("parts", "4Gi"))},
			claims:  []*resource.ResourceClaim{claim("c", req("r", "gpu"))},
			want:    []want{{reason: ReasonNoMatch, request: "r"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runSemantics(t, c, n1) })
	}
}

func runSemantics(t *testing.T, c semanticsCase, n1 *corev1.Node) {
	nd := c.node
	if nd == nil {
		nd = n1
	}
	a, err := New(Options{Classes: c.classes, Slices: c.slices, AllocatedClaims: c.inUse, Node: nd, Mode: c.mode, Features: c.features, DeviceTaintRules: c.rules})
	if err != nil {
		t.Fatal(err)
	}
	results, err := a.Allocate(context.Background(), c.claims)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != len(c.want) {
		t.Fatalf("%d results, want %d", len(results), len(c.want))
	}
	f := a.Features()
	inv := &verify.Inventory{Classes: c.classes, Slices: c.slices, Node: nd, Features: verifyFeatures(&f)}
	if f.DeviceTaintRules {
		inv.TaintRules = c.rules
	}
	for _, u := range c.inUse {
		inv.Allocations = append(inv.Allocations, u.Status.Allocation)
	}
	checker := verify.NewChecker(inv)
	var allocs []*resource.AllocationResult
	for i, w := range c.want {
		r := results[i]
		if w.reason != "" {
			var ce *ClaimError
			switch {
			case r.Err == nil:
				t.Errorf("claim %d: allocated %v, want %s", i, devicesOf(r.Allocation), w.reason)
			case !asClaimError(r.Err, &ce) || ce.Reason != w.reason || (w.request != "" && ce.Request != w.request) || !strings.Contains(ce.Error(), w.contains):
				t.Errorf("claim %d: error %v (reason %s, request %q), want reason %s request %q containing %q", i, r.Err, reasonOf(ce), requestOf(ce), w.reason, w.request, w.contains)
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
		for _, e := range checker.Check(c.claims[i], r.Allocation) {
			t.Errorf("claim %d: verify: %v", i, e)
		}
		allocs = append(allocs, r.Allocation)
	}
	if c.check != nil && !t.Failed() {
		c.check(t, allocs)
	}
}

func reasonOf(ce *ClaimError) Reason {
	if ce == nil {
		return ""
	}
	return ce.Reason
}

func requestOf(ce *ClaimError) string {
	if ce == nil {
		return ""
	}
	return ce.Request
}

func taintRule(device string, effect resource.DeviceTaintEffect) *resource.DeviceTaintRule {
	d := drv
	return &resource.DeviceTaintRule{Spec: resource.DeviceTaintRuleSpec{
		DeviceSelector: &resource.DeviceTaintSelector{Driver: &d, Device: &device},
		Taint:          resource.DeviceTaint{Key: "maintenance", Value: "x", Effect: effect},
	}}
}

// perDeviceSlice has a device for n1, one for n2 and one for all nodes.
func perDeviceSlice() *resource.ResourceSlice {
	mine, other := dev("mine"), dev("theirs")
	n1, n2 := "n1", "n2"
	mine.NodeName, other.NodeName = &n1, &n2
	everywhere := dev("everywhere")
	everywhere.AllNodes = boolPtr(true)
	s := slice("pd", drv, "pd", func(*resource.ResourceSliceSpec) {}, mine, other, everywhere)
	s.Spec.PerDeviceNodeSelection = boolPtr(true)
	return s
}

func nodeNameSelector(n string) *corev1.NodeSelector {
	return &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{
		Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{n}}}}}}
}

func sharedClaim(name, device, amount string) *resource.ResourceClaim {
	c := allocated(name, "gpu.example.com/n1/"+device)
	share := "11111111-2222-3333-4444-555555555555"
	r := &c.Status.Allocation.Devices.Results[0]
	uid := types.UID(share)
	r.ShareID = &uid
	r.ConsumedCapacity = map[resource.QualifiedName]apiresource.Quantity{"bandwidth": qty(amount)}
	return c
}

func distinct(c *resource.ResourceClaim, attribute string) *resource.ResourceClaim {
	a := resource.FullyQualifiedName(attribute)
	c.Spec.Devices.Constraints = append(c.Spec.Devices.Constraints, resource.DeviceConstraint{DistinctAttribute: &a})
	return c
}

func binding(d resource.Device) resource.Device {
	d.BindingConditions = []string{"attached"}
	d.BindingFailureConditions = []string{"failed"}
	d.BindsToNode = boolPtr(true)
	return d
}

func declaring(name string) *corev1.Node {
	n := node(name)
	n.Status.DeclaredFeatures = []string{"DRAOptionalNodeOperations"}
	return n
}

func skipping(s *resource.ResourceSlice) *resource.ResourceSlice {
	s.Spec.SkipNodeOperations = []resource.SkipNodeOperation{resource.SkipNodeOperationAll}
	return s
}

func grouped(s *resource.ResourceSlice) *resource.ResourceSlice {
	for i := range s.Spec.Devices {
		for j := range s.Spec.Devices[i].ConsumesCounters {
			s.Spec.Devices[i].ConsumesCounters[j].CompatibilityGroups = []string{"g"}
		}
	}
	return s
}
