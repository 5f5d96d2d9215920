package validation

import (
	"strings"
	"testing"
	"time"

	resourcev1 "k8s.io/api/resource/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
)

// hugeQuantity is beyond quantityguard's bound; a typed object can hold
// it (built by a program, or decoded without the guard).
func hugeQuantity(t *testing.T) apiresource.Quantity {
	t.Helper()
	q, err := apiresource.ParseQuantity("1e100000000")
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestQuantitiesBeyondTheBound: drakit refuses quantities beyond the
// bound wherever they are (a deviation from upstream, always on), and
// returns at once instead of comparing them (a minute each before).
func TestQuantitiesBeyondTheBound(t *testing.T) {
	huge := hugeQuantity(t)
	start := time.Now()
	runCases(t, []ruleCase{
		{name: "capacity", obj: v1Slice(func(s *resourcev1.ResourceSlice) {
			s.Spec.Devices[0].Capacity["memory"] = resourcev1.DeviceCapacity{Value: huge}
		}), want: []string{"Invalid spec.devices[0].capacity[memory].value"}},
		{name: "request policy", obj: v1Slice(func(s *resourcev1.ResourceSlice) {
			c := s.Spec.Devices[1].Capacity["memory"]
			p := *c.RequestPolicy
			r := *p.ValidRange
			r.Max = &huge
			p.ValidRange = &r
			c.RequestPolicy = &p
			s.Spec.Devices[1].Capacity["memory"] = c
		}), want: []string{"Invalid spec.devices[1].capacity[memory].requestPolicy.validRange.max"}},
		{name: "counters", obj: v1CounterSlice(func(s *resourcev1.ResourceSlice) {
			s.Spec.SharedCounters[1].Counters["bandwidth"] = resourcev1.Counter{Value: huge}
		}), want: []string{"Invalid spec.sharedCounters[1].counters[bandwidth].value"}},
		{name: "claim capacity request", obj: v1Claim(func(c *resourcev1.ResourceClaim) {
			c.Spec.Devices.Requests[0].Exactly.Capacity.Requests["memory"] = huge
		}), want: []string{"Invalid spec.devices.requests[0].exactly.capacity.requests[memory]"}},
		{name: "stored object of an update", op: opUpdate, obj: v1Slice(), old: v1Slice(func(s *resourcev1.ResourceSlice) {
			s.Spec.Devices[0].Capacity["memory"] = resourcev1.DeviceCapacity{Value: huge}
		}), want: []string{"Invalid spec.devices[0].capacity[memory].value"}},
	})
	errs := validateOp(opCreate, v1Slice(func(s *resourcev1.ResourceSlice) {
		s.Spec.Devices[0].Capacity["memory"] = resourcev1.DeviceCapacity{Value: huge}
	}), nil, Options{})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "out of range") || len(errs[0].Error()) > 300 {
		t.Errorf("want one short out-of-range error, got %v", errs)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}
