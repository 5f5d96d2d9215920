package describe

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
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

// TestExtendedClaim: the extended resources a DeviceClass backs (by its
// extendedResourceName or the implicit deviceclass name) are named as the
// source of the one claim the scheduler makes for them; cpu is not.
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
	if pc == nil || pc.Claim != nil || pc.Source != "extended resources deviceclass.resource.kubernetes.io/nic, example.com/gpu" {
		t.Fatalf("got %+v", pc)
	}
	if extendedClaim(&corev1.Pod{}, nil, classes) != nil {
		t.Error("a pod without extended resources has no such claim")
	}
	pod.Status.ExtendedResourceClaimStatus = &corev1.PodExtendedResourceClaimStatus{ResourceClaimName: "p-extended-x"}
	stored := &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: "p-extended-x", Namespace: "ns"}}
	if pc := extendedClaim(pod, map[string]*resource.ResourceClaim{"p-extended-x": stored}, classes); pc.Claim != stored {
		t.Errorf("the stored claim of status.extendedResourceClaimStatus: %+v", pc)
	}
}

// TestUntoleratedTaints: listed are the untolerated taints of devices on
// the failing nodes that the requests' DeviceClasses select; not those of
// other classes' devices, of other nodes, tolerated ones, None effects,
// DeviceTaintRules without a selector, or DeviceTaintRules the scheduler
// does not apply.
func TestUntoleratedTaints(t *testing.T) {
	class := func(name, driver string) *resource.DeviceClass {
		c := &resource.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: name}}
		c.Spec.Selectors = []resource.DeviceSelector{{CEL: &resource.CELDeviceSelector{Expression: `device.driver == "` + driver + `"`}}}
		return c
	}
	slice := func(node, driver string, taints ...resource.DeviceTaint) *resource.ResourceSlice {
		s := &resource.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: node + "-" + driver}}
		s.Spec.Driver, s.Spec.NodeName, s.Spec.Pool.Name = driver, ptr.To(node), node
		s.Spec.Devices = []resource.Device{{Name: "dev", Taints: taints}}
		return s
	}
	noSchedule := resource.DeviceTaint{Key: "ecc", Effect: resource.DeviceTaintEffectNoSchedule}
	rule := &resource.DeviceTaintRule{ObjectMeta: metav1.ObjectMeta{Name: "maintenance"}}
	rule.Spec.Taint = resource.DeviceTaint{Key: "maintenance", Effect: resource.DeviceTaintEffectNoExecute}
	// An empty selector selects every device; no selector selects none,
	// as the scheduler's tracker has it.
	rule.Spec.DeviceSelector = &resource.DeviceTaintSelector{}
	noSelector := &resource.DeviceTaintRule{ObjectMeta: metav1.ObjectMeta{Name: "no-selector"}}
	noSelector.Spec.Taint = resource.DeviceTaint{Key: "nothing", Effect: resource.DeviceTaintEffectNoExecute}
	inv := &cluster.Inventory{
		Classes: []*resource.DeviceClass{class("gpu", "gpu.example.com"), class("nic", "nic.example.com")},
		Slices: []*resource.ResourceSlice{
			slice("a", "gpu.example.com", noSchedule, resource.DeviceTaint{Key: "info", Effect: resource.DeviceTaintEffectNone}),
			slice("a", "nic.example.com", noSchedule),
			slice("b", "gpu.example.com", noSchedule),
		},
		TaintRules: []*resource.DeviceTaintRule{rule, noSelector},
	}
	spec := &resource.ResourceClaimSpec{}
	spec.Devices.Requests = []resource.DeviceRequest{{Name: "gpu", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "gpu"}}}
	nodes := map[string]bool{"a": true}
	got := untoleratedTaints(context.Background(), inv, nodes, []*resource.ResourceClaimSpec{spec}, true)
	want := []string{"a: gpu.example.com/a/dev ecc:NoSchedule", "a: gpu.example.com/a/dev maintenance:NoExecute (DeviceTaintRule maintenance)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := untoleratedTaints(context.Background(), inv, nodes, []*resource.ResourceClaimSpec{spec}, false); len(got) != 1 {
		t.Errorf("without the rules: %v", got)
	}
	spec.Devices.Requests[0].Exactly.Tolerations = []resource.DeviceToleration{{Operator: resource.DeviceTolerationOpExists}}
	if got := untoleratedTaints(context.Background(), inv, nodes, []*resource.ResourceClaimSpec{spec}, true); len(got) != 0 {
		t.Errorf("tolerated: %v", got)
	}
}
