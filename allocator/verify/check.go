package verify

import (
	"context"
	"fmt"
	"iter"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/cel"
	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/internal/quantityguard"
)

// Checker checks the allocations of one call. Devices allocated by earlier
// Check calls count as taken for later ones, and their shares and counters
// as consumed.
type Checker struct {
	inv *Inventory
	// outOfBound are the quantities of the inventory beyond
	// quantityguard's bound: Check reports them and checks nothing else,
	// since comparing them could take unbounded time.
	outOfBound []error
	visible    map[DeviceID]device
	pools      map[poolID][]*resource.ResourceSlice
	// inUse are devices held before the call: Inventory.InUse and the
	// non-admin, unshared results of Inventory.Allocations.
	inUse map[DeviceID]bool
	// taken are the devices earlier claims of the call hold.
	taken map[DeviceID]string
	// shares are the shareIDs of each multi-allocation device, consumed
	// the capacity they take together.
	shares   map[DeviceID]map[types.UID]bool
	consumed map[DeviceID]map[resource.QualifiedName]apiresource.Quantity
	// counting are the devices whose counters are consumed: held before
	// the call, or allocated in it (adminAccess too: upstream reserves
	// their counters for the call).
	counting map[DeviceID]bool
	// programs, derived and inputs cache compiled selectors, derived
	// attributes' expressions and selector inputs.
	programs map[string]*cel.Program
	derived  map[string]*cel.Program
	inputs   map[DeviceID]*cel.Input
}

// NewChecker prepares a checker for an inventory.
func NewChecker(inv *Inventory) *Checker {
	c := &Checker{inv: inv, visible: inv.visible(), pools: inv.newestSlices(), inUse: map[DeviceID]bool{}, taken: map[DeviceID]string{},
		shares: map[DeviceID]map[types.UID]bool{}, consumed: map[DeviceID]map[resource.QualifiedName]apiresource.Quantity{}, counting: map[DeviceID]bool{},
		programs: map[string]*cel.Program{}, derived: map[string]*cel.Program{}, inputs: map[DeviceID]*cel.Input{}}
	if c.outOfBound = inventoryOutOfBound(inv); len(c.outOfBound) > 0 {
		return c
	}
	for id, on := range inv.InUse {
		if on {
			c.inUse[id], c.counting[id] = true, true
		}
	}
	for _, a := range inv.Allocations {
		if a == nil {
			continue
		}
		for _, r := range a.Devices.Results {
			id := DeviceID{r.Driver, r.Pool, r.Device}
			switch {
			case r.AdminAccess != nil && *r.AdminAccess:
			case r.ShareID != nil:
				c.addShare(id, *r.ShareID, r.ConsumedCapacity)
				c.counting[id] = true
			default:
				c.inUse[id], c.counting[id] = true, true
			}
		}
	}
	return c
}

// inventoryOutOfBound lists the quantities of the inventory's slices and
// allocations beyond quantityguard's bound.
func inventoryOutOfBound(inv *Inventory) []error {
	var errs []error
	for _, s := range inv.Slices {
		if s == nil {
			continue
		}
		for _, e := range quantityguard.CheckFields(&s.Spec, field.NewPath("spec")) {
			errs = append(errs, fmt.Errorf("ResourceSlice %q: %v", s.Name, e))
		}
	}
	for i, a := range inv.Allocations {
		for _, e := range quantityguard.CheckFields(a, field.NewPath("status", "allocation")) {
			errs = append(errs, fmt.Errorf("allocation %d: %v", i, e))
		}
	}
	return errs
}

func (c *Checker) addShare(id DeviceID, share types.UID, consumed map[resource.QualifiedName]apiresource.Quantity) {
	if c.shares[id] == nil {
		c.shares[id] = map[types.UID]bool{}
		c.consumed[id] = map[resource.QualifiedName]apiresource.Quantity{}
	}
	c.shares[id][share] = true
	for n, q := range consumed {
		sum := c.consumed[id][n]
		sum.Add(q)
		c.consumed[id][n] = sum
	}
}

func (c *Checker) class(name string) *resource.DeviceClass {
	for _, cl := range c.inv.Classes {
		if cl.Name == name {
			return cl
		}
	}
	return nil
}

// matches evaluates selectors on a device in the environment the
// allocation was made in (celOptions).
func (c *Checker) matches(d device, sels []resource.DeviceSelector) (bool, error) {
	for _, s := range sels {
		if s.CEL == nil {
			return false, fmt.Errorf("selector without CEL")
		}
		p, ok := c.programs[s.CEL.Expression]
		if !ok {
			var err error
			if p, err = cel.Compile(s.CEL.Expression, c.celOptions()); err != nil {
				return false, err
			}
			c.programs[s.CEL.Expression] = p
		}
		if ok, err := p.Matches(context.Background(), c.input(d)); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// celOptions are the environment the allocation was made in: 1.31's of
// stored expressions for the zero Features, else that of the release
// drakit follows for the stored expressions the scheduler finds (with
// device.allowMultipleAllocations, and list attributes in the input with
// ListTypeAttributes).
func (c *Checker) celOptions() cel.Options {
	f := c.inv.Features
	if f.legacy() {
		return cel.Options{Release: 31, Stored: true}
	}
	return cel.Options{Stored: true, Gates: features.Defaults().With(features.DRAListTypeAttributes, f.ListTypeAttributes)}
}

// input is what an expression sees of a device.
func (c *Checker) input(d device) *cel.Input {
	id := DeviceID{d.slice.Spec.Driver, d.slice.Spec.Pool.Name, d.dev.Name}
	in, ok := c.inputs[id]
	if !ok {
		in = cel.NewInput(id.Driver, d.dev)
		c.inputs[id] = in
	}
	return in
}

// selectable is upstream's rule that, with the 1.37 rules but without
// DeviceBindingAndStatus, a device with binding conditions is never
// selected, not even by an All request.
func (c *Checker) selectable(d device) bool {
	f := c.inv.Features
	return f.legacy() || f.DeviceBindingAndStatus || len(d.dev.BindingConditions) == 0
}

// Check verifies one claim's allocation. Every problem is reported. The
// stages: the quantities are within bound; each result is checked on its
// own (checkResult); then what the results do together: shares within
// capacity, the number of results, one alternative per request with its
// count, constraints, counters and compatibility groups, the node
// selector and the configuration.
func (c *Checker) Check(claim *resource.ResourceClaim, alloc *resource.AllocationResult) []error {
	if alloc == nil {
		return []error{fmt.Errorf("no allocation")}
	}
	if len(c.outOfBound) > 0 {
		return c.outOfBound
	}
	if errs := append(quantityguard.CheckFields(&claim.Spec, field.NewPath("spec")), quantityguard.CheckFields(alloc, field.NewPath("status", "allocation"))...); len(errs) > 0 {
		out := make([]error, len(errs))
		for i, e := range errs {
			out[i] = e
		}
		return out
	}
	k := &claimCheck{Checker: c, claim: claim, alloc: alloc, got: map[string][]DeviceID{}, owners: map[DeviceID]string{}, countersTouched: map[poolID]bool{}}
	k.specs, k.alternatives, k.order = specsOf(claim)
	for _, q := range k.specs {
		if len(q.derived) > 0 && !c.inv.Features.DerivedAttributes {
			k.bad("request %s: has derived attributes, but the DerivedAttributes feature is off", q.name)
		}
	}
	for _, r := range alloc.Devices.Results {
		k.checkResult(r)
	}
	k.checkShares()
	k.markTaken()
	if len(alloc.Devices.Results) > 32 {
		k.bad("%d results, more than 32", len(alloc.Devices.Results))
	}
	k.checkCounts()
	c.checkConstraints(claim, alloc, k.specs, k.bad)
	k.checkCounters()
	k.checkNodeSelector()
	c.checkConfig(claim, alloc, k.chosen, k.order, k.bad)
	return k.errs
}

// claimCheck is what Check learns about one claim's allocation on the way.
type claimCheck struct {
	*Checker
	claim *resource.ResourceClaim
	alloc *resource.AllocationResult
	errs  []error

	specs        map[string]*reqSpec
	alternatives map[string][]string
	order        []string
	// got are the devices of each request (or alternative).
	got map[string][]DeviceID
	// owners are the unshared non-admin devices of this claim.
	owners map[DeviceID]string
	// nodeLocal: a device is usable on the node only.
	nodeLocal       bool
	countersTouched map[poolID]bool
	newShares       []newShare
	// chosen is the alternative allocated for each request.
	chosen map[string]*reqSpec
}

// newShare is one share of a multi-allocation device made by the claim.
type newShare struct {
	id       DeviceID
	uid      types.UID
	consumed map[resource.QualifiedName]apiresource.Quantity
}

func (k *claimCheck) bad(format string, args ...any) {
	k.errs = append(k.errs, fmt.Errorf(format, args...))
}

// checkResult checks one result on its own: a known request, a device the
// node reaches and may get, its class and selectors, admin access, no
// device twice, taints, binding conditions and capacity.
func (k *claimCheck) checkResult(r resource.DeviceRequestAllocationResult) {
	f := k.inv.Features
	id := DeviceID{r.Driver, r.Pool, r.Device}
	q := k.specs[r.Request]
	if q == nil {
		k.bad("result for unknown request %q", r.Request)
		return
	}
	d, ok := k.visible[id]
	if !ok {
		k.bad("request %s: device %s is not a device the node reaches in the newest generation of its pool", r.Request, id)
		return
	}
	if !k.selectable(d) {
		k.bad("request %s: device %s has binding conditions, which are not used without DeviceBindingAndStatus", r.Request, id)
	}
	if d.slice.Spec.NodeName != nil && *d.slice.Spec.NodeName != "" || d.dev.NodeName != nil && *d.dev.NodeName != "" {
		k.nodeLocal = true
	}
	if f.DeviceBindingAndStatus && d.dev.BindsToNode != nil && *d.dev.BindsToNode {
		k.nodeLocal = true
	}
	shared := f.ConsumableCapacity && multi(d.dev)
	if !shared {
		for _, prev := range k.got[r.Request] {
			if prev == id {
				k.bad("request %s: device %s allocated twice", r.Request, id)
			}
		}
	}
	k.got[r.Request] = append(k.got[r.Request], id)
	if class := k.class(q.class); class == nil {
		k.bad("request %s: class %q does not exist", r.Request, q.class)
	} else if ok, err := k.matches(d, class.Spec.Selectors); !ok {
		k.bad("request %s: device %s does not pass the selectors of class %s (%v)", r.Request, id, class.Name, err)
	}
	if ok, err := k.matches(d, q.selectors); !ok {
		k.bad("request %s: device %s does not pass the request's selectors (%v)", r.Request, id, err)
	}
	if gotAdmin := r.AdminAccess != nil && *r.AdminAccess; f.AdminAccess && gotAdmin != q.admin {
		k.bad("request %s: result says adminAccess %v, the request %v", r.Request, gotAdmin, q.admin)
	}
	if !q.admin && !shared {
		k.checkOwner(r.Request, id)
	}
	if f.DeviceTaints {
		k.checkTaints(r, q, d)
	}
	if f.DeviceBindingAndStatus && (!sameList(r.BindingConditions, d.dev.BindingConditions) || !sameList(r.BindingFailureConditions, d.dev.BindingFailureConditions)) {
		k.bad("request %s: device %s: binding conditions %v/%v, the device has %v/%v", r.Request, id,
			r.BindingConditions, r.BindingFailureConditions, d.dev.BindingConditions, d.dev.BindingFailureConditions)
	}
	if f.ConsumableCapacity {
		k.checkCapacity(r, q, d, shared)
	}
	if f.PartitionableDevices && consumesCounters(d.dev) {
		k.counting[id] = true
		k.countersTouched[poolID{id.Driver, id.Pool}] = true
	}
}

// checkOwner: an unshared non-admin device belongs to one request of the
// call, and was free before it.
func (k *claimCheck) checkOwner(request string, id DeviceID) {
	if owner, ok := k.owners[id]; ok && owner != request {
		k.bad("request %s: device %s is also allocated to request %s of the claim", request, id, owner)
	}
	k.owners[id] = request
	if k.inUse[id] {
		k.bad("request %s: device %s was already allocated", request, id)
	}
	if owner, ok := k.taken[id]; ok {
		k.bad("request %s: device %s is also allocated to %s", request, id, owner)
	}
}

// checkTaints: the result copies the request's tolerations, which
// tolerate every taint of the device that blocks.
func (k *claimCheck) checkTaints(r resource.DeviceRequestAllocationResult, q *reqSpec, d device) {
	if !sameList(r.Tolerations, q.tolerations) {
		k.bad("request %s: result tolerations %v, the request has %v", r.Request, r.Tolerations, q.tolerations)
	}
	for _, t := range k.inv.taintsOf(r.Driver, r.Pool, d.dev) {
		if blocking(t) && !tolerated(q.tolerations, t) {
			k.bad("request %s: device %s has the taint %s=%s:%s, which the request does not tolerate", r.Request, DeviceID{r.Driver, r.Pool, r.Device}, t.Key, t.Value, t.Effect)
		}
	}
}

// checkCapacity (ConsumableCapacity): a share of a multi-allocation device
// has a new shareID and consumes what the request policy gives; any other
// device has neither, and its capacity covers the request's.
func (k *claimCheck) checkCapacity(r resource.DeviceRequestAllocationResult, q *reqSpec, d device, shared bool) {
	id := DeviceID{r.Driver, r.Pool, r.Device}
	want, err := consumption(d.dev, q.capacity)
	switch {
	case err != nil:
		k.bad("request %s: device %s: %v", r.Request, id, err)
	case shared:
		switch {
		case r.ShareID == nil:
			k.bad("request %s: device %s allows multiple allocations but the result has no shareID", r.Request, id)
		case k.shares[id][*r.ShareID]:
			k.bad("request %s: device %s: shareID %s is already in use", r.Request, id, *r.ShareID)
		}
		if !sameQuantities(r.ConsumedCapacity, want) {
			k.bad("request %s: device %s: consumedCapacity %s, the request policy gives %s", r.Request, id, quantities(r.ConsumedCapacity), quantities(want))
		}
		if r.ShareID != nil && !q.admin {
			k.newShares = append(k.newShares, newShare{id, *r.ShareID, r.ConsumedCapacity})
			k.addShare(id, *r.ShareID, r.ConsumedCapacity)
		}
	default:
		if r.ShareID != nil || len(r.ConsumedCapacity) > 0 {
			k.bad("request %s: device %s does not allow multiple allocations but the result has a shareID or consumedCapacity", r.Request, id)
		}
		if q.capacity != nil {
			for n, v := range want {
				if v.Cmp(d.dev.Capacity[n].Value) > 0 {
					k.bad("request %s: device %s: capacity %s needs %s, the device has %s", r.Request, id, n, v.String(), capacityOf(d.dev, n).String())
				}
			}
		}
	}
}

// checkShares: the shares of each device, old and new, fit its capacity.
func (k *claimCheck) checkShares() {
	checked := map[DeviceID]bool{}
	for _, s := range k.newShares {
		if checked[s.id] {
			continue
		}
		checked[s.id] = true
		d := k.visible[s.id]
		for n, total := range k.consumed[s.id] {
			if capa, ok := d.dev.Capacity[n]; ok && total.Cmp(capa.Value) > 0 {
				k.bad("device %s: capacity %s: %s consumed by its shares, %s available", s.id, n, total.String(), capa.Value.String())
			}
		}
	}
}

// markTaken records the claim's unshared non-admin devices as taken for
// the claims checked after it.
func (k *claimCheck) markTaken() {
	f := k.inv.Features
	for _, r := range k.alloc.Devices.Results {
		if q := k.specs[r.Request]; q != nil && !q.admin {
			id := DeviceID{r.Driver, r.Pool, r.Device}
			if d, ok := k.visible[id]; ok && !(f.ConsumableCapacity && multi(d.dev)) {
				k.taken[id] = k.claim.Namespace + "/" + k.claim.Name + "/" + r.Request
			}
		}
	}
}

// checkCounts: per request one alternative is used, with its count (or
// every device, for All).
func (k *claimCheck) checkCounts() {
	k.chosen = map[string]*reqSpec{}
	for _, name := range k.order {
		var used []string
		for _, alt := range k.alternatives[name] {
			if len(k.got[alt]) > 0 {
				used = append(used, alt)
			}
		}
		switch {
		case len(used) > 1:
			k.bad("request %s: results for several alternatives %v", name, used)
			continue
		case len(used) == 1:
			k.chosen[name] = k.specs[used[0]]
		case len(k.alternatives[name]) == 1 && k.alternatives[name][0] == name:
			k.chosen[name] = k.specs[name] // an exact request without devices
		default:
			k.bad("request %s: no alternative allocated", name)
			continue
		}
		q := k.chosen[name]
		if q.mode == resource.DeviceAllocationModeAll {
			k.checkAll(q, k.got[q.name], k.bad)
			continue
		}
		if n := len(k.got[q.name]); int64(n) != q.countWanted() {
			k.bad("request %s: %d devices, asks for %d", q.name, n, q.countWanted())
		}
	}
}

// checkCounters: the counter sets of the pools the claim consumes from
// are not over-consumed, and (CompatibilityGroups) their devices agree on
// a group.
func (k *claimCheck) checkCounters() {
	for p := range k.countersTouched {
		k.errs = append(k.errs, k.overConsumedIn(p)...)
		if k.inv.Features.CompatibilityGroups {
			k.errs = append(k.errs, k.incompatibleIn(p)...)
		}
	}
}

// checkNodeSelector: where the devices can be used. A node-local device
// pins the allocation to the node; otherwise the selector admits it.
func (k *claimCheck) checkNodeSelector() {
	node, sel := k.inv.Node, k.alloc.NodeSelector
	switch {
	case k.nodeLocal:
		want := &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{
			Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{node.Name}}}}}}
		if !reflect.DeepEqual(sel, want) {
			k.bad("node selector %v, want the node %s", sel, node.Name)
		}
	case node != nil && sel != nil && !selectorMatches(sel, node):
		k.bad("node selector %v does not admit node %s", sel, node.Name)
	}
}

// checkAll: an All request gets every selectable device its class and
// selectors accept among those the node reaches; with consumable capacity, only
// those whose capacity could serve the request's capacity requests on an
// unused device (upstream leaves the others out of "all", while capacity
// taken by other shares makes the request fail).
func (c *Checker) checkAll(q *reqSpec, got []DeviceID, bad func(string, ...any)) {
	class := c.class(q.class)
	if class == nil {
		return
	}
	want := 0
	for id, d := range c.visible {
		if !c.selectable(d) {
			continue
		}
		ok1, _ := c.matches(d, class.Spec.Selectors)
		ok2, _ := c.matches(d, q.selectors)
		if !ok1 || !ok2 || c.inv.Features.ConsumableCapacity && !fitsEmpty(d.dev, q.capacity) {
			continue
		}
		want++
		found := false
		for _, g := range got {
			found = found || g == id
		}
		if !found {
			bad("request %s (All): matching device %s not allocated", q.name, id)
		}
	}
	if len(got) != want {
		bad("request %s (All): %d devices, %d match", q.name, len(got), want)
	}
}

// checkConstraints: matchAttribute gives every covered device the same
// value of the attribute, distinctAttribute pairwise different values.
func (c *Checker) checkConstraints(claim *resource.ResourceClaim, alloc *resource.AllocationResult, specs map[string]*reqSpec, bad func(string, ...any)) {
	for i, con := range claim.Spec.Devices.Constraints {
		attr := con.MatchAttribute
		if attr == nil {
			attr = con.DistinctAttribute
		}
		if attr == nil {
			continue
		}
		if c.inv.Features.ListTypeAttributes {
			c.checkSetConstraint(i, &con, *attr, alloc, specs, bad)
			continue
		}
		var seen []*resource.DeviceAttribute
		for id, a := range c.coveredValues(i, &con, *attr, alloc, specs, bad) {
			if a == nil {
				bad("constraint %d: device %s lacks %s", i, id, *attr)
				continue
			}
			for _, s := range seen {
				if con.MatchAttribute != nil && !sameValue(s, a) {
					bad("constraint %d: device %s has a different %s", i, id, *attr)
					break
				}
				if con.DistinctAttribute != nil && sameValue(s, a) {
					bad("constraint %d: device %s has the same %s as another device", i, id, *attr)
					break
				}
			}
			seen = append(seen, a)
		}
	}
}

// checkSetConstraint judges a constraint as upstream's experimental
// allocator does with ListTypeAttributes: every value is a set (a single
// value one of one element; a list without elements is no value at all),
// matchAttribute needs an element that all covered devices have (each pair
// sharing one is not enough), distinctAttribute pairwise disjoint sets.
// Elements of different types are never equal.
func (c *Checker) checkSetConstraint(i int, con *resource.DeviceConstraint, attr resource.FullyQualifiedName, alloc *resource.AllocationResult, specs map[string]*reqSpec, bad func(string, ...any)) {
	var common map[string]bool     // matchAttribute: what the devices so far share
	owner := map[string]DeviceID{} // distinctAttribute: which device has an element
	first := true
	for id, a := range c.coveredValues(i, con, attr, alloc, specs, bad) {
		elems := attributeElements(a)
		if len(elems) == 0 {
			bad("constraint %d: device %s lacks %s (or its list is empty)", i, id, attr)
			continue
		}
		if con.DistinctAttribute != nil {
			for _, e := range elems {
				if other, taken := owner[e]; taken && other != id {
					bad("constraint %d: device %s shares a value of %s with device %s", i, id, attr, other)
					break
				}
				owner[e] = id
			}
			continue
		}
		if first {
			common = map[string]bool{}
			for _, e := range elems {
				common[e] = true
			}
			first = false
			continue
		}
		has := map[string]bool{}
		for _, e := range elems {
			has[e] = true
		}
		for e := range common {
			if !has[e] {
				delete(common, e)
			}
		}
		if len(common) == 0 {
			bad("constraint %d: device %s has no value of %s in common with the devices before it", i, id, attr)
			return
		}
	}
}

// coveredValues yields each allocated device that constraint i covers and
// that the checker sees, with the value the constraint compares for it
// (nil when the device lacks it); a value that cannot be worked out is
// reported through bad and the device skipped.
func (c *Checker) coveredValues(i int, con *resource.DeviceConstraint, attr resource.FullyQualifiedName, alloc *resource.AllocationResult, specs map[string]*reqSpec, bad func(string, ...any)) iter.Seq2[DeviceID, *resource.DeviceAttribute] {
	return func(yield func(DeviceID, *resource.DeviceAttribute) bool) {
		for _, r := range alloc.Devices.Results {
			q := specs[r.Request]
			if q == nil || !q.appliesTo(con.Requests) {
				continue
			}
			id := DeviceID{r.Driver, r.Pool, r.Device}
			d, ok := c.visible[id]
			if !ok {
				continue
			}
			a, err := c.constraintValue(q, d, attr)
			if err != nil {
				bad("constraint %d: device %s: %v", i, id, err)
				continue
			}
			if !yield(id, a) {
				return
			}
		}
	}
}

// constraintValue is the value a constraint compares for a device of the
// request: that of the request's derived attribute of the name (the last
// one, as upstream keeps them in a map), evaluated on the device, if it
// has one, else the device's attribute.
func (c *Checker) constraintValue(q *reqSpec, d device, name resource.FullyQualifiedName) (*resource.DeviceAttribute, error) {
	j := -1
	for i := range q.derived {
		if q.derived[i].Name == name {
			j = i
		}
	}
	if j < 0 {
		return lookup(d, name), nil
	}
	expr := q.derived[j].Expression
	p, ok := c.derived[expr]
	if !ok {
		opts := c.celOptions()
		opts.DerivedAttribute = true
		var err error
		if p, err = cel.Compile(expr, opts); err != nil {
			return nil, fmt.Errorf("derived attribute %s of request %s: %w", name, q.name, err)
		}
		c.derived[expr] = p
	}
	value, err := p.Derive(context.Background(), c.input(d))
	if err != nil {
		return nil, fmt.Errorf("derived attribute %s of request %s: expression %q failed: %w", name, q.name, expr, err)
	}
	return value, nil
}

// attributeElements are the elements of an attribute's value, each named
// with its type, a single value being one element.
func attributeElements(a *resource.DeviceAttribute) []string {
	if a == nil {
		return nil
	}
	var out []string
	switch {
	case a.IntValue != nil:
		out = append(out, fmt.Sprintf("int %d", *a.IntValue))
	case a.BoolValue != nil:
		out = append(out, fmt.Sprintf("bool %t", *a.BoolValue))
	case a.StringValue != nil:
		out = append(out, "string "+*a.StringValue)
	case a.VersionValue != nil:
		out = append(out, "version "+*a.VersionValue)
	}
	for _, n := range a.IntValues {
		out = append(out, fmt.Sprintf("int %d", n))
	}
	for _, b := range a.BoolValues {
		out = append(out, fmt.Sprintf("bool %t", b))
	}
	for _, s := range a.StringValues {
		out = append(out, "string "+s)
	}
	for _, v := range a.VersionValues {
		out = append(out, "version "+v)
	}
	return out
}

// checkConfig accepts the configuration in either of two forms: upstream
// v0.37.2's (each class's configs once, naming every request that uses the
// class; the claim's configs that name a request or the chosen
// alternative; a config that covers every request lists none), or 1.31's
// (class configs once per request, every claim config as written).
func (c *Checker) checkConfig(claim *resource.ResourceClaim, alloc *resource.AllocationResult, chosen map[string]*reqSpec, order []string, bad func(string, ...any)) {
	var perRequest, grouped []resource.DeviceAllocationConfiguration
	firstOfClass := map[string]int{}
	for _, name := range order {
		q := chosen[name]
		if q == nil {
			continue
		}
		class := c.class(q.class)
		if class == nil {
			continue
		}
		for _, cfg := range class.Spec.Config {
			perRequest = append(perRequest, resource.DeviceAllocationConfiguration{Source: resource.AllocationConfigSourceClass, Requests: []string{q.name}, DeviceConfiguration: cfg.DeviceConfiguration})
		}
		if start, ok := firstOfClass[class.Name]; ok {
			for i := range class.Spec.Config {
				grouped[start+i].Requests = append(grouped[start+i].Requests, q.name)
			}
			continue
		}
		firstOfClass[class.Name] = len(grouped)
		for _, cfg := range class.Spec.Config {
			grouped = append(grouped, resource.DeviceAllocationConfiguration{Source: resource.AllocationConfigSourceClass, Requests: []string{q.name}, DeviceConfiguration: cfg.DeviceConfiguration})
		}
	}
	for _, cfg := range claim.Spec.Devices.Config {
		perRequest = append(perRequest, resource.DeviceAllocationConfiguration{Source: resource.AllocationConfigSourceClaim, Requests: cfg.Requests, DeviceConfiguration: cfg.DeviceConfiguration})
		keep := len(cfg.Requests) == 0
		for _, name := range order {
			if q := chosen[name]; q != nil && (contains(cfg.Requests, name) || contains(cfg.Requests, q.name)) {
				keep = true
			}
		}
		if keep {
			grouped = append(grouped, resource.DeviceAllocationConfiguration{Source: resource.AllocationConfigSourceClaim, Requests: cfg.Requests, DeviceConfiguration: cfg.DeviceConfiguration})
		}
	}
	for i := range grouped {
		all := len(grouped[i].Requests) > 0
		for _, name := range order {
			if q := chosen[name]; q == nil || !contains(grouped[i].Requests, name) && !contains(grouped[i].Requests, q.name) {
				all = false
			}
		}
		if all {
			grouped[i].Requests = nil
		}
	}
	same := func(want []resource.DeviceAllocationConfiguration) bool {
		return len(want) == len(alloc.Devices.Config) && (len(want) == 0 || reflect.DeepEqual(want, alloc.Devices.Config))
	}
	if !same(perRequest) && !same(grouped) {
		bad("config %+v, want %+v", alloc.Devices.Config, grouped)
	}
}
