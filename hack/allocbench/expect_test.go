package allocbench

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/apis/resource"
)

// recordingRunner passes every call on to a runner and remembers how the
// allocations of one operation went, so that runOp can hold the operation
// to what its scenario expects. It keeps references, not copies, so that
// recording costs the benchmarks no allocations.
type recordingRunner struct {
	Runner
	calls, allocated int
	// lastFailed and lastAllocated are the claims and node of the last
	// call that found no allocation and that found one; failure is why
	// the last failing call failed, when the runner says.
	lastFailed, lastAllocated         []*Claim
	lastFailedNode, lastAllocatedNode *corev1.Node
	failure                           error
}

func (r *recordingRunner) reset(inner Runner) {
	*r = recordingRunner{Runner: inner}
}

func (r *recordingRunner) Allocate(ctx context.Context, node *corev1.Node, claims []*Claim) (bool, []*resource.AllocationResult, error) {
	ok, results, err := r.Runner.Allocate(ctx, node, claims)
	if err != nil {
		return ok, results, err
	}
	r.calls++
	if ok {
		r.allocated++
		r.lastAllocated, r.lastAllocatedNode = claims, node
	} else {
		r.lastFailed, r.lastFailedNode, r.failure = claims, node, failureOf(r.Runner)
	}
	return ok, results, nil
}

// Failure is the wrapped runner's, so that firstFit can name it.
func (r *recordingRunner) Failure() error { return failureOf(r.Runner) }

// runOp runs operation i of a scenario through rec (reset to wrap r) and
// fails it when it did not do what the scenario says its operations do:
// in an impossible scenario no call may allocate; in any other, an
// operation that makes allocation calls must allocate in at least one of
// them (firstFit and the scheduler-like scenarios try node after node).
// An operation without calls is a scenario's request for a fresh runner.
// Every error names the scenario and the operation, and where a call
// failed, its claims, node and the allocator's reason.
func runOp(ctx context.Context, sc BenchScenario, rec *recordingRunner, r Runner, inv *Inventory, i int) (exhausted bool, err error) {
	rec.reset(r)
	exhausted, err = sc.Op(ctx, rec, inv, i)
	switch {
	case err != nil:
		if !sc.Impossible && rec.lastFailed != nil {
			return exhausted, fmt.Errorf("scenario %s, operation %d: %w (last failed call: %s)", sc.Name, i, err, rec.describeFailed())
		}
		return exhausted, fmt.Errorf("scenario %s, operation %d: %w", sc.Name, i, err)
	case rec.calls == 0:
		return exhausted, nil
	case sc.Impossible && rec.allocated > 0:
		return exhausted, fmt.Errorf("scenario %s, operation %d: claims %s were allocated on node %s, but the scenario is impossible",
			sc.Name, i, claimNames(rec.lastAllocated), nodeName(rec.lastAllocatedNode))
	case !sc.Impossible && rec.allocated == 0:
		return exhausted, fmt.Errorf("scenario %s, operation %d: none of %d calls allocated, but the scenario expects its operations to succeed; the last: %s",
			sc.Name, i, rec.calls, rec.describeFailed())
	}
	return exhausted, nil
}

func (r *recordingRunner) describeFailed() string {
	return fmt.Sprintf("claims %s on node %s: %s", claimNames(r.lastFailed), nodeName(r.lastFailedNode), describeFailure(r.failure))
}

func claimNames(claims []*Claim) string {
	names := make([]string, len(claims))
	for i, c := range claims {
		names[i] = c.Hub.Name
	}
	return strings.Join(names, ", ")
}

func nodeName(n *corev1.Node) string {
	if n == nil {
		return "(none)"
	}
	return n.Name
}

// failingRunner finds no allocation, ever, and says why.
type failingRunner struct{}

var errFailingRunner = errors.New("the failing runner allocates nothing")

func (failingRunner) Allocate(context.Context, *corev1.Node, []*Claim) (bool, []*resource.AllocationResult, error) {
	return false, nil, nil
}
func (failingRunner) Failure() error                      { return errFailingRunner }
func (failingRunner) Commit([]*resource.AllocationResult) {}
func (failingRunner) Reset()                              {}

// grantingRunner allocates every claim, with no devices.
type grantingRunner struct{}

func (grantingRunner) Allocate(_ context.Context, _ *corev1.Node, claims []*Claim) (bool, []*resource.AllocationResult, error) {
	out := make([]*resource.AllocationResult, len(claims))
	for i := range out {
		out[i] = &resource.AllocationResult{}
	}
	return true, out, nil
}
func (grantingRunner) Commit([]*resource.AllocationResult) {}
func (grantingRunner) Reset()                              {}

// TestRunOpHoldsOperationsToTheirScenario shows that the harness fails an
// allocator that fails where a scenario expects success, which before
// passed silently where operations try node after node (firstFit and
// the others took "no node fits" for a full cluster and asked for a fresh
// runner), and one that allocates in an impossible scenario. The check is
// the harness's own: a scenario whose operation reports nothing itself is
// held to its expectation too.
func TestRunOpHoldsOperationsToTheirScenario(t *testing.T) {
	rec := &recordingRunner{}
	for _, sc := range BenchScenarios() {
		inv := sc.Inventory()
		_, err := runOp(context.Background(), sc, rec, failingRunner{}, inv, 0)
		switch {
		case sc.Impossible && err != nil:
			t.Errorf("%s with a runner that fails: %v", sc.Name, err)
		case sc.Impossible:
		case err == nil:
			t.Errorf("%s: a runner that always fails passed", sc.Name)
		default:
			for _, want := range []string{"scenario " + sc.Name + ",", errFailingRunner.Error(), "claims "} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s: error %q does not name %q", sc.Name, err, want)
				}
			}
		}
		_, err = runOp(context.Background(), sc, rec, grantingRunner{}, inv, 0)
		if sc.Impossible && (err == nil || !strings.Contains(err.Error(), "scenario "+sc.Name+",")) {
			t.Errorf("%s: a runner that allocates everything: error %v", sc.Name, err)
		}
	}

	// Scenarios whose operations trust the harness: they report neither
	// failure nor success themselves.
	node := Node("n0", nil)
	claim := NewClaim(ResourceClaim("c", Request("r", "gpu")))
	silent := func(sc BenchScenario) BenchScenario {
		sc.Op = func(ctx context.Context, r Runner, inv *Inventory, i int) (bool, error) {
			_, _, err := r.Allocate(ctx, node, []*Claim{claim})
			return true, err
		}
		return sc
	}
	_, err := runOp(context.Background(), silent(BenchScenario{Name: "silent"}), rec, failingRunner{}, nil, 3)
	if want := "scenario silent, operation 3: none of 1 calls allocated, but the scenario expects its operations to succeed; the last: claims c on node n0: " + errFailingRunner.Error(); err == nil || err.Error() != want {
		t.Errorf("silent scenario, failing runner: error %v, want %q", err, want)
	}
	_, err = runOp(context.Background(), silent(BenchScenario{Name: "silent-impossible", Impossible: true}), rec, grantingRunner{}, nil, 0)
	if want := "scenario silent-impossible, operation 0: claims c were allocated on node n0, but the scenario is impossible"; err == nil || err.Error() != want {
		t.Errorf("silent impossible scenario, granting runner: error %v, want %q", err, want)
	}
	for _, tc := range []struct {
		sc BenchScenario
		r  Runner
	}{{silent(BenchScenario{Name: "ok"}), grantingRunner{}}, {silent(BenchScenario{Name: "refuted", Impossible: true}), failingRunner{}}} {
		if _, err := runOp(context.Background(), tc.sc, rec, tc.r, nil, 0); err != nil {
			t.Errorf("%s: %v", tc.sc.Name, err)
		}
	}
}
