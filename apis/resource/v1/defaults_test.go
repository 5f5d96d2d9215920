package v1_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	v1 "github.com/drakit/drakit/apis/resource/v1"
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
func claimSpec() v1.ResourceClaimSpec {
	return v1.ResourceClaimSpec{Devices: v1.DeviceClaim{Requests: []v1.DeviceRequest{
		{Name: "empty-mode", Exactly: &v1.ExactDeviceRequest{DeviceClassName: "c"}},
		{Name: "all", Exactly: &v1.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: v1.DeviceAllocationModeAll}},
		{Name: "count", Exactly: &v1.ExactDeviceRequest{DeviceClassName: "c", Count: 3}},
		{Name: "exact-count-zero", Exactly: &v1.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: v1.DeviceAllocationModeExactCount}},
		{Name: "tolerations", Exactly: &v1.ExactDeviceRequest{DeviceClassName: "c", Count: 1, AllocationMode: v1.DeviceAllocationModeExactCount,
			Tolerations: []v1.DeviceToleration{{Key: "k", Value: "v"}, {Key: "k", Operator: v1.DeviceTolerationOpExists}}}},
		{Name: "prioritized", FirstAvailable: []v1.DeviceSubRequest{
			{Name: "empty-mode", DeviceClassName: "c"},
			{Name: "all", DeviceClassName: "c", AllocationMode: v1.DeviceAllocationModeAll},
			{Name: "count", DeviceClassName: "c", Count: 2},
			{Name: "tolerations", DeviceClassName: "c", Tolerations: []v1.DeviceToleration{{Key: "k"}, {Operator: v1.DeviceTolerationOpExists}}},
		}},
		{Name: "nothing"},
	}}}
}

// defaultedClaimSpec is claimSpec after defaulting.
func defaultedClaimSpec() v1.ResourceClaimSpec {
	exactCount, all := v1.DeviceAllocationModeExactCount, v1.DeviceAllocationModeAll
	equal, exists := v1.DeviceTolerationOpEqual, v1.DeviceTolerationOpExists
	return v1.ResourceClaimSpec{Devices: v1.DeviceClaim{Requests: []v1.DeviceRequest{
		{Name: "empty-mode", Exactly: &v1.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: exactCount, Count: 1}},
		{Name: "all", Exactly: &v1.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: all}},
		{Name: "count", Exactly: &v1.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: exactCount, Count: 3}},
		{Name: "exact-count-zero", Exactly: &v1.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: exactCount, Count: 1}},
		{Name: "tolerations", Exactly: &v1.ExactDeviceRequest{DeviceClassName: "c", Count: 1, AllocationMode: exactCount,
			Tolerations: []v1.DeviceToleration{{Key: "k", Value: "v", Operator: equal}, {Key: "k", Operator: exists}}}},
		{Name: "prioritized", FirstAvailable: []v1.DeviceSubRequest{
			{Name: "empty-mode", DeviceClassName: "c", AllocationMode: exactCount, Count: 1},
			{Name: "all", DeviceClassName: "c", AllocationMode: all},
			{Name: "count", DeviceClassName: "c", AllocationMode: exactCount, Count: 2},
			{Name: "tolerations", DeviceClassName: "c", AllocationMode: exactCount, Count: 1,
				Tolerations: []v1.DeviceToleration{{Key: "k", Operator: equal}, {Operator: exists}}},
		}},
		{Name: "nothing"},
	}}}
}

func TestDefaultsResourceClaim(t *testing.T) {
	claim := defaulted(t, &v1.ResourceClaim{
		Spec: claimSpec(),
		Status: v1.ResourceClaimStatus{Allocation: &v1.AllocationResult{Devices: v1.DeviceAllocationResult{
			Results: []v1.DeviceRequestAllocationResult{{
				Request: "tolerations", Driver: "d", Pool: "p", Device: "x",
				Tolerations: []v1.DeviceToleration{{Key: "k"}, {Operator: v1.DeviceTolerationOpExists}},
			}},
		}}},
	})
	if diff := cmp.Diff(defaultedClaimSpec(), claim.Spec); diff != "" {
		t.Errorf("claim spec after defaulting (-want +got):\n%s", diff)
	}
	wantTolerations := []v1.DeviceToleration{{Key: "k", Operator: v1.DeviceTolerationOpEqual}, {Operator: v1.DeviceTolerationOpExists}}
	if diff := cmp.Diff(wantTolerations, claim.Status.Allocation.Devices.Results[0].Tolerations); diff != "" {
		t.Errorf("result tolerations after defaulting (-want +got):\n%s", diff)
	}
	if claim.Spec.Devices.Requests[5].Exactly != nil {
		t.Errorf("a firstAvailable request got an exact request: %+v", claim.Spec.Devices.Requests[5].Exactly)
	}
}

func TestDefaultsResourceClaimList(t *testing.T) {
	list := defaulted(t, &v1.ResourceClaimList{Items: []v1.ResourceClaim{{Spec: claimSpec()}, {Spec: claimSpec()}}})
	for i, item := range list.Items {
		if diff := cmp.Diff(defaultedClaimSpec(), item.Spec); diff != "" {
			t.Errorf("item %d spec after defaulting (-want +got):\n%s", i, diff)
		}
	}
}

func TestDefaultsResourceClaimTemplate(t *testing.T) {
	template := defaulted(t, &v1.ResourceClaimTemplate{Spec: v1.ResourceClaimTemplateSpec{Spec: claimSpec()}})
	if diff := cmp.Diff(defaultedClaimSpec(), template.Spec.Spec); diff != "" {
		t.Errorf("template claim spec after defaulting (-want +got):\n%s", diff)
	}
	list := defaulted(t, &v1.ResourceClaimTemplateList{Items: []v1.ResourceClaimTemplate{{Spec: v1.ResourceClaimTemplateSpec{Spec: claimSpec()}}}})
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
	slice := defaulted(t, &v1.ResourceSlice{Spec: v1.ResourceSliceSpec{Devices: []v1.Device{
		{Name: "a", Taints: []v1.DeviceTaint{
			{Key: "k", Effect: v1.DeviceTaintEffectNoSchedule},
			{Key: "k2", Effect: v1.DeviceTaintEffectNoExecute, TimeAdded: set.DeepCopy()},
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

	list := defaulted(t, &v1.ResourceSliceList{Items: []v1.ResourceSlice{{Spec: v1.ResourceSliceSpec{Devices: []v1.Device{
		{Name: "a", Taints: []v1.DeviceTaint{{Key: "k", Effect: v1.DeviceTaintEffectNone}}},
	}}}}})
	checkNow(t, "list items[0] devices[0].taints[0]", list.Items[0].Spec.Devices[0].Taints[0].TimeAdded, before, time.Now())
}

func TestDefaultsDeviceTaintRule(t *testing.T) {
	before := time.Now()
	rule := defaulted(t, &v1.DeviceTaintRule{Spec: v1.DeviceTaintRuleSpec{Taint: v1.DeviceTaint{Key: "k", Effect: v1.DeviceTaintEffectNoExecute}}})
	checkNow(t, "spec.taint", rule.Spec.Taint.TimeAdded, before, time.Now())

	set := metav1.NewTime(time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC))
	kept := defaulted(t, &v1.DeviceTaintRuleList{Items: []v1.DeviceTaintRule{{Spec: v1.DeviceTaintRuleSpec{Taint: v1.DeviceTaint{Key: "k", TimeAdded: set.DeepCopy()}}}}})
	if got := kept.Items[0].Spec.Taint.TimeAdded; got == nil || !got.Equal(&set) {
		t.Errorf("list items[0] spec.taint: a set timeAdded changed to %v, want %v", got, set)
	}
}

// TestNoOtherDefaults checks that defaulting leaves alone what no rule
// covers: a DeviceClass, and the fields of a claim without defaults
// (config source, adminAccess, ...).
func TestNoOtherDefaults(t *testing.T) {
	class := &v1.DeviceClass{Spec: v1.DeviceClassSpec{Config: []v1.DeviceClassConfiguration{{}}}}
	if diff := cmp.Diff(class.DeepCopy(), defaulted(t, class)); diff != "" {
		t.Errorf("DeviceClass changed by defaulting (-before +after):\n%s", diff)
	}
	claim := &v1.ResourceClaim{Status: v1.ResourceClaimStatus{Allocation: &v1.AllocationResult{Devices: v1.DeviceAllocationResult{
		Results: []v1.DeviceRequestAllocationResult{{Request: "r"}},
		Config:  []v1.DeviceAllocationConfiguration{{}},
	}}}}
	if diff := cmp.Diff(claim.DeepCopy(), defaulted(t, claim)); diff != "" {
		t.Errorf("ResourceClaim changed by defaulting (-before +after):\n%s", diff)
	}
	slice := &v1.ResourceSlice{Spec: v1.ResourceSliceSpec{Devices: []v1.Device{{Name: "a"}}}}
	if diff := cmp.Diff(slice.DeepCopy(), defaulted(t, slice)); diff != "" {
		t.Errorf("ResourceSlice changed by defaulting (-before +after):\n%s", diff)
	}
}
