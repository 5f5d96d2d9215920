package describe

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
)

// PrintPod writes "describe pod": the pod, its claims and their state,
// and the replay (with explain, the nodes of each reason and the claims
// holding their devices). gates says in one line which feature gates the
// replayed scheduler had.
func PrintPod(w io.Writer, pod *corev1.Pod, claims []*PodClaim, r *Replay, inv *cluster.Inventory, gates string, explain bool) {
	node := pod.Spec.NodeName
	if node == "" {
		node = "<none>"
	}
	fmt.Fprintf(w, "Name:       %s\nNamespace:  %s\nNode:       %s\nPhase:      %s\n", pod.Name, pod.Namespace, node, pod.Status.Phase)
	if len(claims) == 0 {
		fmt.Fprintln(w, "Claims:     <none>")
	} else {
		fmt.Fprintln(w, "Claims:")
	}
	for _, pc := range claims {
		name := pc.ClaimName
		if name == "" {
			name = "<not made yet>"
		}
		fmt.Fprintf(w, "  %s:\n    ResourceClaim:  %s (%s)\n    State:          %s\n", pc.Name, name, pc.Source, claimState(pod, pc))
	}
	if r == nil {
		return
	}
	fmt.Fprintf(w, "Scheduling (DRA replayed on the live inventory, resource.k8s.io/%s):\n", inv.Version)
	fmt.Fprintf(w, "  Feature gates: %s\n", gates)
	printOutcome(w, r, explain)
	fmt.Fprintf(w, "  Not simulated: %s.\n", allocator.NotSimulated)
}

// printOutcome writes what became of the pod in the replay: the
// scheduler's line, then the nodes per reason (explain) and the taints
// not tolerated.
func printOutcome(w io.Writer, r *Replay, explain bool) {
	p := r.Pod
	if p.Deallocated != "" {
		fmt.Fprintf(w, "  First attempt: kube-scheduler: %s\n  Its DRA plugin deallocates claim %s (allocated where the pod cannot run, reserved for no other pod) and tries the pod again:\n", p.FirstMessage, p.Deallocated)
	}
	switch {
	case p.Waiting != "":
		// What the allocator's input lacks, the cluster lacks.
		fmt.Fprintf(w, "  Not tried (the scheduler does not try a pod whose claims cannot be made): %s\n", strings.Replace(p.Waiting, "is not in the input", "does not exist", 1))
		return
	case p.SchedulerError != "":
		fmt.Fprintf(w, "  %s\n  %s\n", SchedulerErrorLine(p), WouldFitLine(p))
		if p.Failure == nil {
			return
		}
	case p.Failure == nil:
		which := fmt.Sprintf("the first of %d nodes, by name, that DRA and the node filters allow", len(r.Placement.Nodes))
		if len(r.Placement.Nodes) == 1 {
			which = "the only node; DRA and the node filters allow it"
		}
		fmt.Fprintf(w, "  Its claims can be allocated on node %s (%s): what keeps it pending is not its devices\n", p.Node, which)
		return
	}
	if p.SchedulerError == "" {
		fmt.Fprintf(w, "  %s\n  kube-scheduler: %s\n", p.Failure.Line(p.Name), p.SchedulerMessage)
	}
	if explain {
		for _, reason := range p.Failure.Reasons {
			WriteReason(w, "    ", reason, r.Placement)
		}
	}
	if len(r.Taints) > 0 {
		fmt.Fprintf(w, "  Device taints not tolerated (%d):\n", len(r.Taints))
		for i, t := range r.Taints {
			if i == 10 && !explain {
				fmt.Fprintf(w, "    ... %d more (--explain lists them)\n", len(r.Taints)-10)
				break
			}
			fmt.Fprintf(w, "    %s\n", t)
		}
	}
	if !explain {
		fmt.Fprintln(w, "  (--explain names the nodes of each reason and the claims holding their devices)")
	}
}

// claimState says what became of a claim of the pod.
func claimState(pod *corev1.Pod, pc *PodClaim) string {
	c := pc.Claim
	switch {
	case c == nil && pc.TemplateMissing:
		return "waiting for a claim that cannot be made: no such ResourceClaimTemplate in namespace " + pod.Namespace
	case c == nil && pc.Template != nil:
		return "waiting for the claim of template " + pc.Template.Name + " to be made (kube-controller-manager makes it)"
	case c == nil && strings.HasPrefix(pc.Source, "extended resources"):
		return "to be made by the scheduler when it picks a node"
	case c == nil:
		return "missing: no such ResourceClaim in namespace " + pod.Namespace
	case c.Status.Allocation == nil:
		return "not allocated"
	}
	s := "allocated"
	if n := allocationNode(c.Status.Allocation); n != "" {
		s += " on " + n
	}
	s += ": " + strings.Join(resultDevices(c.Status.Allocation), ", ")
	return s + "; " + reservedText(c)
}

func reservedText(c *resource.ResourceClaim) string {
	if len(c.Status.ReservedFor) == 0 {
		return "reserved for nobody"
	}
	var names []string
	for _, r := range c.Status.ReservedFor {
		names = append(names, strings.TrimSuffix(r.Resource, "s")+" "+r.Name)
	}
	return "reserved for " + strings.Join(names, ", ")
}

// allocationNode is the node an allocation's selector names, when it
// names one by metadata.name or kubernetes.io/hostname.
func allocationNode(a *resource.AllocationResult) string {
	if a.NodeSelector == nil {
		return ""
	}
	for _, t := range a.NodeSelector.NodeSelectorTerms {
		for _, r := range append(append([]corev1.NodeSelectorRequirement(nil), t.MatchFields...), t.MatchExpressions...) {
			if (r.Key == "metadata.name" || r.Key == "kubernetes.io/hostname") && r.Operator == corev1.NodeSelectorOpIn && len(r.Values) == 1 {
				return r.Values[0]
			}
		}
	}
	return "nodes of a selector"
}

func resultDevices(a *resource.AllocationResult) []string {
	var out []string
	for _, r := range a.Devices.Results {
		out = append(out, r.Driver+"/"+r.Pool+"/"+r.Device)
	}
	return out
}

// PrintDevices writes "get devices" as a kubectl table.
func PrintDevices(w io.Writer, rows []*DeviceRow) error {
	tw := tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
	fmt.Fprintln(tw, "NODE\tDRIVER\tPOOL\tDEVICE\tSTATE\tHOLDER\tSHARES\tCAPACITY\tTAINTS")
	for _, r := range rows {
		holder := joinOr(r.Holders, "<free>")
		shares := "-"
		if r.Multiple {
			shares = fmt.Sprint(r.Shares)
		}
		var taints []string
		for _, t := range r.Taints {
			taints = append(taints, t.String())
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Node, r.Driver, r.Pool, r.Device, r.State, holder, shares, joinOr(r.Capacity, "<none>"), joinOr(taints, "<none>"))
	}
	return tw.Flush()
}

// PrintClaims writes "get resourceclaims" as a kubectl table.
func PrintClaims(w io.Writer, claims []*resource.ResourceClaim, withNamespace bool) error {
	tw := tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
	head := "NAME\tSTATE\tNODE\tDEVICES\tRESERVED FOR"
	if withNamespace {
		head = "NAMESPACE\t" + head
	}
	fmt.Fprintln(tw, head)
	for _, c := range claims {
		state, node, devices := "pending", "<none>", "<none>"
		if a := c.Status.Allocation; a != nil {
			state = "allocated"
			if len(c.Status.ReservedFor) > 0 {
				state = "allocated,reserved"
			}
			if n := allocationNode(a); n != "" {
				node = n
			} else {
				node = "<any>"
			}
			devices = joinOr(resultDevices(a), "<none>")
		}
		var users []string
		for _, r := range c.Status.ReservedFor {
			users = append(users, r.Name)
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s", c.Name, state, node, devices, joinOr(users, "<none>"))
		if withNamespace {
			line = c.Namespace + "\t" + line
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
}
