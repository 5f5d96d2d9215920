package v1alpha3

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
	// while it is allocated or reserved, so that it is not removed while
	// still in use.
	Finalizer = "resource.kubernetes.io/delete-protection"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceSlice is published by a driver and carries part or all of one
// pool's devices. A pool may be split over several slices; the
// number of slices is part of every slice, so consumers can tell when
// they have seen the whole pool.
//
// A device is identified by the triple (driver, pool name, device name),
// and device names are unique within a pool across all its slices. When a
// driver changes a pool it bumps the pool generation in all of the pool's
// slices; consumers use only the slices with the newest generation.
//
// Node-local devices name their node; other devices say where they are
// reachable with a node selector or by being available on all nodes.
//
// Alpha; needs the DynamicResourceAllocation feature gate.
type ResourceSlice struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is what the driver publishes in this slice. Any change to it
	// increments metadata.generation.
	Spec ResourceSliceSpec `json:"spec" protobuf:"bytes,2,name=spec"`
}

const (
	// ResourceSliceSelectorNodeName is the field selector key for
	// spec.nodeName when listing or watching ResourceSlices.
	ResourceSliceSelectorNodeName = "spec.nodeName"
	// ResourceSliceSelectorDriver is the field selector key for
	// spec.driver when listing or watching ResourceSlices.
	ResourceSliceSelectorDriver = "spec.driver"
)

// ResourceSliceSpec is the content of one ResourceSlice.
type ResourceSliceSpec struct {
	// Driver names the DRA driver owning the devices in this slice. It must be a DNS subdomain of at most 63 characters (it is
	// lower-cased before the check). Immutable.
	//
	// +required
	Driver string `json:"driver" protobuf:"bytes,1,name=driver"`

	// Pool identifies the pool these devices belong to and carries the
	// pool's generation and slice count.
	//
	// +required
	Pool ResourcePool `json:"pool" protobuf:"bytes,2,name=pool"`

	// NodeName is set when the devices are local to one node; it is that
	// node's name. Set exactly one of nodeName, nodeSelector or allNodes.
	// Immutable.
	//
	// +optional
	// +oneOf=NodeSelection
	NodeName string `json:"nodeName,omitempty" protobuf:"bytes,3,opt,name=nodeName"`

	// NodeSelector lists the nodes the devices can be used from. It must
	// hold exactly one term. Set exactly one of nodeName, nodeSelector or
	// allNodes.
	//
	// +optional
	// +oneOf=NodeSelection
	NodeSelector *v1.NodeSelector `json:"nodeSelector,omitempty" protobuf:"bytes,4,opt,name=nodeSelector"`

	// AllNodes means the devices can be used from every node of the
	// cluster. Set exactly one of nodeName, nodeSelector or allNodes.
	//
	// +optional
	// +oneOf=NodeSelection
	AllNodes bool `json:"allNodes,omitempty" protobuf:"bytes,5,opt,name=allNodes"`

	// Devices are the devices of the pool published in this slice, at
	// most 128, with names unique in the slice.
	//
	// +optional
	// +listType=atomic
	Devices []Device `json:"devices" protobuf:"bytes,6,name=devices"`
}

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
// entries per slice; no validation uses it in this version.
const ResourceSliceMaxSharedCapacity = 128

// ResourceSliceMaxDevices is the maximum number of devices in one slice.
const ResourceSliceMaxDevices = 128

// PoolNameMaxLength is the maximum length of a pool name (that of a DNS subdomain).
const PoolNameMaxLength = validation.DNS1123SubdomainMaxLength

// Device is one device of a pool. Besides the name, one device type
// field (and only one) has to be set.
type Device struct {
	// Name of the device, a DNS label unique within the pool.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// Basic describes a device by its attributes and capacities. It is
	// the only device type in this version and must be set.
	//
	// +optional
	// +oneOf=deviceType
	Basic *BasicDevice `json:"basic,omitempty" protobuf:"bytes,2,opt,name=basic"`
}

// BasicDevice describes a device through named attributes and capacities.
type BasicDevice struct {
	// Attributes are the device's properties, keyed by qualified name.
	// Attributes and capacity together may have at most 32 entries.
	//
	// +optional
	Attributes map[QualifiedName]DeviceAttribute `json:"attributes,omitempty" protobuf:"bytes,1,rep,name=attributes"`

	// Capacity holds the device's quantities, keyed by qualified name.
	// Attributes and capacity together may have at most 32 entries.
	//
	// +optional
	Capacity map[QualifiedName]resource.Quantity `json:"capacity,omitempty" protobuf:"bytes,2,rep,name=capacity"`
}

// ResourceSliceMaxAttributesAndCapacitiesPerDevice is the maximum number of
// attributes plus capacities of one device.
const ResourceSliceMaxAttributesAndCapacitiesPerDevice = 32

// QualifiedName names a device attribute or capacity. It is either a C
// identifier of at most 32 characters, which is taken to be in the
// driver's own domain, or "<domain>/<identifier>" where the domain is a
// DNS subdomain of at most 63 characters. Names from outside the driver's
// domain must carry the domain. A name should mean the same thing, with
// the same type, on every device.
type QualifiedName string

// FullyQualifiedName is a QualifiedName that always includes the domain.
type FullyQualifiedName string

// DeviceMaxIDLength caps the identifier (the part after any slash) of an
// attribute or capacity name.
const DeviceMaxIDLength = 32

// DeviceAttribute is the value of one device attribute; one field, and
// only one, has to be set.
type DeviceAttribute struct {
	// IntValue is an integer value.
	//
	// +optional
	// +oneOf=ValueType
	IntValue *int64 `json:"int,omitempty" protobuf:"varint,2,opt,name=int"`

	// BoolValue is a boolean value.
	//
	// +optional
	// +oneOf=ValueType
	BoolValue *bool `json:"bool,omitempty" protobuf:"varint,3,opt,name=bool"`

	// StringValue is a string value of at most 64 characters.
	//
	// +optional
	// +oneOf=ValueType
	StringValue *string `json:"string,omitempty" protobuf:"bytes,4,opt,name=string"`

	// VersionValue is a semantic version (semver.org 2.0.0) of at most 64
	// characters.
	//
	// +optional
	// +oneOf=ValueType
	VersionValue *string `json:"version,omitempty" protobuf:"bytes,5,opt,name=version"`
}

// DeviceAttributeMaxValueLength caps the length of string and version
// attribute values.
const DeviceAttributeMaxValueLength = 64

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
// Alpha; needs the DynamicResourceAllocation feature gate.
type ResourceClaim struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is what is requested and how it is configured. Immutable.
	Spec ResourceClaimSpec `json:"spec" protobuf:"bytes,2,name=spec"`

	// Status is the allocation state of the claim.
	// +optional
	Status ResourceClaimStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ResourceClaimSpec is the request part of a ResourceClaim.
type ResourceClaimSpec struct {
	// Devices lists the device requests, constraints and configuration.
	//
	// +optional
	Devices DeviceClaim `json:"devices" protobuf:"bytes,1,name=devices"`

	// Controller, when set, is the driver that allocates this claim
	// instead of the scheduler; it must then be a valid driver name. Empty
	// means the scheduler allocates. Needs the DRAControlPlaneController
	// feature gate.
	//
	// +optional
	// +featureGate=DRAControlPlaneController
	Controller string `json:"controller,omitempty" protobuf:"bytes,2,opt,name=controller"`
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

// DeviceRequest asks for one or more devices of one device class. A
// device must match the class and every selector of the request.
type DeviceRequest struct {
	// Name identifies the request within the claim; constraints, config
	// and allocation results refer to it. A DNS label.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// DeviceClassName is the DeviceClass whose selectors and config apply
	// to this request. A DNS subdomain; required.
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
	// default) allocates exactly Count devices; All allocates every
	// matching device in the pool, and fails if none match or one of them
	// is already in use (unless adminAccess is set).
	//
	// +optional
	AllocationMode DeviceAllocationMode `json:"allocationMode,omitempty" protobuf:"bytes,4,opt,name=allocationMode"`

	// Count is the number of devices for ExactCount; it must be positive
	// there and defaults to 1. It must be 0 for All.
	//
	// +optional
	// +oneOf=AllocationMode
	Count int64 `json:"count,omitempty" protobuf:"bytes,5,opt,name=count"`

	// AdminAccess requests admin-mode use of the devices: they may
	// be allocated even if already in use, and are not counted as used.
	//
	// +optional
	// +default=false
	AdminAccess bool `json:"adminAccess,omitempty" protobuf:"bytes,6,opt,name=adminAccess"`
}

const (
	// DeviceSelectorsMaxSize is the maximum number of selectors in a request or class.
	DeviceSelectorsMaxSize = 32
)

// DeviceAllocationMode says how many devices a request wants.
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
	// Expression holds CEL source evaluated against the variable `device`, which
	// has the fields `driver` (string), `attributes` (a map from domain to
	// a map from identifier to value) and `capacity` (the same shape, with
	// quantities). Unqualified names are in the driver's domain, and an
	// unknown domain gives an empty map. The semver functions and
	// cel.bind are available. The result must be a boolean: true selects
	// the device; an evaluation error aborts the allocation attempt.
	// It must compile.
	//
	// +required
	Expression string `json:"expression" protobuf:"bytes,1,name=expression"`
}

// DeviceConstraint is a condition across the devices of several requests.
type DeviceConstraint struct {
	// Requests names the requests the constraint covers; empty means all
	// requests of the claim. At most 32 unique names of existing
	// requests.
	//
	// +optional
	// +listType=atomic
	Requests []string `json:"requests,omitempty" protobuf:"bytes,1,opt,name=requests"`

	// MatchAttribute is a fully qualified attribute name that every
	// covered device must have, with the same type and value on all of
	// them; devices lacking it are not used. Required in this version.
	//
	// +optional
	// +oneOf=ConstraintType
	MatchAttribute *FullyQualifiedName `json:"matchAttribute,omitempty" protobuf:"bytes,2,opt,name=matchAttribute"`
}

// DeviceClaimConfiguration is configuration from a claim for the devices
// of some of its requests.
type DeviceClaimConfiguration struct {
	// Requests names the requests the configuration is for; empty means
	// all requests of the claim. At most 32 unique names of existing
	// requests.
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

	// Parameters is the driver's configuration. It must be a JSON object;
	// a driver usually uses a versioned type with apiVersion and kind.
	//
	// +required
	Parameters runtime.RawExtension `json:"parameters" protobuf:"bytes,2,name=parameters"`
}

// ResourceClaimStatus records the allocation and the users of a claim.
type ResourceClaimStatus struct {
	// Allocation is the result of a successful allocation. Once set, it
	// cannot be changed.
	//
	// +optional
	Allocation *AllocationResult `json:"allocation,omitempty" protobuf:"bytes,1,opt,name=allocation"`

	// ReservedFor lists the consumers (usually pods) that may use the
	// allocated devices, keyed by uid, at most 32. A non-empty list
	// requires an allocation. No entries may be added while the claim is
	// being deleted or deallocation was requested. Deallocation is only
	// possible when the list is empty.
	//
	// +optional
	// +listType=map
	// +listMapKey=uid
	// +patchStrategy=merge
	// +patchMergeKey=uid
	ReservedFor []ResourceClaimConsumerReference `json:"reservedFor,omitempty" protobuf:"bytes,2,opt,name=reservedFor" patchStrategy:"merge" patchMergeKey:"uid"`

	// DeallocationRequested asks the controller driver to release the
	// allocation. It requires an allocation, cannot be set while
	// reservedFor has entries, and cannot be cleared while the allocation
	// remains. Only used with a control-plane controller; needs the
	// DRAControlPlaneController feature gate.
	//
	// +optional
	// +featureGate=DRAControlPlaneController
	DeallocationRequested bool `json:"deallocationRequested,omitempty" protobuf:"bytes,3,opt,name=deallocationRequested"`
}

// ResourceClaimReservedForMaxSize is the maximum number of reservedFor entries.
const ResourceClaimReservedForMaxSize = 32

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

	// Controller is the driver that made the allocation; empty when the
	// scheduler allocated. It is copied from the claim's spec.controller.
	// Needs the DRAControlPlaneController feature gate.
	//
	// +optional
	// +featureGate=DRAControlPlaneController
	Controller string `json:"controller,omitempty" protobuf:"bytes,4,opt,name=controller"`
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
	// for.
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
}

// DeviceAllocationConfiguration is one configuration entry in an
// allocation result.
type DeviceAllocationConfiguration struct {
	// Source says where the entry came from: FromClass or FromClaim.
	//
	// +required
	Source AllocationConfigSource `json:"source" protobuf:"bytes,1,name=source"`

	// Requests names the requests the entry is for; empty means all
	// requests of the claim.
	//
	// +optional
	// +listType=atomic
	Requests []string `json:"requests,omitempty" protobuf:"bytes,2,opt,name=requests"`

	DeviceConfiguration `json:",inline" protobuf:"bytes,3,name=deviceConfiguration"`
}

// AllocationConfigSource says whether a configuration entry came from a
// DeviceClass or from the ResourceClaim.
type AllocationConfigSource string

const (
	// AllocationConfigSourceClass marks configuration taken from a DeviceClass.
	AllocationConfigSourceClass = "FromClass"
	// AllocationConfigSourceClaim marks configuration taken from the ResourceClaim.
	AllocationConfigSourceClaim = "FromClaim"
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
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodSchedulingContext lets the scheduler and the controller drivers of
// a pod's claims agree on a node when the claims are allocated by a
// control-plane controller. Its name and namespace are those of the pod,
// and the pod owns it.
//
// Alpha; needs the DRAControlPlaneController feature gate.
type PodSchedulingContext struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is written by the scheduler: the candidate nodes and the
	// chosen one.
	Spec PodSchedulingContextSpec `json:"spec" protobuf:"bytes,2,name=spec"`

	// Status is written by the drivers: where each claim can not be
	// allocated.
	//
	// +optional
	Status PodSchedulingContextStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// PodSchedulingContextSpec is the scheduler's side of a
// PodSchedulingContext.
type PodSchedulingContextSpec struct {
	// SelectedNode is the node the scheduler wants to run the pod on;
	// drivers should allocate the pod's pending claims for it.
	//
	// +optional
	SelectedNode string `json:"selectedNode,omitempty" protobuf:"bytes,1,opt,name=selectedNode"`

	// PotentialNodes are nodes that might run the pod, for drivers to
	// check in advance. At most 128 unique node names; the list may be a
	// subset of all suitable nodes.
	//
	// +optional
	// +listType=atomic
	PotentialNodes []string `json:"potentialNodes,omitempty" protobuf:"bytes,2,opt,name=potentialNodes"`
}

// PodSchedulingContextStatus is the drivers' side of a
// PodSchedulingContext.
type PodSchedulingContextStatus struct {
	// ResourceClaims has one entry per claim of the pod that uses a
	// control-plane controller, keyed by name.
	//
	// +listType=map
	// +listMapKey=name
	// +optional
	ResourceClaims []ResourceClaimSchedulingStatus `json:"resourceClaims,omitempty" protobuf:"bytes,1,opt,name=resourceClaims"`
}

// ResourceClaimSchedulingStatus is a driver's report about one claim of
// the pod.
type ResourceClaimSchedulingStatus struct {
	// Name matches an entry of pod.spec.resourceClaims.
	//
	// +required
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// UnsuitableNodes are the potential nodes on which the claim cannot
	// be allocated. At most 128 unique node names.
	//
	// +optional
	// +listType=atomic
	UnsuitableNodes []string `json:"unsuitableNodes,omitempty" protobuf:"bytes,2,opt,name=unsuitableNodes"`
}

// PodSchedulingNodeListMaxSize is the maximum length of the potentialNodes
// and unsuitableNodes lists.
const PodSchedulingNodeListMaxSize = 128

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodSchedulingContextList is a list of PodSchedulingContexts.
type PodSchedulingContextList struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the list.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the PodSchedulingContexts of the list.
	Items []PodSchedulingContext `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DeviceClass is a set of devices chosen by selectors, with configuration
// that applies to them. Claims refer to a class by name.
//
// Alpha; needs the DynamicResourceAllocation feature gate.
type DeviceClass struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec holds the selectors and configuration of the class. It may
	// change at any time; an allocation uses the class as it was when
	// the allocation was made. Any change increments metadata.generation.
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

	// SuitableNodes restricts the nodes considered for claims of this
	// class that use a control-plane controller. Needs the
	// DRAControlPlaneController feature gate.
	//
	// +optional
	// +featureGate=DRAControlPlaneController
	SuitableNodes *v1.NodeSelector `json:"suitableNodes,omitempty" protobuf:"bytes,3,opt,name=suitableNodes"`
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
// Alpha; needs the DynamicResourceAllocation feature gate.
type ResourceClaimTemplate struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec describes the claim to create. Immutable: claims already
	// created from the template are not updated.
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
