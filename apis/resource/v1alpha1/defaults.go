package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime"
)

func addDefaultingFuncs(scheme *runtime.Scheme) error {
	return RegisterDefaults(scheme)
}

// SetDefaults_ResourceClaimSpec fills in WaitForFirstConsumer when no
// allocation mode was given.
func SetDefaults_ResourceClaimSpec(obj *ResourceClaimSpec) {
	if obj.AllocationMode == "" {
		obj.AllocationMode = AllocationModeWaitForFirstConsumer
	}
}
