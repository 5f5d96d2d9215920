// Package consumer stands for a DRA driver of today that uses drakit: it
// holds client-go's clientset for the Kubernetes API (resource.k8s.io/v1
// and the rest) next to drakit's clientset and hub client for the alpha
// versions of resource.k8s.io, and names devices of drakit's allocation
// results the way upstream's allocator (k8s.io/dynamic-resource-allocation)
// does. Its point is that all of it resolves to one set of module versions,
// vendors and builds: hack/consumer.sh checks that, and that imports.go
// imports every public package of drakit.
package consumer

import (
	"fmt"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	_ "k8s.io/dynamic-resource-allocation/resourceslice"
	"k8s.io/dynamic-resource-allocation/structured"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/generated/clientset/versioned"
	"github.com/drakit/drakit/hubclient"
)

// Clients are the clients a driver holds.
type Clients struct {
	// Kube is client-go's clientset.
	Kube kubernetes.Interface
	// DRA is drakit's clientset of resource.k8s.io v1alpha1 to v1alpha3.
	DRA versioned.Interface
}

// NewClients makes both clientsets from one rest.Config. It does not
// contact the server.
func NewClients(cfg *rest.Config) (*Clients, error) {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("client-go clientset: %w", err)
	}
	dra, err := versioned.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("drakit clientset: %w", err)
	}
	return &Clients{Kube: kube, DRA: dra}, nil
}

// Hub returns drakit's hub client on both clientsets, negotiating the
// served version through the discovery client of client-go's clientset.
func (c *Clients) Hub(opts hubclient.Options) (*hubclient.Client, error) {
	return hubclient.New(hubclient.Clientsets{Kube: c.Kube, Drakit: c.DRA}, c.Kube.Discovery(), opts)
}

// DeviceIDs names the devices of a drakit allocation result as upstream's
// allocator does.
func DeviceIDs(result *resource.AllocationResult) []structured.DeviceID {
	if result == nil {
		return nil
	}
	ids := make([]structured.DeviceID, 0, len(result.Devices.Results))
	for _, r := range result.Devices.Results {
		ids = append(ids, structured.MakeDeviceID(r.Driver, r.Pool, r.Device))
	}
	return ids
}
