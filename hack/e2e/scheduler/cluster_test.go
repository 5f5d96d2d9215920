package scheduler

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
)

// cluster is the 1.37 server with kube-scheduler and the resourceclaim
// controller that hack/e2e.sh started.
type cluster struct {
	kube kubernetes.Interface
	// schedulerName is the scheduler's profile: only pods that ask for it
	// are scheduled.
	schedulerName string
	// claimController: kube-controller-manager runs the resourceclaim
	// controller, which makes the claims of templates.
	claimController bool
}

// created is what the server holds of a scenario before the scheduler
// ran: the objects as the server returned them.
type created struct {
	sc        *scenario
	namespace string
	// nodes are the scenario's, then the other nodes of the cluster.
	nodes     []*corev1.Node
	classes   []*resourcev1.DeviceClass
	slices    []*resourcev1.ResourceSlice
	claims    []*resourcev1.ResourceClaim
	templates []*resourcev1.ResourceClaimTemplate
	bound     []*corev1.Pod
	// pending are the pods as created, without the gate that held them
	// back (the objects given to the server, before scheduling).
	pending []*corev1.Pod
}

// outcome is what the scheduler did with a pod.
type outcome struct {
	// node is where it was bound; empty when it was not.
	node string
	// reason and message are those of the PodScheduled condition when
	// the pod was not bound: Unschedulable or SchedulerError.
	reason, message string
}

func (o outcome) String() string {
	if o.node != "" {
		return "bound to " + o.node
	}
	return fmt.Sprintf("%s: %s", o.reason, o.message)
}

// waitTimeout bounds every wait for the scheduler or the controller.
const waitTimeout = 60 * time.Second

// create stores the scenario: a namespace of its own (a new one each run:
// without the namespace controller a deleted namespace never goes), the
// nodes made ready, classes, slices, claims with the status written by
// the scheduler before, templates, the bound pods running, and the pending
// pods held back by a scheduling gate. With templates it waits until the
// resourceclaim controller has made their claims.
func (c *cluster) create(ctx context.Context, sc *scenario) (*created, error) {
	ns, err := c.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: sc.namespace() + "-"}}, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("namespace: %w", err)
	}
	out := &created{sc: sc, namespace: ns.Name}
	// The admission of pods needs the service account that
	// kube-controller-manager's other controllers would make.
	if _, err := c.kube.CoreV1().ServiceAccounts(ns.Name).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default"}}, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("service account: %w", err)
	}
	for _, n := range sc.nodes {
		stored, err := c.createNode(ctx, n)
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", n.Name, err)
		}
		out.nodes = append(out.nodes, stored)
	}
	// The nodes other packages left (hack/e2e.sh runs this package after
	// them) are nodes of the cluster too: the scheduler tries them, counts
	// them in its message, and so does drakit --from-cluster. They come
	// after the scenario's, in the order drakit tries nodes.
	all, err := c.kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("listing the nodes: %w", err)
	}
	for i := range all.Items {
		if _, ours := all.Items[i].Labels[scenarioLabel]; !ours {
			out.nodes = append(out.nodes, &all.Items[i])
		}
	}
	for _, o := range sc.classes {
		stored, err := c.kube.ResourceV1().DeviceClasses().Create(ctx, o, metav1.CreateOptions{})
		if err != nil {
			return nil, fmt.Errorf("deviceclass %s: %w", o.Name, err)
		}
		out.classes = append(out.classes, stored)
	}
	for _, o := range sc.slices {
		stored, err := c.kube.ResourceV1().ResourceSlices().Create(ctx, o, metav1.CreateOptions{})
		if err != nil {
			return nil, fmt.Errorf("resourceslice %s: %w", o.Name, err)
		}
		out.slices = append(out.slices, stored)
	}
	for _, o := range sc.templates {
		o = o.DeepCopy()
		o.Namespace = ns.Name
		stored, err := c.kube.ResourceV1().ResourceClaimTemplates(ns.Name).Create(ctx, o, metav1.CreateOptions{})
		if err != nil {
			return nil, fmt.Errorf("resourceclaimtemplate %s: %w", o.Name, err)
		}
		out.templates = append(out.templates, stored)
	}
	var claims []*resourcev1.ResourceClaim
	for _, o := range sc.claims {
		o = o.DeepCopy()
		o.Namespace = ns.Name
		stored, err := c.kube.ResourceV1().ResourceClaims(ns.Name).Create(ctx, o, metav1.CreateOptions{})
		if err != nil {
			return nil, fmt.Errorf("resourceclaim %s: %w", o.Name, err)
		}
		claims = append(claims, stored)
	}
	uids := map[string]types.UID{}
	for _, p := range sc.bound {
		p = p.DeepCopy()
		p.Namespace = ns.Name
		stored, err := c.kube.CoreV1().Pods(ns.Name).Create(ctx, p, metav1.CreateOptions{})
		if err != nil {
			return nil, fmt.Errorf("pod %s: %w", p.Name, err)
		}
		stored.Status.Phase = corev1.PodRunning
		if stored, err = c.kube.CoreV1().Pods(ns.Name).UpdateStatus(ctx, stored, metav1.UpdateOptions{}); err != nil {
			return nil, fmt.Errorf("pod %s status: %w", p.Name, err)
		}
		uids[p.Name] = stored.UID
		out.bound = append(out.bound, stored)
	}
	for i, o := range sc.claims {
		if o.Status.Allocation == nil {
			out.claims = append(out.claims, claims[i])
			continue
		}
		stored := claims[i]
		stored.Status = *o.Status.DeepCopy()
		for j := range stored.Status.ReservedFor {
			r := &stored.Status.ReservedFor[j]
			if r.UID = uids[r.Name]; r.UID == "" {
				return nil, fmt.Errorf("resourceclaim %s: reservedFor names pod %s, which is not a bound pod of the scenario", o.Name, r.Name)
			}
		}
		if stored, err = c.kube.ResourceV1().ResourceClaims(ns.Name).UpdateStatus(ctx, stored, metav1.UpdateOptions{}); err != nil {
			return nil, fmt.Errorf("resourceclaim %s status: %w", o.Name, err)
		}
		out.claims = append(out.claims, stored)
	}
	for _, p := range sc.pending {
		p = p.DeepCopy()
		p.Namespace = ns.Name
		p.Spec.SchedulerName = c.schedulerName
		p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: snapshotGate}}
		stored, err := c.kube.CoreV1().Pods(ns.Name).Create(ctx, p, metav1.CreateOptions{})
		if err != nil {
			return nil, fmt.Errorf("pod %s: %w", p.Name, err)
		}
		stored = stored.DeepCopy()
		stored.Spec.SchedulingGates = nil
		out.pending = append(out.pending, stored)
	}
	if sc.usesTemplates() {
		if err := c.waitForClaims(ctx, ns.Name, out.pending); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// createNode creates the node as a ready kubelet would leave it: with its
// status (capacity, Ready), and without the not-ready taint that the API
// server's admission adds to a new node (the node lifecycle controller
// removes it when the kubelet reports Ready; neither runs here).
func (c *cluster) createNode(ctx context.Context, n *corev1.Node) (*corev1.Node, error) {
	stored, err := c.kube.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{})
	if err != nil {
		return nil, err
	}
	if !slices.EqualFunc(stored.Spec.Taints, n.Spec.Taints, func(a, b corev1.Taint) bool { return a.MatchTaint(&b) }) {
		stored.Spec.Taints = n.Spec.Taints
		if stored, err = c.kube.CoreV1().Nodes().Update(ctx, stored, metav1.UpdateOptions{}); err != nil {
			return nil, err
		}
	}
	stored.Status = *n.Status.DeepCopy()
	return c.kube.CoreV1().Nodes().UpdateStatus(ctx, stored, metav1.UpdateOptions{})
}

// waitForClaims waits until the resourceclaim controller has made the
// claim of every template entry of the pods (named in their
// status.resourceClaimStatuses).
func (c *cluster) waitForClaims(ctx context.Context, ns string, pods []*corev1.Pod) error {
	if !c.claimController {
		return fmt.Errorf("pods with claims from templates need the resourceclaim controller (DRAKIT_E2E_CLAIM_CONTROLLER=1, kube-controller-manager started by hack/e2e.sh)")
	}
	deadline := time.Now().Add(waitTimeout)
	for _, p := range pods {
		want := 0
		for _, rc := range p.Spec.ResourceClaims {
			if rc.ResourceClaimTemplateName != nil {
				want++
			}
		}
		for {
			got, err := c.kube.CoreV1().Pods(ns).Get(ctx, p.Name, metav1.GetOptions{})
			if err != nil {
				return fmt.Errorf("pod %s: %w", p.Name, err)
			}
			if len(got.Status.ResourceClaimStatuses) >= want {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("pod %s/%s: the resourceclaim controller made %d of its %d claims within %s (status.resourceClaimStatuses: %v)", ns, p.Name, len(got.Status.ResourceClaimStatuses), want, waitTimeout, got.Status.ResourceClaimStatuses)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return nil
}

// pendingNow reads the pending pods from the server (with the claims the
// resourceclaim controller made named in their status), without the gate.
func (c *cluster) pendingNow(ctx context.Context, cr *created) ([]*corev1.Pod, error) {
	var out []*corev1.Pod
	for _, p := range cr.pending {
		got, err := c.kube.CoreV1().Pods(cr.namespace).Get(ctx, p.Name, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		got.Spec.SchedulingGates = nil
		got.ManagedFields = nil
		out = append(out, got)
	}
	return out, nil
}

// step is one pod the scheduler decided on, in the order it did.
type step struct {
	pod     string
	outcome outcome
}

// schedule hands the pending pods to the scheduler one after the other
// (removing the gate) and waits for each until the scheduler bound it or
// found it unschedulable or failed it with an error, so that the order of
// its decisions is that of the scenario. A pod the scheduler tries again
// later (after its DRA PostFilter deallocated a claim the pod could not
// use) may be bound later: when any pod is left unbound, the end waits
// until no pod changes for settle. It returns the final outcome of every
// pending pod, the order in which pods were bound and the claims and pods
// the scheduler left.
func (c *cluster) schedule(ctx context.Context, cr *created) (*history, error) {
	h := &history{outcomes: map[string]outcome{}, decidedAt: map[string]int{}}
	outcomes := h.outcomes
	// observe reads every pod handed over so far and records new bindings,
	// and for an unbound pod how many bindings there were when its
	// condition last changed.
	observe := func(upTo int) error {
		// A pod bound on a second try was tried again because of what
		// another pod's binding changed: when both bindings are seen at
		// once, the retried pod's comes second.
		var fresh, retried []step
		defer func() { h.order = append(append(h.order, fresh...), retried...) }()
		for _, p := range cr.pending[:upTo] {
			o, err := c.outcomeOf(ctx, cr.namespace, p.Name)
			if err != nil {
				return err
			}
			prev, seen := outcomes[p.Name]
			switch {
			case o.node != "" && !seen:
				fresh = append(fresh, step{pod: p.Name, outcome: o})
			case o.node != "" && prev.node == "":
				retried = append(retried, step{pod: p.Name, outcome: o})
			}
			if o.node == "" && o.reason != "" && (!seen || prev != o) {
				h.decidedAt[p.Name] = len(h.order) + len(fresh) + len(retried)
			}
			if o.node != "" || o.reason != "" {
				outcomes[p.Name] = o
			}
		}
		return nil
	}
	for i, p := range cr.pending {
		if err := c.ungate(ctx, cr.namespace, p.Name); err != nil {
			return nil, err
		}
		deadline := time.Now().Add(waitTimeout)
		for {
			if err := observe(i + 1); err != nil {
				return nil, err
			}
			if _, ok := outcomes[p.Name]; ok {
				break
			}
			if time.Now().After(deadline) {
				got, _ := c.kube.CoreV1().Pods(cr.namespace).Get(ctx, p.Name, metav1.GetOptions{})
				return nil, fmt.Errorf("pod %s/%s: the scheduler neither bound it nor gave up on it within %s (conditions %s)", cr.namespace, p.Name, waitTimeout, conditions(got))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if err := c.settle(ctx, cr, h, observe); err != nil {
		return nil, err
	}
	claims, pods, err := c.after(ctx, cr)
	if err != nil {
		return nil, err
	}
	h.claims, h.pods = claims, map[string]*corev1.Pod{}
	for _, p := range pods {
		h.pods[p.Name] = p
	}
	return h, nil
}

// settleQuiet is how long nothing must change before an unbound pod's
// outcome is taken as final: the scheduler's backoff is a second
// (hack/e2e.sh), and a retry follows the claim's update at once.
const settleQuiet = 2500 * time.Millisecond

// settle waits, when the scheduler will try an unbound pod again (see
// mayRetry and retryExpected), until no pod was bound and no message
// changed for settleQuiet.
func (c *cluster) settle(ctx context.Context, cr *created, h *history, observe func(int) error) error {
	outcomes := h.outcomes
	if !c.mayRetry(cr) && !retryExpected(cr, h) {
		return nil
	}
	deadline := time.Now().Add(waitTimeout)
	last, quietSince := fmt.Sprint(outcomes), time.Now()
	for time.Since(quietSince) < settleQuiet {
		if time.Now().After(deadline) {
			return fmt.Errorf("the pods of %s did not settle within %s: %v", cr.namespace, waitTimeout, outcomes)
		}
		time.Sleep(100 * time.Millisecond)
		if err := observe(len(cr.pending)); err != nil {
			return err
		}
		if now := fmt.Sprint(outcomes); now != last {
			last, quietSince = now, time.Now()
		}
	}
	return nil
}

// retryExpected reports whether a pod left unbound shares a claim with a
// pod bound after the scheduler last decided on it: the claim's
// allocation makes the scheduler try it again (after its backoff), and
// its condition then speaks of the cluster after that binding.
func retryExpected(cr *created, h *history) bool {
	users := map[string][]string{} // claim -> pods naming it
	for _, p := range cr.pending {
		for _, rc := range p.Spec.ResourceClaims {
			if rc.ResourceClaimName != nil {
				users[*rc.ResourceClaimName] = append(users[*rc.ResourceClaimName], p.Name)
			}
		}
	}
	for pod, o := range h.outcomes {
		if o.node != "" {
			continue
		}
		later := map[string]bool{}
		for _, s := range h.order[min(h.decidedAt[pod], len(h.order)):] {
			later[s.pod] = true
		}
		for _, pods := range users {
			if slices.Contains(pods, pod) && slices.ContainsFunc(pods, func(p string) bool { return later[p] }) {
				return true
			}
		}
	}
	return false
}

// mayRetry reports whether the scheduler may bind an unschedulable pod of
// the scenario later although the cluster only fills up: when a pending
// pod uses a claim that is allocated and reserved for no pod, which the
// scheduler's DRA PostFilter deallocates when the pod fits nowhere (the
// pod is tried again at once). The scheduler itself allocates a claim
// and reserves it in one update, so only a claim allocated before can be
// so.
func (c *cluster) mayRetry(cr *created) bool {
	unreserved := map[string]bool{}
	for _, cl := range cr.claims {
		if cl.Status.Allocation != nil && len(cl.Status.ReservedFor) == 0 {
			unreserved[cl.Name] = true
		}
	}
	for _, p := range cr.pending {
		for _, rc := range p.Spec.ResourceClaims {
			if rc.ResourceClaimName != nil && unreserved[*rc.ResourceClaimName] {
				return true
			}
		}
	}
	return false
}

// ungate removes the pod's scheduling gate.
func (c *cluster) ungate(ctx context.Context, ns, name string) error {
	patch, _ := json.Marshal([]map[string]any{{"op": "remove", "path": "/spec/schedulingGates"}})
	_, err := c.kube.CoreV1().Pods(ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{})
	if err != nil {
		return fmt.Errorf("pod %s/%s: removing the scheduling gate: %w", ns, name, err)
	}
	return nil
}

// outcomeOf reads what the scheduler did with the pod so far: bound, or
// a PodScheduled=False condition of the scheduler; zero while it has not
// decided (the condition still says SchedulingGated).
func (c *cluster) outcomeOf(ctx context.Context, ns, name string) (outcome, error) {
	p, err := c.kube.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return outcome{}, err
	}
	if p.Spec.NodeName != "" {
		return outcome{node: p.Spec.NodeName}, nil
	}
	for _, cond := range p.Status.Conditions {
		if cond.Type == corev1.PodScheduled && cond.Status == corev1.ConditionFalse &&
			(cond.Reason == corev1.PodReasonUnschedulable || cond.Reason == corev1.PodReasonSchedulerError) {
			return outcome{reason: cond.Reason, message: cond.Message}, nil
		}
	}
	return outcome{}, nil
}

func conditions(p *corev1.Pod) string {
	if p == nil {
		return "unknown"
	}
	var parts []string
	for _, c := range p.Status.Conditions {
		parts = append(parts, fmt.Sprintf("%s=%s %s %q", c.Type, c.Status, c.Reason, c.Message))
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// after reads what the scheduler left: the claims of the namespace (those
// made from templates included) and the pending pods.
func (c *cluster) after(ctx context.Context, cr *created) ([]*resourcev1.ResourceClaim, []*corev1.Pod, error) {
	list, err := c.kube.ResourceV1().ResourceClaims(cr.namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, nil, err
	}
	var claims []*resourcev1.ResourceClaim
	for i := range list.Items {
		claims = append(claims, &list.Items[i])
	}
	var pods []*corev1.Pod
	for _, p := range cr.pending {
		got, err := c.kube.CoreV1().Pods(cr.namespace).Get(ctx, p.Name, metav1.GetOptions{})
		if err != nil {
			return nil, nil, err
		}
		pods = append(pods, got)
	}
	return claims, pods, nil
}

// remove deletes what the scenario made, so that the next one starts on
// a cluster of its own nodes: pods at once (no kubelet confirms), claims
// without their finalizer (nobody else removes it once the pods are gone
// fast enough), slices, classes and nodes. The namespace stays (see
// create).
func (c *cluster) remove(ctx context.Context, t testing.TB, cr *created) {
	now := metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}
	if err := c.kube.CoreV1().Pods(cr.namespace).DeleteCollection(ctx, now, metav1.ListOptions{}); err != nil {
		t.Errorf("deleting the pods of %s: %v", cr.namespace, err)
	}
	claims, err := c.kube.ResourceV1().ResourceClaims(cr.namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Errorf("listing the claims of %s: %v", cr.namespace, err)
	} else {
		for i := range claims.Items {
			cl := &claims.Items[i]
			if len(cl.Finalizers) > 0 {
				cl.Finalizers = nil
				if _, err := c.kube.ResourceV1().ResourceClaims(cr.namespace).Update(ctx, cl, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
					t.Errorf("removing the finalizers of claim %s/%s: %v", cr.namespace, cl.Name, err)
				}
			}
		}
		if err := c.kube.ResourceV1().ResourceClaims(cr.namespace).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
			t.Errorf("deleting the claims of %s: %v", cr.namespace, err)
		}
	}
	c.removeLabelled(ctx, t, scenarioLabel+"="+cr.sc.name)
}

// removeLabelled deletes the slices, classes and nodes with the label
// selector.
func (c *cluster) removeLabelled(ctx context.Context, t testing.TB, selector string) {
	list := metav1.ListOptions{LabelSelector: selector}
	if err := c.kube.ResourceV1().ResourceSlices().DeleteCollection(ctx, metav1.DeleteOptions{}, list); err != nil {
		t.Errorf("deleting the slices %s: %v", selector, err)
	}
	if err := c.kube.ResourceV1().DeviceClasses().DeleteCollection(ctx, metav1.DeleteOptions{}, list); err != nil {
		t.Errorf("deleting the classes %s: %v", selector, err)
	}
	if err := c.kube.CoreV1().Nodes().DeleteCollection(ctx, metav1.DeleteOptions{}, list); err != nil {
		t.Errorf("deleting the nodes %s: %v", selector, err)
	}
}
