package validation

import (
	resourcev1 "k8s.io/api/resource/v1"
)

// v1 (Kubernetes 1.37). These are the limits of the 1.37 API server, whose
// internal package declares them; where apis/resource/v1 declares the same
// limit it is reused from there. The V1 prefix names the version these
// rules were written for (the v1.go rules); the values are the release's.
const (
	V1DeviceRequestsMaxSize    = resourcev1.DeviceRequestsMaxSize    // spec.devices.requests, and every requests list that names them
	V1DeviceConstraintsMaxSize = resourcev1.DeviceConstraintsMaxSize // spec.devices.constraints
	V1DeviceConfigMaxSize      = resourcev1.DeviceConfigMaxSize      // spec.devices.config, DeviceClass spec.config
	V1DeviceSelectorsMaxSize   = resourcev1.DeviceSelectorsMaxSize   // request, sub-request and DeviceClass selectors
	V1FirstAvailableMaxSize    = resourcev1.FirstAvailableDeviceRequestMaxSize
	// V1DeviceDerivedAttributesMaxSize bounds derivedAttributes of a request
	// or sub-request; only declarative validation enforces it.
	V1DeviceDerivedAttributesMaxSize = resourcev1.DeviceDerivedAttributesMaxSize
	V1AllocationResultsMaxSize       = resourcev1.AllocationResultsMaxSize // status.allocation.devices.results
	// V1AllocationConfigMaxSize bounds status.allocation.devices.config: the
	// class's and the claim's configuration, so twice the per-source limit.
	V1AllocationConfigMaxSize = 2 * resourcev1.DeviceConfigMaxSize
	V1ReservedForMaxSize      = resourcev1.ResourceClaimReservedForMaxSize // status.reservedFor

	V1SliceMaxDevices = resourcev1.ResourceSliceMaxDevices
	// V1SliceMaxDevicesWithAdvancedFeatures bounds spec.devices when any
	// device has taints, consumes counters or has a list-valued attribute.
	V1SliceMaxDevicesWithAdvancedFeatures         = resourcev1.ResourceSliceMaxDevicesWithAdvancedFeatures
	V1SliceMaxCounterSets                         = resourcev1.ResourceSliceMaxCounterSets
	V1SliceMaxCountersPerCounterSet               = resourcev1.ResourceSliceMaxCountersPerCounterSet
	V1SliceMaxDeviceCounterConsumptionsPerDevice  = resourcev1.ResourceSliceMaxDeviceCounterConsumptionsPerDevice
	V1SliceMaxCountersPerDeviceCounterConsumption = resourcev1.ResourceSliceMaxCountersPerDeviceCounterConsumption
	V1DeviceCompatibilityGroupsMaxSize            = resourcev1.DeviceCompatibilityGroupsMaxSize // declarative validation only
	V1MaxAttributesAndCapacities                  = resourcev1.ResourceSliceMaxAttributesAndCapacitiesPerDevice
	V1MaxAttributeValues                          = resourcev1.ResourceSliceMaxAttributeValuesPerDevice // a list counts its items
	V1SliceNodeSelectorTerms                      = 1                                                   // exactly this many terms in spec.nodeSelector
	V1DeviceTaintsMaxLength                       = resourcev1.DeviceTaintsMaxLength
	V1BindingConditionsMaxSize                    = resourcev1.BindingConditionsMaxSize
	V1BindingFailureConditionsMaxSize             = resourcev1.BindingFailureConditionsMaxSize
	V1CapacityRequestPolicyDiscreteMaxOptions     = 10 // requestPolicy.validValues; only the internal package declares it
	V1PoolNameMaxLength                           = resourcev1.PoolNameMaxLength
	V1DomainMaxLength                             = resourcev1.DeviceMaxDomainLength // bytes of the domain of a qualified name (the driver-name limit)
	V1IdentifierMaxLength                         = resourcev1.DeviceMaxIDLength     // bytes of the identifier of a qualified name
	V1AttributeValueMaxLength                     = resourcev1.DeviceAttributeMaxValueLength
	V1CELSelectorExpressionMaxLength              = resourcev1.CELSelectorExpressionMaxLength
	V1CELSelectorExpressionMaxCost                = resourcev1.CELSelectorExpressionMaxCost
	V1DerivedAttributeCELMaxCost                  = resourcev1.DeviceClaimDerivedAttributeCELMaxCost // per expression and per claim
	V1OpaqueParametersMaxLength                   = resourcev1.OpaqueParametersMaxLength
	V1AllocatedDeviceStatusMaxConditions          = resourcev1.AllocatedDeviceStatusMaxConditions
	V1AllocatedDeviceStatusDataMaxLength          = resourcev1.AllocatedDeviceStatusDataMaxLength
	V1NetworkDeviceDataMaxIPs                     = resourcev1.NetworkDeviceDataMaxIPs
	V1NetworkDeviceDataInterfaceNameMaxLength     = resourcev1.NetworkDeviceDataInterfaceNameMaxLength
	V1NetworkDeviceDataHardwareAddressMaxLength   = resourcev1.NetworkDeviceDataHardwareAddressMaxLength
	V1DeviceTaintRuleStatusMaxConditions          = resourcev1.DeviceTaintRuleStatusMaxConditions
	V1QualifiedNameMaxSlashes                     = 1 // under Strict; 1.37 does not check names with more
	v1AttributeAndCapacityKeyTruncation           = V1DomainMaxLength + 1 + V1IdentifierMaxLength
	v1MapKeyMinTruncation                         = 16 // a shorter truncation limit is raised to this
)

// Declared by 1.37 but enforced by no check of that release:
// resourcev1.ResourceSliceMaxSharedCapacity (128) and
// resourcev1.DeviceTolerationsMaxLength (16; tolerations have no size check).
