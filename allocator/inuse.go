package allocator

// inUseSet is the record of whole devices in use, by pool. The devices
// given to New (Options.AllocatedDevices) stay a list until a pool is
// asked about: a call looks at the few pools its node sees, and indexing
// every device of a large cluster up front would cost a fresh Allocator
// more than its first call. A pool is indexed on first use by one pass
// over the list; after poolScanLimit pools the whole list is grouped by
// pool at once, so that a long-lived Allocator pays one pass, not one per
// pool, and each pool is still indexed only when first asked about.
type inUseSet struct {
	// pending are devices in use that no pool index holds yet.
	pending []DeviceID
	// Once indexAll grouped the pending devices, runs lists where each
	// pool's devices are in grouped, the first run of a pool name (of any
	// driver) in firstRun (the others follow through next); a pool's index
	// is made from its runs when the pool is first asked about. Runs of
	// pools indexed before are never read: pools is asked first.
	grouped  []DeviceID
	firstRun map[string]int32
	runs     []deviceRun
	// pools are the indexed pools: device names in use (nil: none).
	pools map[poolKey]map[string]struct{}
	// last is the pool asked about last (lastKey), when lastOK: the
	// devices of a result, committed one after the other, are mostly of
	// one pool, and comparing names costs less than hashing them.
	lastKey poolKey
	last    map[string]struct{}
	lastOK  bool
}

// deviceRun is grouped[from:to], devices of one pool; next is the pool's
// next run, -1 when none.
type deviceRun struct{ from, to, next int32 }

const poolScanLimit = 8

// pool returns the device names in use in a pool (nil when none), indexing
// the pool first if needed.
func (s *inUseSet) pool(k poolKey) map[string]struct{} {
	if s.lastOK && s.lastKey == k {
		return s.last
	}
	m, indexed := s.lookup(k)
	if indexed {
		s.lastKey, s.last, s.lastOK = k, m, true
	}
	return m
}

// lookup is pool without the memory of the last pool; indexed reports
// whether the pool has an entry in pools.
func (s *inUseSet) lookup(k poolKey) (m map[string]struct{}, indexed bool) {
	if m, ok := s.pools[k]; ok {
		return m, true
	}
	if s.pools == nil {
		s.pools = map[poolKey]map[string]struct{}{}
	}
	if s.firstRun != nil {
		return s.fromRuns(k)
	}
	if len(s.pending) == 0 {
		return nil, false
	}
	if len(s.pools) >= poolScanLimit {
		s.indexAll()
		return s.fromRuns(k)
	}
	// The pool names of a cluster tend to share their length and differ
	// at the end (node names): the last byte, compared inline, turns most
	// other pools away before a call to compare the strings.
	pool := k.pool
	last := byte(0)
	if len(pool) > 0 {
		last = pool[len(pool)-1]
	}
	for i := range s.pending {
		id := &s.pending[i]
		if len(id.Pool) != len(pool) || len(pool) > 0 && id.Pool[len(pool)-1] != last {
			continue
		}
		if id.Pool == pool && id.Driver == k.driver {
			if m == nil {
				m = map[string]struct{}{}
			}
			m[id.Device] = struct{}{}
		}
	}
	s.pools[k] = m
	return m, true
}

// indexAll groups every pending device by pool, for fromRuns. Pools that
// are indexed already hold their pending devices (and later changes). A
// long-lived Allocator asks about most pools; a cold one, of a scheduler
// asking node after node, about a part of them: building every pool's
// index here cost it about an eighth of its first call.
func (s *inUseSet) indexAll() {
	// The devices of an allocation come pool by pool: a run of one pool's
	// devices hashes the pool's name once, and the name alone (not the
	// driver too) is hashed.
	s.runs = s.runs[:0]
	for i := 0; i < len(s.pending); {
		id := &s.pending[i]
		j := i + 1
		for j < len(s.pending) && s.pending[j].Pool == id.Pool && s.pending[j].Driver == id.Driver {
			j++
		}
		s.runs = append(s.runs, deviceRun{int32(i), int32(j), -1})
		i = j
	}
	s.firstRun = make(map[string]int32, len(s.runs))
	for r := range s.runs {
		pool := s.pending[s.runs[r].from].Pool
		if next, ok := s.firstRun[pool]; ok {
			s.runs[r].next = next
		}
		s.firstRun[pool] = int32(r)
	}
	s.grouped, s.pending = s.pending, nil
}

// poolRuns calls f with each run of the pool's devices in grouped.
func (s *inUseSet) poolRuns(k poolKey, f func(ids []DeviceID)) {
	first, ok := s.firstRun[k.pool]
	if !ok {
		return
	}
	for r := first; r >= 0; r = s.runs[r].next {
		ids := s.grouped[s.runs[r].from:s.runs[r].to]
		if ids[0].Driver == k.driver {
			f(ids)
		}
	}
}

// fromRuns indexes a pool from its runs of grouped devices (indexAll).
// A pool without any has nothing in use: it is indexed as such, so that
// the next lookup finds it at once.
func (s *inUseSet) fromRuns(k poolKey) (m map[string]struct{}, indexed bool) {
	n := 0
	s.poolRuns(k, func(ids []DeviceID) { n += len(ids) })
	if n > 0 {
		m = make(map[string]struct{}, n)
		s.poolRuns(k, func(ids []DeviceID) {
			for _, id := range ids {
				m[id.Device] = struct{}{}
			}
		})
	}
	s.pools[k] = m
	return m, true
}

// runsOnly reports whether the pool's devices in use are still only the
// runs indexAll grouped (poolRuns), with no index made since: a pool that
// is only read needs none.
func (s *inUseSet) runsOnly(k poolKey) bool {
	if s.firstRun == nil {
		return false
	}
	_, indexed := s.pools[k]
	return !indexed
}

func (s *inUseSet) has(id DeviceID) bool {
	_, ok := s.pool(poolKey{id.Driver, id.Pool})[id.Device]
	return ok
}

// add records a device as in use; it reports whether it was not before.
func (s *inUseSet) add(id DeviceID) bool {
	k := poolKey{id.Driver, id.Pool}
	m := s.pool(k)
	if m == nil {
		m = map[string]struct{}{}
		s.pools[k] = m
		s.lastKey, s.last, s.lastOK = k, m, true
	}
	// One hash of the name: the set grows only when the name is new.
	n := len(m)
	m[id.Device] = struct{}{}
	return len(m) > n
}

func (s *inUseSet) remove(id DeviceID) {
	delete(s.pool(poolKey{id.Driver, id.Pool}), id.Device)
}

// arena hands out zeroed values that live until the next reset: the
// plans of one call, which a long-lived Allocator would otherwise allocate
// anew for every node a scheduler asks about.
type arena[T any] struct {
	chunks      [][]T
	chunk, used int
}

func (a *arena[T]) reset() { a.chunk, a.used = 0, 0 }

func (a *arena[T]) new() *T {
	p := a.next()
	var zero T
	*p = zero
	return p
}

// next is new without the zeroing: the value is the one a call before
// left there, whose slices the caller may keep (truncated) and must
// otherwise reset.
func (a *arena[T]) next() *T {
	for {
		if a.chunk == len(a.chunks) {
			a.chunks = append(a.chunks, make([]T, 8<<len(a.chunks)))
		}
		if c := a.chunks[a.chunk]; a.used < len(c) {
			p := &c[a.used]
			a.used++
			return p
		}
		a.chunk++
		a.used = 0
	}
}
