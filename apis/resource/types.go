package resource

import (
	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// The hub follows one rule: every idea that any version of resource.k8s.io
// can express (v1alpha1 to v1) has exactly one home here. Where v1 can say an
// idea, v1's shape is the home: the types and fields below are v1's, with
// v1's Go names, pointers and JSON names. Ideas that only older versions can
// say get a field or type of their own, named after what it meant there and
// marked "Legacy". docs/architecture.md explains the choice and
// docs/conversion.md maps every versioned field onto these types.
//
// "Legacy" marks what belongs to the DRA that later Kubernetes releases
// dropped: classic DRA's parameters references and allocation modes
// (Immediate, WaitForFirstConsumer), its control-plane controller that
// allocates a claim (the claim controller), PodSchedulingContext, the
// resource handles a driver records in an allocation and v1alpha1's single
// handle, shareable allocations, and 1.30's structured parameters with their
// named resources. What a target version cannot say travels in the stash
// annotation.
//
// The JSON layout is the API's: TypeMeta inline, ObjectMeta and ListMeta
// under "metadata" (a claim template's claim metadata under
// "spec.metadata"), every other field under v1's JSON name. A hub object's
// JSON therefore has the paths of a v1 object.

// LegacyRequestName is the name of the single device request that stands for
// the class of a v1alpha1/v1alpha2 claim (resourceClassName). Those versions
// have no request names; allocation results of such claims carry this name.
const LegacyRequestName = "resource"

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
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is the object\'s metadata ("metadata").
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is what the driver publishes in this slice. Any change to it
	// increments metadata.generation.
	//
	// +required
	Spec ResourceSliceSpec `json:"spec"`
}

// ResourceSliceSpec is the content of one ResourceSlice.
type ResourceSliceSpec struct {
	// Driver names the DRA driver owning the devices in this slice. It must
	// be a DNS subdomain of at most 63 characters once lower-cased, should
	// end in a domain the driver's vendor owns and should be lower case.
	// Usable as a field selector. Immutable.
	//
	// +required
	Driver string `json:"driver,omitempty"`

	// Pool identifies the pool these devices belong to and carries the
	// pool's generation and slice count.
	//
	// +required
	Pool ResourcePool `json:"pool"`

	// NodeName is set when the devices are local to one node; it is that
	// node's name, and usable as a field selector. When set it must not be
	// empty. Exactly one of nodeName, nodeSelector, allNodes and
	// perDeviceNodeSelection is set. Immutable.
	//
	// +optional
	// +oneOf=NodeSelection
	NodeName *string `json:"nodeName,omitempty"`

	// NodeSelector lists the nodes the devices can be used from, when they
	// are not tied to a single node. It must hold exactly one term. Exactly
	// one of nodeName, nodeSelector, allNodes and perDeviceNodeSelection is
	// set.
	//
	// +optional
	// +oneOf=NodeSelection
	NodeSelector *corev1.NodeSelector `json:"nodeSelector,omitempty"`

	// AllNodes, when true, means the devices can be used from every node.
	// When set it must be true. Exactly one of nodeName, nodeSelector,
	// allNodes and perDeviceNodeSelection is set.
	//
	// +optional
	// +oneOf=NodeSelection
	AllNodes *bool `json:"allNodes,omitempty"`

	// Devices are the devices of the pool published in this slice, with
	// names unique in the pool. At most 128, or 64 when any device has
	// taints, consumes counters or has list-valued attributes. A slice
	// carries devices or sharedCounters, not both.
	//
	// +optional
	// +listType=atomic
	// +zeroOrOneOf=ResourceSliceType
	Devices []Device `json:"devices,omitempty"`

	// PerDeviceNodeSelection, when true, means every device says itself
	// where it is available (its nodeName, nodeSelector or allNodes). When
	// set it must be true. Exactly one of nodeName, nodeSelector, allNodes
	// and perDeviceNodeSelection is set. Beta; needs the
	// DRAPartitionableDevices feature gate.
	//
	// +optional
	// +oneOf=NodeSelection
	// +featureGate=DRAPartitionableDevices
	PerDeviceNodeSelection *bool `json:"perDeviceNodeSelection,omitempty"`

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
	SharedCounters []CounterSet `json:"sharedCounters,omitempty"`

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
	PartitionTypeAttribute *FullyQualifiedName `json:"partitionTypeAttribute,omitempty"`

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
	SkipNodeOperations []SkipNodeOperation `json:"skipNodeOperations,omitempty"`

	// NoResourceModel (legacy, v1alpha2) records a slice that names no
	// resource model at all. The 1.30 server rejects such a slice, but a
	// manifest can say it, and conversion gives it back unchanged.
	NoResourceModel bool `json:"noResourceModel,omitempty"`
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
	Name string `json:"name,omitempty"`

	// Counters are the counters of the set, keyed by DNS-label names, at
	// most 32. Must not be empty.
	//
	// +required
	Counters map[string]Counter `json:"counters,omitempty"`
}

// ResourcePool names a pool of devices and describes its current state.
type ResourcePool struct {
	// Name of the pool, unique per driver; often the node name for
	// node-local pools. At most 253 characters; it may contain slashes, and
	// every part between them must be a DNS subdomain. Usable as a field
	// selector. Immutable in a ResourceSlice.
	//
	// +required
	Name string `json:"name,omitempty"`

	// Generation is changed by the driver in all slices of the pool
	// whenever the pool changes. Consumers use only the slices with the
	// highest generation. Drivers may reset it, provided every slice of the
	// pool follows. Must not be negative.
	//
	// +required
	Generation int64 `json:"generation,omitempty"`

	// ResourceSliceCount is how many slices make up this pool at this
	// generation; consumers use it to see whether they have all of them.
	// Must be positive.
	//
	// +required
	ResourceSliceCount int64 `json:"resourceSliceCount,omitempty"`
}

// Device is one device of a pool, described by its attributes and
// capacities.
type Device struct {
	// Name of the device, a DNS label unique within the pool.
	//
	// +required
	Name string `json:"name,omitempty"`

	// Attributes are the device's properties, keyed by qualified name.
	// Attributes and capacity together may have at most 32 entries, and
	// the attributes at most 48 values (a list counts each element).
	//
	// +optional
	Attributes map[QualifiedName]DeviceAttribute `json:"attributes,omitempty"`

	// Capacity holds the device's quantities, keyed by qualified name.
	// Attributes and capacity together may have at most 32 entries.
	//
	// +optional
	Capacity map[QualifiedName]DeviceCapacity `json:"capacity,omitempty"`

	// ConsumesCounters says which counters of which counter sets of the
	// pool the device uses up when allocated. At most 2 entries, with
	// unique counter sets. A slice with such a device holds at most 64
	// devices. Beta; needs the DRAPartitionableDevices feature gate.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAPartitionableDevices
	ConsumesCounters []DeviceCounterConsumption `json:"consumesCounters,omitempty"`

	// NodeName is the node the device is local to. Only with
	// spec.perDeviceNodeSelection, and then exactly one of nodeName,
	// nodeSelector and allNodes is set; it must not be empty. Beta; needs
	// the DRAPartitionableDevices feature gate.
	//
	// +optional
	// +oneOf=DeviceNodeSelection
	// +featureGate=DRAPartitionableDevices
	NodeName *string `json:"nodeName,omitempty"`

	// NodeSelector lists the nodes the device can be used from; it must
	// hold exactly one term. Only with spec.perDeviceNodeSelection, and then
	// exactly one of nodeName, nodeSelector and allNodes is set. Beta; needs
	// the DRAPartitionableDevices feature gate.
	//
	// +optional
	// +oneOf=DeviceNodeSelection
	// +featureGate=DRAPartitionableDevices
	NodeSelector *corev1.NodeSelector `json:"nodeSelector,omitempty"`

	// AllNodes, when true, means every node can use the device; when set
	// it must be true. Only with spec.perDeviceNodeSelection, and then
	// exactly one of nodeName, nodeSelector and allNodes is set. Beta;
	// needs the DRAPartitionableDevices feature gate.
	//
	// +optional
	// +oneOf=DeviceNodeSelection
	// +featureGate=DRAPartitionableDevices
	AllNodes *bool `json:"allNodes,omitempty"`

	// Taints are taints the driver puts on the device, at most 16. A slice
	// with a tainted device holds at most 64 devices. Needs the
	// DRADeviceTaints feature gate (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Taints []DeviceTaint `json:"taints,omitempty"`

	// BindsToNode, when true, ties an allocation of the device to the node
	// chosen while allocating: the scheduler sets the allocation's node
	// selector to that node. Beta; needs the DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus feature gates.
	//
	// +optional
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindsToNode *bool `json:"bindsToNode,omitempty"`

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
	BindingConditions []string `json:"bindingConditions,omitempty"`

	// BindingFailureConditions are condition types of the claim's device
	// status of which any one being True means binding failed. At most 4
	// valid condition types; set together with bindingConditions. Beta;
	// needs the DRADeviceBindingConditions and DRAResourceClaimDeviceStatus
	// feature gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingFailureConditions []string `json:"bindingFailureConditions,omitempty"`

	// AllowMultipleAllocations, when true, lets the device be allocated
	// several times at once; all its capacity then becomes consumable,
	// with or without a request policy. Beta; needs the
	// DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	AllowMultipleAllocations *bool `json:"allowMultipleAllocations,omitempty"`

	// Protobuf field 13 (nodeAllocatableResourceMappings, 1.36 only) is retired.

	// NodeAllocatableResources says which node-allocatable resources
	// (cpu, memory, hugepages and the like, not extended resources) an
	// allocation of the device accounts for, keyed by resource name. Each
	// entry sets a mapping, an overhead or both. Alpha; needs the
	// DRANodeAllocatableResources feature gate (1.37+).
	//
	// +optional
	// +featureGate=DRANodeAllocatableResources
	NodeAllocatableResources map[corev1.ResourceName]NodeAllocatableResource `json:"nodeAllocatableResources,omitempty"`

	// NamedResources (legacy, v1alpha2) is how a v1alpha2 named-resources
	// instance listed this device's attributes, where that cannot be
	// derived from Attributes and Capacity; nil in every other case.
	NamedResources *NamedResourcesLayout `json:"namedResources,omitempty"`
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
	Mapping *NodeAllocatableMapping `json:"mapping,omitempty"`

	// Overhead is node resource used on the side by devices that are not
	// that resource (host memory of a GPU, say). It is counted for every
	// pod using the claim and always taken from the node's general
	// allocatable amount, even when a mapping is set too.
	//
	// +optional
	Overhead *NodeAllocatableOverhead `json:"overhead,omitempty"`
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
	CapacityKey *QualifiedName `json:"capacityKey,omitempty"`

	// CapacityMultiplier multiplies the consumed capacity named by
	// capacityKey; only valid, and then required, with capacityKey. Must be
	// positive.
	//
	// +optional
	CapacityMultiplier *apiresource.Quantity `json:"capacityMultiplier,omitempty"`

	// DeviceMultiplier is the amount per allocated device of the claim.
	// Only valid without capacityKey and capacityMultiplier. Must be
	// positive.
	//
	// +optional
	DeviceMultiplier *apiresource.Quantity `json:"deviceMultiplier,omitempty"`
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
	PerPod *apiresource.Quantity `json:"perPod,omitempty"`

	// PerContainer is used once per container reference to the claim.
	// Must not be negative.
	//
	// +optional
	PerContainer *apiresource.Quantity `json:"perContainer,omitempty"`
}

// DeviceCounterConsumption is what a device uses up from one counter set
// when it is allocated.
type DeviceCounterConsumption struct {
	// CounterSet names the counter set of the pool the counters come from,
	// a DNS label.
	//
	// +required
	CounterSet string `json:"counterSet,omitempty"`

	// Counters are the amounts used up, keyed by counter name, at most 32.
	// Must not be empty.
	//
	// +required
	Counters map[string]Counter `json:"counters,omitempty"`

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
	CompatibilityGroups []string `json:"compatibilityGroups,omitempty"`
}

// DeviceCapacity is one quantity of a device.
type DeviceCapacity struct {
	// Value is the device's total of this capacity. It does not change as
	// capacity is consumed; the scheduler tracks consumption apart.
	//
	// +required
	Value apiresource.Quantity `json:"value"`

	// RequestPolicy says how shares of a device that allows multiple
	// allocations consume this capacity; only allowed when
	// allowMultipleAllocations is true. Unset means any amount may be
	// requested as long as the total stays within value, and a request
	// that names no amount takes all of it. Beta; needs the
	// DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	RequestPolicy *CapacityRequestPolicy `json:"requestPolicy,omitempty"`
}

// Counter is an amount of one counter.
type Counter struct {
	// Value is the amount.
	//
	// +required
	Value apiresource.Quantity `json:"value"`
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
	Default *apiresource.Quantity `json:"default,omitempty"`

	// ValidValues are the amounts a request may consume, ascending, unique,
	// at most 10, none above the capacity; default must be one of them. A
	// request is rounded up to the next valid value; one above all of them
	// cannot use the device.
	//
	// +optional
	// +listType=atomic
	// +oneOf=ValidRequestValues
	ValidValues []apiresource.Quantity `json:"validValues,omitempty"`

	// ValidRange is the range of amounts a request may consume; default
	// must lie in it. A request outside it cannot use the device.
	//
	// +optional
	// +oneOf=ValidRequestValues
	ValidRange *CapacityRequestPolicyRange `json:"validRange,omitempty"`
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
	Min *apiresource.Quantity `json:"min,omitempty"`

	// Max is the largest amount a request may consume: at least min and
	// the default, at most the capacity.
	//
	// +optional
	Max *apiresource.Quantity `json:"max,omitempty"`

	// Step is the spacing of valid amounts above min. Positive; min + step
	// must fit in the capacity, and max and the default must be min plus a
	// multiple of it.
	//
	// +optional
	Step *apiresource.Quantity `json:"step,omitempty"`
}

// QualifiedName names a device attribute or capacity. It is either a C
// identifier of at most 32 characters, which is taken to be in the
// driver's own domain, or "<domain>/<identifier>" where the domain is a
// DNS subdomain of at most 63 characters. Names from outside the driver's
// domain must carry the domain. A name should mean the same thing, with
// the same type, on every device.
type QualifiedName string

// FullyQualifiedName is a QualifiedName that always includes the domain.
type FullyQualifiedName string

// DeviceAttribute is the value of one device attribute; one field, and
// only one, is set.
type DeviceAttribute struct {
	// IntValue is an integer value.
	//
	// +optional
	IntValue *int64 `json:"int,omitempty"`

	// BoolValue is a boolean value.
	//
	// +optional
	BoolValue *bool `json:"bool,omitempty"`

	// StringValue is a string value of at most 64 characters.
	//
	// +optional
	StringValue *string `json:"string,omitempty"`

	// VersionValue is a semantic version (semver.org 2.0.0) of at most 64
	// characters.
	//
	// +optional
	VersionValue *string `json:"version,omitempty"`

	// IntValues is a non-empty list of integers. Alpha; needs the
	// DRAListTypeAttributes feature gate (1.36+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAListTypeAttributes
	IntValues []int64 `json:"ints,omitempty"`

	// BoolValues is a non-empty list of booleans. Alpha; needs the
	// DRAListTypeAttributes feature gate (1.36+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAListTypeAttributes
	BoolValues []bool `json:"bools,omitempty"`

	// StringValues is a non-empty list of strings, each of at most 64
	// characters. Alpha; needs the DRAListTypeAttributes feature gate
	// (1.36+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAListTypeAttributes
	StringValues []string `json:"strings,omitempty"`

	// VersionValues is a non-empty list of semantic versions, each of at
	// most 64 characters. Alpha; needs the DRAListTypeAttributes feature
	// gate (1.36+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRAListTypeAttributes
	VersionValues []string `json:"versions,omitempty"`
}

// DeviceTaint marks a device so that claims which do not tolerate it, and
// the pods using such claims, are affected as the effect says.
//
// +protobuf.options.(gogoproto.goproto_stringer)=false
type DeviceTaint struct {
	// Key of the taint, a label name.
	//
	// +required
	Key string `json:"key,omitempty"`

	// Value of the taint, a label value.
	//
	// +optional
	Value string `json:"value,omitempty"`

	// Effect is what the taint does to claims that do not tolerate it:
	// None (informational only), NoSchedule (no new allocations) or
	// NoExecute (also evict pods already using the device). Consumers treat
	// effects they do not know like None.
	//
	// +required
	Effect DeviceTaintEffect `json:"effect,omitempty"`

	// TimeAdded is when the taint was added or, in a DeviceTaintRule, when
	// its effect last changed. Set to the current time on create or update
	// when empty; in a DeviceTaintRule the server also replaces an
	// unchanged value when the effect changes.
	//
	// +optional
	TimeAdded *metav1.Time `json:"timeAdded,omitempty"`
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

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DeviceTaintRule puts one taint on every device its selector matches, as
// if the driver had listed the taint on those devices in their
// ResourceSlices. Served in v1 from 1.37.
type DeviceTaintRule struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is the object\'s metadata ("metadata").
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec holds the selector and the taint. Any change to it increments
	// metadata.generation.
	//
	// +required
	Spec DeviceTaintRuleSpec `json:"spec"`

	// Status reports on the evictions the rule causes.
	//
	// +optional
	Status DeviceTaintRuleStatus `json:"status,omitempty"`
}

// DeviceTaintRuleSpec is the selector and the taint of a DeviceTaintRule.
type DeviceTaintRuleSpec struct {
	// DeviceSelector picks the devices to taint; every field set in it must
	// match. An empty selector matches all devices, no selector matches
	// none.
	//
	// +optional
	DeviceSelector *DeviceTaintSelector `json:"deviceSelector,omitempty"`

	// Taint is the taint put on the matching devices.
	//
	// +required
	Taint DeviceTaint `json:"taint,omitempty"`
}

// DeviceTaintSelector picks devices by driver, pool and device name. Every
// field that is set must match.
type DeviceTaintSelector struct {
	// Protobuf field 1 (deviceClassName) is retired since 1.35.

	// Driver, when set, matches only devices of this driver (a slice's
	// spec.driver).
	//
	// +optional
	Driver *string `json:"driver,omitempty"`

	// Pool, when set, matches only devices of pools with this name. Pools
	// of different drivers may share a name (node-local pools often are the
	// node name), so driver may be set too.
	//
	// +optional
	Pool *string `json:"pool,omitempty"`

	// Device, when set, matches only devices with this name (a slice's
	// spec.devices[].name); driver and pool may be needed to single one
	// out.
	//
	// +optional
	Device *string `json:"device,omitempty"`

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
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DeviceTaintRuleList is a list of DeviceTaintRules.
type DeviceTaintRuleList struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ListMeta is the list\'s metadata ("metadata").
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the DeviceTaintRules of the list.
	Items []DeviceTaintRule `json:"items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceSliceList is a list of ResourceSlices.
type ResourceSliceList struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ListMeta is the list\'s metadata ("metadata").
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the ResourceSlices of the list.
	Items []ResourceSlice `json:"items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaim asks for devices for use by workloads, for example an
// accelerator with certain properties. The spec states what is wanted;
// the status records whether and how the request was satisfied.
type ResourceClaim struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is the object\'s metadata ("metadata").
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is what is requested and how it is configured. Immutable.
	//
	// +optional
	Spec ResourceClaimSpec `json:"spec"`

	// Status is the allocation state of the claim.
	//
	// +optional
	Status ResourceClaimStatus `json:"status,omitempty"`
}

// ResourceClaimSpec is the request part of a ResourceClaim.
type ResourceClaimSpec struct {
	// Devices lists the device requests, constraints and configuration.
	//
	// +optional
	Devices DeviceClaim `json:"devices"`

	// Protobuf field 2 (controller) is retired since 1.32.

	// Controller (legacy, v1alpha3 as of 1.31) names the claim controller
	// (a driver) that allocates the claim instead of the scheduler.
	Controller string `json:"controller,omitempty"`
	// ParametersRef (legacy, v1alpha1/v1alpha2) points at the claim's
	// parameters object, in the claim's namespace.
	ParametersRef *ResourceClaimParametersReference `json:"parametersRef,omitempty"`
	// AllocationMode (legacy, v1alpha1/v1alpha2) is when the claim is
	// allocated. Those versions default it to WaitForFirstConsumer; the hub
	// holds what the object says, "" when it says nothing.
	AllocationMode AllocationMode `json:"allocationMode,omitempty"`
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
	Requests []DeviceRequest `json:"requests"`

	// Constraints must hold across the devices picked for several
	// requests. At most 32.
	//
	// +optional
	// +listType=atomic
	Constraints []DeviceConstraint `json:"constraints,omitempty"`

	// Config is configuration for the devices of some or all requests,
	// passed to the drivers. At most 32.
	//
	// +optional
	// +listType=atomic
	Config []DeviceClaimConfiguration `json:"config,omitempty"`
}

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
	Name string `json:"name,omitempty"`

	// Exactly is a request that must be met as stated.
	//
	// +optional
	// +oneOf=deviceRequestType
	Exactly *ExactDeviceRequest `json:"exactly,omitempty"`

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
	FirstAvailable []DeviceSubRequest `json:"firstAvailable,omitempty"`
}

// ExactDeviceRequest asks for one or more devices of one device class. A
// device must match the class and every selector of the request.
type ExactDeviceRequest struct {
	// DeviceClassName is the DeviceClass whose selectors and config apply
	// to this request. A DNS subdomain; required. Administrators can limit
	// what may be requested through the classes they install.
	//
	// +required
	DeviceClassName string `json:"deviceClassName,omitempty"`

	// Selectors are extra conditions a device must meet, in addition to
	// those of the class. All must match. At most 32.
	//
	// +optional
	// +listType=atomic
	Selectors []DeviceSelector `json:"selectors,omitempty"`

	// AllocationMode says how many devices are wanted: ExactCount (the
	// default) allocates exactly count devices; All allocates every
	// matching device in the pool, needs at least one, and fails if one of
	// them is already in use (unless adminAccess is set). Clients must
	// refuse modes they do not know.
	//
	// +optional
	AllocationMode DeviceAllocationMode `json:"allocationMode,omitempty"`

	// Count is the number of devices for ExactCount; it must be positive
	// there and defaults to 1. It must be 0 for All.
	//
	// +optional
	// +oneOf=AllocationMode
	Count int64 `json:"count,omitempty"`

	// AdminAccess, when true, asks for admin-mode use of the devices (for
	// monitoring or management): they may be allocated even if already in
	// use, and are not counted as used. Only in namespaces labelled with
	// DRAAdminNamespaceLabelKey. Needs the DRAAdminAccess feature gate (GA
	// in 1.36).
	//
	// +optional
	// +featureGate=DRAAdminAccess
	AdminAccess *bool `json:"adminAccess,omitempty"`

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
	Tolerations []DeviceToleration `json:"tolerations,omitempty"`

	// Capacity is the amount of each capacity wanted from every allocated
	// device; devices that cannot provide it are not used. Unset amounts of
	// a shareable device follow its request policy, or take the whole
	// capacity. Beta; needs the DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	Capacity *CapacityRequirements `json:"capacity,omitempty"`

	// DerivedAttributes are attributes computed per candidate device by CEL,
	// for use in matchAttribute and distinctAttribute constraints (to line
	// up devices of drivers that publish different attributes, say). They
	// are not visible to selectors. Each must be used by a constraint. At
	// most 32. Alpha; needs the DRADerivedAttributes feature gate (1.37+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADerivedAttributes
	DerivedAttributes []DeviceDerivedAttribute `json:"derivedAttributes,omitempty"`
}

// DeviceSubRequest is one alternative of a firstAvailable list. It is an
// ExactDeviceRequest without adminAccess.
type DeviceSubRequest struct {
	// Name identifies the alternative within its request; constraints and
	// config refer to it as "<request>/<name>". A DNS label.
	//
	// +required
	Name string `json:"name,omitempty"`

	// DeviceClassName is the DeviceClass whose selectors and config apply
	// to this alternative. A DNS subdomain; required.
	//
	// +required
	DeviceClassName string `json:"deviceClassName,omitempty"`

	// Selectors are extra conditions a device must meet, in addition to
	// those of the class. All must match. At most 32.
	//
	// +optional
	// +listType=atomic
	Selectors []DeviceSelector `json:"selectors,omitempty"`

	// AllocationMode says how many devices are wanted, as in
	// ExactDeviceRequest; ExactCount is the default.
	//
	// +optional
	AllocationMode DeviceAllocationMode `json:"allocationMode,omitempty"`

	// Count is the number of devices for ExactCount; it must be positive
	// there and defaults to 1. It must be 0 for All.
	//
	// +optional
	// +oneOf=AllocationMode
	Count int64 `json:"count,omitempty"`

	// Tolerations let the alternative use devices with matching taints, as
	// in ExactDeviceRequest. At most 16. Needs the DRADeviceTaints feature
	// gate (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Tolerations []DeviceToleration `json:"tolerations,omitempty"`

	// Capacity is the amount of each capacity wanted from every allocated
	// device, as in ExactDeviceRequest. Beta; needs the
	// DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	Capacity *CapacityRequirements `json:"capacity,omitempty"`

	// DerivedAttributes are attributes computed per candidate device by
	// CEL, as in ExactDeviceRequest. At most 32. Alpha; needs the
	// DRADerivedAttributes feature gate (1.37+).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADerivedAttributes
	DerivedAttributes []DeviceDerivedAttribute `json:"derivedAttributes,omitempty"`
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
	Requests map[QualifiedName]apiresource.Quantity `json:"requests,omitempty"`
}

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
	CEL *CELDeviceSelector `json:"cel,omitempty"`
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
	Expression string `json:"expression,omitempty"`
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
	Name FullyQualifiedName `json:"name,omitempty"`

	// Expression is CEL evaluated for a device that passed the request's
	// selectors, with the same `device` variable as a selector. It must
	// give a string, integer, boolean or semver, or a list of one of
	// those; any other result, or an evaluation error, fails the
	// scheduling attempt. At most 10 Ki characters; its estimated cost is
	// limited, and so is the sum over all derived attributes of the claim.
	//
	// +required
	Expression string `json:"expression,omitempty"`
}

// DeviceConstraint is a condition across the devices of several requests.
// Besides requests, one field is set.
type DeviceConstraint struct {
	// Requests names the requests the constraint covers; empty means all
	// requests of the claim. An entry is "<request>" (all its
	// alternatives) or "<request>/<alternative>". At most 32 unique names.
	//
	// +optional
	// +listType=atomic
	Requests []string `json:"requests,omitempty"`

	// MatchAttribute is a fully qualified attribute name that every
	// covered device must have, with the same type and value on all of
	// them; devices lacking it are not used. With the DRAListTypeAttributes
	// feature gate, lists match when all of them share an element (a
	// scalar counts as a list of one).
	//
	// +optional
	// +oneOf=ConstraintType
	MatchAttribute *FullyQualifiedName `json:"matchAttribute,omitempty"`

	// DistinctAttribute is a fully qualified attribute name that every
	// covered device must have, with a different value on each, for
	// example to get two NICs on different physical cards. With the
	// DRAListTypeAttributes feature gate, lists must be pairwise disjoint.
	// Beta; needs the DRAConsumableCapacity feature gate.
	//
	// +optional
	// +oneOf=ConstraintType
	// +featureGate=DRAConsumableCapacity
	DistinctAttribute *FullyQualifiedName `json:"distinctAttribute,omitempty"`
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
	Requests []string `json:"requests,omitempty"`

	// DeviceConfiguration is the configuration itself, inline.
	DeviceConfiguration `json:",inline"`
}

// DeviceConfiguration is one piece of device configuration; one field,
// and only one, is set. It is embedded in other types, so its field names
// must not clash with theirs.
type DeviceConfiguration struct {
	// Opaque is configuration for one driver, in the driver's own format.
	//
	// +optional
	// +oneOf=ConfigurationType
	Opaque *OpaqueDeviceConfiguration `json:"opaque,omitempty"`
}

// OpaqueDeviceConfiguration is driver-specific configuration that only
// the named driver interprets.
type OpaqueDeviceConfiguration struct {
	// Driver is the driver the parameters are for; its kubelet plugin gets
	// them, other drivers ignore them. Must be a valid driver name.
	//
	// +required
	Driver string `json:"driver,omitempty"`

	// Parameters is the driver's configuration, a JSON object of at most
	// 10 Ki; a driver usually uses a versioned type with apiVersion and
	// kind.
	//
	// +required
	Parameters runtime.RawExtension `json:"parameters"`
}

// DeviceToleration lets a request use devices whose taints match it by
// key, value and effect, compared with the operator.
type DeviceToleration struct {
	// Key is the taint key tolerated, a label name; empty matches every key
	// and then needs operator Exists.
	//
	// +optional
	Key string `json:"key,omitempty"`

	// Operator compares the value: Equal (the default) or Exists, which
	// matches any value.
	//
	// +optional
	// +default="Equal"
	Operator DeviceTolerationOperator `json:"operator,omitempty"`

	// Value is the taint value tolerated, a label value; empty with
	// operator Exists.
	//
	// +optional
	Value string `json:"value,omitempty"`

	// Effect is the taint effect tolerated; empty matches every effect.
	//
	// +optional
	Effect DeviceTaintEffect `json:"effect,omitempty"`

	// TolerationSeconds, only for NoExecute, is how long after the taint's
	// timeAdded the pods may keep running; unset means forever, zero or
	// less means evict at once.
	//
	// +optional
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty"`
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
	Allocation *AllocationResult `json:"allocation,omitempty"`

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
	ReservedFor []ResourceClaimConsumerReference `json:"reservedFor,omitempty" patchStrategy:"merge" patchMergeKey:"uid"`

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
	Devices []AllocatedDeviceStatus `json:"devices,omitempty"`

	// DeallocationRequested (legacy, v1alpha1 to v1alpha3 as of 1.31) asks
	// the claim controller to deallocate.
	DeallocationRequested bool `json:"deallocationRequested,omitempty"`
	// DriverName (legacy, v1alpha1/v1alpha2) is the driver that handled the
	// allocation.
	DriverName string `json:"driverName,omitempty"`
}

// ResourceClaimConsumerReference points to an object that uses a claim.
// The object must be in the claim's namespace.
type ResourceClaimConsumerReference struct {
	// APIGroup of the consumer; empty for the core group.
	//
	// +optional
	APIGroup string `json:"apiGroup,omitempty"`
	// Resource is the consumer's resource type, for example "pods".
	//
	// +required
	Resource string `json:"resource,omitempty"`
	// Name of the consumer.
	//
	// +required
	Name string `json:"name,omitempty"`
	// UID of the consumer; it tells apart objects with the same name.
	//
	// +required
	UID types.UID `json:"uid,omitempty"`
}

// AllocationResult describes what was allocated for a claim.
type AllocationResult struct {
	// Devices is the allocation made for the device requests.
	//
	// +optional
	Devices DeviceAllocationResult `json:"devices,omitempty"`

	// Protobuf field 2 is unused since 1.31.

	// NodeSelector limits the nodes on which the allocated devices can be
	// used. Unset means every node.
	//
	// +optional
	NodeSelector *corev1.NodeSelector `json:"nodeSelector,omitempty"`

	// Protobuf field 4 (controller) is retired since 1.32.

	// AllocationTimestamp is when the devices were allocated; unset means
	// unknown. Beta; needs the DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus feature gates.
	//
	// +optional
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	AllocationTimestamp *metav1.Time `json:"allocationTimestamp,omitempty"`

	// Controller (legacy, v1alpha3 as of 1.31) is the claim controller that
	// made the allocation; empty when the scheduler made it.
	Controller string `json:"controller,omitempty"`
	// ResourceHandles (legacy, v1alpha1/v1alpha2) are what the drivers
	// recorded about the allocation (v1alpha1: one handle, the status'
	// resourceHandle).
	ResourceHandles []ResourceHandle `json:"resourceHandles,omitempty"`
	// Shareable (legacy, v1alpha1/v1alpha2) says that several pods may use
	// the allocation at once.
	Shareable bool `json:"shareable,omitempty"`
}

// DeviceAllocationResult lists the allocated devices and their
// configuration.
type DeviceAllocationResult struct {
	// Results has one entry per allocated device, at most 32.
	//
	// +optional
	// +listType=atomic
	Results []DeviceRequestAllocationResult `json:"results,omitempty"`

	// Config is the configuration for the allocated devices, taken from
	// the classes and from the claim, at most 64 entries. It includes
	// entries for drivers without allocated devices; drivers ignore what
	// they do not know.
	//
	// +optional
	// +listType=atomic
	Config []DeviceAllocationConfiguration `json:"config,omitempty"`
}

// DeviceRequestAllocationResult names one device allocated for one request.
type DeviceRequestAllocationResult struct {
	// Request is the claim request this device was allocated for, or
	// "<request>/<alternative>" when an alternative of firstAvailable was
	// used. A request may have several devices.
	//
	// +required
	Request string `json:"request,omitempty"`

	// Driver is the driver whose kubelet plugin prepares the device. Must
	// be a valid driver name.
	//
	// +required
	Driver string `json:"driver,omitempty"`

	// Pool is the name of the device's pool within the driver; at most 253
	// characters, DNS subdomains separated by slashes.
	//
	// +required
	Pool string `json:"pool,omitempty"`

	// Device is the device's name within the pool. A DNS label.
	//
	// +required
	Device string `json:"device,omitempty"`

	// AdminAccess, when true, says the device was allocated for admin
	// access (see the request field). Needs the DRAAdminAccess feature gate
	// (GA in 1.36).
	//
	// +optional
	// +featureGate=DRAAdminAccess
	AdminAccess *bool `json:"adminAccess,omitempty"`

	// Tolerations are the request's tolerations as they were when the
	// device was allocated. At most 16. Needs the DRADeviceTaints feature
	// gate (GA in 1.37).
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceTaints
	Tolerations []DeviceToleration `json:"tolerations,omitempty"`

	// BindingConditions are the device's bindingConditions as they were
	// when it was allocated. At most 4. Beta; needs the
	// DRADeviceBindingConditions and DRAResourceClaimDeviceStatus feature
	// gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingConditions []string `json:"bindingConditions,omitempty"`

	// BindingFailureConditions are the device's bindingFailureConditions as
	// they were when it was allocated. At most 4. Beta; needs the
	// DRADeviceBindingConditions and DRAResourceClaimDeviceStatus feature
	// gates.
	//
	// +optional
	// +listType=atomic
	// +featureGate=DRADeviceBindingConditions,DRAResourceClaimDeviceStatus
	BindingFailureConditions []string `json:"bindingFailureConditions,omitempty"`

	// ShareID tells apart concurrent allocations of a device that allows
	// multiple allocations; a lowercase RFC 4122 UUID. Beta; needs the
	// DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	ShareID *types.UID `json:"shareID,omitempty"`

	// ConsumedCapacity is how much of each capacity this allocation uses:
	// the requested amount rounded up by the request policy. Set only for
	// devices that allow multiple allocations, with every capacity listed
	// (zero included); the total over all allocations stays within the
	// device's capacity. Beta; needs the DRAConsumableCapacity feature
	// gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	ConsumedCapacity map[QualifiedName]apiresource.Quantity `json:"consumedCapacity,omitempty"`

	// SkipNodeOperations is the slice's skipNodeOperations as it was when
	// the device was allocated. Alpha; needs the DRAOptionalNodeOperations
	// feature gate (1.37+).
	//
	// +optional
	// +listType=set
	// +featureGate=DRAOptionalNodeOperations
	SkipNodeOperations []SkipNodeOperation `json:"skipNodeOperations,omitempty"`
}

// DeviceAllocationConfiguration is one configuration entry in an
// allocation result.
type DeviceAllocationConfiguration struct {
	// Source says where the entry came from: FromClass (set by an
	// administrator, not by the claim's author) or FromClaim.
	//
	// +required
	Source AllocationConfigSource `json:"source,omitempty"`

	// Requests names the requests the entry is for; empty means all
	// requests of the claim. An entry is "<request>" or
	// "<request>/<alternative>".
	//
	// +optional
	// +listType=atomic
	Requests []string `json:"requests,omitempty"`

	// DeviceConfiguration is the configuration itself, inline.
	DeviceConfiguration `json:",inline"`
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
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ListMeta is the list\'s metadata ("metadata").
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the ResourceClaims of the list.
	Items []ResourceClaim `json:"items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DeviceClass is a set of devices chosen by selectors, with configuration
// that applies to them. Claims refer to a class by name.
type DeviceClass struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is the object\'s metadata ("metadata").
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec holds the selectors and configuration of the class. It may
	// change at any time; an allocation uses the class as it was when
	// the allocation was made. Any change increments metadata.generation.
	//
	// +optional
	Spec DeviceClassSpec `json:"spec"`
}

// DeviceClassSpec defines the devices of a class and their configuration.
type DeviceClassSpec struct {
	// Selectors must all match for a device to belong to the class. At
	// most 32.
	//
	// +optional
	// +listType=atomic
	Selectors []DeviceSelector `json:"selectors,omitempty"`

	// Config is configuration for every device allocated through the
	// class, one driver per entry. At most 32. It is passed to the drivers
	// and plays no part in allocation; claim configuration may override it,
	// since the drivers apply class entries first.
	//
	// +optional
	// +listType=atomic
	Config []DeviceClassConfiguration `json:"config,omitempty"`

	// Protobuf field 3 (suitableNodes) is retired since 1.32.

	// ExtendedResourceName is the extended resource name (as in a pod's
	// resource requests) that devices of this class can satisfy. It should
	// be unique among classes; on a clash the newest class wins, and of
	// classes created at the same time the first by name. Needs the
	// DRAExtendedResource feature gate (GA in 1.37).
	//
	// +optional
	// +featureGate=DRAExtendedResource
	ExtendedResourceName *string `json:"extendedResourceName,omitempty"`

	// SuitableNodes (legacy, v1alpha3 as of 1.31) restricts the nodes a
	// claim controller allocates for. Only a claim controller reads it.
	SuitableNodes *corev1.NodeSelector `json:"suitableNodes,omitempty"`
	// ParametersRef (legacy, v1alpha1/v1alpha2) points at the class's
	// parameters object.
	ParametersRef *ResourceClassParametersReference `json:"parametersRef,omitempty"`
	// StructuredParameters (legacy, v1alpha2 as of 1.30) says whether the
	// class's parameters are structured, so that the scheduler allocates.
	StructuredParameters *bool `json:"structuredParameters,omitempty"`
}

// DeviceClassConfiguration is one configuration entry of a DeviceClass.
type DeviceClassConfiguration struct {
	// DeviceConfiguration is the configuration itself, inline.
	DeviceConfiguration `json:",inline"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DeviceClassList is a list of DeviceClasses.
type DeviceClassList struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ListMeta is the list\'s metadata ("metadata").
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the DeviceClasses of the list.
	Items []DeviceClass `json:"items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaimTemplate is a blueprint from which a ResourceClaim is
// created for a pod.
type ResourceClaimTemplate struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is the object\'s metadata ("metadata").
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec describes the claim to create. Immutable: claims already
	// created from the template are not updated.
	//
	// +optional
	Spec ResourceClaimTemplateSpec `json:"spec"`
}

// ResourceClaimTemplateSpec is the metadata and spec of the claims made
// from a template.
type ResourceClaimTemplateSpec struct {
	// ObjectMeta holds labels and annotations copied into each created
	// claim. No other metadata fields are allowed.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is copied unchanged into each created claim and is validated
	// like a claim spec.
	//
	// +optional
	Spec ResourceClaimSpec `json:"spec"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaimTemplateList is a list of ResourceClaimTemplates.
type ResourceClaimTemplateList struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ListMeta is the list\'s metadata ("metadata").
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the ResourceClaimTemplates of the list.
	Items []ResourceClaimTemplate `json:"items"`
}

// AllocatedDeviceStatus is what a driver reports about one allocated
// device. Driver, pool, device and shareID must name an entry of the
// claim's allocation.
type AllocatedDeviceStatus struct {
	// Driver is the driver of the device. Must be a valid driver name.
	//
	// +required
	Driver string `json:"driver,omitempty"`

	// Pool is the name of the device's pool within the driver; at most 253
	// characters, DNS subdomains separated by slashes.
	//
	// +required
	Pool string `json:"pool,omitempty"`

	// Device is the device's name within the pool. A DNS label.
	//
	// +required
	Device string `json:"device,omitempty"`

	// ShareID is the shareID of the allocation this entry is about, for a
	// device that allows multiple allocations; a lowercase RFC 4122 UUID.
	// Beta; needs the DRAConsumableCapacity feature gate.
	//
	// +optional
	// +featureGate=DRAConsumableCapacity
	ShareID *string `json:"shareID,omitempty"`

	// Conditions are the latest observations of the device's state, keyed
	// by type, at most 8. A device configured as the class and claim ask
	// should have a True Ready condition. Written as null when unset.
	//
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions"`

	// Data is driver-specific data, a JSON object of at most 10 Ki.
	//
	// +optional
	Data *runtime.RawExtension `json:"data,omitempty"`

	// NetworkData describes the device's network interface.
	//
	// +optional
	NetworkData *NetworkDeviceData `json:"networkData,omitempty"`
}

// NetworkDeviceData describes the network interface of an allocated
// device, as filled in by the driver or another component.
type NetworkDeviceData struct {
	// InterfaceName is the name of the (physical or virtual) network
	// interface set up in the pod, at most 256 bytes.
	//
	// +optional
	InterfaceName string `json:"interfaceName,omitempty"`

	// IPs are the interface's addresses with prefix length, IPv4 or IPv6
	// (e.g. "192.0.2.5/24", "2001:db8::5/64"). At most 16, unique.
	//
	// +optional
	// +listType=atomic
	IPs []string `json:"ips,omitempty"`

	// HardwareAddress is the interface's hardware (e.g. MAC) address, at
	// most 128 bytes.
	//
	// +optional
	HardwareAddress string `json:"hardwareAddress,omitempty"`
}

// ---------------------------------------------------------------------------
// Legacy: what only v1alpha1, v1alpha2 and the 1.31 v1alpha3 can say.

// NamedResourcesLayout (legacy, v1alpha2) is the part of a v1alpha2
// named-resources instance's attribute list that a device's maps cannot
// hold. v1alpha2 lists attributes and quantities in one list; the hub keeps
// quantities in Capacity and the others in Attributes. The canonical list is
// the attributes sorted by name, then the quantities sorted by name.
type NamedResourcesLayout struct {
	// Order are the names in the order the instance listed them, when that
	// is not the canonical order; nil otherwise. Names that the maps no
	// longer hold are skipped, and names that Order lacks follow in
	// canonical order.
	Order []QualifiedName `json:"order,omitempty"`
	// NullLists are the names of intSlice and stringSlice attributes whose
	// list was JSON null rather than empty.
	NullLists []QualifiedName `json:"nullLists,omitempty"`
}

// ResourceClassParametersReference (legacy) points at the object that holds
// class parameters.
type ResourceClassParametersReference struct {
	// APIGroup is the group of the parameters object's kind; empty means the
	// core group (v1alpha1/v1alpha2).
	APIGroup string `json:"apiGroup,omitempty"`
	// Kind is the parameters object's kind (v1alpha1/v1alpha2, required).
	Kind string `json:"kind,omitempty"`
	// Name is the parameters object's name (v1alpha1/v1alpha2, required).
	Name string `json:"name,omitempty"`
	// Namespace is where a namespaced parameters object lives; empty for a
	// cluster-scoped one (v1alpha1/v1alpha2).
	Namespace string `json:"namespace,omitempty"`
}

// ResourceClaimParametersReference (legacy) points at the object that holds
// claim parameters, in the claim's namespace.
type ResourceClaimParametersReference struct {
	// APIGroup is the group of the parameters object's kind; empty means the
	// core group (v1alpha1/v1alpha2).
	APIGroup string `json:"apiGroup,omitempty"`
	// Kind is the parameters object's kind (v1alpha1/v1alpha2, required).
	Kind string `json:"kind,omitempty"`
	// Name is the parameters object's name (v1alpha1/v1alpha2, required).
	Name string `json:"name,omitempty"`
}

// AllocationMode (legacy) is when a v1alpha1/v1alpha2 claim is allocated.
type AllocationMode string

const (
	// AllocationModeWaitForFirstConsumer delays allocation until a pod that
	// uses the claim is being scheduled.
	AllocationModeWaitForFirstConsumer AllocationMode = "WaitForFirstConsumer"
	// AllocationModeImmediate allocates as soon as the claim exists.
	AllocationModeImmediate AllocationMode = "Immediate"
)

// ResourceHandle (legacy) is what one driver recorded about an allocation.
type ResourceHandle struct {
	// DriverName is the driver that recorded the handle (v1alpha2; in
	// v1alpha1 the status' driverName owns the single handle).
	DriverName string `json:"driverName,omitempty"`
	// Data is opaque to everyone but the driver, at most 16 KiB (v1alpha2
	// resourceHandles[].data; v1alpha1's resourceHandle is the first
	// handle's Data).
	Data string `json:"data,omitempty"`
	// StructuredData (legacy, v1alpha2 as of 1.30) is the handle of an
	// allocation the scheduler made from structured parameters; a handle
	// with it has no Data.
	StructuredData *StructuredResourceHandle `json:"structuredData,omitempty"`
}

// StructuredResourceHandle (legacy, v1alpha2 as of 1.30) is an allocation
// made by the scheduler from named resources.
type StructuredResourceHandle struct {
	// VendorClassParameters are the driver's parameters from the class's
	// ResourceClassParameters, copied at allocation time (v1alpha2 as of 1.30).
	VendorClassParameters runtime.RawExtension `json:"vendorClassParameters,omitempty"`
	// VendorClaimParameters are the driver's parameters from the claim's
	// ResourceClaimParameters, copied at allocation time (v1alpha2 as of
	// 1.30).
	VendorClaimParameters runtime.RawExtension `json:"vendorClaimParameters,omitempty"`
	// NodeName is the node whose instances were allocated, empty when they
	// were not local to a node (v1alpha2 as of 1.30). Read as v1alpha3
	// results, it is the pool.
	NodeName string `json:"nodeName,omitempty"`
	// Results are the allocated named-resources instances (v1alpha2 as of
	// 1.30).
	Results []DriverAllocationResult `json:"results"`
}

// DriverAllocationResult (legacy) is one allocated named-resources instance.
type DriverAllocationResult struct {
	// VendorRequestParameters are the driver's parameters of the request
	// this instance was allocated for, copied from ResourceClaimParameters
	// (v1alpha2 as of 1.30).
	VendorRequestParameters runtime.RawExtension `json:"vendorRequestParameters,omitempty"`
	// AllocationResultModel is the result itself, inline (v1alpha2 as of
	// 1.30).
	AllocationResultModel `json:",inline"`
}

// AllocationResultModel (legacy) holds exactly one kind of allocation result.
type AllocationResultModel struct {
	// NamedResources (legacy) is a result of the named-resources model, the
	// only one there is (v1alpha2 as of 1.30).
	NamedResources *NamedResourcesAllocationResult `json:"namedResources,omitempty"`
}

// NamedResourcesAllocationResult (legacy) names the allocated instance.
type NamedResourcesAllocationResult struct {
	// Name is the allocated instance's name in the driver's slice (v1alpha2
	// as of 1.30); as a v1alpha3 result it is the device.
	Name string `json:"name,omitempty"`
}

// PodSchedulingContext is the exchange between the scheduler and drivers
// about where a pod with claims can run.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type PodSchedulingContext struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is the object metadata ("metadata"); the object is named
	// after its pod.
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the scheduler's side of the exchange (every version).
	Spec PodSchedulingContextSpec `json:"spec,omitempty"`
	// Status is the drivers' side of the exchange (every version).
	Status PodSchedulingContextStatus `json:"status,omitempty"`
}

// PodSchedulingContextSpec is written by the scheduler.
type PodSchedulingContextSpec struct {
	// SelectedNode is the node the scheduler means to run the pod on; the
	// control-plane controllers allocate the pod's claims for it (every
	// version).
	SelectedNode string `json:"selectedNode,omitempty"`
	// PotentialNodes are nodes that could run the pod, at most 128, which the
	// drivers check (every version).
	PotentialNodes []string `json:"potentialNodes,omitempty"`
}

// PodSchedulingContextStatus is written by drivers.
type PodSchedulingContextStatus struct {
	// ResourceClaims has one entry per claim of the pod, keyed by name
	// (every version).
	ResourceClaims []ResourceClaimSchedulingStatus `json:"resourceClaims,omitempty"`
}

// ResourceClaimSchedulingStatus says on which nodes one claim cannot be allocated.
type ResourceClaimSchedulingStatus struct {
	// Name is the claim's entry name in the pod's spec.resourceClaims
	// (every version; v1alpha3 requires it).
	Name string `json:"name,omitempty"`
	// UnsuitableNodes are the potential nodes on which the claim cannot be
	// allocated, at most 128 (every version).
	UnsuitableNodes []string `json:"unsuitableNodes,omitempty"`
}

// PodSchedulingContextList is a list of scheduling contexts.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type PodSchedulingContextList struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ListMeta is the list's metadata ("metadata"): its resourceVersion and
	// continue token.
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the scheduling contexts (a PodSchedulingList in v1alpha1).
	Items []PodSchedulingContext `json:"items"`
}

// ResourceClaimParameters (legacy, v1alpha2 as of 1.30) is the structured
// form of a claim's parameters.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimParameters struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is the object metadata ("metadata"); the object is
	// namespaced.
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// GeneratedFrom names the claim parameters object (a claim's
	// parametersRef) from which a driver made this object (v1alpha2 as of
	// 1.30).
	GeneratedFrom *ResourceClaimParametersReference `json:"generatedFrom,omitempty"`
	// Shareable (legacy) lets the allocation serve more than one consumer;
	// it becomes the allocation's Shareable (v1alpha2 as of 1.30).
	Shareable bool `json:"shareable,omitempty"`
	// DriverRequests are the requests, grouped by driver, one entry per
	// driver (v1alpha2 as of 1.30).
	DriverRequests []DriverRequests `json:"driverRequests,omitempty"`
}

// DriverRequests are the requests for one driver.
type DriverRequests struct {
	// DriverName is the driver the requests are for (v1alpha2 as of 1.30).
	DriverName string `json:"driverName,omitempty"`
	// VendorParameters are the driver's parameters for the whole claim,
	// copied into a structured handle's VendorClaimParameters (v1alpha2 as
	// of 1.30).
	VendorParameters runtime.RawExtension `json:"vendorParameters,omitempty"`
	// Requests ask for one instance each; there must be at least one
	// (v1alpha2 as of 1.30).
	Requests []ResourceRequest `json:"requests,omitempty"`
}

// ResourceRequest is one request for one named-resources instance.
type ResourceRequest struct {
	// VendorParameters are the driver's parameters for this request, copied
	// into the result's VendorRequestParameters (v1alpha2 as of 1.30).
	VendorParameters runtime.RawExtension `json:"vendorParameters,omitempty"`
	// ResourceRequestModel is the request itself, inline (v1alpha2 as of
	// 1.30).
	ResourceRequestModel `json:",inline"`
}

// ResourceRequestModel holds exactly one kind of request.
type ResourceRequestModel struct {
	// NamedResources (legacy) is a request of the named-resources model, the
	// only one there is (v1alpha2 as of 1.30).
	NamedResources *NamedResourcesRequest `json:"namedResources,omitempty"`
}

// NamedResourcesRequest selects an instance with a CEL expression.
type NamedResourcesRequest struct {
	// Selector is a CEL expression over the instance's attributes (by type:
	// attributes.int, attributes.string, ...) that must yield true for the
	// instance to be allocated (v1alpha2 as of 1.30).
	Selector string `json:"selector,omitempty"`
}

// ResourceClaimParametersList is a list of claim parameters.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimParametersList struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ListMeta is the list's metadata ("metadata"): its resourceVersion and
	// continue token.
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the claim parameters (v1alpha2 as of 1.30).
	Items []ResourceClaimParameters `json:"items"`
}

// ResourceClassParameters (legacy, v1alpha2 as of 1.30) is the structured
// form of a class's parameters.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClassParameters struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is the object metadata ("metadata"); unlike the class, the
	// object is namespaced.
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// GeneratedFrom names the class parameters object (a class's
	// parametersRef) from which a driver made this object (v1alpha2 as of
	// 1.30).
	GeneratedFrom *ResourceClassParametersReference `json:"generatedFrom,omitempty"`
	// VendorParameters are the drivers' parameters for claims of the class,
	// one entry per driver, copied into a structured handle's
	// VendorClassParameters (v1alpha2 as of 1.30).
	VendorParameters []VendorParameters `json:"vendorParameters,omitempty"`
	// Filters restrict, per driver, the instances a claim of the class may
	// get, one entry per driver (v1alpha2 as of 1.30).
	Filters []ResourceFilter `json:"filters,omitempty"`
}

// VendorParameters is opaque configuration for one driver.
type VendorParameters struct {
	// DriverName is the driver the parameters are for (v1alpha2 as of 1.30).
	DriverName string `json:"driverName,omitempty"`
	// Parameters are in the driver's own format (v1alpha2 as of 1.30).
	Parameters runtime.RawExtension `json:"parameters,omitempty"`
}

// ResourceFilter is a filter on the instances of one driver.
type ResourceFilter struct {
	// DriverName is the driver whose instances the filter applies to
	// (v1alpha2 as of 1.30).
	DriverName string `json:"driverName,omitempty"`
	// ResourceFilterModel is the filter itself, inline (v1alpha2 as of 1.30).
	ResourceFilterModel `json:",inline"`
}

// ResourceFilterModel holds exactly one kind of filter.
type ResourceFilterModel struct {
	// NamedResources (legacy) is a filter of the named-resources model, the
	// only one there is (v1alpha2 as of 1.30).
	NamedResources *NamedResourcesFilter `json:"namedResources,omitempty"`
}

// NamedResourcesFilter filters instances with a CEL expression.
type NamedResourcesFilter struct {
	// Selector is a CEL expression over the instance's attributes that must
	// yield true for the instance to be usable by claims of the class
	// (v1alpha2 as of 1.30).
	Selector string `json:"selector,omitempty"`
}

// ResourceClassParametersList is a list of class parameters.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClassParametersList struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ListMeta is the list's metadata ("metadata"): its resourceVersion and
	// continue token.
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the class parameters (v1alpha2 as of 1.30).
	Items []ResourceClassParameters `json:"items"`
}

// ---------------------------------------------------------------------------
// ResourcePoolStatusRequest: v1alpha3 only (1.36+, in its 1.37 shape).

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourcePoolStatusRequest asks once for a report on the resource pools
// that match its spec. A controller fills in the status a single time;
// after that the request is done and never recomputed, so a fresh report
// needs a new request. Cluster-scoped; has a status subresource.
//
// Alpha since 1.36; served only when resource.k8s.io/v1alpha3 is enabled
// (off by default); the kube-controller-manager answers it under the
// DRAResourcePoolStatus gate.
type ResourcePoolStatusRequest struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is the object\'s metadata ("metadata").
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec says which pools to report on. Immutable.
	//
	// +required
	Spec ResourcePoolStatusRequestSpec `json:"spec"`

	// Status is the report, written by the controller. Once it is set the
	// request is complete and the whole object is immutable.
	//
	// +optional
	Status *ResourcePoolStatusRequestStatus `json:"status,omitempty"`
}

// ResourcePoolStatusRequestSpec filters the pools a request reports on.
type ResourcePoolStatusRequestSpec struct {
	// Driver is the DRA driver whose pools (those of its ResourceSlices)
	// are reported. A DNS subdomain, such as "gpu.example.com".
	//
	// +required
	Driver string `json:"driver,omitempty"`

	// PoolName, when set, limits the report to the pool of that name; it
	// must then be a valid, non-empty pool name (DNS subdomains joined
	// by "/"). Unset reports every pool of the driver.
	//
	// +optional
	PoolName *string `json:"poolName,omitempty"`

	// Limit is the largest number of pools listed in the status, from 1
	// to 1000; it defaults to 100. When more pools match, the list is cut
	// short and status.poolCount is larger than len(status.pools).
	//
	// +optional
	// +default=100
	Limit *int32 `json:"limit,omitempty"`

	// DefaultPartitionTypeAttribute is the fully qualified name of a
	// device attribute (such as "gpu.example.com/profile") by which the
	// partitionable devices are grouped for partitionSummary when their
	// slice names no partition type attribute itself; the slice's own
	// attribute always wins. Without either, a partitionable pool has no
	// partitionSummary. Since 1.37; needs the DRAPartitionableDevicesType
	// feature gate.
	//
	// +optional
	// +featureGate=DRAPartitionableDevicesType
	DefaultPartitionTypeAttribute *string `json:"defaultPartitionTypeAttribute,omitempty"`
}

// ResourcePoolStatusRequestLimitDefault is the value spec.limit gets when
// it is not set.

// ResourcePoolStatusRequestLimitMax is the largest allowed spec.limit.

// ResourcePoolStatusRequestStatus is the report on the matching pools.
type ResourcePoolStatusRequestStatus struct {
	// PoolCount is how many pools matched the spec, whether or not they
	// all fit in pools; 0 when none matched. Not negative.
	//
	// +required
	PoolCount *int32 `json:"poolCount,omitempty"`

	// Pools are the first spec.limit matching pools (at most 1000),
	// ordered by driver and then pool name. Fewer entries than poolCount
	// means the list was cut short; none means no pool matched.
	//
	// +optional
	// +listType=atomic
	Pools []PoolStatus `json:"pools,omitempty"`

	// Conditions describe the outcome, keyed by type, at most 10. A
	// populated status always has a Complete condition (processed) or a
	// Failed one (could not be processed).
	//
	// +optional
	// +listType=map
	// +listMapKey=type
	// +patchStrategy=merge
	// +patchMergeKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"`
}

// PoolStatus is the report on one resource pool.
type PoolStatus struct {
	// Driver is the DRA driver of the pool, a DNS subdomain.
	//
	// +required
	Driver string `json:"driver,omitempty"`

	// PoolName is the name of the pool (DNS subdomains joined by "/").
	//
	// +required
	PoolName string `json:"poolName,omitempty"`

	// Generation is the newest pool generation seen in the pool's
	// ResourceSlices; only that generation is reported. If not all of its
	// slices are published yet, validationError says so and the counts
	// are left unset. Not negative.
	//
	// +required
	Generation int64 `json:"generation,omitempty"`

	// ResourceSliceCount is the number of ResourceSlices of the pool, at
	// least 1. May be unset when validationError is set.
	//
	// +optional
	ResourceSliceCount *int32 `json:"resourceSliceCount,omitempty"`

	// TotalDevices is the number of devices in all slices of the pool.
	// May be unset when validationError is set.
	//
	// +optional
	TotalDevices *int32 `json:"totalDevices,omitempty"`

	// AllocatedDevices is the number of devices allocated to claims. May
	// be unset when validationError is set.
	//
	// +optional
	AllocatedDevices *int32 `json:"allocatedDevices,omitempty"`

	// AvailableDevices is the number of devices that can be allocated:
	// total minus allocated minus unavailable. May be unset when
	// validationError is set.
	//
	// +optional
	AvailableDevices *int32 `json:"availableDevices,omitempty"`

	// UnavailableDevices is the number of devices that are not allocated
	// but cannot be allocated either, for example because of taints. May
	// be unset when validationError is set.
	//
	// +optional
	UnavailableDevices *int32 `json:"unavailableDevices,omitempty"`

	// NodeName is the node the pool belongs to, a DNS subdomain; unset
	// for a pool that is not tied to one node.
	//
	// +optional
	NodeName *string `json:"nodeName,omitempty"`

	// ValidationError explains, in at most 256 bytes, why the pool's data
	// could not be fully checked (for example slices still missing); the
	// slice count and device counts may then be unset.
	//
	// +optional
	ValidationError *string `json:"validationError,omitempty"`

	// PartitionSummary reports, for a partitionable pool with shared
	// counters, how many devices of each partition type exist and can
	// still be allocated, at most 32 entries, unique by attribute and
	// type. The grouping attribute is the one the device's slice names,
	// or else spec.defaultPartitionTypeAttribute; pools without either
	// have no summary. Since 1.37.
	//
	// +optional
	// +listType=atomic
	PartitionSummary []PartitionTypeStatus `json:"partitionSummary,omitempty"`

	// ShareableSummary sums up the capacity of the pool's devices that
	// allow multiple allocations; set only when the pool has at least one
	// such device. Since 1.37.
	//
	// +optional
	ShareableSummary *ShareableSummaryStatus `json:"shareableSummary,omitempty"`
}

// PartitionTypeStatus counts the devices of one partition type, that is
// of one value of a grouping attribute.
type PartitionTypeStatus struct {
	// Attribute is the fully qualified name of the grouping attribute:
	// the one the devices' slice names, or else the request's default.
	//
	// +required
	Attribute string `json:"attribute,omitempty"`

	// Type is the attribute's value, the partition type (for example
	// "Full" or "Half").
	//
	// +required
	Type string `json:"type,omitempty"`

	// Total is the number of devices of this type in the pool. Not
	// negative.
	//
	// +required
	Total *int32 `json:"total,omitempty"`

	// Allocatable is how many more devices of this type could be
	// allocated with what is left of the shared counters. Not negative.
	//
	// +required
	Allocatable *int32 `json:"allocatable,omitempty"`
}

// ShareableSummaryStatus sums up a pool's devices that allow multiple
// allocations.
type ShareableSummaryStatus struct {
	// FullyAvailableDevices is the number of such devices of which no
	// capacity is consumed. Not negative.
	//
	// +required
	FullyAvailableDevices *int32 `json:"fullyAvailableDevices,omitempty"`

	// PartiallyAvailableDevices is the number of such devices of which
	// some, but not all, capacity is consumed. Not negative.
	//
	// +required
	PartiallyAvailableDevices *int32 `json:"partiallyAvailableDevices,omitempty"`

	// Capacity has the pool-wide sums per capacity name, at most 32
	// entries.
	//
	// +optional
	// +listType=atomic
	Capacity []ShareableCapacityStatus `json:"capacity,omitempty"`
}

// ShareableCapacityStatus sums one capacity over a pool's devices that
// allow multiple allocations.
type ShareableCapacityStatus struct {
	// Name is the name of the capacity.
	//
	// +required
	Name string `json:"name,omitempty"`

	// Total is the capacity summed over those devices.
	//
	// +required
	Total *apiresource.Quantity `json:"total,omitempty"`

	// Consumed is the part of the total taken by current allocations.
	//
	// +required
	Consumed *apiresource.Quantity `json:"consumed,omitempty"`

	// Available is total minus consumed, never below zero.
	//
	// +required
	Available *apiresource.Quantity `json:"available,omitempty"`
}

const (
	// ResourcePoolStatusRequestConditionComplete is the condition type of
	// a request that was processed.
	ResourcePoolStatusRequestConditionComplete = "Complete"

	// ResourcePoolStatusRequestConditionFailed is the condition type of a
	// request that could not be processed.
	ResourcePoolStatusRequestConditionFailed = "Failed"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourcePoolStatusRequestList is a list of ResourcePoolStatusRequests.
type ResourcePoolStatusRequestList struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ListMeta is the list\'s metadata ("metadata").
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the ResourcePoolStatusRequests of the list.
	Items []ResourcePoolStatusRequest `json:"items"`
}
