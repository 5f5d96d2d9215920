package allocbench

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/klog/v2"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// The scheduler's loop with upstream's allocator, as kube-scheduler 1.37
// runs it for pods whose claims come from templates: pods in the order of
// its queue; per pod one allocator built from the allocated state of the
// moment (PreFilter), asked node by node in the given order (Filter),
// after the node filters (NodeUnschedulable, TaintToleration,
// NodeAffinity); the first node that fits takes the pod, and its
// allocation joins the state. Claims are made from the pod's templates
// with the template's spec, as the resourceclaim controller makes them.

// QueueOrder is the order of the scheduler's queue (PrioritySort): higher
// priority first, then the older creation time, then input order. It is
// stated here again, apart from drakit's (allocator/internal/podclaims),
// so that the harness judges drakit's order rather than repeat it.
func QueueOrder(pods []*corev1.Pod) []int {
	order := make([]int, len(pods))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		pa, pb := corev1helpers.PodPriority(pods[a]), corev1helpers.PodPriority(pods[b])
		if pa != pb {
			return int(pb) - int(pa)
		}
		return pods[a].CreationTimestamp.Time.Compare(pods[b].CreationTimestamp.Time)
	})
	return order
}

// upstreamLoop holds what the loop shares across pods.
type upstreamLoop struct {
	impl     string
	features allocator.Features
	classes  classLister
	slices   []*resourceapi.ResourceSlice
	cache    *cel.Cache
	state    structured.AllocatedState
	// templates by "namespace/name"
	templates map[string]*resourceapi.ResourceClaimTemplate
	claims    map[string]*resourceapi.ResourceClaim
}

func newUpstreamLoop(c *Cluster, f allocator.Features) (*upstreamLoop, error) {
	impl, err := SchedulerImplementation(f)
	if err != nil {
		return nil, err
	}
	l := &upstreamLoop{impl: impl, features: f, classes: classLister{}, slices: c.Slices, cache: newCELCache(f),
		templates: map[string]*resourceapi.ResourceClaimTemplate{}, claims: map[string]*resourceapi.ResourceClaim{}}
	for _, cl := range c.Classes {
		l.classes[cl.Name] = cl
	}
	for _, t := range c.Templates {
		l.templates[t.Namespace+"/"+t.Name] = t
	}
	for _, cl := range c.Claims {
		l.claims[cl.Namespace+"/"+cl.Name] = cl.DeepCopy()
	}
	l.state = structured.AllocatedState{AllocatedDevices: sets.New[structured.DeviceID](),
		AllocatedSharedDeviceIDs: sets.New[structured.SharedDeviceID](), AggregatedCapacity: structured.NewConsumedCapacityCollection()}
	return l, nil
}

// podClaims are the pod's claims: the named ones (shared) and one per
// template entry, made with the template's spec.
func (l *upstreamLoop) podClaims(pod *corev1.Pod) ([]*resourceapi.ResourceClaim, error) {
	var out []*resourceapi.ResourceClaim
	for _, e := range pod.Spec.ResourceClaims {
		switch {
		case e.ResourceClaimName != nil:
			c := l.claims[pod.Namespace+"/"+*e.ResourceClaimName]
			if c == nil {
				return nil, fmt.Errorf("pod %s: no claim %s", pod.Name, *e.ResourceClaimName)
			}
			out = append(out, c)
		case e.ResourceClaimTemplateName != nil:
			t := l.templates[pod.Namespace+"/"+*e.ResourceClaimTemplateName]
			if t == nil {
				return nil, fmt.Errorf("pod %s: no template %s", pod.Name, *e.ResourceClaimTemplateName)
			}
			out = append(out, &resourceapi.ResourceClaim{ObjectMeta: t.Spec.ObjectMeta, Spec: *t.Spec.Spec.DeepCopy()})
			out[len(out)-1].Name, out[len(out)-1].Namespace = pod.Name+"-"+e.Name, pod.Namespace
		}
	}
	return out, nil
}

// nodeFits applies the node filters the scheduler runs before DRA's.
func nodeFits(pod *corev1.Pod, aff nodeaffinity.RequiredNodeAffinity, node *corev1.Node) bool {
	logger := klog.Background()
	if node.Spec.Unschedulable && !corev1helpers.TolerationsTolerateTaint(logger, pod.Spec.Tolerations,
		&corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule}, false) {
		return false
	}
	if _, untolerated := corev1helpers.FindMatchingUntoleratedTaint(logger, node.Spec.Taints, pod.Spec.Tolerations, func(t *corev1.Taint) bool {
		return t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute
	}, false); untolerated {
		return false
	}
	ok, err := aff.Match(node)
	return err == nil && ok
}

// placePod runs one scheduling cycle: -1 when no node fits. The claims
// that are allocated already (shared) constrain the node and are not
// allocated again. As kube-scheduler's DRA filter, a node where
// upstream's Allocate returns an error fails the whole cycle: abort is
// that error (the filter's, without the framework's prefix). In a
// cluster of fewer than minFeasibleNodesToFind nodes the scheduler
// filters every node, so every node is tried; in a larger one the cycle
// stops at the first fit (the scheduler stops after enough feasible
// nodes, from a rotating start, which this loop does not follow).
func (l *upstreamLoop) placePod(ctx context.Context, pod *corev1.Pod, nodes []*corev1.Node) (fit int, results []resourceapi.AllocationResult, toAlloc []*resourceapi.ResourceClaim, abort, err error) {
	claims, err := l.podClaims(pod)
	if err != nil {
		return -1, nil, nil, nil, err
	}
	var held []*nodeaffinity.NodeSelector
	for _, c := range claims {
		if c.Status.Allocation == nil {
			toAlloc = append(toAlloc, c)
			continue
		}
		if sel := c.Status.Allocation.NodeSelector; sel != nil {
			ns, err := nodeaffinity.NewNodeSelector(sel)
			if err != nil {
				return -1, nil, nil, nil, err
			}
			held = append(held, ns)
		}
	}
	structured.EnableAllocators(l.impl)
	a, err := structured.NewAllocator(ctx, UpstreamFeatures(l.features), l.state, l.classes, l.slices, l.cache)
	if err != nil {
		return -1, nil, nil, nil, err
	}
	aff := nodeaffinity.GetRequiredNodeAffinity(pod)
	fit = -1
	all := len(nodes) < minFeasibleNodesToFind
nodes:
	for i, node := range nodes {
		if !nodeFits(pod, aff, node) {
			continue
		}
		available := true
		for _, sel := range held {
			if !sel.Match(node) {
				available = false
			}
		}
		if len(toAlloc) == 0 {
			if !available {
				continue
			}
			return i, nil, nil, nil, nil
		}
		// The DRA filter allocates before it looks at the claims that are
		// allocated already.
		got, err := a.Allocate(ctx, node, toAlloc)
		if err != nil {
			return -1, nil, nil, err, nil
		}
		if got != nil && available && fit < 0 {
			fit, results = i, got
			if !all {
				break nodes
			}
		}
	}
	if fit < 0 {
		return -1, nil, nil, nil, nil
	}
	return fit, results, toAlloc, nil, nil
}

// minFeasibleNodesToFind is kube-scheduler's (schedule_one.go): below it,
// every node is filtered.
const minFeasibleNodesToFind = 100

// commit records a pod's allocations, as the scheduler's assume cache does.
func (l *upstreamLoop) commit(results []resourceapi.AllocationResult, claims []*resourceapi.ResourceClaim) {
	for i := range results {
		for _, d := range results[i].Devices.Results {
			l.state.AllocatedDevices.Insert(structured.MakeDeviceID(d.Driver, d.Pool, d.Device))
		}
		if claims[i] != nil {
			claims[i].Status.Allocation = &results[i]
		}
	}
}

// objects are the cluster's objects for allocator.PlacePods.
func (c *Cluster) objects() []runtime.Object {
	var objs []runtime.Object
	for _, o := range c.Classes {
		objs = append(objs, o)
	}
	for _, o := range c.Slices {
		objs = append(objs, o)
	}
	for _, o := range c.Templates {
		objs = append(objs, o)
	}
	for _, o := range c.Claims {
		objs = append(objs, o)
	}
	for _, o := range c.Pods {
		objs = append(objs, o)
	}
	return objs
}

// drakitPlacement places the cluster's pods with drakit.
func drakitPlacement(ctx context.Context, c *Cluster, f allocator.Features) (*allocator.Placement, error) {
	return allocator.PlacePods(ctx, c.objects(), allocator.ObjectOptions{Nodes: c.Nodes, Features: &f}, allocator.PodOptions{})
}

// loopComparison is what compareLoops found.
type loopComparison struct {
	spent      time.Duration // in upstream's cycles
	sampled    int
	aborts     int // cycles upstream's filter ended with an error
	mismatches []string
}

// compareLoops places the cluster's pods with drakit, then runs
// upstream's scheduling cycle for every sample-th pod of the queue with
// the allocated state drakit's placement had before that pod (the devices
// of the pods placed before it, and the allocations of the shared claims
// they made), and lists the pods for which upstream picks another node
// than drakit, or a node where drakit found none.
func compareLoops(ctx context.Context, c *Cluster, f allocator.Features, sample int) (*loopComparison, error) {
	placed, err := drakitPlacement(ctx, c, f)
	if err != nil {
		return nil, err
	}
	loop, err := newUpstreamLoop(c, f)
	if err != nil {
		return nil, err
	}
	claims := map[string]*allocator.ObjectResult{}
	for i := range placed.Claims {
		claims[placed.Claims[i].Name] = &placed.Claims[i]
	}
	nodeIndex := map[string]int{}
	for i, n := range c.Nodes {
		nodeIndex[n.Name] = i
	}
	out := &loopComparison{}
	for q, i := range QueueOrder(c.Pods) {
		pod, want := c.Pods[i], placed.Pods[i]
		if q%sample == 0 {
			start := time.Now()
			got, _, _, abort, err := loop.placePod(ctx, pod, c.Nodes)
			out.spent += time.Since(start)
			out.sampled++
			if err != nil {
				return nil, err
			}
			// The scheduler's message for the filter's error.
			wantAbort := ""
			if abort != nil {
				wantAbort = fmt.Sprintf("running %q filter plugin: %v", "DynamicResources", withClaimNames(abort.Error(), pod, want))
				out.aborts++
			}
			if want.SchedulerError != wantAbort {
				out.mismatches = append(out.mismatches, fmt.Sprintf("pod %s (queue position %d): upstream's filter error %q, drakit predicts %q", pod.Name, q, wantAbort, want.SchedulerError))
			}
			wantIdx, ok := nodeIndex[want.Node]
			if !ok {
				wantIdx = -1
			}
			if wantIdx != got {
				gotName := "none"
				if got >= 0 {
					gotName = c.Nodes[got].Name
				}
				out.mismatches = append(out.mismatches, fmt.Sprintf("pod %s (queue position %d): upstream picks %s, drakit %q (%s)", pod.Name, q, gotName, want.Node, describeResult(want)))
			}
		}
		loop.holdPlaced(want, claims)
	}
	return out, nil
}

// withClaimNames puts the names drakit made for the pod's claims from
// templates into a message of the loop's, which names them
// <pod>-<entry> (podClaims) where the resourceclaim controller adds a
// generated suffix.
func withClaimNames(msg string, pod *corev1.Pod, r allocator.PodResult) string {
	for i, e := range pod.Spec.ResourceClaims {
		if e.ResourceClaimTemplateName != nil && i < len(r.Claims) {
			msg = strings.ReplaceAll(msg, "claim "+pod.Namespace+"/"+pod.Name+"-"+e.Name+",", "claim "+r.Claims[i]+",")
		}
	}
	return msg
}

func describeResult(r allocator.PodResult) string {
	switch {
	case r.SchedulerError != "":
		return r.SchedulerError
	case r.Failure != nil:
		return r.Failure.Line(r.Name)
	case r.Waiting != "":
		return r.Waiting
	}
	return "placed"
}

// holdPlaced adds what drakit's placement gave a pod to upstream's state:
// the devices of its claims, and the allocation of claims it shares.
func (l *upstreamLoop) holdPlaced(pod allocator.PodResult, claims map[string]*allocator.ObjectResult) {
	if pod.Node == "" || pod.Bound {
		return
	}
	for _, name := range pod.Claims {
		c := claims[name]
		if c == nil || c.Result.Allocation == nil || c.Result.AlreadyAllocated {
			continue
		}
		for _, d := range c.Result.Allocation.Devices.Results {
			l.state.AllocatedDevices.Insert(structured.MakeDeviceID(d.Driver, d.Pool, d.Device))
		}
		if shared := l.claims[name]; shared != nil && shared.Status.Allocation == nil {
			shared.Status.Allocation = heldAllocation(c.Result.Allocation)
		}
	}
}

// heldAllocation is what upstream's loop needs of an allocation drakit
// made for a shared claim: where it is usable, and its devices.
func heldAllocation(a *resource.AllocationResult) *resourceapi.AllocationResult {
	out := &resourceapi.AllocationResult{NodeSelector: a.NodeSelector.DeepCopy()}
	for _, d := range a.Devices.Results {
		out.Devices.Results = append(out.Devices.Results, resourceapi.DeviceRequestAllocationResult{Request: d.Request, Driver: d.Driver, Pool: d.Pool, Device: d.Device})
	}
	return out
}
