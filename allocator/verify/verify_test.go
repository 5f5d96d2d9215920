package verify

import (
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/testobjects"
)

// inventory is one class of the driver d's devices, three on node n1 (b
// already allocated) and one on n2; numa tells them apart for constraints.
func inventory() *Inventory {
	return &Inventory{
		Classes: []*resource.DeviceClass{testobjects.Class("gpu", `device.driver == "d"`)},
		Slices: []*resource.ResourceSlice{
			testobjects.Slice("s", "d", "p", testobjects.OnNode("n1"),
				testobjects.Device("a", testobjects.Attr("numa", 0)), testobjects.Device("b", testobjects.Attr("numa", 0)), testobjects.Device("c", testobjects.Attr("numa", 1))),
			testobjects.Slice("other", "d", "q", testobjects.OnNode("n2"), testobjects.Device("far", testobjects.Attr("numa", 0))),
		},
		InUse: map[DeviceID]bool{{"d", "p", "b"}: true},
		Node:  testobjects.Node("n1"),
	}
}

// claimOf asks for count devices of the class in request r, with the same
// d/numa when constrained.
func claimOf(count int64, constrained bool) *resource.ResourceClaim {
	c := testobjects.Claim("c", testobjects.Request("r", "gpu", testobjects.Count(count)))
	if constrained {
		testobjects.WithConstraint(c, "d/numa")
	}
	return c
}

// allocation holds the devices of driver d, given as "pool/device", for
// request r, on node n1.
func allocation(devices ...string) *resource.AllocationResult {
	full := make([]string, len(devices))
	for i, d := range devices {
		full[i] = "d/" + d
	}
	a := testobjects.Allocation("r", full...)
	a.NodeSelector = testobjects.NodeNameSelector("n1")
	return a
}

func TestChecker(t *testing.T) {
	for _, tc := range []struct {
		name   string
		claim  *resource.ResourceClaim
		alloc  *resource.AllocationResult
		errors []string
	}{
		{name: "valid", claim: claimOf(2, false), alloc: allocation("p/a", "p/c")},
		{name: "in use", claim: claimOf(1, false), alloc: allocation("p/b"), errors: []string{"already allocated"}},
		{name: "other node", claim: claimOf(1, false), alloc: allocation("q/far"), errors: []string{"not a device the node reaches", "0 devices, asks for 1"}},
		{name: "count", claim: claimOf(2, false), alloc: allocation("p/a"), errors: []string{"1 devices, asks for 2"}},
		{name: "twice", claim: claimOf(2, false), alloc: allocation("p/a", "p/a"), errors: []string{"allocated twice"}},
		{name: "constraint", claim: claimOf(2, true), alloc: allocation("p/a", "p/c"), errors: []string{"has a different d/numa"}},
		{name: "first available", claim: func() *resource.ResourceClaim {
			c := claimOf(1, false)
			r := &c.Spec.Devices.Requests[0]
			r.FirstAvailable = []resource.DeviceSubRequest{{Name: "a", DeviceClassName: "gpu"}}
			r.Exactly = nil
			return c
		}(), alloc: allocation("p/a"), errors: []string{`result for unknown request "r"`, "request r: no alternative allocated"}},
		{name: "node selector", claim: claimOf(1, false), alloc: func() *resource.AllocationResult { a := allocation("p/a"); a.NodeSelector = nil; return a }(), errors: []string{"want the node n1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := NewChecker(inventory()).Check(tc.claim, tc.alloc)
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
	// Two claims may not share a device.
	c := NewChecker(inventory())
	if errs := c.Check(claimOf(1, false), allocation("p/a")); len(errs) != 0 {
		t.Fatal(errs)
	}
	if errs := c.Check(claimOf(1, false), allocation("p/a")); len(errs) != 1 || !strings.Contains(errs[0].Error(), "also allocated to") {
		t.Fatal(errs)
	}
}
