package allocator

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
)

// poolCounterEntry remembers the counter sets of a pool for one list of
// counter slices and device slices.
type poolCounterEntry struct {
	slices   []*sliceEntry
	counters *poolCounters
}

// viewFor is the inventory as the node sees it with the semantics of
// upstream v0.37.2 (GatherPools): slices with perDeviceNodeSelection count
// when one of their devices reaches the node (PartitionableDevices, else
// they and slices with counter sets are left out); of each pool the newest
// generation the node sees; a pool whose slices the node does not all see
// is complete when the cluster has all of them, obsolete (left out) when
// the cluster has a newer generation, incomplete (never used) otherwise;
// slices with counter sets offer no devices; pools with binding conditions
// come after all others.
func (a *Allocator) viewFor(node *corev1.Node) *view {
	// Without slices that select nodes by labels or device by device, a
	// node's view depends on its name and the inventory only; without
	// counters, nothing in it on what is in use. Such views are kept,
	// until SetSlices, once a node is asked about again: a scheduler's
	// fresh Allocator asks about most nodes once.
	keep := node != nil && len(a.bySelector) == 0 && len(a.perDevice) == 0
	var seen bool
	if keep {
		var v *view
		if v, seen = a.nodeViews[node.Name]; v != nil {
			return v
		}
	}
	v := a.buildView(node)
	if !keep {
		return v
	}
	for _, p := range v.pools {
		if p.counters != nil {
			return v
		}
	}
	if a.nodeViews == nil || len(a.nodeViews) >= maxNodeViews {
		a.nodeViews = make(map[string]*view)
	}
	if seen {
		a.nodeViews[node.Name] = v.clone()
	} else {
		a.nodeViews[node.Name] = nil // asked about once
	}
	return v
}

// maxNodeViews bounds Allocator.nodeViews (views and nodes asked about
// once): past it, the views are dropped and built again when needed. It
// holds the 5,000 nodes a Kubernetes cluster is meant to reach; a view of
// one slice is about 400 bytes.
const maxNodeViews = 8192

// clone copies a view built in the Allocator's scratch memory, pools
// included, so that it outlives the call.
func (v *view) clone() *view {
	if len(v.slices) == 1 && len(v.pools) == 1 && len(v.incomplete) == 0 && len(v.invalid) == 0 {
		return v.cloneOfOne()
	}
	c := &view{
		slices:     slices.Clone(v.slices),
		offsets:    slices.Clone(v.offsets),
		total:      v.total,
		incomplete: slices.Clone(v.incomplete),
		invalid:    slices.Clone(v.invalid),
		nodeMasks:  slices.Clone(v.nodeMasks),
		poolOf:     slices.Clone(v.poolOf),
		pools:      make([]*poolState, len(v.pools)),
	}
	states := make([]poolState, len(v.pools))
	for i, p := range v.pools {
		states[i] = poolState{key: p.key}
		c.pools[i] = &states[i]
	}
	return c
}

// viewOfOne is a view of one slice in one allocation: most nodes of a
// cluster see one slice (their own), and a scheduler keeps the view of
// every node it asks about. What a call reads of it (the lists' one
// element, the view's first fields, the pool's state but for its
// counters' details) is in its first three cache lines.
type viewOfOne struct {
	slice    [1]*sliceEntry
	offset   [1]int32
	poolOf   [1]int32
	nodeMask [1][]uint64
	pool     [1]*poolState
	view
	state poolState
}

// cloneOfOne is clone for a view of one slice and no pools left out.
func (v *view) cloneOfOne() *view {
	c := &viewOfOne{
		slice:    [1]*sliceEntry{v.slices[0]},
		offset:   [1]int32{v.offsets[0]},
		poolOf:   [1]int32{v.poolOf[0]},
		nodeMask: [1][]uint64{v.nodeMasks[0]},
		state:    poolState{key: v.pools[0].key},
	}
	c.pool[0] = &c.state
	c.view = view{
		slices:    c.slice[:],
		offsets:   c.offset[:],
		total:     v.total,
		nodeMasks: c.nodeMask[:],
		poolOf:    c.poolOf[:],
		pools:     c.pool[:],
	}
	return &c.view
}

// buildView builds viewFor's view in the Allocator's call memory, in the
// stages of upstream's GatherPools: gather the slices the node sees, then
// per pool its generation and completeness (poolGeneration), its counters
// and compatibility groups (poolState), and flatten the pools into the
// view, pools with binding conditions last.
func (a *Allocator) buildView(node *corev1.Node) *view {
	visible, masks := a.gatherSlices(node)
	v := &a.viewMem
	v.slices, v.incomplete, v.invalid, v.total = v.slices[:0], v.incomplete[:0], v.invalid[:0], 0
	v.nodeMasks, v.poolOf, v.pools, v.hasCompat = v.nodeMasks[:0], v.poolOf[:0], v.pools[:0], false
	var plain, binding []poolSlices
	for i := 0; i < len(visible); {
		first := visible[i]
		j, n := i, 0
		for ; j < len(visible) && visible[j].driver == first.driver && visible[j].pool == first.pool; j++ {
			if visible[j].generation == first.generation {
				n++
			}
		}
		seen := visible[i : i+n]
		i = j
		notSeen, ok := a.poolGeneration(v, seen)
		if !ok {
			continue
		}
		ps, ok := a.poolState(v, seen, notSeen)
		if !ok {
			continue
		}
		if ps.hasBinding() {
			binding = append(binding, ps)
		} else {
			plain = append(plain, ps)
		}
	}
	v.flatten(append(plain, binding...), masks)
	a.visible = visible[:0]
	return v
}

// usable: the slice takes part with the features: slices with counter
// sets or perDeviceNodeSelection only with PartitionableDevices, slices
// that use compatibility groups only with CompatibilityGroups.
func (a *Allocator) usable(e *sliceEntry) bool {
	f := a.features
	if !f.PartitionableDevices && (e.perDeviceSet || e.sharedCounters) {
		return false
	}
	return !a.scanned(e).usesCompat || f.CompatibilityGroups
}

// gatherSlices lists the usable slices the node sees, sorted by driver,
// pool, generation (newest first) and name: the node's own, those whose
// node selector admits it, those of all nodes and those with a device
// that reaches it (masks holds which devices do).
func (a *Allocator) gatherSlices(node *corev1.Node) (visible []*sliceEntry, masks map[*sliceEntry][]uint64) {
	visible = a.visible[:0]
	if node != nil {
		visible = a.appendNodeSlices(visible, node.Name)
		kept := visible[:0]
		for _, e := range visible {
			if a.usable(e) {
				kept = append(kept, e)
			}
		}
		visible = kept
		for _, e := range a.bySelector {
			if a.usable(e) && e.selector.matches(node) {
				visible = append(visible, e)
			}
		}
	}
	for _, e := range a.allNodes {
		if a.usable(e) {
			visible = append(visible, e)
		}
	}
	for _, e := range a.perDevice {
		if !a.usable(e) {
			continue
		}
		m := e.nodeMask(node)
		if popcount(m) > 0 {
			if masks == nil {
				masks = map[*sliceEntry][]uint64{}
			}
			masks[e] = m
			visible = append(visible, e)
		}
	}
	// slices.SortFunc, unlike sort.Slice, allocates nothing, and a
	// scheduler builds a view for every node it asks about.
	slices.SortFunc(visible, func(x, y *sliceEntry) int {
		if c := cmp.Compare(x.driver, y.driver); c != 0 {
			return c
		}
		if c := cmp.Compare(x.pool, y.pool); c != 0 {
			return c
		}
		if c := cmp.Compare(y.generation, x.generation); c != 0 {
			return c
		}
		return cmp.Compare(x.key, y.key)
	})
	return visible, masks
}

// poolGeneration decides whether a pool takes part, given the slices of
// its newest generation the node sees: a pool whose slices the node does
// not all see is complete when the cluster has all of them (notSeen are
// the others), obsolete (left out) when the cluster has a newer
// generation, and incomplete (recorded in the view, never used)
// otherwise.
func (a *Allocator) poolGeneration(v *view, seen []*sliceEntry) (notSeen []*sliceEntry, ok bool) {
	first := seen[0]
	if int64(len(seen)) == first.sliceCount {
		return nil, true
	}
	key := poolKey{first.driver, first.pool}
	var all []*sliceEntry
	for _, e := range a.poolSlices(key) {
		switch {
		case e.generation > first.generation:
			return nil, false // obsolete
		case e.generation == first.generation && (!a.scanned(e).usesCompat || a.features.CompatibilityGroups):
			all = append(all, e)
		}
	}
	if int64(len(all)) != first.sliceCount {
		v.incomplete = append(v.incomplete, key)
		return nil, false
	}
	for _, e := range all {
		if !containsEntry(seen, e) {
			notSeen = append(notSeen, a.scanned(e))
		}
	}
	return notSeen, true
}

// poolSlices is a pool of the view: its state and the slices whose
// devices it offers.
type poolSlices struct {
	state   *poolState
	devices []*sliceEntry
}

func (ps poolSlices) hasBinding() bool {
	for _, e := range ps.devices {
		if e.hasBinding {
			return true
		}
	}
	return false
}

// poolState checks a complete pool and makes its state: slices with
// counter sets (PartitionableDevices) offer no devices; a quantity beyond
// the bound, a device name used twice or counters that do not add up make
// the pool invalid (recorded in the view); the pool's counters and
// compatibility groups are what the devices allocated before the call
// leave. Only the seen slices offer devices; those the node does not see
// count for counters.
func (a *Allocator) poolState(v *view, seen, notSeen []*sliceEntry) (poolSlices, bool) {
	f := a.features
	key := poolKey{seen[0].driver, seen[0].pool}
	var deviceSlices, counterSlices, otherDeviceSlices []*sliceEntry
	// Usually the node sees the whole pool and no counter sets: the
	// device slices are then the ones seen, with no list to make.
	split := len(notSeen) > 0
	for _, e := range seen {
		split = split || f.PartitionableDevices && e.sharedCounters
	}
	if !split {
		deviceSlices = seen[:len(seen):len(seen)]
	}
	for _, e := range seen {
		if !split {
			break
		}
		if f.PartitionableDevices && e.sharedCounters {
			counterSlices = append(counterSlices, e)
		} else {
			deviceSlices = append(deviceSlices, e)
		}
	}
	for _, e := range notSeen {
		if f.PartitionableDevices && e.sharedCounters {
			counterSlices = append(counterSlices, e)
		} else {
			otherDeviceSlices = append(otherDeviceSlices, e)
		}
	}
	invalid := func(reason, device string) (poolSlices, bool) {
		v.invalid = append(v.invalid, invalidPool{key: key, reason: reason, device: device})
		return poolSlices{}, false
	}
	if bad := outOfBound(deviceSlices, counterSlices, otherDeviceSlices); bad != "" {
		return invalid(bad, "")
	}
	if dup := a.duplicateIn(key, deviceSlices); dup != "" {
		return invalid("", dup)
	}
	state := a.pools.new()
	state.key = key
	if !f.PartitionableDevices {
		return poolSlices{state, deviceSlices}, true
	}
	allDevices := append(append([]*sliceEntry(nil), deviceSlices...), otherDeviceSlices...)
	// Devices that consume counters of a pool without counter sets make
	// the pool invalid too.
	pc := a.countersOf(key, counterSlices, allDevices)
	if pc.invalid != "" {
		return invalid(pc.invalid, "")
	}
	if len(counterSlices) > 0 {
		state.counters = pc
		a.countersLeft(state, allDevices)
		if f.CompatibilityGroups {
			state.compat = a.compatOf(allDevices)
			v.hasCompat = v.hasCompat || state.compat != nil
		}
	}
	return poolSlices{state, deviceSlices}, true
}

// flatten puts the pools' slices into the view, in order, numbering their
// devices (offsets).
func (v *view) flatten(pools []poolSlices, masks map[*sliceEntry][]uint64) {
	v.offsets = v.offsets[:0]
	for _, ps := range pools {
		pi := int32(len(v.pools))
		v.pools = append(v.pools, ps.state)
		for _, e := range ps.devices {
			v.slices = append(v.slices, e)
			v.nodeMasks = append(v.nodeMasks, masks[e])
			v.poolOf = append(v.poolOf, pi)
			v.offsets = append(v.offsets, int32(v.total))
			v.total += len(e.devices)
		}
	}
}

func containsEntry(list []*sliceEntry, e *sliceEntry) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
}

// countersOf returns the pool's counter sets, remembered for the same slices.
func (a *Allocator) countersOf(key poolKey, counterSlices, deviceSlices []*sliceEntry) *poolCounters {
	all := append(append([]*sliceEntry(nil), counterSlices...), deviceSlices...)
	if c, ok := a.poolCounterCache[key]; ok && sameEntries(c.slices, all) {
		return c.counters
	}
	pc := buildPoolCounters(counterSlices, deviceSlices)
	if a.poolCounterCache == nil {
		a.poolCounterCache = map[poolKey]poolCounterEntry{}
	}
	a.poolCounterCache[key] = poolCounterEntry{slices: all, counters: pc}
	return pc
}

// countersLeft computes what the devices allocated before the call leave
// of the pool's counters: devices held whole and devices with shares
// consume what they consume once.
func (a *Allocator) countersLeft(p *poolState, deviceSlices []*sliceEntry) {
	pc := p.counters
	p.left = make([]apiresource.Quantity, len(pc.value))
	p.consumed = make([]apiresource.Quantity, len(pc.value))
	for k := range pc.value {
		p.left[k] = pc.value[k].DeepCopy()
	}
	for _, e := range deviceSlices {
		var uses [][]counterUse
		for w, bits := range e.consumers {
			for bits != 0 {
				b := trailingZeros(bits)
				bits &^= 1 << uint(b)
				d := w*64 + b
				if !hasBit(e.inUse, d) && a.shares[DeviceID{e.driver, e.pool, e.devices[d].Name}] == nil {
					continue
				}
				if uses == nil {
					uses = e.counterUses(pc)
				}
				for _, u := range uses[d] {
					p.left[u.counter].Sub(u.amount)
				}
			}
		}
	}
	for k := range p.left {
		if p.left[k].Sign() < 0 {
			p.overdrawn = true
		}
	}
}

// leftOut names the pools the node sees that are not used (incomplete or
// invalid), for messages.
func (v *view) leftOut() string {
	var parts []string
	for i, k := range v.incomplete {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more", len(v.incomplete)-3))
			break
		}
		parts = append(parts, fmt.Sprintf("pool %s/%s is incomplete (not all of its slices are published)", k.driver, k.pool))
	}
	for i, p := range v.invalid {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more", len(v.invalid)-3))
			break
		}
		parts = append(parts, fmt.Sprintf("pool %s/%s is invalid: %s", p.key.driver, p.key.pool, p.why()))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; not used: " + strings.Join(parts, ", ")
}
