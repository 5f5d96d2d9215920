package consumer

import (
	"context"
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	fakediscovery "k8s.io/client-go/discovery/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
	ac "github.com/drakit/drakit/applyconfig/resource/v1alpha3"
	"github.com/drakit/drakit/generated/clientset/versioned/fake"
	"github.com/drakit/drakit/hubclient"
)

const (
	driver  = "gpu.example.com"
	manager = "example.com/gpu-driver"
)

// newFake is drakit's fake clientset, whose discovery serves
// resource.k8s.io/v1alpha3 as Kubernetes 1.31 did.
func newFake() *fake.Clientset {
	cs := fake.NewClientset()
	d := cs.Discovery().(*fakediscovery.FakeDiscovery)
	d.Resources = []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{{Name: "pods", Kind: "Pod", Namespaced: true}}},
		{GroupVersion: v1alpha3.SchemeGroupVersion.String(), APIResources: []metav1.APIResource{
			{Name: "deviceclasses", Kind: "DeviceClass"},
			{Name: "resourceclaims", Kind: "ResourceClaim", Namespaced: true},
			{Name: "resourceclaims/status", Kind: "ResourceClaim", Namespaced: true},
			{Name: "resourceclaimtemplates", Kind: "ResourceClaimTemplate", Namespaced: true},
			{Name: "podschedulingcontexts", Kind: "PodSchedulingContext", Namespaced: true},
			{Name: "podschedulingcontexts/status", Kind: "PodSchedulingContext", Namespaced: true},
			{Name: "resourceslices", Kind: "ResourceSlice"},
		}},
	}
	return cs
}

// TestDriver does what a driver does with drakit: it publishes a
// ResourceSlice with an apply configuration under its field manager, creates
// a DeviceClass with the clientset, and reads and writes both, and a
// ResourceClaim, as hub objects through hubclient.
func TestDriver(t *testing.T) {
	ctx := context.Background()
	cs := newFake()

	// Server-side apply of a slice through the typed client.
	slice, err := cs.ResourceV1alpha3().ResourceSlices().Apply(ctx,
		ac.ResourceSlice("node-1-gpus").WithSpec(ac.ResourceSliceSpec().
			WithDriver(driver).
			WithNodeName("node-1").
			WithPool(ac.ResourcePool().WithName("node-1").WithGeneration(1).WithResourceSliceCount(1)).
			WithDevices(ac.Device().WithName("gpu-0").WithBasic(ac.BasicDevice().
				WithAttributes(map[v1alpha3.QualifiedName]ac.DeviceAttributeApplyConfiguration{
					"model": *ac.DeviceAttribute().WithStringValue("a100"),
				}).
				WithCapacity(map[v1alpha3.QualifiedName]apiresource.Quantity{
					"memory": apiresource.MustParse("40Gi"),
				})))),
		metav1.ApplyOptions{FieldManager: manager})
	if err != nil {
		t.Fatalf("apply ResourceSlice: %v", err)
	}
	if mf := slice.ManagedFields; len(mf) != 1 || mf[0].Manager != manager || mf[0].Operation != metav1.ManagedFieldsOperationApply {
		t.Errorf("managed fields of the applied slice = %+v, want one Apply entry of %s", mf, manager)
	}

	// Create and get through the typed client.
	if _, err := cs.ResourceV1alpha3().DeviceClasses().Create(ctx, &v1alpha3.DeviceClass{
		ObjectMeta: metav1.ObjectMeta{Name: "gpu"},
		Spec: v1alpha3.DeviceClassSpec{Selectors: []v1alpha3.DeviceSelector{{
			CEL: &v1alpha3.CELDeviceSelector{Expression: `device.driver == "` + driver + `"`},
		}}},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create DeviceClass: %v", err)
	}
	if _, err := cs.ResourceV1alpha3().DeviceClasses().Get(ctx, "gpu", metav1.GetOptions{}); err != nil {
		t.Fatalf("get DeviceClass: %v", err)
	}

	// The hub client negotiates v1alpha3 and converts.
	hub, err := hubclient.New(hubclient.Clientsets{Kube: kubefake.NewClientset(), Drakit: cs}, cs.Discovery(), hubclient.Options{})
	if err != nil {
		t.Fatalf("hubclient.New: %v", err)
	}
	if v := hub.Version(); v != "v1alpha3" {
		t.Fatalf("hub client negotiated %q, want v1alpha3", v)
	}
	slices, err := hub.ResourceSlices().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("hub list ResourceSlices: %v", err)
	}
	if len(slices.Items) != 1 {
		t.Fatalf("hub listed %d ResourceSlices, want 1", len(slices.Items))
	}
	// The hub has v1's shape: a v1alpha3 device's basic attributes and
	// capacities are the device's own maps.
	dev := slices.Items[0].Spec.Devices[0]
	if len(dev.Attributes) != 1 || ptr.Deref(dev.Attributes["model"].StringValue, "") != "a100" ||
		len(dev.Capacity) != 1 || !dev.Capacity["memory"].Value.Equal(apiresource.MustParse("40Gi")) {
		t.Errorf("hub device = %+v, want attribute model=a100 and capacity memory=40Gi", dev)
	}
	class, err := hub.DeviceClasses().Get(ctx, "gpu", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("hub get DeviceClass: %v", err)
	}
	if len(class.Spec.Selectors) != 1 || class.Spec.Selectors[0].CEL == nil {
		t.Errorf("hub DeviceClass selectors = %+v, want the CEL selector", class.Spec.Selectors)
	}

	// A hub claim written through the hub client is a v1alpha3 claim in
	// the (fake) server.
	if _, err := hub.ResourceClaims("default").Create(ctx, &resource.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "claim", Namespace: "default"},
		Spec: resource.ResourceClaimSpec{Devices: resource.DeviceClaim{Requests: []resource.DeviceRequest{{
			Name: "gpu", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "gpu", AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1},
		}}}},
	}, metav1.CreateOptions{FieldManager: manager}); err != nil {
		t.Fatalf("hub create ResourceClaim: %v", err)
	}
	claims, err := cs.ResourceV1alpha3().ResourceClaims("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list ResourceClaims: %v", err)
	}
	if len(claims.Items) != 1 || len(claims.Items[0].Spec.Devices.Requests) != 1 ||
		claims.Items[0].Spec.Devices.Requests[0].DeviceClassName != "gpu" {
		t.Errorf("v1alpha3 claims = %+v, want one requesting class gpu", claims.Items)
	}
}

// TestClients builds the clientsets of both worlds from one rest.Config and
// names an allocated device as upstream's allocator does.
func TestClients(t *testing.T) {
	c, err := NewClients(&rest.Config{Host: "https://127.0.0.1:6443"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Kube == nil || c.DRA == nil {
		t.Fatalf("NewClients = %+v, want both clientsets", c)
	}
	ids := DeviceIDs(&resource.AllocationResult{Devices: resource.DeviceAllocationResult{
		Results: []resource.DeviceRequestAllocationResult{{Request: "gpu", Driver: driver, Pool: "node-1", Device: "gpu-0"}},
	}})
	if want := structured.MakeDeviceID(driver, "node-1", "gpu-0"); len(ids) != 1 || ids[0] != want {
		t.Errorf("DeviceIDs = %v, want [%v]", ids, want)
	}
}
