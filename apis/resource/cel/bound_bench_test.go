package cel

import (
	"context"
	"strings"
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	hub "github.com/drakit/drakit/apis/resource"
)

// BenchmarkMaximalQuantitySelector evaluates selectors that compare
// quantities at the edge of quantityguard's bound until the runtime cost
// limit stops them (the worst one evaluation of a stored selector, which
// no length limit applies to, can do), and the longest new 1.37 selector
// of such comparisons (SelectorMaxLength bytes). Each op is one
// evaluation on one device.
func BenchmarkMaximalQuantitySelector(b *testing.B) {
	for _, bound := range []struct{ name, largest string }{
		{"at-bound", strings.Repeat("9", 1000) + "e1000"},
		// For comparison: the same work with everyday quantities.
		{"everyday", "40Gi"},
	} {
		b.Run(bound.name, func(b *testing.B) { benchmarkMaximalQuantitySelector(b, bound.largest) })
	}
}

func benchmarkMaximalQuantitySelector(b *testing.B, largest string) {
	dev := &hub.Device{Name: "d", Capacity: map[hub.QualifiedName]hub.DeviceCapacity{
		"memory": {Value: apiresource.MustParse(largest)},
		"small":  {Value: apiresource.MustParse("1n")},
	}}
	ints := make([]string, 1000)
	for i := range ints {
		ints[i] = "0"
	}
	list := "[" + strings.Join(ints, ",") + "]"
	compare := `device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("` + largest + `"))`
	var long []string
	for len(strings.Join(append(long, compare), " || ")) <= SelectorMaxLength {
		long = append(long, compare)
	}
	for _, tc := range []struct {
		name, expr string
		stored     bool
	}{
		{"stored-until-cost-limit", `cel.bind(q, quantity("` + largest + `"), cel.bind(l, ` + list + `, l.all(i, l.all(j, !device.capacity["gpu.example.com"].memory.isLessThan(q) && device.capacity["gpu.example.com"].small.isLessThan(q)))))`, true},
		{"stored-parse-until-cost-limit", `cel.bind(l, ` + list + `, l.all(i, l.all(j, !device.capacity["gpu.example.com"].memory.isLessThan(quantity("` + largest + `")))))`, true},
		{"new-longest", strings.Join(long, " || "), false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			p, err := Compile(tc.expr, Options{Stored: tc.stored, SkipCostEstimate: tc.stored})
			if err != nil {
				b.Fatal(err)
			}
			in := NewInput("gpu.example.com", dev)
			for b.Loop() {
				_, err := p.Matches(context.Background(), in)
				if tc.stored && (err == nil || !strings.Contains(err.Error(), "cost limit")) {
					b.Fatalf("want the cost limit, got %v", err)
				}
			}
		})
	}
}
