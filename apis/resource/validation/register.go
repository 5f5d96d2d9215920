package validation

import (
	"fmt"
	"reflect"

	resourcev1 "k8s.io/api/resource/v1"
	resourcev1alpha3 "k8s.io/api/resource/v1alpha3"
	"k8s.io/api/resource/v1beta1"
	"k8s.io/api/resource/v1beta2"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/v1alpha3/kubeapi"
	drakitv1beta1 "github.com/drakit/drakit/apis/resource/v1beta1"
	"github.com/drakit/drakit/conversion"
)

// The kinds checked with the rules of Kubernetes 1.37. A 1.37 API server
// converts whatever version it receives to its internal form, which has v1's
// shape, and validates that; so do these validators: an object of v1beta1,
// v1beta2 or v1alpha3 (DeviceTaintRule) is defaulted as its version
// defaults when decoded, converted to v1 and validated with v1's rules, and
// its errors carry v1's field paths, which are the paths of
// the server's handwritten validation. (The server's declarative validation
// runs on the versioned object and reports v1beta1's own paths where they
// differ; hack/e2e measures where that shows.)
func init() {
	rulesV1(envV1{compileCEL: compileWithCEL, fromOptions: true}).register()

	// v1beta1's defaults differ from v1's (a request without
	// deviceClassName keeps an empty allocationMode), so v1beta1 objects
	// are defaulted as v1beta1 before the conversion, as decoding does.
	registerViaV1(drakitv1beta1.SetObjectDefaults_ResourceClaim)
	registerViaV1(drakitv1beta1.SetObjectDefaults_ResourceClaimTemplate)
	registerViaV1(func(*v1beta1.DeviceClass) {}) // no defaults in any version
	registerViaV1(drakitv1beta1.SetObjectDefaults_ResourceSlice)
	registerList(func(l *v1beta1.ResourceClaimList) []*v1beta1.ResourceClaim { return itemPointers(l.Items) })
	registerList(func(l *v1beta1.ResourceClaimTemplateList) []*v1beta1.ResourceClaimTemplate {
		return itemPointers(l.Items)
	})
	registerList(func(l *v1beta1.DeviceClassList) []*v1beta1.DeviceClass { return itemPointers(l.Items) })
	registerList(func(l *v1beta1.ResourceSliceList) []*v1beta1.ResourceSlice { return itemPointers(l.Items) })

	// v1beta2's and v1alpha3's defaults are v1's, applied after the
	// conversion.
	registerViaV1[*v1beta2.ResourceClaim](nil)
	registerViaV1[*v1beta2.ResourceClaimTemplate](nil)
	registerViaV1[*v1beta2.DeviceClass](nil)
	registerViaV1[*v1beta2.ResourceSlice](nil)
	registerViaV1[*v1beta2.DeviceTaintRule](nil)
	registerList(func(l *v1beta2.ResourceClaimList) []*v1beta2.ResourceClaim { return itemPointers(l.Items) })
	registerList(func(l *v1beta2.ResourceClaimTemplateList) []*v1beta2.ResourceClaimTemplate {
		return itemPointers(l.Items)
	})
	registerList(func(l *v1beta2.DeviceClassList) []*v1beta2.DeviceClass { return itemPointers(l.Items) })
	registerList(func(l *v1beta2.ResourceSliceList) []*v1beta2.ResourceSlice { return itemPointers(l.Items) })
	registerList(func(l *v1beta2.DeviceTaintRuleList) []*v1beta2.DeviceTaintRule { return itemPointers(l.Items) })

	registerViaV1[*resourcev1alpha3.DeviceTaintRule](nil)
	registerList(func(l *resourcev1alpha3.DeviceTaintRuleList) []*resourcev1alpha3.DeviceTaintRule {
		return itemPointers(l.Items)
	})

	register(rules[*resourcev1alpha3.ResourcePoolStatusRequest]{
		resetMetaForStatus: true,
		defaults: func(o *resourcev1alpha3.ResourcePoolStatusRequest) {
			kubeapi.SetObjectDefaults_ResourcePoolStatusRequest(o)
		},
		prepareCreate: func(o *resourcev1alpha3.ResourcePoolStatusRequest) { o.Status = nil },
		prepareUpdate: func(o, old *resourcev1alpha3.ResourcePoolStatusRequest) { o.Status = old.Status },
		prepareStatus: func(o, old *resourcev1alpha3.ResourcePoolStatusRequest) { o.Spec = old.Spec },
		drop: func(c *checker, o, old *resourcev1alpha3.ResourcePoolStatusRequest) []DropWarning {
			return DropDisabledResourcePoolStatusRequestFieldsV1alpha3(o, old, c.opts.FeatureGates)
		},
		// Its storage never allows an unconditional update.
		unconditionalUpdate: func(string) bool { return false },
		create: func(c *checker, o *resourcev1alpha3.ResourcePoolStatusRequest) field.ErrorList {
			return validateResourcePoolStatusRequestV1alpha3(c, o)
		},
		update: func(c *checker, o, old *resourcev1alpha3.ResourcePoolStatusRequest) field.ErrorList {
			errs := objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)
			return append(errs, immutable(o.Spec, old.Spec, field.NewPath("spec"))...)
		},
		status: func(c *checker, o, old *resourcev1alpha3.ResourcePoolStatusRequest) field.ErrorList {
			return validateResourcePoolStatusRequestStatusUpdateV1alpha3(o, old)
		},
	})
	registerList(func(l *resourcev1alpha3.ResourcePoolStatusRequestList) []*resourcev1alpha3.ResourcePoolStatusRequest {
		return itemPointers(l.Items)
	})
}

// registerViaV1 registers a kind of another version whose 1.37 rules are
// v1's: the object (and the stored one) are converted to v1 and validated
// by v1's registered rules, with the caller's options and this version as
// the request's (some strategies look at it). Errors keep v1's paths, as
// the server's handwritten validation reports them, except those of
// v1beta1 that the server's declarative validation reports under
// v1beta1's paths (v1beta1DeclarativePathsV1); the drop warnings, which
// the server does not send at all, name the field as the user wrote it
// (v1PathInVersion).
//
// defaults, when not nil, are the version's own defaulting functions: they
// run on copies of the objects before the conversion (on the stored one
// too, except for a create) and v1's do not run after it. Nil leaves the
// defaulting to v1's functions, for versions whose defaults are v1's.
func registerViaV1[T object](defaults func(T)) {
	var zero T
	t := reflect.TypeOf(zero)
	gvk := gvkOf(t)
	registry[t] = kindRules{release: rulesOf(t), validate: func(obj, old runtime.Object, op operation, opts Options, version string, _ bool) (field.ErrorList, []DropWarning) {
		if version == "" {
			version = gvk.Version
		}
		if old != nil && reflect.TypeOf(old) != t {
			return field.ErrorList{mismatch(obj, old)}, nil
		}
		if defaults != nil {
			o := obj.DeepCopyObject().(T)
			defaults(o)
			obj = o
			if old != nil && op != opCreate {
				prev := old.DeepCopyObject().(T)
				defaults(prev)
				old = prev
			}
		}
		v1obj, err := conversion.Convert(obj, resourcev1.SchemeGroupVersion)
		if err != nil {
			return field.ErrorList{field.InternalError(nil, fmt.Errorf("converting to v1 for the 1.37 rules: %w", err))}, nil
		}
		var v1old runtime.Object
		if old != nil {
			if v1old, err = conversion.Convert(old, resourcev1.SchemeGroupVersion); err != nil {
				return field.ErrorList{field.InternalError(nil, fmt.Errorf("converting the stored object to v1 for the 1.37 rules: %w", err))}, nil
			}
		}
		r, ok := registry[reflect.TypeOf(v1obj)]
		if !ok {
			return field.ErrorList{unsupported(v1obj)}, nil
		}
		errs, warnings := r.validate(v1obj, v1old, op, opts, version, defaults != nil)
		if gvk.Version == "v1beta1" {
			errs = v1beta1DeclarativePathsV1(v1obj, v1old, op, errs)
		}
		for i := range warnings {
			warnings[i].Path = v1PathInVersion(gvk.Version, gvk.Kind, warnings[i].Path)
		}
		return errs, warnings
	}}
}

// validateResourcePoolStatusRequestV1alpha3 is 1.37's create validation of a
// ResourcePoolStatusRequest: the object metadata (handwritten) and the spec
// rules 1.37 declares (driver name, pool name, limit between 1 and
// ResourcePoolStatusRequestLimitMax, defaultPartitionTypeAttribute).
func validateResourcePoolStatusRequestV1alpha3(c *checker, o *resourcev1alpha3.ResourcePoolStatusRequest) field.ErrorList {
	errs := objectMeta(&o.ObjectMeta, false)
	p := field.NewPath("spec")
	// The tags are required plus a format: a missing driver is only
	// Required, the format check does not run on it.
	if o.Spec.Driver == "" {
		errs = append(errs, field.Required(p.Child("driver"), ""))
	} else {
		errs = append(errs, c.validateDriverName(o.Spec.Driver, p.Child("driver"))...)
	}
	if o.Spec.PoolName != nil {
		errs = append(errs, declarativePoolNameV1(*o.Spec.PoolName, p.Child("poolName"))...)
	}
	if l := o.Spec.Limit; l != nil && (*l < 1 || *l > resourcev1alpha3.ResourcePoolStatusRequestLimitMax) {
		errs = append(errs, field.Invalid(p.Child("limit"), *l,
			fmt.Sprintf("must be between 1 and %d, inclusive", resourcev1alpha3.ResourcePoolStatusRequestLimitMax)))
	}
	if a := o.Spec.DefaultPartitionTypeAttribute; a != nil {
		// The same declarative tags as a slice's partitionTypeAttribute:
		// Forbidden while DRAPartitionableDevicesType is off (reached
		// only when the drop kept it), a fully qualified name otherwise.
		v := envV1{fromOptions: true}.on(c)
		errs = append(errs, v.declarativePartitionTypeAttributeV1(*a, p.Child("defaultPartitionTypeAttribute"))...)
	}
	return errs
}

// validateResourcePoolStatusRequestStatusUpdateV1alpha3: a status, once
// written, never changes; the first one has conditions that follow the
// metav1 rules and the declared rules of its fields.
func validateResourcePoolStatusRequestStatusUpdateV1alpha3(o, old *resourcev1alpha3.ResourcePoolStatusRequest) field.ErrorList {
	errs := objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)
	p := field.NewPath("status")
	if old.Status != nil {
		return append(errs, immutable(o.Status, old.Status, p)...)
	}
	if o.Status != nil {
		errs = append(errs, metav1validation.ValidateConditions(o.Status.Conditions, p.Child("conditions"))...)
		errs = append(errs, declarativeResourcePoolStatusRequestStatusV1alpha3(o.Status, p)...)
	}
	return errs
}
