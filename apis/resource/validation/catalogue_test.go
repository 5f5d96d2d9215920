package validation

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/conversion"
)

// TestEveryCatalogueKindHasRules: every kind of every version the catalogue
// lists, and its List, has registered rules of the version's release, and
// there are rules for nothing else.
func TestEveryCatalogueKindHasRules(t *testing.T) {
	want := map[reflect.Type]bool{}
	for _, v := range catalogue.Versions {
		for _, k := range v.Kinds {
			obj, err := conversion.Scheme.New(v.GroupVersion().WithKind(k.Name))
			if err != nil {
				t.Fatalf("%s %s: %v", v.Name, k.Name, err)
			}
			list, err := conversion.Scheme.New(v.GroupVersion().WithKind(k.ListName()))
			if err != nil {
				t.Fatalf("%s %s: %v", v.Name, k.ListName(), err)
			}
			typ := reflect.TypeOf(obj)
			want[typ] = true
			r, ok := registry[typ]
			if !ok {
				t.Errorf("%s %s: no validation rules registered", v.Name, k.Name)
			} else if wantRelease := release("1." + strconv.Itoa(v.RulesOf(k))); r.release != wantRelease {
				t.Errorf("%s %s: rules of %s, the catalogue says %s", v.Name, k.Name, r.release, wantRelease)
			}
			if _, ok := listRegistry[reflect.TypeOf(list)]; !ok {
				t.Errorf("%s %s: no validation of its List registered", v.Name, k.ListName())
			}
		}
	}
	for typ := range registry {
		if !want[typ] {
			t.Errorf("rules registered for %v, which no catalogue version lists", typ)
		}
	}
}
