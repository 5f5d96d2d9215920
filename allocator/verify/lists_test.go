package verify

import (
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/testobjects"
)

// TestCheckerListConstraints: with ListTypeAttributes, constraints compare
// sets. Each wrong answer is one that the element-by-element comparison
// (or a pairwise one) would judge differently.
func TestCheckerListConstraints(t *testing.T) {
	links := func(v any) testobjects.Entry { return testobjects.Attr("links", v) }
	inv := func(lists bool) *Inventory {
		return &Inventory{
			Classes: []*resource.DeviceClass{testobjects.Class("any", `true`)},
			Slices: []*resource.ResourceSlice{testobjects.Slice("s", "d", "p", testobjects.OnNode("n1"),
				testobjects.Device("a12", links([]int64{1, 2})),
				testobjects.Device("a23", links([]int64{2, 3})),
				testobjects.Device("a13", links([]int64{1, 3})),
				testobjects.Device("s2", links(2)),
				testobjects.Device("x2", links([]string{"2"})),
				testobjects.Device("empty", links([]int64{})),
			)},
			Node:     testobjects.Node("n1"),
			Features: Features{ListTypeAttributes: lists, PrioritizedList: true},
		}
	}
	match := func() *resource.ResourceClaim {
		return testobjects.WithConstraint(testobjects.Claim("c", testobjects.Request("r", "any", testobjects.Count(3))), "d/links")
	}
	unlike := func() *resource.ResourceClaim {
		c := testobjects.Claim("c", testobjects.Request("r", "any", testobjects.Count(3)))
		a := resource.FullyQualifiedName("d/links")
		c.Spec.Devices.Constraints = []resource.DeviceConstraint{{DistinctAttribute: &a}}
		return c
	}
	for _, tc := range []struct {
		name   string
		lists  bool
		claim  *resource.ResourceClaim
		alloc  *resource.AllocationResult
		errors []string
	}{
		{name: "match: a common element", lists: true, claim: match(), alloc: allocOfRequest("r", "a12", "a23", "s2")},
		{name: "match: pairwise overlap is not enough", lists: true, claim: match(), alloc: allocOfRequest("r", "a12", "a23", "a13"),
			errors: []string{"device d/p/a13 has no value of d/links in common"}},
		{name: "match: types differ", lists: true, claim: match(), alloc: allocOfRequest("r", "a12", "a23", "x2"),
			errors: []string{"device d/p/x2 has no value of d/links in common"}},
		{name: "match: an empty list is no value", lists: true, claim: match(), alloc: allocOfRequest("r", "a12", "a23", "empty"),
			errors: []string{"device d/p/empty lacks d/links"}},
		{name: "match without ListTypeAttributes compares whole values", lists: false, claim: match(), alloc: allocOfRequest("r", "a12", "a23", "s2"),
			errors: []string{"device d/p/a23 has a different d/links", "device d/p/s2 has a different d/links"}},
		{name: "distinct: disjoint sets", lists: true, claim: unlike(), alloc: allocOfRequest("r", "a13", "s2", "x2")},
		{name: "distinct: a shared element", lists: true, claim: unlike(), alloc: allocOfRequest("r", "a12", "a13", "x2"),
			errors: []string{"device d/p/a13 shares a value of d/links with device d/p/a12"}},
		{name: "distinct: a single value inside a list", lists: true, claim: unlike(), alloc: allocOfRequest("r", "a13", "a23", "s2"),
			errors: []string{"device d/p/a23 shares a value of d/links with device d/p/a13", "device d/p/s2 shares a value of d/links with device d/p/a23"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := NewChecker(inv(tc.lists)).Check(tc.claim, tc.alloc)
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
