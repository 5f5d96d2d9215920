package cel

import (
	"context"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"
)

// TestSkipCostEstimate shows that SkipCostEstimate leaves out the estimate
// of a stored expression only: the program still evaluates, and a new
// expression is estimated (and refused when too complex) whatever it says.
func TestSkipCostEstimate(t *testing.T) {
	const expr = `device.attributes["gpu.example.com"].model.startsWith("h")`
	estimated, err := CompileSelector137(expr, Options137{Stored: true})
	if err != nil {
		t.Fatal(err)
	}
	if estimated.MaxCost() == 0 {
		t.Fatalf("stored, estimated: MaxCost 0")
	}
	skipped, err := CompileSelector137(expr, Options137{Stored: true, SkipCostEstimate: true})
	if err != nil {
		t.Fatal(err)
	}
	if skipped.MaxCost() != 0 {
		t.Errorf("stored, SkipCostEstimate: MaxCost %d, want 0", skipped.MaxCost())
	}
	model := "h100"
	in := NewInput137(Device137{Driver: "gpu.example.com", Attributes: map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{"model": {StringValue: &model}}})
	if ok, err := skipped.Matches(context.Background(), in); err != nil || !ok {
		t.Errorf("stored, SkipCostEstimate: Matches %t, %v; want true", ok, err)
	}
	fresh, err := CompileSelector137(expr, Options137{SkipCostEstimate: true})
	if err != nil {
		t.Fatal(err)
	}
	if fresh.MaxCost() != estimated.MaxCost() {
		t.Errorf("new, SkipCostEstimate: MaxCost %d, want %d", fresh.MaxCost(), estimated.MaxCost())
	}
}
