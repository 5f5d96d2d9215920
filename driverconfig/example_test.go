package driverconfig_test

import (
	"context"
	"fmt"
	"strings"

	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/driverconfig"
)

// GpuConfig is a driver's config type: apiVersion gpu.example.com/v1,
// kind GpuConfig.
type GpuConfig struct {
	metav1.TypeMeta `json:",inline"`
	Sharing         string `json:"sharing,omitempty"`
}

func (c *GpuConfig) DeepCopyObject() runtime.Object { out := *c; return &out }

// gpuRegistry is what a driver sets up once, for its webhook and its
// kubelet plugin alike.
func gpuRegistry() *driverconfig.Registry {
	scheme := runtime.NewScheme()
	scheme.AddKnownTypes(schema.GroupVersion{Group: "gpu.example.com", Version: "v1"}, &GpuConfig{})
	validate := func(_ context.Context, obj runtime.Object, path *field.Path) field.ErrorList {
		c := obj.(*GpuConfig)
		if c.Sharing != "" && c.Sharing != "TimeSlicing" {
			return field.ErrorList{field.NotSupported(path.Child("sharing"), c.Sharing, []string{"TimeSlicing"})}
		}
		return nil
	}
	reg := driverconfig.NewRegistry()
	// One decoder for both names of the driver.
	reg.MustRegister(driverconfig.NewSchemeDecoder(scheme, validate), "gpu.example.com", "vgpu.example.com")
	return reg
}

func opaque(driver, params string) resourcev1.DeviceConfiguration {
	return resourcev1.DeviceConfiguration{Opaque: &resourcev1.OpaqueDeviceConfiguration{Driver: driver, Parameters: runtime.RawExtension{Raw: []byte(params)}}}
}

// A driver registers a decoder for its config type and validates the
// configs of a claim, with each error under the config's path.
func Example() {
	reg := gpuRegistry()
	claim := &resourcev1.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "shared-gpu"},
		Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Config: []resourcev1.DeviceClaimConfiguration{
			{DeviceConfiguration: opaque("nic.example.com", `{"mtu": 9000}`)}, // another driver's: skipped
			{DeviceConfiguration: opaque("gpu.example.com", `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "MPS"}`)},
			{DeviceConfiguration: opaque("vgpu.example.com", `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharng": "TimeSlicing"}`)},
		}}},
	}
	errs, err := reg.Validate(context.Background(), claim)
	if err != nil {
		panic(err)
	}
	for _, e := range errs {
		fmt.Println(e)
	}
	// Output:
	// spec.devices.config[1].opaque.parameters.sharing: Unsupported value: "MPS": supported values: "TimeSlicing"
	// spec.devices.config[2].opaque.parameters: Invalid value: decoding the parameters of driver vgpu.example.com strictly: strict decoding error: unknown field "sharng"
}

// A kubelet plugin reads the configs of its devices in an allocated
// claim, class configs first, and decodes them.
func ExampleAllocatedConfigs() {
	reg := gpuRegistry()
	claim := &resourcev1.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"},
		Status: resourcev1.ResourceClaimStatus{Allocation: &resourcev1.AllocationResult{Devices: resourcev1.DeviceAllocationResult{
			Results: []resourcev1.DeviceRequestAllocationResult{
				{Request: "gpu/large", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"},
			},
			Config: []resourcev1.DeviceAllocationConfiguration{
				{Source: resourcev1.AllocationConfigSourceClaim, Requests: []string{"gpu"}, DeviceConfiguration: opaque("gpu.example.com", `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "TimeSlicing"}`)},
				{Source: resourcev1.AllocationConfigSourceClass, Requests: []string{"gpu/large"}, DeviceConfiguration: opaque("gpu.example.com", `{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig"}`)},
			},
		}}},
	}
	devices, warnings, err := driverconfig.AllocatedConfigs(claim, "gpu.example.com")
	if err != nil {
		panic(err)
	}
	fmt.Println("warnings:", warnings)
	for _, d := range devices {
		for _, cfg := range d.Configs {
			obj, errs := reg.Decode(context.Background(), cfg)
			fmt.Printf("%s %s: %s %q %v\n", d.Device, cfg.Source, cfg.Path, obj.(*GpuConfig).Sharing, errs)
		}
	}

	// Or in one call, decoded:
	decoded, _, err := reg.DecodeAllocated(context.Background(), claim, "gpu.example.com")
	if err != nil {
		panic(err)
	}
	for _, d := range decoded {
		fmt.Println(d.Device, d.Request, len(d.Configs), "configs, the last one wins:", d.Configs[len(d.Configs)-1].(*GpuConfig).Sharing)
	}
	// Output:
	// warnings: []
	// gpu-0 FromClass: status.allocation.devices.config[1].opaque.parameters "" []
	// gpu-0 FromClaim: status.allocation.devices.config[0].opaque.parameters "TimeSlicing" []
	// gpu-0 gpu/large 2 configs, the last one wins: TimeSlicing
}

// A driver without Go types for its configs plugs in a validator over
// the raw parameters (a schema, say); the handler and Validate treat it
// as any decoder.
func ExampleValidator() {
	reg := driverconfig.NewRegistry()
	reg.MustRegister(driverconfig.Validator(func(_ context.Context, cfg driverconfig.Config) field.ErrorList {
		if !strings.Contains(string(cfg.Parameters.Raw), `"mtu"`) {
			return field.ErrorList{field.Required(cfg.Path.Child("mtu"), "the NIC driver needs an MTU")}
		}
		return nil
	}), "nic.example.com")
	class := &resourcev1.DeviceClass{Spec: resourcev1.DeviceClassSpec{Config: []resourcev1.DeviceClassConfiguration{
		{DeviceConfiguration: opaque("nic.example.com", `{"speed": "100G"}`)},
	}}}
	errs, _ := reg.Validate(context.Background(), class)
	fmt.Println(errs)
	// Output:
	// [spec.config[0].opaque.parameters.mtu: Required value: the NIC driver needs an MTU]
}

// A kubelet plugin reads its own checkpoint, written by a newer version
// of the driver with a field this one does not know, through the
// NonStrict view: the field is ignored instead of failing the node.
func ExampleRegistry_NonStrict() {
	reg := gpuRegistry()
	cfg := driverconfig.Config{
		Driver:     "gpu.example.com",
		Parameters: runtime.RawExtension{Raw: []byte(`{"apiVersion": "gpu.example.com/v1", "kind": "GpuConfig", "sharing": "TimeSlicing", "addedLater": 1}`)},
		Path:       field.NewPath("checkpoint", "configs").Index(0),
	}
	_, strictErrs := reg.Decode(context.Background(), cfg)
	obj, errs := reg.NonStrict().Decode(context.Background(), cfg)
	fmt.Println(len(strictErrs), obj.(*GpuConfig).Sharing, len(errs))
	// Output:
	// 1 TimeSlicing 0
}
