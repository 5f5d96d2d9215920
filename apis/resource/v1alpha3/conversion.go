package v1alpha3

import (
	"sort"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/conversion"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/internal/legacy"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// v1alpha3 is the shape the hub is built around: most of it converts field
// by field (zz_generated.conversion.go). What is written here:
//   - the hub's legacy fields (v1alpha1/v1alpha2 only), which go to the stash;
//   - device attributes, an ordered list in the hub and two maps here;
//   - allocation results, which a v1alpha2 claim keeps as structured handles.
// docs/conversion.md has the field-by-field table.

// ---------------------------------------------------------------------------
// DeviceClass

func Convert_resource_DeviceClass_To_v1alpha3_DeviceClass(in *hub.DeviceClass, out *DeviceClass, s conversion.Scope) error {
	if err := autoConvert_resource_DeviceClass_To_v1alpha3_DeviceClass(in, out, s); err != nil {
		return err
	}
	st := stash.Class{V: stash.FormatVersion, ParametersRef: in.Spec.ParametersRef, StructuredParameters: in.Spec.StructuredParameters}
	if st.ParametersRef == nil && st.StructuredParameters == nil {
		return nil
	}
	return stash.Write(&out.ObjectMeta, "DeviceClass", &st)
}

func Convert_v1alpha3_DeviceClass_To_resource_DeviceClass(in *DeviceClass, out *hub.DeviceClass, s conversion.Scope) error {
	if err := autoConvert_v1alpha3_DeviceClass_To_resource_DeviceClass(in, out, s); err != nil {
		return err
	}
	st, err := stash.Take[stash.Class](&out.ObjectMeta, "DeviceClass")
	if st == nil || err != nil {
		return err
	}
	out.Spec.ParametersRef = st.ParametersRef
	out.Spec.StructuredParameters = st.StructuredParameters
	return nil
}

func Convert_resource_DeviceClassSpec_To_v1alpha3_DeviceClassSpec(in *hub.DeviceClassSpec, out *DeviceClassSpec, s conversion.Scope) error {
	// ParametersRef and StructuredParameters go to the stash (see DeviceClass).
	return autoConvert_resource_DeviceClassSpec_To_v1alpha3_DeviceClassSpec(in, out, s)
}

// ---------------------------------------------------------------------------
// ResourceClaim and ResourceClaimTemplate

func Convert_resource_ResourceClaim_To_v1alpha3_ResourceClaim(in *hub.ResourceClaim, out *ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaim_To_v1alpha3_ResourceClaim(in, out, s); err != nil {
		return err
	}
	st := stash.Claim{V: stash.FormatVersion, Spec: specStash(&in.Spec), Status: statusStash(&in.Status)}
	if st.Spec == nil && st.Status == nil {
		return nil
	}
	return stash.Write(&out.ObjectMeta, "ResourceClaim", &st)
}

func Convert_v1alpha3_ResourceClaim_To_resource_ResourceClaim(in *ResourceClaim, out *hub.ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_v1alpha3_ResourceClaim_To_resource_ResourceClaim(in, out, s); err != nil {
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

func Convert_resource_ResourceClaimTemplate_To_v1alpha3_ResourceClaimTemplate(in *hub.ResourceClaimTemplate, out *ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaimTemplate_To_v1alpha3_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	st := stash.Claim{V: stash.FormatVersion, Spec: specStash(&in.Spec.Spec)}
	if st.Spec == nil {
		return nil
	}
	return stash.Write(&out.ObjectMeta, "ResourceClaimTemplate", &st)
}

func Convert_v1alpha3_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in *ResourceClaimTemplate, out *hub.ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_v1alpha3_ResourceClaimTemplate_To_resource_ResourceClaimTemplate(in, out, s); err != nil {
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

// specStash keeps the legacy spec fields, which v1alpha3 has no place for:
// the parameters reference, and the allocation mode unless it is the one
// v1alpha1/v1alpha2 default to, WaitForFirstConsumer, which restoreSpec
// gives back (an empty mode too: it is WaitForFirstConsumer once
// defaulted).
func specStash(in *hub.ResourceClaimSpec) *stash.ClaimSpec {
	st := stash.ClaimSpec{ParametersRef: in.ParametersRef}
	if in.AllocationMode != hub.AllocationModeWaitForFirstConsumer {
		st.AllocationMode = in.AllocationMode
	}
	if st.IsZero() {
		return nil
	}
	return &st
}

// restoreSpec puts the legacy spec fields back: those kept in st (nil when
// nothing was kept), and the default allocation mode when none was.
func restoreSpec(st *stash.ClaimSpec, out *hub.ResourceClaimSpec) {
	out.AllocationMode = hub.AllocationModeWaitForFirstConsumer
	if st == nil {
		return
	}
	out.ParametersRef = st.ParametersRef
	if st.AllocationMode != "" {
		out.AllocationMode = st.AllocationMode
	}
}

// statusStash keeps the legacy status and allocation fields, and notes when
// the results shown were rendered from structured handles.
func statusStash(in *hub.ResourceClaimStatus) *stash.ClaimStatus {
	st := stash.ClaimStatus{DriverName: in.DriverName}
	if a := in.Allocation; a != nil {
		alloc := stash.Allocation{Shareable: a.Shareable}
		if a.ResourceHandles != nil {
			handles := a.ResourceHandles
			alloc.ResourceHandles = &handles
		}
		alloc.DerivedResults = resultsDerived(a)
		if !alloc.IsZero() {
			st.Allocation = &alloc
		}
	}
	if st.DriverName == "" && st.Allocation == nil {
		return nil
	}
	return &st
}

func restoreStatus(st *stash.ClaimStatus, out *hub.ResourceClaimStatus) {
	if st == nil {
		return
	}
	out.DriverName = st.DriverName
	a, alloc := st.Allocation, out.Allocation
	if a == nil || alloc == nil {
		// No allocation here any more: whoever removed it meant it.
		return
	}
	alloc.Shareable = a.Shareable
	if a.ResourceHandles != nil {
		alloc.ResourceHandles = *a.ResourceHandles
	}
	if a.DerivedResults && legacy.SameResults(alloc.Devices.Results, legacy.ResultsFromHandles(alloc.ResourceHandles)) {
		// The results only showed the structured handles; unless someone
		// edited them, the hub keeps the handles alone.
		alloc.Devices.Results = nil
	}
}

// resultsDerived reports whether v1alpha3 shows structured handles as
// results, which it does when the hub has no results of its own.
func resultsDerived(a *hub.AllocationResult) bool {
	return a.Devices.Results == nil && legacy.HasStructuredHandles(a.ResourceHandles)
}

func Convert_resource_ResourceClaimSpec_To_v1alpha3_ResourceClaimSpec(in *hub.ResourceClaimSpec, out *ResourceClaimSpec, s conversion.Scope) error {
	// ParametersRef and AllocationMode go to the stash (see ResourceClaim).
	return autoConvert_resource_ResourceClaimSpec_To_v1alpha3_ResourceClaimSpec(in, out, s)
}

func Convert_resource_ResourceClaimStatus_To_v1alpha3_ResourceClaimStatus(in *hub.ResourceClaimStatus, out *ResourceClaimStatus, s conversion.Scope) error {
	// DriverName goes to the stash (see ResourceClaim).
	return autoConvert_resource_ResourceClaimStatus_To_v1alpha3_ResourceClaimStatus(in, out, s)
}

func Convert_resource_AllocationResult_To_v1alpha3_AllocationResult(in *hub.AllocationResult, out *AllocationResult, s conversion.Scope) error {
	if err := autoConvert_resource_AllocationResult_To_v1alpha3_AllocationResult(in, out, s); err != nil {
		return err
	}
	if resultsDerived(in) {
		// A claim allocated by 1.30's structured parameters shows its
		// devices the way 1.31 does.
		results := legacy.ResultsFromHandles(in.ResourceHandles)
		out.Devices.Results = make([]DeviceRequestAllocationResult, len(results))
		for i, r := range results {
			out.Devices.Results[i] = DeviceRequestAllocationResult{Request: r.Request, Driver: r.Driver, Pool: r.Pool, Device: r.Device}
		}
	}
	return nil
}

// ---------------------------------------------------------------------------
// ResourceSlice

func Convert_resource_ResourceSlice_To_v1alpha3_ResourceSlice(in *hub.ResourceSlice, out *ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceSlice_To_v1alpha3_ResourceSlice(in, out, s); err != nil {
		return err
	}
	st := stash.Slice{V: stash.FormatVersion, NoResourceModel: in.Spec.NoResourceModel}
	for i := range in.Spec.Devices {
		d := &in.Spec.Devices[i]
		if d.Basic != nil && !canonicalAttributes(d.Basic.Attributes) {
			attrs := d.Basic.Attributes
			st.Devices = append(st.Devices, stash.Device{Index: i, Name: d.Name, Attributes: &attrs})
		}
	}
	if !st.NoResourceModel && st.Devices == nil {
		return nil
	}
	return stash.Write(&out.ObjectMeta, "ResourceSlice", &st)
}

func Convert_v1alpha3_ResourceSlice_To_resource_ResourceSlice(in *ResourceSlice, out *hub.ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_v1alpha3_ResourceSlice_To_resource_ResourceSlice(in, out, s); err != nil {
		return err
	}
	st, err := stash.Take[stash.Slice](&out.ObjectMeta, "ResourceSlice")
	if st == nil || err != nil {
		return err
	}
	out.Spec.NoResourceModel = st.NoResourceModel
	for _, sd := range st.Devices {
		if sd.Index >= len(in.Spec.Devices) || sd.Attributes == nil {
			continue
		}
		d := &in.Spec.Devices[sd.Index]
		if d.Name != sd.Name || d.Basic == nil {
			continue
		}
		// The kept order and types stand only while the maps still say
		// what they said when the slice was converted.
		var shown BasicDevice
		renderAttributes(*sd.Attributes, &shown)
		if basicEqual(&shown, d.Basic) {
			out.Spec.Devices[sd.Index].Basic.Attributes = *sd.Attributes
		}
	}
	return nil
}

func Convert_resource_ResourceSliceSpec_To_v1alpha3_ResourceSliceSpec(in *hub.ResourceSliceSpec, out *ResourceSliceSpec, s conversion.Scope) error {
	// NoResourceModel goes to the stash (see ResourceSlice).
	return autoConvert_resource_ResourceSliceSpec_To_v1alpha3_ResourceSliceSpec(in, out, s)
}

func Convert_resource_BasicDevice_To_v1alpha3_BasicDevice(in *hub.BasicDevice, out *BasicDevice, s conversion.Scope) error {
	renderAttributes(in.Attributes, out)
	return nil
}

func Convert_v1alpha3_BasicDevice_To_resource_BasicDevice(in *BasicDevice, out *hub.BasicDevice, s conversion.Scope) error {
	n := len(in.Attributes) + len(in.Capacity)
	if n == 0 {
		out.Attributes = nil
		return nil
	}
	attrs := make([]hub.DeviceAttribute, 0, n)
	for _, name := range sortedKeys(in.Attributes) {
		v := in.Attributes[name]
		attrs = append(attrs, hub.DeviceAttribute{
			Name:     hub.QualifiedName(name),
			IntValue: v.IntValue, BoolValue: v.BoolValue, StringValue: v.StringValue, VersionValue: v.VersionValue,
		})
	}
	for _, name := range sortedKeys(in.Capacity) {
		q := in.Capacity[name]
		attrs = append(attrs, hub.DeviceAttribute{Name: hub.QualifiedName(name), QuantityValue: &q})
	}
	out.Attributes = attrs
	return nil
}

func Convert_resource_DeviceAttribute_To_v1alpha3_DeviceAttribute(in *hub.DeviceAttribute, out *DeviceAttribute, s conversion.Scope) error {
	// Name is the map key; the quantity and list values have places of
	// their own (capacity) or none (see renderAttributes).
	out.IntValue, out.BoolValue, out.StringValue, out.VersionValue = in.IntValue, in.BoolValue, in.StringValue, in.VersionValue
	return nil
}

// renderAttributes splits the hub's attribute list into the attributes and
// capacity maps. A quantity is a capacity; integer and string lists
// (v1alpha2 only) have no place here and are kept by the stash. When a name
// repeats, the last entry wins.
func renderAttributes(in []hub.DeviceAttribute, out *BasicDevice) {
	out.Attributes, out.Capacity = nil, nil
	capacities, attributes := 0, 0
	for i := range in {
		switch {
		case in[i].QuantityValue != nil:
			capacities++
		case in[i].IntSliceValue == nil && in[i].StringSliceValue == nil:
			attributes++
		}
	}
	if capacities > 0 {
		out.Capacity = make(map[QualifiedName]resource.Quantity, capacities)
	}
	if attributes > 0 {
		out.Attributes = make(map[QualifiedName]DeviceAttribute, attributes)
	}
	for i := range in {
		a := &in[i]
		name := QualifiedName(a.Name)
		switch {
		case a.QuantityValue != nil:
			out.Capacity[name] = *a.QuantityValue
		case a.IntSliceValue == nil && a.StringSliceValue == nil:
			out.Attributes[name] = DeviceAttribute{IntValue: a.IntValue, BoolValue: a.BoolValue, StringValue: a.StringValue, VersionValue: a.VersionValue}
		}
	}
}

// canonicalAttributes reports whether a hub attribute list is exactly what
// converting v1alpha3 maps gives: plain attributes sorted by name, then
// capacities sorted by name, with no name twice in either group and no value
// that the maps cannot hold. Any other list needs the stash.
func canonicalAttributes(attrs []hub.DeviceAttribute) bool {
	if attrs != nil && len(attrs) == 0 {
		return false
	}
	inCapacity := false
	prev := ""
	for i := range attrs {
		a := &attrs[i]
		if a.IntSliceValue != nil || a.StringSliceValue != nil {
			return false
		}
		isCapacity := a.QuantityValue != nil
		if isCapacity && (a.IntValue != nil || a.BoolValue != nil || a.StringValue != nil || a.VersionValue != nil) {
			return false
		}
		name := string(a.Name)
		switch {
		case isCapacity && !inCapacity:
			inCapacity = true
		case !isCapacity && inCapacity:
			return false
		case i > 0 && name <= prev:
			return false
		}
		prev = name
	}
	return true
}

func basicEqual(a, b *BasicDevice) bool {
	if len(a.Attributes) != len(b.Attributes) || len(a.Capacity) != len(b.Capacity) {
		return false
	}
	return apiequality.Semantic.DeepEqual(a.Attributes, b.Attributes) && apiequality.Semantic.DeepEqual(a.Capacity, b.Capacity)
}

func sortedKeys[V any](m map[QualifiedName]V) []QualifiedName {
	keys := make([]QualifiedName, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}
