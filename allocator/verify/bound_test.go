package verify

import (
	"strings"
	"testing"
	"time"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
)

// TestQuantitiesBeyondTheBound: the checker reports a quantity beyond
// quantityguard's bound, in the inventory, the claim or the allocation,
// with its path, in milliseconds, and compares nothing.
func TestQuantitiesBeyondTheBound(t *testing.T) {
	huge, err := apiresource.ParseQuantity("1e100000000")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for _, tc := range []struct {
		name   string
		change func(inv *Inventory, claim *resource.ResourceClaim, alloc *resource.AllocationResult)
		want   string
	}{
		{"slice capacity", func(inv *Inventory, _ *resource.ResourceClaim, _ *resource.AllocationResult) {
			inv.Slices[0].Spec.Devices[0].Capacity = map[resource.QualifiedName]resource.DeviceCapacity{"memory": {Value: huge}}
		}, `ResourceSlice "s": spec.devices[0].capacity[memory].value: Invalid value: quantity 1e100000000 is out of range`},
		{"earlier allocation", func(inv *Inventory, _ *resource.ResourceClaim, _ *resource.AllocationResult) {
			a := allocation("p/c")
			a.Devices.Results[0].ConsumedCapacity = map[resource.QualifiedName]apiresource.Quantity{"memory": huge}
			inv.Allocations = append(inv.Allocations, a)
		}, `allocation 0: status.allocation.devices.results[0].consumedCapacity[memory]`},
		{"claim", func(_ *Inventory, c *resource.ResourceClaim, _ *resource.AllocationResult) {
			c.Spec.Devices.Requests[0].Exactly.Capacity = &resource.CapacityRequirements{Requests: map[resource.QualifiedName]apiresource.Quantity{"memory": huge}}
		}, `spec.devices.requests[0].exactly.capacity.requests[memory]`},
		{"allocation", func(_ *Inventory, _ *resource.ResourceClaim, a *resource.AllocationResult) {
			a.Devices.Results[0].ConsumedCapacity = map[resource.QualifiedName]apiresource.Quantity{"memory": huge}
		}, `status.allocation.devices.results[0].consumedCapacity[memory]`},
	} {
		inv, claim, alloc := inventory(), claimOf(1, false), allocation("p/a")
		tc.change(inv, claim, alloc)
		errs := NewChecker(inv).Check(claim, alloc)
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.want) {
			t.Errorf("%s: %v, want one error containing %q", tc.name, errs, tc.want)
		}
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}
