package validation

import (
	"testing"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/api/resource/v1alpha3"
	"k8s.io/api/resource/v1beta1"
	"k8s.io/api/resource/v1beta2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// A v1beta1 object is defaulted with v1beta1's functions before it is
// converted, and v1's do not run after the conversion: since 1.33 a
// v1beta1 request without deviceClassName keeps its empty allocationMode,
// which the server then refuses too. v1beta2 keeps v1's defaults, which
// give the same request ExactCount. The stored object of an update is
// defaulted the same way (else an unchanged spec would look changed).
func TestVersionDefaultsBeforeConversion(t *testing.T) {
	meta := metav1.ObjectMeta{Name: "c", Namespace: "default", ResourceVersion: "1"}
	b1Claim := func(reqs ...v1beta1.DeviceRequest) *v1beta1.ResourceClaim {
		return &v1beta1.ResourceClaim{ObjectMeta: meta, Spec: v1beta1.ResourceClaimSpec{Devices: v1beta1.DeviceClaim{Requests: reqs}}}
	}
	noClass := b1Claim(v1beta1.DeviceRequest{Name: "gpu", Count: 1})
	withClass := b1Claim(v1beta1.DeviceRequest{Name: "gpu", DeviceClassName: "gpu.example.com",
		Tolerations: []v1beta1.DeviceToleration{{Key: "example.com/dirty"}}})
	subRequests := b1Claim(v1beta1.DeviceRequest{Name: "gpu", FirstAvailable: []v1beta1.DeviceSubRequest{
		{Name: "big", DeviceClassName: "gpu.example.com"},
	}})
	b2NoClass := &v1beta2.ResourceClaim{ObjectMeta: meta, Spec: v1beta2.ResourceClaimSpec{Devices: v1beta2.DeviceClaim{
		Requests: []v1beta2.DeviceRequest{{Name: "gpu", Exactly: &v1beta2.ExactDeviceRequest{Count: 1}}},
	}}}
	v1WithClass := &resourcev1.ResourceClaim{ObjectMeta: meta, Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{
		Requests: []resourcev1.DeviceRequest{{Name: "gpu", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu.example.com"}}},
	}}}
	template := &v1beta1.ResourceClaimTemplate{ObjectMeta: meta, Spec: v1beta1.ResourceClaimTemplateSpec{Spec: noClass.Spec}}
	slice := &v1beta1.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: "s"}, Spec: v1beta1.ResourceSliceSpec{
		Driver: "gpu.example.com", Pool: v1beta1.ResourcePool{Name: "p", ResourceSliceCount: 1}, AllNodes: true,
		Devices: []v1beta1.Device{{Name: "d", Basic: &v1beta1.BasicDevice{
			Taints: []v1beta1.DeviceTaint{{Key: "example.com/dirty", Effect: v1beta1.DeviceTaintEffectNoSchedule}},
		}}},
	}}
	runCases(t, []ruleCase{
		{name: "v1beta1 request without class keeps an empty mode", obj: noClass,
			want: []string{"NotSupported spec.devices.requests[0].exactly.allocationMode", "Required spec.devices.requests[0].exactly.deviceClassName"}},
		{name: "v1beta1 template: the same", obj: template,
			want: []string{"NotSupported spec.spec.devices.requests[0].exactly.allocationMode", "Required spec.spec.devices.requests[0].exactly.deviceClassName"}},
		{name: "v1beta2 request without class gets ExactCount", obj: b2NoClass,
			want: []string{"Required spec.devices.requests[0].exactly.deviceClassName"}},
		{name: "v1beta1 request with class: mode, count and toleration operator defaulted", obj: withClass},
		{name: "v1beta1 sub-request defaulted", obj: subRequests},
		{name: "v1beta1 slice taint gets timeAdded", obj: slice},
		{name: "v1beta1 update: the stored object is defaulted too", op: opUpdate, obj: withClass, old: withClass},
		{name: "v1 is still defaulted with v1's functions", obj: v1WithClass},
	})
	if r := noClass.Spec.Devices.Requests[0]; r.AllocationMode != "" || withClass.Spec.Devices.Requests[0].AllocationMode != "" {
		t.Errorf("the caller's v1beta1 objects were defaulted in place: %+v", r)
	}
}
