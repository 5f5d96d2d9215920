package v1beta1

import (
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/conversion"

	hub "github.com/drakit/drakit/apis/resource"
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
// 1.30 allocation show as device results. docs/conversion.md has the
// field-by-field table.

// ---------------------------------------------------------------------------
// DeviceClass

func Convert_resource_DeviceClass_To_v1beta1_DeviceClass(in *hub.DeviceClass, out *DeviceClass, s conversion.Scope) error {
	if err := autoConvert_resource_DeviceClass_To_v1beta1_DeviceClass(in, out, s); err != nil {
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

func Convert_v1beta1_DeviceClass_To_resource_DeviceClass(in *DeviceClass, out *hub.DeviceClass, s conversion.Scope) error {
	if err := autoConvert_v1beta1_DeviceClass_To_resource_DeviceClass(in, out, s); err != nil {
		return err
	}
	st, err := stash.Take[stash.Class](&out.ObjectMeta, "DeviceClass")
	if st == nil || err != nil {
		return err
	}
	// Only the legacy fields: what v1beta1 says itself (selectors, config,
	// extendedResourceName) is never taken from a stash.
	out.Spec.SuitableNodes = st.SuitableNodes
	out.Spec.ParametersRef = st.ParametersRef
	out.Spec.StructuredParameters = st.StructuredParameters
	return nil
}

func Convert_resource_DeviceClassSpec_To_v1beta1_DeviceClassSpec(in *hub.DeviceClassSpec, out *DeviceClassSpec, s conversion.Scope) error {
	// SuitableNodes, ParametersRef and StructuredParameters go to the stash
	// (see DeviceClass).
	return autoConvert_resource_DeviceClassSpec_To_v1beta1_DeviceClassSpec(in, out, s)
}

// ---------------------------------------------------------------------------
// ResourceClaim and ResourceClaimTemplate

func Convert_resource_ResourceClaim_To_v1beta1_ResourceClaim(in *hub.ResourceClaim, out *ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaim_To_v1beta1_ResourceClaim(in, out, s); err != nil {
		return err
	}
	spec, status := specStash(&in.Spec), statusStash(&in.Status)
	if spec == nil && status == nil {
		return nil
	}
	return stash.Write(&out.ObjectMeta, "ResourceClaim", &stash.Claim{V: stash.FormatVersion, Spec: spec, Status: status})
}

func Convert_v1beta1_ResourceClaim_To_resource_ResourceClaim(in *ResourceClaim, out *hub.ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_v1beta1_ResourceClaim_To_resource_ResourceClaim(in, out, s); err != nil {
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

func Convert_resource_ResourceClaimTemplate_To_v1beta1_ResourceClaimTemplate(in *hub.ResourceClaimTemplate, out *ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaimTemplate_To_v1beta1_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	spec := specStash(&in.Spec.Spec)
	if spec == nil {
		return nil
	}
	return stash.Write(&out.ObjectMeta, "ResourceClaimTemplate", &stash.Claim{V: stash.FormatVersion, Spec: spec})
}

func Convert_v1beta1_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in *ResourceClaimTemplate, out *hub.ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_v1beta1_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in, out, s); err != nil {
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
// defaulted). It also names the requests with an empty exactly, which the
// flat request shows as no exact request at all.
func specStash(in *hub.ResourceClaimSpec) *stash.ClaimSpec {
	mode := in.AllocationMode
	if mode == hub.AllocationModeWaitForFirstConsumer {
		mode = ""
	}
	var empty []string
	for i := range in.Devices.Requests {
		if r := &in.Devices.Requests[i]; r.Exactly != nil && !hasExactFields(r.Exactly) {
			empty = append(empty, r.Name)
		}
	}
	if in.Controller == "" && in.ParametersRef == nil && mode == "" && empty == nil {
		return nil
	}
	return &stash.ClaimSpec{Controller: in.Controller, ParametersRef: in.ParametersRef, AllocationMode: mode, EmptyExactly: empty}
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
	// The names are matched in order, each with the next request of that
	// name; a request that has exact fields now keeps them (edit wins).
	names := st.EmptyExactly
	for i := range out.Devices.Requests {
		if len(names) == 0 {
			break
		}
		if r := &out.Devices.Requests[i]; r.Name == names[0] {
			names = names[1:]
			if r.Exactly == nil {
				r.Exactly = &hub.ExactDeviceRequest{}
			}
		}
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

// resultsDerived reports whether v1beta1 shows the structured handles of a 1.30
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

func Convert_resource_ResourceClaimSpec_To_v1beta1_ResourceClaimSpec(in *hub.ResourceClaimSpec, out *ResourceClaimSpec, s conversion.Scope) error {
	// Controller, ParametersRef and AllocationMode go to the stash (see
	// ResourceClaim).
	return autoConvert_resource_ResourceClaimSpec_To_v1beta1_ResourceClaimSpec(in, out, s)
}

func Convert_resource_ResourceClaimStatus_To_v1beta1_ResourceClaimStatus(in *hub.ResourceClaimStatus, out *ResourceClaimStatus, s conversion.Scope) error {
	// DeallocationRequested and DriverName go to the stash (see
	// ResourceClaim).
	return autoConvert_resource_ResourceClaimStatus_To_v1beta1_ResourceClaimStatus(in, out, s)
}

func Convert_resource_AllocationResult_To_v1beta1_AllocationResult(in *hub.AllocationResult, out *AllocationResult, s conversion.Scope) error {
	// Controller, ResourceHandles and Shareable go to the stash (see
	// ResourceClaim).
	if err := autoConvert_resource_AllocationResult_To_v1beta1_AllocationResult(in, out, s); err != nil {
		return err
	}
	if resultsDerived(in) {
		// A claim allocated by 1.30's structured parameters shows its
		// devices as v1beta1 does.
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

func Convert_resource_ResourceSlice_To_v1beta1_ResourceSlice(in *hub.ResourceSlice, out *ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceSlice_To_v1beta1_ResourceSlice(in, out, s); err != nil {
		return err
	}
	st := stash.Slice{V: stash.FormatVersion, NoResourceModel: in.Spec.NoResourceModel}
	// A set "" or false reads back as unset; the stash keeps it set.
	if p := in.Spec.NodeName; p != nil && *p == "" {
		st.NodeName = p
	}
	if p := in.Spec.AllNodes; p != nil && !*p {
		st.AllNodes = p
	}
	for i := range in.Spec.Devices {
		if d := &in.Spec.Devices[i]; d.NamedResources != nil {
			st.Devices = append(st.Devices, stash.Device{Index: i, Name: d.Name, NamedResources: d.NamedResources})
		}
	}
	if !st.NoResourceModel && st.Devices == nil && st.NodeName == nil && st.AllNodes == nil {
		return nil
	}
	return stash.Write(&out.ObjectMeta, "ResourceSlice", &st)
}

func Convert_v1beta1_ResourceSlice_To_resource_ResourceSlice(in *ResourceSlice, out *hub.ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_v1beta1_ResourceSlice_To_resource_ResourceSlice(in, out, s); err != nil {
		return err
	}
	st, err := stash.Take[stash.Slice](&out.ObjectMeta, "ResourceSlice")
	if st == nil || err != nil {
		return err
	}
	out.Spec.NoResourceModel = st.NoResourceModel
	// Only while v1beta1 still says "unset": a name or true set since then
	// wins.
	if p := st.NodeName; p != nil && *p == "" && in.Spec.NodeName == "" {
		out.Spec.NodeName = p
	}
	if p := st.AllNodes; p != nil && !*p && !in.Spec.AllNodes {
		out.Spec.AllNodes = p
	}
	for _, sd := range st.Devices {
		// The layout belongs to the device it was kept for: a device that
		// is no longer there, or another one in its place, gets none.
		if sd.NamedResources != nil && sd.Index >= 0 && sd.Index < len(out.Spec.Devices) && out.Spec.Devices[sd.Index].Name == sd.Name {
			out.Spec.Devices[sd.Index].NamedResources = sd.NamedResources
		}
	}
	return nil
}

func Convert_resource_ResourceSliceSpec_To_v1beta1_ResourceSliceSpec(in *hub.ResourceSliceSpec, out *ResourceSliceSpec, s conversion.Scope) error {
	// NoResourceModel, and a nodeName "" or allNodes false that is set, go
	// to the stash (see ResourceSlice). Unset is "" and false here.
	return autoConvert_resource_ResourceSliceSpec_To_v1beta1_ResourceSliceSpec(in, out, s)
}

func Convert_v1beta1_ResourceSliceSpec_To_resource_ResourceSliceSpec(in *ResourceSliceSpec, out *hub.ResourceSliceSpec, s conversion.Scope) error {
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
func Convert_resource_Device_To_v1beta1_Device(in *hub.Device, out *Device, s conversion.Scope) error {
	out.Name = in.Name
	out.Basic = &BasicDevice{
		Attributes:               *(*map[QualifiedName]DeviceAttribute)(unsafe.Pointer(&in.Attributes)),
		Capacity:                 *(*map[QualifiedName]DeviceCapacity)(unsafe.Pointer(&in.Capacity)),
		ConsumesCounters:         *(*[]DeviceCounterConsumption)(unsafe.Pointer(&in.ConsumesCounters)),
		NodeName:                 in.NodeName,
		NodeSelector:             in.NodeSelector,
		AllNodes:                 in.AllNodes,
		Taints:                   *(*[]DeviceTaint)(unsafe.Pointer(&in.Taints)),
		BindsToNode:              in.BindsToNode,
		BindingConditions:        in.BindingConditions,
		BindingFailureConditions: in.BindingFailureConditions,
		AllowMultipleAllocations: in.AllowMultipleAllocations,
		NodeAllocatableResources: *(*map[corev1.ResourceName]NodeAllocatableResource)(unsafe.Pointer(&in.NodeAllocatableResources)),
	}
	return nil
}

// Convert_v1beta1_Device_To_resource_Device moves the properties under
// basic onto the hub device, empty maps and lists as they are. A device
// without basic has no properties, like one with an empty basic; it comes
// back with an empty basic.
func Convert_v1beta1_Device_To_resource_Device(in *Device, out *hub.Device, s conversion.Scope) error {
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
// at all; the stash names it (see specStash).
func Convert_resource_DeviceRequest_To_v1beta1_DeviceRequest(in *hub.DeviceRequest, out *DeviceRequest, s conversion.Scope) error {
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
	out.Selectors = *(*[]DeviceSelector)(unsafe.Pointer(&e.Selectors))
	out.AllocationMode = DeviceAllocationMode(e.AllocationMode)
	out.Count = e.Count
	out.AdminAccess = e.AdminAccess
	out.Tolerations = *(*[]DeviceToleration)(unsafe.Pointer(&e.Tolerations))
	out.Capacity = (*CapacityRequirements)(unsafe.Pointer(e.Capacity))
	out.DerivedAttributes = *(*[]DeviceDerivedAttribute)(unsafe.Pointer(&e.DerivedAttributes))
	return nil
}

// Convert_v1beta1_DeviceRequest_To_resource_DeviceRequest gathers the flat
// exact fields into exactly, which is set when any of them is: a class, a
// mode or a count, or any list, even an empty one.
func Convert_v1beta1_DeviceRequest_To_resource_DeviceRequest(in *DeviceRequest, out *hub.DeviceRequest, s conversion.Scope) error {
	if err := autoConvert_v1beta1_DeviceRequest_To_resource_DeviceRequest(in, out, s); err != nil {
		return err
	}
	if in.DeviceClassName == "" && in.Selectors == nil && in.AllocationMode == "" && in.Count == 0 &&
		in.AdminAccess == nil && in.Tolerations == nil && in.Capacity == nil && in.DerivedAttributes == nil {
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

// hasExactFields reports whether an exact request says anything, that is
// whether v1beta1's flat request shows it.
func hasExactFields(e *hub.ExactDeviceRequest) bool {
	return e.DeviceClassName != "" || e.Selectors != nil || e.AllocationMode != "" || e.Count != 0 ||
		e.AdminAccess != nil || e.Tolerations != nil || e.Capacity != nil || e.DerivedAttributes != nil
}
