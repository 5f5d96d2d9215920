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
