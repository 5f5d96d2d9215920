package scheduler

import (
	resourcev1 "k8s.io/api/resource/v1"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
)

// edgeCases are the hand-written scenarios: each shows one rule (why),
// and some are the examples of knownDifferences.
func edgeCases() []*scenario {
	return []*scenario{
		edgeSharedClaim(),
		edgeSharedClaimAllocated(),
		edgeAllocatedWithoutTimestamp(),
		edgeTwoClaimsOneNode(),
		edgeDeviceTaints(),
		edgeFirstAvailable(),
		edgeAllocationModeAll(),
		edgeAllConstraintAbort(),
		edgeAllAbortTemplate(),
		edgeMatchAttribute(),
		edgeAllocatedElsewhere(),
		edgeTemplates(),
		edgeNodeTaint(),
		edgeNetworkAttached(),
		edgeSliceWithoutNode(),
		edgeRetryMessage(),
		edgeRetryAfterError(),
		edgeAllAbortBeforeInUse(),
		edgeAllAbortFirstClaim(),
		edgeResourcesFit(),
	}
}

// gpuNodes adds nodes n0, n1, ... with node-local pools of these GPUs
// (model a, NUMA node 0 unless the device says otherwise), and the class
// "gpu".
func gpuNodes(sc *scenario, pools ...[]resourcev1.Device) []*corev1.Node {
	var nodes []*corev1.Node
	for i, devices := range pools {
		n := sc.node(nodeName(i))
		if len(devices) > 0 {
			sc.localPool(n, gpuDriver, devices...)
		}
		nodes = append(nodes, n)
	}
	sc.class("gpu", gpuDriver, "")
	return nodes
}

func nodeName(i int) string { return "n" + string(rune('0'+i)) }

// gpus is n GPUs of model a on NUMA node 0, named g0, g1, ...
func gpus(n int) []resourcev1.Device {
	var out []resourcev1.Device
	for i := range n {
		out = append(out, gpu("g"+string(rune('0'+i)), "a", 0))
	}
	return out
}

func edgeSharedClaim() *scenario {
	sc := newScenario("shared-claim")
	sc.why = "pods sharing a claim go where its allocation is usable; a pod with a claim of its own goes elsewhere"
	gpuNodes(sc, gpus(1), gpus(1), nil)
	class := sc.clusterName("gpu")
	sc.claim("shared", claimSpec(request("r", class, 1)))
	sc.claim("own", claimSpec(request("r", class, 1)))
	sc.pendingPod("p1", named("g", "shared"))
	sc.pendingPod("p2", named("g", "shared"))
	sc.pendingPod("p3", named("g", "own"))
	return sc
}

func edgeSharedClaimAllocated() *scenario {
	sc := newScenario("shared-claim-allocated")
	sc.why = "a claim allocated on n1 for a running pod pins the pods that share it to n1; one whose own claim does not fit there is unschedulable"
	nodes := gpuNodes(sc, gpus(2), gpus(1))
	class := sc.clusterName("gpu")
	shared := sc.claim("shared", claimSpec(request("r", class, 1)))
	allocate(shared, []string{"b1"}, allocated{"r", sc.slices[1], "g0"})
	sc.boundPod("b1", nodes[1], named("g", "shared"))
	sc.claim("own", claimSpec(request("r", class, 1)))
	sc.pendingPod("p1", named("g", "shared"))
	sc.pendingPod("p2", named("g", "shared"), named("more", "own"))
	return sc
}

func edgeAllocatedWithoutTimestamp() *scenario {
	sc := newScenario("allocated-without-timestamp")
	sc.why = "a claim allocated without allocationTimestamp (by a scheduler before 1.36, or another program) and shared by a pending pod: the 1.37 scheduler's PreBind adds the timestamp with the reservation, the API server refuses the change of the allocation, and the pod fails with a SchedulerError on every attempt"
	nodes := gpuNodes(sc, gpus(2), gpus(1))
	class := sc.clusterName("gpu")
	shared := sc.claim("shared", claimSpec(request("r", class, 1)))
	allocate(shared, []string{"b1"}, allocated{"r", sc.slices[0], "g0"})
	withoutTimestamp(shared)
	sc.boundPod("b1", nodes[0], named("g", "shared"))
	sc.pendingPod("p1", named("g", "shared"))
	return sc
}

func edgeTwoClaimsOneNode() *scenario {
	sc := newScenario("two-claims-one-node")
	sc.why = "a pod's two claims are allocated together, on one node"
	gpuNodes(sc, gpus(1), gpus(2))
	class := sc.clusterName("gpu")
	sc.claim("a", claimSpec(request("r", class, 1)))
	sc.claim("b", claimSpec(request("r", class, 1)))
	sc.claim("c", claimSpec(request("r", class, 1)))
	sc.claim("d", claimSpec(request("r", class, 1)))
	sc.pendingPod("p1", named("a", "a"), named("b", "b"))
	sc.pendingPod("p2", named("c", "c"), named("d", "d"))
	return sc
}

func edgeDeviceTaints() *scenario {
	sc := newScenario("device-taints")
	sc.why = "devices tainted NoSchedule or NoExecute are used only by requests that tolerate the taint"
	noSchedule, noExecute := gpu("g0", "a", 0), gpu("g0", "a", 0)
	taintDevice(&noSchedule, "broken", resourcev1.DeviceTaintEffectNoSchedule)
	taintDevice(&noExecute, "broken", resourcev1.DeviceTaintEffectNoExecute)
	gpuNodes(sc, []resourcev1.Device{noSchedule}, []resourcev1.Device{noExecute}, gpus(1))
	class := sc.clusterName("gpu")
	for _, name := range []string{"c1", "c2"} {
		sc.claim(name, claimSpec(request("r", class, 1)))
	}
	sc.claim("tolerating", claimSpec(tolerate(request("r", class, 1), "broken")))
	sc.pendingPod("p1", named("g", "c1"))
	sc.pendingPod("p2", named("g", "c2"))
	sc.pendingPod("p3", named("g", "tolerating"))
	return sc
}

func edgeFirstAvailable() *scenario {
	sc := newScenario("first-available")
	sc.why = "firstAvailable takes the first alternative that fits on a node; the scheduler scores a node by the alternatives it got there and prefers n1, where the first fits, while drakit takes n0, the first node where any fits"
	gpuNodes(sc, []resourcev1.Device{gpu("g0", "b", 0)}, []resourcev1.Device{gpu("g0", "a", 0), gpu("g1", "a", 0)})
	class := sc.clusterName("gpu")
	sc.claim("either", claimSpec(firstAvailable("r", request("two-a", class, 2, modelIs("a")), request("one-b", class, 1, modelIs("b")))))
	sc.claim("two-a", claimSpec(request("r", class, 2, modelIs("a"))))
	sc.pendingPod("p1", named("g", "either"))
	sc.pendingPod("p2", named("g", "two-a"))
	return sc
}

func edgeAllocationModeAll() *scenario {
	sc := newScenario("allocation-mode-all")
	sc.why = "allocationMode All needs every matching device of the node free"
	nodes := gpuNodes(sc, gpus(2), gpus(2))
	class := sc.clusterName("gpu")
	held := sc.claim("held", claimSpec(request("r", class, 1)))
	allocate(held, []string{"b1"}, allocated{"r", sc.slices[0], "g1"})
	sc.boundPod("b1", nodes[0], named("g", "held"))
	sc.claim("all1", claimSpec(request("r", class, 0)))
	sc.claim("all2", claimSpec(request("r", class, 0)))
	sc.pendingPod("p1", named("g", "all1"))
	sc.pendingPod("p2", named("g", "all2"))
	return sc
}

func edgeAllConstraintAbort() *scenario {
	sc := newScenario("all-constraint-abort")
	sc.why = "on n0, an All request's device breaks the claim's matchAttribute after the other request took a device of the other NUMA node: the 1.37 allocator aborts the whole scheduling attempt with an error, although n0 (backtracking) and n1 fit"
	gpuNodes(sc,
		[]resourcev1.Device{gpu("g0", "x", 0), gpu("g1", "y", 1), gpu("g2", "x", 1)},
		[]resourcev1.Device{gpu("g0", "x", 0), gpu("g1", "y", 0)})
	class := sc.clusterName("gpu")
	sc.claim("c", matchAttribute(claimSpec(request("r0", class, 1, modelIs("x")), request("r1", class, 0, modelIs("y"))), "numa"))
	sc.pendingPod("p1", named("g", "c"))
	return sc
}

func edgeAllAbortTemplate() *scenario {
	sc := newScenario("all-abort-template")
	sc.why = "the scheduler's error of all-constraint-abort names the claim, here one the resourceclaim controller made from a template, with a random name"
	gpuNodes(sc, []resourcev1.Device{gpu("g0", "x", 0), gpu("g1", "y", 1), gpu("g2", "x", 1)})
	class := sc.clusterName("gpu")
	sc.template("t", matchAttribute(claimSpec(request("r0", class, 1, modelIs("x")), request("r1", class, 0, modelIs("y"))), "numa"))
	sc.pendingPod("p1", fromTemplate("g", "t"))
	return sc
}

func edgeMatchAttribute() *scenario {
	sc := newScenario("match-attribute")
	sc.why = "matchAttribute: the two GPUs must share a NUMA node, which only n1's do"
	gpuNodes(sc, []resourcev1.Device{gpu("g0", "a", 0), gpu("g1", "a", 1)}, []resourcev1.Device{gpu("g0", "a", 1), gpu("g1", "a", 1)})
	class := sc.clusterName("gpu")
	sc.claim("pair", matchAttribute(claimSpec(request("r", class, 2)), "numa"))
	sc.claim("pair2", matchAttribute(claimSpec(request("r", class, 2)), "numa"))
	sc.pendingPod("p1", named("g", "pair"))
	sc.pendingPod("p2", named("g", "pair2"))
	return sc
}

func edgeAllocatedElsewhere() *scenario {
	sc := newScenario("allocated-elsewhere")
	sc.why = "a claim allocated on n0 and reserved for nobody, for a pod that may run on n1 only: the scheduler's DRA PostFilter deallocates the claim and the pod is bound to n1 when it is tried again"
	gpuNodes(sc, gpus(1), gpus(1))
	class := sc.clusterName("gpu")
	c := sc.claim("c", claimSpec(request("r", class, 1)))
	allocate(c, nil, allocated{"r", sc.slices[0], "g0"})
	p := sc.pendingPod("p1", named("g", "c"))
	p.Spec.NodeSelector = map[string]string{corev1.LabelHostname: sc.clusterName("n1")}
	return sc
}

func edgeTemplates() *scenario {
	sc := newScenario("templates")
	sc.why = "each pod of a template gets a claim of its own, made by the resourceclaim controller"
	gpuNodes(sc, gpus(1), gpus(1))
	class := sc.clusterName("gpu")
	sc.template("one-gpu", claimSpec(request("r", class, 1)))
	for _, name := range []string{"p1", "p2", "p3"} {
		sc.pendingPod(name, fromTemplate("g", "one-gpu"))
	}
	return sc
}

func edgeNodeTaint() *scenario {
	sc := newScenario("node-taint")
	sc.why = "a node's NoSchedule taint keeps pods without the toleration off, whatever its devices"
	nodes := gpuNodes(sc, gpus(2), gpus(1))
	taintNode(nodes[0], "dedicated", "ml")
	class := sc.clusterName("gpu")
	for _, name := range []string{"c1", "c2", "c3"} {
		sc.claim(name, claimSpec(request("r", class, 1)))
	}
	sc.pendingPod("p1", named("g", "c1"))
	sc.pendingPod("p2", named("g", "c2"))
	tolerateNodeTaint(sc.pendingPod("p3", named("g", "c3")), "dedicated")
	return sc
}

func edgeNetworkAttached() *scenario {
	sc := newScenario("network-attached")
	sc.why = "a network-attached pool reaches the nodes of its rack only; a claim of a GPU and a NIC needs both on one node"
	n0 := sc.node("n0", "rack", "a")
	n1 := sc.node("n1", "rack", "b")
	sc.localPool(n0, gpuDriver, gpus(1)...)
	sc.localPool(n1, gpuDriver, gpus(2)...)
	sc.networkPool("rack-a", nicDriver, "rack", "a", nic("nic0", "a"))
	gpuClass, nicClass := sc.class("gpu", gpuDriver, ""), sc.class("nic", nicDriver, "")
	sc.claim("both", claimSpec(request("gpu", gpuClass, 1), request("nic", nicClass, 1)))
	sc.claim("nic", claimSpec(request("nic", nicClass, 1)))
	sc.claim("gpu", claimSpec(request("gpu", gpuClass, 2)))
	sc.pendingPod("p1", named("both", "both"))
	sc.pendingPod("p2", named("nic", "nic"))
	sc.pendingPod("p3", named("gpu", "gpu"))
	return sc
}

func edgeSliceWithoutNode() *scenario {
	sc := newScenario("slice-without-node")
	sc.why = "a slice names a node the cluster does not have (its node is gone, or it was never registered): the scheduler tries the cluster's nodes only"
	gpuNodes(sc, gpus(1))
	ghost := &corev1.Node{}
	ghost.Name = sc.clusterName("ghost")
	sc.localPool(ghost, gpuDriver, gpus(1)...)
	class := sc.clusterName("gpu")
	sc.claim("c1", claimSpec(request("r", class, 1)))
	sc.claim("c2", claimSpec(request("r", class, 1)))
	sc.pendingPod("p1", named("g", "c1"))
	sc.pendingPod("p2", named("g", "c2"))
	return sc
}

func edgeRetryMessage() *scenario {
	sc := newScenario("retry-message")
	sc.why = "p1 needs three GPUs on one node and fits nowhere; p2, which shares p1's claim s, allocates s on its node: the scheduler tries p1 again, where its other claim fits now on the other node but s is not available, and its message says so"
	gpuNodes(sc, gpus(2), gpus(2))
	class := sc.clusterName("gpu")
	sc.claim("s", claimSpec(request("r", class, 1)))
	sc.claim("x", claimSpec(request("r", class, 2)))
	sc.pendingPod("p1", named("s", "s"), named("x", "x"))
	sc.pendingPod("p2", named("s", "s"))
	return sc
}

func edgeAllAbortBeforeInUse() *scenario {
	sc := newScenario("all-abort-before-in-use")
	sc.why = "on n0 the All request's devices are g0 and g1, g1 held by a running pod: the 1.37 allocator takes g2 (NUMA 1) for the first request, meets g0 (NUMA 0) first in the All request and ends the attempt with an error before it sees that g1 is in use; n1 fits"
	nodes := gpuNodes(sc,
		[]resourcev1.Device{gpu("g0", "b", 0), gpu("g1", "b", 0), gpu("g2", "a", 1)},
		[]resourcev1.Device{gpu("g0", "a", 0), gpu("g1", "b", 0)})
	class := sc.clusterName("gpu")
	held := sc.claim("held", claimSpec(request("r", class, 1)))
	allocate(held, []string{"b0"}, allocated{"r", sc.slices[0], "g1"})
	sc.boundPod("b0", nodes[0], named("g", "held"))
	sc.claim("c", matchAttribute(claimSpec(request("one", class, 1, modelIs("a")), request("all", class, 0, modelIs("b"))), "numa"))
	sc.pendingPod("p1", named("g", "c"))
	return sc
}

func edgeAllAbortFirstClaim() *scenario {
	sc := newScenario("all-abort-first-claim")
	sc.why = "the pod's first claim makes the 1.37 allocator end the attempt with an error on n0 (its All request meets a device of the other NUMA node); its second claim, All devices of NUMA node 1, cannot be allocated there (g2 is tainted): upstream allocates the claims in order and fails with the first claim's error"
	taintedB := gpu("g2", "b", 1)
	taintDevice(&taintedB, "broken", resourcev1.DeviceTaintEffectNoSchedule)
	gpuNodes(sc, []resourcev1.Device{gpu("g0", "b", 0), gpu("g1", "a", 1), taintedB})
	class := sc.clusterName("gpu")
	sc.claim("c1", matchAttribute(claimSpec(request("one", class, 1, modelIs("b")), request("all", class, 0, modelIs("a"))), "numa"))
	sc.claim("c2", claimSpec(request("r", class, 0, numaIs(1))))
	sc.pendingPod("p1", named("a", "c1"), named("b", "c2"))
	return sc
}

func edgeRetryAfterError() *scenario {
	sc := newScenario("retry-after-error")
	sc.why = "p1's first claim takes both GPUs of model b with NUMA 1 first, and its second claim's All request then meets g1 (NUMA 1) after one took g3 (NUMA 0): the 1.37 allocator ends the attempt with an error. p2 allocates the second claim alone (g0 and g1); the scheduler tries p1 again, its second claim allocated now, and binds it"
	gpuNodes(sc, []resourcev1.Device{gpu("g0", "b", 1), gpu("g1", "a", 1), gpu("g2", "b", 1), gpu("g3", "b", 0)})
	class := sc.clusterName("gpu")
	sc.claim("c0", claimSpec(firstAvailable("r", request("big", class, 2, modelIs("b")), request("small", class, 1))))
	sc.claim("c1", matchAttribute(claimSpec(request("one", class, 1, modelIs("b")), request("all", class, 0, modelIs("a"))), "numa"))
	sc.pendingPod("p1", named("c0", "c0"), named("c1", "c1"))
	sc.pendingPod("p2", named("c1", "c1"))
	return sc
}

// edgeResourcesFit: NodeResourcesFit runs after the node filters and
// before DRA. The cpu that a bound pod and the pods placed before request
// counts against allocatable (64 on every node); a node short of cpu
// fails with "Insufficient cpu" (resolvable: preemption looks for
// victims, and finds none of lower priority) before its devices are
// looked at.
func edgeResourcesFit() *scenario {
	sc := newScenario("resources-fit")
	sc.why = "cpu requests of bound and placed pods count against allocatable; NodeResourcesFit's Insufficient cpu comes before DRA"
	nodes := gpuNodes(sc, gpus(2), gpus(1))
	class := sc.clusterName("gpu")
	for _, name := range []string{"c1", "c2", "c3"} {
		sc.claim(name, claimSpec(request("r", class, 1)))
	}
	requestCPU(sc.boundPod("b", nodes[0]), "40")
	requestCPU(sc.pendingPod("p1", named("g", "c1")), "20") // n0: 24 left
	requestCPU(sc.pendingPod("p2", named("g", "c2")), "20") // n0: 4 left; n1
	requestCPU(sc.pendingPod("p3", named("g", "c3")), "8")  // n0 short of cpu, n1 of GPUs
	return sc
}

// requestCPU makes the pod's container request this much cpu.
func requestCPU(p *corev1.Pod, cpu string) {
	p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: apiresource.MustParse(cpu)}
}
