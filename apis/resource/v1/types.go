package v1

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
)

const (
	// Finalizer is the finalizer the control plane puts on a ResourceClaim
	// it allocated, so that the claim is not removed while it is still
	// allocated or reserved. Drivers use finalizers of their own.
	Finalizer = "resource.kubernetes.io/delete-protection"

	// ExtendedResourceClaimAnnotation marks the ResourceClaim the scheduler
	// creates to satisfy a pod's extended-resource requests through DRA.
	// Its only valid value is "true"; only the scheduler uses it (1.34+).
	ExtendedResourceClaimAnnotation = "resource.kubernetes.io/extended-resource-claim"

	// PodResourceClaimAnnotation is set by the ResourceClaim controller on
	// claims it creates from a template. The value is the name of the
	// entry in spec.resourceClaims of the Pod (or PodGroup) the claim was
	// made for (1.36+).
	PodResourceClaimAnnotation = "resource.kubernetes.io/pod-claim-name"

	// ResourceDeviceClassPrefix is prepended to a DeviceClass name to form
	// the implicit extended resource name of a class that does not set
	// spec.extendedResourceName. The result need not be a valid extended
	// resource name; a class that must be usable that way sets the field
	// (1.34+).
	ResourceDeviceClassPrefix string = "deviceclass.resource.kubernetes.io/"

	// SubresourceBinding is the synthetic subresource of resourceclaims
	// that a writer of status.allocation or status.reservedFor must also be
	// allowed to use (granular status authorization, 1.36+).
	SubresourceBinding = "binding"

	// SubresourceDriver is the synthetic subresource of resourceclaims,
	// with the driver name as resource name, that a writer of a driver's
	// status.devices entries must be allowed to use (1.36+).
	SubresourceDriver = "driver"

	// VerbPrefixAssociatedNode prefixes the verb checked for SubresourceDriver
	// when the request comes from a service account running on the node the
	// claim is allocated for, as in "associated-node:update" (1.36+).
	VerbPrefixAssociatedNode = "associated-node:"

	// VerbPrefixArbitraryNode prefixes the verb checked for SubresourceDriver
	// for every other writer, such as a controller, as in
	// "arbitrary-node:update" (1.36+).
	VerbPrefixArbitraryNode = "arbitrary-node:"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceSlice is published by a driver and carries part of one pool of
// devices, or all of it. A pool may be split over several slices; every
// slice says how many slices the pool has, so consumers can tell when they
// have seen the whole pool.
//
// A device is identified by the triple (driver, pool name, device name),
// and device names are unique within a pool across all its slices. When a
// driver changes a pool it bumps the pool generation in all of the pool's
// slices; consumers use only the slices with the newest generation.
//
// Node-local devices name their node; other devices say where they can be
// reached with a node selector, by being available on all nodes, or device
// by device.
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
	// Driver names the DRA driver owning the devices in this slice. It must
	// be a DNS subdomain of at most 63 characters once lower-cased, should
	// end in a domain the driver's vendor owns and should be lower case.
	// Usable as a field selector. Immutable.
	//
	// +required
	Driver string `json:"driver" protobuf:"bytes,1,name=driver"`

	// Pool identifies the pool these devices belong to and carries the
	// pool's generation and slice count.
	//
	// +required
	Pool ResourcePool `json:"pool" protobuf:"bytes,2,name=pool"`

	// NodeName is set when the devices are local to one node; it is that
	// node's name, and usable as a field selector. When set it must not be
	// empty. Exactly one of nodeName, nodeSelector, allNodes and
	// perDeviceNodeSelection is set. Immutable.
	//
	// +optional
	// +oneOf=NodeSelection
	NodeName *string `json:"nodeName,omitempty" protobuf:"bytes,3,opt,name=nodeName"`

	// NodeSelector lists the nodes the devices can be used from, when they
	// are not tied to a single node. It must hold exactly one term. Exactly
	// one of nodeName, nodeSelector, allNodes and perDeviceNodeSelection is
	// set.
	//
	// +optional
	// +oneOf=NodeSelection
	NodeSelector *v1.NodeSelector `json:"nodeSelector,omitempty" protobuf:"bytes,4,opt,name=nodeSelector"`

	// AllNodes, when true, means the devices can be used from every node.
	// When set it must be true. Exactly one of nodeName, nodeSelector,
	// allNodes and perDeviceNodeSelection is set.
	//
	// +optional
	// +oneOf=NodeSelection
	AllNodes *bool `json:"allNodes,omitempty" protobuf:"bytes,5,opt,name=allNodes"`

	// Devices are the devices of the pool published in this slice, with
	// names unique in the pool. At most 128, or 64 when any device has
	// taints, consumes counters or has list-valued attributes. A slice
	// carries devices or sharedCounters, not both.
	//
	// +optional
	// +listType=atomic
	// +zeroOrOneOf=ResourceSliceType
	Devices []Device `json:"devices,omitempty" protobuf:"bytes,6,name=devices"`

	// PerDeviceNodeSelection, when true, means every device says itself
	// where it is available (its nodeName, nodeSelector or allNodes). When
	// set it must be true. Exactly one of nodeName, nodeSelector, allNodes
	// and perDeviceNodeSelection is set. Beta; needs the
	// DRAPartitionableDevices feature gate.
	//
	// +optional
	// +oneOf=NodeSelection
	// +featureGate=DRAPartitionableDevices
	PerDeviceNodeSelection *bool `json:"perDeviceNodeSelection,omitempty" protobuf:"bytes,7,name=perDeviceNodeSelection"`

	// SharedCounters are the counter sets of the pool, which devices
	// (possibly in other slices of the pool) consume from. Set names are
	// unique in the pool; at most 8 sets. A slice carries devices or
	// sharedCounters, not both. Beta; needs the DRAPartitionableDevices
	// feature gate.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAPartitionableDevices
	// +zeroOrOneOf=ResourceSliceType
	SharedCounters []CounterSet `json:"sharedCounters,omitempty" protobuf:"bytes,8,name=sharedCounters"`

	// PartitionTypeAttribute is the fully qualified name of a string
	// attribute whose value tells each partitionable device's partition
	// type (for example "Full" or "Half"). When set, every device of the
	// slice that consumes counters must carry it as a string attribute, and
	// devices with the same value consume the same counters. Only allowed
	// when some device consumes counters. Alpha; needs the
	// DRAPartitionableDevicesType feature gate (1.37+).
	//
	// +optional
	// +featureGate=DRAPartitionableDevicesType
	PartitionTypeAttribute *FullyQualifiedName `json:"partitionTypeAttribute,omitempty" protobuf:"bytes,9,opt,name=partitionTypeAttribute"`

	// SkipNodeOperations names kubelet plugin calls that the devices of this
	// slice do not need; a call is skipped for a claim when every device of
	// the driver in that claim skips it. NodePrepareResources may only be
	// listed together with NodeUnprepareResources or "*". The kubelet
	// ignores values it does not know. Alpha; needs the
	// DRAOptionalNodeOperations feature gate (1.37+).
	//
	// +optional
	// +listType=set
	// +featureGate=DRAOptionalNodeOperations
	SkipNodeOperations []SkipNodeOperation `json:"skipNodeOperations,omitempty" protobuf:"bytes,10,rep,name=skipNodeOperations,casttype=SkipNodeOperation"`
}

// SkipNodeOperation names a node-local operation (a kubelet plugin gRPC
// call) that can be skipped.
//
// +enum
type SkipNodeOperation string

const (
	// SkipNodeOperationNodePrepareResources skips the NodePrepareResources call.
	SkipNodeOperationNodePrepareResources SkipNodeOperation = "NodePrepareResources"
	// SkipNodeOperationNodeUnprepareResources skips the NodeUnprepareResources call.
	SkipNodeOperationNodeUnprepareResources SkipNodeOperation = "NodeUnprepareResources"
	// SkipNodeOperationAll skips every node-local operation.
	SkipNodeOperationAll SkipNodeOperation = "*"
)

// CounterSet is a named set of counters of a pool. Counters cannot be
// allocated themselves; allocating a device uses up the part of them the
// device consumes, which other devices then cannot use.
type CounterSet struct {
	// Name of the counter set, a DNS label unique in the pool.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// Counters are the counters of the set, keyed by DNS-label names, at
	// most 32. Must not be empty.
	//
	// +required
	Counters map[string]Counter `json:"counters,omitempty" protobuf:"bytes,2,name=counters"`
}

// DriverNameMaxLength is the maximum length of a driver name (as for CSI
// drivers).
const DriverNameMaxLength = 63

// ResourcePool names a pool of devices and describes its current state.
type ResourcePool struct {
	// Name of the pool, unique per driver; often the node name for
	// node-local pools. At most 253 characters; it may contain slashes, and
	// every part between them must be a DNS subdomain. Usable as a field
	// selector. Immutable in a ResourceSlice.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// Generation is changed by the driver in all slices of the pool
	// whenever the pool changes. Consumers use only the slices with the
	// highest generation. Drivers may reset it, provided every slice of the
	// pool follows. Must not be negative.
	//
	// +required
	Generation int64 `json:"generation" protobuf:"bytes,2,name=generation"`

	// ResourceSliceCount is how many slices make up this pool at this
	// generation; consumers use it to see whether they have all of them.
	// Must be positive.
	//
	// +required
	ResourceSliceCount int64 `json:"resourceSliceCount" protobuf:"bytes,3,name=resourceSliceCount"`
}

// ResourceSliceMaxSharedCapacity is a declared limit on shared capacity
// entries per slice; no validation uses it.
const ResourceSliceMaxSharedCapacity = 128

// ResourceSliceMaxDevices is the maximum number of devices in one slice.
const ResourceSliceMaxDevices = 128

// ResourceSliceMaxDevicesWithAdvancedFeatures is the maximum number of
// devices in a slice in which any device has taints, consumes counters or
// has list-valued attributes.
const ResourceSliceMaxDevicesWithAdvancedFeatures = 64

// PoolNameMaxLength is the maximum length of a pool name (that of a DNS
// subdomain, as for a node name).
const PoolNameMaxLength = validation.DNS1123SubdomainMaxLength

// BindingConditionsMaxSize is the maximum number of binding conditions of a
// device or an allocation result.
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

// ResourceSliceMaxCountersPerDeviceCounterConsumption is the maximum number
// of counters in one consumesCounters entry.
const ResourceSliceMaxCountersPerDeviceCounterConsumption = 32

// DeviceCompatibilityGroupsMaxSize is the maximum number of compatibility
// groups of one consumesCounters entry.
const DeviceCompatibilityGroupsMaxSize = 2

// Device is one device of a pool, described by its attributes and
// capacities.
type Device struct {
	// Name of the device, a DNS label unique within the pool.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// Attributes are the device's properties, keyed by qualified name.
	// Attributes and capacity together may have at most 32 entries, and
	// the attributes at most 48 values (a list counts each element).
	//
	// +optional
	Attributes map[QualifiedName]DeviceAttribute `json:"attributes,omitempty" protobuf:"bytes,2,rep,name=attributes"`

	// Capacity holds the device's quantities, keyed by qualified name.
	// Attributes and capacity together may have at most 32 entries.
	//
	// +optional
	Capacity map[QualifiedName]DeviceCapacity `json:"capacity,omitempty" protobuf:"bytes,3,rep,name=capacity"`

	// ConsumesCounters says which counters of which counter sets of the
	// pool the device uses up when allocated. At most 2 entries, with
	// unique counter sets. A slice with such a device holds at most 64
	// devices. Beta; needs the DRAPartitionableDevices feature gate.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAPartitionableDevices
	ConsumesCounters []DeviceCounterConsumption `json:"consumesCounters,omitempty" protobuf:"bytes,4,rep,name=consumesCounters"`

	// NodeName is the node the device is local to. Only with
	// spec.perDeviceNodeSelection, and then exactly one of nodeName,
	// nodeSelector and allNodes is set; it must not be empty. Beta; needs
	// the DRAPartitionableDevices feature gate.
	//
	// +optional
	// +oneOf=DeviceNodeSelection
	// +featureGate=DRAPartitionableDevices
	NodeName *string `json:"nodeName,omitempty" protobuf:"bytes,5,opt,name=nodeName"`

	// NodeSelector lists the nodes the device can be used from; it must
	// hold exactly one term. Only with spec.perDeviceNodeSelection, and then
	// exactly one of nodeName, nodeSelector and allNodes is set. Beta; needs
	// the DRAPartitionableDevices feature gate.
	//
	// +optional
	// +oneOf=DeviceNodeSelection
	// +featureGate=DRAPartitionableDevices
	NodeSelector *v1.NodeSelector `json:"nodeSelector,omitempty" protobuf:"bytes,6,opt,name=nodeSelector"`

	// AllNodes, when true, means every node can use the device; when set
	// it must be true. Only with spec.perDeviceNodeSelection, and then
	// exactly one of nodeName, nodeSelector and allNodes is set. Beta;
	// needs the DRAPartitionableDevices feature gate.
	//
	// +optional
	// +oneOf=DeviceNodeSelection
	// +featureGate=DRAPartitionableDevices
	AllNodes *bool `json:"allNodes,omitempty" protobuf:"bytes,7,opt,name=allNodes"`

	// Taints are taints the driver puts on the device, at most 16. A slice
	// with a tainted device holds at most 64 devices. Needs the
	// DRADeviceTaints feature gate (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Taints []DeviceTaint `json:"taints,omitempty" protobuf:"bytes,8,rep,name=taints"`

	// BindsToNode, when true, ties an allocation of the device to the node
	// chosen while allocating: the scheduler sets the allocation's node
	// selector to that node. Beta; needs the DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus feature gates.
	//
	// +optional
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindsToNode *bool `json:"bindsToNode,omitempty" protobuf:"varint,9,opt,name=bindsToNode"`

	// BindingConditions are condition types that must all be True in the
	// claim's device status before a pod using the device is bound to its
	// node. At most 4 valid condition types; set together with
	// bindingFailureConditions, and the two lists must not overlap. Beta;
	// needs the DRADeviceBindingConditions and DRAResourceClaimDeviceStatus
	// feature gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingConditions []string `json:"bindingConditions,omitempty" protobuf:"bytes,10,rep,name=bindingConditions"`

	// BindingFailureConditions are condition types of the claim's device
	// status of which any one being True means binding failed. At most 4
	// valid condition types; set together with bindingConditions. Beta;
	// needs the DRADeviceBindingConditions and DRAResourceClaimDeviceStatus
	// feature gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingFailureConditions []string `json:"bindingFailureConditions,omitempty" protobuf:"bytes,11,rep,name=bindingFailureConditions"`

	// AllowMultipleAllocations, when true, lets the device be allocated
	// several times at once; all its capacity then becomes consumable,
	// with or without a request policy. Beta; needs the
	// DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	AllowMultipleAllocations *bool `json:"allowMultipleAllocations,omitempty" protobuf:"bytes,12,opt,name=allowMultipleAllocations"`

	// Protobuf field 13 (nodeAllocatableResourceMappings, 1.36 only) is retired.

	// NodeAllocatableResources says which node-allocatable resources
	// (cpu, memory, hugepages and the like, not extended resources) an
	// allocation of the device accounts for, keyed by resource name. Each
	// entry sets a mapping, an overhead or both. Alpha; needs the
	// DRANodeAllocatableResources feature gate (1.37+).
	//
	// +optional
	// +featureGate=DRANodeAllocatableResources
	NodeAllocatableResources map[v1.ResourceName]NodeAllocatableResource `json:"nodeAllocatableResources,omitempty" protobuf:"bytes,14,opt,name=nodeAllocatableResources"`
}

// NodeAllocatableResource translates an allocation of a device into an
// amount of one node-allocatable resource. At least one of mapping and
// overhead is set.
type NodeAllocatableResource struct {
	// Mapping is for devices that model the node resource itself (a CPU
	// driver's cores, say). The amount is counted once per claim on the
	// node, and such claims cannot be shared by several pods.
	//
	// +optional
	Mapping *NodeAllocatableMapping `json:"mapping,omitempty" protobuf:"bytes,3,opt,name=mapping"`

	// Overhead is node resource used on the side by devices that are not
	// that resource (host memory of a GPU, say). It is counted for every
	// pod using the claim and always taken from the node's general
	// allocatable amount, even when a mapping is set too.
	//
	// +optional
	Overhead *NodeAllocatableOverhead `json:"overhead,omitempty" protobuf:"bytes,4,opt,name=overhead"`
}

// NodeAllocatableMapping computes the node resource amount of an
// allocation either from the consumed capacity (capacityKey with
// capacityMultiplier) or from the number of allocated devices
// (deviceMultiplier); exactly one of the two ways is used. The kubelet adds
// the amount to the pod's cgroup requests and limits and to the limits of
// every container using the claim.
type NodeAllocatableMapping struct {
	// CapacityKey names an entry of the device's capacity. The amount is
	// the allocation's consumedCapacity for that key times
	// capacityMultiplier, which must then be set too.
	//
	// +optional
	CapacityKey *QualifiedName `json:"capacityKey,omitempty" protobuf:"bytes,1,opt,name=capacityKey"`

	// CapacityMultiplier multiplies the consumed capacity named by
	// capacityKey; only valid, and then required, with capacityKey. Must be
	// positive.
	//
	// +optional
	CapacityMultiplier *resource.Quantity `json:"capacityMultiplier,omitempty" protobuf:"bytes,2,opt,name=capacityMultiplier"`

	// DeviceMultiplier is the amount per allocated device of the claim.
	// Only valid without capacityKey and capacityMultiplier. Must be
	// positive.
	//
	// +optional
	DeviceMultiplier *resource.Quantity `json:"deviceMultiplier,omitempty" protobuf:"bytes,3,opt,name=deviceMultiplier"`
}

// NodeAllocatableOverhead is extra node resource used because a device is
// allocated: a fixed amount per pod, an amount per container using the
// claim, or both. A pod's total is perPod + perContainer × (containers
// using the claim); each such container's limit gets perPod + perContainer.
type NodeAllocatableOverhead struct {
	// PerPod is used once by every pod on the node that uses the claim.
	// Must not be negative.
	//
	// +optional
	PerPod *resource.Quantity `json:"perPod,omitempty" protobuf:"bytes,1,opt,name=perPod"`

	// PerContainer is used once per container reference to the claim.
	// Must not be negative.
	//
	// +optional
	PerContainer *resource.Quantity `json:"perContainer,omitempty" protobuf:"bytes,2,opt,name=perContainer"`
}

// DeviceCounterConsumption is what a device uses up from one counter set
// when it is allocated.
type DeviceCounterConsumption struct {
	// CounterSet names the counter set of the pool the counters come from,
	// a DNS label.
	//
	// +required
	CounterSet string `json:"counterSet" protobuf:"bytes,1,opt,name=counterSet"`

	// Counters are the amounts used up, keyed by counter name, at most 32.
	// Must not be empty.
	//
	// +required
	Counters map[string]Counter `json:"counters,omitempty" protobuf:"bytes,2,opt,name=counters"`

	// CompatibilityGroups are opaque group names, meaningful within the
	// driver's pool. Devices consuming from the same counter set can be
	// allocated together only if all of them share at least one group;
	// no groups (unset or empty) is compatible only with no groups. At
	// most 2 unique DNS labels. Alpha; needs the
	// DRADeviceCompatibilityGroups feature gate (1.37+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceCompatibilityGroups
	CompatibilityGroups []string `json:"compatibilityGroups,omitempty" protobuf:"bytes,3,rep,name=compatibilityGroups"`
}

// DeviceCapacity is one quantity of a device.
type DeviceCapacity struct {
	// Value is the device's total of this capacity. It does not change as
	// capacity is consumed; the scheduler tracks consumption apart.
	//
	// +required
	Value resource.Quantity `json:"value" protobuf:"bytes,1,rep,name=value"`

	// RequestPolicy says how shares of a device that allows multiple
	// allocations consume this capacity; only allowed when
	// allowMultipleAllocations is true. Unset means any amount may be
	// requested as long as the total stays within value, and a request
	// that names no amount takes all of it. Beta; needs the
	// DRAConsumableCapacity feature gate.
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

// CapacityRequestPolicy constrains the amounts of a capacity that one
// allocation may consume. At most one of validValues and validRange is
// set.
type CapacityRequestPolicy struct {
	// Default is the amount consumed by a request that names no amount for
	// this capacity. Required with validValues or validRange. Written as
	// null when unset.
	//
	// +optional
	Default *resource.Quantity `json:"default" protobuf:"bytes,1,opt,name=default"`

	// ValidValues are the amounts a request may consume, ascending, unique,
	// at most 10, none above the capacity; default must be one of them. A
	// request is rounded up to the next valid value; one above all of them
	// cannot use the device.
	//
	// +optional
	// +listType=atomic
	// +oneOf=ValidRequestValues
	ValidValues []resource.Quantity `json:"validValues,omitempty" protobuf:"bytes,3,opt,name=validValues"`

	// ValidRange is the range of amounts a request may consume; default
	// must lie in it. A request outside it cannot use the device.
	//
	// +optional
	// +oneOf=ValidRequestValues
	ValidRange *CapacityRequestPolicyRange `json:"validRange,omitempty" protobuf:"bytes,4,opt,name=validRange"`
}

// CapacityRequestPolicyRange is a range of consumable amounts. A request
// below min is raised to min; with a step, a request is rounded up to the
// next min + n×step; a result above max cannot use the device. Integer
// arithmetic is used, or milli units when the DRAFractionalCapacityRange
// feature gate is on and a bound is fractional.
type CapacityRequestPolicyRange struct {
	// Min is the smallest amount consumed. Not negative, at most the
	// capacity, and at most the policy's default.
	//
	// +required
	Min *resource.Quantity `json:"min,omitempty" protobuf:"bytes,1,opt,name=min"`

	// Max is the largest amount a request may consume: at least min and
	// the default, at most the capacity.
	//
	// +optional
	Max *resource.Quantity `json:"max,omitempty" protobuf:"bytes,2,opt,name=max"`

	// Step is the spacing of valid amounts above min. Positive; min + step
	// must fit in the capacity, and max and the default must be min plus a
	// multiple of it.
	//
	// +optional
	Step *resource.Quantity `json:"step,omitempty" protobuf:"bytes,3,opt,name=step"`
}

// ResourceSliceMaxAttributesAndCapacitiesPerDevice is the maximum number of
// attributes plus capacities of one device.
const ResourceSliceMaxAttributesAndCapacitiesPerDevice = 32

// ResourceSliceMaxAttributeValuesPerDevice is the maximum number of
// attribute values of one device, counting every element of a list.
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

// DeviceMaxDomainLength caps the domain part of an attribute or capacity
// name.
const DeviceMaxDomainLength = 63

// DeviceMaxIDLength caps the identifier (the part after any slash) of an
// attribute or capacity name.
const DeviceMaxIDLength = 32

// DeviceAttribute is the value of one device attribute; one field, and
// only one, is set.
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

	// IntValues is a non-empty list of integers. Alpha; needs the
	// DRAListTypeAttributes feature gate (1.36+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAListTypeAttributes
	IntValues []int64 `json:"ints,omitempty" protobuf:"varint,6,opt,name=ints"`

	// BoolValues is a non-empty list of booleans. Alpha; needs the
	// DRAListTypeAttributes feature gate (1.36+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAListTypeAttributes
	BoolValues []bool `json:"bools,omitempty" protobuf:"varint,7,opt,name=bools"`

	// StringValues is a non-empty list of strings, each of at most 64
	// characters. Alpha; needs the DRAListTypeAttributes feature gate
	// (1.36+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAListTypeAttributes
	StringValues []string `json:"strings,omitempty" protobuf:"bytes,8,opt,name=strings"`

	// VersionValues is a non-empty list of semantic versions, each of at
	// most 64 characters. Alpha; needs the DRAListTypeAttributes feature
	// gate (1.36+).
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

// DeviceTaint marks a device so that claims which do not tolerate it, and
// the pods using such claims, are affected as the effect says.
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

	// Effect is what the taint does to claims that do not tolerate it:
	// None (informational only), NoSchedule (no new allocations) or
	// NoExecute (also evict pods already using the device). Consumers treat
	// effects they do not know like None.
	//
	// +required
	Effect DeviceTaintEffect `json:"effect" protobuf:"bytes,3,name=effect,casttype=DeviceTaintEffect"`

	// TimeAdded is when the taint was added or, in a DeviceTaintRule, when
	// its effect last changed. Set to the current time on create or update
	// when empty; in a DeviceTaintRule the server also replaces an
	// unchanged value when the effect changes.
	//
	// +optional
	TimeAdded *metav1.Time `json:"timeAdded,omitempty" protobuf:"bytes,4,opt,name=timeAdded"`
}

// DeviceTaintEffect is what a device taint does to claims that do not
// tolerate it.
//
// +enum
type DeviceTaintEffect string

const (
	// DeviceTaintEffectNone has no effect; the taint only informs.
	DeviceTaintEffectNone DeviceTaintEffect = "None"
	// DeviceTaintEffectNoSchedule keeps the device from being allocated for
	// new pods that do not tolerate it; pods already running, or started by
	// the kubelet without the scheduler, are left alone.
	DeviceTaintEffectNoSchedule DeviceTaintEffect = "NoSchedule"
	// DeviceTaintEffectNoExecute also evicts running pods that do not
	// tolerate the taint.
	DeviceTaintEffectNoExecute DeviceTaintEffect = "NoExecute"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DeviceTaintRule puts one taint on every device its selector matches, as
// if the driver had listed the taint on those devices in their
// ResourceSlices. Served in v1 from 1.37.
type DeviceTaintRule struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec holds the selector and the taint. Any change to it increments
	// metadata.generation.
	//
	// +required
	Spec DeviceTaintRuleSpec `json:"spec" protobuf:"bytes,2,name=spec"`

	// Status reports on the evictions the rule causes.
	//
	// +optional
	Status DeviceTaintRuleStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// DeviceTaintRuleSpec is the selector and the taint of a DeviceTaintRule.
type DeviceTaintRuleSpec struct {
	// DeviceSelector picks the devices to taint; every field set in it must
	// match. An empty selector matches all devices, no selector matches
	// none.
	//
	// +optional
	DeviceSelector *DeviceTaintSelector `json:"deviceSelector,omitempty" protobuf:"bytes,1,opt,name=deviceSelector"`

	// Taint is the taint put on the matching devices.
	//
	// +required
	Taint DeviceTaint `json:"taint,omitempty" protobuf:"bytes,2,rep,name=taint"`
}

// DeviceTaintSelector picks devices by driver, pool and device name. Every
// field that is set must match.
type DeviceTaintSelector struct {
	// Protobuf field 1 (deviceClassName) is retired since 1.35.

	// Driver, when set, matches only devices of this driver (a slice's
	// spec.driver).
	//
	// +optional
	Driver *string `json:"driver,omitempty" protobuf:"bytes,2,opt,name=driver"`

	// Pool, when set, matches only devices of pools with this name. Pools
	// of different drivers may share a name (node-local pools often are the
	// node name), so driver may be set too.
	//
	// +optional
	Pool *string `json:"pool,omitempty" protobuf:"bytes,3,opt,name=pool"`

	// Device, when set, matches only devices with this name (a slice's
	// spec.devices[].name); driver and pool may be needed to single one
	// out.
	//
	// +optional
	Device *string `json:"device,omitempty" protobuf:"bytes,4,opt,name=device"`

	// Protobuf field 5 (selectors) is retired since 1.35.
}

// DeviceTaintRuleStatus reports on the evictions a DeviceTaintRule causes.
type DeviceTaintRuleStatus struct {
	// Conditions describe the rule's current state, keyed by type, at
	// most 8. The defined type is EvictionInProgress: True while pods
	// still have to be evicted, False otherwise, with a human-readable
	// message about pending and evicted pods. For effect None it is set
	// once per spec change and tells what NoExecute would do.
	//
	// +optional
	// +listType=map
	// +listMapKey=type
	// +patchStrategy=merge
	// +patchMergeKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,1,rep,name=conditions"`
}

// DeviceTaintRuleStatusMaxConditions is the maximum number of conditions in
// a DeviceTaintRule status.
const DeviceTaintRuleStatusMaxConditions = 8

// DeviceTaintConditionEvictionInProgress is the condition type a
// DeviceTaintRule status uses to report evictions.
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
	// Requests are the individual device requests, at most 32, with unique
	// names. All must be satisfied for the claim to be allocated. Written
	// as null when unset.
	//
	// +optional
	// +listType=atomic
	Requests []DeviceRequest `json:"requests" protobuf:"bytes,1,name=requests"`

	// Constraints must hold across the devices picked for several
	// requests. At most 32.
	//
	// +optional
	// +listType=atomic
	Constraints []DeviceConstraint `json:"constraints,omitempty" protobuf:"bytes,2,opt,name=constraints"`

	// Config is configuration for the devices of some or all requests,
	// passed to the drivers. At most 32.
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
	// DRAAdminNamespaceLabelKey is the namespace label that, set to
	// "true", allows claims and templates in the namespace to ask for admin
	// access to devices.
	DRAAdminNamespaceLabelKey = "resource.kubernetes.io/admin-access"
)

// DeviceRequest asks for devices for a claim: either exactly one kind of
// device (exactly) or the first satisfiable of several alternatives
// (firstAvailable). Exactly one of the two is set.
type DeviceRequest struct {
	// Name identifies the request within the claim; containers
	// (pod.spec.containers[].resources.claims), constraints and config
	// refer to it. With firstAvailable, a reference to the name means
	// whichever alternative was chosen. A DNS label.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// Exactly is a request that must be met as stated.
	//
	// +optional
	// +oneOf=deviceRequestType
	Exactly *ExactDeviceRequest `json:"exactly,omitempty" protobuf:"bytes,2,name=exactly"`

	// FirstAvailable lists alternatives in order of preference, at most 8
	// with unique names; the scheduler uses the first one it can satisfy.
	// There is no scoring: the first set of devices satisfying the whole
	// claim is taken, which need not be the best one in the cluster. Needs
	// the DRAPrioritizedList feature gate (GA in 1.36).
	//
	// +optional
	// +oneOf=deviceRequestType
	// +listType=atomic
	// +featureGate=DRAPrioritizedList
	FirstAvailable []DeviceSubRequest `json:"firstAvailable,omitempty" protobuf:"bytes,3,name=firstAvailable"`
}

// ExactDeviceRequest asks for one or more devices of one device class. A
// device must match the class and every selector of the request.
type ExactDeviceRequest struct {
	// DeviceClassName is the DeviceClass whose selectors and config apply
	// to this request. A DNS subdomain; required. Administrators can limit
	// what may be requested through the classes they install.
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
	// them is already in use (unless adminAccess is set). Clients must
	// refuse modes they do not know.
	//
	// +optional
	AllocationMode DeviceAllocationMode `json:"allocationMode,omitempty" protobuf:"bytes,3,opt,name=allocationMode"`

	// Count is the number of devices for ExactCount; it must be positive
	// there and defaults to 1. It must be 0 for All.
	//
	// +optional
	// +oneOf=AllocationMode
	Count int64 `json:"count,omitempty" protobuf:"bytes,4,opt,name=count"`

	// AdminAccess, when true, asks for admin-mode use of the devices (for
	// monitoring or management): they may be allocated even if already in
	// use, and are not counted as used. Only in namespaces labelled with
	// DRAAdminNamespaceLabelKey. Needs the DRAAdminAccess feature gate (GA
	// in 1.36).
	//
	// +optional
	// +featureGate=DRAAdminAccess
	AdminAccess *bool `json:"adminAccess,omitempty" protobuf:"bytes,5,opt,name=adminAccess"`

	// Tolerations let the request use devices with matching taints: a
	// NoSchedule or NoExecute taint must be tolerated for the device to be
	// allocated. When an allocated device later gets a NoExecute taint
	// that is not tolerated, the pods using the claim are evicted and the
	// claim deallocated. At most 16. Needs the DRADeviceTaints feature
	// gate (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Tolerations []DeviceToleration `json:"tolerations,omitempty" protobuf:"bytes,6,opt,name=tolerations"`

	// Capacity is the amount of each capacity wanted from every allocated
	// device; devices that cannot provide it are not used. Unset amounts of
	// a shareable device follow its request policy, or take the whole
	// capacity. Beta; needs the DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	Capacity *CapacityRequirements `json:"capacity,omitempty" protobuf:"bytes,7,opt,name=capacity"`

	// DerivedAttributes are attributes computed per candidate device by CEL,
	// for use in matchAttribute and distinctAttribute constraints (to line
	// up devices of drivers that publish different attributes, say). They
	// are not visible to selectors. Each must be used by a constraint. At
	// most 32. Alpha; needs the DRADerivedAttributes feature gate (1.37+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADerivedAttributes
	DerivedAttributes []DeviceDerivedAttribute `json:"derivedAttributes,omitempty" protobuf:"bytes,8,rep,name=derivedAttributes"`
}

// DeviceSubRequest is one alternative of a firstAvailable list. It is an
// ExactDeviceRequest without adminAccess.
type DeviceSubRequest struct {
	// Name identifies the alternative within its request; constraints and
	// config refer to it as "<request>/<name>". A DNS label.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// DeviceClassName is the DeviceClass whose selectors and config apply
	// to this alternative. A DNS subdomain; required.
	//
	// +required
	DeviceClassName string `json:"deviceClassName" protobuf:"bytes,2,name=deviceClassName"`

	// Selectors are extra conditions a device must meet, in addition to
	// those of the class. All must match. At most 32.
	//
	// +optional
	// +listType=atomic
	Selectors []DeviceSelector `json:"selectors,omitempty" protobuf:"bytes,3,name=selectors"`

	// AllocationMode says how many devices are wanted, as in
	// ExactDeviceRequest; ExactCount is the default.
	//
	// +optional
	AllocationMode DeviceAllocationMode `json:"allocationMode,omitempty" protobuf:"bytes,4,opt,name=allocationMode"`

	// Count is the number of devices for ExactCount; it must be positive
	// there and defaults to 1. It must be 0 for All.
	//
	// +optional
	// +oneOf=AllocationMode
	Count int64 `json:"count,omitempty" protobuf:"bytes,5,opt,name=count"`

	// Tolerations let the alternative use devices with matching taints, as
	// in ExactDeviceRequest. At most 16. Needs the DRADeviceTaints feature
	// gate (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Tolerations []DeviceToleration `json:"tolerations,omitempty" protobuf:"bytes,6,opt,name=tolerations"`

	// Capacity is the amount of each capacity wanted from every allocated
	// device, as in ExactDeviceRequest. Beta; needs the
	// DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	Capacity *CapacityRequirements `json:"capacity,omitempty" protobuf:"bytes,7,opt,name=capacity"`

	// DerivedAttributes are attributes computed per candidate device by
	// CEL, as in ExactDeviceRequest. At most 32. Alpha; needs the
	// DRADerivedAttributes feature gate (1.37+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADerivedAttributes
	DerivedAttributes []DeviceDerivedAttribute `json:"derivedAttributes,omitempty" protobuf:"bytes,8,rep,name=derivedAttributes"`
}

// CapacityRequirements is the capacity a request wants from each device.
type CapacityRequirements struct {
	// Requests are the wanted amounts, keyed by capacity name. A device
	// qualifies only if it has at least that much of each; a request
	// policy may round the amount up, and a device whose policy cannot
	// accommodate it is not used. Capacities not named here are consumed
	// according to the policy, or in full without one. What is consumed is
	// recorded in the allocation result's consumedCapacity.
	//
	// +optional
	Requests map[QualifiedName]resource.Quantity `json:"requests,omitempty" protobuf:"bytes,1,rep,name=requests,castkey=QualifiedName"`
}

const (
	// DeviceSelectorsMaxSize is the maximum number of selectors in a request or class.
	DeviceSelectorsMaxSize = 32
	// FirstAvailableDeviceRequestMaxSize is the maximum number of alternatives in a firstAvailable list.
	FirstAvailableDeviceRequestMaxSize = 8
	// DeviceTolerationsMaxLength is the documented maximum number of tolerations of a request.
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
// is set.
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
	// Expression holds CEL source evaluated against the variable `device`,
	// which has the fields `driver` (string), `attributes` (a map from
	// domain to a map from identifier to value), `capacity` (the same
	// shape, with quantities) and, with the DRAConsumableCapacity feature
	// gate, `allowMultipleAllocations` (bool). Unqualified names are in the
	// driver's domain, and an unknown domain gives an empty map; a missing
	// identifier is an error, so check with has() first. The semver
	// functions and cel.bind are available, and includes() with the
	// DRAListTypeAttributes feature gate. The result must be a boolean:
	// true selects the device; an evaluation error aborts the allocation
	// attempt. At most 10 Ki characters, and its estimated cost is limited.
	//
	// +required
	Expression string `json:"expression" protobuf:"bytes,1,name=expression"`
}

// DeviceDerivedAttribute is an attribute a request computes for each
// candidate device with CEL.
type DeviceDerivedAttribute struct {
	// Name of the attribute, a fully qualified name such as
	// "derived/numaNode", used by constraints. A name equal to a real
	// attribute of a device hides that attribute in constraints; a domain
	// no driver uses (such as "derived") avoids that. It must be used by at
	// least one constraint.
	//
	// +required
	Name FullyQualifiedName `json:"name" protobuf:"bytes,1,name=name"`

	// Expression is CEL evaluated for a device that passed the request's
	// selectors, with the same `device` variable as a selector. It must
	// give a string, integer, boolean or semver, or a list of one of
	// those; any other result, or an evaluation error, fails the
	// scheduling attempt. At most 10 Ki characters; its estimated cost is
	// limited, and so is the sum over all derived attributes of the claim.
	//
	// +required
	Expression string `json:"expression" protobuf:"bytes,2,name=expression"`
}

// CELSelectorExpressionMaxCost is the maximum estimated cost of one CEL
// expression, checked when an expression is new or changed; the scheduler
// also enforces it at run time. Roughly a tenth of a second of evaluation.
const CELSelectorExpressionMaxCost = 1000000

// DeviceClaimDerivedAttributeCELMaxCost is the maximum estimated cost of
// all derived-attribute expressions of one claim together.
const DeviceClaimDerivedAttributeCELMaxCost = 1000000

// CELSelectorExpressionMaxLength is the maximum length of a CEL expression.
const CELSelectorExpressionMaxLength = 10 * 1024

// DeviceConstraint is a condition across the devices of several requests.
// Besides requests, one field is set.
type DeviceConstraint struct {
	// Requests names the requests the constraint covers; empty means all
	// requests of the claim. An entry is "<request>" (all its
	// alternatives) or "<request>/<alternative>". At most 32 unique names.
	//
	// +optional
	// +listType=atomic
	Requests []string `json:"requests,omitempty" protobuf:"bytes,1,opt,name=requests"`

	// MatchAttribute is a fully qualified attribute name that every
	// covered device must have, with the same type and value on all of
	// them; devices lacking it are not used. With the DRAListTypeAttributes
	// feature gate, lists match when all of them share an element (a
	// scalar counts as a list of one).
	//
	// +optional
	// +oneOf=ConstraintType
	MatchAttribute *FullyQualifiedName `json:"matchAttribute,omitempty" protobuf:"bytes,2,opt,name=matchAttribute"`

	// DistinctAttribute is a fully qualified attribute name that every
	// covered device must have, with a different value on each, for
	// example to get two NICs on different physical cards. With the
	// DRAListTypeAttributes feature gate, lists must be pairwise disjoint.
	// Beta; needs the DRAConsumableCapacity feature gate.
	//
	// +optional
	// +oneOf=ConstraintType
	// +featureGate=DRAConsumableCapacity
	DistinctAttribute *FullyQualifiedName `json:"distinctAttribute,omitempty" protobuf:"bytes,3,opt,name=distinctAttribute"`
}

// DeviceClaimConfiguration is configuration from a claim for the devices
// of some of its requests.
type DeviceClaimConfiguration struct {
	// Requests names the requests the configuration is for; empty means
	// all requests of the claim. An entry is "<request>" or
	// "<request>/<alternative>". At most 32 unique names.
	//
	// +optional
	// +listType=atomic
	Requests []string `json:"requests,omitempty" protobuf:"bytes,1,opt,name=requests"`

	DeviceConfiguration `json:",inline" protobuf:"bytes,2,name=deviceConfiguration"`
}

// DeviceConfiguration is one piece of device configuration; one field,
// and only one, is set. It is embedded in other types, so its field names
// must not clash with theirs.
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
	// Driver is the driver the parameters are for; its kubelet plugin gets
	// them, other drivers ignore them. Must be a valid driver name.
	//
	// +required
	Driver string `json:"driver" protobuf:"bytes,1,name=driver"`

	// Parameters is the driver's configuration, a JSON object of at most
	// 10 Ki; a driver usually uses a versioned type with apiVersion and
	// kind.
	//
	// +required
	Parameters runtime.RawExtension `json:"parameters" protobuf:"bytes,2,name=parameters"`
}

// OpaqueParametersMaxLength is the maximum length of the raw opaque
// configuration parameters.
const OpaqueParametersMaxLength = 10 * 1024

// DeviceToleration lets a request use devices whose taints match it by
// key, value and effect, compared with the operator.
type DeviceToleration struct {
	// Key is the taint key tolerated, a label name; empty matches every key
	// and then needs operator Exists.
	//
	// +optional
	Key string `json:"key,omitempty" protobuf:"bytes,1,opt,name=key"`

	// Operator compares the value: Equal (the default) or Exists, which
	// matches any value.
	//
	// +optional
	// +default="Equal"
	Operator DeviceTolerationOperator `json:"operator,omitempty" protobuf:"bytes,2,opt,name=operator,casttype=DeviceTolerationOperator"`

	// Value is the taint value tolerated, a label value; empty with
	// operator Exists.
	//
	// +optional
	Value string `json:"value,omitempty" protobuf:"bytes,3,opt,name=value"`

	// Effect is the taint effect tolerated; empty matches every effect.
	//
	// +optional
	Effect DeviceTaintEffect `json:"effect,omitempty" protobuf:"bytes,4,opt,name=effect,casttype=DeviceTaintEffect"`

	// TolerationSeconds, only for NoExecute, is how long after the taint's
	// timeAdded the pods may keep running; unset means forever, zero or
	// less means evict at once.
	//
	// +optional
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty" protobuf:"varint,5,opt,name=tolerationSeconds"`
}

// DeviceTolerationOperator compares a toleration's value with a taint's.
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
// status of a claim.
type ResourceClaimStatus struct {
	// Allocation is the result of a successful allocation. Once set, it
	// cannot be changed.
	//
	// +optional
	Allocation *AllocationResult `json:"allocation,omitempty" protobuf:"bytes,1,opt,name=allocation"`

	// ReservedFor lists the consumers (usually pods) that may use the
	// allocated devices, keyed by uid, at most 256. A pod not listed is not
	// started, and a claim with entries is not deallocated. A non-empty
	// list requires an allocation; no entries may be added while the claim
	// is being deleted. Concurrent schedulers race to add their pod; the
	// losing update fails and its pod is retried.
	//
	// +optional
	// +listType=map
	// +listMapKey=uid
	// +patchStrategy=merge
	// +patchMergeKey=uid
	ReservedFor []ResourceClaimConsumerReference `json:"reservedFor,omitempty" protobuf:"bytes,2,opt,name=reservedFor" patchStrategy:"merge" patchMergeKey:"uid"`

	// Protobuf field 3 (deallocationRequested) is retired since 1.32.

	// Devices is the status of allocated devices as their drivers report
	// it, one entry per (driver, device, pool, shareID); each driver owns
	// its entries. Needs the DRAResourceClaimDeviceStatus feature gate (GA
	// in 1.37).
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

// ResourceClaimReservedForMaxSize is the maximum number of reservedFor entries.
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

	// Protobuf field 2 is unused since 1.31.

	// NodeSelector limits the nodes on which the allocated devices can be
	// used. Unset means every node.
	//
	// +optional
	NodeSelector *v1.NodeSelector `json:"nodeSelector,omitempty" protobuf:"bytes,3,opt,name=nodeSelector"`

	// Protobuf field 4 (controller) is retired since 1.32.

	// AllocationTimestamp is when the devices were allocated; unset means
	// unknown. Beta; needs the DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus feature gates.
	//
	// +optional
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	AllocationTimestamp *metav1.Time `json:"allocationTimestamp,omitempty" protobuf:"bytes,5,opt,name=allocationTimestamp"`
}

// DeviceAllocationResult lists the allocated devices and their
// configuration.
type DeviceAllocationResult struct {
	// Results has one entry per allocated device, at most 32.
	//
	// +optional
	// +listType=atomic
	Results []DeviceRequestAllocationResult `json:"results,omitempty" protobuf:"bytes,1,opt,name=results"`

	// Config is the configuration for the allocated devices, taken from
	// the classes and from the claim, at most 64 entries. It includes
	// entries for drivers without allocated devices; drivers ignore what
	// they do not know.
	//
	// +optional
	// +listType=atomic
	Config []DeviceAllocationConfiguration `json:"config,omitempty" protobuf:"bytes,2,opt,name=config"`
}

// AllocationResultsMaxSize is the maximum number of allocated devices in a claim.
const AllocationResultsMaxSize = 32

// DeviceRequestAllocationResult names one device allocated for one request.
type DeviceRequestAllocationResult struct {
	// Request is the claim request this device was allocated for, or
	// "<request>/<alternative>" when an alternative of firstAvailable was
	// used. A request may have several devices.
	//
	// +required
	Request string `json:"request" protobuf:"bytes,1,name=request"`

	// Driver is the driver whose kubelet plugin prepares the device. Must
	// be a valid driver name.
	//
	// +required
	Driver string `json:"driver" protobuf:"bytes,2,name=driver"`

	// Pool is the name of the device's pool within the driver; at most 253
	// characters, DNS subdomains separated by slashes.
	//
	// +required
	Pool string `json:"pool" protobuf:"bytes,3,name=pool"`

	// Device is the device's name within the pool. A DNS label.
	//
	// +required
	Device string `json:"device" protobuf:"bytes,4,name=device"`

	// AdminAccess, when true, says the device was allocated for admin
	// access (see the request field). Needs the DRAAdminAccess feature gate
	// (GA in 1.36).
	//
	// +optional
	// +featureGate=DRAAdminAccess
	AdminAccess *bool `json:"adminAccess,omitempty" protobuf:"bytes,5,opt,name=adminAccess"`

	// Tolerations are the request's tolerations as they were when the
	// device was allocated. At most 16. Needs the DRADeviceTaints feature
	// gate (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Tolerations []DeviceToleration `json:"tolerations,omitempty" protobuf:"bytes,6,opt,name=tolerations"`

	// BindingConditions are the device's bindingConditions as they were
	// when it was allocated. At most 4. Beta; needs the
	// DRADeviceBindingConditions and DRAResourceClaimDeviceStatus feature
	// gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingConditions []string `json:"bindingConditions,omitempty" protobuf:"bytes,7,rep,name=bindingConditions"`

	// BindingFailureConditions are the device's bindingFailureConditions as
	// they were when it was allocated. At most 4. Beta; needs the
	// DRADeviceBindingConditions and DRAResourceClaimDeviceStatus feature
	// gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingFailureConditions []string `json:"bindingFailureConditions,omitempty" protobuf:"bytes,8,rep,name=bindingFailureConditions"`

	// ShareID tells apart concurrent allocations of a device that allows
	// multiple allocations; a lowercase RFC 4122 UUID. Beta; needs the
	// DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	ShareID *types.UID `json:"shareID,omitempty" protobuf:"bytes,9,opt,name=shareID"`

	// ConsumedCapacity is how much of each capacity this allocation uses:
	// the requested amount rounded up by the request policy. Set only for
	// devices that allow multiple allocations, with every capacity listed
	// (zero included); the total over all allocations stays within the
	// device's capacity. Beta; needs the DRAConsumableCapacity feature
	// gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	ConsumedCapacity map[QualifiedName]resource.Quantity `json:"consumedCapacity,omitempty" protobuf:"bytes,10,rep,name=consumedCapacity"`

	// SkipNodeOperations is the slice's skipNodeOperations as it was when
	// the device was allocated. Alpha; needs the DRAOptionalNodeOperations
	// feature gate (1.37+).
	//
	// +optional
	// +listType=set
	// +featureGate=DRAOptionalNodeOperations
	SkipNodeOperations []SkipNodeOperation `json:"skipNodeOperations,omitempty" protobuf:"bytes,11,rep,name=skipNodeOperations,casttype=SkipNodeOperation"`
}

// DeviceAllocationConfiguration is one configuration entry in an
// allocation result.
type DeviceAllocationConfiguration struct {
	// Source says where the entry came from: FromClass (set by an
	// administrator, not by the claim's author) or FromClaim.
	//
	// +required
	Source AllocationConfigSource `json:"source" protobuf:"bytes,1,name=source"`

	// Requests names the requests the entry is for; empty means all
	// requests of the claim. An entry is "<request>" or
	// "<request>/<alternative>".
	//
	// +optional
	// +listType=atomic
	Requests []string `json:"requests,omitempty" protobuf:"bytes,2,opt,name=requests"`

	DeviceConfiguration `json:",inline" protobuf:"bytes,3,name=deviceConfiguration"`
}

// AllocationConfigSource says whether a configuration entry came from a
// DeviceClass or from the ResourceClaim.
//
// +enum
type AllocationConfigSource string

const (
	// AllocationConfigSourceClass marks configuration taken from a DeviceClass.
	AllocationConfigSourceClass AllocationConfigSource = "FromClass"
	// AllocationConfigSourceClaim marks configuration taken from the ResourceClaim.
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

// DeviceClass is a set of devices chosen by selectors, with configuration
// that applies to them. Claims refer to a class by name.
type DeviceClass struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec holds the selectors and configuration of the class. It may
	// change at any time; an allocation uses the class as it was when
	// the allocation was made. Any change increments metadata.generation.
	//
	// +optional
	Spec DeviceClassSpec `json:"spec" protobuf:"bytes,2,name=spec"`
}

// DeviceClassSpec defines the devices of a class and their configuration.
type DeviceClassSpec struct {
	// Selectors must all match for a device to belong to the class. At
	// most 32.
	//
	// +optional
	// +listType=atomic
	Selectors []DeviceSelector `json:"selectors,omitempty" protobuf:"bytes,1,opt,name=selectors"`

	// Config is configuration for every device allocated through the
	// class, one driver per entry. At most 32. It is passed to the drivers
	// and plays no part in allocation; claim configuration may override it,
	// since the drivers apply class entries first.
	//
	// +optional
	// +listType=atomic
	Config []DeviceClassConfiguration `json:"config,omitempty" protobuf:"bytes,2,opt,name=config"`

	// Protobuf field 3 (suitableNodes) is retired since 1.32.

	// ExtendedResourceName is the extended resource name (as in a pod's
	// resource requests) that devices of this class can satisfy. It should
	// be unique among classes; on a clash the newest class wins, and of
	// classes created at the same time the first by name. Needs the
	// DRAExtendedResource feature gate (GA in 1.37).
	//
	// +optional
	// +featureGate=DRAExtendedResource
	ExtendedResourceName *string `json:"extendedResourceName,omitempty" protobuf:"bytes,4,opt,name=extendedResourceName"`
}

// DeviceClassConfiguration is one configuration entry of a DeviceClass.
type DeviceClassConfiguration struct {
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

// ResourceClaimTemplate is a blueprint from which a ResourceClaim is
// created for a pod.
type ResourceClaimTemplate struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec describes the claim to create. Immutable: claims already
	// created from the template are not updated.
	//
	// +optional
	Spec ResourceClaimTemplateSpec `json:"spec" protobuf:"bytes,2,name=spec"`
}

// ResourceClaimTemplateSpec is the metadata and spec of the claims made
// from a template.
type ResourceClaimTemplateSpec struct {
	// ObjectMeta holds labels and annotations copied into each created
	// claim. No other metadata fields are allowed.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is copied unchanged into each created claim and is validated
	// like a claim spec.
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
	// data of one device status.
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

// AllocatedDeviceStatus is what a driver reports about one allocated
// device. Driver, pool, device and shareID must name an entry of the
// claim's allocation.
type AllocatedDeviceStatus struct {
	// Driver is the driver of the device. Must be a valid driver name.
	//
	// +required
	Driver string `json:"driver" protobuf:"bytes,1,rep,name=driver"`

	// Pool is the name of the device's pool within the driver; at most 253
	// characters, DNS subdomains separated by slashes.
	//
	// +required
	Pool string `json:"pool" protobuf:"bytes,2,rep,name=pool"`

	// Device is the device's name within the pool. A DNS label.
	//
	// +required
	Device string `json:"device" protobuf:"bytes,3,rep,name=device"`

	// ShareID is the shareID of the allocation this entry is about, for a
	// device that allows multiple allocations; a lowercase RFC 4122 UUID.
	// Beta; needs the DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	ShareID *string `json:"shareID,omitempty" protobuf:"bytes,7,opt,name=shareID"`

	// Conditions are the latest observations of the device's state, keyed
	// by type, at most 8. A device configured as the class and claim ask
	// should have a True Ready condition. Written as null when unset.
	//
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions" protobuf:"bytes,4,opt,name=conditions"`

	// Data is driver-specific data, a JSON object of at most 10 Ki.
	//
	// +optional
	Data *runtime.RawExtension `json:"data,omitempty" protobuf:"bytes,5,opt,name=data"`

	// NetworkData describes the device's network interface.
	//
	// +optional
	NetworkData *NetworkDeviceData `json:"networkData,omitempty" protobuf:"bytes,6,opt,name=networkData"`
}

// NetworkDeviceData describes the network interface of an allocated
// device, as filled in by the driver or another component.
type NetworkDeviceData struct {
	// InterfaceName is the name of the (physical or virtual) network
	// interface set up in the pod, at most 256 bytes.
	//
	// +optional
	InterfaceName string `json:"interfaceName,omitempty" protobuf:"bytes,1,opt,name=interfaceName"`

	// IPs are the interface's addresses with prefix length, IPv4 or IPv6
	// (e.g. "192.0.2.5/24", "2001:db8::5/64"). At most 16, unique.
	//
	// +optional
	// +listType=atomic
	IPs []string `json:"ips,omitempty" protobuf:"bytes,2,opt,name=ips"`

	// HardwareAddress is the interface's hardware (e.g. MAC) address, at
	// most 128 bytes.
	//
	// +optional
	HardwareAddress string `json:"hardwareAddress,omitempty" protobuf:"bytes,3,opt,name=hardwareAddress"`
}
