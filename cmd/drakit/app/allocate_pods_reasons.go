package app

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/drakit/drakit/allocator"
)

// Limits of --explain, so that no line lists every node of a cluster.
const (
	explainRuns    = 6 // runs of consecutive nodes per reason
	explainHolders = 5 // claims named per node
)

// reportPods explains every pod that is not placed, on standard error:
// a line in the scheduler's manner, and with --explain the nodes of each
// reason; with -o json one JSON object per pod. It returns how many pods
// were not placed.
func (o *allocateOptions) reportPods(s Streams, inv *inventory, placed *allocator.Placement, rep *reporter) int {
	failed := 0
	for _, p := range inv.pods {
		r := p.result
		if r.Waiting == "" && r.Failure == nil {
			continue
		}
		failed++
		if o.output == "json" {
			data, err := json.Marshal(podExplanation(p, placed, o.explain))
			if err == nil {
				rep.errors++
				fmt.Fprintf(s.ErrOut, "%s\n", data)
				continue
			}
		}
		if r.Waiting != "" {
			rep.report(p.obj.Errorf("waits, not tried: %s", r.Waiting), false)
			continue
		}
		rep.report(p.obj.Errorf("%s", r.Failure.Line(r.Name)), false)
		if o.explain {
			for _, reason := range r.Failure.Reasons {
				writeReason(s, reason, placed)
			}
		}
	}
	return failed
}

// writeReason writes one reason of --explain: the nodes, the claims that
// hold devices on the first of them, and the allocator's explanation.
func writeReason(s Streams, reason *allocator.PodReason, placed *allocator.Placement) {
	runs, more := nodeRuns(reason.Nodes, placed)
	where := strings.Join(runs, ", ")
	if more > 0 {
		where += fmt.Sprintf(" and %d more", more)
	}
	fmt.Fprintf(s.ErrOut, "  %s: %s\n", reason, where)
	if reason.Example != "" {
		fmt.Fprintf(s.ErrOut, "    on %s: %s\n", placed.Nodes[reason.Nodes[0]].Name, reason.Example)
	}
	if len(reason.Nodes) > 0 && devicesTaken(reason) {
		first := placed.Nodes[reason.Nodes[0]].Name
		if held := holders(placed, first); held != "" {
			fmt.Fprintf(s.ErrOut, "    claims on %s now: %s\n", first, held)
		}
	}
}

// devicesTaken reports whether the reason is, at least in part, devices
// that other claims hold: then the claims on the node are worth naming.
func devicesTaken(reason *allocator.PodReason) bool {
	return strings.Contains(reason.Example, "already allocated") || strings.Contains(reason.Example, "other claims") ||
		strings.HasPrefix(reason.Text, "devices in use")
}

// holders names the claims allocated on the node, at most explainHolders.
func holders(placed *allocator.Placement, node string) string {
	names := placed.Holders[node]
	if len(names) <= explainHolders {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:explainHolders], ", ") + fmt.Sprintf(" and %d more", len(names)-explainHolders)
}

// nodeRuns writes the nodes (indices in placed.Nodes, ascending) as runs
// of consecutive nodes ("node-0001..node-0040 (40)"), at most
// explainRuns; more counts the nodes left out.
func nodeRuns(idx []int, placed *allocator.Placement) (runs []string, more int) {
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if len(runs) == explainRuns {
			more += j - i + 1
		} else {
			first := placed.Nodes[idx[i]].Name
			switch j - i {
			case 0:
				runs = append(runs, first)
			case 1:
				runs = append(runs, first, placed.Nodes[idx[j]].Name)
			default:
				runs = append(runs, fmt.Sprintf("%s..%s (%d)", first, placed.Nodes[idx[j]].Name, j-i+1))
			}
		}
		i = j + 1
	}
	return runs, more
}

// podJSON is the JSON form of a pod's explanation (-o json).
type podJSON struct {
	Pod     string       `json:"pod"`
	Source  string       `json:"source"`
	Waiting string       `json:"waiting,omitempty"`
	Nodes   int          `json:"nodes,omitempty"`
	Message string       `json:"message,omitempty"`
	Reasons []reasonJSON `json:"reasons,omitempty"`
}

type reasonJSON struct {
	Reason    string              `json:"reason"`
	Count     int                 `json:"count"`
	Asks      int                 `json:"asks,omitempty"`
	MostFree  *int                `json:"mostFree,omitempty"`
	Example   string              `json:"example,omitempty"`
	Nodes     []string            `json:"nodes,omitempty"`
	MoreNodes int                 `json:"moreNodes,omitempty"`
	HeldBy    map[string][]string `json:"heldBy,omitempty"`
}

func podExplanation(p *podEntry, placed *allocator.Placement, explain bool) podJSON {
	r := p.result
	out := podJSON{Pod: r.Name, Source: strings.TrimSuffix(p.obj.Errorf("x").Error(), ": x"), Waiting: r.Waiting}
	if r.Failure == nil {
		return out
	}
	out.Nodes, out.Message = r.Failure.Nodes, r.Failure.Line(r.Name)
	for _, reason := range r.Failure.Reasons {
		j := reasonJSON{Reason: reason.Text, Count: reason.Count, Asks: reason.Asks}
		if reason.Asks > 0 {
			free := reason.MostFree
			j.MostFree = &free
		}
		if explain {
			j.Example = reason.Example
			j.Nodes, j.MoreNodes = nodeRuns(reason.Nodes, placed)
			if len(reason.Nodes) > 0 && devicesTaken(reason) {
				first := placed.Nodes[reason.Nodes[0]].Name
				if held := placed.Holders[first]; len(held) > 0 {
					j.HeldBy = map[string][]string{first: held[:min(len(held), explainHolders)]}
				}
			}
		}
		out.Reasons = append(out.Reasons, j)
	}
	return out
}
