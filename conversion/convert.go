// Package conversion converts resource.k8s.io objects between the versions
// the catalogue (apis/resource/catalogue) lists, through the hub types of apis/resource. Conversion
// is lossless: what the target version cannot say is kept in the
// resource.StashAnnotation of the converted object and restored on the way
// back. docs/conversion.md describes every field.
package conversion

import (
	"fmt"
	"reflect"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/install"
	"github.com/drakit/drakit/internal/quantityguard"
)

var (
	// Scheme has the hub and every version installed, with their
	// conversions and defaults, for callers who use apimachinery directly.
	Scheme = runtime.NewScheme()
	// Codecs serialises the objects of Scheme.
	Codecs = serializer.NewCodecFactory(Scheme)
)

func init() {
	install.Install(Scheme)
}

// Versions are the served versions of resource.k8s.io, oldest first, as
// the catalogue lists them.
var Versions = catalogue.GroupVersions()

// HubKind is the hub's name for a kind of a version (DeviceClass for
// v1alpha1's ResourceClass, DeviceClassList for its ResourceClassList), as
// the catalogue records it. It fails for a kind the version does not have.
func HubKind(gvk schema.GroupVersionKind) (string, error) {
	if gvk.Group != resource.GroupName {
		return "", fmt.Errorf("%s is not in the %s group", gvk, resource.GroupName)
	}
	v, err := catalogue.Lookup(gvk.Version)
	if err != nil {
		return "", err
	}
	if hub, ok := v.HubName(gvk.Kind); ok {
		return hub, nil
	}
	return "", fmt.Errorf("%s has no kind %q", gvk.GroupVersion(), gvk.Kind)
}

// KindIn is the name that version gives to a hub kind or hub list kind. For
// a kind the version does not have, it returns a
// *resource.KindNotInVersionError.
func KindIn(hubKind, version string) (string, error) {
	return catalogue.NameIn(hubKind, version)
}

// Convert converts obj, a typed object of any version of resource.k8s.io,
// a hub object, or an *unstructured.Unstructured, to the target group
// version, renaming the kind where the versions differ. The result is typed,
// or unstructured when obj was. Converting to the version obj already has
// returns an unchanged copy. obj itself is never modified.
//
// Errors: a *resource.KindNotInVersionError when the target version does not
// have the kind, a *resource.MalformedStashError when obj carries a stash
// that cannot be read, and plain errors for objects of other groups, unknown
// versions or kinds, and unstructured content that does not fit the type.
func Convert(obj runtime.Object, target schema.GroupVersion) (runtime.Object, error) {
	if target.Group != resource.GroupName {
		return nil, fmt.Errorf("target %s is not a version of %s", target, resource.GroupName)
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return convertUnstructured(u, target)
	}
	k, err := kindsOf(obj)
	if err != nil {
		return nil, err
	}
	if k.gvk.Version == target.Version {
		out := obj.DeepCopyObject()
		out.GetObjectKind().SetGroupVersionKind(k.gvk)
		return out, nil
	}
	if k.relabel != nil && target.Version == k.relabelTo {
		// v1beta2 <-> v1: the same object under the other name (relabel.go).
		if out, ok := k.relabel(obj); ok {
			out.GetObjectKind().SetGroupVersionKind(target.WithKind(k.gvk.Kind))
			return out, nil
		}
	}
	hub, err := ToHub(obj)
	if err != nil {
		return nil, err
	}
	return FromHub(hub, target.Version)
}

// ToHub converts a typed object of any version to its hub type. A hub object
// is returned as a copy.
func ToHub(obj runtime.Object) (runtime.Object, error) {
	k, err := kindsOf(obj)
	if err != nil {
		return nil, err
	}
	if k.gvk.Version == runtime.APIVersionInternal {
		return obj.DeepCopyObject(), nil
	}
	out := k.newHub()
	if err := convertTyped(obj, out); err != nil {
		return nil, err
	}
	return out, nil
}

// FromHub converts a hub object to the given version ("v1alpha1", ...),
// with apiVersion and kind set.
func FromHub(hub runtime.Object, version string) (runtime.Object, error) {
	k, err := kindsOf(hub)
	if err != nil {
		return nil, err
	}
	if k.gvk.Version != runtime.APIVersionInternal {
		return nil, fmt.Errorf("FromHub needs a hub object, got %s", k.gvk)
	}
	target, ok := k.targets[version]
	if !ok {
		if _, err := KindIn(k.gvk.Kind, version); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("no %s in %s", k.gvk.Kind, version)
	}
	out := target.new()
	if err := convertTyped(hub, out); err != nil {
		return nil, err
	}
	out.GetObjectKind().SetGroupVersionKind(target.gvk)
	return out, nil
}

// convertTyped runs the registered conversion from in to out, two typed
// objects of the group. It calls the scheme's converter directly: Scheme.Convert
// would first check for unstructured objects and build conversion metadata
// that none of the group's conversion functions reads, which costs a small
// object's conversion a fifth of its time.
func convertTyped(in, out runtime.Object) error {
	return Scheme.Converter().Convert(in, out, nil)
}

// typeKinds is what conversion needs to know about one Go type, worked out
// once: looking it up in the scheme on every call costs as much as
// converting a small object.
type typeKinds struct {
	gvk     schema.GroupVersionKind
	newHub  func() runtime.Object // for versioned types
	targets map[string]target     // for hub types, by version
	// relabel converts a v1beta2 object to v1 or back (relabelTo) without
	// the hub, where it can.
	relabel   relabeler
	relabelTo string
}

type target struct {
	gvk schema.GroupVersionKind
	new func() runtime.Object
}

var typeCache sync.Map // reflect.Type -> *typeKinds

func kindsOf(obj runtime.Object) (*typeKinds, error) {
	if obj == nil {
		return nil, fmt.Errorf("nil object")
	}
	t := reflect.TypeOf(obj)
	if k, ok := typeCache.Load(t); ok {
		return k.(*typeKinds), nil
	}
	gvk, err := objectKind(obj)
	if err != nil {
		return nil, err
	}
	k := &typeKinds{gvk: gvk}
	if gvk.Version == runtime.APIVersionInternal {
		k.targets = map[string]target{}
		for _, gv := range Versions {
			if kind, err := KindIn(gvk.Kind, gv.Version); err == nil {
				tgvk := gv.WithKind(kind)
				k.targets[gv.Version] = target{gvk: tgvk, new: constructor(tgvk)}
			}
		}
	} else {
		hubKind, err := HubKind(gvk)
		if err != nil {
			return nil, err
		}
		k.newHub = constructor(resource.SchemeGroupVersion.WithKind(hubKind))
		if r, ok := relabelers[t]; ok {
			k.relabel, k.relabelTo = r, map[string]string{"v1beta2": "v1", "v1": "v1beta2"}[gvk.Version]
		}
	}
	typeCache.Store(t, k)
	return k, nil
}

// constructor returns a function that makes a new, empty object of a
// registered kind without a scheme lookup.
func constructor(gvk schema.GroupVersionKind) func() runtime.Object {
	proto, err := Scheme.New(gvk)
	if err != nil {
		panic(fmt.Sprintf("drakit: %s is registered but cannot be made: %v", gvk, err)) // a bug in install, not in input
	}
	t := reflect.TypeOf(proto).Elem()
	return func() runtime.Object { return reflect.New(t).Interface().(runtime.Object) }
}

func convertUnstructured(u *unstructured.Unstructured, target schema.GroupVersion) (runtime.Object, error) {
	gvk := u.GroupVersionKind()
	if _, err := HubKind(gvk); err != nil {
		return nil, err
	}
	if gvk.Version == target.Version {
		return u.DeepCopy(), nil
	}
	typed, err := Scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	// A quantity with a huge exponent would never finish decoding.
	if err := quantityguard.CheckValue(u.Object, reflect.TypeOf(typed)); err != nil {
		return nil, fmt.Errorf("%s %q: %w", gvk.Kind, u.GetName(), err)
	}
	// Unknown fields are an error: dropping them would lose data silently.
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(u.Object, typed, true); err != nil {
		return nil, fmt.Errorf("%s %q: %w", gvk.Kind, u.GetName(), err)
	}
	typed.GetObjectKind().SetGroupVersionKind(gvk)
	out, err := Convert(typed, target)
	if err != nil {
		return nil, err
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(out)
	if err != nil {
		return nil, err
	}
	return &unstructured.Unstructured{Object: content}, nil
}

// objectKind finds the kind of a typed object from the scheme, since typed
// objects often come without apiVersion and kind.
func objectKind(obj runtime.Object) (schema.GroupVersionKind, error) {
	if obj == nil {
		return schema.GroupVersionKind{}, fmt.Errorf("nil object")
	}
	gvks, _, err := Scheme.ObjectKinds(obj)
	if err != nil {
		return schema.GroupVersionKind{}, fmt.Errorf("%T is not a resource.k8s.io type drakit knows: %w", obj, err)
	}
	for _, gvk := range gvks {
		if gvk.Group == resource.GroupName {
			return gvk, nil
		}
	}
	return schema.GroupVersionKind{}, fmt.Errorf("%T is not a resource.k8s.io type", obj)
}
