// Package objects reads the objects of manifest streams for the commands
// that look at objects rather than documents (validate, allocate): every
// document is one object, except "kind: List" and the typed lists of
// resource.k8s.io, whose items are objects of their own. Objects of
// resource.k8s.io are decoded into their typed versioned Go types; objects
// of other groups are handed over as JSON.
package objects

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	sjson "sigs.k8s.io/json"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/conversion"
)

// Object is one object of a stream.
type Object struct {
	// Doc is the document the object is in.
	Doc *manifest.Document
	// At is the object's path in the document: "" for the document
	// itself, "items[3]" for an item of a list.
	At string
	// Head has the object's apiVersion, kind and name.
	Head manifest.Head
	// GVK is the object's group, version and kind.
	GVK schema.GroupVersionKind
	// JSON is the object as JSON.
	JSON []byte
	// Typed is the decoded object for kinds of resource.k8s.io, nil for
	// other groups.
	Typed runtime.Object
}

// Name is "Kind namespace/name" for messages.
func (o *Object) Name() string { return o.Head.Object() }

// Line is the line where the object starts.
func (o *Object) Line() int {
	if o.At == "" {
		return o.Doc.Line()
	}
	if l := o.Doc.FieldLine(o.At, false); l > 0 {
		return l
	}
	return o.Doc.Line()
}

// Errorf returns an error about the object.
func (o *Object) Errorf(format string, args ...any) *manifest.Error {
	e := o.Doc.Errorf(format, args...)
	e.Object = o.Name()
	e.Path = o.At
	e.Line = o.Line()
	return e
}

// Reader reads objects.
type Reader struct {
	// Strict makes unknown and duplicate fields errors, not warnings.
	Strict bool
	// Report receives every problem; an object with an error is not
	// passed on.
	Report func(e *manifest.Error, warning bool)
}

// Each calls fn for every object of r, in order. It stops at the first
// error fn returns and returns it.
func (rd *Reader) Each(r *manifest.Reader, fn func(*Object) error) error {
	for {
		doc, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			rd.report(asError(err), false)
			continue
		}
		if doc.Empty() {
			continue
		}
		if err := rd.document(doc, fn); err != nil {
			return err
		}
	}
}

func (rd *Reader) document(doc *manifest.Document, fn func(*Object) error) error {
	js, warnings, e := doc.ToJSON(rd.Strict)
	rd.warn(warnings)
	if e != nil {
		rd.report(e, false)
		return nil
	}
	obj, ok := rd.object(doc, js, "", schema.GroupVersion{}, "")
	if !ok {
		return nil
	}
	if !isList(obj.GVK) {
		return rd.pass(obj, fn)
	}
	var list struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Metadata   json.RawMessage   `json:"metadata,omitempty"`
		Items      []json.RawMessage `json:"items"`
	}
	warnings, e = doc.Decode(js, &list, rd.Strict, "")
	rd.warn(warnings)
	if e != nil {
		e.Object = obj.Name()
		rd.report(e, false)
		return nil
	}
	itemKind := ""
	if obj.GVK.Group == resource.GroupName {
		itemKind = strings.TrimSuffix(obj.GVK.Kind, "List")
	}
	for i, raw := range list.Items {
		item, ok := rd.object(doc, raw, fmt.Sprintf("items[%d]", i), obj.GVK.GroupVersion(), itemKind)
		if !ok {
			continue
		}
		if itemKind != "" && item.GVK != obj.GVK.GroupVersion().WithKind(itemKind) {
			rd.report(item.Errorf("an item of a %s must be a %s %s", obj.GVK.Kind, obj.GVK.GroupVersion(), itemKind), false)
			continue
		}
		if isList(item.GVK) {
			rd.report(item.Errorf("a list cannot be an item of a list"), false)
			continue
		}
		if err := rd.pass(item, fn); err != nil {
			return err
		}
	}
	return nil
}

// object reads the head of the object at path at. Items of a typed list
// (itemKind set) may leave out apiVersion and kind: they default to the
// list's version and item kind.
func (rd *Reader) object(doc *manifest.Document, js []byte, at string, listGV schema.GroupVersion, itemKind string) (*Object, bool) {
	obj := &Object{Doc: doc, At: at, JSON: js}
	if itemKind == "" {
		head, e := doc.PeekHead(js, at)
		if e != nil {
			rd.report(e, false)
			return nil, false
		}
		obj.Head = head
	} else {
		if err := sjson.UnmarshalCaseSensitivePreserveInts(js, &obj.Head); err != nil {
			rd.report(doc.DecodeError(js, err, &obj.Head, at), false)
			return nil, false
		}
		if obj.Head.APIVersion == "" {
			obj.Head.APIVersion = listGV.String()
		}
		if obj.Head.Kind == "" {
			obj.Head.Kind = itemKind
		}
	}
	gv, err := schema.ParseGroupVersion(obj.Head.APIVersion)
	if err != nil {
		rd.report(obj.Errorf("apiVersion %q is not group/version", obj.Head.APIVersion), false)
		return nil, false
	}
	obj.GVK = gv.WithKind(obj.Head.Kind)
	return obj, true
}

// pass decodes an object of the group and hands it to fn.
func (rd *Reader) pass(obj *Object, fn func(*Object) error) error {
	if obj.GVK.Group == resource.GroupName {
		if _, err := conversion.HubKind(obj.GVK); err != nil {
			rd.report(obj.Errorf("%v", err), false)
			return nil
		}
		typed, err := conversion.Scheme.New(obj.GVK)
		if err != nil {
			rd.report(obj.Errorf("%v", err), false)
			return nil
		}
		warnings, e := obj.Doc.Decode(obj.JSON, typed, rd.Strict, obj.At)
		for _, w := range warnings {
			w.Object = obj.Name()
		}
		rd.warn(warnings)
		if e != nil {
			e.Object = obj.Name()
			rd.report(e, false)
			return nil
		}
		typed.GetObjectKind().SetGroupVersionKind(obj.GVK)
		obj.Typed = typed
	}
	return fn(obj)
}

// isList reports the kinds whose items are objects of their own.
func isList(gvk schema.GroupVersionKind) bool {
	if gvk.Group == "" && gvk.Version == "v1" && gvk.Kind == "List" {
		return true
	}
	return gvk.Group == resource.GroupName && strings.HasSuffix(gvk.Kind, "List") && conversion.Scheme.Recognizes(gvk)
}

func (rd *Reader) warn(ws []*manifest.Error) {
	for _, w := range ws {
		rd.report(w, true)
	}
}

func (rd *Reader) report(e *manifest.Error, warning bool) {
	if rd.Report != nil {
		rd.Report(e, warning)
	}
}

func asError(err error) *manifest.Error {
	if e, ok := err.(*manifest.Error); ok {
		return e
	}
	return &manifest.Error{Err: err}
}
