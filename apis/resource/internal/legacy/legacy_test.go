package legacy

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/internal/stash"
	"github.com/drakit/drakit/internal/fuzzer"
)

// legacyShape is the ClaimShape of a v1alpha1/v1alpha2-like version, whose
// claim spec shows its class and the legacy fields, and its devices in
// terms of its own.
var legacyShape = NewClaimShape(
	stash.NewTree[resource.ResourceClaimSpec](struct {
		ResourceClassName string                                     `json:"resourceClassName"`
		ParametersRef     *resource.ResourceClaimParametersReference `json:"parametersRef"`
		AllocationMode    resource.AllocationMode                    `json:"allocationMode"`
	}{}, "spec", stash.Kept("spec"), stash.Rendered("spec.devices"),
		stash.Handled("spec.devices.requests", "spec.devices.constraints", "spec.devices.config")),
	stash.NewTree[resource.ResourceClaimStatus](resource.ResourceClaimStatus{}, "status"),
)

// TestHandleFromDevicesIsJSON: the v1alpha1 handle that shows device
// results is JSON a driver can read with encoding/json (strictly), which
// gives back the devices exactly, and the same devices always give the
// same text.
func TestHandleFromDevicesIsJSON(t *testing.T) {
	f := fuzzer.New(1)
	for i := range fuzzer.Iterations(20000, 1000) {
		var d resource.DeviceAllocationResult
		f.Fill(&d)
		handle := HandleFromDevices(d)
		if handle == "" {
			t.Fatalf("iteration %d: no handle for %#v", i, d)
		}
		dec := json.NewDecoder(strings.NewReader(handle))
		dec.DisallowUnknownFields()
		var back resource.DeviceAllocationResult
		if err := dec.Decode(&back); err != nil {
			t.Fatalf("iteration %d: encoding/json cannot read %s: %v", i, handle, err)
		}
		if diff := cmp.Diff(d, back); diff != "" {
			t.Fatalf("iteration %d: read back differently (-devices +read):\n%s\n%s", i, diff, handle)
		}
		if again := HandleFromDevices(d); again != handle {
			t.Fatalf("iteration %d: the same devices gave another handle:\n%s\n%s", i, handle, again)
		}
	}
}

func TestHandleFromDevices(t *testing.T) {
	d := resource.DeviceAllocationResult{
		Results: []resource.DeviceRequestAllocationResult{{Request: "gpus", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"}},
		Config: []resource.DeviceAllocationConfiguration{{
			Source: resource.AllocationConfigSourceClaim, Requests: []string{"gpus"},
			DeviceConfiguration: resource.DeviceConfiguration{Opaque: &resource.OpaqueDeviceConfiguration{
				Driver: "gpu.example.com", Parameters: runtime.RawExtension{Raw: []byte(`{"sharing":"a<b"}`)},
			}},
		}},
	}
	want := `{"results":[{"request":"gpus","driver":"gpu.example.com","pool":"node-1","device":"gpu-0"}],` +
		`"config":[{"source":"FromClaim","requests":["gpus"],"opaque":{"driver":"gpu.example.com","parameters":{"sharing":"a<b"}}}]}`
	if got := HandleFromDevices(d); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := HandleFromDevices(resource.DeviceAllocationResult{}); got != "{}" {
		t.Errorf("empty: got %q, want {}", got)
	}
}

// exact is a request named name with the given exactly.
func exact(name string, e resource.ExactDeviceRequest) resource.DeviceRequest {
	return resource.DeviceRequest{Name: name, Exactly: &e}
}

// TestRequestDefaults: a claim spec's stash keeps its requests without what
// the defaults give back, and restoring them gives the defaulted requests;
// but an exactly without a class keeps an allocation mode and count that
// the defaults would change as they are, as v1beta1's defaulting leaves
// them, and names its request's position (undefaultedExactly).
func TestRequestDefaults(t *testing.T) {
	exactCount, all := resource.DeviceAllocationModeExactCount, resource.DeviceAllocationModeAll
	equal := resource.DeviceTolerationOpEqual
	for _, tc := range []struct {
		name        string
		in          resource.DeviceRequest
		kept        resource.DeviceRequest // what the stash holds
		defaulted   resource.DeviceRequest // what comes back
		undefaulted bool                   // named in undefaultedExactly
	}{{
		name:      "one device",
		in:        exact("r", resource.ExactDeviceRequest{AllocationMode: exactCount, Count: 1}),
		kept:      exact("r", resource.ExactDeviceRequest{}),
		defaulted: exact("r", resource.ExactDeviceRequest{AllocationMode: exactCount, Count: 1}),
	}, {
		name:      "two devices",
		in:        exact("r", resource.ExactDeviceRequest{AllocationMode: exactCount, Count: 2}),
		kept:      exact("r", resource.ExactDeviceRequest{Count: 2}),
		defaulted: exact("r", resource.ExactDeviceRequest{AllocationMode: exactCount, Count: 2}),
	}, {
		name:      "all devices",
		in:        exact("r", resource.ExactDeviceRequest{AllocationMode: all}),
		kept:      exact("r", resource.ExactDeviceRequest{AllocationMode: all}),
		defaulted: exact("r", resource.ExactDeviceRequest{AllocationMode: all}),
	}, {
		name:      "all devices with a count",
		in:        exact("r", resource.ExactDeviceRequest{AllocationMode: all, Count: 1}),
		kept:      exact("r", resource.ExactDeviceRequest{AllocationMode: all, Count: 1}),
		defaulted: exact("r", resource.ExactDeviceRequest{AllocationMode: all, Count: 1}),
	}, {
		name:      "not defaulted",
		in:        exact("r", resource.ExactDeviceRequest{DeviceClassName: "x"}),
		kept:      exact("r", resource.ExactDeviceRequest{DeviceClassName: "x"}),
		defaulted: exact("r", resource.ExactDeviceRequest{DeviceClassName: "x", AllocationMode: exactCount, Count: 1}),
	}, {
		name:      "not defaulted, with a count",
		in:        exact("r", resource.ExactDeviceRequest{DeviceClassName: "x", Count: 3}),
		kept:      exact("r", resource.ExactDeviceRequest{DeviceClassName: "x", Count: 3}),
		defaulted: exact("r", resource.ExactDeviceRequest{DeviceClassName: "x", AllocationMode: exactCount, Count: 3}),
	}, {
		name:      "not defaulted, with ExactCount and no count",
		in:        exact("r", resource.ExactDeviceRequest{DeviceClassName: "x", AllocationMode: exactCount}),
		kept:      exact("r", resource.ExactDeviceRequest{DeviceClassName: "x"}),
		defaulted: exact("r", resource.ExactDeviceRequest{DeviceClassName: "x", AllocationMode: exactCount, Count: 1}),
	}, {
		name:        "without a class, mode and count",
		in:          exact("r", resource.ExactDeviceRequest{}),
		kept:        exact("r", resource.ExactDeviceRequest{}),
		defaulted:   exact("r", resource.ExactDeviceRequest{}),
		undefaulted: true,
	}, {
		name:        "without a class and mode, with a count",
		in:          exact("r", resource.ExactDeviceRequest{Count: 3}),
		kept:        exact("r", resource.ExactDeviceRequest{Count: 3}),
		defaulted:   exact("r", resource.ExactDeviceRequest{Count: 3}),
		undefaulted: true,
	}, {
		name:        "without a class and count, with ExactCount",
		in:          exact("r", resource.ExactDeviceRequest{AllocationMode: exactCount}),
		kept:        exact("r", resource.ExactDeviceRequest{AllocationMode: exactCount}),
		defaulted:   exact("r", resource.ExactDeviceRequest{AllocationMode: exactCount}),
		undefaulted: true,
	}, {
		name: "without a class and mode, beside alternatives and with tolerations, which get their defaults",
		in: resource.DeviceRequest{Name: "r",
			Exactly: &resource.ExactDeviceRequest{Count: 2, Tolerations: []resource.DeviceToleration{{Key: "a", Operator: equal}, {Key: "c"}}},
			FirstAvailable: []resource.DeviceSubRequest{
				{Name: "a", DeviceClassName: "x", AllocationMode: exactCount, Count: 1},
				{Name: "b", DeviceClassName: "y"},
			}},
		kept: resource.DeviceRequest{Name: "r",
			Exactly: &resource.ExactDeviceRequest{Count: 2, Tolerations: []resource.DeviceToleration{{Key: "a"}, {Key: "c"}}},
			FirstAvailable: []resource.DeviceSubRequest{
				{Name: "a", DeviceClassName: "x"},
				{Name: "b", DeviceClassName: "y"},
			}},
		defaulted: resource.DeviceRequest{Name: "r",
			Exactly: &resource.ExactDeviceRequest{Count: 2, Tolerations: []resource.DeviceToleration{{Key: "a", Operator: equal}, {Key: "c", Operator: equal}}},
			FirstAvailable: []resource.DeviceSubRequest{
				{Name: "a", DeviceClassName: "x", AllocationMode: exactCount, Count: 1},
				{Name: "b", DeviceClassName: "y", AllocationMode: exactCount, Count: 1},
			}},
		undefaulted: true,
	}, {
		name:      "an unknown mode",
		in:        exact("r", resource.ExactDeviceRequest{AllocationMode: "Some"}),
		kept:      exact("r", resource.ExactDeviceRequest{AllocationMode: "Some"}),
		defaulted: exact("r", resource.ExactDeviceRequest{AllocationMode: "Some"}),
	}, {
		name: "tolerations",
		in: exact("r", resource.ExactDeviceRequest{AllocationMode: all, Tolerations: []resource.DeviceToleration{
			{Key: "a", Operator: equal}, {Key: "b", Operator: resource.DeviceTolerationOpExists}, {Key: "c"}}}),
		kept: exact("r", resource.ExactDeviceRequest{AllocationMode: all, Tolerations: []resource.DeviceToleration{
			{Key: "a"}, {Key: "b", Operator: resource.DeviceTolerationOpExists}, {Key: "c"}}}),
		defaulted: exact("r", resource.ExactDeviceRequest{AllocationMode: all, Tolerations: []resource.DeviceToleration{
			{Key: "a", Operator: equal}, {Key: "b", Operator: resource.DeviceTolerationOpExists}, {Key: "c", Operator: equal}}}),
	}, {
		name: "alternatives",
		in: resource.DeviceRequest{Name: "r", FirstAvailable: []resource.DeviceSubRequest{
			{Name: "a", DeviceClassName: "x", AllocationMode: exactCount, Count: 1},
			{Name: "b", DeviceClassName: "y", AllocationMode: all, Tolerations: []resource.DeviceToleration{{Operator: equal}}},
		}},
		kept: resource.DeviceRequest{Name: "r", FirstAvailable: []resource.DeviceSubRequest{
			{Name: "a", DeviceClassName: "x"},
			{Name: "b", DeviceClassName: "y", AllocationMode: all, Tolerations: []resource.DeviceToleration{{}}},
		}},
		defaulted: resource.DeviceRequest{Name: "r", FirstAvailable: []resource.DeviceSubRequest{
			{Name: "a", DeviceClassName: "x", AllocationMode: exactCount, Count: 1},
			{Name: "b", DeviceClassName: "y", AllocationMode: all, Tolerations: []resource.DeviceToleration{{Operator: equal}}},
		}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			// A second request, so that the requests need the stash.
			spec := resource.ResourceClaimSpec{Devices: resource.DeviceClaim{Requests: []resource.DeviceRequest{
				exact("first", resource.ExactDeviceRequest{DeviceClassName: "c", AllocationMode: all}), tc.in,
			}}}
			before := spec.DeepCopy()
			st := specStash(&spec, &legacyShape)
			if st == nil || st.Requests == nil || len(*st.Requests) != 2 {
				t.Fatalf("stash %+v, want both requests", st)
			}
			if diff := cmp.Diff(tc.kept, (*st.Requests)[1]); diff != "" {
				t.Errorf("kept (-want +got):\n%s", diff)
			}
			var wantUndefaulted []int
			if tc.undefaulted {
				wantUndefaulted = []int{1}
			}
			if diff := cmp.Diff(wantUndefaulted, st.UndefaultedExactly); diff != "" {
				t.Errorf("undefaultedExactly (-want +got):\n%s", diff)
			}
			if got := (*st.Requests)[0].Exactly.DeviceClassName; got != "" {
				t.Errorf("kept the first request's class %q", got)
			}
			if diff := cmp.Diff(before, &spec); diff != "" {
				t.Errorf("specStash changed its input (-before +after):\n%s", diff)
			}
			var out resource.ResourceClaimSpec
			restoreSpec(st, "c", &out, &legacyShape)
			if diff := cmp.Diff(tc.defaulted, out.Devices.Requests[1]); diff != "" {
				t.Errorf("restored (-want +got):\n%s", diff)
			}
			if got := out.Devices.Requests[0].Exactly.DeviceClassName; got != "c" {
				t.Errorf("the first request's class came back as %q", got)
			}
		})
	}
}

// TestRestoreRequestsIgnoresOtherPositions: a stash's undefaultedExactly
// that names no request, or one without exactly (a hand-edited stash), is
// ignored: those requests get their defaults.
func TestRestoreRequestsIgnoresOtherPositions(t *testing.T) {
	requests := []resource.DeviceRequest{
		exact("a", resource.ExactDeviceRequest{}),
		{Name: "b", FirstAvailable: []resource.DeviceSubRequest{{Name: "x"}}},
	}
	RestoreRequests(requests, []int{-1, 1, 7})
	want := []resource.DeviceRequest{
		exact("a", resource.ExactDeviceRequest{AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1}),
		{Name: "b", FirstAvailable: []resource.DeviceSubRequest{{Name: "x", AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1}}},
	}
	if diff := cmp.Diff(want, requests); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestClassName: a request that is, once defaulted, the request a
// resourceClassName stands for needs no stash.
func TestClassName(t *testing.T) {
	legacyName := resource.LegacyRequestName
	yes := true
	for _, tc := range []struct {
		requests []resource.DeviceRequest
		class    string
		exact    bool
	}{
		{nil, "", true},
		{[]resource.DeviceRequest{}, "", false},
		{[]resource.DeviceRequest{Request("gpu")}, "gpu", true},
		{Requests("gpu"), "gpu", true},
		{[]resource.DeviceRequest{exact(legacyName, resource.ExactDeviceRequest{DeviceClassName: "gpu"})}, "gpu", true},
		{[]resource.DeviceRequest{exact(legacyName, resource.ExactDeviceRequest{DeviceClassName: "gpu", Count: 1})}, "gpu", true},
		{[]resource.DeviceRequest{exact(legacyName, resource.ExactDeviceRequest{DeviceClassName: "gpu", Count: 2})}, "gpu", false},
		{[]resource.DeviceRequest{exact(legacyName, resource.ExactDeviceRequest{DeviceClassName: "gpu", AllocationMode: resource.DeviceAllocationModeAll})}, "gpu", false},
		{[]resource.DeviceRequest{exact(legacyName, resource.ExactDeviceRequest{DeviceClassName: "gpu", AdminAccess: &yes})}, "gpu", false},
		{[]resource.DeviceRequest{exact(legacyName, resource.ExactDeviceRequest{DeviceClassName: "gpu", Tolerations: []resource.DeviceToleration{}})}, "gpu", false},
		{[]resource.DeviceRequest{exact("gpus", resource.ExactDeviceRequest{DeviceClassName: "gpu"})}, "gpu", false},
		{[]resource.DeviceRequest{exact(legacyName, resource.ExactDeviceRequest{})}, "", false},
		{[]resource.DeviceRequest{{Name: legacyName}}, "", false},
		{[]resource.DeviceRequest{{Name: legacyName, FirstAvailable: []resource.DeviceSubRequest{{Name: "a", DeviceClassName: "gpu"}}}}, "", false},
		{[]resource.DeviceRequest{{Name: legacyName, Exactly: &resource.ExactDeviceRequest{DeviceClassName: "gpu"}, FirstAvailable: []resource.DeviceSubRequest{}}}, "gpu", false},
		{[]resource.DeviceRequest{Request("gpu"), Request("gpu")}, "gpu", false},
	} {
		class, exact := ClassName(tc.requests)
		if class != tc.class || exact != tc.exact {
			t.Errorf("%+v: got %q, %v; want %q, %v", tc.requests, class, exact, tc.class, tc.exact)
		}
	}
}

// TestShowsResults: ShowsResults says what comparing the handles with the
// ones HandlesFromResults renders says (sameRendered, the comparison it
// replaced), on 20,000 random lists of up to six results over two drivers
// and two pools, each with its rendering or with one change to it; and
// CountDriverPools counts the rendered handles.
func TestShowsResults(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(of ...string) string { return of[rng.IntN(len(of))] }
	type hs = []resource.ResourceHandle
	changes := []func(h hs) hs{
		func(h hs) hs { return h },
		func(h hs) hs { h[0].DriverName += "x"; return h },
		func(h hs) hs { h[0].Data = "{}"; return h },
		func(h hs) hs { h[0].StructuredData.NodeName += "x"; return h },
		func(h hs) hs {
			h[0].StructuredData.VendorClaimParameters.Raw = []byte("{}")
			return h
		},
		func(h hs) hs {
			h[0].StructuredData.Results[0].NamedResources.Name += "x"
			return h
		},
		func(h hs) hs {
			h[0].StructuredData.Results[0].NamedResources = nil
			return h
		},
		func(h hs) hs {
			h[0].StructuredData.Results[0].VendorRequestParameters.Raw = []byte("{}")
			return h
		},
		func(h hs) hs {
			sd := h[len(h)-1].StructuredData
			sd.Results = sd.Results[:len(sd.Results)-1]
			return h
		},
		func(h hs) hs {
			sd := h[0].StructuredData
			sd.Results = append(sd.Results, sd.Results[0])
			return h
		},
		func(h hs) hs { return h[:len(h)-1] },
		func(h hs) hs { return append(h, h[0]) },
		func(h hs) hs { h[0], h[len(h)-1] = h[len(h)-1], h[0]; return h },
	}
	shown, notShown := 0, 0
	for range 20000 {
		var results []resource.DeviceRequestAllocationResult
		for range rng.IntN(7) {
			results = append(results, resource.DeviceRequestAllocationResult{
				Request: "r", Driver: pick("a", "b"), Pool: pick("p", "q"), Device: pick("d0", "d1", "d2"),
			})
		}
		if got, want := CountDriverPools(results), len(HandlesFromResults(results)); got != want {
			t.Fatalf("CountDriverPools(%v) = %d, rendered %d", results, got, want)
		}
		handles := HandlesFromResults(results)
		change := 0
		if len(handles) > 0 {
			change = rng.IntN(len(changes))
		}
		handles = changes[change](handles)
		want := sameRendered(handles, HandlesFromResults(results))
		if got := ShowsResults(handles, results); got != want {
			t.Fatalf("ShowsResults = %v, comparing with the rendering %v (change %d)\nresults %+v\nhandles %s", got, want, change, results, toJSON(t, handles))
		}
		if change == 0 && !want {
			t.Fatalf("the rendering of %v does not show it", results)
		}
		if want {
			shown++
		} else {
			notShown++
		}
	}
	if shown < 2000 || notShown < 2000 {
		t.Errorf("the cases are lopsided: %d shown, %d not", shown, notShown)
	}
}

// sameRendered is the comparison ShowsResults replaced: whether handles
// equal rendered, what HandlesFromResults renders, as far as a rendering
// says anything.
func sameRendered(handles, rendered []resource.ResourceHandle) bool {
	if len(handles) != len(rendered) {
		return false
	}
	for i := range handles {
		h, r := &handles[i], &rendered[i]
		if h.DriverName != r.DriverName || h.Data != "" || h.StructuredData == nil {
			return false
		}
		sd, rd := h.StructuredData, r.StructuredData
		if sd.NodeName != rd.NodeName || sd.VendorClassParameters.Raw != nil || sd.VendorClaimParameters.Raw != nil ||
			sd.VendorClassParameters.Object != nil || sd.VendorClaimParameters.Object != nil || len(sd.Results) != len(rd.Results) {
			return false
		}
		for j := range sd.Results {
			x, y := &sd.Results[j], &rd.Results[j]
			if x.VendorRequestParameters.Raw != nil || x.VendorRequestParameters.Object != nil ||
				x.NamedResources == nil || x.NamedResources.Name != y.NamedResources.Name {
				return false
			}
		}
	}
	return true
}

func toJSON(t *testing.T, v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
