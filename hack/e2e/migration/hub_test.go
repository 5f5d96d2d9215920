package migration

import (
	"errors"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
	"github.com/drakit/drakit/hubclient"
)

// TestHubclient is the same migration written against the hub types: read
// from 1.30 with hubclient (v1alpha2), write to 1.37 with hubclient (v1),
// read back, write to a fresh 1.30. The kinds v1 cannot hold are not
// served by 1.37, which hubclient says; they go from the first 1.30 server
// to the fresh one directly, as the recipe keeps their export aside.
func TestHubclient(t *testing.T) {
	s := getServers(t)
	run, _ := startRun(t, s, "h")
	ns := run
	from, to, back := hub(t, s.from), hub(t, s.to), hub(t, s.back)
	sel := metav1.ListOptions{LabelSelector: runLabel + "=" + run}

	// What v1 has: 1.30 -> 1.37 -> the fresh 1.30, in the recipe's order.
	classes := listed(t, "DeviceClasses", from.DeviceClasses(), sel, func(l *resource.DeviceClassList) []resource.DeviceClass { return l.Items })
	claims := listed(t, "ResourceClaims", from.ResourceClaims(ns), sel, func(l *resource.ResourceClaimList) []resource.ResourceClaim { return l.Items })
	templates := listed(t, "ResourceClaimTemplates", from.ResourceClaimTemplates(ns), sel, func(l *resource.ResourceClaimTemplateList) []resource.ResourceClaimTemplate { return l.Items })
	slices := listed(t, "ResourceSlices", from.ResourceSlices(), sel, func(l *resource.ResourceSliceList) []resource.ResourceSlice { return l.Items })

	classes = roundTrip(t, "DeviceClasses", from.DeviceClasses(), to.DeviceClasses(), back.DeviceClasses(), classes, sel, false,
		func(l *resource.DeviceClassList) []resource.DeviceClass { return l.Items })
	claims = roundTrip(t, "ResourceClaims", from.ResourceClaims(ns), to.ResourceClaims(ns), back.ResourceClaims(ns), claims, sel, true,
		func(l *resource.ResourceClaimList) []resource.ResourceClaim { return l.Items })
	_ = roundTrip(t, "ResourceClaimTemplates", from.ResourceClaimTemplates(ns), to.ResourceClaimTemplates(ns), back.ResourceClaimTemplates(ns), templates, sel, false,
		func(l *resource.ResourceClaimTemplateList) []resource.ResourceClaimTemplate { return l.Items })
	_ = roundTrip(t, "ResourceSlices", from.ResourceSlices(), to.ResourceSlices(), back.ResourceSlices(), slices, sel, false,
		func(l *resource.ResourceSliceList) []resource.ResourceSlice { return l.Items })
	if len(classes) == 0 || len(claims) == 0 {
		t.Fatal("nothing came back from 1.37")
	}

	// What v1 has not: 1.37 does not serve it, the objects go from 1.30
	// to the fresh 1.30 directly.
	keptAsideHub(t, "ResourceClassParameters", from.ResourceClassParameters(ns), to.ResourceClassParameters(ns), back.ResourceClassParameters(ns), sel, false,
		func(l *resource.ResourceClassParametersList) []resource.ResourceClassParameters { return l.Items })
	keptAsideHub(t, "ResourceClaimParameters", from.ResourceClaimParameters(ns), to.ResourceClaimParameters(ns), back.ResourceClaimParameters(ns), sel, false,
		func(l *resource.ResourceClaimParametersList) []resource.ResourceClaimParameters { return l.Items })
	keptAsideHub(t, "PodSchedulingContexts", from.PodSchedulingContexts(ns), to.PodSchedulingContexts(ns), back.PodSchedulingContexts(ns), sel, true,
		func(l *resource.PodSchedulingContextList) []resource.PodSchedulingContext { return l.Items })

	// The fresh 1.30 cluster holds what the first one held, read as
	// v1alpha2 on both.
	for _, k := range toV1alpha2 {
		want := items(t, k.v1alpha2, export(t, s.from, "v1alpha2", k.v1alpha2, run))
		got := items(t, k.v1alpha2, export(t, s.back, "v1alpha2", k.v1alpha2, run))
		sameObjects(t, "back on a fresh 1.30 through hubclient: "+k.v1alpha2, want, got)
	}
}

func hub(t *testing.T, srv *e2eenv.Server) *hubclient.Client {
	t.Helper()
	c, err := hubclient.NewForConfig(srv.Config, hubclient.Options{})
	if err != nil {
		t.Fatalf("hubclient for kube-apiserver %s: %v", srv.KubeVersion, err)
	}
	if c.Version() != srv.ResourceVersion {
		t.Fatalf("hubclient chose resource.k8s.io/%s on kube-apiserver %s, which prefers %s", c.Version(), srv.KubeVersion, srv.ResourceVersion)
	}
	return c
}

// hubPtr is a pointer to a hub kind (*resource.DeviceClass, ...).
type hubPtr[E any] interface {
	*E
	hubclient.Object
}

// listed lists a kind through hubclient and returns its items.
func listed[E any, P hubPtr[E], L runtime.Object](t *testing.T, what string, r *hubclient.Resource[P, L], sel metav1.ListOptions, itemsOf func(L) []E) []E {
	t.Helper()
	l, err := r.List(ctx(t), sel)
	if err != nil {
		t.Fatalf("list %s with hubclient (%s): %v", what, r.Version(), err)
	}
	return itemsOf(l)
}

// roundTrip writes objs (read from 1.30) to 1.37, reads them back, checks
// that the hub objects are the ones read from 1.30, writes those to the
// fresh 1.30 and returns them.
func roundTrip[E any, P hubPtr[E], L runtime.Object](t *testing.T, what string, from, to, back *hubclient.Resource[P, L], objs []E, sel metav1.ListOptions, status bool, itemsOf func(L) []E) []E {
	t.Helper()
	writeHub[E, P, L](t, what, to, objs, status)
	onTo := listed[E, P, L](t, what, to, sel, itemsOf)
	sameHub[E, P](t, what+" read back from 1.37", objs, onTo)
	writeHub[E, P, L](t, what, back, onTo, status)
	return onTo
}

// keptAsideHub proves that 1.37 does not serve a kind (hubclient's
// NotServedError) and copies its objects from 1.30 to the fresh 1.30.
func keptAsideHub[E any, P hubPtr[E], L runtime.Object](t *testing.T, what string, from, to, back *hubclient.Resource[P, L], sel metav1.ListOptions, status bool, itemsOf func(L) []E) {
	t.Helper()
	objs := listed[E, P, L](t, what, from, sel, itemsOf)
	var notServed *hubclient.NotServedError
	if _, err := to.List(ctx(t), sel); !errors.As(err, &notServed) {
		t.Errorf("hubclient on 1.37: list %s: %v, want a *hubclient.NotServedError", what, err)
	}
	writeHub[E, P, L](t, what, back, objs, status)
}

// writeHub creates each object, without what its old server set, and
// then writes its status through the status subresource.
func writeHub[E any, P hubPtr[E], L runtime.Object](t *testing.T, what string, r *hubclient.Resource[P, L], objs []E, status bool) {
	t.Helper()
	for i := range objs {
		obj := withoutServerFields(P(&objs[i]))
		created, err := r.Create(ctx(t), obj, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("hubclient (%s): create %s %s: %v", r.Version(), what, obj.GetName(), err)
		}
		if !status || reflect.ValueOf(obj).Elem().FieldByName("Status").IsZero() {
			continue
		}
		withStatus := P(&objs[i]).DeepCopyObject().(P)
		withStatus.SetResourceVersion(created.GetResourceVersion())
		withStatus.SetUID(created.GetUID())
		if _, err := r.UpdateStatus(ctx(t), withStatus, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("hubclient (%s): update the status of %s %s: %v", r.Version(), what, obj.GetName(), err)
		}
	}
}

// sameHub compares hub objects by name, without what a server sets.
func sameHub[E any, P hubPtr[E]](t *testing.T, what string, want, got []E) {
	t.Helper()
	if len(want) != len(got) {
		t.Errorf("%s: %d objects, want %d", what, len(got), len(want))
		return
	}
	byName := map[string]P{}
	for i := range got {
		byName[P(&got[i]).GetName()] = P(&got[i])
	}
	for i := range want {
		w := P(&want[i])
		g, ok := byName[w.GetName()]
		if !ok {
			t.Errorf("%s: %s is missing", what, w.GetName())
			continue
		}
		if d := cmp.Diff(withoutServerFields(w), withoutServerFields(g), cmp.Comparer(func(a, b apiresource.Quantity) bool { return a.Cmp(b) == 0 })); d != "" {
			t.Errorf("%s: %s differs from what 1.30 held (-1.30 +1.37):\n%s", what, w.GetName(), d)
		}
	}
}

func withoutServerFields[P hubclient.Object](o P) P {
	c := o.DeepCopyObject().(P)
	c.SetUID("")
	c.SetResourceVersion("")
	c.SetCreationTimestamp(metav1.Time{})
	c.SetGeneration(0)
	c.SetManagedFields(nil)
	return c
}
