package jsonschemagen

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// swagger is a small OpenAPI v2 document with one kind of a named group,
// one of the core group, a map, a free-form object, and the two types that
// JSON Schema describes differently.
const swagger = `{
  "swagger": "2.0",
  "definitions": {
    "io.k8s.api.example.v1.Widget": {
      "type": "object",
      "description": "Widget is an example.",
      "required": ["spec"],
      "properties": {
        "apiVersion": {"type": "string"},
        "kind": {"type": "string"},
        "metadata": {"$ref": "#/definitions/io.k8s.Meta", "description": "The metadata."},
        "spec": {"$ref": "#/definitions/io.k8s.api.example.v1.WidgetSpec"}
      },
      "x-kubernetes-group-version-kind": [{"group": "example.k8s.io", "version": "v1", "kind": "Widget"}]
    },
    "io.k8s.api.example.v1.WidgetSpec": {
      "type": "object",
      "properties": {
        "size": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity"},
        "port": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString"},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "parameters": {"type": "object"},
        "parts": {"type": "array", "items": {"$ref": "#/definitions/io.k8s.Part"}}
      }
    },
    "io.k8s.Part": {"properties": {"name": {"type": "string", "default": ""}}, "required": ["name"]},
    "io.k8s.Meta": {"type": "object", "description": "Meta.", "properties": {"name": {"type": "string"}}},
    "io.k8s.apimachinery.pkg.api.resource.Quantity": {"type": "string", "description": "A quantity."},
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"type": "string", "format": "int-or-string"},
    "io.k8s.api.core.v1.Thing": {
      "type": "object",
      "properties": {"kind": {"type": "string"}, "apiVersion": {"type": "string"}},
      "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "Thing"}]
    }
  }
}`

func generate(t *testing.T, opts Options) map[string]map[string]interface{} {
	t.Helper()
	files, err := Generate([]byte(swagger), opts)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]interface{}{}
	for name, data := range files {
		if !strings.HasSuffix(string(data), "}\n") {
			t.Errorf("%s does not end with a newline", name)
		}
		var v map[string]interface{}
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = v
	}
	return out
}

func get(t *testing.T, v interface{}, path ...string) interface{} {
	t.Helper()
	for _, p := range path {
		m, ok := v.(map[string]interface{})
		if !ok {
			t.Fatalf("no %s in %v", p, v)
		}
		v = m[p]
	}
	return v
}

func TestLayout(t *testing.T) {
	files := generate(t, Options{})
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	want := []string{
		"_definitions.json", "all.json",
		"standalone-strict/thing-v1.json", "standalone-strict/widget-example-v1.json",
		"standalone/thing-v1.json", "standalone/widget-example-v1.json",
		"thing-v1.json", "widget-example-v1.json",
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("files %v, want %v", names, want)
	}

	only := generate(t, Options{Select: func(k Kind) bool { return k.Group != "" }})
	if _, ok := only["thing-v1.json"]; ok {
		t.Error("Select did not leave out the core kind")
	}
	all := get(t, only["all.json"], "oneOf").([]interface{})
	if len(all) != 1 || get(t, all[0], "$ref") != "_definitions.json#/definitions/io.k8s.api.example.v1.Widget" {
		t.Errorf("all.json: %v", all)
	}
}

func TestReferencingFile(t *testing.T) {
	files := generate(t, Options{})
	w := files["widget-example-v1.json"]
	if w["$schema"] != "http://json-schema.org/schema#" {
		t.Errorf("$schema %v", w["$schema"])
	}
	if got := get(t, w, "properties", "spec", "$ref"); got != "_definitions.json#/definitions/io.k8s.api.example.v1.WidgetSpec" {
		t.Errorf("spec $ref %v", got)
	}
	// _definitions.json keeps its own refs local to itself.
	if got := get(t, files["_definitions.json"], "definitions", "io.k8s.api.example.v1.Widget", "properties", "spec", "$ref"); got != "#/definitions/io.k8s.api.example.v1.WidgetSpec" {
		t.Errorf("_definitions.json spec $ref %v", got)
	}
}

func TestStandalone(t *testing.T) {
	files := generate(t, Options{})
	w := files["standalone/widget-example-v1.json"]
	data, _ := json.Marshal(w)
	if strings.Contains(string(data), "$ref") {
		t.Errorf("standalone file has $refs: %s", data)
	}
	// The ref's own description wins over the definition's.
	if got := get(t, w, "properties", "metadata", "description"); got != "The metadata." {
		t.Errorf("metadata description %v", got)
	}
	if got := get(t, w, "properties", "spec", "properties", "parts", "items", "required"); !reflect.DeepEqual(got, []interface{}{"name"}) {
		t.Errorf("parts items required %v", got)
	}
	// Quantity and IntOrString accept numbers.
	size := get(t, w, "properties", "spec", "properties", "size")
	if got := get(t, size, "oneOf"); !reflect.DeepEqual(got, []interface{}{map[string]interface{}{"type": "string"}, map[string]interface{}{"type": "number"}}) {
		t.Errorf("Quantity is %v", size)
	}
	if get(t, size, "description") != "A quantity." {
		t.Errorf("Quantity lost its description: %v", size)
	}
	if got := get(t, w, "properties", "spec", "properties", "port", "oneOf"); !reflect.DeepEqual(got, []interface{}{map[string]interface{}{"type": "string"}, map[string]interface{}{"type": "integer"}}) {
		t.Errorf("IntOrString is %v", got)
	}
	// kind and apiVersion only accept the kind's own values.
	if got := get(t, w, "properties", "kind", "enum"); !reflect.DeepEqual(got, []interface{}{"Widget"}) {
		t.Errorf("kind enum %v", got)
	}
	if got := get(t, w, "properties", "apiVersion", "enum"); !reflect.DeepEqual(got, []interface{}{"example.k8s.io/v1"}) {
		t.Errorf("apiVersion enum %v", got)
	}
	if got := get(t, files["standalone/thing-v1.json"], "properties", "apiVersion", "enum"); !reflect.DeepEqual(got, []interface{}{"v1"}) {
		t.Errorf("core apiVersion enum %v", got)
	}
	// Non-strict files stay open.
	if _, ok := w["additionalProperties"]; ok {
		t.Error("the non-strict file closes the root object")
	}
}

func TestStrict(t *testing.T) {
	w := generate(t, Options{})["standalone-strict/widget-example-v1.json"]
	for _, path := range [][]string{
		{},
		{"properties", "metadata"},
		{"properties", "spec"},
		{"properties", "spec", "properties", "parts", "items"},
	} {
		if got := get(t, w, append(path, "additionalProperties")...); got != false {
			t.Errorf("%v: additionalProperties %v, want false", path, got)
		}
	}
	// A map keeps its value schema, a free-form object stays free-form.
	if got := get(t, w, "properties", "spec", "properties", "labels", "additionalProperties"); !reflect.DeepEqual(got, map[string]interface{}{"type": "string"}) {
		t.Errorf("map additionalProperties %v", got)
	}
	if _, ok := get(t, w, "properties", "spec", "properties", "parameters").(map[string]interface{})["additionalProperties"]; ok {
		t.Error("a free-form object was closed")
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`not json`, "reading the OpenAPI v2 document"},
		{`{"openapi": "3.0.0", "components": {}}`, "not an OpenAPI v2 document"},
		{`{"swagger": "2.0"}`, "no definitions"},
		{`{"swagger": "2.0", "definitions": {"a.v1.A": {"properties": {"b": {"$ref": "#/definitions/missing"}}, "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "A"}]}}}`,
			`names no definition`},
		{`{"swagger": "2.0", "definitions": {"a.v1.A": {"properties": {"b": {"$ref": "#/definitions/a.v1.A"}}, "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "A"}]}}}`,
			"refers to itself"},
		{`{"swagger": "2.0", "definitions": {
			"a.v1.A": {"x-kubernetes-group-version-kind": [{"group": "g.io", "version": "v1", "kind": "A"}]},
			"b.v1.A": {"x-kubernetes-group-version-kind": [{"group": "g.example.com", "version": "v1", "kind": "A"}]}}}`,
			"share the schema file name a-g-v1.json"},
	} {
		_, err := Generate([]byte(tc.doc), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Generate(%.40s...) error = %v, want one containing %q", tc.doc, err, tc.want)
		}
	}
}

func TestKindFileName(t *testing.T) {
	for k, want := range map[Kind]string{
		{Group: "resource.k8s.io", Version: "v1alpha3", Kind: "ResourceClaim"}: "resourceclaim-resource-v1alpha3.json",
		{Group: "", Version: "v1", Kind: "Pod"}:                                "pod-v1.json",
		{Group: "apps", Version: "v1", Kind: "Deployment"}:                     "deployment-apps-v1.json",
	} {
		if got := k.FileName(); got != want {
			t.Errorf("%+v: %s, want %s", k, got, want)
		}
	}
}
