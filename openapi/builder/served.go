package builder

import (
	"fmt"
	"sort"
)

// GroupName is the API group every document of this package describes.
const GroupName = "resource.k8s.io"

// release is the Kubernetes minor release whose API server served one
// version of resource.k8s.io. Each release served exactly one of them, and
// the few details of the documents that changed over time follow it.
type release struct {
	// minor is the Kubernetes minor version: 26 for 1.26.
	minor int
	// statusKind tells whether the version registered metav1.Status as a
	// kind of its own group version (1.26 and 1.30 did, 1.31 did not), which
	// shows in the x-kubernetes-group-version-kind of Status.
	statusKind bool
	// bodyRequiredInV3 tells whether the release's OpenAPI v3 documents
	// mark a create, update or patch request body as required. The OpenAPI
	// library of 1.26 did not write that flag yet.
	bodyRequiredInV3 bool
}

// resourceInfo is one REST resource of a version: the kind it serves, its
// plural name, its scope and whether it has a status subresource.
type resourceInfo struct {
	Kind       string
	Resource   string
	Namespaced bool
	Status     bool
}

// servedVersion is a version of resource.k8s.io with the release that
// served it and the resources its API server installed.
type servedVersion struct {
	Version   string
	release   release
	Resources []resourceInfo
}

// served lists, per version, what the API server of its release installed
// (scope, plural and subresources as the releases registered them).
var served = []servedVersion{
	{
		Version: "v1alpha1",
		release: release{minor: 26, statusKind: true},
		Resources: []resourceInfo{
			{Kind: "ResourceClass", Resource: "resourceclasses"},
			{Kind: "ResourceClaim", Resource: "resourceclaims", Namespaced: true, Status: true},
			{Kind: "ResourceClaimTemplate", Resource: "resourceclaimtemplates", Namespaced: true},
			{Kind: "PodScheduling", Resource: "podschedulings", Namespaced: true, Status: true},
		},
	},
	{
		Version: "v1alpha2",
		release: release{minor: 30, statusKind: true, bodyRequiredInV3: true},
		Resources: []resourceInfo{
			{Kind: "ResourceClass", Resource: "resourceclasses"},
			{Kind: "ResourceClaim", Resource: "resourceclaims", Namespaced: true, Status: true},
			{Kind: "ResourceClaimTemplate", Resource: "resourceclaimtemplates", Namespaced: true},
			{Kind: "PodSchedulingContext", Resource: "podschedulingcontexts", Namespaced: true, Status: true},
			{Kind: "ResourceSlice", Resource: "resourceslices"},
			{Kind: "ResourceClaimParameters", Resource: "resourceclaimparameters", Namespaced: true},
			{Kind: "ResourceClassParameters", Resource: "resourceclassparameters", Namespaced: true},
		},
	},
	{
		Version: "v1alpha3",
		release: release{minor: 31, bodyRequiredInV3: true},
		Resources: []resourceInfo{
			{Kind: "DeviceClass", Resource: "deviceclasses"},
			{Kind: "ResourceClaim", Resource: "resourceclaims", Namespaced: true, Status: true},
			{Kind: "ResourceClaimTemplate", Resource: "resourceclaimtemplates", Namespaced: true},
			{Kind: "PodSchedulingContext", Resource: "podschedulingcontexts", Namespaced: true, Status: true},
			{Kind: "ResourceSlice", Resource: "resourceslices"},
		},
	},
}

// Versions returns the versions of resource.k8s.io that have documents,
// oldest first.
func Versions() []string {
	out := make([]string, len(served))
	for i, v := range served {
		out[i] = v.Version
	}
	return out
}

// lookup returns the served version called version.
func lookup(version string) (servedVersion, error) {
	for _, v := range served {
		if v.Version == version {
			return v, nil
		}
	}
	return servedVersion{}, fmt.Errorf("resource.k8s.io has no version %q; the versions with documents are %v", version, Versions())
}

// sortedResources returns the resources of v ordered by plural name, so
// that every document lists them in the same order.
func (v servedVersion) sortedResources() []resourceInfo {
	out := append([]resourceInfo(nil), v.Resources...)
	sort.Slice(out, func(i, j int) bool { return out[i].Resource < out[j].Resource })
	return out
}
