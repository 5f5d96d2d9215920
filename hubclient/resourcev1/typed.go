package resourcev1

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/hubclient"
	"github.com/drakit/drakit/hubclient/internal/convwatch"
)

// directClient is the method set of client-go's typed v1 clients, for V
// (e.g. *resourcev1.ResourceClaim), its list VL and its apply configuration
// AC.
type directClient[V, VL, AC any] interface {
	Create(ctx context.Context, obj V, opts metav1.CreateOptions) (V, error)
	Update(ctx context.Context, obj V, opts metav1.UpdateOptions) (V, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
	DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error
	Get(ctx context.Context, name string, opts metav1.GetOptions) (V, error)
	List(ctx context.Context, opts metav1.ListOptions) (VL, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (V, error)
	Apply(ctx context.Context, obj AC, opts metav1.ApplyOptions) (V, error)
}

// directStatus is what the typed clients of kinds with a status add.
type directStatus[V, AC any] interface {
	UpdateStatus(ctx context.Context, obj V, opts metav1.UpdateOptions) (V, error)
	ApplyStatus(ctx context.Context, obj AC, opts metav1.ApplyOptions) (V, error)
}

// applyConfiguration is what client-go's apply configurations have in
// common.
type applyConfiguration interface {
	comparable
	GetName() *string
}

// kindClient is one kind's typed v1 client: client-go's own when the server
// serves the kind in v1 (direct), else hubclient's Resource with every
// object converted v1 -> hub on the way out and hub -> v1 on the way back.
// It has the methods of every kind's interface; kinds without a status
// simply do not expose UpdateStatus and ApplyStatus through theirs.
type kindClient[V hubclient.Object, VL runtime.Object, AC applyConfiguration, H hubclient.Object, HL runtime.Object] struct {
	hub    *hubclient.Resource[H, HL]
	direct directClient[V, VL, AC]
	kind   string // the v1 kind, for errors
}

func newKindClient[V hubclient.Object, VL runtime.Object, AC applyConfiguration, H hubclient.Object, HL runtime.Object](hub *hubclient.Resource[H, HL], direct directClient[V, VL, AC]) *kindClient[V, VL, AC, H, HL] {
	return &kindClient[V, VL, AC, H, HL]{hub: hub, direct: direct, kind: reflect.TypeFor[V]().Elem().Name()}
}

// toHub converts a caller's v1 object to the hub, keeping what its stash
// annotation says.
func (k *kindClient[V, VL, AC, H, HL]) toHub(obj V) (H, error) {
	var zero H
	if isNil(obj) {
		return zero, fmt.Errorf("resourcev1: nil %s", k.kind)
	}
	hub, err := conversion.ToHub(obj)
	if err != nil {
		return zero, fmt.Errorf("resourcev1: converting %s %q to drakit's hub: %w", k.kind, obj.GetName(), err)
	}
	h, ok := hub.(H)
	if !ok {
		return zero, fmt.Errorf("resourcev1: internal error: %T converted to %T, not %T", obj, hub, zero)
	}
	return h, nil
}

// toV1 converts a hub object or list to v1 as client-go hands objects out:
// without apiVersion and kind. What v1 cannot say (what only an older
// version has) is in the stash annotation.
func toV1[T runtime.Object](hub runtime.Object) (T, error) {
	var zero T
	out, err := conversion.FromHub(hub, "v1")
	if err != nil {
		return zero, fmt.Errorf("resourcev1: converting %s to v1: %w", describe(hub), err)
	}
	t, ok := out.(T)
	if !ok {
		return zero, fmt.Errorf("resourcev1: internal error: %T converted to %T, not %T", hub, out, zero)
	}
	clearTypeMeta(t)
	return t, nil
}

func clearTypeMeta(obj runtime.Object) {
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	if meta.IsListType(obj) {
		_ = meta.EachListItem(obj, func(item runtime.Object) error {
			item.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
			return nil
		})
	}
}

// fromHub finishes a call of hubclient: its error as the API server's (or
// as Not Found for a kind the server does not serve), its object in v1.
func fromHub[V hubclient.Object, H hubclient.Object](h H, err error) (V, error) {
	var zero V
	if err != nil {
		return zero, apiError(err)
	}
	return toV1[V](h)
}

// Create creates obj in the served version.
func (k *kindClient[V, VL, AC, H, HL]) Create(ctx context.Context, obj V, opts metav1.CreateOptions) (V, error) {
	if k.direct != nil {
		return k.direct.Create(ctx, obj, opts)
	}
	h, err := k.toHub(obj)
	if err != nil {
		return *new(V), err
	}
	return fromHub[V](k.hub.Create(ctx, h, opts))
}

// Update replaces the stored object with obj (its resourceVersion is the
// precondition, as always).
func (k *kindClient[V, VL, AC, H, HL]) Update(ctx context.Context, obj V, opts metav1.UpdateOptions) (V, error) {
	if k.direct != nil {
		return k.direct.Update(ctx, obj, opts)
	}
	h, err := k.toHub(obj)
	if err != nil {
		return *new(V), err
	}
	return fromHub[V](k.hub.Update(ctx, h, opts))
}

// UpdateStatus writes obj's status through the status subresource.
func (k *kindClient[V, VL, AC, H, HL]) UpdateStatus(ctx context.Context, obj V, opts metav1.UpdateOptions) (V, error) {
	if k.direct != nil {
		ds, ok := k.direct.(directStatus[V, AC])
		if !ok {
			return *new(V), fmt.Errorf("resourcev1: %s has no status subresource", k.kind)
		}
		return ds.UpdateStatus(ctx, obj, opts)
	}
	h, err := k.toHub(obj)
	if err != nil {
		return *new(V), err
	}
	return fromHub[V](k.hub.UpdateStatus(ctx, h, opts))
}

// Delete deletes the named object.
func (k *kindClient[V, VL, AC, H, HL]) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	if k.direct != nil {
		return k.direct.Delete(ctx, name, opts)
	}
	return apiError(k.hub.Delete(ctx, name, opts))
}

// DeleteCollection deletes the objects listOpts selects.
func (k *kindClient[V, VL, AC, H, HL]) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error {
	if k.direct != nil {
		return k.direct.DeleteCollection(ctx, opts, listOpts)
	}
	return apiError(k.hub.DeleteCollection(ctx, opts, listOpts))
}

// Get reads the named object.
func (k *kindClient[V, VL, AC, H, HL]) Get(ctx context.Context, name string, opts metav1.GetOptions) (V, error) {
	if k.direct != nil {
		return k.direct.Get(ctx, name, opts)
	}
	return fromHub[V](k.hub.Get(ctx, name, opts))
}

// List lists the objects opts selects; the list keeps the server's
// ListMeta (resourceVersion, continue token, remaining count).
func (k *kindClient[V, VL, AC, H, HL]) List(ctx context.Context, opts metav1.ListOptions) (VL, error) {
	if k.direct != nil {
		return k.direct.List(ctx, opts)
	}
	l, err := k.hub.List(ctx, opts)
	if err != nil {
		return *new(VL), apiError(err)
	}
	return toV1[VL](l)
}

// Watch watches the objects opts selects; events carry v1 objects (see
// convwatch.New).
func (k *kindClient[V, VL, AC, H, HL]) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	if k.direct != nil {
		return k.direct.Watch(ctx, opts)
	}
	w, err := k.hub.Watch(ctx, opts)
	if err != nil {
		return nil, apiError(err)
	}
	return convwatch.New(w, func(obj runtime.Object) (runtime.Object, error) { return toV1[V](obj) }), nil
}

// Apply applies the apply configuration with server-side apply as
// opts.FieldManager.
func (k *kindClient[V, VL, AC, H, HL]) Apply(ctx context.Context, ac AC, opts metav1.ApplyOptions) (V, error) {
	if k.direct != nil {
		return k.direct.Apply(ctx, ac, opts)
	}
	return k.applyConfiguration(ctx, ac, opts, false)
}

// ApplyStatus applies the status of the apply configuration through the
// status subresource.
func (k *kindClient[V, VL, AC, H, HL]) ApplyStatus(ctx context.Context, ac AC, opts metav1.ApplyOptions) (V, error) {
	if k.direct != nil {
		ds, ok := k.direct.(directStatus[V, AC])
		if !ok {
			return *new(V), fmt.Errorf("resourcev1: %s has no status subresource", k.kind)
		}
		return ds.ApplyStatus(ctx, ac, opts)
	}
	return k.applyConfiguration(ctx, ac, opts, true)
}

func (k *kindClient[V, VL, AC, H, HL]) applyConfiguration(ctx context.Context, ac AC, opts metav1.ApplyOptions, status bool) (V, error) {
	if ac == *new(AC) {
		return *new(V), fmt.Errorf("resourcev1: the %s apply configuration given to Apply must not be nil", k.kind)
	}
	if ac.GetName() == nil {
		return *new(V), fmt.Errorf("resourcev1: the %s apply configuration given to Apply must have a name", k.kind)
	}
	body, err := json.Marshal(ac)
	if err != nil {
		return *new(V), fmt.Errorf("resourcev1: encoding the %s apply configuration %q: %w", k.kind, *ac.GetName(), err)
	}
	return k.applyJSON(ctx, body, opts, status)
}

// applyJSON applies an apply configuration given as its JSON: exactly
// what the caller means to own. It is read into the v1 type and converted
// to the hub object hubclient.Apply takes for an apply configuration (see
// hubclient's documentation of Apply): a field the JSON sets stays set,
// except a plain (non-pointer) field of the v1 type set to its zero value,
// which the hub object cannot tell from an unset one.
func (k *kindClient[V, VL, AC, H, HL]) applyJSON(ctx context.Context, body []byte, opts metav1.ApplyOptions, status bool) (V, error) {
	var zero V
	obj := newObject[V]()
	if err := strictUnmarshal(body, obj); err != nil {
		return zero, fmt.Errorf("resourcev1: reading the %s apply configuration: %w", k.kind, err)
	}
	h, err := k.toHub(obj)
	if err != nil {
		return zero, err
	}
	if status {
		return fromHub[V](k.hub.ApplyStatus(ctx, h, opts))
	}
	return fromHub[V](k.hub.Apply(ctx, h, opts))
}

// newObject is a new, empty object of the pointer type V.
func newObject[V any]() V {
	return reflect.New(reflect.TypeFor[V]().Elem()).Interface().(V)
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

func describe(obj runtime.Object) string {
	if m, ok := obj.(metav1.Object); ok {
		return fmt.Sprintf("%T %q", obj, m.GetName())
	}
	return fmt.Sprintf("%T", obj)
}
