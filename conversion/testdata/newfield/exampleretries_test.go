package conversion

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	hub "github.com/drakit/drakit/apis/resource"
)

// TestExampleRetries is the test of the made-up claim field of
// newfield_example_test.go, ExactDeviceRequest.ExampleRetries, which no
// version can say: a claim and a template with it in two of three requests
// (one of them an exactly with nothing else, which v1beta1's flat request
// shows as no exact request) come back from every version, over the wire,
// with the field where it was, and the version's stash is what carried it.
// The example builds this file into the package with go test -overlay.
func TestExampleRetries(t *testing.T) {
	spec := func() hub.ResourceClaimSpec {
		return hub.ResourceClaimSpec{Devices: hub.DeviceClaim{Requests: []hub.DeviceRequest{
			{Name: "gpu", Exactly: &hub.ExactDeviceRequest{DeviceClassName: "gpu.example.com",
				AllocationMode: hub.DeviceAllocationModeExactCount, Count: 1, ExampleRetries: 3}},
			{Name: "nic", Exactly: &hub.ExactDeviceRequest{DeviceClassName: "nic.example.com",
				AllocationMode: hub.DeviceAllocationModeExactCount, Count: 1}},
			{Name: "bare", Exactly: &hub.ExactDeviceRequest{ExampleRetries: 5}},
		}}}
	}
	objects := []struct {
		kind string
		obj  func() runtime.Object
		spec func(runtime.Object) *hub.ResourceClaimSpec
	}{
		{"ResourceClaim", func() runtime.Object {
			return &hub.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: "trainer", Namespace: "ml"}, Spec: spec()}
		}, func(o runtime.Object) *hub.ResourceClaimSpec { return &o.(*hub.ResourceClaim).Spec }},
		{"ResourceClaimTemplate", func() runtime.Object {
			return &hub.ResourceClaimTemplate{ObjectMeta: metav1.ObjectMeta{Name: "trainer", Namespace: "ml"},
				Spec: hub.ResourceClaimTemplateSpec{Spec: spec()}}
		}, func(o runtime.Object) *hub.ResourceClaimSpec { return &o.(*hub.ResourceClaimTemplate).Spec.Spec }},
	}
	for _, o := range objects {
		versions := 0
		for _, gv := range Versions {
			kind, err := KindIn(o.kind, gv.Version)
			if err != nil {
				continue
			}
			versions++
			out, err := FromHub(o.obj(), gv.Version)
			if err != nil {
				t.Fatalf("%s %s: %v", o.kind, gv.Version, err)
			}
			m, _ := meta.Accessor(out)
			if stash := m.GetAnnotations()[hub.StashAnnotation]; !strings.Contains(stash, `"exampleRetries":3`) || !strings.Contains(stash, `"exampleRetries":5`) {
				t.Errorf("%s %s: the stash does not keep exampleRetries: %q", o.kind, gv.Version, stash)
			}
			wire := overTheWire(t, gv.WithKind(kind), out)
			wire.GetObjectKind().SetGroupVersionKind(gv.WithKind(kind))
			back, err := ToHub(wire)
			if err != nil {
				t.Fatalf("%s %s: back: %v", o.kind, gv.Version, err)
			}
			requests := o.spec(back).Devices.Requests
			retries := func(i int) int32 {
				if i >= len(requests) || requests[i].Exactly == nil {
					return -1
				}
				return requests[i].Exactly.ExampleRetries
			}
			if len(requests) != 3 || retries(0) != 3 || retries(1) != 0 || retries(2) != 5 {
				got, _ := json.Marshal(requests)
				t.Errorf("%s: %s does not carry exampleRetries: %s", o.kind, gv.Version, got)
			}
		}
		if versions < 6 {
			t.Fatalf("%s in %d versions, want 6", o.kind, versions)
		}
	}
}
