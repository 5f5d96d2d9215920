package resourcev1

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/util/retry"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/conversion"
)

// Patch patches the named object, as the API server would patch its v1
// form: a JSON merge patch, a JSON patch or a strategic merge patch written
// against the v1 object, or an apply patch (server-side apply, as Apply).
// subresources may be "status".
//
// When the server does not serve the kind in v1, the patch is applied on
// the client to the current object, read as v1, and the result is written
// with Update (UpdateStatus for "status") under the resourceVersion it was
// computed on; on a conflict with another writer it starts over from the
// new state (retry.DefaultRetry's attempts), so the patch applies
// atomically as a server-side one does. A patch that sets
// metadata.resourceVersion itself makes that its precondition and is not
// retried.
func (k *kindClient[V, VL, AC, H, HL]) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (V, error) {
	if k.direct != nil {
		return k.direct.Patch(ctx, name, pt, data, opts, subresources...)
	}
	var zero V
	status, err := k.statusSubresource(subresources)
	if err != nil {
		return zero, err
	}
	if pt == types.ApplyPatchType {
		body, err := yaml.YAMLToJSON(data)
		if err != nil {
			return zero, apierrors.NewBadRequest(fmt.Sprintf("the apply patch of %s %q is neither JSON nor YAML: %v", k.kind, name, err))
		}
		aopts := metav1.ApplyOptions{DryRun: opts.DryRun, FieldManager: opts.FieldManager, Force: opts.Force != nil && *opts.Force}
		return k.applyJSON(ctx, body, aopts, status)
	}
	patch, err := v1Patcher(pt, data, newObject[V]())
	if err != nil {
		return zero, apierrors.NewBadRequest(fmt.Sprintf("patch of %s %q: %v", k.kind, name, err))
	}
	var out V
	ownPrecondition := false
	retriable := func(err error) bool { return apierrors.IsConflict(err) && !ownPrecondition }
	err = retry.OnError(retry.DefaultRetry, retriable, func() error {
		cur, err := k.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		updated, err := k.patched(cur, patch)
		if err != nil {
			return apierrors.NewBadRequest(fmt.Sprintf("%s of %s %q: %v", pt, k.kind, name, err))
		}
		switch rv := updated.GetResourceVersion(); {
		case rv == "":
			updated.SetResourceVersion(cur.GetResourceVersion())
		case rv != cur.GetResourceVersion():
			ownPrecondition = true
		}
		if unchanged, err := sameDocument(cur, updated); err != nil || unchanged {
			out = cur
			return err
		}
		uopts := metav1.UpdateOptions{DryRun: opts.DryRun, FieldManager: opts.FieldManager, FieldValidation: opts.FieldValidation}
		if status {
			out, err = k.UpdateStatus(ctx, updated, uopts)
		} else {
			out, err = k.Update(ctx, updated, uopts)
		}
		return err
	})
	return out, err
}

// patched applies patch to the v1 document of cur and reads the result
// back, strictly: a field v1 does not have is an error naming it.
func (k *kindClient[V, VL, AC, H, HL]) patched(cur V, patch func([]byte) ([]byte, error)) (V, error) {
	var zero V
	doc, err := v1Document(cur)
	if err != nil {
		return zero, err
	}
	out, err := patch(doc)
	if err != nil {
		return zero, err
	}
	updated := newObject[V]()
	if err := strictUnmarshal(out, updated); err != nil {
		return zero, fmt.Errorf("the patched object is not a v1 %s: %w", k.kind, err)
	}
	if updated.GetName() != cur.GetName() || updated.GetNamespace() != cur.GetNamespace() {
		return zero, errors.New("a patch may not change metadata.name or metadata.namespace")
	}
	clearTypeMeta(updated)
	return updated, nil
}

func (k *kindClient[V, VL, AC, H, HL]) statusSubresource(subresources []string) (bool, error) {
	switch {
	case len(subresources) == 0:
		return false, nil
	case len(subresources) == 1 && subresources[0] == "status":
		return true, nil
	default:
		return false, fmt.Errorf("resourcev1: %s has no subresource %v (only \"status\")", k.kind, subresources)
	}
}

// v1Patcher is the function that applies a patch of type pt to the JSON
// document of a v1 object of dataStruct's type, as the API server does.
func v1Patcher(pt types.PatchType, data []byte, dataStruct runtime.Object) (func([]byte) ([]byte, error), error) {
	switch pt {
	case types.MergePatchType:
		if !json.Valid(data) {
			return nil, errors.New("the JSON merge patch is not valid JSON")
		}
		return func(doc []byte) ([]byte, error) { return jsonpatch.MergePatch(doc, data) }, nil
	case types.JSONPatchType:
		p, err := jsonpatch.DecodePatch(data)
		if err != nil {
			return nil, fmt.Errorf("the JSON patch cannot be read: %w", err)
		}
		return p.Apply, nil
	case types.StrategicMergePatchType:
		// The v1 types carry the patch strategies and merge keys the
		// server uses (it patches its v1 form with the same tags).
		meta, err := strategicpatch.NewPatchMetaFromStruct(dataStruct)
		if err != nil {
			return nil, err
		}
		return func(doc []byte) ([]byte, error) {
			return strategicpatch.StrategicMergePatchUsingLookupPatchMeta(doc, data, meta)
		}, nil
	default:
		return nil, fmt.Errorf("unsupported patch type %q: use %s, %s, %s or %s", pt, types.MergePatchType, types.JSONPatchType, types.StrategicMergePatchType, types.ApplyPatchType)
	}
}

// v1Document is the JSON of a v1 object with its apiVersion and kind, as
// the server's patches see it.
func v1Document(obj runtime.Object) ([]byte, error) {
	obj = obj.DeepCopyObject()
	gvks, _, err := conversion.Scheme.ObjectKinds(obj)
	if err != nil {
		return nil, err
	}
	obj.GetObjectKind().SetGroupVersionKind(gvks[0])
	return json.Marshal(obj)
}

// sameDocument tells whether two v1 objects have the same JSON form (what
// a patch changes; the form also rounds times to seconds, as the server
// does, where a deep comparison would see nanoseconds only one has).
func sameDocument(a, b runtime.Object) (bool, error) {
	da, err := v1Document(a)
	if err != nil {
		return false, err
	}
	db, err := v1Document(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(da, db), nil
}

// strictUnmarshal reads JSON into obj as the API server's strict field
// validation does: field names match case-sensitively, and an unknown or
// duplicate field is an error naming its path.
func strictUnmarshal(data []byte, obj any) error {
	strict, err := sigsjson.UnmarshalStrict(data, obj, sigsjson.DisallowDuplicateFields, sigsjson.DisallowUnknownFields)
	if err != nil {
		return err
	}
	return errors.Join(strict...)
}
