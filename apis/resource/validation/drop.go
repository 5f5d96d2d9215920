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

// The fields an API server of the release drakit follows clears before
// validating a write because the feature gate that covers them is off (the
// PrepareForCreate and PrepareForUpdate of its registry strategies). A
// field is cleared on create, and on update unless the old object already
// used the feature: each rule checks the old object as a whole (any
// request, any device), not the same item. The rules run in the server's
// order, so a field inside a field that an earlier rule cleared is not
// reported again.
//
// Each gate has one drop function and one in-use function per rule set,
// ordered as upstream's (k8s.io/kubernetes v1.37.2), so that they can be
// read side by side: dropDisabledDRA<Feature>Fields clears the fields of
// the gate DRA<Feature> unless dra<Feature>FeatureInUse says the old
// object uses them. A rule that needs several gates is named after the
// first it passes to d.off (the slice's binding conditions:
// DRADeviceBindingConditions, then DRAResourceClaimDeviceStatus).
// Upstream has them in one package per kind, where the same name recurs
// (the slice's and the claim spec's dropDisabledDRADeviceTaintsFields);
// here they are methods of one type per upstream package:
//
//	resourceClaimSpecDrops    pkg/api/resourceclaimspec             (dropclaim.go)
//	resourceClaimDrops        pkg/registry/resource/resourceclaim   (dropclaim.go, status)
//	resourceSliceDrops        pkg/registry/resource/resourceslice   (dropslice.go)
//	deviceClassDrops          pkg/registry/resource/deviceclass
//	poolStatusRequestDrops    pkg/registry/resource/resourcepoolstatusrequest
//
// Most names are upstream's. Where upstream's name breaks the rule, the
// rule wins, so that every gate reads the same way (TestDropNamesFollowTheRule
// keeps it so); upstream's names, type by type:
//
//	resourceClaimSpecDrops
//	  DropDisabledFields                                           dropDisabledFields
//	  draDeviceTaintsInUse                                         draDeviceTaintsFeatureInUse
//	  DRAAdminAccessFeatureInUse (exported for the claim status)   draAdminAccessFeatureInUse
//	  dropDisabledDRAResourceClaimConsumableCapacityFields         dropDisabledDRAConsumableCapacityFields
//	  DRAConsumableCapacityFeatureInUse (exported, as above)       draConsumableCapacityFeatureInUse
//	  draDerivedAttributesInUse                                    draDerivedAttributesFeatureInUse
//	resourceClaimDrops (status; upstream's "Status" is the type here)
//	  dropDisabledDRAResourceClaimDeviceStatusFields               (upstream's)
//	  isDRAResourceClaimDeviceStatusInUse                          draResourceClaimDeviceStatusFeatureInUse
//	  dropDisabledDRAAdminAccessStatusFields                       dropDisabledDRAAdminAccessFields
//	  dropDisabledDRAResourceClaimConsumableCapacityStatusFields   dropDisabledDRAConsumableCapacityFields
//	  dropDeviceBindingConditionsFields                            dropDisabledDRADeviceBindingConditionsFields
//	  draDeviceBindingConditionsInUse                              draDeviceBindingConditionsFeatureInUse
//	  dropDisabledDRAOptionalNodeOperationsStatusFields            dropDisabledDRAOptionalNodeOperationsFields
//	  draOptionalNodeOperationsStatusFeatureInUse                  draOptionalNodeOperationsFeatureInUse
//	resourceSliceDrops
//	  draBindingConditionsFeatureInUse                             draDeviceBindingConditionsFeatureInUse
//	  dropDisableDRAListTypeAttributesFields (sic)                 dropDisabledDRAListTypeAttributesFields
//	poolStatusRequestDrops
//	  (in-use test inline in the drop function)                    draPartitionableDevicesTypeFeatureInUse
//
// Where upstream asks the global feature gate, these ask d.off, which also
// names the gates that are off for the warning. One rule has no gate of
// its own: a claim status update drops the status.devices entries of the
// devices it deallocates (dropDeallocatedStatusDevices).
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

// reasonNoLongerAllocated is the reason for pruning a status.devices
// entry of a device the update deallocates.
const reasonNoLongerAllocated = "the device is no longer allocated to the claim"

// dropper collects the warnings of one object.
type dropper struct {
	gates    features.Gates
	warnings []DropWarning
}

// off says whether a rule applies: one of the gates is off and the old
// object does not use the feature (upstream's "Enabled(gate) ||
// featureInUse(old)", negated). It returns the gates that are off.
func (d *dropper) off(inUse bool, gates ...features.Name) []features.Name {
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

func (d *dropper) warn(p *field.Path, off []features.Name) {
	d.warnings = append(d.warnings, DropWarning{Path: p.String(), Gates: off})
}

// dropPtr clears *f and reports it if it was set.
func dropPtr[T any](d *dropper, f **T, p *field.Path, off []features.Name) {
	if *f != nil {
		d.warn(p, off)
	}
	*f = nil
}

// dropList clears *f and reports it if it was set (an empty list
// included: it is cleared too).
func dropList[T any](d *dropper, f *[]T, p *field.Path, off []features.Name) {
	if *f != nil {
		d.warn(p, off)
	}
	*f = nil
}

// dropMap clears *f and reports it if it was set.
func dropMap[K comparable, V any](d *dropper, f *map[K]V, p *field.Path, off []features.Name) {
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
		oldT, ok := oldAs[*resourcev1.ResourceClaim](old)
		if !ok {
			return nil, mismatch()
		}
		return DropDisabledResourceClaimFieldsV1(o, oldT, gates), nil
	case *resourcev1.ResourceClaimTemplate:
		oldT, ok := oldAs[*resourcev1.ResourceClaimTemplate](old)
		if !ok {
			return nil, mismatch()
		}
		return DropDisabledResourceClaimTemplateFieldsV1(o, oldT, gates), nil
	case *resourcev1.ResourceSlice:
		oldT, ok := oldAs[*resourcev1.ResourceSlice](old)
		if !ok {
			return nil, mismatch()
		}
		return DropDisabledResourceSliceFieldsV1(o, oldT, gates), nil
	case *resourcev1.DeviceClass:
		oldT, ok := oldAs[*resourcev1.DeviceClass](old)
		if !ok {
			return nil, mismatch()
		}
		return DropDisabledDeviceClassFieldsV1(o, oldT, gates), nil
	case *resourcev1.DeviceTaintRule:
		if _, ok := oldAs[*resourcev1.DeviceTaintRule](old); !ok {
			return nil, mismatch()
		}
		return nil, nil
	}
	return nil, fmt.Errorf("dropping disabled fields: %T is not a resource.k8s.io/v1 kind", obj)
}

// oldAs converts old to T; a nil interface or a typed nil gives T's
// zero value (a create).
func oldAs[T interface {
	*E
	runtime.Object
}, E any](old runtime.Object) (T, bool) {
	if old == nil {
		return nil, true
	}
	t, ok := old.(T)
	return t, ok
}

// deviceClassDrops are the rules of pkg/registry/resource/deviceclass.
type deviceClassDrops struct{ *dropper }

// DropDisabledDeviceClassFieldsV1 applies the class rule:
// spec.extendedResourceName (DRAExtendedResource).
func DropDisabledDeviceClassFieldsV1(class, old *resourcev1.DeviceClass, gates features.Gates) []DropWarning {
	d := deviceClassDrops{&dropper{gates: gates}}
	d.dropDisabledFields(class, old)
	return d.warnings
}

func (d deviceClassDrops) dropDisabledFields(newClass, oldClass *resourcev1.DeviceClass) {
	d.dropDisabledDRAExtendedResourceFields(newClass, oldClass)
}

func (d deviceClassDrops) dropDisabledDRAExtendedResourceFields(newClass, oldClass *resourcev1.DeviceClass) {
	if off := d.off(d.draExtendedResourceFeatureInUse(oldClass), features.DRAExtendedResource); len(off) > 0 {
		dropPtr(d.dropper, &newClass.Spec.ExtendedResourceName, field.NewPath("spec", "extendedResourceName"), off)
	}
}

func (deviceClassDrops) draExtendedResourceFeatureInUse(class *resourcev1.DeviceClass) bool {
	return class != nil && class.Spec.ExtendedResourceName != nil
}

// poolStatusRequestDrops are the rules of
// pkg/registry/resource/resourcepoolstatusrequest.
type poolStatusRequestDrops struct{ *dropper }

// DropDisabledResourcePoolStatusRequestFieldsV1alpha3 applies the rule of
// the one kind with a gated field that is not in v1:
// spec.defaultPartitionTypeAttribute of a ResourcePoolStatusRequest
// (DRAPartitionableDevicesType), on create and on update of the main
// resource.
func DropDisabledResourcePoolStatusRequestFieldsV1alpha3(req, old *v1alpha3.ResourcePoolStatusRequest, gates features.Gates) []DropWarning {
	d := poolStatusRequestDrops{&dropper{gates: gates}}
	d.dropDisabledDRAPartitionableDevicesTypeFields(req, old)
	return d.warnings
}

func (d poolStatusRequestDrops) dropDisabledDRAPartitionableDevicesTypeFields(request, oldRequest *v1alpha3.ResourcePoolStatusRequest) {
	if off := d.off(d.draPartitionableDevicesTypeFeatureInUse(oldRequest), features.DRAPartitionableDevicesType); len(off) > 0 {
		dropPtr(d.dropper, &request.Spec.DefaultPartitionTypeAttribute, field.NewPath("spec", "defaultPartitionTypeAttribute"), off)
	}
}

// draPartitionableDevicesTypeFeatureInUse is inline in upstream's drop
// function.
func (poolStatusRequestDrops) draPartitionableDevicesTypeFeatureInUse(request *v1alpha3.ResourcePoolStatusRequest) bool {
	return request != nil && request.Spec.DefaultPartitionTypeAttribute != nil
}
