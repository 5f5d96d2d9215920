package driverconfig

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// allocatedClaim is a claim of version allocated to two gpu devices (one
// for request a, one for subrequest b/small) and a nic, whose config list
// starts with a claim config, so that the class-first order is the
// function's and not the list's.
func allocatedClaim(version string) string {
	return fmt.Sprintf(`{"apiVersion": "resource.k8s.io/%s", "kind": "ResourceClaim", "metadata": {"name": "c", "namespace": "ns"},
	  "spec": {"devices": {"requests": []}},
	  "status": {"allocation": {"devices": {
	    "results": [
	      {"request": "a", "driver": "gpu.example.com", "pool": "p", "device": "gpu-0"},
	      {"request": "n", "driver": "nic.example.com", "pool": "p", "device": "nic-0"},
	      {"request": "b/small", "driver": "gpu.example.com", "pool": "p", "device": "gpu-1"}],
	    "config": [
	      {"source": "FromClaim", "opaque": {"driver": "gpu.example.com", "parameters": {"claim": "all"}}},
	      {"source": "FromClass", "requests": ["a"], "opaque": {"driver": "gpu.example.com", "parameters": {"class": "a"}}},
	      {"source": "FromClass", "requests": ["b/small"], "opaque": {"driver": "gpu.example.com", "parameters": {"class": "b/small"}}},
	      {"source": "FromClass", "opaque": {"driver": "gpu.example.com", "parameters": {"class": "none"}}},
	      {"source": "FromClaim", "requests": ["b"], "opaque": {"driver": "gpu.example.com", "parameters": {"claim": "b"}}},
	      {"source": "FromClaim", "requests": ["b/big"], "opaque": {"driver": "gpu.example.com", "parameters": {"claim": "b/big"}}},
	      {"source": "FromClaim", "requests": ["a"], "opaque": {"driver": "nic.example.com", "parameters": {"claim": "nic"}}}]}}}}`, version)
}

// deviceSummary is "device: parameters of each config, in order".
func deviceSummary(dcs []DeviceConfigs) []string {
	var out []string
	for _, dc := range dcs {
		var params []string
		for _, c := range dc.Configs {
			params = append(params, strings.ReplaceAll(string(c.Parameters.Raw), " ", "")+"@"+c.Path.String())
		}
		out = append(out, fmt.Sprintf("%s %s/%s/%s (%s): %s", dc.Path, dc.Driver, dc.Pool, dc.Device, dc.Request, strings.Join(params, " ")))
	}
	return out
}

func TestAllocatedConfigs(t *testing.T) {
	const cfg = "status.allocation.devices.config"
	want := []string{
		`status.allocation.devices.results[0] gpu.example.com/p/gpu-0 (a): {"class":"a"}@` + cfg + `[1].opaque.parameters {"class":"none"}@` + cfg + `[3].opaque.parameters {"claim":"all"}@` + cfg + `[0].opaque.parameters`,
		`status.allocation.devices.results[2] gpu.example.com/p/gpu-1 (b/small): {"class":"b/small"}@` + cfg + `[2].opaque.parameters {"class":"none"}@` + cfg + `[3].opaque.parameters {"claim":"all"}@` + cfg + `[0].opaque.parameters {"claim":"b"}@` + cfg + `[4].opaque.parameters`,
	}
	wantWarning := []string{"status.allocation.devices.config[3]: a FromClass config of driver gpu.example.com names no request, so it applies to all 3 requests of the claim; servers without the fix of kubernetes/kubernetes#134789 (1.31, and 1.32 to 1.34 before their fixed patch releases) wrote the config of one request's class so: if one of them allocated this claim, the config may be meant for one request only"}
	for _, v := range []string{"v1alpha3", "v1beta1", "v1beta2", "v1", "hub", "unstructured"} {
		t.Run(v, func(t *testing.T) {
			var obj runtime.Object
			switch v {
			case "hub":
				hub, err := scheme.ConvertToVersion(decodeJSON(t, allocatedClaim("v1")), runtime.InternalGroupVersioner)
				if err != nil {
					t.Fatal(err)
				}
				obj = hub
			case "unstructured":
				u := &unstructured.Unstructured{}
				if err := u.UnmarshalJSON([]byte(allocatedClaim("v1beta2"))); err != nil {
					t.Fatal(err)
				}
				obj = u
			default:
				obj = decodeJSON(t, allocatedClaim(v))
			}
			got, warnings, err := AllocatedConfigs(obj, "gpu.example.com")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, deviceSummary(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(wantWarning, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			nic, _, err := AllocatedConfigs(obj, "nic.example.com")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{`status.allocation.devices.results[1] nic.example.com/p/nic-0 (n): `}, deviceSummary(nic)); diff != "" {
				t.Errorf("nic: a config for request a applied to request n (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAllocatedConfigsV1alpha2(t *testing.T) {
	obj := decodeJSON(t, `{"apiVersion": "resource.k8s.io/v1alpha2", "kind": "ResourceClaim", "metadata": {"name": "c"},
	  "spec": {"resourceClassName": "gpu"},
	  "status": {"driverName": "gpu.example.com", "allocation": {"resourceHandles": [
	    {"driverName": "nic.example.com", "structuredData": {"nodeName": "n", "results": [{"namedResources": {"name": "nic-0"}}]}},
	    {"driverName": "gpu.example.com", "structuredData": {"nodeName": "n", "vendorClassParameters": {"class": 1}, "vendorClaimParameters": {"claim": 1},
	      "results": [{"namedResources": {"name": "gpu-0"}}, {"vendorRequestParameters": {"request": 1}, "namedResources": {"name": "gpu-1"}}]}}]}}}`)
	got, warnings, err := AllocatedConfigs(obj, "gpu.example.com")
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	const sd = "status.allocation.resourceHandles[1].structuredData"
	want := []string{
		sd + `.results[0] gpu.example.com/n/gpu-0 (): {"class":1}@` + sd + `.vendorClassParameters {"claim":1}@` + sd + `.vendorClaimParameters`,
		sd + `.results[1] gpu.example.com/n/gpu-1 (): {"class":1}@` + sd + `.vendorClassParameters {"claim":1}@` + sd + `.vendorClaimParameters {"request":1}@` + sd + `.results[1].vendorRequestParameters`,
	}
	if diff := cmp.Diff(want, deviceSummary(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAllocatedConfigsErrors(t *testing.T) {
	_, _, err := AllocatedConfigs(decodeJSON(t, claimManifest("v1")), "gpu.example.com")
	if err == nil || !strings.Contains(err.Error(), "claim c is not allocated") {
		t.Errorf("unallocated claim: %v", err)
	}
	_, _, err = AllocatedConfigs(decodeJSON(t, classManifest("v1")), "gpu.example.com")
	if _, ok := err.(*UnsupportedObjectError); !ok {
		t.Errorf("a class: %v, want an *UnsupportedObjectError", err)
	}
}

func TestAppliesTo(t *testing.T) {
	for _, c := range []struct {
		requests []string
		request  string
		want     bool
	}{
		{nil, "a", true},
		{nil, "a/x", true},
		{[]string{"a"}, "a", true},
		{[]string{"a"}, "a/x", true},
		{[]string{"a/x"}, "a/x", true},
		{[]string{"a/x"}, "a", false},
		{[]string{"a/x"}, "a/y", false},
		{[]string{"ab"}, "a", false},
		{[]string{"a"}, "ab/x", false},
		{[]string{"b", "a"}, "a", true},
	} {
		if got := appliesTo(c.requests, c.request); got != c.want {
			t.Errorf("appliesTo(%q, %q) = %v, want %v", c.requests, c.request, got, c.want)
		}
	}
}

// TestAllocatedConfigsOneRequest: a FromClass config without requests in
// the allocation of a claim with one request (in two subrequests' worth
// of devices) is what 1.37 writes for "every request": no warning.
func TestAllocatedConfigsOneRequest(t *testing.T) {
	obj := decodeJSON(t, `{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "c"},
	  "spec": {"devices": {"requests": []}},
	  "status": {"allocation": {"devices": {
	    "results": [
	      {"request": "gpu/big", "driver": "gpu.example.com", "pool": "p", "device": "gpu-0"},
	      {"request": "gpu/big", "driver": "gpu.example.com", "pool": "p", "device": "gpu-1"}],
	    "config": [{"source": "FromClass", "opaque": {"driver": "gpu.example.com", "parameters": {"class": 1}}}]}}}}`)
	got, warnings, err := AllocatedConfigs(obj, "gpu.example.com")
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	if len(got) != 2 || len(got[0].Configs) != 1 || len(got[1].Configs) != 1 {
		t.Errorf("the class config does not apply to both devices: %v", deviceSummary(got))
	}
}
