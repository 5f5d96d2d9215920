package resource

import (
	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// The hub follows one rule: every idea that any of v1alpha1, v1alpha2 and
// v1alpha3 can express has exactly one home here. Where v1alpha3 can say an
// idea, its shape is the home; ideas that only the older versions can say get
// a field of their own, named after what it meant there and marked "legacy".
// docs/architecture.md explains the choice and docs/conversion.md maps every
// versioned field onto these types.
//
// "Legacy" in the comments below marks what belongs to the DRA that later
// Kubernetes releases dropped: classic DRA's parameters references and
// allocation modes (Immediate, WaitForFirstConsumer), its control-plane
// controller that allocates a claim (the claim controller), the resource
// handles a driver records in an allocation and v1alpha1's single handle,
// shareable allocations, and 1.30's structured parameters with their named
// resources. Each comment also says which versions can say a field; what
// the other versions cannot say travels in the stash annotation.
//
// The JSON layout is the API's: TypeMeta inline, ObjectMeta and ListMeta
// under "metadata" (a claim template's claim metadata under
// "spec.metadata"), every other field under the JSON name the versions
// give it. A hub object's JSON therefore has the paths of a versioned one.

// LegacyRequestName is the name of the single device request that stands for
// the class of a v1alpha1/v1alpha2 claim (resourceClassName). Those versions
// have no request names; allocation results of such claims carry this name.
const LegacyRequestName = "resource"

// ---------------------------------------------------------------------------
// Classes: ResourceClass (v1alpha1, v1alpha2) and DeviceClass (v1alpha3).

// DeviceClass is a class of devices that claims refer to by name. It is the
// hub kind behind both ResourceClass (v1alpha1, v1alpha2) and DeviceClass
// (v1alpha3). A legacy class's driverName lives here as the first selector,
// in the canonical form `device.driver == "<name>"`
// (see DriverSelector).
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type DeviceClass struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is the class's object metadata ("metadata"). A class is
	// cluster-scoped in every version.
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is what the class says about its devices. v1alpha3 has it under
	// "spec"; a v1alpha1/v1alpha2 ResourceClass has its fields at the top
	// level.
	Spec DeviceClassSpec `json:"spec,omitempty"`
}

// DeviceClassSpec holds what a class says about the devices it admits.
type DeviceClassSpec struct {
	// Selectors must all accept a device for it to belong to the class
	// (v1alpha3 spec.selectors). v1alpha1/v1alpha2 can say only one kind of
	// selector, the driver's, as driverName; the others go to the stash.
	Selectors []DeviceSelector `json:"selectors,omitempty"`

	// Config is handed to the drivers of every device allocated through this
	// class (v1alpha3 spec.config; v1alpha1/v1alpha2 cannot say it).
	Config []DeviceClassConfiguration `json:"config,omitempty"`

	// SuitableNodes limits the nodes a claim of this class may be allocated on
	// (v1alpha1/v1alpha2 suitableNodes, v1alpha3 spec.suitableNodes). It
	// belongs to classic DRA's control-plane controller, which checks it; 1.31
	// accepts it only with the DRAControlPlaneController feature gate.
	SuitableNodes *corev1.NodeSelector `json:"suitableNodes,omitempty"`

	// ParametersRef (legacy, v1alpha1/v1alpha2) names a driver-specific object
	// with class parameters.
	ParametersRef *ResourceClassParametersReference `json:"parametersRef,omitempty"`

	// StructuredParameters (legacy, v1alpha2 as of 1.30) tells the scheduler
	// that the class uses structured parameters.
	StructuredParameters *bool `json:"structuredParameters,omitempty"`
}

// DeviceClassConfiguration is one entry of class configuration.
type DeviceClassConfiguration struct {
	// DeviceConfiguration is the configuration itself, inline (v1alpha3
	// spec.config[].opaque).
	DeviceConfiguration `json:",inline"`
}

// DeviceClassList is a list of classes.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type DeviceClassList struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ListMeta is the list's metadata ("metadata"): its resourceVersion and
	// continue token.
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the classes (a ResourceClassList in v1alpha1/v1alpha2).
	Items []DeviceClass `json:"items"`
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

// ---------------------------------------------------------------------------
// Claims and claim templates.

// ResourceClaim asks for devices for one or more pods and records what was
// allocated.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaim struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is the claim's object metadata ("metadata").
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is what the claim asks for. Every version makes it immutable once
	// the claim exists.
	Spec ResourceClaimSpec `json:"spec,omitempty"`
	// Status is the allocation and who uses it, written through the status
	// subresource in every version.
	Status ResourceClaimStatus `json:"status,omitempty"`
}

// ResourceClaimSpec describes what a claim asks for. A v1alpha1/v1alpha2
// claim's resourceClassName becomes one request named LegacyRequestName for
// exactly one device of that class.
type ResourceClaimSpec struct {
	// Devices says which devices are requested and how they are configured
	// (v1alpha3 spec.devices). v1alpha1/v1alpha2 can say only one request,
	// through resourceClassName.
	Devices DeviceClaim `json:"devices,omitempty"`

	// Controller (legacy: the claim controller of classic DRA) names the
	// driver whose control-plane controller allocates this claim; empty
	// means the scheduler allocates. Only v1alpha3 says it (spec.controller,
	// behind the DRAControlPlaneController feature gate); in v1alpha1 and
	// v1alpha2 the class's driver allocated, unless a 1.30 class used
	// structured parameters and the scheduler did.
	Controller string `json:"controller,omitempty"`

	// ParametersRef (legacy, v1alpha1/v1alpha2) names a driver-specific
	// object with claim parameters.
	ParametersRef *ResourceClaimParametersReference `json:"parametersRef,omitempty"`

	// AllocationMode (legacy, v1alpha1/v1alpha2) says whether allocation
	// waits for the first pod that uses the claim.
	AllocationMode AllocationMode `json:"allocationMode,omitempty"`
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

// DeviceClaim groups the device requests of a claim with their constraints
// and configuration.
type DeviceClaim struct {
	// Requests are the claim's device requests (v1alpha3
	// spec.devices.requests). A v1alpha1/v1alpha2 claim says exactly one,
	// named LegacyRequestName, for one device of its resourceClassName; nil
	// (no requests) and an empty list stay apart.
	Requests []DeviceRequest `json:"requests"`
	// Constraints relate the devices of several requests (v1alpha3 only).
	Constraints []DeviceConstraint `json:"constraints,omitempty"`
	// Config is configuration for the devices of some or all requests
	// (v1alpha3 only).
	Config []DeviceClaimConfiguration `json:"config,omitempty"`
}

// DeviceRequest asks for devices of one class.
type DeviceRequest struct {
	// Name identifies the request within the claim (a DNS label); constraints,
	// configuration and allocation results refer to it. v1alpha3 only: the
	// request of a v1alpha1/v1alpha2 claim is named LegacyRequestName.
	Name string `json:"name,omitempty"`
	// DeviceClassName is the class the devices must belong to (v1alpha3; the
	// resourceClassName of v1alpha1/v1alpha2 for their single request).
	DeviceClassName string `json:"deviceClassName,omitempty"`
	// Selectors must all accept a device, in addition to the class's
	// (v1alpha3 only).
	Selectors []DeviceSelector `json:"selectors,omitempty"`
	// AllocationMode says how many devices the request wants: ExactCount
	// (the v1alpha3 default) or All (v1alpha3 only). It is not the legacy
	// claim-level AllocationMode.
	AllocationMode DeviceAllocationMode `json:"allocationMode,omitempty"`
	// Count is how many devices an ExactCount request wants; v1alpha3
	// defaults it to 1 and requires 0 with All (v1alpha3 only).
	Count int64 `json:"count,omitempty"`
	// AdminAccess asks for the devices for administration, such as
	// monitoring, even while other claims hold them (v1alpha3 only).
	AdminAccess bool `json:"adminAccess,omitempty"`
}

// DeviceAllocationMode says how many devices a request wants.
type DeviceAllocationMode string

const (
	// DeviceAllocationModeExactCount asks for Count devices.
	DeviceAllocationModeExactCount DeviceAllocationMode = "ExactCount"
	// DeviceAllocationModeAll asks for every matching device.
	DeviceAllocationModeAll DeviceAllocationMode = "All"
)

// DeviceSelector is one test a device must pass.
type DeviceSelector struct {
	// CEL is the test as a CEL expression, the only kind of selector there is
	// (v1alpha3, where it is required; in v1alpha1/v1alpha2 only a class's
	// driver selector has a form of its own, driverName).
	CEL *CELDeviceSelector `json:"cel,omitempty"`
}

// CELDeviceSelector is a CEL expression over the variable `device`.
type CELDeviceSelector struct {
	// Expression is the CEL expression; it sees the device's driver,
	// attributes and capacity and must yield true for the device to pass
	// (v1alpha3).
	Expression string `json:"expression,omitempty"`
}

// DeviceConstraint relates the devices allocated for several requests.
type DeviceConstraint struct {
	// Requests names the requests the constraint applies to; empty means
	// every request of the claim (v1alpha3 only).
	Requests []string `json:"requests,omitempty"`
	// MatchAttribute is a fully qualified attribute that must have the same
	// value on every device allocated for those requests (v1alpha3 only,
	// where it is required).
	MatchAttribute *FullyQualifiedName `json:"matchAttribute,omitempty"`
}

// DeviceClaimConfiguration is configuration for some (or all) requests of a claim.
type DeviceClaimConfiguration struct {
	// Requests names the requests the configuration is for; empty means
	// every request of the claim (v1alpha3 only).
	Requests []string `json:"requests,omitempty"`
	// DeviceConfiguration is the configuration itself, inline (v1alpha3
	// spec.devices.config[].opaque).
	DeviceConfiguration `json:",inline"`
}

// DeviceConfiguration holds exactly one kind of configuration.
type DeviceConfiguration struct {
	// Opaque is driver-specific configuration, the only kind there is
	// (v1alpha3, where it is required).
	Opaque *OpaqueDeviceConfiguration `json:"opaque,omitempty"`
}

// OpaqueDeviceConfiguration is driver-specific configuration passed through
// as it is.
type OpaqueDeviceConfiguration struct {
	// Driver is the driver the parameters are meant for; other drivers
	// ignore them (v1alpha3).
	Driver string `json:"driver,omitempty"`
	// Parameters is a JSON object in the driver's own format (v1alpha3).
	Parameters runtime.RawExtension `json:"parameters,omitempty"`
}

// ResourceClaimStatus records the allocation and who uses it.
type ResourceClaimStatus struct {
	// Allocation is what was allocated; nil until the claim is allocated.
	// Every version has it; from 1.27 it cannot change once set.
	Allocation *AllocationResult `json:"allocation,omitempty"`
	// ReservedFor lists the consumers (usually pods) that may use the
	// allocation, at most 32, keyed by UID (every version).
	ReservedFor []ResourceClaimConsumerReference `json:"reservedFor,omitempty"`
	// DeallocationRequested asks classic DRA's control-plane controller to
	// free the allocation (every version; 1.31 only with the
	// DRAControlPlaneController feature gate).
	DeallocationRequested bool `json:"deallocationRequested,omitempty"`

	// DriverName (legacy, v1alpha1/v1alpha2) is the driver that handled the
	// allocation.
	DriverName string `json:"driverName,omitempty"`
}

// ResourceClaimConsumerReference names an object that uses a claim.
type ResourceClaimConsumerReference struct {
	// APIGroup is the consumer's API group; empty for the core group, as for
	// pods (every version).
	APIGroup string `json:"apiGroup,omitempty"`
	// Resource is the consumer's resource, such as "pods" (every version).
	Resource string `json:"resource,omitempty"`
	// Name is the consumer's name (every version).
	Name string `json:"name,omitempty"`
	// UID is the consumer's UID, the key of the list (every version).
	UID types.UID `json:"uid,omitempty"`
}

// AllocationResult is what was allocated for a claim. The v1alpha1 single
// resourceHandle is the Data of the first entry of ResourceHandles, with the
// status' DriverName as its DriverName.
type AllocationResult struct {
	// Devices lists the allocated devices and their configuration (v1alpha3).
	// v1alpha1/v1alpha2 show the results as handles (see docs/conversion.md).
	Devices DeviceAllocationResult `json:"devices,omitempty"`

	// NodeSelector says where the allocation is usable
	// (v1alpha1/v1alpha2 availableOnNodes, v1alpha3 nodeSelector).
	NodeSelector *corev1.NodeSelector `json:"nodeSelector,omitempty"`

	// Controller (legacy: the claim controller of classic DRA) is the driver
	// whose control-plane controller allocated; empty when the scheduler did
	// (v1alpha3 only, behind the DRAControlPlaneController feature gate).
	Controller string `json:"controller,omitempty"`

	// ResourceHandles (legacy, v1alpha1/v1alpha2) are per-driver opaque or
	// structured allocation handles. v1alpha1 says a single opaque one
	// (resourceHandle), v1alpha2 a list.
	ResourceHandles []ResourceHandle `json:"resourceHandles,omitempty"`

	// Shareable (legacy, v1alpha1/v1alpha2) allows more than one consumer.
	Shareable bool `json:"shareable,omitempty"`
}

// DeviceAllocationResult lists allocated devices and the configuration that
// goes with them.
type DeviceAllocationResult struct {
	// Results are the allocated devices, one entry per device and request
	// (v1alpha3).
	Results []DeviceRequestAllocationResult `json:"results,omitempty"`
	// Config is the class and claim configuration that applies to the
	// allocated devices, copied at allocation time (v1alpha3).
	Config []DeviceAllocationConfiguration `json:"config,omitempty"`
}

// DeviceRequestAllocationResult is one device allocated for one request.
type DeviceRequestAllocationResult struct {
	// Request is the name of the request the device was allocated for
	// (v1alpha3; LegacyRequestName for a request of a legacy claim).
	Request string `json:"request,omitempty"`
	// Driver is the device's driver (v1alpha3).
	Driver string `json:"driver,omitempty"`
	// Pool is the pool the device was published in (v1alpha3).
	Pool string `json:"pool,omitempty"`
	// Device is the device's name within its pool (v1alpha3).
	Device string `json:"device,omitempty"`
}

// DeviceAllocationConfiguration is configuration copied into an allocation,
// with where it came from.
type DeviceAllocationConfiguration struct {
	// Source says whether the class or the claim gave this configuration:
	// FromClass or FromClaim (v1alpha3).
	Source AllocationConfigSource `json:"source,omitempty"`
	// Requests names the requests the configuration is for; empty means
	// every request (v1alpha3).
	Requests []string `json:"requests,omitempty"`
	// DeviceConfiguration is the configuration itself, inline (v1alpha3
	// status.allocation.devices.config[].opaque).
	DeviceConfiguration `json:",inline"`
}

// AllocationConfigSource says whether configuration came from the class or the claim.
type AllocationConfigSource string

const (
	// AllocationConfigSourceClass marks configuration taken from a DeviceClass.
	AllocationConfigSourceClass = "FromClass"
	// AllocationConfigSourceClaim marks configuration taken from the claim.
	AllocationConfigSourceClaim = "FromClaim"
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

// ResourceClaimList is a list of claims.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimList struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ListMeta is the list's metadata ("metadata"): its resourceVersion and
	// continue token.
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the claims (every version).
	Items []ResourceClaim `json:"items"`
}

// ResourceClaimTemplate is the blueprint from which claims are made for pods.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimTemplate struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is the template's own object metadata ("metadata").
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the metadata and spec of the claims made from the template;
	// immutable once the template exists (every version).
	Spec ResourceClaimTemplateSpec `json:"spec,omitempty"`
}

// ResourceClaimTemplateSpec is the metadata and spec that each claim made
// from the template gets.
type ResourceClaimTemplateSpec struct {
	// ObjectMeta is the metadata each claim made from the template gets, at
	// "spec.metadata" in the JSON; only labels and annotations may be set
	// (every version).
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the spec each claim made from the template gets (every
	// version; it converts exactly like a claim's spec).
	Spec ResourceClaimSpec `json:"spec,omitempty"`
}

// ResourceClaimTemplateList is a list of claim templates.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimTemplateList struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ListMeta is the list's metadata ("metadata"): its resourceVersion and
	// continue token.
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the claim templates (every version).
	Items []ResourceClaimTemplate `json:"items"`
}

// ---------------------------------------------------------------------------
// Scheduling context: PodScheduling (v1alpha1), PodSchedulingContext (v1alpha2, v1alpha3).

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

// ---------------------------------------------------------------------------
// Device inventory: ResourceSlice (v1alpha2 as of 1.30, v1alpha3).

// ResourceSlice publishes devices of one driver. A v1alpha2 slice's top-level
// driverName and nodeName live in Spec.Driver and Spec.NodeName; its
// namedResources instances are Spec.Devices.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceSlice struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ObjectMeta is the slice's object metadata ("metadata"). A slice is
	// cluster-scoped.
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is what the slice publishes. v1alpha3 has it under "spec"; a
	// v1alpha2 slice has its fields at the top level.
	Spec ResourceSliceSpec `json:"spec,omitempty"`
}

// ResourceSliceSpec describes the devices of one slice and where they are reachable.
type ResourceSliceSpec struct {
	// Driver is the driver that publishes the devices (v1alpha2 driverName,
	// v1alpha3 spec.driver; immutable in both).
	Driver string `json:"driver,omitempty"`
	// Pool is the pool the slice belongs to (v1alpha3 only). A v1alpha2 slice
	// stands for a pool of its own, named after its node (or its driver
	// when it has no node), of generation 0 and one slice.
	Pool ResourcePool `json:"pool,omitempty"`
	// NodeName is the node whose local devices the slice lists (v1alpha2
	// nodeName, v1alpha3 spec.nodeName; immutable in both). v1alpha3 wants
	// exactly one of NodeName, NodeSelector and AllNodes.
	NodeName string `json:"nodeName,omitempty"`
	// NodeSelector says which nodes can reach the devices, with exactly one
	// term (v1alpha3 only).
	NodeSelector *corev1.NodeSelector `json:"nodeSelector,omitempty"`
	// AllNodes says that every node can reach the devices (v1alpha3 only).
	AllNodes bool `json:"allNodes,omitempty"`
	// Devices are the published devices, at most 128 in v1alpha3
	// (spec.devices); v1alpha2 says them as namedResources.instances. nil
	// and an empty list stay apart.
	Devices []Device `json:"devices"`

	// NoResourceModel (legacy, v1alpha2) records a slice that names no
	// resource model at all. The v1alpha2 server rejects such a slice, but a
	// manifest can still say it, and conversion must give it back unchanged.
	NoResourceModel bool `json:"noResourceModel,omitempty"`
}

// ResourcePool identifies the pool a slice belongs to and its generation.
type ResourcePool struct {
	// Name identifies the pool among the driver's pools: one or more DNS
	// subdomains joined by "/" (v1alpha3).
	Name string `json:"name,omitempty"`
	// Generation grows whenever the driver changes the pool; only the slices
	// of a pool's highest generation count (v1alpha3).
	Generation int64 `json:"generation,omitempty"`
	// ResourceSliceCount is how many slices make up the pool in this
	// generation (v1alpha3).
	ResourceSliceCount int64 `json:"resourceSliceCount,omitempty"`
}

// Device is one device (a v1alpha2 named-resources instance).
type Device struct {
	// Name identifies the device within its pool (v1alpha3 devices[].name, a
	// DNS label; v1alpha2 instances[].name, a DNS subdomain).
	Name string `json:"name,omitempty"`
	// Basic holds the device's attributes (v1alpha3, where it is required).
	// v1alpha2 has no such wrapper: an instance's attributes are Basic's,
	// and a nil Basic is kept in the stash.
	Basic *BasicDevice `json:"basic,omitempty"`
}

// BasicDevice holds a device's attributes. Unlike the v1alpha3 maps, the hub
// keeps them as one ordered list, because v1alpha2 lists them in an order of
// its own and types quantities as attributes: a v1alpha3 device is the case
// where attributes come sorted by name, followed by the capacities (entries
// with QuantityValue) sorted by name.
type BasicDevice struct {
	// Attributes are the device's attributes and capacities in one ordered
	// list (v1alpha2 attributes; v1alpha3 basic.attributes and
	// basic.capacity, at most 32 together).
	Attributes []DeviceAttribute `json:"attributes,omitempty"`
}

// QualifiedName is an attribute or capacity name, optionally prefixed with a
// domain and a slash.
type QualifiedName string

// FullyQualifiedName is a QualifiedName that must carry a domain.
type FullyQualifiedName string

// DeviceAttribute is one named, typed value of a device. Exactly one value
// field is set.
type DeviceAttribute struct {
	// Name is the attribute's or capacity's name (v1alpha2 attributes[].name;
	// v1alpha3 the key in basic.attributes or basic.capacity).
	Name QualifiedName `json:"name,omitempty"`

	// IntValue is an integer (v1alpha2 and v1alpha3).
	IntValue *int64 `json:"int,omitempty"`
	// BoolValue is a boolean (v1alpha2 and v1alpha3).
	BoolValue *bool `json:"bool,omitempty"`
	// StringValue is a string (v1alpha2; v1alpha3 at most 64 characters).
	StringValue *string `json:"string,omitempty"`
	// VersionValue is a semantic version (semver 2.0.0) (v1alpha2; v1alpha3
	// at most 64 characters).
	VersionValue *string `json:"version,omitempty"`

	// QuantityValue is a v1alpha3 capacity or a v1alpha2 quantity attribute.
	QuantityValue *apiresource.Quantity `json:"quantity,omitempty"`

	// IntSliceValue (legacy, v1alpha2) is a list of integers.
	IntSliceValue *IntSlice `json:"intSlice,omitempty"`
	// StringSliceValue (legacy, v1alpha2) is a list of strings.
	StringSliceValue *StringSlice `json:"stringSlice,omitempty"`
}

// IntSlice (legacy) is a list of integers.
type IntSlice struct {
	// Ints are the integers (v1alpha2 intSlice.ints).
	Ints []int64 `json:"ints"`
}

// StringSlice (legacy) is a list of strings.
type StringSlice struct {
	// Strings are the strings (v1alpha2 stringSlice.strings).
	Strings []string `json:"strings"`
}

// ResourceSliceList is a list of slices.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceSliceList struct {
	// TypeMeta is the apiVersion and kind, at the top level of the JSON.
	metav1.TypeMeta `json:",inline"`
	// ListMeta is the list's metadata ("metadata"): its resourceVersion and
	// continue token.
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the slices (v1alpha2 as of 1.30, v1alpha3).
	Items []ResourceSlice `json:"items"`
}

// ---------------------------------------------------------------------------
// Structured parameters of 1.30: ResourceClaimParameters and
// ResourceClassParameters exist in v1alpha2 only.

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
