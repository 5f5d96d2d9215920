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
// v1alpha2 default it (the later versions, which have no such field,
// allocate when a pod needs the claim, as WaitForFirstConsumer did), and the
// defaults of every request.
func SetDefaults_ResourceClaimSpec(spec *ResourceClaimSpec) {
	if spec.AllocationMode == "" {
		spec.AllocationMode = AllocationModeWaitForFirstConsumer
	}
	for i := range spec.Devices.Requests {
		r := &spec.Devices.Requests[i]
		if r.Exactly != nil {
			SetDefaults_ExactDeviceRequest(r.Exactly)
		}
		for j := range r.FirstAvailable {
			SetDefaults_DeviceSubRequest(&r.FirstAvailable[j])
		}
	}
}

// SetDefaults_ResourceClaimStatus gives the tolerations of allocation
// results their default operator, as the v1-era versions do.
func SetDefaults_ResourceClaimStatus(status *ResourceClaimStatus) {
	if status.Allocation == nil {
		return
	}
	for i := range status.Allocation.Devices.Results {
		setDefaultTolerations(status.Allocation.Devices.Results[i].Tolerations)
	}
}

// SetDefaults_ExactDeviceRequest fills in an exact request's allocation mode
// and count as every version defaults them (v1alpha3's flat request, v1beta1's
// request with a class, v1beta2's and v1's exactly): an empty mode becomes
// ExactCount, and an ExactCount request without a count asks for one device.
// Its tolerations get the operator Equal when they name none.
func SetDefaults_ExactDeviceRequest(r *ExactDeviceRequest) {
	if r.AllocationMode == "" {
		r.AllocationMode = DeviceAllocationModeExactCount
	}
	if r.AllocationMode == DeviceAllocationModeExactCount && r.Count == 0 {
		r.Count = 1
	}
	setDefaultTolerations(r.Tolerations)
}

// SetDefaults_DeviceSubRequest is SetDefaults_ExactDeviceRequest for one
// alternative of firstAvailable.
func SetDefaults_DeviceSubRequest(r *DeviceSubRequest) {
	if r.AllocationMode == "" {
		r.AllocationMode = DeviceAllocationModeExactCount
	}
	if r.AllocationMode == DeviceAllocationModeExactCount && r.Count == 0 {
		r.Count = 1
	}
	setDefaultTolerations(r.Tolerations)
}

func setDefaultTolerations(ts []DeviceToleration) {
	for i := range ts {
		if ts[i].Operator == "" {
			ts[i].Operator = DeviceTolerationOpEqual
		}
	}
}

// The servers of 1.33 and later also set a device taint's timeAdded to the
// time of the request when it is missing. That default depends on the
// clock, not on the object, so the hub leaves it to the versions' own
// defaulting, which conversion runs where it applies.

// SetObjectDefaults applies the hub's defaults to obj when it is a
// ResourceClaim, a ResourceClaimTemplate or a list of them; the other kinds
// have no defaults.
func SetObjectDefaults(obj runtime.Object) {
	switch o := obj.(type) {
	case *ResourceClaim:
		SetDefaults_ResourceClaimSpec(&o.Spec)
		SetDefaults_ResourceClaimStatus(&o.Status)
	case *ResourceClaimList:
		for i := range o.Items {
			SetDefaults_ResourceClaimSpec(&o.Items[i].Spec)
			SetDefaults_ResourceClaimStatus(&o.Items[i].Status)
		}
	case *ResourceClaimTemplate:
		SetDefaults_ResourceClaimSpec(&o.Spec.Spec)
	case *ResourceClaimTemplateList:
		for i := range o.Items {
			SetDefaults_ResourceClaimSpec(&o.Items[i].Spec.Spec)
		}
	}
}
