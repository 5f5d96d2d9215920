package validation

import (
	"errors"
	"fmt"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/internal/quantityguard"
)

// Options tune the validation.
type Options struct {
	// Strict additionally rejects what the release accepts only by accident
	// (the quirks listed in the package documentation). Errors that only
	// Strict reports say so in their message.
	Strict bool
	// FeatureGates are the cluster's DRA feature gates, for the versions
	// checked with the rules of 1.37 (v1beta1, v1beta2, v1 and v1alpha3's
	// DeviceTaintRule and ResourcePoolStatusRequest). The zero value is
	// the gates' 1.37 defaults.
	FeatureGates features.Gates
	// NamespaceLabels returns the labels of a namespace, for the 1.37
	// admin-access rule (a request or result with adminAccess needs the
	// namespace label resource.kubernetes.io/admin-access: "true"). Nil
	// skips the rule for every namespace; an error that wraps
	// ErrNamespaceUnknown skips it for that namespace (the caller does
	// not know it, which is not the server's "cannot read it"). Any other
	// error is reported as the server reports a failed lookup: an
	// InternalError on the adminAccess field.
	NamespaceLabels func(namespace string) (map[string]string, error)
}

// ErrNamespaceUnknown is what Options.NamespaceLabels returns (wrapped or
// not) for a namespace whose labels the caller does not know, so that the
// admin-access rule is skipped for it instead of failing.
var ErrNamespaceUnknown = errors.New("namespace unknown")

// DefaultNamespace is the namespace the validators assume for a namespaced
// object that names none, as the API server takes it from the request.
const DefaultNamespace = metav1.NamespaceDefault

// ValidateObject validates a typed versioned object (any kind of any
// version, or a List of them) as the API server of its release validates
// a create.
func ValidateObject(obj runtime.Object, opts Options) field.ErrorList {
	errs, _ := dispatch(obj, nil, opCreate, opts)
	return errs
}

// ValidateObjectUpdate validates an update (main resource) of old to obj,
// same version and kind.
func ValidateObjectUpdate(obj, old runtime.Object, opts Options) field.ErrorList {
	errs, _ := dispatch(obj, old, opUpdate, opts)
	return errs
}

// ValidateObjectStatusUpdate validates a /status update (kinds with status
// only).
func ValidateObjectStatusUpdate(obj, old runtime.Object, opts Options) field.ErrorList {
	errs, _ := dispatch(obj, old, opStatus, opts)
	return errs
}

// ValidateObjectWithWarnings is ValidateObject that also returns the fields
// the server would drop before validating, because the feature gate that
// covers them is off in Options.FeatureGates (1.37 rules only: the older
// releases' rules drop nothing). A dropped field is not validated, as on
// the server, which drops it silently: the warnings are how a user learns
// that the cluster would lose it. Each warning names the field by its path
// in obj's own version (v1beta1's requests[i].adminAccess, not v1's
// requests[i].exactly.adminAccess); items of a List are prefixed with
// items[i].
func ValidateObjectWithWarnings(obj runtime.Object, opts Options) (field.ErrorList, []DropWarning) {
	return dispatch(obj, nil, opCreate, opts)
}

// ValidateObjectUpdateWithWarnings is ValidateObjectUpdate with the
// warnings of ValidateObjectWithWarnings. A field that old already uses is
// kept whatever the gates say, as on the server.
func ValidateObjectUpdateWithWarnings(obj, old runtime.Object, opts Options) (field.ErrorList, []DropWarning) {
	return dispatch(obj, old, opUpdate, opts)
}

// ValidateObjectStatusUpdateWithWarnings is ValidateObjectStatusUpdate with
// the warnings of ValidateObjectWithWarnings; for a claim these include
// the status.devices entries the server prunes because the update
// deallocates their device (DropWarning.Reason says so).
func ValidateObjectStatusUpdateWithWarnings(obj, old runtime.Object, opts Options) (field.ErrorList, []DropWarning) {
	return dispatch(obj, old, opStatus, opts)
}

type operation int

const (
	opCreate operation = iota
	opUpdate
	opStatus
)

func (op operation) String() string {
	return [...]string{"create", "update", "status update"}[op]
}

// object is what every kind of the group is: a runtime.Object with
// ObjectMeta.
type object interface {
	runtime.Object
	metav1.Object
}

// rules describe one kind of one version: how the API server prepares the
// object it received (defaults, fields it drops or resets) and the
// validation its strategy runs. obj and old are always private copies.
type rules[T object] struct {
	namespaced bool
	// defaults applies the version's defaulting functions, as decoding does.
	defaults func(T)
	// prepareCreate, prepareUpdate and prepareStatus are the strategy's
	// PrepareFor* steps; nil means nothing to do.
	prepareCreate func(T)
	prepareUpdate func(obj, old T)
	prepareStatus func(obj, old T)
	// create, update and status are the strategy's validations. status is
	// nil for kinds without a status subresource.
	create func(c *checker, obj T) field.ErrorList
	update func(c *checker, obj, old T) field.ErrorList
	status func(c *checker, obj, old T) field.ErrorList
	// resetMetaForStatus is set from 1.30 on: a status update keeps the
	// stored labels, annotations, finalizers and owner references.
	resetMetaForStatus bool
	// drop clears the fields whose feature gate is off, as the 1.37
	// strategies' PrepareForCreate (old is T's zero value) and
	// PrepareForUpdate do; dropStatus is the status strategy's. Nil:
	// nothing is gated.
	drop       func(c *checker, obj, old T) []DropWarning
	dropStatus func(c *checker, obj, old T) []DropWarning
	// unconditionalUpdate is the strategy's AllowUnconditionalUpdate for a
	// request in the given version; when it says no, an update without
	// metadata.resourceVersion is refused before anything is validated.
	// Nil allows it for every version.
	unconditionalUpdate func(version string) bool
}

// kindRules is rules with the type erased, for the registry. version is
// the version the client sent the object in, which can differ from obj's
// when another version's rules are borrowed (registerViaV1); defaulted
// says that the objects were already defaulted in that version, so that
// obj's own defaults must not run again.
type kindRules struct {
	release  release
	validate func(obj, old runtime.Object, op operation, opts Options, version string, defaulted bool) (field.ErrorList, []DropWarning)
}

var (
	registry     = map[reflect.Type]kindRules{}
	listRegistry = map[reflect.Type]func(runtime.Object) []runtime.Object{}
)

func register[T object](r rules[T]) {
	var zero T
	rel := rulesOf(reflect.TypeOf(zero))
	own := gvkOf(reflect.TypeOf(zero)).Version
	registry[reflect.TypeOf(zero)] = kindRules{release: rel, validate: func(obj, old runtime.Object, op operation, opts Options, version string, defaulted bool) (field.ErrorList, []DropWarning) {
		if version == "" {
			version = own
		}
		o := obj.DeepCopyObject().(T)
		var prev T
		if old != nil {
			p, ok := old.(T)
			if !ok {
				return field.ErrorList{mismatch(obj, old)}, nil
			}
			prev = p.DeepCopyObject().(T)
		}
		run := r // a copy: r is shared by every call
		if defaulted {
			run.defaults = nil
		}
		return run.run(o, prev, op, opts, rel, version)
	}}
}

func registerList[L runtime.Object, T object](items func(L) []T) {
	var zero L
	listRegistry[reflect.TypeOf(zero)] = func(list runtime.Object) []runtime.Object {
		ts := items(list.(L))
		out := make([]runtime.Object, len(ts))
		for i, t := range ts {
			out[i] = t
		}
		return out
	}
}

// rulesOf is the release whose rules apply to a versioned type: the
// catalogue's Rules of its version. Rules are registered at init for this
// module's own types, so a type outside the catalogue is a bug here, not bad
// input.
func rulesOf(t reflect.Type) release {
	gvk := gvkOf(t)
	v, err := catalogue.Lookup(gvk.Version)
	if err != nil {
		panic(fmt.Sprintf("validation: rules registered for %v: %v", t, err))
	}
	k, ok := v.Kind(gvk.Kind)
	if !ok {
		panic(fmt.Sprintf("validation: rules registered for %v, which the catalogue does not list in %s", t, v.Name))
	}
	return release(fmt.Sprintf("1.%d", v.RulesOf(k)))
}

// gvkOf is the kind of a registered versioned type (a pointer type).
func gvkOf(t reflect.Type) schema.GroupVersionKind {
	gvks, _, err := conversion.Scheme.ObjectKinds(reflect.New(t.Elem()).Interface().(runtime.Object))
	if err != nil {
		panic(fmt.Sprintf("validation: rules registered for %v, which the scheme does not know: %v", t, err))
	}
	return gvks[0]
}

func itemPointers[T any](items []T) []*T {
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}

// run prepares the copies as the API server prepares a request and then
// validates them. version is the version the client sent obj in.
func (r rules[T]) run(obj, old T, op operation, opts Options, rel release, version string) (field.ErrorList, []DropWarning) {
	c := &checker{opts: opts, release: rel, cel: newCELCompiler()}
	if errs := outOfBoundQuantities(obj, old, op); len(errs) > 0 {
		// The rules compare quantities (ranges, capacities, old with new),
		// which beyond the bound could take unbounded time: refuse first.
		return errs, nil
	}
	if r.defaults != nil {
		r.defaults(obj)
		if op != opCreate {
			r.defaults(old)
		}
	}
	if op != opCreate && r.unconditionalUpdate != nil && !r.unconditionalUpdate(version) {
		if err := requireResourceVersion(metaOf(obj)); err != nil {
			return field.ErrorList{err}, nil
		}
	}
	var warnings []DropWarning
	switch op {
	case opCreate:
		prepareCreateMeta(obj, r.namespaced)
		if r.prepareCreate != nil {
			r.prepareCreate(obj)
		}
		if r.drop != nil {
			var none T
			warnings = r.drop(c, obj, none)
		}
		return r.create(c, obj), warnings
	case opUpdate:
		prepareUpdateMeta(obj, old, r.namespaced)
		if r.prepareUpdate != nil {
			r.prepareUpdate(obj, old)
		}
		if r.drop != nil {
			warnings = r.drop(c, obj, old)
		}
		errs := genericMetaUpdate(metaOf(obj), metaOf(old), r.namespaced)
		return append(errs, r.update(c, obj, old)...), warnings
	default:
		if r.status == nil {
			return field.ErrorList{field.NotFound(field.NewPath("status"), fmt.Sprintf("%s has no status subresource", kindName(obj)))}, nil
		}
		prepareUpdateMeta(obj, old, r.namespaced)
		if r.prepareStatus != nil {
			r.prepareStatus(obj, old)
		}
		if r.resetMetaForStatus {
			metav1.ResetObjectMetaForStatus(obj, old)
		}
		if r.dropStatus != nil {
			warnings = r.dropStatus(c, obj, old)
		}
		errs := genericMetaUpdate(metaOf(obj), metaOf(old), r.namespaced)
		return append(errs, r.status(c, obj, old)...), warnings
	}
}

// outOfBoundQuantities reports every quantity of obj, and of old unless
// op is a create, beyond quantityguard's bound (a deviation from upstream,
// always on; see the package documentation). The stored object's are
// reported under their own paths, with "stored object: " before the
// detail.
func outOfBoundQuantities[T object](obj, old T, op operation) field.ErrorList {
	errs := quantityguard.CheckFields(obj, nil)
	if op != opCreate {
		for _, e := range quantityguard.CheckFields(old, nil) {
			e.Detail = "stored object: " + e.Detail
			errs = append(errs, e)
		}
	}
	return errs
}

// requireResourceVersion is the generic registry's refusal of an update
// without metadata.resourceVersion when the strategy does not allow
// unconditional updates (k8s.io/apiserver's Store.Update). The server
// checks it before preparing or validating anything and reports it as an
// Invalid of the resource, with the parsed version (0) as the value.
func requireResourceVersion(m *metav1.ObjectMeta) *field.Error {
	if m.ResourceVersion != "" && m.ResourceVersion != "0" {
		return nil
	}
	return field.Invalid(field.NewPath("metadata", "resourceVersion"), uint64(0), "must be specified for an update")
}

func metaOf(obj object) *metav1.ObjectMeta {
	return obj.(metav1.ObjectMetaAccessor).GetObjectMeta().(*metav1.ObjectMeta)
}

// prepareCreateMeta does what the API server does to the metadata of a
// create before validating it: a namespaced object without namespace gets
// the request's (DefaultNamespace here), a cluster-scoped one loses its
// namespace, generateName becomes a name, and managedFields are the server's
// business.
func prepareCreateMeta(obj object, namespaced bool) {
	m := metaOf(obj)
	if !namespaced {
		m.Namespace = ""
	} else if m.Namespace == "" {
		m.Namespace = DefaultNamespace
	}
	if m.Name == "" && m.GenerateName != "" {
		base := m.GenerateName
		if len(base) > GeneratedNameMaxBaseLength {
			base = base[:GeneratedNameMaxBaseLength]
		}
		// The server appends random lower-case letters and digits; any
		// such suffix gives the same validation outcome.
		m.Name = base + "bcdfg"[:GeneratedNameRandomLength]
	}
	m.ManagedFields = nil
}

// prepareUpdateMeta does what the API server does to the metadata of an
// update: the namespace comes from the request (the stored object's), the
// generation cannot be changed by the client, and a missing uid,
// resourceVersion, creation or deletion timestamp is taken from the stored
// object.
func prepareUpdateMeta(obj, old object, namespaced bool) {
	m, o := metaOf(obj), metaOf(old)
	if !namespaced {
		m.Namespace = ""
		o.Namespace = ""
	} else {
		if o.Namespace == "" {
			o.Namespace = DefaultNamespace
		}
		if m.Namespace == "" {
			m.Namespace = o.Namespace
		}
	}
	if o.ResourceVersion == "" {
		// The old object did not come from a server; any version will do,
		// as a mismatch is a conflict, not a validation error.
		o.ResourceVersion = "1"
	}
	if m.ResourceVersion == "" {
		// An unconditional update: allowed unless the strategy says
		// otherwise, which run checked before (requireResourceVersion).
		m.ResourceVersion = o.ResourceVersion
	}
	m.Generation = o.Generation
	if m.UID == "" {
		m.UID = o.UID
	}
	if !o.CreationTimestamp.IsZero() {
		m.CreationTimestamp = o.CreationTimestamp
	}
	if !o.DeletionTimestamp.IsZero() {
		m.DeletionTimestamp = o.DeletionTimestamp
	}
	if o.DeletionGracePeriodSeconds != nil && m.DeletionGracePeriodSeconds == nil {
		m.DeletionGracePeriodSeconds = o.DeletionGracePeriodSeconds
	}
	m.ManagedFields = nil
}

// dispatch finds the rules for obj and runs them, item by item for a List.
func dispatch(obj, old runtime.Object, op operation, opts Options) (field.ErrorList, []DropWarning) {
	if isNil(obj) {
		return field.ErrorList{field.Required(nil, fmt.Sprintf("an object to %s is required", op))}, nil
	}
	if op != opCreate && isNil(old) {
		return field.ErrorList{field.Required(nil, fmt.Sprintf("the stored object is required for a validation of the %s", op))}, nil
	}
	if list, ok := obj.(*metav1.List); ok {
		return validateRawList(list, old, op, opts)
	}
	t, err := typed(obj)
	if err != nil {
		return field.ErrorList{field.Invalid(field.NewPath("kind"), kindName(obj), err.Error())}, nil
	}
	obj = t
	if old != nil {
		t, err := typed(old)
		if err != nil {
			return field.ErrorList{field.Invalid(field.NewPath("kind"), kindName(old), "stored object: "+err.Error())}, nil
		}
		old = t
	}
	if items, ok := listRegistry[reflect.TypeOf(obj)]; ok {
		oldItems, err := listItemsOf(old)
		if err != nil {
			return field.ErrorList{mismatch(obj, old)}, nil
		}
		return validateList(items(obj), oldItems, op, opts)
	}
	r, ok := registry[reflect.TypeOf(obj)]
	if !ok {
		return field.ErrorList{unsupported(obj)}, nil
	}
	errs, warnings := r.validate(obj, old, op, opts, "", false)
	return dedupe(errs), warnings
}

// isNil reports a nil interface or a nil pointer in a non-nil interface.
func isNil(obj runtime.Object) bool {
	if obj == nil {
		return true
	}
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

func listItemsOf(old runtime.Object) ([]runtime.Object, error) {
	if old == nil {
		return nil, nil
	}
	if items, ok := listRegistry[reflect.TypeOf(old)]; ok {
		return items(old), nil
	}
	if list, ok := old.(*metav1.List); ok {
		return decodeRawItems(list)
	}
	return nil, fmt.Errorf("not a List")
}

// validateRawList validates a v1 List (kind: List), whose items may be of
// any kind and version, each decoded on its own.
func validateRawList(list *metav1.List, old runtime.Object, op operation, opts Options) (field.ErrorList, []DropWarning) {
	items, err := decodeRawItems(list)
	if err != nil {
		return field.ErrorList{field.Invalid(field.NewPath("items"), "<value omitted>", err.Error())}, nil
	}
	oldItems, err := listItemsOf(old)
	if err != nil {
		return field.ErrorList{mismatch(list, old)}, nil
	}
	return validateList(items, oldItems, op, opts)
}

// decodeRawItems decodes the items of a v1 List that are still raw.
func decodeRawItems(list *metav1.List) ([]runtime.Object, error) {
	out := make([]runtime.Object, len(list.Items))
	decoder := conversion.Codecs.UniversalDeserializer()
	for i, item := range list.Items {
		if item.Object != nil {
			out[i] = item.Object
			continue
		}
		obj, _, err := decoder.Decode(item.Raw, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("item %d: %v", i, err)
		}
		out[i] = obj
	}
	return out, nil
}

// validateList validates every item of a List. For updates the stored List
// must have the same length: item i is an update of stored item i.
func validateList(items, oldItems []runtime.Object, op operation, opts Options) (field.ErrorList, []DropWarning) {
	if op != opCreate && len(oldItems) != len(items) {
		return field.ErrorList{field.Invalid(field.NewPath("items"), len(items),
			fmt.Sprintf("the %s of a List needs a stored List of the same length (%d items)", op, len(oldItems)))}, nil
	}
	var errs field.ErrorList
	var warnings []DropWarning
	for i, item := range items {
		var prev runtime.Object
		if op != opCreate {
			prev = oldItems[i]
		}
		at := field.NewPath("items").Index(i)
		itemErrs, itemWarnings := dispatch(item, prev, op, opts)
		errs = append(errs, prefixed(itemErrs, at)...)
		for _, w := range itemWarnings {
			w.Path = at.String() + "." + w.Path
			warnings = append(warnings, w)
		}
	}
	return errs, warnings
}

// typed returns obj as a typed object of this module's versioned packages:
// unchanged if it already is one, converted if it is Unstructured.
func typed(obj runtime.Object) (runtime.Object, error) {
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		gvk := o.GroupVersionKind()
		typedObj, err := conversion.Scheme.New(gvk)
		if err != nil {
			return nil, fmt.Errorf("%s is not a kind of resource.k8s.io %s: %v", gvk, catalogue.Names(), err)
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(o.Object, typedObj, true); err != nil {
			return nil, fmt.Errorf("%s %q cannot be read: %v", gvk.Kind, o.GetName(), err)
		}
		return typedObj, nil
	case *unstructured.UnstructuredList:
		return nil, fmt.Errorf("an UnstructuredList cannot be validated as a whole; validate its items")
	}
	return obj, nil
}

func kindName(obj runtime.Object) string {
	if obj == nil {
		return "<nil>"
	}
	if gvk := obj.GetObjectKind().GroupVersionKind(); gvk.Kind != "" {
		return gvk.String()
	}
	return reflect.TypeOf(obj).String()
}

func unsupported(obj runtime.Object) *field.Error {
	return field.Invalid(field.NewPath("kind"), kindName(obj),
		"not a versioned resource.k8s.io object ("+catalogue.Names()+" of github.com/drakit/drakit/apis/resource); convert hub objects to the version served by the target release first")
}

func mismatch(obj, old runtime.Object) *field.Error {
	return field.Invalid(field.NewPath("kind"), kindName(obj),
		fmt.Sprintf("the stored object is a %s; an update keeps kind and version", kindName(old)))
}
