package resource

import "k8s.io/apimachinery/pkg/runtime"

// The hub's defaults are the defaults of the versions, each in its hub home:
// what the API server of each release fills in before it stores an object.
// A hub object converted from any version's stored form is therefore
// defaulted, and conversion keeps such objects exact in both directions
// (docs/conversion.md, "Defaults"). SetObjectDefaults gives a hub object
// built by hand the same form.

// SetDefaults_ResourceClaimSpec fills in a claim spec what the servers fill
// in: the legacy allocation mode WaitForFirstConsumer, as v1alpha1 and
// v1alpha2 default it (v1alpha3, which has no such field, allocates when a
// pod needs the claim, as WaitForFirstConsumer did), and the defaults of
// every request (SetDefaults_DeviceRequest).
func SetDefaults_ResourceClaimSpec(spec *ResourceClaimSpec) {
	if spec.AllocationMode == "" {
		spec.AllocationMode = AllocationModeWaitForFirstConsumer
	}
	for i := range spec.Devices.Requests {
		SetDefaults_DeviceRequest(&spec.Devices.Requests[i])
	}
}

// SetDefaults_DeviceRequest fills in a request's allocation mode and count
// as v1alpha3 defaults them: an empty mode becomes ExactCount, and an
// ExactCount request without a count asks for one device.
func SetDefaults_DeviceRequest(r *DeviceRequest) {
	if r.AllocationMode == "" {
		r.AllocationMode = DeviceAllocationModeExactCount
	}
	if r.AllocationMode == DeviceAllocationModeExactCount && r.Count == 0 {
		r.Count = 1
	}
}

// SetObjectDefaults applies the hub's defaults to obj when it is a
// ResourceClaim, a ResourceClaimTemplate or a list of them; the other kinds
// have no defaults.
func SetObjectDefaults(obj runtime.Object) {
	switch o := obj.(type) {
	case *ResourceClaim:
		SetDefaults_ResourceClaimSpec(&o.Spec)
	case *ResourceClaimList:
		for i := range o.Items {
			SetDefaults_ResourceClaimSpec(&o.Items[i].Spec)
		}
	case *ResourceClaimTemplate:
		SetDefaults_ResourceClaimSpec(&o.Spec.Spec)
	case *ResourceClaimTemplateList:
		for i := range o.Items {
			SetDefaults_ResourceClaimSpec(&o.Items[i].Spec.Spec)
		}
	}
}
