package openapi_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"k8s.io/kube-openapi/pkg/validation/spec"

	"github.com/drakit/drakit/openapi"
)

// groupVersions in Kubernetes' version order: alphas, betas, then GA.
var groupVersions = []string{
	"resource.k8s.io/v1alpha1", "resource.k8s.io/v1alpha2", "resource.k8s.io/v1alpha3",
	"resource.k8s.io/v1beta1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1",
}

// kindsOf are the kinds of each version that have manifests, List kinds
// left out.
var kindsOf = map[string][]string{
	"resource.k8s.io/v1alpha1": {"PodScheduling", "ResourceClaim", "ResourceClaimTemplate", "ResourceClass"},
	"resource.k8s.io/v1alpha2": {"PodSchedulingContext", "ResourceClaim", "ResourceClaimParameters", "ResourceClaimTemplate", "ResourceClass", "ResourceClassParameters", "ResourceSlice"},
	"resource.k8s.io/v1alpha3": {"DeviceClass", "DeviceTaintRule", "PodSchedulingContext", "ResourceClaim", "ResourceClaimTemplate", "ResourcePoolStatusRequest", "ResourceSlice"},
	"resource.k8s.io/v1beta1":  {"DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"},
	"resource.k8s.io/v1beta2":  {"DeviceClass", "DeviceTaintRule", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"},
	"resource.k8s.io/v1":       {"DeviceClass", "DeviceTaintRule", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"},
}

func TestGroupVersions(t *testing.T) {
	got := openapi.GroupVersions()
	if strings.Join(got, ",") != strings.Join(groupVersions, ",") {
		t.Errorf("GroupVersions() = %v, want %v", got, groupVersions)
	}
}

// refs lists every $ref in a decoded JSON document.
func refs(v interface{}) []string {
	var out []string
	switch t := v.(type) {
	case map[string]interface{}:
		for k, item := range t {
			if s, ok := item.(string); ok && k == "$ref" {
				out = append(out, s)
				continue
			}
			out = append(out, refs(item)...)
		}
	case []interface{}:
		for _, item := range t {
			out = append(out, refs(item)...)
		}
	}
	return out
}

func decode(t *testing.T, data []byte) map[string]interface{} {
	t.Helper()
	var v map[string]interface{}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return v
}

func TestDocumentV3IsThePublishedFile(t *testing.T) {
	for _, gv := range groupVersions {
		got, err := openapi.Document(gv, "v3")
		if err != nil {
			t.Fatal(err)
		}
		version := strings.TrimPrefix(gv, "resource.k8s.io/")
		want, err := os.ReadFile(filepath.Join("spec", "apis__resource.k8s.io__"+version+"_openapi.json"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: Document(v3) is not the published file", gv)
		}
		doc := decode(t, got)
		if doc["openapi"] != "3.0.0" {
			t.Errorf("%s: openapi is %v", gv, doc["openapi"])
		}
		schemas := doc["components"].(map[string]interface{})["schemas"].(map[string]interface{})
		for _, ref := range refs(doc) {
			name, ok := strings.CutPrefix(ref, "#/components/schemas/")
			if _, found := schemas[name]; !ok || !found {
				t.Errorf("%s: $ref %s does not resolve", gv, ref)
			}
		}
	}
}

// TestDocumentV2 checks the part of the OpenAPI v2 document that belongs to
// one version: only its paths, all of them, every reference resolvable,
// nothing unused, and no kind of the group's other versions listed.
func TestDocumentV2(t *testing.T) {
	full := decode(t, mustRead(t, filepath.Join("spec", "swagger.json")))
	for _, gv := range groupVersions {
		data, err := openapi.Document(gv, "v2")
		if err != nil {
			t.Fatal(err)
		}
		doc := decode(t, data)
		if doc["swagger"] != "2.0" || doc["info"] == nil || doc["securityDefinitions"] == nil {
			t.Errorf("%s: the document lost its header: swagger %v info %v", gv, doc["swagger"], doc["info"])
		}
		prefix := "/apis/" + gv + "/"
		paths := doc["paths"].(map[string]interface{})
		for p := range paths {
			if !strings.HasPrefix(p, prefix) {
				t.Errorf("%s: path %s belongs to another version", gv, p)
			}
		}
		for p := range full["paths"].(map[string]interface{}) {
			if _, ok := paths[p]; strings.HasPrefix(p, prefix) && !ok {
				t.Errorf("%s: path %s is missing", gv, p)
			}
		}

		defs := doc["definitions"].(map[string]interface{})
		params, _ := doc["parameters"].(map[string]interface{})
		used := map[string]bool{}
		for _, ref := range refs(doc) {
			switch {
			case strings.HasPrefix(ref, "#/definitions/"):
				name := strings.TrimPrefix(ref, "#/definitions/")
				used[name] = true
				if _, ok := defs[name]; !ok {
					t.Errorf("%s: $ref %s does not resolve", gv, ref)
				}
			case strings.HasPrefix(ref, "#/parameters/"):
				if _, ok := params[strings.TrimPrefix(ref, "#/parameters/")]; !ok {
					t.Errorf("%s: $ref %s does not resolve", gv, ref)
				}
			default:
				t.Errorf("%s: unexpected $ref %s", gv, ref)
			}
		}
		for name := range defs {
			if !used[name] {
				t.Errorf("%s: definition %s is not used", gv, name)
			}
		}
		for name, def := range defs {
			kinds, _ := def.(map[string]interface{})["x-kubernetes-group-version-kind"].([]interface{})
			for _, k := range kinds {
				m := k.(map[string]interface{})
				if m["group"] == "resource.k8s.io" && "resource.k8s.io/"+m["version"].(string) != gv {
					t.Errorf("%s: definition %s lists kind %v of another version", gv, name, m)
				}
			}
		}
	}
}

func TestDocumentJSONSchema(t *testing.T) {
	for _, gv := range groupVersions {
		data, err := openapi.Document(gv, "jsonschema")
		if err != nil {
			t.Fatal(err)
		}
		doc := decode(t, data)
		var want []string
		for _, k := range kindsOf[gv] {
			want = append(want, k, k+"List")
		}
		sort.Strings(want)
		var got []string
		for kind, s := range doc {
			got = append(got, kind)
			schema := s.(map[string]interface{})
			if r := refs(schema); len(r) > 0 {
				t.Errorf("%s %s: the schema is not standalone: $refs %v", gv, kind, r)
			}
			props := schema["properties"].(map[string]interface{})
			if enum := props["apiVersion"].(map[string]interface{})["enum"]; len(enum.([]interface{})) != 1 || enum.([]interface{})[0] != gv {
				t.Errorf("%s %s: apiVersion enum %v", gv, kind, enum)
			}
			if enum := props["kind"].(map[string]interface{})["enum"]; len(enum.([]interface{})) != 1 || enum.([]interface{})[0] != kind {
				t.Errorf("%s %s: kind enum %v", gv, kind, enum)
			}
		}
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: kinds %v, want %v", gv, got, want)
		}
	}
}

func TestDocumentErrors(t *testing.T) {
	for _, tc := range []struct{ gv, format, want string }{
		{"resource.k8s.io/v2", "v3", `no documents for group version "resource.k8s.io/v2"; the published ones are resource.k8s.io/v1alpha1, resource.k8s.io/v1alpha2, resource.k8s.io/v1alpha3, resource.k8s.io/v1beta1, resource.k8s.io/v1beta2, resource.k8s.io/v1`},
		{"resource.k8s.io/v1beta3", "jsonschema", `no documents for group version "resource.k8s.io/v1beta3"`},
		{"resource.k8s.io/V1", "v3", `no documents for group version "resource.k8s.io/V1"`},
		{"v1alpha3", "v3", `no documents for group version "v1alpha3"`},
		{"", "v2", `no documents for group version ""`},
		{"resource.k8s.io/v1alpha3/x", "v3", "no documents"},
		{"resource.k8s.io/*", "v3", "no documents"},
		{"apps/v1alpha3", "v3", "no documents"},
		{"resource.k8s.io/v1alpha3", "v4", `unknown format "v4"; use v2, v3 or jsonschema`},
	} {
		_, err := openapi.Document(tc.gv, tc.format)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Document(%q, %q) error = %v, want one containing %q", tc.gv, tc.format, err, tc.want)
		}
	}
}

// TestSchema: every kind's schema comes with every definition it refers to,
// directly or not, and nothing else.
func TestSchema(t *testing.T) {
	for _, gv := range groupVersions {
		for _, kind := range kindsOf[gv] {
			for _, k := range []string{kind, kind + "List"} {
				root, defs, err := openapi.Schema(gv, k)
				if err != nil {
					t.Fatalf("Schema(%s, %s): %v", gv, k, err)
				}
				version := strings.TrimPrefix(gv, "resource.k8s.io/")
				name := "io.k8s.api.resource." + version + "." + k
				if defs[name] != root {
					t.Errorf("Schema(%s, %s): the root is not definitions[%s]", gv, k, name)
				}
				if _, ok := root.Properties["apiVersion"]; !ok {
					t.Errorf("Schema(%s, %s): the root has no apiVersion property", gv, k)
				}
				reached := map[string]bool{name: true}
				var visit func(s *spec.Schema)
				visit = func(s *spec.Schema) {
					data, err := json.Marshal(s)
					if err != nil {
						t.Fatal(err)
					}
					var generic interface{}
					_ = json.Unmarshal(data, &generic)
					for _, ref := range refs(generic) {
						target, ok := strings.CutPrefix(ref, "#/components/schemas/")
						if !ok || defs[target] == nil {
							t.Errorf("Schema(%s, %s): $ref %s does not resolve", gv, k, ref)
							continue
						}
						if !reached[target] {
							reached[target] = true
							visit(defs[target])
						}
					}
				}
				visit(root)
				if len(reached) != len(defs) {
					t.Errorf("Schema(%s, %s): %d definitions, %d of them reachable", gv, k, len(defs), len(reached))
				}
			}
		}
	}

	root, defs, err := openapi.Schema("resource.k8s.io/v1alpha3", "resourceclaim")
	if err != nil {
		t.Fatalf("a kind in lower case: %v", err)
	}
	if _, ok := root.Properties["spec"]; !ok || defs["io.k8s.api.resource.v1alpha3.ResourceClaimSpec"] == nil || defs["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"] == nil {
		t.Errorf("Schema(resourceclaim) lacks the claim's spec or its definitions")
	}
	if got := root.Required; len(got) != 1 || got[0] != "spec" {
		t.Errorf("ResourceClaim requires %v, want [spec]", got)
	}

	// From 1.33 on the claim's spec is optional; a v1 DeviceTaintRule
	// requires one, and its spec the taint.
	root, _, err = openapi.Schema("resource.k8s.io/v1", "resourceclaim")
	if err != nil {
		t.Fatalf("v1 resourceclaim: %v", err)
	}
	if got := root.Required; len(got) != 0 {
		t.Errorf("v1 ResourceClaim requires %v, want nothing", got)
	}
	root, defs, err = openapi.Schema("resource.k8s.io/v1", "devicetaintrule")
	if err != nil {
		t.Fatalf("v1 devicetaintrule: %v", err)
	}
	if got := root.Required; len(got) != 1 || got[0] != "spec" {
		t.Errorf("v1 DeviceTaintRule requires %v, want [spec]", got)
	}
	if spec := defs["io.k8s.api.resource.v1.DeviceTaintRuleSpec"]; spec == nil || len(spec.Required) != 1 || spec.Required[0] != "taint" {
		t.Errorf("v1 DeviceTaintRuleSpec is %v, want one that requires the taint", spec)
	}

	for _, tc := range []struct{ gv, kind, want string }{
		{"resource.k8s.io/v1alpha3", "ResourceClass", `no kind "ResourceClass"; the kinds are DeviceClass, DeviceClassList, DeviceTaintRule, DeviceTaintRuleList, PodSchedulingContext, PodSchedulingContextList, ResourceClaim, ResourceClaimList, ResourceClaimTemplate, ResourceClaimTemplateList, ResourcePoolStatusRequest, ResourcePoolStatusRequestList, ResourceSlice, ResourceSliceList`},
		{"resource.k8s.io/v1beta1", "DeviceTaintRule", `no kind "DeviceTaintRule"; the kinds are DeviceClass, DeviceClassList, ResourceClaim, ResourceClaimList, ResourceClaimTemplate, ResourceClaimTemplateList, ResourceSlice, ResourceSliceList`},
		{"resource.k8s.io/v1", "PodSchedulingContext", `no kind "PodSchedulingContext"; the kinds are DeviceClass, DeviceClassList, DeviceTaintRule, DeviceTaintRuleList, ResourceClaim`},
		{"resource.k8s.io/v1", "ResourcePoolStatusRequest", `no kind "ResourcePoolStatusRequest"`},
		{"resource.k8s.io/v1alpha3", "Status", `no kind "Status"`},
		{"resource.k8s.io/v1alpha3", "", `no kind ""`},
		{"resource.k8s.io/v2", "ResourceClaim", "no documents for group version"},
	} {
		_, _, err := openapi.Schema(tc.gv, tc.kind)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Schema(%q, %q) error = %v, want one containing %q", tc.gv, tc.kind, err, tc.want)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func BenchmarkSchema(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, _, err := openapi.Schema("resource.k8s.io/v1alpha3", "ResourceClaim"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDocumentV2(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := openapi.Document("resource.k8s.io/v1alpha3", "v2"); err != nil {
			b.Fatal(err)
		}
	}
}
