package allocbench

import (
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/dynamic-resource-allocation/structured"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// The scenarios are written once, as drakit hub objects (v1alpha3 of
// Kubernetes 1.31), and translated to k8s.io/api/resource/v1 for upstream's
// allocator:
//
//   - a request becomes an `exactly` request with the same class, selectors,
//     mode and count (an unset mode and a zero count defaulted as the API
//     server does), and adminAccess true becomes a pointer to true;
//   - a device's `basic` attributes become the flat v1 device's attributes,
//     except quantities, which become capacities (DeviceCapacity{Value});
//   - a device without `basic` is left out: 1.31 cannot select such a device
//     (it is "some future device type"), while in v1 every device is
//     selectable, so leaving it out keeps the 1.31 meaning;
//   - nodeName and allNodes become pointers, set only when given.

func toV1Class(c *resource.DeviceClass) *resourceapi.DeviceClass {
	out := &resourceapi.DeviceClass{ObjectMeta: *c.ObjectMeta.DeepCopy()}
	for _, s := range c.Spec.Selectors {
		out.Spec.Selectors = append(out.Spec.Selectors, toV1Selector(s))
	}
	for _, cfg := range c.Spec.Config {
		out.Spec.Config = append(out.Spec.Config, resourceapi.DeviceClassConfiguration{DeviceConfiguration: toV1Config(cfg.DeviceConfiguration)})
	}
	return out
}

func toV1Selector(s resource.DeviceSelector) resourceapi.DeviceSelector {
	if s.CEL == nil {
		return resourceapi.DeviceSelector{}
	}
	return resourceapi.DeviceSelector{CEL: &resourceapi.CELDeviceSelector{Expression: s.CEL.Expression}}
}

func toV1Config(c resource.DeviceConfiguration) resourceapi.DeviceConfiguration {
	if c.Opaque == nil {
		return resourceapi.DeviceConfiguration{}
	}
	return resourceapi.DeviceConfiguration{Opaque: &resourceapi.OpaqueDeviceConfiguration{Driver: c.Opaque.Driver, Parameters: *c.Opaque.Parameters.DeepCopy()}}
}

func toV1Slice(s *resource.ResourceSlice) *resourceapi.ResourceSlice {
	out := &resourceapi.ResourceSlice{ObjectMeta: *s.ObjectMeta.DeepCopy()}
	out.Spec = resourceapi.ResourceSliceSpec{
		Driver: s.Spec.Driver,
		Pool:   resourceapi.ResourcePool{Name: s.Spec.Pool.Name, Generation: s.Spec.Pool.Generation, ResourceSliceCount: s.Spec.Pool.ResourceSliceCount},
	}
	if s.Spec.NodeName != "" {
		nodeName := s.Spec.NodeName
		out.Spec.NodeName = &nodeName
	}
	if s.Spec.AllNodes {
		allNodes := true
		out.Spec.AllNodes = &allNodes
	}
	if s.Spec.NodeSelector != nil {
		out.Spec.NodeSelector = s.Spec.NodeSelector.DeepCopy()
	}
	for _, d := range s.Spec.Devices {
		if d.Basic == nil {
			continue // not selectable in 1.31, see above
		}
		dev := resourceapi.Device{Name: d.Name}
		for _, a := range d.Basic.Attributes {
			if a.QuantityValue != nil {
				if dev.Capacity == nil {
					dev.Capacity = map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{}
				}
				dev.Capacity[resourceapi.QualifiedName(a.Name)] = resourceapi.DeviceCapacity{Value: a.QuantityValue.DeepCopy()}
				continue
			}
			if dev.Attributes == nil {
				dev.Attributes = map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{}
			}
			dev.Attributes[resourceapi.QualifiedName(a.Name)] = resourceapi.DeviceAttribute{
				IntValue: a.IntValue, BoolValue: a.BoolValue, StringValue: a.StringValue, VersionValue: a.VersionValue,
			}
		}
		out.Spec.Devices = append(out.Spec.Devices, dev)
	}
	return out
}

func toV1Claim(c *resource.ResourceClaim) *resourceapi.ResourceClaim {
	out := &resourceapi.ResourceClaim{ObjectMeta: *c.ObjectMeta.DeepCopy()}
	for _, r := range c.Spec.Devices.Requests {
		exactly := &resourceapi.ExactDeviceRequest{DeviceClassName: r.DeviceClassName, AllocationMode: resourceapi.DeviceAllocationMode(r.AllocationMode), Count: r.Count}
		if exactly.AllocationMode == "" {
			exactly.AllocationMode = resourceapi.DeviceAllocationModeExactCount
		}
		if exactly.AllocationMode == resourceapi.DeviceAllocationModeExactCount && exactly.Count == 0 {
			exactly.Count = 1
		}
		if r.AdminAccess {
			adminAccess := true
			exactly.AdminAccess = &adminAccess
		}
		for _, s := range r.Selectors {
			exactly.Selectors = append(exactly.Selectors, toV1Selector(s))
		}
		out.Spec.Devices.Requests = append(out.Spec.Devices.Requests, resourceapi.DeviceRequest{Name: r.Name, Exactly: exactly})
	}
	for _, con := range c.Spec.Devices.Constraints {
		nc := resourceapi.DeviceConstraint{Requests: append([]string(nil), con.Requests...)}
		if con.MatchAttribute != nil {
			a := resourceapi.FullyQualifiedName(*con.MatchAttribute)
			nc.MatchAttribute = &a
		}
		out.Spec.Devices.Constraints = append(out.Spec.Devices.Constraints, nc)
	}
	for _, cfg := range c.Spec.Devices.Config {
		out.Spec.Devices.Config = append(out.Spec.Devices.Config, resourceapi.DeviceClaimConfiguration{Requests: append([]string(nil), cfg.Requests...), DeviceConfiguration: toV1Config(cfg.DeviceConfiguration)})
	}
	return out
}

// classLister serves classes to upstream's allocator.
type classLister map[string]*resourceapi.DeviceClass

func (l classLister) List() ([]*resourceapi.DeviceClass, error) {
	var out []*resourceapi.DeviceClass
	for _, c := range l {
		out = append(out, c)
	}
	return out, nil
}

func (l classLister) Get(name string) (*resourceapi.DeviceClass, error) {
	if c, ok := l[name]; ok {
		return c, nil
	}
	return nil, &notFound{name}
}

type notFound struct{ name string }

func (e *notFound) Error() string { return "deviceclass " + e.name + " not found" }

// upstreamInputs is a scenario's inventory in v1 form.
type upstreamInputs struct {
	classes classLister
	slices  []*resourceapi.ResourceSlice
	// allocated is the set of devices in use; state refers to the same set.
	allocated sets.Set[structured.DeviceID]
	state     structured.AllocatedState
}

func toUpstream(classes []*resource.DeviceClass, slices []*resource.ResourceSlice, allocated []allocator.DeviceID) *upstreamInputs {
	in := &upstreamInputs{classes: classLister{}, allocated: sets.New[structured.DeviceID]()}
	for _, c := range classes {
		in.classes[c.Name] = toV1Class(c)
	}
	for _, s := range slices {
		in.slices = append(in.slices, toV1Slice(s))
	}
	for _, id := range allocated {
		in.allocated.Insert(structured.MakeDeviceID(id.Driver, id.Pool, id.Device))
	}
	in.state = structured.AllocatedState{AllocatedDevices: in.allocated}
	return in
}
