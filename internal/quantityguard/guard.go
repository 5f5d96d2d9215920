// Package quantityguard bounds the quantities drakit parses and compares,
// so that no quantity in a manifest, a stash annotation, a ResourceSlice,
// a claim or a CEL selector can make drakit do unbounded work. It is the
// one place where the bound is defined; everything that parses or
// compares quantities from input asks it first.
//
// # The bound
//
// A quantity written as text may have at most MaxDigits (1000) significant
// digits and MaxMagnitude (2000) digits in all, a decimal exponent ("1e3",
// "1E-9") between MinExponent and MaxExponent (-2000 and 2000), and a
// value below 10^MaxMagnitude. A parsed quantity (CheckQuantity) must be
// below 10^MaxMagnitude and have a scale (a resolution) between
// 10^MinExponent and 10^MaxExponent. Every string within the first bound
// parses to a value within the second, whose canonical form
// (Quantity.String) is within the first again.
//
// # Why
//
// apimachinery keeps a quantity as an unscaled integer and a decimal
// scale, and brings both operands of a comparison or a sum to the finer
// of their scales: comparing 1e100000000 with 1Gi builds an integer of a
// hundred million digits (57 s and 329 MB in drakit allocate before this
// bound; 1e2147483647 never finishes). Parsing has its own costs: an
// exponent that wraps around apimachinery's int32 scale ("1E2147483648",
// "1E-2147483647" in v0.33) never returns, large negative ones round with
// a cost that grows with the square of the exponent (1E-10000000 takes
// over a second; every quantity below 1n rounds up to 1n anyway), and the
// digits of a mantissa are converted in time that grows faster than their
// number. Neither the CEL cost limit nor a cancelled context interrupts a
// single comparison or parse.
//
// Within the bound a comparison or a sum of two quantities handles
// integers of at most about 4000 digits (10^2000 at the resolution
// 10^-2000): BenchmarkCompareAtBound measures under 10 microseconds for
// the worst pair and BenchmarkParseAtBound under 100 for the longest
// text. Kubernetes' own quantities stay far inside: resource amounts use
// the suffixes up to E (10^18) and Ei (2^60), and apimachinery caps binary
// quantities at 2^63-1.
package quantityguard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/internal/jsonfields"
)

// The bound of a quantity (see the package documentation).
const (
	// MaxMagnitude bounds every quantity: it is below 10^MaxMagnitude.
	// Text also has at most MaxMagnitude digits in all (zeros included).
	MaxMagnitude = 2000
	// MinExponent and MaxExponent bound the decimal exponent of a
	// quantity written as text ("1e3", "1E-9"), and the scale of a parsed
	// one. Quantity.String writes large values with an exponent ("10e1998"
	// for 10^1999), so the exponent reaches as far as the magnitude.
	MinExponent = -MaxMagnitude
	MaxExponent = MaxMagnitude
	// MaxDigits bounds the significant digits of a quantity written as
	// text: from the first digit that is not zero to the last.
	MaxDigits = 1000
)

// maxMagnitudeBits bounds the bits of a parsed quantity's integer part:
// 10^MaxMagnitude has ceil(MaxMagnitude * log2(10)) = 6644 bits; one more
// absorbs the rounding of the estimate in CheckQuantity.
const maxMagnitudeBits = 6645

// siExponents are the decimal exponents of the decimal SI suffixes.
var siExponents = map[string]int64{"n": -9, "u": -6, "m": -3, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}

// Check returns an error when s is a quantity beyond the bound: a decimal
// exponent outside [MinExponent, MaxExponent], more than MaxDigits
// significant digits, more than MaxMagnitude digits in all, or a value of
// 10^MaxMagnitude or more. It returns nil for everything else: quantities
// within the bound, and strings that ParseQuantity rejects quickly. It
// reads s as ParseQuantity does: an optional sign, digits with at most one
// point, then the suffix. Every string Check accepts and ParseQuantity
// parses gives a quantity CheckQuantity accepts, and its canonical form
// (Quantity.String) is accepted again.
func Check(s string) error {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	var (
		digits, intDigits   int      // all digits; integer digits after leading zeros
		first, last         = -1, -1 // digit positions of the first and last non-zero digit
		inFraction, leading = false, true
	)
	for ; i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.'); i++ {
		if s[i] == '.' {
			inFraction = true
			continue
		}
		if s[i] != '0' {
			if first < 0 {
				first = digits
			}
			last = digits
			leading = false
		}
		if !inFraction && !leading {
			intDigits++
		}
		digits++
	}
	if digits > MaxMagnitude {
		return fmt.Errorf("quantity %s has %d digits: write at most %d", quote(s), digits, MaxMagnitude)
	}
	if significant := last - first + 1; significant > MaxDigits {
		return fmt.Errorf("quantity %s has %d significant digits: write at most %d", quote(s), significant, MaxDigits)
	}
	suffix := s[i:]
	exp := siExponents[suffix]
	if len(suffix) >= 2 && (suffix[0] == 'e' || suffix[0] == 'E') {
		var err error
		exp, err = strconv.ParseInt(suffix[1:], 10, 64)
		if err != nil {
			// Not an exponent, or one beyond int64: ParseQuantity reads
			// it the same way and rejects the suffix at once.
			return nil
		}
		if exp < MinExponent || exp > MaxExponent {
			// The exponent as a number: its text may be long with zeros.
			return fmt.Errorf("quantity %s: the exponent %d is out of range: write it between %d and %d (a quantity below 1n rounds up to 1n)",
				quote(s), exp, MinExponent, MaxExponent)
		}
	}
	if int64(intDigits)+exp > MaxMagnitude {
		return fmt.Errorf("quantity %s is out of range: it must be below 10^%d", quote(s), MaxMagnitude)
	}
	return nil
}

// quote quotes s for a message, shortened when long.
func quote(s string) string {
	const keep = 40
	if len(s) <= 2*keep {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:keep]) + "..." + strconv.Quote(s[len(s)-keep:])
}

// CheckQuantity returns an error when q, a parsed quantity (decoded from a
// protobuf, built by a program, or parsed without Check), is beyond the
// bound: a scale outside [MinExponent, MaxExponent], or a magnitude of
// about 10^MaxMagnitude or more, which no text within the bound parses
// to. (ParseQuantity brings every value with more than 18 digits to the
// scale 10^-9, so the unscaled value of a parsed quantity may have up to
// MaxMagnitude+9 digits.) It costs no arithmetic on the
// value.
func CheckQuantity(q resource.Quantity) error {
	if _, ok := q.AsInt64(); ok {
		// Most quantities: an integer held at a small scale, read
		// without allocating.
		return nil
	}
	// q is a copy: AsDec may convert its representation, never the
	// caller's.
	d := q.AsDec()
	unscaled := d.UnscaledBig()
	exp := -int64(d.Scale())
	if exp < MinExponent || exp > MaxExponent {
		return fmt.Errorf("quantity %se%d is out of range: write its exponent between %d and %d", shortInt(unscaled), exp, MinExponent, MaxExponent)
	}
	if bits := float64(unscaled.BitLen()) + float64(exp)*math.Log2(10); bits > maxMagnitudeBits {
		return fmt.Errorf("a quantity of about 10^%.0f is out of range: it must be below 10^%d", bits/math.Log2(10), MaxMagnitude)
	}
	return nil
}

// shortInt writes i, shortened when long.
func shortInt(i *big.Int) string {
	s := i.String()
	if len(s) > 40 {
		return s[:20] + "..." + s[len(s)-20:]
	}
	return s
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
// without a long exponent or a long run of digits anywhere are not decoded
// at all, so the check costs one scan of the bytes. A js that is not JSON is left to the
// decoder to report.
func CheckJSON(js []byte, t reflect.Type) *PathError {
	if !mayBeOutOfBounds(js) {
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

// mayBeOutOfBounds reports whether js has an e or E followed by an
// optional sign and at least four digits, the shortest exponent that Check
// can refuse, or a run of more than MaxDigits digits and points (which
// every other quantity Check refuses has).
func mayBeOutOfBounds(js []byte) bool {
	run := 0
	for _, c := range js {
		if c >= '0' && c <= '9' || c == '.' {
			if run++; run > MaxDigits {
				return true
			}
		} else {
			run = 0
		}
	}
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
