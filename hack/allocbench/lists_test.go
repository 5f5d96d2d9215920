package allocbench

import (
	"math/rand"
	"strings"
	"testing"

	"k8s.io/dynamic-resource-allocation/cel"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// TestDifferentialLists compares drakit with upstream's experimental
// implementation on constraints over list-typed attributes
// (ListTypeAttributes), where TestDifferential rarely gets to compare the
// devices chosen: here the node sees one pool, so upstream's choice is
// deterministic and every allocation is compared device by device. Values
// are lists of small numbers with elements in common, single numbers, and
// lists of strings (which equal no number); the claims' requests are under
// matchAttribute or distinctAttribute constraints, whose set semantics
// (a common element; pairwise disjoint) decide which devices fit, and
// in which order upstream's search finds them. Some claims' requests derive
// the attribute instead (DerivedAttributes).
//
// ALLOCBENCH_DIFF_SCENARIOS sets the number of scenarios (default 2000,
// 200 with -short), ALLOCBENCH_DIFF_SEED the first seed (default 1).
func TestDifferentialLists(t *testing.T) {
	counts, n := compareGenerated(t, generateLists)
	if n >= 100 {
		same, unsatisfiable := 0, 0
		for k, v := range counts {
			switch {
			case strings.Contains(k, "same-devices"):
				same += v
			case strings.Contains(k, "agree-unsatisfiable"):
				unsatisfiable += v
			}
		}
		// Most scenarios must be compared device by device, and some
		// must fail.
		if same < n/4 || unsatisfiable == 0 {
			t.Errorf("the generator does not cover both outcomes: %v", counts)
		}
	}
}

// compareGenerated compares drakit with upstream's experimental
// implementation on ALLOCBENCH_DIFF_SCENARIOS scenarios (default 2000, 200
// with -short) that generate makes from the seeds ALLOCBENCH_DIFF_SEED
// (default 1) on, and counts the outcomes; it returns the counts and the
// number of scenarios.
func compareGenerated(t *testing.T, generate func(*rand.Rand) *diffScenario) (map[string]int, int) {
	t.Helper()
	n := envInt("ALLOCBENCH_DIFF_SCENARIOS", 2000)
	seed := int64(envInt("ALLOCBENCH_DIFF_SEED", 1))
	if testing.Short() {
		n = 200
	}
	counts := map[string]int{}
	var cache *cel.Cache
	for i := 0; i < n; i++ {
		s := seed + int64(i)
		sc := generate(rand.New(rand.NewSource(s)))
		if cache == nil {
			cache = newCELCache(sc.inv.Features)
		}
		outcome, err := compare(sc, "experimental", cache)
		if err != nil {
			t.Errorf("seed %d: %v", s, err)
			continue
		}
		counts[outcome]++
	}
	for k, v := range counts {
		t.Logf("%-40s %d", k, v)
	}
	return counts, n
}

// derivedLinks are expressions of derived attributes that generateLists
// gives requests in place of the devices' "links": numbers, lists, and one
// that fails on devices without links.
var derivedLinks = []string{
	`device.attributes["gpu.example.com"].n % 3`,
	`device.attributes["gpu.example.com"].n / 2`,
	`[0, 1].map(i, device.attributes["gpu.example.com"].n % 4 + i)`,
	`[device.attributes["gpu.example.com"].n % 2, 7]`,
	`device.attributes["gpu.example.com"].links`,
}

// generateLists makes a scenario of TestDifferentialLists: one node, one
// pool of 3 to 10 GPUs with an attribute "links" (some in use, some
// without it), and one or two claims of one or two requests with one
// (sometimes two) constraints on it.
func generateLists(rng *rand.Rand) *diffScenario {
	f := allocator.DefaultFeatures()
	f.ListTypeAttributes, f.DerivedAttributes = true, true
	sc := &diffScenario{inv: &Inventory{Features: f}}
	sc.node = Node("n0", nil)
	sc.inv.Nodes = append(sc.inv.Nodes, sc.node)
	sc.inv.Classes = append(sc.inv.Classes, Class("any"))
	var devices []resource.Device
	for i, n := 0, 3+rng.Intn(8); i < n; i++ {
		d := Device(name("gpu%d", i), IntAttr("n", int64(i)))
		a, ok := randomLinks(rng)
		if !ok {
			devices = append(devices, d) // without it
			continue
		}
		d.Attributes["links"] = a
		devices = append(devices, d)
	}
	s := OnNode(Slice("pool0", gpuDriver, "pool0", devices), "n0")
	sc.inv.Slices = append(sc.inv.Slices, s)
	for _, d := range devices {
		if rng.Intn(8) == 0 {
			sc.inv.Allocated = append(sc.inv.Allocated, allocator.DeviceID{Driver: gpuDriver, Pool: "pool0", Device: d.Name})
		}
	}
	for c, nc := 0, 1+rng.Intn(2); c < nc; c++ {
		var reqs []resource.DeviceRequest
		for r, nr := 0, 1+rng.Intn(2); r < nr; r++ {
			if rng.Intn(10) == 0 {
				reqs = append(reqs, Request(name("r%d", r), "any", All()))
			} else {
				reqs = append(reqs, Request(name("r%d", r), "any", Count(int64(1+rng.Intn(3)))))
			}
		}
		if rng.Intn(3) == 0 {
			// The requests derive the attribute (some of them).
			expr := derivedLinks[rng.Intn(len(derivedLinks))]
			for i := range reqs {
				if rng.Intn(4) != 0 {
					reqs[i].Exactly.DerivedAttributes = []resource.DeviceDerivedAttribute{{Name: "gpu.example.com/links", Expression: expr}}
				}
			}
		}
		claim := ResourceClaim(name("claim%d", c), reqs...)
		for k, nk := 0, 1+rng.Intn(3)/2; k < nk; k++ {
			var on []string
			if len(reqs) > 1 && rng.Intn(3) == 0 {
				on = []string{reqs[rng.Intn(len(reqs))].Name}
			}
			if rng.Intn(2) == 0 {
				MatchAttribute(claim, "gpu.example.com/links", on...)
			} else {
				DistinctAttribute(claim, "gpu.example.com/links", on...)
			}
		}
		sc.claims = append(sc.claims, claim)
	}
	return sc
}

// TestDifferentialCompat compares drakit with upstream's experimental
// implementation on compatibility groups (CompatibilityGroups), device by
// device: one node sees one pool of partitions that consume a counter set
// and name compatibility groups (or none); some are allocated before the
// call (all naming group "a", so that the order in which they are folded
// in does not matter). Same variables as TestDifferentialLists.
func TestDifferentialCompat(t *testing.T) {
	counts, n := compareGenerated(t, generateCompat)
	if n >= 100 && (counts["agree-allocated/same-devices"] < n/4 || counts["agree-unsatisfiable"] == 0) {
		t.Errorf("the generator does not cover both outcomes: %v", counts)
	}
}

// generateCompat makes a scenario of TestDifferentialCompat.
func generateCompat(rng *rand.Rand) *diffScenario {
	f := allocator.DefaultFeatures()
	f.CompatibilityGroups = true
	sc := &diffScenario{inv: &Inventory{Features: f}}
	sc.node = Node("n0", nil)
	sc.inv.Nodes = append(sc.inv.Nodes, sc.node)
	sc.inv.Classes = append(sc.inv.Classes, Class("any"))
	counters := CounterSlice("counters", gpuDriver, "pool0", "n0", Counters("mem", "memory", name("%d", 4+rng.Intn(5))))
	counters.Spec.Pool.ResourceSliceCount = 2
	var devices []resource.Device
	for i, n := 0, 3+rng.Intn(6); i < n; i++ {
		d := Consumes(Device(name("part%d", i)), "mem", "memory", name("%d", 1+rng.Intn(2)))
		d.ConsumesCounters[0].CompatibilityGroups = randomGroups(rng)
		if rng.Intn(8) == 0 {
			d.ConsumesCounters[0].CompatibilityGroups = []string{"a", []string{"b", "c"}[rng.Intn(2)]}
			sc.inv.Allocated = append(sc.inv.Allocated, allocator.DeviceID{Driver: gpuDriver, Pool: "pool0", Device: d.Name})
		}
		devices = append(devices, d)
	}
	s := OnNode(Slice("parts", gpuDriver, "pool0", devices), "n0")
	s.Spec.Pool.ResourceSliceCount = 2
	sc.inv.Slices = append(sc.inv.Slices, counters, s)
	for c, nc := 0, 1+rng.Intn(2); c < nc; c++ {
		var reqs []resource.DeviceRequest
		for r, nr := 0, 1+rng.Intn(2); r < nr; r++ {
			reqs = append(reqs, Request(name("r%d", r), "any", Count(int64(1+rng.Intn(3)))))
		}
		sc.claims = append(sc.claims, ResourceClaim(name("claim%d", c), reqs...))
	}
	return sc
}
