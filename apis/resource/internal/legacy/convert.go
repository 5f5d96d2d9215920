package legacy

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// The conversion code that v1alpha1 and v1alpha2 share: the two versions
// say classes and claim specs the same way, in types of their own. Each
// version package keeps the conversion functions under the names upstream
// and conversion-gen give them and calls these for the work.

// ClassToLegacy shows a hub class spec in v1alpha1/v1alpha2 terms. It
// returns the driverName and keeps in the stash of meta (the metadata of
// the converted ResourceClass, a copy of the hub's) what the version cannot
// say: the selectors after the driver's, and the fields lost in the version
// (the config, the extendedResourceName, and structuredParameters where the
// version has no field for it: v1alpha2 has, v1alpha1 has not).
func ClassToLegacy(in *resource.DeviceClassSpec, meta *metav1.ObjectMeta, lost *stash.Fields[resource.DeviceClassSpec]) (driverName string, err error) {
	driver, rest := SplitDriver(in.Selectors)
	keepSelectors := rest != nil && !(driver != "" && len(rest) == 0)
	if !keepSelectors && !lost.AnySet(in) {
		return driver, nil
	}
	st := &stash.Class{V: stash.FormatVersion}
	lost.Keep(in, &st.DeviceClassSpec)
	if keepSelectors {
		st.Selectors = rest
	}
	return driver, stash.Write(meta, "ResourceClass", st)
}

// ClassFromLegacy is the inverse of ClassToLegacy: it takes the stash from
// meta (the hub class's metadata, a copy of the ResourceClass's) and fills
// in the selectors (driverName's selector first) and the lost fields.
func ClassFromLegacy(driverName string, meta *metav1.ObjectMeta, out *resource.DeviceClassSpec, lost *stash.Fields[resource.DeviceClassSpec]) error {
	st, err := stash.Take[stash.Class](meta, "ResourceClass")
	if err != nil {
		return err
	}
	if st == nil {
		// No stash: the class says no more than its own fields.
		out.Selectors = JoinDriver(driverName, nil)
		return nil
	}
	out.Selectors = JoinDriver(driverName, st.Selectors)
	lost.Restore(&st.DeviceClassSpec, out)
	return nil
}

// ClaimShape is what a version cannot say of a claim, derived from the
// types (stash.NewTree): in the spec, in the status and anywhere in the
// structs they nest. The payload keeps the lost fields of the spec, the
// status and the allocation in the hub structs it embeds (Kept paths), and
// those of other structs by path (Claim.Lost).
type ClaimShape struct {
	Spec       *stash.Tree[resource.ResourceClaimSpec]
	Status     *stash.Tree[resource.ResourceClaimStatus]
	SpecLost   *stash.Fields[resource.ResourceClaimSpec]
	StatusLost *stash.Fields[resource.ResourceClaimStatus]
	AllocLost  *stash.Fields[resource.AllocationResult]
}

// NewClaimShape derives a version's ClaimShape from its trees, whose spec,
// status and status.allocation paths must be Kept.
func NewClaimShape(spec *stash.Tree[resource.ResourceClaimSpec], status *stash.Tree[resource.ResourceClaimStatus]) ClaimShape {
	return ClaimShape{
		Spec:       spec,
		Status:     status,
		SpecLost:   stash.LostAt[resource.ResourceClaimSpec](spec, "spec"),
		StatusLost: stash.LostAt[resource.ResourceClaimStatus](status, "status"),
		AllocLost:  stash.LostAt[resource.AllocationResult](status, "status.allocation"),
	}
}

// AnySet reports whether anything the version cannot say is set anywhere
// in spec or status (nil for a template): when nothing is, the payload
// keeps nothing of the types (SpecLost, StatusLost, AllocLost, the Whole
// lists, Collect), and none of that need be asked.
func (c *ClaimShape) AnySet(spec *resource.ResourceClaimSpec, status *resource.ResourceClaimStatus) bool {
	return c.Spec.AnySet(spec) || status != nil && c.Status.AnySet(status)
}

// Collect is what the payload keeps by path of spec and status (nil for a
// template).
func (c *ClaimShape) Collect(spec *resource.ResourceClaimSpec, status *resource.ResourceClaimStatus) stash.Lost {
	lost := c.Spec.Collect(spec, nil)
	if status != nil {
		lost = c.Status.Collect(status, lost)
	}
	return lost
}

// Restore puts back what the payload kept by path (none when st is nil).
func (c *ClaimShape) Restore(st *stash.Claim, spec *resource.ResourceClaimSpec, status *resource.ResourceClaimStatus) {
	if st == nil || st.Lost == nil {
		return
	}
	c.Spec.Restore(st.Lost, spec)
	if status != nil {
		c.Status.Restore(st.Lost, status)
	}
}

// KeepStatus is what the payload keeps of the status fields and of the
// allocation fields the version cannot say: each nil when nothing is kept
// (and allocated only when something is).
func (c *ClaimShape) KeepStatus(in *resource.ResourceClaimStatus) (*stash.ClaimStatus, *stash.Allocation) {
	var st *stash.ClaimStatus
	var alloc *stash.Allocation
	if c.StatusLost.AnySet(in) {
		st = &stash.ClaimStatus{}
		c.StatusLost.Keep(in, &st.ResourceClaimStatus)
	}
	if a := in.Allocation; a != nil && c.AllocLost.AnySet(a) {
		alloc = &stash.Allocation{}
		c.AllocLost.Keep(a, &alloc.AllocationResult)
	}
	return st, alloc
}

// RestoreStatus puts the fields KeepStatus kept back into out (the
// allocation's while out still has one).
func (c *ClaimShape) RestoreStatus(st *stash.ClaimStatus, out *resource.ResourceClaimStatus) {
	c.StatusLost.Restore(&st.ResourceClaimStatus, out)
	if st.Allocation != nil && out.Allocation != nil {
		c.AllocLost.Restore(&st.Allocation.AllocationResult, out.Allocation)
	}
}

// WriteClaimStash keeps in the stash of meta (the metadata of the converted
// ResourceClaim or ResourceClaimTemplate, named by kind) what a
// v1alpha1/v1alpha2 claim spec cannot say of spec, status, what the
// version worked out it cannot say of the claim's status (nil for a
// template, or when nothing needs keeping), and what the version cannot
// say of the structs nested in statusIn (nil for a template).
func WriteClaimStash(meta *metav1.ObjectMeta, kind string, spec *resource.ResourceClaimSpec, status *stash.ClaimStatus, statusIn *resource.ResourceClaimStatus, shape *ClaimShape) error {
	st := stash.Claim{V: stash.FormatVersion, Spec: specStash(spec, shape), Status: status}
	st.SetLost(shape.Collect(spec, statusIn))
	if st.Spec == nil && st.Status == nil && st.Lost == nil {
		return nil
	}
	payload := st // only a stash that is written escapes
	return stash.Write(meta, kind, &payload)
}

// TakeClaimStash takes the stash written by WriteClaimStash from meta and
// puts what it kept of the spec back into out, a hub spec parsed from a
// claim whose resourceClassName is className: the class the claim names
// now wins over what was kept. It returns the stash, for the version to
// restore the status, or nil.
func TakeClaimStash(meta *metav1.ObjectMeta, kind, className string, out *resource.ResourceClaimSpec, shape *ClaimShape) (*stash.Claim, error) {
	st, err := stash.Take[stash.Claim](meta, kind)
	if st == nil || err != nil {
		return nil, err
	}
	restoreSpec(st.Spec, className, out, shape)
	shape.Spec.Restore(st.Lost, out)
	return st, nil
}

// specStash is what a v1alpha1/v1alpha2 claim spec cannot say: the requests
// when resourceClassName does not say all of them, the constraints and
// config, and the spec fields the version lacks (the controller). It is nil
// when nothing needs keeping. The requests are kept without the first
// one's class, which resourceClassName shows, and without what the
// defaults give back (StashRequests).
func specStash(in *resource.ResourceClaimSpec, shape *ClaimShape) *stash.ClaimSpec {
	st := stash.ClaimSpec{Constraints: in.Devices.Constraints, Config: in.Devices.Config}
	if _, exact := ClassName(in.Devices.Requests); !exact {
		requests, undefaulted := StashRequests(in.Devices.Requests)
		if len(requests) > 0 && requests[0].Exactly != nil {
			requests[0].Exactly.DeviceClassName = "" // shown as resourceClassName; a copy
		}
		st.Requests, st.UndefaultedExactly = &requests, undefaulted
	}
	lost := shape.SpecLost.AnySet(in)
	if !lost && st.Requests == nil && st.Constraints == nil && st.Config == nil {
		return nil
	}
	kept := st // only what is kept escapes
	if lost {
		shape.SpecLost.Keep(in, &kept.ResourceClaimSpec)
	}
	return &kept
}

// restoreSpec puts what specStash kept back into out, with the class of
// the first request from className. A first request without exactly has
// no class to show, and className is then the empty string.
func restoreSpec(s *stash.ClaimSpec, className string, out *resource.ResourceClaimSpec, shape *ClaimShape) {
	if s == nil {
		return
	}
	if s.Requests != nil {
		requests := *s.Requests
		if len(requests) > 0 {
			if requests[0].Exactly != nil {
				requests[0].Exactly.DeviceClassName = className
			}
			// After the class: the defaults of an exactly depend on
			// whether it has one.
			RestoreRequests(requests, s.UndefaultedExactly)
		} else if className != "" {
			requests = Requests(className)
		}
		out.Devices.Requests = requests
	}
	out.Devices.Constraints = s.Constraints
	out.Devices.Config = s.Config
	shape.SpecLost.Restore(&s.ResourceClaimSpec, out)
}

// ConvertItems converts the items of a list one by one with convert, the
// conversion of one item; nil stays nil.
func ConvertItems[In, Out any](in []In, out *[]Out, s conversion.Scope, convert func(*In, *Out, conversion.Scope) error) error {
	if in == nil {
		*out = nil
		return nil
	}
	items := make([]Out, len(in))
	for i := range in {
		if err := convert(&in[i], &items[i], s); err != nil {
			return err
		}
	}
	*out = items
	return nil
}
