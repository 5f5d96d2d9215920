package allocbench

import (
	resourceapi "k8s.io/api/resource/v1beta1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/dynamic-resource-allocation/structured"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// The scenarios are written once, as drakit hub objects, and translated to
// v1beta1 for upstream's allocator. The hub mirrors v1alpha3, which has the
// same fields as v1beta1 apart from the capacity wrapper and the pointer
// for adminAccess.

func toV1beta1Class(c *resource.DeviceClass) *resourceapi.DeviceClass {
	out := &resourceapi.DeviceClass{ObjectMeta: *c.ObjectMeta.DeepCopy()}
	for _, s := range c.Spec.Selectors {
		out.Spec.Selectors = append(out.Spec.Selectors, toV1beta1Selector(s))
	}
	for _, cfg := range c.Spec.Config {
		out.Spec.Config = append(out.Spec.Config, resourceapi.DeviceClassConfiguration{DeviceConfiguration: toV1beta1Config(cfg.DeviceConfiguration)})
	}
	return out
}

func toV1beta1Selector(s resource.DeviceSelector) resourceapi.DeviceSelector {
	if s.CEL == nil {
		return resourceapi.DeviceSelector{}
	}
	return resourceapi.DeviceSelector{CEL: &resourceapi.CELDeviceSelector{Expression: s.CEL.Expression}}
}

func toV1beta1Config(c resource.DeviceConfiguration) resourceapi.DeviceConfiguration {
	if c.Opaque == nil {
		return resourceapi.DeviceConfiguration{}
	}
	return resourceapi.DeviceConfiguration{Opaque: &resourceapi.OpaqueDeviceConfiguration{Driver: c.Opaque.Driver, Parameters: *c.Opaque.Parameters.DeepCopy()}}
}

func toV1beta1Slice(s *resource.ResourceSlice) *resourceapi.ResourceSlice {
	out := &resourceapi.ResourceSlice{ObjectMeta: *s.ObjectMeta.DeepCopy()}
	out.Spec = resourceapi.ResourceSliceSpec{
		Driver:   s.Spec.Driver,
		Pool:     resourceapi.ResourcePool{Name: s.Spec.Pool.Name, Generation: s.Spec.Pool.Generation, ResourceSliceCount: s.Spec.Pool.ResourceSliceCount},
		NodeName: s.Spec.NodeName,
		AllNodes: s.Spec.AllNodes,
	}
	if s.Spec.NodeSelector != nil {
		out.Spec.NodeSelector = s.Spec.NodeSelector.DeepCopy()
	}
	for _, d := range s.Spec.Devices {
		dev := resourceapi.Device{Name: d.Name}
		if d.Basic != nil {
			dev.Basic = &resourceapi.BasicDevice{}
			for _, a := range d.Basic.Attributes {
				if a.QuantityValue != nil {
					if dev.Basic.Capacity == nil {
						dev.Basic.Capacity = map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{}
					}
					dev.Basic.Capacity[resourceapi.QualifiedName(a.Name)] = resourceapi.DeviceCapacity{Value: a.QuantityValue.DeepCopy()}
					continue
				}
				if dev.Basic.Attributes == nil {
					dev.Basic.Attributes = map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{}
				}
				dev.Basic.Attributes[resourceapi.QualifiedName(a.Name)] = resourceapi.DeviceAttribute{
					IntValue: a.IntValue, BoolValue: a.BoolValue, StringValue: a.StringValue, VersionValue: a.VersionValue,
				}
			}
		}
		out.Spec.Devices = append(out.Spec.Devices, dev)
	}
	return out
}

func toV1beta1Claim(c *resource.ResourceClaim) *resourceapi.ResourceClaim {
	out := &resourceapi.ResourceClaim{ObjectMeta: *c.ObjectMeta.DeepCopy()}
	for _, r := range c.Spec.Devices.Requests {
		req := resourceapi.DeviceRequest{Name: r.Name, DeviceClassName: r.DeviceClassName, AllocationMode: resourceapi.DeviceAllocationMode(r.AllocationMode), Count: r.Count}
		if req.AllocationMode == "" {
			req.AllocationMode = resourceapi.DeviceAllocationModeExactCount
		}
		if req.AllocationMode == resourceapi.DeviceAllocationModeExactCount && req.Count == 0 {
			req.Count = 1
		}
		if r.AdminAccess {
			t := true
			req.AdminAccess = &t
		}
		for _, s := range r.Selectors {
			req.Selectors = append(req.Selectors, toV1beta1Selector(s))
		}
		out.Spec.Devices.Requests = append(out.Spec.Devices.Requests, req)
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
		out.Spec.Devices.Config = append(out.Spec.Devices.Config, resourceapi.DeviceClaimConfiguration{Requests: append([]string(nil), cfg.Requests...), DeviceConfiguration: toV1beta1Config(cfg.DeviceConfiguration)})
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

// upstreamInputs is a scenario's inventory in v1beta1 form.
type upstreamInputs struct {
	classes   classLister
	slices    []*resourceapi.ResourceSlice
	allocated sets.Set[structured.DeviceID]
}

func toUpstream(classes []*resource.DeviceClass, slices []*resource.ResourceSlice, allocated []allocator.DeviceID) *upstreamInputs {
	in := &upstreamInputs{classes: classLister{}, allocated: sets.New[structured.DeviceID]()}
	for _, c := range classes {
		in.classes[c.Name] = toV1beta1Class(c)
	}
	for _, s := range slices {
		in.slices = append(in.slices, toV1beta1Slice(s))
	}
	for _, id := range allocated {
		in.allocated.Insert(structured.MakeDeviceID(id.Driver, id.Pool, id.Device))
	}
	return in
}

var upstreamFeatures = structured.Features{AdminAccess: true}
