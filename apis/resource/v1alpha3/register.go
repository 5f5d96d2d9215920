package v1alpha3

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/drakit/drakit/apis/resource/v1alpha3/kubeapi"
)

// GroupName is the API group of every type in this package.
const GroupName = "resource.k8s.io"

// SchemeGroupVersion identifies this package's group and version.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1alpha3"}

// Resource returns the group-qualified form of an unqualified resource name.
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

// Kind returns the group-qualified form of an unqualified kind name.
func Kind(kind string) schema.GroupKind {
	return SchemeGroupVersion.WithKind(kind).GroupKind()
}

var (
	// SchemeBuilder collects the functions that add this version to a scheme.
	SchemeBuilder runtime.SchemeBuilder
	// localSchemeBuilder lets generated code (defaults, conversions) register
	// its own functions without a separate builder.
	localSchemeBuilder = &SchemeBuilder
	// AddToScheme registers the types, defaults and conversions of this version.
	AddToScheme = localSchemeBuilder.AddToScheme
)

func init() {
	// The kinds v1alpha3 gained after 1.31 are k8s.io/api's, registered
	// with their conversions by kubeapi under the same group version.
	localSchemeBuilder.Register(addKnownTypes, addDefaultingFuncs, kubeapi.AddToScheme)
}

// addKnownTypes registers every kind of this version, with its list type.
func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion,
		&DeviceClass{},
		&DeviceClassList{},
		&ResourceClaim{},
		&ResourceClaimList{},
		&ResourceClaimTemplate{},
		&ResourceClaimTemplateList{},
		&PodSchedulingContext{},
		&PodSchedulingContextList{},
		&ResourceSlice{},
		&ResourceSliceList{},
		&metav1.Status{},
	)
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}
