package describe

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
)

// Replay is the scheduler's DRA decision for one pod, replayed on the
// live inventory: on which nodes its claims could be allocated together,
// and why not on the others.
type Replay struct {
	// Nodes is the number of nodes in the cluster.
	Nodes int
	// Fits are the nodes where the pod's claims can be allocated.
	Fits []string
	// Reasons are the reasons of the other nodes, most frequent first.
	Reasons []ReasonCount
	// PerNode is every node's outcome, by name.
	PerNode []NodeOutcome
}

// ReasonCount is one reason and the nodes that gave it.
type ReasonCount struct {
	Reason string
	Nodes  []string
}

// NodeOutcome is the replay on one node.
type NodeOutcome struct {
	Node string
	// Reason is empty when the pod's claims fit.
	Reason string
	// Detail is the allocator's explanation.
	Detail string
	// Holders are the claims that hold the devices the pod would get on
	// this node if they were free.
	Holders []string
	// Taints are the taints of this node's devices that the pod's
	// requests do not tolerate.
	Taints []string
}

// ReplayPod allocates the pod's unallocated claims (the stored ones
// without allocation and those still to be made) on every node the pod
// may run on, all together as the scheduler does, against the devices
// the cluster's claims hold.
func ReplayPod(ctx context.Context, pod *corev1.Pod, podClaims []*PodClaim, inv *cluster.Inventory) (*Replay, error) {
	var pending []*resource.ResourceClaim
	var allocated []*PodClaim
	for _, pc := range podClaims {
		switch {
		case pc.Claim != nil && pc.Claim.Status.Allocation != nil:
			allocated = append(allocated, pc)
		case pc.Claim != nil:
			pending = append(pending, pc.Claim)
		case pc.Synthetic != nil:
			pending = append(pending, pc.Synthetic)
		}
	}
	features := allocator.DefaultFeatures()
	opts := allocator.Options{Classes: inv.Classes, Slices: inv.Slices, AllocatedClaims: inv.Claims, Mode: allocator.Joint, Features: &features, DeviceTaintRules: inv.TaintRules}
	busy, err := allocator.New(opts)
	if err != nil {
		return nil, err
	}
	opts.AllocatedClaims = nil
	idle, err := allocator.New(opts)
	if err != nil {
		return nil, err
	}
	holders := holdersByDevice(inv.Claims)
	taints := DeviceTaints(inv)
	r := &Replay{Nodes: len(inv.Nodes)}
	byReason := map[string][]string{}
	for _, node := range inv.Nodes {
		out := NodeOutcome{Node: node.Name}
		if why := nodeExcluded(pod, node, allocated); why != "" {
			out.Reason = why
		} else if len(pending) > 0 {
			res, err := busy.AllocateOn(ctx, node, pending)
			if err != nil {
				return nil, err
			}
			if ce := firstFailure(res); ce != nil {
				out.Reason, out.Detail = reasonText(ce, podClaims), ce.Detail
				out.Holders = wouldHold(ctx, idle, node, pending, holders)
				out.Taints = untoleratedTaints(node.Name, pending, taints)
			}
		}
		if out.Reason == "" {
			r.Fits = append(r.Fits, node.Name)
		} else {
			byReason[out.Reason] = append(byReason[out.Reason], node.Name)
		}
		r.PerNode = append(r.PerNode, out)
	}
	for reason, nodes := range byReason {
		r.Reasons = append(r.Reasons, ReasonCount{Reason: reason, Nodes: nodes})
	}
	sort.Slice(r.Reasons, func(i, j int) bool {
		a, b := r.Reasons[i], r.Reasons[j]
		if len(a.Nodes) != len(b.Nodes) {
			return len(a.Nodes) > len(b.Nodes)
		}
		return a.Reason < b.Reason
	})
	return r, nil
}

// firstFailure is the error of the claim to blame: not one that failed
// only because another claim of the pod did.
func firstFailure(res []allocator.Result) *allocator.ClaimError {
	var other *allocator.ClaimError
	for _, r := range res {
		var ce *allocator.ClaimError
		if r.Err == nil || !errors.As(r.Err, &ce) {
			continue
		}
		if ce.Reason != allocator.ReasonOtherClaimFailed {
			return ce
		}
		other = ce
	}
	return other
}

var reasonPhrases = map[allocator.Reason]string{
	allocator.ReasonNotEnough:               "not enough devices",
	allocator.ReasonNoMatch:                 "no matching device",
	allocator.ReasonDeviceTainted:           "a device with a taint not tolerated",
	allocator.ReasonDeviceInUse:             "a device in use",
	allocator.ReasonConstraintUnsatisfiable: "a constraint that cannot be met",
	allocator.ReasonConflict:                "requests competing for the same devices",
	allocator.ReasonNoClass:                 "a DeviceClass that does not exist",
	allocator.ReasonIncompletePool:          "an incomplete pool",
	allocator.ReasonInvalidPool:             "an invalid pool",
	allocator.ReasonTooManyDevices:          "too many devices for one claim",
}

// reasonText is the reason as counted per node: what, for which claim of
// the pod (by its name in the pod) and which request.
func reasonText(ce *allocator.ClaimError, podClaims []*PodClaim) string {
	phrase, ok := reasonPhrases[ce.Reason]
	if !ok {
		phrase = string(ce.Reason)
	}
	claim := ce.Claim
	for _, pc := range podClaims {
		for _, c := range []*resource.ResourceClaim{pc.Claim, pc.Synthetic} {
			if c != nil && c.Namespace+"/"+c.Name == ce.Claim {
				claim = pc.Name
			}
		}
	}
	s := phrase + " for claim " + claim
	if ce.Request != "" {
		s += " (request " + ce.Request + ")"
	}
	return s
}

// nodeExcluded says why the pod cannot run on node whatever its devices:
// spec.nodeName, spec.nodeSelector, or a claim allocated where the node
// cannot reach.
func nodeExcluded(pod *corev1.Pod, node *corev1.Node, allocated []*PodClaim) string {
	if pod.Spec.NodeName != "" && pod.Spec.NodeName != node.Name {
		return "not the pod's spec.nodeName"
	}
	if len(pod.Spec.NodeSelector) > 0 && !labels.SelectorFromSet(pod.Spec.NodeSelector).Matches(labels.Set(node.Labels)) {
		return "the pod's node selector does not match"
	}
	for _, pc := range allocated {
		if sel := pc.Claim.Status.Allocation.NodeSelector; sel != nil && !nodeSelectorMatches(sel, node) {
			return "claim " + pc.Name + " is allocated on devices this node cannot reach"
		}
	}
	return ""
}

// nodeSelectorMatches: any term whose requirements all hold.
func nodeSelectorMatches(sel *corev1.NodeSelector, node *corev1.Node) bool {
	fields := labels.Set{"metadata.name": node.Name}
	for _, term := range sel.NodeSelectorTerms {
		if requirementsHold(term.MatchExpressions, labels.Set(node.Labels)) && requirementsHold(term.MatchFields, fields) {
			return true
		}
	}
	return false
}

func requirementsHold(reqs []corev1.NodeSelectorRequirement, values labels.Set) bool {
	for _, r := range reqs {
		op := map[corev1.NodeSelectorOperator]selection.Operator{
			corev1.NodeSelectorOpIn: selection.In, corev1.NodeSelectorOpNotIn: selection.NotIn,
			corev1.NodeSelectorOpExists: selection.Exists, corev1.NodeSelectorOpDoesNotExist: selection.DoesNotExist,
			corev1.NodeSelectorOpGt: selection.GreaterThan, corev1.NodeSelectorOpLt: selection.LessThan,
		}[r.Operator]
		req, err := labels.NewRequirement(r.Key, op, r.Values)
		if err != nil || !req.Matches(values) {
			return false
		}
	}
	return true
}

// holdersByDevice maps each device held by an allocated claim (not for
// admin access) to the claims that hold it.
func holdersByDevice(claims []*resource.ResourceClaim) map[allocator.DeviceID][]string {
	out := map[allocator.DeviceID][]string{}
	for _, c := range claims {
		if c.Status.Allocation == nil {
			continue
		}
		for _, r := range c.Status.Allocation.Devices.Results {
			if r.AdminAccess != nil && *r.AdminAccess {
				continue
			}
			id := allocator.DeviceID{Driver: r.Driver, Pool: r.Pool, Device: r.Device}
			out[id] = append(out[id], c.Namespace+"/"+c.Name)
		}
	}
	return out
}

// wouldHold names the claims that hold the devices the pod would get on
// node if no device were allocated.
func wouldHold(ctx context.Context, idle *allocator.Allocator, node *corev1.Node, pending []*resource.ResourceClaim, holders map[allocator.DeviceID][]string) []string {
	res, err := idle.AllocateOn(ctx, node, pending)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, r := range res {
		if r.Err != nil || r.Allocation == nil {
			return nil
		}
		for _, d := range r.Allocation.Devices.Results {
			for _, h := range holders[allocator.DeviceID{Driver: d.Driver, Pool: d.Pool, Device: d.Device}] {
				if !seen[h] {
					seen[h] = true
					out = append(out, h)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// untoleratedTaints are the NoSchedule and NoExecute taints of the
// devices local to node that no request of the pending claims tolerates.
func untoleratedTaints(node string, pending []*resource.ResourceClaim, taints map[allocator.DeviceID][]DeviceTaint) []string {
	var out []string
	for id, list := range taints {
		for _, t := range list {
			if t.Node != node || t.Taint.Effect == resource.DeviceTaintEffectNone || toleratedByAny(pending, t.Taint) {
				continue
			}
			out = append(out, fmt.Sprintf("%s %s", id, t))
		}
	}
	sort.Strings(out)
	return out
}

func toleratedByAny(claims []*resource.ResourceClaim, t resource.DeviceTaint) bool {
	for _, c := range claims {
		for _, r := range c.Spec.Devices.Requests {
			var tols []resource.DeviceToleration
			if r.Exactly != nil {
				tols = r.Exactly.Tolerations
			}
			for _, s := range r.FirstAvailable {
				tols = append(tols, s.Tolerations...)
			}
			for _, tol := range tols {
				if tolerates(tol, t) {
					return true
				}
			}
		}
	}
	return false
}

func tolerates(tol resource.DeviceToleration, t resource.DeviceTaint) bool {
	if tol.Effect != "" && tol.Effect != t.Effect {
		return false
	}
	if tol.Key != "" && tol.Key != t.Key {
		return false
	}
	if tol.Operator == resource.DeviceTolerationOpExists {
		return true
	}
	return tol.Key != "" && tol.Value == t.Value
}

// Summary is the one-line answer: "0/N nodes can run ns/pod: 2 not
// enough devices for claim gpus (request gpus), 1 ...".
func (r *Replay) Summary(pod *corev1.Pod) string {
	parts := make([]string, len(r.Reasons))
	for i, rc := range r.Reasons {
		parts[i] = fmt.Sprintf("%d %s", len(rc.Nodes), rc.Reason)
	}
	s := fmt.Sprintf("%d/%d nodes can run %s/%s", len(r.Fits), r.Nodes, pod.Namespace, pod.Name)
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	return s
}
