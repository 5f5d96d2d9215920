package v1beta2

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
)

const (
	// Finalizer is the finalizer the control plane puts on a ResourceClaim
	// it allocated, so that the claim is not removed while still in use.
	// Drivers must use finalizers of their own.
	Finalizer = "resource.kubernetes.io/delete-protection"

	// ExtendedResourceClaimAnnotation marks the ResourceClaim the
	// scheduler creates for a pod's extended-resource requests that are
	// backed by DRA devices. Its only valid value is "true".
	ExtendedResourceClaimAnnotation = "resource.kubernetes.io/extended-resource-claim"

	// PodResourceClaimAnnotation is set by the ResourceClaim controller on
	// claims it creates from a template; the value is the
	// pod.spec.resourceClaims[].name the claim was made for.
	PodResourceClaimAnnotation = "resource.kubernetes.io/pod-claim-name"

	// ResourceDeviceClassPrefix, followed by the class name, is the
	// implicit extended resource name of a DeviceClass that sets no
	// extendedResourceName. The result is not always a valid extended
	// resource name; such classes must name one explicitly.
	ResourceDeviceClassPrefix string = "deviceclass.resource.kubernetes.io/"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceSlice is published by a driver and carries part or all of one
// pool's devices, or (with partitionable devices) the pool's shared
// counter sets. A pool may be split over several slices; the number of
// slices is part of every slice, so consumers can tell when they have
// seen the whole pool.
//
// A device is identified by the triple (driver, pool name, device name),
// and device names are unique within a pool across all its slices. When a
// driver changes a pool it bumps the pool generation in all of the pool's
// slices; consumers use only the slices with the newest generation.
//
// Node-local devices name their node; other devices say where they are
// reachable with a node selector, by being available on all nodes, or
// per device.
type ResourceSlice struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is what the driver publishes in this slice. Any change to it
	// increments metadata.generation.
	//
	// +required
	Spec ResourceSliceSpec `json:"spec" protobuf:"bytes,2,name=spec"`
}

const (
	// ResourceSliceSelectorNodeName is the field selector key for
	// spec.nodeName when listing or watching ResourceSlices.
	ResourceSliceSelectorNodeName = "spec.nodeName"
	// ResourceSliceSelectorDriver is the field selector key for
	// spec.driver when listing or watching ResourceSlices.
	ResourceSliceSelectorDriver = "spec.driver"
	// ResourceSliceSelectorPoolName is the field selector key for
	// spec.pool.name when listing or watching ResourceSlices (1.37+).
	ResourceSliceSelectorPoolName = "spec.pool.name"
)

// ResourceSliceSpec is the content of one ResourceSlice.
type ResourceSliceSpec struct {
	// Driver names the DRA driver owning the devices in this slice. It
	// must be a DNS subdomain of at most 63 characters, should end in a
	// domain the vendor owns and should be lower case. Usable as a field
	// selector. Immutable.
	//
	// +required
	Driver string `json:"driver" protobuf:"bytes,1,name=driver"`

	// Pool identifies the pool the slice belongs to and carries the
	// pool's generation and slice count.
	//
	// +required
	Pool ResourcePool `json:"pool" protobuf:"bytes,2,name=pool"`

	// NodeName is set when the devices are local to one node; it is that
	// node's name. Usable as a field selector, and lets a node be limited
	// to its own slices. Exactly one of nodeName, nodeSelector, allNodes
	// and perDeviceNodeSelection must be set. Immutable.
	//
	// +optional
	// +oneOf=NodeSelection
	NodeName *string `json:"nodeName,omitempty" protobuf:"bytes,3,opt,name=nodeName"`

	// NodeSelector lists the nodes the devices can be used from, for
	// pools not bound to one node. It must hold exactly one term. Exactly
	// one of nodeName, nodeSelector, allNodes and perDeviceNodeSelection
	// must be set.
	//
	// +optional
	// +oneOf=NodeSelection
	NodeSelector *v1.NodeSelector `json:"nodeSelector,omitempty" protobuf:"bytes,4,opt,name=nodeSelector"`

	// AllNodes means the devices can be used from every node. Exactly one
	// of nodeName, nodeSelector, allNodes and perDeviceNodeSelection must
	// be set.
	//
	// +optional
	// +oneOf=NodeSelection
	AllNodes *bool `json:"allNodes,omitempty" protobuf:"bytes,5,opt,name=allNodes"`

	// Devices are the devices of the pool published in this slice. At
	// most 128, or 64 when any device uses taints, counters or list
	// attributes. A slice carries devices or sharedCounters, not both.
	//
	// +optional
	// +listType=atomic
	// +zeroOrOneOf=ResourceSliceType
	Devices []Device `json:"devices,omitempty" protobuf:"bytes,6,name=devices"`

	// PerDeviceNodeSelection, when true, means every device of the slice
	// says itself where it is available (device nodeName, nodeSelector or
	// allNodes). Exactly one of nodeName, nodeSelector, allNodes and
	// perDeviceNodeSelection must be set. Beta; DRAPartitionableDevices
	// feature gate.
	//
	// +optional
	// +oneOf=NodeSelection
	// +featureGate=DRAPartitionableDevices
	PerDeviceNodeSelection *bool `json:"perDeviceNodeSelection,omitempty" protobuf:"bytes,7,name=perDeviceNodeSelection"`

	// SharedCounters are named counter sets that devices of the pool draw
	// from (see Device.ConsumesCounters). At most 8, with names unique in
	// the pool. A slice carries devices or sharedCounters, not both.
	// Beta; DRAPartitionableDevices feature gate.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAPartitionableDevices
	// +zeroOrOneOf=ResourceSliceType
	SharedCounters []CounterSet `json:"sharedCounters,omitempty" protobuf:"bytes,8,name=sharedCounters"`

	// PartitionTypeAttribute is the fully qualified name of a string
	// attribute whose value gives each partitionable device its partition
	// type (for example "Full" or "Half"). When set, every device of the
	// slice that consumes counters must have it, and devices with the
	// same value must consume the same counters. Alpha (1.37);
	// DRAPartitionableDevicesType feature gate.
	//
	// +optional
	// +featureGate=DRAPartitionableDevicesType
	PartitionTypeAttribute *FullyQualifiedName `json:"partitionTypeAttribute,omitempty" protobuf:"bytes,9,opt,name=partitionTypeAttribute"`

	// SkipNodeOperations lists the node-local driver calls that are not
	// needed for the devices of this slice; a call is skipped for a claim
	// when every device of the driver in it skips it. Values:
	// NodePrepareResources (only together with NodeUnprepareResources or
	// "*"), NodeUnprepareResources, or "*" for all. The kubelet ignores
	// values it does not know. Alpha (1.37); DRAOptionalNodeOperations
	// feature gate.
	//
	// +optional
	// +listType=set
	// +featureGate=DRAOptionalNodeOperations
	SkipNodeOperations []SkipNodeOperation `json:"skipNodeOperations,omitempty" protobuf:"bytes,10,rep,name=skipNodeOperations,casttype=SkipNodeOperation"`
}

// SkipNodeOperation names a node-local driver call that may be skipped.
//
// +enum
type SkipNodeOperation string

const (
	// SkipNodeOperationNodePrepareResources skips NodePrepareResources calls.
	SkipNodeOperationNodePrepareResources SkipNodeOperation = "NodePrepareResources"
	// SkipNodeOperationNodeUnprepareResources skips NodeUnprepareResources calls.
	SkipNodeOperationNodeUnprepareResources SkipNodeOperation = "NodeUnprepareResources"
	// SkipNodeOperationAll skips every node-local call.
	SkipNodeOperationAll SkipNodeOperation = "*"
)

// CounterSet is a named set of counters of a pool. Counters are not
// allocated themselves; devices consume parts of them, and what an
// allocated device consumes is no longer available to other devices.
type CounterSet struct {
	// Name of the counter set, a DNS label.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// Counters are the counters of the set, keyed by a DNS label unique
	// in the set. At most 32.
	//
	// +required
	Counters map[string]Counter `json:"counters,omitempty" protobuf:"bytes,2,name=counters"`
}

// DriverNameMaxLength is the maximum length of a driver name (as for CSI
// drivers).
const DriverNameMaxLength = 63

// ResourcePool names a pool of devices and describes its current state.
type ResourcePool struct {
	// Name of the pool, often the node name for node-local devices. At
	// most 253 characters; one or more DNS subdomains separated by
	// slashes. Usable as a field selector (1.37+). Immutable.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// Generation is changed by the driver, in all of the pool's slices,
	// whenever the pool changes. Consumers use only the slices with the
	// highest generation; a driver may reset it if it rewrites or deletes
	// all slices of the pool.
	//
	// +required
	Generation int64 `json:"generation" protobuf:"bytes,2,name=generation"`

	// ResourceSliceCount is how many slices make up the pool at this
	// generation; greater than zero. Consumers use it to tell whether they
	// have seen the whole pool.
	//
	// +required
	ResourceSliceCount int64 `json:"resourceSliceCount" protobuf:"bytes,3,name=resourceSliceCount"`
}

// ResourceSliceMaxSharedCapacity is a declared limit for shared capacity
// entries per slice; no validation uses it.
const ResourceSliceMaxSharedCapacity = 128

// ResourceSliceMaxDevices is the maximum number of devices in one slice.
const ResourceSliceMaxDevices = 128

// ResourceSliceMaxDevicesWithAdvancedFeatures is the maximum number of
// devices in a slice in which any device has taints, consumes counters or
// has list attributes.
const ResourceSliceMaxDevicesWithAdvancedFeatures = 64

// PoolNameMaxLength is the maximum length of a pool name (that of a DNS
// subdomain, as for node names).
const PoolNameMaxLength = validation.DNS1123SubdomainMaxLength

// BindingConditionsMaxSize is the maximum number of binding conditions of
// a device or an allocation result.
const BindingConditionsMaxSize = 4

// BindingFailureConditionsMaxSize is the maximum number of binding failure
// conditions of a device or an allocation result.
const BindingFailureConditionsMaxSize = 4

// ResourceSliceMaxCounterSets is the maximum number of counter sets in a
// slice's sharedCounters.
const ResourceSliceMaxCounterSets = 8

// ResourceSliceMaxCountersPerCounterSet is the maximum number of counters
// in one counter set.
const ResourceSliceMaxCountersPerCounterSet = 32

// ResourceSliceMaxDeviceCounterConsumptionsPerDevice is the maximum number
// of consumesCounters entries of one device.
const ResourceSliceMaxDeviceCounterConsumptionsPerDevice = 2

// ResourceSliceMaxCountersPerDeviceCounterConsumption is the maximum
// number of counters in one consumesCounters entry.
const ResourceSliceMaxCountersPerDeviceCounterConsumption = 32

// DeviceCompatibilityGroupsMaxSize is the maximum number of compatibility
// groups in one consumesCounters entry.
const DeviceCompatibilityGroupsMaxSize = 2

// Device is one device of a pool, described by its attributes and
// capacities and, for partitionable devices, the counters it consumes and
// where it is available.
type Device struct {
	// Name of the device, a DNS label unique within the pool.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// Attributes are the device's properties, keyed by qualified name.
	// Attributes and capacity together may have at most 32 entries.
	//
	// +optional
	Attributes map[QualifiedName]DeviceAttribute `json:"attributes,omitempty" protobuf:"bytes,2,rep,name=attributes"`

	// Capacity holds the device's quantities, keyed by qualified name.
	// Attributes and capacity together may have at most 32 entries.
	//
	// +optional
	Capacity map[QualifiedName]DeviceCapacity `json:"capacity,omitempty" protobuf:"bytes,3,rep,name=capacity"`

	// ConsumesCounters says which counter sets of the pool the device
	// draws from and how much of each counter. At most 2 entries, at most
	// one per counter set. Beta; DRAPartitionableDevices feature gate.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAPartitionableDevices
	ConsumesCounters []DeviceCounterConsumption `json:"consumesCounters,omitempty" protobuf:"bytes,4,rep,name=consumesCounters"`

	// NodeName is the node on which the device is available. Only with
	// spec.perDeviceNodeSelection; at most one of nodeName, nodeSelector
	// and allNodes. Beta; DRAPartitionableDevices feature gate.
	//
	// +optional
	// +oneOf=DeviceNodeSelection
	// +featureGate=DRAPartitionableDevices
	NodeName *string `json:"nodeName,omitempty" protobuf:"bytes,5,opt,name=nodeName"`

	// NodeSelector selects the nodes on which the device is available;
	// exactly one term. Only with spec.perDeviceNodeSelection; at most
	// one of nodeName, nodeSelector and allNodes. Beta;
	// DRAPartitionableDevices feature gate.
	//
	// +optional
	// +oneOf=DeviceNodeSelection
	// +featureGate=DRAPartitionableDevices
	NodeSelector *v1.NodeSelector `json:"nodeSelector,omitempty" protobuf:"bytes,6,opt,name=nodeSelector"`

	// AllNodes means the device is available on every node. Only with
	// spec.perDeviceNodeSelection; at most one of nodeName, nodeSelector
	// and allNodes. Beta; DRAPartitionableDevices feature gate.
	//
	// +optional
	// +oneOf=DeviceNodeSelection
	// +featureGate=DRAPartitionableDevices
	AllNodes *bool `json:"allNodes,omitempty" protobuf:"bytes,7,opt,name=allNodes"`

	// Taints are the driver's taints on the device. At most 16; a slice
	// with any tainted device holds at most 64 devices. DRADeviceTaints
	// feature gate (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Taints []DeviceTaint `json:"taints,omitempty" protobuf:"bytes,8,rep,name=taints"`

	// BindsToNode, when true, limits an allocation of this device to the
	// node chosen at allocation time: the scheduler sets the allocation's
	// node selector to that node. Beta; DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus feature gates.
	//
	// +optional
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindsToNode *bool `json:"bindsToNode,omitempty" protobuf:"varint,9,opt,name=bindsToNode"`

	// BindingConditions are condition types that must all be True in the
	// claim's device status before a pod using the device is bound to its
	// node. At most 4 valid condition types. Beta;
	// DRADeviceBindingConditions and DRAResourceClaimDeviceStatus feature
	// gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingConditions []string `json:"bindingConditions,omitempty" protobuf:"bytes,10,rep,name=bindingConditions"`

	// BindingFailureConditions are condition types that, when any is True
	// in the claim's device status, mean binding failed. At most 4 valid
	// condition types. Beta; DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus feature gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingFailureConditions []string `json:"bindingFailureConditions,omitempty" protobuf:"bytes,11,rep,name=bindingFailureConditions"`

	// AllowMultipleAllocations, when true, lets the device be allocated to
	// several requests at once; all its capacity is then consumable.
	// Beta; DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	AllowMultipleAllocations *bool `json:"allowMultipleAllocations,omitempty" protobuf:"bytes,12,opt,name=allowMultipleAllocations"`

	// Protobuf field 13 (nodeAllocatableResourceMappings, 1.36 only) is retired.

	// NodeAllocatableResources maps node-allocatable resources that are
	// not extended resources ("cpu", "memory", "ephemeral-storage",
	// hugepages) to what an allocation of this device takes of them, so
	// that they can be requested through claims. Alpha (1.37);
	// DRANodeAllocatableResources feature gate.
	//
	// +optional
	// +featureGate=DRANodeAllocatableResources
	NodeAllocatableResources map[v1.ResourceName]NodeAllocatableResource `json:"nodeAllocatableResources,omitempty" protobuf:"bytes,14,opt,name=nodeAllocatableResources"`
}

// NodeAllocatableResource says how an allocation of a device translates
// into a node-allocatable resource. At least one of mapping and overhead
// must be set.
type NodeAllocatableResource struct {
	// Mapping is for devices that are themselves a node resource (for
	// example CPUs of a CPU driver). It is counted once per claim on the
	// node, and such claims cannot be shared by several pods.
	//
	// +optional
	Mapping *NodeAllocatableMapping `json:"mapping,omitempty" protobuf:"bytes,3,opt,name=mapping"`

	// Overhead is node resource use that comes with the device without
	// being the device (for example host memory for a GPU). It is counted
	// per pod using the claim and is always taken from the node's general
	// allocatable amount.
	//
	// +optional
	Overhead *NodeAllocatableOverhead `json:"overhead,omitempty" protobuf:"bytes,4,opt,name=overhead"`
}

// NodeAllocatableMapping computes the node resource quantity of an
// allocation, either from the number of allocated devices (deviceMultiplier)
// or from a consumed capacity (capacityKey with capacityMultiplier); the
// two ways exclude each other.
type NodeAllocatableMapping struct {
	// CapacityKey names a capacity of the device; the amount consumed of
	// it by the allocation (results[].consumedCapacity) times
	// capacityMultiplier is the node resource quantity. Needs
	// capacityMultiplier.
	//
	// +optional
	CapacityKey *QualifiedName `json:"capacityKey,omitempty" protobuf:"bytes,1,opt,name=capacityKey"`

	// CapacityMultiplier multiplies the consumed capacity named by
	// capacityKey. Only valid with capacityKey.
	//
	// +optional
	CapacityMultiplier *resource.Quantity `json:"capacityMultiplier,omitempty" protobuf:"bytes,2,opt,name=capacityMultiplier"`

	// DeviceMultiplier multiplies the number of devices allocated to the
	// claim. Only valid without capacityKey and capacityMultiplier.
	//
	// +optional
	DeviceMultiplier *resource.Quantity `json:"deviceMultiplier,omitempty" protobuf:"bytes,3,opt,name=deviceMultiplier"`
}

// NodeAllocatableOverhead is node resource use that comes with allocating
// a device: fixed per pod, per container using the claim, or both.
type NodeAllocatableOverhead struct {
	// PerPod is charged once for every pod that uses the claim on the
	// node.
	//
	// +optional
	PerPod *resource.Quantity `json:"perPod,omitempty" protobuf:"bytes,1,opt,name=perPod"`

	// PerContainer is charged for every container reference to the claim;
	// a pod is charged perPod + perContainer × references, and each such
	// container's limit grows by perPod + perContainer.
	//
	// +optional
	PerContainer *resource.Quantity `json:"perContainer,omitempty" protobuf:"bytes,2,opt,name=perContainer"`
}

// DeviceCounterConsumption is what a device consumes from one counter set.
type DeviceCounterConsumption struct {
	// CounterSet names the counter set (a DNS label) the counters are
	// taken from.
	//
	// +required
	CounterSet string `json:"counterSet" protobuf:"bytes,1,opt,name=counterSet"`

	// Counters are the amounts consumed, keyed by counter name. At most
	// 32.
	//
	// +required
	Counters map[string]Counter `json:"counters,omitempty" protobuf:"bytes,2,opt,name=counters"`

	// CompatibilityGroups are opaque group names (DNS labels, at most 2,
	// unique). Devices drawing from the same counter set can only be
	// allocated together when all of them share at least one group; no
	// groups (unset or empty) is only compatible with no groups. Alpha
	// (1.37); DRADeviceCompatibilityGroups feature gate.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceCompatibilityGroups
	CompatibilityGroups []string `json:"compatibilityGroups,omitempty" protobuf:"bytes,3,rep,name=compatibilityGroups"`
}

// DeviceCapacity is one quantity of a device.
type DeviceCapacity struct {
	// Value is the device's total amount. It does not change when parts
	// of it are consumed; the scheduler tracks consumption separately.
	//
	// +required
	Value resource.Quantity `json:"value" protobuf:"bytes,1,rep,name=value"`

	// RequestPolicy says how a shared device's capacity may be consumed
	// (only with allowMultipleAllocations). Without it a request may take
	// any amount up to what is left, and the full value when it asks for
	// none. Beta; DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	RequestPolicy *CapacityRequestPolicy `json:"requestPolicy,omitempty" protobuf:"bytes,2,opt,name=requestPolicy"`
}

// Counter is an amount of one counter.
type Counter struct {
	// Value is the amount.
	//
	// +required
	Value resource.Quantity `json:"value" protobuf:"bytes,1,rep,name=value"`
}

// CapacityRequestPolicy limits how requests consume a capacity. At most
// one of validValues and validRange may be set.
type CapacityRequestPolicy struct {
	// Default is consumed by a request that does not ask for this
	// capacity. Note that this field is written as null when unset.
	//
	// +optional
	Default *resource.Quantity `json:"default" protobuf:"bytes,1,opt,name=default"`

	// ValidValues are the amounts a request may consume, ascending, at
	// most 10, including default (which must then be set). A request is
	// rounded up to the next valid value; above the largest it cannot be
	// satisfied by this device.
	//
	// +optional
	// +listType=atomic
	// +oneOf=ValidRequestValues
	ValidValues []resource.Quantity `json:"validValues,omitempty" protobuf:"bytes,3,opt,name=validValues"`

	// ValidRange is the range of amounts a request may consume; default
	// must be set and inside it. A request outside the range cannot be
	// satisfied by this device.
	//
	// +optional
	// +oneOf=ValidRequestValues
	ValidRange *CapacityRequestPolicyRange `json:"validRange,omitempty" protobuf:"bytes,4,opt,name=validRange"`
}

// CapacityRequestPolicyRange is a range of valid capacity requests. A
// request below min is raised to min; with step it is rounded up to
// min + n×step; above max (after rounding) it cannot be satisfied. The
// comparisons use integers, or milli-units when the
// DRAFractionalCapacityRange feature gate is on and a bound is fractional.
type CapacityRequestPolicyRange struct {
	// Min is the smallest amount a request consumes: at least zero, at
	// most the capacity value and at most the policy default.
	//
	// +required
	Min *resource.Quantity `json:"min,omitempty" protobuf:"bytes,1,opt,name=min"`

	// Max is the largest amount a request may consume: at most the
	// capacity value, and not below min or the policy default.
	//
	// +optional
	Max *resource.Quantity `json:"max,omitempty" protobuf:"bytes,2,opt,name=max"`

	// Step is the granularity of amounts above min; max and the policy
	// default must be multiples of it, and min + step must not exceed the
	// capacity value.
	//
	// +optional
	Step *resource.Quantity `json:"step,omitempty" protobuf:"bytes,3,opt,name=step"`
}

// ResourceSliceMaxAttributesAndCapacitiesPerDevice is the maximum number of
// attributes plus capacities of one device.
const ResourceSliceMaxAttributesAndCapacitiesPerDevice = 32

// ResourceSliceMaxAttributeValuesPerDevice is the maximum number of values
// (scalar attributes plus every element of list attributes) of one device.
const ResourceSliceMaxAttributeValuesPerDevice = 48

// QualifiedName names a device attribute or capacity. It is either a C
// identifier of at most 32 characters, which is taken to be in the
// driver's own domain, or "<domain>/<identifier>" where the domain is a
// DNS subdomain of at most 63 characters. Names from outside the driver's
// domain must carry the domain. A name should mean the same thing, with
// the same type, on every device.
type QualifiedName string

// FullyQualifiedName is a QualifiedName that always includes the domain.
type FullyQualifiedName string

// DeviceMaxDomainLength is the maximum length of the domain part of a
// qualified name.
const DeviceMaxDomainLength = 63

// DeviceMaxIDLength caps the identifier (the part after any slash) of an
// attribute or capacity name.
const DeviceMaxIDLength = 32

// DeviceAttribute is the value of one device attribute; one field, and
// only one, has to be set. The Go names carry a Value suffix; the wire
// names do not.
type DeviceAttribute struct {
	// IntValue is an integer value.
	//
	// +optional
	IntValue *int64 `json:"int,omitempty" protobuf:"varint,2,opt,name=int"`

	// BoolValue is a boolean value.
	//
	// +optional
	BoolValue *bool `json:"bool,omitempty" protobuf:"varint,3,opt,name=bool"`

	// StringValue is a string value of at most 64 characters.
	//
	// +optional
	StringValue *string `json:"string,omitempty" protobuf:"bytes,4,opt,name=string"`

	// VersionValue is a semantic version (semver.org 2.0.0) of at most 64
	// characters.
	//
	// +optional
	VersionValue *string `json:"version,omitempty" protobuf:"bytes,5,opt,name=version"`

	// IntValues is a non-empty list of integers. Alpha;
	// DRAListTypeAttributes feature gate.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAListTypeAttributes
	IntValues []int64 `json:"ints,omitempty" protobuf:"varint,6,opt,name=ints"`

	// BoolValues is a non-empty list of booleans. Alpha;
	// DRAListTypeAttributes feature gate.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAListTypeAttributes
	BoolValues []bool `json:"bools,omitempty" protobuf:"varint,7,opt,name=bools"`

	// StringValues is a non-empty list of strings of at most 64
	// characters each. Alpha; DRAListTypeAttributes feature gate.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAListTypeAttributes
	StringValues []string `json:"strings,omitempty" protobuf:"bytes,8,opt,name=strings"`

	// VersionValues is a non-empty list of semantic versions of at most
	// 64 characters each. Alpha; DRAListTypeAttributes feature gate.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAListTypeAttributes
	VersionValues []string `json:"versions,omitempty" protobuf:"bytes,9,opt,name=versions"`
}

// DeviceAttributeMaxValueLength caps the length of string and version
// attribute values.
const DeviceAttributeMaxValueLength = 64

// DeviceTaintsMaxLength is the maximum number of taints of one device.
const DeviceTaintsMaxLength = 16

// DeviceTaint marks a device: claims that do not tolerate the taint, and
// the pods using them, are subject to its effect.
//
// +protobuf.options.(gogoproto.goproto_stringer)=false
type DeviceTaint struct {
	// Key of the taint, a label name.
	//
	// +required
	Key string `json:"key" protobuf:"bytes,1,name=key"`

	// Value of the taint, a label value.
	//
	// +optional
	Value string `json:"value,omitempty" protobuf:"bytes,2,opt,name=value"`

	// Effect on claims that do not tolerate the taint: None, NoSchedule or
	// NoExecute (PreferNoSchedule is not valid here). More may be added;
	// consumers treat unknown effects like None.
	//
	// +required
	Effect DeviceTaintEffect `json:"effect" protobuf:"bytes,3,name=effect,casttype=DeviceTaintEffect"`

	// TimeAdded is when the taint was added or, in a DeviceTaintRule, when
	// its effect last changed. Set on create and update when empty; in a
	// DeviceTaintRule the server also replaces an unchanged value when the
	// effect changes.
	//
	// +optional
	TimeAdded *metav1.Time `json:"timeAdded,omitempty" protobuf:"bytes,4,opt,name=timeAdded"`
}

// String formats a taint as key, key=value:, key:effect or
// key=value:effect, depending on which parts are set.
func (t DeviceTaint) String() string {
	s := t.Key
	if t.Value != "" {
		s += "=" + t.Value
		if t.Effect == "" {
			return s + ":"
		}
	}
	if t.Effect != "" {
		s += ":" + string(t.Effect)
	}
	return s
}

var _ fmt.Stringer = DeviceTaint{}

// DeviceTaintEffect is the effect of a device taint.
//
// +enum
type DeviceTaintEffect string

const (
	// DeviceTaintEffectNone has no effect; the taint is informational.
	DeviceTaintEffectNone DeviceTaintEffect = "None"

	// DeviceTaintEffectNoSchedule keeps new pods that do not tolerate the
	// taint from being scheduled with the device; pods already running,
	// or started without the scheduler, are left alone.
	DeviceTaintEffectNoSchedule DeviceTaintEffect = "NoSchedule"

	// DeviceTaintEffectNoExecute also evicts running pods that do not
	// tolerate the taint.
	DeviceTaintEffectNoExecute DeviceTaintEffect = "NoExecute"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DeviceTaintRule puts one taint on every device its selector matches,
// with the same effect as if the driver had published the taint in its
// ResourceSlice. Part of v1beta2 since 1.36.
type DeviceTaintRule struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is the selector and the taint. Any change to it increments
	// metadata.generation.
	//
	// +required
	Spec DeviceTaintRuleSpec `json:"spec" protobuf:"bytes,2,name=spec"`

	// Status reports on what the spec caused.
	//
	// +optional
	Status DeviceTaintRuleStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// DeviceTaintRuleSpec is the selector and the taint of a DeviceTaintRule.
type DeviceTaintRuleSpec struct {
	// DeviceSelector picks the tainted devices; a device must meet every
	// criterion. An empty selector matches all devices; no selector
	// matches none.
	//
	// +optional
	DeviceSelector *DeviceTaintSelector `json:"deviceSelector,omitempty" protobuf:"bytes,1,opt,name=deviceSelector"`

	// Taint is put on the matching devices.
	//
	// +required
	Taint DeviceTaint `json:"taint,omitempty" protobuf:"bytes,2,rep,name=taint"`
}

// DeviceTaintSelector picks the devices a DeviceTaintRule applies to. The
// empty selector matches every device.
type DeviceTaintSelector struct {
	// Protobuf field 1 (deviceClassName) is retired since 1.35.

	// Driver, when set, selects only devices of that driver
	// (slice spec.driver).
	//
	// +optional
	Driver *string `json:"driver,omitempty" protobuf:"bytes,2,opt,name=driver"`

	// Pool, when set, selects only devices of pools with that name, of
	// any driver unless driver is set too.
	//
	// +optional
	Pool *string `json:"pool,omitempty" protobuf:"bytes,3,opt,name=pool"`

	// Device, when set, selects only devices with that name (slice
	// spec.devices[].name); driver and pool may be needed to make it
	// unambiguous.
	//
	// +optional
	Device *string `json:"device,omitempty" protobuf:"bytes,4,opt,name=device"`

	// Protobuf field 5 (selectors) is retired since 1.35.
}

// DeviceTaintRuleStatus reports on the evictions a DeviceTaintRule causes.
type DeviceTaintRuleStatus struct {
	// Conditions describe the rule's state, keyed by type; at most 8.
	// Defined type: EvictionInProgress, True while pods still have to be
	// evicted (the message counts pending and evicted pods). For effect
	// None it is set once per spec change and tells what NoExecute would
	// do.
	//
	// +optional
	// +listType=map
	// +listMapKey=type
	// +patchStrategy=merge
	// +patchMergeKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,1,rep,name=conditions"`
}

// DeviceTaintRuleStatusMaxConditions is the maximum number of conditions of
// a DeviceTaintRule status.
const DeviceTaintRuleStatusMaxConditions = 8

// DeviceTaintConditionEvictionInProgress is the condition type a
// DeviceTaintRule status reports evictions with.
const DeviceTaintConditionEvictionInProgress = "EvictionInProgress"

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DeviceTaintRuleList is a list of DeviceTaintRules.
type DeviceTaintRuleList struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the list.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the DeviceTaintRules of the list.
	Items []DeviceTaintRule `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceSliceList is a list of ResourceSlices.
type ResourceSliceList struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the list.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the ResourceSlices of the list.
	Items []ResourceSlice `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaim asks for devices for use by workloads, for example an
// accelerator with certain properties. The spec states what is wanted;
// the status records whether and how the request was satisfied.
type ResourceClaim struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is what is requested and how it is configured. Immutable.
	//
	// +optional
	Spec ResourceClaimSpec `json:"spec" protobuf:"bytes,2,name=spec"`

	// Status is the allocation state of the claim.
	//
	// +optional
	Status ResourceClaimStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ResourceClaimSpec is the request part of a ResourceClaim.
type ResourceClaimSpec struct {
	// Devices lists the device requests, constraints and configuration.
	//
	// +optional
	Devices DeviceClaim `json:"devices" protobuf:"bytes,1,name=devices"`

	// Protobuf field 2 (controller) is retired since 1.32.
}

// DeviceClaim groups what a claim asks for: the requests, the constraints
// between them and the configuration for the allocated devices.
type DeviceClaim struct {
	// Requests are the individual device requests. At most 32, with
	// unique names. All must be satisfied; none means nothing is
	// allocated. Note that this field is written as null when unset.
	//
	// +optional
	// +listType=atomic
	Requests []DeviceRequest `json:"requests" protobuf:"bytes,1,name=requests"`

	// Constraints must hold across the devices allocated for the claim.
	// At most 32.
	//
	// +optional
	// +listType=atomic
	Constraints []DeviceConstraint `json:"constraints,omitempty" protobuf:"bytes,2,opt,name=constraints"`

	// Config is configuration for the drivers that may serve the
	// requests; it is passed on but not used for allocation. At most 32.
	//
	// +optional
	// +listType=atomic
	Config []DeviceClaimConfiguration `json:"config,omitempty" protobuf:"bytes,3,opt,name=config"`
}

const (
	// DeviceRequestsMaxSize is the maximum number of requests in a claim.
	DeviceRequestsMaxSize = AllocationResultsMaxSize
	// DeviceConstraintsMaxSize is the maximum number of constraints in a claim.
	DeviceConstraintsMaxSize = 32
	// DeviceConfigMaxSize is the maximum number of config entries in a claim or class.
	DeviceConfigMaxSize = 32
)

const (
	// DRAAdminNamespaceLabelKey is the namespace label that, with the
	// value "true" (case-sensitive), allows adminAccess: true in the
	// ResourceClaims and ResourceClaimTemplates of that namespace.
	DRAAdminNamespaceLabelKey = "resource.kubernetes.io/admin-access"
)

// DeviceRequest is one request of a claim: either one exact request for
// one or more identical devices, or a prioritized list of alternatives.
// Exactly one of exactly and firstAvailable must be set.
type DeviceRequest struct {
	// Name identifies the request within the claim; container resource
	// claims, constraints, config and allocation results refer to it.
	// With firstAvailable, the name stands for whichever alternative was
	// chosen. A DNS label.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// Exactly is a request for devices that must match it exactly.
	//
	// +optional
	// +oneOf=deviceRequestType
	Exactly *ExactDeviceRequest `json:"exactly,omitempty" protobuf:"bytes,2,name=exactly"`

	// FirstAvailable lists alternatives in order of preference; the
	// scheduler uses the first one it can satisfy (it does not score, so
	// the result need not be the best possible). At most 8, with unique
	// names. DRAPrioritizedList feature gate (GA in 1.36).
	//
	// +optional
	// +oneOf=deviceRequestType
	// +listType=atomic
	// +featureGate=DRAPrioritizedList
	FirstAvailable []DeviceSubRequest `json:"firstAvailable,omitempty" protobuf:"bytes,3,name=firstAvailable"`
}

// ExactDeviceRequest asks for one or more identical devices of one device
// class. A device must match the class and every selector of the request.
type ExactDeviceRequest struct {
	// DeviceClassName is the DeviceClass whose selectors and config apply
	// to this request; required. Administrators can limit what may be
	// requested by the classes they install.
	//
	// +required
	DeviceClassName string `json:"deviceClassName" protobuf:"bytes,1,name=deviceClassName"`

	// Selectors are extra conditions a device must meet, in addition to
	// those of the class. All must match. At most 32.
	//
	// +optional
	// +listType=atomic
	Selectors []DeviceSelector `json:"selectors,omitempty" protobuf:"bytes,2,name=selectors"`

	// AllocationMode says how many devices are wanted: ExactCount (the
	// default) allocates exactly count devices; All allocates every
	// matching device in the pool, needs at least one, and fails if one of
	// them is already allocated (unless adminAccess is set). Clients must
	// refuse requests with modes they do not know.
	//
	// +optional
	AllocationMode DeviceAllocationMode `json:"allocationMode,omitempty" protobuf:"bytes,3,opt,name=allocationMode"`

	// Count is the number of devices for ExactCount; it must be positive
	// there and defaults to 1. Only used with ExactCount.
	//
	// +optional
	// +oneOf=AllocationMode
	Count int64 `json:"count,omitempty" protobuf:"bytes,4,opt,name=count"`

	// AdminAccess, when true, requests the devices for administration
	// (monitoring, management): ordinary allocations of the devices are
	// ignored and the request does not count as using them. Needs the
	// admin-access label on the namespace. DRAAdminAccess feature gate
	// (GA in 1.36).
	//
	// +optional
	// +featureGate=DRAAdminAccess
	AdminAccess *bool `json:"adminAccess,omitempty" protobuf:"bytes,5,opt,name=adminAccess"`

	// Tolerations let the request use devices with matching taints. A
	// NoSchedule or NoExecute taint must be tolerated for the device to be
	// allocated; a NoExecute taint that appears later and is not
	// tolerated evicts the claim's pods, after which the claim is
	// deallocated. At most 16. DRADeviceTaints feature gate (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Tolerations []DeviceToleration `json:"tolerations,omitempty" protobuf:"bytes,6,opt,name=tolerations"`

	// Capacity is how much of each capacity every allocated device must
	// provide and consumes. Unset, a shared device's capacities are
	// consumed by their request policy's default, or fully without one.
	// Beta; DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	Capacity *CapacityRequirements `json:"capacity,omitempty" protobuf:"bytes,7,opt,name=capacity"`

	// DerivedAttributes are virtual attributes computed by CEL for each
	// candidate device, for use in the claim's matchAttribute and
	// distinctAttribute constraints (every one must be used there); they
	// are not visible to selectors. At most 32. Alpha (1.37);
	// DRADerivedAttributes feature gate.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADerivedAttributes
	DerivedAttributes []DeviceDerivedAttribute `json:"derivedAttributes,omitempty" protobuf:"bytes,8,rep,name=derivedAttributes"`
}

// DeviceSubRequest is one alternative of a request's firstAvailable list.
// It is like ExactDeviceRequest without adminAccess.
type DeviceSubRequest struct {
	// Name identifies the alternative; references use
	// "<request>/<subrequest>". A DNS label.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// DeviceClassName is the DeviceClass whose selectors and config apply
	// to this alternative; required.
	//
	// +required
	DeviceClassName string `json:"deviceClassName" protobuf:"bytes,2,name=deviceClassName"`

	// Selectors are extra conditions a device must meet, in addition to
	// those of the class. All must match. At most 32.
	//
	// +optional
	// +listType=atomic
	Selectors []DeviceSelector `json:"selectors,omitempty" protobuf:"bytes,3,name=selectors"`

	// AllocationMode says how many devices are wanted: ExactCount (the
	// default) or All, as in ExactDeviceRequest.
	//
	// +optional
	AllocationMode DeviceAllocationMode `json:"allocationMode,omitempty" protobuf:"bytes,4,opt,name=allocationMode"`

	// Count is the number of devices for ExactCount; it must be positive
	// there and defaults to 1. Only used with ExactCount.
	//
	// +optional
	// +oneOf=AllocationMode
	Count int64 `json:"count,omitempty" protobuf:"bytes,5,opt,name=count"`

	// Tolerations let the alternative use devices with matching taints,
	// as in ExactDeviceRequest. At most 16. DRADeviceTaints feature gate
	// (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Tolerations []DeviceToleration `json:"tolerations,omitempty" protobuf:"bytes,6,opt,name=tolerations"`

	// Capacity is how much of each capacity every allocated device must
	// provide and consumes, as in ExactDeviceRequest. Beta;
	// DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	Capacity *CapacityRequirements `json:"capacity,omitempty" protobuf:"bytes,7,opt,name=capacity"`

	// DerivedAttributes are virtual attributes for the claim's
	// constraints, as in ExactDeviceRequest. At most 32. Alpha (1.37);
	// DRADerivedAttributes feature gate.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADerivedAttributes
	DerivedAttributes []DeviceDerivedAttribute `json:"derivedAttributes,omitempty" protobuf:"bytes,8,rep,name=derivedAttributes"`
}

// CapacityRequirements are the capacity amounts a request asks of each
// allocated device.
type CapacityRequirements struct {
	// Requests maps capacity names to the amount wanted. A device must
	// have at least that much (after rounding up by its request policy)
	// or it is not eligible. Capacities not named here are consumed by
	// the policy's default, or fully without a policy. For shared devices
	// the sum over all allocations must stay within the capacity value.
	//
	// +optional
	Requests map[QualifiedName]resource.Quantity `json:"requests,omitempty" protobuf:"bytes,1,rep,name=requests,castkey=QualifiedName"`
}

// DeviceDerivedAttribute is a virtual attribute computed by CEL for each
// candidate device of a request.
type DeviceDerivedAttribute struct {
	// Name is the attribute's fully qualified name, used in constraints.
	// A name equal to a driver attribute shadows it in constraints; a
	// domain no driver uses (such as "derived/") avoids that.
	//
	// +required
	Name FullyQualifiedName `json:"name" protobuf:"bytes,1,name=name"`

	// Expression is CEL evaluated against `device` (as in a
	// CELDeviceSelector) after the request's selectors matched. It must
	// give a string, integer, boolean or semver, or a list of one of
	// those; an evaluation error fails the pod's scheduling. At most
	// 10 Ki; all derived attributes of a claim share one cost budget.
	//
	// +required
	Expression string `json:"expression" protobuf:"bytes,2,name=expression"`
}

const (
	// DeviceSelectorsMaxSize is the maximum number of selectors in a request or class.
	DeviceSelectorsMaxSize = 32
	// FirstAvailableDeviceRequestMaxSize is the maximum number of alternatives in firstAvailable.
	FirstAvailableDeviceRequestMaxSize = 8
	// DeviceTolerationsMaxLength is the maximum number of tolerations of a request.
	DeviceTolerationsMaxLength = 16
	// DeviceDerivedAttributesMaxSize is the maximum number of derived attributes of a request.
	DeviceDerivedAttributesMaxSize = 32
)

// DeviceAllocationMode says how many devices a request wants.
//
// +enum
type DeviceAllocationMode string

const (
	// DeviceAllocationModeExactCount allocates exactly the requested count of devices.
	DeviceAllocationModeExactCount = DeviceAllocationMode("ExactCount")
	// DeviceAllocationModeAll allocates every matching device.
	DeviceAllocationModeAll = DeviceAllocationMode("All")
)

// DeviceSelector is one condition on a device; one field, and only one,
// has to be set.
type DeviceSelector struct {
	// CEL selects devices with a CEL expression.
	//
	// +optional
	// +oneOf=SelectorType
	CEL *CELDeviceSelector `json:"cel,omitempty" protobuf:"bytes,1,opt,name=cel"`
}

// CELDeviceSelector selects devices with a Common Expression Language
// expression.
type CELDeviceSelector struct {
	// Expression holds CEL source evaluated against the variable
	// `device`, which has the fields `driver` (string), `attributes` (a
	// map from domain to a map from identifier to value), `capacity` (the
	// same shape, with quantities) and `allowMultipleAllocations` (bool,
	// with DRAConsumableCapacity). An unknown domain gives an empty map;
	// an unknown field is an evaluation error. cel.bind and the semver
	// functions are available, and includes() with DRAListTypeAttributes.
	// The result must be a boolean: true selects the device; an
	// evaluation error aborts the allocation. At most 10 Ki, and its
	// estimated cost is limited.
	//
	// +required
	Expression string `json:"expression" protobuf:"bytes,1,name=expression"`
}

// CELSelectorExpressionMaxCost is the cost limit of one evaluation of a
// CEL selector. Validation checks the estimated cost when an expression is
// set or changed; the scheduler enforces the limit at run time, so a
// stored expression can still fail after an upgrade or a misestimate.
const CELSelectorExpressionMaxCost = 1000000

// DeviceClaimDerivedAttributeCELMaxCost is the budget for the summed
// estimated cost of all derived attribute expressions of one claim; a
// claim over it is rejected.
const DeviceClaimDerivedAttributeCELMaxCost = 1000000

// CELSelectorExpressionMaxLength is the maximum length of a CEL selector
// expression.
const CELSelectorExpressionMaxLength = 10 * 1024

// DeviceConstraint is a condition across the devices of several requests;
// besides requests, one field, and only one, has to be set.
type DeviceConstraint struct {
	// Requests names the requests the constraint covers ("<request>" for
	// all alternatives of a request, or "<request>/<subrequest>"); empty
	// means all requests of the claim. At most 32, unique.
	//
	// +optional
	// +listType=atomic
	Requests []string `json:"requests,omitempty" protobuf:"bytes,1,opt,name=requests"`

	// MatchAttribute is a fully qualified attribute name that every
	// covered device must have, with the same type and value on all of
	// them; devices lacking it are not used. With DRAListTypeAttributes,
	// values compare as sets and match when all of them intersect.
	//
	// +optional
	// +oneOf=ConstraintType
	MatchAttribute *FullyQualifiedName `json:"matchAttribute,omitempty" protobuf:"bytes,2,opt,name=matchAttribute"`

	// DistinctAttribute is a fully qualified attribute name that every
	// covered device must have, with a different value on each (with
	// DRAListTypeAttributes, pairwise disjoint sets); for example to get
	// two interfaces on different NICs. Beta; DRAConsumableCapacity
	// feature gate.
	//
	// +optional
	// +oneOf=ConstraintType
	// +featureGate=DRAConsumableCapacity
	DistinctAttribute *FullyQualifiedName `json:"distinctAttribute,omitempty" protobuf:"bytes,3,opt,name=distinctAttribute"`
}

// DeviceClaimConfiguration is configuration from a claim for the devices
// of some of its requests.
type DeviceClaimConfiguration struct {
	// Requests names the requests the configuration is for
	// ("<request>" or "<request>/<subrequest>"); empty means all requests
	// of the claim. At most 32, unique.
	//
	// +optional
	// +listType=atomic
	Requests []string `json:"requests,omitempty" protobuf:"bytes,1,opt,name=requests"`

	// DeviceConfiguration is the configuration itself, inlined.
	DeviceConfiguration `json:",inline" protobuf:"bytes,2,name=deviceConfiguration"`
}

// DeviceConfiguration is one piece of device configuration; one field,
// and only one, has to be set. It is inlined into other types, so its
// field names must not clash with theirs.
type DeviceConfiguration struct {
	// Opaque is configuration for one driver, in the driver's own format.
	//
	// +optional
	// +oneOf=ConfigurationType
	Opaque *OpaqueDeviceConfiguration `json:"opaque,omitempty" protobuf:"bytes,1,opt,name=opaque"`
}

// OpaqueDeviceConfiguration is driver-specific configuration that only
// the named driver interprets.
type OpaqueDeviceConfiguration struct {
	// Driver is the driver (its kubelet plugin) the parameters are for;
	// other drivers ignore them. Must be a valid driver name.
	//
	// +required
	Driver string `json:"driver" protobuf:"bytes,1,name=driver"`

	// Parameters is the driver's configuration, at most 10 Ki; the
	// driver validates and versions it, usually as a type with apiVersion
	// and kind.
	//
	// +required
	Parameters runtime.RawExtension `json:"parameters" protobuf:"bytes,2,name=parameters"`
}

// OpaqueParametersMaxLength is the maximum length of the raw data of
// OpaqueDeviceConfiguration.Parameters.
const OpaqueParametersMaxLength = 10 * 1024

// DeviceToleration lets a claim use devices with a matching taint: the
// taint's key, value and effect are compared using the operator.
type DeviceToleration struct {
	// Key is the taint key to match, a label name; empty matches every
	// key and then needs operator Exists.
	//
	// +optional
	Key string `json:"key,omitempty" protobuf:"bytes,1,opt,name=key"`

	// Operator is Equal (the default: the value must be equal) or Exists
	// (any value).
	//
	// +optional
	// +default="Equal"
	Operator DeviceTolerationOperator `json:"operator,omitempty" protobuf:"bytes,2,opt,name=operator,casttype=DeviceTolerationOperator"`

	// Value is the taint value to match, a label value; empty with
	// Exists.
	//
	// +optional
	Value string `json:"value,omitempty" protobuf:"bytes,3,opt,name=value"`

	// Effect is the taint effect to match (NoSchedule or NoExecute);
	// empty matches every effect.
	//
	// +optional
	Effect DeviceTaintEffect `json:"effect,omitempty" protobuf:"bytes,4,opt,name=effect,casttype=DeviceTaintEffect"`

	// TolerationSeconds is, for NoExecute only, how long after the taint
	// was added the pods may keep running; unset means forever, zero or
	// less means evict at once.
	//
	// +optional
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty" protobuf:"varint,5,opt,name=tolerationSeconds"`
}

// DeviceTolerationOperator is how a toleration compares the taint value.
//
// +enum
type DeviceTolerationOperator string

const (
	// DeviceTolerationOpExists matches any value.
	DeviceTolerationOpExists DeviceTolerationOperator = "Exists"
	// DeviceTolerationOpEqual matches an equal value.
	DeviceTolerationOpEqual DeviceTolerationOperator = "Equal"
)

// ResourceClaimStatus records the allocation, the users and the device
// state of a claim.
type ResourceClaimStatus struct {
	// Allocation is the result of a successful allocation. Once set, it
	// cannot be changed.
	//
	// +optional
	Allocation *AllocationResult `json:"allocation,omitempty" protobuf:"bytes,1,opt,name=allocation"`

	// ReservedFor lists the consumers (usually pods) that may use the
	// allocated devices, keyed by uid, at most 256. A pod not listed is
	// not started, and a reserved claim must not be deallocated. When
	// schedulers race for the last free slot, the first update stored
	// wins and the other retries.
	//
	// +optional
	// +listType=map
	// +listMapKey=uid
	// +patchStrategy=merge
	// +patchMergeKey=uid
	ReservedFor []ResourceClaimConsumerReference `json:"reservedFor,omitempty" protobuf:"bytes,2,opt,name=reservedFor" patchStrategy:"merge" patchMergeKey:"uid"`

	// Protobuf field 3 (deallocationRequested) is retired since 1.32.

	// Devices is the state of allocated devices as reported by their
	// drivers, one entry per driver, pool, device and share ID; each
	// driver owns its entries. DRAResourceClaimDeviceStatus feature gate
	// (GA in 1.37).
	//
	// +optional
	// +listType=map
	// +listMapKey=driver
	// +listMapKey=device
	// +listMapKey=pool
	// +listMapKey=shareID
	// +featureGate=DRAResourceClaimDeviceStatus
	Devices []AllocatedDeviceStatus `json:"devices,omitempty" protobuf:"bytes,4,opt,name=devices"`
}

// ResourceClaimReservedForMaxSize is the maximum number of reservedFor
// entries; it may grow but will not shrink.
const ResourceClaimReservedForMaxSize = 256

// ResourceClaimConsumerReference points to an object that uses a claim.
// The object must be in the claim's namespace.
type ResourceClaimConsumerReference struct {
	// APIGroup of the consumer; empty for the core group.
	//
	// +optional
	APIGroup string `json:"apiGroup,omitempty" protobuf:"bytes,1,opt,name=apiGroup"`
	// Resource is the consumer's resource type, for example "pods".
	//
	// +required
	Resource string `json:"resource" protobuf:"bytes,3,name=resource"`
	// Name of the consumer.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,4,name=name"`
	// UID of the consumer; it tells apart objects with the same name.
	//
	// +required
	UID types.UID `json:"uid" protobuf:"bytes,5,name=uid"`
}

// AllocationResult describes what was allocated for a claim.
type AllocationResult struct {
	// Devices is the allocation made for the device requests.
	//
	// +optional
	Devices DeviceAllocationResult `json:"devices,omitempty" protobuf:"bytes,1,opt,name=devices"`

	// NodeSelector limits the nodes on which the allocated devices can be
	// used. Unset means every node.
	//
	// +optional
	NodeSelector *v1.NodeSelector `json:"nodeSelector,omitempty" protobuf:"bytes,3,opt,name=nodeSelector"`

	// Protobuf field 4 (controller) is retired since 1.32; field 2 has
	// been unused since 1.31.

	// AllocationTimestamp is when the devices were allocated; it may be
	// missing. Beta; DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus feature gates.
	//
	// +optional
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	AllocationTimestamp *metav1.Time `json:"allocationTimestamp,omitempty" protobuf:"bytes,5,opt,name=allocationTimestamp"`
}

// DeviceAllocationResult lists the allocated devices and their
// configuration.
type DeviceAllocationResult struct {
	// Results has one entry per allocated device. At most 32.
	//
	// +optional
	// +listType=atomic
	Results []DeviceRequestAllocationResult `json:"results,omitempty" protobuf:"bytes,1,opt,name=results"`

	// Config is all configuration from the claim and its classes, marked
	// by source, including that for drivers without allocated devices
	// (drivers ignore what they do not know). At most 64.
	//
	// +optional
	// +listType=atomic
	Config []DeviceAllocationConfiguration `json:"config,omitempty" protobuf:"bytes,2,opt,name=config"`
}

// AllocationResultsMaxSize is the maximum number of allocation results.
const AllocationResultsMaxSize = 32

// DeviceRequestAllocationResult is one device allocated for a request.
type DeviceRequestAllocationResult struct {
	// Request is the request the device was allocated for, as
	// "<request>/<subrequest>" when an alternative of firstAvailable was
	// chosen. A request may have several results.
	//
	// +required
	Request string `json:"request" protobuf:"bytes,1,name=request"`

	// Driver is the driver whose kubelet plugin prepares the device. Must
	// be a valid driver name.
	//
	// +required
	Driver string `json:"driver" protobuf:"bytes,2,name=driver"`

	// Pool is the pool of the device; with driver and device it names the
	// device as <driver>/<pool>/<device>. At most 253 characters, DNS
	// subdomains separated by slashes.
	//
	// +required
	Pool string `json:"pool" protobuf:"bytes,3,name=pool"`

	// Device is the device's name in the pool, a DNS label.
	//
	// +required
	Device string `json:"device" protobuf:"bytes,4,name=device"`

	// AdminAccess records that the device was allocated for admin access
	// (see ExactDeviceRequest.AdminAccess). DRAAdminAccess feature gate
	// (GA in 1.36).
	//
	// +optional
	// +featureGate=DRAAdminAccess
	AdminAccess *bool `json:"adminAccess,omitempty" protobuf:"bytes,5,opt,name=adminAccess"`

	// Tolerations are the request's tolerations at allocation time. At
	// most 16. DRADeviceTaints feature gate (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Tolerations []DeviceToleration `json:"tolerations,omitempty" protobuf:"bytes,6,opt,name=tolerations"`

	// BindingConditions are the device's binding conditions at allocation
	// time. Beta; DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus feature gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingConditions []string `json:"bindingConditions,omitempty" protobuf:"bytes,7,rep,name=bindingConditions"`

	// BindingFailureConditions are the device's binding failure
	// conditions at allocation time. Beta; DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus feature gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingFailureConditions []string `json:"bindingFailureConditions,omitempty" protobuf:"bytes,8,rep,name=bindingFailureConditions"`

	// ShareID tells apart concurrent allocations of a device that allows
	// multiple allocations. Beta; DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	ShareID *types.UID `json:"shareID,omitempty" protobuf:"bytes,9,opt,name=shareID"`

	// ConsumedCapacity is how much of each capacity this allocation takes
	// (the request rounded up by the request policy), for devices that
	// allow multiple allocations only, with every capacity listed. Beta;
	// DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	ConsumedCapacity map[QualifiedName]resource.Quantity `json:"consumedCapacity,omitempty" protobuf:"bytes,10,rep,name=consumedCapacity"`

	// SkipNodeOperations is the slice's skipNodeOperations at allocation
	// time. Alpha (1.37); DRAOptionalNodeOperations feature gate.
	//
	// +optional
	// +listType=set
	// +featureGate=DRAOptionalNodeOperations
	SkipNodeOperations []SkipNodeOperation `json:"skipNodeOperations,omitempty" protobuf:"bytes,11,rep,name=skipNodeOperations,casttype=SkipNodeOperation"`
}

// DeviceAllocationConfiguration is configuration in an allocation result,
// with where it came from.
type DeviceAllocationConfiguration struct {
	// Source says whether the configuration came from a class (FromClass,
	// which ordinary users cannot set) or from the claim (FromClaim).
	//
	// +required
	Source AllocationConfigSource `json:"source" protobuf:"bytes,1,name=source"`

	// Requests names the requests the configuration is for
	// ("<request>" or "<request>/<subrequest>"); empty means all requests.
	// At most 32, unique.
	//
	// +optional
	// +listType=atomic
	Requests []string `json:"requests,omitempty" protobuf:"bytes,2,opt,name=requests"`

	// DeviceConfiguration is the configuration itself, inlined.
	DeviceConfiguration `json:",inline" protobuf:"bytes,3,name=deviceConfiguration"`
}

// AllocationConfigSource says where allocated configuration came from.
//
// +enum
type AllocationConfigSource string

const (
	// AllocationConfigSourceClass is configuration from a DeviceClass.
	AllocationConfigSourceClass AllocationConfigSource = "FromClass"
	// AllocationConfigSourceClaim is configuration from the claim.
	AllocationConfigSourceClaim AllocationConfigSource = "FromClaim"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaimList is a list of ResourceClaims.
type ResourceClaimList struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the list.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the ResourceClaims of the list.
	Items []ResourceClaim `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DeviceClass is a cluster-scoped set of selectors and configuration,
// provided by a vendor or administrator, that device requests refer to.
type DeviceClass struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec says which devices the class admits and how they are
	// configured. It may change at any time; an allocation uses the class
	// as it was at allocation time. Any change to it increments
	// metadata.generation.
	//
	// +optional
	Spec DeviceClassSpec `json:"spec" protobuf:"bytes,2,name=spec"`
}

// DeviceClassSpec is the content of a DeviceClass.
type DeviceClassSpec struct {
	// Selectors must all be met by every device claimed through the
	// class. At most 32.
	//
	// +optional
	// +listType=atomic
	Selectors []DeviceSelector `json:"selectors,omitempty" protobuf:"bytes,1,opt,name=selectors"`

	// Config is configuration for each device claimed through the class,
	// one entry per driver; passed on but not used for allocation. At
	// most 32.
	//
	// +optional
	// +listType=atomic
	Config []DeviceClassConfiguration `json:"config,omitempty" protobuf:"bytes,2,opt,name=config"`

	// Protobuf field 3 (suitableNodes) is retired since 1.32.

	// ExtendedResourceName is the extended resource name (same format as
	// a pod's) through which pods can request devices of this class. It
	// should be unique among classes; on a clash the newest class wins,
	// and among classes created at the same time the first by name.
	// DRAExtendedResource feature gate (GA in 1.37).
	//
	// +optional
	// +featureGate=DRAExtendedResource
	ExtendedResourceName *string `json:"extendedResourceName,omitempty" protobuf:"bytes,4,opt,name=extendedResourceName"`
}

// DeviceClassConfiguration is one configuration entry of a DeviceClass.
type DeviceClassConfiguration struct {
	// DeviceConfiguration is the configuration itself, inlined.
	DeviceConfiguration `json:",inline" protobuf:"bytes,1,opt,name=deviceConfiguration"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DeviceClassList is a list of DeviceClasses.
type DeviceClassList struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the list.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the DeviceClasses of the list.
	Items []DeviceClass `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaimTemplate is the blueprint from which the control plane
// creates a ResourceClaim for a pod.
type ResourceClaimTemplate struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec describes the claims to create. Immutable; a claim made from
	// it is not updated afterwards.
	//
	// +optional
	Spec ResourceClaimTemplateSpec `json:"spec" protobuf:"bytes,2,name=spec"`
}

// ResourceClaimTemplateSpec is the metadata and spec of the claims made
// from a template.
type ResourceClaimTemplateSpec struct {
	// ObjectMeta holds labels and annotations copied into each claim;
	// other metadata fields are rejected.
	//
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is copied unchanged into each claim; it is validated as a
	// claim spec.
	//
	// +optional
	Spec ResourceClaimSpec `json:"spec" protobuf:"bytes,2,name=spec"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaimTemplateList is a list of ResourceClaimTemplates.
type ResourceClaimTemplateList struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the list.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the ResourceClaimTemplates of the list.
	Items []ResourceClaimTemplate `json:"items" protobuf:"bytes,2,rep,name=items"`
}

const (
	// AllocatedDeviceStatusMaxConditions is the maximum number of
	// conditions of one device status.
	AllocatedDeviceStatusMaxConditions int = 8
	// AllocatedDeviceStatusDataMaxLength is the maximum length of the raw
	// data of a device status.
	AllocatedDeviceStatusDataMaxLength int = 10 * 1024
	// NetworkDeviceDataMaxIPs is the maximum number of IPs in networkData.
	NetworkDeviceDataMaxIPs int = 16
	// NetworkDeviceDataInterfaceNameMaxLength is the maximum length of
	// networkData.interfaceName.
	NetworkDeviceDataInterfaceNameMaxLength int = 256
	// NetworkDeviceDataHardwareAddressMaxLength is the maximum length of
	// networkData.hardwareAddress.
	NetworkDeviceDataHardwareAddressMaxLength int = 128
)

// AllocatedDeviceStatus is a driver's report on one allocated device. Its
// driver, pool, device and shareID must match an allocation result.
type AllocatedDeviceStatus struct {
	// Driver is the driver of the device. Must be a valid driver name.
	//
	// +required
	Driver string `json:"driver" protobuf:"bytes,1,rep,name=driver"`

	// Pool is the pool of the device. At most 253 characters, DNS
	// subdomains separated by slashes.
	//
	// +required
	Pool string `json:"pool" protobuf:"bytes,2,rep,name=pool"`

	// Device is the device's name in the pool, a DNS label.
	//
	// +required
	Device string `json:"device" protobuf:"bytes,3,rep,name=device"`

	// ShareID is the share of the device the status is for, matching the
	// allocation result's shareID. Beta; DRAConsumableCapacity feature
	// gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	ShareID *string `json:"shareID,omitempty" protobuf:"bytes,7,opt,name=shareID"`

	// Conditions are the latest observations of the device, keyed by
	// type, at most 8; Ready should be True once the device is configured
	// as the class and claim ask. Note that this field is written as null
	// when unset.
	//
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions" protobuf:"bytes,4,opt,name=conditions"`

	// Data is driver-specific data, at most 10 Ki.
	//
	// +optional
	Data *runtime.RawExtension `json:"data,omitempty" protobuf:"bytes,5,opt,name=data"`

	// NetworkData is the device's network configuration.
	//
	// +optional
	NetworkData *NetworkDeviceData `json:"networkData,omitempty" protobuf:"bytes,6,opt,name=networkData"`
}

// NetworkDeviceData describes the network interface of an allocated
// device, as set by its driver or other components.
type NetworkDeviceData struct {
	// InterfaceName is the name of the (physical or virtual) network
	// interface in the pod. At most 256 bytes.
	//
	// +optional
	InterfaceName string `json:"interfaceName,omitempty" protobuf:"bytes,1,opt,name=interfaceName"`

	// IPs are the interface's addresses in CIDR notation (for example
	// "192.0.2.5/24" or "2001:db8::5/64"). At most 16, unique.
	//
	// +optional
	// +listType=atomic
	IPs []string `json:"ips,omitempty" protobuf:"bytes,2,opt,name=ips"`

	// HardwareAddress is the interface's hardware (for example MAC)
	// address. At most 128 bytes.
	//
	// +optional
	HardwareAddress string `json:"hardwareAddress,omitempty" protobuf:"bytes,3,opt,name=hardwareAddress"`
}
