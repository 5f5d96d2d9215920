package allocbench

import (
	"math/rand"

	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// The random scenarios of the differential test. Scenario s is
// generate(rand.New(rand.NewSource(s))): a seed names one scenario for good,
// as long as this generator does not change (it is the one written for
// v0.33.13, building v1-shaped hub objects since the hub has v1's shape: it
// draws the same numbers and builds the same scenarios, except that the
// device it once wrote without `basic`, one in twenty, is now a device
// without attributes; see randomDevices); enrichWithFeatures then layers the 1.32+
// features on it with further draws.

// diffScenario is one random scenario.
type diffScenario struct {
	inv    *Inventory
	node   *corev1.Node
	claims []*resource.ResourceClaim
}

// describe is the scenario for a failure message, in hub form (the
// objects from which both drakit's and upstream's inputs are made).
func (sc *diffScenario) describe() map[string]any {
	return map[string]any{"features": sc.inv.Features, "node": sc.node, "classes": sc.inv.Classes, "slices": sc.inv.Slices, "taintRules": sc.inv.TaintRules,
		"allocated": sc.inv.Allocated, "allocatedClaims": sc.inv.AllocatedClaims, "claims": sc.claims}
}

var (
	drivers = []string{"gpu.example.com", "net.example.com"}
	models  = []string{"a", "b", "c"}
	// Selectors that are safe on every device with the generator's
	// attributes (driver-guarded or generic). On a device without
	// attributes (randomDevices), those that read an attribute fail, in
	// drakit and upstream alike.
	safeSelectors = []string{
		`device.driver == "gpu.example.com"`,
		`device.driver == "net.example.com"`,
		`device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].numa == 1`,
		`device.driver != "gpu.example.com" || !("model" in device.attributes["gpu.example.com"]) || device.attributes["gpu.example.com"].model != "a"`,
		`"model" in device.attributes[device.driver] && device.attributes[device.driver].model == "b"`,
		`device.driver == "net.example.com" && device.capacity["net.example.com"].bandwidth.compareTo(quantity("10G")) > 0`,
		`cel.bind(a, device.attributes[device.driver], a.index % 2 == 0)`,
		`device.attributes[device.driver].version.isGreaterThan(semver("1.1.0"))`,
		`device.attributes["other.example.com"].size() == 0`,
		`true`,
	}
	// Selectors that fail on some devices (an attribute of the other driver).
	failingSelectors = []string{
		`device.attributes["gpu.example.com"].numa >= 0`,
		`device.capacity["net.example.com"].bandwidth.isGreaterThan(quantity("1"))`,
	}
)

func generate(rng *rand.Rand) *diffScenario {
	sc := &diffScenario{inv: &Inventory{Features: LegacyFeatures}}
	zones := []string{"a", "b"}
	nodes := 1 + rng.Intn(3)
	for i := 0; i < nodes; i++ {
		sc.inv.Nodes = append(sc.inv.Nodes, Node(name("n%d", i), map[string]string{"zone": zones[rng.Intn(2)]}))
	}
	sc.node = sc.inv.Nodes[rng.Intn(nodes)]

	// Classes.
	sc.inv.Classes = append(sc.inv.Classes, Class("any"))
	for i := 0; i < 3; i++ {
		var sels []string
		for k := rng.Intn(2); k > 0; k-- {
			sels = append(sels, safeSelectors[rng.Intn(len(safeSelectors))])
		}
		c := Class(name("c%d", i), sels...)
		if rng.Intn(4) == 0 {
			c.Spec.Config = append(c.Spec.Config, resource.DeviceClassConfiguration{DeviceConfiguration: resource.DeviceConfiguration{Opaque: &resource.OpaqueDeviceConfiguration{Driver: drivers[0]}}})
			c.Spec.Config[0].Opaque.Parameters.Raw = []byte(`{"x":1}`)
		}
		sc.inv.Classes = append(sc.inv.Classes, c)
	}

	// Pools: node-local, by zone, everywhere.
	devIndex := 0
	pools := 1 + rng.Intn(4)
	for p := 0; p < pools; p++ {
		driver := drivers[rng.Intn(len(drivers))]
		poolName := name("pool%d", p)
		where := rng.Intn(3)
		onNode := sc.node.Name
		if rng.Intn(3) == 0 {
			onNode = sc.inv.Nodes[rng.Intn(nodes)].Name
		}
		zone := zones[rng.Intn(2)]
		gen := int64(rng.Intn(2))
		sliceCount := 1 + rng.Intn(2)
		published := sliceCount
		if rng.Intn(12) == 0 {
			published-- // incomplete pool
		}
		mk := func(sliceName string, g int64, devices []resource.Device) {
			s := Slice(sliceName, driver, poolName, devices)
			s.Spec.Pool.Generation = g
			s.Spec.Pool.ResourceSliceCount = int64(sliceCount)
			switch where {
			case 0:
				OnNode(s, onNode)
			case 1:
				s.Spec.NodeSelector = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{zone}}}}}}
			default:
				OnAllNodes(s)
			}
			sc.inv.Slices = append(sc.inv.Slices, s)
		}
		if gen > 0 && rng.Intn(2) == 0 {
			// A leftover slice of the previous generation.
			mk(name("%s-old", poolName), gen-1, randomDevices(rng, driver, &devIndex, 1+rng.Intn(3)))
		}
		for s := 0; s < published; s++ {
			mk(name("%s-s%d", poolName, s), gen, randomDevices(rng, driver, &devIndex, 1+rng.Intn(5)))
		}
	}
	// Devices already in use.
	for _, s := range sc.inv.Slices {
		for _, d := range s.Spec.Devices {
			if rng.Intn(6) == 0 {
				sc.inv.Allocated = append(sc.inv.Allocated, allocator.DeviceID{Driver: s.Spec.Driver, Pool: s.Spec.Pool.Name, Device: d.Name})
			}
		}
	}

	// Claims, kept small: upstream's search is exponential in the number of
	// devices requested.
	budget := 4
	nclaims := 1 + rng.Intn(3)
	for c := 0; c < nclaims && budget > 0; c++ {
		claim := ResourceClaim(name("claim%d", c))
		nreq := 1 + rng.Intn(3)
		for r := 0; r < nreq && budget > 0; r++ {
			class := sc.inv.Classes[rng.Intn(len(sc.inv.Classes))].Name
			var opts []RequestOpt
			if rng.Intn(5) == 0 {
				opts = append(opts, All())
			} else {
				n := 1 + rng.Intn(2)
				if n > budget {
					n = budget
				}
				budget -= n
				opts = append(opts, Count(int64(n)))
			}
			if rng.Intn(8) == 0 {
				opts = append(opts, Admin())
			}
			if rng.Intn(3) == 0 {
				opts = append(opts, Select(safeSelectors[rng.Intn(len(safeSelectors))]))
			}
			if rng.Intn(25) == 0 {
				opts = append(opts, Select(failingSelectors[rng.Intn(len(failingSelectors))]))
			}
			claim.Spec.Devices.Requests = append(claim.Spec.Devices.Requests, Request(name("r%d", r), class, opts...))
		}
		if rng.Intn(3) == 0 && len(claim.Spec.Devices.Requests) > 0 {
			attr := []string{"gpu.example.com/numa", "net.example.com/numa", "gpu.example.com/model"}[rng.Intn(3)]
			var reqs []string
			if rng.Intn(2) == 0 {
				for _, r := range claim.Spec.Devices.Requests {
					if rng.Intn(2) == 0 {
						reqs = append(reqs, r.Name)
					}
				}
			}
			MatchAttribute(claim, attr, reqs...)
		}
		if rng.Intn(4) == 0 {
			claim.Spec.Devices.Config = append(claim.Spec.Devices.Config, resource.DeviceClaimConfiguration{
				DeviceConfiguration: resource.DeviceConfiguration{Opaque: &resource.OpaqueDeviceConfiguration{Driver: drivers[1]}}})
			claim.Spec.Devices.Config[0].Opaque.Parameters.Raw = []byte(`{"y":2}`)
		}
		sc.claims = append(sc.claims, claim)
	}
	enrichWithFeatures(rng, sc)
	return sc
}

func randomDevices(rng *rand.Rand, driver string, next *int, n int) []resource.Device {
	var out []resource.Device
	for i := 0; i < n; i++ {
		idx := *next
		*next++
		if rng.Intn(20) == 0 {
			// Written for 1.31 as a device without `basic`, which 1.31
			// could not select; the hub reads such a device as one without
			// attributes (v1's flat device), which both allocators select.
			out = append(out, Device(name("dev%d", idx)))
			continue
		}
		attrs := []Entry{
			IntAttr("numa", int64(rng.Intn(2))),
			IntAttr("index", int64(idx)),
			VersionAttr("version", name("1.%d.0", rng.Intn(3))),
		}
		if rng.Intn(4) != 0 {
			attrs = append(attrs, StringAttr("model", models[rng.Intn(len(models))]))
		}
		if driver == netDriver {
			attrs = append(attrs, Capacity("bandwidth", []string{"1G", "10G", "100G"}[rng.Intn(3)]))
		}
		out = append(out, Device(name("dev%d", idx), attrs...))
	}
	return out
}
