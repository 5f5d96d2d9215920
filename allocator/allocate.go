package allocator

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/apis/resource"
)

// Result is the outcome for one claim.
type Result struct {
	// Claim is the claim as it was given; it is not modified.
	Claim *resource.ResourceClaim
	// Allocation is what the claim gets, nil when Err is set.
	Allocation *resource.AllocationResult
	// AlreadyAllocated is set for a claim that came with an allocation;
	// Allocation is then that allocation, and its devices counted as in use
	// for the other claims of the call.
	AlreadyAllocated bool
	// Err says why the claim was not allocated; a *ClaimError.
	Err error
	// UpstreamAbort, when set, is the error with which upstream's
	// allocator (v0.37.2) ends the same call, in its words, where drakit
	// answers claim by claim (Err or Allocation): a feature that is off,
	// too many devices, an All request whose pool is incomplete or
	// invalid or whose device a constraint refuses, a CEL error.
	// kube-scheduler's DRA filter returns that error, and the scheduler
	// fails the pod's scheduling attempt (SchedulerError) instead of
	// trying other nodes. In Joint mode every result of the call has it;
	// in Sequential mode (which upstream does not have) a claim's own.
	UpstreamAbort string
}

// AllocatedClaim returns a copy of the claim with the allocation in its
// status, or nil if the claim was not allocated.
func (r Result) AllocatedClaim() *resource.ResourceClaim {
	if r.Err != nil || r.Allocation == nil {
		return nil
	}
	c := r.Claim.DeepCopy()
	c.Status.Allocation = r.Allocation.DeepCopy()
	return c
}

// Allocate allocates the claims for the Allocator's node (Options.Node,
// SetNode). The result has one entry per claim, in order. Claims that
// cannot be allocated get a *ClaimError in their entry; the error return
// is only for a cancelled context. Allocate does not change the
// Allocator's record of devices in use: call Commit to keep the results.
func (a *Allocator) Allocate(ctx context.Context, claims []*resource.ResourceClaim) ([]Result, error) {
	return a.AllocateOn(ctx, a.node, claims)
}

// AllocateOn is Allocate for the given node (nil: no node, see Options.Node).
// A call goes through the stages doc.go describes: the view of the node
// (viewFor), the plan of each claim (planClaim), the search (allocateJoint
// or allocateSequential, with blame when the claims cannot all be
// allocated) and the results (finish).
func (a *Allocator) AllocateOn(ctx context.Context, node *corev1.Node, claims []*resource.ResourceClaim) ([]Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	results := make([]Result, len(claims))
	held, err := a.holdAllocated(claims, results)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, d := range held {
			a.unhold(d)
		}
	}()
	a.startCall(node)
	call := &callState{ctx: ctx, node: node, view: a.viewFor(node), masks: &a.callMasks, candidateLists: &a.callLists}
	toAllocate := 0
	for _, c := range claims {
		if c.Status.Allocation == nil {
			toAllocate++
		}
	}
	call.lone = toAllocate == 1
	plans := a.callPlans[:0]
	for _, c := range claims {
		p, err := a.planClaim(call, c)
		if err != nil {
			return nil, err
		}
		plans = append(plans, p)
	}
	a.callPlans = plans
	search := newSolver(ctx, a, call.view)
	if a.mode == Sequential {
		results, err = a.allocateSequential(search, plans, results)
	} else {
		results, err = a.allocateJoint(search, plans, results)
	}
	if err != nil {
		return nil, err
	}
	markUpstreamAborts(results, a.mode, search.upstreamProbe)
	return results, nil
}

// markUpstreamAborts fills in Result.UpstreamAbort: in Joint mode every
// result gets the first claim's error that upstream reports as an error
// of the call, else what the probe of its search found; in Sequential
// mode each claim its own.
func markUpstreamAborts(results []Result, mode Mode, probe string) {
	abort := ""
	for i := range results {
		ce, ok := results[i].Err.(*ClaimError)
		if !ok || ce.upstream == nil {
			continue
		}
		if mode == Sequential {
			results[i].UpstreamAbort = ce.upstream.text
		} else if abort == "" {
			abort = ce.upstream.text
		}
	}
	if mode == Sequential {
		return
	}
	if abort == "" {
		abort = probe
	}
	for i := range results {
		results[i].UpstreamAbort = abort
	}
}

// holdAllocated fills in each result's claim and records what the claims
// that come allocated hold, for the call (held, to be released after it).
func (a *Allocator) holdAllocated(claims []*resource.ResourceClaim, results []Result) ([]*resource.DeviceRequestAllocationResult, error) {
	var held []*resource.DeviceRequestAllocationResult
	for i, c := range claims {
		if c == nil {
			for _, d := range held {
				a.unhold(d)
			}
			return nil, fmt.Errorf("claims[%d] is nil", i)
		}
		results[i].Claim = c
		if c.Status.Allocation != nil {
			devices := c.Status.Allocation.AllocatedDevices()
			for j := range devices {
				if a.hold(&devices[j]) {
					held = append(held, &devices[j])
				}
			}
		}
	}
	return held, nil
}

// allocateSequential allocates the claims one after the other (Sequential).
func (a *Allocator) allocateSequential(search *solver, plans []*claimPlan, results []Result) ([]Result, error) {
	var before []*claimPlan
	for i, p := range plans {
		if err := a.settle(search, p, before, &results[i]); err != nil {
			return nil, err
		}
		if results[i].Err == nil && !p.alreadyAllocated {
			before = append(before, p)
		}
	}
	return results, nil
}

// allocateJoint allocates the claims together, all or nothing (Joint).
func (a *Allocator) allocateJoint(search *solver, plans []*claimPlan, results []Result) ([]Result, error) {
	failed := false
	requests := a.callRequests[:0]
	for _, p := range plans {
		if p.err != nil {
			failed = true
		}
		if !p.alreadyAllocated {
			requests = append(requests, p.requests...)
		}
	}
	// The memory serves the next call; nothing else of this call appends
	// to it.
	a.callRequests = requests[:0]
	if failed {
		search.upstreamProbe = search.upstreamAbortBefore(plans)
		if search.err != nil {
			return nil, search.err
		}
		return a.blame(search, plans, results)
	}
	if mayAbortInSearch(requests) {
		search.upstreamProbe = search.upstreamAbort(requests)
		if search.err != nil {
			return nil, search.err
		}
	}
	ok := search.solve(requests)
	if search.err != nil {
		return nil, search.err
	}
	if !ok {
		return a.blame(search, plans, results)
	}
	blamed := -1
	for i, p := range plans {
		a.finish(search.view, p, &results[i])
		if results[i].Err != nil && blamed < 0 {
			blamed = i
		}
	}
	if blamed >= 0 {
		// A claim's devices cannot be described (see severalTerms):
		// all or nothing.
		for i, p := range plans {
			if i != blamed && !p.alreadyAllocated {
				results[i].Allocation = nil
				results[i].Err = otherClaimFailed(p, plans[blamed])
			}
		}
	}
	return results, nil
}

// blame finds, when the claims cannot be allocated together, the first
// claim that cannot join the ones before it and says why (diagnose); the
// others fail because of it.
func (a *Allocator) blame(search *solver, plans []*claimPlan, results []Result) ([]Result, error) {
	blamed := -1
	var prefix []*requestPlan
	var before []*claimPlan
	for i, p := range plans {
		if p.alreadyAllocated {
			continue
		}
		if p.err != nil {
			blamed = i
			break
		}
		prefix = append(prefix, p.requests...)
		if search.solve(prefix) {
			search.untake(prefix)
			before = append(before, p)
			continue
		}
		if search.err != nil {
			return nil, search.err
		}
		blamed = i
		results[i].Err = a.diagnose(search, p, before)
		if search.err != nil {
			return nil, search.err
		}
		break
	}
	for i, p := range plans {
		switch {
		case p.alreadyAllocated:
			a.finish(search.view, p, &results[i])
		case p.err != nil:
			results[i].Err = p.err
		case blamed < 0:
			// Unreachable: the last prefix is the joint search that failed.
			results[i].Err = &ClaimError{Claim: p.claimID(), Reason: ReasonConflict, Detail: "the claims cannot be allocated together"}
		case i != blamed:
			results[i].Err = otherClaimFailed(p, plans[blamed])
		}
	}
	return results, nil
}

func otherClaimFailed(p, blamed *claimPlan) *ClaimError {
	return &ClaimError{Claim: p.claimID(), Reason: ReasonOtherClaimFailed,
		Detail: fmt.Sprintf("not allocated because claim %s cannot be allocated, and the claims of one call are allocated together (Joint mode)", blamed.claimID())}
}

// settle allocates one claim on top of what the solver holds: on success
// the devices stay taken and the result is filled; on failure the result
// gets the reason. before lists the claims the solver holds devices for in
// Joint mode (for the message).
func (a *Allocator) settle(search *solver, p *claimPlan, before []*claimPlan, res *Result) error {
	if p.alreadyAllocated || p.err != nil {
		a.finish(search.view, p, res)
		return nil
	}
	ok := search.solve(p.requests)
	if search.err != nil {
		return search.err
	}
	if ok {
		a.finish(search.view, p, res)
		if res.Err != nil {
			// Not allocated after all (see severalTerms): the devices are
			// free for the claims after it.
			search.untake(p.requests)
		}
		return nil
	}
	res.Err = a.diagnose(search, p, before)
	return search.err
}

// diagnose explains why a claim's requests cannot be met together on top
// of what the solver holds.
func (a *Allocator) diagnose(search *solver, p *claimPlan, before []*claimPlan) *ClaimError {
	// Alone, without the devices of other claims of the call?
	held := search.swapState(search.freshState())
	alone := search.solve(p.requests)
	if alone {
		search.untake(p.requests)
	}
	search.swapState(held)
	if search.err != nil {
		return &ClaimError{Claim: p.claimID(), Reason: ReasonConflict, Detail: "search cancelled", Err: search.err}
	}
	if alone {
		others := claimNames(before)
		if others == "" {
			others = "the claims"
		}
		return &ClaimError{Claim: p.claimID(), Reason: ReasonConflict,
			Detail: "the claim could be allocated on its own, but not together with " + others + " allocated before it in this call"}
	}
	// The first request that cannot join the ones before it. In
	// Sequential mode the search holds the devices of the claims before
	// it; in Joint mode (blame) it holds none here, and the claim fails on
	// its own.
	var holders []*claimPlan
	if a.mode == Sequential {
		holders = before
	}
	for j := range p.requests {
		if search.solve(p.requests[:j+1]) {
			search.untake(p.requests[:j+1])
			continue
		}
		if search.err != nil {
			break
		}
		return a.blameRequest(search, p, j, holders)
	}
	return &ClaimError{Claim: p.claimID(), Reason: ReasonConflict, Detail: "the requests cannot be met together", Err: search.err}
}

// blameRequest explains why request j of the claim cannot join the
// requests before it and the devices that the claims of the call the
// search holds (holders) take: its alternatives, its constraints, or the
// devices it competes for.
func (a *Allocator) blameRequest(search *solver, p *claimPlan, j int, holders []*claimPlan) *ClaimError {
	r := p.requests[j]
	var earlier []string
	for _, o := range p.requests[:j] {
		earlier = append(earlier, o.name)
	}
	if len(r.alts) > 0 {
		var names []string
		var limits requestPlan // what limits any of them
		for _, alt := range r.alts {
			names = append(names, alt.resultName)
			limits.hasCounters = limits.hasCounters || alt.hasCounters
			limits.hasMulti = limits.hasMulti || alt.hasMulti
		}
		detail := "none of the alternatives (" + strings.Join(names, ", ") + ") can be allocated"
		if len(names) == 1 {
			detail = "the only alternative (" + names[0] + ") cannot be allocated"
		}
		var with []string
		if len(earlier) > 0 {
			with = append(with, named("request", "requests", earlier)+" of the claim")
		}
		if others := claimNames(holders); others != "" {
			with = append(with, others+" allocated before it in this call")
		}
		if len(with) > 0 {
			detail += " together with " + strings.Join(with, " and ")
		}
		return &ClaimError{Claim: p.claimID(), Request: r.name, Reason: ReasonNotEnough, Detail: detail + limits.limits()}
	}
	var constraintNames []string
	distinct := false
	for _, ci := range r.coveredBy {
		con := p.constraints[ci]
		kind := "matchAttribute"
		if con.distinct {
			kind, distinct = "distinctAttribute", true
		}
		constraintNames = append(constraintNames, fmt.Sprintf("spec.devices.constraints[%d] (%s %s)", con.index, kind, con.attribute))
	}
	constraints := strings.Join(constraintNames, ", ")
	fitsAlone := search.solve(p.requests[j : j+1])
	if fitsAlone {
		search.untake(p.requests[j : j+1])
	}
	matching, taken := len(r.candidates), search.takenFrom(r)
	// The request is alone here, and one device meets any constraint on
	// its own: a request for one device fails for the devices that are
	// taken or what limits them, not for its constraints; and so does an
	// All request that cannot have all of its devices.
	constrained := len(constraintNames) > 0 && r.count > 1
	if r.all {
		constrained = len(constraintNames) > 0 && matching > 1 && taken == 0
	}
	switch {
	case !fitsAlone && constrained:
		var detail string
		switch {
		case r.all && distinct:
			detail = "asks for all " + strconv.Itoa(matching) + " devices that match, but they do not all have the values required by " + constraints
		case r.all:
			detail = "asks for all " + strconv.Itoa(matching) + " devices that match, but they do not all share a value for " + constraints
		case distinct:
			detail = fmt.Sprintf("%d devices match, but no %d of them that are free have the values required by %s", matching, r.count, constraints)
		default:
			detail = fmt.Sprintf("%d devices match, but no %d of them that are free share a value for %s", matching, r.count, constraints)
		}
		return &ClaimError{Claim: p.claimID(), Request: r.name, Reason: ReasonConstraintUnsatisfiable, Detail: detail + r.limits()}
	case !fitsAlone:
		// Compatibility groups, when they are to blame, rather than
		// what generally limits the candidates.
		limits := a.compatBlame(search, p.requests[j:j+1])
		if limits == "" {
			limits = r.limits()
		}
		detail := "not enough free devices: asks for "
		switch {
		case r.all && matching == 1:
			detail += "the 1 device that matches"
		case r.all:
			detail += "all " + strconv.Itoa(matching) + " devices that match"
		default:
			detail += strconv.Itoa(r.count) + ", " + strconv.Itoa(matching) + plural(matching, " matches", " match")
		}
		switch {
		case taken > 0:
			by := claimNames(holders)
			if by == "" {
				by = "the claims"
			}
			if matching == 1 {
				detail += ", but it is taken by " + by + " allocated before it in this call"
			} else {
				detail += ", but " + strconv.Itoa(taken) + plural(taken, " of them is", " of them are") + " taken by " + by + " allocated before it in this call"
			}
		case !r.all:
			detail += plural(matching, " and is", " and are") + " not taken by other claims"
		}
		e := &ClaimError{Claim: p.claimID(), Request: r.name, Reason: ReasonNotEnough, Detail: detail + limits}
		if !r.all {
			e.asks, e.free = r.count, matching-taken
		}
		return e
	case len(constraintNames) > 0:
		return &ClaimError{Claim: p.claimID(), Request: r.name, Reason: ReasonConstraintUnsatisfiable,
			Detail: "the request can be met on its own, but not together with " + named("request", "requests", earlier) + " under " + constraints}
	}
	return &ClaimError{Claim: p.claimID(), Request: r.name, Reason: ReasonNotEnough,
		Detail: "not enough devices for this request together with " + named("request", "requests", earlier) + " of the claim, which " + plural(len(earlier), "competes", "compete") + " for the same devices" + a.compatBlame(search, p.requests[:j+1])}
}

// claimNames names the claims: "claim ns/a", "claims ns/a, ns/b"; "" for
// none.
func claimNames(plans []*claimPlan) string {
	names := make([]string, len(plans))
	for i, b := range plans {
		names[i] = b.claimID()
	}
	return named("claim", "claims", names)
}

// limits names what else limits how many candidates can be taken
// together.
func (r *requestPlan) limits() string {
	switch {
	case r.hasCounters && r.hasMulti:
		return " (the counters of their pools and the capacity of shared devices allow no more)"
	case r.hasCounters:
		return " (the counters of their pools allow no more)"
	case r.hasMulti:
		return " (the capacity of shared devices allows no more)"
	}
	return ""
}

// finish fills a result from a plan: its error, or its allocation.
func (a *Allocator) finish(v *view, p *claimPlan, res *Result) {
	switch {
	case p.alreadyAllocated:
		res.AlreadyAllocated = true
		res.Allocation = p.claim.Status.Allocation
		return
	case p.err != nil:
		res.Err = p.err
		return
	}
	alloc, err := a.buildAllocation(v, a.callNode, p)
	if err != nil {
		res.Err = err
		return
	}
	res.Allocation = alloc
}

func mergeRequirements(to, from []corev1.NodeSelectorRequirement) []corev1.NodeSelectorRequirement {
	for _, req := range from {
		dup := false
		for _, have := range to {
			if have.Key == req.Key && have.Operator == req.Operator && sameValues(have.Values, req.Values) {
				dup = true
				break
			}
		}
		if !dup {
			to = append(to, *req.DeepCopy())
		}
	}
	return to
}

func sameValues(a, b []string) bool {
	x := append([]string(nil), a...)
	y := append([]string(nil), b...)
	sort.Strings(x)
	sort.Strings(y)
	x, y = dedupe(x), dedupe(y)
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
