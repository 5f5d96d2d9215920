package allocbench

import (
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/apis/resource"
)

// Builders for the fields of the 1.32+ features (partitionable devices,
// taints, consumable capacity, prioritized lists, binding conditions).

// CounterSlice is a slice that only publishes counter sets for its pool
// (1.35+: counters live in slices of their own), reached by the node.
func CounterSlice(name, driver, pool, node string, sets ...resource.CounterSet) *resource.ResourceSlice {
	s := &resource.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: resource.ResourceSliceSpec{
		Driver: driver, Pool: resource.ResourcePool{Name: pool, ResourceSliceCount: 1}, SharedCounters: sets}}
	return OnNode(s, node)
}

// Counters is a counter set; values are given as name, quantity pairs.
func Counters(set string, kv ...string) resource.CounterSet {
	return resource.CounterSet{Name: set, Counters: counterMap(kv)}
}

func counterMap(kv []string) map[string]resource.Counter {
	m := map[string]resource.Counter{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = resource.Counter{Value: apiresource.MustParse(kv[i+1])}
	}
	return m
}

// Consumes makes the device consume counters (name, quantity pairs) of a
// counter set of its pool.
func Consumes(d resource.Device, set string, kv ...string) resource.Device {
	d.ConsumesCounters = append(d.ConsumesCounters, resource.DeviceCounterConsumption{CounterSet: set, Counters: counterMap(kv)})
	return d
}

// Taint adds a taint to the device.
func Taint(d resource.Device, key, value string, effect resource.DeviceTaintEffect) resource.Device {
	d.Taints = append(d.Taints, resource.DeviceTaint{Key: key, Value: value, Effect: effect})
	return d
}

// Shared lets the device be allocated many times (allowMultipleAllocations).
func Shared(d resource.Device) resource.Device {
	on := true
	d.AllowMultipleAllocations = &on
	return d
}

// Policy sets the request policy of one of the device's capacities.
func Policy(d resource.Device, name string, p *resource.CapacityRequestPolicy) resource.Device {
	c := d.Capacity[resource.QualifiedName(name)]
	c.RequestPolicy = p
	d.Capacity[resource.QualifiedName(name)] = c
	return d
}

// RangePolicy is a request policy with a default and a range (max may be
// "" for none, step too).
func RangePolicy(def, min, max, step string) *resource.CapacityRequestPolicy {
	p := &resource.CapacityRequestPolicy{Default: quantity(def), ValidRange: &resource.CapacityRequestPolicyRange{Min: quantity(min)}}
	p.ValidRange.Max, p.ValidRange.Step = quantity(max), quantity(step)
	return p
}

// ValuesPolicy is a request policy with a default and valid values.
func ValuesPolicy(def string, values ...string) *resource.CapacityRequestPolicy {
	p := &resource.CapacityRequestPolicy{Default: quantity(def)}
	for _, v := range values {
		p.ValidValues = append(p.ValidValues, apiresource.MustParse(v))
	}
	return p
}

func quantity(s string) *apiresource.Quantity {
	if s == "" {
		return nil
	}
	q := apiresource.MustParse(s)
	return &q
}

// Binding gives the device binding conditions, and bindsToNode when asked.
func Binding(d resource.Device, bindsToNode bool) resource.Device {
	d.BindingConditions, d.BindingFailureConditions = []string{"ready"}, []string{"failed"}
	if bindsToNode {
		d.BindsToNode = &bindsToNode
	}
	return d
}

// Tolerate adds tolerations to an exact request.
func Tolerate(t ...resource.DeviceToleration) RequestOpt {
	return func(r *resource.ExactDeviceRequest) { r.Tolerations = append(r.Tolerations, t...) }
}

// Toleration tolerates key (any value, when value is "") with the effect
// ("" for any).
func Toleration(key, value string, effect resource.DeviceTaintEffect) resource.DeviceToleration {
	if value == "" {
		return resource.DeviceToleration{Key: key, Operator: resource.DeviceTolerationOpExists, Effect: effect}
	}
	return resource.DeviceToleration{Key: key, Operator: resource.DeviceTolerationOpEqual, Value: value, Effect: effect}
}

// CapacityRequest asks for capacity (name, quantity pairs) of each device.
func CapacityRequest(kv ...string) RequestOpt {
	return func(r *resource.ExactDeviceRequest) { r.Capacity = capacityRequirements(kv) }
}

func capacityRequirements(kv []string) *resource.CapacityRequirements {
	c := &resource.CapacityRequirements{Requests: map[resource.QualifiedName]apiresource.Quantity{}}
	for i := 0; i+1 < len(kv); i += 2 {
		c.Requests[resource.QualifiedName(kv[i])] = apiresource.MustParse(kv[i+1])
	}
	return c
}

// Sub is an alternative of a firstAvailable request, built like Request
// (adminAccess has no place in an alternative and is dropped).
func Sub(name, class string, opts ...RequestOpt) resource.DeviceSubRequest {
	e := Request(name, class, opts...).Exactly
	return resource.DeviceSubRequest{Name: name, DeviceClassName: e.DeviceClassName, Selectors: e.Selectors, AllocationMode: e.AllocationMode,
		Count: e.Count, Tolerations: e.Tolerations, Capacity: e.Capacity}
}

// FirstAvailable is a request for the first alternative that can be
// allocated.
func FirstAvailable(name string, subs ...resource.DeviceSubRequest) resource.DeviceRequest {
	return resource.DeviceRequest{Name: name, FirstAvailable: subs}
}

// DistinctAttribute constrains the requests (all when none) to devices
// with pairwise different values of the attribute.
func DistinctAttribute(c *resource.ResourceClaim, attribute string, requests ...string) *resource.ResourceClaim {
	fq := resource.FullyQualifiedName(attribute)
	c.Spec.Devices.Constraints = append(c.Spec.Devices.Constraints, resource.DeviceConstraint{Requests: requests, DistinctAttribute: &fq})
	return c
}

// TaintRule is a DeviceTaintRule for the devices of driver, pool and
// device ("" for any).
func TaintRule(name, driver, pool, device string, taint resource.DeviceTaint) *resource.DeviceTaintRule {
	sel := &resource.DeviceTaintSelector{}
	if driver != "" {
		sel.Driver = &driver
	}
	if pool != "" {
		sel.Pool = &pool
	}
	if device != "" {
		sel.Device = &device
	}
	return &resource.DeviceTaintRule{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: resource.DeviceTaintRuleSpec{DeviceSelector: sel, Taint: taint}}
}
