package legacy

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"

	"github.com/drakit/drakit/apis/resource"
)

// TestDevicesJSONMatchesEncodingJSON fills device allocations at random
// (empty and nil lists, strings with any runes, HTML characters and
// escapes, parameters that are and are not JSON) and holds the
// hand-written encoder to json.Marshal byte for byte. It also checks that
// every field of the types was set at least once, so that a field added to
// the types without being added to the encoder cannot go unnoticed.
func TestDevicesJSONMatchesEncodingJSON(t *testing.T) {
	pick := []string{"", "gpu-0", `a"b\c`, "<&>", "\u2028\u2029", "é", "\xff", "tab\there", "\x00\x1f", "example.com/numa"}
	f := randfill.NewWithSeed(1).NilChance(0.2).NumElements(0, 3).Funcs(
		func(s *string, c randfill.Continue) {
			if c.Intn(3) == 0 {
				*s = c.String(6)
			} else {
				*s = pick[c.Intn(len(pick))]
			}
		},
		func(re *runtime.RawExtension, c randfill.Continue) {
			*re = runtime.RawExtension{}
			switch c.Intn(5) {
			case 1:
				re.Raw = []byte(fmt.Sprintf(`{ "mode" : %q, "n": [1, 2.5e3, null] }`, pick[c.Intn(len(pick))]))
			case 2:
				re.Raw = []byte(`"<script>"`)
			case 3:
				re.Raw = []byte(`{"not json"`)
			case 4:
				re.Raw = []byte{}
			}
		},
	)
	seen := map[string]bool{}
	iterations := 20000
	if testing.Short() {
		iterations = 2000
	}
	for i := 0; i < iterations; i++ {
		var d resource.DeviceAllocationResult
		f.Fill(&d)
		markSet(reflect.ValueOf(d), "", seen)
		want, wantErr := json.Marshal(d)
		got, gotErr := appendDevicesJSON(nil, &d)
		if (wantErr != nil) != (gotErr != nil) {
			t.Fatalf("%#v: encoding/json error %v, hand-written %v", d, wantErr, gotErr)
		}
		if wantErr == nil && string(got) != string(want) {
			t.Fatalf("%#v:\nencoding/json %s\nhand-written  %s", d, want, got)
		}
	}
	for _, field := range []string{
		"Results.Request", "Results.Driver", "Results.Pool", "Results.Device",
		"Config.Source", "Config.Requests", "Config.DeviceConfiguration.Opaque.Driver", "Config.DeviceConfiguration.Opaque.Parameters.Raw",
	} {
		if !seen[field] {
			t.Errorf("no iteration set %s", field)
		}
	}
	var all []string
	for field := range seen {
		all = append(all, field)
	}
	if want := 8; len(all) != want {
		t.Errorf("fields set: %v; the test knows %d leaf fields: a new field needs adding to handle.go and here", all, want)
	}
}

// markSet records the leaf fields of v that hold a non-zero value, by
// their path of field names.
func markSet(v reflect.Value, path string, seen map[string]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			markSet(v.Elem(), path, seen)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			name := v.Type().Field(i).Name
			if path != "" {
				name = path + "." + name
			}
			if v.Type().Field(i).Type == reflect.TypeOf([]string{}) || v.Type().Field(i).Type == reflect.TypeOf([]byte{}) {
				if v.Field(i).Len() > 0 {
					seen[name] = true
				}
				continue
			}
			markSet(v.Field(i), name, seen)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			markSet(v.Index(i), path, seen)
		}
	case reflect.String:
		if v.Len() > 0 {
			seen[path] = true
		}
	default:
		if !v.IsZero() {
			seen[path] = true
		}
	}
}

func TestHandleFromDevices(t *testing.T) {
	d := resource.DeviceAllocationResult{
		Results: []resource.DeviceRequestAllocationResult{{Request: "gpus", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"}},
		Config: []resource.DeviceAllocationConfiguration{{
			Source: resource.AllocationConfigSourceClaim, Requests: []string{"gpus"},
			DeviceConfiguration: resource.DeviceConfiguration{Opaque: &resource.OpaqueDeviceConfiguration{
				Driver: "gpu.example.com", Parameters: runtime.RawExtension{Raw: []byte(`{"sharing": "a<b"}`)},
			}},
		}},
	}
	want := `{"results":[{"request":"gpus","driver":"gpu.example.com","pool":"node-1","device":"gpu-0"}],` +
		`"config":[{"source":"FromClaim","requests":["gpus"],"opaque":{"driver":"gpu.example.com","parameters":{"sharing":"a\u003cb"}}}]}`
	if got := HandleFromDevices(d); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	d.Config[0].Opaque.Parameters.Raw = []byte("{")
	if got := HandleFromDevices(d); got != "" {
		t.Errorf("parameters that are not JSON: got %q, want an empty handle", got)
	}
	if got := HandleFromDevices(resource.DeviceAllocationResult{}); got != "{}" {
		t.Errorf("empty: got %q, want {}", got)
	}
}
