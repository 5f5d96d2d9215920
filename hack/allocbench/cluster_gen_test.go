package allocbench

import (
	"os"
	"testing"
)

// TestWriteClusterFile writes a cluster export to ALLOCBENCH_CLUSTER_OUT
// (for trying drakit by hand); skipped without it.
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
	c := SyntheticCluster(ClusterSpec{Nodes: envInt("ALLOCBENCH_CLUSTER_NODES", 5000), GPUsPerNode: 8, Pods: envInt("ALLOCBENCH_CLUSTER_PODS", 10000)})
	if err := c.WriteYAML(f); err != nil {
		t.Fatal(err)
	}
}
