package allocator

import (
	"fmt"

	"testing"

	"github.com/drakit/drakit/apis/resource"
)

// TestListConstraints: with ListTypeAttributes, constraints compare
// values as sets (single values are sets of one), as upstream's
// experimental allocator does: matchAttribute needs one element that every
// device has, distinctAttribute pairwise disjoint sets; devices are tried
// in order, so the first devices that fit win.
func TestListConstraints(t *testing.T) {
	n1 := node("n1")
	lists := withFeatures(func(f *Features) { f.ListTypeAttributes = true })
	const links = "gpu.example.com/links"
	devs := func(values ...any) *resource.ResourceSlice {
		var ds []resource.Device
		for i, v := range values {
			ds = append(ds, dev(fmt.Sprintf("gpu%d", i), attr("links", v)))
		}
		return slice("s", drv, "n1", onNode("n1"), ds...)
	}
	match := func(n int64) *resource.ResourceClaim {
		return withConstraint(claim("c", req("r", "gpu", count(n))), links)
	}
	unlike := func(n int64) *resource.ResourceClaim {
		return distinct(claim("c", req("r", "gpu", count(n))), links)
	}
	got := func(devices ...int) []string {
		var out []string
		for _, d := range devices {
			out = append(out, fmt.Sprintf("r=gpu.example.com/n1/gpu%d", d))
		}
		return out
	}
	cases := []semanticsCase{
		{
			name:   "match: lists that share an element",
			slices: []*resource.ResourceSlice{devs([]int64{1, 2}, []int64{3}, []int64{2, 3})},
			claims: []*resource.ResourceClaim{match(2)},
			want:   []want{{devices: got(0, 2)}},
		},
		{
			name:   "match: the element must be common to all, not to each pair",
			slices: []*resource.ResourceSlice{devs([]int64{1, 2}, []int64{1, 3}, []int64{2, 3}, []int64{1})},
			claims: []*resource.ResourceClaim{match(3)},
			want:   []want{{devices: got(0, 1, 3)}},
		},
		{
			name:   "match: pairwise overlap without a common element fails",
			slices: []*resource.ResourceSlice{devs([]int64{1, 2}, []int64{2, 3}, []int64{1, 3})},
			claims: []*resource.ResourceClaim{match(3)},
			want:   []want{{reason: ReasonConstraintUnsatisfiable, request: "r"}},
		},
		{
			name:   "match: a single value is a set of one",
			slices: []*resource.ResourceSlice{devs(2, []int64{1, 3}, []int64{5, 2})},
			claims: []*resource.ResourceClaim{match(2)},
			want:   []want{{devices: got(0, 2)}},
		},
		{
			name:   "match: elements of different types are never equal",
			slices: []*resource.ResourceSlice{devs([]string{"1"}, []int64{1}, "2")},
			claims: []*resource.ResourceClaim{match(2)},
			want:   []want{{reason: ReasonConstraintUnsatisfiable, request: "r"}},
		},
		{
			name:   "distinct: sets must not overlap",
			slices: []*resource.ResourceSlice{devs([]int64{1, 2}, []int64{2, 3}, []int64{3, 4}, []int64{5})},
			claims: []*resource.ResourceClaim{unlike(3)},
			want:   []want{{devices: got(0, 2, 3)}},
		},
		{
			name:   "distinct: a single value inside another device's list",
			slices: []*resource.ResourceSlice{devs(1, []int64{1, 2}, []int64{3})},
			claims: []*resource.ResourceClaim{unlike(2)},
			want:   []want{{devices: got(0, 2)}},
		},
		{
			name:   "distinct: not enough disjoint sets",
			slices: []*resource.ResourceSlice{devs([]string{"a", "b"}, []string{"b", "c"}, []string{"c", "a"})},
			claims: []*resource.ResourceClaim{unlike(2)},
			want:   []want{{reason: ReasonConstraintUnsatisfiable, request: "r"}},
		},
		{
			name:   "distinct: values of different types never collide",
			slices: []*resource.ResourceSlice{devs([]string{"1"}, []int64{1})},
			claims: []*resource.ResourceClaim{unlike(2)},
			want:   []want{{devices: got(0, 1)}},
		},
		{
			name:   "a constraint over two requests narrows across them",
			slices: []*resource.ResourceSlice{devs([]int64{1, 2}, []int64{3}, []int64{2, 4}, []int64{1, 4}, []int64{2})},
			claims: []*resource.ResourceClaim{withConstraint(claim("c", req("a", "gpu", count(2)), req("b", "gpu")), links)},
			want:   []want{{devices: []string{"a=gpu.example.com/n1/gpu0", "a=gpu.example.com/n1/gpu2", "b=gpu.example.com/n1/gpu4"}}},
		},
		{
			name:   "an All request agrees on a common element",
			slices: []*resource.ResourceSlice{devs([]int64{1, 2}, []int64{2, 3}, 2)},
			claims: []*resource.ResourceClaim{withConstraint(claim("c", req("r", "gpu", all())), links)},
			want:   []want{{devices: got(0, 1, 2)}},
		},
	}
	for _, c := range cases {
		c.features = lists
		c.classes = []*resource.DeviceClass{gpuClass}
		t.Run(c.name, func(t *testing.T) { runSemantics(t, c, n1) })
	}
}
