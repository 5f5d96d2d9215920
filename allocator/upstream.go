package allocator

import (
	"fmt"
	"strings"
)

// What kube-scheduler 1.37 makes of what drakit finds. drakit's
// allocator answers for each claim; upstream's (v0.37.2, which the
// scheduler's DRA plugin runs on every node it filters) fails some of
// the same cases differently, in three ways:
//
//   - it cannot allocate the claims on the node: the filter reports
//     "cannot allocate all claims" for the node, and the scheduler goes on
//     with the other nodes;
//   - it ends its whole Allocate call with an error (a feature that is
//     off, more than 32 devices, an All request whose pool is incomplete
//     or invalid or whose device breaks a constraint, a CEL error): the
//     filter returns the error, and the scheduler fails the pod's whole
//     scheduling attempt (condition reason SchedulerError), whatever the
//     other nodes could do;
//   - the scheduler's PreFilter rejects the pod before it looks at any
//     node (a DeviceClass that does not exist, firstAvailable while
//     DRAPrioritizedList is off): the pod is unschedulable with that one
//     message (schedulerPreFilter).
//
// The texts below are upstream's, so that users can match what drakit
// predicts with what `kubectl describe pod` shows.

// The DRA filter's reasons for one node (dynamicresources.go).
const (
	SchedulerCannotAllocate    = "cannot allocate all claims"
	SchedulerClaimNotAvailable = "resourceclaim not available on the node"
)

// upstreamFailure is how upstream reports a claim failure that it does not
// report as "cannot allocate all claims": the error with which its
// allocator ends the call.
type upstreamFailure struct {
	text string
}

// upstreamAborts records that upstream ends the call with this error
// where the plan's claim fails.
func (p *claimPlan) upstreamAborts(format string, args ...any) *claimPlan {
	p.err.upstream = &upstreamFailure{text: fmt.Sprintf(format, args...)}
	return p
}

// upstreamName is the name upstream gives a request or an alternative in
// its errors: an alternative's own name, without its request's.
func (s *requestSpec) upstreamName() string {
	return strings.TrimPrefix(s.name, s.parent+"/")
}

// probeBudget bounds the steps upstreamAbort takes; past it, drakit says
// nothing about an abort (upstream's search is exponential where drakit's
// is not, see doc.go).
const probeBudget = 100_000

// mayAbortInSearch reports whether upstream's search could end the call
// with a constraint error on these requests: when it meets a device of an
// All request (or alternative) that a constraint refuses.
func mayAbortInSearch(requests []*requestPlan) bool {
	for _, r := range requests {
		if r.all && len(r.coveredBy) > 0 {
			return true
		}
		for _, alt := range r.alts {
			if alt.all && len(alt.coveredBy) > 0 {
				return true
			}
		}
	}
	return false
}

// upstreamAbort follows upstream's search on the requests, which drakit's
// does not (it fixes constraint values first, looks ahead and
// backtracks): claims, requests and alternatives in order, each exact
// request's devices as the first combination in view order that fits,
// an All request's devices one after the other. Upstream ends the call
// with an error at the first device of an All request that is free but
// that a constraint refuses ("cannot add device ... because a claim
// constraint would not be satisfied"), rather than trying other devices
// for the requests before it. The text of that error is returned, "" when
// upstream's search finds an allocation or fails without it first (or
// runs past probeBudget). The solver holds nothing afterwards.
func (s *solver) upstreamAbort(requests []*requestPlan) string {
	return s.probeAbort(requests, false)
}

// upstreamAbortBefore is upstreamAbort for a call in which a claim fails
// before the search (plans in order; the first failed one decides):
// upstream's search reaches that claim's failing request only after the
// claims and requests before it, trying every combination of their
// devices in its order, and ends the call with a constraint's error if
// one of them, or a device of the failing All request before the one that
// fails it (claimPlan.failsAt), breaks a constraint first. "" when upstream
// fails the claims without an error, or reports one of its own before the
// search (ClaimError's upstream, which markUpstreamAborts prefers).
func (s *solver) upstreamAbortBefore(plans []*claimPlan) string {
	var requests []*requestPlan
	for _, p := range plans {
		if p.alreadyAllocated {
			continue
		}
		requests = append(requests, p.requests...)
		if p.err == nil {
			continue
		}
		if p.err.upstream != nil {
			return ""
		}
		if p.failsAt != nil {
			requests = append(requests, p.failsAt)
		}
		break
	}
	if !mayAbortInSearch(requests) {
		return ""
	}
	return s.probeAbort(requests, true)
}

// probeAbort runs the probe over requests; with failing, what comes after
// them fails, so reaching their end is a failure and the probe goes on
// with the next combination, as upstream's search backtracks.
func (s *solver) probeAbort(requests []*requestPlan, failing bool) string {
	pr := &probe{s: s, budget: probeBudget, failing: failing}
	if pr.step(requests, 0) {
		s.untake(requests)
	}
	if pr.abortReq == nil {
		return ""
	}
	r := pr.abortReq
	dev := r.candidates[pr.abortDev]
	e := s.view.slices[dev.slice]
	return fmt.Sprintf("claim %s, request %s: cannot add device %s because a claim constraint would not be satisfied",
		r.plan.claimID(), r.spec.upstreamName(), DeviceID{e.driver, e.pool, e.devices[dev.device].Name})
}

type probe struct {
	s      *solver
	budget int
	// failing: the requests are followed by one that fails (see
	// probeAbort).
	failing  bool
	abortReq *requestPlan
	abortDev int
}

func (pr *probe) stopped() bool {
	return pr.abortReq != nil || pr.budget <= 0 || pr.s.err != nil
}

func (pr *probe) step(requests []*requestPlan, pos int) bool {
	if pos == len(requests) {
		return !pr.failing
	}
	pr.budget--
	if pr.stopped() || !pr.s.tick() {
		return false
	}
	r := requests[pos]
	if len(r.alts) > 0 {
		for j, alt := range r.alts {
			if alt.impossible != nil {
				continue
			}
			requests[pos] = alt
			ok := pr.step(requests, pos)
			requests[pos] = r
			if ok {
				r.selected = j
				return true
			}
			if pr.stopped() {
				return false
			}
		}
		return false
	}
	if r.plan.taken+r.need() > maxResults {
		return false
	}
	if r.all {
		return pr.takeAll(requests, pos, r)
	}
	return pr.pick(requests, pos, r, 0, r.count)
}

func (pr *probe) takeAll(requests []*requestPlan, pos int, r *requestPlan) bool {
	s := pr.s
	for i := range r.candidates {
		if !s.eligible(r, i) {
			if s.eligibleWithoutConstraints(r, i) {
				pr.abortReq, pr.abortDev = r, i
			}
			for range r.chosen {
				s.untakeLast(r)
			}
			return false
		}
		s.take(r, i)
	}
	if r == r.plan.failsAt {
		// The device after these fails the request.
		for range r.chosen {
			s.untakeLast(r)
		}
		return false
	}
	if pr.step(requests, pos+1) {
		return true
	}
	for range r.chosen {
		s.untakeLast(r)
	}
	return false
}

func (pr *probe) pick(requests []*requestPlan, pos int, r *requestPlan, from, need int) bool {
	if need == 0 {
		return pr.step(requests, pos+1)
	}
	s := pr.s
	for i := from; i < len(r.candidates); i++ {
		if !s.eligible(r, i) {
			continue
		}
		pr.budget--
		if pr.stopped() || !s.tick() {
			return false
		}
		s.take(r, i)
		if pr.pick(requests, pos, r, i+1, need-1) {
			return true
		}
		s.untakeLast(r)
		if pr.stopped() {
			return false
		}
	}
	return false
}

// eligibleWithoutConstraints is eligible as if no constraint covered the
// request: whether the device is free, and its counters and capacity
// suffice, which upstream checks before the constraints.
func (s *solver) eligibleWithoutConstraints(r *requestPlan, i int) bool {
	covered := r.coveredBy
	r.coveredBy = nil
	ok := s.eligible(r, i)
	r.coveredBy = covered
	return ok
}

// schedulerPreFilter is why the DRA plugin's PreFilter rejects the pod
// before the scheduler looks at any node, in its words, or "": a claim
// to allocate whose request (or alternative) names a DeviceClass that
// does not exist, or that has alternatives while PrioritizedList is off;
// claims in order, requests in order, the first such.
func (p *podPlacer) schedulerPreFilter(call *podCall) string {
	for _, cs := range call.toAlloc {
		for _, r := range cs.hub.Spec.Devices.Requests {
			switch {
			case r.Exactly != nil:
				if !p.classNames[r.Exactly.DeviceClassName] {
					return fmt.Sprintf("request %s: device class %s does not exist", r.Name, r.Exactly.DeviceClassName)
				}
			case len(r.FirstAvailable) > 0 && !p.workers[0].features.PrioritizedList:
				return fmt.Sprintf("resource claim %s, request %s: has subrequests, but the DRAPrioritizedList feature is disabled", claimName(cs.hub), r.Name)
			default:
				for _, sub := range r.FirstAvailable {
					if !p.classNames[sub.DeviceClassName] {
						return fmt.Sprintf("request %s/%s: device class %s does not exist", r.Name, sub.Name, sub.DeviceClassName)
					}
				}
			}
		}
	}
	return ""
}
