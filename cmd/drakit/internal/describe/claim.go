package describe

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
)

// PrintClaim writes "describe resourceclaim": the requests, and for an
// allocated claim every device with its driver, pool, node, attributes,
// capacities, share, tolerations and binding conditions, the status the
// driver reported for it, and the pods the claim is reserved for.
func PrintClaim(w io.Writer, c *resource.ResourceClaim, inv *cluster.Inventory) {
	fmt.Fprintf(w, "Name:         %s\nNamespace:    %s\n", c.Name, c.Namespace)
	if pod := c.Annotations["resource.kubernetes.io/pod-claim-name"]; pod != "" {
		fmt.Fprintf(w, "Made for:     pod claim %s\n", pod)
	}
	fmt.Fprintln(w, "Requests:")
	for _, r := range c.Spec.Devices.Requests {
		fmt.Fprintf(w, "  %s: %s\n", r.Name, requestText(r))
	}
	a := c.Status.Allocation
	if a == nil {
		fmt.Fprintln(w, "Allocation:   <none> (not allocated: `drakit describe pod` of a pod using it says why)")
		return
	}
	node := allocationNode(a)
	if node == "" {
		node = "<any node>"
	}
	fmt.Fprintf(w, "Allocation:\n  Node:       %s\n", node)
	if a.AllocationTimestamp != nil {
		fmt.Fprintf(w, "  Allocated:  %s\n", a.AllocationTimestamp.UTC().Format("2006-01-02T15:04:05Z"))
	}
	devices := map[allocator.DeviceID]*resource.Device{}
	nodes := map[allocator.DeviceID]string{}
	for _, s := range inv.Slices {
		for i := range s.Spec.Devices {
			id := allocator.DeviceID{Driver: s.Spec.Driver, Pool: s.Spec.Pool.Name, Device: s.Spec.Devices[i].Name}
			devices[id], nodes[id] = &s.Spec.Devices[i], deviceNode(s, &s.Spec.Devices[i])
		}
	}
	fmt.Fprintln(w, "Devices:")
	for _, r := range a.Devices.Results {
		id := allocator.DeviceID{Driver: r.Driver, Pool: r.Pool, Device: r.Device}
		printResult(w, r, devices[id], nodes[id])
		printDeviceStatus(w, c, r)
	}
	fmt.Fprintf(w, "Reserved for: %s\n", strings.TrimPrefix(reservedText(c), "reserved for "))
}

func requestText(r resource.DeviceRequest) string {
	if r.Exactly != nil {
		s := exactText(r.Exactly.DeviceClassName, r.Exactly.AllocationMode, r.Exactly.Count, r.Exactly.AdminAccess)
		if r.Exactly.Capacity != nil {
			var caps []string
			for k, q := range r.Exactly.Capacity.Requests {
				caps = append(caps, string(k)+"="+q.String())
			}
			sort.Strings(caps)
			s += ", capacity " + strings.Join(caps, ",")
		}
		return s
	}
	var alts []string
	for _, s := range r.FirstAvailable {
		alts = append(alts, s.Name+"="+exactText(s.DeviceClassName, s.AllocationMode, s.Count, nil))
	}
	return "first available of " + strings.Join(alts, ", ")
}

func exactText(class string, mode resource.DeviceAllocationMode, count int64, admin *bool) string {
	if count == 0 {
		count = 1 // the API's default, for a claim stored without defaults
	}
	s := fmt.Sprintf("%d x %s", count, class)
	if mode == resource.DeviceAllocationModeAll {
		s = "all " + class
	}
	if admin != nil && *admin {
		s += " (admin access)"
	}
	return s
}

func printResult(w io.Writer, r resource.DeviceRequestAllocationResult, d *resource.Device, node string) {
	fmt.Fprintf(w, "  %s/%s/%s (request %s):\n", r.Driver, r.Pool, r.Device, r.Request)
	if d == nil {
		fmt.Fprintln(w, "    Device:       <no longer published by its driver>")
	} else {
		fmt.Fprintf(w, "    Node:         %s\n", node)
		fmt.Fprintf(w, "    Attributes:   %s\n", joinOr(attributeTexts(d), "<none>"))
		var caps []string
		for k, v := range d.Capacity {
			caps = append(caps, string(k)+"="+v.Value.String())
		}
		sort.Strings(caps)
		fmt.Fprintf(w, "    Capacity:     %s\n", joinOr(caps, "<none>"))
	}
	if r.ShareID != nil {
		var used []string
		for k, v := range r.ConsumedCapacity {
			used = append(used, string(k)+"="+v.String())
		}
		sort.Strings(used)
		fmt.Fprintf(w, "    Share:        %s, consumed %s\n", *r.ShareID, joinOr(used, "nothing"))
	}
	if r.AdminAccess != nil && *r.AdminAccess {
		fmt.Fprintln(w, "    Admin access: true")
	}
	if len(r.Tolerations) > 0 {
		var tols []string
		for _, t := range r.Tolerations {
			tols = append(tols, tolerationText(t))
		}
		fmt.Fprintf(w, "    Tolerations:  %s\n", strings.Join(tols, ", "))
	}
	if len(r.BindingConditions) > 0 {
		fmt.Fprintf(w, "    Binding:      waits for %s (fails on %s)\n", strings.Join(r.BindingConditions, ", "), joinOr(r.BindingFailureConditions, "<none>"))
	}
}

func printDeviceStatus(w io.Writer, c *resource.ResourceClaim, r resource.DeviceRequestAllocationResult) {
	for _, s := range c.Status.Devices {
		if s.Driver != r.Driver || s.Pool != r.Pool || s.Device != r.Device {
			continue
		}
		if r.ShareID != nil && (s.ShareID == nil || *s.ShareID != string(*r.ShareID)) {
			continue
		}
		var conds []string
		for _, cd := range s.Conditions {
			t := cd.Type + "=" + string(cd.Status)
			if cd.Reason != "" {
				t += " (" + cd.Reason + ")"
			}
			conds = append(conds, t)
		}
		fmt.Fprintf(w, "    Conditions:   %s\n", joinOr(conds, "<none>"))
		if n := s.NetworkData; n != nil {
			fmt.Fprintf(w, "    Network:      interface %s, IPs %s, hardware address %s\n", orNone(n.InterfaceName), joinOr(n.IPs, "<none>"), orNone(n.HardwareAddress))
		}
	}
}

func tolerationText(t resource.DeviceToleration) string {
	key := t.Key
	if key == "" {
		key = "*"
	}
	s := key
	if t.Operator != resource.DeviceTolerationOpExists {
		s += "=" + t.Value
	}
	if t.Effect != "" {
		s += ":" + string(t.Effect)
	}
	return s
}

func attributeTexts(d *resource.Device) []string {
	var out []string
	for k, a := range d.Attributes {
		var v string
		switch {
		case a.StringValue != nil:
			v = *a.StringValue
		case a.IntValue != nil:
			v = fmt.Sprint(*a.IntValue)
		case a.BoolValue != nil:
			v = fmt.Sprint(*a.BoolValue)
		case a.VersionValue != nil:
			v = *a.VersionValue
		case a.StringValues != nil:
			v = "[" + strings.Join(a.StringValues, " ") + "]"
		case a.IntValues != nil:
			v = fmt.Sprint(a.IntValues)
		case a.BoolValues != nil:
			v = fmt.Sprint(a.BoolValues)
		case a.VersionValues != nil:
			v = "[" + strings.Join(a.VersionValues, " ") + "]"
		}
		out = append(out, string(k)+"="+v)
	}
	sort.Strings(out)
	return out
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}
