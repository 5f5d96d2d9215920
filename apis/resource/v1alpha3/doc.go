// +k8s:deepcopy-gen=package
// +k8s:conversion-gen=github.com/drakit/drakit/apis/resource
// +k8s:defaulter-gen=TypeMeta
// +k8s:openapi-gen=true
// +groupName=resource.k8s.io

// Package v1alpha3 holds the resource.k8s.io/v1alpha3 API types, the form of
// Dynamic Resource Allocation (DRA) served by Kubernetes 1.31. Claims ask for
// devices through per-request CEL selectors and device classes, drivers
// publish their devices in ResourceSlices, and the allocation result names
// the chosen devices per request.
package v1alpha3
