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
// e20dc47, before the stash was derived from the types. Beside them,
// testdata/stash-format1-86c006a holds claims and templates written by
// drakit at commit 86c006a, before the claim stash was derived from the
// types, chosen at random so that together they have every member a claim
// payload had then (emptyExactly, undefaultedExactly, derivedResults,
// derivedHandles, shareable, ...); written again from the hub object they
// read as, each gives the same stash text. They are data, not a recording
// of today's writer: never regenerate them; add a file for a new format
// beside them instead.
func TestFormat1StashesStillRead(t *testing.T) {
	var files []string
	for _, dir := range []string{"stash-format1", "stash-format1-86c006a"} {
		inDir, err := filepath.Glob(filepath.Join("testdata", dir, "*.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if len(inDir) != len(Versions) {
			t.Fatalf("%s: stored examples for %d versions, want one file for each of the %d", dir, len(inDir), len(Versions))
		}
		files = append(files, inDir...)
	}
	for _, file := range files {
		version := strings.TrimSuffix(filepath.Base(file), ".jsonl")
		// The stashes of 86c006a are also what today's writer writes
		// (those of e20dc47 may differ in a way that reads the same).
		rewrites := filepath.Base(filepath.Dir(file)) == "stash-format1-86c006a"
		t.Run(filepath.Base(filepath.Dir(file))+"/"+version, func(t *testing.T) {
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
				if !rewrites {
					continue
				}
				// Written again from what it read, the stash is the text it
				// was: today's writer writes format 1 byte for byte.
				again, err := FromHub(h, version)
				if err != nil {
					t.Fatalf("line %d: back to %s: %v", n, version, err)
				}
				ma, _ := meta.Accessor(again)
				if was, is := m.GetAnnotations()[hub.StashAnnotation], ma.GetAnnotations()[hub.StashAnnotation]; was != is {
					t.Errorf("line %d: %s %s: written again, the stash differs:\n got: %s\nwant: %s", n,
						obj.GetObjectKind().GroupVersionKind(), m.GetName(), is, was)
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
