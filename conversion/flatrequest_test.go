package conversion

import (
	"fmt"
	"testing"

	"k8s.io/api/resource/v1beta1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	hub "github.com/drakit/drakit/apis/resource"
)

// flatExactRequests are v1beta1 requests that set flat exact fields
// without a deviceClassName, beside firstAvailable and alone, each as
// v1beta1's own defaulting leaves it: that defaulting gives a request
// without a class no allocation mode and no count. No server accepts them
// (a request with alternatives sets no exact field; one without needs a
// class), but a converter must give them back as they are. (An empty list,
// say selectors: [], is not among them: v1beta1's JSON leaves it out, so
// no manifest says it; docs/conversion.md, "What the wire cannot keep
// apart".)
func flatExactRequests() map[string]v1beta1.DeviceRequest {
	alternatives := func() []v1beta1.DeviceSubRequest {
		return []v1beta1.DeviceSubRequest{
			{Name: "big", DeviceClassName: "big-gpu", AllocationMode: v1beta1.DeviceAllocationModeExactCount, Count: 1},
			{Name: "all", DeviceClassName: "small-gpu", AllocationMode: v1beta1.DeviceAllocationModeAll},
		}
	}
	selectors := []v1beta1.DeviceSelector{{CEL: &v1beta1.CELDeviceSelector{Expression: `device.attributes["example.com"].model == "a100"`}}}
	base := map[string]v1beta1.DeviceRequest{
		"count":                  {Count: 2},
		"count one":              {Count: 1},
		"ExactCount":             {AllocationMode: v1beta1.DeviceAllocationModeExactCount},
		"ExactCount and count":   {AllocationMode: v1beta1.DeviceAllocationModeExactCount, Count: 3},
		"All":                    {AllocationMode: v1beta1.DeviceAllocationModeAll},
		"adminAccess":            {AdminAccess: ptrTo(true)},
		"adminAccess false":      {AdminAccess: ptrTo(false)},
		"selectors":              {Selectors: selectors},
		"selectors and count":    {Selectors: selectors, Count: 4},
		"tolerations":            {Tolerations: []v1beta1.DeviceToleration{{Key: "example.com/flaky", Operator: v1beta1.DeviceTolerationOpEqual, Value: "yes"}}},
		"capacity":               {Capacity: &v1beta1.CapacityRequirements{Requests: map[v1beta1.QualifiedName]apiresource.Quantity{"memory": apiresource.MustParse("4Gi")}}},
		"derivedAttributes":      {DerivedAttributes: []v1beta1.DeviceDerivedAttribute{{Name: "derived/numa", Expression: `device.attributes["example.com"].numa`}}},
		"adminAccess, mode, all": {AdminAccess: ptrTo(true), AllocationMode: v1beta1.DeviceAllocationModeAll, Selectors: selectors},
	}
	out := map[string]v1beta1.DeviceRequest{}
	for name, r := range base {
		r.Name = "gpu"
		out[name] = r
		r.FirstAvailable = alternatives()
		out[name+" beside firstAvailable"] = r
	}
	return out
}

// v1beta1Claims are a claim and a template with request r, and a second
// request beside it that needs no stash of its own.
func v1beta1Claims(r v1beta1.DeviceRequest) []runtime.Object {
	spec := v1beta1.ResourceClaimSpec{Devices: v1beta1.DeviceClaim{Requests: []v1beta1.DeviceRequest{
		r,
		{Name: "nic", DeviceClassName: "nic", AllocationMode: v1beta1.DeviceAllocationModeExactCount, Count: 1},
	}}}
	meta := metav1.ObjectMeta{Name: "c", Namespace: "ns"}
	return []runtime.Object{
		&v1beta1.ResourceClaim{ObjectMeta: meta, Spec: spec},
		&v1beta1.ResourceClaimTemplate{ObjectMeta: meta, Spec: v1beta1.ResourceClaimTemplateSpec{Spec: *spec.DeepCopy()}},
	}
}

// TestV1Beta1FlatExactFieldsRoundTrip: a v1beta1 request that sets flat
// exact fields without a class (beside firstAvailable or not), as v1beta1's
// defaulting leaves it, comes back unchanged from every other version and
// from a trip through all of them. The alpha versions keep such requests in
// their stash; a stash that leaves out what the hub's defaults give back
// must not fill in a mode and count that v1beta1's defaults do not.
func TestV1Beta1FlatExactFieldsRoundTrip(t *testing.T) {
	others := []string{"v1alpha1", "v1alpha2", "v1alpha3", "v1beta2", "v1"}
	var trips [][]string
	for _, v := range others {
		trips = append(trips, []string{v, "v1beta1"})
	}
	trips = append(trips, append(append([]string{}, others...), "v1beta1"),
		[]string{"v1alpha3", "v1alpha1", "v1", "v1alpha2", "v1beta1"})
	for name, r := range flatExactRequests() {
		for _, in := range v1beta1Claims(r) {
			kind := fmt.Sprintf("%T", in)[len("*v1beta1."):]
			t.Run(kind+"/"+name, func(t *testing.T) {
				// As v1beta1's defaulting leaves it: it gives these
				// requests nothing.
				defaultedIn := in.DeepCopyObject()
				Scheme.Default(defaultedIn)
				if d := diff(in, defaultedIn); d != "" {
					t.Fatalf("the test's object is not as v1beta1's defaulting leaves it (-in +defaulted):\n%s", d)
				}
				for _, trip := range trips {
					before := in.DeepCopyObject()
					obj := in
					for _, v := range trip {
						obj = convertOK(t, obj, v)
					}
					clearTypeMeta(obj)
					if d := diff(in, obj); d != "" {
						t.Errorf("v1beta1 through %v changed the object (-in +out):\n%s", trip, d)
					}
					if d := diff(before, in); d != "" {
						t.Fatalf("conversion modified its input (-before +after):\n%s", d)
					}
				}
			})
		}
	}
}

// TestUndefaultedExactlyComesBackAsItWas: a hub exactly without a class
// whose allocation mode and count the hub's defaults would fill in (as a
// v1beta1 request without a class gives it) comes back as it was from
// every version, the alpha versions' stash keeping the mode and count
// as they are (undefaultedExactly).
func TestUndefaultedExactlyComesBackAsItWas(t *testing.T) {
	alternative := hub.DeviceSubRequest{Name: "big", DeviceClassName: "big-gpu", AllocationMode: hub.DeviceAllocationModeExactCount, Count: 1}
	selectors := []hub.DeviceSelector{{CEL: &hub.CELDeviceSelector{Expression: "true"}}}
	requests := map[string]hub.DeviceRequest{
		"no mode, beside firstAvailable": {Name: "gpu", Exactly: &hub.ExactDeviceRequest{Count: 2}, FirstAvailable: []hub.DeviceSubRequest{alternative}},
		"ExactCount without count, beside firstAvailable": {Name: "gpu", Exactly: &hub.ExactDeviceRequest{AllocationMode: hub.DeviceAllocationModeExactCount},
			FirstAvailable: []hub.DeviceSubRequest{alternative}},
		"selectors only":      {Name: "gpu", Exactly: &hub.ExactDeviceRequest{Selectors: selectors}},
		"adminAccess, count":  {Name: "gpu", Exactly: &hub.ExactDeviceRequest{AdminAccess: ptrTo(true), Count: 5}},
		"first request, bare": {Name: "gpu", Exactly: &hub.ExactDeviceRequest{Selectors: selectors}},
	}
	for name, r := range requests {
		for _, v := range []string{"v1alpha1", "v1alpha2", "v1alpha3", "v1beta1", "v1beta2", "v1"} {
			t.Run(name+"/"+v, func(t *testing.T) {
				// The request is second, after a defaulted one, unless
				// it is alone, the first one's class being what a
				// v1alpha1 claim's resourceClassName shows.
				in := hubClaim(exactly("nic", "nic", hub.ExactDeviceRequest{}), r)
				if name == "first request, bare" {
					in = hubClaim(r)
				}
				before := in.DeepCopyObject()
				out := hubThrough(t, 0, in, []string{v})
				clearTypeMeta(out)
				if d := diff(in, out); d != "" {
					t.Errorf("hub -> %s -> hub changed the object (-in +out):\n%s", v, d)
				}
				if d := diff(before, in); d != "" {
					t.Fatalf("conversion modified its input (-before +after):\n%s", d)
				}
			})
		}
	}
}

// TestUndefaultedExactlyGivenAClass: the class a v1alpha1 claim's edited
// resourceClassName gives the first request ends what undefaultedExactly
// kept: a request with a class gets the defaults, as v1beta1's defaulting
// gives them, and written again the stash does not name it.
func TestUndefaultedExactlyGivenAClass(t *testing.T) {
	a1 := decode(t, `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"gpu","exactly":{"count":2}},{"name":"nic","exactly":{"deviceClassName":"nic"}}],"undefaultedExactly":[0]}}'
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
`)
	h, err := ToHub(a1)
	if err != nil {
		t.Fatal(err)
	}
	want := hubClaim(exactly("gpu", "gpu", hub.ExactDeviceRequest{Count: 2}), exactly("nic", "nic", hub.ExactDeviceRequest{}))
	clearTypeMeta(h)
	if d := diff(want, h); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	back := convertOK(t, h, "v1alpha1")
	sameJSON(t, back, `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"gpu","exactly":{"count":2}},{"name":"nic","exactly":{"deviceClassName":"nic"}}]}}'
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
`)
}
