package validation

import (
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/features"
)

// The drop rules of claims and templates (see drop.go): the spec's, as
// pkg/api/resourceclaimspec has them, and the status subresource's, as
// pkg/registry/resource/resourceclaim has them.

// DropDisabledResourceClaimFieldsV1 applies the spec rules to a claim
// (create when old is nil, else update of the main resource).
func DropDisabledResourceClaimFieldsV1(claim, old *resourcev1.ResourceClaim, gates features.Gates) []DropWarning {
	var oldSpec *resourcev1.ResourceClaimSpec
	if old != nil {
		oldSpec = &old.Spec
	}
	d := resourceClaimSpecDrops{&dropper{gates: gates}}
	d.dropDisabledFields(&claim.Spec, oldSpec, field.NewPath("spec"))
	return d.warnings
}

// DropDisabledResourceClaimTemplateFieldsV1 applies the claim spec rules to
// a template's spec.spec.
func DropDisabledResourceClaimTemplateFieldsV1(tmpl, old *resourcev1.ResourceClaimTemplate, gates features.Gates) []DropWarning {
	var oldSpec *resourcev1.ResourceClaimSpec
	if old != nil {
		oldSpec = &old.Spec.Spec
	}
	d := resourceClaimSpecDrops{&dropper{gates: gates}}
	d.dropDisabledFields(&tmpl.Spec.Spec, oldSpec, field.NewPath("spec", "spec"))
	return d.warnings
}

// resourceClaimSpecDrops are the rules of pkg/api/resourceclaimspec. Its
// functions take the path of the spec, which differs between a claim and a
// template.
type resourceClaimSpecDrops struct{ *dropper }

// dropDisabledFields runs the rules in upstream's order: the prioritized
// list first, so that the tolerations (and the rest) of a dropped
// firstAvailable are not looked at.
func (d resourceClaimSpecDrops) dropDisabledFields(new, old *resourcev1.ResourceClaimSpec, p *field.Path) {
	devices := p.Child("devices")
	d.dropDisabledDRAPrioritizedListFields(new, old, devices)
	d.dropDisabledDRADeviceTaintsFields(new, old, devices)
	d.dropDisabledDRAAdminAccessFields(new, old, devices)
	d.dropDisabledDRAConsumableCapacityFields(new, old, devices)
	d.dropDisabledDRADerivedAttributesFields(new, old, devices)
}

// eachRequestPart calls exact for the exactly part of every request that
// has one and sub for each of its sub-requests, request by request, with
// their paths.
func eachRequestPart(spec *resourcev1.ResourceClaimSpec, devices *field.Path,
	exact func(*resourcev1.ExactDeviceRequest, *field.Path), sub func(*resourcev1.DeviceSubRequest, *field.Path)) {
	requests := devices.Child("requests")
	for i := range spec.Devices.Requests {
		r := &spec.Devices.Requests[i]
		if r.Exactly != nil && exact != nil {
			exact(r.Exactly, requests.Index(i).Child("exactly"))
		}
		if sub == nil {
			continue
		}
		for j := range r.FirstAvailable {
			sub(&r.FirstAvailable[j], requests.Index(i).Child("firstAvailable").Index(j))
		}
	}
}

// anyRequestPart says whether exact or sub holds for the exactly part or a
// sub-request of one of spec's requests; a nil spec has none.
func anyRequestPart(spec *resourcev1.ResourceClaimSpec, exact func(*resourcev1.ExactDeviceRequest) bool, sub func(*resourcev1.DeviceSubRequest) bool) bool {
	if spec == nil {
		return false
	}
	for _, r := range spec.Devices.Requests {
		if r.Exactly != nil && exact != nil && exact(r.Exactly) {
			return true
		}
		for j := range r.FirstAvailable {
			if sub != nil && sub(&r.FirstAvailable[j]) {
				return true
			}
		}
	}
	return false
}

func (d resourceClaimSpecDrops) dropDisabledDRADeviceTaintsFields(new, old *resourcev1.ResourceClaimSpec, devices *field.Path) {
	off := d.off(d.draDeviceTaintsFeatureInUse(old), features.DRADeviceTaints)
	if len(off) == 0 {
		return
	}
	eachRequestPart(new, devices,
		func(e *resourcev1.ExactDeviceRequest, p *field.Path) {
			dropList(d.dropper, &e.Tolerations, p.Child("tolerations"), off)
		},
		func(s *resourcev1.DeviceSubRequest, p *field.Path) {
			dropList(d.dropper, &s.Tolerations, p.Child("tolerations"), off)
		})
}

func (resourceClaimSpecDrops) draDeviceTaintsFeatureInUse(spec *resourcev1.ResourceClaimSpec) bool {
	return anyRequestPart(spec,
		func(e *resourcev1.ExactDeviceRequest) bool { return len(e.Tolerations) > 0 },
		func(s *resourcev1.DeviceSubRequest) bool { return len(s.Tolerations) > 0 })
}

func (d resourceClaimSpecDrops) dropDisabledDRAPrioritizedListFields(new, old *resourcev1.ResourceClaimSpec, devices *field.Path) {
	off := d.off(d.draPrioritizedListFeatureInUse(old), features.DRAPrioritizedList)
	if len(off) == 0 {
		return
	}
	requests := devices.Child("requests")
	for i := range new.Devices.Requests {
		dropList(d.dropper, &new.Devices.Requests[i].FirstAvailable, requests.Index(i).Child("firstAvailable"), off)
	}
}

func (resourceClaimSpecDrops) draPrioritizedListFeatureInUse(spec *resourcev1.ResourceClaimSpec) bool {
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

func (d resourceClaimSpecDrops) dropDisabledDRAAdminAccessFields(new, old *resourcev1.ResourceClaimSpec, devices *field.Path) {
	off := d.off(d.draAdminAccessFeatureInUse(old), features.DRAAdminAccess)
	if len(off) == 0 {
		return
	}
	eachRequestPart(new, devices, func(e *resourcev1.ExactDeviceRequest, p *field.Path) {
		dropPtr(d.dropper, &e.AdminAccess, p.Child("adminAccess"), off)
	}, nil)
}

// draAdminAccessFeatureInUse: the claim status rule asks it too
// (resourceClaimDrops.draAdminAccessFeatureInUse).
func (resourceClaimSpecDrops) draAdminAccessFeatureInUse(spec *resourcev1.ResourceClaimSpec) bool {
	return anyRequestPart(spec, func(e *resourcev1.ExactDeviceRequest) bool { return e.AdminAccess != nil }, nil)
}

func (d resourceClaimSpecDrops) dropDisabledDRAConsumableCapacityFields(new, old *resourcev1.ResourceClaimSpec, devices *field.Path) {
	off := d.off(d.draConsumableCapacityFeatureInUse(old), features.DRAConsumableCapacity)
	if len(off) == 0 {
		return
	}
	constraints := devices.Child("constraints")
	for i := range new.Devices.Constraints {
		dropPtr(d.dropper, &new.Devices.Constraints[i].DistinctAttribute, constraints.Index(i).Child("distinctAttribute"), off)
	}
	eachRequestPart(new, devices,
		func(e *resourcev1.ExactDeviceRequest, p *field.Path) {
			dropPtr(d.dropper, &e.Capacity, p.Child("capacity"), off)
		},
		func(s *resourcev1.DeviceSubRequest, p *field.Path) {
			dropPtr(d.dropper, &s.Capacity, p.Child("capacity"), off)
		})
}

// draConsumableCapacityFeatureInUse: the claim status rule asks it too
// (resourceClaimDrops.draConsumableCapacityFeatureInUse).
func (resourceClaimSpecDrops) draConsumableCapacityFeatureInUse(spec *resourcev1.ResourceClaimSpec) bool {
	if spec == nil {
		return false
	}
	for _, c := range spec.Devices.Constraints {
		if c.DistinctAttribute != nil {
			return true
		}
	}
	return anyRequestPart(spec,
		func(e *resourcev1.ExactDeviceRequest) bool { return e.Capacity != nil },
		func(s *resourcev1.DeviceSubRequest) bool { return s.Capacity != nil })
}

func (d resourceClaimSpecDrops) dropDisabledDRADerivedAttributesFields(new, old *resourcev1.ResourceClaimSpec, devices *field.Path) {
	off := d.off(d.draDerivedAttributesFeatureInUse(old), features.DRADerivedAttributes)
	if len(off) == 0 {
		return
	}
	eachRequestPart(new, devices,
		func(e *resourcev1.ExactDeviceRequest, p *field.Path) {
			dropList(d.dropper, &e.DerivedAttributes, p.Child("derivedAttributes"), off)
		},
		func(s *resourcev1.DeviceSubRequest, p *field.Path) {
			dropList(d.dropper, &s.DerivedAttributes, p.Child("derivedAttributes"), off)
		})
}

func (resourceClaimSpecDrops) draDerivedAttributesFeatureInUse(spec *resourcev1.ResourceClaimSpec) bool {
	return anyRequestPart(spec,
		func(e *resourcev1.ExactDeviceRequest) bool { return len(e.DerivedAttributes) > 0 },
		func(s *resourcev1.DeviceSubRequest) bool { return len(s.DerivedAttributes) > 0 })
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
	d := resourceClaimDrops{&dropper{gates: gates}}
	d.dropDisabledStatusFields(claim, old)
	// Last: it finds nothing to remove where status.devices was dropped.
	d.dropDeallocatedStatusDevices(claim, old)
	return d.warnings
}

// resourceClaimDrops are the status rules of
// pkg/registry/resource/resourceclaim.
type resourceClaimDrops struct{ *dropper }

var (
	statusResultsPath = field.NewPath("status", "allocation", "devices", "results")
	statusDevicesPath = field.NewPath("status", "devices")
)

func (d resourceClaimDrops) dropDisabledStatusFields(newClaim, oldClaim *resourcev1.ResourceClaim) {
	d.dropDisabledDRAResourceClaimDeviceStatusFields(newClaim, oldClaim)
	d.dropDisabledDRAAdminAccessFields(newClaim, oldClaim)
	d.dropDisabledDRAConsumableCapacityFields(newClaim, oldClaim)
	d.dropDisabledDRADeviceBindingConditionsFields(newClaim, oldClaim)
	d.dropDisabledDRAOptionalNodeOperationsFields(newClaim, oldClaim)
}

// allocationResults are the claim's allocation results, nil for none or a
// nil claim.
func allocationResults(claim *resourcev1.ResourceClaim) []resourcev1.DeviceRequestAllocationResult {
	if claim == nil || claim.Status.Allocation == nil {
		return nil
	}
	return claim.Status.Allocation.Devices.Results
}

// anyAllocationResult says whether f holds for one of the claim's
// allocation results.
func anyAllocationResult(claim *resourcev1.ResourceClaim, f func(*resourcev1.DeviceRequestAllocationResult) bool) bool {
	results := allocationResults(claim)
	for i := range results {
		if f(&results[i]) {
			return true
		}
	}
	return false
}

func (d resourceClaimDrops) dropDisabledDRAAdminAccessFields(newClaim, oldClaim *resourcev1.ResourceClaim) {
	off := d.off(d.draAdminAccessFeatureInUse(oldClaim), features.DRAAdminAccess)
	if len(off) == 0 {
		return
	}
	results := allocationResults(newClaim)
	for i := range results {
		dropPtr(d.dropper, &results[i].AdminAccess, statusResultsPath.Index(i).Child("adminAccess"), off)
	}
}

func (resourceClaimDrops) draAdminAccessFeatureInUse(claim *resourcev1.ResourceClaim) bool {
	if claim == nil {
		return false
	}
	if (resourceClaimSpecDrops{}).draAdminAccessFeatureInUse(&claim.Spec) {
		return true
	}
	return anyAllocationResult(claim, func(r *resourcev1.DeviceRequestAllocationResult) bool { return r.AdminAccess != nil })
}

func (resourceClaimDrops) draResourceClaimDeviceStatusFeatureInUse(claim *resourcev1.ResourceClaim) bool {
	return claim != nil && len(claim.Status.Devices) > 0
}

func (d resourceClaimDrops) dropDisabledDRAResourceClaimDeviceStatusFields(newClaim, oldClaim *resourcev1.ResourceClaim) {
	if off := d.off(d.draResourceClaimDeviceStatusFeatureInUse(oldClaim), features.DRAResourceClaimDeviceStatus); len(off) > 0 {
		dropList(d.dropper, &newClaim.Status.Devices, statusDevicesPath, off)
	}
}

// sharedDeviceID identifies an allocated device, or one share of it
// (upstream's structured.SharedDeviceID).
type sharedDeviceID struct {
	driver, pool, device string
	shared               bool
	share                string
}

func resultDeviceID(r *resourcev1.DeviceRequestAllocationResult) sharedDeviceID {
	id := sharedDeviceID{driver: r.Driver, pool: r.Pool, device: r.Device}
	if r.ShareID != nil {
		id.shared, id.share = true, string(*r.ShareID)
	}
	return id
}

// dropDeallocatedStatusDevices removes the status.devices entries of the
// devices that oldClaim has allocated and newClaim no longer has, while
// DRAResourceClaimDeviceStatus is on or the old claim has status.devices.
func (d resourceClaimDrops) dropDeallocatedStatusDevices(newClaim, oldClaim *resourcev1.ResourceClaim) {
	if !d.gates.Enabled(features.DRAResourceClaimDeviceStatus) && !d.draResourceClaimDeviceStatusFeatureInUse(oldClaim) {
		return
	}
	deallocated := map[sharedDeviceID]bool{}
	old := allocationResults(oldClaim)
	for i := range old {
		deallocated[resultDeviceID(&old[i])] = true
	}
	current := allocationResults(newClaim)
	for i := range current {
		delete(deallocated, resultDeviceID(&current[i]))
	}
	kept := newClaim.Status.Devices[:0]
	for i, s := range newClaim.Status.Devices {
		id := sharedDeviceID{driver: s.Driver, pool: s.Pool, device: s.Device}
		if s.ShareID != nil {
			id.shared, id.share = true, *s.ShareID
		}
		if deallocated[id] {
			d.warnings = append(d.warnings, DropWarning{Path: statusDevicesPath.Index(i).String(), Reason: reasonNoLongerAllocated})
			continue
		}
		kept = append(kept, s)
	}
	newClaim.Status.Devices = kept
	if len(newClaim.Status.Devices) == 0 {
		newClaim.Status.Devices = nil
	}
}

func (resourceClaimDrops) draConsumableCapacityFeatureInUse(claim *resourcev1.ResourceClaim) bool {
	if claim == nil {
		return false
	}
	if (resourceClaimSpecDrops{}).draConsumableCapacityFeatureInUse(&claim.Spec) {
		return true
	}
	if anyAllocationResult(claim, func(r *resourcev1.DeviceRequestAllocationResult) bool {
		return r.ShareID != nil || r.ConsumedCapacity != nil
	}) {
		return true
	}
	for _, s := range claim.Status.Devices {
		if s.ShareID != nil {
			return true
		}
	}
	return false
}

func (resourceClaimDrops) draDeviceBindingConditionsFeatureInUse(claim *resourcev1.ResourceClaim) bool {
	return anyAllocationResult(claim, func(r *resourcev1.DeviceRequestAllocationResult) bool {
		return r.BindingConditions != nil || r.BindingFailureConditions != nil
	})
}

func (d resourceClaimDrops) dropDisabledDRAConsumableCapacityFields(newClaim, oldClaim *resourcev1.ResourceClaim) {
	off := d.off(d.draConsumableCapacityFeatureInUse(oldClaim), features.DRAConsumableCapacity)
	if len(off) == 0 {
		return
	}
	results := allocationResults(newClaim)
	for i := range results {
		dropPtr(d.dropper, &results[i].ShareID, statusResultsPath.Index(i).Child("shareID"), off)
		dropMap(d.dropper, &results[i].ConsumedCapacity, statusResultsPath.Index(i).Child("consumedCapacity"), off)
	}
	for i := range newClaim.Status.Devices {
		dropPtr(d.dropper, &newClaim.Status.Devices[i].ShareID, statusDevicesPath.Index(i).Child("shareID"), off)
	}
}

func (d resourceClaimDrops) dropDisabledDRADeviceBindingConditionsFields(newClaim, oldClaim *resourcev1.ResourceClaim) {
	off := d.off(d.draDeviceBindingConditionsFeatureInUse(oldClaim), features.DRADeviceBindingConditions)
	if len(off) == 0 {
		return
	}
	results := allocationResults(newClaim)
	for i := range results {
		dropList(d.dropper, &results[i].BindingConditions, statusResultsPath.Index(i).Child("bindingConditions"), off)
		dropList(d.dropper, &results[i].BindingFailureConditions, statusResultsPath.Index(i).Child("bindingFailureConditions"), off)
	}
}

func (d resourceClaimDrops) dropDisabledDRAOptionalNodeOperationsFields(newClaim, oldClaim *resourcev1.ResourceClaim) {
	off := d.off(d.draOptionalNodeOperationsFeatureInUse(oldClaim), features.DRAOptionalNodeOperations)
	if len(off) == 0 {
		return
	}
	results := allocationResults(newClaim)
	for i := range results {
		dropList(d.dropper, &results[i].SkipNodeOperations, statusResultsPath.Index(i).Child("skipNodeOperations"), off)
	}
}

func (resourceClaimDrops) draOptionalNodeOperationsFeatureInUse(claim *resourcev1.ResourceClaim) bool {
	return anyAllocationResult(claim, func(r *resourcev1.DeviceRequestAllocationResult) bool { return len(r.SkipNodeOperations) > 0 })
}
