package hubclient

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	fakediscovery "k8s.io/client-go/discovery/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/apis/resource"
	a2 "github.com/drakit/drakit/apis/resource/v1alpha2"
	a3 "github.com/drakit/drakit/apis/resource/v1alpha3"
)

// Discovery documents of the releases: what each version lists.
var (
	served126 = map[string][]apiRes{"v1alpha1": {
		{"resourceclasses", "ResourceClass", false}, {"resourceclaims", "ResourceClaim", true}, {"resourceclaims/status", "ResourceClaim", true},
		{"resourceclaimtemplates", "ResourceClaimTemplate", true}, {"podschedulings", "PodScheduling", true}, {"podschedulings/status", "PodScheduling", true},
	}}
	served130 = map[string][]apiRes{"v1alpha2": {
		{"resourceclasses", "ResourceClass", false}, {"resourceclaims", "ResourceClaim", true}, {"resourceclaims/status", "ResourceClaim", true},
		{"resourceclaimtemplates", "ResourceClaimTemplate", true}, {"podschedulingcontexts", "PodSchedulingContext", true},
		{"podschedulingcontexts/status", "PodSchedulingContext", true}, {"resourceslices", "ResourceSlice", false},
		{"resourceclaimparameters", "ResourceClaimParameters", true}, {"resourceclassparameters", "ResourceClassParameters", true},
	}}
	// 1.33 serves no PodSchedulingContext and has a kind drakit lacks.
	served133 = map[string][]apiRes{"v1alpha3": {
		{"deviceclasses", "DeviceClass", false}, {"resourceclaims", "ResourceClaim", true}, {"resourceclaims/status", "ResourceClaim", true},
		{"resourceclaimtemplates", "ResourceClaimTemplate", true}, {"resourceslices", "ResourceSlice", false},
		{"devicetaintrules", "DeviceTaintRule", false},
	}}
)

type apiRes struct {
	name, kind string
	namespaced bool
}

// newFake is a fake clientset whose discovery serves the given versions.
func newFake(t *testing.T, served ...map[string][]apiRes) (*fakeCluster, *Client) {
	t.Helper()
	cs := newFakeCluster()
	setDiscovery(cs, served...)
	c, err := New(cs.clientsets(), cs.Discovery(), Options{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return cs, c
}

func setDiscovery(cs *fakeCluster, served ...map[string][]apiRes) {
	d := cs.Discovery().(*fakediscovery.FakeDiscovery)
	d.Resources = []*metav1.APIResourceList{{GroupVersion: "v1", APIResources: []metav1.APIResource{{Name: "pods", Kind: "Pod", Namespaced: true}}}}
	for _, s := range served {
		for version, list := range s {
			l := &metav1.APIResourceList{GroupVersion: resource.GroupName + "/" + version}
			for _, r := range list {
				l.APIResources = append(l.APIResources, metav1.APIResource{Name: r.name, Kind: r.kind, Namespaced: r.namespaced})
			}
			d.Resources = append(d.Resources, l)
		}
	}
}

func TestNegotiation(t *testing.T) {
	for _, tc := range []struct {
		name    string
		served  []map[string][]apiRes
		opts    Options
		version string
		kinds   map[string]string // hub kind -> version, "" = not served
		err     string
	}{
		{
			name: "1.26", served: []map[string][]apiRes{served126}, version: "v1alpha1",
			kinds: map[string]string{"DeviceClass": "v1alpha1", "PodSchedulingContext": "v1alpha1", "ResourceSlice": ""},
		},
		{
			name: "1.30", served: []map[string][]apiRes{served130}, version: "v1alpha2",
			kinds: map[string]string{"DeviceClass": "v1alpha2", "ResourceClaimParameters": "v1alpha2", "ResourceSlice": "v1alpha2"},
		},
		{
			name: "1.33", served: []map[string][]apiRes{served133}, version: "v1alpha3",
			kinds: map[string]string{"DeviceClass": "v1alpha3", "PodSchedulingContext": "", "ResourceClaimParameters": ""},
		},
		{
			// Newest wins per kind; a kind only the older version has stays there.
			name: "v1alpha2 and v1alpha3", served: []map[string][]apiRes{served130, served133}, version: "v1alpha3",
			kinds: map[string]string{"DeviceClass": "v1alpha3", "ResourceClaimParameters": "v1alpha2", "PodSchedulingContext": "v1alpha2"},
		},
		{
			name: "pinned", served: []map[string][]apiRes{served130, served133}, opts: Options{Version: "v1alpha2"}, version: "v1alpha2",
			kinds: map[string]string{"DeviceClass": "v1alpha2", "ResourceSlice": "v1alpha2"},
		},
		{
			name: "pinned version not served", served: []map[string][]apiRes{served133}, opts: Options{Version: "v1alpha2"},
			err: "the server serves resource.k8s.io v1alpha3, not v1alpha2",
		},
		{
			name: "nothing served", err: "the server serves resource.k8s.io (none), not v1alpha1, v1alpha2, v1alpha3",
		},
		{
			name: "unknown pinned version", served: []map[string][]apiRes{served133}, opts: Options{Version: "v2"},
			err: `Options.Version "v2" is not a version drakit knows`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := newFakeCluster()
			setDiscovery(cs, tc.served...)
			c, err := New(cs.clientsets(), cs.Discovery(), tc.opts)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Version() != tc.version {
				t.Errorf("Version() = %q, want %q", c.Version(), tc.version)
			}
			for kind, want := range tc.kinds {
				got, ok := c.VersionFor(kind)
				if got != want || ok != (want != "") {
					t.Errorf("VersionFor(%s) = %q, %v; want %q", kind, got, ok, want)
				}
			}
		})
	}
}

func TestNotServed(t *testing.T) {
	_, c := newFake(t, served133)
	_, err := c.PodSchedulingContexts("default").Get(context.Background(), "x", metav1.GetOptions{})
	var ns *NotServedError
	if !errors.As(err, &ns) {
		t.Fatalf("got %v, want a *NotServedError", err)
	}
	for _, want := range []string{"PodSchedulingContext", "v1alpha3", "DeviceClass, DeviceTaintRule, ResourceClaim, ResourceClaimTemplate, ResourceSlice"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

// hubClaim says things v1alpha2 cannot: two requests, a constraint, config.
// It is defaulted (the legacy allocation mode is WaitForFirstConsumer), as
// conversion keeps objects exact in their defaulted form.
func hubClaim(name string) *resource.ResourceClaim {
	return &resource.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "x"}},
		Spec: resource.ResourceClaimSpec{AllocationMode: resource.AllocationModeWaitForFirstConsumer, Devices: resource.DeviceClaim{
			Requests: []resource.DeviceRequest{
				{Name: "gpu", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "gpu", AllocationMode: resource.DeviceAllocationModeExactCount, Count: 2}},
				{Name: "nic", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "nic", AllocationMode: resource.DeviceAllocationModeAll}},
			},
			Constraints: []resource.DeviceConstraint{{Requests: []string{"gpu", "nic"}, MatchAttribute: ptr.To(resource.FullyQualifiedName("example.com/numa"))}},
		}},
	}
}

// withoutServerFields clears what a server (or the fake) sets.
func withoutServerFields(o metav1.Object) {
	o.SetResourceVersion("")
	o.SetManagedFields(nil)
	o.SetUID("")
	o.SetCreationTimestamp(metav1.Time{})
}

func TestCreateGetListLossless(t *testing.T) {
	for _, served := range []map[string][]apiRes{served126, served130, served133} {
		cs, c := newFake(t, served)
		t.Run(c.Version(), func(t *testing.T) {
			ctx := context.Background()
			claims := c.ResourceClaims("default")
			want := hubClaim("c1")
			created, err := claims.Create(ctx, want.DeepCopy(), metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			withoutServerFields(created)
			if d := cmp.Diff(want, created); d != "" {
				t.Errorf("create (-sent +returned):\n%s", d)
			}
			// What is stored is the served version, with the stash where needed.
			stored, err := cs.tracker(schema.GroupVersionResource{Group: resource.GroupName, Version: c.Version(), Resource: "resourceclaims"}).Get(schema.GroupVersionResource{Group: resource.GroupName, Version: c.Version(), Resource: "resourceclaims"}, "default", "c1")
			if err != nil {
				t.Fatalf("the fake has no %s claim: %v", c.Version(), err)
			}
			_, stashed := stored.(metav1.Object).GetAnnotations()[resource.StashAnnotation]
			if stashed != (c.Version() != "v1alpha3") {
				t.Errorf("stored %s claim has stash annotation: %v", c.Version(), stashed)
			}
			got, err := claims.Get(ctx, "c1", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			withoutServerFields(got)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("get (-sent +got):\n%s", d)
			}
			list, err := claims.List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(list.Items) != 1 {
				t.Fatalf("list has %d items", len(list.Items))
			}
			withoutServerFields(&list.Items[0])
			if d := cmp.Diff(*want, list.Items[0]); d != "" {
				t.Errorf("list (-sent +got):\n%s", d)
			}
		})
	}
}

func TestUpdateAndStatus(t *testing.T) {
	_, c := newFake(t, served130)
	ctx := context.Background()
	claims := c.ResourceClaims("default")
	created, err := claims.Create(ctx, hubClaim("c1"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created.Labels["updated"] = "yes"
	updated, err := claims.Update(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if updated.Labels["updated"] != "yes" {
		t.Errorf("update lost the label: %v", updated.Labels)
	}
	updated.Status.Allocation = &resource.AllocationResult{Devices: resource.DeviceAllocationResult{Results: []resource.DeviceRequestAllocationResult{
		{Request: "gpu", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"},
	}}}
	withStatus, err := claims.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(updated.Status, withStatus.Status); d != "" {
		t.Errorf("status (-sent +got):\n%s", d)
	}
	if _, err := c.DeviceClasses().UpdateStatus(ctx, &resource.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: "x"}}, metav1.UpdateOptions{}); err == nil || !strings.Contains(err.Error(), "no status subresource") {
		t.Errorf("UpdateStatus of a class: got %v, want an error about the missing status subresource", err)
	}
}

func TestNamespaceMismatch(t *testing.T) {
	_, c := newFake(t, served133)
	claim := hubClaim("c1")
	claim.Namespace = "other"
	_, err := c.ResourceClaims("default").Create(context.Background(), claim, metav1.CreateOptions{})
	if err == nil || !strings.Contains(err.Error(), `namespace "other"`) {
		t.Fatalf("got %v, want an error naming the namespaces", err)
	}
}

func TestPatch(t *testing.T) {
	ctx := context.Background()
	for _, served := range []map[string][]apiRes{served130, served133} {
		cs, c := newFake(t, served)
		t.Run(c.Version(), func(t *testing.T) {
			claims := c.ResourceClaims("default")
			if _, err := claims.Create(ctx, hubClaim("c1"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			var sent []clienttesting.PatchAction
			cs.PrependReactor("patch", "resourceclaims", func(a clienttesting.Action) (bool, runtime.Object, error) {
				sent = append(sent, a.(clienttesting.PatchAction))
				return false, nil, nil
			})

			// A merge patch against the hub form: v1alpha2 cannot say a
			// second request's count, the stash carries it.
			merge := `{"metadata":{"labels":{"patched":"merge"}},"spec":{"devices":{"constraints":null}}}`
			got, err := claims.Patch(ctx, "c1", types.MergePatchType, []byte(merge), metav1.PatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Labels["patched"] != "merge" || got.Spec.Devices.Constraints != nil || len(got.Spec.Devices.Requests) != 2 {
				t.Errorf("merge patch result: labels %v, constraints %v, %d requests", got.Labels, got.Spec.Devices.Constraints, len(got.Spec.Devices.Requests))
			}
			if len(sent) != 1 || sent[0].GetPatchType() != types.MergePatchType {
				t.Fatalf("sent %d patches, want one merge patch", len(sent))
			}
			var body map[string]any
			if err := json.Unmarshal(sent[0].GetPatch(), &body); err != nil {
				t.Fatal(err)
			}
			if rv := body["metadata"].(map[string]any)["resourceVersion"]; rv == nil {
				t.Errorf("the patch sent has no resourceVersion precondition: %s", sent[0].GetPatch())
			}
			if _, hasSpecRequests := body["spec"]; c.Version() == "v1alpha3" && hasSpecRequests {
				spec := body["spec"].(map[string]any)
				if _, ok := spec["devices"].(map[string]any)["requests"]; ok {
					t.Errorf("the patch sent changes requests that did not change: %s", sent[0].GetPatch())
				}
			}

			// A JSON patch: change the first request's count.
			jp := `[{"op":"test","path":"/spec/devices/requests/0/exactly/count","value":2},{"op":"replace","path":"/spec/devices/requests/0/exactly/count","value":3}]`
			got, err = claims.Patch(ctx, "c1", types.JSONPatchType, []byte(jp), metav1.PatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Spec.Devices.Requests[0].Exactly.Count != 3 {
				t.Errorf("JSON patch: count is %d, want 3", got.Spec.Devices.Requests[0].Exactly.Count)
			}
			again, err := claims.Get(ctx, "c1", metav1.GetOptions{})
			if err != nil || again.Spec.Devices.Requests[0].Exactly.Count != 3 {
				t.Errorf("after the JSON patch the stored claim says count %d (%v)", again.Spec.Devices.Requests[0].Exactly.Count, err)
			}

			// A failing test operation changes nothing.
			n := len(sent)
			_, err = claims.Patch(ctx, "c1", types.JSONPatchType, []byte(`[{"op":"test","path":"/spec/devices/requests/0/exactly/count","value":2}]`), metav1.PatchOptions{})
			if err == nil || len(sent) != n {
				t.Errorf("failing test op: err %v, %d patches sent", err, len(sent)-n)
			}
			// A no-op patch sends nothing.
			if _, err := claims.Patch(ctx, "c1", types.MergePatchType, []byte(`{}`), metav1.PatchOptions{}); err != nil || len(sent) != n {
				t.Errorf("empty patch: err %v, %d patches sent", err, len(sent)-n)
			}
		})
	}
}

func TestPatchErrors(t *testing.T) {
	ctx := context.Background()
	_, c := newFake(t, served133)
	claims := c.ResourceClaims("default")
	if _, err := claims.Create(ctx, hubClaim("c1"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		pt    types.PatchType
		patch string
		sub   []string
		want  string
	}{
		{"strategic", types.StrategicMergePatchType, `{}`, nil, "strategic merge patch is not supported"},
		{"apply", types.ApplyPatchType, `{}`, nil, "use Apply"},
		{"bad JSON", types.MergePatchType, `{`, nil, "not valid JSON"},
		{"unknown hub field", types.MergePatchType, `{"spec":{"bogus":1}}`, nil, `unknown field "bogus"`},
		{"metadata at top level", types.MergePatchType, `{"labels":{"a":"b"}}`, nil, `under "metadata"`},
		{"rename", types.MergePatchType, `{"metadata":{"name":"other"}}`, nil, "may not change metadata.name"},
		{"bad subresource", types.MergePatchType, `{}`, []string{"scale"}, "no subresource"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := claims.Patch(ctx, "c1", tc.pt, []byte(tc.patch), metav1.PatchOptions{}, tc.sub...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestPatchRetriesOnConflict(t *testing.T) {
	ctx := context.Background()
	cs, c := newFake(t, served133)
	claims := c.ResourceClaims("default")
	if _, err := claims.Create(ctx, hubClaim("c1"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	gets, conflicts := 0, 0
	cs.PrependReactor("get", "resourceclaims", func(clienttesting.Action) (bool, runtime.Object, error) {
		gets++
		return false, nil, nil
	})
	cs.PrependReactor("patch", "resourceclaims", func(clienttesting.Action) (bool, runtime.Object, error) {
		if conflicts == 0 {
			conflicts++
			return true, nil, apierrors.NewConflict(schema.GroupResource{Group: resource.GroupName, Resource: "resourceclaims"}, "c1", errors.New("the object has been modified"))
		}
		return false, nil, nil
	})
	got, err := claims.Patch(ctx, "c1", types.MergePatchType, []byte(`{"metadata":{"labels":{"x":"y"}}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if gets != 2 || got.Labels["x"] != "y" {
		t.Errorf("after one conflict: %d gets (want 2), labels %v", gets, got.Labels)
	}
}

// TestPatchKeepsTheCallersPrecondition: a patch that sets
// metadata.resourceVersion holds the object to it, as the server does: a
// stale one is a Conflict, not retried and nothing written; the current
// one applies.
func TestPatchKeepsTheCallersPrecondition(t *testing.T) {
	ctx := context.Background()
	cs, c := newFake(t, served133)
	claims := c.ResourceClaims("default")
	if _, err := claims.Create(ctx, hubClaim("c1"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	patches := 0
	cs.PrependReactor("patch", "resourceclaims", func(clienttesting.Action) (bool, runtime.Object, error) {
		patches++
		return false, nil, nil
	})
	stale := `{"metadata":{"resourceVersion":"stale-1","labels":{"x":"y"}}}`
	if _, err := claims.Patch(ctx, "c1", types.MergePatchType, []byte(stale), metav1.PatchOptions{}); !apierrors.IsConflict(err) || !strings.Contains(err.Error(), "stale-1") {
		t.Errorf("patch with a stale resourceVersion: %v, want a Conflict naming it", err)
	}
	if patches != 0 {
		t.Errorf("%d patches sent for a stale precondition, want none", patches)
	}
	// The fake keeps no resourceVersion: the object reads as at "7".
	cs.PrependReactor("get", "resourceclaims", func(a clienttesting.Action) (bool, runtime.Object, error) {
		get := a.(clienttesting.GetAction)
		obj, err := cs.tracker(get.GetResource()).Get(get.GetResource(), get.GetNamespace(), get.GetName())
		if err == nil {
			obj.(metav1.Object).SetResourceVersion("7")
		}
		return true, obj, err
	})
	current := `{"metadata":{"resourceVersion":"7","labels":{"x":"y"}}}`
	got, err := claims.Patch(ctx, "c1", types.MergePatchType, []byte(current), metav1.PatchOptions{})
	if err != nil || got.Labels["x"] != "y" {
		t.Errorf("patch with the current resourceVersion: labels %v, %v", got.GetLabels(), err)
	}
}

func TestApplyBody(t *testing.T) {
	// Only a label: on v1alpha2 the empty hub spec renders as
	// resourceClassName "", which must not be applied.
	claim := &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: "c1", Namespace: "ns", Labels: map[string]string{"owner": "a"}}}
	for version, want := range map[string]string{
		"v1alpha2": `{"apiVersion":"resource.k8s.io/v1alpha2","kind":"ResourceClaim","metadata":{"labels":{"owner":"a"},"name":"c1","namespace":"ns"}}`,
		"v1alpha3": `{"apiVersion":"resource.k8s.io/v1alpha3","kind":"ResourceClaim","metadata":{"labels":{"owner":"a"},"name":"c1","namespace":"ns"}}`,
	} {
		v, err := (&Resource[*resource.ResourceClaim, *resource.ResourceClaimList]{hubKind: "ResourceClaim"}).fromHub(claim, served{version: version})
		if err != nil {
			t.Fatal(err)
		}
		body, err := applyBody(v, false)
		if err != nil {
			t.Fatal(err)
		}
		if string(body) != want {
			t.Errorf("%s apply body\n got %s\nwant %s", version, body, want)
		}
	}

	// Pointers to zero values and list elements stay; plain zeros go.
	slice := &a3.ResourceSlice{
		TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1alpha3", Kind: "ResourceSlice"},
		ObjectMeta: metav1.ObjectMeta{Name: "s"},
		Spec: a3.ResourceSliceSpec{Driver: "d", Pool: a3.ResourcePool{Name: "p"}, Devices: []a3.Device{
			{Name: "dev", Basic: &a3.BasicDevice{Attributes: map[a3.QualifiedName]a3.DeviceAttribute{"i": {IntValue: ptr.To[int64](0)}, "b": {BoolValue: ptr.To(false)}},
				Capacity: map[a3.QualifiedName]apiresource.Quantity{"m": apiresource.MustParse("0")}}},
			{Name: "empty", Basic: &a3.BasicDevice{}},
		}},
	}
	body, err := applyBody(slice, false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"apiVersion":"resource.k8s.io/v1alpha3","kind":"ResourceSlice","metadata":{"name":"s"},"spec":{"devices":[{"basic":{"attributes":{"b":{"bool":false},"i":{"int":0}},"capacity":{"m":"0"}},"name":"dev"},{"basic":{},"name":"empty"}],"driver":"d","pool":{"name":"p"}}}`
	if string(body) != want {
		t.Errorf("slice apply body\n got %s\nwant %s", body, want)
	}

	// ApplyStatus sends identity and status only.
	withStatus := &a2.ResourceClaim{
		TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1alpha2", Kind: "ResourceClaim"},
		ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "ns", Labels: map[string]string{"x": "y"}},
		Spec:       a2.ResourceClaimSpec{ResourceClassName: "gpu"},
		Status:     a2.ResourceClaimStatus{DriverName: "d"},
	}
	body, err = applyBody(withStatus, true)
	if err != nil {
		t.Fatal(err)
	}
	want = `{"apiVersion":"resource.k8s.io/v1alpha2","kind":"ResourceClaim","metadata":{"name":"c","namespace":"ns"},"status":{"driverName":"d"}}`
	if string(body) != want {
		t.Errorf("status apply body\n got %s\nwant %s", body, want)
	}
}

func TestApplyConflict(t *testing.T) {
	ctx := context.Background()
	for _, served := range []map[string][]apiRes{served130, served133} {
		_, c := newFake(t, served)
		t.Run(c.Version(), func(t *testing.T) {
			claims := c.ResourceClaims("default")
			created, err := claims.Apply(ctx, hubClaim("c1"), metav1.ApplyOptions{FieldManager: "a"})
			if err != nil {
				t.Fatal(err)
			}
			withoutServerFields(created)
			if d := cmp.Diff(hubClaim("c1"), created); d != "" {
				t.Errorf("apply create (-applied +got):\n%s", d)
			}
			byB := &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: "c1", Namespace: "default", Labels: map[string]string{"app": "b"}}}
			_, err = claims.Apply(ctx, byB, metav1.ApplyOptions{FieldManager: "b"})
			if !apierrors.IsConflict(err) {
				t.Fatalf("apply of a's label by b: got %v, want a conflict", err)
			}
			forced, err := claims.Apply(ctx, byB, metav1.ApplyOptions{FieldManager: "b", Force: true})
			if err != nil {
				t.Fatal(err)
			}
			if forced.Labels["app"] != "b" || len(forced.Spec.Devices.Requests) != 2 {
				t.Errorf("forced apply: labels %v, %d requests (b's apply must not touch a's spec)", forced.Labels, len(forced.Spec.Devices.Requests))
			}
			if _, err := claims.Apply(ctx, byB, metav1.ApplyOptions{}); err == nil || !strings.Contains(err.Error(), "FieldManager") {
				t.Errorf("apply without a field manager: got %v", err)
			}
		})
	}
}

func TestWatchAndInformer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, c := newFake(t, served130)
	classes := c.DeviceClasses()
	w, err := classes.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	informer := classes.Informer(0, nil)
	go informer.Run(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		t.Fatal("informer did not sync")
	}

	class := &resource.DeviceClass{
		ObjectMeta: metav1.ObjectMeta{Name: "gpu"},
		Spec: resource.DeviceClassSpec{Selectors: []resource.DeviceSelector{
			resource.DriverSelector("gpu.example.com"),
			{CEL: &resource.CELDeviceSelector{Expression: `device.attributes["gpu.example.com"].model == "a100"`}},
		}},
	}
	if _, err := classes.Create(ctx, class.DeepCopy(), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-w.ResultChan():
		got, ok := ev.Object.(*resource.DeviceClass)
		if ev.Type != watch.Added || !ok {
			t.Fatalf("watch event %s with %T, want Added with a hub DeviceClass", ev.Type, ev.Object)
		}
		withoutServerFields(got)
		if d := cmp.Diff(class, got); d != "" {
			t.Errorf("watched class (-created +got):\n%s", d)
		}
	case <-ctx.Done():
		t.Fatal("no watch event")
	}
	for {
		item, exists, err := informer.GetStore().GetByKey("gpu")
		if err != nil {
			t.Fatal(err)
		}
		if exists {
			got := item.(*resource.DeviceClass).DeepCopy()
			withoutServerFields(got)
			if d := cmp.Diff(class, got); d != "" {
				t.Errorf("cached class (-created +got):\n%s", d)
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the informer never saw the class")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func TestHubDocumentRoundTrip(t *testing.T) {
	claim := hubClaim("c1")
	claim.Annotations = map[string]string{"a": "b"}
	claim.ResourceVersion = "7"
	doc, err := hubDocument(claim)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	meta, ok := m["metadata"].(map[string]any)
	if !ok || meta["name"] != "c1" || meta["resourceVersion"] != "7" || m["name"] != nil {
		t.Errorf("hub document does not keep metadata under \"metadata\": %s", doc)
	}
	back := &resource.ResourceClaim{}
	if err := fromHubDocument(doc, back); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(claim, back); d != "" {
		t.Errorf("hub document round trip (-want +got):\n%s", d)
	}
}

// emulateStatusSubresource makes the fake behave like the API server's
// status subresource, which keeps the stored annotations (the server's
// ResetObjectMetaForStatus): without it the fake would store the stash
// annotation a status write carries.
func emulateStatusSubresource(t *testing.T, cs *fakeCluster, gvr schema.GroupVersionResource) {
	react := clienttesting.ObjectReaction(cs.tracker(gvr))
	for _, verb := range []string{"update", "patch"} {
		cs.PrependReactor(verb, gvr.Resource, func(a clienttesting.Action) (bool, runtime.Object, error) {
			if a.GetSubresource() != "status" {
				return mainResourceKeepsStatus(cs, gvr, a, react)
			}
			var name string
			switch act := a.(type) {
			case clienttesting.UpdateAction:
				name = act.GetObject().(metav1.Object).GetName()
			case clienttesting.PatchAction:
				name = act.GetName()
			}
			old, err := cs.tracker(gvr).Get(gvr, a.GetNamespace(), name)
			if err != nil {
				return true, nil, err
			}
			handled, ret, err := react(a)
			if err != nil || ret == nil {
				return handled, ret, err
			}
			ret.(metav1.Object).SetAnnotations(old.(metav1.Object).GetAnnotations())
			if err := cs.tracker(gvr).Update(gvr, ret, a.GetNamespace(), metav1.UpdateOptions{FieldManager: "emulation"}); err != nil {
				t.Errorf("emulating the status subresource: %v", err)
			}
			return true, ret, nil
		})
	}
}

// mainResourceKeepsStatus emulates the main resource of a kind with a
// status: updates and patches keep the stored status.
func mainResourceKeepsStatus(cs *fakeCluster, gvr schema.GroupVersionResource, a clienttesting.Action, react clienttesting.ReactionFunc) (bool, runtime.Object, error) {
	var name string
	switch act := a.(type) {
	case clienttesting.UpdateAction:
		name = act.GetObject().(metav1.Object).GetName()
	case clienttesting.PatchAction:
		if act.GetPatchType() == types.ApplyPatchType {
			return false, nil, nil
		}
		name = act.GetName()
	}
	old, err := cs.tracker(gvr).Get(gvr, a.GetNamespace(), name)
	if err != nil {
		return false, nil, nil
	}
	handled, ret, err := react(a)
	if err != nil || ret == nil {
		return handled, ret, err
	}
	reflectStatus(ret).Set(reflectStatus(old))
	if err := cs.tracker(gvr).Update(gvr, ret, a.GetNamespace(), metav1.UpdateOptions{FieldManager: "emulation"}); err != nil {
		return true, nil, err
	}
	return true, ret, nil
}

func reflectStatus(obj runtime.Object) reflect.Value {
	return reflect.ValueOf(obj).Elem().FieldByName("Status")
}

func TestCreateAndUpdateIgnoreStatus(t *testing.T) {
	ctx := context.Background()
	cs, c := newFake(t, served133)
	emulateStatusSubresource(t, cs, schema.GroupVersionResource{Group: resource.GroupName, Version: "v1alpha3", Resource: "resourceclaims"})
	claims := c.ResourceClaims("default")
	withStatus := hubClaim("c1")
	withStatus.Status = hubOnlyStatus()
	created, err := claims.Create(ctx, withStatus, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(resource.ResourceClaimStatus{}, created.Status); d != "" {
		t.Errorf("create kept (part of) the status, through the stash (-want +got):\n%s", d)
	}
	created.Status = hubOnlyStatus()
	stored, err := claims.UpdateStatus(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// An update that also changes the status: only the label may change.
	stored.Labels["updated"] = "yes"
	stored.Status.DriverName = "other.example.com"
	stored.Status.Allocation.Shareable = false
	updated, err := claims.Update(ctx, stored, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(hubOnlyStatus(), updated.Status); d != "" {
		t.Errorf("update changed the status through the stash (-want +got):\n%s", d)
	}
	// The same through a merge patch of the main resource.
	patched, err := claims.Patch(ctx, "c1", types.MergePatchType, []byte(`{"metadata":{"labels":{"p":"1"}},"status":{"driverName":"patched.example.com"}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if patched.Labels["p"] != "1" || patched.Status.DriverName != "gpu.example.com" {
		t.Errorf("main-resource patch: labels %v, driverName %q (want the label patched and the status kept)", patched.Labels, patched.Status.DriverName)
	}
}

// hubOnlyStatus is a status with parts the version cannot say: v1alpha2
// has no device results (they become derived handles plus stash), v1alpha3
// has no driverName or shareable.
func hubOnlyStatus() resource.ResourceClaimStatus {
	return resource.ResourceClaimStatus{
		DriverName: "gpu.example.com",
		Allocation: &resource.AllocationResult{
			Devices: resource.DeviceAllocationResult{Results: []resource.DeviceRequestAllocationResult{
				{Request: "gpu", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"},
			}},
			Shareable: true,
		},
	}
}

func TestStatusWritesKeepTheStash(t *testing.T) {
	ctx := context.Background()
	for _, served := range []map[string][]apiRes{served130, served133} {
		for _, how := range []string{"UpdateStatus", "Patch status", "ApplyStatus"} {
			cs, c := newFake(t, served)
			t.Run(c.Version()+"/"+how, func(t *testing.T) {
				gvr := schema.GroupVersionResource{Group: resource.GroupName, Version: c.Version(), Resource: "resourceclaims"}
				emulateStatusSubresource(t, cs, gvr)
				claims := c.ResourceClaims("default")
				created, err := claims.Create(ctx, hubClaim("c1"), metav1.CreateOptions{})
				if err != nil {
					t.Fatal(err)
				}
				want := hubOnlyStatus()
				var got *resource.ResourceClaim
				switch how {
				case "UpdateStatus":
					created.Status = want
					got, err = claims.UpdateStatus(ctx, created, metav1.UpdateOptions{})
				case "Patch status":
					patch, _ := json.Marshal(map[string]any{"status": want})
					got, err = claims.Patch(ctx, "c1", types.MergePatchType, patch, metav1.PatchOptions{}, "status")
				case "ApplyStatus":
					got, err = claims.ApplyStatus(ctx, &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: "c1", Namespace: "default"}, Status: want}, metav1.ApplyOptions{FieldManager: "driver"})
				}
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want, got.Status); d != "" {
					t.Errorf("%s returned (-want +got):\n%s", how, d)
				}
				again, err := claims.Get(ctx, "c1", metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want, again.Status); d != "" {
					t.Errorf("status read back after %s (-want +got):\n%s", how, d)
				}
				// The spec's part of the stash survived the status write.
				if d := cmp.Diff(hubClaim("c1").Spec, again.Spec); d != "" {
					t.Errorf("spec read back after %s (-want +got):\n%s", how, d)
				}
			})
		}
	}
}

func TestApplyKeepsOtherStashedFields(t *testing.T) {
	ctx := context.Background()
	cs, c := newFake(t, served133)
	emulateStatusSubresource(t, cs, schema.GroupVersionResource{Group: resource.GroupName, Version: "v1alpha3", Resource: "resourceclaims"})
	claims := c.ResourceClaims("default")
	created, err := claims.Create(ctx, hubClaim("c1"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created.Status = hubOnlyStatus()
	if _, err := claims.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// A legacy spec field v1alpha3 keeps in the stash, applied on its own.
	intent := &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: "c1", Namespace: "default"}, Spec: resource.ResourceClaimSpec{AllocationMode: resource.AllocationModeImmediate}}
	got, err := claims.Apply(ctx, intent, metav1.ApplyOptions{FieldManager: "b", Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.Spec.AllocationMode != resource.AllocationModeImmediate {
		t.Errorf("applied allocationMode is %q", got.Spec.AllocationMode)
	}
	if d := cmp.Diff(hubOnlyStatus(), got.Status); d != "" {
		t.Errorf("the apply lost stashed status fields (-want +got):\n%s", d)
	}
	if len(got.Spec.Devices.Requests) != 2 {
		t.Errorf("the apply lost the requests: %+v", got.Spec.Devices)
	}
}

// The hub document has the API's layout: metadata under "metadata", a
// claim template's under "spec.metadata", nothing of it at the top level.
func TestHubDocumentLayout(t *testing.T) {
	tmpl := &resource.ResourceClaimTemplate{
		ObjectMeta: metav1.ObjectMeta{Name: "t1", Namespace: "default", Labels: map[string]string{"app": "x"}},
		Spec: resource.ResourceClaimTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"claim": "y"}},
			Spec:       hubClaim("").Spec,
		},
	}
	doc, err := hubDocument(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Name     any `json:"name"`
		Labels   any `json:"labels"`
		Metadata struct {
			Name   string            `json:"name"`
			Labels map[string]string `json:"labels"`
		} `json:"metadata"`
		Spec struct {
			Labels   any `json:"labels"`
			Metadata struct {
				Labels map[string]string `json:"labels"`
			} `json:"metadata"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	if m.Name != nil || m.Labels != nil || m.Spec.Labels != nil ||
		m.Metadata.Name != "t1" || m.Metadata.Labels["app"] != "x" || m.Spec.Metadata.Labels["claim"] != "y" {
		t.Errorf("hub document of a claim template is not in the API's layout: %s", doc)
	}
	back := &resource.ResourceClaimTemplate{}
	if err := fromHubDocument(doc, back); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(tmpl, back); d != "" {
		t.Errorf("hub document round trip (-want +got):\n%s", d)
	}
}

// JSON patches of hub objects use the paths of the versioned objects:
// /metadata/labels/... of a claim, /spec/metadata/labels/... of a claim
// template, whatever version the server serves.
func TestPatchMetadataPaths(t *testing.T) {
	ctx := context.Background()
	for _, served := range []map[string][]apiRes{served126, served130, served133} {
		cs, c := newFake(t, served)
		t.Run(c.Version(), func(t *testing.T) {
			claims := c.ResourceClaims("default")
			if _, err := claims.Create(ctx, hubClaim("c1"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			got, err := claims.Patch(ctx, "c1", types.JSONPatchType, []byte(
				`[{"op":"test","path":"/metadata/labels/app","value":"x"},`+
					`{"op":"replace","path":"/metadata/labels/app","value":"y"},`+
					`{"op":"add","path":"/metadata/labels/team","value":"gpu"}]`), metav1.PatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"app": "y", "team": "gpu"}
			if d := cmp.Diff(want, got.Labels); d != "" {
				t.Errorf("claim labels after the JSON patch (-want +got):\n%s", d)
			}
			if again, err := claims.Get(ctx, "c1", metav1.GetOptions{}); err != nil || !cmp.Equal(want, again.Labels) {
				t.Errorf("stored claim labels after the JSON patch: %v (%v), want %v", again.Labels, err, want)
			}

			templates := c.ResourceClaimTemplates("default")
			tmpl := &resource.ResourceClaimTemplate{
				ObjectMeta: metav1.ObjectMeta{Name: "t1", Namespace: "default", Labels: map[string]string{"app": "x"}},
				Spec: resource.ResourceClaimTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"claim": "a"}},
					Spec:       hubClaim("").Spec,
				},
			}
			if _, err := templates.Create(ctx, tmpl, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			gotT, err := templates.Patch(ctx, "t1", types.JSONPatchType, []byte(
				`[{"op":"test","path":"/spec/metadata/labels/claim","value":"a"},`+
					`{"op":"replace","path":"/spec/metadata/labels/claim","value":"b"},`+
					`{"op":"add","path":"/spec/metadata/labels/tier","value":"gpu"},`+
					`{"op":"add","path":"/metadata/labels/owner","value":"me"}]`), metav1.PatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			wantSpec := map[string]string{"claim": "b", "tier": "gpu"}
			wantMeta := map[string]string{"app": "x", "owner": "me"}
			if !cmp.Equal(wantSpec, gotT.Spec.Labels) || !cmp.Equal(wantMeta, gotT.Labels) {
				t.Errorf("template after the JSON patch: spec.metadata.labels %v (want %v), metadata.labels %v (want %v)", gotT.Spec.Labels, wantSpec, gotT.Labels, wantMeta)
			}
			if d := cmp.Diff(tmpl.Spec.Spec, gotT.Spec.Spec); d != "" {
				t.Errorf("the JSON patch changed the template's claim spec (-want +got):\n%s", d)
			}
			// What the fake stores is the served version, with the labels
			// in its spec.metadata.
			stored, err := cs.tracker(schema.GroupVersionResource{Group: resource.GroupName, Version: c.Version(), Resource: "resourceclaimtemplates"}).Get(schema.GroupVersionResource{Group: resource.GroupName, Version: c.Version(), Resource: "resourceclaimtemplates"}, "default", "t1")
			if err != nil {
				t.Fatal(err)
			}
			raw, err := json.Marshal(stored)
			if err != nil {
				t.Fatal(err)
			}
			var v struct {
				Spec struct {
					Metadata struct {
						Labels map[string]string `json:"labels"`
					} `json:"metadata"`
				} `json:"spec"`
			}
			if err := json.Unmarshal(raw, &v); err != nil || !cmp.Equal(wantSpec, v.Spec.Metadata.Labels) {
				t.Errorf("stored %s template has spec.metadata.labels %v (%v), want %v", c.Version(), v.Spec.Metadata.Labels, err, wantSpec)
			}
			// The same through a merge patch.
			gotT, err = templates.Patch(ctx, "t1", types.MergePatchType, []byte(`{"spec":{"metadata":{"labels":{"tier":null,"merged":"yes"}}}}`), metav1.PatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if want := map[string]string{"claim": "b", "merged": "yes"}; !cmp.Equal(want, gotT.Spec.Labels) {
				t.Errorf("template spec.metadata.labels after the merge patch: %v, want %v", gotT.Spec.Labels, want)
			}
			// The old layout's path is not the hub's any more.
			if _, err := templates.Patch(ctx, "t1", types.JSONPatchType, []byte(`[{"op":"add","path":"/spec/labels","value":{"a":"b"}}]`), metav1.PatchOptions{}); err == nil || !strings.Contains(err.Error(), `unknown field "labels"`) {
				t.Errorf("a JSON patch at /spec/labels: got %v, want an unknown field error", err)
			}
		})
	}
}
