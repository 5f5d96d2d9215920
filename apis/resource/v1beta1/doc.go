// +k8s:deepcopy-gen=package
// +k8s:conversion-gen=github.com/drakit/drakit/apis/resource
// +k8s:defaulter-gen=TypeMeta
// +k8s:openapi-gen=true
// +groupName=resource.k8s.io

// Package v1beta1 holds the resource.k8s.io/v1beta1 API types in the shape
// Kubernetes 1.37 serves them. The version is served, disabled by default,
// by every release from 1.32 to 1.37 (1.32 and 1.33 also store objects in
// it); it is deprecated since 1.35 and due to be removed in 1.38. Its
// kinds are DeviceClass, ResourceClaim, ResourceClaimTemplate and
// ResourceSlice.
//
// Compared with v1beta2 and v1 the version keeps its first layout: a
// request carries its class, selectors and count directly instead of under
// "exactly", every device property sits under "basic", and a slice's
// nodeName and allNodes are a plain string and bool. Fields added in later
// releases (prioritized lists, taints, partitionable devices, consumable
// capacity, binding conditions, ...) were added to this version too.
package v1beta1
