// +k8s:deepcopy-gen=package
// +k8s:conversion-gen=github.com/drakit/drakit/apis/resource
// +k8s:defaulter-gen=TypeMeta
// +k8s:openapi-gen=true
// +groupName=resource.k8s.io

// Package v1 holds the resource.k8s.io/v1 API types, the generally available
// form of Dynamic Resource Allocation (DRA), in the shape Kubernetes 1.37
// serves. Kubernetes serves v1 from 1.34 on, enabled by default, and stores
// the four core kinds (DeviceClass, ResourceClaim, ResourceClaimTemplate,
// ResourceSlice) in it from 1.35; DeviceTaintRule joined v1 in 1.37. The
// types are wire-identical to resource.k8s.io/v1beta2 of the same release.
//
// Drivers publish devices in ResourceSlices; a claim asks for devices either
// exactly (a class, selectors and a count) or through a prioritized list of
// alternatives, and its status records the allocated devices, who may use
// them and what the drivers report about them. Fields behind an alpha or
// beta feature gate say so in their comments.
package v1
