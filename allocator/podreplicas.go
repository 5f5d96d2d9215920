package allocator

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// Replicas is what PlaceReplicas found: how many more copies of a pod fit.
type Replicas struct {
	// Placed are the copies placed, in order; each names its node.
	Placed []PodResult
	// Stopped is the first copy that was not placed (it found no node,
	// waits for a claim, or the scheduler fails it with an error), nil
	// when Max copies were placed.
	Stopped *PodResult
	// PerNode counts the copies placed on each node, by name.
	PerNode map[string]int
}

// PlaceReplicas places the objects as PlacePods does, then copies of
// replica, one after the other, until a copy is not placed or max copies
// are: how many more of the pod fit once the queue is empty. Each copy is
// a pending pod named "<name>-replica-<i>" (i from 1) with a UID of its
// own, so that its templates make claims of its own, while a claim it
// names (resourceClaimName) is shared by every copy. Copies are of one
// kind, and nodes only fill up: once a copy finds no node, none after it
// would, so the count is exact: max aside, placing len(Placed)+1 copies
// fails. max must be positive.
func PlaceReplicas(ctx context.Context, objs []runtime.Object, replica *corev1.Pod, max int, opts ObjectOptions, podOpts PodOptions) (*Placement, *Replicas, error) {
	if replica == nil {
		return nil, nil, fmt.Errorf("no pod to replicate")
	}
	if max <= 0 {
		return nil, nil, fmt.Errorf("the most replicas to place must be positive, not %d", max)
	}
	split, err := splitPodObjects(objs)
	if err != nil {
		return nil, nil, err
	}
	in, err := hubObjects(split.rest)
	if err != nil {
		return nil, nil, err
	}
	in.taintRules = append(in.taintRules, opts.DeviceTaintRules...)
	p, err := newPodPlacer(in, split, opts, podOpts)
	if err != nil {
		return nil, nil, err
	}
	if err := p.placeAll(ctx); err != nil {
		return nil, nil, err
	}
	given := len(p.pods)
	out := &Replicas{PerNode: map[string]int{}}
	for i := 1; i <= max; i++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		pod := replicaOf(replica, i)
		p.pods = append(p.pods, pod)
		p.results = append(p.results, PodResult{Name: pod.Namespace + "/" + pod.Name, Pod: pod})
		k := len(p.results) - 1
		if err := p.place(ctx, k); err != nil {
			return nil, nil, err
		}
		r := p.results[k]
		if r.Node == "" {
			out.Stopped = &r
			break
		}
		out.Placed = append(out.Placed, r)
		out.PerNode[r.Node]++
	}
	placement, err := p.placement()
	if err != nil {
		return nil, nil, err
	}
	// The copies are Replicas' answer, not pods of the input.
	placement.Pods = placement.Pods[:given]
	return placement, out, nil
}

// replicaOf is the i-th copy of the pod: pending, with a name and UID of
// its own and none of the status the original's claims gave it.
func replicaOf(pod *corev1.Pod, i int) *corev1.Pod {
	c := pod.DeepCopy()
	c.Name = fmt.Sprintf("%s-replica-%d", pod.Name, i)
	base := string(pod.UID)
	if base == "" {
		base = pod.Namespace + "/" + pod.Name
	}
	c.UID = types.UID(fmt.Sprintf("%s-replica-%d", base, i))
	c.Spec.NodeName = ""
	c.Status = corev1.PodStatus{}
	c.ResourceVersion = ""
	return c
}
