package validation

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"

	"github.com/drakit/drakit/internal/fuzzer"
)

// TestRandomObjectsDoNotPanic feeds random objects of every kind to every
// operation: bad input must come back as errors, never as a panic. Besides
// the fuzzer's values, raw extensions are now and then random bytes.
func TestRandomObjectsDoNotPanic(t *testing.T) {
	f := fuzzer.New(20240501).NilChance(0.3).NumElements(0, 3).Funcs(
		func(re *runtime.RawExtension, c randfill.Continue) {
			*re = fuzzer.RawExtension(c)
			if c.Intn(4) == 0 {
				c.Fill(&re.Raw)
			}
		},
	)
	n := fuzzer.Iterations(400, 40)
	for typ := range registry {
		for i := 0; i < n; i++ {
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
