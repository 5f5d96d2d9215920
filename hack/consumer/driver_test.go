package consumer

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	resourcev1beta1 "k8s.io/api/resource/v1beta1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource/validation"
	"github.com/drakit/drakit/conversion"
)

// TestInformerObjects is a driver as drivers are written: client-go's
// informers hand out k8s.io/api's resource.k8s.io/v1 objects, and drakit's
// validator, converter and allocator take exactly those, with no
// conversion of the driver's own, and give k8s.io/api objects back.
func TestInformerObjects(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cs := kubefake.NewClientset()
	slice := &resourcev1.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "node-1-gpus"},
		Spec: resourcev1.ResourceSliceSpec{
			Driver:   driver,
			NodeName: ptr.To("node-1"),
			Pool:     resourcev1.ResourcePool{Name: "node-1", Generation: 1, ResourceSliceCount: 1},
			Devices: []resourcev1.Device{{
				Name:       "gpu-0",
				Attributes: map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{"model": {StringValue: ptr.To("a100")}},
				Capacity:   map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{"memory": {Value: apiresource.MustParse("40Gi")}},
			}},
		},
	}
	// Validate before publishing, as a driver would.
	if errs := validation.ValidateObject(slice, validation.Options{}); len(errs) != 0 {
		t.Fatalf("ValidateObject of a valid v1 slice: %v", errs)
	}
	bad := slice.DeepCopy()
	bad.Spec.Driver = "Not A Driver"
	if errs := validation.ValidateObject(bad, validation.Options{}); len(errs) == 0 {
		t.Fatalf("ValidateObject accepted the driver name %q", bad.Spec.Driver)
	}
	class := &resourcev1.DeviceClass{
		ObjectMeta: metav1.ObjectMeta{Name: "gpu"},
		Spec: resourcev1.DeviceClassSpec{Selectors: []resourcev1.DeviceSelector{{
			CEL: &resourcev1.CELDeviceSelector{Expression: `device.driver == "` + driver + `"`},
		}}},
	}
	claim := &resourcev1.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "claim", Namespace: "default"},
		Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{{
			Name: "gpu", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu", AllocationMode: resourcev1.DeviceAllocationModeExactCount, Count: 1},
		}}}},
	}
	for _, obj := range []runtime.Object{slice, class} {
		var err error
		switch o := obj.(type) {
		case *resourcev1.ResourceSlice:
			_, err = cs.ResourceV1().ResourceSlices().Create(ctx, o, metav1.CreateOptions{})
		case *resourcev1.DeviceClass:
			_, err = cs.ResourceV1().DeviceClasses().Create(ctx, o, metav1.CreateOptions{})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cs.ResourceV1().ResourceClaims("default").Create(ctx, claim, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	factory := informers.NewSharedInformerFactory(cs, 0)
	slices := factory.Resource().V1().ResourceSlices().Lister()
	classes := factory.Resource().V1().DeviceClasses().Lister()
	claims := factory.Resource().V1().ResourceClaims().Lister()
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("cache of %v did not sync", typ)
		}
	}
	cachedSlices, _ := slices.List(labels.Everything())
	cachedClasses, _ := classes.List(labels.Everything())
	cachedClaims, _ := claims.List(labels.Everything())
	if len(cachedSlices) != 1 || len(cachedClasses) != 1 || len(cachedClaims) != 1 {
		t.Fatalf("informers hold %d slices, %d classes, %d claims; want one each", len(cachedSlices), len(cachedClasses), len(cachedClaims))
	}

	// Allocate the informer's objects as they are (TypeMeta empty).
	var objs []runtime.Object
	objs = append(objs, cachedSlices[0], cachedClasses[0], cachedClaims[0])
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}
	results, err := allocator.AllocateObjects(ctx, objs, allocator.ObjectOptions{Node: node})
	if err != nil {
		t.Fatalf("AllocateObjects: %v", err)
	}
	if len(results) != 1 || results[0].Err != nil {
		t.Fatalf("AllocateObjects results = %+v, want one allocated claim", results)
	}
	allocated, ok := results[0].Claim.(*resourcev1.ResourceClaim)
	if !ok {
		t.Fatalf("AllocateObjects gave the claim back as %T, want *resourcev1.ResourceClaim", results[0].Claim)
	}
	if a := allocated.Status.Allocation; a == nil || len(a.Devices.Results) != 1 || a.Devices.Results[0].Device != "gpu-0" {
		t.Fatalf("allocation = %+v, want gpu-0", allocated.Status.Allocation)
	}
	if errs := validation.ValidateObjectStatusUpdate(allocated, cachedClaims[0], validation.Options{}); len(errs) != 0 {
		t.Errorf("the allocation as a status update: %v", errs)
	}

	// Convert for an older cluster and back, k8s.io/api types both ways.
	old, err := conversion.Convert(allocated, resourcev1beta1.SchemeGroupVersion)
	if err != nil {
		t.Fatalf("Convert to v1beta1: %v", err)
	}
	if _, ok := old.(*resourcev1beta1.ResourceClaim); !ok {
		t.Fatalf("Convert to v1beta1 gave %T, want *resourcev1beta1.ResourceClaim", old)
	}
	back, err := conversion.Convert(old, resourcev1.SchemeGroupVersion)
	if err != nil {
		t.Fatalf("Convert back to v1: %v", err)
	}
	if got := back.(*resourcev1.ResourceClaim); got.Status.Allocation.Devices.Results[0].Device != "gpu-0" {
		t.Errorf("the round trip lost the allocation: %+v", got.Status)
	}
}
