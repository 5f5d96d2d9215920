package resourcev1

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	resourcev1 "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/apis/resource"
	a2 "github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/hubclient"
	"github.com/drakit/drakit/hubclient/internal/convwatch"
)

// The versions every test runs against: v1 goes to client-go's client as
// it is, the others through hubclient and conversion.
var versions = []string{"v1", "v1beta2", "v1beta1", "v1alpha3", "v1alpha2"}

func forEachVersion(t *testing.T, test func(t *testing.T, f *fakeCluster, c *Client)) {
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			f, c := newFake(t, v)
			test(t, f, c.(*Client))
		})
	}
}

func v1Claim(name string) *resourcev1.ResourceClaim {
	return &resourcev1.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "a"}},
		Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{
			Requests: []resourcev1.DeviceRequest{
				{Name: "gpu", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu.example.com", AllocationMode: resourcev1.DeviceAllocationModeExactCount, Count: 2}},
				{Name: "nic", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "nic.example.com", AllocationMode: resourcev1.DeviceAllocationModeAll}},
			},
			Constraints: []resourcev1.DeviceConstraint{{Requests: []string{"gpu", "nic"}, MatchAttribute: ptr.To(resourcev1.FullyQualifiedName("example.com/numa"))}},
		}},
	}
}

func v1Status(uids ...string) resourcev1.ResourceClaimStatus {
	s := resourcev1.ResourceClaimStatus{Allocation: &resourcev1.AllocationResult{Devices: resourcev1.DeviceAllocationResult{
		Results: []resourcev1.DeviceRequestAllocationResult{{Request: "gpu", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"}},
	}}}
	for _, uid := range uids {
		s.ReservedFor = append(s.ReservedFor, resourcev1.ResourceClaimConsumerReference{Resource: "pods", Name: "pod-" + uid, UID: types.UID(uid)})
	}
	return s
}

func v1Class(name string) *resourcev1.DeviceClass {
	return &resourcev1.DeviceClass{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "a"}},
		Spec:       resourcev1.DeviceClassSpec{Selectors: []resourcev1.DeviceSelector{{CEL: &resourcev1.CELDeviceSelector{Expression: `device.driver == "gpu.example.com"`}}}},
	}
}

func v1Slice(name string) *resourcev1.ResourceSlice {
	return &resourcev1.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "a"}},
		Spec: resourcev1.ResourceSliceSpec{
			Driver: "gpu.example.com", NodeName: ptr.To("node-1"),
			Pool: resourcev1.ResourcePool{Name: "node-1", Generation: 1, ResourceSliceCount: 1},
			Devices: []resourcev1.Device{{
				Name:       "gpu-0",
				Attributes: map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{"model": {StringValue: ptr.To("a100")}},
				Capacity:   map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{"memory": {Value: apiresource.MustParse("40Gi")}},
			}},
		},
	}
}

func v1Template(name string) *resourcev1.ResourceClaimTemplate {
	return &resourcev1.ResourceClaimTemplate{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "a"}},
		Spec: resourcev1.ResourceClaimTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"from": "template"}},
			Spec:       v1Claim("").Spec,
		},
	}
}

var cmpOpts = cmp.Options{cmp.Comparer(func(a, b apiresource.Quantity) bool { return a.Cmp(b) == 0 })}

// serverless is a copy of obj without what the fake (or a server) sets.
func serverless[T interface {
	runtime.Object
	metav1.Object
}](obj T) T {
	out := obj.DeepCopyObject().(T)
	out.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	out.SetResourceVersion("")
	out.SetManagedFields(nil)
	out.SetUID("")
	out.SetCreationTimestamp(metav1.Time{})
	out.SetGeneration(0)
	return out
}

// clientGoShape checks that obj is as client-go hands objects out: no
// apiVersion or kind.
func clientGoShape(t *testing.T, obj runtime.Object) {
	t.Helper()
	if gvk := obj.GetObjectKind().GroupVersionKind(); !gvk.Empty() {
		t.Errorf("%T has apiVersion/kind %s, client-go's typed clients return none", obj, gvk)
	}
}

// same compares what was sent with what came back. Objects converted from
// the hub must be as client-go hands them out; client-go's fake (v1) keeps
// apiVersion and kind, which a real server's answers do not have.
func same[T interface {
	runtime.Object
	metav1.Object
}](t *testing.T, f *fakeCluster, what string, want, got T) {
	t.Helper()
	if f.version != "v1" {
		clientGoShape(t, got)
	}
	if d := cmp.Diff(serverless(want), serverless(got), cmpOpts); d != "" {
		t.Errorf("%s (-sent +got):\n%s", what, d)
	}
}

// TestCreateGetListLossless writes every kind as a v1 object and reads it
// back unchanged, while the fake stores it in the served version.
func TestCreateGetListLossless(t *testing.T) {
	forEachVersion(t, func(t *testing.T, f *fakeCluster, c *Client) {
		ctx := context.Background()
		claim, class, slice, tmpl := v1Claim("c1"), v1Class("gpu"), v1Slice("s1"), v1Template("t1")

		gotClaim, err := c.ResourceClaims("default").Create(ctx, claim.DeepCopy(), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		same(t, f, "created claim", claim, gotClaim)
		gotClass, err := c.DeviceClasses().Create(ctx, class.DeepCopy(), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		same(t, f, "created class", class, gotClass)
		gotSlice, err := c.ResourceSlices().Create(ctx, slice.DeepCopy(), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		same(t, f, "created slice", slice, gotSlice)
		gotTmpl, err := c.ResourceClaimTemplates("default").Create(ctx, tmpl.DeepCopy(), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		same(t, f, "created template", tmpl, gotTmpl)

		// The fake holds the served version: v1alpha2 has no device
		// requests, so they are in its stash; v1beta1 and v1beta2 say it all.
		storedClaim := f.stored(t, "resourceclaims", "default", "c1")
		_, stashed := storedClaim.GetAnnotations()[resource.StashAnnotation]
		if wantStash := f.version == "v1alpha2"; stashed != wantStash {
			t.Errorf("the %s claim the fake stores has a stash annotation: %v, want %v", f.version, stashed, wantStash)
		}
		if f.version == "v1alpha2" {
			if _, ok := storedClaim.(*a2.ResourceClaim); !ok {
				t.Errorf("the fake stores a %T, want the v1alpha2 claim", storedClaim)
			}
			f.stored(t, "resourceclasses", "", "gpu")
		}

		got, err := c.ResourceClaims("default").Get(ctx, "c1", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		same(t, f, "got claim", claim, got)
		gotS, err := c.ResourceSlices().Get(ctx, "s1", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		same(t, f, "got slice", slice, gotS)

		list, err := c.ResourceClaims("default").List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if f.version != "v1" {
			clientGoShape(t, list)
		}
		if len(list.Items) != 1 {
			t.Fatalf("claim list has %d items, want 1", len(list.Items))
		}
		same(t, f, "listed claim", claim, &list.Items[0])
		if list.ResourceVersion == "" {
			t.Errorf("claim list has no resourceVersion in its ListMeta")
		}
		classes, err := c.DeviceClasses().List(ctx, metav1.ListOptions{})
		if err != nil || len(classes.Items) != 1 {
			t.Fatalf("class list: %v, %v", classes, err)
		}
		same(t, f, "listed class", class, &classes.Items[0])
		tmpls, err := c.ResourceClaimTemplates("default").List(ctx, metav1.ListOptions{})
		if err != nil || len(tmpls.Items) != 1 {
			t.Fatalf("template list: %v, %v", tmpls, err)
		}
		same(t, f, "listed template", tmpl, &tmpls.Items[0])
	})
}

// TestErrorsAreTheServers: callers' apierrors checks work.
func TestErrorsAreTheServers(t *testing.T) {
	forEachVersion(t, func(t *testing.T, f *fakeCluster, c *Client) {
		ctx := context.Background()
		claims := c.ResourceClaims("default")
		if _, err := claims.Get(ctx, "missing", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("get of a missing claim: %v, want Not Found", err)
		}
		if _, err := claims.Create(ctx, v1Claim("c1"), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := claims.Create(ctx, v1Claim("c1"), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
			t.Errorf("second create: %v, want Already Exists", err)
		}
		if err := claims.Delete(ctx, "missing", metav1.DeleteOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("delete of a missing claim: %v, want Not Found", err)
		}
		if _, err := claims.Patch(ctx, "missing", types.MergePatchType, []byte(`{}`), metav1.PatchOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("patch of a missing claim: %v, want Not Found", err)
		}
		// A conflict the server answers (the fake's tracker checks no
		// resourceVersions; a reactor plays the server) reaches the caller.
		f.PrependReactor("update", "resourceclaims", func(clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewConflict(schema.GroupResource{Group: resource.GroupName, Resource: "resourceclaims"}, "c1", errors.New("the object has been modified"))
		})
		stale := v1Claim("c1")
		stale.ResourceVersion = "1"
		if _, err := claims.Update(ctx, stale, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
			t.Errorf("update with a stale resourceVersion: %v, want Conflict", err)
		}
	})
}

func TestNotServed(t *testing.T) {
	for _, v := range []string{"v1beta2", "v1beta1", "v1alpha2"} {
		t.Run(v, func(t *testing.T) {
			_, c := newFake(t, v)
			_, err := c.DeviceTaintRules().Get(context.Background(), "r", metav1.GetOptions{})
			var ns *hubclient.NotServedError
			if !apierrors.IsNotFound(err) || !errors.As(err, &ns) || ns.Kind != "DeviceTaintRule" {
				t.Errorf("DeviceTaintRule on a server serving only %s: %v, want Not Found with a *hubclient.NotServedError", v, err)
			}
		})
	}
	// v1alpha3 of 1.33 serves it.
	f, c := newFake(t, "v1alpha3")
	rule := &resourcev1.DeviceTaintRule{
		ObjectMeta: metav1.ObjectMeta{Name: "r"},
		Spec: resourcev1.DeviceTaintRuleSpec{
			DeviceSelector: &resourcev1.DeviceTaintSelector{Driver: ptr.To("gpu.example.com")},
			Taint:          resourcev1.DeviceTaint{Key: "example.com/broken", Effect: resourcev1.DeviceTaintEffectNoSchedule},
		},
	}
	got, err := c.DeviceTaintRules().Create(context.Background(), rule.DeepCopy(), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, f, "taint rule through v1alpha3", rule, got)
}

func TestUpdateAndStatus(t *testing.T) {
	forEachVersion(t, func(t *testing.T, f *fakeCluster, c *Client) {
		ctx := context.Background()
		claims := c.ResourceClaims("default")
		created, err := claims.Create(ctx, v1Claim("c1"), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		created.Labels["app"] = "b"
		created.Spec.Devices.Requests[0].Exactly.Count = 3
		updated, err := claims.Update(ctx, created.DeepCopy(), metav1.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		same(t, f, "updated claim", created, updated)

		updated.Status = v1Status("u1")
		withStatus, err := claims.UpdateStatus(ctx, updated.DeepCopy(), metav1.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		same(t, f, "status update", updated, withStatus)
		got, err := claims.Get(ctx, "c1", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		same(t, f, "claim after the status update", updated, got)
	})
}

func TestDelete(t *testing.T) {
	forEachVersion(t, func(t *testing.T, f *fakeCluster, c *Client) {
		ctx := context.Background()
		classes := c.DeviceClasses()
		for _, name := range []string{"a", "b", "c"} {
			if _, err := classes.Create(ctx, v1Class(name), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if err := classes.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := classes.Get(ctx, "a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("get after delete: %v, want Not Found", err)
		}
		// The fakes record a collection delete but do not carry it out:
		// what they can prove is that it reached the served version with
		// the caller's selector.
		if err := classes.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "app=a"}); err != nil {
			t.Fatal(err)
		}
		resourceName := "deviceclasses"
		if f.version == "v1alpha2" {
			resourceName = "resourceclasses"
		}
		var found bool
		for _, a := range append(f.kube.Actions(), f.own.Actions()...) {
			if dc, ok := a.(clienttesting.DeleteCollectionAction); ok && dc.GetResource().Version == f.version && dc.GetResource().Resource == resourceName {
				found = dc.GetListRestrictions().Labels.String() == "app=a"
			}
		}
		if !found {
			t.Errorf("no delete-collection of %s/%s with the selector app=a reached the fake", f.version, resourceName)
		}
	})
}

func TestWatch(t *testing.T) {
	forEachVersion(t, func(t *testing.T, f *fakeCluster, c *Client) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		claims := c.ResourceClaims("default")
		w, err := claims.Watch(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		claim := v1Claim("c1")
		created, err := claims.Create(ctx, claim.DeepCopy(), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		created.Labels["app"] = "b"
		if _, err := claims.Update(ctx, created.DeepCopy(), metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := claims.Delete(ctx, "c1", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		for i, want := range []struct {
			typ   watch.EventType
			claim *resourcev1.ResourceClaim
		}{{watch.Added, claim}, {watch.Modified, created}, {watch.Deleted, created}} {
			select {
			case ev := <-w.ResultChan():
				got, ok := ev.Object.(*resourcev1.ResourceClaim)
				if ev.Type != want.typ || !ok {
					t.Fatalf("event %d: %s with %T, want %s with a *v1.ResourceClaim", i, ev.Type, ev.Object, want.typ)
				}
				same(t, f, fmt.Sprintf("event %d (%s)", i, ev.Type), want.claim, got)
			case <-ctx.Done():
				t.Fatalf("no event %d (%s)", i, want.typ)
			}
		}
	})
}

// TestWatchPassesBookmarksAndErrors: a bookmark's hub object becomes a v1
// object with its resourceVersion, an Error event passes as it is, and an
// object that cannot be converted becomes an Error event naming it.
func TestWatchPassesBookmarksAndErrors(t *testing.T) {
	src := watch.NewFake()
	w := convwatch.New(src, func(obj runtime.Object) (runtime.Object, error) {
		if m := obj.(metav1.Object); m.GetName() == "broken" {
			return nil, fmt.Errorf("converting %q: a malformed stash", m.GetName())
		}
		return toV1[*resourcev1.ResourceClaim](obj)
	})
	defer w.Stop()
	status := &metav1.Status{Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired}
	broken := &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: "broken"}}
	go func() {
		src.Action(watch.Bookmark, &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "42"}})
		src.Error(status)
		src.Add(broken)
	}()
	ev := <-w.ResultChan()
	if b, ok := ev.Object.(*resourcev1.ResourceClaim); ev.Type != watch.Bookmark || !ok || b.ResourceVersion != "42" {
		t.Errorf("bookmark came as %s %#v", ev.Type, ev.Object)
	}
	if ev := <-w.ResultChan(); ev.Type != watch.Error || ev.Object != status {
		t.Errorf("error event came as %s %#v", ev.Type, ev.Object)
	}
	ev = <-w.ResultChan()
	if s, ok := ev.Object.(*metav1.Status); ev.Type != watch.Error || !ok || !strings.Contains(s.Message, "broken") {
		t.Errorf("an unconvertible object came as %s %#v, want an Error event naming it", ev.Type, ev.Object)
	}
	w.Stop()
	if _, open := <-w.ResultChan(); open {
		t.Errorf("the result channel is open after Stop")
	}
}

// TestOlderFieldsSurvive: a claim another client wrote in v1alpha2, with
// what v1 cannot say (a class, parameters, an allocation mode), comes to
// the v1 caller with that in the stash annotation, and the caller's update
// of the v1 object keeps it on the server.
func TestOlderFieldsSurvive(t *testing.T) {
	ctx := context.Background()
	f, c := newFake(t, "v1alpha2")
	old := &a2.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "old", Namespace: "default"},
		Spec: a2.ResourceClaimSpec{
			ResourceClassName: "gpu", AllocationMode: a2.AllocationModeImmediate,
			ParametersRef: &a2.ResourceClaimParametersReference{APIGroup: "example.com", Kind: "GPUParams", Name: "p"},
		},
	}
	if _, err := f.own.ResourceV1alpha2().ResourceClaims("default").Create(ctx, old, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	claims := c.ResourceClaims("default")
	got, err := claims.Get(ctx, "old", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if stash := got.Annotations[resource.StashAnnotation]; !strings.Contains(stash, "GPUParams") {
		t.Errorf("the v1 claim's stash annotation %q does not keep the v1alpha2 parametersRef", stash)
	}
	got.Labels = map[string]string{"touched": "yes"}
	if _, err := claims.Update(ctx, got, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	stored := f.stored(t, "resourceclaims", "default", "old").(*a2.ResourceClaim)
	if d := cmp.Diff(old.Spec, stored.Spec); d != "" || stored.Labels["touched"] != "yes" {
		t.Errorf("after a v1 update the v1alpha2 claim has labels %v and spec (-before +after):\n%s", stored.Labels, d)
	}
}

// TestInformer: client-go's informer machinery runs on the interface's
// List and Watch as on client-go's own client, with v1 objects in the
// cache.
func TestInformer(t *testing.T) {
	for _, v := range []string{"v1beta1", "v1alpha2"} {
		t.Run(v, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			f, c := newFake(t, v)
			slices := c.ResourceSlices()
			if _, err := slices.Create(ctx, v1Slice("before"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			// The fakes cannot stream a list through a watch; client-go's
			// generated informers ask the clientset the same way.
			informer := cache.NewSharedIndexInformer(cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{
				ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
					return slices.List(ctx, opts)
				},
				WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
					return slices.Watch(ctx, opts)
				},
			}, f.kube), &resourcev1.ResourceSlice{}, 0, cache.Indexers{})
			go informer.RunWithContext(ctx)
			if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
				t.Fatal("the informer did not sync")
			}
			after := v1Slice("after")
			if _, err := slices.Create(ctx, after.DeepCopy(), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			for {
				if item, ok, _ := informer.GetStore().GetByKey("after"); ok {
					same(t, f, "the informer's slice", after, item.(*resourcev1.ResourceSlice))
					break
				}
				select {
				case <-ctx.Done():
					t.Fatalf("the informer never saw the slice created after it synced (store: %v)", informer.GetStore().ListKeys())
				case <-time.After(10 * time.Millisecond):
				}
			}
			if _, ok, _ := informer.GetStore().GetByKey("before"); !ok {
				t.Errorf("the informer's list missed the slice created before it started")
			}
		})
	}
}
