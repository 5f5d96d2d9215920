package conversion

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// unsortedSlice is a 1.30 node's slice of n devices, each with attrs
// integer attributes in reverse order: v1alpha3's maps cannot say the
// order, so converting it to v1alpha3 stashes every device's order of names.
func unsortedSlice(n, attrs int) *v1alpha2.ResourceSlice {
	s := &v1alpha2.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "node-1-gpu.example.com"},
		NodeName:   "node-1",
		DriverName: "gpu.example.com",
		ResourceModel: v1alpha2.ResourceModel{
			NamedResources: &v1alpha2.NamedResourcesResources{Instances: make([]v1alpha2.NamedResourcesInstance, n)},
		},
	}
	for i := range s.NamedResources.Instances {
		inst := &s.NamedResources.Instances[i]
		inst.Name = fmt.Sprintf("gpu-%d", i)
		for j := attrs - 1; j >= 0; j-- {
			v := int64(j)
			inst.Attributes = append(inst.Attributes, v1alpha2.NamedResourcesAttribute{
				Name:                         fmt.Sprintf("attribute-%02d", j),
				NamedResourcesAttributeValue: v1alpha2.NamedResourcesAttributeValue{IntValue: &v},
			})
		}
	}
	return s
}

// TestConvertRefusesStashPastAnnotationLimit: a conversion whose stash
// would take the object's annotations past the API server's limit fails
// with a *resource.StashTooLargeError that names the object, the
// annotation and the limit, instead of returning an object the server
// would refuse.
func TestConvertRefusesStashPastAnnotationLimit(t *testing.T) {
	requests := make([]v1alpha3.DeviceRequest, 1000)
	for i := range requests {
		requests[i] = v1alpha3.DeviceRequest{Name: fmt.Sprintf("gpu-%d", i), DeviceClassName: "gpu.example.com",
			AllocationMode: v1alpha3.DeviceAllocationModeExactCount, Count: 1,
			Selectors: []v1alpha3.DeviceSelector{{CEL: &v1alpha3.CELDeviceSelector{
				Expression: fmt.Sprintf(`device.attributes["gpu.example.com"].uuid == "GPU-%08d-%s"`, i, strings.Repeat("0", 200)),
			}}}}
	}
	claim := &v1alpha3.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "many-gpus", Namespace: "ml"},
		Spec:       v1alpha3.ResourceClaimSpec{Devices: v1alpha3.DeviceClaim{Requests: requests}},
	}
	for _, tc := range []struct {
		obj    runtime.Object
		to     string
		kind   string
		object string
	}{
		{unsortedSlice(512, 32), "v1alpha3", "ResourceSlice", `"node-1-gpu.example.com"`},
		{claim, "v1alpha1", "ResourceClaim", `"ml/many-gpus"`},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			_, err := Convert(tc.obj, gv(tc.to))
			var tooLarge *hub.StashTooLargeError
			if !errors.As(err, &tooLarge) {
				t.Fatalf("want a *resource.StashTooLargeError, got %v", err)
			}
			if tooLarge.Kind != tc.kind || tooLarge.Limit != 262144 || tooLarge.TotalSize <= 262144 {
				t.Errorf("got %+v", tooLarge)
			}
			for _, s := range []string{tc.kind + " " + tc.object, hub.StashAnnotation, "262144"} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not name %s", err, s)
				}
			}
		})
	}
}

// TestConvertStashUpToAnnotationLimit: a stash that takes the annotations
// to the limit exactly converts, and back; one byte more does not.
func TestConvertStashUpToAnnotationLimit(t *testing.T) {
	slice := unsortedSlice(256, 32)
	out, err := Convert(slice, gv("v1alpha3"))
	if err != nil {
		t.Fatal(err)
	}
	stash := out.(*v1alpha3.ResourceSlice).Annotations[hub.StashAnnotation]
	if len(stash) < 100000 {
		t.Fatalf("the stash holds %d bytes, want a large one", len(stash))
	}
	const pad = "example.com/notes"
	room := hub.TotalAnnotationSizeLimit - len(hub.StashAnnotation) - len(stash) - len(pad)
	for _, extra := range []int{0, 1} {
		in := slice.DeepCopy()
		in.Annotations = map[string]string{pad: strings.Repeat("x", room+extra)}
		out, err := Convert(in, gv("v1alpha3"))
		if extra == 1 {
			var tooLarge *hub.StashTooLargeError
			if !errors.As(err, &tooLarge) || tooLarge.TotalSize != hub.TotalAnnotationSizeLimit+1 {
				t.Fatalf("one byte past the limit: got %v, want a *resource.StashTooLargeError", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("at the limit: %v", err)
		}
		annotations := out.(*v1alpha3.ResourceSlice).Annotations
		if err := apivalidation.ValidateAnnotationsSize(annotations); err != nil {
			t.Errorf("the API server would refuse the converted slice: %v", err)
		}
		back, err := Convert(out, gv("v1alpha2"))
		if err != nil {
			t.Fatal(err)
		}
		clearTypeMeta(back)
		if d := diff(in, back); d != "" {
			t.Errorf("back in v1alpha2 (-in +back):\n%s", d)
		}
	}
}
