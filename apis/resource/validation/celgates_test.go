package validation

import (
	"testing"

	resourcev1 "k8s.io/api/resource/v1"

	"github.com/drakit/drakit/apis/resource/features"
)

// TestCELGates goes through the registry with the real 1.37 compiler:
// which expressions a new selector or derived attribute may use depends on
// DRAConsumableCapacity (device.allowMultipleAllocations) and
// DRAListTypeAttributes (includes(), list values of derived attributes),
// and a stored expression is not compiled at all, so an expression that
// only the stored environment (all of 1.37's libraries) knows passes an
// update that leaves it alone but not a create or a change: new
// expressions get the environment of compatibility version 1.36.
func TestCELGates(t *testing.T) {
	defaults := features.Defaults() // DRAConsumableCapacity on, DRAListTypeAttributes off
	noConsumable := defaults.With(features.DRAConsumableCapacity, false)
	lists := defaults.With(features.DRAListTypeAttributes, true)
	derivedOn := func(g features.Gates) features.Gates { return g.With(features.DRADerivedAttributes, true) }

	class := func(expr string) *resourcev1.DeviceClass {
		return v1Class(func(c *resourcev1.DeviceClass) { c.Spec.Selectors = []resourcev1.DeviceSelector{cel1(expr)} })
	}
	derived := func(expr string) *resourcev1.ResourceClaim {
		return claimWith(func(d *resourcev1.DeviceClaim) { exact(d).DerivedAttributes[0].Expression = expr })
	}
	const (
		sel = "spec.selectors[0].cel.expression"
		da  = ex0 + ".derivedAttributes[0].expression"
	)
	const (
		multiple = `device.allowMultipleAllocations`
		includes = `device.attributes["dra.example.com"].ids.includes(1)`
		literal  = `[1, 2].includes(1)`
		list     = `[1, 2]`
	)
	cases := []struct {
		name     string
		op       operation
		obj, old interface{}
		gates    features.Gates
		want     []string
	}{
		{name: "allowMultipleAllocations, DRAConsumableCapacity on", obj: class(multiple), gates: defaults},
		{name: "allowMultipleAllocations, DRAConsumableCapacity off", obj: class(multiple), gates: noConsumable, want: []string{"Invalid " + sel}},
		{name: "includes() on a list attribute, DRAListTypeAttributes on", obj: class(includes), gates: lists},
		{name: "includes() on a list attribute, DRAListTypeAttributes off", obj: class(includes), gates: defaults, want: []string{"Invalid " + sel}},
		{name: "derived list value, DRAListTypeAttributes on", obj: derived(list), gates: derivedOn(lists)},
		{name: "derived list value, DRAListTypeAttributes off", obj: derived(list), gates: derivedOn(defaults), want: []string{"Invalid " + da}},
		{name: "derived scalar value, DRAListTypeAttributes off", obj: derived(`device.attributes["dra.example.com"].numa`), gates: derivedOn(defaults)},
		{name: "stored-only library: new on create", obj: class(literal), gates: defaults, want: []string{"Invalid " + sel}},
		{name: "stored-only library: unchanged selectors are stored, not compiled", op: opUpdate,
			obj: v1Class(func(c *resourcev1.DeviceClass) {
				c.Spec.Selectors = []resourcev1.DeviceSelector{cel1(literal)}
				c.Labels = map[string]string{"a": "b"}
			}), old: class(literal), gates: defaults},
		{name: "stored-only library: changed selectors are new", op: opUpdate,
			obj: v1Class(func(c *resourcev1.DeviceClass) {
				c.Spec.Selectors = []resourcev1.DeviceSelector{cel1(literal), cel1(`true`)}
			}), old: class(literal), gates: defaults, want: []string{"Invalid " + sel}},
		{name: "claim update: stored, not compiled", op: opUpdate,
			obj: claimWith(func(d *resourcev1.DeviceClaim) { exact(d).Selectors[0].CEL.Expression = multiple }),
			old: claimWith(func(d *resourcev1.DeviceClaim) { exact(d).Selectors[0].CEL.Expression = multiple }), gates: noConsumable},
		{name: "claim create: the same expression is new", obj: claimWith(func(d *resourcev1.DeviceClaim) { exact(d).Selectors[0].CEL.Expression = multiple }),
			// The gate also drops constraint 1's distinctAttribute,
			// which leaves it without an attribute.
			gates: noConsumable, want: []string{"Invalid " + ex0 + ".selectors[0].cel.expression", "Required spec.devices.constraints[1].matchAttribute"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{FeatureGates: tc.gates}
			obj := tc.obj.(object)
			if tc.op == opUpdate {
				expectErrors(t, ValidateObjectUpdate(obj, tc.old.(object), opts), tc.want...)
				return
			}
			expectErrors(t, ValidateObject(obj, opts), tc.want...)
		})
	}
}
