package allocator

import (
	"fmt"
	"slices"

	"github.com/drakit/drakit/apis/resource"
)

// Compatibility groups (CompatibilityGroups): a device that consumes from a
// counter set may name groups there (consumesCounters[].compatibilityGroups).
// Devices on one counter set, allocated before or in the call, must share a
// group; a device that names none goes only with others that name none.
// As upstream, the devices allocated before the call are folded in first,
// in the pool's slice and device order, then each device the search takes
// (unless it is a further share of a shared device, which consumes no
// counters again).

// groupState is what the devices on one counter set leave for the next.
type groupState struct {
	members  bool     // some device is on the set
	allEmpty bool     // all of them name no group
	groups   []string // the groups all of them name, sorted (members && !allEmpty)
}

// admits reports whether a device naming the groups may join; they need
// not be sorted or distinct, since only membership in g.groups counts.
func (g groupState) admits(groups []string) bool {
	switch {
	case !g.members:
		return true
	case len(groups) == 0:
		return g.allEmpty
	case g.allEmpty:
		return false
	}
	for _, x := range groups {
		if _, found := slices.BinarySearch(g.groups, x); found {
			return true
		}
	}
	return false
}

// add folds a device's groups in; the receiver's list is never changed,
// so an earlier state stays valid for undoing.
func (g groupState) add(groups []string) groupState {
	if !g.members {
		return groupState{members: true, allEmpty: len(groups) == 0, groups: groups}
	}
	if g.allEmpty || len(groups) == 0 {
		return g
	}
	var common []string
	for _, x := range g.groups {
		if _, found := slices.BinarySearch(groups, x); found {
			common = append(common, x)
		}
	}
	g.groups = common
	return g
}

// sortedGroups are the groups of a consumption, sorted, each once.
func sortedGroups(cc *resource.DeviceCounterConsumption) []string {
	if len(cc.CompatibilityGroups) == 0 {
		return nil
	}
	g := slices.Clone(cc.CompatibilityGroups)
	slices.Sort(g)
	return slices.Compact(g)
}

// poolCompat numbers a pool's counter sets and holds the state that the
// devices allocated before the call leave on each.
type poolCompat struct {
	sets     map[string]int
	baseline []groupState
}

// compatOf folds the groups of the pool's devices allocated before the
// call (devices in use or with shares) into a poolCompat; nil when no
// device of the slices names a group.
func (a *Allocator) compatOf(deviceSlices []*sliceEntry) *poolCompat {
	uses := false
	for _, e := range deviceSlices {
		uses = uses || a.scanned(e).usesCompat
	}
	if !uses {
		return nil
	}
	pc := &poolCompat{sets: map[string]int{}}
	for _, e := range deviceSlices {
		for d := range e.devices {
			for i := range e.devices[d].ConsumesCounters {
				pc.set(e.devices[d].ConsumesCounters[i].CounterSet)
			}
			if !hasBit(e.inUse, d) && a.shares[DeviceID{e.driver, e.pool, e.devices[d].Name}] == nil {
				continue
			}
			for i := range e.devices[d].ConsumesCounters {
				cc := &e.devices[d].ConsumesCounters[i]
				set := pc.set(cc.CounterSet)
				pc.baseline[set] = pc.baseline[set].add(sortedGroups(cc))
			}
		}
	}
	return pc
}

// set is the number of a counter set, given one on first sight.
func (pc *poolCompat) set(name string) int {
	if k, ok := pc.sets[name]; ok {
		return k
	}
	k := len(pc.baseline)
	pc.sets[name] = k
	pc.baseline = append(pc.baseline, groupState{})
	return k
}

// compatSave is a counter set's state before a take, for undoing it.
type compatSave struct {
	pool, set int
	prev      groupState
}

// compatAdmits reports whether the device may join the devices on each
// counter set it consumes from (pools without groups admit all).
func (s *solver) compatAdmits(dev viewDevice) bool {
	pi := int(s.view.poolOf[dev.slice])
	p := s.view.pools[pi]
	if p.compat == nil {
		return true
	}
	if s.skipCompat != nil && s.skipCompat.pool < 0 {
		return true
	}
	d := &s.view.slices[dev.slice].devices[dev.device]
	for i := range d.ConsumesCounters {
		cc := &d.ConsumesCounters[i]
		k, ok := p.compat.sets[cc.CounterSet]
		if !ok {
			continue // not one of the pool's (the pool is invalid then)
		}
		if s.skipCompat != nil && s.skipCompat.pool == pi && s.skipCompat.set == k {
			continue
		}
		if !p.compatRun[k].admits(cc.CompatibilityGroups) {
			return false
		}
	}
	return true
}

// compatTake folds a taken device's groups in, logging what it changes.
func (s *solver) compatTake(dev viewDevice) {
	pi := int(s.view.poolOf[dev.slice])
	p := s.view.pools[pi]
	d := &s.view.slices[dev.slice].devices[dev.device]
	for i := range d.ConsumesCounters {
		cc := &d.ConsumesCounters[i]
		k, ok := p.compat.sets[cc.CounterSet]
		if !ok {
			continue
		}
		s.compatLog = append(s.compatLog, compatSave{pi, k, p.compatRun[k]})
		p.compatRun[k] = p.compatRun[k].add(sortedGroups(cc))
	}
}

// compatUndo restores the states logged from mark on.
func (s *solver) compatUndo(mark int) {
	for i := len(s.compatLog) - 1; i >= mark; i-- {
		e := s.compatLog[i]
		s.view.pools[e.pool].compatRun[e.set] = e.prev
	}
	s.compatLog = s.compatLog[:mark]
}

// compatSkip names a counter set of a pool of the view.
type compatSkip struct{ pool, set int }

// compatBlame, called only once the requests failed, names the counter
// sets whose compatibility groups keep the requests from being met: those
// that, ignored on their own, let the search succeed. It says nothing
// when groups are not the reason (the search fails without them too), and
// speaks of the groups together when no single set is to blame. The extra
// searches are paid only here, on the way to an error.
func (a *Allocator) compatBlame(search *solver, requests []*requestPlan) string {
	if !search.view.hasCompat || search.err != nil {
		return ""
	}
	solvesWithout := func(skip compatSkip) bool {
		search.skipCompat = &skip
		ok := search.solve(requests)
		if ok {
			search.untake(requests)
		}
		search.skipCompat = nil
		return ok && search.err == nil
	}
	if !solvesWithout(compatSkip{pool: -1}) {
		return ""
	}
	var sets []string
	for pi, p := range search.view.pools {
		if p.compat == nil {
			continue
		}
		for name, k := range p.compat.sets {
			if solvesWithout(compatSkip{pool: pi, set: k}) {
				sets = append(sets, fmt.Sprintf("%q of pool %s/%s", name, p.key.driver, p.key.pool))
			}
		}
	}
	if len(sets) == 0 {
		return "; the compatibility groups of several counter sets together keep the devices needed out (the devices on a counter set must all name a group in common)"
	}
	slices.Sort(sets)
	return "; the compatibility groups of " + named("counter set", "counter sets", sets) + " keep the devices needed out (the devices on a counter set must all name a group in common)"
}
