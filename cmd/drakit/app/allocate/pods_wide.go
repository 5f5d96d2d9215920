package allocate

import (
	"bufio"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/drakit/drakit/allocator"
)

// podColumns are the columns of allocate -o wide with pods: the pod and
// its node first, then the claim's columns as without pods.
const podColumns = "POD\tNODE\tSTATUS\tCLAIM\tVERSION\tREQUEST\tDRIVER\tPOOL\tDEVICE\tSHARE\tCONSUMED\tTOLERATIONS\tBINDING\tADMIN"

// printPodTable writes one row per pod and allocated device; a pod
// without devices, or not placed, gets one row.
func printPodTable(w *bufio.Writer, inv *inventory, placed *allocator.Placement) error {
	claims := map[string]*allocator.ObjectResult{}
	for i := range placed.Claims {
		claims[placed.Claims[i].Name] = &placed.Claims[i]
	}
	tw := tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
	fmt.Fprintln(tw, podColumns)
	for _, p := range inv.pods {
		r := p.result
		status := podStatus(r)
		rows := 0
		for _, name := range r.Claims {
			c := claims[name]
			if c == nil || c.Result.Allocation == nil {
				continue
			}
			for _, d := range c.Result.Allocation.AllocatedDevices() {
				writeRow(tw, append([]string{r.Name, r.Node, status, name, c.Version, d.Request, d.Driver, d.Pool, d.Device}, resultCells(d)...)...)
				rows++
			}
		}
		if rows == 0 {
			writeRow(tw, r.Name, r.Node, status, strings.Join(r.Claims, ","), "", "", "", "", "", "", "", "", "", "")
		}
	}
	return tw.Flush()
}

// podStatus is the STATUS cell: placed, bound (came with a node),
// unplaceable, scheduler-error (the scheduler fails it with an error),
// waiting (a claim or template is missing).
func podStatus(r allocator.PodResult) string {
	switch {
	case r.Waiting != "":
		return "waiting"
	case r.SchedulerError != "":
		return "scheduler-error"
	case r.Failure != nil:
		return "unplaceable"
	case r.Bound:
		return "bound"
	}
	return "placed"
}
