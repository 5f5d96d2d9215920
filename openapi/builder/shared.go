package builder

import (
	"strings"

	"k8s.io/kube-openapi/pkg/spec3"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// The shared definitions (meta/v1, core/v1 NodeSelector, ...) come from the
// apimachinery and api modules drakit is built with, which are newer than
// the releases that served the alpha versions. sharedChanges undoes, for
// each release, what those modules added to the definitions later, so that
// a version's OpenAPI v3 document describes the shared types as that
// release's API server did.
var sharedChanges = []struct {
	before int // applies to releases older than 1.<before>
	change func(schemas map[string]*spec.Schema)
}{
	// The list-type markers of apimachinery and core/v1 came with 1.27;
	// until then only patch strategies described how lists merge.
	{27, func(schemas map[string]*spec.Schema) {
		for name, s := range schemas {
			if strings.HasPrefix(name, "io.k8s.api.resource.") {
				continue
			}
			for prop, p := range s.Properties {
				delete(p.Extensions, "x-kubernetes-list-type")
				delete(p.Extensions, "x-kubernetes-list-map-keys")
				if len(p.Extensions) == 0 {
					p.Extensions = nil
				}
				s.Properties[prop] = p
			}
		}
	}},
	// Before 1.27, openapi-gen gave a struct field whose type marshals
	// itself (meta/v1 Time, runtime RawExtension) an empty default.
	{27, func(schemas map[string]*spec.Schema) {
		setPropertyDefault(schemas, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "creationTimestamp", map[string]interface{}{})
		setPropertyDefault(schemas, "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent", "object", map[string]interface{}{})
	}},
	// DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential is
	// from 1.32. (Enums such as NodeSelectorOperator's stay: every release
	// served them, through the OpenAPIEnums gate, on by default since 1.24,
	// although the spec files committed upstream are generated with it off.)
	{32, func(schemas map[string]*spec.Schema) {
		if s, ok := schemas["io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"]; ok {
			delete(s.Properties, "ignoreStoreReadErrorWithClusterBreakingPotential")
		}
	}},
}

func setPropertyDefault(schemas map[string]*spec.Schema, definition, property string, value interface{}) {
	s, ok := schemas[definition]
	if !ok {
		return
	}
	if p, ok := s.Properties[property]; ok {
		p.Default = value
		s.Properties[property] = p
	}
}

// newestRelease is the newest release of the served versions: the
// OpenAPI v2 document, which holds all of them, describes the shared types
// as that release did.
func newestRelease() release {
	newest := served[0].shared
	for _, v := range served[1:] {
		if v.shared.minor > newest.minor {
			newest = v.shared
		}
	}
	return newest
}

// applySharedChanges changes the shared definitions of schemas to what
// the API server of rel served.
func applySharedChanges(rel release, schemas map[string]*spec.Schema) {
	for _, c := range sharedChanges {
		if rel.minor < c.before {
			c.change(schemas)
		}
	}
}

// asServedBy returns the post-processing that makes a version's OpenAPI v3
// document describe what the API server of rel served, with the shared
// definitions of release shared (see servedVersion).
func asServedBy(rel, shared release) func(*spec3.OpenAPI) (*spec3.OpenAPI, error) {
	return func(doc *spec3.OpenAPI) (*spec3.OpenAPI, error) {
		if !rel.bodyRequiredInV3 {
			dropBodyRequired(doc)
		}
		if doc.Components != nil {
			applySharedChanges(shared, doc.Components.Schemas)
		}
		return doc, nil
	}
}
