package driverconfig

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	jsonserializer "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// DecodeOptions are the options of one decoding.
type DecodeOptions struct {
	// Strict refuses unknown fields and fields given twice. Admission and
	// NodePrepareResources decode strictly (user input); a driver reading
	// its own checkpoint, written by an older or newer version of itself,
	// does not (Registry.NonStrict).
	Strict bool
}

// Decoder decodes and validates the parameters of one driver's configs.
// It returns the typed config, or nil if it has no Go type for it (a
// schema validator), and the errors found, each under cfg.Path or a path
// below it. It is called concurrently.
type Decoder interface {
	Decode(ctx context.Context, cfg Config, opts DecodeOptions) (runtime.Object, field.ErrorList)
}

// DecoderFunc is a function that is a Decoder.
type DecoderFunc func(ctx context.Context, cfg Config, opts DecodeOptions) (runtime.Object, field.ErrorList)

// Decode calls f.
func (f DecoderFunc) Decode(ctx context.Context, cfg Config, opts DecodeOptions) (runtime.Object, field.ErrorList) {
	return f(ctx, cfg, opts)
}

// ValidateFunc validates raw parameters with no Go type: a schema
// validator. cfg.Parameters.Raw holds the parameters' JSON; errors are
// under cfg.Path or below it.
type ValidateFunc func(ctx context.Context, cfg Config) field.ErrorList

// Validator is the Decoder of a ValidateFunc: it decodes to nothing and
// returns f's errors. The decoding options are f's to ignore: a schema
// says itself whether unknown fields are allowed.
func Validator(f ValidateFunc) Decoder {
	return DecoderFunc(func(ctx context.Context, cfg Config, _ DecodeOptions) (runtime.Object, field.ErrorList) {
		return nil, f(ctx, cfg)
	})
}

// ValidateObjectFunc validates a decoded config; path is the config's
// Path.
type ValidateObjectFunc func(ctx context.Context, obj runtime.Object, path *field.Path) field.ErrorList

// NewSchemeDecoder is the Decoder of a driver whose config types are in
// scheme: the parameters' apiVersion and kind pick the type, and
// apimachinery's JSON serializer decodes them (strictly when asked: no
// unknown field, no field twice), the scheme's defaulters default the
// object, and validate (if not nil) validates it. Parameters of a kind the
// scheme lacks, or without apiVersion and kind, are an error at the
// config's path that names the kinds the scheme has.
func NewSchemeDecoder(s *runtime.Scheme, validate ValidateObjectFunc) Decoder {
	d := &schemeDecoder{scheme: s, validate: validate}
	d.strict = jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, s, s, jsonserializer.SerializerOptions{Strict: true})
	d.lenient = jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, s, s, jsonserializer.SerializerOptions{})
	var kinds []string
	for gvk := range s.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || gvk.Group == "" && gvk.Version == "v1" || strings.HasSuffix(gvk.Kind, "Options") || gvk.Kind == "WatchEvent" {
			continue
		}
		kinds = append(kinds, gvk.GroupVersion().String()+", Kind="+gvk.Kind)
	}
	sort.Strings(kinds)
	d.known = strings.Join(kinds, "; ")
	return d
}

type schemeDecoder struct {
	scheme          *runtime.Scheme
	strict, lenient *jsonserializer.Serializer
	validate        ValidateObjectFunc
	known           string
}

func (d *schemeDecoder) Decode(ctx context.Context, cfg Config, opts DecodeOptions) (runtime.Object, field.ErrorList) {
	dec := d.lenient
	if opts.Strict {
		dec = d.strict
	}
	if !isObject(cfg.Parameters.Raw) {
		return nil, field.ErrorList{field.Invalid(cfg.Path, field.OmitValueType{}, fmt.Sprintf("the parameters of driver %s must be a JSON object with apiVersion and kind (it knows %s)", cfg.Driver, d.known))}
	}
	obj, gvk, err := dec.Decode(cfg.Parameters.Raw, nil, nil)
	switch {
	case err == nil:
	case runtime.IsNotRegisteredError(err):
		return nil, field.ErrorList{field.Invalid(cfg.Path, field.OmitValueType{}, fmt.Sprintf("driver %s has no config of apiVersion %q and kind %q (it knows %s)", cfg.Driver, gvk.GroupVersion().String(), gvk.Kind, d.known))}
	case runtime.IsMissingKind(err) || runtime.IsMissingVersion(err):
		return nil, field.ErrorList{field.Invalid(cfg.Path, field.OmitValueType{}, fmt.Sprintf("the parameters of driver %s need apiVersion and kind (it knows %s)", cfg.Driver, d.known))}
	case runtime.IsStrictDecodingError(err):
		return nil, field.ErrorList{field.Invalid(cfg.Path, field.OmitValueType{}, fmt.Sprintf("decoding the parameters of driver %s strictly: %v", cfg.Driver, err))}
	default:
		return nil, field.ErrorList{field.Invalid(cfg.Path, field.OmitValueType{}, fmt.Sprintf("decoding the parameters of driver %s: %v", cfg.Driver, err))}
	}
	d.scheme.Default(obj)
	if d.validate == nil {
		return obj, nil
	}
	return obj, d.validate(ctx, obj, cfg.Path)
}

// isObject says whether raw starts as a JSON object does.
func isObject(raw []byte) bool {
	for _, b := range raw {
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return b == '{'
	}
	return false
}

// Registry holds the Decoder of each driver name. A driver registers one
// Decoder under each of its names (a driver with two names, such as a GPU
// and a compute-domain driver in one binary, registers both, so that
// neither name's configs go unchecked). Configs of drivers not
// registered are skipped by Validate and ValidateConfigs: they are other
// drivers' business.
//
// A Registry decodes strictly; NonStrict gives a view of the same
// decoders that does not. A Registry is safe for concurrent use;
// Register may be called while others decode.
type Registry struct {
	state  *registryState
	strict bool
}

type registryState struct {
	mu       sync.RWMutex
	decoders map[string]Decoder
}

// NewRegistry returns an empty, strict Registry.
func NewRegistry() *Registry {
	return &Registry{state: &registryState{decoders: map[string]Decoder{}}, strict: true}
}

// Register registers d for the configs of each driver name. A name must be
// a DNS subdomain (the API server's rule for driver names) and may be
// registered once.
func (r *Registry) Register(d Decoder, driverNames ...string) error {
	if d == nil {
		return fmt.Errorf("driverconfig: Register: the decoder of %v is nil", driverNames)
	}
	if len(driverNames) == 0 {
		return fmt.Errorf("driverconfig: Register: no driver name given")
	}
	for _, name := range driverNames {
		if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
			return fmt.Errorf("driverconfig: Register: driver name %q is not a DNS subdomain: %s", name, strings.Join(errs, "; "))
		}
	}
	r.state.mu.Lock()
	defer r.state.mu.Unlock()
	for i, name := range driverNames {
		if _, ok := r.state.decoders[name]; ok || slices.Contains(driverNames[:i], name) {
			return fmt.Errorf("driverconfig: Register: driver %s is already registered", name)
		}
	}
	for _, name := range driverNames {
		r.state.decoders[name] = d
	}
	return nil
}

// MustRegister is Register that panics on error, for a driver's setup.
func (r *Registry) MustRegister(d Decoder, driverNames ...string) {
	if err := r.Register(d, driverNames...); err != nil {
		panic(err)
	}
}

// NonStrict returns a view of r that decodes without strictness, for a
// driver's checkpoints. Registering through either registers in both.
func (r *Registry) NonStrict() *Registry {
	return &Registry{state: r.state, strict: false}
}

// Strict says whether r decodes strictly.
func (r *Registry) Strict() bool { return r.strict }

// Drivers are the registered driver names, sorted.
func (r *Registry) Drivers() []string {
	r.state.mu.RLock()
	defer r.state.mu.RUnlock()
	names := make([]string, 0, len(r.state.decoders))
	for name := range r.state.decoders {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Handles says whether a Decoder is registered for the driver.
func (r *Registry) Handles(driver string) bool {
	_, ok := r.decoder(driver)
	return ok
}

func (r *Registry) decoder(driver string) (Decoder, bool) {
	r.state.mu.RLock()
	d, ok := r.state.decoders[driver]
	r.state.mu.RUnlock()
	return d, ok
}

// Decode decodes and validates one config with its driver's Decoder. A
// config of a driver not registered is an error (Validate skips those). A
// Decoder that panics is an internal error at the config's path, not a
// panic of the caller.
func (r *Registry) Decode(ctx context.Context, cfg Config) (obj runtime.Object, errs field.ErrorList) {
	d, ok := r.decoder(cfg.Driver)
	if !ok {
		return nil, field.ErrorList{field.Invalid(cfg.Path, field.OmitValueType{}, fmt.Sprintf("no decoder is registered for driver %q (registered: %s)", cfg.Driver, strings.Join(r.Drivers(), ", ")))}
	}
	if len(cfg.Parameters.Raw) == 0 && cfg.Parameters.Object != nil {
		raw, err := json.Marshal(cfg.Parameters.Object)
		if err != nil {
			return nil, field.ErrorList{field.Invalid(cfg.Path, field.OmitValueType{}, fmt.Sprintf("encoding the parameters' object: %v", err))}
		}
		cfg.Parameters.Raw = raw
	}
	defer func() {
		if p := recover(); p != nil {
			obj = nil
			errs = field.ErrorList{field.InternalError(cfg.Path, fmt.Errorf("the decoder of driver %s panicked: %v", cfg.Driver, p))}
		}
	}()
	return d.Decode(ctx, cfg, DecodeOptions{Strict: r.strict})
}

// ValidateConfigs decodes and validates every config of a registered
// driver, and skips the others.
func (r *Registry) ValidateConfigs(ctx context.Context, cfgs []Config) field.ErrorList {
	var errs field.ErrorList
	for i := range cfgs {
		if !r.Handles(cfgs[i].Driver) {
			continue
		}
		_, e := r.Decode(ctx, cfgs[i])
		errs = append(errs, e...)
	}
	return errs
}

// Validate validates the configs of the registered drivers in obj (any
// object Configs reads). The error is Configs' for an object it cannot
// read.
func (r *Registry) Validate(ctx context.Context, obj runtime.Object) (field.ErrorList, error) {
	cfgs, err := Configs(obj)
	if err != nil {
		return nil, err
	}
	return r.ValidateConfigs(ctx, cfgs), nil
}
