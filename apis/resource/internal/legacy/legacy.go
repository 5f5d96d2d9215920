// Package legacy holds the legacy shapes: the ways in which v1alpha1 and
// v1alpha2 say what the hub, which has v1's shape, says otherwise (a claim's
// resourceClassName, a class's driverName, resource handles, a 1.30 slice's
// pool), on hub types, what stashed requests leave out (StashRequests), and
// the conversion code the two versions share (convert.go). The version
// packages use them both to render a hub value in their own terms and to
// decide what the stash must keep.
// docs/conversion.md describes each.
package legacy

import (
	"slices"

	apiequality "k8s.io/apimachinery/pkg/api/equality"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// Request is the request that a v1alpha1/v1alpha2 claim of the given class
// stands for: exactly one device of that class, allocation mode and count
// as the versions default them.
func Request(class string) resource.DeviceRequest {
	return resource.DeviceRequest{Name: resource.LegacyRequestName, Exactly: &resource.ExactDeviceRequest{
		DeviceClassName: class,
		AllocationMode:  resource.DeviceAllocationModeExactCount,
		Count:           1,
	}}
}

// Requests is the hub's form of a v1alpha1/v1alpha2 resourceClassName.
func Requests(class string) []resource.DeviceRequest {
	if class == "" {
		return nil
	}
	// The list, its request and the request's exactly in one allocation:
	// every claim converted from v1alpha1/v1alpha2 builds this.
	only := &struct {
		list  [1]resource.DeviceRequest
		exact resource.ExactDeviceRequest
	}{exact: resource.ExactDeviceRequest{
		DeviceClassName: class,
		AllocationMode:  resource.DeviceAllocationModeExactCount,
		Count:           1,
	}}
	only.list[0] = resource.DeviceRequest{Name: resource.LegacyRequestName, Exactly: &only.exact}
	return only.list[:]
}

// ClassName is the resourceClassName that shows requests in v1alpha1 and
// v1alpha2: the class of the first request's exactly ("" when it has none).
// exact reports whether the requests are, once defaulted, exactly what
// Requests(className) gives, so that nothing else needs keeping.
func ClassName(requests []resource.DeviceRequest) (className string, exact bool) {
	if len(requests) == 0 {
		return "", requests == nil
	}
	r := &requests[0]
	e := r.Exactly
	if e == nil {
		return "", false
	}
	mode, count := defaultedModeAndCount(e.AllocationMode, e.Count)
	exact = len(requests) == 1 && e.DeviceClassName != "" && r.Name == resource.LegacyRequestName &&
		!requestBeyondExactly.AnySet(r) && !exactBeyondClass.AnySet(e) &&
		mode == resource.DeviceAllocationModeExactCount && count == 1
	return e.DeviceClassName, exact
}

// What a request says beyond what resourceClassName can (its name and
// exactly; the exactly's class, mode and count), whatever fields the
// request types gain; and what a result says beyond naming its request
// and device (OnlyDevice).
var (
	requestBeyondExactly = stash.AllFields[resource.DeviceRequest]("name", "exactly")
	exactBeyondClass     = stash.AllFields[resource.ExactDeviceRequest]("deviceClassName", "allocationMode", "count")
	resultBeyondDevice   = stash.AllFields[resource.DeviceRequestAllocationResult]("request", "driver", "pool", "device")
)

// defaultedModeAndCount are an allocation mode and count as the defaults
// leave them.
func defaultedModeAndCount(mode resource.DeviceAllocationMode, count int64) (resource.DeviceAllocationMode, int64) {
	if mode == "" {
		mode = resource.DeviceAllocationModeExactCount
	}
	if mode == resource.DeviceAllocationModeExactCount && count == 0 {
		count = 1
	}
	return mode, count
}

// StashRequests is requests as a stash keeps them (stash.ClaimSpec): each
// without what the defaults fill in again (WithoutDefaults), except the
// allocation mode and count of an exactly without a class that the defaults
// would change. Those are kept as they are, and undefaulted lists the
// positions of their requests, so that RestoreRequests does not fill them
// in: v1beta1's defaulting leaves a request without a class alone, and a
// v1beta1 object as it leaves it must come back as it was, although the
// hub's defaults, which are v1's, would give it a mode and a count. (No
// server stores such a request: it needs a class, or sets no exact field
// beside firstAvailable.) The requests are copies down to their exactly,
// which the caller may change; the rest is shared with in.
func StashRequests(in []resource.DeviceRequest) (requests []resource.DeviceRequest, undefaulted []int) {
	requests = make([]resource.DeviceRequest, len(in))
	for i := range in {
		requests[i] = WithoutDefaults(in[i])
		if e := in[i].Exactly; e != nil && e.DeviceClassName == "" && modeOrCountDefaulted(e.AllocationMode, e.Count) {
			requests[i].Exactly.AllocationMode, requests[i].Exactly.Count = e.AllocationMode, e.Count
			undefaulted = append(undefaulted, i)
		}
	}
	return requests, undefaulted
}

// RestoreRequests gives requests restored from a stash the defaults that
// StashRequests left out, in place: all but the allocation mode and count
// of the exactly of each request at a position in undefaulted, which were
// kept as they are, while that exactly still has no class (a v1alpha1
// claim's edited resourceClassName may have given it one; StashRequests
// would not have kept it so). A position that names no request, or a
// request without exactly, is ignored.
func RestoreRequests(requests []resource.DeviceRequest, undefaulted []int) {
	for i := range requests {
		r := &requests[i]
		if e := r.Exactly; e != nil {
			if e.DeviceClassName == "" && slices.Contains(undefaulted, i) {
				mode, count := e.AllocationMode, e.Count
				resource.SetDefaults_ExactDeviceRequest(e)
				e.AllocationMode, e.Count = mode, count
			} else {
				resource.SetDefaults_ExactDeviceRequest(e)
			}
		}
		for j := range r.FirstAvailable {
			resource.SetDefaults_DeviceSubRequest(&r.FirstAvailable[j])
		}
	}
}

// modeOrCountDefaulted reports whether the defaults fill in an allocation
// mode or a count: no mode, or ExactCount without a count.
func modeOrCountDefaulted(mode resource.DeviceAllocationMode, count int64) bool {
	return mode == "" || (mode == resource.DeviceAllocationModeExactCount && count == 0)
}

// WithoutDefaults is r, as the defaults leave it, without what the defaults
// fill in again (RestoreRequests): in its exactly and in each alternative
// of firstAvailable, the allocation mode ExactCount and then a count of
// one, and a toleration's operator Equal. r is not changed: what differs
// is copied.
func WithoutDefaults(r resource.DeviceRequest) resource.DeviceRequest {
	if r.Exactly != nil {
		e := *r.Exactly
		e.AllocationMode, e.Count = withoutDefaultModeAndCount(e.AllocationMode, e.Count)
		e.Tolerations = withoutDefaultOperators(e.Tolerations)
		r.Exactly = &e
	}
	if r.FirstAvailable != nil {
		subs := make([]resource.DeviceSubRequest, len(r.FirstAvailable))
		for i, sub := range r.FirstAvailable {
			sub.AllocationMode, sub.Count = withoutDefaultModeAndCount(sub.AllocationMode, sub.Count)
			sub.Tolerations = withoutDefaultOperators(sub.Tolerations)
			subs[i] = sub
		}
		r.FirstAvailable = subs
	}
	return r
}

func withoutDefaultModeAndCount(mode resource.DeviceAllocationMode, count int64) (resource.DeviceAllocationMode, int64) {
	mode, count = defaultedModeAndCount(mode, count)
	if mode == resource.DeviceAllocationModeExactCount {
		mode = ""
		if count == 1 {
			count = 0
		}
	}
	return mode, count
}

// withoutDefaultOperators is ts without the operator Equal, which the
// defaults give an empty operator; a copy when anything changes.
func withoutDefaultOperators(ts []resource.DeviceToleration) []resource.DeviceToleration {
	for i := range ts {
		if ts[i].Operator == resource.DeviceTolerationOpEqual {
			out := make([]resource.DeviceToleration, len(ts))
			copy(out, ts)
			for j := range out {
				if out[j].Operator == resource.DeviceTolerationOpEqual {
					out[j].Operator = ""
				}
			}
			return out
		}
	}
	return ts
}

// SplitDriver shows class selectors in v1alpha1/v1alpha2 terms: the driver
// named by a leading driver selector, and the selectors after it. Without
// such a selector the driver is empty and rest is all of them.
func SplitDriver(selectors []resource.DeviceSelector) (driver string, rest []resource.DeviceSelector) {
	if len(selectors) > 0 {
		if d, ok := resource.DriverFromSelector(selectors[0]); ok && d != "" {
			return d, selectors[1:]
		}
	}
	return "", selectors
}

// JoinDriver is the inverse of SplitDriver.
func JoinDriver(driver string, rest []resource.DeviceSelector) []resource.DeviceSelector {
	if driver == "" {
		return rest
	}
	if len(rest) == 0 {
		// The common case, a class with a driver name only: the list and
		// its one selector share a single allocation.
		only := &struct {
			list [1]resource.DeviceSelector
			cel  resource.CELDeviceSelector
		}{cel: resource.CELDeviceSelector{Expression: resource.DriverSelectorExpression(driver)}}
		only.list[0].CEL = &only.cel
		return only.list[:]
	}
	out := make([]resource.DeviceSelector, 0, 1+len(rest))
	out = append(out, resource.DriverSelector(driver))
	return append(out, rest...)
}

// HasStructuredHandles reports whether any handle carries structured data.
func HasStructuredHandles(handles []resource.ResourceHandle) bool {
	for i := range handles {
		if handles[i].StructuredData != nil {
			return true
		}
	}
	return false
}

// ResultsFromHandles shows v1alpha2 structured handles as v1alpha3 results;
// see resource.ResultsFromStructuredHandles.
func ResultsFromHandles(handles []resource.ResourceHandle) []resource.DeviceRequestAllocationResult {
	return resource.ResultsFromStructuredHandles(handles)
}

// HandlesFromResults shows v1alpha3 results as v1alpha2 structured handles:
// one handle per driver and pool, in the order they first appear, naming
// the devices as named-resources instances on the pool's node.
func HandlesFromResults(results []resource.DeviceRequestAllocationResult) []resource.ResourceHandle {
	var handles []resource.ResourceHandle
	index := map[[2]string]int{}
	for _, r := range results {
		key := [2]string{r.Driver, r.Pool}
		i, ok := index[key]
		if !ok {
			i = len(handles)
			index[key] = i
			handles = append(handles, resource.ResourceHandle{
				DriverName:     r.Driver,
				StructuredData: &resource.StructuredResourceHandle{NodeName: r.Pool, Results: []resource.DriverAllocationResult{}},
			})
		}
		sd := handles[i].StructuredData
		sd.Results = append(sd.Results, resource.DriverAllocationResult{
			AllocationResultModel: resource.AllocationResultModel{
				NamedResources: &resource.NamedResourcesAllocationResult{Name: r.Device},
			},
		})
	}
	return handles
}

// HandleFromDevices shows a v1alpha3 device allocation in the single opaque
// resourceHandle of v1alpha1: the JSON of allocation.devices with
// v1alpha3's field names, which a driver can read, written as the stash
// writes its values (stash.Encode). The same devices always give the same
// text: converting a v1alpha1 claim back computes it again to tell whether
// a user edited the handle.
func HandleFromDevices(devices resource.DeviceAllocationResult) string {
	data, err := stash.Encode(&devices)
	if err != nil {
		// Only parameters whose MarshalJSON fails (bytes that are neither
		// JSON nor CBOR) can fail here; the stash still keeps the devices,
		// so the handle just stays empty.
		return ""
	}
	return data
}

// HasDevices reports whether a device allocation says anything.
func HasDevices(d resource.DeviceAllocationResult) bool {
	return d.Results != nil || d.Config != nil
}

// Pool is the pool a v1alpha2 slice stands for: 1.30 published one slice per
// node and driver, so the node (or, for a slice without one, the driver)
// names a pool of one slice at generation 0.
func Pool(nodeName, driver string) resource.ResourcePool {
	name := nodeName
	if name == "" {
		name = driver
	}
	return resource.ResourcePool{Name: name, Generation: 0, ResourceSliceCount: 1}
}

// SameResults reports whether two result lists are equal, entry by entry.
func SameResults(a, b []resource.DeviceRequestAllocationResult) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Request != y.Request || x.Driver != y.Driver || x.Pool != y.Pool || x.Device != y.Device {
			return false
		}
		if (OnlyDevice(x) && OnlyDevice(y)) || apiequality.Semantic.DeepEqual(x, y) {
			continue
		}
		return false
	}
	return true
}

// OnlyDevice reports whether a result names its request and device and
// says nothing more: all that the versions before v1beta1 can say.
func OnlyDevice(r *resource.DeviceRequestAllocationResult) bool {
	return !resultBeyondDevice.AnySet(r)
}

// ShowsResults reports whether handles are the structured handles that
// HandlesFromResults renders of results, without rendering them: no opaque
// data, no vendor parameters, and the same drivers, nodes and instance
// names, in the same order. A conversion into the hub asks it of every
// v1alpha2 claim whose handles were rendered (restoreStatus).
func ShowsResults(handles []resource.ResourceHandle, results []resource.DeviceRequestAllocationResult) bool {
	shown := 0 // the handles of the driver/pool pairs met so far
	for i := range results {
		r := &results[i]
		if !firstOfDriverPool(results, i) {
			continue
		}
		if shown == len(handles) {
			return false
		}
		h := &handles[shown]
		shown++
		sd := h.StructuredData
		if h.DriverName != r.Driver || h.Data != "" || sd == nil || sd.NodeName != r.Pool ||
			sd.VendorClassParameters.Raw != nil || sd.VendorClaimParameters.Raw != nil ||
			sd.VendorClassParameters.Object != nil || sd.VendorClaimParameters.Object != nil {
			return false
		}
		// The pair's devices, in order, one instance each.
		n := 0
		for k := i; k < len(results); k++ {
			if x := &results[k]; x.Driver == r.Driver && x.Pool == r.Pool {
				if n == len(sd.Results) {
					return false
				}
				y := &sd.Results[n]
				if y.VendorRequestParameters.Raw != nil || y.VendorRequestParameters.Object != nil ||
					y.NamedResources == nil || y.NamedResources.Name != x.Device {
					return false
				}
				n++
			}
		}
		if n != len(sd.Results) {
			return false
		}
	}
	return shown == len(handles)
}

// CountDriverPools is how many driver/pool pairs results name: how many
// handles HandlesFromResults renders.
func CountDriverPools(results []resource.DeviceRequestAllocationResult) int {
	n := 0
	for i := range results {
		if firstOfDriverPool(results, i) {
			n++
		}
	}
	return n
}

// firstOfDriverPool reports whether results[i] is the first of its driver
// and pool. The lists are short (a claim's devices): a quadratic scan costs
// less than the map HandlesFromResults builds.
func firstOfDriverPool(results []resource.DeviceRequestAllocationResult, i int) bool {
	r := &results[i]
	for j := range i {
		if results[j].Driver == r.Driver && results[j].Pool == r.Pool {
			return false
		}
	}
	return true
}
