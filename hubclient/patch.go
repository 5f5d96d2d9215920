package hubclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/internal/jsonfields"
)

// The hub types carry the API's JSON layout (TypeMeta inline, ObjectMeta
// under "metadata", a claim template's metadata under "spec.metadata"), so
// the hub document that patches apply to is simply the hub object's JSON:
// a patch has the paths users know from the versioned objects.

// hubDocument is the JSON form of a hub object that patches apply to.
func hubDocument(obj Object) ([]byte, error) {
	return json.Marshal(obj)
}

// fromHubDocument decodes a hub document into obj, strictly: a field the
// hub does not have is an error naming it, not silently dropped.
func fromHubDocument(doc []byte, obj Object) error {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	err := dec.Decode(obj)
	if err == nil {
		return nil
	}
	// Object metadata at the top level is the layout the hub had before
	// it had the API's: say where it belongs instead of only "unknown".
	var top map[string]json.RawMessage
	if json.Unmarshal(doc, &top) == nil {
		fields := jsonfields.Of(reflect.TypeOf(obj).Elem())
		var misplaced []string
		for name := range top {
			if _, known := fields[name]; !known && metaFields[name] != nil {
				misplaced = append(misplaced, strconv.Quote(name))
			}
		}
		if len(misplaced) > 0 {
			sort.Strings(misplaced)
			return fmt.Errorf("object metadata must be under \"metadata\", not at the top level (%s): %w", strings.Join(misplaced, ", "), err)
		}
	}
	return err
}

// metaFields are the JSON members of ObjectMeta.
var metaFields = jsonfields.Of(reflect.TypeOf(metav1.ObjectMeta{}))

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
	out, _ := prune(doc, reflect.TypeOf(obj), true)
	m, _ := out.(map[string]any)
	if m == nil {
		m = map[string]any{}
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
