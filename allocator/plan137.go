package allocator

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/cel"
)

// requestSpec is one exact request or one alternative (sub-request) of a
// firstAvailable request, read the same way.
type requestSpec struct {
	name        string // in results: "request" or "request/subrequest"
	parent      string // the request's name
	index       int    // of the request in spec.devices.requests
	sub         int    // of the alternative in firstAvailable; -1 for an exact request
	className   string
	selectors   []resource.DeviceSelector
	mode        resource.DeviceAllocationMode
	count       int64
	admin       bool
	adminSet    bool
	tolerations []resource.DeviceToleration
	capacity    *resource.CapacityRequirements
	derived     bool
	derivedAttr []resource.DeviceDerivedAttribute
}

// fieldPath is the field path of the exact request or the alternative,
// for messages.
func (s *requestSpec) fieldPath() string {
	if s.sub < 0 {
		return fmt.Sprintf("spec.devices.requests[%d].exactly", s.index)
	}
	return fmt.Sprintf("spec.devices.requests[%d].firstAvailable[%d]", s.index, s.sub)
}

func exactSpec(request *resource.DeviceRequest, path fieldPath) requestSpec {
	e := request.Exactly
	return requestSpec{
		name: request.Name, parent: request.Name, index: path.index, sub: -1,
		className: e.DeviceClassName, selectors: e.Selectors, mode: e.AllocationMode, count: e.Count,
		admin: e.AdminAccess != nil && *e.AdminAccess, adminSet: e.AdminAccess != nil,
		tolerations: e.Tolerations, capacity: e.Capacity, derived: len(e.DerivedAttributes) > 0, derivedAttr: e.DerivedAttributes,
	}
}

func subSpec(request *resource.DeviceRequest, j int, path fieldPath) requestSpec {
	s := &request.FirstAvailable[j]
	return requestSpec{
		name: request.Name + "/" + s.Name, parent: request.Name, index: path.index, sub: j,
		className: s.DeviceClassName, selectors: s.Selectors, mode: s.AllocationMode, count: s.Count,
		tolerations: s.Tolerations, capacity: s.Capacity, derived: len(s.DerivedAttributes) > 0, derivedAttr: s.DerivedAttributes,
	}
}

// prepare137 is prepare with the semantics of upstream v0.37.2 and the
// Allocator's features.
func (a *Allocator) prepare137(call *callState, p *claimPlan) (*claimPlan, error) {
	f := a.features
	spec := &p.claim.Spec
	specs := a.specLists[:0]
	named := func(name string, before int) bool {
		for k := 0; k < before; k++ {
			if spec.Devices.Requests[k].Name == name {
				return true
			}
		}
		return false
	}
	for i := range spec.Devices.Requests {
		request := &spec.Devices.Requests[i]
		path := fieldPath{"spec.devices.requests", i}
		switch {
		case request.Name == "":
			return p.fail("", ReasonInvalidClaim, nil, "%s.name is empty", path), nil
		case named(request.Name, i):
			return p.fail(request.Name, ReasonInvalidClaim, nil, "%s.name: two requests are named %q", path, request.Name), nil
		case request.Exactly != nil && len(request.FirstAvailable) > 0:
			return p.fail(request.Name, ReasonInvalidClaim, nil, "%s sets both exactly and firstAvailable", path), nil
		case request.Exactly == nil && len(request.FirstAvailable) == 0:
			return p.fail(request.Name, ReasonInvalidClaim, nil, "%s sets neither exactly nor firstAvailable", path), nil
		case len(request.FirstAvailable) > 0 && !f.PrioritizedList:
			return p.fail(request.Name, ReasonFeatureDisabled, nil, "%s.firstAvailable is set, but the PrioritizedList feature (gate DRAPrioritizedList) is off", path), nil
		}
		var alts []requestSpec
		if request.Exactly != nil {
			// One request, one spec: no list of alternatives to make.
			alts = a.exactSpecs.next()[:0]
			alts = append(alts, exactSpec(request, path))
		} else {
			subNames := map[string]bool{}
			for j := range request.FirstAvailable {
				s := subSpec(request, j, path)
				sub := request.FirstAvailable[j].Name
				if sub == "" || subNames[sub] {
					return p.fail(request.Name, ReasonInvalidClaim, nil, "%s.name is empty or used twice", s.fieldPath()), nil
				}
				subNames[sub] = true
				alts = append(alts, s)
			}
		}
		for _, s := range alts {
			switch {
			case s.capacity != nil && !f.ConsumableCapacity:
				return p.fail(s.name, ReasonFeatureDisabled, nil, "%s.capacity is set, but the ConsumableCapacity feature (gate DRAConsumableCapacity) is off", s.fieldPath()), nil
			case s.derived && !f.DerivedAttributes:
				return p.fail(s.name, ReasonFeatureDisabled, nil, "%s.derivedAttributes is set, but the DerivedAttributes feature (gate DRADerivedAttributes) is off", s.fieldPath()), nil
			case s.adminSet && !f.AdminAccess:
				return p.fail(s.name, ReasonFeatureDisabled, nil, "%s.adminAccess is set, but the AdminAccess feature (gate DRAAdminAccess) is off", s.fieldPath()), nil
			case s.className == "":
				return p.fail(s.name, ReasonInvalidClaim, nil, "%s.deviceClassName is empty", s.fieldPath()), nil
			}
			for j, sel := range s.selectors {
				if sel.CEL == nil {
					return p.fail(s.name, ReasonInvalidClaim, nil, "%s.selectors[%d] has no cel selector", s.fieldPath(), j), nil
				}
			}
		}
		specs = append(specs, alts)
	}
	for i, c := range spec.Devices.Constraints {
		path := fieldPath{"spec.devices.constraints", i}
		con := &constraintPlan{index: i, requests: c.Requests}
		switch {
		case c.MatchAttribute != nil:
			con.attribute = *c.MatchAttribute
		case c.DistinctAttribute != nil:
			con.attribute, con.distinct = *c.DistinctAttribute, true
		default:
			return p.fail("", ReasonInvalidClaim, nil, "%s sets neither matchAttribute nor distinctAttribute", path), nil
		}
		for j, name := range c.Requests {
			parent, _, _ := strings.Cut(name, "/")
			if !named(parent, len(spec.Devices.Requests)) {
				return p.fail("", ReasonInvalidClaim, nil, "%s.requests[%d]: the claim has no request named %q", path, j, name), nil
			}
		}
		p.constraints = append(p.constraints, con)
	}
	a.specLists = specs[:0]

	total := 0
	for i, alts := range specs {
		// An exact request's plan goes into p.requests: the list of one
		// plan is not kept, and its memory serves every exact request.
		plans := a.onePlan[:0]
		if len(spec.Devices.Requests[i].FirstAvailable) > 0 {
			plans = nil
		}
		least := -1
		for k := range alts {
			r, failed, err := a.planRequest(call, p, &alts[k])
			if err != nil {
				return nil, err
			}
			if failed != nil {
				return failed, nil
			}
			plans = append(plans, r)
			if n := r.need(); least < 0 || n < least {
				least = n
			}
		}
		total += least
		if total > maxResults {
			return p.fail("", ReasonTooManyDevices, nil, "the requests need %d devices together; an allocation holds at most %d", total, maxResults), nil
		}
		if len(spec.Devices.Requests[i].FirstAvailable) == 0 {
			p.requests = append(p.requests, plans[0])
			a.onePlan = plans[:0]
			continue
		}
		parent := &requestPlan{plan: p, name: alts[0].parent, resultName: alts[0].parent, parentName: alts[0].parent, alts: plans}
		impossible := true
		for _, r := range plans {
			r.parent = parent
			impossible = impossible && r.impossible != nil
		}
		if impossible {
			// Every alternative fails on its own: the first one's reason.
			first := plans[0].impossible
			p.err = first
			return p, nil
		}
		p.requests = append(p.requests, parent)
	}
	return p, nil
}

// planRequest finds the candidates of one exact request or alternative.
// An alternative that cannot be allocated whatever the search does is not
// an error as long as another alternative might be: it keeps its reason
// and gets no candidates.
func (a *Allocator) planRequest(call *callState, p *claimPlan, s *requestSpec) (*requestPlan, *claimPlan, error) {
	// The lists the search fills keep their memory from call to call (a
	// call's results copy what they need of them).
	r := a.plans.next()
	*r = requestPlan{chosen: r.chosen[:0], chosenIndex: r.chosenIndex[:0], counted: r.counted[:0], compatMark: r.compatMark[:0]}
	r.plan, r.name, r.resultName, r.parentName, r.admin, r.spec = p, s.name, s.name, s.parent, s.admin, s
	alternative := s.name != s.parent
	switch s.mode {
	case resource.DeviceAllocationModeExactCount, "":
		switch {
		case s.count < 0:
			return nil, p.fail(r.name, ReasonInvalidClaim, nil, "%s.count is %d; it must be positive", s.fieldPath(), s.count), nil
		case s.count == 0:
			r.count = 1
		case s.count > maxResults:
			return nil, p.fail(r.name, ReasonTooManyDevices, nil, "%s.count is %d; an allocation holds at most %d devices", s.fieldPath(), s.count, maxResults), nil
		default:
			r.count = int(s.count)
		}
	case resource.DeviceAllocationModeAll:
		if s.count != 0 {
			return nil, p.fail(r.name, ReasonInvalidClaim, nil, "%s.count must not be set with allocationMode All", s.fieldPath()), nil
		}
		r.all = true
	default:
		return nil, p.fail(r.name, ReasonInvalidClaim, nil, "%s.allocationMode %q is not supported; use ExactCount or All", s.fieldPath(), s.mode), nil
	}
	class := a.classes[s.className]
	if class == nil {
		return nil, p.fail(r.name, ReasonNoClass, nil, "DeviceClass %q does not exist", s.className), nil
	}
	if class.Spec.ParametersRef != nil {
		return nil, p.fail(r.name, ReasonUnsupported, nil, "DeviceClass %q has parametersRef (%s %q): class parameters objects cannot be evaluated", class.Name, class.Spec.ParametersRef.Kind, class.Spec.ParametersRef.Name), nil
	}
	r.class = class
	// The list lives while the request is planned; its memory serves the
	// next request (nothing keeps the list itself). The memory is handed
	// back without a defer, which would cost more than the list.
	selectors := a.selectorBuf[:0]
	for j, sel := range class.Spec.Selectors {
		if sel.CEL == nil {
			return nil, p.fail(r.name, ReasonInvalidSelector, nil, "DeviceClass %q: spec.selectors[%d] has no cel selector", class.Name, j), nil
		}
		id, err := a.selectorID(sel.CEL.Expression)
		if err != nil {
			return nil, p.fail(r.name, ReasonInvalidSelector, err, "DeviceClass %q: spec.selectors[%d].cel.expression %q does not compile", class.Name, j, sel.CEL.Expression), nil
		}
		selectors = append(selectors, selectorRef{id: id, class: class.Name, index: j, expr: sel.CEL.Expression})
	}
	for j, sel := range s.selectors {
		id, err := a.selectorID(sel.CEL.Expression)
		if err != nil {
			return nil, p.fail(r.name, ReasonInvalidSelector, err, "%s.selectors[%d].cel.expression %q does not compile", s.fieldPath(), j, sel.CEL.Expression), nil
		}
		selectors = append(selectors, selectorRef{id: id, index: j, expr: sel.CEL.Expression})
	}
	a.selectorBuf = selectors[:0]
	// An ExactCount request that cannot take devices in use has its
	// selectors evaluated on the free devices only, as upstream's search
	// skips devices in use before it looks at the selectors: a fresh
	// Allocator then evaluates no more than it must. Should the free
	// devices not be enough, every device is judged (below), so that the
	// message counts the ones in use.
	free := !r.all && !r.admin
	first, constrained := 0, false
	if free {
		first, constrained = firstOnly(call, p, s)
	}
	// A request without tolerations never gets a device with a taint
	// that blocks: those among the first matches are judged, as upstream
	// judges them on its way, but do not count, so that a node whose
	// devices alternate tainted and untainted does not need a second look.
	untainted := first > 0 && len(s.tolerations) == 0 && a.features.DeviceTaints
	masks, selectorsKey, err := call.masksFor(a, selectors, free, first, untainted)
	if err != nil {
		failed, err := p.selectorFailed(r, s, err)
		return nil, failed, err
	}
	for k, con := range p.constraints {
		if con.covers137(s.parent, s.name) {
			r.coveredBy = append(r.coveredBy, k)
		}
	}
	if r.all && len(call.view.invalid) > 0 {
		invalid := call.view.invalid[0]
		return nil, p.fail(r.name, ReasonInvalidPool, nil, "asks for all devices, but resource pool %s/%s is invalid: %s", invalid.key.driver, invalid.key.pool, invalid.why()), nil
	}
	if r.all && len(call.view.incomplete) > 0 {
		incomplete := call.view.incomplete[0]
		return nil, p.fail(r.name, ReasonIncompletePool, nil, "asks for all devices, but resource pool %s/%s is being updated (not all of its slices are published)", incomplete.driver, incomplete.pool), nil
	}
	list, failure := a.candidates137(call, selectorsKey, masks, r)
	for need := first; first > 0; {
		if failure == nil && !list.hasCounters && !list.hasMulti && len(list.candidates) >= need &&
			(!constrained || firstValueCount(list) >= need) {
			break
		}
		if failure != nil || list.hasCounters || list.hasMulti || a.countedMatches(call.view, masks, untainted) < first ||
			(constrained && len(list.candidates) >= need) {
			// The search checks counters or shares and may then need
			// devices after the first ones, or every free device has
			// been looked at, or the first candidate's value is short
			// (its devices may be anywhere, and looking at twice as many
			// rebuilds the candidates each time): judge every free
			// device, as without firstOnly.
			first = 0
		} else {
			// Fewer of the first matches are candidates than the claim
			// asks for (taints, binding conditions and the like leave
			// some out): look at twice as many; the devices judged
			// already are not evaluated again.
			first *= 2
		}
		if masks, selectorsKey, err = call.masksFor(a, selectors, free, first, untainted); err != nil {
			failed, err := p.selectorFailed(r, s, err)
			return nil, failed, err
		}
		list, failure = a.candidates137(call, selectorsKey, masks, r)
	}
	if free && (failure != nil || len(list.candidates) < r.count) && call.view.anyInUse() {
		if masks, selectorsKey, err = call.masksFor(a, selectors, false, 0, false); err != nil {
			failed, err := p.selectorFailed(r, s, err)
			return nil, failed, err
		}
		list, failure = a.candidates137(call, selectorsKey, masks, r)
	}
	if failure != nil {
		if failure.err != nil && (failure.reason == ReasonInvalidClaim || failure.reason == ReasonCELRuntimeError || failure.reason == ReasonInvalidSelector) {
			// A derived attribute that fails fails the claim, also in an
			// alternative, as a selector that fails does.
			return nil, p.fail(r.name, failure.reason, failure.err, "%s", failure.detail), nil
		}
		if !alternative {
			return nil, p.fail(r.name, failure.reason, failure.err, "%s", failure.detail), nil
		}
		// An alternative that can never be allocated is skipped by the
		// search; the claim fails with its reason only if all fail.
		r.impossible = &ClaimError{Claim: p.claimID(), Request: r.name, Reason: failure.reason, Detail: failure.detail, Err: failure.err}
		return r, nil, nil
	}
	r.candidates, r.constraintValues = list.candidates, list.constraintValues
	for k, has := range list.lists {
		if has {
			p.constraints[r.coveredBy[k]].sets = true
		}
	}
	r.multi, r.needs, r.uses = list.multi, list.needs, list.uses
	r.hasCounters, r.hasMulti = list.hasCounters, list.hasMulti
	r.matched, r.inUse, r.lacking = list.matched, list.inUse, list.lacking
	if r.all {
		return r, nil, nil
	}
	if len(r.candidates) >= r.count {
		return r, nil, nil
	}
	var reason Reason
	var detail string
	switch {
	case r.matched == 0 && list.noCapacity == 0:
		reason, detail = ReasonNoMatch, fmt.Sprintf("no device matches: of the %d devices the node can reach, none passes the selectors of DeviceClass %q and of the request", call.view.total, r.class.Name)
		detail += call.view.leftOut()
	case list.lacking > 0 && len(r.candidates)+list.lacking >= r.count:
		reason, detail = ReasonConstraintUnsatisfiable, fmt.Sprintf("asks for %d devices; %d match and are free, but only %d of them have the attributes that the claim's constraints compare (%s)",
			r.count, len(r.candidates)+list.lacking, len(r.candidates), r.constraintNames())
	default:
		// Built without fmt: a scheduler asks node after node, and most
		// nodes fail this way.
		reason = ReasonNotEnough
		b := make([]byte, 0, 160)
		b = append(b, "not enough devices: asks for "...)
		b = strconv.AppendInt(b, int64(r.count), 10)
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(r.matched), 10)
		b = append(b, " match"...)
		if list.inUse > 0 {
			b = append(b, ", of which "...)
			b = strconv.AppendInt(b, int64(list.inUse), 10)
			b = append(b, " are already allocated"...)
		}
		if list.tainted > 0 {
			t := list.firstTaint
			b = append(b, ", "...)
			b = strconv.AppendInt(b, int64(list.tainted), 10)
			b = append(b, " have a taint the request does not tolerate ("...)
			b = append(b, list.firstTainted.String()...)
			b = append(b, ": "...)
			b = append(b, t.Key...)
			b = append(b, '=')
			b = append(b, t.Value...)
			b = append(b, ':')
			b = append(b, t.Effect...)
			b = append(b, ')')
		}
		if list.unusable > 0 {
			b = append(b, ", "...)
			b = strconv.AppendInt(b, int64(list.unusable), 10)
			b = append(b, " cannot be used ("...)
			b = append(b, list.firstUnusable...)
			b = append(b, ')')
		}
		if list.lacking > 0 {
			b = append(b, " and "...)
			b = strconv.AppendInt(b, int64(list.lacking), 10)
			b = append(b, " lack attributes compared by the constraints ("...)
			b = append(b, r.constraintNames()...)
			b = append(b, ')')
		}
		if list.noCapacity > 0 {
			b = append(b, "; "...)
			b = strconv.AppendInt(b, int64(list.noCapacity), 10)
			b = append(b, " more pass the selectors but lack the capacity the request asks for"...)
		}
		detail = string(b)
	}
	if alternative {
		r.impossible = &ClaimError{Claim: p.claimID(), Request: r.name, Reason: reason, Detail: detail}
		return r, nil, nil
	}
	p.err = &ClaimError{Claim: p.claimID(), Request: r.name, Reason: reason, Detail: detail}
	return nil, p, nil
}

// firstOnly is how many matching free devices in view order are enough
// for the request, whatever the devices after them, or 0 when it cannot
// tell: the call allocates this one claim, whose requests are all exact,
// ExactCount, without adminAccess and their own capacity requests, and
// which has no constraints. Then the search, like upstream's, which stops
// at the first devices that fit, never takes a device after the first n
// candidates of a request, where n is the devices the claim asks for in
// all: should a request's devices be needed by the others, it has a free
// one among its first n candidates instead (the search checks counters and
// shares, which could need devices after those; planRequest judges every
// free device then). planRequest looks at more matches when fewer of the
// first n are candidates; for a request without tolerations, matches with
// a taint that blocks it are judged but not counted among the n. The selectors need not be evaluated on the
// devices after them, which for a fresh Allocator is most of the call's
// work.
//
// constrained reports the one other case: the claim has a single exact
// request and a single matchAttribute constraint that covers it. Then n
// is the request's count, and n candidates are enough only when n of them
// share the value of the first candidate (planRequest checks this, see
// firstValueCount). The answer cannot differ from judging every device:
// the search tries the constraint's values in the order they first appear
// among the candidates, so the first value it tries is that of the first
// candidate, which is the same device either way (candidates are the
// judged devices that pass, in view order, and the judged ones are a
// prefix of the free devices in view order). With n candidates of that
// value it succeeds at once, taking the first n of them, all within the
// prefix; candidates after the prefix only add to later values, which it
// never tries. A smaller count for that value proves nothing (more may
// follow), so planRequest then looks further, as far as every free
// device. Nothing else about the claim differs: one request, no other
// constraint, and a lone claim leaves no other claim's devices to weigh.
// What the devices after the prefix would have failed with (a selector
// that errs) is not reported, as upstream, which stops
// at the same devices, does not report it either.
func firstOnly(call *callState, p *claimPlan, s *requestSpec) (n int, constrained bool) {
	devices := &p.claim.Spec.Devices
	if !call.lone || s.sub >= 0 {
		return 0, false
	}
	switch {
	case len(devices.Constraints) == 0:
	case len(devices.Constraints) == 1 && len(devices.Requests) == 1:
		c := &devices.Constraints[0]
		if c.MatchAttribute == nil || c.DistinctAttribute != nil ||
			(len(c.Requests) > 0 && (len(c.Requests) != 1 || c.Requests[0] != devices.Requests[0].Name)) {
			return 0, false
		}
		constrained = true
	default:
		return 0, false
	}
	for i := range devices.Requests {
		e := devices.Requests[i].Exactly
		if e == nil || (e.AllocationMode != "" && e.AllocationMode != resource.DeviceAllocationModeExactCount) ||
			(e.AdminAccess != nil && *e.AdminAccess) || e.Capacity != nil || e.Count < 0 || e.Count > maxResults {
			return 0, false
		}
		n += max(int(e.Count), 1)
	}
	return n, constrained
}

// firstValueCount is how many candidates of a request under one
// constraint share the constrained value of its first candidate.
func firstValueCount(list *candidateList) int {
	if len(list.candidates) == 0 || len(list.constraintValues) != 1 {
		return 0
	}
	values := list.constraintValues[0]
	n := 0
	for _, v := range values {
		if v == values[0] {
			n++
		}
	}
	return n
}

// selectorFailed turns an error of masksFor into the claim's failure (a
// selector that failed on a device) or the call's (a cancelled context).
func (p *claimPlan) selectorFailed(r *requestPlan, s *requestSpec, err error) (*claimPlan, error) {
	failure, ok := err.(*selectorFailure)
	if !ok {
		return nil, err
	}
	where := fmt.Sprintf("%s.selectors[%d]", s.fieldPath(), failure.sel.index)
	if failure.sel.class != "" {
		where = fmt.Sprintf("DeviceClass %q spec.selectors[%d]", failure.sel.class, failure.sel.index)
	}
	return p.fail(r.name, ReasonCELRuntimeError, failure.err, "%s: expression %q failed on device %s", where, failure.sel.expr, failure.device), nil
}

// covers137: a constraint without requests covers all; naming a request
// covers its alternatives, naming "request/alternative" that one.
func (c *constraintPlan) covers137(parent, name string) bool {
	if len(c.requests) == 0 {
		return true
	}
	for _, r := range c.requests {
		if r == parent || r == name {
			return true
		}
	}
	return false
}

// candidateFailure is why a request can never be allocated.
type candidateFailure struct {
	reason Reason
	detail string
	err    error
}

// candidates137 turns selector masks into the request's candidates with
// the 1.37 rules: devices the node reaches (per-device node selection),
// usable with the features (binding conditions, counters), not blocked by
// a taint the request does not tolerate, with the capacity the request
// asks for, free (unless adminAccess or shared) and with the attributes
// the constraints compare. An All request gets every selected device whose
// capacity could serve it; one of them being in use, tainted or unusable
// fails the request.
func (a *Allocator) candidates137(call *callState, selectorsKey string, masks [][]uint64, r *requestPlan) (*candidateList, *candidateFailure) {
	p := r.plan
	f := a.features
	v := call.view
	attrs := make([]resource.FullyQualifiedName, len(r.coveredBy))
	kinds := make([]int, len(r.coveredBy))
	// derived[k] is the index of the derived attribute that constraint k
	// compares, -1 when none; nil when the request derives none of them.
	var derived []int
	key := selectorsKey
	if r.admin {
		key += "admin"
	}
	if r.all {
		key += "all"
	}
	for k, ci := range r.coveredBy {
		con := p.constraints[ci]
		attrs[k] = con.attribute
		switch {
		case f.ListTypeAttributes:
			kinds[k] = attrSet137
		case con.distinct:
			kinds[k] = attrDistinct137
		default:
			kinds[k] = attrMatch137
		}
		key += "|" + strconv.Itoa(kinds[k]) + string(attrs[k])
		if j := derivedIndex(r.spec, con.attribute); j >= 0 {
			// The request derives the attribute: its expression gives the
			// value instead of the device's attribute.
			if derived == nil {
				derived = make([]int, len(r.coveredBy))
				for i := range derived {
					derived[i] = -1
				}
			}
			derived[k] = j
			key += "|derived " + r.spec.derivedAttr[j].Expression
		}
	}
	// Tolerations and capacity requests are the request's own: its list
	// serves no other request, and is not kept.
	own := len(r.spec.tolerations) > 0 || r.spec.capacity != nil
	if !own {
		if list, _ := call.candidateLists.get(key); list != nil {
			return list, list.failure
		}
	}
	// The candidates keep their memory from call to call, as the search's
	// lists do (planRequest).
	list := a.lists.next()
	mem := list.mem
	if list.multi != nil {
		mem.multi, mem.needs = list.multi[:0], list.needs[:0]
	}
	*list = candidateList{candidates: list.candidates[:0], mem: mem}
	list.constraintValues = make([][]int32, len(attrs))
	if !own {
		call.candidateLists.put(key, list)
	}
	fail := func(reason Reason, err error, format string, args ...any) (*candidateList, *candidateFailure) {
		list.failure = &candidateFailure{reason: reason, detail: fmt.Sprintf(format, args...), err: err}
		return list, list.failure
	}
	valuesOf := make([][]int32, len(attrs))
	capKey := ""
	if f.ConsumableCapacity {
		capKey = a.capacityKey(r.spec.capacity)
	}
	for si, e := range v.slices {
		mask := masks[si]
		nodeMask := v.nodeMasks[si]
		pool := v.pools[v.poolOf[si]]
		var uses [][]counterUse
		if pool.counters != nil {
			uses = e.counterUses(pool.counters)
		}
		for k, name := range attrs {
			if derived != nil && derived[k] >= 0 {
				valuesOf[k] = a.derivedValuesOf(e, r.spec.derivedAttr[derived[k]].Expression, kinds[k])
				continue
			}
			valuesOf[k] = a.attrValues(e, name, kinds[k])
		}
		var needs *capacityNeeds // looked up once per slice, when needed
		for w, bits := range mask {
			if nodeMask != nil {
				bits &= nodeMask[w]
			}
			for bits != 0 {
				b := trailingZeros(bits)
				bits &^= 1 << uint(b)
				d := w*64 + b
				dev := &e.devices[d]
				id := func() DeviceID { return DeviceID{e.driver, e.pool, dev.Name} }
				// Not selectable at all: left out, also of All.
				if !f.DeviceBindingAndStatus && len(dev.BindingConditions) > 0 {
					continue
				}
				if call.node == nil && dev.BindsToNode != nil && *dev.BindsToNode {
					continue
				}
				multi := f.ConsumableCapacity && hasBit(e.multi, d)
				var need map[resource.QualifiedName]apiresource.Quantity
				if f.ConsumableCapacity {
					if needs == nil {
						needs = a.capacityNeedsIn(e, capKey)
					}
					n, amounts, ok, err := needs.needOf(a, e, d, r.spec.capacity)
					if err != nil {
						return fail(ReasonInvalidClaim, err, "%s.capacity: device %s", r.spec.fieldPath(), id())
					}
					if !ok {
						list.noCapacity++
						continue
					}
					if !r.all && !fitsConsumed(amounts, a.sharedConsumption(e, d)) {
						list.noCapacity++
						continue
					}
					if multi {
						need = n
					}
				}
				list.matched++
				busy := !r.admin && hasBit(e.inUse, d)
				taint := a.blockingTaint(e, d, r.spec.tolerations)
				unusable := ""
				switch {
				case f.experimental() && len(e.obj.Spec.SkipNodeOperations) > 0 && !f.OptionalNodeOperations:
					unusable = "is in a slice with skipNodeOperations, but the OptionalNodeOperations feature is off"
				case f.experimental() && len(e.obj.Spec.SkipNodeOperations) > 0 && !declaresOptionalNodeOperations(call.node):
					unusable = "is in a slice with skipNodeOperations, but the node does not declare DRAOptionalNodeOperations"
				case !f.PartitionableDevices && len(dev.ConsumesCounters) > 0:
					unusable = "consumes counters, but the PartitionableDevices feature is off"
				case uses != nil && len(uses[d]) > 0 && pool.overdrawn:
					unusable = "its pool's counters are already overdrawn"
				}
				if r.all {
					switch {
					case busy:
						return fail(ReasonDeviceInUse, nil, "asks for all matching devices, but device %s is already allocated (only adminAccess requests may share devices)", id())
					case taint != nil:
						return fail(ReasonDeviceTainted, nil, "asks for all matching devices, but device %s has the taint %s=%s:%s, which the request does not tolerate", id(), taint.Key, taint.Value, taint.Effect)
					case unusable != "":
						return fail(ReasonNotEnough, nil, "asks for all matching devices, but device %s %s", id(), unusable)
					}
				}
				switch {
				case busy:
					list.inUse++
					continue
				case taint != nil:
					if list.tainted == 0 {
						list.firstTainted, list.firstTaint = id(), taint
					}
					list.tainted++
					continue
				case unusable != "":
					if list.unusable == 0 {
						list.firstUnusable = fmt.Sprintf("%s %s", id(), unusable)
					}
					list.unusable++
					continue
				}
				for k, j := range derived {
					if j < 0 || valuesOf[k][d] != notDerived {
						continue
					}
					value, failure := a.derive(call.ctx, r.spec, j, e, d, kinds[k])
					if failure != nil {
						list.failure = failure
						return list, failure
					}
					valuesOf[k][d] = value
				}
				lacks := firstLacking(valuesOf, d)
				if lacks >= 0 {
					if r.all {
						con := p.constraints[r.coveredBy[lacks]]
						return fail(ReasonConstraintUnsatisfiable, nil, "asks for all matching devices, but device %s lacks attribute %q that spec.devices.constraints[%d] compares (or has a value of a type it cannot compare)", id(), con.attribute, con.index)
					}
					list.lacking++
					continue
				}
				list.candidates = append(list.candidates, viewDevice{int32(si), int32(d)})
				for k := range attrs {
					value := valuesOf[k][d]
					list.constraintValues[k] = append(list.constraintValues[k], value)
					if kinds[k] == attrSet137 && a.attributeElems[value] != nil {
						if list.lists == nil {
							list.lists = make([]bool, len(attrs))
						}
						list.lists[k] = true
					}
				}
				// Devices that are neither shared nor consume counters
				// need no entries (the lists stay nil until one does).
				n := len(list.candidates) - 1
				if multi {
					if list.multi == nil {
						list.multi = zeroed(list.mem.multi, n, cap(list.candidates))
						list.needs = zeroed(list.mem.needs, n, cap(list.candidates))
					}
				}
				if list.multi != nil {
					list.multi = append(list.multi, multi)
					list.needs = append(list.needs, need)
				}
				var u []counterUse
				if uses != nil {
					u = uses[d]
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
		}
	}
	if r.all && len(list.candidates) == 0 {
		// 1.37 (unlike 1.31) requires at least one device.
		return fail(ReasonNoMatch, nil, "asks for all matching devices, but of the %d devices the node can reach none passes the selectors of DeviceClass %q and of the request (Kubernetes 1.32+ requires at least one)", v.total, r.class.Name)
	}
	return list, nil
}

// sharedConsumption is what the shares allocated before the call consume
// of the capacities of device d of the entry. The entry remembers the
// shares of its devices until a device gains its first share or loses its
// last (sharesGen): candidates137 asks for every candidate on every call,
// and a lookup by DeviceID hashes three strings.
func (a *Allocator) sharedConsumption(e *sliceEntry, d int) map[resource.QualifiedName]apiresource.Quantity {
	if s := a.sharesAt(e, d); s != nil {
		return s.consumed
	}
	return nil
}

// sharesAt are the shares of device d of the entry allocated before the
// call (nil: none), as sharedConsumption remembers them.
func (a *Allocator) sharesAt(e *sliceEntry, d int) *deviceShares {
	if len(a.shares) == 0 {
		return nil
	}
	if e.sharesGen != a.sharesGen+1 {
		e.sharesGen = a.sharesGen + 1
		e.sharesOf = e.sharesOf[:0]
		for i := range e.devices {
			e.sharesOf = append(e.sharesOf, a.shares[DeviceID{e.driver, e.pool, e.devices[i].Name}])
		}
	}
	return e.sharesOf[d]
}

// How a constraint reads an attribute (attrValues).
const (
	attrLegacy = iota
	attrMatch137
	attrDistinct137
	attrSet137
)

// attrValues gives, per device of the slice, the interned value of an
// attribute for a constraint of the given kind, or -1 where the device
// cannot take part. attrLegacy (1.31) compares every value, lists too
// (equal lists match). Upstream v0.37.2 compares single values only: a
// list value equals no other device's value (matchAttribute accepts it for
// a single device), and takes no part in distinctAttribute. attrSet137
// (ListTypeAttributes) interns every value and records the elements of
// each list (attributeElems); a list without elements cannot take part,
// as upstream's experimental allocator knows no type for it.
func (a *Allocator) attrValues(e *sliceEntry, name resource.FullyQualifiedName, kind int) []int32 {
	cacheKey := attrValuesKey{name, kind}
	if values, ok := e.attributeValues[cacheKey]; ok {
		return values
	}
	if e.attributeValues == nil {
		e.attributeValues = map[attrValuesKey][]int32{}
	}
	values := make([]int32, len(e.devices))
	for i := range e.devices {
		values[i] = -1
		if attr, ok := lookupAttribute(e.devices[i].Attributes, e.driver, name); ok {
			values[i] = a.valueID(&attr, kind, e, i)
		}
	}
	e.attributeValues[cacheKey] = values
	return values
}

// valueID interns the value of an attribute of device d of the entry for
// a constraint of the given kind, as attrValues describes; -1 when the
// device cannot take part.
func (a *Allocator) valueID(attr *resource.DeviceAttribute, kind int, e *sliceEntry, d int) int32 {
	key, ok := valueKey(attr)
	if !ok {
		return -1
	}
	if kind == attrSet137 {
		return a.setValueID(attr, key)
	}
	if kind != attrLegacy && isListKey(key) {
		if kind == attrDistinct137 {
			return -1
		}
		// A value no other device has.
		key = "L" + e.key + "\x00" + e.devices[d].Name
	}
	id, seen := a.attributeValueIDs[key]
	if !seen {
		id = int32(len(a.attributeValueIDs))
		a.attributeValueIDs[key] = id
	}
	return id
}

// setValueID interns a value for attrSet137 (key as attributeKey gives
// it), with the elements of a list: -1 for an empty list.
func (a *Allocator) setValueID(attr *resource.DeviceAttribute, key string) int32 {
	intern := func(key string) int32 {
		id, seen := a.attributeValueIDs[key]
		if !seen {
			id = int32(len(a.attributeValueIDs))
			a.attributeValueIDs[key] = id
		}
		return id
	}
	if !isListKey(key) {
		return intern(key)
	}
	id, seen := a.attributeValueIDs[key]
	if seen {
		if a.attributeElems[id] == nil {
			return -1 // empty
		}
		return id
	}
	id = intern(key)
	var elems []int32
	for _, k := range listElementKeys(attr) {
		elems = append(elems, intern(k))
	}
	slices.Sort(elems)
	elems = slices.Compact(elems)
	if len(elems) == 0 {
		return -1
	}
	if a.attributeElems == nil {
		a.attributeElems = map[int32][]int32{}
	}
	a.attributeElems[id] = elems
	return id
}

// listElementKeys are the keys (as attributeKey gives single values) of
// the elements of a list-valued attribute.
func listElementKeys(attr *resource.DeviceAttribute) []string {
	var keys []string
	for _, n := range attr.IntValues {
		keys = append(keys, "i"+itoa(n))
	}
	for _, b := range attr.BoolValues {
		if b {
			keys = append(keys, "btrue")
		} else {
			keys = append(keys, "bfalse")
		}
	}
	for _, s := range attr.StringValues {
		keys = append(keys, "s"+s)
	}
	for _, v := range attr.VersionValues {
		keys = append(keys, "v"+v)
	}
	return keys
}

// notDerived marks a device whose derived attribute is not evaluated yet
// (derivedValuesOf).
const notDerived = -2

// derivedIndex is the index of the derived attribute of the request or
// alternative with the name, -1 if none: the last one, as upstream keeps
// them in a map by name.
func derivedIndex(s *requestSpec, name resource.FullyQualifiedName) int {
	j := -1
	for i := range s.derivedAttr {
		if s.derivedAttr[i].Name == name {
			j = i
		}
	}
	return j
}

// derivedValuesOf is attrValues for a derived attribute's expression: the
// interned values, notDerived where not evaluated yet (derive fills them
// in as the candidates are judged, since an expression is evaluated only
// on devices that passed the selectors, as upstream evaluates it only on
// devices its search reaches).
func (a *Allocator) derivedValuesOf(e *sliceEntry, expression string, kind int) []int32 {
	cacheKey := attrValuesKey{resource.FullyQualifiedName(expression), kind}
	if values, ok := e.derivedValues[cacheKey]; ok {
		return values
	}
	if e.derivedValues == nil {
		e.derivedValues = map[attrValuesKey][]int32{}
	}
	values := make([]int32, len(e.devices))
	for i := range values {
		values[i] = notDerived
	}
	e.derivedValues[cacheKey] = values
	return values
}

// derive evaluates derived attribute j of the request or alternative on
// device d of the entry, interning its value for a constraint of the
// kind. An expression that does not compile or fails on the device fails
// the request (upstream aborts the allocation when it meets either).
func (a *Allocator) derive(ctx context.Context, s *requestSpec, j int, e *sliceEntry, d int, kind int) (int32, *candidateFailure) {
	attr := &s.derivedAttr[j]
	where := fmt.Sprintf("%s.derivedAttributes[%d] (%s)", s.fieldPath(), j, attr.Name)
	program, ok := a.derivedPrograms[attr.Expression]
	if !ok {
		opts := a.celOptions()
		opts.DerivedAttribute = true
		p, err := cel.Compile(attr.Expression, opts)
		if err != nil {
			return 0, &candidateFailure{reason: ReasonInvalidSelector, err: err,
				detail: fmt.Sprintf("%s: expression %q does not compile", where, attr.Expression)}
		}
		if a.derivedPrograms == nil {
			a.derivedPrograms = map[string]*cel.Program{}
		}
		a.derivedPrograms[attr.Expression], program = p, p
	}
	id := func() string { return fmt.Sprintf("%s/%s/%s", e.driver, e.pool, e.devices[d].Name) }
	value, err := program.Derive(ctx, a.input(e, d))
	if err == nil {
		return a.valueID(value, kind, e, d), nil
	}
	return 0, &candidateFailure{reason: ReasonCELRuntimeError, err: err,
		detail: fmt.Sprintf("%s: expression %q failed on device %s", where, attr.Expression, id())}
}

// attrValuesKey names a slice's cached attribute values: the attribute and
// how a constraint reads it.
type attrValuesKey struct {
	name resource.FullyQualifiedName
	kind int
}

// isListKey: attributeKey marks list values with an upper-case letter.
func isListKey(key string) bool { return key != "" && key[0] >= 'A' && key[0] <= 'Z' }

// isMulti, needOf and usesOf read the per-candidate lists, which are nil
// when no candidate is shared or consumes counters.
func (r *requestPlan) isMulti(i int) bool {
	return r.multi != nil && r.multi[i]
}

func (r *requestPlan) needOf(i int) map[resource.QualifiedName]apiresource.Quantity {
	if r.needs == nil {
		return nil
	}
	return r.needs[i]
}

func (r *requestPlan) usesOf(i int) []counterUse {
	if r.uses == nil {
		return nil
	}
	return r.uses[i]
}
