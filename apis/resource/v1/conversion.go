package v1

import (
	"k8s.io/apimachinery/pkg/conversion"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// v1 is the shape of the hub: every field converts field by field
// (zz_generated.conversion.go), mostly by sharing memory. What is written
// here are the hub's legacy fields (classic DRA and 1.30's structured
// parameters), which v1 cannot say and which go to the stash, and the
// structured handles of a 1.30 allocation, which v1 shows as device
// results. docs/conversion.md has the field-by-field table. v1beta2's
// conversion.go is this file with the version's name in it.

// ---------------------------------------------------------------------------
// DeviceClass

func Convert_resource_DeviceClass_To_v1_DeviceClass(in *hub.DeviceClass, out *DeviceClass, s conversion.Scope) error {
	if err := autoConvert_resource_DeviceClass_To_v1_DeviceClass(in, out, s); err != nil {
		return err
	}
	spec := &in.Spec
	if spec.SuitableNodes == nil && spec.ParametersRef == nil && spec.StructuredParameters == nil {
		return nil
	}
	st := stash.Class{V: stash.FormatVersion, SuitableNodes: spec.SuitableNodes,
		ParametersRef: spec.ParametersRef, StructuredParameters: spec.StructuredParameters}
	return stash.Write(&out.ObjectMeta, "DeviceClass", &st)
}

func Convert_v1_DeviceClass_To_resource_DeviceClass(in *DeviceClass, out *hub.DeviceClass, s conversion.Scope) error {
	if err := autoConvert_v1_DeviceClass_To_resource_DeviceClass(in, out, s); err != nil {
		return err
	}
	st, err := stash.Take[stash.Class](&out.ObjectMeta, "DeviceClass")
	if st == nil || err != nil {
		return err
	}
	// Only the legacy fields: what v1 says itself (selectors, config,
	// extendedResourceName) is never taken from a stash.
	out.Spec.SuitableNodes = st.SuitableNodes
	out.Spec.ParametersRef = st.ParametersRef
	out.Spec.StructuredParameters = st.StructuredParameters
	return nil
}

func Convert_resource_DeviceClassSpec_To_v1_DeviceClassSpec(in *hub.DeviceClassSpec, out *DeviceClassSpec, s conversion.Scope) error {
	// SuitableNodes, ParametersRef and StructuredParameters go to the stash
	// (see DeviceClass).
	return autoConvert_resource_DeviceClassSpec_To_v1_DeviceClassSpec(in, out, s)
}

// ---------------------------------------------------------------------------
// ResourceClaim and ResourceClaimTemplate

func Convert_resource_ResourceClaim_To_v1_ResourceClaim(in *hub.ResourceClaim, out *ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaim_To_v1_ResourceClaim(in, out, s); err != nil {
		return err
	}
	spec, status := specStash(&in.Spec), statusStash(&in.Status)
	if spec == nil && status == nil {
		return nil
	}
	return stash.Write(&out.ObjectMeta, "ResourceClaim", &stash.Claim{V: stash.FormatVersion, Spec: spec, Status: status})
}

func Convert_v1_ResourceClaim_To_resource_ResourceClaim(in *ResourceClaim, out *hub.ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_v1_ResourceClaim_To_resource_ResourceClaim(in, out, s); err != nil {
		return err
	}
	st, err := stash.Take[stash.Claim](&out.ObjectMeta, "ResourceClaim")
	if err != nil {
		return err
	}
	if st == nil {
		st = &stash.Claim{} // no stash: the legacy fields have their defaults
	}
	restoreSpec(st.Spec, &out.Spec)
	restoreStatus(st.Status, &out.Status)
	return nil
}

func Convert_resource_ResourceClaimTemplate_To_v1_ResourceClaimTemplate(in *hub.ResourceClaimTemplate, out *ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaimTemplate_To_v1_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	spec := specStash(&in.Spec.Spec)
	if spec == nil {
		return nil
	}
	return stash.Write(&out.ObjectMeta, "ResourceClaimTemplate", &stash.Claim{V: stash.FormatVersion, Spec: spec})
}

func Convert_v1_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in *ResourceClaimTemplate, out *hub.ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_v1_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	st, err := stash.Take[stash.Claim](&out.ObjectMeta, "ResourceClaimTemplate")
	if err != nil {
		return err
	}
	if st == nil {
		st = &stash.Claim{} // no stash: the legacy fields have their defaults
	}
	restoreSpec(st.Spec, &out.Spec.Spec)
	return nil
}

// specStash keeps the legacy spec fields: the claim controller, the
// parameters reference, and the allocation mode unless it is the one
// v1alpha1/v1alpha2 default to, WaitForFirstConsumer, which restoreSpec
// gives back (an empty mode too: it is WaitForFirstConsumer once
// defaulted).
func specStash(in *hub.ResourceClaimSpec) *stash.ClaimSpec {
	mode := in.AllocationMode
	if mode == hub.AllocationModeWaitForFirstConsumer {
		mode = ""
	}
	if in.Controller == "" && in.ParametersRef == nil && mode == "" {
		return nil
	}
	return &stash.ClaimSpec{Controller: in.Controller, ParametersRef: in.ParametersRef, AllocationMode: mode}
}

// restoreSpec puts the legacy spec fields back: those kept in st (nil when
// nothing was kept), and the default allocation mode when none was.
func restoreSpec(st *stash.ClaimSpec, out *hub.ResourceClaimSpec) {
	out.AllocationMode = hub.AllocationModeWaitForFirstConsumer
	if st == nil {
		return
	}
	out.Controller = st.Controller
	out.ParametersRef = st.ParametersRef
	if st.AllocationMode != "" {
		out.AllocationMode = st.AllocationMode
	}
}

// statusStash keeps the legacy status and allocation fields, and notes when
// the results shown were rendered from structured handles.
func statusStash(in *hub.ResourceClaimStatus) *stash.ClaimStatus {
	st := stash.ClaimStatus{DriverName: in.DriverName, DeallocationRequested: in.DeallocationRequested}
	if a := in.Allocation; a != nil && (a.Controller != "" || a.ResourceHandles != nil || a.Shareable) {
		alloc := stash.Allocation{Controller: a.Controller, Shareable: a.Shareable, DerivedResults: resultsDerived(a)}
		if a.ResourceHandles != nil {
			handles := a.ResourceHandles
			alloc.ResourceHandles = &handles
		}
		st.Allocation = &alloc
	}
	if st.DriverName == "" && !st.DeallocationRequested && st.Allocation == nil {
		return nil
	}
	return &st
}

// restoreStatus puts the legacy status and allocation fields back.
func restoreStatus(st *stash.ClaimStatus, out *hub.ResourceClaimStatus) {
	if st == nil {
		return
	}
	out.DriverName = st.DriverName
	out.DeallocationRequested = st.DeallocationRequested
	a, alloc := st.Allocation, out.Allocation
	if a == nil || alloc == nil {
		// No allocation here any more: whoever removed it meant it.
		return
	}
	alloc.Controller = a.Controller
	alloc.Shareable = a.Shareable
	if a.ResourceHandles != nil {
		alloc.ResourceHandles = *a.ResourceHandles
	}
	if a.DerivedResults && alloc.ResourceHandles != nil &&
		sameResults(alloc.Devices.Results, hub.ResultsFromStructuredHandles(alloc.ResourceHandles)) {
		// The results only showed the structured handles; unless someone
		// edited them, the hub keeps the handles alone.
		alloc.Devices.Results = nil
	}
}

// resultsDerived reports whether v1 shows the structured handles of a 1.30
// allocation as results, which it does when the hub has no results of its
// own.
func resultsDerived(a *hub.AllocationResult) bool {
	if a.Devices.Results != nil {
		return false
	}
	for i := range a.ResourceHandles {
		if a.ResourceHandles[i].StructuredData != nil {
			return true
		}
	}
	return false
}

// sameResults reports whether results are exactly the rendering of
// structured handles: the same devices in the same order, and nothing else
// set.
func sameResults(results, rendered []hub.DeviceRequestAllocationResult) bool {
	if len(results) != len(rendered) {
		return false
	}
	for i := range results {
		r, w := &results[i], &rendered[i]
		if r.Request != w.Request || r.Driver != w.Driver || r.Pool != w.Pool || r.Device != w.Device ||
			r.AdminAccess != nil || r.Tolerations != nil || r.BindingConditions != nil || r.BindingFailureConditions != nil ||
			r.ShareID != nil || r.ConsumedCapacity != nil || r.SkipNodeOperations != nil {
			return false
		}
	}
	return true
}

func Convert_resource_ResourceClaimSpec_To_v1_ResourceClaimSpec(in *hub.ResourceClaimSpec, out *ResourceClaimSpec, s conversion.Scope) error {
	// Controller, ParametersRef and AllocationMode go to the stash (see
	// ResourceClaim).
	return autoConvert_resource_ResourceClaimSpec_To_v1_ResourceClaimSpec(in, out, s)
}

func Convert_resource_ResourceClaimStatus_To_v1_ResourceClaimStatus(in *hub.ResourceClaimStatus, out *ResourceClaimStatus, s conversion.Scope) error {
	// DeallocationRequested and DriverName go to the stash (see
	// ResourceClaim).
	return autoConvert_resource_ResourceClaimStatus_To_v1_ResourceClaimStatus(in, out, s)
}

func Convert_resource_AllocationResult_To_v1_AllocationResult(in *hub.AllocationResult, out *AllocationResult, s conversion.Scope) error {
	// Controller, ResourceHandles and Shareable go to the stash (see
	// ResourceClaim).
	if err := autoConvert_resource_AllocationResult_To_v1_AllocationResult(in, out, s); err != nil {
		return err
	}
	if resultsDerived(in) {
		// A claim allocated by 1.30's structured parameters shows its
		// devices as v1 does.
		results := hub.ResultsFromStructuredHandles(in.ResourceHandles)
		out.Devices.Results = make([]DeviceRequestAllocationResult, len(results))
		for i, r := range results {
			out.Devices.Results[i] = DeviceRequestAllocationResult{Request: r.Request, Driver: r.Driver, Pool: r.Pool, Device: r.Device}
		}
	}
	return nil
}

// ---------------------------------------------------------------------------
// ResourceSlice

func Convert_resource_ResourceSlice_To_v1_ResourceSlice(in *hub.ResourceSlice, out *ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceSlice_To_v1_ResourceSlice(in, out, s); err != nil {
		return err
	}
	st := stash.Slice{V: stash.FormatVersion, NoResourceModel: in.Spec.NoResourceModel}
	for i := range in.Spec.Devices {
		if d := &in.Spec.Devices[i]; d.NamedResources != nil {
			st.Devices = append(st.Devices, stash.Device{Index: i, Name: d.Name, NamedResources: d.NamedResources})
		}
	}
	if !st.NoResourceModel && st.Devices == nil {
		return nil
	}
	return stash.Write(&out.ObjectMeta, "ResourceSlice", &st)
}

func Convert_v1_ResourceSlice_To_resource_ResourceSlice(in *ResourceSlice, out *hub.ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_v1_ResourceSlice_To_resource_ResourceSlice(in, out, s); err != nil {
		return err
	}
	st, err := stash.Take[stash.Slice](&out.ObjectMeta, "ResourceSlice")
	if st == nil || err != nil {
		return err
	}
	out.Spec.NoResourceModel = st.NoResourceModel
	for _, sd := range st.Devices {
		// The layout belongs to the device it was kept for: a device that
		// is no longer there, or another one in its place, gets none.
		if sd.NamedResources != nil && sd.Index >= 0 && sd.Index < len(out.Spec.Devices) && out.Spec.Devices[sd.Index].Name == sd.Name {
			out.Spec.Devices[sd.Index].NamedResources = sd.NamedResources
		}
	}
	return nil
}

func Convert_resource_ResourceSliceSpec_To_v1_ResourceSliceSpec(in *hub.ResourceSliceSpec, out *ResourceSliceSpec, s conversion.Scope) error {
	// NoResourceModel goes to the stash (see ResourceSlice).
	return autoConvert_resource_ResourceSliceSpec_To_v1_ResourceSliceSpec(in, out, s)
}

func Convert_resource_Device_To_v1_Device(in *hub.Device, out *Device, s conversion.Scope) error {
	// NamedResources goes to the stash (see ResourceSlice).
	return autoConvert_resource_Device_To_v1_Device(in, out, s)
}
