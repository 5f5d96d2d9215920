package conversion

import (
	"reflect"
	"unsafe"

	v1 "k8s.io/api/resource/v1"
	"k8s.io/api/resource/v1beta2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	hub "github.com/drakit/drakit/apis/resource"
)

// v1beta2 and v1 say the same in the same Go layout (their types tests
// compare both with k8s.io/api, where the two versions' types are the same,
// and TestRelabelLayouts compares the two packages' types with each other,
// field by field, recursively). Converting between them through the hub
// costs two conversions and a hub object, where the answer is the same
// object under the other version's name: Convert relabels instead, sharing
// the input's memory as the generated conversions do, when that gives
// exactly what the trip through the hub gives. It does not when the object,
// or an item of a list, carries a stash (the trip reads it, refusing a
// malformed one, and writes it again, and may write it differently), or
// when an item of a list has apiVersion or kind set (the trip leaves the
// items' TypeMeta empty); those go through the hub.

// relabeler converts one kind between v1beta2 and v1 by relabelling; ok is
// false when the object must go through the hub instead.
type relabeler func(in runtime.Object) (out runtime.Object, ok bool)

// relabelers holds, by the Go type of the input, the relabeler to the
// other version; v1beta2 and v1 have the same kinds.
var relabelers = map[reflect.Type]relabeler{}

func init() {
	both[v1beta2.DeviceClass, v1.DeviceClass]()
	both[v1beta2.ResourceClaim, v1.ResourceClaim]()
	both[v1beta2.ResourceClaimTemplate, v1.ResourceClaimTemplate]()
	both[v1beta2.ResourceSlice, v1.ResourceSlice]()
	both[v1beta2.DeviceTaintRule, v1.DeviceTaintRule]()
	bothLists(func(l *v1beta2.DeviceClassList) []v1beta2.DeviceClass { return l.Items },
		func(l *v1.DeviceClassList) []v1.DeviceClass { return l.Items })
	bothLists(func(l *v1beta2.ResourceClaimList) []v1beta2.ResourceClaim { return l.Items },
		func(l *v1.ResourceClaimList) []v1.ResourceClaim { return l.Items })
	bothLists(func(l *v1beta2.ResourceClaimTemplateList) []v1beta2.ResourceClaimTemplate { return l.Items },
		func(l *v1.ResourceClaimTemplateList) []v1.ResourceClaimTemplate { return l.Items })
	bothLists(func(l *v1beta2.ResourceSliceList) []v1beta2.ResourceSlice { return l.Items },
		func(l *v1.ResourceSliceList) []v1.ResourceSlice { return l.Items })
	bothLists(func(l *v1beta2.DeviceTaintRuleList) []v1beta2.DeviceTaintRule { return l.Items },
		func(l *v1.DeviceTaintRuleList) []v1.DeviceTaintRule { return l.Items })
}

// object is what a kind's pointer type is: an API object with metadata.
type object[T any] interface {
	*T
	runtime.Object
	metav1.Object
}

// list is what a list kind's pointer type is.
type list[T any] interface {
	*T
	runtime.Object
}

// both registers the relabelers of a kind in both directions.
func both[A, B any, PA object[A], PB object[B]]() {
	relabelers[reflect.TypeFor[PA]()] = relabelObject[A, B, PA, PB]
	relabelers[reflect.TypeFor[PB]()] = relabelObject[B, A, PB, PA]
}

func relabelObject[A, B any, PA object[A], PB object[B]](in runtime.Object) (runtime.Object, bool) {
	a := in.(PA)
	if _, stashed := a.GetAnnotations()[hub.StashAnnotation]; stashed {
		return nil, false
	}
	return PB(cast[A, B](a)), true
}

// bothLists registers the relabelers of a list kind in both directions,
// given the items of each.
func bothLists[A, B, IA, IB any, PA list[A], PB list[B], PIA object[IA], PIB object[IB]](itemsA func(PA) []IA, itemsB func(PB) []IB) {
	relabelers[reflect.TypeFor[PA]()] = func(in runtime.Object) (runtime.Object, bool) {
		a := in.(PA)
		if !plainItems[IA, PIA](itemsA(a)) {
			return nil, false
		}
		return PB(cast[A, B](a)), true
	}
	relabelers[reflect.TypeFor[PB]()] = func(in runtime.Object) (runtime.Object, bool) {
		b := in.(PB)
		if !plainItems[IB, PIB](itemsB(b)) {
			return nil, false
		}
		return PA(cast[B, A](b)), true
	}
}

// plainItems reports whether no item has a stash or a TypeMeta.
func plainItems[I any, PI object[I]](items []I) bool {
	for i := range items {
		item := PI(&items[i])
		if _, stashed := item.GetAnnotations()[hub.StashAnnotation]; stashed {
			return false
		}
		if !item.GetObjectKind().GroupVersionKind().Empty() {
			return false
		}
	}
	return true
}

// cast returns a new B holding a shallow copy of *a, whose layout is the
// same (TestRelabelLayouts).
func cast[A, B any](a *A) *B {
	b := new(B)
	*b = *(*B)(unsafe.Pointer(a))
	return b
}
