package allocator

import (
	"testing"

	"github.com/drakit/drakit/apis/resource"
)

// TestCompatibilityGroups: with CompatibilityGroups, the devices on one
// counter set (allocated before or in the call) must share a group, and a
// device that names none goes only with others that name none, as
// upstream's experimental allocator has it.
func TestCompatibilityGroups(t *testing.T) {
	n1 := node("n1")
	on := withFeatures(func(f *Features) { f.CompatibilityGroups = true })
	// parts are devices of pool "p" that consume 1Gi of "mem" each and
	// name the groups given (none for nil).
	parts := func(groups ...[]string) *resource.ResourceSlice {
		amounts := make([]string, len(groups))
		for i := range amounts {
			amounts[i] = "1Gi"
		}
		s := partitions("parts", amounts...)
		for i, g := range groups {
			s.Spec.Devices[i].ConsumesCounters[0].CompatibilityGroups = g
		}
		return s
	}
	g := func(names ...string) []string { return names }
	got := func(devices ...string) []string {
		var out []string
		for _, d := range devices {
			out = append(out, "r=gpu.example.com/p/"+d)
		}
		return out
	}
	inUse := func(device string) []*resource.ResourceClaim {
		return []*resource.ResourceClaim{allocated("old", "gpu.example.com/p/"+device)}
	}
	cases := []semanticsCase{
		{
			name:   "devices that share a group",
			slices: []*resource.ResourceSlice{counterSlice("counters", "8Gi"), parts(g("a"), g("b"), g("b", "a"))},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(2)))},
			want:   []want{{devices: got("part0", "part2")}},
		},
		{
			name:   "the groups all of them share narrow as devices join",
			slices: []*resource.ResourceSlice{counterSlice("counters", "8Gi"), parts(g("a", "b"), g("b", "c"), g("a", "c"), g("b"))},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(3)))},
			want:   []want{{devices: got("part0", "part1", "part3")}},
		},
		{
			name:   "pairwise sharing without a common group is not enough",
			slices: []*resource.ResourceSlice{counterSlice("counters", "8Gi"), parts(g("a", "b"), g("b", "c"), g("a", "c"))},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(3)))},
			want: []want{{reason: ReasonNotEnough, request: "r",
				contains: `not enough free devices: asks for 3, 3 match and are not taken by other claims; the compatibility groups of counter set "mem" of pool gpu.example.com/p keep the devices needed out`}},
		},
		{
			// The groups would admit all three; the counters do not.
			name: "counters, not groups, keep a device out: the message says so",
			slices: []*resource.ResourceSlice{counterSlice("counters", "8Gi"), func() *resource.ResourceSlice {
				s := partitions("parts", "4Gi", "4Gi", "4Gi")
				for i := range s.Spec.Devices {
					s.Spec.Devices[i].ConsumesCounters[0].CompatibilityGroups = g("a")
				}
				return s
			}()},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(3)))},
			want: []want{{reason: ReasonNotEnough, request: "r",
				contains: "not enough free devices: asks for 3, 3 match and are not taken by other claims (the counters of their pools allow no more)"}},
		},
		{
			name:   "groups keep the second request from joining the first",
			slices: []*resource.ResourceSlice{counterSlice("counters", "8Gi"), parts(g("a"), g("b"))},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu"), req("r2", "gpu"))},
			want: []want{{reason: ReasonNotEnough, request: "r2",
				contains: `together with request r of the claim, which competes for the same devices; the compatibility groups of counter set "mem" of pool gpu.example.com/p keep`}},
		},
		{
			name:   "devices without groups go only with each other",
			slices: []*resource.ResourceSlice{counterSlice("counters", "8Gi"), parts(nil, g("a"), nil)},
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu", count(2)))},
			want:   []want{{devices: got("part0", "part2")}},
		},
		{
			name:   "a device allocated before the call counts",
			slices: []*resource.ResourceSlice{counterSlice("counters", "8Gi"), parts(g("a"), g("b"), g("b"))},
			inUse:  inUse("part1"),
			claims: []*resource.ResourceClaim{claim("c", req("r", "gpu"))},
			want:   []want{{devices: got("part2")}},
		},
		{
			name:   "claims of one call count for each other",
			slices: []*resource.ResourceSlice{counterSlice("counters", "8Gi"), parts(g("a"), g("b"), g("a"))},
			claims: []*resource.ResourceClaim{claim("c1", req("r", "gpu")), claim("c2", req("r", "gpu"))},
			want:   []want{{devices: []string{"r=gpu.example.com/p/part0"}}, {devices: []string{"r=gpu.example.com/p/part2"}}},
		},
	}
	for _, c := range cases {
		c.features = on
		c.classes = []*resource.DeviceClass{gpuClass}
		t.Run(c.name, func(t *testing.T) { runSemantics(t, c, n1) })
	}
}
