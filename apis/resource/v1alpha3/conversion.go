package v1alpha3

import (
	"unsafe"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/conversion"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/internal/legacy"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// v1alpha3 (1.31) is the older half of the hub's shape, which is v1's: much
// of it converts field by field (zz_generated.conversion.go). The kinds it
// gained later (DeviceTaintRule, ResourcePoolStatusRequest) are k8s.io/api's
// and convert in kubeapi. What is written here, each with its stash:
//   - requests: v1alpha3's flat request is the hub's exactly; firstAvailable
//     and the exact request's later fields have no place here;
//   - constraints with distinctAttribute, the later fields of allocation
//     results, allocationTimestamp and status.devices;
//   - a slice's node name and all-nodes flag (plain values here, pointers in
//     the hub), its later fields, and the devices: v1alpha3 keeps attributes
//     and capacity under basic, without lists, request policies or any of
//     the later device fields;
//   - the hub's legacy fields (v1alpha1/v1alpha2 only);
//   - allocation results, which a v1alpha2 claim keeps as structured handles.
// docs/conversion.md has the field-by-field table.

// ---------------------------------------------------------------------------
// DeviceClass

// classLost are the fields of a class spec that v1alpha3 cannot say at
// all, derived from the types (stash.LostFields): the stash keeps them.
var classLost = stash.LostFields[hub.DeviceClassSpec]([]any{DeviceClassSpec{}})

func Convert_resource_DeviceClass_To_v1alpha3_DeviceClass(in *hub.DeviceClass, out *DeviceClass, s conversion.Scope) error {
	if err := autoConvert_resource_DeviceClass_To_v1alpha3_DeviceClass(in, out, s); err != nil {
		return err
	}
	if !classLost.AnySet(&in.Spec) {
		return nil
	}
	st := &stash.Class{V: stash.FormatVersion}
	classLost.Keep(&in.Spec, &st.DeviceClassSpec)
	return stash.Write(&out.ObjectMeta, "DeviceClass", st)
}

func Convert_v1alpha3_DeviceClass_To_resource_DeviceClass(in *DeviceClass, out *hub.DeviceClass, s conversion.Scope) error {
	if err := autoConvert_v1alpha3_DeviceClass_To_resource_DeviceClass(in, out, s); err != nil {
		return err
	}
	st, err := stash.Take[stash.Class](&out.ObjectMeta, "DeviceClass")
	if st == nil || err != nil {
		return err
	}
	classLost.Restore(&st.DeviceClassSpec, &out.Spec)
	return nil
}

func Convert_resource_DeviceClassSpec_To_v1alpha3_DeviceClassSpec(in *hub.DeviceClassSpec, out *DeviceClassSpec, s conversion.Scope) error {
	// The fields v1alpha3 lacks go to the stash (see DeviceClass).
	return autoConvert_resource_DeviceClassSpec_To_v1alpha3_DeviceClassSpec(in, out, s)
}

// ---------------------------------------------------------------------------
// ResourceClaim and ResourceClaimTemplate

func Convert_resource_ResourceClaim_To_v1alpha3_ResourceClaim(in *hub.ResourceClaim, out *ResourceClaim, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaim_To_v1alpha3_ResourceClaim(in, out, s); err != nil {
		return err
	}
	lost := claimShape.AnySet(&in.Spec, &in.Status)
	st := stash.Claim{V: stash.FormatVersion, Spec: specStash(&in.Spec, lost), Status: statusStash(&in.Status, lost)}
	if lost {
		st.SetLost(claimShape.Collect(&in.Spec, &in.Status))
	}
	if st.Spec == nil && st.Status == nil && st.Lost == nil {
		return nil
	}
	payload := st // only a stash that is written escapes
	return stash.Write(&out.ObjectMeta, "ResourceClaim", &payload)
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
	restoreSpec(st.Spec, &in.Spec, &out.Spec)
	restoreStatus(st.Status, &in.Status, &out.Status)
	claimShape.Restore(st, &out.Spec, &out.Status)
	return nil
}

func Convert_resource_ResourceClaimTemplate_To_v1alpha3_ResourceClaimTemplate(in *hub.ResourceClaimTemplate, out *ResourceClaimTemplate, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceClaimTemplate_To_v1alpha3_ResourceClaimTemplate(in, out, s); err != nil {
		return err
	}
	lost := claimShape.AnySet(&in.Spec.Spec, nil)
	st := stash.Claim{V: stash.FormatVersion, Spec: specStash(&in.Spec.Spec, lost)}
	if lost {
		st.SetLost(claimShape.Collect(&in.Spec.Spec, nil))
	}
	if st.Spec == nil && st.Lost == nil {
		return nil
	}
	payload := st // only a stash that is written escapes
	return stash.Write(&out.ObjectMeta, "ResourceClaimTemplate", &payload)
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
	restoreSpec(st.Spec, &in.Spec.Spec, &out.Spec.Spec)
	claimShape.Restore(st, &out.Spec.Spec, nil)
	return nil
}

// claimShape is what v1alpha3 cannot say of a claim, derived from the
// types: the spec fields its types lack (the legacy parametersRef; the
// allocation mode is defaulted, see specStash), the requests and the
// constraints whole when any of them says more than v1alpha3's can (its
// flat request shows the hub request's exactly), the status and
// allocation fields its types lack, the results whole when any says more,
// and, by path, what a struct nested elsewhere has that v1alpha3's lacks.
var claimShape = legacy.NewClaimShape(
	stash.NewTree[hub.ResourceClaimSpec](ResourceClaimSpec{}, "spec", stash.Kept("spec"),
		stash.Handled("spec.allocationMode"),
		stash.Whole("spec.devices.requests", "spec.devices.constraints"),
		stash.Flatten("spec.devices.requests.exactly")),
	stash.NewTree[hub.ResourceClaimStatus](ResourceClaimStatus{}, "status", stash.Kept("status", "status.allocation"),
		stash.Whole("status.allocation.devices.results")),
)

// The lists kept whole when any item says more, resolved once.
var (
	requestsWhole    = claimShape.Spec.WholeAt("spec.devices.requests")
	constraintsWhole = claimShape.Spec.WholeAt("spec.devices.constraints")
	resultsWhole     = claimShape.Status.WholeAt("status.allocation.devices.results")
)

// specStash keeps what a v1alpha3 claim spec cannot say: the requests when
// any of them is more than v1alpha3's flat request (requestsNeedStash), all
// of them, without what the defaults give back (legacy.StashRequests); the
// constraints when any of them says more than v1alpha3's can, all of them;
// the spec fields v1alpha3 lacks (the legacy parameters reference); and the
// allocation mode unless it is the one v1alpha1/v1alpha2 default to,
// WaitForFirstConsumer, which restoreSpec gives back (an empty mode too: it
// is WaitForFirstConsumer once defaulted). lost says whether the claim
// sets anything v1alpha3 cannot say (claimShape.AnySet).
func specStash(in *hub.ResourceClaimSpec, lost bool) *stash.ClaimSpec {
	var st stash.ClaimSpec
	if in.AllocationMode != hub.AllocationModeWaitForFirstConsumer {
		st.AllocationMode = in.AllocationMode
	}
	if requestsNeedStash(in, lost) {
		requests, undefaulted := legacy.StashRequests(in.Devices.Requests)
		st.Requests, st.UndefaultedExactly = &requests, undefaulted
	}
	if lost && constraintsWhole.SaysMore(in) {
		st.Constraints = in.Devices.Constraints
	}
	specLost := lost && claimShape.SpecLost.AnySet(in)
	if !specLost && st.AllocationMode == "" && st.Requests == nil && st.Constraints == nil {
		return nil
	}
	kept := st // only what is kept escapes
	if specLost {
		claimShape.SpecLost.Keep(in, &kept.ResourceClaimSpec)
	}
	return &kept
}

// restoreSpec puts what specStash kept (st, nil when nothing was kept)
// back into out, converted from in, and gives the legacy allocation mode
// its default when none was kept. Kept requests and constraints come back
// only while in still shows them as they were shown (edit wins).
func restoreSpec(st *stash.ClaimSpec, in *ResourceClaimSpec, out *hub.ResourceClaimSpec) {
	out.AllocationMode = hub.AllocationModeWaitForFirstConsumer
	if st == nil {
		return
	}
	claimShape.SpecLost.Restore(&st.ResourceClaimSpec, out)
	if st.AllocationMode != "" {
		out.AllocationMode = st.AllocationMode
	}
	if st.Requests != nil {
		requests := *st.Requests
		legacy.RestoreRequests(requests, st.UndefaultedExactly)
		if sameRequests(in.Devices.Requests, requests) {
			out.Devices.Requests = requests
		}
	}
	if st.Constraints != nil && sameConstraints(in.Devices.Constraints, st.Constraints) {
		out.Devices.Constraints = st.Constraints
	}
}

// requestsNeedStash reports whether v1alpha3's flat requests cannot say
// the hub's: when a request is not an exactly request, or says what
// v1alpha3's request cannot (claimShape: alternatives, the fields of
// exactly that came later), or has an adminAccess of false, which
// v1alpha3's plain bool cannot tell from none. lost is as for specStash.
func requestsNeedStash(spec *hub.ResourceClaimSpec, lost bool) bool {
	requests := spec.Devices.Requests
	for i := range requests {
		e := requests[i].Exactly
		if e == nil || (e.AdminAccess != nil && !*e.AdminAccess) {
			return true
		}
	}
	return lost && requestsWhole.SaysMore(spec)
}

func Convert_resource_DeviceClaim_To_v1alpha3_DeviceClaim(in *hub.DeviceClaim, out *DeviceClaim, s conversion.Scope) error {
	if in.Requests != nil {
		out.Requests = make([]DeviceRequest, len(in.Requests))
		for i := range in.Requests {
			renderRequest(&in.Requests[i], &out.Requests[i])
		}
	} else {
		out.Requests = nil
	}
	out.Constraints = renderConstraints(in.Constraints)
	out.Config = *(*[]DeviceClaimConfiguration)(unsafe.Pointer(&in.Config))
	return nil
}

// renderRequest shows a hub request as v1alpha3's flat request: its
// exactly, or else its first alternative under the request's name (the
// stash keeps the rest; see specStash).
func renderRequest(in *hub.DeviceRequest, out *DeviceRequest) {
	*out = DeviceRequest{Name: in.Name}
	switch {
	case in.Exactly != nil:
		e := in.Exactly
		out.DeviceClassName = e.DeviceClassName
		out.Selectors = *(*[]DeviceSelector)(unsafe.Pointer(&e.Selectors))
		out.AllocationMode = DeviceAllocationMode(e.AllocationMode)
		out.Count = e.Count
		out.AdminAccess = e.AdminAccess != nil && *e.AdminAccess
	case len(in.FirstAvailable) > 0:
		sub := &in.FirstAvailable[0]
		out.DeviceClassName = sub.DeviceClassName
		out.Selectors = *(*[]DeviceSelector)(unsafe.Pointer(&sub.Selectors))
		out.AllocationMode = DeviceAllocationMode(sub.AllocationMode)
		out.Count = sub.Count
	}
}

func Convert_resource_DeviceRequest_To_v1alpha3_DeviceRequest(in *hub.DeviceRequest, out *DeviceRequest, s conversion.Scope) error {
	renderRequest(in, out)
	return nil
}

func Convert_v1alpha3_DeviceRequest_To_resource_DeviceRequest(in *DeviceRequest, out *hub.DeviceRequest, s conversion.Scope) error {
	// The request and its exactly in one allocation.
	both := &struct {
		exact hub.ExactDeviceRequest
		yes   bool
	}{exact: hub.ExactDeviceRequest{
		DeviceClassName: in.DeviceClassName,
		Selectors:       *(*[]hub.DeviceSelector)(unsafe.Pointer(&in.Selectors)),
		AllocationMode:  hub.DeviceAllocationMode(in.AllocationMode),
		Count:           in.Count,
	}, yes: true}
	if in.AdminAccess {
		both.exact.AdminAccess = &both.yes
	}
	*out = hub.DeviceRequest{Name: in.Name, Exactly: &both.exact}
	return nil
}

// sameRequests reports whether shown, v1alpha3's requests, are what
// renderRequest shows of requests, both as the defaults leave them.
func sameRequests(shown []DeviceRequest, requests []hub.DeviceRequest) bool {
	if len(shown) != len(requests) {
		return false
	}
	var r DeviceRequest
	for i := range requests {
		renderRequest(&requests[i], &r)
		if !sameRequest(&shown[i], &r) {
			return false
		}
	}
	return true
}

func sameRequest(a, b *DeviceRequest) bool {
	x, y := *a, *b
	SetDefaults_DeviceRequest(&x)
	SetDefaults_DeviceRequest(&y)
	return x.Name == y.Name && x.DeviceClassName == y.DeviceClassName && x.AllocationMode == y.AllocationMode &&
		x.Count == y.Count && x.AdminAccess == y.AdminAccess && apiequality.Semantic.DeepEqual(x.Selectors, y.Selectors)
}

// renderConstraints shows the constraints without a distinctAttribute;
// the stash keeps all of them.
func renderConstraints(in []hub.DeviceConstraint) []DeviceConstraint {
	if in == nil {
		return nil
	}
	n := 0
	for i := range in {
		if in[i].DistinctAttribute == nil {
			n++
		}
	}
	if n == 0 && len(in) > 0 {
		return nil
	}
	out := make([]DeviceConstraint, 0, n)
	for i := range in {
		if in[i].DistinctAttribute == nil {
			out = append(out, DeviceConstraint{Requests: in[i].Requests, MatchAttribute: (*FullyQualifiedName)(in[i].MatchAttribute)})
		}
	}
	return out
}

func sameConstraints(shown []DeviceConstraint, constraints []hub.DeviceConstraint) bool {
	return apiequality.Semantic.DeepEqual(shown, renderConstraints(constraints))
}

func Convert_resource_DeviceConstraint_To_v1alpha3_DeviceConstraint(in *hub.DeviceConstraint, out *DeviceConstraint, s conversion.Scope) error {
	// DistinctAttribute goes to the stash (see specStash).
	return autoConvert_resource_DeviceConstraint_To_v1alpha3_DeviceConstraint(in, out, s)
}

// statusStash keeps what v1alpha3 cannot say of a claim's status: the
// legacy fields, the later fields of the allocation (its timestamp, and the
// results whole when any of them says more than v1alpha3's results can) and
// the devices' status; and it notes when the results shown were rendered
// from structured handles. lost is as for specStash.
func statusStash(in *hub.ResourceClaimStatus, lost bool) *stash.ClaimStatus {
	var st *stash.ClaimStatus
	var alloc *stash.Allocation
	if lost {
		st, alloc = claimShape.KeepStatus(in)
	}
	if a := in.Allocation; a != nil {
		derived, whole := resultsDerived(a), lost && resultsWhole.SaysMore(in)
		if alloc == nil && (derived || whole) {
			alloc = &stash.Allocation{}
		}
		if derived {
			alloc.DerivedResults = true
		}
		if whole {
			alloc.Devices = &hub.DeviceAllocationResult{Results: a.Devices.Results}
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

// restoreStatus puts what statusStash kept (st, nil when nothing was kept)
// back into out, converted from in.
func restoreStatus(st *stash.ClaimStatus, in *ResourceClaimStatus, out *hub.ResourceClaimStatus) {
	if st == nil {
		return
	}
	claimShape.RestoreStatus(st, out)
	a, alloc := st.Allocation, out.Allocation
	if a == nil || alloc == nil {
		// No allocation here any more: whoever removed it meant it.
		return
	}
	if a.DerivedResults && legacy.SameResults(alloc.Devices.Results, legacy.ResultsFromHandles(alloc.ResourceHandles)) {
		// The results only showed the structured handles; unless someone
		// edited them, the hub keeps the handles alone.
		alloc.Devices.Results = nil
	}
	if a.Devices != nil && sameResults(in.Allocation.Devices.Results, a.Devices.Results) {
		// The results kept whole, unless someone edited what they showed.
		alloc.Devices.Results = a.Devices.Results
	}
}

// sameResults reports whether shown, v1alpha3's results, show results.
func sameResults(shown []DeviceRequestAllocationResult, results []hub.DeviceRequestAllocationResult) bool {
	if len(shown) != len(results) {
		return false
	}
	for i := range shown {
		s, r := &shown[i], &results[i]
		if s.Request != r.Request || s.Driver != r.Driver || s.Pool != r.Pool || s.Device != r.Device {
			return false
		}
	}
	return true
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
	// Devices and DriverName go to the stash (see ResourceClaim).
	return autoConvert_resource_ResourceClaimStatus_To_v1alpha3_ResourceClaimStatus(in, out, s)
}

func Convert_resource_DeviceRequestAllocationResult_To_v1alpha3_DeviceRequestAllocationResult(in *hub.DeviceRequestAllocationResult, out *DeviceRequestAllocationResult, s conversion.Scope) error {
	// The later fields go to the stash (see statusStash).
	*out = DeviceRequestAllocationResult{Request: in.Request, Driver: in.Driver, Pool: in.Pool, Device: in.Device}
	return nil
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

// sliceLost and deviceLost are the fields of a slice spec and of a device
// that v1alpha3 cannot say at all, derived from the types
// (stash.LostFields): the stash keeps them. The device's attributes and
// capacities, which v1alpha3 shows partly, are kept by deviceStash.
var (
	sliceLost  = stash.LostFields[hub.ResourceSliceSpec]([]any{ResourceSliceSpec{}})
	deviceLost = stash.LostFields[hub.Device]([]any{Device{}, BasicDevice{}}, "attributes", "capacity")
)

func Convert_resource_ResourceSlice_To_v1alpha3_ResourceSlice(in *hub.ResourceSlice, out *ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_resource_ResourceSlice_To_v1alpha3_ResourceSlice(in, out, s); err != nil {
		return err
	}
	spec := &in.Spec
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
	if spec.NodeName != nil && *spec.NodeName == "" {
		start()
		st.NodeName = spec.NodeName
	}
	if spec.AllNodes != nil && !*spec.AllNodes {
		start()
		st.AllNodes = spec.AllNodes
	}
	for i := range spec.Devices {
		if d, ok := deviceStash(i, &spec.Devices[i]); ok {
			start()
			st.Devices = append(st.Devices, d)
		}
	}
	if st == nil {
		return nil
	}
	return stash.Write(&out.ObjectMeta, "ResourceSlice", st)
}

func Convert_v1alpha3_ResourceSlice_To_resource_ResourceSlice(in *ResourceSlice, out *hub.ResourceSlice, s conversion.Scope) error {
	if err := autoConvert_v1alpha3_ResourceSlice_To_resource_ResourceSlice(in, out, s); err != nil {
		return err
	}
	st, err := stash.Take[stash.Slice](&out.ObjectMeta, "ResourceSlice")
	if st == nil || err != nil {
		return err
	}
	spec := &out.Spec
	sliceLost.Restore(&st.ResourceSliceSpec, spec)
	if st.NodeName != nil && spec.NodeName == nil {
		spec.NodeName = st.NodeName
	}
	if st.AllNodes != nil && spec.AllNodes == nil {
		spec.AllNodes = st.AllNodes
	}
	for i := range st.Devices {
		sd := &st.Devices[i]
		if sd.Index < 0 || sd.Index >= len(spec.Devices) || spec.Devices[sd.Index].Name != sd.Name {
			continue // the device is gone, or others took its place
		}
		restoreDevice(sd, &spec.Devices[sd.Index])
	}
	return nil
}

func Convert_resource_ResourceSliceSpec_To_v1alpha3_ResourceSliceSpec(in *hub.ResourceSliceSpec, out *ResourceSliceSpec, s conversion.Scope) error {
	// A nodeName of "" and an allNodes of false, and the fields v1alpha3
	// lacks, go to the stash (see ResourceSlice).
	out.Driver = in.Driver
	out.Pool = ResourcePool(in.Pool)
	out.NodeName = ""
	if in.NodeName != nil {
		out.NodeName = *in.NodeName
	}
	out.NodeSelector = in.NodeSelector
	out.AllNodes = in.AllNodes != nil && *in.AllNodes
	if in.Devices == nil {
		out.Devices = nil
		return nil
	}
	out.Devices = make([]Device, len(in.Devices))
	basics := make([]BasicDevice, len(in.Devices))
	for i := range in.Devices {
		d := &in.Devices[i]
		out.Devices[i] = Device{Name: d.Name, Basic: &basics[i]}
		renderBasic(d, &basics[i])
	}
	return nil
}

func Convert_v1alpha3_ResourceSliceSpec_To_resource_ResourceSliceSpec(in *ResourceSliceSpec, out *hub.ResourceSliceSpec, s conversion.Scope) error {
	*out = hub.ResourceSliceSpec{Driver: in.Driver, Pool: hub.ResourcePool(in.Pool), NodeSelector: in.NodeSelector}
	if in.NodeName != "" || in.AllNodes {
		// The pointers in one allocation.
		both := &struct {
			name string
			all  bool
		}{in.NodeName, true}
		if in.NodeName != "" {
			out.NodeName = &both.name
		}
		if in.AllNodes {
			out.AllNodes = &both.all
		}
	}
	if in.Devices == nil {
		return nil
	}
	out.Devices = make([]hub.Device, len(in.Devices))
	for i := range in.Devices {
		d := &in.Devices[i]
		out.Devices[i].Name = d.Name
		if d.Basic != nil {
			parseBasic(d.Basic, &out.Devices[i])
		}
	}
	return nil
}

func Convert_resource_Device_To_v1alpha3_Device(in *hub.Device, out *Device, s conversion.Scope) error {
	out.Name = in.Name
	out.Basic = &BasicDevice{}
	renderBasic(in, out.Basic)
	return nil
}

func Convert_v1alpha3_Device_To_resource_Device(in *Device, out *hub.Device, s conversion.Scope) error {
	*out = hub.Device{Name: in.Name}
	if in.Basic != nil {
		parseBasic(in.Basic, out)
	}
	return nil
}

func Convert_resource_DeviceAttribute_To_v1alpha3_DeviceAttribute(in *hub.DeviceAttribute, out *DeviceAttribute, s conversion.Scope) error {
	// The lists have no place here (see deviceStash).
	*out = DeviceAttribute{IntValue: in.IntValue, BoolValue: in.BoolValue, StringValue: in.StringValue, VersionValue: in.VersionValue}
	return nil
}

// renderBasic shows a hub device as v1alpha3's basic device: the attributes
// without a list, and each capacity's value. deviceStash keeps the rest.
func renderBasic(in *hub.Device, out *BasicDevice) {
	attributes := 0
	for _, a := range in.Attributes {
		if !hasList(&a) {
			attributes++
		}
	}
	out.Attributes, out.Capacity = nil, nil
	if attributes > 0 {
		out.Attributes = make(map[QualifiedName]DeviceAttribute, attributes)
		for name, a := range in.Attributes {
			if !hasList(&a) {
				out.Attributes[QualifiedName(name)] = DeviceAttribute{IntValue: a.IntValue, BoolValue: a.BoolValue, StringValue: a.StringValue, VersionValue: a.VersionValue}
			}
		}
	}
	if len(in.Capacity) > 0 {
		out.Capacity = make(map[QualifiedName]resource.Quantity, len(in.Capacity))
		for name, c := range in.Capacity {
			out.Capacity[QualifiedName(name)] = c.Value
		}
	}
}

// parseBasic is the inverse of renderBasic.
func parseBasic(in *BasicDevice, out *hub.Device) {
	if len(in.Attributes) > 0 {
		out.Attributes = make(map[hub.QualifiedName]hub.DeviceAttribute, len(in.Attributes))
		for name, a := range in.Attributes {
			out.Attributes[hub.QualifiedName(name)] = hub.DeviceAttribute{IntValue: a.IntValue, BoolValue: a.BoolValue, StringValue: a.StringValue, VersionValue: a.VersionValue}
		}
	}
	if len(in.Capacity) > 0 {
		out.Capacity = make(map[hub.QualifiedName]hub.DeviceCapacity, len(in.Capacity))
		for name, q := range in.Capacity {
			out.Capacity[hub.QualifiedName(name)] = hub.DeviceCapacity{Value: q}
		}
	}
}

// hasList reports whether an attribute holds a list, which v1alpha3's
// attributes cannot.
func hasList(a *hub.DeviceAttribute) bool {
	return a.IntValues != nil || a.BoolValues != nil || a.StringValues != nil || a.VersionValues != nil
}

// deviceStash keeps what v1alpha3 cannot say of the device at index i: the
// attributes with a list, the capacities with a request policy (whole),
// and the fields v1alpha3 lacks (deviceLost). It reports false when nothing
// needs keeping.
func deviceStash(i int, d *hub.Device) (stash.Device, bool) {
	var attributes map[hub.QualifiedName]stash.Attribute
	for name, a := range d.Attributes {
		if hasList(&a) {
			if attributes == nil {
				attributes = map[hub.QualifiedName]stash.Attribute{}
			}
			kept := a // only what is kept escapes
			attributes[name] = stash.AttributeOf(&kept)
		}
	}
	var capacity map[hub.QualifiedName]hub.DeviceCapacity
	for name, c := range d.Capacity {
		if c.RequestPolicy != nil {
			if capacity == nil {
				capacity = map[hub.QualifiedName]hub.DeviceCapacity{}
			}
			capacity[name] = c
		}
	}
	if attributes == nil && capacity == nil && !deviceLost.AnySet(d) {
		return stash.Device{}, false
	}
	st := stash.Device{Index: i, Attributes: attributes}
	st.Name, st.Capacity = d.Name, capacity
	deviceLost.Keep(d, &st.Device)
	return st, true
}

// restoreDevice puts what deviceStash kept back into out, the device
// converted from v1alpha3. An attribute v1alpha3 now shows under a kept
// name, or a capacity it no longer shows, is what the user meant (edit
// wins); a kept request policy goes with the value v1alpha3 shows.
func restoreDevice(st *stash.Device, out *hub.Device) {
	for name, a := range st.Attributes {
		if _, shown := out.Attributes[name]; shown {
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
		}
	}
	deviceLost.Restore(&st.Device, out)
	out.NamedResources = stash.Layout(out.NamedResources)
}
