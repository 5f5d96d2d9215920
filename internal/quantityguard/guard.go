// Package quantityguard keeps quantity strings that apimachinery cannot
// parse in bounded time away from resource.ParseQuantity.
//
// apimachinery v0.33 reads a quantity's decimal exponent ("1E-5") at 64
// bits and narrows it to an int32 scale. An exponent that wraps to a large
// negative scale ("1E2147483648", "1E-2147483647") makes ParseQuantity
// compute a power of ten with billions of digits: it never returns. Large
// negative exponents that do not wrap are merely slow, with a cost that
// grows with the square of the exponent (1E-10000000 takes over a
// second). Kubernetes later rejected exponents outside the int32 range
// (kubernetes/kubernetes#141203) but kept the slow ones; every quantity
// below 1n rounds up to 1n anyway, so drakit also refuses exponents below
// MinExponent. Everything drakit parses from untrusted text goes through
// this check first: manifests (the CLI), unstructured objects
// (conversion.Convert), stash annotations and CEL's quantity() and
// isQuantity().
package quantityguard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/internal/jsonfields"
)

// MinExponent and MaxExponent bound the decimal exponent of a quantity.
// Parsing 1E-1000 takes well under a millisecond; MaxExponent is the
// largest that fits apimachinery's int32 scale (large positive exponents
// parse quickly).
const (
	MinExponent = -1000
	MaxExponent = math.MaxInt32
)

// Check returns an error when s is a quantity with a decimal exponent
// outside [MinExponent, MaxExponent], and nil for everything else: valid
// quantities, and strings that ParseQuantity rejects quickly. It reads s as
// ParseQuantity does: an optional sign, digits with at most one point,
// then the suffix.
func Check(s string) error {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	suffix := s[i:]
	if len(suffix) < 2 || (suffix[0] != 'e' && suffix[0] != 'E') {
		return nil
	}
	exp, err := strconv.ParseInt(suffix[1:], 10, 64)
	if err != nil {
		// Not an exponent, or one beyond int64: ParseQuantity reads it the
		// same way and rejects the suffix at once.
		return nil
	}
	if exp < MinExponent || exp > MaxExponent {
		return outOfRange(s, suffix[1:])
	}
	return nil
}

func outOfRange(s, exp string) error {
	return fmt.Errorf("quantity %q: the exponent %s is out of range: write it between %d and %d (a quantity below 1n rounds up to 1n)",
		s, exp, MinExponent, MaxExponent)
}

// CheckUnmarshalJSON checks raw, a JSON value about to be handed to
// resource.Quantity.UnmarshalJSON, as that method reads it: without its
// quotes and surrounding space, and without unescaping.
func CheckUnmarshalJSON(raw []byte) error {
	if l := len(raw); l >= 2 && raw[0] == '"' && raw[l-1] == '"' {
		raw = raw[1 : l-1]
	}
	return Check(strings.TrimSpace(string(raw)))
}

// PathError is a quantity that Check refused, and where it is.
type PathError struct {
	// Path is the field path, as "spec.devices[0].basic.capacity.memory".
	Path string
	Err  error
}

func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *PathError) Unwrap() error { return e.Err }

// CheckJSON checks the quantities of js, the JSON of a value of type t
// (typically a pointer to an API object), before it is decoded into one:
// every string at a place where t holds a resource.Quantity. Documents
// without a long exponent anywhere are not decoded at all, so the check
// costs one scan of the bytes. A js that is not JSON is left to the
// decoder to report.
func CheckJSON(js []byte, t reflect.Type) *PathError {
	if !mayHoldLongExponent(js) {
		return nil
	}
	var v any
	if json.Unmarshal(js, &v) != nil {
		return nil
	}
	return CheckValue(v, t)
}

// CheckValue checks the quantities of v, a value as encoding/json or
// unstructured.Unstructured hold JSON (maps, slices, strings...), that is
// about to be decoded into a value of type t.
func CheckValue(v any, t reflect.Type) *PathError {
	return walk(v, t, "")
}

// mayHoldLongExponent reports whether js has an e or E followed by an
// optional sign and at least four digits, the shortest exponent that
// Check can refuse.
func mayHoldLongExponent(js []byte) bool {
	for {
		i := bytes.IndexAny(js, "eE")
		if i < 0 {
			return false
		}
		js = js[i+1:]
		j := 0
		if j < len(js) && (js[j] == '+' || js[j] == '-') {
			j++
		}
		digits := 0
		for j < len(js) && js[j] >= '0' && js[j] <= '9' {
			j++
			digits++
		}
		if digits >= 4 {
			return true
		}
	}
}

var (
	quantityType    = reflect.TypeOf(resource.Quantity{})
	unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
)

func walk(v any, t reflect.Type, path string) *PathError {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == quantityType {
		if s, ok := v.(string); ok {
			if err := Check(strings.TrimSpace(s)); err != nil {
				return &PathError{Path: path, Err: err}
			}
		}
		return nil
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil // decodes itself (RawExtension, Time, ...): no quantity inside
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		fields := jsonfields.Of(t)
		// Sorted, so that the first of several bad quantities is always the
		// same one.
		for _, key := range slices.Sorted(maps.Keys(m)) {
			if ft, ok := fields[key]; ok {
				if err := walk(m[key], ft, join(path, key)); err != nil {
					return err
				}
			}
		}
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		for _, key := range slices.Sorted(maps.Keys(m)) {
			if err := walk(m[key], t.Elem(), join(path, key)); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		l, ok := v.([]any)
		if !ok {
			return nil
		}
		for i, e := range l {
			if err := walk(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
