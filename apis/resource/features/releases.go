package features

import (
	"fmt"

	"github.com/drakit/drakit/apis/resource/catalogue"
)

// onByDefaultSince is, for each DRA gate that a 1.37 binary has on by
// default, the first minor release whose binaries had it on by default
// (from the versioned feature lists of Kubernetes 1.32 to 1.37; a gate
// that is on by default in one release stays so in the later ones).
// Before that release the gate was off by default, or did not exist,
// which for a scheduler is the same. Gates off by default in 1.37 are off
// in every earlier release.
var onByDefaultSince = map[Name]int{
	DynamicResourceAllocation:                   34,
	DRAAdminAccess:                              34,
	DRAResourceClaimDeviceStatus:                33,
	DRAPrioritizedList:                          34,
	DRAPartitionableDevices:                     36,
	DRADeviceTaints:                             36,
	DRADeviceTaintRules:                         37,
	DRAConsumableCapacity:                       36,
	DRADeviceBindingConditions:                  36,
	DRAExtendedResource:                         36,
	DRASchedulerFilterTimeout:                   34,
	DRAResourceClaimGranularStatusAuthorization: 36,
}

// OldestRelease is the oldest minor release whose defaults ReleaseDefaults
// knows: the first with structured parameters (resource.k8s.io/v1alpha2
// with ResourceSlices).
const OldestRelease = 30

// ReleaseDefaults returns the DRA gates as a binary of Kubernetes 1.minor
// has them without a --feature-gates flag, from 1.30 to the release
// drakit follows (catalogue.Release, whose gates this package holds): each gate
// on from the release that turned it on by default. Gates from outside
// DRA keep their 1.37 defaults. The result may break a dependency that
// the release did not have (Validate tells); With changes it.
func ReleaseDefaults(minor int) (Gates, error) {
	if minor < OldestRelease || minor > catalogue.Release {
		return Gates{}, fmt.Errorf("no feature gate defaults for Kubernetes 1.%d: drakit knows those of 1.%d to 1.%d", minor, OldestRelease, catalogue.Release)
	}
	g := Defaults()
	for _, s := range specs {
		if !s.DRA || !s.Default {
			continue
		}
		since, ok := onByDefaultSince[s.Name]
		if !ok {
			// A gate on by default in 1.37 must say since when.
			panic(fmt.Sprintf("features: onByDefaultSince lacks %s", s.Name))
		}
		if minor < since {
			g = g.With(s.Name, false)
		}
	}
	return g, nil
}
