package poolstatus

import (
	"context"
	"testing"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/fuzzer"
)

// TestRandomObjectsNeverPanic: Compute and Lint take any hub objects,
// filled at random (nil lists and pointers, quantities of every size,
// names that repeat), without panicking, and give every pool its slices'
// devices.
func TestRandomObjectsNeverPanic(t *testing.T) {
	var devices, usable, findings int
	for seed := range fuzzer.Iterations(300, 40) {
		f := fuzzer.New(int64(seed))
		var slices []*resource.ResourceSlice
		var claims []*resource.ResourceClaim
		var rules []*resource.DeviceTaintRule
		var classes []*resource.DeviceClass
		f.Fill(&slices)
		f.Fill(&claims)
		f.Fill(&rules)
		f.Fill(&classes)
		// Some pools shared by several slices, so that generations and
		// counts meet.
		for i, s := range slices {
			if s != nil && i%2 == 1 && slices[i-1] != nil {
				s.Spec.Driver, s.Spec.Pool.Name = slices[i-1].Spec.Driver, slices[i-1].Spec.Pool.Name
			}
		}
		r := Compute(Input{Slices: slices, Claims: claims, TaintRules: rules})
		for _, p := range r.Pools {
			if p.Usable() {
				usable++
			}
			devices += len(p.DeviceList)
			if p.Usable() && int(p.Devices.Total) != len(p.DeviceList) {
				t.Errorf("seed %d: pool %s/%s: %d devices counted of %d", seed, p.Driver, p.Name, p.Devices.Total, len(p.DeviceList))
			}
			if c := p.Devices; c.InUse+c.Tainted+c.NoCounters+c.Free != c.Total {
				t.Errorf("seed %d: pool %s/%s: states do not add up: %+v", seed, p.Driver, p.Name, c)
			}
		}
		findings += len(Lint(context.Background(), LintInput{Slices: slices, Classes: classes}).Findings)
	}
	if devices == 0 || usable == 0 || findings == 0 {
		t.Errorf("the random objects reach too little: %d devices, %d usable pools, %d findings", devices, usable, findings)
	}
	t.Logf("%d devices, %d usable pools, %d findings", devices, usable, findings)
}
