package stash

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drakit/drakit/apis/resource"
)

// olderSpec is a made-up version's claim spec: the hub's shape, but its
// exact request lacks count and tolerations, its alternatives lack
// tolerations, and its constraint lacks distinctAttribute. Its config is
// the hub's own type, so nothing is lost there.
type olderSpec struct {
	Devices struct {
		Requests []struct {
			Name    string `json:"name"`
			Exactly *struct {
				DeviceClassName   string                            `json:"deviceClassName"`
				Selectors         []resource.DeviceSelector         `json:"selectors"`
				AllocationMode    string                            `json:"allocationMode"`
				AdminAccess       *bool                             `json:"adminAccess"`
				Capacity          *resource.CapacityRequirements    `json:"capacity"`
				DerivedAttributes []resource.DeviceDerivedAttribute `json:"derivedAttributes"`
			} `json:"exactly"`
			FirstAvailable []struct {
				Name              string                            `json:"name"`
				DeviceClassName   string                            `json:"deviceClassName"`
				Selectors         []resource.DeviceSelector         `json:"selectors"`
				AllocationMode    string                            `json:"allocationMode"`
				Count             int64                             `json:"count"`
				Capacity          *resource.CapacityRequirements    `json:"capacity"`
				DerivedAttributes []resource.DeviceDerivedAttribute `json:"derivedAttributes"`
			} `json:"firstAvailable"`
		} `json:"requests"`
		Constraints []struct {
			Requests       []string                     `json:"requests"`
			MatchAttribute *resource.FullyQualifiedName `json:"matchAttribute"`
		} `json:"constraints"`
		Config []resource.DeviceClaimConfiguration `json:"config"`
	} `json:"devices"`
	Controller string `json:"controller"`
}

// TestTree: the tree of a version finds, at every depth, the fields whose
// JSON names the version's struct lacks; Collect keeps those set by path,
// and Restore puts them back where the path still leads, and nowhere else.
func TestTree(t *testing.T) {
	tree := NewTree[resource.ResourceClaimSpec](olderSpec{}, "spec", Kept("spec"), Whole("spec.devices.constraints"))
	paths := tree.Paths()
	for _, names := range paths {
		slices.Sort(names)
	}
	want := map[string][]string{
		"spec":                                 {"allocationMode", "parametersRef"},
		"spec.devices.requests.exactly":        {"count", "tolerations"},
		"spec.devices.requests.firstAvailable": {"tolerations"},
		"spec.devices.constraints":             {"distinctAttribute"},
	}
	if d := cmp.Diff(want, paths); d != "" {
		t.Fatalf("lost fields by path (-want +got):\n%s", d)
	}
	if got := LostAt[resource.ResourceClaimSpec](tree, "spec").Names(); !slices.Equal(got, []string{"parametersRef", "allocationMode"}) {
		t.Errorf("LostAt(spec) = %v", got)
	}
	if got := ShownAt[resource.ExactDeviceRequest](tree, "spec.devices.requests.exactly").Names(); slices.Contains(got, "count") || !slices.Contains(got, "adminAccess") {
		t.Errorf("ShownAt(exactly) = %v", got)
	}

	distinct := resource.FullyQualifiedName("example.com/model")
	in := resource.ResourceClaimSpec{
		Controller: "kept by the payload itself",
		Devices: resource.DeviceClaim{
			Requests: []resource.DeviceRequest{
				{Name: "a", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "gpu"}},
				{Name: "b", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "gpu", Count: 2,
					Tolerations: []resource.DeviceToleration{}}},
				{Name: "c", FirstAvailable: []resource.DeviceSubRequest{{Name: "x"},
					{Name: "y", Tolerations: []resource.DeviceToleration{{Key: "k"}}}}},
			},
			Constraints: []resource.DeviceConstraint{{DistinctAttribute: &distinct}},
		},
	}
	before := in.DeepCopy()
	lost := tree.Collect(&in, nil)
	wantLost := Lost{
		"spec.devices.requests[1].exactly":           &resource.ExactDeviceRequest{Count: 2, Tolerations: []resource.DeviceToleration{}},
		"spec.devices.requests[2].firstAvailable[1]": &resource.DeviceSubRequest{Tolerations: []resource.DeviceToleration{{Key: "k"}}},
	}
	if d := cmp.Diff(wantLost, lost); d != "" {
		t.Fatalf("Collect (-want +got):\n%s", d)
	}
	if d := cmp.Diff(before, &in); d != "" {
		t.Fatalf("Collect changed its input:\n%s", d)
	}
	if !tree.WholeAt("spec.devices.constraints").SaysMore(&in) {
		t.Errorf("SaysMore(constraints) = false with a distinctAttribute")
	}
	if tree.WholeAt("spec.devices.constraints").SaysMore(&resource.ResourceClaimSpec{}) {
		t.Errorf("SaysMore(constraints) = true without constraints")
	}

	// Written and read back as a payload, then restored into what the
	// version gives back: the same requests without the lost fields.
	value, err := codec.MarshalToString(&Claim{V: FormatVersionLost, Lost: lost})
	if err != nil {
		t.Fatal(err)
	}
	if wantText := `{"v":2,"lost":{"spec.devices.requests[1].exactly":{"count":2,"tolerations":[]},"spec.devices.requests[2].firstAvailable[1]":{"tolerations":[{"key":"k"}]}}}`; value != wantText {
		t.Errorf("payload\n got %s\nwant %s", value, wantText)
	}
	var read Claim
	if err := decode(value, &read); err != nil {
		t.Fatal(err)
	}
	shown := func() *resource.ResourceClaimSpec {
		out := before.DeepCopy()
		out.Devices.Requests[1].Exactly.Count = 0
		out.Devices.Requests[1].Exactly.Tolerations = nil
		out.Devices.Requests[2].FirstAvailable[1].Tolerations = nil
		return out
	}
	out := shown()
	out.Controller = before.Controller // the payload's own (Kept)
	tree.Restore(read.Lost, out)
	if d := cmp.Diff(before, out); d != "" {
		t.Errorf("restored (-want +got):\n%s", d)
	}

	// Edit wins: a request removed, an exactly removed, an alternative
	// removed: nothing restored there, and nothing elsewhere.
	out = shown()
	out.Devices.Requests[1].Exactly = nil
	out.Devices.Requests[2].FirstAvailable = out.Devices.Requests[2].FirstAvailable[:1]
	edited := out.DeepCopy()
	tree.Restore(read.Lost, out)
	if d := cmp.Diff(edited, out); d != "" {
		t.Errorf("restored where the path leads nowhere (-want +got):\n%s", d)
	}
	out = shown()
	out.Devices.Requests = out.Devices.Requests[:1]
	edited = out.DeepCopy()
	tree.Restore(read.Lost, out)
	if d := cmp.Diff(edited, out); d != "" {
		t.Errorf("restored into a removed request (-want +got):\n%s", d)
	}
}

// TestTreeHints: a hint at a path the hub type does not have, or a struct
// that the version shows as something else without a hint, is a mistake
// that NewTree reports at once.
func TestTreeHints(t *testing.T) {
	for name, build := range map[string]func(){
		"unknown path": func() {
			NewTree[resource.ResourceClaimSpec](olderSpec{}, "spec", Handled("spec.devices.requets"))
		},
		"struct shown as a string": func() {
			NewTree[resource.ResourceClaimSpec](struct {
				Devices string `json:"devices"`
			}{}, "spec")
		},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "stash.NewTree") {
					t.Errorf("%s: got %v, want a stash.NewTree panic", name, r)
				}
			}()
			build()
		}()
	}
	// Paths of a claim's structs, and what is not one.
	for path, want := range map[string]reflect.Type{
		"spec.devices.requests[0].exactly":      reflect.TypeFor[resource.ExactDeviceRequest](),
		"status.allocation":                     reflect.TypeFor[resource.AllocationResult](),
		"spec.devices.requests":                 nil,
		"spec.devices.requests[0].name":         nil,
		"spec.devices.requests[x]":              nil,
		"spec.devices.requests[01]":             nil,
		"status.allocation.allocationTimestamp": nil,
		"":                                      nil,
	} {
		if got := lostType(claimType, path); got != want {
			t.Errorf("lostType(%q) = %v, want %v", path, got, want)
		}
	}
}
