package poolstatus

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/testobjects"
)

const gpu = "gpu.example.com"

// partition is a device of profile prof that consumes mem of counter set
// "gpu-0".
func partition(name, prof, mem string) resource.Device {
	d := testobjects.Device(name, testobjects.Attr("profile", prof))
	d.ConsumesCounters = []resource.DeviceCounterConsumption{{CounterSet: "gpu-0", Counters: map[string]resource.Counter{"memory": {Value: apiresource.MustParse(mem)}}}}
	return d
}

func partitionedPool() *resource.ResourceSlice {
	s := testobjects.Slice("node-a-gpu", gpu, "node-a", testobjects.OnNode("node-a"),
		partition("full", "full", "80Gi"),
		partition("half-0", "half", "40Gi"), partition("half-1", "half", "40Gi"),
		partition("quarter-0", "quarter", "20Gi"), partition("quarter-1", "quarter", "20Gi"),
		partition("quarter-2", "quarter", "20Gi"), partition("quarter-3", "quarter", "20Gi"))
	s.Spec.SharedCounters = []resource.CounterSet{{Name: "gpu-0", Counters: map[string]resource.Counter{"memory": {Value: apiresource.MustParse("80Gi")}}}}
	attr := resource.FullyQualifiedName(gpu + "/profile")
	s.Spec.PartitionTypeAttribute = &attr
	return s
}

func states(p *Pool) map[string]DeviceState {
	out := map[string]DeviceState{}
	for _, d := range p.DeviceList {
		out[d.Name] = d.State
	}
	return out
}

func i32(p *int32) string {
	if p == nil {
		return "<nil>"
	}
	return fmt.Sprint(*p)
}

// TestPartitionsCarvable: one half in use leaves 40Gi of 80Gi: the full
// device no longer fits, the other half and each quarter do (one at a
// time); upstream's summary says how many of each type fit together.
func TestPartitionsCarvable(t *testing.T) {
	r := Compute(Input{
		Slices: []*resource.ResourceSlice{partitionedPool()},
		Claims: []*resource.ResourceClaim{testobjects.Allocated("a", gpu+"/node-a/half-0")},
	})
	if len(r.Pools) != 1 {
		t.Fatalf("%d pools", len(r.Pools))
	}
	p := r.Pools[0]
	want := map[string]DeviceState{"full": StateNoCounters, "half-0": StateInUse, "half-1": StateFree,
		"quarter-0": StateFree, "quarter-1": StateFree, "quarter-2": StateFree, "quarter-3": StateFree}
	if diff := cmp.Diff(want, states(p)); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	if want := (Counts{Total: 7, InUse: 1, NoCounters: 1, Free: 5}); p.Devices != want {
		t.Errorf("counts %+v, want %+v", p.Devices, want)
	}
	if len(p.Counters) != 1 || p.Counters[0].Left.String() != "40Gi" || p.Counters[0].Consumed.String() != "40Gi" {
		t.Errorf("counters %+v", p.Counters)
	}
	st := p.Status
	if got := fmt.Sprintf("%s %s %s %s", i32(st.TotalDevices), i32(st.AllocatedDevices), i32(st.UnavailableDevices), i32(st.AvailableDevices)); got != "7 1 0 6" {
		t.Errorf("status total/allocated/unavailable/available %s", got)
	}
	var parts []string
	for _, ps := range st.PartitionSummary {
		parts = append(parts, fmt.Sprintf("%s=%s/%s", ps.Type, i32(ps.Allocatable), i32(ps.Total)))
	}
	if got := strings.Join(parts, " "); got != "full=0/1 half=1/2 quarter=2/4" {
		t.Errorf("partition summary %s", got)
	}
	if st.ValidationError != nil || st.NodeName == nil || *st.NodeName != "node-a" {
		t.Errorf("status %+v", st)
	}
	var carve []string
	for _, ps := range p.Partitions {
		carve = append(carve, fmt.Sprintf("%s=%d/%d", ps.Type, ps.Allocatable, ps.Total))
	}
	if got := strings.Join(carve, " "); got != "full=0/1 half=1/2 quarter=2/4" {
		t.Errorf("partitions %s", got)
	}
	// Without the attribute, by what they consume; tainted quarters are
	// not carvable: one untainted quarter is left.
	s := partitionedPool()
	s.Spec.PartitionTypeAttribute = nil
	for _, i := range []int{3, 4, 5} {
		s.Spec.Devices[i].Taints = []resource.DeviceTaint{{Key: "k", Effect: resource.DeviceTaintEffectNoSchedule}}
	}
	r2 := Compute(Input{Slices: []*resource.ResourceSlice{s}, Claims: []*resource.ResourceClaim{testobjects.Allocated("a", gpu+"/node-a/half-0")}})
	carve = nil
	for _, ps := range r2.Pools[0].Partitions {
		carve = append(carve, fmt.Sprintf("%s=%d/%d", ps.Type, ps.Allocatable, ps.Total))
	}
	if got := strings.Join(carve, " "); got != "gpu-0/memory=20Gi=1/4 gpu-0/memory=40Gi=1/2 gpu-0/memory=80Gi=0/1" {
		t.Errorf("partitions by cost %s", got)
	}
	if len(r.Nodes) != 1 || r.Nodes[0].Devices != p.Devices || r.Nodes[0].Pools != 1 {
		t.Errorf("nodes %+v", r.Nodes[0])
	}
}

// TestSharedCapacityAndAdminAccess: two shares consume 60G of 100G; an
// admin's result on the same device, and on another device, hold nothing.
func TestSharedCapacityAndAdminAccess(t *testing.T) {
	yes := true
	nic := testobjects.Device("nic-0", testobjects.Attr("bandwidth", apiresource.MustParse("100G")))
	nic.AllowMultipleAllocations = &yes
	other := testobjects.Device("nic-1", testobjects.Attr("bandwidth", apiresource.MustParse("100G")))
	other.AllowMultipleAllocations = &yes
	plain := testobjects.Device("port-0")
	s := testobjects.Slice("node-a-nic", "nic.example.com", "node-a", testobjects.OnNode("node-a"), nic, other, plain)
	share := func(name, id, amount string) *resource.ResourceClaim {
		c := testobjects.Allocated(name, "nic.example.com/node-a/nic-0")
		uid := types.UID(id)
		c.Status.Allocation.Devices.Results[0].ShareID = &uid
		c.Status.Allocation.Devices.Results[0].ConsumedCapacity = map[resource.QualifiedName]apiresource.Quantity{"bandwidth": apiresource.MustParse(amount)}
		return c
	}
	admin := testobjects.Allocated("admin", "nic.example.com/node-a/nic-0", "nic.example.com/node-a/nic-1", "nic.example.com/node-a/port-0")
	for i := range admin.Status.Allocation.Devices.Results {
		admin.Status.Allocation.Devices.Results[i].AdminAccess = &yes
	}
	r := Compute(Input{Slices: []*resource.ResourceSlice{s}, Claims: []*resource.ResourceClaim{share("a", "1", "30G"), share("b", "2", "30G"), admin}})
	p := r.Pools[0]
	if diff := cmp.Diff(map[string]DeviceState{"nic-0": StateInUse, "nic-1": StateFree, "port-0": StateFree}, states(p)); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	d := p.DeviceList[0]
	if d.Shares != 2 || len(d.Capacity) != 1 || d.Capacity[0].Left.String() != "40G" {
		t.Errorf("nic-0: %+v", d)
	}
	if len(p.Shared) != 1 || p.Shared[0].Total.String() != "200G" || p.Shared[0].Consumed.String() != "60G" || p.Shared[0].Left.String() != "140G" {
		t.Errorf("shared %+v", p.Shared)
	}
	sh := p.Status.ShareableSummary
	if sh == nil || i32(sh.FullyAvailableDevices) != "1" || i32(sh.PartiallyAvailableDevices) != "1" || sh.Capacity[0].Available.String() != "140G" {
		t.Errorf("shareable summary %+v", sh)
	}
	if i32(p.Status.AllocatedDevices) != "1" {
		t.Errorf("allocated %s: admin results count", i32(p.Status.AllocatedDevices))
	}
}

// TestTaints: a device's own NoSchedule and NoExecute taints and those of
// rules that select it count; None, and rules without a selector, do not.
// A tainted device in use is in use (and upstream counts it twice).
func TestTaints(t *testing.T) {
	devs := testobjects.GPUs(5, func(int) int { return 0 })
	devs[0].Taints = []resource.DeviceTaint{{Key: "k", Effect: resource.DeviceTaintEffectNoSchedule}}
	devs[1].Taints = []resource.DeviceTaint{{Key: "k", Effect: resource.DeviceTaintEffectNone}}
	devs[2].Taints = []resource.DeviceTaint{{Key: "k", Effect: resource.DeviceTaintEffectNoExecute}}
	s := testobjects.Slice("s", gpu, "node-a", testobjects.OnNode("node-a"), devs...)
	dev := "gpu3"
	rules := []*resource.DeviceTaintRule{
		{Spec: resource.DeviceTaintRuleSpec{DeviceSelector: &resource.DeviceTaintSelector{Device: &dev}, Taint: resource.DeviceTaint{Key: "r", Effect: resource.DeviceTaintEffectNoSchedule}}},
		{Spec: resource.DeviceTaintRuleSpec{Taint: resource.DeviceTaint{Key: "all?", Effect: resource.DeviceTaintEffectNoExecute}}},
	}
	r := Compute(Input{Slices: []*resource.ResourceSlice{s}, TaintRules: rules, Claims: []*resource.ResourceClaim{testobjects.Allocated("a", gpu+"/node-a/gpu2")}})
	p := r.Pools[0]
	want := map[string]DeviceState{"gpu0": StateTainted, "gpu1": StateFree, "gpu2": StateInUse, "gpu3": StateTainted, "gpu4": StateFree}
	if diff := cmp.Diff(want, states(p)); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	st := p.Status
	if got := fmt.Sprintf("%s %s %s %s", i32(st.TotalDevices), i32(st.AllocatedDevices), i32(st.UnavailableDevices), i32(st.AvailableDevices)); got != "5 1 3 1" {
		t.Errorf("status total/allocated/unavailable/available %s", got)
	}
	if p.Devices.Free != 2 {
		t.Errorf("free %d: drakit counts the tainted device in use once", p.Devices.Free)
	}
}

// TestRollout: generation 2 with 1 of 2 slices while generation 1 is
// still there is rolling out and counted nowhere; once complete, the old
// slices are ignored but shown.
func TestRollout(t *testing.T) {
	old := func(name string) *resource.ResourceSlice {
		return testobjects.PoolSlice(name, gpu, "p", 1, 2, testobjects.OnNode("node-a"), testobjects.GPUs(2, func(int) int { return 0 })...)
	}
	newer := func(name string, devs ...resource.Device) *resource.ResourceSlice {
		return testobjects.PoolSlice(name, gpu, "p", 2, 2, testobjects.OnNode("node-a"), devs...)
	}
	gpus := testobjects.GPUs(4, func(int) int { return 0 })
	r := Compute(Input{Slices: []*resource.ResourceSlice{old("a"), old("b"), newer("c", gpus[0], gpus[1])}})
	p := r.Pools[0]
	if p.Rollout.State != PoolRollingOut || p.Rollout.Slices != 1 || p.Rollout.OlderSlices != 2 || p.Devices.Total != 0 || len(r.Nodes) != 0 {
		t.Errorf("rolling out: %+v, %+v, nodes %v", p.Rollout, p.Devices, r.Nodes)
	}
	if got, want := p.Rollout.String(), "RollingOut: generation 2 has 1/2 slices (2 slices of generation 1 still published)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if p.Status.ValidationError == nil || *p.Status.ValidationError != "PoolIncomplete: pool gpu.example.com/p is incomplete: observed 1/2 slices at generation 2" || p.Status.TotalDevices != nil {
		t.Errorf("status %+v", p.Status)
	}
	r = Compute(Input{Slices: []*resource.ResourceSlice{old("a"), newer("c", gpus[0], gpus[1]), newer("d", gpus[2], gpus[3])}})
	p = r.Pools[0]
	if p.Rollout.State != PoolComplete || p.Devices.Free != 4 || p.Rollout.OlderSlices != 1 || i32(p.Status.TotalDevices) != "4" {
		t.Errorf("complete: %+v %+v", p.Rollout, p.Devices)
	}
	r = Compute(Input{Slices: []*resource.ResourceSlice{newer("c", gpus[0], gpus[1])}})
	if p := r.Pools[0]; p.Rollout.State != PoolIncomplete || p.DeviceList[0].State != StateUnusable {
		t.Errorf("incomplete: %+v", p.Rollout)
	}
}

// TestFilterAndNodes: Driver and PoolName keep a request's pools; devices
// of allNodes slices belong to no node.
func TestFilterAndNodes(t *testing.T) {
	slices := []*resource.ResourceSlice{
		testobjects.Slice("a", gpu, "node-a", testobjects.OnNode("node-a"), testobjects.GPUs(2, func(int) int { return 0 })...),
		testobjects.Slice("b", gpu, "node-b", testobjects.OnNode("node-b"), testobjects.GPUs(3, func(int) int { return 0 })...),
		testobjects.Slice("c", "nic.example.com", "node-a", testobjects.OnNode("node-a"), testobjects.Device("nic")),
		testobjects.Slice("d", "fpga.example.com", "shared", testobjects.AllNodes(), testobjects.Device("fpga")),
	}
	r := Compute(Input{Slices: slices, Claims: []*resource.ResourceClaim{testobjects.Allocated("x", gpu+"/node-b/gpu1")}})
	var got []string
	for _, n := range r.Nodes {
		got = append(got, fmt.Sprintf("%s:%d/%d/%d", n.Name, n.Pools, n.Devices.InUse, n.Devices.Total))
	}
	if diff := cmp.Diff([]string{"node-a:2/0/3", "node-b:1/1/3"}, got); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	if len(r.Pools) != 4 || r.Pools[0].Driver != "fpga.example.com" || r.Pools[0].Node != "" {
		t.Errorf("pools %d, first %s/%s", len(r.Pools), r.Pools[0].Driver, r.Pools[0].Name)
	}
	r = Compute(Input{Slices: slices, Driver: gpu, PoolName: "node-b"})
	if len(r.Pools) != 1 || r.Pools[0].Name != "node-b" {
		t.Errorf("filtered: %d pools", len(r.Pools))
	}
}

// TestInvalidPool: a device named twice makes the pool invalid: upstream
// still counts its devices, drakit counts none as usable.
func TestInvalidPool(t *testing.T) {
	r := Compute(Input{Slices: []*resource.ResourceSlice{
		testobjects.PoolSlice("a", gpu, "p", 0, 2, testobjects.OnNode("n"), testobjects.Device("gpu0")),
		testobjects.PoolSlice("b", gpu, "p", 0, 2, testobjects.OnNode("n"), testobjects.Device("gpu0")),
	}})
	if p := r.Pools[0]; p.Invalid != `device "gpu0" is in slice a and in slice b` || i32(p.Status.TotalDevices) != "2" || p.Usable() || p.Devices.Total != 0 || p.DeviceList[0].State != StateUnusable || len(r.Nodes) != 0 {
		t.Errorf("invalid %q, status %+v, counts %+v, nodes %v", p.Invalid, p.Status, p.Devices, r.Nodes)
	}
	// More slices than resourceSliceCount: the scheduler does not use the
	// pool; upstream's controller counts it.
	r = Compute(Input{Slices: []*resource.ResourceSlice{
		testobjects.PoolSlice("a", gpu, "p", 0, 1, testobjects.OnNode("n"), testobjects.Device("gpu0")),
		testobjects.PoolSlice("b", gpu, "p", 0, 1, testobjects.OnNode("n"), testobjects.Device("gpu1")),
	}})
	if p := r.Pools[0]; p.Rollout.State != PoolIncomplete || p.Usable() || i32(p.Status.TotalDevices) != "2" || p.Status.ValidationError != nil {
		t.Errorf("too many slices: %+v, status %+v", p.Rollout, p.Status)
	}
}
