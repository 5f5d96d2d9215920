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
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec DeviceClassSpec
}

// DeviceClassSpec holds what a class says about the devices it admits.
type DeviceClassSpec struct {
	// Selectors must all accept a device for it to belong to the class.
	Selectors []DeviceSelector

	// Config is handed to the drivers of every device allocated through this class.
	Config []DeviceClassConfiguration

	// SuitableNodes limits the nodes a claim of this class may be allocated on
	// (v1alpha1/v1alpha2 suitableNodes, v1alpha3 spec.suitableNodes).
	SuitableNodes *corev1.NodeSelector

	// ParametersRef (legacy, v1alpha1/v1alpha2) names a driver-specific object
	// with class parameters.
	ParametersRef *ResourceClassParametersReference

	// StructuredParameters (legacy, v1alpha2 as of 1.30) tells the scheduler
	// that the class uses structured parameters.
	StructuredParameters *bool
}

// DeviceClassConfiguration is one entry of class configuration.
type DeviceClassConfiguration struct {
	DeviceConfiguration
}

// DeviceClassList is a list of classes.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type DeviceClassList struct {
	metav1.TypeMeta
	metav1.ListMeta

	Items []DeviceClass
}

// ResourceClassParametersReference (legacy) points at the object that holds
// class parameters.
type ResourceClassParametersReference struct {
	APIGroup  string
	Kind      string
	Name      string
	Namespace string
}

// ---------------------------------------------------------------------------
// Claims and claim templates.

// ResourceClaim asks for devices for one or more pods and records what was
// allocated.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaim struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   ResourceClaimSpec
	Status ResourceClaimStatus
}

// ResourceClaimSpec describes what a claim asks for. A v1alpha1/v1alpha2
// claim's resourceClassName becomes one request named LegacyRequestName for
// exactly one device of that class.
type ResourceClaimSpec struct {
	// Devices says which devices are requested and how they are configured.
	Devices DeviceClaim

	// Controller names the driver whose control-plane controller allocates
	// this claim; empty means the scheduler allocates (v1alpha3).
	Controller string

	// ParametersRef (legacy, v1alpha1/v1alpha2) names a driver-specific
	// object with claim parameters.
	ParametersRef *ResourceClaimParametersReference

	// AllocationMode (legacy, v1alpha1/v1alpha2) says whether allocation
	// waits for the first pod that uses the claim.
	AllocationMode AllocationMode
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
	APIGroup string
	Kind     string
	Name     string
}

// DeviceClaim groups the device requests of a claim with their constraints
// and configuration.
type DeviceClaim struct {
	Requests    []DeviceRequest
	Constraints []DeviceConstraint
	Config      []DeviceClaimConfiguration
}

// DeviceRequest asks for devices of one class.
type DeviceRequest struct {
	Name            string
	DeviceClassName string
	Selectors       []DeviceSelector
	AllocationMode  DeviceAllocationMode
	Count           int64
	AdminAccess     bool
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
	CEL *CELDeviceSelector
}

// CELDeviceSelector is a CEL expression over the variable `device`.
type CELDeviceSelector struct {
	Expression string
}

// DeviceConstraint relates the devices allocated for several requests.
type DeviceConstraint struct {
	Requests       []string
	MatchAttribute *FullyQualifiedName
}

// DeviceClaimConfiguration is configuration for some (or all) requests of a claim.
type DeviceClaimConfiguration struct {
	Requests []string
	DeviceConfiguration
}

// DeviceConfiguration holds exactly one kind of configuration.
type DeviceConfiguration struct {
	Opaque *OpaqueDeviceConfiguration
}

// OpaqueDeviceConfiguration is driver-specific configuration passed through
// as it is.
type OpaqueDeviceConfiguration struct {
	Driver     string
	Parameters runtime.RawExtension
}

// ResourceClaimStatus records the allocation and who uses it.
type ResourceClaimStatus struct {
	Allocation            *AllocationResult
	ReservedFor           []ResourceClaimConsumerReference
	DeallocationRequested bool

	// DriverName (legacy, v1alpha1/v1alpha2) is the driver that handled the
	// allocation.
	DriverName string
}

// ResourceClaimConsumerReference names an object that uses a claim.
type ResourceClaimConsumerReference struct {
	APIGroup string
	Resource string
	Name     string
	UID      types.UID
}

// AllocationResult is what was allocated for a claim. The v1alpha1 single
// resourceHandle is the Data of the first entry of ResourceHandles, with the
// status' DriverName as its DriverName.
type AllocationResult struct {
	// Devices lists the allocated devices and their configuration (v1alpha3).
	Devices DeviceAllocationResult

	// NodeSelector says where the allocation is usable
	// (v1alpha1/v1alpha2 availableOnNodes, v1alpha3 nodeSelector).
	NodeSelector *corev1.NodeSelector

	// Controller is the driver whose controller allocated (v1alpha3).
	Controller string

	// ResourceHandles (legacy, v1alpha1/v1alpha2) are per-driver opaque or
	// structured allocation handles.
	ResourceHandles []ResourceHandle

	// Shareable (legacy, v1alpha1/v1alpha2) allows more than one consumer.
	Shareable bool
}

// DeviceAllocationResult lists allocated devices and the configuration that
// goes with them.
type DeviceAllocationResult struct {
	Results []DeviceRequestAllocationResult
	Config  []DeviceAllocationConfiguration
}

// DeviceRequestAllocationResult is one device allocated for one request.
type DeviceRequestAllocationResult struct {
	Request string
	Driver  string
	Pool    string
	Device  string
}

// DeviceAllocationConfiguration is configuration copied into an allocation,
// with where it came from.
type DeviceAllocationConfiguration struct {
	Source   AllocationConfigSource
	Requests []string
	DeviceConfiguration
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
	DriverName     string
	Data           string
	StructuredData *StructuredResourceHandle
}

// StructuredResourceHandle (legacy, v1alpha2 as of 1.30) is an allocation
// made by the scheduler from named resources.
type StructuredResourceHandle struct {
	VendorClassParameters runtime.RawExtension
	VendorClaimParameters runtime.RawExtension
	NodeName              string
	Results               []DriverAllocationResult
}

// DriverAllocationResult (legacy) is one allocated named-resources instance.
type DriverAllocationResult struct {
	VendorRequestParameters runtime.RawExtension
	AllocationResultModel
}

// AllocationResultModel (legacy) holds exactly one kind of allocation result.
type AllocationResultModel struct {
	NamedResources *NamedResourcesAllocationResult
}

// NamedResourcesAllocationResult (legacy) names the allocated instance.
type NamedResourcesAllocationResult struct {
	Name string
}

// ResourceClaimList is a list of claims.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimList struct {
	metav1.TypeMeta
	metav1.ListMeta

	Items []ResourceClaim
}

// ResourceClaimTemplate is the blueprint from which claims are made for pods.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimTemplate struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec ResourceClaimTemplateSpec
}

// ResourceClaimTemplateSpec is the metadata and spec that each claim made
// from the template gets.
type ResourceClaimTemplateSpec struct {
	metav1.ObjectMeta

	Spec ResourceClaimSpec
}

// ResourceClaimTemplateList is a list of claim templates.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimTemplateList struct {
	metav1.TypeMeta
	metav1.ListMeta

	Items []ResourceClaimTemplate
}

// ---------------------------------------------------------------------------
// Scheduling context: PodScheduling (v1alpha1), PodSchedulingContext (v1alpha2, v1alpha3).

// PodSchedulingContext is the exchange between the scheduler and drivers
// about where a pod with claims can run.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type PodSchedulingContext struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec   PodSchedulingContextSpec
	Status PodSchedulingContextStatus
}

// PodSchedulingContextSpec is written by the scheduler.
type PodSchedulingContextSpec struct {
	SelectedNode   string
	PotentialNodes []string
}

// PodSchedulingContextStatus is written by drivers.
type PodSchedulingContextStatus struct {
	ResourceClaims []ResourceClaimSchedulingStatus
}

// ResourceClaimSchedulingStatus says on which nodes one claim cannot be allocated.
type ResourceClaimSchedulingStatus struct {
	Name            string
	UnsuitableNodes []string
}

// PodSchedulingContextList is a list of scheduling contexts.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type PodSchedulingContextList struct {
	metav1.TypeMeta
	metav1.ListMeta

	Items []PodSchedulingContext
}

// ---------------------------------------------------------------------------
// Device inventory: ResourceSlice (v1alpha2 as of 1.30, v1alpha3).

// ResourceSlice publishes devices of one driver. A v1alpha2 slice's top-level
// driverName and nodeName live in Spec.Driver and Spec.NodeName; its
// namedResources instances are Spec.Devices.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceSlice struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec ResourceSliceSpec
}

// ResourceSliceSpec describes the devices of one slice and where they are reachable.
type ResourceSliceSpec struct {
	Driver       string
	Pool         ResourcePool
	NodeName     string
	NodeSelector *corev1.NodeSelector
	AllNodes     bool
	Devices      []Device
}

// ResourcePool identifies the pool a slice belongs to and its generation.
type ResourcePool struct {
	Name               string
	Generation         int64
	ResourceSliceCount int64
}

// Device is one device (a v1alpha2 named-resources instance).
type Device struct {
	Name  string
	Basic *BasicDevice
}

// BasicDevice holds a device's attributes. Unlike the v1alpha3 maps, the hub
// keeps them as one ordered list, because v1alpha2 lists them in an order of
// its own and types quantities as attributes: a v1alpha3 device is the case
// where attributes come sorted by name, followed by the capacities (entries
// with QuantityValue) sorted by name.
type BasicDevice struct {
	Attributes []DeviceAttribute
}

// QualifiedName is an attribute or capacity name, optionally prefixed with a
// domain and a slash.
type QualifiedName string

// FullyQualifiedName is a QualifiedName that must carry a domain.
type FullyQualifiedName string

// DeviceAttribute is one named, typed value of a device. Exactly one value
// field is set.
type DeviceAttribute struct {
	Name QualifiedName

	IntValue     *int64
	BoolValue    *bool
	StringValue  *string
	VersionValue *string

	// QuantityValue is a v1alpha3 capacity or a v1alpha2 quantity attribute.
	QuantityValue *apiresource.Quantity

	// IntSliceValue (legacy, v1alpha2) is a list of integers.
	IntSliceValue *IntSlice
	// StringSliceValue (legacy, v1alpha2) is a list of strings.
	StringSliceValue *StringSlice
}

// IntSlice (legacy) is a list of integers.
type IntSlice struct {
	Ints []int64
}

// StringSlice (legacy) is a list of strings.
type StringSlice struct {
	Strings []string
}

// ResourceSliceList is a list of slices.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceSliceList struct {
	metav1.TypeMeta
	metav1.ListMeta

	Items []ResourceSlice
}

// ---------------------------------------------------------------------------
// Structured parameters of 1.30: ResourceClaimParameters and
// ResourceClassParameters exist in v1alpha2 only.

// ResourceClaimParameters (legacy, v1alpha2 as of 1.30) is the structured
// form of a claim's parameters.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimParameters struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	GeneratedFrom  *ResourceClaimParametersReference
	Shareable      bool
	DriverRequests []DriverRequests
}

// DriverRequests are the requests for one driver.
type DriverRequests struct {
	DriverName       string
	VendorParameters runtime.RawExtension
	Requests         []ResourceRequest
}

// ResourceRequest is one request for one named-resources instance.
type ResourceRequest struct {
	VendorParameters runtime.RawExtension
	ResourceRequestModel
}

// ResourceRequestModel holds exactly one kind of request.
type ResourceRequestModel struct {
	NamedResources *NamedResourcesRequest
}

// NamedResourcesRequest selects an instance with a CEL expression.
type NamedResourcesRequest struct {
	Selector string
}

// ResourceClaimParametersList is a list of claim parameters.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimParametersList struct {
	metav1.TypeMeta
	metav1.ListMeta

	Items []ResourceClaimParameters
}

// ResourceClassParameters (legacy, v1alpha2 as of 1.30) is the structured
// form of a class's parameters.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClassParameters struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	GeneratedFrom    *ResourceClassParametersReference
	VendorParameters []VendorParameters
	Filters          []ResourceFilter
}

// VendorParameters is opaque configuration for one driver.
type VendorParameters struct {
	DriverName string
	Parameters runtime.RawExtension
}

// ResourceFilter is a filter on the instances of one driver.
type ResourceFilter struct {
	DriverName string
	ResourceFilterModel
}

// ResourceFilterModel holds exactly one kind of filter.
type ResourceFilterModel struct {
	NamedResources *NamedResourcesFilter
}

// NamedResourcesFilter filters instances with a CEL expression.
type NamedResourcesFilter struct {
	Selector string
}

// ResourceClassParametersList is a list of class parameters.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClassParametersList struct {
	metav1.TypeMeta
	metav1.ListMeta

	Items []ResourceClassParameters
}
