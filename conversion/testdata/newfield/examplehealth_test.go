package conversion

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	hub "github.com/drakit/drakit/apis/resource"
)

// TestExampleHealth is the test of the made-up hub field of
// newfield_example_test.go, Device.ExampleHealth, which no version can say:
// a slice with it comes back from every version, over the wire, with the
// field as it was, and the version's stash is what carried it. The example
// builds this file into the package with go test -overlay.
func TestExampleHealth(t *testing.T) {
	node := "node-1"
	in := &hub.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "node-1-gpu"},
		Spec: hub.ResourceSliceSpec{
			Driver:   "gpu.example.com",
			Pool:     hub.ResourcePool{Name: "node-1", ResourceSliceCount: 1},
			NodeName: &node,
			Devices:  []hub.Device{{Name: "gpu-0", ExampleHealth: "degraded"}, {Name: "gpu-1"}},
		},
	}
	versions := 0
	for _, gv := range Versions {
		kind, err := KindIn("ResourceSlice", gv.Version)
		if err != nil {
			continue
		}
		versions++
		out, err := FromHub(in, gv.Version)
		if err != nil {
			t.Fatalf("%s: %v", gv.Version, err)
		}
		m, _ := meta.Accessor(out)
		if stash := m.GetAnnotations()[hub.StashAnnotation]; !strings.Contains(stash, `"exampleHealth":"degraded"`) {
			t.Errorf("%s: the stash does not keep exampleHealth: %q", gv.Version, stash)
		}
		wire := overTheWire(t, gv.WithKind(kind), out)
		wire.GetObjectKind().SetGroupVersionKind(gv.WithKind(kind))
		back, err := ToHub(wire)
		if err != nil {
			t.Fatalf("%s: back: %v", gv.Version, err)
		}
		devices := back.(*hub.ResourceSlice).Spec.Devices
		if len(devices) != 2 || devices[0].ExampleHealth != "degraded" || devices[1].ExampleHealth != "" {
			got, _ := json.Marshal(devices)
			t.Errorf("%s does not carry exampleHealth: %s", gv.Version, got)
		}
	}
	if versions < 5 {
		t.Fatalf("ResourceSlice in %d versions, want 5", versions)
	}
}
