package allocator

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/cel"
)

// What the gated features say about single devices: node selection per
// device, taints and tolerations, capacity requests and their request
// policies. The search itself (counters, shares) is in solve.go and
// counters.go.

// deviceNode is the node selection of one device of a slice with
// perDeviceNodeSelection.
type deviceNode struct {
	nodeName string
	allNodes bool
	selector *nodeMatcher
}

func (d *deviceNode) matches(node *corev1.Node) bool {
	switch {
	case d.nodeName != "":
		return node != nil && node.Name == d.nodeName
	case d.allNodes:
		return true
	case d.selector != nil:
		return node != nil && d.selector.matches(node)
	}
	return false
}

// parseDeviceNodes reads the node selection of every device of a slice
// with perDeviceNodeSelection.
func (e *sliceEntry) parseDeviceNodes() error {
	e.deviceNodes = make([]deviceNode, len(e.devices))
	for i := range e.devices {
		d := &e.devices[i]
		n := &e.deviceNodes[i]
		if d.NodeName != nil {
			n.nodeName = *d.NodeName
		}
		n.allNodes = d.AllNodes != nil && *d.AllNodes
		if n.nodeName == "" && !n.allNodes && d.NodeSelector != nil {
			m, err := parseNodeSelector(d.NodeSelector)
			if err != nil {
				return fmt.Errorf("ResourceSlice %q: spec.devices[%d].nodeSelector.%v", e.obj.Name, i, err)
			}
			n.selector = m
		}
	}
	return nil
}

// nodeMask says which devices of a slice with perDeviceNodeSelection the
// node reaches; nil for other slices (all devices).
func (e *sliceEntry) nodeMask(node *corev1.Node) []uint64 {
	if !e.perDevice {
		return nil
	}
	mask := make([]uint64, e.words)
	for i := range e.deviceNodes {
		if e.deviceNodes[i].matches(node) {
			setBit(mask, i)
		}
	}
	return mask
}

// taintsOf are the taints of a device that count: its own, followed by
// those of the DeviceTaintRules that select it when the scheduler's
// tracker would apply them (DeviceTaintRules).
func (a *Allocator) taintsOf(e *sliceEntry, d int) []resource.DeviceTaint {
	own := e.devices[d].Taints
	if !a.features.DeviceTaintRules || len(a.taintRules) == 0 {
		return own
	}
	var out []resource.DeviceTaint
	for _, r := range a.taintRules {
		sel := r.Spec.DeviceSelector
		// No selector selects nothing; every field set must match.
		if sel == nil || sel.Driver != nil && *sel.Driver != e.driver || sel.Pool != nil && *sel.Pool != e.pool || sel.Device != nil && *sel.Device != e.devices[d].Name {
			continue
		}
		if out == nil {
			out = append(out, own...)
		}
		out = append(out, r.Spec.Taint)
	}
	if out == nil {
		return own
	}
	return out
}

// sliceTaints are the taints that count (taintsOf) of a slice's devices,
// for one set of DeviceTaintRules: every request on every node asked about
// looks at them, and the rules' selectors need not be matched each time.
type sliceTaints struct {
	rulesGen int // Allocator.taintRulesGen they were made for
	// blocking marks the devices with a NoSchedule or NoExecute taint.
	blocking []uint64
	// merged are, per device, its taints and those of the rules that
	// select it; nil when no rule selects a device of the slice.
	merged [][]resource.DeviceTaint
}

// taintsIn returns the entry's taints, made again after the rules changed.
func (a *Allocator) taintsIn(e *sliceEntry) *sliceTaints {
	if t := e.taints; t != nil && t.rulesGen == a.taintRulesGen {
		return t
	}
	t := &sliceTaints{rulesGen: a.taintRulesGen, blocking: make([]uint64, e.words)}
	for d := range e.devices {
		taints := a.taintsOf(e, d)
		if len(taints) > 0 && len(e.devices[d].Taints) != len(taints) {
			if t.merged == nil {
				t.merged = make([][]resource.DeviceTaint, len(e.devices))
			}
			t.merged[d] = taints
		}
		for i := range taints {
			if taints[i].Effect == resource.DeviceTaintEffectNoSchedule || taints[i].Effect == resource.DeviceTaintEffectNoExecute {
				setBit(t.blocking, d)
				break
			}
		}
	}
	if t.merged != nil {
		for d := range t.merged {
			if t.merged[d] == nil {
				t.merged[d] = e.devices[d].Taints
			}
		}
	}
	e.taints = t
	return t
}

// blockingTaint returns the first taint that keeps the device from a
// request with these tolerations: NoSchedule and NoExecute block unless
// tolerated; None and unknown effects do not.
func (a *Allocator) blockingTaint(e *sliceEntry, d int, tolerations []resource.DeviceToleration) *resource.DeviceTaint {
	if !a.features.DeviceTaints {
		return nil
	}
	t := a.taintsIn(e)
	if !hasBit(t.blocking, d) {
		return nil
	}
	taints := e.devices[d].Taints
	if t.merged != nil {
		taints = t.merged[d]
	}
	for i := range taints {
		t := &taints[i]
		if t.Effect != resource.DeviceTaintEffectNoSchedule && t.Effect != resource.DeviceTaintEffectNoExecute {
			continue
		}
		if !tolerated(tolerations, t) {
			return t
		}
	}
	return nil
}

func tolerated(tolerations []resource.DeviceToleration, t *resource.DeviceTaint) bool {
	for _, tol := range tolerations {
		if tol.Effect != "" && tol.Effect != t.Effect || tol.Key != "" && tol.Key != t.Key {
			continue
		}
		switch tol.Operator {
		case "", resource.DeviceTolerationOpEqual:
			if tol.Value == t.Value {
				return true
			}
		case resource.DeviceTolerationOpExists:
			return true
		}
	}
	return false
}

// errNotRepresentable: a capacity request that the range arithmetic of the
// device's policy cannot express.
var errNotRepresentable = errors.New("the capacity request cannot be represented in the arithmetic of the device's request policy")

// capacityNeed is what one allocation of a device takes of each of its
// capacities for a request: the requested amount rounded up by the
// capacity's request policy, or the policy's default, or the whole
// capacity when the request does not name it. ok is false when the
// request names a capacity the device lacks or an amount the policy does
// not allow (such a device does not serve the request).
func capacityNeed(d *resource.Device, req *resource.CapacityRequirements, fractional bool) (need map[resource.QualifiedName]apiresource.Quantity, ok bool, err error) {
	if req != nil {
		for name := range req.Requests {
			if _, has := d.Capacity[name]; !has {
				return nil, false, nil
			}
		}
	}
	need = make(map[resource.QualifiedName]apiresource.Quantity, len(d.Capacity))
	for name, c := range d.Capacity {
		var v apiresource.Quantity
		asked, requested := apiresource.Quantity{}, false
		if req != nil {
			asked, requested = req.Requests[name]
		}
		switch {
		case !requested && c.RequestPolicy != nil && c.RequestPolicy.Default != nil:
			v = c.RequestPolicy.Default.DeepCopy()
		case !requested:
			v = c.Value.DeepCopy()
		default:
			if v, err = roundUpRequest(asked, c.RequestPolicy, fractional); err != nil {
				return nil, false, fmt.Errorf("capacity %q: %w", name, err)
			}
		}
		if v.Sign() < 0 {
			return nil, false, fmt.Errorf("capacity %q: the amount %s is negative", name, v.String())
		}
		if violatesPolicy(v, c.RequestPolicy, fractional) {
			return nil, false, nil
		}
		need[name] = v
	}
	return need, true, nil
}

// roundUpRequest rounds a requested amount up to what the policy allows:
// to min, then to the next step from min, or to the next valid value.
func roundUpRequest(q apiresource.Quantity, p *resource.CapacityRequestPolicy, fractional bool) (apiresource.Quantity, error) {
	switch {
	case p == nil:
		return q.DeepCopy(), nil
	case p.ValidRange != nil && p.ValidRange.Min != nil:
		r := p.ValidRange
		if q.Cmp(*r.Min) < 0 {
			return r.Min.DeepCopy(), nil
		}
		if r.Step == nil {
			return q.DeepCopy(), nil
		}
		if useMilli(r, fractional) {
			asked, ok := milliOf(q)
			if !ok {
				return apiresource.Quantity{}, fmt.Errorf("%w: %s has no exact milli value", errNotRepresentable, q.String())
			}
			step, min := r.Step.MilliValue(), r.Min.MilliValue()
			n := ceilDiv(asked-min, step)
			if n > (math.MaxInt64-min)/step {
				return apiresource.Quantity{}, fmt.Errorf("%w: rounding %s up to a step overflows", errNotRepresentable, q.String())
			}
			v := min + step*n
			if v%1000 == 0 {
				return *apiresource.NewQuantity(v/1000, r.Step.Format), nil
			}
			return *apiresource.NewMilliQuantity(v, r.Step.Format), nil
		}
		if q.CmpInt64(math.MaxInt64) > 0 {
			return apiresource.Quantity{}, fmt.Errorf("%w: %s is larger than an int64", errNotRepresentable, q.String())
		}
		asked, step, min := q.Value(), r.Step.Value(), r.Min.Value()
		if step <= 0 {
			return apiresource.Quantity{}, fmt.Errorf("%w: the step %s is not positive", errNotRepresentable, r.Step.String())
		}
		n := ceilDiv(asked-min, step)
		if min >= 0 && n > (math.MaxInt64-min)/step {
			return apiresource.Quantity{}, fmt.Errorf("%w: rounding %s up to a step overflows", errNotRepresentable, q.String())
		}
		return *apiresource.NewQuantity(min+step*n, r.Step.Format), nil
	case p.ValidValues != nil:
		for _, v := range p.ValidValues {
			if q.Cmp(v) <= 0 {
				return v.DeepCopy(), nil
			}
		}
	}
	return q.DeepCopy(), nil
}

func ceilDiv(a, b int64) int64 {
	n := a / b
	if a%b != 0 {
		n++
	}
	return n
}

// violatesPolicy: the amount is above the range's max, off its steps, or
// not one of the valid values; the policy's default is always allowed.
func violatesPolicy(v apiresource.Quantity, p *resource.CapacityRequestPolicy, fractional bool) bool {
	switch {
	case p == nil:
		return false
	case p.Default != nil && v.Cmp(*p.Default) == 0:
		return false
	case p.ValidRange != nil:
		r := p.ValidRange
		if r.Max != nil && v.Cmp(*r.Max) > 0 {
			return true
		}
		if r.Step == nil || r.Min == nil {
			return false
		}
		var asked, step, min int64
		if useMilli(r, fractional) {
			var ok bool
			if asked, ok = milliOf(v); !ok {
				return true
			}
			step, min = r.Step.MilliValue(), r.Min.MilliValue()
		} else {
			asked, step, min = v.Value(), r.Step.Value(), r.Min.Value()
		}
		return step <= 0 || (asked-min)%step != 0
	case len(p.ValidValues) > 0:
		for _, valid := range p.ValidValues {
			if v.Cmp(valid) == 0 {
				return false
			}
		}
		return true
	}
	return false
}

// useMilli: with FractionalCapacityRange, a range whose bounds and step
// have exact milli values (and a step of at least 1m) is computed in
// milli units; otherwise in whole units.
func useMilli(r *resource.CapacityRequestPolicyRange, fractional bool) bool {
	if !fractional {
		return false
	}
	for _, q := range []*apiresource.Quantity{r.Min, r.Max, r.Step} {
		if q == nil {
			continue
		}
		if _, ok := milliOf(*q); !ok {
			return false
		}
	}
	if r.Step != nil {
		if m, _ := milliOf(*r.Step); m < 1 {
			return false
		}
	}
	return true
}

func milliOf(q apiresource.Quantity) (int64, bool) {
	m := q.MilliValue()
	return m, q.Cmp(*apiresource.NewMilliQuantity(m, q.Format)) == 0
}

// fitsCapacity reports whether need fits into the device's capacities on
// top of what is consumed already (nil maps are empty).
func fitsCapacity(d *resource.Device, need map[resource.QualifiedName]apiresource.Quantity, consumed ...map[resource.QualifiedName]apiresource.Quantity) bool {
	for name, c := range d.Capacity {
		sum := need[name].DeepCopy()
		for _, m := range consumed {
			if q, ok := m[name]; ok {
				sum.Add(q)
			}
		}
		if sum.Cmp(c.Value) > 0 {
			return false
		}
	}
	return true
}

func addQuantities(to map[resource.QualifiedName]apiresource.Quantity, from map[resource.QualifiedName]apiresource.Quantity, sign int) {
	for name, q := range from {
		sum := to[name].DeepCopy()
		if sign > 0 {
			sum.Add(q)
		} else {
			sum.Sub(q)
		}
		to[name] = sum
	}
}

func multiAllocatable(d *resource.Device) bool {
	return d.AllowMultipleAllocations != nil && *d.AllowMultipleAllocations
}

// experimental reports whether a 1.37 scheduler would run upstream's
// experimental implementation for these features: the one that knows
// the alpha features.
func (f Features) experimental() bool {
	return f.ListTypeAttributes || f.OptionalNodeOperations || f.DerivedAttributes || f.CompatibilityGroups
}

// declaresOptionalNodeOperations: the node says its kubelet can skip node
// operations (status.declaredFeatures).
func declaresOptionalNodeOperations(node *corev1.Node) bool {
	if node == nil {
		return false
	}
	for _, f := range node.Status.DeclaredFeatures {
		if f == "DRAOptionalNodeOperations" {
			return true
		}
	}
	return false
}

// input is the CEL input of device d of the entry; the inputs of all the
// entry's devices are made at once, when the first is needed. The
// program's environment decides what it shows of the device (list
// attributes only with ListTypeAttributes, as upstream's environment).
func (a *Allocator) input(e *sliceEntry, d int) *cel.Input {
	if e.inputs == nil {
		e.inputs = cel.NewInputs(e.driver, e.devices)
	}
	e.inputsLent = true
	return &e.inputs[d]
}

// freeVariables drops the CEL variables the entry's inputs hold, which
// are big compared with a device, keeping what the fast path learnt
// about the devices; results are kept, so the variables are rarely
// needed twice. Only inputs lent since the last time can hold any: a
// call on a node whose selectors were all judged before lends none, and
// then reads no input (a slice of 8 devices has 9 cache lines of them).
func (e *sliceEntry) freeVariables() {
	if !e.inputsLent {
		return
	}
	e.inputsLent = false
	for i := range e.inputs {
		e.inputs[i].FreeVariables()
	}
}

// capacityNeeds remembers capacityNeed per device of a slice for one set
// of capacity requests (capacityKey).
type capacityNeeds struct {
	known []bool
	need  []map[resource.QualifiedName]apiresource.Quantity
	// ok: the device serves the request (its policies allow the amounts)
	// and has the capacity for it when nothing else is consumed.
	ok  []bool
	err []error
	// amounts are the device's capacities with what the request takes of
	// each, as a list: fitsConsumed walks it on every call, where the
	// maps would cost an iteration and a lookup per capacity.
	amounts [][]capacityAmount
}

// capacityAmount is one capacity of a device and what a request takes;
// whole is set when both are whole numbers (capacityV, needV), which
// fitsConsumed then adds without Quantity arithmetic.
type capacityAmount struct {
	name           resource.QualifiedName
	capacity, need apiresource.Quantity
	whole          bool
	capacityV      int64
	needV          int64
}

// capacityAmounts lists the device's capacities with the need of each.
func capacityAmounts(dev *resource.Device, need map[resource.QualifiedName]apiresource.Quantity) []capacityAmount {
	amounts := make([]capacityAmount, 0, len(dev.Capacity))
	for name, cp := range dev.Capacity {
		amount := capacityAmount{name: name, capacity: cp.Value, need: need[name]}
		amount.capacityV, amount.whole = amount.capacity.AsInt64()
		if v, ok := amount.need.AsInt64(); ok && amount.whole && v >= 0 && v <= amount.capacityV {
			amount.needV = v
		} else {
			amount.whole = false
		}
		amounts = append(amounts, amount)
	}
	return amounts
}

// fitsConsumed reports whether a request that fits into a device's
// capacities on its own (capacityNeeds.ok) still fits on top of what is
// consumed (nil: nothing).
func fitsConsumed(amounts []capacityAmount, consumed map[resource.QualifiedName]apiresource.Quantity) bool {
	if len(consumed) == 0 {
		return true
	}
	for i := range amounts {
		c := &amounts[i]
		q, ok := consumed[c.name]
		if !ok {
			continue
		}
		if c.whole {
			// Both are at most MaxInt64, so is the capacity: the sum
			// overflows only beyond it.
			if v, ok := q.AsInt64(); ok && v >= 0 {
				if v > c.capacityV-c.needV {
					return false
				}
				continue
			}
		}
		sum := c.need.DeepCopy()
		sum.Add(q)
		if sum.Cmp(c.capacity) > 0 {
			return false
		}
	}
	return true
}

// capacityKey names a set of capacity requests by content. The keys recur
// from call to call (a scheduler asks node after node for the same
// claims): the Allocator keeps one string per key.
func (a *Allocator) capacityKey(req *resource.CapacityRequirements) string {
	if req == nil || len(req.Requests) == 0 {
		return ""
	}
	var one [1]string
	names := one[:0]
	for n := range req.Requests {
		names = append(names, string(n))
	}
	sort.Strings(names)
	var buf [128]byte
	b := buf[:0]
	for _, n := range names {
		q := req.Requests[resource.QualifiedName(n)]
		b = append(b, n...)
		b = append(b, '=')
		// The amount and the format: a request without a policy is
		// taken as written. Whole amounts are written without the
		// allocations of Quantity.String.
		if v, ok := q.AsInt64(); ok {
			b = strconv.AppendInt(b, v, 10)
		} else {
			b = append(b, q.String()...)
		}
		b = append(b, ' ')
		b = append(b, q.Format...)
		b = append(b, ',')
	}
	key, ok := a.capacityKeys[string(b)]
	if !ok {
		if a.capacityKeys == nil || len(a.capacityKeys) >= maxMaskKeys {
			a.capacityKeys = make(map[string]string)
		}
		key = string(b)
		a.capacityKeys[key] = key
	}
	return key
}

// capacityNeedsIn are the needs of the requests with the capacity
// requests of key (capacityKey) of the entry's devices, made when first
// asked for.
func (a *Allocator) capacityNeedsIn(e *sliceEntry, key string) *capacityNeeds {
	if e.capNeeds == nil {
		e.capNeeds = map[string]*capacityNeeds{}
	}
	c := e.capNeeds[key]
	if c == nil {
		n := len(e.devices)
		c = &capacityNeeds{known: make([]bool, n), need: make([]map[resource.QualifiedName]apiresource.Quantity, n), ok: make([]bool, n), err: make([]error, n), amounts: make([][]capacityAmount, n)}
		e.capNeeds[key] = c
	}
	return c
}

// needOf is capacityNeed of device d of the entry (the one c belongs to),
// remembered, with ok false also when the device's capacities cannot hold
// the need on their own (fitsCapacity), and the need as a list for
// fitsConsumed. What it returns must not be changed.
func (c *capacityNeeds) needOf(a *Allocator, e *sliceEntry, d int, req *resource.CapacityRequirements) (map[resource.QualifiedName]apiresource.Quantity, []capacityAmount, bool, error) {
	if !c.known[d] {
		dev := &e.devices[d]
		need, ok, err := capacityNeed(dev, req, a.features.FractionalCapacityRange)
		if ok && err == nil {
			ok = fitsCapacity(dev, need)
			c.amounts[d] = capacityAmounts(dev, need)
		}
		c.need[d], c.ok[d], c.err[d] = need, ok, err
		c.known[d] = true
	}
	return c.need[d], c.amounts[d], c.ok[d], c.err[d]
}
