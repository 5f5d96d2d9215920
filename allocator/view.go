package allocator

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/cel"
)

// view is the inventory as one node sees it: the slices of the newest
// generation of every pool the node reaches, in a fixed order (driver,
// pool, slice name), each device with an index local to the call.
type view struct {
	// What every call reads comes first (see viewOfOne).
	slices []*sliceEntry
	// nodeMasks are, per slice, the devices the node reaches (nil: all);
	// poolOf is, per slice, its pool in pools.
	nodeMasks [][]uint64
	poolOf    []int32
	total     int
	// hasCompat: a pool uses compatibility groups (poolState.compat).
	hasCompat bool
	pools     []*poolState
	offsets   []int32 // local index of each slice's first device

	incomplete []poolKey
	invalid    []invalidPool
}

// invalidPool is a pool whose slices name a device twice: results could
// not say which device they mean, so the pool is not used.
type invalidPool struct {
	key    poolKey
	device string
	// reason, when set, is why the pool is invalid other than a
	// duplicate device name.
	reason string
}

func (p invalidPool) why() string {
	if p.reason != "" {
		return p.reason
	}
	return fmt.Sprintf("device name %q is used twice", p.device)
}

// outOfBound is the first quantity beyond quantityguard's bound in the
// slices of a pool (scanned ones), or "".
func outOfBound(slices ...[]*sliceEntry) string {
	for _, l := range slices {
		for _, e := range l {
			if e.outOfBound != "" {
				return e.outOfBound
			}
		}
	}
	return ""
}

// poolCheck remembers the duplicate check of a pool for one set of slices.
type poolCheck struct {
	slices    []*sliceEntry
	duplicate string
}

// duplicateIn finds a device name that two of the slices (one pool, one
// generation) both use, remembering the answer for the same slices.
func (a *Allocator) duplicateIn(key poolKey, slices []*sliceEntry) string {
	if len(slices) < 2 {
		return firstDuplicate(slices)
	}
	if c, ok := a.poolChecks[key]; ok && sameEntries(c.slices, slices) {
		return c.duplicate
	}
	dup := firstDuplicate(slices)
	if a.poolChecks == nil {
		a.poolChecks = map[poolKey]poolCheck{}
	}
	a.poolChecks[key] = poolCheck{slices: append([]*sliceEntry(nil), slices...), duplicate: dup}
	return dup
}

func sameEntries(a, b []*sliceEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func firstDuplicate(slices []*sliceEntry) string {
	if len(slices) == 1 {
		// Within one slice the entry's index says.
		return slices[0].duplicate
	}
	seen := map[string]bool{}
	for _, e := range slices {
		for i := range e.devices {
			n := e.devices[i].Name
			if seen[n] {
				return n
			}
			seen[n] = true
		}
	}
	return ""
}

// anyInUse says whether a device of the view was allocated before the call.
func (v *view) anyInUse() bool {
	for _, e := range v.slices {
		for _, w := range e.inUse {
			if w != 0 {
				return true
			}
		}
	}
	return false
}

// viewDevice is a device of the view: the slice's position in the view
// (view.slices) and the device's index in the slice.
type viewDevice struct {
	slice, device int32
}

// selectorRef is one selector of a request, for error messages.
type selectorRef struct {
	id    int
	class string // set for class selectors
	index int
	expr  string
}

// matching returns, per slice of the view, the devices that pass all
// selectors, evaluating each selector only on the devices that passed the
// ones before it (as && would) and only where no earlier call did; with
// free, only on devices not in use, which the masks then leave out; with
// first above zero, device by device in view order until that many match,
// leaving out the devices after them. A runtime error stops at the first
// failing device, in view order.
func (a *Allocator) matching(ctx context.Context, v *view, selectors []selectorRef, key string, free bool, first int, untainted bool) ([][]uint64, *selectorRef, DeviceID, error) {
	masks := a.callWords.rows(len(v.slices))
	if first > 0 {
		return a.matchingFirst(ctx, v, selectors, key, first, untainted, masks)
	}
	for si, e := range v.slices {
		// The selectors' verdicts on a slice's devices never change, nor
		// does the mask they give (a mask of every device serves free
		// too: devices in use are left out later anyway).
		if m, ok := e.masks.get(key); ok {
			masks[si] = m
			continue
		}
		mask := append([]uint64(nil), e.selectable...)
		partial := false
		if free {
			for w := range mask {
				partial = partial || mask[w]&e.inUse[w] != 0
				mask[w] &^= e.inUse[w]
			}
		}
		for k := range selectors {
			if err := a.evaluate(ctx, e, selectors[k].id, mask); err != nil {
				e.freeVariables()
				return nil, nil, DeviceID{}, err
			}
			r := e.results[selectors[k].id]
			for w := range mask {
				if f := mask[w] & r.failed[w]; f != 0 {
					d := int32(w*64 + trailingZeros(f))
					e.freeVariables()
					return nil, &selectors[k], DeviceID{e.driver, e.pool, e.devices[d].Name}, r.errs[d]
				}
				mask[w] &= r.match[w]
			}
		}
		masks[si] = mask
		if partial {
			// Not every device was judged: nothing to keep but the
			// verdicts (e.results).
			e.freeVariables()
			continue
		}
		e.masks.put(key, mask)
		// Selector inputs are big compared with a device; results are
		// kept, so an input is rarely needed twice.
		e.freeVariables()
	}
	return masks, nil, DeviceID{}, nil
}

// matchingFirst is matching of the free devices the node reaches, in view
// order, until first of them match; with untainted, devices with a taint
// that blocks a request without tolerations are judged and kept in the
// masks, but do not count (uncounted).
func (a *Allocator) matchingFirst(ctx context.Context, v *view, selectors []selectorRef, key string, first int, untainted bool, masks [][]uint64) ([][]uint64, *selectorRef, DeviceID, error) {
	found := 0
	for si, e := range v.slices {
		mask := a.callWords.words(e.words)
		masks[si] = mask
		if found >= first {
			continue
		}
		blocked := a.uncounted(e, untainted)
		if m, ok := e.masks.get(key); ok {
			// Every device was judged before.
			for w := range mask {
				mask[w] = m[w] &^ e.inUse[w]
				if v.nodeMasks != nil && v.nodeMasks[si] != nil {
					mask[w] &= v.nodeMasks[si][w]
				}
				counted := mask[w]
				if blocked != nil {
					counted &^= blocked[w]
				}
				found += bits.OnesCount64(counted)
			}
			continue
		}
		one := a.callWords.words(e.words)
		for w := range mask {
			todo := e.selectable[w] &^ e.inUse[w]
			if v.nodeMasks != nil && v.nodeMasks[si] != nil {
				todo &= v.nodeMasks[si][w]
			}
			for todo != 0 && found < first {
				b := trailingZeros(todo)
				todo &^= 1 << uint(b)
				d := int32(w*64 + b)
				one[w] = 1 << uint(b)
				ok := true
				for k := range selectors {
					if err := a.evaluate(ctx, e, selectors[k].id, one); err != nil {
						e.freeVariables()
						return nil, nil, DeviceID{}, err
					}
					r := e.results[selectors[k].id]
					if r.failed[w]&one[w] != 0 {
						e.freeVariables()
						return nil, &selectors[k], DeviceID{e.driver, e.pool, e.devices[d].Name}, r.errs[d]
					}
					if r.match[w]&one[w] == 0 {
						ok = false
						break
					}
				}
				one[w] = 0
				if ok {
					mask[w] |= 1 << uint(b)
					if blocked == nil || !hasBit(blocked, int(d)) {
						found++
					}
				}
			}
		}
		e.freeVariables()
	}
	return masks, nil, DeviceID{}, nil
}

// selectorMasks are a slice's masks by the ids of a list of selectors
// (masksFor's interned keys). Most slices see one list, which a string
// comparison finds sooner than a map hashes it, and a fresh Allocator
// would make a map for every slice a scheduler's first pod looks at.
type selectorMasks struct {
	firstKey string
	first    []uint64
	hasFirst bool
	more     map[string][]uint64
	// firstWord holds first for a slice of up to 64 devices, in the
	// sliceEntry's first cache lines.
	firstWord [1]uint64
}

func (m *selectorMasks) get(key string) ([]uint64, bool) {
	if m.hasFirst && m.firstKey == key {
		return m.first, true
	}
	mask, ok := m.more[key]
	return mask, ok
}

func (m *selectorMasks) put(key string, mask []uint64) {
	if !m.hasFirst {
		if len(mask) == 1 {
			m.firstWord[0] = mask[0]
			mask = m.firstWord[:]
		}
		m.firstKey, m.first, m.hasFirst = key, mask, true
		return
	}
	if m.more == nil {
		m.more = map[string][]uint64{}
	}
	m.more[key] = mask
}

// uncounted are the devices of the slice that matchingFirst does not count
// with untainted: those with a NoSchedule or NoExecute taint, which a
// request without tolerations never gets (nil: none).
func (a *Allocator) uncounted(e *sliceEntry, untainted bool) []uint64 {
	if !untainted || !a.features.DeviceTaints {
		return nil
	}
	return a.taintsIn(e).blocking
}

// countedMatches is how many devices the masks of a view hold, without
// those matchingFirst does not count.
func (a *Allocator) countedMatches(v *view, masks [][]uint64, untainted bool) int {
	n := 0
	for si, m := range masks {
		blocked := a.uncounted(v.slices[si], untainted)
		for w := range m {
			x := m[w]
			if blocked != nil {
				x &^= blocked[w]
			}
			n += bits.OnesCount64(x)
		}
	}
	return n
}

// lookupAttribute finds the attribute a constraint names: under its full
// name, or under its id when the domain is the driver's.
func lookupAttribute(attrs map[resource.QualifiedName]resource.DeviceAttribute, driver string, name resource.FullyQualifiedName) (resource.DeviceAttribute, bool) {
	if len(attrs) == 0 {
		return resource.DeviceAttribute{}, false
	}
	full := string(name)
	if attr, ok := attrs[resource.QualifiedName(full)]; ok {
		return attr, true
	}
	domain, id := cel.SplitQualifiedName(full, "")
	if domain == "" || domain != driver {
		return resource.DeviceAttribute{}, false
	}
	attr, ok := attrs[resource.QualifiedName(id)]
	return attr, ok
}

func trailingZeros(w uint64) int { return bits.TrailingZeros64(w) }

// maskMemory hands out the masks that live for one call only (those of
// matchingFirst, and the per-slice tables of every call's masks), which
// every request on every node asked about allocated anew. Masks kept
// across calls (sliceEntry.masks) never come from it.
type maskMemory struct {
	buf   []uint64
	table [][]uint64
}

// reset makes the memory handed out in the last call available again.
func (m *maskMemory) reset() {
	m.buf, m.table = m.buf[:0], m.table[:0]
}

// words returns n zeroed words; appending to them never reaches memory
// handed out otherwise.
func (m *maskMemory) words(n int) []uint64 {
	if len(m.buf)+n > cap(m.buf) {
		// Memory handed out before stays with its holders.
		m.buf = make([]uint64, 0, max(2*cap(m.buf), n, 64))
	}
	start := len(m.buf)
	m.buf = m.buf[:start+n]
	w := m.buf[start : start+n : start+n]
	clear(w)
	return w
}

// rows returns a table of n nil masks, as words does.
func (m *maskMemory) rows(n int) [][]uint64 {
	if len(m.table)+n > cap(m.table) {
		m.table = make([][]uint64, 0, max(2*cap(m.table), n, 16))
	}
	start := len(m.table)
	m.table = m.table[:start+n]
	t := m.table[start : start+n : start+n]
	clear(t)
	return t
}
