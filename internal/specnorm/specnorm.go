// Package specnorm brings two OpenAPI documents, decoded from JSON into
// plain maps and slices, to a form in which they can be compared
// structurally: descriptions dropped, and the schema of every list item and
// map value written the one way the generator of drakit's line writes it.
//
// The suites that compare drakit's published documents with the ones real
// API servers serve (hack/e2e, hack/kubeconform-test) use it on both sides,
// so that a difference which remains is one of meaning.
package specnorm

import "encoding/json"

// Normalize returns v without descriptions and with every list item and map
// value schema in the plain form (see WithoutItemDefaults). v is not changed.
func Normalize(v any) any {
	return WithoutItemDefaults(WithoutDescriptions(v))
}

// WithoutDescriptions drops every "description" whose value is text, so that
// a property called description stays.
func WithoutDescriptions(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, item := range t {
			if _, text := item.(string); text && k == "description" {
				continue
			}
			out[k] = WithoutDescriptions(item)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, item := range t {
			out[i] = WithoutDescriptions(item)
		}
		return out
	default:
		return v
	}
}

// WithoutItemDefaults rewrites the schema of every list item and map value in
// the form openapi-gen has written since Kubernetes 1.35: a reference as a
// plain $ref instead of {"allOf":[{"$ref":...}],"default":{}}, and no default
// "" or 0 beside a scalar type. Before 1.35 the generator gave every element
// of a list or map of non-pointers the zero value as its default, and wrapped
// a reference in allOf to allow that sibling. An element is never absent, so
// that default never applied and both forms mean the same. drakit generates
// its definitions with the generator of its own line, the servers of
// 1.26-1.33 used the old one; rewriting both sides keeps every difference in
// what the element is.
func WithoutItemDefaults(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, item := range t {
			item = WithoutItemDefaults(item)
			if k == "items" || k == "additionalProperties" {
				item = plainElement(item)
			}
			out[k] = item
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, item := range t {
			out[i] = WithoutItemDefaults(item)
		}
		return out
	default:
		return v
	}
}

// plainElement is one element schema in the post-1.35 form.
func plainElement(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, item := range m {
		out[k] = item
	}
	if def, ok := out["default"]; ok && isZero(def) {
		delete(out, "default")
	}
	if all, ok := out["allOf"].([]any); ok && len(all) == 1 {
		if ref, ok := all[0].(map[string]any); ok && len(ref) == 1 && ref["$ref"] != nil {
			if _, taken := out["$ref"]; !taken {
				delete(out, "allOf")
				out["$ref"] = ref["$ref"]
			}
		}
	}
	return out
}

// isZero tells whether a default is the zero value of its JSON type, decoded
// with or without UseNumber.
func isZero(v any) bool {
	switch t := v.(type) {
	case string:
		return t == ""
	case float64:
		return t == 0
	case json.Number:
		f, err := t.Float64()
		return err == nil && f == 0
	case bool:
		return !t
	case map[string]any:
		return len(t) == 0
	}
	return false
}
