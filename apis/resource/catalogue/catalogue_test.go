package catalogue_test

import (
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/install"
	"github.com/drakit/drakit/conversion"
)

// TestKindsMatchScheme holds the catalogue to the Go types: every kind it
// lists is registered by its version with a list type and converts to the
// hub kind it names, and every kind a version registers is listed.
func TestKindsMatchScheme(t *testing.T) {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	hubKinds := scheme.KnownTypes(resource.SchemeGroupVersion)
	if len(catalogue.Versions) == 0 {
		t.Fatal("the catalogue lists no version")
	}
	for _, v := range catalogue.Versions {
		var listed, registered []string
		for _, k := range v.Kinds {
			listed = append(listed, k.Name, k.ListName())
			if _, ok := hubKinds[k.Hub]; !ok {
				t.Errorf("%s %s: the hub has no kind %s", v.Name, k.Name, k.Hub)
			}
			obj, err := scheme.New(v.GroupVersion().WithKind(k.Name))
			if err != nil {
				t.Errorf("%s %s: %v", v.Name, k.Name, err)
				continue
			}
			hub, err := scheme.New(resource.SchemeGroupVersion.WithKind(k.Hub))
			if err != nil {
				continue
			}
			if err := scheme.Convert(obj, hub, nil); err != nil {
				t.Errorf("%s %s does not convert to hub %s: %v", v.Name, k.Name, k.Hub, err)
			}
			if k.Resource != strings.ToLower(k.Resource) || !strings.HasSuffix(k.Resource, "s") {
				t.Errorf("%s %s: resource %q is not a lower-case plural", v.Name, k.Name, k.Resource)
			}
			if !k.Served.Contains(k.Served.First) || k.Served.First < v.Served.First || k.Served.Last > v.Served.Last {
				t.Errorf("%s %s: served in %s, outside the version's %s", v.Name, k.Name, k.Served, v.Served)
			}
		}
		for kind := range scheme.KnownTypes(v.GroupVersion()) {
			if kind == "Status" || isMetaKind(kind) {
				continue
			}
			registered = append(registered, kind)
		}
		sort.Strings(listed)
		sort.Strings(registered)
		if diff := cmp.Diff(registered, listed); diff != "" {
			t.Errorf("%s: the kinds the scheme registers (-) and the catalogue lists (+) differ:\n%s", v.Name, diff)
		}
	}
	priority := scheme.PrioritizedVersionsForGroup(resource.GroupName)
	if newest := catalogue.Versions[len(catalogue.Versions)-1].Name; len(priority) == 0 || priority[0].Version != newest {
		t.Errorf("preferred version %v, want %s", priority, newest)
	}
}

// isMetaKind tells the option and event kinds that metav1 registers in
// every group version.
func isMetaKind(kind string) bool {
	switch kind {
	case "ListOptions", "GetOptions", "DeleteOptions", "CreateOptions", "UpdateOptions", "PatchOptions", "WatchEvent":
		return true
	}
	return false
}

func TestKindIn(t *testing.T) {
	k, err := catalogue.KindIn("DeviceClass", "v1alpha1")
	if err != nil || k.Name != "ResourceClass" || k.Resource != "resourceclasses" {
		t.Errorf("DeviceClass in v1alpha1: %+v, %v", k, err)
	}
	_, err = catalogue.KindIn("ResourceSlice", "v1alpha1")
	var notIn *resource.KindNotInVersionError
	if !errors.As(err, &notIn) {
		t.Fatalf("ResourceSlice in v1alpha1: got %v, want a KindNotInVersionError", err)
	}
	if want := []string{"v1alpha2 (as ResourceSlice)", "v1alpha3 (as ResourceSlice)", "v1beta1 (as ResourceSlice)", "v1beta2 (as ResourceSlice)", "v1 (as ResourceSlice)"}; !cmp.Equal(notIn.Versions, want) {
		t.Errorf("versions with ResourceSlice: %v, want %v", notIn.Versions, want)
	}
	if _, err := catalogue.KindIn("ResourceSlice", "v9"); err == nil || !strings.Contains(err.Error(), catalogue.Names()) {
		t.Errorf("unknown version: %v", err)
	}
}

func TestNameInAndHubName(t *testing.T) {
	for _, tc := range []struct{ hub, version, name string }{
		{"DeviceClass", "v1alpha1", "ResourceClass"},
		{"DeviceClassList", "v1alpha1", "ResourceClassList"},
		{"PodSchedulingContextList", "v1alpha1", "PodSchedulingList"},
		{"DeviceClassList", "v1alpha3", "DeviceClassList"},
		{"ResourceClaim", "v1alpha2", "ResourceClaim"},
	} {
		name, err := catalogue.NameIn(tc.hub, tc.version)
		if err != nil || name != tc.name {
			t.Errorf("NameIn(%s, %s) = %q, %v; want %q", tc.hub, tc.version, name, err, tc.name)
		}
		v, _ := catalogue.Lookup(tc.version)
		if hub, ok := v.HubName(tc.name); !ok || hub != tc.hub {
			t.Errorf("%s.HubName(%s) = %q, %v; want %q", tc.version, tc.name, hub, ok, tc.hub)
		}
	}
	_, err := catalogue.NameIn("ResourceClassParametersList", "v1alpha1")
	var notIn *resource.KindNotInVersionError
	if !errors.As(err, &notIn) || notIn.Kind != "ResourceClassParametersList" ||
		!cmp.Equal(notIn.Versions, []string{"v1alpha2 (as ResourceClassParametersList)"}) {
		t.Errorf("a list v1alpha1 lacks: %#v", err)
	}
	v, _ := catalogue.Lookup("v1alpha3")
	for _, kind := range []string{"List", "Status", "ResourceClass", "ResourceClassList", "WatchEvent"} {
		if hub, ok := v.HubName(kind); ok {
			t.Errorf("v1alpha3.HubName(%s) = %q, want none", kind, hub)
		}
	}
}

func TestFind(t *testing.T) {
	for _, tc := range []struct {
		name, version, wantVersion, wantKind string
	}{
		{"resourceclaims", "", "v1", "ResourceClaim"},
		{"resourcepoolstatusrequests", "", "v1alpha3", "ResourcePoolStatusRequest"},
		{"ResourceClass", "", "v1alpha2", "ResourceClass"},
		{"podschedulings", "", "v1alpha1", "PodScheduling"},
		{"resourceclaim", "v1alpha1", "v1alpha1", "ResourceClaim"},
		{"DEVICECLASSES", "", "v1", "DeviceClass"},
		{"deviceclass", "v1alpha3", "v1alpha3", "DeviceClass"},
	} {
		v, k, ok := catalogue.Find(tc.name, tc.version)
		if !ok || v.Name != tc.wantVersion || k.Name != tc.wantKind {
			t.Errorf("Find(%q, %q) = %s %s %v, want %s %s", tc.name, tc.version, v.Name, k.Name, ok, tc.wantVersion, tc.wantKind)
		}
	}
	if _, _, ok := catalogue.Find("resourceslices", "v1alpha1"); ok {
		t.Error("v1alpha1 has no ResourceSlice")
	}
}

func TestReleases(t *testing.T) {
	if got := (catalogue.Releases{First: 27, Last: 30}).String(); got != "1.27-1.30" {
		t.Errorf("got %q", got)
	}
	if got := (catalogue.Releases{First: 26, Last: 26}).String(); got != "1.26" {
		t.Errorf("got %q", got)
	}
}

// TestFieldLabelsSelectTheSameField holds each version's field labels to
// its types: the field a label names in the version's object has the value
// the hub's label names in the hub object it was converted from, for every
// label of every kind (a label that named no field, or another one, would
// select other objects than the caller asked for).
func TestFieldLabelsSelectTheSameField(t *testing.T) {
	for _, v := range catalogue.Versions {
		for _, k := range v.Kinds {
			obj, err := hubObject(k)
			if err != nil {
				t.Fatal(err)
			}
			versioned, err := conversion.FromHub(obj, v.Name)
			if err != nil {
				t.Errorf("%s %s: %v", v.Name, k.Name, err)
				continue
			}
			hubFields, versionFields := jsonFields(t, obj), jsonFields(t, versioned)
			hubNames := map[string]bool{}
			for _, l := range k.SelectableFields() {
				if hubNames[l.Hub] {
					t.Errorf("%s %s: two labels for the hub's %s", v.Name, k.Name, l.Hub)
				}
				hubNames[l.Hub] = true
				want, ok := lookupField(hubFields, l.Hub)
				if !ok && !(l.Hub == "metadata.namespace" && !k.Namespaced) {
					t.Errorf("%s %s: the hub's %s has no field %s", v.Name, k.Name, k.Hub, l.Hub)
				}
				got, ok := lookupField(versionFields, l.Name)
				if !ok && !(l.Name == "metadata.namespace" && !k.Namespaced) {
					t.Errorf("%s %s: the label %s names no field of the object", v.Name, k.Name, l.Name)
				}
				if got != want {
					t.Errorf("%s %s: the label %s selects %q where the hub's %s is %q", v.Name, k.Name, l.Name, got, l.Hub, want)
				}
				if l.Since != 0 && !k.Served.Contains(l.Since) {
					t.Errorf("%s %s: the label %s is accepted from 1.%d, outside the releases that serve the kind (%s)", v.Name, k.Name, l.Name, l.Since, k.Served)
				}
			}
		}
	}
}

// hubObject is a hub object of k's kind whose selectable fields have
// values of their own.
func hubObject(k catalogue.Kind) (runtime.Object, error) {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	obj, err := scheme.New(resource.SchemeGroupVersion.WithKind(k.Hub))
	if err != nil {
		return nil, err
	}
	m := obj.(metav1.Object)
	m.SetName("object-name")
	if k.Namespaced {
		m.SetNamespace("object-namespace")
	}
	if slice, ok := obj.(*resource.ResourceSlice); ok {
		slice.Spec.Driver = "driver.example.com"
		slice.Spec.NodeName = ptr.To("node-name")
		slice.Spec.Pool = resource.ResourcePool{Name: "pool-name", ResourceSliceCount: 1}
	}
	return obj, nil
}

func jsonFields(t *testing.T, obj runtime.Object) map[string]any {
	t.Helper()
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatal(err)
	}
	return fields
}

// lookupField reads the string at a dotted path ("spec.pool.name").
func lookupField(fields map[string]any, path string) (string, bool) {
	var cur any = fields
	for _, step := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return "", false
		}
		if cur, ok = m[step]; !ok {
			return "", false
		}
	}
	s, ok := cur.(string)
	return s, ok
}
