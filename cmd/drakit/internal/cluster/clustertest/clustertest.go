// Package clustertest makes fake clusters for the tests of drakit's
// cluster commands: client-go's and drakit's fake clientsets behind a
// fake discovery that serves the resource.k8s.io version of a release,
// filled with hub objects through hubclient (so they are stored in that
// version, as on a real cluster) and core objects as they are.
package clustertest

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/version"
	fakediscovery "k8s.io/client-go/discovery/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/generated/clientset/versioned/fake"
	"github.com/drakit/drakit/hubclient"
)

// Fake is a fake cluster and the clientsets behind it.
type Fake struct {
	*cluster.Cluster
	Kube  *kubefake.Clientset
	Own   *fake.Clientset
	Where string
}

// New is a fake cluster serving resource.k8s.io in the given versions
// (v1alpha2 for 1.30, v1alpha3 for 1.31-1.33, v1beta1 and v1beta2 too
// when enabled, v1 for 1.34 and later), each with every kind the
// catalogue lists for it. Its server says it is v1.37.2 (SetServerVersion
// changes that).
func New(versions ...string) (*Fake, error) {
	kube, own := kubefake.NewClientset(), fake.NewClientset()
	disc := own.Discovery().(*fakediscovery.FakeDiscovery)
	for _, version := range versions {
		v, err := catalogue.Lookup(version)
		if err != nil {
			return nil, err
		}
		l := &metav1.APIResourceList{GroupVersion: resource.GroupName + "/" + version}
		for _, k := range v.Kinds {
			l.APIResources = append(l.APIResources, metav1.APIResource{Name: k.Resource, Kind: k.Name, Namespaced: k.Namespaced})
			if k.Status {
				l.APIResources = append(l.APIResources, metav1.APIResource{Name: k.Resource + "/status", Kind: k.Name, Namespaced: true})
			}
		}
		disc.Resources = append(disc.Resources, l)
	}
	hub, err := hubclient.New(hubclient.Clientsets{Kube: kube, Drakit: own}, disc, hubclient.Options{})
	if err != nil {
		return nil, err
	}
	where := "the API server at https://fake:6443 (context fake)"
	kube.Discovery().(*fakediscovery.FakeDiscovery).FakedServerVersion = &version.Info{Major: "1", Minor: "37", GitVersion: "v1.37.2"}
	return &Fake{Cluster: cluster.New(hub, kube, "default", where), Kube: kube, Own: own, Where: where}, nil
}

// Load decodes YAML documents (hub kinds in the API's field names with
// apiVersion resource.k8s.io/v1, and core/v1 Nodes, Pods and Namespaces)
// and stores them. A claim's status is written as the scheduler writes it.
// Documents of a kind the cluster does not serve are skipped, and their
// kinds returned.
func (f *Fake) Load(docs string) (skipped []string, err error) {
	ctx := context.Background()
	for i, doc := range strings.Split(docs, "\n---\n") {
		if strings.TrimSpace(doc) == "" {
			continue
		}
		var head metav1.TypeMeta
		if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		if _, served := f.Hub.VersionFor(head.Kind); !served && head.APIVersion != "v1" {
			skipped = append(skipped, head.Kind)
			continue
		}
		if err := f.store(ctx, head.Kind, []byte(doc)); err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i+1, head.Kind, err)
		}
	}
	return skipped, nil
}

func (f *Fake) store(ctx context.Context, kind string, doc []byte) error {
	create := metav1.CreateOptions{}
	switch kind {
	case "Node", "Pod", "Namespace":
		var obj runtime.Object
		switch kind {
		case "Node":
			obj = &corev1.Node{}
		case "Pod":
			obj = &corev1.Pod{}
		default:
			obj = &corev1.Namespace{}
		}
		if err := yaml.UnmarshalStrict(doc, obj); err != nil {
			return err
		}
		return f.Kube.Tracker().Add(obj)
	case "DeviceClass":
		return decodeAndCreate(doc, func(o *resource.DeviceClass) error {
			_, err := f.Hub.DeviceClasses().Create(ctx, o, create)
			return err
		})
	case "ResourceSlice":
		return decodeAndCreate(doc, func(o *resource.ResourceSlice) error {
			_, err := f.Hub.ResourceSlices().Create(ctx, o, create)
			return err
		})
	case "DeviceTaintRule":
		return decodeAndCreate(doc, func(o *resource.DeviceTaintRule) error {
			_, err := f.Hub.DeviceTaintRules().Create(ctx, o, create)
			return err
		})
	case "ResourceClaimTemplate":
		return decodeAndCreate(doc, func(o *resource.ResourceClaimTemplate) error {
			_, err := f.Hub.ResourceClaimTemplates(o.Namespace).Create(ctx, o, create)
			return err
		})
	case "ResourceClaim":
		return decodeAndCreate(doc, func(o *resource.ResourceClaim) error {
			status := o.Status
			stored, err := f.Hub.ResourceClaims(o.Namespace).Create(ctx, o, create)
			if err != nil || status.Allocation == nil && len(status.ReservedFor) == 0 && len(status.Devices) == 0 {
				return err
			}
			stored.Status = status
			_, err = f.Hub.ResourceClaims(o.Namespace).UpdateStatus(ctx, stored, metav1.UpdateOptions{})
			return err
		})
	}
	return fmt.Errorf("clustertest: kind %q is not supported", kind)
}

func decodeAndCreate[T any](doc []byte, create func(T) error) error {
	var obj T
	if err := yaml.UnmarshalStrict(doc, &obj); err != nil {
		return err
	}
	return create(obj)
}

// SetServerVersion makes the server report gitVersion ("v1.30.14").
func (f *Fake) SetServerVersion(gitVersion string) {
	info := &version.Info{GitVersion: gitVersion}
	f.Kube.Discovery().(*fakediscovery.FakeDiscovery).FakedServerVersion = info
}
