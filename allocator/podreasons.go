package allocator

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// ReasonNotPlaced is the error of a claim that only pods use and none of
// them was placed: nothing allocated it.
const ReasonNotPlaced Reason = "PodNotPlaced"

// PodFailure says why no node can run a pod, in the manner of the
// scheduler's "0/N nodes are available" message: the nodes counted by
// reason, not listed one by one. Pods of one kind (see PlacePods) share
// one PodFailure.
type PodFailure struct {
	// Nodes is the number of nodes tried.
	Nodes int
	// Reasons, most frequent first (then by text).
	Reasons []*PodReason
	byText  map[string]*PodReason
	// Scheduler counts the nodes by the reason kube-scheduler gives for
	// each, in its words ("cannot allocate all claims", "node(s) had
	// untolerated taint(s)"): several of drakit's reasons are one of the
	// scheduler's.
	Scheduler map[string]int
	// PreFilter, when set, is why the scheduler rejects the pod before it
	// looks at any node ("request gpu: device class gpu.example.com does
	// not exist"); its message then names no node's reason.
	PreFilter string
	// resolvable counts the nodes whose scheduler reason preemption could
	// resolve (Unschedulable rather than UnschedulableAndUnresolvable).
	resolvable int
}

// PodReason is one reason and the nodes that gave it.
type PodReason struct {
	// Text is the reason in a few words: "node selector", "untolerated
	// taint gpu=true:NoSchedule", "not enough devices for claim gpus".
	Text string
	// Count is how many nodes gave it.
	Count int
	// Asks and MostFree are, for not enough devices, what the request
	// asks for and the most devices that matched and were free on one of
	// these nodes; 0 when unknown.
	Asks, MostFree int
	// Example is the allocator's explanation on the first of these nodes
	// (the request and the reason, without the claim's name, which differs
	// from pod to pod of a kind).
	Example string
	// Nodes are the indices (in Placement.Nodes) of the nodes, in order;
	// kept only with PodOptions.Explain.
	Nodes []int
	// exampleNode is the node of Example, asksNode that of Asks: the
	// first node and the last that gave numbers, whatever the order in
	// which the nodes are counted (podmemo.go counts some late).
	exampleNode, asksNode int
}

// String is the reason with its count and numbers:
// "1612 not enough devices for claim gpus (asks 8, at most 7 free)".
func (r *PodReason) String() string {
	s := fmt.Sprintf("%d %s", r.Count, r.Text)
	if r.Asks > 0 {
		s += fmt.Sprintf(" (asks %d, at most %d free)", r.Asks, r.MostFree)
	}
	return s
}

// Line is the pod's reason line: "0/2000 nodes can run ml/train-7: 1612
// not enough devices for claim gpus (asks 8, at most 7 free), 69 no
// device matches claim gpus, 319 node selector".
func (f *PodFailure) Line(pod string) string {
	parts := make([]string, len(f.Reasons))
	for i, r := range f.Reasons {
		parts[i] = r.String()
	}
	line := fmt.Sprintf("0/%d nodes can run %s", f.Nodes, pod)
	if len(parts) > 0 {
		line += ": " + strings.Join(parts, ", ")
	}
	return line
}

// failureKey is why one node failed one pod.
type failureKey struct {
	text      string
	asks, got int
	example   string
	// scheduler is the reason kube-scheduler gives for the node;
	// resolvable when preemption could resolve it (NodeResourcesFit).
	scheduler  string
	resolvable bool
	// also are the scheduler's further reasons for the node: a filter
	// may give several (NodeResourcesFit names each resource), and the
	// scheduler's message counts each.
	also []string
}

// add counts the node (index) under the reason.
func (f *PodFailure) add(k *failureKey, node int, keepNodes bool) {
	if f.byText == nil {
		f.byText = map[string]*PodReason{}
	}
	r := f.byText[k.text]
	if r == nil {
		r = &PodReason{Text: k.text, Example: k.example, exampleNode: node, asksNode: -1}
		f.byText[k.text] = r
		f.Reasons = append(f.Reasons, r)
	} else if node < r.exampleNode {
		r.Example, r.exampleNode = k.example, node
	}
	r.Count++
	if f.Scheduler == nil {
		f.Scheduler = map[string]int{}
	}
	f.Scheduler[k.scheduler]++
	for _, s := range k.also {
		f.Scheduler[s]++
	}
	if k.resolvable {
		f.resolvable++
	}
	if k.asks > 0 {
		if node > r.asksNode {
			r.Asks, r.asksNode = k.asks, node
		}
		r.MostFree = max(r.MostFree, k.got)
	}
	if keepNodes {
		r.Nodes = append(r.Nodes, node)
	}
	// Keep the order: most frequent first. Counts grow by one, so one
	// step towards the front restores it.
	for i := len(f.Reasons) - 1; i > 0; i-- {
		if f.Reasons[i] == r {
			for j := i; j > 0 && less(f.Reasons[j], f.Reasons[j-1]); j-- {
				f.Reasons[j], f.Reasons[j-1] = f.Reasons[j-1], f.Reasons[j]
			}
			break
		}
	}
}

func less(a, b *PodReason) bool {
	if a.Count != b.Count {
		return a.Count > b.Count
	}
	return a.Text < b.Text
}

// sortReasons puts the reasons in their order (used after merging).
func (f *PodFailure) sortReasons() {
	sort.SliceStable(f.Reasons, func(i, j int) bool { return less(f.Reasons[i], f.Reasons[j]) })
}

// claimFailure names a claim error by the pod's entry for the claim
// (entry "" for a failure that names no claim of the pod).
func claimFailure(err error, entry string, requests int) *failureKey {
	var ce *ClaimError
	if !errors.As(err, &ce) {
		return &failureKey{text: err.Error(), example: err.Error(), scheduler: SchedulerCannotAllocate}
	}
	what := "claim " + entry
	if ce.Request != "" && requests > 1 {
		what += " request " + ce.Request
	}
	// The example leaves out the claim's name: pods of one kind share
	// their reasons, and the name would be that of the first pod's claim.
	example := ce.Detail
	if ce.Request != "" {
		example = fmt.Sprintf("request %q: %s", ce.Request, ce.Detail)
	}
	if ce.Err != nil {
		example += ": " + ce.Err.Error()
	}
	k := &failureKey{example: example, scheduler: SchedulerCannotAllocate}
	switch ce.Reason {
	case ReasonNotEnough:
		k.text = "not enough devices for " + what
		k.asks, k.got = ce.asks, ce.free
	case ReasonNoMatch:
		k.text = "no device matches " + what
	case ReasonConstraintUnsatisfiable:
		k.text = "constraints of " + what + " cannot be met"
	case ReasonDeviceTainted:
		k.text = "untolerated device taint for " + what
	case ReasonDeviceInUse:
		k.text = "devices in use for " + what
	case ReasonConflict:
		k.text = what + " cannot be allocated together with the pod's other claims"
	default:
		k.text = what + ": " + string(ce.Reason)
	}
	return k
}

// schedulerMessage is the message of the scheduler's FitError for a pod
// no node can run (FitError.Error in k8s.io/kubernetes v1.37.2): the
// nodes counted by the scheduler's reasons, sorted as text (or the
// PreFilter's message), then what its PostFilter plugins said: the DRA
// plugin's deallocation of a claim the pod could not use, and
// DefaultPreemption's.
func (p *podPlacer) schedulerMessage(call *podCall, f *PodFailure) string {
	var b strings.Builder
	fmt.Fprintf(&b, "0/%d nodes are available:", f.Nodes)
	if f.PreFilter != "" {
		fmt.Fprintf(&b, " %s.", f.PreFilter)
	} else if reasons := countedSorted(f.Scheduler); len(reasons) > 0 {
		fmt.Fprintf(&b, " %s.", strings.Join(reasons, ", "))
	}
	var post []string
	if deallocatable(call, f) != nil {
		post = append(post, "deallocation of ResourceClaim completed")
	}
	post = append(post, preemptionMessage(call.pod, f))
	return b.String() + " " + strings.Join(post, ", ")
}

// countedSorted writes each reason with its count ("2 node(s) were
// unschedulable"), sorted as the scheduler sorts them: as strings.
func countedSorted(counts map[string]int) []string {
	out := make([]string, 0, len(counts))
	for text, n := range counts {
		out = append(out, fmt.Sprintf("%d %s", n, text))
	}
	sort.Strings(out)
	return out
}

// deallocatable is the claim the DRA plugin's PostFilter deallocates when
// no node fits the pod, or nil: one of the pod's allocated claims that a
// node could not use (where the pod's other claims could be allocated:
// SchedulerClaimNotAvailable) and that no other pod has reserved. The
// scheduler picks one such claim at random; this is the first in the
// pod's order.
func deallocatable(call *podCall, f *PodFailure) *claimState {
	if f.PreFilter != "" || f.Scheduler[SchedulerClaimNotAvailable] == 0 {
		return nil
	}
	for k, cs := range call.held {
		if cs.extended || call.heldNodes[k] == nil {
			continue
		}
		reserved := cs.hub.Status.ReservedFor
		if len(reserved) == 0 || len(reserved) == 1 && reserved[0].UID == call.pod.UID {
			return cs
		}
	}
	return nil
}

// preemptionMessage is DefaultPreemption's part of the message. Every
// filter drakit applies rejects a node as UnschedulableAndUnresolvable,
// which preemption does not try, but NodeResourcesFit's
// "Insufficient" (resolvable): there drakit assumes, as it does not know
// other pods' priorities and resources, that evicting pods does not help
// (it cannot add a resource the node lacks).
func preemptionMessage(pod *corev1.Pod, f *PodFailure) string {
	if pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy == corev1.PreemptNever {
		return "preemption: not eligible due to preemptionPolicy=Never."
	}
	counts := map[string]int{}
	if f.resolvable > 0 {
		counts["No preemption victims found for incoming pod"] = f.resolvable
	}
	if n := f.Nodes - f.resolvable; n > 0 {
		counts["Preemption is not helpful for scheduling"] = n
	}
	return fmt.Sprintf("preemption: 0/%d nodes are available: %s.", f.Nodes, strings.Join(countedSorted(counts), ", "))
}

// refusedReservation is the scheduler's error for a pod that fits but
// shares a claim allocated before without status.allocation.
// allocationTimestamp (by a scheduler before 1.36, with
// DRADeviceBindingConditions off, or by another program), or "". With
// DRADeviceBindingConditions and DRAResourceClaimDeviceStatus on, the DRA
// plugin's PreBind sets the timestamp when it adds the pod to the claim's
// reservedFor, and the API server refuses the change of the allocation:
// the pod fails on every attempt, on the node it chose. PreBind goes
// through the pod's claims in order; the claims it allocates itself get
// their timestamp with their allocation, so the first claim allocated
// before without one fails it.
func (p *podPlacer) refusedReservation(call *podCall) string {
	if !p.workers[0].features.DeviceBindingAndStatus {
		return ""
	}
	for _, cs := range call.held {
		a := cs.hub.Status.Allocation
		if a == nil || a.AllocationTimestamp != nil || cs.allocatedHere || reservedForPod(cs.hub, call.pod) {
			continue
		}
		return fmt.Sprintf("running PreBind plugin %q: add reservation to claim %s: ResourceClaim.resource.k8s.io %q is invalid: status.allocation: Invalid value: null: field cannot be modified once set",
			"DynamicResources", claimName(cs.hub), cs.hub.Name)
	}
	return ""
}

// schedulerErrorMessage is the scheduler's message for a pod whose DRA
// filter returned an error: the framework names the plugin.
func schedulerErrorMessage(abort string) string {
	return fmt.Sprintf("running %q filter plugin: %s", "DynamicResources", abort)
}
