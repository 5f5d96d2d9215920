package allocbench

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// The one place where the harness meets the parts of drakit's allocator
// API that come with its 1.37 semantics (drakit issue 16). Until they are
// merged, drakitSemantics137 is false: drakit runs with its 1.31 rules,
// whatever the scenario's features, and the differential test counts a
// drakit Unsupported answer on a scenario that uses a 1.37 feature as
// "pending" instead of failing.
//
// At the merge: set drakitSemantics137 to true and, in drakitOptions,
// pass the features and the rules (the two commented lines).
const drakitSemantics137 = false

// drakitOptions are drakit's allocator options for an inventory; node may
// be nil (AllocateOn names it per call).
func drakitOptions(inv *Inventory, node *corev1.Node) allocator.Options {
	return allocator.Options{
		Classes:          inv.Classes,
		Slices:           inv.Slices,
		AllocatedDevices: inv.Allocated,
		AllocatedClaims:  inv.AllocatedClaims,
		Node:             node,
		// Features:         &inv.Features,
		// DeviceTaintRules: inv.TaintRules,
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

// drakitRelease forgets committed allocations. Commit marks every device
// of a result (1.31 has no shares), so every device is released.
func drakitRelease(a *allocator.Allocator, results []*resource.AllocationResult) {
	for _, r := range results {
		a.Release(DeviceIDs(r)...)
	}
}

// drakitPending reports whether drakit cannot yet run a scenario with
// these features as upstream does: before the merge, any feature beyond
// the 1.31 set.
func drakitPending(f allocator.Features) bool {
	return !drakitSemantics137 && f != LegacyFeatures && f != (allocator.Features{})
}
