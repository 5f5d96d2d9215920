// Package jsonschemagen turns an OpenAPI v2 document of Kubernetes kinds
// into JSON Schema files in the layout of kubeconform's schema registry
// (github.com/yannh/kubernetes-json-schema, made with openapi2jsonschema
// --kubernetes --expanded):
//
//	<kind>-<group>-<version>.json              $refs into _definitions.json
//	_definitions.json                           every definition of the document
//	all.json                                    oneOf the kinds
//	standalone/<kind>-<group>-<version>.json    every $ref inlined
//	standalone-strict/<kind>-<group>-<version>.json
//	                                            inlined, and no object schema
//	                                            with properties accepts other
//	                                            properties
//
// <kind> is the lower-cased kind and <group> the first label of the API
// group, so that kubeconform finds the file of a manifest with
//
//	-schema-location '<dir>/standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json'
//
// As openapi2jsonschema does for Kubernetes, IntOrString becomes
// "string or integer", Quantity "string or number", and the kind and
// apiVersion properties of each kind only accept that kind's values.
package jsonschemagen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Layout names.
const (
	DefinitionsFile = "_definitions.json"
	AllFile         = "all.json"
	StandaloneDir   = "standalone"
	StrictDir       = "standalone-strict"
)

// schemaDialect is the $schema the files declare, as kubeconform's own
// schema registry does; kubeconform reads them as draft 4.
const schemaDialect = "http://json-schema.org/schema#"

const gvkExtension = "x-kubernetes-group-version-kind"

// Well-known definitions that JSON Schema describes differently from
// OpenAPI: both accept a number as well as a string.
const (
	intOrStringName = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
	quantityName    = "io.k8s.apimachinery.pkg.api.resource.Quantity"
)

// Kind is a definition that is served as a kind of an API group, and so
// gets a file of its own.
type Kind struct {
	Definition string // "io.k8s.api.resource.v1alpha3.ResourceClaim"
	Group      string // "resource.k8s.io"
	Version    string // "v1alpha3"
	Kind       string // "ResourceClaim"
}

// FileName is the name kubeconform looks the kind's schema up by:
// "resourceclaim-resource-v1alpha3.json", or "pod-v1.json" in the core group.
func (k Kind) FileName() string {
	name := strings.ToLower(k.Kind)
	if k.Group != "" {
		group, _, _ := strings.Cut(k.Group, ".")
		name += "-" + strings.ToLower(group)
	}
	return name + "-" + strings.ToLower(k.Version) + ".json"
}

// APIVersion is the apiVersion of manifests of the kind.
func (k Kind) APIVersion() string {
	if k.Group == "" {
		return k.Version
	}
	return k.Group + "/" + k.Version
}

// Options choose which kinds get files.
type Options struct {
	// Select tells whether a kind gets files. Nil selects every kind.
	Select func(Kind) bool
}

// Generate returns the files of the layout, by path relative to the
// layout's root, for the OpenAPI v2 document swagger.
func Generate(swagger []byte, opts Options) (map[string][]byte, error) {
	defs, err := definitions(swagger)
	if err != nil {
		return nil, err
	}
	adaptForKubernetes(defs)
	kinds, err := kindsOf(defs, opts.Select)
	if err != nil {
		return nil, err
	}

	files := map[string]interface{}{
		DefinitionsFile: map[string]interface{}{"definitions": defs},
	}
	var all []interface{}
	for _, k := range kinds {
		if _, dup := files[k.FileName()]; dup {
			return nil, fmt.Errorf("two kinds share the schema file name %s; the layout cannot hold both", k.FileName())
		}
		ref := DefinitionsFile + "#/definitions/" + k.Definition
		all = append(all, map[string]interface{}{"$ref": ref})

		files[k.FileName()] = fileSchema(rewriteRefs(defs[k.Definition], DefinitionsFile))

		inlined, err := inline(defs[k.Definition], defs, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k.Definition, err)
		}
		files[StandaloneDir+"/"+k.FileName()] = fileSchema(inlined)
		files[StrictDir+"/"+k.FileName()] = closeObjects(fileSchema(deepCopy(inlined)))
	}
	files[AllFile] = map[string]interface{}{"oneOf": all}

	out := make(map[string][]byte, len(files))
	for name, schema := range files {
		data, err := encode(schema)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = data
	}
	return out, nil
}

// definitions decodes the definitions of an OpenAPI v2 document.
func definitions(swagger []byte) (map[string]interface{}, error) {
	dec := json.NewDecoder(bytes.NewReader(swagger))
	dec.UseNumber()
	var doc struct {
		Swagger     string                 `json:"swagger"`
		Definitions map[string]interface{} `json:"definitions"`
	}
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("reading the OpenAPI v2 document: %w", err)
	}
	if doc.Swagger != "2.0" {
		return nil, fmt.Errorf("not an OpenAPI v2 document (swagger is %q, want \"2.0\")", doc.Swagger)
	}
	if len(doc.Definitions) == 0 {
		return nil, fmt.Errorf("the OpenAPI v2 document has no definitions")
	}
	return doc.Definitions, nil
}

// adaptForKubernetes makes the changes openapi2jsonschema makes for
// Kubernetes documents: IntOrString and Quantity also accept numbers, and
// the kind and apiVersion of each kind are limited to its own values.
func adaptForKubernetes(defs map[string]interface{}) {
	oneOf := func(name string, types ...string) {
		def, ok := defs[name].(map[string]interface{})
		if !ok {
			return
		}
		var alternatives []interface{}
		for _, t := range types {
			alternatives = append(alternatives, map[string]interface{}{"type": t})
		}
		replacement := map[string]interface{}{"oneOf": alternatives}
		if d, ok := def["description"]; ok {
			replacement["description"] = d
		}
		defs[name] = replacement
	}
	oneOf(intOrStringName, "string", "integer")
	oneOf(quantityName, "string", "number")

	for _, def := range defs {
		schema, ok := def.(map[string]interface{})
		if !ok {
			continue
		}
		props, _ := schema["properties"].(map[string]interface{})
		for _, k := range gvks(schema) {
			if p, ok := props["kind"].(map[string]interface{}); ok {
				appendEnum(p, k.Kind)
			}
			if p, ok := props["apiVersion"].(map[string]interface{}); ok {
				appendEnum(p, k.APIVersion())
			}
		}
	}
}

func appendEnum(schema map[string]interface{}, value string) {
	enum, _ := schema["enum"].([]interface{})
	for _, v := range enum {
		if v == value {
			return
		}
	}
	schema["enum"] = append(enum, value)
}

// gvks reads the x-kubernetes-group-version-kind extension of a schema.
func gvks(schema map[string]interface{}) []Kind {
	list, _ := schema[gvkExtension].([]interface{})
	var out []Kind
	for _, item := range list {
		m, ok := item.(map[string]interface{})
		if !ok {
			continue
		}
		group, _ := m["group"].(string)
		version, _ := m["version"].(string)
		kind, _ := m["kind"].(string)
		if version != "" && kind != "" {
			out = append(out, Kind{Group: group, Version: version, Kind: kind})
		}
	}
	return out
}

// kindsOf lists the selected kinds of defs, ordered by definition name and
// then by group version.
func kindsOf(defs map[string]interface{}, sel func(Kind) bool) ([]Kind, error) {
	names := make([]string, 0, len(defs))
	for name := range defs {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []Kind
	for _, name := range names {
		schema, ok := defs[name].(map[string]interface{})
		if !ok {
			return nil, fmt.Errorf("definition %s is not a JSON object", name)
		}
		for _, k := range gvks(schema) {
			k.Definition = name
			if sel == nil || sel(k) {
				out = append(out, k)
			}
		}
	}
	return out, nil
}

// fileSchema makes a definition a schema document of its own.
func fileSchema(def interface{}) map[string]interface{} {
	schema, _ := deepCopy(def).(map[string]interface{})
	if schema == nil {
		schema = map[string]interface{}{}
	}
	schema["$schema"] = schemaDialect
	if _, ok := schema["type"]; !ok {
		if _, composed := schema["oneOf"]; !composed {
			schema["type"] = "object"
		}
	}
	return schema
}

const localRefPrefix = "#/definitions/"

// rewriteRefs returns a copy of v whose local $refs point into file.
func rewriteRefs(v interface{}, file string) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		out := make(map[string]interface{}, len(t))
		for k, item := range t {
			if ref, ok := item.(string); ok && k == "$ref" && strings.HasPrefix(ref, localRefPrefix) {
				out[k] = file + ref
				continue
			}
			out[k] = rewriteRefs(item, file)
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(t))
		for i, item := range t {
			out[i] = rewriteRefs(item, file)
		}
		return out
	default:
		return v
	}
}

// inline returns a copy of v with every $ref replaced by a copy of the
// definition it names, recursively. The sibling keywords of a $ref
// (description, default) are kept next to the inlined definition's, the
// ref's own winning. A definition that refers back to itself cannot be
// inlined; path holds the definitions being inlined, to find that.
func inline(v interface{}, defs map[string]interface{}, path []string) (interface{}, error) {
	switch t := v.(type) {
	case map[string]interface{}:
		if ref, ok := t["$ref"].(string); ok {
			name, local := strings.CutPrefix(ref, localRefPrefix)
			if !local {
				return nil, fmt.Errorf("$ref %q does not name a definition of the document", ref)
			}
			for _, seen := range path {
				if seen == name {
					return nil, fmt.Errorf("definition %s refers to itself (through %s); it cannot be inlined", name, strings.Join(append(path, name), " -> "))
				}
			}
			def, ok := defs[name]
			if !ok {
				return nil, fmt.Errorf("$ref %q names no definition of the document", ref)
			}
			resolved, err := inline(def, defs, append(path, name))
			if err != nil {
				return nil, err
			}
			merged, _ := resolved.(map[string]interface{})
			if merged == nil {
				return resolved, nil
			}
			for k, item := range t {
				if k == "$ref" {
					continue
				}
				sibling, err := inline(item, defs, path)
				if err != nil {
					return nil, err
				}
				merged[k] = sibling
			}
			return merged, nil
		}
		out := make(map[string]interface{}, len(t))
		for k, item := range t {
			inlined, err := inline(item, defs, path)
			if err != nil {
				return nil, err
			}
			out[k] = inlined
		}
		return out, nil
	case []interface{}:
		out := make([]interface{}, len(t))
		for i, item := range t {
			inlined, err := inline(item, defs, path)
			if err != nil {
				return nil, err
			}
			out[i] = inlined
		}
		return out, nil
	default:
		return v, nil
	}
}

// closeObjects sets additionalProperties to false on every schema that
// lists properties and does not say otherwise, which is what kubeconform's
// strict mode relies on to reject unknown fields. Maps (additionalProperties
// with a schema) and free-form objects (no properties) stay open.
func closeObjects(schema map[string]interface{}) map[string]interface{} {
	var walk func(v interface{}, isSchema bool)
	walk = func(v interface{}, isSchema bool) {
		switch t := v.(type) {
		case map[string]interface{}:
			if isSchema {
				if _, ok := t["properties"]; ok {
					if _, set := t["additionalProperties"]; !set {
						t["additionalProperties"] = false
					}
				}
			}
			for k, item := range t {
				switch k {
				case "properties", "definitions", "patternProperties":
					// Maps from names to schemas.
					if m, ok := item.(map[string]interface{}); ok {
						for _, s := range m {
							walk(s, true)
						}
					}
				case "items", "additionalProperties", "not":
					walk(item, true)
				case "allOf", "anyOf", "oneOf":
					walk(item, true)
				case "enum", "default", "example", "required":
					// Values, not schemas.
				default:
					if strings.HasPrefix(k, "x-") {
						continue
					}
					walk(item, false)
				}
			}
		case []interface{}:
			for _, item := range t {
				walk(item, isSchema)
			}
		}
	}
	walk(schema, true)
	return schema
}

// deepCopy copies decoded JSON.
func deepCopy(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		out := make(map[string]interface{}, len(t))
		for k, item := range t {
			out[k] = deepCopy(item)
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(t))
		for i, item := range t {
			out[i] = deepCopy(item)
		}
		return out
	default:
		return v
	}
}

// encode writes a file: two-space indentation, sorted keys, no HTML
// escaping, final newline.
func encode(v interface{}) ([]byte, error) {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
