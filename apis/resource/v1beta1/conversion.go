package v1beta1

import (
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	resourcev1beta1 "k8s.io/api/resource/v1beta1"
	"k8s.io/apimachinery/pkg/conversion"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/internal/legacy"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// v1beta1 says what v1 (the hub's shape) says, in three places differently:
//   - a request's exact fields are flat on the request (v1: exactly);
//   - a device's properties are under basic (v1: on the device);
//   - a slice's nodeName and allNodes are a string and a bool (v1:
//     pointers).
// The rest converts field by field (zz_generated.conversion.go), mostly by
// sharing memory, as do the values moved between those places. Unlike
// upstream's conversion, empty lists and maps stay empty, not nil. Besides,
// the hub's legacy fields (classic DRA and 1.30's structured parameters),
// which v1beta1 cannot say, go to the stash, and the structured handles of a
// 1.30 allocation show as device results: that work is done on hub types in
// internal/legacy (v1era.go), shared with v1beta2 and v1. docs/conversion.md
// has the field-by-field table.

// shape: v1beta1's requests are flat, and its slice's nodeName and
// allNodes plain (see legacy.V1Flat).
// Lost and Claim: the hub fields its types lack (the legacy ones, and in
// a claim any field a nested struct of the hub has and its own lacks),
// derived from the types (stash.LostFields, stash.NewTree); the stash keeps
// them. The allocation mode is defaulted (see legacy.v1SpecStash).
var shape = legacy.V1Flat{
	Requests: true,
	Node:     true,
	Lost: legacy.Lost{
		Class:  stash.LostFields[hub.DeviceClassSpec]([]any{resourcev1beta1.DeviceClassSpec{}}),
		Slice:  stash.LostFields[hub.ResourceSliceSpec]([]any{resourcev1beta1.ResourceSliceSpec{}}),
		Device: stash.LostFields[hub.Device]([]any{resourcev1beta1.Device{}, resourcev1beta1.BasicDevice{}}),
	},
	Claim:      claimShape,
	ExactShown: stash.ShownAt[hub.ExactDeviceRequest](claimShape.Spec, "spec.devices.requests.exactly"),
}

// claimShape: v1beta1's flat request shows the hub request's exactly.
var claimShape = legacy.NewClaimShape(
	stash.NewTree[hub.ResourceClaimSpec](resourcev1beta1.ResourceClaimSpec{}, "spec", stash.Kept("spec"), stash.Handled("spec.allocationMode"),
		stash.Flatten("spec.devices.requests.exactly")),
	stash.NewTree[hub.ResourceClaimStatus](resourcev1beta1.ResourceClaimStatus{}, "status", stash.Kept("status", "status.allocation")),
)

// ---------------------------------------------------------------------------
// DeviceClass

func Convert_resource_DeviceClass_To_v1beta1_DeviceClass(in *hub.DeviceClass, out *resourcev1beta1.DeviceClass, s conversion.Scope) error {
	if err := autoConvert_resource_DeviceClass_To_v1beta1_DeviceClass(in, out, s); err != nil {
		return err
	}
	return legacy.WriteV1ClassStash(&out.ObjectMeta, &in.Spec, &shape)
}

func Convert_v1beta1_DeviceClass_To_resource_DeviceClass(in *resourcev1beta1.DeviceClass, out *hub.DeviceClass, s conversion.Scope) error {
	if err := autoConvert_v1beta1_DeviceClass_To_resource_DeviceClass(in, out, s); err != nil {
		return err
	}
	return legacy.TakeV1ClassStash(&out.ObjectMeta, &out.Spec, &shape)
}

func Convert_resource_DeviceClassSpec_To_v1beta1_DeviceClassSpec(in *hub.DeviceClassSpec, out *resourcev1beta1.DeviceClassSpec, s conversion.Scope) error {
	// SuitableNodes, ParametersRef and StructuredParameters go to the stash
	// (see DeviceClass).
	return autoConvert_resource_DeviceClassSpec_To_v1beta1_DeviceClassSpec(in, out, s)
}

// ---------------------------------------------------------------------------
// ResourceClaim and ResourceClaimTemplate

func Convert_resource_ResourceClaim_To_v1beta1_ResourceClaim(in *hub.ResourceClaim, out *resourcev1beta1.ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaim_To_v1beta1_ResourceClaim(in, out, s); err != nil {
		return err
	}
	return legacy.WriteV1ClaimStash(&out.ObjectMeta, "ResourceClaim", &in.Spec, &in.Status, &shape)
}

func Convert_v1beta1_ResourceClaim_To_resource_ResourceClaim(in *resourcev1beta1.ResourceClaim, out *hub.ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_v1beta1_ResourceClaim_To_resource_ResourceClaim(in, out, s); err != nil {
		return err
	}
	return legacy.TakeV1ClaimStash(&out.ObjectMeta, "ResourceClaim", &out.Spec, &out.Status, &shape)
}

func Convert_resource_ResourceClaimTemplate_To_v1beta1_ResourceClaimTemplate(in *hub.ResourceClaimTemplate, out *resourcev1beta1.ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaimTemplate_To_v1beta1_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	return legacy.WriteV1ClaimStash(&out.ObjectMeta, "ResourceClaimTemplate", &in.Spec.Spec, nil, &shape)
}

func Convert_v1beta1_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in *resourcev1beta1.ResourceClaimTemplate, out *hub.ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_v1beta1_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	return legacy.TakeV1ClaimStash(&out.ObjectMeta, "ResourceClaimTemplate", &out.Spec.Spec, nil, &shape)
}

func Convert_resource_ResourceClaimSpec_To_v1beta1_ResourceClaimSpec(in *hub.ResourceClaimSpec, out *resourcev1beta1.ResourceClaimSpec, s conversion.Scope) error {
	// Controller, ParametersRef and AllocationMode go to the stash (see
	// ResourceClaim).
	return autoConvert_resource_ResourceClaimSpec_To_v1beta1_ResourceClaimSpec(in, out, s)
}

func Convert_resource_ResourceClaimStatus_To_v1beta1_ResourceClaimStatus(in *hub.ResourceClaimStatus, out *resourcev1beta1.ResourceClaimStatus, s conversion.Scope) error {
	// DeallocationRequested and DriverName go to the stash (see
	// ResourceClaim).
	return autoConvert_resource_ResourceClaimStatus_To_v1beta1_ResourceClaimStatus(in, out, s)
}

func Convert_resource_AllocationResult_To_v1beta1_AllocationResult(in *hub.AllocationResult, out *resourcev1beta1.AllocationResult, s conversion.Scope) error {
	// Controller, ResourceHandles and Shareable go to the stash (see
	// ResourceClaim).
	if err := autoConvert_resource_AllocationResult_To_v1beta1_AllocationResult(in, out, s); err != nil {
		return err
	}
	if legacy.V1ResultsDerived(in) {
		// A claim allocated by 1.30's structured parameters shows its
		// devices as v1beta1 does.
		results := legacy.ResultsFromHandles(in.ResourceHandles)
		out.Devices.Results = make([]resourcev1beta1.DeviceRequestAllocationResult, len(results))
		for i, r := range results {
			out.Devices.Results[i] = resourcev1beta1.DeviceRequestAllocationResult{Request: r.Request, Driver: r.Driver, Pool: r.Pool, Device: r.Device}
		}
	}
	return nil
}

// ---------------------------------------------------------------------------
// ResourceSlice

func Convert_resource_ResourceSlice_To_v1beta1_ResourceSlice(in *hub.ResourceSlice, out *resourcev1beta1.ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceSlice_To_v1beta1_ResourceSlice(in, out, s); err != nil {
		return err
	}
	return legacy.WriteV1SliceStash(&out.ObjectMeta, &in.Spec, &shape)
}

func Convert_v1beta1_ResourceSlice_To_resource_ResourceSlice(in *resourcev1beta1.ResourceSlice, out *hub.ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_v1beta1_ResourceSlice_To_resource_ResourceSlice(in, out, s); err != nil {
		return err
	}
	return legacy.TakeV1SliceStash(&out.ObjectMeta, &out.Spec, &shape)
}

func Convert_resource_ResourceSliceSpec_To_v1beta1_ResourceSliceSpec(in *hub.ResourceSliceSpec, out *resourcev1beta1.ResourceSliceSpec, s conversion.Scope) error {
	// NoResourceModel, and a nodeName "" or allNodes false that is set, go
	// to the stash (see ResourceSlice). Unset is "" and false here.
	return autoConvert_resource_ResourceSliceSpec_To_v1beta1_ResourceSliceSpec(in, out, s)
}

func Convert_v1beta1_ResourceSliceSpec_To_resource_ResourceSliceSpec(in *resourcev1beta1.ResourceSliceSpec, out *hub.ResourceSliceSpec, s conversion.Scope) error {
	if err := autoConvert_v1beta1_ResourceSliceSpec_To_resource_ResourceSliceSpec(in, out, s); err != nil {
		return err
	}
	// "" and false are what v1beta1 says when nothing is set.
	if in.NodeName == "" {
		out.NodeName = nil
	}
	if !in.AllNodes {
		out.AllNodes = nil
	}
	return nil
}

// Convert_resource_Device_To_v1beta1_Device puts the properties of a hub
// device under basic, which is always set, as upstream's v1beta1 always
// writes it. NamedResources goes to the stash (see ResourceSlice).
func Convert_resource_Device_To_v1beta1_Device(in *hub.Device, out *resourcev1beta1.Device, s conversion.Scope) error {
	out.Name = in.Name
	out.Basic = &resourcev1beta1.BasicDevice{
		Attributes:               *(*map[resourcev1beta1.QualifiedName]resourcev1beta1.DeviceAttribute)(unsafe.Pointer(&in.Attributes)),
		Capacity:                 *(*map[resourcev1beta1.QualifiedName]resourcev1beta1.DeviceCapacity)(unsafe.Pointer(&in.Capacity)),
		ConsumesCounters:         *(*[]resourcev1beta1.DeviceCounterConsumption)(unsafe.Pointer(&in.ConsumesCounters)),
		NodeName:                 in.NodeName,
		NodeSelector:             in.NodeSelector,
		AllNodes:                 in.AllNodes,
		Taints:                   *(*[]resourcev1beta1.DeviceTaint)(unsafe.Pointer(&in.Taints)),
		BindsToNode:              in.BindsToNode,
		BindingConditions:        in.BindingConditions,
		BindingFailureConditions: in.BindingFailureConditions,
		AllowMultipleAllocations: in.AllowMultipleAllocations,
		NodeAllocatableResources: *(*map[corev1.ResourceName]resourcev1beta1.NodeAllocatableResource)(unsafe.Pointer(&in.NodeAllocatableResources)),
	}
	return nil
}

// Convert_v1beta1_Device_To_resource_Device moves the properties under
// basic onto the hub device, empty maps and lists as they are. A device
// without basic has no properties, like one with an empty basic; it comes
// back with an empty basic.
func Convert_v1beta1_Device_To_resource_Device(in *resourcev1beta1.Device, out *hub.Device, s conversion.Scope) error {
	b := in.Basic
	if b == nil {
		*out = hub.Device{Name: in.Name}
		return nil
	}
	*out = hub.Device{
		Name:                     in.Name,
		Attributes:               *(*map[hub.QualifiedName]hub.DeviceAttribute)(unsafe.Pointer(&b.Attributes)),
		Capacity:                 *(*map[hub.QualifiedName]hub.DeviceCapacity)(unsafe.Pointer(&b.Capacity)),
		ConsumesCounters:         *(*[]hub.DeviceCounterConsumption)(unsafe.Pointer(&b.ConsumesCounters)),
		NodeName:                 b.NodeName,
		NodeSelector:             b.NodeSelector,
		AllNodes:                 b.AllNodes,
		Taints:                   *(*[]hub.DeviceTaint)(unsafe.Pointer(&b.Taints)),
		BindsToNode:              b.BindsToNode,
		BindingConditions:        b.BindingConditions,
		BindingFailureConditions: b.BindingFailureConditions,
		AllowMultipleAllocations: b.AllowMultipleAllocations,
		NodeAllocatableResources: *(*map[corev1.ResourceName]hub.NodeAllocatableResource)(unsafe.Pointer(&b.NodeAllocatableResources)),
	}
	return nil
}

// ---------------------------------------------------------------------------
// DeviceRequest
//
// The casts between v1beta1's and the hub's element types below are the
// ones zz_generated.conversion.go makes for the same types, which
// conversion-gen only makes where the memory layouts agree.

// Convert_resource_DeviceRequest_To_v1beta1_DeviceRequest flattens exactly
// into the request. An exactly with nothing in it shows as no exact request
// at all; the stash names it (legacy.WriteV1ClaimStash).
func Convert_resource_DeviceRequest_To_v1beta1_DeviceRequest(in *hub.DeviceRequest, out *resourcev1beta1.DeviceRequest, s conversion.Scope) error {
	if err := autoConvert_resource_DeviceRequest_To_v1beta1_DeviceRequest(in, out, s); err != nil {
		return err
	}
	e := in.Exactly
	if e == nil {
		out.DeviceClassName, out.Selectors, out.AllocationMode, out.Count = "", nil, "", 0
		out.AdminAccess, out.Tolerations, out.Capacity, out.DerivedAttributes = nil, nil, nil, nil
		return nil
	}
	out.DeviceClassName = e.DeviceClassName
	out.Selectors = *(*[]resourcev1beta1.DeviceSelector)(unsafe.Pointer(&e.Selectors))
	out.AllocationMode = resourcev1beta1.DeviceAllocationMode(e.AllocationMode)
	out.Count = e.Count
	out.AdminAccess = e.AdminAccess
	out.Tolerations = *(*[]resourcev1beta1.DeviceToleration)(unsafe.Pointer(&e.Tolerations))
	out.Capacity = (*resourcev1beta1.CapacityRequirements)(unsafe.Pointer(e.Capacity))
	out.DerivedAttributes = *(*[]resourcev1beta1.DeviceDerivedAttribute)(unsafe.Pointer(&e.DerivedAttributes))
	return nil
}

// Convert_v1beta1_DeviceRequest_To_resource_DeviceRequest gathers the flat
// exact fields into exactly, which is set when any of them is: a class, a
// mode or a count, or any list, even an empty one.
func Convert_v1beta1_DeviceRequest_To_resource_DeviceRequest(in *resourcev1beta1.DeviceRequest, out *hub.DeviceRequest, s conversion.Scope) error {
	if err := autoConvert_v1beta1_DeviceRequest_To_resource_DeviceRequest(in, out, s); err != nil {
		return err
	}
	if in.DeviceClassName == "" && in.Selectors == nil && in.AllocationMode == "" && in.Count == 0 &&
		in.AdminAccess == nil && in.Tolerations == nil && in.Capacity == nil && in.DerivedAttributes == nil {
		// The fields of exactly the flat request shows (shape.ExactShown,
		// which the stash's emptyExactly looks at), here on the flat
		// request.
		out.Exactly = nil
		return nil
	}
	out.Exactly = &hub.ExactDeviceRequest{
		DeviceClassName:   in.DeviceClassName,
		Selectors:         *(*[]hub.DeviceSelector)(unsafe.Pointer(&in.Selectors)),
		AllocationMode:    hub.DeviceAllocationMode(in.AllocationMode),
		Count:             in.Count,
		AdminAccess:       in.AdminAccess,
		Tolerations:       *(*[]hub.DeviceToleration)(unsafe.Pointer(&in.Tolerations)),
		Capacity:          (*hub.CapacityRequirements)(unsafe.Pointer(in.Capacity)),
		DerivedAttributes: *(*[]hub.DeviceDerivedAttribute)(unsafe.Pointer(&in.DerivedAttributes)),
	}
	return nil
}
