package allocator

import (
	"context"
	"fmt"
	"testing"

	"github.com/drakit/drakit/apis/resource"
)

func TestCommitSharesAndUncommit(t *testing.T) {
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), nic("nic0"))}, Node: node("n1")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	big := []*resource.ResourceClaim{claim("big", exact("r", "gpu", bandwidth("6")))}     // 7 of 10
	small := []*resource.ResourceClaim{claim("small", exact("r", "gpu", bandwidth("2")))} // 3 of 10
	first, err := a.Allocate(ctx, big)
	if err != nil || first[0].Err != nil {
		t.Fatal(err, first[0].Err)
	}
	a.Commit(first)
	if a.IsAllocated(DeviceID{drv, "n1", "nic0"}) {
		t.Fatal("a committed share holds the whole device")
	}
	second, _ := a.Allocate(ctx, small)
	if second[0].Err != nil {
		t.Fatalf("a share of 3 next to one of 7: %v", second[0].Err)
	}
	a.Commit(second)
	if res, _ := a.Allocate(ctx, small); !IsReason(res[0].Err, ReasonNotEnough) {
		t.Fatalf("a third share beyond the capacity: %v", res[0].Err)
	}
	a.Uncommit(first)
	res, _ := a.Allocate(ctx, big)
	if res[0].Err != nil {
		t.Fatalf("after uncommitting the share of 7: %v", res[0].Err)
	}
	a.Uncommit(second)
	a.Uncommit(second) // uncommitting twice changes nothing
	a.Commit(res)
	if res, _ := a.Allocate(ctx, small); res[0].Err != nil {
		t.Fatalf("3 next to 7 again: %v", res[0].Err)
	}
}

// impossibleCounters is a pool of n partitions that each consume 1 of a
// counter of 8.
func impossibleCounters(n int) []*resource.ResourceSlice {
	counters := counterSlice("counters", "8")
	var amounts []string
	for i := 0; i < n; i++ {
		amounts = append(amounts, "1")
	}
	return []*resource.ResourceSlice{counters, partitions("parts", amounts...)}
}

func TestImpossibleCountersAreRefutedWithoutSearch(t *testing.T) {
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: impossibleCounters(1000), Node: node("n1")})
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Allocate(context.Background(), []*resource.ResourceClaim{claim("c", req("r", "gpu", count(9)))})
	if err != nil || !IsReason(res[0].Err, ReasonNotEnough) {
		t.Fatal(err, res[0].Err)
	}
	if s := a.Stats().SearchSteps; s > 0 {
		t.Errorf("%d search steps for 9 devices where the counters hold 8", s)
	}
	res, _ = a.Allocate(context.Background(), []*resource.ResourceClaim{claim("c", req("r", "gpu", count(8)))})
	if res[0].Err != nil {
		t.Fatalf("8 devices: %v", res[0].Err)
	}
}

// BenchmarkImpossibleCounters1000 refutes a request for 9 partitions of a
// counter that holds 8, among 1,000 partitions (target: well under 10ms).
func BenchmarkImpossibleCounters1000(b *testing.B) {
	a, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Slices: impossibleCounters(1000), Node: node("n1")})
	if err != nil {
		b.Fatal(err)
	}
	claims := []*resource.ResourceClaim{claim("c", req("r", "gpu", count(9)))}
	for i := 0; i < b.N; i++ {
		res, err := a.Allocate(context.Background(), claims)
		if err != nil || res[0].Err == nil {
			b.Fatal(err, res[0].Err)
		}
	}
}

func TestAllocateObjectsWithDeviceTaintRules(t *testing.T) {
	const docs = `
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n1-gpu}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
  - name: gpu-1
---
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: maintenance}
spec:
  deviceSelector: {driver: gpu.example.com, device: gpu-0}
  taint: {key: maintenance, effect: NoSchedule}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu}
`
	for _, typed := range []bool{true, false} {
		for _, rules := range []bool{true, false} {
			f := DefaultFeatures()
			f.DeviceTaintRules = rules
			out, err := AllocateObjects(context.Background(), decodeAll(t, docs, typed), ObjectOptions{Node: node("n1"), Features: &f})
			if err != nil {
				t.Fatal(err)
			}
			want := "gpu-0"
			if rules {
				want = "gpu-1"
			}
			if out[0].Err != nil || out[0].Result.Allocation.Devices.Results[0].Device != want {
				t.Errorf("typed %v, DeviceTaintRules %v: %v %v, want %s", typed, rules, out[0].Err, fmt.Sprint(out[0].Result.Allocation), want)
			}
		}
	}
}
