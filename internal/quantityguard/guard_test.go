package quantityguard

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestCheck(t *testing.T) {
	for _, s := range []string{
		"", "0", "1", "-1", "+1.5", "40Gi", "1Ei", "100m", "1e3", "1E-9", "1.5e+30", ".5E-1000",
		"1E-1000", "1e2147483647", "1E+2147483647", "e", "E5", "1E", "1E+", "1Ex", "1E--5", "abc",
		// Not an exponent, or one beyond int64: ParseQuantity rejects the
		// suffix at once.
		"1E-99999999999999999999x", "1E99999999999999999999", "1E-99999999999999999999",
	} {
		if err := Check(s); err != nil {
			t.Errorf("Check(%q) = %v, want nil", s, err)
		}
	}
	for _, s := range []string{
		"1E-1001", "1e-2147483647", "1E-2147483648", "1E2147483648", "-1E2147483648", "+0.5e4294967295",
		"1E9999999999", "1E-9223372036854775808", ".E-5000",
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
	for _, s := range []string{"1E-1000", "9.99999E-1000", "1E2147483647", "-1e2147483647", "1E99999999999999999999"} {
		if err := Check(s); err != nil {
			t.Fatalf("Check(%q): %v", s, err)
		}
		_, _ = resource.ParseQuantity(s) // returns, with a value or an error

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
