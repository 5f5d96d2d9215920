// +k8s:deepcopy-gen=package
// +k8s:conversion-gen=github.com/drakit/drakit/apis/resource
// +k8s:defaulter-gen=TypeMeta
// +k8s:openapi-gen=true
// +groupName=resource.k8s.io

// Package v1beta2 holds the resource.k8s.io/v1beta2 API types in their
// Kubernetes 1.37 shape. Kubernetes 1.33 through 1.37 serve this version
// (disabled by default, deprecated since 1.36); DeviceTaintRule joined it
// in 1.36. Its types are those of resource.k8s.io/v1: a request holds
// either one exact request or a prioritized list of sub-requests, and a
// device carries its attributes, capacities and node placement directly.
package v1beta2
