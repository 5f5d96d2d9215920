package driverconfig

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
)

var codecs = serializer.NewCodecFactory(scheme)

// decodeJSON decodes a manifest into the typed object of its apiVersion
// and kind.
func decodeJSON(t testing.TB, manifest string) runtime.Object {
	t.Helper()
	obj, _, err := codecs.UniversalDeserializer().Decode([]byte(manifest), nil, nil)
	if err != nil {
		t.Fatalf("decoding %s: %v", manifest, err)
	}
	return obj
}

// deviceConfigs is devices.config with a config of another driver, one
// for every request, and one for a request and a subrequest.
const deviceConfigs = `"config": [
  {"opaque": {"driver": "nic.example.com", "parameters": {"mtu": 9000}}},
  {"opaque": {"driver": "gpu.example.com", "parameters": {"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig"}}},
  {"requests": ["a", "b/small"], "opaque": {"driver": "gpu.example.com", "parameters": {"sharing": "MPS"}}}
]`

const classConfigs = `"config": [
  {"opaque": {"driver": "gpu.example.com", "parameters": {"a": 1}}},
  {"opaque": {"driver": "nic.example.com", "parameters": {"b": 2}}}
]`

// claimManifest is a claim of version with deviceConfigs; v1beta1 and
// v1alpha3 have flat requests.
func claimManifest(version string) string {
	return fmt.Sprintf(`{"apiVersion": "resource.k8s.io/%s", "kind": "ResourceClaim", "metadata": {"name": "c"}, "spec": {"devices": {%s}}}`, version, deviceConfigs)
}

func templateManifest(version string) string {
	return fmt.Sprintf(`{"apiVersion": "resource.k8s.io/%s", "kind": "ResourceClaimTemplate", "metadata": {"name": "t"}, "spec": {"spec": {"devices": {%s}}}}`, version, deviceConfigs)
}

func classManifest(version string) string {
	return fmt.Sprintf(`{"apiVersion": "resource.k8s.io/%s", "kind": "DeviceClass", "metadata": {"name": "k"}, "spec": {%s}}`, version, classConfigs)
}

// summary is what a test compares of a Config.
type summary struct {
	Driver, Requests, Source, Path, Params string
}

func summarize(cfgs []Config) []summary {
	var out []summary
	for _, c := range cfgs {
		out = append(out, summary{c.Driver, strings.Join(c.Requests, ","), string(c.Source), c.Path.String(), strings.Join(strings.Fields(string(c.Parameters.Raw)), "")})
	}
	return out
}

func deviceSummaries(prefix string) []summary {
	return []summary{
		{"nic.example.com", "", "FromClaim", prefix + ".devices.config[0].opaque.parameters", `{"mtu":9000}`},
		{"gpu.example.com", "", "FromClaim", prefix + ".devices.config[1].opaque.parameters", `{"apiVersion":"gpu.example.com/v1","kind":"GpuConfig"}`},
		{"gpu.example.com", "a,b/small", "FromClaim", prefix + ".devices.config[2].opaque.parameters", `{"sharing":"MPS"}`},
	}
}

var classSummaries = []summary{
	{"gpu.example.com", "", "FromClass", "spec.config[0].opaque.parameters", `{"a":1}`},
	{"nic.example.com", "", "FromClass", "spec.config[1].opaque.parameters", `{"b":2}`},
}

// TestConfigs reads the configs of each kind in each version, typed and
// unstructured, with the paths of the version.
func TestConfigs(t *testing.T) {
	type tc struct {
		name     string
		manifest string
		want     []summary
	}
	var cases []tc
	for _, v := range []string{"v1alpha3", "v1beta1", "v1beta2", "v1"} {
		cases = append(cases,
			tc{v + " ResourceClaim", claimManifest(v), deviceSummaries("spec")},
			tc{v + " ResourceClaimTemplate", templateManifest(v), deviceSummaries("spec.spec")},
			tc{v + " DeviceClass", classManifest(v), classSummaries},
		)
	}
	cases = append(cases,
		tc{"v1alpha2 ResourceClaimParameters", `{"apiVersion": "resource.k8s.io/v1alpha2", "kind": "ResourceClaimParameters", "metadata": {"name": "p"},
		  "driverRequests": [
		    {"driverName": "nic.example.com", "requests": [{"namedResources": {"selector": "true"}}]},
		    {"driverName": "gpu.example.com", "vendorParameters": {"all": true}, "requests": [
		      {"namedResources": {"selector": "true"}},
		      {"vendorParameters": {"second": 1}, "namedResources": {"selector": "true"}}]}]}`,
			[]summary{
				{"gpu.example.com", "", "FromClaim", "driverRequests[1].vendorParameters", `{"all":true}`},
				{"gpu.example.com", "", "FromClaim", "driverRequests[1].requests[1].vendorParameters", `{"second":1}`},
			}},
		tc{"v1alpha2 ResourceClassParameters", `{"apiVersion": "resource.k8s.io/v1alpha2", "kind": "ResourceClassParameters", "metadata": {"name": "p"},
		  "vendorParameters": [{"driverName": "nic.example.com"}, {"driverName": "gpu.example.com", "parameters": {"x": "y"}}]}`,
			[]summary{{"gpu.example.com", "", "FromClass", "vendorParameters[1].parameters", `{"x":"y"}`}}},
		tc{"v1alpha2 ResourceClaim", `{"apiVersion": "resource.k8s.io/v1alpha2", "kind": "ResourceClaim", "metadata": {"name": "c"}, "spec": {"resourceClassName": "x"}}`, nil},
		tc{"v1alpha1 ResourceClass", `{"apiVersion": "resource.k8s.io/v1alpha1", "kind": "ResourceClass", "metadata": {"name": "c"}, "driverName": "gpu.example.com"}`, nil},
		tc{"v1alpha3 DeviceTaintRule", `{"apiVersion": "resource.k8s.io/v1alpha3", "kind": "DeviceTaintRule", "metadata": {"name": "r"}, "spec": {"taint": {"key": "k", "effect": "NoSchedule"}}}`, nil},
		tc{"v1 ResourceSlice", `{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"}, "spec": {"driver": "gpu.example.com", "pool": {"name": "p", "resourceSliceCount": 1}, "allNodes": true}}`, nil},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj := decodeJSON(t, c.manifest)
			got, err := Configs(obj)
			if err != nil {
				t.Fatalf("typed %T: %v", obj, err)
			}
			if diff := cmp.Diff(c.want, summarize(got)); diff != "" {
				t.Errorf("typed %T (-want +got):\n%s", obj, diff)
			}
			u := &unstructured.Unstructured{}
			if err := u.UnmarshalJSON([]byte(c.manifest)); err != nil {
				t.Fatal(err)
			}
			got, err = Configs(u)
			if err != nil {
				t.Fatalf("unstructured: %v", err)
			}
			if diff := cmp.Diff(c.want, summarize(got)); diff != "" {
				t.Errorf("unstructured (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConfigsHub reads hub objects with v1's paths: the hub of a
// v1beta1 template has the template's paths.
func TestConfigsHub(t *testing.T) {
	obj := decodeJSON(t, templateManifest("v1beta1"))
	hub, err := scheme.ConvertToVersion(obj, runtime.InternalGroupVersioner)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Configs(hub)
	if err != nil {
		t.Fatalf("%T: %v", hub, err)
	}
	if diff := cmp.Diff(deviceSummaries("spec.spec"), summarize(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestConfigsUnsupported(t *testing.T) {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("v1")
	u.SetKind("Pod")
	list := decodeJSON(t, `{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimList", "items": []}`)
	for _, obj := range []runtime.Object{nil, u, &unstructured.UnstructuredList{}, list} {
		_, err := Configs(obj)
		if _, ok := err.(*UnsupportedObjectError); !ok {
			t.Errorf("%T: got error %v, want an *UnsupportedObjectError", obj, err)
		}
	}
	_, err := Configs(u)
	if err == nil || !strings.Contains(err.Error(), "/v1, Kind=Pod") {
		t.Errorf("the error should name the kind: %v", err)
	}
}

// TestConfigsHugeQuantity: a quantity whose decoding would not finish is
// refused before it is decoded.
func TestConfigsHugeQuantity(t *testing.T) {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON([]byte(`{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "c"},
	  "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "x", "capacity": {"requests": {"memory": "1e2147483647"}}}}]}}}`)); err != nil {
		t.Fatal(err)
	}
	_, err := Configs(u)
	if err == nil || !strings.Contains(err.Error(), "spec.devices.requests[0].exactly.capacity.requests.memory") {
		t.Errorf("got %v, want the quantity refused at its path", err)
	}
}
