package legacy

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// The conversion code that v1beta1, v1beta2 and v1 share. The three say what
// the hub says apart from its legacy fields (classic DRA and 1.30's
// structured parameters), which they cannot say and which go to the stash;
// v1beta1 says three things in other places (flat requests, basic devices,
// a slice's plain nodeName and allNodes), which its own conversion.go moves.
// Each version package keeps the conversion functions under the names
// conversion-gen gives them and calls these for the work, all on hub types,
// so that one copy of the logic serves the three versions.

// V1Flat says how a v1-era version shows what has no place in it besides
// the hub's legacy fields.
type V1Flat struct {
	// Requests: the version's request is flat (v1beta1), so an exactly
	// with nothing in it shows as no exact request, and the stash names
	// such requests (stash.ClaimSpec.EmptyExactly).
	Requests bool
	// Node: the slice's nodeName and allNodes are a plain string and bool
	// (v1beta1), so a set "" or false shows as unset, and the stash keeps
	// them set.
	Node bool
	// Lost are the hub fields the version cannot say at all.
	Lost Lost
	// Claim is what the version cannot say of a claim.
	Claim ClaimShape
	// ExactShown are the fields of an exact request that the version's
	// flat request shows (Requests only): an exactly with none of them set
	// shows as no exact request.
	ExactShown *stash.Fields[resource.ExactDeviceRequest]
}

// Lost are the fields of the hub types whose values the stash keeps field
// by field that a version cannot say at all, derived from the types
// (stash.LostFields): the stash keeps each that is set and gives it back.
type Lost struct {
	Class  *stash.Fields[resource.DeviceClassSpec]
	Slice  *stash.Fields[resource.ResourceSliceSpec]
	Device *stash.Fields[resource.Device]
}

// WriteV1ClassStash keeps in the stash of meta (the metadata of the
// converted DeviceClass) the fields of in that the version cannot say (the
// legacy suitableNodes, parametersRef and structuredParameters).
func WriteV1ClassStash(meta *metav1.ObjectMeta, in *resource.DeviceClassSpec, shape *V1Flat) error {
	if !shape.Lost.Class.AnySet(in) {
		return nil
	}
	st := &stash.Class{V: stash.FormatVersion}
	shape.Lost.Class.Keep(in, &st.DeviceClassSpec)
	return stash.Write(meta, "DeviceClass", st)
}

// TakeV1ClassStash takes the stash WriteV1ClassStash wrote from meta (the hub
// class's metadata) and puts the fields it kept back into out. What the
// version says itself (selectors, config, extendedResourceName) is never
// taken from a stash.
func TakeV1ClassStash(meta *metav1.ObjectMeta, out *resource.DeviceClassSpec, shape *V1Flat) error {
	st, err := stash.Take[stash.Class](meta, "DeviceClass")
	if st == nil || err != nil {
		return err
	}
	shape.Lost.Class.Restore(&st.DeviceClassSpec, out)
	return nil
}

// WriteV1ClaimStash keeps in the stash of meta (the metadata of the
// converted ResourceClaim or ResourceClaimTemplate, named by kind) the
// fields of spec and status (nil for a template) and of the structs they
// nest that the version cannot say (the legacy ones, and any the hub has
// and the version has not), and, for flat requests, the names of the
// requests whose exactly the flat request does not show.
func WriteV1ClaimStash(meta *metav1.ObjectMeta, kind string, spec *resource.ResourceClaimSpec, status *resource.ResourceClaimStatus, flat *V1Flat) error {
	lost := flat.Claim.AnySet(spec, status)
	st := stash.Claim{V: stash.FormatVersion, Spec: v1SpecStash(spec, flat, lost)}
	if lost {
		if status != nil {
			st.Status = v1StatusStash(status, &flat.Claim)
		}
		st.SetLost(flat.Claim.Collect(spec, status))
	}
	if st.Spec == nil && st.Status == nil && st.Lost == nil {
		return nil
	}
	payload := st // only a stash that is written escapes
	return stash.Write(meta, kind, &payload)
}

// TakeV1ClaimStash takes the stash WriteV1ClaimStash wrote from meta (the
// hub claim's or template's metadata) and puts what it kept back into spec
// and status (nil for a template). Without a stash the legacy fields have
// their defaults: the allocation mode WaitForFirstConsumer.
func TakeV1ClaimStash(meta *metav1.ObjectMeta, kind string, spec *resource.ResourceClaimSpec, status *resource.ResourceClaimStatus, flat *V1Flat) error {
	st, err := stash.Take[stash.Claim](meta, kind)
	if err != nil {
		return err
	}
	if st == nil {
		st = &stash.Claim{}
	}
	restoreV1Spec(st.Spec, spec, flat)
	if status != nil {
		restoreV1Status(st.Status, status, &flat.Claim)
	}
	// After the empty exactlies are back: what they keep goes into them.
	flat.Claim.Restore(st, spec, status)
	return nil
}

// v1SpecStash keeps the spec fields the version lacks (the legacy claim
// controller and parameters reference), and the allocation mode unless it
// is the one v1alpha1/v1alpha2 default to, WaitForFirstConsumer, which
// restoreV1Spec gives back (an empty mode too: it is WaitForFirstConsumer
// once defaulted). For flat requests it also names the requests whose
// exactly shows nothing in the flat request (ExactShown), which shows them
// as no exact request at all. lost says whether the claim sets anything
// the version cannot say (ClaimShape.AnySet).
func v1SpecStash(in *resource.ResourceClaimSpec, flat *V1Flat, lost bool) *stash.ClaimSpec {
	var empty []string
	if flat.Requests {
		for i := range in.Devices.Requests {
			if r := &in.Devices.Requests[i]; r.Exactly != nil && !flat.ExactShown.AnySet(r.Exactly) {
				empty = append(empty, r.Name)
			}
		}
	}
	mode := in.AllocationMode
	if mode == resource.AllocationModeWaitForFirstConsumer {
		mode = ""
	}
	if mode == "" && empty == nil && !(lost && flat.Claim.SpecLost.AnySet(in)) {
		return nil
	}
	st := &stash.ClaimSpec{EmptyExactly: empty}
	flat.Claim.SpecLost.Keep(in, &st.ResourceClaimSpec)
	st.AllocationMode = mode
	return st
}

// restoreV1Spec puts the kept spec fields back: those kept in st (nil when
// nothing was kept), and the default allocation mode when none was.
func restoreV1Spec(st *stash.ClaimSpec, out *resource.ResourceClaimSpec, flat *V1Flat) {
	out.AllocationMode = resource.AllocationModeWaitForFirstConsumer
	if st == nil {
		return
	}
	flat.Claim.SpecLost.Restore(&st.ResourceClaimSpec, out)
	if st.AllocationMode != "" {
		out.AllocationMode = st.AllocationMode
	}
	if !flat.Requests {
		return
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
				r.Exactly = &resource.ExactDeviceRequest{}
			}
		}
	}
}

// v1StatusStash keeps the status and allocation fields the version lacks
// (the legacy ones), and notes when the results shown were rendered from
// structured handles.
func v1StatusStash(in *resource.ResourceClaimStatus, shape *ClaimShape) *stash.ClaimStatus {
	st, alloc := shape.KeepStatus(in)
	if alloc != nil {
		alloc.DerivedResults = V1ResultsDerived(in.Allocation)
		if st == nil {
			st = &stash.ClaimStatus{}
		}
		st.Allocation = alloc
	}
	return st
}

// restoreV1Status puts the kept status and allocation fields back.
func restoreV1Status(st *stash.ClaimStatus, out *resource.ResourceClaimStatus, shape *ClaimShape) {
	if st == nil {
		return
	}
	shape.RestoreStatus(st, out)
	a, alloc := st.Allocation, out.Allocation
	if a == nil || alloc == nil {
		// No allocation here any more: whoever removed it meant it.
		return
	}
	if a.DerivedResults && alloc.ResourceHandles != nil &&
		onlyRendered(alloc.Devices.Results, ResultsFromHandles(alloc.ResourceHandles)) {
		// The results only showed the structured handles; unless someone
		// edited them, the hub keeps the handles alone.
		alloc.Devices.Results = nil
	}
}

// V1ResultsDerived reports whether a v1-era version shows the structured
// handles of a 1.30 allocation as device results (ResultsFromHandles),
// which it does when the hub has no results of its own.
func V1ResultsDerived(a *resource.AllocationResult) bool {
	return a.Devices.Results == nil && HasStructuredHandles(a.ResourceHandles)
}

// onlyRendered reports whether results are exactly the rendering of
// structured handles: the same devices in the same order, and nothing else
// set, not even an empty list.
func onlyRendered(results, rendered []resource.DeviceRequestAllocationResult) bool {
	if len(results) != len(rendered) {
		return false
	}
	for i := range results {
		r, w := &results[i], &rendered[i]
		if r.Request != w.Request || r.Driver != w.Driver || r.Pool != w.Pool || r.Device != w.Device || !OnlyDevice(r) {
			return false
		}
	}
	return true
}

// WriteV1SliceStash keeps in the stash of meta (the metadata of the
// converted ResourceSlice) the fields of in and of its devices that the
// version cannot say (the legacy noResourceModel, each device's
// namedResources layout), attributes whose value is an empty list, and,
// for a plain node name, a set "" or false.
func WriteV1SliceStash(meta *metav1.ObjectMeta, in *resource.ResourceSliceSpec, shape *V1Flat) error {
	var st *stash.Slice
	start := func() {
		if st == nil {
			st = &stash.Slice{V: stash.FormatVersion}
		}
	}
	if shape.Lost.Slice.AnySet(in) {
		start()
		shape.Lost.Slice.Keep(in, &st.ResourceSliceSpec)
	}
	if shape.Node {
		if p := in.NodeName; p != nil && *p == "" {
			start()
			st.NodeName = p
		}
		if p := in.AllNodes; p != nil && !*p {
			start()
			st.AllNodes = p
		}
	}
	if in.Devices != nil && len(in.Devices) == 0 {
		start()
		st.EmptyDevices = true
	}
	for i := range in.Devices {
		d := &in.Devices[i]
		attributes := emptyListAttributes(d.Attributes)
		if attributes == nil && !shape.Lost.Device.AnySet(d) {
			continue
		}
		start()
		kept := stash.Device{Index: i, Attributes: attributes}
		kept.Name = d.Name
		shape.Lost.Device.Keep(d, &kept.Device)
		st.Devices = append(st.Devices, kept)
	}
	if st == nil {
		return nil
	}
	return stash.Write(meta, "ResourceSlice", st)
}

// TakeV1SliceStash takes the stash WriteV1SliceStash wrote from meta (the
// hub slice's metadata) and puts what it kept back into out.
func TakeV1SliceStash(meta *metav1.ObjectMeta, out *resource.ResourceSliceSpec, shape *V1Flat) error {
	st, err := stash.Take[stash.Slice](meta, "ResourceSlice")
	if st == nil || err != nil {
		return err
	}
	shape.Lost.Slice.Restore(&st.ResourceSliceSpec, out)
	if shape.Node {
		// Only while the version still says "unset": a name or true set
		// since then wins.
		if p := st.NodeName; p != nil && *p == "" && out.NodeName == nil {
			out.NodeName = p
		}
		if p := st.AllNodes; p != nil && !*p && out.AllNodes == nil {
			out.AllNodes = p
		}
	}
	if st.EmptyDevices && out.Devices == nil {
		out.Devices = []resource.Device{} // unless devices were added since
	}
	for i := range st.Devices {
		sd := &st.Devices[i]
		// What was kept belongs to the device it was kept for: a device
		// that is no longer there, or another one in its place, gets none.
		if sd.Index < 0 || sd.Index >= len(out.Devices) || out.Devices[sd.Index].Name != sd.Name {
			continue
		}
		d := &out.Devices[sd.Index]
		shape.Lost.Device.Restore(&sd.Device, d)
		d.NamedResources = stash.Layout(d.NamedResources)
		for name, a := range sd.Attributes {
			// Only while the attribute still has no value, as the wire
			// gives it back: a value set since wins.
			if cur, ok := d.Attributes[name]; ok && noValue(&cur) {
				d.Attributes[name] = a.Hub()
			}
		}
	}
	return nil
}

// emptyListAttributes are the attributes whose value is an empty list:
// the v1-era versions' JSON leaves an empty list out, so such an attribute
// comes back without a value, while a v1alpha2 intSlice or stringSlice
// keeps [] apart from null. Nil when there are none.
func emptyListAttributes(attrs map[resource.QualifiedName]resource.DeviceAttribute) map[resource.QualifiedName]stash.Attribute {
	var out map[resource.QualifiedName]stash.Attribute
	for name, a := range attrs {
		if !noValue(&a) || a.IntValues == nil && a.BoolValues == nil && a.StringValues == nil && a.VersionValues == nil {
			continue
		}
		if out == nil {
			out = map[resource.QualifiedName]stash.Attribute{}
		}
		out[name] = stash.AttributeOf(&a)
	}
	return out
}

// noValue says whether a shows no value on the wire: no scalar, and no list
// with an item.
func noValue(a *resource.DeviceAttribute) bool {
	return a.IntValue == nil && a.BoolValue == nil && a.StringValue == nil && a.VersionValue == nil &&
		len(a.IntValues) == 0 && len(a.BoolValues) == 0 && len(a.StringValues) == 0 && len(a.VersionValues) == 0
}
