package describe

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/conversion"
)

// Replay is the scheduler's decision for one pod, replayed on the live
// inventory with allocator.PlacePods: the simulation of "drakit allocate"
// with pods, so that both give the same reasons in the same words.
type Replay struct {
	// Pod is what became of the pod: placed (Node), waiting, or a
	// Failure with the nodes counted per reason.
	Pod allocator.PodResult
	// Placement holds the nodes the reasons' indices name and, per node,
	// the claims allocated there (Holders).
	Placement *allocator.Placement
	// Taints are the taints, not tolerated by any request of the pod's
	// claims to allocate, of the devices their DeviceClasses select on the
	// nodes where those claims failed ("node: driver/pool/device
	// key=value:Effect"); only when the scheduler's gates apply device
	// taints.
	Taints []string
}

// ReplayPod places pod with allocator.PlacePods against the inventory:
// its classes, slices and DeviceTaintRules; the allocated claims of every
// namespace, which hold their devices (the pods bound to nodes are
// represented by them); the pod's own claims, stored or to be made from
// their templates (podClaims found them); and the nodes. Nothing else is
// placed, so the answer is about this pod alone. features are the
// scheduler's; timeout, when positive, bounds the search over the nodes
// (one claim over many devices can need a search that never ends in
// practice).
func ReplayPod(ctx context.Context, pod *corev1.Pod, podClaims []*PodClaim, inv *cluster.Inventory, features allocator.Features, timeout time.Duration) (*Replay, error) {
	objs, err := replayObjects(pod, podClaims, inv)
	if err != nil {
		return nil, err
	}
	placed, err := allocator.PlacePods(ctx, objs, allocator.ObjectOptions{Nodes: inv.Nodes, Features: &features, DeviceTaintRules: inv.TaintRules},
		allocator.PodOptions{Explain: true, PodTimeout: timeout})
	if err != nil {
		return nil, PodSearchStopped(err, timeout)
	}
	r := &Replay{Pod: placed.Pods[0], Placement: placed}
	if features.DeviceTaints && r.Pod.Failure != nil {
		r.Taints = untoleratedTaints(ctx, inv, deviceFailureNodes(r.Pod.Failure, placed), pendingSpecs(podClaims), features.DeviceTaintRules)
	}
	return r, nil
}

// PodSearchStopped says, for an error of allocator.PlacePods whose pod
// search outlasted timeout (PodOptions.PodTimeout, --timeout), which
// claims and node it was at and what to do; other errors are returned as
// they are. "allocate" with pods and "describe pod" say it alike.
func PodSearchStopped(err error, timeout time.Duration) error {
	var stopped *allocator.StoppedError
	if !errors.As(err, &stopped) || !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	where := ""
	if stopped.Node != nil {
		where = " on node " + stopped.Node.Name
	}
	claims := "claims "
	if len(stopped.Claims) == 1 {
		claims = "claim "
	}
	return fmt.Errorf("%s%s: the search%s did not finish within %s (--timeout, per pod): narrow the claims' selectors or device counts, or raise --timeout",
		claims, strings.Join(stopped.Claims, ", "), where, timeout)
}

// replayObjects are PlacePods' input, in resource.k8s.io/v1 (the claims
// made from templates are written in their template's version).
func replayObjects(pod *corev1.Pod, podClaims []*PodClaim, inv *cluster.Inventory) ([]runtime.Object, error) {
	var hubs []runtime.Object
	for _, c := range inv.Classes {
		hubs = append(hubs, c)
	}
	for _, s := range inv.Slices {
		hubs = append(hubs, s)
	}
	for _, c := range inv.Claims {
		if c.Status.Allocation != nil || c.Namespace == pod.Namespace && usedBy(c, pod, podClaims) {
			hubs = append(hubs, c)
		}
	}
	for _, pc := range podClaims {
		if pc.Template != nil {
			hubs = append(hubs, pc.Template)
		}
	}
	objs := make([]runtime.Object, 0, len(hubs)+1)
	for _, h := range hubs {
		obj, err := conversion.FromHub(h, "v1")
		if err != nil {
			return nil, fmt.Errorf("converting a stored object to resource.k8s.io/v1: %w", err)
		}
		objs = append(objs, obj)
	}
	return append(objs, pod), nil
}

// usedBy tells whether a stored claim is one of the pod's: named by it,
// or made for it (the pod is its controller) before the pod's status
// names it.
func usedBy(c *resource.ResourceClaim, pod *corev1.Pod, podClaims []*PodClaim) bool {
	for _, pc := range podClaims {
		if pc.Claim == c {
			return true
		}
	}
	for _, o := range c.OwnerReferences {
		if o.Controller != nil && *o.Controller && o.UID == pod.UID && pod.UID != "" {
			return true
		}
	}
	return false
}

// deviceFailureNodes are the nodes that failed the pod for its devices,
// not for a node filter or for want of any matching device: the reasons
// that name a claim of the pod to allocate.
func deviceFailureNodes(f *allocator.PodFailure, placed *allocator.Placement) map[string]bool {
	out := map[string]bool{}
	for _, r := range f.Reasons {
		if !strings.Contains(r.Text, "claim ") || strings.Contains(r.Text, "allocated where") || strings.HasPrefix(r.Text, "no device matches") {
			continue
		}
		for _, i := range r.Nodes {
			out[placed.Nodes[i].Name] = true
		}
	}
	return out
}

// pendingSpecs are the specs of the pod's claims still to be allocated.
func pendingSpecs(podClaims []*PodClaim) []*resource.ResourceClaimSpec {
	var out []*resource.ResourceClaimSpec
	for _, pc := range podClaims {
		switch {
		case pc.Claim != nil && pc.Claim.Status.Allocation == nil:
			out = append(out, &pc.Claim.Spec)
		case pc.Claim == nil && pc.Template != nil:
			out = append(out, &pc.Template.Spec.Spec)
		}
	}
	return out
}

// untoleratedTaints are the NoSchedule and NoExecute taints that no
// request of the specs tolerates (those of DeviceTaintRules only when the
// scheduler applies them), of the devices local to the nodes that a
// DeviceClass of the requests selects: the taints that keep the pod from
// devices it could otherwise get.
func untoleratedTaints(ctx context.Context, inv *cluster.Inventory, nodes map[string]bool, specs []*resource.ResourceClaimSpec, withRules bool) []string {
	taints := DeviceTaints(inv)
	selects := classesOf(ctx, inv, specs)
	var out []string
	for _, s := range inv.Slices {
		for i := range s.Spec.Devices {
			d := &s.Spec.Devices[i]
			id := allocator.DeviceID{Driver: s.Spec.Driver, Pool: s.Spec.Pool.Name, Device: d.Name}
			list := taints[id]
			if len(list) == 0 || !nodes[deviceNode(s, d)] || !selects(s.Spec.Driver, d) {
				continue
			}
			for _, t := range list {
				if t.Taint.Effect == resource.DeviceTaintEffectNone || t.Rule != "" && !withRules || toleratedByAny(specs, t.Taint) {
					continue
				}
				out = append(out, fmt.Sprintf("%s: %s %s", t.Node, id, t))
			}
		}
	}
	sort.Strings(out)
	return out
}

// classesOf tells whether a DeviceClass that a request of the specs names
// selects a device (a class that is missing or does not compile selects
// nothing: the replay says what is wrong with it).
func classesOf(ctx context.Context, inv *cluster.Inventory, specs []*resource.ResourceClaimSpec) func(string, *resource.Device) bool {
	var matchers []func(string, *resource.Device) (bool, error)
	seen := map[string]bool{}
	add := func(class string) {
		if class == "" || seen[class] {
			return
		}
		seen[class] = true
		if m, err := classMatcher(ctx, inv, class); err == nil {
			matchers = append(matchers, m)
		}
	}
	for _, spec := range specs {
		for _, r := range spec.Devices.Requests {
			if r.Exactly != nil {
				add(r.Exactly.DeviceClassName)
			}
			for _, sub := range r.FirstAvailable {
				add(sub.DeviceClassName)
			}
		}
	}
	return func(driver string, d *resource.Device) bool {
		for _, m := range matchers {
			if ok, _ := m(driver, d); ok {
				return true
			}
		}
		return false
	}
}

func toleratedByAny(specs []*resource.ResourceClaimSpec, t resource.DeviceTaint) bool {
	for _, spec := range specs {
		for _, r := range spec.Devices.Requests {
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
