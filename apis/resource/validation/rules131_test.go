package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

func opaque(driver, params string) *v1alpha3.OpaqueDeviceConfiguration {
	return &v1alpha3.OpaqueDeviceConfiguration{Driver: driver, Parameters: runtime.RawExtension{Raw: []byte(params)}}
}

func celSelector(expr string) v1alpha3.DeviceSelector {
	return v1alpha3.DeviceSelector{CEL: &v1alpha3.CELDeviceSelector{Expression: expr}}
}

func a3Spec() v1alpha3.ResourceClaimSpec {
	attr := v1alpha3.FullyQualifiedName("dra.example.com/numa")
	return v1alpha3.ResourceClaimSpec{Devices: v1alpha3.DeviceClaim{
		Requests: []v1alpha3.DeviceRequest{
			{Name: "gpu", DeviceClassName: "gpu.example.com", Selectors: []v1alpha3.DeviceSelector{celSelector(`device.attributes["dra.example.com"].model == "a100"`)}},
			{Name: "nic", DeviceClassName: "nic.example.com", AllocationMode: v1alpha3.DeviceAllocationModeAll, AdminAccess: true},
		},
		Constraints: []v1alpha3.DeviceConstraint{{Requests: []string{"gpu", "nic"}, MatchAttribute: &attr}},
		Config: []v1alpha3.DeviceClaimConfiguration{{
			Requests:            []string{"gpu"},
			DeviceConfiguration: v1alpha3.DeviceConfiguration{Opaque: opaque("dra.example.com", `{"sharing":"timeSlicing"}`)},
		}},
	}}
}

func a3Claim(muts ...func(*v1alpha3.ResourceClaim)) *v1alpha3.ResourceClaim {
	c := &v1alpha3.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "claim", Namespace: "ns", ResourceVersion: "7"},
		Spec:       a3Spec(),
	}
	for _, m := range muts {
		m(c)
	}
	return c
}

func requestsA3(n int) []v1alpha3.DeviceRequest {
	out := make([]v1alpha3.DeviceRequest, n)
	for i := range out {
		out[i] = v1alpha3.DeviceRequest{Name: nodeName(i), DeviceClassName: "gpu.example.com"}
	}
	return out
}

var pod1a3 = v1alpha3.ResourceClaimConsumerReference{Resource: "pods", Name: "pod-1", UID: "uid-1"}

func a3Allocation() *v1alpha3.AllocationResult {
	return &v1alpha3.AllocationResult{
		Devices: v1alpha3.DeviceAllocationResult{
			Results: []v1alpha3.DeviceRequestAllocationResult{
				{Request: "gpu", Driver: "dra.example.com", Pool: "node-1", Device: "gpu-0"},
				{Request: "nic", Driver: "nic.example.com", Pool: "cluster/rack-1", Device: "nic-0"},
			},
			Config: []v1alpha3.DeviceAllocationConfiguration{
				{Source: v1alpha3.AllocationConfigSourceClass, DeviceConfiguration: v1alpha3.DeviceConfiguration{Opaque: opaque("dra.example.com", `{}`)}},
				{Source: v1alpha3.AllocationConfigSourceClaim, Requests: []string{"gpu"}, DeviceConfiguration: v1alpha3.DeviceConfiguration{Opaque: opaque("dra.example.com", `{"a":1}`)}},
			},
		},
		NodeSelector: nodeSelectorFor("node-1"),
	}
}

func a3Allocated(muts ...func(*v1alpha3.ResourceClaim)) *v1alpha3.ResourceClaim {
	return a3Claim(append([]func(*v1alpha3.ResourceClaim){func(c *v1alpha3.ResourceClaim) {
		c.Status = v1alpha3.ResourceClaimStatus{Allocation: a3Allocation(), ReservedFor: []v1alpha3.ResourceClaimConsumerReference{pod1a3}}
	}}, muts...)...)
}

func a3Class(muts ...func(*v1alpha3.DeviceClass)) *v1alpha3.DeviceClass {
	c := &v1alpha3.DeviceClass{
		ObjectMeta: metav1.ObjectMeta{Name: "gpu.example.com", ResourceVersion: "3", Generation: 1},
		Spec: v1alpha3.DeviceClassSpec{
			Selectors: []v1alpha3.DeviceSelector{celSelector(`device.driver == "dra.example.com"`)},
			Config:    []v1alpha3.DeviceClassConfiguration{{DeviceConfiguration: v1alpha3.DeviceConfiguration{Opaque: opaque("dra.example.com", `{"x":true}`)}}},
		},
	}
	for _, m := range muts {
		m(c)
	}
	return c
}

func a3Template(muts ...func(*v1alpha3.ResourceClaimTemplate)) *v1alpha3.ResourceClaimTemplate {
	t := &v1alpha3.ResourceClaimTemplate{
		ObjectMeta: metav1.ObjectMeta{Name: "template", Namespace: "ns", ResourceVersion: "3"},
		Spec: v1alpha3.ResourceClaimTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"example.com/note": "x"}},
			Spec:       a3Spec(),
		},
	}
	for _, m := range muts {
		m(t)
	}
	return t
}

func a3Scheduling(muts ...func(*v1alpha3.PodSchedulingContext)) *v1alpha3.PodSchedulingContext {
	s := &v1alpha3.PodSchedulingContext{
		ObjectMeta: metav1.ObjectMeta{Name: "pod-1", Namespace: "ns", ResourceVersion: "3"},
		Spec:       v1alpha3.PodSchedulingContextSpec{SelectedNode: "node-1", PotentialNodes: []string{"node-1", "node-2"}},
	}
	for _, m := range muts {
		m(s)
	}
	return s
}

func a3Slice(muts ...func(*v1alpha3.ResourceSlice)) *v1alpha3.ResourceSlice {
	s := &v1alpha3.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "node-1-dra", ResourceVersion: "3", Generation: 1},
		Spec: v1alpha3.ResourceSliceSpec{
			Driver:   "dra.example.com",
			Pool:     v1alpha3.ResourcePool{Name: "node-1", Generation: 0, ResourceSliceCount: 1},
			NodeName: "node-1",
			Devices: []v1alpha3.Device{{
				Name: "gpu-0",
				Basic: &v1alpha3.BasicDevice{
					Attributes: map[v1alpha3.QualifiedName]v1alpha3.DeviceAttribute{
						"model":                   {StringValue: ptr("a100")},
						"cores":                   {IntValue: ptr(int64(8))},
						"healthy":                 {BoolValue: ptr(true)},
						"driverVersion":           {VersionValue: ptr("1.2.3")},
						"dra.example.com/numa":    {IntValue: ptr(int64(0))},
						"other.example.com/z_one": {StringValue: ptr("z1")},
					},
					Capacity: map[v1alpha3.QualifiedName]apiresource.Quantity{"memory": apiresource.MustParse("40Gi")},
				},
			}, {Name: "gpu-1", Basic: &v1alpha3.BasicDevice{}}},
		},
	}
	for _, m := range muts {
		m(s)
	}
	return s
}

// TestV1alpha3ResourceClaim checks the 1.31 claim rules, create and update.
// It is a table of cases, longer than 80 lines for that reason: each
// case reads on its own.
func TestV1alpha3ResourceClaim(t *testing.T) {
	withRequests := func(rs ...v1alpha3.DeviceRequest) func(*v1alpha3.ResourceClaim) {
		return func(c *v1alpha3.ResourceClaim) { c.Spec.Devices = v1alpha3.DeviceClaim{Requests: rs} }
	}
	attr := func(s string) *v1alpha3.FullyQualifiedName { n := v1alpha3.FullyQualifiedName(s); return &n }
	runCases(t, []ruleCase{
		{name: "valid", obj: a3Claim()},
		{name: "no devices at all", obj: a3Claim(func(c *v1alpha3.ResourceClaim) { c.Spec = v1alpha3.ResourceClaimSpec{} })},
		{name: "controller", obj: a3Claim(func(c *v1alpha3.ResourceClaim) { c.Spec.Controller = "dra.example.com" })},
		{name: "bad controller", obj: a3Claim(func(c *v1alpha3.ResourceClaim) { c.Spec.Controller = "dra example" }),
			want: []string{"Invalid spec.controller"}},
		{name: "32 requests", obj: a3Claim(withRequests(requestsA3(32)...))},
		{name: "33 requests", obj: a3Claim(withRequests(requestsA3(33)...)), want: []string{"TooLong spec.devices.requests"}},
		{name: "request name", obj: a3Claim(withRequests(
			v1alpha3.DeviceRequest{Name: "", DeviceClassName: "c"},
			v1alpha3.DeviceRequest{Name: "gpu.0", DeviceClassName: "c"},
			v1alpha3.DeviceRequest{Name: "x", DeviceClassName: "c"},
			v1alpha3.DeviceRequest{Name: "x", DeviceClassName: "c"},
		)), want: []string{"Invalid spec.devices.requests[0].name", "Invalid spec.devices.requests[1].name", "Duplicate spec.devices.requests[3].name"}},
		{name: "deviceClassName", obj: a3Claim(withRequests(
			v1alpha3.DeviceRequest{Name: "a"},
			v1alpha3.DeviceRequest{Name: "b", DeviceClassName: "GPU"},
			v1alpha3.DeviceRequest{Name: "c", DeviceClassName: strings.Repeat("c", 64)},
		)), want: []string{"Required spec.devices.requests[0].deviceClassName", "Invalid spec.devices.requests[1].deviceClassName"}},
		{name: "allocationMode and count", obj: a3Claim(withRequests(
			v1alpha3.DeviceRequest{Name: "a", DeviceClassName: "c", Count: 0},
			v1alpha3.DeviceRequest{Name: "b", DeviceClassName: "c", Count: 3},
			v1alpha3.DeviceRequest{Name: "c", DeviceClassName: "c", Count: -1},
			v1alpha3.DeviceRequest{Name: "d", DeviceClassName: "c", AllocationMode: v1alpha3.DeviceAllocationModeAll, Count: 2},
			v1alpha3.DeviceRequest{Name: "e", DeviceClassName: "c", AllocationMode: "Some"},
			v1alpha3.DeviceRequest{Name: "f", DeviceClassName: "c", AllocationMode: v1alpha3.DeviceAllocationModeExactCount},
		)), want: []string{"Invalid spec.devices.requests[2].count", "Invalid spec.devices.requests[3].count", "NotSupported spec.devices.requests[4].allocationMode"}},
		{name: "selectors", obj: a3Claim(withRequests(v1alpha3.DeviceRequest{Name: "a", DeviceClassName: "c", Selectors: []v1alpha3.DeviceSelector{
			{}, celSelector(`device.driver == "x"`),
		}})), want: []string{"Required spec.devices.requests[0].selectors[0].cel"}},
		{name: "32 selectors", obj: a3Claim(withRequests(v1alpha3.DeviceRequest{Name: "a", DeviceClassName: "c",
			Selectors: make32Selectors(32)}))},
		{name: "33 selectors", obj: a3Claim(withRequests(v1alpha3.DeviceRequest{Name: "a", DeviceClassName: "c",
			Selectors: make32Selectors(33)})), want: []string{"TooLong spec.devices.requests[0].selectors"}},
		{name: "constraints", obj: a3Claim(func(c *v1alpha3.ResourceClaim) {
			c.Spec.Devices.Constraints = []v1alpha3.DeviceConstraint{
				{Requests: []string{"gpu", "gpu", "other", "Bad"}, MatchAttribute: attr("dra.example.com/numa")},
				{},
				{MatchAttribute: attr("numa")},
				{MatchAttribute: attr("/numa")},
				{MatchAttribute: attr("dra.example.com/")},
				{MatchAttribute: attr("dra.example.com/1numa")},
				{MatchAttribute: attr("a/b/c")},
				{MatchAttribute: attr("")},
			}
		}), want: []string{
			"Duplicate spec.devices.constraints[0].requests[1]",
			"Invalid spec.devices.constraints[0].requests[2]",
			"Invalid spec.devices.constraints[0].requests[3]",
			"Required spec.devices.constraints[1].matchAttribute",
			"Required spec.devices.constraints[2].matchAttribute.domain",
			"Required spec.devices.constraints[3].matchAttribute",
			"Required spec.devices.constraints[4].matchAttribute",
			"TypeInvalid spec.devices.constraints[5].matchAttribute",
			"Required spec.devices.constraints[7].matchAttribute",
			"Required spec.devices.constraints[7].matchAttribute.domain",
		}},
		{name: "33 constraints", obj: a3Claim(func(c *v1alpha3.ResourceClaim) {
			for len(c.Spec.Devices.Constraints) < 33 {
				c.Spec.Devices.Constraints = append(c.Spec.Devices.Constraints, c.Spec.Devices.Constraints[0])
			}
		}), want: []string{"TooLong spec.devices.constraints"}},
		{name: "config", obj: a3Claim(func(c *v1alpha3.ResourceClaim) {
			c.Spec.Devices.Config = []v1alpha3.DeviceClaimConfiguration{
				{Requests: []string{"nic", "nic", "none"}, DeviceConfiguration: v1alpha3.DeviceConfiguration{Opaque: opaque("dra.example.com", `{}`)}},
				{},
				{DeviceConfiguration: v1alpha3.DeviceConfiguration{Opaque: opaque("", `{}`)}},
				{DeviceConfiguration: v1alpha3.DeviceConfiguration{Opaque: opaque("d.example.com", ``)}},
				{DeviceConfiguration: v1alpha3.DeviceConfiguration{Opaque: opaque("d.example.com", `null`)}},
				{DeviceConfiguration: v1alpha3.DeviceConfiguration{Opaque: opaque("d.example.com", `[1]`)}},
				{DeviceConfiguration: v1alpha3.DeviceConfiguration{Opaque: opaque("d.example.com", `{"a":`)}},
				{DeviceConfiguration: v1alpha3.DeviceConfiguration{Opaque: &v1alpha3.OpaqueDeviceConfiguration{Driver: "d.example.com",
					Parameters: runtime.RawExtension{Object: &metav1.Status{Status: "x"}}}}},
			}
		}), want: []string{
			"Duplicate spec.devices.config[0].requests[1]",
			"Invalid spec.devices.config[0].requests[2]",
			"Required spec.devices.config[1].opaque",
			"Required spec.devices.config[2].opaque.driver",
			"Invalid spec.devices.config[2].opaque.driver",
			"Required spec.devices.config[3].opaque.parameters",
			"Required spec.devices.config[4].opaque.parameters",
			"Invalid spec.devices.config[5].opaque.parameters",
			"Invalid spec.devices.config[6].opaque.parameters",
		}},
		{name: "33 configs", obj: a3Claim(func(c *v1alpha3.ResourceClaim) {
			for len(c.Spec.Devices.Config) < 33 {
				c.Spec.Devices.Config = append(c.Spec.Devices.Config, c.Spec.Devices.Config[0])
			}
		}), want: []string{"TooLong spec.devices.config"}},
		{name: "33 request names in a constraint", obj: a3Claim(func(c *v1alpha3.ResourceClaim) {
			c.Spec.Devices.Requests = requestsA3(32)
			c.Spec.Devices.Constraints[0].Requests = append(repeat(32, nodeName), "node-0")
			c.Spec.Devices.Config = nil
		}), want: []string{"TooLong spec.devices.constraints[0].requests", "Duplicate spec.devices.constraints[0].requests[32]"}},
		{name: "status is dropped on create", obj: a3Claim(func(c *v1alpha3.ResourceClaim) { c.Status.DeallocationRequested = true })},

		{name: "update: spec is immutable", op: opUpdate, old: a3Claim(), obj: a3Claim(func(c *v1alpha3.ResourceClaim) {
			c.Spec.Devices.Requests[0].Count = 2
		}), want: []string{"Invalid spec"}},
		{name: "update: count defaulting is not a change", op: opUpdate,
			old: a3Claim(func(c *v1alpha3.ResourceClaim) {
				c.Spec.Devices.Requests[0].AllocationMode = v1alpha3.DeviceAllocationModeExactCount
				c.Spec.Devices.Requests[0].Count = 1
			}), obj: a3Claim()},
		{name: "update: annotations may change", op: opUpdate, old: a3Claim(), obj: a3Claim(func(c *v1alpha3.ResourceClaim) {
			c.Annotations = map[string]string{"a": "b"}
		})},
	})
}

func make32Selectors(n int) []v1alpha3.DeviceSelector {
	out := make([]v1alpha3.DeviceSelector, n)
	for i := range out {
		out[i] = celSelector("true")
	}
	return out
}

// TestV1alpha3ResourceClaimStatus checks the 1.31 status rules of a claim.
// It is a table of cases, longer than 80 lines for that reason: each
// case reads on its own.
func TestV1alpha3ResourceClaimStatus(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "allocate and reserve", op: opStatus, old: a3Claim(), obj: a3Allocated()},
		{name: "controller", op: opStatus, old: a3Claim(), obj: a3Allocated(func(c *v1alpha3.ResourceClaim) {
			c.Status.Allocation.Controller = "Bad Controller"
		}), want: []string{"Invalid status.allocation.controller"}},
		{name: "results", op: opStatus, old: a3Claim(), obj: a3Allocated(func(c *v1alpha3.ResourceClaim) {
			c.Status.Allocation.Devices.Results = append(c.Status.Allocation.Devices.Results,
				v1alpha3.DeviceRequestAllocationResult{},
				v1alpha3.DeviceRequestAllocationResult{Request: "other", Driver: "d.example.com", Pool: "a//b", Device: "Dev"},
				v1alpha3.DeviceRequestAllocationResult{Request: "gpu", Driver: "d.example.com", Pool: strings.Repeat("p", 254), Device: "d"},
				c.Status.Allocation.Devices.Results[0],
			)
		}), want: []string{
			"Invalid status.allocation.devices.results[2].request",
			"Required status.allocation.devices.results[2].driver",
			"Invalid status.allocation.devices.results[2].driver",
			"Required status.allocation.devices.results[2].pool",
			"Invalid status.allocation.devices.results[2].device",
			"Invalid status.allocation.devices.results[3].request",
			"Invalid status.allocation.devices.results[3].pool",
			"Invalid status.allocation.devices.results[3].device",
			"TooLong status.allocation.devices.results[4].pool",
			"Invalid status.allocation.devices.results[4].pool",
		}},
		{name: "33 results", op: opStatus, old: a3Claim(), obj: a3Allocated(func(c *v1alpha3.ResourceClaim) {
			for len(c.Status.Allocation.Devices.Results) < 33 {
				c.Status.Allocation.Devices.Results = append(c.Status.Allocation.Devices.Results, c.Status.Allocation.Devices.Results[0])
			}
		}), want: []string{"TooLong status.allocation.devices.results"}},
		{name: "config", op: opStatus, old: a3Claim(), obj: a3Allocated(func(c *v1alpha3.ResourceClaim) {
			c.Status.Allocation.Devices.Config = []v1alpha3.DeviceAllocationConfiguration{
				{DeviceConfiguration: v1alpha3.DeviceConfiguration{Opaque: opaque("d.example.com", `{}`)}},
				{Source: "FromSomewhere", Requests: []string{"x", "gpu", "gpu"}},
			}
		}), want: []string{
			"Required status.allocation.devices.config[0].source",
			"NotSupported status.allocation.devices.config[1].source",
			"Invalid status.allocation.devices.config[1].requests[0]",
			"Duplicate status.allocation.devices.config[1].requests[2]",
			"Required status.allocation.devices.config[1].opaque",
		}},
		{name: "64 configs", op: opStatus, old: a3Claim(), obj: a3Allocated(func(c *v1alpha3.ResourceClaim) {
			for len(c.Status.Allocation.Devices.Config) < 64 {
				c.Status.Allocation.Devices.Config = append(c.Status.Allocation.Devices.Config, c.Status.Allocation.Devices.Config[0])
			}
		})},
		{name: "65 configs", op: opStatus, old: a3Claim(), obj: a3Allocated(func(c *v1alpha3.ResourceClaim) {
			for len(c.Status.Allocation.Devices.Config) < 65 {
				c.Status.Allocation.Devices.Config = append(c.Status.Allocation.Devices.Config, c.Status.Allocation.Devices.Config[0])
			}
		}), want: []string{"TooLong status.allocation.devices.config"}},
		{name: "nodeSelector", op: opStatus, old: a3Claim(), obj: a3Allocated(func(c *v1alpha3.ResourceClaim) {
			c.Status.Allocation.NodeSelector = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
				MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: "Near"}},
			}}}
		}), want: []string{"Invalid status.allocation.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].operator"}},
		{name: "request names come from the stored spec", op: opStatus, old: a3Claim(), obj: a3Allocated(func(c *v1alpha3.ResourceClaim) {
			c.Spec.Devices.Requests[0].Name = "renamed"
		})},
		{name: "the allocation is immutable once set", op: opStatus, old: a3Allocated(), obj: a3Allocated(func(c *v1alpha3.ResourceClaim) {
			c.Status.Allocation.Devices.Results[0].Device = "gpu-1"
		}), want: []string{"Invalid status.allocation"}},
		{name: "reservedFor", op: opStatus, old: a3Claim(), obj: a3Allocated(func(c *v1alpha3.ResourceClaim) {
			c.Status.ReservedFor = append(c.Status.ReservedFor, v1alpha3.ResourceClaimConsumerReference{UID: pod1a3.UID}, v1alpha3.ResourceClaimConsumerReference{UID: "u-2"})
		}), want: []string{
			"Required status.reservedFor[1].resource", "Required status.reservedFor[1].name", "Duplicate status.reservedFor[1].uid",
			"Required status.reservedFor[2].resource", "Required status.reservedFor[2].name",
		}},
		{name: "1.31 has no shareable rule", op: opStatus, old: a3Claim(), obj: a3Allocated(func(c *v1alpha3.ResourceClaim) {
			c.Status.ReservedFor = append(c.Status.ReservedFor, v1alpha3.ResourceClaimConsumerReference{Resource: "pods", Name: "pod-2", UID: "u-2"})
		})},
		{name: "33 consumers", op: opStatus, old: a3Claim(), obj: a3Allocated(func(c *v1alpha3.ResourceClaim) {
			c.Status.ReservedFor = nil
			for i := 0; i < 33; i++ {
				c.Status.ReservedFor = append(c.Status.ReservedFor, v1alpha3.ResourceClaimConsumerReference{Resource: "pods", Name: "p", UID: types.UID(nodeName(i))})
			}
		}), want: []string{"TooLong status.reservedFor"}},
		{name: "reservedFor needs an allocation", op: opStatus, old: a3Claim(), obj: a3Claim(func(c *v1alpha3.ResourceClaim) {
			c.Status.ReservedFor = []v1alpha3.ResourceClaimConsumerReference{pod1a3}
		}), want: []string{"Forbidden status.reservedFor"}},
		{name: "no new consumer while deleting", op: opStatus,
			old: a3Allocated(func(c *v1alpha3.ResourceClaim) { c.DeletionTimestamp = &deletedAt; c.Status.ReservedFor = nil }),
			obj: a3Allocated(), want: []string{"Forbidden status.reservedFor"}},
		{name: "no new consumer while deallocating", op: opStatus,
			old: a3Allocated(func(c *v1alpha3.ResourceClaim) { c.Status.ReservedFor = nil; c.Status.DeallocationRequested = true }),
			obj: a3Allocated(func(c *v1alpha3.ResourceClaim) { c.Status.DeallocationRequested = true }), want: []string{"Forbidden status.reservedFor"}},
		{name: "request deallocation", op: opStatus,
			old: a3Allocated(func(c *v1alpha3.ResourceClaim) { c.Status.ReservedFor = nil }),
			obj: a3Allocated(func(c *v1alpha3.ResourceClaim) { c.Status.ReservedFor = nil; c.Status.DeallocationRequested = true })},
		{name: "no deallocation while reserved", op: opStatus, old: a3Allocated(),
			obj: a3Allocated(func(c *v1alpha3.ResourceClaim) { c.Status.DeallocationRequested = true }), want: []string{"Forbidden status.deallocationRequested"}},
		{name: "deallocation needs an allocation", op: opStatus, old: a3Claim(),
			obj: a3Claim(func(c *v1alpha3.ResourceClaim) { c.Status.DeallocationRequested = true }), want: []string{"Forbidden status"}},
		{name: "deallocation cannot be withdrawn", op: opStatus,
			old: a3Allocated(func(c *v1alpha3.ResourceClaim) { c.Status.ReservedFor = nil; c.Status.DeallocationRequested = true }),
			obj: a3Allocated(func(c *v1alpha3.ResourceClaim) { c.Status.ReservedFor = nil }), want: []string{"Forbidden status.deallocationRequested"}},
		{name: "deallocation completes", op: opStatus,
			old: a3Allocated(func(c *v1alpha3.ResourceClaim) { c.Status.ReservedFor = nil; c.Status.DeallocationRequested = true }),
			obj: a3Claim()},
	})
}

func TestV1alpha3DeviceClass(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "valid", obj: a3Class()},
		{name: "empty spec", obj: a3Class(func(c *v1alpha3.DeviceClass) { c.Spec = v1alpha3.DeviceClassSpec{} })},
		{name: "suitableNodes", obj: a3Class(func(c *v1alpha3.DeviceClass) { c.Spec.SuitableNodes = nodeSelectorFor("node-1") })},
		{name: "suitableNodes errors lack the spec prefix", obj: a3Class(func(c *v1alpha3.DeviceClass) { c.Spec.SuitableNodes = &corev1.NodeSelector{} }),
			want: []string{"Required suitableNodes.nodeSelectorTerms"}},
		{name: "selectors", obj: a3Class(func(c *v1alpha3.DeviceClass) {
			c.Spec.Selectors = append(make32Selectors(32), v1alpha3.DeviceSelector{})
		}), want: []string{"TooLong spec.selectors", "Required spec.selectors[32].cel"}},
		{name: "config", obj: a3Class(func(c *v1alpha3.DeviceClass) {
			for len(c.Spec.Config) < 32 {
				c.Spec.Config = append(c.Spec.Config, c.Spec.Config[0])
			}
			c.Spec.Config = append(c.Spec.Config, v1alpha3.DeviceClassConfiguration{})
			c.Spec.Config[1].Opaque = opaque("DRA_example", `"text"`)
		}), want: []string{"TooLong spec.config", "Required spec.config[32].opaque", "Invalid spec.config[1].opaque.driver", "Invalid spec.config[1].opaque.parameters"}},
		{name: "bad name", obj: a3Class(func(c *v1alpha3.DeviceClass) { c.Name = "GPU" }), want: []string{"Invalid metadata.name"}},
		{name: "negative generation is replaced", obj: a3Class(func(c *v1alpha3.DeviceClass) { c.Generation = -3 })},
		{name: "update: spec may change", op: opUpdate, old: a3Class(), obj: a3Class(func(c *v1alpha3.DeviceClass) {
			c.Spec.Selectors = append(c.Spec.Selectors, celSelector(`device.attributes["dra.example.com"].healthy`))
		})},
		{name: "update: still validated", op: opUpdate, old: a3Class(), obj: a3Class(func(c *v1alpha3.DeviceClass) {
			c.Spec.Config[0].Opaque = nil
		}), want: []string{"Required spec.config[0].opaque"}},
		{name: "update: generation is the server's", op: opUpdate, old: a3Class(), obj: a3Class(func(c *v1alpha3.DeviceClass) {
			c.Generation = 0
		})},
	})
}

func TestV1alpha3ResourceClaimTemplate(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "valid", obj: a3Template()},
		{name: "claim rules under spec.spec", obj: a3Template(func(tp *v1alpha3.ResourceClaimTemplate) {
			tp.Spec.Spec.Devices.Requests[0].DeviceClassName = ""
		}), want: []string{"Required spec.spec.devices.requests[0].deviceClassName"}},
		{name: "template metadata", obj: a3Template(func(tp *v1alpha3.ResourceClaimTemplate) {
			tp.Spec.Namespace = "ns"
			tp.Spec.Annotations = map[string]string{"-bad-": "x"}
		}), want: []string{"Forbidden spec.metadata.namespace", "Invalid spec.metadata.annotations"}},
		{name: "defaults apply to templates", obj: a3Template(func(tp *v1alpha3.ResourceClaimTemplate) {
			tp.Spec.Spec.Devices.Requests[0].AllocationMode = ""
			tp.Spec.Spec.Devices.Requests[0].Count = 0
		})},
		{name: "update: immutable", op: opUpdate, old: a3Template(), obj: a3Template(func(tp *v1alpha3.ResourceClaimTemplate) {
			tp.Spec.Spec.Devices.Requests[0].AdminAccess = true
		}), want: []string{"Invalid spec"}},
		{name: "update: labels", op: opUpdate, old: a3Template(), obj: a3Template(func(tp *v1alpha3.ResourceClaimTemplate) {
			tp.Labels = map[string]string{"a": "b"}
		})},
	})
}

func TestV1alpha3PodSchedulingContext(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "valid", obj: a3Scheduling()},
		{name: "potential nodes", obj: a3Scheduling(func(s *v1alpha3.PodSchedulingContext) {
			s.Spec.PotentialNodes = append(repeat(128, nodeName), "N", "N")
		}), want: []string{"TooLong spec.potentialNodes", "Invalid spec.potentialNodes[128]", "Invalid spec.potentialNodes[129]", "Duplicate spec.potentialNodes[129]"}},
		{name: "update", op: opUpdate, old: a3Scheduling(), obj: a3Scheduling(func(s *v1alpha3.PodSchedulingContext) {
			s.Spec.PotentialNodes = nil
		})},
		{name: "status", op: opStatus, old: a3Scheduling(), obj: a3Scheduling(func(s *v1alpha3.PodSchedulingContext) {
			s.Status.ResourceClaims = []v1alpha3.ResourceClaimSchedulingStatus{{Name: "gpu", UnsuitableNodes: []string{"node-2"}}, {UnsuitableNodes: repeat(128, nodeName)}}
		})},
		{name: "status errors", op: opStatus, old: a3Scheduling(), obj: a3Scheduling(func(s *v1alpha3.PodSchedulingContext) {
			s.Status.ResourceClaims = []v1alpha3.ResourceClaimSchedulingStatus{
				{Name: "gpu", UnsuitableNodes: []string{"N", "N"}},
				{Name: "gpu", UnsuitableNodes: repeat(129, nodeName)},
			}
		}), want: []string{
			"Invalid status.claims[0].unsuitableNodes[0]", "Invalid status.claims[0].unsuitableNodes[1]", "Duplicate status.claims[0].unsuitableNodes[1]",
			"TooLong status.claims[1].unsuitableNodes", "Duplicate status.claims[1]",
		}},
	})
}

// TestV1alpha3ResourceSlice checks the 1.31 slice rules. It is a table of cases, longer than 80 lines for that reason: each
// case reads on its own.
func TestV1alpha3ResourceSlice(t *testing.T) {
	devices := func(n int) []v1alpha3.Device {
		out := make([]v1alpha3.Device, n)
		for i := range out {
			out[i] = v1alpha3.Device{Name: nodeName(i), Basic: &v1alpha3.BasicDevice{}}
		}
		return out
	}
	manyAttributes := func(attrs, caps int) *v1alpha3.BasicDevice {
		d := &v1alpha3.BasicDevice{Attributes: map[v1alpha3.QualifiedName]v1alpha3.DeviceAttribute{}, Capacity: map[v1alpha3.QualifiedName]apiresource.Quantity{}}
		for i := 0; i < attrs; i++ {
			d.Attributes[v1alpha3.QualifiedName("a"+nodeName(i)[5:])] = v1alpha3.DeviceAttribute{BoolValue: ptr(true)}
		}
		for i := 0; i < caps; i++ {
			d.Capacity[v1alpha3.QualifiedName("c"+nodeName(i)[5:])] = apiresource.MustParse("1")
		}
		return d
	}
	attrs := func(m map[v1alpha3.QualifiedName]v1alpha3.DeviceAttribute) func(*v1alpha3.ResourceSlice) {
		return func(s *v1alpha3.ResourceSlice) {
			s.Spec.Devices = []v1alpha3.Device{{Name: "d", Basic: &v1alpha3.BasicDevice{Attributes: m}}}
		}
	}
	runCases(t, []ruleCase{
		{name: "valid", obj: a3Slice()},
		{name: "all nodes, no devices", obj: a3Slice(func(s *v1alpha3.ResourceSlice) {
			s.Spec.NodeName, s.Spec.AllNodes, s.Spec.Devices = "", true, nil
		})},
		{name: "node selector", obj: a3Slice(func(s *v1alpha3.ResourceSlice) {
			s.Spec.NodeName, s.Spec.NodeSelector = "", nodeSelectorFor("node-1")
		})},
		{name: "node selector with two terms", obj: a3Slice(func(s *v1alpha3.ResourceSlice) {
			s.Spec.NodeName, s.Spec.NodeSelector = "", nodeSelectorFor("node-1")
			s.Spec.NodeSelector.NodeSelectorTerms = append(s.Spec.NodeSelector.NodeSelectorTerms, s.Spec.NodeSelector.NodeSelectorTerms[0])
		}), want: []string{"Invalid spec.nodeSelector.nodeSelectorTerms"}},
		{name: "node selector without terms", obj: a3Slice(func(s *v1alpha3.ResourceSlice) {
			s.Spec.NodeName, s.Spec.NodeSelector = "", &corev1.NodeSelector{}
		}), want: []string{"Required spec.nodeSelector.nodeSelectorTerms", "Invalid spec.nodeSelector.nodeSelectorTerms"}},
		{name: "no node selection", obj: a3Slice(func(s *v1alpha3.ResourceSlice) { s.Spec.NodeName = "" }), want: []string{"Required spec"}},
		{name: "two node selections", obj: a3Slice(func(s *v1alpha3.ResourceSlice) { s.Spec.AllNodes = true }), want: []string{"Invalid spec"}},
		{name: "bad node name", obj: a3Slice(func(s *v1alpha3.ResourceSlice) { s.Spec.NodeName = "Node 1" }), want: []string{"Invalid spec.nodeName"}},
		{name: "driver", obj: a3Slice(func(s *v1alpha3.ResourceSlice) { s.Spec.Driver = "" }), want: []string{"Required spec.driver", "Invalid spec.driver"}},
		{name: "pool", obj: a3Slice(func(s *v1alpha3.ResourceSlice) { s.Spec.Pool = v1alpha3.ResourcePool{Generation: -1} }),
			want: []string{"Required spec.pool.name", "Invalid spec.pool.generation", "Invalid spec.pool.resourceSliceCount"}},
		{name: "pool name with parts", obj: a3Slice(func(s *v1alpha3.ResourceSlice) { s.Spec.Pool.Name = "zone-a/rack-1/node-1" })},
		{name: "bad pool names", obj: a3Slice(func(s *v1alpha3.ResourceSlice) { s.Spec.Pool.Name = "zone-a//Rack" }), want: []string{"Invalid spec.pool.name"}},
		{name: "pool name over 253 bytes", obj: a3Slice(func(s *v1alpha3.ResourceSlice) {
			s.Spec.Pool.Name = strings.Repeat("a", 200) + "/" + strings.Repeat("b", 53)
		}), want: []string{"TooLong spec.pool.name"}},
		{name: "128 devices", obj: a3Slice(func(s *v1alpha3.ResourceSlice) { s.Spec.Devices = devices(128) })},
		{name: "129 devices", obj: a3Slice(func(s *v1alpha3.ResourceSlice) { s.Spec.Devices = devices(129) }), want: []string{"TooLong spec.devices"}},
		{name: "device names and kind", obj: a3Slice(func(s *v1alpha3.ResourceSlice) {
			s.Spec.Devices = []v1alpha3.Device{{Name: "gpu.0", Basic: &v1alpha3.BasicDevice{}}, {Name: "a"}, {Name: "a", Basic: &v1alpha3.BasicDevice{}}}
		}), want: []string{"Invalid spec.devices[0].name", "Required spec.devices[1].basic", "Duplicate spec.devices[2].name"}},
		{name: "32 attributes and capacities", obj: a3Slice(func(s *v1alpha3.ResourceSlice) {
			s.Spec.Devices = []v1alpha3.Device{{Name: "d", Basic: manyAttributes(20, 12)}}
		})},
		{name: "33 attributes and capacities", obj: a3Slice(func(s *v1alpha3.ResourceSlice) {
			s.Spec.Devices = []v1alpha3.Device{{Name: "d", Basic: manyAttributes(20, 13)}}
		}), want: []string{"Invalid spec.devices[0].basic"}},
		{name: "attribute names are reported on the map", obj: a3Slice(attrs(map[v1alpha3.QualifiedName]v1alpha3.DeviceAttribute{
			"1st":               {BoolValue: ptr(true)},
			"":                  {BoolValue: ptr(true)},
			"/x":                {BoolValue: ptr(true)},
			"dra.example.com/":  {BoolValue: ptr(true)},
			"Bad_Domain/x":      {BoolValue: ptr(true)},
			"DRA.example.com/x": {BoolValue: ptr(true)},
			"a/b/c":             {BoolValue: ptr(true)},
			v1alpha3.QualifiedName(strings.Repeat("x", 33)): {BoolValue: ptr(true)},
		})), want: []string{"TypeInvalid spec.devices[0].basic.attributes", "Required spec.devices[0].basic.attributes",
			"Invalid spec.devices[0].basic.attributes", "TooLong spec.devices[0].basic.attributes"}},
		{name: "attribute domain over 63 bytes", obj: a3Slice(attrs(map[v1alpha3.QualifiedName]v1alpha3.DeviceAttribute{
			v1alpha3.QualifiedName(strings.Repeat("d", 64) + "/x"): {BoolValue: ptr(true)},
		})), want: []string{"TooLong spec.devices[0].basic.attributes"}},
		{name: "attribute domain of 63 bytes, identifier of 32", obj: a3Slice(attrs(map[v1alpha3.QualifiedName]v1alpha3.DeviceAttribute{
			v1alpha3.QualifiedName(strings.Repeat("d", 63) + "/" + strings.Repeat("x", 32)): {BoolValue: ptr(true)},
		}))},
		{name: "capacity names", obj: a3Slice(func(s *v1alpha3.ResourceSlice) {
			s.Spec.Devices = []v1alpha3.Device{{Name: "d", Basic: &v1alpha3.BasicDevice{Capacity: map[v1alpha3.QualifiedName]apiresource.Quantity{
				"mem-ory": apiresource.MustParse("1Gi"),
			}}}}
		}), want: []string{"TypeInvalid spec.devices[0].basic.capacity"}},
		{name: "attribute values", obj: a3Slice(attrs(map[v1alpha3.QualifiedName]v1alpha3.DeviceAttribute{
			"none":    {},
			"two":     {IntValue: ptr(int64(1)), BoolValue: ptr(false)},
			"str":     {StringValue: ptr(strings.Repeat("s", 65))},
			"str64":   {StringValue: ptr(strings.Repeat("s", 64))},
			"ver":     {VersionValue: ptr("v1.2.3")},
			"longver": {VersionValue: ptr("1.2.3-" + strings.Repeat("a", 60))},
		})), want: []string{
			"Required spec.devices[0].basic.attributes[none]",
			"Invalid spec.devices[0].basic.attributes[two]",
			"TooLong spec.devices[0].basic.attributes[str].string",
			"Invalid spec.devices[0].basic.attributes[ver].version",
			"TooLong spec.devices[0].basic.attributes[longver].version",
		}},
		{name: "update: devices may change", op: opUpdate, old: a3Slice(), obj: a3Slice(func(s *v1alpha3.ResourceSlice) {
			s.Spec.Devices = s.Spec.Devices[:1]
			s.Spec.Pool.Generation = 1
		})},
		{name: "update: driver, pool name and node are immutable", op: opUpdate, old: a3Slice(), obj: a3Slice(func(s *v1alpha3.ResourceSlice) {
			s.Spec.Driver = "other.example.com"
			s.Spec.Pool.Name = "node-2"
			s.Spec.NodeName = "node-2"
		}), want: []string{"Invalid spec.driver", "Invalid spec.pool.name", "Invalid spec.nodeName"}},
	})
}
