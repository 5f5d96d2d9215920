package validation

import (
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/features"
)

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
	d := resourceSliceDrops{&dropper{gates: gates}}
	d.dropDisabledFields(slice, old)
	return d.warnings
}

// resourceSliceDrops are the rules of pkg/registry/resource/resourceslice.
type resourceSliceDrops struct{ *dropper }

var sliceSpecPath = field.NewPath("spec")

func sliceDevicePath(i int) *field.Path { return sliceSpecPath.Child("devices").Index(i) }

func (d resourceSliceDrops) dropDisabledFields(newSlice, oldSlice *resourcev1.ResourceSlice) {
	d.dropDisabledDRADeviceTaintsFields(newSlice, oldSlice)
	d.dropDisabledDRAPartitionableDevicesFields(newSlice, oldSlice)
	d.dropDisabledDRADeviceBindingConditionsFields(newSlice, oldSlice)
	d.dropDisabledDRAConsumableCapacityFields(newSlice, oldSlice)
	d.dropDisabledDRADeviceCompatibilityGroupsFields(newSlice, oldSlice)
	d.dropDisabledDRANodeAllocatableResourcesFields(newSlice, oldSlice)
	d.dropDisabledDRAListTypeAttributesFields(newSlice, oldSlice)
	d.dropDisabledDRAPartitionableDevicesTypeFields(newSlice, oldSlice)
	d.dropDisabledDRAOptionalNodeOperationsFields(newSlice, oldSlice)
}

// anyDevice says whether f holds for one of the slice's devices; a nil
// slice has none.
func anyDevice(slice *resourcev1.ResourceSlice, f func(*resourcev1.Device) bool) bool {
	if slice == nil {
		return false
	}
	for i := range slice.Spec.Devices {
		if f(&slice.Spec.Devices[i]) {
			return true
		}
	}
	return false
}

func (d resourceSliceDrops) dropDisabledDRAPartitionableDevicesTypeFields(newSlice, oldSlice *resourcev1.ResourceSlice) {
	if off := d.off(d.draPartitionableDevicesTypeFeatureInUse(oldSlice), features.DRAPartitionableDevicesType); len(off) > 0 {
		dropPtr(d.dropper, &newSlice.Spec.PartitionTypeAttribute, sliceSpecPath.Child("partitionTypeAttribute"), off)
	}
}

func (resourceSliceDrops) draPartitionableDevicesTypeFeatureInUse(slice *resourcev1.ResourceSlice) bool {
	return slice != nil && slice.Spec.PartitionTypeAttribute != nil
}

func (d resourceSliceDrops) dropDisabledDRADeviceTaintsFields(newSlice, oldSlice *resourcev1.ResourceSlice) {
	off := d.off(d.draDeviceTaintsFeatureInUse(oldSlice), features.DRADeviceTaints)
	if len(off) == 0 {
		return
	}
	for i := range newSlice.Spec.Devices {
		dropList(d.dropper, &newSlice.Spec.Devices[i].Taints, sliceDevicePath(i).Child("taints"), off)
	}
}

func (resourceSliceDrops) draDeviceTaintsFeatureInUse(slice *resourcev1.ResourceSlice) bool {
	return anyDevice(slice, func(dev *resourcev1.Device) bool { return len(dev.Taints) > 0 })
}

func (d resourceSliceDrops) dropDisabledDRAPartitionableDevicesFields(newSlice, oldSlice *resourcev1.ResourceSlice) {
	off := d.off(d.draPartitionableDevicesFeatureInUse(oldSlice), features.DRAPartitionableDevices)
	if len(off) == 0 {
		return
	}
	spec := &newSlice.Spec
	dropList(d.dropper, &spec.SharedCounters, sliceSpecPath.Child("sharedCounters"), off)
	dropPtr(d.dropper, &spec.PerDeviceNodeSelection, sliceSpecPath.Child("perDeviceNodeSelection"), off)
	for i := range spec.Devices {
		dev, p := &spec.Devices[i], sliceDevicePath(i)
		dropList(d.dropper, &dev.ConsumesCounters, p.Child("consumesCounters"), off)
		dropPtr(d.dropper, &dev.NodeName, p.Child("nodeName"), off)
		dropPtr(d.dropper, &dev.NodeSelector, p.Child("nodeSelector"), off)
		dropPtr(d.dropper, &dev.AllNodes, p.Child("allNodes"), off)
	}
}

// dropDisabledDRADeviceBindingConditionsFields needs two gates on: binding
// conditions are reported through status.devices.
func (d resourceSliceDrops) dropDisabledDRADeviceBindingConditionsFields(newSlice, oldSlice *resourcev1.ResourceSlice) {
	off := d.off(d.draDeviceBindingConditionsFeatureInUse(oldSlice), features.DRADeviceBindingConditions, features.DRAResourceClaimDeviceStatus)
	if len(off) == 0 {
		return
	}
	for i := range newSlice.Spec.Devices {
		dev, p := &newSlice.Spec.Devices[i], sliceDevicePath(i)
		dropList(d.dropper, &dev.BindingConditions, p.Child("bindingConditions"), off)
		dropList(d.dropper, &dev.BindingFailureConditions, p.Child("bindingFailureConditions"), off)
		dropPtr(d.dropper, &dev.BindsToNode, p.Child("bindsToNode"), off)
	}
}

func (resourceSliceDrops) draPartitionableDevicesFeatureInUse(slice *resourcev1.ResourceSlice) bool {
	if slice == nil {
		return false
	}
	if len(slice.Spec.SharedCounters) > 0 || slice.Spec.PerDeviceNodeSelection != nil {
		return true
	}
	return anyDevice(slice, func(dev *resourcev1.Device) bool {
		return len(dev.ConsumesCounters) > 0 || dev.NodeName != nil || dev.NodeSelector != nil || dev.AllNodes != nil
	})
}

func (resourceSliceDrops) draDeviceBindingConditionsFeatureInUse(slice *resourcev1.ResourceSlice) bool {
	return anyDevice(slice, func(dev *resourcev1.Device) bool {
		return len(dev.BindingConditions) > 0 || len(dev.BindingFailureConditions) > 0 || dev.BindsToNode != nil
	})
}

func (resourceSliceDrops) draConsumableCapacityFeatureInUse(slice *resourcev1.ResourceSlice) bool {
	return anyDevice(slice, func(dev *resourcev1.Device) bool {
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
}

// dropDisabledDRAConsumableCapacityFields walks the capacities in the order
// of their names, so that the warnings come in a stable order.
func (d resourceSliceDrops) dropDisabledDRAConsumableCapacityFields(newSlice, oldSlice *resourcev1.ResourceSlice) {
	off := d.off(d.draConsumableCapacityFeatureInUse(oldSlice), features.DRAConsumableCapacity)
	if len(off) == 0 {
		return
	}
	for i := range newSlice.Spec.Devices {
		dev, p := &newSlice.Spec.Devices[i], sliceDevicePath(i)
		dropPtr(d.dropper, &dev.AllowMultipleAllocations, p.Child("allowMultipleAllocations"), off)
		for _, name := range sortedKeys(dev.Capacity) {
			c := dev.Capacity[name]
			if c.RequestPolicy != nil {
				dropPtr(d.dropper, &c.RequestPolicy, p.Child("capacity").Key(string(name)).Child("requestPolicy"), off)
				dev.Capacity[name] = c
			}
		}
	}
}

func (resourceSliceDrops) draDeviceCompatibilityGroupsFeatureInUse(slice *resourcev1.ResourceSlice) bool {
	return anyDevice(slice, func(dev *resourcev1.Device) bool {
		for _, c := range dev.ConsumesCounters {
			if len(c.CompatibilityGroups) > 0 {
				return true
			}
		}
		return false
	})
}

func (d resourceSliceDrops) dropDisabledDRADeviceCompatibilityGroupsFields(newSlice, oldSlice *resourcev1.ResourceSlice) {
	off := d.off(d.draDeviceCompatibilityGroupsFeatureInUse(oldSlice), features.DRADeviceCompatibilityGroups)
	if len(off) == 0 {
		return
	}
	for i := range newSlice.Spec.Devices {
		dev, p := &newSlice.Spec.Devices[i], sliceDevicePath(i).Child("consumesCounters")
		for j := range dev.ConsumesCounters {
			dropList(d.dropper, &dev.ConsumesCounters[j].CompatibilityGroups, p.Index(j).Child("compatibilityGroups"), off)
		}
	}
}

func (d resourceSliceDrops) dropDisabledDRANodeAllocatableResourcesFields(newSlice, oldSlice *resourcev1.ResourceSlice) {
	off := d.off(d.draNodeAllocatableResourcesFeatureInUse(oldSlice), features.DRANodeAllocatableResources)
	if len(off) == 0 {
		return
	}
	for i := range newSlice.Spec.Devices {
		dropMap(d.dropper, &newSlice.Spec.Devices[i].NodeAllocatableResources, sliceDevicePath(i).Child("nodeAllocatableResources"), off)
	}
}

func (resourceSliceDrops) draNodeAllocatableResourcesFeatureInUse(slice *resourcev1.ResourceSlice) bool {
	return anyDevice(slice, func(dev *resourcev1.Device) bool { return len(dev.NodeAllocatableResources) > 0 })
}

// hasListValue says whether an attribute has a list-valued field set.
func hasListValue(a *resourcev1.DeviceAttribute) bool {
	return a.IntValues != nil || a.BoolValues != nil || a.StringValues != nil || a.VersionValues != nil
}

// dropDisabledDRAListTypeAttributesFields is upstream's
// dropDisableDRAListTypeAttributesFields (sic). It walks the attributes in
// the order of their names, so that the warnings come in a stable order.
func (d resourceSliceDrops) dropDisabledDRAListTypeAttributesFields(newSlice, oldSlice *resourcev1.ResourceSlice) {
	off := d.off(d.draListTypeAttributesFeatureInUse(oldSlice), features.DRAListTypeAttributes)
	if len(off) == 0 {
		return
	}
	for i := range newSlice.Spec.Devices {
		dev := &newSlice.Spec.Devices[i]
		for _, name := range sortedKeys(dev.Attributes) {
			a := dev.Attributes[name]
			if !hasListValue(&a) {
				continue
			}
			p := sliceDevicePath(i).Child("attributes").Key(string(name))
			dropList(d.dropper, &a.IntValues, p.Child("ints"), off)
			dropList(d.dropper, &a.BoolValues, p.Child("bools"), off)
			dropList(d.dropper, &a.StringValues, p.Child("strings"), off)
			dropList(d.dropper, &a.VersionValues, p.Child("versions"), off)
			dev.Attributes[name] = a
		}
	}
}

func (resourceSliceDrops) draListTypeAttributesFeatureInUse(slice *resourcev1.ResourceSlice) bool {
	return anyDevice(slice, func(dev *resourcev1.Device) bool {
		for _, a := range dev.Attributes {
			if hasListValue(&a) {
				return true
			}
		}
		return false
	})
}

func (d resourceSliceDrops) dropDisabledDRAOptionalNodeOperationsFields(newSlice, oldSlice *resourcev1.ResourceSlice) {
	if off := d.off(d.draOptionalNodeOperationsFeatureInUse(oldSlice), features.DRAOptionalNodeOperations); len(off) > 0 {
		dropList(d.dropper, &newSlice.Spec.SkipNodeOperations, sliceSpecPath.Child("skipNodeOperations"), off)
	}
}

func (resourceSliceDrops) draOptionalNodeOperationsFeatureInUse(slice *resourcev1.ResourceSlice) bool {
	return slice != nil && len(slice.Spec.SkipNodeOperations) > 0
}
