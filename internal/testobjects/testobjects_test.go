package testobjects

import (
	"reflect"
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
)

func TestShapes(t *testing.T) {
	d := Device("d", Attr("n", 1), Attr("b", true), Attr("s", "x"), Attr("v", "v:1.2.3"), Attr("l", []int64{1}), Attr("m", apiresource.MustParse("1Gi")), Attr("n", int64(2)))
	if len(d.Attributes) != 5 || *d.Attributes["n"].IntValue != 2 || *d.Attributes["v"].VersionValue != "1.2.3" || *d.Attributes["s"].StringValue != "x" ||
		!reflect.DeepEqual(d.Attributes["l"].IntValues, []int64{1}) {
		t.Errorf("attributes %+v", d.Attributes)
	}
	if c, ok := d.Capacity["m"]; !ok || len(d.Capacity) != 1 || c.Value.String() != "1Gi" || c.RequestPolicy != nil {
		t.Errorf("capacity %+v", d.Capacity)
	}
	if d := Device("bare"); d.Attributes != nil || d.Capacity != nil {
		t.Errorf("bare device %+v", d)
	}

	s := Slice("s", "drv", "p", OnNode("n1"), d)
	if s.Spec.NodeName == nil || *s.Spec.NodeName != "n1" || s.Spec.AllNodes != nil || s.Spec.Pool.ResourceSliceCount != 1 {
		t.Errorf("slice on node %+v", s.Spec)
	}
	s = Slice("s", "drv", "p", AllNodes())
	if s.Spec.AllNodes == nil || !*s.Spec.AllNodes || s.Spec.NodeName != nil {
		t.Errorf("slice on all nodes %+v", s.Spec)
	}

	r := Request("r", "gpu")
	want := resource.DeviceRequest{Name: "r", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "gpu", AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1}}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("request %+v", r)
	}
	r = Request("r", "gpu", All(), Admin(), Selector("true"))
	if e := r.Exactly; e.AllocationMode != resource.DeviceAllocationModeAll || e.Count != 0 || e.AdminAccess == nil || !*e.AdminAccess ||
		len(e.Selectors) != 1 || e.Selectors[0].CEL.Expression != "true" || r.FirstAvailable != nil {
		t.Errorf("request %+v", *e)
	}

	c := WithConstraint(Claim("c", Request("a", "gpu", Count(2))), "drv/x", "a")
	if c.Namespace != ClaimNamespace || c.Spec.Devices.Requests[0].Exactly.Count != 2 || *c.Spec.Devices.Constraints[0].MatchAttribute != "drv/x" {
		t.Errorf("claim %+v", c.Spec)
	}
	if got := Results(Allocated("x", "drv/p/d").Status.Allocation); !reflect.DeepEqual(got, []string{"r=drv/p/d"}) {
		t.Errorf("results %v", got)
	}
}
