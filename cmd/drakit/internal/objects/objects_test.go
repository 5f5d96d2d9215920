package objects

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
)

func readObjects(t *testing.T, input string, strict bool) (seen, problems []string) {
	t.Helper()
	rd := &Reader{Strict: strict, Report: func(e *manifest.Error, warning bool) {
		prefix := "error: "
		if warning {
			prefix = "warning: "
		}
		problems = append(problems, prefix+e.Error())
	}}
	err := rd.Each(manifest.NewReader(strings.NewReader(input), "in.yaml"), func(o *Object) error {
		typed := "json"
		if o.Typed != nil {
			typed = "typed"
		}
		seen = append(seen, o.At+" "+o.GVK.String()+" "+o.Name()+" "+typed)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return seen, problems
}

func TestListsGiveTheirItems(t *testing.T) {
	input := `apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaimList
items:
- metadata: {name: a, namespace: ns}
  spec: {resourceClassName: c}
- apiVersion: resource.k8s.io/v1alpha2
  kind: ResourceClaim
  metadata: {name: b}
  spec: {resourceClassName: c}
- apiVersion: resource.k8s.io/v1alpha2
  kind: ResourceClass
  metadata: {name: wrong-kind}
  driverName: d
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm}
- apiVersion: resource.k8s.io/v1alpha3
  kind: DeviceClassList
  items: []
- apiVersion: resource.k8s.io/v1alpha1
  kind: ResourceClass
  metadata: {name: rc}
  driverName: d
  extra: 1
`
	seen, problems := readObjects(t, input, false)
	wantSeen := []string{
		"items[0] resource.k8s.io/v1alpha2, Kind=ResourceClaim ResourceClaim ns/a typed",
		"items[1] resource.k8s.io/v1alpha2, Kind=ResourceClaim ResourceClaim b typed",
		"items[0] /v1, Kind=ConfigMap ConfigMap cm json",
		"items[2] resource.k8s.io/v1alpha1, Kind=ResourceClass ResourceClass rc typed",
	}
	wantProblems := []string{
		"error: in.yaml:10: document 1: ResourceClass wrong-kind: items[2]: an item of a ResourceClaimList must be a resource.k8s.io/v1alpha2 ResourceClaim",
		"error: in.yaml:21: document 2: DeviceClassList: items[1]: a list cannot be an item of a list",
		`warning: in.yaml:28: document 2: ResourceClass rc: items[2].extra: unknown field "extra"`,
	}
	if diff := cmp.Diff(wantSeen, seen); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantProblems, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	// Strict: the unknown field is an error and the object is left out.
	seen, problems = readObjects(t, input, true)
	if len(seen) != 3 || !strings.HasPrefix(problems[2], "error: ") {
		t.Errorf("strict: %v %v", seen, problems)
	}
}

// FuzzObjects reads arbitrary streams as validate and allocate do: every
// document an object, lists item by item, objects of resource.k8s.io
// decoded into their types. Nothing panics; every problem is reported on
// one line naming the source and the document; every object passed on
// has a kind, a line, and is typed exactly when it is of resource.k8s.io.
//
//	go test ./cmd/drakit/internal/objects -run '^$' -fuzz '^FuzzObjects$' -fuzztime 1m
func FuzzObjects(f *testing.F) {
	f.Add([]byte("apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClaimList\nitems:\n- metadata: {name: a}\n  spec: {resourceClassName: c}\n"), true)
	f.Add([]byte("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n  items: []\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		r := manifest.NewReader(strings.NewReader(string(data)), "fuzz.yaml")
		r.SetMaxDocumentBytes(64 << 10)
		rd := &Reader{Strict: strict, Report: func(e *manifest.Error, warning bool) {
			msg := e.Error()
			if e.Source != "fuzz.yaml" || e.Index < 1 || !strings.HasPrefix(msg, "fuzz.yaml") || !strings.Contains(msg, "document ") {
				t.Fatalf("problem does not name the source and document: %q", msg)
			}
			if strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("problem takes more than one line: %q", msg)
			}
		}}
		err := rd.Each(r, func(o *Object) error {
			if o.GVK.Kind == "" || o.Line() < 1 {
				t.Fatalf("object without a kind or line: %+v", o.Head)
			}
			if (o.Typed != nil) != (o.GVK.Group == "resource.k8s.io") {
				t.Fatalf("%s: typed %t", o.GVK, o.Typed != nil)
			}
			if o.At != "" && !strings.HasPrefix(o.At, "items[") {
				t.Fatalf("object at %q", o.At)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("Each: %v", err)
		}
	})
}

// BenchmarkLinesOfALongList reads a List of 2,000 claims and places each
// item on its line, as validate does for every object. The document is
// parsed for lines once; parsing it once per item made this quadratic
// (70 s for 2,000 items, hours for a 3 MiB List).
func BenchmarkLinesOfALongList(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("apiVersion: resource.k8s.io/v1\nkind: ResourceClaimList\nitems:\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&sb, "- metadata: {name: c%d, namespace: ns}\n  spec: {devices: {requests: [{name: r, exactly: {deviceClassName: c}}]}}\n", i)
	}
	input := sb.String()
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		rd := &Reader{Strict: true, Report: func(e *manifest.Error, warning bool) { b.Fatal(e) }}
		err := rd.Each(manifest.NewReader(strings.NewReader(input), "in.yaml"), func(o *Object) error {
			n++
			if want := 4 + 2*(n-1); o.Line() != want {
				b.Fatalf("%s: line %d, want %d", o.At, o.Line(), want)
			}
			return nil
		})
		if err != nil || n != 2000 {
			b.Fatal(err, n)
		}
	}
}
