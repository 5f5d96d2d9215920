package manifest

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a problem with the input, placed as precisely as drakit can:
// source, line, document, object and field. Its text is one line, in the
// form editors and terminals understand:
//
//	examples/v1alpha3/claims.yaml:14: document 2: ResourceClaim default/gpu: spec.devices.requests[0].foo: unknown field "foo"
type Error struct {
	// Source is the file name as the user gave it, or "<stdin>".
	Source string
	// Index is the document, counted from 1; 0 when the error is not about
	// one document.
	Index int
	// Line is the line in Source, counted from 1; 0 when unknown.
	Line int
	// Object names the object, as "Kind namespace/name", when known.
	Object string
	// Path is the field path, as in Kubernetes validation errors, when
	// known.
	Path string
	// Err says what is wrong.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Source)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Index > 0 {
		fmt.Fprintf(&b, ": document %d", e.Index)
	}
	if e.Object != "" {
		b.WriteString(": ")
		b.WriteString(quoteBreaks(e.Object))
	}
	if e.Path != "" {
		b.WriteString(": ")
		b.WriteString(quoteBreaks(e.Path))
	}
	b.WriteString(": ")
	b.WriteString(oneLine(e.Err.Error()))
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an Error about the document, at the line where its content
// starts.
func (d *Document) Errorf(format string, args ...any) *Error {
	return &Error{Source: d.Source, Index: d.Index, Line: d.Line(), Err: fmt.Errorf(format, args...)}
}

// oneLine folds a multi-line message (YAML errors have several lines) so
// that every problem takes exactly one line of output.
// quoteBreaks quotes a name taken from the input (a kind, an object's
// name, a map key in a path) when it holds a line break, so that the
// message stays one line and still shows the name exactly.
func quoteBreaks(s string) string {
	if !strings.ContainsAny(s, "\n\r") {
		return s
	}
	return strconv.Quote(s)
}

func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r") {
		return s
	}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	return strings.Join(fields, " ")
}
