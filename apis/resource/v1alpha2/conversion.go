package v1alpha2

import (
	"k8s.io/apimachinery/pkg/conversion"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/internal/legacy"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// v1alpha2 (1.30) says several things differently from the hub, which is
// built around v1alpha3. Written here, each with its stash:
//   - ResourceClass is the hub's DeviceClass; driverName is its leading
//     driver selector;
//   - a claim's resourceClassName is one request for one device of the class;
//   - availableOnNodes is the allocation's nodeSelector, and v1alpha3 device
//     results show as structured handles;
//   - a ResourceSlice's top-level fields and named resources are the hub's
//     spec and devices, its pool derived from the node.
// docs/conversion.md has the field-by-field table.

// ---------------------------------------------------------------------------
// ResourceClass <-> DeviceClass

func Convert_resource_DeviceClass_To_v1alpha2_ResourceClass(in *hub.DeviceClass, out *ResourceClass, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.ParametersRef = (*ResourceClassParametersReference)(in.Spec.ParametersRef)
	out.SuitableNodes = in.Spec.SuitableNodes
	out.StructuredParameters = in.Spec.StructuredParameters
	var err error
	out.DriverName, err = legacy.ClassToLegacy(&in.Spec, &out.ObjectMeta, true)
	return err
}

func Convert_v1alpha2_ResourceClass_To_resource_DeviceClass(in *ResourceClass, out *hub.DeviceClass, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec = hub.DeviceClassSpec{
		ParametersRef:        (*hub.ResourceClassParametersReference)(in.ParametersRef),
		SuitableNodes:        in.SuitableNodes,
		StructuredParameters: in.StructuredParameters,
	}
	return legacy.ClassFromLegacy(in.DriverName, &out.ObjectMeta, &out.Spec, true)
}

func Convert_resource_DeviceClassList_To_v1alpha2_ResourceClassList(in *hub.DeviceClassList, out *ResourceClassList, s conversion.Scope) error {
	out.ListMeta = in.ListMeta
	return legacy.ConvertItems(in.Items, &out.Items, s, Convert_resource_DeviceClass_To_v1alpha2_ResourceClass)
}

func Convert_v1alpha2_ResourceClassList_To_resource_DeviceClassList(in *ResourceClassList, out *hub.DeviceClassList, s conversion.Scope) error {
	out.ListMeta = in.ListMeta
	return legacy.ConvertItems(in.Items, &out.Items, s, Convert_v1alpha2_ResourceClass_To_resource_DeviceClass)
}

// ---------------------------------------------------------------------------
// ResourceClaim and ResourceClaimTemplate

func Convert_resource_ResourceClaim_To_v1alpha2_ResourceClaim(in *hub.ResourceClaim, out *ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaim_To_v1alpha2_ResourceClaim(in, out, s); err != nil {
		return err
	}
	return legacy.WriteClaimStash(&out.ObjectMeta, "ResourceClaim", &in.Spec, statusStash(&in.Status))
}

func Convert_v1alpha2_ResourceClaim_To_resource_ResourceClaim(in *ResourceClaim, out *hub.ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_v1alpha2_ResourceClaim_To_resource_ResourceClaim(in, out, s); err != nil {
		return err
	}
	st, err := legacy.TakeClaimStash(&out.ObjectMeta, "ResourceClaim", in.Spec.ResourceClassName, &out.Spec)
	if err != nil {
		return err
	}
	restoreStatus(st, &in.Status, &out.Status)
	return nil
}

func Convert_resource_ResourceClaimTemplate_To_v1alpha2_ResourceClaimTemplate(in *hub.ResourceClaimTemplate, out *ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaimTemplate_To_v1alpha2_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	return legacy.WriteClaimStash(&out.ObjectMeta, "ResourceClaimTemplate", &in.Spec.Spec, nil)
}

func Convert_v1alpha2_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in *ResourceClaimTemplate, out *hub.ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_v1alpha2_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	_, err := legacy.TakeClaimStash(&out.ObjectMeta, "ResourceClaimTemplate", in.Spec.Spec.ResourceClassName, &out.Spec.Spec)
	return err
}

func Convert_resource_ResourceClaimSpec_To_v1alpha2_ResourceClaimSpec(in *hub.ResourceClaimSpec, out *ResourceClaimSpec, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaimSpec_To_v1alpha2_ResourceClaimSpec(in, out, s); err != nil {
		return err
	}
	out.ResourceClassName, _ = legacy.ClassName(in.Devices.Requests)
	return nil
}

func Convert_v1alpha2_ResourceClaimSpec_To_resource_ResourceClaimSpec(in *ResourceClaimSpec, out *hub.ResourceClaimSpec, s conversion.Scope) error {
	if err := autoConvert_v1alpha2_ResourceClaimSpec_To_resource_ResourceClaimSpec(in, out, s); err != nil {
		return err
	}
	out.Devices = hub.DeviceClaim{Requests: legacy.Requests(in.ResourceClassName)}
	return nil
}

func statusStash(in *hub.ResourceClaimStatus) *stash.ClaimStatus {
	a := in.Allocation
	if a == nil {
		return nil
	}
	alloc := stash.Allocation{Controller: a.Controller, DerivedHandles: len(derivedHandles(a))}
	if legacy.HasDevices(a.Devices) {
		devices := a.Devices
		alloc.Devices = &devices
	}
	if alloc.IsZero() {
		return nil
	}
	return &stash.ClaimStatus{Allocation: &alloc}
}

func restoreStatus(st *stash.ClaimStatus, in *ResourceClaimStatus, out *hub.ResourceClaimStatus) {
	if st == nil || st.Allocation == nil || out.Allocation == nil {
		return
	}
	a, alloc := st.Allocation, out.Allocation
	alloc.Controller = a.Controller
	if a.Devices != nil {
		alloc.Devices = *a.Devices
	}
	if k := a.DerivedHandles; k > 0 && a.Devices != nil {
		// Drop the handles that only showed the device results, unless
		// someone edited them.
		handles := alloc.ResourceHandles
		n := len(handles) - k
		if n >= 0 && legacy.SameStructuredHandles(handles[n:], legacy.HandlesFromResults(a.Devices.Results)) {
			if n == 0 {
				alloc.ResourceHandles = nil
			} else {
				alloc.ResourceHandles = handles[:n:n]
			}
		}
	}
}

// derivedHandles are the structured handles that show v1alpha3 device
// results, for a hub allocation that has results but no structured handles.
func derivedHandles(a *hub.AllocationResult) []hub.ResourceHandle {
	if a.Devices.Results == nil || legacy.HasStructuredHandles(a.ResourceHandles) {
		return nil
	}
	return legacy.HandlesFromResults(a.Devices.Results)
}

func Convert_resource_AllocationResult_To_v1alpha2_AllocationResult(in *hub.AllocationResult, out *AllocationResult, s conversion.Scope) error {
	if err := autoConvert_resource_AllocationResult_To_v1alpha2_AllocationResult(in, out, s); err != nil {
		return err
	}
	out.AvailableOnNodes = in.NodeSelector
	if derived := derivedHandles(in); derived != nil {
		// A new slice: the converted handles may share memory with the input.
		handles := make([]ResourceHandle, len(out.ResourceHandles), len(out.ResourceHandles)+len(derived))
		copy(handles, out.ResourceHandles)
		for i := range derived {
			var h ResourceHandle
			if err := Convert_resource_ResourceHandle_To_v1alpha2_ResourceHandle(&derived[i], &h, s); err != nil {
				return err
			}
			handles = append(handles, h)
		}
		out.ResourceHandles = handles
	}
	return nil
}

func Convert_v1alpha2_AllocationResult_To_resource_AllocationResult(in *AllocationResult, out *hub.AllocationResult, s conversion.Scope) error {
	if err := autoConvert_v1alpha2_AllocationResult_To_resource_AllocationResult(in, out, s); err != nil {
		return err
	}
	out.NodeSelector = in.AvailableOnNodes
	return nil
}

// ---------------------------------------------------------------------------
// ResourceSlice

func Convert_resource_ResourceSlice_To_v1alpha2_ResourceSlice(in *hub.ResourceSlice, out *ResourceSlice, s conversion.Scope) error {
	spec := &in.Spec
	out.ObjectMeta = in.ObjectMeta
	out.NodeName = spec.NodeName
	out.DriverName = spec.Driver
	out.NamedResources = nil
	if !spec.NoResourceModel || spec.Devices != nil {
		out.NamedResources = &NamedResourcesResources{Instances: instancesFromDevices(spec.Devices)}
	}

	st := stash.Slice{V: stash.FormatVersion, NodeSelector: spec.NodeSelector, AllNodes: spec.AllNodes}
	if spec.Pool != legacy.Pool(spec.NodeName, spec.Driver) {
		pool := spec.Pool
		st.Pool = &pool
	}
	st.NoResourceModel = spec.NoResourceModel && spec.Devices != nil
	for i := range spec.Devices {
		if spec.Devices[i].Basic == nil {
			st.Devices = append(st.Devices, stash.Device{Index: i, Name: spec.Devices[i].Name, BasicMissing: true})
		}
	}
	if st.Pool == nil && st.NodeSelector == nil && !st.AllNodes && !st.NoResourceModel && st.Devices == nil {
		return nil
	}
	return stash.Write(&out.ObjectMeta, "ResourceSlice", &st)
}

func Convert_v1alpha2_ResourceSlice_To_resource_ResourceSlice(in *ResourceSlice, out *hub.ResourceSlice, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec = hub.ResourceSliceSpec{
		Driver:          in.DriverName,
		NodeName:        in.NodeName,
		Pool:            legacy.Pool(in.NodeName, in.DriverName),
		NoResourceModel: in.NamedResources == nil,
	}
	if in.NamedResources != nil {
		out.Spec.Devices = devicesFromInstances(in.NamedResources.Instances)
	}
	st, err := stash.Take[stash.Slice](&out.ObjectMeta, "ResourceSlice")
	if st == nil || err != nil {
		return err
	}
	if st.Pool != nil {
		out.Spec.Pool = *st.Pool
	}
	out.Spec.NodeSelector = st.NodeSelector
	out.Spec.AllNodes = st.AllNodes
	out.Spec.NoResourceModel = out.Spec.NoResourceModel || st.NoResourceModel
	for _, sd := range st.Devices {
		if !sd.BasicMissing || sd.Index >= len(out.Spec.Devices) {
			continue
		}
		d := &out.Spec.Devices[sd.Index]
		// Someone who gave the instance attributes meant it to have them.
		if d.Name == sd.Name && d.Basic != nil && d.Basic.Attributes == nil {
			d.Basic = nil
		}
	}
	return nil
}

func instancesFromDevices(devices []hub.Device) []NamedResourcesInstance {
	if devices == nil {
		return nil
	}
	instances := make([]NamedResourcesInstance, len(devices))
	for i := range devices {
		instances[i].Name = devices[i].Name
		if b := devices[i].Basic; b != nil && b.Attributes != nil {
			attrs := make([]NamedResourcesAttribute, len(b.Attributes))
			for j := range b.Attributes {
				a := &b.Attributes[j]
				attrs[j] = NamedResourcesAttribute{
					Name: string(a.Name),
					NamedResourcesAttributeValue: NamedResourcesAttributeValue{
						QuantityValue: a.QuantityValue,
						BoolValue:     a.BoolValue,
						IntValue:      a.IntValue,
						StringValue:   a.StringValue,
						VersionValue:  a.VersionValue,
					},
				}
				if a.IntSliceValue != nil {
					attrs[j].IntSliceValue = &NamedResourcesIntSlice{Ints: a.IntSliceValue.Ints}
				}
				if a.StringSliceValue != nil {
					attrs[j].StringSliceValue = &NamedResourcesStringSlice{Strings: a.StringSliceValue.Strings}
				}
			}
			instances[i].Attributes = attrs
		}
	}
	return instances
}

func devicesFromInstances(instances []NamedResourcesInstance) []hub.Device {
	if instances == nil {
		return nil
	}
	devices := make([]hub.Device, len(instances))
	for i := range instances {
		devices[i] = hub.Device{Name: instances[i].Name, Basic: &hub.BasicDevice{}}
		if instances[i].Attributes == nil {
			continue
		}
		attrs := make([]hub.DeviceAttribute, len(instances[i].Attributes))
		for j := range instances[i].Attributes {
			a := &instances[i].Attributes[j]
			attrs[j] = hub.DeviceAttribute{
				Name:          hub.QualifiedName(a.Name),
				QuantityValue: a.QuantityValue,
				BoolValue:     a.BoolValue,
				IntValue:      a.IntValue,
				StringValue:   a.StringValue,
				VersionValue:  a.VersionValue,
			}
			if a.IntSliceValue != nil {
				attrs[j].IntSliceValue = &hub.IntSlice{Ints: a.IntSliceValue.Ints}
			}
			if a.StringSliceValue != nil {
				attrs[j].StringSliceValue = &hub.StringSlice{Strings: a.StringSliceValue.Strings}
			}
		}
		devices[i].Basic.Attributes = attrs
	}
	return devices
}
