package v1beta1_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	resourcev1beta1 "k8s.io/api/resource/v1beta1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	hub "github.com/drakit/drakit/apis/resource"
)

// The three places where v1beta1 says what the hub says in another shape:
// the flat request, the basic device, and the slice's plain nodeName and
// allNodes.

// TestFlatRequest: the flat exact fields are the hub's exactly, set when
// any of them is; firstAvailable is copied; empty lists stay empty.
func TestFlatRequest(t *testing.T) {
	scheme := conversionScheme(t)
	sub := []resourcev1beta1.DeviceSubRequest{{Name: "a", DeviceClassName: "c", AllocationMode: resourcev1beta1.DeviceAllocationModeExactCount, Count: 1}}
	hubSub := []hub.DeviceSubRequest{{Name: "a", DeviceClassName: "c", AllocationMode: hub.DeviceAllocationModeExactCount, Count: 1}}
	q := apiresource.MustParse("1Gi")
	for _, tc := range []struct {
		name string
		in   resourcev1beta1.DeviceRequest
		want hub.DeviceRequest
	}{
		{"nothing", resourcev1beta1.DeviceRequest{Name: "r"}, hub.DeviceRequest{Name: "r"}},
		{"class", resourcev1beta1.DeviceRequest{Name: "r", DeviceClassName: "c"},
			hub.DeviceRequest{Name: "r", Exactly: &hub.ExactDeviceRequest{DeviceClassName: "c"}}},
		{"firstAvailable", resourcev1beta1.DeviceRequest{Name: "r", FirstAvailable: sub},
			hub.DeviceRequest{Name: "r", FirstAvailable: hubSub}},
		{"empty firstAvailable", resourcev1beta1.DeviceRequest{Name: "r", FirstAvailable: []resourcev1beta1.DeviceSubRequest{}},
			hub.DeviceRequest{Name: "r", FirstAvailable: []hub.DeviceSubRequest{}}},
		{"both", resourcev1beta1.DeviceRequest{Name: "r", DeviceClassName: "c", FirstAvailable: sub},
			hub.DeviceRequest{Name: "r", Exactly: &hub.ExactDeviceRequest{DeviceClassName: "c"}, FirstAvailable: hubSub}},
		{"empty selectors", resourcev1beta1.DeviceRequest{Name: "r", Selectors: []resourcev1beta1.DeviceSelector{}},
			hub.DeviceRequest{Name: "r", Exactly: &hub.ExactDeviceRequest{Selectors: []hub.DeviceSelector{}}}},
		{"mode", resourcev1beta1.DeviceRequest{Name: "r", AllocationMode: resourcev1beta1.DeviceAllocationModeAll},
			hub.DeviceRequest{Name: "r", Exactly: &hub.ExactDeviceRequest{AllocationMode: hub.DeviceAllocationModeAll}}},
		{"count", resourcev1beta1.DeviceRequest{Name: "r", Count: 2},
			hub.DeviceRequest{Name: "r", Exactly: &hub.ExactDeviceRequest{Count: 2}}},
		{"adminAccess false", resourcev1beta1.DeviceRequest{Name: "r", AdminAccess: ptr(false)},
			hub.DeviceRequest{Name: "r", Exactly: &hub.ExactDeviceRequest{AdminAccess: ptr(false)}}},
		{"empty tolerations", resourcev1beta1.DeviceRequest{Name: "r", Tolerations: []resourcev1beta1.DeviceToleration{}},
			hub.DeviceRequest{Name: "r", Exactly: &hub.ExactDeviceRequest{Tolerations: []hub.DeviceToleration{}}}},
		{"empty capacity", resourcev1beta1.DeviceRequest{Name: "r", Capacity: &resourcev1beta1.CapacityRequirements{}},
			hub.DeviceRequest{Name: "r", Exactly: &hub.ExactDeviceRequest{Capacity: &hub.CapacityRequirements{}}}},
		{"capacity", resourcev1beta1.DeviceRequest{Name: "r", Capacity: &resourcev1beta1.CapacityRequirements{Requests: map[resourcev1beta1.QualifiedName]apiresource.Quantity{"mem": q}}},
			hub.DeviceRequest{Name: "r", Exactly: &hub.ExactDeviceRequest{Capacity: &hub.CapacityRequirements{Requests: map[hub.QualifiedName]apiresource.Quantity{"mem": q}}}}},
		{"empty derivedAttributes", resourcev1beta1.DeviceRequest{Name: "r", DerivedAttributes: []resourcev1beta1.DeviceDerivedAttribute{}},
			hub.DeviceRequest{Name: "r", Exactly: &hub.ExactDeviceRequest{DerivedAttributes: []hub.DeviceDerivedAttribute{}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := &resourcev1beta1.ResourceClaim{Spec: resourcev1beta1.ResourceClaimSpec{Devices: resourcev1beta1.DeviceClaim{Requests: []resourcev1beta1.DeviceRequest{tc.in}}}}
			h := &hub.ResourceClaim{}
			convert(t, scheme, in, h)
			if diff := cmp.Diff([]hub.DeviceRequest{tc.want}, h.Spec.Devices.Requests); diff != "" {
				t.Errorf("hub request (-want +got):\n%s", diff)
			}
			back := &resourcev1beta1.ResourceClaim{}
			convert(t, scheme, h, back)
			if diff := cmp.Diff(in, back); diff != "" {
				t.Errorf("round trip (-in +back):\n%s", diff)
			}
			if s := stashOf(t, back); s != "" {
				t.Errorf("stash written: %s", s)
			}
		})
	}
}

// TestEmptyExactly: an exactly with nothing in it shows as no exact request;
// the stash names it and it comes back, unless the request says more now
// (edit wins) or another request has its place.
func TestEmptyExactly(t *testing.T) {
	scheme := conversionScheme(t)
	sub := []hub.DeviceSubRequest{{Name: "a", DeviceClassName: "c"}}
	in := &hub.ResourceClaim{Spec: hub.ResourceClaimSpec{
		AllocationMode: hub.AllocationModeWaitForFirstConsumer,
		Devices: hub.DeviceClaim{Requests: []hub.DeviceRequest{
			{Name: "empty", Exactly: &hub.ExactDeviceRequest{}},
			{Name: "none"},
			{Name: "with-alternatives", Exactly: &hub.ExactDeviceRequest{}, FirstAvailable: sub},
			{Name: "class", Exactly: &hub.ExactDeviceRequest{DeviceClassName: "c"}},
		}},
	}}
	v := &resourcev1beta1.ResourceClaim{}
	convert(t, scheme, in, v)
	if got, want := stashOf(t, v), `{"v":1,"spec":{"emptyExactly":["empty","with-alternatives"]}}`; got != want {
		t.Errorf("stash:\n got %s\nwant %s", got, want)
	}
	back := &hub.ResourceClaim{}
	convert(t, scheme, v, back)
	if diff := cmp.Diff(in, back); diff != "" {
		t.Errorf("round trip (-in +back):\n%s", diff)
	}

	edited := v.DeepCopy()
	edited.Spec.Devices.Requests[0].DeviceClassName = "d"
	edited.Spec.Devices.Requests[0], edited.Spec.Devices.Requests[1] = edited.Spec.Devices.Requests[1], edited.Spec.Devices.Requests[0]
	edited.Spec.Devices.Requests[2].Name = "renamed"
	back = &hub.ResourceClaim{}
	convert(t, scheme, edited, back)
	want := []hub.DeviceRequest{
		{Name: "none"},
		{Name: "empty", Exactly: &hub.ExactDeviceRequest{DeviceClassName: "d"}},
		{Name: "renamed", FirstAvailable: sub},
		{Name: "class", Exactly: &hub.ExactDeviceRequest{DeviceClassName: "c"}},
	}
	if diff := cmp.Diff(want, back.Spec.Devices.Requests); diff != "" {
		t.Errorf("edited (-want +got):\n%s", diff)
	}

	// Templates keep it the same way.
	tmpl := &hub.ResourceClaimTemplate{Spec: hub.ResourceClaimTemplateSpec{Spec: in.Spec}}
	vt := &resourcev1beta1.ResourceClaimTemplate{}
	convert(t, scheme, tmpl, vt)
	backT := &hub.ResourceClaimTemplate{}
	convert(t, scheme, vt, backT)
	if diff := cmp.Diff(tmpl, backT); diff != "" {
		t.Errorf("template round trip (-in +back):\n%s", diff)
	}
}

// TestBasicDevice: a hub device's properties are under basic, which is
// always written; empty maps and lists stay empty, and a device without
// basic reads as one with an empty basic.
func TestBasicDevice(t *testing.T) {
	scheme := conversionScheme(t)
	slice := func(devices ...resourcev1beta1.Device) *resourcev1beta1.ResourceSlice {
		return &resourcev1beta1.ResourceSlice{Spec: resourcev1beta1.ResourceSliceSpec{Driver: "d", Devices: devices}}
	}
	hubSlice := func(devices ...hub.Device) *hub.ResourceSlice {
		return &hub.ResourceSlice{Spec: hub.ResourceSliceSpec{Driver: "d", Devices: devices}}
	}
	q := apiresource.MustParse("4")
	nodes := &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{}}}
	for _, tc := range []struct {
		name     string
		in       *resourcev1beta1.ResourceSlice
		want     *hub.ResourceSlice
		wantBack *resourcev1beta1.ResourceSlice // nil: in
	}{
		{"no basic", slice(resourcev1beta1.Device{Name: "a"}), hubSlice(hub.Device{Name: "a"}),
			slice(resourcev1beta1.Device{Name: "a", Basic: &resourcev1beta1.BasicDevice{}})},
		{"empty basic", slice(resourcev1beta1.Device{Name: "a", Basic: &resourcev1beta1.BasicDevice{}}), hubSlice(hub.Device{Name: "a"}), nil},
		{"empty maps and lists", slice(resourcev1beta1.Device{Name: "a", Basic: &resourcev1beta1.BasicDevice{
			Attributes: map[resourcev1beta1.QualifiedName]resourcev1beta1.DeviceAttribute{}, Capacity: map[resourcev1beta1.QualifiedName]resourcev1beta1.DeviceCapacity{},
			ConsumesCounters: []resourcev1beta1.DeviceCounterConsumption{}, Taints: []resourcev1beta1.DeviceTaint{},
			BindingConditions: []string{}, BindingFailureConditions: []string{},
			NodeAllocatableResources: map[corev1.ResourceName]resourcev1beta1.NodeAllocatableResource{},
		}}), hubSlice(hub.Device{Name: "a",
			Attributes: map[hub.QualifiedName]hub.DeviceAttribute{}, Capacity: map[hub.QualifiedName]hub.DeviceCapacity{},
			ConsumesCounters: []hub.DeviceCounterConsumption{}, Taints: []hub.DeviceTaint{},
			BindingConditions: []string{}, BindingFailureConditions: []string{},
			NodeAllocatableResources: map[corev1.ResourceName]hub.NodeAllocatableResource{},
		}), nil},
		{"properties", slice(resourcev1beta1.Device{Name: "a", Basic: &resourcev1beta1.BasicDevice{
			Attributes: map[resourcev1beta1.QualifiedName]resourcev1beta1.DeviceAttribute{"x": {IntValues: []int64{1, 2}}},
			Capacity:   map[resourcev1beta1.QualifiedName]resourcev1beta1.DeviceCapacity{"mem": {Value: q}},
			NodeName:   ptr(""), NodeSelector: nodes, AllNodes: ptr(false),
			BindsToNode: ptr(false), AllowMultipleAllocations: ptr(true),
		}}), hubSlice(hub.Device{Name: "a",
			Attributes: map[hub.QualifiedName]hub.DeviceAttribute{"x": {IntValues: []int64{1, 2}}},
			Capacity:   map[hub.QualifiedName]hub.DeviceCapacity{"mem": {Value: q}},
			NodeName:   ptr(""), NodeSelector: nodes, AllNodes: ptr(false),
			BindsToNode: ptr(false), AllowMultipleAllocations: ptr(true),
		}), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &hub.ResourceSlice{}
			convert(t, scheme, tc.in, h)
			if diff := cmp.Diff(tc.want, h); diff != "" {
				t.Errorf("hub slice (-want +got):\n%s", diff)
			}
			back := &resourcev1beta1.ResourceSlice{}
			convert(t, scheme, h, back)
			want := tc.wantBack
			if want == nil {
				want = tc.in
			}
			if diff := cmp.Diff(want, back); diff != "" {
				t.Errorf("back (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSliceNodeFields: nodeName "" and allNodes false are unset; a hub
// &"" or &false travels in the stash, and a value set since wins.
func TestSliceNodeFields(t *testing.T) {
	scheme := conversionScheme(t)
	for _, tc := range []struct {
		name      string
		nodeName  *string
		allNodes  *bool
		wantName  string
		wantAll   bool
		wantStash string
	}{
		{"unset", nil, nil, "", false, ""},
		{"set", ptr("node-1"), ptr(true), "node-1", true, ""},
		{"empty name", ptr(""), nil, "", false, `{"v":1,"nodeName":""}`},
		{"allNodes false", nil, ptr(false), "", false, `{"v":1,"allNodes":false}`},
		{"both", ptr(""), ptr(false), "", false, `{"v":1,"nodeName":"","allNodes":false}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := &hub.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: "s"},
				Spec: hub.ResourceSliceSpec{Driver: "d", NodeName: tc.nodeName, AllNodes: tc.allNodes}}
			v := &resourcev1beta1.ResourceSlice{}
			convert(t, scheme, in, v)
			if v.Spec.NodeName != tc.wantName || v.Spec.AllNodes != tc.wantAll {
				t.Errorf("nodeName %q, allNodes %v; want %q, %v", v.Spec.NodeName, v.Spec.AllNodes, tc.wantName, tc.wantAll)
			}
			if got := stashOf(t, v); got != tc.wantStash {
				t.Errorf("stash:\n got %s\nwant %s", got, tc.wantStash)
			}
			back := &hub.ResourceSlice{}
			convert(t, scheme, v, back)
			if diff := cmp.Diff(in, back); diff != "" {
				t.Errorf("round trip (-in +back):\n%s", diff)
			}

			edited := v.DeepCopy()
			edited.Spec.NodeName, edited.Spec.AllNodes = "node-2", true
			back = &hub.ResourceSlice{}
			convert(t, scheme, edited, back)
			if back.Spec.NodeName == nil || *back.Spec.NodeName != "node-2" || back.Spec.AllNodes == nil || !*back.Spec.AllNodes {
				t.Errorf("edited: nodeName %v, allNodes %v; want node-2, true", back.Spec.NodeName, back.Spec.AllNodes)
			}
		})
	}
}
