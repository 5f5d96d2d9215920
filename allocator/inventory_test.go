package allocator

import (
	"context"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
)

// madeEntries counts the slices the Allocator has looked at.
func madeEntries(a *Allocator) int { return nonNil(slices.Values(a.entries)) }

// keptViews counts the node views the Allocator keeps (nodes asked about
// once have none).
func keptViews(a *Allocator) int { return nonNil(maps.Values(a.nodeViews)) }

func nonNil[T any](values iter.Seq[*T]) int {
	n := 0
	for v := range values {
		if v != nil {
			n++
		}
	}
	return n
}

// TestNodeSlicesLookedAtWhenNeeded: a fresh Allocator makes entries for the
// slices without a nodeName (their node selection is checked in New) and,
// call by call, for the slices of the nodes asked about; past
// nodeScanLimit nodes it indexes the list by node, and every node still
// sees its own slices and only those.
func TestNodeSlicesLookedAtWhenNeeded(t *testing.T) {
	const nodes = 2*nodeScanLimit + 3
	var list []*resource.ResourceSlice
	// Not in name order, so that New checks the names with a map.
	for i := nodes - 1; i >= 0; i-- {
		n := fmt.Sprintf("n%02d", i)
		list = append(list, slice(n+"-gpus", drv, n, onNode(n), gpus(2, numaHalf4)...))
	}
	list = append(list, slice("shared", "net.example.com", "shared", allNodes(), dev("nic0")))
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: list})
	if err != nil {
		t.Fatal(err)
	}
	if got := madeEntries(a); got != 1 {
		t.Fatalf("New made %d entries, want 1 (the allNodes slice)", got)
	}
	c := claim("c", req("r", "gpu"))
	ctx := context.Background()
	for round := 0; round < 2; round++ {
		for i := 0; i < nodes; i++ {
			n := fmt.Sprintf("n%02d", i)
			res, err := a.AllocateOn(ctx, node(n), []*resource.ResourceClaim{c})
			if err != nil || res[0].Err != nil {
				t.Fatalf("round %d, node %s: %v %v", round, n, err, res[0].Err)
			}
			if got := res[0].Allocation.Devices.Results[0].Pool; got != n {
				t.Fatalf("round %d, node %s: got a device of pool %s", round, n, got)
			}
			if round == 0 {
				if got, want := madeEntries(a), i+2; got != want {
					t.Fatalf("after node %s: %d entries, want %d (the nodes asked about and the allNodes slice)", n, got, want)
				}
				if indexed := a.byNode != nil; indexed != (i >= nodeScanLimit) {
					t.Fatalf("after %d nodes: indexed by node %v", i+1, indexed)
				}
				// Views are kept from a node's second call on.
				if got := keptViews(a); got != 0 {
					t.Fatalf("after %d nodes asked about once: %d views kept, want none", i+1, got)
				}
			}
		}
	}
	if got := keptViews(a); got != nodes {
		t.Fatalf("%d views kept, want one per node (%d)", got, nodes)
	}
}

func TestSetSlicesNames(t *testing.T) {
	s := func(name string) *resource.ResourceSlice {
		return slice(name, drv, "p-"+name, onNode("n1"), dev("gpu0"))
	}
	for _, tc := range []struct {
		names []string
		dup   string
	}{
		{names: []string{"a", "b", "c"}},
		{names: []string{"c", "a", "b"}},
		{names: []string{"", "a", "", "b"}},
		{names: []string{"a", "b", "b"}, dup: "b"},
		{names: []string{"b", "a", "b"}, dup: "b"},
		{names: []string{"a", "", "a"}, dup: "a"},
	} {
		var list []*resource.ResourceSlice
		for _, n := range tc.names {
			list = append(list, s(n))
		}
		_, err := New(Options{Slices: list})
		switch {
		case tc.dup == "" && err != nil:
			t.Errorf("%q: %v", tc.names, err)
		case tc.dup != "" && (err == nil || !strings.Contains(err.Error(), fmt.Sprintf("two ResourceSlices are named %q", tc.dup))):
			t.Errorf("%q: got %v, want an error naming %q", tc.names, err, tc.dup)
		}
	}
}

// TestAllocatedDevicesNotWritten: the Allocator keeps the caller's list of
// devices in use and records its own changes elsewhere.
func TestAllocatedDevicesNotWritten(t *testing.T) {
	s1 := slice("s1", drv, "n1", onNode("n1"), gpus(4, numaHalf4)...)
	inUse := make([]DeviceID, 2, 8)
	inUse[0] = DeviceID{drv, "n1", "gpu0"}
	inUse[1] = DeviceID{drv, "n1", "gpu1"}
	want := slices.Clone(inUse[:cap(inUse)])
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: []*resource.ResourceSlice{s1}, AllocatedDevices: inUse})
	if err != nil {
		t.Fatal(err)
	}
	a.MarkAllocated(DeviceID{drv, "n1", "gpu2"})
	a.MarkFree(inUse[0])
	res, err := a.AllocateOn(context.Background(), node("n1"), []*resource.ResourceClaim{claim("c", req("r", "gpu", count(2)))})
	if err != nil || res[0].Err != nil {
		t.Fatal(err, res[0].Err)
	}
	if got := devicesOf(res[0].Allocation); !slices.Equal(got, []string{"r=" + drv + "/n1/gpu0", "r=" + drv + "/n1/gpu3"}) {
		t.Errorf("got %v, want gpu0 (marked free) and gpu3", got)
	}
	if got := inUse[:cap(inUse)]; !slices.Equal(got, want) {
		t.Errorf("the caller's list changed: %v, want %v", got, want)
	}
}

// TestTaintRulesReplaced: the taints an Allocator remembers per slice
// follow SetDeviceTaintRules.
func TestTaintRulesReplaced(t *testing.T) {
	f := DefaultFeatures()
	f.DeviceTaints, f.DeviceTaintRules = true, true
	s1 := slice("s1", drv, "n1", onNode("n1"), gpus(2, numaHalf4)...)
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: []*resource.ResourceSlice{s1}, Features: &f})
	if err != nil {
		t.Fatal(err)
	}
	c := claim("c", req("r", "gpu"))
	allocate := func() []string {
		t.Helper()
		res, err := a.AllocateOn(context.Background(), node("n1"), []*resource.ResourceClaim{c})
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Err != nil {
			return []string{res[0].Err.Error()}
		}
		return devicesOf(res[0].Allocation)
	}
	want0, want1 := []string{"r=" + drv + "/n1/gpu0"}, []string{"r=" + drv + "/n1/gpu1"}
	if got := allocate(); !slices.Equal(got, want0) {
		t.Fatalf("without rules: %v, want %v", got, want0)
	}
	for _, step := range []struct {
		rules []*resource.DeviceTaintRule
		want  []string
	}{
		{[]*resource.DeviceTaintRule{taintRule("gpu0", resource.DeviceTaintEffectNoSchedule)}, want1},
		{[]*resource.DeviceTaintRule{taintRule("gpu1", resource.DeviceTaintEffectNoExecute)}, want0},
		{[]*resource.DeviceTaintRule{taintRule("gpu0", resource.DeviceTaintEffectNone)}, want0},
		{nil, want0},
	} {
		if err := a.SetDeviceTaintRules(step.rules); err != nil {
			t.Fatal(err)
		}
		if got := allocate(); !slices.Equal(got, step.want) {
			t.Errorf("with %d rules: %v, want %v", len(step.rules), got, step.want)
		}
	}
	if err := a.SetDeviceTaintRules([]*resource.DeviceTaintRule{taintRule("gpu0", resource.DeviceTaintEffectNoSchedule), taintRule("gpu1", resource.DeviceTaintEffectNoSchedule)}); err != nil {
		t.Fatal(err)
	}
	if got := allocate(); len(got) != 1 || !strings.Contains(got[0], "taint") {
		t.Errorf("both devices tainted: %v, want a failure naming the taint", got)
	}
}

// TestFitsConsumed: fitsConsumed, with its whole-number shortcut, answers
// as fitsCapacity does for a need that fits on its own.
func TestFitsConsumed(t *testing.T) {
	qs := []string{"0", "1", "7", "8Gi", "100Gi", "500m", "1.5", "9223372036854775807", "1e20", "99Gi", "92Gi", "1Ki"}
	for _, capacity := range qs {
		for _, need := range qs {
			for _, consumed := range append([]string{""}, qs...) {
				dev := &resource.Device{Capacity: map[resource.QualifiedName]resource.DeviceCapacity{"bw": {Value: apiresource.MustParse(capacity)}}}
				needs := map[resource.QualifiedName]apiresource.Quantity{"bw": apiresource.MustParse(need)}
				if !fitsCapacity(dev, needs) {
					continue
				}
				var used map[resource.QualifiedName]apiresource.Quantity
				if consumed != "" {
					used = map[resource.QualifiedName]apiresource.Quantity{"bw": apiresource.MustParse(consumed)}
				}
				if got, want := fitsConsumed(capacityAmounts(dev, needs), used), fitsCapacity(dev, needs, used); got != want {
					t.Errorf("capacity %s, need %s, consumed %q: fitsConsumed %v, fitsCapacity %v", capacity, need, consumed, got, want)
				}
			}
		}
	}
}

// TestSharesFollowCommits: what shares consume of a device is seen by the
// next call whether the device had shares before (the same record) or
// gets its first one (the slice's remembered shares are made again).
func TestSharesFollowCommits(t *testing.T) {
	a, err := New(Options{
		Classes: []*resource.DeviceClass{gpuClass},
		Slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), nic("nic0"), nic("nic1"))},
		Node:    node("n1"),
	})
	if err != nil {
		t.Fatal(err)
	}
	// Each claim takes 5 of a NIC's 10: two fit on each NIC.
	var got []string
	for i := 0; i < 5; i++ {
		c := claim(fmt.Sprintf("c%d", i), exact("r", "gpu", bandwidth("5")))
		res, err := a.Allocate(context.Background(), []*resource.ResourceClaim{c})
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Err != nil {
			got = append(got, "none")
			continue
		}
		a.Commit(res)
		got = append(got, res[0].Allocation.Devices.Results[0].Device)
	}
	if want := []string{"nic0", "nic0", "nic1", "nic1", "none"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestInUseRecord: devices recorded in a pool of which the caller's list
// names none are in use, the first device of the pool as the others.
func TestInUseRecord(t *testing.T) {
	s1 := slice("s1", drv, "n1", onNode("n1"), gpus(4, numaHalf4)...)
	s2 := slice("s2", drv, "n2", onNode("n2"), gpus(4, numaHalf4)...)
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: []*resource.ResourceSlice{s1, s2},
		AllocatedDevices: []DeviceID{{drv, "n2", "gpu0"}}})
	if err != nil {
		t.Fatal(err)
	}
	// The call indexes n1's pool: nothing of it in use.
	if res, err := a.AllocateOn(context.Background(), node("n1"), []*resource.ResourceClaim{claim("c", req("r", "gpu", count(4)))}); err != nil || res[0].Err != nil {
		t.Fatal(err, res[0].Err)
	}
	for _, d := range []string{"gpu1", "gpu2"} {
		id := DeviceID{drv, "n1", d}
		if a.IsAllocated(id) {
			t.Fatalf("%v in use before it was marked", id)
		}
		a.MarkAllocated(id)
		if !a.IsAllocated(id) {
			t.Errorf("%v marked, but not in use", id)
		}
	}
	a.MarkFree(DeviceID{drv, "n1", "gpu1"})
	if a.IsAllocated(DeviceID{drv, "n1", "gpu1"}) || !a.IsAllocated(DeviceID{drv, "n1", "gpu2"}) || !a.IsAllocated(DeviceID{drv, "n2", "gpu0"}) {
		t.Errorf("after MarkFree of n1/gpu1: in use %v %v %v, want false true true", a.IsAllocated(DeviceID{drv, "n1", "gpu1"}), a.IsAllocated(DeviceID{drv, "n1", "gpu2"}), a.IsAllocated(DeviceID{drv, "n2", "gpu0"}))
	}
}

func TestCallTable(t *testing.T) {
	var tab callTable[int]
	for round := 0; round < 2; round++ {
		for i := 0; i < 3*callTableScan; i++ {
			key := fmt.Sprintf("k%d", i)
			if _, ok := tab.get(key); ok {
				t.Fatalf("round %d: %s found before it was put", round, key)
			}
			tab.put(key, i+round)
			for j := 0; j <= i; j += 7 {
				if v, ok := tab.get(fmt.Sprintf("k%d", j)); !ok || v != j+round {
					t.Fatalf("round %d, %d keys: k%d gives %d %v, want %d", round, i+1, j, v, ok, j+round)
				}
			}
		}
		tab.reset()
		if _, ok := tab.get("k0"); ok {
			t.Fatalf("round %d: k0 found after reset", round)
		}
	}
}

// TestClassConfigOnce: a class's configuration appears once in an
// allocation, naming the requests that use the class.
func TestClassConfigOnce(t *testing.T) {
	configured := withClassConfig(class("configured", `device.driver == "gpu.example.com"`), drv, `{"x":1}`)
	plain := class("plain", `device.driver == "gpu.example.com"`)
	a, err := New(Options{Classes: []*resource.DeviceClass{configured, plain},
		Slices: []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(4, numaHalf4)...)}})
	if err != nil {
		t.Fatal(err)
	}
	c := claim("c", req("a", "configured"), req("b", "plain"), req("c", "configured"))
	res, err := a.AllocateOn(context.Background(), node("n1"), []*resource.ResourceClaim{c})
	if err != nil || res[0].Err != nil {
		t.Fatal(err, res[0].Err)
	}
	cfg := res[0].Allocation.Devices.Config
	if len(cfg) != 1 || cfg[0].Source != resource.AllocationConfigSourceClass || !slices.Equal(cfg[0].Requests, []string{"a", "c"}) {
		t.Errorf("config %+v, want the class's once, for requests a and c", cfg)
	}
}

// TestInUseSetGroupsPools covers inUseSet past poolScanLimit pools, where
// the list is grouped once and each pool indexed when first asked about:
// runs of one pool anywhere in the list, pools indexed before the
// grouping (which keep their own record), and pools with nothing in use.
func TestInUseSetGroupsPools(t *testing.T) {
	var list []DeviceID
	for p := range 2 * poolScanLimit {
		list = append(list, DeviceID{drv, "p" + strconv.Itoa(p), "d0"}, DeviceID{drv, "p" + strconv.Itoa(p), "d1"})
	}
	// A second run of p0, after the others, and one of another driver.
	list = append(list, DeviceID{drv, "p0", "d2"}, DeviceID{"other", "p0", "x"})
	s := inUseSet{pending: list}
	// p1 is indexed by scanning, and changes before the grouping.
	if !s.has(DeviceID{drv, "p1", "d0"}) {
		t.Fatal("p1/d0 not in use")
	}
	s.remove(DeviceID{drv, "p1", "d0"})
	for p := 2; p < poolScanLimit+2; p++ {
		s.has(DeviceID{drv, "p" + strconv.Itoa(p), "d9"}) // past poolScanLimit: grouped
	}
	if s.pending != nil || s.firstRun == nil {
		t.Fatal("the list was not grouped")
	}
	for _, c := range []struct {
		id   DeviceID
		want bool
	}{
		{DeviceID{drv, "p0", "d0"}, true},
		{DeviceID{drv, "p0", "d2"}, true}, // the second run
		{DeviceID{drv, "p0", "x"}, false},
		{DeviceID{"other", "p0", "x"}, true},
		{DeviceID{drv, "p1", "d0"}, false}, // removed before the grouping
		{DeviceID{drv, "p1", "d1"}, true},
		{DeviceID{drv, "p15", "d1"}, true},
		{DeviceID{drv, "none", "d0"}, false},
	} {
		if got := s.has(c.id); got != c.want {
			t.Errorf("%v in use: %v, want %v", c.id, got, c.want)
		}
	}
	if !s.add(DeviceID{drv, "p14", "d5"}) || s.add(DeviceID{drv, "p14", "d0"}) || !s.add(DeviceID{drv, "new", "d0"}) {
		t.Error("add after grouping: want true, false (held), true")
	}
	if !s.has(DeviceID{drv, "p14", "d1"}) || !s.has(DeviceID{drv, "new", "d0"}) {
		t.Error("a pool's record lost what the list holds or what was added")
	}
}

// TestMarkInUseReadsEveryRecord: a slice's devices in use are the same
// whether its pool's record is the list given to New (read without an
// index while the pool is unchanged), the pool's index, or both after a
// change; small and large slices, names used twice included.
func TestMarkInUseReadsEveryRecord(t *testing.T) {
	names := func(n int) []resource.Device {
		var devices []resource.Device
		for i := range n {
			devices = append(devices, dev("d"+strconv.Itoa(i)))
		}
		return devices
	}
	twice := names(4)
	twice[3].Name = "d1"
	var list []DeviceID
	for p := range 2 * poolScanLimit {
		pool := "p" + strconv.Itoa(p)
		list = append(list, DeviceID{drv, pool, "d1"}, DeviceID{drv, pool, "d12"}, DeviceID{drv, pool, "d30"})
	}
	list = append(list, DeviceID{drv, "p3", "d2"}, DeviceID{"other", "p4", "d2"})
	s := inUseSet{pending: list}
	for p := range poolScanLimit + 1 {
		s.has(DeviceID{drv, "x" + strconv.Itoa(p), "d0"}) // groups the list
	}
	if s.firstRun == nil {
		t.Fatal("the list was not grouped")
	}
	s.add(DeviceID{drv, "p5", "d3"})
	for _, c := range []struct {
		pool    string
		devices []resource.Device
		want    []int
	}{
		{"p3", names(4), []int{1, 2}},                    // two runs, read as they are
		{"p4", names(4), []int{1}},                       // the other driver's d2 is not p4's
		{"p5", names(4), []int{1, 3}},                    // indexed by the add
		{"p6", twice, []int{1, 3}},                       // both devices named d1
		{"p7", names(smallSlice + 20), []int{1, 12, 30}}, // a large slice reads the index
		{"none", names(4), nil},
	} {
		e := &sliceEntry{driver: drv, pool: c.pool, devices: c.devices, words: (len(c.devices) + 63) / 64}
		e.inUse = make([]uint64, e.words)
		e.markInUse(&s)
		var got []int
		for i := range c.devices {
			if hasBit(e.inUse, i) {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("pool %s: devices in use %v, want %v", c.pool, got, c.want)
		}
	}
}

// TestScanFindsDuplicateNames covers both ways scanDevices looks for a
// device name used twice in a slice (device by device in a small slice,
// by its index otherwise), and the index by name of both.
func TestScanFindsDuplicateNames(t *testing.T) {
	scan := func(devices []resource.Device) *sliceEntry {
		e := &sliceEntry{obj: slice("s", drv, "n1", onNode("n1"), devices...), devices: devices, words: (len(devices) + 63) / 64}
		e.scanDevices()
		return e
	}
	for _, n := range []int{3, smallSlice, smallSlice + 1, 40} {
		var devices []resource.Device
		for i := range n {
			devices = append(devices, dev("d"+strconv.Itoa(i)))
		}
		twice := append([]resource.Device(nil), devices...)
		twice[n-1].Name = "d1"
		for _, c := range []struct {
			e               *sliceEntry
			duplicate, name string
			index           int32
		}{{scan(devices), "", "d2", 2}, {scan(twice), "d1", "d1", 1}} {
			if c.e.duplicate != c.duplicate {
				t.Errorf("%d devices: duplicate %q, want %q", n, c.e.duplicate, c.duplicate)
			}
			if i, ok := c.e.index(c.name); !ok || i != c.index {
				t.Errorf("%d devices: index of %s is %d, %v; want %d, the first device of the name", n, c.name, i, ok, c.index)
			}
		}
	}
}

// TestNodeSlicesIndexedInListOrder: once indexed by node, a node with
// several slices, here and there in the list, gets the same entries in the
// same order as the scan of the list gives them.
func TestNodeSlicesIndexedInListOrder(t *testing.T) {
	const nodes = nodeScanLimit + 4
	var list []*resource.ResourceSlice
	for round := 0; round < 3; round++ {
		for i := 0; i < nodes; i++ {
			if round > 0 && i%round != 0 {
				continue // nodes with one, two and three slices
			}
			n := fmt.Sprintf("n%02d", i)
			pool := fmt.Sprintf("%s-%d", n, round)
			list = append(list, slice(pool, drv, pool, onNode(n), gpus(1, numaHalf4)...))
		}
	}
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: list})
	if err != nil {
		t.Fatal(err)
	}
	names := func(entries []*sliceEntry) []string {
		var out []string
		for _, e := range entries {
			out = append(out, e.obj.Name)
		}
		return out
	}
	scanned := map[string][]string{}
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < nodes; i++ {
			n := fmt.Sprintf("n%02d", i)
			got := names(a.appendNodeSlices(nil, n))
			if pass == 0 && a.byNode == nil {
				scanned[n] = got
				continue
			}
			var want []string
			for _, s := range list {
				if *s.Spec.NodeName == n {
					want = append(want, s.Name)
				}
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("pass %d, node %s (indexed %v): slices %v, want %v", pass, n, a.byNode != nil, got, want)
			}
			if s, ok := scanned[n]; ok && strings.Join(s, ",") != strings.Join(got, ",") {
				t.Errorf("node %s: scanning found %v, the index %v", n, s, got)
			}
		}
	}
	if a.byNode == nil {
		t.Fatalf("not indexed after %d nodes", 2*nodes)
	}
}
