package legacy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/fuzzer"
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

// TestRequestDefaults: a claim spec's stash keeps its requests without what
// v1alpha3's defaults give back, and restoring them gives the defaulted
// requests.
func TestRequestDefaults(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        resource.DeviceRequest
		kept      resource.DeviceRequest // what the stash holds
		defaulted resource.DeviceRequest // what comes back
	}{{
		name:      "one device",
		in:        resource.DeviceRequest{Name: "r", AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1},
		kept:      resource.DeviceRequest{Name: "r"},
		defaulted: resource.DeviceRequest{Name: "r", AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1},
	}, {
		name:      "two devices",
		in:        resource.DeviceRequest{Name: "r", AllocationMode: resource.DeviceAllocationModeExactCount, Count: 2},
		kept:      resource.DeviceRequest{Name: "r", Count: 2},
		defaulted: resource.DeviceRequest{Name: "r", AllocationMode: resource.DeviceAllocationModeExactCount, Count: 2},
	}, {
		name:      "all devices",
		in:        resource.DeviceRequest{Name: "r", AllocationMode: resource.DeviceAllocationModeAll},
		kept:      resource.DeviceRequest{Name: "r", AllocationMode: resource.DeviceAllocationModeAll},
		defaulted: resource.DeviceRequest{Name: "r", AllocationMode: resource.DeviceAllocationModeAll},
	}, {
		name:      "all devices with a count",
		in:        resource.DeviceRequest{Name: "r", AllocationMode: resource.DeviceAllocationModeAll, Count: 1},
		kept:      resource.DeviceRequest{Name: "r", AllocationMode: resource.DeviceAllocationModeAll, Count: 1},
		defaulted: resource.DeviceRequest{Name: "r", AllocationMode: resource.DeviceAllocationModeAll, Count: 1},
	}, {
		name:      "not defaulted",
		in:        resource.DeviceRequest{Name: "r"},
		kept:      resource.DeviceRequest{Name: "r"},
		defaulted: resource.DeviceRequest{Name: "r", AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1},
	}, {
		name:      "not defaulted, with a count",
		in:        resource.DeviceRequest{Name: "r", Count: 3},
		kept:      resource.DeviceRequest{Name: "r", Count: 3},
		defaulted: resource.DeviceRequest{Name: "r", AllocationMode: resource.DeviceAllocationModeExactCount, Count: 3},
	}, {
		name:      "an unknown mode",
		in:        resource.DeviceRequest{Name: "r", AllocationMode: "Some"},
		kept:      resource.DeviceRequest{Name: "r", AllocationMode: "Some"},
		defaulted: resource.DeviceRequest{Name: "r", AllocationMode: "Some"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			// A second request, so that the requests need the stash.
			spec := resource.ResourceClaimSpec{Devices: resource.DeviceClaim{Requests: []resource.DeviceRequest{
				{Name: "first", DeviceClassName: "c", AllocationMode: resource.DeviceAllocationModeAll}, tc.in,
			}}}
			st := specStash(&spec)
			if st == nil || st.Requests == nil || len(*st.Requests) != 2 {
				t.Fatalf("stash %+v, want both requests", st)
			}
			if diff := cmp.Diff(tc.kept, (*st.Requests)[1]); diff != "" {
				t.Errorf("kept (-want +got):\n%s", diff)
			}
			var out resource.ResourceClaimSpec
			restoreSpec(st, "c", &out)
			if diff := cmp.Diff(tc.defaulted, out.Devices.Requests[1]); diff != "" {
				t.Errorf("restored (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.in, spec.Devices.Requests[1]); diff != "" {
				t.Errorf("specStash changed its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestClassName: a request that is, once defaulted, the request a
// resourceClassName stands for needs no stash.
func TestClassName(t *testing.T) {
	for _, tc := range []struct {
		requests []resource.DeviceRequest
		class    string
		exact    bool
	}{
		{nil, "", true},
		{[]resource.DeviceRequest{}, "", false},
		{[]resource.DeviceRequest{Request("gpu")}, "gpu", true},
		{[]resource.DeviceRequest{{Name: resource.LegacyRequestName, DeviceClassName: "gpu"}}, "gpu", true},
		{[]resource.DeviceRequest{{Name: resource.LegacyRequestName, DeviceClassName: "gpu", Count: 1}}, "gpu", true},
		{[]resource.DeviceRequest{{Name: resource.LegacyRequestName, DeviceClassName: "gpu", Count: 2}}, "gpu", false},
		{[]resource.DeviceRequest{{Name: resource.LegacyRequestName, DeviceClassName: "gpu", AllocationMode: resource.DeviceAllocationModeAll}}, "gpu", false},
		{[]resource.DeviceRequest{{Name: "gpus", DeviceClassName: "gpu"}}, "gpu", false},
		{[]resource.DeviceRequest{{Name: resource.LegacyRequestName}}, "", false},
		{[]resource.DeviceRequest{Request("gpu"), Request("gpu")}, "gpu", false},
	} {
		class, exact := ClassName(tc.requests)
		if class != tc.class || exact != tc.exact {
			t.Errorf("%+v: got %q, %v; want %q, %v", tc.requests, class, exact, tc.class, tc.exact)
		}
	}
}
