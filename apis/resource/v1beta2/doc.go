// +k8s:conversion-gen=github.com/drakit/drakit/apis/resource
// +k8s:conversion-gen-external-types=k8s.io/api/resource/v1beta2
// +k8s:defaulter-gen=TypeMeta
// +k8s:defaulter-gen-input=k8s.io/api/resource/v1beta2
// +groupName=resource.k8s.io

// Package v1beta2 converts resource.k8s.io/v1beta2 to and from drakit's hub.
// Its types are k8s.io/api's (k8s.io/api/resource/v1beta2), in their
// Kubernetes 1.37 shape: this package holds their registration, drakit's
// defaults and the conversions, as upstream's pkg/apis/resource/v1beta2
// does. Kubernetes 1.33 through 1.37 serve this version (disabled by
// default, deprecated since 1.36); DeviceTaintRule joined it in 1.36. Its
// types are those of resource.k8s.io/v1: a request holds either one exact
// request or a prioritized list of sub-requests, and a device carries its
// attributes, capacities and node placement directly.
package v1beta2
