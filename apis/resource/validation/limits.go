package validation

import (
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/drakit/drakit/apis/resource/v1alpha1"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// Every limit the validators enforce, by name. Where a versioned package
// already declares the limit it is reused from there, so that a change in
// one place cannot leave the validator behind; the others are limits that
// the releases enforce without declaring a constant for them.
const (
	// DriverNameMaxLength is the longest driver name, in bytes, in every
	// release (the CSI driver-name rule). 1.32 was the first release to
	// give it a constant.
	DriverNameMaxLength = 63

	// DNSLabelMaxLength and DNSSubdomainMaxLength bound the RFC 1123 names
	// used for object names, device names, request names and node names.
	DNSLabelMaxLength     = validation.DNS1123LabelMaxLength
	DNSSubdomainMaxLength = validation.DNS1123SubdomainMaxLength

	// GeneratedNameRandomLength is how many random characters the API server
	// appends to metadata.generateName, and GeneratedNameMaxBaseLength how
	// much of generateName it keeps before them.
	GeneratedNameRandomLength  = 5
	GeneratedNameMaxBaseLength = 63 - GeneratedNameRandomLength
)

// v1alpha1 (Kubernetes 1.26).
const (
	V1alpha1ReservedForMaxSize    = v1alpha1.ResourceClaimReservedForMaxSize // status.reservedFor entries
	V1alpha1ResourceHandleMaxSize = v1alpha1.ResourceHandleMaxSize           // bytes of status.allocation.resourceHandle
	V1alpha1NodeListMaxSize       = v1alpha1.PodSchedulingNodeListMaxSize    // potentialNodes, unsuitableNodes entries
	// V1alpha1UnshareableMaxConsumers is how many reservedFor entries a claim
	// whose allocation is not shareable may have.
	V1alpha1UnshareableMaxConsumers = 1
)

// v1alpha2 (Kubernetes 1.30).
const (
	V1alpha2ReservedForMaxSize        = v1alpha2.ResourceClaimReservedForMaxSize        // status.reservedFor entries
	V1alpha2ResourceHandlesMaxSize    = v1alpha2.AllocationResultResourceHandlesMaxSize // status.allocation.resourceHandles entries
	V1alpha2ResourceHandleDataMaxSize = v1alpha2.ResourceHandleDataMaxSize              // bytes of resourceHandles[].data
	V1alpha2NodeListMaxSize           = v1alpha2.PodSchedulingNodeListMaxSize           // potentialNodes, unsuitableNodes entries
	// V1alpha2UnshareableMaxConsumers is how many reservedFor entries a claim
	// whose allocation is not shareable may have.
	V1alpha2UnshareableMaxConsumers = 1
)

// v1alpha3 (Kubernetes 1.31).
const (
	V1alpha3DeviceRequestsMaxSize    = v1alpha3.DeviceRequestsMaxSize    // spec.devices.requests, and every requests list that names them
	V1alpha3DeviceConstraintsMaxSize = v1alpha3.DeviceConstraintsMaxSize // spec.devices.constraints
	V1alpha3DeviceConfigMaxSize      = v1alpha3.DeviceConfigMaxSize      // spec.devices.config, DeviceClass spec.config
	V1alpha3DeviceSelectorsMaxSize   = v1alpha3.DeviceSelectorsMaxSize   // request and DeviceClass selectors
	V1alpha3AllocationResultsMaxSize = v1alpha3.AllocationResultsMaxSize // status.allocation.devices.results
	// V1alpha3AllocationConfigMaxSize bounds status.allocation.devices.config:
	// it holds the class's and the claim's configuration, so twice the
	// per-source limit.
	V1alpha3AllocationConfigMaxSize = 2 * v1alpha3.DeviceConfigMaxSize
	V1alpha3ReservedForMaxSize      = v1alpha3.ResourceClaimReservedForMaxSize // status.reservedFor entries
	V1alpha3NodeListMaxSize         = v1alpha3.PodSchedulingNodeListMaxSize    // potentialNodes, unsuitableNodes entries
	V1alpha3SliceMaxDevices         = v1alpha3.ResourceSliceMaxDevices         // spec.devices of a ResourceSlice
	V1alpha3PoolNameMaxLength       = v1alpha3.PoolNameMaxLength               // bytes of a pool name
	// V1alpha3MaxAttributesAndCapacities bounds attributes plus capacity of one device.
	V1alpha3MaxAttributesAndCapacities = v1alpha3.ResourceSliceMaxAttributesAndCapacitiesPerDevice
	V1alpha3IdentifierMaxLength        = v1alpha3.DeviceMaxIDLength             // bytes of the C identifier in a qualified name
	V1alpha3AttributeValueMaxLength    = v1alpha3.DeviceAttributeMaxValueLength // bytes of a string or version attribute
	// V1alpha3SliceNodeSelectorTerms is the exact number of terms a
	// ResourceSlice spec.nodeSelector must have.
	V1alpha3SliceNodeSelectorTerms = 1
	// V1alpha3QualifiedNameMaxSlashes is how many '/' a qualified name may
	// hold under Strict; 1.31 itself does not check names with more.
	V1alpha3QualifiedNameMaxSlashes = 1
)

// The live rules (rules.go and the files it names), which check v1 objects
// and what converts to them. These are the limits of the API server of the
// release drakit follows, whose internal package declares them; where
// k8s.io/api/resource/v1 declares the same limit it is reused from there.
// The V1 prefix names the version of the objects the rules check; the
// values are the release's.
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
