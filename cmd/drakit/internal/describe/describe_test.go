package describe

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/apis/resource"
)

func TestTolerates(t *testing.T) {
	taint := resource.DeviceTaint{Key: "example.com/ecc", Value: "failing", Effect: resource.DeviceTaintEffectNoSchedule}
	for _, tc := range []struct {
		tol  resource.DeviceToleration
		want bool
	}{
		{resource.DeviceToleration{Key: "example.com/ecc", Operator: resource.DeviceTolerationOpEqual, Value: "failing"}, true},
		{resource.DeviceToleration{Key: "example.com/ecc", Operator: resource.DeviceTolerationOpEqual, Value: "ok"}, false},
		{resource.DeviceToleration{Key: "example.com/ecc", Operator: resource.DeviceTolerationOpExists}, true},
		{resource.DeviceToleration{Operator: resource.DeviceTolerationOpExists}, true},
		{resource.DeviceToleration{Operator: resource.DeviceTolerationOpExists, Effect: resource.DeviceTaintEffectNoExecute}, false},
		{resource.DeviceToleration{Key: "other", Operator: resource.DeviceTolerationOpExists}, false},
	} {
		if got := tolerates(tc.tol, taint); got != tc.want {
			t.Errorf("%+v: got %v, want %v", tc.tol, got, tc.want)
		}
	}
}

func TestNodeExcluded(t *testing.T) {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"pool": "train"}}}
	allocatedOn := func(name string) *PodClaim {
		c := &resource.ResourceClaim{}
		c.Status.Allocation = &resource.AllocationResult{NodeSelector: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{name}}},
		}}}}
		return &PodClaim{Name: "gpus", Claim: c}
	}
	for _, tc := range []struct {
		name      string
		pod       corev1.PodSpec
		allocated []*PodClaim
		want      string
	}{
		{name: "any node"},
		{name: "nodeName", pod: corev1.PodSpec{NodeName: "b"}, want: "not the pod's spec.nodeName"},
		{name: "selector matches", pod: corev1.PodSpec{NodeSelector: map[string]string{"pool": "train"}}},
		{name: "selector", pod: corev1.PodSpec{NodeSelector: map[string]string{"pool": "serve"}}, want: "the pod's node selector does not match"},
		{name: "claim here", allocated: []*PodClaim{allocatedOn("a")}},
		{name: "claim elsewhere", allocated: []*PodClaim{allocatedOn("b")}, want: "claim gpus is allocated on devices this node cannot reach"},
	} {
		pod := &corev1.Pod{Spec: tc.pod}
		if got := nodeExcluded(pod, node, tc.allocated); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestExtendedClaim: the extended resources a DeviceClass backs (by its
// extendedResourceName or the implicit deviceclass name) become one claim
// with a request per resource, counting every container's devices.
func TestExtendedClaim(t *testing.T) {
	classes := []*resource.DeviceClass{
		{ObjectMeta: metav1.ObjectMeta{Name: "gpu"}, Spec: resource.DeviceClassSpec{ExtendedResourceName: ptr.To("example.com/gpu")}},
		{ObjectMeta: metav1.ObjectMeta{Name: "nic"}},
	}
	ctr := func(res corev1.ResourceList) corev1.Container {
		return corev1.Container{Resources: corev1.ResourceRequirements{Requests: res, Limits: res}}
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: corev1.PodSpec{Containers: []corev1.Container{
		ctr(corev1.ResourceList{"example.com/gpu": apiresource.MustParse("2"), corev1.ResourceCPU: apiresource.MustParse("1")}),
		ctr(corev1.ResourceList{"example.com/gpu": apiresource.MustParse("1"), "deviceclass.resource.kubernetes.io/nic": apiresource.MustParse("1")}),
	}}}
	pc := extendedClaim(pod, nil, classes)
	if pc == nil || pc.Synthetic == nil {
		t.Fatalf("no claim: %+v", pc)
	}
	reqs := pc.Synthetic.Spec.Devices.Requests
	if len(reqs) != 2 || reqs[0].Exactly.DeviceClassName != "nic" || reqs[0].Exactly.Count != 1 || reqs[1].Exactly.DeviceClassName != "gpu" || reqs[1].Exactly.Count != 3 {
		t.Errorf("requests: %+v %+v", reqs[0].Exactly, reqs[1].Exactly)
	}
	if extendedClaim(&corev1.Pod{}, nil, classes) != nil {
		t.Error("a pod without extended resources has no such claim")
	}
	pod.Status.ExtendedResourceClaimStatus = &corev1.PodExtendedResourceClaimStatus{ResourceClaimName: "p-extended-x"}
	stored := &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: "p-extended-x", Namespace: "ns"}}
	if pc := extendedClaim(pod, map[string]*resource.ResourceClaim{"p-extended-x": stored}, classes); pc.Claim != stored || pc.Synthetic != nil {
		t.Errorf("the stored claim of status.extendedResourceClaimStatus: %+v", pc)
	}
}
