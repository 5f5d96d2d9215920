package allocbench

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// The benchmark scenarios of the 1.32+ features. Each states the features
// it uses in its inventory, and each operation checks the answer, so that
// a fast wrong answer fails the benchmark.

func featureScenarios() []BenchScenario {
	return []BenchScenario{
		prioritizedImpossibleFirst(),
		partitionableGPUs(),
		sharedNICs(),
		taintedHalf(),
		impossibleCounters(),
	}
}

// firstFit places a claim the way numaClaims does: the first node, from a
// rotating offset, where it fits; it commits and returns the node's index
// and the results. A claim that fits on no node is an error, not a full
// cluster: the scenarios that use firstFit reset their runner before the
// free devices run out, so the allocator failed where it should not have.
func firstFit(ctx context.Context, r Runner, inv *Inventory, claim *Claim, start int) (int, []*resource.AllocationResult, error) {
	var why error
	for k := range inv.Nodes {
		n := (start + k) % len(inv.Nodes)
		ok, results, err := r.Allocate(ctx, inv.Nodes[n], []*Claim{claim})
		if err != nil {
			return -1, nil, err
		}
		if ok {
			r.Commit(results)
			return n, results, nil
		}
		why = failureOf(r)
	}
	return -1, nil, fmt.Errorf("claim %s fits on none of the %d nodes; on the last one: %s", claim.Hub.Name, len(inv.Nodes), describeFailure(why))
}

// prioritizedImpossibleFirst: 32 GPUs on one node, 8 of them h100; the
// claim prefers 16 h100 (impossible) and falls back to 2 a100.
func prioritizedImpossibleFirst() BenchScenario {
	node := Node("n0", nil)
	claim := NewClaim(ResourceClaim("prefer-h100", FirstAvailable("gpus",
		Sub("h100x16", "gpu", Count(16), Select(`device.attributes["gpu.example.com"].model == "h100"`)),
		Sub("a100x2", "gpu", Count(2), Select(`device.attributes["gpu.example.com"].model == "a100"`)))))
	return BenchScenario{
		Name:        "prioritized-impossible-first-32",
		ClaimsPerOp: 1,
		Inventory: func() *Inventory {
			inv := &Inventory{Features: allocator.Features{PrioritizedList: true}, Nodes: []*corev1.Node{node},
				Classes: []*resource.DeviceClass{Class("gpu", `device.driver == "gpu.example.com"`)}}
			devices := gpuDevices(32)
			for i := 24; i < 32; i++ {
				m := "h100"
				devices[i].Attributes["model"] = resource.DeviceAttribute{StringValue: &m}
			}
			inv.Slices = append(inv.Slices, OnNode(Slice("n0-gpu", gpuDriver, "n0", devices), "n0"))
			return inv
		},
		Op: func(ctx context.Context, r Runner, inv *Inventory, i int) (bool, error) {
			ok, results, err := r.Allocate(ctx, node, []*Claim{claim})
			if err != nil {
				return false, err
			}
			if !ok {
				return false, fmt.Errorf("prefer-h100 not allocated")
			}
			res := results[0].Devices.Results
			if len(res) != 2 || res[0].Request != "gpus/a100x2" || res[1].Request != "gpus/a100x2" {
				return false, fmt.Errorf("prefer-h100: want 2 devices for gpus/a100x2, got %v", requests(res))
			}
			return false, nil
		},
	}
}

func requests(res []resource.DeviceRequestAllocationResult) []string {
	var out []string
	for _, r := range res {
		out = append(out, r.Request+"="+r.Device)
	}
	return out
}

// migDevices are the devices of one node's partitionable GPUs: per GPU g a
// counter set gpu<g> (memory 80, slices 7) that the whole GPU "gpu<g>"
// consumes entirely and each of its seven 1g partitions "gpu<g>-p<k>" by
// a seventh.
func migDevices(gpus int) ([]resource.CounterSet, []resource.Device) {
	var sets []resource.CounterSet
	var devices []resource.Device
	for g := 0; g < gpus; g++ {
		set := name("gpu%d", g)
		sets = append(sets, Counters(set, "memory", "80Gi", "slices", "7"))
		devices = append(devices, Consumes(Device(set, StringAttr("profile", "whole"), IntAttr("gpu", int64(g))), set, "memory", "80Gi", "slices", "7"))
		for p := 0; p < 7; p++ {
			devices = append(devices, Consumes(Device(name("gpu%d-p%d", g, p), StringAttr("profile", "1g"), IntAttr("gpu", int64(g))), set, "memory", "10Gi", "slices", "1"))
		}
	}
	return sets, devices
}

// partitionableGPUs: 100 nodes with 8 GPUs x 7 partitions on shared
// counters; on even nodes GPUs 0-3 are in use whole, so their partitions
// are out of counters. Each claim asks for one 1g partition, first fit.
func partitionableGPUs() BenchScenario {
	const nodes, gpus = 100, 8
	claim := NewClaim(ResourceClaim("one-1g", Request("mig", "mig-1g")))
	return BenchScenario{
		Name:        "partitionable-100nodes-8x7",
		ClaimsPerOp: 1,
		Inventory: func() *Inventory {
			inv := &Inventory{Features: allocator.Features{PartitionableDevices: true},
				Classes: []*resource.DeviceClass{Class("mig-1g", `device.driver == "gpu.example.com"`, `device.attributes["gpu.example.com"].profile == "1g"`)}}
			for n := 0; n < nodes; n++ {
				nn := name("n%03d", n)
				inv.Nodes = append(inv.Nodes, Node(nn, nil))
				sets, devices := migDevices(gpus)
				counters := CounterSlice(nn+"-counters", gpuDriver, nn, nn, sets...)
				counters.Spec.Pool.ResourceSliceCount = 2
				devs := OnNode(Slice(nn+"-gpus", gpuDriver, nn, devices), nn)
				devs.Spec.Pool.ResourceSliceCount = 2
				inv.Slices = append(inv.Slices, counters, devs)
				if n%2 == 0 {
					for g := 0; g < 4; g++ {
						inv.Allocated = append(inv.Allocated, allocator.DeviceID{Driver: gpuDriver, Pool: nn, Device: name("gpu%d", g)})
					}
				}
			}
			return inv
		},
		Op: func(ctx context.Context, r Runner, inv *Inventory, i int) (bool, error) {
			if i > 0 && i%1000 == 0 {
				return true, nil // keep the fill level in range (at most 4,200 partitions are free)
			}
			n, results, err := firstFit(ctx, r, inv, claim, (i*7)%nodes)
			if err != nil || n < 0 {
				return n < 0, err
			}
			res := results[0].Devices.Results
			if len(res) != 1 || !strings.Contains(res[0].Device, "-p") {
				return false, fmt.Errorf("one-1g: want one partition, got %v", requests(res))
			}
			g, err := gpuIndex(res[0].Device)
			if err != nil || n%2 == 0 && g < 4 {
				return false, fmt.Errorf("one-1g on node %d: %s is a partition of a GPU in use whole (its counters are spent)", n, res[0].Device)
			}
			return false, nil
		},
	}
}

// sharedNICs: 10 nodes with 4 shared NICs each (100Gi bandwidth, requests
// rounded up to whole Gi between 1Gi and 100Gi, default 1Gi). Each claim
// asks for 7500Mi, which takes 8Gi: a NIC holds 12 shares, so the NICs
// fill up as claims are committed.
func sharedNICs() BenchScenario {
	const nodes, nics = 10, 4
	claim := NewClaim(ResourceClaim("bw", Request("nic", "nic", CapacityRequest("bandwidth", "7500Mi"))))
	want := apiresource.MustParse("8Gi")
	return BenchScenario{
		Name:        "shared-nics-10nodes-x4",
		ClaimsPerOp: 1,
		Inventory: func() *Inventory {
			inv := &Inventory{Features: allocator.Features{ConsumableCapacity: true},
				Classes: []*resource.DeviceClass{Class("nic", `device.driver == "net.example.com"`, `device.allowMultipleAllocations`)}}
			for n := 0; n < nodes; n++ {
				nn := name("n%02d", n)
				inv.Nodes = append(inv.Nodes, Node(nn, nil))
				var devices []resource.Device
				for d := 0; d < nics; d++ {
					devices = append(devices, Policy(Shared(Device(name("nic%d", d), IntAttr("index", int64(d)), Capacity("bandwidth", "100Gi"))),
						"bandwidth", RangePolicy("1Gi", "1Gi", "100Gi", "1Gi")))
				}
				inv.Slices = append(inv.Slices, OnNode(Slice(nn+"-nics", netDriver, nn, devices), nn))
			}
			return inv
		},
		Op: func(ctx context.Context, r Runner, inv *Inventory, i int) (bool, error) {
			if i > 0 && i%400 == 0 {
				return true, nil // 480 shares fit
			}
			n, results, err := firstFit(ctx, r, inv, claim, i%nodes)
			if err != nil || n < 0 {
				return n < 0, err
			}
			res := results[0].Devices.Results
			if len(res) != 1 || res[0].ShareID == nil {
				return false, fmt.Errorf("bw: want one share, got %v", requests(res))
			}
			if got, ok := res[0].ConsumedCapacity["bandwidth"]; !ok || got.Cmp(want) != 0 {
				return false, fmt.Errorf("bw: consumed %v, want 8Gi (7500Mi rounded up to a step of 1Gi)", res[0].ConsumedCapacity)
			}
			return false, nil
		},
	}
}

// taintedHalf: 100 nodes with 8 GPUs; the odd GPUs are tainted
// maint:NoSchedule, and a DeviceTaintRule taints every GPU of node n000
// NoExecute. Claims for 2 GPUs alternate between one that tolerates
// maint (and nothing else) and one that tolerates nothing.
func taintedHalf() BenchScenario {
	const nodes = 100
	tolerating := NewClaim(ResourceClaim("tolerating", Request("gpus", "gpu", Count(2), Tolerate(Toleration("maint", "", resource.DeviceTaintEffectNoSchedule)))))
	plain := NewClaim(ResourceClaim("plain", Request("gpus", "gpu", Count(2))))
	return BenchScenario{
		Name:        "tainted-half-100nodes-x8",
		ClaimsPerOp: 1,
		Inventory: func() *Inventory {
			inv := &Inventory{Features: allocator.Features{DeviceTaints: true, DeviceTaintRules: true},
				Classes:    []*resource.DeviceClass{Class("gpu", `device.driver == "gpu.example.com"`)},
				TaintRules: []*resource.DeviceTaintRule{TaintRule("drain-n000", gpuDriver, "n000", "", resource.DeviceTaint{Key: "drain", Effect: resource.DeviceTaintEffectNoExecute})}}
			for n := 0; n < nodes; n++ {
				nn := name("n%03d", n)
				inv.Nodes = append(inv.Nodes, Node(nn, nil))
				devices := gpuDevices(8)
				for d := 1; d < 8; d += 2 {
					devices[d] = Taint(devices[d], "maint", "", resource.DeviceTaintEffectNoSchedule)
				}
				inv.Slices = append(inv.Slices, OnNode(Slice(nn+"-gpu", gpuDriver, nn, devices), nn))
			}
			return inv
		},
		Op: func(ctx context.Context, r Runner, inv *Inventory, i int) (bool, error) {
			if i > 0 && i%200 == 0 {
				// Keep the fill level in range: by operation 253 every
				// untainted GPU is taken and plain fits nowhere.
				return true, nil
			}
			claim := plain
			if i%2 == 0 {
				claim = tolerating
			}
			n, results, err := firstFit(ctx, r, inv, claim, (i*13)%nodes)
			if err != nil || n < 0 {
				return n < 0, err
			}
			res := results[0].Devices.Results
			if len(res) != 2 {
				return false, fmt.Errorf("%s: want 2 devices, got %v", claim.Hub.Name, requests(res))
			}
			for _, d := range res {
				idx, err := gpuIndex(d.Device)
				switch {
				case err != nil:
					return false, fmt.Errorf("%s got %s/%s: %v", claim.Hub.Name, d.Pool, d.Device, err)
				case d.Pool == "n000":
					return false, fmt.Errorf("%s got %s of n000, which a DeviceTaintRule taints NoExecute", claim.Hub.Name, d.Device)
				case claim == plain && idx%2 == 1:
					return false, fmt.Errorf("plain got the tainted %s/%s", d.Pool, d.Device)
				case claim == tolerating && len(d.Tolerations) != 1:
					return false, fmt.Errorf("tolerating: result tolerations %v, want the request's", d.Tolerations)
				}
			}
			return false, nil
		},
	}
}

// impossibleCounters: one GPU (memory 80Gi) split into 16 partitions of
// 10Gi; the claim asks for 9 partitions, which the counters refute.
func impossibleCounters() BenchScenario {
	node := Node("n0", nil)
	claim := NewClaim(ResourceClaim("nine", Request("parts", "gpu", Count(9))))
	return BenchScenario{
		Name:        "impossible-counters-16",
		ClaimsPerOp: 1,
		Impossible:  true,
		Inventory: func() *Inventory {
			inv := &Inventory{Features: allocator.Features{PartitionableDevices: true}, Nodes: []*corev1.Node{node},
				Classes: []*resource.DeviceClass{Class("gpu", `device.driver == "gpu.example.com"`)}}
			var devices []resource.Device
			for p := 0; p < 16; p++ {
				devices = append(devices, Consumes(Device(name("gpu0-p%d", p), IntAttr("index", int64(p))), "gpu0", "memory", "10Gi"))
			}
			counters := CounterSlice("n0-counters", gpuDriver, "n0", "n0", Counters("gpu0", "memory", "80Gi"))
			counters.Spec.Pool.ResourceSliceCount = 2
			devs := OnNode(Slice("n0-gpus", gpuDriver, "n0", devices), "n0")
			devs.Spec.Pool.ResourceSliceCount = 2
			inv.Slices = append(inv.Slices, counters, devs)
			return inv
		},
		Op: expectImpossible(node, claim),
	}
}

// gpuIndex is the number of a device named gpu<n> or gpu<n>-p<m>. The
// operations check their results with it inside the timed loop, so it is
// cheap (fmt.Sscanf was an eighth of drakit's warm time in tainted-half).
func gpuIndex(name string) (int, error) {
	digits, ok := strings.CutPrefix(name, "gpu")
	if !ok {
		return 0, fmt.Errorf("device %q is not named gpu<n>", name)
	}
	digits, _, _ = strings.Cut(digits, "-p")
	return strconv.Atoi(digits)
}
