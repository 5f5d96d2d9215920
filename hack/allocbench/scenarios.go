package allocbench

import (
	"context"
	"fmt"
	"math/rand"

	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// BenchScenario is one benchmark: an inventory and an operation that
// allocates ClaimsPerOp claims.
type BenchScenario struct {
	Name        string
	ClaimsPerOp int
	// Impossible scenarios expect every operation to fail; upstream's
	// search is exponential there and is run under a time cap. Every
	// operation of the other scenarios must allocate (in at least one of
	// its calls, when it tries node after node). The harness holds each
	// operation to this (runOp).
	Impossible bool
	Inventory  func() *Inventory
	// Warm runs before timing in the warm benchmarks (every allocator gets
	// the same warm-up).
	Warm func(ctx context.Context, r Runner, inv *Inventory) error
	// Op runs operation i. exhausted asks for a fresh runner before the
	// operations use up the free devices; an operation that asks for it
	// makes no allocation call (a claim that fits nowhere is a failure).
	Op func(ctx context.Context, r Runner, inv *Inventory, i int) (exhausted bool, err error)
}

const (
	gpuDriver = "gpu.example.com"
	netDriver = "net.example.com"
)

// BenchScenarios lists the scenarios of BenchmarkAllocate.
func BenchScenarios() []BenchScenario {
	out := []BenchScenario{
		schedulerGPUs(),
		numaClaims(),
		networkAll(),
		celHeavy(),
	}
	for _, n := range []int{10, 100, 1000} {
		out = append(out, impossibleCount(n))
	}
	out = append(out, impossibleMatchAttribute())
	return append(out, featureScenarios()...)
}

func gpuDevices(n int) []resource.Device {
	var out []resource.Device
	for i := 0; i < n; i++ {
		out = append(out, Device(name("gpu%d", i),
			StringAttr("model", "a100"), IntAttr("numa", int64(i/8)), IntAttr("index", int64(i)), Capacity("memory", "80Gi")))
	}
	return out
}

// schedulerGPUs: 1,000 nodes with 8 GPUs each; half the nodes are full, the
// others half used. Each claim asks for one GPU and is placed as the
// scheduler places a pod: it filters nodes, starting at a rotating offset,
// until 100 feasible nodes are found (minFeasibleNodesToFind), then takes
// the first feasible one.
func schedulerGPUs() BenchScenario {
	const nodes, perNode, feasibleWanted = 1000, 8, 100
	claim := NewClaim(ResourceClaim("one-gpu", Request("gpu", "gpu")))
	return BenchScenario{
		Name:        "gpu-1000nodes-x8",
		ClaimsPerOp: 1,
		Inventory: func() *Inventory {
			inv := &Inventory{Features: LegacyFeatures, Classes: []*resource.DeviceClass{Class("gpu", `device.driver == "gpu.example.com"`)}}
			for n := 0; n < nodes; n++ {
				nn := name("n%04d", n)
				inv.Nodes = append(inv.Nodes, Node(nn, map[string]string{"kubernetes.io/hostname": nn}))
				s := Slice(nn+"-gpu", gpuDriver, nn, gpuDevices(perNode))
				OnNode(s, nn)
				inv.Slices = append(inv.Slices, s)
				used := perNode / 2
				if n%2 == 0 {
					used = perNode
				}
				for d := 0; d < used; d++ {
					inv.Allocated = append(inv.Allocated, allocator.DeviceID{Driver: gpuDriver, Pool: nn, Device: name("gpu%d", d)})
				}
			}
			return inv
		},
		Op: func(ctx context.Context, r Runner, inv *Inventory, i int) (bool, error) {
			if i > 0 && i%1000 == 0 {
				return true, nil // keep the fill level in range
			}
			start := (i * 131) % nodes
			feasible := 0
			var chosen []*resource.AllocationResult
			for k := 0; k < nodes && feasible < feasibleWanted; k++ {
				ok, devices, err := r.Allocate(ctx, inv.Nodes[(start+k)%nodes], []*Claim{claim})
				if err != nil {
					return false, err
				}
				if ok {
					if feasible == 0 {
						chosen = devices
					}
					feasible++
				}
			}
			if feasible == 0 {
				// Operation 1000 asks for a fresh runner long before the
				// free GPUs run out: a claim that fits nowhere is a failure.
				return false, fmt.Errorf("claim %s fits on none of the %d nodes; on the last one: %s", claim.Hub.Name, nodes, describeFailure(failureOf(r)))
			}
			r.Commit(chosen)
			return false, nil
		},
	}
}

// numaClaims: 100 nodes with 64 devices each, 8 per NUMA node, 40% in use
// at random. Each claim asks for 4 devices on one NUMA node
// (matchAttribute) and takes the first node, from a rotating offset, where
// that fits.
func numaClaims() BenchScenario {
	const nodes, perNode = 100, 64
	claim := NewClaim(MatchAttribute(ResourceClaim("numa4", Request("gpus", "gpu", Count(4))), gpuDriver+"/numa"))
	return BenchScenario{
		Name:        "numa-100nodes-x64",
		ClaimsPerOp: 1,
		Inventory: func() *Inventory {
			rng := rand.New(rand.NewSource(1))
			inv := &Inventory{Features: LegacyFeatures, Classes: []*resource.DeviceClass{Class("gpu", `device.driver == "gpu.example.com"`)}}
			for n := 0; n < nodes; n++ {
				nn := name("n%03d", n)
				inv.Nodes = append(inv.Nodes, Node(nn, nil))
				s := Slice(nn+"-gpu", gpuDriver, nn, gpuDevices(perNode))
				OnNode(s, nn)
				inv.Slices = append(inv.Slices, s)
				for d := 0; d < perNode; d++ {
					if rng.Intn(100) < 40 {
						inv.Allocated = append(inv.Allocated, allocator.DeviceID{Driver: gpuDriver, Pool: nn, Device: name("gpu%d", d)})
					}
				}
			}
			return inv
		},
		Op: func(ctx context.Context, r Runner, inv *Inventory, i int) (bool, error) {
			if i > 0 && i%400 == 0 {
				return true, nil
			}
			start := (i * 7) % nodes
			for k := 0; k < nodes; k++ {
				ok, devices, err := r.Allocate(ctx, inv.Nodes[(start+k)%nodes], []*Claim{claim})
				if err != nil {
					return false, err
				}
				if ok {
					r.Commit(devices)
					return false, nil
				}
			}
			// Operation 400 asks for a fresh runner before the free
			// devices run out: a claim that fits nowhere is a failure.
			return false, fmt.Errorf("claim %s fits on none of the %d nodes; on the last one: %s", claim.Hub.Name, nodes, describeFailure(failureOf(r)))
		},
	}
}

// networkAll: 10,000 network-attached devices (allNodes slices: 10 pools of
// 8 slices with 125 devices), in racks of 10. Each claim asks for All
// devices of one rack; 50 different racks are asked for in turn.
func networkAll() BenchScenario {
	const racks = 50
	var claims []*Claim
	for r := 0; r < racks; r++ {
		claims = append(claims, NewClaim(ResourceClaim(name("rack%d", r),
			Request("nics", "net", All(), Select(fmt.Sprintf(`device.attributes["net.example.com"].rack == %d`, r))))))
	}
	node := Node("n0", nil)
	return BenchScenario{
		Name:        "network-10000-all",
		ClaimsPerOp: 1,
		Inventory: func() *Inventory {
			inv := &Inventory{Features: LegacyFeatures, Classes: []*resource.DeviceClass{Class("net", `device.driver == "net.example.com"`)}, Nodes: []*corev1.Node{node}}
			idx := 0
			for p := 0; p < 10; p++ {
				for s := 0; s < 8; s++ {
					var devices []resource.Device
					for d := 0; d < 125; d++ {
						devices = append(devices, Device(name("nic%05d", idx), IntAttr("rack", int64(idx/10)), IntAttr("index", int64(idx))))
						idx++
					}
					sl := Slice(name("net-p%d-s%d", p, s), netDriver, name("p%d", p), devices)
					OnAllNodes(sl)
					sl.Spec.Pool.ResourceSliceCount = 8
					inv.Slices = append(inv.Slices, sl)
				}
			}
			return inv
		},
		Warm: func(ctx context.Context, r Runner, inv *Inventory) error {
			for _, c := range claims {
				if ok, _, err := r.Allocate(ctx, node, []*Claim{c}); err != nil || !ok {
					return fmt.Errorf("warm-up of %s: ok=%v err=%v", c.Hub.Name, ok, err)
				}
			}
			return nil
		},
		Op: func(ctx context.Context, r Runner, inv *Inventory, i int) (bool, error) {
			ok, devices, err := r.Allocate(ctx, node, []*Claim{claims[i%racks]})
			if err != nil {
				return false, err
			}
			if !ok || len(devices[0].Devices.Results) != 10 {
				return false, fmt.Errorf("rack claim: ok=%v devices=%v", ok, devices)
			}
			return false, nil
		},
	}
}

// celHeavy: 512 devices on one node with rich attributes; a class and two
// requests whose selectors use semver, quantity, strings, regular
// expressions and cel.bind.
func celHeavy() BenchScenario {
	class := Class("fast-gpu",
		`device.driver == "gpu.example.com"`,
		`device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.2.0"))`,
		`device.capacity["gpu.example.com"].memory.compareTo(quantity("16Gi")) > 0`,
	)
	claim := NewClaim(ResourceClaim("cel",
		Request("train", "fast-gpu", Count(2),
			Select(`cel.bind(a, device.attributes["gpu.example.com"], a.model.startsWith("h") && a.cores >= 64 && a.healthy)`),
			Select(`device.attributes["gpu.example.com"].uuid.matches("^gpu-[0-9a-f]+7$")`)),
		Request("infer", "fast-gpu", Count(2),
			Select(`cel.bind(a, device.attributes["gpu.example.com"], a.model in ["a100", "l40"] && a.driverVersion.major() == 1 && a.driverVersion.minor() >= 5)`),
			Select(`device.capacity["gpu.example.com"].memory.isLessThan(quantity("60Gi")) || device.attributes["gpu.example.com"].cores > 100`)),
	))
	node := Node("n0", nil)
	models := []string{"a100", "h100", "l40", "h200"}
	mem := []string{"16Gi", "40Gi", "80Gi", "141Gi"}
	return BenchScenario{
		Name:        "cel-heavy-512",
		ClaimsPerOp: 1,
		Inventory: func() *Inventory {
			inv := &Inventory{Features: LegacyFeatures, Classes: []*resource.DeviceClass{class}, Nodes: []*corev1.Node{node}}
			idx := 0
			for s := 0; s < 4; s++ {
				var devices []resource.Device
				for d := 0; d < 128; d++ {
					devices = append(devices, Device(name("gpu%03d", idx),
						StringAttr("model", models[idx%4]), VersionAttr("driverVersion", name("1.%d.%d", idx%9, idx%3)),
						IntAttr("cores", int64(32*(1+idx%5))), BoolAttr("healthy", idx%7 != 0), StringAttr("uuid", name("gpu-%x", 1000+idx)),
						Capacity("memory", mem[(idx/4)%4])))
					idx++
				}
				sl := Slice(name("n0-gpu-%d", s), gpuDriver, "n0", devices)
				OnNode(sl, "n0")
				sl.Spec.Pool.ResourceSliceCount = 4
				inv.Slices = append(inv.Slices, sl)
			}
			return inv
		},
		Op: func(ctx context.Context, r Runner, inv *Inventory, i int) (bool, error) {
			ok, _, err := r.Allocate(ctx, node, []*Claim{claim})
			if err != nil {
				return false, err
			}
			if !ok {
				return false, fmt.Errorf("cel-heavy claim not allocated")
			}
			return false, nil
		},
	}
}

// impossibleCount: n devices on one node; the claim asks for one more
// device than are free (at most 32 can be asked for, so beyond 31 free
// devices the rest are in use).
func impossibleCount(n int) BenchScenario {
	free := n
	if free > 31 {
		free = 31
	}
	claim := NewClaim(ResourceClaim("too-many", Request("gpus", "gpu", Count(int64(free+1)))))
	node := Node("n0", nil)
	return BenchScenario{
		Name:        name("impossible-count-%d", n),
		ClaimsPerOp: 1,
		Impossible:  true,
		Inventory: func() *Inventory {
			inv := &Inventory{Features: LegacyFeatures, Classes: []*resource.DeviceClass{Class("gpu", `device.driver == "gpu.example.com"`)}, Nodes: []*corev1.Node{node}}
			devices := gpuDevices(n)
			slices := (n + 127) / 128
			for s := 0; s < slices; s++ {
				end := (s + 1) * 128
				if end > n {
					end = n
				}
				sl := Slice(name("n0-gpu-%d", s), gpuDriver, "n0", devices[s*128:end])
				OnNode(sl, "n0")
				sl.Spec.Pool.ResourceSliceCount = int64(slices)
				inv.Slices = append(inv.Slices, sl)
			}
			for d := free; d < n; d++ {
				inv.Allocated = append(inv.Allocated, allocator.DeviceID{Driver: gpuDriver, Pool: "n0", Device: name("gpu%d", d)})
			}
			return inv
		},
		Op: expectImpossible(node, claim),
	}
}

// impossibleMatchAttribute: 64 devices on one node in two groups of 32; one
// request takes 16 from the left group, another 16 from the right, and a
// matchAttribute on the group makes that impossible.
func impossibleMatchAttribute() BenchScenario {
	claim := NewClaim(MatchAttribute(ResourceClaim("split",
		Request("left", "left", Count(16)), Request("right", "right", Count(16))), gpuDriver+"/group"))
	node := Node("n0", nil)
	return BenchScenario{
		Name:        "impossible-matchattribute-64",
		ClaimsPerOp: 1,
		Impossible:  true,
		Inventory: func() *Inventory {
			inv := &Inventory{Features: LegacyFeatures, Nodes: []*corev1.Node{node}, Classes: []*resource.DeviceClass{
				Class("left", `device.driver == "gpu.example.com"`, `device.attributes["gpu.example.com"].index < 32`),
				Class("right", `device.driver == "gpu.example.com"`, `device.attributes["gpu.example.com"].index >= 32`),
			}}
			var devices []resource.Device
			for i := 0; i < 64; i++ {
				group := "x"
				if i >= 32 {
					group = "y"
				}
				devices = append(devices, Device(name("gpu%d", i), IntAttr("index", int64(i)), StringAttr("group", group)))
			}
			sl := Slice("n0-gpu", gpuDriver, "n0", devices)
			OnNode(sl, "n0")
			inv.Slices = append(inv.Slices, sl)
			return inv
		},
		Op: expectImpossible(node, claim),
	}
}

func expectImpossible(node *corev1.Node, claim *Claim) func(context.Context, Runner, *Inventory, int) (bool, error) {
	return func(ctx context.Context, r Runner, inv *Inventory, i int) (bool, error) {
		ok, _, err := r.Allocate(ctx, node, []*Claim{claim})
		if err != nil {
			return false, err
		}
		if ok {
			return false, fmt.Errorf("impossible claim %s was allocated", claim.Hub.Name)
		}
		return false, nil
	}
}
