// Hand-written (not generated): checks the generated clientset, apply configurations, listers and informers.
package generated_test

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/generated/clientset/versioned/fake"
	informers "github.com/drakit/drakit/generated/informers/externalversions"
)

// object is what every top-level kind is: a runtime.Object with ObjectMeta.
type object interface {
	runtime.Object
	metav1.Object
}

// applyConfig is what every top-level apply configuration offers.
type applyConfig[A any] interface {
	WithLabels(map[string]string) A
}

// typedClient is the part of a generated typed client that every kind has.
type typedClient[T object, L runtime.Object, A any] interface {
	Create(context.Context, T, metav1.CreateOptions) (T, error)
	Update(context.Context, T, metav1.UpdateOptions) (T, error)
	Delete(context.Context, string, metav1.DeleteOptions) error
	Get(context.Context, string, metav1.GetOptions) (T, error)
	List(context.Context, metav1.ListOptions) (L, error)
	Watch(context.Context, metav1.ListOptions) (watch.Interface, error)
	Apply(context.Context, A, metav1.ApplyOptions) (T, error)
	Patch(context.Context, string, types.PatchType, []byte, metav1.PatchOptions, ...string) (T, error)
}

// statusUpdater and statusApplier are the extra methods of kinds with a
// status subresource.
type statusUpdater[T any] interface {
	UpdateStatus(context.Context, T, metav1.UpdateOptions) (T, error)
}

type statusApplier[T, A any] interface {
	ApplyStatus(context.Context, A, metav1.ApplyOptions) (T, error)
}

// listerFuncs adapts a generated lister (cluster-scoped or namespaced).
type listerFuncs[T any] struct {
	list func(labels.Selector) ([]T, error)
	get  func(namespace, name string) (T, error)
}

// kind describes one kind at one version. C is its generated typed client
// interface; T, L and A are the object, list and apply configuration types.
//
// Every kind has a "probe": one string field of its own schema (not
// metadata) that the tests update and that the two field managers of the
// server-side apply test fight over.
type kind[T object, L runtime.Object, A applyConfig[A], C typedClient[T, L, A]] struct {
	version    string
	kind       string
	namespaced bool
	client     func(cs *fake.Clientset, namespace string) C
	// newObject returns an object with valid content and empty metadata.
	newObject func() T
	probe     func(T) string
	setProbe  func(T, string)
	// setStatus fills a status field and hasStatus reports whether it is
	// filled; applyStatus returns the apply configuration of name/namespace
	// that fills it, and extractStatus is Extract<Kind>Status. All four are
	// nil for kinds without a status subresource.
	setStatus     func(T)
	hasStatus     func(T) bool
	applyStatus   func(name, namespace string) A
	extractStatus func(T, string) (A, error)
	// apply returns the apply configuration of name/namespace that sets the
	// probe to value (namespace is ignored for cluster-scoped kinds).
	apply func(name, namespace, value string) A
	// extract is Extract<Kind>; extractedProbe reads the probe (nil if unset).
	extract        func(T, string) (A, error)
	extractedProbe func(A) *string
	lister         func(informers.SharedInformerFactory) listerFuncs[T]
}

// kindTest lets kinds of different types sit in one table.
type kindTest interface {
	name() string
	versionName() string
	isNamespaced() bool
	hasStatusSubresource() bool
	// samples returns the object the tests create with the probe set to
	// value, and for kinds with a status the same object with the status
	// the tests write (see valid_test.go).
	samples(value string) (obj, withStatus runtime.Object)
	testClient(t *testing.T)
	testApply(t *testing.T)
	testApplyStatus(t *testing.T)
	// informerChecks seeds cs, registers the kind's informer with f, and
	// returns checks to run once the caches have synced, and once every
	// informer's watch is established.
	informerChecks(t *testing.T, cs *fake.Clientset, f informers.SharedInformerFactory) (synced, live func(*testing.T))
}

func (k kind[T, L, A, C]) name() string        { return k.version + "/" + k.kind }
func (k kind[T, L, A, C]) versionName() string { return k.version }
func (k kind[T, L, A, C]) isNamespaced() bool  { return k.namespaced }

// hasStatusSubresource tells whether the table gives the kind a status.
func (k kind[T, L, A, C]) hasStatusSubresource() bool { return k.setStatus != nil }

func (k kind[T, L, A, C]) ns(namespace string) string {
	if k.namespaced {
		return namespace
	}
	return ""
}

func (k kind[T, L, A, C]) build(name, namespace, value string, lbls map[string]string) T {
	obj := k.newObject()
	obj.SetName(name)
	obj.SetNamespace(k.ns(namespace))
	obj.SetLabels(lbls)
	k.setProbe(obj, value)
	return obj
}

func TestClients(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name(), k.testClient)
	}
}

func TestServerSideApply(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name(), k.testApply)
	}
}

func TestServerSideApplyStatus(t *testing.T) {
	for _, k := range kinds {
		if k.hasStatusSubresource() {
			t.Run(k.name(), k.testApplyStatus)
		}
	}
}

// TestKindsCovered guards the table against the catalogue: the table has
// one entry for every kind of every version the catalogue lists, in the
// catalogue's order, with the catalogue's scope and status subresource; and
// the generated clientset serves exactly the catalogue's versions, each with
// exactly the catalogue's resources. A kind added to the catalogue without a
// table entry (or without generated code) fails here.
func TestKindsCovered(t *testing.T) {
	table := map[string]kindTest{}
	var got []string
	for _, k := range kinds {
		if _, dup := table[k.name()]; dup {
			t.Errorf("%s is in the table twice", k.name())
		}
		table[k.name()] = k
		got = append(got, k.name())
	}
	var want []string
	for _, v := range catalogue.Versions {
		for _, ck := range v.Kinds {
			if ck.KubeAPI {
				continue // client-go's (see below)
			}
			name := v.Name + "/" + ck.Name
			want = append(want, name)
			k, ok := table[name]
			if !ok {
				t.Errorf("%s is in the catalogue but has no entry in the table", name)
				continue
			}
			if k.isNamespaced() != ck.Namespaced {
				t.Errorf("%s: namespaced %v in the table, %v in the catalogue", name, k.isNamespaced(), ck.Namespaced)
			}
			if k.hasStatusSubresource() != ck.Status {
				t.Errorf("%s: status subresource %v in the table, %v in the catalogue", name, k.hasStatusSubresource(), ck.Status)
			}
		}
	}
	for _, name := range got {
		if !slices.Contains(want, name) {
			t.Errorf("%s is in the table but not in the catalogue", name)
		}
	}
	if !t.Failed() && !slices.Equal(got, want) {
		t.Errorf("the table's order %v is not the catalogue's %v", got, want)
	}

	// drakit's clientset serves exactly the kinds whose types are drakit's,
	// client-go's at least the others (it has more than resource.k8s.io).
	own := clientsetResources(reflect.TypeFor[*fake.Clientset]())
	kube := clientsetResources(reflect.TypeFor[*kubefake.Clientset]())
	for _, v := range catalogue.Versions {
		var resources []string
		for _, k := range v.Kinds {
			if !k.KubeAPI {
				resources = append(resources, k.Resource)
			} else if !slices.Contains(kube[v.Name], k.Resource) {
				t.Errorf("client-go's clientset has no %s in Resource%s%s(), which the catalogue says it has", k.Resource, strings.ToUpper(v.Name[:1]), v.Name[1:])
			}
		}
		slices.Sort(resources)
		if got := own[v.Name]; !slices.Equal(got, resources) {
			t.Errorf("drakit's clientset serves %v for %s, the catalogue lists %v as drakit's", got, v.Name, resources)
		}
		delete(own, v.Name)
	}
	for ver := range own {
		t.Errorf("the clientset serves %s, which is not in the catalogue", ver)
	}
}

// clientsetResources lists, by version, the resources of a clientset's
// Resource<Version>() groups: one getter per resource (besides RESTClient).
func clientsetResources(cs reflect.Type) map[string][]string {
	served := map[string][]string{}
	for i := range cs.NumMethod() {
		m := cs.Method(i)
		ver, ok := strings.CutPrefix(m.Name, "ResourceV")
		if !ok || m.Type.NumOut() != 1 {
			continue
		}
		var resources []string
		group := m.Type.Out(0)
		for j := range group.NumMethod() {
			if name := group.Method(j).Name; name != "RESTClient" {
				resources = append(resources, strings.ToLower(name))
			}
		}
		slices.Sort(resources)
		served["v"+ver] = resources
	}
	return served
}

func (k kind[T, L, A, C]) testClient(t *testing.T) {
	ctx := t.Context()
	cs := fake.NewClientset()
	c := k.client(cs, k.ns("ns1"))

	// The typed interface has the status methods exactly when the kind has
	// a status subresource.
	iface := reflect.TypeFor[C]()
	for _, m := range []string{"UpdateStatus", "ApplyStatus"} {
		if _, ok := iface.MethodByName(m); ok != (k.setStatus != nil) {
			t.Errorf("%v has %s: %v, want %v", iface, m, ok, k.setStatus != nil)
		}
	}

	w, err := c.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	defer w.Stop()

	// Create.
	for _, o := range []struct{ name, value, tier string }{{"obj-a", "one", "gold"}, {"obj-b", "two", "silver"}} {
		created, err := c.Create(ctx, k.build(o.name, "ns1", o.value, map[string]string{"tier": o.tier}), metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("Create %s: %v", o.name, err)
		}
		if created.GetName() != o.name || created.GetNamespace() != k.ns("ns1") || k.probe(created) != o.value {
			t.Fatalf("Create returned %s/%s probe %q", created.GetNamespace(), created.GetName(), k.probe(created))
		}
		expectEvent(t, w, watch.Added, o.name)
	}
	if _, err := c.Create(ctx, k.build("obj-a", "ns1", "x", nil), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
		t.Errorf("second Create: %v, want AlreadyExists", err)
	}

	// Get.
	got, err := c.Get(ctx, "obj-a", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if k.probe(got) != "one" || got.GetLabels()["tier"] != "gold" {
		t.Fatalf("Get: probe %q labels %v", k.probe(got), got.GetLabels())
	}
	if gvk := got.GetObjectKind().GroupVersionKind(); gvk != (schema.GroupVersionKind{Group: "resource.k8s.io", Version: k.version, Kind: k.kind}) {
		t.Errorf("Get: kind %v", gvk)
	}
	if _, err := c.Get(ctx, "missing", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("Get missing: %v, want NotFound", err)
	}
	if k.namespaced {
		if _, err := k.client(cs, "ns2").Get(ctx, "obj-a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("Get in another namespace: %v, want NotFound", err)
		}
	}

	// List, with and without a label selector.
	for sel, want := range map[string][]string{"": {"obj-a", "obj-b"}, "tier=gold": {"obj-a"}, "tier in (silver)": {"obj-b"}, "tier=none": nil} {
		list, err := c.List(ctx, metav1.ListOptions{LabelSelector: sel})
		if err != nil {
			t.Fatalf("List %q: %v", sel, err)
		}
		if names := listNames(t, list); !slices.Equal(names, want) {
			t.Errorf("List %q = %v, want %v", sel, names, want)
		}
	}

	// Update.
	k.setProbe(got, "updated")
	updated, err := c.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	if k.probe(updated) != "updated" {
		t.Fatalf("Update returned probe %q", k.probe(updated))
	}
	expectEvent(t, w, watch.Modified, "obj-a")
	if _, err := c.Update(ctx, k.build("missing", "ns1", "x", nil), metav1.UpdateOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("Update missing: %v, want NotFound", err)
	}

	// Update status.
	if k.setStatus != nil {
		su, ok := any(c).(statusUpdater[T])
		if !ok {
			t.Fatalf("%T has no UpdateStatus", c)
		}
		k.setStatus(updated)
		withStatus, err := su.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
		if err != nil {
			t.Fatalf("UpdateStatus: %v", err)
		}
		expectEvent(t, w, watch.Modified, "obj-a")
		got, err := c.Get(ctx, "obj-a", metav1.GetOptions{})
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		if !k.hasStatus(withStatus) || !k.hasStatus(got) || k.probe(got) != "updated" {
			t.Fatalf("after UpdateStatus: status stored %v, probe %q", k.hasStatus(got), k.probe(got))
		}
	}

	// Delete.
	if err := c.Delete(ctx, "obj-b", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	expectEvent(t, w, watch.Deleted, "obj-b")
	if _, err := c.Get(ctx, "obj-b", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("Get deleted: %v, want NotFound", err)
	}
	if err := c.Delete(ctx, "obj-b", metav1.DeleteOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("Delete again: %v, want NotFound", err)
	}
	select {
	case ev := <-w.ResultChan():
		t.Errorf("unexpected watch event %s", ev.Type)
	default:
	}

	// Every request went to the catalogue's resource, the status update to
	// its status subresource.
	gvr := k.resource(t)
	statusUpdates := 0
	for _, a := range cs.Actions() {
		if a.GetResource() != gvr {
			t.Errorf("%s of %v, want %v", a.GetVerb(), a.GetResource(), gvr)
		}
		switch sub := a.GetSubresource(); {
		case sub == "":
		case sub == "status" && a.GetVerb() == "update":
			statusUpdates++
		default:
			t.Errorf("%s of the subresource %q", a.GetVerb(), sub)
		}
	}
	if want := map[bool]int{false: 0, true: 1}[k.setStatus != nil]; statusUpdates != want {
		t.Errorf("%d updates of the status subresource, want %d", statusUpdates, want)
	}
}

// resource is the kind's resource according to the catalogue.
func (k kind[T, L, A, C]) resource(t *testing.T) schema.GroupVersionResource {
	t.Helper()
	v, err := catalogue.Lookup(k.version)
	if err != nil {
		t.Fatal(err)
	}
	ck, ok := v.Kind(k.kind)
	if !ok {
		t.Fatalf("%s is not in the catalogue", k.name())
	}
	return v.GroupVersion().WithResource(ck.Resource)
}

func (k kind[T, L, A, C]) testApply(t *testing.T) {
	ctx := t.Context()
	cs := fake.NewClientset()
	c := k.client(cs, k.ns("ns1"))
	const name = "applied"
	applyAs := func(manager, value string, force bool) (T, error) {
		cfg := k.apply(name, "ns1", value).WithLabels(map[string]string{"owner-" + manager: "yes"})
		return c.Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: manager, Force: force})
	}

	// Manager "a" creates the object by applying.
	obj, err := applyAs("a", "one", false)
	if err != nil {
		t.Fatalf("apply by a: %v", err)
	}
	if k.probe(obj) != "one" || obj.GetNamespace() != k.ns("ns1") || obj.GetLabels()["owner-a"] != "yes" {
		t.Fatalf("apply by a: %s/%s probe %q labels %v", obj.GetNamespace(), obj.GetName(), k.probe(obj), obj.GetLabels())
	}
	if managers := managerNames(obj); !slices.Equal(managers, []string{"a"}) {
		t.Fatalf("managedFields managers = %v, want [a]", managers)
	}

	// The apply is typed with the generated schema: a field it does not
	// declare is refused (a schema deduced from the object would take it).
	bogus, err := json.Marshal(map[string]any{
		"apiVersion": "resource.k8s.io/" + k.version, "kind": k.kind,
		"metadata":   map[string]any{"name": name, "namespace": k.ns("ns1")},
		"bogusField": "x",
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Patch(ctx, name, types.ApplyPatchType, bogus, metav1.PatchOptions{FieldManager: "c"}); err == nil || !strings.Contains(err.Error(), "bogusField") {
		t.Errorf("apply of an undeclared field: %v, want an error naming bogusField", err)
	}

	// Manager "b" sets the same field to another value: conflict with "a".
	_, err = applyAs("b", "two", false)
	if !apierrors.IsConflict(err) {
		t.Fatalf("conflicting apply by b: %v, want a Conflict", err)
	}
	if !strings.Contains(err.Error(), `conflict with "a"`) {
		t.Errorf("conflict error does not name manager a: %v", err)
	}
	if obj, err := c.Get(ctx, name, metav1.GetOptions{}); err != nil || k.probe(obj) != "one" || obj.GetLabels()["owner-b"] != "" {
		t.Fatalf("after the failed apply: %v, probe %q labels %v", err, k.probe(obj), obj.GetLabels())
	}

	// The same value is no conflict: the field becomes shared. This also
	// shows that the conflict above is about the value, not about "b".
	if _, err := applyAs("b", "one", false); err != nil {
		t.Fatalf("apply of the same value by b: %v", err)
	}

	// Forced, "b" takes the field over.
	obj, err = applyAs("b", "two", true)
	if err != nil {
		t.Fatalf("forced apply by b: %v", err)
	}
	if k.probe(obj) != "two" || obj.GetLabels()["owner-a"] != "yes" || obj.GetLabels()["owner-b"] != "yes" {
		t.Fatalf("forced apply by b: probe %q labels %v", k.probe(obj), obj.GetLabels())
	}

	// Extract returns what each manager owns now.
	for _, want := range []struct {
		manager string
		probe   *string
		labels  map[string]string
	}{
		{"a", nil, map[string]string{"owner-a": "yes"}},
		{"b", ptr("two"), map[string]string{"owner-b": "yes"}},
		{"nobody", nil, nil},
	} {
		cfg, err := k.extract(obj, want.manager)
		if err != nil {
			t.Fatalf("Extract %s: %v", want.manager, err)
		}
		gotProbe, gotLabels, gotName := k.extractedProbe(cfg), extractedLabels(t, cfg), extractedName(t, cfg)
		if !reflect.DeepEqual(gotProbe, want.probe) || !reflect.DeepEqual(gotLabels, want.labels) || gotName != name {
			t.Errorf("Extract %s: name %q probe %v labels %v, want probe %v labels %v",
				want.manager, gotName, deref(gotProbe), gotLabels, deref(want.probe), want.labels)
		}
	}

	// What "b" extracted can be applied back unchanged, without conflict.
	cfg, err := k.extract(obj, "b")
	if err != nil {
		t.Fatalf("Extract b: %v", err)
	}
	if _, err := c.Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: "b"}); err != nil {
		t.Fatalf("re-apply of the extracted configuration: %v", err)
	}
}

// testApplyStatus applies a status through the status subresource and
// reads it back with Extract<Kind>Status.
func (k kind[T, L, A, C]) testApplyStatus(t *testing.T) {
	if k.setStatus == nil || k.hasStatus == nil || k.applyStatus == nil || k.extractStatus == nil {
		t.Fatalf("the table entry has only some of setStatus, hasStatus, applyStatus and extractStatus")
	}
	ctx := t.Context()
	cs := fake.NewClientset()
	c := k.client(cs, k.ns("ns1"))
	sa, ok := any(c).(statusApplier[T, A])
	if !ok {
		t.Fatalf("%T has no ApplyStatus", c)
	}
	const name = "applied"
	if _, err := c.Apply(ctx, k.apply(name, "ns1", "one"), metav1.ApplyOptions{FieldManager: "a"}); err != nil {
		t.Fatalf("apply by a: %v", err)
	}
	obj, err := sa.ApplyStatus(ctx, k.applyStatus(name, "ns1"), metav1.ApplyOptions{FieldManager: "s"})
	if err != nil {
		t.Fatalf("ApplyStatus by s: %v", err)
	}
	if !k.hasStatus(obj) || k.probe(obj) != "one" {
		t.Fatalf("ApplyStatus by s: status set %v, probe %q", k.hasStatus(obj), k.probe(obj))
	}
	actions := cs.Actions()
	if a, ok := actions[len(actions)-1].(clienttesting.PatchActionImpl); !ok || a.GetSubresource() != "status" || a.GetPatchType() != types.ApplyPatchType {
		t.Fatalf("ApplyStatus sent %#v, want an apply patch of the status subresource", actions[len(actions)-1])
	}

	// The fake tracker records every apply as one to the main resource
	// (client-go's testing package does not handle subresources); the API
	// server records s's fields under the status subresource, which is
	// where Extract<Kind>Status looks. Record them as the server does.
	fields := obj.GetManagedFields()
	for i := range fields {
		if fields[i].Manager == "s" && fields[i].Subresource == "" {
			fields[i].Subresource = "status"
		}
	}
	obj.SetManagedFields(fields)

	for _, want := range []struct {
		manager, extract string
		probe            *string
		status           bool
	}{
		{"s", "status", nil, true},
		{"s", "main", nil, false},
		{"a", "status", nil, false},
		{"a", "main", ptr("one"), false},
	} {
		extract := k.extract
		if want.extract == "status" {
			extract = k.extractStatus
		}
		cfg, err := extract(obj, want.manager)
		if err != nil {
			t.Fatalf("Extract (%s) %s: %v", want.extract, want.manager, err)
		}
		gotProbe, gotStatus, gotName := k.extractedProbe(cfg), extractedHasStatus(t, cfg), extractedName(t, cfg)
		if !reflect.DeepEqual(gotProbe, want.probe) || gotStatus != want.status || gotName != name {
			t.Errorf("Extract (%s) %s: name %q probe %v status %v, want probe %v status %v",
				want.extract, want.manager, gotName, deref(gotProbe), gotStatus, deref(want.probe), want.status)
		}
	}
}

func (k kind[T, L, A, C]) informerChecks(t *testing.T, cs *fake.Clientset, f informers.SharedInformerFactory) (synced, live func(*testing.T)) {
	c1, c2 := k.client(cs, k.ns("ns1")), k.client(cs, k.ns("ns2"))
	for _, o := range []struct {
		c           C
		ns, name    string
		value, tier string
	}{{c1, "ns1", "obj-1", "one", "gold"}, {c2, "ns2", "obj-2", "two", "silver"}} {
		if _, err := o.c.Create(t.Context(), k.build(o.name, o.ns, o.value, map[string]string{"tier": o.tier}), metav1.CreateOptions{}); err != nil {
			t.Fatalf("%s: Create %s: %v", k.name(), o.name, err)
		}
	}
	l := k.lister(f) // registers the informer with the factory

	synced = func(t *testing.T) {
		for sel, want := range map[string][]string{"": {"obj-1", "obj-2"}, "tier=gold": {"obj-1"}} {
			s, err := labels.Parse(sel)
			if err != nil {
				t.Fatal(err)
			}
			objs, err := l.list(s)
			if err != nil {
				t.Fatalf("lister List %q: %v", sel, err)
			}
			var names []string
			for _, o := range objs {
				names = append(names, o.GetName())
			}
			slices.Sort(names)
			if !slices.Equal(names, want) {
				t.Errorf("lister List %q = %v, want %v", sel, names, want)
			}
		}
		o, err := l.get(k.ns("ns2"), "obj-2")
		if err != nil || k.probe(o) != "two" {
			t.Fatalf("lister Get obj-2: %v", err)
		}
		if k.namespaced {
			if _, err := l.get("ns1", "obj-2"); !apierrors.IsNotFound(err) {
				t.Errorf("lister Get obj-2 in ns1: %v, want NotFound", err)
			}
		}
	}
	live = func(t *testing.T) {
		if _, err := c1.Create(t.Context(), k.build("obj-3", "ns1", "three", nil), metav1.CreateOptions{}); err != nil {
			t.Fatalf("Create obj-3: %v", err)
		}
		err := wait.PollUntilContextTimeout(t.Context(), 10*time.Millisecond, wait.ForeverTestTimeout, true, func(context.Context) (bool, error) {
			o, err := l.get(k.ns("ns1"), "obj-3")
			return err == nil && k.probe(o) == "three", nil
		})
		if err != nil {
			t.Fatalf("lister never saw obj-3: %v", err)
		}
	}
	return synced, live
}

// TestInformers starts one shared informer factory per version of the
// catalogue over objects created beforehand, waits for the caches to sync,
// checks the listers, then checks that objects created afterwards reach them
// through the watch. Each version must start one informer, watching the
// catalogue's resource, for each of its kinds in the catalogue whose types
// are drakit's (client-go's informers have the others).
func TestInformers(t *testing.T) {
	for _, version := range catalogue.Versions {
		own := slices.DeleteFunc(slices.Clone(version.Kinds), func(k catalogue.Kind) bool { return k.KubeAPI })
		if len(own) == 0 {
			continue
		}
		t.Run(version.Name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			cs := fake.NewClientset()

			// Let the test know when each informer's watch exists: an object
			// created before that could otherwise be missed (the fake
			// tracker's watch does not replay from a resourceVersion).
			watching := make(chan schema.GroupVersionResource, 32)
			cs.PrependWatchReactor("*", func(action clienttesting.Action) (bool, watch.Interface, error) {
				opts := action.(clienttesting.WatchActionImpl).ListOptions
				w, err := cs.Tracker().Watch(action.GetResource(), action.GetNamespace(), opts)
				if err == nil {
					watching <- action.GetResource()
				}
				return true, w, err
			})

			f := informers.NewSharedInformerFactory(cs, 0)
			defer func() {
				cancel() // stops the informers; Shutdown waits for them
				f.Shutdown()
			}()
			type checks struct {
				name         string
				synced, live func(*testing.T)
			}
			var all []checks
			want := map[schema.GroupVersionResource]bool{}
			for _, ck := range own {
				want[version.GroupVersion().WithResource(ck.Resource)] = true
				i := slices.IndexFunc(kinds, func(k kindTest) bool { return k.name() == version.Name+"/"+ck.Name })
				if i < 0 {
					t.Errorf("%s/%s is in the catalogue but has no entry in the table", version.Name, ck.Name)
					continue
				}
				s, l := kinds[i].informerChecks(t, cs, f)
				all = append(all, checks{ck.Name, s, l})
			}
			for _, k := range kinds {
				if k.versionName() == version.Name && !slices.ContainsFunc(own, func(ck catalogue.Kind) bool { return version.Name+"/"+ck.Name == k.name() }) {
					t.Errorf("%s is in the table but not in the catalogue", k.name())
				}
			}
			f.Start(ctx.Done())
			for typ, ok := range f.WaitForCacheSync(ctx.Done()) {
				if !ok {
					t.Fatalf("cache of %v did not sync", typ)
				}
			}
			if got := len(f.WaitForCacheSync(ctx.Done())); got != len(own) {
				t.Fatalf("%d informers started, want %d (the catalogue's kinds of %s)", got, len(own), version.Name)
			}
			for _, c := range all {
				t.Run(c.name+"/synced", c.synced)
			}

			seen := map[schema.GroupVersionResource]bool{}
			for len(seen) < len(want) {
				select {
				case gvr := <-watching:
					if !want[gvr] {
						t.Fatalf("an informer watches %v, which is not a resource of %s in the catalogue", gvr, version.Name)
					}
					seen[gvr] = true
				case <-time.After(wait.ForeverTestTimeout):
					t.Fatalf("only %d of %d informers are watching: %v", len(seen), len(want), seen)
				}
			}
			for _, c := range all {
				t.Run(c.name+"/live", c.live)
			}
		})
	}
}

func expectEvent(t *testing.T, w watch.Interface, typ watch.EventType, name string) {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatalf("watch closed, want %s %s", typ, name)
		}
		m, err := meta.Accessor(ev.Object)
		if err != nil {
			t.Fatalf("watch event %s: %v", ev.Type, err)
		}
		if ev.Type != typ || m.GetName() != name {
			t.Fatalf("watch event %s %s, want %s %s", ev.Type, m.GetName(), typ, name)
		}
	case <-time.After(wait.ForeverTestTimeout):
		t.Fatalf("no watch event, want %s %s", typ, name)
	}
}

func listNames(t *testing.T, list runtime.Object) []string {
	t.Helper()
	items, err := meta.ExtractList(list)
	if err != nil {
		t.Fatalf("ExtractList: %v", err)
	}
	var names []string
	for _, item := range items {
		m, err := meta.Accessor(item)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m.GetName())
	}
	slices.Sort(names)
	return names
}

func managerNames(obj metav1.Object) []string {
	var names []string
	for _, e := range obj.GetManagedFields() {
		names = append(names, e.Manager)
	}
	return names
}

// extractedMeta reads an apply configuration's metadata as JSON, the form in
// which it is sent.
func extractedMeta(t *testing.T, cfg any) (meta struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels"`
}) {
	t.Helper()
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Metadata *struct {
			Name   string            `json:"name"`
			Labels map[string]string `json:"labels"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Metadata != nil {
		meta = *doc.Metadata
	}
	return meta
}

// extractedHasStatus tells whether an apply configuration sets a status.
func extractedHasStatus(t *testing.T, cfg any) bool {
	t.Helper()
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Status map[string]any `json:"status"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return len(doc.Status) > 0
}

func extractedLabels(t *testing.T, cfg any) map[string]string { return extractedMeta(t, cfg).Labels }
func extractedName(t *testing.T, cfg any) string              { return extractedMeta(t, cfg).Name }

func ptr[V any](v V) *V { return &v }

func deref(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}
