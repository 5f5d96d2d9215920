package describe

import (
	"fmt"
	"io"
	"strings"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource/catalogue"
)

// Limits of --explain, so that no line lists every node of a cluster.
const (
	explainRuns    = 6 // runs of consecutive nodes per reason
	explainHolders = 5 // claims named per node
)

// WriteReason writes one reason a pod cannot be placed, as --explain of
// "allocate" and "describe pod" do: the nodes (in runs, at most
// explainRuns, "and N more"), the allocator's explanation on the first of
// them, and the claims that hold devices there when devices are taken.
// reason.Nodes must have been kept (allocator.PodOptions.Explain).
func WriteReason(w io.Writer, indent string, reason *allocator.PodReason, placed *allocator.Placement) {
	fmt.Fprintf(w, "%s%s: %s\n", indent, reason, NodeRunsText(reason.Nodes, PlacedNode(placed)))
	if len(reason.Nodes) == 0 {
		return
	}
	first := placed.Nodes[reason.Nodes[0]].Name
	if reason.Example != "" {
		fmt.Fprintf(w, "%s  on %s: %s\n", indent, first, reason.Example)
	}
	if DevicesTaken(reason) {
		if held := HeldBy(placed, first); len(held) > 0 {
			fmt.Fprintf(w, "%s  claims on %s now: %s\n", indent, first, holdersText(held, len(placed.Holders[first])))
		}
	}
}

// DevicesTaken reports whether the reason is, at least in part, devices
// that other claims hold: then the claims on the node are worth naming.
func DevicesTaken(reason *allocator.PodReason) bool {
	return strings.Contains(reason.Example, "already allocated") || strings.Contains(reason.Example, "other claims") ||
		strings.HasPrefix(reason.Text, "devices in use")
}

// HeldBy are the first explainHolders claims allocated on the node.
func HeldBy(placed *allocator.Placement, node string) []string {
	names := placed.Holders[node]
	return names[:min(len(names), explainHolders)]
}

func holdersText(shown []string, all int) string {
	s := strings.Join(shown, ", ")
	if all > len(shown) {
		s += fmt.Sprintf(" and %d more", all-len(shown))
	}
	return s
}

// PlacedNode names the nodes of a placement by index, for NodeRuns.
func PlacedNode(placed *allocator.Placement) func(int) string {
	return func(i int) string { return placed.Nodes[i].Name }
}

// NodeRunsText is NodeRuns as one text: the runs, then "and N more".
func NodeRunsText(idx []int, name func(int) string) string {
	runs, more := NodeRuns(idx, name)
	text := strings.Join(runs, ", ")
	if more > 0 {
		text += fmt.Sprintf(" and %d more", more)
	}
	return text
}

// NodeRuns writes the nodes (indices in the order the nodes were tried,
// ascending; name names them) as runs of consecutive nodes
// ("node-0001..node-0040 (40)"), at most explainRuns; more counts the
// nodes left out.
func NodeRuns(idx []int, name func(int) string) (runs []string, more int) {
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if len(runs) == explainRuns {
			more += j - i + 1
		} else {
			first := name(idx[i])
			switch j - i {
			case 0:
				runs = append(runs, first)
			case 1:
				runs = append(runs, first, name(idx[j]))
			default:
				runs = append(runs, fmt.Sprintf("%s..%s (%d)", first, name(idx[j]), j-i+1))
			}
		}
		i = j + 1
	}
	return runs, more
}

// SchedulerErrorLine says that the scheduler fails the pod with an error,
// in its words.
func SchedulerErrorLine(r allocator.PodResult) string {
	return fmt.Sprintf("kube-scheduler 1.%d fails the pod with an error (condition reason SchedulerError), on every attempt until the objects change: %s", catalogue.Release, r.SchedulerError)
}

// WouldFitLine says why that is upstream's behaviour and what drakit's
// allocator makes of the pod.
func WouldFitLine(r allocator.PodResult) string {
	what := "drakit's allocator cannot place it either (below)"
	if r.WouldFit != "" {
		what = "drakit's allocator would place it on node " + r.WouldFit
	}
	return "(upstream's allocator ends its search with this error where it could look further; " + what + ")"
}
