package v1alpha3

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// This file holds ResourcePoolStatusRequest, which resource.k8s.io/v1alpha3
// serves from Kubernetes 1.36 on, in its 1.37 shape (1.37 added
// spec.defaultPartitionTypeAttribute and the partition and shareable
// summaries of a pool).

// +genclient
// +genclient:nonNamespaced
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
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +required
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec says which pools to report on. Immutable.
	//
	// +required
	Spec ResourcePoolStatusRequestSpec `json:"spec" protobuf:"bytes,2,name=spec"`

	// Status is the report, written by the controller. Once it is set the
	// request is complete and the whole object is immutable.
	//
	// +optional
	Status *ResourcePoolStatusRequestStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ResourcePoolStatusRequestSpec filters the pools a request reports on.
type ResourcePoolStatusRequestSpec struct {
	// Driver is the DRA driver whose pools (those of its ResourceSlices)
	// are reported. A DNS subdomain, such as "gpu.example.com".
	//
	// +required
	Driver string `json:"driver" protobuf:"bytes,1,name=driver"`

	// PoolName, when set, limits the report to the pool of that name; it
	// must then be a valid, non-empty pool name (DNS subdomains joined
	// by "/"). Unset reports every pool of the driver.
	//
	// +optional
	PoolName *string `json:"poolName,omitempty" protobuf:"bytes,2,opt,name=poolName"`

	// Limit is the largest number of pools listed in the status, from 1
	// to 1000; it defaults to 100. When more pools match, the list is cut
	// short and status.poolCount is larger than len(status.pools).
	//
	// +optional
	// +default=100
	Limit *int32 `json:"limit,omitempty" protobuf:"varint,3,opt,name=limit"`

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
	DefaultPartitionTypeAttribute *string `json:"defaultPartitionTypeAttribute,omitempty" protobuf:"bytes,4,opt,name=defaultPartitionTypeAttribute"`
}

// ResourcePoolStatusRequestLimitDefault is the value spec.limit gets when
// it is not set.
const ResourcePoolStatusRequestLimitDefault int32 = 100

// ResourcePoolStatusRequestLimitMax is the largest allowed spec.limit.
const ResourcePoolStatusRequestLimitMax int32 = 1000

// ResourcePoolStatusRequestStatus is the report on the matching pools.
type ResourcePoolStatusRequestStatus struct {
	// PoolCount is how many pools matched the spec, whether or not they
	// all fit in pools; 0 when none matched. Not negative.
	//
	// +required
	PoolCount *int32 `json:"poolCount,omitempty" protobuf:"varint,6,opt,name=poolCount"`

	// Pools are the first spec.limit matching pools (at most 1000),
	// ordered by driver and then pool name. Fewer entries than poolCount
	// means the list was cut short; none means no pool matched.
	//
	// +optional
	// +listType=atomic
	Pools []PoolStatus `json:"pools,omitempty" protobuf:"bytes,2,rep,name=pools"`

	// Conditions describe the outcome, keyed by type, at most 10. A
	// populated status always has a Complete condition (processed) or a
	// Failed one (could not be processed).
	//
	// +optional
	// +listType=map
	// +listMapKey=type
	// +patchStrategy=merge
	// +patchMergeKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,3,rep,name=conditions"`
}

// PoolStatus is the report on one resource pool.
type PoolStatus struct {
	// Driver is the DRA driver of the pool, a DNS subdomain.
	//
	// +required
	Driver string `json:"driver,omitempty" protobuf:"bytes,1,name=driver"`

	// PoolName is the name of the pool (DNS subdomains joined by "/").
	//
	// +required
	PoolName string `json:"poolName,omitempty" protobuf:"bytes,2,name=poolName"`

	// Generation is the newest pool generation seen in the pool's
	// ResourceSlices; only that generation is reported. If not all of its
	// slices are published yet, validationError says so and the counts
	// are left unset. Not negative.
	//
	// +required
	Generation int64 `json:"generation" protobuf:"varint,9,opt,name=generation"`

	// ResourceSliceCount is the number of ResourceSlices of the pool, at
	// least 1. May be unset when validationError is set.
	//
	// +optional
	ResourceSliceCount *int32 `json:"resourceSliceCount,omitempty" protobuf:"varint,8,opt,name=resourceSliceCount"`

	// TotalDevices is the number of devices in all slices of the pool.
	// May be unset when validationError is set.
	//
	// +optional
	TotalDevices *int32 `json:"totalDevices,omitempty" protobuf:"varint,4,opt,name=totalDevices"`

	// AllocatedDevices is the number of devices allocated to claims. May
	// be unset when validationError is set.
	//
	// +optional
	AllocatedDevices *int32 `json:"allocatedDevices,omitempty" protobuf:"varint,5,opt,name=allocatedDevices"`

	// AvailableDevices is the number of devices that can be allocated:
	// total minus allocated minus unavailable. May be unset when
	// validationError is set.
	//
	// +optional
	AvailableDevices *int32 `json:"availableDevices,omitempty" protobuf:"varint,6,opt,name=availableDevices"`

	// UnavailableDevices is the number of devices that are not allocated
	// but cannot be allocated either, for example because of taints. May
	// be unset when validationError is set.
	//
	// +optional
	UnavailableDevices *int32 `json:"unavailableDevices,omitempty" protobuf:"varint,7,opt,name=unavailableDevices"`

	// NodeName is the node the pool belongs to, a DNS subdomain; unset
	// for a pool that is not tied to one node.
	//
	// +optional
	NodeName *string `json:"nodeName,omitempty" protobuf:"bytes,3,opt,name=nodeName"`

	// ValidationError explains, in at most 256 bytes, why the pool's data
	// could not be fully checked (for example slices still missing); the
	// slice count and device counts may then be unset.
	//
	// +optional
	ValidationError *string `json:"validationError,omitempty" protobuf:"bytes,10,opt,name=validationError"`

	// PartitionSummary reports, for a partitionable pool with shared
	// counters, how many devices of each partition type exist and can
	// still be allocated, at most 32 entries, unique by attribute and
	// type. The grouping attribute is the one the device's slice names,
	// or else spec.defaultPartitionTypeAttribute; pools without either
	// have no summary. Since 1.37.
	//
	// +optional
	// +listType=atomic
	PartitionSummary []PartitionTypeStatus `json:"partitionSummary,omitempty" protobuf:"bytes,11,rep,name=partitionSummary"`

	// ShareableSummary sums up the capacity of the pool's devices that
	// allow multiple allocations; set only when the pool has at least one
	// such device. Since 1.37.
	//
	// +optional
	ShareableSummary *ShareableSummaryStatus `json:"shareableSummary,omitempty" protobuf:"bytes,13,opt,name=shareableSummary"`
}

// PartitionTypeStatus counts the devices of one partition type, that is
// of one value of a grouping attribute.
type PartitionTypeStatus struct {
	// Attribute is the fully qualified name of the grouping attribute:
	// the one the devices' slice names, or else the request's default.
	//
	// +required
	Attribute string `json:"attribute,omitempty" protobuf:"bytes,4,name=attribute"`

	// Type is the attribute's value, the partition type (for example
	// "Full" or "Half").
	//
	// +required
	Type string `json:"type,omitempty" protobuf:"bytes,1,name=type"`

	// Total is the number of devices of this type in the pool. Not
	// negative.
	//
	// +required
	Total *int32 `json:"total,omitempty" protobuf:"varint,2,opt,name=total"`

	// Allocatable is how many more devices of this type could be
	// allocated with what is left of the shared counters. Not negative.
	//
	// +required
	Allocatable *int32 `json:"allocatable,omitempty" protobuf:"varint,3,opt,name=allocatable"`
}

// ShareableSummaryStatus sums up a pool's devices that allow multiple
// allocations.
type ShareableSummaryStatus struct {
	// FullyAvailableDevices is the number of such devices of which no
	// capacity is consumed. Not negative.
	//
	// +required
	FullyAvailableDevices *int32 `json:"fullyAvailableDevices,omitempty" protobuf:"varint,1,opt,name=fullyAvailableDevices"`

	// PartiallyAvailableDevices is the number of such devices of which
	// some, but not all, capacity is consumed. Not negative.
	//
	// +required
	PartiallyAvailableDevices *int32 `json:"partiallyAvailableDevices,omitempty" protobuf:"varint,2,opt,name=partiallyAvailableDevices"`

	// Capacity has the pool-wide sums per capacity name, at most 32
	// entries.
	//
	// +optional
	// +listType=atomic
	Capacity []ShareableCapacityStatus `json:"capacity,omitempty" protobuf:"bytes,3,rep,name=capacity"`
}

// ShareableCapacityStatus sums one capacity over a pool's devices that
// allow multiple allocations.
type ShareableCapacityStatus struct {
	// Name is the name of the capacity.
	//
	// +required
	Name string `json:"name,omitempty" protobuf:"bytes,1,name=name"`

	// Total is the capacity summed over those devices.
	//
	// +required
	Total *resource.Quantity `json:"total,omitempty" protobuf:"bytes,2,opt,name=total"`

	// Consumed is the part of the total taken by current allocations.
	//
	// +required
	Consumed *resource.Quantity `json:"consumed,omitempty" protobuf:"bytes,3,opt,name=consumed"`

	// Available is total minus consumed, never below zero.
	//
	// +required
	Available *resource.Quantity `json:"available,omitempty" protobuf:"bytes,4,opt,name=available"`
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
	metav1.TypeMeta `json:",inline"`
	// Metadata of the list.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the ResourcePoolStatusRequests of the list.
	Items []ResourcePoolStatusRequest `json:"items" protobuf:"bytes,2,rep,name=items"`
}
