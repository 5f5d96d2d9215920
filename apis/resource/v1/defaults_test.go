package v1_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource/v1"
)

// defaulted runs the scheme's defaulting, as the API server does on decode.
func defaulted[T runtime.Object](t *testing.T, obj T) T {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := v1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	scheme.Default(obj)
	return obj
}

// claimSpec is a claim spec with requests covering every request rule:
// exact requests with an empty mode, All mode, and a set count;
// firstAvailable alternatives likewise; tolerations with and without an
// operator.
func claimSpec() resourcev1.ResourceClaimSpec {
	return resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{
		{Name: "empty-mode", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "c"}},
		{Name: "all", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: resourcev1.DeviceAllocationModeAll}},
		{Name: "count", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "c", Count: 3}},
		{Name: "exact-count-zero", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: resourcev1.DeviceAllocationModeExactCount}},
		{Name: "tolerations", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "c", Count: 1, AllocationMode: resourcev1.DeviceAllocationModeExactCount,
			Tolerations: []resourcev1.DeviceToleration{{Key: "k", Value: "v"}, {Key: "k", Operator: resourcev1.DeviceTolerationOpExists}}}},
		{Name: "prioritized", FirstAvailable: []resourcev1.DeviceSubRequest{
			{Name: "empty-mode", DeviceClassName: "c"},
			{Name: "all", DeviceClassName: "c", AllocationMode: resourcev1.DeviceAllocationModeAll},
			{Name: "count", DeviceClassName: "c", Count: 2},
			{Name: "tolerations", DeviceClassName: "c", Tolerations: []resourcev1.DeviceToleration{{Key: "k"}, {Operator: resourcev1.DeviceTolerationOpExists}}},
		}},
		{Name: "nothing"},
	}}}
}

// defaultedClaimSpec is claimSpec after defaulting.
func defaultedClaimSpec() resourcev1.ResourceClaimSpec {
	exactCount, all := resourcev1.DeviceAllocationModeExactCount, resourcev1.DeviceAllocationModeAll
	equal, exists := resourcev1.DeviceTolerationOpEqual, resourcev1.DeviceTolerationOpExists
	return resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{
		{Name: "empty-mode", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: exactCount, Count: 1}},
		{Name: "all", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: all}},
		{Name: "count", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: exactCount, Count: 3}},
		{Name: "exact-count-zero", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: exactCount, Count: 1}},
		{Name: "tolerations", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "c", Count: 1, AllocationMode: exactCount,
			Tolerations: []resourcev1.DeviceToleration{{Key: "k", Value: "v", Operator: equal}, {Key: "k", Operator: exists}}}},
		{Name: "prioritized", FirstAvailable: []resourcev1.DeviceSubRequest{
			{Name: "empty-mode", DeviceClassName: "c", AllocationMode: exactCount, Count: 1},
			{Name: "all", DeviceClassName: "c", AllocationMode: all},
			{Name: "count", DeviceClassName: "c", AllocationMode: exactCount, Count: 2},
			{Name: "tolerations", DeviceClassName: "c", AllocationMode: exactCount, Count: 1,
				Tolerations: []resourcev1.DeviceToleration{{Key: "k", Operator: equal}, {Operator: exists}}},
		}},
		{Name: "nothing"},
	}}}
}

func TestDefaultsResourceClaim(t *testing.T) {
	claim := defaulted(t, &resourcev1.ResourceClaim{
		Spec: claimSpec(),
		Status: resourcev1.ResourceClaimStatus{Allocation: &resourcev1.AllocationResult{Devices: resourcev1.DeviceAllocationResult{
			Results: []resourcev1.DeviceRequestAllocationResult{{
				Request: "tolerations", Driver: "d", Pool: "p", Device: "x",
				Tolerations: []resourcev1.DeviceToleration{{Key: "k"}, {Operator: resourcev1.DeviceTolerationOpExists}},
			}},
		}}},
	})
	if diff := cmp.Diff(defaultedClaimSpec(), claim.Spec); diff != "" {
		t.Errorf("claim spec after defaulting (-want +got):\n%s", diff)
	}
	wantTolerations := []resourcev1.DeviceToleration{{Key: "k", Operator: resourcev1.DeviceTolerationOpEqual}, {Operator: resourcev1.DeviceTolerationOpExists}}
	if diff := cmp.Diff(wantTolerations, claim.Status.Allocation.Devices.Results[0].Tolerations); diff != "" {
		t.Errorf("result tolerations after defaulting (-want +got):\n%s", diff)
	}
	if claim.Spec.Devices.Requests[5].Exactly != nil {
		t.Errorf("a firstAvailable request got an exact request: %+v", claim.Spec.Devices.Requests[5].Exactly)
	}
}

func TestDefaultsResourceClaimList(t *testing.T) {
	list := defaulted(t, &resourcev1.ResourceClaimList{Items: []resourcev1.ResourceClaim{{Spec: claimSpec()}, {Spec: claimSpec()}}})
	for i, item := range list.Items {
		if diff := cmp.Diff(defaultedClaimSpec(), item.Spec); diff != "" {
			t.Errorf("item %d spec after defaulting (-want +got):\n%s", i, diff)
		}
	}
}

func TestDefaultsResourceClaimTemplate(t *testing.T) {
	template := defaulted(t, &resourcev1.ResourceClaimTemplate{Spec: resourcev1.ResourceClaimTemplateSpec{Spec: claimSpec()}})
	if diff := cmp.Diff(defaultedClaimSpec(), template.Spec.Spec); diff != "" {
		t.Errorf("template claim spec after defaulting (-want +got):\n%s", diff)
	}
	list := defaulted(t, &resourcev1.ResourceClaimTemplateList{Items: []resourcev1.ResourceClaimTemplate{{Spec: resourcev1.ResourceClaimTemplateSpec{Spec: claimSpec()}}}})
	if diff := cmp.Diff(defaultedClaimSpec(), list.Items[0].Spec.Spec); diff != "" {
		t.Errorf("template list item claim spec after defaulting (-want +got):\n%s", diff)
	}
}

// checkNow fails unless ts is set, was taken between before and after,
// and has no fraction of a second.
func checkNow(t *testing.T, what string, ts *metav1.Time, before, after time.Time) {
	t.Helper()
	switch {
	case ts == nil:
		t.Errorf("%s: timeAdded not set", what)
	case ts.Time.Nanosecond() != 0:
		t.Errorf("%s: timeAdded %s is not truncated to seconds", what, ts.Time.Format(time.RFC3339Nano))
	case ts.Time.After(after):
		t.Errorf("%s: timeAdded %s is in the future (now %s)", what, ts.Time, after)
	case ts.Time.Before(before.Truncate(time.Second)):
		t.Errorf("%s: timeAdded %s is before the defaulting started (%s)", what, ts.Time, before)
	}
}

func TestDefaultsResourceSliceTaints(t *testing.T) {
	set := metav1.NewTime(time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC))
	before := time.Now()
	slice := defaulted(t, &resourcev1.ResourceSlice{Spec: resourcev1.ResourceSliceSpec{Devices: []resourcev1.Device{
		{Name: "a", Taints: []resourcev1.DeviceTaint{
			{Key: "k", Effect: resourcev1.DeviceTaintEffectNoSchedule},
			{Key: "k2", Effect: resourcev1.DeviceTaintEffectNoExecute, TimeAdded: set.DeepCopy()},
		}},
		{Name: "b"},
	}}})
	after := time.Now()
	checkNow(t, "devices[0].taints[0]", slice.Spec.Devices[0].Taints[0].TimeAdded, before, after)
	if got := slice.Spec.Devices[0].Taints[1].TimeAdded; got == nil || !got.Equal(&set) {
		t.Errorf("devices[0].taints[1]: a set timeAdded changed to %v, want %v", got, set)
	}
	if slice.Spec.Devices[1].Taints != nil {
		t.Errorf("devices[1]: a device without taints got %v", slice.Spec.Devices[1].Taints)
	}

	list := defaulted(t, &resourcev1.ResourceSliceList{Items: []resourcev1.ResourceSlice{{Spec: resourcev1.ResourceSliceSpec{Devices: []resourcev1.Device{
		{Name: "a", Taints: []resourcev1.DeviceTaint{{Key: "k", Effect: resourcev1.DeviceTaintEffectNone}}},
	}}}}})
	checkNow(t, "list items[0] devices[0].taints[0]", list.Items[0].Spec.Devices[0].Taints[0].TimeAdded, before, time.Now())
}

func TestDefaultsDeviceTaintRule(t *testing.T) {
	before := time.Now()
	rule := defaulted(t, &resourcev1.DeviceTaintRule{Spec: resourcev1.DeviceTaintRuleSpec{Taint: resourcev1.DeviceTaint{Key: "k", Effect: resourcev1.DeviceTaintEffectNoExecute}}})
	checkNow(t, "spec.taint", rule.Spec.Taint.TimeAdded, before, time.Now())

	set := metav1.NewTime(time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC))
	kept := defaulted(t, &resourcev1.DeviceTaintRuleList{Items: []resourcev1.DeviceTaintRule{{Spec: resourcev1.DeviceTaintRuleSpec{Taint: resourcev1.DeviceTaint{Key: "k", TimeAdded: set.DeepCopy()}}}}})
	if got := kept.Items[0].Spec.Taint.TimeAdded; got == nil || !got.Equal(&set) {
		t.Errorf("list items[0] spec.taint: a set timeAdded changed to %v, want %v", got, set)
	}
}

// TestNoOtherDefaults checks that defaulting leaves alone what no rule
// covers: a DeviceClass, and the fields of a claim without defaults
// (config source, adminAccess, ...).
func TestNoOtherDefaults(t *testing.T) {
	class := &resourcev1.DeviceClass{Spec: resourcev1.DeviceClassSpec{Config: []resourcev1.DeviceClassConfiguration{{}}}}
	if diff := cmp.Diff(class.DeepCopy(), defaulted(t, class)); diff != "" {
		t.Errorf("DeviceClass changed by defaulting (-before +after):\n%s", diff)
	}
	claim := &resourcev1.ResourceClaim{Status: resourcev1.ResourceClaimStatus{Allocation: &resourcev1.AllocationResult{Devices: resourcev1.DeviceAllocationResult{
		Results: []resourcev1.DeviceRequestAllocationResult{{Request: "r"}},
		Config:  []resourcev1.DeviceAllocationConfiguration{{}},
	}}}}
	if diff := cmp.Diff(claim.DeepCopy(), defaulted(t, claim)); diff != "" {
		t.Errorf("ResourceClaim changed by defaulting (-before +after):\n%s", diff)
	}
	slice := &resourcev1.ResourceSlice{Spec: resourcev1.ResourceSliceSpec{Devices: []resourcev1.Device{{Name: "a"}}}}
	if diff := cmp.Diff(slice.DeepCopy(), defaulted(t, slice)); diff != "" {
		t.Errorf("ResourceSlice changed by defaulting (-before +after):\n%s", diff)
	}
}
