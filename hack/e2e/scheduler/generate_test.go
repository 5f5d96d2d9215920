package scheduler

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
)

// seeds are the generated scenarios: each seed is one random small
// cluster, the same on every run.
var seeds = func() []uint64 {
	var out []uint64
	for s := uint64(1); s <= 30; s++ {
		out = append(out, s)
	}
	return out
}()

// generated are the scenarios of seeds, or of the seeds in
// DRAKIT_E2E_SCHEDULER_SEEDS ("31-500", "7,9"), to look for differences
// beyond the fixed list.
func generated() []*scenario {
	list := seeds
	if env := os.Getenv("DRAKIT_E2E_SCHEDULER_SEEDS"); env != "" {
		list = nil
		for _, part := range strings.Split(env, ",") {
			var from, to uint64
			if n, _ := fmt.Sscanf(part, "%d-%d", &from, &to); n == 2 {
				for s := from; s <= to; s++ {
					list = append(list, s)
				}
			} else if n, _ := fmt.Sscanf(part, "%d", &from); n == 1 {
				list = append(list, from)
			}
		}
	}
	var out []*scenario
	for _, seed := range list {
		out = append(out, generate(seed))
	}
	return out
}

// generate makes a random small cluster: 2 to 5 nodes (some in rack a,
// some in rack b; some tainted), node-local GPU pools (two models, two
// NUMA nodes, some devices tainted) and network-attached NIC pools (per
// rack or for every node); pods already bound holding allocated claims;
// and 2 to 6 pending pods whose claims ask for GPUs (counts, a model,
// allocationMode All, firstAvailable alternatives, matchAttribute on the
// NUMA node, tolerations of device taints) and NICs, named (some shared
// between pods, some already allocated to a bound pod) or made from
// templates, some with a node selector or a toleration of the node taint.
func generate(seed uint64) *scenario {
	rng := rand.New(rand.NewPCG(seed, 0x5c4ed))
	sc := newScenario(fmt.Sprintf("seed-%d", seed))
	chance := func(p float64) bool { return rng.Float64() < p }
	pick := func(options ...string) string { return options[rng.IntN(len(options))] }

	type gpuDev struct {
		slice *resourcev1.ResourceSlice
		name  string
		node  *corev1.Node
		taken bool
		model string
		numa  int64
		taint bool
	}
	var devices []*gpuDev
	nodes := 2 + rng.IntN(4)
	for i := range nodes {
		n := sc.node(nodeName(i), "rack", pick("a", "b"))
		if chance(0.2) {
			taintNode(n, "dedicated", "ml")
		}
		if chance(0.15) {
			continue // a node without GPUs
		}
		var devs []resourcev1.Device
		for j := range 1 + rng.IntN(4) {
			d := gpu(fmt.Sprintf("g%d", j), pick("a", "b"), int64(rng.IntN(2)))
			taint := chance(0.1)
			if taint {
				taintDevice(&d, "broken", resourcev1.DeviceTaintEffect(pick(string(resourcev1.DeviceTaintEffectNoSchedule), string(resourcev1.DeviceTaintEffectNoExecute))))
			}
			devs = append(devs, d)
			devices = append(devices, &gpuDev{name: d.Name, node: n, model: *d.Attributes["model"].StringValue, numa: *d.Attributes["numa"].IntValue, taint: taint})
		}
		s := sc.localPool(n, gpuDriver, devs...)
		for _, d := range devices {
			if d.node == n {
				d.slice = s
			}
		}
	}
	gpuClass := sc.class("gpu", gpuDriver, "")
	var nicClass string
	pools := rng.IntN(3)
	for i := range pools {
		var devs []resourcev1.Device
		rack := pick("a", "b", "")
		for j := range 1 + rng.IntN(3) {
			devs = append(devs, nic(fmt.Sprintf("nic%d", j), rack))
		}
		if rack == "" {
			sc.networkPool(fmt.Sprintf("nics-%d", i), nicDriver, "", "", devs...)
		} else {
			sc.networkPool(fmt.Sprintf("nics-%d", i), nicDriver, "rack", rack, devs...)
		}
	}
	if pools > 0 {
		nicClass = sc.class("nic", nicDriver, "")
	}

	// Bound pods, each holding one GPU of its node, untainted.
	for i := range rng.IntN(3) {
		var free []*gpuDev
		for _, d := range devices {
			if !d.taken && !d.taint {
				free = append(free, d)
			}
		}
		if len(free) == 0 {
			break
		}
		d := free[rng.IntN(len(free))]
		d.taken = true
		name := fmt.Sprintf("b%d", i)
		c := sc.claim(name+"-gpu", claimSpec(request("r", gpuClass, 1)))
		allocate(c, []string{name}, allocated{"r", d.slice, d.name})
		sc.boundPod(name, d.node, named("g", c.Name))
	}

	// What a pending pod's claim asks for.
	gpuSpec := func() resourcev1.ResourceClaimSpec {
		var r resourcev1.DeviceRequest
		switch k := rng.IntN(10); {
		case k < 2:
			r = request("r", gpuClass, int64(1+rng.IntN(2)))
		case k < 3:
			r = request("r", gpuClass, 1, modelIs(pick("a", "b")))
		case k < 4:
			r = request("r", gpuClass, 0, numaIs(rng.IntN(2)))
		case k < 6:
			r = firstAvailable("r", request("big", gpuClass, 2, modelIs(pick("a", "b"))), request("small", gpuClass, 1))
		case k < 7:
			// Two requests under one constraint, the second All: where a
			// device of the All request breaks the constraint, the 1.37
			// allocator ends the scheduling attempt with an error.
			return matchAttribute(claimSpec(request("one", gpuClass, 1, modelIs(pick("a", "b"))), request("all", gpuClass, 0, modelIs(pick("a", "b")))), "numa")
		default:
			spec := matchAttribute(claimSpec(request("r", gpuClass, 2)), "numa")
			if chance(0.2) {
				r := spec.Devices.Requests[0]
				spec.Devices.Requests[0] = tolerate(r, "broken")
			}
			return spec
		}
		if chance(0.2) {
			if r.Exactly != nil {
				r = tolerate(r, "broken")
			} else {
				for i := range r.FirstAvailable {
					r.FirstAvailable[i].Tolerations = append(r.FirstAvailable[i].Tolerations, resourcev1.DeviceToleration{Key: "broken", Operator: resourcev1.DeviceTolerationOpExists})
				}
			}
		}
		spec := claimSpec(r)
		if nicClass != "" && chance(0.25) {
			spec.Devices.Requests = append(spec.Devices.Requests, request("nic", nicClass, 1))
		}
		return spec
	}
	var shared []string
	// A claim allocated to a bound pod may be shared by pending pods.
	for _, c := range sc.claims {
		if chance(0.3) {
			shared = append(shared, c.Name)
		}
	}
	templates := 0
	for i := range 2 + rng.IntN(5) {
		name := fmt.Sprintf("p%d", i)
		var claims []podClaim
		for j := range 1 + rng.IntN(2) {
			entry := fmt.Sprintf("c%d", j)
			switch k := rng.IntN(10); {
			case k < 2 && len(shared) > 0:
				claims = append(claims, named(entry, shared[rng.IntN(len(shared))]))
			case k < 4:
				tpl := fmt.Sprintf("t%d", templates)
				templates++
				sc.template(tpl, gpuSpec())
				claims = append(claims, fromTemplate(entry, tpl))
			default:
				c := sc.claim(name+"-"+entry, gpuSpec())
				claims = append(claims, named(entry, c.Name))
				if chance(0.3) {
					shared = append(shared, c.Name)
				}
			}
		}
		// One claim used twice by a pod is not allowed; keep the first.
		seen := map[string]bool{}
		var unique []podClaim
		for _, c := range claims {
			key := c.claim + "/" + c.template
			if c.claim != "" && seen[key] {
				continue
			}
			seen[key] = true
			unique = append(unique, c)
		}
		p := sc.pendingPod(name, unique...)
		if chance(0.15) {
			p.Spec.NodeSelector = map[string]string{"rack": pick("a", "b")}
		}
		if chance(0.3) {
			tolerateNodeTaint(p, "dedicated")
		}
	}
	return sc
}

// TestGeneratedShapes: the seeds make scenarios of every shape the
// comparison is meant to cover, each several times (no server needed).
func TestGeneratedShapes(t *testing.T) {
	counts := map[string]int{}
	for _, sc := range generated() {
		counts[fmt.Sprintf("%d nodes", len(sc.nodes))]++
		shape := map[string]bool{}
		for _, n := range sc.nodes {
			if len(n.Spec.Taints) > 0 {
				shape["node taint"] = true
			}
		}
		for _, s := range sc.slices {
			if s.Spec.NodeName == nil {
				shape["network-attached pool"] = true
			}
			for _, d := range s.Spec.Devices {
				if len(d.Taints) > 0 {
					shape["device taint"] = true
				}
			}
		}
		if len(sc.bound) > 0 {
			shape["bound pod"] = true
		}
		if sc.usesTemplates() {
			shape["template"] = true
		}
		users := map[string]int{}
		for _, p := range sc.pending {
			if len(p.Spec.NodeSelector) > 0 {
				shape["node selector"] = true
			}
			if len(p.Spec.Tolerations) > 0 {
				shape["node toleration"] = true
			}
			for _, rc := range p.Spec.ResourceClaims {
				if rc.ResourceClaimName != nil {
					users[*rc.ResourceClaimName]++
				}
			}
		}
		for _, c := range sc.claims {
			if users[c.Name] > 1 || (users[c.Name] > 0 && c.Status.Allocation != nil) {
				shape["shared claim"] = true
			}
		}
		specs := []resourcev1.ResourceClaimSpec{}
		for _, c := range sc.claims {
			specs = append(specs, c.Spec)
		}
		for _, tpl := range sc.templates {
			specs = append(specs, tpl.Spec.Spec)
		}
		for _, spec := range specs {
			if len(spec.Devices.Constraints) > 0 {
				shape["matchAttribute"] = true
				for _, r := range spec.Devices.Requests {
					if r.Exactly != nil && r.Exactly.AllocationMode == resourcev1.DeviceAllocationModeAll {
						shape["All under matchAttribute"] = true
					}
				}
			}
			for _, r := range spec.Devices.Requests {
				switch {
				case r.FirstAvailable != nil:
					shape["firstAvailable"] = true
				case r.Exactly.AllocationMode == resourcev1.DeviceAllocationModeAll:
					shape["allocationMode All"] = true
				}
				if r.Exactly != nil && len(r.Exactly.Tolerations) > 0 {
					shape["device toleration"] = true
				}
				if len(spec.Devices.Requests) > 1 {
					shape["GPU and NIC"] = true
				}
			}
		}
		for k := range shape {
			counts[k]++
		}
	}
	for _, want := range []string{"All under matchAttribute", "2 nodes", "3 nodes", "4 nodes", "5 nodes", "node taint", "network-attached pool", "device taint", "bound pod",
		"template", "node selector", "node toleration", "shared claim", "matchAttribute", "firstAvailable", "allocationMode All", "device toleration", "GPU and NIC"} {
		if counts[want] < 3 {
			t.Errorf("%d of the %d generated scenarios have %s, want at least 3", counts[want], len(seeds), want)
		}
	}
	t.Logf("scenarios by shape: %v", counts)
}
