package v1alpha2_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource/install"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/internal/apitest"
)

// Wire tables from the API facts (sections 2.2 and 6): the JSON paths of
// a fully filled object of each kind of resource.k8s.io/v1alpha2 (1.30).

var claimSpecPaths = []string{
	"resourceClassName",
	"parametersRef.apiGroup",
	"parametersRef.kind",
	"parametersRef.name",
	"allocationMode",
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
	"ResourceClass": {
		Paths: []string{
			"kind", "apiVersion", "metadata",
			"driverName",
			"parametersRef.apiGroup",
			"parametersRef.kind",
			"parametersRef.name",
			"parametersRef.namespace",
			"suitableNodes",
			"structuredParameters",
		},
		Stop: []string{"metadata", "suitableNodes"},
	},
	"ResourceClaim": {
		Paths: join(
			[]string{"kind", "apiVersion", "metadata"},
			under("spec", claimSpecPaths),
			[]string{
				"status.driverName",
				"status.allocation.resourceHandles[].driverName",
				"status.allocation.resourceHandles[].data",
				"status.allocation.resourceHandles[].structuredData.vendorClassParameters",
				"status.allocation.resourceHandles[].structuredData.vendorClaimParameters",
				"status.allocation.resourceHandles[].structuredData.nodeName",
				"status.allocation.resourceHandles[].structuredData.results[].vendorRequestParameters",
				"status.allocation.resourceHandles[].structuredData.results[].namedResources.name",
				"status.allocation.availableOnNodes",
				"status.allocation.shareable",
				"status.reservedFor[].apiGroup",
				"status.reservedFor[].resource",
				"status.reservedFor[].name",
				"status.reservedFor[].uid",
				"status.deallocationRequested",
			}),
		Stop: []string{
			"metadata",
			"status.allocation.resourceHandles[].structuredData.vendorClassParameters",
			"status.allocation.resourceHandles[].structuredData.vendorClaimParameters",
			"status.allocation.resourceHandles[].structuredData.results[].vendorRequestParameters",
			"status.allocation.availableOnNodes",
		},
	},
	"ResourceClaimTemplate": {
		Paths: join(
			[]string{"kind", "apiVersion", "metadata", "spec.metadata"},
			under("spec.spec", claimSpecPaths)),
		Stop: []string{"metadata", "spec.metadata"},
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
			"nodeName",
			"driverName",
			"namedResources.instances[].name",
			"namedResources.instances[].attributes[].name",
			"namedResources.instances[].attributes[].quantity",
			"namedResources.instances[].attributes[].bool",
			"namedResources.instances[].attributes[].int",
			"namedResources.instances[].attributes[].intSlice.ints[]",
			"namedResources.instances[].attributes[].string",
			"namedResources.instances[].attributes[].stringSlice.strings[]",
			"namedResources.instances[].attributes[].version",
		},
		Stop: []string{"metadata"},
	},
	"ResourceClaimParameters": {
		Paths: []string{
			"kind", "apiVersion", "metadata",
			"generatedFrom.apiGroup",
			"generatedFrom.kind",
			"generatedFrom.name",
			"shareable",
			"driverRequests[].driverName",
			"driverRequests[].vendorParameters",
			"driverRequests[].requests[].vendorParameters",
			"driverRequests[].requests[].namedResources.selector",
		},
		Stop: []string{"metadata", "driverRequests[].vendorParameters", "driverRequests[].requests[].vendorParameters"},
	},
	"ResourceClassParameters": {
		Paths: []string{
			"kind", "apiVersion", "metadata",
			"generatedFrom.apiGroup",
			"generatedFrom.kind",
			"generatedFrom.name",
			"generatedFrom.namespace",
			"vendorParameters[].driverName",
			"vendorParameters[].parameters",
			"filters[].driverName",
			"filters[].namedResources.selector",
		},
		Stop: []string{"metadata", "vendorParameters[].parameters"},
	},
}

func newScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	return scheme
}

func suite() apitest.Suite {
	return apitest.Suite{
		Scheme:       newScheme(),
		GroupVersion: v1alpha2.SchemeGroupVersion,
		Kinds:        kinds,
		ServerDir:    "testdata/server",
	}
}

func TestWireFilledPaths(t *testing.T) { suite().TestFilledPaths(t) }

func TestWireServerJSON(t *testing.T) { suite().TestServerJSON(t) }

func claim(mode v1alpha2.AllocationMode) v1alpha2.ResourceClaim {
	return v1alpha2.ResourceClaim{Spec: v1alpha2.ResourceClaimSpec{ResourceClassName: "gpu.example.com", AllocationMode: mode}}
}

func template(mode v1alpha2.AllocationMode) v1alpha2.ResourceClaimTemplate {
	return v1alpha2.ResourceClaimTemplate{Spec: v1alpha2.ResourceClaimTemplateSpec{Spec: claim(mode).Spec}}
}

func ptr[T any](v T) *T { return &v }

// TestDefaulting checks the one defaulting function of v1alpha2 through
// the scheme: an empty allocation mode becomes WaitForFirstConsumer, a set
// one is kept, on claims, templates and their Lists.
func TestDefaulting(t *testing.T) {
	scheme := newScheme()
	wffc, immediate := v1alpha2.AllocationModeWaitForFirstConsumer, v1alpha2.AllocationModeImmediate
	cases := map[string]struct{ obj, want runtime.Object }{
		"ResourceClaim/empty":                        {ptr(claim("")), ptr(claim(wffc))},
		"ResourceClaim/Immediate":                    {ptr(claim(immediate)), ptr(claim(immediate))},
		"ResourceClaim/unknown":                      {ptr(claim("Later")), ptr(claim("Later"))},
		"ResourceClaimTemplate/empty":                {ptr(template("")), ptr(template(wffc))},
		"ResourceClaimTemplate/Immediate":            {ptr(template(immediate)), ptr(template(immediate))},
		"ResourceClaimTemplate/WaitForFirstConsumer": {ptr(template(wffc)), ptr(template(wffc))},
		"ResourceClaimList": {
			&v1alpha2.ResourceClaimList{Items: []v1alpha2.ResourceClaim{claim(""), claim(immediate), claim("")}},
			&v1alpha2.ResourceClaimList{Items: []v1alpha2.ResourceClaim{claim(wffc), claim(immediate), claim(wffc)}},
		},
		"ResourceClaimTemplateList": {
			&v1alpha2.ResourceClaimTemplateList{Items: []v1alpha2.ResourceClaimTemplate{template(""), template(immediate), template("")}},
			&v1alpha2.ResourceClaimTemplateList{Items: []v1alpha2.ResourceClaimTemplate{template(wffc), template(immediate), template(wffc)}},
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

// claimSpecs returns the claim specs in obj, for the kinds that have one.
func claimSpecs(obj runtime.Object) []*v1alpha2.ResourceClaimSpec {
	switch o := obj.(type) {
	case *v1alpha2.ResourceClaim:
		return []*v1alpha2.ResourceClaimSpec{&o.Spec}
	case *v1alpha2.ResourceClaimTemplate:
		return []*v1alpha2.ResourceClaimSpec{&o.Spec.Spec}
	case *v1alpha2.ResourceClaimList:
		var out []*v1alpha2.ResourceClaimSpec
		for i := range o.Items {
			out = append(out, &o.Items[i].Spec)
		}
		return out
	case *v1alpha2.ResourceClaimTemplateList:
		var out []*v1alpha2.ResourceClaimSpec
		for i := range o.Items {
			out = append(out, &o.Items[i].Spec.Spec)
		}
		return out
	}
	return nil
}

// TestDefaultingNothingElse checks, for every kind, that defaulting leaves
// a filled object alone, that it only sets the allocation mode of a
// filled object whose mode is empty, and that it only sets that mode in
// an empty object.
func TestDefaultingNothingElse(t *testing.T) {
	scheme := newScheme()
	for _, k := range apitest.OwnKinds(scheme, v1alpha2.SchemeGroupVersion, &v1alpha2.ResourceClaim{}) {
		t.Run(k, func(t *testing.T) {
			for _, variant := range []string{"filled", "filled without mode", "empty"} {
				obj, err := scheme.New(v1alpha2.SchemeGroupVersion.WithKind(k))
				if err != nil {
					t.Fatal(err)
				}
				if variant != "empty" {
					apitest.Fill(obj)
				}
				if variant == "filled without mode" {
					for _, s := range claimSpecs(obj) {
						s.AllocationMode = ""
					}
				}
				want := obj.DeepCopyObject()
				if variant != "filled" {
					for _, s := range claimSpecs(want) {
						s.AllocationMode = v1alpha2.AllocationModeWaitForFirstConsumer
					}
				}
				scheme.Default(obj)
				if diff := cmp.Diff(want, obj); diff != "" {
					t.Errorf("defaulting a %s %s (-want +got):\n%s", variant, k, diff)
				}
			}
		})
	}
}
