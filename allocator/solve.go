package allocator

import (
	"context"
)

// solver searches for devices for a sequence of requests. Devices are
// chosen per request as combinations in view order (never the same set
// twice in another order); requests under a matchAttribute constraint first
// fix the value, trying each value that enough free devices have, so a
// constraint that no value satisfies is refuted by counting; before each
// request, every later request must still have enough eligible devices.
type solver struct {
	ctx   context.Context
	alloc *Allocator
	view  *view
	// used marks the devices taken in this call, by local index (see
	// localIndex).
	used  []uint64
	steps int64
	err   error
}

func newSolver(ctx context.Context, a *Allocator, v *view) *solver {
	return &solver{ctx: ctx, alloc: a, view: v, used: make([]uint64, (v.total+63)/64)}
}

// localIndex numbers the devices of the view consecutively, slice after
// slice, so that one bit set can say which of them are taken.
func (s *solver) localIndex(dev viewDevice) int { return int(s.view.offsets[dev.slice] + dev.device) }

// solve finds devices for all of the requests. On success the chosen
// devices stay marked as used and each request's chosen list is set; on
// failure nothing changes. A cancelled context fails the search and sets err.
func (s *solver) solve(requests []*requestPlan) bool {
	for _, r := range requests {
		r.chosen = r.chosen[:0]
	}
	// The devices of an All request are fixed: reserve them up front so
	// that no other request wastes time on them.
	var reserved []int
	undo := func() {
		for _, local := range reserved {
			clearBit(s.used, local)
		}
	}
	for _, r := range requests {
		if !r.all || r.admin {
			continue
		}
		for _, dev := range r.candidates {
			local := s.localIndex(dev)
			if hasBit(s.used, local) {
				undo()
				return false
			}
			setBit(s.used, local)
			reserved = append(reserved, local)
		}
	}
	if s.step(requests, 0) {
		return true
	}
	undo()
	return false
}

// release undoes a successful solve: the devices and the constraint values
// it took.
func (s *solver) release(requests []*requestPlan) {
	for _, r := range requests {
		for _, dev := range r.chosen {
			if !r.admin {
				clearBit(s.used, s.localIndex(dev))
			}
			for _, ci := range r.coveredBy {
				r.plan.constraints[ci].fixedBy--
			}
		}
		r.chosen = r.chosen[:0]
	}
}

func (s *solver) tick() bool {
	s.steps++
	s.alloc.stats.SearchSteps++
	if s.steps&1023 == 0 && s.err == nil {
		s.err = s.ctx.Err()
	}
	return s.err == nil
}

func (s *solver) step(requests []*requestPlan, pos int) bool {
	if pos == len(requests) {
		return true
	}
	if !s.lookahead(requests, pos) {
		return false
	}
	r := requests[pos]
	if r.all {
		return s.takeAll(requests, pos, r)
	}
	return s.branch(requests, pos, r, 0)
}

// takeAll allocates every candidate of an All request (already reserved),
// which must agree on the constraints' values.
func (s *solver) takeAll(requests []*requestPlan, pos int, r *requestPlan) bool {
	constraints := r.plan.constraints
	added := make([]int, len(r.coveredBy))
	ok := true
outer:
	for i := range r.candidates {
		for k, ci := range r.coveredBy {
			con := constraints[ci]
			value := r.constraintValues[k][i]
			if con.fixedBy > 0 && con.value != value {
				ok = false
				break outer
			}
			con.value = value
			con.fixedBy++
			added[k]++
		}
	}
	if ok {
		r.chosen = append(r.chosen[:0], r.candidates...)
		if s.step(requests, pos+1) {
			return true
		}
		r.chosen = r.chosen[:0]
	}
	for k, ci := range r.coveredBy {
		constraints[ci].fixedBy -= added[k]
	}
	return false
}

// eligible says whether candidate i of r can be taken now.
func (s *solver) eligible(r *requestPlan, i int) bool {
	if !r.admin && hasBit(s.used, s.localIndex(r.candidates[i])) {
		return false
	}
	for k, ci := range r.coveredBy {
		con := r.plan.constraints[ci]
		if con.fixedBy > 0 && con.value != r.constraintValues[k][i] {
			return false
		}
	}
	return true
}

func (s *solver) countEligible(r *requestPlan, from, need int) int {
	n := 0
	for i := from; i < len(r.candidates); i++ {
		if s.eligible(r, i) {
			n++
			if n >= need {
				return n
			}
		}
	}
	return n
}

// lookahead checks that every request from pos on still has enough
// eligible devices, and that requests drawing on the very same candidates
// have enough of them together.
func (s *solver) lookahead(requests []*requestPlan, pos int) bool {
	var shared map[*viewDevice]int
	for _, r := range requests[pos:] {
		if r.all {
			for i := range r.candidates {
				for k, ci := range r.coveredBy {
					con := r.plan.constraints[ci]
					if con.fixedBy > 0 && con.value != r.constraintValues[k][i] {
						return false
					}
				}
			}
			continue
		}
		if len(r.candidates) == 0 {
			return false
		}
		need := r.count
		// Devices already taken count for every request; requests without
		// constraints that share a list must also fit into it together.
		if !r.admin && len(r.coveredBy) == 0 {
			if shared == nil {
				shared = map[*viewDevice]int{}
			}
			shared[&r.candidates[0]] += r.count
			need = shared[&r.candidates[0]]
		}
		if s.countEligible(r, 0, need) < need {
			return false
		}
	}
	return true
}

// branch fixes, one after the other, the values of the request's
// constraints that no chosen device fixed yet, trying only values that
// enough eligible candidates have, in the order they first appear.
func (s *solver) branch(requests []*requestPlan, pos int, r *requestPlan, k int) bool {
	constraints := r.plan.constraints
	for k < len(r.coveredBy) && constraints[r.coveredBy[k]].fixedBy > 0 {
		k++
	}
	if k == len(r.coveredBy) {
		return s.pick(requests, pos, r, 0, r.count)
	}
	con := constraints[r.coveredBy[k]]
	tried := map[int32]bool{}
	for i := range r.candidates {
		if !s.eligible(r, i) {
			continue
		}
		value := r.constraintValues[k][i]
		if tried[value] {
			continue
		}
		tried[value] = true
		if !s.tick() {
			return false
		}
		// Pin the value while the devices are chosen.
		con.value = value
		con.fixedBy++
		// The value must leave enough devices for this request and for the
		// later requests under the same constraint.
		ok := s.countEligible(r, i, r.count) >= r.count && s.lookahead(requests, pos+1) && s.branch(requests, pos, r, k+1)
		con.fixedBy--
		if ok {
			return true
		}
		if s.err != nil {
			return false
		}
	}
	return false
}

// pick chooses need more devices for r from r.candidates[from:], then
// moves on to the next request.
func (s *solver) pick(requests []*requestPlan, pos int, r *requestPlan, from, need int) bool {
	if need == 0 {
		return s.step(requests, pos+1)
	}
	if need > 1 && s.countEligible(r, from, need) < need {
		return false
	}
	for i := from; i <= len(r.candidates)-need; i++ {
		if !s.eligible(r, i) {
			continue
		}
		if !s.tick() {
			return false
		}
		s.take(r, i)
		if s.pick(requests, pos, r, i+1, need-1) {
			return true
		}
		s.untake(r, i)
		if s.err != nil {
			return false
		}
	}
	return false
}

func (s *solver) take(r *requestPlan, i int) {
	dev := r.candidates[i]
	r.chosen = append(r.chosen, dev)
	if !r.admin {
		setBit(s.used, s.localIndex(dev))
	}
	for k, ci := range r.coveredBy {
		con := r.plan.constraints[ci]
		con.value = r.constraintValues[k][i]
		con.fixedBy++
	}
}

func (s *solver) untake(r *requestPlan, i int) {
	dev := r.candidates[i]
	r.chosen = r.chosen[:len(r.chosen)-1]
	if !r.admin {
		clearBit(s.used, s.localIndex(dev))
	}
	for _, ci := range r.coveredBy {
		r.plan.constraints[ci].fixedBy--
	}
}
