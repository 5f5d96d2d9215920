package verify

import (
	"fmt"
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
		for _, s := range c.pools[k] {
			for i := range s.Spec.Devices {
				d := &s.Spec.Devices[i]
				if !c.counting[DeviceID{k.driver, k.pool, d.Name}] {
					continue
				}
				for _, cc := range d.ConsumesCounters {
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

// consumesCounters says whether a device takes part in counting.
func consumesCounters(d *resource.Device) bool { return len(d.ConsumesCounters) > 0 }
