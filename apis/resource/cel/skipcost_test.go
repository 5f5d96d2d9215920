package cel

import (
	"context"
	"testing"

	hub "github.com/drakit/drakit/apis/resource"
)

// TestSkipCostEstimate shows that SkipCostEstimate leaves out the estimate
// of a stored expression only: the program still evaluates, and a new
// expression is estimated (and refused when too complex) whatever it says.
func TestSkipCostEstimate(t *testing.T) {
	const expr = `device.attributes["gpu.example.com"].model.startsWith("h")`
	estimated, err := Compile(expr, Options{Stored: true})
	if err != nil {
		t.Fatal(err)
	}
	if estimated.MaxCost() == 0 {
		t.Fatalf("stored, estimated: MaxCost 0")
	}
	skipped, err := Compile(expr, Options{Stored: true, SkipCostEstimate: true})
	if err != nil {
		t.Fatal(err)
	}
	if skipped.MaxCost() != 0 {
		t.Errorf("stored, SkipCostEstimate: MaxCost %d, want 0", skipped.MaxCost())
	}
	model := "h100"
	in := NewInput("gpu.example.com", &hub.Device{Attributes: map[hub.QualifiedName]hub.DeviceAttribute{"model": {StringValue: &model}}})
	if ok, err := skipped.Matches(context.Background(), in); err != nil || !ok {
		t.Errorf("stored, SkipCostEstimate: Matches %t, %v; want true", ok, err)
	}
	fresh, err := Compile(expr, Options{SkipCostEstimate: true})
	if err != nil {
		t.Fatal(err)
	}
	if fresh.MaxCost() != estimated.MaxCost() {
		t.Errorf("new, SkipCostEstimate: MaxCost %d, want %d", fresh.MaxCost(), estimated.MaxCost())
	}
}
