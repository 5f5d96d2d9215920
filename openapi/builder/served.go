package builder

import (
	"fmt"
	"sort"

	"github.com/drakit/drakit/apis/resource/catalogue"
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

// documentDetails are the details of the documents that changed from
// release to release, for the releases whose documents drakit reproduces
// (the catalogue's Rules of each version). A version whose release is
// missing here fails to build, and TestEveryVersionHasDetails says so.
var documentDetails = map[int]release{
	26: {minor: 26, statusKind: true},
	30: {minor: 30, statusKind: true, bodyRequiredInV3: true},
	31: {minor: 31, bodyRequiredInV3: true},
	// 1.37 registers no Status kind in the group either; drakit's
	// documents of the v1 era are checked against the 1.37 server in
	// hack/e2e once it runs one.
	37: {minor: 37, bodyRequiredInV3: true},
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

// served lists, per version of the catalogue, what the API server of its
// release installed.
var served = servedVersions()

func servedVersions() []servedVersion {
	out := make([]servedVersion, 0, len(catalogue.Versions))
	for _, v := range catalogue.Versions {
		rel, ok := documentDetails[v.Rules]
		if !ok {
			continue // TestEveryVersionHasDetails
		}
		sv := servedVersion{Version: v.Name, release: rel}
		for _, k := range v.Kinds {
			sv.Resources = append(sv.Resources, resourceInfo{Kind: k.Name, Resource: k.Resource, Namespaced: k.Namespaced, Status: k.Status})
		}
		out = append(out, sv)
	}
	return out
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
