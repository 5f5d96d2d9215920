package kubeapi

import (
	resourcev1alpha3 "k8s.io/api/resource/v1alpha3"
	"k8s.io/apimachinery/pkg/runtime"
)

// SchemeGroupVersion identifies the version these kinds are served in.
var SchemeGroupVersion = resourcev1alpha3.SchemeGroupVersion

var (
	// SchemeBuilder adds k8s.io/api's v1alpha3 types to a scheme, with
	// drakit's defaults and conversions, without registering anything in
	// k8s.io/api's own builder.
	SchemeBuilder = runtime.NewSchemeBuilder(resourcev1alpha3.AddToScheme, addDefaultingFuncs)
	// localSchemeBuilder is where the generated conversions register.
	localSchemeBuilder = &SchemeBuilder
	// AddToScheme registers the types, defaults and conversions of these kinds.
	AddToScheme = localSchemeBuilder.AddToScheme
)
