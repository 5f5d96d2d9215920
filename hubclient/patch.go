package hubclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/conversion"
)

// The hub types embed TypeMeta and ObjectMeta without JSON tags, so plain
// encoding/json would put name, labels and the rest at the top level. The
// hub document that patches are written against is the API's layout
// instead: the hub's own fields at the top level and the object metadata
// under "metadata". hubDocument and fromHubDocument translate.

// hubDocument is the JSON form of a hub object that patches apply to.
func hubDocument(obj Object) ([]byte, error) {
	full, err := toMap(obj)
	if err != nil {
		return nil, err
	}
	meta, err := objectMetaMap(obj)
	if err != nil {
		return nil, err
	}
	for k := range meta {
		delete(full, k)
	}
	delete(full, "creationTimestamp") // a zero time encodes as null and is in neither form
	if len(meta) > 0 {
		full["metadata"] = meta
	}
	return json.Marshal(full)
}

// fromHubDocument decodes a hub document into obj, strictly: a field the
// hub does not have is an error naming it, not silently dropped.
func fromHubDocument(doc []byte, obj Object) error {
	var full map[string]json.RawMessage
	if err := json.Unmarshal(doc, &full); err != nil {
		return err
	}
	metaRaw := full["metadata"]
	delete(full, "metadata")
	rest, err := json.Marshal(full)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(obj); err != nil {
		return err
	}
	if !reflect.DeepEqual(objectMeta(obj), metav1.ObjectMeta{}) {
		return fmt.Errorf("object metadata must be under \"metadata\", not at the top level")
	}
	var meta metav1.ObjectMeta
	if len(metaRaw) > 0 && string(metaRaw) != "null" {
		dec := json.NewDecoder(bytes.NewReader(metaRaw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&meta); err != nil {
			return fmt.Errorf("metadata: %w", err)
		}
	}
	setObjectMeta(obj, meta)
	return nil
}

// intentDocument is the hub document of an apply intent, without what the
// intent does not set (the rule of applyBody, on the hub's types).
func intentDocument(obj Object) (map[string]any, error) {
	raw, err := hubDocument(obj)
	if err != nil {
		return nil, err
	}
	doc, err := decodeNumbers(raw)
	if err != nil {
		return nil, err
	}
	meta := doc["metadata"]
	delete(doc, "metadata")
	pruned, _ := prune(doc, reflect.TypeOf(obj), true)
	out, _ := pruned.(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	if meta != nil {
		if m, keep := prune(meta, reflect.TypeOf(metav1.ObjectMeta{}), true); keep {
			out["metadata"] = m
		}
	}
	return out, nil
}

// objectMetaMap is the JSON object of obj's ObjectMeta.
func objectMetaMap(obj Object) (map[string]any, error) {
	m := objectMeta(obj)
	return toMap(&m)
}

// objectMeta copies the ObjectMeta embedded in a hub object.
func objectMeta(obj Object) metav1.ObjectMeta {
	return reflect.ValueOf(obj).Elem().FieldByName("ObjectMeta").Interface().(metav1.ObjectMeta)
}

func setObjectMeta(obj Object, meta metav1.ObjectMeta) {
	reflect.ValueOf(obj).Elem().FieldByName("ObjectMeta").Set(reflect.ValueOf(meta))
}

func toMap(v any) (map[string]any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // int64 values stay exact
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// hubPatcher checks the patch type and returns the function that applies
// the patch to a hub document.
func hubPatcher(pt types.PatchType, data []byte) (func([]byte) ([]byte, error), error) {
	switch pt {
	case types.MergePatchType:
		if !json.Valid(data) {
			return nil, fmt.Errorf("the JSON merge patch is not valid JSON")
		}
		return func(doc []byte) ([]byte, error) { return jsonpatch.MergePatch(doc, data) }, nil
	case types.JSONPatchType:
		p, err := jsonpatch.DecodePatch(data)
		if err != nil {
			return nil, fmt.Errorf("the JSON patch cannot be read: %w", err)
		}
		return p.Apply, nil
	case types.StrategicMergePatchType:
		return nil, fmt.Errorf("strategic merge patch is not supported on hub objects (the hub has no list merge keys); use %s, %s or Apply", types.MergePatchType, types.JSONPatchType)
	case types.ApplyPatchType:
		return nil, fmt.Errorf("use Apply for server-side apply")
	default:
		return nil, fmt.Errorf("unknown patch type %q; use %s or %s", pt, types.MergePatchType, types.JSONPatchType)
	}
}

// versionedMergePatch is the JSON merge patch from the server's object cur
// to updated (both of the served version), with metadata.resourceVersion
// set to rv so that the server applies it only to the state it was computed
// on. changed is false when the two objects are equal.
func versionedMergePatch(cur, updated runtime.Object, rv string) ([]byte, bool, error) {
	from, err := versionedJSON(cur)
	if err != nil {
		return nil, false, err
	}
	to, err := versionedJSON(updated)
	if err != nil {
		return nil, false, err
	}
	diff, err := jsonpatch.CreateMergePatch(from, to)
	if err != nil {
		return nil, false, err
	}
	var m map[string]any
	if err := json.Unmarshal(diff, &m); err != nil {
		return nil, false, err
	}
	if len(m) == 0 {
		return nil, false, nil
	}
	meta, _ := m["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		m["metadata"] = meta
	}
	meta["resourceVersion"] = rv
	out, err := json.Marshal(m)
	return out, true, err
}

// versionedJSON encodes a typed object of a version with apiVersion and
// kind, so both sides of a diff have them.
func versionedJSON(obj runtime.Object) ([]byte, error) {
	obj = obj.DeepCopyObject()
	gvks, _, err := conversion.Scheme.ObjectKinds(obj)
	if err != nil {
		return nil, err
	}
	obj.GetObjectKind().SetGroupVersionKind(gvks[0])
	return json.Marshal(obj)
}

func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Ptr && rv.IsNil()
}
