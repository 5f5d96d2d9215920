package resource

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of every kind in this package.
const GroupName = "resource.k8s.io"

// SchemeGroupVersion is the internal version of the group, used to register
// the hub types.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: runtime.APIVersionInternal}

// Kind qualifies an unqualified kind with the group.
func Kind(kind string) schema.GroupKind {
	return SchemeGroupVersion.WithKind(kind).GroupKind()
}

// Resource qualifies an unqualified resource with the group.
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

var (
	// SchemeBuilder collects the functions that add the hub types to a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds the hub types to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// addKnownTypes registers every hub kind under the internal version. The hub
// uses the newest name of a renamed kind: DeviceClass (ResourceClass in
// v1alpha1/v1alpha2) and PodSchedulingContext (PodScheduling in v1alpha1).
func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion,
		&DeviceClass{}, &DeviceClassList{},
		&ResourceClaim{}, &ResourceClaimList{},
		&ResourceClaimTemplate{}, &ResourceClaimTemplateList{},
		&PodSchedulingContext{}, &PodSchedulingContextList{},
		&ResourceSlice{}, &ResourceSliceList{},
		&ResourceClaimParameters{}, &ResourceClaimParametersList{},
		&ResourceClassParameters{}, &ResourceClassParametersList{},
		&DeviceTaintRule{}, &DeviceTaintRuleList{},
		&ResourcePoolStatusRequest{}, &ResourcePoolStatusRequestList{},
	)
	return nil
}
