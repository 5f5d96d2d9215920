package allocbench

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"

	"github.com/drakit/drakit/allocator"
)

// TestPodsDifferential places the pods of random small clusters with
// drakit (allocator.PlacePods) and checks every scheduling decision
// against upstream's allocator in the scheduler's loop (compareLoops with
// every pod sampled): given the state drakit's placement had before a
// pod, upstream must pick the same node, or none when drakit found none.
// Clusters: 1-8 nodes with 0-4 GPUs of two models on two NUMA nodes,
// zone labels, taints and cordoned nodes; templates asking for 1-3 GPUs,
// some by model, some on one NUMA node; pods with priorities, zone
// selectors and tolerations, some sharing a claim. Claims are made from
// templates on both sides with the template's spec.
// ALLOCBENCH_PODS_DIFF (default 300) clusters, seeds from
// ALLOCBENCH_DIFF_SEED.
func TestPodsDifferential(t *testing.T) {
	n := envInt("ALLOCBENCH_PODS_DIFF", 300)
	seed := envInt("ALLOCBENCH_DIFF_SEED", 1)
	pods, placedPods, aborts := 0, 0, 0
	for i := 0; i < n; i++ {
		c := RandomCluster(rand.New(rand.NewSource(int64(seed + i))))
		cmp, err := compareLoops(context.Background(), c, allocator.DefaultFeatures(), 1)
		if err != nil {
			t.Fatalf("cluster seed %d: %v", seed+i, err)
		}
		for _, m := range cmp.mismatches {
			t.Errorf("cluster seed %d: %s", seed+i, m)
		}
		aborts += cmp.aborts
		pods += len(c.Pods)
		placed, _ := drakitPlacement(context.Background(), c, allocator.DefaultFeatures())
		for _, p := range placed.Pods {
			if p.Node != "" {
				placedPods++
			}
		}
	}
	// The clusters must not be trivial: some pods fit, some do not, and
	// some make upstream's filter end the cycle with an error.
	if placedPods == 0 || placedPods == pods || n >= 100 && aborts == 0 {
		t.Errorf("%d of %d pods placed, %d scheduling errors: the random clusters test nothing", placedPods, pods, aborts)
	}
	t.Logf("%d clusters, %d pods, %d placed, %d scheduling errors", n, pods, placedPods, aborts)
}

// RandomCluster makes a small random cluster (see TestPodsDifferential).
func RandomCluster(rng *rand.Rand) *Cluster {
	c := &Cluster{Classes: []*resourceapi.DeviceClass{gpuClass()}}
	models := []string{"H100", "A100"}
	for i := 0; i < 1+rng.Intn(8); i++ {
		name := fmt.Sprintf("n%d", i)
		node := clusterNode(name, map[string]string{"zone": fmt.Sprintf("z%d", rng.Intn(2))})
		if rng.Intn(5) == 0 {
			node.Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "x", Effect: []corev1.TaintEffect{corev1.TaintEffectNoSchedule, corev1.TaintEffectNoExecute, corev1.TaintEffectPreferNoSchedule}[rng.Intn(3)]}}
		}
		node.Spec.Unschedulable = rng.Intn(8) == 0
		c.Nodes = append(c.Nodes, node)
		if gpus := rng.Intn(5); gpus > 0 {
			model := models[rng.Intn(2)]
			c.Slices = append(c.Slices, gpuSlice(name, gpus, func(d int) (string, int64) { return model, int64(d % 2) }))
		}
	}
	for i := 0; i < 1+rng.Intn(3); i++ {
		selector := ""
		if rng.Intn(2) == 0 {
			selector = fmt.Sprintf(`device.attributes["gpu.example.com"].model == %q`, models[rng.Intn(2)])
		}
		claim := deviceClaim(gpuRequest("gpus", int64(1+rng.Intn(3)), selector))
		if rng.Intn(2) == 0 {
			claim = numa(claim)
		}
		if rng.Intn(4) == 0 {
			// Every GPU of a model besides, on the same NUMA node: where
			// upstream's first choice for "gpus" disagrees with them, its
			// filter ends the cycle with an error (drakit: SchedulerError).
			all := gpuRequest("rest", 0, fmt.Sprintf(`device.attributes["gpu.example.com"].model == %q`, models[rng.Intn(2)]))
			all.Exactly.AllocationMode, all.Exactly.Count = resourceapi.DeviceAllocationModeAll, 0
			claim.Requests = append(claim.Requests, all)
			if len(claim.Constraints) == 0 {
				claim = numa(claim)
			}
		}
		c.Templates = append(c.Templates, template(fmt.Sprintf("t%d", i), claim))
	}
	if rng.Intn(3) == 0 {
		shared := &resourceapi.ResourceClaim{Spec: resourceapi.ResourceClaimSpec{Devices: deviceClaim(gpuRequest("gpu", 1, ""))}}
		shared.Name, shared.Namespace = "shared", "ml"
		shared.APIVersion, shared.Kind = "resource.k8s.io/v1", "ResourceClaim"
		c.Claims = append(c.Claims, shared)
	}
	for i := 0; i < 1+rng.Intn(12); i++ {
		pod := clusterPod(i, c.Templates[rng.Intn(len(c.Templates))].Name)
		if rng.Intn(4) == 0 {
			pod.Spec.Priority = ptrTo(int32(rng.Intn(3)))
		}
		if rng.Intn(4) == 0 {
			pod.Spec.NodeSelector = map[string]string{"zone": fmt.Sprintf("z%d", rng.Intn(2))}
		}
		if rng.Intn(3) == 0 {
			pod.Spec.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpExists}}
		}
		if len(c.Claims) > 0 && rng.Intn(3) == 0 {
			pod.Spec.ResourceClaims = append(pod.Spec.ResourceClaims, corev1.PodResourceClaim{Name: "shared", ResourceClaimName: ptrTo("shared")})
		}
		c.Pods = append(c.Pods, pod)
	}
	return c
}

// TestRandomClusterVaries guards the generator: clusters differ by seed.
func TestRandomClusterVaries(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		c := RandomCluster(rand.New(rand.NewSource(int64(i))))
		var b strings.Builder
		_ = c.WriteYAML(&b)
		seen[b.String()] = true
	}
	if len(seen) < 15 {
		t.Errorf("only %d different clusters of 20", len(seen))
	}
}
