// Package resourcev1 runs one client-go-style table test of drakit's
// drop-in ResourceV1Interface (hubclient/resourcev1) against every server
// of the suite: kube-apiserver 1.30 (resource.k8s.io/v1alpha2), 1.33
// started in turn with only v1alpha3, only v1beta1 and only v1beta2
// enabled, and 1.37 (v1). The same code, written against
// k8s.io/api/resource/v1 objects and client-go's apply configurations, runs
// every verb on every kind the server serves, and every object must come
// back as it was written.
package resourcev1

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	rv1 "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	acv1 "k8s.io/client-go/applyconfigurations/resource/v1"
	resourcev1client "k8s.io/client-go/kubernetes/typed/resource/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
	"github.com/drakit/drakit/hubclient"
	"github.com/drakit/drakit/hubclient/resourcev1"
)

// TestResourceV1Interface is the table test: one row per kind, each run
// through the same lifecycle.
func TestResourceV1Interface(t *testing.T) {
	srv := e2eenv.Get(t)
	hub, err := hubclient.NewForConfig(srv.Config, hubclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice"} {
		if v, ok := hub.VersionFor(kind); !ok || v != srv.ResourceVersion {
			t.Fatalf("kube-apiserver %s (resource.k8s.io %v) is reached for %s through %q, want %s", srv.KubeVersion, hub.ServedVersions(), kind, v, srv.ResourceVersion)
		}
	}
	t.Logf("kube-apiserver %s serves resource.k8s.io %v; the v1 interface goes through %s", srv.KubeVersion, hub.ServedVersions(), hub.Version())

	var c resourcev1client.ResourceV1Interface = resourcev1.New(hub)
	e := &env{ns: srv.Namespace(t), run: fmt.Sprintf("%d", time.Now().UnixNano()%1e9), version: srv.ResourceVersion}
	for _, row := range []struct {
		name string
		test func(t *testing.T)
	}{
		{"DeviceClass", kindCase[*rv1.DeviceClass, *rv1.DeviceClassList, *acv1.DeviceClassApplyConfiguration]{
			client: c.DeviceClasses(), object: e.deviceClass,
			items: func(l *rv1.DeviceClassList) []*rv1.DeviceClass { return ptrs(l.Items) },
			update: func(o *rv1.DeviceClass) {
				o.Spec.Selectors = append(o.Spec.Selectors, rv1.DeviceSelector{CEL: &rv1.CELDeviceSelector{Expression: `device.attributes["gpu.example.com"].index >= 0`}})
			},
		}.run(e)},
		{"ResourceClaim", kindCase[*rv1.ResourceClaim, *rv1.ResourceClaimList, *acv1.ResourceClaimApplyConfiguration]{
			client: c.ResourceClaims(e.ns), object: e.claim,
			items: func(l *rv1.ResourceClaimList) []*rv1.ResourceClaim { return ptrs(l.Items) },
			// The spec is immutable.
			update:        func(o *rv1.ResourceClaim) { o.Annotations["updated"] = "yes" },
			status:        func(o *rv1.ResourceClaim) { o.Status = claimStatus("u1") },
			statusPatch:   `{"status":{"reservedFor":[{"resource":"pods","name":"pod-u2","uid":"u2"}]}}`,
			statusPatched: func(o *rv1.ResourceClaim) { o.Status = claimStatus("u2", "u1") },
			olderStatus:   withDriverName,
		}.run(e)},
		{"ResourceClaimTemplate", kindCase[*rv1.ResourceClaimTemplate, *rv1.ResourceClaimTemplateList, *acv1.ResourceClaimTemplateApplyConfiguration]{
			client: c.ResourceClaimTemplates(e.ns), object: e.template,
			items:  func(l *rv1.ResourceClaimTemplateList) []*rv1.ResourceClaimTemplate { return ptrs(l.Items) },
			update: func(o *rv1.ResourceClaimTemplate) { o.Annotations["updated"] = "yes" },
		}.run(e)},
		{"ResourceSlice", kindCase[*rv1.ResourceSlice, *rv1.ResourceSliceList, *acv1.ResourceSliceApplyConfiguration]{
			client: c.ResourceSlices(), object: e.slice,
			items: func(l *rv1.ResourceSliceList) []*rv1.ResourceSlice { return ptrs(l.Items) },
			update: func(o *rv1.ResourceSlice) {
				o.Spec.Devices = append(o.Spec.Devices, rv1.Device{Name: "gpu-2", Attributes: map[rv1.QualifiedName]rv1.DeviceAttribute{"model": {StringValue: ptr.To("h100")}}})
			},
		}.run(e)},
		{"DeviceTaintRule", kindCase[*rv1.DeviceTaintRule, *rv1.DeviceTaintRuleList, *acv1.DeviceTaintRuleApplyConfiguration]{
			client: c.DeviceTaintRules(), object: e.taintRule, optional: true,
			items:  func(l *rv1.DeviceTaintRuleList) []*rv1.DeviceTaintRule { return ptrs(l.Items) },
			update: func(o *rv1.DeviceTaintRule) { o.Spec.Taint.Value = "updated" },
		}.run(e)},
	} {
		t.Run(row.name, row.test)
	}
}

type env struct {
	ns, run string
	version string // the resource.k8s.io version the server is reached with
}

func (e *env) meta(ns, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: "v1iface-" + name + "-" + e.run, Namespace: ns, Labels: map[string]string{"drakit.io/v1iface-run": e.run}, Annotations: map[string]string{"note": "drop-in"}}
}

// The objects: what each version can hold is different, and every one
// says something v1alpha2 cannot (carried in the stash there).

func (e *env) deviceClass(name string) *rv1.DeviceClass {
	return &rv1.DeviceClass{ObjectMeta: e.meta("", name), Spec: rv1.DeviceClassSpec{
		Selectors: []rv1.DeviceSelector{
			// v1alpha2's driverName.
			{CEL: &rv1.CELDeviceSelector{Expression: `device.driver == "gpu.example.com"`}},
			{CEL: &rv1.CELDeviceSelector{Expression: `device.attributes["gpu.example.com"].model == "a100"`}},
		},
		Config: []rv1.DeviceClassConfiguration{{DeviceConfiguration: rv1.DeviceConfiguration{
			Opaque: &rv1.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: runtime.RawExtension{Raw: []byte(`{"sharing":"time-slicing"}`)}},
		}}},
	}}
}

func claimSpec() rv1.ResourceClaimSpec {
	return rv1.ResourceClaimSpec{Devices: rv1.DeviceClaim{
		Requests: []rv1.DeviceRequest{
			{Name: "gpu", Exactly: &rv1.ExactDeviceRequest{DeviceClassName: "gpu", AllocationMode: rv1.DeviceAllocationModeExactCount, Count: 2,
				Selectors: []rv1.DeviceSelector{{CEL: &rv1.CELDeviceSelector{Expression: `device.attributes["gpu.example.com"].model == "a100"`}}}}},
			{Name: "nic", Exactly: &rv1.ExactDeviceRequest{DeviceClassName: "nic", AllocationMode: rv1.DeviceAllocationModeExactCount, Count: 1}},
		},
		Constraints: []rv1.DeviceConstraint{{Requests: []string{"gpu", "nic"}, MatchAttribute: ptr.To(rv1.FullyQualifiedName("example.com/numa"))}},
		Config: []rv1.DeviceClaimConfiguration{{Requests: []string{"gpu"}, DeviceConfiguration: rv1.DeviceConfiguration{
			Opaque: &rv1.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: runtime.RawExtension{Raw: []byte(`{"mig":"1g.5gb"}`)}}}}},
	}}
}

func (e *env) claim(name string) *rv1.ResourceClaim {
	return &rv1.ResourceClaim{ObjectMeta: e.meta(e.ns, name), Spec: claimSpec()}
}

// claimStatus is an allocation with pods reserving the claim.
func claimStatus(uids ...string) rv1.ResourceClaimStatus {
	s := rv1.ResourceClaimStatus{Allocation: &rv1.AllocationResult{Devices: rv1.DeviceAllocationResult{Results: []rv1.DeviceRequestAllocationResult{
		{Request: "gpu", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"},
		{Request: "gpu", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-1"},
	}}}}
	for _, uid := range uids {
		s.ReservedFor = append(s.ReservedFor, rv1.ResourceClaimConsumerReference{Resource: "pods", Name: "pod-" + uid, UID: types.UID(uid)})
	}
	return s
}

func (e *env) template(name string) *rv1.ResourceClaimTemplate {
	return &rv1.ResourceClaimTemplate{ObjectMeta: e.meta(e.ns, name), Spec: rv1.ResourceClaimTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"claim": "from-template"}},
		Spec:       claimSpec(),
	}}
}

func (e *env) slice(name string) *rv1.ResourceSlice {
	node := "node-" + name + "-" + e.run
	return &rv1.ResourceSlice{ObjectMeta: e.meta("", name), Spec: rv1.ResourceSliceSpec{
		Driver: "gpu.example.com", NodeName: ptr.To(node),
		// The pool a 1.30 slice stands for: one slice per node.
		Pool: rv1.ResourcePool{Name: node, Generation: 0, ResourceSliceCount: 1},
		Devices: []rv1.Device{
			{
				Name: "gpu-0",
				Attributes: map[rv1.QualifiedName]rv1.DeviceAttribute{
					"index": {IntValue: ptr.To[int64](0)},
					"model": {StringValue: ptr.To("a100")},
				},
				Capacity: map[rv1.QualifiedName]rv1.DeviceCapacity{"memory": {Value: apiresource.MustParse("16Gi")}},
			},
			{Name: "gpu-1", Attributes: map[rv1.QualifiedName]rv1.DeviceAttribute{"model": {StringValue: ptr.To("a100")}}},
		},
	}}
}

func (e *env) taintRule(name string) *rv1.DeviceTaintRule {
	return &rv1.DeviceTaintRule{ObjectMeta: e.meta("", name), Spec: rv1.DeviceTaintRuleSpec{
		DeviceSelector: &rv1.DeviceTaintSelector{Driver: ptr.To("gpu.example.com"), Pool: ptr.To("node-1")},
		Taint:          rv1.DeviceTaint{Key: "example.com/broken", Value: "yes", Effect: rv1.DeviceTaintEffectNoSchedule, TimeAdded: &metav1.Time{Time: time.Date(2026, 7, 1, 10, 0, 0, 0, time.UTC)}},
	}}
}

// withDriverName is what a v1 program running against 1.30 does for a
// claim status: v1alpha2 requires status.driverName with an allocation,
// and shareable for more than one consumer, which v1 does not have (a v1
// allocation is always shareable); drakit's hub has them, and converting
// back to v1 keeps them in the stash annotation, which the drop-in client
// restores.
func withDriverName(t *testing.T, claim *rv1.ResourceClaim) (*rv1.ResourceClaim, string) {
	t.Helper()
	h, err := conversion.ToHub(claim)
	if err != nil {
		t.Fatal(err)
	}
	hc := h.(*resource.ResourceClaim)
	hc.Status.DriverName = "gpu.example.com"
	hc.Status.Allocation.Shareable = true
	out, err := conversion.FromHub(h, "v1")
	if err != nil {
		t.Fatal(err)
	}
	v1Claim := out.(*rv1.ResourceClaim)
	v1Claim.TypeMeta = metav1.TypeMeta{}
	if v1Claim.Annotations[resource.StashAnnotation] == "" {
		t.Fatalf("the driverName is not in the stash of the v1 claim")
	}
	return v1Claim, "status.driverName"
}

// typedClient is the method set client-go generates for every kind.
type typedClient[V, VL, AC any] interface {
	Create(ctx context.Context, obj V, opts metav1.CreateOptions) (V, error)
	Update(ctx context.Context, obj V, opts metav1.UpdateOptions) (V, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
	DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error
	Get(ctx context.Context, name string, opts metav1.GetOptions) (V, error)
	List(ctx context.Context, opts metav1.ListOptions) (VL, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (V, error)
	Apply(ctx context.Context, obj AC, opts metav1.ApplyOptions) (V, error)
}

type statusClient[V, AC any] interface {
	UpdateStatus(ctx context.Context, obj V, opts metav1.UpdateOptions) (V, error)
	ApplyStatus(ctx context.Context, obj AC, opts metav1.ApplyOptions) (V, error)
}

type object interface {
	runtime.Object
	metav1.Object
}

// kindCase is one row of the table.
type kindCase[V object, VL runtime.Object, AC any] struct {
	client typedClient[V, VL, AC]
	object func(name string) V
	items  func(VL) []V
	// update is a change the kind allows in an Update.
	update func(V)
	// status sets a status (kinds with a status subresource); a strategic
	// merge patch statusPatch of the status subresource then makes the
	// status statusPatched makes.
	status        func(V)
	statusPatch   string
	statusPatched func(V)
	// olderStatus gives the status what a v1alpha2 server requires and v1
	// cannot say; the status update without it must fail naming the field
	// (olderField).
	olderStatus func(t *testing.T, obj V) (V, string)
	// optional kinds are skipped where the server does not serve them.
	optional bool
}

func (k kindCase[V, VL, AC]) run(e *env) func(t *testing.T) {
	return func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		c := k.client
		obj := k.object("a")
		selector := metav1.ListOptions{LabelSelector: "drakit.io/v1iface-run=" + e.run}

		created, err := c.Create(ctx, obj.DeepCopyObject().(V), metav1.CreateOptions{})
		var notServed *hubclient.NotServedError
		if k.optional && errors.As(err, &notServed) {
			if !apierrors.IsNotFound(err) {
				t.Errorf("a kind the server does not serve: %v, want Not Found", err)
			}
			t.Skipf("not served: %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		same(t, "create", obj, created)
		if _, err := c.Create(ctx, obj.DeepCopyObject().(V), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
			t.Errorf("second create: %v, want Already Exists", err)
		}

		w, err := c.Watch(ctx, metav1.ListOptions{ResourceVersion: created.GetResourceVersion(), LabelSelector: selector.LabelSelector})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()

		// client-go's informer machinery on the interface's List and
		// Watch (the reflector tries a streaming list first, which 1.30
		// refuses, and falls back to a list).
		informer := cache.NewSharedIndexInformer(&cache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				opts.LabelSelector = selector.LabelSelector
				return c.List(ctx, opts)
			},
			WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				opts.LabelSelector = selector.LabelSelector
				return c.Watch(ctx, opts)
			},
		}, obj.DeepCopyObject(), 0, cache.Indexers{})
		go informer.RunWithContext(ctx)
		if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
			t.Fatal("an informer on the interface did not sync")
		}
		key, _ := cache.MetaNamespaceKeyFunc(obj)
		if item, ok, _ := informer.GetStore().GetByKey(key); !ok {
			t.Errorf("the informer's cache has no %s", key)
		} else {
			same(t, "informer cache", obj, item.(V))
		}

		got, err := c.Get(ctx, obj.GetName(), metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		same(t, "get", obj, got)
		list, err := c.List(ctx, selector)
		if err != nil {
			t.Fatal(err)
		}
		if items := k.items(list); len(items) != 1 {
			t.Errorf("list: %d items, want 1", len(items))
		} else {
			same(t, "list", obj, items[0])
		}
		if any(list).(metav1.ListInterface).GetResourceVersion() == "" {
			t.Errorf("the list has no resourceVersion")
		}

		// Update, and an update with the resourceVersion it replaced.
		want := got.DeepCopyObject().(V)
		k.update(want)
		updated, err := c.Update(ctx, want.DeepCopyObject().(V), metav1.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		same(t, "update", want, updated)
		nextEvent(t, ctx, w, watch.Modified, want, updated.GetResourceVersion())
		stale := want.DeepCopyObject().(V)
		stale.SetResourceVersion(created.GetResourceVersion())
		if _, err := c.Update(ctx, stale, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
			t.Errorf("update with a stale resourceVersion: %v, want Conflict", err)
		}
		want.SetResourceVersion(updated.GetResourceVersion())

		if k.status != nil {
			sc := c.(statusClient[V, AC])
			k.status(want)
			if e.version == "v1alpha2" && k.olderStatus != nil {
				with, field := k.olderStatus(t, want)
				if _, err := sc.UpdateStatus(ctx, want.DeepCopyObject().(V), metav1.UpdateOptions{}); !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), field) {
					t.Errorf("a v1 status without what v1alpha2 requires: %v, want Invalid naming %s", err, field)
				}
				want = with
			}
			withStatus, err := sc.UpdateStatus(ctx, want.DeepCopyObject().(V), metav1.UpdateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			same(t, "status update", want, withStatus)
			// The main resource keeps the status.
			again := withStatus.DeepCopyObject().(V)
			annotations := map[string]string{"updated": "again"}
			for k, v := range again.GetAnnotations() {
				annotations[k] = v
			}
			again.SetAnnotations(annotations)
			want.SetAnnotations(again.GetAnnotations())
			if updated, err = c.Update(ctx, again, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			same(t, "update after the status update", want, updated)
			// A strategic merge patch of the status merges list items by
			// their key (a merge patch would replace the list).
			patched, err := c.Patch(ctx, obj.GetName(), types.StrategicMergePatchType, []byte(k.statusPatch), metav1.PatchOptions{}, "status")
			if err != nil {
				t.Fatal(err)
			}
			k.statusPatched(want)
			same(t, "strategic merge patch of the status", want, patched)
		}

		// Patches of the v1 form: merge, JSON, strategic merge.
		patched, err := c.Patch(ctx, obj.GetName(), types.MergePatchType, []byte(`{"metadata":{"labels":{"merge":"yes"}}}`), metav1.PatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		addLabel(want, "merge", "yes")
		same(t, "merge patch", want, patched)
		jp := fmt.Sprintf(`[{"op":"test","path":"/metadata/name","value":%q},{"op":"add","path":"/metadata/labels/json","value":"yes"}]`, obj.GetName())
		if patched, err = c.Patch(ctx, obj.GetName(), types.JSONPatchType, []byte(jp), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		addLabel(want, "json", "yes")
		same(t, "JSON patch", want, patched)
		if patched, err = c.Patch(ctx, obj.GetName(), types.StrategicMergePatchType, []byte(`{"metadata":{"labels":{"strategic":"yes"}}}`), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		addLabel(want, "strategic", "yes")
		same(t, "strategic merge patch", want, patched)
		nextEvent[V](t, ctx, w, watch.Modified, *new(V), "")

		// Server-side apply: a takes a label, b conflicts on it, b forces.
		ownerApply := func(owner string) AC {
			return applyConfiguration[AC](t, map[string]any{"metadata": map[string]any{"name": obj.GetName(), "namespace": obj.GetNamespace(), "labels": map[string]any{"owner": owner}}}, obj)
		}
		if patched, err = c.Apply(ctx, ownerApply("a"), metav1.ApplyOptions{FieldManager: "manager-a"}); err != nil {
			t.Fatal(err)
		}
		addLabel(want, "owner", "a")
		same(t, "apply by a", want, patched)
		if _, err := c.Apply(ctx, ownerApply("b"), metav1.ApplyOptions{FieldManager: "manager-b"}); !apierrors.IsConflict(err) {
			t.Errorf("b applying a's label: %v, want Conflict", err)
		}
		if patched, err = c.Apply(ctx, ownerApply("b"), metav1.ApplyOptions{FieldManager: "manager-b", Force: true}); err != nil {
			t.Fatal(err)
		}
		addLabel(want, "owner", "b")
		same(t, "forced apply by b", want, patched)
		if k.status != nil {
			// The status by a controller: a third consumer.
			sc := c.(statusClient[V, AC])
			st := applyConfiguration[AC](t, map[string]any{
				"metadata": map[string]any{"name": obj.GetName(), "namespace": obj.GetNamespace()},
				"status":   map[string]any{"reservedFor": []any{map[string]any{"resource": "pods", "name": "pod-u3", "uid": "u3"}}},
			}, obj)
			if patched, err = sc.ApplyStatus(ctx, st, metav1.ApplyOptions{FieldManager: "controller"}); err != nil {
				t.Fatal(err)
			}
			refs := any(patched).(*rv1.ResourceClaim).Status.ReservedFor
			if len(refs) == 0 || refs[len(refs)-1].UID != "u3" {
				t.Errorf("status apply: reservedFor %v, want pod-u3 among them", refs)
			}
		}

		// An object created by apply alone, from the v1 object.
		byApply := k.object("applied")
		applied, err := c.Apply(ctx, applyConfiguration[AC](t, nil, byApply), metav1.ApplyOptions{FieldManager: "creator"})
		if err != nil {
			t.Fatal(err)
		}
		same(t, "create by apply", byApply, applied)

		// Delete one, then the rest by selector.
		if err := c.Delete(ctx, obj.GetName(), metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		nextEvent[V](t, ctx, w, watch.Deleted, *new(V), "")
		if _, err := c.Get(ctx, obj.GetName(), metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("get after delete: %v, want Not Found", err)
		}
		if err := c.DeleteCollection(ctx, metav1.DeleteOptions{}, selector); err != nil {
			t.Fatal(err)
		}
		if list, err = c.List(ctx, selector); err != nil || len(k.items(list)) != 0 {
			t.Errorf("after DeleteCollection: %v, %d left", err, len(k.items(list)))
		}
	}
}

// applyConfiguration is the apply configuration AC (a pointer type) with
// the JSON of m, or, when m is nil, of obj (as a manager applies an object
// it built), with apiVersion and kind as AC's constructor sets them.
func applyConfiguration[AC any](t *testing.T, m map[string]any, obj runtime.Object) AC {
	t.Helper()
	if m == nil {
		raw, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
	}
	m["apiVersion"] = "resource.k8s.io/v1"
	m["kind"] = reflect.TypeOf(obj).Elem().Name()
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var ac AC
	if err := json.Unmarshal(raw, &ac); err != nil {
		t.Fatal(err)
	}
	return ac
}

func addLabel(obj metav1.Object, k, v string) {
	l := map[string]string{}
	for key, val := range obj.GetLabels() {
		l[key] = val
	}
	l[k] = v
	obj.SetLabels(l)
}

func ptrs[T any](items []T) []*T {
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}

var cmpOpts = cmp.Options{
	cmp.Comparer(func(a, b apiresource.Quantity) bool { return a.Cmp(b) == 0 }),
}

// same compares what was written with what the server returned, without
// what the server sets on its own. Objects must be as client-go hands
// them out (no apiVersion or kind) and carry no stash annotation unless
// the one written had one: a v1 object that went through an older version
// comes back whole, and as it was written.
func same[V object](t *testing.T, what string, want, got V) {
	t.Helper()
	if gvk := got.GetObjectKind().GroupVersionKind(); !gvk.Empty() {
		t.Errorf("%s: the object has apiVersion/kind %s; client-go's typed clients return none", what, gvk)
	}
	_, wantStash := want.GetAnnotations()[resource.StashAnnotation]
	if s, ok := got.GetAnnotations()[resource.StashAnnotation]; ok && !wantStash {
		t.Errorf("%s: the v1 object has a stash annotation %s", what, s)
	}
	w, g := want.DeepCopyObject().(V), got.DeepCopyObject().(V)
	for _, o := range []V{w, g} {
		o.SetUID("")
		o.SetResourceVersion("")
		o.SetCreationTimestamp(metav1.Time{})
		o.SetManagedFields(nil)
		o.SetGeneration(0)
	}
	if d := cmp.Diff(w, g, cmpOpts); d != "" {
		t.Errorf("%s: the object differs from what was written (-written +read):\n%s", what, d)
	}
}

// nextEvent waits for the next watch event of type typ, which carries a
// *v1 object; with want, the object must be want at resourceVersion rv.
func nextEvent[V object](t *testing.T, ctx context.Context, w watch.Interface, typ watch.EventType, want V, rv string) {
	t.Helper()
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				t.Fatalf("the watch ended while waiting for %s", typ)
			}
			if ev.Type == watch.Error {
				t.Fatalf("watch error: %v", apierrors.FromObject(ev.Object))
			}
			got, isV := ev.Object.(V)
			if !isV {
				t.Fatalf("a %s event carries a %T", ev.Type, ev.Object)
			}
			if ev.Type != typ {
				continue
			}
			if !reflect.ValueOf(want).IsNil() {
				if got.GetResourceVersion() != rv {
					continue
				}
				same(t, fmt.Sprintf("%s event", typ), want, got)
			}
			return
		case <-ctx.Done():
			t.Fatalf("no %s event", typ)
		}
	}
}
