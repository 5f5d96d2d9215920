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
