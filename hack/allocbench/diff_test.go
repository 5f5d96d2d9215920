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

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/allocator/verify"
	"github.com/drakit/drakit/apis/resource"
)

// The differential test generates random inventories and claims
// (generate_test.go, enrich_test.go), each with the allocator
// features it uses, allocates the claims together, as for one pod, with
// drakit's allocator and with the upstream implementation a 1.37 scheduler
// picks for those features (k8s.io/dynamic-resource-allocation v0.37.2;
// ALLOCBENCH_DIFF_IMPLS=all runs every implementation that supports them),
// both with the same features, and requires
//
//   - every drakit allocation, and every upstream one, to be valid, as
//     judged by allocator/verify, which evaluates selectors and recounts
//     everything (counters, shares, taints, alternatives) itself;
//   - drakit and each implementation to agree on whether the claims can be
//     allocated, and, where upstream's choice does not depend on Go's map
//     order (the node sees one pool), on which devices each request gets;
//   - every disagreement to be one of knownDifferences (known_test.go):
//     rules that changed after 1.31 and upstream's own ways, each with its
//     reason, the condition that explains it, which implementations show
//     it, and an example that TestKnownDifferencesStillOccur runs so that a
//     difference upstream has removed is taken off the list.
//
// The 1.31-era part of each scenario stays as it was for v0.33.13 (built
// as v1-shaped hub objects since the hub has v1's shape, see
// generate_test.go); the 1.32+ features are layered on top with further
// draws of the same random source (enrich_test.go): the differences
// are listed, not generated away. drakit and upstream run every scenario
// with its features (drakit_features.go, upstream_features.go), and both
// results are judged by allocator/verify with the same features.
//
// ALLOCBENCH_DIFF_SCENARIOS sets the number of scenarios (default 3000,
// 300 with -short), ALLOCBENCH_DIFF_SEED the seed of the first one (default
// 1; scenario i has seed ALLOCBENCH_DIFF_SEED+i, and failures name the
// seed). To rerun one scenario:
//
//	ALLOCBENCH_DIFF_SEED=33 ALLOCBENCH_DIFF_SCENARIOS=1 go test -run TestDifferential -v .
//
// ALLOCBENCH_DIFF_REASONS=1 breaks the agreed failures down by drakit's
// reason.
func TestDifferential(t *testing.T) {
	n := envInt("ALLOCBENCH_DIFF_SCENARIOS", 3000)
	seed := int64(envInt("ALLOCBENCH_DIFF_SEED", 1))
	if testing.Short() {
		n = 300
	}
	counts := map[string]int{}
	caches := map[cel.Features]*cel.Cache{}
	var problems []string
	var firstDump []byte
	for i := 0; i < n; i++ {
		s := seed + int64(i)
		sc := generate(rand.New(rand.NewSource(s)))
		impls := SupportingImplementations(sc.inv.Features)
		if os.Getenv("ALLOCBENCH_DIFF_IMPLS") != "all" {
			impl, err := SchedulerImplementation(sc.inv.Features)
			if err != nil {
				t.Fatalf("seed %d: %v", s, err)
			}
			impls = []string{impl}
		}
		cf := UpstreamCELFeatures(sc.inv.Features)
		if caches[cf] == nil {
			caches[cf] = newCELCache(sc.inv.Features)
		}
		for _, impl := range impls {
			outcome, err := compare(sc, impl, caches[cf])
			if err != nil {
				problems = append(problems, fmt.Sprintf("seed %d, %s: %v", s, impl, err))
				if firstDump == nil {
					firstDump, _ = json.MarshalIndent(sc.describe(), "", "  ")
				}
				continue
			}
			counts[impl+" "+outcome]++
		}
	}
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%-56s %d", k, counts[k])
	}
	for i, p := range problems {
		if i == 20 {
			t.Errorf("... and %d more", len(problems)-i)
			break
		}
		t.Error(p)
	}
	if firstDump != nil {
		t.Errorf("the first failing scenario (hub objects):\n%s", firstDump)
	}
	// A handful of scenarios, such as one rerun by its seed, need not
	// cover both outcomes.
	if n >= 100 {
		allocated, unsatisfiable := 0, 0
		for k, v := range counts {
			switch {
			case strings.Contains(k, "agree-allocated"):
				allocated += v
			case strings.Contains(k, "agree-unsatisfiable"):
				unsatisfiable += v
			}
		}
		if allocated == 0 || unsatisfiable == 0 {
			t.Errorf("the generator does not cover both outcomes: %v", counts)
		}
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// diffCase is one scenario run by drakit and one upstream implementation.
type diffCase struct {
	sc   *diffScenario
	impl string

	drakitOK  bool
	drakitErr error // the first failing claim's error (not OtherClaimFailed)
	drakit    []allocator.Result

	upstreamOK  bool
	upstreamErr error
	upstream    []resourceapi.AllocationResult
}

// compare runs drakit and an upstream implementation on a scenario and
// classifies the outcome; an error is an invalid drakit result or a
// disagreement that no known difference explains.
func compare(sc *diffScenario, impl string, cache *cel.Cache) (string, error) {
	ctx := context.Background()
	c := &diffCase{sc: sc, impl: impl, drakitOK: true}
	a, err := allocator.New(drakitOptions(sc.inv, sc.node))
	if err != nil {
		return "", err
	}
	c.drakit, err = a.Allocate(ctx, sc.claims)
	if err != nil {
		return "", err
	}
	for _, r := range c.drakit {
		if r.Err != nil {
			c.drakitOK = false
			if c.drakitErr == nil || !allocator.IsReason(r.Err, allocator.ReasonOtherClaimFailed) {
				c.drakitErr = r.Err
			}
		}
	}
	if c.drakitOK {
		var drakitResults []*resource.AllocationResult
		for _, r := range c.drakit {
			drakitResults = append(drakitResults, r.Allocation)
		}
		if err := sc.check(sc.verifyFeatures(), drakitResults); err != nil {
			return "", fmt.Errorf("drakit result is invalid: %v", err)
		}
	}

	up := toUpstream(sc.inv)
	ua, err := NewUpstreamAllocator(ctx, impl, up, cache)
	if err != nil {
		return "", err
	}
	if got := implementationOf(ua); got != impl {
		return "", fmt.Errorf("asked for upstream implementation %s, got %s", impl, got)
	}
	var upClaims []*resourceapi.ResourceClaim
	for _, cl := range sc.claims {
		upClaims = append(upClaims, toV1Claim(cl))
	}
	c.upstream, c.upstreamErr = ua.Allocate(ctx, sc.node, upClaims)
	c.upstreamOK = c.upstreamErr == nil && c.upstream != nil
	if c.upstreamOK {
		var upResults []*resource.AllocationResult
		for i := range c.upstream {
			upResults = append(upResults, fromV1Allocation(&c.upstream[i]))
		}
		if err := sc.check(sc.verifyFeatures(), upResults); err != nil {
			return "", fmt.Errorf("upstream %s's result is invalid (a bug of upstream or of allocator/verify): %v", impl, err)
		}
	}

	switch {
	case c.drakitOK && c.upstreamOK:
		if !c.upstreamDeterministic() {
			return "agree-allocated", nil
		}
		if c.deviceDifference() == "" {
			return "agree-allocated/same-devices", nil
		}
	case !c.drakitOK && !c.upstreamOK:
		if os.Getenv("ALLOCBENCH_DIFF_REASONS") != "" {
			var ce *allocator.ClaimError
			if errors.As(c.drakitErr, &ce) {
				return "agree-unsatisfiable/" + string(ce.Reason), nil
			}
		}
		return "agree-unsatisfiable", nil
	}
	// A difference: find the known difference that explains it.
	for _, k := range knownDifferences {
		if k.explains(c) {
			if !contains(k.impls, impl) {
				return "", fmt.Errorf("known difference %s, listed for %v only: %s", k.name, k.impls, c.summary())
			}
			return "known:" + k.name, nil
		}
	}
	return "", fmt.Errorf("unlisted difference: %s", c.summary())
}

// verifyFeatures are the scenario's features as allocator/verify's
// switches. PrioritizedList and ListTypeAttributes are passed on too: with
// any switch on, verify judges selectors in the 1.37 environment (list
// attributes only with ListTypeAttributes), as both allocators evaluate
// them.
func (sc *diffScenario) verifyFeatures() verify.Features {
	f := sc.inv.Features
	return verify.Features{AdminAccess: f.AdminAccess, DeviceTaints: f.DeviceTaints, PartitionableDevices: f.PartitionableDevices,
		ConsumableCapacity: f.ConsumableCapacity, DeviceBindingAndStatus: f.DeviceBindingAndStatus,
		PrioritizedList: f.PrioritizedList, ListTypeAttributes: f.ListTypeAttributes, DerivedAttributes: f.DerivedAttributes,
		CompatibilityGroups: f.CompatibilityGroups}
}

// check verifies the allocations of the scenario's claims, one per claim,
// made in one call.
func (sc *diffScenario) check(f verify.Features, results []*resource.AllocationResult) error {
	inv := &verify.Inventory{Classes: sc.inv.Classes, Slices: sc.inv.Slices, Node: sc.node, InUse: map[verify.DeviceID]bool{}, Features: f}
	if sc.inv.Features.DeviceTaintRules && f.DeviceTaints {
		inv.TaintRules = sc.inv.TaintRules
	}
	for _, id := range sc.inv.Allocated {
		inv.InUse[verify.DeviceID(id)] = true
	}
	for _, cl := range sc.inv.AllocatedClaims {
		inv.Allocations = append(inv.Allocations, cl.Status.Allocation)
	}
	checker := verify.NewChecker(inv)
	for i, r := range results {
		if errs := checker.Check(sc.claims[i], r); len(errs) > 0 {
			return fmt.Errorf("claim %s: %v", sc.claims[i].Name, errs)
		}
	}
	return nil
}

func (c *diffCase) summary() string {
	if c.drakitOK && c.upstreamOK {
		return "different devices: " + c.deviceDifference()
	}
	return fmt.Sprintf("drakit ok=%v (%v), upstream %s ok=%v (err %v, results %v)", c.drakitOK, c.drakitErr, c.impl, c.upstreamOK, c.upstreamErr, c.upstream)
}

// upstreamDeterministic reports whether upstream's choice of devices does
// not depend on chance: upstream visits pools in Go map order, so its
// result is reproducible only when the node sees at most one pool.
func (c *diffCase) upstreamDeterministic() bool {
	pools := map[[2]string]bool{}
	for _, s := range c.sc.inv.Slices {
		sees, err := structured.NodeMatches(UpstreamFeatures(c.sc.inv.Features), c.sc.node, valueOf(s.Spec.NodeName), valueOf(s.Spec.AllNodes), s.Spec.NodeSelector)
		if err != nil || sees || valueOf(s.Spec.PerDeviceNodeSelection) {
			pools[[2]string{s.Spec.Driver, s.Spec.Pool.Name}] = true
		}
	}
	return len(pools) <= 1
}

// valueOf is what a pointer points to, or the zero value for nil.
func valueOf[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// deviceDifference compares the devices both gave each claim, request by
// request in result order; "" when they are the same.
func (c *diffCase) deviceDifference() string {
	for i := range c.drakit {
		var d, u []string
		for _, r := range c.drakit[i].Allocation.Devices.Results {
			d = append(d, r.Request+"="+r.Driver+"/"+r.Pool+"/"+r.Device)
		}
		for _, r := range c.upstream[i].Devices.Results {
			u = append(u, r.Request+"="+r.Driver+"/"+r.Pool+"/"+r.Device)
		}
		if strings.Join(d, " ") != strings.Join(u, " ") {
			return fmt.Sprintf("claim %s: drakit %v, upstream %v", c.sc.claims[i].Name, d, u)
		}
	}
	return ""
}
