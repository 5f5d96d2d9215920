package v1beta1_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	resourcev1beta1 "k8s.io/api/resource/v1beta1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/v1beta1"
	"github.com/drakit/drakit/internal/apitest"
)

// conversionScheme has the hub and this version, and nothing else.
func conversionScheme(t testing.TB) *runtime.Scheme {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := hub.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := v1beta1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	return scheme
}

// convertKinds are the kinds of this version with their hub kinds.
var convertKinds = map[string]struct{ version, hub func() runtime.Object }{
	"DeviceClass":               {func() runtime.Object { return &resourcev1beta1.DeviceClass{} }, func() runtime.Object { return &hub.DeviceClass{} }},
	"DeviceClassList":           {func() runtime.Object { return &resourcev1beta1.DeviceClassList{} }, func() runtime.Object { return &hub.DeviceClassList{} }},
	"ResourceClaim":             {func() runtime.Object { return &resourcev1beta1.ResourceClaim{} }, func() runtime.Object { return &hub.ResourceClaim{} }},
	"ResourceClaimList":         {func() runtime.Object { return &resourcev1beta1.ResourceClaimList{} }, func() runtime.Object { return &hub.ResourceClaimList{} }},
	"ResourceClaimTemplate":     {func() runtime.Object { return &resourcev1beta1.ResourceClaimTemplate{} }, func() runtime.Object { return &hub.ResourceClaimTemplate{} }},
	"ResourceClaimTemplateList": {func() runtime.Object { return &resourcev1beta1.ResourceClaimTemplateList{} }, func() runtime.Object { return &hub.ResourceClaimTemplateList{} }},
	"ResourceSlice":             {func() runtime.Object { return &resourcev1beta1.ResourceSlice{} }, func() runtime.Object { return &hub.ResourceSlice{} }},
	"ResourceSliceList":         {func() runtime.Object { return &resourcev1beta1.ResourceSliceList{} }, func() runtime.Object { return &hub.ResourceSliceList{} }},
}

// convert converts in into out and fails the test on an error. It also
// requires that in is unchanged afterwards.
func convert(t *testing.T, scheme *runtime.Scheme, in, out runtime.Object) {
	t.Helper()
	before := in.DeepCopyObject()
	if err := scheme.Convert(in, out, nil); err != nil {
		t.Fatalf("converting %T to %T: %v", in, out, err)
	}
	if diff := cmp.Diff(before, in); diff != "" {
		t.Fatalf("converting %T changed its input (-before +after):\n%s", in, diff)
	}
}

// filled returns obj with every field set (apitest.Fill) but apiVersion
// and kind, which conversion leaves to the caller, in the object and in
// the items of a list.
func filled(t *testing.T, obj runtime.Object) runtime.Object {
	t.Helper()
	apitest.Fill(obj)
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	if meta.IsListType(obj) {
		if err := meta.EachListItem(obj, func(item runtime.Object) error {
			item.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	return obj
}

// stashOf returns the stash annotation of obj's metadata, or "".
func stashOf(t *testing.T, obj runtime.Object) string {
	t.Helper()
	var annotations map[string]string
	switch o := obj.(type) {
	case metav1.Object:
		annotations = o.GetAnnotations()
	case metav1.ListInterface:
		return "" // lists: the items carry the stash
	}
	return annotations[hub.StashAnnotation]
}

// TestFilledToHubAndBack converts objects with every field set to the hub
// and back: they come back unchanged and without a stash.
func TestFilledToHubAndBack(t *testing.T) {
	scheme := conversionScheme(t)
	for name, k := range convertKinds {
		t.Run(name, func(t *testing.T) {
			in := filled(t, k.version())
			h := k.hub()
			convert(t, scheme, in, h)
			back := k.version()
			convert(t, scheme, h, back)
			if s := stashOf(t, back); s != "" {
				t.Errorf("a stash was written: %s", s)
			}
			if diff := cmp.Diff(in, back); diff != "" {
				t.Errorf("round trip changed the object (-in +back):\n%s", diff)
			}
		})
	}
}

// TestFilledHubThroughVersion converts hub objects with every field set,
// the legacy fields included, to this version and back: the legacy fields
// travel in the stash and come back unchanged, and so do the fields that
// v1beta1 says in other places.
func TestFilledHubThroughVersion(t *testing.T) {
	scheme := conversionScheme(t)
	for name, k := range convertKinds {
		t.Run(name, func(t *testing.T) {
			in := filled(t, k.hub())
			v := k.version()
			convert(t, scheme, in, v)
			back := k.hub()
			convert(t, scheme, v, back)
			if diff := cmp.Diff(in, back); diff != "" {
				t.Errorf("round trip changed the object (-in +back):\n%s", diff)
			}
		})
	}
}

// claimWith returns a hub claim whose spec and status are what set makes
// of them, defaulted as the hub defaults.
func claimWith(set func(*hub.ResourceClaim)) *hub.ResourceClaim {
	c := &hub.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "claim", Namespace: "ns", Annotations: map[string]string{"a": "b"}},
		Spec: hub.ResourceClaimSpec{Devices: hub.DeviceClaim{Requests: []hub.DeviceRequest{
			{Name: "gpu", Exactly: &hub.ExactDeviceRequest{DeviceClassName: "gpu.example.com"}},
		}}},
	}
	set(c)
	hub.SetObjectDefaults(c)
	return c
}

// structuredHandles are the handles of an allocation that 1.30's scheduler
// made from named resources.
func structuredHandles() []hub.ResourceHandle {
	return []hub.ResourceHandle{
		{DriverName: "gpu.example.com", StructuredData: &hub.StructuredResourceHandle{NodeName: "node-1", Results: []hub.DriverAllocationResult{
			{AllocationResultModel: hub.AllocationResultModel{NamedResources: &hub.NamedResourcesAllocationResult{Name: "gpu-0"}}},
			{AllocationResultModel: hub.AllocationResultModel{NamedResources: &hub.NamedResourcesAllocationResult{Name: "gpu-1"}}},
		}}},
		{DriverName: "nic.example.com", Data: "opaque"},
	}
}

// TestLegacyClaimFields sends hub claims with one legacy field each through
// this version: each needs the stash, except the hub's default allocation
// mode, and comes back unchanged.
func TestLegacyClaimFields(t *testing.T) {
	scheme := conversionScheme(t)
	allocated := func(c *hub.ResourceClaim) *hub.AllocationResult {
		c.Status.Allocation = &hub.AllocationResult{Devices: hub.DeviceAllocationResult{Results: []hub.DeviceRequestAllocationResult{
			{Request: "gpu", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"},
		}}}
		return c.Status.Allocation
	}
	for _, tc := range []struct {
		name      string
		set       func(*hub.ResourceClaim)
		wantStash string
	}{
		{"default allocation mode", func(c *hub.ResourceClaim) {}, ""},
		{"immediate", func(c *hub.ResourceClaim) { c.Spec.AllocationMode = hub.AllocationModeImmediate },
			`{"v":1,"spec":{"allocationMode":"Immediate"}}`},
		{"controller", func(c *hub.ResourceClaim) { c.Spec.Controller = "ctrl.example.com" },
			`{"v":1,"spec":{"controller":"ctrl.example.com"}}`},
		{"parametersRef", func(c *hub.ResourceClaim) {
			c.Spec.ParametersRef = &hub.ResourceClaimParametersReference{APIGroup: "g", Kind: "K", Name: "n"}
		}, `{"v":1,"spec":{"parametersRef":{"apiGroup":"g","kind":"K","name":"n"}}}`},
		{"driverName", func(c *hub.ResourceClaim) { c.Status.DriverName = "gpu.example.com" },
			`{"v":1,"status":{"driverName":"gpu.example.com"}}`},
		{"deallocationRequested", func(c *hub.ResourceClaim) { allocated(c); c.Status.DeallocationRequested = true },
			`{"v":1,"status":{"deallocationRequested":true}}`},
		{"allocation controller", func(c *hub.ResourceClaim) { allocated(c).Controller = "ctrl.example.com" },
			`{"v":1,"status":{"allocation":{"controller":"ctrl.example.com"}}}`},
		{"shareable", func(c *hub.ResourceClaim) { allocated(c).Shareable = true },
			`{"v":1,"status":{"allocation":{"shareable":true}}}`},
		{"no handles", func(c *hub.ResourceClaim) { allocated(c).ResourceHandles = []hub.ResourceHandle{} },
			`{"v":1,"status":{"allocation":{"resourceHandles":[]}}}`},
		{"opaque handles", func(c *hub.ResourceClaim) {
			allocated(c).ResourceHandles = []hub.ResourceHandle{{DriverName: "gpu.example.com", Data: "x"}}
		}, `{"v":1,"status":{"allocation":{"resourceHandles":[{"driverName":"gpu.example.com","data":"x"}]}}}`},
		{"structured handles and results", func(c *hub.ResourceClaim) { allocated(c).ResourceHandles = structuredHandles() }, ""},
		{"structured handles without results", func(c *hub.ResourceClaim) {
			c.Status.Allocation = &hub.AllocationResult{ResourceHandles: structuredHandles()}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := claimWith(tc.set)
			v := &resourcev1beta1.ResourceClaim{}
			convert(t, scheme, in, v)
			if tc.wantStash != "" {
				if got := stashOf(t, v); got != tc.wantStash {
					t.Errorf("stash:\n got %s\nwant %s", got, tc.wantStash)
				}
			} else if tc.name == "default allocation mode" && stashOf(t, v) != "" {
				t.Errorf("stash written for a claim without legacy fields: %s", stashOf(t, v))
			}
			if v.Annotations["a"] != "b" {
				t.Errorf("annotations lost: %v", v.Annotations)
			}
			back := &hub.ResourceClaim{}
			convert(t, scheme, v, back)
			if diff := cmp.Diff(in, back); diff != "" {
				t.Errorf("round trip changed the claim (-in +back):\n%s", diff)
			}
		})
	}
}

// TestUndefaultedAllocationMode: a hub claim without the legacy mode comes
// back with the hub's default, WaitForFirstConsumer, which is what it
// means.
func TestUndefaultedAllocationMode(t *testing.T) {
	scheme := conversionScheme(t)
	in := &hub.ResourceClaim{}
	v := &resourcev1beta1.ResourceClaim{}
	convert(t, scheme, in, v)
	if s := stashOf(t, v); s != "" {
		t.Errorf("stash written: %s", s)
	}
	back := &hub.ResourceClaim{}
	convert(t, scheme, v, back)
	if back.Spec.AllocationMode != hub.AllocationModeWaitForFirstConsumer {
		t.Errorf("allocationMode = %q, want WaitForFirstConsumer", back.Spec.AllocationMode)
	}
}

// TestDerivedResults: structured handles without device results show as
// results; unchanged, they go back to being the handles alone, and edited,
// the edit wins.
func TestDerivedResults(t *testing.T) {
	scheme := conversionScheme(t)
	in := claimWith(func(c *hub.ResourceClaim) {
		c.Status.Allocation = &hub.AllocationResult{ResourceHandles: structuredHandles()}
	})
	v := &resourcev1beta1.ResourceClaim{}
	convert(t, scheme, in, v)
	want := []resourcev1beta1.DeviceRequestAllocationResult{
		{Request: hub.LegacyRequestName, Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"},
		{Request: hub.LegacyRequestName, Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-1"},
	}
	if diff := cmp.Diff(want, v.Status.Allocation.Devices.Results); diff != "" {
		t.Errorf("results shown (-want +got):\n%s", diff)
	}
	if s := stashOf(t, v); !strings.Contains(s, `"derivedResults":true`) {
		t.Errorf("stash does not say the results are derived: %s", s)
	}

	edited := v.DeepCopy()
	edited.Status.Allocation.Devices.Results[1].Device = "gpu-7"
	back := &hub.ResourceClaim{}
	convert(t, scheme, edited, back)
	wantBack := in.DeepCopy()
	wantBack.Status.Allocation.Devices.Results = []hub.DeviceRequestAllocationResult{
		{Request: hub.LegacyRequestName, Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"},
		{Request: hub.LegacyRequestName, Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-7"},
	}
	if diff := cmp.Diff(wantBack, back); diff != "" {
		t.Errorf("edited results (-want +got):\n%s", diff)
	}

	// Without the allocation, the allocation's legacy fields are gone too,
	// but the status' are kept.
	removed := v.DeepCopy()
	removed.Status.Allocation = nil
	back = &hub.ResourceClaim{}
	convert(t, scheme, removed, back)
	if back.Status.Allocation != nil {
		t.Errorf("allocation came back: %+v", back.Status.Allocation)
	}
}

// TestLegacyClassFields sends a hub class with each legacy field through
// this version.
func TestLegacyClassFields(t *testing.T) {
	scheme := conversionScheme(t)
	for _, tc := range []struct {
		name string
		set  func(*hub.DeviceClassSpec)
	}{
		{"suitableNodes", func(s *hub.DeviceClassSpec) {
			s.SuitableNodes = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{
				{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"node-1"}}}}}}
		}},
		{"parametersRef", func(s *hub.DeviceClassSpec) {
			s.ParametersRef = &hub.ResourceClassParametersReference{Kind: "ConfigMap", Name: "p", Namespace: "ns"}
		}},
		{"structuredParameters false", func(s *hub.DeviceClassSpec) { s.StructuredParameters = ptr(false) }},
		{"structuredParameters true", func(s *hub.DeviceClassSpec) { s.StructuredParameters = ptr(true) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := &hub.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: "gpu"}, Spec: hub.DeviceClassSpec{
				Selectors: []hub.DeviceSelector{{CEL: &hub.CELDeviceSelector{Expression: "true"}}},
			}}
			tc.set(&in.Spec)
			v := &resourcev1beta1.DeviceClass{}
			convert(t, scheme, in, v)
			if stashOf(t, v) == "" {
				t.Error("no stash")
			}
			back := &hub.DeviceClass{}
			convert(t, scheme, v, back)
			if diff := cmp.Diff(in, back); diff != "" {
				t.Errorf("round trip changed the class (-in +back):\n%s", diff)
			}
		})
	}
}

// TestLegacySliceFields sends hub slices with noResourceModel and with
// v1alpha2 layouts through this version; a layout stays with its device.
func TestLegacySliceFields(t *testing.T) {
	scheme := conversionScheme(t)
	layout := &hub.NamedResourcesLayout{Order: []hub.QualifiedName{"b", "a"}, NullLists: []hub.QualifiedName{"a"}}
	in := &hub.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: "s"}, Spec: hub.ResourceSliceSpec{
		Driver: "gpu.example.com", Pool: hub.ResourcePool{Name: "p", ResourceSliceCount: 1}, NodeName: ptr("node-1"),
		NoResourceModel: true,
		Devices: []hub.Device{
			{Name: "gpu-0"},
			{Name: "gpu-1", Attributes: map[hub.QualifiedName]hub.DeviceAttribute{"a": {StringValues: []string{}}, "b": {IntValue: ptr(int64(1))}},
				NamedResources: layout},
		},
	}}
	v := &resourcev1beta1.ResourceSlice{}
	convert(t, scheme, in, v)
	if got, want := stashOf(t, v), `{"v":1,"devices":[{"index":1,"name":"gpu-1","attributes":{"a":{"strings":[]}},"namedResources":{"order":["b","a"],"nullLists":["a"]}}],"noResourceModel":true}`; got != want {
		t.Errorf("stash:\n got %s\nwant %s", got, want)
	}
	back := &hub.ResourceSlice{}
	convert(t, scheme, v, back)
	if diff := cmp.Diff(in, back); diff != "" {
		t.Errorf("round trip changed the slice (-in +back):\n%s", diff)
	}

	// Devices reordered: the layout is not given to another device.
	reordered := v.DeepCopy()
	reordered.Spec.Devices[0], reordered.Spec.Devices[1] = reordered.Spec.Devices[1], reordered.Spec.Devices[0]
	back = &hub.ResourceSlice{}
	convert(t, scheme, reordered, back)
	for _, d := range back.Spec.Devices {
		if d.NamedResources != nil {
			t.Errorf("device %s got a layout after reordering", d.Name)
		}
	}
}

// TestMalformedStash: a stash that cannot be read is a
// *resource.MalformedStashError naming the object.
func TestMalformedStash(t *testing.T) {
	scheme := conversionScheme(t)
	meta := metav1.ObjectMeta{Name: "obj", Namespace: "ns", Annotations: map[string]string{hub.StashAnnotation: `{"v":1,"spec":`}}
	for _, tc := range []struct {
		kind string
		in   runtime.Object
		out  runtime.Object
	}{
		{"DeviceClass", &resourcev1beta1.DeviceClass{ObjectMeta: meta}, &hub.DeviceClass{}},
		{"ResourceClaim", &resourcev1beta1.ResourceClaim{ObjectMeta: meta}, &hub.ResourceClaim{}},
		{"ResourceClaimTemplate", &resourcev1beta1.ResourceClaimTemplate{ObjectMeta: meta}, &hub.ResourceClaimTemplate{}},
		{"ResourceSlice", &resourcev1beta1.ResourceSlice{ObjectMeta: meta}, &hub.ResourceSlice{}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			err := scheme.Convert(tc.in, tc.out, nil)
			var malformed *hub.MalformedStashError
			if !errors.As(err, &malformed) {
				t.Fatalf("got %v, want a *resource.MalformedStashError", err)
			}
			if malformed.Kind != tc.kind || malformed.Namespace != "ns" || malformed.Name != "obj" {
				t.Errorf("error names %s %s/%s, want %s ns/obj", malformed.Kind, malformed.Namespace, malformed.Name, tc.kind)
			}
		})
	}
}

// TestStashIgnoresWhatVersionSays: a stash never overrides the version's
// own fields, even when it holds them.
func TestStashIgnoresWhatVersionSays(t *testing.T) {
	scheme := conversionScheme(t)
	in := &resourcev1beta1.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: "c", Annotations: map[string]string{
		hub.StashAnnotation: `{"v":1,"extendedResourceName":"example.com/gpu","structuredParameters":true}`,
	}}}
	out := &hub.DeviceClass{}
	convert(t, scheme, in, out)
	if out.Spec.ExtendedResourceName != nil {
		t.Errorf("extendedResourceName taken from the stash: %q", *out.Spec.ExtendedResourceName)
	}
	if out.Spec.StructuredParameters == nil || !*out.Spec.StructuredParameters {
		t.Errorf("structuredParameters not restored")
	}
	if out.Annotations != nil {
		t.Errorf("annotations left: %v", out.Annotations)
	}
}
