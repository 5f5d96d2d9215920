// Package install registers the hub and all three served versions of
// resource.k8s.io in a runtime.Scheme.
package install

import (
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/v1alpha1"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// Install adds the internal version and v1alpha1, v1alpha2 and v1alpha3 to
// scheme, with their defaulting functions. The newest version has priority:
// it is what a caller gets when it asks the scheme for the preferred version.
func Install(scheme *runtime.Scheme) {
	utilruntime.Must(resource.AddToScheme(scheme))
	utilruntime.Must(v1alpha1.AddToScheme(scheme))
	utilruntime.Must(v1alpha2.AddToScheme(scheme))
	utilruntime.Must(v1alpha3.AddToScheme(scheme))
	utilruntime.Must(scheme.SetVersionPriority(v1alpha3.SchemeGroupVersion, v1alpha2.SchemeGroupVersion, v1alpha1.SchemeGroupVersion))
}
