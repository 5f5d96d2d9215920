package validation

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	resourcev1 "github.com/drakit/drakit/apis/resource/v1"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
	"github.com/drakit/drakit/apis/resource/v1beta1"
	"github.com/drakit/drakit/apis/resource/v1beta2"
)

// A v1beta1 or v1beta2 claim is validated in its v1 shape, as the 1.37
// server does: the errors are v1's, with v1's paths.
func TestV1betaClaimsValidatedAsV1(t *testing.T) {
	meta := metav1.ObjectMeta{Name: "c", Namespace: "default"}
	v1claim := &resourcev1.ResourceClaim{ObjectMeta: meta, Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{
		Requests: []resourcev1.DeviceRequest{{Name: "gpu", Exactly: &resourcev1.ExactDeviceRequest{AllocationMode: resourcev1.DeviceAllocationModeAll, Count: 2}}},
	}}}
	want := ValidateObject(v1claim, Options{})
	if len(want) == 0 {
		t.Fatal("the v1 claim should be invalid (no class, All with a count)")
	}
	b2 := &v1beta2.ResourceClaim{ObjectMeta: meta, Spec: v1beta2.ResourceClaimSpec{Devices: v1beta2.DeviceClaim{
		Requests: []v1beta2.DeviceRequest{{Name: "gpu", Exactly: &v1beta2.ExactDeviceRequest{AllocationMode: v1beta2.DeviceAllocationModeAll, Count: 2}}},
	}}}
	b1 := &v1beta1.ResourceClaim{ObjectMeta: meta, Spec: v1beta1.ResourceClaimSpec{Devices: v1beta1.DeviceClaim{
		Requests: []v1beta1.DeviceRequest{{Name: "gpu", AllocationMode: v1beta1.DeviceAllocationModeAll, Count: 2}},
	}}}
	for name, obj := range map[string]object{"v1beta2": b2, "v1beta1": b1} {
		got := ValidateObject(obj, Options{})
		if len(got) != len(want) {
			t.Fatalf("%s: %v, want %v", name, got, want)
		}
		for i := range got {
			if got[i].Type != want[i].Type || got[i].Field != want[i].Field {
				t.Errorf("%s: error %d is %s %s, want %s %s", name, i, got[i].Type, got[i].Field, want[i].Type, want[i].Field)
			}
		}
	}
}

func TestResourcePoolStatusRequestV1alpha3(t *testing.T) {
	valid := &v1alpha3.ResourcePoolStatusRequest{ObjectMeta: metav1.ObjectMeta{Name: "r"}, Spec: v1alpha3.ResourcePoolStatusRequestSpec{Driver: "gpu.example.com"}}
	if errs := ValidateObject(valid, Options{}); len(errs) != 0 {
		t.Fatalf("valid request: %v", errs)
	}
	// A missing driver is only Required: the format is not checked on it.
	noDriver := valid.DeepCopy()
	noDriver.Spec.Driver = ""
	expectErrors(t, ValidateObject(noDriver, Options{}), "Required spec.driver")
	badDriver := valid.DeepCopy()
	badDriver.Spec.Driver = "GPU_example"
	expectErrors(t, ValidateObject(badDriver, Options{}), "Invalid spec.driver")

	bad := valid.DeepCopy()
	bad.Spec.Limit = ptr(int32(0))
	bad.Spec.PoolName = ptr("Bad_Pool")
	bad.Spec.Driver = ""
	errs := ValidateObject(bad, Options{})
	for _, want := range []string{"spec.driver", "spec.poolName", "spec.limit"} {
		found := false
		for _, e := range errs {
			found = found || e.Field == want
		}
		if !found {
			t.Errorf("no error on %s: %v", want, errs)
		}
	}

	stored := valid.DeepCopy()
	stored.ResourceVersion = "1"
	stored.Status = &v1alpha3.ResourcePoolStatusRequestStatus{PoolCount: ptr(int32(1))}
	changed := stored.DeepCopy()
	changed.Status.PoolCount = ptr(int32(2))
	if errs := ValidateObjectStatusUpdate(changed, stored, Options{}); len(errs) != 1 || errs[0].Field != "status" {
		t.Errorf("a written status changed: %v, want one error on status", errs)
	}
	first := valid.DeepCopy()
	first.ResourceVersion = "1"
	withStatus := first.DeepCopy()
	withStatus.Status = &v1alpha3.ResourcePoolStatusRequestStatus{PoolCount: ptr(int32(1))}
	if errs := ValidateObjectStatusUpdate(withStatus, first, Options{}); len(errs) != 0 {
		t.Errorf("the first status: %v", errs)
	}
}
