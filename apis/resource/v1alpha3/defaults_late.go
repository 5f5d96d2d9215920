package v1alpha3

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Defaults of the kinds v1alpha3 gained after 1.31 (DeviceTaintRule and
// ResourcePoolStatusRequest).

// SetDefaults_DeviceTaint stamps a taint without timeAdded with the
// current time, to the second.
func SetDefaults_DeviceTaint(obj *DeviceTaint) {
	if obj.TimeAdded == nil {
		now := metav1.NewTime(time.Now().Truncate(time.Second))
		obj.TimeAdded = &now
	}
}

// SetDefaults_ResourcePoolStatusRequestSpec gives a request without a
// limit the default limit of 100 pools.
func SetDefaults_ResourcePoolStatusRequestSpec(obj *ResourcePoolStatusRequestSpec) {
	if obj.Limit == nil {
		limit := ResourcePoolStatusRequestLimitDefault
		obj.Limit = &limit
	}
}
