package allocator

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/allocator/internal/nodefit"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
)

// Pod placement (PlacePods) follows kube-scheduler 1.37's DRA plugin and
// the resourceclaim controller; where it deliberately differs:
//
//   - the queue orders pods of equal priority by creation time; the
//     scheduler by the time a pod entered its queue, which for an export
//     is not known (for pods created one after the other it is the same);
//   - there is no preemption, no nominated node, no retry: a pod that
//     fits nowhere stays unplaceable, and nothing it could displace is
//     released;
//   - nodes are tried in the order given and the first that fits takes the
//     pod, as if every node scored the same; the scheduler scores the
//     feasible nodes (and, in large clusters, looks at a share of them);
//   - only the node filters named in nodefit are applied (NotSimulated
//     lists the others): NodeName, NodeUnschedulable, TaintToleration,
//     NodeAffinity, then NodeResourcesFit, then DRA, in the order of the
//     scheduler's default plugins;
//   - NodeResourcesFit checks only nodes whose status.allocatable lists
//     pods, as the kubelet reports it: a Node written by hand with labels
//     alone (or a device plugin's resource) would run no pod in the
//     scheduler (allocatable pods 0), and drakit's inputs have many; on
//     those only a missing extended resource is found. On a checked
//     node, the requests of the pods bound there (not Succeeded
//     or Failed; the larger of spec and status resources) and of the pods
//     placed there count against allocatable, as does each pod against
//     allocatable pods; an extended resource the node does not list but
//     a DeviceClass serves is left to DRA. Pods asking for the same
//     requests are of one kind, so that a node full for one is full for
//     the next;
//   - a pod with spec.nodeName whose claims are not allocated gets them
//     allocated on its node, before the pending pods (the kubelet would
//     not start it; the scheduler never sees it);
//   - a claim made for extended resources in an earlier cycle is used when
//     it is allocated; one that is not is ignored and a new one made (the
//     scheduler deletes it and tries again later);
//   - the reasons of a kind of pod are counted when a node is first tried
//     for that kind (nodes only fill up, so a failure stays one, but its
//     numbers, and the scheduler's reason for a node that had a claim of
//     the pod's it could not use, may be those of an earlier, emptier
//     node); likewise an error of upstream's allocator (below) found for a
//     kind stays that kind's;
//   - the scheduler's words (PodResult.SchedulerMessage, SchedulerError)
//     follow its DRA filter's order of checks: a claim allocated where
//     the node cannot use it is reported only when the pod's other claims
//     can be allocated there ("resourceclaim not available on the
//     node"), else "cannot allocate all claims"; and where upstream's
//     allocator ends its call with an error (Result.UpstreamAbort: an All
//     request whose device a constraint refuses before its search tries
//     other devices for the requests before it, an All request over an
//     incomplete or invalid pool, a feature that is off, too many
//     devices, a CEL error) the pod is not placed: the scheduler fails it
//     with that error (SchedulerError) on every attempt, and WouldFit says
//     where drakit's allocator would place it. In a cluster of fewer than
//     100 nodes the scheduler filters every node, so a pod with an All
//     request is checked on the nodes after its first fit too; in a
//     larger one it stops after enough feasible nodes, from where the last
//     pod left off, and drakit reports only the errors of the nodes it
//     tries before the first fit. A CEL runtime error fails the claim on
//     that node in drakit, where upstream, which evaluates selectors
//     lazily, may find devices before it meets the failing one
//     (hack/allocbench's known difference cel-error);
//   - preemption is not simulated: the scheduler's message says that
//     preemption does not help (every filter drakit applies rejects a node
//     as unresolvable, but a missing extended resource, where drakit
//     assumes no victims would help);
//   - when no node fits and the DRA plugin's PostFilter deallocates a
//     claim of the pod that a node could not use and no other pod has
//     reserved, the scheduler tries the pod again once the claim's update
//     reaches it, maybe after other pods; PlacePods tries it again at
//     once (PodResult.Deallocated), and picks the first such claim where
//     the scheduler picks one at random;
//   - the 256 consumers a claim may list in status.reservedFor are not
//     checked.

// NotSimulated names the filters of kube-scheduler that PlacePods does not
// apply: a placement says where DRA and the node filters let a pod run,
// not that it fits there.
const NotSimulated = nodefit.NotSimulated

// PodOptions are the settings of PlacePods beyond ObjectOptions.
type PodOptions struct {
	// Explain keeps, per reason a pod cannot be placed, the nodes that
	// gave it (Reason.Nodes); without it only the counts are kept.
	Explain bool
	// PodTimeout, when positive, bounds the time spent on each pod (its
	// search over the nodes): a search that outlasts it stops PlacePods
	// with a *StoppedError naming the pod's claims. A whole cluster may
	// take far longer than any one pod should.
	PodTimeout time.Duration
	// Workers is how many nodes are tried at the same time, each by an
	// Allocator of its own; 0 means one per CPU (GOMAXPROCS). The
	// placement is the same for any number.
	Workers int
}

// Placement is what PlacePods made of the input.
type Placement struct {
	// Pods are the pods in input order.
	Pods []PodResult
	// Claims are the claims given, in input order, then the claims made
	// for pods (from templates and for extended resources), in the order
	// they were made; each with its allocation, if it has one.
	Claims []ObjectResult
	// Made counts the claims made.
	Made int
	// Nodes are the nodes pods were placed on (the nodes given, without
	// nil); PodReason.Nodes index them.
	Nodes []*corev1.Node
	// Holders are, with PodOptions.Explain, the claims allocated on each
	// node by name (those whose allocation names the node), in the order
	// they were allocated: who holds the devices of a full node.
	Holders map[string][]string
}

// PodResult is what became of one pod.
type PodResult struct {
	// Name is the pod's "namespace/name".
	Name string
	// Pod is the pod as given; with spec.nodeName set when it was placed,
	// and the names of the claims made for it in its status.
	Pod *corev1.Pod
	// Bound is set for a pod that came with spec.nodeName.
	Bound bool
	// Node is the node the pod runs on, when it has one.
	Node string
	// Claims are the claims the pod uses ("namespace/name"), in the order
	// of spec.resourceClaims, then the claim for its extended resources.
	Claims []string
	// Waiting says why the pod was not tried: a claim or template it
	// names is missing (the scheduler does not take such a pod from its
	// queue).
	Waiting string
	// Failure says why no node can run the pod; nil when it was placed
	// or not tried.
	Failure *PodFailure
	// SchedulerMessage is, for a pod no node can run, what kube-scheduler
	// 1.37 writes in its PodScheduled condition (reason Unschedulable) and
	// FailedScheduling event, as kubectl describe pod shows it: "0/3 nodes
	// are available: 1 cannot allocate all claims, 2 node(s) didn't match
	// Pod's node affinity/selector. preemption: 0/3 nodes are available: 3
	// Preemption is not helpful for scheduling."
	SchedulerMessage string
	// SchedulerError is set when the scheduler fails the pod with an error
	// (condition reason SchedulerError) instead of finding a node or none:
	// on a node it filters, upstream's allocator ends its call with an
	// error that drakit's does not (Result.UpstreamAbort), and every later
	// attempt fails the same way until the objects change. It is the
	// scheduler's message. The pod is not placed; Failure or WouldFit say
	// what drakit's allocator makes of it.
	SchedulerError string
	// WouldFit, with SchedulerError, is the node drakit's allocator would
	// place the pod on.
	WouldFit string
	// Deallocated is set when the pod's first attempt found no node, and
	// the scheduler's DRA PostFilter deallocated this claim of the pod
	// ("namespace/name"): allocated, reserved for no other pod, on a node
	// the pod could not use. The pod was then tried again (the rest of
	// the result is that attempt's); FirstMessage is the scheduler's
	// message of the first.
	Deallocated, FirstMessage string
}

// PlacePods places pending pods (without spec.nodeName) on the nodes of
// opts.Nodes, in the order of the scheduler's queue, as kube-scheduler
// 1.37 does for DRA: each pod's claims (named, made from its templates
// as the resourceclaim controller makes them, and the claim for extended
// resources that DeviceClasses serve) are allocated together on the
// first node, in the order given, that the node filters let the pod use
// (see nodefit) and where they all fit. Pods with spec.nodeName hold
// their claims' devices; their claims that are not allocated yet are
// allocated on that node, before the pending pods. objs are what
// AllocateObjects takes plus core/v1 Pods and ResourceClaimTemplates of
// any version, typed or unstructured.
func PlacePods(ctx context.Context, objs []runtime.Object, opts ObjectOptions, podOpts PodOptions) (*Placement, error) {
	split, err := splitPodObjects(objs)
	if err != nil {
		return nil, err
	}
	in, err := hubObjects(split.rest)
	if err != nil {
		return nil, err
	}
	in.taintRules = append(in.taintRules, opts.DeviceTaintRules...)
	p, err := newPodPlacer(in, split, opts, podOpts)
	if err != nil {
		return nil, err
	}
	if err := p.placeAll(ctx); err != nil {
		return nil, err
	}
	return p.placement()
}

// podObjects are the pods and templates of the input, apart from what
// hubObjects takes.
type podObjects struct {
	pods             []*corev1.Pod
	templates        []*resource.ResourceClaimTemplate
	templateVersions []string
	rest             []runtime.Object
}

// hasPods reports whether the objects hold a Pod.
func hasPods(objs []runtime.Object) bool {
	for _, obj := range objs {
		if isPod(obj) {
			return true
		}
	}
	return false
}

func isPod(obj runtime.Object) bool {
	switch o := obj.(type) {
	case *corev1.Pod:
		return true
	case *unstructured.Unstructured:
		gvk := o.GroupVersionKind()
		return gvk.Group == "" && gvk.Version == "v1" && gvk.Kind == "Pod"
	}
	return false
}

func splitPodObjects(objs []runtime.Object) (*podObjects, error) {
	out := &podObjects{}
	for i, obj := range objs {
		if isPod(obj) {
			pod, err := typedPod(obj)
			if err != nil {
				return nil, fmt.Errorf("object %d (Pod %q): %w", i, nameOf(obj), err)
			}
			out.pods = append(out.pods, pod)
			continue
		}
		if obj == nil {
			out.rest = append(out.rest, obj)
			continue
		}
		if gvk, _, err := kindOf(obj); err != nil || gvk.Kind != "ResourceClaimTemplate" {
			// hubObjects takes it, or says what is wrong with it.
			out.rest = append(out.rest, obj)
			continue
		}
		t, version, err := hubTemplate(obj)
		if err != nil {
			return nil, fmt.Errorf("object %d (ResourceClaimTemplate %q): %w", i, nameOf(obj), err)
		}
		out.templates = append(out.templates, t)
		out.templateVersions = append(out.templateVersions, version)
	}
	return out, nil
}

func typedPod(obj runtime.Object) (*corev1.Pod, error) {
	if p, ok := obj.(*corev1.Pod); ok {
		return p, nil
	}
	pod := &corev1.Pod{}
	err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(obj.(*unstructured.Unstructured).Object, pod, true)
	return pod, err
}

// hubTemplate converts a template of any version to the hub.
func hubTemplate(obj runtime.Object) (*resource.ResourceClaimTemplate, string, error) {
	gvk, isUnstructured, err := kindOf(obj)
	if err != nil {
		return nil, "", err
	}
	typed := obj
	if isUnstructured {
		if typed, err = conversion.Scheme.New(gvk); err != nil {
			return nil, "", err
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(obj.(*unstructured.Unstructured).Object, typed, true); err != nil {
			return nil, "", err
		}
		typed.GetObjectKind().SetGroupVersionKind(gvk)
	}
	hub, err := conversion.ToHub(typed)
	if err != nil {
		return nil, "", err
	}
	t, ok := hub.(*resource.ResourceClaimTemplate)
	if !ok {
		return nil, "", fmt.Errorf("converts to %T, not a ResourceClaimTemplate", hub)
	}
	return t, gvk.Version, nil
}
