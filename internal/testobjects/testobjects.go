// Package testobjects builds hub objects (package apis/resource) for tests:
// compact inventories of classes, slices and nodes, and the claims to
// allocate from them. The builders set only what their arguments say, so
// that a test's inventory reads like a table. Only tests use this package.
package testobjects

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource"
)

// ClaimNamespace is the namespace of the claims Claim and Allocated make.
const ClaimNamespace = "ns"

// Class makes a DeviceClass with one CEL selector per expression.
func Class(name string, selectors ...string) *resource.DeviceClass {
	c := &resource.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: name}}
	for _, s := range selectors {
		c.Spec.Selectors = append(c.Spec.Selectors, resource.DeviceSelector{CEL: &resource.CELDeviceSelector{Expression: s}})
	}
	return c
}

// WithClassConfig adds opaque configuration for driver to the class.
func WithClassConfig(c *resource.DeviceClass, driver, json string) *resource.DeviceClass {
	c.Spec.Config = append(c.Spec.Config, resource.DeviceClassConfiguration{DeviceConfiguration: Opaque(driver, json)})
	return c
}

// Opaque is opaque configuration for driver with json as its parameters.
func Opaque(driver, json string) resource.DeviceConfiguration {
	return resource.DeviceConfiguration{Opaque: &resource.OpaqueDeviceConfiguration{Driver: driver, Parameters: runtime.RawExtension{Raw: []byte(json)}}}
}

// Entry is one named attribute or capacity of a device, for Device.
// Exactly one of Attribute and Capacity is set.
type Entry struct {
	Name      resource.QualifiedName
	Attribute *resource.DeviceAttribute
	Capacity  *resource.DeviceCapacity
}

// Attr makes an attribute from a Go value: an int or int64, a bool, a
// string ("v:1.2.3" for the version 1.2.3), an []int64 or a []string (a
// list attribute), or an apiresource.Quantity for a capacity. Any other
// type panics.
func Attr(name string, v any) Entry {
	e := Entry{Name: resource.QualifiedName(name)}
	var a resource.DeviceAttribute
	switch x := v.(type) {
	case int:
		n := int64(x)
		a.IntValue = &n
	case int64:
		a.IntValue = &x
	case bool:
		a.BoolValue = &x
	case string:
		if version, ok := strings.CutPrefix(x, "v:"); ok {
			a.VersionValue = &version
		} else {
			a.StringValue = &x
		}
	case []int64:
		a.IntValues = append([]int64{}, x...)
	case []string:
		a.StringValues = append([]string{}, x...)
	case apiresource.Quantity:
		e.Capacity = &resource.DeviceCapacity{Value: x}
		return e
	default:
		panic(fmt.Sprintf("testobjects.Attr %s: %T is not an attribute type", name, v))
	}
	e.Attribute = &a
	return e
}

// Device makes a device with the attributes and capacities; a later entry
// replaces an earlier one of the same name.
func Device(name string, entries ...Entry) resource.Device {
	d := resource.Device{Name: name}
	for _, e := range entries {
		switch {
		case e.Attribute != nil:
			if d.Attributes == nil {
				d.Attributes = map[resource.QualifiedName]resource.DeviceAttribute{}
			}
			d.Attributes[e.Name] = *e.Attribute
		case e.Capacity != nil:
			if d.Capacity == nil {
				d.Capacity = map[resource.QualifiedName]resource.DeviceCapacity{}
			}
			d.Capacity[e.Name] = *e.Capacity
		}
	}
	return d
}

// GPUs makes n devices gpu0, gpu1, ... with the attributes numa, numa(i),
// and index, i.
func GPUs(n int, numa func(i int) int) []resource.Device {
	var out []resource.Device
	for i := 0; i < n; i++ {
		out = append(out, Device(fmt.Sprintf("gpu%d", i), Attr("numa", numa(i)), Attr("index", i)))
	}
	return out
}

// Where says which nodes reach a slice.
type Where func(*resource.ResourceSliceSpec)

// OnNode: the slice's devices are local to the node.
func OnNode(name string) Where { return func(s *resource.ResourceSliceSpec) { s.NodeName = &name } }

// AllNodes: every node reaches the slice's devices.
func AllNodes() Where {
	return func(s *resource.ResourceSliceSpec) { t := true; s.AllNodes = &t }
}

// Selecting: the nodes whose label key has the value reach the slice's
// devices (one term, one In requirement).
func Selecting(key, value string) Where {
	return func(s *resource.ResourceSliceSpec) {
		s.NodeSelector = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{
			Key: key, Operator: corev1.NodeSelectorOpIn, Values: []string{value}}}}}}
	}
}

// Slice makes a slice that is the whole of its pool (generation 0, one
// slice).
func Slice(name, driver, pool string, w Where, devices ...resource.Device) *resource.ResourceSlice {
	return PoolSlice(name, driver, pool, 0, 1, w, devices...)
}

// PoolSlice makes one of count slices of a pool's generation.
func PoolSlice(name, driver, pool string, generation, count int64, w Where, devices ...resource.Device) *resource.ResourceSlice {
	s := &resource.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: resource.ResourceSliceSpec{
		Driver: driver, Pool: resource.ResourcePool{Name: pool, Generation: generation, ResourceSliceCount: count}, Devices: devices}}
	w(&s.Spec)
	return s
}

// Node makes a node with labels given as key, value, key, value, ...
func Node(name string, labels ...string) *corev1.Node {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{}}}
	for i := 0; i+1 < len(labels); i += 2 {
		n.Labels[labels[i]] = labels[i+1]
	}
	return n
}

// RequestOption changes the exact request made by Request.
type RequestOption func(*resource.ExactDeviceRequest)

// Count asks for n devices.
func Count(n int64) RequestOption { return func(r *resource.ExactDeviceRequest) { r.Count = n } }

// All asks for all matching devices.
func All() RequestOption {
	return func(r *resource.ExactDeviceRequest) { r.AllocationMode = resource.DeviceAllocationModeAll; r.Count = 0 }
}

// Admin asks for admin access.
func Admin() RequestOption {
	return func(r *resource.ExactDeviceRequest) { t := true; r.AdminAccess = &t }
}

// Selector adds a CEL selector.
func Selector(expr string) RequestOption {
	return func(r *resource.ExactDeviceRequest) {
		r.Selectors = append(r.Selectors, resource.DeviceSelector{CEL: &resource.CELDeviceSelector{Expression: expr}})
	}
}

// Request makes a request (`exactly`) for one device of the class
// (ExactCount, count 1, as the API server defaults it), changed by opts.
func Request(name, class string, opts ...RequestOption) resource.DeviceRequest {
	r := &resource.ExactDeviceRequest{DeviceClassName: class, AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1}
	for _, o := range opts {
		o(r)
	}
	return resource.DeviceRequest{Name: name, Exactly: r}
}

// Claim makes a claim in ClaimNamespace with the requests.
func Claim(name string, reqs ...resource.DeviceRequest) *resource.ResourceClaim {
	return &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ClaimNamespace}, Spec: resource.ResourceClaimSpec{Devices: resource.DeviceClaim{Requests: reqs}}}
}

// WithConstraint adds a matchAttribute constraint over the requests (all
// when none are named).
func WithConstraint(c *resource.ResourceClaim, attribute string, requests ...string) *resource.ResourceClaim {
	fq := resource.FullyQualifiedName(attribute)
	c.Spec.Devices.Constraints = append(c.Spec.Devices.Constraints, resource.DeviceConstraint{Requests: requests, MatchAttribute: &fq})
	return c
}

// WithClaimConfig adds opaque configuration for driver, for the requests
// (all when none are named).
func WithClaimConfig(c *resource.ResourceClaim, driver, json string, requests ...string) *resource.ResourceClaim {
	c.Spec.Devices.Config = append(c.Spec.Devices.Config, resource.DeviceClaimConfiguration{Requests: requests, DeviceConfiguration: Opaque(driver, json)})
	return c
}

// Allocated makes a claim without requests that holds the devices, given
// as "driver/pool/device", for a request named "r".
func Allocated(name string, devices ...string) *resource.ResourceClaim {
	c := Claim(name)
	c.Status.Allocation = Allocation("r", devices...)
	return c
}

// Allocation makes an allocation of the devices, given as
// "driver/pool/device", all for the request.
func Allocation(request string, devices ...string) *resource.AllocationResult {
	a := &resource.AllocationResult{}
	for _, d := range devices {
		p := strings.Split(d, "/")
		a.Devices.Results = append(a.Devices.Results, resource.DeviceRequestAllocationResult{Request: request, Driver: p[0], Pool: p[1], Device: p[2]})
	}
	return a
}

// NodeNameSelector selects the node by name (matchFields metadata.name),
// as an allocation of node-local devices does.
func NodeNameSelector(node string) *corev1.NodeSelector {
	return &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{
		Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{node}}}}}}
}

// Results renders an allocation's devices as "request=driver/pool/device".
func Results(a *resource.AllocationResult) []string {
	if a == nil {
		return nil
	}
	var out []string
	for _, r := range a.Devices.Results {
		out = append(out, r.Request+"="+r.Driver+"/"+r.Pool+"/"+r.Device)
	}
	return out
}
