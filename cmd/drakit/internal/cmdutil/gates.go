package cmdutil

import (
	"errors"

	"github.com/drakit/drakit/apis/resource/features"
)

// ParseFeatureGates reads --feature-gates as a 1.37 kube-apiserver reads
// its flag of that name. Any problem is a usage error that names the flag;
// features.Parse's message names the gate and says what is allowed (true
// or false, the value a locked gate keeps, the known gates, the gates one
// depends on).
func ParseFeatureGates(flag, value string) (features.Gates, error) {
	gates, err := features.Parse(value)
	if err != nil {
		return gates, UsageErrorf("invalid argument %q for %s: %v", value, flag, err)
	}
	return gates, nil
}

// GatesError makes a problem of --feature-gates (value), met only once the
// server's release is known (cluster.Cluster.SchedulerGates), the usage
// error ParseFeatureGates makes; other errors are returned as they are.
func GatesError(err error, value string) error {
	var perr *features.ParseError
	if errors.As(err, &perr) {
		return UsageErrorf("invalid argument %q for --feature-gates: %v", value, err)
	}
	return err
}
