// Package explain prints the documentation of a kind or field from its
// OpenAPI v3 schema, laid out as `kubectl explain` does (GROUP, KIND,
// VERSION, FIELD, DESCRIPTION, FIELDS).
package explain

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// Request says what to explain.
type Request struct {
	// GVK is the kind.
	GVK schema.GroupVersionKind
	// Root is the kind's schema; Definitions resolve its references
	// ("#/components/schemas/<name>").
	Root        *spec.Schema
	Definitions map[string]*spec.Schema
	// Path is the field path below the kind, e.g. ["spec", "devices"].
	Path []string
	// Recursive lists the fields of the fields, all the way down.
	Recursive bool
}

// Width is the width descriptions are wrapped to.
const Width = 80

// Render writes the explanation of r to w.
func Render(w io.Writer, r Request) error {
	e := &explainer{defs: r.Definitions}
	current := e.resolve(r.Root)
	var field *spec.Schema // the field's own schema (as referenced)
	fieldName := ""
	required := false
	for i, name := range r.Path {
		next, req, err := e.child(current, name)
		if err != nil {
			return fmt.Errorf("field %q does not exist in %s%s of %s", name, r.GVK.Kind, prefixPath(r.Path[:i]), r.GVK.GroupVersion())
		}
		field, fieldName, required = next, name, req
		current = e.resolve(next)
	}

	b := &strings.Builder{}
	group := r.GVK.Group
	if group == "" {
		group = "core"
	}
	fmt.Fprintf(b, "GROUP:      %s\n", group)
	fmt.Fprintf(b, "KIND:       %s\n", r.GVK.Kind)
	fmt.Fprintf(b, "VERSION:    %s\n\n", r.GVK.Version)

	if field != nil {
		fmt.Fprintf(b, "FIELD: %s <%s>%s\n\n", fieldName, e.typeName(field), requiredMark(required))
		if enum := enumOf(e.resolve(field), field); len(enum) > 0 {
			b.WriteString("ENUM:\n")
			for _, v := range enum {
				fmt.Fprintf(b, "    %s\n", v)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("DESCRIPTION:\n")
	desc := description(field, current)
	if desc == "" {
		desc = "<empty>"
	}
	writeWrapped(b, desc, 4)
	b.WriteString("\n")

	fields := e.fieldsOf(current)
	if len(fields) > 0 {
		b.WriteString("FIELDS:\n")
		e.writeFields(b, current, 2, r.Recursive, map[*spec.Schema]bool{current: true})
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type explainer struct {
	defs map[string]*spec.Schema
}

// resolve follows references ($ref, or a lone allOf with a $ref, the form
// OpenAPI v3 uses to attach a description to a referenced type).
func (e *explainer) resolve(s *spec.Schema) *spec.Schema {
	for i := 0; s != nil && i < 32; i++ {
		if ref := refName(s); ref != "" {
			next, ok := e.defs[ref]
			if !ok {
				return s
			}
			s = next
			continue
		}
		break
	}
	return s
}

func refName(s *spec.Schema) string {
	if r := s.Ref.String(); r != "" {
		return r[strings.LastIndexByte(r, '/')+1:]
	}
	if len(s.AllOf) == 1 {
		return refName(&s.AllOf[0])
	}
	return ""
}

// child returns the schema of field name of s, walking through lists and
// maps the way kubectl does ("spec.devices.requests.selectors").
func (e *explainer) child(s *spec.Schema, name string) (*spec.Schema, bool, error) {
	for i := 0; s != nil && i < 8; i++ {
		if prop, ok := s.Properties[name]; ok {
			return &prop, contains(s.Required, name), nil
		}
		switch {
		case s.Items != nil && s.Items.Schema != nil:
			s = e.resolve(s.Items.Schema)
		case s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
			s = e.resolve(s.AdditionalProperties.Schema)
		default:
			return nil, false, fmt.Errorf("no field %s", name)
		}
	}
	return nil, false, fmt.Errorf("no field %s", name)
}

// fieldsOf returns the schema whose properties are listed under FIELDS:
// that of s, or of its items or map values.
func (e *explainer) fieldsOf(s *spec.Schema) map[string]spec.Schema {
	for i := 0; s != nil && i < 8; i++ {
		if len(s.Properties) > 0 {
			return s.Properties
		}
		switch {
		case s.Items != nil && s.Items.Schema != nil:
			s = e.resolve(s.Items.Schema)
		case s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
			s = e.resolve(s.AdditionalProperties.Schema)
		default:
			return nil
		}
	}
	return nil
}

func (e *explainer) propertiesOwner(s *spec.Schema) *spec.Schema {
	for i := 0; s != nil && i < 8; i++ {
		if len(s.Properties) > 0 {
			return s
		}
		switch {
		case s.Items != nil && s.Items.Schema != nil:
			s = e.resolve(s.Items.Schema)
		case s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
			s = e.resolve(s.AdditionalProperties.Schema)
		default:
			return nil
		}
	}
	return nil
}

func (e *explainer) writeFields(b *strings.Builder, s *spec.Schema, indent int, recursive bool, seen map[*spec.Schema]bool) {
	owner := e.propertiesOwner(s)
	if owner == nil {
		return
	}
	names := make([]string, 0, len(owner.Properties))
	for name := range owner.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	pad := strings.Repeat(" ", indent)
	for i, name := range names {
		prop := owner.Properties[name]
		fmt.Fprintf(b, "%s%s\t<%s>%s\n", pad, name, e.typeName(&prop), requiredMark(contains(owner.Required, name)))
		if recursive {
			target := e.resolve(&prop)
			if target != nil && !seen[target] {
				seen[target] = true
				e.writeFields(b, target, indent+2, true, seen)
				delete(seen, target)
			}
			continue
		}
		if enum := enumOf(e.resolve(&prop), &prop); len(enum) > 0 {
			fmt.Fprintf(b, "%s  enum: %s\n", pad, strings.Join(enum, ", "))
		}
		desc := description(&prop, nil)
		if desc == "" {
			desc = "<no description>"
		}
		writeWrapped(b, desc, indent+2)
		if i < len(names)-1 {
			b.WriteString("\n")
		}
	}
}

// typeName names a field's type as kubectl does: the referenced type's
// name, []T for lists, map[string]T for maps, else the JSON type.
func (e *explainer) typeName(s *spec.Schema) string {
	if s == nil {
		return "Object"
	}
	if ref := refName(s); ref != "" {
		return ref[strings.LastIndexByte(ref, '.')+1:]
	}
	if s.Extensions != nil {
		if v, ok := s.Extensions["x-kubernetes-int-or-string"].(bool); ok && v {
			return "IntOrString"
		}
	}
	switch {
	case s.Type.Contains("array"):
		if s.Items != nil && s.Items.Schema != nil {
			return "[]" + e.typeName(s.Items.Schema)
		}
		return "[]Object"
	case s.Type.Contains("object"):
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			return "map[string]" + e.typeName(s.AdditionalProperties.Schema)
		}
		return "Object"
	case len(s.Type) > 0:
		return s.Type[0]
	}
	return "Object"
}

// description is the field's description, then that of its type if it is
// a different text (kubectl shows both).
func description(field, target *spec.Schema) string {
	var parts []string
	if field != nil && field.Description != "" {
		parts = append(parts, field.Description)
	}
	if target != nil && target != field && target.Description != "" && (field == nil || target.Description != field.Description) {
		parts = append(parts, target.Description)
	}
	return strings.Join(parts, "\n\n")
}

func enumOf(resolved, field *spec.Schema) []string {
	var values []any
	if field != nil && len(field.Enum) > 0 {
		values = field.Enum
	} else if resolved != nil {
		values = resolved.Enum
	}
	out := make([]string, 0, len(values))
	for _, v := range values {
		out = append(out, fmt.Sprint(v))
	}
	return out
}

func requiredMark(required bool) string {
	if required {
		return " -required-"
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func prefixPath(path []string) string {
	if len(path) == 0 {
		return ""
	}
	return "." + strings.Join(path, ".")
}

// writeWrapped writes text with every line indented and wrapped at Width,
// keeping the paragraphs and line breaks of the text.
func writeWrapped(b *strings.Builder, text string, indent int) {
	pad := strings.Repeat(" ", indent)
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		words := strings.Fields(line)
		if len(words) == 0 {
			b.WriteString("\n")
			continue
		}
		col := 0
		b.WriteString(pad)
		for i, word := range words {
			if i > 0 && indent+col+1+len(word) > Width {
				b.WriteString("\n")
				b.WriteString(pad)
				col = 0
			} else if i > 0 {
				b.WriteString(" ")
				col++
			}
			b.WriteString(word)
			col += len(word)
		}
		b.WriteString("\n")
	}
}

// FieldNames lists the fields below path in a kind's schema, for shell
// completion; nil if path does not exist.
func FieldNames(root *spec.Schema, defs map[string]*spec.Schema, path []string) []string {
	e := &explainer{defs: defs}
	current := e.resolve(root)
	for _, name := range path {
		next, _, err := e.child(current, name)
		if err != nil {
			return nil
		}
		current = e.resolve(next)
	}
	owner := e.propertiesOwner(current)
	if owner == nil {
		return nil
	}
	names := make([]string, 0, len(owner.Properties))
	for name := range owner.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
