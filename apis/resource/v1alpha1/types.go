package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaim asks for a resource of one ResourceClass. A resource driver
// allocates it and records the outcome in the status; pods that use the
// claim are listed in status.reservedFor.
type ResourceClaim struct {
	metav1.TypeMeta `json:",inline"`
	// Object metadata. The name must be a DNS subdomain.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is what the claim asks for. It cannot be changed after creation.
	Spec ResourceClaimSpec `json:"spec" protobuf:"bytes,2,name=spec"`

	// Status is the allocation state. It is only written through the
	// status subresource and is cleared on create.
	// +optional
	Status ResourceClaimStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ResourceClaimSpec names the class of the wanted resource, optional
// class-specific parameters and when allocation should happen.
type ResourceClaimSpec struct {
	// ResourceClassName is the name of the ResourceClass to allocate from.
	// It must be a DNS subdomain.
	ResourceClassName string `json:"resourceClassName" protobuf:"bytes,1,name=resourceClassName"`

	// ParametersRef points to an object holding driver-specific parameters
	// for this claim, in the claim's namespace. Unset means no parameters.
	// +optional
	ParametersRef *ResourceClaimParametersReference `json:"parametersRef,omitempty" protobuf:"bytes,2,opt,name=parametersRef"`

	// AllocationMode is Immediate or WaitForFirstConsumer. Empty is
	// defaulted to WaitForFirstConsumer.
	// +optional
	AllocationMode AllocationMode `json:"allocationMode,omitempty" protobuf:"bytes,3,opt,name=allocationMode"`
}

// AllocationMode says when a claim gets allocated.
type AllocationMode string

const (
	// AllocationModeWaitForFirstConsumer delays allocation until a pod using the claim is being scheduled.
	AllocationModeWaitForFirstConsumer AllocationMode = "WaitForFirstConsumer"

	// AllocationModeImmediate allocates as soon as the claim exists, without regard to any pod.
	AllocationModeImmediate AllocationMode = "Immediate"
)

// ResourceClaimStatus reports whether the claim is allocated, by which
// driver, and who currently uses it.
type ResourceClaimStatus struct {
	// DriverName is the driver that handles this claim, copied from the
	// class. Required when allocation is set; must be a valid driver name.
	// +optional
	DriverName string `json:"driverName,omitempty" protobuf:"bytes,1,opt,name=driverName"`

	// Allocation is set by the driver once the resource is allocated.
	// +optional
	Allocation *AllocationResult `json:"allocation,omitempty" protobuf:"bytes,2,opt,name=allocation"`

	// ReservedFor lists the consumers allowed to use the claim now, keyed by
	// uid; at most 32 entries, and at most one unless the allocation is
	// shareable. Entries require an allocation, and none may be added while
	// the claim is being deleted or deallocated.
	// +listType=map
	// +listMapKey=uid
	// +optional
	ReservedFor []ResourceClaimConsumerReference `json:"reservedFor,omitempty" protobuf:"bytes,3,opt,name=reservedFor"`

	// DeallocationRequested asks the driver to free the allocation. It can
	// only be set while allocation is set and reservedFor is empty, and only
	// cleared once allocation has been removed.
	// +optional
	DeallocationRequested bool `json:"deallocationRequested,omitempty" protobuf:"varint,4,opt,name=deallocationRequested"`
}

// ResourceClaimReservedForMaxSize is the maximum number of entries in status.reservedFor.
const ResourceClaimReservedForMaxSize = 32

// AllocationResult describes an allocated resource.
type AllocationResult struct {
	// ResourceHandle is opaque data the driver stores for itself, for
	// example to find the resource again when a pod starts. At most 16384
	// bytes.
	// +optional
	ResourceHandle string `json:"resourceHandle,omitempty" protobuf:"bytes,1,opt,name=resourceHandle"`

	// AvailableOnNodes restricts the nodes that can reach the allocated
	// resource. Unset means every node.
	// +optional
	AvailableOnNodes *corev1.NodeSelector `json:"availableOnNodes,omitempty" protobuf:"bytes,2,opt,name=availableOnNodes"`

	// Shareable says whether more than one consumer may hold the claim at
	// the same time.
	// +optional
	Shareable bool `json:"shareable,omitempty" protobuf:"varint,3,opt,name=shareable"`
}

// ResourceHandleMaxSize is the maximum length in bytes of allocation.resourceHandle.
const ResourceHandleMaxSize = 16 * 1024

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaimList is a list of ResourceClaim objects.
type ResourceClaimList struct {
	metav1.TypeMeta `json:",inline"`
	// List metadata such as resourceVersion and the continue token.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the claims.
	Items []ResourceClaim `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodScheduling is the exchange point between the scheduler and resource
// drivers for one pod with claims in WaitForFirstConsumer mode. It has the
// same name and namespace as the pod and is owned by it.
type PodScheduling struct {
	metav1.TypeMeta `json:",inline"`
	// Object metadata. The name must be a valid pod name.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is written by the scheduler.
	Spec PodSchedulingSpec `json:"spec" protobuf:"bytes,2,name=spec"`

	// Status is written by the resource drivers.
	// +optional
	Status PodSchedulingStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// PodSchedulingSpec carries the scheduler's node choice and candidates.
type PodSchedulingSpec struct {
	// SelectedNode is the node the scheduler wants the pod on; drivers
	// should allocate the pending claims for it. Not validated.
	// +optional
	SelectedNode string `json:"selectedNode,omitempty" protobuf:"bytes,1,opt,name=selectedNode"`

	// PotentialNodes are nodes that fit the pod apart from its claims;
	// drivers report which of them cannot serve a claim. At most 128
	// distinct entries, each a DNS subdomain.
	// +listType=set
	// +optional
	PotentialNodes []string `json:"potentialNodes,omitempty" protobuf:"bytes,2,opt,name=potentialNodes"`
}

// PodSchedulingStatus carries the drivers' answers.
type PodSchedulingStatus struct {
	// ResourceClaims has one entry per pod claim in WaitForFirstConsumer
	// mode, keyed by name.
	// +listType=map
	// +listMapKey=name
	// +optional
	ResourceClaims []ResourceClaimSchedulingStatus `json:"resourceClaims,omitempty" protobuf:"bytes,1,opt,name=resourceClaims"`
}

// ResourceClaimSchedulingStatus is a driver's answer for one pod claim.
type ResourceClaimSchedulingStatus struct {
	// Name is the claim's entry name in pod.spec.resourceClaims.
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`

	// UnsuitableNodes are the potential nodes on which this claim cannot be
	// allocated. At most 128 distinct entries, each a DNS subdomain.
	// +listType=set
	// +optional
	UnsuitableNodes []string `json:"unsuitableNodes,omitempty" protobuf:"bytes,2,opt,name=unsuitableNodes"`
}

// PodSchedulingNodeListMaxSize is the maximum number of entries in potentialNodes and unsuitableNodes.
const PodSchedulingNodeListMaxSize = 128

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PodSchedulingList is a list of PodScheduling objects.
type PodSchedulingList struct {
	metav1.TypeMeta `json:",inline"`
	// List metadata such as resourceVersion and the continue token.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the PodScheduling objects.
	Items []PodScheduling `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClass is a cluster-wide kind of resource that claims refer to by
// name. It names the driver that serves it. Its fields sit at the top level
// (there is no spec) and all of them may be changed.
type ResourceClass struct {
	metav1.TypeMeta `json:",inline"`
	// Object metadata. The name must be a DNS subdomain.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// DriverName is the driver that allocates claims of this class. It must
	// be a valid driver name: at most 63 characters, a DNS subdomain once
	// lower-cased.
	DriverName string `json:"driverName" protobuf:"bytes,2,name=driverName"`

	// ParametersRef points to an object with driver-specific parameters for
	// the whole class. Unset means no parameters.
	// +optional
	ParametersRef *ResourceClassParametersReference `json:"parametersRef,omitempty" protobuf:"bytes,3,opt,name=parametersRef"`

	// SuitableNodes limits scheduling of pods using immediate or unallocated
	// claims of this class to the matching nodes. Unset means every node.
	// +optional
	SuitableNodes *corev1.NodeSelector `json:"suitableNodes,omitempty" protobuf:"bytes,4,opt,name=suitableNodes"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClassList is a list of ResourceClass objects.
type ResourceClassList struct {
	metav1.TypeMeta `json:",inline"`
	// List metadata such as resourceVersion and the continue token.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the classes.
	Items []ResourceClass `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ResourceClassParametersReference identifies the object that holds
// parameters for a ResourceClass.
type ResourceClassParametersReference struct {
	// APIGroup is the group of the referenced object; empty means the core
	// group.
	// +optional
	APIGroup string `json:"apiGroup,omitempty" protobuf:"bytes,1,opt,name=apiGroup"`
	// Kind is the kind of the referenced object. Required.
	Kind string `json:"kind" protobuf:"bytes,2,name=kind"`
	// Name is the name of the referenced object. Required.
	Name string `json:"name" protobuf:"bytes,3,name=name"`
	// Namespace holds the object if it is namespaced; empty for a
	// cluster-scoped object. If set, it must be a valid namespace name.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,4,opt,name=namespace"`
}

// ResourceClaimParametersReference identifies the object, in the claim's
// namespace, that holds parameters for a ResourceClaim.
type ResourceClaimParametersReference struct {
	// APIGroup is the group of the referenced object; empty means the core
	// group.
	// +optional
	APIGroup string `json:"apiGroup,omitempty" protobuf:"bytes,1,opt,name=apiGroup"`
	// Kind is the kind of the referenced object. Required.
	Kind string `json:"kind" protobuf:"bytes,2,name=kind"`
	// Name is the name of the referenced object. Required.
	Name string `json:"name" protobuf:"bytes,3,name=name"`
}

// ResourceClaimConsumerReference identifies an object, in the claim's
// namespace, that holds a reservation on the claim.
type ResourceClaimConsumerReference struct {
	// APIGroup is the group of the consumer; empty means the core group.
	// +optional
	APIGroup string `json:"apiGroup,omitempty" protobuf:"bytes,1,opt,name=apiGroup"`
	// Resource is the plural resource name of the consumer, e.g. "pods".
	// Required.
	Resource string `json:"resource" protobuf:"bytes,3,name=resource"`
	// Name is the name of the consumer. Required.
	Name string `json:"name" protobuf:"bytes,4,name=name"`
	// UID identifies this one instance of the consumer. Required, and
	// unique within reservedFor.
	UID types.UID `json:"uid" protobuf:"bytes,5,name=uid"`
}

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaimTemplate is a blueprint from which a ResourceClaim is created
// for each pod that references it.
type ResourceClaimTemplate struct {
	metav1.TypeMeta `json:",inline"`
	// Object metadata. The name must be a DNS subdomain.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is the content of the claims made from this template. It cannot
	// be changed after creation.
	Spec ResourceClaimTemplateSpec `json:"spec" protobuf:"bytes,2,name=spec"`
}

// ResourceClaimTemplateSpec is copied into each ResourceClaim made from a
// template.
type ResourceClaimTemplateSpec struct {
	// ObjectMeta gives labels and annotations for the new claim; no other
	// metadata field may be set here.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec becomes the spec of the new claim and is validated as one.
	Spec ResourceClaimSpec `json:"spec" protobuf:"bytes,2,name=spec"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceClaimTemplateList is a list of ResourceClaimTemplate objects.
type ResourceClaimTemplateList struct {
	metav1.TypeMeta `json:",inline"`
	// List metadata such as resourceVersion and the continue token.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the templates.
	Items []ResourceClaimTemplate `json:"items" protobuf:"bytes,2,rep,name=items"`
}
