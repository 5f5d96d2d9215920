package objects

import (
	"fmt"
	"strings"
	"testing"

	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
)

// EachParallel reports and passes on exactly what Each does, in the same
// order, whatever the number of workers: objects, lists, unknown fields,
// broken documents and objects of other groups mixed.
func TestEachParallelIsEach(t *testing.T) {
	var docs []string
	for i := 0; i < 60; i++ {
		switch i % 6 {
		case 0:
			docs = append(docs, fmt.Sprintf("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c%d}\n", i))
		case 1:
			docs = append(docs, fmt.Sprintf("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c%d}\nbogus: 1\n", i))
		case 2:
			docs = append(docs, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")
		case 3:
			docs = append(docs, "key: [unclosed\n")
		case 4:
			docs = append(docs, fmt.Sprintf("apiVersion: v1\nkind: List\nitems:\n- apiVersion: resource.k8s.io/v1\n  kind: DeviceClass\n  metadata: {name: l%d}\n- {kind: Node}\n", i))
		case 5:
			docs = append(docs, "# only a comment\n")
		}
	}
	input := strings.Join(docs, "---\n")
	run := func(parallel int) []string {
		var got []string
		rd := &Reader{Report: func(e *manifest.Error, warning bool) {
			got = append(got, fmt.Sprintf("report %v %s", warning, e.Error()))
		}}
		rd.Strict = true
		r := manifest.NewReader(strings.NewReader(input), "in.yaml")
		pass := func(o *Object, prepared any) error {
			got = append(got, fmt.Sprintf("object %s %s %v %v", o.GVK, o.Name(), o.Typed != nil, prepared))
			return nil
		}
		var err error
		if parallel == 0 {
			err = rd.Each(r, func(o *Object) error { return pass(o, o.GVK.Kind) })
		} else {
			err = rd.EachParallel(r, parallel, func(o *Object) any { return o.GVK.Kind }, pass)
		}
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	want := run(0)
	if len(want) < 60 {
		t.Fatalf("only %d events", len(want))
	}
	for _, workers := range []int{1, 2, 7} {
		got := run(workers)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%d workers:\n%s\nwant:\n%s", workers, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
