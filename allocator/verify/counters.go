package verify

import (
	"fmt"
	"iter"
	"sort"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
)

// overConsumedIn checks every counter of every counter set of the pool
// against what the devices in counting consume from it (each device
// once, wherever in the pool's newest generation it is).
func (c *Checker) overConsumedIn(k poolID) []error {
	var errs []error
	{
		sets := map[string]map[string]apiresource.Quantity{}
		used := map[string]map[string]*apiresource.Quantity{}
		for _, s := range c.pools[k] {
			for _, cs := range s.Spec.SharedCounters {
				sets[cs.Name] = map[string]apiresource.Quantity{}
				for n, v := range cs.Counters {
					sets[cs.Name][n] = v.Value
				}
			}
		}
		for _, cc := range c.countingConsumptions(k) {
			if used[cc.CounterSet] == nil {
				used[cc.CounterSet] = map[string]*apiresource.Quantity{}
			}
			for n, v := range cc.Counters {
				if used[cc.CounterSet][n] == nil {
					q := v.Value.DeepCopy()
					used[cc.CounterSet][n] = &q
				} else {
					used[cc.CounterSet][n].Add(v.Value)
				}
			}
		}
		var names []string
		for set := range used {
			names = append(names, set)
		}
		sort.Strings(names)
		for _, set := range names {
			for n, u := range used[set] {
				have, ok := sets[set][n]
				switch {
				case !ok:
					errs = append(errs, fmt.Errorf("pool %s/%s: devices in use consume counter %s of counter set %s, which the pool does not have", k.driver, k.pool, n, set))
				case u.Cmp(have) > 0:
					errs = append(errs, fmt.Errorf("pool %s/%s: counter set %s, counter %s: %s consumed, %s available", k.driver, k.pool, set, n, u.String(), have.String()))
				}
			}
		}
	}
	return errs
}

// countingConsumptions yields, for each device of the pool that is in
// counting, each counter set it consumes from.
func (c *Checker) countingConsumptions(k poolID) iter.Seq2[*resource.Device, *resource.DeviceCounterConsumption] {
	return func(yield func(*resource.Device, *resource.DeviceCounterConsumption) bool) {
		for _, s := range c.pools[k] {
			for i := range s.Spec.Devices {
				d := &s.Spec.Devices[i]
				if !c.counting[DeviceID{k.driver, k.pool, d.Name}] {
					continue
				}
				for j := range d.ConsumesCounters {
					if !yield(d, &d.ConsumesCounters[j]) {
						return
					}
				}
			}
		}
	}
}

// consumesCounters says whether a device takes part in counting.
func consumesCounters(d *resource.Device) bool { return len(d.ConsumesCounters) > 0 }

// incompatibleIn checks the compatibility groups (CompatibilityGroups) of
// the devices in counting on each counter set of the pool: all of them
// name no group, or all name groups and share one. (Upstream folds the
// devices in one by one; for devices allocated before that agree, as
// these checks require, the order makes no difference.)
func (c *Checker) incompatibleIn(k poolID) []error {
	type setState struct {
		empty, grouped []string        // devices without and with groups
		common         map[string]bool // groups all grouped devices share
	}
	states := map[string]*setState{}
	var names []string
	for d, cc := range c.countingConsumptions(k) {
		st := states[cc.CounterSet]
		if st == nil {
			st = &setState{}
			states[cc.CounterSet] = st
			names = append(names, cc.CounterSet)
		}
		if len(cc.CompatibilityGroups) == 0 {
			st.empty = append(st.empty, d.Name)
			continue
		}
		has := map[string]bool{}
		for _, g := range cc.CompatibilityGroups {
			has[g] = true
		}
		if st.grouped == nil {
			st.common = has
		} else {
			for g := range st.common {
				if !has[g] {
					delete(st.common, g)
				}
			}
		}
		st.grouped = append(st.grouped, d.Name)
	}
	sort.Strings(names)
	var errs []error
	for _, set := range names {
		st := states[set]
		switch {
		case len(st.empty) > 0 && len(st.grouped) > 0:
			errs = append(errs, fmt.Errorf("pool %s/%s: counter set %s: devices %v name no compatibility group, devices %v do: they cannot be allocated together", k.driver, k.pool, set, st.empty, st.grouped))
		case len(st.grouped) > 0 && len(st.common) == 0:
			errs = append(errs, fmt.Errorf("pool %s/%s: counter set %s: devices %v share no compatibility group", k.driver, k.pool, set, st.grouped))
		}
	}
	return errs
}
