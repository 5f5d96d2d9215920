package allocator

import (
	"context"
	"fmt"
	"math/bits"
	"sort"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/cel"
)

// view is the inventory as one node sees it: the slices of the newest
// generation of every pool the node reaches, in a fixed order (driver,
// pool, slice name), each device with an index local to the call.
type view struct {
	slices     []*sliceEntry
	offsets    []int32 // local index of each slice's first device
	total      int
	incomplete []poolKey
	invalid    []invalidPool

	// With the 1.37 semantics (not legacy):
	// nodeMasks are, per slice, the devices the node reaches (nil: all);
	// poolOf is, per slice, its pool in pools.
	nodeMasks [][]uint64
	poolOf    []int32
	pools     []*poolState
	// hasCompat: a pool uses compatibility groups (poolState.compat).
	hasCompat bool
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
// slices of a pool (prepared ones), or "".
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

func (a *Allocator) viewFor(node *corev1.Node) *view {
	if !a.legacy {
		return a.viewFor137(node)
	}
	// The buffers of the previous call are reused: an Allocator serves one
	// call at a time.
	visible := a.visible[:0]
	defer func() { a.visible = visible[:0] }()
	if node != nil {
		visible = a.appendNodeSlices(visible, node.Name)
		for _, e := range a.bySelector {
			if e.selector.matches(node) {
				visible = append(visible, e)
			}
		}
	}
	visible = append(visible, a.allNodes...)
	for _, e := range visible {
		a.prepared(e)
	}
	sort.Slice(visible, func(i, j int) bool {
		x, y := visible[i], visible[j]
		if x.driver != y.driver {
			return x.driver < y.driver
		}
		if x.pool != y.pool {
			return x.pool < y.pool
		}
		if x.generation != y.generation {
			return x.generation > y.generation
		}
		return x.key < y.key
	})
	v := &a.scratch
	v.slices, v.incomplete, v.invalid, v.total = v.slices[:0], v.incomplete[:0], v.invalid[:0], 0
	for i := 0; i < len(visible); {
		first := visible[i]
		key := poolKey{first.driver, first.pool}
		j := i
		n := 0
		// Only the newest generation of a pool counts: older slices are
		// leftovers of an update in progress. They sort first.
		for ; j < len(visible) && visible[j].driver == first.driver && visible[j].pool == first.pool; j++ {
			if visible[j].generation == first.generation {
				n++
			}
		}
		if bad := outOfBound(visible[i : i+n]); bad != "" {
			v.invalid = append(v.invalid, invalidPool{key: key, reason: bad})
		} else if dup := a.duplicateIn(key, visible[i:i+n]); dup != "" {
			v.invalid = append(v.invalid, invalidPool{key: key, device: dup})
		} else {
			v.slices = append(v.slices, visible[i:i+n]...)
		}
		if int64(n) != first.sliceCount {
			v.incomplete = append(v.incomplete, key)
		}
		i = j
	}
	v.offsets = v.offsets[:0]
	for _, e := range v.slices {
		v.offsets = append(v.offsets, int32(v.total))
		v.total += len(e.devices)
	}
	return v
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
		if m, ok := e.masks[key]; ok {
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
				e.releaseInputs()
				return nil, nil, DeviceID{}, err
			}
			r := e.results[selectors[k].id]
			for w := range mask {
				if f := mask[w] & r.failed[w]; f != 0 {
					d := int32(w*64 + trailingZeros(f))
					e.releaseInputs()
					return nil, &selectors[k], DeviceID{e.driver, e.pool, e.devices[d].Name}, r.errs[d]
				}
				mask[w] &= r.match[w]
			}
		}
		masks[si] = mask
		if partial {
			// Not every device was judged: nothing to keep but the
			// verdicts (e.results).
			e.releaseInputs()
			continue
		}
		if e.masks == nil {
			e.masks = map[string][]uint64{}
		}
		e.masks[key] = mask
		// Selector inputs are big compared with a device; results are
		// kept, so an input is rarely needed twice.
		e.releaseInputs()
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
		if m, ok := e.masks[key]; ok {
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
						e.releaseInputs()
						return nil, nil, DeviceID{}, err
					}
					r := e.results[selectors[k].id]
					if r.failed[w]&one[w] != 0 {
						e.releaseInputs()
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
		e.releaseInputs()
	}
	return masks, nil, DeviceID{}, nil
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

// attributeKey finds the attribute a matchAttribute constraint compares:
// the attribute with exactly that name, or, when the name's domain is the
// driver's, the attribute written without the domain. Capacities are not
// attributes. The key encodes type and value, so that 1 and "1" differ.
// List-valued attributes (v1alpha2 intSlice and stringSlice, and the list
// attributes of later releases) match when the lists are equal, element by
// element; the 1.37 rule (lists match when they share an element) belongs
// to a later allocator.
func attributeKey(attrs map[resource.QualifiedName]resource.DeviceAttribute, driver string, name resource.FullyQualifiedName) (string, bool) {
	attr, ok := lookupAttribute(attrs, driver, name)
	if !ok {
		return "", false
	}
	return valueKey(&attr)
}

// valueKey is attributeKey for a value at hand (a derived attribute's).
func valueKey(attr *resource.DeviceAttribute) (string, bool) {
	switch {
	case attr.StringValue != nil:
		return "s" + *attr.StringValue, true
	case attr.IntValue != nil:
		return "i" + itoa(*attr.IntValue), true
	case attr.BoolValue != nil:
		if *attr.BoolValue {
			return "btrue", true
		}
		return "bfalse", true
	case attr.VersionValue != nil:
		// Versions compare as written, like the scheduler does.
		return "v" + *attr.VersionValue, true
	case attr.IntValues != nil:
		k := "I"
		for _, n := range attr.IntValues {
			k += itoa(n) + ","
		}
		return k, true
	case attr.StringValues != nil:
		return "S" + stringsKey(attr.StringValues), true
	case attr.BoolValues != nil:
		k := "B"
		for _, b := range attr.BoolValues {
			if b {
				k += "t"
			} else {
				k += "f"
			}
		}
		return k, true
	case attr.VersionValues != nil:
		return "V" + stringsKey(attr.VersionValues), true
	}
	return "", false
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

// stringsKey encodes a list of strings unambiguously.
func stringsKey(list []string) string {
	k := ""
	for _, s := range list {
		k += itoa(int64(len(s))) + ":" + s
	}
	return k
}

func trailingZeros(w uint64) int { return bits.TrailingZeros64(w) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

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
