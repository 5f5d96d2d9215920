// +k8s:deepcopy-gen=package
// +k8s:conversion-gen=github.com/drakit/drakit/apis/resource
// +k8s:defaulter-gen=TypeMeta
// +k8s:openapi-gen=true
// +groupName=resource.k8s.io

// Package v1alpha2 holds the resource.k8s.io/v1alpha2 API types as the
// Kubernetes 1.30 API server serves them: classes, claims, claim templates and
// pod scheduling contexts for dynamic resource allocation, plus the structured
// parameter kinds (ResourceSlice, ResourceClaimParameters and
// ResourceClassParameters) that 1.30 added.
package v1alpha2
