package driverconfig_test

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/driverconfig"
	"github.com/drakit/drakit/driverconfig/internal/testconfig"
)

func testRegistry(t testing.TB) *driverconfig.Registry {
	t.Helper()
	reg := driverconfig.NewRegistry()
	if err := reg.Register(driverconfig.NewSchemeDecoder(testconfig.Scheme, testconfig.Validate), testconfig.Driver, testconfig.OtherName); err != nil {
		t.Fatal(err)
	}
	return reg
}

func config(driver, params string) driverconfig.Config {
	return driverconfig.Config{
		Driver:     driver,
		Source:     driverconfig.SourceClaim,
		Parameters: runtime.RawExtension{Raw: []byte(params)},
		Path:       field.NewPath("spec", "devices", "config").Index(3).Child("opaque", "parameters"),
	}
}

// errorStrings are the errors as the API server prints them.
func errorStrings(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func TestRegistryDecode(t *testing.T) {
	reg := testRegistry(t)
	const p = "spec.devices.config[3].opaque.parameters"
	for _, c := range []struct {
		name, driver, params string
		strict               []string // substrings of the errors, one per error, when strict
		lenient              []string // the same without strictness; nil: as strict
	}{
		{name: "valid", driver: testconfig.Driver, params: `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "TimeSlicing"}`},
		{name: "second name", driver: testconfig.OtherName, params: `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig"}`},
		{name: "unknown field", driver: testconfig.Driver, params: `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharng": "MPS"}`,
			strict: []string{p + `: Invalid value: decoding the parameters of driver gpu.example.com strictly: strict decoding error: unknown field "sharng"`}, lenient: []string{}},
		{name: "field twice", driver: testconfig.Driver, params: `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "MPS", "sharing": "MPS"}`,
			strict: []string{`duplicate field "sharing"`}, lenient: []string{}},
		{name: "unknown kind", driver: testconfig.Driver, params: `{"apiVersion": "gpu.example.com/v1", "kind": "TpuConfig"}`,
			strict: []string{p + `: Invalid value: driver gpu.example.com has no config of apiVersion "gpu.example.com/v1" and kind "TpuConfig" (it knows gpu.example.com/v1, Kind=GpuConfig)`}},
		{name: "no kind", driver: testconfig.Driver, params: `{"sharing": "MPS"}`,
			strict: []string{p + `: Invalid value: the parameters of driver gpu.example.com need apiVersion and kind`}},
		{name: "not an object", driver: testconfig.Driver, params: ` [1]`, strict: []string{p + `: Invalid value: the parameters of driver gpu.example.com must be a JSON object with apiVersion and kind (it knows gpu.example.com/v1, Kind=GpuConfig)`}},
		{name: "empty", driver: testconfig.Driver, params: ``, strict: []string{p + `: Invalid value: the parameters of driver gpu.example.com must be a JSON object`}},
		{name: "malformed", driver: testconfig.Driver, params: `{"apiVersion": `, strict: []string{p + `: Invalid value: decoding the parameters of driver gpu.example.com: `}},
		{name: "validation", driver: testconfig.Driver, params: `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "Exclusive", "interval": 0}`,
			strict: []string{p + `.sharing: Unsupported value: "Exclusive": supported values: "TimeSlicing", "MPS"`, p + `.interval: Invalid value: 0: must be between 1 and 100`, p + `.interval: Forbidden: only with sharing TimeSlicing`}},
		{name: "unregistered", driver: "nic.example.com", params: `{}`, strict: []string{p + `: Invalid value: no decoder is registered for driver "nic.example.com" (registered: compute-domain.example.com, gpu.example.com)`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, r := range []*driverconfig.Registry{reg, reg.NonStrict()} {
				want := c.strict
				if !r.Strict() && c.lenient != nil {
					want = c.lenient
				}
				obj, errs := r.Decode(context.Background(), config(c.driver, c.params))
				got := errorStrings(errs)
				if len(got) != len(want) {
					t.Fatalf("strict=%v: got errors %q, want %d: %q", r.Strict(), got, len(want), want)
				}
				for i := range want {
					if !strings.Contains(got[i], want[i]) {
						t.Errorf("strict=%v: error %d is %q, want it to contain %q", r.Strict(), i, got[i], want[i])
					}
				}
				if len(want) == 0 {
					if _, ok := obj.(*testconfig.GpuConfig); !ok {
						t.Errorf("strict=%v: decoded %T, want a *GpuConfig", r.Strict(), obj)
					}
				}
			}
		})
	}
}

func TestRegistryDefaults(t *testing.T) {
	obj, errs := testRegistry(t).Decode(context.Background(), config(testconfig.Driver, `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "TimeSlicing"}`))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if c := obj.(*testconfig.GpuConfig); c.Interval == nil || *c.Interval != 10 {
		t.Errorf("the scheme's defaulter did not run: %+v", c)
	}
}

func TestRegister(t *testing.T) {
	reg := testRegistry(t)
	d := driverconfig.NewSchemeDecoder(testconfig.Scheme, nil)
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{testconfig.OtherName}, "driver compute-domain.example.com is already registered"},
		{[]string{"a.example.com", "a.example.com"}, "driver a.example.com is already registered"},
		{[]string{"Not_A_Name"}, `driver name "Not_A_Name" is not a DNS subdomain`},
		{nil, "no driver name given"},
	} {
		if err := reg.Register(d, c.names...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Register(%q): got %v, want %q", c.names, err, c.want)
		}
	}
	if err := reg.Register(nil, "b.example.com"); err == nil {
		t.Error("a nil decoder was registered")
	}
	if got := strings.Join(reg.Drivers(), " "); got != "compute-domain.example.com gpu.example.com" {
		t.Errorf("a failed Register changed the registry: %s", got)
	}
	// Registering through the NonStrict view registers in both.
	if err := reg.NonStrict().Register(d, "c.example.com"); err != nil || !reg.Handles("c.example.com") {
		t.Errorf("registering through NonStrict: %v, handled %v", err, reg.Handles("c.example.com"))
	}
}

// TestValidatorAndPanic: a raw Validator gets the parameters and the
// path; a decoder that panics is an internal error, not a panic.
func TestValidatorAndPanic(t *testing.T) {
	reg := driverconfig.NewRegistry()
	var seen driverconfig.Config
	reg.MustRegister(driverconfig.Validator(func(_ context.Context, cfg driverconfig.Config) field.ErrorList {
		seen = cfg
		return field.ErrorList{field.Required(cfg.Path.Child("size"), "")}
	}), "schema.example.com")
	reg.MustRegister(driverconfig.DecoderFunc(func(context.Context, driverconfig.Config, driverconfig.DecodeOptions) (runtime.Object, field.ErrorList) {
		panic("boom")
	}), "panics.example.com")
	obj, errs := reg.Decode(context.Background(), config("schema.example.com", `{"x": 1}`))
	if obj != nil || string(seen.Parameters.Raw) != `{"x": 1}` || len(errs) != 1 || errs[0].Field != "spec.devices.config[3].opaque.parameters.size" {
		t.Errorf("validator: obj %v, saw %s, errors %v", obj, seen.Parameters.Raw, errs)
	}
	obj, errs = reg.Decode(context.Background(), config("panics.example.com", `{}`))
	if obj != nil || len(errs) != 1 || errs[0].Type != field.ErrorTypeInternal || !strings.Contains(errs[0].Error(), "panicked: boom") {
		t.Errorf("panicking decoder: obj %v, errors %v", obj, errs)
	}
}

// TestValidate skips the configs of drivers not registered and checks
// every config of the registered ones, under each config's path.
func TestValidate(t *testing.T) {
	reg := testRegistry(t)
	claim := mustClaim(t, `{"apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceClaimTemplate", "metadata": {"name": "t"}, "spec": {"spec": {"devices": {"config": [
	  {"opaque": {"driver": "nic.example.com", "parameters": {"anything": "goes"}}},
	  {"opaque": {"driver": "gpu.example.com", "parameters": {"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "MPS"}}},
	  {"opaque": {"driver": "compute-domain.example.com", "parameters": {"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "bad": 1}}}]}}}}`)
	errs, err := reg.Validate(context.Background(), claim)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || errs[0].Field != "spec.spec.devices.config[2].opaque.parameters" {
		t.Errorf("got %v, want one error at spec.spec.devices.config[2].opaque.parameters", errs)
	}
	if _, err := reg.Validate(context.Background(), &testconfig.GpuConfig{}); err == nil {
		t.Error("Validate of a GpuConfig did not fail")
	}
}

func mustClaim(t testing.TB, manifest string) runtime.Object {
	t.Helper()
	obj, _, err := serializer.NewCodecFactory(driverconfig.Scheme()).UniversalDeserializer().Decode([]byte(manifest), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

func TestDecodeAllocated(t *testing.T) {
	reg := testRegistry(t)
	claim := func(second string) runtime.Object {
		return mustClaim(t, `{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "c", "namespace": "ns"},
		  "spec": {"devices": {"requests": []}},
		  "status": {"allocation": {"devices": {
		    "results": [
		      {"request": "a", "driver": "gpu.example.com", "pool": "p", "device": "gpu-0"},
		      {"request": "b/x", "driver": "gpu.example.com", "pool": "p", "device": "gpu-1"}],
		    "config": [
		      {"source": "FromClass", "requests": ["a", "b/x"], "opaque": {"driver": "gpu.example.com", "parameters": {"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "MPS"}}},
		      {"source": "FromClaim", "requests": ["b"], "opaque": {"driver": "gpu.example.com", "parameters": `+second+`}},
		      {"source": "FromClaim", "opaque": {"driver": "nic.example.com", "parameters": {"not": "ours"}}}]}}}}`)
	}
	devices, warnings, err := reg.DecodeAllocated(context.Background(), claim(`{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "TimeSlicing"}`), testconfig.Driver)
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	var got []string
	for _, d := range devices {
		var sharing []string
		for _, c := range d.Configs {
			sharing = append(sharing, c.(*testconfig.GpuConfig).Sharing)
		}
		got = append(got, d.Device+":"+strings.Join(sharing, ","))
	}
	if want := "gpu-0:MPS gpu-1:MPS,TimeSlicing"; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if devices[0].Configs[0] != devices[1].Configs[0] {
		t.Error("the class config that applies to both devices was decoded twice")
	}

	_, _, err = reg.DecodeAllocated(context.Background(), claim(`{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharng": "MPS"}`), testconfig.Driver)
	if err == nil || !strings.Contains(err.Error(), `the configs of driver gpu.example.com in claim ns/c: status.allocation.devices.config[1].opaque.parameters: Invalid value: decoding the parameters of driver gpu.example.com strictly: strict decoding error: unknown field "sharng"`) {
		t.Errorf("strict: %v", err)
	}
	if _, _, err := reg.NonStrict().DecodeAllocated(context.Background(), claim(`{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharng": "MPS"}`), testconfig.Driver); err != nil {
		t.Errorf("non-strict: %v", err)
	}
	if _, _, err := reg.DecodeAllocated(context.Background(), claim(`{}`), "nic.example.com"); err == nil || !strings.Contains(err.Error(), `no decoder is registered for driver "nic.example.com"`) {
		t.Errorf("unregistered driver: %v", err)
	}
}
