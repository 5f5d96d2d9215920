package validation

import (
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
