package validation

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/v1alpha1"
)

// The rules of Kubernetes 1.26, which serves v1alpha1. Every function here
// carries the name of the 1.26 function whose rules it applies, with the
// suffix V1alpha1 (see the package documentation).

var v1alpha1AllocationModes = []string{
	string(v1alpha1.AllocationModeImmediate),
	string(v1alpha1.AllocationModeWaitForFirstConsumer),
}

func init() {
	register(rules[*v1alpha1.ResourceClaim]{
		namespaced: true,
		defaults:   func(o *v1alpha1.ResourceClaim) { v1alpha1.SetObjectDefaults_ResourceClaim(o) },
		prepareCreate: func(o *v1alpha1.ResourceClaim) {
			o.Status = v1alpha1.ResourceClaimStatus{}
		},
		prepareUpdate: func(o, old *v1alpha1.ResourceClaim) { o.Status = old.Status },
		prepareStatus: func(o, old *v1alpha1.ResourceClaim) { o.Spec = old.Spec },
		create:        (*checker).ValidateClaimV1alpha1,
		update: func(c *checker, o, old *v1alpha1.ResourceClaim) field.ErrorList {
			return append(c.ValidateClaimV1alpha1(o), c.ValidateClaimUpdateV1alpha1(o, old)...)
		},
		status: (*checker).ValidateClaimStatusUpdateV1alpha1,
	})
	register(rules[*v1alpha1.ResourceClaimTemplate]{
		namespaced: true,
		defaults:   func(o *v1alpha1.ResourceClaimTemplate) { v1alpha1.SetObjectDefaults_ResourceClaimTemplate(o) },
		create:     (*checker).ValidateClaimTemplateV1alpha1,
		update: func(c *checker, o, old *v1alpha1.ResourceClaimTemplate) field.ErrorList {
			return append(c.ValidateClaimTemplateV1alpha1(o), c.ValidateClaimTemplateUpdateV1alpha1(o, old)...)
		},
	})
	register(rules[*v1alpha1.ResourceClass]{
		create: (*checker).ValidateClassV1alpha1,
		update: func(c *checker, o, old *v1alpha1.ResourceClass) field.ErrorList {
			return append(c.ValidateClassV1alpha1(o), c.ValidateClassUpdateV1alpha1(o, old)...)
		},
	})
	register(rules[*v1alpha1.PodScheduling]{
		namespaced: true,
		prepareCreate: func(o *v1alpha1.PodScheduling) {
			o.Status = v1alpha1.PodSchedulingStatus{}
		},
		prepareUpdate: func(o, old *v1alpha1.PodScheduling) { o.Status = old.Status },
		prepareStatus: func(o, old *v1alpha1.PodScheduling) { o.Spec = old.Spec },
		create:        (*checker).ValidatePodSchedulingV1alpha1,
		update: func(c *checker, o, old *v1alpha1.PodScheduling) field.ErrorList {
			return append(c.ValidatePodSchedulingV1alpha1(o), c.ValidatePodSchedulingUpdateV1alpha1(o, old)...)
		},
		status: (*checker).ValidatePodSchedulingStatusUpdateV1alpha1,
	})

	registerList(func(l *v1alpha1.ResourceClaimList) []*v1alpha1.ResourceClaim { return itemPointers(l.Items) })
	registerList(func(l *v1alpha1.ResourceClaimTemplateList) []*v1alpha1.ResourceClaimTemplate {
		return itemPointers(l.Items)
	})
	registerList(func(l *v1alpha1.ResourceClassList) []*v1alpha1.ResourceClass { return itemPointers(l.Items) })
	registerList(func(l *v1alpha1.PodSchedulingList) []*v1alpha1.PodScheduling { return itemPointers(l.Items) })
}

// ---------------------------------------------------------------------------
// ResourceClaim and ResourceClaimTemplate.

func (c *checker) ValidateClaimV1alpha1(claim *v1alpha1.ResourceClaim) field.ErrorList {
	errs := objectMeta(&claim.ObjectMeta, true)
	return append(errs, c.validateResourceClaimSpecV1alpha1(&claim.Spec, field.NewPath("spec"))...)
}

func (c *checker) ValidateClaimUpdateV1alpha1(claim, old *v1alpha1.ResourceClaim) field.ErrorList {
	errs := objectMetaUpdate(&claim.ObjectMeta, &old.ObjectMeta)
	errs = append(errs, immutable(claim.Spec, old.Spec, field.NewPath("spec"))...)
	return append(errs, c.ValidateClaimV1alpha1(claim)...)
}

// validateResourceClaimSpecV1alpha1 is also the rule for the spec of a
// claim template. Its parametersRef check is 1.26's
// validateResourceClaimParameters.
func (c *checker) validateResourceClaimSpecV1alpha1(spec *v1alpha1.ResourceClaimSpec, p *field.Path) field.ErrorList {
	errs := dnsSubdomain(spec.ResourceClassName, p.Child("resourceClassName"))
	if ref := spec.ParametersRef; ref != nil {
		errs = append(errs, parametersRef(ref.Kind, ref.Name, p.Child("parametersRef"))...)
	}
	if m := spec.AllocationMode; m != v1alpha1.AllocationModeImmediate && m != v1alpha1.AllocationModeWaitForFirstConsumer {
		errs = append(errs, notSupported(p.Child("allocationMode"), string(m), v1alpha1AllocationModes))
	}
	return errs
}

// ValidateClaimTemplateV1alpha1 includes 1.26's
// validateResourceClaimTemplateSpec.
func (c *checker) ValidateClaimTemplateV1alpha1(t *v1alpha1.ResourceClaimTemplate) field.ErrorList {
	errs := objectMeta(&t.ObjectMeta, true)
	p := field.NewPath("spec")
	errs = append(errs, templateMeta(&t.Spec.ObjectMeta, p.Child("metadata"))...)
	return append(errs, c.validateResourceClaimSpecV1alpha1(&t.Spec.Spec, p.Child("spec"))...)
}

func (c *checker) ValidateClaimTemplateUpdateV1alpha1(t, old *v1alpha1.ResourceClaimTemplate) field.ErrorList {
	errs := objectMetaUpdate(&t.ObjectMeta, &old.ObjectMeta)
	errs = append(errs, immutable(t.Spec, old.Spec, field.NewPath("spec"))...)
	return append(errs, c.ValidateClaimTemplateV1alpha1(t)...)
}

// ValidateClaimStatusUpdateV1alpha1 is the 1.26 status rule set: the driver
// name, the allocation, reservedFor and every transition invariant.
func (c *checker) ValidateClaimStatusUpdateV1alpha1(claim, old *v1alpha1.ResourceClaim) field.ErrorList {
	errs := objectMetaUpdate(&claim.ObjectMeta, &old.ObjectMeta)
	p := field.NewPath("status")
	st := &claim.Status
	if st.DriverName != "" {
		errs = append(errs, c.validateDriverName(st.DriverName, p.Child("driverName"))...)
	} else if st.Allocation != nil {
		errs = append(errs, field.Required(p.Child("driverName"), "must be specified when `allocation` is set"))
	}
	if st.Allocation != nil {
		errs = append(errs, validateAllocationResultV1alpha1(st.Allocation, p.Child("allocation"))...)
	}
	errs = append(errs, validateResourceClaimConsumers(st.ReservedFor, V1alpha1ReservedForMaxSize, func(r v1alpha1.ResourceClaimConsumerReference) (string, string, string) {
		return r.Resource, r.Name, string(r.UID)
	}, p.Child("reservedFor"))...)

	now := claimState[v1alpha1.ResourceClaimConsumerReference]{st.Allocation != nil, st.ReservedFor, st.DeallocationRequested}
	before := claimState[v1alpha1.ResourceClaimConsumerReference]{old.Status.Allocation != nil, old.Status.ReservedFor, old.Status.DeallocationRequested}
	if st.Allocation != nil && !st.Allocation.Shareable && len(st.ReservedFor) > V1alpha1UnshareableMaxConsumers {
		errs = append(errs, field.Forbidden(p.Child("reservedFor"), "may not be reserved more than once"))
	}
	errs = append(errs, claimStatusInvariants(now, before, claim.DeletionTimestamp != nil, p)...)
	return append(errs, deallocationInvariants(now, before, p)...)
}

func validateAllocationResultV1alpha1(a *v1alpha1.AllocationResult, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(a.ResourceHandle) > V1alpha1ResourceHandleMaxSize {
		errs = append(errs, tooLongMax(p.Child("resourceHandle"), len(a.ResourceHandle), V1alpha1ResourceHandleMaxSize))
	}
	if a.AvailableOnNodes != nil {
		errs = append(errs, nodeSelector(a.AvailableOnNodes, p.Child("availableOnNodes"))...)
	}
	return errs
}

// ---------------------------------------------------------------------------
// ResourceClass.

func (c *checker) ValidateClassV1alpha1(class *v1alpha1.ResourceClass) field.ErrorList {
	errs := objectMeta(&class.ObjectMeta, false)
	errs = append(errs, c.validateDriverName(class.DriverName, field.NewPath("driverName"))...)
	errs = append(errs, validateClassParametersV1alpha1(class.ParametersRef, field.NewPath("parametersRef"))...)
	if class.SuitableNodes != nil {
		errs = append(errs, nodeSelector(class.SuitableNodes, field.NewPath("suitableNodes"))...)
	}
	return errs
}

func (c *checker) ValidateClassUpdateV1alpha1(class, old *v1alpha1.ResourceClass) field.ErrorList {
	errs := objectMetaUpdate(&class.ObjectMeta, &old.ObjectMeta)
	return append(errs, c.ValidateClassV1alpha1(class)...)
}

func validateClassParametersV1alpha1(ref *v1alpha1.ResourceClassParametersReference, p *field.Path) field.ErrorList {
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
// PodScheduling.

// ValidatePodSchedulingV1alpha1 includes 1.26's validatePodSchedulingSpec,
// and the Strict check of spec.selectedNode.
func (c *checker) ValidatePodSchedulingV1alpha1(s *v1alpha1.PodScheduling) field.ErrorList {
	errs := objectMeta(&s.ObjectMeta, true)
	errs = append(errs, validateSliceIsASet(s.Spec.PotentialNodes, V1alpha1NodeListMaxSize, dnsSubdomain, field.NewPath("spec", "potentialNodes"))...)
	return append(errs, c.strictSelectedNode(s.Spec.SelectedNode)...)
}

func (c *checker) ValidatePodSchedulingUpdateV1alpha1(s, old *v1alpha1.PodScheduling) field.ErrorList {
	errs := objectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta)
	return append(errs, c.ValidatePodSchedulingV1alpha1(s)...)
}

// ValidatePodSchedulingStatusUpdateV1alpha1 includes 1.26's
// validatePodSchedulingStatus and validatePodSchedulingClaim.
func (c *checker) ValidatePodSchedulingStatusUpdateV1alpha1(s, old *v1alpha1.PodScheduling) field.ErrorList {
	errs := objectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta)
	claims := s.Status.ResourceClaims
	names := make([]string, len(claims))
	for i := range claims {
		names[i] = claims[i].Name
	}
	return append(errs, validatePodSchedulingClaims(names, func(i int, p *field.Path) field.ErrorList {
		return validateSliceIsASet(claims[i].UnsuitableNodes, V1alpha1NodeListMaxSize, dnsSubdomain, p.Child("unsuitableNodes"))
	})...)
}
