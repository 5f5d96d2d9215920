package cel

import (
	"context"
	"strings"
	"testing"
	"time"

	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/cel/internal/simple"
)

// evalBoth evaluates expr on the device as the fast path (Match) and as
// cel-go in the environment legacy picks, with the 1.37 input with or
// without list attributes.
func evalBoth(t *testing.T, expr string, legacy, lists bool, driver string, dev *hub.Device) (match, answered, want bool, celErr error) {
	t.Helper()
	ctx := context.Background()
	if s, ok := simple.Parse(expr, legacy); ok {
		match, answered = simpleMatch(s, driver, dev, lists)
	}
	if legacy {
		p, err := Compile(expr, Options{Release: 31, Stored: true})
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		want, celErr = p.Matches(ctx, NewInput(driver, dev))
	} else {
		p, err := Compile(expr, Options{Stored: true, SkipCostEstimate: true, Gates: listGates(lists)})
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		want, celErr = p.Matches(ctx, NewInput(driver, dev))
	}
	return match, answered, want, celErr
}

// TestSimpleSelectorBrokenScalarBesideList: in the 1.31 environment a
// device whose attribute holds a version that does not parse beside a
// list cannot be evaluated at all (the input takes the scalar first);
// Match declined only when the attribute had no list.
func TestSimpleSelectorBrokenScalarBesideList(t *testing.T) {
	const driver = "gpu.example.com"
	dev := &hub.Device{Name: "d", Attributes: map[hub.QualifiedName]hub.DeviceAttribute{
		"model":   {StringValue: ptr.To("h100")},
		"version": {VersionValue: ptr.To("1.2"), StringValues: []string{"x"}},
	}}
	for _, expr := range []string{`true`, `device.driver == "gpu.example.com"`, `device.attributes["gpu.example.com"].model == "h100"`} {
		match, answered, want, err := evalBoth(t, expr, true, false, driver, dev)
		if err == nil || !strings.Contains(err.Error(), "parse semantic version") {
			t.Errorf("%s: cel-go gives %v, %v; want the version's error", expr, want, err)
		}
		if answered {
			t.Errorf("%s: Match answers %v where cel-go fails", expr, match)
		}
		// The 1.37 input takes the list first, or drops the attribute:
		// either way whatever Match answers, cel-go answers alike.
		for _, lists := range []bool{false, true} {
			match, answered, want, err := evalBoth(t, expr, false, lists, driver, dev)
			if answered && (err != nil || want != match) {
				t.Errorf("%s (1.37, lists %v): Match %v, cel-go %v, %v", expr, lists, match, want, err)
			}
		}
	}
}

// TestHugeCapacity: a device whose capacity is beyond the quantity bound
// (which only a program or a parse without the guard can make) is refused
// in milliseconds by every input, and Match declines; before the bound,
// comparing 1e100000000 took a minute.
func TestHugeCapacity(t *testing.T) {
	const driver = "gpu.example.com"
	huge, err := apiresource.ParseQuantity("1e100000000")
	if err != nil {
		t.Fatal(err)
	}
	dev := &hub.Device{Name: "d", Capacity: map[hub.QualifiedName]hub.DeviceCapacity{
		"memory": {Value: huge}, "other": {Value: apiresource.MustParse("1Gi")},
	}}
	start := time.Now()
	for _, expr := range []string{`true`, `device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("1Gi"))`} {
		for _, env := range []struct{ legacy, lists bool }{{true, false}, {false, false}, {false, true}} {
			match, answered, want, err := evalBoth(t, expr, env.legacy, env.lists, driver, dev)
			if err == nil || !strings.Contains(err.Error(), "capacity memory") || !strings.Contains(err.Error(), "out of range") {
				t.Errorf("%s (%+v): cel-go gives %v, %v; want the capacity refused", expr, env, want, err)
			}
			if answered {
				t.Errorf("%s (%+v): Match answers %v", expr, env, match)
			}
		}
	}
	named := NewInput("", dev)
	p, err := Compile(`attributes.quantity["memory"].isGreaterThan(quantity("1"))`, Options{Release: 30, Stored: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Matches(context.Background(), named); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("named resources: %v, want the capacity refused", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestHugeQuantityLiteral: quantity() and isQuantity() refuse what is
// beyond the bound, alike in every environment, and the fast path leaves
// such a selector to cel-go.
func TestHugeQuantityLiteral(t *testing.T) {
	const driver = "gpu.example.com"
	dev := &hub.Device{Name: "d", Capacity: map[hub.QualifiedName]hub.DeviceCapacity{"memory": {Value: apiresource.MustParse("40Gi")}}}
	for _, lit := range []string{"1e100000000", "1e2147483647", "1e2001", strings.Repeat("1", 1001)} {
		sel := `device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("` + lit + `"))`
		for _, legacy := range []bool{true, false} {
			if _, ok := simple.Parse(sel, legacy); ok {
				t.Errorf("%.40s (legacy %v): the fast path accepts a quantity beyond the bound", sel, legacy)
			}
			_, _, want, err := evalBoth(t, sel, legacy, false, driver, dev)
			if err == nil || !strings.Contains(err.Error(), "quantity") || !strings.Contains(err.Error(), "write") {
				t.Errorf("%.60s (legacy %v): %v, %v; want an error that says what to write", sel, legacy, want, err)
			}
			is := `!isQuantity("` + lit + `")`
			if _, _, want, err := evalBoth(t, is, legacy, false, driver, dev); err != nil || !want {
				t.Errorf("%.60s (legacy %v): %v, %v; want true", is, legacy, want, err)
			}
		}
	}
}
