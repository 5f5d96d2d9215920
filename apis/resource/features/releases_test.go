package features

import (
	"testing"

	"github.com/drakit/drakit/apis/resource/catalogue"
)

// TestReleaseDefaults: the followed release's defaults are the defaults;
// older releases turn gates off as the versioned feature lists did.
func TestReleaseDefaults(t *testing.T) {
	latest, err := ReleaseDefaults(catalogue.Release)
	if err != nil || latest != Defaults() {
		t.Fatalf("1.%d: %v, %v; want the defaults", catalogue.Release, latest, err)
	}
	for _, tc := range []struct {
		minor    int
		on, off  []Name
		wantText string
	}{
		{minor: 30, off: []Name{DynamicResourceAllocation, DRAResourceClaimDeviceStatus, DRADeviceTaints, DRAPrioritizedList}},
		{minor: 33, on: []Name{DRAResourceClaimDeviceStatus}, off: []Name{DynamicResourceAllocation, DRAAdminAccess, DRADeviceTaints, DRAPartitionableDevices}},
		{minor: 34, on: []Name{DynamicResourceAllocation, DRAAdminAccess, DRAPrioritizedList}, off: []Name{DRADeviceTaints, DRAConsumableCapacity}},
		{minor: 36, on: []Name{DRADeviceTaints, DRAConsumableCapacity, DRAPartitionableDevices}, off: []Name{DRADeviceTaintRules, DRAListTypeAttributes}},
	} {
		g, err := ReleaseDefaults(tc.minor)
		if err != nil {
			t.Fatalf("1.%d: %v", tc.minor, err)
		}
		for _, n := range tc.on {
			if !g.Enabled(n) {
				t.Errorf("1.%d: %s is off", tc.minor, n)
			}
		}
		for _, n := range tc.off {
			if g.Enabled(n) {
				t.Errorf("1.%d: %s is on", tc.minor, n)
			}
		}
		if err := g.With(DynamicResourceAllocation, true).Validate(); err != nil {
			t.Errorf("1.%d with DRA on: %v", tc.minor, err)
		}
	}
	for _, minor := range []int{29, catalogue.Release + 1} {
		if _, err := ReleaseDefaults(minor); err == nil {
			t.Errorf("1.%d: no error", minor)
		}
	}
}

// TestParseOnto: a flag changes the gates it names, over the release's
// defaults; a locked gate may be set to the release's value.
func TestParseOnto(t *testing.T) {
	base, _ := ReleaseDefaults(33)
	base = base.With(DynamicResourceAllocation, true)
	g, err := ParseOnto(base, "DRADeviceTaints=true,DRAAdminAccess=false")
	if err != nil {
		t.Fatal(err)
	}
	if !g.Enabled(DRADeviceTaints) || g.Enabled(DRAAdminAccess) || g.Enabled(DRAPrioritizedList) || !g.Enabled(DynamicResourceAllocation) {
		t.Errorf("got %s", g)
	}
	if _, err := ParseOnto(Defaults(), "DRAAdminAccess=false"); err == nil {
		t.Error("a locked gate changed from the followed release's defaults")
	}
}

// Every DRA gate on by default says since when (at most the release
// drakit follows); no other gate says it.
func TestOnByDefaultSince(t *testing.T) {
	for _, s := range specs {
		switch {
		case s.DRA && s.Default && (s.OnByDefaultSince == 0 || s.OnByDefaultSince > catalogue.Release):
			t.Errorf("%s: on by default since 1.%d, want a release up to 1.%d", s.Name, s.OnByDefaultSince, catalogue.Release)
		case !(s.DRA && s.Default) && s.OnByDefaultSince != 0:
			t.Errorf("%s: OnByDefaultSince %d, but it is not a DRA gate on by default", s.Name, s.OnByDefaultSince)
		}
	}
}
