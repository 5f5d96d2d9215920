package v1alpha2

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

const (
	// Finalizer is put on a ResourceClaim by the allocating component so the
	// claim is not removed while its resources are still allocated.
	Finalizer = "dra.k8s.io/delete-protection"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaim is a request, made on behalf of one or more pods, for
// resources of a given ResourceClass. The spec says what is wanted; the status
// records the allocation and who is using it.
type ResourceClaim struct {
	metav1.TypeMeta `json:",inline"`
	// Standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is the requested resource. It cannot be changed after creation.
	Spec ResourceClaimSpec `json:"spec" protobuf:"bytes,2,name=spec"`

	// Status is written by the driver and the scheduler, never by the creator
	// of the claim.
	// +optional
	Status ResourceClaimStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ResourceClaimSpec describes the resource a claim asks for.
type ResourceClaimSpec struct {
	// ResourceClassName names the ResourceClass to allocate from. It must be a
	// DNS subdomain.
	ResourceClassName string `json:"resourceClassName" protobuf:"bytes,1,name=resourceClassName"`

	// ParametersRef points to an object in the claim's namespace holding
	// driver-specific settings for this claim.
	// +optional
	ParametersRef *ResourceClaimParametersReference `json:"parametersRef,omitempty" protobuf:"bytes,2,opt,name=parametersRef"`

	// AllocationMode says when to allocate: right away (Immediate) or once
	// the first pod using the claim is scheduled (WaitForFirstConsumer, the
	// default).
	// +optional
	AllocationMode AllocationMode `json:"allocationMode,omitempty" protobuf:"bytes,3,opt,name=allocationMode"`
}

// AllocationMode selects the moment at which a claim gets allocated.
type AllocationMode string

const (
	// AllocationModeWaitForFirstConsumer delays allocation until a pod that
	// uses the claim is being scheduled.
	AllocationModeWaitForFirstConsumer AllocationMode = "WaitForFirstConsumer"

	// AllocationModeImmediate allocates as soon as the claim exists.
	AllocationModeImmediate AllocationMode = "Immediate"
)

// ResourceClaimStatus reports whether a claim is allocated and who may use it.
type ResourceClaimStatus struct {
	// DriverName is copied from the class when allocation starts; it names the
	// driver that handles this claim.
	// +optional
	DriverName string `json:"driverName,omitempty" protobuf:"bytes,1,opt,name=driverName"`

	// Allocation is set once the resources have been allocated. After that it
	// may only be removed, not changed.
	// +optional
	Allocation *AllocationResult `json:"allocation,omitempty" protobuf:"bytes,2,opt,name=allocation"`

	// ReservedFor lists the consumers that may use the claim right now,
	// keyed by UID. At most ResourceClaimReservedForMaxSize entries; a claim
	// that is not shareable may have only one.
	//
	// +listType=map
	// +listMapKey=uid
	// +patchStrategy=merge
	// +patchMergeKey=uid
	// +optional
	ReservedFor []ResourceClaimConsumerReference `json:"reservedFor,omitempty" protobuf:"bytes,3,opt,name=reservedFor" patchStrategy:"merge" patchMergeKey:"uid"`

	// DeallocationRequested asks the driver to free the allocation. It needs
	// an allocation, cannot be set while ReservedFor is non-empty, and stays
	// set until the allocation is gone.
	// +optional
	DeallocationRequested bool `json:"deallocationRequested,omitempty" protobuf:"varint,4,opt,name=deallocationRequested"`
}

// ResourceClaimReservedForMaxSize is the largest number of consumers that
// status.reservedFor may hold.
const ResourceClaimReservedForMaxSize = 32

// AllocationResult describes what was allocated for a claim.
type AllocationResult struct {
	// ResourceHandles carries one entry per driver (or per driver-managed
	// piece) involved in the allocation; kubelet passes each to the matching
	// driver. At most AllocationResultResourceHandlesMaxSize entries.
	//
	// +listType=atomic
	// +optional
	ResourceHandles []ResourceHandle `json:"resourceHandles,omitempty" protobuf:"bytes,1,opt,name=resourceHandles"`

	// AvailableOnNodes restricts the nodes on which the allocated resources
	// can be used. Unset means every node.
	// +optional
	AvailableOnNodes *corev1.NodeSelector `json:"availableOnNodes,omitempty" protobuf:"bytes,2,opt,name=availableOnNodes"`

	// Shareable tells whether more than one consumer may use the claim at the
	// same time.
	// +optional
	Shareable bool `json:"shareable,omitempty" protobuf:"varint,3,opt,name=shareable"`
}

// AllocationResultResourceHandlesMaxSize caps the length of
// status.allocation.resourceHandles.
const AllocationResultResourceHandlesMaxSize = 32

// ResourceHandle is the allocation data handed to one kubelet plugin.
type ResourceHandle struct {
	// DriverName is the kubelet plugin that receives this handle. It may
	// differ from the claim's driver when a control plane driver delegates.
	// Validated with the driver-name rule.
	DriverName string `json:"driverName,omitempty" protobuf:"bytes,1,opt,name=driverName"`

	// Data is an opaque string, at most ResourceHandleDataMaxSize bytes,
	// written by the control plane driver for its kubelet plugin.
	// +optional
	Data string `json:"data,omitempty" protobuf:"bytes,2,opt,name=data"`

	// StructuredData is the allocation made from structured parameters. It
	// cannot be combined with a non-empty Data.
	// +optional
	StructuredData *StructuredResourceHandle `json:"structuredData,omitempty" protobuf:"bytes,5,opt,name=structuredData"`
}

// ResourceHandleDataMaxSize is the limit, in bytes, on resourceHandles[].data.
const ResourceHandleDataMaxSize = 16 * 1024

// StructuredResourceHandle records an allocation made by the scheduler from
// structured parameters, together with the vendor settings that apply to it.
type StructuredResourceHandle struct {
	// VendorClassParameters are the driver's settings taken from the class
	// parameters.
	// +optional
	VendorClassParameters runtime.RawExtension `json:"vendorClassParameters,omitempty" protobuf:"bytes,1,opt,name=vendorClassParameters"`

	// VendorClaimParameters are the driver's settings taken from the claim
	// parameters.
	// +optional
	VendorClaimParameters runtime.RawExtension `json:"vendorClaimParameters,omitempty" protobuf:"bytes,2,opt,name=vendorClaimParameters"`

	// NodeName is the node whose resources were allocated; if non-empty, a
	// DNS subdomain.
	// +optional
	NodeName string `json:"nodeName,omitempty" protobuf:"bytes,4,name=nodeName"`

	// Results lists what was allocated, one entry per satisfied request.
	//
	// +listType=atomic
	Results []DriverAllocationResult `json:"results" protobuf:"bytes,5,name=results"`
}

// DriverAllocationResult is one allocated item plus the request settings that
// came with it.
type DriverAllocationResult struct {
	// VendorRequestParameters are the driver's settings from the request that
	// this result satisfies.
	// +optional
	VendorRequestParameters runtime.RawExtension `json:"vendorRequestParameters,omitempty" protobuf:"bytes,1,opt,name=vendorRequestParameters"`

	AllocationResultModel `json:",inline" protobuf:"bytes,2,name=allocationResultModel"`
}

// AllocationResultModel holds the allocation in the form of one resource
// model. Exactly one field must be set.
type AllocationResultModel struct {
	// NamedResources is the result for the named-resources model.
	// +optional
	NamedResources *NamedResourcesAllocationResult `json:"namedResources,omitempty" protobuf:"bytes,1,opt,name=namedResources"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaimList is a list of ResourceClaim objects.
type ResourceClaimList struct {
	metav1.TypeMeta `json:",inline"`
	// Standard list metadata.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the claims.
	Items []ResourceClaim `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodSchedulingContext lets the scheduler and the resource drivers agree on a
// node for a pod whose claims use WaitForFirstConsumer. It carries the pod's
// name and namespace and is owned by the pod.
type PodSchedulingContext struct {
	metav1.TypeMeta `json:",inline"`
	// Standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is written by the scheduler.
	Spec PodSchedulingContextSpec `json:"spec" protobuf:"bytes,2,name=spec"`

	// Status is written by the resource drivers.
	// +optional
	Status PodSchedulingContextStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// PodSchedulingContextSpec is the scheduler's side of the negotiation.
type PodSchedulingContextSpec struct {
	// SelectedNode is the node the scheduler wants to use; drivers should
	// allocate the pod's pending claims for it.
	// +optional
	SelectedNode string `json:"selectedNode,omitempty" protobuf:"bytes,1,opt,name=selectedNode"`

	// PotentialNodes are nodes that would fit the pod apart from its claims.
	// Drivers report which of them cannot work. At most
	// PodSchedulingNodeListMaxSize entries, no duplicates.
	//
	// +listType=atomic
	// +optional
	PotentialNodes []string `json:"potentialNodes,omitempty" protobuf:"bytes,2,opt,name=potentialNodes"`
}

// PodSchedulingContextStatus is the drivers' side of the negotiation.
type PodSchedulingContextStatus struct {
	// ResourceClaims has one entry per pod claim that uses delayed
	// allocation, keyed by the claim's name in the pod spec.
	//
	// +listType=map
	// +listMapKey=name
	// +optional
	ResourceClaims []ResourceClaimSchedulingStatus `json:"resourceClaims,omitempty" protobuf:"bytes,1,opt,name=resourceClaims"`
}

// ResourceClaimSchedulingStatus is a driver's answer for one claim of the pod.
type ResourceClaimSchedulingStatus struct {
	// Name is the entry name in pod.spec.resourceClaims.
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`

	// UnsuitableNodes are the potential nodes on which this claim cannot be
	// allocated. At most PodSchedulingNodeListMaxSize entries, no duplicates.
	//
	// +listType=atomic
	// +optional
	UnsuitableNodes []string `json:"unsuitableNodes,omitempty" protobuf:"bytes,2,opt,name=unsuitableNodes"`
}

// PodSchedulingNodeListMaxSize is the limit on potentialNodes and on each
// unsuitableNodes list.
const PodSchedulingNodeListMaxSize = 128

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodSchedulingContextList is a list of PodSchedulingContext objects.
type PodSchedulingContextList struct {
	metav1.TypeMeta `json:",inline"`
	// Standard list metadata.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the scheduling contexts.
	Items []PodSchedulingContext `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClass names the driver that serves a kind of resource and the
// parameters common to all claims of that class. It is cluster-scoped and has
// no spec: its fields sit at the top level.
type ResourceClass struct {
	metav1.TypeMeta `json:",inline"`
	// Standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// DriverName is the driver responsible for claims of this class. Validated
	// with the driver-name rule.
	DriverName string `json:"driverName" protobuf:"bytes,2,name=driverName"`

	// ParametersRef points to an object with driver-specific settings for the
	// class.
	// +optional
	ParametersRef *ResourceClassParametersReference `json:"parametersRef,omitempty" protobuf:"bytes,3,opt,name=parametersRef"`

	// SuitableNodes limits the nodes the scheduler considers for pods with
	// claims of this class. Unset means every node.
	// +optional
	SuitableNodes *corev1.NodeSelector `json:"suitableNodes,omitempty" protobuf:"bytes,4,opt,name=suitableNodes"`

	// StructuredParameters, when true, tells the scheduler to allocate
	// claims of this class itself from structured parameters instead of
	// waiting for a control plane driver.
	// +optional
	StructuredParameters *bool `json:"structuredParameters,omitempty" protobuf:"bytes,5,opt,name=structuredParameters"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClassList is a list of ResourceClass objects.
type ResourceClassList struct {
	metav1.TypeMeta `json:",inline"`
	// Standard list metadata.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the classes.
	Items []ResourceClass `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ResourceClassParametersReference points to the object holding a class's
// parameters.
type ResourceClassParametersReference struct {
	// APIGroup of the referenced object; empty means the core group.
	// +optional
	APIGroup string `json:"apiGroup,omitempty" protobuf:"bytes,1,opt,name=apiGroup"`
	// Kind of the referenced object. Required.
	Kind string `json:"kind" protobuf:"bytes,2,name=kind"`
	// Name of the referenced object. Required.
	Name string `json:"name" protobuf:"bytes,3,name=name"`
	// Namespace of the referenced object; empty for cluster-scoped objects.
	// If non-empty, a valid namespace name.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,4,opt,name=namespace"`
}

// ResourceClaimParametersReference points to the object, in the claim's
// namespace, holding a claim's parameters.
type ResourceClaimParametersReference struct {
	// APIGroup of the referenced object; empty means the core group.
	// +optional
	APIGroup string `json:"apiGroup,omitempty" protobuf:"bytes,1,opt,name=apiGroup"`
	// Kind of the referenced object. Required.
	Kind string `json:"kind" protobuf:"bytes,2,name=kind"`
	// Name of the referenced object. Required.
	Name string `json:"name" protobuf:"bytes,3,name=name"`
}

// ResourceClaimConsumerReference identifies an object, in the claim's
// namespace, that uses the claim (usually a pod).
type ResourceClaimConsumerReference struct {
	// APIGroup of the consumer; empty means the core group.
	// +optional
	APIGroup string `json:"apiGroup,omitempty" protobuf:"bytes,1,opt,name=apiGroup"`
	// Resource is the consumer's resource type, e.g. "pods". Required.
	Resource string `json:"resource" protobuf:"bytes,3,name=resource"`
	// Name of the consumer. Required.
	Name string `json:"name" protobuf:"bytes,4,name=name"`
	// UID of the consumer; it keys the reservedFor list. Required.
	UID types.UID `json:"uid" protobuf:"bytes,5,name=uid"`
}

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaimTemplate is the blueprint from which a ResourceClaim is made
// for each pod that refers to it.
type ResourceClaimTemplate struct {
	metav1.TypeMeta `json:",inline"`
	// Standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is copied into every generated claim. It cannot be changed after
	// creation.
	Spec ResourceClaimTemplateSpec `json:"spec" protobuf:"bytes,2,name=spec"`
}

// ResourceClaimTemplateSpec holds what a generated claim gets.
type ResourceClaimTemplateSpec struct {
	// ObjectMeta supplies labels and annotations for the generated claim; no
	// other metadata field may be set.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec becomes the spec of the generated claim.
	Spec ResourceClaimSpec `json:"spec" protobuf:"bytes,2,name=spec"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaimTemplateList is a list of ResourceClaimTemplate objects.
type ResourceClaimTemplateList struct {
	metav1.TypeMeta `json:",inline"`
	// Standard list metadata.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the templates.
	Items []ResourceClaimTemplate `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceSlice publishes, for one driver and (optionally) one node, the
// resources that the scheduler may allocate from structured parameters. It is
// cluster-scoped and keeps its fields at the top level.
type ResourceSlice struct {
	metav1.TypeMeta `json:",inline"`
	// Standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// NodeName is the node that offers these resources; empty for resources
	// not tied to a node. When set it must be a DNS subdomain. Immutable.
	// +optional
	NodeName string `json:"nodeName,omitempty" protobuf:"bytes,2,opt,name=nodeName"`

	// DriverName is the driver that publishes the slice. Validated with the
	// driver-name rule. Immutable.
	DriverName string `json:"driverName" protobuf:"bytes,3,name=driverName"`

	ResourceModel `json:",inline" protobuf:"bytes,4,name=resourceModel"`
}

// ResourceModel describes the available resources in the terms of one
// resource model. Exactly one field must be set.
type ResourceModel struct {
	// NamedResources lists individually named resource instances.
	// +optional
	NamedResources *NamedResourcesResources `json:"namedResources,omitempty" protobuf:"bytes,1,opt,name=namedResources"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceSliceList is a list of ResourceSlice objects.
type ResourceSliceList struct {
	metav1.TypeMeta `json:",inline"`
	// Standard list metadata.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the slices.
	Items []ResourceSlice `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaimParameters holds claim parameters in a form the scheduler can
// evaluate itself. A claim refers to it directly, or a driver generates it
// from its own parameter object.
type ResourceClaimParameters struct {
	metav1.TypeMeta `json:",inline"`
	// Standard object metadata.
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// GeneratedFrom names the vendor object, in the same namespace, that this
	// object was derived from. Consumers look objects up by this field.
	// +optional
	GeneratedFrom *ResourceClaimParametersReference `json:"generatedFrom,omitempty" protobuf:"bytes,2,opt,name=generatedFrom"`

	// Shareable says whether the allocated claim may serve several
	// consumers at once.
	// +optional
	Shareable bool `json:"shareable,omitempty" protobuf:"bytes,3,opt,name=shareable"`

	// DriverRequests groups the requests per driver. Each driver may appear
	// at most once.
	//
	// +listType=atomic
	DriverRequests []DriverRequests `json:"driverRequests,omitempty" protobuf:"bytes,4,opt,name=driverRequests"`
}

// DriverRequests collects the requests addressed to one driver.
type DriverRequests struct {
	// DriverName is the driver these requests are for. Validated with the
	// driver-name rule.
	DriverName string `json:"driverName,omitempty" protobuf:"bytes,1,opt,name=driverName"`

	// VendorParameters are driver settings that apply to all requests of
	// this entry; they are copied into the allocation result.
	// +optional
	VendorParameters runtime.RawExtension `json:"vendorParameters,omitempty" protobuf:"bytes,2,opt,name=vendorParameters"`

	// Requests must all be satisfied for the claim to be allocated. At least
	// one is required.
	//
	// +listType=atomic
	Requests []ResourceRequest `json:"requests,omitempty" protobuf:"bytes,3,opt,name=requests"`
}

// ResourceRequest asks for one resource instance.
type ResourceRequest struct {
	// VendorParameters are driver settings for this request; they are copied
	// into the matching allocation result.
	// +optional
	VendorParameters runtime.RawExtension `json:"vendorParameters,omitempty" protobuf:"bytes,1,opt,name=vendorParameters"`

	ResourceRequestModel `json:",inline" protobuf:"bytes,2,name=resourceRequestModel"`
}

// ResourceRequestModel expresses a request in one resource model. Exactly one
// field must be set.
type ResourceRequestModel struct {
	// NamedResources is the request for the named-resources model.
	// +optional
	NamedResources *NamedResourcesRequest `json:"namedResources,omitempty" protobuf:"bytes,1,opt,name=namedResources"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaimParametersList is a list of ResourceClaimParameters objects.
type ResourceClaimParametersList struct {
	metav1.TypeMeta `json:",inline"`
	// Standard list metadata.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the claim parameter objects.
	Items []ResourceClaimParameters `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClassParameters holds class parameters in a form the scheduler can
// evaluate itself. Although a class is cluster-scoped, this kind is
// namespaced.
type ResourceClassParameters struct {
	metav1.TypeMeta `json:",inline"`
	// Standard object metadata.
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// GeneratedFrom names the vendor object this object was derived from.
	// Consumers look objects up by this field.
	// +optional
	GeneratedFrom *ResourceClassParametersReference `json:"generatedFrom,omitempty" protobuf:"bytes,2,opt,name=generatedFrom"`

	// VendorParameters are per-driver settings copied into every allocation
	// of the class. Each driver may appear at most once.
	//
	// +listType=atomic
	// +optional
	VendorParameters []VendorParameters `json:"vendorParameters,omitempty" protobuf:"bytes,3,opt,name=vendorParameters"`

	// Filters restrict, per driver, which resources claims of the class may
	// get. Each driver may appear at most once.
	//
	// +listType=atomic
	Filters []ResourceFilter `json:"filters,omitempty" protobuf:"bytes,4,opt,name=filters"`
}

// ResourceFilter is a restriction for the resources of one driver.
type ResourceFilter struct {
	// DriverName is the driver the filter applies to. Validated with the
	// driver-name rule.
	DriverName string `json:"driverName,omitempty" protobuf:"bytes,1,opt,name=driverName"`

	ResourceFilterModel `json:",inline" protobuf:"bytes,2,name=resourceFilterModel"`
}

// ResourceFilterModel expresses a filter in one resource model. Exactly one
// field must be set.
type ResourceFilterModel struct {
	// NamedResources is the filter for the named-resources model.
	// +optional
	NamedResources *NamedResourcesFilter `json:"namedResources,omitempty" protobuf:"bytes,1,opt,name=namedResources"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClassParametersList is a list of ResourceClassParameters objects.
type ResourceClassParametersList struct {
	metav1.TypeMeta `json:",inline"`
	// Standard list metadata.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the class parameter objects.
	Items []ResourceClassParameters `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// VendorParameters are opaque settings for one driver.
type VendorParameters struct {
	// DriverName is the driver the settings are for. Validated with the
	// driver-name rule.
	DriverName string `json:"driverName,omitempty" protobuf:"bytes,1,opt,name=driverName"`

	// Parameters are the settings, in a format only the driver knows.
	// +optional
	Parameters runtime.RawExtension `json:"parameters,omitempty" protobuf:"bytes,2,opt,name=parameters"`
}

// NamedResourcesResources is the inventory of the named-resources model: a
// list of distinct instances.
type NamedResourcesResources struct {
	// Instances are the available instances. Names must be unique.
	//
	// +listType=atomic
	Instances []NamedResourcesInstance `json:"instances" protobuf:"bytes,1,name=instances"`
}

// NamedResourcesInstance is one allocatable instance.
type NamedResourcesInstance struct {
	// Name identifies the instance within its slice; a DNS subdomain.
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	// Attributes describe the instance for selectors. Names must be unique.
	//
	// +listType=atomic
	// +optional
	Attributes []NamedResourcesAttribute `json:"attributes,omitempty" protobuf:"bytes,2,opt,name=attributes"`
}

// NamedResourcesAttribute is a named, typed value of an instance.
type NamedResourcesAttribute struct {
	// Name of the attribute, a DNS subdomain. Selectors refer to it as
	// attributes.<type>["<name>"].
	Name string `json:"name" protobuf:"bytes,1,name=name"`

	NamedResourcesAttributeValue `json:",inline" protobuf:"bytes,2,opt,name=attributeValue"`
}

// NamedResourcesAttributeValue holds an attribute's value. Exactly one field
// must be set; the field chosen is the attribute's type.
type NamedResourcesAttributeValue struct {
	// QuantityValue holds the attribute as a Quantity (e.g. "8Gi").
	QuantityValue *resource.Quantity `json:"quantity,omitempty" protobuf:"bytes,6,opt,name=quantity"`
	// BoolValue holds the attribute as true or false.
	BoolValue *bool `json:"bool,omitempty" protobuf:"bytes,2,opt,name=bool"`
	// IntValue holds the attribute as a signed int64.
	IntValue *int64 `json:"int,omitempty" protobuf:"varint,7,opt,name=int"`
	// IntSliceValue holds the attribute as a list of int64 numbers.
	IntSliceValue *NamedResourcesIntSlice `json:"intSlice,omitempty" protobuf:"varint,8,rep,name=intSlice"`
	// StringValue holds the attribute as free text (no length limit).
	StringValue *string `json:"string,omitempty" protobuf:"bytes,5,opt,name=string"`
	// StringSliceValue holds the attribute as a list of texts.
	StringSliceValue *NamedResourcesStringSlice `json:"stringSlice,omitempty" protobuf:"bytes,9,rep,name=stringSlice"`
	// VersionValue holds the attribute as a SemVer 2.0.0 string such as
	// "1.2.3-rc.1".
	VersionValue *string `json:"version,omitempty" protobuf:"bytes,10,opt,name=version"`
}

// NamedResourcesIntSlice wraps a list of integers.
type NamedResourcesIntSlice struct {
	// Ints are the values.
	//
	// +listType=atomic
	Ints []int64 `json:"ints" protobuf:"bytes,1,opt,name=ints"`
}

// NamedResourcesStringSlice wraps a list of strings.
type NamedResourcesStringSlice struct {
	// Strings are the values.
	//
	// +listType=atomic
	Strings []string `json:"strings" protobuf:"bytes,1,opt,name=strings"`
}

// NamedResourcesRequest picks one instance in the named-resources model.
type NamedResourcesRequest struct {
	// Selector holds a CEL expression, evaluated per instance, that must return
	// true for an instance to qualify. Required.
	Selector string `json:"selector" protobuf:"bytes,1,name=selector"`
}

// NamedResourcesFilter limits the instances usable in the named-resources
// model.
type NamedResourcesFilter struct {
	// Selector holds a CEL expression, evaluated per instance, that must return
	// true for an instance to be usable. Required.
	Selector string `json:"selector" protobuf:"bytes,1,name=selector"`
}

// NamedResourcesAllocationResult names the instance that was allocated.
type NamedResourcesAllocationResult struct {
	// Name is the instance name from the ResourceSlice; a DNS subdomain.
	Name string `json:"name" protobuf:"bytes,1,name=name"`
}
