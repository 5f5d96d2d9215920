package features

import (
	"errors"
	"strings"
	"testing"
)

// The column of the gate table of the release drakit follows (1.37): stage
// and default of every DRA gate.
func TestDefaultsOfTheFollowedRelease(t *testing.T) {
	want := map[Name]struct {
		stage   Stage
		on      bool
		locked  bool
		isDRAGa bool
	}{
		DynamicResourceAllocation:                   {GA, true, true, true},
		DRAAdminAccess:                              {GA, true, true, true},
		DRAResourceClaimDeviceStatus:                {GA, true, true, true},
		DRAPrioritizedList:                          {GA, true, true, true},
		DRAPartitionableDevices:                     {Beta, true, false, true},
		DRADeviceTaints:                             {GA, true, false, true},
		DRADeviceTaintRules:                         {GA, true, false, true},
		DRAConsumableCapacity:                       {Beta, true, false, true},
		DRADeviceBindingConditions:                  {Beta, true, false, true},
		DRAExtendedResource:                         {GA, true, true, true},
		DRASchedulerFilterTimeout:                   {Beta, true, false, true},
		DRAListTypeAttributes:                       {Alpha, false, false, true},
		DRANodeAllocatableResources:                 {Alpha, false, false, true},
		DRAResourcePoolStatus:                       {Alpha, false, false, true},
		DRAResourceClaimGranularStatusAuthorization: {Beta, true, false, true},
		DRAWorkloadResourceClaims:                   {Beta, false, false, true},
		DRADerivedAttributes:                        {Alpha, false, false, true},
		DRADeviceCompatibilityGroups:                {Alpha, false, false, true},
		DRAFractionalCapacityRange:                  {Beta, false, false, true},
		DRAOptionalNodeOperations:                   {Alpha, false, false, true},
		DRAPartitionableDevicesType:                 {Alpha, false, false, true},
		GenericWorkload:                             {Beta, false, false, false},
		NodeDeclaredFeatures:                        {GA, true, true, false},
	}
	known := Known()
	if len(known) != len(want) {
		t.Errorf("%d known gates, want %d", len(known), len(want))
	}
	d := Defaults()
	if d != (Gates{}) {
		t.Errorf("Defaults() = %#v, want the zero Gates", d)
	}
	for _, s := range known {
		w, ok := want[s.Name]
		if !ok {
			t.Errorf("unexpected gate %s", s.Name)
			continue
		}
		if s.Stage != w.stage || s.Default != w.on || s.LockedToDefault != w.locked || s.DRA != w.isDRAGa {
			t.Errorf("%s: got %s default=%t locked=%t dra=%t, want %s %t %t %t", s.Name, s.Stage, s.Default, s.LockedToDefault, s.DRA, w.stage, w.on, w.locked, w.isDRAGa)
		}
		if d.Enabled(s.Name) != w.on {
			t.Errorf("Defaults().Enabled(%s) = %t", s.Name, !w.on)
		}
		for _, dep := range s.DependsOn {
			if _, ok := Lookup(dep); !ok {
				t.Errorf("%s depends on unknown gate %s", s.Name, dep)
			}
		}
	}
	if err := d.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
	if got := d.String(); got != "" {
		t.Errorf("Defaults().String() = %q", got)
	}
}

func TestKnownIsACopy(t *testing.T) {
	k := Known()
	k[1].DependsOn[0] = "X"
	k[0].Default = false
	if s, _ := Lookup(DRAAdminAccess); s.DependsOn[0] != DynamicResourceAllocation {
		t.Error("Known shares DependsOn with the package")
	}
	if !Defaults().Enabled(DynamicResourceAllocation) {
		t.Error("Known shares specs with the package")
	}
}

func TestWith(t *testing.T) {
	g := Defaults().With(DRAPrioritizedList, false).With(DRAListTypeAttributes, true)
	if g.Enabled(DRAPrioritizedList) || !g.Enabled(DRAListTypeAttributes) {
		t.Fatalf("With did not apply: %s", g)
	}
	if !Defaults().Enabled(DRAPrioritizedList) {
		t.Fatal("With changed the receiver")
	}
	if got, want := g.String(), "DRAListTypeAttributes=true,DRAPrioritizedList=false"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if back := g.With(DRAPrioritizedList, true).With(DRAListTypeAttributes, false); back != Defaults() {
		t.Errorf("setting gates back to their defaults gives %#v", back)
	}
	// A copy is independent.
	h := g
	h = h.With(DRAListTypeAttributes, false)
	if !g.Enabled(DRAListTypeAttributes) {
		t.Error("copies share state")
	}
}

func TestEnabledPanicsForUnknownGate(t *testing.T) {
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), `"DRAPrioritisedList"`) {
			t.Fatalf("recover() = %v", r)
		}
	}()
	Defaults().Enabled("DRAPrioritisedList")
}

func TestParse(t *testing.T) {
	tests := []struct {
		flag    string
		on, off []Name
		err     string // substring; empty = success
		listed  bool   // the message lists the known gates
	}{
		{flag: "", on: []Name{DRAPrioritizedList}, off: []Name{DRAListTypeAttributes}},
		{flag: ",,", off: []Name{DRAListTypeAttributes}},
		// As in Kubernetes, only items that are empty are skipped.
		{flag: " , ,", err: `missing bool value for ""`},
		{flag: "DRAListTypeAttributes=true", on: []Name{DRAListTypeAttributes, DRAConsumableCapacity}},
		{flag: " DRAListTypeAttributes = true ,DRAConsumableCapacity=false", on: []Name{DRAListTypeAttributes}, off: []Name{DRAConsumableCapacity}},
		{flag: "DRAListTypeAttributes=1,DRADerivedAttributes=T", on: []Name{DRAListTypeAttributes, DRADerivedAttributes}},
		// The last setting wins.
		{flag: "DRAListTypeAttributes=true,DRAListTypeAttributes=false", off: []Name{DRAListTypeAttributes}},
		// Locked gates may be set to their default.
		{flag: "DRAPrioritizedList=true,DynamicResourceAllocation=true", on: []Name{DRAPrioritizedList}},
		{flag: "DRAPrioritizedList=false", err: "cannot set feature gate DRAPrioritizedList to false, feature is locked to true"},
		{flag: "DRAExtendedResource=false", err: "DRAExtendedResource"},
		// The lock applies to the setting that wins (found by fuzzing
		// against component-base).
		{flag: "DRAAdminAccess=false,DRAAdminAccess=true", on: []Name{DRAAdminAccess}},
		{flag: "DRAAdminAccess=true,DRAAdminAccess=false", err: "cannot set feature gate DRAAdminAccess to false, feature is locked to true"},
		// GA but not locked.
		{flag: "DRADeviceTaints=false,DRADeviceTaintRules=false", off: []Name{DRADeviceTaints, DRADeviceTaintRules}},
		{flag: "DRADeviceTaints=false", err: "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]"},
		// Dependencies.
		{flag: "DRAPartitionableDevicesType=true", err: "DRAPartitionableDevicesType is enabled, but depends on features that are disabled: [DRAResourcePoolStatus]"},
		{flag: "DRAPartitionableDevicesType=true,DRAResourcePoolStatus=true", on: []Name{DRAPartitionableDevicesType, DRAResourcePoolStatus}},
		{flag: "DRAPartitionableDevices=false", off: []Name{DRAPartitionableDevices}},
		{flag: "DRAPartitionableDevices=false,DRADeviceCompatibilityGroups=true", err: "DRADeviceCompatibilityGroups is enabled, but depends on features that are disabled: [DRAPartitionableDevices]"},
		{flag: "DRAWorkloadResourceClaims=true", err: "[GenericWorkload]"},
		{flag: "DRAWorkloadResourceClaims=true,GenericWorkload=true", on: []Name{DRAWorkloadResourceClaims, GenericWorkload}},
		{flag: "DRAConsumableCapacity=false,DRAFractionalCapacityRange=true", err: "DRAFractionalCapacityRange is enabled"},
		// AllAlpha and AllBeta: every gate of the stage the flag does not
		// name, wherever the explicit setting stands.
		{flag: "AllAlpha=true", on: []Name{DRAListTypeAttributes, DRANodeAllocatableResources, DRAResourcePoolStatus, DRADerivedAttributes, DRADeviceCompatibilityGroups, DRAOptionalNodeOperations, DRAPartitionableDevicesType}, off: []Name{DRAWorkloadResourceClaims, DRAFractionalCapacityRange}},
		{flag: "DRADerivedAttributes=false,AllAlpha=true", on: []Name{DRAListTypeAttributes}, off: []Name{DRADerivedAttributes}},
		{flag: "AllAlpha=true,DRADerivedAttributes=false", off: []Name{DRADerivedAttributes}},
		{flag: "AllBeta=true", on: []Name{DRAWorkloadResourceClaims, GenericWorkload, DRAFractionalCapacityRange}, off: []Name{DRAListTypeAttributes}},
		{flag: "AllBeta=false", off: []Name{DRAPartitionableDevices, DRAConsumableCapacity, DRADeviceBindingConditions, DRASchedulerFilterTimeout, DRAResourceClaimGranularStatusAuthorization}, on: []Name{DRADeviceTaints, DRAPrioritizedList}},
		{flag: "AllBeta=false,DRAConsumableCapacity=true", on: []Name{DRAConsumableCapacity}, off: []Name{DRAPartitionableDevices}},
		{flag: "AllAlpha=true,AllBeta=false", err: "DRADeviceCompatibilityGroups is enabled, but depends on features that are disabled: [DRAPartitionableDevices]"},
		// Syntax.
		{flag: "DRAListTypeAttributes", err: "missing bool value for DRAListTypeAttributes"},
		{flag: "DRAListTypeAttributes=yes", err: "invalid value of DRAListTypeAttributes=yes"},
		{flag: "DRAListTypeAttributes=", err: "invalid value of DRAListTypeAttributes="},
		{flag: "=true", err: "empty feature gate name", listed: true},
		{flag: "DRAPrioritisedList=true", err: "unrecognized feature gate: DRAPrioritisedList", listed: true},
		{flag: "SidecarContainers=true", err: "unrecognized feature gate: SidecarContainers", listed: true},
		{flag: "draprioritizedlist=true", err: "unrecognized feature gate: draprioritizedlist", listed: true},
	}
	for _, tc := range tests {
		t.Run(tc.flag, func(t *testing.T) {
			g, err := Parse(tc.flag)
			if tc.err != "" {
				if err == nil {
					t.Fatalf("no error, got %s", g)
				}
				if !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %q does not contain %q", err, tc.err)
				}
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("error is %T, not *ParseError", err)
				}
				listed := strings.Contains(err.Error(), "known feature gates: AllAlpha, AllBeta, DRAAdminAccess,")
				if listed != tc.listed {
					t.Errorf("known gates listed: %t, want %t: %v", listed, tc.listed, err)
				}
				if g != (Gates{}) {
					t.Errorf("error with non-zero gates %s", g)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			for _, n := range tc.on {
				if !g.Enabled(n) {
					t.Errorf("%s is off", n)
				}
			}
			for _, n := range tc.off {
				if g.Enabled(n) {
					t.Errorf("%s is on", n)
				}
			}
			// String gives a flag that parses to the same gates.
			again, err := Parse(g.String())
			if err != nil || again != g {
				t.Errorf("Parse(%q) = %s, %v; want %s", g.String(), again, err, g)
			}
		})
	}
}

func TestParseErrorNamesGate(t *testing.T) {
	_, err := Parse("DRADerivedAttributes=true,Nope=true")
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Gate != "Nope" {
		t.Fatalf("err = %#v", err)
	}
	_, err = Parse("DRADerivedAttributes=maybe")
	if !errors.As(err, &pe) || pe.Gate != "DRADerivedAttributes" {
		t.Fatalf("err = %#v", err)
	}
}

func TestValidateAfterWith(t *testing.T) {
	g := Defaults().With(DRAPrioritizedList, false).With(DynamicResourceAllocation, false)
	err := g.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	// One line per dependent gate, sorted.
	msg := err.Error()
	if !strings.HasPrefix(msg, "DRAAdminAccess is enabled, but depends on features that are disabled: [DynamicResourceAllocation]; ") {
		t.Errorf("message: %s", msg)
	}
	if strings.Contains(msg, "DRAPrioritizedList is enabled") {
		t.Errorf("a disabled gate was reported: %s", msg)
	}
}
