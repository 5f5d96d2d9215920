package conversion

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	hub "github.com/drakit/drakit/apis/resource"
)

// bareLists walks typ and lists the paths of every slice field that the
// JSON encoding writes without omitempty, so that [] and null differ on the
// wire. Paths are JSON paths (".spec.devices"), with "[]" for list items;
// the walk stops at types already on the path (no recursive types here,
// but it must not loop if one appears).
func bareLists(typ reflect.Type, path string, onPath map[reflect.Type]bool, out *[]string) {
	switch typ.Kind() {
	case reflect.Pointer:
		bareLists(typ.Elem(), path, onPath, out)
		return
	case reflect.Slice:
		if typ.Elem().Kind() != reflect.Uint8 {
			bareLists(typ.Elem(), path+"[]", onPath, out)
		}
		return
	case reflect.Struct:
	default:
		return
	}
	if onPath[typ] || !strings.HasPrefix(typ.PkgPath(), drakitTypes) {
		return // metav1 and k8s.io/api types are not the alpha versions'
	}
	onPath[typ] = true
	defer delete(onPath, typ)
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			bareLists(f.Type, path, onPath, out)
			continue
		}
		if name == "" {
			name = f.Name
		}
		p := path + "." + name
		ft := f.Type
		if ft.Kind() == reflect.Slice && ft.Elem().Kind() != reflect.Uint8 && !strings.Contains(","+opts+",", ",omitempty,") {
			*out = append(*out, p)
		}
		bareLists(ft, p, onPath, out)
	}
}

// TestEmptyListsSurviveEveryTrip: every list an alpha version writes
// without omitempty, where [] and null differ on the wire, comes back as
// [] from a trip through each other version with its kind and from one
// through all of them. The lists are found by walking the types, so a new
// one is tested as soon as it exists; wantBareLists makes a new one fail
// until it is looked at.
func TestEmptyListsSurviveEveryTrip(t *testing.T) {
	found := map[string]bool{}
	for _, gv := range Versions {
		for kind, typ := range Scheme.KnownTypes(gv) {
			if !strings.HasPrefix(typ.PkgPath(), drakitTypes) {
				continue
			}
			var paths []string
			bareLists(typ, "", map[reflect.Type]bool{}, &paths)
			for _, path := range paths {
				key := gv.Version + " " + kind + " " + path
				found[key] = true
				if !wantBareLists[key] {
					t.Errorf("%s writes %s without omitempty; add it to wantBareLists (this test then checks that [] survives every trip)", gv.WithKind(kind), path)
				}
				t.Run(strings.ReplaceAll(key, " ", "/"), func(t *testing.T) {
					checkEmptyListTrips(t, gv.WithKind(kind), path)
				})
			}
		}
	}
	for key := range wantBareLists {
		if !found[key] {
			t.Errorf("wantBareLists has %s, which the types no longer write without omitempty", key)
		}
	}
}

// TestNullAttributeListsSurviveEveryTrip: a v1alpha2 intSlice or
// stringSlice whose list is null, which the hub holds as an empty list (the
// layout's nullLists names it), comes back null from every trip.
func TestNullAttributeListsSurviveEveryTrip(t *testing.T) {
	for _, value := range []string{`"intSlice":{"ints":null}`, `"stringSlice":{"strings":null}`} {
		doc := `{"driverName":"d","namedResources":{"instances":[{"name":"x","attributes":[{"name":"a",` + value + `}]}]}}`
		checkTrips(t, gv("v1alpha2").WithKind("ResourceSlice"), []byte(doc), value)
	}
}

// wantBareLists are the lists of the alpha versions that the wire keeps
// apart from null, by version, kind and JSON path.
var wantBareLists = map[string]bool{
	"v1alpha1 PodSchedulingList .items":                                                               true,
	"v1alpha1 ResourceClaimList .items":                                                               true,
	"v1alpha1 ResourceClaimTemplateList .items":                                                       true,
	"v1alpha1 ResourceClassList .items":                                                               true,
	"v1alpha2 PodSchedulingContextList .items":                                                        true,
	"v1alpha2 ResourceClaim .status.allocation.resourceHandles[].structuredData.results":              true,
	"v1alpha2 ResourceClaimList .items":                                                               true,
	"v1alpha2 ResourceClaimList .items[].status.allocation.resourceHandles[].structuredData.results":  true,
	"v1alpha2 ResourceClaimParametersList .items":                                                     true,
	"v1alpha2 ResourceClaimTemplateList .items":                                                       true,
	"v1alpha2 ResourceClassList .items":                                                               true,
	"v1alpha2 ResourceClassParametersList .items":                                                     true,
	"v1alpha2 ResourceSlice .namedResources.instances":                                                true,
	"v1alpha2 ResourceSlice .namedResources.instances[].attributes[].intSlice.ints":                   true,
	"v1alpha2 ResourceSlice .namedResources.instances[].attributes[].stringSlice.strings":             true,
	"v1alpha2 ResourceSliceList .items":                                                               true,
	"v1alpha2 ResourceSliceList .items[].namedResources.instances":                                    true,
	"v1alpha2 ResourceSliceList .items[].namedResources.instances[].attributes[].intSlice.ints":       true,
	"v1alpha2 ResourceSliceList .items[].namedResources.instances[].attributes[].stringSlice.strings": true,
	"v1alpha3 DeviceClassList .items":                                                                 true,
	"v1alpha3 PodSchedulingContextList .items":                                                        true,
	"v1alpha3 ResourceClaim .spec.devices.requests":                                                   true,
	"v1alpha3 ResourceClaimList .items":                                                               true,
	"v1alpha3 ResourceClaimList .items[].spec.devices.requests":                                       true,
	"v1alpha3 ResourceClaimTemplate .spec.spec.devices.requests":                                      true,
	"v1alpha3 ResourceClaimTemplateList .items":                                                       true,
	"v1alpha3 ResourceClaimTemplateList .items[].spec.spec.devices.requests":                          true,
	"v1alpha3 ResourceSlice .spec.devices":                                                            true,
	"v1alpha3 ResourceSliceList .items":                                                               true,
	"v1alpha3 ResourceSliceList .items[].spec.devices":                                                true,
}

// checkEmptyListTrips converts an object of gvk whose list at path is []
// (with one item in each list above it) through every other version with
// its kind and back, and through all of them, each hop over the wire, and
// compares the JSON.
func checkEmptyListTrips(t *testing.T, gvk schema.GroupVersionKind, path string) {
	checkTrips(t, gvk, emptyListJSON(path), "[]")
}

// checkTrips converts the object of gvk that doc is, defaulted, through
// every other version with its kind and back, and through all of them, each
// hop over the wire, and compares the JSON; mark is what its JSON must
// show, for the test to mean something.
func checkTrips(t *testing.T, gvk schema.GroupVersionKind, doc []byte, mark string) {
	in := newObject(t, gvk)
	if err := json.Unmarshal(doc, in); err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	defaulted(in)
	want, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(want), mark) {
		t.Fatalf("the object does not show %s: %s", mark, want)
	}
	hubKind, _ := HubKind(gvk)
	var others []string
	for _, v := range Versions {
		if _, err := KindIn(hubKind, v.Version); err == nil && v.Version != gvk.Version {
			others = append(others, v.Version)
		}
	}
	trips := [][]string{}
	for _, o := range others {
		trips = append(trips, []string{o, gvk.Version})
	}
	trips = append(trips, append(append([]string{}, others...), gvk.Version))
	for _, trip := range trips {
		var obj runtime.Object = in
		for _, v := range trip {
			next, err := Convert(obj, schema.GroupVersion{Group: hub.GroupName, Version: v})
			if err != nil {
				t.Fatalf("%v: to %s: %v", trip, v, err)
			}
			kind, _ := KindIn(hubKind, v)
			obj = defaulted(overTheWire(t, gv(v).WithKind(kind), next))
		}
		clearTypeMeta(obj)
		got, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s through %v:\n in: %s\nout: %s", gvk, trip, want, got)
		}
	}
}

// overTheWire is obj as a server that stores it gives it back: its JSON
// read into a new object of its kind. Conversion keeps an empty list in the
// Go value even where the JSON leaves it out; only the wire shows the loss.
func overTheWire(t *testing.T, gvk schema.GroupVersionKind, obj runtime.Object) runtime.Object {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	out := newObject(t, gvk)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s", b)
	}
	return out
}

// emptyListJSON is a JSON object with an empty list at path and one empty
// object in each list on the way (".a[].b" is {"a":[{"b":[]}]}).
func emptyListJSON(path string) []byte {
	parts := strings.Split(strings.TrimPrefix(path, "."), ".")
	var v any = []any{}
	for i := len(parts) - 1; i >= 0; i-- {
		name, isItem := strings.CutSuffix(parts[i], "[]")
		if isItem {
			v = []any{v}
		}
		v = map[string]any{name: v}
	}
	b, _ := json.Marshal(v)
	return b
}
