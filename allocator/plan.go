package allocator

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
)

// claimPlan is a claim planned for the search: its requests with their
// candidate devices, and its constraints.
type claimPlan struct {
	claim *resource.ResourceClaim
	// id names the claim in messages (claimName).
	id string
	// alreadyAllocated: the claim came with an allocation, which it keeps.
	alreadyAllocated bool
	err              *ClaimError
	// taken counts the devices the search gave the claim (1.37 semantics).
	taken       int
	requests    []*requestPlan
	constraints []*constraintPlan
	// failsAt, on a claim that failed (err), is the All request under a
	// constraint that failed at a device in use, tainted or unusable,
	// with its candidates up to that device: upstream's search fails
	// there too, but meets the devices before it first, and one of them
	// may break the constraint (upstreamAbortBefore).
	failsAt *requestPlan
}

// requestPlan is one request with the devices that may serve it, in view order.
type requestPlan struct {
	plan  *claimPlan
	name  string
	class *resource.DeviceClass
	admin bool
	all   bool
	count int

	// With the 1.37 semantics: resultName is what results call the
	// request ("request/alternative" for an alternative), parentName the
	// request's name; spec is what the request asks for.
	resultName, parentName string
	spec                   *requestSpec // 1.37: what the request asks for (the claim's, for the call)
	// A firstAvailable request has alternatives (each a requestPlan with
	// parent set); the search takes the first that can be allocated and
	// records it in selected.
	alts     []*requestPlan
	parent   *requestPlan
	selected int
	// impossible is why an alternative can never be allocated; the
	// search skips it.
	impossible *ClaimError
	// Per candidate: multi says the device is shared (allowMultipleAllocations
	// with ConsumableCapacity), needs is what a share of it consumes,
	// uses what the device consumes of its pool's counters.
	multi                 []bool
	needs                 []map[resource.QualifiedName]apiresource.Quantity
	uses                  [][]counterUse
	hasCounters, hasMulti bool
	// counted says, per chosen device, whether taking it consumed
	// counters; chosenIndex is its index in candidates.
	counted     []bool
	chosenIndex []int32
	// compatMark is, per chosen device, where the solver's compatLog
	// stood before it was taken (only when the view uses compatibility
	// groups).
	compatMark []int32

	candidates []viewDevice
	// coveredBy lists the claim's constraints (indices into
	// plan.constraints) that cover this request, and
	// constraintValues[k][i] is the interned value of the attribute that
	// constraint coveredBy[k] compares, on candidates[i].
	coveredBy        []int
	constraintValues [][]int32

	matched int // devices passing the selectors
	inUse   int // of those, allocated before the call (not candidates unless admin)
	lacking int // of the rest, lacking an attribute a constraint compares

	chosen []viewDevice
}

// constraintPlan is a matchAttribute constraint during the search: the
// value fixed by the devices chosen so far, and how many of them fix it (0:
// no value fixed yet). Counting lets the search undo a choice without
// recomputing the value.
type constraintPlan struct {
	attribute resource.FullyQualifiedName
	index     int
	requests  []string // empty: all requests
	value     int32
	fixedBy   int
	// distinct: a distinctAttribute constraint; taken counts the chosen
	// devices per value.
	distinct bool
	taken    map[int32]int
	// sets: with ListTypeAttributes, a candidate of a covered request has
	// a list value. Values then compare as sets of elements (single
	// values are sets of one), as upstream's experimental allocator does:
	// matchAttribute needs the devices' sets to have an element in common
	// (stack[n-1] is what the first n chosen devices share), and
	// distinctAttribute needs them pairwise disjoint (taken counts the
	// chosen devices per element). Without lists, comparing the interned
	// values is the same and cheaper.
	sets  bool
	stack [][]int32
}

// need is how many devices the request takes.
func (r *requestPlan) need() int {
	if r.all {
		return len(r.candidates)
	}
	return r.count
}

// concrete is the request the search allocated: the selected alternative
// of a firstAvailable request, else the request itself.
func (r *requestPlan) concrete() *requestPlan {
	if len(r.alts) > 0 {
		return r.alts[r.selected]
	}
	return r
}

func claimName(c *resource.ResourceClaim) string {
	if c.Namespace == "" {
		return c.Name
	}
	return c.Namespace + "/" + c.Name
}

// callState is what one Allocate call shares between its claims.
type callState struct {
	ctx            context.Context
	node           *corev1.Node
	view           *view
	masks          *callTable[[][]uint64]     // selector sets already evaluated in this call
	candidateLists *callTable[*candidateList] // candidate lists already collected in this call
	// lone: the call allocates one claim (others come allocated), so that
	// a lone request of it without constraints gets the first devices
	// that serve it (see firstOnly).
	lone bool
}

func (p *claimPlan) fail(request string, reason Reason, err error, format string, args ...any) *claimPlan {
	p.err = &ClaimError{Claim: p.claimID(), Request: request, Reason: reason, Detail: fmt.Sprintf(format, args...), Err: err}
	return p
}

// maxResults is how many devices one allocation result can hold
// (AllocationResultsMaxSize).
const maxResults = 32

// planClaim checks a claim and finds the candidates of its requests (the
// plan stage, see doc.go). A claim that cannot be allocated whatever the
// search does comes back with err set. Only a cancelled context is
// returned as an error.
func (a *Allocator) planClaim(call *callState, claim *resource.ResourceClaim) (*claimPlan, error) {
	// A claim's list of requests keeps its memory from call to call.
	p := a.claims.next()
	*p = claimPlan{requests: p.requests[:0]}
	p.claim, p.id = claim, a.claimID(claim)
	if claim.Status.Allocation != nil {
		p.alreadyAllocated = true
		return p, nil
	}
	spec := &claim.Spec
	if spec.Controller != "" {
		return p.fail("", ReasonControllerManaged, nil, "spec.controller is %q: the claim is allocated by that driver's control-plane controller, not by structured allocation", spec.Controller), nil
	}
	if spec.ParametersRef != nil {
		return p.fail("", ReasonUnsupported, nil, "spec.parametersRef names %s %q: claim parameters objects cannot be evaluated; express the request with device requests and selectors", spec.ParametersRef.Kind, spec.ParametersRef.Name), nil
	}
	if err := claimQuantityBeyondBound(spec); err != nil {
		// Capacity requests are rounded and compared with capacities.
		return p.fail("", ReasonInvalidClaim, nil, "%v", err), nil
	}
	specs, failed := a.requestSpecs(p)
	if failed != nil {
		return failed, nil
	}
	if failed := p.planConstraints(); failed != nil {
		return failed, nil
	}
	return a.planRequests(call, p, specs)
}

// candidateList is the candidate list of requests with the same selectors,
// the same adminAccess and the same constraint attributes.
type candidateList struct {
	candidates       []viewDevice
	constraintValues [][]int32 // as in requestPlan
	// lists[k]: a candidate has a list value for constraint k (only with
	// ListTypeAttributes; nil when none has).
	lists []bool

	// With the 1.37 semantics, as in requestPlan, and why devices were
	// left out; failure is why the request can never be allocated.
	multi                 []bool
	needs                 []map[resource.QualifiedName]apiresource.Quantity
	uses                  [][]counterUse
	hasCounters, hasMulti bool
	tainted, noCapacity   int
	unusable              int
	firstTainted          DeviceID
	firstTaint            *resource.DeviceTaint
	firstUnusable         string
	failure               *candidateFailure

	matched, inUse, lacking int
	// mem is the memory of multi and needs in an earlier call (they stay
	// nil until a candidate is shared).
	mem struct {
		multi []bool
		needs []map[resource.QualifiedName]apiresource.Quantity
	}
}

func (r *requestPlan) constraintNames() string {
	var names []string
	for _, ci := range r.coveredBy {
		names = append(names, string(r.plan.constraints[ci].attribute))
	}
	return strings.Join(names, ", ")
}

// selectorFailure is a CEL runtime error on a device.
type selectorFailure struct {
	sel    selectorRef
	device DeviceID
	err    error
}

func (f *selectorFailure) Error() string {
	return fmt.Sprintf("expression %q failed on device %s: %v", f.sel.expr, f.device, f.err)
}

// masksFor evaluates a list of selectors once per call; with free, only
// on the devices not in use (the masks leave the others out); with first
// above zero, only until that many free devices match (the masks leave
// out the devices after them), where with untainted a device with a taint
// that blocks requests without tolerations does not count (the masks hold
// it).
func (call *callState) masksFor(a *Allocator, selectors []selectorRef, free bool, first int, untainted bool) ([][]uint64, string, error) {
	// One string holds the key, the selector ids its prefix: this runs
	// for every request on every node a scheduler asks about.
	var buf [64]byte
	b := buf[:0]
	for _, sel := range selectors {
		b = strconv.AppendInt(b, int64(sel.id), 10)
		b = append(b, ',')
	}
	n := len(b)
	if free {
		b = append(b, "free"...)
	}
	if first > 0 {
		b = append(b, "first"...)
		b = strconv.AppendInt(b, int64(first), 10)
		if untainted {
			b = append(b, "untainted"...)
		}
	}
	// The keys recur from call to call (the same classes and requests on
	// another node): the Allocator keeps one string per key.
	key, ok := a.maskKeys[string(b)]
	if !ok {
		if a.maskKeys == nil || len(a.maskKeys) >= maxMaskKeys {
			a.maskKeys = make(map[string]string)
		}
		key = string(b)
		a.maskKeys[key] = key
	}
	ids := key[:n]
	if m, ok := call.masks.get(key); ok {
		return m, key, nil
	}
	masks, failedSelector, dev, err := a.matching(call.ctx, call.view, selectors, ids, free, first, untainted)
	if err != nil {
		if failedSelector == nil {
			return nil, key, err
		}
		return nil, key, &selectorFailure{sel: *failedSelector, device: dev, err: err}
	}
	call.masks.put(key, masks)
	return masks, key, nil
}

// callTable maps the keys of one call to values: a call has few keys,
// which a list finds faster than a map hashes them (masksFor's are
// interned, so that most comparisons are of pointers), and emptying it
// for the next call costs next to nothing. Past callTableScan keys it
// adds a map.
type callTable[V any] struct {
	keys  []string
	vals  []V
	index map[string]int
}

const callTableScan = 16

func (t *callTable[V]) get(key string) (V, bool) {
	if t.index != nil {
		if i, ok := t.index[key]; ok {
			return t.vals[i], true
		}
	} else {
		for i := range t.keys {
			if t.keys[i] == key {
				return t.vals[i], true
			}
		}
	}
	var zero V
	return zero, false
}

// put adds a key that get did not find.
func (t *callTable[V]) put(key string, v V) {
	t.keys = append(t.keys, key)
	t.vals = append(t.vals, v)
	switch {
	case t.index != nil:
		t.index[key] = len(t.keys) - 1
	case len(t.keys) > callTableScan:
		t.index = make(map[string]int, 2*len(t.keys))
		for i, k := range t.keys {
			t.index[k] = i
		}
	}
}

// reset empties the table, keeping its memory.
func (t *callTable[V]) reset() {
	clear(t.vals) // the values of the last call are not kept alive
	t.keys, t.vals, t.index = t.keys[:0], t.vals[:0], nil
}

// maxMaskKeys bounds Allocator.maskKeys; past it, the keys are dropped
// and made again when needed.
const maxMaskKeys = 1024

// fieldPath is a list entry's field path, formatted only when a message
// needs it.
type fieldPath struct {
	list  string
	index int
}

func (f fieldPath) String() string { return f.list + "[" + strconv.Itoa(f.index) + "]" }

// claimID names the claim in messages.
func (p *claimPlan) claimID() string { return p.id }

// firstLacking is the index of the first constrained attribute device d
// has no value for (valuesOf as attrValues gives them), or -1.
func firstLacking(valuesOf [][]int32, d int) int {
	for k, values := range valuesOf {
		if values[d] < 0 {
			return k
		}
	}
	return -1
}

// zeroed returns n zero values in mem's memory when it holds at least
// capacity c, else in new memory of that capacity.
func zeroed[T any](mem []T, n, c int) []T {
	if cap(mem) < max(n, c) {
		return make([]T, n, max(n, c))
	}
	s := mem[:n]
	clear(s)
	return s
}
