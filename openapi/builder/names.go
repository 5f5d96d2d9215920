package builder

import (
	"reflect"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kube-openapi/pkg/util"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// ownAPIPackage is the Go package prefix of drakit's versioned types. The
// API server names the same types after k8s.io/api/resource/<version>.
const ownAPIPackage = "github.com/drakit/drakit/apis/resource/"

// gvkExtension is the vendor extension that lists the kinds a definition
// is served as.
const gvkExtension = "x-kubernetes-group-version-kind"

// DefinitionName returns the name the API server gives the definition of
// the Go type goName ("<package path>.<Type>"): drakit's own types are named
// as the upstream k8s.io/api types they stand in for
// ("io.k8s.api.resource.v1alpha3.ResourceClaim"), every other type by its
// package path with the host reversed
// ("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta").
func DefinitionName(goName string) string {
	if !strings.Contains(goName, "/") {
		// Already a model name: openapi-gen keys the types that implement
		// OpenAPIModelName (all of k8s.io/api and apimachinery since 1.35)
		// by the name the API server serves them under.
		return goName
	}
	if rest, ok := strings.CutPrefix(goName, ownAPIPackage); ok {
		return "io.k8s.api.resource." + strings.ReplaceAll(rest, "/", ".")
	}
	parts := strings.Split(goName, "/")
	if strings.Contains(parts[0], ".") {
		host := strings.Split(parts[0], ".")
		for i, j := 0, len(host)-1; i < j; i, j = i+1, j-1 {
			host[i], host[j] = host[j], host[i]
		}
		parts[0] = strings.Join(host, ".")
	}
	return strings.Join(parts, ".")
}

// namer names definitions and tells which kinds each Go type is served
// as, the way the API server's definition namer does from its scheme.
type namer struct {
	kinds map[string][]schema.GroupVersionKind // by Go type name
}

// newNamer collects the kinds of every type scheme knows that keep
// accepts.
func newNamer(scheme *runtime.Scheme, keep func(schema.GroupVersionKind, string) bool) *namer {
	n := &namer{kinds: map[string][]schema.GroupVersionKind{}}
	for gvk, t := range scheme.AllKnownTypes() {
		name := goTypeName(t)
		if gvk.Version == runtime.APIVersionInternal || !keep(gvk, name) {
			continue
		}
		n.kinds[name] = append(n.kinds[name], gvk)
	}
	for _, list := range n.kinds {
		sort.Slice(list, func(i, j int) bool {
			a, b := list[i], list[j]
			if a.Group != b.Group {
				return a.Group < b.Group
			}
			if a.Version != b.Version {
				return a.Version < b.Version
			}
			return a.Kind < b.Kind
		})
	}
	return n
}

// name is the GetDefinitionName callback of kube-openapi's builders.
func (n *namer) name(goName string) (string, spec.Extensions) {
	kinds, ok := n.kinds[goName]
	if !ok {
		return DefinitionName(goName), nil
	}
	list := make([]interface{}, 0, len(kinds))
	for _, gvk := range kinds {
		list = append(list, map[string]interface{}{"group": gvk.Group, "version": gvk.Version, "kind": gvk.Kind})
	}
	return DefinitionName(goName), spec.Extensions{gvkExtension: list}
}

// goTypeName is the name openapi-gen keys a Go type's definition by: its
// OpenAPI model name where the type declares one, else its package path and
// name.
func goTypeName(t reflect.Type) string {
	return util.GetCanonicalTypeName(reflect.New(t).Elem().Interface())
}

// statusTypeName is the Go name of metav1.Status, the one shared kind whose
// registration in resource.k8s.io differs between releases.
var statusTypeName = goTypeName(reflect.TypeOf(metav1.Status{}))
