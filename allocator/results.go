package allocator

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/apis/resource"
)

// buildAllocation builds the allocation of a claim the search allocated
// (the results stage), as upstream v0.37.2 writes it: results request by
// request (an alternative as "request/alternative", appendResults); each
// class's configuration once, naming every request that uses the class,
// then the claim's configuration that names a request or the chosen
// alternative, a configuration that covers every request naming none
// (appendClassConfig, appendClaimConfig); and the node selector
// (createNodeSelector).
func (a *Allocator) buildAllocation(v *view, node *corev1.Node, p *claimPlan) (*resource.AllocationResult, *ClaimError) {
	alloc, shareIDs, local := newAllocation(p.taken)
	concrete := make([]*requestPlan, 0, len(p.requests))
	for _, top := range p.requests {
		r := top.concrete()
		concrete = append(concrete, r)
		a.appendResults(v, alloc, shareIDs, r)
	}
	appendClassConfig(alloc, concrete)
	appendClaimConfig(alloc, p.claim, concrete)
	ns, err := createNodeSelector(v, node, p, concrete, local)
	if err != nil {
		return nil, err
	}
	alloc.NodeSelector = ns
	return alloc, nil
}

// newAllocation makes an allocation for taken devices. Most claims get
// one or two devices: the allocation, its results, the shares' IDs and a
// node-local node selector then take one allocation instead of four or
// more.
func newAllocation(taken int) (alloc *resource.AllocationResult, shareIDs []types.UID, local *nodeLocal) {
	switch taken {
	case 1:
		one := &struct {
			alloc   resource.AllocationResult
			results [1]resource.DeviceRequestAllocationResult
			shares  [1]types.UID
			local   nodeLocal
		}{}
		alloc, shareIDs, local = &one.alloc, one.shares[:], &one.local
		alloc.Devices.Results = one.results[:0:1]
	case 2:
		two := &struct {
			alloc   resource.AllocationResult
			results [2]resource.DeviceRequestAllocationResult
			shares  [2]types.UID
			local   nodeLocal
		}{}
		alloc, shareIDs, local = &two.alloc, two.shares[:], &two.local
		alloc.Devices.Results = two.results[:0:2]
	default:
		alloc = &resource.AllocationResult{}
		alloc.Devices.Results = make([]resource.DeviceRequestAllocationResult, 0, taken)
	}
	return alloc, shareIDs, local
}

// appendResults appends the results of a request the search allocated:
// one per chosen device, with adminAccess, the request's tolerations, the
// device's binding conditions and the slice's skipNodeOperations as the
// features say, and for a share of a multi-allocation device its shareID
// and consumed capacity.
func (a *Allocator) appendResults(v *view, alloc *resource.AllocationResult, shareIDs []types.UID, r *requestPlan) {
	f := a.features
	var tolerations []resource.DeviceToleration
	for k, dev := range r.chosen {
		i := int(r.chosenIndex[k])
		e := v.slices[dev.slice]
		d := &e.devices[dev.device]
		// Filled in place: a result is big, and copying it in costs a
		// write barrier per pointer.
		index := len(alloc.Devices.Results)
		alloc.Devices.Results = append(alloc.Devices.Results, resource.DeviceRequestAllocationResult{})
		res := &alloc.Devices.Results[index]
		res.Request, res.Driver, res.Pool, res.Device = r.resultName, e.driver, e.pool, d.Name
		if r.admin && f.AdminAccess {
			res.AdminAccess = ptrTo(true)
		}
		if n := len(r.spec.tolerations); n > 0 {
			// The request's results share one allocation for their
			// copies of its tolerations.
			if k == 0 {
				tolerations = make([]resource.DeviceToleration, n*len(r.chosen))
			}
			res.Tolerations = tolerations[k*n : (k+1)*n : (k+1)*n]
			for j := range r.spec.tolerations {
				r.spec.tolerations[j].DeepCopyInto(&res.Tolerations[j])
			}
		}
		if f.DeviceBindingAndStatus {
			res.BindingConditions = slices.Clone(d.BindingConditions)
			res.BindingFailureConditions = slices.Clone(d.BindingFailureConditions)
		}
		if f.experimental() {
			res.SkipNodeOperations = slices.Clone(e.obj.Spec.SkipNodeOperations)
		}
		if r.isMulti(i) {
			share := a.shareID(r.plan.claim, r.resultName, DeviceID{e.driver, e.pool, d.Name}, index, a.sharesAt(e, int(dev.device)))
			if index < len(shareIDs) {
				shareIDs[index] = share
				res.ShareID = &shareIDs[index]
			} else {
				res.ShareID = &share
			}
			if need := r.needOf(i); len(need) > 0 {
				res.ConsumedCapacity = make(map[resource.QualifiedName]apiresource.Quantity, len(need))
				for name, q := range need {
					res.ConsumedCapacity[name] = q.DeepCopy()
				}
			}
		}
	}
}

// appendClassConfig appends each class's configuration once, naming every
// request that uses the class: spans[k] are the entries of the class of
// concrete[k] (found among the requests before it; a claim has few).
func appendClassConfig(alloc *resource.AllocationResult, concrete []*requestPlan) {
	var spanMem [4][2]int
	spans := spanMem[:0]
	for k, r := range concrete {
		first := -1
		for j := 0; j < k && first < 0; j++ {
			if concrete[j].class.Name == r.class.Name {
				first = j
			}
		}
		if first >= 0 {
			span := spans[first]
			for i := span[0]; i < span[1]; i++ {
				alloc.Devices.Config[i].Requests = append(alloc.Devices.Config[i].Requests, r.resultName)
			}
			spans = append(spans, span)
			continue
		}
		start := len(alloc.Devices.Config)
		for _, cfg := range r.class.Spec.Config {
			alloc.Devices.Config = append(alloc.Devices.Config, resource.DeviceAllocationConfiguration{
				Source:              resource.AllocationConfigSourceClass,
				Requests:            []string{r.resultName},
				DeviceConfiguration: *cfg.DeviceConfiguration.DeepCopy(),
			})
		}
		spans = append(spans, [2]int{start, len(alloc.Devices.Config)})
	}
}

// appendClaimConfig appends the claim's configuration that names a
// request or the chosen alternative, or none; then a configuration that
// covers every request names none.
func appendClaimConfig(alloc *resource.AllocationResult, claim *resource.ResourceClaim, concrete []*requestPlan) {
	names := func(cfg []string, r *requestPlan) bool {
		return slices.Contains(cfg, r.parentName) || slices.Contains(cfg, r.resultName)
	}
	for _, cfg := range claim.Spec.Devices.Config {
		keep := len(cfg.Requests) == 0
		for _, r := range concrete {
			keep = keep || names(cfg.Requests, r)
		}
		if keep {
			alloc.Devices.Config = append(alloc.Devices.Config, resource.DeviceAllocationConfiguration{
				Source:              resource.AllocationConfigSourceClaim,
				Requests:            slices.Clone(cfg.Requests),
				DeviceConfiguration: *cfg.DeviceConfiguration.DeepCopy(),
			})
		}
	}
	for i := range alloc.Devices.Config {
		cfg := &alloc.Devices.Config[i]
		if len(cfg.Requests) == 0 {
			continue
		}
		all := true
		for _, r := range concrete {
			all = all && names(cfg.Requests, r)
		}
		if all {
			cfg.Requests = nil
		}
	}
}

// createNodeSelector says where the devices can be used: on the node, as soon
// as one device is node-local (its slice's nodeName, or its own with
// perDeviceNodeSelection) or bindsToNode; else on the nodes that all node
// selectors of the devices (the slice's, or the device's own) admit, their
// single terms merged; else anywhere (nil). Devices are looked at in
// result order, and the first node-local one ends the walk, as upstream's
// createNodeSelector does; a selector with several terms met before that
// fails the claim (see severalTerms).
// local, when not nil, is the memory for a node-local selector.
func createNodeSelector(v *view, node *corev1.Node, p *claimPlan, requests []*requestPlan, local *nodeLocal) (*corev1.NodeSelector, *ClaimError) {
	var term corev1.NodeSelectorTerm
	for _, r := range requests {
		for _, dev := range r.chosen {
			e := v.slices[dev.slice]
			if e.onNode && node != nil {
				// What the slice's spec says below, known from the entry.
				if local == nil {
					local = &nodeLocal{}
				}
				return local.selector(node.Name), nil
			}
			d := &e.devices[dev.device]
			nodeName, selector := e.obj.Spec.NodeName, e.obj.Spec.NodeSelector
			path := "spec.nodeSelector"
			if e.obj.Spec.PerDeviceNodeSelection != nil && *e.obj.Spec.PerDeviceNodeSelection {
				nodeName, selector = d.NodeName, d.NodeSelector
				path = fmt.Sprintf("spec.devices[%d].nodeSelector", dev.device)
			}
			if (nodeName != nil || d.BindsToNode != nil && *d.BindsToNode) && node != nil {
				if local == nil {
					local = &nodeLocal{}
				}
				return local.selector(node.Name), nil
			}
			if selector == nil || len(selector.NodeSelectorTerms) == 0 {
				continue
			}
			if len(selector.NodeSelectorTerms) > 1 {
				return nil, severalTerms(p, r.resultName, e, d.Name, path, len(selector.NodeSelectorTerms))
			}
			first := selector.NodeSelectorTerms[0]
			term.MatchFields = mergeRequirements(term.MatchFields, first.MatchFields)
			term.MatchExpressions = mergeRequirements(term.MatchExpressions, first.MatchExpressions)
		}
	}
	if len(term.MatchExpressions) == 0 && len(term.MatchFields) == 0 {
		return nil, nil
	}
	return &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{term}}, nil
}

// nodeLocal is the memory of the node selector of a node-local
// allocation: the node by name. Its parts share one allocation (and
// newAllocation puts that into the allocation's), which a scheduler would
// otherwise pay four times for every claim it allocates.
type nodeLocal struct {
	sel   corev1.NodeSelector
	term  [1]corev1.NodeSelectorTerm
	field [1]corev1.NodeSelectorRequirement
	value [1]string
}

// selector fills in the node selector for the node.
func (l *nodeLocal) selector(name string) *corev1.NodeSelector {
	l.value[0] = name
	l.field[0] = corev1.NodeSelectorRequirement{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: l.value[:]}
	l.term[0].MatchFields = l.field[:]
	l.sel.NodeSelectorTerms = l.term[:]
	return &l.sel
}

// severalTerms is the error of a claim that got a device whose node
// selector has several terms. The allocation's node selector is one term
// that ANDs the requirements of every device's selector; terms are ORed,
// so several of them cannot be merged into it. Upstream's createNodeSelector
// (v0.37.2, every implementation, and 1.31's) fails the whole Allocate
// call with "create NodeSelector for claim <name>: unsupported
// ResourceSlice.NodeSelector with <n> terms"; drakit fails the claim (in
// Joint mode the call then allocates nothing). The API server accepts
// exactly one term, so only slices that bypassed validation get here.
func severalTerms(p *claimPlan, request string, e *sliceEntry, device, path string, n int) *ClaimError {
	return &ClaimError{Claim: p.claimID(), Request: request, Reason: ReasonUnsupported,
		Detail: fmt.Sprintf("device %s/%s/%s was chosen, but ResourceSlice %q: %s has %d terms, and an allocation's node selector can merge only single-term selectors (the API server requires exactly one term; fix the slice)",
			e.driver, e.pool, device, e.obj.Name, path, n),
		upstream: &upstreamFailure{text: fmt.Sprintf("create NodeSelector for claim %s: unsupported ResourceSlice.NodeSelector with %d terms", p.claim.Name, n)}}
}

func ptrTo[T any](v T) *T { return &v }
