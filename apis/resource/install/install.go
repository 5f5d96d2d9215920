// Package install registers the hub and every version of resource.k8s.io
// that apis/resource/catalogue lists in a runtime.Scheme.
package install

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
)

// Install adds the internal version and every version of the catalogue to
// scheme, with their defaulting functions and conversions. The newest
// version has priority: it is what a caller gets when it asks the scheme
// for the preferred version.
func Install(scheme *runtime.Scheme) {
	utilruntime.Must(resource.AddToScheme(scheme))
	priority := make([]schema.GroupVersion, 0, len(catalogue.Versions))
	for i := len(catalogue.Versions) - 1; i >= 0; i-- {
		v := catalogue.Versions[i]
		utilruntime.Must(v.AddToScheme(scheme))
		priority = append(priority, v.GroupVersion())
	}
	utilruntime.Must(scheme.SetVersionPriority(priority...))
}
