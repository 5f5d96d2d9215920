package allocator

import (
	"testing"

	"github.com/drakit/drakit/apis/resource"
)

// TestDerivedAttributes: with DerivedAttributes, a request's derived
// attribute gives the value that constraints compare for its devices, in
// place of the device's attribute of that name, as upstream's experimental
// allocator does; it is evaluated only where a constraint needs it, and
// an expression that fails or does not compile fails the claim.
func TestDerivedAttributes(t *testing.T) {
	n1 := node("n1")
	derivedOn := withFeatures(func(f *Features) { f.DerivedAttributes = true })
	listsToo := withFeatures(func(f *Features) { f.DerivedAttributes, f.ListTypeAttributes = true, true })
	gpuSlice := func(n int) []*resource.ResourceSlice {
		return []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), gpus(n, numaZero)...)}
	}
	deriving := func(name string, n int64, attrs ...string) resource.DeviceRequest {
		return exact(name, "gpu", func(r *resource.ExactDeviceRequest) {
			r.Count = n
			for i := 0; i+1 < len(attrs); i += 2 {
				r.DerivedAttributes = append(r.DerivedAttributes, resource.DeviceDerivedAttribute{Name: resource.FullyQualifiedName(attrs[i]), Expression: attrs[i+1]})
			}
		})
	}
	const index = `device.attributes["gpu.example.com"].index`
	cases := []semanticsCase{
		{
			name:   "matchAttribute on a derived attribute",
			slices: gpuSlice(8),
			claims: []*resource.ResourceClaim{withConstraint(claim("c", deriving("r", 2, "derived/mod3", index+" % 3")), "derived/mod3")},
			want:   []want{{devices: []string{"r=gpu.example.com/n1/gpu0", "r=gpu.example.com/n1/gpu3"}}},
		},
		{
			name:   "a derived attribute hides the device's attribute of that name",
			slices: gpuSlice(4),
			claims: []*resource.ResourceClaim{withConstraint(claim("c", deriving("r", 2, "gpu.example.com/numa", index+" % 2")), "gpu.example.com/numa")},
			want:   []want{{devices: []string{"r=gpu.example.com/n1/gpu0", "r=gpu.example.com/n1/gpu2"}}},
		},
		{
			name:   "distinctAttribute on a derived attribute",
			slices: gpuSlice(6),
			claims: []*resource.ResourceClaim{distinct(claim("c", deriving("r", 3, "derived/pair", index+" / 2")), "derived/pair")},
			want:   []want{{devices: []string{"r=gpu.example.com/n1/gpu0", "r=gpu.example.com/n1/gpu2", "r=gpu.example.com/n1/gpu4"}}},
		},
		{
			name:   "a request that does not derive the attribute lacks it",
			slices: gpuSlice(4),
			claims: []*resource.ResourceClaim{withConstraint(claim("c", deriving("a", 1, "derived/x", "1"), req("b", "gpu")), "derived/x")},
			want:   []want{{reason: ReasonConstraintUnsatisfiable, request: "b"}},
		},
		{
			name:   "two requests derive the attribute each their own way",
			slices: gpuSlice(6),
			claims: []*resource.ResourceClaim{withConstraint(claim("c", deriving("a", 1, "derived/x", index+" + 3"), deriving("b", 1, "derived/x", index)), "derived/x")},
			want:   []want{{devices: []string{"a=gpu.example.com/n1/gpu0", "b=gpu.example.com/n1/gpu3"}}},
		},
		{
			name:     "a derived list compares as a set with ListTypeAttributes",
			features: listsToo,
			slices:   gpuSlice(4),
			claims:   []*resource.ResourceClaim{distinct(claim("c", deriving("r", 2, "derived/span", "[0, 1].map(i, "+index+" + i)")), "derived/span")},
			want:     []want{{devices: []string{"r=gpu.example.com/n1/gpu0", "r=gpu.example.com/n1/gpu2"}}},
		},
		{
			name:   "an alternative's derived attribute, under a constraint naming the request",
			slices: gpuSlice(8),
			claims: []*resource.ResourceClaim{withConstraint(claim("c", firstAvailable("r", func() resource.DeviceSubRequest {
				s := sub("a", "gpu", 2)
				s.DerivedAttributes = []resource.DeviceDerivedAttribute{{Name: "derived/mod4", Expression: index + " % 4"}}
				return s
			}())), "derived/mod4")},
			want: []want{{devices: []string{"r/a=gpu.example.com/n1/gpu0", "r/a=gpu.example.com/n1/gpu4"}}},
		},
		{
			name:   "an expression that fails on a device fails the claim",
			slices: gpuSlice(2),
			claims: []*resource.ResourceClaim{withConstraint(claim("c", deriving("r", 2, "derived/x", `device.attributes["gpu.example.com"].missing`)), "derived/x")},
			want:   []want{{reason: ReasonCELRuntimeError, request: "r", contains: `spec.devices.requests[0].exactly.derivedAttributes[0] (derived/x): expression "device.attributes[\"gpu.example.com\"].missing" failed on device gpu.example.com/n1/gpu0`}},
		},
		{
			name:   "an expression that does not compile fails the claim",
			slices: gpuSlice(2),
			claims: []*resource.ResourceClaim{withConstraint(claim("c", deriving("r", 1, "derived/x", "1 +")), "derived/x")},
			want:   []want{{reason: ReasonInvalidSelector, request: "r", contains: "derivedAttributes[0] (derived/x): expression \"1 +\" does not compile"}},
		},
		{
			// Upstream's cache compiles derived attributes as stored
			// expressions, which may yield lists whatever the gates, so
			// that turning DRAListTypeAttributes off does not break claims
			// written while it was on. Without the feature the list then
			// matches no other device's value: one device can be alone
			// under matchAttribute, two cannot.
			name:   "a derived list compiles without ListTypeAttributes",
			slices: gpuSlice(2),
			claims: []*resource.ResourceClaim{withConstraint(claim("c", deriving("r", 1, "derived/span", "[0, 1].map(i, "+index+" + i)")), "derived/span")},
			want:   []want{{devices: []string{"r=gpu.example.com/n1/gpu0"}}},
		},
		{
			name:   "without ListTypeAttributes a derived list matches no other device's",
			slices: gpuSlice(2),
			claims: []*resource.ResourceClaim{withConstraint(claim("c", deriving("r", 2, "derived/span", "[0, 1].map(i, "+index+" + i)")), "derived/span")},
			want:   []want{{reason: ReasonConstraintUnsatisfiable, request: "r"}},
		},
		{
			name:   "a derived attribute no constraint compares is not evaluated",
			slices: gpuSlice(2),
			claims: []*resource.ResourceClaim{withConstraint(claim("c", deriving("r", 2, "derived/x", `device.attributes["gpu.example.com"].missing`)), "gpu.example.com/numa")},
			want:   []want{{devices: []string{"r=gpu.example.com/n1/gpu0", "r=gpu.example.com/n1/gpu1"}}},
		},
	}
	for _, c := range cases {
		if c.features == nil {
			c.features = derivedOn
		}
		c.classes = []*resource.DeviceClass{gpuClass}
		t.Run(c.name, func(t *testing.T) { runSemantics(t, c, n1) })
	}
}
