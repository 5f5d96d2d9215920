package allocator

import (
	"context"
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
)

// candidates turns selector masks into the request's candidates: devices
// the node reaches (per-device node selection), usable with the features
// (binding conditions, counters, node operations), not blocked by a taint
// the request does not tolerate, with the capacity the request asks for,
// free (unless adminAccess or shared) and with the attributes the
// constraints compare. An All request gets every selected device whose
// capacity could serve it; one of them being in use, tainted or unusable
// fails the request. judge is the check of one device, with one named
// filter per feature; a new gate that rules devices out adds its filter
// there (docs/architecture.md).
func (a *Allocator) candidates(call *callState, selectorsKey string, masks [][]uint64, r *requestPlan) (*candidateList, *candidateFailure) {
	// The scan holds what it needs of the call, not the call: escape
	// analysis would otherwise move every callState to the heap.
	sc := candidateScan{a: a, f: a.features, ctx: call.ctx, node: call.node, view: call.view, r: r}
	key := sc.readConstraints(selectorsKey)
	// Tolerations and capacity requests are the request's own: its list
	// serves no other request, and is not kept.
	own := len(r.spec.tolerations) > 0 || r.spec.capacity != nil
	if !own {
		if list, _ := call.candidateLists.get(key); list != nil {
			return list, list.failure
		}
	}
	sc.list = a.newCandidateList(len(sc.attrs))
	if !own {
		call.candidateLists.put(key, sc.list)
	}
	if a.features.ConsumableCapacity {
		sc.capKey = a.capacityKey(r.spec.capacity)
	}
	v := call.view
	for si, e := range v.slices {
		sc.enterSlice(si, e)
		nodeMask := v.nodeMasks[si]
		for w, bits := range masks[si] {
			if nodeMask != nil {
				bits &= nodeMask[w]
			}
			for bits != 0 {
				b := trailingZeros(bits)
				bits &^= 1 << uint(b)
				if failure := sc.judge(w*64 + b); failure != nil {
					return sc.list, failure
				}
			}
		}
	}
	if r.all && len(sc.list.candidates) == 0 {
		// Since Kubernetes 1.32 an All request needs at least one device.
		return sc.list, sc.fail(ReasonNoMatch, nil, "asks for all matching devices, but %s (Kubernetes 1.32+ requires at least one)", noneReachable(v.total, r.class.Name))
	}
	return sc.list, nil
}

// newCandidateList is an empty list for a call, with the memory of one of
// an earlier call (the search's lists keep theirs too, see planRequest).
func (a *Allocator) newCandidateList(attrs int) *candidateList {
	list := a.lists.next()
	mem := list.mem
	if list.multi != nil {
		mem.multi, mem.needs = list.multi[:0], list.needs[:0]
	}
	values := list.constraintValues[:0]
	*list = candidateList{candidates: list.candidates[:0], mem: mem}
	if cap(values) < attrs {
		values = make([][]int32, attrs)
	}
	values = values[:attrs]
	for k := range values {
		values[k] = values[k][:0]
	}
	list.constraintValues = values
	return list
}

// candidateScan is one candidates call: the request, what its
// constraints compare, and the slice being looked at.
type candidateScan struct {
	a    *Allocator
	f    Features
	ctx  context.Context
	node *corev1.Node
	view *view
	r    *requestPlan
	list *candidateList
	// attrs and kinds are what the constraints that cover the request
	// compare; derived[k] is the index of the derived attribute that
	// constraint k compares, -1 when none (nil when the request derives
	// none of them).
	attrs   []resource.FullyQualifiedName
	kinds   []attrKind
	derived []int
	capKey  string

	// The slice being looked at (enterSlice): its position in the view,
	// its pool, what its devices consume of the pool's counters, the
	// constrained values of its devices, the capacity needs of the
	// request on them (looked up when first needed), and why none of its
	// devices can be used ("" when they can).
	e             *sliceEntry
	si            int
	pool          *poolState
	uses          [][]counterUse
	valuesOf      [][]int32
	needs         *capacityNeeds
	sliceUnusable string
}

// readConstraints fills in what the constraints covering the request
// compare, returning the key of the candidate list within the call.
func (sc *candidateScan) readConstraints(selectorsKey string) string {
	r := sc.r
	// The lists live for the call of candidates: they are the Allocator's
	// memory (escape analysis cannot keep them on the stack once the scan
	// holds them).
	n := len(r.coveredBy)
	sc.attrs = zeroed(sc.a.scanAttrs, n, n)
	sc.kinds = zeroed(sc.a.scanKinds, n, n)
	sc.a.scanAttrs, sc.a.scanKinds = sc.attrs, sc.kinds
	key := selectorsKey
	if r.admin {
		key += "admin"
	}
	if r.all {
		key += "all"
	}
	for k, ci := range r.coveredBy {
		con := r.plan.constraints[ci]
		sc.attrs[k] = con.attribute
		switch {
		case sc.f.ListTypeAttributes:
			sc.kinds[k] = attrSet
		case con.distinct:
			sc.kinds[k] = attrDistinct
		default:
			sc.kinds[k] = attrMatch
		}
		key += "|" + strconv.Itoa(int(sc.kinds[k])) + string(sc.attrs[k])
		if j := derivedIndex(r.spec, con.attribute); j >= 0 {
			// The request derives the attribute: its expression gives the
			// value instead of the device's attribute.
			if sc.derived == nil {
				sc.derived = make([]int, len(r.coveredBy))
				for i := range sc.derived {
					sc.derived[i] = -1
				}
			}
			sc.derived[k] = j
			key += "|derived " + r.spec.derivedAttr[j].Expression
		}
	}
	return key
}

// enterSlice moves the scan to slice si of the view.
func (sc *candidateScan) enterSlice(si int, e *sliceEntry) {
	v := sc.view
	sc.e, sc.si, sc.needs = e, si, nil
	sc.sliceUnusable = ""
	if sc.f.experimental() && len(e.obj.Spec.SkipNodeOperations) > 0 {
		switch {
		case !sc.f.OptionalNodeOperations:
			sc.sliceUnusable = "is in a slice with skipNodeOperations, but the OptionalNodeOperations feature is off"
		case !declaresOptionalNodeOperations(sc.node):
			sc.sliceUnusable = "is in a slice with skipNodeOperations, but the node does not declare DRAOptionalNodeOperations"
		}
	}
	sc.pool = v.pools[v.poolOf[si]]
	sc.uses = nil
	if sc.pool.counters != nil {
		sc.uses = e.counterUses(sc.pool.counters)
	}
	if sc.valuesOf == nil {
		sc.valuesOf = zeroed(sc.a.scanValues, len(sc.attrs), len(sc.attrs))
		sc.a.scanValues = sc.valuesOf
	}
	for k, name := range sc.attrs {
		if sc.derived != nil && sc.derived[k] >= 0 {
			sc.valuesOf[k] = sc.a.derivedValuesOf(e, sc.r.spec.derivedAttr[sc.derived[k]].Expression, sc.kinds[k])
			continue
		}
		sc.valuesOf[k] = sc.a.attrValues(e, name, sc.kinds[k])
	}
}

func (sc *candidateScan) fail(reason Reason, err error, format string, args ...any) *candidateFailure {
	sc.list.failure = &candidateFailure{reason: reason, detail: fmt.Sprintf(format, args...), err: err}
	return sc.list.failure
}

func (sc *candidateScan) id(d int) DeviceID {
	return DeviceID{sc.e.driver, sc.e.pool, sc.e.devices[d].Name}
}

// judge decides whether device d of the slice, which passed the
// selectors, is a candidate, counting why not; the failure is why the
// request can never be allocated. Each feature's rule is one filter:
// hidden (binding conditions, bindsToNode), capacity, busy, taints,
// unusable (node operations, counters), then the constraints' values.
func (sc *candidateScan) judge(d int) *candidateFailure {
	r, list := sc.r, sc.list
	dev := &sc.e.devices[d]
	if sc.hidden(dev) {
		return nil
	}
	need, fits, failure := sc.capacity(d)
	if failure != nil {
		return failure
	}
	if !fits {
		list.noCapacity++
		return nil
	}
	list.matched++
	busy := !r.admin && hasBit(sc.e.inUse, d)
	taint := sc.a.blockingTaint(sc.e, d, r.spec.tolerations)
	unusable := sc.unusable(dev, d)
	if r.all {
		switch {
		case busy:
			return sc.fail(ReasonDeviceInUse, nil, "asks for all matching devices, but device %s is already allocated (only adminAccess requests may share devices)", sc.id(d))
		case taint != nil:
			return sc.fail(ReasonDeviceTainted, nil, "asks for all matching devices, but device %s has the taint %s=%s:%s, which the request does not tolerate", sc.id(d), taint.Key, taint.Value, taint.Effect)
		case unusable != "":
			return sc.fail(ReasonNotEnough, nil, "asks for all matching devices, but device %s %s", sc.id(d), unusable)
		}
	}
	switch {
	case busy:
		list.inUse++
		return nil
	case taint != nil:
		if list.tainted == 0 {
			list.firstTainted, list.firstTaint = sc.id(d), taint
		}
		list.tainted++
		return nil
	case unusable != "":
		if list.unusable == 0 {
			list.firstUnusable = fmt.Sprintf("%s %s", sc.id(d), unusable)
		}
		list.unusable++
		return nil
	}
	if sc.derived != nil {
		if failure := sc.derive(d); failure != nil {
			return failure
		}
	}
	if lacks := firstLacking(sc.valuesOf, d); lacks >= 0 {
		if r.all {
			con := r.plan.constraints[r.coveredBy[lacks]]
			failure := sc.fail(ReasonConstraintUnsatisfiable, nil, "asks for all matching devices, but device %s lacks attribute %q that spec.devices.constraints[%d] compares (or has a value of a type it cannot compare)", sc.id(d), con.attribute, con.index)
			// Upstream's search meets the device when it reaches the
			// request, and ends the call.
			failure.abortDevice = sc.id(d).String()
			return failure
		}
		list.lacking++
		return nil
	}
	sc.add(d, need)
	return nil
}

// hidden: the device cannot be selected at all, and is left out even of
// an All request: binding conditions without DeviceBindingAndStatus, and
// bindsToNode when there is no node to bind to.
func (sc *candidateScan) hidden(dev *resource.Device) bool {
	// The slice's flag first: a device's own fields are read only in a
	// slice that has such devices (a scheduler's call reads few devices).
	if !sc.f.DeviceBindingAndStatus && sc.e.hasBinding && len(dev.BindingConditions) > 0 {
		return true
	}
	return sc.node == nil && dev.BindsToNode != nil && *dev.BindsToNode
}

// capacity (ConsumableCapacity) checks the request's capacity requests
// against device d: fits is false when the device's policies do not allow
// them or (but for an All request) what its shares allocated before the
// call consume leaves too little; need is what a share of a
// multi-allocation device consumes.
func (sc *candidateScan) capacity(d int) (need map[resource.QualifiedName]apiresource.Quantity, fits bool, failure *candidateFailure) {
	if !sc.f.ConsumableCapacity {
		return nil, true, nil
	}
	if sc.needs == nil {
		sc.needs = sc.a.capacityNeedsIn(sc.e, sc.capKey)
	}
	n, amounts, ok, err := sc.needs.needOf(sc.a, sc.e, d, sc.r.spec.capacity)
	switch {
	case err != nil:
		return nil, false, sc.fail(ReasonInvalidClaim, err, "%s.capacity: device %s", sc.r.spec.fieldPath(), sc.id(d))
	case !ok:
		return nil, false, nil
	case !sc.r.all && !fitsConsumed(amounts, sc.a.sharedConsumption(sc.e, d)):
		return nil, false, nil
	case hasBit(sc.e.multi, d):
		return n, true, nil
	}
	return nil, true, nil
}

// unusable says why a device that passed the selectors cannot be used,
// "" when it can: skipNodeOperations (OptionalNodeOperations, with the
// experimental implementation; the same for every device of the slice, see
// enterSlice), counters (PartitionableDevices, and a pool already
// overdrawn). A new gate that makes devices unusable adds its case here
// (newgate_example_test.go adds one for a made-up gate).
func (sc *candidateScan) unusable(dev *resource.Device, d int) string {
	switch {
	case sc.sliceUnusable != "":
		return sc.sliceUnusable
	case !sc.f.PartitionableDevices && hasBit(sc.e.consumers, d):
		return "consumes counters, but the PartitionableDevices feature is off"
	case sc.uses != nil && len(sc.uses[d]) > 0 && sc.pool.overdrawn:
		return "its pool's counters are already overdrawn"
	}
	return ""
}

// derive (DerivedAttributes) evaluates the derived attributes the
// constraints compare on device d, where not evaluated yet.
func (sc *candidateScan) derive(d int) *candidateFailure {
	for k, j := range sc.derived {
		if j < 0 || sc.valuesOf[k][d] != notDerived {
			continue
		}
		value, failure := sc.a.derive(sc.ctx, sc.r.spec, j, sc.e, d, sc.kinds[k])
		if failure != nil {
			sc.list.failure = failure
			return failure
		}
		sc.valuesOf[k][d] = value
	}
	return nil
}

// add makes device d a candidate, with its constrained values and, for
// the search, whether it is shared (need is what a share consumes) and
// what it consumes of its pool's counters. Devices that are neither
// shared nor consume counters need no entries: the lists stay nil until
// one does.
func (sc *candidateScan) add(d int, need map[resource.QualifiedName]apiresource.Quantity) {
	list := sc.list
	list.candidates = append(list.candidates, viewDevice{int32(sc.si), int32(d)})
	for k := range sc.attrs {
		value := sc.valuesOf[k][d]
		list.constraintValues[k] = append(list.constraintValues[k], value)
		if sc.kinds[k] == attrSet && sc.a.attributeElems[value] != nil {
			if list.lists == nil {
				list.lists = make([]bool, len(sc.attrs))
			}
			list.lists[k] = true
		}
	}
	n := len(list.candidates) - 1
	multi := sc.f.ConsumableCapacity && hasBit(sc.e.multi, d)
	if multi && list.multi == nil {
		list.multi = zeroed(list.mem.multi, n, cap(list.candidates))
		list.needs = zeroed(list.mem.needs, n, cap(list.candidates))
	}
	if list.multi != nil {
		list.multi = append(list.multi, multi)
		list.needs = append(list.needs, need)
	}
	var u []counterUse
	if sc.uses != nil {
		u = sc.uses[d]
	}
	if len(u) > 0 && list.uses == nil {
		list.uses = make([][]counterUse, n, cap(list.candidates))
	}
	if list.uses != nil {
		list.uses = append(list.uses, u)
	}
	list.hasCounters = list.hasCounters || len(u) > 0
	list.hasMulti = list.hasMulti || multi
}
