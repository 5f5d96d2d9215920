package validation

import (
	"fmt"
	"strings"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/validate"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	drakitcel "github.com/drakit/drakit/apis/resource/cel"
	"github.com/drakit/drakit/apis/resource/features"
)

// ResourceClaim and ResourceClaimTemplate (1.37).

var (
	v1AllocationModes    = []resourcev1.DeviceAllocationMode{resourcev1.DeviceAllocationModeAll, resourcev1.DeviceAllocationModeExactCount}
	v1ConfigSources      = []resourcev1.AllocationConfigSource{resourcev1.AllocationConfigSourceClaim, resourcev1.AllocationConfigSourceClass}
	v1TolerationOps      = []resourcev1.DeviceTolerationOperator{resourcev1.DeviceTolerationOpEqual, resourcev1.DeviceTolerationOpExists}
	v1TaintEffects       = sets.New(resourcev1.DeviceTaintEffectNoSchedule, resourcev1.DeviceTaintEffectNoExecute, resourcev1.DeviceTaintEffectNone)
	v1AllocationModeSet  = sets.New(v1AllocationModes...)
	v1TolerationOpSet    = sets.New(v1TolerationOps...)
	v1SkipNodeOperations = sets.New(resourcev1.SkipNodeOperationAll, resourcev1.SkipNodeOperationNodePrepareResources, resourcev1.SkipNodeOperationNodeUnprepareResources)
)

// ValidateResourceClaimV1 validates a claim being created.
func (c *checkerV1) ValidateResourceClaimV1(claim *resourcev1.ResourceClaim) field.ErrorList {
	errs := objectMeta(&claim.ObjectMeta, true)
	return append(errs, c.validateResourceClaimSpecV1(&claim.Spec, field.NewPath("spec"), &deviceValidationOptionsV1{})...)
}

// ValidateResourceClaimUpdateV1 validates an update of the main resource:
// the metadata, and that the spec did not change. The spec is not
// validated again. The immutability error is the declarative one (its
// value is omitted).
func (c *checkerV1) ValidateResourceClaimUpdateV1(claim, old *resourcev1.ResourceClaim) field.ErrorList {
	errs := objectMeta(&claim.ObjectMeta, true)
	errs = append(errs, objectMetaUpdate(&claim.ObjectMeta, &old.ObjectMeta)...)
	if !semanticEqual(claim.Spec, old.Spec) {
		errs = append(errs, field.Invalid(field.NewPath("spec"), nil, "field is immutable").WithOrigin("immutable"))
	}
	return errs
}

// ValidateResourceClaimTemplateV1 validates a template being created.
func (c *checkerV1) ValidateResourceClaimTemplateV1(t *resourcev1.ResourceClaimTemplate) field.ErrorList {
	return c.validateResourceClaimTemplateV1(t, nil)
}

// validateResourceClaimTemplateV1 is ValidateResourceClaimTemplateV1 for a
// create (old nil) or the create validation the template strategy runs on
// an update: the same rules (CEL compiled as new expressions), but the
// declarative validation skips what the update left unchanged.
func (c *checkerV1) validateResourceClaimTemplateV1(t *resourcev1.ResourceClaimTemplate, old *resourcev1.ResourceClaimTemplateSpec) field.ErrorList {
	errs := objectMeta(&t.ObjectMeta, true)
	opts := &deviceValidationOptionsV1{}
	if old != nil {
		opts.old = &old.Spec.Devices
	}
	return append(errs, c.validateResourceClaimTemplateSpecV1(&t.Spec, field.NewPath("spec"), opts)...)
}

func (c *checkerV1) validateResourceClaimTemplateSpecV1(spec *resourcev1.ResourceClaimTemplateSpec, p *field.Path, opts *deviceValidationOptionsV1) field.ErrorList {
	errs := templateMeta(&spec.ObjectMeta, p.Child("metadata"))
	return append(errs, c.validateResourceClaimSpecV1(&spec.Spec, p.Child("spec"), opts)...)
}

// ValidateResourceClaimTemplateUpdateV1 checks that the spec did not
// change (the handwritten immutability error, with the new spec as its
// value).
func (c *checkerV1) ValidateResourceClaimTemplateUpdateV1(t, old *resourcev1.ResourceClaimTemplate) field.ErrorList {
	errs := objectMetaUpdate(&t.ObjectMeta, &old.ObjectMeta)
	return append(errs, immutable(t.Spec, old.Spec, field.NewPath("spec"))...)
}

// deviceValidationOptionsV1 is 1.37's deviceValidationOptions, plus old.
type deviceValidationOptionsV1 struct {
	// stored: the expressions were stored before; 1.37 does not compile
	// them and does not limit the size of stored opaque parameters.
	stored bool
	// old is the stored device claim of an update. The declarative
	// validation skips (ratchets) the parts of the claim that are equal to
	// the stored ones: the requests, the constraints and the
	// configurations as lists, each request (matched by name), its
	// exactly, its firstAvailable list and each sub-request (by name), and
	// their derivedAttributes.
	old *resourcev1.DeviceClaim
	// totalDerivedAttrCost sums the costs of the claim's derived
	// attributes.
	totalDerivedAttrCost *uint64
	// constraintAttributes maps "" (constraints for all requests), a
	// request or a "request/sub-request" to the attribute names its
	// constraints match on.
	constraintAttributes map[string]sets.Set[string]
}

func (c *checkerV1) validateResourceClaimSpecV1(spec *resourcev1.ResourceClaimSpec, p *field.Path, opts *deviceValidationOptionsV1) field.ErrorList {
	return c.validateDeviceClaimV1(&spec.Devices, p.Child("devices"), opts)
}

// gatherConstraintAttributesV1 collects, per request reference, the
// attribute a constraint matches on (matchAttribute, else
// distinctAttribute).
func gatherConstraintAttributesV1(constraints []resourcev1.DeviceConstraint) map[string]sets.Set[string] {
	attrs := map[string]sets.Set[string]{}
	add := func(ref, name string) {
		if attrs[ref] == nil {
			attrs[ref] = sets.New[string]()
		}
		attrs[ref].Insert(name)
	}
	for _, con := range constraints {
		var name string
		switch {
		case con.MatchAttribute != nil:
			name = string(*con.MatchAttribute)
		case con.DistinctAttribute != nil:
			name = string(*con.DistinctAttribute)
		default:
			continue
		}
		if len(con.Requests) == 0 {
			add("", name)
		}
		for _, ref := range con.Requests {
			add(ref, name)
		}
	}
	return attrs
}

// validateDeviceClaimV1 includes the per-claim limit of the derived
// attributes' CEL cost.
func (c *checkerV1) validateDeviceClaimV1(claim *resourcev1.DeviceClaim, p *field.Path, opts *deviceValidationOptionsV1) field.ErrorList {
	names := gatherRequestNamesV1(claim)
	var total uint64
	o := *opts
	o.totalDerivedAttrCost = &total
	o.constraintAttributes = gatherConstraintAttributesV1(claim.Constraints)
	requests, constraints, config := coveredByDeclarative, coveredByDeclarative, coveredByDeclarative
	if o.old != nil {
		requests = coverageOf(claim.Requests, &o.old.Requests)
		constraints = coverageOf(claim.Constraints, &o.old.Constraints)
		config = coverageOf(claim.Config, &o.old.Config)
	}
	errs := validateSetV1(claim.Requests, V1DeviceRequestsMaxSize,
		func(r resourcev1.DeviceRequest, rp *field.Path) field.ErrorList {
			var old *resourcev1.DeviceRequest
			if o.old != nil {
				old = lookupNamedV1(o.old.Requests, r.Name, func(r *resourcev1.DeviceRequest) string { return r.Name })
			}
			return c.validateDeviceRequestV1(&r, old, rp, &o, requests && coverageOf(r, old))
		},
		func(r resourcev1.DeviceRequest) string { return r.Name }, requests, p.Child("requests"))
	errs = append(errs, validateSliceV1(claim.Constraints, V1DeviceConstraintsMaxSize,
		func(con resourcev1.DeviceConstraint, cp *field.Path) field.ErrorList {
			return c.validateDeviceConstraintV1(&con, cp, names, constraints)
		}, p.Child("constraints"))...)
	errs = append(errs, validateSliceV1(claim.Config, V1DeviceConfigMaxSize,
		func(cfg resourcev1.DeviceClaimConfiguration, cp *field.Path) field.ErrorList {
			return c.validateDeviceClaimConfigurationV1(&cfg, cp, names, o.stored, config)
		}, p.Child("config"))...)
	if total > V1DerivedAttributeCELMaxCost {
		errs = append(errs, field.Forbidden(p, "too complex, total cost of derived attribute CEL expressions in the claim exceeds cost limit"))
	}
	return errs
}

// lookupNamedV1 returns the entry of items with the given name, or nil.
func lookupNamedV1[T any](items []T, name string, nameOf func(*T) string) *T {
	for i := range items {
		if nameOf(&items[i]) == name {
			return &items[i]
		}
	}
	return nil
}

// requestNamesV1 maps each request name to the names of its sub-requests
// (nil for an exact request).
type requestNamesV1 map[string]sets.Set[string]

// Has reports whether ref is "request" or "request/sub-request" of the
// claim.
func (r requestNamesV1) Has(ref string) bool {
	segments := strings.Split(ref, "/")
	if len(segments) > 2 {
		return false
	}
	subs, ok := r[segments[0]]
	if !ok {
		return false
	}
	return len(segments) == 1 || subs.Has(segments[1])
}

func gatherRequestNamesV1(claim *resourcev1.DeviceClaim) requestNamesV1 {
	names := make(requestNamesV1, len(claim.Requests))
	for _, r := range claim.Requests {
		if len(r.FirstAvailable) == 0 {
			names[r.Name] = nil
			continue
		}
		subs := sets.New[string]()
		for _, s := range r.FirstAvailable {
			subs.Insert(s.Name)
		}
		names[r.Name] = subs
	}
	return names
}

// validateDeviceRequestV1: a request needs exactly one of exactly and
// firstAvailable (an empty firstAvailable counts as unset). When both are
// set only the union error is handwritten; the declarative validation
// still checks both. old is the stored request of that name; declarative
// says whether the declarative validation looks at the request.
func (c *checkerV1) validateDeviceRequestV1(r, old *resourcev1.DeviceRequest, p *field.Path, opts *deviceValidationOptionsV1, declarative declarativeCoverage) field.ErrorList {
	var oldExact *resourcev1.ExactDeviceRequest
	var oldSubs []resourcev1.DeviceSubRequest
	if old != nil {
		oldExact, oldSubs = old.Exactly, old.FirstAvailable
	}
	exact := declarative.ifChanged(old == nil || !semanticEqual(r.Exactly, oldExact))
	subs := declarative.ifChanged(old == nil || !semanticEqual(r.FirstAvailable, oldSubs))
	sub := func(s *resourcev1.DeviceSubRequest) (*resourcev1.DeviceSubRequest, declarativeCoverage) {
		if old == nil {
			return nil, subs
		}
		o := lookupNamedV1(oldSubs, s.Name, func(s *resourcev1.DeviceSubRequest) string { return s.Name })
		return o, subs && coverageOf(*s, o)
	}

	errs := dnsLabel(r.Name, p.Child("name"))
	hasFirstAvailable, hasExactly := len(r.FirstAvailable) > 0, r.Exactly != nil
	switch {
	case !hasFirstAvailable && !hasExactly:
		errs = append(errs, field.Required(p, "exactly one of `exactly` or `firstAvailable` is required"))
	case hasFirstAvailable && hasExactly:
		errs = append(errs, field.Invalid(p, nil, "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set"))
		if exact {
			errs = append(errs, c.declarativeExactDeviceRequestV1(r.Exactly, p.Child("exactly"))...)
		}
		if subs {
			errs = append(errs, validateSetV1(r.FirstAvailable, V1FirstAvailableMaxSize, func(s resourcev1.DeviceSubRequest, sp *field.Path) field.ErrorList {
				if _, coverage := sub(&s); !coverage {
					return nil
				}
				return c.declarativeDeviceSubRequestV1(&s, sp)
			}, func(s resourcev1.DeviceSubRequest) string { return s.Name }, coveredByDeclarative, p.Child("firstAvailable"))...)
		}
	case hasFirstAvailable:
		errs = append(errs, validateSetV1(r.FirstAvailable, V1FirstAvailableMaxSize,
			func(s resourcev1.DeviceSubRequest, sp *field.Path) field.ErrorList {
				o, coverage := sub(&s)
				return c.validateDeviceSubRequestV1(&s, o, sp, opts, r.Name, coverage)
			},
			func(s resourcev1.DeviceSubRequest) string { return s.Name }, subs, p.Child("firstAvailable"))...)
	default:
		errs = append(errs, c.validateExactDeviceRequestV1(r.Exactly, oldExact, p.Child("exactly"), opts, r.Name, exact)...)
	}
	return errs
}

func (c *checkerV1) validateDeviceSubRequestV1(s, old *resourcev1.DeviceSubRequest, p *field.Path, opts *deviceValidationOptionsV1, parent string, declarative declarativeCoverage) field.ErrorList {
	errs := dnsLabel(s.Name, p.Child("name"))
	errs = append(errs, validateDeviceClassV1(s.DeviceClassName, p.Child("deviceClassName"), declarative)...)
	errs = append(errs, c.validateSelectorSliceV1(s.Selectors, p.Child("selectors"), opts)...)
	errs = append(errs, c.validateDeviceDerivedAttributesV1(s.DerivedAttributes, p.Child("derivedAttributes"), opts, parent+"/"+s.Name)...)
	errs = append(errs, validateDeviceAllocationModeV1(s.AllocationMode, s.Count, p.Child("allocationMode"), p.Child("count"))...)
	for i := range s.Tolerations {
		errs = append(errs, validateDeviceTolerationV1(&s.Tolerations[i], p.Child("tolerations").Index(i))...)
	}
	if declarative.ifChanged(old == nil || !semanticEqual(s.DerivedAttributes, old.DerivedAttributes)) {
		errs = append(errs, declarativeDerivedAttributesV1(s.DerivedAttributes, p.Child("derivedAttributes"))...)
	}
	return errs
}

func (c *checkerV1) validateExactDeviceRequestV1(r, old *resourcev1.ExactDeviceRequest, p *field.Path, opts *deviceValidationOptionsV1, name string, declarative declarativeCoverage) field.ErrorList {
	errs := validateDeviceClassV1(r.DeviceClassName, p.Child("deviceClassName"), handwrittenOnly)
	errs = append(errs, c.validateSelectorSliceV1(r.Selectors, p.Child("selectors"), opts)...)
	errs = append(errs, c.validateDeviceDerivedAttributesV1(r.DerivedAttributes, p.Child("derivedAttributes"), opts, name)...)
	errs = append(errs, validateDeviceAllocationModeV1(r.AllocationMode, r.Count, p.Child("allocationMode"), p.Child("count"))...)
	for i := range r.Tolerations {
		errs = append(errs, validateDeviceTolerationV1(&r.Tolerations[i], p.Child("tolerations").Index(i))...)
	}
	if declarative.ifChanged(old == nil || !semanticEqual(r.DerivedAttributes, old.DerivedAttributes)) {
		errs = append(errs, declarativeDerivedAttributesV1(r.DerivedAttributes, p.Child("derivedAttributes"))...)
	}
	return errs
}

// validateDeviceAllocationModeV1: ExactCount needs a positive count, All
// no count; any other mode is NotSupported. (Defaulting turns an empty
// mode into ExactCount.)
func validateDeviceAllocationModeV1(mode resourcev1.DeviceAllocationMode, count int64, modePath, countPath *field.Path) field.ErrorList {
	switch mode {
	case resourcev1.DeviceAllocationModeAll:
		if count != 0 {
			return field.ErrorList{field.Invalid(countPath, count, fmt.Sprintf("must not be specified when allocationMode is '%s'", mode))}
		}
	case resourcev1.DeviceAllocationModeExactCount:
		if count <= 0 {
			return field.ErrorList{field.Invalid(countPath, count, "must be greater than zero")}
		}
	default:
		return field.ErrorList{field.NotSupported(modePath, mode, v1AllocationModes)}
	}
	return nil
}

// validateDeviceClassV1 checks a reference to a DeviceClass. The
// declarative validation covers it in sub-requests only.
func validateDeviceClassV1(name string, p *field.Path, declarative declarativeCoverage) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	return longNameV1(name, p, declarative)
}

func (c *checkerV1) validateSelectorSliceV1(selectors []resourcev1.DeviceSelector, p *field.Path, opts *deviceValidationOptionsV1) field.ErrorList {
	return validateSliceV1(selectors, V1DeviceSelectorsMaxSize, func(s resourcev1.DeviceSelector, sp *field.Path) field.ErrorList {
		return c.validateSelectorV1(&s, sp, opts)
	}, p)
}

func (c *checkerV1) validateSelectorV1(s *resourcev1.DeviceSelector, p *field.Path, opts *deviceValidationOptionsV1) field.ErrorList {
	if s.CEL == nil {
		return field.ErrorList{field.Required(p.Child("cel"), "")}
	}
	return c.validateCELExpressionV1(s.CEL.Expression, p.Child("cel", "expression"), opts, false)
}

// validateCELExpressionV1 checks a selector or (derivedAttribute) a derived
// attribute expression. Stored expressions are not checked at all. A new
// one may have at most V1CELSelectorExpressionMaxLength bytes (and is not
// compiled when longer), must compile, and its estimated cost is limited:
// V1CELSelectorExpressionMaxCost for a selector, the smaller of that and
// V1DerivedAttributeCELMaxCost for a derived attribute, whose cost also
// counts toward the claim's total.
func (c *checkerV1) validateCELExpressionV1(expression string, p *field.Path, opts *deviceValidationOptionsV1, derivedAttribute bool) field.ErrorList {
	if opts.stored {
		return nil
	}
	if len(expression) > V1CELSelectorExpressionMaxLength {
		return field.ErrorList{field.TooLong(p, "", V1CELSelectorExpressionMaxLength)}
	}
	if c.env.compileCEL == nil {
		return nil
	}
	cost, err := c.env.compileCEL(expression, drakitcel.Options{DerivedAttribute: derivedAttribute, Gates: c.env.gates})
	if err != nil {
		return field.ErrorList{celFieldError(err, expression, p)}
	}
	if derivedAttribute {
		var errs field.ErrorList
		if cost > min(V1CELSelectorExpressionMaxCost, V1DerivedAttributeCELMaxCost) {
			errs = append(errs, field.Forbidden(p, "too complex, exceeds cost limit"))
		}
		if opts.totalDerivedAttrCost != nil {
			*opts.totalDerivedAttrCost += cost
		}
		return errs
	}
	if cost > V1CELSelectorExpressionMaxCost {
		return field.ErrorList{field.Forbidden(p, "too complex, exceeds cost limit")}
	}
	return nil
}

// isAttributeUsedByConstraintV1 reports whether a constraint for all
// requests, for ref, or (for "req/sub") for req matches on attr.
func isAttributeUsedByConstraintV1(attr, ref string, constraintAttributes map[string]sets.Set[string]) bool {
	if constraintAttributes[""].Has(attr) || constraintAttributes[ref].Has(attr) {
		return true
	}
	parent, _, isSub := strings.Cut(ref, "/")
	return isSub && constraintAttributes[parent].Has(attr)
}

// validateDeviceDerivedAttributesV1 applies the handwritten rules: unique
// names, each used by a constraint of the request, each expression
// compiled as a derived attribute. Their size and the name's format are
// declarative (declarativeDerivedAttributesV1).
func (c *checkerV1) validateDeviceDerivedAttributesV1(attrs []resourcev1.DeviceDerivedAttribute, p *field.Path, opts *deviceValidationOptionsV1, ref string) field.ErrorList {
	return validateSetV1(attrs, -1, func(a resourcev1.DeviceDerivedAttribute, ap *field.Path) field.ErrorList {
		return c.validateDeviceDerivedAttributeV1(&a, ap, opts, ref)
	}, func(a resourcev1.DeviceDerivedAttribute) string { return string(a.Name) }, handwrittenOnly, p)

}

func (c *checkerV1) validateDeviceDerivedAttributeV1(a *resourcev1.DeviceDerivedAttribute, p *field.Path, opts *deviceValidationOptionsV1, ref string) field.ErrorList {
	var errs field.ErrorList
	if a.Name != "" && !isAttributeUsedByConstraintV1(string(a.Name), ref, opts.constraintAttributes) {
		errs = append(errs, field.Invalid(p.Child("name"), a.Name, "must be referenced by at least one matchAttribute or distinctAttribute constraint targeting this request"))
	}
	if a.Expression != "" {
		errs = append(errs, c.validateCELExpressionV1(a.Expression, p.Child("expression"), opts, true)...)
	}
	return errs
}

// validateDeviceConstraintV1 checks matchAttribute if set, else
// distinctAttribute; with neither, Required is reported on the constraint
// when DRAConsumableCapacity is enabled and on matchAttribute otherwise.
// Where the declarative validation looks at the constraint, it checks the
// format of distinctAttribute even next to a matchAttribute.
func (c *checkerV1) validateDeviceConstraintV1(con *resourcev1.DeviceConstraint, p *field.Path, names requestNamesV1, declarative declarativeCoverage) field.ErrorList {
	errs := c.requestNameRefsV1(con.Requests, names, declarative, p.Child("requests"))
	switch {
	case con.MatchAttribute != nil:
		errs = append(errs, c.validateFullyQualifiedNameV1(string(*con.MatchAttribute), p.Child("matchAttribute"), declarative)...)
		if declarative && con.DistinctAttribute != nil {
			errs = append(errs, c.validateFullyQualifiedNameV1(string(*con.DistinctAttribute), p.Child("distinctAttribute"), coveredByDeclarative)...)
		}
	case con.DistinctAttribute != nil:
		errs = append(errs, c.validateFullyQualifiedNameV1(string(*con.DistinctAttribute), p.Child("distinctAttribute"), declarative)...)
	case c.enabled(features.DRAConsumableCapacity):
		// 1.37's message, although nothing is set.
		errs = append(errs, field.Required(p, `exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set`))
	default:
		errs = append(errs, field.Required(p.Child("matchAttribute"), ""))
	}
	return errs
}

func (c *checkerV1) validateDeviceClaimConfigurationV1(cfg *resourcev1.DeviceClaimConfiguration, p *field.Path, names requestNamesV1, stored bool, declarative declarativeCoverage) field.ErrorList {
	errs := c.requestNameRefsV1(cfg.Requests, names, declarative, p.Child("requests"))
	return append(errs, c.validateDeviceConfigurationV1(&cfg.DeviceConfiguration, p, stored, declarative)...)
}

// requestNameRefsV1 checks a requests list of a constraint or a
// configuration: at most V1DeviceRequestsMaxSize unique references.
func (c *checkerV1) requestNameRefsV1(refs []string, names requestNamesV1, declarative declarativeCoverage, p *field.Path) field.ErrorList {
	return validateSetV1(refs, V1DeviceRequestsMaxSize, func(ref string, rp *field.Path) field.ErrorList {
		return validateRequestNameRefV1(ref, rp, names)
	}, self[string], declarative, p)
}

// validateRequestNameRefV1: a reference is "request" or
// "request/sub-request", DNS labels, naming a request of the claim.
func validateRequestNameRefV1(ref string, p *field.Path, names requestNamesV1) field.ErrorList {
	const msg = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"
	segments := strings.Split(ref, "/")
	if len(segments) > 2 {
		return field.ErrorList{field.Invalid(p, ref, msg)}
	}
	var errs field.ErrorList
	for _, s := range segments {
		errs = append(errs, dnsLabel(s, p)...)
	}
	if !names.Has(ref) {
		errs = append(errs, field.Invalid(p, ref, msg))
	}
	return errs
}

// validateDeviceConfigurationV1 includes validateOpaqueConfiguration. The
// driver's errors are the declarative ones where the declarative
// validation looks at the configuration.
func (c *checkerV1) validateDeviceConfigurationV1(cfg *resourcev1.DeviceConfiguration, p *field.Path, stored bool, declarative declarativeCoverage) field.ErrorList {
	if cfg.Opaque == nil {
		return field.ErrorList{field.Required(p.Child("opaque"), "")}
	}
	op := p.Child("opaque")
	errs := c.validateDriverNameV1(cfg.Opaque.Driver, op.Child("driver"), declarative)
	return append(errs, validateRawExtensionV1(cfg.Opaque.Parameters, op.Child("parameters"), stored, V1OpaqueParametersMaxLength)...)
}

// validateDeviceTolerationV1: key a label name if set; operator Exists
// (no value) or Equal (a label value), required; effect optional, one of
// NoSchedule, NoExecute, None. The declarative validation has the same
// rules and wording.
func validateDeviceTolerationV1(t *resourcev1.DeviceToleration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.Key != "" {
		errs = append(errs, metav1validation.ValidateLabelName(t.Key, p.Child("key"))...)
	}
	switch t.Operator {
	case resourcev1.DeviceTolerationOpExists:
		if t.Value != "" {
			errs = append(errs, field.Invalid(p.Child("value"), t.Value, "must be empty for operator `Exists`"))
		}
	case resourcev1.DeviceTolerationOpEqual:
		errs = append(errs, validateLabelValueV1(t.Value, p.Child("value"))...)
	case "":
		errs = append(errs, field.Required(p.Child("operator"), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("operator"), t.Operator, v1TolerationOps))
	}
	if t.Effect != "" && !v1TaintEffects.Has(t.Effect) {
		errs = append(errs, field.NotSupported(p.Child("effect"), t.Effect, sets.List(v1TaintEffects)))
	}
	return errs
}

// ---------------------------------------------------------------------------
// Declarative rules of claims.

// declarativeExactDeviceRequestV1 applies every declarative rule of an
// exact request, for one the handwritten validation did not look at:
// selectors' size, the allocation mode's values, tolerations and derived
// attributes.
func (c *checkerV1) declarativeExactDeviceRequestV1(r *resourcev1.ExactDeviceRequest, p *field.Path) field.ErrorList {
	errs := declarativeRequestCommonV1(len(r.Selectors), r.AllocationMode, r.Tolerations, p)
	return append(errs, declarativeDerivedAttributesV1(r.DerivedAttributes, p.Child("derivedAttributes"))...)
}

// declarativeDeviceSubRequestV1 is declarativeExactDeviceRequestV1 for a
// sub-request, which also needs a device class name.
func (c *checkerV1) declarativeDeviceSubRequestV1(s *resourcev1.DeviceSubRequest, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, validateDeviceClassV1(s.DeviceClassName, p.Child("deviceClassName"), coveredByDeclarative)...)
	errs = append(errs, declarativeRequestCommonV1(len(s.Selectors), s.AllocationMode, s.Tolerations, p)...)
	return append(errs, declarativeDerivedAttributesV1(s.DerivedAttributes, p.Child("derivedAttributes"))...)
}

func declarativeRequestCommonV1(selectors int, mode resourcev1.DeviceAllocationMode, tolerations []resourcev1.DeviceToleration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if selectors > V1DeviceSelectorsMaxSize {
		errs = append(errs, field.TooMany(p.Child("selectors"), selectors, V1DeviceSelectorsMaxSize).WithOrigin("maxItems"))
	}
	if mode != "" {
		errs = append(errs, validate.Enum(declarativeCtx, declarativeOp, p.Child("allocationMode"), &mode, nil, v1AllocationModeSet, nil)...)
	}
	for i := range tolerations {
		errs = append(errs, declarativeTolerationV1(&tolerations[i], p.Child("tolerations").Index(i))...)
	}
	return errs
}

func declarativeTolerationV1(t *resourcev1.DeviceToleration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.Key != "" {
		errs = append(errs, validate.LabelKey(declarativeCtx, declarativeOp, p.Child("key"), &t.Key, nil)...)
	}
	if t.Operator == "" {
		errs = append(errs, field.Required(p.Child("operator"), ""))
	} else {
		errs = append(errs, validate.Enum(declarativeCtx, declarativeOp, p.Child("operator"), &t.Operator, nil, v1TolerationOpSet, nil)...)
	}
	if t.Effect != "" {
		errs = append(errs, validate.Enum(declarativeCtx, declarativeOp, p.Child("effect"), &t.Effect, nil, v1TaintEffects, nil)...)
	}
	return errs
}

// declarativeDerivedAttributesV1: at most V1DeviceDerivedAttributesMaxSize
// entries (the entries of a longer list are not checked), each with a
// name, a fully qualified name, and an expression.
func declarativeDerivedAttributesV1(attrs []resourcev1.DeviceDerivedAttribute, p *field.Path) field.ErrorList {
	if len(attrs) > V1DeviceDerivedAttributesMaxSize {
		return field.ErrorList{field.TooMany(p, len(attrs), V1DeviceDerivedAttributesMaxSize).WithOrigin("maxItems")}
	}
	var errs field.ErrorList
	for i := range attrs {
		ap := p.Index(i)
		if name := attrs[i].Name; name == "" {
			errs = append(errs, field.Required(ap.Child("name"), ""))
		} else {
			errs = append(errs, validate.ResourceFullyQualifiedName(declarativeCtx, declarativeOp, ap.Child("name"), &name, nil)...)
		}
		if attrs[i].Expression == "" {
			errs = append(errs, field.Required(ap.Child("expression"), ""))
		}
	}
	return errs
}
