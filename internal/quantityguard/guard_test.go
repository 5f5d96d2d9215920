package quantityguard

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gopkg.in/inf.v0"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestCheck(t *testing.T) {
	for _, s := range []string{
		"", "0", "1", "-1", "+1.5", "40Gi", "1Ei", "100m", "1e3", "1E-9", "1.5e+30", ".5E-1000",
		"1E-1000", "1e1000", "1E+1000", "-9.5e1000", "e", "E5", "1E", "1E+", "1Ex", "1E--5", "abc",
		// Not an exponent, or one beyond int64: ParseQuantity rejects the
		// suffix at once.
		"1E-99999999999999999999x", "1E99999999999999999999", "1E-99999999999999999999",
	} {
		if err := Check(s); err != nil {
			t.Errorf("Check(%q) = %v, want nil", s, err)
		}
	}
	for _, s := range []string{
		"1E-2001", "1e-2147483647", "1E-2147483648", "1E2147483648", "-1E2147483648", "+0.5e4294967295",
		"1E9999999999", "1E-9223372036854775808", ".E-5000", "1e2001", "1e2000", "1E+2147483647", "1e100000000",
	} {
		err := Check(s)
		if err == nil {
			t.Errorf("Check(%q) = nil, want an error", s)
			continue
		}
		if !strings.Contains(err.Error(), "out of range") || !strings.Contains(err.Error(), s) {
			t.Errorf("Check(%q) = %q, want it to quote the value and say the exponent is out of range", s, err)
		}
	}
}

// TestAcceptedParse parses the extremes that Check accepts: each returns
// (if the bounds were wrong, this test would not finish).
func TestAcceptedParse(t *testing.T) {
	for _, s := range append(extremes(), "1E99999999999999999999") {
		if err := Check(s); err != nil {
			t.Errorf("Check(%.30q): %v", s, err)
			continue
		}
		q, err := resource.ParseQuantity(s) // returns, with a value or an error
		if err != nil {
			continue
		}
		if err := CheckQuantity(q); err != nil {
			t.Errorf("CheckQuantity(ParseQuantity(%.30q)): %v, want nil: every string Check accepts parses within the bound", s, err)
		}
		if err := Check(q.String()); err != nil {
			t.Errorf("Check(ParseQuantity(%.30q).String()): %v, want nil: the canonical form is accepted again", s, err)
		}
	}
}

// extremes are quantities at the edges of the bound.
func extremes() []string {
	nines := strings.Repeat("9", MaxDigits)
	return []string{
		"1E-1000", "9.99999E-1000", "1E1000", "-1e1000", "9e1999", "1e-2000", nines + "e-2000", "1" + strings.Repeat("0", MaxDigits-1) + "e1000", "1Ei", "8Ei", "999999999999999999E",
		nines, "-" + nines, nines + "e1000", nines + "E-1000", "." + nines + "e1000", nines[:500] + "." + nines[500:] + "e-1000",
		"0." + strings.Repeat("0", MaxDigits-2) + "1e-1000", strings.Repeat("0", MaxDigits-1) + "1",
		"1" + strings.Repeat("0", MaxMagnitude-1), nines + strings.Repeat("0", MaxMagnitude-MaxDigits), "-" + nines + strings.Repeat("0", MaxMagnitude-MaxDigits-18) + "E",
	}
}

func TestCheckDigits(t *testing.T) {
	long := strings.Repeat("1", MaxDigits+1)
	zeros := strings.Repeat("0", MaxMagnitude)
	for _, s := range []string{
		long, "-" + long, long[:10] + "." + long[10:], long + "Gi", long + "e5",
		"1" + zeros, "0." + zeros + "1", // too many digits in all
		"1" + zeros[1:] + "e1", "1" + zeros[1:] + "k", "1" + zeros[:MaxDigits] + "e1000", // 10^2000 and more
	} {
		err := Check(s)
		if err == nil || !strings.Contains(err.Error(), "digits") && !strings.Contains(err.Error(), "below 10^2000") {
			t.Errorf("Check(%.20q...) = %v, want an error about the digits or the magnitude", s, err)
		}
		if err != nil && len(err.Error()) > 200 {
			t.Errorf("Check(%.20q...): the message quotes all of the value: %d bytes", s, len(err.Error()))
		}
	}
}

func TestCheckQuantity(t *testing.T) {
	for _, q := range []resource.Quantity{
		resource.MustParse("40Gi"), resource.MustParse("1e1000"), resource.MustParse("1E-1000"),
		*resource.NewScaledQuantity(1, 1999), *resource.NewScaledQuantity(7, MinExponent), {},
	} {
		if err := CheckQuantity(q); err != nil {
			t.Errorf("CheckQuantity(%v) = %v, want nil", q.String(), err)
		}
	}
	huge := new(big.Int).Exp(big.NewInt(10), big.NewInt(MaxDigits+MaxExponent+1), nil)
	for name, q := range map[string]resource.Quantity{
		"scale 2001":              *resource.NewScaledQuantity(1, MaxExponent+1),
		"scale -2001":             *resource.NewScaledQuantity(1, MinExponent-1),
		"scale maxint32":          *resource.NewScaledQuantity(1, math.MaxInt32),
		"parsed before the check": mustParseUnchecked(t, "1e100000"),
		"10^2001":                 *resource.NewDecimalQuantity(*inf.NewDecBig(huge, 0), resource.DecimalSI),
	} {
		if err := CheckQuantity(q); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("%s: CheckQuantity = %v, want out of range", name, err)
		}
	}
}

func mustParseUnchecked(t *testing.T, s string) resource.Quantity {
	q, err := resource.ParseQuantity(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// BenchmarkCompareAtBound compares and adds the extremes of the bound:
// the largest value (1000 nines times 10^1000, just below 10^2000) with
// the finest one (10^-2000, which only a program can build: parsing rounds
// it up to 1n), with 1Gi and with itself.
func BenchmarkCompareAtBound(b *testing.B) {
	largest := resource.MustParse(strings.Repeat("9", MaxDigits) + "e1000")
	smallest := *resource.NewScaledQuantity(1, MinExponent)
	gi := resource.MustParse("1Gi")
	for _, other := range []struct {
		name string
		q    resource.Quantity
	}{{"finest", smallest}, {"1Gi", gi}, {"largest", largest}} {
		b.Run("Cmp/"+other.name, func(b *testing.B) {
			for b.Loop() {
				if largest.Cmp(other.q) < 0 {
					b.Fatal("wrong order")
				}
			}
		})
		b.Run("Add/"+other.name, func(b *testing.B) {
			for b.Loop() {
				sum := largest.DeepCopy()
				sum.Add(other.q)
			}
		})
	}
}

func TestCheckUnmarshalJSON(t *testing.T) {
	for raw, bad := range map[string]bool{
		`"1E-5000"`: true, ` 1E-5000 `: true, `" 1E-5000"`: true, `"1Gi"`: false, `null`: false, `"1E-\u0035000"`: false,
	} {
		if err := CheckUnmarshalJSON([]byte(raw)); (err != nil) != bad {
			t.Errorf("CheckUnmarshalJSON(%s) = %v, want an error: %v", raw, err, bad)
		}
	}
}

type inner struct {
	Capacity map[string]resource.Quantity `json:"capacity,omitempty"`
	Optional *resource.Quantity           `json:"optional,omitempty"`
	Label    string                       `json:"label,omitempty"`
}

type embedded struct {
	Inline resource.Quantity `json:"inline"`
}

type outer struct {
	embedded `json:",inline"`
	Items    []inner              `json:"items"`
	Raw      runtime.RawExtension `json:"raw"`
	Labels   map[string]string    `json:"labels"`
}

func TestCheckJSON(t *testing.T) {
	typ := reflect.TypeOf(&outer{})
	for js, wantPath := range map[string]string{
		`{"items":[{"capacity":{"memory":"1Gi"}},{"capacity":{"a":"1","memory":"1E-2147483647"}}]}`: "items[1].capacity.memory",
		`{"items":[{"optional":"2E99999999999"}]}`:                                                  "items[0].optional",
		`{"inline":"1E-5000"}`: "inline",
		// Only quantities are checked: strings elsewhere, opaque raw
		// extensions and numbers may say what they like.
		`{"items":[{"label":"1E-2147483647"}],"labels":{"x":"1E-2147483647"},"raw":{"q":"1E-2147483647"}}`: "",
		`{"items":[{"capacity":{"memory":1E-2147483647}}]}`:                                                "",
		`{"items":[{"capacity":{"memory":"1E-999"}}]}`:                                                     "",
		`{"items":`: "", // not JSON: left to the decoder
	} {
		err := CheckJSON([]byte(js), typ)
		if wantPath == "" {
			if err != nil {
				t.Errorf("%s: %v, want no error", js, err)
			}
			continue
		}
		if err == nil || err.Path != wantPath {
			t.Errorf("%s: %v, want an error at %s", js, err, wantPath)
		}
	}

	// CheckValue reads what unstructured objects hold.
	var v any
	if err := json.Unmarshal([]byte(`{"items":[{"capacity":{"m":"1E3000000000"}}]}`), &v); err != nil {
		t.Fatal(err)
	}
	if err := CheckValue(v, typ); err == nil || err.Path != "items[0].capacity.m" {
		t.Errorf("CheckValue: %v, want an error at items[0].capacity.m", err)
	}
}

func BenchmarkCheckJSON(b *testing.B) {
	js := []byte(`{"items":[{"capacity":{"memory":"40Gi","bandwidth":"100G"},"label":"gpu.example.com/model"}]}`)
	typ := reflect.TypeOf(&outer{})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := CheckJSON(js, typ); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseAtBound parses the texts at the edges of the bound.
func BenchmarkParseAtBound(b *testing.B) {
	for _, s := range extremes() {
		name := s
		if len(name) > 20 {
			name = fmt.Sprintf("%s...%s(%d)", name[:8], name[len(name)-8:], len(name))
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := Check(s); err != nil {
					b.Fatal(err)
				}
				if _, err := resource.ParseQuantity(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestCheckFields(t *testing.T) {
	huge := mustParseUnchecked(t, "1e100000")
	v := &outer{
		embedded: embedded{Inline: huge},
		Items: []inner{
			{Capacity: map[string]resource.Quantity{"b": huge, "a": resource.MustParse("1"), "c": huge}},
			{Optional: &huge, Label: "x"},
		},
	}
	errs := CheckFields(v, field.NewPath("spec"))
	var paths []string
	for _, e := range errs {
		paths = append(paths, e.Field)
		if !strings.Contains(e.Error(), "out of range") || len(e.Error()) > 300 {
			t.Errorf("%s: %q, want a short out-of-range message", e.Field, e.Error())
		}
	}
	want := []string{"spec.inline", "spec.items[0].capacity[b]", "spec.items[0].capacity[c]", "spec.items[1].optional"}
	if !slices.Equal(paths, want) {
		t.Errorf("CheckFields: %v, want %v", paths, want)
	}
	if e := FirstField(v, nil); e == nil || e.Field != "inline" {
		t.Errorf("FirstField: %v, want inline", e)
	}
	if errs := CheckFields(&outer{Items: []inner{{Capacity: map[string]resource.Quantity{"a": resource.MustParse("40Gi")}}}}, nil); len(errs) != 0 {
		t.Errorf("within the bound: %v", errs)
	}
}
