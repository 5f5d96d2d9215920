// Package convert rewrites streams of manifests to another version of
// resource.k8s.io, one document at a time, with the rules of `drakit
// convert`:
//
//   - every document comes out in the order it came in, a multi-document
//     stream stays one (no List is made of it);
//   - a document that is already at the target version, or belongs to
//     another group, is written back byte for byte (re-encoded only when
//     the output format differs from its own);
//   - "kind: List" and the typed *List kinds are converted item by item;
//   - no defaults are added unless asked for, and the noise that Go's
//     encoding adds to untouched objects (creationTimestamp: null,
//     status: {}) is left out;
//   - the comments in front of each document are kept;
//   - a bad document is reported, with its file, index, line and field
//     path, and the stream goes on, so that one run lists every problem.
//
// Memory depends on the largest document, not on the number of documents.
package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	sjson "sigs.k8s.io/json"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/printer"
	"github.com/drakit/drakit/conversion"
)

// Options say how to convert.
type Options struct {
	// Target is the version to convert to.
	Target schema.GroupVersion
	// Defaults applies the target version's defaults to every object of
	// the group, including those already at the target version.
	Defaults bool
	// Strict makes unknown and duplicate fields errors; otherwise they are
	// warnings (and the fields are dropped from converted objects).
	Strict bool
	// SkipKindsNotInTarget leaves out a document whose kind the target
	// version does not have (PodScheduling for v1, say) and reports it as a
	// warning, instead of failing the run. Nothing else is ever left out.
	SkipKindsNotInTarget bool
	// ForCreate removes the metadata the API server owns (uid,
	// resourceVersion, generation, creationTimestamp, the deletion fields,
	// managedFields, selfLink; a list's resourceVersion and continue) from
	// every document, converted or not, so that objects exported from one
	// cluster can be created on another. Status stays.
	ForCreate bool
}

// Stats counts what happened to the documents of a stream.
type Stats struct {
	// Converted documents were rewritten to the target version.
	Converted int
	// Unchanged documents of resource.k8s.io were already at the target
	// version (and needed no defaults).
	Unchanged int
	// Other documents belong to another group and were passed through.
	Other int
	// Failed documents had an error and were not written.
	Failed int
	// Skipped documents have a kind the target version lacks and were left
	// out (Options.SkipKindsNotInTarget).
	Skipped int
}

// Add adds the counts of o to s.
func (s *Stats) Add(o Stats) {
	s.Converted += o.Converted
	s.Unchanged += o.Unchanged
	s.Other += o.Other
	s.Failed += o.Failed
	s.Skipped += o.Skipped
}

// Converter converts streams.
type Converter struct {
	Options
	// Report receives every error and warning, as soon as it is found.
	// Errors also count as Failed documents.
	Report func(err *manifest.Error, warning bool)
}

// Stream converts the documents of r and writes them to out. It stops
// early only when out fails, and returns that error.
func (c *Converter) Stream(out *printer.Stream, r *manifest.Reader) (Stats, error) {
	var st Stats
	for {
		doc, err := r.Next()
		if err == io.EOF {
			return st, nil
		}
		if err != nil {
			st.Failed++
			c.report(asError(err), false)
			continue
		}
		if err := c.Document(out, doc, &st); err != nil {
			return st, err
		}
	}
}

// Document converts one document and writes the result to out. Problems
// with the document are reported and counted, not returned: only a failing
// out is an error.
func (c *Converter) Document(out *printer.Stream, doc *manifest.Document, st *Stats) (err error) {
	defer func() {
		// No input may crash drakit: a bug met by one document is
		// reported as that document's error.
		if r := recover(); r != nil {
			err = c.fail(st, doc.Errorf("internal error: %v (please report it, with this document)", r))
		}
	}()
	src := &printer.Source{Separator: doc.Separator, Comments: doc.Comments(), Content: doc.Content(), IsJSON: doc.Format == manifest.JSON}
	if doc.Empty() {
		return out.Unchanged(src)
	}
	js, warnings, e := doc.ToJSON(c.Strict)
	c.warn(warnings)
	if e != nil {
		return c.fail(st, e)
	}
	src.JSON = js
	head, e := doc.PeekHead(js, "")
	if e != nil {
		return c.fail(st, e)
	}
	gv, err := schema.ParseGroupVersion(head.APIVersion)
	if err != nil {
		e := doc.Errorf("apiVersion %q is not group/version", head.APIVersion)
		e.Object = head.Object()
		return c.fail(st, e)
	}
	gvk := gv.WithKind(head.Kind)

	var result map[string]any
	var changed bool
	switch {
	case isList(gvk):
		result, changed, e = c.list(doc, js, gvk)
	case gv.Group != resource.GroupName:
		st.Other++
		return out.Unchanged(src)
	default:
		result, changed, e = c.object(doc, js, gvk, head, "")
	}
	if e != nil {
		if c.leftOut(e, "left out") {
			st.Skipped++
			return nil
		}
		return c.fail(st, e)
	}
	if !changed {
		if gv.Group == resource.GroupName {
			st.Unchanged++
		} else {
			st.Other++
		}
		if c.ForCreate {
			// Written again only when there was something to remove.
			v, err := decodeUnstructured(js)
			if err != nil {
				return c.fail(st, doc.DecodeError(js, err, new(any), ""))
			}
			if m, ok := v.(map[string]any); ok && c.forCreate(doc, m) {
				return c.write(out, src, doc, m)
			}
		}
		return out.Unchanged(src)
	}
	if c.ForCreate {
		c.forCreate(doc, result)
	}
	st.Converted++
	return c.write(out, src, doc, result)
}

// write writes content in place of doc. Only a failing out is an error.
func (c *Converter) write(out *printer.Stream, src *printer.Source, doc *manifest.Document, content map[string]any) error {
	if err := out.Object(src, content); err != nil {
		return fmt.Errorf("%s: document %d: cannot write: %w", doc.Source, doc.Index, err)
	}
	return nil
}

// isList reports kinds whose items are converted one by one: the generic
// List of core/v1 and the typed lists of the group.
func isList(gvk schema.GroupVersionKind) bool {
	if gvk.Group == "" && gvk.Version == "v1" && gvk.Kind == "List" {
		return true
	}
	return gvk.Group == resource.GroupName && strings.HasSuffix(gvk.Kind, "List") && conversion.Scheme.Recognizes(gvk)
}

// object converts one object of the group, found at path at in doc. It
// returns the converted content, or changed=false when the object is to be
// written as it was.
func (c *Converter) object(doc *manifest.Document, js []byte, gvk schema.GroupVersionKind, head manifest.Head, at string) (map[string]any, bool, *manifest.Error) {
	fail := func(e *manifest.Error) (map[string]any, bool, *manifest.Error) {
		e.Object = head.Object()
		return nil, false, e
	}
	if _, err := conversion.HubKind(gvk); err != nil || strings.HasSuffix(gvk.Kind, "List") {
		if err == nil {
			err = fmt.Errorf("a %s cannot be an item of a list", gvk.Kind)
		}
		e := doc.Errorf("%v", err)
		e.Path = at
		return fail(e)
	}
	obj, err := conversion.Scheme.New(gvk)
	if err != nil {
		return fail(doc.Errorf("%v", err))
	}
	warnings, e := doc.Decode(js, obj, c.Strict, at)
	for _, w := range warnings {
		w.Object = head.Object()
	}
	c.warn(warnings)
	if e != nil {
		return fail(e)
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)

	var converted runtime.Object
	if gvk.Version == c.Target.Version {
		if !c.Defaults {
			return nil, false, nil
		}
		converted = obj.DeepCopyObject()
		conversion.Scheme.Default(converted)
		if equality.Semantic.DeepEqual(obj, converted) {
			return nil, false, nil
		}
	} else {
		converted, err = conversion.Convert(obj, c.Target)
		if err != nil {
			e := doc.Errorf("cannot convert to %s: %w", c.Target, err)
			var stashErr *resource.MalformedStashError
			if errors.As(err, &stashErr) {
				e.Err = stashErr
				e.Path = joinPath(at, "metadata.annotations["+resource.StashAnnotation+"]")
			} else if at != "" {
				e.Path = at
			}
			return fail(e)
		}
		if c.Defaults {
			conversion.Scheme.Default(converted)
		}
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(converted)
	if err != nil {
		return fail(doc.Errorf("cannot encode the converted object: %v", err))
	}
	PruneNoise(content)
	return content, true, nil
}

// list converts the items of a List or typed list one by one. The list is
// unchanged when all its items are.
func (c *Converter) list(doc *manifest.Document, js []byte, gvk schema.GroupVersionKind) (map[string]any, bool, *manifest.Error) {
	var l struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Metadata   json.RawMessage   `json:"metadata,omitempty"`
		Items      []json.RawMessage `json:"items"`
	}
	warnings, e := doc.Decode(js, &l, c.Strict, "")
	c.warn(warnings)
	if e != nil {
		e.Object = gvk.Kind
		return nil, false, e
	}
	typed := gvk.Group == resource.GroupName
	itemKind := strings.TrimSuffix(gvk.Kind, "List")
	changed := false
	items := make([]any, len(l.Items))
	var skipped []int // items of a List left out (SkipKindsNotInTarget)
	for i, raw := range l.Items {
		at := fmt.Sprintf("items[%d]", i)
		var head manifest.Head
		if typed {
			// Items of typed lists usually come without apiVersion and
			// kind; when they have them, they must agree with the list.
			if err := sjson.UnmarshalCaseSensitivePreserveInts(raw, &head); err != nil {
				return nil, false, doc.DecodeError(raw, err, &head, at)
			}
			if (head.APIVersion != "" && head.APIVersion != gvk.GroupVersion().String()) || (head.Kind != "" && head.Kind != itemKind) {
				e := doc.Errorf("an item of a %s must be a %s %s, not %s %s", gvk.Kind, gvk.GroupVersion(), itemKind, head.APIVersion, head.Kind)
				e.Path, e.Object = at, head.Object()
				return nil, false, e
			}
			hadType := head.APIVersion != "" || head.Kind != ""
			head.APIVersion, head.Kind = gvk.GroupVersion().String(), itemKind
			out, itemChanged, e := c.object(doc, raw, gvk.GroupVersion().WithKind(itemKind), head, at)
			if e != nil {
				return nil, false, e
			}
			if itemChanged {
				changed = true
				if !hadType {
					delete(out, "apiVersion")
					delete(out, "kind")
				}
				items[i] = out
				continue
			}
		} else {
			var e *manifest.Error
			head, e = doc.PeekHead(raw, at)
			if e != nil {
				return nil, false, e
			}
			igv, err := schema.ParseGroupVersion(head.APIVersion)
			if err != nil {
				e := doc.Errorf("apiVersion %q is not group/version", head.APIVersion)
				e.Path, e.Object = at, head.Object()
				return nil, false, e
			}
			if igv.Group == resource.GroupName {
				out, itemChanged, e := c.object(doc, raw, igv.WithKind(head.Kind), head, at)
				if e != nil && c.leftOut(e, "left out of the List") {
					// Only this item is left out, not the whole List.
					skipped = append(skipped, i)
					changed = true
					continue
				}
				if e != nil {
					return nil, false, e
				}
				if itemChanged {
					changed = true
					items[i] = out
					continue
				}
			}
		}
		v, err := decodeUnstructured(raw)
		if err != nil {
			return nil, false, doc.DecodeError(raw, err, new(any), at)
		}
		items[i] = v
	}
	if typed && gvk.Version != c.Target.Version {
		changed = true
	}
	if !changed {
		return nil, false, nil
	}
	for k := len(skipped) - 1; k >= 0; k-- {
		items = append(items[:skipped[k]], items[skipped[k]+1:]...)
	}
	out := map[string]any{"apiVersion": l.APIVersion, "kind": l.Kind, "items": items}
	if typed {
		hubKind, _ := conversion.HubKind(gvk)
		kind, err := conversion.KindIn(hubKind, c.Target.Version)
		if err != nil {
			e := doc.Errorf("cannot convert to %s: %w", c.Target, err)
			e.Object = gvk.Kind
			return nil, false, e
		}
		out["apiVersion"], out["kind"] = c.Target.String(), kind
	}
	if len(l.Metadata) > 0 {
		md, err := decodeUnstructured(l.Metadata)
		if err != nil {
			return nil, false, doc.DecodeError(l.Metadata, err, new(any), "metadata")
		}
		out["metadata"] = md
	}
	return out, true, nil
}

func decodeUnstructured(js []byte) (any, error) {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(js)))
	dec.UseNumber()
	err := dec.Decode(&v)
	return v, err
}

// PruneNoise removes what Go's encoding adds to objects that never had
// it: null values (a zero creationTimestamp, an empty raw extension, a
// nil list without omitempty), metadata left empty by that, and an empty
// status. For typed API objects
// a null field means the same as no field. The content of opaque
// parameters is the driver's, and is left alone.
func PruneNoise(obj map[string]any) {
	if st, ok := obj["status"].(map[string]any); ok && len(st) == 0 {
		delete(obj, "status")
	}
	pruneNulls(obj, 0)
}

// rawExtensionFields are the JSON names of the group's runtime.RawExtension
// fields, whose values are opaque.
var rawExtensionFields = map[string]bool{
	"parameters": true, "vendorParameters": true, "vendorClassParameters": true,
	"vendorClaimParameters": true, "vendorRequestParameters": true,
}

func pruneNulls(v any, depth int) {
	if depth > 64 {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if child == nil {
				delete(v, k)
				continue
			}
			if rawExtensionFields[k] {
				continue
			}
			pruneNulls(child, depth+1)
			if md, ok := child.(map[string]any); ok && k == "metadata" && len(md) == 0 {
				// Template metadata that only held creationTimestamp.
				delete(v, k)
			}
		}
	case []any:
		for _, item := range v {
			pruneNulls(item, depth+1)
		}
	}
}

func joinPath(at, path string) string {
	if at == "" {
		return path
	}
	return at + "." + path
}

// leftOut reports whether e is a kind the target version lacks and
// SkipKindsNotInTarget leaves the object out; if so, it reports e as a
// warning that says so.
func (c *Converter) leftOut(e *manifest.Error, what string) bool {
	var notIn *resource.KindNotInVersionError
	if !c.SkipKindsNotInTarget || !errors.As(e.Err, &notIn) {
		return false
	}
	left := *e
	left.Err = fmt.Errorf("%s (--skip-kinds-not-in-target): %w", what, e.Err)
	c.report(&left, true)
	return true
}

func (c *Converter) warn(ws []*manifest.Error) {
	for _, w := range ws {
		c.report(w, true)
	}
}

func (c *Converter) report(e *manifest.Error, warning bool) {
	if c.Report != nil {
		c.Report(e, warning)
	}
}

func (c *Converter) fail(st *Stats, e *manifest.Error) error {
	st.Failed++
	c.report(e, false)
	return nil
}

func asError(err error) *manifest.Error {
	var e *manifest.Error
	if errors.As(err, &e) {
		return e
	}
	return &manifest.Error{Err: err}
}
