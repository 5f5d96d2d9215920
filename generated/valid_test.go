// Hand-written (not generated): the table's objects are valid.
package generated_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource/validation"
)

func (k kind[T, L, A, C]) samples(value string) (obj, withStatus runtime.Object) {
	o := k.build("obj-a", "ns1", value, map[string]string{"tier": "gold"})
	if k.setStatus == nil {
		return o, nil
	}
	s := o.DeepCopyObject().(T)
	k.setStatus(s)
	return o, s
}

// TestObjectsValid checks that what the table gives the clients is valid
// as the API server of each version's release (drakit's validators)
// accepts it: every object with every probe value the tests use, and its
// status as a status update.
func TestObjectsValid(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name(), func(t *testing.T) {
			for _, v := range []string{"one", "two", "three", "updated", "x"} {
				obj, withStatus := k.samples(v)
				if errs := validation.ValidateObject(obj, validation.Options{}); len(errs) > 0 {
					t.Errorf("probe %q: create: %v", v, errs)
				}
				if withStatus == nil {
					continue
				}
				// An update names the version it replaces, as every client
				// sends it; 1.37 refuses a DeviceTaintRule or
				// ResourcePoolStatusRequest update without one.
				for _, o := range []runtime.Object{obj, withStatus} {
					m, err := meta.Accessor(o)
					if err != nil {
						t.Fatal(err)
					}
					m.SetResourceVersion("1")
				}
				if errs := validation.ValidateObjectStatusUpdate(withStatus, obj, validation.Options{}); len(errs) > 0 {
					t.Errorf("probe %q: status update: %v", v, errs)
				}
			}
		})
	}
}
