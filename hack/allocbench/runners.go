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

// Implementations are upstream's allocator implementations in
// k8s.io/dynamic-resource-allocation v0.37.2 (structured/internal/...),
// each run on its own through structured.EnableAllocators.
var Implementations = []string{"stable", "incubating", "experimental"}

// UpstreamFeatures are the allocator features (the scheduler derives them
// from its feature gates) that give Kubernetes 1.31 semantics: only
// AdminAccess (gate DRAAdminAccess), since adminAccess requests exist in
// 1.31 and upstream refuses them without it. Everything that came later is
// off: PrioritizedList, PartitionableDevices, DeviceTaints,
// DeviceBindingAndStatus, ConsumableCapacity, FractionalCapacityRange,
// ListTypeAttributes, OptionalNodeOperations, DerivedAttributes,
// CompatibilityGroups. All three implementations support this set, so
// none needs a gate beyond it: NewAllocator takes the first enabled
// implementation whose supported features cover the requested ones, and
// with EnableAllocators(name) that is exactly the named one.
var UpstreamFeatures = structured.Features{AdminAccess: true}

// UpstreamCELFeatures configure upstream's CEL environment the 1.31 way:
// no device.allowMultipleAllocations (DRAConsumableCapacity) and no list
// attributes (DRAListTypeAttributes).
var UpstreamCELFeatures = cel.Features{}

// newCELCache is upstream's selector cache, shared like the scheduler's.
func newCELCache() *cel.Cache { return cel.NewCache(1000, UpstreamCELFeatures) }

// NewUpstreamAllocator builds an allocator of the named implementation.
// EnableAllocators is process-wide and not thread-safe; the tests and
// benchmarks of this package run one at a time.
func NewUpstreamAllocator(ctx context.Context, impl string, in *upstreamInputs, cache *cel.Cache) (structured.Allocator, error) {
	structured.EnableAllocators(impl)
	a, err := structured.NewAllocator(ctx, UpstreamFeatures, in.state, in.classes, in.slices, cache)
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

// Inventory is a scenario's classes, slices, nodes and devices in use, in
// drakit's hub form.
type Inventory struct {
	Classes   []*resource.DeviceClass
	Slices    []*resource.ResourceSlice
	Nodes     []*corev1.Node
	Allocated []allocator.DeviceID
}

// Runner allocates claims on a node with one of the allocators and
// remembers committed devices, so that a benchmark can drive all alike.
type Runner interface {
	// Allocate allocates the claims together on the node; ok is false when
	// they cannot be allocated; err is an error of the allocator itself.
	Allocate(ctx context.Context, node *corev1.Node, claims []*Claim) (ok bool, devices [][]allocator.DeviceID, err error)
	// Commit marks devices as in use for later calls.
	Commit(devices [][]allocator.DeviceID)
	// Reset forgets the committed devices (keeping what the allocator
	// learnt about the inventory, as a long-running scheduler would).
	Reset()
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
	committed []allocator.DeviceID
	// LastErr is why the last failed Allocate failed.
	LastErr error
}

// NewDrakitRunner builds drakit's allocator for an inventory.
func NewDrakitRunner(inv *Inventory) (*DrakitRunner, error) {
	a, err := allocator.New(allocator.Options{Classes: inv.Classes, Slices: inv.Slices, AllocatedDevices: inv.Allocated})
	if err != nil {
		return nil, err
	}
	return &DrakitRunner{A: a}, nil
}

func (r *DrakitRunner) Allocate(ctx context.Context, node *corev1.Node, claims []*Claim) (bool, [][]allocator.DeviceID, error) {
	hub := make([]*resource.ResourceClaim, len(claims))
	for i, c := range claims {
		hub[i] = c.Hub
	}
	results, err := r.A.AllocateOn(ctx, node, hub)
	if err != nil {
		return false, nil, err
	}
	devices := make([][]allocator.DeviceID, len(results))
	for i, res := range results {
		if res.Err != nil {
			r.LastErr = res.Err
			return false, nil, nil
		}
		for _, d := range res.Allocation.Devices.Results {
			devices[i] = append(devices[i], allocator.DeviceID{Driver: d.Driver, Pool: d.Pool, Device: d.Device})
		}
	}
	return true, devices, nil
}

func (r *DrakitRunner) Commit(devices [][]allocator.DeviceID) {
	for _, ds := range devices {
		r.A.MarkAllocated(ds...)
		r.committed = append(r.committed, ds...)
	}
}

func (r *DrakitRunner) Reset() {
	r.A.Release(r.committed...)
	r.committed = nil
}

// UpstreamRunner drives one implementation of upstream's structured
// allocator the way the scheduler does: one Allocator per pod (built in
// PreFilter from the devices in use at that time) that Filter then asks
// node by node, and a CEL cache shared by all. Here "per pod" means: a new
// Allocator after every change of the devices in use (Commit, Reset).
type UpstreamRunner struct {
	impl      string
	in        *upstreamInputs
	cache     *cel.Cache
	current   structured.Allocator
	committed []structured.DeviceID
}

// NewUpstreamRunner drives the named implementation on an inventory
// translated by toUpstream. The runner adds its commits to in's set of
// devices in use and takes them out again on Reset.
func NewUpstreamRunner(impl string, in *upstreamInputs) *UpstreamRunner {
	return &UpstreamRunner{impl: impl, in: in, cache: newCELCache()}
}

func (r *UpstreamRunner) Allocate(ctx context.Context, node *corev1.Node, claims []*Claim) (bool, [][]allocator.DeviceID, error) {
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
	devices := make([][]allocator.DeviceID, len(results))
	for i, res := range results {
		for _, d := range res.Devices.Results {
			devices[i] = append(devices[i], allocator.DeviceID{Driver: d.Driver, Pool: d.Pool, Device: d.Device})
		}
	}
	return true, devices, nil
}

func (r *UpstreamRunner) Commit(devices [][]allocator.DeviceID) {
	for _, ds := range devices {
		for _, d := range ds {
			id := structured.MakeDeviceID(d.Driver, d.Pool, d.Device)
			r.in.allocated.Insert(id)
			r.committed = append(r.committed, id)
		}
	}
	r.current = nil
}

func (r *UpstreamRunner) Reset() {
	r.in.allocated.Delete(r.committed...)
	r.committed = nil
	r.current = nil
}
