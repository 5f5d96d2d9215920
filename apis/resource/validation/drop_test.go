package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/api/resource/v1alpha3"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/apis/resource/features"
)

// allOn has every gate that covers a field on.
func allOn(t *testing.T) features.Gates {
	g, err := features.Parse("AllAlpha=true")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// allOnExcept is allOn with the named gates off (ignoring locks).
func allOnExcept(t *testing.T, names ...features.Name) features.Gates {
	g := allOn(t)
	for _, n := range names {
		g = g.With(n, false)
	}
	return g
}

// warningLine is the String of a warning for path and gates.
func warningLine(path string, gates ...features.Name) string {
	return DropWarning{Path: path, Gates: gates}.String()
}

func warningLines(ws []DropWarning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.String()
	}
	return out
}

func expectWarnings(t *testing.T, got []DropWarning, want []string) {
	t.Helper()
	g := warningLines(got)
	if strings.Join(g, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n  %s\nwant:\n  %s", strings.Join(g, "\n  "), strings.Join(want, "\n  "))
	}
}

func expectEqual(t *testing.T, got, want any) {
	t.Helper()
	if !equality.Semantic.DeepEqual(got, want) {
		t.Errorf("object after dropping:\n%+v\nwant:\n%+v", got, want)
	}
}

func TestDropWarningString(t *testing.T) {
	for _, tc := range []struct {
		w    DropWarning
		want string
	}{
		{DropWarning{Path: "spec.devices.requests[0].firstAvailable", Gates: []features.Name{features.DRAPrioritizedList}},
			"spec.devices.requests[0].firstAvailable: dropped: the DRAPrioritizedList feature gate is off on this cluster"},
		{DropWarning{Path: "spec.devices[0].bindsToNode", Gates: []features.Name{features.DRADeviceBindingConditions, features.DRAResourceClaimDeviceStatus}},
			"spec.devices[0].bindsToNode: dropped: the DRADeviceBindingConditions and DRAResourceClaimDeviceStatus feature gates are off on this cluster"},
		{DropWarning{Path: "status.devices[1]", Reason: reasonNoLongerAllocated},
			"status.devices[1]: dropped: the device is no longer allocated to the claim"},
	} {
		if got := tc.w.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
		if strings.Contains(tc.w.String(), "\n") {
			t.Errorf("more than one line: %q", tc.w.String())
		}
	}
}

func someToleration() resourcev1.DeviceToleration {
	return resourcev1.DeviceToleration{Key: "example.com/k", Operator: resourcev1.DeviceTolerationOpExists}
}

func someCapacityRequest() *resourcev1.CapacityRequirements {
	return &resourcev1.CapacityRequirements{Requests: map[resourcev1.QualifiedName]resource.Quantity{"memory": resource.MustParse("1Gi")}}
}

func someDerivedAttributes() []resourcev1.DeviceDerivedAttribute {
	return []resourcev1.DeviceDerivedAttribute{{Name: "dra.example.com/x", Expression: `device.attributes["dra.example.com"].model`}}
}

// fullSpec uses every gated field of a claim spec.
func fullSpec() resourcev1.ResourceClaimSpec {
	return resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{
		Requests: []resourcev1.DeviceRequest{
			{Name: "a", Exactly: &resourcev1.ExactDeviceRequest{
				DeviceClassName:   "gpu",
				AdminAccess:       ptr(true),
				Tolerations:       []resourcev1.DeviceToleration{someToleration()},
				Capacity:          someCapacityRequest(),
				DerivedAttributes: someDerivedAttributes(),
			}},
			{Name: "b", FirstAvailable: []resourcev1.DeviceSubRequest{
				{Name: "s0", DeviceClassName: "gpu", Tolerations: []resourcev1.DeviceToleration{someToleration()}, Capacity: someCapacityRequest(), DerivedAttributes: someDerivedAttributes()},
				{Name: "s1", DeviceClassName: "gpu"},
			}},
			{Name: "c", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu"}},
		},
		Constraints: []resourcev1.DeviceConstraint{
			{DistinctAttribute: ptr(resourcev1.FullyQualifiedName("dra.example.com/x"))},
			{MatchAttribute: ptr(resourcev1.FullyQualifiedName("dra.example.com/y"))},
		},
	}}
}

// specCases are the claim spec rules: the gates that are off, the
// warnings (paths relative to the claim spec) and the expected spec.
var specCases = []struct {
	name  string
	off   []features.Name
	want  [][2]string // path, gate
	clear func(*resourcev1.ResourceClaimSpec)
	// stripOld removes the feature from an old object, so that an
	// update drops as a create does.
	stripOld func(*resourcev1.ResourceClaimSpec)
}{
	{
		name: "prioritized list",
		off:  []features.Name{features.DRAPrioritizedList},
		want: [][2]string{{"devices.requests[1].firstAvailable", "DRAPrioritizedList"}},
		clear: func(s *resourcev1.ResourceClaimSpec) {
			s.Devices.Requests[1].FirstAvailable = nil
		},
		stripOld: func(s *resourcev1.ResourceClaimSpec) { s.Devices.Requests = s.Devices.Requests[:1] },
	},
	{
		name: "device taints",
		off:  []features.Name{features.DRADeviceTaints, features.DRADeviceTaintRules},
		want: [][2]string{
			{"devices.requests[0].exactly.tolerations", "DRADeviceTaints"},
			{"devices.requests[1].firstAvailable[0].tolerations", "DRADeviceTaints"},
		},
		clear: func(s *resourcev1.ResourceClaimSpec) {
			s.Devices.Requests[0].Exactly.Tolerations = nil
			s.Devices.Requests[1].FirstAvailable[0].Tolerations = nil
		},
		stripOld: func(s *resourcev1.ResourceClaimSpec) {
			s.Devices.Requests[0].Exactly.Tolerations = nil
			s.Devices.Requests[1].FirstAvailable[0].Tolerations = nil
		},
	},
	{
		name: "prioritized list first, then taints",
		off:  []features.Name{features.DRAPrioritizedList, features.DRADeviceTaints, features.DRADeviceTaintRules},
		want: [][2]string{
			{"devices.requests[1].firstAvailable", "DRAPrioritizedList"},
			{"devices.requests[0].exactly.tolerations", "DRADeviceTaints"},
		},
		clear: func(s *resourcev1.ResourceClaimSpec) {
			s.Devices.Requests[1].FirstAvailable = nil
			s.Devices.Requests[0].Exactly.Tolerations = nil
		},
		stripOld: func(s *resourcev1.ResourceClaimSpec) {
			s.Devices.Requests = s.Devices.Requests[:1]
			s.Devices.Requests[0].Exactly.Tolerations = nil
		},
	},
	{
		name: "admin access",
		off:  []features.Name{features.DRAAdminAccess},
		want: [][2]string{{"devices.requests[0].exactly.adminAccess", "DRAAdminAccess"}},
		clear: func(s *resourcev1.ResourceClaimSpec) {
			s.Devices.Requests[0].Exactly.AdminAccess = nil
		},
		stripOld: func(s *resourcev1.ResourceClaimSpec) { s.Devices.Requests[0].Exactly.AdminAccess = nil },
	},
	{
		name: "consumable capacity",
		off:  []features.Name{features.DRAConsumableCapacity, features.DRAFractionalCapacityRange},
		want: [][2]string{
			{"devices.constraints[0].distinctAttribute", "DRAConsumableCapacity"},
			{"devices.requests[0].exactly.capacity", "DRAConsumableCapacity"},
			{"devices.requests[1].firstAvailable[0].capacity", "DRAConsumableCapacity"},
		},
		clear: func(s *resourcev1.ResourceClaimSpec) {
			s.Devices.Constraints[0].DistinctAttribute = nil
			s.Devices.Requests[0].Exactly.Capacity = nil
			s.Devices.Requests[1].FirstAvailable[0].Capacity = nil
		},
		stripOld: func(s *resourcev1.ResourceClaimSpec) {
			s.Devices.Constraints[0].DistinctAttribute = nil
			s.Devices.Requests[0].Exactly.Capacity = nil
			s.Devices.Requests[1].FirstAvailable[0].Capacity = nil
		},
	},
	{
		name: "derived attributes",
		off:  []features.Name{features.DRADerivedAttributes},
		want: [][2]string{
			{"devices.requests[0].exactly.derivedAttributes", "DRADerivedAttributes"},
			{"devices.requests[1].firstAvailable[0].derivedAttributes", "DRADerivedAttributes"},
		},
		clear: func(s *resourcev1.ResourceClaimSpec) {
			s.Devices.Requests[0].Exactly.DerivedAttributes = nil
			s.Devices.Requests[1].FirstAvailable[0].DerivedAttributes = nil
		},
		stripOld: func(s *resourcev1.ResourceClaimSpec) {
			s.Devices.Requests[0].Exactly.DerivedAttributes = nil
			s.Devices.Requests[1].FirstAvailable[0].DerivedAttributes = nil
		},
	},
}

// claimSpecDropper drops the disabled fields of spec (old nil: a create)
// through one entry point and returns the spec as dropped and the
// warnings, whose paths start with prefix.
type claimSpecDropper struct {
	prefix string
	drop   func(spec, old *resourcev1.ResourceClaimSpec, g features.Gates) (resourcev1.ResourceClaimSpec, []DropWarning)
}

// claimSpecDroppers are the entry points for a claim spec: the claim's and
// the template's own functions, and the dispatcher.
func claimSpecDroppers(t *testing.T) []claimSpecDropper {
	claimOf := func(s resourcev1.ResourceClaimSpec) *resourcev1.ResourceClaim {
		return &resourcev1.ResourceClaim{Spec: s}
	}
	templateOf := func(s resourcev1.ResourceClaimSpec) *resourcev1.ResourceClaimTemplate {
		return &resourcev1.ResourceClaimTemplate{Spec: resourcev1.ResourceClaimTemplateSpec{Spec: s}}
	}
	return []claimSpecDropper{
		{"spec.", func(spec, old *resourcev1.ResourceClaimSpec, g features.Gates) (resourcev1.ResourceClaimSpec, []DropWarning) {
			c := claimOf(*spec)
			var o *resourcev1.ResourceClaim
			if old != nil {
				o = claimOf(*old)
			}
			return c.Spec, DropDisabledResourceClaimFieldsV1(c, o, g)
		}},
		{"spec.spec.", func(spec, old *resourcev1.ResourceClaimSpec, g features.Gates) (resourcev1.ResourceClaimSpec, []DropWarning) {
			c := templateOf(*spec)
			var o *resourcev1.ResourceClaimTemplate
			if old != nil {
				o = templateOf(*old)
			}
			return c.Spec.Spec, DropDisabledResourceClaimTemplateFieldsV1(c, o, g)
		}},
		{"spec.", func(spec, old *resourcev1.ResourceClaimSpec, g features.Gates) (resourcev1.ResourceClaimSpec, []DropWarning) {
			c := claimOf(*spec)
			var w []DropWarning
			var err error
			if old != nil {
				w, err = DropDisabledFieldsV1(c, claimOf(*old), g)
			} else {
				w, err = DropDisabledFieldsV1(c, nil, g)
			}
			if err != nil {
				t.Fatal(err)
			}
			return c.Spec, w
		}},
	}
}

func TestDropClaimSpec(t *testing.T) {
	for _, k := range claimSpecDroppers(t) {
		// Everything on: nothing changes.
		s := fullSpec()
		got, w := k.drop(&s, nil, allOn(t))
		expectWarnings(t, w, nil)
		expectEqual(t, got, fullSpec())

		for _, tc := range specCases {
			t.Run(k.prefix+tc.name, func(t *testing.T) {
				g := allOnExcept(t, tc.off...)
				var want []string
				for _, w := range tc.want {
					want = append(want, warningLine(k.prefix+w[0], features.Name(w[1])))
				}
				wantSpec := fullSpec()
				tc.clear(&wantSpec)

				// Create.
				s := fullSpec()
				got, w := k.drop(&s, nil, g)
				expectWarnings(t, w, want)
				expectEqual(t, got, wantSpec)

				// Update whose old object does not use the feature.
				old := fullSpec()
				tc.stripOld(&old)
				s = fullSpec()
				got, w = k.drop(&s, &old, g)
				expectWarnings(t, w, want)
				expectEqual(t, got, wantSpec)

				// Update whose old object uses it: kept.
				old = fullSpec()
				s = fullSpec()
				got, w = k.drop(&s, &old, g)
				expectWarnings(t, w, nil)
				expectEqual(t, got, fullSpec())
			})
		}
	}
}

// The old object is looked at as a whole: a feature used by another
// request keeps the field in every request.
func TestDropClaimSpecInUseAnywhere(t *testing.T) {
	old := &resourcev1.ResourceClaim{Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{
		{Name: "z", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu", AdminAccess: ptr(false)}},
	}}}}
	claim := &resourcev1.ResourceClaim{Spec: fullSpec()}
	w := DropDisabledResourceClaimFieldsV1(claim, old, allOnExcept(t, features.DRAAdminAccess))
	expectWarnings(t, w, nil)
	if claim.Spec.Devices.Requests[0].Exactly.AdminAccess == nil {
		t.Error("adminAccess dropped although the old claim uses admin access")
	}
	// Default gates drop nothing from a claim.
	claim = &resourcev1.ResourceClaim{Spec: fullSpec()}
	w = DropDisabledResourceClaimFieldsV1(claim, nil, features.Defaults().With(features.DRADerivedAttributes, true))
	expectWarnings(t, w, nil)
	// An empty list is cleared too, with a warning.
	claim = &resourcev1.ResourceClaim{Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{
		{Name: "a", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu", DerivedAttributes: []resourcev1.DeviceDerivedAttribute{}}},
	}}}}
	w = DropDisabledResourceClaimFieldsV1(claim, nil, features.Defaults())
	expectWarnings(t, w, []string{warningLine("spec.devices.requests[0].exactly.derivedAttributes", features.DRADerivedAttributes)})
	if claim.Spec.Devices.Requests[0].Exactly.DerivedAttributes != nil {
		t.Error("empty derivedAttributes kept")
	}
}

// fullStatusClaim uses every gated status field.
func fullStatusClaim() *resourcev1.ResourceClaim {
	return &resourcev1.ResourceClaim{
		Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{
			{Name: "a", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu"}},
			{Name: "b", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu"}},
		}}},
		Status: resourcev1.ResourceClaimStatus{
			Allocation: &resourcev1.AllocationResult{Devices: resourcev1.DeviceAllocationResult{Results: []resourcev1.DeviceRequestAllocationResult{
				{
					Request: "a", Driver: "dra.example.com", Pool: "p", Device: "dev0",
					AdminAccess:              ptr(true),
					ShareID:                  ptr(types.UID("u1")),
					ConsumedCapacity:         map[resourcev1.QualifiedName]resource.Quantity{"memory": resource.MustParse("1Gi")},
					BindingConditions:        []string{"ready"},
					BindingFailureConditions: []string{"failed"},
					SkipNodeOperations:       []resourcev1.SkipNodeOperation{resourcev1.SkipNodeOperationAll},
				},
				{Request: "b", Driver: "dra.example.com", Pool: "p", Device: "dev1"},
			}}},
			Devices: []resourcev1.AllocatedDeviceStatus{
				{Driver: "dra.example.com", Pool: "p", Device: "dev0", ShareID: ptr("u1")},
				{Driver: "dra.example.com", Pool: "p", Device: "dev1"},
			},
		},
	}
}

// claimStatusDropCase is one status rule: the gates that are off, the
// warnings, what clear takes out of fullStatusClaim, and what stripOld
// takes out of the stored claim so that it does not use the feature.
type claimStatusDropCase struct {
	name     string
	off      []features.Name
	want     []string
	clear    func(*resourcev1.ResourceClaim)
	stripOld func(*resourcev1.ResourceClaim)
}

// claimStatusDropCases has one case per status rule, in the server's order.
func claimStatusDropCases() []claimStatusDropCase {
	res := func(c *resourcev1.ResourceClaim) *resourcev1.DeviceRequestAllocationResult {
		return &c.Status.Allocation.Devices.Results[0]
	}
	return []claimStatusDropCase{
		{
			name:  "device status",
			off:   []features.Name{features.DRAResourceClaimDeviceStatus, features.DRADeviceBindingConditions, features.DRAResourceClaimGranularStatusAuthorization},
			want:  []string{warningLine("status.devices", features.DRAResourceClaimDeviceStatus)},
			clear: func(c *resourcev1.ResourceClaim) { c.Status.Devices = nil },
			// The old claim has binding conditions, so that only
			// status.devices goes.
			stripOld: func(c *resourcev1.ResourceClaim) { c.Status.Devices = nil },
		},
		{
			name:     "admin access",
			off:      []features.Name{features.DRAAdminAccess},
			want:     []string{warningLine("status.allocation.devices.results[0].adminAccess", features.DRAAdminAccess)},
			clear:    func(c *resourcev1.ResourceClaim) { res(c).AdminAccess = nil },
			stripOld: func(c *resourcev1.ResourceClaim) { res(c).AdminAccess = nil },
		},
		{
			name: "consumable capacity",
			off:  []features.Name{features.DRAConsumableCapacity, features.DRAFractionalCapacityRange},
			want: []string{
				warningLine("status.allocation.devices.results[0].shareID", features.DRAConsumableCapacity),
				warningLine("status.allocation.devices.results[0].consumedCapacity", features.DRAConsumableCapacity),
				warningLine("status.devices[0].shareID", features.DRAConsumableCapacity),
			},
			clear: func(c *resourcev1.ResourceClaim) {
				res(c).ShareID, res(c).ConsumedCapacity, c.Status.Devices[0].ShareID = nil, nil, nil
			},
			stripOld: func(c *resourcev1.ResourceClaim) {
				res(c).ShareID, res(c).ConsumedCapacity, c.Status.Devices[0].ShareID = nil, nil, nil
			},
		},
		{
			name: "binding conditions",
			off:  []features.Name{features.DRADeviceBindingConditions},
			want: []string{
				warningLine("status.allocation.devices.results[0].bindingConditions", features.DRADeviceBindingConditions),
				warningLine("status.allocation.devices.results[0].bindingFailureConditions", features.DRADeviceBindingConditions),
			},
			clear: func(c *resourcev1.ResourceClaim) {
				res(c).BindingConditions, res(c).BindingFailureConditions = nil, nil
			},
			stripOld: func(c *resourcev1.ResourceClaim) {
				res(c).BindingConditions, res(c).BindingFailureConditions = nil, nil
			},
		},
		{
			name:     "optional node operations",
			off:      []features.Name{features.DRAOptionalNodeOperations},
			want:     []string{warningLine("status.allocation.devices.results[0].skipNodeOperations", features.DRAOptionalNodeOperations)},
			clear:    func(c *resourcev1.ResourceClaim) { res(c).SkipNodeOperations = nil },
			stripOld: func(c *resourcev1.ResourceClaim) { res(c).SkipNodeOperations = nil },
		},
	}
}

func TestDropClaimStatus(t *testing.T) {
	// Everything on, old = new: nothing changes.
	claim := fullStatusClaim()
	expectWarnings(t, DropDisabledResourceClaimStatusFieldsV1(claim, fullStatusClaim(), allOn(t)), nil)
	expectEqual(t, claim, fullStatusClaim())

	for _, tc := range claimStatusDropCases() {
		t.Run(tc.name, func(t *testing.T) {
			g := allOnExcept(t, tc.off...)
			want := fullStatusClaim()
			tc.clear(want)

			old := fullStatusClaim()
			tc.stripOld(old)
			claim := fullStatusClaim()
			expectWarnings(t, DropDisabledResourceClaimStatusFieldsV1(claim, old, g), tc.want)
			expectEqual(t, claim, want)

			// The old claim uses the feature: kept.
			claim = fullStatusClaim()
			expectWarnings(t, DropDisabledResourceClaimStatusFieldsV1(claim, fullStatusClaim(), g), nil)
			expectEqual(t, claim, fullStatusClaim())
		})
	}

	// Admin access in the old spec keeps adminAccess in the results.
	old := fullStatusClaim()
	old.Status.Allocation.Devices.Results[0].AdminAccess = nil
	old.Spec.Devices.Requests[1].Exactly.AdminAccess = ptr(true)
	claim = fullStatusClaim()
	expectWarnings(t, DropDisabledResourceClaimStatusFieldsV1(claim, old, allOnExcept(t, features.DRAAdminAccess)), nil)

	// The main resource does not drop status fields.
	claim = fullStatusClaim()
	w, err := DropDisabledFieldsV1(claim, nil, features.Defaults().With(features.DRAAdminAccess, false).With(features.DRAConsumableCapacity, false))
	if err != nil {
		t.Fatal(err)
	}
	expectWarnings(t, w, nil)
	expectEqual(t, claim, fullStatusClaim())
}

func TestPruneDeallocatedDevices(t *testing.T) {
	result := func(dev string, share string) resourcev1.DeviceRequestAllocationResult {
		r := resourcev1.DeviceRequestAllocationResult{Request: "a", Driver: "d", Pool: "p", Device: dev}
		if share != "" {
			r.ShareID = ptr(types.UID(share))
		}
		return r
	}
	status := func(dev string, share string) resourcev1.AllocatedDeviceStatus {
		s := resourcev1.AllocatedDeviceStatus{Driver: "d", Pool: "p", Device: dev}
		if share != "" {
			s.ShareID = ptr(share)
		}
		return s
	}
	claimWith := func(results []resourcev1.DeviceRequestAllocationResult, devices ...resourcev1.AllocatedDeviceStatus) *resourcev1.ResourceClaim {
		c := &resourcev1.ResourceClaim{Status: resourcev1.ResourceClaimStatus{Devices: devices}}
		if results != nil {
			c.Status.Allocation = &resourcev1.AllocationResult{Devices: resourcev1.DeviceAllocationResult{Results: results}}
		}
		return c
	}
	pruned := func(i string) string {
		return DropWarning{Path: "status.devices[" + i + "]", Reason: reasonNoLongerAllocated}.String()
	}

	old := claimWith([]resourcev1.DeviceRequestAllocationResult{result("dev0", ""), result("dev1", ""), result("dev2", "")})
	claim := claimWith([]resourcev1.DeviceRequestAllocationResult{result("dev0", "")},
		status("dev0", ""), status("dev1", ""), status("dev2", ""), status("other", ""))
	expectWarnings(t, DropDisabledResourceClaimStatusFieldsV1(claim, old, features.Defaults()), []string{pruned("1"), pruned("2")})
	expectEqual(t, claim.Status.Devices, []resourcev1.AllocatedDeviceStatus{status("dev0", ""), status("other", "")})

	// Deallocation: every entry of the old allocation goes.
	claim = claimWith(nil, status("dev0", ""), status("dev1", ""))
	expectWarnings(t, DropDisabledResourceClaimStatusFieldsV1(claim, old, features.Defaults()), []string{pruned("0"), pruned("1")})
	if claim.Status.Devices != nil {
		t.Errorf("devices %v, want nil", claim.Status.Devices)
	}

	// Shares of one device are devices of their own.
	old = claimWith([]resourcev1.DeviceRequestAllocationResult{result("dev0", "u1"), result("dev0", "u2")})
	claim = claimWith([]resourcev1.DeviceRequestAllocationResult{result("dev0", "u1")}, status("dev0", "u1"), status("dev0", "u2"), status("dev0", ""))
	expectWarnings(t, DropDisabledResourceClaimStatusFieldsV1(claim, old, features.Defaults()), []string{pruned("1")})
	expectEqual(t, claim.Status.Devices, []resourcev1.AllocatedDeviceStatus{status("dev0", "u1"), status("dev0", "")})

	// With DRAResourceClaimDeviceStatus off, pruning happens only if the
	// old claim has device status (else the whole list is dropped).
	noStatus := features.Defaults().With(features.DRAResourceClaimDeviceStatus, false)
	old = claimWith([]resourcev1.DeviceRequestAllocationResult{result("dev0", ""), result("dev1", "")}, status("dev0", ""))
	claim = claimWith([]resourcev1.DeviceRequestAllocationResult{result("dev0", "")}, status("dev0", ""), status("dev1", ""))
	expectWarnings(t, DropDisabledResourceClaimStatusFieldsV1(claim, old, noStatus), []string{pruned("1")})
	old.Status.Devices = nil
	claim = claimWith([]resourcev1.DeviceRequestAllocationResult{result("dev0", "")}, status("dev0", ""), status("dev1", ""))
	expectWarnings(t, DropDisabledResourceClaimStatusFieldsV1(claim, old, noStatus), []string{warningLine("status.devices", features.DRAResourceClaimDeviceStatus)})
}

func fullSlice() *resourcev1.ResourceSlice {
	return &resourcev1.ResourceSlice{Spec: resourcev1.ResourceSliceSpec{
		Driver:                 "dra.example.com",
		Pool:                   resourcev1.ResourcePool{Name: "p", ResourceSliceCount: 1},
		PerDeviceNodeSelection: ptr(true),
		SharedCounters: []resourcev1.CounterSet{{Name: "cs", Counters: map[string]resourcev1.Counter{
			"mem": {Value: resource.MustParse("8Gi")},
		}}},
		PartitionTypeAttribute: ptr(resourcev1.FullyQualifiedName("dra.example.com/profile")),
		SkipNodeOperations:     []resourcev1.SkipNodeOperation{resourcev1.SkipNodeOperationAll},
		Devices: []resourcev1.Device{
			{
				Name: "dev0",
				Attributes: map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{
					"model": {StringValue: ptr("a100")},
					"names": {StringValues: []string{"x"}},
					"ids":   {IntValues: []int64{1, 2}},
				},
				Capacity: map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{
					"memory": {Value: resource.MustParse("8Gi"), RequestPolicy: &resourcev1.CapacityRequestPolicy{Default: ptr(resource.MustParse("1Gi"))}},
					"cores":  {Value: resource.MustParse("4")},
				},
				ConsumesCounters: []resourcev1.DeviceCounterConsumption{{
					CounterSet:          "cs",
					Counters:            map[string]resourcev1.Counter{"mem": {Value: resource.MustParse("1Gi")}},
					CompatibilityGroups: []string{"mig"},
				}},
				NodeName:                 ptr("node-1"),
				Taints:                   []resourcev1.DeviceTaint{{Key: "example.com/t", Effect: resourcev1.DeviceTaintEffectNoSchedule}},
				BindsToNode:              ptr(true),
				BindingConditions:        []string{"ready"},
				BindingFailureConditions: []string{"failed"},
				AllowMultipleAllocations: ptr(true),
				NodeAllocatableResources: map[corev1.ResourceName]resourcev1.NodeAllocatableResource{"cpu": {}},
			},
			{
				Name:       "dev1",
				Attributes: map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{"model": {StringValue: ptr("a100")}},
				AllNodes:   ptr(true),
			},
		},
	}}
}

// sliceDropCase is one slice rule: the gates that are off, the warnings,
// and what clear takes out of fullSlice.
type sliceDropCase struct {
	name  string
	off   []features.Name
	want  []string
	clear func(*resourcev1.ResourceSlice)
}

// sliceDropCases has one case per rule of the slice, in the server's
// order. It is a table, longer than 80 lines for that reason: each case
// reads on its own.
func sliceDropCases() []sliceDropCase {
	dev := func(s *resourcev1.ResourceSlice) *resourcev1.Device { return &s.Spec.Devices[0] }
	binding := []string{"spec.devices[0].bindingConditions", "spec.devices[0].bindingFailureConditions", "spec.devices[0].bindsToNode"}
	bindingLines := func(gates ...features.Name) []string {
		var out []string
		for _, p := range binding {
			out = append(out, warningLine(p, gates...))
		}
		return out
	}
	clearBinding := func(s *resourcev1.ResourceSlice) {
		dev(s).BindingConditions, dev(s).BindingFailureConditions, dev(s).BindsToNode = nil, nil, nil
	}
	clearPartitionable := func(s *resourcev1.ResourceSlice) {
		s.Spec.SharedCounters, s.Spec.PerDeviceNodeSelection = nil, nil
		dev(s).ConsumesCounters, dev(s).NodeName = nil, nil
		s.Spec.Devices[1].AllNodes = nil
	}
	return []sliceDropCase{
		{
			name:  "taints",
			off:   []features.Name{features.DRADeviceTaints, features.DRADeviceTaintRules},
			want:  []string{warningLine("spec.devices[0].taints", features.DRADeviceTaints)},
			clear: func(s *resourcev1.ResourceSlice) { dev(s).Taints = nil },
		},
		{
			name: "partitionable devices",
			off:  []features.Name{features.DRAPartitionableDevices, features.DRADeviceCompatibilityGroups, features.DRAPartitionableDevicesType},
			want: []string{
				warningLine("spec.sharedCounters", features.DRAPartitionableDevices),
				warningLine("spec.perDeviceNodeSelection", features.DRAPartitionableDevices),
				warningLine("spec.devices[0].consumesCounters", features.DRAPartitionableDevices),
				warningLine("spec.devices[0].nodeName", features.DRAPartitionableDevices),
				warningLine("spec.devices[1].allNodes", features.DRAPartitionableDevices),
				// consumesCounters[0].compatibilityGroups went with
				// consumesCounters.
				warningLine("spec.partitionTypeAttribute", features.DRAPartitionableDevicesType),
			},
			clear: func(s *resourcev1.ResourceSlice) {
				clearPartitionable(s)
				s.Spec.PartitionTypeAttribute = nil
			},
		},
		{
			name:  "binding conditions",
			off:   []features.Name{features.DRADeviceBindingConditions},
			want:  bindingLines(features.DRADeviceBindingConditions),
			clear: clearBinding,
		},
		{
			name:  "binding conditions without device status",
			off:   []features.Name{features.DRAResourceClaimDeviceStatus, features.DRAResourceClaimGranularStatusAuthorization, features.DRADeviceBindingConditions},
			want:  bindingLines(features.DRADeviceBindingConditions, features.DRAResourceClaimDeviceStatus),
			clear: clearBinding,
		},
		{
			name: "consumable capacity",
			off:  []features.Name{features.DRAConsumableCapacity, features.DRAFractionalCapacityRange},
			want: []string{
				warningLine("spec.devices[0].allowMultipleAllocations", features.DRAConsumableCapacity),
				warningLine("spec.devices[0].capacity[memory].requestPolicy", features.DRAConsumableCapacity),
			},
			clear: func(s *resourcev1.ResourceSlice) {
				dev(s).AllowMultipleAllocations = nil
				c := dev(s).Capacity["memory"]
				c.RequestPolicy = nil
				dev(s).Capacity["memory"] = c
			},
		},
		{
			name:  "compatibility groups",
			off:   []features.Name{features.DRADeviceCompatibilityGroups},
			want:  []string{warningLine("spec.devices[0].consumesCounters[0].compatibilityGroups", features.DRADeviceCompatibilityGroups)},
			clear: func(s *resourcev1.ResourceSlice) { dev(s).ConsumesCounters[0].CompatibilityGroups = nil },
		},
		{
			name:  "node allocatable resources",
			off:   []features.Name{features.DRANodeAllocatableResources},
			want:  []string{warningLine("spec.devices[0].nodeAllocatableResources", features.DRANodeAllocatableResources)},
			clear: func(s *resourcev1.ResourceSlice) { dev(s).NodeAllocatableResources = nil },
		},
		{
			name: "list type attributes",
			off:  []features.Name{features.DRAListTypeAttributes},
			want: []string{
				warningLine("spec.devices[0].attributes[ids].ints", features.DRAListTypeAttributes),
				warningLine("spec.devices[0].attributes[names].strings", features.DRAListTypeAttributes),
			},
			clear: func(s *resourcev1.ResourceSlice) {
				dev(s).Attributes["ids"] = resourcev1.DeviceAttribute{}
				dev(s).Attributes["names"] = resourcev1.DeviceAttribute{}
			},
		},
		{
			name:  "partitionable devices type",
			off:   []features.Name{features.DRAPartitionableDevicesType},
			want:  []string{warningLine("spec.partitionTypeAttribute", features.DRAPartitionableDevicesType)},
			clear: func(s *resourcev1.ResourceSlice) { s.Spec.PartitionTypeAttribute = nil },
		},
		{
			name:  "optional node operations",
			off:   []features.Name{features.DRAOptionalNodeOperations},
			want:  []string{warningLine("spec.skipNodeOperations", features.DRAOptionalNodeOperations)},
			clear: func(s *resourcev1.ResourceSlice) { s.Spec.SkipNodeOperations = nil },
		},
	}
}

func TestDropResourceSlice(t *testing.T) {
	slice := fullSlice()
	expectWarnings(t, DropDisabledResourceSliceFieldsV1(slice, nil, allOn(t)), nil)
	expectEqual(t, slice, fullSlice())

	for _, tc := range sliceDropCases() {
		t.Run(tc.name, func(t *testing.T) {
			g := allOnExcept(t, tc.off...)
			if err := g.Validate(); err != nil {
				t.Fatalf("test gates: %v", err)
			}
			want := fullSlice()
			tc.clear(want)

			// Create, through the dispatcher.
			slice := fullSlice()
			w, err := DropDisabledFieldsV1(slice, nil, g)
			if err != nil {
				t.Fatal(err)
			}
			expectWarnings(t, w, tc.want)
			expectEqual(t, slice, want)

			// Update from a slice without the features: as a create.
			old := fullSlice()
			tc.clear(old)
			slice = fullSlice()
			expectWarnings(t, DropDisabledResourceSliceFieldsV1(slice, old, g), tc.want)
			expectEqual(t, slice, want)

			// Update from a slice that uses them: kept.
			slice = fullSlice()
			expectWarnings(t, DropDisabledResourceSliceFieldsV1(slice, fullSlice(), g), nil)
			expectEqual(t, slice, fullSlice())
		})
	}
}

// TestDropResourceSliceDefaults: the default gates drop the alpha fields,
// and a feature used by any old device keeps its fields on every device.
func TestDropResourceSliceDefaults(t *testing.T) {
	// With the 1.37 defaults, the alpha fields go.
	slice := fullSlice()
	expectWarnings(t, DropDisabledResourceSliceFieldsV1(slice, nil, features.Defaults()), []string{
		warningLine("spec.devices[0].consumesCounters[0].compatibilityGroups", features.DRADeviceCompatibilityGroups),
		warningLine("spec.devices[0].nodeAllocatableResources", features.DRANodeAllocatableResources),
		warningLine("spec.devices[0].attributes[ids].ints", features.DRAListTypeAttributes),
		warningLine("spec.devices[0].attributes[names].strings", features.DRAListTypeAttributes),
		warningLine("spec.partitionTypeAttribute", features.DRAPartitionableDevicesType),
		warningLine("spec.skipNodeOperations", features.DRAOptionalNodeOperations),
	})
	// A device on another old device keeps the field on every device.
	old := fullSlice()
	old.Spec.Devices[0].Taints = nil
	old.Spec.Devices[1].Taints = []resourcev1.DeviceTaint{{Key: "k", Effect: resourcev1.DeviceTaintEffectNoExecute}}
	slice = fullSlice()
	w := DropDisabledResourceSliceFieldsV1(slice, old, features.Defaults().With(features.DRADeviceTaints, false).With(features.DRADeviceTaintRules, false).With(features.DRAListTypeAttributes, true).With(features.DRADeviceCompatibilityGroups, true).With(features.DRANodeAllocatableResources, true).With(features.DRAResourcePoolStatus, true).With(features.DRAPartitionableDevicesType, true).With(features.DRAOptionalNodeOperations, true))
	expectWarnings(t, w, nil)
}

func TestDropDeviceClass(t *testing.T) {
	full := func() *resourcev1.DeviceClass {
		return &resourcev1.DeviceClass{Spec: resourcev1.DeviceClassSpec{ExtendedResourceName: ptr("example.com/gpu")}}
	}
	off := features.Defaults().With(features.DRAExtendedResource, false)
	c := full()
	w, err := DropDisabledFieldsV1(c, nil, off)
	if err != nil {
		t.Fatal(err)
	}
	expectWarnings(t, w, []string{warningLine("spec.extendedResourceName", features.DRAExtendedResource)})
	if c.Spec.ExtendedResourceName != nil {
		t.Error("kept")
	}
	c = full()
	expectWarnings(t, DropDisabledDeviceClassFieldsV1(c, full(), off), nil)
	c = full()
	expectWarnings(t, DropDisabledDeviceClassFieldsV1(c, nil, features.Defaults()), nil)
	if c.Spec.ExtendedResourceName == nil {
		t.Error("dropped with the gate on")
	}
}

func TestDropResourcePoolStatusRequest(t *testing.T) {
	full := func() *v1alpha3.ResourcePoolStatusRequest {
		r := &v1alpha3.ResourcePoolStatusRequest{}
		r.Spec.DefaultPartitionTypeAttribute = ptr("dra.example.com/profile")
		return r
	}
	r := full()
	expectWarnings(t, DropDisabledResourcePoolStatusRequestFieldsV1alpha3(r, nil, features.Defaults()), []string{warningLine("spec.defaultPartitionTypeAttribute", features.DRAPartitionableDevicesType)})
	if r.Spec.DefaultPartitionTypeAttribute != nil {
		t.Error("kept")
	}
	r = full()
	expectWarnings(t, DropDisabledResourcePoolStatusRequestFieldsV1alpha3(r, full(), features.Defaults()), nil)
	on, err := features.Parse("DRAPartitionableDevicesType=true,DRAResourcePoolStatus=true")
	if err != nil {
		t.Fatal(err)
	}
	r = full()
	expectWarnings(t, DropDisabledResourcePoolStatusRequestFieldsV1alpha3(r, nil, on), nil)
}

func TestDropDisabledFieldsV1Dispatch(t *testing.T) {
	g := features.Defaults()
	// No gated fields.
	if w, err := DropDisabledFieldsV1(&resourcev1.DeviceTaintRule{}, &resourcev1.DeviceTaintRule{}, g); w != nil || err != nil {
		t.Errorf("DeviceTaintRule: %v, %v", w, err)
	}
	// A typed nil old object is a create.
	slice := fullSlice()
	w, err := DropDisabledFieldsV1(slice, (*resourcev1.ResourceSlice)(nil), g)
	if err != nil || len(w) == 0 {
		t.Errorf("typed nil old: %v, %v", w, err)
	}
	// Mismatched and unsupported types.
	if _, err := DropDisabledFieldsV1(fullSlice(), &resourcev1.ResourceClaim{}, g); err == nil || !strings.Contains(err.Error(), "old object is *v1.ResourceClaim, new object *v1.ResourceSlice") {
		t.Errorf("mismatch: %v", err)
	}
	if _, err := DropDisabledFieldsV1(&v1alpha3.ResourcePoolStatusRequest{}, nil, g); err == nil || !strings.Contains(err.Error(), "not a resource.k8s.io/v1 kind") {
		t.Errorf("v1alpha3: %v", err)
	}
}
