package v1beta2_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	resourcev1beta2 "k8s.io/api/resource/v1beta2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource/v1beta2"
)

func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := v1beta2.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	return scheme
}

// claimSpec is a spec with one request of each kind the defaults treat
// differently, and what defaulting makes of it.
func claimSpec() (in, want resourcev1beta2.ResourceClaimSpec) {
	in = resourcev1beta2.ResourceClaimSpec{Devices: resourcev1beta2.DeviceClaim{Requests: []resourcev1beta2.DeviceRequest{
		// No mode, no count: ExactCount, one device.
		{Name: "plain", Exactly: &resourcev1beta2.ExactDeviceRequest{DeviceClassName: "c"}},
		// ExactCount with a count: kept.
		{Name: "three", Exactly: &resourcev1beta2.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: resourcev1beta2.DeviceAllocationModeExactCount, Count: 3}},
		// No mode but a count: ExactCount, count kept.
		{Name: "two", Exactly: &resourcev1beta2.ExactDeviceRequest{DeviceClassName: "c", Count: 2}},
		// All: the count stays 0.
		{Name: "all", Exactly: &resourcev1beta2.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: resourcev1beta2.DeviceAllocationModeAll}},
		// Tolerations: an empty operator becomes Equal, Exists stays.
		{Name: "tolerating", Exactly: &resourcev1beta2.ExactDeviceRequest{
			DeviceClassName: "c",
			AllocationMode:  resourcev1beta2.DeviceAllocationModeAll,
			Tolerations: []resourcev1beta2.DeviceToleration{
				{Key: "k", Value: "v"},
				{Operator: resourcev1beta2.DeviceTolerationOpExists},
			},
		}},
		// Sub-requests get the same rules, each on its own.
		{Name: "alternatives", FirstAvailable: []resourcev1beta2.DeviceSubRequest{
			{Name: "a", DeviceClassName: "c"},
			{Name: "b", DeviceClassName: "c", AllocationMode: resourcev1beta2.DeviceAllocationModeAll},
			{Name: "c", DeviceClassName: "c", Count: 4, Tolerations: []resourcev1beta2.DeviceToleration{{Key: "k"}, {Operator: resourcev1beta2.DeviceTolerationOpExists}}},
		}},
		// Neither exactly nor firstAvailable: nothing to default.
		{Name: "empty"},
	}}}
	want = resourcev1beta2.ResourceClaimSpec{Devices: resourcev1beta2.DeviceClaim{Requests: []resourcev1beta2.DeviceRequest{
		{Name: "plain", Exactly: &resourcev1beta2.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: resourcev1beta2.DeviceAllocationModeExactCount, Count: 1}},
		{Name: "three", Exactly: &resourcev1beta2.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: resourcev1beta2.DeviceAllocationModeExactCount, Count: 3}},
		{Name: "two", Exactly: &resourcev1beta2.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: resourcev1beta2.DeviceAllocationModeExactCount, Count: 2}},
		{Name: "all", Exactly: &resourcev1beta2.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: resourcev1beta2.DeviceAllocationModeAll}},
		{Name: "tolerating", Exactly: &resourcev1beta2.ExactDeviceRequest{
			DeviceClassName: "c",
			AllocationMode:  resourcev1beta2.DeviceAllocationModeAll,
			Tolerations: []resourcev1beta2.DeviceToleration{
				{Key: "k", Operator: resourcev1beta2.DeviceTolerationOpEqual, Value: "v"},
				{Operator: resourcev1beta2.DeviceTolerationOpExists},
			},
		}},
		{Name: "alternatives", FirstAvailable: []resourcev1beta2.DeviceSubRequest{
			{Name: "a", DeviceClassName: "c", AllocationMode: resourcev1beta2.DeviceAllocationModeExactCount, Count: 1},
			{Name: "b", DeviceClassName: "c", AllocationMode: resourcev1beta2.DeviceAllocationModeAll},
			{Name: "c", DeviceClassName: "c", AllocationMode: resourcev1beta2.DeviceAllocationModeExactCount, Count: 4, Tolerations: []resourcev1beta2.DeviceToleration{
				{Key: "k", Operator: resourcev1beta2.DeviceTolerationOpEqual},
				{Operator: resourcev1beta2.DeviceTolerationOpExists},
			}},
		}},
		{Name: "empty"},
	}}}
	return in, want
}

// allocation is a status with result tolerations, and its defaulted form.
func allocation() (in, want resourcev1beta2.ResourceClaimStatus) {
	in = resourcev1beta2.ResourceClaimStatus{Allocation: &resourcev1beta2.AllocationResult{Devices: resourcev1beta2.DeviceAllocationResult{
		Results: []resourcev1beta2.DeviceRequestAllocationResult{
			{Request: "plain", Driver: "d", Pool: "p", Device: "x", Tolerations: []resourcev1beta2.DeviceToleration{{Key: "k"}, {Operator: resourcev1beta2.DeviceTolerationOpExists}}},
			{Request: "all", Driver: "d", Pool: "p", Device: "y"},
		},
	}}}
	want = *in.DeepCopy()
	want.Allocation.Devices.Results[0].Tolerations[0].Operator = resourcev1beta2.DeviceTolerationOpEqual
	return in, want
}

func TestDefaultClaim(t *testing.T) {
	scheme := newScheme(t)
	spec, wantSpec := claimSpec()
	status, wantStatus := allocation()
	claim := &resourcev1beta2.ResourceClaim{Spec: spec, Status: status}
	want := &resourcev1beta2.ResourceClaim{Spec: wantSpec, Status: wantStatus}
	scheme.Default(claim)
	if diff := cmp.Diff(want, claim); diff != "" {
		t.Errorf("defaulted claim (-want +got):\n%s", diff)
	}

	spec, wantSpec = claimSpec()
	list := &resourcev1beta2.ResourceClaimList{Items: []resourcev1beta2.ResourceClaim{{Spec: spec}}}
	scheme.Default(list)
	if diff := cmp.Diff(wantSpec, list.Items[0].Spec); diff != "" {
		t.Errorf("defaulted claim in a list (-want +got):\n%s", diff)
	}
}

func TestDefaultClaimTemplate(t *testing.T) {
	scheme := newScheme(t)
	spec, wantSpec := claimSpec()
	template := &resourcev1beta2.ResourceClaimTemplate{Spec: resourcev1beta2.ResourceClaimTemplateSpec{Spec: spec}}
	scheme.Default(template)
	if diff := cmp.Diff(wantSpec, template.Spec.Spec); diff != "" {
		t.Errorf("defaulted template (-want +got):\n%s", diff)
	}

	spec, wantSpec = claimSpec()
	list := &resourcev1beta2.ResourceClaimTemplateList{Items: []resourcev1beta2.ResourceClaimTemplate{{Spec: resourcev1beta2.ResourceClaimTemplateSpec{Spec: spec}}}}
	scheme.Default(list)
	if diff := cmp.Diff(wantSpec, list.Items[0].Spec.Spec); diff != "" {
		t.Errorf("defaulted template in a list (-want +got):\n%s", diff)
	}
}

// checkStamped fails unless the taint got a timeAdded between notBefore
// and now, in whole seconds.
func checkStamped(t *testing.T, what string, taint resourcev1beta2.DeviceTaint, notBefore time.Time) {
	t.Helper()
	if taint.TimeAdded == nil {
		t.Errorf("%s: timeAdded not set", what)
		return
	}
	got := taint.TimeAdded.Time
	if !got.Equal(got.Truncate(time.Second)) {
		t.Errorf("%s: timeAdded %v is not in whole seconds", what, got)
	}
	if got.Before(notBefore) {
		t.Errorf("%s: timeAdded %v is before the test started (%v)", what, got, notBefore)
	}
	if now := time.Now(); got.After(now) {
		t.Errorf("%s: timeAdded %v is in the future (now %v)", what, got, now)
	}
}

var earlier = metav1.NewTime(time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC))

func TestDefaultSliceTaints(t *testing.T) {
	scheme := newScheme(t)
	start := time.Now().Truncate(time.Second)
	slice := &resourcev1beta2.ResourceSlice{Spec: resourcev1beta2.ResourceSliceSpec{Devices: []resourcev1beta2.Device{
		{Name: "a", Taints: []resourcev1beta2.DeviceTaint{
			{Key: "new", Effect: resourcev1beta2.DeviceTaintEffectNoSchedule},
			{Key: "old", Effect: resourcev1beta2.DeviceTaintEffectNoExecute, TimeAdded: earlier.DeepCopy()},
		}},
		{Name: "b"},
	}}}
	scheme.Default(slice)
	taints := slice.Spec.Devices[0].Taints
	checkStamped(t, "slice taint without timeAdded", taints[0], start)
	if taints[1].TimeAdded == nil || !taints[1].TimeAdded.Equal(&earlier) {
		t.Errorf("slice taint with timeAdded: changed to %v", taints[1].TimeAdded)
	}
	if taints[0].Key != "new" || taints[0].Effect != resourcev1beta2.DeviceTaintEffectNoSchedule {
		t.Errorf("slice taint changed beyond timeAdded: %+v", taints[0])
	}
	if slice.Spec.Devices[1].Taints != nil {
		t.Errorf("device without taints got %v", slice.Spec.Devices[1].Taints)
	}

	list := &resourcev1beta2.ResourceSliceList{Items: []resourcev1beta2.ResourceSlice{{Spec: resourcev1beta2.ResourceSliceSpec{Devices: []resourcev1beta2.Device{
		{Name: "a", Taints: []resourcev1beta2.DeviceTaint{{Key: "new", Effect: resourcev1beta2.DeviceTaintEffectNone}}},
	}}}}}
	scheme.Default(list)
	checkStamped(t, "slice taint in a list", list.Items[0].Spec.Devices[0].Taints[0], start)
}

func TestDefaultTaintRule(t *testing.T) {
	scheme := newScheme(t)
	start := time.Now().Truncate(time.Second)
	rule := &resourcev1beta2.DeviceTaintRule{Spec: resourcev1beta2.DeviceTaintRuleSpec{Taint: resourcev1beta2.DeviceTaint{Key: "k", Effect: resourcev1beta2.DeviceTaintEffectNoExecute}}}
	scheme.Default(rule)
	checkStamped(t, "rule taint without timeAdded", rule.Spec.Taint, start)

	kept := &resourcev1beta2.DeviceTaintRule{Spec: resourcev1beta2.DeviceTaintRuleSpec{Taint: resourcev1beta2.DeviceTaint{Key: "k", Effect: resourcev1beta2.DeviceTaintEffectNoExecute, TimeAdded: earlier.DeepCopy()}}}
	scheme.Default(kept)
	if !kept.Spec.Taint.TimeAdded.Equal(&earlier) {
		t.Errorf("rule taint with timeAdded: changed to %v", kept.Spec.Taint.TimeAdded)
	}

	list := &resourcev1beta2.DeviceTaintRuleList{Items: []resourcev1beta2.DeviceTaintRule{{Spec: resourcev1beta2.DeviceTaintRuleSpec{Taint: resourcev1beta2.DeviceTaint{Key: "k", Effect: resourcev1beta2.DeviceTaintEffectNone}}}}}
	scheme.Default(list)
	checkStamped(t, "rule taint in a list", list.Items[0].Spec.Taint, start)
}

// A DeviceClass has nothing to default.
func TestDefaultClassUnchanged(t *testing.T) {
	scheme := newScheme(t)
	class := &resourcev1beta2.DeviceClass{Spec: resourcev1beta2.DeviceClassSpec{Selectors: []resourcev1beta2.DeviceSelector{{CEL: &resourcev1beta2.CELDeviceSelector{Expression: "true"}}}}}
	want := class.DeepCopy()
	scheme.Default(class)
	if diff := cmp.Diff(want, class); diff != "" {
		t.Errorf("defaulted class (-want +got):\n%s", diff)
	}
}
