package hubclient

import (
	"context"
	"reflect"
	"sort"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/conversion"
)

// TestBackendsMatchTheCatalogue: hubclient reaches every kind of every
// catalogue version, through the typed client of that very kind, and knows
// no other.
func TestBackendsMatchTheCatalogue(t *testing.T) {
	ctx := context.Background()
	cs := newFakeCluster().clientsets()
	var want, got []string
	for _, v := range catalogue.Versions {
		for _, k := range v.Kinds {
			want = append(want, v.Name+"/"+k.Name)
			factory, ok := backends[v.Name][k.Name]
			if !ok {
				continue
			}
			obj, err := conversion.Scheme.New(v.GroupVersion().WithKind(k.Name))
			if err != nil {
				t.Fatal(err)
			}
			ns := ""
			if k.Namespaced {
				ns = "ns"
				obj.(metav1.Object).SetNamespace(ns)
			}
			obj.(metav1.Object).SetName("x")
			b := factory(cs, ns)
			if _, err := b.create(ctx, obj, metav1.CreateOptions{}); err != nil {
				t.Errorf("%s %s: create through its backend: %v", v.Name, k.Name, err)
				continue
			}
			back, err := b.get(ctx, "x", metav1.GetOptions{})
			if err != nil || reflect.TypeOf(back) != reflect.TypeOf(obj) {
				t.Errorf("%s %s: get through its backend: %T, %v", v.Name, k.Name, back, err)
			}
		}
	}
	for version, kinds := range backends {
		for kind := range kinds {
			got = append(got, version+"/"+kind)
		}
	}
	sort.Strings(want)
	sort.Strings(got)
	if !reflect.DeepEqual(want, got) {
		t.Errorf("backends for %v, the catalogue has %v", got, want)
	}
}
