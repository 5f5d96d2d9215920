// Package typed proves drakit's generated clientset, listers, informers and
// apply configurations against a real kube-apiserver: every kind the server
// serves goes through create, get, list, watch, informer and lister sync,
// update, status update, server-side apply (with a field-manager conflict and
// the Extract round trip) and delete, with strict field validation on every
// write.
package typed

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"github.com/drakit/drakit/generated/clientset/versioned/scheme"
	"github.com/drakit/drakit/generated/informers/externalversions"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// object is what every typed kind is: a runtime.Object with ObjectMeta.
type object interface {
	runtime.Object
	metav1.Object
}

// typedClient is the method set client-gen writes for every kind; each
// generated XInterface satisfies it for its own types.
type typedClient[T object, L runtime.Object, A any] interface {
	Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error)
	Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
	Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (T, error)
	Apply(ctx context.Context, obj A, opts metav1.ApplyOptions) (T, error)
}

// statusClient is the part of the generated client of kinds with a status.
type statusClient[T object, A any] interface {
	UpdateStatus(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
	ApplyStatus(ctx context.Context, obj A, opts metav1.ApplyOptions) (T, error)
}

// kindCase describes one kind of one version for the generic lifecycle test.
type kindCase[T object, L runtime.Object, A any] struct {
	kind       string
	namespaced bool
	client     func(namespace string) typedClient[T, L, A]
	items      func(L) []T
	// informer and get return the kind's informer from a factory and a lister
	// lookup by namespace and name.
	informer func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer
	get      func(f externalversions.SharedInformerFactory, namespace, name string) (T, error)

	// full is a valid object that sets every field the server of this
	// version stores for the kind.
	full func(namespace, name string) T
	// update changes a mutable part of the spec (or, where the whole spec is
	// immutable, the metadata) and check reports whether it is in obj.
	update func(obj T)
	check  func(obj T) bool
	// status fills the status; nil for kinds without a status subresource.
	status func(obj T)

	// applyField is an apply configuration that sets one field to value, and
	// appliedField reads that field; the two field managers of the conflict
	// test fight over it.
	applyField   func(namespace, name, value string) A
	appliedField func(obj T) string
	// extract is the generated Extract<Kind> function.
	extract func(obj T, fieldManager string) (A, error)
}

const (
	managerA = "drakit-e2e-a"
	managerB = "drakit-e2e-b"
	// runLabel marks every object of one test run, so that lists, watches
	// and informers of cluster-scoped kinds see only their own objects.
	runLabel = "drakit.io/e2e-run"
)

var strictCreate = metav1.CreateOptions{FieldValidation: "Strict"}
var strictUpdate = metav1.UpdateOptions{FieldValidation: "Strict"}

// lifecycle runs the whole typed-client program for one kind.
func lifecycle[T object, L runtime.Object, A any](t *testing.T, srv *e2eenv.Server, ns string, c kindCase[T, L, A]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if !c.namespaced {
		ns = ""
	}
	run := fmt.Sprintf("%s-%d", strings.ToLower(c.kind), time.Now().UnixNano()%1e9)
	name := "e2e-" + run
	client := c.client(ns)

	// Informers for this run only, started before the object exists so that
	// they see it arrive.
	factory := externalversions.NewSharedInformerFactoryWithOptions(srv.Clientset, 0,
		externalversions.WithNamespace(ns),
		externalversions.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = runLabel + "=" + run }))
	c.informer(factory)
	stop := make(chan struct{})
	factory.Start(stop)
	defer factory.Shutdown() // runs after close(stop) below: defers run last-in first-out
	defer close(stop)
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("informer %v did not sync", typ)
		}
	}

	// --- create, strictly: a field name drakit writes that the server does
	// not know fails here.
	want := c.full(ns, name)
	labels := want.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[runLabel] = run
	want.SetLabels(labels)
	created, err := client.Create(ctx, want, strictCreate)
	if err != nil {
		t.Fatalf("create %s %s: %v", c.kind, name, err)
	}
	defer func() {
		// Leave nothing behind when a step below fails.
		_ = client.Delete(context.Background(), name, metav1.DeleteOptions{})
	}()
	assertSameContent(t, "created "+c.kind+" (what the server stored vs what was sent)", want, created)

	w, err := client.Watch(ctx, metav1.ListOptions{ResourceVersion: created.GetResourceVersion(), LabelSelector: runLabel + "=" + run})
	if err != nil {
		t.Fatalf("watch %s: %v", c.kind, err)
	}
	defer w.Stop()

	// --- get and list
	got, err := client.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get %s %s: %v", c.kind, name, err)
	}
	assertSameContent(t, "get "+c.kind, created, got)
	list, err := client.List(ctx, metav1.ListOptions{LabelSelector: runLabel + "=" + run})
	if err != nil {
		t.Fatalf("list %s: %v", c.kind, err)
	}
	if items := c.items(list); len(items) != 1 || items[0].GetName() != name {
		t.Fatalf("list %s with label %s=%s: got %d items, want exactly %s", c.kind, runLabel, run, len(items), name)
	} else {
		assertSameContent(t, "list "+c.kind, created, items[0])
	}

	// --- lister: the informer delivers the object.
	waitFor(t, ctx, "lister of "+c.kind+" to have "+name, func() bool {
		o, err := c.get(factory, ns, name)
		return err == nil && o.GetResourceVersion() == created.GetResourceVersion()
	})
	cached, _ := c.get(factory, ns, name)
	assertSameContent(t, "lister "+c.kind, created, cached)

	// --- update
	toUpdate := got.DeepCopyObject().(T)
	c.update(toUpdate)
	updated, err := client.Update(ctx, toUpdate, strictUpdate)
	if err != nil {
		t.Fatalf("update %s %s: %v", c.kind, name, err)
	}
	if !c.check(updated) {
		t.Fatalf("update %s %s: the change is not in the server's answer", c.kind, name)
	}
	expectEvent(t, ctx, w, watch.Modified, name, updated.GetResourceVersion())
	waitFor(t, ctx, "lister of "+c.kind+" to see the update", func() bool {
		o, err := c.get(factory, ns, name)
		return err == nil && o.GetResourceVersion() == updated.GetResourceVersion() && c.check(o)
	})

	// --- status
	latest := updated
	if c.status != nil {
		sc, ok := any(client).(statusClient[T, A])
		if !ok {
			t.Fatalf("the %s client has no UpdateStatus although the kind has a status", c.kind)
		}
		withStatus := updated.DeepCopyObject().(T)
		c.status(withStatus)
		latest, err = sc.UpdateStatus(ctx, withStatus, strictUpdate)
		if err != nil {
			t.Fatalf("update status of %s %s: %v", c.kind, name, err)
		}
		assertSameContent(t, "status update of "+c.kind, withStatus, latest)
		expectEvent(t, ctx, w, watch.Modified, name, latest.GetResourceVersion())

		// The main resource ignores status: an update that drops it keeps it.
		noStatus := latest.DeepCopyObject().(T)
		clearStatus(noStatus)
		afterMain, err := client.Update(ctx, noStatus, strictUpdate)
		if err != nil {
			t.Fatalf("update %s %s without status: %v", c.kind, name, err)
		}
		assertSameContent(t, "update of "+c.kind+" without status (status must stay)", latest, afterMain)
		if afterMain.GetResourceVersion() != latest.GetResourceVersion() {
			t.Errorf("an update of %s %s that only dropped the status changed the object", c.kind, name)
		}

		// Server-side apply of the status with the generated apply
		// configuration, built from the status we just stored.
		statusApply := statusApplyConfigFrom[A](t, latest)
		applied, err := sc.ApplyStatus(ctx, statusApply, metav1.ApplyOptions{FieldManager: managerA + "-status", Force: true})
		if err != nil {
			t.Fatalf("apply status of %s %s: %v", c.kind, name, err)
		}
		// Same content, but the manager now owns the status fields.
		assertSameContent(t, "status apply of "+c.kind, latest, applied)
		again, err := sc.ApplyStatus(ctx, statusApply, metav1.ApplyOptions{FieldManager: managerA + "-status"})
		if err != nil {
			t.Fatalf("second apply of the status of %s %s: %v", c.kind, name, err)
		}
		if again.GetResourceVersion() != applied.GetResourceVersion() {
			t.Errorf("applying the same status twice changed %s %s (resourceVersion %s -> %s)", c.kind, name, applied.GetResourceVersion(), again.GetResourceVersion())
		}
		latest = again
	}

	// --- server-side apply: A takes a field (forcing, since the field may
	// already belong to the manager of the create and update calls), B's
	// conflicting apply fails, B forces and takes it, Extract returns each
	// manager's fields.
	applyA := c.applyField(ns, name, "from-a")
	byA, err := client.Apply(ctx, applyA, metav1.ApplyOptions{FieldManager: managerA, Force: true})
	if err != nil {
		t.Fatalf("apply %s %s as %s: %v", c.kind, name, managerA, err)
	}
	if v := c.appliedField(byA); v != "from-a" {
		t.Fatalf("apply %s as %s: field is %q, want from-a", c.kind, managerA, v)
	}
	extractedA, err := c.extract(byA, managerA)
	if err != nil {
		t.Fatalf("Extract%s for %s: %v", c.kind, managerA, err)
	}
	assertSameApply(t, "Extract"+c.kind+" for "+managerA, applyA, extractedA)

	applyB := c.applyField(ns, name, "from-b")
	_, err = client.Apply(ctx, applyB, metav1.ApplyOptions{FieldManager: managerB})
	if !apierrors.IsConflict(err) {
		t.Fatalf("apply %s as %s over %s's field: got %v, want a conflict", c.kind, managerB, managerA, err)
	}
	if !strings.Contains(err.Error(), managerA) {
		t.Errorf("the conflict does not name the owner %s: %v", managerA, err)
	}
	byB, err := client.Apply(ctx, applyB, metav1.ApplyOptions{FieldManager: managerB, Force: true})
	if err != nil {
		t.Fatalf("forced apply %s as %s: %v", c.kind, managerB, err)
	}
	if v := c.appliedField(byB); v != "from-b" {
		t.Fatalf("forced apply %s as %s: field is %q, want from-b", c.kind, managerB, v)
	}
	extractedB, err := c.extract(byB, managerB)
	if err != nil {
		t.Fatalf("Extract%s for %s: %v", c.kind, managerB, err)
	}
	assertSameApply(t, "Extract"+c.kind+" for "+managerB, applyB, extractedB)
	// A lost the field to B; what A still owns no longer has it.
	lostA, err := c.extract(byB, managerA)
	if err != nil {
		t.Fatalf("Extract%s for %s after losing the field: %v", c.kind, managerA, err)
	}
	if reflect.DeepEqual(lostA, extractedA) {
		t.Errorf("Extract%s for %s still returns the field it lost to %s", c.kind, managerA, managerB)
	}
	// Round trip: applying what Extract returned changes nothing.
	again, err := client.Apply(ctx, extractedB, metav1.ApplyOptions{FieldManager: managerB})
	if err != nil {
		t.Fatalf("re-apply of Extract%s for %s: %v", c.kind, managerB, err)
	}
	if again.GetResourceVersion() != byB.GetResourceVersion() {
		t.Errorf("re-applying Extract%s's result changed the object (resourceVersion %s -> %s)", c.kind, byB.GetResourceVersion(), again.GetResourceVersion())
	}
	assertSameContent(t, "re-apply of Extract"+c.kind, byB, again)

	// --- a second object created by server-side apply alone, from an apply
	// configuration holding every field of the full object.
	name2 := name + "-applied"
	full2 := c.full(ns, name2)
	full2.SetLabels(map[string]string{runLabel: run + "-applied"})
	created2, err := client.Apply(ctx, applyConfigFrom[A](t, full2), metav1.ApplyOptions{FieldManager: managerA})
	if err != nil {
		t.Fatalf("create %s %s by apply: %v", c.kind, name2, err)
	}
	assertSameContent(t, "create by apply of "+c.kind, full2, created2)
	if err := client.Delete(ctx, name2, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete %s %s: %v", c.kind, name2, err)
	}

	// --- delete
	if err := client.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete %s %s: %v", c.kind, name, err)
	}
	expectEvent(t, ctx, w, watch.Deleted, name, "")
	if _, err := client.Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("get %s %s after delete: got %v, want NotFound", c.kind, name, err)
	}
	waitFor(t, ctx, "lister of "+c.kind+" to drop "+name, func() bool {
		_, err := c.get(factory, ns, name)
		return apierrors.IsNotFound(err)
	})
}

// expectEvent reads watch events until one of the given type for name
// arrives (with resourceVersion rv unless rv is empty). Events for other
// changes of the same object in between are skipped.
func expectEvent(t *testing.T, ctx context.Context, w watch.Interface, typ watch.EventType, name, rv string) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				t.Fatalf("watch closed while waiting for %s of %s", typ, name)
			}
			if ev.Type == watch.Error {
				t.Fatalf("watch error while waiting for %s of %s: %v", typ, name, apierrors.FromObject(ev.Object))
			}
			o, ok := ev.Object.(metav1.Object)
			if !ok {
				t.Fatalf("watch event %s carries %T, not an object with metadata", ev.Type, ev.Object)
			}
			if ev.Type == typ && o.GetName() == name && (rv == "" || o.GetResourceVersion() == rv) {
				return
			}
		case <-timeout:
			t.Fatalf("no %s event for %s (resourceVersion %q) within 30s", typ, name, rv)
		case <-ctx.Done():
			t.Fatalf("context ended waiting for %s of %s", typ, name)
		}
	}
}

func waitFor(t *testing.T, ctx context.Context, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// content is an object's JSON without what the server adds on its own
// (uid, resourceVersion, timestamps, managed fields, generation) and
// without apiVersion/kind, which typed clients leave empty.
func content(t *testing.T, obj runtime.Object) map[string]any {
	t.Helper()
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatalf("marshal %T: %v", obj, err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("unmarshal %T: %v", obj, err)
	}
	delete(m, "apiVersion")
	delete(m, "kind")
	if md, ok := m["metadata"].(map[string]any); ok {
		for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "managedFields", "generation"} {
			delete(md, k)
		}
	}
	return m
}

func assertSameContent(t *testing.T, what string, want, got runtime.Object) {
	t.Helper()
	if d := cmp.Diff(content(t, want), content(t, got)); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", what, d)
	}
}

// assertSameApply compares two apply configurations by their JSON.
func assertSameApply(t *testing.T, what string, want, got any) {
	t.Helper()
	norm := func(v any) map[string]any {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("marshal %T: %v", v, err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if d := cmp.Diff(norm(want), norm(got)); d != "" {
		t.Errorf("%s differs from what was applied (-applied +extracted):\n%s", what, d)
	}
}

// applyConfigFrom turns a typed object into the kind's apply configuration
// through JSON: apply configurations use the same field names, so every
// field set in obj is set in the result.
func applyConfigFrom[A any](t *testing.T, obj runtime.Object) A {
	t.Helper()
	return decodeApply[A](t, obj, content(t, obj))
}

func decodeApply[A any](t *testing.T, obj runtime.Object, m map[string]any) A {
	t.Helper()
	gvks, _, err := scheme.Scheme.ObjectKinds(obj)
	if err != nil {
		t.Fatalf("kind of %T: %v", obj, err)
	}
	m["apiVersion"], m["kind"] = gvks[0].GroupVersion().String(), gvks[0].Kind
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var a A
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("apply configuration from %T: %v", obj, err)
	}
	return a
}

// statusApplyConfigFrom is applyConfigFrom for the status subresource:
// only the object's identity and its status.
func statusApplyConfigFrom[A any](t *testing.T, obj runtime.Object) A {
	t.Helper()
	m := content(t, obj)
	md := m["metadata"].(map[string]any)
	ident := map[string]any{"name": md["name"]}
	if ns, ok := md["namespace"]; ok {
		ident["namespace"] = ns
	}
	return decodeApply[A](t, obj, map[string]any{"metadata": ident, "status": m["status"]})
}

// clearStatus zeroes the Status field of a typed object.
func clearStatus(obj runtime.Object) {
	v := reflect.ValueOf(obj).Elem().FieldByName("Status")
	if v.IsValid() {
		v.Set(reflect.Zero(v.Type()))
	}
}
