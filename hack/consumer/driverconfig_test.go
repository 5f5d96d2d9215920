package consumer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/dynamic-resource-allocation/resourceclaim"

	"github.com/drakit/drakit/driverconfig"
)

// TestAllocatedConfigsAgreesWithUpstream: on random allocations, the
// configs driverconfig.AllocatedConfigs applies to each device of a
// driver are those k8s.io/dynamic-resource-allocation's
// resourceclaim.ConfigForResult gives for it, of that driver, the class's
// before the claim's, in the allocation's order.
func TestAllocatedConfigsAgreesWithUpstream(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	refs := []string{"a", "b", "c", "a/x", "a/y", "b/x", "c/z"}
	drivers := []string{"gpu.example.com", "nic.example.com"}
	for run := 0; run < 2000; run++ {
		claim := &resourcev1.ResourceClaim{Status: resourcev1.ResourceClaimStatus{Allocation: &resourcev1.AllocationResult{}}}
		devices := &claim.Status.Allocation.Devices
		for i, n := 0, 1+rng.IntN(5); i < n; i++ {
			devices.Results = append(devices.Results, resourcev1.DeviceRequestAllocationResult{
				Request: refs[rng.IntN(len(refs))], Driver: drivers[rng.IntN(2)], Pool: "p", Device: fmt.Sprintf("d-%d", i),
			})
		}
		for i, n := 0, rng.IntN(6); i < n; i++ {
			source := resourcev1.AllocationConfigSourceClaim
			if rng.IntN(2) == 0 {
				source = resourcev1.AllocationConfigSourceClass
			}
			var requests []string
			for j, m := 0, rng.IntN(3); j < m; j++ {
				requests = append(requests, refs[rng.IntN(len(refs))])
			}
			devices.Config = append(devices.Config, resourcev1.DeviceAllocationConfiguration{
				Source: source, Requests: requests,
				DeviceConfiguration: resourcev1.DeviceConfiguration{Opaque: &resourcev1.OpaqueDeviceConfiguration{
					Driver: drivers[rng.IntN(2)], Parameters: runtime.RawExtension{Raw: fmt.Appendf(nil, `{"index": %d}`, i)},
				}},
			})
		}
		got, _, err := driverconfig.AllocatedConfigs(claim, drivers[0])
		if err != nil {
			t.Fatal(err)
		}
		var want [][]string
		for _, r := range devices.Results {
			if r.Driver != drivers[0] {
				continue
			}
			var class, fromClaim []string
			for _, c := range resourceclaim.ConfigForResult(devices.Config, r) {
				if c.Opaque.Driver != drivers[0] {
					continue
				}
				if c.Source == resourcev1.AllocationConfigSourceClass {
					class = append(class, string(c.Opaque.Parameters.Raw))
				} else {
					fromClaim = append(fromClaim, string(c.Opaque.Parameters.Raw))
				}
			}
			want = append(want, append(class, fromClaim...))
		}
		var have [][]string
		for _, d := range got {
			var params []string
			for _, c := range d.Configs {
				params = append(params, string(c.Parameters.Raw))
			}
			have = append(have, params)
		}
		if !slices.EqualFunc(want, have, slices.Equal) {
			t.Fatalf("run %d: upstream %q, driverconfig %q\nallocation: %+v", run, want, have, devices)
		}
	}
}
