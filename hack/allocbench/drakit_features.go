package allocbench

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// The one place where the harness meets the parts of drakit's allocator
// API that come with its 1.37 semantics (drakit issue 16): drakit runs
// with the scenario's features and DeviceTaintRules, as upstream does.
// (Before they were merged, drakitSemantics137 was false: drakit ran with
// its 1.31 rules and the differential test counted a drakit Unsupported
// answer on a scenario that used a 1.37 feature as "pending".)
const drakitSemantics137 = true

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

// drakitRelease forgets committed allocations exactly: whole devices are
// free again, shares give back their capacity (other shares stay), and
// adminAccess results held nothing.
func drakitRelease(a *allocator.Allocator, results []*resource.AllocationResult) {
	rs := make([]allocator.Result, len(results))
	for i, r := range results {
		rs[i] = allocator.Result{Allocation: r}
	}
	a.ReleaseResults(rs)
}

// drakitPending reports whether drakit cannot yet run a scenario with
// these features as upstream does: before the merge, any feature beyond
// the 1.31 set.
func drakitPending(f allocator.Features) bool {
	return !drakitSemantics137 && f != LegacyFeatures && f != (allocator.Features{})
}
