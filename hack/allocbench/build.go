package allocbench

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/apis/resource"
)

// Small builders for hub objects (v1's shape: flat devices with attribute
// and capacity maps, `exactly` requests, pointers for a slice's nodeName
// and allNodes and for adminAccess).

func Class(name string, selectors ...string) *resource.DeviceClass {
	c := &resource.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: name}}
	for _, s := range selectors {
		c.Spec.Selectors = append(c.Spec.Selectors, CEL(s))
	}
	return c
}

func CEL(expr string) resource.DeviceSelector {
	return resource.DeviceSelector{CEL: &resource.CELDeviceSelector{Expression: expr}}
}

func Node(name string, labels map[string]string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
}

// Entry is one attribute or capacity of a device, for Device: exactly one
// of attribute and capacity is set.
type Entry struct {
	name      resource.QualifiedName
	attribute *resource.DeviceAttribute
	capacity  *resource.DeviceCapacity
}

func IntAttr(name string, v int64) Entry {
	return Entry{name: resource.QualifiedName(name), attribute: &resource.DeviceAttribute{IntValue: &v}}
}

func BoolAttr(name string, v bool) Entry {
	return Entry{name: resource.QualifiedName(name), attribute: &resource.DeviceAttribute{BoolValue: &v}}
}

func StringAttr(name, v string) Entry {
	return Entry{name: resource.QualifiedName(name), attribute: &resource.DeviceAttribute{StringValue: &v}}
}

func VersionAttr(name, v string) Entry {
	return Entry{name: resource.QualifiedName(name), attribute: &resource.DeviceAttribute{VersionValue: &v}}
}

func Capacity(name, v string) Entry {
	return Entry{name: resource.QualifiedName(name), capacity: &resource.DeviceCapacity{Value: apiresource.MustParse(v)}}
}

// Device is a device with the attributes and capacities (none: a device
// without attributes, which every selector that does not look at them
// accepts).
func Device(name string, entries ...Entry) resource.Device {
	d := resource.Device{Name: name}
	for _, e := range entries {
		switch {
		case e.attribute != nil:
			if d.Attributes == nil {
				d.Attributes = map[resource.QualifiedName]resource.DeviceAttribute{}
			}
			d.Attributes[e.name] = *e.attribute
		case e.capacity != nil:
			if d.Capacity == nil {
				d.Capacity = map[resource.QualifiedName]resource.DeviceCapacity{}
			}
			d.Capacity[e.name] = *e.capacity
		}
	}
	return d
}

// Slice is a slice alone in its pool (generation 0), reached by no node
// until OnNode, OnAllNodes or a node selector says otherwise.
func Slice(name, driver, pool string, devices []resource.Device) *resource.ResourceSlice {
	return &resource.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: resource.ResourceSliceSpec{
		Driver: driver, Pool: resource.ResourcePool{Name: pool, ResourceSliceCount: 1}, Devices: devices}}
}

// OnNode makes the slice's devices local to the node.
func OnNode(s *resource.ResourceSlice, node string) *resource.ResourceSlice {
	s.Spec.NodeName = &node
	return s
}

// OnAllNodes makes the slice's devices reachable from every node.
func OnAllNodes(s *resource.ResourceSlice) *resource.ResourceSlice {
	allNodes := true
	s.Spec.AllNodes = &allNodes
	return s
}

// RequestOpt changes the exact request Request makes.
type RequestOpt func(*resource.ExactDeviceRequest)

func Count(n int64) RequestOpt { return func(r *resource.ExactDeviceRequest) { r.Count = n } }
func All() RequestOpt {
	return func(r *resource.ExactDeviceRequest) { r.AllocationMode = resource.DeviceAllocationModeAll; r.Count = 0 }
}
func Admin() RequestOpt {
	return func(r *resource.ExactDeviceRequest) { adminAccess := true; r.AdminAccess = &adminAccess }
}
func Select(expr string) RequestOpt {
	return func(r *resource.ExactDeviceRequest) { r.Selectors = append(r.Selectors, CEL(expr)) }
}

// Request is an `exactly` request for one device of the class (ExactCount,
// count 1, as the API server defaults it), changed by opts.
func Request(name, class string, opts ...RequestOpt) resource.DeviceRequest {
	r := &resource.ExactDeviceRequest{DeviceClassName: class, AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1}
	for _, o := range opts {
		o(r)
	}
	return resource.DeviceRequest{Name: name, Exactly: r}
}

func ResourceClaim(name string, reqs ...resource.DeviceRequest) *resource.ResourceClaim {
	return &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "bench"}, Spec: resource.ResourceClaimSpec{Devices: resource.DeviceClaim{Requests: reqs}}}
}

func MatchAttribute(c *resource.ResourceClaim, attribute string, requests ...string) *resource.ResourceClaim {
	fq := resource.FullyQualifiedName(attribute)
	c.Spec.Devices.Constraints = append(c.Spec.Devices.Constraints, resource.DeviceConstraint{Requests: requests, MatchAttribute: &fq})
	return c
}

func name(format string, args ...any) string { return fmt.Sprintf(format, args...) }
