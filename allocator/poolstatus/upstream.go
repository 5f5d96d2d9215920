package poolstatus

import (
	"fmt"
	"sort"
	"strings"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
)

// The prefixes upstream's controller starts a pool's validationError with.
const (
	PrefixPoolIncomplete          = "PoolIncomplete:"
	PrefixPartitionTypeMissing    = "PartitionTypeMissing:"
	PrefixPartitionCostMismatch   = "PartitionCostMismatch:"
	PrefixPartitionSummaryOverCap = "PartitionSummaryOverCap:"
	PrefixShareableOverCap        = "ShareableSummaryOverCap:"
)

// maxListItems is the most entries partitionSummary and
// shareableSummary.capacity may have (+k8s:maxItems=32); beyond it the
// pool gets a validationError instead of the list.
const maxListItems = 32

// maxErrorBytes bounds validationError (+k8s:maxBytes=256).
const maxErrorBytes = 256

// upstreamStatus fills p.Status as upstream's controller computes it
// (package doc).
func upstreamStatus(p *Pool, k poolKey, ro *Rollout, recs []record, sets []resource.CounterSet, unavailable int32, held map[string]*holding, consumed map[resource.QualifiedName]apiresource.Quantity) {
	st := &p.Status
	st.Driver, st.PoolName, st.Generation = k.driver, k.pool, ro.Generation
	if p.Node != "" {
		node := p.Node
		st.NodeName = &node
	}
	if int64(ro.Slices) < ro.ResourceSliceCount {
		st.ValidationError = truncated(fmt.Sprintf("%s pool %s/%s is incomplete: observed %d/%d slices at generation %d",
			PrefixPoolIncomplete, k.driver, k.pool, ro.Slices, ro.ResourceSliceCount, ro.Generation))
		return
	}
	total := int32(len(recs))
	allocated := int32(len(held))
	slices := ro.Slices
	available := max(0, total-allocated-unavailable)
	st.ResourceSliceCount, st.TotalDevices, st.AllocatedDevices = &slices, &total, &allocated
	st.AvailableDevices, st.UnavailableDevices = &available, &unavailable

	hasCounters := len(sets) > 0
	grouped := false
	for _, r := range recs {
		if r.partitionAttr != "" {
			grouped = true
			break
		}
	}
	var verr string
	switch {
	case grouped && !hasCounters:
		verr = fmt.Sprintf("%s pool %s/%s declares partitionTypeAttribute but publishes no sharedCounters", PrefixPartitionTypeMissing, k.driver, k.pool)
	case grouped:
		st.PartitionSummary, verr = partitionSummary(k, recs, sets, held)
	}
	shareable, shErr := shareableSummary(k, recs, held, consumed)
	if verr == "" {
		verr = shErr
	}
	if shErr == "" {
		st.ShareableSummary = shareable
	}
	if verr != "" {
		st.PartitionSummary = nil
		st.ValidationError = truncated(verr)
	}
}

func truncated(s string) *string {
	if len(s) > maxErrorBytes {
		s = s[:maxErrorBytes]
	}
	return &s
}

// partitionType is the string value of the grouping attribute on a device:
// named with the driver's domain, or without it (as selectors read it),
// the former first.
func partitionType(driver string, d *resource.Device, attr string) (string, bool) {
	a, ok := d.Attributes[resource.QualifiedName(attr)]
	if !ok {
		if bare, cut := strings.CutPrefix(attr, driver+"/"); cut {
			a, ok = d.Attributes[resource.QualifiedName(bare)]
		}
	}
	if !ok || a.StringValue == nil {
		return "", false
	}
	return *a.StringValue, true
}

// costKey names what a device consumes, to tell devices of one partition
// type that consume differently.
func costKey(uses []resource.DeviceCounterConsumption) string {
	var parts []string
	for _, cc := range uses {
		for _, n := range sortedCounterNames(cc.Counters) {
			q := cc.Counters[n].Value
			parts = append(parts, cc.CounterSet+"/"+n+"="+q.String())
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// partitionSummary: per partition type, the devices and how many of those
// not in use still fit, one after the other, into what the devices in use
// leave of the counters (each type on its own).
func partitionSummary(k poolKey, recs []record, sets []resource.CounterSet, held map[string]*holding) ([]resource.PartitionTypeStatus, string) {
	type group struct {
		attr, typ string
		total     int32
		fresh     []*resource.Device
		cost      string
	}
	groups := map[[2]string]*group{}
	var order []*group
	for _, r := range recs {
		d := r.device
		if len(d.ConsumesCounters) == 0 || r.partitionAttr == "" {
			continue
		}
		typ, ok := partitionType(k.driver, d, r.partitionAttr)
		if !ok {
			return nil, fmt.Sprintf("%s device %q in pool %s/%s does not carry partition type attribute %q", PrefixPartitionTypeMissing, d.Name, k.driver, k.pool, r.partitionAttr)
		}
		g := groups[[2]string{r.partitionAttr, typ}]
		if g == nil {
			g = &group{attr: r.partitionAttr, typ: typ, cost: costKey(d.ConsumesCounters)}
			groups[[2]string{r.partitionAttr, typ}] = g
			order = append(order, g)
		} else if costKey(d.ConsumesCounters) != g.cost {
			return nil, fmt.Sprintf("%s devices of partition type %q in pool %s/%s consume different counters", PrefixPartitionCostMismatch, typ, k.driver, k.pool)
		}
		g.total++
		if held[d.Name] == nil {
			g.fresh = append(g.fresh, d)
		}
	}
	base := newCounterState(sets)
	for _, r := range recs {
		if held[r.device.Name] != nil {
			base.consume(r.device.ConsumesCounters)
		}
	}
	out := make([]resource.PartitionTypeStatus, 0, len(order))
	for _, g := range order {
		left := base.clone()
		var allocatable int32
		for _, d := range g.fresh {
			if left.fits(d.ConsumesCounters) {
				allocatable++
				left.consume(d.ConsumesCounters)
			}
		}
		total := g.total
		out = append(out, resource.PartitionTypeStatus{Attribute: g.attr, Type: g.typ, Total: &total, Allocatable: &allocatable})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Attribute != out[j].Attribute {
			return out[i].Attribute < out[j].Attribute
		}
		return out[i].Type < out[j].Type
	})
	if len(out) > maxListItems {
		return nil, fmt.Sprintf("%s pool %s/%s has %d partition types, exceeding the maximum of %d", PrefixPartitionSummaryOverCap, k.driver, k.pool, len(out), maxListItems)
	}
	return out, ""
}

// shareableSummary sums up the devices that allow multiple allocations;
// nil when the pool has none.
func shareableSummary(k poolKey, recs []record, held map[string]*holding, consumed map[resource.QualifiedName]apiresource.Quantity) (*resource.ShareableSummaryStatus, string) {
	var full, partial int32
	total := map[resource.QualifiedName]apiresource.Quantity{}
	any := false
	for _, r := range recs {
		d := r.device
		if d.AllowMultipleAllocations == nil || !*d.AllowMultipleAllocations {
			continue
		}
		any = true
		if held[d.Name] != nil {
			partial++
		} else {
			full++
		}
		for name, c := range d.Capacity {
			addTo(total, name, c.Value)
		}
	}
	if !any {
		return nil, ""
	}
	var caps []resource.ShareableCapacityStatus
	for _, name := range sortedNames(total) {
		t := total[name]
		c := apiresource.Quantity{}
		if q, ok := consumed[name]; ok {
			c = q.DeepCopy()
		}
		avail := t.DeepCopy()
		avail.Sub(c)
		if avail.Sign() < 0 {
			avail = *apiresource.NewQuantity(0, t.Format)
		}
		caps = append(caps, resource.ShareableCapacityStatus{Name: string(name), Total: &t, Consumed: &c, Available: &avail})
	}
	if len(caps) > maxListItems {
		return nil, fmt.Sprintf("%s pool %s/%s has %d shareable capacity keys, exceeding the maximum of %d", PrefixShareableOverCap, k.driver, k.pool, len(caps), maxListItems)
	}
	return &resource.ShareableSummaryStatus{FullyAvailableDevices: &full, PartiallyAvailableDevices: &partial, Capacity: caps}, ""
}

// Statuses are the pools' upstream statuses, in the report's order.
func (r *Report) Statuses() []resource.PoolStatus {
	out := make([]resource.PoolStatus, len(r.Pools))
	for i, p := range r.Pools {
		out[i] = p.Status
	}
	return out
}
