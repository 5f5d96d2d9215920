package v1alpha3

import (
	"k8s.io/apimachinery/pkg/runtime"
)

func addDefaultingFuncs(scheme *runtime.Scheme) error {
	return RegisterDefaults(scheme)
}

// SetDefaults_DeviceRequest fills in the allocation mode and count of a
// request: an empty mode becomes ExactCount, and an ExactCount request
// without a count asks for one device.
func SetDefaults_DeviceRequest(obj *DeviceRequest) {
	if obj.AllocationMode == "" {
		obj.AllocationMode = DeviceAllocationModeExactCount
	}

	if obj.AllocationMode == DeviceAllocationModeExactCount && obj.Count == 0 {
		obj.Count = 1
	}
}
