package verify

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/apis/resource"
)

func intAttr(name string, v int64) resource.DeviceAttribute {
	return resource.DeviceAttribute{Name: resource.QualifiedName(name), IntValue: &v}
}

func inventory() *Inventory {
	mk := func(name string, numa int64) resource.Device {
		return resource.Device{Name: name, Basic: &resource.BasicDevice{Attributes: []resource.DeviceAttribute{intAttr("numa", numa)}}}
	}
	return &Inventory{
		Classes: []*resource.DeviceClass{{ObjectMeta: metav1.ObjectMeta{Name: "gpu"}, Spec: resource.DeviceClassSpec{Selectors: []resource.DeviceSelector{{CEL: &resource.CELDeviceSelector{Expression: `device.driver == "d"`}}}}}},
		Slices: []*resource.ResourceSlice{
			{ObjectMeta: metav1.ObjectMeta{Name: "s"}, Spec: resource.ResourceSliceSpec{Driver: "d", NodeName: "n1", Pool: resource.ResourcePool{Name: "p", ResourceSliceCount: 1},
				Devices: []resource.Device{mk("a", 0), mk("b", 0), mk("c", 1)}}},
			{ObjectMeta: metav1.ObjectMeta{Name: "other"}, Spec: resource.ResourceSliceSpec{Driver: "d", NodeName: "n2", Pool: resource.ResourcePool{Name: "q", ResourceSliceCount: 1},
				Devices: []resource.Device{mk("far", 0)}}},
		},
		InUse: map[DeviceID]bool{{"d", "p", "b"}: true},
		Node:  &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}},
	}
}

func claimOf(count int64, constrained bool) *resource.ResourceClaim {
	c := &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Spec: resource.ResourceClaimSpec{Devices: resource.DeviceClaim{
		Requests: []resource.DeviceRequest{{Name: "r", DeviceClassName: "gpu", AllocationMode: resource.DeviceAllocationModeExactCount, Count: count}}}}}
	if constrained {
		fq := resource.FullyQualifiedName("d/numa")
		c.Spec.Devices.Constraints = []resource.DeviceConstraint{{MatchAttribute: &fq}}
	}
	return c
}

func allocation(devices ...string) *resource.AllocationResult {
	a := &resource.AllocationResult{NodeSelector: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{
		Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"n1"}}}}}}}
	for _, d := range devices {
		p := strings.Split(d, "/")
		a.Devices.Results = append(a.Devices.Results, resource.DeviceRequestAllocationResult{Request: "r", Driver: "d", Pool: p[0], Device: p[1]})
	}
	return a
}

func TestChecker(t *testing.T) {
	for _, tc := range []struct {
		name   string
		claim  *resource.ResourceClaim
		alloc  *resource.AllocationResult
		errors []string
	}{
		{name: "valid", claim: claimOf(2, false), alloc: allocation("p/a", "p/c")},
		{name: "in use", claim: claimOf(1, false), alloc: allocation("p/b"), errors: []string{"already allocated"}},
		{name: "other node", claim: claimOf(1, false), alloc: allocation("q/far"), errors: []string{"not a device the node reaches", "0 devices, asks for 1"}},
		{name: "count", claim: claimOf(2, false), alloc: allocation("p/a"), errors: []string{"1 devices, asks for 2"}},
		{name: "twice", claim: claimOf(2, false), alloc: allocation("p/a", "p/a"), errors: []string{"allocated twice"}},
		{name: "constraint", claim: claimOf(2, true), alloc: allocation("p/a", "p/c"), errors: []string{"has a different d/numa"}},
		{name: "node selector", claim: claimOf(1, false), alloc: func() *resource.AllocationResult { a := allocation("p/a"); a.NodeSelector = nil; return a }(), errors: []string{"want the node n1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := NewChecker(inventory()).Check(tc.claim, tc.alloc)
			if len(errs) != len(tc.errors) {
				t.Fatalf("errors %v, want %v", errs, tc.errors)
			}
			for i, e := range errs {
				if !strings.Contains(e.Error(), tc.errors[i]) {
					t.Errorf("error %q, want %q", e, tc.errors[i])
				}
			}
		})
	}
	// Two claims may not share a device.
	c := NewChecker(inventory())
	if errs := c.Check(claimOf(1, false), allocation("p/a")); len(errs) != 0 {
		t.Fatal(errs)
	}
	if errs := c.Check(claimOf(1, false), allocation("p/a")); len(errs) != 1 || !strings.Contains(errs[0].Error(), "also allocated to") {
		t.Fatal(errs)
	}
}
