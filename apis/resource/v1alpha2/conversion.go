package v1alpha2

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/util/validation"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/internal/legacy"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// v1alpha2 (1.30) says several things differently from the hub, which has
// v1's shape. Written here, each with its stash:
//   - ResourceClass is the hub's DeviceClass; driverName is its leading
//     driver selector;
//   - a claim's resourceClassName is one request for one device of the class;
//   - availableOnNodes is the allocation's nodeSelector, and v1alpha3 device
//     results show as structured handles;
//   - a ResourceSlice's top-level fields and named resources are the hub's
//     spec and devices, its pool derived from the node; an instance's
//     attribute list is a device's attributes and capacity maps.
// docs/conversion.md has the field-by-field table.

// ---------------------------------------------------------------------------
// ResourceClass <-> DeviceClass

// classLost are the fields of a class spec that a ResourceClass cannot say
// at all, derived from the types (stash.LostFields): the stash keeps them.
// The selectors are driverName's and the stash's (legacy.ClassToLegacy).
var classLost = stash.LostFields[hub.DeviceClassSpec]([]any{ResourceClass{}}, "selectors")

func Convert_resource_DeviceClass_To_v1alpha2_ResourceClass(in *hub.DeviceClass, out *ResourceClass, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.ParametersRef = (*ResourceClassParametersReference)(in.Spec.ParametersRef)
	out.SuitableNodes = in.Spec.SuitableNodes
	out.StructuredParameters = in.Spec.StructuredParameters
	var err error
	out.DriverName, err = legacy.ClassToLegacy(&in.Spec, &out.ObjectMeta, classLost)
	return err
}

func Convert_v1alpha2_ResourceClass_To_resource_DeviceClass(in *ResourceClass, out *hub.DeviceClass, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec = hub.DeviceClassSpec{
		ParametersRef:        (*hub.ResourceClassParametersReference)(in.ParametersRef),
		SuitableNodes:        in.SuitableNodes,
		StructuredParameters: in.StructuredParameters,
	}
	return legacy.ClassFromLegacy(in.DriverName, &out.ObjectMeta, &out.Spec, classLost)
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
	return legacy.WriteClaimStash(&out.ObjectMeta, "ResourceClaim", &in.Spec, statusStash(&in.Status), &in.Status, &claimShape)
}

func Convert_v1alpha2_ResourceClaim_To_resource_ResourceClaim(in *ResourceClaim, out *hub.ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_v1alpha2_ResourceClaim_To_resource_ResourceClaim(in, out, s); err != nil {
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

func Convert_resource_ResourceClaimTemplate_To_v1alpha2_ResourceClaimTemplate(in *hub.ResourceClaimTemplate, out *ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaimTemplate_To_v1alpha2_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	return legacy.WriteClaimStash(&out.ObjectMeta, "ResourceClaimTemplate", &in.Spec.Spec, nil, nil, &claimShape)
}

func Convert_v1alpha2_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in *ResourceClaimTemplate, out *hub.ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_v1alpha2_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	_, err := legacy.TakeClaimStash(&out.ObjectMeta, "ResourceClaimTemplate", in.Spec.Spec.ResourceClassName, &out.Spec.Spec, &claimShape)
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

// claimShape is what v1alpha2 cannot say of a claim, derived from the
// types: of the spec, the controller (its devices are resourceClassName and
// the requests, constraints and config the stash keeps whole); of the
// status, the fields its types lack (the devices' status, the allocation's
// controller and timestamp; the device allocation is kept whole and the
// node selector is availableOnNodes).
var claimShape = legacy.NewClaimShape(
	stash.NewTree[hub.ResourceClaimSpec](ResourceClaimSpec{}, "spec", stash.Kept("spec"), stash.Rendered("spec.devices"),
		stash.Handled("spec.devices.requests", "spec.devices.constraints", "spec.devices.config")),
	stash.NewTree[hub.ResourceClaimStatus](ResourceClaimStatus{}, "status", stash.Kept("status", "status.allocation"),
		stash.Handled("status.allocation.devices", "status.allocation.nodeSelector")),
)

// statusStash keeps what v1alpha2 cannot say of a claim's status: the
// device allocation (results and config) whole, the fields its types lack
// (claimShape), and how many structured handles were rendered from the
// results.
func statusStash(in *hub.ResourceClaimStatus) *stash.ClaimStatus {
	st, alloc := claimShape.KeepStatus(in)
	if a := in.Allocation; a != nil {
		derived, devices := derivedHandleCount(a), legacy.HasDevices(a.Devices)
		if alloc == nil && (derived > 0 || devices) {
			alloc = &stash.Allocation{}
		}
		if alloc != nil {
			alloc.DerivedHandles = derived
			if devices {
				kept := a.Devices
				alloc.Devices = &kept
			}
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
	if k := a.DerivedHandles; k > 0 && a.Devices != nil {
		// Drop the handles that only showed the device results, unless
		// someone edited them.
		handles := alloc.ResourceHandles
		n := len(handles) - k
		if n >= 0 && legacy.ShowsResults(handles[n:], a.Devices.Results) {
			if n == 0 {
				alloc.ResourceHandles = nil
			} else {
				alloc.ResourceHandles = handles[:n:n]
			}
		}
	}
}

// handlesDerived reports whether v1alpha2 shows a hub allocation's v1alpha3
// device results as structured handles: when it has results but no
// structured handles.
func handlesDerived(a *hub.AllocationResult) bool {
	return a.Devices.Results != nil && !legacy.HasStructuredHandles(a.ResourceHandles)
}

// derivedHandles are the structured handles that show the results, when
// handlesDerived.
func derivedHandles(a *hub.AllocationResult) []hub.ResourceHandle {
	if !handlesDerived(a) {
		return nil
	}
	return legacy.HandlesFromResults(a.Devices.Results)
}

// derivedHandleCount is len(derivedHandles(a)), without rendering them.
func derivedHandleCount(a *hub.AllocationResult) int {
	if !handlesDerived(a) {
		return 0
	}
	return legacy.CountDriverPools(a.Devices.Results)
}

func Convert_resource_ResourceClaimStatus_To_v1alpha2_ResourceClaimStatus(in *hub.ResourceClaimStatus, out *ResourceClaimStatus, s conversion.Scope) error {
	// Devices goes to the stash (see statusStash).
	return autoConvert_resource_ResourceClaimStatus_To_v1alpha2_ResourceClaimStatus(in, out, s)
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

// sliceLost and deviceLost are the fields of a slice spec and of a device
// that v1alpha2 cannot say at all, derived from the types
// (stash.LostFields): the stash keeps them. The driver, pool, devices and
// noResourceModel of a slice, and the capacity and layout of a device, are
// said in v1alpha2's own way (below).
var (
	sliceLost  = stash.LostFields[hub.ResourceSliceSpec]([]any{ResourceSlice{}}, "driver", "pool", "devices", "noResourceModel")
	deviceLost = stash.LostFields[hub.Device]([]any{NamedResourcesInstance{}}, "capacity", "namedResources")
)

func Convert_resource_ResourceSlice_To_v1alpha2_ResourceSlice(in *hub.ResourceSlice, out *ResourceSlice, s conversion.Scope) error {
	spec := &in.Spec
	out.ObjectMeta = in.ObjectMeta
	nodeName := ""
	if spec.NodeName != nil {
		nodeName = *spec.NodeName
	}
	out.NodeName = nodeName
	out.DriverName = spec.Driver
	out.NamedResources = nil

	var st *stash.Slice
	start := func() {
		if st == nil {
			st = &stash.Slice{V: stash.FormatVersion}
		}
	}
	if sliceLost.AnySet(spec) {
		start()
		sliceLost.Keep(spec, &st.ResourceSliceSpec)
	}
	if spec.NodeName != nil && nodeName == "" {
		start()
		st.NodeName = spec.NodeName
	}
	if spec.Pool != legacy.Pool(nodeName, spec.Driver) {
		start()
		pool := spec.Pool
		st.Pool = &pool
	}
	if spec.NoResourceModel && spec.Devices != nil {
		start()
		st.NoResourceModel = true
	}
	if !spec.NoResourceModel || spec.Devices != nil {
		out.NamedResources = &NamedResourcesResources{}
		if spec.Devices != nil {
			instances := make([]NamedResourcesInstance, len(spec.Devices))
			for i := range spec.Devices {
				d := &spec.Devices[i]
				renderInstance(d, &instances[i])
				if sd, ok := deviceStash(i, d, instances[i].Attributes); ok {
					start()
					st.Devices = append(st.Devices, sd)
				}
			}
			out.NamedResources.Instances = instances
		}
	}
	if st == nil {
		return nil
	}
	return stash.Write(&out.ObjectMeta, "ResourceSlice", st)
}

func Convert_v1alpha2_ResourceSlice_To_resource_ResourceSlice(in *ResourceSlice, out *hub.ResourceSlice, s conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec = hub.ResourceSliceSpec{
		Driver:          in.DriverName,
		Pool:            legacy.Pool(in.NodeName, in.DriverName),
		NoResourceModel: in.NamedResources == nil,
	}
	if in.NodeName != "" {
		name := in.NodeName
		out.Spec.NodeName = &name
	}
	if in.NamedResources != nil && in.NamedResources.Instances != nil {
		instances := in.NamedResources.Instances
		out.Spec.Devices = make([]hub.Device, len(instances))
		for i := range instances {
			if err := parseInstance(&instances[i], &out.Spec.Devices[i]); err != nil {
				return fmt.Errorf("ResourceSlice %q: namedResources.instances[%d].%w", in.Name, i, err)
			}
		}
	}
	st, err := stash.Take[stash.Slice](&out.ObjectMeta, "ResourceSlice")
	if st == nil || err != nil {
		return err
	}
	spec := &out.Spec
	if st.Pool != nil {
		spec.Pool = *st.Pool
	}
	if st.NodeName != nil && spec.NodeName == nil {
		spec.NodeName = st.NodeName
	}
	sliceLost.Restore(&st.ResourceSliceSpec, spec)
	spec.NoResourceModel = spec.NoResourceModel || st.NoResourceModel
	for i := range st.Devices {
		sd := &st.Devices[i]
		if sd.Index < 0 || sd.Index >= len(spec.Devices) || spec.Devices[sd.Index].Name != sd.Name {
			continue // the device is gone, or others took its place
		}
		restoreDevice(sd, &in.NamedResources.Instances[sd.Index], &spec.Devices[sd.Index])
	}
	return nil
}

// A v1alpha2 instance lists its attributes, quantities among them, in an
// order of its own; the hub keeps them in the device's attributes and
// capacity maps. The canonical order is the attributes sorted by name, then
// the quantities sorted by name; another order is the device's
// namedResources.order, and an intSlice or stringSlice whose list is null
// rather than empty is named in namedResources.nullLists. What an instance
// cannot say goes to the stash: attributes with bools or versions lists,
// attributes and capacities under a name 1.30 refuses (see
// IsAttributeName), capacities with a request policy (their value is shown)
// or whose name an attribute has too (not shown), the later device fields,
// and a layout that the instance does not give back.

// IsAttributeName reports whether a v1alpha2 instance can hold an attribute
// (or quantity) of that name: the 1.30 API server requires a lowercase RFC
// 1123 subdomain (its namedresources validation's validateAttributeName),
// where the later versions take a C identifier with an optional domain
// prefix, so that the common v1 names ("driverVersion", "productName",
// "gpu.example.com/model") are not v1alpha2 names.
func IsAttributeName(name hub.QualifiedName) bool {
	return len(validation.IsDNS1123Subdomain(string(name))) == 0
}

// shownName reports whether the instance rendered from d lists name: a
// name 1.30 accepts, or one the instance d was read from listed already
// (its layout's order keeps it), so that an instance comes back as it was
// even with a name its server would refuse.
func shownName(d *hub.Device, name hub.QualifiedName) bool {
	return IsAttributeName(name) || (d.NamedResources != nil && slices.Contains(d.NamedResources.Order, name))
}

// shownAttribute reports whether v1alpha2 can show a hub attribute of d: it
// has no bool or version lists, and a name the instance can list.
func shownAttribute(d *hub.Device, name hub.QualifiedName, a *hub.DeviceAttribute) bool {
	return a.BoolValues == nil && a.VersionValues == nil && shownName(d, name)
}

// shownCapacity reports whether v1alpha2 shows the capacity name as a
// quantity: when no attribute has that name too, and the instance can list
// the name.
func shownCapacity(d *hub.Device, name hub.QualifiedName) bool {
	_, clash := d.Attributes[name]
	return !clash && shownName(d, name)
}

// renderInstance shows a hub device as a named-resources instance.
func renderInstance(d *hub.Device, out *NamedResourcesInstance) {
	out.Name = d.Name
	out.Attributes = nil
	var attrs, quantities []hub.QualifiedName
	for name, a := range d.Attributes {
		if shownAttribute(d, name, &a) {
			attrs = append(attrs, name)
		}
	}
	for name := range d.Capacity {
		if shownCapacity(d, name) {
			quantities = append(quantities, name)
		}
	}
	n := len(attrs) + len(quantities)
	if n == 0 {
		return
	}
	slices.Sort(attrs)
	slices.Sort(quantities)
	list := make([]NamedResourcesAttribute, 0, n)
	var nullLists []hub.QualifiedName
	if d.NamedResources != nil {
		nullLists = d.NamedResources.NullLists
	}
	add := func(name hub.QualifiedName) {
		if a, ok := d.Attributes[name]; ok {
			v := NamedResourcesAttributeValue{BoolValue: a.BoolValue, IntValue: a.IntValue, StringValue: a.StringValue, VersionValue: a.VersionValue}
			null := len(nullLists) > 0 && slices.Contains(nullLists, name)
			if a.IntValues != nil {
				v.IntSliceValue = &NamedResourcesIntSlice{Ints: a.IntValues}
				if null && len(a.IntValues) == 0 {
					v.IntSliceValue.Ints = nil
				}
			}
			if a.StringValues != nil {
				v.StringSliceValue = &NamedResourcesStringSlice{Strings: a.StringValues}
				if null && len(a.StringValues) == 0 {
					v.StringSliceValue.Strings = nil
				}
			}
			list = append(list, NamedResourcesAttribute{Name: string(name), NamedResourcesAttributeValue: v})
			return
		}
		q := d.Capacity[name].Value
		list = append(list, NamedResourcesAttribute{Name: string(name), NamedResourcesAttributeValue: NamedResourcesAttributeValue{QuantityValue: &q}})
	}
	if d.NamedResources != nil && d.NamedResources.Order != nil {
		// The instance's own order first, then what it did not name.
		done := make(map[hub.QualifiedName]bool, n)
		for _, name := range d.NamedResources.Order {
			if done[name] {
				continue
			}
			if (slices.Contains(attrs, name)) || slices.Contains(quantities, name) {
				done[name] = true
				add(name)
			}
		}
		for _, group := range [][]hub.QualifiedName{attrs, quantities} {
			for _, name := range group {
				if !done[name] {
					add(name)
				}
			}
		}
	} else {
		for _, name := range attrs {
			add(name)
		}
		for _, name := range quantities {
			add(name)
		}
	}
	out.Attributes = list
}

// parseInstance reads a named-resources instance into a hub device. It
// refuses what the 1.30 API server refuses and the hub's maps cannot hold:
// a name listed twice, and a quantity with another value.
func parseInstance(in *NamedResourcesInstance, out *hub.Device) error {
	out.Name = in.Name
	if in.Attributes == nil {
		return nil
	}
	quantities := 0
	for j := range in.Attributes {
		if in.Attributes[j].QuantityValue != nil {
			quantities++
		}
	}
	if n := len(in.Attributes) - quantities; n > 0 {
		out.Attributes = make(map[hub.QualifiedName]hub.DeviceAttribute, n)
	}
	if quantities > 0 {
		out.Capacity = make(map[hub.QualifiedName]hub.DeviceCapacity, quantities)
	}
	for j := range in.Attributes {
		a := &in.Attributes[j]
		name := hub.QualifiedName(a.Name)
		v := &a.NamedResourcesAttributeValue
		if v.QuantityValue != nil {
			if v.BoolValue != nil || v.IntValue != nil || v.IntSliceValue != nil || v.StringValue != nil || v.StringSliceValue != nil || v.VersionValue != nil {
				return fmt.Errorf("attributes[%d]: %q has a quantity and another value; the 1.30 API server rejects such a slice", j, a.Name)
			}
			n := len(out.Capacity)
			if out.Capacity[name] = (hub.DeviceCapacity{Value: *v.QuantityValue}); len(out.Capacity) == n {
				return listedTwice(in, name)
			}
			continue
		}
		attr := hub.DeviceAttribute{BoolValue: v.BoolValue, IntValue: v.IntValue, StringValue: v.StringValue, VersionValue: v.VersionValue}
		if v.IntSliceValue != nil {
			attr.IntValues = v.IntSliceValue.Ints
			if attr.IntValues == nil {
				attr.IntValues = []int64{}
			}
		}
		if v.StringSliceValue != nil {
			attr.StringValues = v.StringSliceValue.Strings
			if attr.StringValues == nil {
				attr.StringValues = []string{}
			}
		}
		n := len(out.Attributes)
		if out.Attributes[name] = attr; len(out.Attributes) == n {
			return listedTwice(in, name)
		}
	}
	// A name that is a quantity and an attribute too.
	if len(out.Attributes) > 0 {
		for name := range out.Capacity {
			if _, ok := out.Attributes[name]; ok {
				return listedTwice(in, name)
			}
		}
	}
	out.NamedResources = layoutOf(in.Attributes)
	return nil
}

// listedTwice is the error for an instance that lists name twice, at its
// second entry.
func listedTwice(in *NamedResourcesInstance, name hub.QualifiedName) error {
	seen := false
	for j := range in.Attributes {
		if in.Attributes[j].Name == string(name) {
			if seen {
				return fmt.Errorf("attributes[%d]: the name %q is listed twice in the instance; the 1.30 API server rejects such a slice", j, name)
			}
			seen = true
		}
	}
	return fmt.Errorf("the name %q is listed twice in the instance; the 1.30 API server rejects such a slice", name)
}

// layoutOf is the layout an instance's attribute list has beyond the
// hub's maps: its order when that is not canonical or lists a name 1.30
// refuses (which only the order shows again, see shownName), and the lists
// that are null; nil when there is neither.
func layoutOf(attrs []NamedResourcesAttribute) *hub.NamedResourcesLayout {
	var layout hub.NamedResourcesLayout
	canonical := true
	inQuantities := false
	for j := range attrs {
		a := &attrs[j]
		v := &a.NamedResourcesAttributeValue
		if (v.IntSliceValue != nil && v.IntSliceValue.Ints == nil) || (v.StringSliceValue != nil && v.StringSliceValue.Strings == nil) {
			layout.NullLists = append(layout.NullLists, hub.QualifiedName(a.Name))
		}
		isQuantity := v.QuantityValue != nil
		switch {
		case isQuantity && !inQuantities:
			inQuantities = true
		case !isQuantity && inQuantities:
			canonical = false
		case j > 0 && a.Name <= attrs[j-1].Name:
			canonical = false
		}
		if !IsAttributeName(hub.QualifiedName(a.Name)) {
			canonical = false
		}
	}
	if !canonical {
		layout.Order = make([]hub.QualifiedName, len(attrs))
		for j := range attrs {
			layout.Order[j] = hub.QualifiedName(attrs[j].Name)
		}
	}
	if layout.Order == nil && layout.NullLists == nil {
		return nil
	}
	kept := layout
	return &kept
}

func sameLayout(a, b *hub.NamedResourcesLayout) bool {
	if a == nil || b == nil {
		return a == b
	}
	return slices.Equal(a.Order, b.Order) && slices.Equal(a.NullLists, b.NullLists) &&
		(a.Order == nil) == (b.Order == nil) && (a.NullLists == nil) == (b.NullLists == nil)
}

// deviceStash keeps what the instance rendered from the device at index i
// (its attributes, shown) cannot say: see renderInstance, and the fields
// v1alpha2 lacks (deviceLost). It reports false when nothing needs keeping.
func deviceStash(i int, d *hub.Device, shown []NamedResourcesAttribute) (stash.Device, bool) {
	var attributes map[hub.QualifiedName]stash.Attribute
	for name, a := range d.Attributes {
		if !shownAttribute(d, name, &a) {
			if attributes == nil {
				attributes = map[hub.QualifiedName]stash.Attribute{}
			}
			kept := a // only what is kept escapes
			attributes[name] = stash.AttributeOf(&kept)
		}
	}
	var capacity map[hub.QualifiedName]hub.DeviceCapacity
	for name, c := range d.Capacity {
		if c.RequestPolicy != nil || !shownCapacity(d, name) {
			if capacity == nil {
				capacity = map[hub.QualifiedName]hub.DeviceCapacity{}
			}
			capacity[name] = c
		}
	}
	var layout *hub.NamedResourcesLayout
	if !sameLayout(d.NamedResources, layoutOf(shown)) {
		layout = d.NamedResources
	}
	if attributes == nil && capacity == nil && layout == nil && !deviceLost.AnySet(d) {
		return stash.Device{}, false
	}
	st := stash.Device{Index: i, Attributes: attributes}
	st.Name, st.Capacity, st.NamedResources = d.Name, capacity, layout
	deviceLost.Keep(d, &st.Device)
	return st, true
}

// restoreDevice puts what deviceStash kept back into out, the device parsed
// from the instance in. What the instance shows wins (edit wins): a kept
// attribute comes back only under a name the instance does not list, a
// kept request policy goes with the quantity the instance shows, a
// capacity hidden behind an attribute of the same name comes back only
// while that attribute is there, one under a name 1.30 refuses while the
// instance does not list the name, and a kept layout only while the
// instance lists its attributes as the layout renders them.
func restoreDevice(st *stash.Device, in *NamedResourcesInstance, out *hub.Device) {
	for name, a := range st.Attributes {
		_, isAttribute := out.Attributes[name]
		_, isCapacity := out.Capacity[name]
		if isAttribute || isCapacity {
			continue
		}
		if out.Attributes == nil {
			out.Attributes = make(map[hub.QualifiedName]hub.DeviceAttribute, len(st.Attributes))
		}
		out.Attributes[name] = a.Hub()
	}
	for name, c := range st.Capacity {
		if shown, ok := out.Capacity[name]; ok {
			shown.RequestPolicy = c.RequestPolicy
			out.Capacity[name] = shown
		} else if _, hidden := out.Attributes[name]; hidden || !IsAttributeName(name) {
			if out.Capacity == nil {
				out.Capacity = make(map[hub.QualifiedName]hub.DeviceCapacity, len(st.Capacity))
			}
			out.Capacity[name] = c
		}
	}
	if st.NamedResources != nil {
		derived := out.NamedResources
		out.NamedResources = stash.Layout(st.NamedResources)
		var again NamedResourcesInstance
		renderInstance(out, &again)
		if !sameList(again.Attributes, in.Attributes) {
			out.NamedResources = derived
		}
	}
	deviceLost.Restore(&st.Device, out)
}

// sameList reports whether two attribute lists have the same names in the
// same order, with the same lists null.
func sameList(a, b []NamedResourcesAttribute) bool {
	if len(a) != len(b) {
		return false
	}
	for j := range a {
		x, y := &a[j].NamedResourcesAttributeValue, &b[j].NamedResourcesAttributeValue
		if a[j].Name != b[j].Name || (x.QuantityValue == nil) != (y.QuantityValue == nil) ||
			nullInts(x) != nullInts(y) || nullStrings(x) != nullStrings(y) {
			return false
		}
	}
	return true
}

func nullInts(v *NamedResourcesAttributeValue) bool {
	return v.IntSliceValue != nil && v.IntSliceValue.Ints == nil
}

func nullStrings(v *NamedResourcesAttributeValue) bool {
	return v.StringSliceValue != nil && v.StringSliceValue.Strings == nil
}
