package conversion

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"

	hub "github.com/drakit/drakit/apis/resource"
)

// TestFormat1StashesStillRead: stashes that an earlier drakit wrote (format
// 1, "v":1) read as they read then. testdata/stash-format1/<version>.jsonl
// holds, one per line, an object of that version as that drakit wrote it
// (converted from the hub, then sent over the wire, stash annotation and
// all) and the hub object it read back as JSON. The objects are the
// benchmarks' rich claims, class and slice and random hub objects of every
// kind with a stash, filled with every field, written by drakit at commit
// e20dc47, before the stash was derived from the types. They are data, not
// a recording of today's writer: never regenerate them; add a file for a
// new format beside them instead.
func TestFormat1StashesStillRead(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "stash-format1", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(Versions) {
		t.Fatalf("stored examples for %d versions, want one file for each of the %d", len(files), len(Versions))
	}
	for _, file := range files {
		version := strings.TrimSuffix(filepath.Base(file), ".jsonl")
		t.Run(version, func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			scanner := bufio.NewScanner(f)
			scanner.Buffer(nil, 1<<20)
			n := 0
			for scanner.Scan() {
				n++
				var example struct {
					Object json.RawMessage `json:"object"`
					Hub    json.RawMessage `json:"hub"`
				}
				if err := json.Unmarshal(scanner.Bytes(), &example); err != nil {
					t.Fatalf("line %d: %v", n, err)
				}
				obj := decode(t, string(example.Object))
				if gvk := obj.GetObjectKind().GroupVersionKind(); gvk.Version != version {
					t.Fatalf("line %d: a %s object in the file of %s", n, gvk, version)
				}
				m, err := meta.Accessor(obj)
				if err != nil {
					t.Fatal(err)
				}
				if value := m.GetAnnotations()[hub.StashAnnotation]; !strings.HasPrefix(value, `{"v":1,`) {
					t.Fatalf("line %d: no format 1 stash: %q", n, value)
				}
				h, err := ToHub(obj)
				if err != nil {
					t.Fatalf("line %d: %s %s: %v", n, obj.GetObjectKind().GroupVersionKind(), m.GetName(), err)
				}
				got, err := json.Marshal(h)
				if err != nil {
					t.Fatal(err)
				}
				if !sameJSONValue(t, got, example.Hub) {
					t.Errorf("line %d: %s %s reads as another hub object:\n got: %s\nwant: %s", n,
						obj.GetObjectKind().GroupVersionKind(), m.GetName(), got, example.Hub)
				}
			}
			if err := scanner.Err(); err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				t.Fatalf("%s holds no example", file)
			}
		})
	}
}

// sameJSONValue reports whether two JSON texts hold the same value.
func sameJSONValue(t *testing.T, a, b []byte) bool {
	t.Helper()
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}
