package verify

import (
	"fmt"
	"sort"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
)

// consumption is what one allocation of a device takes of each of its
// capacities for a request: the requested amount, or the policy's default,
// or the whole capacity when not requested; rounded up to the policy's
// next valid value or range step (from min); an amount the policy does not
// allow (above max, not a valid value) is an error. Integer arithmetic, as
// without DRAFractionalCapacityRange.
func consumption(d *resource.Device, req *resource.CapacityRequirements) (map[resource.QualifiedName]apiresource.Quantity, error) {
	if req != nil {
		for name := range req.Requests {
			if _, ok := d.Capacity[name]; !ok {
				return nil, fmt.Errorf("requests capacity %s, which the device does not have", name)
			}
		}
	}
	out := map[resource.QualifiedName]apiresource.Quantity{}
	for name, c := range d.Capacity {
		p := c.RequestPolicy
		var v apiresource.Quantity
		asked, requested := apiresource.Quantity{}, false
		if req != nil {
			asked, requested = req.Requests[name]
		}
		switch {
		case requested:
			v = roundUp(asked, p)
		case p != nil && p.Default != nil:
			v = p.Default.DeepCopy()
		default:
			v = c.Value.DeepCopy()
		}
		if !allowed(v, p) {
			return nil, fmt.Errorf("capacity %s: %s is not allowed by the request policy", name, v.String())
		}
		out[name] = v
	}
	return out, nil
}

func roundUp(q apiresource.Quantity, p *resource.CapacityRequestPolicy) apiresource.Quantity {
	switch {
	case p == nil:
		return q.DeepCopy()
	case p.ValidRange != nil && p.ValidRange.Min != nil:
		min := p.ValidRange.Min.Value()
		v := q.Value()
		if v < min {
			return p.ValidRange.Min.DeepCopy()
		}
		if p.ValidRange.Step == nil {
			return q.DeepCopy()
		}
		step := p.ValidRange.Step.Value()
		n := (v - min + step - 1) / step
		return *apiresource.NewQuantity(min+n*step, p.ValidRange.Step.Format)
	case len(p.ValidValues) > 0:
		for _, valid := range p.ValidValues {
			if q.Cmp(valid) <= 0 {
				return valid.DeepCopy()
			}
		}
	}
	return q.DeepCopy()
}

func allowed(v apiresource.Quantity, p *resource.CapacityRequestPolicy) bool {
	switch {
	case p == nil:
		return true
	case p.Default != nil && v.Cmp(*p.Default) == 0:
		return true
	case p.ValidRange != nil:
		r := p.ValidRange
		if r.Max != nil && v.Cmp(*r.Max) > 0 {
			return false
		}
		return r.Step == nil || r.Min == nil || (v.Value()-r.Min.Value())%r.Step.Value() == 0
	case len(p.ValidValues) > 0:
		for _, valid := range p.ValidValues {
			if v.Cmp(valid) == 0 {
				return true
			}
		}
		return false
	}
	return true
}

func multi(d *resource.Device) bool {
	return d.AllowMultipleAllocations != nil && *d.AllowMultipleAllocations
}

// sameQuantities compares consumed capacities by value.
func sameQuantities(a, b map[resource.QualifiedName]apiresource.Quantity) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

func capacityOf(d *resource.Device, name resource.QualifiedName) *apiresource.Quantity {
	v := d.Capacity[name].Value
	return &v
}

// quantities renders capacities as "map[name:value ...]", sorted.
func quantities(m map[resource.QualifiedName]apiresource.Quantity) string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, string(n))
	}
	sort.Strings(names)
	out := "map["
	for i, n := range names {
		v := m[resource.QualifiedName(n)]
		if i > 0 {
			out += " "
		}
		out += n + ":" + v.String()
	}
	return out + "]"
}

// fitsEmpty reports whether an unused device could serve the capacity
// requests.
func fitsEmpty(d *resource.Device, req *resource.CapacityRequirements) bool {
	want, err := consumption(d, req)
	if err != nil {
		return false
	}
	for n, v := range want {
		if v.Cmp(d.Capacity[n].Value) > 0 {
			return false
		}
	}
	return true
}
