// +k8s:conversion-gen=github.com/drakit/drakit/apis/resource
// +k8s:conversion-gen-external-types=k8s.io/api/resource/v1
// +k8s:defaulter-gen=TypeMeta
// +k8s:defaulter-gen-input=k8s.io/api/resource/v1
// +groupName=resource.k8s.io

// Package v1 converts resource.k8s.io/v1, the generally available form of
// Dynamic Resource Allocation (DRA), to and from drakit's hub. Its types are
// k8s.io/api's (k8s.io/api/resource/v1), in the shape Kubernetes 1.37 serves:
// this package holds their registration, drakit's defaults and the
// conversions, as upstream's pkg/apis/resource/v1 does. Kubernetes serves v1
// from 1.34 on, enabled by default, and stores the four core kinds
// (DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice) in it
// from 1.35; DeviceTaintRule joined v1 in 1.37. The types are wire-identical
// to resource.k8s.io/v1beta2 of the same release.
package v1
