package kubeapi

import (
	"time"

	resourcev1alpha3 "k8s.io/api/resource/v1alpha3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func addDefaultingFuncs(scheme *runtime.Scheme) error {
	return RegisterDefaults(scheme)
}

// SetDefaults_DeviceTaint stamps a taint without timeAdded with the
// current time, to the second.
func SetDefaults_DeviceTaint(obj *resourcev1alpha3.DeviceTaint) {
	if obj.TimeAdded == nil {
		now := metav1.NewTime(time.Now().Truncate(time.Second))
		obj.TimeAdded = &now
	}
}

// SetDefaults_ResourcePoolStatusRequestSpec gives a request without a
// limit the default limit of 100 pools.
func SetDefaults_ResourcePoolStatusRequestSpec(obj *resourcev1alpha3.ResourcePoolStatusRequestSpec) {
	if obj.Limit == nil {
		limit := resourcev1alpha3.ResourcePoolStatusRequestLimitDefault
		obj.Limit = &limit
	}
}
