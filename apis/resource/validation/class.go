package validation

import (
	"strings"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/validate"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// DeviceClass and DeviceTaintRule (1.37), and device taints.

// ValidateDeviceClassV1 validates a class being created.
func (c *checkerV1) ValidateDeviceClassV1(class *resourcev1.DeviceClass) field.ErrorList {
	errs := objectMeta(&class.ObjectMeta, false)
	return append(errs, c.validateDeviceClassSpecV1(&class.Spec, nil, field.NewPath("spec"))...)
}

// ValidateDeviceClassUpdateV1 validates an update: the metadata as on
// create and as an update, and the spec again.
func (c *checkerV1) ValidateDeviceClassUpdateV1(class, old *resourcev1.DeviceClass) field.ErrorList {
	errs := objectMeta(&class.ObjectMeta, false)
	errs = append(errs, objectMetaUpdate(&class.ObjectMeta, &old.ObjectMeta)...)
	return append(errs, c.validateDeviceClassSpecV1(&class.Spec, &old.Spec, field.NewPath("spec"))...)
}

// validateDeviceClassSpecV1 validates a create (old nil) or an update.
// Selectors that are exactly as before count as stored (not compiled);
// so do configurations exactly as before (their parameters are not
// limited in size). extendedResourceName must be an extended resource
// name; a new or changed one is reported with the declarative messages.
// It includes validateDeviceClassConfiguration.
func (c *checkerV1) validateDeviceClassSpecV1(spec, old *resourcev1.DeviceClassSpec, p *field.Path) field.ErrorList {
	selectorsStored := old != nil && semanticEqual(spec.Selectors, old.Selectors)
	errs := validateSliceV1(spec.Selectors, V1DeviceSelectorsMaxSize, func(s resourcev1.DeviceSelector, sp *field.Path) field.ErrorList {
		return c.validateSelectorV1(&s, sp, &deviceValidationOptionsV1{stored: selectorsStored})
	}, p.Child("selectors"))
	configStored := old != nil && semanticEqual(spec.Config, old.Config)
	errs = append(errs, validateSliceV1(spec.Config, V1DeviceConfigMaxSize, func(cfg resourcev1.DeviceClassConfiguration, cp *field.Path) field.ErrorList {
		return c.validateDeviceConfigurationV1(&cfg.DeviceConfiguration, cp, configStored, declarativeCoverage(!configStored))
	}, p.Child("config"))...)
	if name := spec.ExtendedResourceName; name != nil && !isExtendedResourceNameV1(*name) {
		ep := p.Child("extendedResourceName")
		if old == nil || old.ExtendedResourceName == nil || *old.ExtendedResourceName != *name {
			errs = append(errs, validate.ExtendedResourceName(declarativeCtx, declarativeOp, ep, name, nil)...)
		} else {
			errs = append(errs, field.Invalid(ep, *name, "must be a valid extended resource name").WithOrigin("format=k8s-extended-resource-name"))
		}
	}
	return errs
}

// isExtendedResourceNameV1 is core/v1's IsExtendedResourceName: a name
// with a domain outside kubernetes.io, not starting with "requests.", that
// is a qualified name with "requests." prepended.
func isExtendedResourceNameV1(name string) bool {
	if !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/") || strings.HasPrefix(name, "requests.") {
		return false
	}
	return len(validation.IsQualifiedName("requests."+name)) == 0
}

// ---------------------------------------------------------------------------
// DeviceTaintRule.

// ValidateDeviceTaintRuleV1 validates a rule being created.
func (c *checkerV1) ValidateDeviceTaintRuleV1(rule *resourcev1.DeviceTaintRule) field.ErrorList {
	errs := objectMeta(&rule.ObjectMeta, false)
	return append(errs, c.validateDeviceTaintRuleSpecV1(&rule.Spec, nil, field.NewPath("spec"))...)
}

// ValidateDeviceTaintRuleUpdateV1 validates an update of the main resource.
func (c *checkerV1) ValidateDeviceTaintRuleUpdateV1(rule, old *resourcev1.DeviceTaintRule) field.ErrorList {
	errs := objectMetaUpdate(&rule.ObjectMeta, &old.ObjectMeta)
	return append(errs, c.validateDeviceTaintRuleSpecV1(&rule.Spec, &old.Spec, field.NewPath("spec"))...)
}

// validateDeviceTaintRuleSpecV1 includes validateDeviceTaintSelector: the
// selector's fields are optional; driver, pool and device must be valid
// names when set.
func (c *checkerV1) validateDeviceTaintRuleSpecV1(spec, old *resourcev1.DeviceTaintRuleSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s := spec.DeviceSelector; s != nil {
		sp := p.Child("deviceSelector")
		if s.Driver != nil {
			errs = append(errs, c.validateDriverNameV1(*s.Driver, sp.Child("driver"), handwrittenOnly)...)
		}
		if s.Pool != nil {
			errs = append(errs, validatePoolNameV1(*s.Pool, sp.Child("pool"))...)
		}
		if s.Device != nil {
			errs = append(errs, dnsLabel(*s.Device, sp.Child("device"))...)
		}
	}
	var oldTaint *resourcev1.DeviceTaint
	if old != nil {
		oldTaint = &old.Taint
	}
	return append(errs, validateDeviceTaintV1(&spec.Taint, oldTaint, p.Child("taint"))...)
}

// ValidateDeviceTaintRuleStatusUpdateV1 validates a /status update: the
// conditions, at most V1DeviceTaintRuleStatusMaxConditions.
func (c *checkerV1) ValidateDeviceTaintRuleStatusUpdateV1(rule, old *resourcev1.DeviceTaintRule) field.ErrorList {
	p := field.NewPath("status", "conditions")
	errs := objectMetaUpdate(&rule.ObjectMeta, &old.ObjectMeta)
	errs = append(errs, metav1validation.ValidateConditions(rule.Status.Conditions, p)...)
	if n := len(rule.Status.Conditions); n > V1DeviceTaintRuleStatusMaxConditions {
		errs = append(errs, field.TooMany(p, n, V1DeviceTaintRuleStatusMaxConditions))
	}
	return errs
}

// validateDeviceTaintV1 checks a taint of a device or a DeviceTaintRule:
// the key is a label name (required), a value a label value, the effect
// required and one of NoSchedule, NoExecute, None. On an update (old set)
// an unchanged effect is not checked again.
func validateDeviceTaintV1(t, old *resourcev1.DeviceTaint, p *field.Path) field.ErrorList {
	errs := metav1validation.ValidateLabelName(t.Key, p.Child("key"))
	if t.Value != "" {
		errs = append(errs, validateLabelValueV1(t.Value, p.Child("value"))...)
	}
	if old == nil || old.Effect != t.Effect {
		switch {
		case t.Effect == "":
			errs = append(errs, field.Required(p.Child("effect"), ""))
		case !v1TaintEffects.Has(t.Effect):
			errs = append(errs, field.NotSupported(p.Child("effect"), t.Effect, sets.List(v1TaintEffects)))
		}
	}
	return errs
}
