package builder

import (
	"bytes"
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kube-openapi/pkg/builder"
	"k8s.io/kube-openapi/pkg/builder3"
	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/spec3"
	"k8s.io/kube-openapi/pkg/validation/spec"

	"github.com/drakit/drakit/apis/resource/install"
	"github.com/drakit/drakit/openapi"
)

// info is the title block of every document. The API server calls itself
// "Kubernetes" and does not version its documents; tools that take our
// documents in place of the server's see the same.
var info = &spec.Info{InfoProps: spec.InfoProps{Title: "Kubernetes", Version: "unversioned"}}

const (
	bearerScheme      = "BearerToken"
	bearerDescription = "Bearer Token authentication"
)

func metav1GroupVersion(version string) schema.GroupVersion {
	return schema.GroupVersion{Group: GroupName, Version: version}
}

// newScheme holds the kinds of drakit's versions plus the meta kinds that
// every API server registers for the core group version and as unversioned
// types; the definitions' x-kubernetes-group-version-kind come from it.
func newScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	return scheme
}

// kindsOf keeps the core group version's kinds and the kinds of the given
// versions of resource.k8s.io, as the release of each version registered
// them.
func kindsOf(versions ...servedVersion) func(schema.GroupVersionKind, string) bool {
	return func(gvk schema.GroupVersionKind, typeName string) bool {
		if gvk.Group == "" {
			return true
		}
		if gvk.Group != GroupName {
			return false
		}
		for _, v := range versions {
			if v.Version == gvk.Version {
				return typeName != statusTypeName || v.release.statusKind
			}
		}
		return false
	}
}

// V2 builds the OpenAPI v2 document of all versions: the paths of every
// version and of the group, with every definition they use.
func V2() (*spec.Swagger, error) {
	scheme := newScheme()
	containers := []common.RouteContainer{groupRoutes()}
	for _, v := range served {
		c, err := versionRoutes(v, scheme)
		if err != nil {
			return nil, fmt.Errorf("routes of %s/%s: %w", GroupName, v.Version, err)
		}
		containers = append(containers, c)
	}
	n := newNamer(scheme, kindsOf(served...))
	config := &common.Config{
		ProtocolList:                   []string{"https"},
		Info:                           info,
		CommonResponses:                map[int]spec.Response{401: {ResponseProps: spec.ResponseProps{Description: "Unauthorized"}}},
		GetDefinitions:                 openapi.GetOpenAPIDefinitions,
		GetDefinitionName:              n.name,
		GetOperationIDAndTagsFromRoute: operationIDAndTags,
		SecurityDefinitions: &spec.SecurityDefinitions{bearerScheme: &spec.SecurityScheme{SecuritySchemeProps: spec.SecuritySchemeProps{
			Type: "apiKey", Name: "authorization", In: "header", Description: bearerDescription,
		}}},
		DefaultSecurity: []map[string][]string{{bearerScheme: {}}},
		PostProcessSpec: postProcessV2,
	}
	return builder.BuildOpenAPISpecFromRoutes(containers, config)
}

// V3 builds the OpenAPI v3 document of one version, as the API server of
// the version's release serves it at /openapi/v3/apis/resource.k8s.io/<version>.
func V3(version string) (*spec3.OpenAPI, error) {
	v, err := lookup(version)
	if err != nil {
		return nil, err
	}
	scheme := newScheme()
	c, err := versionRoutes(v, scheme)
	if err != nil {
		return nil, fmt.Errorf("routes of %s/%s: %w", GroupName, v.Version, err)
	}
	config := v3Config(newNamer(scheme, kindsOf(v)))
	config.PostProcessSpec = asServedBy(v.release, v.shared)
	return builder3.BuildOpenAPISpecFromRoutes([]common.RouteContainer{c}, config)
}

// V3Group builds the OpenAPI v3 document of the group's discovery path, as
// the API server serves it at /openapi/v3/apis/resource.k8s.io.
func V3Group() (*spec3.OpenAPI, error) {
	scheme := newScheme()
	config := v3Config(newNamer(scheme, kindsOf()))
	return builder3.BuildOpenAPISpecFromRoutes([]common.RouteContainer{groupRoutes()}, config)
}

func v3Config(n *namer) *common.OpenAPIV3Config {
	return &common.OpenAPIV3Config{
		Info:                           info,
		CommonResponses:                map[int]*spec3.Response{401: {ResponseProps: spec3.ResponseProps{Description: "Unauthorized"}}},
		GetDefinitions:                 openapi.GetOpenAPIDefinitions,
		GetDefinitionName:              n.name,
		GetOperationIDAndTagsFromRoute: operationIDAndTags,
		SecuritySchemes: spec3.SecuritySchemes{bearerScheme: &spec3.SecurityScheme{SecuritySchemeProps: spec3.SecuritySchemeProps{
			Type: "apiKey", Name: "authorization", In: "header", Description: bearerDescription,
		}}},
	}
}

// dropBodyRequired clears the required flag of every request body, for
// the releases whose documents did not have it.
func dropBodyRequired(doc *spec3.OpenAPI) {
	for _, path := range doc.Paths.Paths {
		for _, op := range []*spec3.Operation{path.Get, path.Put, path.Post, path.Delete, path.Patch} {
			if op != nil && op.RequestBody != nil {
				op.RequestBody.Required = false
			}
		}
	}
}

// pruneDefaults removes the defaults from the definitions of an OpenAPI v2
// document, as the API server does before serving it (OpenAPI v2 clients
// predate defaults in Kubernetes schemas).
func pruneDefaults(doc *spec.Swagger) {
	for name, def := range doc.Definitions {
		withoutDefaults(&def)
		doc.Definitions[name] = def
	}
}

// postProcessV2 gives the OpenAPI v2 document the shared definitions of
// the newest release and, as the API server does, no defaults.
func postProcessV2(doc *spec.Swagger) (*spec.Swagger, error) {
	schemas := make(map[string]*spec.Schema, len(doc.Definitions))
	for name := range doc.Definitions {
		def := doc.Definitions[name]
		schemas[name] = &def
	}
	applySharedChanges(newestRelease(), schemas)
	for name, def := range schemas {
		doc.Definitions[name] = *def
	}
	pruneDefaults(doc)
	return doc, nil
}

// withoutDefaults removes every default of s and of the schemas in it.
func withoutDefaults(s *spec.Schema) {
	if s == nil {
		return
	}
	s.Default = nil
	inMap := func(m map[string]spec.Schema) {
		for k, sub := range m {
			withoutDefaults(&sub)
			m[k] = sub
		}
	}
	inSlice := func(list []spec.Schema) {
		for i := range list {
			withoutDefaults(&list[i])
		}
	}
	inMap(s.Properties)
	inMap(s.PatternProperties)
	inMap(s.Definitions)
	inSlice(s.AllOf)
	inSlice(s.AnyOf)
	inSlice(s.OneOf)
	withoutDefaults(s.Not)
	if s.Items != nil {
		withoutDefaults(s.Items.Schema)
		inSlice(s.Items.Schemas)
	}
	if s.AdditionalProperties != nil {
		withoutDefaults(s.AdditionalProperties.Schema)
	}
	if s.AdditionalItems != nil {
		withoutDefaults(s.AdditionalItems.Schema)
	}
}

// Encode writes doc as the published files hold it: indented by two
// spaces, keys sorted, no HTML escaping, and a final newline, so that the
// files are stable and diff well.
func Encode(doc interface{}) ([]byte, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic interface{}
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(generic); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// V3FileName is the name the API server's repository gives the OpenAPI v3
// document of a version of the group, or of the group's discovery path
// when version is empty.
func V3FileName(version string) string {
	if version == "" {
		return "apis__" + GroupName + "_openapi.json"
	}
	return "apis__" + GroupName + "__" + version + "_openapi.json"
}
