package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	sjson "sigs.k8s.io/json"
	yamlv3 "sigs.k8s.io/yaml/goyaml.v3"

	"github.com/drakit/drakit/internal/jsonfields"
)

// The JSON decoder says what went wrong but not where: a malformed quantity
// deep in a ResourceSlice is reported as "unable to parse quantity's
// suffix". These helpers find the field at fault, and its line, only after
// a decode has failed, so the common path pays nothing for them.

var unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()

// locateDecodeError decodes js into a fresh value of obj's type piece by
// piece and returns the path of the innermost value that fails, with its
// error. It returns a nil error if js decodes (the failure was elsewhere).
func locateDecodeError(js []byte, obj any) (string, error) {
	t := reflect.TypeOf(obj)
	if t == nil {
		return "", nil
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return locate(js, t, "")
}

func locate(js []byte, t reflect.Type, path string) (string, error) {
	err := sjson.UnmarshalCaseSensitivePreserveInts(js, reflect.New(t).Interface())
	if err == nil {
		return "", nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return path, err
	}
	switch t.Kind() {
	case reflect.Struct:
		var fields map[string]json.RawMessage
		if json.Unmarshal(js, &fields) != nil {
			return path, err
		}
		known := jsonfields.Of(t)
		for _, name := range sortedKeys(fields) {
			ft, ok := known[name]
			if !ok {
				continue
			}
			if p, e := locate(fields[name], ft, joinPath(path, name)); e != nil {
				return p, e
			}
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return path, err
		}
		// One item at a time: a long list is not held twice, and the
		// search stops at the first item that fails.
		dec := json.NewDecoder(bytes.NewReader(js))
		if tok, terr := dec.Token(); terr != nil || tok != json.Delim('[') {
			return path, err
		}
		for i := 0; dec.More(); i++ {
			var item json.RawMessage
			if dec.Decode(&item) != nil {
				return path, err
			}
			if p, e := locate(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); e != nil {
				return p, e
			}
		}
	case reflect.Map:
		var values map[string]json.RawMessage
		if json.Unmarshal(js, &values) != nil {
			return path, err
		}
		for _, k := range sortedKeys(values) {
			if p, e := locate(values[k], t.Elem(), fmt.Sprintf("%s[%s]", path, k)); e != nil {
				return p, e
			}
		}
	}
	return path, err
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

var typeError = regexp.MustCompile(`cannot unmarshal (\w+) into Go (?:value|struct field \S+) of type (\S+)`)

// describeDecodeError rewords the decoder's messages in the terms of the
// manifest (JSON types) rather than of Go.
func describeDecodeError(err error) string {
	msg := err.Error()
	if m := typeError.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("must be %s, not %s", jsonTypeOfGo(m[2]), article(m[1]))
	}
	if strings.Contains(msg, "quantit") {
		return "not a quantity; write a number with an optional suffix, like 80Gi, 1.5 or 500m (" + msg + ")"
	}
	return strings.TrimPrefix(msg, "json: ")
}

func jsonTypeOfGo(goType string) string {
	t := strings.TrimLeft(goType, "*")
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["):
		return "an object"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "an integer"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "bool":
		return "a boolean (true or false)"
	case t == "string":
		return "a string"
	}
	// Named types: v1alpha3.DeviceRequest, types.UID, ...
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		switch t[i+1:] {
		case "UID", "QualifiedName", "FullyQualifiedName", "AllocationMode", "DeviceAllocationMode", "AllocationConfigSource":
			return "a string"
		}
	}
	return "an object"
}

func article(jsonType string) string {
	switch jsonType {
	case "object", "array":
		if jsonType == "array" {
			return "a list"
		}
		return "an object"
	case "number":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	}
	return jsonType
}

// LineOf returns the line, relative to the start of raw, of the field at
// path (as "spec.devices.requests[0].name"), or 0 if it cannot be found.
// With last set it returns the last occurrence of a key that appears more
// than once in its mapping.
func LineOf(raw []byte, path string, last bool) int {
	return lineIn(parseTree(raw), path, last)
}

// parseTree parses raw into YAML nodes (without expanding aliases), or
// returns nil if it is not well-formed.
func parseTree(raw []byte) *yamlv3.Node {
	var root yamlv3.Node
	if yamlv3.Unmarshal(raw, &root) != nil || len(root.Content) == 0 {
		return nil
	}
	return &root
}

// FieldLine is LineOf for the document, relative to the start of the
// stream. The document is parsed on the first call only: the items of a
// long List are each placed with one walk down the same tree, not with
// one parse of the whole document each (2,000 items took 70 s that way).
func (d *Document) FieldLine(path string, last bool) int {
	if !d.treeParsed {
		d.tree, d.treeParsed = parseTree(d.Raw), true
	}
	if line := lineIn(d.tree, path, last); line > 0 {
		return d.StartLine + line - 1
	}
	return 0
}

// lineIn is the line of the field at path in the tree, or 0.
func lineIn(root *yamlv3.Node, path string, last bool) int {
	if root == nil {
		return 0
	}
	n := root.Content[0]
	line := n.Line
	rest := path
	for rest != "" && n != nil {
		n = resolveAlias(n)
		switch n.Kind {
		case yamlv3.MappingNode:
			if strings.HasPrefix(rest, "[") { // a map key written as [key]
				end := strings.IndexByte(rest, ']')
				if end < 0 {
					return line
				}
				key := rest[1:end]
				found := false
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == key {
						line, n, found = n.Content[i].Line, n.Content[i+1], true
						if !last {
							break
						}
					}
				}
				if !found {
					return line
				}
				rest = rest[end+1:]
				continue
			}
			rest = strings.TrimPrefix(rest, ".")
			var best *yamlv3.Node
			var bestValue *yamlv3.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if !hasSegment(rest, k.Value) {
					continue
				}
				if best == nil || len(k.Value) > len(best.Value) || (last && k.Value == best.Value) {
					best, bestValue = k, n.Content[i+1]
				}
			}
			if best == nil {
				return line
			}
			line = best.Line
			rest = rest[len(best.Value):]
			n = bestValue
			if rest == "" {
				return line
			}
		case yamlv3.SequenceNode:
			if !strings.HasPrefix(rest, "[") {
				return line
			}
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return line
			}
			i, err := strconv.Atoi(rest[1:end])
			if err != nil || i < 0 || i >= len(n.Content) {
				return line
			}
			n = n.Content[i]
			line = n.Line
			rest = rest[end+1:]
		default:
			return line
		}
	}
	return line
}

// hasSegment reports whether path starts with the map key k, followed by
// the end of the path or a separator.
func hasSegment(path, k string) bool {
	if k == "" || !strings.HasPrefix(path, k) {
		// Map keys may also be written as [key].
		return false
	}
	rest := path[len(k):]
	return rest == "" || rest[0] == '.' || rest[0] == '['
}

func resolveAlias(n *yamlv3.Node) *yamlv3.Node {
	for i := 0; n != nil && n.Kind == yamlv3.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yamlv3.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	return n
}

// duplicatePath returns the path of the mapping key key that sits on line
// (relative to raw), or "" if there is none.
func duplicatePath(raw []byte, line int, key string) string {
	var root yamlv3.Node
	if yamlv3.Unmarshal(raw, &root) != nil {
		return ""
	}
	var find func(n *yamlv3.Node, path string, depth int) (string, bool)
	find = func(n *yamlv3.Node, path string, depth int) (string, bool) {
		if n == nil || depth > 200 {
			return "", false
		}
		switch n.Kind {
		case yamlv3.DocumentNode:
			for _, c := range n.Content {
				if p, ok := find(c, path, depth+1); ok {
					return p, true
				}
			}
		case yamlv3.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				p := joinPath(path, k.Value)
				if k.Line == line && k.Value == key {
					return p, true
				}
				if r, ok := find(n.Content[i+1], p, depth+1); ok {
					return r, true
				}
			}
		case yamlv3.SequenceNode:
			for i, c := range n.Content {
				if r, ok := find(c, fmt.Sprintf("%s[%d]", path, i), depth+1); ok {
					return r, true
				}
			}
		}
		return "", false
	}
	p, _ := find(&root, "", 0)
	return p
}
