package v1beta1_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	resourcev1beta1 "k8s.io/api/resource/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource/v1beta1"
)

func ptr[T any](v T) *T { return &v }

// newScheme returns a scheme with v1beta1 installed, as the tests default
// through it.
func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := v1beta1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	return scheme
}

// requests are the claim requests every request-defaulting test sends,
// and want what defaulting makes of them (section 5 of the GA facts).
func requestCases() (in, want []resourcev1beta1.DeviceRequest) {
	in = []resourcev1beta1.DeviceRequest{
		// A class and nothing else: ExactCount of one.
		{Name: "plain", DeviceClassName: "gpu"},
		// ExactCount with a count keeps the count.
		{Name: "three", DeviceClassName: "gpu", AllocationMode: resourcev1beta1.DeviceAllocationModeExactCount, Count: 3},
		// A count without a mode gets the mode and keeps the count.
		{Name: "two", DeviceClassName: "gpu", Count: 2},
		// All keeps count 0.
		{Name: "all", DeviceClassName: "gpu", AllocationMode: resourcev1beta1.DeviceAllocationModeAll},
		// An unknown mode is left for validation, without a count.
		{Name: "odd", DeviceClassName: "gpu", AllocationMode: "Some"},
		// No class (a prioritized list): the request itself is left alone
		// (1.33+), its sub-requests are defaulted.
		{Name: "list", FirstAvailable: []resourcev1beta1.DeviceSubRequest{
			{Name: "a", DeviceClassName: "big"},
			{Name: "b", DeviceClassName: "small", AllocationMode: resourcev1beta1.DeviceAllocationModeAll},
			{Name: "c", DeviceClassName: "small", Count: 4},
			{Name: "d", DeviceClassName: "small", AllocationMode: resourcev1beta1.DeviceAllocationModeExactCount, Count: 5},
		}},
		// No class and nothing else: not defaulted either.
		{Name: "empty"},
	}
	want = []resourcev1beta1.DeviceRequest{
		{Name: "plain", DeviceClassName: "gpu", AllocationMode: resourcev1beta1.DeviceAllocationModeExactCount, Count: 1},
		{Name: "three", DeviceClassName: "gpu", AllocationMode: resourcev1beta1.DeviceAllocationModeExactCount, Count: 3},
		{Name: "two", DeviceClassName: "gpu", AllocationMode: resourcev1beta1.DeviceAllocationModeExactCount, Count: 2},
		{Name: "all", DeviceClassName: "gpu", AllocationMode: resourcev1beta1.DeviceAllocationModeAll},
		{Name: "odd", DeviceClassName: "gpu", AllocationMode: "Some"},
		{Name: "list", FirstAvailable: []resourcev1beta1.DeviceSubRequest{
			{Name: "a", DeviceClassName: "big", AllocationMode: resourcev1beta1.DeviceAllocationModeExactCount, Count: 1},
			{Name: "b", DeviceClassName: "small", AllocationMode: resourcev1beta1.DeviceAllocationModeAll},
			{Name: "c", DeviceClassName: "small", AllocationMode: resourcev1beta1.DeviceAllocationModeExactCount, Count: 4},
			{Name: "d", DeviceClassName: "small", AllocationMode: resourcev1beta1.DeviceAllocationModeExactCount, Count: 5},
		}},
		{Name: "empty"},
	}
	return in, want
}

func TestDefaultRequestsInClaim(t *testing.T) {
	scheme := newScheme(t)
	in, want := requestCases()
	claim := &resourcev1beta1.ResourceClaim{Spec: resourcev1beta1.ResourceClaimSpec{Devices: resourcev1beta1.DeviceClaim{Requests: in}}}
	scheme.Default(claim)
	if diff := cmp.Diff(want, claim.Spec.Devices.Requests); diff != "" {
		t.Errorf("requests after defaulting (-want +got):\n%s", diff)
	}
}

func TestDefaultRequestsInTemplateAndLists(t *testing.T) {
	scheme := newScheme(t)

	in, want := requestCases()
	template := &resourcev1beta1.ResourceClaimTemplate{Spec: resourcev1beta1.ResourceClaimTemplateSpec{
		Spec: resourcev1beta1.ResourceClaimSpec{Devices: resourcev1beta1.DeviceClaim{Requests: in}},
	}}
	scheme.Default(template)
	if diff := cmp.Diff(want, template.Spec.Spec.Devices.Requests); diff != "" {
		t.Errorf("template requests after defaulting (-want +got):\n%s", diff)
	}

	in, want = requestCases()
	claims := &resourcev1beta1.ResourceClaimList{Items: []resourcev1beta1.ResourceClaim{
		{},
		{Spec: resourcev1beta1.ResourceClaimSpec{Devices: resourcev1beta1.DeviceClaim{Requests: in}}},
	}}
	scheme.Default(claims)
	if diff := cmp.Diff(want, claims.Items[1].Spec.Devices.Requests); diff != "" {
		t.Errorf("claim list requests after defaulting (-want +got):\n%s", diff)
	}
	if claims.Items[0].Spec.Devices.Requests != nil {
		t.Errorf("an empty claim got requests: %v", claims.Items[0].Spec.Devices.Requests)
	}

	in, want = requestCases()
	templates := &resourcev1beta1.ResourceClaimTemplateList{Items: []resourcev1beta1.ResourceClaimTemplate{
		{Spec: resourcev1beta1.ResourceClaimTemplateSpec{Spec: resourcev1beta1.ResourceClaimSpec{Devices: resourcev1beta1.DeviceClaim{Requests: in}}}},
	}}
	scheme.Default(templates)
	if diff := cmp.Diff(want, templates.Items[0].Spec.Spec.Devices.Requests); diff != "" {
		t.Errorf("template list requests after defaulting (-want +got):\n%s", diff)
	}
}

// TestDefaultTolerationOperator checks the +default="Equal" of a
// toleration's operator in the request, sub-request and allocation result
// tolerations, and that a set operator and the other fields stay.
func TestDefaultTolerationOperator(t *testing.T) {
	scheme := newScheme(t)
	tolerations := func() []resourcev1beta1.DeviceToleration {
		return []resourcev1beta1.DeviceToleration{
			{Key: "k", Value: "v", Effect: resourcev1beta1.DeviceTaintEffectNoSchedule},
			{Key: "k", Operator: resourcev1beta1.DeviceTolerationOpExists, TolerationSeconds: ptr[int64](30)},
			{Operator: "Other"},
		}
	}
	want := []resourcev1beta1.DeviceToleration{
		{Key: "k", Operator: resourcev1beta1.DeviceTolerationOpEqual, Value: "v", Effect: resourcev1beta1.DeviceTaintEffectNoSchedule},
		{Key: "k", Operator: resourcev1beta1.DeviceTolerationOpExists, TolerationSeconds: ptr[int64](30)},
		{Operator: "Other"},
	}
	claim := &resourcev1beta1.ResourceClaim{
		Spec: resourcev1beta1.ResourceClaimSpec{Devices: resourcev1beta1.DeviceClaim{Requests: []resourcev1beta1.DeviceRequest{
			{Name: "r", DeviceClassName: "c", Tolerations: tolerations()},
			{Name: "p", FirstAvailable: []resourcev1beta1.DeviceSubRequest{{Name: "s", DeviceClassName: "c", Tolerations: tolerations()}}},
		}}},
		Status: resourcev1beta1.ResourceClaimStatus{Allocation: &resourcev1beta1.AllocationResult{Devices: resourcev1beta1.DeviceAllocationResult{
			Results: []resourcev1beta1.DeviceRequestAllocationResult{{Request: "r", Driver: "d", Pool: "p", Device: "x", Tolerations: tolerations()}},
		}}},
	}
	scheme.Default(claim)
	for name, got := range map[string][]resourcev1beta1.DeviceToleration{
		"request":     claim.Spec.Devices.Requests[0].Tolerations,
		"sub-request": claim.Spec.Devices.Requests[1].FirstAvailable[0].Tolerations,
		"result":      claim.Status.Allocation.Devices.Results[0].Tolerations,
	} {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s tolerations after defaulting (-want +got):\n%s", name, diff)
		}
	}

	template := &resourcev1beta1.ResourceClaimTemplate{Spec: resourcev1beta1.ResourceClaimTemplateSpec{Spec: resourcev1beta1.ResourceClaimSpec{
		Devices: resourcev1beta1.DeviceClaim{Requests: []resourcev1beta1.DeviceRequest{
			{Name: "r", DeviceClassName: "c", Tolerations: tolerations()},
			{Name: "p", FirstAvailable: []resourcev1beta1.DeviceSubRequest{{Name: "s", DeviceClassName: "c", Tolerations: tolerations()}}},
		}},
	}}}
	scheme.Default(template)
	for name, got := range map[string][]resourcev1beta1.DeviceToleration{
		"template request":     template.Spec.Spec.Devices.Requests[0].Tolerations,
		"template sub-request": template.Spec.Spec.Devices.Requests[1].FirstAvailable[0].Tolerations,
	} {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s tolerations after defaulting (-want +got):\n%s", name, diff)
		}
	}
}

// checkStamped fails unless ts is set, to a whole second, no earlier than
// the second before and no later than after.
func checkStamped(t *testing.T, what string, ts *metav1.Time, before, after time.Time) {
	t.Helper()
	if ts == nil {
		t.Fatalf("%s: timeAdded was not set", what)
	}
	if ts.Nanosecond() != 0 {
		t.Errorf("%s: timeAdded %v is not truncated to seconds", what, ts.Time)
	}
	if ts.Time.Before(before.Truncate(time.Second)) || ts.Time.After(after) {
		t.Errorf("%s: timeAdded %v is not between %v and %v", what, ts.Time, before, after)
	}
}

// TestDefaultDeviceTaint checks that slice device taints (under basic) get
// timeAdded stamped, and that a set one is kept, in a slice and a list.
func TestDefaultDeviceTaint(t *testing.T) {
	scheme := newScheme(t)
	set := metav1.NewTime(time.Date(2020, time.January, 2, 3, 4, 5, 0, time.UTC))
	slice := func() resourcev1beta1.ResourceSlice {
		return resourcev1beta1.ResourceSlice{Spec: resourcev1beta1.ResourceSliceSpec{
			Driver: "d",
			Devices: []resourcev1beta1.Device{
				{Name: "no-basic"},
				{Name: "tainted", Basic: &resourcev1beta1.BasicDevice{Taints: []resourcev1beta1.DeviceTaint{
					{Key: "a", Effect: resourcev1beta1.DeviceTaintEffectNoExecute},
					{Key: "b", Value: "v", Effect: resourcev1beta1.DeviceTaintEffectNone, TimeAdded: &set},
				}}},
				{Name: "untainted", Basic: &resourcev1beta1.BasicDevice{}},
			},
		}}
	}

	before := time.Now()
	one := slice()
	scheme.Default(&one)
	list := &resourcev1beta1.ResourceSliceList{Items: []resourcev1beta1.ResourceSlice{slice()}}
	scheme.Default(list)
	after := time.Now()

	for what, s := range map[string]resourcev1beta1.ResourceSlice{"slice": one, "list item": list.Items[0]} {
		taints := s.Spec.Devices[1].Basic.Taints
		checkStamped(t, what, taints[0].TimeAdded, before, after)
		if taints[0].Key != "a" || taints[0].Value != "" || taints[0].Effect != resourcev1beta1.DeviceTaintEffectNoExecute {
			t.Errorf("%s: defaulting changed other taint fields: %#v", what, taints[0])
		}
		if !taints[1].TimeAdded.Equal(&set) {
			t.Errorf("%s: a set timeAdded became %v", what, taints[1].TimeAdded)
		}
		if s.Spec.Devices[0].Basic != nil {
			t.Errorf("%s: defaulting created basic for a device without it", what)
		}
		if s.Spec.Devices[2].Basic.Taints != nil {
			t.Errorf("%s: defaulting added taints: %v", what, s.Spec.Devices[2].Basic.Taints)
		}
	}
}

// TestNoOtherDefaults checks that the kinds without defaulting rules, and
// the fields no rule names, stay as they are.
func TestNoOtherDefaults(t *testing.T) {
	scheme := newScheme(t)
	class := &resourcev1beta1.DeviceClass{Spec: resourcev1beta1.DeviceClassSpec{Config: []resourcev1beta1.DeviceClassConfiguration{{}}}}
	scheme.Default(class)
	if diff := cmp.Diff(&resourcev1beta1.DeviceClass{Spec: resourcev1beta1.DeviceClassSpec{Config: []resourcev1beta1.DeviceClassConfiguration{{}}}}, class); diff != "" {
		t.Errorf("a DeviceClass was defaulted (-want +got):\n%s", diff)
	}

	claim := &resourcev1beta1.ResourceClaim{Status: resourcev1beta1.ResourceClaimStatus{Allocation: &resourcev1beta1.AllocationResult{
		Devices: resourcev1beta1.DeviceAllocationResult{
			Results: []resourcev1beta1.DeviceRequestAllocationResult{{Request: "r"}},
			Config:  []resourcev1beta1.DeviceAllocationConfiguration{{}},
		},
	}}}
	scheme.Default(claim)
	want := &resourcev1beta1.ResourceClaim{Status: resourcev1beta1.ResourceClaimStatus{Allocation: &resourcev1beta1.AllocationResult{
		Devices: resourcev1beta1.DeviceAllocationResult{
			Results: []resourcev1beta1.DeviceRequestAllocationResult{{Request: "r"}},
			Config:  []resourcev1beta1.DeviceAllocationConfiguration{{}},
		},
	}}}
	if diff := cmp.Diff(want, claim); diff != "" {
		t.Errorf("an allocation result without tolerations was defaulted (-want +got):\n%s", diff)
	}

	slice := &resourcev1beta1.ResourceSlice{Spec: resourcev1beta1.ResourceSliceSpec{Driver: "d"}}
	scheme.Default(slice)
	if diff := cmp.Diff(&resourcev1beta1.ResourceSlice{Spec: resourcev1beta1.ResourceSliceSpec{Driver: "d"}}, slice); diff != "" {
		t.Errorf("a slice without devices was defaulted (-want +got):\n%s", diff)
	}
}
