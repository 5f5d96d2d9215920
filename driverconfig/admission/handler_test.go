package admission

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-logr/logr/funcr"
	"github.com/google/go-cmp/cmp"
	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/driverconfig"
	"github.com/drakit/drakit/driverconfig/internal/testconfig"
)

func testHandler(t testing.TB, opts ...Option) *Handler {
	t.Helper()
	reg := driverconfig.NewRegistry()
	if err := reg.Register(driverconfig.NewSchemeDecoder(testconfig.Scheme, testconfig.Validate), testconfig.Driver, testconfig.OtherName); err != nil {
		t.Fatal(err)
	}
	return NewHandler(reg, opts...)
}

const (
	goodParams  = `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "TimeSlicing", "interval": 5}`
	otherParams = `{"anything": ["goes"]}`
	// badParams has an unknown field (strict decoding) in the second
	// config and an invalid value in the fourth.
	badParams    = `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharng": "MPS"}`
	invalidValue = `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "Exclusive"}`
)

// configList is a devices.config (or a class's config) list of four
// configs: another driver's, p1 for the driver, a valid one for its
// second name, and p3.
func configList(p1, p3 string, withRequests bool) string {
	req := ""
	if withRequests {
		req = `"requests": ["gpu"], `
	}
	return fmt.Sprintf(`[
	  {"opaque": {"driver": "nic.example.com", "parameters": %s}},
	  {%s"opaque": {"driver": "gpu.example.com", "parameters": %s}},
	  {"opaque": {"driver": "compute-domain.example.com", "parameters": %s}},
	  {"opaque": {"driver": "gpu.example.com", "parameters": %s}}]`, otherParams, req, p1, goodParams, p3)
}

// object is a manifest of kind in version holding configList(p1, p3).
func object(version, kind, p1, p3 string) string {
	head := fmt.Sprintf(`"apiVersion": "resource.k8s.io/%s", "kind": %q, "metadata": {"name": "obj", "namespace": "ns"}`, version, kind)
	request := `{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}`
	if version == "v1alpha3" || version == "v1beta1" {
		request = `{"name": "gpu", "deviceClassName": "gpu"}`
	}
	switch kind {
	case "ResourceClaim":
		return fmt.Sprintf(`{%s, "spec": {"devices": {"requests": [%s], "config": %s}}}`, head, request, configList(p1, p3, true))
	case "ResourceClaimTemplate":
		return fmt.Sprintf(`{%s, "spec": {"spec": {"devices": {"requests": [%s], "config": %s}}}}`, head, request, configList(p1, p3, true))
	case "DeviceClass":
		return fmt.Sprintf(`{%s, "spec": {"config": %s}}`, head, configList(p1, p3, false))
	case "ResourceClaimParameters":
		return fmt.Sprintf(`{%s, "driverRequests": [
		  {"driverName": "nic.example.com", "vendorParameters": %s},
		  {"driverName": "gpu.example.com", "vendorParameters": %s, "requests": [{"vendorParameters": %s, "namedResources": {"selector": "true"}}]},
		  {"driverName": "compute-domain.example.com", "vendorParameters": %s}]}`, head, otherParams, p1, p3, goodParams)
	case "ResourceClassParameters":
		return fmt.Sprintf(`{%s, "vendorParameters": [
		  {"driverName": "nic.example.com", "parameters": %s},
		  {"driverName": "gpu.example.com", "parameters": %s},
		  {"driverName": "compute-domain.example.com", "parameters": %s},
		  {"driverName": "gpu.example.com", "parameters": %s}]}`, head, otherParams, p1, goodParams, p3)
	}
	panic(kind)
}

// review is an AdmissionReview of op on obj (and old, if not empty).
func review(op admissionv1.Operation, version, kind, obj, old string) []byte {
	r := map[string]any{
		"apiVersion": "admission.k8s.io/v1",
		"kind":       "AdmissionReview",
		"request": map[string]any{
			"uid":       "0b1c2d3e",
			"kind":      map[string]string{"group": "resource.k8s.io", "version": version, "kind": kind},
			"resource":  map[string]string{"group": "resource.k8s.io", "version": version, "resource": strings.ToLower(kind) + "s"},
			"name":      "obj",
			"namespace": "ns",
			"operation": op,
			"userInfo":  map[string]any{"username": "alice"},
		},
	}
	req := r["request"].(map[string]any)
	if obj != "" {
		req["object"] = json.RawMessage(obj)
	}
	if old != "" {
		req["oldObject"] = json.RawMessage(old)
	}
	out, err := json.Marshal(r)
	if err != nil {
		panic(err)
	}
	return out
}

// post sends body to h and returns the status code, the review's
// response (nil if the body is not a review) and the body.
func post(t testing.TB, h http.Handler, body []byte) (int, *admissionv1.AdmissionResponse, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/validate", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out admissionv1.AdmissionReview
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &out) != nil {
		return rec.Code, nil, rec.Body.String()
	}
	if out.APIVersion != "admission.k8s.io/v1" || out.Kind != "AdmissionReview" || out.Response == nil {
		t.Fatalf("not an AdmissionReview response: %s", rec.Body.String())
	}
	return rec.Code, out.Response, rec.Body.String()
}

// paramsPaths are the paths of the four configs of object's kind.
func paramsPaths(kind string) [4]string {
	switch kind {
	case "ResourceClaim":
		return [4]string{"", "spec.devices.config[1].opaque.parameters", "", "spec.devices.config[3].opaque.parameters"}
	case "ResourceClaimTemplate":
		return [4]string{"", "spec.spec.devices.config[1].opaque.parameters", "", "spec.spec.devices.config[3].opaque.parameters"}
	case "DeviceClass":
		return [4]string{"", "spec.config[1].opaque.parameters", "", "spec.config[3].opaque.parameters"}
	case "ResourceClaimParameters":
		return [4]string{"", "driverRequests[1].vendorParameters", "", "driverRequests[1].requests[0].vendorParameters"}
	case "ResourceClassParameters":
		return [4]string{"", "vendorParameters[1].parameters", "", "vendorParameters[3].parameters"}
	}
	panic(kind)
}

// TestHandlerVersionsAndKinds: in every version a cluster may send, each
// kind with good configs is allowed and with bad ones refused, with the
// status the API server builds for its own Invalid errors and a cause
// per error at the config's path in that version.
func TestHandlerVersionsAndKinds(t *testing.T) {
	h := testHandler(t)
	type tc struct{ version, kind string }
	var cases []tc
	for _, v := range []string{"v1alpha3", "v1beta1", "v1beta2", "v1"} {
		for _, k := range []string{"ResourceClaim", "ResourceClaimTemplate", "DeviceClass"} {
			cases = append(cases, tc{v, k})
		}
	}
	cases = append(cases, tc{"v1alpha2", "ResourceClaimParameters"}, tc{"v1alpha2", "ResourceClassParameters"})
	for _, c := range cases {
		t.Run(c.version+"/"+c.kind, func(t *testing.T) {
			for _, op := range []admissionv1.Operation{admissionv1.Create, admissionv1.Update} {
				old := ""
				if op == admissionv1.Update {
					old = object(c.version, c.kind, goodParams, goodParams)
				}
				code, resp, body := post(t, h, review(op, c.version, c.kind, object(c.version, c.kind, goodParams, goodParams), old))
				if code != http.StatusOK || resp == nil || !resp.Allowed || resp.Result != nil || resp.UID != "0b1c2d3e" {
					t.Fatalf("%s good: %d %s", op, code, body)
				}

				code, resp, body = post(t, h, review(op, c.version, c.kind, object(c.version, c.kind, badParams, invalidValue), old))
				if code != http.StatusOK || resp == nil || resp.Allowed || resp.UID != "0b1c2d3e" {
					t.Fatalf("%s bad: %d %s", op, code, body)
				}
				paths := paramsPaths(c.kind)
				errs := field.ErrorList{
					field.Invalid(field.NewPath(paths[1]), field.OmitValueType{}, `decoding the parameters of driver gpu.example.com strictly: strict decoding error: unknown field "sharng"`),
					field.NotSupported(field.NewPath(paths[3]).Child("sharing"), "Exclusive", []string{"TimeSlicing", "MPS"}),
				}
				want := apierrors.NewInvalid(schema.GroupKind{Group: "resource.k8s.io", Kind: c.kind}, "obj", errs).ErrStatus
				if diff := cmp.Diff(&want, resp.Result); diff != "" {
					t.Errorf("%s bad: status (-want +got):\n%s", op, diff)
				}
				if resp.Result.Details.Causes[0].Type != metav1.CauseTypeFieldValueInvalid || resp.Result.Details.Causes[0].Field != paths[1] {
					t.Errorf("%s bad: first cause %+v", op, resp.Result.Details.Causes[0])
				}
			}
		})
	}
}

// TestHandlerUpdate: an update keeps an invalid config it does not
// change (wherever it moved, however its JSON is spaced), with a
// warning, and refuses one it changes or adds.
func TestHandlerUpdate(t *testing.T) {
	h := testHandler(t)
	const v, k = "v1", "DeviceClass"
	spaced := `{"kind": "GpuConfig", "sharng":"MPS",   "apiVersion": "gpu.example.com/v1"}`
	for _, c := range []struct {
		name, obj, old string
		allowed        bool
		warnings       int
	}{
		{"unchanged", object(v, k, badParams, goodParams), object(v, k, badParams, goodParams), true, 1},
		{"moved and respaced", object(v, k, goodParams, spaced), object(v, k, badParams, goodParams), true, 1},
		{"changed", object(v, k, invalidValue, goodParams), object(v, k, badParams, goodParams), false, 0},
		{"added", object(v, k, badParams, badParams), object(v, k, badParams, goodParams), false, 1},
		{"no old object", object(v, k, badParams, goodParams), "", false, 0},
		{"unreadable old object", object(v, k, badParams, goodParams), `{"apiVersion": "v1", "kind": "Pod"}`, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, resp, body := post(t, h, review(admissionv1.Update, v, k, c.obj, c.old))
			if resp == nil || resp.Allowed != c.allowed || len(resp.Warnings) != c.warnings {
				t.Fatalf("got %s, want allowed %v with %d warnings", body, c.allowed, c.warnings)
			}
			if c.warnings > 0 && !strings.Contains(resp.Warnings[0], "the config of driver gpu.example.com is invalid but unchanged, so it is kept") {
				t.Errorf("warning: %q", resp.Warnings[0])
			}
		})
	}
	// A CREATE never ratchets, even with an oldObject in the review.
	_, resp, body := post(t, h, review(admissionv1.Create, v, k, object(v, k, badParams, goodParams), object(v, k, badParams, goodParams)))
	if resp == nil || resp.Allowed {
		t.Errorf("CREATE ratcheted: %s", body)
	}
}

// TestHandlerBadInput: what is not a readable review of a resource.k8s.io
// object is never allowed: an HTTP error for what is not a review, a
// refused review for one the handler cannot judge.
func TestHandlerBadInput(t *testing.T) {
	h := testHandler(t, WithMaxRequestBytes(256<<10))
	// deep nests objects n deep in the parameters of a class's first
	// config.
	deep := func(n int) []byte {
		r := review(admissionv1.Create, "v1", "DeviceClass", object("v1", "DeviceClass", `"DEEP"`, goodParams), "")
		return bytes.Replace(r, []byte(`"DEEP"`), []byte(strings.Repeat(`{"a":`, n)+"1"+strings.Repeat("}", n)), 1)
	}
	for _, c := range []struct {
		name     string
		method   string
		ctype    string
		body     []byte
		code     int    // HTTP status; 200: a review that is refused
		contains string // in the body, or in the refusal's message
	}{
		{"GET", http.MethodGet, "", nil, http.StatusMethodNotAllowed, "an AdmissionReview is POSTed"},
		{"text", "", "text/plain", review(admissionv1.Create, "v1", "DeviceClass", object("v1", "DeviceClass", goodParams, goodParams), ""), http.StatusUnsupportedMediaType, "must be application/json"},
		{"over the limit", "", "", review(admissionv1.Create, "v1", "DeviceClass", object("v1", "DeviceClass", `{"x": "`+strings.Repeat("a", 300<<10)+`"}`, goodParams), ""), http.StatusRequestEntityTooLarge, "larger than 262144 bytes"},
		{"malformed JSON", "", "", []byte(`{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {`), http.StatusBadRequest, "decoding the AdmissionReview"},
		{"not JSON", "", "", []byte(`hello`), http.StatusBadRequest, "decoding the AdmissionReview"},
		{"empty", "", "", nil, http.StatusBadRequest, "decoding the AdmissionReview"},
		{"invalid UTF-8", "", "", bytes.Replace(review(admissionv1.Create, "v1", "DeviceClass", object("v1", "DeviceClass", `{"x": "AB"}`, goodParams), ""), []byte("AB"), []byte{0xff, 0xfe}, 1), http.StatusBadRequest, "not valid UTF-8"},
		{"v1beta1 review", "", "", bytes.Replace(review(admissionv1.Create, "v1", "DeviceClass", object("v1", "DeviceClass", goodParams, goodParams), ""), []byte("admission.k8s.io/v1"), []byte("admission.k8s.io/v1beta1"), 1), http.StatusBadRequest, `got apiVersion "admission.k8s.io/v1beta1" and kind "AdmissionReview": list only "v1" in the webhook's admissionReviewVersions`},
		{"no request", "", "", []byte(`{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}`), http.StatusBadRequest, "has no request"},
		{"no uid", "", "", []byte(`{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"operation": "CREATE"}}`), http.StatusBadRequest, "has no uid"},
		{"wrong field type", "", "", []byte(`{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": 5}}`), http.StatusBadRequest, "decoding the AdmissionReview"},
		{"no operation", "", "", bytes.Replace(review(admissionv1.Create, "v1", "DeviceClass", object("v1", "DeviceClass", badParams, goodParams), ""), []byte(`"operation"`), []byte(`"Operation"`), 1), http.StatusOK, `unknown operation ""`},
		{"no object", "", "", review(admissionv1.Create, "v1", "DeviceClass", "", ""), http.StatusOK, "the CREATE request for DeviceClass has no object"},
		{"object not JSON", "", "", bytes.Replace(review(admissionv1.Create, "v1", "DeviceClass", `"x"`, ""), []byte(`"object":"x"`), []byte(`"object":"x"`), 1), http.StatusOK, "request.object: "},
		{"another group", "", "", bytes.Replace(review(admissionv1.Create, "v1", "DeviceClass", object("v1", "DeviceClass", goodParams, goodParams), ""), []byte(`"group":"resource.k8s.io","kind"`), []byte(`"group":"apps","kind"`), 1), http.StatusOK, "this webhook validates resource.k8s.io objects, not apps DeviceClass"},
		{"unknown kind", "", "", review(admissionv1.Create, "v1", "Widget", `{"apiVersion": "resource.k8s.io/v1", "kind": "Widget", "metadata": {"name": "w"}}`, ""), http.StatusOK, `no kind "Widget" is registered`},
		{"object of another kind", "", "", review(admissionv1.Create, "v1", "DeviceClass", `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "w"}}`, ""), http.StatusOK, "request.object: "},
		{"parameters nested deeper than JSON decoding allows", "", "", deep(20000), http.StatusBadRequest, "exceeded max depth"},
		{"deeply nested parameters", "", "", deep(5000), http.StatusOK, "spec.config[1].opaque.parameters: Invalid value: the parameters of driver gpu.example.com need apiVersion and kind"},
	} {
		t.Run(c.name, func(t *testing.T) {
			method := c.method
			if method == "" {
				method = http.MethodPost
			}
			req := httptest.NewRequest(method, "/", bytes.NewReader(c.body))
			ctype := c.ctype
			if ctype == "" {
				ctype = "application/json"
			}
			req.Header.Set("Content-Type", ctype)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != c.code {
				t.Fatalf("got %d %s, want %d", rec.Code, rec.Body.String(), c.code)
			}
			if c.code != http.StatusOK {
				if !strings.Contains(rec.Body.String(), c.contains) {
					t.Errorf("body %q does not say %q", rec.Body.String(), c.contains)
				}
				return
			}
			var out admissionv1.AdmissionReview
			if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || out.Response == nil {
				t.Fatalf("not a review: %s", rec.Body.String())
			}
			if out.Response.Allowed || out.Response.Result == nil || out.Response.Result.Code < 400 || !strings.Contains(out.Response.Result.Message, c.contains) {
				t.Errorf("got %s, want a refusal saying %q", rec.Body.String(), c.contains)
			}
		})
	}
}

// TestHandlerAllows what holds no config of the driver, and what is not
// a CREATE or UPDATE.
func TestHandlerAllows(t *testing.T) {
	h := testHandler(t)
	for _, c := range []struct{ name, version, kind, obj string }{
		{"slice", "v1", "ResourceSlice", `{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"}, "spec": {"driver": "gpu.example.com"}}`},
		{"1.30 claim", "v1alpha2", "ResourceClaim", `{"apiVersion": "resource.k8s.io/v1alpha2", "kind": "ResourceClaim", "metadata": {"name": "c"}, "spec": {"resourceClassName": "gpu"}}`},
		{"other drivers only", "v1", "DeviceClass", `{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "c"}, "spec": {"config": [{"opaque": {"driver": "nic.example.com", "parameters": {"bad": true}}}]}}`},
	} {
		_, resp, body := post(t, h, review(admissionv1.Create, c.version, c.kind, c.obj, ""))
		if resp == nil || !resp.Allowed {
			t.Errorf("%s: %s", c.name, body)
		}
	}
	_, resp, body := post(t, h, review(admissionv1.Delete, "v1", "DeviceClass", "", object("v1", "DeviceClass", badParams, badParams)))
	if resp == nil || !resp.Allowed {
		t.Errorf("DELETE: %s", body)
	}
}

// TestHandlerLogsNoBody: at any verbosity, what the handler logs holds no
// part of the request's object or parameters, but says what it decided.
func TestHandlerLogsNoBody(t *testing.T) {
	var logs strings.Builder
	logger := funcr.New(func(prefix, args string) { logs.WriteString(prefix + " " + args + "\n") }, funcr.Options{Verbosity: 10})
	h := testHandler(t, WithLogger(logger), WithMaxRequestBytes(8<<10))
	const secret = "s3cr3t-token-in-parameters"
	params := `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "` + secret + `"}`
	for _, body := range [][]byte{
		review(admissionv1.Create, "v1", "ResourceClaim", object("v1", "ResourceClaim", params, goodParams), ""),
		review(admissionv1.Update, "v1", "ResourceClaim", object("v1", "ResourceClaim", params, goodParams), object("v1", "ResourceClaim", params, goodParams)),
		[]byte(`{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": "` + secret + `"`),
		[]byte(strings.Repeat(secret, 1000)),
	} {
		post(t, h, body)
	}
	if strings.Contains(logs.String(), secret) {
		t.Errorf("the logs hold the request:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), `"allowed"=false`) || !strings.Contains(logs.String(), `"causes"=1`) || !strings.Contains(logs.String(), "over the size limit") {
		t.Errorf("the logs do not say what was decided:\n%s", logs.String())
	}
}

func TestReviewNilRequest(t *testing.T) {
	resp := testHandler(t).Review(t.Context(), nil)
	if resp == nil || resp.Allowed || resp.Result == nil || resp.Result.Code != http.StatusBadRequest {
		t.Errorf("got %+v", resp)
	}
}

func TestShorten(t *testing.T) {
	long := strings.Repeat("é", 600)
	got := shorten(long)
	if len(got) > maxWarning || !strings.HasSuffix(got, "...") || !utf8.ValidString(got) {
		t.Errorf("shorten gave %d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
	if shorten("short") != "short" {
		t.Error("a short warning was changed")
	}
}

// TestHandlerHugeQuantity: a quantity whose decoding would not finish is
// refused before it is decoded.
func TestHandlerHugeQuantity(t *testing.T) {
	obj := `{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "c"},
	  "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "x", "capacity": {"requests": {"memory": "1e2147483647"}}}}]}}}`
	_, resp, body := post(t, testHandler(t), review(admissionv1.Create, "v1", "ResourceClaim", obj, ""))
	if resp == nil || resp.Allowed || !strings.Contains(resp.Result.Message, "spec.devices.requests[0].exactly.capacity.requests.memory") {
		t.Errorf("got %s", body)
	}
}
