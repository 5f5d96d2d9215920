package allocbench

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1beta1"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// Inventory is a scenario's classes, slices, nodes and devices in use, in
// drakit's hub form.
type Inventory struct {
	Classes   []*resource.DeviceClass
	Slices    []*resource.ResourceSlice
	Nodes     []*corev1.Node
	Allocated []allocator.DeviceID
}

// Runner allocates claims on a node with one of the two allocators and
// remembers committed devices, so that a benchmark can drive both alike.
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
	return &Claim{Hub: c, Upstream: toV1beta1Claim(c)}
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

// UpstreamRunner drives k8s.io/dynamic-resource-allocation's structured
// allocator the way the scheduler does: a new Allocator per attempt, with
// the slices, the set of allocated devices and a shared CEL cache.
type UpstreamRunner struct {
	in        *upstreamInputs
	cache     *cel.Cache
	committed []structured.DeviceID
}

// NewUpstreamRunner translates an inventory for upstream's allocator.
func NewUpstreamRunner(inv *Inventory) *UpstreamRunner {
	return &UpstreamRunner{in: toUpstream(inv.Classes, inv.Slices, inv.Allocated), cache: cel.NewCache(1000)}
}

func (r *UpstreamRunner) Allocate(ctx context.Context, node *corev1.Node, claims []*Claim) (bool, [][]allocator.DeviceID, error) {
	up := make([]*resourceapi.ResourceClaim, len(claims))
	for i, c := range claims {
		up[i] = c.Upstream
	}
	a, err := structured.NewAllocator(ctx, upstreamFeatures, up, r.in.allocated, r.in.classes, r.in.slices, r.cache)
	if err != nil {
		return false, nil, err
	}
	results, err := a.Allocate(ctx, node)
	if err != nil {
		return false, nil, fmt.Errorf("upstream: %w", err)
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
}

func (r *UpstreamRunner) Reset() {
	r.in.allocated.Delete(r.committed...)
	r.committed = nil
}
