package resource

// AllocatedDevices lists the devices an allocation holds, whichever version
// wrote it: the v1alpha3 device results, or, for an allocation that has none
// and was made by 1.30's structured parameters, its structured handles read
// as results (see ResultsFromStructuredHandles). Opaque handles (v1alpha1,
// classic v1alpha2) name no devices. Anything that must know which devices
// are taken, such as an allocator, should use this rather than
// Devices.Results alone.
func (a *AllocationResult) AllocatedDevices() []DeviceRequestAllocationResult {
	if a == nil {
		return nil
	}
	if a.Devices.Results != nil {
		return a.Devices.Results
	}
	return ResultsFromStructuredHandles(a.ResourceHandles)
}

// ResultsFromStructuredHandles reads v1alpha2 structured handles as v1alpha3
// results: each allocated named-resources instance is a device of the
// handle's driver, in the pool named after the handle's node (1.30
// published one slice per node and driver, which conversion turns into a
// pool named after the node), allocated for the legacy request.
func ResultsFromStructuredHandles(handles []ResourceHandle) []DeviceRequestAllocationResult {
	var results []DeviceRequestAllocationResult
	for i := range handles {
		sd := handles[i].StructuredData
		if sd == nil {
			continue
		}
		for _, r := range sd.Results {
			device := ""
			if r.NamedResources != nil {
				device = r.NamedResources.Name
			}
			results = append(results, DeviceRequestAllocationResult{
				Request: LegacyRequestName,
				Driver:  handles[i].DriverName,
				Pool:    sd.NodeName,
				Device:  device,
			})
		}
	}
	return results
}
