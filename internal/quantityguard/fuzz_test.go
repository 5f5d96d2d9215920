package quantityguard

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
)

// parseBudget is far more than parsing anything Check accepts takes (tens
// of microseconds, BenchmarkParseAtBound); a parse beyond it means the
// bound lets through what it should not.
const parseBudget = 100 * time.Millisecond

// FuzzCheck: Check never panics; whatever it accepts parses quickly to a
// quantity within the bound (CheckQuantity), whose canonical form it
// accepts again and which compares with the extremes quickly; and
// CheckUnmarshalJSON and CheckJSON of the quoted string agree with it.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"", "0", "1", "-1.5", "40Gi", "1e3", "1E-9", "100m", "1e2147483647", "1E-2147483648", "1e2001", ".E-5000", "1Ex", "+.5e-0", "0.0000001n"} {
		f.Add(s)
	}
	for _, s := range extremes() {
		f.Add(s)
	}
	largest := resource.MustParse(strings.Repeat("9", MaxDigits) + "e1000")
	finest := *resource.NewScaledQuantity(1, MinExponent)
	f.Fuzz(func(t *testing.T, s string) {
		err := Check(s)
		quoted := strconv.Quote(s)
		if strings.ContainsAny(s, "\\\"") || s != strings.TrimSpace(s) || quoted != `"`+s+`"` {
			// CheckUnmarshalJSON reads raw JSON: no unescaping, no space.
			return
		}
		if jerr := CheckUnmarshalJSON([]byte(quoted)); (jerr == nil) != (err == nil) {
			t.Fatalf("Check(%.40q) = %v but CheckUnmarshalJSON = %v", s, err, jerr)
		}
		if perr := CheckJSON([]byte(`{"q":`+quoted+`}`), reflect.TypeOf(struct {
			Q resource.Quantity `json:"q"`
		}{})); (perr == nil) != (err == nil) {
			t.Fatalf("Check(%.40q) = %v but CheckJSON = %v", s, err, perr)
		}
		if err != nil {
			if !strings.Contains(err.Error(), "quantity") || len(err.Error()) > 300 {
				t.Fatalf("Check(%.40q): the message %q must say quantity and stay short", s, err)
			}
			return
		}
		var q resource.Quantity
		var perr error
		if d := fastest(func() { q, perr = resource.ParseQuantity(s) }); d > parseBudget {
			t.Fatalf("ParseQuantity(%.40q) took %v", s, d)
		}
		if perr != nil {
			return
		}
		if err := CheckQuantity(q); err != nil {
			t.Fatalf("Check accepts %.40q, which parses beyond the bound: %v", s, err)
		}
		if err := Check(q.String()); err != nil {
			t.Fatalf("Check accepts %.40q but not its canonical form: %v", s, err)
		}
		if d := fastest(func() {
			_ = q.Cmp(largest) + q.Cmp(finest)
			sum := q.DeepCopy()
			sum.Add(largest)
			sum.Sub(finest)
		}); d > parseBudget {
			t.Fatalf("comparing and adding %.40q took %v", s, d)
		}
	})
}

// fastest is the shortest of three runs of f, stopping at the first
// within parseBudget: one run can be slowed far beyond the budget by a
// busy machine (the fuzzer's workers, a GC), three in a row cannot.
func fastest(f func()) time.Duration {
	best := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		f()
		best = min(best, time.Since(start))
		if best <= parseBudget {
			break
		}
	}
	return best
}
