package poolstatus

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/testobjects"
)

func findings(r *LintReport) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.String())
	}
	return out
}

// TestLintFakeGPUs: the real class reads an attribute the fake driver's
// devices lack: CEL's error, naming the first device, not a silent
// "matches nothing"; a class that matches nothing is a warning.
func TestLintFakeGPUs(t *testing.T) {
	fake := testobjects.Slice("node-a-gpu", gpu, "node-a", testobjects.OnNode("node-a"),
		testobjects.Device("gpu-0", testobjects.Attr("index", 0)), testobjects.Device("gpu-1", testobjects.Attr("index", 1)))
	real := testobjects.Slice("node-b-gpu", gpu, "node-b", testobjects.OnNode("node-b"),
		testobjects.Device("gpu-0", testobjects.Attr("type", "a100")))
	classes := []*resource.DeviceClass{
		testobjects.Class("a100", `device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].type == "a100"`),
		testobjects.Class("h100", `device.driver == "gpu.example.com" && has(device.attributes["gpu.example.com"].type) && device.attributes["gpu.example.com"].type == "h100"`),
		testobjects.Class("any", `device.driver == "gpu.example.com"`),
		testobjects.Class("broken", `device.driver ==`),
	}
	r := Lint(context.Background(), LintInput{Slices: []*resource.ResourceSlice{fake, real}, Classes: classes})
	got := findings(r)
	if len(got) != 3 {
		t.Fatalf("findings:\n%s", strings.Join(got, "\n"))
	}
	for i, want := range []string{
		`error: DeviceClass a100: spec.selectors[0].cel.expression: fails on 2 devices, first on gpu.example.com/node-a/gpu-0 (ResourceSlice node-a-gpu): `,
		`error: DeviceClass broken: spec.selectors[0].cel.expression: does not compile: `,
		`warning: DeviceClass h100: matches none of the 3 devices of these slices`,
	} {
		if !strings.HasPrefix(got[i], want) {
			t.Errorf("finding %d:\n%s\nwant prefix:\n%s", i, got[i], want)
		}
	}
	if !strings.Contains(got[0], "no such key: type") {
		t.Errorf("lacks CEL's error: %s", got[0])
	}
	var matches []string
	for _, m := range r.Classes {
		matches = append(matches, m.Class+":"+itoa(m.Matched)+"/"+itoa(m.Failed)+"/"+itoa(m.Devices))
	}
	if diff := cmp.Diff([]string{"a100:1/2/3", "any:3/0/3", "broken:0/0/3", "h100:0/0/3"}, matches); diff != "" {
		t.Errorf("matches (-want +got):\n%s", diff)
	}
	if r.Errors() != 2 {
		t.Errorf("%d errors", r.Errors())
	}
	// Classes alone: compiled, not matched.
	r = Lint(context.Background(), LintInput{Classes: classes})
	if got := findings(r); len(got) != 1 || !strings.HasPrefix(got[0], "error: DeviceClass broken:") {
		t.Errorf("classes alone: %v", got)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestLintPools: a template slice that says resourceSliceCount 0, a pool
// missing a slice mid-rollout, slices disagreeing on the count, a device
// named twice, an unknown counter set.
func TestLintPools(t *testing.T) {
	dev := testobjects.Device
	zero := testobjects.PoolSlice("tmpl", gpu, "template-node", 0, 0, testobjects.OnNode("template-node"), dev("gpu-0"))
	rollOld := testobjects.PoolSlice("r-1", gpu, "r", 1, 1, testobjects.OnNode("n"), dev("gpu-0"))
	rollNew := testobjects.PoolSlice("r-2", gpu, "r", 2, 2, testobjects.OnNode("n"), dev("gpu-0"))
	disagree := []*resource.ResourceSlice{
		testobjects.PoolSlice("d-a", gpu, "d", 0, 2, testobjects.OnNode("n"), dev("a")),
		testobjects.PoolSlice("d-b", gpu, "d", 0, 3, testobjects.OnNode("n"), dev("a")),
	}
	counters := testobjects.Slice("c", gpu, "c", testobjects.OnNode("n"), dev("x"))
	counters.Spec.Devices[0].ConsumesCounters = []resource.DeviceCounterConsumption{{CounterSet: "nope"}}
	done := testobjects.PoolSlice("ok-2", gpu, "ok", 2, 1, testobjects.OnNode("n"), dev("gpu-0"))
	stale := testobjects.PoolSlice("ok-1", gpu, "ok", 1, 1, testobjects.OnNode("n"), dev("gpu-0"))
	r := Lint(context.Background(), LintInput{Slices: append(disagree, zero, rollOld, rollNew, counters, done, stale)})
	want := []string{
		`error: ResourceSlice c: pool gpu.example.com/c is invalid: device "x" consumes from counter set "nope", which the pool does not declare; the scheduler uses none of its devices`,
		`error: ResourceSlice d-b: spec.pool.resourceSliceCount: is 3, but ResourceSlice d-a of the same pool and generation 0 says 2; every slice of a generation must give the number of slices the generation has`,
		`error: ResourceSlice d-b: spec.devices[0].name: device "a" is also in ResourceSlice d-a; the scheduler uses no device of pool gpu.example.com/d while a name repeats`,
		`error: ResourceSlice r-2: spec.pool.resourceSliceCount: pool gpu.example.com/r is incomplete: generation 2 has 1 of 2 slices; the scheduler uses none of its devices until all are published (rolling out: 1 slice of older generations still published)`,
		`error: ResourceSlice tmpl: spec.pool.resourceSliceCount: is 0; it must be the number of slices of the pool's generation (here 1), at least 1: the API server refuses 0, and the scheduler takes a pool whose slices say 0 for incomplete and uses none of its devices`,
		`warning: ResourceSlice ok-2: spec.pool.generation: pool gpu.example.com/ok is rolling out: generation 2 is complete, 1 slice of older generations still published (the scheduler ignores them)`,
	}
	if diff := cmp.Diff(want, findings(r)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
