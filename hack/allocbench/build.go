package allocbench

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/apis/resource"
)

// Small builders for hub objects.

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

func IntAttr(name string, v int64) resource.DeviceAttribute {
	return resource.DeviceAttribute{Name: resource.QualifiedName(name), IntValue: &v}
}

func BoolAttr(name string, v bool) resource.DeviceAttribute {
	return resource.DeviceAttribute{Name: resource.QualifiedName(name), BoolValue: &v}
}

func StringAttr(name, v string) resource.DeviceAttribute {
	return resource.DeviceAttribute{Name: resource.QualifiedName(name), StringValue: &v}
}

func VersionAttr(name, v string) resource.DeviceAttribute {
	return resource.DeviceAttribute{Name: resource.QualifiedName(name), VersionValue: &v}
}

func Capacity(name, v string) resource.DeviceAttribute {
	q := apiresource.MustParse(v)
	return resource.DeviceAttribute{Name: resource.QualifiedName(name), QuantityValue: &q}
}

func Device(name string, attrs ...resource.DeviceAttribute) resource.Device {
	return resource.Device{Name: name, Basic: &resource.BasicDevice{Attributes: attrs}}
}

// Slice is a slice alone in its pool (generation 0).
func Slice(name, driver, pool string, devices []resource.Device) *resource.ResourceSlice {
	return &resource.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: resource.ResourceSliceSpec{
		Driver: driver, Pool: resource.ResourcePool{Name: pool, ResourceSliceCount: 1}, Devices: devices}}
}

type RequestOpt func(*resource.DeviceRequest)

func Count(n int64) RequestOpt { return func(r *resource.DeviceRequest) { r.Count = n } }
func All() RequestOpt {
	return func(r *resource.DeviceRequest) { r.AllocationMode = resource.DeviceAllocationModeAll; r.Count = 0 }
}
func Admin() RequestOpt { return func(r *resource.DeviceRequest) { r.AdminAccess = true } }
func Select(expr string) RequestOpt {
	return func(r *resource.DeviceRequest) { r.Selectors = append(r.Selectors, CEL(expr)) }
}

func Request(name, class string, opts ...RequestOpt) resource.DeviceRequest {
	r := resource.DeviceRequest{Name: name, DeviceClassName: class, AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1}
	for _, o := range opts {
		o(&r)
	}
	return r
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
