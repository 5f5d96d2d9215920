package v1

import (
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/conversion"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/internal/legacy"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// v1 is the shape of the hub: every field converts field by field
// (zz_generated.conversion.go), mostly by sharing memory. What is written
// here are the hub's legacy fields (classic DRA and 1.30's structured
// parameters), which v1 cannot say and which go to the stash, and the
// structured handles of a 1.30 allocation, which v1 shows as device
// results. The work is done on hub types in internal/legacy (v1era.go),
// which v1beta2 and v1beta1 share; these are the functions conversion-gen
// calls by name. docs/conversion.md has the field-by-field table.

// shape: v1 says requests, devices and a slice's node name as the hub
// does, nothing flat.
// Lost and Claim: the hub fields its types lack (the legacy ones, and in
// a claim any field a nested struct of the hub has and its own lacks),
// derived from the types (stash.LostFields, stash.NewTree); the stash keeps
// them. The allocation mode is defaulted (see legacy.v1SpecStash).
var shape = legacy.V1Flat{
	Lost: legacy.Lost{
		Class:  stash.LostFields[hub.DeviceClassSpec]([]any{resourcev1.DeviceClassSpec{}}),
		Slice:  stash.LostFields[hub.ResourceSliceSpec]([]any{resourcev1.ResourceSliceSpec{}}),
		Device: stash.LostFields[hub.Device]([]any{resourcev1.Device{}}),
	},
	Claim: legacy.NewClaimShape(
		stash.NewTree[hub.ResourceClaimSpec](resourcev1.ResourceClaimSpec{}, "spec", stash.Kept("spec"), stash.Handled("spec.allocationMode")),
		stash.NewTree[hub.ResourceClaimStatus](resourcev1.ResourceClaimStatus{}, "status", stash.Kept("status", "status.allocation")),
	),
}

// ---------------------------------------------------------------------------
// DeviceClass

func Convert_resource_DeviceClass_To_v1_DeviceClass(in *hub.DeviceClass, out *resourcev1.DeviceClass, s conversion.Scope) error {
	if err := autoConvert_resource_DeviceClass_To_v1_DeviceClass(in, out, s); err != nil {
		return err
	}
	return legacy.WriteV1ClassStash(&out.ObjectMeta, &in.Spec, &shape)
}

func Convert_v1_DeviceClass_To_resource_DeviceClass(in *resourcev1.DeviceClass, out *hub.DeviceClass, s conversion.Scope) error {
	if err := autoConvert_v1_DeviceClass_To_resource_DeviceClass(in, out, s); err != nil {
		return err
	}
	return legacy.TakeV1ClassStash(&out.ObjectMeta, &out.Spec, &shape)
}

func Convert_resource_DeviceClassSpec_To_v1_DeviceClassSpec(in *hub.DeviceClassSpec, out *resourcev1.DeviceClassSpec, s conversion.Scope) error {
	// SuitableNodes, ParametersRef and StructuredParameters go to the stash
	// (see DeviceClass).
	return autoConvert_resource_DeviceClassSpec_To_v1_DeviceClassSpec(in, out, s)
}

// ---------------------------------------------------------------------------
// ResourceClaim and ResourceClaimTemplate

func Convert_resource_ResourceClaim_To_v1_ResourceClaim(in *hub.ResourceClaim, out *resourcev1.ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaim_To_v1_ResourceClaim(in, out, s); err != nil {
		return err
	}
	return legacy.WriteV1ClaimStash(&out.ObjectMeta, "ResourceClaim", &in.Spec, &in.Status, &shape)
}

func Convert_v1_ResourceClaim_To_resource_ResourceClaim(in *resourcev1.ResourceClaim, out *hub.ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_v1_ResourceClaim_To_resource_ResourceClaim(in, out, s); err != nil {
		return err
	}
	return legacy.TakeV1ClaimStash(&out.ObjectMeta, "ResourceClaim", &out.Spec, &out.Status, &shape)
}

func Convert_resource_ResourceClaimTemplate_To_v1_ResourceClaimTemplate(in *hub.ResourceClaimTemplate, out *resourcev1.ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaimTemplate_To_v1_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	return legacy.WriteV1ClaimStash(&out.ObjectMeta, "ResourceClaimTemplate", &in.Spec.Spec, nil, &shape)
}

func Convert_v1_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in *resourcev1.ResourceClaimTemplate, out *hub.ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_v1_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	return legacy.TakeV1ClaimStash(&out.ObjectMeta, "ResourceClaimTemplate", &out.Spec.Spec, nil, &shape)
}

func Convert_resource_ResourceClaimSpec_To_v1_ResourceClaimSpec(in *hub.ResourceClaimSpec, out *resourcev1.ResourceClaimSpec, s conversion.Scope) error {
	// Controller, ParametersRef and AllocationMode go to the stash (see
	// ResourceClaim).
	return autoConvert_resource_ResourceClaimSpec_To_v1_ResourceClaimSpec(in, out, s)
}

func Convert_resource_ResourceClaimStatus_To_v1_ResourceClaimStatus(in *hub.ResourceClaimStatus, out *resourcev1.ResourceClaimStatus, s conversion.Scope) error {
	// DeallocationRequested and DriverName go to the stash (see
	// ResourceClaim).
	return autoConvert_resource_ResourceClaimStatus_To_v1_ResourceClaimStatus(in, out, s)
}

func Convert_resource_AllocationResult_To_v1_AllocationResult(in *hub.AllocationResult, out *resourcev1.AllocationResult, s conversion.Scope) error {
	// Controller, ResourceHandles and Shareable go to the stash (see
	// ResourceClaim).
	if err := autoConvert_resource_AllocationResult_To_v1_AllocationResult(in, out, s); err != nil {
		return err
	}
	if legacy.V1ResultsDerived(in) {
		// A claim allocated by 1.30's structured parameters shows its
		// devices as v1 does.
		results := legacy.ResultsFromHandles(in.ResourceHandles)
		out.Devices.Results = make([]resourcev1.DeviceRequestAllocationResult, len(results))
		for i, r := range results {
			out.Devices.Results[i] = resourcev1.DeviceRequestAllocationResult{Request: r.Request, Driver: r.Driver, Pool: r.Pool, Device: r.Device}
		}
	}
	return nil
}

// ---------------------------------------------------------------------------
// ResourceSlice

func Convert_resource_ResourceSlice_To_v1_ResourceSlice(in *hub.ResourceSlice, out *resourcev1.ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceSlice_To_v1_ResourceSlice(in, out, s); err != nil {
		return err
	}
	return legacy.WriteV1SliceStash(&out.ObjectMeta, &in.Spec, &shape)
}

func Convert_v1_ResourceSlice_To_resource_ResourceSlice(in *resourcev1.ResourceSlice, out *hub.ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_v1_ResourceSlice_To_resource_ResourceSlice(in, out, s); err != nil {
		return err
	}
	return legacy.TakeV1SliceStash(&out.ObjectMeta, &out.Spec, &shape)
}

func Convert_resource_ResourceSliceSpec_To_v1_ResourceSliceSpec(in *hub.ResourceSliceSpec, out *resourcev1.ResourceSliceSpec, s conversion.Scope) error {
	// NoResourceModel goes to the stash (see ResourceSlice).
	return autoConvert_resource_ResourceSliceSpec_To_v1_ResourceSliceSpec(in, out, s)
}

func Convert_resource_Device_To_v1_Device(in *hub.Device, out *resourcev1.Device, s conversion.Scope) error {
	// NamedResources goes to the stash (see ResourceSlice).
	return autoConvert_resource_Device_To_v1_Device(in, out, s)
}
