package allocator

import (
	"context"
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource"
)

// TestMessages produces every explanation of the allocator that carries
// a count or a list with none, one and several of what it counts, through
// Allocate on small inventories, and checks the exact text: people read
// these, and "1 devices match" or "no 0 of them" should not reach them.
// Counts that cannot be 0 or 1 where a template is used (the devices of
// an allocation over its limit, a node selector's terms) are left out.
func TestMessages(t *testing.T) {
	n1 := node("n1")
	gpuSlice := func(devices ...resource.Device) *resource.ResourceSlice {
		return slice("s", drv, "n1", onNode("n1"), devices...)
	}
	numa := func(values ...int) []resource.Device {
		var out []resource.Device
		for i, v := range values {
			out = append(out, dev("gpu"+string(rune('0'+i)), attr("numa", v)))
		}
		return out
	}
	plain := func(n int) []resource.Device { return numa(make([]int, n)...) }
	bare := func(names ...string) []resource.Device {
		var out []resource.Device
		for _, n := range names {
			out = append(out, dev(n))
		}
		return out
	}
	numa7 := sel(`device.attributes["gpu.example.com"].numa == 7`)
	onNuma := func(c *resource.ResourceClaim, requests ...string) *resource.ResourceClaim {
		return withConstraint(c, "gpu.example.com/numa", requests...)
	}
	withModel := func(c *resource.ResourceClaim) *resource.ResourceClaim {
		return withConstraint(c, "gpu.example.com/model")
	}
	taintedGPUs := func(n, taints int) []resource.Device {
		out := plain(n)
		for i := 0; i < taints; i++ {
			out[i] = tainted(out[i], "k", resource.DeviceTaintEffectNoSchedule)
		}
		return out
	}
	withCapacity := func(nics int, others ...string) []resource.Device {
		var out []resource.Device
		for i := 0; i < nics; i++ {
			out = append(out, nic("nic"+string(rune('0'+i))))
		}
		return append(out, bare(others...)...)
	}
	// pool2 moves a counter pool's slices to pool "p2".
	pool2 := func(slices ...*resource.ResourceSlice) []*resource.ResourceSlice {
		for _, s := range slices {
			s.Name += "-2"
			s.Spec.Pool.Name = "p2"
		}
		return slices
	}
	grouping := func(s *resource.ResourceSlice, groups ...string) *resource.ResourceSlice {
		for i, g := range groups {
			s.Spec.Devices[i].ConsumesCounters[0].CompatibilityGroups = []string{g}
		}
		return s
	}
	withNuma := func(s *resource.ResourceSlice) *resource.ResourceSlice {
		for i := range s.Spec.Devices {
			s.Spec.Devices[i].Attributes = dev("", attr("numa", 0)).Attributes
		}
		return s
	}
	compat := withFeatures(func(f *Features) { f.CompatibilityGroups = true })
	cases := []struct {
		name     string
		features *Features
		slices   []*resource.ResourceSlice
		inUse    []DeviceID
		mode     Mode
		claims   []*resource.ResourceClaim
		want     string // the last claim's error
	}{
		// shortfall, no device matches.
		{
			name:   "no match, the node reaches no devices",
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", numa7))},
			want:   `claim ns/c, request "r": no device matches: the node can reach no devices`,
		},
		{
			name:   "no match, the node reaches 1 device",
			slices: []*resource.ResourceSlice{gpuSlice(plain(1)...)},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", numa7))},
			want:   `claim ns/c, request "r": no device matches: the 1 device the node can reach does not pass the selectors of DeviceClass "gpu" and of the request`,
		},
		{
			name:   "no match, the node reaches 3 devices",
			slices: []*resource.ResourceSlice{gpuSlice(plain(3)...)},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", numa7))},
			want:   `claim ns/c, request "r": no device matches: of the 3 devices the node can reach, none passes the selectors of DeviceClass "gpu" and of the request`,
		},
		// candidates, an All request without devices.
		{
			name:   "All, the node reaches no devices",
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", all(), numa7))},
			want:   `claim ns/c, request "r": asks for all matching devices, but the node can reach no devices (Kubernetes 1.32+ requires at least one)`,
		},
		{
			name:   "All, the node reaches 1 device",
			slices: []*resource.ResourceSlice{gpuSlice(plain(1)...)},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", all(), numa7))},
			want:   `claim ns/c, request "r": asks for all matching devices, but the 1 device the node can reach does not pass the selectors of DeviceClass "gpu" and of the request (Kubernetes 1.32+ requires at least one)`,
		},
		{
			name:   "All, the node reaches 3 devices",
			slices: []*resource.ResourceSlice{gpuSlice(plain(3)...)},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", all(), numa7))},
			want:   `claim ns/c, request "r": asks for all matching devices, but of the 3 devices the node can reach, none passes the selectors of DeviceClass "gpu" and of the request (Kubernetes 1.32+ requires at least one)`,
		},
		// shortfall, not enough devices (notEnough).
		{
			name:   "not enough, 1 matches",
			slices: []*resource.ResourceSlice{gpuSlice(plain(1)...)},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(2)))},
			want:   `claim ns/c, request "r": not enough devices: asks for 2, 1 matches`,
		},
		{
			name:   "not enough, 3 match",
			slices: []*resource.ResourceSlice{gpuSlice(plain(3)...)},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(4)))},
			want:   `claim ns/c, request "r": not enough devices: asks for 4, 3 match`,
		},
		{
			name:   "not enough, 1 is allocated",
			slices: []*resource.ResourceSlice{gpuSlice(plain(2)...)},
			inUse:  []DeviceID{{drv, "n1", "gpu0"}},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(2)))},
			want:   `claim ns/c, request "r": not enough devices: asks for 2, 2 match, of which 1 is already allocated`,
		},
		{
			name:   "not enough, 2 are allocated",
			slices: []*resource.ResourceSlice{gpuSlice(plain(3)...)},
			inUse:  []DeviceID{{drv, "n1", "gpu0"}, {drv, "n1", "gpu1"}},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(2)))},
			want:   `claim ns/c, request "r": not enough devices: asks for 2, 3 match, of which 2 are already allocated`,
		},
		{
			name:   "not enough, 1 has a taint",
			slices: []*resource.ResourceSlice{gpuSlice(taintedGPUs(2, 1)...)},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(2)))},
			want:   `claim ns/c, request "r": not enough devices: asks for 2, 2 match, 1 has a taint the request does not tolerate (gpu.example.com/n1/gpu0: k=x:NoSchedule)`,
		},
		{
			name:   "not enough, 2 have a taint",
			slices: []*resource.ResourceSlice{gpuSlice(taintedGPUs(3, 2)...)},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(2)))},
			want:   `claim ns/c, request "r": not enough devices: asks for 2, 3 match, 2 have a taint the request does not tolerate (gpu.example.com/n1/gpu0: k=x:NoSchedule)`,
		},
		{
			name:   "not enough, 1 lacks the attribute of 1 constraint",
			slices: []*resource.ResourceSlice{gpuSlice(append(plain(1), bare("other")...)...)},
			claims: []*resource.ResourceClaim{onNuma(claim("c", req("r", "gpu", count(3))))},
			want:   `claim ns/c, request "r": not enough devices: asks for 3, 2 match and 1 lacks the attribute that the claim's constraint compares (gpu.example.com/numa)`,
		},
		{
			name:   "not enough, 2 lack the attributes of 2 constraints",
			slices: []*resource.ResourceSlice{gpuSlice(dev("gpu0", attr("numa", 0), attr("model", "a")), dev("other0"), dev("other1"))},
			claims: []*resource.ResourceClaim{withModel(onNuma(claim("c", req("r", "gpu", count(4)))))},
			want:   `claim ns/c, request "r": not enough devices: asks for 4, 3 match and 2 lack the attributes that the claim's constraints compare (gpu.example.com/numa, gpu.example.com/model)`,
		},
		{
			name:   "not enough, 0 match, 1 lacks capacity",
			slices: []*resource.ResourceSlice{gpuSlice(withCapacity(0, "plain0")...)},
			claims: []*resource.ResourceClaim{claim("c", exact("r", "gpu", bandwidth("4")))},
			want:   `claim ns/c, request "r": not enough devices: asks for 1, 0 match; 1 passes the selectors but lacks the capacity the request asks for`,
		},
		{
			name:   "not enough, 0 match, 2 lack capacity",
			slices: []*resource.ResourceSlice{gpuSlice(withCapacity(0, "plain0", "plain1")...)},
			claims: []*resource.ResourceClaim{claim("c", exact("r", "gpu", bandwidth("4")))},
			want:   `claim ns/c, request "r": not enough devices: asks for 1, 0 match; 2 pass the selectors but lack the capacity the request asks for`,
		},
		{
			name:   "not enough, 1 more lacks capacity",
			slices: []*resource.ResourceSlice{gpuSlice(withCapacity(1, "plain0")...)},
			claims: []*resource.ResourceClaim{claim("c", exact("r", "gpu", func(r *resource.ExactDeviceRequest) { bandwidth("4")(r); r.Count = 3 }))},
			want:   `claim ns/c, request "r": not enough devices: asks for 3, 1 matches; 1 more passes the selectors but lacks the capacity the request asks for`,
		},
		{
			name:   "not enough, 2 more lack capacity",
			slices: []*resource.ResourceSlice{gpuSlice(withCapacity(1, "plain0", "plain1")...)},
			claims: []*resource.ResourceClaim{claim("c", exact("r", "gpu", func(r *resource.ExactDeviceRequest) { bandwidth("4")(r); r.Count = 3 }))},
			want:   `claim ns/c, request "r": not enough devices: asks for 3, 1 matches; 2 more pass the selectors but lack the capacity the request asks for`,
		},
		// shortfall, the constraints' attributes.
		{
			name:   "attributes, 1 free device lacks it",
			slices: []*resource.ResourceSlice{gpuSlice(bare("other")...)},
			claims: []*resource.ResourceClaim{onNuma(claim("c", req("r", "gpu")))},
			want:   `claim ns/c, request "r": asks for 1 device; 1 matches and is free, but it lacks the attribute that the claim's constraint compares (gpu.example.com/numa)`,
		},
		{
			name:   "attributes, none of 2 has it",
			slices: []*resource.ResourceSlice{gpuSlice(bare("other0", "other1")...)},
			claims: []*resource.ResourceClaim{onNuma(claim("c", req("r", "gpu", count(2))))},
			want:   `claim ns/c, request "r": asks for 2 devices; 2 match and are free, but none of them has the attribute that the claim's constraint compares (gpu.example.com/numa)`,
		},
		{
			name:   "attributes, only 1 has it",
			slices: []*resource.ResourceSlice{gpuSlice(append(plain(1), bare("other")...)...)},
			claims: []*resource.ResourceClaim{onNuma(claim("c", req("r", "gpu", count(2))))},
			want:   `claim ns/c, request "r": asks for 2 devices; 2 match and are free, but only 1 of them has the attribute that the claim's constraint compares (gpu.example.com/numa)`,
		},
		{
			name: "attributes of 2 constraints, only 2 have them",
			slices: []*resource.ResourceSlice{gpuSlice(dev("gpu0", attr("numa", 0), attr("model", "a")), dev("gpu1", attr("numa", 0), attr("model", "a")),
				dev("gpu2", attr("numa", 0)), dev("other"))},
			claims: []*resource.ResourceClaim{withModel(onNuma(claim("c", req("r", "gpu", count(3)))))},
			want:   `claim ns/c, request "r": asks for 3 devices; 4 match and are free, but only 2 of them have the attributes that the claim's constraints compare (gpu.example.com/numa, gpu.example.com/model)`,
		},
		// blameRequest, a request under a constraint.
		{
			name:   "constraint, no 2 of 3 share a value",
			slices: []*resource.ResourceSlice{gpuSlice(numa(0, 1, 2)...)},
			claims: []*resource.ResourceClaim{onNuma(claim("c", req("r", "gpu", count(2))))},
			want:   `claim ns/c, request "r": 3 devices match, but no 2 of them that are free share a value for spec.devices.constraints[0] (matchAttribute gpu.example.com/numa)`,
		},
		{
			name:   "distinct constraint, no 2 of 3 differ",
			slices: []*resource.ResourceSlice{gpuSlice(numa(0, 0, 0)...)},
			claims: []*resource.ResourceClaim{distinct(claim("c", req("r", "gpu", count(2))), "gpu.example.com/numa")},
			want:   `claim ns/c, request "r": 3 devices match, but no 2 of them that are free have the values required by spec.devices.constraints[0] (distinctAttribute gpu.example.com/numa)`,
		},
		{
			name:   "All under a constraint, 3 devices do not share a value",
			slices: []*resource.ResourceSlice{gpuSlice(numa(0, 0, 1)...)},
			claims: []*resource.ResourceClaim{onNuma(claim("c", req("r", "gpu", all())))},
			want:   `claim ns/c, request "r": asks for all 3 devices that match, but they do not all share a value for spec.devices.constraints[0] (matchAttribute gpu.example.com/numa)`,
		},
		{
			name:   "All under a distinct constraint, 2 devices",
			slices: []*resource.ResourceSlice{gpuSlice(numa(0, 0)...)},
			claims: []*resource.ResourceClaim{distinct(claim("c", req("r", "gpu", all())), "gpu.example.com/numa")},
			want:   `claim ns/c, request "r": asks for all 2 devices that match, but they do not all have the values required by spec.devices.constraints[0] (distinctAttribute gpu.example.com/numa)`,
		},
		// blameRequest, a request whose devices the claims before it took
		// (Sequential), or its pools' counters. A constraint does not fail
		// a request for one device, nor an All request whose devices are
		// taken.
		{
			name:   "1 device asked for under a constraint, the 1 that matches is taken",
			slices: []*resource.ResourceSlice{gpuSlice(numa(0)...)},
			mode:   Sequential,
			claims: []*resource.ResourceClaim{claim("a", req("r", "gpu")), onNuma(claim("c", req("r", "gpu"), req("s", "gpu")), "r")},
			want:   `claim ns/c, request "r": not enough free devices: asks for 1, 1 matches, but it is taken by claim ns/a allocated before it in this call`,
		},
		{
			name:   "3 devices asked for, 1 of 3 is taken",
			slices: []*resource.ResourceSlice{gpuSlice(plain(3)...)},
			mode:   Sequential,
			claims: []*resource.ResourceClaim{claim("a", req("r", "gpu")), claim("c", req("r", "gpu", count(3)), req("s", "gpu"))},
			want:   `claim ns/c, request "r": not enough free devices: asks for 3, 3 match, but 1 of them is taken by claim ns/a allocated before it in this call`,
		},
		{
			name:   "1 device asked for under a constraint, 2 of 2 are taken",
			slices: []*resource.ResourceSlice{gpuSlice(numa(0, 0)...)},
			mode:   Sequential,
			claims: []*resource.ResourceClaim{claim("a", req("r", "gpu"), req("s", "gpu")), onNuma(claim("c", req("r", "gpu"), req("s", "gpu", count(2))), "r")},
			want:   `claim ns/c, request "r": not enough free devices: asks for 1, 2 match, but 2 of them are taken by claim ns/a allocated before it in this call`,
		},
		{
			name:   "All, the 1 device is taken",
			slices: []*resource.ResourceSlice{gpuSlice(plain(1)...)},
			mode:   Sequential,
			claims: []*resource.ResourceClaim{claim("a", req("r", "gpu")), claim("c", req("r", "gpu", all()), req("s", "gpu"))},
			want:   `claim ns/c, request "r": not enough free devices: asks for the 1 device that matches, but it is taken by claim ns/a allocated before it in this call`,
		},
		{
			name:   "All, 1 of 2 devices is taken",
			slices: []*resource.ResourceSlice{gpuSlice(plain(2)...)},
			mode:   Sequential,
			claims: []*resource.ResourceClaim{claim("a", req("r", "gpu")), claim("c", req("r", "gpu", all()), req("s", "gpu"))},
			want:   `claim ns/c, request "r": not enough free devices: asks for all 2 devices that match, but 1 of them is taken by claim ns/a allocated before it in this call`,
		},
		{
			name:   "All under a constraint, 2 of 3 devices are taken",
			slices: []*resource.ResourceSlice{gpuSlice(plain(3)...)},
			mode:   Sequential,
			claims: []*resource.ResourceClaim{claim("a", req("r", "gpu")), claim("b", req("r", "gpu")), onNuma(claim("c", req("r", "gpu", all()), req("s", "gpu")), "r")},
			want:   `claim ns/c, request "r": not enough free devices: asks for all 3 devices that match, but 2 of them are taken by claims ns/a, ns/b allocated before it in this call`,
		},
		{
			name:   "All under a constraint, the counters allow none of 1",
			slices: []*resource.ResourceSlice{counterSlice("counters", "8Gi"), withNuma(partitions("parts", "16Gi"))},
			claims: []*resource.ResourceClaim{onNuma(claim("c", req("r", "gpu", all())))},
			want:   `claim ns/c, request "r": not enough free devices: asks for the 1 device that matches (the counters of their pools allow no more)`,
		},
		{
			name:   "All, the counters allow 2 of 3",
			slices: []*resource.ResourceSlice{counterSlice("counters", "8Gi"), partitions("parts", "4Gi", "4Gi", "4Gi")},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", all()))},
			want:   `claim ns/c, request "r": not enough free devices: asks for all 3 devices that match (the counters of their pools allow no more)`,
		},
		{
			name:   "ExactCount, the counters allow none of 1",
			slices: []*resource.ResourceSlice{counterSlice("counters", "8Gi"), partitions("parts", "16Gi")},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(1)))},
			want:   `claim ns/c, request "r": not enough free devices: asks for 1, 1 matches and is not taken by other claims (the counters of their pools allow no more)`,
		},
		{
			name:   "ExactCount, the counters allow 2 of 3",
			slices: []*resource.ResourceSlice{counterSlice("counters", "8Gi"), partitions("parts", "4Gi", "4Gi", "4Gi")},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(3)))},
			want:   `claim ns/c, request "r": not enough free devices: asks for 3, 3 match and are not taken by other claims (the counters of their pools allow no more)`,
		},
		// blameRequest, the requests before it.
		{
			name:   "constraint, together with 1 request",
			slices: []*resource.ResourceSlice{gpuSlice(numa(0, 1)...)},
			claims: []*resource.ResourceClaim{onNuma(claim("c", req("r", "gpu", numa0()), req("s", "gpu", numa1())))},
			want:   `claim ns/c, request "s": the request can be met on its own, but not together with request r under spec.devices.constraints[0] (matchAttribute gpu.example.com/numa)`,
		},
		{
			name:   "constraint, together with 2 requests",
			slices: []*resource.ResourceSlice{gpuSlice(numa(0, 0, 1)...)},
			claims: []*resource.ResourceClaim{onNuma(claim("c", req("r", "gpu", numa0()), req("s", "gpu", numa0()), req("t", "gpu", numa1())))},
			want:   `claim ns/c, request "t": the request can be met on its own, but not together with requests r, s under spec.devices.constraints[0] (matchAttribute gpu.example.com/numa)`,
		},
		{
			name:   "competing with 1 request",
			slices: []*resource.ResourceSlice{gpuSlice(plain(1)...)},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu"), req("s", "gpu"))},
			want:   `claim ns/c, request "s": not enough devices for this request together with request r of the claim, which competes for the same devices`,
		},
		{
			name:   "competing with 2 requests",
			slices: []*resource.ResourceSlice{gpuSlice(plain(2)...)},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu"), req("s", "gpu"), req("t", "gpu"))},
			want:   `claim ns/c, request "t": not enough devices for this request together with requests r, s of the claim, which compete for the same devices`,
		},
		// blameRequest, firstAvailable.
		{
			name:   "alternatives, 2 alone",
			slices: []*resource.ResourceSlice{counterSlice("counters", "8Gi"), partitions("parts", "4Gi", "4Gi", "4Gi")},
			claims: []*resource.ResourceClaim{claim("c", firstAvailable("r", sub("a", "gpu", 3), sub("b", "gpu", 3)))},
			want:   `claim ns/c, request "r": none of the alternatives (r/a, r/b) can be allocated (the counters of their pools allow no more)`,
		},
		{
			name:   "alternatives, 1 with 1 request",
			slices: []*resource.ResourceSlice{gpuSlice(plain(1)...)},
			claims: []*resource.ResourceClaim{claim("c", req("q", "gpu"), firstAvailable("r", sub("a", "gpu", 1)))},
			want:   `claim ns/c, request "r": the only alternative (r/a) cannot be allocated together with request q of the claim`,
		},
		{
			name:   "alternatives, 2 with 2 requests and 1 claim",
			slices: []*resource.ResourceSlice{gpuSlice(plain(3)...)},
			mode:   Sequential,
			claims: []*resource.ResourceClaim{claim("x", req("r", "gpu")),
				claim("c", req("p", "gpu"), req("q", "gpu"), firstAvailable("r", sub("a", "gpu", 1), sub("b", "gpu", 1)), req("s", "gpu"))},
			want: `claim ns/c, request "r": none of the alternatives (r/a, r/b) can be allocated together with requests p, q of the claim and claim ns/x allocated before it in this call`,
		},
		{
			name:   "alternatives, 2 with 2 claims",
			slices: []*resource.ResourceSlice{gpuSlice(plain(3)...)},
			mode:   Sequential,
			claims: []*resource.ResourceClaim{claim("x", req("r", "gpu")), claim("y", req("r", "gpu")),
				claim("c", firstAvailable("r", sub("a", "gpu", 2), sub("b", "gpu", 2)), req("s", "gpu", count(2)))},
			want: `claim ns/c, request "r": none of the alternatives (r/a, r/b) can be allocated together with claims ns/x, ns/y allocated before it in this call`,
		},
		// diagnose, the claims before it.
		{
			name:   "claim, not with 1 claim before it",
			slices: []*resource.ResourceSlice{gpuSlice(plain(2)...)},
			claims: []*resource.ResourceClaim{claim("a", req("r", "gpu", count(2))), claim("c", req("r", "gpu"))},
			want:   `claim ns/c: the claim could be allocated on its own, but not together with claim ns/a allocated before it in this call`,
		},
		{
			name:   "claim, not with 2 claims before it",
			slices: []*resource.ResourceSlice{gpuSlice(plain(2)...)},
			claims: []*resource.ResourceClaim{claim("a", req("r", "gpu")), claim("b", req("r", "gpu")), claim("c", req("r", "gpu"))},
			want:   `claim ns/c: the claim could be allocated on its own, but not together with claims ns/a, ns/b allocated before it in this call`,
		},
		// compatBlame, the counter sets whose groups keep devices out.
		{
			name:     "compatibility groups of 1 counter set",
			features: compat,
			slices:   []*resource.ResourceSlice{counterSlice("counters", "8Gi"), grouping(partitions("parts", "1Gi", "1Gi"), "a", "b")},
			claims:   []*resource.ResourceClaim{claim("c", req("r", "gpu", count(2)))},
			want:     `claim ns/c, request "r": not enough free devices: asks for 2, 2 match and are not taken by other claims; the compatibility groups of counter set "mem" of pool gpu.example.com/p keep the devices needed out (the devices on a counter set must all name a group in common)`,
		},
		{
			name:     "compatibility groups of 2 counter sets",
			features: compat,
			slices: append([]*resource.ResourceSlice{counterSlice("counters", "8Gi"), grouping(partitions("parts", "1Gi", "1Gi"), "a", "b")},
				pool2(counterSlice("counters", "8Gi"), grouping(partitions("parts", "1Gi", "1Gi"), "a", "b"))...),
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(3)))},
			want:   `claim ns/c, request "r": not enough free devices: asks for 3, 4 match and are not taken by other claims; the compatibility groups of counter sets "mem" of pool gpu.example.com/p, "mem" of pool gpu.example.com/p2 keep the devices needed out (the devices on a counter set must all name a group in common)`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: c.slices, AllocatedDevices: c.inUse, Node: n1, Mode: c.mode, Features: c.features})
			if err != nil {
				t.Fatal(err)
			}
			results, err := a.Allocate(context.Background(), c.claims)
			if err != nil {
				t.Fatal(err)
			}
			got := results[len(results)-1].Err
			if got == nil || got.Error() != c.want {
				t.Errorf("got  %v\nwant %s", got, c.want)
			}
			if got != nil && strings.Contains(got.Error(), " 0 of them") {
				t.Errorf("%v: counts none as a number", got)
			}
		})
	}
}

func numa0() func(*resource.ExactDeviceRequest) {
	return sel(`device.attributes["gpu.example.com"].numa == 0`)
}

func numa1() func(*resource.ExactDeviceRequest) {
	return sel(`device.attributes["gpu.example.com"].numa == 1`)
}

// TestNotEnoughNumbers: a claim error of too few devices carries what the
// request asks for and how many of its matching devices are free, which
// pods' reasons count ("asks 3, at most 2 free"); an All request has no
// such numbers.
func TestNotEnoughNumbers(t *testing.T) {
	// gpu0 has a taint and gpu4 is allocated: 3 of 5 are free.
	devices := gpus(5, numaZero)
	devices[0] = tainted(devices[0], "k", resource.DeviceTaintEffectNoSchedule)
	inUse := []DeviceID{{drv, "n1", "gpu4"}}
	cases := []struct {
		name       string
		devices    []resource.Device
		inUse      []DeviceID
		mode       Mode
		claims     []*resource.ResourceClaim
		asks, free int
	}{
		{name: "planned: 5 match, 1 allocated, 1 tainted", devices: devices, inUse: inUse,
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(4)))}, asks: 4, free: 3},
		{name: "searched: 1 of 3 taken in the call", devices: devices, inUse: inUse, mode: Sequential,
			claims: []*resource.ResourceClaim{claim("a", req("r", "gpu")), claim("c", req("r", "gpu", count(3)), req("s", "gpu"))}, asks: 3, free: 2},
		{name: "All", devices: gpus(3, numaZero), mode: Sequential,
			claims: []*resource.ResourceClaim{claim("a", req("r", "gpu")), claim("c", req("r", "gpu", all()), req("s", "gpu"))}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), c.devices...)},
				AllocatedDevices: c.inUse, Node: node("n1"), Mode: c.mode})
			if err != nil {
				t.Fatal(err)
			}
			results, err := a.Allocate(context.Background(), c.claims)
			if err != nil {
				t.Fatal(err)
			}
			var ce *ClaimError
			if !asClaimError(results[len(results)-1].Err, &ce) || ce.Reason != ReasonNotEnough {
				t.Fatalf("got %v, want %s", results[len(results)-1].Err, ReasonNotEnough)
			}
			if ce.asks != c.asks || ce.free != c.free {
				t.Errorf("%v: asks %d, free %d; want %d, %d", ce, ce.asks, ce.free, c.asks, c.free)
			}
		})
	}
}
