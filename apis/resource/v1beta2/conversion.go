package v1beta2

import (
	resourcev1beta2 "k8s.io/api/resource/v1beta2"
	"k8s.io/apimachinery/pkg/conversion"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/internal/legacy"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// v1beta2 has v1's shape, which is the hub's: every field converts field by
// field (zz_generated.conversion.go), mostly by sharing memory. What is
// written here are the hub's legacy fields (classic DRA and 1.30's
// structured parameters), which v1beta2 cannot say and which go to the
// stash, and the structured handles of a 1.30 allocation, which v1beta2
// shows as device results. docs/conversion.md has the field-by-field table.
//
// The functions below have v1's bodies with v1beta2's names: conversion-gen
// needs a function of each name in this package (the hub has fields v1beta2
// lacks), and the work they share with v1 and v1beta1 is done once, on hub
// types, in internal/legacy (v1era.go). They could instead call v1's
// functions through unsafe casts, as the layouts are the same today (both
// packages' types tests compare them with k8s.io/api, where v1beta2's and
// v1's types are the same); that would save the one or two lines of each
// but tie v1beta2 to v1's package and need a test that the layouts never
// drift apart. Sharing the logic on hub types needs neither.

// shape: v1beta2 says requests, devices and a slice's node name as the hub
// does, nothing flat.
// Lost and Claim: the hub fields its types lack (the legacy ones, and in
// a claim any field a nested struct of the hub has and its own lacks),
// derived from the types (stash.LostFields, stash.NewTree); the stash keeps
// them. The allocation mode is defaulted (see legacy.v1SpecStash).
var shape = legacy.V1Flat{
	Lost: legacy.Lost{
		Class:  stash.LostFields[hub.DeviceClassSpec]([]any{resourcev1beta2.DeviceClassSpec{}}),
		Slice:  stash.LostFields[hub.ResourceSliceSpec]([]any{resourcev1beta2.ResourceSliceSpec{}}),
		Device: stash.LostFields[hub.Device]([]any{resourcev1beta2.Device{}}),
	},
	Claim: legacy.NewClaimShape(
		stash.NewTree[hub.ResourceClaimSpec](resourcev1beta2.ResourceClaimSpec{}, "spec", stash.Kept("spec"), stash.Handled("spec.allocationMode")),
		stash.NewTree[hub.ResourceClaimStatus](resourcev1beta2.ResourceClaimStatus{}, "status", stash.Kept("status", "status.allocation")),
	),
}

// ---------------------------------------------------------------------------
// DeviceClass

func Convert_resource_DeviceClass_To_v1beta2_DeviceClass(in *hub.DeviceClass, out *resourcev1beta2.DeviceClass, s conversion.Scope) error {
	if err := autoConvert_resource_DeviceClass_To_v1beta2_DeviceClass(in, out, s); err != nil {
		return err
	}
	return legacy.WriteV1ClassStash(&out.ObjectMeta, &in.Spec, &shape)
}

func Convert_v1beta2_DeviceClass_To_resource_DeviceClass(in *resourcev1beta2.DeviceClass, out *hub.DeviceClass, s conversion.Scope) error {
	if err := autoConvert_v1beta2_DeviceClass_To_resource_DeviceClass(in, out, s); err != nil {
		return err
	}
	return legacy.TakeV1ClassStash(&out.ObjectMeta, &out.Spec, &shape)
}

func Convert_resource_DeviceClassSpec_To_v1beta2_DeviceClassSpec(in *hub.DeviceClassSpec, out *resourcev1beta2.DeviceClassSpec, s conversion.Scope) error {
	// SuitableNodes, ParametersRef and StructuredParameters go to the stash
	// (see DeviceClass).
	return autoConvert_resource_DeviceClassSpec_To_v1beta2_DeviceClassSpec(in, out, s)
}

// ---------------------------------------------------------------------------
// ResourceClaim and ResourceClaimTemplate

func Convert_resource_ResourceClaim_To_v1beta2_ResourceClaim(in *hub.ResourceClaim, out *resourcev1beta2.ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaim_To_v1beta2_ResourceClaim(in, out, s); err != nil {
		return err
	}
	return legacy.WriteV1ClaimStash(&out.ObjectMeta, "ResourceClaim", &in.Spec, &in.Status, &shape)
}

func Convert_v1beta2_ResourceClaim_To_resource_ResourceClaim(in *resourcev1beta2.ResourceClaim, out *hub.ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_v1beta2_ResourceClaim_To_resource_ResourceClaim(in, out, s); err != nil {
		return err
	}
	return legacy.TakeV1ClaimStash(&out.ObjectMeta, "ResourceClaim", &out.Spec, &out.Status, &shape)
}

func Convert_resource_ResourceClaimTemplate_To_v1beta2_ResourceClaimTemplate(in *hub.ResourceClaimTemplate, out *resourcev1beta2.ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaimTemplate_To_v1beta2_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	return legacy.WriteV1ClaimStash(&out.ObjectMeta, "ResourceClaimTemplate", &in.Spec.Spec, nil, &shape)
}

func Convert_v1beta2_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in *resourcev1beta2.ResourceClaimTemplate, out *hub.ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_v1beta2_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	return legacy.TakeV1ClaimStash(&out.ObjectMeta, "ResourceClaimTemplate", &out.Spec.Spec, nil, &shape)
}

func Convert_resource_ResourceClaimSpec_To_v1beta2_ResourceClaimSpec(in *hub.ResourceClaimSpec, out *resourcev1beta2.ResourceClaimSpec, s conversion.Scope) error {
	// Controller, ParametersRef and AllocationMode go to the stash (see
	// ResourceClaim).
	return autoConvert_resource_ResourceClaimSpec_To_v1beta2_ResourceClaimSpec(in, out, s)
}

func Convert_resource_ResourceClaimStatus_To_v1beta2_ResourceClaimStatus(in *hub.ResourceClaimStatus, out *resourcev1beta2.ResourceClaimStatus, s conversion.Scope) error {
	// DeallocationRequested and DriverName go to the stash (see
	// ResourceClaim).
	return autoConvert_resource_ResourceClaimStatus_To_v1beta2_ResourceClaimStatus(in, out, s)
}

func Convert_resource_AllocationResult_To_v1beta2_AllocationResult(in *hub.AllocationResult, out *resourcev1beta2.AllocationResult, s conversion.Scope) error {
	// Controller, ResourceHandles and Shareable go to the stash (see
	// ResourceClaim).
	if err := autoConvert_resource_AllocationResult_To_v1beta2_AllocationResult(in, out, s); err != nil {
		return err
	}
	if legacy.V1ResultsDerived(in) {
		// A claim allocated by 1.30's structured parameters shows its
		// devices as v1beta2 does.
		results := legacy.ResultsFromHandles(in.ResourceHandles)
		out.Devices.Results = make([]resourcev1beta2.DeviceRequestAllocationResult, len(results))
		for i, r := range results {
			out.Devices.Results[i] = resourcev1beta2.DeviceRequestAllocationResult{Request: r.Request, Driver: r.Driver, Pool: r.Pool, Device: r.Device}
		}
	}
	return nil
}

// ---------------------------------------------------------------------------
// ResourceSlice

func Convert_resource_ResourceSlice_To_v1beta2_ResourceSlice(in *hub.ResourceSlice, out *resourcev1beta2.ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceSlice_To_v1beta2_ResourceSlice(in, out, s); err != nil {
		return err
	}
	return legacy.WriteV1SliceStash(&out.ObjectMeta, &in.Spec, &shape)
}

func Convert_v1beta2_ResourceSlice_To_resource_ResourceSlice(in *resourcev1beta2.ResourceSlice, out *hub.ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_v1beta2_ResourceSlice_To_resource_ResourceSlice(in, out, s); err != nil {
		return err
	}
	return legacy.TakeV1SliceStash(&out.ObjectMeta, &out.Spec, &shape)
}

func Convert_resource_ResourceSliceSpec_To_v1beta2_ResourceSliceSpec(in *hub.ResourceSliceSpec, out *resourcev1beta2.ResourceSliceSpec, s conversion.Scope) error {
	// NoResourceModel goes to the stash (see ResourceSlice).
	return autoConvert_resource_ResourceSliceSpec_To_v1beta2_ResourceSliceSpec(in, out, s)
}

func Convert_resource_Device_To_v1beta2_Device(in *hub.Device, out *resourcev1beta2.Device, s conversion.Scope) error {
	// NamedResources goes to the stash (see ResourceSlice).
	return autoConvert_resource_Device_To_v1beta2_Device(in, out, s)
}
