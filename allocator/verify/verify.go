// Package verify checks allocation results against the rules of structured
// allocation without allocating anything itself. Tests of the allocator
// and the differential test against upstream's allocator use it as an
// independent judge: it evaluates every selector directly, recounts every
// request, recomputes pool visibility and generations, and checks
// constraints, sharing and configuration from the claim and class objects.
// The rules that came after Kubernetes 1.31 are checked as far as
// Inventory.Features switches them on: counters of partitionable devices
// (counters.go), taints and tolerations (taints.go), consumable capacity
// with shares (capacity.go), firstAvailable alternatives (requests.go),
// binding conditions and bindsToNode, adminAccess results.
package verify

import (
	"reflect"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/apis/resource"
)

// DeviceID names a device.
type DeviceID struct{ Driver, Pool, Device string }

func (d DeviceID) String() string { return d.Driver + "/" + d.Pool + "/" + d.Device }

// Inventory is what the allocation was made from.
type Inventory struct {
	Classes []*resource.DeviceClass
	Slices  []*resource.ResourceSlice
	// InUse are the devices allocated before (to other claims), held whole.
	InUse map[DeviceID]bool
	// Allocations are earlier allocations (of other claims): their
	// non-admin devices are in use, their shares of multi-allocation
	// devices consume capacity and shareIDs.
	Allocations []*resource.AllocationResult
	// TaintRules are DeviceTaintRules in force: their taints count as the
	// taints of the devices they select (as the scheduler's slice tracker
	// applies them with the DRADeviceTaintRules gate).
	TaintRules []*resource.DeviceTaintRule
	// Features are the rules beyond 1.31's that the allocation followed;
	// the zero value checks Kubernetes 1.31's.
	Features Features
	// Node is the node the allocation is for; nil for none.
	Node *corev1.Node
}

// Features switch the rules that came after Kubernetes 1.31, named after
// the allocator features (structured.Features upstream, allocator.Features
// in drakit) that bring them. A package of its own judge, verify does not
// import the allocator's type.
type Features struct {
	// AdminAccess: results of adminAccess requests say adminAccess: true
	// (1.32+).
	AdminAccess bool
	// DeviceTaints: NoSchedule and NoExecute taints (the devices' own and
	// those of Inventory.TaintRules) block unless tolerated, and results
	// carry the request's tolerations.
	DeviceTaints bool
	// PartitionableDevices: counters are not over-consumed, and slices
	// with perDeviceNodeSelection offer the devices selected for the node.
	PartitionableDevices bool
	// ConsumableCapacity: devices with allowMultipleAllocations are
	// shared, each share with a shareID and consumedCapacity; capacity
	// requests hold.
	ConsumableCapacity bool
	// DeviceBindingAndStatus: results carry the devices' binding
	// conditions, and bindsToNode narrows the node selector to the node.
	// Off (with any other feature on), devices with binding conditions
	// are not selectable, also not for All requests: upstream's
	// isSelectable leaves them out.
	DeviceBindingAndStatus bool
	// PrioritizedList changes no check (firstAvailable alternatives are
	// always checked); it is here so that an allocation made with only
	// this feature is judged by the current rules (not legacy).
	PrioritizedList bool
	// ListTypeAttributes: selectors see list-valued attributes; off, the
	// 1.37 environment leaves them out of device.attributes, as upstream's
	// CEL features without EnableListTypeAttributes do.
	ListTypeAttributes bool
	// DerivedAttributes: a request's derived attribute gives the value
	// that constraints compare for its devices; off, a request with
	// derived attributes is wrong.
	DerivedAttributes bool
	// CompatibilityGroups: the devices on a counter set share a
	// compatibility group, or all name none.
	CompatibilityGroups bool
}

// legacy reports whether the allocation followed Kubernetes 1.31's rules,
// which drakit's allocator (and so this judge) applies to the zero
// Features. With any feature on it follows the scheduler of the release
// drakit follows: selectors are compiled in that release's environment of
// stored expressions (device.allowMultipleAllocations; list attributes
// with ListTypeAttributes), and devices with binding conditions need
// DeviceBindingAndStatus.
func (f Features) legacy() bool { return f == Features{} }

type device struct {
	slice *resource.ResourceSlice
	dev   *resource.Device
}

type poolID struct{ driver, pool string }

// newestSlices are the slices of each pool's newest generation, whichever
// node they are for: counter sets and the devices that consume them live
// there.
func (inv *Inventory) newestSlices() map[poolID][]*resource.ResourceSlice {
	newest := map[poolID]int64{}
	for _, s := range inv.Slices {
		k := poolID{s.Spec.Driver, s.Spec.Pool.Name}
		if g, ok := newest[k]; !ok || s.Spec.Pool.Generation > g {
			newest[k] = s.Spec.Pool.Generation
		}
	}
	out := map[poolID][]*resource.ResourceSlice{}
	for _, s := range inv.Slices {
		k := poolID{s.Spec.Driver, s.Spec.Pool.Name}
		if s.Spec.Pool.Generation == newest[k] {
			out[k] = append(out[k], s)
		}
	}
	return out
}

// visible lists the devices the node reaches: slices selected for the node
// (or, with perDeviceNodeSelection, devices selected for it), newest
// generation per pool only.
func (inv *Inventory) visible() map[DeviceID]device {
	type pk = poolID
	newest := map[pk]int64{}
	var seen []*resource.ResourceSlice
	for _, s := range inv.Slices {
		if !reaches(s, inv.Node) {
			continue
		}
		seen = append(seen, s)
		k := pk{s.Spec.Driver, s.Spec.Pool.Name}
		if g, ok := newest[k]; !ok || s.Spec.Pool.Generation > g {
			newest[k] = s.Spec.Pool.Generation
		}
	}
	out := map[DeviceID]device{}
	invalid := map[pk]bool{}
	for _, s := range seen {
		if s.Spec.Pool.Generation != newest[pk{s.Spec.Driver, s.Spec.Pool.Name}] {
			continue
		}
		for i := range s.Spec.Devices {
			d := &s.Spec.Devices[i]
			id := DeviceID{s.Spec.Driver, s.Spec.Pool.Name, d.Name}
			if _, dup := out[id]; dup {
				// A pool that names a device twice is unusable.
				invalid[pk{id.Driver, id.Pool}] = true
			}
			if perDevice(s) && (!inv.Features.PartitionableDevices || !deviceReaches(d, inv.Node)) {
				continue
			}
			out[id] = device{s, d}
		}
	}
	for id := range out {
		if invalid[pk{id.Driver, id.Pool}] {
			delete(out, id)
		}
	}
	return out
}

func perDevice(s *resource.ResourceSlice) bool {
	return s.Spec.PerDeviceNodeSelection != nil && *s.Spec.PerDeviceNodeSelection
}

// deviceReaches is node selection on a device of a slice with
// perDeviceNodeSelection.
func deviceReaches(d *resource.Device, node *corev1.Node) bool {
	switch {
	case d.NodeName != nil && *d.NodeName != "":
		return node != nil && node.Name == *d.NodeName
	case d.AllNodes != nil && *d.AllNodes:
		return true
	case d.NodeSelector != nil:
		return node != nil && selectorMatches(d.NodeSelector, node)
	}
	return false
}

func reaches(s *resource.ResourceSlice, node *corev1.Node) bool {
	switch {
	case s.Spec.NodeName != nil && *s.Spec.NodeName != "":
		return node != nil && node.Name == *s.Spec.NodeName
	case s.Spec.AllNodes != nil && *s.Spec.AllNodes:
		return true
	case s.Spec.NodeSelector != nil:
		return node != nil && selectorMatches(s.Spec.NodeSelector, node)
	case perDevice(s):
		// Devices are selected one by one (visible); before 1.33 such a
		// slice reaches no node.
		return true
	}
	return false
}

// selectorMatches is a plain reading of node selector semantics.
func selectorMatches(sel *corev1.NodeSelector, node *corev1.Node) bool {
	for _, t := range sel.NodeSelectorTerms {
		if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
			continue
		}
		ok := true
		for _, r := range t.MatchExpressions {
			ok = ok && requirementMatches(r, node.Labels)
		}
		for _, r := range t.MatchFields {
			ok = ok && requirementMatches(r, map[string]string{"metadata.name": node.Name})
		}
		if ok {
			return true
		}
	}
	return false
}

func requirementMatches(r corev1.NodeSelectorRequirement, values map[string]string) bool {
	v, has := values[r.Key]
	in := false
	for _, x := range r.Values {
		in = in || x == v
	}
	switch r.Operator {
	case corev1.NodeSelectorOpIn:
		return has && in
	case corev1.NodeSelectorOpNotIn:
		return !has || !in
	case corev1.NodeSelectorOpExists:
		return has
	case corev1.NodeSelectorOpDoesNotExist:
		return !has
	case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
		if !has || len(r.Values) != 1 {
			return false
		}
		a, err1 := strconv.ParseInt(v, 10, 64)
		b, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if r.Operator == corev1.NodeSelectorOpGt {
			return a > b
		}
		return a < b
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func admin(req *resource.ExactDeviceRequest) bool {
	return req.AdminAccess != nil && *req.AdminAccess
}

func lookup(d device, name resource.FullyQualifiedName) *resource.DeviceAttribute {
	find := func(n string) *resource.DeviceAttribute {
		if a, ok := d.dev.Attributes[resource.QualifiedName(n)]; ok {
			return &a
		}
		return nil
	}
	if a := find(string(name)); a != nil {
		return a
	}
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			if string(name[:i]) == d.slice.Spec.Driver {
				return find(string(name[i+1:]))
			}
			break
		}
	}
	return nil
}

func sameValue(a, b *resource.DeviceAttribute) bool {
	return reflect.DeepEqual(*a, *b)
}
