package hubclient

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/generated/clientset/versioned/fake"
)

// fakeCluster is what hubclient sees of a cluster in the tests: client-go's
// fake clientset for the kinds whose types are k8s.io/api's and drakit's
// for the rest, each with its own tracker, behind drakit's fake discovery.
type fakeCluster struct {
	kube *kubefake.Clientset
	own  *fake.Clientset
}

func newFakeCluster() *fakeCluster {
	return &fakeCluster{kube: kubefake.NewClientset(), own: fake.NewClientset()}
}

func (f *fakeCluster) clientsets() Clientsets {
	return Clientsets{Kube: f.kube, Drakit: f.own}
}

func (f *fakeCluster) Discovery() discovery.DiscoveryInterface { return f.own.Discovery() }

// isKubeAPI tells whether gvr's kind is reached through client-go's
// clientset.
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

// tracker is the object tracker that holds gvr's objects.
func (f *fakeCluster) tracker(gvr schema.GroupVersionResource) clienttesting.ObjectTracker {
	if isKubeAPI(gvr) {
		return f.kube.Tracker()
	}
	return f.own.Tracker()
}

// PrependReactor adds the reactor to both clientsets.
func (f *fakeCluster) PrependReactor(verb, resource string, reaction clienttesting.ReactionFunc) {
	f.kube.PrependReactor(verb, resource, reaction)
	f.own.PrependReactor(verb, resource, reaction)
}
