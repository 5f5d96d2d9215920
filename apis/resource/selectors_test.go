package resource

import (
	"strconv"
	"testing"
)

// TestDriverSelectorExpression holds the fast path of
// DriverSelectorExpression to strconv.Quote and checks that
// DriverFromSelector reads every expression back.
func TestDriverSelectorExpression(t *testing.T) {
	for _, driver := range []string{
		"gpu.example.com", "a", "", "with space", `quote"d`, `back\slash`, "tab\t", "\x7f", "é.example.com", "\xff", "~!@#$%^&*()",
	} {
		want := "device.driver == " + strconv.Quote(driver)
		if got := DriverSelectorExpression(driver); got != want {
			t.Errorf("%q: got %s, want %s", driver, got, want)
		}
		if got, ok := DriverFromSelector(DriverSelector(driver)); !ok || got != driver {
			t.Errorf("%q: DriverFromSelector gives %q, %v", driver, got, ok)
		}
	}
}
