package validation

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/v1alpha2"
)

// The rules of Kubernetes 1.30, which serves v1alpha2 (with structured
// parameters).

var v1alpha2AllocationModes = []string{
	string(v1alpha2.AllocationModeImmediate),
	string(v1alpha2.AllocationModeWaitForFirstConsumer),
}

func init() {
	register(rules[*v1alpha2.ResourceClaim]{
		release:            release130,
		namespaced:         true,
		resetMetaForStatus: true,
		defaults:           func(o *v1alpha2.ResourceClaim) { v1alpha2.SetObjectDefaults_ResourceClaim(o) },
		prepareCreate:      func(o *v1alpha2.ResourceClaim) { o.Status = v1alpha2.ResourceClaimStatus{} },
		prepareUpdate:      func(o, old *v1alpha2.ResourceClaim) { o.Status = old.Status },
		prepareStatus:      func(o, old *v1alpha2.ResourceClaim) { o.Spec = old.Spec },
		create:             (*checker).a2Claim,
		update: func(c *checker, o, old *v1alpha2.ResourceClaim) field.ErrorList {
			errs := c.a2Claim(o)
			errs = append(errs, objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)...)
			errs = append(errs, immutable(o.Spec, old.Spec, field.NewPath("spec"))...)
			return append(errs, c.a2Claim(o)...)
		},
		status: (*checker).a2ClaimStatusUpdate,
	})
	register(rules[*v1alpha2.ResourceClaimTemplate]{
		release:    release130,
		namespaced: true,
		defaults:   func(o *v1alpha2.ResourceClaimTemplate) { v1alpha2.SetObjectDefaults_ResourceClaimTemplate(o) },
		create:     (*checker).a2ClaimTemplate,
		update: func(c *checker, o, old *v1alpha2.ResourceClaimTemplate) field.ErrorList {
			errs := c.a2ClaimTemplate(o)
			errs = append(errs, objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)...)
			errs = append(errs, immutable(o.Spec, old.Spec, field.NewPath("spec"))...)
			return append(errs, c.a2ClaimTemplate(o)...)
		},
	})
	register(rules[*v1alpha2.ResourceClass]{
		release: release130,
		create:  (*checker).a2Class,
		update: func(c *checker, o, old *v1alpha2.ResourceClass) field.ErrorList {
			errs := c.a2Class(o)
			errs = append(errs, objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)...)
			return append(errs, c.a2Class(o)...)
		},
	})
	register(rules[*v1alpha2.PodSchedulingContext]{
		release:            release130,
		namespaced:         true,
		resetMetaForStatus: true,
		prepareCreate:      func(o *v1alpha2.PodSchedulingContext) { o.Status = v1alpha2.PodSchedulingContextStatus{} },
		prepareUpdate:      func(o, old *v1alpha2.PodSchedulingContext) { o.Status = old.Status },
		prepareStatus:      func(o, old *v1alpha2.PodSchedulingContext) { o.Spec = old.Spec },
		create:             (*checker).a2PodSchedulingContext,
		update: func(c *checker, o, old *v1alpha2.PodSchedulingContext) field.ErrorList {
			errs := c.a2PodSchedulingContext(o)
			errs = append(errs, objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)...)
			return append(errs, c.a2PodSchedulingContext(o)...)
		},
		status: func(c *checker, o, old *v1alpha2.PodSchedulingContext) field.ErrorList {
			errs := objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)
			claims := o.Status.ResourceClaims
			names := make([]string, len(claims))
			for i := range claims {
				names[i] = claims[i].Name
			}
			return append(errs, schedulingClaims(names, func(i int, p *field.Path) field.ErrorList {
				return setBefore131(claims[i].UnsuitableNodes, V1alpha2NodeListMaxSize, dnsSubdomain, p.Child("unsuitableNodes"))
			})...)
		},
	})
	register(rules[*v1alpha2.ResourceSlice]{
		release: release130,
		create:  (*checker).a2Slice,
		update: func(c *checker, o, old *v1alpha2.ResourceSlice) field.ErrorList {
			errs := objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)
			errs = append(errs, c.a2Slice(o)...)
			errs = append(errs, immutable(o.NodeName, old.NodeName, field.NewPath("nodeName"))...)
			return append(errs, immutable(o.DriverName, old.DriverName, field.NewPath("driverName"))...)
		},
	})
	register(rules[*v1alpha2.ResourceClaimParameters]{
		release:    release130,
		namespaced: true,
		create: func(c *checker, o *v1alpha2.ResourceClaimParameters) field.ErrorList {
			return c.a2ClaimParameters(o, false)
		},
		update: func(c *checker, o, old *v1alpha2.ResourceClaimParameters) field.ErrorList {
			errs := objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)
			// Selectors count as stored only when no request changed.
			stored := semanticEqual(o.DriverRequests, old.DriverRequests)
			return append(errs, c.a2ClaimParameters(o, stored)...)
		},
	})
	register(rules[*v1alpha2.ResourceClassParameters]{
		release:    release130,
		namespaced: true,
		create:     (*checker).a2ClassParameters,
		update: func(c *checker, o, old *v1alpha2.ResourceClassParameters) field.ErrorList {
			// 1.30 validates the filters of an update as new expressions,
			// changed or not.
			errs := objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)
			return append(errs, c.a2ClassParameters(o)...)
		},
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

func (c *checker) a2Claim(claim *v1alpha2.ResourceClaim) field.ErrorList {
	errs := objectMeta(&claim.ObjectMeta, true)
	return append(errs, c.a2ClaimSpec(&claim.Spec, field.NewPath("spec"))...)
}

func (c *checker) a2ClaimSpec(spec *v1alpha2.ResourceClaimSpec, p *field.Path) field.ErrorList {
	errs := dnsSubdomain(spec.ResourceClassName, p.Child("resourceClassName"))
	if ref := spec.ParametersRef; ref != nil {
		errs = append(errs, parametersRef(ref.Kind, ref.Name, p.Child("parametersRef"))...)
	}
	if m := spec.AllocationMode; m != v1alpha2.AllocationModeImmediate && m != v1alpha2.AllocationModeWaitForFirstConsumer {
		errs = append(errs, notSupported(p.Child("allocationMode"), string(m), v1alpha2AllocationModes))
	}
	return errs
}

func (c *checker) a2ClaimTemplate(t *v1alpha2.ResourceClaimTemplate) field.ErrorList {
	errs := objectMeta(&t.ObjectMeta, true)
	p := field.NewPath("spec")
	errs = append(errs, templateMeta(&t.Spec.ObjectMeta, p.Child("metadata"))...)
	return append(errs, c.a2ClaimSpec(&t.Spec.Spec, p.Child("spec"))...)
}

func (c *checker) a2ClassParametersRef(ref *v1alpha2.ResourceClassParametersReference, p *field.Path) field.ErrorList {
	if ref == nil {
		return nil
	}
	errs := parametersRef(ref.Kind, ref.Name, p)
	if ref.Namespace != "" {
		errs = append(errs, namespaceName(ref.Namespace, p.Child("namespace"))...)
	}
	return errs
}

func (c *checker) a2Class(class *v1alpha2.ResourceClass) field.ErrorList {
	errs := objectMeta(&class.ObjectMeta, false)
	errs = append(errs, c.driverName(class.DriverName, field.NewPath("driverName"))...)
	errs = append(errs, c.a2ClassParametersRef(class.ParametersRef, field.NewPath("parametersRef"))...)
	if class.SuitableNodes != nil {
		errs = append(errs, nodeSelector(class.SuitableNodes, field.NewPath("suitableNodes"))...)
	}
	return errs
}

func (c *checker) a2PodSchedulingContext(s *v1alpha2.PodSchedulingContext) field.ErrorList {
	errs := objectMeta(&s.ObjectMeta, true)
	errs = append(errs, setBefore131(s.Spec.PotentialNodes, V1alpha2NodeListMaxSize, dnsSubdomain, field.NewPath("spec", "potentialNodes"))...)
	return append(errs, c.strictSelectedNode(s.Spec.SelectedNode)...)
}

// a2ClaimStatusUpdate is the 1.30 status rule set: the 1.26 rules with
// resource handles instead of one handle, plus an immutable allocation.
func (c *checker) a2ClaimStatusUpdate(claim, old *v1alpha2.ResourceClaim) field.ErrorList {
	errs := objectMetaUpdate(&claim.ObjectMeta, &old.ObjectMeta)
	p := field.NewPath("status")
	st := &claim.Status
	if st.DriverName != "" {
		errs = append(errs, c.driverName(st.DriverName, p.Child("driverName"))...)
	} else if st.Allocation != nil {
		errs = append(errs, field.Required(p.Child("driverName"), "must be specified when `allocation` is set"))
	}
	if a := st.Allocation; a != nil {
		ap := p.Child("allocation")
		errs = append(errs, c.a2ResourceHandles(a.ResourceHandles, ap.Child("resourceHandles"))...)
		if a.AvailableOnNodes != nil {
			errs = append(errs, nodeSelector(a.AvailableOnNodes, ap.Child("availableOnNodes"))...)
		}
	}
	errs = append(errs, consumersBefore131(st.ReservedFor, V1alpha2ReservedForMaxSize, func(r v1alpha2.ResourceClaimConsumerReference) (string, string, string) {
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

func (c *checker) a2ResourceHandles(handles []v1alpha2.ResourceHandle, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range handles {
		h, hp := &handles[i], p.Index(i)
		errs = append(errs, c.driverName(h.DriverName, hp.Child("driverName"))...)
		if len(h.Data) > V1alpha2ResourceHandleDataMaxSize {
			errs = append(errs, tooLongMax(hp.Child("data"), len(h.Data), V1alpha2ResourceHandleDataMaxSize))
		}
		if sd := h.StructuredData; sd != nil {
			sp := hp.Child("structuredData")
			if sd.NodeName != "" {
				errs = append(errs, dnsSubdomain(sd.NodeName, sp.Child("nodeName"))...)
			}
			for j := range sd.Results {
				errs = append(errs, a2OneModel(sp.Child("results").Index(j), modelField{"namedResources", sd.Results[j].NamedResources != nil, func(mp *field.Path) field.ErrorList {
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

// a2OneModel checks a model union inlined at p: exactly one field must be
// set, Required if none is (on p itself, which for the top-level model of a
// ResourceSlice is the empty path the server prints as "<nil>").
func a2OneModel(p *field.Path, fields ...modelField) field.ErrorList {
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

func (c *checker) a2Slice(s *v1alpha2.ResourceSlice) field.ErrorList {
	errs := objectMeta(&s.ObjectMeta, false)
	if s.NodeName != "" {
		errs = append(errs, dnsSubdomain(s.NodeName, field.NewPath("nodeName"))...)
	}
	errs = append(errs, c.driverName(s.DriverName, field.NewPath("driverName"))...)
	return append(errs, a2OneModel(nil, modelField{"namedResources", s.NamedResources != nil, func(p *field.Path) field.ErrorList {
		return a2Instances(s.NamedResources.Instances, p.Child("instances"))
	}})...)
}

func a2Instances(instances []v1alpha2.NamedResourcesInstance, p *field.Path) field.ErrorList {
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
		errs = append(errs, a2Attributes(in.Attributes, ip.Child("attributes"))...)
	}
	return errs
}

func a2Attributes(attrs []v1alpha2.NamedResourcesAttribute, p *field.Path) field.ErrorList {
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

func (c *checker) a2ClaimParameters(params *v1alpha2.ResourceClaimParameters, stored bool) field.ErrorList {
	errs := objectMeta(&params.ObjectMeta, true)
	if ref := params.GeneratedFrom; ref != nil {
		errs = append(errs, parametersRef(ref.Kind, ref.Name, field.NewPath("generatedFrom"))...)
	}
	p := field.NewPath("driverRequests")
	seen := map[string]bool{}
	for i := range params.DriverRequests {
		dr, dp := &params.DriverRequests[i], p.Index(i)
		errs = append(errs, c.driverName(dr.DriverName, dp.Child("driverName"))...)
		if seen[dr.DriverName] {
			errs = append(errs, field.Duplicate(dp.Child("driverName"), dr.DriverName))
		} else {
			seen[dr.DriverName] = true
		}
		rp := dp.Child("requests")
		for j := range dr.Requests {
			req := &dr.Requests[j]
			errs = append(errs, a2OneModel(rp.Index(j), modelField{"namedResources", req.NamedResources != nil, func(mp *field.Path) field.ErrorList {
				return c.namedResourcesSelectorExpression(req.NamedResources.Selector, stored, mp.Child("selector"))
			}})...)
		}
		if len(dr.Requests) == 0 {
			errs = append(errs, field.Required(rp, "empty entries with no requests are not allowed"))
		}
	}
	return errs
}

func (c *checker) a2ClassParameters(params *v1alpha2.ResourceClassParameters) field.ErrorList {
	errs := objectMeta(&params.ObjectMeta, true)
	errs = append(errs, c.a2ClassParametersRef(params.GeneratedFrom, field.NewPath("generatedFrom"))...)
	p := field.NewPath("filters")
	seen := map[string]bool{}
	for i := range params.Filters {
		f, fp := &params.Filters[i], p.Index(i)
		errs = append(errs, c.driverName(f.DriverName, fp.Child("driverName"))...)
		if seen[f.DriverName] {
			errs = append(errs, field.Duplicate(fp.Child("driverName"), f.DriverName))
		} else {
			seen[f.DriverName] = true
		}
		errs = append(errs, a2OneModel(fp, modelField{"namedResources", f.NamedResources != nil, func(mp *field.Path) field.ErrorList {
			return c.namedResourcesSelectorExpression(f.NamedResources.Selector, false, mp.Child("selector"))
		}})...)
	}
	p = field.NewPath("vendorParameters")
	seen = map[string]bool{}
	for i := range params.VendorParameters {
		vp, pp := &params.VendorParameters[i], p.Index(i)
		errs = append(errs, c.driverName(vp.DriverName, pp.Child("driverName"))...)
		if seen[vp.DriverName] {
			errs = append(errs, field.Duplicate(pp.Child("driverName"), vp.DriverName))
		} else {
			seen[vp.DriverName] = true
		}
	}
	return errs
}
