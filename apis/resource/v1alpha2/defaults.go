package v1alpha2

import (
	"k8s.io/apimachinery/pkg/runtime"
)

func addDefaultingFuncs(scheme *runtime.Scheme) error {
	return RegisterDefaults(scheme)
}

// SetDefaults_ResourceClaimSpec fills in the allocation mode when the client
// left it empty: claims wait for their first consumer by default.
func SetDefaults_ResourceClaimSpec(obj *ResourceClaimSpec) {
	if obj.AllocationMode == "" {
		obj.AllocationMode = AllocationModeWaitForFirstConsumer
	}
}
