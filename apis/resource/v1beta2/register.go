package v1beta2

import (
	resourcev1beta2 "k8s.io/api/resource/v1beta2"
	"k8s.io/apimachinery/pkg/runtime"
)

// The types of resource.k8s.io/v1beta2 are k8s.io/api's (resourcev1beta2), as
// client-go's informers, listers and clients hand them out. This package
// holds what upstream's pkg/apis/resource/v1beta2 holds beside them: their
// registration with drakit's defaults and their conversions to and from the
// hub.

// GroupName is the API group of this version.
const GroupName = resourcev1beta2.GroupName

// SchemeGroupVersion identifies this version.
var SchemeGroupVersion = resourcev1beta2.SchemeGroupVersion

var (
	// SchemeBuilder adds k8s.io/api's types of this version to a scheme,
	// with drakit's defaults and conversions. It does not register anything
	// in k8s.io/api's own builder, so client-go's scheme stays as it is.
	SchemeBuilder = runtime.NewSchemeBuilder(resourcev1beta2.AddToScheme, addDefaultingFuncs)
	// localSchemeBuilder is where the generated conversions register.
	localSchemeBuilder = &SchemeBuilder
	// AddToScheme registers the types, defaults and conversions of this version.
	AddToScheme = localSchemeBuilder.AddToScheme
)
