package nodefit

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestCheck(t *testing.T) {
	gpuTaint := corev1.Taint{Key: "gpu", Value: "true", Effect: corev1.TaintEffectNoSchedule}
	nodes := map[string]*corev1.Node{
		"plain":         {ObjectMeta: metav1.ObjectMeta{Name: "plain", Labels: map[string]string{"zone": "a"}}},
		"tainted":       {ObjectMeta: metav1.ObjectMeta{Name: "tainted", Labels: map[string]string{"zone": "a"}}, Spec: corev1.NodeSpec{Taints: []corev1.Taint{gpuTaint}}},
		"prefer":        {ObjectMeta: metav1.ObjectMeta{Name: "prefer", Labels: map[string]string{"zone": "a"}}, Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: "x", Effect: corev1.TaintEffectPreferNoSchedule}}}},
		"unschedulable": {ObjectMeta: metav1.ObjectMeta{Name: "unschedulable", Labels: map[string]string{"zone": "a"}}, Spec: corev1.NodeSpec{Unschedulable: true}},
		"zone-b":        {ObjectMeta: metav1.ObjectMeta{Name: "zone-b", Labels: map[string]string{"zone": "b"}}},
	}
	affinity := &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"b"}}}}},
	}}}
	for _, tc := range []struct {
		pod  corev1.PodSpec
		node string
		want *Failure
	}{
		{corev1.PodSpec{}, "plain", nil},
		{corev1.PodSpec{}, "prefer", nil},
		{corev1.PodSpec{}, "tainted", &Failure{"untolerated taint gpu=true:NoSchedule", SchedulerTaint}},
		{corev1.PodSpec{Tolerations: []corev1.Toleration{{Key: "gpu", Operator: corev1.TolerationOpExists}}}, "tainted", nil},
		{corev1.PodSpec{}, "unschedulable", &Failure{ReasonUnschedulable, SchedulerUnschedulable}},
		{corev1.PodSpec{Tolerations: []corev1.Toleration{{Key: corev1.TaintNodeUnschedulable, Operator: corev1.TolerationOpExists}}}, "unschedulable", nil},
		{corev1.PodSpec{NodeSelector: map[string]string{"zone": "b"}}, "plain", &Failure{ReasonNodeSelector, SchedulerNodeAffinity}},
		{corev1.PodSpec{Affinity: affinity}, "zone-b", &Failure{ReasonNodeAffinity, SchedulerNodeAffinity}},
		{corev1.PodSpec{Affinity: affinity}, "plain", nil},
		{corev1.PodSpec{NodeName: "zone-b"}, "plain", &Failure{ReasonNodeName, SchedulerNodeName}},
		// NodeName comes before NodeUnschedulable in the scheduler's
		// default plugins, and the first filter that fails names the node.
		{corev1.PodSpec{NodeName: "zone-b"}, "unschedulable", &Failure{ReasonNodeName, SchedulerNodeName}},
	} {
		got := New(&corev1.Pod{Spec: tc.pod}).Check(nodes[tc.node])
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("pod %+v on %s: %+v, want %+v", tc.pod, tc.node, got, tc.want)
		}
	}
}

func TestResourcesFit(t *testing.T) {
	node := &corev1.Node{Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("2"),
		corev1.ResourceMemory: resource.MustParse("1Gi"),
		corev1.ResourcePods:   resource.MustParse("2"),
		"example.com/nic":     resource.MustParse("1"),
		"hugepages-2Mi":       resource.MustParse("4Mi"),
	}}}
	n := NewResources(node)
	pod := func(reqs corev1.ResourceList) Requests {
		return PodRequests(&corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Resources: corev1.ResourceRequirements{Requests: reqs}}}}}, false)
	}
	n.Add(pod(corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1500m")}))
	for _, tc := range []struct {
		req          corev1.ResourceList
		want         []string
		unresolvable bool
	}{
		{corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")}, nil, false},
		{corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("501m")}, []string{"Insufficient cpu"}, false},
		{corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("3"), corev1.ResourceMemory: resource.MustParse("2Gi")}, []string{"Insufficient cpu", "Insufficient memory"}, true},
		{corev1.ResourceList{"example.com/nic": resource.MustParse("2")}, []string{"Insufficient example.com/nic"}, true},
		// Served by a class and not listed: left to DRA.
		{corev1.ResourceList{"example.com/gpu": resource.MustParse("1")}, nil, false},
		// Not listed, no class: the node has none.
		{corev1.ResourceList{"example.com/fpga": resource.MustParse("1")}, []string{"Insufficient example.com/fpga"}, true},
		{corev1.ResourceList{"hugepages-2Mi": resource.MustParse("6Mi")}, []string{"Insufficient hugepages-2Mi"}, true},
		// Not a scalar resource (no domain): the scheduler ignores it.
		{corev1.ResourceList{"widgets": resource.MustParse("9")}, nil, false},
	} {
		req := pod(tc.req)
		got, unresolvable := n.Fit(&req, func(name corev1.ResourceName) bool { return name == "example.com/gpu" })
		if fmt.Sprint(got) != fmt.Sprint(tc.want) || unresolvable != tc.unresolvable {
			t.Errorf("%v: %v (unresolvable %v), want %v (%v)", tc.req, got, unresolvable, tc.want, tc.unresolvable)
		}
	}
	n.Add(Requests{})
	if got, _ := n.Fit(&Requests{}, nil); fmt.Sprint(got) != "[Too many pods]" {
		t.Errorf("third pod: %v", got)
	}
	if s := Summary([]string{"Too many pods", "Insufficient cpu", "Insufficient example.com/nic"}); s != "too many pods, insufficient cpu, example.com/nic" {
		t.Errorf("Summary: %q", s)
	}
	if NewResources(&corev1.Node{Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}).Checked {
		t.Errorf("a node whose allocatable lacks pods is checked")
	}
}
