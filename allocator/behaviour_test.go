package allocator

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/apis/resource"
)

func TestDeterministic(t *testing.T) {
	var slices []*resource.ResourceSlice
	for i := 0; i < 6; i++ {
		slices = append(slices, slice(fmt.Sprintf("s%d", i), drv, fmt.Sprintf("pool%d", i%3), allNodes(), gpus(4, func(j int) int { return (i + j) % 2 })...))
	}
	// Pools spread over two slices each.
	for _, s := range slices {
		s.Spec.Pool.ResourceSliceCount = 2
		for j := range s.Spec.Devices {
			s.Spec.Devices[j].Name = s.Name + "-" + s.Spec.Devices[j].Name
		}
	}
	claims := []*resource.ResourceClaim{
		withConstraint(claim("a", req("r", "gpu", count(3))), "gpu.example.com/numa"),
		claim("b", req("x", "gpu", count(2)), req("y", "gpu")),
	}
	var first [][]string
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 20; round++ {
		shuffled := append([]*resource.ResourceSlice(nil), slices...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: shuffled})
		if err != nil {
			t.Fatal(err)
		}
		results, err := a.Allocate(context.Background(), claims)
		if err != nil {
			t.Fatal(err)
		}
		var got [][]string
		for _, r := range results {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			got = append(got, devicesOf(r.Allocation))
		}
		if round == 0 {
			first = got
			if got[0][0] != "r=gpu.example.com/pool0/s0-gpu0" {
				t.Errorf("first device %s: pools and slices are not visited in name order", got[0][0])
			}
		} else if !reflect.DeepEqual(got, first) {
			t.Fatalf("round %d: %v, first round %v", round, got, first)
		}
	}
}

func TestSelectorResultsAreCached(t *testing.T) {
	s1 := slice("s1", drv, "n1", onNode("n1"), gpus(8, numaHalf4)...)
	s2 := slice("s2", drv, "n2", onNode("n2"), gpus(8, numaHalf4)...)
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: []*resource.ResourceSlice{s1, s2}})
	if err != nil {
		t.Fatal(err)
	}
	// Four devices: all that match, so that every device is judged (a
	// lone request stops at the first devices that serve it).
	c := claim("c", req("r", "gpu", count(4), sel(`device.attributes["gpu.example.com"].numa == 1`)))
	ctx := context.Background()
	allocate := func(n string) {
		t.Helper()
		res, err := a.AllocateOn(ctx, node(n), []*resource.ResourceClaim{c})
		if err != nil || res[0].Err != nil {
			t.Fatal(err, res[0].Err)
		}
	}
	allocate("n1")
	// Two selectors on 8 devices; the request's only where the class's held.
	if got := a.Stats().Evaluations; got != 16 {
		t.Fatalf("%d evaluations on the first call, want 16", got)
	}
	allocate("n1")
	allocate("n1")
	if got := a.Stats().Evaluations; got != 16 {
		t.Fatalf("%d evaluations after repeating, want still 16", got)
	}
	allocate("n2")
	if got := a.Stats().Evaluations; got != 32 {
		t.Fatalf("%d evaluations after the second node, want 32", got)
	}
	// The same slice objects again: nothing is re-evaluated.
	if err := a.SetSlices([]*resource.ResourceSlice{s1, s2}); err != nil {
		t.Fatal(err)
	}
	allocate("n1")
	if got := a.Stats().Evaluations; got != 32 {
		t.Fatalf("%d evaluations after SetSlices with the same slices, want 32", got)
	}
	// A changed slice is evaluated again; the other one is not.
	changed := s1.DeepCopy()
	changed.Spec.Devices = changed.Spec.Devices[:4]
	if err := a.SetSlices([]*resource.ResourceSlice{changed, s2}); err != nil {
		t.Fatal(err)
	}
	allocate("n2")
	if got := a.Stats().Evaluations; got != 32 {
		t.Fatalf("%d evaluations, want 32", got)
	}
	res, _ := a.AllocateOn(ctx, node("n1"), []*resource.ResourceClaim{c})
	if !IsReason(res[0].Err, ReasonNoMatch) {
		t.Fatalf("changed slice not seen: %v", res[0].Err)
	}
	if got := a.Stats().Evaluations; got != 40 {
		t.Fatalf("%d evaluations, want 40 (4 new devices, two selectors)", got)
	}
	// Same name, UID and resourceVersion: the same slice.
	rv := changed.DeepCopy()
	changed.ResourceVersion, rv.ResourceVersion = "7", "7"
	if err := a.SetSlices([]*resource.ResourceSlice{changed, s2}); err != nil {
		t.Fatal(err)
	}
	if err := a.SetSlices([]*resource.ResourceSlice{rv, s2}); err != nil {
		t.Fatal(err)
	}
	a.AllocateOn(ctx, node("n1"), []*resource.ResourceClaim{c})
	if got := a.Stats().Evaluations; got != 40 {
		t.Fatalf("%d evaluations, want still 40: an object with the same resourceVersion is the same slice", got)
	}
}

func TestCommitAndMarkFree(t *testing.T) {
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(2, numaZero)...)}, Node: node("n1")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := []*resource.ResourceClaim{claim("c", req("r", "gpu"))}
	for _, want := range []string{"gpu0", "gpu1"} {
		res, err := a.Allocate(ctx, c)
		if err != nil || res[0].Err != nil {
			t.Fatal(err, res[0].Err)
		}
		if d := res[0].Allocation.Devices.Results[0].Device; d != want {
			t.Fatalf("got %s, want %s", d, want)
		}
		a.Commit(res)
	}
	res, _ := a.Allocate(ctx, c)
	if !IsReason(res[0].Err, ReasonNotEnough) {
		t.Fatalf("got %v", res[0].Err)
	}
	a.MarkFree(DeviceID{drv, "n1", "gpu0"})
	res, _ = a.Allocate(ctx, c)
	if res[0].Err != nil || res[0].Allocation.Devices.Results[0].Device != "gpu0" {
		t.Fatalf("got %v", res[0])
	}
}

func TestCancelledContext(t *testing.T) {
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(2, numaZero)...)}, Node: node("n1")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.Allocate(ctx, []*resource.ResourceClaim{claim("c", req("r", "gpu"))}); err != context.Canceled {
		t.Fatalf("got %v", err)
	}
}

func TestInvalidInventory(t *testing.T) {
	bad := slice("bad", drv, "p", allNodes())
	bad.Spec.AllNodes = nil
	bad.Spec.NodeSelector = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "k", Operator: "Near"}}}}}
	for name, opts := range map[string]Options{
		`ResourceSlice "bad": spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[0]: unknown operator "Near"`: {Slices: []*resource.ResourceSlice{bad}},
		`two ResourceSlices are named "s"`:  {Slices: []*resource.ResourceSlice{slice("s", drv, "p", allNodes()), slice("s", drv, "q", allNodes())}},
		`two DeviceClasses are named "gpu"`: {Classes: []*resource.DeviceClass{gpuClass, gpuClass}},
		`unknown allocation mode 5`:         {Mode: 5},
	} {
		if _, err := New(opts); err == nil || err.Error() != name {
			t.Errorf("got %v, want %q", err, name)
		}
	}
}

// Impossible requests are refuted by counting, not by search.
func TestImpossibleIsProvenByCounting(t *testing.T) {
	var devices []resource.Device
	for i := 0; i < 1000; i++ {
		devices = append(devices, dev(fmt.Sprintf("d%d", i), attr("numa", i%16)))
	}
	var slices []*resource.ResourceSlice
	for i := 0; i < 1000; i += 100 {
		slices = append(slices, slice(fmt.Sprintf("s%d", i), drv, "pool", allNodes(), devices[i:i+100]...))
		slices[len(slices)-1].Spec.Pool.ResourceSliceCount = 10
	}
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: slices})
	if err != nil {
		t.Fatal(err)
	}
	var inUse []DeviceID
	for i := 0; i < 990; i++ {
		inUse = append(inUse, DeviceID{drv, "pool", fmt.Sprintf("d%d", i)})
	}
	a.MarkAllocated(inUse...)
	// 10 free devices, ask for 11.
	res, err := a.Allocate(context.Background(), []*resource.ResourceClaim{claim("c", req("r", "gpu", count(11)))})
	if err != nil || !IsReason(res[0].Err, ReasonNotEnough) {
		t.Fatal(err, res[0].Err)
	}
	if s := a.Stats().SearchSteps; s != 0 {
		t.Errorf("%d search steps for a count the free devices cannot meet", s)
	}
	a.MarkFree(inUse...)
	// 64 devices per numa value would be needed; each value has 62 or 63.
	before := a.Stats().SearchSteps
	res, err = a.Allocate(context.Background(), []*resource.ResourceClaim{withConstraint(claim("c", req("r", "gpu", count(32)), req("s", "gpu", count(32))), "gpu.example.com/numa")})
	if err != nil || !IsReason(res[0].Err, ReasonTooManyDevices) {
		t.Fatal(err, res[0].Err)
	}
	res, err = a.Allocate(context.Background(), []*resource.ResourceClaim{withConstraint(claim("c", req("r", "gpu", count(16)), req("s", "gpu", count(16)), req("t", "gpu", count(32))), "gpu.example.com/numa")})
	if err != nil || res[0].Err == nil {
		t.Fatal(err, res[0].Err)
	}
	// 10 free devices per numa value: 11 with the same value is impossible.
	c := withConstraint(claim("c", req("r", "gpu", count(11))), "gpu.example.com/numa")
	for i := 0; i < 1000; i++ {
		if i%16 >= 0 && i/16 >= 10 {
			a.MarkAllocated(DeviceID{drv, "pool", fmt.Sprintf("d%d", i)})
		}
	}
	before = a.Stats().SearchSteps
	res, err = a.Allocate(context.Background(), []*resource.ResourceClaim{c})
	if err != nil || !IsReason(res[0].Err, ReasonConstraintUnsatisfiable) {
		t.Fatal(err, res[0].Err)
	}
	if s := a.Stats().SearchSteps - before; s > 100 {
		t.Errorf("%d search steps to refute the constraint, want at most one per value (16) and diagnosis", s)
	}
	if !strings.Contains(res[0].Err.Error(), "no 11 of them that are free share a value") {
		t.Errorf("message: %v", res[0].Err)
	}
}

// A constraint across two requests whose devices can never agree is refuted
// when the first request fixes the value, before any devices are chosen.
func TestSplitGroupsAreRefutedWithoutSearch(t *testing.T) {
	var devices []resource.Device
	for i := 0; i < 64; i++ {
		group := "x"
		if i >= 32 {
			group = "y"
		}
		devices = append(devices, dev(fmt.Sprintf("gpu%d", i), attr("index", i), attr("group", group)))
	}
	a, err := New(Options{
		Classes: []*resource.DeviceClass{
			class("left", `device.attributes["gpu.example.com"].index < 32`),
			class("right", `device.attributes["gpu.example.com"].index >= 32`),
		},
		Slices: []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), devices...)},
		Node:   node("n1"),
	})
	if err != nil {
		t.Fatal(err)
	}
	c := withConstraint(claim("c", req("l", "left", count(16)), req("r", "right", count(16))), "gpu.example.com/group")
	res, err := a.Allocate(context.Background(), []*resource.ResourceClaim{c})
	if err != nil || !IsReason(res[0].Err, ReasonConstraintUnsatisfiable) || res[0].Err.(*ClaimError).Request != "r" {
		t.Fatal(err, res[0].Err)
	}
	if s := a.Stats().SearchSteps; s > 200 {
		t.Errorf("%d search steps; C(32,16) combinations must not be tried", s)
	}
}

// Requests that share their candidates must fit into them together; that
// is counted before any device is chosen.
func TestCompetingRequestsAreRefutedWithoutSearch(t *testing.T) {
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), gpus(31, numaZero)...)}, Node: node("n1")})
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Allocate(context.Background(), []*resource.ResourceClaim{claim("c", req("a", "gpu", count(16)), req("b", "gpu", count(16)))})
	if err != nil || !IsReason(res[0].Err, ReasonNotEnough) || res[0].Err.(*ClaimError).Request != "b" {
		t.Fatal(err, res[0].Err)
	}
	if s := a.Stats().SearchSteps; s > 100 {
		t.Errorf("%d search steps; C(31,16) combinations must not be tried", s)
	}
}

// TestLoneRequestStopsAtFirstMatches shows that a call allocating one claim
// with exact requests and no constraints (or one request under one
// matchAttribute constraint) evaluates selectors only until enough free
// devices match, as upstream's search stops at the first devices that fit,
// and that a second claim in the call (whose search may need any device)
// gets every device judged.
func TestLoneRequestStopsAtFirstMatches(t *testing.T) {
	ctx := context.Background()
	lone := func() *resource.ResourceClaim {
		return claim("c", req("r", "gpu", count(2), sel(`device.attributes["gpu.example.com"].numa == 1`)))
	}
	for _, tc := range []struct {
		name   string
		claims []*resource.ResourceClaim
		// evaluations: the class's selector and the request's on gpu0-3
		// (numa 0: the request's fails), then on gpu4 and gpu5; 16 is
		// both on all eight.
		evaluations int64
		want        []string
	}{
		{"lone", []*resource.ResourceClaim{lone()}, 12, []string{"r=gpu.example.com/n1/gpu4", "r=gpu.example.com/n1/gpu5"}},
		// Both requests evaluate until two devices match (the claim's
		// devices in all): r0 the class's selector on gpu0 and gpu1, r1
		// its own there, which competes with r0 for them.
		{"two requests", []*resource.ResourceClaim{claim("c", req("r0", "gpu"), req("r1", "gpu", sel(`device.attributes["gpu.example.com"].numa == 0`)))}, 4, []string{"r0=gpu.example.com/n1/gpu0", "r1=gpu.example.com/n1/gpu1"}},
		// A single request under a single matchAttribute constraint stops
		// too once the first candidate's value (numa 1) has enough.
		{"constraint", []*resource.ResourceClaim{withConstraint(lone(), "gpu.example.com/numa")}, 12, []string{"r=gpu.example.com/n1/gpu4", "r=gpu.example.com/n1/gpu5"}},
		{"two claims", []*resource.ResourceClaim{lone(), claim("d", req("r", "gpu"))}, 16, []string{"r=gpu.example.com/n1/gpu4", "r=gpu.example.com/n1/gpu5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(8, numaHalf4)...)}})
			if err != nil {
				t.Fatal(err)
			}
			res, err := a.AllocateOn(ctx, node("n1"), tc.claims)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res {
				if r.Err != nil {
					t.Fatal(r.Err)
				}
			}
			if got := devicesOf(res[0].Allocation); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("claim c got %v, want %v", got, tc.want)
			}
			if got := a.Stats().Evaluations; got != tc.evaluations {
				t.Errorf("%d evaluations, want %d", got, tc.evaluations)
			}
		})
	}

	// The first candidate's value (numa 0, gpu0 alone) has too few
	// devices; more may follow, so every free device is judged before the
	// search moves on to numa 1.
	t.Run("constraint, first value short", func(t *testing.T) {
		a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(8, func(i int) int { return min(i, 1) })...)}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.AllocateOn(ctx, node("n1"), []*resource.ResourceClaim{withConstraint(claim("c", req("r", "gpu", count(2))), "gpu.example.com/numa")})
		if err != nil || res[0].Err != nil {
			t.Fatal(err, res[0].Err)
		}
		if got, want := devicesOf(res[0].Allocation), []string{"r=gpu.example.com/n1/gpu1", "r=gpu.example.com/n1/gpu2"}; !reflect.DeepEqual(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
		if got := a.Stats().Evaluations; got != 8 {
			t.Errorf("%d evaluations, want 8 (the class's selector on every device)", got)
		}
	})

	// Taints leave some of the first matches out. A request without
	// tolerations judges them but does not count them (gpu0-4: five of
	// the sixteen, the devices upstream's search looks at); one with
	// tolerations that do not cover them looks at twice as many until
	// enough are candidates (gpu0-1, gpu2-3, then gpu4-7: eight). Neither
	// looks at every device.
	for _, tc := range []struct {
		name        string
		tolerations []resource.DeviceToleration
		evaluations int64
	}{
		{"tainted first devices", nil, 5},
		{"tainted first devices, other tolerations", []resource.DeviceToleration{{Key: "other", Operator: resource.DeviceTolerationOpExists}}, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			devices := gpus(16, numaZero)
			for i := 0; i < 3; i++ {
				devices[i] = tainted(devices[i], "maint", resource.DeviceTaintEffectNoSchedule)
			}
			a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), devices...)}})
			if err != nil {
				t.Fatal(err)
			}
			c := claim("c", req("r", "gpu", count(2)))
			c.Spec.Devices.Requests[0].Exactly.Tolerations = tc.tolerations
			res, err := a.AllocateOn(ctx, node("n1"), []*resource.ResourceClaim{c})
			if err != nil || res[0].Err != nil {
				t.Fatal(err, res[0].Err)
			}
			if got, want := devicesOf(res[0].Allocation), []string{"r=gpu.example.com/n1/gpu3", "r=gpu.example.com/n1/gpu4"}; !reflect.DeepEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
			if got := a.Stats().Evaluations; got != tc.evaluations {
				t.Errorf("%d evaluations, want %d", got, tc.evaluations)
			}
		})
	}
}
