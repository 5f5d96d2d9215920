package hubclient

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/hubclient/internal/convwatch"
)

// Object is what every hub kind is: a runtime.Object with object metadata.
type Object interface {
	runtime.Object
	metav1.Object
}

// Resource reads and writes one hub kind, in one namespace for namespaced
// kinds. T is the hub type (e.g. *resource.ResourceClaim) and L its list.
// Every method returns a *NotServedError when the server does not serve
// the kind.
type Resource[T Object, L runtime.Object] struct {
	c         *Client
	hubKind   string
	namespace string
	newObj    func() T
}

// DeviceClasses are the classes (ResourceClass in v1alpha1 and v1alpha2).
func (c *Client) DeviceClasses() *Resource[*resource.DeviceClass, *resource.DeviceClassList] {
	return &Resource[*resource.DeviceClass, *resource.DeviceClassList]{c: c, hubKind: "DeviceClass", newObj: func() *resource.DeviceClass { return &resource.DeviceClass{} }}
}

// ResourceClaims are the claims of a namespace.
func (c *Client) ResourceClaims(namespace string) *Resource[*resource.ResourceClaim, *resource.ResourceClaimList] {
	return &Resource[*resource.ResourceClaim, *resource.ResourceClaimList]{c: c, hubKind: "ResourceClaim", namespace: namespace, newObj: func() *resource.ResourceClaim { return &resource.ResourceClaim{} }}
}

// ResourceClaimTemplates are the claim templates of a namespace.
func (c *Client) ResourceClaimTemplates(namespace string) *Resource[*resource.ResourceClaimTemplate, *resource.ResourceClaimTemplateList] {
	return &Resource[*resource.ResourceClaimTemplate, *resource.ResourceClaimTemplateList]{c: c, hubKind: "ResourceClaimTemplate", namespace: namespace, newObj: func() *resource.ResourceClaimTemplate { return &resource.ResourceClaimTemplate{} }}
}

// PodSchedulingContexts are the scheduling contexts of a namespace
// (PodScheduling in v1alpha1; not served from Kubernetes 1.32 on).
func (c *Client) PodSchedulingContexts(namespace string) *Resource[*resource.PodSchedulingContext, *resource.PodSchedulingContextList] {
	return &Resource[*resource.PodSchedulingContext, *resource.PodSchedulingContextList]{c: c, hubKind: "PodSchedulingContext", namespace: namespace, newObj: func() *resource.PodSchedulingContext { return &resource.PodSchedulingContext{} }}
}

// ResourceSlices are the published device inventories (v1alpha2 and v1alpha3).
func (c *Client) ResourceSlices() *Resource[*resource.ResourceSlice, *resource.ResourceSliceList] {
	return &Resource[*resource.ResourceSlice, *resource.ResourceSliceList]{c: c, hubKind: "ResourceSlice", newObj: func() *resource.ResourceSlice { return &resource.ResourceSlice{} }}
}

// DeviceTaintRules are the rules that taint devices (v1alpha3 from 1.33,
// v1beta2 from 1.36, v1 from 1.37).
func (c *Client) DeviceTaintRules() *Resource[*resource.DeviceTaintRule, *resource.DeviceTaintRuleList] {
	return &Resource[*resource.DeviceTaintRule, *resource.DeviceTaintRuleList]{c: c, hubKind: "DeviceTaintRule", newObj: func() *resource.DeviceTaintRule { return &resource.DeviceTaintRule{} }}
}

// ResourceClaimParameters are the structured claim parameters of a
// namespace (v1alpha2 only).
func (c *Client) ResourceClaimParameters(namespace string) *Resource[*resource.ResourceClaimParameters, *resource.ResourceClaimParametersList] {
	return &Resource[*resource.ResourceClaimParameters, *resource.ResourceClaimParametersList]{c: c, hubKind: "ResourceClaimParameters", namespace: namespace, newObj: func() *resource.ResourceClaimParameters { return &resource.ResourceClaimParameters{} }}
}

// ResourceClassParameters are the structured class parameters of a
// namespace (v1alpha2 only).
func (c *Client) ResourceClassParameters(namespace string) *Resource[*resource.ResourceClassParameters, *resource.ResourceClassParametersList] {
	return &Resource[*resource.ResourceClassParameters, *resource.ResourceClassParametersList]{c: c, hubKind: "ResourceClassParameters", namespace: namespace, newObj: func() *resource.ResourceClassParameters { return &resource.ResourceClassParameters{} }}
}

// Version is the resource.k8s.io version the server is reached with for
// this kind, or "" when it does not serve the kind.
func (r *Resource[T, L]) Version() string {
	v, _ := r.c.VersionFor(r.hubKind)
	return v
}

// backend is the typed client of the served version, for this namespace.
func (r *Resource[T, L]) backend() (backend, served, error) {
	s, err := r.c.lookup(r.hubKind)
	if err != nil {
		return nil, s, err
	}
	ns := r.namespace
	if !s.namespaced {
		ns = ""
	}
	return s.backend(r.c.cs, ns), s, nil
}

// toHub converts an object the server returned to the hub type T.
func (r *Resource[T, L]) toHub(obj runtime.Object) (T, error) {
	var zero T
	hub, err := conversion.ToHub(obj)
	if err != nil {
		return zero, fmt.Errorf("hubclient: converting %s from the server to the hub: %w", describe(obj), err)
	}
	t, ok := hub.(T)
	if !ok {
		return zero, fmt.Errorf("hubclient: internal error: %s converted to %T, not %T", describe(obj), hub, zero)
	}
	return t, nil
}

// fromHub converts a caller's hub object to the served version.
func (r *Resource[T, L]) fromHub(obj T, s served) (runtime.Object, error) {
	if any(obj) == nil || isNilPointer(obj) {
		return nil, fmt.Errorf("hubclient: nil %s", r.hubKind)
	}
	if r.namespace != "" && s.namespaced && obj.GetNamespace() != "" && obj.GetNamespace() != r.namespace {
		return nil, fmt.Errorf("hubclient: %s %q is in namespace %q, but this client works in namespace %q", r.hubKind, obj.GetName(), obj.GetNamespace(), r.namespace)
	}
	out, err := conversion.FromHub(obj, s.version)
	if err != nil {
		return nil, fmt.Errorf("hubclient: converting %s %q to %s: %w", r.hubKind, obj.GetName(), s.version, err)
	}
	return out, nil
}

// Get returns the named object, converted to the hub.
func (r *Resource[T, L]) Get(ctx context.Context, name string, opts metav1.GetOptions) (T, error) {
	var zero T
	b, _, err := r.backend()
	if err != nil {
		return zero, err
	}
	obj, err := b.get(ctx, name, opts)
	if err != nil {
		return zero, err
	}
	return r.toHub(obj)
}

// List returns the objects that match opts, converted to the hub. A field
// selector names the hub's labels (see the package documentation).
func (r *Resource[T, L]) List(ctx context.Context, opts metav1.ListOptions) (L, error) {
	var zero L
	b, s, err := r.backend()
	if err != nil {
		return zero, err
	}
	if opts, err = r.c.listOptions(r.hubKind, s, opts); err != nil {
		return zero, err
	}
	obj, err := b.list(ctx, opts)
	if err != nil {
		return zero, err
	}
	hub, err := conversion.ToHub(obj)
	if err != nil {
		return zero, fmt.Errorf("hubclient: converting the %s list from the server to the hub: %w", r.hubKind, err)
	}
	l, ok := hub.(L)
	if !ok {
		return zero, fmt.Errorf("hubclient: internal error: %T converted to %T, not %T", obj, hub, zero)
	}
	return l, nil
}

// Watch watches the objects that match opts (a field selector with the
// hub's labels, as for List). Every event's object is
// converted to the hub; an object that cannot be converted (a malformed
// stash annotation, say) becomes a watch.Error event with a Status naming
// it, and the watch goes on.
func (r *Resource[T, L]) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	b, s, err := r.backend()
	if err != nil {
		return nil, err
	}
	if opts, err = r.c.listOptions(r.hubKind, s, opts); err != nil {
		return nil, err
	}
	w, err := b.watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	return convwatch.New(w, func(obj runtime.Object) (runtime.Object, error) { return r.toHub(obj) }), nil
}

// Create converts obj to the served version and creates it.
func (r *Resource[T, L]) Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error) {
	var zero T
	b, s, err := r.backend()
	if err != nil {
		return zero, err
	}
	// The server drops the status of a new object; the stash must not keep
	// what the status would have said either.
	v, err := r.fromHub(withStatusOf(obj, r.newObj()), s)
	if err != nil {
		return zero, err
	}
	if opts.FieldValidation == "" {
		opts.FieldValidation = metav1.FieldValidationStrict
	}
	out, err := b.create(ctx, v, opts)
	if err != nil {
		return zero, err
	}
	return r.written(ctx, s, out)
}

// Update converts obj to the served version and replaces the stored object
// with it (optimistic concurrency through obj's resourceVersion, as usual).
// For kinds with a status, the server ignores status changes here; use
// UpdateStatus.
func (r *Resource[T, L]) Update(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	var zero T
	b, s, err := r.backend()
	if err != nil {
		return zero, err
	}
	if s.status {
		// The server keeps its status over obj's, so the stash must describe
		// the stored status too, not obj's: with obj's resourceVersion as
		// precondition, the update succeeds only while the stored status is
		// the one read here.
		cur, err := b.get(ctx, obj.GetName(), metav1.GetOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return zero, err
		}
		stored := r.newObj()
		if err == nil {
			if stored, err = r.toHub(cur); err != nil {
				return zero, err
			}
		}
		obj = withStatusOf(obj, stored)
	}
	v, err := r.fromHub(obj, s)
	if err != nil {
		return zero, err
	}
	if opts.FieldValidation == "" {
		opts.FieldValidation = metav1.FieldValidationStrict
	}
	out, err := b.update(ctx, v, opts)
	if err != nil {
		return zero, err
	}
	return r.written(ctx, s, out)
}

// UpdateStatus writes obj's status through the status subresource.
func (r *Resource[T, L]) UpdateStatus(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error) {
	var zero T
	b, s, err := r.backend()
	if err != nil {
		return zero, err
	}
	if !s.status {
		return zero, fmt.Errorf("hubclient: %s has no status subresource in %s", r.hubKind, s.version)
	}
	v, err := r.fromHub(obj, s)
	if err != nil {
		return zero, err
	}
	if opts.FieldValidation == "" {
		opts.FieldValidation = metav1.FieldValidationStrict
	}
	out, err := b.updateStatus(ctx, v, opts)
	if err != nil {
		return zero, err
	}
	out, err = r.finishStatusWrite(ctx, b, s, obj.GetName(), out, statusOf(obj.DeepCopyObject()), opts.FieldManager, opts.DryRun)
	if err != nil {
		return zero, err
	}
	return r.toHub(out)
}

// finishStatusWrite makes the stash annotation agree with a status that was
// just written through the status subresource: the hub object the caller
// meant is the server's view after the write with the given hub status, and
// its stash is written if the server's differs (see syncStash).
func (r *Resource[T, L]) finishStatusWrite(ctx context.Context, b backend, s served, name string, out runtime.Object, status reflect.Value, fieldManager string, dryRun []string) (runtime.Object, error) {
	view, err := r.toHub(out)
	if err != nil {
		return nil, err
	}
	want := view.DeepCopyObject().(T)
	reflect.ValueOf(want).Elem().FieldByName("Status").Set(status)
	wantV, err := r.fromHub(want, s)
	if err != nil {
		return nil, err
	}
	return r.syncStash(ctx, b, name, wantV, out, fieldManager, dryRun)
}

// withStatusOf returns obj itself for kinds without a status, else a copy
// of obj with the status of from.
func withStatusOf[T Object](obj, from T) T {
	if !statusOf(obj).IsValid() {
		return obj
	}
	out := obj.DeepCopyObject().(T)
	statusOf(out).Set(statusOf(from.DeepCopyObject()))
	return out
}

// statusOf is the Status field of a hub object.
func statusOf(obj runtime.Object) reflect.Value {
	return reflect.ValueOf(obj).Elem().FieldByName("Status")
}

// syncStash finishes a write through the status subresource. The status
// subresource of the API server keeps the stored metadata (annotations
// included), but what the served version cannot say about the status is
// kept in the stash annotation. When the annotation the server has differs
// from the one of sent, the version the status was converted to, it is
// written through the main resource, with the resourceVersion of the status
// write as precondition. Between the two writes a reader sees the new
// status with the old stash: the version's own fields are right, only what
// the stash adds lags behind.
func (r *Resource[T, L]) syncStash(ctx context.Context, b backend, name string, sent, out runtime.Object, fieldManager string, dryRun []string) (runtime.Object, error) {
	want, wantOK := stashOf(sent)
	got, gotOK := stashOf(out)
	if want == got && wantOK == gotOK {
		return out, nil
	}
	var value any // null removes the annotation
	if wantOK {
		value = want
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"resourceVersion": out.(metav1.Object).GetResourceVersion(),
		"annotations":     map[string]any{resource.StashAnnotation: value},
	}})
	if err != nil {
		return nil, err
	}
	res, err := b.patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: fieldManager, DryRun: dryRun})
	if err != nil {
		return nil, fmt.Errorf("hubclient: the status of %s %q was written, but its %s annotation, which keeps what %s cannot say, could not be updated (the status subresource ignores annotations); repeat the status update: %w",
			r.hubKind, name, resource.StashAnnotation, r.Version(), err)
	}
	return res, nil
}

// stashOf returns obj's stash annotation and whether it has one.
func stashOf(obj runtime.Object) (string, bool) {
	m, ok := obj.(metav1.Object)
	if !ok {
		return "", false
	}
	v, ok := m.GetAnnotations()[resource.StashAnnotation]
	return v, ok
}

// Delete deletes the named object.
func (r *Resource[T, L]) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	b, _, err := r.backend()
	if err != nil {
		return err
	}
	return b.delete(ctx, name, opts)
}

// DeleteCollection deletes the objects that match listOpts (a field
// selector with the hub's labels, as for List).
func (r *Resource[T, L]) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error {
	b, s, err := r.backend()
	if err != nil {
		return err
	}
	if listOpts, err = r.c.listOptions(r.hubKind, s, listOpts); err != nil {
		return err
	}
	return b.deleteCollection(ctx, opts, listOpts)
}

// Patch applies a JSON merge patch or a JSON patch written against the hub
// form of the named object (see the package documentation) and returns the
// result. subresources may be "status" for kinds with a status.
func (r *Resource[T, L]) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (T, error) {
	var zero T
	patchFn, err := hubPatcher(pt, data)
	if err != nil {
		return zero, fmt.Errorf("hubclient: patch of %s %q: %w", r.hubKind, name, err)
	}
	b, s, err := r.backend()
	if err != nil {
		return zero, err
	}
	if err := r.checkSubresources(s, subresources); err != nil {
		return zero, err
	}
	if opts.FieldValidation == "" {
		opts.FieldValidation = metav1.FieldValidationStrict
	}
	var out T
	var stale error // the caller's resourceVersion precondition failed
	// A Conflict means another writer changed the object after we read it:
	// compute the patch again on the new state.
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := b.get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		curHub, err := r.toHub(cur)
		if err != nil {
			return err
		}
		doc, err := hubDocument(curHub)
		if err != nil {
			return err
		}
		patched, err := patchFn(doc)
		if err != nil {
			return fmt.Errorf("hubclient: applying the %s to the hub form of %s %q: %w", pt, r.hubKind, name, err)
		}
		newHub := r.newObj()
		if err := fromHubDocument(patched, newHub); err != nil {
			return fmt.Errorf("hubclient: the patched %s %q is not a valid hub object: %w", r.hubKind, name, err)
		}
		if newHub.GetName() != curHub.GetName() || newHub.GetNamespace() != curHub.GetNamespace() {
			return fmt.Errorf("hubclient: a patch of %s %q may not change metadata.name or metadata.namespace", r.hubKind, name)
		}
		if rv := newHub.GetResourceVersion(); rv != "" && rv != curHub.GetResourceVersion() {
			// The patch carries the caller's own precondition, which the
			// server would hold it to: it does not hold, and trying again
			// would not change that.
			stale = apierrors.NewConflict(schema.GroupResource{Group: resource.GroupName, Resource: s.resource}, name,
				fmt.Errorf("the patch requires metadata.resourceVersion %s, but the object is at %s: read it again and compute the patch anew", rv, curHub.GetResourceVersion()))
			return nil
		}
		if len(subresources) == 0 {
			// The main resource ignores status changes.
			newHub = withStatusOf(newHub, curHub)
		}
		newV, err := r.fromHub(newHub, s)
		if err != nil {
			return err
		}
		diff, changed, err := versionedMergePatch(cur, newV, cur.(metav1.Object).GetResourceVersion())
		if err != nil {
			return fmt.Errorf("hubclient: patch of %s %q: %w", r.hubKind, name, err)
		}
		if !changed {
			out = curHub
			return nil
		}
		res, err := b.patch(ctx, name, types.MergePatchType, diff, opts, subresources...)
		if err != nil {
			return err
		}
		if len(subresources) > 0 {
			if res, err = r.finishStatusWrite(ctx, b, s, name, res, statusOf(newHub), opts.FieldManager, opts.DryRun); err != nil {
				return err
			}
			out, err = r.toHub(res)
			return err
		}
		out, err = r.written(ctx, s, res)
		return err
	})
	if err == nil {
		err = stale
	}
	if err != nil {
		return zero, err
	}
	return out, nil
}

// Apply applies obj with server-side apply as opts.FieldManager: obj, a
// hub object, stands for an apply configuration (the package documentation
// says which of its fields count as set).
func (r *Resource[T, L]) Apply(ctx context.Context, obj T, opts metav1.ApplyOptions) (T, error) {
	return r.apply(ctx, obj, opts, false)
}

// ApplyStatus applies obj's status with server-side apply through the
// status subresource; only the object's name, namespace and status are
// sent.
func (r *Resource[T, L]) ApplyStatus(ctx context.Context, obj T, opts metav1.ApplyOptions) (T, error) {
	return r.apply(ctx, obj, opts, true)
}

func (r *Resource[T, L]) apply(ctx context.Context, obj T, opts metav1.ApplyOptions, status bool) (T, error) {
	var zero T
	b, s, err := r.backend()
	if err != nil {
		return zero, err
	}
	if opts.FieldManager == "" {
		return zero, fmt.Errorf("hubclient: apply of %s needs ApplyOptions.FieldManager", r.hubKind)
	}
	var sub []string
	if status {
		if !s.status {
			return zero, fmt.Errorf("hubclient: %s has no status subresource in %s", r.hubKind, s.version)
		}
		sub = []string{"status"}
	}
	if obj.GetName() == "" {
		return zero, fmt.Errorf("hubclient: apply of %s needs metadata.name", r.hubKind)
	}
	if !status {
		// The main resource ignores the status.
		obj = withStatusOf(obj, r.newObj())
	}
	v, err := r.fromHub(obj, s)
	if err != nil {
		return zero, err
	}
	// The server merges the version's fields; what only the stash holds it
	// cannot merge, so that is merged here, over the current object.
	merged, cur, err := r.mergeIntent(ctx, b, obj, status)
	if err != nil {
		return zero, err
	}
	exists := cur != nil
	if !status && exists {
		if err := r.applyStash(v, merged, cur, s); err != nil {
			return zero, err
		}
	}
	body, err := applyBody(v, status)
	if err != nil {
		return zero, fmt.Errorf("hubclient: apply of %s %q: %w", r.hubKind, obj.GetName(), err)
	}
	popts := opts.ToPatchOptions()
	popts.FieldValidation = metav1.FieldValidationStrict
	out, err := b.patch(ctx, obj.GetName(), types.ApplyPatchType, body, popts, sub...)
	if err != nil {
		return zero, err
	}
	if status {
		if !exists {
			merged = obj
		}
		if out, err = r.finishStatusWrite(ctx, b, s, obj.GetName(), out, statusOf(merged.DeepCopyObject()), opts.FieldManager, opts.DryRun); err != nil {
			return zero, err
		}
	}
	if status {
		return r.toHub(out)
	}
	return r.written(ctx, s, out)
}

// mergeIntent merges the apply intent obj (its status only, with
// statusOnly) into the current object, as hub objects: objects field by
// field, lists and scalars replaced, fields obj does not set (see applyBody)
// left as they are. It also returns the current object as the server has
// it, or nil when there is none.
func (r *Resource[T, L]) mergeIntent(ctx context.Context, b backend, obj T, statusOnly bool) (T, runtime.Object, error) {
	var zero T
	cur, err := b.get(ctx, obj.GetName(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return zero, nil, nil
	}
	if err != nil {
		return zero, nil, err
	}
	curHub, err := r.toHub(cur)
	if err != nil {
		return zero, nil, err
	}
	curDoc, err := hubDocument(curHub)
	if err != nil {
		return zero, nil, err
	}
	intent, err := intentDocument(obj)
	if err != nil {
		return zero, nil, err
	}
	if statusOnly {
		intent = map[string]any{"status": intent["status"]}
		if intent["status"] == nil {
			intent = map[string]any{}
		}
	} else {
		delete(intent, "status")
	}
	patch, err := json.Marshal(intent)
	if err != nil {
		return zero, nil, err
	}
	mergedDoc, err := jsonpatch.MergePatch(curDoc, patch)
	if err != nil {
		return zero, nil, err
	}
	merged := r.newObj()
	if err := fromHubDocument(mergedDoc, merged); err != nil {
		return zero, nil, fmt.Errorf("hubclient: merging the apply of %s %q: %w", r.hubKind, obj.GetName(), err)
	}
	return merged, cur, nil
}

// applyStash puts into v, the apply body's object, the stash of the merged
// hub object: the intent's own stash would hold only what the intent says
// and drop what the stash keeps for other fields (the status among them).
// The annotation stays out of the body when the intent needs no stash and
// the merged one equals the stored one (cur), so that the manager does not
// take ownership of it needlessly.
func (r *Resource[T, L]) applyStash(v runtime.Object, merged T, cur runtime.Object, s served) error {
	mergedV, err := r.fromHub(merged, s)
	if err != nil {
		return err
	}
	want, wantOK := stashOf(mergedV)
	_, intentOK := stashOf(v)
	stored, storedOK := stashOf(cur)
	meta := v.(metav1.Object)
	annotations := map[string]string{}
	for k, val := range meta.GetAnnotations() {
		annotations[k] = val
	}
	switch {
	case wantOK && (intentOK || !storedOK || want != stored):
		annotations[resource.StashAnnotation] = want
	default:
		delete(annotations, resource.StashAnnotation)
	}
	if len(annotations) == 0 {
		annotations = nil
	}
	meta.SetAnnotations(annotations)
	return nil
}

func (r *Resource[T, L]) checkSubresources(s served, subresources []string) error {
	switch {
	case len(subresources) == 0:
		return nil
	case len(subresources) == 1 && subresources[0] == "status" && s.status:
		return nil
	case len(subresources) == 1 && subresources[0] == "status":
		return fmt.Errorf("hubclient: %s has no status subresource in %s", r.hubKind, s.version)
	default:
		return fmt.Errorf("hubclient: %s has no subresource %v (only \"status\" is supported)", r.hubKind, subresources)
	}
}

// ListWatch lists and watches this kind as hub objects, for client-go's
// reflectors and informers.
func (r *Resource[T, L]) ListWatch() *cache.ListWatch {
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			l, err := r.List(ctx, opts)
			if err != nil {
				return nil, err
			}
			return l, nil
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return r.Watch(ctx, opts)
		},
	}
}

// Informer returns a new shared informer whose cache holds hub objects of
// this kind (in this namespace for namespaced kinds, all namespaces when the
// Resource was made with ""), indexed by namespace for namespaced kinds.
// Start it with Run. For a kind the server does not serve, its list and
// watch fail with a *NotServedError.
func (r *Resource[T, L]) Informer(resync time.Duration, indexers cache.Indexers) cache.SharedIndexInformer {
	if indexers == nil {
		indexers = cache.Indexers{}
	}
	if s, err := r.c.lookup(r.hubKind); err == nil && s.namespaced {
		if _, ok := indexers[cache.NamespaceIndex]; !ok {
			indexers[cache.NamespaceIndex] = cache.MetaNamespaceIndexFunc
		}
	}
	// The reflector streams the initial list through a watch where the
	// clientset supports it, and lists where it says it does not (the fake
	// clientset), as client-go's generated informers do.
	var client any = r.c.cs.Drakit
	if s, err := r.c.lookup(r.hubKind); err == nil && s.kubeAPI {
		client = r.c.cs.Kube
	}
	lw := cache.ToListWatcherWithWatchListSemantics(r.ListWatch(), client)
	return cache.NewSharedIndexInformer(lw, r.newObj(), resync, indexers)
}

func describe(obj runtime.Object) string {
	if m, ok := obj.(metav1.Object); ok {
		name := m.GetName()
		if m.GetNamespace() != "" {
			name = m.GetNamespace() + "/" + name
		}
		return fmt.Sprintf("%T %q", obj, name)
	}
	return fmt.Sprintf("%T", obj)
}
