package allocator

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"

	"github.com/drakit/drakit/allocator/internal/nodefit"
	"github.com/drakit/drakit/allocator/internal/podclaims"
	"github.com/drakit/drakit/apis/resource"
)

// podPlacer runs the scheduler's loop over the pods.
type podPlacer struct {
	// workers are Allocators over the same inventory with the same
	// commits, one per goroutine that tries nodes (tryBatch).
	workers []*Allocator
	// mu guards what goroutines trying nodes make: the claims for
	// extended resources.
	mu      sync.Mutex
	nodes   []*corev1.Node
	pods    []*corev1.Pod
	results []PodResult
	explain bool
	// podTimeout bounds each pod's search (PodOptions.PodTimeout).
	podTimeout time.Duration

	claims    []*claimState          // given, then made, in order
	byName    map[string]*claimState // by "namespace/name"
	byOwner   map[types.UID][]*claimState
	templates map[string]templateEntry // by "namespace/name"
	classes   podclaims.Classes
	// classNames are the DeviceClasses that exist, for the scheduler's
	// PreFilter.
	classNames map[string]bool
	made       int

	// signatures are the kinds of pods seen: pods of one kind fail on
	// the same nodes, and nodes only fill up during placement, so a node
	// that failed a kind stays failed for it (see podSignature).
	signatures map[string]*signatureState
	// holders are, by node, the claims allocated there, for explaining
	// why devices are taken (only with explain).
	holders map[string][]string
	// draKinds are the kinds of pods by their claims (podmemo.go), and
	// draKeeping those of them that keep failures; epoch counts the
	// changes of what is in use; nodeIndex are the indices of each node
	// name in nodes.
	draKinds   map[string]*draKind
	draKeeping []*draKind
	epoch      uint32
	nodeIndex  map[string][]int
	// poolNode are the pools local to one node, by that node.
	poolNode map[poolKey]string
	// resources are, per node, its allocatable resources and what the
	// pods on it request (NodeResourcesFit).
	resources []*nodefit.Resources
}

type claimState struct {
	hub     *resource.ResourceClaim // with its allocation once it has one
	version string
	given   int // index in the input's claims; -1 for a made claim
	node    string
	result  Result
	// made claims only: the pod's status entry.
	podClaimName string
	// extended is set for a claim for extended resources, mappings
	// are then the pod's status entries for it.
	extended bool
	mappings []corev1.ContainerExtendedResourceRequest
	// copied is set once hub is the placer's own copy, which it may
	// change (the given claims are shared with the Allocator).
	copied bool
	// allocatedHere: the placer allocated the claim for a pod, where the
	// scheduler writes allocationTimestamp with the allocation (see
	// refusedReservation).
	allocatedHere bool
}

type templateEntry struct {
	t       *resource.ResourceClaimTemplate
	version string
}

// signatureState is what is known of one kind of pod: the nodes before
// cursor cannot run it, for the reasons counted in failure. abortNodes
// are the nodes, in order, where upstream's allocator ended the call for
// a pod of the kind, and abort the error of the first of them for the pod
// being placed: each pod of the kind tries them again, as nodes fill up
// and the error names the pod's own claim.
type signatureState struct {
	cursor     int
	failure    *PodFailure
	abortNodes []int
	abort      string
	// skipped are the nodes before cursor whose reasons failure does not
	// count yet (podmemo.go).
	skipped []skipRange
}

// recheckAborts finds, for the pod, the first of the kind's abortNodes
// where upstream's allocator still ends the call, and forgets those
// before it that no longer do.
func (p *podPlacer) recheckAborts(ctx context.Context, call *podCall, sig *signatureState) error {
	sig.abort = ""
	for len(sig.abortNodes) > 0 {
		o := p.tryNode(ctx, p.workers[0], call, sig.abortNodes[0])
		if o.err != nil {
			return o.err
		}
		if o.abort != "" {
			sig.abort = o.abort
			return nil
		}
		sig.abortNodes = sig.abortNodes[1:]
	}
	return nil
}

func newPodPlacer(in *hubInput, split *podObjects, opts ObjectOptions, podOpts PodOptions) (*podPlacer, error) {
	p := &podPlacer{
		pods: split.pods, results: make([]PodResult, len(split.pods)), explain: podOpts.Explain,
		byName: map[string]*claimState{}, byOwner: map[types.UID][]*claimState{},
		templates: map[string]templateEntry{}, classes: podclaims.NewClasses(in.classes),
		signatures: map[string]*signatureState{}, holders: map[string][]string{},
		draKinds: map[string]*draKind{},
	}
	for _, n := range opts.Nodes {
		if n != nil {
			p.nodes = append(p.nodes, n)
		}
	}
	p.nodeIndex, p.poolNode = nodesByName(p.nodes), poolNodes(in.slices)
	p.resources = make([]*nodefit.Resources, len(p.nodes))
	for k, n := range p.nodes {
		p.resources[k] = nodefit.NewResources(n)
	}
	p.classNames = map[string]bool{}
	for _, c := range in.classes {
		p.classNames[c.Name] = true
	}
	var held []*resource.ResourceClaim
	for i, c := range in.claims {
		cs := &claimState{hub: c, version: in.versions[i], given: i}
		if c.Status.Allocation != nil {
			held = append(held, c)
			cs.result = Result{Claim: c, Allocation: c.Status.Allocation, AlreadyAllocated: true}
			cs.node = allocationNode(c.Status.Allocation)
			p.hold(cs)
		}
		p.addClaim(cs)
	}
	for i, t := range split.templates {
		p.templates[t.Namespace+"/"+t.Name] = templateEntry{t: t, version: split.templateVersions[i]}
	}
	workers := podOpts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	for range workers {
		a, err := New(Options{Classes: in.classes, Slices: in.slices, AllocatedClaims: held, Mode: Joint, Features: opts.Features, DeviceTaintRules: in.taintRules})
		if err != nil {
			return nil, err
		}
		p.workers = append(p.workers, a)
	}
	return p, nil
}

func (p *podPlacer) addClaim(cs *claimState) {
	p.claims = append(p.claims, cs)
	p.byName[claimName(cs.hub)] = cs
	for _, o := range cs.hub.OwnerReferences {
		if o.Controller != nil && *o.Controller && o.Kind == "Pod" {
			p.byOwner[o.UID] = append(p.byOwner[o.UID], cs)
		}
	}
}

// hold records the claim as holding devices on its node, for explain.
func (p *podPlacer) hold(cs *claimState) {
	if p.explain && cs.node != "" {
		p.holders[cs.node] = append(p.holders[cs.node], claimName(cs.hub))
	}
}

// allocationNode is the node an allocation is bound to, when its node
// selector names exactly one node by name (node-local devices).
func allocationNode(a *resource.AllocationResult) string {
	if a == nil || a.NodeSelector == nil || len(a.NodeSelector.NodeSelectorTerms) != 1 {
		return ""
	}
	t := a.NodeSelector.NodeSelectorTerms[0]
	if len(t.MatchFields) == 1 && len(t.MatchExpressions) == 0 {
		f := t.MatchFields[0]
		if f.Key == "metadata.name" && f.Operator == corev1.NodeSelectorOpIn && len(f.Values) == 1 {
			return f.Values[0]
		}
	}
	return ""
}

// placeAll places the bound pods' claims, then the pending pods in queue
// order.
func (p *podPlacer) placeAll(ctx context.Context) error {
	var pending []*corev1.Pod
	var pendingIdx []int
	for _, pod := range p.pods {
		// What the bound pods request is taken on their nodes first, as
		// the scheduler's cache holds them; pods that ended (Succeeded,
		// Failed) its informer does not list.
		if pod.Spec.NodeName != "" && pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed {
			req := nodefit.PodRequests(pod, true)
			for _, k := range p.nodeIndex[pod.Spec.NodeName] {
				p.resources[k].Add(req)
			}
		}
	}
	for i, pod := range p.pods {
		p.results[i] = PodResult{Name: pod.Namespace + "/" + pod.Name, Pod: pod}
		if pod.Spec.NodeName != "" {
			p.results[i].Bound, p.results[i].Node = true, pod.Spec.NodeName
			if err := p.place(ctx, i); err != nil {
				return err
			}
			continue
		}
		pending = append(pending, pod)
		pendingIdx = append(pendingIdx, i)
	}
	for _, k := range podclaims.QueueOrder(pending) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := p.place(ctx, pendingIdx[k]); err != nil {
			return err
		}
	}
	return nil
}

// podCall is what placing one pod needs: its claims, split into those
// that hold an allocation (which constrain the node) and those to
// allocate, and its extended resources.
type podCall struct {
	pod    *corev1.Pod
	filter *nodefit.Filter
	// requests are what the pod asks of a node's allocatable resources
	// (NodeResourcesFit); bound pods are not checked.
	requests  nodefit.Requests
	held      []*claimState
	heldNodes []*nodeaffinity.NodeSelector
	toAlloc   []*claimState
	extended  *podclaims.Extended
	extClaims map[string]*claimState // by the resources viaDRA
	// entryOf names the pod's resourceClaims entry of each claim.
	entryOf map[string]string
	// dra is the pod's kind by its claims (podmemo.go).
	dra *draKind
}

// entry names the pod's resourceClaims entry of a claim, "extended
// resources" for the claim made for those.
func (c *podCall) entry(cs *claimState) string {
	if cs.extended {
		return "extended resources"
	}
	return c.entryOf[claimName(cs.hub)]
}

// place tries the pod on the nodes, from where its kind left off.
func (p *podPlacer) place(ctx context.Context, i int) error {
	res := &p.results[i]
	call, waiting := p.resolve(res.Pod)
	for _, cs := range append(append([]*claimState(nil), call.held...), call.toAlloc...) {
		res.Claims = append(res.Claims, claimName(cs.hub))
	}
	p.recordMade(res, call)
	if waiting != "" {
		res.Waiting = waiting
		return nil
	}
	if res.Bound && len(call.toAlloc) == 0 && call.extended == nil {
		return nil
	}
	sig := p.signature(call)
	if p.podTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.podTimeout)
		defer cancel()
	}
	sig.failure.PreFilter = p.schedulerPreFilter(call)
	if err := p.recheckAborts(ctx, call, sig); err != nil {
		return err
	}
	fit, err := p.scan(ctx, call, sig)
	if err != nil {
		return err
	}
	if fit == nil {
		p.countSkipped(call, sig)
	}
	if fit != nil && sig.abort == "" {
		node, abort, err := p.abortAfter(ctx, call, sig.cursor)
		if err != nil {
			return err
		}
		if abort != "" {
			sig.abort, sig.abortNodes = abort, append(sig.abortNodes, node)
		}
	}
	switch {
	case sig.abort != "":
		// The scheduler fails the pod with the error; drakit's own
		// answer is kept beside it.
		res.SchedulerError = schedulerErrorMessage(sig.abort)
		if fit != nil {
			res.WouldFit = p.nodes[sig.cursor].Name
		} else {
			res.Failure = sig.failure
		}
	case fit == nil:
		res.Failure = sig.failure
		res.SchedulerMessage = p.schedulerMessage(call, sig.failure)
		if cs := deallocatable(call, sig.failure); cs != nil && res.Deallocated == "" {
			return p.retryAfterDeallocation(ctx, i, cs)
		}
	default:
		if refused := p.refusedReservation(call); refused != "" {
			// The scheduler picks the node and fails in PreBind, on
			// every attempt.
			res.SchedulerError = refused
			res.WouldFit = p.nodes[sig.cursor].Name
			return nil
		}
		p.commit(res, call, sig.cursor, fit.claims, fit.results)
	}
	return nil
}

// retryAfterDeallocation does what the scheduler does after its DRA
// PostFilter deallocated a claim of a pod no node could run: the claim
// loses its allocation (its devices are free again) and the pod is tried
// once more, now allocating that claim too. The scheduler tries again
// when the claim's update reaches it; drakit at once, before the next pod
// of the queue.
func (p *podPlacer) retryAfterDeallocation(ctx context.Context, i int, cs *claimState) error {
	for _, a := range p.workers {
		a.Uncommit([]Result{{Claim: cs.hub, Allocation: cs.hub.Status.Allocation}})
	}
	p.changed(cs.node, []Result{{Claim: cs.hub, Allocation: cs.hub.Status.Allocation}})
	if p.explain && cs.node != "" {
		held := p.holders[cs.node]
		for k, name := range held {
			if name == claimName(cs.hub) {
				p.holders[cs.node] = append(held[:k:k], held[k+1:]...)
				break
			}
		}
	}
	c := cs.hub.DeepCopy()
	c.Status.Allocation, c.Status.ReservedFor, c.Status.Devices = nil, nil, nil
	cs.hub, cs.copied, cs.node, cs.result = c, true, "", Result{Claim: c}
	first := p.results[i]
	p.results[i] = PodResult{Name: first.Name, Pod: first.Pod, Deallocated: claimName(c), FirstMessage: first.SchedulerMessage}
	return p.place(ctx, i)
}

// hasAll reports whether a claim the pod allocates has an All request
// (or alternative).
func (c *podCall) hasAll() bool {
	for _, cs := range c.toAlloc {
		for _, r := range cs.hub.Spec.Devices.Requests {
			if r.Exactly != nil && r.Exactly.AllocationMode == resource.DeviceAllocationModeAll {
				return true
			}
			for _, sub := range r.FirstAvailable {
				if sub.AllocationMode == resource.DeviceAllocationModeAll {
					return true
				}
			}
		}
	}
	return false
}

// maxBatch bounds how many nodes scan tries at once: enough to keep the
// workers busy, few enough that little is tried beyond the first fit.
const maxBatch = 64

// scan tries the nodes from where the pod's kind left off, in order,
// until one fits (the kind's cursor then points at it) or none is left.
// The first batch is one node, where most pods of a kind fit; batches
// double while nodes fail, and a batch is spread over the workers, each
// with its own Allocator over the same inventory and commits, as the
// scheduler filters nodes in parallel. The answer is that of trying the
// nodes one by one: the first fitting node in order wins, and the
// failures of the nodes before it are counted in order. A node where
// upstream's allocator would end the call with an error is recorded
// (sig.abort) and counted as a failure; one that also fits for drakit is
// returned as the fit, which the caller then does not commit.
func (p *podPlacer) scan(ctx context.Context, call *podCall, sig *signatureState) (*nodeOutcome, error) {
	batch := 1
	for {
		if p.skip(call, sig); sig.cursor >= len(p.nodes) {
			break
		}
		outs := p.tryBatch(ctx, call, sig.cursor, min(batch, len(p.nodes)-sig.cursor))
		for k := range outs {
			o := &outs[k]
			if o.err != nil {
				return nil, o.err
			}
			if o.same {
				p.remember(call.dra, sig.cursor+k, o.why)
			}
			if o.abort != "" {
				sig.abortNodes = append(sig.abortNodes, sig.cursor+k)
				if sig.abort == "" {
					sig.abort = o.abort
				}
			}
			if o.why == nil {
				sig.cursor += k
				return o, nil
			}
			sig.failure.add(o.why, sig.cursor+k, p.explain)
		}
		sig.cursor += len(outs)
		batch = min(2*batch, maxBatch)
	}
	return nil, nil
}

// minFeasibleNodesToFind is kube-scheduler's: in a cluster of fewer
// nodes it filters every node for every pod, so that a node where the
// DRA filter returns an error fails the pod even when another node fits.
// In larger clusters it stops after enough feasible nodes, starting where
// the last pod left off, and may or may not meet such a node.
const minFeasibleNodesToFind = 100

// abortAfter looks, for a pod that fits on node fit, at the nodes after
// it for one where upstream's allocator ends the call with an error, as
// the scheduler does in a small cluster. Only pods with an All request
// can meet such a node after drakit's first fit: the other errors
// (features, counts, selectors that do not compile) are the same on
// every node, and CEL runtime errors drakit does not predict node by
// node (doc.go, "Where PlacePods differs").
func (p *podPlacer) abortAfter(ctx context.Context, call *podCall, fit int) (node int, abort string, err error) {
	if len(p.nodes) >= minFeasibleNodesToFind || !call.hasAll() {
		return -1, "", nil
	}
	for k := fit + 1; k < len(p.nodes); k++ {
		o := p.tryNode(ctx, p.workers[0], call, k)
		if o.err != nil {
			return -1, "", o.err
		}
		if o.abort != "" {
			return k, o.abort, nil
		}
	}
	return -1, "", nil
}

// nodeOutcome is what trying one node gave.
type nodeOutcome struct {
	why     *failureKey
	results []Result
	claims  []*claimState
	// abort is the error with which upstream's allocator ends the call
	// on this node (Result.UpstreamAbort), whether or not drakit's fits.
	abort string
	err   error
	// same is set for a failure of the DRA filter that every pod of the
	// draKind would meet in the same words while the node does not
	// change (podmemo.go).
	same bool
}

// tryBatch tries n nodes from first, spread over the workers; it returns
// the outcomes up to the first fitting node (or an error), in order.
func (p *podPlacer) tryBatch(ctx context.Context, call *podCall, first, n int) []nodeOutcome {
	outs := make([]nodeOutcome, n)
	try := func(w, k int) {
		outs[k] = p.tryNode(ctx, p.workers[w], call, first+k)
	}
	if n == 1 || len(p.workers) == 1 {
		for k := range outs {
			if try(0, k); outs[k].why == nil || outs[k].err != nil {
				return outs[:k+1]
			}
		}
		return outs
	}
	// stop is the lowest index that fitted or failed hard so far: the
	// nodes after it need not be tried.
	var stop atomic.Int64
	stop.Store(int64(n))
	var wg sync.WaitGroup
	// Each worker takes the nodes whose index in p.nodes is its own
	// modulo the number of workers, in every batch: an Allocator then
	// prepares (and evaluates selectors on) only its share of the nodes.
	nw := len(p.workers)
	for w := range p.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := (w - first%nw + nw) % nw; k < n && int64(k) < stop.Load(); k += nw {
				if try(w, k); outs[k].why == nil || outs[k].err != nil {
					for cur := stop.Load(); int64(k) < cur && !stop.CompareAndSwap(cur, int64(k)); cur = stop.Load() {
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	end := int(stop.Load())
	if end < n {
		return outs[:end+1]
	}
	return outs
}

// tryNode runs the scheduler's filters for the pod on the node: the node
// filters (nodefit), then the DRA filter in its order of checks: extended
// resources, the claims that are allocated (noted when the node cannot
// use them), the allocation of the others, and only then the noted
// claims. The outcome says why node k fails (in drakit's words and the
// scheduler's), or holds the allocation; abort is set wherever
// upstream's allocator would end the call with an error, fit or not. A
// failure of the DRA filter that the pod's draKind knows on the node is
// not looked for again.
func (p *podPlacer) tryNode(ctx context.Context, a *Allocator, call *podCall, k int) nodeOutcome {
	node := p.nodes[k]
	if why := p.nodeFilters(call, k); why != nil {
		return nodeOutcome{why: why}
	}
	if why := p.knownFailure(call.dra, k); why != nil {
		return nodeOutcome{why: why}
	}
	claims := call.toAlloc
	if call.extended != nil {
		viaDRA, unfit := call.extended.ForNode(node)
		if unfit != "" {
			// NodeResourcesFit, which runs before DRA, finds the
			// resource neither allocatable nor served by a class.
			return nodeOutcome{why: &failureKey{text: "node lacks extended resource " + string(unfit), scheduler: "Insufficient " + string(unfit), resolvable: true}}
		}
		if len(viaDRA) > 0 {
			claims = append(claims[:len(claims):len(claims)], p.extendedClaim(call, viaDRA))
		}
	}
	unavailable := -1
	for k, sel := range call.heldNodes {
		if sel != nil && !sel.Match(node) {
			unavailable = k
			break
		}
	}
	var out nodeOutcome
	if len(claims) > 0 {
		hubs := make([]*resource.ResourceClaim, len(claims))
		for k, cs := range claims {
			hubs[k] = cs.hub
		}
		results, err := a.AllocateOn(ctx, node, hubs)
		if err != nil {
			return nodeOutcome{err: stopped(err, node, hubs)}
		}
		out.abort = results[0].UpstreamAbort
		if why := allocationFailure(results, call, claims); why != nil {
			out.why = why
			out.same = out.abort == "" && sameForKind(why, results, claims)
			return out
		}
		out.results, out.claims = results, claims
	}
	if unavailable >= 0 {
		out.why = &failureKey{text: fmt.Sprintf("claim %s allocated where the node cannot use it", call.entry(call.held[unavailable])), scheduler: SchedulerClaimNotAvailable}
		out.results, out.claims = nil, nil
		out.same = out.abort == ""
	}
	return out
}

// nodeFilters runs the filters before DRA for the pod on node k: those of
// nodefit, then NodeResourcesFit (for a pending pod), as the scheduler's
// default plugins are ordered.
func (p *podPlacer) nodeFilters(call *podCall, k int) *failureKey {
	if f := call.filter.Check(p.nodes[k]); f != nil {
		return &failureKey{text: f.Reason, scheduler: f.Scheduler}
	}
	if call.pod.Spec.NodeName != "" {
		return nil
	}
	reasons, unresolvable := p.resources[k].Fit(&call.requests, p.servedByClass)
	if len(reasons) == 0 {
		return nil
	}
	return &failureKey{text: nodefit.Summary(reasons), scheduler: reasons[0], also: reasons[1:], resolvable: !unresolvable}
}

// servedByClass says whether a DeviceClass serves the extended resource:
// NodeResourcesFit leaves it to the DRA filter on a node that does not
// list it (DRAExtendedResource).
func (p *podPlacer) servedByClass(name corev1.ResourceName) bool {
	return p.classes[name] != nil
}

// allocationFailure is why the claims could not be allocated on a node,
// nil when they were: the first claim that failed for a reason of its own.
func allocationFailure(results []Result, call *podCall, claims []*claimState) *failureKey {
	for k, r := range results {
		if r.Err != nil && !IsReason(r.Err, ReasonOtherClaimFailed) {
			return claimFailure(r.Err, call.entry(claims[k]), len(claims[k].hub.Spec.Devices.Requests))
		}
	}
	for _, r := range results {
		if r.Err != nil {
			return claimFailure(r.Err, "", 0)
		}
	}
	return nil
}

// signature finds the state of the pod's kind: what the node filters
// look at, the specs of the claims to allocate, the claims that hold an
// allocation, and the extended resources. Pods made from one template
// share it.
func (p *podPlacer) signature(call *podCall) *signatureState {
	var specs []*resource.ResourceClaimSpec
	for _, cs := range call.toAlloc {
		specs = append(specs, &cs.hub.Spec)
	}
	var held []string
	for _, cs := range call.held {
		held = append(held, claimName(cs.hub))
	}
	var ext any
	if call.extended != nil {
		ext = call.pod.Spec.Containers
		if len(call.pod.Spec.InitContainers) > 0 {
			ext = []any{call.pod.Spec.InitContainers, call.pod.Spec.Containers, call.pod.Spec.Overhead}
		}
	}
	var entries []string
	for _, cs := range call.toAlloc {
		entries = append(entries, call.entry(cs))
	}
	for _, cs := range call.held {
		entries = append(entries, call.entry(cs))
	}
	// The kind is the node filters' part and the DRA filter's; the
	// draKind the DRA filter's part and the pod's names for its claims.
	filters, err := json.Marshal([]any{call.pod.Namespace, nodefit.Signature(call.pod), call.requests})
	claims, err2 := json.Marshal([]any{specs, held, ext})
	names, err3 := json.Marshal(entries)
	key := string(filters) + "\x00" + string(claims)
	if err != nil || err2 != nil || err3 != nil {
		// Unreachable for API types; a pod of its own kind is correct,
		// only slower.
		key = call.pod.Namespace + "/" + call.pod.Name
	} else {
		call.dra = p.draKindOf(string(claims) + "\x00" + string(names))
	}
	sig := p.signatures[key]
	if sig == nil {
		sig = &signatureState{failure: &PodFailure{Nodes: len(p.nodes)}}
		p.signatures[key] = sig
	}
	return sig
}

// recordMade names the claims made from templates in the pod's status,
// as the resourceclaim controller does whether or not the pod is placed.
func (p *podPlacer) recordMade(res *PodResult, call *podCall) {
	copied := false
	for _, cs := range call.toAlloc {
		if cs.given >= 0 || cs.podClaimName == "" || !podclaims.OwnedBy(cs.hub, res.Pod) {
			continue
		}
		if !copied {
			res.Pod, copied = res.Pod.DeepCopy(), true
		}
		setClaimStatus(res.Pod, cs.podClaimName, cs.hub.Name)
	}
}
