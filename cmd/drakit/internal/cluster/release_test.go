package cluster

import (
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/version"
	fakediscovery "k8s.io/client-go/discovery/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/drakit/drakit/apis/resource/features"
)

// TestSchedulerGates: the gates are the server's release's defaults,
// with DRA on before 1.34, and --feature-gates over them; the line says
// which.
func TestSchedulerGates(t *testing.T) {
	for _, tc := range []struct {
		gitVersion, flag string
		on, off          []features.Name
		about            string
	}{
		{gitVersion: "v1.37.2", on: []features.Name{features.DRADeviceTaintRules, features.DRAConsumableCapacity},
			about: "the defaults of Kubernetes 1.37 (the server is v1.37.2)"},
		{gitVersion: "v1.33.13", on: []features.Name{features.DynamicResourceAllocation}, off: []features.Name{features.DRADeviceTaints, features.DRAPrioritizedList},
			about: "the defaults of Kubernetes 1.33 (the server is v1.33.13) and DynamicResourceAllocation=true"},
		{gitVersion: "v1.33.13", flag: "DRADeviceTaints=true", on: []features.Name{features.DRADeviceTaints}, off: []features.Name{features.DRAPrioritizedList},
			about: "the defaults of Kubernetes 1.33 (the server is v1.33.13) and DynamicResourceAllocation=true, with --feature-gates DRADeviceTaints=true"},
		{gitVersion: "v1.30.14-gke.100", off: []features.Name{features.DRAResourceClaimDeviceStatus},
			about: "the defaults of Kubernetes 1.30 (the server is v1.30.14-gke.100) and DynamicResourceAllocation=true"},
		{gitVersion: "v1.39.0", on: []features.Name{features.DRADeviceTaintRules},
			about: "the defaults of Kubernetes 1.37, the nearest release drakit knows (the server is v1.39.0)"},
	} {
		kube := kubefake.NewClientset()
		kube.Discovery().(*fakediscovery.FakeDiscovery).FakedServerVersion = &version.Info{GitVersion: tc.gitVersion}
		c := New(nil, kube, "", "fake")
		g, about, err := c.SchedulerGates(tc.flag)
		if err != nil {
			t.Fatalf("%s: %v", tc.gitVersion, err)
		}
		if about != tc.about {
			t.Errorf("%s %s: %q, want %q", tc.gitVersion, tc.flag, about, tc.about)
		}
		for _, n := range tc.on {
			if !g.Enabled(n) {
				t.Errorf("%s %s: %s off", tc.gitVersion, tc.flag, n)
			}
		}
		for _, n := range tc.off {
			if g.Enabled(n) {
				t.Errorf("%s %s: %s on", tc.gitVersion, tc.flag, n)
			}
		}
	}
	kube := kubefake.NewClientset()
	kube.Discovery().(*fakediscovery.FakeDiscovery).FakedServerVersion = &version.Info{GitVersion: "v1.37.2"}
	var perr *features.ParseError
	if _, _, err := New(nil, kube, "", "fake").SchedulerGates("NoSuchGate=true"); !errors.As(err, &perr) {
		t.Errorf("an unknown gate: %v", err)
	}
}

// TestDecodeLegacyPod: the claims of a 1.30 pod (spec.resourceClaims[].source)
// are read into the fields of today.
func TestDecodeLegacyPod(t *testing.T) {
	raw := `{"metadata":{"name":"p"},"spec":{"resourceClaims":[{"name":"a","source":{"resourceClaimName":"claim-a"}},{"name":"b","source":{"resourceClaimTemplateName":"tmpl"}}]}}`
	pod, err := decodeLegacyPod([]byte(raw), "getting pod")
	if err != nil {
		t.Fatal(err)
	}
	rc := pod.Spec.ResourceClaims
	if len(rc) != 2 || rc[0].ResourceClaimName == nil || *rc[0].ResourceClaimName != "claim-a" || rc[1].ResourceClaimTemplateName == nil || *rc[1].ResourceClaimTemplateName != "tmpl" {
		t.Errorf("got %+v", rc)
	}
	if sourcesLost(pod) {
		t.Error("sources still lost")
	}
}
