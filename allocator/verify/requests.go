package verify

import (
	"github.com/drakit/drakit/apis/resource"
)

// reqSpec is what one name in results[].request stands for: an exact
// request ("r") or an alternative of a firstAvailable request ("r/sub").
type reqSpec struct {
	name, parent string
	class        string
	selectors    []resource.DeviceSelector
	mode         resource.DeviceAllocationMode
	count        int64
	admin        bool
	tolerations  []resource.DeviceToleration
	capacity     *resource.CapacityRequirements
	derived      []resource.DeviceDerivedAttribute
}

// specsOf lists the names a claim's results may carry, and, per request,
// the names of its alternatives in order (one name for an exact request).
func specsOf(claim *resource.ResourceClaim) (map[string]*reqSpec, map[string][]string, []string) {
	specs := map[string]*reqSpec{}
	alternatives := map[string][]string{}
	var order []string
	for _, r := range claim.Spec.Devices.Requests {
		order = append(order, r.Name)
		if e := r.Exactly; e != nil {
			specs[r.Name] = &reqSpec{name: r.Name, parent: r.Name, class: e.DeviceClassName, selectors: e.Selectors,
				mode: e.AllocationMode, count: e.Count, admin: e.AdminAccess != nil && *e.AdminAccess,
				tolerations: e.Tolerations, capacity: e.Capacity, derived: e.DerivedAttributes}
			alternatives[r.Name] = []string{r.Name}
			continue
		}
		for _, s := range r.FirstAvailable {
			n := r.Name + "/" + s.Name
			specs[n] = &reqSpec{name: n, parent: r.Name, class: s.DeviceClassName, selectors: s.Selectors,
				mode: s.AllocationMode, count: s.Count, tolerations: s.Tolerations, capacity: s.Capacity,
				derived: s.DerivedAttributes}
			alternatives[r.Name] = append(alternatives[r.Name], n)
		}
	}
	return specs, alternatives, order
}

// countWanted is the ExactCount count with the API server's default.
func (q *reqSpec) countWanted() int64 {
	if q.count == 0 {
		return 1
	}
	return q.count
}

// appliesTo reports whether a constraint or configuration that lists
// requests covers a result of q: an empty list covers all, and naming the
// request covers its alternatives.
func (q *reqSpec) appliesTo(requests []string) bool {
	return len(requests) == 0 || contains(requests, q.name) || contains(requests, q.parent)
}
