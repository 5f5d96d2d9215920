package allocate

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/describe"
)

// reportPods explains every pod that is not placed, on standard error:
// drakit's counted reasons in the scheduler's manner, then the
// scheduler's own message, and with --explain the nodes of each reason;
// with -o json one JSON object per pod. It returns how many pods were not
// placed.
func (o *Options) reportPods(inv *inventory, placed *allocator.Placement, rep *cmdutil.Reporter) int {
	failed := 0
	for _, p := range inv.pods {
		r := p.result
		if r.Waiting == "" && r.Failure == nil && r.SchedulerError == "" {
			continue
		}
		failed++
		if o.Output == "json" {
			data, err := json.Marshal(podExplanation(p, placed, o.Explain))
			if err == nil {
				rep.Errors++
				fmt.Fprintf(o.ErrOut, "%s\n", data)
				continue
			}
		}
		if r.Waiting != "" {
			rep.Report(p.obj.Errorf("waits, not tried: %s", r.Waiting), false)
			continue
		}
		if r.SchedulerError != "" {
			rep.Report(p.obj.Errorf("%s", describe.SchedulerErrorLine(r)), false)
			fmt.Fprintf(o.ErrOut, "  %s\n", describe.WouldFitLine(r))
			if r.Failure == nil {
				continue
			}
		} else {
			rep.Report(p.obj.Errorf("%s", r.Failure.Line(r.Name)), false)
			fmt.Fprintf(o.ErrOut, "  kube-scheduler: %s\n", r.SchedulerMessage)
		}
		if o.Explain {
			for _, reason := range r.Failure.Reasons {
				describe.WriteReason(o.ErrOut, "  ", reason, placed)
			}
		}
	}
	return failed
}

// podJSON is the JSON form of a pod's explanation (-o json).
type podJSON struct {
	Pod     string `json:"pod"`
	Source  string `json:"source"`
	Waiting string `json:"waiting,omitempty"`
	Nodes   int    `json:"nodes,omitempty"`
	Message string `json:"message,omitempty"`
	// The scheduler's words: its message for an unschedulable pod, or
	// the error it fails the pod with (and where drakit's allocator would
	// place it then).
	SchedulerMessage string       `json:"schedulerMessage,omitempty"`
	SchedulerError   string       `json:"schedulerError,omitempty"`
	WouldFit         string       `json:"wouldFit,omitempty"`
	Reasons          []reasonJSON `json:"reasons,omitempty"`
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
	out := podJSON{Pod: r.Name, Source: strings.TrimSuffix(p.obj.Errorf("x").Error(), ": x"), Waiting: r.Waiting,
		SchedulerMessage: r.SchedulerMessage, SchedulerError: r.SchedulerError, WouldFit: r.WouldFit}
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
			j.Nodes, j.MoreNodes = describe.NodeRuns(reason.Nodes, describe.PlacedNode(placed))
			if len(reason.Nodes) > 0 && describe.DevicesTaken(reason) {
				first := placed.Nodes[reason.Nodes[0]].Name
				if held := describe.HeldBy(placed, first); len(held) > 0 {
					j.HeldBy = map[string][]string{first: held}
				}
			}
		}
		out.Reasons = append(out.Reasons, j)
	}
	return out
}
