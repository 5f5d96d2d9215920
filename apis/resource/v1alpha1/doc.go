// +k8s:deepcopy-gen=package
// +k8s:conversion-gen=github.com/drakit/drakit/apis/resource
// +k8s:defaulter-gen=TypeMeta
// +k8s:openapi-gen=true
// +groupName=resource.k8s.io

// Package v1alpha1 holds the resource.k8s.io/v1alpha1 API types, the first
// alpha shape of Dynamic Resource Allocation as served by Kubernetes 1.26:
// ResourceClass, ResourceClaim, ResourceClaimTemplate and PodScheduling.
package v1alpha1
