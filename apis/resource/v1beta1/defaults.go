package v1beta1

import (
	"time"

	resourcev1beta1 "k8s.io/api/resource/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func addDefaultingFuncs(scheme *runtime.Scheme) error {
	return RegisterDefaults(scheme)
}

// SetDefaults_DeviceRequest fills in the allocation mode and count of a
// request that names a device class: an empty mode becomes ExactCount,
// and an ExactCount request without a count asks for one device. A request
// without deviceClassName (one that lists firstAvailable sub-requests) is
// left alone, as servers do from 1.33 on.
func SetDefaults_DeviceRequest(obj *resourcev1beta1.DeviceRequest) {
	if obj.DeviceClassName == "" {
		return
	}
	if obj.AllocationMode == "" {
		obj.AllocationMode = resourcev1beta1.DeviceAllocationModeExactCount
	}
	if obj.AllocationMode == resourcev1beta1.DeviceAllocationModeExactCount && obj.Count == 0 {
		obj.Count = 1
	}
}

// SetDefaults_DeviceSubRequest applies the same rule to each entry of a
// request's firstAvailable list: an empty mode becomes ExactCount, and an
// ExactCount sub-request without a count asks for one device.
func SetDefaults_DeviceSubRequest(obj *resourcev1beta1.DeviceSubRequest) {
	if obj.AllocationMode == "" {
		obj.AllocationMode = resourcev1beta1.DeviceAllocationModeExactCount
	}
	if obj.AllocationMode == resourcev1beta1.DeviceAllocationModeExactCount && obj.Count == 0 {
		obj.Count = 1
	}
}

// SetDefaults_DeviceTaint stamps a taint that has no timeAdded with the
// current time, to the second.
func SetDefaults_DeviceTaint(obj *resourcev1beta1.DeviceTaint) {
	if obj.TimeAdded == nil {
		obj.TimeAdded = &metav1.Time{Time: time.Now().Truncate(time.Second)}
	}
}
