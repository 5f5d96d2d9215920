package allocator

import (
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/quantityguard"
)

// Quantities beyond quantityguard's bound must not reach the allocator's
// comparisons and sums, which would take unbounded time over them. The
// checks here look at exactly the quantities a hub slice and claim spec
// hold (TestSpecQuantitiesAreChecked keeps the lists complete), without
// quantityguard.FirstField's reflective walk, which cost about a fifth of
// a warm allocation per claim and a third of a cold one per slice; the
// walk runs only to name the field once something is beyond the bound.

// sliceQuantityBeyondBound is the first quantity of a slice's spec beyond
// the bound, at its field path, or nil.
func sliceQuantityBeyondBound(spec *resource.ResourceSliceSpec) *field.Error {
	if !sliceHasQuantityBeyondBound(spec) {
		return nil
	}
	return quantityguard.FirstField(spec, field.NewPath("spec"))
}

func sliceHasQuantityBeyondBound(spec *resource.ResourceSliceSpec) bool {
	for i := range spec.SharedCounters {
		if countersBeyondBound(spec.SharedCounters[i].Counters) {
			return true
		}
	}
	for i := range spec.Devices {
		d := &spec.Devices[i]
		for _, c := range d.Capacity {
			if beyondBound(&c.Value) || policyBeyondBound(c.RequestPolicy) {
				return true
			}
		}
		for j := range d.ConsumesCounters {
			if countersBeyondBound(d.ConsumesCounters[j].Counters) {
				return true
			}
		}
		for _, r := range d.NodeAllocatableResources {
			if m := r.Mapping; m != nil && (beyondBound(m.CapacityMultiplier) || beyondBound(m.DeviceMultiplier)) {
				return true
			}
			if o := r.Overhead; o != nil && (beyondBound(o.PerPod) || beyondBound(o.PerContainer)) {
				return true
			}
		}
	}
	return false
}

func policyBeyondBound(p *resource.CapacityRequestPolicy) bool {
	if p == nil {
		return false
	}
	if beyondBound(p.Default) {
		return true
	}
	for i := range p.ValidValues {
		if beyondBound(&p.ValidValues[i]) {
			return true
		}
	}
	r := p.ValidRange
	return r != nil && (beyondBound(r.Min) || beyondBound(r.Max) || beyondBound(r.Step))
}

func countersBeyondBound(counters map[string]resource.Counter) bool {
	for _, c := range counters {
		if beyondBound(&c.Value) {
			return true
		}
	}
	return false
}

func beyondBound(q *apiresource.Quantity) bool {
	return q != nil && quantityguard.CheckQuantity(*q) != nil
}

// claimQuantityBeyondBound is the first capacity request of a claim's spec
// beyond the bound, at its field path, or nil: capacity requests are
// rounded and compared with capacities.
func claimQuantityBeyondBound(spec *resource.ResourceClaimSpec) *field.Error {
	for i := range spec.Devices.Requests {
		r := &spec.Devices.Requests[i]
		beyond := r.Exactly != nil && capacityRequestsBeyondBound(r.Exactly.Capacity)
		for j := range r.FirstAvailable {
			beyond = beyond || capacityRequestsBeyondBound(r.FirstAvailable[j].Capacity)
		}
		if beyond {
			return quantityguard.FirstField(spec, field.NewPath("spec"))
		}
	}
	return nil
}

func capacityRequestsBeyondBound(c *resource.CapacityRequirements) bool {
	if c == nil {
		return false
	}
	for _, q := range c.Requests {
		if beyondBound(&q) {
			return true
		}
	}
	return false
}
