package planner

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource"
)

// bigCluster is the size: 5,000 nodes (4,500 without devices, 500
// with 8 GPUs each), 10,000 pending pods (4,000 asking for 8 cpus, 4,000
// for one GPU and 4 cpus, 2,000 for four GPUs and 16 cpus: 12,000 GPUs
// where the cluster has 4,000), and 5 node groups of up to 2,000 nodes.
func bigCluster() (*Cluster, []*Group) {
	c := &Cluster{Objects: []runtime.Object{
		deviceClass("gpu", "gpu.example.com"),
		claimTemplate("one-gpu", "gpu", 1), claimTemplate("four-gpu", "gpu", 4),
	}}
	for i := range 5000 {
		name := fmt.Sprintf("node-%04d", i)
		c.Nodes = append(c.Nodes, sizedNode(name, 64, 110, map[string]string{"pool": "a"}))
		if i%10 == 0 {
			c.Objects = append(c.Objects, gpuSlice(name+"-gpus", name, 8))
		}
	}
	for i := range 10000 {
		var pod *corev1.Pod
		switch i % 5 {
		case 0, 1:
			pod = pendingPod(fmt.Sprintf("cpu-%05d", i), 8, nil, nil, 0)
		case 2, 3:
			pod = pendingPod(fmt.Sprintf("one-%05d", i), 4, []string{"one-gpu"}, nil, 0)
		default:
			pod = pendingPod(fmt.Sprintf("four-%05d", i), 16, []string{"four-gpu"}, nil, 0)
		}
		c.Pods = append(c.Pods, pod)
	}
	var groups []*Group
	for k, gpus := range []int{8, 4, 2, 1, 0} {
		g := &Group{Name: fmt.Sprintf("group-%d", k), MaxSize: 2000, Cost: int64(2000 + 4000*gpus), HasCost: true}
		g.Template = sizedNode("", 64, 110, map[string]string{"pool": "a"})
		if gpus > 0 {
			t := gpuSlice("t", "", gpus)
			t.Spec.Pool = resource.ResourcePool{}
			g.Slices = []*resource.ResourceSlice{t}
		}
		groups = append(groups, g)
	}
	return c, groups
}

// BenchmarkPlan is MakePlan on bigCluster: every group's fewest nodes,
// the cheapest mix and the final placement. The bound: 30 s and
// 2 GiB (measure the peak with /usr/bin/time -v on the test binary).
func BenchmarkPlan(b *testing.B) {
	c, groups := bigCluster()
	b.ResetTimer()
	for range b.N {
		plan, err := MakePlan(context.Background(), c, groups)
		if err != nil {
			b.Fatal(err)
		}
		if !plan.Verified || len(plan.Never) > 0 {
			b.Fatalf("plan not confirmed (%v) or pods left (%d)", plan.Unverified, len(plan.Never))
		}
		b.ReportMetric(float64(len(plan.FitNow)), "fit-now")
		nodes := 0
		for _, c := range plan.Recommended {
			nodes += c.Nodes
		}
		b.ReportMetric(float64(nodes), "nodes-added")
	}
}

// BenchmarkHeadroom is MakeHeadroom of a one-GPU pod on bigCluster's
// nodes, its pending pods left out: 4,000 replicas fit. The issue's
// bound: 5 s.
func BenchmarkHeadroom(b *testing.B) {
	c, _ := bigCluster()
	c.Pods = nil
	pod := pendingPod("web", 4, []string{"one-gpu"}, nil, 0)
	b.ResetTimer()
	for range b.N {
		h, err := MakeHeadroom(context.Background(), c, pod, 1<<20)
		if err != nil {
			b.Fatal(err)
		}
		if h.Total != 4000 {
			b.Fatalf("headroom %d, want 4000", h.Total)
		}
	}
}

// BenchmarkPlanNetworkAttached is BenchmarkPlan with a network-attached
// pool (allNodes) in the cluster: placement is then not known to be
// monotone, and every group is searched by bisection over whole
// placements (doc.go), the slow path.
func BenchmarkPlanNetworkAttached(b *testing.B) {
	c, groups := bigCluster()
	s := &resource.ResourceSlice{}
	s.Name, s.Spec.Driver, s.Spec.AllNodes = "fabric", "nic.example.com", ptr(true)
	s.Spec.Pool = resource.ResourcePool{Name: "fabric", Generation: 1, ResourceSliceCount: 1}
	s.Spec.Devices = []resource.Device{{Name: "nic-0"}}
	c.Objects = append(c.Objects, s)
	b.ResetTimer()
	for range b.N {
		plan, err := MakePlan(context.Background(), c, groups)
		if err != nil {
			b.Fatal(err)
		}
		if plan.Monotone || len(plan.Never) > 0 {
			b.Fatalf("monotone %v, %d pods left", plan.Monotone, len(plan.Never))
		}
	}
}
