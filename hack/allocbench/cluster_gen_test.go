package allocbench

import (
	"context"
	"os"
	"testing"

	"github.com/drakit/drakit/allocator"
)

// TestWriteClusterFile writes a cluster export to ALLOCBENCH_CLUSTER_OUT
// (for trying drakit by hand): ALLOCBENCH_CLUSTER_SHAPE (a shape of
// BenchmarkPods, default one-model) of ALLOCBENCH_CLUSTER_NODES nodes and
// ALLOCBENCH_CLUSTER_PODS pods; skipped without it.
func TestWriteClusterFile(t *testing.T) {
	out := os.Getenv("ALLOCBENCH_CLUSTER_OUT")
	if out == "" {
		t.Skip("ALLOCBENCH_CLUSTER_OUT not set")
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	shape := os.Getenv("ALLOCBENCH_CLUSTER_SHAPE")
	if shape == "" {
		shape = clusterShapes[0].name
	}
	var build func(ClusterSpec) *Cluster
	for _, s := range clusterShapes {
		if s.name == shape {
			build = s.make
		}
	}
	if build == nil {
		t.Fatalf("ALLOCBENCH_CLUSTER_SHAPE=%q: not a shape of BenchmarkPods", shape)
	}
	c := build(ClusterSpec{Nodes: envInt("ALLOCBENCH_CLUSTER_NODES", 5000), GPUsPerNode: 8, Pods: envInt("ALLOCBENCH_CLUSTER_PODS", 10000)})
	if err := c.WriteYAML(f); err != nil {
		t.Fatal(err)
	}
}

// TestClusterShapes runs every shape of BenchmarkPods at a small size
// through the pods differential (every pod checked against upstream's
// allocator in the scheduler's loop), and holds two-models to its promise
// that every pod is placed.
func TestClusterShapes(t *testing.T) {
	for _, shape := range clusterShapes {
		t.Run(shape.name, func(t *testing.T) {
			c := shape.make(ClusterSpec{Nodes: 120, GPUsPerNode: 8, Pods: 240})
			cmp, err := compareLoops(context.Background(), c, allocator.DefaultFeatures(), 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range cmp.mismatches {
				t.Error(m)
			}
			placed, err := drakitPlacement(context.Background(), c, allocator.DefaultFeatures())
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, p := range placed.Pods {
				if p.Node != "" {
					n++
				}
			}
			if shape.name == "two-models" && n != len(c.Pods) {
				t.Errorf("%d of %d pods placed, want all", n, len(c.Pods))
			}
			if n == 0 {
				t.Errorf("no pod placed")
			}
		})
	}
}
