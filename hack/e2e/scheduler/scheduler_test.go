// Package scheduler compares drakit's predictions with what a real
// kube-scheduler v1.37.2 does. hack/e2e.sh runs it against the 1.37
// server only, with kube-scheduler (a profile of its own,
// DRAKIT_E2E_SCHEDULER_NAME) and kube-controller-manager's resourceclaim
// controller running, both built from the API server's builder module.
//
// Each scenario (generated from a fixed list of seeds, and hand-written
// edge cases) is a small cluster: nodes that no kubelet runs, classes,
// node-local and network-attached slices, claims (some allocated to pods
// already bound), templates, and pending pods. The pending pods are
// created held back by a scheduling gate; drakit predicts what becomes of
// them, offline (allocator.PlacePods on the objects given to the server)
// and live (the drakit binary's `allocate --from-cluster`); then the gates
// are removed one pod at a time, each pod waited for until the scheduler
// bound it or gave up on it, and the predictions are compared with what
// it did, pod by pod:
//
//   - replay: drakit on the cluster as the scheduler saw it before its
//     decision on the pod (its earlier bindings and allocations applied)
//     must decide as it did: for a bound pod, find the scheduler's node
//     feasible (tried alone) and accept the devices it allocated there
//     (allocator/verify); for a pod found unschedulable, place it
//     nowhere; for a pod failed with an error, predict that error;
//   - offline and live: the whole prediction agrees when the same holds
//     for drakit's own run, in which earlier pods may have gone to other
//     nodes: drakit takes the first node that fits, the scheduler the one
//     that scores best, and the devices may differ on the same node.
//     Where an earlier pod went elsewhere, a disagreement is put down to
//     that (earlier-choice) and counted.
//
// Every disagreement must be explained by an entry of knownDifferences,
// each with an example (an edge case) that must still show it; the
// agreement numbers are logged.
package scheduler

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// env is what the test runs against.
type env struct {
	cluster *cluster
	predict *predictor
}

// setup connects to the server, the scheduler and the controller that
// hack/e2e.sh started, and removes what an interrupted run left.
func setup(t *testing.T) *env {
	s := e2eenv.Get(t)
	if s.Minor() != 37 {
		t.Skipf("kube-scheduler runs against the 1.37 server only; this is %s", s.KubeVersion)
	}
	name := os.Getenv("DRAKIT_E2E_SCHEDULER_NAME")
	if name == "" {
		if os.Getenv("DRAKIT_E2E_REQUIRED") == "1" {
			t.Fatal("DRAKIT_E2E_SCHEDULER_NAME is not set although DRAKIT_E2E_REQUIRED=1: hack/e2e.sh runs this package with kube-scheduler and sets it (scheduler-env.sh)")
		}
		t.Skip("no kube-scheduler: hack/e2e.sh starts one for this package (or --serve, then source scheduler-env.sh)")
	}
	drakit, kubeconfig := os.Getenv("DRAKIT_E2E_DRAKIT"), os.Getenv("DRAKIT_E2E_KUBECONFIG")
	if drakit == "" || kubeconfig == "" {
		t.Fatal("DRAKIT_E2E_DRAKIT and DRAKIT_E2E_KUBECONFIG must be set (hack/e2e.sh writes them to scheduler-env.sh and env.sh)")
	}
	gates, err := draGates(os.Getenv("DRAKIT_E2E_SCHEDULER_GATES"))
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := features.Parse(gates)
	if err != nil {
		t.Fatalf("the scheduler's gates %q: %v", gates, err)
	}
	kube, err := kubernetes.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{
		cluster: &cluster{kube: kube, schedulerName: name, claimController: os.Getenv("DRAKIT_E2E_CLAIM_CONTROLLER") == "1"},
		predict: &predictor{features: allocator.FeaturesFromGates(parsed), gates: gates, drakit: drakit, kubeconfig: kubeconfig, dir: t.TempDir()},
	}
	ctx := context.Background()
	e.cluster.removeLabelled(ctx, t, scenarioLabel)
	// Nodes other packages left are part of every scenario's cluster (see
	// create): say which.
	nodes, err := kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes.Items {
		t.Logf("the cluster has node %s (taints %v), which every scenario's cluster includes", n.Name, n.Spec.Taints)
	}
	return e
}

// draGates keeps the DRA gates of a --feature-gates value (the scheduler
// has hack/e2e.sh's gates of the server, which name others too).
func draGates(all string) (string, error) {
	if all == "" {
		return "", fmt.Errorf("DRAKIT_E2E_SCHEDULER_GATES is empty: hack/e2e.sh sets it to the scheduler's --feature-gates")
	}
	var keep []string
	for _, item := range strings.Split(all, ",") {
		name, _, _ := strings.Cut(item, "=")
		if _, ok := features.Lookup(features.Name(strings.TrimSpace(name))); ok {
			keep = append(keep, item)
		}
	}
	return strings.Join(keep, ","), nil
}

// podResult compares, for one pending pod, what the scheduler did with
// drakit's predictions.
type podResult struct {
	pod       string
	scheduler outcome
	// devices are the devices the scheduler allocated for the pod's
	// claims, when it bound it (see verdict.devices).
	devices []string
	offline verdict
	live    verdict
	replay  verdict
	// judged is what allocator/verify finds wrong with the scheduler's
	// devices (a bound pod).
	judged []error
}

// difference is one disagreement.
type difference struct {
	scenario string
	pod      string
	// kind: "replay" (drakit decides otherwise on the scheduler's own
	// state), "offline" or "live" (the whole prediction, where every
	// earlier pod went where the scheduler put it), "earlier-choice" (the
	// whole prediction, after an earlier pod went to another node or other
	// devices), "message"
	// (the scheduler's words).
	kind string
	// of is the prediction compared: replay, offline or live.
	of        string
	scheduler outcome
	drakit    verdict
	detail    string
	// known names the entry of knownDifferences that explains it.
	known string
}

func (d *difference) String() string {
	s := fmt.Sprintf("%s/%s (%s, %s): the scheduler: %s; drakit: %s", d.scenario, d.pod, d.kind, d.of, d.scheduler, d.drakit)
	if d.detail != "" {
		s += "; " + d.detail
	}
	return s
}

// scenarioResult is one scenario's comparison.
type scenarioResult struct {
	sc *scenario
	// nodes are the cluster's nodes during the scenario.
	nodes map[string]bool
	pods  []*podResult
	diffs []*difference
	// liveStderr is what the CLI wrote to standard error.
	liveStderr string
}

// run creates the scenario, predicts, schedules and compares.
func (e *env) run(t *testing.T, sc *scenario) *scenarioResult {
	ctx := context.Background()
	if sc.usesTemplates() && !e.cluster.claimController {
		t.Skip("pods with claims from templates need the resourceclaim controller (DRAKIT_E2E_CLAIM_CONTROLLER=1)")
	}
	cr, err := e.cluster.create(ctx, sc)
	if cr != nil {
		defer e.cluster.remove(ctx, t, cr)
	}
	if err != nil {
		t.Fatalf("creating scenario %s: %v", sc.name, err)
	}
	offline, err := e.predict.offline(ctx, cr)
	if err != nil {
		t.Fatalf("PlacePods on the scenario: %v", err)
	}
	pods, err := e.cluster.pendingNow(ctx, cr)
	if err != nil {
		t.Fatal(err)
	}
	live, stderr, err := e.predict.live(ctx, cr, pods)
	if err != nil {
		t.Fatal(err)
	}
	h, err := e.cluster.schedule(ctx, cr)
	if err != nil {
		t.Fatal(err)
	}
	res := &scenarioResult{sc: sc, liveStderr: stderr, nodes: map[string]bool{}}
	for _, n := range cr.nodes {
		res.nodes[n.Name] = true
	}
	devices := schedulerDevices(cr, h)
	for _, p := range cr.pending {
		pr := &podResult{pod: p.Name, scheduler: h.outcomes[p.Name], devices: devices[p.Name], offline: offline[p.Name], live: live[p.Name]}
		if pr.replay, pr.judged, err = e.predict.replay(ctx, cr, h, p.Name); err != nil {
			t.Fatalf("replaying pod %s: %v", p.Name, err)
		}
		res.pods = append(res.pods, pr)
	}
	res.compare()
	for _, pr := range res.pods {
		t.Logf("%s: scheduler %s | replay %s | offline %s | live %s", pr.pod, pr.scheduler, pr.replay, pr.offline, pr.live)
	}
	return res
}

// agrees reports whether drakit's verdict agrees with the scheduler's
// outcome; feasible says that drakit found the scheduler's node feasible
// and accepted its devices (the replay), for a bound pod.
func agrees(o outcome, v verdict, feasible bool) bool {
	switch {
	case o.node != "":
		return v.placed() && feasible
	case o.reason == "SchedulerError":
		return v.schedulerError != ""
	default:
		return !v.placed() && v.schedulerError == ""
	}
}

// compare fills in the differences.
func (r *scenarioResult) compare() {
	add := func(pr *podResult, kind, of string, v verdict, detail string) {
		r.diffs = append(r.diffs, &difference{scenario: r.sc.name, pod: pr.pod, kind: kind, of: of, scheduler: pr.scheduler, drakit: v, detail: detail})
	}
	for i, pr := range r.pods {
		feasible := pr.replay.placed() && len(pr.judged) == 0
		if !agrees(pr.scheduler, pr.replay, feasible) {
			detail := ""
			if len(pr.judged) > 0 {
				detail = fmt.Sprintf("drakit's judge refuses the scheduler's devices: %v", pr.judged)
			}
			add(pr, "replay", "replay", pr.replay, detail)
		}
		if msg := wordsDiffer(pr.scheduler, pr.replay); msg != "" {
			add(pr, "message", "replay", pr.replay, msg)
		}
		for _, whole := range []struct {
			of string
			v  verdict
			at func(*podResult) verdict
		}{{"offline", pr.offline, func(p *podResult) verdict { return p.offline }}, {"live", pr.live, func(p *podResult) verdict { return p.live }}} {
			// An earlier pod went elsewhere: to another node, or to other
			// devices of the same node. Only the offline prediction
			// says which devices it took; the live one is the same
			// algorithm on the same objects.
			diverged := false
			for _, earlier := range r.pods[:i] {
				if earlier.scheduler.node != whole.at(earlier).node ||
					earlier.scheduler.node != "" && earlier.offline.node == earlier.scheduler.node && !slices.Equal(earlier.offline.devices, earlier.devices) {
					diverged = true
					break
				}
			}
			if !agrees(pr.scheduler, whole.v, feasible) {
				kind := whole.of
				if diverged {
					kind = "earlier-choice"
				}
				add(pr, kind, whole.of, whole.v, "")
				continue
			}
			// Where every earlier pod went where the scheduler put it,
			// drakit's cluster is the scheduler's: the words must match.
			if msg := wordsDiffer(pr.scheduler, whole.v); msg != "" && !diverged {
				add(pr, "message", whole.of, whole.v, msg)
			}
		}
	}
}

// wordsDiffer says how drakit's words for a pod it did not place differ
// from the scheduler's: the message of an unschedulable pod (when drakit
// has the scheduler's words, see verdict.schedulerWords) or of a
// scheduler error; "" when they are the same.
func wordsDiffer(o outcome, v verdict) string {
	switch {
	case o.node != "" || v.placed():
		return ""
	case o.reason == "SchedulerError" && v.schedulerError != "" && v.schedulerError != o.message:
		return fmt.Sprintf("the scheduler's error %q, drakit's %q", o.message, v.schedulerError)
	case o.reason != "SchedulerError" && v.schedulerWords && v.message != o.message:
		return fmt.Sprintf("the scheduler's message %q, drakit's %q", o.message, v.message)
	}
	return ""
}

// totals counts agreement over all scenarios.
type totals struct {
	pods                              int
	replay, offline, live             int
	bound, unschedulable, schedErrors int
	// words counts the pods left unbound whose message (or error) the
	// replay gives word for word.
	words int
}

func (tt *totals) add(r *scenarioResult) {
	for _, pr := range r.pods {
		tt.pods++
		feasible := pr.replay.placed() && len(pr.judged) == 0
		switch {
		case pr.scheduler.node != "":
			tt.bound++
		case pr.scheduler.reason == "SchedulerError":
			tt.schedErrors++
		default:
			tt.unschedulable++
		}
		if agrees(pr.scheduler, pr.replay, feasible) {
			tt.replay++
		}
		if o := pr.scheduler; o.node == "" && (o.message == pr.replay.schedulerError || pr.replay.schedulerWords && o.message == pr.replay.message) {
			tt.words++
		}
		if agrees(pr.scheduler, pr.offline, feasible) {
			tt.offline++
		}
		if agrees(pr.scheduler, pr.live, feasible) {
			tt.live++
		}
	}
}

func (tt *totals) String() string {
	pct := func(n int) string {
		return fmt.Sprintf("%d/%d (%.1f%%)", n, tt.pods, 100*float64(n)/float64(max(tt.pods, 1)))
	}
	return fmt.Sprintf("%d pods (the scheduler bound %d, found %d unschedulable, failed %d with an error); drakit agrees: replay %s, offline %s, live %s; the scheduler's words for %d of the %d pods left unbound",
		tt.pods, tt.bound, tt.unschedulable, tt.schedErrors, pct(tt.replay), pct(tt.offline), pct(tt.live), tt.words, tt.unschedulable+tt.schedErrors)
}

func TestScheduler(t *testing.T) {
	e := setup(t)
	var results []*scenarioResult
	scenarios := append(edgeCases(), generated()...)
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			if r := e.run(t, sc); r != nil {
				results = append(results, r)
			}
		})
	}
	var all totals
	byKnown := map[string]int{}
	var unexplained []string
	shown := map[string]bool{}
	for _, r := range results {
		all.add(r)
		for _, d := range r.diffs {
			d.known = explain(d, r)
			if d.known == "" {
				unexplained = append(unexplained, d.String())
				continue
			}
			byKnown[d.known]++
			if r.sc.name == exampleName(d.known) {
				shown[d.known] = true
			}
		}
	}
	t.Logf("agreement: %s", &all)
	var names []string
	for n := range byKnown {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("known difference %s: %d", n, byKnown[n])
	}
	for _, u := range unexplained {
		t.Errorf("a difference no entry of knownDifferences explains: %s", u)
	}
	// Every known difference's example must still show it, so that the
	// list cannot outlive the behaviour it describes.
	ran := map[string]bool{}
	for _, r := range results {
		ran[r.sc.name] = true
	}
	for _, k := range knownDifferences {
		if ex := exampleName(k.name); ran[ex] && !shown[k.name] {
			t.Errorf("known difference %s: its example %s no longer shows it; remove the entry (or fix the example)", k.name, ex)
		}
	}
}
