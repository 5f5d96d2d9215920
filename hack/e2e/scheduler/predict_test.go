package scheduler

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/allocator/verify"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
)

// verdict is what drakit says of one pending pod.
type verdict struct {
	// node is where drakit placed it; empty when it did not.
	node string
	// failed: no node can run it (PodResult.Failure).
	failed bool
	// waiting says why drakit did not try it (a claim is missing).
	waiting string
	// schedulerError is PodResult.SchedulerError: the scheduler will
	// fail the pod with an error, this message.
	schedulerError string
	// message is the scheduler's message drakit expects
	// (PodResult.SchedulerMessage), else its own reason line.
	message string
	// schedulerWords: message is the scheduler's own message, to be
	// compared with the pod's condition word for word.
	schedulerWords bool
	// devices are, for a placed pod of the offline prediction, the
	// devices ("pool/device", sorted) of its claims that were not
	// allocated before the scenario's pods: what it took.
	devices []string
}

func (v verdict) placed() bool { return v.node != "" }

func (v verdict) String() string {
	switch {
	case v.node != "":
		return "placed on " + v.node
	case v.schedulerError != "":
		return "scheduler error: " + v.schedulerError
	case v.waiting != "":
		return "waiting: " + v.waiting
	case v.failed:
		return "unplaceable: " + v.message
	}
	return "not placed"
}

// verdictOf reads a PodResult.
func verdictOf(r allocator.PodResult) verdict {
	v := verdict{node: r.Node, waiting: r.Waiting, failed: r.Failure != nil}
	if r.Bound {
		v.node = ""
	}
	v.schedulerError = r.SchedulerError
	if r.Failure != nil {
		if r.SchedulerMessage != "" {
			v.message, v.schedulerWords = r.SchedulerMessage, true
		} else {
			v.message = r.Failure.Line(r.Name)
		}
	}
	return v
}

// predictor runs drakit's predictions.
type predictor struct {
	features allocator.Features
	// gates are the scheduler's DRA gates, for drakit's --feature-gates.
	gates string
	// drakit and kubeconfig run the CLI against the server.
	drakit, kubeconfig string
	// dir holds the CLI's input files.
	dir string
}

// place runs PlacePods over the objects: nodes tried in order.
func (p *predictor) place(ctx context.Context, nodes []*corev1.Node, objs []runtime.Object) (*allocator.Placement, error) {
	features := p.features
	return allocator.PlacePods(ctx, objs, allocator.ObjectOptions{Nodes: nodes, Features: &features, ClaimTimeout: 10 * time.Second}, allocator.PodOptions{})
}

// offline is PlacePods on the objects as given to the server, before the
// scheduler ran: the pending pods in the scheduler's order, their
// templates' claims made by drakit.
func (p *predictor) offline(ctx context.Context, cr *created) (map[string]verdict, error) {
	objs := objectsOf(cr.classes, cr.slices, cr.claims, cr.templates)
	for _, pod := range append(append([]*corev1.Pod(nil), cr.bound...), cr.pending...) {
		objs = append(objs, pod.DeepCopy())
	}
	placed, err := p.place(ctx, cr.nodes, objs)
	if err != nil {
		return nil, err
	}
	devices := map[string][]string{} // "namespace/name" -> devices taken in the run
	for _, c := range placed.Claims {
		if c.Err == nil && !c.Result.AlreadyAllocated && c.Claim != nil {
			devices[c.Name] = allocatedDevices(c.Claim)
		}
	}
	out := map[string]verdict{}
	for _, r := range placed.Pods {
		if r.Bound {
			continue
		}
		v := verdictOf(r)
		if v.placed() {
			for _, c := range r.Claims {
				v.devices = append(v.devices, devices[c]...)
			}
			sort.Strings(v.devices)
		}
		out[r.Pod.Name] = v
	}
	return out, nil
}

// allocatedDevices are the devices ("pool/device") of a claim's
// allocation, of any version, typed or not.
func allocatedDevices(claim runtime.Object) []string {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(claim)
	if err != nil {
		return nil
	}
	results, _, _ := unstructured.NestedSlice(u, "status", "allocation", "devices", "results")
	var out []string
	for _, r := range results {
		m, _ := r.(map[string]any)
		pool, _ := m["pool"].(string)
		device, _ := m["device"].(string)
		out = append(out, pool+"/"+device)
	}
	return out
}

// schedulerDevices are, for each pod the scheduler bound, the devices
// ("pool/device", sorted) of its claims that were not allocated before the
// scenario's pods, as the scheduler allocated them.
func schedulerDevices(cr *created, h *history) map[string][]string {
	before := map[string]bool{}
	for _, c := range cr.claims {
		if c.Status.Allocation != nil {
			before[c.Name] = true
		}
	}
	byName := map[string]*resourcev1.ResourceClaim{}
	for _, c := range h.claims {
		byName[c.Name] = c
	}
	out := map[string][]string{}
	for _, s := range h.order {
		pod := h.pods[s.pod]
		var names []string
		for _, rc := range pod.Spec.ResourceClaims {
			if rc.ResourceClaimName != nil {
				names = append(names, *rc.ResourceClaimName)
			}
		}
		for _, st := range pod.Status.ResourceClaimStatuses {
			if st.ResourceClaimName != nil {
				names = append(names, *st.ResourceClaimName)
			}
		}
		var devices []string
		for _, n := range names {
			if c := byName[n]; c != nil && !before[n] && c.Status.Allocation != nil {
				for _, r := range c.Status.Allocation.Devices.Results {
					devices = append(devices, r.Pool+"/"+r.Device)
				}
			}
		}
		sort.Strings(devices)
		out[s.pod] = devices
	}
	return out
}

// live runs `drakit allocate --from-cluster` with the pending pods as the
// server holds them before the scheduler sees them (their template claims
// made and named in their status), gate removed: drakit reads the rest
// from the cluster.
func (p *predictor) live(ctx context.Context, cr *created, pods []*corev1.Pod) (map[string]verdict, string, error) {
	var in bytes.Buffer
	for _, pod := range pods {
		pod = pod.DeepCopy()
		pod.APIVersion, pod.Kind = "v1", "Pod"
		// The gate's condition (SchedulingGated) goes with the gate.
		pod.Status.Conditions = nil
		data, err := yaml.Marshal(pod)
		if err != nil {
			return nil, "", err
		}
		in.WriteString("---\n")
		in.Write(data)
	}
	file := filepath.Join(p.dir, cr.namespace+"-pods.yaml")
	if err := os.WriteFile(file, in.Bytes(), 0o644); err != nil {
		return nil, "", err
	}
	args := []string{"allocate", "--from-cluster", "-f", file, "-o", "json", "--feature-gates", p.gates, "--kubeconfig", p.kubeconfig}
	cmd := exec.CommandContext(ctx, p.drakit, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	// Exit code 1: some pod cannot be placed, which the output says.
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return nil, stderr.String(), fmt.Errorf("drakit %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	out := map[string]verdict{}
	dec := json.NewDecoder(&stdout)
	for {
		var obj struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
			Spec struct {
				NodeName string `json:"nodeName"`
			} `json:"spec"`
			Status struct {
				Conditions []corev1.PodCondition `json:"conditions"`
			} `json:"status"`
		}
		if err := dec.Decode(&obj); err == io.EOF {
			break
		} else if err != nil {
			return nil, stderr.String(), fmt.Errorf("drakit %s: reading its output: %v", strings.Join(args, " "), err)
		}
		if obj.Kind != "Pod" {
			continue
		}
		v := verdict{node: obj.Spec.NodeName}
		for _, c := range obj.Status.Conditions {
			if c.Type != corev1.PodScheduled || c.Status != corev1.ConditionFalse {
				continue
			}
			switch c.Reason {
			case corev1.PodReasonSchedulerError:
				v.schedulerError = c.Message
			default:
				v.failed, v.message = true, c.Message
				v.schedulerWords = strings.HasPrefix(c.Message, "0/") && strings.Contains(c.Message, " nodes are available")
			}
		}
		if !v.placed() && !v.failed && v.schedulerError == "" {
			v.waiting = "not placed, no condition (see standard error)"
		}
		out[obj.Metadata.Name] = v
	}
	for _, pod := range pods {
		if _, ok := out[pod.Name]; !ok {
			return nil, stderr.String(), fmt.Errorf("drakit %s: pod %s is not in its output\n%s", strings.Join(args, " "), pod.Name, stderr.String())
		}
	}
	return out, stderr.String(), nil
}

func objectsOf(classes []*resourcev1.DeviceClass, slices []*resourcev1.ResourceSlice, claims []*resourcev1.ResourceClaim, templates []*resourcev1.ResourceClaimTemplate) []runtime.Object {
	var objs []runtime.Object
	for _, o := range classes {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range slices {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range claims {
		objs = append(objs, o.DeepCopy())
	}
	for _, o := range templates {
		objs = append(objs, o.DeepCopy())
	}
	return objs
}

// history is what the scheduler did in one scenario.
type history struct {
	// outcomes are the final outcomes of the pending pods.
	outcomes map[string]outcome
	// order are the bindings in the order the scheduler made them.
	order []step
	// decidedAt is, for a pod left unbound, how many bindings there were
	// when its condition last changed: the state its message speaks of.
	decidedAt map[string]int
	// claims are the claims at the end (made ones included); pods the
	// pending pods at the end.
	claims []*resourcev1.ResourceClaim
	pods   map[string]*corev1.Pod
}

// boundBefore is the index in order of the pod's binding, or, for a pod
// not bound, the bindings made when the scheduler last decided on it: the
// state the replay starts from has the bindings before.
func (h *history) boundBefore(pod string) int {
	for i, s := range h.order {
		if s.pod == pod {
			return i
		}
	}
	return h.decidedAt[pod]
}

// replay asks drakit about one pending pod on the cluster as the
// scheduler saw it: the bindings before the pod's (or all, for a pod not
// bound) applied with the scheduler's allocations, the pod pending, alone.
// For a bound pod only its node is tried: drakit must find that node
// feasible. It returns drakit's verdict and, for a bound pod, what
// drakit's judge (allocator/verify) finds wrong with the devices the
// scheduler allocated for it.
func (p *predictor) replay(ctx context.Context, cr *created, h *history, pod string) (verdict, []error, error) {
	k := h.boundBefore(pod)
	v, errs, err := p.replayAt(ctx, cr, h, pod, k)
	o := h.outcomes[pod]
	if err != nil || o.node != "" || k >= len(h.order) || (agrees(o, v, false) && wordsDiffer(o, v) == "") {
		return v, errs, err
	}
	// The scheduler tries an unschedulable pod again when a claim of its
	// changes, which happens in the PreBind of the pod that allocates it,
	// before that pod is bound: its new decision may have seen one more
	// binding than was observed with it.
	if next, _, err := p.replayAt(ctx, cr, h, pod, k+1); err == nil && agrees(o, next, false) && wordsDiffer(o, next) == "" {
		return next, nil, nil
	}
	return v, errs, err
}

// replayAt is replay on the state with the first k bindings of the
// scheduler applied.
func (p *predictor) replayAt(ctx context.Context, cr *created, h *history, pod string, k int) (verdict, []error, error) {
	before := map[string]string{} // pod -> node, bound before
	for _, s := range h.order[:k] {
		before[s.pod] = s.outcome.node
	}
	for _, b := range cr.bound {
		before[b.Name] = b.Spec.NodeName
	}
	final := h.pods[pod]
	// The claims each pod uses, by name (templates through the status).
	uses := func(p *corev1.Pod) []string {
		var names []string
		for _, rc := range p.Spec.ResourceClaims {
			if rc.ResourceClaimName != nil {
				names = append(names, *rc.ResourceClaimName)
			}
		}
		for _, st := range p.Status.ResourceClaimStatuses {
			if st.ResourceClaimName != nil {
				names = append(names, *st.ResourceClaimName)
			}
		}
		return names
	}
	heldBefore := map[string]bool{}
	for name := range before {
		if fp := h.pods[name]; fp != nil {
			for _, c := range uses(fp) {
				heldBefore[c] = true
			}
		}
	}
	initial := map[string]*resourcev1.ResourceClaim{}
	for _, c := range cr.claims {
		initial[c.Name] = c
	}
	var claims []*resourcev1.ResourceClaim
	var mine []*resourcev1.ResourceClaim // the pod's claims, as the scheduler left them
	ownClaims := map[string]bool{}
	for _, c := range uses(final) {
		ownClaims[c] = true
	}
	for _, c := range h.claims {
		state := c.DeepCopy()
		switch {
		case heldBefore[c.Name] && c.Status.Allocation != nil:
			// Allocated by a pod bound before (or shared with one):
			// reserved for the pods bound before.
			var keep []resourcev1.ResourceClaimConsumerReference
			for _, r := range state.Status.ReservedFor {
				if _, ok := before[r.Name]; ok {
					keep = append(keep, r)
				}
			}
			state.Status.ReservedFor = keep
		case initial[c.Name] != nil && initial[c.Name].Status.Allocation != nil && c.Status.Allocation != nil:
			state.Status = *initial[c.Name].Status.DeepCopy()
		default:
			state.Status = resourcev1.ResourceClaimStatus{}
		}
		if ownClaims[c.Name] && c.Status.Allocation != nil && state.Status.Allocation == nil {
			mine = append(mine, c)
		}
		if state.Status.Allocation == nil && !ownClaims[c.Name] {
			// Another pod's claim, not allocated yet: not part of this
			// state (drakit would allocate it on its own).
			continue
		}
		state.ManagedFields = nil
		claims = append(claims, state)
	}
	objs := objectsOf(cr.classes, cr.slices, claims, cr.templates)
	for _, b := range cr.bound {
		objs = append(objs, b.DeepCopy())
	}
	for _, s := range h.order[:k] {
		objs = append(objs, h.pods[s.pod].DeepCopy())
	}
	pending := final.DeepCopy()
	pending.Spec.NodeName = ""
	pending.Status.Conditions = nil
	objs = append(objs, pending)
	nodes := cr.nodes
	o := h.outcomes[pod]
	if o.node != "" {
		nodes = nil
		for _, n := range cr.nodes {
			if n.Name == o.node {
				nodes = append(nodes, n)
			}
		}
	}
	placed, err := p.place(ctx, nodes, objs)
	if err != nil {
		return verdict{}, nil, err
	}
	var v verdict
	for _, r := range placed.Pods {
		if r.Pod.Name == pod && !r.Bound {
			v = verdictOf(r)
		}
	}
	if o.node == "" {
		return v, nil, nil
	}
	return v, p.judge(cr, claims, mine, o.node), nil
}

// judge checks with allocator/verify the allocations the scheduler made
// for a pod's claims on node, given the claims allocated before.
func (p *predictor) judge(cr *created, before, mine []*resourcev1.ResourceClaim, node string) []error {
	inv := &verify.Inventory{Features: verifyFeatures(p.features)}
	fail := func(err error) []error { return []error{err} }
	for _, o := range cr.classes {
		h, err := conversion.ToHub(o)
		if err != nil {
			return fail(err)
		}
		inv.Classes = append(inv.Classes, h.(*resource.DeviceClass))
	}
	for _, o := range cr.slices {
		h, err := conversion.ToHub(o)
		if err != nil {
			return fail(err)
		}
		inv.Slices = append(inv.Slices, h.(*resource.ResourceSlice))
	}
	for _, c := range before {
		if c.Status.Allocation == nil {
			continue
		}
		h, err := conversion.ToHub(c)
		if err != nil {
			return fail(err)
		}
		inv.Allocations = append(inv.Allocations, h.(*resource.ResourceClaim).Status.Allocation)
	}
	for _, n := range cr.nodes {
		if n.Name == node {
			inv.Node = n
		}
	}
	checker := verify.NewChecker(inv)
	var errs []error
	for _, c := range mine {
		h, err := conversion.ToHub(c)
		if err != nil {
			return fail(err)
		}
		hc := h.(*resource.ResourceClaim)
		for _, e := range checker.Check(hc, hc.Status.Allocation) {
			errs = append(errs, fmt.Errorf("claim %s: %w", c.Name, e))
		}
	}
	return errs
}

// verifyFeatures are the judge's switches of the allocator's features.
func verifyFeatures(f allocator.Features) verify.Features {
	return verify.Features{
		AdminAccess:            f.AdminAccess,
		DeviceTaints:           f.DeviceTaints,
		PartitionableDevices:   f.PartitionableDevices,
		ConsumableCapacity:     f.ConsumableCapacity,
		DeviceBindingAndStatus: f.DeviceBindingAndStatus,
		PrioritizedList:        f.PrioritizedList,
		ListTypeAttributes:     f.ListTypeAttributes,
		DerivedAttributes:      f.DerivedAttributes,
		CompatibilityGroups:    f.CompatibilityGroups,
	}
}
