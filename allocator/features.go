package allocator

import (
	"github.com/drakit/drakit/apis/resource/features"
)

// Features switches the parts of structured allocation that Kubernetes
// keeps behind feature gates. The first eleven fields are those of
// upstream's Features (k8s.io/dynamic-resource-allocation v0.37.2,
// structured/internal/types.go), with the same names and meaning; the
// scheduler sets them from its gates (FeaturesFromGates does the same).
// DeviceTaintRules is not an allocator feature upstream: it is the option
// of the scheduler's slice tracker that merges DeviceTaintRules into the
// taints of the devices they select before the allocator sees them, which
// this allocator does itself (Options.DeviceTaintRules).
//
// The zero Features has everything off. Options.Features nil means
// DefaultFeatures, the 1.37 defaults.
type Features struct {
	AdminAccess             bool
	CompatibilityGroups     bool
	ConsumableCapacity      bool
	DerivedAttributes       bool
	DeviceBindingAndStatus  bool
	DeviceTaints            bool
	FractionalCapacityRange bool
	ListTypeAttributes      bool
	OptionalNodeOperations  bool
	PartitionableDevices    bool
	PrioritizedList         bool

	DeviceTaintRules bool
}

// FeaturesFromGates returns the features a 1.37 scheduler with these gates
// asks its allocator for (AllocatorFeatures in the scheduler's
// dynamicresources plugin), and whether its tracker applies DeviceTaintRules.
func FeaturesFromGates(g features.Gates) Features {
	return Features{
		AdminAccess:             g.Enabled(features.DRAAdminAccess),
		CompatibilityGroups:     g.Enabled(features.DRADeviceCompatibilityGroups),
		ConsumableCapacity:      g.Enabled(features.DRAConsumableCapacity),
		DerivedAttributes:       g.Enabled(features.DRADerivedAttributes),
		DeviceBindingAndStatus:  g.Enabled(features.DRADeviceBindingConditions) && g.Enabled(features.DRAResourceClaimDeviceStatus),
		DeviceTaints:            g.Enabled(features.DRADeviceTaints),
		FractionalCapacityRange: g.Enabled(features.DRAFractionalCapacityRange),
		ListTypeAttributes:      g.Enabled(features.DRAListTypeAttributes),
		OptionalNodeOperations:  g.Enabled(features.DRAOptionalNodeOperations),
		PartitionableDevices:    g.Enabled(features.DRAPartitionableDevices),
		PrioritizedList:         g.Enabled(features.DRAPrioritizedList),
		DeviceTaintRules:        g.Enabled(features.DRADeviceTaints) && g.Enabled(features.DRADeviceTaintRules),
	}
}

// DefaultFeatures returns the features of a 1.37 scheduler with its
// default gates.
func DefaultFeatures() Features { return FeaturesFromGates(features.Defaults()) }
