package allocator

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/apis/resource"
)

// twoTerms is a slice selector with two terms (zone a OR zone b), which
// the API server would reject.
func twoTerms(s *resource.ResourceSliceSpec) {
	term := func(zone string) corev1.NodeSelectorTerm {
		return corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{zone}}}}
	}
	s.NodeSelector = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{term("a"), term("b")}}
}

// A device from a slice whose node selector has several terms cannot be
// described by the allocation's single-term node selector: upstream's
// createNodeSelector fails ("unsupported ResourceSlice.NodeSelector with 2
// terms"), and so does the claim, with the default features and with every gate off; in
// Joint mode the other claims are not allocated either, in Sequential mode
// the device stays free for the claims after it. A node-local device met
// first settles the selector before the second term is looked at, as
// upstream's walk does.
func TestNodeSelectorWithSeveralTerms(t *testing.T) {
	n1 := node("n1", "zone", "b")
	local := slice("local", drv, "local", onNode("n1"), dev("gpu-local"))
	zoned := slice("zoned", drv, "zoned", twoTerms, dev("gpu-zoned"))
	for _, f := range []struct {
		name     string
		features *Features
	}{{"1.37", nil}, {"gates off", gatesOff}} {
		t.Run(f.name, func(t *testing.T) {
			allocate := func(mode Mode, slices []*resource.ResourceSlice, claims ...*resource.ResourceClaim) []Result {
				t.Helper()
				a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: slices, Node: n1, Mode: mode, Features: f.features})
				if err != nil {
					t.Fatal(err)
				}
				results, err := a.Allocate(context.Background(), claims)
				if err != nil {
					t.Fatal(err)
				}
				return results
			}
			// The node reaches the device (zone b), the search picks it,
			// and the claim fails naming slice, field and term count.
			results := allocate(Joint, []*resource.ResourceSlice{zoned}, claim("c", req("r", "gpu")))
			var ce *ClaimError
			if !asClaimError(results[0].Err, &ce) || ce.Reason != ReasonUnsupported || ce.Request != "r" ||
				!strings.Contains(ce.Detail, `ResourceSlice "zoned": spec.nodeSelector has 2 terms`) || results[0].Allocation != nil {
				t.Fatalf("got %+v, %v; want Unsupported for request r naming the slice's two terms", results[0].Allocation, results[0].Err)
			}
			// Joint: the other claim is not allocated either.
			results = allocate(Joint, []*resource.ResourceSlice{local, zoned}, claim("ok", req("r", "gpu")), claim("c", req("r", "gpu")))
			if !IsReason(results[0].Err, ReasonOtherClaimFailed) || results[0].Allocation != nil || !IsReason(results[1].Err, ReasonUnsupported) {
				t.Errorf("Joint: got %v, %v; want OtherClaimFailed, Unsupported", results[0].Err, results[1].Err)
			}
			// Sequential: the claim fails and gives the device back.
			results = allocate(Sequential, []*resource.ResourceSlice{zoned}, claim("c", req("r", "gpu")), claim("d", req("r", "gpu")))
			if !IsReason(results[0].Err, ReasonUnsupported) || !IsReason(results[1].Err, ReasonUnsupported) {
				t.Errorf("Sequential: got %v, %v; want Unsupported twice (the device was free again for d)", results[0].Err, results[1].Err)
			}
			// A node-local device before it: its node's name is the
			// selector, and the second device's terms are never looked at.
			results = allocate(Joint, []*resource.ResourceSlice{local, zoned}, claim("c", req("r", "gpu", count(2))))
			if results[0].Err != nil {
				t.Fatalf("node-local device first: %v", results[0].Err)
			}
			if ns := results[0].Allocation.NodeSelector; ns == nil || len(ns.NodeSelectorTerms) != 1 || len(ns.NodeSelectorTerms[0].MatchFields) != 1 || ns.NodeSelectorTerms[0].MatchFields[0].Values[0] != "n1" {
				t.Errorf("node selector %+v, want metadata.name in [n1]", ns)
			}
		})
	}
}
