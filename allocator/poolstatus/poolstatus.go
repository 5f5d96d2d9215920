package poolstatus

import (
	"fmt"
	"sort"
	"strings"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
)

// Input is what utilization is computed from.
type Input struct {
	// Slices are the ResourceSlices, of every generation.
	Slices []*resource.ResourceSlice
	// Claims are ResourceClaims; those with status.allocation hold devices.
	Claims []*resource.ResourceClaim
	// TaintRules are the DeviceTaintRules (none on a cluster that does not
	// serve them).
	TaintRules []*resource.DeviceTaintRule
	// Driver and PoolName, when set, keep only the pools of that driver
	// and of that name, as a ResourcePoolStatusRequest's spec does.
	Driver, PoolName string
	// DefaultPartitionTypeAttribute groups the partitionable devices of
	// pools none of whose slices names a partitionTypeAttribute, as
	// spec.defaultPartitionTypeAttribute does; empty for none.
	DefaultPartitionTypeAttribute string
}

// Report is the utilization of every pool and node.
type Report struct {
	// Pools by driver, then pool name.
	Pools []*Pool `json:"pools"`
	// Nodes by name: the devices of complete pools that are tied to one
	// node (node-local slices, or a device's own nodeName).
	Nodes []*Node `json:"nodes"`
}

// PoolState is where a pool is in its life.
type PoolState string

const (
	// PoolComplete: the newest generation has all its slices: exactly
	// resourceSliceCount, as the scheduler counts them.
	PoolComplete PoolState = "Complete"
	// PoolRollingOut: the newest generation lacks slices while an older
	// generation is still published; the pool is not used until it is
	// complete.
	PoolRollingOut PoolState = "RollingOut"
	// PoolIncomplete: the only generation lacks slices, or has more than
	// its resourceSliceCount (which the scheduler does not use either).
	PoolIncomplete PoolState = "Incomplete"
)

// Rollout is what a pool's slices say of its generations.
type Rollout struct {
	State PoolState `json:"state"`
	// Generation is the newest generation; Slices how many slices of it
	// are published, out of ResourceSliceCount (that of its first slice
	// by name).
	Generation         int64 `json:"generation"`
	Slices             int32 `json:"slices"`
	ResourceSliceCount int64 `json:"resourceSliceCount"`
	// OlderGenerations are the older generations still published, oldest
	// first, and OlderSlices how many slices they have.
	OlderGenerations []int64 `json:"olderGenerations,omitempty"`
	OlderSlices      int32   `json:"olderSlices,omitempty"`
}

// String says it in a few words: "Complete", "RollingOut: generation 3,
// 1/2 slices (generation 2: 2 slices left)".
func (r Rollout) String() string {
	s := string(r.State)
	if r.State != PoolComplete {
		s += fmt.Sprintf(": generation %d has %d/%d slices", r.Generation, r.Slices, r.ResourceSliceCount)
	}
	if r.OlderSlices > 0 {
		gens := make([]string, len(r.OlderGenerations))
		for i, g := range r.OlderGenerations {
			gens[i] = fmt.Sprint(g)
		}
		s += fmt.Sprintf(" (%d slices of generation %s still published)", r.OlderSlices, strings.Join(gens, ", "))
	}
	return s
}

// DeviceState is what can be done with a device now.
type DeviceState string

const (
	// StateFree: the device can be allocated now.
	StateFree DeviceState = "Free"
	// StateInUse: a non-admin allocation holds the device, or at least one
	// share of it when it allows multiple allocations (Device.Shared).
	StateInUse DeviceState = "InUse"
	// StateTainted: not in use, and a NoSchedule or NoExecute taint keeps
	// it from requests that do not tolerate it.
	StateTainted DeviceState = "Tainted"
	// StateNoCounters: not in use, untainted, but it consumes more of the
	// shared counters than the devices in use leave (or they overdraw a
	// counter of the pool, after which no device that consumes counters is
	// added).
	StateNoCounters DeviceState = "NoCounters"
	// StateUnusable: the pool is not complete, or invalid, so no device
	// of it is used.
	StateUnusable DeviceState = "Unusable"
)

// Counts are devices by state.
type Counts struct {
	Total      int32 `json:"total"`
	InUse      int32 `json:"inUse"`
	Tainted    int32 `json:"tainted"`
	NoCounters int32 `json:"noCounters"`
	Free       int32 `json:"free"`
}

func (c *Counts) add(s DeviceState) {
	c.Total++
	switch s {
	case StateInUse:
		c.InUse++
	case StateTainted:
		c.Tainted++
	case StateNoCounters:
		c.NoCounters++
	case StateFree:
		c.Free++
	}
}

// Device is one device of a pool's newest generation.
type Device struct {
	Name  string      `json:"name"`
	Slice string      `json:"slice"`
	Node  string      `json:"node,omitempty"` // "" when it is not tied to one node
	State DeviceState `json:"state"`
	// Tainted: it has a NoSchedule or NoExecute taint (also when in use).
	Tainted bool `json:"tainted,omitempty"`
	// Shared: it allows multiple allocations; Shares are its non-admin
	// allocation results, Capacity what is left of each capacity.
	Shared   bool       `json:"shared,omitempty"`
	Shares   int32      `json:"shares,omitempty"`
	Capacity []Capacity `json:"capacity,omitempty"`
}

// Counter is one shared counter of a pool.
type Counter struct {
	Set   string               `json:"set"`
	Name  string               `json:"name"`
	Value apiresource.Quantity `json:"value"`
	// Consumed by the devices in use; Left is Value - Consumed, negative
	// when the devices in use consume more than the counter holds.
	Consumed apiresource.Quantity `json:"consumed"`
	Left     apiresource.Quantity `json:"left"`
}

// Capacity is one capacity of shared devices.
type Capacity struct {
	Name     resource.QualifiedName `json:"name"`
	Total    apiresource.Quantity   `json:"total"`
	Consumed apiresource.Quantity   `json:"consumed"`
	Left     apiresource.Quantity   `json:"left"`
}

// Partition is one shape of partitionable device in a pool: the devices
// of one partition type, or (without a partition type attribute) those
// that consume the same counters.
type Partition struct {
	// Type is the partition type attribute's value, or else what each
	// device consumes ("gpu-0/memory=40Gi").
	Type  string `json:"type"`
	Total int32  `json:"total"`
	// Allocatable is how many more of them fit together into what the
	// devices in use leave of the counters: not in use, untainted, taken
	// one after the other in slice order.
	Allocatable int32 `json:"allocatable"`
}

// Pool is the utilization of one pool.
type Pool struct {
	Driver string `json:"driver"`
	Name   string `json:"pool"`
	// Node is the node of the pool's slices when they all name the same.
	Node    string  `json:"node,omitempty"`
	Rollout Rollout `json:"rollout"`
	// Invalid says why the scheduler would not use the pool although it
	// is complete (a device named twice, a counter set declared twice, a
	// device consuming a counter the pool lacks); Status still has
	// upstream's counts, drakit's are zero.
	Invalid string `json:"invalid,omitempty"`
	// Status is upstream's PoolStatus for the pool (package doc).
	Status resource.PoolStatus `json:"status"`
	// Devices, Counters and Shared are drakit's numbers (package doc);
	// zero for a pool that is not Usable.
	Devices    Counts      `json:"counts"`
	Counters   []Counter   `json:"counters,omitempty"`
	Partitions []Partition `json:"partitions,omitempty"`
	Shared     []Capacity  `json:"shared,omitempty"`
	// DeviceList is every device of the newest generation, slices in name
	// order, devices in slice order.
	DeviceList []*Device `json:"devices"`
}

// Usable tells whether the scheduler uses the pool: it is complete and
// valid.
func (p *Pool) Usable() bool { return p.Rollout.State == PoolComplete && p.Invalid == "" }

// Node is the utilization of the devices tied to one node.
type Node struct {
	Name    string `json:"name"`
	Pools   int32  `json:"pools"`
	Devices Counts `json:"counts"`
}

// holding is what the allocated claims hold of one device.
type holding struct {
	shares   int32 // non-admin results
	consumed map[resource.QualifiedName]apiresource.Quantity
}

type poolKey struct{ driver, pool string }

// Compute is the utilization of the input's pools.
func Compute(in Input) *Report {
	byPool := map[poolKey][]*resource.ResourceSlice{}
	var keys []poolKey
	for _, s := range in.Slices {
		if s == nil || in.Driver != "" && s.Spec.Driver != in.Driver || in.PoolName != "" && s.Spec.Pool.Name != in.PoolName {
			continue
		}
		k := poolKey{s.Spec.Driver, s.Spec.Pool.Name}
		if _, ok := byPool[k]; !ok {
			keys = append(keys, k)
		}
		byPool[k] = append(byPool[k], s)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].driver != keys[j].driver {
			return keys[i].driver < keys[j].driver
		}
		return keys[i].pool < keys[j].pool
	})
	held, poolConsumed := holdings(in.Claims, byPool)
	r := &Report{Pools: make([]*Pool, 0, len(keys))}
	nodes := map[string]*Node{}
	for _, k := range keys {
		p := computePool(k, byPool[k], held[k], poolConsumed[k], in)
		r.Pools = append(r.Pools, p)
		seen := map[string]bool{}
		for _, d := range p.DeviceList {
			if d.Node == "" || d.State == StateUnusable {
				continue
			}
			n := nodes[d.Node]
			if n == nil {
				n = &Node{Name: d.Node}
				nodes[d.Node] = n
			}
			if !seen[d.Node] {
				seen[d.Node] = true
				n.Pools++
			}
			n.Devices.add(d.State)
		}
	}
	for _, n := range nodes {
		r.Nodes = append(r.Nodes, n)
	}
	sort.Slice(r.Nodes, func(i, j int) bool { return r.Nodes[i].Name < r.Nodes[j].Name })
	return r
}

// holdings are, per pool, what the allocated claims hold of each device
// (adminAccess results hold nothing), and what all their results consume
// of each capacity (upstream's shareableSummary sums it per pool).
func holdings(claims []*resource.ResourceClaim, pools map[poolKey][]*resource.ResourceSlice) (map[poolKey]map[string]*holding, map[poolKey]map[resource.QualifiedName]apiresource.Quantity) {
	held := map[poolKey]map[string]*holding{}
	consumed := map[poolKey]map[resource.QualifiedName]apiresource.Quantity{}
	for _, c := range claims {
		if c == nil || c.Status.Allocation == nil {
			continue
		}
		for i := range c.Status.Allocation.Devices.Results {
			res := &c.Status.Allocation.Devices.Results[i]
			if res.AdminAccess != nil && *res.AdminAccess {
				continue
			}
			k := poolKey{res.Driver, res.Pool}
			if _, ok := pools[k]; !ok {
				continue
			}
			m := held[k]
			if m == nil {
				m = map[string]*holding{}
				held[k] = m
			}
			h := m[res.Device]
			if h == nil {
				h = &holding{}
				m[res.Device] = h
			}
			h.shares++
			if len(res.ConsumedCapacity) == 0 {
				continue
			}
			if h.consumed == nil {
				h.consumed = map[resource.QualifiedName]apiresource.Quantity{}
			}
			pc := consumed[k]
			if pc == nil {
				pc = map[resource.QualifiedName]apiresource.Quantity{}
				consumed[k] = pc
			}
			for name, q := range res.ConsumedCapacity {
				addTo(h.consumed, name, q)
				addTo(pc, name, q)
			}
		}
	}
	return held, consumed
}

func addTo(m map[resource.QualifiedName]apiresource.Quantity, name resource.QualifiedName, q apiresource.Quantity) {
	sum := m[name].DeepCopy()
	sum.Add(q)
	m[name] = sum
}

// record is one device of the newest generation with its slice.
type record struct {
	slice  *resource.ResourceSlice
	device *resource.Device
	// partitionAttr is the device's grouping attribute ("" none).
	partitionAttr string
}

func computePool(k poolKey, slices []*resource.ResourceSlice, held map[string]*holding, consumed map[resource.QualifiedName]apiresource.Quantity, in Input) *Pool {
	sort.Slice(slices, func(i, j int) bool { return slices[i].Name < slices[j].Name })
	p := &Pool{Driver: k.driver, Name: k.pool}
	newest := slices[0].Spec.Pool.Generation
	for _, s := range slices {
		newest = max(newest, s.Spec.Pool.Generation)
	}
	ro := &p.Rollout
	ro.Generation = newest
	older := map[int64]bool{}
	var current []*resource.ResourceSlice
	for _, s := range slices {
		if s.Spec.Pool.Generation < newest {
			older[s.Spec.Pool.Generation] = true
			ro.OlderSlices++
			continue
		}
		if len(current) == 0 {
			ro.ResourceSliceCount = s.Spec.Pool.ResourceSliceCount
		}
		current = append(current, s)
	}
	ro.Slices = int32(len(current))
	for g := range older {
		ro.OlderGenerations = append(ro.OlderGenerations, g)
	}
	sort.Slice(ro.OlderGenerations, func(i, j int) bool { return ro.OlderGenerations[i] < ro.OlderGenerations[j] })
	switch {
	case int64(ro.Slices) == ro.ResourceSliceCount:
		ro.State = PoolComplete
	case ro.OlderSlices > 0:
		ro.State = PoolRollingOut
	default:
		ro.State = PoolIncomplete
	}

	node, mixed := "", false
	for i, s := range current {
		n := ptrString(s.Spec.NodeName)
		if i == 0 {
			node = n
		} else if n != node {
			mixed = true
		}
	}
	if !mixed {
		p.Node = node
	}

	// The devices with their grouping attribute: their slice's, else the
	// default when no slice of the pool names one.
	var recs []record
	declares := false
	var sets []resource.CounterSet
	for _, s := range current {
		// A slice without devices (counters only) names the attribute for
		// none: it does not keep the default from the others, as upstream's
		// controller has it.
		if s.Spec.PartitionTypeAttribute != nil && *s.Spec.PartitionTypeAttribute != "" && len(s.Spec.Devices) > 0 {
			declares = true
		}
		sets = append(sets, s.Spec.SharedCounters...)
	}
	for _, s := range current {
		attr := ""
		if s.Spec.PartitionTypeAttribute != nil {
			attr = string(*s.Spec.PartitionTypeAttribute)
		}
		if attr == "" && !declares {
			attr = in.DefaultPartitionTypeAttribute
		}
		for i := range s.Spec.Devices {
			recs = append(recs, record{slice: s, device: &s.Spec.Devices[i], partitionAttr: attr})
		}
	}
	p.Invalid = invalidReason(current, recs)

	// drakit's numbers count only what the scheduler uses: a complete,
	// valid pool.
	complete := p.Usable()
	tainted := make([]bool, len(recs))
	var unavailable int32
	for i, r := range recs {
		tainted[i] = isTainted(k, r.device, in.TaintRules)
		if tainted[i] {
			unavailable++
		}
	}
	upstreamStatus(p, k, ro, recs, sets, unavailable, held, consumed)

	// drakit's numbers.
	counters := newCounterState(sets)
	for _, r := range recs {
		if held[r.device.Name] != nil {
			counters.consume(r.device.ConsumesCounters)
		}
	}
	// Once the devices in use overdraw a counter (allocated before the
	// counters shrank), the scheduler adds no device that consumes any
	// counter of the pool.
	overdrawn := counters.overdrawn()
	shared := map[resource.QualifiedName]*Capacity{}
	var sharedNames []resource.QualifiedName
	for i, r := range recs {
		d := &Device{Name: r.device.Name, Slice: r.slice.Name, Node: deviceNode(r.slice, r.device), Tainted: tainted[i]}
		d.Shared = r.device.AllowMultipleAllocations != nil && *r.device.AllowMultipleAllocations
		h := held[r.device.Name]
		if h != nil {
			d.Shares = h.shares
		}
		switch {
		case !complete:
			d.State = StateUnusable
		case h != nil:
			d.State = StateInUse
		case tainted[i]:
			d.State = StateTainted
		case len(r.device.ConsumesCounters) > 0 && (overdrawn || !counters.fits(r.device.ConsumesCounters)):
			d.State = StateNoCounters
		default:
			d.State = StateFree
		}
		if d.Shared {
			for _, name := range sortedNames(r.device.Capacity) {
				c := Capacity{Name: name, Total: r.device.Capacity[name].Value.DeepCopy()}
				if h != nil {
					if q, ok := h.consumed[name]; ok {
						c.Consumed = q.DeepCopy()
					}
				}
				c.Left = c.Total.DeepCopy()
				c.Left.Sub(c.Consumed)
				if c.Left.Sign() < 0 {
					c.Left = *apiresource.NewQuantity(0, c.Total.Format)
				}
				d.Capacity = append(d.Capacity, c)
				if !complete {
					continue
				}
				sum := shared[name]
				if sum == nil {
					sum = &Capacity{Name: name}
					shared[name] = sum
					sharedNames = append(sharedNames, name)
				}
				sum.Total.Add(c.Total)
				sum.Consumed.Add(c.Consumed)
				sum.Left.Add(c.Left)
			}
		}
		p.DeviceList = append(p.DeviceList, d)
		if complete {
			p.Devices.add(d.State)
		}
	}
	if complete {
		p.Counters = counters.list()
		p.Partitions = partitions(k, recs, p.DeviceList, counters, overdrawn)
		sort.Slice(sharedNames, func(i, j int) bool { return sharedNames[i] < sharedNames[j] })
		for _, name := range sharedNames {
			p.Shared = append(p.Shared, *shared[name])
		}
	}
	return p
}

// partitions groups the pool's partitionable devices by partition type
// (or, without one, by what they consume) and counts per group how many
// of those not in use and untainted fit together into what is left.
func partitions(k poolKey, recs []record, devices []*Device, left *counterState, overdrawn bool) []Partition {
	type group struct {
		Partition
		free []*resource.Device
	}
	groups := map[string]*group{}
	var keys []string
	for i, r := range recs {
		if len(r.device.ConsumesCounters) == 0 {
			continue
		}
		key := ""
		if r.partitionAttr != "" {
			key, _ = partitionType(k.driver, r.device, r.partitionAttr)
		}
		if key == "" {
			key = costKey(r.device.ConsumesCounters)
		}
		g := groups[key]
		if g == nil {
			g = &group{Partition: Partition{Type: key}}
			groups[key] = g
			keys = append(keys, key)
		}
		g.Total++
		if s := devices[i].State; s == StateFree || s == StateNoCounters {
			g.free = append(g.free, r.device)
		}
	}
	sort.Strings(keys)
	out := make([]Partition, 0, len(keys))
	for _, key := range keys {
		g := groups[key]
		if !overdrawn {
			c := left.clone()
			for _, d := range g.free {
				if c.fits(d.ConsumesCounters) {
					g.Allocatable++
					c.consume(d.ConsumesCounters)
				}
			}
		}
		out = append(out, g.Partition)
	}
	return out
}

// invalidReason is why the scheduler would not use the pool: a device
// named twice, a counter set declared twice, a device consuming a counter
// the pool does not declare.
func invalidReason(slices []*resource.ResourceSlice, recs []record) string {
	seen := make(map[string]string, len(recs))
	for _, r := range recs {
		if other, ok := seen[r.device.Name]; ok {
			return fmt.Sprintf("device %q is in slice %s and in slice %s", r.device.Name, other, r.slice.Name)
		}
		seen[r.device.Name] = r.slice.Name
	}
	return counterProblem(slices, recs)
}

// counterProblem is what makes the pool's counters unusable: a counter set
// declared twice, a device consuming a counter the pool does not declare.
func counterProblem(slices []*resource.ResourceSlice, recs []record) string {
	counters := map[string]map[string]bool{}
	for _, s := range slices {
		for _, cs := range s.Spec.SharedCounters {
			if counters[cs.Name] != nil {
				return fmt.Sprintf("counter set %q is declared twice", cs.Name)
			}
			counters[cs.Name] = map[string]bool{}
			for n := range cs.Counters {
				counters[cs.Name][n] = true
			}
		}
	}
	for _, r := range recs {
		for _, cc := range r.device.ConsumesCounters {
			set := counters[cc.CounterSet]
			if set == nil {
				return fmt.Sprintf("device %q consumes from counter set %q, which the pool does not declare", r.device.Name, cc.CounterSet)
			}
			for _, n := range sortedCounterNames(cc.Counters) {
				if !set[n] {
					return fmt.Sprintf("device %q consumes counter %q of counter set %q, which the set does not have", r.device.Name, n, cc.CounterSet)
				}
			}
		}
	}
	return ""
}

// isTainted: a NoSchedule or NoExecute taint of the device's own or of a
// DeviceTaintRule that selects it (a rule without a selector selects
// nothing, as the scheduler and upstream's controller have it).
func isTainted(k poolKey, d *resource.Device, rules []*resource.DeviceTaintRule) bool {
	for _, t := range d.Taints {
		if blocks(t.Effect) {
			return true
		}
	}
	for _, r := range rules {
		if r != nil && blocks(r.Spec.Taint.Effect) && RuleSelects(r, k.driver, k.pool, d.Name) {
			return true
		}
	}
	return false
}

func blocks(e resource.DeviceTaintEffect) bool {
	return e == resource.DeviceTaintEffectNoSchedule || e == resource.DeviceTaintEffectNoExecute
}

// RuleSelects reports whether a DeviceTaintRule selects the device: each
// of driver, pool and device it names must match; a rule without a
// selector selects nothing.
func RuleSelects(r *resource.DeviceTaintRule, driver, pool, device string) bool {
	sel := r.Spec.DeviceSelector
	if sel == nil {
		return false
	}
	return (sel.Driver == nil || *sel.Driver == driver) && (sel.Pool == nil || *sel.Pool == pool) && (sel.Device == nil || *sel.Device == device)
}

// deviceNode is the node a device is tied to: its own nodeName, else its
// slice's; "" for devices of allNodes or node selectors.
func deviceNode(s *resource.ResourceSlice, d *resource.Device) string {
	if n := ptrString(d.NodeName); n != "" {
		return n
	}
	if s.Spec.PerDeviceNodeSelection != nil && *s.Spec.PerDeviceNodeSelection {
		return ""
	}
	return ptrString(s.Spec.NodeName)
}

func ptrString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func sortedNames[T any](m map[resource.QualifiedName]T) []resource.QualifiedName {
	names := make([]resource.QualifiedName, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}

func sortedCounterNames(m map[string]resource.Counter) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// counterState is what is left of a pool's counters, set by set.
type counterState struct {
	sets  []string
	value map[string]map[string]apiresource.Quantity
	left  map[string]map[string]apiresource.Quantity
}

// newCounterState starts from the counters' values; a set declared twice
// keeps its last declaration's counters, as upstream's controller does.
func newCounterState(sets []resource.CounterSet) *counterState {
	c := &counterState{value: map[string]map[string]apiresource.Quantity{}, left: map[string]map[string]apiresource.Quantity{}}
	for _, cs := range sets {
		if c.value[cs.Name] == nil {
			c.sets = append(c.sets, cs.Name)
			c.value[cs.Name] = map[string]apiresource.Quantity{}
			c.left[cs.Name] = map[string]apiresource.Quantity{}
		}
		for n, v := range cs.Counters {
			c.value[cs.Name][n] = v.Value.DeepCopy()
			c.left[cs.Name][n] = v.Value.DeepCopy()
		}
	}
	sort.Strings(c.sets)
	return c
}

func (c *counterState) clone() *counterState {
	out := &counterState{sets: c.sets, value: c.value, left: make(map[string]map[string]apiresource.Quantity, len(c.left))}
	for set, m := range c.left {
		cp := make(map[string]apiresource.Quantity, len(m))
		for n, q := range m {
			cp[n] = q.DeepCopy()
		}
		out.left[set] = cp
	}
	return out
}

// fits: every counter the device consumes exists and has that much left.
func (c *counterState) fits(uses []resource.DeviceCounterConsumption) bool {
	for _, cc := range uses {
		set := c.left[cc.CounterSet]
		for n, amount := range cc.Counters {
			left, ok := set[n]
			if !ok || left.Cmp(amount.Value) < 0 {
				return false
			}
		}
	}
	return true
}

// overdrawn: some counter has less than nothing left.
func (c *counterState) overdrawn() bool {
	for _, m := range c.left {
		for _, q := range m {
			if q.Sign() < 0 {
				return true
			}
		}
	}
	return false
}

// consume takes what the device consumes of the counters that exist.
func (c *counterState) consume(uses []resource.DeviceCounterConsumption) {
	for _, cc := range uses {
		set := c.left[cc.CounterSet]
		for n, amount := range cc.Counters {
			if left, ok := set[n]; ok {
				left.Sub(amount.Value)
				set[n] = left
			}
		}
	}
}

func (c *counterState) list() []Counter {
	var out []Counter
	for _, set := range c.sets {
		names := make([]string, 0, len(c.value[set]))
		for n := range c.value[set] {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			v, left := c.value[set][n], c.left[set][n]
			used := v.DeepCopy()
			used.Sub(left)
			out = append(out, Counter{Set: set, Name: n, Value: v.DeepCopy(), Consumed: used, Left: left.DeepCopy()})
		}
	}
	return out
}
