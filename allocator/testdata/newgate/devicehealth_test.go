package allocator

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/features"
)

// This file is not built with the package: TestExampleNewGate
// (newgate_example_test.go) adds it, after the steps of the made-up gate
// DRAExampleDeviceHealth, to a go test -overlay of the package. Each part
// fails until its step is done: steps 1 and 2 by not compiling, step 5
// here.

func TestExampleDeviceHealth(t *testing.T) {
	// Step 1: the gate is known, alpha and off by default.
	on, err := features.Parse("DRAExampleDeviceHealth=true")
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := features.Lookup(features.DRAExampleDeviceHealth); !ok || s.Stage != features.Alpha || s.Default {
		t.Fatalf("step 1: DRAExampleDeviceHealth is %+v, want a known alpha gate, off by default", s)
	}
	// Step 2: the scheduler's gates switch the allocator's feature.
	if !FeaturesFromGates(on).ExampleDeviceHealth || DefaultFeatures().ExampleDeviceHealth {
		t.Fatal("step 2: FeaturesFromGates does not switch ExampleDeviceHealth with the gate")
	}

	// Step 5: the rule. A degraded device cannot be used: a request passes
	// it by, an All request that selects it fails.
	slices := []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"),
		dev("gpu0", attr("health", "degraded")), dev("gpu1", attr("health", "ok")), dev("gpu2"))}
	// Each claim on its own, on the same inventory.
	allocate := func(g features.Gates, claims ...*resource.ResourceClaim) []Result {
		t.Helper()
		f := FeaturesFromGates(g)
		a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: slices, Node: node("n1"), Features: &f})
		if err != nil {
			t.Fatal(err)
		}
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
	off := features.Defaults()
	for _, r := range allocate(off, one, three, every) {
		if r.Err != nil {
			t.Errorf("gate off: %v", r.Err)
		}
	}
	if got := devicesOf(allocate(off, one)[0].Allocation); !reflect.DeepEqual(got, []string{"r=gpu.example.com/n1/gpu0"}) {
		t.Errorf("gate off: %v, want gpu0", got)
	}

	// Gate on: the degraded device is passed by, counted and named.
	results := allocate(on, one, three, every)
	if got := devicesOf(results[0].Allocation); !reflect.DeepEqual(got, []string{"r=gpu.example.com/n1/gpu1"}) {
		t.Errorf("step 5, gate on: %v, want gpu1 (gpu0 is degraded)", got)
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
			t.Errorf("step 5, gate on, claim %d: %v, want %s containing %q", i, err, want.reason, want.contains)
		}
	}
}
