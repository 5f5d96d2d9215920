package v1alpha1

import (
	"k8s.io/apimachinery/pkg/conversion"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/internal/legacy"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// v1alpha1 (1.26) says several things differently from the hub, which has
// v1's shape. Written here, each with its stash:
//   - ResourceClass is the hub's DeviceClass; driverName is its leading
//     driver selector;
//   - PodScheduling is the hub's PodSchedulingContext;
//   - a claim's resourceClassName is one request for one device of the class;
//   - the single resourceHandle is the first of the hub's handles, owned by
//     the status' driverName; availableOnNodes is the allocation's
//     nodeSelector; v1alpha3 device results show as the handle's data.
// docs/conversion.md has the field-by-field table.

// ---------------------------------------------------------------------------
// ResourceClass <-> DeviceClass

// classLost are the fields of a class spec that a ResourceClass cannot say
// at all, derived from the types (stash.LostFields): the stash keeps them.
// The selectors are driverName's and the stash's (legacy.ClassToLegacy).
var classLost = stash.LostFields[hub.DeviceClassSpec]([]any{ResourceClass{}}, "selectors")

func Convert_resource_DeviceClass_To_v1alpha1_ResourceClass(in *hub.DeviceClass, out *ResourceClass, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.ParametersRef = (*ResourceClassParametersReference)(in.Spec.ParametersRef)
	out.SuitableNodes = in.Spec.SuitableNodes
	var err error
	out.DriverName, err = legacy.ClassToLegacy(&in.Spec, &out.ObjectMeta, classLost)
	return err
}

func Convert_v1alpha1_ResourceClass_To_resource_DeviceClass(in *ResourceClass, out *hub.DeviceClass, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec = hub.DeviceClassSpec{
		ParametersRef: (*hub.ResourceClassParametersReference)(in.ParametersRef),
		SuitableNodes: in.SuitableNodes,
	}
	return legacy.ClassFromLegacy(in.DriverName, &out.ObjectMeta, &out.Spec, classLost)
}

func Convert_resource_DeviceClassList_To_v1alpha1_ResourceClassList(in *hub.DeviceClassList, out *ResourceClassList, s conversion.Scope) error {
	out.ListMeta = in.ListMeta
	return legacy.ConvertItems(in.Items, &out.Items, s, Convert_resource_DeviceClass_To_v1alpha1_ResourceClass)
}

func Convert_v1alpha1_ResourceClassList_To_resource_DeviceClassList(in *ResourceClassList, out *hub.DeviceClassList, s conversion.Scope) error {
	out.ListMeta = in.ListMeta
	return legacy.ConvertItems(in.Items, &out.Items, s, Convert_v1alpha1_ResourceClass_To_resource_DeviceClass)
}

// ---------------------------------------------------------------------------
// PodScheduling <-> PodSchedulingContext: the same fields under a new name.

func Convert_resource_PodSchedulingContext_To_v1alpha1_PodScheduling(in *hub.PodSchedulingContext, out *PodScheduling, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec = PodSchedulingSpec{SelectedNode: in.Spec.SelectedNode, PotentialNodes: in.Spec.PotentialNodes}
	out.Status.ResourceClaims = nil
	if in.Status.ResourceClaims != nil {
		out.Status.ResourceClaims = make([]ResourceClaimSchedulingStatus, len(in.Status.ResourceClaims))
		for i, c := range in.Status.ResourceClaims {
			out.Status.ResourceClaims[i] = ResourceClaimSchedulingStatus{Name: c.Name, UnsuitableNodes: c.UnsuitableNodes}
		}
	}
	return nil
}

func Convert_v1alpha1_PodScheduling_To_resource_PodSchedulingContext(in *PodScheduling, out *hub.PodSchedulingContext, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec = hub.PodSchedulingContextSpec{SelectedNode: in.Spec.SelectedNode, PotentialNodes: in.Spec.PotentialNodes}
	out.Status.ResourceClaims = nil
	if in.Status.ResourceClaims != nil {
		out.Status.ResourceClaims = make([]hub.ResourceClaimSchedulingStatus, len(in.Status.ResourceClaims))
		for i, c := range in.Status.ResourceClaims {
			out.Status.ResourceClaims[i] = hub.ResourceClaimSchedulingStatus{Name: c.Name, UnsuitableNodes: c.UnsuitableNodes}
		}
	}
	return nil
}

func Convert_resource_PodSchedulingContextList_To_v1alpha1_PodSchedulingList(in *hub.PodSchedulingContextList, out *PodSchedulingList, s conversion.Scope) error {
	out.ListMeta = in.ListMeta
	return legacy.ConvertItems(in.Items, &out.Items, s, Convert_resource_PodSchedulingContext_To_v1alpha1_PodScheduling)
}

func Convert_v1alpha1_PodSchedulingList_To_resource_PodSchedulingContextList(in *PodSchedulingList, out *hub.PodSchedulingContextList, s conversion.Scope) error {
	out.ListMeta = in.ListMeta
	return legacy.ConvertItems(in.Items, &out.Items, s, Convert_v1alpha1_PodScheduling_To_resource_PodSchedulingContext)
}

// ---------------------------------------------------------------------------
// ResourceClaim and ResourceClaimTemplate

func Convert_resource_ResourceClaim_To_v1alpha1_ResourceClaim(in *hub.ResourceClaim, out *ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaim_To_v1alpha1_ResourceClaim(in, out, s); err != nil {
		return err
	}
	return legacy.WriteClaimStash(&out.ObjectMeta, "ResourceClaim", &in.Spec, statusStash(&in.Status), &in.Status, &claimShape)
}

func Convert_v1alpha1_ResourceClaim_To_resource_ResourceClaim(in *ResourceClaim, out *hub.ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_v1alpha1_ResourceClaim_To_resource_ResourceClaim(in, out, s); err != nil {
		return err
	}
	st, err := legacy.TakeClaimStash(&out.ObjectMeta, "ResourceClaim", in.Spec.ResourceClassName, &out.Spec, &claimShape)
	if st == nil || err != nil {
		return err
	}
	restoreStatus(st.Status, &in.Status, &out.Status)
	claimShape.Status.Restore(st.Lost, &out.Status)
	return nil
}

func Convert_resource_ResourceClaimTemplate_To_v1alpha1_ResourceClaimTemplate(in *hub.ResourceClaimTemplate, out *ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaimTemplate_To_v1alpha1_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	return legacy.WriteClaimStash(&out.ObjectMeta, "ResourceClaimTemplate", &in.Spec.Spec, nil, nil, &claimShape)
}

func Convert_v1alpha1_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in *ResourceClaimTemplate, out *hub.ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_v1alpha1_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	_, err := legacy.TakeClaimStash(&out.ObjectMeta, "ResourceClaimTemplate", in.Spec.Spec.ResourceClassName, &out.Spec.Spec, &claimShape)
	return err
}

func Convert_resource_ResourceClaimSpec_To_v1alpha1_ResourceClaimSpec(in *hub.ResourceClaimSpec, out *ResourceClaimSpec, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaimSpec_To_v1alpha1_ResourceClaimSpec(in, out, s); err != nil {
		return err
	}
	out.ResourceClassName, _ = legacy.ClassName(in.Devices.Requests)
	return nil
}

func Convert_v1alpha1_ResourceClaimSpec_To_resource_ResourceClaimSpec(in *ResourceClaimSpec, out *hub.ResourceClaimSpec, s conversion.Scope) error {
	if err := autoConvert_v1alpha1_ResourceClaimSpec_To_resource_ResourceClaimSpec(in, out, s); err != nil {
		return err
	}
	out.Devices = hub.DeviceClaim{Requests: legacy.Requests(in.ResourceClassName)}
	return nil
}

// Status: the single resourceHandle.

func Convert_resource_ResourceClaimStatus_To_v1alpha1_ResourceClaimStatus(in *hub.ResourceClaimStatus, out *ResourceClaimStatus, s conversion.Scope) error {
	// Devices goes to the stash (see statusStash).
	return autoConvert_resource_ResourceClaimStatus_To_v1alpha1_ResourceClaimStatus(in, out, s)
}

func Convert_v1alpha1_ResourceClaimStatus_To_resource_ResourceClaimStatus(in *ResourceClaimStatus, out *hub.ResourceClaimStatus, s conversion.Scope) error {
	if err := autoConvert_v1alpha1_ResourceClaimStatus_To_resource_ResourceClaimStatus(in, out, s); err != nil {
		return err
	}
	// The handle belongs to the driver that allocated the claim.
	if out.Allocation != nil && len(out.Allocation.ResourceHandles) == 1 {
		out.Allocation.ResourceHandles[0].DriverName = in.DriverName
	}
	return nil
}

func Convert_resource_AllocationResult_To_v1alpha1_AllocationResult(in *hub.AllocationResult, out *AllocationResult, s conversion.Scope) error {
	if err := autoConvert_resource_AllocationResult_To_v1alpha1_AllocationResult(in, out, s); err != nil {
		return err
	}
	out.AvailableOnNodes = in.NodeSelector
	switch {
	case len(in.ResourceHandles) > 0:
		out.ResourceHandle = in.ResourceHandles[0].Data
	case handleDerived(in):
		out.ResourceHandle = legacy.HandleFromDevices(in.Devices)
	default:
		out.ResourceHandle = ""
	}
	return nil
}

func Convert_v1alpha1_AllocationResult_To_resource_AllocationResult(in *AllocationResult, out *hub.AllocationResult, s conversion.Scope) error {
	if err := autoConvert_v1alpha1_AllocationResult_To_resource_AllocationResult(in, out, s); err != nil {
		return err
	}
	out.NodeSelector = in.AvailableOnNodes
	out.ResourceHandles = nil
	if in.ResourceHandle != "" {
		// The driver is filled in by the status conversion.
		out.ResourceHandles = []hub.ResourceHandle{{Data: in.ResourceHandle}}
	}
	return nil
}

// handleDerived reports whether resourceHandle shows the device results of
// an allocation that has no handles of its own.
func handleDerived(a *hub.AllocationResult) bool {
	return a.ResourceHandles == nil && a.Devices.Results != nil
}

// singleHandle reports whether the handles are exactly what one
// resourceHandle of the status' driver gives back.
func singleHandle(a *hub.AllocationResult, driver string) bool {
	if a.ResourceHandles == nil {
		return true
	}
	h := a.ResourceHandles
	return len(h) == 1 && h[0].DriverName == driver && h[0].Data != "" && h[0].StructuredData == nil
}

// claimShape is what v1alpha1 cannot say of a claim, derived from the
// types: of the spec, the controller (its devices are resourceClassName and
// the requests, constraints and config the stash keeps whole); of the
// status, the fields its types lack (the devices' status, the allocation's
// controller and timestamp; the device allocation is kept whole, the
// handles are resourceHandle and the node selector is availableOnNodes).
var claimShape = legacy.NewClaimShape(
	stash.NewTree[hub.ResourceClaimSpec](ResourceClaimSpec{}, "spec", stash.Kept("spec"), stash.Rendered("spec.devices"),
		stash.Handled("spec.devices.requests", "spec.devices.constraints", "spec.devices.config")),
	stash.NewTree[hub.ResourceClaimStatus](ResourceClaimStatus{}, "status", stash.Kept("status", "status.allocation"),
		stash.Handled("status.allocation.devices", "status.allocation.nodeSelector", "status.allocation.resourceHandles")),
)

// statusStash keeps what v1alpha1 cannot say of a claim's status: the
// device allocation (results and config) whole, the fields its types lack
// (claimShape), and the handles unless the single resourceHandle says all
// of them.
func statusStash(in *hub.ResourceClaimStatus) *stash.ClaimStatus {
	st, alloc := claimShape.KeepStatus(in)
	if a := in.Allocation; a != nil {
		devices := legacy.HasDevices(a.Devices)
		derived := handleDerived(a)
		handles := !derived && !singleHandle(a, in.DriverName)
		if alloc == nil && (devices || derived || handles) {
			alloc = &stash.Allocation{}
		}
		if devices {
			kept := a.Devices
			alloc.Devices = &kept
		}
		if derived {
			alloc.DerivedHandles = 1
		} else if handles {
			kept := append([]hub.ResourceHandle{}, a.ResourceHandles...)
			if len(kept) > 0 {
				kept[0].Data = "" // shown as resourceHandle
			}
			alloc.ResourceHandles = kept
		}
	}
	if alloc != nil {
		if st == nil {
			st = &stash.ClaimStatus{}
		}
		st.Allocation = alloc
	}
	return st
}

func restoreStatus(st *stash.ClaimStatus, in *ResourceClaimStatus, out *hub.ResourceClaimStatus) {
	if st == nil {
		return
	}
	claimShape.RestoreStatus(st, out)
	if st.Allocation == nil || out.Allocation == nil {
		return
	}
	a, alloc := st.Allocation, out.Allocation
	if a.Devices != nil {
		alloc.Devices = *a.Devices
	}
	handle := in.Allocation.ResourceHandle
	switch {
	case a.ResourceHandles != nil:
		handles := a.ResourceHandles
		if len(handles) > 0 {
			handles[0].Data = handle // resourceHandle wins over what was kept
		} else if handle != "" {
			handles = []hub.ResourceHandle{{DriverName: in.DriverName, Data: handle}}
		}
		alloc.ResourceHandles = handles
	case a.DerivedHandles > 0 && a.Devices != nil && handle == legacy.HandleFromDevices(*a.Devices):
		// The handle only showed the device results.
		alloc.ResourceHandles = nil
	}
}
