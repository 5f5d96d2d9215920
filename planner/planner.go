package planner

import (
	"context"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
)

// Cluster is what planning starts from: a cluster in files or read live.
type Cluster struct {
	// Objects are the DeviceClasses, ResourceSlices, DeviceTaintRules,
	// ResourceClaims (allocated ones hold their devices) and
	// ResourceClaimTemplates, in any version, typed or unstructured.
	Objects []runtime.Object
	// Pods are the pods: those with spec.nodeName hold their claims'
	// devices and their requests on their node; the others are pending,
	// to be placed in the order of the scheduler's queue.
	Pods []*corev1.Pod
	// Nodes are the cluster's nodes, in the order the placement tries
	// them; nodes of groups come after them.
	Nodes []*corev1.Node
	// Features are the scheduler's (nil: a 1.37 scheduler's defaults).
	Features *allocator.Features
	// PodTimeout bounds each pod's search (allocator.PodOptions).
	PodTimeout time.Duration
}

// Add is a number of nodes of a group to add.
type Add struct {
	Group *Group
	Count int
}

// Placement is the placement of a cluster with nodes added.
type Placement struct {
	*allocator.Placement
	// Added are the nodes added, in order, after the cluster's.
	Added []*corev1.Node
	// GroupOf names the group of each added node, by node name.
	GroupOf map[string]string
}

// Place adds the nodes of the groups to the cluster (each group's nodes
// from index 0, groups in the order given) and places the pods: which
// pending pods fit and where.
func Place(ctx context.Context, c *Cluster, adds []Add) (*Placement, error) {
	objs := slices.Clone(c.Objects)
	nodes := slices.Clone(c.Nodes)
	out := &Placement{GroupOf: map[string]string{}}
	for _, a := range adds {
		for i := range a.Count {
			n := a.Group.Node(i)
			out.Added = append(out.Added, n)
			out.GroupOf[n.Name] = a.Group.Name
			for _, s := range a.Group.NodeSlices(i) {
				objs = append(objs, s)
			}
		}
	}
	nodes = append(nodes, out.Added...)
	objs = append(objs, podObjects(c.Pods)...)
	p, err := allocator.PlacePods(ctx, objs, allocator.ObjectOptions{Nodes: nodes, Features: c.Features}, c.podOptions())
	if err != nil {
		return nil, err
	}
	out.Placement = p
	return out, nil
}

func podObjects(pods []*corev1.Pod) []runtime.Object {
	out := make([]runtime.Object, len(pods))
	for i, p := range pods {
		out[i] = p
	}
	return out
}

func (c *Cluster) podOptions() allocator.PodOptions {
	return allocator.PodOptions{PodTimeout: c.PodTimeout}
}

// kindOf is the kind of a resource.k8s.io object, typed or unstructured.
func kindOf(obj runtime.Object) string {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return u.GetKind()
	}
	gvks, _, err := conversion.Scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		return ""
	}
	return gvks[0].Kind
}

// pendingNames are the names ("namespace/name") of the pending pods.
func pendingNames(pods []*corev1.Pod) []string {
	var out []string
	for _, p := range pods {
		if p.Spec.NodeName == "" {
			out = append(out, p.Namespace+"/"+p.Name)
		}
	}
	return out
}

// reachesNewNodes reports whether a slice of the cluster may offer
// devices to a node of the group: a slice for all nodes, with devices
// that select nodes themselves, or whose node selector matches the
// group's first node. Then what pods take on the group's nodes is taken
// from what other nodes see too, and placement is not monotone in the
// number of nodes added (see doc.go).
func reachesNewNodes(objs []runtime.Object, g *Group) (bool, error) {
	node := g.Node(0)
	for _, obj := range objs {
		if kindOf(obj) != "ResourceSlice" {
			continue
		}
		s, err := toHubSlice(obj)
		if err != nil {
			return false, err
		}
		switch {
		case s.Spec.AllNodes != nil && *s.Spec.AllNodes:
			return true, nil
		case s.Spec.PerDeviceNodeSelection != nil && *s.Spec.PerDeviceNodeSelection:
			return true, nil
		case s.Spec.NodeSelector != nil:
			sel, err := nodeaffinity.NewNodeSelector(s.Spec.NodeSelector)
			if err != nil || sel.Match(node) {
				return true, nil
			}
		}
	}
	return false, nil
}

func toHubSlice(obj runtime.Object) (*resource.ResourceSlice, error) {
	if s, ok := obj.(*resource.ResourceSlice); ok {
		return s, nil
	}
	typed := obj
	if u, ok := obj.(*unstructured.Unstructured); ok {
		t, err := conversion.Scheme.New(u.GroupVersionKind())
		if err != nil {
			return nil, err
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, t); err != nil {
			return nil, fmt.Errorf("ResourceSlice %q: %w", u.GetName(), err)
		}
		typed = t
	}
	hub, err := conversion.ToHub(typed)
	if err != nil {
		return nil, err
	}
	s, ok := hub.(*resource.ResourceSlice)
	if !ok {
		return nil, fmt.Errorf("%T is not a ResourceSlice", hub)
	}
	return s, nil
}
