package allocbench

import (
	"context"
	"testing"

	"github.com/drakit/drakit/allocator"
)

// TestScenarioChecksCanFail runs new scenarios on upstream with the
// feature they rely on switched off: the allocator then answers
// differently (a tainted device, a share without rounding, no
// alternatives), and the scenario's own check must reject the answer, so a
// benchmark of a wrong answer fails.
func TestScenarioChecksCanFail(t *testing.T) {
	for _, c := range []struct {
		scenario string
		off      func(*allocator.Features)
	}{
		{"tainted-half-100nodes-x8", func(f *allocator.Features) { f.DeviceTaints, f.DeviceTaintRules = false, false }},
		{"shared-nics-10nodes-x4", func(f *allocator.Features) { f.ConsumableCapacity = false }},
		{"prioritized-impossible-first-32", func(f *allocator.Features) { f.PrioritizedList = false }},
	} {
		var sc *BenchScenario
		for _, s := range BenchScenarios() {
			if s.Name == c.scenario {
				sc = &s
			}
		}
		if sc == nil {
			t.Fatalf("no scenario %s", c.scenario)
		}
		inv := sc.Inventory()
		c.off(&inv.Features)
		r := NewUpstreamRunner("experimental", toUpstream(inv))
		failed := false
		for i := 0; i < 20 && !failed; i++ {
			exhausted, err := sc.Op(context.Background(), r, inv, i)
			failed = err != nil || exhausted
			if failed {
				t.Logf("%s, feature off: exhausted=%v, %v", c.scenario, exhausted, err)
			}
		}
		if !failed {
			t.Errorf("%s: with the feature off, 20 operations passed the scenario's check", c.scenario)
		}
	}
}
