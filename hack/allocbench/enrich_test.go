package allocbench

import (
	"fmt"
	"math/rand"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// enrichWithFeatures layers the 1.32+ features on a scenario that generate built
// with 1.31's means, drawing further numbers from the same source (so the
// 1.31 part of each seed's scenario stays what it was). One scenario in
// four keeps the 1.31 features; the others switch each feature on at
// random and use what is on:
//
//   - PrioritizedList: exact requests become firstAvailable lists whose
//     first alternative is often harder (two more devices);
//   - PartitionableDevices: a pool gets a counter set in a slice of its
//     own that its devices consume; a pool with per-device node selection;
//   - DeviceTaints (+ DeviceTaintRules): taints of every effect on
//     devices and in rules, tolerations on requests and alternatives;
//   - ConsumableCapacity: a pool of shared NICs (allowMultipleAllocations,
//     bandwidth with or without a request policy), some capacity already
//     consumed by an allocated claim, capacity requests, distinctAttribute;
//   - DeviceBindingAndStatus: binding conditions, bindsToNode;
//   - AdminAccess stays on but for one scenario in ten, where adminAccess
//     requests must fail.
//
// enrichLists then adds list-typed attributes (ListTypeAttributes) that
// constraints compare, enrichDerived derived attributes
// (DerivedAttributes), and enrichCompat compatibility groups
// (CompatibilityGroups). The other alpha features (optional node
// operations, fractional ranges) are not generated.
func enrichWithFeatures(rng *rand.Rand, sc *diffScenario) {
	if rng.Intn(4) == 0 {
		return
	}
	f := allocator.Features{AdminAccess: rng.Intn(10) != 0}
	f.PrioritizedList = rng.Intn(4) != 0
	f.PartitionableDevices = rng.Intn(4) != 0
	f.DeviceTaints = rng.Intn(4) != 0
	f.DeviceTaintRules = f.DeviceTaints && rng.Intn(2) == 0
	f.ConsumableCapacity = rng.Intn(4) != 0
	f.DeviceBindingAndStatus = rng.Intn(3) == 0
	if f == (allocator.Features{}) {
		// drakit reads the zero Features as 1.31's allocator, not as a
		// 1.37 scheduler with every gate off, which cannot exist: 1.37
		// locks DRAPrioritizedList (and DRAAdminAccess) on. Without this,
		// about one seed in 4,000 (6461) compared 1.31's admin access
		// with upstream's refusal.
		f.PrioritizedList = true
	}
	sc.inv.Features = f

	next := 100
	if f.PartitionableDevices && rng.Intn(3) != 0 {
		addCounters(rng, sc)
	}
	if f.PartitionableDevices && rng.Intn(3) == 0 {
		devices := randomDevices(rng, gpuDriver, &next, 2+rng.Intn(3))
		for i := range devices {
			d := &devices[i]
			switch rng.Intn(3) {
			case 0:
				n := sc.inv.Nodes[rng.Intn(len(sc.inv.Nodes))].Name
				d.NodeName = &n
			case 1:
				all := true
				d.AllNodes = &all
			default:
				d.NodeSelector = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{
					{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{[]string{"a", "b"}[rng.Intn(2)]}}}}}}
			}
		}
		s := Slice("perdevice", gpuDriver, "perdevice", devices)
		on := true
		s.Spec.PerDeviceNodeSelection = &on
		sc.inv.Slices = append(sc.inv.Slices, s)
	}
	if f.ConsumableCapacity && rng.Intn(2) == 0 {
		addSharedNICs(rng, sc, &next)
	}
	if f.DeviceTaints {
		for _, s := range sc.inv.Slices {
			for i := range s.Spec.Devices {
				if rng.Intn(6) == 0 {
					t := randomTaint(rng)
					s.Spec.Devices[i] = Taint(s.Spec.Devices[i], t.Key, t.Value, t.Effect)
				}
			}
		}
	}
	if f.DeviceTaintRules && len(sc.inv.Slices) > 0 {
		for i, n := 0, rng.Intn(3); i < n; i++ {
			s := sc.inv.Slices[rng.Intn(len(sc.inv.Slices))]
			driver, pool, device := "", "", ""
			if rng.Intn(2) == 0 {
				driver = s.Spec.Driver
			}
			if rng.Intn(2) == 0 {
				pool = s.Spec.Pool.Name
			}
			if len(s.Spec.Devices) > 0 && rng.Intn(2) == 0 {
				device = s.Spec.Devices[rng.Intn(len(s.Spec.Devices))].Name
			}
			sc.inv.TaintRules = append(sc.inv.TaintRules, TaintRule(name("rule%d", i), driver, pool, device, randomTaint(rng)))
		}
	}
	if f.DeviceBindingAndStatus {
		for _, s := range sc.inv.Slices {
			for i := range s.Spec.Devices {
				if rng.Intn(8) == 0 {
					s.Spec.Devices[i] = Binding(s.Spec.Devices[i], rng.Intn(2) == 0)
				}
			}
		}
	}
	for _, c := range sc.claims {
		reqs := c.Spec.Devices.Requests
		for i := range reqs {
			e := reqs[i].Exactly
			if f.DeviceTaints && rng.Intn(3) == 0 {
				Tolerate(randomToleration(rng))(e)
			}
			if f.ConsumableCapacity && rng.Intn(4) == 0 {
				if rng.Intn(3) == 0 {
					CapacityRequest("bandwidth", []string{"5G", "50G"}[rng.Intn(2)])(e)
				} else {
					CapacityRequest("bw", name("%d", 1+rng.Intn(6)))(e)
				}
			}
			if f.PrioritizedList && (e.AdminAccess == nil || !*e.AdminAccess) && rng.Intn(3) == 0 {
				first := Sub("a", e.DeviceClassName)
				first.Selectors, first.AllocationMode, first.Count, first.Tolerations, first.Capacity = e.Selectors, e.AllocationMode, e.Count, e.Tolerations, e.Capacity
				if first.AllocationMode == resource.DeviceAllocationModeExactCount && rng.Intn(2) == 0 {
					first.Count += 2
				}
				subs := []resource.DeviceSubRequest{first, Sub("b", sc.inv.Classes[rng.Intn(len(sc.inv.Classes))].Name)}
				if f.DeviceTaints && rng.Intn(3) == 0 {
					subs[1].Tolerations = []resource.DeviceToleration{randomToleration(rng)}
				}
				if rng.Intn(3) == 0 {
					subs = append(subs, Sub("c", "any", Select(safeSelectors[rng.Intn(len(safeSelectors))])))
				}
				reqs[i] = FirstAvailable(reqs[i].Name, subs...)
			}
		}
		if f.ConsumableCapacity && len(reqs) > 0 && rng.Intn(5) == 0 {
			attr := []string{"gpu.example.com/numa", "net.example.com/numa", "gpu.example.com/index"}[rng.Intn(3)]
			DistinctAttribute(c, attr)
		}
	}
	enrichSelectable(rng, sc)
	enrichLists(rng, sc)
	enrichDerived(rng, sc)
	enrichCompat(rng, sc)
}

// enrichCompat switches CompatibilityGroups on in half the scenarios with
// counter sets (the experimental implementation then runs) and gives most
// devices that consume counters one or two of three compatibility groups
// (devices allocated before the call name none, so that what they leave
// is the same in any order). Drawn after everything else.
func enrichCompat(rng *rand.Rand, sc *diffScenario) {
	if !sc.inv.Features.PartitionableDevices || rng.Intn(2) != 0 {
		return
	}
	allocated := map[allocator.DeviceID]bool{}
	for _, id := range sc.inv.Allocated {
		allocated[id] = true
	}
	any := false
	for _, s := range sc.inv.Slices {
		for i := range s.Spec.Devices {
			d := &s.Spec.Devices[i]
			if len(d.ConsumesCounters) == 0 || allocated[allocator.DeviceID{Driver: s.Spec.Driver, Pool: s.Spec.Pool.Name, Device: d.Name}] {
				continue
			}
			any = true
			d.ConsumesCounters[0].CompatibilityGroups = randomGroups(rng)
		}
	}
	if any {
		sc.inv.Features.CompatibilityGroups = true
	}
}

// randomGroups are none (one time in four) or one or two of "a", "b", "c".
func randomGroups(rng *rand.Rand) []string {
	if rng.Intn(4) == 0 {
		return nil
	}
	perm := rng.Perm(3)[:1+rng.Intn(2)]
	var groups []string
	for _, g := range perm {
		groups = append(groups, []string{"a", "b", "c"}[g])
	}
	return groups
}

// derivedExpressions are derived attributes' expressions for enrichDerived:
// numbers and strings from the devices' attributes, one that fails on a
// device without a model, and (listDerived, with ListTypeAttributes) lists.
var (
	derivedExpressions = []string{
		`device.attributes[device.driver].index % 3`,
		`device.attributes[device.driver].numa + 1`,
		`"model" in device.attributes[device.driver] ? device.attributes[device.driver].model : "none"`,
		`device.attributes[device.driver].model`,
		`device.driver`,
	}
	listDerived = []string{
		`[0, 1].map(i, device.attributes[device.driver].index % 4 + i)`,
		`[device.attributes[device.driver].numa]`,
	}
)

// enrichDerived switches DerivedAttributes on in one scenario in four (the
// experimental implementation then runs) and gives some claims a derived
// attribute, on most of their requests and alternatives, which a
// matchAttribute or distinctAttribute constraint compares; its name is
// sometimes that of the devices' numa attribute, which it then hides.
// Drawn after everything else.
func enrichDerived(rng *rand.Rand, sc *diffScenario) {
	if rng.Intn(4) != 0 {
		return
	}
	sc.inv.Features.DerivedAttributes = true
	exprs := derivedExpressions
	if sc.inv.Features.ListTypeAttributes {
		exprs = append(append([]string{}, exprs...), listDerived...)
	}
	for _, c := range sc.claims {
		if rng.Intn(2) == 0 {
			continue
		}
		attrName := []resource.FullyQualifiedName{"derived/x", "gpu.example.com/numa"}[rng.Intn(2)]
		expr := exprs[rng.Intn(len(exprs))]
		derive := func() []resource.DeviceDerivedAttribute {
			if rng.Intn(4) == 0 {
				return nil
			}
			return []resource.DeviceDerivedAttribute{{Name: attrName, Expression: expr}}
		}
		for i := range c.Spec.Devices.Requests {
			r := &c.Spec.Devices.Requests[i]
			if r.Exactly != nil {
				r.Exactly.DerivedAttributes = derive()
			}
			for j := range r.FirstAvailable {
				r.FirstAvailable[j].DerivedAttributes = derive()
			}
		}
		if rng.Intn(2) == 0 {
			MatchAttribute(c, string(attrName))
		} else {
			DistinctAttribute(c, string(attrName))
		}
	}
}

// enrichLists switches ListTypeAttributes on in one scenario in three
// (the experimental implementation then runs) and gives most devices an
// attribute gpu.example.com/links, a list of small numbers, a single one,
// or a list of strings (never equal to a number), which matchAttribute or
// distinctAttribute constraints of some claims compare (as sets, upstream
// v0.37.2's rule). Drawn after everything else, so that the rest of each
// seed's scenario stays as it was.
func enrichLists(rng *rand.Rand, sc *diffScenario) {
	if rng.Intn(3) != 0 {
		return
	}
	sc.inv.Features.ListTypeAttributes = true
	for _, s := range sc.inv.Slices {
		// Devices of other drivers have it under its full name.
		key := resource.QualifiedName("gpu.example.com/links")
		if s.Spec.Driver == gpuDriver {
			key = "links"
		}
		for i := range s.Spec.Devices {
			d := &s.Spec.Devices[i]
			a, ok := randomLinks(rng)
			if !ok {
				continue // lacks it
			}
			if d.Attributes == nil {
				d.Attributes = map[resource.QualifiedName]resource.DeviceAttribute{}
			}
			d.Attributes[key] = a
		}
	}
	for _, c := range sc.claims {
		switch rng.Intn(3) {
		case 0:
			MatchAttribute(c, "gpu.example.com/links")
		case 1:
			DistinctAttribute(c, "gpu.example.com/links")
		}
	}
}

// enrichSelectable adds what decides whether a device can be selected at
// all under the 1.37 rules, drawn after everything else so that the rest
// of each seed's scenario stays as it was: devices with binding conditions
// while DeviceBindingAndStatus is off (neither allocator may select them,
// not even for All), and, with ConsumableCapacity, a class that selects
// device.allowMultipleAllocations (the 1.37 environment), which some exact
// requests switch to.
func enrichSelectable(rng *rand.Rand, sc *diffScenario) {
	f := sc.inv.Features
	if !f.DeviceBindingAndStatus && rng.Intn(3) == 0 {
		for _, s := range sc.inv.Slices {
			for i := range s.Spec.Devices {
				if rng.Intn(6) == 0 {
					s.Spec.Devices[i] = Binding(s.Spec.Devices[i], rng.Intn(2) == 0)
				}
			}
		}
	}
	if f.ConsumableCapacity && rng.Intn(3) == 0 {
		sc.inv.Classes = append(sc.inv.Classes, Class("shared", []string{`device.allowMultipleAllocations`, `!device.allowMultipleAllocations`}[rng.Intn(2)]))
		for _, c := range sc.claims {
			for _, r := range c.Spec.Devices.Requests {
				if r.Exactly != nil && rng.Intn(3) == 0 {
					r.Exactly.DeviceClassName = "shared"
				}
			}
		}
	}
}

// addCounters gives one pool a counter set in a slice of its own (same
// node selection and generation as the pool's newest slices, which now
// count one more) and lets some of its devices consume from it.
func addCounters(rng *rand.Rand, sc *diffScenario) {
	if len(sc.inv.Slices) == 0 {
		return
	}
	first := sc.inv.Slices[rng.Intn(len(sc.inv.Slices))]
	driver, pool := first.Spec.Driver, first.Spec.Pool.Name
	var newest []*resource.ResourceSlice
	for _, s := range sc.inv.Slices {
		if s.Spec.Driver == driver && s.Spec.Pool.Name == pool {
			switch {
			case len(newest) == 0 || s.Spec.Pool.Generation > newest[0].Spec.Pool.Generation:
				newest = []*resource.ResourceSlice{s}
			case s.Spec.Pool.Generation == newest[0].Spec.Pool.Generation:
				newest = append(newest, s)
			}
		}
	}
	count := newest[0].Spec.Pool.ResourceSliceCount + 1
	for _, s := range newest {
		s.Spec.Pool.ResourceSliceCount = count
		for i := range s.Spec.Devices {
			if rng.Intn(3) != 0 {
				s.Spec.Devices[i] = Consumes(s.Spec.Devices[i], "mem", "memory", name("%d", 1+rng.Intn(3)))
			}
		}
	}
	cs := &resource.ResourceSlice{Spec: newest[0].Spec}
	cs.Name = pool + "-counters"
	cs.Spec.Devices = nil
	cs.Spec.SharedCounters = []resource.CounterSet{Counters("mem", "memory", name("%d", 2+rng.Intn(5)))}
	sc.inv.Slices = append(sc.inv.Slices, cs)
}

// addSharedNICs adds a pool of one or two shared NICs with a bandwidth
// "bw" of 10 under a random request policy, and maybe a claim that
// already holds a share.
func addSharedNICs(rng *rand.Rand, sc *diffScenario, next *int) {
	devices := randomDevices(rng, netDriver, next, 1+rng.Intn(2))
	for i := range devices {
		d := Shared(devices[i])
		if d.Capacity == nil {
			d.Capacity = map[resource.QualifiedName]resource.DeviceCapacity{}
		}
		d.Capacity["bw"] = resource.DeviceCapacity{Value: apiresource.MustParse("10")}
		switch rng.Intn(3) {
		case 0:
			d = Policy(d, "bw", RangePolicy("1", "1", "8", "2"))
		case 1:
			d = Policy(d, "bw", ValuesPolicy("2", "2", "5", "10"))
		}
		devices[i] = d
	}
	s := Slice("shared", netDriver, "shared", devices)
	if rng.Intn(2) == 0 {
		OnNode(s, sc.node.Name)
	} else {
		OnAllNodes(s)
	}
	sc.inv.Slices = append(sc.inv.Slices, s)
	if rng.Intn(3) == 0 {
		uid := types.UID(fmt.Sprintf("%08x-0000-4000-8000-%012x", rng.Uint32(), rng.Int63()&0xffffffffffff))
		held := ResourceClaim("holder")
		held.Status.Allocation = &resource.AllocationResult{Devices: resource.DeviceAllocationResult{Results: []resource.DeviceRequestAllocationResult{{
			Request: "r", Driver: netDriver, Pool: "shared", Device: devices[0].Name, ShareID: &uid,
			ConsumedCapacity: map[resource.QualifiedName]apiresource.Quantity{"bw": apiresource.MustParse(name("%d", 2+rng.Intn(7)))},
		}}}}
		sc.inv.AllocatedClaims = append(sc.inv.AllocatedClaims, held)
	}
}

func randomTaint(rng *rand.Rand) resource.DeviceTaint {
	effects := []resource.DeviceTaintEffect{resource.DeviceTaintEffectNoSchedule, resource.DeviceTaintEffectNoExecute, resource.DeviceTaintEffectNone}
	return resource.DeviceTaint{Key: []string{"maint", "broken"}[rng.Intn(2)], Value: []string{"", "x"}[rng.Intn(2)], Effect: effects[rng.Intn(3)]}
}

func randomToleration(rng *rand.Rand) resource.DeviceToleration {
	switch rng.Intn(4) {
	case 0:
		return Toleration("maint", "", "")
	case 1:
		return Toleration("broken", "x", resource.DeviceTaintEffectNoSchedule)
	case 2:
		return Toleration("broken", "", resource.DeviceTaintEffectNoExecute)
	}
	return Toleration("", "", "") // every taint
}

// randomLinks draws a value of the "links" attribute that list
// constraints compare: none (false) in one case of eight, else a single
// int, a list of one string (which equals no number) or a list of one to
// three ints out of five.
func randomLinks(rng *rand.Rand) (resource.DeviceAttribute, bool) {
	var a resource.DeviceAttribute
	switch rng.Intn(8) {
	case 0:
		return a, false
	case 1:
		n := int64(rng.Intn(4))
		a.IntValue = &n
	case 2:
		a.StringValues = []string{name("%d", rng.Intn(4))}
	default:
		for _, n := range rng.Perm(5)[:1+rng.Intn(3)] {
			a.IntValues = append(a.IntValues, int64(n))
		}
	}
	return a, true
}
