package validation

import (
	"testing"

	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// BenchmarkValidateClaim measures a create of a typical claim, including
// compiling its CEL selectors.
func BenchmarkValidateClaim(b *testing.B) {
	claim := a3Claim()
	b.ReportAllocs()
	for b.Loop() {
		if errs := ValidateObject(claim, Options{}); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// BenchmarkValidateSlice measures a create of a full ResourceSlice (128
// devices with 32 attributes and capacities each).
func BenchmarkValidateSlice(b *testing.B) {
	slice := a3Slice(func(s *v1alpha3.ResourceSlice) {
		s.Spec.Devices = nil
		for i := 0; i < V1alpha3SliceMaxDevices; i++ {
			d := v1alpha3.Device{Name: nodeName(i), Basic: &v1alpha3.BasicDevice{Attributes: map[v1alpha3.QualifiedName]v1alpha3.DeviceAttribute{}}}
			for j := 0; j < V1alpha3MaxAttributesAndCapacities; j++ {
				d.Basic.Attributes[v1alpha3.QualifiedName("dra.example.com/attr"+nodeName(j)[5:])] = v1alpha3.DeviceAttribute{StringValue: ptr("value")}
			}
			s.Spec.Devices = append(s.Spec.Devices, d)
		}
	})
	b.ReportAllocs()
	for b.Loop() {
		if errs := ValidateObject(slice, Options{}); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
