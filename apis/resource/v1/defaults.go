package v1

import (
	"time"

	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func addDefaultingFuncs(scheme *runtime.Scheme) error {
	return RegisterDefaults(scheme)
}

// SetDefaults_ExactDeviceRequest fills in the allocation mode and count of
// an exact request: an empty mode becomes ExactCount, and an ExactCount
// request without a count asks for one device. A request in All mode keeps
// its count.
func SetDefaults_ExactDeviceRequest(obj *resourcev1.ExactDeviceRequest) {
	if obj.AllocationMode == "" {
		obj.AllocationMode = resourcev1.DeviceAllocationModeExactCount
	}
	if obj.AllocationMode == resourcev1.DeviceAllocationModeExactCount && obj.Count == 0 {
		obj.Count = 1
	}
}

// SetDefaults_DeviceSubRequest applies the rule of
// SetDefaults_ExactDeviceRequest to one alternative of a firstAvailable
// list.
func SetDefaults_DeviceSubRequest(obj *resourcev1.DeviceSubRequest) {
	if obj.AllocationMode == "" {
		obj.AllocationMode = resourcev1.DeviceAllocationModeExactCount
	}
	if obj.AllocationMode == resourcev1.DeviceAllocationModeExactCount && obj.Count == 0 {
		obj.Count = 1
	}
}

// SetDefaults_DeviceTaint stamps a taint that has no timeAdded with the
// current time, truncated to whole seconds (the precision the wire keeps).
// It applies to the taints of ResourceSlice devices and to the taint of a
// DeviceTaintRule.
func SetDefaults_DeviceTaint(obj *resourcev1.DeviceTaint) {
	if obj.TimeAdded == nil {
		obj.TimeAdded = &metav1.Time{Time: time.Now().Truncate(time.Second)}
	}
}
