package validation

import (
	"fmt"
	"strings"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/api/resource/v1alpha3"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/features"
)

// The fields a 1.37 API server clears before validating a write because the
// feature gate that covers them is off (the PrepareForCreate and
// PrepareForUpdate of its registry strategies). A field is cleared on
// create, and on update unless the old object already used the feature:
// each rule checks the old object as a whole (any request, any device), not
// the same item. The rules run in the server's order, so a field inside a
// field that an earlier rule cleared is not reported again.
//
// The objects are changed in place; old is only read. Nothing else a
// strategy does is done here: resetting a claim's status on create,
// keeping the old status on update, keeping the old spec and metadata on a
// status update, generations, timeAdded of DeviceTaintRules.

// DropWarning is one field that was cleared, with why. String gives one
// line for a user.
type DropWarning struct {
	// Path is the field, as the server names it in errors:
	// "spec.devices.requests[0].firstAvailable".
	Path string
	// Gates are the feature gates that are off and whose being on would
	// have kept the field (two for a slice device's binding conditions,
	// which need both DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus). Empty when the field was cleared for
	// another reason (see Reason).
	Gates []features.Name
	// Reason says why the field was cleared when no gate is to blame.
	Reason string
}

func (w DropWarning) String() string {
	switch len(w.Gates) {
	case 0:
		return fmt.Sprintf("%s: dropped: %s", w.Path, w.Reason)
	case 1:
		return fmt.Sprintf("%s: dropped: the %s feature gate is off on this cluster", w.Path, w.Gates[0])
	}
	names := make([]string, len(w.Gates))
	for i, g := range w.Gates {
		names[i] = string(g)
	}
	return fmt.Sprintf("%s: dropped: the %s feature gates are off on this cluster", w.Path, strings.Join(names, " and "))
}

// reasonNoLongerAllocated137 is the reason for pruning a status.devices
// entry of a device the update deallocates.
const reasonNoLongerAllocated137 = "the device is no longer allocated to the claim"

// dropper137 collects the warnings of one object.
type dropper137 struct {
	gates    features.Gates
	warnings []DropWarning
}

// off says whether a rule applies: one of the gates is off and the old
// object does not use the feature. It returns the gates that are off.
func (d *dropper137) off(inUse bool, gates ...features.Name) []features.Name {
	if inUse {
		return nil
	}
	var off []features.Name
	for _, g := range gates {
		if !d.gates.Enabled(g) {
			off = append(off, g)
		}
	}
	return off
}

func (d *dropper137) warn(p *field.Path, off []features.Name) {
	d.warnings = append(d.warnings, DropWarning{Path: p.String(), Gates: off})
}

// dropPtr137 clears *f and reports it if it was set.
func dropPtr137[T any](d *dropper137, f **T, p *field.Path, off []features.Name) {
	if *f != nil {
		d.warn(p, off)
	}
	*f = nil
}

// dropSlice137 clears *f and reports it if it was set (an empty list
// included: it is cleared too).
func dropSlice137[T any](d *dropper137, f *[]T, p *field.Path, off []features.Name) {
	if *f != nil {
		d.warn(p, off)
	}
	*f = nil
}

// dropMap137 clears *f and reports it if it was set.
func dropMap137[K comparable, V any](d *dropper137, f *map[K]V, p *field.Path, off []features.Name) {
	if *f != nil {
		d.warn(p, off)
	}
	*f = nil
}

// DropDisabledFieldsV1 clears the fields of a v1 object that a 1.37 server
// with these gates clears on a create (old nil) or an update of the main
// resource, and returns one warning per cleared field. obj is a
// *ResourceClaim, *ResourceClaimTemplate, *ResourceSlice, *DeviceClass or
// *DeviceTaintRule of apis/resource/v1 (DeviceTaintRules have no gated
// fields); old is nil or of the same type. For a claim's status
// subresource use DropDisabledResourceClaimStatusFieldsV1.
func DropDisabledFieldsV1(obj, old runtime.Object, gates features.Gates) ([]DropWarning, error) {
	mismatch := func() error {
		return fmt.Errorf("dropping disabled fields: old object is %T, new object %T", old, obj)
	}
	switch o := obj.(type) {
	case *resourcev1.ResourceClaim:
		oldT, ok := oldAs137[*resourcev1.ResourceClaim](old)
		if !ok {
			return nil, mismatch()
		}
		return DropDisabledResourceClaimFieldsV1(o, oldT, gates), nil
	case *resourcev1.ResourceClaimTemplate:
		oldT, ok := oldAs137[*resourcev1.ResourceClaimTemplate](old)
		if !ok {
			return nil, mismatch()
		}
		return DropDisabledResourceClaimTemplateFieldsV1(o, oldT, gates), nil
	case *resourcev1.ResourceSlice:
		oldT, ok := oldAs137[*resourcev1.ResourceSlice](old)
		if !ok {
			return nil, mismatch()
		}
		return DropDisabledResourceSliceFieldsV1(o, oldT, gates), nil
	case *resourcev1.DeviceClass:
		oldT, ok := oldAs137[*resourcev1.DeviceClass](old)
		if !ok {
			return nil, mismatch()
		}
		return DropDisabledDeviceClassFieldsV1(o, oldT, gates), nil
	case *resourcev1.DeviceTaintRule:
		if _, ok := oldAs137[*resourcev1.DeviceTaintRule](old); !ok {
			return nil, mismatch()
		}
		return nil, nil
	}
	return nil, fmt.Errorf("dropping disabled fields: %T is not a resource.k8s.io/v1 kind", obj)
}

// oldAs137 converts old to T; a nil interface or a typed nil gives T's
// zero value (a create).
func oldAs137[T interface {
	*E
	runtime.Object
}, E any](old runtime.Object) (T, bool) {
	if old == nil {
		return nil, true
	}
	t, ok := old.(T)
	return t, ok
}

// DropDisabledResourceClaimFieldsV1 applies the spec rules to a claim
// (create when old is nil, else update of the main resource).
func DropDisabledResourceClaimFieldsV1(claim, old *resourcev1.ResourceClaim, gates features.Gates) []DropWarning {
	var oldSpec *resourcev1.ResourceClaimSpec
	if old != nil {
		oldSpec = &old.Spec
	}
	d := &dropper137{gates: gates}
	d.claimSpec(&claim.Spec, oldSpec, field.NewPath("spec"))
	return d.warnings
}

// DropDisabledResourceClaimTemplateFieldsV1 applies the claim spec rules to
// a template's spec.spec.
func DropDisabledResourceClaimTemplateFieldsV1(tmpl, old *resourcev1.ResourceClaimTemplate, gates features.Gates) []DropWarning {
	var oldSpec *resourcev1.ResourceClaimSpec
	if old != nil {
		oldSpec = &old.Spec.Spec
	}
	d := &dropper137{gates: gates}
	d.claimSpec(&tmpl.Spec.Spec, oldSpec, field.NewPath("spec", "spec"))
	return d.warnings
}

// claimSpec is pkg/api/resourceclaimspec.DropDisabledFields: prioritized
// list first, so that tolerations inside a dropped firstAvailable are not
// looked at.
func (d *dropper137) claimSpec(spec, old *resourcev1.ResourceClaimSpec, p *field.Path) {
	requests := p.Child("devices", "requests")
	reqs := spec.Devices.Requests

	if off := d.off(prioritizedListInUse137(old), features.DRAPrioritizedList); len(off) > 0 {
		for i := range reqs {
			dropSlice137(d, &reqs[i].FirstAvailable, requests.Index(i).Child("firstAvailable"), off)
		}
	}

	if off := d.off(deviceTaintsInClaimUse137(old), features.DRADeviceTaints); len(off) > 0 {
		for i := range reqs {
			if reqs[i].Exactly != nil {
				dropSlice137(d, &reqs[i].Exactly.Tolerations, requests.Index(i).Child("exactly", "tolerations"), off)
			}
			for j := range reqs[i].FirstAvailable {
				dropSlice137(d, &reqs[i].FirstAvailable[j].Tolerations, requests.Index(i).Child("firstAvailable").Index(j).Child("tolerations"), off)
			}
		}
	}

	if off := d.off(adminAccessInSpecUse137(old), features.DRAAdminAccess); len(off) > 0 {
		for i := range reqs {
			if reqs[i].Exactly != nil {
				dropPtr137(d, &reqs[i].Exactly.AdminAccess, requests.Index(i).Child("exactly", "adminAccess"), off)
			}
		}
	}

	if off := d.off(consumableCapacityInSpecUse137(old), features.DRAConsumableCapacity); len(off) > 0 {
		constraints := p.Child("devices", "constraints")
		for i := range spec.Devices.Constraints {
			dropPtr137(d, &spec.Devices.Constraints[i].DistinctAttribute, constraints.Index(i).Child("distinctAttribute"), off)
		}
		for i := range reqs {
			if reqs[i].Exactly != nil {
				dropPtr137(d, &reqs[i].Exactly.Capacity, requests.Index(i).Child("exactly", "capacity"), off)
			}
			for j := range reqs[i].FirstAvailable {
				dropPtr137(d, &reqs[i].FirstAvailable[j].Capacity, requests.Index(i).Child("firstAvailable").Index(j).Child("capacity"), off)
			}
		}
	}

	if off := d.off(derivedAttributesInUse137(old), features.DRADerivedAttributes); len(off) > 0 {
		for i := range reqs {
			if reqs[i].Exactly != nil {
				dropSlice137(d, &reqs[i].Exactly.DerivedAttributes, requests.Index(i).Child("exactly", "derivedAttributes"), off)
			}
			for j := range reqs[i].FirstAvailable {
				dropSlice137(d, &reqs[i].FirstAvailable[j].DerivedAttributes, requests.Index(i).Child("firstAvailable").Index(j).Child("derivedAttributes"), off)
			}
		}
	}
}

func prioritizedListInUse137(spec *resourcev1.ResourceClaimSpec) bool {
	if spec == nil {
		return false
	}
	for _, r := range spec.Devices.Requests {
		if len(r.FirstAvailable) > 0 {
			return true
		}
	}
	return false
}

func deviceTaintsInClaimUse137(spec *resourcev1.ResourceClaimSpec) bool {
	if spec == nil {
		return false
	}
	for _, r := range spec.Devices.Requests {
		if r.Exactly != nil && len(r.Exactly.Tolerations) > 0 {
			return true
		}
		for _, s := range r.FirstAvailable {
			if len(s.Tolerations) > 0 {
				return true
			}
		}
	}
	return false
}

func adminAccessInSpecUse137(spec *resourcev1.ResourceClaimSpec) bool {
	if spec == nil {
		return false
	}
	for _, r := range spec.Devices.Requests {
		if r.Exactly != nil && r.Exactly.AdminAccess != nil {
			return true
		}
	}
	return false
}

func consumableCapacityInSpecUse137(spec *resourcev1.ResourceClaimSpec) bool {
	if spec == nil {
		return false
	}
	for _, c := range spec.Devices.Constraints {
		if c.DistinctAttribute != nil {
			return true
		}
	}
	for _, r := range spec.Devices.Requests {
		if r.Exactly != nil && r.Exactly.Capacity != nil {
			return true
		}
		for _, s := range r.FirstAvailable {
			if s.Capacity != nil {
				return true
			}
		}
	}
	return false
}

func derivedAttributesInUse137(spec *resourcev1.ResourceClaimSpec) bool {
	if spec == nil {
		return false
	}
	for _, r := range spec.Devices.Requests {
		if r.Exactly != nil && len(r.Exactly.DerivedAttributes) > 0 {
			return true
		}
		for _, s := range r.FirstAvailable {
			if len(s.DerivedAttributes) > 0 {
				return true
			}
		}
	}
	return false
}

// DropDisabledResourceClaimStatusFieldsV1 applies the status rules of an
// update through the status subresource (old is the stored claim; nil is
// treated as a claim that uses nothing): status.devices
// (DRAResourceClaimDeviceStatus), results[].adminAccess (DRAAdminAccess,
// kept if the old spec or status uses admin access), results[].shareID,
// results[].consumedCapacity and devices[].shareID (DRAConsumableCapacity,
// kept if the old spec or status uses it), results[].bindingConditions and
// bindingFailureConditions (DRADeviceBindingConditions),
// results[].skipNodeOperations (DRAOptionalNodeOperations). Last, while
// DRAResourceClaimDeviceStatus is on or the old claim has status.devices,
// the status.devices entries of devices that the update deallocates (in
// the old allocation, not in the new one; a share counts as its own
// device) are removed, with a warning that gives the reason instead of a
// gate.
func DropDisabledResourceClaimStatusFieldsV1(claim, old *resourcev1.ResourceClaim, gates features.Gates) []DropWarning {
	d := &dropper137{gates: gates}
	status := field.NewPath("status")
	results := status.Child("allocation", "devices", "results")
	devices := status.Child("devices")
	var res []resourcev1.DeviceRequestAllocationResult
	if claim.Status.Allocation != nil {
		res = claim.Status.Allocation.Devices.Results
	}

	deviceStatusInUse := old != nil && len(old.Status.Devices) > 0
	if off := d.off(deviceStatusInUse, features.DRAResourceClaimDeviceStatus); len(off) > 0 {
		dropSlice137(d, &claim.Status.Devices, devices, off)
	}

	if off := d.off(adminAccessInClaimUse137(old), features.DRAAdminAccess); len(off) > 0 {
		for i := range res {
			dropPtr137(d, &res[i].AdminAccess, results.Index(i).Child("adminAccess"), off)
		}
	}

	if off := d.off(consumableCapacityInClaimUse137(old), features.DRAConsumableCapacity); len(off) > 0 {
		for i := range res {
			dropPtr137(d, &res[i].ShareID, results.Index(i).Child("shareID"), off)
			dropMap137(d, &res[i].ConsumedCapacity, results.Index(i).Child("consumedCapacity"), off)
		}
		for i := range claim.Status.Devices {
			dropPtr137(d, &claim.Status.Devices[i].ShareID, devices.Index(i).Child("shareID"), off)
		}
	}

	if off := d.off(bindingConditionsInClaimUse137(old), features.DRADeviceBindingConditions); len(off) > 0 {
		for i := range res {
			dropSlice137(d, &res[i].BindingConditions, results.Index(i).Child("bindingConditions"), off)
			dropSlice137(d, &res[i].BindingFailureConditions, results.Index(i).Child("bindingFailureConditions"), off)
		}
	}

	if off := d.off(skipNodeOperationsInClaimUse137(old), features.DRAOptionalNodeOperations); len(off) > 0 {
		for i := range res {
			dropSlice137(d, &res[i].SkipNodeOperations, results.Index(i).Child("skipNodeOperations"), off)
		}
	}

	if gates.Enabled(features.DRAResourceClaimDeviceStatus) || deviceStatusInUse {
		d.pruneDeallocated(claim, old, devices)
	}
	return d.warnings
}

// sharedDevice137 identifies an allocated device, or one share of it.
type sharedDevice137 struct {
	driver, pool, device string
	shared               bool
	share                string
}

func (d *dropper137) pruneDeallocated(claim, old *resourcev1.ResourceClaim, p *field.Path) {
	deallocated := map[sharedDevice137]bool{}
	if old != nil && old.Status.Allocation != nil {
		for _, r := range old.Status.Allocation.Devices.Results {
			deallocated[resultDevice137(r)] = true
		}
	}
	if claim.Status.Allocation != nil {
		for _, r := range claim.Status.Allocation.Devices.Results {
			delete(deallocated, resultDevice137(r))
		}
	}
	kept := claim.Status.Devices[:0]
	for i, s := range claim.Status.Devices {
		id := sharedDevice137{driver: s.Driver, pool: s.Pool, device: s.Device}
		if s.ShareID != nil {
			id.shared, id.share = true, *s.ShareID
		}
		if deallocated[id] {
			d.warnings = append(d.warnings, DropWarning{Path: p.Index(i).String(), Reason: reasonNoLongerAllocated137})
			continue
		}
		kept = append(kept, s)
	}
	claim.Status.Devices = kept
	if len(claim.Status.Devices) == 0 {
		claim.Status.Devices = nil
	}
}

func resultDevice137(r resourcev1.DeviceRequestAllocationResult) sharedDevice137 {
	id := sharedDevice137{driver: r.Driver, pool: r.Pool, device: r.Device}
	if r.ShareID != nil {
		id.shared, id.share = true, string(*r.ShareID)
	}
	return id
}

func oldResults137(claim *resourcev1.ResourceClaim) []resourcev1.DeviceRequestAllocationResult {
	if claim == nil || claim.Status.Allocation == nil {
		return nil
	}
	return claim.Status.Allocation.Devices.Results
}

func adminAccessInClaimUse137(claim *resourcev1.ResourceClaim) bool {
	if claim == nil {
		return false
	}
	if adminAccessInSpecUse137(&claim.Spec) {
		return true
	}
	for _, r := range oldResults137(claim) {
		if r.AdminAccess != nil {
			return true
		}
	}
	return false
}

func consumableCapacityInClaimUse137(claim *resourcev1.ResourceClaim) bool {
	if claim == nil {
		return false
	}
	if consumableCapacityInSpecUse137(&claim.Spec) {
		return true
	}
	for _, r := range oldResults137(claim) {
		if r.ShareID != nil || r.ConsumedCapacity != nil {
			return true
		}
	}
	for _, s := range claim.Status.Devices {
		if s.ShareID != nil {
			return true
		}
	}
	return false
}

func bindingConditionsInClaimUse137(claim *resourcev1.ResourceClaim) bool {
	for _, r := range oldResults137(claim) {
		if r.BindingConditions != nil || r.BindingFailureConditions != nil {
			return true
		}
	}
	return false
}

func skipNodeOperationsInClaimUse137(claim *resourcev1.ResourceClaim) bool {
	for _, r := range oldResults137(claim) {
		if len(r.SkipNodeOperations) > 0 {
			return true
		}
	}
	return false
}

// DropDisabledResourceSliceFieldsV1 applies the slice rules, in the
// server's order: device taints (DRADeviceTaints); shared counters,
// perDeviceNodeSelection and a device's consumesCounters, nodeName,
// nodeSelector and allNodes (DRAPartitionableDevices); a device's
// bindsToNode, bindingConditions and bindingFailureConditions (unless both
// DRADeviceBindingConditions and DRAResourceClaimDeviceStatus are on);
// allowMultipleAllocations and capacity request policies
// (DRAConsumableCapacity); consumesCounters[].compatibilityGroups
// (DRADeviceCompatibilityGroups); nodeAllocatableResources
// (DRANodeAllocatableResources); list-valued attributes
// (DRAListTypeAttributes; an attribute left without a value is then
// invalid); partitionTypeAttribute (DRAPartitionableDevicesType);
// skipNodeOperations (DRAOptionalNodeOperations).
func DropDisabledResourceSliceFieldsV1(slice, old *resourcev1.ResourceSlice, gates features.Gates) []DropWarning {
	d := &dropper137{gates: gates}
	spec := &slice.Spec
	sp := field.NewPath("spec")
	devPath := func(i int) *field.Path { return sp.Child("devices").Index(i) }
	devs := spec.Devices
	var oldSpec *resourcev1.ResourceSliceSpec
	if old != nil {
		oldSpec = &old.Spec
	}
	anyOldDevice := func(f func(*resourcev1.Device) bool) bool {
		if oldSpec == nil {
			return false
		}
		for i := range oldSpec.Devices {
			if f(&oldSpec.Devices[i]) {
				return true
			}
		}
		return false
	}

	if off := d.off(anyOldDevice(func(dev *resourcev1.Device) bool { return len(dev.Taints) > 0 }), features.DRADeviceTaints); len(off) > 0 {
		for i := range devs {
			dropSlice137(d, &devs[i].Taints, devPath(i).Child("taints"), off)
		}
	}

	partitionableInUse := oldSpec != nil && (len(oldSpec.SharedCounters) > 0 || oldSpec.PerDeviceNodeSelection != nil) ||
		anyOldDevice(func(dev *resourcev1.Device) bool {
			return len(dev.ConsumesCounters) > 0 || dev.NodeName != nil || dev.NodeSelector != nil || dev.AllNodes != nil
		})
	if off := d.off(partitionableInUse, features.DRAPartitionableDevices); len(off) > 0 {
		dropSlice137(d, &spec.SharedCounters, sp.Child("sharedCounters"), off)
		dropPtr137(d, &spec.PerDeviceNodeSelection, sp.Child("perDeviceNodeSelection"), off)
		for i := range devs {
			dropSlice137(d, &devs[i].ConsumesCounters, devPath(i).Child("consumesCounters"), off)
			dropPtr137(d, &devs[i].NodeName, devPath(i).Child("nodeName"), off)
			dropPtr137(d, &devs[i].NodeSelector, devPath(i).Child("nodeSelector"), off)
			dropPtr137(d, &devs[i].AllNodes, devPath(i).Child("allNodes"), off)
		}
	}

	bindingInUse := anyOldDevice(func(dev *resourcev1.Device) bool {
		return len(dev.BindingConditions) > 0 || len(dev.BindingFailureConditions) > 0 || dev.BindsToNode != nil
	})
	if off := d.off(bindingInUse, features.DRADeviceBindingConditions, features.DRAResourceClaimDeviceStatus); len(off) > 0 {
		for i := range devs {
			dropSlice137(d, &devs[i].BindingConditions, devPath(i).Child("bindingConditions"), off)
			dropSlice137(d, &devs[i].BindingFailureConditions, devPath(i).Child("bindingFailureConditions"), off)
			dropPtr137(d, &devs[i].BindsToNode, devPath(i).Child("bindsToNode"), off)
		}
	}

	consumableInUse := anyOldDevice(func(dev *resourcev1.Device) bool {
		if dev.AllowMultipleAllocations != nil {
			return true
		}
		for _, c := range dev.Capacity {
			if c.RequestPolicy != nil {
				return true
			}
		}
		return false
	})
	if off := d.off(consumableInUse, features.DRAConsumableCapacity); len(off) > 0 {
		for i := range devs {
			dropPtr137(d, &devs[i].AllowMultipleAllocations, devPath(i).Child("allowMultipleAllocations"), off)
			for _, name := range sortedKeys(devs[i].Capacity) {
				c := devs[i].Capacity[name]
				if c.RequestPolicy != nil {
					dropPtr137(d, &c.RequestPolicy, devPath(i).Child("capacity").Key(string(name)).Child("requestPolicy"), off)
					devs[i].Capacity[name] = c
				}
			}
		}
	}

	compatInUse := anyOldDevice(func(dev *resourcev1.Device) bool {
		for _, c := range dev.ConsumesCounters {
			if len(c.CompatibilityGroups) > 0 {
				return true
			}
		}
		return false
	})
	if off := d.off(compatInUse, features.DRADeviceCompatibilityGroups); len(off) > 0 {
		for i := range devs {
			for j := range devs[i].ConsumesCounters {
				dropSlice137(d, &devs[i].ConsumesCounters[j].CompatibilityGroups, devPath(i).Child("consumesCounters").Index(j).Child("compatibilityGroups"), off)
			}
		}
	}

	nodeAllocInUse := anyOldDevice(func(dev *resourcev1.Device) bool { return len(dev.NodeAllocatableResources) > 0 })
	if off := d.off(nodeAllocInUse, features.DRANodeAllocatableResources); len(off) > 0 {
		for i := range devs {
			dropMap137(d, &devs[i].NodeAllocatableResources, devPath(i).Child("nodeAllocatableResources"), off)
		}
	}

	listsInUse := anyOldDevice(func(dev *resourcev1.Device) bool {
		for _, a := range dev.Attributes {
			if a.IntValues != nil || a.BoolValues != nil || a.StringValues != nil || a.VersionValues != nil {
				return true
			}
		}
		return false
	})
	if off := d.off(listsInUse, features.DRAListTypeAttributes); len(off) > 0 {
		for i := range devs {
			for _, name := range sortedKeys(devs[i].Attributes) {
				a := devs[i].Attributes[name]
				if a.IntValues == nil && a.BoolValues == nil && a.StringValues == nil && a.VersionValues == nil {
					continue
				}
				ap := devPath(i).Child("attributes").Key(string(name))
				dropSlice137(d, &a.IntValues, ap.Child("ints"), off)
				dropSlice137(d, &a.BoolValues, ap.Child("bools"), off)
				dropSlice137(d, &a.StringValues, ap.Child("strings"), off)
				dropSlice137(d, &a.VersionValues, ap.Child("versions"), off)
				devs[i].Attributes[name] = a
			}
		}
	}

	if off := d.off(oldSpec != nil && oldSpec.PartitionTypeAttribute != nil, features.DRAPartitionableDevicesType); len(off) > 0 {
		dropPtr137(d, &spec.PartitionTypeAttribute, sp.Child("partitionTypeAttribute"), off)
	}

	if off := d.off(oldSpec != nil && len(oldSpec.SkipNodeOperations) > 0, features.DRAOptionalNodeOperations); len(off) > 0 {
		dropSlice137(d, &spec.SkipNodeOperations, sp.Child("skipNodeOperations"), off)
	}
	return d.warnings
}

// DropDisabledDeviceClassFieldsV1 applies the class rule:
// spec.extendedResourceName (DRAExtendedResource).
func DropDisabledDeviceClassFieldsV1(class, old *resourcev1.DeviceClass, gates features.Gates) []DropWarning {
	d := &dropper137{gates: gates}
	inUse := old != nil && old.Spec.ExtendedResourceName != nil
	if off := d.off(inUse, features.DRAExtendedResource); len(off) > 0 {
		dropPtr137(d, &class.Spec.ExtendedResourceName, field.NewPath("spec", "extendedResourceName"), off)
	}
	return d.warnings
}

// DropDisabledResourcePoolStatusRequestFieldsV1alpha3 applies the rule of
// the one kind with a gated field that is not in v1:
// spec.defaultPartitionTypeAttribute of a ResourcePoolStatusRequest
// (DRAPartitionableDevicesType), on create and on update of the main
// resource.
func DropDisabledResourcePoolStatusRequestFieldsV1alpha3(req, old *v1alpha3.ResourcePoolStatusRequest, gates features.Gates) []DropWarning {
	d := &dropper137{gates: gates}
	inUse := old != nil && old.Spec.DefaultPartitionTypeAttribute != nil
	if off := d.off(inUse, features.DRAPartitionableDevicesType); len(off) > 0 {
		dropPtr137(d, &req.Spec.DefaultPartitionTypeAttribute, field.NewPath("spec", "defaultPartitionTypeAttribute"), off)
	}
	return d.warnings
}
