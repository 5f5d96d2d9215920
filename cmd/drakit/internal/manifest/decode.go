package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	sjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/internal/quantityguard"
)

// ToJSON returns the content of d as JSON. YAML is read with the rules
// kubectl uses (sigs.k8s.io/yaml: YAML 1.1 scalars, merge keys, a guard
// against alias bombs). A duplicate key is an error when strict is set;
// otherwise it is returned as a warning and the last value wins, as in
// kubectl. The result must be an object of at most MaxDocumentBytes, after
// aliases are expanded.
func (d *Document) ToJSON(strict bool) (js []byte, warnings []*Error, err *Error) {
	if d.Format == JSON {
		js = bytes.TrimSpace(d.Content())
	} else {
		if e := d.checkAliases(); e != nil {
			return nil, nil, e
		}
		var yerr error
		js, yerr = yaml.YAMLToJSONStrict(d.Raw)
		if yerr != nil {
			e := d.yamlError(yerr)
			if !isDuplicateKey(yerr) {
				return nil, nil, e
			}
			// The rest of the document is fine: name the object.
			js, yerr = yaml.YAMLToJSON(d.Raw)
			if yerr != nil {
				return nil, nil, d.yamlError(yerr)
			}
			var h Head
			if sjson.UnmarshalCaseSensitivePreserveInts(js, &h) == nil {
				e.Object = h.Object()
			}
			if strict {
				return nil, nil, e
			}
			warnings = append(warnings, e)
		}
		if len(js) > MaxDocumentBytes {
			return nil, warnings, d.Errorf("YAML aliases expand the document to %d bytes, over the limit of %s (an alias bomb?)", len(js), formatBytes(MaxDocumentBytes))
		}
	}
	if len(js) == 0 || js[0] != '{' {
		what := "empty"
		if len(js) > 0 {
			switch js[0] {
			case '[':
				what = "a list"
			case '"':
				what = "a string"
			case 'n':
				what = "null"
			default:
				what = "a scalar"
			}
		}
		return nil, warnings, d.Errorf("a manifest must be an object with apiVersion and kind; this document is %s", what)
	}
	return js, warnings, nil
}

var (
	yamlLineError      = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	yamlUnmarshalError = regexp.MustCompile(`(?m)^\s*line (\d+): (.*)$`)
	duplicateKeyError  = regexp.MustCompile(`^key (".*") already set in map$`)
)

func isDuplicateKey(err error) bool {
	return strings.Contains(err.Error(), "already set in map")
}

// yamlError turns an error of the YAML parser into an Error at the right
// line of the source, with the field path when the YAML is well-formed
// enough to find it.
func (d *Document) yamlError(err error) *Error {
	msg := err.Error()
	line := 0
	if m := yamlLineError.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = "invalid YAML: " + m[2]
	} else if m := yamlUnmarshalError.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
		if k := duplicateKeyError.FindStringSubmatch(msg); k != nil {
			key, _ := strconv.Unquote(k[1])
			e := &Error{Source: d.Source, Index: d.Index, Line: d.StartLine + line - 1,
				Err: fmt.Errorf("duplicate field %q (the last value would win; remove one of them)", key)}
			e.Path = duplicatePath(d.Raw, line, key)
			return e
		}
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
		switch {
		case strings.Contains(msg, "excessive aliasing"):
			msg = "YAML aliases expand too much (an alias bomb?); write the repeated parts out"
		case strings.HasPrefix(msg, "json: unsupported value"):
			msg = "a value has no JSON form (" + strings.TrimPrefix(msg, "json: ") + ")"
		default:
			msg = "invalid YAML: " + msg
		}
	}
	e := &Error{Source: d.Source, Index: d.Index, Line: d.Line(), Err: errors.New(msg)}
	if line > 0 {
		e.Line = d.StartLine + line - 1
	}
	return e
}

// Head is what drakit needs to know about a document before decoding it:
// its type and the name of the object.
type Head struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
}

// Object names the object as "Kind namespace/name" for messages.
func (h Head) Object() string {
	return ObjectName(h.Kind, h.Metadata.Namespace, h.Metadata.Name)
}

// ObjectName formats "Kind namespace/name", leaving out what is empty.
func ObjectName(kind, namespace, name string) string {
	if namespace != "" && name != "" {
		name = namespace + "/" + name
	}
	return strings.TrimSpace(kind + " " + name)
}

// PeekHead reads apiVersion, kind and the object's name from js, the JSON
// of d. apiVersion and kind must be set; at is the path of the object
// within the document ("" for the document itself, "items[2]" in a List).
func (d *Document) PeekHead(js []byte, at string) (Head, *Error) {
	var h Head
	if err := sjson.UnmarshalCaseSensitivePreserveInts(js, &h); err != nil {
		return h, d.DecodeError(js, err, &h, at)
	}
	var msg string
	switch {
	case h.APIVersion == "" && h.Kind == "":
		msg = "apiVersion and kind are not set; every manifest needs both"
	case h.APIVersion == "":
		msg = "apiVersion is not set"
	case h.Kind == "":
		msg = "kind is not set"
	default:
		return h, nil
	}
	e := d.Errorf("%s", msg)
	e.Object = h.Object()
	e.Path = at
	if at != "" {
		e.Line = d.lineOf(at, false)
	}
	return h, e
}

// Decode decodes js, the JSON of the object at path at in d ("" for the
// document itself), into obj, a pointer to a typed API object. Unknown and
// duplicate fields are errors when strict is set and warnings otherwise;
// either way they name the field path and its line. A value of the wrong
// type, or one its type refuses (a malformed quantity, say), is always an
// error, at the exact field.
func (d *Document) Decode(js []byte, obj any, strict bool, at string) (warnings []*Error, err *Error) {
	// A quantity with a huge exponent would never finish decoding.
	if qe := quantityguard.CheckJSON(js, reflect.TypeOf(obj)); qe != nil {
		e := &Error{Source: d.Source, Index: d.Index, Path: joinPath(at, qe.Path), Err: qe.Err}
		e.Line = d.lineOf(e.Path, false)
		return nil, e
	}
	// Nor would a list that takes far more memory than its text.
	if path, err := checkDecodedSize(js, reflect.TypeOf(obj)); err != nil {
		e := &Error{Source: d.Source, Index: d.Index, Path: joinPath(at, path), Err: err}
		e.Line = d.lineOf(e.Path, false)
		return nil, e
	}
	strictErrs, decodeErr := sjson.UnmarshalStrict(js, obj)
	if decodeErr != nil {
		return nil, d.DecodeError(js, decodeErr, obj, at)
	}
	for _, se := range strictErrs {
		e := d.fieldError(se.Error(), at)
		if strict {
			return warnings, e
		}
		warnings = append(warnings, e)
	}
	return warnings, nil
}

var strictFieldError = regexp.MustCompile(`^(unknown|duplicate) field "(.*)"$`)

// fieldError turns a strict-decoding message of sigs.k8s.io/json into an
// Error with the path and line of the field.
func (d *Document) fieldError(msg, at string) *Error {
	e := &Error{Source: d.Source, Index: d.Index, Line: d.Line()}
	m := strictFieldError.FindStringSubmatch(msg)
	if m == nil {
		e.Err = errors.New(msg)
		e.Path = at
		return e
	}
	e.Path = joinPath(at, m[2])
	name := m[2]
	if i := strings.LastIndexAny(name, ".]"); i >= 0 {
		name = name[i+1:]
	}
	if m[1] == "unknown" {
		e.Err = fmt.Errorf("unknown field %q", name)
	} else {
		e.Err = fmt.Errorf("duplicate field %q (the last value would win; remove one of them)", name)
	}
	e.Line = d.lineOf(e.Path, m[1] == "duplicate")
	return e
}

// lineOf is the line of the field at path in the source, or the line where
// the document's content starts if the field cannot be found.
func (d *Document) lineOf(path string, last bool) int {
	if line := d.FieldLine(path, last); line > 0 {
		return line
	}
	return d.Line()
}

// DecodeError explains why js, the JSON of the object at path at in d,
// could not be decoded into obj: it finds the field at fault by decoding
// the object piece by piece, and the field's line.
func (d *Document) DecodeError(js []byte, err error, obj any, at string) *Error {
	e := &Error{Source: d.Source, Index: d.Index, Line: d.Line(), Path: at}
	if ok, off := sjson.SyntaxErrorOffset(err); ok {
		e.Err = fmt.Errorf("invalid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
		if d.Format == JSON && at == "" && off > 0 && int(off) <= len(d.Content()) {
			e.Line = d.Line() + bytes.Count(d.Content()[:off], []byte{'\n'})
		}
		return e
	}
	path, cause := locateDecodeError(js, obj)
	if cause == nil {
		cause = err
	}
	if path != "" {
		e.Path = joinPath(at, path)
	}
	e.Err = errors.New(describeDecodeError(cause))
	if e.Path != "" {
		e.Line = d.lineOf(e.Path, false)
	}
	return e
}
