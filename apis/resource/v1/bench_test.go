package v1_test

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	resourcev1beta2 "k8s.io/api/resource/v1beta2"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/v1"
	"github.com/drakit/drakit/apis/resource/v1beta2"
)

// BenchmarkV1beta2ToV1 measures v1beta2 -> hub -> v1, the path the
// conversion package takes between the two wire-identical versions, for a
// large ResourceSlice and a large ResourceClaim, against a deep copy of the
// input (the target is 1.1x): through the generated functions directly and
// through a scheme, as apimachinery callers do.
func BenchmarkV1beta2ToV1(b *testing.B) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{hub.AddToScheme, v1.AddToScheme, v1beta2.AddToScheme} {
		if err := add(scheme); err != nil {
			b.Fatal(err)
		}
	}
	slice, claim := largeV1beta2Slice(), largeV1beta2Claim()

	b.Run("ResourceSlice/deepcopy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = slice.DeepCopy()
		}
	})
	b.Run("ResourceSlice/functions", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var h hub.ResourceSlice
			var out resourcev1.ResourceSlice
			if err := v1beta2.Convert_v1beta2_ResourceSlice_To_resource_ResourceSlice(slice, &h, nil); err != nil {
				b.Fatal(err)
			}
			if err := v1.Convert_resource_ResourceSlice_To_v1_ResourceSlice(&h, &out, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ResourceSlice/scheme", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var h hub.ResourceSlice
			var out resourcev1.ResourceSlice
			if err := scheme.Convert(slice, &h, nil); err != nil {
				b.Fatal(err)
			}
			if err := scheme.Convert(&h, &out, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ResourceClaim/deepcopy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = claim.DeepCopy()
		}
	})
	b.Run("ResourceClaim/functions", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var h hub.ResourceClaim
			var out resourcev1.ResourceClaim
			if err := v1beta2.Convert_v1beta2_ResourceClaim_To_resource_ResourceClaim(claim, &h, nil); err != nil {
				b.Fatal(err)
			}
			if err := v1.Convert_resource_ResourceClaim_To_v1_ResourceClaim(&h, &out, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ResourceClaim/scheme", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var h hub.ResourceClaim
			var out resourcev1.ResourceClaim
			if err := scheme.Convert(claim, &h, nil); err != nil {
				b.Fatal(err)
			}
			if err := scheme.Convert(&h, &out, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func bptr[T any](v T) *T { return &v }

// largeV1beta2Slice is a full slice of a partitionable GPU driver: 128
// devices (the most a slice may hold) with 16 attributes, 8 capacities,
// counter consumption and a taint each.
func largeV1beta2Slice() *resourcev1beta2.ResourceSlice {
	s := &resourcev1beta2.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "node-1-gpu.example.com-abcde", Labels: map[string]string{"a": "b"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: "node-1", UID: "uid"}}},
		Spec: resourcev1beta2.ResourceSliceSpec{Driver: "gpu.example.com", Pool: resourcev1beta2.ResourcePool{Name: "node-1", Generation: 3, ResourceSliceCount: 1},
			NodeName: bptr("node-1")},
	}
	for i := range 128 {
		d := resourcev1beta2.Device{Name: fmt.Sprintf("gpu-%d", i),
			Attributes: map[resourcev1beta2.QualifiedName]resourcev1beta2.DeviceAttribute{},
			Capacity:   map[resourcev1beta2.QualifiedName]resourcev1beta2.DeviceCapacity{},
			ConsumesCounters: []resourcev1beta2.DeviceCounterConsumption{{CounterSet: "gpu-0-counters", Counters: map[string]resourcev1beta2.Counter{
				"memory": {Value: apiresource.MustParse("40Gi")}, "sm": {Value: apiresource.MustParse("98")}}}},
			Taints: []resourcev1beta2.DeviceTaint{{Key: "example.com/unhealthy", Value: "ecc", Effect: resourcev1beta2.DeviceTaintEffectNoSchedule,
				TimeAdded: &metav1.Time{}}},
		}
		for j := range 16 {
			name := resourcev1beta2.QualifiedName(fmt.Sprintf("gpu.example.com/attr%d", j))
			switch j % 4 {
			case 0:
				d.Attributes[name] = resourcev1beta2.DeviceAttribute{IntValue: bptr(int64(j))}
			case 1:
				d.Attributes[name] = resourcev1beta2.DeviceAttribute{BoolValue: bptr(true)}
			case 2:
				d.Attributes[name] = resourcev1beta2.DeviceAttribute{StringValue: bptr("some-model-name")}
			default:
				d.Attributes[name] = resourcev1beta2.DeviceAttribute{VersionValue: bptr("1.2.3")}
			}
		}
		for j := range 8 {
			d.Capacity[resourcev1beta2.QualifiedName(fmt.Sprintf("cap%d", j))] = resourcev1beta2.DeviceCapacity{Value: apiresource.MustParse("80Gi")}
		}
		s.Spec.Devices = append(s.Spec.Devices, d)
	}
	return s
}

// largeV1beta2Claim is an allocated claim with 32 requests (the most a
// claim may have), constraints, config, 32 results, reservations and a
// device status per result.
func largeV1beta2Claim() *resourcev1beta2.ResourceClaim {
	raw := runtime.RawExtension{Raw: []byte(`{"apiVersion":"gpu.example.com/v1","kind":"GPUConfig","sharing":{"strategy":"TimeSlicing"}}`)}
	c := &resourcev1beta2.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: "claim", Namespace: "ns", Annotations: map[string]string{"a": "b"}}}
	alloc := &resourcev1beta2.AllocationResult{NodeSelector: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
		MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"node-1"}}}}}}}
	for i := range 32 {
		name := fmt.Sprintf("req-%d", i)
		c.Spec.Devices.Requests = append(c.Spec.Devices.Requests, resourcev1beta2.DeviceRequest{Name: name, Exactly: &resourcev1beta2.ExactDeviceRequest{
			DeviceClassName: "gpu.example.com", AllocationMode: resourcev1beta2.DeviceAllocationModeExactCount, Count: 1,
			Selectors: []resourcev1beta2.DeviceSelector{
				{CEL: &resourcev1beta2.CELDeviceSelector{Expression: `device.attributes["gpu.example.com"].model == "some-model-name"`}},
				{CEL: &resourcev1beta2.CELDeviceSelector{Expression: `device.capacity["gpu.example.com"].cap0.compareTo(quantity("40Gi")) >= 0`}},
			},
			Tolerations: []resourcev1beta2.DeviceToleration{{Key: "example.com/unhealthy", Operator: resourcev1beta2.DeviceTolerationOpExists}},
		}})
		alloc.Devices.Results = append(alloc.Devices.Results, resourcev1beta2.DeviceRequestAllocationResult{
			Request: name, Driver: "gpu.example.com", Pool: "node-1", Device: fmt.Sprintf("gpu-%d", i),
			Tolerations: []resourcev1beta2.DeviceToleration{{Key: "example.com/unhealthy", Operator: resourcev1beta2.DeviceTolerationOpExists}},
		})
		c.Status.Devices = append(c.Status.Devices, resourcev1beta2.AllocatedDeviceStatus{Driver: "gpu.example.com", Pool: "node-1",
			Device: fmt.Sprintf("gpu-%d", i), Conditions: []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Prepared"}},
			NetworkData: &resourcev1beta2.NetworkDeviceData{InterfaceName: "eth1", IPs: []string{"10.0.0.1/24"}}})
	}
	for i := range 4 {
		c.Spec.Devices.Constraints = append(c.Spec.Devices.Constraints, resourcev1beta2.DeviceConstraint{
			Requests: []string{"req-0", "req-1"}, MatchAttribute: bptr(resourcev1beta2.FullyQualifiedName("gpu.example.com/numa"))})
		cfg := resourcev1beta2.DeviceConfiguration{Opaque: &resourcev1beta2.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: raw}}
		c.Spec.Devices.Config = append(c.Spec.Devices.Config, resourcev1beta2.DeviceClaimConfiguration{Requests: []string{fmt.Sprintf("req-%d", i)}, DeviceConfiguration: cfg})
		alloc.Devices.Config = append(alloc.Devices.Config, resourcev1beta2.DeviceAllocationConfiguration{Source: resourcev1beta2.AllocationConfigSourceClaim,
			Requests: []string{fmt.Sprintf("req-%d", i)}, DeviceConfiguration: cfg})
		c.Status.ReservedFor = append(c.Status.ReservedFor, resourcev1beta2.ResourceClaimConsumerReference{Resource: "pods",
			Name: fmt.Sprintf("pod-%d", i), UID: types.UID(fmt.Sprintf("uid-%d", i))})
	}
	c.Status.Allocation = alloc
	return c
}
