package validation

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/api/resource/v1alpha3"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// storedPoolStatusRequest is a valid ResourcePoolStatusRequest as stored, without status.
func storedPoolStatusRequest() *v1alpha3.ResourcePoolStatusRequest {
	return &v1alpha3.ResourcePoolStatusRequest{
		ObjectMeta: metav1.ObjectMeta{Name: "r", ResourceVersion: "1"},
		Spec:       v1alpha3.ResourcePoolStatusRequestSpec{Driver: "gpu.example.com", PoolName: ptr("node-1"), Limit: ptr(int32(10))},
	}
}

// poolStatusRequestWithStatus is storedPoolStatusRequest with a full valid status, changed by f.
func poolStatusRequestWithStatus(f func(st *v1alpha3.ResourcePoolStatusRequestStatus)) *v1alpha3.ResourcePoolStatusRequest {
	r := storedPoolStatusRequest()
	qty := func(s string) *apiresource.Quantity { q := apiresource.MustParse(s); return &q }
	r.Status = &v1alpha3.ResourcePoolStatusRequestStatus{
		PoolCount: ptr(int32(1)),
		Pools: []v1alpha3.PoolStatus{{
			Driver: "gpu.example.com", PoolName: "node-1", Generation: 1,
			ResourceSliceCount: ptr(int32(1)), TotalDevices: ptr(int32(4)), AllocatedDevices: ptr(int32(1)),
			AvailableDevices: ptr(int32(3)), UnavailableDevices: ptr(int32(0)), NodeName: ptr("node-1"),
			ValidationError: ptr(strings.Repeat("e", PoolStatusValidationErrorMaxBytes)),
			PartitionSummary: []v1alpha3.PartitionTypeStatus{
				{Attribute: "gpu.example.com/profile", Type: "1g", Total: ptr(int32(7)), Allocatable: ptr(int32(0))},
				{Attribute: "gpu.example.com/profile", Type: "2g", Total: ptr(int32(3)), Allocatable: ptr(int32(3))},
			},
			ShareableSummary: &v1alpha3.ShareableSummaryStatus{
				FullyAvailableDevices: ptr(int32(2)), PartiallyAvailableDevices: ptr(int32(0)),
				Capacity: []v1alpha3.ShareableCapacityStatus{{Name: "memory", Total: qty("80Gi"), Consumed: qty("0"), Available: qty("80Gi")}},
			},
		}},
		Conditions: []metav1.Condition{{Type: "Complete", Status: metav1.ConditionTrue, Reason: "Done", LastTransitionTime: deletedAt}},
	}
	if f != nil {
		f(r.Status)
	}
	return r
}

// TestResourcePoolStatusRequestStatus: the declared rules of a first
// status (ga-facts 7.1 and 7.7), each with the value at its limit passing
// and one beyond it refused. It is a table of cases, longer than 80 lines
// for that reason: each case reads on its own.
func TestResourcePoolStatusRequestStatus(t *testing.T) {
	pool := func(f func(p *v1alpha3.PoolStatus)) *v1alpha3.ResourcePoolStatusRequest {
		return poolStatusRequestWithStatus(func(st *v1alpha3.ResourcePoolStatusRequestStatus) { f(&st.Pools[0]) })
	}
	const p0 = "status.pools[0]"
	pools := func(n int) *v1alpha3.ResourcePoolStatusRequest {
		return poolStatusRequestWithStatus(func(st *v1alpha3.ResourcePoolStatusRequestStatus) {
			for i := 1; i < n; i++ {
				p := st.Pools[0]
				p.PoolName = fmt.Sprintf("node-%d", i+1)
				st.Pools = append(st.Pools, p)
			}
		})
	}
	conditions := func(n int) *v1alpha3.ResourcePoolStatusRequest {
		return poolStatusRequestWithStatus(func(st *v1alpha3.ResourcePoolStatusRequestStatus) {
			for i := 1; i < n; i++ {
				c := st.Conditions[0]
				c.Type = fmt.Sprintf("Type%d", i)
				st.Conditions = append(st.Conditions, c)
			}
		})
	}
	summary := func(n int) *v1alpha3.ResourcePoolStatusRequest {
		return pool(func(p *v1alpha3.PoolStatus) {
			for i := len(p.PartitionSummary); i < n; i++ {
				s := p.PartitionSummary[0]
				s.Type = fmt.Sprintf("t%d", i)
				p.PartitionSummary = append(p.PartitionSummary, s)
			}
		})
	}
	capacities := func(n int) *v1alpha3.ResourcePoolStatusRequest {
		return pool(func(p *v1alpha3.PoolStatus) {
			c := &p.ShareableSummary.Capacity
			for i := len(*c); i < n; i++ {
				x := (*c)[0]
				x.Name = fmt.Sprintf("c%d", i)
				*c = append(*c, x)
			}
		})
	}
	status := func(name string, obj *v1alpha3.ResourcePoolStatusRequest, want ...string) ruleCase {
		return ruleCase{name: name, op: opStatus, obj: obj, old: storedPoolStatusRequest(), want: want}
	}
	runCases(t, []ruleCase{
		status("valid", poolStatusRequestWithStatus(nil)),
		status("minimal", poolStatusRequestWithStatus(func(st *v1alpha3.ResourcePoolStatusRequestStatus) { st.Pools, st.Conditions = nil, nil })),
		status("poolCount required", poolStatusRequestWithStatus(func(st *v1alpha3.ResourcePoolStatusRequestStatus) { st.PoolCount = nil }), "Required status.poolCount"),
		status("poolCount negative", poolStatusRequestWithStatus(func(st *v1alpha3.ResourcePoolStatusRequestStatus) { st.PoolCount = ptr(int32(-1)) }), "Invalid status.poolCount"),
		status("pools at the limit", pools(ResourcePoolStatusRequestMaxPools)),
		status("too many pools: entries not checked", func() *v1alpha3.ResourcePoolStatusRequest {
			r := pools(ResourcePoolStatusRequestMaxPools + 1)
			r.Status.Pools[0].Driver = ""
			return r
		}(), "TooMany status.pools"),
		status("conditions at the limit", conditions(ResourcePoolStatusRequestMaxConditions)),
		status("too many conditions", conditions(ResourcePoolStatusRequestMaxConditions+1), "TooMany status.conditions"),
		status("condition content (metav1)", poolStatusRequestWithStatus(func(st *v1alpha3.ResourcePoolStatusRequestStatus) { st.Conditions[0].Reason = "not a reason" }),
			"Invalid status.conditions[0].reason"),
		status("driver required", pool(func(p *v1alpha3.PoolStatus) { p.Driver = "" }), "Required "+p0+".driver"),
		status("driver format", pool(func(p *v1alpha3.PoolStatus) { p.Driver = "gpu_example" }), "Invalid "+p0+".driver"),
		status("upper-case driver passes (caseless)", pool(func(p *v1alpha3.PoolStatus) { p.Driver = "GPU.example.com" })),
		status("pool name required", pool(func(p *v1alpha3.PoolStatus) { p.PoolName = "" }), "Required "+p0+".poolName"),
		status("pool name format", pool(func(p *v1alpha3.PoolStatus) { p.PoolName = "Node_1" }), "Invalid "+p0+".poolName"),
		status("generation 0 is refused as missing", pool(func(p *v1alpha3.PoolStatus) { p.Generation = 0 }), "Required "+p0+".generation"),
		status("generation negative", pool(func(p *v1alpha3.PoolStatus) { p.Generation = -1 }), "Invalid "+p0+".generation"),
		status("resourceSliceCount at least 1", pool(func(p *v1alpha3.PoolStatus) { p.ResourceSliceCount = ptr(int32(0)) }), "Invalid "+p0+".resourceSliceCount"),
		status("optional counts may be missing", pool(func(p *v1alpha3.PoolStatus) {
			p.ResourceSliceCount, p.TotalDevices, p.AllocatedDevices, p.AvailableDevices, p.UnavailableDevices = nil, nil, nil, nil, nil
		})),
		status("device counts not negative", pool(func(p *v1alpha3.PoolStatus) {
			p.TotalDevices, p.AllocatedDevices, p.AvailableDevices, p.UnavailableDevices = ptr(int32(-1)), ptr(int32(-1)), ptr(int32(-1)), ptr(int32(-1))
		}), "Invalid "+p0+".totalDevices", "Invalid "+p0+".allocatedDevices", "Invalid "+p0+".availableDevices", "Invalid "+p0+".unavailableDevices"),
		status("node name", pool(func(p *v1alpha3.PoolStatus) { p.NodeName = ptr("Node_1") }), "Invalid "+p0+".nodeName"),
		status("validationError too long", pool(func(p *v1alpha3.PoolStatus) {
			p.ValidationError = ptr(strings.Repeat("e", PoolStatusValidationErrorMaxBytes+1))
		}), "TooLong "+p0+".validationError"),
		status("partition types at the limit", summary(PoolStatusMaxPartitionTypes)),
		status("too many partition types", summary(PoolStatusMaxPartitionTypes+1), "TooMany "+p0+".partitionSummary"),
		status("partition types unique by attribute and type", pool(func(p *v1alpha3.PoolStatus) { p.PartitionSummary[1].Type = "1g" }),
			"Duplicate "+p0+".partitionSummary[1]"),
		status("partition type fields", pool(func(p *v1alpha3.PoolStatus) {
			p.PartitionSummary[0] = v1alpha3.PartitionTypeStatus{Total: ptr(int32(-1))}
		}), "Required "+p0+".partitionSummary[0].attribute", "Required "+p0+".partitionSummary[0].type",
			"Invalid "+p0+".partitionSummary[0].total", "Required "+p0+".partitionSummary[0].allocatable"),
		status("shareable summary counts", pool(func(p *v1alpha3.PoolStatus) {
			p.ShareableSummary.FullyAvailableDevices, p.ShareableSummary.PartiallyAvailableDevices = nil, ptr(int32(-1))
		}), "Required "+p0+".shareableSummary.fullyAvailableDevices", "Invalid "+p0+".shareableSummary.partiallyAvailableDevices"),
		status("shareable capacities at the limit", capacities(ShareableSummaryMaxCapacities)),
		status("too many shareable capacities", capacities(ShareableSummaryMaxCapacities+1), "TooMany "+p0+".shareableSummary.capacity"),
		status("shareable capacity fields", pool(func(p *v1alpha3.PoolStatus) {
			p.ShareableSummary.Capacity[0] = v1alpha3.ShareableCapacityStatus{}
		}), "Required "+p0+".shareableSummary.capacity[0].name", "Required "+p0+".shareableSummary.capacity[0].total",
			"Required "+p0+".shareableSummary.capacity[0].consumed", "Required "+p0+".shareableSummary.capacity[0].available"),
		// Once written, the status is compared, not validated again.
		{name: "a written status is not validated again", op: opStatus, old: poolStatusRequestWithStatus(func(st *v1alpha3.ResourcePoolStatusRequestStatus) {
			st.PoolCount = ptr(int32(-1))
		}), obj: poolStatusRequestWithStatus(func(st *v1alpha3.ResourcePoolStatusRequestStatus) { st.PoolCount = ptr(int32(-1)) })},
		{name: "a written status is immutable", op: opStatus, old: poolStatusRequestWithStatus(nil),
			obj: poolStatusRequestWithStatus(func(st *v1alpha3.ResourcePoolStatusRequestStatus) { st.PoolCount = ptr(int32(2)) }), want: []string{"Invalid status"}},
	})
}

// TestResourcePoolStatusRequestSpec: the declared spec rules of a
// create, each with a passing value at its limit.
func TestResourcePoolStatusRequestSpec(t *testing.T) {
	spec := func(f func(s *v1alpha3.ResourcePoolStatusRequestSpec)) *v1alpha3.ResourcePoolStatusRequest {
		r := storedPoolStatusRequest()
		r.ResourceVersion = ""
		f(&r.Spec)
		return r
	}
	runCases(t, []ruleCase{
		{name: "limit 1", obj: spec(func(s *v1alpha3.ResourcePoolStatusRequestSpec) { s.Limit = ptr(int32(1)) })},
		{name: "limit max", obj: spec(func(s *v1alpha3.ResourcePoolStatusRequestSpec) {
			s.Limit = ptr(int32(v1alpha3.ResourcePoolStatusRequestLimitMax))
		})},
		{name: "limit over max", obj: spec(func(s *v1alpha3.ResourcePoolStatusRequestSpec) {
			s.Limit = ptr(int32(v1alpha3.ResourcePoolStatusRequestLimitMax + 1))
		}),
			want: []string{"Invalid spec.limit"}},
		{name: "limit defaulted", obj: spec(func(s *v1alpha3.ResourcePoolStatusRequestSpec) { s.Limit = nil })},
		{name: "pool name optional", obj: spec(func(s *v1alpha3.ResourcePoolStatusRequestSpec) { s.PoolName = nil })},
		{name: "pool name with parts", obj: spec(func(s *v1alpha3.ResourcePoolStatusRequestSpec) { s.PoolName = ptr("rack-1/node-1") })},
		{name: "pool name", obj: spec(func(s *v1alpha3.ResourcePoolStatusRequestSpec) { s.PoolName = ptr("rack-1//node-1") }),
			want: []string{"Invalid spec.poolName"}},
		{name: "driver too long", obj: spec(func(s *v1alpha3.ResourcePoolStatusRequestSpec) { s.Driver = strings.Repeat("a", DriverNameMaxLength+1) }),
			want: []string{"TooLong spec.driver"}},
		{name: "update: spec immutable", op: opUpdate, old: storedPoolStatusRequest(),
			obj: func() *v1alpha3.ResourcePoolStatusRequest {
				r := storedPoolStatusRequest()
				r.Spec.Limit = ptr(int32(20))
				return r
			}(),
			want: []string{"Invalid spec"}},
	})
}
