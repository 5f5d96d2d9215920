// Package allocator answers "which devices would these claims get?"
// without a cluster: it allocates ResourceClaims from DeviceClasses and
// ResourceSlices with the semantics of structured allocation in Kubernetes
// 1.31, on drakit's hub types, so that claims of every version
// (v1alpha1 to v1) can be allocated, as far as they ask for what 1.31
// could allocate (see "Later features").
//
// # Use
//
//	a, err := allocator.New(allocator.Options{
//		Classes:         classes,         // []*resource.DeviceClass
//		Slices:          slices,          // []*resource.ResourceSlice, all nodes
//		AllocatedClaims: allocatedClaims, // their devices are in use
//		Node:            node,            // *corev1.Node, or nil
//	})
//	results, err := a.Allocate(ctx, claims)
//	for _, r := range results {
//		if r.Err != nil { ... } // *allocator.ClaimError: claim, request, Reason, detail
//		claim := r.AllocatedClaim()  // copy with status.allocation
//	}
//	a.Commit(results) // keep the devices for later calls
//
// For objects of any version (typed or unstructured), AllocateObjects
// converts them to the hub, allocates, and writes each claim back in its
// own version: allocation.devices from v1alpha3 on, v1alpha2
// resourceHandles with structuredData, v1alpha1 the single resourceHandle
// (see conversion).
// Given several nodes (ObjectOptions.Nodes), it puts each claim, or all of
// them together, on the first node that fits, and says why each node
// before it did not; drakit allocate works this way.
//
// An Allocator is meant to live long: it keeps the compiled selectors and
// the result of every selector on every device, so that each selector is
// evaluated at most once per device until the device's slice is replaced
// (SetSlices); AllocateOn tries other nodes against the same inventory, as
// a scheduler does. It is not safe for concurrent use.
//
// # Semantics (Kubernetes 1.31)
//
//   - Visibility: a node sees slices with its nodeName, slices whose
//     nodeSelector matches the node, and allNodes slices; without a node only
//     allNodes slices. Of each pool (driver + pool name) only the slices of
//     the newest generation the node sees count. A pool is incomplete when
//     fewer of its slices are seen than resourceSliceCount says. A pool
//     whose newest slices name a device twice is invalid and not used
//     (Kubernetes 1.33 refuses such pools; 1.31 did not check).
//   - A device serves a request when every selector of the request's class
//     and then of the request accepts it (CEL, see package
//     apis/resource/cel; the hub device has no "basic" wrapper, and a 1.31
//     device without one reads as an empty one). Devices allocated before the
//     call, or to an earlier request of the call, are taken, except for
//     adminAccess requests, which ignore allocations and take nothing away.
//   - ExactCount asks for count distinct devices (an unset mode and a zero
//     count mean one, as API defaulting does); incomplete pools are used.
//     All asks for every device the class and request accept: it fails
//     while any pool the node sees is incomplete, and when a matching device
//     is in use (unless adminAccess), and while a pool is invalid; with no
//     matching device it allocates nothing.
//   - matchAttribute constraints make all devices of the listed requests
//     (all requests when none are listed) carry the attribute, with the
//     same type and value; an attribute named with the driver's domain also
//     matches one the slice wrote without domain. Versions compare as
//     written. Capacities are not attributes. List-valued attributes (a
//     v1alpha2 intSlice or stringSlice, a 1.36+ list) match when the lists
//     are equal; selectors do not see them.
//   - A claim gets at most 32 devices. Results list devices request by
//     request; the configuration lists each request's class configuration
//     (source FromClass, limited to that request) and then the claim's
//     (FromClaim, with its request list). The node selector of the result
//     names the node when a device is node-local, else merges the
//     single-term node selectors of the devices' slices, else is empty.
//   - The claims of one call are allocated together, all or nothing, like
//     the claims of one pod (Mode Joint), or one after the other (Sequential).
//
// Where upstream's 1.31 allocator (k8s.io/dynamic-resource-allocation
// structured) deviates from this through defects, drakit does not follow
// it; hack/allocbench's differential test lists each difference. In short:
// upstream visits pools in random map order (drakit: driver, pool and slice
// name order, so results are reproducible), ignores class selectors for All
// requests, silently skips allocated devices in All requests, gives an
// adminAccess request the same device more than once, counts a slice twice
// when a pool's generation increases, aborts the whole call on the first
// CEL error it meets (drakit: the claim, deterministically, naming the
// expression and device) and on a matchAttribute conflict in an All request
// (drakit: backtracks), and hands class configuration to every request of
// the claim (fixed upstream in 1.32).
//
// # Later features
//
// The hub has v1's shape, but the allocator keeps the 1.31 semantics. A
// request is read from `exactly`. A claim that asks for what 1.31 could not
// allocate fails with ReasonUnsupported, naming the claim, the request and
// the feature, rather than being allocated without it: a request with
// firstAvailable (DRAPrioritizedList), an exact request with tolerations
// (DRADeviceTaints), with capacity requests (DRAConsumableCapacity) or with
// derived attributes (DRADerivedAttributes), and a distinctAttribute
// constraint (DRAConsumableCapacity). What 1.31 did not know about devices
// and slices plays no part: device taints, counters (consumesCounters,
// sharedCounters), allowMultipleAllocations, capacity request policies,
// binding conditions, node-allocatable resources; a slice with
// perDeviceNodeSelection is seen by no node. Results carry request,
// driver, pool and device only (no adminAccess, shareID, consumed capacity,
// binding conditions, allocation timestamp). The allocator with the 1.37
// semantics is a later issue.
//
// # Search
//
// Candidates of each request are computed once per call from cached
// selector results (bit sets per slice). The search chooses combinations,
// never permutations, in view order; requests under constraints first fix
// the constraint's value, trying only values that enough free devices
// have; before each request every later one must still have enough
// eligible devices. Requests whose counts exceed the free devices, and
// constraints that no value can satisfy, are refuted by counting in time
// linear in the devices, where upstream's search is exponential.
//
// # Errors
//
// A claim that cannot be allocated gets a *ClaimError naming the claim, the
// request when one is to blame, a Reason (NoClass, NoMatchingDevice,
// NotEnoughDevices, ConstraintUnsatisfiable, DeviceInUse, IncompletePool,
// TooManyDevices, CELRuntimeError, InvalidSelector, InvalidClaim, Conflict,
// OtherClaimFailed, Unsupported, ...) and what was counted. Claims that use
// a control-plane controller (spec.controller) or parameter objects
// (parametersRef, v1alpha1/v1alpha2) are refused, since structured
// allocation cannot evaluate them. Field paths in messages are the hub's,
// which are v1's (spec.devices.requests[0].exactly.selectors[0]).
package allocator
