package allocator

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"

	"github.com/drakit/drakit/allocator/internal/nodefit"
	"github.com/drakit/drakit/allocator/internal/podclaims"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
)

// resolve finds or makes the pod's claims, as the resourceclaim
// controller does before the pod reaches the scheduler, and notes its
// extended resources; waiting says why the pod cannot be tried yet.
func (p *podPlacer) resolve(pod *corev1.Pod) (*podCall, string) {
	call := &podCall{pod: pod, filter: nodefit.New(pod), requests: nodefit.PodRequests(pod, false), entryOf: map[string]string{}}
	seen := map[*claimState]bool{}
	for _, entry := range pod.Spec.ResourceClaims {
		cs, waiting := p.claimFor(pod, entry)
		if waiting != "" {
			return call, waiting
		}
		if cs == nil || seen[cs] {
			continue
		}
		seen[cs] = true
		call.entryOf[claimName(cs.hub)] = entry.Name
		if cs.hub.Status.Allocation != nil {
			sel, err := heldNodeSelector(cs.hub.Status.Allocation)
			if err != nil {
				return call, fmt.Sprintf("claim %s: allocation.nodeSelector: %v", claimName(cs.hub), err)
			}
			call.held = append(call.held, cs)
			call.heldNodes = append(call.heldNodes, sel)
			continue
		}
		call.toAlloc = append(call.toAlloc, cs)
	}
	call.extended = podclaims.ExtendedOf(pod, p.classes)
	if call.extended != nil {
		if cs := p.extendedClaimOf(pod); cs != nil && cs.hub.Status.Allocation != nil {
			// Allocated before: it holds its devices, as any claim.
			call.extended = nil
			sel, _ := heldNodeSelector(cs.hub.Status.Allocation)
			call.held = append(call.held, cs)
			call.heldNodes = append(call.heldNodes, sel)
			call.entryOf[claimName(cs.hub)] = "extended resources"
		}
	}
	return call, ""
}

func heldNodeSelector(a *resource.AllocationResult) (*nodeaffinity.NodeSelector, error) {
	if a.NodeSelector == nil {
		return nil, nil
	}
	return nodeaffinity.NewNodeSelector(a.NodeSelector)
}

// claimFor is the claim of one resourceClaims entry: the named claim, or
// for a template the claim the pod's status names, the claim made for
// the entry before (owned by the pod, annotated with the entry), or a new
// one from the template. It is nil for an entry that needs no claim.
func (p *podPlacer) claimFor(pod *corev1.Pod, entry corev1.PodResourceClaim) (*claimState, string) {
	ns := pod.Namespace
	if entry.ResourceClaimName != nil {
		cs := p.byName[ns+"/"+*entry.ResourceClaimName]
		if cs == nil {
			return nil, fmt.Sprintf("resourceclaim %s/%s (spec.resourceClaims %s) is not in the input", ns, *entry.ResourceClaimName, entry.Name)
		}
		return cs, ""
	}
	if entry.ResourceClaimTemplateName == nil {
		return nil, ""
	}
	for _, st := range pod.Status.ResourceClaimStatuses {
		if st.Name != entry.Name {
			continue
		}
		if st.ResourceClaimName == nil {
			return nil, ""
		}
		if cs := p.byName[ns+"/"+*st.ResourceClaimName]; cs != nil {
			return cs, ""
		}
	}
	for _, cs := range p.byOwner[pod.UID] {
		if cs.hub.Annotations[podclaims.PodClaimNameAnnotation] == entry.Name && podclaims.OwnedBy(cs.hub, pod) {
			return cs, ""
		}
	}
	t, ok := p.templates[ns+"/"+*entry.ResourceClaimTemplateName]
	if !ok {
		return nil, fmt.Sprintf("resourceclaimtemplate %s/%s (spec.resourceClaims %s) is not in the input", ns, *entry.ResourceClaimTemplateName, entry.Name)
	}
	generate := podclaims.TemplateGenerateName(pod.Name, entry.Name)
	claim := podclaims.FromTemplate(pod, entry.Name, p.freeName(ns, generate, pod.Name+"/"+entry.Name), t.t)
	cs := &claimState{hub: claim, version: t.version, given: -1, podClaimName: entry.Name}
	p.addClaim(cs)
	p.made++
	return cs, ""
}

// freeName is a deterministic generated name not taken in the namespace.
func (p *podPlacer) freeName(ns, generateName, seed string) string {
	for attempt := 0; ; attempt++ {
		name := podclaims.GeneratedName(generateName, ns+"/"+seed, attempt)
		if p.byName[ns+"/"+name] == nil {
			return name
		}
	}
}

// extendedClaimOf finds the claim made for the pod's extended resources
// before (annotated, owned by the pod).
func (p *podPlacer) extendedClaimOf(pod *corev1.Pod) *claimState {
	for _, cs := range p.byOwner[pod.UID] {
		if cs.hub.Annotations[podclaims.ExtendedResourceClaimAnnotation] == "true" && podclaims.OwnedBy(cs.hub, pod) {
			return cs
		}
	}
	return nil
}

// extendedClaim is the pod's claim for the resources a node provides
// through DRA; one per set of resources, made on first use and kept out
// of the list of claims until the pod is placed with it.
func (p *podPlacer) extendedClaim(call *podCall, viaDRA []corev1.ResourceName) *claimState {
	p.mu.Lock()
	defer p.mu.Unlock()
	names := make([]string, len(viaDRA))
	for k, n := range viaDRA {
		names[k] = string(n)
	}
	key := strings.Join(names, ",")
	if cs := call.extClaims[key]; cs != nil {
		return cs
	}
	pod := call.pod
	name := p.freeName(pod.Namespace, pod.Name+"-extended-resources-", pod.Name+"/extended-resources")
	claim, mappings := call.extended.Claim(name, viaDRA)
	cs := &claimState{hub: claim, version: "v1", given: -1, extended: true}
	cs.result.Claim = claim
	if call.extClaims == nil {
		call.extClaims = map[string]*claimState{}
	}
	call.extClaims[key] = cs
	cs.mappings = mappings
	return cs
}

// commit records the pod on the node: the claims keep their allocations
// (and list the pod as a consumer), the pod gets the node and the names
// of the claims made for it.
func (p *podPlacer) commit(res *PodResult, call *podCall, k int, claims []*claimState, results []Result) {
	node := p.nodes[k]
	if !res.Bound {
		p.resources[k].Add(call.requests)
	}
	for _, a := range p.workers {
		a.Commit(results)
	}
	p.changed(node.Name, results)
	pod := res.Pod.DeepCopy()
	pod.Spec.NodeName = node.Name
	res.Node = node.Name
	for k, cs := range claims {
		cs.result = results[k]
		cs.allocatedHere = true
		cs.node = node.Name
		cs.hub = results[k].AllocatedClaim()
		p.hold(cs)
		if cs.extended {
			p.addClaim(cs)
			p.made++
			res.Claims = append(res.Claims, claimName(cs.hub))
			pod.Status.ExtendedResourceClaimStatus = &corev1.PodExtendedResourceClaimStatus{ResourceClaimName: cs.hub.Name, RequestMappings: cs.mappings}
		}
	}
	for _, cs := range call.held {
		if !cs.copied {
			cs.hub, cs.copied = cs.hub.DeepCopy(), true
		}
		reserveFor(cs.hub, pod)
	}
	for _, cs := range claims {
		cs.copied = true
		reserveFor(cs.hub, pod)
	}
	res.Pod = pod
}

func setClaimStatus(pod *corev1.Pod, entry, name string) {
	for k := range pod.Status.ResourceClaimStatuses {
		if pod.Status.ResourceClaimStatuses[k].Name == entry {
			pod.Status.ResourceClaimStatuses[k].ResourceClaimName = &name
			return
		}
	}
	pod.Status.ResourceClaimStatuses = append(pod.Status.ResourceClaimStatuses, corev1.PodResourceClaimStatus{Name: entry, ResourceClaimName: &name})
}

// reservedForPod reports whether the claim lists the pod among its
// consumers.
func reservedForPod(c *resource.ResourceClaim, pod *corev1.Pod) bool {
	for _, r := range c.Status.ReservedFor {
		if r.Resource == "pods" && r.Name == pod.Name && r.UID == pod.UID {
			return true
		}
	}
	return false
}

// reserveFor lists the pod among the claim's consumers, as the scheduler
// does when it binds the pod.
func reserveFor(c *resource.ResourceClaim, pod *corev1.Pod) {
	if reservedForPod(c, pod) {
		return
	}
	c.Status.ReservedFor = append(c.Status.ReservedFor, resource.ResourceClaimConsumerReference{Resource: "pods", Name: pod.Name, UID: pod.UID})
}

// placement writes the claims back in their versions.
func (p *podPlacer) placement() (*Placement, error) {
	out := &Placement{Pods: p.results, Made: p.made, Nodes: p.nodes}
	if p.explain {
		out.Holders = p.holders
	}
	for _, cs := range p.claims {
		r := ObjectResult{Name: claimName(cs.hub), Version: cs.version, Result: cs.result, Node: cs.node}
		if cs.hub.Status.Allocation == nil {
			r.Err = &ClaimError{Claim: r.Name, Reason: ReasonNotPlaced, Detail: "no pod that uses the claim was placed"}
			r.Result.Err = r.Err
		}
		obj, err := conversion.FromHub(cs.hub, cs.version)
		if err != nil {
			return nil, fmt.Errorf("claim %s: writing it as %s: %w", r.Name, cs.version, err)
		}
		r.Claim = obj
		out.Claims = append(out.Claims, r)
	}
	return out, nil
}
