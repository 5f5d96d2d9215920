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
	a     *Allocator
	v     *view
	used  []uint64 // devices taken in this call, by local index
	steps int64
	err   error
}

func newSolver(ctx context.Context, a *Allocator, v *view) *solver {
	return &solver{ctx: ctx, a: a, v: v, used: make([]uint64, (v.total+63)/64)}
}

func (s *solver) loc(c cand) int { return int(s.v.offsets[c.s] + c.d) }

// solve finds devices for all requests of seq. On success the chosen
// devices stay marked as used and each request's chosen list is set; on
// failure nothing changes. A cancelled context fails the search and sets err.
func (s *solver) solve(seq []*reqPlan) bool {
	for _, r := range seq {
		r.chosen = r.chosen[:0]
	}
	// The devices of an All request are fixed: reserve them up front so
	// that no other request wastes time on them.
	var reserved []int
	undo := func() {
		for _, l := range reserved {
			clearBit(s.used, l)
		}
	}
	for _, r := range seq {
		if !r.all || r.admin {
			continue
		}
		for _, c := range r.cands {
			l := s.loc(c)
			if hasBit(s.used, l) {
				undo()
				return false
			}
			setBit(s.used, l)
			reserved = append(reserved, l)
		}
	}
	if s.step(seq, 0) {
		return true
	}
	undo()
	return false
}

// release undoes a successful solve: the devices and the constraint values
// it took.
func (s *solver) release(seq []*reqPlan) {
	for _, r := range seq {
		for _, c := range r.chosen {
			if !r.admin {
				clearBit(s.used, s.loc(c))
			}
			for _, ci := range r.cons {
				r.plan.cons[ci].refs--
			}
		}
		r.chosen = r.chosen[:0]
	}
}

func (s *solver) tick() bool {
	s.steps++
	s.a.stats.SearchSteps++
	if s.steps&1023 == 0 && s.err == nil {
		s.err = s.ctx.Err()
	}
	return s.err == nil
}

func (s *solver) step(seq []*reqPlan, pos int) bool {
	if pos == len(seq) {
		return true
	}
	if !s.lookahead(seq, pos) {
		return false
	}
	r := seq[pos]
	if r.all {
		return s.takeAll(seq, pos, r)
	}
	return s.branch(seq, pos, r, 0)
}

// takeAll allocates every candidate of an All request (already reserved),
// which must agree on the constraints' values.
func (s *solver) takeAll(seq []*reqPlan, pos int, r *reqPlan) bool {
	cons := r.plan.cons
	added := make([]int, len(r.cons))
	ok := true
outer:
	for i := range r.cands {
		for k, ci := range r.cons {
			con := cons[ci]
			val := r.vals[k][i]
			if con.refs > 0 && con.value != val {
				ok = false
				break outer
			}
			con.value = val
			con.refs++
			added[k]++
		}
	}
	if ok {
		r.chosen = append(r.chosen[:0], r.cands...)
		if s.step(seq, pos+1) {
			return true
		}
		r.chosen = r.chosen[:0]
	}
	for k, ci := range r.cons {
		cons[ci].refs -= added[k]
	}
	return false
}

// eligible says whether candidate i of r can be taken now.
func (s *solver) eligible(r *reqPlan, i int) bool {
	if !r.admin && hasBit(s.used, s.loc(r.cands[i])) {
		return false
	}
	for k, ci := range r.cons {
		con := r.plan.cons[ci]
		if con.refs > 0 && con.value != r.vals[k][i] {
			return false
		}
	}
	return true
}

func (s *solver) countEligible(r *reqPlan, from, need int) int {
	n := 0
	for i := from; i < len(r.cands); i++ {
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
func (s *solver) lookahead(seq []*reqPlan, pos int) bool {
	var shared map[*cand]int
	for _, r := range seq[pos:] {
		if r.all {
			for i := range r.cands {
				for k, ci := range r.cons {
					con := r.plan.cons[ci]
					if con.refs > 0 && con.value != r.vals[k][i] {
						return false
					}
				}
			}
			continue
		}
		if len(r.cands) == 0 {
			return false
		}
		need := r.count
		// Devices already taken count for every request; requests without
		// constraints that share a list must also fit into it together.
		if !r.admin && len(r.cons) == 0 {
			if shared == nil {
				shared = map[*cand]int{}
			}
			shared[&r.cands[0]] += r.count
			need = shared[&r.cands[0]]
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
func (s *solver) branch(seq []*reqPlan, pos int, r *reqPlan, k int) bool {
	cons := r.plan.cons
	for k < len(r.cons) && cons[r.cons[k]].refs > 0 {
		k++
	}
	if k == len(r.cons) {
		return s.pick(seq, pos, r, 0, r.count)
	}
	con := cons[r.cons[k]]
	tried := map[int32]bool{}
	for i := range r.cands {
		if !s.eligible(r, i) {
			continue
		}
		val := r.vals[k][i]
		if tried[val] {
			continue
		}
		tried[val] = true
		if !s.tick() {
			return false
		}
		// Pin the value while the devices are chosen.
		con.value = val
		con.refs++
		// The value must leave enough devices for this request and for the
		// later requests under the same constraint.
		ok := s.countEligible(r, i, r.count) >= r.count && s.lookahead(seq, pos+1) && s.branch(seq, pos, r, k+1)
		con.refs--
		if ok {
			return true
		}
		if s.err != nil {
			return false
		}
	}
	return false
}

// pick chooses need more devices for r from cands[from:], then moves on.
func (s *solver) pick(seq []*reqPlan, pos int, r *reqPlan, from, need int) bool {
	if need == 0 {
		return s.step(seq, pos+1)
	}
	if need > 1 && s.countEligible(r, from, need) < need {
		return false
	}
	for i := from; i <= len(r.cands)-need; i++ {
		if !s.eligible(r, i) {
			continue
		}
		if !s.tick() {
			return false
		}
		s.take(r, i)
		if s.pick(seq, pos, r, i+1, need-1) {
			return true
		}
		s.untake(r, i)
		if s.err != nil {
			return false
		}
	}
	return false
}

func (s *solver) take(r *reqPlan, i int) {
	c := r.cands[i]
	r.chosen = append(r.chosen, c)
	if !r.admin {
		setBit(s.used, s.loc(c))
	}
	for k, ci := range r.cons {
		con := r.plan.cons[ci]
		con.value = r.vals[k][i]
		con.refs++
	}
}

func (s *solver) untake(r *reqPlan, i int) {
	c := r.cands[i]
	r.chosen = r.chosen[:len(r.chosen)-1]
	if !r.admin {
		clearBit(s.used, s.loc(c))
	}
	for _, ci := range r.cons {
		r.plan.cons[ci].refs--
	}
}
