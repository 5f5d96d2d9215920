package allocbench

import (
	"fmt"

	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"

	"github.com/drakit/drakit/allocator"
)

// Each scenario states the allocator features it uses as drakit's
// allocator.Features, the one list of switches (upstream's eleven plus
// DeviceTaintRules, which upstream leaves to the scheduler's slice
// tracker). Upstream's side is derived from it here.

// Implementations are upstream's allocator implementations in
// k8s.io/dynamic-resource-allocation v0.37.2 (structured/internal/...), in
// the order in which NewAllocator tries them.
var Implementations = []string{"stable", "incubating", "experimental"}

// LegacyFeatures give Kubernetes 1.31 semantics: only AdminAccess (gate
// DRAAdminAccess), since adminAccess requests exist in 1.31 and upstream
// refuses them without it. Today's scenarios run with these.
var LegacyFeatures = allocator.Features{AdminAccess: true}

// UpstreamFeatures is what upstream's allocator is asked for: the same
// switches under the same names. DeviceTaintRules has no counterpart: the
// harness merges the rules' taints into the devices it gives upstream
// (taintRules in translate.go), as the tracker does.
func UpstreamFeatures(f allocator.Features) structured.Features {
	return structured.Features{
		AdminAccess:             f.AdminAccess,
		CompatibilityGroups:     f.CompatibilityGroups,
		ConsumableCapacity:      f.ConsumableCapacity,
		DerivedAttributes:       f.DerivedAttributes,
		DeviceBindingAndStatus:  f.DeviceBindingAndStatus,
		DeviceTaints:            f.DeviceTaints,
		FractionalCapacityRange: f.FractionalCapacityRange,
		ListTypeAttributes:      f.ListTypeAttributes,
		OptionalNodeOperations:  f.OptionalNodeOperations,
		PartitionableDevices:    f.PartitionableDevices,
		PrioritizedList:         f.PrioritizedList,
	}
}

// UpstreamCELFeatures configure upstream's CEL environment as the
// scheduler does from the same gates: device.allowMultipleAllocations
// with DRAConsumableCapacity, list-typed attributes with
// DRAListTypeAttributes.
func UpstreamCELFeatures(f allocator.Features) cel.Features {
	return cel.Features{EnableConsumableCapacity: f.ConsumableCapacity, EnableListTypeAttributes: f.ListTypeAttributes}
}

// supportedFeatures is each implementation's SupportedFeatures in v0.37.2
// (ga-facts §9): stable has the four GA features, incubating adds the
// beta ones, experimental has all eleven.
func supportedFeatures(impl string) structured.Features {
	f := structured.Features{AdminAccess: true, PrioritizedList: true, PartitionableDevices: true, DeviceTaints: true}
	if impl == "stable" {
		return f
	}
	f.DeviceBindingAndStatus, f.ConsumableCapacity, f.FractionalCapacityRange = true, true, true
	if impl == "incubating" {
		return f
	}
	f.ListTypeAttributes, f.OptionalNodeOperations, f.DerivedAttributes, f.CompatibilityGroups = true, true, true, true
	return f
}

// supports reports whether an implementation can run with the features.
func supports(impl string, f structured.Features) bool {
	s := supportedFeatures(impl)
	return (!f.AdminAccess || s.AdminAccess) && (!f.CompatibilityGroups || s.CompatibilityGroups) &&
		(!f.ConsumableCapacity || s.ConsumableCapacity) && (!f.DerivedAttributes || s.DerivedAttributes) &&
		(!f.DeviceBindingAndStatus || s.DeviceBindingAndStatus) && (!f.DeviceTaints || s.DeviceTaints) &&
		(!f.FractionalCapacityRange || s.FractionalCapacityRange) && (!f.ListTypeAttributes || s.ListTypeAttributes) &&
		(!f.OptionalNodeOperations || s.OptionalNodeOperations) && (!f.PartitionableDevices || s.PartitionableDevices) &&
		(!f.PrioritizedList || s.PrioritizedList)
}

// SchedulerImplementation is the implementation a 1.37 scheduler runs for
// the features: the first of stable, incubating, experimental that
// supports them all (NewAllocator's rule).
func SchedulerImplementation(f allocator.Features) (string, error) {
	uf := UpstreamFeatures(f)
	for _, impl := range Implementations {
		if supports(impl, uf) {
			return impl, nil
		}
	}
	return "", fmt.Errorf("no upstream implementation supports %+v", uf)
}

// SupportingImplementations are all implementations that can run with
// the features; the benchmarks time each of them.
func SupportingImplementations(f allocator.Features) []string {
	var out []string
	uf := UpstreamFeatures(f)
	for _, impl := range Implementations {
		if supports(impl, uf) {
			out = append(out, impl)
		}
	}
	return out
}
