package allocbench

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// The one place where the harness meets drakit's allocator options: drakit
// runs every scenario with the scenario's features and DeviceTaintRules,
// exactly as upstream does (upstream_features.go), so each scenario compares
// drakit's 1.37 semantics with upstream's.

// drakitOptions are drakit's allocator options for an inventory; node may
// be nil (AllocateOn names it per call).
func drakitOptions(inv *Inventory, node *corev1.Node) allocator.Options {
	return allocator.Options{
		Classes:          inv.Classes,
		Slices:           inv.Slices,
		AllocatedDevices: inv.Allocated,
		AllocatedClaims:  inv.AllocatedClaims,
		Node:             node,
		Features:         &inv.Features,
		DeviceTaintRules: inv.TaintRules,
	}
}

// drakitCommit records accepted allocations as in use.
func drakitCommit(a *allocator.Allocator, results []*resource.AllocationResult) {
	rs := make([]allocator.Result, len(results))
	for i, r := range results {
		rs[i] = allocator.Result{Allocation: r}
	}
	a.Commit(rs)
}

// drakitUncommit forgets committed allocations exactly: whole devices are
// free again, shares give back their capacity (other shares stay), and
// adminAccess results held nothing.
func drakitUncommit(a *allocator.Allocator, results []*resource.AllocationResult) {
	rs := make([]allocator.Result, len(results))
	for i, r := range results {
		rs[i] = allocator.Result{Allocation: r}
	}
	a.Uncommit(rs)
}
