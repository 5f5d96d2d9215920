package verify

import (
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/testobjects"
)

// TestCheckerCompatibilityGroups: with CompatibilityGroups, the devices on
// a counter set, allocated before or now, share a group or all name none.
func TestCheckerCompatibilityGroups(t *testing.T) {
	grouped := func(inv *Inventory, device string, groups ...string) {
		for i := range inv.Slices[1].Spec.Devices {
			if d := &inv.Slices[1].Spec.Devices[i]; d.Name == device {
				d.ConsumesCounters[0].CompatibilityGroups = groups
			}
		}
	}
	two := featureClaim(testobjects.Request("r", "any", testobjects.Count(2)))
	for _, tc := range []struct {
		name   string
		edit   func(*Inventory)
		before []string // devices allocated before
		alloc  *resource.AllocationResult
		errors []string
	}{
		{name: "a shared group", edit: func(inv *Inventory) { grouped(inv, "h1", "a", "b"); grouped(inv, "h2", "b") },
			alloc: allocOf(result("r", "h1"), result("r", "h2"))},
		{name: "no shared group", edit: func(inv *Inventory) { grouped(inv, "h1", "a"); grouped(inv, "h2", "b") },
			alloc: allocOf(result("r", "h1"), result("r", "h2")), errors: []string{"counter set gpu0: devices [h1 h2] share no compatibility group"}},
		{name: "groups and none", edit: func(inv *Inventory) { grouped(inv, "h1", "a") },
			alloc: allocOf(result("r", "h1"), result("r", "h2")), errors: []string{"devices [h2] name no compatibility group, devices [h1] do"}},
		{name: "none at all", edit: func(*Inventory) {}, alloc: allocOf(result("r", "h1"), result("r", "h2"))},
		{name: "a device allocated before", edit: func(inv *Inventory) { grouped(inv, "h1", "a"); grouped(inv, "h2", "b") },
			before: []string{"h1"}, alloc: allocOf(result("r", "h2"), result("r", "n0")), errors: []string{"devices [h1 h2] share no compatibility group"}},
		{name: "without the feature groups are not judged", edit: func(inv *Inventory) {
			grouped(inv, "h1", "a")
			grouped(inv, "h2", "b")
			inv.Features.CompatibilityGroups = false
		}, alloc: allocOf(result("r", "h1"), result("r", "h2"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv := featureInventory()
			inv.Features.CompatibilityGroups = true
			tc.edit(inv)
			if len(tc.before) > 0 {
				var rs []resource.DeviceRequestAllocationResult
				for _, d := range tc.before {
					rs = append(rs, result("old", d))
				}
				inv.Allocations = append(inv.Allocations, allocOf(rs...))
			}
			errs := NewChecker(inv).Check(two, tc.alloc)
			if len(errs) != len(tc.errors) {
				t.Fatalf("errors %v, want %v", errs, tc.errors)
			}
			for i, e := range errs {
				if !strings.Contains(e.Error(), tc.errors[i]) {
					t.Errorf("error %q, want %q", e, tc.errors[i])
				}
			}
		})
	}
}
