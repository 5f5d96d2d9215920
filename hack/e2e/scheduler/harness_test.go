package scheduler

import (
	"context"
	"strings"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"

	"github.com/drakit/drakit/allocator"
)

// The harness's own checks, without a server: a comparison that could not
// fail would prove nothing.

// TestJudgeRefusesWrongDevices: the judge of the scheduler's devices
// refuses a device the claim's selector does not match, one another claim
// holds and one of another node, and accepts a right one.
func TestJudgeRefusesWrongDevices(t *testing.T) {
	sc := newScenario("judge")
	nodes := gpuNodes(sc, []resourcev1.Device{gpu("g0", "a", 0), gpu("g1", "b", 0)}, gpus(1))
	class := sc.clusterName("gpu")
	cr := &created{sc: sc, nodes: nodes, classes: sc.classes, slices: sc.slices}
	p := &predictor{features: allocator.DefaultFeatures()}
	holder := sc.claim("holder", claimSpec(request("r", class, 1)))
	allocate(holder, nil, allocated{"r", sc.slices[0], "g0"})
	for _, tc := range []struct {
		name    string
		slice   int
		device  string
		node    string
		refused string
	}{
		{"right", 0, "g1", nodes[0].Name, ""},
		{"selector", 0, "g0", nodes[0].Name, "g0"},
		{"held", 0, "g0", nodes[0].Name, "g0"},
		{"other node", 1, "g0", nodes[0].Name, "g0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			selector := modelIs("b")
			if tc.name != "selector" {
				selector = "true"
			}
			c := &resourcev1.ResourceClaim{Spec: claimSpec(request("r", class, 1, selector))}
			c.Name, c.Namespace = "c", sc.namespace()
			allocate(c, nil, allocated{"r", sc.slices[tc.slice], tc.device})
			var before []*resourcev1.ResourceClaim
			if tc.name == "held" {
				before = append(before, holder)
			}
			errs := p.judge(cr, before, []*resourcev1.ResourceClaim{c}, tc.node)
			switch {
			case tc.refused == "" && len(errs) > 0:
				t.Errorf("refused a right allocation: %v", errs)
			case tc.refused != "" && (len(errs) == 0 || !strings.Contains(errs[0].Error(), tc.refused)):
				t.Errorf("errors %v, want one naming %s", errs, tc.refused)
			}
		})
	}
}

// TestCompareClassifies: compare finds each kind of disagreement, and
// none where drakit agrees.
func TestCompareClassifies(t *testing.T) {
	bound := func(n string) outcome { return outcome{node: n} }
	unschedulable := outcome{reason: "Unschedulable", message: "0/2 nodes are available: 2 cannot allocate all claims."}
	placed := func(n string) verdict { return verdict{node: n} }
	failed := verdict{failed: true, schedulerWords: true, message: unschedulable.message}
	for _, tc := range []struct {
		name string
		pods []*podResult
		want []string // kind/of of each difference, in order
	}{
		{"agree", []*podResult{
			{pod: "p1", scheduler: bound("n1"), replay: placed("n1"), offline: placed("n0"), live: placed("n0")},
			{pod: "p2", scheduler: unschedulable, replay: failed, offline: failed, live: failed},
		}, nil},
		// drakit finds the scheduler's node infeasible: its own placement
		// elsewhere does not agree either.
		{"replay", []*podResult{
			{pod: "p1", scheduler: bound("n1"), replay: failed, offline: placed("n0"), live: placed("n0")},
		}, []string{"replay/replay", "offline/offline", "live/live"}},
		{"judged", []*podResult{
			{pod: "p1", scheduler: bound("n1"), replay: placed("n1"), judged: []error{context.Canceled}, offline: placed("n1"), live: placed("n1")},
		}, []string{"replay/replay", "offline/offline", "live/live"}},
		{"earlier-choice", []*podResult{
			{pod: "p1", scheduler: bound("n1"), replay: placed("n1"), offline: placed("n0"), live: placed("n1")},
			{pod: "p2", scheduler: unschedulable, replay: failed, offline: placed("n1"), live: failed},
		}, []string{"earlier-choice/offline"}},
		{"earlier devices", []*podResult{
			{pod: "p1", scheduler: bound("n1"), devices: []string{"n1/g1"}, replay: placed("n1"), offline: verdict{node: "n1", devices: []string{"n1/g0"}}, live: placed("n1")},
			{pod: "p2", scheduler: unschedulable, replay: failed, offline: placed("n1"), live: placed("n1")},
		}, []string{"earlier-choice/offline", "earlier-choice/live"}},
		{"offline", []*podResult{
			{pod: "p1", scheduler: unschedulable, replay: failed, offline: placed("n1"), live: failed},
		}, []string{"offline/offline"}},
		{"message", []*podResult{
			{pod: "p1", scheduler: unschedulable, replay: verdict{failed: true, schedulerWords: true, message: "0/2 nodes are available: 2 other."}, offline: failed, live: failed},
		}, []string{"message/replay"}},
		{"scheduler error", []*podResult{
			{pod: "p1", scheduler: outcome{reason: "SchedulerError", message: "boom"}, replay: verdict{schedulerError: "bang"}, offline: placed("n0"), live: verdict{schedulerError: "boom"}},
		}, []string{"message/replay", "offline/offline"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &scenarioResult{sc: newScenario(tc.name), pods: tc.pods}
			r.compare()
			var got []string
			for _, d := range r.diffs {
				got = append(got, d.kind+"/"+d.of)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("differences %v, want %v", got, tc.want)
			}
		})
	}
}
