package admission

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"

	"github.com/drakit/drakit/driverconfig"
	"github.com/drakit/drakit/driverconfig/internal/testconfig"
)

// fuzzTargets are the version and kind pairs FuzzHandler puts
// parameters in.
var fuzzTargets = []struct{ version, kind string }{
	{"v1", "ResourceClaim"}, {"v1", "ResourceClaimTemplate"}, {"v1", "DeviceClass"},
	{"v1beta2", "ResourceClaim"}, {"v1beta1", "ResourceClaimTemplate"}, {"v1alpha3", "DeviceClass"},
	{"v1alpha2", "ResourceClaimParameters"}, {"v1alpha2", "ResourceClassParameters"},
}

// oracleGood says, without the serializer the handler uses, whether
// params are a config the driver accepts: a JSON object of exactly
// GpuConfig's fields (encoding/json, which is laxer than the strict
// serializer: it ignores the case of names and allows a name twice) with
// the config's apiVersion and kind, valid for testconfig.Validate. A
// config it refuses must be refused by the handler.
func oracleGood(params []byte) bool {
	if !utf8.Valid(params) {
		return false
	}
	var c struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		testconfig.GpuConfig
	}
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.DisallowUnknownFields()
	if dec.Decode(&c) != nil || dec.More() {
		return false
	}
	if !strings.EqualFold(c.APIVersion, "gpu.example.com/v1") || !strings.EqualFold(c.Kind, "GpuConfig") {
		return false
	}
	if c.Sharing == "TimeSlicing" && c.Interval == nil {
		ten := 10
		c.Interval = &ten
	}
	return len(testconfig.Validate(context.Background(), &c.GpuConfig, field.NewPath("p"))) == 0
}

// FuzzHandler: whatever the body, the handler does not panic and answers
// an HTTP error or a review; a review whose config the driver refuses is
// never allowed; an allowed review's configs all decode.
func FuzzHandler(f *testing.F) {
	for _, p := range []string{goodParams, badParams, invalidValue, otherParams,
		`{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "TimeSlicing", "sharing": "Exclusive"}`,
		`{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "Sharing": "Exclusive"}`,
		`{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "interval": 1e400}`,
		`{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "interval": 5.5}`,
		`{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "MPS\ud800"}`,
		`{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "x": ` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`,
		`null`, `[]`, `"x"`, `{`, "{\"apiVersion\": \"gpu.example.com/v1\", \"kind\": \"GpuConfig\", \"sharing\": \"\xff\"}",
	} {
		f.Add(uint8(len(p)), []byte(p), []byte(nil))
	}
	f.Add(uint8(0), []byte(nil), review(admissionv1.Create, "v1", "DeviceClass", object("v1", "DeviceClass", badParams, goodParams), ""))
	f.Add(uint8(0), []byte(nil), review(admissionv1.Update, "v1", "DeviceClass", object("v1", "DeviceClass", badParams, goodParams), object("v1", "DeviceClass", badParams, goodParams)))
	f.Add(uint8(0), []byte(nil), []byte(`{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "u", "operation": "CREATE", "kind": {"group": "resource.k8s.io", "version": "v1", "kind": "DeviceClass"}, "object": {"kind": "DeviceClass", "apiVersion": "resource.k8s.io/v1", "spec": {"config": [{"opaque": {"driver": "gpu.example.com", "parameters": {"kind": "GpuConfig"}}}]}}}}`))
	h := testHandler(f, WithMaxRequestBytes(1<<20))
	f.Fuzz(func(t *testing.T, pick uint8, params, body []byte) {
		// Any body: an HTTP error, or a review whose allow holds.
		if len(body) > 0 {
			checkAnyBody(t, h, body)
		}
		// params in the driver's config of an object: refused unless
		// the driver accepts them.
		target := fuzzTargets[int(pick)%len(fuzzTargets)]
		obj := object(target.version, target.kind, `"PARAMS"`, goodParams)
		if pick&0x80 != 0 {
			obj = object(target.version, target.kind, goodParams, `"PARAMS"`)
		}
		op := admissionv1.Create
		if pick&0x40 != 0 {
			op = admissionv1.Update
		}
		old := ""
		if op == admissionv1.Update {
			old = object(target.version, target.kind, goodParams, goodParams)
		}
		r := bytes.Replace(review(op, target.version, target.kind, obj, old), []byte(`"PARAMS"`), params, 1)
		if !json.Valid(params) {
			// params that are not one JSON value may still make the
			// review valid JSON of another shape (closing the config
			// and opening others): judge the review as any body.
			checkAnyBody(t, h, r)
			return
		}
		code, resp, out := post(t, h, r)
		if code == http.StatusOK && resp == nil {
			t.Fatalf("200 without a review: %q", out)
		}
		// 1.30's vendorParameters are optional: null is no config.
		absent := target.version == "v1alpha2" && string(bytes.TrimSpace(params)) == "null"
		if resp != nil && resp.Allowed && !absent && !oracleGood(params) {
			t.Fatalf("%s %s %s with parameters %q was allowed: %s", op, target.version, target.kind, params, out)
		}
	})
}

// checkAnyBody posts body and checks that an allowed review is one whose
// every config of a registered driver decodes.
func checkAnyBody(t *testing.T, h *Handler, body []byte) {
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		return
	}
	var out admissionv1.AdmissionReview
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || out.Response == nil {
		t.Fatalf("200 without a review: %q", rec.Body.String())
	}
	if !out.Response.Allowed {
		return
	}
	var in admissionv1.AdmissionReview
	// The API server's JSON is case-sensitive, as the handler reads it.
	if !utf8.Valid(body) || sigsjson.UnmarshalCaseSensitivePreserveInts(body, &in) != nil || in.Request == nil {
		t.Fatalf("allowed a body that is not a review: %q", body)
	}
	switch in.Request.Operation {
	case admissionv1.Delete, admissionv1.Connect:
		return
	case admissionv1.Create, admissionv1.Update:
	default:
		t.Fatalf("allowed operation %q: %q", in.Request.Operation, body)
	}
	obj, err := h.decodeObject(in.Request.Object.Raw, schemaKind(in.Request))
	if err != nil {
		t.Fatalf("allowed an object that does not decode (%v): %q", err, body)
	}
	cfgs, err := driverconfig.Configs(obj)
	if err != nil {
		t.Fatalf("allowed an object whose configs cannot be read (%v): %q", err, body)
	}
	if in.Request.Operation == admissionv1.Update {
		return // an unchanged invalid config is allowed
	}
	for _, c := range cfgs {
		if h.registry.Handles(c.Driver) {
			if _, errs := h.registry.Decode(context.Background(), c); len(errs) > 0 {
				t.Fatalf("allowed a config that does not decode (%v): %q", errs, body)
			}
		}
	}
}
