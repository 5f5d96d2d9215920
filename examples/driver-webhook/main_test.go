package main

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"

	"github.com/drakit/drakit/driverconfig/admission"
)

// TestWebhook sends the webhook a v1beta1 claim template (a version the
// reference webhooks decode by hand) and a v1 DeviceClass (which they
// do not check), each with a bad GpuConfig, and a good claim.
func TestWebhook(t *testing.T) {
	srv := httptest.NewTLSServer(admission.NewHandler(registry()))
	defer srv.Close()
	for _, c := range []struct {
		version, kind, object string
		cause                 string // "" when allowed
	}{
		{"v1beta1", "ResourceClaimTemplate", `{"apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceClaimTemplate", "metadata": {"name": "t"},
		  "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "deviceClassName": "gpu.example.com"}], "config": [
		    {"opaque": {"driver": "nic.example.com", "parameters": {"mtu": 9000}}},
		    {"requests": ["gpu"], "opaque": {"driver": "gpu.example.com", "parameters": {"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "Spatial"}}}]}}}}`,
			"spec.spec.devices.config[1].opaque.parameters.sharing"},
		{"v1", "DeviceClass", `{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu.example.com"},
		  "spec": {"config": [{"opaque": {"driver": "gpu.example.com", "parameters": {"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "shared": true}}}]}}`,
			"spec.config[0].opaque.parameters"},
		{"v1", "ResourceClaim", `{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "c"},
		  "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}], "config": [
		    {"opaque": {"driver": "gpu.example.com", "parameters": {"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "MPS"}}}]}}}`, ""},
	} {
		body, _ := json.Marshal(map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": map[string]any{
			"uid": "1", "operation": "CREATE", "name": "x",
			"kind":   map[string]string{"group": "resource.k8s.io", "version": c.version, "kind": c.kind},
			"object": json.RawMessage(c.object),
		}})
		resp, err := srv.Client().Post(srv.URL, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var out admissionv1.AdmissionReview
		err = json.NewDecoder(resp.Body).Decode(&out)
		_ = resp.Body.Close()
		if err != nil || out.Response == nil {
			t.Fatalf("%s %s: %v", c.version, c.kind, err)
		}
		if c.cause == "" {
			if !out.Response.Allowed {
				t.Errorf("%s %s: refused: %s", c.version, c.kind, out.Response.Result.Message)
			}
			continue
		}
		if out.Response.Allowed || len(out.Response.Result.Details.Causes) != 1 || out.Response.Result.Details.Causes[0].Field != c.cause {
			t.Errorf("%s %s: got %+v, want one cause at %s", c.version, c.kind, out.Response, c.cause)
		}
		if !strings.HasPrefix(out.Response.Result.Message, c.kind+`.resource.k8s.io "`) {
			t.Errorf("message: %s", out.Response.Result.Message)
		}
	}
}
