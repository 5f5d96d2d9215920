package validation

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource/v1alpha1"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// TestStrict shows every quirk accepted by default and rejected by Strict.
func TestStrict(t *testing.T) {
	type quirk struct {
		name string
		op   operation
		obj  runtime.Object
		old  runtime.Object
		want []string
	}
	upperAttr := func(s *v1alpha3.ResourceSlice) {
		s.Spec.Devices[0].Basic.Attributes["DRA.example.com/x"] = v1alpha3.DeviceAttribute{IntValue: ptr(int64(1))}
	}
	slashes := func(s *v1alpha3.ResourceSlice) {
		s.Spec.Devices[0].Basic.Attributes["example.com/a/b"] = v1alpha3.DeviceAttribute{IntValue: ptr(int64(1))}
	}
	for _, q := range []quirk{
		{name: "v1alpha1 upper-case driver name", obj: a1Class(func(c *v1alpha1.ResourceClass) { c.DriverName = "GPU.example.com" }),
			want: []string{"Invalid driverName"}},
		{name: "v1alpha1 upper-case status driver name", op: opStatus, old: a1Claim(),
			obj: a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.DriverName = "GPU.example.com" }), want: []string{"Invalid status.driverName"}},
		{name: "v1alpha2 upper-case filter driver", obj: a2ClassParams(func(p *v1alpha2.ResourceClassParameters) { p.Filters[0].DriverName = "Dra.example.com" }),
			want: []string{"Invalid filters[0].driverName"}},
		{name: "v1alpha3 upper-case opaque driver", obj: a3Class(func(c *v1alpha3.DeviceClass) { c.Spec.Config[0].Opaque.Driver = "Dra.example.com" }),
			want: []string{"Invalid spec.config[0].opaque.driver"}},
		{name: "v1alpha3 upper-case attribute domain", obj: a3Slice(upperAttr), want: []string{"Invalid spec.devices[0].basic.attributes"}},
		{name: "v1alpha3 attribute name with two slashes", obj: a3Slice(slashes), want: []string{"Invalid spec.devices[0].basic.attributes"}},
		{name: "v1alpha3 capacity name with two slashes", obj: a3Slice(func(s *v1alpha3.ResourceSlice) {
			s.Spec.Devices[0].Basic.Capacity["a/b/c"] = s.Spec.Devices[0].Basic.Capacity["memory"]
		}), want: []string{"Invalid spec.devices[0].basic.capacity"}},
		{name: "v1alpha3 matchAttribute with two slashes", obj: a3Claim(func(c *v1alpha3.ResourceClaim) {
			a := v1alpha3.FullyQualifiedName("example.com/gpu/numa")
			c.Spec.Devices.Constraints[0].MatchAttribute = &a
		}), want: []string{"Invalid spec.devices.constraints[0].matchAttribute"}},
		{name: "v1alpha3 device allocated twice", op: opStatus, old: a3Claim(), obj: a3Allocated(func(c *v1alpha3.ResourceClaim) {
			r := &c.Status.Allocation.Devices
			r.Results = append(r.Results, r.Results[0])
		}), want: []string{"Duplicate status.allocation.devices.results[2]"}},
		{name: "v1alpha3 scheduling status without claim name", op: opStatus, old: a3Scheduling(), obj: a3Scheduling(func(s *v1alpha3.PodSchedulingContext) {
			s.Status.ResourceClaims = []v1alpha3.ResourceClaimSchedulingStatus{{UnsuitableNodes: []string{"node-1"}}}
		}), want: []string{"Required status.resourceClaims[0].name"}},
		{name: "v1alpha1 selectedNode", obj: a1Scheduling(func(s *v1alpha1.PodScheduling) { s.Spec.SelectedNode = "Node_1" }),
			want: []string{"Invalid spec.selectedNode"}},
		{name: "v1alpha2 selectedNode", obj: a2Scheduling(func(s *v1alpha2.PodSchedulingContext) { s.Spec.SelectedNode = strings.Repeat("n", 254) }),
			want: []string{"Invalid spec.selectedNode"}},
		{name: "v1alpha3 selectedNode", op: opUpdate, old: a3Scheduling(), obj: a3Scheduling(func(s *v1alpha3.PodSchedulingContext) { s.Spec.SelectedNode = "-" }),
			want: []string{"Invalid spec.selectedNode"}},
	} {
		t.Run(q.name, func(t *testing.T) {
			runCases(t, []ruleCase{
				{name: "default accepts", op: q.op, obj: q.obj, old: q.old},
				{name: "strict rejects", op: q.op, obj: q.obj, old: q.old, strict: true, want: q.want},
			})
			errs := validateOp(q.op, q.obj, q.old, Options{Strict: true})
			for _, e := range errs {
				if !strings.Contains(e.Detail, "Options.Strict") {
					t.Errorf("a strict-only error must say so: %v", e)
				}
			}
		})
	}
}

// TestStrictAcceptsValidObjects makes sure Strict rejects nothing else.
func TestStrictAcceptsValidObjects(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "a1 claim", obj: a1Claim(), strict: true},
		{name: "a1 claim status", op: opStatus, old: a1Claim(), obj: a1Allocated(), strict: true},
		{name: "a1 class", obj: a1Class(), strict: true},
		{name: "a1 template", obj: a1Template(), strict: true},
		{name: "a1 scheduling", obj: a1Scheduling(), strict: true},
		{name: "a2 claim status", op: opStatus, old: a2Claim(), obj: a2Allocated(), strict: true},
		{name: "a2 slice", obj: a2Slice(), strict: true},
		{name: "a2 claim parameters", obj: a2ClaimParams(), strict: true},
		{name: "a2 class parameters", obj: a2ClassParams(), strict: true},
		{name: "a3 claim", obj: a3Claim(), strict: true},
		{name: "a3 claim status", op: opStatus, old: a3Claim(), obj: a3Allocated(), strict: true},
		{name: "a3 class", obj: a3Class(), strict: true},
		{name: "a3 template", obj: a3Template(), strict: true},
		{name: "a3 scheduling", obj: a3Scheduling(), strict: true},
		{name: "a3 slice", obj: a3Slice(), strict: true},
	})
}
