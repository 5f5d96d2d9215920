package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	serjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
)

// Kind is the wire description of one kind (not a List), written by hand
// from the API facts.
type Kind struct {
	// Paths are the leaf paths (see Paths) of a Fill-ed object of the kind.
	Paths []string
	// Stop are the paths whose inside is not ours and is not looked at:
	// object metadata, core/v1 node selectors, raw extensions.
	Stop []string
	// Maps are the paths of Go maps: their keys are data, not fields.
	Maps []string
}

// ListOf returns the wire description of the List of a kind: ListMeta,
// and one filled item under "items".
func ListOf(k Kind) Kind {
	prefix := func(in []string) []string {
		out := make([]string, 0, len(in))
		for _, p := range in {
			out = append(out, "items[]."+p)
		}
		return out
	}
	return Kind{
		Paths: append([]string{"kind", "apiVersion", "metadata"}, prefix(k.Paths)...),
		Stop:  append([]string{"metadata"}, prefix(k.Stop)...),
		Maps:  prefix(k.Maps),
	}
}

// Suite checks the JSON wire form of the kinds of one API version.
type Suite struct {
	// Scheme has the version installed.
	Scheme *runtime.Scheme
	// GroupVersion is the version under test.
	GroupVersion schema.GroupVersion
	// Kinds describes every kind of the version, except the Lists, whose
	// description ListOf derives.
	Kinds map[string]Kind
	// ServerDir holds one <Kind>.json per kind and List, written as the
	// API server of the release writes it.
	ServerDir string
}

// OwnKinds returns the sorted kinds scheme has for gv whose Go type lives
// in the same package as sample; the meta/v1 kinds every version also
// registers (Status, options, WatchEvent) are left out.
func OwnKinds(scheme *runtime.Scheme, gv schema.GroupVersion, sample runtime.Object) []string {
	pkg := reflect.TypeOf(sample).Elem().PkgPath()
	var kinds []string
	for kind, t := range scheme.KnownTypes(gv) {
		if t.PkgPath() == pkg {
			kinds = append(kinds, kind)
		}
	}
	sort.Strings(kinds)
	return kinds
}

// kind returns the description of kind k, deriving it for Lists.
func (s Suite) kind(t *testing.T, k string) Kind {
	t.Helper()
	if d, ok := s.Kinds[k]; ok {
		return d
	}
	if d, ok := s.Kinds[strings.TrimSuffix(k, "List")]; ok && strings.HasSuffix(k, "List") {
		return ListOf(d)
	}
	t.Fatalf("kind %s has no wire table", k)
	return Kind{}
}

// kindNames returns every kind the suite describes, with the Lists.
func (s Suite) kindNames() []string {
	var out []string
	for k := range s.Kinds {
		out = append(out, k, k+"List")
	}
	sort.Strings(out)
	return out
}

// ownKinds returns the kinds of the version in the scheme and fails the
// test if they are not exactly the described ones.
func (s Suite) ownKinds(t *testing.T) []string {
	t.Helper()
	var sample runtime.Object
	for k := range s.Kinds {
		obj, err := s.Scheme.New(s.GroupVersion.WithKind(k))
		if err != nil {
			t.Fatalf("kind %s: %v", k, err)
		}
		sample = obj
		break
	}
	got := OwnKinds(s.Scheme, s.GroupVersion, sample)
	if diff := DiffPaths(got, s.kindNames()); diff != "" {
		t.Fatalf("kinds registered for %s differ from the wire tables:\n%s", s.GroupVersion, diff)
	}
	return got
}

// TestFilledPaths fills an object of every kind, encodes it and checks
// that the JSON has exactly the paths of the kind's table.
func (s Suite) TestFilledPaths(t *testing.T) {
	for _, k := range s.ownKinds(t) {
		t.Run(k, func(t *testing.T) {
			d := s.kind(t, k)
			obj, err := s.Scheme.New(s.GroupVersion.WithKind(k))
			if err != nil {
				t.Fatal(err)
			}
			Fill(obj)
			data, err := json.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Paths(data, d.Stop...)
			if err != nil {
				t.Fatal(err)
			}
			if diff := DiffPaths(got, d.Paths); diff != "" {
				t.Errorf("JSON paths of a filled %s differ from the facts:\n%s\nJSON: %s", k, diff, data)
			}
		})
	}
}

// StrictSerializer returns a JSON serializer for scheme that reports
// unknown and duplicate fields as errors, as an API server does with
// strict field validation.
func StrictSerializer(scheme *runtime.Scheme) *serjson.Serializer {
	return serjson.NewSerializerWithOptions(serjson.DefaultMetaFactory, scheme, scheme, serjson.SerializerOptions{Strict: true})
}

// TestServerJSON decodes the server document of every kind strictly,
// checks that it re-encodes to the same compact bytes, and that an
// unknown or a duplicated field in any object of ours is an error.
func (s Suite) TestServerJSON(t *testing.T) {
	kinds := s.ownKinds(t)
	files, err := filepath.Glob(filepath.Join(s.ServerDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fileKinds []string
	for _, f := range files {
		fileKinds = append(fileKinds, strings.TrimSuffix(filepath.Base(f), ".json"))
	}
	if diff := DiffPaths(fileKinds, kinds); diff != "" {
		t.Errorf("%s must hold one document per kind:\n%s", s.ServerDir, diff)
	}
	ser := StrictSerializer(s.Scheme)
	for _, k := range kinds {
		t.Run(k, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(s.ServerDir, k+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var doc bytes.Buffer
			if err := json.Compact(&doc, raw); err != nil {
				t.Fatal(err)
			}
			obj, gvk, err := ser.Decode(doc.Bytes(), nil, nil)
			if err != nil {
				t.Fatalf("strict decoding: %v", err)
			}
			if want := s.GroupVersion.WithKind(k); *gvk != want {
				t.Fatalf("document is a %v, want %v", gvk, want)
			}
			want, _ := s.Scheme.New(*gvk)
			if reflect.TypeOf(obj) != reflect.TypeOf(want) {
				t.Fatalf("decoded into %T, want %T", obj, want)
			}
			var out bytes.Buffer
			if err := ser.Encode(obj, &out); err != nil {
				t.Fatal(err)
			}
			wantBytes := withoutNullCreationTimestamp(doc.Bytes())
			if got := bytes.TrimSuffix(out.Bytes(), []byte("\n")); !bytes.Equal(got, wantBytes) {
				t.Errorf("re-encoding differs from the server document:\n got: %s\nwant: %s\n%s", got, wantBytes, firstDiff(got, wantBytes))
			}

			d := s.kind(t, k)
			objects, err := Objects(doc.Bytes(), d.Stop...)
			if err != nil {
				t.Fatal(err)
			}
			maps := map[string]bool{}
			for _, m := range d.Maps {
				maps[m] = true
			}
			if len(objects) == 0 {
				t.Fatal("no object to check for unknown and duplicate fields")
			}
			t.Logf("checking %d objects for unknown and duplicate fields", len(objects))
			for _, o := range objects {
				if !maps[o.Path] {
					bad, err := AddMember(doc.Bytes(), o.At, "drakitUnknownField", `"x"`)
					if err != nil {
						t.Fatal(err)
					}
					expectStrictError(t, ser, bad, o.Path, "unknown field", "drakitUnknownField")
				}
				if bad, err := DuplicateFirstMember(doc.Bytes(), o.At); err == nil {
					expectStrictError(t, ser, bad, o.Path, "duplicate field", "")
				}
			}
		})
	}
}

func expectStrictError(t *testing.T, ser *serjson.Serializer, doc []byte, path, kind, field string) {
	t.Helper()
	_, _, err := ser.Decode(doc, nil, nil)
	switch {
	case err == nil:
		t.Errorf("%s in object %q was accepted", kind, path)
	case !runtime.IsStrictDecodingError(err):
		t.Errorf("%s in object %q: want a strict decoding error, got %v", kind, path, err)
	case !strings.Contains(err.Error(), kind) || !strings.Contains(err.Error(), field):
		t.Errorf("%s in object %q: unexpected error %v", kind, path, err)
	}
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	start := i - 40
	if start < 0 {
		start = 0
	}
	end := func(s []byte) []byte {
		if i+40 < len(s) {
			return s[start : i+40]
		}
		return s[start:]
	}
	return fmt.Sprintf("first difference at byte %d:\n got: ...%s\nwant: ...%s", i, end(a), end(b))
}

// withoutNullCreationTimestamp drops `"creationTimestamp":null` from a
// compact server document. Servers before 1.35 wrote it for every unset
// ObjectMeta (a template's metadata, say); apimachinery v0.35 and later
// (metav1.Time with omitzero) leave it out, and so does every API server
// since. It is the one difference between the documents of those servers
// and what today's encoder writes, and it is not ours: the member belongs to
// apimachinery's ObjectMeta.
func withoutNullCreationTimestamp(doc []byte) []byte {
	doc = bytes.ReplaceAll(doc, []byte(`"creationTimestamp":null,`), nil)
	doc = bytes.ReplaceAll(doc, []byte(`,"creationTimestamp":null`), nil)
	return bytes.ReplaceAll(doc, []byte(`"creationTimestamp":null`), nil)
}
