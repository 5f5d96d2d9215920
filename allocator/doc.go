// Package allocator answers "which devices would these claims get?"
// without a cluster: it allocates ResourceClaims from DeviceClasses,
// ResourceSlices and DeviceTaintRules with the semantics of structured
// allocation in Kubernetes 1.37 (upstream k8s.io/dynamic-resource-allocation
// v0.37.2), on drakit's hub types, so that claims of every version
// (v1alpha1 to v1) can be allocated. Options.Features switches the parts
// that Kubernetes keeps behind feature gates, as the scheduler does; the
// zero Features has every gate off (Kubernetes 1.31's allocator, which
// differed in more than gates, is not kept).
//
// # Use
//
//	a, err := allocator.New(allocator.Options{
//		Classes:         classes,         // []*resource.DeviceClass
//		Slices:          slices,          // []*resource.ResourceSlice, all nodes
//		AllocatedClaims: allocatedClaims, // their devices are in use
//		Node:            node,            // *corev1.Node, or nil
//		Features:        nil,             // nil: a 1.37 scheduler's defaults
//		DeviceTaintRules: rules,          // []*resource.DeviceTaintRule
//	})
//	results, err := a.Allocate(ctx, claims)
//	for _, r := range results {
//		if r.Err != nil { ... } // *allocator.ClaimError: claim, request, Reason, detail
//		claim := r.AllocatedClaim()  // copy with status.allocation
//	}
//	a.Commit(results)   // keep the devices (or shares) for later calls
//	a.Uncommit(results) // and give them back, exactly
//
// For objects of any version (typed or unstructured), AllocateObjects
// converts them to the hub, allocates, and writes each claim back in its
// own version: allocation.devices from v1alpha3 on, v1alpha2
// resourceHandles with structuredData, v1alpha1 the single resourceHandle
// (see conversion).
// Given several nodes (ObjectOptions.Nodes), it puts each claim, or all of
// them together, on the first node that fits, and says why each node
// before it did not; drakit allocate works this way. One after the other
// (Sequential), a claim starts where the last claim of the same spec
// stopped: nodes only fill up, so the nodes before failed for it too (its
// Failures there are that claim's, with the numbers of that moment).
//
// PlacePods places Pods as kube-scheduler's DRA plugin does: claims from
// templates and for extended resources, shared claims, the scheduler's
// queue order, the node filters DRA depends on and NodeResourcesFit (cpu,
// memory, ephemeral storage, pods and extended resources against the
// node's status.allocatable minus what its pods request). Where it deliberately
// differs from the scheduler is listed at the top of pods.go, as this
// file lists the allocator's differences from upstream's. Pods of one
// kind (the same claims and node filters) go on from the node where the
// last one was placed, nodes filling up; pods whose claims are the same
// but whose node filters or namespaces differ share the failures that
// allocation found on nodes that have not changed since, and pass over
// such nodes in one step (podmemo.go). So pods that differ only in what
// the node filters look at do not each allocate on every node, and the
// result is that of trying every node for every pod (but for the numbers
// in the reasons of a kind, pods.go). PlaceReplicas then places copies of
// one pod until one finds no node: how many more of it fit (package
// planner builds capacity planning on these two).
//
// An Allocator is meant to live long: it keeps the compiled selectors and
// the result of every selector on every device, so that each selector is
// evaluated at most once per device until the device's slice is replaced
// (SetSlices); AllocateOn tries other nodes against the same inventory, as
// a scheduler does. It is not safe for concurrent use. New keeps the
// caller's lists of slices and of devices in use (Options.Slices,
// Options.AllocatedDevices) instead of copying them, as upstream keeps the
// caller's allocated set; they must not change while the Allocator uses
// them. A slice with a nodeName is looked at only when a call is made for
// its node, so that a fresh Allocator's first call pays for what its node
// sees, not for the whole cluster. An Allocator also keeps the view of the
// inventory of each node it is asked about a second time (which slices and
// pools the node sees, in which order) until SetSlices, when the view
// depends on nothing but the node's name: no slice selects nodes by labels
// or device by device, and no pool the node sees has counters. What slices
// hold of taints and shares is kept until the taint rules, or a device's
// shares, change.
//
// # Semantics (Kubernetes 1.37)
//
// With Features nil (DefaultFeatures) or any Features other than the zero
// value, the allocator follows the implementation of upstream v0.37.2 that
// a 1.37 scheduler picks for the features: stable, incubating with
// ConsumableCapacity, DeviceBindingAndStatus or FractionalCapacityRange,
// experimental with any alpha feature.
//
//   - Visibility: a node sees slices with its nodeName, slices whose
//     nodeSelector matches it and allNodes slices; without a node only
//     allNodes slices. Of each pool (driver + pool name) only the newest
//     generation the node sees counts. A pool is complete when the node
//     sees resourceSliceCount slices, or when the cluster has that many of
//     the generation (slices for other nodes; they still count for
//     counters); a pool of which the cluster has a newer generation is
//     left out; any other pool is incomplete and not used at all. A pool
//     whose device slices name a device twice is invalid and not used, and
//     so is a pool with a quantity (capacity, request policy, counter)
//     beyond the bound of internal/quantityguard, which comparisons could
//     take unbounded time over (drakit's own rule; the message names the
//     slice and field). A claim asking for such a quantity fails with
//     InvalidClaim, and New refuses allocated claims that consumed one.
//     Pools are visited in driver and pool order, slices in name order;
//     pools with binding conditions come last.
//   - A device serves a request (an exact request or an alternative) when
//     every selector of the request's class and then of the request
//     accepts it (CEL, see package apis/resource/cel), the node reaches it,
//     and no feature rule below keeps it away. Devices allocated before the
//     call, or taken in the call, are taken; see AdminAccess and
//     ConsumableCapacity for the exceptions.
//   - ExactCount asks for count distinct devices (an unset mode and a zero
//     count mean one). All asks for every device the class and request
//     accept (and whose capacity could serve it): it fails while any pool
//     the node sees is incomplete or invalid, when one of its devices is in
//     use, tainted or unusable, and when it matches no device.
//   - matchAttribute constraints make all devices of the listed requests
//     (all requests when none are listed) carry the attribute with the
//     same type and value; distinctAttribute constraints make their values
//     pairwise different. An attribute named with the driver's domain also
//     matches one written without domain. Without ListTypeAttributes a
//     list value matches no other device's value (a device with one may
//     still be alone under matchAttribute, as upstream has it) and takes
//     no part in distinctAttribute (upstream compares single values;
//     that it takes a list value first, see the deviations below); with
//     it, see ListTypeAttributes below. Naming a request covers its alternatives;
//     "request/alternative" covers that one.
//   - A claim gets at most 32 devices. Results list devices request by
//     request. The configuration lists each class's configuration once
//     (FromClass), naming every request that uses the class, then the
//     claim's configuration that names a request or the chosen alternative
//     (FromClaim); one that covers every request names none. The node
//     selector names the node when a device is node-local or bindsToNode,
//     else merges the node selectors of the devices' slices (or the
//     devices' own) into one term, else is empty. A device whose selector
//     has several terms (which the API server rejects) fails the claim
//     with ReasonUnsupported, unless a node-local device comes before it
//     in the results; upstream fails the whole call there.
//   - The claims of one call are allocated together, all or nothing, like
//     the claims of one pod (Mode Joint), or one after the other
//     (Sequential).
//
// The features (Features, upstream's names):
//
//   - AdminAccess: an adminAccess request may take devices in use; its
//     results say adminAccess: true and hold nothing once committed. In the
//     call a device an adminAccess request took is kept from non-admin
//     requests, and no device goes to two requests of one claim. Off, a
//     request that sets adminAccess fails with ReasonFeatureDisabled.
//   - PrioritizedList: a firstAvailable request gets the first alternative
//     with which the whole call can be allocated; results name it
//     "request/alternative" and carry its tolerations. Off: FeatureDisabled.
//   - PartitionableDevices: counter sets (sharedCounters, possibly in
//     slices of their own, which offer no devices) limit the devices that
//     consume them (consumesCounters), together with the devices allocated
//     before the call; slices with perDeviceNodeSelection offer the devices
//     whose own nodeName, nodeSelector or allNodes reaches the node. A pool
//     that declares a counter set twice or whose devices consume unknown
//     counters is invalid. Off, such slices are left out and devices that
//     consume counters cannot be used.
//   - DeviceTaints: NoSchedule and NoExecute taints keep a device from
//     requests that do not tolerate them (None and unknown effects do not);
//     results carry the request's tolerations. With DeviceTaintRules too,
//     the taints of Options.DeviceTaintRules count for the devices they
//     select (driver, pool, device; no selector selects nothing), as the
//     scheduler's slice tracker merges them.
//   - ConsumableCapacity: devices with allowMultipleAllocations are shared
//     between requests and claims as far as their capacity goes; each share
//     gets a shareID (see below) and consumedCapacity: the requested amount
//     rounded up by the capacity's requestPolicy (validRange min and step,
//     validValues), the policy's default, or the whole capacity when not
//     requested. A request naming a capacity the device lacks, or an amount
//     the policy does not allow, is not served by it; shares allocated
//     before the call consume capacity, and a shared device consumes its
//     counters once. Off, capacity requests fail with FeatureDisabled.
//     FractionalCapacityRange computes ranges in milli units.
//   - DeviceBindingAndStatus: results carry the device's bindingConditions
//     and bindingFailureConditions. Off, devices with binding conditions are
//     not used.
//   - OptionalNodeOperations (alpha): where the experimental implementation
//     runs, devices of slices with skipNodeOperations are used only with the
//     feature on and on a node that declares DRAOptionalNodeOperations, and
//     results carry the slice's list.
//
// # Later features
//
// ListTypeAttributes (alpha): selectors see list-valued attributes, and
// constraints compare values as sets, a single value being a set of one,
// as upstream's experimental implementation does: matchAttribute needs
// one element that every covered device has (each pair having one in
// common is not enough), distinctAttribute pairwise disjoint sets.
// Elements of different types are never equal; a list without elements is
// no value (the device cannot take part). The search tries devices in
// order and takes the first that fit, as upstream does, so the element
// the devices end up sharing is the one the first devices have.
//
// DerivedAttributes (alpha): a request's (or alternative's) derived
// attribute is what constraints that compare its name see for the
// request's devices, in place of a device attribute of that name (the last
// one, should the name repeat); requests without it see the devices'
// attributes. As upstream, it is evaluated only where a constraint needs
// it, on the devices that passed the selectors (the device variable of a
// selector); its value is compared as an attribute's would be (a list as
// a set with ListTypeAttributes). It plays no other part: results and
// selectors do not see it. An expression that does not compile
// (ReasonInvalidSelector) or fails on a device (ReasonCELRuntimeError)
// fails the claim, naming the request's field and the device; upstream
// aborts the call when its search meets that device, which drakit, judging
// every candidate, may meet where upstream does not (hack/allocbench lists
// this as the known difference cel-error, as for selectors). Without the
// feature such a request fails with ReasonFeatureDisabled.
//
// CompatibilityGroups (alpha): a device that consumes from a counter set
// may name compatibility groups there (consumesCounters[].
// compatibilityGroups). As upstream's experimental implementation has it,
// the devices on one counter set, those allocated before the call and
// those taken in it, must all name a group in common, and a device that
// names none goes only with others that name none; the groups all of them
// share narrow as devices join, in the search's order (the devices
// allocated before first, in slice order). A further share of a shared
// device is not judged again, as it consumes no counters again. With the
// feature off, slices that use compatibility groups are left out, which
// makes their pool incomplete, as upstream does.
//
// Selectors are compiled in the 1.37 environment of stored expressions
// (package apis/resource/cel), as the scheduler compiles them: it has
// device.allowMultipleAllocations, and list-valued attributes with
// includes() only with ListTypeAttributes. allocator/verify judges
// selectors in the same environment.
//
// # Every gate off (the zero Features)
//
// The zero Features switches every gate off; the rules stay 1.37's. A
// claim that uses a gated field (firstAvailable, capacity requests,
// adminAccess, derived attributes) fails with ReasonFeatureDisabled;
// devices with binding conditions or counters and slices with counter
// sets or perDeviceNodeSelection are left out; taints play no part; and
// list-valued attributes equal no other device's value. Kubernetes 1.31's
// own rules (ExactCount from incomplete pools, an All request that
// matches nothing, adminAccess that holds devices, class configuration
// per request) are not kept: no released scheduler combines them with
// the 1.37 API, and hack/allocbench has no upstream allocator with them
// to compare against.
//
// Where upstream's allocator deviates from these rules through defects,
// drakit does not follow it; hack/allocbench's differential test lists
// each difference. In short: upstream's stable implementation visits
// pools in random map order, upstream aborts the whole call on the first
// CEL error it meets (drakit: the claim, deterministically, naming the
// expression and device) and on a matchAttribute conflict in an All request
// (drakit: backtracks); without ListTypeAttributes upstream's
// incubating and experimental implementations let a device whose value is
// a list join a distinctAttribute constraint when it is the first the
// constraint sees, and compare no single value taken after it with it,
// while they refuse it after any other device, so that the outcome depends
// on the search's order (drakit leaves such a device out in any order;
// distinct-list-first); and 1.31 ignored class selectors for All requests,
// silently skipped allocated devices in All requests, gave an adminAccess
// request the same device more than once, counted a slice twice when a
// pool's generation increased, and handed class configuration to every
// request of the claim.
//
// Share IDs differ from upstream's on purpose: upstream draws a random
// UUID for each share, so that the same input gives a different allocation
// each time. drakit's results must be reproducible (tests, golden files,
// diffs of two runs), so a shareID is the name-based UUID (RFC 4122
// version 5, SHA-1) of the claim's identity (its UID, else
// namespace/name), the result's request, the device and the result's
// index: the same input always gives the same IDs, shares of different
// claims get different ones, and each is a lowercase RFC 4122 UUID as
// validation requires. An ID already in use on the device (two claims of
// one identity) is derived again with an attempt number mixed in.
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
// linear in the devices, where upstream's search is exponential; so are
// requests whose devices consume more counters than are left (each pool
// bounds how many of them fit by the least a device consumes) and
// distinctAttribute requests with fewer distinct values than devices.
//
// A selector is evaluated on a device at most once per Allocator (until
// the device's slice is replaced), and only when needed: a call that
// allocates one claim whose requests are all exact, without adminAccess
// or capacity requests, and without constraints, evaluates selectors on
// free devices in view order until each request has as many candidates as
// the claim asks for devices in all (a search in view order never needs a
// later one); with one such request under one matchAttribute constraint,
// until enough candidates share the value of the first one. Upstream's
// search likewise stops at the first devices that fit. Every
// free device is judged when those are not enough, and every device when
// a message must count the devices in use. Other calls judge every device
// the node reaches. Later calls reuse compiled programs and results.
//
// Most selectors are judged without cel-go: compiling one costs more than
// a small allocation, and building the CEL input of every device more
// still. A selector of the plain shape classes and requests use
// (comparisons of device.driver, allowMultipleAllocations, attributes and
// a few semver, quantity and string functions with literals, joined by
// &&, || and !, optionally in cel.bind; see cel.Options.FastPath) is
// not compiled until a device needs it: the fast path answers for a
// device whenever cel-go would give a plain bool, and the compiled
// program takes over for any other device (a missing attribute, another
// kind of value, an unusable attribute), so results and errors are
// cel-go's. Stats.Compiled counts the programs compiled.
//
// # Errors
//
// A claim that cannot be allocated gets a *ClaimError naming the claim, the
// request when one is to blame, a Reason (NoClass, NoMatchingDevice,
// NotEnoughDevices, ConstraintUnsatisfiable, DeviceInUse, DeviceTainted,
// IncompletePool, InvalidPool, TooManyDevices, CELRuntimeError,
// InvalidSelector, InvalidClaim, Conflict, OtherClaimFailed, Unsupported,
// FeatureDisabled) and what was counted, in words for people: counts
// agree with their nouns and verbs ("1 device matches", "3 devices
// match"), an All request says it wants every device that matches ("asks
// for all 3 devices that match, but they do not all share a value for
// ..."), and a request for one device, or an All request whose devices
// other claims of the call took, fails as NotEnoughDevices, not for its
// constraints, which one device always meets. Pods' reasons (PodReason)
// take their numbers from the error, not from its text. Claims that use
// a control-plane controller (spec.controller) or parameter objects
// (parametersRef, v1alpha1/v1alpha2) are refused, since structured
// allocation cannot evaluate them. Field paths in messages are the hub's,
// which are v1's (spec.devices.requests[0].exactly.selectors[0]).
//
// Where upstream's allocator does not fail a claim but ends its whole
// call with an error, Result.UpstreamAbort says so in upstream's words
// (upstream.go lists the cases): a feature that is off, more than 32
// devices, a selector that does not compile or fails on a device, an
// All request over an incomplete or invalid pool, and a device of an All
// request that a constraint refuses. The last depends on upstream's
// search, which never looks ahead and takes each exact request's first
// fitting devices in view order before it reaches the All request:
// drakit follows that search (upstreamAbort, bounded in steps) only for
// calls with an All request under a constraint, beside its own, which
// backtracks and may allocate where upstream ends with the error. It does
// so also where drakit fails a claim before its search (a device of an
// All request in use, tainted or short of counters; a request with too
// few devices): upstream meets that failure only after every combination
// of the claims and requests before it, and after the All request's
// devices that come before the one it cannot use, any of which may break
// a constraint first (upstreamAbortBefore). A later claim of the pod that
// fails does not hide an earlier claim's error; an earlier one that fails
// stops upstream's search before it.
// kube-scheduler fails a pod with such an error (SchedulerError) instead
// of trying other nodes; PlacePods reports it (PodResult.SchedulerError),
// and hack/allocbench's pods differential compares it with upstream's.
package allocator
