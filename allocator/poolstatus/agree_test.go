package poolstatus

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/testobjects"
)

// TestStatesAgreeWithAllocator: on random node-local pools (partitionable
// devices on shared counters, overdrawn ones too, shared devices, taints
// of devices and of DeviceTaintRules, adminAccess results, incomplete and
// invalid pools), a device's state says whether the allocator (the
// scheduler's rules, with the default features) can allocate it to a
// claim that asks for exactly that device: Free ones it can, every other
// one it cannot. A device with shares is left out: another share may or
// may not fit, which its state does not claim. And each shape of
// partition (Pool.Partitions): a claim for Allocatable devices of it is
// allocated, a claim for one more is not.
func TestStatesAgreeWithAllocator(t *testing.T) {
	ctx := context.Background()
	class := testobjects.Class("any")
	probes := map[DeviceState]int{} // and "shape": partition counts checked
	for seed := range 100 {
		rng := rand.New(rand.NewSource(int64(seed)))
		in := randomNodePools(rng)
		r := Compute(in)
		for _, p := range r.Pools {
			for _, d := range p.DeviceList {
				if d.Shares > 0 && d.Shared {
					continue
				}
				id := deviceID(in.Slices, d)
				claim := testobjects.Claim(fmt.Sprintf("probe-%d", id), testobjects.Request("r", "any", testobjects.Selector(fmt.Sprintf(`device.driver == "%s" && device.attributes["%s"].id == %d`, p.Driver, p.Driver, id))))
				a, err := allocator.New(allocator.Options{Classes: []*resource.DeviceClass{class}, Slices: in.Slices, AllocatedClaims: in.Claims, DeviceTaintRules: in.TaintRules, Node: testobjects.Node(d.Node)})
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				res, err := a.Allocate(ctx, []*resource.ResourceClaim{claim})
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				allocated := res[0].Err == nil
				if allocated != (d.State == StateFree) {
					t.Errorf("seed %d: pool %s/%s (%s), device %s: state %s, but the allocator %s", seed, p.Driver, p.Name, p.Rollout, d.Name, d.State, map[bool]string{true: "allocates it", false: fmt.Sprintf("does not: %v", res[0].Err)}[allocated])
				}
				probes[d.State]++
			}
		}
		// Each shape's Allocatable devices fit together, one more does
		// not.
		for _, p := range r.Pools {
			if p.Node == "" {
				continue
			}
			for _, part := range p.Partitions {
				for _, n := range []int32{part.Allocatable, part.Allocatable + 1} {
					if n == 0 {
						continue
					}
					claim := testobjects.Claim("shape", testobjects.Request("r", "any", testobjects.Count(int64(n)), testobjects.Selector(fmt.Sprintf(`device.driver == "%s" && has(device.attributes["%s"].shape) && device.attributes["%s"].shape == "%s"`, p.Driver, p.Driver, p.Driver, part.Type))))
					a, err := allocator.New(allocator.Options{Classes: []*resource.DeviceClass{class}, Slices: in.Slices, AllocatedClaims: in.Claims, DeviceTaintRules: in.TaintRules, Node: testobjects.Node(p.Node)})
					if err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					res, err := a.Allocate(ctx, []*resource.ResourceClaim{claim})
					if err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					if want := n == part.Allocatable; (res[0].Err == nil) != want {
						t.Errorf("seed %d: pool %s/%s, shape %s: %d of %d allocatable, but %d devices: allocated %v (%v)", seed, p.Driver, p.Name, part.Type, part.Allocatable, part.Total, n, res[0].Err == nil, res[0].Err)
					}
					probes["shape"]++
				}
			}
		}
		if t.Failed() {
			break
		}
	}
	for _, s := range []DeviceState{StateFree, StateInUse, StateTainted, StateNoCounters, StateUnusable, "shape"} {
		if probes[s] == 0 {
			t.Errorf("no device in state %s probed: %v", s, probes)
		}
	}
	t.Logf("devices probed by state: %v", probes)
}

// deviceID reads back the id attribute randomNodePools gives every device
// (the first of the name in its slice).
func deviceID(slices []*resource.ResourceSlice, d *Device) int64 {
	for _, s := range slices {
		if s.Name != d.Slice {
			continue
		}
		for _, dev := range s.Spec.Devices {
			if dev.Name == d.Name {
				return *dev.Attributes["id"].IntValue
			}
		}
	}
	panic("no device " + d.Slice + "/" + d.Name)
}

// randomNodePools makes one to three nodes, each with a GPU pool of one or
// two slices (sometimes with shared counters and partitions, sometimes a
// slice short, sometimes a device named twice), a shared NIC, and claims
// holding some devices.
func randomNodePools(rng *rand.Rand) Input {
	var in Input
	yes := true
	next := int64(0)
	var held []string
	for n := range 1 + rng.Intn(3) {
		node := fmt.Sprintf("node-%d", n)
		slices := 1 + rng.Intn(2)
		count := int64(slices)
		if rng.Intn(8) == 0 {
			count++
		}
		partitioned := rng.Intn(2) == 0
		if partitioned {
			// The counters in a slice of their own, as the API wants.
			count++
			sl := testobjects.PoolSlice(node+"-gpu-counters", gpu, node, 1, count, testobjects.OnNode(node))
			sl.Spec.SharedCounters = []resource.CounterSet{{Name: "gpu-0", Counters: map[string]resource.Counter{
				"memory": {Value: *apiresource.NewQuantity(int64(40*(1+rng.Intn(3)))<<30, apiresource.BinarySI)},
				"cores":  {Value: *apiresource.NewQuantity(int64(8*(1+rng.Intn(8))), apiresource.DecimalSI)},
			}}}
			in.Slices = append(in.Slices, sl)
		}
		for s := range slices {
			sl := testobjects.PoolSlice(fmt.Sprintf("%s-gpu-%d", node, s), gpu, node, 1, count, testobjects.OnNode(node))
			for range rng.Intn(5) {
				name := fmt.Sprintf("gpu-%d", next)
				if rng.Intn(40) == 0 && next > 0 {
					name = fmt.Sprintf("gpu-%d", next-1)
				}
				d := testobjects.Device(name, testobjects.Attr("id", next))
				next++
				if partitioned && rng.Intn(4) > 0 {
					counters := map[string]resource.Counter{"memory": {Value: *apiresource.NewQuantity(int64(20*(1+rng.Intn(4)))<<30, apiresource.BinarySI)}}
					if rng.Intn(2) == 0 {
						counters["cores"] = resource.Counter{Value: *apiresource.NewQuantity(int64(4*(1+rng.Intn(8))), apiresource.DecimalSI)}
					}
					d.ConsumesCounters = []resource.DeviceCounterConsumption{{CounterSet: "gpu-0", Counters: counters}}
					// What Partition.Type says, for selectors.
					d.Attributes["shape"] = resource.DeviceAttribute{StringValue: ptrTo(costKey(d.ConsumesCounters))}
				}
				if rng.Intn(6) == 0 {
					d.Taints = []resource.DeviceTaint{{Key: "k", Effect: []resource.DeviceTaintEffect{resource.DeviceTaintEffectNoSchedule, resource.DeviceTaintEffectNoExecute, resource.DeviceTaintEffectNone}[rng.Intn(3)]}}
				}
				sl.Spec.Devices = append(sl.Spec.Devices, d)
				held = append(held, gpu+"/"+node+"/"+name)
			}
			in.Slices = append(in.Slices, sl)
		}
		nic := testobjects.Device("nic-0", testobjects.Attr("id", next), testobjects.Attr("bandwidth", apiresource.MustParse("100G")))
		next++
		nic.AllowMultipleAllocations = &yes
		in.Slices = append(in.Slices, testobjects.Slice(node+"-nic", "nic.example.com", node, testobjects.OnNode(node), nic))
		if rng.Intn(2) == 0 {
			c := testobjects.Allocated(node+"-nic", "nic.example.com/"+node+"/nic-0")
			id := types.UID(fmt.Sprintf("00000000-0000-0000-0000-%012d", n))
			c.Status.Allocation.Devices.Results[0].ShareID = &id
			c.Status.Allocation.Devices.Results[0].ConsumedCapacity = map[resource.QualifiedName]apiresource.Quantity{"bandwidth": apiresource.MustParse("30G")}
			in.Claims = append(in.Claims, c)
		}
	}
	for i := range rng.Intn(len(held) + 1) {
		c := testobjects.Allocated(fmt.Sprintf("c-%d", i), held[rng.Intn(len(held))])
		if rng.Intn(5) == 0 {
			c.Status.Allocation.Devices.Results[0].AdminAccess = &yes
		}
		in.Claims = append(in.Claims, c)
	}
	if rng.Intn(3) == 0 && len(held) > 0 {
		rule := &resource.DeviceTaintRule{}
		rule.Name = "rule"
		rule.Spec.Taint = resource.DeviceTaint{Key: "r", Effect: resource.DeviceTaintEffectNoSchedule}
		driver := gpu
		rule.Spec.DeviceSelector = &resource.DeviceTaintSelector{Driver: &driver}
		if rng.Intn(2) == 0 {
			pool := "node-0"
			rule.Spec.DeviceSelector.Pool = &pool
		}
		in.TaintRules = append(in.TaintRules, rule)
	}
	return in
}

// TestOverdrawnCounters: when the devices in use consume more of one
// counter than it holds (claims allocated before the counters shrank), the
// scheduler adds no device that consumes counters of the pool, even one
// that consumes only another counter.
func TestOverdrawnCounters(t *testing.T) {
	consume := func(d resource.Device, counter, amount string) resource.Device {
		d.ConsumesCounters = []resource.DeviceCounterConsumption{{CounterSet: "gpu-0", Counters: map[string]resource.Counter{counter: {Value: apiresource.MustParse(amount)}}}}
		return d
	}
	counters := testobjects.PoolSlice("counters", gpu, "n", 1, 2, testobjects.OnNode("n"))
	counters.Spec.SharedCounters = []resource.CounterSet{{Name: "gpu-0", Counters: map[string]resource.Counter{"memory": {Value: apiresource.MustParse("40Gi")}, "cores": {Value: apiresource.MustParse("8")}}}}
	devs := testobjects.PoolSlice("devs", gpu, "n", 1, 2, testobjects.OnNode("n"),
		consume(testobjects.Device("a", testobjects.Attr("id", 0)), "memory", "40Gi"),
		consume(testobjects.Device("b", testobjects.Attr("id", 1)), "memory", "40Gi"),
		consume(testobjects.Device("c", testobjects.Attr("id", 2)), "cores", "1"),
		testobjects.Device("d", testobjects.Attr("id", 3)))
	in := Input{Slices: []*resource.ResourceSlice{counters, devs}, Claims: []*resource.ResourceClaim{testobjects.Allocated("x", gpu+"/n/a", gpu+"/n/b")}}
	p := Compute(in).Pools[0]
	if diff := cmpStates(map[string]DeviceState{"a": StateInUse, "b": StateInUse, "c": StateNoCounters, "d": StateFree}, p); diff != "" {
		t.Error(diff)
	}
	if p.Counters[1].Left.String() != "-40Gi" {
		t.Errorf("counters %+v", p.Counters)
	}
	for id, want := range map[int]bool{2: false, 3: true} {
		claim := testobjects.Claim("probe", testobjects.Request("r", "any", testobjects.Selector(fmt.Sprintf(`device.attributes["%s"].id == %d`, gpu, id))))
		a, err := allocator.New(allocator.Options{Classes: []*resource.DeviceClass{testobjects.Class("any")}, Slices: in.Slices, AllocatedClaims: in.Claims, Node: testobjects.Node("n")})
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Allocate(context.Background(), []*resource.ResourceClaim{claim})
		if err != nil || (res[0].Err == nil) != want {
			t.Errorf("device id %d: allocated %v, want %v (%v %v)", id, res[0].Err == nil, want, err, res[0].Err)
		}
	}
}

func cmpStates(want map[string]DeviceState, p *Pool) string {
	got := states(p)
	for k, v := range want {
		if got[k] != v {
			return fmt.Sprintf("states %v, want %v", got, want)
		}
	}
	return ""
}

func ptrTo[T any](v T) *T { return &v }
