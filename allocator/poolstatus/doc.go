// Package poolstatus answers "how full is each pool?" from ResourceSlices,
// allocated ResourceClaims and DeviceTaintRules, on any cluster: it needs
// neither the alpha ResourcePoolStatusRequest API (resource.k8s.io
// v1alpha3, off by default, one answer per request object) nor any
// controller. It also lints slices and node templates (Lint): pools that
// are incomplete or mid-rollout, devices named twice, and DeviceClasses
// that match no device or whose selectors fail on one.
//
// # Use
//
//	r := poolstatus.Compute(poolstatus.Input{
//		Slices:     slices,     // []*resource.ResourceSlice
//		Claims:     claims,     // []*resource.ResourceClaim; allocated ones count
//		TaintRules: taintRules, // []*resource.DeviceTaintRule
//	})
//	for _, p := range r.Pools {
//		p.Status   // upstream's PoolStatus, with its formulas
//		p.Devices  // drakit's exact, disjoint counts
//		p.Counters // what is left of each shared counter
//		p.Shared   // what is left of the capacity of shared devices
//	}
//	r.Nodes // the devices of usable pools counted per node
//
//	lint := poolstatus.Lint(ctx, poolstatus.LintInput{Slices: slices, Classes: classes})
//	lint.Findings // incomplete pools, duplicates, classes failing on devices
//
// # Upstream's numbers (Pool.Status)
//
// Pool.Status is what the resourcepoolstatusrequest controller of
// kube-controller-manager 1.37 (k8s.io/kubernetes v1.37.2, gate
// DRAResourcePoolStatus) writes for the pool, field for field; hack/allocbench
// compares the two on random pools (TestPoolStatusDifferential):
//
//   - Only the newest generation of a pool's slices counts. When it has
//     fewer slices than its resourceSliceCount, the pool is incomplete:
//     validationError starts with "PoolIncomplete:" and no count is set.
//   - totalDevices: the devices of those slices. allocatedDevices: the
//     distinct device names of the pool in the results of allocated
//     claims, without adminAccess results (an admin observes, it does not
//     use); a shared device counts once however many shares it has.
//     unavailableDevices: devices with a NoSchedule or NoExecute taint, of
//     their own or from a DeviceTaintRule that selects them (a rule
//     without a selector selects nothing), in use or not.
//     availableDevices: total - allocated - unavailable, at least 0.
//   - partitionSummary (partitionable devices): the devices that consume
//     counters, grouped by the value of the partition type attribute
//     (the slice's partitionTypeAttribute, else Input's default when no
//     slice of the pool names one); per group the devices and how many of
//     those not in use still fit, one after the other, into what the
//     devices in use leave of the shared counters.
//   - shareableSummary (devices with allowMultipleAllocations): those
//     without and those with allocations, and per capacity the pool's
//     total, the consumedCapacity of all results, and what is left.
//
// Upstream's numbers have blind spots which drakit's own do not:
// availableDevices subtracts a tainted device in use twice, and
// allocatedDevices counts results naming devices that the newest generation
// no longer has; the available devices of a partitionable pool are not
// those that still fit into the counters; a shared capacity's total minus
// its consumption adds up what is left on different devices; a pool with
// more slices than its resourceSliceCount, or with a device named twice,
// is counted although the scheduler does not use it; and with a default
// partition type attribute every pool without shared counters gets a
// PartitionTypeMissing error.
//
// # drakit's numbers
//
// Pool.Devices sorts every device of a pool the scheduler uses
// (Pool.Usable: complete, and not invalid: no device named twice, counter
// sets declared once and consumed only where declared) into exactly one
// state, in this order: InUse (held by a non-admin allocation result:
// whole, or with at least one share of a shared device), Tainted (not in
// use, NoSchedule or NoExecute), NoCounters (not in use, untainted, but
// what it consumes no longer fits into what the devices in use leave of
// the pool's counters, or the devices in use overdraw one of them, after
// which the scheduler adds no device that consumes counters of the pool:
// it cannot be carved now), Free (could be allocated now). Pool.Counters are each counter's value, what the devices in use
// consume (once per device, however many shares it has, as the scheduler
// counts) and what is left; Pool.Partitions are per shape of partitionable
// device (its partition type, else what it consumes) how many more fit
// together, of those not in use and untainted; Pool.Shared is per capacity of the shared
// devices their total, what their shares consume and what is left, summed
// device by device (a device's left capacity is never below 0). Report.Nodes
// counts the devices of usable pools per node (the device's nodeName, else
// its slice's), leaving out devices that are not tied to one node. The
// devices of a pool that is not usable are Unusable.
//
// A pool is shown as it rolls out (Pool.Rollout): the generations its
// slices carry, how many slices of the newest generation are published out
// of resourceSliceCount, and how many slices of older generations are
// still there. Like the scheduler, drakit counts only a complete newest
// generation (exactly resourceSliceCount slices); a pool whose newest
// generation is incomplete has no counts (RollingOut when an older
// generation is still published, else Incomplete).
//
// # Limits
//
// States follow the scheduler with 1.37's default feature gates, for a
// request without tolerations or other selectors: devices that a cluster
// with a gate off would not use (counters without
// DRAPartitionableDevices, binding conditions without
// DRADeviceBindingConditions, and so on) are counted as usable, and
// compatibility groups (DRADeviceCompatibilityGroups, alpha, off by
// default) are not looked at. A shared device in use is
// InUse even when its capacity left would take another share; Shared
// says what is left, not whether a request policy's minimum still fits.
package poolstatus
