// +k8s:conversion-gen=github.com/drakit/drakit/apis/resource
// +k8s:conversion-gen-external-types=k8s.io/api/resource/v1beta1
// +k8s:defaulter-gen=TypeMeta
// +k8s:defaulter-gen-input=k8s.io/api/resource/v1beta1
// +groupName=resource.k8s.io

// Package v1beta1 converts resource.k8s.io/v1beta1 to and from drakit's hub.
// Its types are k8s.io/api's (k8s.io/api/resource/v1beta1), in the shape
// Kubernetes 1.37 serves them: this package holds their registration,
// drakit's defaults and the conversions, as upstream's
// pkg/apis/resource/v1beta1 does. The version is served, disabled by
// default, by every release from 1.32 to 1.37 (1.32 and 1.33 also store
// objects in it); it is deprecated since 1.35 and due to be removed in 1.38.
// Its kinds are DeviceClass, ResourceClaim, ResourceClaimTemplate and
// ResourceSlice.
//
// Compared with v1beta2 and v1 the version keeps its first layout: a
// request carries its class, selectors and count directly instead of under
// "exactly", every device property sits under "basic", and a slice's
// nodeName and allNodes are a plain string and bool. Fields added in later
// releases (prioritized lists, taints, partitionable devices, consumable
// capacity, binding conditions, ...) were added to this version too.
package v1beta1
