package typed

import (
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/hack/e2e/internal/drift"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// TestStrictFieldNames sends, for every kind of every resource.k8s.io
// version the server serves, an object
// of drakit's type with EVERY field set (pointers allocated, one element in
// every list and map) with fieldValidation=Strict and dryRun=All. The server
// decodes the body strictly before it validates, so an unknown or
// duplicated field name is a 400 "strict decoding error" naming the field,
// while invalid values (the filler's "a" strings are rarely valid) are a
// 422 afterwards (or a 403 from admission). Only the unknown fields drift.UnknownFields lists for the
// server's release may appear. It does the same for hub objects converted
// to the served version, which is what the hub client writes.
func TestStrictFieldNames(t *testing.T) {
	srv := e2eenv.Get(t)
	ns := srv.Namespace(t)
	for _, version := range srv.ResourceVersions {
		t.Run(version, func(t *testing.T) { strictFieldNames(t, srv, ns, version) })
	}
}

// strictFieldNames is TestStrictFieldNames for one served version.
func strictFieldNames(t *testing.T, srv *e2eenv.Server, ns, version string) {
	gv := schema.GroupVersion{Group: resource.GroupName, Version: version}
	served := servedResources(t, srv, version)

	for _, kind := range kindsOf(gv) {
		plural, ok := served[kind]
		if !ok {
			t.Run(kind, func(t *testing.T) {
				// The catalogue is the one list of which release serves
				// which kind; a kind missing from discovery must be one it
				// places in other releases.
				if srv.CatalogueServes(gv.Version, kind) {
					t.Fatalf("kube-apiserver %s does not serve %s in %s although drakit's catalogue says that release does", srv.KubeVersion, kind, gv)
				}
				t.Skipf("%s/%s is not served by %s, as drakit's catalogue says", gv.Version, kind, srv.KubeVersion)
			})
			continue
		}
		t.Run(kind, func(t *testing.T) {
			obj, err := conversion.Scheme.New(gv.WithKind(kind))
			if err != nil {
				t.Fatal(err)
			}
			fill(reflect.ValueOf(obj).Elem(), 0)
			unknown := strictUnknownFields(t, srv, gv.Version, plural.name, plural.namespaced, ns, "every-field", obj)
			want := drift.UnknownFields(srv.Minor(), gv.Version, kind)
			if d := cmp.Diff(want, unknown); d != "" {
				t.Errorf("unknown fields of a filled %s/%s on kube-apiserver %s differ from the listed drift (-listed +server):\n%s", gv.Version, kind, srv.KubeVersion, d)
			}
		})
		t.Run(kind+" from hub", func(t *testing.T) {
			hubKind, err := conversion.HubKind(gv.WithKind(kind))
			if err != nil {
				t.Fatal(err)
			}
			hub, err := conversion.Scheme.New(resource.SchemeGroupVersion.WithKind(hubKind))
			if err != nil {
				t.Fatal(err)
			}
			fill(reflect.ValueOf(hub).Elem(), 0)
			obj, err := conversion.FromHub(hub, gv.Version)
			if err != nil {
				t.Fatalf("hub %s to %s: %v", hubKind, gv.Version, err)
			}
			unknown := strictUnknownFields(t, srv, gv.Version, plural.name, plural.namespaced, ns, "from-hub", obj)
			want := drift.UnknownFields(srv.Minor(), gv.Version, kind)
			// A filled hub object may not set every field of the version
			// (conversion decides what it shows), so only the listed drift
			// may appear, not necessarily all of it.
			for _, f := range unknown {
				if !contains(want, f) {
					t.Errorf("kube-apiserver %s does not know field %q of %s/%s written by conversion from the hub", srv.KubeVersion, f, gv.Version, kind)
				}
			}
		})
	}
}

type servedResource struct {
	name       string
	namespaced bool
}

// servedResources maps the kinds of resource.k8s.io the server serves in
// version to their resource names, from discovery.
func servedResources(t *testing.T, srv *e2eenv.Server, version string) map[string]servedResource {
	t.Helper()
	list, err := srv.Discovery.ServerResourcesForGroupVersion(resource.GroupName + "/" + version)
	if err != nil {
		t.Fatalf("discovery of %s/%s on %s: %v", resource.GroupName, version, srv.KubeVersion, err)
	}
	out := map[string]servedResource{}
	for _, r := range list.APIResources {
		if !strings.Contains(r.Name, "/") {
			out[r.Kind] = servedResource{name: r.Name, namespaced: r.Namespaced}
		}
	}
	return out
}

// kindsOf lists the object kinds drakit registers for a version (no lists,
// no option kinds).
func kindsOf(gv schema.GroupVersion) []string {
	var kinds []string
	for kind := range conversion.Scheme.KnownTypes(gv) {
		if strings.HasSuffix(kind, "List") || strings.HasSuffix(kind, "Options") || kind == "WatchEvent" || kind == "Status" {
			continue
		}
		if _, err := conversion.HubKind(gv.WithKind(kind)); err != nil {
			continue
		}
		kinds = append(kinds, kind)
	}
	sort.Strings(kinds)
	return kinds
}

var unknownField = regexp.MustCompile(`unknown field "([^"]+)"`)

// strictUnknownFields creates obj with dryRun=All and fieldValidation=Strict
// through the REST client and returns the unknown fields the server names.
// Any other decoding complaint fails the test.
func strictUnknownFields(t *testing.T, srv *e2eenv.Server, version, plural string, namespaced bool, ns, name string, obj runtime.Object) []string {
	t.Helper()
	o := obj.(metav1.Object)
	o.SetName(name)
	if namespaced {
		o.SetNamespace(ns)
	} else {
		o.SetNamespace("")
	}
	// Server-set metadata would only make the request invalid.
	o.SetResourceVersion("")
	o.SetUID("")
	o.SetManagedFields(nil)
	o.SetGenerateName("")
	o.SetOwnerReferences(nil)
	o.SetFinalizers(nil)
	o.SetDeletionTimestamp(nil)
	o.SetDeletionGracePeriodSeconds(nil)
	o.SetCreationTimestamp(metav1.Time{})
	o.SetGeneration(0)
	o.SetLabels(map[string]string{"a": "b"})
	o.SetAnnotations(nil)
	if a := filledAnnotations(obj); a != nil {
		o.SetAnnotations(a)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := restClient(t, srv, version)
	req := client.Post().AbsPath("/apis", resource.GroupName, version)
	if namespaced {
		req = req.Namespace(ns)
	}
	gvks, _, err := conversion.Scheme.ObjectKinds(obj)
	if err != nil {
		t.Fatal(err)
	}
	obj.GetObjectKind().SetGroupVersionKind(gvks[0])
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatalf("encode %T: %v", obj, err)
	}
	err = req.Resource(plural).
		Param("dryRun", "All").Param("fieldValidation", "Strict").
		SetHeader("Content-Type", "application/json").
		Body(raw).Do(ctx).Error()
	t.Logf("kube-apiserver %s on %T %q: %v", srv.KubeVersion, obj, name, err)
	// Invalid values (422) and admission's refusals (403: a slice naming a
	// node that does not exist, admin access outside a labelled namespace)
	// come after the strict decoding: every field name was known.
	if err == nil || apierrors.IsInvalid(err) || apierrors.IsForbidden(err) {
		return nil
	}
	msg := err.Error()
	if !apierrors.IsBadRequest(err) || !strings.Contains(msg, "strict decoding error") {
		t.Fatalf("dry-run create of a filled %T: %v", obj, err)
	}
	var fields []string
	for _, m := range unknownField.FindAllStringSubmatch(msg, -1) {
		fields = append(fields, m[1])
	}
	if len(fields) == 0 {
		t.Fatalf("strict decoding of %T failed for another reason than unknown fields: %v", obj, err)
	}
	sort.Strings(fields)
	return fields
}

// filledAnnotations keeps the conversion stash of an object converted from
// the hub, the one annotation that is part of what drakit writes.
func filledAnnotations(obj runtime.Object) map[string]string {
	a := obj.(metav1.Object).GetAnnotations()
	if v, ok := a[resource.StashAnnotation]; ok {
		return map[string]string{resource.StashAnnotation: v}
	}
	return nil
}

func restClient(t *testing.T, srv *e2eenv.Server, version string) *rest.RESTClient {
	t.Helper()
	cfg := rest.CopyConfig(srv.Config)
	cfg.GroupVersion = &schema.GroupVersion{Group: resource.GroupName, Version: version}
	cfg.APIPath = "/apis"
	cfg.NegotiatedSerializer = conversion.Codecs.WithoutConversion()
	c, err := rest.RESTClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var (
	rawExtensionType = reflect.TypeOf(runtime.RawExtension{})
	quantityType     = reflect.TypeOf(apiresource.Quantity{})
	timeType         = reflect.TypeOf(metav1.Time{})
	objectMetaType   = reflect.TypeOf(metav1.ObjectMeta{})
	typeMetaType     = reflect.TypeOf(metav1.TypeMeta{})
)

// fill sets every field of v: strings "a", numbers 1, booleans true, one
// element in every slice and map, every pointer allocated. Types with a
// JSON form of their own get a value that encodes.
func fill(v reflect.Value, depth int) {
	if depth > 20 {
		return
	}
	switch v.Type() {
	case rawExtensionType:
		v.Set(reflect.ValueOf(runtime.RawExtension{Raw: []byte(`{"a":1}`)}))
		return
	case quantityType:
		v.Set(reflect.ValueOf(apiresource.MustParse("1")))
		return
	case timeType:
		v.Set(reflect.ValueOf(metav1.NewTime(time.Unix(1700000000, 0))))
		return
	case objectMetaType:
		// Metadata is apimachinery's, not drakit's: labels are enough.
		v.Set(reflect.ValueOf(metav1.ObjectMeta{Labels: map[string]string{"a": "b"}}))
		return
	case typeMetaType:
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("a")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	case reflect.Ptr:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		fill(k, depth+1)
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	}
}
