package resourcev1

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	fakediscovery "k8s.io/client-go/discovery/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	resourcev1client "k8s.io/client-go/kubernetes/typed/resource/v1"
	clienttesting "k8s.io/client-go/testing"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/generated/clientset/versioned/fake"
	"github.com/drakit/drakit/hubclient"
)

// A cluster as hubclient sees it in these tests: client-go's fake
// clientset for the kinds whose types are k8s.io/api's and drakit's for the
// rest (each with its own tracker), behind a fake discovery that lists the
// resources of one served version. (hubclient's own tests have the same
// helper; test files do not cross packages.)
type fakeCluster struct {
	kube    *kubefake.Clientset
	own     *fake.Clientset
	version string
}

// servedResources are what discovery lists for each version, as the
// release that serves it alone does: 1.37 (v1), 1.33 with one version
// enabled (v1beta2, v1beta1, v1alpha3) and 1.30 (v1alpha2).
var servedResources = map[string][]metav1.APIResource{
	"v1":       append(coreResources(), res("devicetaintrules", "DeviceTaintRule", false), res("devicetaintrules/status", "DeviceTaintRule", false)),
	"v1beta2":  coreResources(),
	"v1beta1":  coreResources(),
	"v1alpha3": append(coreResources(), res("devicetaintrules", "DeviceTaintRule", false)),
	"v1alpha2": {
		res("resourceclasses", "ResourceClass", false), res("resourceclaims", "ResourceClaim", true), res("resourceclaims/status", "ResourceClaim", true),
		res("resourceclaimtemplates", "ResourceClaimTemplate", true), res("podschedulingcontexts", "PodSchedulingContext", true),
		res("podschedulingcontexts/status", "PodSchedulingContext", true), res("resourceslices", "ResourceSlice", false),
		res("resourceclaimparameters", "ResourceClaimParameters", true), res("resourceclassparameters", "ResourceClassParameters", true),
	},
}

func coreResources() []metav1.APIResource {
	return []metav1.APIResource{
		res("deviceclasses", "DeviceClass", false), res("resourceclaims", "ResourceClaim", true), res("resourceclaims/status", "ResourceClaim", true),
		res("resourceclaimtemplates", "ResourceClaimTemplate", true), res("resourceslices", "ResourceSlice", false),
	}
}

func res(name, kind string, namespaced bool) metav1.APIResource {
	return metav1.APIResource{Name: name, Kind: kind, Namespaced: namespaced}
}

// newFake returns a fake cluster serving only version, and the drop-in
// interface over it.
func newFake(t *testing.T, version string) (*fakeCluster, resourcev1client.ResourceV1Interface) {
	t.Helper()
	f := &fakeCluster{kube: kubefake.NewClientset(), own: fake.NewClientset(), version: version}
	d := f.own.Discovery().(*fakediscovery.FakeDiscovery)
	d.Resources = []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{res("pods", "Pod", true)}},
		{GroupVersion: resource.GroupName + "/" + version, APIResources: servedResources[version]},
	}
	hub, err := hubclient.New(hubclient.Clientsets{Kube: f.kube, Drakit: f.own}, d, hubclient.Options{})
	if err != nil {
		t.Fatalf("hubclient.New: %v", err)
	}
	return f, New(hub)
}

// stored is the object the fake keeps for resource/name, in the served
// version.
func (f *fakeCluster) stored(t *testing.T, resourceName, namespace, name string) metav1.Object {
	t.Helper()
	gvr := schema.GroupVersionResource{Group: resource.GroupName, Version: f.version, Resource: resourceName}
	tracker := f.own.Tracker()
	if isKubeAPI(gvr) {
		tracker = f.kube.Tracker()
	}
	obj, err := tracker.Get(gvr, namespace, name)
	if err != nil {
		t.Fatalf("the fake holds no %s %s/%s: %v", gvr, namespace, name, err)
	}
	return obj.(metav1.Object)
}

func isKubeAPI(gvr schema.GroupVersionResource) bool {
	v, err := catalogue.Lookup(gvr.Version)
	if err != nil {
		return false
	}
	for _, k := range v.Kinds {
		if k.Resource == gvr.Resource {
			return k.KubeAPI
		}
	}
	return false
}

// PrependReactor adds the reactor to both clientsets.
func (f *fakeCluster) PrependReactor(verb, resource string, reaction clienttesting.ReactionFunc) {
	f.kube.PrependReactor(verb, resource, reaction)
	f.own.PrependReactor(verb, resource, reaction)
}
