package features

import (
	"fmt"

	"github.com/drakit/drakit/apis/resource/catalogue"
)

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
		if minor < s.OnByDefaultSince {
			g = g.With(s.Name, false)
		}
	}
	return g, nil
}
