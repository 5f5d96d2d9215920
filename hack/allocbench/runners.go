package allocbench

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// newCELCache is upstream's selector cache for the features, shared like
// the scheduler's.
func newCELCache(f allocator.Features) *cel.Cache {
	return cel.NewCache(1000, UpstreamCELFeatures(f))
}

// NewUpstreamAllocator builds an allocator of the named implementation for
// the inventory's features. EnableAllocators is process-wide and not
// thread-safe; the tests and benchmarks of this package run one at a time.
// With only impl enabled, NewAllocator fails when impl does not support
// the features, as the scheduler would never pick it.
func NewUpstreamAllocator(ctx context.Context, impl string, in *upstreamInputs, cache *cel.Cache) (structured.Allocator, error) {
	structured.EnableAllocators(impl)
	a, err := structured.NewAllocator(ctx, UpstreamFeatures(in.features), in.state, in.classes, in.slices, cache)
	if err != nil {
		return nil, fmt.Errorf("upstream %s: %w", impl, err)
	}
	return a, nil
}

// implementationOf names the package of an upstream allocator, to check
// that NewUpstreamAllocator picked the implementation it was asked for.
func implementationOf(a structured.Allocator) string {
	path := reflect.TypeOf(a).Elem().PkgPath()
	return path[strings.LastIndex(path, "/")+1:]
}

// Inventory is a scenario's features, classes, slices, nodes, taint rules
// and devices in use, in drakit's hub form.
type Inventory struct {
	// Features are the allocator features the scenario runs with, for
	// drakit and upstream alike.
	Features allocator.Features
	Classes  []*resource.DeviceClass
	Slices   []*resource.ResourceSlice
	Nodes    []*corev1.Node
	// TaintRules are DeviceTaintRules; with Features.DeviceTaintRules
	// their taints apply to the devices they select.
	TaintRules []*resource.DeviceTaintRule
	// Allocated are devices in use (held whole).
	Allocated []allocator.DeviceID
	// AllocatedClaims are claims with status.allocation: their devices are
	// in use, shares of multi-allocation devices consume capacity.
	AllocatedClaims []*resource.ResourceClaim
}

// Runner allocates claims on a node with one of the allocators and
// remembers committed allocations, so that a benchmark can drive all alike.
type Runner interface {
	// Allocate allocates the claims together on the node; ok is false when
	// they cannot be allocated; err is an error of the allocator itself.
	// The results are in hub form, one per claim.
	Allocate(ctx context.Context, node *corev1.Node, claims []*Claim) (ok bool, results []*resource.AllocationResult, err error)
	// Commit records allocations as in use for later calls.
	Commit(results []*resource.AllocationResult)
	// Reset forgets the committed allocations (keeping what the allocator
	// learnt about the inventory, as a long-running scheduler would).
	Reset()
}

// failureReporter is a Runner that can say why its last Allocate found no
// allocation (upstream's allocator does not say).
type failureReporter interface {
	Failure() error
}

// failureOf is why r's last Allocate found no allocation, or nil when r
// does not say.
func failureOf(r Runner) error {
	if f, ok := r.(failureReporter); ok {
		return f.Failure()
	}
	return nil
}

// describeFailure renders failureOf's answer.
func describeFailure(err error) string {
	if err == nil {
		return "no allocation (the allocator gives no reason)"
	}
	return err.Error()
}

// DeviceIDs lists the devices of an allocation, in result order.
func DeviceIDs(r *resource.AllocationResult) []allocator.DeviceID {
	var out []allocator.DeviceID
	for _, d := range r.Devices.Results {
		out = append(out, allocator.DeviceID{Driver: d.Driver, Pool: d.Pool, Device: d.Device})
	}
	return out
}

// Claim is a claim in both forms.
type Claim struct {
	Hub      *resource.ResourceClaim
	Upstream *resourceapi.ResourceClaim
}

// NewClaim translates a hub claim once.
func NewClaim(c *resource.ResourceClaim) *Claim {
	return &Claim{Hub: c, Upstream: toV1Claim(c)}
}

// DrakitRunner drives drakit's allocator.
type DrakitRunner struct {
	A         *allocator.Allocator
	committed []*resource.AllocationResult
	// LastErr is why the last failed Allocate failed.
	LastErr error
}

// NewDrakitRunner builds drakit's allocator for an inventory.
func NewDrakitRunner(inv *Inventory) (*DrakitRunner, error) {
	a, err := allocator.New(drakitOptions(inv, nil))
	if err != nil {
		return nil, err
	}
	return &DrakitRunner{A: a}, nil
}

func (r *DrakitRunner) Allocate(ctx context.Context, node *corev1.Node, claims []*Claim) (bool, []*resource.AllocationResult, error) {
	r.LastErr = nil
	hub := make([]*resource.ResourceClaim, len(claims))
	for i, c := range claims {
		hub[i] = c.Hub
	}
	results, err := r.A.AllocateOn(ctx, node, hub)
	if err != nil {
		return false, nil, err
	}
	out := make([]*resource.AllocationResult, len(results))
	for i, res := range results {
		if res.Err != nil {
			r.LastErr = res.Err
			return false, nil, nil
		}
		out[i] = res.Allocation
	}
	return true, out, nil
}

// Failure is why the last Allocate found no allocation.
func (r *DrakitRunner) Failure() error { return r.LastErr }

func (r *DrakitRunner) Commit(results []*resource.AllocationResult) {
	drakitCommit(r.A, results)
	r.committed = append(r.committed, results...)
}

func (r *DrakitRunner) Reset() {
	drakitUncommit(r.A, r.committed)
	r.committed = nil
}

// UpstreamRunner drives one implementation of upstream's structured
// allocator the way the scheduler does: one Allocator per pod (built in
// PreFilter from the allocated state at that time) that Filter then asks
// node by node, and a CEL cache shared by all. Here "per pod" means: a new
// Allocator after every change of the allocated state (Commit, Reset).
type UpstreamRunner struct {
	impl    string
	in      *upstreamInputs
	cache   *cel.Cache
	current structured.Allocator
}

// NewUpstreamRunner drives the named implementation on an inventory
// translated by toUpstream. The runner adds its commits to in's allocated
// state and puts back the inventory's own on Reset.
func NewUpstreamRunner(impl string, in *upstreamInputs) *UpstreamRunner {
	return &UpstreamRunner{impl: impl, in: in, cache: newCELCache(in.features)}
}

func (r *UpstreamRunner) Allocate(ctx context.Context, node *corev1.Node, claims []*Claim) (bool, []*resource.AllocationResult, error) {
	if r.current == nil {
		a, err := NewUpstreamAllocator(ctx, r.impl, r.in, r.cache)
		if err != nil {
			return false, nil, err
		}
		r.current = a
	}
	up := make([]*resourceapi.ResourceClaim, len(claims))
	for i, c := range claims {
		up[i] = c.Upstream
	}
	results, err := r.current.Allocate(ctx, node, up)
	if err != nil {
		return false, nil, fmt.Errorf("upstream %s: %w", r.impl, err)
	}
	if results == nil {
		return false, nil, nil
	}
	out := make([]*resource.AllocationResult, len(results))
	for i := range results {
		out[i] = fromV1Allocation(&results[i])
	}
	return true, out, nil
}

func (r *UpstreamRunner) Commit(results []*resource.AllocationResult) {
	for _, res := range results {
		r.in.hold(res)
	}
	r.current = nil
}

func (r *UpstreamRunner) Reset() {
	r.in.resetState()
	r.current = nil
}
