package scheduler

import (
	"regexp"
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
	// behaviour. Empty only where no scenario can show it every time (the
	// entry says why).
	example string
}

// knownDifferences are all the ways drakit and the scheduler may
// disagree on the scenarios. explain tries them in order; the first whose
// condition holds explains a difference, and one that none explains fails
// the test.
var knownDifferences = []knownDifference{
	{
		name: "earlier-choice", deliberate: true,
		reason: "drakit places a pod on the first node, in the order given, that fits it, and takes the " +
			"devices its search finds first; the scheduler scores the nodes that fit (here the DRA " +
			"plugin's score for the firstAvailable alternative a node got; with equal scores it picks at " +
			"random) and its allocator may take other devices of the same node. Once an earlier pod went " +
			"elsewhere, a later pod may fit in one cluster and not in the other, or fail otherwise. drakit " +
			"finds the scheduler's node feasible and its devices right (the replay agrees); only its own " +
			"choice differs.",
		explains: func(d *difference, r *scenarioResult) bool { return d.kind == "earlier-choice" },
		example:  "first-available",
	},
	{
		name: "retry-message", deliberate: true,
		reason: "the scheduler tries an unschedulable pod again when a claim of its changes: a later pod " +
			"that shares the claim allocates it, and the pod's condition then gives the reasons of that " +
			"attempt (\"resourceclaim not available on the node\" where the claim is not usable). drakit " +
			"tries each pod once, in the queue's order, and gives the reasons of that attempt; the " +
			"outcome is the same (the cluster only fills up), the words are those of an earlier state. The " +
			"replay, on the state of the last attempt, gives the scheduler's words.",
		explains: func(d *difference, r *scenarioResult) bool {
			return d.kind == "message" && (d.of == "offline" || d.of == "live") && d.scheduler.node == "" && !d.drakit.placed() &&
				sharesWithLater(r, d.pod)
		},
		example: "retry-message",
	},
	{
		name: "retry-after-error", deliberate: true,
		reason: "a pod the scheduler failed with an error (the 1.37 allocator's constraint abort) is tried " +
			"again after a backoff, and when a later pod that shares one of its claims has allocated that " +
			"claim meanwhile, the search no longer meets the abort and the pod is bound. drakit tries " +
			"each pod once and says the scheduler fails it.",
		explains: func(d *difference, r *scenarioResult) bool {
			return (d.kind == "offline" || d.kind == "live") && d.scheduler.node != "" && d.drakit.schedulerError != "" && sharesWithLater(r, d.pod)
		},
		example: "retry-after-error",
	},
	{
		name: "made-claim-name", deliberate: true,
		reason: "the resourceclaim controller names the claim it makes from a template with a random suffix " +
			"(generateName); drakit, offline, makes the claim itself with a name of its own, so a message " +
			"that names the claim names another. Live, drakit reads the controller's claims.",
		explains: func(d *difference, r *scenarioResult) bool {
			return d.kind == "message" && d.of == "offline" && maskMade(d.scheduler.message) == maskMade(drakitWords(d.drakit))
		},
		example: "all-abort-template",
	},
	{
		// No example: no scenario shows it every time. The scheduler
		// filters the nodes in parallel, from a start node that moves on
		// with every attempt, and reports the error that comes first.
		name: "abort-names-another-node", deliberate: true,
		reason: "where the 1.37 allocator would end the attempt with an error on several nodes, the scheduler " +
			"reports the error of whichever node its parallel filter met first; drakit names the first " +
			"such node in its order. The error is the same but for the device it names.",
		explains: func(d *difference, r *scenarioResult) bool {
			theirs, ours := d.scheduler.message, d.drakit.schedulerError
			return d.kind == "message" && d.scheduler.reason == "SchedulerError" && ours != "" &&
				errorShape(maskMade(theirs)) == errorShape(maskMade(ours)) && errorDevice(theirs) != errorDevice(ours)
		},
		example: "",
	},
}

// sharesWithLater reports whether the pod names a claim that a pod after
// it in the queue names too and the scheduler bound.
func sharesWithLater(r *scenarioResult, pod string) bool {
	mine := map[string]bool{}
	after := false
	for _, p := range r.sc.pending {
		if p.Name == pod {
			after = true
			for _, rc := range p.Spec.ResourceClaims {
				if rc.ResourceClaimName != nil {
					mine[*rc.ResourceClaimName] = true
				}
			}
			continue
		}
		if !after {
			continue
		}
		bound := false
		for _, pr := range r.pods {
			if pr.pod == p.Name && pr.scheduler.node != "" {
				bound = true
			}
		}
		for _, rc := range p.Spec.ResourceClaims {
			if bound && rc.ResourceClaimName != nil && mine[*rc.ResourceClaimName] {
				return true
			}
		}
	}
	return false
}

// madeNames matches the name of a claim made from a template in an error:
// "claim NAMESPACE/POD-ENTRY-xxxxx,", the suffix random.
var madeNames = regexp.MustCompile(`(claim [a-z0-9-]+/[a-z0-9]+-[a-z0-9]+-)[a-z0-9]{5},`)

// maskMade masks the random suffix of the names of made claims.
func maskMade(msg string) string { return madeNames.ReplaceAllString(msg, "${1}xxxxx,") }

// drakitWords is what drakit expects the pod's condition to say: the
// scheduler's error, or its message.
func drakitWords(v verdict) string {
	if v.schedulerError != "" {
		return v.schedulerError
	}
	return v.message
}

// errorDevices matches the device a constraint error names.
var errorDevices = regexp.MustCompile(`cannot add device (\S+) because`)

// errorShape is the error without the device it names.
func errorShape(msg string) string {
	return errorDevices.ReplaceAllString(msg, "cannot add device DEVICE because")
}

// errorDevice is the device the error names.
func errorDevice(msg string) string {
	if m := errorDevices.FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	return ""
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
