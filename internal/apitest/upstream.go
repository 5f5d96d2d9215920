package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"

	"github.com/drakit/drakit/internal/fuzzer"
)

// SameJSON checks that one of drakit's types and the k8s.io/api type of the
// same name write and read the same JSON, for the versions whose upstream
// types are on drakit's dependency line (k8s.io/api v0.37.2: v1beta1,
// v1beta2, v1 and the 1.37 v1alpha3 kinds). The upstream types are the
// facts being checked against; drakit's are written by hand.
//
// Two directions:
//   - drakit's type, Fill-ed (every field set), written, read strictly into
//     the upstream type (no unknown field) and written again: the same
//     bytes. A field drakit has and upstream lacks, or names differently,
//     fails here.
//   - the upstream type filled at random (iterations seeds; nil, empty and
//     set lists and pointers), written, read strictly into drakit's and
//     written again: the same bytes. A field upstream has and drakit lacks,
//     and a difference in omitempty or pointer-ness, fails here.
//
// ours and theirs return new, empty values (pointers) of the two types.
func SameJSON(t *testing.T, ours, theirs func() any, iterations int) {
	t.Helper()
	if iterations < 1 {
		t.Fatalf("SameJSON needs at least one random object")
	}
	for _, err := range sameJSON(ours, theirs, iterations) {
		t.Error(err)
	}
}

// sameJSON is SameJSON's check; it returns what it found wrong, at most one
// random object's error.
func sameJSON(ours, theirs func() any, iterations int) []error {
	var errs []error
	name := reflect.TypeOf(ours()).Elem().Name()
	filled := ours()
	Fill(filled)
	if err := crossesUnchanged(filled, theirs()); err != nil {
		errs = append(errs, fmt.Errorf("%s: drakit's filled object, read by k8s.io/api: %v", name, err))
	}
	for seed := int64(0); seed < int64(iterations); seed++ {
		random := theirs()
		fuzzer.New(seed).Funcs(fieldsV1, rawObject).Fill(random)
		if err := crossesUnchanged(random, ours()); err != nil {
			return append(errs, fmt.Errorf("%s: random k8s.io/api object (seed %d), read by drakit: %v", name, seed, err))
		}
	}
	return errs
}

// fieldsV1 fills managed fields with a valid document: a random one is not
// JSON, and managed fields are apimachinery's, not the subject here.
func fieldsV1(f *metav1.FieldsV1, c randfill.Continue) {
	f.Raw = []byte(`{"f:spec":{}}`)
}

// rawObject fills raw extensions with a JSON object, never null: a
// pointer to an extension holding null is written as null, and read back
// as no extension at all, which no document on the wire can produce.
func rawObject(r *runtime.RawExtension, c randfill.Continue) {
	r.Raw = []byte(fmt.Sprintf(`{"n":%d}`, c.Intn(100)))
}

// crossesUnchanged writes from, reads the JSON strictly into to, writes to
// and compares the two documents.
func crossesUnchanged(from, to any) error {
	first, err := json.Marshal(from)
	if err != nil {
		return fmt.Errorf("writing %T: %v", from, err)
	}
	dec := json.NewDecoder(bytes.NewReader(first))
	dec.DisallowUnknownFields()
	if err := dec.Decode(to); err != nil {
		return fmt.Errorf("reading into %T: %v\ndocument: %s", to, err, first)
	}
	second, err := json.Marshal(to)
	if err != nil {
		return fmt.Errorf("writing %T: %v", to, err)
	}
	if !bytes.Equal(first, second) {
		return fmt.Errorf("written again it differs: %s", firstDiff(second, first))
	}
	return nil
}

// SameFields walks drakit's and k8s.io/api's type of each kind side by side
// (pairs of new, empty values, as for SameJSON) and compares every struct
// of drakit's package it reaches with upstream's field by field: Go field
// name, Go type (types of the two packages by name, others exactly), json
// tag (",inline" and "" are the same: both inline a member), protobuf tag
// and patch tags. SameJSON cannot see the Go names, the protobuf numbers or
// the patch tags. It returns how many struct types of drakit's package it
// compared, so that a caller can require all of them.
func SameFields(t *testing.T, pairs ...[2]any) int {
	t.Helper()
	if len(pairs) == 0 {
		t.Fatal("SameFields needs at least one kind")
	}
	c := fieldComparer{
		ours:   reflect.TypeOf(pairs[0][0]).Elem().PkgPath(),
		theirs: reflect.TypeOf(pairs[0][1]).Elem().PkgPath(),
		seen:   map[reflect.Type]bool{},
	}
	for _, p := range pairs {
		ours, theirs := reflect.TypeOf(p[0]).Elem(), reflect.TypeOf(p[1]).Elem()
		for _, err := range c.compare(ours.Name(), ours, theirs) {
			t.Error(err)
		}
	}
	return len(c.seen)
}

type fieldComparer struct {
	ours, theirs string // package paths
	seen         map[reflect.Type]bool
}

// typeName names a type, drakit's and upstream's package alike as "local".
func (c fieldComparer) typeName(typ reflect.Type) string {
	switch {
	case typ.PkgPath() == c.ours || typ.PkgPath() == c.theirs:
		return "local." + typ.Name()
	case typ.Name() != "" && typ.PkgPath() != "":
		return typ.PkgPath() + "." + typ.Name()
	case typ.Name() != "":
		return typ.Name()
	case typ.Kind() == reflect.Pointer:
		return "*" + c.typeName(typ.Elem())
	case typ.Kind() == reflect.Slice:
		return "[]" + c.typeName(typ.Elem())
	case typ.Kind() == reflect.Map:
		return "map[" + c.typeName(typ.Key()) + "]" + c.typeName(typ.Elem())
	}
	return typ.String()
}

func (c fieldComparer) compare(path string, ours, theirs reflect.Type) []error {
	for ours.Kind() == reflect.Pointer || ours.Kind() == reflect.Slice || ours.Kind() == reflect.Map {
		if theirs.Kind() != ours.Kind() {
			return []error{fmt.Errorf("%s: drakit has a %s, k8s.io/api a %s", path, ours.Kind(), theirs.Kind())}
		}
		ours, theirs = ours.Elem(), theirs.Elem()
	}
	if ours.Kind() != reflect.Struct || ours.PkgPath() != c.ours || c.seen[ours] {
		return nil
	}
	c.seen[ours] = true
	if ours.Name() != theirs.Name() || ours.NumField() != theirs.NumField() {
		return []error{fmt.Errorf("%s: drakit's %s has %d fields, k8s.io/api's %s has %d", path, ours.Name(), ours.NumField(), theirs.Name(), theirs.NumField())}
	}
	var errs []error
	for i := range ours.NumField() {
		o, th := ours.Field(i), theirs.Field(i)
		if got, want := c.describe(o), c.describe(th); got != want {
			errs = append(errs, fmt.Errorf("%s field %d:\n got %s\nwant %s", path, i, got, want))
			continue
		}
		errs = append(errs, c.compare(path+"."+o.Name, o.Type, th.Type)...)
	}
	return errs
}

// describe is what SameFields compares of one field.
func (c fieldComparer) describe(f reflect.StructField) string {
	jsonTag := f.Tag.Get("json")
	if jsonTag == "" {
		jsonTag = ",inline"
	}
	return fmt.Sprintf("%s %s json:%q protobuf:%q patchStrategy:%q patchMergeKey:%q",
		f.Name, c.typeName(f.Type), jsonTag, f.Tag.Get("protobuf"), f.Tag.Get("patchStrategy"), f.Tag.Get("patchMergeKey"))
}
