package openapi

import (
	"sort"
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// comparedResources are the REST resources of version compared on the
// server's release: those the server serves (discovery) and those drakit's
// catalogue says the release serves. A resource of drakit's document that
// is neither is left out on both sides, with the schemas only it uses; one
// the catalogue expects and the server lacks stays in, so that its paths
// show as a difference.
func comparedResources(t *testing.T, srv *e2eenv.Server, version string) map[string]bool {
	t.Helper()
	keep := map[string]bool{}
	list, err := srv.Discovery.ServerResourcesForGroupVersion(resource.GroupName + "/" + version)
	if err != nil {
		t.Fatalf("discovery of %s/%s on kube-apiserver %s: %v", resource.GroupName, version, srv.KubeVersion, err)
	}
	for _, r := range list.APIResources {
		if !strings.Contains(r.Name, "/") {
			keep[r.Name] = true
		}
	}
	v, err := catalogue.Lookup(version)
	if err != nil {
		t.Fatalf("kube-apiserver %s serves resource.k8s.io/%s, which drakit's catalogue does not know: %v", srv.KubeVersion, version, err)
	}
	var left []string
	for _, k := range v.Kinds {
		if k.Served.Contains(srv.Minor()) {
			keep[k.Resource] = true
		} else if !keep[k.Resource] {
			left = append(left, k.Resource)
		}
	}
	if len(left) > 0 {
		sort.Strings(left)
		t.Logf("left out of the comparison, as neither kube-apiserver %s nor drakit's catalogue has them in that release: %s", srv.KubeVersion, strings.Join(left, ", "))
	}
	return keep
}

// resourceOf is the REST resource a path of version belongs to; "" for the
// version's discovery path and for paths of other versions.
func resourceOf(p, version string) string {
	rest, ok := strings.CutPrefix(p, "/apis/"+resource.GroupName+"/"+version+"/")
	if !ok {
		return ""
	}
	rest = strings.TrimPrefix(rest, "watch/")
	rest = strings.TrimPrefix(rest, "namespaces/{namespace}/")
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// keptPath tells whether path p of an OpenAPI document is compared for
// version: the version's discovery path and the paths of kept resources.
func keptPath(p, version string, keep map[string]bool) bool {
	if p == "/apis/"+resource.GroupName+"/"+version+"/" {
		return true
	}
	r := resourceOf(p, version)
	return r != "" && keep[r]
}

// v3Part is an OpenAPI v3 document of one version cut to the kept
// resources: their paths and the schemas those use, directly or not.
func v3Part(t *testing.T, doc any, version string, keep map[string]bool) any {
	t.Helper()
	root, _ := doc.(map[string]any)
	paths, _ := root["paths"].(map[string]any)
	components, _ := root["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	if paths == nil || schemas == nil {
		t.Fatalf("an OpenAPI v3 document of %s without paths or components.schemas", version)
	}
	kept := map[string]any{}
	for p, item := range paths {
		if keptPath(p, version, keep) {
			kept[p] = item
		}
	}
	if len(kept) == 0 {
		t.Fatalf("no paths of resource.k8s.io/%s in the OpenAPI v3 document", version)
	}
	used := map[string]any{}
	collectRefs(t, kept, "#/components/schemas/", schemas, used)

	out := map[string]any{}
	for k, v := range root {
		out[k] = v
	}
	c := map[string]any{}
	for k, v := range components {
		c[k] = v
	}
	c["schemas"] = used
	out["components"] = c
	out["paths"] = kept
	return out
}

// v2Part is the part of an OpenAPI v2 document that belongs to version: the
// kept resources' paths, with the shared parameters they refer to written
// out (their names carry a hash of their text, descriptions included), the
// definitions those use, and the document's info and security.
func v2Part(t *testing.T, doc any, version string, keep map[string]bool) any {
	t.Helper()
	root, _ := doc.(map[string]any)
	paths, _ := root["paths"].(map[string]any)
	params, _ := root["parameters"].(map[string]any)
	defs, _ := root["definitions"].(map[string]any)
	if paths == nil || defs == nil {
		t.Fatal("an OpenAPI v2 document without paths or definitions")
	}
	kept := map[string]any{}
	for p, item := range paths {
		if keptPath(p, version, keep) {
			kept[p] = writeOutParameters(t, item, params)
		}
	}
	if len(kept) == 0 {
		t.Fatalf("no paths of resource.k8s.io/%s in the OpenAPI v2 document", version)
	}
	used := map[string]any{}
	collectRefs(t, kept, "#/definitions/", defs, used)
	return map[string]any{
		"swagger":             root["swagger"],
		"info":                root["info"],
		"security":            root["security"],
		"securityDefinitions": root["securityDefinitions"],
		"paths":               kept,
		"definitions":         used,
	}
}

// collectRefs adds to used every definition of defs that v refers to
// through a $ref starting with prefix, and those they refer to.
func collectRefs(t *testing.T, v any, prefix string, defs, used map[string]any) {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok && strings.HasPrefix(ref, prefix) {
			name := strings.TrimPrefix(ref, prefix)
			if _, seen := used[name]; !seen {
				def, ok := defs[name]
				if !ok {
					t.Fatalf("$ref %s names no definition", ref)
				}
				used[name] = def
				collectRefs(t, def, prefix, defs, used)
			}
		}
		for _, item := range x {
			collectRefs(t, item, prefix, defs, used)
		}
	case []any:
		for _, item := range x {
			collectRefs(t, item, prefix, defs, used)
		}
	}
}

// writeOutParameters replaces every "#/parameters/..." reference in v with
// the parameter it names.
func writeOutParameters(t *testing.T, v any, params map[string]any) any {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok && strings.HasPrefix(ref, "#/parameters/") {
			p, ok := params[strings.TrimPrefix(ref, "#/parameters/")]
			if !ok {
				t.Fatalf("$ref %s names no parameter", ref)
			}
			return p
		}
		out := make(map[string]any, len(x))
		for k, item := range x {
			out[k] = writeOutParameters(t, item, params)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = writeOutParameters(t, item, params)
		}
		return out
	default:
		return v
	}
}
