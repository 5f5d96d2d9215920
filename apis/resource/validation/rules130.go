package validation

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/v1alpha2"
)

// The rules of Kubernetes 1.30, which serves v1alpha2 (with structured
// parameters). Every function here carries the name of the 1.30 function
// whose rules it applies, with the suffix V1alpha2 (see the package
// documentation); the namedResources rules are named after 1.30's package
// pkg/apis/resource/structured/namedresources/validation.

var v1alpha2AllocationModes = []string{
	string(v1alpha2.AllocationModeImmediate),
	string(v1alpha2.AllocationModeWaitForFirstConsumer),
}

func init() {
	register(rules[*v1alpha2.ResourceClaim]{
		namespaced:         true,
		resetMetaForStatus: true,
		defaults:           func(o *v1alpha2.ResourceClaim) { v1alpha2.SetObjectDefaults_ResourceClaim(o) },
		prepareCreate:      func(o *v1alpha2.ResourceClaim) { o.Status = v1alpha2.ResourceClaimStatus{} },
		prepareUpdate:      func(o, old *v1alpha2.ResourceClaim) { o.Status = old.Status },
		prepareStatus:      func(o, old *v1alpha2.ResourceClaim) { o.Spec = old.Spec },
		create:             (*checker).ValidateClaimV1alpha2,
		update: func(c *checker, o, old *v1alpha2.ResourceClaim) field.ErrorList {
			return append(c.ValidateClaimV1alpha2(o), c.ValidateClaimUpdateV1alpha2(o, old)...)
		},
		status: (*checker).ValidateClaimStatusUpdateV1alpha2,
	})
	register(rules[*v1alpha2.ResourceClaimTemplate]{
		namespaced: true,
		defaults:   func(o *v1alpha2.ResourceClaimTemplate) { v1alpha2.SetObjectDefaults_ResourceClaimTemplate(o) },
		create:     (*checker).ValidateClaimTemplateV1alpha2,
		update: func(c *checker, o, old *v1alpha2.ResourceClaimTemplate) field.ErrorList {
			return append(c.ValidateClaimTemplateV1alpha2(o), c.ValidateClaimTemplateUpdateV1alpha2(o, old)...)
		},
	})
	register(rules[*v1alpha2.ResourceClass]{
		create: (*checker).ValidateClassV1alpha2,
		update: func(c *checker, o, old *v1alpha2.ResourceClass) field.ErrorList {
			return append(c.ValidateClassV1alpha2(o), c.ValidateClassUpdateV1alpha2(o, old)...)
		},
	})
	register(rules[*v1alpha2.PodSchedulingContext]{
		namespaced:         true,
		resetMetaForStatus: true,
		prepareCreate:      func(o *v1alpha2.PodSchedulingContext) { o.Status = v1alpha2.PodSchedulingContextStatus{} },
		prepareUpdate:      func(o, old *v1alpha2.PodSchedulingContext) { o.Status = old.Status },
		prepareStatus:      func(o, old *v1alpha2.PodSchedulingContext) { o.Spec = old.Spec },
		create:             (*checker).ValidatePodSchedulingContextsV1alpha2,
		update: func(c *checker, o, old *v1alpha2.PodSchedulingContext) field.ErrorList {
			return append(c.ValidatePodSchedulingContextsV1alpha2(o), c.ValidatePodSchedulingContextUpdateV1alpha2(o, old)...)
		},
		status: (*checker).ValidatePodSchedulingContextStatusUpdateV1alpha2,
	})
	register(rules[*v1alpha2.ResourceSlice]{
		create: (*checker).ValidateResourceSliceV1alpha2,
		update: (*checker).ValidateResourceSliceUpdateV1alpha2,
	})
	register(rules[*v1alpha2.ResourceClaimParameters]{
		namespaced: true,
		create:     (*checker).ValidateResourceClaimParametersV1alpha2,
		update:     (*checker).ValidateResourceClaimParametersUpdateV1alpha2,
	})
	register(rules[*v1alpha2.ResourceClassParameters]{
		namespaced: true,
		create:     (*checker).ValidateResourceClassParametersV1alpha2,
		update:     (*checker).ValidateResourceClassParametersUpdateV1alpha2,
	})

	registerList(func(l *v1alpha2.ResourceClaimList) []*v1alpha2.ResourceClaim { return itemPointers(l.Items) })
	registerList(func(l *v1alpha2.ResourceClaimTemplateList) []*v1alpha2.ResourceClaimTemplate {
		return itemPointers(l.Items)
	})
	registerList(func(l *v1alpha2.ResourceClassList) []*v1alpha2.ResourceClass { return itemPointers(l.Items) })
	registerList(func(l *v1alpha2.PodSchedulingContextList) []*v1alpha2.PodSchedulingContext {
		return itemPointers(l.Items)
	})
	registerList(func(l *v1alpha2.ResourceSliceList) []*v1alpha2.ResourceSlice { return itemPointers(l.Items) })
	registerList(func(l *v1alpha2.ResourceClaimParametersList) []*v1alpha2.ResourceClaimParameters {
		return itemPointers(l.Items)
	})
	registerList(func(l *v1alpha2.ResourceClassParametersList) []*v1alpha2.ResourceClassParameters {
		return itemPointers(l.Items)
	})
}

// ---------------------------------------------------------------------------
// ResourceClaim and ResourceClaimTemplate.

func (c *checker) ValidateClaimV1alpha2(claim *v1alpha2.ResourceClaim) field.ErrorList {
	errs := objectMeta(&claim.ObjectMeta, true)
	return append(errs, c.validateResourceClaimSpecV1alpha2(&claim.Spec, field.NewPath("spec"))...)
}

func (c *checker) ValidateClaimUpdateV1alpha2(claim, old *v1alpha2.ResourceClaim) field.ErrorList {
	errs := objectMetaUpdate(&claim.ObjectMeta, &old.ObjectMeta)
	errs = append(errs, immutable(claim.Spec, old.Spec, field.NewPath("spec"))...)
	return append(errs, c.ValidateClaimV1alpha2(claim)...)
}

// validateResourceClaimSpecV1alpha2 is also the rule for the spec of a
// claim template. Its parametersRef check is 1.30's
// validateResourceClaimParametersRef.
func (c *checker) validateResourceClaimSpecV1alpha2(spec *v1alpha2.ResourceClaimSpec, p *field.Path) field.ErrorList {
	errs := dnsSubdomain(spec.ResourceClassName, p.Child("resourceClassName"))
	if ref := spec.ParametersRef; ref != nil {
		errs = append(errs, parametersRef(ref.Kind, ref.Name, p.Child("parametersRef"))...)
	}
	if m := spec.AllocationMode; m != v1alpha2.AllocationModeImmediate && m != v1alpha2.AllocationModeWaitForFirstConsumer {
		errs = append(errs, notSupported(p.Child("allocationMode"), string(m), v1alpha2AllocationModes))
	}
	return errs
}

// ValidateClaimTemplateV1alpha2 includes 1.30's
// validateResourceClaimTemplateSpec.
func (c *checker) ValidateClaimTemplateV1alpha2(t *v1alpha2.ResourceClaimTemplate) field.ErrorList {
	errs := objectMeta(&t.ObjectMeta, true)
	p := field.NewPath("spec")
	errs = append(errs, templateMeta(&t.Spec.ObjectMeta, p.Child("metadata"))...)
	return append(errs, c.validateResourceClaimSpecV1alpha2(&t.Spec.Spec, p.Child("spec"))...)
}

func (c *checker) ValidateClaimTemplateUpdateV1alpha2(t, old *v1alpha2.ResourceClaimTemplate) field.ErrorList {
	errs := objectMetaUpdate(&t.ObjectMeta, &old.ObjectMeta)
	errs = append(errs, immutable(t.Spec, old.Spec, field.NewPath("spec"))...)
	return append(errs, c.ValidateClaimTemplateV1alpha2(t)...)
}

// ValidateClaimStatusUpdateV1alpha2 is the 1.30 status rule set: the 1.26
// rules with resource handles instead of one handle, plus an immutable
// allocation.
func (c *checker) ValidateClaimStatusUpdateV1alpha2(claim, old *v1alpha2.ResourceClaim) field.ErrorList {
	errs := objectMetaUpdate(&claim.ObjectMeta, &old.ObjectMeta)
	p := field.NewPath("status")
	st := &claim.Status
	if st.DriverName != "" {
		errs = append(errs, c.validateDriverName(st.DriverName, p.Child("driverName"))...)
	} else if st.Allocation != nil {
		errs = append(errs, field.Required(p.Child("driverName"), "must be specified when `allocation` is set"))
	}
	if st.Allocation != nil {
		errs = append(errs, c.validateAllocationResultV1alpha2(st.Allocation, p.Child("allocation"))...)
	}
	errs = append(errs, validateResourceClaimConsumers(st.ReservedFor, V1alpha2ReservedForMaxSize, func(r v1alpha2.ResourceClaimConsumerReference) (string, string, string) {
		return r.Resource, r.Name, string(r.UID)
	}, p.Child("reservedFor"))...)

	now := claimState[v1alpha2.ResourceClaimConsumerReference]{st.Allocation != nil, st.ReservedFor, st.DeallocationRequested}
	before := claimState[v1alpha2.ResourceClaimConsumerReference]{old.Status.Allocation != nil, old.Status.ReservedFor, old.Status.DeallocationRequested}
	if st.Allocation != nil && !st.Allocation.Shareable && len(st.ReservedFor) > V1alpha2UnshareableMaxConsumers {
		errs = append(errs, field.Forbidden(p.Child("reservedFor"), "may not be reserved more than once"))
	}
	errs = append(errs, claimStatusInvariants(now, before, claim.DeletionTimestamp != nil, p)...)
	if st.Allocation != nil && old.Status.Allocation != nil {
		errs = append(errs, immutable(st.Allocation, old.Status.Allocation, p.Child("allocation"))...)
	}
	return append(errs, deallocationInvariants(now, before, p)...)
}

func (c *checker) validateAllocationResultV1alpha2(a *v1alpha2.AllocationResult, p *field.Path) field.ErrorList {
	errs := c.validateResourceHandlesV1alpha2(a.ResourceHandles, p.Child("resourceHandles"))
	if a.AvailableOnNodes != nil {
		errs = append(errs, nodeSelector(a.AvailableOnNodes, p.Child("availableOnNodes"))...)
	}
	return errs
}

// validateResourceHandlesV1alpha2 includes 1.30's
// validateStructuredResourceHandle, validateDriverAllocationResults and
// validateAllocationResultModel.
func (c *checker) validateResourceHandlesV1alpha2(handles []v1alpha2.ResourceHandle, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range handles {
		h, hp := &handles[i], p.Index(i)
		errs = append(errs, c.validateDriverName(h.DriverName, hp.Child("driverName"))...)
		if len(h.Data) > V1alpha2ResourceHandleDataMaxSize {
			errs = append(errs, tooLongMax(hp.Child("data"), len(h.Data), V1alpha2ResourceHandleDataMaxSize))
		}
		if sd := h.StructuredData; sd != nil {
			sp := hp.Child("structuredData")
			if sd.NodeName != "" {
				errs = append(errs, dnsSubdomain(sd.NodeName, sp.Child("nodeName"))...)
			}
			for j := range sd.Results {
				errs = append(errs, exactlyOneModelV1alpha2(sp.Child("results").Index(j), modelField{"namedResources", sd.Results[j].NamedResources != nil, func(mp *field.Path) field.ErrorList {
					return dnsSubdomain(sd.Results[j].NamedResources.Name, mp.Child("name"))
				}})...)
			}
		}
		if h.Data != "" && h.StructuredData != nil {
			errs = append(errs, field.Invalid(hp, nil, "data and structuredData are mutually exclusive"))
		}
	}
	if len(handles) > V1alpha2ResourceHandlesMaxSize {
		errs = append(errs, tooLongMax(p, len(handles), V1alpha2ResourceHandlesMaxSize))
	}
	return errs
}

// modelField is one field of a v1alpha2 "model" union (ResourceModel,
// AllocationResultModel, ResourceRequestModel, ResourceFilterModel), all of
// which have only namedResources so far.
type modelField struct {
	name  string
	set   bool
	check func(*field.Path) field.ErrorList
}

// exactlyOneModelV1alpha2 checks a model union inlined at p: exactly one
// field must be set, Required if none is (on p itself, which for the
// top-level model of a ResourceSlice is the empty path the server prints
// as "<nil>"). It is the rule that 1.30's validateResourceModel,
// validateAllocationResultModel, validateResourceRequestModel and
// validateResourceFilterModel have in common.
func exactlyOneModelV1alpha2(p *field.Path, fields ...modelField) field.ErrorList {
	var errs field.ErrorList
	var set []string
	for _, f := range fields {
		if f.set {
			set = append(set, f.name)
			errs = append(errs, f.check(p.Child(f.name))...)
		}
	}
	switch len(set) {
	case 0:
		errs = append(errs, field.Required(p, "exactly one structured model field must be set"))
	case 1:
	default:
		errs = append(errs, field.Invalid(p, set, "exactly one field must be set, not several"))
	}
	return errs
}

// ---------------------------------------------------------------------------
// ResourceClass.

func (c *checker) ValidateClassV1alpha2(class *v1alpha2.ResourceClass) field.ErrorList {
	errs := objectMeta(&class.ObjectMeta, false)
	errs = append(errs, c.validateDriverName(class.DriverName, field.NewPath("driverName"))...)
	errs = append(errs, validateClassParametersV1alpha2(class.ParametersRef, field.NewPath("parametersRef"))...)
	if class.SuitableNodes != nil {
		errs = append(errs, nodeSelector(class.SuitableNodes, field.NewPath("suitableNodes"))...)
	}
	return errs
}

func (c *checker) ValidateClassUpdateV1alpha2(class, old *v1alpha2.ResourceClass) field.ErrorList {
	errs := objectMetaUpdate(&class.ObjectMeta, &old.ObjectMeta)
	return append(errs, c.ValidateClassV1alpha2(class)...)
}

func validateClassParametersV1alpha2(ref *v1alpha2.ResourceClassParametersReference, p *field.Path) field.ErrorList {
	if ref == nil {
		return nil
	}
	errs := parametersRef(ref.Kind, ref.Name, p)
	if ref.Namespace != "" {
		errs = append(errs, namespaceName(ref.Namespace, p.Child("namespace"))...)
	}
	return errs
}

// ---------------------------------------------------------------------------
// PodSchedulingContext.

// ValidatePodSchedulingContextsV1alpha2 (the plural is 1.30's) includes
// validatePodSchedulingSpec, and the Strict check of spec.selectedNode.
func (c *checker) ValidatePodSchedulingContextsV1alpha2(s *v1alpha2.PodSchedulingContext) field.ErrorList {
	errs := objectMeta(&s.ObjectMeta, true)
	errs = append(errs, validateSliceIsASet(s.Spec.PotentialNodes, V1alpha2NodeListMaxSize, dnsSubdomain, field.NewPath("spec", "potentialNodes"))...)
	return append(errs, c.strictSelectedNode(s.Spec.SelectedNode)...)
}

func (c *checker) ValidatePodSchedulingContextUpdateV1alpha2(s, old *v1alpha2.PodSchedulingContext) field.ErrorList {
	errs := objectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta)
	return append(errs, c.ValidatePodSchedulingContextsV1alpha2(s)...)
}

// ValidatePodSchedulingContextStatusUpdateV1alpha2 includes 1.30's
// validatePodSchedulingStatus and validatePodSchedulingClaim.
func (c *checker) ValidatePodSchedulingContextStatusUpdateV1alpha2(s, old *v1alpha2.PodSchedulingContext) field.ErrorList {
	errs := objectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta)
	claims := s.Status.ResourceClaims
	names := make([]string, len(claims))
	for i := range claims {
		names[i] = claims[i].Name
	}
	return append(errs, validatePodSchedulingClaims(names, func(i int, p *field.Path) field.ErrorList {
		return validateSliceIsASet(claims[i].UnsuitableNodes, V1alpha2NodeListMaxSize, dnsSubdomain, p.Child("unsuitableNodes"))
	})...)
}

// ---------------------------------------------------------------------------
// ResourceSlice.

// ValidateResourceSliceV1alpha2 includes 1.30's validateResourceModel and
// the namedResources package's ValidateResources.
func (c *checker) ValidateResourceSliceV1alpha2(s *v1alpha2.ResourceSlice) field.ErrorList {
	errs := objectMeta(&s.ObjectMeta, false)
	if s.NodeName != "" {
		errs = append(errs, dnsSubdomain(s.NodeName, field.NewPath("nodeName"))...)
	}
	errs = append(errs, c.validateDriverName(s.DriverName, field.NewPath("driverName"))...)
	return append(errs, exactlyOneModelV1alpha2(nil, modelField{"namedResources", s.NamedResources != nil, func(p *field.Path) field.ErrorList {
		return validateInstancesV1alpha2(s.NamedResources.Instances, p.Child("instances"))
	}})...)
}

func (c *checker) ValidateResourceSliceUpdateV1alpha2(s, old *v1alpha2.ResourceSlice) field.ErrorList {
	errs := objectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta)
	errs = append(errs, c.ValidateResourceSliceV1alpha2(s)...)
	errs = append(errs, immutable(s.NodeName, old.NodeName, field.NewPath("nodeName"))...)
	return append(errs, immutable(s.DriverName, old.DriverName, field.NewPath("driverName"))...)
}

func validateInstancesV1alpha2(instances []v1alpha2.NamedResourcesInstance, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i := range instances {
		in, ip := &instances[i], p.Index(i)
		errs = append(errs, dnsSubdomain(in.Name, ip.Child("name"))...)
		if seen[in.Name] {
			errs = append(errs, field.Duplicate(ip.Child("name"), in.Name))
		} else {
			seen[in.Name] = true
		}
		errs = append(errs, validateAttributesV1alpha2(in.Attributes, ip.Child("attributes"))...)
	}
	return errs
}

func validateAttributesV1alpha2(attrs []v1alpha2.NamedResourcesAttribute, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i := range attrs {
		a, ap := &attrs[i], p.Index(i)
		errs = append(errs, dnsSubdomain(a.Name, ap.Child("name"))...)
		if seen[a.Name] {
			errs = append(errs, field.Duplicate(ap.Child("name"), a.Name))
		} else {
			seen[a.Name] = true
		}
		// The value fields, in the order the release lists them.
		var set []string
		for _, v := range []struct {
			name string
			set  bool
		}{
			{"bool", a.BoolValue != nil},
			{"int", a.IntValue != nil},
			{"intSlice", a.IntSliceValue != nil},
			{"quantity", a.QuantityValue != nil},
			{"string", a.StringValue != nil},
			{"stringSlice", a.StringSliceValue != nil},
			{"version", a.VersionValue != nil},
		} {
			if v.set {
				set = append(set, v.name)
			}
		}
		if a.VersionValue != nil && !semverPattern.MatchString(*a.VersionValue) {
			errs = append(errs, field.Invalid(ap.Child("version"), *a.VersionValue, semverMessage))
		}
		switch len(set) {
		case 0:
			errs = append(errs, field.Required(ap, "exactly one value must be set"))
		case 1:
		default:
			errs = append(errs, field.Invalid(ap, set, "exactly one field must be set, not several"))
		}
	}
	return errs
}

// ---------------------------------------------------------------------------
// ResourceClaimParameters and ResourceClassParameters.

func (c *checker) ValidateResourceClaimParametersV1alpha2(params *v1alpha2.ResourceClaimParameters) field.ErrorList {
	return c.validateResourceClaimParametersV1alpha2(params, false)
}

func (c *checker) ValidateResourceClaimParametersUpdateV1alpha2(params, old *v1alpha2.ResourceClaimParameters) field.ErrorList {
	errs := objectMetaUpdate(&params.ObjectMeta, &old.ObjectMeta)
	// Selectors count as stored only when no request changed.
	stored := semanticEqual(params.DriverRequests, old.DriverRequests)
	return append(errs, c.validateResourceClaimParametersV1alpha2(params, stored)...)
}

// validateResourceClaimParametersV1alpha2 compiles the selectors in the
// stored-expressions environment when stored is set. Its generatedFrom
// check is 1.30's validateResourceClaimParametersRef.
func (c *checker) validateResourceClaimParametersV1alpha2(params *v1alpha2.ResourceClaimParameters, stored bool) field.ErrorList {
	errs := objectMeta(&params.ObjectMeta, true)
	if ref := params.GeneratedFrom; ref != nil {
		errs = append(errs, parametersRef(ref.Kind, ref.Name, field.NewPath("generatedFrom"))...)
	}
	return append(errs, c.validateDriverRequestsV1alpha2(params.DriverRequests, field.NewPath("driverRequests"), stored)...)
}

func (c *checker) validateDriverRequestsV1alpha2(requests []v1alpha2.DriverRequests, p *field.Path, stored bool) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i := range requests {
		dr, dp := &requests[i], p.Index(i)
		errs = append(errs, c.validateDriverName(dr.DriverName, dp.Child("driverName"))...)
		if seen[dr.DriverName] {
			errs = append(errs, field.Duplicate(dp.Child("driverName"), dr.DriverName))
		} else {
			seen[dr.DriverName] = true
		}
		errs = append(errs, c.validateResourceRequestsV1alpha2(dr.Requests, dp.Child("requests"), stored)...)
	}
	return errs
}

// validateResourceRequestsV1alpha2 includes 1.30's
// validateResourceRequestModel and the namedResources package's
// ValidateRequest.
func (c *checker) validateResourceRequestsV1alpha2(requests []v1alpha2.ResourceRequest, p *field.Path, stored bool) field.ErrorList {
	var errs field.ErrorList
	for j := range requests {
		req := &requests[j]
		errs = append(errs, exactlyOneModelV1alpha2(p.Index(j), modelField{"namedResources", req.NamedResources != nil, func(mp *field.Path) field.ErrorList {
			return c.namedResourcesSelectorExpression(req.NamedResources.Selector, stored, mp.Child("selector"))
		}})...)
	}
	if len(requests) == 0 {
		errs = append(errs, field.Required(p, "empty entries with no requests are not allowed"))
	}
	return errs
}

// ValidateResourceClassParametersV1alpha2 compiles the filters' selectors
// as new expressions, as 1.30 does on create and on every update.
func (c *checker) ValidateResourceClassParametersV1alpha2(params *v1alpha2.ResourceClassParameters) field.ErrorList {
	errs := objectMeta(&params.ObjectMeta, true)
	errs = append(errs, validateClassParametersV1alpha2(params.GeneratedFrom, field.NewPath("generatedFrom"))...)
	errs = append(errs, c.validateResourceFiltersV1alpha2(params.Filters, field.NewPath("filters"))...)
	return append(errs, c.validateVendorParametersV1alpha2(params.VendorParameters, field.NewPath("vendorParameters"))...)
}

func (c *checker) ValidateResourceClassParametersUpdateV1alpha2(params, old *v1alpha2.ResourceClassParameters) field.ErrorList {
	// 1.30 validates the filters of an update as new expressions, changed
	// or not.
	errs := objectMetaUpdate(&params.ObjectMeta, &old.ObjectMeta)
	return append(errs, c.ValidateResourceClassParametersV1alpha2(params)...)
}

// validateResourceFiltersV1alpha2 includes 1.30's
// validateResourceFilterModel and the namedResources package's
// ValidateFilter.
func (c *checker) validateResourceFiltersV1alpha2(filters []v1alpha2.ResourceFilter, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i := range filters {
		f, fp := &filters[i], p.Index(i)
		errs = append(errs, c.validateDriverName(f.DriverName, fp.Child("driverName"))...)
		if seen[f.DriverName] {
			errs = append(errs, field.Duplicate(fp.Child("driverName"), f.DriverName))
		} else {
			seen[f.DriverName] = true
		}
		errs = append(errs, exactlyOneModelV1alpha2(fp, modelField{"namedResources", f.NamedResources != nil, func(mp *field.Path) field.ErrorList {
			return c.namedResourcesSelectorExpression(f.NamedResources.Selector, false, mp.Child("selector"))
		}})...)
	}
	return errs
}

func (c *checker) validateVendorParametersV1alpha2(params []v1alpha2.VendorParameters, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i := range params {
		vp, pp := &params[i], p.Index(i)
		errs = append(errs, c.validateDriverName(vp.DriverName, pp.Child("driverName"))...)
		if seen[vp.DriverName] {
			errs = append(errs, field.Duplicate(pp.Child("driverName"), vp.DriverName))
		} else {
			seen[vp.DriverName] = true
		}
	}
	return errs
}
