package scheduler

import (
	"fmt"
	"strings"
)

// knownDifference is a documented reason why drakit's prediction and what
// kube-scheduler v1.37.2 did may disagree.
type knownDifference struct {
	name string
	// deliberate: drakit differs on purpose (and says so to users);
	// otherwise the difference is a gap of drakit's still to close.
	deliberate bool
	reason     string
	// explains reports whether the difference shows the condition that
	// explains it.
	explains func(d *difference, r *scenarioResult) bool
	// example is the edge case (edgeCases) that must show it: TestScheduler
	// fails when it no longer does, so that the list cannot outlive the
	// behaviour.
	example string
}

// knownDifferences are all the ways drakit and the scheduler may
// disagree on the scenarios. explain tries them in order; the first whose
// condition holds explains a difference, and one that none explains fails
// the test.
var knownDifferences = []knownDifference{
	{
		name: "node-choice", deliberate: true,
		reason: "drakit places a pod on the first node, in the order given, that fits it; the scheduler " +
			"scores the nodes that fit (here the DRA plugin's score for the firstAvailable alternative a " +
			"node got; with equal scores it picks at random) and takes the best. Once an earlier pod went " +
			"to another node, a later pod may fit in one cluster and not in the other. drakit finds the " +
			"scheduler's node feasible (the replay agrees); only its own choice differs.",
		explains: func(d *difference, r *scenarioResult) bool { return d.kind == "node-choice" },
		example:  "first-available",
	},
	{
		name: "postfilter-deallocation",
		reason: "a pod's claim is allocated where the pod cannot run and reserved for no pod: the " +
			"scheduler's DRA PostFilter deallocates it when no node fits, and the pod, tried again, gets " +
			"it allocated where it can run. drakit holds an allocated claim where it is (no retry, no " +
			"deallocation) and finds the pod unplaceable.",
		explains: func(d *difference, r *scenarioResult) bool {
			return d.scheduler.node != "" && !d.drakit.placed() && d.kind != "message" && unreservedAllocated(r, d.pod)
		},
		example: "allocated-elsewhere",
	},
	{
		name: "slice-without-node",
		reason: "drakit allocate --from-cluster tries, besides the cluster's nodes, a bare node for every " +
			"node name a slice gives that the cluster has no Node of (as it does offline, where the input " +
			"may lack the Nodes); the scheduler tries the cluster's nodes only. So drakit counts more nodes " +
			"in the message, and may place a pod on a node that does not exist. Slices other e2e packages " +
			"leave behind show it in the whole suite's run.",
		explains: func(d *difference, r *scenarioResult) bool {
			if d.of != "live" {
				return false
			}
			if d.drakit.node != "" && !r.nodes[d.drakit.node] {
				return true
			}
			return d.kind == "message" && nodesCounted(d.drakit.message) > nodesCounted(d.scheduler.message)
		},
		example: "slice-without-node",
	},
	{
		name: "reservation-needs-timestamp",
		reason: "a pod shares a claim allocated without status.allocation.allocationTimestamp (by a scheduler " +
			"without DRADeviceBindingConditions, off by default before 1.36, or by another program): with " +
			"DRADeviceBindingConditions and DRAResourceClaimDeviceStatus on (the 1.37 defaults) the " +
			"scheduler's PreBind sets the timestamp when it adds the pod to reservedFor, and the API server " +
			"refuses the update (status.allocation cannot be modified once set): the pod fails with a " +
			"SchedulerError on every attempt. drakit places it where the claim is allocated.",
		explains: func(d *difference, r *scenarioResult) bool {
			return d.scheduler.reason == "SchedulerError" && strings.Contains(d.scheduler.message, "field cannot be modified once set") && d.drakit.schedulerError == ""
		},
		example: "allocated-without-timestamp",
	},
}

// nodesCounted is N of a message "0/N nodes are available: ...", or 0.
func nodesCounted(message string) int {
	var n int
	if _, err := fmt.Sscanf(message, "0/%d nodes", &n); err != nil {
		return 0
	}
	return n
}

// unreservedAllocated reports whether the pod names a claim that was
// allocated and reserved for no pod before the scheduler ran.
func unreservedAllocated(r *scenarioResult, pod string) bool {
	for _, p := range r.sc.pending {
		if p.Name != pod {
			continue
		}
		for _, rc := range p.Spec.ResourceClaims {
			if rc.ResourceClaimName == nil {
				continue
			}
			for _, c := range r.sc.claims {
				if c.Name == *rc.ResourceClaimName && c.Status.Allocation != nil && len(c.Status.ReservedFor) == 0 {
					return true
				}
			}
		}
	}
	return false
}

// explain is the name of the first known difference that explains d, or
// "".
func explain(d *difference, r *scenarioResult) string {
	for _, k := range knownDifferences {
		if k.explains(d, r) {
			return k.name
		}
	}
	return ""
}

// exampleName is the example scenario of the known difference.
func exampleName(name string) string {
	for _, k := range knownDifferences {
		if k.name == name {
			return k.example
		}
	}
	return ""
}
