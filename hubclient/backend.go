package hubclient

import (
	"context"
	"fmt"

	v1 "k8s.io/api/resource/v1"
	ka3 "k8s.io/api/resource/v1alpha3"
	b1 "k8s.io/api/resource/v1beta1"
	b2 "k8s.io/api/resource/v1beta2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	a1 "github.com/drakit/drakit/apis/resource/v1alpha1"
	a2 "github.com/drakit/drakit/apis/resource/v1alpha2"
	a3 "github.com/drakit/drakit/apis/resource/v1alpha3"
	"github.com/drakit/drakit/generated/clientset/versioned"
)

// Clientsets are the typed clientsets hubclient talks through: client-go's
// for the kinds whose types are k8s.io/api's (the v1 era and v1alpha3's
// DeviceTaintRule and ResourcePoolStatusRequest), so that they speak
// protobuf as client-go does, and drakit's for the kinds k8s.io/api no
// longer has (v1alpha1, v1alpha2, v1alpha3's 1.31 kinds).
type Clientsets struct {
	Kube   kubernetes.Interface
	Drakit versioned.Interface
}

// backend is one kind of one version, reached through the generated typed
// client, with objects as runtime.Object so that the hub layer above can be
// written once for every kind and version.
type backend interface {
	get(ctx context.Context, name string, opts metav1.GetOptions) (runtime.Object, error)
	list(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)
	watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	create(ctx context.Context, obj runtime.Object, opts metav1.CreateOptions) (runtime.Object, error)
	update(ctx context.Context, obj runtime.Object, opts metav1.UpdateOptions) (runtime.Object, error)
	updateStatus(ctx context.Context, obj runtime.Object, opts metav1.UpdateOptions) (runtime.Object, error)
	delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
	deleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error
	patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (runtime.Object, error)
}

// typedClient is the method set client-gen writes for every kind; the
// generated XInterface of each kind satisfies it for its own types.
type typedClient[T runtime.Object, L runtime.Object] interface {
	Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error)
	Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
	DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error
	Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error)
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (T, error)
}

// statusUpdater is the extra method of kinds with a status subresource.
type statusUpdater[T runtime.Object] interface {
	UpdateStatus(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
}

type typedBackend[T runtime.Object, L runtime.Object] struct {
	c typedClient[T, L]
}

func newBackend[T runtime.Object, L runtime.Object](c typedClient[T, L]) backend {
	return typedBackend[T, L]{c: c}
}

// typed asserts that obj is the version's Go type; the hub layer converts
// to exactly that type, so a mismatch is a bug in this package.
func (b typedBackend[T, L]) typed(obj runtime.Object) (T, error) {
	t, ok := obj.(T)
	if !ok {
		var want T
		return want, fmt.Errorf("hubclient: internal error: got %T where %T belongs", obj, want)
	}
	return t, nil
}

// result turns a typed answer into runtime.Object without wrapping a nil
// pointer in a non-nil interface.
func result[T runtime.Object](obj T, err error) (runtime.Object, error) {
	if err != nil {
		return nil, err
	}
	return obj, nil
}

func (b typedBackend[T, L]) get(ctx context.Context, name string, opts metav1.GetOptions) (runtime.Object, error) {
	return result(b.c.Get(ctx, name, opts))
}

func (b typedBackend[T, L]) list(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	return result(b.c.List(ctx, opts))
}

func (b typedBackend[T, L]) watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return b.c.Watch(ctx, opts)
}

func (b typedBackend[T, L]) create(ctx context.Context, obj runtime.Object, opts metav1.CreateOptions) (runtime.Object, error) {
	t, err := b.typed(obj)
	if err != nil {
		return nil, err
	}
	return result(b.c.Create(ctx, t, opts))
}

func (b typedBackend[T, L]) update(ctx context.Context, obj runtime.Object, opts metav1.UpdateOptions) (runtime.Object, error) {
	t, err := b.typed(obj)
	if err != nil {
		return nil, err
	}
	return result(b.c.Update(ctx, t, opts))
}

func (b typedBackend[T, L]) updateStatus(ctx context.Context, obj runtime.Object, opts metav1.UpdateOptions) (runtime.Object, error) {
	su, ok := b.c.(statusUpdater[T])
	if !ok {
		var t T
		return nil, fmt.Errorf("hubclient: %T has no status subresource", t)
	}
	t, err := b.typed(obj)
	if err != nil {
		return nil, err
	}
	return result(su.UpdateStatus(ctx, t, opts))
}

func (b typedBackend[T, L]) delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	return b.c.Delete(ctx, name, opts)
}

func (b typedBackend[T, L]) deleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error {
	return b.c.DeleteCollection(ctx, opts, listOpts)
}

func (b typedBackend[T, L]) patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (runtime.Object, error) {
	return result(b.c.Patch(ctx, name, pt, data, opts, subresources...))
}

// backendFactory makes the backend of one kind of one version for a
// namespace ("" for cluster-scoped kinds).
type backendFactory func(cs Clientsets, namespace string) backend

// backends holds every kind of every version, by version and then by the
// kind's name in that version, each through the clientset that has it.
var backends = map[string]map[string]backendFactory{
	"v1alpha1": {
		"ResourceClass": func(cs Clientsets, _ string) backend {
			return newBackend[*a1.ResourceClass, *a1.ResourceClassList](cs.Drakit.ResourceV1alpha1().ResourceClasses())
		},
		"ResourceClaim": func(cs Clientsets, ns string) backend {
			return newBackend[*a1.ResourceClaim, *a1.ResourceClaimList](cs.Drakit.ResourceV1alpha1().ResourceClaims(ns))
		},
		"ResourceClaimTemplate": func(cs Clientsets, ns string) backend {
			return newBackend[*a1.ResourceClaimTemplate, *a1.ResourceClaimTemplateList](cs.Drakit.ResourceV1alpha1().ResourceClaimTemplates(ns))
		},
		"PodScheduling": func(cs Clientsets, ns string) backend {
			return newBackend[*a1.PodScheduling, *a1.PodSchedulingList](cs.Drakit.ResourceV1alpha1().PodSchedulings(ns))
		},
	},
	"v1alpha2": {
		"ResourceClass": func(cs Clientsets, _ string) backend {
			return newBackend[*a2.ResourceClass, *a2.ResourceClassList](cs.Drakit.ResourceV1alpha2().ResourceClasses())
		},
		"ResourceClaim": func(cs Clientsets, ns string) backend {
			return newBackend[*a2.ResourceClaim, *a2.ResourceClaimList](cs.Drakit.ResourceV1alpha2().ResourceClaims(ns))
		},
		"ResourceClaimTemplate": func(cs Clientsets, ns string) backend {
			return newBackend[*a2.ResourceClaimTemplate, *a2.ResourceClaimTemplateList](cs.Drakit.ResourceV1alpha2().ResourceClaimTemplates(ns))
		},
		"PodSchedulingContext": func(cs Clientsets, ns string) backend {
			return newBackend[*a2.PodSchedulingContext, *a2.PodSchedulingContextList](cs.Drakit.ResourceV1alpha2().PodSchedulingContexts(ns))
		},
		"ResourceSlice": func(cs Clientsets, _ string) backend {
			return newBackend[*a2.ResourceSlice, *a2.ResourceSliceList](cs.Drakit.ResourceV1alpha2().ResourceSlices())
		},
		"ResourceClaimParameters": func(cs Clientsets, ns string) backend {
			return newBackend[*a2.ResourceClaimParameters, *a2.ResourceClaimParametersList](cs.Drakit.ResourceV1alpha2().ResourceClaimParameters(ns))
		},
		"ResourceClassParameters": func(cs Clientsets, ns string) backend {
			return newBackend[*a2.ResourceClassParameters, *a2.ResourceClassParametersList](cs.Drakit.ResourceV1alpha2().ResourceClassParameters(ns))
		},
	},
	"v1alpha3": {
		"DeviceClass": func(cs Clientsets, _ string) backend {
			return newBackend[*a3.DeviceClass, *a3.DeviceClassList](cs.Drakit.ResourceV1alpha3().DeviceClasses())
		},
		"ResourceClaim": func(cs Clientsets, ns string) backend {
			return newBackend[*a3.ResourceClaim, *a3.ResourceClaimList](cs.Drakit.ResourceV1alpha3().ResourceClaims(ns))
		},
		"ResourceClaimTemplate": func(cs Clientsets, ns string) backend {
			return newBackend[*a3.ResourceClaimTemplate, *a3.ResourceClaimTemplateList](cs.Drakit.ResourceV1alpha3().ResourceClaimTemplates(ns))
		},
		"PodSchedulingContext": func(cs Clientsets, ns string) backend {
			return newBackend[*a3.PodSchedulingContext, *a3.PodSchedulingContextList](cs.Drakit.ResourceV1alpha3().PodSchedulingContexts(ns))
		},
		"ResourceSlice": func(cs Clientsets, _ string) backend {
			return newBackend[*a3.ResourceSlice, *a3.ResourceSliceList](cs.Drakit.ResourceV1alpha3().ResourceSlices())
		},
		"DeviceTaintRule": func(cs Clientsets, _ string) backend {
			return newBackend[*ka3.DeviceTaintRule, *ka3.DeviceTaintRuleList](cs.Kube.ResourceV1alpha3().DeviceTaintRules())
		},
		"ResourcePoolStatusRequest": func(cs Clientsets, _ string) backend {
			return newBackend[*ka3.ResourcePoolStatusRequest, *ka3.ResourcePoolStatusRequestList](cs.Kube.ResourceV1alpha3().ResourcePoolStatusRequests())
		},
	},
	"v1beta1": {
		"DeviceClass": func(cs Clientsets, _ string) backend {
			return newBackend[*b1.DeviceClass, *b1.DeviceClassList](cs.Kube.ResourceV1beta1().DeviceClasses())
		},
		"ResourceClaim": func(cs Clientsets, ns string) backend {
			return newBackend[*b1.ResourceClaim, *b1.ResourceClaimList](cs.Kube.ResourceV1beta1().ResourceClaims(ns))
		},
		"ResourceClaimTemplate": func(cs Clientsets, ns string) backend {
			return newBackend[*b1.ResourceClaimTemplate, *b1.ResourceClaimTemplateList](cs.Kube.ResourceV1beta1().ResourceClaimTemplates(ns))
		},
		"ResourceSlice": func(cs Clientsets, _ string) backend {
			return newBackend[*b1.ResourceSlice, *b1.ResourceSliceList](cs.Kube.ResourceV1beta1().ResourceSlices())
		},
	},
	"v1beta2": {
		"DeviceClass": func(cs Clientsets, _ string) backend {
			return newBackend[*b2.DeviceClass, *b2.DeviceClassList](cs.Kube.ResourceV1beta2().DeviceClasses())
		},
		"ResourceClaim": func(cs Clientsets, ns string) backend {
			return newBackend[*b2.ResourceClaim, *b2.ResourceClaimList](cs.Kube.ResourceV1beta2().ResourceClaims(ns))
		},
		"ResourceClaimTemplate": func(cs Clientsets, ns string) backend {
			return newBackend[*b2.ResourceClaimTemplate, *b2.ResourceClaimTemplateList](cs.Kube.ResourceV1beta2().ResourceClaimTemplates(ns))
		},
		"ResourceSlice": func(cs Clientsets, _ string) backend {
			return newBackend[*b2.ResourceSlice, *b2.ResourceSliceList](cs.Kube.ResourceV1beta2().ResourceSlices())
		},
		"DeviceTaintRule": func(cs Clientsets, _ string) backend {
			return newBackend[*b2.DeviceTaintRule, *b2.DeviceTaintRuleList](cs.Kube.ResourceV1beta2().DeviceTaintRules())
		},
	},
	"v1": {
		"DeviceClass": func(cs Clientsets, _ string) backend {
			return newBackend[*v1.DeviceClass, *v1.DeviceClassList](cs.Kube.ResourceV1().DeviceClasses())
		},
		"ResourceClaim": func(cs Clientsets, ns string) backend {
			return newBackend[*v1.ResourceClaim, *v1.ResourceClaimList](cs.Kube.ResourceV1().ResourceClaims(ns))
		},
		"ResourceClaimTemplate": func(cs Clientsets, ns string) backend {
			return newBackend[*v1.ResourceClaimTemplate, *v1.ResourceClaimTemplateList](cs.Kube.ResourceV1().ResourceClaimTemplates(ns))
		},
		"ResourceSlice": func(cs Clientsets, _ string) backend {
			return newBackend[*v1.ResourceSlice, *v1.ResourceSliceList](cs.Kube.ResourceV1().ResourceSlices())
		},
		"DeviceTaintRule": func(cs Clientsets, _ string) backend {
			return newBackend[*v1.DeviceTaintRule, *v1.DeviceTaintRuleList](cs.Kube.ResourceV1().DeviceTaintRules())
		},
	},
}
