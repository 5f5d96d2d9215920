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
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec DeviceClassSpec `json:"spec,omitempty"`
}

// DeviceClassSpec holds what a class says about the devices it admits.
type DeviceClassSpec struct {
	// Selectors must all accept a device for it to belong to the class.
	Selectors []DeviceSelector `json:"selectors,omitempty"`

	// Config is handed to the drivers of every device allocated through this class.
	Config []DeviceClassConfiguration `json:"config,omitempty"`

	// SuitableNodes limits the nodes a claim of this class may be allocated on
	// (v1alpha1/v1alpha2 suitableNodes, v1alpha3 spec.suitableNodes).
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
	DeviceConfiguration `json:",inline"`
}

// DeviceClassList is a list of classes.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type DeviceClassList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []DeviceClass `json:"items"`
}

// ResourceClassParametersReference (legacy) points at the object that holds
// class parameters.
type ResourceClassParametersReference struct {
	APIGroup  string `json:"apiGroup,omitempty"`
	Kind      string `json:"kind,omitempty"`
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
}

// ---------------------------------------------------------------------------
// Claims and claim templates.

// ResourceClaim asks for devices for one or more pods and records what was
// allocated.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaim struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ResourceClaimSpec   `json:"spec,omitempty"`
	Status ResourceClaimStatus `json:"status,omitempty"`
}

// ResourceClaimSpec describes what a claim asks for. A v1alpha1/v1alpha2
// claim's resourceClassName becomes one request named LegacyRequestName for
// exactly one device of that class.
type ResourceClaimSpec struct {
	// Devices says which devices are requested and how they are configured.
	Devices DeviceClaim `json:"devices,omitempty"`

	// Controller names the driver whose control-plane controller allocates
	// this claim; empty means the scheduler allocates (v1alpha3).
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
	APIGroup string `json:"apiGroup,omitempty"`
	Kind     string `json:"kind,omitempty"`
	Name     string `json:"name,omitempty"`
}

// DeviceClaim groups the device requests of a claim with their constraints
// and configuration.
type DeviceClaim struct {
	Requests    []DeviceRequest            `json:"requests"`
	Constraints []DeviceConstraint         `json:"constraints,omitempty"`
	Config      []DeviceClaimConfiguration `json:"config,omitempty"`
}

// DeviceRequest asks for devices of one class.
type DeviceRequest struct {
	Name            string               `json:"name,omitempty"`
	DeviceClassName string               `json:"deviceClassName,omitempty"`
	Selectors       []DeviceSelector     `json:"selectors,omitempty"`
	AllocationMode  DeviceAllocationMode `json:"allocationMode,omitempty"`
	Count           int64                `json:"count,omitempty"`
	AdminAccess     bool                 `json:"adminAccess,omitempty"`
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
	CEL *CELDeviceSelector `json:"cel,omitempty"`
}

// CELDeviceSelector is a CEL expression over the variable `device`.
type CELDeviceSelector struct {
	Expression string `json:"expression,omitempty"`
}

// DeviceConstraint relates the devices allocated for several requests.
type DeviceConstraint struct {
	Requests       []string            `json:"requests,omitempty"`
	MatchAttribute *FullyQualifiedName `json:"matchAttribute,omitempty"`
}

// DeviceClaimConfiguration is configuration for some (or all) requests of a claim.
type DeviceClaimConfiguration struct {
	Requests            []string `json:"requests,omitempty"`
	DeviceConfiguration `json:",inline"`
}

// DeviceConfiguration holds exactly one kind of configuration.
type DeviceConfiguration struct {
	Opaque *OpaqueDeviceConfiguration `json:"opaque,omitempty"`
}

// OpaqueDeviceConfiguration is driver-specific configuration passed through
// as it is.
type OpaqueDeviceConfiguration struct {
	Driver     string               `json:"driver,omitempty"`
	Parameters runtime.RawExtension `json:"parameters,omitempty"`
}

// ResourceClaimStatus records the allocation and who uses it.
type ResourceClaimStatus struct {
	Allocation            *AllocationResult                `json:"allocation,omitempty"`
	ReservedFor           []ResourceClaimConsumerReference `json:"reservedFor,omitempty"`
	DeallocationRequested bool                             `json:"deallocationRequested,omitempty"`

	// DriverName (legacy, v1alpha1/v1alpha2) is the driver that handled the
	// allocation.
	DriverName string `json:"driverName,omitempty"`
}

// ResourceClaimConsumerReference names an object that uses a claim.
type ResourceClaimConsumerReference struct {
	APIGroup string    `json:"apiGroup,omitempty"`
	Resource string    `json:"resource,omitempty"`
	Name     string    `json:"name,omitempty"`
	UID      types.UID `json:"uid,omitempty"`
}

// AllocationResult is what was allocated for a claim. The v1alpha1 single
// resourceHandle is the Data of the first entry of ResourceHandles, with the
// status' DriverName as its DriverName.
type AllocationResult struct {
	// Devices lists the allocated devices and their configuration (v1alpha3).
	Devices DeviceAllocationResult `json:"devices,omitempty"`

	// NodeSelector says where the allocation is usable
	// (v1alpha1/v1alpha2 availableOnNodes, v1alpha3 nodeSelector).
	NodeSelector *corev1.NodeSelector `json:"nodeSelector,omitempty"`

	// Controller is the driver whose controller allocated (v1alpha3).
	Controller string `json:"controller,omitempty"`

	// ResourceHandles (legacy, v1alpha1/v1alpha2) are per-driver opaque or
	// structured allocation handles.
	ResourceHandles []ResourceHandle `json:"resourceHandles,omitempty"`

	// Shareable (legacy, v1alpha1/v1alpha2) allows more than one consumer.
	Shareable bool `json:"shareable,omitempty"`
}

// DeviceAllocationResult lists allocated devices and the configuration that
// goes with them.
type DeviceAllocationResult struct {
	Results []DeviceRequestAllocationResult `json:"results,omitempty"`
	Config  []DeviceAllocationConfiguration `json:"config,omitempty"`
}

// DeviceRequestAllocationResult is one device allocated for one request.
type DeviceRequestAllocationResult struct {
	Request string `json:"request,omitempty"`
	Driver  string `json:"driver,omitempty"`
	Pool    string `json:"pool,omitempty"`
	Device  string `json:"device,omitempty"`
}

// DeviceAllocationConfiguration is configuration copied into an allocation,
// with where it came from.
type DeviceAllocationConfiguration struct {
	Source              AllocationConfigSource `json:"source,omitempty"`
	Requests            []string               `json:"requests,omitempty"`
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
	DriverName     string                    `json:"driverName,omitempty"`
	Data           string                    `json:"data,omitempty"`
	StructuredData *StructuredResourceHandle `json:"structuredData,omitempty"`
}

// StructuredResourceHandle (legacy, v1alpha2 as of 1.30) is an allocation
// made by the scheduler from named resources.
type StructuredResourceHandle struct {
	VendorClassParameters runtime.RawExtension     `json:"vendorClassParameters,omitempty"`
	VendorClaimParameters runtime.RawExtension     `json:"vendorClaimParameters,omitempty"`
	NodeName              string                   `json:"nodeName,omitempty"`
	Results               []DriverAllocationResult `json:"results"`
}

// DriverAllocationResult (legacy) is one allocated named-resources instance.
type DriverAllocationResult struct {
	VendorRequestParameters runtime.RawExtension `json:"vendorRequestParameters,omitempty"`
	AllocationResultModel   `json:",inline"`
}

// AllocationResultModel (legacy) holds exactly one kind of allocation result.
type AllocationResultModel struct {
	NamedResources *NamedResourcesAllocationResult `json:"namedResources,omitempty"`
}

// NamedResourcesAllocationResult (legacy) names the allocated instance.
type NamedResourcesAllocationResult struct {
	Name string `json:"name,omitempty"`
}

// ResourceClaimList is a list of claims.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []ResourceClaim `json:"items"`
}

// ResourceClaimTemplate is the blueprint from which claims are made for pods.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimTemplate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ResourceClaimTemplateSpec `json:"spec,omitempty"`
}

// ResourceClaimTemplateSpec is the metadata and spec that each claim made
// from the template gets.
type ResourceClaimTemplateSpec struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ResourceClaimSpec `json:"spec,omitempty"`
}

// ResourceClaimTemplateList is a list of claim templates.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimTemplateList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []ResourceClaimTemplate `json:"items"`
}

// ---------------------------------------------------------------------------
// Scheduling context: PodScheduling (v1alpha1), PodSchedulingContext (v1alpha2, v1alpha3).

// PodSchedulingContext is the exchange between the scheduler and drivers
// about where a pod with claims can run.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type PodSchedulingContext struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PodSchedulingContextSpec   `json:"spec,omitempty"`
	Status PodSchedulingContextStatus `json:"status,omitempty"`
}

// PodSchedulingContextSpec is written by the scheduler.
type PodSchedulingContextSpec struct {
	SelectedNode   string   `json:"selectedNode,omitempty"`
	PotentialNodes []string `json:"potentialNodes,omitempty"`
}

// PodSchedulingContextStatus is written by drivers.
type PodSchedulingContextStatus struct {
	ResourceClaims []ResourceClaimSchedulingStatus `json:"resourceClaims,omitempty"`
}

// ResourceClaimSchedulingStatus says on which nodes one claim cannot be allocated.
type ResourceClaimSchedulingStatus struct {
	Name            string   `json:"name,omitempty"`
	UnsuitableNodes []string `json:"unsuitableNodes,omitempty"`
}

// PodSchedulingContextList is a list of scheduling contexts.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type PodSchedulingContextList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

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
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ResourceSliceSpec `json:"spec,omitempty"`
}

// ResourceSliceSpec describes the devices of one slice and where they are reachable.
type ResourceSliceSpec struct {
	Driver       string               `json:"driver,omitempty"`
	Pool         ResourcePool         `json:"pool,omitempty"`
	NodeName     string               `json:"nodeName,omitempty"`
	NodeSelector *corev1.NodeSelector `json:"nodeSelector,omitempty"`
	AllNodes     bool                 `json:"allNodes,omitempty"`
	Devices      []Device             `json:"devices"`

	// NoResourceModel (legacy, v1alpha2) records a slice that names no
	// resource model at all. The v1alpha2 server rejects such a slice, but a
	// manifest can still say it, and conversion must give it back unchanged.
	NoResourceModel bool `json:"noResourceModel,omitempty"`
}

// ResourcePool identifies the pool a slice belongs to and its generation.
type ResourcePool struct {
	Name               string `json:"name,omitempty"`
	Generation         int64  `json:"generation,omitempty"`
	ResourceSliceCount int64  `json:"resourceSliceCount,omitempty"`
}

// Device is one device (a v1alpha2 named-resources instance).
type Device struct {
	Name  string       `json:"name,omitempty"`
	Basic *BasicDevice `json:"basic,omitempty"`
}

// BasicDevice holds a device's attributes. Unlike the v1alpha3 maps, the hub
// keeps them as one ordered list, because v1alpha2 lists them in an order of
// its own and types quantities as attributes: a v1alpha3 device is the case
// where attributes come sorted by name, followed by the capacities (entries
// with QuantityValue) sorted by name.
type BasicDevice struct {
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
	Name QualifiedName `json:"name,omitempty"`

	IntValue     *int64  `json:"int,omitempty"`
	BoolValue    *bool   `json:"bool,omitempty"`
	StringValue  *string `json:"string,omitempty"`
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
	Ints []int64 `json:"ints"`
}

// StringSlice (legacy) is a list of strings.
type StringSlice struct {
	Strings []string `json:"strings"`
}

// ResourceSliceList is a list of slices.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceSliceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

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
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	GeneratedFrom  *ResourceClaimParametersReference `json:"generatedFrom,omitempty"`
	Shareable      bool                              `json:"shareable,omitempty"`
	DriverRequests []DriverRequests                  `json:"driverRequests,omitempty"`
}

// DriverRequests are the requests for one driver.
type DriverRequests struct {
	DriverName       string               `json:"driverName,omitempty"`
	VendorParameters runtime.RawExtension `json:"vendorParameters,omitempty"`
	Requests         []ResourceRequest    `json:"requests,omitempty"`
}

// ResourceRequest is one request for one named-resources instance.
type ResourceRequest struct {
	VendorParameters     runtime.RawExtension `json:"vendorParameters,omitempty"`
	ResourceRequestModel `json:",inline"`
}

// ResourceRequestModel holds exactly one kind of request.
type ResourceRequestModel struct {
	NamedResources *NamedResourcesRequest `json:"namedResources,omitempty"`
}

// NamedResourcesRequest selects an instance with a CEL expression.
type NamedResourcesRequest struct {
	Selector string `json:"selector,omitempty"`
}

// ResourceClaimParametersList is a list of claim parameters.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClaimParametersList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []ResourceClaimParameters `json:"items"`
}

// ResourceClassParameters (legacy, v1alpha2 as of 1.30) is the structured
// form of a class's parameters.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClassParameters struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	GeneratedFrom    *ResourceClassParametersReference `json:"generatedFrom,omitempty"`
	VendorParameters []VendorParameters                `json:"vendorParameters,omitempty"`
	Filters          []ResourceFilter                  `json:"filters,omitempty"`
}

// VendorParameters is opaque configuration for one driver.
type VendorParameters struct {
	DriverName string               `json:"driverName,omitempty"`
	Parameters runtime.RawExtension `json:"parameters,omitempty"`
}

// ResourceFilter is a filter on the instances of one driver.
type ResourceFilter struct {
	DriverName          string `json:"driverName,omitempty"`
	ResourceFilterModel `json:",inline"`
}

// ResourceFilterModel holds exactly one kind of filter.
type ResourceFilterModel struct {
	NamedResources *NamedResourcesFilter `json:"namedResources,omitempty"`
}

// NamedResourcesFilter filters instances with a CEL expression.
type NamedResourcesFilter struct {
	Selector string `json:"selector,omitempty"`
}

// ResourceClassParametersList is a list of class parameters.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceClassParametersList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []ResourceClassParameters `json:"items"`
}
