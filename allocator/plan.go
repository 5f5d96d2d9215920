package allocator

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/drakit/drakit/apis/resource"
)

// claimPlan is a claim prepared for the search: its requests with their
// candidate devices, and its constraints.
type claimPlan struct {
	claim   *resource.ResourceClaim
	already bool
	err     *ClaimError
	reqs    []*reqPlan
	cons    []*conPlan
}

// reqPlan is one request with the devices that may serve it, in view order.
type reqPlan struct {
	plan  *claimPlan
	name  string
	class *resource.DeviceClass
	admin bool
	all   bool
	count int

	cands []cand
	// vals[k][i] is the value of constraint cons[k]'s attribute on cands[i].
	cons []int
	vals [][]int32

	matched int // devices passing the selectors
	inUse   int // of those, allocated before the call (not candidates unless admin)
	lacking int // of the rest, lacking an attribute a constraint compares

	chosen []cand
}

// conPlan is a matchAttribute constraint during the search: the value
// fixed by the devices chosen so far (refs of them), if any.
type conPlan struct {
	attr     resource.FullyQualifiedName
	index    int
	requests []string // empty: all requests
	value    int32
	refs     int
}

func (c *conPlan) covers(request string) bool {
	if len(c.requests) == 0 {
		return true
	}
	for _, r := range c.requests {
		if r == request {
			return true
		}
	}
	return false
}

func claimName(c *resource.ResourceClaim) string {
	if c.Namespace == "" {
		return c.Name
	}
	return c.Namespace + "/" + c.Name
}

// callState is what one Allocate call shares between its claims.
type callState struct {
	ctx   context.Context
	view  *view
	masks map[string][][]uint64 // selector sets already evaluated in this call
	cands map[string]*candList  // candidate lists already collected in this call
}

func (p *claimPlan) fail(request string, reason Reason, err error, format string, args ...any) *claimPlan {
	p.err = &ClaimError{Claim: p.claimID(), Request: request, Reason: reason, Detail: fmt.Sprintf(format, args...), Err: err}
	return p
}

// maxResults is how many devices one allocation result can hold
// (AllocationResultsMaxSize).
const maxResults = 32

// prepare checks a claim and finds the candidates of its requests. A claim
// that cannot be allocated whatever the search does comes back with err set.
// Only a cancelled context is returned as an error.
func (a *Allocator) prepare(cs *callState, claim *resource.ResourceClaim) (*claimPlan, error) {
	p := &claimPlan{claim: claim}
	if claim.Status.Allocation != nil {
		p.already = true
		return p, nil
	}
	spec := &claim.Spec
	if spec.Controller != "" {
		return p.fail("", ReasonControllerManaged, nil, "spec.controller is %q: the claim is allocated by that driver's control-plane controller, not by structured allocation", spec.Controller), nil
	}
	if spec.ParametersRef != nil {
		return p.fail("", ReasonUnsupported, nil, "spec.parametersRef names %s %q: claim parameters objects cannot be evaluated; express the request with device requests and selectors", spec.ParametersRef.Kind, spec.ParametersRef.Name), nil
	}
	names := map[string]bool{}
	for i := range spec.Devices.Requests {
		req := &spec.Devices.Requests[i]
		path := fieldPath{"spec.devices.requests", i}
		switch {
		case req.Name == "":
			return p.fail("", ReasonInvalidClaim, nil, "%s.name is empty", path), nil
		case names[req.Name]:
			return p.fail(req.Name, ReasonInvalidClaim, nil, "%s.name: two requests are named %q", path, req.Name), nil
		case req.DeviceClassName == "":
			return p.fail(req.Name, ReasonInvalidClaim, nil, "%s.deviceClassName is empty", path), nil
		}
		names[req.Name] = true
		r := &reqPlan{plan: p, name: req.Name, admin: req.AdminAccess}
		switch req.AllocationMode {
		case resource.DeviceAllocationModeExactCount, "":
			// An unset mode and count mean one device, as the API server
			// defaults them.
			switch {
			case req.Count < 0:
				return p.fail(req.Name, ReasonInvalidClaim, nil, "%s.count is %d; it must be positive", path, req.Count), nil
			case req.Count == 0:
				r.count = 1
			case req.Count > maxResults:
				return p.fail(req.Name, ReasonTooManyDevices, nil, "%s.count is %d; an allocation holds at most %d devices", path, req.Count, maxResults), nil
			default:
				r.count = int(req.Count)
			}
		case resource.DeviceAllocationModeAll:
			if req.Count != 0 {
				return p.fail(req.Name, ReasonInvalidClaim, nil, "%s.count must not be set with allocationMode All", path), nil
			}
			r.all = true
		default:
			return p.fail(req.Name, ReasonInvalidClaim, nil, "%s.allocationMode %q is not supported; use ExactCount or All", path, req.AllocationMode), nil
		}
		for j, sel := range req.Selectors {
			if sel.CEL == nil {
				return p.fail(req.Name, ReasonInvalidClaim, nil, "%s.selectors[%d] has no cel selector", path, j), nil
			}
		}
		p.reqs = append(p.reqs, r)
	}
	for i, c := range spec.Devices.Constraints {
		path := fieldPath{"spec.devices.constraints", i}
		if c.MatchAttribute == nil {
			return p.fail("", ReasonInvalidClaim, nil, "%s.matchAttribute is not set", path), nil
		}
		for j, name := range c.Requests {
			if !names[name] {
				return p.fail("", ReasonInvalidClaim, nil, "%s.requests[%d]: the claim has no request named %q", path, j, name), nil
			}
		}
		p.cons = append(p.cons, &conPlan{attr: *c.MatchAttribute, index: i, requests: c.Requests})
	}

	total := 0
	for i, r := range p.reqs {
		req := &spec.Devices.Requests[i]
		class := a.classes[req.DeviceClassName]
		if class == nil {
			return p.fail(r.name, ReasonNoClass, nil, "DeviceClass %q does not exist", req.DeviceClassName), nil
		}
		if class.Spec.ParametersRef != nil {
			return p.fail(r.name, ReasonUnsupported, nil, "DeviceClass %q has parametersRef (%s %q): class parameters objects cannot be evaluated", class.Name, class.Spec.ParametersRef.Kind, class.Spec.ParametersRef.Name), nil
		}
		r.class = class
		sels := make([]selectorRef, 0, len(class.Spec.Selectors)+len(req.Selectors))
		for j, sel := range class.Spec.Selectors {
			if sel.CEL == nil {
				return p.fail(r.name, ReasonInvalidSelector, nil, "DeviceClass %q: spec.selectors[%d] has no cel selector", class.Name, j), nil
			}
			id, err := a.exprID(sel.CEL.Expression)
			if err != nil {
				return p.fail(r.name, ReasonInvalidSelector, err, "DeviceClass %q: spec.selectors[%d].cel.expression %q does not compile", class.Name, j, sel.CEL.Expression), nil
			}
			sels = append(sels, selectorRef{id: id, class: class.Name, index: j, expr: sel.CEL.Expression})
		}
		for j, sel := range req.Selectors {
			id, err := a.exprID(sel.CEL.Expression)
			if err != nil {
				return p.fail(r.name, ReasonInvalidSelector, err, "spec.devices.requests[%d].selectors[%d].cel.expression %q does not compile", i, j, sel.CEL.Expression), nil
			}
			sels = append(sels, selectorRef{id: id, index: j, expr: sel.CEL.Expression})
		}
		masks, selKey, err := cs.masksFor(a, sels)
		if err != nil {
			if ferr, ok := err.(*selectorFailure); ok {
				where := fmt.Sprintf("spec.devices.requests[%d].selectors[%d]", i, ferr.sel.index)
				if ferr.sel.class != "" {
					where = fmt.Sprintf("DeviceClass %q spec.selectors[%d]", ferr.sel.class, ferr.sel.index)
				}
				return p.fail(r.name, ReasonCELRuntimeError, ferr.err, "%s: expression %q failed on device %s", where, ferr.sel.expr, ferr.device), nil
			}
			return nil, err
		}
		for k, con := range p.cons {
			if con.covers(r.name) {
				r.cons = append(r.cons, k)
			}
		}
		if r.all && len(cs.view.invalid) > 0 {
			ip := cs.view.invalid[0]
			return p.fail(r.name, ReasonInvalidPool, nil, "asks for all devices, but resource pool %s/%s is invalid: device name %q is used twice", ip.key.driver, ip.key.pool, ip.device), nil
		}
		if r.all && len(cs.view.incomplete) > 0 {
			pk := cs.view.incomplete[0]
			return p.fail(r.name, ReasonIncompletePool, nil, "asks for all devices, but resource pool %s/%s is being updated (not all of its slices are published)", pk.driver, pk.pool), nil
		}
		if perr := a.collect(cs, selKey, r, masks); perr != nil {
			return perr, nil
		}
		if r.all {
			total += r.matched
		} else {
			total += r.count
		}
	}
	if total > maxResults {
		return p.fail("", ReasonTooManyDevices, nil, "the requests need %d devices together; an allocation holds at most %d", total, maxResults), nil
	}
	return p, nil
}

// candList is the candidate list of requests with the same selectors,
// the same adminAccess and the same constraint attributes.
type candList struct {
	cands []cand
	vals  [][]int32

	matched, inUse, lacking int
	firstBusy               *DeviceID
	firstLacking            *DeviceID
	lackingAttr             int // index into the attribute list
}

// candidates turns selector masks into a candidate list, leaving out
// devices that are in use (unless admin) or lack one of the attributes.
func (a *Allocator) candidates(v *view, masks [][]uint64, admin bool, attrs []resource.FullyQualifiedName) *candList {
	cl := &candList{vals: make([][]int32, len(attrs))}
	attrVals := make([][]int32, len(attrs))
	for si, e := range v.slices {
		mask := masks[si]
		for k, name := range attrs {
			attrVals[k] = a.attrValues(e, name)
		}
		for w, bits := range mask {
			if bits == 0 {
				continue
			}
			cl.matched += popcount([]uint64{bits})
			if !admin {
				if busy := bits & e.inUse[w]; busy != 0 {
					cl.inUse += popcount([]uint64{busy})
					if cl.firstBusy == nil {
						cl.firstBusy = &DeviceID{e.driver, e.pool, e.devices[w*64+trailingZeros(busy)].Name}
					}
					bits &^= busy
				}
			}
			for bits != 0 {
				b := trailingZeros(bits)
				bits &^= 1 << uint(b)
				d := w*64 + b
				lacks := -1
				for k := range attrs {
					if attrVals[k][d] < 0 {
						lacks = k
						break
					}
				}
				if lacks >= 0 {
					cl.lacking++
					if cl.firstLacking == nil {
						cl.firstLacking = &DeviceID{e.driver, e.pool, e.devices[d].Name}
						cl.lackingAttr = lacks
					}
					continue
				}
				cl.cands = append(cl.cands, cand{int32(si), int32(d)})
				for k := range attrs {
					cl.vals[k] = append(cl.vals[k], attrVals[k][d])
				}
			}
		}
	}
	return cl
}

// collect finds the request's candidates and checks the counts that make
// the request impossible whatever else is chosen.
func (a *Allocator) collect(cs *callState, selKey string, r *reqPlan, masks [][]uint64) *claimPlan {
	p := r.plan
	attrs := make([]resource.FullyQualifiedName, len(r.cons))
	key := selKey
	if r.admin {
		key += "admin"
	}
	for k, ci := range r.cons {
		attrs[k] = p.cons[ci].attr
		key += "|" + string(attrs[k])
	}
	cl := cs.cands[key]
	if cl == nil {
		cl = a.candidates(cs.view, masks, r.admin, attrs)
		cs.cands[key] = cl
	}
	r.cands, r.vals = cl.cands, cl.vals
	r.matched, r.inUse, r.lacking = cl.matched, cl.inUse, cl.lacking
	if r.all {
		switch {
		case cl.firstBusy != nil:
			return p.fail(r.name, ReasonDeviceInUse, nil, "asks for all matching devices, but device %s is already allocated (only adminAccess requests may share devices)", *cl.firstBusy)
		case cl.firstLacking != nil:
			con := p.cons[r.cons[cl.lackingAttr]]
			return p.fail(r.name, ReasonConstraintUnsatisfiable, nil, "asks for all matching devices, but device %s lacks attribute %q that spec.devices.constraints[%d].matchAttribute compares",
				*cl.firstLacking, con.attr, con.index)
		}
		return nil
	}
	if len(r.cands) >= r.count {
		return nil
	}
	switch {
	case r.matched == 0:
		return p.fail(r.name, ReasonNoMatch, nil, "no device matches: of the %d devices the node can reach, none passes the selectors of DeviceClass %q and of the request", cs.view.total, r.class.Name)
	case r.lacking > 0 && len(r.cands)+r.lacking >= r.count:
		return p.fail(r.name, ReasonConstraintUnsatisfiable, nil, "asks for %d devices; %d match and are free, but only %d of them have the attributes that the claim's matchAttribute constraints compare (%s)",
			r.count, len(r.cands)+r.lacking, len(r.cands), r.constraintNames())
	default:
		detail := fmt.Sprintf("not enough devices: asks for %d, %d match", r.count, r.matched)
		if r.inUse > 0 {
			detail += fmt.Sprintf(", of which %d are already allocated", r.inUse)
		}
		if r.lacking > 0 {
			detail += fmt.Sprintf(" and %d lack attributes compared by matchAttribute (%s)", r.lacking, r.constraintNames())
		}
		return p.fail(r.name, ReasonNotEnough, nil, "%s", detail)
	}
}

func (r *reqPlan) constraintNames() string {
	var names []string
	for _, ci := range r.cons {
		names = append(names, string(r.plan.cons[ci].attr))
	}
	return strings.Join(names, ", ")
}

// selectorFailure is a CEL runtime error on a device.
type selectorFailure struct {
	sel    selectorRef
	device DeviceID
	err    error
}

func (f *selectorFailure) Error() string {
	return fmt.Sprintf("expression %q failed on device %s: %v", f.sel.expr, f.device, f.err)
}

// masksFor evaluates a list of selectors once per call.
func (cs *callState) masksFor(a *Allocator, sels []selectorRef) ([][]uint64, string, error) {
	var b strings.Builder
	for _, s := range sels {
		b.WriteString(strconv.Itoa(s.id))
		b.WriteByte(',')
	}
	key := b.String()
	if m, ok := cs.masks[key]; ok {
		return m, key, nil
	}
	masks, sel, dev, err := a.matching(cs.ctx, cs.view, sels)
	if err != nil {
		if sel == nil {
			return nil, key, err
		}
		return nil, key, &selectorFailure{sel: *sel, device: dev, err: err}
	}
	cs.masks[key] = masks
	return masks, key, nil
}

// fieldPath is a list entry's field path, formatted only when a message
// needs it.
type fieldPath struct {
	list  string
	index int
}

func (f fieldPath) String() string { return f.list + "[" + strconv.Itoa(f.index) + "]" }

// claimID names the claim in messages.
func (p *claimPlan) claimID() string { return claimName(p.claim) }
