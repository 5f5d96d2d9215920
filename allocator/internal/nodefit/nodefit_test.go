package nodefit

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
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
