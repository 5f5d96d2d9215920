package describe

import (
	"context"
	"fmt"
	"sort"
	"strings"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/allocator/poolstatus"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/cel"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
)

// DeviceTaint is a taint a device carries, from its slice or from a
// DeviceTaintRule.
type DeviceTaint struct {
	Taint resource.DeviceTaint
	// Rule is the DeviceTaintRule's name; empty for a taint of the slice.
	Rule string
	// Node is the node the device is local to; empty for others.
	Node string
}

func (t DeviceTaint) String() string {
	s := t.Taint.Key
	if t.Taint.Value != "" {
		s += "=" + t.Taint.Value
	}
	s += ":" + string(t.Taint.Effect)
	if t.Rule != "" {
		s += " (DeviceTaintRule " + t.Rule + ")"
	}
	return s
}

// DeviceRow is one device of the inventory and who holds it.
type DeviceRow struct {
	Node, Driver, Pool, Device string
	// Holders are the claims ("namespace/name") with the device in their
	// allocation (admin access included, marked).
	Holders []string
	// Shares is the number of allocations of a device that allows several.
	Shares int
	// Multiple tells whether the device allows several allocations.
	Multiple bool
	// Capacity is each capacity and, for a shared device, what is left.
	Capacity []string
	Taints   []DeviceTaint
	// State is what can be done with the device now, as "get pools"
	// counts it (poolstatus.DeviceState), or Superseded for a device of a
	// slice of an older generation of its pool.
	State  string
	device *resource.Device
}

// Free tells whether nothing holds the device (or, for a shared one,
// whether it has capacity left for another share: always reported).
func (d *DeviceRow) Free() bool { return len(d.Holders) == 0 }

// DeviceFilter narrows the listing.
type DeviceFilter struct {
	Driver, Node, Class string
}

// Devices lists the devices of the inventory, by node, driver, pool and
// device, with their holders and what is left of them.
func Devices(ctx context.Context, inv *cluster.Inventory, f DeviceFilter) ([]*DeviceRow, error) {
	var match func(driver string, d *resource.Device) (bool, error)
	if f.Class != "" {
		m, err := classMatcher(ctx, inv, f.Class)
		if err != nil {
			return nil, err
		}
		match = m
	}
	taints := DeviceTaints(inv)
	held := holdingResults(inv.Claims)
	states := deviceStates(inv)
	var rows []*DeviceRow
	for _, s := range inv.Slices {
		if f.Driver != "" && s.Spec.Driver != f.Driver {
			continue
		}
		for i := range s.Spec.Devices {
			d := &s.Spec.Devices[i]
			row := &DeviceRow{Node: deviceNode(s, d), Driver: s.Spec.Driver, Pool: s.Spec.Pool.Name, Device: d.Name, device: d}
			if f.Node != "" && row.Node != f.Node {
				continue
			}
			if match != nil {
				ok, err := match(s.Spec.Driver, d)
				if err != nil {
					return nil, err
				}
				if !ok {
					continue
				}
			}
			id := allocator.DeviceID{Driver: row.Driver, Pool: row.Pool, Device: row.Device}
			row.Taints = taints[id]
			row.Multiple = d.AllowMultipleAllocations != nil && *d.AllowMultipleAllocations
			row.State = states[sliceDevice{s.Name, d.Name}]
			if row.State == "" {
				row.State = stateSuperseded
			}
			fillHolders(row, held[id])
			rows = append(rows, row)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		return a.Node+"\x00"+a.Driver+"\x00"+a.Pool+"\x00"+a.Device < b.Node+"\x00"+b.Driver+"\x00"+b.Pool+"\x00"+b.Device
	})
	return rows, nil
}

// holding is one allocation result and its claim.
type holding struct {
	claim  string
	result *resource.DeviceRequestAllocationResult
}

func holdingResults(claims []*resource.ResourceClaim) map[allocator.DeviceID][]holding {
	out := map[allocator.DeviceID][]holding{}
	for _, c := range claims {
		if c.Status.Allocation == nil {
			continue
		}
		for i := range c.Status.Allocation.Devices.Results {
			r := &c.Status.Allocation.Devices.Results[i]
			id := allocator.DeviceID{Driver: r.Driver, Pool: r.Pool, Device: r.Device}
			out[id] = append(out[id], holding{claim: c.Namespace + "/" + c.Name, result: r})
		}
	}
	return out
}

func fillHolders(row *DeviceRow, hs []holding) {
	consumed := map[resource.QualifiedName]apiresource.Quantity{}
	seen := map[string]bool{}
	for _, h := range hs {
		name := h.claim
		if h.result.AdminAccess != nil && *h.result.AdminAccess {
			name += " (admin)"
		}
		if !seen[name] {
			seen[name] = true
			row.Holders = append(row.Holders, name)
		}
		if h.result.ShareID != nil {
			row.Shares++
		}
		for k, q := range h.result.ConsumedCapacity {
			sum := consumed[k]
			sum.Add(q)
			consumed[k] = sum
		}
	}
	sort.Strings(row.Holders)
	names := make([]string, 0, len(row.device.Capacity))
	for k := range row.device.Capacity {
		names = append(names, string(k))
	}
	sort.Strings(names)
	for _, k := range names {
		total := row.device.Capacity[resource.QualifiedName(k)].Value
		if !row.Multiple {
			row.Capacity = append(row.Capacity, k+"="+total.String())
			continue
		}
		left := total.DeepCopy()
		if used, ok := consumed[resource.QualifiedName(k)]; ok {
			left.Sub(used)
		}
		row.Capacity = append(row.Capacity, fmt.Sprintf("%s=%s/%s", k, left.String(), total.String()))
	}
}

// deviceNode is where a device is: its node, "<all nodes>", or
// "<selector>" for a device that a node selector places.
func deviceNode(s *resource.ResourceSlice, d *resource.Device) string {
	switch {
	case d.NodeName != nil && *d.NodeName != "":
		return *d.NodeName
	case s.Spec.NodeName != nil && *s.Spec.NodeName != "":
		return *s.Spec.NodeName
	case (d.AllNodes != nil && *d.AllNodes) || (s.Spec.AllNodes != nil && *s.Spec.AllNodes):
		return "<all nodes>"
	}
	return "<selector>"
}

// DeviceTaints are the taints of every device: its own and those of the
// DeviceTaintRules that select it.
func DeviceTaints(inv *cluster.Inventory) map[allocator.DeviceID][]DeviceTaint {
	out := map[allocator.DeviceID][]DeviceTaint{}
	for _, s := range inv.Slices {
		for i := range s.Spec.Devices {
			d := &s.Spec.Devices[i]
			id := allocator.DeviceID{Driver: s.Spec.Driver, Pool: s.Spec.Pool.Name, Device: d.Name}
			node := deviceNode(s, d)
			for _, t := range d.Taints {
				out[id] = append(out[id], DeviceTaint{Taint: t, Node: node})
			}
			for _, r := range inv.TaintRules {
				if ruleSelects(r, id) {
					out[id] = append(out[id], DeviceTaint{Taint: r.Spec.Taint, Rule: r.Name, Node: node})
				}
			}
		}
	}
	return out
}

// ruleSelects: a rule without a selector selects nothing, as the
// scheduler has it.
func ruleSelects(r *resource.DeviceTaintRule, id allocator.DeviceID) bool {
	return poolstatus.RuleSelects(r, id.Driver, id.Pool, id.Device)
}

// stateSuperseded is the state of a device of an older generation of its
// pool, which the scheduler no longer looks at.
const stateSuperseded = "Superseded"

type sliceDevice struct{ slice, device string }

// deviceStates are the states of the devices of the pools' newest
// generations, by slice and device.
func deviceStates(inv *cluster.Inventory) map[sliceDevice]string {
	r := poolstatus.Compute(poolstatus.Input{Slices: inv.Slices, Claims: inv.Claims, TaintRules: inv.TaintRules})
	out := map[sliceDevice]string{}
	for _, p := range r.Pools {
		for _, d := range p.DeviceList {
			state := string(d.State)
			if d.State == poolstatus.StateUnusable {
				state = string(p.Rollout.State) + " pool"
				if p.Rollout.State == poolstatus.PoolComplete {
					state = "Invalid pool"
				}
			}
			out[sliceDevice{d.Slice, d.Name}] = state
		}
	}
	return out
}

// classMatcher evaluates the class's selectors on a device.
func classMatcher(ctx context.Context, inv *cluster.Inventory, name string) (func(string, *resource.Device) (bool, error), error) {
	var class *resource.DeviceClass
	for _, c := range inv.Classes {
		if c.Name == name {
			class = c
		}
	}
	if class == nil {
		return nil, fmt.Errorf("--class %s: the cluster has no DeviceClass of that name", name)
	}
	var progs []*cel.Program
	for i, s := range class.Spec.Selectors {
		if s.CEL == nil {
			continue
		}
		// Stored: the scheduler's environment for expressions the server
		// holds.
		p, err := cel.Compile(s.CEL.Expression, cel.Options{Stored: true, SkipCostEstimate: true, FastPath: true})
		if err != nil {
			return nil, fmt.Errorf("DeviceClass %s: spec.selectors[%d].cel.expression: %v", name, i, err)
		}
		progs = append(progs, p)
	}
	return func(driver string, d *resource.Device) (bool, error) {
		dev := cel.NewInput(driver, d)
		for _, p := range progs {
			ok, err := p.Matches(ctx, dev)
			if err != nil || !ok {
				// A selector that fails on a device does not select it.
				return false, nil
			}
		}
		return true, nil
	}, nil
}

// joinOr joins a list, or says none.
func joinOr(list []string, none string) string {
	if len(list) == 0 {
		return none
	}
	return strings.Join(list, ",")
}
