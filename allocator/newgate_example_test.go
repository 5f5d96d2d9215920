package allocator

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource"
)

// This file is the worked example of docs/architecture.md ("The
// allocator"): a made-up gate, DRAExampleDeviceHealth, added end to end.
// With the gate on, a device whose attribute "health" says "degraded"
// cannot be used: a request passes it by, an All request that selects it
// fails. A real gate takes these steps:
//
//  1. apis/resource/features: the gate, its stage and default.
//  2. features.go: a Features field (ExampleDeviceHealth) and its line in
//     FeaturesFromGates.
//  3. The plan stage (planrequest.go, checkSpec): a request field the gate
//     adds is refused with ReasonFeatureDisabled while the gate is off.
//     This gate adds none.
//  4. The view stage (gather.go, usable): slices that need the gate are
//     left out while it is off. This gate needs none.
//  5. The candidates (candidates.go, judge): the rule on one device, as a
//     case of its filter. A device that cannot be used is a case of
//     unusable, switched by the Features field:
//
//     case f.ExampleDeviceHealth && degraded(dev):
//     return "reports health degraded (ExampleDeviceHealth)"
//
//     judge counts it, names the first such device in the claim's error
//     and fails an All request that selects it.
//  6. The search (solve.go, eligible, take, untakeLast): only for a rule
//     that depends on what else is taken. This one does not.
//  7. The results (results.go, appendResults): what the allocation
//     records of the gate. This one records nothing.
//  8. allocator/verify judges the new rule independently, hack/allocbench
//     passes the gate to upstream's allocator (UpstreamFeatures), and
//     doc.go lists the rule.
//
// A test cannot add a field to Features nor a case to unusable, so here
// the gate is a variable and the case a deviceRule (config.deviceRules,
// which only tests set); everything else runs as it would.

// exampleHealthRule is step 5 for the made-up gate, switched by gate.
func exampleHealthRule(gate *bool) func(dev *resource.Device) string {
	return func(dev *resource.Device) string {
		if !*gate {
			return ""
		}
		if h, ok := dev.Attributes["health"]; ok && h.StringValue != nil && *h.StringValue == "degraded" {
			return "reports health degraded (ExampleDeviceHealth)"
		}
		return ""
	}
}

func TestExampleNewGate(t *testing.T) {
	slices := []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"),
		dev("gpu0", attr("health", "degraded")), dev("gpu1", attr("health", "ok")), dev("gpu2"))}
	// Each claim on its own, on the same inventory.
	allocate := func(gate bool, claims ...*resource.ResourceClaim) []Result {
		t.Helper()
		a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: slices, Node: node("n1")})
		if err != nil {
			t.Fatal(err)
		}
		a.deviceRules = append(a.deviceRules, exampleHealthRule(&gate))
		var results []Result
		for _, c := range claims {
			r, err := a.Allocate(context.Background(), []*resource.ResourceClaim{c})
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, r...)
		}
		return results
	}
	one := claim("one", req("r", "gpu"))
	three := claim("three", req("r", "gpu", count(3)))
	every := claim("every", req("r", "gpu", all()))

	// Gate off: the rule plays no part.
	for _, r := range allocate(false, one, three, every) {
		if r.Err != nil {
			t.Errorf("gate off: %v", r.Err)
		}
	}
	if got := devicesOf(allocate(false, one)[0].Allocation); !reflect.DeepEqual(got, []string{"r=gpu.example.com/n1/gpu0"}) {
		t.Errorf("gate off: %v, want gpu0", got)
	}

	// Gate on: the degraded device is passed by, counted and named.
	results := allocate(true, one, three, every)
	if got := devicesOf(results[0].Allocation); !reflect.DeepEqual(got, []string{"r=gpu.example.com/n1/gpu1"}) {
		t.Errorf("gate on: %v, want gpu1 (gpu0 is degraded)", got)
	}
	for i, want := range []struct {
		reason   Reason
		contains string
	}{
		{},
		{ReasonNotEnough, "1 cannot be used (gpu.example.com/n1/gpu0 reports health degraded (ExampleDeviceHealth))"},
		{ReasonNotEnough, "asks for all matching devices, but device gpu.example.com/n1/gpu0 reports health degraded"},
	} {
		if want.reason == "" {
			continue
		}
		err := results[i].Err
		if !IsReason(err, want.reason) || !strings.Contains(err.Error(), want.contains) {
			t.Errorf("gate on, claim %d: %v, want %s containing %q", i, err, want.reason, want.contains)
		}
	}
}
