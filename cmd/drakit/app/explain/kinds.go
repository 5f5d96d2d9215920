package explain

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
)

// kindsIn lists the kinds a version serves (without lists), sorted, as the
// catalogue has them; none for a version drakit does not know.
func kindsIn(version string) []string {
	v, err := catalogue.Lookup(version)
	if err != nil {
		return nil
	}
	kinds := make([]string, 0, len(v.Kinds))
	for _, k := range v.Kinds {
		kinds = append(kinds, k.Name)
	}
	sort.Strings(kinds)
	return kinds
}

// findKind resolves what a user typed for a kind ("resourceclaim",
// "resourceclaims", "ResourceClaim") in a version; with no version, in the
// newest version that has it.
func findKind(name string, gv *schema.GroupVersion) (schema.GroupVersionKind, error) {
	version := ""
	if gv != nil {
		if _, err := catalogue.Lookup(gv.Version); err != nil {
			return schema.GroupVersionKind{}, err
		}
		version = gv.Version
	}
	if v, k, ok := catalogue.Find(name, version); ok {
		return v.GroupVersion().WithKind(k.Name), nil
	}
	if gv == nil {
		return schema.GroupVersionKind{}, fmt.Errorf("%s has no kind or resource %q in any version", resource.GroupName, name)
	}
	// Say where the kind does exist.
	if _, other, ok := catalogue.Find(name, ""); ok {
		var in []string
		for _, v := range catalogue.Versions {
			if _, ok := v.Kind(other.Name); ok {
				in = append(in, v.GroupVersion().String())
			}
		}
		return schema.GroupVersionKind{}, fmt.Errorf("%s has no kind %s; it is in %s", gv, other.Name, strings.Join(in, ", "))
	}
	return schema.GroupVersionKind{}, fmt.Errorf("%s has no kind or resource %q; it has %s", gv, name, strings.Join(kindsIn(gv.Version), ", "))
}
