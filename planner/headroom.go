package planner

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/drakit/drakit/allocator"
)

// Headroom is how many more replicas of a pod fit.
type Headroom struct {
	// Total is the number of replicas that fit; one more does not
	// (unless Capped).
	Total int `json:"total"`
	// PerNode counts them per node, in the order of the cluster's nodes
	// (nodes that take none left out).
	PerNode []NodeCount `json:"perNode,omitempty"`
	// Capped is set when the search stopped at the most replicas asked
	// for, not at a replica that found no node.
	Capped bool `json:"capped,omitempty"`
	// Stopped is the scheduler's message for the first replica that
	// found no node (or why it waits, or its error).
	Stopped string `json:"stopped,omitempty"`
}

// NodeCount is how many replicas go to a node.
type NodeCount struct {
	Node     string `json:"node"`
	Replicas int    `json:"replicas"`
}

// PodFromTemplate is a pod of a core/v1 PodTemplate: its template's
// metadata and spec, in the template's namespace, named after it. Its
// claims from ResourceClaimTemplates are made per replica as the
// resourceclaim controller makes them, before any pod exists.
func PodFromTemplate(t *corev1.PodTemplate) *corev1.Pod {
	pod := &corev1.Pod{ObjectMeta: *t.Template.ObjectMeta.DeepCopy(), Spec: *t.Template.Spec.DeepCopy()}
	pod.APIVersion, pod.Kind = "v1", "Pod"
	pod.Namespace = t.Namespace
	if pod.Name == "" {
		pod.Name = t.Name
	}
	if pod.UID == "" {
		pod.UID = t.UID
	}
	return pod
}

// MakeHeadroom places the cluster's pods (the pending ones first, in the
// scheduler's queue order: they are ahead in the queue), then replicas
// of the pod until one finds no node, at most max of them: how many more
// of the pod fit now, per node and in total. Placing exactly Total
// replicas after the cluster's pods places them all, and Total+1 leaves
// one unplaced.
func MakeHeadroom(ctx context.Context, c *Cluster, pod *corev1.Pod, max int) (*Headroom, error) {
	if pod == nil {
		return nil, fmt.Errorf("no pod to replicate")
	}
	objs := append(c.Objects[:len(c.Objects):len(c.Objects)], podObjects(c.Pods)...)
	_, reps, err := allocator.PlaceReplicas(ctx, objs, pod, max, allocator.ObjectOptions{Nodes: c.Nodes, Features: c.Features}, c.podOptions())
	if err != nil {
		return nil, err
	}
	h := &Headroom{Total: len(reps.Placed), Capped: reps.Stopped == nil}
	if reps.Stopped != nil {
		h.Stopped = messageOf(*reps.Stopped)
	}
	seen := map[string]bool{}
	for _, n := range c.Nodes {
		if k := reps.PerNode[n.Name]; k > 0 && !seen[n.Name] {
			seen[n.Name] = true
			h.PerNode = append(h.PerNode, NodeCount{n.Name, k})
		}
	}
	return h, nil
}
