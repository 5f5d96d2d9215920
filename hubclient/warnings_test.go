package hubclient

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/apis/resource"
	a2 "github.com/drakit/drakit/apis/resource/v1alpha2"
)

// recordedWarnings is a rest.WarningHandlerWithContext that keeps what it
// is given.
type recordedWarnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *recordedWarnings) HandleWarningHeaderWithContext(_ context.Context, code int, agent, message string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, agent+" "+message)
	if code != warningCode {
		w.msgs = append(w.msgs, "unexpected code")
	}
}

func (w *recordedWarnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.msgs
	w.msgs = nil
	return out
}

var _ rest.WarningHandlerWithContext = (*recordedWarnings)(nil)

// gpuSlice is a slice as a v1 driver publishes it: attribute and capacity
// names that are not v1alpha2 names (driverVersion, productName,
// gpuMemory) beside ones that are (index, memory).
func gpuSlice() *resource.ResourceSlice {
	return &resource.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "node-1-gpu"},
		Spec: resource.ResourceSliceSpec{
			Driver: "gpu.example.com", NodeName: ptr.To("node-1"),
			Pool: resource.ResourcePool{Name: "node-1", ResourceSliceCount: 1},
			Devices: []resource.Device{{
				Name: "gpu-0",
				Attributes: map[resource.QualifiedName]resource.DeviceAttribute{
					"driverVersion": {VersionValue: ptr.To("1.2.3")},
					"productName":   {StringValue: ptr.To("A100")},
					"index":         {IntValue: ptr.To[int64](0)},
				},
				Capacity: map[resource.QualifiedName]resource.DeviceCapacity{"gpuMemory": {Value: apiresource.MustParse("40Gi")}},
			}, {
				Name:       "gpu-1",
				Attributes: map[resource.QualifiedName]resource.DeviceAttribute{"index": {IntValue: ptr.To[int64](1)}},
			}},
		},
	}
}

// TestStashOnlyNamesWarn: a slice whose attribute names v1alpha2 cannot
// hold is written to a 1.30 server (the instance without them, the stash
// with them) and read back whole; every write of it warns, naming the
// slice and the names, and says that the 1.30 scheduler does not see them.
// A slice without such names, or a server of a later version, gives no
// warning.
func TestStashOnlyNamesWarn(t *testing.T) {
	cs := newFakeCluster()
	setDiscovery(cs, served130)
	warnings := &recordedWarnings{}
	c, err := New(cs.clientsets(), cs.Discovery(), Options{WarningHandler: warnings})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	slices := c.ResourceSlices()
	want := gpuSlice()
	created, err := slices.Create(ctx, want.DeepCopy(), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantWarning := []string{`drakit ResourceSlice "node-1-gpu": resource.k8s.io/v1alpha2 (Kubernetes 1.30) cannot hold the names driverVersion, gpuMemory, productName, of attributes or capacities of 1 of its devices: a 1.30 attribute name must be a lowercase RFC 1123 subdomain. They are kept in the conversion.drakit.io/stash annotation, where drakit's clients read them back, but the 1.30 scheduler does not see them; to publish them to it, name them in lowercase with '-' or '.'`}
	if d := cmp.Diff(wantWarning, warnings.take()); d != "" {
		t.Errorf("create warnings (-want +got):\n%s", d)
	}
	gvr := schema.GroupVersionResource{Group: resource.GroupName, Version: "v1alpha2", Resource: "resourceslices"}
	stored, err := cs.tracker(gvr).Get(gvr, "", "node-1-gpu")
	if err != nil {
		t.Fatal(err)
	}
	for _, inst := range stored.(*a2.ResourceSlice).NamedResources.Instances {
		for _, a := range inst.Attributes {
			if !a2.IsAttributeName(resource.QualifiedName(a.Name)) {
				t.Errorf("the stored instance %s lists %q, which the 1.30 server refuses", inst.Name, a.Name)
			}
		}
	}
	got, err := slices.Get(ctx, "node-1-gpu", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	withoutServerFields(got)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("read back (-written +read):\n%s", d)
	}
	if w := warnings.take(); len(w) != 0 {
		t.Errorf("a read warned: %q", w)
	}

	got.Spec.Devices[1].Attributes["productName"] = resource.DeviceAttribute{StringValue: ptr.To("A100")}
	got.ResourceVersion = created.ResourceVersion
	if _, err := slices.Update(ctx, got, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if w := warnings.take(); len(w) != 1 || !strings.Contains(w[0], "cannot hold the names driverVersion, gpuMemory, productName, of attributes or capacities of 2 of its devices") {
		t.Errorf("update warnings: %q", w)
	}
	if _, err := slices.Patch(ctx, "node-1-gpu", types.MergePatchType, []byte(`{"metadata":{"labels":{"a":"b"}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if w := warnings.take(); len(w) != 1 {
		t.Errorf("patch warnings: %q", w)
	}
	if _, err := slices.Apply(ctx, gpuSlice(), metav1.ApplyOptions{FieldManager: "driver", Force: true}); err != nil {
		t.Fatal(err)
	}
	if w := warnings.take(); len(w) != 1 {
		t.Errorf("apply warnings: %q", w)
	}

	plain := gpuSlice()
	plain.Name = "plain"
	plain.Spec.Devices = plain.Spec.Devices[1:]
	if _, err := slices.Create(ctx, plain, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if w := warnings.take(); len(w) != 0 {
		t.Errorf("a slice with v1alpha2 names warned: %q", w)
	}

	cs3 := newFakeCluster()
	setDiscovery(cs3, served133)
	c3, err := New(cs3.clientsets(), cs3.Discovery(), Options{WarningHandler: warnings})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c3.ResourceSlices().Create(ctx, gpuSlice(), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if w := warnings.take(); len(w) != 0 {
		t.Errorf("v1alpha3, which holds the names, warned: %q", w)
	}
}
