package allocator

import (
	"fmt"
	"sort"

	apiresource "k8s.io/apimachinery/pkg/api/resource"
)

// Counters of partitionable devices (PartitionableDevices): a pool's
// slices declare counter sets (sharedCounters), its devices consume from
// them (consumesCounters). A device can be allocated only while what it
// consumes, together with what the devices allocated before and in the
// call consume, fits into every counter of the pool.

// poolCounters are the counter sets of one pool: every counter numbered,
// with its value, and the consumption of every device by number.
type poolCounters struct {
	index map[string]int // counter set + "/" + counter
	names []string
	value []apiresource.Quantity
	// invalid says why the pool cannot be used (a counter set declared
	// twice, a device consuming a counter the pool does not have).
	invalid string
}

// counterUse is what a device consumes of one counter.
type counterUse struct {
	counter int
	amount  apiresource.Quantity
	milli   int64 // amount in milli units, -1 when not representable
}

func counterKey(set, counter string) string { return set + "/" + counter }

// buildPoolCounters reads the counter sets of the pool's slices (those
// with sharedCounters) and checks that the devices of its other slices
// consume only counters that exist.
func buildPoolCounters(counterSlices, deviceSlices []*sliceEntry) *poolCounters {
	pc := &poolCounters{index: map[string]int{}}
	sets := map[string]bool{}
	for _, e := range counterSlices {
		for _, cs := range e.obj.Spec.SharedCounters {
			if sets[cs.Name] {
				pc.invalid = fmt.Sprintf("counter set %q is declared twice", cs.Name)
				return pc
			}
			sets[cs.Name] = true
			names := make([]string, 0, len(cs.Counters))
			for n := range cs.Counters {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				pc.index[counterKey(cs.Name, n)] = len(pc.names)
				pc.names = append(pc.names, counterKey(cs.Name, n))
				pc.value = append(pc.value, cs.Counters[n].Value.DeepCopy())
			}
		}
	}
	for _, e := range deviceSlices {
		for i := range e.devices {
			for _, cc := range e.devices[i].ConsumesCounters {
				if !sets[cc.CounterSet] {
					pc.invalid = fmt.Sprintf("device %q consumes from counter set %q, which the pool does not declare", e.devices[i].Name, cc.CounterSet)
					return pc
				}
				for n := range cc.Counters {
					if _, ok := pc.index[counterKey(cc.CounterSet, n)]; !ok {
						pc.invalid = fmt.Sprintf("device %q consumes counter %q of counter set %q, which the set does not have", e.devices[i].Name, n, cc.CounterSet)
						return pc
					}
				}
			}
		}
	}
	return pc
}

// counterUses gives, per device of the slice, what it consumes of the
// pool's counters (nil for devices that consume none), remembered for the
// pool's counter sets it was computed for.
func (e *sliceEntry) counterUses(pc *poolCounters) [][]counterUse {
	if e.usesFor == pc {
		return e.uses
	}
	e.uses = make([][]counterUse, len(e.devices))
	for i := range e.devices {
		for _, cc := range e.devices[i].ConsumesCounters {
			names := make([]string, 0, len(cc.Counters))
			for n := range cc.Counters {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				k, ok := pc.index[counterKey(cc.CounterSet, n)]
				if !ok {
					continue
				}
				q := cc.Counters[n].Value.DeepCopy()
				m, exact := milliOf(q)
				if !exact {
					m = -1
				}
				e.uses[i] = append(e.uses[i], counterUse{counter: k, amount: q, milli: m})
			}
		}
	}
	e.usesFor = pc
	return e.uses
}

// poolState is a pool of the view during one call: its counters, what is
// left of them after the devices allocated before the call, and what the
// call consumes.
type poolState struct {
	key      poolKey
	counters *poolCounters
	left     []apiresource.Quantity
	// overdrawn: the devices allocated before the call already consume
	// more than a counter holds, so no device that consumes counters can
	// be added (upstream compares every counter of the pool).
	overdrawn bool
	consumed  []apiresource.Quantity
	// compat: the pool's devices name compatibility groups
	// (CompatibilityGroups); compatRun is, per counter set, the state the
	// devices allocated before and taken in the call leave.
	compat    *poolCompat
	compatRun []groupState
}

// fits reports whether the uses fit into what is left of the pool's
// counters, on top of what the call consumed so far.
func (p *poolState) fits(uses []counterUse) bool {
	if p.overdrawn {
		return false
	}
	for i := range uses {
		u := &uses[i]
		sum := p.consumed[u.counter].DeepCopy()
		sum.Add(u.amount)
		if sum.Cmp(p.left[u.counter]) > 0 {
			return false
		}
	}
	return true
}

func (p *poolState) consume(uses []counterUse, sign int) {
	for i := range uses {
		u := &uses[i]
		if sign > 0 {
			p.consumed[u.counter].Add(u.amount)
		} else {
			p.consumed[u.counter].Sub(u.amount)
		}
	}
}

// room is an upper bound on how many more devices with these minimal uses
// fit: for each counter, what is left divided by the smallest amount a
// device consumes of it. -1 means no bound.
func (p *poolState) room(minMilli []int64) int {
	if p.overdrawn {
		return 0
	}
	bound := -1
	for k, m := range minMilli {
		if m <= 0 {
			continue
		}
		left := p.left[k].DeepCopy()
		left.Sub(p.consumed[k])
		l, exact := milliOf(left)
		if !exact {
			continue
		}
		if l < 0 {
			return 0
		}
		n := int(l / m)
		if bound < 0 || n < bound {
			bound = n
		}
	}
	return bound
}
