package v1alpha3_test

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	upstream "k8s.io/api/resource/v1alpha3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource/install"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
	"github.com/drakit/drakit/internal/apitest"
)

// Wire tables from the API facts (sections 2.3 and 6): the JSON paths of
// a fully filled object of each kind of resource.k8s.io/v1alpha3 (1.31).

var claimSpecPaths = []string{
	"devices.requests[].name",
	"devices.requests[].deviceClassName",
	"devices.requests[].selectors[].cel.expression",
	"devices.requests[].allocationMode",
	"devices.requests[].count",
	"devices.requests[].adminAccess",
	"devices.constraints[].requests[]",
	"devices.constraints[].matchAttribute",
	"devices.config[].requests[]",
	"devices.config[].opaque.driver",
	"devices.config[].opaque.parameters",
	"controller",
}

var claimSpecStops = []string{
	"devices.config[].opaque.parameters",
}

func under(prefix string, paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		out = append(out, prefix+"."+p)
	}
	return out
}

func join(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

var kinds = map[string]apitest.Kind{
	"DeviceClass": {
		Paths: []string{
			"kind", "apiVersion", "metadata",
			"spec.selectors[].cel.expression",
			"spec.config[].opaque.driver",
			"spec.config[].opaque.parameters",
			"spec.suitableNodes",
		},
		Stop: []string{"metadata", "spec.config[].opaque.parameters", "spec.suitableNodes"},
	},
	"ResourceClaim": {
		Paths: join(
			[]string{"kind", "apiVersion", "metadata"},
			under("spec", claimSpecPaths),
			[]string{
				"status.allocation.devices.results[].request",
				"status.allocation.devices.results[].driver",
				"status.allocation.devices.results[].pool",
				"status.allocation.devices.results[].device",
				"status.allocation.devices.config[].source",
				"status.allocation.devices.config[].requests[]",
				"status.allocation.devices.config[].opaque.driver",
				"status.allocation.devices.config[].opaque.parameters",
				"status.allocation.nodeSelector",
				"status.allocation.controller",
				"status.reservedFor[].apiGroup",
				"status.reservedFor[].resource",
				"status.reservedFor[].name",
				"status.reservedFor[].uid",
				"status.deallocationRequested",
			}),
		Stop: join(
			[]string{"metadata", "status.allocation.devices.config[].opaque.parameters", "status.allocation.nodeSelector"},
			under("spec", claimSpecStops)),
	},
	"ResourceClaimTemplate": {
		Paths: join(
			[]string{"kind", "apiVersion", "metadata", "spec.metadata"},
			under("spec.spec", claimSpecPaths)),
		Stop: join(
			[]string{"metadata", "spec.metadata"},
			under("spec.spec", claimSpecStops)),
	},
	"PodSchedulingContext": {
		Paths: []string{
			"kind", "apiVersion", "metadata",
			"spec.selectedNode",
			"spec.potentialNodes[]",
			"status.resourceClaims[].name",
			"status.resourceClaims[].unsuitableNodes[]",
		},
		Stop: []string{"metadata"},
	},
	"ResourceSlice": {
		Paths: []string{
			"kind", "apiVersion", "metadata",
			"spec.driver",
			"spec.pool.name",
			"spec.pool.generation",
			"spec.pool.resourceSliceCount",
			"spec.nodeName",
			"spec.nodeSelector",
			"spec.allNodes",
			"spec.devices[].name",
			"spec.devices[].basic.attributes.attributesKey.int",
			"spec.devices[].basic.attributes.attributesKey.bool",
			"spec.devices[].basic.attributes.attributesKey.string",
			"spec.devices[].basic.attributes.attributesKey.version",
			"spec.devices[].basic.capacity.capacityKey",
		},
		Stop: []string{"metadata", "spec.nodeSelector"},
		Maps: []string{"spec.devices[].basic.attributes", "spec.devices[].basic.capacity"},
	},
}

func newScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	return scheme
}

// wireScheme has only the kinds v1alpha3 had in 1.31, whose wire form the
// tables above and testdata/server (written by a 1.31 API server) hold.
// The kinds it gained later are k8s.io/api's (see kubeapi).
func wireScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	scheme.AddKnownTypes(v1alpha3.SchemeGroupVersion,
		&v1alpha3.DeviceClass{}, &v1alpha3.DeviceClassList{},
		&v1alpha3.ResourceClaim{}, &v1alpha3.ResourceClaimList{},
		&v1alpha3.ResourceClaimTemplate{}, &v1alpha3.ResourceClaimTemplateList{},
		&v1alpha3.PodSchedulingContext{}, &v1alpha3.PodSchedulingContextList{},
		&v1alpha3.ResourceSlice{}, &v1alpha3.ResourceSliceList{},
	)
	metav1.AddToGroupVersion(scheme, v1alpha3.SchemeGroupVersion)
	return scheme
}

// TestWireSchemeHasTheRest: the installed scheme has, under v1alpha3, the
// 1.31 kinds of wireScheme in drakit's types and every kind k8s.io/api has
// for v1alpha3 in k8s.io/api's types, nothing else.
func TestWireSchemeHasTheRest(t *testing.T) {
	installed := newScheme()
	kubeAPI := runtime.NewScheme()
	if err := upstream.AddToScheme(kubeAPI); err != nil {
		t.Fatal(err)
	}
	late := apitest.OwnKinds(kubeAPI, v1alpha3.SchemeGroupVersion, &upstream.DeviceTaintRule{})
	if len(late) == 0 {
		t.Fatal("k8s.io/api registers no v1alpha3 kind")
	}
	got := append(apitest.OwnKinds(installed, v1alpha3.SchemeGroupVersion, &v1alpha3.ResourceClaim{}),
		apitest.OwnKinds(installed, v1alpha3.SchemeGroupVersion, &upstream.DeviceTaintRule{})...)
	want := append(apitest.OwnKinds(wireScheme(), v1alpha3.SchemeGroupVersion, &v1alpha3.ResourceClaim{}), late...)
	sort.Strings(got)
	sort.Strings(want)
	if diff := apitest.DiffPaths(got, want); diff != "" {
		t.Errorf("v1alpha3's kinds in the scheme differ from the 1.31 kinds and k8s.io/api's:\n%s", diff)
	}
}

func suite() apitest.Suite {
	return apitest.Suite{
		Scheme:       wireScheme(),
		GroupVersion: v1alpha3.SchemeGroupVersion,
		Kinds:        kinds,
		ServerDir:    "testdata/server",
	}
}

func TestWireFilledPaths(t *testing.T) { suite().TestFilledPaths(t) }

func TestWireServerJSON(t *testing.T) { suite().TestServerJSON(t) }

// request returns a DeviceRequest with the given mode and count.
func request(name string, mode v1alpha3.DeviceAllocationMode, count int64) v1alpha3.DeviceRequest {
	return v1alpha3.DeviceRequest{Name: name, DeviceClassName: "gpu.example.com", AllocationMode: mode, Count: count}
}

// TestDefaulting checks the one defaulting function of v1alpha3 through
// the scheme, on every kind that holds device requests.
func TestDefaulting(t *testing.T) {
	scheme := newScheme()
	in := []v1alpha3.DeviceRequest{
		request("empty", "", 0),
		request("only-count", "", 3),
		request("exact-no-count", v1alpha3.DeviceAllocationModeExactCount, 0),
		request("exact-count", v1alpha3.DeviceAllocationModeExactCount, 2),
		request("all", v1alpha3.DeviceAllocationModeAll, 0),
		request("all-count", v1alpha3.DeviceAllocationModeAll, 4),
		request("unknown-mode", "Some", 0),
	}
	want := []v1alpha3.DeviceRequest{
		request("empty", v1alpha3.DeviceAllocationModeExactCount, 1),
		request("only-count", v1alpha3.DeviceAllocationModeExactCount, 3),
		request("exact-no-count", v1alpha3.DeviceAllocationModeExactCount, 1),
		request("exact-count", v1alpha3.DeviceAllocationModeExactCount, 2),
		request("all", v1alpha3.DeviceAllocationModeAll, 0),
		request("all-count", v1alpha3.DeviceAllocationModeAll, 4),
		request("unknown-mode", "Some", 0),
	}
	spec := func(reqs []v1alpha3.DeviceRequest) v1alpha3.ResourceClaimSpec {
		return v1alpha3.ResourceClaimSpec{Devices: v1alpha3.DeviceClaim{Requests: append([]v1alpha3.DeviceRequest(nil), reqs...)}}
	}
	claim := func(reqs []v1alpha3.DeviceRequest) v1alpha3.ResourceClaim {
		return v1alpha3.ResourceClaim{Spec: spec(reqs)}
	}
	template := func(reqs []v1alpha3.DeviceRequest) v1alpha3.ResourceClaimTemplate {
		return v1alpha3.ResourceClaimTemplate{Spec: v1alpha3.ResourceClaimTemplateSpec{Spec: spec(reqs)}}
	}
	cases := map[string]struct{ obj, want runtime.Object }{
		"ResourceClaim": {ptr(claim(in)), ptr(claim(want))},
		"ResourceClaimList": {
			&v1alpha3.ResourceClaimList{Items: []v1alpha3.ResourceClaim{claim(in), claim(in[:1])}},
			&v1alpha3.ResourceClaimList{Items: []v1alpha3.ResourceClaim{claim(want), claim(want[:1])}},
		},
		"ResourceClaimTemplate": {ptr(template(in)), ptr(template(want))},
		"ResourceClaimTemplateList": {
			&v1alpha3.ResourceClaimTemplateList{Items: []v1alpha3.ResourceClaimTemplate{template(in), template(in[:1])}},
			&v1alpha3.ResourceClaimTemplateList{Items: []v1alpha3.ResourceClaimTemplate{template(want), template(want[:1])}},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			scheme.Default(c.obj)
			if diff := cmp.Diff(c.want, c.obj); diff != "" {
				t.Errorf("defaulted %s differs (-want +got):\n%s", name, diff)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestDefaultingNothingElse checks that defaulting changes nothing in a
// filled object of any 1.31 kind, and nothing in an empty one: with no
// requests there is nothing to default. (The late kinds have defaults of
// their own; see late_kinds_test.go.)
func TestDefaultingNothingElse(t *testing.T) {
	scheme := newScheme()
	for _, k := range apitest.OwnKinds(wireScheme(), v1alpha3.SchemeGroupVersion, &v1alpha3.ResourceClaim{}) {
		t.Run(k, func(t *testing.T) {
			for _, filled := range []bool{true, false} {
				obj, err := scheme.New(v1alpha3.SchemeGroupVersion.WithKind(k))
				if err != nil {
					t.Fatal(err)
				}
				if filled {
					apitest.Fill(obj)
				}
				want := obj.DeepCopyObject()
				scheme.Default(obj)
				if diff := cmp.Diff(want, obj); diff != "" {
					t.Errorf("defaulting changed a %s (filled=%v) (-want +got):\n%s", k, filled, diff)
				}
			}
		})
	}
}

// TestDefaultingFilledRequest checks that in an otherwise filled claim or
// template a request without mode and count gets exactly the two defaults.
func TestDefaultingFilledRequest(t *testing.T) {
	scheme := newScheme()
	firstRequest := func(obj runtime.Object) *v1alpha3.DeviceRequest {
		switch o := obj.(type) {
		case *v1alpha3.ResourceClaim:
			return &o.Spec.Devices.Requests[0]
		case *v1alpha3.ResourceClaimTemplate:
			return &o.Spec.Spec.Devices.Requests[0]
		}
		panic(obj)
	}
	for _, obj := range []runtime.Object{&v1alpha3.ResourceClaim{}, &v1alpha3.ResourceClaimTemplate{}} {
		apitest.Fill(obj)
		r := firstRequest(obj)
		r.AllocationMode, r.Count = "", 0
		want := obj.DeepCopyObject()
		r = firstRequest(want)
		r.AllocationMode, r.Count = v1alpha3.DeviceAllocationModeExactCount, 1
		scheme.Default(obj)
		if diff := cmp.Diff(want, obj); diff != "" {
			t.Errorf("defaulting a filled %T (-want +got):\n%s", obj, diff)
		}
	}
}
