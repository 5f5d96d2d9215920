package allocator

import (
	"context"
	"fmt"
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

// requestSpecs reads the claim's requests: per request, its one exact
// spec or its alternatives, each checked for what the request form and the
// features allow. The lists live until the claim is planned.
func (a *Allocator) requestSpecs(p *claimPlan) ([][]requestSpec, *claimPlan) {
	f := a.features
	requests := p.claim.Spec.Devices.Requests
	specs := a.specLists[:0]
	for i := range requests {
		request := &requests[i]
		path := fieldPath{"spec.devices.requests", i}
		switch {
		case request.Name == "":
			return nil, p.fail("", ReasonInvalidClaim, nil, "%s.name is empty", path)
		case namedBefore(requests, request.Name, i):
			return nil, p.fail(request.Name, ReasonInvalidClaim, nil, "%s.name: two requests are named %q", path, request.Name)
		case request.Exactly != nil && len(request.FirstAvailable) > 0:
			return nil, p.fail(request.Name, ReasonInvalidClaim, nil, "%s sets both exactly and firstAvailable", path)
		case request.Exactly == nil && len(request.FirstAvailable) == 0:
			return nil, p.fail(request.Name, ReasonInvalidClaim, nil, "%s sets neither exactly nor firstAvailable", path)
		case len(request.FirstAvailable) > 0 && !f.PrioritizedList:
			return nil, p.fail(request.Name, ReasonFeatureDisabled, nil, "%s.firstAvailable is set, but the PrioritizedList feature (gate DRAPrioritizedList) is off", path)
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
					return nil, p.fail(request.Name, ReasonInvalidClaim, nil, "%s.name is empty or used twice", s.fieldPath())
				}
				subNames[sub] = true
				alts = append(alts, s)
			}
		}
		for k := range alts {
			if failed := a.checkSpec(p, &alts[k]); failed != nil {
				return nil, failed
			}
		}
		specs = append(specs, alts)
	}
	// The memory serves the next claim; this one's specs are read until
	// it is planned, before the next claim's are made.
	a.specLists = specs[:0]
	return specs, nil
}

// namedBefore reports whether one of the first n requests has the name.
func namedBefore(requests []resource.DeviceRequest, name string, n int) bool {
	for k := 0; k < n; k++ {
		if requests[k].Name == name {
			return true
		}
	}
	return false
}

// checkSpec refuses an exact request or alternative that asks for a feature
// that is off or lacks what every request needs.
func (a *Allocator) checkSpec(p *claimPlan, s *requestSpec) *claimPlan {
	f := a.features
	switch {
	case s.capacity != nil && !f.ConsumableCapacity:
		if s.sub >= 0 {
			return p.fail(s.name, ReasonFeatureDisabled, nil, "%s.capacity is set, but the ConsumableCapacity feature (gate DRAConsumableCapacity) is off", s.fieldPath()).
				upstreamAborts("claim %s, subrequest %s: has capacity requests, but the DRAConsumableCapacity feature is disabled", p.claimID(), s.upstreamName())
		}
		return p.fail(s.name, ReasonFeatureDisabled, nil, "%s.capacity is set, but the ConsumableCapacity feature (gate DRAConsumableCapacity) is off", s.fieldPath()).
			upstreamAborts("claim %s, request %s: has capacity requests, but the DRAConsumableCapacity feature is disabled", p.claimID(), s.upstreamName())
	case s.derived && !f.DerivedAttributes:
		return p.fail(s.name, ReasonFeatureDisabled, nil, "%s.derivedAttributes is set, but the DerivedAttributes feature (gate DRADerivedAttributes) is off", s.fieldPath()).
			upstreamAborts("claim %s, request %s: cannot handle request with derived attributes, the feature is disabled", p.claimID(), s.upstreamName())
	case s.adminSet && !f.AdminAccess:
		return p.fail(s.name, ReasonFeatureDisabled, nil, "%s.adminAccess is set, but the AdminAccess feature (gate DRAAdminAccess) is off", s.fieldPath()).
			upstreamAborts("claim %s, request %s: admin access is requested, but the feature is disabled", p.claimID(), s.upstreamName())
	case s.className == "":
		return p.fail(s.name, ReasonInvalidClaim, nil, "%s.deviceClassName is empty", s.fieldPath())
	}
	for j, sel := range s.selectors {
		if sel.CEL == nil {
			return p.fail(s.name, ReasonInvalidClaim, nil, "%s.selectors[%d] has no cel selector", s.fieldPath(), j)
		}
	}
	return nil
}

// planConstraints reads the claim's constraints.
func (p *claimPlan) planConstraints() *claimPlan {
	devices := &p.claim.Spec.Devices
	for i, c := range devices.Constraints {
		path := fieldPath{"spec.devices.constraints", i}
		con := &constraintPlan{index: i, requests: c.Requests}
		switch {
		case c.MatchAttribute != nil:
			con.attribute = *c.MatchAttribute
		case c.DistinctAttribute != nil:
			con.attribute, con.distinct = *c.DistinctAttribute, true
		default:
			return p.fail("", ReasonInvalidClaim, nil, "%s sets neither matchAttribute nor distinctAttribute", path)
		}
		for j, name := range c.Requests {
			parent, _, _ := strings.Cut(name, "/")
			if !namedBefore(devices.Requests, parent, len(devices.Requests)) {
				return p.fail("", ReasonInvalidClaim, nil, "%s.requests[%d]: the claim has no request named %q", path, j, name)
			}
		}
		p.constraints = append(p.constraints, con)
	}
	return nil
}

// planRequests plans each request (planRequest): an exact request becomes
// one requestPlan, a firstAvailable request a parent with one plan per
// alternative. The devices the requests need together, counting each
// firstAvailable request by its least demanding alternative, must fit into
// one allocation.
func (a *Allocator) planRequests(call *callState, p *claimPlan, specs [][]requestSpec) (*claimPlan, error) {
	requests := p.claim.Spec.Devices.Requests
	total := 0
	for i, alts := range specs {
		// An exact request's plan goes into p.requests: the list of one
		// plan is not kept, and its memory serves every exact request.
		plans := a.onePlan[:0]
		if len(requests[i].FirstAvailable) > 0 {
			plans = nil
		}
		least := -1
		for k := range alts {
			r, failed, err := a.planRequest(call, p, &alts[k])
			if err != nil {
				return nil, err
			}
			if failed != nil {
				if ce := failed.err; ce.Reason == ReasonTooManyDevices && ce.upstream == nil && alts[k].sub < 0 {
					// A count above the limit: upstream's check of the
					// claim's total says so.
					failed.upstreamAborts("claim %s, request %s: adding %d devices exceeds the claim limit of %d, with %d already accounted for", p.claimID(), requests[i].Name, alts[k].count, maxResults, total)
				}
				return failed, nil
			}
			plans = append(plans, r)
			if n := r.need(); least < 0 || n < least {
				least = n
			}
		}
		if total+least > maxResults {
			return p.fail("", ReasonTooManyDevices, nil, "the requests need %d devices together; an allocation holds at most %d", total+least, maxResults).
				upstreamAborts("claim %s, request %s: adding %d devices exceeds the claim limit of %d, with %d already accounted for", p.claimID(), requests[i].Name, least, maxResults, total), nil
		}
		total += least
		if len(requests[i].FirstAvailable) == 0 {
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
			p.err = plans[0].impossible
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
	if failed := r.readCount(s); failed != nil {
		return nil, failed, nil
	}
	selectors, failed := a.selectorsOf(r, s)
	if failed != nil {
		return nil, failed, nil
	}
	for k, con := range p.constraints {
		if con.covers(s.parent, s.name) {
			r.coveredBy = append(r.coveredBy, k)
		}
	}
	list, failure, failed, err := a.findCandidates(call, r, s, selectors)
	if failed != nil || err != nil {
		return nil, failed, err
	}
	if failure != nil {
		if failure.err != nil && (failure.reason == ReasonInvalidClaim || failure.reason == ReasonCELRuntimeError || failure.reason == ReasonInvalidSelector) {
			// A derived attribute that fails fails the claim, also in an
			// alternative, as a selector that fails does.
			return nil, p.fail(r.name, failure.reason, failure.err, "%s", failure.detail), nil
		}
		if !alternative {
			p.fail(r.name, failure.reason, failure.err, "%s", failure.detail)
			switch {
			case failure.abortDevice != "":
				p.upstreamAborts("claim %s, request %s: cannot add device %s because a claim constraint would not be satisfied", p.claimID(), s.upstreamName(), failure.abortDevice)
			case r.all && len(r.coveredBy) > 0 && list != nil && len(list.candidates) > 0:
				// In use, tainted or unusable: upstream's search takes
				// the devices before that one first.
				r.takeList(list)
				p.failsAt = r
			}
			return nil, p, nil
		}
		// An alternative that can never be allocated is skipped by the
		// search; the claim fails with its reason only if all fail.
		r.impossible = &ClaimError{Claim: p.claimID(), Request: r.name, Reason: failure.reason, Detail: failure.detail, Err: failure.err}
		return r, nil, nil
	}
	r.takeList(list)
	if r.all || len(r.candidates) >= r.count {
		return r, nil, nil
	}
	reason, detail := r.shortfall(call.view, list)
	short := &ClaimError{Claim: p.claimID(), Request: r.name, Reason: reason, Detail: detail}
	if reason == ReasonNotEnough {
		short.asks, short.free = r.count, max(list.matched-list.inUse-list.tainted-list.unusable, 0)
	}
	if alternative {
		r.impossible = short
		return r, nil, nil
	}
	p.err = short
	return nil, p, nil
}

// readCount reads the request's allocation mode and count.
func (r *requestPlan) readCount(s *requestSpec) *claimPlan {
	p := r.plan
	switch s.mode {
	case resource.DeviceAllocationModeExactCount, "":
		switch {
		case s.count < 0:
			return p.fail(r.name, ReasonInvalidClaim, nil, "%s.count is %d; it must be positive", s.fieldPath(), s.count)
		case s.count == 0:
			r.count = 1
		case s.count > maxResults:
			return p.fail(r.name, ReasonTooManyDevices, nil, "%s.count is %d; an allocation holds at most %d devices", s.fieldPath(), s.count, maxResults)
		default:
			r.count = int(s.count)
		}
	case resource.DeviceAllocationModeAll:
		if s.count != 0 {
			return p.fail(r.name, ReasonInvalidClaim, nil, "%s.count must not be set with allocationMode All", s.fieldPath())
		}
		r.all = true
	default:
		return p.fail(r.name, ReasonInvalidClaim, nil, "%s.allocationMode %q is not supported; use ExactCount or All", s.fieldPath(), s.mode)
	}
	return nil
}

// selectorsOf finds the request's class and lists its selectors and the
// request's, compiled. The list lives while the request is planned; its
// memory serves the next request (nothing keeps the list itself), handed
// back without a defer, which would cost more than the list.
func (a *Allocator) selectorsOf(r *requestPlan, s *requestSpec) ([]selectorRef, *claimPlan) {
	p := r.plan
	class := a.classes[s.className]
	if class == nil {
		return nil, p.fail(r.name, ReasonNoClass, nil, "DeviceClass %q does not exist", s.className)
	}
	if class.Spec.ParametersRef != nil {
		return nil, p.fail(r.name, ReasonUnsupported, nil, "DeviceClass %q has parametersRef (%s %q): class parameters objects cannot be evaluated", class.Name, class.Spec.ParametersRef.Kind, class.Spec.ParametersRef.Name)
	}
	r.class = class
	selectors := a.selectorBuf[:0]
	for j, sel := range class.Spec.Selectors {
		if sel.CEL == nil {
			return nil, p.fail(r.name, ReasonInvalidSelector, nil, "DeviceClass %q: spec.selectors[%d] has no cel selector", class.Name, j)
		}
		id, err := a.selectorID(sel.CEL.Expression)
		if err != nil {
			return nil, p.fail(r.name, ReasonInvalidSelector, err, "DeviceClass %q: spec.selectors[%d].cel.expression %q does not compile", class.Name, j, sel.CEL.Expression).
				upstreamAborts("class %s: selector #%d: CEL compile error: %v", class.Name, j, err)
		}
		selectors = append(selectors, selectorRef{id: id, class: class.Name, index: j, expr: sel.CEL.Expression})
	}
	for j, sel := range s.selectors {
		id, err := a.selectorID(sel.CEL.Expression)
		if err != nil {
			return nil, p.fail(r.name, ReasonInvalidSelector, err, "%s.selectors[%d].cel.expression %q does not compile", s.fieldPath(), j, sel.CEL.Expression).
				upstreamAborts("claim %s: selector #%d: CEL compile error: %v", p.claimID(), j, err)
		}
		selectors = append(selectors, selectorRef{id: id, index: j, expr: sel.CEL.Expression})
	}
	a.selectorBuf = selectors[:0]
	return selectors, nil
}

// findCandidates evaluates the request's selectors and judges the devices
// that pass (candidates). An ExactCount request that cannot take devices
// in use has its selectors evaluated on the free devices only, as
// upstream's search skips devices in use before it looks at the
// selectors: a fresh Allocator then evaluates no more than it must. For a
// lone claim, only the first matches are judged (firstOnly), as many more
// as needed. Should the free devices not be enough, every device is
// judged, so that the message counts the ones in use. failed is the
// claim's failure, err a cancelled context.
func (a *Allocator) findCandidates(call *callState, r *requestPlan, s *requestSpec, selectors []selectorRef) (list *candidateList, failure *candidateFailure, failed *claimPlan, err error) {
	p := r.plan
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
		return nil, nil, failed, err
	}
	if r.all && len(call.view.invalid) > 0 {
		invalid := call.view.invalid[0]
		return nil, nil, p.fail(r.name, ReasonInvalidPool, nil, "asks for all devices, but resource pool %s/%s is invalid: %s", invalid.key.driver, invalid.key.pool, invalid.why()).
			upstreamAborts("claim %s, request %s: asks for all devices, but resource pool %s/%s is currently invalid", p.claimID(), s.upstreamName(), invalid.key.driver, invalid.key.pool), nil
	}
	if r.all && len(call.view.incomplete) > 0 {
		incomplete := call.view.incomplete[0]
		return nil, nil, p.fail(r.name, ReasonIncompletePool, nil, "asks for all devices, but resource pool %s/%s is being updated (not all of its slices are published)", incomplete.driver, incomplete.pool).
			upstreamAborts("claim %s, request %s: asks for all devices, but resource pool %s/%s is currently being updated", p.claimID(), s.upstreamName(), incomplete.driver, incomplete.pool), nil
	}
	list, failure = a.candidates(call, selectorsKey, masks, r)
	for need := first; first > 0; {
		if failure == nil && !list.hasCounters && !list.hasMulti && len(list.candidates) >= need &&
			(!constrained || firstValueCount(list) >= need) {
			break
		}
		if a.countedMatches(call.view, masks, untainted) < first {
			// Every free device has been looked at: judging them all
			// again would find the same candidates. (A scheduler asks
			// about every full node this way.)
			break
		}
		if failure != nil || list.hasCounters || list.hasMulti || (constrained && len(list.candidates) >= need) {
			// The search checks counters or shares and may then need
			// devices after the first ones, or the first candidate's
			// value is short (its devices may be anywhere, and looking
			// at twice as many rebuilds the candidates each time): judge
			// every free device, as without firstOnly.
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
			return nil, nil, failed, err
		}
		list, failure = a.candidates(call, selectorsKey, masks, r)
	}
	if free && (failure != nil || len(list.candidates) < r.count) && call.view.anyInUse() {
		if masks, selectorsKey, err = call.masksFor(a, selectors, false, 0, false); err != nil {
			failed, err := p.selectorFailed(r, s, err)
			return nil, nil, failed, err
		}
		list, failure = a.candidates(call, selectorsKey, masks, r)
	}
	return list, failure, nil, nil
}

// takeList gives the request the candidates of its list.
func (r *requestPlan) takeList(list *candidateList) {
	r.candidates, r.constraintValues = list.candidates, list.constraintValues
	for k, has := range list.lists {
		if has {
			r.plan.constraints[r.coveredBy[k]].sets = true
		}
	}
	r.multi, r.needs, r.uses = list.multi, list.needs, list.uses
	r.hasCounters, r.hasMulti = list.hasCounters, list.hasMulti
	r.matched, r.inUse, r.lacking = list.matched, list.inUse, list.lacking
}

// shortfall says why the request has fewer candidates than it asks for,
// counting what left devices out.
func (r *requestPlan) shortfall(v *view, list *candidateList) (Reason, string) {
	switch {
	case r.matched == 0 && list.noCapacity == 0:
		return ReasonNoMatch, "no device matches: " + noneReachable(v.total, r.class.Name) + v.leftOut()
	case list.lacking > 0 && len(r.candidates)+list.lacking >= r.count:
		free, have := len(r.candidates)+list.lacking, len(r.candidates)
		detail := "asks for " + counted(r.count, "device", "devices") + "; " + strconv.Itoa(free) + plural(free, " matches and is free", " match and are free")
		switch {
		case free == 1:
			detail += ", but it lacks "
		case have == 0:
			detail += ", but none of them has "
		default:
			detail += ", but only " + strconv.Itoa(have) + plural(have, " of them has ", " of them have ")
		}
		return ReasonConstraintUnsatisfiable, detail + r.comparedAttributes()
	}
	return ReasonNotEnough, r.notEnough(list)
}

// noneReachable says that none of the total devices the node can reach
// passes the selectors of the class and of the request.
func noneReachable(total int, class string) string {
	switch total {
	case 0:
		return "the node can reach no devices"
	case 1:
		return fmt.Sprintf("the 1 device the node can reach does not pass the selectors of DeviceClass %q and of the request", class)
	}
	return fmt.Sprintf("of the %d devices the node can reach, none passes the selectors of DeviceClass %q and of the request", total, class)
}

// comparedAttributes names what the request's constraints compare: "the
// attribute that the claim's constraint compares (numa)".
func (r *requestPlan) comparedAttributes() string {
	if len(r.coveredBy) == 1 {
		return "the attribute that the claim's constraint compares (" + r.constraintNames() + ")"
	}
	return "the attributes that the claim's constraints compare (" + r.constraintNames() + ")"
}

// notEnough is the detail of ReasonNotEnough, built without fmt: a
// scheduler asks node after node, and most nodes fail this way.
func (r *requestPlan) notEnough(list *candidateList) string {
	// The detail is built on the stack: only the string is allocated.
	var buf [160]byte
	b := buf[:0]
	b = append(b, "not enough devices: asks for "...)
	b = strconv.AppendInt(b, int64(r.count), 10)
	b = append(b, ", "...)
	b = appendCount(b, r.matched, "matches", "match")
	if list.inUse > 0 {
		b = append(b, ", of which "...)
		b = appendCount(b, list.inUse, "is", "are")
		b = append(b, " already allocated"...)
	}
	if list.tainted > 0 {
		t := list.firstTaint
		b = append(b, ", "...)
		b = appendCount(b, list.tainted, "has", "have")
		b = append(b, " a taint the request does not tolerate ("...)
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
		b = appendCount(b, list.lacking, "lacks", "lack")
		b = append(b, ' ')
		b = append(b, r.comparedAttributes()...)
	}
	if list.noCapacity > 0 {
		b = append(b, "; "...)
		b = strconv.AppendInt(b, int64(list.noCapacity), 10)
		switch {
		case r.matched == 0:
			b = append(b, plural(list.noCapacity, " passes the selectors but lacks", " pass the selectors but lack")...)
		default:
			b = append(b, plural(list.noCapacity, " more passes the selectors but lacks", " more pass the selectors but lack")...)
		}
		b = append(b, " the capacity the request asks for"...)
	}
	return string(b)
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
	p.fail(r.name, ReasonCELRuntimeError, failure.err, "%s: expression %q failed on device %s", where, failure.sel.expr, failure.device)
	if failure.sel.class != "" {
		return p.upstreamAborts("class %s: selector #%d on device %s: CEL runtime error: %v", failure.sel.class, failure.sel.index, failure.device, failure.err), nil
	}
	return p.upstreamAborts("claim %s: selector #%d on device %s: CEL runtime error: %v", p.claimID(), failure.sel.index, failure.device, failure.err), nil
}

// covers: a constraint without requests covers all; naming a request
// covers its alternatives, naming "request/alternative" that one.
func (c *constraintPlan) covers(parent, name string) bool {
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
	// abortDevice is the device of an All request at which upstream's
	// search ends the call (a constraint refuses it), if it does.
	abortDevice string
}

// sharedConsumption is what the shares allocated before the call consume
// of the capacities of device d of the entry. The entry remembers the
// shares of its devices until a device gains its first share or loses its
// last (sharesGen): candidates asks for every candidate on every call,
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
func (a *Allocator) derivedValuesOf(e *sliceEntry, expression string, kind attrKind) []int32 {
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
func (a *Allocator) derive(ctx context.Context, s *requestSpec, j int, e *sliceEntry, d int, kind attrKind) (int32, *candidateFailure) {
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
