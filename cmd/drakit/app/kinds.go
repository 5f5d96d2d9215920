package app

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
)

// resourceNames are the REST resource names of the group's kinds, the
// same in every version that has the kind.
var resourceNames = map[string]string{
	"ResourceClass":           "resourceclasses",
	"ResourceClaim":           "resourceclaims",
	"ResourceClaimTemplate":   "resourceclaimtemplates",
	"PodScheduling":           "podschedulings",
	"PodSchedulingContext":    "podschedulingcontexts",
	"ResourceSlice":           "resourceslices",
	"ResourceClaimParameters": "resourceclaimparameters",
	"ResourceClassParameters": "resourceclassparameters",
	"DeviceClass":             "deviceclasses",
}

// resourceOf returns the resource name of a kind ("resourceclaims").
func resourceOf(kind string) string {
	if r, ok := resourceNames[kind]; ok {
		return r
	}
	return strings.ToLower(kind) + "s"
}

// kindsIn lists the kinds a version serves (without lists), sorted.
func kindsIn(version string) []string {
	var kinds []string
	for kind := range resourceNames {
		gvk := schema.GroupVersionKind{Group: resource.GroupName, Version: version, Kind: kind}
		if conversion.Scheme.Recognizes(gvk) {
			kinds = append(kinds, kind)
		}
	}
	sort.Strings(kinds)
	return kinds
}

// findKind resolves what a user typed for a kind ("resourceclaim",
// "resourceclaims", "ResourceClaim") in a version; with no version, in the
// newest version that has it.
func findKind(name string, gv *schema.GroupVersion) (schema.GroupVersionKind, error) {
	versions := conversion.Versions
	if gv != nil {
		versions = []schema.GroupVersion{*gv}
	}
	for i := len(versions) - 1; i >= 0; i-- {
		for _, kind := range kindsIn(versions[i].Version) {
			if strings.EqualFold(name, kind) || strings.EqualFold(name, resourceOf(kind)) {
				return versions[i].WithKind(kind), nil
			}
		}
	}
	if gv != nil {
		// Say where the kind does exist.
		if other, err := findKind(name, nil); err == nil {
			var in []string
			for _, v := range conversion.Versions {
				if conversion.Scheme.Recognizes(v.WithKind(other.Kind)) {
					in = append(in, v.String())
				}
			}
			return schema.GroupVersionKind{}, fmt.Errorf("%s has no kind %s; it is in %s", gv, other.Kind, strings.Join(in, ", "))
		}
		return schema.GroupVersionKind{}, fmt.Errorf("%s has no kind or resource %q; it has %s", gv, name, strings.Join(kindsIn(gv.Version), ", "))
	}
	return schema.GroupVersionKind{}, fmt.Errorf("%s has no kind or resource %q in any version", resource.GroupName, name)
}
