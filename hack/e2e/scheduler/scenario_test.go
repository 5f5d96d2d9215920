package scheduler

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// The drivers of every scenario. Attributes and pools are named after the
// scenario's nodes, which are unique on the server, so that a claim left
// allocated by one scenario never holds a device of another.
const (
	gpuDriver = "gpu.sched-e2e.example.com"
	nicDriver = "nic.sched-e2e.example.com"
	// scenarioLabel marks every cluster-wide object a scenario creates
	// (nodes, classes, slices) with the scenario's name, so that the test
	// finds and removes them, also those a run that was interrupted left.
	scenarioLabel = "sched-e2e.example.com/scenario"
	// snapshotGate holds the pending pods back from the scheduler until
	// drakit has read the cluster (see run).
	snapshotGate = "sched-e2e.example.com/snapshot"
	// pauseImage is the image of every container: nothing runs, but a pod
	// needs one.
	pauseImage = "registry.k8s.io/pause:3.10"
)

// scenario is one cluster and the pods handed to the scheduler. Names are
// the scenario's own: n0, gpu, c0; the names on the server are prefixed
// with the scenario's name (nodes, classes, slices, pools) or live in the
// scenario's namespace (claims, templates, pods).
type scenario struct {
	name string
	// why says what an edge case shows; empty for generated scenarios.
	why string
	// nodes are created in this order, which is also drakit's order of
	// trying them.
	nodes   []*corev1.Node
	classes []*resourcev1.DeviceClass
	slices  []*resourcev1.ResourceSlice
	// claims are the named claims; a claim with status.allocation was
	// allocated before (held by a bound pod, or by nobody).
	claims    []*resourcev1.ResourceClaim
	templates []*resourcev1.ResourceClaimTemplate
	// bound are pods that run already (spec.nodeName), holding the
	// claims reserved for them (reservedFor names them; the UIDs are
	// filled in when they are created).
	bound []*corev1.Pod
	// pending are handed to the scheduler one after the other, in this
	// order, each once the one before was bound or found unschedulable.
	pending []*corev1.Pod
}

func newScenario(name string) *scenario { return &scenario{name: name} }

// clusterName is a cluster-wide name of the scenario.
func (sc *scenario) clusterName(local string) string { return sc.name + "-" + local }

// namespace is the scenario's namespace.
func (sc *scenario) namespace() string { return "sched-e2e-" + sc.name }

// usesTemplates reports whether a pod of the scenario has a claim made
// from a template (which needs the resourceclaim controller).
func (sc *scenario) usesTemplates() bool {
	for _, p := range append(append([]*corev1.Pod(nil), sc.bound...), sc.pending...) {
		for _, rc := range p.Spec.ResourceClaims {
			if rc.ResourceClaimTemplateName != nil {
				return true
			}
		}
	}
	return false
}

// node adds a node with these labels (key=value pairs).
func (sc *scenario) node(local string, labels ...string) *corev1.Node {
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: sc.clusterName(local), Labels: map[string]string{scenarioLabel: sc.name}},
		Status: corev1.NodeStatus{
			// Enough for any number of pods that request nothing.
			Capacity:    corev1.ResourceList{corev1.ResourceCPU: apiresource.MustParse("64"), corev1.ResourceMemory: apiresource.MustParse("256Gi"), corev1.ResourcePods: apiresource.MustParse("110")},
			Allocatable: corev1.ResourceList{corev1.ResourceCPU: apiresource.MustParse("64"), corev1.ResourceMemory: apiresource.MustParse("256Gi"), corev1.ResourcePods: apiresource.MustParse("110")},
			Conditions:  []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", Message: "not a real kubelet"}},
		},
	}
	for i := 0; i+1 < len(labels); i += 2 {
		n.Labels[labels[i]] = labels[i+1]
	}
	n.Labels[corev1.LabelHostname] = n.Name
	sc.nodes = append(sc.nodes, n)
	return n
}

// taintNode gives the node a NoSchedule taint key=value.
func taintNode(n *corev1.Node, key, value string) {
	n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: key, Value: value, Effect: corev1.TaintEffectNoSchedule})
}

// class adds a DeviceClass selecting the devices of a driver, and, when
// given, of one model.
func (sc *scenario) class(local, driver, model string) string {
	expr := fmt.Sprintf("device.driver == %q", driver)
	if model != "" {
		expr += fmt.Sprintf(" && device.attributes[%q].model == %q", driver, model)
	}
	c := &resourcev1.DeviceClass{
		ObjectMeta: metav1.ObjectMeta{Name: sc.clusterName(local), Labels: map[string]string{scenarioLabel: sc.name}},
		Spec:       resourcev1.DeviceClassSpec{Selectors: []resourcev1.DeviceSelector{{CEL: &resourcev1.CELDeviceSelector{Expression: expr}}}},
	}
	sc.classes = append(sc.classes, c)
	return c.Name
}

// gpu is a device of the GPU driver.
func gpu(name, model string, numa int64) resourcev1.Device {
	return resourcev1.Device{Name: name, Attributes: map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{
		"model": {StringValue: ptr.To(model)},
		"numa":  {IntValue: ptr.To(numa)},
	}}
}

// nic is a device of the NIC driver.
func nic(name, rack string) resourcev1.Device {
	return resourcev1.Device{Name: name, Attributes: map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{
		"rack": {StringValue: ptr.To(rack)},
	}}
}

// taintDevice gives the device a taint key=true with the effect.
func taintDevice(d *resourcev1.Device, key string, effect resourcev1.DeviceTaintEffect) {
	d.Taints = append(d.Taints, resourcev1.DeviceTaint{Key: key, Value: "true", Effect: effect})
}

// localPool adds the slice of the node's own pool of the driver: the pool
// is named after the node.
func (sc *scenario) localPool(node *corev1.Node, driver string, devices ...resourcev1.Device) *resourcev1.ResourceSlice {
	s := &resourcev1.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: node.Name + "-" + driverShort(driver), Labels: map[string]string{scenarioLabel: sc.name}},
		Spec: resourcev1.ResourceSliceSpec{
			Driver: driver, NodeName: ptr.To(node.Name),
			Pool:    resourcev1.ResourcePool{Name: node.Name, ResourceSliceCount: 1},
			Devices: devices,
		},
	}
	sc.slices = append(sc.slices, s)
	return s
}

// networkPool adds a network-attached pool: its devices are reachable
// from the nodes with the label key=value, or from every node when key is
// empty.
func (sc *scenario) networkPool(local, driver, key, value string, devices ...resourcev1.Device) *resourcev1.ResourceSlice {
	s := &resourcev1.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: sc.clusterName(local), Labels: map[string]string{scenarioLabel: sc.name}},
		Spec: resourcev1.ResourceSliceSpec{
			Driver:  driver,
			Pool:    resourcev1.ResourcePool{Name: sc.clusterName(local), ResourceSliceCount: 1},
			Devices: devices,
		},
	}
	if key == "" {
		s.Spec.AllNodes = ptr.To(true)
	} else {
		s.Spec.NodeSelector = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: key, Operator: corev1.NodeSelectorOpIn, Values: []string{value}}},
		}}}
	}
	sc.slices = append(sc.slices, s)
	return s
}

func driverShort(driver string) string {
	if driver == nicDriver {
		return "nic"
	}
	return "gpu"
}

// request is an exact request of count devices of a class (count 0: the
// allocationMode All), with CEL selectors.
func request(name, class string, count int64, selectors ...string) resourcev1.DeviceRequest {
	e := &resourcev1.ExactDeviceRequest{DeviceClassName: class}
	if count == 0 {
		e.AllocationMode = resourcev1.DeviceAllocationModeAll
	} else {
		e.AllocationMode = resourcev1.DeviceAllocationModeExactCount
		e.Count = count
	}
	for _, s := range selectors {
		e.Selectors = append(e.Selectors, resourcev1.DeviceSelector{CEL: &resourcev1.CELDeviceSelector{Expression: s}})
	}
	return resourcev1.DeviceRequest{Name: name, Exactly: e}
}

// tolerate lets the request use devices with the taint key (any value, any
// effect).
func tolerate(r resourcev1.DeviceRequest, key string) resourcev1.DeviceRequest {
	r.Exactly.Tolerations = append(r.Exactly.Tolerations, resourcev1.DeviceToleration{Key: key, Operator: resourcev1.DeviceTolerationOpExists})
	return r
}

// firstAvailable is a request of alternatives, tried in order.
func firstAvailable(name string, alternatives ...resourcev1.DeviceRequest) resourcev1.DeviceRequest {
	r := resourcev1.DeviceRequest{Name: name}
	for _, a := range alternatives {
		sub := resourcev1.DeviceSubRequest{
			Name: a.Name, DeviceClassName: a.Exactly.DeviceClassName, Selectors: a.Exactly.Selectors,
			AllocationMode: a.Exactly.AllocationMode, Count: a.Exactly.Count, Tolerations: a.Exactly.Tolerations,
		}
		r.FirstAvailable = append(r.FirstAvailable, sub)
	}
	return r
}

// modelIs is a request's selector of one GPU model.
func modelIs(model string) string {
	return fmt.Sprintf("device.attributes[%q].model == %q", gpuDriver, model)
}

// numaIs is a request's selector of one NUMA node.
func numaIs(numa int) string {
	return fmt.Sprintf("device.attributes[%q].numa == %d", gpuDriver, numa)
}

// claimSpec is a claim's spec of these requests.
func claimSpec(requests ...resourcev1.DeviceRequest) resourcev1.ResourceClaimSpec {
	return resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: requests}}
}

// matchAttribute constrains all the requests of the spec to devices with
// the same value of the GPU attribute.
func matchAttribute(spec resourcev1.ResourceClaimSpec, attribute string) resourcev1.ResourceClaimSpec {
	spec.Devices.Constraints = append(spec.Devices.Constraints, resourcev1.DeviceConstraint{
		MatchAttribute: ptr.To(resourcev1.FullyQualifiedName(gpuDriver + "/" + attribute)),
	})
	return spec
}

// claim adds a named claim.
func (sc *scenario) claim(name string, spec resourcev1.ResourceClaimSpec) *resourcev1.ResourceClaim {
	c := &resourcev1.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: sc.namespace()}, Spec: spec}
	sc.claims = append(sc.claims, c)
	return c
}

// template adds a ResourceClaimTemplate.
func (sc *scenario) template(name string, spec resourcev1.ResourceClaimSpec) {
	sc.templates = append(sc.templates, &resourcev1.ResourceClaimTemplate{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: sc.namespace()},
		Spec:       resourcev1.ResourceClaimTemplateSpec{Spec: spec},
	})
}

// allocated is a device the claim holds: request, pool's slice, device.
type allocated struct {
	request string
	slice   *resourcev1.ResourceSlice
	device  string
}

// allocate writes the claim's allocation as a 1.37 scheduler would have
// written it: the devices, the node selector of their pool (a node's own
// pool: that node; a network pool: its node selector; every node: none)
// and the time (allocationTimestamp, which a 1.37 scheduler with
// DRADeviceBindingConditions, on by default, writes; see
// withoutTimestamp). reservedFor names the pods that hold it (their UIDs
// are filled in when they are created).
func allocate(c *resourcev1.ResourceClaim, reservedFor []string, devices ...allocated) {
	a := &resourcev1.AllocationResult{AllocationTimestamp: ptr.To(metav1.Now())}
	for _, d := range devices {
		a.Devices.Results = append(a.Devices.Results, resourcev1.DeviceRequestAllocationResult{
			Request: d.request, Driver: d.slice.Spec.Driver, Pool: d.slice.Spec.Pool.Name, Device: d.device,
		})
		switch {
		case d.slice.Spec.NodeName != nil:
			a.NodeSelector = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
				MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{*d.slice.Spec.NodeName}}},
			}}}
		case d.slice.Spec.NodeSelector != nil:
			a.NodeSelector = d.slice.Spec.NodeSelector.DeepCopy()
		}
	}
	c.Status.Allocation = a
	for _, p := range reservedFor {
		c.Status.ReservedFor = append(c.Status.ReservedFor, resourcev1.ResourceClaimConsumerReference{Resource: "pods", Name: p})
	}
}

// withoutTimestamp drops the claim's allocationTimestamp, as an allocation
// made by a scheduler without DRADeviceBindingConditions (off by default
// before 1.36) has none.
func withoutTimestamp(c *resourcev1.ResourceClaim) {
	c.Status.Allocation.AllocationTimestamp = nil
}

// podClaim is an entry of a pod's spec.resourceClaims: a named claim or a
// template.
type podClaim struct {
	entry, claim, template string
}

func named(entry, claim string) podClaim      { return podClaim{entry: entry, claim: claim} }
func fromTemplate(entry, tpl string) podClaim { return podClaim{entry: entry, template: tpl} }

// pod is a pod with these claims (each also used by its container).
func (sc *scenario) pod(name string, claims ...podClaim) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: sc.namespace()},
		Spec: corev1.PodSpec{
			Containers:                    []corev1.Container{{Name: "c", Image: pauseImage}},
			TerminationGracePeriodSeconds: ptr.To[int64](0),
		},
	}
	for _, c := range claims {
		rc := corev1.PodResourceClaim{Name: c.entry}
		if c.claim != "" {
			rc.ResourceClaimName = ptr.To(c.claim)
		} else {
			rc.ResourceClaimTemplateName = ptr.To(c.template)
		}
		p.Spec.ResourceClaims = append(p.Spec.ResourceClaims, rc)
		p.Spec.Containers[0].Resources.Claims = append(p.Spec.Containers[0].Resources.Claims, corev1.ResourceClaim{Name: c.entry})
	}
	return p
}

// pendingPod adds a pod for the scheduler.
func (sc *scenario) pendingPod(name string, claims ...podClaim) *corev1.Pod {
	p := sc.pod(name, claims...)
	sc.pending = append(sc.pending, p)
	return p
}

// boundPod adds a pod that runs on the node already.
func (sc *scenario) boundPod(name string, node *corev1.Node, claims ...podClaim) *corev1.Pod {
	p := sc.pod(name, claims...)
	p.Spec.NodeName = node.Name
	sc.bound = append(sc.bound, p)
	return p
}

// tolerateNodeTaint lets the pod run on nodes with the NoSchedule taint key.
func tolerateNodeTaint(p *corev1.Pod, key string) {
	p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule})
}
