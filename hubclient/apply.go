package hubclient

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/internal/jsonfields"
)

// applyBody is the apply patch for obj, a typed object of the served
// version converted from the caller's hub object. An apply patch must say
// only what its manager means to own, but a typed object's JSON also holds
// the zero values of required (non-omitempty) fields and nulls; those are
// left out, following the rule in the package documentation. With status,
// only apiVersion, kind, metadata.name/namespace and status are kept.
func applyBody(obj runtime.Object, status bool) ([]byte, error) {
	raw, err := versionedJSON(obj)
	if err != nil {
		return nil, err
	}
	m, err := decodeNumbers(raw)
	if err != nil {
		return nil, err
	}
	pruned, _ := prune(m, reflect.TypeOf(obj), true)
	body, ok := pruned.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("internal error: %T did not encode as a JSON object", obj)
	}
	if status {
		meta, _ := body["metadata"].(map[string]any)
		ident := map[string]any{}
		for _, k := range []string{"name", "namespace"} {
			if v, ok := meta[k]; ok {
				ident[k] = v
			}
		}
		statusBody := map[string]any{"apiVersion": body["apiVersion"], "kind": body["kind"], "metadata": ident}
		if s, ok := body["status"]; ok {
			statusBody["status"] = s
		}
		body = statusBody
	}
	return json.Marshal(body)
}

func decodeNumbers(raw []byte) (map[string]any, error) {
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

var jsonMarshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

// prune removes from v, the JSON value of a Go value of type t, what is not
// part of an apply intent: nulls, plain scalars at their zero value and
// plain structs left empty. explicit says that v is there on purpose even
// when it is zero: it was behind a pointer, or is an element of a list or
// a value of a map. keep is false when v should be left out entirely.
func prune(v any, t reflect.Type, explicit bool) (out any, keep bool) {
	if v == nil {
		return nil, false
	}
	for t.Kind() == reflect.Ptr {
		t = t.Elem()
		explicit = true
	}
	if t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) {
		// Quantities, times, raw extensions: opaque values, kept as they are.
		return v, true
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return v, true
		}
		fields := jsonfields.Of(t)
		for k, fv := range m {
			ft, known := fields[k]
			if !known {
				continue
			}
			if nv, keep := prune(fv, ft, false); keep {
				m[k] = nv
			} else {
				delete(m, k)
			}
		}
		if len(m) == 0 && !explicit {
			return nil, false
		}
		return m, true
	case reflect.Slice, reflect.Array:
		list, ok := v.([]any)
		if !ok {
			return v, true // []byte as base64
		}
		for i := range list {
			if nv, keep := prune(list[i], t.Elem(), true); keep {
				list[i] = nv
			}
		}
		return list, true
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return v, true
		}
		for k := range m {
			if nv, keep := prune(m[k], t.Elem(), true); keep {
				m[k] = nv
			}
		}
		return m, true
	default:
		if explicit || !isZeroScalar(v) {
			return v, true
		}
		return nil, false
	}
}

func isZeroScalar(v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case bool:
		return !x
	case json.Number:
		f, err := x.Float64()
		return err == nil && f == 0
	}
	return false
}
