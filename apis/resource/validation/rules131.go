package validation

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// The rules of Kubernetes 1.31, which serves v1alpha3. Every function here
// carries the name of the 1.31 function whose rules it applies, with the
// suffix V1alpha3 (see the package documentation). Fields behind the
// DRAControlPlaneController feature gate (spec.controller,
// status.allocation.controller, status.deallocationRequested, DeviceClass
// spec.suitableNodes) are validated as if the gate were enabled; with the
// gate disabled the server drops them instead.

var (
	v1alpha3AllocationModes = []string{string(v1alpha3.DeviceAllocationModeAll), string(v1alpha3.DeviceAllocationModeExactCount)}
	v1alpha3ConfigSources   = []string{v1alpha3.AllocationConfigSourceClaim, v1alpha3.AllocationConfigSourceClass}
)

func init() {
	register(rules[*v1alpha3.ResourceClaim]{
		namespaced:         true,
		resetMetaForStatus: true,
		defaults:           func(o *v1alpha3.ResourceClaim) { v1alpha3.SetObjectDefaults_ResourceClaim(o) },
		prepareCreate:      func(o *v1alpha3.ResourceClaim) { o.Status = v1alpha3.ResourceClaimStatus{} },
		prepareUpdate:      func(o, old *v1alpha3.ResourceClaim) { o.Status = old.Status },
		prepareStatus:      func(o, old *v1alpha3.ResourceClaim) { o.Spec = old.Spec },
		create:             (*checker).ValidateResourceClaimV1alpha3,
		update: func(c *checker, o, old *v1alpha3.ResourceClaim) field.ErrorList {
			// The server validates the new claim as on create (its CEL as
			// new expressions), then as an update, where the immutable
			// spec's expressions count as stored.
			return append(c.ValidateResourceClaimV1alpha3(o), c.ValidateResourceClaimUpdateV1alpha3(o, old)...)
		},
		status: (*checker).ValidateResourceClaimStatusUpdateV1alpha3,
	})
	register(rules[*v1alpha3.ResourceClaimTemplate]{
		namespaced: true,
		defaults:   func(o *v1alpha3.ResourceClaimTemplate) { v1alpha3.SetObjectDefaults_ResourceClaimTemplate(o) },
		create:     (*checker).ValidateResourceClaimTemplateV1alpha3,
		update: func(c *checker, o, old *v1alpha3.ResourceClaimTemplate) field.ErrorList {
			return append(c.ValidateResourceClaimTemplateV1alpha3(o), c.ValidateResourceClaimTemplateUpdateV1alpha3(o, old)...)
		},
	})
	register(rules[*v1alpha3.DeviceClass]{
		prepareCreate: func(o *v1alpha3.DeviceClass) { o.Generation = 1 },
		prepareUpdate: func(o, old *v1alpha3.DeviceClass) {
			if !semanticEqual(o.Spec, old.Spec) {
				o.Generation = old.Generation + 1
			}
		},
		create: (*checker).ValidateDeviceClassV1alpha3,
		update: func(c *checker, o, old *v1alpha3.DeviceClass) field.ErrorList {
			return append(c.ValidateDeviceClassV1alpha3(o), c.ValidateDeviceClassUpdateV1alpha3(o, old)...)
		},
	})
	register(rules[*v1alpha3.PodSchedulingContext]{
		namespaced:         true,
		resetMetaForStatus: true,
		prepareCreate:      func(o *v1alpha3.PodSchedulingContext) { o.Status = v1alpha3.PodSchedulingContextStatus{} },
		prepareUpdate:      func(o, old *v1alpha3.PodSchedulingContext) { o.Status = old.Status },
		prepareStatus:      func(o, old *v1alpha3.PodSchedulingContext) { o.Spec = old.Spec },
		create:             (*checker).ValidatePodSchedulingContextsV1alpha3,
		update: func(c *checker, o, old *v1alpha3.PodSchedulingContext) field.ErrorList {
			return append(c.ValidatePodSchedulingContextsV1alpha3(o), c.ValidatePodSchedulingContextUpdateV1alpha3(o, old)...)
		},
		status: (*checker).ValidatePodSchedulingContextStatusUpdateV1alpha3,
	})
	register(rules[*v1alpha3.ResourceSlice]{
		prepareCreate: func(o *v1alpha3.ResourceSlice) { o.Generation = 1 },
		prepareUpdate: func(o, old *v1alpha3.ResourceSlice) {
			if !semanticEqual(o.Spec, old.Spec) {
				o.Generation = old.Generation + 1
			}
		},
		create: (*checker).ValidateResourceSliceV1alpha3,
		update: (*checker).ValidateResourceSliceUpdateV1alpha3,
	})

	registerList(func(l *v1alpha3.ResourceClaimList) []*v1alpha3.ResourceClaim { return itemPointers(l.Items) })
	registerList(func(l *v1alpha3.ResourceClaimTemplateList) []*v1alpha3.ResourceClaimTemplate {
		return itemPointers(l.Items)
	})
	registerList(func(l *v1alpha3.DeviceClassList) []*v1alpha3.DeviceClass { return itemPointers(l.Items) })
	registerList(func(l *v1alpha3.PodSchedulingContextList) []*v1alpha3.PodSchedulingContext {
		return itemPointers(l.Items)
	})
	registerList(func(l *v1alpha3.ResourceSliceList) []*v1alpha3.ResourceSlice { return itemPointers(l.Items) })
}

// ---------------------------------------------------------------------------
// Names.

// validatePoolNameV1alpha3 checks a pool name: required, at most
// V1alpha3PoolNameMaxLength bytes, and every '/'-separated part a DNS
// subdomain (reported on the whole name).
func validatePoolNameV1alpha3(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	if len(name) > V1alpha3PoolNameMaxLength {
		errs = append(errs, tooLongMax(p, name, V1alpha3PoolNameMaxLength))
	}
	for _, part := range strings.Split(name, "/") {
		errs = append(errs, dnsSubdomain(part, p)...)
	}
	return errs
}

// validateQualifiedNameV1alpha3 checks an attribute or capacity name, or
// the name in matchAttribute: a C identifier, optionally after a domain and
// one '/'. Quirk: 1.31 checks nothing at all when the name has two or more
// '/'; Strict rejects such names.
func (c *checker) validateQualifiedNameV1alpha3(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "name required")}
	}
	var errs field.ErrorList
	parts := strings.Split(name, "/")
	switch len(parts) {
	case 1:
		errs = append(errs, validateCIdentifierV1alpha3(parts[0], p)...)
	case 2:
		if parts[0] == "" {
			errs = append(errs, field.Required(p, "the prefix must not be empty"))
		} else {
			errs = append(errs, c.validateDriverName(parts[0], p)...)
		}
		if parts[1] == "" {
			errs = append(errs, field.Required(p, "the name must not be empty"))
		} else {
			errs = append(errs, validateCIdentifierV1alpha3(parts[1], p)...)
		}
	default:
		if c.opts.Strict {
			errs = append(errs, field.Invalid(p, name, strictDetail(
				fmt.Sprintf("must be an identifier, optionally prefixed by a domain and '/', with at most %d '/'", V1alpha3QualifiedNameMaxSlashes),
				string(c.release))))
		}
	}
	return errs
}

// validateFullyQualifiedNameV1alpha3 is the qualified-name rule plus a
// required domain.
func (c *checker) validateFullyQualifiedNameV1alpha3(name string, p *field.Path) field.ErrorList {
	errs := c.validateQualifiedNameV1alpha3(name, p)
	if !strings.Contains(name, "/") {
		errs = append(errs, field.Required(p.Child("domain"), "must include a prefix"))
	}
	return errs
}

// validateCIdentifierV1alpha3 checks the identifier part of a qualified
// name. The release reports a malformed identifier as TypeInvalid, not
// Invalid.
func validateCIdentifierV1alpha3(id string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(id) > V1alpha3IdentifierMaxLength {
		errs = append(errs, tooLongMax(p, id, V1alpha3IdentifierMaxLength))
	}
	for _, msg := range validation.IsCIdentifier(id) {
		errs = append(errs, field.TypeInvalid(p, id, msg))
	}
	return errs
}

// ---------------------------------------------------------------------------
// ResourceClaim and ResourceClaimTemplate.

func (c *checker) ValidateResourceClaimV1alpha3(claim *v1alpha3.ResourceClaim) field.ErrorList {
	errs := objectMeta(&claim.ObjectMeta, true)
	return append(errs, c.validateResourceClaimSpecV1alpha3(&claim.Spec, field.NewPath("spec"), false)...)
}

func (c *checker) ValidateResourceClaimUpdateV1alpha3(claim, old *v1alpha3.ResourceClaim) field.ErrorList {
	errs := objectMetaUpdate(&claim.ObjectMeta, &old.ObjectMeta)
	errs = append(errs, immutable(claim.Spec, old.Spec, field.NewPath("spec"))...)
	return append(errs, c.validateResourceClaimSpecV1alpha3(&claim.Spec, field.NewPath("spec"), true)...)
}

func (c *checker) ValidateResourceClaimTemplateV1alpha3(t *v1alpha3.ResourceClaimTemplate) field.ErrorList {
	errs := objectMeta(&t.ObjectMeta, true)
	return append(errs, c.validateResourceClaimTemplateSpecV1alpha3(&t.Spec, false)...)
}

func (c *checker) ValidateResourceClaimTemplateUpdateV1alpha3(t, old *v1alpha3.ResourceClaimTemplate) field.ErrorList {
	errs := objectMetaUpdate(&t.ObjectMeta, &old.ObjectMeta)
	errs = append(errs, immutable(t.Spec, old.Spec, field.NewPath("spec"))...)
	return append(errs, c.validateResourceClaimTemplateSpecV1alpha3(&t.Spec, true)...)
}

func (c *checker) validateResourceClaimTemplateSpecV1alpha3(spec *v1alpha3.ResourceClaimTemplateSpec, stored bool) field.ErrorList {
	p := field.NewPath("spec")
	errs := templateMeta(&spec.ObjectMeta, p.Child("metadata"))
	return append(errs, c.validateResourceClaimSpecV1alpha3(&spec.Spec, p.Child("spec"), stored)...)
}

// validateResourceClaimSpecV1alpha3 compiles the selectors in the
// stored-expressions environment when stored is set.
func (c *checker) validateResourceClaimSpecV1alpha3(spec *v1alpha3.ResourceClaimSpec, p *field.Path, stored bool) field.ErrorList {
	errs := c.validateDeviceClaimV1alpha3(&spec.Devices, p.Child("devices"), stored)
	if spec.Controller != "" {
		errs = append(errs, c.validateDriverName(spec.Controller, p.Child("controller"))...)
	}
	return errs
}

func (c *checker) validateDeviceClaimV1alpha3(claim *v1alpha3.DeviceClaim, p *field.Path, stored bool) field.ErrorList {
	names := gatherRequestNamesV1alpha3(claim)
	errs := validateSet(claim.Requests, V1alpha3DeviceRequestsMaxSize,
		func(r v1alpha3.DeviceRequest, rp *field.Path) field.ErrorList {
			return c.validateDeviceRequestV1alpha3(&r, rp, stored)
		},
		func(r v1alpha3.DeviceRequest) string { return r.Name }, "name", p.Child("requests"))
	errs = append(errs, validateSlice(claim.Constraints, V1alpha3DeviceConstraintsMaxSize,
		func(con v1alpha3.DeviceConstraint, cp *field.Path) field.ErrorList {
			return c.validateDeviceConstraintV1alpha3(&con, cp, names)
		}, p.Child("constraints"))...)
	return append(errs, validateSlice(claim.Config, V1alpha3DeviceConfigMaxSize,
		func(cfg v1alpha3.DeviceClaimConfiguration, cp *field.Path) field.ErrorList {
			return c.validateDeviceClaimConfigurationV1alpha3(&cfg, cp, names)
		}, p.Child("config"))...)
}

func gatherRequestNamesV1alpha3(claim *v1alpha3.DeviceClaim) map[string]bool {
	names := make(map[string]bool, len(claim.Requests))
	for _, r := range claim.Requests {
		names[r.Name] = true
	}
	return names
}

func (c *checker) validateDeviceRequestV1alpha3(r *v1alpha3.DeviceRequest, p *field.Path, stored bool) field.ErrorList {
	errs := dnsLabel(r.Name, p.Child("name"))
	if r.DeviceClassName == "" {
		errs = append(errs, field.Required(p.Child("deviceClassName"), ""))
	} else {
		errs = append(errs, dnsSubdomain(r.DeviceClassName, p.Child("deviceClassName"))...)
	}
	errs = append(errs, validateSlice(r.Selectors, V1alpha3DeviceSelectorsMaxSize, func(s v1alpha3.DeviceSelector, sp *field.Path) field.ErrorList {
		return c.validateSelectorV1alpha3(&s, sp, stored)
	}, p.Child("selectors"))...)
	switch r.AllocationMode {
	case v1alpha3.DeviceAllocationModeAll:
		if r.Count != 0 {
			errs = append(errs, field.Invalid(p.Child("count"), r.Count, fmt.Sprintf("must not be specified when allocationMode is '%s'", r.AllocationMode)))
		}
	case v1alpha3.DeviceAllocationModeExactCount:
		if r.Count <= 0 {
			errs = append(errs, field.Invalid(p.Child("count"), r.Count, "must be greater than zero"))
		}
	default:
		errs = append(errs, notSupported(p.Child("allocationMode"), string(r.AllocationMode), v1alpha3AllocationModes))
	}
	return errs
}

// validateSelectorV1alpha3 includes 1.31's validateCELSelector
// (deviceSelectorExpression).
func (c *checker) validateSelectorV1alpha3(s *v1alpha3.DeviceSelector, p *field.Path, stored bool) field.ErrorList {
	if s.CEL == nil {
		return field.ErrorList{field.Required(p.Child("cel"), "")}
	}
	return c.deviceSelectorExpression(s.CEL.Expression, stored, p.Child("cel", "expression"))
}

func (c *checker) validateDeviceConstraintV1alpha3(con *v1alpha3.DeviceConstraint, p *field.Path, names map[string]bool) field.ErrorList {
	errs := requestNameRefsV1alpha3(con.Requests, names, p.Child("requests"))
	if con.MatchAttribute == nil {
		return append(errs, field.Required(p.Child("matchAttribute"), ""))
	}
	return append(errs, c.validateFullyQualifiedNameV1alpha3(string(*con.MatchAttribute), p.Child("matchAttribute"))...)
}

func (c *checker) validateDeviceClaimConfigurationV1alpha3(cfg *v1alpha3.DeviceClaimConfiguration, p *field.Path, names map[string]bool) field.ErrorList {
	errs := requestNameRefsV1alpha3(cfg.Requests, names, p.Child("requests"))
	return append(errs, c.validateDeviceConfigurationV1alpha3(&cfg.DeviceConfiguration, p)...)
}

// requestNameRefsV1alpha3 checks a list of request names (in constraints,
// claim config and allocated config), which 1.31 checks as a set of
// validateRequestNameRef: unique, at most as many as requests may exist.
func requestNameRefsV1alpha3(refs []string, names map[string]bool, p *field.Path) field.ErrorList {
	return validateSet(refs, V1alpha3DeviceRequestsMaxSize, func(name string, rp *field.Path) field.ErrorList {
		return validateRequestNameRefV1alpha3(name, names, rp)
	}, self[string], "", p)
}

// validateRequestNameRefV1alpha3 checks that name is a DNS label naming a
// request of the claim.
func validateRequestNameRefV1alpha3(name string, names map[string]bool, p *field.Path) field.ErrorList {
	errs := dnsLabel(name, p)
	if !names[name] {
		errs = append(errs, field.Invalid(p, name, "must be the name of a request in the claim"))
	}
	return errs
}

func (c *checker) validateDeviceConfigurationV1alpha3(cfg *v1alpha3.DeviceConfiguration, p *field.Path) field.ErrorList {
	if cfg.Opaque == nil {
		return field.ErrorList{field.Required(p.Child("opaque"), "")}
	}
	return c.validateOpaqueConfigurationV1alpha3(cfg.Opaque, p.Child("opaque"))
}

func (c *checker) validateOpaqueConfigurationV1alpha3(cfg *v1alpha3.OpaqueDeviceConfiguration, p *field.Path) field.ErrorList {
	errs := c.validateDriverName(cfg.Driver, p.Child("driver"))
	return append(errs, opaqueParametersV1alpha3(cfg.Parameters, p.Child("parameters"))...)
}

// opaqueParametersV1alpha3 checks that the parameters are a JSON object. A
// Go caller may have set Object instead of Raw; the server would see Object
// encoded as JSON, so that is what is checked then.
func opaqueParametersV1alpha3(params runtime.RawExtension, p *field.Path) field.ErrorList {
	raw := params.Raw
	if len(raw) == 0 && params.Object != nil {
		encoded, err := json.Marshal(params.Object)
		if err != nil {
			return field.ErrorList{field.Invalid(p, "<value omitted>", fmt.Sprintf("error encoding the object: %v", err))}
		}
		raw = encoded
	}
	if len(raw) == 0 {
		return field.ErrorList{field.Required(p, "")}
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return field.ErrorList{field.Invalid(p, "<value omitted>", fmt.Sprintf("error parsing data: %v", err.Error()))}
	}
	if v == nil {
		return field.ErrorList{field.Required(p, "")}
	}
	if _, ok := v.(map[string]any); !ok {
		return field.ErrorList{field.Invalid(p, "<value omitted>", "parameters must be a valid JSON object")}
	}
	return nil
}

// ValidateResourceClaimStatusUpdateV1alpha3 is the 1.31 status rule set;
// it includes 1.31's validateResourceClaimStatusUpdate.
func (c *checker) ValidateResourceClaimStatusUpdateV1alpha3(claim, old *v1alpha3.ResourceClaim) field.ErrorList {
	errs := objectMetaUpdate(&claim.ObjectMeta, &old.ObjectMeta)
	p := field.NewPath("status")
	st := &claim.Status
	names := gatherRequestNamesV1alpha3(&claim.Spec.Devices)
	if a := st.Allocation; a != nil {
		errs = append(errs, c.validateAllocationResultV1alpha3(a, p.Child("allocation"), names)...)
	}
	errs = append(errs, validateSet(st.ReservedFor, V1alpha3ReservedForMaxSize,
		func(r v1alpha3.ResourceClaimConsumerReference, rp *field.Path) field.ErrorList {
			return validateResourceClaimUserReference(r.Resource, r.Name, string(r.UID), rp)
		},
		func(r v1alpha3.ResourceClaimConsumerReference) string { return string(r.UID) }, "uid", p.Child("reservedFor"))...)

	now := claimState[v1alpha3.ResourceClaimConsumerReference]{st.Allocation != nil, st.ReservedFor, st.DeallocationRequested}
	before := claimState[v1alpha3.ResourceClaimConsumerReference]{old.Status.Allocation != nil, old.Status.ReservedFor, old.Status.DeallocationRequested}
	errs = append(errs, claimStatusInvariants(now, before, claim.DeletionTimestamp != nil, p)...)
	if st.Allocation != nil && old.Status.Allocation != nil {
		errs = append(errs, immutable(st.Allocation, old.Status.Allocation, p.Child("allocation"))...)
	}
	return append(errs, deallocationInvariants(now, before, p)...)
}

func (c *checker) validateAllocationResultV1alpha3(a *v1alpha3.AllocationResult, p *field.Path, names map[string]bool) field.ErrorList {
	errs := c.validateDeviceAllocationResultV1alpha3(&a.Devices, p.Child("devices"), names)
	if a.NodeSelector != nil {
		errs = append(errs, nodeSelector(a.NodeSelector, p.Child("nodeSelector"))...)
	}
	if a.Controller != "" {
		errs = append(errs, c.validateDriverName(a.Controller, p.Child("controller"))...)
	}
	return errs
}

// validateDeviceAllocationResultV1alpha3 adds the Strict check that a
// device is not listed twice.
func (c *checker) validateDeviceAllocationResultV1alpha3(a *v1alpha3.DeviceAllocationResult, p *field.Path, names map[string]bool) field.ErrorList {
	results := p.Child("results")
	errs := validateSlice(a.Results, V1alpha3AllocationResultsMaxSize, func(r v1alpha3.DeviceRequestAllocationResult, rp *field.Path) field.ErrorList {
		return c.validateDeviceRequestAllocationResultV1alpha3(&r, rp, names)
	}, results)
	if c.opts.Strict {
		// 1.31 does not check that a device is allocated only once.
		seen := map[v1alpha3.DeviceRequestAllocationResult]bool{}
		for i, r := range a.Results {
			if seen[r] {
				errs = append(errs, &field.Error{Type: field.ErrorTypeDuplicate, Field: results.Index(i).String(), BadValue: r,
					Detail: strictDetail("the same request, driver, pool and device are listed twice", string(c.release))})
			}
			seen[r] = true
		}
	}
	return append(errs, validateSlice(a.Config, V1alpha3AllocationConfigMaxSize, func(cfg v1alpha3.DeviceAllocationConfiguration, cp *field.Path) field.ErrorList {
		return c.validateDeviceAllocationConfigurationV1alpha3(&cfg, cp, names)
	}, p.Child("config"))...)
}

func (c *checker) validateDeviceRequestAllocationResultV1alpha3(r *v1alpha3.DeviceRequestAllocationResult, p *field.Path, names map[string]bool) field.ErrorList {
	errs := validateRequestNameRefV1alpha3(r.Request, names, p.Child("request"))
	errs = append(errs, c.validateDriverName(r.Driver, p.Child("driver"))...)
	errs = append(errs, validatePoolNameV1alpha3(r.Pool, p.Child("pool"))...)
	return append(errs, dnsLabel(r.Device, p.Child("device"))...)
}

// validateDeviceAllocationConfigurationV1alpha3 includes 1.31's
// validateAllocationConfigSource.
func (c *checker) validateDeviceAllocationConfigurationV1alpha3(cfg *v1alpha3.DeviceAllocationConfiguration, p *field.Path, names map[string]bool) field.ErrorList {
	var errs field.ErrorList
	switch cfg.Source {
	case "":
		errs = append(errs, field.Required(p.Child("source"), ""))
	case v1alpha3.AllocationConfigSourceClaim, v1alpha3.AllocationConfigSourceClass:
	default:
		errs = append(errs, notSupported(p.Child("source"), string(cfg.Source), v1alpha3ConfigSources))
	}
	errs = append(errs, requestNameRefsV1alpha3(cfg.Requests, names, p.Child("requests"))...)
	return append(errs, c.validateDeviceConfigurationV1alpha3(&cfg.DeviceConfiguration, p)...)
}

// ---------------------------------------------------------------------------
// DeviceClass.

func (c *checker) ValidateDeviceClassV1alpha3(class *v1alpha3.DeviceClass) field.ErrorList {
	errs := objectMeta(&class.ObjectMeta, false)
	return append(errs, c.validateDeviceClassSpecV1alpha3(&class.Spec, false)...)
}

func (c *checker) ValidateDeviceClassUpdateV1alpha3(class, old *v1alpha3.DeviceClass) field.ErrorList {
	errs := objectMetaUpdate(&class.ObjectMeta, &old.ObjectMeta)
	// Unchanged selectors count as stored; any change, even a reordering,
	// makes all of them new.
	stored := semanticEqual(class.Spec.Selectors, old.Spec.Selectors)
	return append(errs, c.validateDeviceClassSpecV1alpha3(&class.Spec, stored)...)
}

// validateDeviceClassSpecV1alpha3 compiles the selectors in the
// stored-expressions environment when stored is set. Its config check is
// 1.31's validateDeviceClassConfiguration.
func (c *checker) validateDeviceClassSpecV1alpha3(spec *v1alpha3.DeviceClassSpec, stored bool) field.ErrorList {
	p := field.NewPath("spec")
	errs := validateSlice(spec.Selectors, V1alpha3DeviceSelectorsMaxSize, func(s v1alpha3.DeviceSelector, sp *field.Path) field.ErrorList {
		return c.validateSelectorV1alpha3(&s, sp, stored)
	}, p.Child("selectors"))
	errs = append(errs, validateSlice(spec.Config, V1alpha3DeviceConfigMaxSize, func(cfg v1alpha3.DeviceClassConfiguration, cp *field.Path) field.ErrorList {
		return c.validateDeviceConfigurationV1alpha3(&cfg.DeviceConfiguration, cp)
	}, p.Child("config"))...)
	if spec.SuitableNodes != nil {
		// 1.31 reports these errors without the "spec." prefix.
		errs = append(errs, nodeSelector(spec.SuitableNodes, field.NewPath("suitableNodes"))...)
	}
	return errs
}

// ---------------------------------------------------------------------------
// PodSchedulingContext.

// ValidatePodSchedulingContextsV1alpha3 (the plural is 1.31's) includes
// validatePodSchedulingSpec, and the Strict check of spec.selectedNode.
func (c *checker) ValidatePodSchedulingContextsV1alpha3(s *v1alpha3.PodSchedulingContext) field.ErrorList {
	errs := objectMeta(&s.ObjectMeta, true)
	errs = append(errs, validateSet(s.Spec.PotentialNodes, V1alpha3NodeListMaxSize, dnsSubdomain, self[string], "", field.NewPath("spec", "potentialNodes"))...)
	return append(errs, c.strictSelectedNode(s.Spec.SelectedNode)...)
}

func (c *checker) ValidatePodSchedulingContextUpdateV1alpha3(s, old *v1alpha3.PodSchedulingContext) field.ErrorList {
	errs := objectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta)
	return append(errs, c.ValidatePodSchedulingContextsV1alpha3(s)...)
}

// ValidatePodSchedulingContextStatusUpdateV1alpha3 includes 1.31's
// validatePodSchedulingStatus and validatePodSchedulingClaim, and the
// Strict check of the claim names.
func (c *checker) ValidatePodSchedulingContextStatusUpdateV1alpha3(s, old *v1alpha3.PodSchedulingContext) field.ErrorList {
	errs := objectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta)
	claims := s.Status.ResourceClaims
	names := make([]string, len(claims))
	for i := range claims {
		names[i] = claims[i].Name
	}
	errs = append(errs, validatePodSchedulingClaims(names, func(i int, p *field.Path) field.ErrorList {
		return validateSet(claims[i].UnsuitableNodes, V1alpha3NodeListMaxSize, dnsSubdomain, self[string], "", p.Child("unsuitableNodes"))
	})...)
	if c.opts.Strict {
		// v1alpha3 marks the name as required, but 1.31 only checks that
		// names are unique.
		for i := range claims {
			if claims[i].Name == "" {
				errs = append(errs, field.Required(field.NewPath("status", "resourceClaims").Index(i).Child("name"),
					strictDetail("the claim name is required", string(c.release))))
			}
		}
	}
	return errs
}

// ---------------------------------------------------------------------------
// ResourceSlice.

func (c *checker) ValidateResourceSliceV1alpha3(s *v1alpha3.ResourceSlice) field.ErrorList {
	errs := objectMeta(&s.ObjectMeta, false)
	return append(errs, c.validateResourceSliceSpecV1alpha3(&s.Spec, nil)...)
}

func (c *checker) ValidateResourceSliceUpdateV1alpha3(s, old *v1alpha3.ResourceSlice) field.ErrorList {
	errs := objectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta)
	return append(errs, c.validateResourceSliceSpecV1alpha3(&s.Spec, &old.Spec)...)
}

// validateResourceSliceSpecV1alpha3 validates a create when old is nil, an
// update of old otherwise.
func (c *checker) validateResourceSliceSpecV1alpha3(spec, old *v1alpha3.ResourceSliceSpec) field.ErrorList {
	p := field.NewPath("spec")
	errs := c.validateDriverName(spec.Driver, p.Child("driver"))
	pool := p.Child("pool")
	errs = append(errs, validateResourcePoolV1alpha3(&spec.Pool, pool)...)
	if old != nil {
		errs = append(errs, immutable(spec.Pool.Name, old.Pool.Name, pool.Child("name"))...)
		errs = append(errs, immutable(spec.Driver, old.Driver, p.Child("driver"))...)
		errs = append(errs, immutable(spec.NodeName, old.NodeName, p.Child("nodeName"))...)
	}

	selections := 0
	if spec.NodeName != "" {
		selections++
		errs = append(errs, dnsSubdomain(spec.NodeName, p.Child("nodeName"))...)
	}
	if spec.NodeSelector != nil {
		selections++
		errs = append(errs, nodeSelector(spec.NodeSelector, p.Child("nodeSelector"))...)
		if terms := spec.NodeSelector.NodeSelectorTerms; len(terms) != V1alpha3SliceNodeSelectorTerms {
			errs = append(errs, field.Invalid(p.Child("nodeSelector", "nodeSelectorTerms"), terms, "must have exactly one selector term"))
		}
	}
	if spec.AllNodes {
		selections++
	}
	switch selections {
	case 0:
		errs = append(errs, field.Required(p, "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required"))
	case 1:
	default:
		errs = append(errs, field.Invalid(p, spec, "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required"))
	}

	return append(errs, validateSet(spec.Devices, V1alpha3SliceMaxDevices, c.validateDeviceV1alpha3,
		func(d v1alpha3.Device) string { return d.Name }, "name", p.Child("devices"))...)
}

func validateResourcePoolV1alpha3(pool *v1alpha3.ResourcePool, p *field.Path) field.ErrorList {
	errs := validatePoolNameV1alpha3(pool.Name, p.Child("name"))
	if pool.ResourceSliceCount <= 0 {
		errs = append(errs, field.Invalid(p.Child("resourceSliceCount"), pool.ResourceSliceCount, "must be greater than zero"))
	}
	if pool.Generation < 0 {
		errs = append(errs, field.Invalid(p.Child("generation"), pool.Generation, "must be greater than or equal to zero"))
	}
	return errs
}

func (c *checker) validateDeviceV1alpha3(d v1alpha3.Device, p *field.Path) field.ErrorList {
	errs := dnsLabel(d.Name, p.Child("name"))
	if d.Basic == nil {
		return append(errs, field.Required(p.Child("basic"), ""))
	}
	return append(errs, c.validateBasicDeviceV1alpha3(d.Basic, p.Child("basic"))...)
}

// validateBasicDeviceV1alpha3 includes 1.31's validateQuantity, which
// accepts every quantity that could be decoded.
func (c *checker) validateBasicDeviceV1alpha3(d *v1alpha3.BasicDevice, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	ap, cp := p.Child("attributes"), p.Child("capacity")
	// Name errors are reported on the whole map, value errors on the entry.
	for _, name := range sortedKeys(d.Attributes) {
		errs = append(errs, c.validateQualifiedNameV1alpha3(string(name), ap)...)
		errs = append(errs, validateDeviceAttributeV1alpha3(d.Attributes[name], ap.Key(string(name)))...)
	}
	for _, name := range sortedKeys(d.Capacity) {
		errs = append(errs, c.validateQualifiedNameV1alpha3(string(name), cp)...)
	}
	if n := len(d.Attributes) + len(d.Capacity); n > V1alpha3MaxAttributesAndCapacities {
		errs = append(errs, field.Invalid(p, n, fmt.Sprintf("the total number of attributes and capacities must not exceed %d", V1alpha3MaxAttributesAndCapacities)))
	}
	return errs
}

func validateDeviceAttributeV1alpha3(a v1alpha3.DeviceAttribute, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	set := 0
	if a.BoolValue != nil {
		set++
	}
	if a.IntValue != nil {
		set++
	}
	if a.StringValue != nil {
		set++
		if len(*a.StringValue) > V1alpha3AttributeValueMaxLength {
			errs = append(errs, tooLongMax(p.Child("string"), *a.StringValue, V1alpha3AttributeValueMaxLength))
		}
	}
	if a.VersionValue != nil {
		set++
		if !semverPattern.MatchString(*a.VersionValue) {
			errs = append(errs, field.Invalid(p.Child("version"), *a.VersionValue, semverMessage))
		}
		if len(*a.VersionValue) > V1alpha3AttributeValueMaxLength {
			errs = append(errs, tooLongMax(p.Child("version"), *a.VersionValue, V1alpha3AttributeValueMaxLength))
		}
	}
	switch set {
	case 0:
		errs = append(errs, field.Required(p, "exactly one value must be specified"))
	case 1:
	default:
		errs = append(errs, field.Invalid(p, a, "exactly one field must be specified"))
	}
	return errs
}
