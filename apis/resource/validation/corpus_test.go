package validation

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/conversion"
)

// The corpus in testdata/corpus/<version>/ holds one object per file with
// its expected outcome in header comments:
//
//	# operation: create | update | status
//	# old: <file>                the stored object, for update and status
//	# requires: <feature gate>   only meaningful with that gate enabled
//	# expect: valid
//	# expect: <reason> <field>   one line per error, as in the causes of
//	                             the server's 422 response
//
// The same files are replayed against real API servers with dryRun by the
// end-to-end suite; see testdata/corpus/README.md.

type corpusCase struct {
	file      string
	operation string
	old       string
	requires  string
	expect    []string
	valid     bool
}

func readCorpusCase(t *testing.T, path string) (corpusCase, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := corpusCase{file: path, operation: "create"}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "#") {
			break
		}
		key, value, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "#")), ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		switch key {
		case "operation":
			c.operation = value
		case "old":
			c.old = value
		case "requires":
			c.requires = value
		case "expect":
			if value == "valid" {
				c.valid = true
			} else {
				c.expect = append(c.expect, value)
			}
		}
	}
	if c.valid == (len(c.expect) > 0) {
		t.Fatalf("%s: needs either \"# expect: valid\" or expected errors", path)
	}
	return c, data
}

// strictDecoder rejects unknown fields, so that a typo in the corpus cannot
// silently turn into a valid object.
var strictDecoder = serializer.NewCodecFactory(conversion.Scheme, serializer.EnableStrict).UniversalDeserializer()

func decodeCorpusObject(t *testing.T, path string, data []byte) runtime.Object {
	t.Helper()
	obj, _, err := strictDecoder.Decode(data, nil, nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return obj
}

// reasons lists the distinct "reason field" pairs of errs, as the server
// reports them in its causes.
func reasons(errs field.ErrorList) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range errs {
		s := string(e.Type) + " " + e.Field
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func TestCorpus(t *testing.T) {
	versions := []string{"v1alpha1", "v1alpha2", "v1alpha3"}
	total := 0
	for _, version := range versions {
		dir := filepath.Join("testdata", "corpus", version)
		files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, ".old.yaml") {
				continue
			}
			total++
			name := strings.TrimSuffix(filepath.Base(path), ".yaml")
			t.Run(version+"/"+name, func(t *testing.T) {
				c, data := readCorpusCase(t, path)
				obj := decodeCorpusObject(t, path, data)
				if gv := obj.GetObjectKind().GroupVersionKind().Version; gv != version {
					t.Fatalf("%s: apiVersion %s in the %s directory", path, gv, version)
				}
				var errs field.ErrorList
				switch c.operation {
				case "create":
					if c.old != "" {
						t.Fatalf("%s: a create has no old object", path)
					}
					errs = ValidateObject(obj, Options{})
				case "update", "status":
					if c.old == "" {
						t.Fatalf("%s: an %s needs \"# old:\"", path, c.operation)
					}
					oldPath := filepath.Join(dir, c.old)
					oldData, err := os.ReadFile(oldPath)
					if err != nil {
						t.Fatal(err)
					}
					old := decodeCorpusObject(t, oldPath, oldData)
					checkReachable(t, oldPath, old, c.operation)
					if c.operation == "update" {
						errs = ValidateObjectUpdate(obj, old, Options{})
					} else {
						errs = ValidateObjectStatusUpdate(obj, old, Options{})
					}
				default:
					t.Fatalf("%s: unknown operation %q", path, c.operation)
				}
				want := append([]string(nil), c.expect...)
				sort.Strings(want)
				if got := reasons(errs); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s:\n got: %q\nwant: %q\nerrors: %v", path, got, want, errs)
				}
			})
		}
	}
	if total < 100 {
		t.Errorf("the corpus has %d cases; at least 100 are required", total)
	}
}

// checkReachable makes sure the end-to-end suite can produce the stored
// object of a case: it must be valid to create, and for status cases its
// status must be valid to write onto the freshly created object.
func checkReachable(t *testing.T, path string, old runtime.Object, operation string) {
	t.Helper()
	if errs := ValidateObject(old, Options{}); len(errs) > 0 {
		t.Fatalf("%s: the stored object cannot be created: %v", path, errs)
	}
	if operation != "status" {
		return
	}
	created := old.DeepCopyObject()
	clearStatus(created)
	if errs := ValidateObjectStatusUpdate(old, created, Options{}); len(errs) > 0 {
		t.Fatalf("%s: the stored status cannot be written: %v", path, errs)
	}
}

// clearStatus zeroes the status field of a typed object, as a create does.
func clearStatus(obj runtime.Object) {
	v := reflectValue(obj).FieldByName("Status")
	if v.IsValid() {
		v.Set(zeroOf(v))
	}
}

func reflectValue(obj runtime.Object) reflect.Value { return reflect.ValueOf(obj).Elem() }

func zeroOf(v reflect.Value) reflect.Value { return reflect.Zero(v.Type()) }
