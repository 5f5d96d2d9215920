// Package resource holds drakit's internal ("hub") types for the
// resource.k8s.io group. Every versioned package (v1alpha1, v1alpha2,
// v1alpha3) converts to and from these types and never directly to another
// version, so each conversion is written once per version instead of once
// per pair. The hub can hold everything any of the three versions can say;
// see docs/architecture.md.
//
// +k8s:deepcopy-gen=package
// +groupName=resource.k8s.io
package resource
