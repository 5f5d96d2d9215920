// Package verify checks allocation results against the rules of structured
// allocation without allocating anything itself. Tests of the allocator
// and the differential test against upstream's allocator use it as an
// independent judge: it evaluates every selector directly, recounts every
// request, recomputes pool visibility and generations, and checks
// constraints, sharing and configuration from the claim and class objects.
package verify

import (
	"context"
	"fmt"
	"reflect"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/cel"
)

// DeviceID names a device.
type DeviceID struct{ Driver, Pool, Device string }

func (d DeviceID) String() string { return d.Driver + "/" + d.Pool + "/" + d.Device }

// Inventory is what the allocation was made from.
type Inventory struct {
	Classes []*resource.DeviceClass
	Slices  []*resource.ResourceSlice
	// InUse are the devices allocated before (to other claims).
	InUse map[DeviceID]bool
	// Node is the node the allocation is for; nil for none.
	Node *corev1.Node
}

type device struct {
	slice *resource.ResourceSlice
	dev   *resource.Device
}

// visible lists the devices the node reaches: slices selected for the node,
// newest generation per pool only.
func (inv *Inventory) visible() map[DeviceID]device {
	type pk struct{ d, p string }
	newest := map[pk]int64{}
	var seen []*resource.ResourceSlice
	for _, s := range inv.Slices {
		if !reaches(s, inv.Node) {
			continue
		}
		seen = append(seen, s)
		k := pk{s.Spec.Driver, s.Spec.Pool.Name}
		if g, ok := newest[k]; !ok || s.Spec.Pool.Generation > g {
			newest[k] = s.Spec.Pool.Generation
		}
	}
	out := map[DeviceID]device{}
	invalid := map[pk]bool{}
	for _, s := range seen {
		if s.Spec.Pool.Generation != newest[pk{s.Spec.Driver, s.Spec.Pool.Name}] {
			continue
		}
		for i := range s.Spec.Devices {
			id := DeviceID{s.Spec.Driver, s.Spec.Pool.Name, s.Spec.Devices[i].Name}
			if _, dup := out[id]; dup {
				// A pool that names a device twice is unusable.
				invalid[pk{id.Driver, id.Pool}] = true
			}
			out[id] = device{s, &s.Spec.Devices[i]}
		}
	}
	for id := range out {
		if invalid[pk{id.Driver, id.Pool}] {
			delete(out, id)
		}
	}
	return out
}

func reaches(s *resource.ResourceSlice, node *corev1.Node) bool {
	switch {
	case s.Spec.NodeName != nil && *s.Spec.NodeName != "":
		return node != nil && node.Name == *s.Spec.NodeName
	case s.Spec.AllNodes != nil && *s.Spec.AllNodes:
		return true
	case s.Spec.NodeSelector != nil:
		return node != nil && selectorMatches(s.Spec.NodeSelector, node)
	}
	return false
}

// selectorMatches is a plain reading of node selector semantics.
func selectorMatches(sel *corev1.NodeSelector, node *corev1.Node) bool {
	for _, t := range sel.NodeSelectorTerms {
		if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
			continue
		}
		ok := true
		for _, r := range t.MatchExpressions {
			ok = ok && requirementMatches(r, node.Labels)
		}
		for _, r := range t.MatchFields {
			ok = ok && requirementMatches(r, map[string]string{"metadata.name": node.Name})
		}
		if ok {
			return true
		}
	}
	return false
}

func requirementMatches(r corev1.NodeSelectorRequirement, values map[string]string) bool {
	v, has := values[r.Key]
	in := false
	for _, x := range r.Values {
		in = in || x == v
	}
	switch r.Operator {
	case corev1.NodeSelectorOpIn:
		return has && in
	case corev1.NodeSelectorOpNotIn:
		return !has || !in
	case corev1.NodeSelectorOpExists:
		return has
	case corev1.NodeSelectorOpDoesNotExist:
		return !has
	case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
		if !has || len(r.Values) != 1 {
			return false
		}
		a, err1 := strconv.ParseInt(v, 10, 64)
		b, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if r.Operator == corev1.NodeSelectorOpGt {
			return a > b
		}
		return a < b
	}
	return false
}

// Checker checks the allocations of one call. Devices allocated by earlier
// Check calls count as taken for later ones.
type Checker struct {
	inv     *Inventory
	visible map[DeviceID]device
	taken   map[DeviceID]string
}

// NewChecker prepares a checker for an inventory.
func NewChecker(inv *Inventory) *Checker {
	return &Checker{inv: inv, visible: inv.visible(), taken: map[DeviceID]string{}}
}

func (c *Checker) class(name string) *resource.DeviceClass {
	for _, cl := range c.inv.Classes {
		if cl.Name == name {
			return cl
		}
	}
	return nil
}

func (c *Checker) matches(d device, sels []resource.DeviceSelector) (bool, error) {
	for _, s := range sels {
		if s.CEL == nil {
			return false, fmt.Errorf("selector without CEL")
		}
		p, err := cel.CompileDeviceSelectorIn(s.CEL.Expression, cel.StoredExpressions)
		if err != nil {
			return false, err
		}
		ok, err := p.Matches(context.Background(), cel.NewDevice(d.slice.Spec.Driver, d.dev))
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// Check verifies one claim's allocation. Every problem is reported.
func (c *Checker) Check(claim *resource.ResourceClaim, alloc *resource.AllocationResult) []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if alloc == nil {
		return []error{fmt.Errorf("no allocation")}
	}
	// Only exact requests without tolerations, capacity and derived
	// attributes have the 1.31 semantics that are checked here.
	reqs := map[string]*resource.ExactDeviceRequest{}
	for i := range claim.Spec.Devices.Requests {
		r := &claim.Spec.Devices.Requests[i]
		e := r.Exactly
		if e == nil || len(r.FirstAvailable) > 0 || len(e.Tolerations) > 0 || e.Capacity != nil && len(e.Capacity.Requests) > 0 || len(e.DerivedAttributes) > 0 {
			bad("request %s: only exact requests without tolerations, capacity and derived attributes can be checked", r.Name)
			continue
		}
		reqs[r.Name] = e
	}
	got := map[string][]DeviceID{}
	owners := map[DeviceID]string{} // non-admin requests of this claim
	local := false
	for _, r := range alloc.Devices.Results {
		id := DeviceID{r.Driver, r.Pool, r.Device}
		req := reqs[r.Request]
		if req == nil {
			bad("result for unknown request %q", r.Request)
			continue
		}
		d, ok := c.visible[id]
		if !ok {
			bad("request %s: device %s is not a device the node reaches in the newest generation of its pool", r.Request, id)
			continue
		}
		if d.slice.Spec.NodeName != nil && *d.slice.Spec.NodeName != "" {
			local = true
		}
		for _, prev := range got[r.Request] {
			if prev == id {
				bad("request %s: device %s allocated twice", r.Request, id)
			}
		}
		got[r.Request] = append(got[r.Request], id)
		class := c.class(req.DeviceClassName)
		if class == nil {
			bad("request %s: class %q does not exist", r.Request, req.DeviceClassName)
			continue
		}
		if ok, err := c.matches(d, class.Spec.Selectors); !ok {
			bad("request %s: device %s does not pass the selectors of class %s (%v)", r.Request, id, class.Name, err)
		}
		if ok, err := c.matches(d, req.Selectors); !ok {
			bad("request %s: device %s does not pass the request's selectors (%v)", r.Request, id, err)
		}
		if !admin(req) {
			if owner, ok := owners[id]; ok && owner != r.Request {
				bad("request %s: device %s is also allocated to request %s of the claim", r.Request, id, owner)
			}
			owners[id] = r.Request
			if c.inv.InUse[id] {
				bad("request %s: device %s was already allocated", r.Request, id)
			}
			if owner, ok := c.taken[id]; ok {
				bad("request %s: device %s is also allocated to %s", r.Request, id, owner)
			}
		}
	}
	for _, r := range alloc.Devices.Results {
		if req := reqs[r.Request]; req != nil && !admin(req) {
			c.taken[DeviceID{r.Driver, r.Pool, r.Device}] = claim.Namespace + "/" + claim.Name + "/" + r.Request
		}
	}
	if len(alloc.Devices.Results) > 32 {
		bad("%d results, more than 32", len(alloc.Devices.Results))
	}
	for name, req := range reqs {
		n := len(got[name])
		switch req.AllocationMode {
		case resource.DeviceAllocationModeAll:
			class := c.class(req.DeviceClassName)
			want := 0
			for id, d := range c.visible {
				if class == nil {
					continue
				}
				ok1, _ := c.matches(d, class.Spec.Selectors)
				ok2, _ := c.matches(d, req.Selectors)
				if ok1 && ok2 {
					want++
					found := false
					for _, g := range got[name] {
						found = found || g == id
					}
					if !found {
						bad("request %s (All): matching device %s not allocated", name, id)
					}
				}
			}
			if n != want {
				bad("request %s (All): %d devices, %d match", name, n, want)
			}
		default:
			count := req.Count
			if count == 0 {
				count = 1
			}
			if int64(n) != count {
				bad("request %s: %d devices, asks for %d", name, n, count)
			}
		}
	}
	for i, con := range claim.Spec.Devices.Constraints {
		if con.MatchAttribute == nil {
			continue
		}
		var first *resource.DeviceAttribute
		for _, r := range alloc.Devices.Results {
			if len(con.Requests) > 0 && !contains(con.Requests, r.Request) {
				continue
			}
			d, ok := c.visible[DeviceID{r.Driver, r.Pool, r.Device}]
			if !ok {
				continue
			}
			a := lookup(d, *con.MatchAttribute)
			if a == nil {
				bad("constraint %d: device %s lacks %s", i, DeviceID{r.Driver, r.Pool, r.Device}, *con.MatchAttribute)
				continue
			}
			if first == nil {
				first = a
			} else if !sameValue(first, a) {
				bad("constraint %d: device %s has a different %s", i, DeviceID{r.Driver, r.Pool, r.Device}, *con.MatchAttribute)
			}
		}
	}
	// Where the devices can be used.
	switch {
	case local:
		want := &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{
			Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{c.inv.Node.Name}}}}}}
		if !reflect.DeepEqual(alloc.NodeSelector, want) {
			bad("node selector %v, want the node %s", alloc.NodeSelector, c.inv.Node.Name)
		}
	case c.inv.Node != nil && alloc.NodeSelector != nil && !selectorMatches(alloc.NodeSelector, c.inv.Node):
		bad("node selector %v does not admit node %s", alloc.NodeSelector, c.inv.Node.Name)
	}
	// Configuration: class config per request, then the claim's.
	var want []resource.DeviceAllocationConfiguration
	for _, req := range claim.Spec.Devices.Requests {
		if req.Exactly == nil {
			continue
		}
		if class := c.class(req.Exactly.DeviceClassName); class != nil {
			for _, cfg := range class.Spec.Config {
				want = append(want, resource.DeviceAllocationConfiguration{Source: resource.AllocationConfigSourceClass, Requests: []string{req.Name}, DeviceConfiguration: cfg.DeviceConfiguration})
			}
		}
	}
	for _, cfg := range claim.Spec.Devices.Config {
		want = append(want, resource.DeviceAllocationConfiguration{Source: resource.AllocationConfigSourceClaim, Requests: cfg.Requests, DeviceConfiguration: cfg.DeviceConfiguration})
	}
	if len(want) != len(alloc.Devices.Config) || (len(want) > 0 && !reflect.DeepEqual(want, alloc.Devices.Config)) {
		bad("config %+v, want %+v", alloc.Devices.Config, want)
	}
	return errs
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func admin(req *resource.ExactDeviceRequest) bool {
	return req.AdminAccess != nil && *req.AdminAccess
}

func lookup(d device, name resource.FullyQualifiedName) *resource.DeviceAttribute {
	find := func(n string) *resource.DeviceAttribute {
		if a, ok := d.dev.Attributes[resource.QualifiedName(n)]; ok {
			return &a
		}
		return nil
	}
	if a := find(string(name)); a != nil {
		return a
	}
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			if string(name[:i]) == d.slice.Spec.Driver {
				return find(string(name[i+1:]))
			}
			break
		}
	}
	return nil
}

func sameValue(a, b *resource.DeviceAttribute) bool {
	return reflect.DeepEqual(*a, *b)
}
