package allocator

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource"
)

// Builders for compact test inventories.

func class(name string, selectors ...string) *resource.DeviceClass {
	c := &resource.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: name}}
	for _, s := range selectors {
		c.Spec.Selectors = append(c.Spec.Selectors, resource.DeviceSelector{CEL: &resource.CELDeviceSelector{Expression: s}})
	}
	return c
}

func withClassConfig(c *resource.DeviceClass, driver, json string) *resource.DeviceClass {
	c.Spec.Config = append(c.Spec.Config, resource.DeviceClassConfiguration{DeviceConfiguration: opaque(driver, json)})
	return c
}

func opaque(driver, json string) resource.DeviceConfiguration {
	return resource.DeviceConfiguration{Opaque: &resource.OpaqueDeviceConfiguration{Driver: driver, Parameters: runtime.RawExtension{Raw: []byte(json)}}}
}

// attr makes an attribute from a Go value: int, bool, string, "v:1.2.3"
// for versions, apiresource.Quantity for capacities.
func attr(name string, v any) resource.DeviceAttribute {
	a := resource.DeviceAttribute{Name: resource.QualifiedName(name)}
	switch x := v.(type) {
	case int:
		n := int64(x)
		a.IntValue = &n
	case bool:
		a.BoolValue = &x
	case string:
		if strings.HasPrefix(x, "v:") {
			s := x[2:]
			a.VersionValue = &s
		} else {
			a.StringValue = &x
		}
	case apiresource.Quantity:
		a.QuantityValue = &x
	default:
		panic(fmt.Sprintf("attr %s: %T", name, v))
	}
	return a
}

func dev(name string, attrs ...resource.DeviceAttribute) resource.Device {
	return resource.Device{Name: name, Basic: &resource.BasicDevice{Attributes: attrs}}
}

// gpus makes n devices gpu0.. with a numa attribute numa(i).
func gpus(n int, numa func(i int) int) []resource.Device {
	var out []resource.Device
	for i := 0; i < n; i++ {
		out = append(out, dev(fmt.Sprintf("gpu%d", i), attr("numa", numa(i)), attr("index", i)))
	}
	return out
}

type where func(*resource.ResourceSliceSpec)

func onNode(n string) where { return func(s *resource.ResourceSliceSpec) { s.NodeName = n } }
func allNodes() where       { return func(s *resource.ResourceSliceSpec) { s.AllNodes = true } }
func selecting(key, value string) where {
	return func(s *resource.ResourceSliceSpec) {
		s.NodeSelector = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{
			Key: key, Operator: corev1.NodeSelectorOpIn, Values: []string{value}}}}}}
	}
}

// slice makes a slice of one pool that is complete with this slice alone.
func slice(name, driver, pool string, w where, devices ...resource.Device) *resource.ResourceSlice {
	return poolSlice(name, driver, pool, 0, 1, w, devices...)
}

func poolSlice(name, driver, pool string, gen, count int64, w where, devices ...resource.Device) *resource.ResourceSlice {
	s := &resource.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: resource.ResourceSliceSpec{
		Driver: driver, Pool: resource.ResourcePool{Name: pool, Generation: gen, ResourceSliceCount: count}, Devices: devices}}
	w(&s.Spec)
	return s
}

func node(name string, labels ...string) *corev1.Node {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{}}}
	for i := 0; i+1 < len(labels); i += 2 {
		n.Labels[labels[i]] = labels[i+1]
	}
	return n
}

type reqOpt func(*resource.DeviceRequest)

func count(n int64) reqOpt { return func(r *resource.DeviceRequest) { r.Count = n } }
func all() reqOpt {
	return func(r *resource.DeviceRequest) { r.AllocationMode = resource.DeviceAllocationModeAll; r.Count = 0 }
}
func admin() reqOpt { return func(r *resource.DeviceRequest) { r.AdminAccess = true } }
func sel(expr string) reqOpt {
	return func(r *resource.DeviceRequest) {
		r.Selectors = append(r.Selectors, resource.DeviceSelector{CEL: &resource.CELDeviceSelector{Expression: expr}})
	}
}

func req(name, class string, opts ...reqOpt) resource.DeviceRequest {
	r := resource.DeviceRequest{Name: name, DeviceClassName: class, AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1}
	for _, o := range opts {
		o(&r)
	}
	return r
}

func claim(name string, reqs ...resource.DeviceRequest) *resource.ResourceClaim {
	return &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}, Spec: resource.ResourceClaimSpec{Devices: resource.DeviceClaim{Requests: reqs}}}
}

func withConstraint(c *resource.ResourceClaim, attribute string, requests ...string) *resource.ResourceClaim {
	fq := resource.FullyQualifiedName(attribute)
	c.Spec.Devices.Constraints = append(c.Spec.Devices.Constraints, resource.DeviceConstraint{Requests: requests, MatchAttribute: &fq})
	return c
}

func withClaimConfig(c *resource.ResourceClaim, driver, json string, requests ...string) *resource.ResourceClaim {
	c.Spec.Devices.Config = append(c.Spec.Devices.Config, resource.DeviceClaimConfiguration{Requests: requests, DeviceConfiguration: opaque(driver, json)})
	return c
}

func allocated(name string, devices ...string) *resource.ResourceClaim {
	c := claim(name)
	c.Status.Allocation = &resource.AllocationResult{}
	for _, d := range devices {
		p := strings.Split(d, "/")
		c.Status.Allocation.Devices.Results = append(c.Status.Allocation.Devices.Results, resource.DeviceRequestAllocationResult{Request: "r", Driver: p[0], Pool: p[1], Device: p[2]})
	}
	return c
}

// devicesOf renders an allocation as "request=driver/pool/device" entries.
func devicesOf(a *resource.AllocationResult) []string {
	if a == nil {
		return nil
	}
	var out []string
	for _, r := range a.Devices.Results {
		out = append(out, r.Request+"="+r.Driver+"/"+r.Pool+"/"+r.Device)
	}
	return out
}
