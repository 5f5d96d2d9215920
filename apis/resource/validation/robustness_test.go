package validation

import (
	"reflect"
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"
)

// TestRandomObjectsDoNotPanic feeds random objects of every kind to every
// operation: bad input must come back as errors, never as a panic.
func TestRandomObjectsDoNotPanic(t *testing.T) {
	f := randfill.NewWithSeed(20240501).NilChance(0.3).NumElements(0, 3).Funcs(
		func(q *apiresource.Quantity, c randfill.Continue) {
			*q = *apiresource.NewQuantity(c.Int63n(1<<40), apiresource.DecimalSI)
		},
		func(re *runtime.RawExtension, c randfill.Continue) {
			*re = runtime.RawExtension{}
			switch c.Intn(4) {
			case 0:
				re.Raw = []byte(`{"a":1}`)
			case 1:
				c.Fill(&re.Raw)
			}
		},
	)
	for typ := range registry {
		for i := 0; i < 40; i++ {
			obj := reflect.New(typ.Elem()).Interface().(runtime.Object)
			old := reflect.New(typ.Elem()).Interface().(runtime.Object)
			f.Fill(obj)
			f.Fill(old)
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%s: panic: %v", typ, r)
					}
				}()
				ValidateObject(obj, Options{Strict: i%2 == 0})
				ValidateObjectUpdate(obj, old, Options{})
				ValidateObjectStatusUpdate(obj, old, Options{Strict: true})
			}()
		}
	}
}
