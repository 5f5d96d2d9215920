package verify

import (
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/testobjects"
)

// TestCheckerDerivedAttributes: with DerivedAttributes, constraints
// compare a request's derived attribute, evaluated on each of its devices,
// instead of the device's attribute of that name.
func TestCheckerDerivedAttributes(t *testing.T) {
	inv := func(derived bool) *Inventory {
		return &Inventory{
			Classes: []*resource.DeviceClass{testobjects.Class("any", `true`)},
			Slices: []*resource.ResourceSlice{testobjects.Slice("s", "d", "p", testobjects.OnNode("n1"),
				testobjects.Device("i0", testobjects.Attr("index", 0)),
				testobjects.Device("i1", testobjects.Attr("index", 1)),
				testobjects.Device("i2", testobjects.Attr("index", 2)),
			)},
			Node:     testobjects.Node("n1"),
			Features: Features{DerivedAttributes: derived, PrioritizedList: true},
		}
	}
	claim := func(constraint, derivedName, expr string, distinct bool) *resource.ResourceClaim {
		r := testobjects.Request("r", "any", testobjects.Count(2))
		r.Exactly.DerivedAttributes = []resource.DeviceDerivedAttribute{{Name: resource.FullyQualifiedName(derivedName), Expression: expr}}
		c := testobjects.Claim("c", r)
		a := resource.FullyQualifiedName(constraint)
		if distinct {
			c.Spec.Devices.Constraints = []resource.DeviceConstraint{{DistinctAttribute: &a}}
		} else {
			c.Spec.Devices.Constraints = []resource.DeviceConstraint{{MatchAttribute: &a}}
		}
		return c
	}
	const parity = `device.attributes["d"].index % 2`
	for _, tc := range []struct {
		name    string
		derived bool
		claim   *resource.ResourceClaim
		alloc   *resource.AllocationResult
		errors  []string
	}{
		{name: "match on the derived value", derived: true, claim: claim("x/parity", "x/parity", parity, false), alloc: allocOfRequest("r", "i0", "i2")},
		{name: "match on the derived value, which differs", derived: true, claim: claim("x/parity", "x/parity", parity, false), alloc: allocOfRequest("r", "i0", "i1"),
			errors: []string{"device d/p/i1 has a different x/parity"}},
		{name: "the derived value hides the attribute", derived: true, claim: claim("d/index", "d/index", parity, false), alloc: allocOfRequest("r", "i0", "i2")},
		{name: "distinct on the derived value", derived: true, claim: claim("x/parity", "x/parity", parity, true), alloc: allocOfRequest("r", "i0", "i2"),
			errors: []string{"device d/p/i2 has the same x/parity as another device"}},
		{name: "a constraint on another attribute does not use it", derived: true, claim: claim("d/index", "x/parity", parity, true), alloc: allocOfRequest("r", "i0", "i2")},
		{name: "an expression that fails", derived: true, claim: claim("x/y", "x/y", `device.attributes["d"].missing`, false), alloc: allocOfRequest("r", "i0", "i2"),
			errors: []string{"device d/p/i0: derived attribute x/y of request r: expression", "device d/p/i2: derived attribute x/y of request r: expression"}},
		{name: "derived attributes without the feature", derived: false, claim: claim("d/index", "x/parity", parity, true), alloc: allocOfRequest("r", "i0", "i2"),
			errors: []string{"request r: has derived attributes, but the DerivedAttributes feature is off"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := NewChecker(inv(tc.derived)).Check(tc.claim, tc.alloc)
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
