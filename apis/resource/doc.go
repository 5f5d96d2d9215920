// Package resource holds drakit's internal ("hub") types for the
// resource.k8s.io group. Every versioned package (v1alpha1, v1alpha2,
// v1alpha3) converts to and from these types and never directly to another
// version, so each conversion is written once per version instead of once
// per pair. The hub can hold everything any of the three versions can say;
// see docs/architecture.md.
//
// The doc comment of every field says which versions can say it. Fields
// marked legacy hold what later Kubernetes releases dropped: classic DRA's
// parameters references, allocation modes and claim controller, resource
// handles (v1alpha1's single one included), shareable allocations, and
// 1.30's structured parameters with their named resources.
//
// The hub's JSON has the API's layout, so a patch of a hub object uses the
// paths of the versioned objects: apiVersion and kind at the top level, the
// object metadata under "metadata" (a claim template's claim metadata under
// "spec.metadata"), every other field under its API name.
//
// +k8s:deepcopy-gen=package
// +groupName=resource.k8s.io
package resource
