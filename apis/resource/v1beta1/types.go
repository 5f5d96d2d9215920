package v1beta1

import (
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
)

const (
	// Finalizer is the finalizer the control plane puts on a ResourceClaim
	// while it is allocated or reserved, so that it is not removed while
	// still in use. Drivers use finalizers of their own.
	Finalizer = "resource.kubernetes.io/delete-protection"

	// ExtendedResourceClaimAnnotation marks the ResourceClaim the scheduler
	// creates for a pod's extended-resource requests; its only valid value
	// is "true".
	ExtendedResourceClaimAnnotation = "resource.kubernetes.io/extended-resource-claim"

	// PodResourceClaimAnnotation is put by the ResourceClaim controller on
	// claims it creates from a template; the value is the entry of
	// pod.spec.resourceClaims[].name the claim was made for.
	PodResourceClaimAnnotation = "resource.kubernetes.io/pod-claim-name"

	// ResourceDeviceClassPrefix is prepended to a DeviceClass name to form
	// the class's implicit extended resource name when the class does not
	// set extendedResourceName. The result is not always usable in a pod's
	// resource requests; a class can then name one explicitly.
	ResourceDeviceClassPrefix string = "deviceclass.resource.kubernetes.io/"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceSlice is published by a driver and carries part or all of one
// pool's devices (or the counters shared by a pool's devices). A pool may
// be split over several slices; the number of slices is part of every
// slice, so consumers can tell when they have seen the whole pool.
//
// A device is identified by the triple (driver, pool name, device name),
// and device names are unique within a pool across all its slices. When a
// driver changes a pool it bumps the pool generation in all of the pool's
// slices; consumers use only the slices with the newest generation.
//
// Node-local devices name their node; other devices say where they are
// reachable with a node selector or by being available on all nodes, or
// each device says so itself (perDeviceNodeSelection).
//
// Beta (served 1.32-1.37, disabled by default).
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
	// spec.pool.name (1.37+).
	ResourceSliceSelectorPoolName = "spec.pool.name"
)

// ResourceSliceSpec is the content of one ResourceSlice.
type ResourceSliceSpec struct {
	// Driver names the DRA driver owning the devices in this slice. It
	// must be a DNS subdomain of at most 63 characters (lower case is
	// expected; upper case only draws a warning). Immutable.
	//
	// +required
	Driver string `json:"driver" protobuf:"bytes,1,name=driver"`

	// Pool identifies the pool these devices belong to and carries the
	// pool's generation and slice count.
	//
	// +required
	Pool ResourcePool `json:"pool" protobuf:"bytes,2,name=pool"`

	// NodeName is set when the devices are local to one node; it is that
	// node's name. Exactly one of nodeName, nodeSelector, allNodes and
	// perDeviceNodeSelection must be set. Immutable. Empty means unset.
	//
	// +optional
	// +oneOf=NodeSelection
	NodeName string `json:"nodeName,omitempty" protobuf:"bytes,3,opt,name=nodeName"`

	// NodeSelector lists the nodes the devices can be used from. It must
	// hold exactly one term. Exactly one of nodeName, nodeSelector,
	// allNodes and perDeviceNodeSelection must be set.
	//
	// +optional
	// +oneOf=NodeSelection
	NodeSelector *v1.NodeSelector `json:"nodeSelector,omitempty" protobuf:"bytes,4,opt,name=nodeSelector"`

	// AllNodes means the devices can be used from every node of the
	// cluster. Exactly one of nodeName, nodeSelector, allNodes and
	// perDeviceNodeSelection must be set. False means unset.
	//
	// +optional
	// +oneOf=NodeSelection
	AllNodes bool `json:"allNodes,omitempty" protobuf:"bytes,5,opt,name=allNodes"`

	// Devices are the devices of the pool published in this slice, at
	// most 128 (64 when a device has taints, consumes counters or has a
	// list-valued attribute), with names unique in the pool. A slice
	// carries devices or sharedCounters, not both.
	//
	// +optional
	// +listType=atomic
	// +zeroOrOneOf=ResourceSliceType
	Devices []Device `json:"devices,omitempty" protobuf:"bytes,6,name=devices"`

	// PerDeviceNodeSelection, when true, means that each device says
	// itself where it is reachable (its nodeName, nodeSelector or
	// allNodes). Exactly one of nodeName, nodeSelector, allNodes and
	// perDeviceNodeSelection must be set; false is not allowed.
	// Needs the DRAPartitionableDevices feature gate (beta in 1.36+).
	//
	// +optional
	// +oneOf=NodeSelection
	// +featureGate=DRAPartitionableDevices
	PerDeviceNodeSelection *bool `json:"perDeviceNodeSelection,omitempty" protobuf:"bytes,7,name=perDeviceNodeSelection"`

	// SharedCounters are named sets of counters that devices of the pool
	// draw from (see BasicDevice.consumesCounters). At most 8 sets with
	// names unique in the pool, and at most 32 counters per set. A slice
	// carries devices or sharedCounters, not both. Needs the
	// DRAPartitionableDevices feature gate (beta in 1.36+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAPartitionableDevices
	// +zeroOrOneOf=ResourceSliceType
	SharedCounters []CounterSet `json:"sharedCounters,omitempty" protobuf:"bytes,8,name=sharedCounters"`

	// PartitionTypeAttribute is the fully qualified name of a string
	// attribute whose value tells the partition type of each partitionable
	// device (for example "Full" or "Half"). When set, every device of the
	// slice that consumes counters must have it, and devices with the same
	// value must consume the same counters. Alpha; needs the
	// DRAPartitionableDevicesType feature gate (1.37+).
	//
	// +optional
	// +featureGate=DRAPartitionableDevicesType
	PartitionTypeAttribute *FullyQualifiedName `json:"partitionTypeAttribute,omitempty" protobuf:"bytes,9,opt,name=partitionTypeAttribute"`

	// SkipNodeOperations lists node-local driver calls that the kubelet
	// may skip for the devices of this slice; a call is skipped for a
	// claim when every device of the driver allocated to it skips it.
	// Values: "NodePrepareResources" (only together with
	// "NodeUnprepareResources" or "*"), "NodeUnprepareResources" and "*"
	// (all). Unknown values are ignored by the kubelet. Alpha; needs the
	// DRAOptionalNodeOperations feature gate (1.37+).
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

// CounterSet is a named set of counters that devices of the pool consume
// from. The counters are not allocated themselves: allocating a device
// takes its consumption away from the set, and a device whose consumption
// does not fit any more cannot be allocated.
type CounterSet struct {
	// Name of the set, a DNS label unique among the sets of the pool.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// Counters are the counters of the set, keyed by DNS label; at least
	// one, at most 32.
	//
	// +required
	Counters map[string]Counter `json:"counters,omitempty" protobuf:"bytes,2,name=counters"`
}

// Counter is an amount held by a counter set or consumed by a device.
type Counter struct {
	// Value is the amount.
	//
	// +required
	Value resource.Quantity `json:"value" protobuf:"bytes,1,rep,name=value"`
}

// DriverNameMaxLength is the maximum length of a driver name.
const DriverNameMaxLength = 63

// ResourcePool names a pool of devices and describes its current state.
type ResourcePool struct {
	// Name of the pool, unique per driver. At most 253 characters; it may
	// contain slashes, and every part between them must be a DNS
	// subdomain. Often the node name for node-local pools. Immutable in a
	// ResourceSlice.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// Generation is bumped by the driver whenever the pool changes.
	// Slices with a lower generation than the newest one are outdated and
	// must be ignored. Must not be negative.
	//
	// +required
	Generation int64 `json:"generation" protobuf:"bytes,2,name=generation"`

	// ResourceSliceCount is how many slices make up this pool at this
	// generation. Has to be positive.
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
// devices in one slice when any device has taints, consumes counters or
// has a list-valued attribute.
const ResourceSliceMaxDevicesWithAdvancedFeatures = 64

// PoolNameMaxLength is the maximum length of a pool name (that of a DNS subdomain).
const PoolNameMaxLength = validation.DNS1123SubdomainMaxLength

// BindingConditionsMaxSize is the maximum number of binding conditions of
// a device or an allocation result.
const BindingConditionsMaxSize = 4

// BindingFailureConditionsMaxSize is the maximum number of binding failure
// conditions of a device or an allocation result.
const BindingFailureConditionsMaxSize = 4

// ResourceSliceMaxCounterSets is the maximum number of counter sets in a slice.
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
// groups of one consumesCounters entry.
const DeviceCompatibilityGroupsMaxSize = 2

// Device is one device of a pool. Besides the name, one device type
// field (and only one) has to be set.
type Device struct {
	// Name of the device, a DNS label unique within the pool.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// Basic holds every property of the device. It is the only device
	// type in this version and must be set.
	//
	// +optional
	// +oneOf=deviceType
	Basic *BasicDevice `json:"basic,omitempty" protobuf:"bytes,2,opt,name=basic"`
}

// BasicDevice describes a device: its attributes and capacities, the
// counters it consumes, where it is reachable, its taints and how it is
// bound and shared.
type BasicDevice struct {
	// Attributes are the device's properties, keyed by qualified name.
	// Attributes and capacity together may have at most 32 entries, and
	// the attribute values (list elements counted one by one) at most 48.
	//
	// +optional
	Attributes map[QualifiedName]DeviceAttribute `json:"attributes,omitempty" protobuf:"bytes,1,rep,name=attributes"`

	// Capacity holds the device's capacities, keyed by qualified name.
	// Attributes and capacity together may have at most 32 entries.
	//
	// +optional
	Capacity map[QualifiedName]DeviceCapacity `json:"capacity,omitempty" protobuf:"bytes,2,rep,name=capacity"`

	// ConsumesCounters says which counters of the pool's counter sets the
	// device uses up when allocated; at most 2 entries, one per counter
	// set. Needs the DRAPartitionableDevices feature gate (beta in 1.36+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAPartitionableDevices
	ConsumesCounters []DeviceCounterConsumption `json:"consumesCounters,omitempty" protobuf:"bytes,3,rep,name=consumesCounters"`

	// NodeName is the node the device is local to. Only with
	// perDeviceNodeSelection in the slice, and then exactly one of
	// nodeName, nodeSelector and allNodes must be set. Needs the
	// DRAPartitionableDevices feature gate (beta in 1.36+).
	//
	// +optional
	// +oneOf=DeviceNodeSelection
	// +featureGate=DRAPartitionableDevices
	NodeName *string `json:"nodeName,omitempty" protobuf:"bytes,4,opt,name=nodeName"`

	// NodeSelector lists the nodes the device can be used from, in one
	// term. Only with perDeviceNodeSelection in the slice, and then
	// exactly one of nodeName, nodeSelector and allNodes must be set. (Its
	// use is gated by DRAPartitionableDevices like its siblings, although
	// v1beta1 carries no marker for it.)
	//
	// +optional
	// +oneOf=DeviceNodeSelection
	NodeSelector *v1.NodeSelector `json:"nodeSelector,omitempty" protobuf:"bytes,5,opt,name=nodeSelector"`

	// AllNodes, when true, means the device can be used from every node.
	// Only with perDeviceNodeSelection in the slice, and then exactly one
	// of nodeName, nodeSelector and allNodes must be set. Needs the
	// DRAPartitionableDevices feature gate (beta in 1.36+).
	//
	// +optional
	// +oneOf=DeviceNodeSelection
	// +featureGate=DRAPartitionableDevices
	AllNodes *bool `json:"allNodes,omitempty" protobuf:"bytes,6,opt,name=allNodes"`

	// Taints are the device's taints, at most 16; claims must tolerate
	// them to get the device. Needs the DRADeviceTaints feature gate (GA
	// in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Taints []DeviceTaint `json:"taints,omitempty" protobuf:"bytes,7,rep,name=taints"`

	// BindsToNode, when true, ties an allocation of the device to the
	// node chosen by the scheduler: the allocation's node selector is
	// narrowed to that node. Needs the DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus feature gates.
	//
	// +optional
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindsToNode *bool `json:"bindsToNode,omitempty" protobuf:"varint,8,opt,name=bindsToNode"`

	// BindingConditions are condition types that must become True in the
	// claim's device status before the pod using the device is bound to
	// its node; at most 4. Needs the DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus feature gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingConditions []string `json:"bindingConditions,omitempty" protobuf:"bytes,9,rep,name=bindingConditions"`

	// BindingFailureConditions are condition types that, once True in the
	// claim's device status, mean binding failed and the scheduler should
	// try again; at most 4. Needs the DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus feature gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingFailureConditions []string `json:"bindingFailureConditions,omitempty" protobuf:"bytes,10,rep,name=bindingFailureConditions"`

	// AllowMultipleAllocations, when true, lets the device be allocated
	// to several claims at once, each consuming part of its capacity.
	// Needs the DRAConsumableCapacity feature gate (beta in 1.36+).
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	AllowMultipleAllocations *bool `json:"allowMultipleAllocations,omitempty" protobuf:"bytes,11,opt,name=allowMultipleAllocations"`

	// protobuf 12 was nodeAllocatableResourceMappings (1.36 only).

	// NodeAllocatableResources maps node-allocatable resources that are
	// not extended resources (cpu, memory, hugepages, ...) to what an
	// allocation of this device accounts for on the node. Alpha; needs
	// the DRANodeAllocatableResources feature gate (1.37+).
	//
	// +optional
	// +featureGate=DRANodeAllocatableResources
	NodeAllocatableResources map[v1.ResourceName]NodeAllocatableResource `json:"nodeAllocatableResources,omitempty" protobuf:"bytes,14,opt,name=nodeAllocatableResources"`
}

// NodeAllocatableResource says how an allocation of a device counts
// against one node-allocatable resource. At least one of mapping and
// overhead must be set.
type NodeAllocatableResource struct {
	// Mapping is for devices that stand for the resource itself (for
	// example CPUs of a CPU driver). It is counted once per claim on the
	// node, and such claims cannot be shared by several pods.
	//
	// +optional
	Mapping *NodeAllocatableMapping `json:"mapping,omitempty" protobuf:"bytes,3,opt,name=mapping"`

	// Overhead is extra use of the resource caused by the device (for
	// example host memory of a GPU), counted per pod using the claim and
	// always taken from the node's general allocatable amount.
	//
	// +optional
	Overhead *NodeAllocatableOverhead `json:"overhead,omitempty" protobuf:"bytes,4,opt,name=overhead"`
}

// NodeAllocatableMapping turns an allocation into an amount of a node
// resource, either from a consumed capacity (capacityKey with
// capacityMultiplier) or from the number of allocated devices
// (deviceMultiplier), not both.
type NodeAllocatableMapping struct {
	// CapacityKey names one of the device's capacities; the amount
	// consumed of it by the allocation, times capacityMultiplier, is the
	// amount of the node resource. Requires capacityMultiplier.
	//
	// +optional
	CapacityKey *QualifiedName `json:"capacityKey,omitempty" protobuf:"bytes,1,opt,name=capacityKey"`

	// CapacityMultiplier multiplies the consumed capacity named by
	// capacityKey. Only together with capacityKey.
	//
	// +optional
	CapacityMultiplier *resource.Quantity `json:"capacityMultiplier,omitempty" protobuf:"bytes,2,opt,name=capacityMultiplier"`

	// DeviceMultiplier is the amount of the node resource per allocated
	// device. Only when capacityKey and capacityMultiplier are unset.
	//
	// +optional
	DeviceMultiplier *resource.Quantity `json:"deviceMultiplier,omitempty" protobuf:"bytes,3,opt,name=deviceMultiplier"`
}

// NodeAllocatableOverhead is extra use of a node resource caused by an
// allocated device, per pod, per container reference, or both.
type NodeAllocatableOverhead struct {
	// PerPod is counted once for each pod that uses the claim.
	//
	// +optional
	PerPod *resource.Quantity `json:"perPod,omitempty" protobuf:"bytes,1,opt,name=perPod"`

	// PerContainer is counted for each container that refers to the
	// claim; a pod accounts perPod plus perContainer times its references.
	//
	// +optional
	PerContainer *resource.Quantity `json:"perContainer,omitempty" protobuf:"bytes,2,opt,name=perContainer"`
}

// DeviceCounterConsumption is what a device takes from one counter set.
type DeviceCounterConsumption struct {
	// CounterSet names the counter set of the pool the counters are taken
	// from.
	//
	// +required
	CounterSet string `json:"counterSet" protobuf:"bytes,1,opt,name=counterSet"`

	// Counters are the amounts taken, keyed by counter name; at least
	// one, at most 32.
	//
	// +required
	Counters map[string]Counter `json:"counters,omitempty" protobuf:"bytes,2,opt,name=counters"`

	// CompatibilityGroups are opaque group names, at most 2 and unique.
	// Devices drawing on the same counter set can only be allocated
	// together when they share at least one group; no groups (unset or
	// empty) only goes together with no groups. Alpha; needs the
	// DRADeviceCompatibilityGroups feature gate (1.37+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceCompatibilityGroups
	CompatibilityGroups []string `json:"compatibilityGroups,omitempty" protobuf:"bytes,3,rep,name=compatibilityGroups"`
}

// DeviceCapacity is one capacity of a device.
type DeviceCapacity struct {
	// Value is the device's total amount of this capacity. It does not
	// change when parts of it are allocated.
	//
	// +required
	Value resource.Quantity `json:"value" protobuf:"bytes,1,rep,name=value"`

	// RequestPolicy says which amounts an allocation of a shared device
	// (allowMultipleAllocations) may consume; only for such devices.
	// Unset means any amount, as long as the sum stays within value; a
	// request that names no amount then takes all of it. Needs the
	// DRAConsumableCapacity feature gate (beta in 1.36+).
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	RequestPolicy *CapacityRequestPolicy `json:"requestPolicy,omitempty" protobuf:"bytes,2,opt,name=requestPolicy"`
}

// CapacityRequestPolicy limits the amounts of a capacity that a request
// may consume. At most one of validValues and validRange may be set.
type CapacityRequestPolicy struct {
	// Default is consumed by a request that asks for no amount of this
	// capacity. Required when validValues or validRange is set, and must
	// then be allowed by it.
	//
	// +optional
	Default *resource.Quantity `json:"default" protobuf:"bytes,1,opt,name=default"`

	// ValidValues are the allowed amounts, ascending, at most 10. A
	// request is rounded up to the next allowed amount; above the largest
	// one the device cannot be used.
	//
	// +optional
	// +listType=atomic
	// +oneOf=ValidRequestValues
	ValidValues []resource.Quantity `json:"validValues,omitempty" protobuf:"bytes,3,opt,name=validValues"`

	// ValidRange is the allowed range of amounts; a request outside it
	// cannot use the device.
	//
	// +optional
	// +oneOf=ValidRequestValues
	ValidRange *CapacityRequestPolicyRange `json:"validRange,omitempty" protobuf:"bytes,4,opt,name=validRange"`
}

// CapacityRequestPolicyRange is a range of allowed amounts. A request
// below min is raised to min, one between steps is raised to the next
// min + n*step, and one above max does not fit. With fractional bounds
// and the DRAFractionalCapacityRange feature gate the arithmetic is done
// in milli-units; otherwise in whole units.
type CapacityRequestPolicyRange struct {
	// Min is the smallest amount; not negative, at most the capacity value
	// and at most the policy default.
	//
	// +required
	Min *resource.Quantity `json:"min,omitempty" protobuf:"bytes,1,opt,name=min"`

	// Max is the largest amount; at most the capacity value and at least
	// min and the policy default.
	//
	// +optional
	Max *resource.Quantity `json:"max,omitempty" protobuf:"bytes,2,opt,name=max"`

	// Step is the granularity above min; max and the policy default must
	// be multiples of it, and min + step must fit in the capacity.
	//
	// +optional
	Step *resource.Quantity `json:"step,omitempty" protobuf:"bytes,3,opt,name=step"`
}

// ResourceSliceMaxAttributesAndCapacitiesPerDevice is the maximum number of
// attributes plus capacities of one device.
const ResourceSliceMaxAttributesAndCapacitiesPerDevice = 32

// ResourceSliceMaxAttributeValuesPerDevice is the maximum number of
// attribute values of one device, each element of a list counting once.
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

// DeviceMaxDomainLength caps the domain (the part before the slash) of an
// attribute or capacity name.
const DeviceMaxDomainLength = 63

// DeviceMaxIDLength caps the identifier (the part after any slash) of an
// attribute or capacity name.
const DeviceMaxIDLength = 32

// DeviceAttribute is the value of one device attribute; one field, and
// only one, has to be set.
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

	// StringValues is a non-empty list of strings of at most 64
	// characters each. Alpha; needs the DRAListTypeAttributes feature
	// gate (1.36+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAListTypeAttributes
	StringValues []string `json:"strings,omitempty" protobuf:"bytes,8,opt,name=strings"`

	// VersionValues is a non-empty list of semantic versions of at most
	// 64 characters each. Alpha; needs the DRAListTypeAttributes feature
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

// DeviceTaint marks a device so that claims which do not tolerate it (and
// the pods using such claims) are affected as its effect says.
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
	// None, NoSchedule or NoExecute. Unknown effects are to be treated as
	// None.
	//
	// +required
	Effect DeviceTaintEffect `json:"effect" protobuf:"bytes,3,name=effect,casttype=DeviceTaintEffect"`

	// TimeAdded is when the taint was added. Defaulted to the current
	// time, to the second, when empty.
	//
	// +optional
	TimeAdded *metav1.Time `json:"timeAdded,omitempty" protobuf:"bytes,4,opt,name=timeAdded"`
}

// String writes the taint as "<key>", "<key>=<value>:", "<key>:<effect>"
// or "<key>=<value>:<effect>", depending on which parts are set.
func (t DeviceTaint) String() string {
	var b strings.Builder
	b.WriteString(t.Key)
	if t.Value != "" {
		b.WriteString("=")
		b.WriteString(t.Value)
		b.WriteString(":")
	} else if t.Effect != "" {
		b.WriteString(":")
	}
	b.WriteString(string(t.Effect))
	return b.String()
}

// DeviceTaintEffect is the effect of a device taint.
//
// +enum
type DeviceTaintEffect string

const (
	// DeviceTaintEffectNone only informs; the taint has no effect (1.35+).
	DeviceTaintEffectNone DeviceTaintEffect = "None"
	// DeviceTaintEffectNoSchedule keeps the device from being allocated to
	// claims that do not tolerate the taint; pods already using it keep
	// running.
	DeviceTaintEffectNoSchedule DeviceTaintEffect = "NoSchedule"
	// DeviceTaintEffectNoExecute also evicts running pods whose claims do
	// not tolerate the taint.
	DeviceTaintEffectNoExecute DeviceTaintEffect = "NoExecute"
)

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
//
// Beta (served 1.32-1.37, disabled by default).
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

	// protobuf 2 was controller (1.31).
}

// DeviceClaim groups what a claim asks for: the requests, the constraints
// between them and the configuration for the allocated devices.
type DeviceClaim struct {
	// Requests are the individual device requests. At most 32, with
	// unique names. All must be satisfied for the claim to be allocated.
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
	// DRAAdminNamespaceLabelKey is the namespace label that must be
	// "true" for claims and templates in the namespace to ask for admin
	// access, or for an allocation to be given it.
	DRAAdminNamespaceLabelKey = "resource.kubernetes.io/admin-access"
)

// DeviceRequest asks for devices, either of one device class directly
// (deviceClassName with the fields that go with it) or through an ordered
// list of alternatives (firstAvailable). Exactly one of deviceClassName
// and firstAvailable must be set.
type DeviceRequest struct {
	// Name identifies the request within the claim; constraints, config
	// and allocation results refer to it (for a sub-request as
	// "<request>/<sub-request>"). A DNS label.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// DeviceClassName is the DeviceClass whose selectors and config apply
	// to this request; a DNS subdomain. Exactly one of deviceClassName
	// and firstAvailable must be set; the fields below, up to
	// firstAvailable, are only allowed with deviceClassName. Always
	// written, as "" when unset.
	//
	// +optional
	// +oneOf=deviceRequestType
	DeviceClassName string `json:"deviceClassName" protobuf:"bytes,2,name=deviceClassName"`

	// Selectors are extra conditions a device must meet, in addition to
	// those of the class. All must match. At most 32.
	//
	// +optional
	// +listType=atomic
	Selectors []DeviceSelector `json:"selectors,omitempty" protobuf:"bytes,3,name=selectors"`

	// AllocationMode says how many devices are wanted: ExactCount (the
	// default) allocates exactly Count devices; All allocates every
	// matching device in the pools considered, and fails if none match or
	// one of them is already in use (unless adminAccess is set).
	//
	// +optional
	AllocationMode DeviceAllocationMode `json:"allocationMode,omitempty" protobuf:"bytes,4,opt,name=allocationMode"`

	// Count is the number of devices for ExactCount; it must be positive
	// there and defaults to 1. It must be 0 for All.
	//
	// +optional
	// +oneOf=AllocationMode
	Count int64 `json:"count,omitempty" protobuf:"bytes,5,opt,name=count"`

	// AdminAccess requests admin-mode use of the devices: they may be
	// allocated even if already in use, and are not counted as used. Only
	// in namespaces labelled with DRAAdminNamespaceLabelKey. Needs the
	// DRAAdminAccess feature gate (GA in 1.36).
	//
	// +optional
	// +featureGate=DRAAdminAccess
	AdminAccess *bool `json:"adminAccess,omitempty" protobuf:"bytes,6,opt,name=adminAccess"`

	// FirstAvailable lists alternative sub-requests, most preferred first;
	// the first one that can be satisfied is used. At most 8 with unique
	// names. Exactly one of deviceClassName and firstAvailable must be
	// set. Needs the DRAPrioritizedList feature gate (GA in 1.36).
	//
	// +optional
	// +oneOf=deviceRequestType
	// +listType=atomic
	// +featureGate=DRAPrioritizedList
	FirstAvailable []DeviceSubRequest `json:"firstAvailable,omitempty" protobuf:"bytes,7,name=firstAvailable"`

	// Tolerations let the request use devices with matching taints; at
	// most 16. A NoExecute taint added after allocation evicts the pods
	// of the claim unless tolerated. Needs the DRADeviceTaints feature
	// gate (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Tolerations []DeviceToleration `json:"tolerations,omitempty" protobuf:"bytes,8,opt,name=tolerations"`

	// Capacity is the amount of each capacity every allocated device must
	// provide (and, on a shared device, gives up to this request). Needs
	// the DRAConsumableCapacity feature gate (beta in 1.36+).
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	Capacity *CapacityRequirements `json:"capacity,omitempty" protobuf:"bytes,9,opt,name=capacity"`

	// DerivedAttributes are attributes computed per candidate device by
	// CEL, for use in the claim's matchAttribute and distinctAttribute
	// constraints (each must be used by one); selectors do not see them.
	// At most 32. Alpha; needs the DRADerivedAttributes feature gate
	// (1.37+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADerivedAttributes
	DerivedAttributes []DeviceDerivedAttribute `json:"derivedAttributes,omitempty" protobuf:"bytes,10,rep,name=derivedAttributes"`
}

// DeviceSubRequest is one alternative in a request's firstAvailable list:
// a request of one device class, without admin access and without
// alternatives of its own.
type DeviceSubRequest struct {
	// Name identifies the sub-request within its request; results name
	// it as "<request>/<sub-request>". A DNS label.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// DeviceClassName is the DeviceClass whose selectors and config apply
	// to this sub-request; a DNS subdomain.
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
	// default) or All, as for a request.
	//
	// +optional
	AllocationMode DeviceAllocationMode `json:"allocationMode,omitempty" protobuf:"bytes,4,opt,name=allocationMode"`

	// Count is the number of devices for ExactCount; it must be positive
	// there and defaults to 1. It must be 0 for All.
	//
	// +optional
	// +oneOf=AllocationMode
	Count int64 `json:"count,omitempty" protobuf:"bytes,5,opt,name=count"`

	// protobuf 6 is not used in this version.

	// Tolerations let the sub-request use devices with matching taints;
	// at most 16. Needs the DRADeviceTaints feature gate (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Tolerations []DeviceToleration `json:"tolerations,omitempty" protobuf:"bytes,7,opt,name=tolerations"`

	// Capacity is the amount of each capacity every allocated device must
	// provide. Needs the DRAConsumableCapacity feature gate (beta in
	// 1.36+).
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	Capacity *CapacityRequirements `json:"capacity,omitempty" protobuf:"bytes,8,opt,name=capacity"`

	// DerivedAttributes are attributes computed per candidate device by
	// CEL, for use in the claim's constraints. At most 32. Alpha; needs
	// the DRADerivedAttributes feature gate (1.37+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADerivedAttributes
	DerivedAttributes []DeviceDerivedAttribute `json:"derivedAttributes,omitempty" protobuf:"bytes,9,rep,name=derivedAttributes"`
}

// CapacityRequirements are the capacity amounts a request needs from each
// allocated device.
type CapacityRequirements struct {
	// Requests maps capacity names to the amount needed. A device must
	// have at least that much (after rounding up by its request policy) to
	// be chosen; on a shared device the amount is consumed and recorded in
	// the allocation result. Capacities not named here consume the policy
	// default, or all of the capacity without a policy.
	//
	// +optional
	Requests map[QualifiedName]resource.Quantity `json:"requests,omitempty" protobuf:"bytes,1,rep,name=requests,castkey=QualifiedName"`
}

// DeviceDerivedAttribute is an attribute computed for each candidate
// device by a CEL expression.
type DeviceDerivedAttribute struct {
	// Name is the fully qualified name constraints use for the attribute.
	// When it equals a driver attribute, it hides that attribute in
	// constraints; a domain no driver uses (for example "derived/x")
	// avoids that.
	//
	// +required
	Name FullyQualifiedName `json:"name" protobuf:"bytes,1,name=name"`

	// Expression is CEL over the variable `device` (as in a selector),
	// evaluated after the request's selectors matched. It must yield a
	// string, integer, boolean or semver, or a list of one of these. An
	// evaluation error aborts scheduling of the pod. At most 10 Ki long;
	// its cost counts against a budget shared by the claim.
	//
	// +required
	Expression string `json:"expression" protobuf:"bytes,2,name=expression"`
}

const (
	// DeviceSelectorsMaxSize is the maximum number of selectors in a request or class.
	DeviceSelectorsMaxSize = 32
	// FirstAvailableDeviceRequestMaxSize is the maximum number of
	// sub-requests in a request's firstAvailable.
	FirstAvailableDeviceRequestMaxSize = 8
	// DeviceTolerationsMaxLength is the maximum number of tolerations of a
	// request or sub-request.
	DeviceTolerationsMaxLength = 16
	// DeviceDerivedAttributesMaxSize is the maximum number of derived
	// attributes of a request or sub-request.
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
	// CEL selects devices with a CEL expression. It is the only selector
	// type in this version and must be set.
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
	// shape, with quantities) and `allowMultipleAllocations` (bool).
	// Unqualified names are in the driver's domain, and an unknown domain
	// gives an empty map. The result must be a boolean: true selects the
	// device; an evaluation error aborts the allocation attempt. At most
	// 10 Ki long; its estimated cost must stay within the limit.
	//
	// +required
	Expression string `json:"expression" protobuf:"bytes,1,name=expression"`
}

// CELSelectorExpressionMaxCost caps the estimated and the actual cost of
// one selector expression.
const CELSelectorExpressionMaxCost = 1000000

// DeviceClaimDerivedAttributeCELMaxCost caps the cost of all derived
// attribute expressions of one claim together.
const DeviceClaimDerivedAttributeCELMaxCost = 1000000

// CELSelectorExpressionMaxLength is the maximum length of a selector or
// derived attribute expression.
const CELSelectorExpressionMaxLength = 10 * 1024

// DeviceConstraint is a condition across the devices of several requests.
// One of matchAttribute and distinctAttribute must be set.
type DeviceConstraint struct {
	// Requests names the requests the constraint covers ("<request>" or
	// "<request>/<sub-request>"); empty means all requests of the claim.
	// At most 32 unique names.
	//
	// +optional
	// +listType=atomic
	Requests []string `json:"requests,omitempty" protobuf:"bytes,1,opt,name=requests"`

	// MatchAttribute is a fully qualified attribute name that every
	// covered device must have, with the same type and value on all of
	// them; devices lacking it are not used.
	//
	// +optional
	// +oneOf=ConstraintType
	MatchAttribute *FullyQualifiedName `json:"matchAttribute,omitempty" protobuf:"bytes,2,opt,name=matchAttribute"`

	// DistinctAttribute is a fully qualified attribute name whose value
	// must differ between all covered devices. Needs the
	// DRAConsumableCapacity feature gate (beta in 1.36+).
	//
	// +optional
	// +oneOf=ConstraintType
	// +featureGate=DRAConsumableCapacity
	DistinctAttribute *FullyQualifiedName `json:"distinctAttribute,omitempty" protobuf:"bytes,3,opt,name=distinctAttribute"`
}

// DeviceClaimConfiguration is configuration from a claim for the devices
// of some of its requests.
type DeviceClaimConfiguration struct {
	// Requests names the requests the configuration is for ("<request>"
	// or "<request>/<sub-request>"); empty means all requests of the
	// claim. At most 32 unique names.
	//
	// +optional
	// +listType=atomic
	Requests []string `json:"requests,omitempty" protobuf:"bytes,1,opt,name=requests"`

	DeviceConfiguration `json:",inline" protobuf:"bytes,2,name=deviceConfiguration"`
}

// DeviceConfiguration is one piece of device configuration; one field,
// and only one, has to be set.
type DeviceConfiguration struct {
	// Opaque is configuration for one driver, in the driver's own format.
	// It is the only configuration type in this version and must be set.
	//
	// +optional
	// +oneOf=ConfigurationType
	Opaque *OpaqueDeviceConfiguration `json:"opaque,omitempty" protobuf:"bytes,1,opt,name=opaque"`
}

// OpaqueDeviceConfiguration is driver-specific configuration that only
// the named driver interprets.
type OpaqueDeviceConfiguration struct {
	// Driver is the driver the parameters are for; other drivers ignore
	// them. Must be a valid driver name.
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

// OpaqueParametersMaxLength is the maximum size of opaque parameters.
const OpaqueParametersMaxLength = 10 * 1024

// DeviceToleration lets a request use devices with a matching taint.
type DeviceToleration struct {
	// Key is the taint key the toleration applies to, a label name. Empty
	// matches every key, and then the operator must be Exists.
	//
	// +optional
	Key string `json:"key,omitempty" protobuf:"bytes,1,opt,name=key"`

	// Operator compares the taint value: Equal (the default) requires the
	// value to match, Exists accepts any value (value must then be empty).
	//
	// +optional
	// +default="Equal"
	Operator DeviceTolerationOperator `json:"operator,omitempty" protobuf:"bytes,2,opt,name=operator,casttype=DeviceTolerationOperator"`

	// Value is the taint value matched by Equal, a label value.
	//
	// +optional
	Value string `json:"value,omitempty" protobuf:"bytes,3,opt,name=value"`

	// Effect is the taint effect matched: NoSchedule or NoExecute, or
	// empty to match every effect.
	//
	// +optional
	Effect DeviceTaintEffect `json:"effect,omitempty" protobuf:"bytes,4,opt,name=effect,casttype=DeviceTaintEffect"`

	// TolerationSeconds is how long a NoExecute taint is tolerated, from
	// the taint's timeAdded, before pods are evicted; unset means forever,
	// zero or less means at once. Ignored unless the effect is NoExecute.
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
	// DeviceTolerationOpEqual matches the toleration's value.
	DeviceTolerationOpEqual DeviceTolerationOperator = "Equal"
)

// ResourceClaimStatus records the allocation and the users of a claim.
type ResourceClaimStatus struct {
	// Allocation is the result of a successful allocation. Once set, it
	// cannot be changed.
	//
	// +optional
	Allocation *AllocationResult `json:"allocation,omitempty" protobuf:"bytes,1,opt,name=allocation"`

	// ReservedFor lists the consumers (usually pods) that may use the
	// allocated devices, keyed by uid, at most 256. A non-empty list
	// requires an allocation. No entries may be added while the claim is
	// being deleted. Deallocation is only possible when the list is empty.
	//
	// +optional
	// +listType=map
	// +listMapKey=uid
	// +patchStrategy=merge
	// +patchMergeKey=uid
	ReservedFor []ResourceClaimConsumerReference `json:"reservedFor,omitempty" protobuf:"bytes,2,opt,name=reservedFor" patchStrategy:"merge" patchMergeKey:"uid"`

	// protobuf 3 was deallocationRequested (1.31).

	// Devices is the status the drivers report for the allocated devices,
	// one entry per driver, pool, device and share ID, each for a device
	// of the allocation. Needs the DRAResourceClaimDeviceStatus feature
	// gate (GA in 1.37).
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

	// protobuf 2 is unused (since 1.31).

	// NodeSelector limits the nodes on which the allocated devices can be
	// used. Unset means every node.
	//
	// +optional
	NodeSelector *v1.NodeSelector `json:"nodeSelector,omitempty" protobuf:"bytes,3,opt,name=nodeSelector"`

	// protobuf 4 was controller (1.31).

	// AllocationTimestamp is when the allocation was made, set by the
	// scheduler; unset means the time is unknown. Needs the
	// DRADeviceBindingConditions and DRAResourceClaimDeviceStatus feature
	// gates.
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
	// the classes and from the claim, at most 64 entries. Drivers use the
	// entries meant for them, class entries before claim entries.
	//
	// +optional
	// +listType=atomic
	Config []DeviceAllocationConfiguration `json:"config,omitempty" protobuf:"bytes,2,opt,name=config"`
}

// AllocationResultsMaxSize is the maximum number of allocated devices in a claim.
const AllocationResultsMaxSize = 32

// DeviceRequestAllocationResult names one device allocated for one request.
type DeviceRequestAllocationResult struct {
	// Request refers to the claim request this device was allocated
	// for: "<request>", or "<request>/<sub-request>" for a prioritized
	// list.
	//
	// +required
	Request string `json:"request" protobuf:"bytes,1,name=request"`

	// Driver is the driver that owns the device. Must be a valid driver
	// name.
	//
	// +required
	Driver string `json:"driver" protobuf:"bytes,2,name=driver"`

	// Pool is the name of the device's pool within the driver.
	//
	// +required
	Pool string `json:"pool" protobuf:"bytes,3,name=pool"`

	// Device is the device's name within the pool. A DNS label.
	//
	// +required
	Device string `json:"device" protobuf:"bytes,4,name=device"`

	// AdminAccess tells whether the device was allocated for admin
	// access; copied from the request. Unset means false. Needs the
	// DRAAdminAccess feature gate (GA in 1.36).
	//
	// +optional
	// +featureGate=DRAAdminAccess
	AdminAccess *bool `json:"adminAccess,omitempty" protobuf:"bytes,5,opt,name=adminAccess"`

	// Tolerations are the request's tolerations at allocation time, at
	// most 16. Needs the DRADeviceTaints feature gate (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Tolerations []DeviceToleration `json:"tolerations,omitempty" protobuf:"bytes,6,opt,name=tolerations"`

	// BindingConditions are copied from the device; at most 4. Needs the
	// DRADeviceBindingConditions and DRAResourceClaimDeviceStatus feature
	// gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingConditions []string `json:"bindingConditions,omitempty" protobuf:"bytes,7,rep,name=bindingConditions"`

	// BindingFailureConditions are copied from the device; at most 4.
	// Needs the DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus feature gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingFailureConditions []string `json:"bindingFailureConditions,omitempty" protobuf:"bytes,8,rep,name=bindingFailureConditions"`

	// ShareID is a UUID telling apart the allocations of one shared
	// device (allowMultipleAllocations); unset for other devices. Needs
	// the DRAConsumableCapacity feature gate (beta in 1.36+).
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	ShareID *types.UID `json:"shareID,omitempty" protobuf:"bytes,9,opt,name=shareID"`

	// ConsumedCapacity is the capacity this allocation takes from a shared
	// device, keyed by capacity name. Needs the DRAConsumableCapacity
	// feature gate (beta in 1.36+).
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	ConsumedCapacity map[QualifiedName]resource.Quantity `json:"consumedCapacity,omitempty" protobuf:"bytes,10,rep,name=consumedCapacity"`

	// SkipNodeOperations is copied from the device's slice and tells the
	// kubelet which node-local calls may be skipped. Alpha; needs the
	// DRAOptionalNodeOperations feature gate (1.37+).
	//
	// +optional
	// +listType=set
	// +featureGate=DRAOptionalNodeOperations
	SkipNodeOperations []SkipNodeOperation `json:"skipNodeOperations,omitempty" protobuf:"bytes,11,rep,name=skipNodeOperations,casttype=SkipNodeOperation"`
}

// DeviceAllocationConfiguration is one configuration entry in an
// allocation result.
type DeviceAllocationConfiguration struct {
	// Source says where the entry came from: FromClass or FromClaim.
	//
	// +required
	Source AllocationConfigSource `json:"source" protobuf:"bytes,1,name=source"`

	// Requests names the requests the entry is for; empty means all
	// requests of the claim. At most 32 unique names.
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
//
// Beta (served 1.32-1.37, disabled by default).
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
	// class. At most 32. Claim configuration may override it, since the
	// drivers apply class entries first.
	//
	// +optional
	// +listType=atomic
	Config []DeviceClassConfiguration `json:"config,omitempty" protobuf:"bytes,2,opt,name=config"`

	// protobuf 3 was suitableNodes (1.31).

	// ExtendedResourceName is the extended resource name pods can request
	// to get a device of this class without writing a claim. It should be
	// unique among classes; on a clash the newest class is used (the name
	// sorting first when created at the same time). Unset, the class is
	// still reachable under ResourceDeviceClassPrefix plus its name. Needs
	// the DRAExtendedResource feature gate (GA in 1.37).
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
//
// Beta (served 1.32-1.37, disabled by default).
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
	// AllocatedDeviceStatusDataMaxLength is the maximum size of the data
	// of one device status.
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
// device (or one share of a shared device).
type AllocatedDeviceStatus struct {
	// Driver owns the device; a valid driver name.
	//
	// +required
	Driver string `json:"driver" protobuf:"bytes,1,rep,name=driver"`

	// Pool is the device's pool; a valid pool name.
	//
	// +required
	Pool string `json:"pool" protobuf:"bytes,2,rep,name=pool"`

	// Device is the device's name within the pool.
	//
	// +required
	Device string `json:"device" protobuf:"bytes,3,rep,name=device"`

	// ShareID tells which allocation of a shared device the entry is for;
	// a UUID equal to the result's shareID. Needs the
	// DRAConsumableCapacity feature gate (beta in 1.36+).
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	ShareID *string `json:"shareID,omitempty" protobuf:"bytes,7,opt,name=shareID"`

	// Conditions are the device's conditions, keyed by type, at most 8;
	// "Ready" should be True once the device is configured. Binding
	// conditions are reported here too. Always written, as null when
	// unset.
	//
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions" protobuf:"bytes,4,opt,name=conditions"`

	// Data is driver-specific status of the device, a JSON object of at
	// most 10 Ki.
	//
	// +optional
	Data *runtime.RawExtension `json:"data,omitempty" protobuf:"bytes,5,opt,name=data"`

	// NetworkData is the network state of a device that is a network
	// interface.
	//
	// +optional
	NetworkData *NetworkDeviceData `json:"networkData,omitempty" protobuf:"bytes,6,opt,name=networkData"`
}

// NetworkDeviceData describes the network interface a device provides.
type NetworkDeviceData struct {
	// InterfaceName is the interface's name in the pod's network
	// namespace (or the host's), at most 256 characters. Empty when the
	// device has no such interface.
	//
	// +optional
	InterfaceName string `json:"interfaceName,omitempty" protobuf:"bytes,1,opt,name=interfaceName"`

	// IPs are the interface's addresses in CIDR notation, IPv4 or IPv6,
	// at most 16 and unique.
	//
	// +optional
	// +listType=atomic
	IPs []string `json:"ips,omitempty" protobuf:"bytes,2,opt,name=ips"`

	// HardwareAddress is the interface's MAC address, at most 128
	// characters.
	//
	// +optional
	HardwareAddress string `json:"hardwareAddress,omitempty" protobuf:"bytes,3,opt,name=hardwareAddress"`
}
