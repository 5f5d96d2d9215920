package schemavalidation

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

var paramsPath = field.NewPath("spec", "devices", "config").Index(1).Child("opaque", "parameters")

func load(t *testing.T) *Validator {
	t.Helper()
	v, err := Load("testdata/gpu-schemas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// errorsOf renders errors one per line as "type field: detail", the way
// the tests compare them.
func errorsOf(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, string(e.Type)+" "+e.Field+": "+e.Detail)
	}
	return out
}

func TestValidate(t *testing.T) {
	v := load(t)
	const p = "spec.devices.config[1].opaque.parameters"
	cases := []struct {
		name, driver, params string
		// want are substrings, one per expected error, in order.
		want []string
	}{
		{name: "good", driver: "gpu.example.com", params: `{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","sharing":{"strategy":"TimeSlicing","replicas":4},"devices":["a","b"]}`},
		{name: "good with default", driver: "gpu.example.com", params: `{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","sharing":{"replicas":2}}`},
		{name: "second driver name gets the same kinds", driver: "compute-domain.example.com", params: `{"apiVersion":"compute-domain.example.com/v1beta1","kind":"ChannelConfig","domainID":"d1"}`},
		{name: "driver not covered", driver: "other.example.com", params: `{"whatever":1}`},
		{name: "enum", driver: "gpu.example.com", params: `{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","sharing":{"strategy":"Magic"}}`,
			want: []string{"FieldValueNotSupported " + p + ".sharing.strategy: supported values: \"TimeSlicing\", \"SpacePartitioning\"", "rules were not checked"}},
		{name: "minimum", driver: "gpu.example.com", params: `{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","sharing":{"replicas":0}}`,
			want: []string{"FieldValueInvalid " + p + ".sharing.replicas: sharing.replicas in body should be greater than or equal to 1"}},
		{name: "cel rule with fieldPath", driver: "gpu.example.com", params: `{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","sharing":{"strategy":"SpacePartitioning","replicas":2}}`,
			want: []string{"FieldValueInvalid " + p + ".sharing.replicas: replicas need the TimeSlicing strategy"}},
		{name: "unknown field", driver: "gpu.example.com", params: `{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","sharing":{"strategy":"TimeSlicing","replica":2}}`,
			want: []string{"FieldValueForbidden " + p + ".sharing.replica: unknown field: the schema of gpu.example.com/v1 GpuConfig does not declare it"}},
		{name: "unknown metadata", driver: "gpu.example.com", params: `{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","metadata":{"name":"x"}}`,
			want: []string{"FieldValueForbidden " + p + ".metadata: unknown field"}},
		{name: "list set duplicates", driver: "gpu.example.com", params: `{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","devices":["a","a"]}`,
			want: []string{"FieldValueDuplicate " + p + ".devices[1]"}},
		{name: "too many items", driver: "gpu.example.com", params: `{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","devices":["1","2","3","4","5","6","7","8","9"]}`,
			want: []string{"FieldValueTooMany " + p + ".devices: must have at most 8 items", "rules were not checked"}},
		{name: "required", driver: "compute-domain.example.com", params: `{"apiVersion":"compute-domain.example.com/v1beta1","kind":"ChannelConfig"}`,
			want: []string{"FieldValueRequired " + p + ".domainID"}},
		{name: "unknown kind", driver: "gpu.example.com", params: `{"apiVersion":"gpu.example.com/v2","kind":"GpuConfig"}`,
			want: []string{"FieldValueNotSupported " + p + ".kind: supported values: \"compute-domain.example.com/v1beta1 ChannelConfig\", \"gpu.example.com/v1 GpuConfig\""}},
		{name: "no kind", driver: "gpu.example.com", params: `{"apiVersion":"gpu.example.com/v1"}`,
			want: []string{"FieldValueRequired " + p + ".kind"}},
		{name: "not an object", driver: "gpu.example.com", params: `[1,2]`,
			want: []string{"FieldValueInvalid " + p + ": must be an object with apiVersion and kind, not an array"}},
		{name: "not JSON", driver: "gpu.example.com", params: `{"apiVersion":`,
			want: []string{"FieldValueInvalid " + p + ": not JSON"}},
		{name: "empty", driver: "gpu.example.com", params: ``,
			want: []string{"FieldValueRequired " + p + ": the parameters of a gpu.example.com config"}},
		{name: "wrong type", driver: "gpu.example.com", params: `{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","sharing":"yes"}`,
			want: []string{"FieldValueTypeInvalid " + p + ".sharing: sharing in body must be of type object: \"string\"", "rules were not checked"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := errorsOf(v.Validate(context.Background(), c.driver, []byte(c.params), paramsPath))
			if len(got) != len(c.want) {
				t.Fatalf("got %d errors, want %d:\n%s", len(got), len(c.want), strings.Join(got, "\n"))
			}
			for i := range got {
				if !strings.Contains(got[i], c.want[i]) {
					t.Errorf("error %d:\n got %s\nwant it to contain %s", i, got[i], c.want[i])
				}
			}
		})
	}
}

// The parameters given are not changed: defaults and pruning work on the
// decoded copy.
func TestValidateLeavesInputAlone(t *testing.T) {
	v := load(t)
	raw := []byte(`{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig","sharing":{"replica":2}}`)
	before := string(raw)
	_ = v.Validate(context.Background(), "gpu.example.com", raw, paramsPath)
	if string(raw) != before {
		t.Errorf("input changed to %s", raw)
	}
}

func TestFileErrors(t *testing.T) {
	head := "apiVersion: webhook.drakit.io/v1alpha1\nkind: ConfigSchemas\n"
	cases := []struct{ name, file, want string }{
		{"empty", "", "is empty"},
		{"unknown field", head + "driver: []\n", `unknown field "driver"`},
		{"wrong kind", "apiVersion: webhook.drakit.io/v1alpha1\nkind: Schemas\ndrivers: []\n", `kind: Unsupported value: "Schemas"`},
		{"no drivers", head, "drivers: Required value"},
		{"bad driver name", head + "drivers:\n- names: [GPU]\n  configs:\n  - {apiVersion: a.b/v1, kind: K, openAPIV3Schema: {type: object}}\n", `drivers[0].names[0]: Invalid value: "GPU"`},
		{"duplicate driver", head + "drivers:\n- names: [a.b]\n  configs:\n  - {apiVersion: a.b/v1, kind: K, openAPIV3Schema: {type: object}}\n- names: [a.b]\n  configs:\n  - {apiVersion: a.b/v1, kind: K, openAPIV3Schema: {type: object}}\n", "drivers[1].names[0]: Duplicate value"},
		{"no version", head + "drivers:\n- names: [a.b]\n  configs:\n  - {apiVersion: a.b, kind: K, openAPIV3Schema: {type: object}}\n", "drivers[0].configs[0].apiVersion"},
		{"not structural", head + "drivers:\n- names: [a.b]\n  configs:\n  - apiVersion: a.b/v1\n    kind: K\n    openAPIV3Schema: {type: object, properties: {x: {}}}\n", "drivers[0].configs[0].openAPIV3Schema.properties[x].type: Required value"},
		{"bad rule", head + "drivers:\n- names: [a.b]\n  configs:\n  - apiVersion: a.b/v1\n    kind: K\n    openAPIV3Schema:\n      type: object\n      properties: {x: {type: string}}\n      x-kubernetes-validations: [{rule: self.y == 1}]\n", "drivers[0].configs[0].openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value"},
		{"rule too costly", head + "drivers:\n- names: [a.b]\n  configs:\n  - apiVersion: a.b/v1\n    kind: K\n    openAPIV3Schema:\n      type: object\n      properties: {x: {type: array, items: {type: string}}}\n      x-kubernetes-validations: [{rule: \"self.x.all(a, self.x.all(b, self.x.all(c, a + b + c != 'x')))\"}]\n", "estimated rule cost exceeds budget"},
		{"bad default", head + "drivers:\n- names: [a.b]\n  configs:\n  - apiVersion: a.b/v1\n    kind: K\n    openAPIV3Schema:\n      type: object\n      properties: {x: {type: integer, minimum: 2, default: 1}}\n", "drivers[0].configs[0].openAPIV3Schema.properties[x].default"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.file), "test.yaml")
			if err == nil {
				t.Fatalf("no error, want one containing %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant it to contain %q", err, c.want)
			}
		})
	}
}
