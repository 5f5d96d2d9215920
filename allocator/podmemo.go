package allocator

import (
	"errors"
	"math/bits"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/apis/resource"
)

// Pods of one kind (signatureState) share their cursor: a node that
// failed the kind stays failed, so each kind tries each node at most
// once. Kinds multiply, though, with what only the node filters look at:
// pods with tolerations or node selectors of their own, the same
// templates in many namespaces. Each such kind would try every node from
// the first, and a cluster whose pods all differ so costs pods x nodes
// allocations. The DRA filter's part of the work is shared between them
// instead, by draKind.

// draKind is a kind of pod by what the DRA filter looks at, whatever the
// node filters and the namespace: the specs of the claims to allocate,
// the claims in place, the extended resources, and the pod's entries for
// its claims (which its reasons name). Many kinds of pods may share one.
//
// It keeps the DRA filter's failures of its pods, by node, while the node
// does not change. The filter's outcome depends only on the claims' specs
// and on the devices the node reaches and what of them is in use, so a
// pod of the kind that meets an unchanged node fails there in the same
// words, with the same numbers. Only failures that read the same for
// every pod of the kind are kept (sameForKind).
//
// A kind's pod that comes to a run of nodes where its draKind is known to
// fail (known) skips the run, whatever its node filters say: each node
// fails it either way. The reasons of the nodes skipped are counted only
// when the kind needs them (a pod of the kind found no node:
// countSkipped), from the node filters and the failures the draKind knew
// at the time of the skip (failureAt), which are what trying the nodes
// then would have counted.
type draKind struct {
	// current is, per node, the last failure found there; older are the
	// failures it replaced, by node, newest last. nil when the kind
	// keeps nothing (see maxDRAKinds).
	current []draFailure
	older   map[int][]draFailure
	// known has the bit of each node whose current failure holds (the
	// node has not changed since it was found).
	known []uint64
}

// draFailure is a failure of the DRA filter on a node, and the placer's
// epoch when it was found.
type draFailure struct {
	why   *failureKey
	epoch uint32
}

// maxDRAKinds bounds the draKinds that keep failures (each keeps up to a
// failure per node), maxDRAFailures the entries they make together: a
// cluster whose pods all differ in their claims keeps failures for its
// first kinds only, which is correct, only slower.
const (
	maxDRAKinds    = 1024
	maxDRAFailures = 1 << 21
)

// sameForKind says whether a failure of the DRA filter reads the same for
// every pod of the draKind: the claims' errors (ClaimError: its words name
// the pod's entry, not the claim), not one with which upstream's
// allocator ends the call (that names the claim; the caller checks),
// and no words that name one of the pod's claims (a claim that cannot be
// allocated together with another names it).
func sameForKind(why *failureKey, results []Result, claims []*claimState) bool {
	for _, r := range results {
		if r.Err != nil && !errors.As(r.Err, new(*ClaimError)) {
			return false
		}
	}
	for _, cs := range claims {
		name := claimName(cs.hub)
		if strings.Contains(why.text, name) || strings.Contains(why.example, name) {
			return false
		}
	}
	return true
}

// skipRange is a run of nodes a pod of a kind skipped, [first, end), as
// they were at epoch: the failures dra knew then.
type skipRange struct {
	first, end int
	dra        *draKind
	epoch      uint32
}

// draKindOf finds the draKind by key, made keeping failures while the
// draKinds that keep them are within maxDRAKinds and maxDRAFailures.
func (p *podPlacer) draKindOf(key string) *draKind {
	d := p.draKinds[key]
	if d != nil {
		return d
	}
	d = &draKind{}
	if len(p.draKeeping) < maxDRAKinds && (len(p.draKeeping)+1)*len(p.nodes) <= maxDRAFailures {
		d.current = make([]draFailure, len(p.nodes))
		d.known = make([]uint64, (len(p.nodes)+63)/64)
		p.draKeeping = append(p.draKeeping, d)
	}
	p.draKinds[key] = d
	return d
}

// knownFailure is the kind's failure on node k when the node has not
// changed since it was found, else nil. Workers read it while a batch
// runs; it changes only between batches (remember) and between pods
// (changed).
func (p *podPlacer) knownFailure(d *draKind, k int) *failureKey {
	if d == nil || d.known == nil || !hasBit(d.known, k) {
		return nil
	}
	return d.current[k].why
}

// remember keeps the kind's failure on node k.
func (p *podPlacer) remember(d *draKind, k int, why *failureKey) {
	if d == nil || d.current == nil {
		return
	}
	if old := d.current[k]; old.why != nil {
		if d.older == nil {
			d.older = map[int][]draFailure{}
		}
		d.older[k] = append(d.older[k], old)
	}
	d.current[k] = draFailure{why: why, epoch: p.epoch}
	setBit(d.known, k)
}

// failureAt is the failure the kind knew on node k at epoch (one it knew
// then, as skipRange records).
func (d *draKind) failureAt(k int, epoch uint32) *failureKey {
	if f := d.current[k]; f.epoch <= epoch {
		return f.why
	}
	older := d.older[k]
	for i := len(older) - 1; i >= 0; i-- {
		if older[i].epoch <= epoch {
			return older[i].why
		}
	}
	return nil // unreachable: the skip saw a failure
}

// skip moves the kind's cursor past the nodes where the pod's draKind is
// known to fail, recording them for countSkipped.
func (p *podPlacer) skip(call *podCall, sig *signatureState) {
	d := call.dra
	if d == nil || d.known == nil {
		return
	}
	end := firstClear(d.known, sig.cursor, len(p.nodes))
	if end > sig.cursor {
		sig.skipped = append(sig.skipped, skipRange{first: sig.cursor, end: end, dra: d, epoch: p.epoch})
		sig.cursor = end
	}
}

// firstClear is the first index from i on (below n) whose bit is not
// set, or n.
func firstClear(b []uint64, i, n int) int {
	for i < n {
		w := ^b[i>>6] >> (uint(i) & 63)
		if w != 0 {
			return min(i+bits.TrailingZeros64(w), n)
		}
		i = (i | 63) + 1
	}
	return n
}

// countSkipped counts the reasons of the nodes the kind skipped: the node
// filters' (call's filter is the kind's; NodeResourcesFit's as the node
// is now), else the failure its draKind knew at the time. The nodes then come out of order, which PodFailure's
// counts do not mind; the lists of nodes are sorted again.
func (p *podPlacer) countSkipped(call *podCall, sig *signatureState) {
	if len(sig.skipped) == 0 {
		return
	}
	for _, r := range sig.skipped {
		for k := r.first; k < r.end; k++ {
			why := r.dra.failureAt(k, r.epoch)
			if f := p.nodeFilters(call, k); f != nil {
				why = f
			}
			sig.failure.add(why, k, p.explain)
		}
	}
	sig.skipped = nil
	if p.explain {
		for _, r := range sig.failure.Reasons {
			slices.Sort(r.Nodes)
		}
	}
}

// changed records that what is in use changed on node (results were
// committed there, or given back): a new epoch, in which the failures
// kept for the node no longer hold, nor those of every node when a
// device is not the node's own (a network-attached one, which other
// nodes reach too).
func (p *podPlacer) changed(node string, results []Result) {
	p.epoch++
	for _, r := range results {
		if r.Allocation == nil {
			continue
		}
		for _, d := range r.Allocation.Devices.Results {
			if p.poolNode[poolKey{d.Driver, d.Pool}] != node {
				for _, d := range p.draKeeping {
					clear(d.known)
				}
				return
			}
		}
	}
	for _, k := range p.nodeIndex[node] {
		for _, d := range p.draKeeping {
			clearBit(d.known, k)
		}
	}
}

// poolNodes are the pools whose slices all name one node (spec.nodeName),
// by that node: what is in use in them matters to that node alone.
func poolNodes(list []*resource.ResourceSlice) map[poolKey]string {
	m := map[poolKey]string{}
	shared := map[poolKey]bool{}
	for _, s := range list {
		k := poolKey{s.Spec.Driver, s.Spec.Pool.Name}
		switch n, seen := m[k]; {
		case shared[k]:
		case s.Spec.NodeName == nil || *s.Spec.NodeName == "" || seen && n != *s.Spec.NodeName:
			shared[k] = true
			delete(m, k)
		default:
			m[k] = *s.Spec.NodeName
		}
	}
	return m
}

// nodesByName indexes nodes by name (a name may repeat).
func nodesByName(nodes []*corev1.Node) map[string][]int {
	m := make(map[string][]int, len(nodes))
	for k, n := range nodes {
		m[n.Name] = append(m[n.Name], k)
	}
	return m
}
