package allocbench

import (
	"bytes"
	"encoding/json"
	"testing"

	resourceapi "k8s.io/api/resource/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/fuzzer"
)

// TestTranslateIsACopy fills hub classes, slices and claims at random
// (every field, drakit's test filler), leaves out what translate.go says it
// leaves out (the legacy fields, a claim's status), and requires the
// translation to equal the hub object read as v1 from its JSON (the hub has
// v1's JSON names), with the requests defaulted as translate.go defaults
// them. Reading rejects unknown fields, so a hub field that v1 cannot say
// and that is not cleared here fails the test; a v1 field the translation
// forgets to copy fails the comparison.
func TestTranslateIsACopy(t *testing.T) {
	n := fuzzer.Iterations(20000, 2000)
	for i := 0; i < n; i++ {
		f := fuzzer.New(int64(i))

		var class resource.DeviceClass
		f.Fill(&class)
		plainMeta(&class.TypeMeta, &class.ObjectMeta)
		class.Spec.SuitableNodes, class.Spec.ParametersRef, class.Spec.StructuredParameters = nil, nil, nil
		var wantClass resourceapi.DeviceClass
		readAsV1(t, &class, &wantClass)
		if got := toV1Class(&class); !apiequality.Semantic.DeepEqual(got, &wantClass) {
			t.Fatalf("seed %d: class:\n got %s\nwant %s", i, mustJSON(got), mustJSON(&wantClass))
		}

		var slice resource.ResourceSlice
		f.Fill(&slice)
		plainMeta(&slice.TypeMeta, &slice.ObjectMeta)
		slice.Spec.NoResourceModel = false
		for j := range slice.Spec.Devices {
			slice.Spec.Devices[j].NamedResources = nil
		}
		var wantSlice resourceapi.ResourceSlice
		readAsV1(t, &slice, &wantSlice)
		if got := toV1Slice(&slice); !apiequality.Semantic.DeepEqual(got, &wantSlice) {
			t.Fatalf("seed %d: slice:\n got %s\nwant %s", i, mustJSON(got), mustJSON(&wantSlice))
		}

		var claim resource.ResourceClaim
		f.Fill(&claim)
		plainMeta(&claim.TypeMeta, &claim.ObjectMeta)
		claim.Spec.Controller, claim.Spec.ParametersRef, claim.Spec.AllocationMode = "", nil, ""
		claim.Status = resource.ResourceClaimStatus{}
		var wantClaim resourceapi.ResourceClaim
		readAsV1(t, &claim, &wantClaim)
		for j := range wantClaim.Spec.Devices.Requests {
			r := &wantClaim.Spec.Devices.Requests[j]
			if r.Exactly != nil {
				defaultModeAndCount(&r.Exactly.AllocationMode, &r.Exactly.Count)
			}
			for k := range r.FirstAvailable {
				defaultModeAndCount(&r.FirstAvailable[k].AllocationMode, &r.FirstAvailable[k].Count)
			}
		}
		if got := toV1Claim(&claim); !apiequality.Semantic.DeepEqual(got, &wantClaim) {
			t.Fatalf("seed %d: claim:\n got %s\nwant %s", i, mustJSON(got), mustJSON(&wantClaim))
		}
	}
}

// TestTranslateDefaults pins the defaults: an unset mode is ExactCount, a
// missing ExactCount count is one, All keeps no count, and set values stay.
func TestTranslateDefaults(t *testing.T) {
	claim := ResourceClaim("c",
		resource.DeviceRequest{Name: "unset", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "x"}},
		resource.DeviceRequest{Name: "all", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "x", AllocationMode: resource.DeviceAllocationModeAll}},
		resource.DeviceRequest{Name: "three", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "x", Count: 3}},
		resource.DeviceRequest{Name: "alternatives", FirstAvailable: []resource.DeviceSubRequest{{Name: "a", DeviceClassName: "x"}, {Name: "b", DeviceClassName: "x", AllocationMode: resource.DeviceAllocationModeAll}}},
	)
	got := toV1Claim(claim).Spec.Devices.Requests
	for _, c := range []struct {
		what  string
		mode  resourceapi.DeviceAllocationMode
		count int64
		want  resourceapi.DeviceAllocationMode
		wantN int64
	}{
		{"unset", got[0].Exactly.AllocationMode, got[0].Exactly.Count, resourceapi.DeviceAllocationModeExactCount, 1},
		{"all", got[1].Exactly.AllocationMode, got[1].Exactly.Count, resourceapi.DeviceAllocationModeAll, 0},
		{"three", got[2].Exactly.AllocationMode, got[2].Exactly.Count, resourceapi.DeviceAllocationModeExactCount, 3},
		{"alternatives/a", got[3].FirstAvailable[0].AllocationMode, got[3].FirstAvailable[0].Count, resourceapi.DeviceAllocationModeExactCount, 1},
		{"alternatives/b", got[3].FirstAvailable[1].AllocationMode, got[3].FirstAvailable[1].Count, resourceapi.DeviceAllocationModeAll, 0},
	} {
		if c.mode != c.want || c.count != c.wantN {
			t.Errorf("%s: mode %q count %d, want %q %d", c.what, c.mode, c.count, c.want, c.wantN)
		}
	}
	if claim.Spec.Devices.Requests[0].Exactly.AllocationMode != "" {
		t.Error("the translation changed the hub claim")
	}
}

// plainMeta replaces random metadata by a name: the translation copies
// metadata with DeepCopy, not field by field.
func plainMeta(tm *metav1.TypeMeta, om *metav1.ObjectMeta) {
	*tm = metav1.TypeMeta{}
	*om = metav1.ObjectMeta{Name: "x", Namespace: "ns"}
}

// readAsV1 reads the hub object's JSON as v1, failing on fields v1 lacks.
func readAsV1(t *testing.T, hub, v1 any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(mustJSON(hub)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v1); err != nil {
		t.Fatalf("reading %s as v1: %v", mustJSON(hub), err)
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
