package allocbench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1beta1"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/allocator/verify"
	"github.com/drakit/drakit/apis/resource"
)

// The differential test generates random inventories and claims, allocates
// the claims together (as for one pod) with both allocators, and requires
//
//   - every drakit allocation to be valid, as judged by allocator/verify,
//     which evaluates selectors and recounts everything itself;
//   - both allocators to agree on whether the claims can be allocated,
//     except where upstream (v0.33.13) is known to deviate from the
//     semantics drakit implements. Each allowed difference is listed in
//     knownDifferences with its reason and is only accepted when the
//     scenario shows the condition that explains it.
//
// ALLOCBENCH_DIFF_SCENARIOS sets the number of scenarios (default 3000),
// ALLOCBENCH_DIFF_SEED the first seed; ALLOCBENCH_DIFF_REASONS=1 breaks the
// agreed failures down by drakit's reason.

// knownDifferences are the upstream defects that make the two disagree.
var knownDifferences = map[string]string{
	"cel-error": "upstream evaluates selectors lazily, in random pool order, and aborts the whole " +
		"Allocate call (every claim) on the first CEL runtime error it meets; drakit evaluates every " +
		"device the node reaches and fails only the claim whose selector failed, naming expression and " +
		"device. Whether upstream meets the failing device depends on map order.",
	"all-constraint-abort": "upstream aborts with an error when a device of an All request breaks a " +
		"matchAttribute constraint (\"cannot add device ... constraint would not be satisfied\") instead " +
		"of backtracking into earlier requests; drakit backtracks.",
	"all-no-undo": "when upstream allocates the devices of an All request one by one and meets one " +
		"that an earlier request took, it returns without releasing the devices it already added for " +
		"the All request (the undo function is dropped), so every later attempt finds them taken and a " +
		"valid choice of the earlier requests is refused; drakit reserves All devices up front.",
	"all-empty": "Kubernetes 1.31 allocates nothing, successfully, for an All request that no device " +
		"matches; upstream v0.33 treats it as unsatisfiable. drakit implements 1.31.",
	"admin-duplicates": "upstream may hand the same device to an adminAccess request more than once " +
		"(it skips the in-use check for admin requests, including for devices the request itself " +
		"already got), so it satisfies counts larger than the matching devices; drakit gives distinct devices.",
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

func TestDifferential(t *testing.T) {
	n := envInt("ALLOCBENCH_DIFF_SCENARIOS", 3000)
	seed := int64(envInt("ALLOCBENCH_DIFF_SEED", 1))
	if testing.Short() {
		n = 300
	}
	counts := map[string]int{}
	cache := cel.NewCache(1000)
	for i := 0; i < n; i++ {
		s := seed + int64(i)
		sc := generate(rand.New(rand.NewSource(s)))
		outcome, err := compare(sc, cache)
		if err != nil {
			dump, _ := json.MarshalIndent(sc.describe(), "", "  ")
			t.Fatalf("seed %d: %v\nscenario:\n%s", s, err, dump)
		}
		counts[outcome]++
	}
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%-28s %d", k, counts[k])
	}
	unsatisfiable := 0
	for k, v := range counts {
		if strings.HasPrefix(k, "agree-unsatisfiable") {
			unsatisfiable += v
		}
	}
	if counts["agree-allocated"] == 0 || unsatisfiable == 0 {
		t.Errorf("the generator does not cover both outcomes: %v", counts)
	}
}

// diffScenario is one random scenario.
type diffScenario struct {
	inv    *Inventory
	node   *corev1.Node
	claims []*resource.ResourceClaim
}

func (sc *diffScenario) describe() map[string]any {
	up := toUpstream(sc.inv.Classes, sc.inv.Slices, nil)
	var classes []*resourceapi.DeviceClass
	for _, c := range up.classes {
		classes = append(classes, c)
	}
	sort.Slice(classes, func(i, j int) bool { return classes[i].Name < classes[j].Name })
	var claims []*resourceapi.ResourceClaim
	for _, c := range sc.claims {
		claims = append(claims, toV1beta1Claim(c))
	}
	return map[string]any{"node": sc.node, "classes": classes, "slices": up.slices, "allocated": sc.inv.Allocated, "claims": claims}
}

var (
	drivers = []string{"gpu.example.com", "net.example.com"}
	models  = []string{"a", "b", "c"}
	// Selectors that are safe on every device (driver-guarded or generic).
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
	sc := &diffScenario{inv: &Inventory{}}
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
				s.Spec.NodeName = onNode
			case 1:
				s.Spec.NodeSelector = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{zone}}}}}}
			default:
				s.Spec.AllNodes = true
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
	return sc
}

func randomDevices(rng *rand.Rand, driver string, next *int, n int) []resource.Device {
	var out []resource.Device
	for i := 0; i < n; i++ {
		idx := *next
		*next++
		if rng.Intn(20) == 0 {
			out = append(out, resource.Device{Name: name("dev%d", idx)}) // no basic description
			continue
		}
		attrs := []resource.DeviceAttribute{
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

// compare runs both allocators and classifies the outcome; an error is a
// disagreement that no known difference explains, or an invalid result.
func compare(sc *diffScenario, cache *cel.Cache) (string, error) {
	ctx := context.Background()
	a, err := allocator.New(allocator.Options{Classes: sc.inv.Classes, Slices: sc.inv.Slices, AllocatedDevices: sc.inv.Allocated, Node: sc.node})
	if err != nil {
		return "", err
	}
	results, err := a.Allocate(ctx, sc.claims)
	if err != nil {
		return "", err
	}
	okD := true
	var drakitErr error
	for _, r := range results {
		if r.Err != nil {
			okD = false
			if drakitErr == nil || !allocator.IsReason(r.Err, allocator.ReasonOtherClaimFailed) {
				drakitErr = r.Err
			}
		}
	}
	if okD {
		inv := &verify.Inventory{Classes: sc.inv.Classes, Slices: sc.inv.Slices, Node: sc.node, InUse: map[verify.DeviceID]bool{}}
		for _, id := range sc.inv.Allocated {
			inv.InUse[verify.DeviceID(id)] = true
		}
		checker := verify.NewChecker(inv)
		for i, r := range results {
			if errs := checker.Check(sc.claims[i], r.Allocation); len(errs) > 0 {
				return "", fmt.Errorf("drakit result for %s is invalid: %v", sc.claims[i].Name, errs)
			}
		}
	}

	up := toUpstream(sc.inv.Classes, sc.inv.Slices, sc.inv.Allocated)
	var upClaims []*resourceapi.ResourceClaim
	for _, c := range sc.claims {
		upClaims = append(upClaims, toV1beta1Claim(c))
	}
	ua, err := structured.NewAllocator(ctx, upstreamFeatures, upClaims, up.allocated, up.classes, up.slices, cache)
	if err != nil {
		return "", err
	}
	upResults, upErr := ua.Allocate(ctx, sc.node)
	okU := upErr == nil && upResults != nil

	switch {
	case okD && okU:
		return "agree-allocated", nil
	case !okD && !okU:
		if os.Getenv("ALLOCBENCH_DIFF_REASONS") != "" {
			var ce *allocator.ClaimError
			if errors.As(drakitErr, &ce) {
				return "agree-unsatisfiable/" + string(ce.Reason), nil
			}
		}
		return "agree-unsatisfiable", nil
	}
	// Disagreement: find the known difference that explains it.
	upMsg := ""
	if upErr != nil {
		upMsg = upErr.Error()
	}
	switch {
	case strings.Contains(upMsg, "CEL runtime error") || allocator.IsReason(drakitErr, allocator.ReasonCELRuntimeError):
		return "known:cel-error", nil
	case strings.Contains(upMsg, "constraint would not be satisfied"):
		return "known:all-constraint-abort", nil
	case okD && !okU && hasEmptyAll(sc, results):
		return "known:all-empty", nil
	case okD && !okU && hasLateAll(sc):
		return "known:all-no-undo", nil
	case okU && !okD && hasAdminDuplicates(sc, upResults):
		return "known:admin-duplicates", nil
	}
	return "", fmt.Errorf("allocators disagree: drakit ok=%v (%v), upstream ok=%v (err %v, results %v)", okD, drakitErr, okU, upErr, upResults)
}

// hasEmptyAll reports an All request that drakit allocated no device for.
func hasEmptyAll(sc *diffScenario, results []allocator.Result) bool {
	for i, c := range sc.claims {
		for _, r := range c.Spec.Devices.Requests {
			if r.AllocationMode != resource.DeviceAllocationModeAll {
				continue
			}
			n := 0
			for _, d := range results[i].Allocation.Devices.Results {
				if d.Request == r.Name {
					n++
				}
			}
			if n == 0 {
				return true
			}
		}
	}
	return false
}

// hasLateAll reports a non-admin All request after some other non-admin
// request, which upstream may have to backtrack over.
func hasLateAll(sc *diffScenario) bool {
	earlier := false
	for _, c := range sc.claims {
		for _, r := range c.Spec.Devices.Requests {
			if r.AdminAccess {
				continue
			}
			if r.AllocationMode == resource.DeviceAllocationModeAll && earlier {
				return true
			}
			earlier = true
		}
	}
	return false
}

// hasAdminDuplicates reports an upstream result that gives a request the
// same device twice.
func hasAdminDuplicates(sc *diffScenario, results []resourceapi.AllocationResult) bool {
	for _, res := range results {
		seen := map[string]bool{}
		for _, d := range res.Devices.Results {
			k := d.Request + "/" + d.Driver + "/" + d.Pool + "/" + d.Device
			if seen[k] {
				return true
			}
			seen[k] = true
		}
	}
	return false
}

func TestKnownDifferencesAreDocumented(t *testing.T) {
	for k, v := range knownDifferences {
		if len(v) < 40 {
			t.Errorf("known difference %s lacks a reason", k)
		}
	}
}
