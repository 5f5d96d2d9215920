package allocate

import (
	"bufio"
	"errors"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// wideColumns are the columns of allocate -o wide. The first eight are
// those of the table before 1.37 results; the columns of the 1.32+ result
// fields come after them, so that a script reading columns by position
// keeps working.
const wideColumns = "CLAIM\tVERSION\tREQUEST\tDRIVER\tPOOL\tDEVICE\tNODE\tSTATUS\tSHARE\tCONSUMED\tTOLERATIONS\tBINDING\tADMIN"

// printTable writes one row per allocated device (one row for a claim
// without devices or that could not be allocated). The request of a device
// allocated for an alternative of firstAvailable reads "request/alternative",
// as in the claim's status. An empty cell is "-".
func printTable(w *bufio.Writer, inv *inventory) error {
	tw := tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
	fmt.Fprintln(tw, wideColumns)
	for _, c := range inv.claims {
		name := c.obj.Head.Metadata.Name
		if ns := c.obj.Head.Metadata.Namespace; ns != "" {
			name = ns + "/" + name
		}
		switch {
		case c.outcome.Err != nil:
			req := "-"
			reason := "unsatisfiable"
			var ce *allocator.ClaimError
			if errors.As(c.outcome.Err, &ce) {
				if ce.Request != "" {
					req = ce.Request
				}
				reason += " (" + string(ce.Reason) + ")"
			}
			writeRow(tw, name, c.version, req, "", "", "", "", reason, "", "", "", "", "")
		default:
			status, node := "allocated", c.outcome.Node
			if c.outcome.Result.AlreadyAllocated {
				status, node = "allocated before", ""
			}
			results := c.outcome.Result.Allocation.AllocatedDevices()
			if len(results) == 0 {
				writeRow(tw, name, c.version, "", "", "", "", node, status, "", "", "", "", "")
			}
			for _, r := range results {
				cells := append([]string{name, c.version, r.Request, r.Driver, r.Pool, r.Device, node, status}, resultCells(r)...)
				writeRow(tw, cells...)
			}
		}
	}
	return tw.Flush()
}

// resultCells are the table's cells of what a result records for a
// device beyond its name: share ID, consumed capacity, tolerations,
// binding conditions, admin access.
func resultCells(r resource.DeviceRequestAllocationResult) []string {
	share, admin := "", ""
	if r.ShareID != nil {
		share = string(*r.ShareID)
	}
	if r.AdminAccess != nil && *r.AdminAccess {
		admin = "true"
	}
	return []string{share, formatCapacity(r.ConsumedCapacity), formatTolerations(r.Tolerations), strings.Join(r.BindingConditions, ","), admin}
}

// writeRow writes the cells separated by tabs, "-" for an empty cell.
func writeRow(tw *tabwriter.Writer, cells ...string) {
	for i, c := range cells {
		if c == "" {
			c = "-"
		}
		if i > 0 {
			fmt.Fprint(tw, "\t")
		}
		fmt.Fprint(tw, c)
	}
	fmt.Fprintln(tw)
}

// formatCapacity writes consumed capacity as name=quantity, sorted by
// name: "bandwidth=40G,memory=0".
func formatCapacity(capacity map[resource.QualifiedName]apiresource.Quantity) string {
	names := make([]string, 0, len(capacity))
	for n := range capacity {
		names = append(names, string(n))
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		q := capacity[resource.QualifiedName(n)]
		parts[i] = n + "=" + q.String()
	}
	return strings.Join(parts, ",")
}

// formatTolerations writes tolerations in the notation of kubectl taint:
// key=value:Effect for Equal, key:Effect for Exists, "*" for a key that
// matches every taint; a toleration for all effects has no ":Effect", and
// tolerationSeconds follow in parentheses: "example.com/recall:NoExecute(300s)".
func formatTolerations(tolerations []resource.DeviceToleration) string {
	parts := make([]string, len(tolerations))
	for i, t := range tolerations {
		s := t.Key
		switch {
		case t.Operator == resource.DeviceTolerationOpExists && t.Key == "":
			s = "*"
		case t.Operator != resource.DeviceTolerationOpExists:
			s += "=" + t.Value
		}
		if t.Effect != "" {
			s += ":" + string(t.Effect)
		}
		if t.TolerationSeconds != nil {
			s += fmt.Sprintf("(%ds)", *t.TolerationSeconds)
		}
		parts[i] = s
	}
	return strings.Join(parts, ",")
}
