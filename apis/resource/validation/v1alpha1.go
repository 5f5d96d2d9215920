package validation

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/v1alpha1"
)

// The rules of Kubernetes 1.26, which serves v1alpha1.

var v1alpha1AllocationModes = []string{
	string(v1alpha1.AllocationModeImmediate),
	string(v1alpha1.AllocationModeWaitForFirstConsumer),
}

func init() {
	register(rules[*v1alpha1.ResourceClaim]{
		release:    release126,
		namespaced: true,
		defaults:   func(o *v1alpha1.ResourceClaim) { v1alpha1.SetObjectDefaults_ResourceClaim(o) },
		prepareCreate: func(o *v1alpha1.ResourceClaim) {
			o.Status = v1alpha1.ResourceClaimStatus{}
		},
		prepareUpdate: func(o, old *v1alpha1.ResourceClaim) { o.Status = old.Status },
		prepareStatus: func(o, old *v1alpha1.ResourceClaim) { o.Spec = old.Spec },
		create:        (*checker).a1Claim,
		update: func(c *checker, o, old *v1alpha1.ResourceClaim) field.ErrorList {
			errs := c.a1Claim(o)
			errs = append(errs, objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)...)
			errs = append(errs, immutable(o.Spec, old.Spec, field.NewPath("spec"))...)
			return append(errs, c.a1Claim(o)...)
		},
		status: (*checker).a1ClaimStatusUpdate,
	})
	register(rules[*v1alpha1.ResourceClaimTemplate]{
		release:    release126,
		namespaced: true,
		defaults:   func(o *v1alpha1.ResourceClaimTemplate) { v1alpha1.SetObjectDefaults_ResourceClaimTemplate(o) },
		create:     (*checker).a1ClaimTemplate,
		update: func(c *checker, o, old *v1alpha1.ResourceClaimTemplate) field.ErrorList {
			errs := c.a1ClaimTemplate(o)
			errs = append(errs, objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)...)
			errs = append(errs, immutable(o.Spec, old.Spec, field.NewPath("spec"))...)
			return append(errs, c.a1ClaimTemplate(o)...)
		},
	})
	register(rules[*v1alpha1.ResourceClass]{
		release: release126,
		create:  (*checker).a1Class,
		update: func(c *checker, o, old *v1alpha1.ResourceClass) field.ErrorList {
			errs := c.a1Class(o)
			errs = append(errs, objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)...)
			return append(errs, c.a1Class(o)...)
		},
	})
	register(rules[*v1alpha1.PodScheduling]{
		release:    release126,
		namespaced: true,
		prepareCreate: func(o *v1alpha1.PodScheduling) {
			o.Status = v1alpha1.PodSchedulingStatus{}
		},
		prepareUpdate: func(o, old *v1alpha1.PodScheduling) { o.Status = old.Status },
		prepareStatus: func(o, old *v1alpha1.PodScheduling) { o.Spec = old.Spec },
		create:        (*checker).a1PodScheduling,
		update: func(c *checker, o, old *v1alpha1.PodScheduling) field.ErrorList {
			errs := c.a1PodScheduling(o)
			errs = append(errs, objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)...)
			return append(errs, c.a1PodScheduling(o)...)
		},
		status: func(c *checker, o, old *v1alpha1.PodScheduling) field.ErrorList {
			errs := objectMetaUpdate(&o.ObjectMeta, &old.ObjectMeta)
			claims := o.Status.ResourceClaims
			names := make([]string, len(claims))
			for i := range claims {
				names[i] = claims[i].Name
			}
			errs = append(errs, schedulingClaims(names, func(i int, p *field.Path) field.ErrorList {
				return setBefore131(claims[i].UnsuitableNodes, V1alpha1NodeListMaxSize, dnsSubdomain, p.Child("unsuitableNodes"))
			})...)
			return errs
		},
	})

	registerList(func(l *v1alpha1.ResourceClaimList) []*v1alpha1.ResourceClaim { return itemPointers(l.Items) })
	registerList(func(l *v1alpha1.ResourceClaimTemplateList) []*v1alpha1.ResourceClaimTemplate {
		return itemPointers(l.Items)
	})
	registerList(func(l *v1alpha1.ResourceClassList) []*v1alpha1.ResourceClass { return itemPointers(l.Items) })
	registerList(func(l *v1alpha1.PodSchedulingList) []*v1alpha1.PodScheduling { return itemPointers(l.Items) })
}

func (c *checker) a1Claim(claim *v1alpha1.ResourceClaim) field.ErrorList {
	errs := objectMeta(&claim.ObjectMeta, true)
	return append(errs, c.a1ClaimSpec(&claim.Spec, field.NewPath("spec"))...)
}

// a1ClaimSpec is also the rule for the spec of a claim template, and the
// same in 1.30.
func (c *checker) a1ClaimSpec(spec *v1alpha1.ResourceClaimSpec, p *field.Path) field.ErrorList {
	errs := dnsSubdomain(spec.ResourceClassName, p.Child("resourceClassName"))
	if ref := spec.ParametersRef; ref != nil {
		errs = append(errs, parametersRef(ref.Kind, ref.Name, p.Child("parametersRef"))...)
	}
	if m := spec.AllocationMode; m != v1alpha1.AllocationModeImmediate && m != v1alpha1.AllocationModeWaitForFirstConsumer {
		errs = append(errs, notSupported(p.Child("allocationMode"), string(m), v1alpha1AllocationModes))
	}
	return errs
}

func (c *checker) a1ClaimTemplate(t *v1alpha1.ResourceClaimTemplate) field.ErrorList {
	errs := objectMeta(&t.ObjectMeta, true)
	p := field.NewPath("spec")
	errs = append(errs, templateMeta(&t.Spec.ObjectMeta, p.Child("metadata"))...)
	return append(errs, c.a1ClaimSpec(&t.Spec.Spec, p.Child("spec"))...)
}

func (c *checker) a1Class(class *v1alpha1.ResourceClass) field.ErrorList {
	errs := objectMeta(&class.ObjectMeta, false)
	errs = append(errs, c.driverName(class.DriverName, field.NewPath("driverName"))...)
	if ref := class.ParametersRef; ref != nil {
		p := field.NewPath("parametersRef")
		errs = append(errs, parametersRef(ref.Kind, ref.Name, p)...)
		if ref.Namespace != "" {
			errs = append(errs, namespaceName(ref.Namespace, p.Child("namespace"))...)
		}
	}
	if class.SuitableNodes != nil {
		errs = append(errs, nodeSelector(class.SuitableNodes, field.NewPath("suitableNodes"))...)
	}
	return errs
}

func (c *checker) a1PodScheduling(s *v1alpha1.PodScheduling) field.ErrorList {
	errs := objectMeta(&s.ObjectMeta, true)
	errs = append(errs, setBefore131(s.Spec.PotentialNodes, V1alpha1NodeListMaxSize, dnsSubdomain, field.NewPath("spec", "potentialNodes"))...)
	return append(errs, c.strictSelectedNode(s.Spec.SelectedNode)...)
}

// a1ClaimStatusUpdate is the 1.26 status rule set: the driver name, the
// allocation, reservedFor and every transition invariant.
func (c *checker) a1ClaimStatusUpdate(claim, old *v1alpha1.ResourceClaim) field.ErrorList {
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
		if len(a.ResourceHandle) > V1alpha1ResourceHandleMaxSize {
			errs = append(errs, tooLongMax(ap.Child("resourceHandle"), len(a.ResourceHandle), V1alpha1ResourceHandleMaxSize))
		}
		if a.AvailableOnNodes != nil {
			errs = append(errs, nodeSelector(a.AvailableOnNodes, ap.Child("availableOnNodes"))...)
		}
	}
	errs = append(errs, consumersBefore131(st.ReservedFor, V1alpha1ReservedForMaxSize, func(r v1alpha1.ResourceClaimConsumerReference) (string, string, string) {
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

// consumersBefore131 checks status.reservedFor as 1.26 and 1.30 do: a
// repeated uid is a Duplicate (on the uid) and not checked further, every
// other entry needs resource, name and uid.
func consumersBefore131[T any](refs []T, max int, fields func(T) (resource, name, uid string), p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := make(map[string]bool, len(refs))
	for i, r := range refs {
		resource, name, uid := fields(r)
		if seen[uid] {
			errs = append(errs, field.Duplicate(p.Index(i).Child("uid"), uid))
			continue
		}
		seen[uid] = true
		errs = append(errs, consumerRef(resource, name, uid, p.Index(i))...)
	}
	if len(refs) > max {
		errs = append(errs, tooLongMax(p, len(refs), max))
	}
	return errs
}
