// Package nodefit applies to one pod the node filters of kube-scheduler
// that decide, besides DRA, whether a pod may run on a node at all:
// NodeUnschedulable, NodeName, TaintToleration and NodeAffinity (nodeSelector
// and required node affinity), in the order of the scheduler's default
// plugins, with the helpers the scheduler itself uses
// (k8s.io/component-helpers); and NodeResourcesFit, which comes after them
// and needs what the pods on the node request (Resources). Filters that
// need more (pod affinity, topology spread, volumes, ports) are not here:
// see NotSimulated.
package nodefit

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"

	v1helper "k8s.io/component-helpers/scheduling/corev1"
)

// NotSimulated names the scheduler's filters that drakit does not apply,
// so that nobody takes a placement for a promise.
const NotSimulated = "resources fit on nodes whose status.allocatable lacks pods, pod affinity and anti-affinity, topology spread, volumes, host ports"

// Reasons in the words people read.
const (
	ReasonUnschedulable = "unschedulable"
	ReasonNodeName      = "node name"
	ReasonNodeSelector  = "node selector"
	ReasonNodeAffinity  = "node affinity"
)

// The scheduler's own reasons (the ErrReason constants of its plugins in
// k8s.io/kubernetes v1.37.2), as its "0/N nodes are available" message
// counts them. NodeAffinity says the same for a nodeSelector and for
// required affinity; TaintToleration names no taint.
const (
	SchedulerUnschedulable = "node(s) were unschedulable"
	SchedulerNodeName      = "node(s) didn't match the requested node name"
	SchedulerTaint         = "node(s) had untolerated taint(s)"
	SchedulerNodeAffinity  = "node(s) didn't match Pod's node affinity/selector"
)

// Failure is why a filter rejects the node: in drakit's words (Reason)
// and in the scheduler's (Scheduler).
type Failure struct {
	Reason, Scheduler string
}

// Filter holds what the filters need of one pod, parsed once.
type Filter struct {
	pod      *corev1.Pod
	selector nodeaffinity.RequiredNodeAffinity
	affinity nodeaffinity.RequiredNodeAffinity
}

// New prepares the filters for the pod.
func New(pod *corev1.Pod) *Filter {
	return &Filter{
		pod:      pod,
		selector: nodeaffinity.NewRequiredNodeAffinity(pod.Spec.NodeSelector, nil),
		affinity: nodeaffinity.NewRequiredNodeAffinity(nil, pod.Spec.Affinity),
	}
}

// Check returns nil when the pod may run on the node, else why not: the
// first filter that rejects it, in the order of the scheduler's default
// plugins (NodeName, NodeUnschedulable, TaintToleration, NodeAffinity).
func (f *Filter) Check(node *corev1.Node) *Failure {
	logger := klog.Background()
	spec := &f.pod.Spec
	if spec.NodeName != "" && spec.NodeName != node.Name {
		return &Failure{ReasonNodeName, SchedulerNodeName}
	}
	if node.Spec.Unschedulable && !v1helper.TolerationsTolerateTaint(logger, spec.Tolerations,
		&corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule}, false) {
		return &Failure{ReasonUnschedulable, SchedulerUnschedulable}
	}
	if taint, untolerated := v1helper.FindMatchingUntoleratedTaint(logger, node.Spec.Taints, spec.Tolerations, doNotSchedule, false); untolerated {
		return &Failure{"untolerated taint " + describeTaint(taint), SchedulerTaint}
	}
	if ok, err := f.selector.Match(node); err != nil || !ok {
		return &Failure{ReasonNodeSelector, SchedulerNodeAffinity}
	}
	if ok, err := f.affinity.Match(node); err != nil {
		// The scheduler's PreFilter refuses such affinity before any
		// node; the API server refuses it before that.
		return &Failure{"invalid node affinity: " + err.Error(), SchedulerNodeAffinity}
	} else if !ok {
		return &Failure{ReasonNodeAffinity, SchedulerNodeAffinity}
	}
	return nil
}

// doNotSchedule keeps the taints the TaintToleration filter looks at.
func doNotSchedule(t *corev1.Taint) bool {
	return t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute
}

func describeTaint(t corev1.Taint) string {
	if t.Value == "" {
		return fmt.Sprintf("%s:%s", t.Key, t.Effect)
	}
	return fmt.Sprintf("%s=%s:%s", t.Key, t.Value, t.Effect)
}

// Signature is what of the pod the filters look at, for callers that
// cache per kind of pod: pods with equal signatures pass the same nodes.
func Signature(pod *corev1.Pod) any {
	return struct {
		NodeName     string
		NodeSelector map[string]string
		Affinity     *corev1.NodeSelector
		Tolerations  []corev1.Toleration
	}{pod.Spec.NodeName, pod.Spec.NodeSelector, requiredAffinity(pod), pod.Spec.Tolerations}
}

func requiredAffinity(pod *corev1.Pod) *corev1.NodeSelector {
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil {
		return nil
	}
	return a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
}
