package builder

import (
	"fmt"
	"sort"

	"github.com/drakit/drakit/apis/resource/catalogue"
)

// GroupName is the API group every document of this package describes.
const GroupName = "resource.k8s.io"

// release is the Kubernetes minor release whose API server served a
// version of resource.k8s.io (or some of its kinds) as drakit has it: 1.26
// v1alpha1, 1.30 v1alpha2, 1.31 v1alpha3's first kinds, 1.37 v1beta1,
// v1beta2, v1 and v1alpha3's DeviceTaintRule and ResourcePoolStatusRequest.
// The few details of the documents that changed over time follow it.
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
// (the catalogue's Rules of each version and kind). A version whose
// release is missing here has no documents, and TestEveryVersionHasDetails
// says so.
var documentDetails = map[int]release{
	26: {minor: 26, statusKind: true},
	30: {minor: 30, statusKind: true, bodyRequiredInV3: true},
	31: {minor: 31, bodyRequiredInV3: true},
	// 1.37 registers no Status kind in the group either
	// (hack/kubeconform-test/servercompare checks these details against
	// the documents of 1.37.2).
	37: {minor: 37, bodyRequiredInV3: true},
}

// deleteReturnsStatus lists the resources ("<version>/<resource>") whose
// storage answers a DELETE of one object with a Status instead of the
// deleted object (the registry's ReturnDeletedObject is false), which the
// API server's documents show as the response of that operation. 1.37's
// v1 DeviceTaintRule storage is the only one (NewRESTv1; v1alpha3 and
// v1beta2 use NewRESTLegacy, which returns the object).
var deleteReturnsStatus = map[string]bool{
	"v1/devicetaintrules": true,
}

// resourceInfo is one REST resource of a version: the catalogue's kind
// (its name, plural, scope and status subresource) and what the documents
// need beyond it.
type resourceInfo struct {
	catalogue.Kind
	// release is the release whose API server served the kind as drakit
	// has it: the version's, except for the kinds a version gained later
	// (v1alpha3's DeviceTaintRule and ResourcePoolStatusRequest, 1.37).
	// The query parameters of its operations are that release's.
	release release
	// deleteReturnsStatus: see the variable of that name.
	deleteReturnsStatus bool
}

// servedVersion is a version of resource.k8s.io with the release that
// served it and the resources its API server installed.
type servedVersion struct {
	Version string
	// release is the version's release (the catalogue's Rules): it
	// decides which meta kinds the group version registers and whether
	// request bodies are marked required.
	release release
	// shared is the newest release of the version's kinds: the document
	// describes the shared definitions (meta/v1, core/v1) as that
	// release's API server did, so that they agree with the newest
	// operations (a DeleteOptions body with the fields of the query
	// parameters beside it). For v1alpha3 it is 1.37, for its two 1.37
	// kinds; its 1.31 kinds keep 1.31's operations.
	shared    release
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
		sv := servedVersion{Version: v.Name, release: rel, shared: rel}
		complete := true
		for _, k := range v.Kinds {
			kindRel, ok := documentDetails[v.RulesOf(k)]
			if !ok {
				complete = false // TestEveryVersionHasDetails
				break
			}
			if kindRel.minor > sv.shared.minor {
				sv.shared = kindRel
			}
			sv.Resources = append(sv.Resources, resourceInfo{
				Kind:                k,
				release:             kindRel,
				deleteReturnsStatus: deleteReturnsStatus[v.Name+"/"+k.Resource],
			})
		}
		if complete {
			out = append(out, sv)
		}
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
