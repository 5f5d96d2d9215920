package allocator

import (
	"context"
	"slices"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
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
	solverState
	steps int64
	err   error
	// upstreamProbe is what upstreamAbort found for the call's requests.
	upstreamProbe string
	// skipCompat, set only while a failure is diagnosed: the counter set
	// whose compatibility groups compatAdmits ignores (every set when its
	// pool is -1).
	skipCompat *compatSkip
}

// solverState is what the devices taken in the call hold.
type solverState struct {
	// used marks the devices taken in this call, by local index (see
	// localIndex).
	used []uint64
	// adminUse counts, per local index, the
	// adminAccess requests that took the device (others cannot take it);
	// shares are the shares of multi-allocation devices taken in the call;
	// consumed is, per pool of the view, what the call consumes of its
	// counters.
	adminUse []int16
	shares   map[int]*callShares
	consumed [][]apiresource.Quantity
	// compat is, per pool of the view that uses compatibility groups, the
	// state of its counter sets (poolState.compatRun); compatLog what
	// takes changed, for undoing them.
	compat    [][]groupState
	compatLog []compatSave
}

// callShares are the shares of one multi-allocation device taken in the
// call: the request and candidate of each, whose need they consume.
type callShares struct {
	taken []shareTake
}

type shareTake struct {
	r *requestPlan
	i int
}

// fitsShares reports whether need fits into the device's capacities on
// top of the shares allocated before the call and those taken in it.
func fitsShares(d *resource.Device, need, before map[resource.QualifiedName]apiresource.Quantity, sh *callShares) bool {
	for name, c := range d.Capacity {
		sum := need[name].DeepCopy()
		if q, ok := before[name]; ok {
			sum.Add(q)
		}
		if sh != nil {
			for _, t := range sh.taken {
				if q, ok := t.r.needOf(t.i)[name]; ok {
					sum.Add(q)
				}
			}
		}
		if sum.Cmp(c.Value) > 0 {
			return false
		}
	}
	return true
}

// newSolver reuses the Allocator's solver and the memory of its last
// state (an Allocator serves one call at a time, and nothing of a search
// outlives its call): a scheduler asks about node after node.
func newSolver(ctx context.Context, a *Allocator, v *view) *solver {
	s := &a.search
	last := s.solverState
	*s = solver{ctx: ctx, alloc: a, view: v}
	words := (v.total + 63) / 64
	st := solverState{used: last.used[:0], shares: last.shares}
	clear(st.shares)
	if cap(st.used) < words {
		st.used = make([]uint64, words)
	} else {
		st.used = st.used[:words]
		clear(st.used)
	}
	st.consumed = last.consumed[:0]
	for _, p := range v.pools {
		var c []apiresource.Quantity
		if i := len(st.consumed); i < cap(st.consumed) {
			c = st.consumed[:i+1][i][:0]
		}
		if p.counters != nil {
			n := len(p.counters.value)
			if cap(c) < n {
				c = make([]apiresource.Quantity, n)
			} else {
				c = c[:n]
				clear(c)
			}
		} else {
			c = nil // as freshState leaves it
		}
		st.consumed = append(st.consumed, c)
	}
	st.compat = compatStates(v)
	s.solverState = st
	s.installCounters(st)
	return s
}

func (s *solver) freshState() solverState {
	st := solverState{used: make([]uint64, (s.view.total+63)/64)}
	// adminUse and shares are made on first use.
	st.consumed = make([][]apiresource.Quantity, len(s.view.pools))
	for i, p := range s.view.pools {
		if p.counters != nil {
			st.consumed[i] = make([]apiresource.Quantity, len(p.counters.value))
		}
	}
	st.compat = compatStates(s.view)
	s.installCounters(st)
	return st
}

// installCounters points the view's pools at the state's counters.
func (s *solver) installCounters(st solverState) {
	for i, p := range s.view.pools {
		if st.consumed != nil {
			p.consumed = st.consumed[i]
		}
		if st.compat != nil {
			p.compatRun = st.compat[i]
		}
	}
}

// compatStates are the states of the counter sets of the view's pools
// that use compatibility groups before anything is taken in the call
// (nil when none does).
func compatStates(v *view) [][]groupState {
	if !v.hasCompat {
		return nil
	}
	states := make([][]groupState, len(v.pools))
	for i, p := range v.pools {
		if p.compat != nil {
			states[i] = slices.Clone(p.compat.baseline)
		}
	}
	return states
}

// swapState replaces the state (for diagnose), returning the old one.
func (s *solver) swapState(st solverState) solverState {
	old := s.solverState
	s.solverState = st
	s.installCounters(st)
	return old
}

// localIndex numbers the devices of the view consecutively, slice after
// slice, so that one bit set can say which of them are taken.
func (s *solver) localIndex(dev viewDevice) int { return int(s.view.offsets[dev.slice] + dev.device) }

// solve finds devices for all of the requests. On success the chosen
// devices stay marked as used and each request's chosen list is set; on
// failure nothing changes. A cancelled context fails the search and sets err.
func (s *solver) solve(requests []*requestPlan) bool {
	return s.step(requests, 0)
}

// untake undoes a successful solve: the devices and the constraint values
// it took.
func (s *solver) untake(requests []*requestPlan) {
	// In reverse, so that shares give back counters as they took them.
	for k := len(requests) - 1; k >= 0; k-- {
		r := requests[k].concrete()
		for i := len(r.chosen) - 1; i >= 0; i-- {
			s.untakeLast(r)
		}
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
	if len(r.alts) > 0 {
		// The first alternative with which everything else can be
		// allocated too.
		for j, alt := range r.alts {
			if alt.impossible != nil {
				continue
			}
			requests[pos] = alt
			ok := s.step(requests, pos)
			requests[pos] = r
			if ok {
				r.selected = j
				return true
			}
			if s.err != nil {
				return false
			}
		}
		return false
	}
	if r.plan.taken+r.need() > maxResults {
		return false
	}
	if r.all {
		return s.takeAll(requests, pos, r)
	}
	return s.branch(requests, pos, r, 0)
}

// takeAll takes every candidate of an All request, each of which must
// be free and agree with the constraints.
func (s *solver) takeAll(requests []*requestPlan, pos int, r *requestPlan) bool {
	for i := range r.candidates {
		if !s.eligible(r, i) {
			for range r.chosen {
				s.untakeLast(r)
			}
			return false
		}
		s.take(r, i)
	}
	if s.step(requests, pos+1) {
		return true
	}
	for range r.chosen {
		s.untakeLast(r)
	}
	return false
}

// eligible says whether candidate i of r can be taken now.
func (s *solver) eligible(r *requestPlan, i int) bool {
	dev := r.candidates[i]
	local := s.localIndex(dev)
	multi := r.isMulti(i)
	switch {
	case multi:
		// Shared: any number of requests and claims may take it, as far
		// as its capacity goes.
	case !r.admin:
		if hasBit(s.used, local) || s.adminUse != nil && s.adminUse[local] > 0 {
			return false
		}
	default:
		// adminAccess: not a device another request of the claim took.
		if s.takenInClaim(r.plan, dev) {
			return false
		}
	}
	for k, ci := range r.coveredBy {
		con := r.plan.constraints[ci]
		value := r.constraintValues[k][i]
		switch {
		case con.sets:
			if !s.fitsSet(con, value) {
				return false
			}
		case con.distinct:
			if con.taken[value] > 0 {
				return false
			}
		case con.fixedBy > 0 && con.value != value:
			return false
		}
	}
	if multi {
		// The candidates of a request other than All fit on top of the
		// shares allocated before the call (candidates): only shares
		// taken in the call can change that.
		if sh := s.shares[local]; r.all || sh != nil && len(sh.taken) > 0 {
			e := s.view.slices[dev.slice]
			if !fitsShares(&e.devices[dev.device], r.needOf(i), s.alloc.sharedConsumption(e, int(dev.device)), sh) {
				return false
			}
		}
	}
	if uses := r.usesOf(i); len(uses) > 0 && !(multi && s.capacityInUse(dev, local)) {
		if !s.view.pools[s.view.poolOf[dev.slice]].fits(uses) {
			return false
		}
	}
	if s.view.hasCompat && !(multi && s.capacityInUse(dev, local)) && !s.compatAdmits(dev) {
		return false
	}
	return true
}

// takenFrom counts the candidates of r that devices taken in the call
// keep from it (for messages): devices that are not shared and that
// another request took, unless r has adminAccess.
func (s *solver) takenFrom(r *requestPlan) int {
	if r.admin {
		return 0
	}
	n := 0
	for i, dev := range r.candidates {
		local := s.localIndex(dev)
		if !r.isMulti(i) && (hasBit(s.used, local) || s.adminUse != nil && s.adminUse[local] > 0) {
			n++
		}
	}
	return n
}

// takenInClaim reports whether a request of the claim took the device.
func (s *solver) takenInClaim(p *claimPlan, dev viewDevice) bool {
	for _, q := range p.requests {
		for _, c := range append([]*requestPlan{q}, q.alts...) {
			for _, d := range c.chosen {
				if d == dev {
					return true
				}
			}
		}
	}
	return false
}

// capacityInUse: a multi-allocation device has shares already (before or
// in the call); its counters are consumed once, by the first share.
func (s *solver) capacityInUse(dev viewDevice, local int) bool {
	if sh := s.shares[local]; sh != nil && len(sh.taken) > 0 {
		return true
	}
	e := s.view.slices[dev.slice]
	return s.alloc.shares[DeviceID{e.driver, e.pool, e.devices[dev.device].Name}] != nil
}

func (s *solver) countEligible(r *requestPlan, from, need int) int {
	if r.hasCounters || r.hasDistinct() {
		return s.boundEligible(r, from)
	}
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

func (r *requestPlan) hasDistinct() bool {
	for _, ci := range r.coveredBy {
		if r.plan.constraints[ci].distinct {
			return true
		}
	}
	return false
}

// boundEligible is an upper bound on how many of the eligible candidates
// from on can be taken together: devices of a pool that consume counters
// no more than what is left of each counter divided by the least amount
// one of them consumes, and no more devices than distinct values of each
// distinctAttribute constraint. Linear in the candidates.
func (s *solver) boundEligible(r *requestPlan, from int) int {
	plain := 0
	type poolCount struct {
		n   int
		min []int64
	}
	var pools map[int32]*poolCount
	var distinct []map[int32]bool
	for k, ci := range r.coveredBy {
		if r.plan.constraints[ci].distinct {
			if distinct == nil {
				distinct = make([]map[int32]bool, len(r.coveredBy))
			}
			distinct[k] = map[int32]bool{}
		}
	}
	for i := from; i < len(r.candidates); i++ {
		if !s.eligible(r, i) {
			continue
		}
		for k, m := range distinct {
			if m != nil {
				m[r.constraintValues[k][i]] = true
			}
		}
		dev := r.candidates[i]
		uses := r.usesOf(i)
		if len(uses) == 0 || r.isMulti(i) && s.capacityInUse(dev, s.localIndex(dev)) {
			plain++
			continue
		}
		pi := s.view.poolOf[dev.slice]
		if pools == nil {
			pools = map[int32]*poolCount{}
		}
		pc := pools[pi]
		if pc == nil {
			pc = &poolCount{min: make([]int64, len(s.view.pools[pi].left))}
			for k := range pc.min {
				pc.min[k] = -1
			}
			pools[pi] = pc
		}
		pc.n++
		seen := make([]bool, len(pc.min))
		for _, u := range uses {
			if u.milli < 0 {
				pc.min[u.counter] = 0 // no bound from this counter
				continue
			}
			seen[u.counter] = true
			if pc.min[u.counter] < 0 || u.milli < pc.min[u.counter] {
				pc.min[u.counter] = u.milli
			}
		}
		for k, ok := range seen {
			if !ok {
				// A device that does not consume this counter.
				pc.min[k] = 0
			}
		}
	}
	n := plain
	for pi, pc := range pools {
		room := s.view.pools[pi].room(pc.min)
		if room >= 0 && room < pc.n {
			n += room
		} else {
			n += pc.n
		}
	}
	for _, m := range distinct {
		if m != nil && len(m) < n {
			n = len(m)
		}
	}
	return n
}

// lookahead checks that every request from pos on still has enough
// eligible devices, and that requests drawing on the very same candidates
// have enough of them together.
func (s *solver) lookahead(requests []*requestPlan, pos int) bool {
	// A list with the count each shared candidate list must hold: the
	// requests of one call are few (each needs a device, an allocation
	// holds at most 32), and a map would be allocated on every step.
	var sharedBuf [8]sharedNeed
	shared := sharedBuf[:0]
	for _, r := range requests[pos:] {
		if r.all {
			for i := range r.candidates {
				if !s.eligible(r, i) {
					return false
				}
			}
			continue
		}
		if len(r.alts) > 0 {
			// One alternative must still be possible on its own.
			possible := false
			for _, alt := range r.alts {
				if alt.impossible == nil && s.lookahead([]*requestPlan{alt}, 0) {
					possible = true
					break
				}
			}
			if !possible {
				return false
			}
			continue
		}
		if len(r.candidates) == 0 {
			return false
		}
		need := r.count
		// Devices already taken count for every request; requests without
		// constraints that share a list must also fit into it together
		// (not when devices are shared).
		if !r.admin && len(r.coveredBy) == 0 && !r.hasMulti {
			list := &r.candidates[0]
			k := 0
			for k < len(shared) && shared[k].list != list {
				k++
			}
			if k == len(shared) {
				shared = append(shared, sharedNeed{list: list})
			}
			shared[k].need += r.count
			need = shared[k].need
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
	// Constraints that compare sets are not fixed: what the devices share
	// narrows as they are chosen, so pick tries them in order, as
	// upstream does.
	for k < len(r.coveredBy) && (constraints[r.coveredBy[k]].fixedBy > 0 || constraints[r.coveredBy[k]].sets) {
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
		s.untakeLast(r)
		if s.err != nil {
			return false
		}
	}
	return false
}

func (s *solver) take(r *requestPlan, i int) {
	dev := r.candidates[i]
	r.chosen = append(r.chosen, dev)
	r.chosenIndex = append(r.chosenIndex, int32(i))
	r.plan.taken++
	local := s.localIndex(dev)
	multi := r.isMulti(i)
	counted := false
	if uses := r.usesOf(i); len(uses) > 0 && !(multi && s.capacityInUse(dev, local)) {
		s.view.pools[s.view.poolOf[dev.slice]].consume(uses, +1)
		counted = true
	}
	r.counted = append(r.counted, counted)
	if s.view.hasCompat {
		r.compatMark = append(r.compatMark, int32(len(s.compatLog)))
		if s.view.pools[s.view.poolOf[dev.slice]].compat != nil && !(multi && s.capacityInUse(dev, local)) {
			s.compatTake(dev)
		}
	}
	switch {
	case multi:
		sh := s.shares[local]
		if sh == nil {
			// From memory the Allocator reuses from call to call.
			sh = s.alloc.callShareSets.next()
			sh.taken = sh.taken[:0]
			if s.shares == nil {
				s.shares = map[int]*callShares{}
			}
			s.shares[local] = sh
		}
		sh.taken = append(sh.taken, shareTake{r, i})
	case r.admin:
		if s.adminUse == nil {
			s.adminUse = make([]int16, s.view.total)
		}
		s.adminUse[local]++
	default:
		setBit(s.used, local)
	}
	for k, ci := range r.coveredBy {
		con := r.plan.constraints[ci]
		value := r.constraintValues[k][i]
		if con.sets {
			s.addToSet(con, value)
			continue
		}
		if con.distinct {
			if con.taken == nil {
				con.taken = map[int32]int{}
			}
			con.taken[value]++
			continue
		}
		con.value = value
		con.fixedBy++
	}
}

// untakeLast undoes the request's last take.
func (s *solver) untakeLast(r *requestPlan) {
	last := len(r.chosen) - 1
	i := int(r.chosenIndex[last])
	dev := r.chosen[last]
	counted := r.counted[last]
	r.chosen, r.chosenIndex, r.counted = r.chosen[:last], r.chosenIndex[:last], r.counted[:last]
	r.plan.taken--
	local := s.localIndex(dev)
	switch {
	case r.isMulti(i):
		sh := s.shares[local]
		for k := len(sh.taken) - 1; k >= 0; k-- {
			if sh.taken[k] == (shareTake{r, i}) {
				sh.taken = append(sh.taken[:k], sh.taken[k+1:]...)
				break
			}
		}
		if len(sh.taken) == 0 {
			delete(s.shares, local)
		}
	case r.admin:
		s.adminUse[local]--
	default:
		clearBit(s.used, local)
	}
	if counted {
		s.view.pools[s.view.poolOf[dev.slice]].consume(r.usesOf(i), -1)
	}
	if s.view.hasCompat {
		mark := r.compatMark[last]
		r.compatMark = r.compatMark[:last]
		s.compatUndo(int(mark))
	}
	for k, ci := range r.coveredBy {
		con := r.plan.constraints[ci]
		if con.sets {
			s.removeFromSet(con, r.constraintValues[k][i])
			continue
		}
		if con.distinct {
			con.taken[r.constraintValues[k][i]]--
			continue
		}
		con.fixedBy--
	}
}

// elements are the elements of an interned value under set comparison
// (constraintPlan.sets): a list's, or the single value itself (one kept
// in buf).
func (s *solver) elements(value int32, buf *[1]int32) []int32 {
	if elems := s.alloc.attributeElems[value]; elems != nil {
		return elems
	}
	buf[0] = value
	return buf[:]
}

// fitsSet: a device with the value can join the chosen devices under a
// constraint that compares sets: for matchAttribute, its elements meet
// what the chosen devices share; for distinctAttribute, none of its
// elements is a chosen device's.
func (s *solver) fitsSet(con *constraintPlan, value int32) bool {
	var buf [1]int32
	elems := s.elements(value, &buf)
	if con.distinct {
		for _, e := range elems {
			if con.taken[e] > 0 {
				return false
			}
		}
		return true
	}
	if con.fixedBy == 0 {
		return true
	}
	return intersects(con.stack[con.fixedBy-1], elems)
}

// addToSet records a chosen device's value (fitsSet said yes).
func (s *solver) addToSet(con *constraintPlan, value int32) {
	var buf [1]int32
	elems := s.elements(value, &buf)
	if con.distinct {
		if con.taken == nil {
			con.taken = map[int32]int{}
		}
		for _, e := range elems {
			con.taken[e]++
		}
		return
	}
	var shared []int32
	if n := con.fixedBy; n < len(con.stack) {
		shared = con.stack[n][:0] // memory of an earlier level
	}
	if con.fixedBy == 0 {
		shared = append(shared, elems...)
	} else {
		shared = intersection(shared, con.stack[con.fixedBy-1], elems)
	}
	if con.fixedBy < len(con.stack) {
		con.stack[con.fixedBy] = shared
	} else {
		con.stack = append(con.stack, shared)
	}
	con.fixedBy++
}

// removeFromSet undoes the last addToSet of the value.
func (s *solver) removeFromSet(con *constraintPlan, value int32) {
	if !con.distinct {
		con.fixedBy--
		return
	}
	var buf [1]int32
	for _, e := range s.elements(value, &buf) {
		con.taken[e]--
	}
}

// intersects reports whether two sorted lists have an element in common.
func intersects(a, b []int32) bool {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// intersection appends to dst the elements two sorted lists share.
func intersection(dst, a, b []int32) []int32 {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			dst = append(dst, a[i])
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return dst
}

// sharedNeed is, in lookahead, how many devices the requests that share a
// candidate list (named by its first candidate) need of it together.
type sharedNeed struct {
	list *viewDevice
	need int
}
