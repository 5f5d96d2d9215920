package driverconfig

import (
	"testing"

	"github.com/drakit/drakit/conversion"
)

// BenchmarkConfigs reads the configs of a v1beta1 template in place, as
// Configs does, and, for comparison, after converting it to the hub, as
// a reader built on conversion.ToHub would:
//
//	go test -run '^$' -bench BenchmarkConfigs -benchmem ./driverconfig/
func BenchmarkConfigs(b *testing.B) {
	obj := decodeJSON(b, templateManifest("v1beta1"))
	b.Run("in place", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if cfgs, err := Configs(obj); err != nil || len(cfgs) != 3 {
				b.Fatal(err, len(cfgs))
			}
		}
	})
	b.Run("through the hub", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			hub, err := conversion.ToHub(obj)
			if err != nil {
				b.Fatal(err)
			}
			if cfgs, _ := Configs(hub); len(cfgs) != 3 {
				b.Fatal(len(cfgs))
			}
		}
	})
}
