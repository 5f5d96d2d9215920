package poolstatus

import (
	"context"
	"fmt"
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/testobjects"
)

// largeCluster is nodes nodes, each with a pool of 8 GPUs (every fourth
// node's GPU partitionable instead: a counter slice and 8 partitions of
// one card), and a NIC shared by consumable bandwidth; half the GPUs and
// partitions are allocated, one claim per device, and every NIC has two
// shares.
func largeCluster(nodes int) Input {
	var in Input
	yes := true
	for n := range nodes {
		node := fmt.Sprintf("node-%05d", n)
		if n%4 == 0 {
			counters := testobjects.PoolSlice(node+"-counters", gpu, node, 1, 2, testobjects.OnNode(node))
			counters.Spec.SharedCounters = []resource.CounterSet{{Name: "gpu-0", Counters: map[string]resource.Counter{"memory": {Value: apiresource.MustParse("80Gi")}}}}
			var devs []resource.Device
			for i := range 8 {
				devs = append(devs, partition(fmt.Sprintf("gpu-0-part-%d", i), "eighth", "10Gi"))
			}
			in.Slices = append(in.Slices, counters, testobjects.PoolSlice(node+"-gpus", gpu, node, 1, 2, testobjects.OnNode(node), devs...))
			for i := range 4 {
				in.Claims = append(in.Claims, testobjects.Allocated(fmt.Sprintf("%s-%d", node, i), fmt.Sprintf("%s/%s/gpu-0-part-%d", gpu, node, i)))
			}
		} else {
			in.Slices = append(in.Slices, testobjects.Slice(node+"-gpus", gpu, node, testobjects.OnNode(node), testobjects.GPUs(8, func(i int) int { return i / 4 })...))
			for i := range 4 {
				in.Claims = append(in.Claims, testobjects.Allocated(fmt.Sprintf("%s-%d", node, i), fmt.Sprintf("%s/%s/gpu%d", gpu, node, i)))
			}
		}
		nic := testobjects.Device("nic-0", testobjects.Attr("bandwidth", apiresource.MustParse("100G")))
		nic.AllowMultipleAllocations = &yes
		in.Slices = append(in.Slices, testobjects.Slice(node+"-nic", "nic.example.com", node, testobjects.OnNode(node), nic))
		for i := range 2 {
			c := testobjects.Allocated(fmt.Sprintf("%s-nic-%d", node, i), "nic.example.com/"+node+"/nic-0")
			id := types.UID(fmt.Sprintf("00000000-0000-0000-0000-%012d", n*2+i))
			c.Status.Allocation.Devices.Results[0].ShareID = &id
			c.Status.Allocation.Devices.Results[0].ConsumedCapacity = map[resource.QualifiedName]apiresource.Quantity{"bandwidth": apiresource.MustParse("30G")}
			in.Claims = append(in.Claims, c)
		}
	}
	return in
}

// BenchmarkCompute5000Nodes: the utilization of a 5,000-node cluster
// (45,000 devices, 30,000 allocated claims); the bound is 1 s per
// operation.
func BenchmarkCompute5000Nodes(b *testing.B) {
	in := largeCluster(5000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r := Compute(in)
		if len(r.Nodes) != 5000 || r.Nodes[0].Devices.InUse != 5 {
			b.Fatalf("%d nodes, node 0: %+v", len(r.Nodes), r.Nodes[0].Devices)
		}
	}
}

// TestLargeClusterCounts checks the counts the benchmark relies on, on a
// few nodes: node 0 is partitionable (4 of 8 partitions in use, 40Gi of
// 80Gi left, the other 4 free), node 1 has 8 GPUs (4 in use); each NIC is
// in use with 40G of 100G left.
func TestLargeClusterCounts(t *testing.T) {
	r := Compute(largeCluster(4))
	var got []string
	for _, n := range r.Nodes {
		got = append(got, fmt.Sprintf("%s %d/%d/%d", n.Name, n.Devices.InUse, n.Devices.Free, n.Devices.Total))
	}
	want := "[node-00000 5/4/9 node-00001 5/4/9 node-00002 5/4/9 node-00003 5/4/9]"
	if fmt.Sprint(got) != want {
		t.Errorf("nodes %v, want %s", got, want)
	}
	for _, p := range r.Pools {
		if p.Driver == "nic.example.com" && (len(p.Shared) != 1 || p.Shared[0].Left.String() != "40G") {
			t.Errorf("%s: shared %+v", p.Name, p.Shared)
		}
		if p.Name == "node-00000" && p.Driver == gpu && (len(p.Counters) != 1 || p.Counters[0].Left.String() != "40Gi") {
			t.Errorf("counters %+v", p.Counters)
		}
	}
}

// BenchmarkLint5000Nodes: the lint of largeCluster's slices against three
// classes: one matches every GPU and partition, one reads numa, which the
// partitions lack (it fails on 10,000), one reads profile without checking
// the driver (it fails on the 30,000 whole GPUs and the 5,000 NICs).
func BenchmarkLint5000Nodes(b *testing.B) {
	in := largeCluster(5000)
	classes := []*resource.DeviceClass{
		testobjects.Class("gpu", `device.driver == "gpu.example.com"`),
		testobjects.Class("numa0", `device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].numa == 0`),
		testobjects.Class("by-profile", `device.attributes["gpu.example.com"].profile == "eighth"`),
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r := Lint(context.Background(), LintInput{Slices: in.Slices, Classes: classes})
		if r.Errors() != 2 || r.Classes[0].Failed != 35000 || r.Classes[1].Matched != 40000 || r.Classes[2].Failed != 10000 {
			b.Fatalf("%d errors, %+v", r.Errors(), r.Classes)
		}
	}
}
