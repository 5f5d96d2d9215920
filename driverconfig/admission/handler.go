package admission

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/go-logr/logr"
	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/klog/v2"
	sigsjson "sigs.k8s.io/json"

	"github.com/drakit/drakit/driverconfig"
	"github.com/drakit/drakit/internal/quantityguard"
)

const (
	// DefaultMaxRequestBytes is the largest AdmissionReview the handler
	// reads: an UPDATE's review carries the object and the old object, and
	// the API server takes requests of up to 3 MiB, so twice that.
	DefaultMaxRequestBytes = 6 << 20
	// DefaultTimeout bounds one review: the API server waits at most 30s
	// for a webhook, 10s by default.
	DefaultTimeout = 10 * time.Second
)

// resourceGroup is the API group whose objects the handler reads.
const resourceGroup = "resource.k8s.io"

// Handler is the http.Handler of a validating admission webhook that
// checks drivers' opaque configs with a driverconfig.Registry. See the
// package documentation for what it allows and refuses.
type Handler struct {
	registry *driverconfig.Registry
	maxBytes int64
	timeout  time.Duration
	logger   logr.Logger
}

// Option configures a Handler.
type Option func(*Handler)

// WithMaxRequestBytes sets the largest request body read; a larger one is
// refused with 413 Request Entity Too Large.
func WithMaxRequestBytes(n int64) Option { return func(h *Handler) { h.maxBytes = n } }

// WithTimeout bounds the context the decoders get for one review.
func WithTimeout(d time.Duration) Option { return func(h *Handler) { h.timeout = d } }

// WithLogger sets the logger (klog's by default). The handler logs what it
// decided for each review, at verbosity 2 and up, and never a request body
// or a parameter.
func WithLogger(l logr.Logger) Option { return func(h *Handler) { h.logger = l } }

// NewHandler returns the Handler that validates the configs of the
// drivers registered in reg (strictly, unless reg is a NonStrict view).
// A nil reg is a mistake of the program's setup: NewHandler panics.
func NewHandler(reg *driverconfig.Registry, opts ...Option) *Handler {
	if reg == nil {
		panic("admission.NewHandler: the Registry is nil")
	}
	h := &Handler{
		registry: reg,
		maxBytes: DefaultMaxRequestBytes,
		timeout:  DefaultTimeout,
		logger:   klog.Background().WithName("driverconfig-admission"),
	}
	for _, o := range opts {
		o(h)
	}
	return h
}

var reviewGVK = admissionv1.SchemeGroupVersion.WithKind("AdmissionReview")

// ServeHTTP answers one AdmissionReview. A request the handler cannot
// read as an admission.k8s.io/v1 AdmissionReview gets an HTTP error
// (which the API server treats as a failed call, so the webhook's
// failurePolicy decides) with a message saying what is wrong; a review
// it can read always gets a review back, allowed or not.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		httpError(w, http.StatusMethodNotAllowed, "an AdmissionReview is POSTed; got %s", r.Method)
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "" && !isJSON(ct) {
		httpError(w, http.StatusUnsupportedMediaType, "the AdmissionReview must be application/json; got Content-Type %q", ct)
		return
	}
	body, err := readBody(w, r, h.maxBytes)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			h.logger.V(2).Info("refused a review over the size limit", "limit", h.maxBytes)
			httpError(w, http.StatusRequestEntityTooLarge, "the AdmissionReview is larger than %d bytes, the webhook's limit", h.maxBytes)
			return
		}
		httpError(w, http.StatusBadRequest, "reading the AdmissionReview: %v", err)
		return
	}
	review, status, msg := decodeReview(body)
	if review == nil {
		h.logger.V(2).Info("refused a request that is not an AdmissionReview", "reason", msg)
		httpError(w, status, "%s", msg)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.timeout)
	defer cancel()
	resp := h.Review(ctx, review.Request)
	h.logger.V(2).Info("reviewed", "uid", resp.UID, "kind", review.Request.Kind, "namespace", review.Request.Namespace, "name", review.Request.Name,
		"operation", review.Request.Operation, "allowed", resp.Allowed, "causes", causes(resp), "duration", time.Since(start))
	out, err := json.Marshal(&admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: reviewGVK.GroupVersion().String(), Kind: reviewGVK.Kind},
		Response: resp,
	})
	if err != nil {
		httpError(w, http.StatusInternalServerError, "encoding the response: %v", err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

// readBody reads at most max bytes of the body, into a buffer of the
// announced length when there is one.
func readBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, max)
	if n := r.ContentLength; n > 0 && n <= max {
		buf := bytes.NewBuffer(make([]byte, 0, n+bytes.MinRead))
		_, err := buf.ReadFrom(body)
		return buf.Bytes(), err
	}
	return io.ReadAll(body)
}

func causes(resp *admissionv1.AdmissionResponse) int {
	if resp.Result == nil || resp.Result.Details == nil {
		return 0
	}
	return len(resp.Result.Details.Causes)
}

func isJSON(ct string) bool {
	return len(ct) >= len("application/json") && ct[:len("application/json")] == "application/json"
}

func httpError(w http.ResponseWriter, code int, format string, args ...any) {
	http.Error(w, fmt.Sprintf(format, args...), code)
}

// decodeReview reads an admission.k8s.io/v1 AdmissionReview with a
// request and a uid; otherwise it says why not.
func decodeReview(body []byte) (*admissionv1.AdmissionReview, int, string) {
	if !utf8.Valid(body) {
		return nil, http.StatusBadRequest, "the AdmissionReview is not valid UTF-8"
	}
	// One pass: the TypeMeta is checked after decoding, since a review
	// of another version decodes into v1's shape too.
	review := &admissionv1.AdmissionReview{}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(body, review); err != nil {
		return nil, http.StatusBadRequest, fmt.Sprintf("decoding the AdmissionReview: %v", err)
	}
	if gvk := review.GroupVersionKind(); gvk != reviewGVK {
		return nil, http.StatusBadRequest, fmt.Sprintf("expected apiVersion %s and kind %s, got apiVersion %q and kind %q: list only %q in the webhook's admissionReviewVersions",
			reviewGVK.GroupVersion(), reviewGVK.Kind, review.APIVersion, review.Kind, reviewGVK.Version)
	}
	if review.Request == nil {
		return nil, http.StatusBadRequest, "the AdmissionReview has no request"
	}
	if review.Request.UID == "" {
		return nil, http.StatusBadRequest, "the AdmissionReview's request has no uid"
	}
	return review, 0, ""
}

// Review decides one admission request: the core of ServeHTTP, for
// callers that have decoded the review themselves (a controller-runtime
// webhook, say). It never returns nil.
func (h *Handler) Review(ctx context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	if req == nil {
		return badRequest(&admissionv1.AdmissionResponse{}, "the AdmissionReview has no request")
	}
	resp := &admissionv1.AdmissionResponse{UID: req.UID}
	switch req.Operation {
	case admissionv1.Create, admissionv1.Update:
	case admissionv1.Delete, admissionv1.Connect:
		// They carry no new config.
		resp.Allowed = true
		return resp
	default:
		return badRequest(resp, fmt.Sprintf("unknown operation %q: the handler judges CREATE and UPDATE", req.Operation))
	}
	if req.Kind.Group != resourceGroup {
		return badRequest(resp, fmt.Sprintf("this webhook validates %s objects, not %s %s: remove that resource from the webhook's rules", resourceGroup, req.Kind.Group, req.Kind.Kind))
	}
	kind := schemaKind(req)
	if len(req.Object.Raw) == 0 {
		return badRequest(resp, fmt.Sprintf("the %s request for %s has no object", req.Operation, kind.Kind))
	}
	obj, err := h.decodeObject(req.Object.Raw, kind)
	if err != nil {
		return badRequest(resp, fmt.Sprintf("request.object: %v", err))
	}
	cfgs, err := driverconfig.Configs(obj)
	if err != nil {
		return badRequest(resp, fmt.Sprintf("request.object: %v: remove %s %s from the webhook's rules", err, kind.GroupVersion(), kind.Kind))
	}
	var old ratchet
	if req.Operation == admissionv1.Update && len(req.OldObject.Raw) > 0 {
		// An old object the handler cannot read ratchets nothing: every
		// config is checked, as on CREATE.
		if oldObj, err := h.decodeObject(req.OldObject.Raw, kind); err == nil {
			old.old, _ = driverconfig.Configs(oldObj)
			old.used = make([]bool, len(old.old))
		}
	}
	var errs field.ErrorList
	for i := range cfgs {
		cfg := &cfgs[i]
		if !h.registry.Handles(cfg.Driver) {
			continue
		}
		_, e := h.registry.Decode(ctx, *cfg)
		if len(e) == 0 {
			continue
		}
		if old.unchanged(cfg) {
			resp.Warnings = append(resp.Warnings, shorten(fmt.Sprintf("%s: the config of driver %s is invalid but unchanged, so it is kept: %v", cfg.Path, cfg.Driver, e.ToAggregate())))
			continue
		}
		errs = append(errs, e...)
	}
	if len(errs) == 0 {
		resp.Allowed = true
		return resp
	}
	name := req.Name
	if m, err := meta.Accessor(obj); err == nil && m.GetName() != "" {
		name = m.GetName()
	}
	status := apierrors.NewInvalid(schema.GroupKind{Group: kind.Group, Kind: kind.Kind}, name, errs).ErrStatus
	resp.Result = &status
	return resp
}

func schemaKind(req *admissionv1.AdmissionRequest) schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: req.Kind.Group, Version: req.Kind.Version, Kind: req.Kind.Kind}
}

// decodeObject decodes an object of resource.k8s.io in the version it
// was sent in, leniently: the API server has decoded it already, and a
// field this build does not know is not the webhook's to refuse.
func (h *Handler) decodeObject(raw []byte, kind schema.GroupVersionKind) (runtime.Object, error) {
	obj, err := driverconfig.Scheme().New(kind)
	if err != nil {
		return nil, err
	}
	// A quantity with a huge exponent would never finish decoding.
	if perr := quantityguard.CheckJSON(raw, reflect.TypeOf(obj)); perr != nil {
		return nil, perr
	}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, obj); err != nil {
		return nil, fmt.Errorf("decoding %s %s: %v", kind.GroupVersion(), kind.Kind, err)
	}
	// The API server sends the object in the version of request.kind,
	// with its apiVersion and kind; an object without them is taken to be
	// of that kind.
	if got := obj.GetObjectKind().GroupVersionKind(); got.Empty() {
		obj.GetObjectKind().SetGroupVersionKind(kind)
	} else if got != kind {
		return nil, fmt.Errorf("the object is apiVersion %q, kind %q, but the request's kind is %s", got.GroupVersion().String(), got.Kind, kind)
	}
	return obj, nil
}

// ratchet holds the configs of the old object, each of which may keep
// one config of the new object.
type ratchet struct {
	old  []driverconfig.Config
	used []bool
}

// unchanged says whether the old object holds the same config, not yet
// used to keep another: the same driver, source and requests, and the
// same parameters (as JSON values). Such a config was accepted before
// and is kept, as the API server's validation ratcheting keeps values an
// update does not change; a copy added beside it is new, and is checked.
func (r *ratchet) unchanged(cfg *driverconfig.Config) bool {
	var value any
	decoded := false
	for i := range r.old {
		o := &r.old[i]
		if r.used[i] || o.Driver != cfg.Driver || o.Source != cfg.Source || !slices.Equal(o.Requests, cfg.Requests) {
			continue
		}
		same := bytes.Equal(o.Parameters.Raw, cfg.Parameters.Raw)
		if !same {
			if !decoded {
				if json.Unmarshal(cfg.Parameters.Raw, &value) != nil {
					return false
				}
				decoded = true
			}
			var oldValue any
			same = json.Unmarshal(o.Parameters.Raw, &oldValue) == nil && reflect.DeepEqual(value, oldValue)
		}
		if same {
			r.used[i] = true
			return true
		}
	}
	return false
}

// maxWarning is the longest warning the handler returns: the API server
// passes warnings on as HTTP headers, and kubectl prints each on a line.
const maxWarning = 512

// shorten cuts a warning to maxWarning bytes, on a rune boundary.
func shorten(s string) string {
	if len(s) <= maxWarning {
		return s
	}
	cut := maxWarning - len("...")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// badRequest refuses a review the handler cannot judge: never an allow
// by accident.
func badRequest(resp *admissionv1.AdmissionResponse, msg string) *admissionv1.AdmissionResponse {
	resp.Allowed = false
	status := apierrors.NewBadRequest(msg).ErrStatus
	resp.Result = &status
	return resp
}
