package allocbench

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"
	_ "unsafe" // go:linkname

	resourcev1alpha3 "k8s.io/api/resource/v1alpha3"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/resourcepoolstatusrequest"

	"github.com/drakit/drakit/allocator/poolstatus"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
)

// upstreamPoolStatus is the computation of kube-controller-manager's
// resourcepoolstatusrequest controller (k8s.io/kubernetes v1.37.2): what it
// writes into a request's status, read from its listers. It is a method the
// package does not export; the controller only calls it from its work
// queue, which writes nothing while a pool is incomplete (it retries, then
// drops the request), so the test calls it directly to see every pool.
//
//go:linkname upstreamPoolStatus k8s.io/kubernetes/pkg/controller/resourcepoolstatusrequest.(*Controller).calculatePoolStatus
func upstreamPoolStatus(c *resourcepoolstatusrequest.Controller, ctx context.Context, r *resourcev1alpha3.ResourcePoolStatusRequest) resourcev1alpha3.ResourcePoolStatusRequestStatus

// TestPoolStatusDifferential compares poolstatus.Compute's Pool.Status with
// upstream's controller on random pools: several generations and
// incomplete ones, node-local, mixed and cluster-wide slices, partitionable
// devices on shared counters (with and without a partition type attribute,
// from the slice or the request's default, and the pools upstream flags),
// devices that allow multiple allocations with shares consuming capacity,
// adminAccess results, results naming devices that are gone, taints of
// devices and of DeviceTaintRules. Every field must agree; quantities by
// value. Where upstream's message depends on the order its lister returns
// slices in (which device it names first), only the message's prefix is
// compared. POOLSTATUS_DIFF_CASES sets the number of clusters (default 1000).
func TestPoolStatusDifferential(t *testing.T) {
	klog.SetOutput(discard{})
	klog.LogToStderr(false)
	cases := 1000
	if s := os.Getenv("POOLSTATUS_DIFF_CASES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("POOLSTATUS_DIFF_CASES: %v", err)
		}
		cases = n
	}
	seen := map[string]int{}
	for seed := range cases {
		rng := rand.New(rand.NewSource(int64(seed)))
		c := randomPoolCluster(rng)
		up := newUpstreamController(t, c)
		for _, driver := range poolDrivers {
			for _, def := range []string{"", poolDriver0 + "/profile"} {
				req := &resourcev1alpha3.ResourcePoolStatusRequest{Spec: resourcev1alpha3.ResourcePoolStatusRequestSpec{Driver: driver, Limit: ptrTo(resourcev1alpha3.ResourcePoolStatusRequestLimitMax)}}
				in := poolstatus.Input{Slices: c.slices, Claims: c.claims, TaintRules: c.rules, Driver: driver}
				if def != "" {
					req.Spec.DefaultPartitionTypeAttribute = &def
					in.DefaultPartitionTypeAttribute = def
				}
				want := upstreamPoolStatus(up, context.Background(), req).Pools
				got := poolstatus.Compute(in).Statuses()
				if diff := comparePoolStatuses(want, got); diff != "" {
					t.Errorf("seed %d, driver %s, default attribute %q: %s", seed, driver, def, diff)
				}
				for _, p := range want {
					seen[poolShape(p)]++
				}
			}
		}
		if t.Failed() {
			break
		}
	}
	// The generator must reach every kind of pool it is meant to.
	for _, shape := range []string{"incomplete", "counts", "partitions", "shareable", "PartitionTypeMissing", "PartitionCostMismatch", "node", "unavailable", "allocated"} {
		if seen[shape] == 0 {
			t.Errorf("no pool of shape %q in %d clusters: %v", shape, cases, seen)
		}
	}
	t.Logf("pools compared, by shape: %v", seen)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// poolShape names what a status shows, to count what the test covered.
func poolShape(p resourcev1alpha3.PoolStatus) string {
	switch {
	case p.ValidationError != nil && strings.HasPrefix(*p.ValidationError, poolstatus.PrefixPoolIncomplete):
		return "incomplete"
	case p.ValidationError != nil:
		return strings.TrimSuffix(strings.SplitN(*p.ValidationError, " ", 2)[0], ":")
	case len(p.PartitionSummary) > 0:
		return "partitions"
	case p.ShareableSummary != nil:
		return "shareable"
	case p.NodeName != nil:
		return "node"
	case p.UnavailableDevices != nil && *p.UnavailableDevices > 0:
		return "unavailable"
	case p.AllocatedDevices != nil && *p.AllocatedDevices > 0:
		return "allocated"
	}
	return "counts"
}

const (
	poolDriver0 = "gpu.example.com"
	poolDriver1 = "nic.example.com"
)

var poolDrivers = []string{poolDriver0, poolDriver1}

// poolCluster is one random cluster in hub form.
type poolCluster struct {
	slices []*resource.ResourceSlice
	claims []*resource.ResourceClaim
	rules  []*resource.DeviceTaintRule
}

// newUpstreamController is upstream's controller over listers that hold
// the cluster (in v1, converted by drakit's conversion package).
func newUpstreamController(t *testing.T, c *poolCluster) *resourcepoolstatusrequest.Controller {
	t.Helper()
	cs := fake.NewClientset()
	f := informers.NewSharedInformerFactory(cs, 0)
	slices := f.Resource().V1().ResourceSlices()
	claims := f.Resource().V1().ResourceClaims()
	rules := f.Resource().V1().DeviceTaintRules()
	ctl, err := resourcepoolstatusrequest.NewController(context.Background(), cs, f.Resource().V1alpha3().ResourcePoolStatusRequests(), slices, claims, rules)
	if err != nil {
		t.Fatal(err)
	}
	add := func(store interface{ Add(any) error }, hub runtime.Object) {
		obj, err := conversion.FromHub(hub, "v1")
		if err != nil {
			t.Fatalf("converting %T to v1: %v", hub, err)
		}
		if err := store.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range c.slices {
		add(slices.Informer().GetIndexer(), s)
	}
	for _, cl := range c.claims {
		add(claims.Informer().GetIndexer(), cl)
	}
	for _, r := range c.rules {
		add(rules.Informer().GetIndexer(), r)
	}
	return ctl
}

// randomPoolCluster makes 1-6 pools of two drivers, claims holding some of
// their devices and taint rules.
func randomPoolCluster(rng *rand.Rand) *poolCluster {
	c := &poolCluster{}
	type devRef struct {
		driver, pool, name string
		shared             bool
	}
	var refs []devRef
	nPools := 1 + rng.Intn(6)
	for p := range nPools {
		driver := poolDrivers[rng.Intn(2)]
		pool := fmt.Sprintf("pool-%d", p)
		if rng.Intn(4) == 0 {
			pool = fmt.Sprintf("node-%d/gpus", p) // a pool name with a slash
		}
		newest := int64(rng.Intn(3))
		gens := []int64{newest}
		if newest > 0 && rng.Intn(3) == 0 {
			gens = append(gens, newest-1)
		}
		// The pool's partition defect, at most one (upstream names the
		// first device it meets, which depends on its lister's order).
		defect := rng.Intn(10)
		partitioned := rng.Intn(2) == 0
		cores := rng.Intn(2) == 0 // partitions consume cores too
		attrOnSlice := rng.Intn(2) == 0
		node := fmt.Sprintf("node-%d", rng.Intn(4))
		for _, gen := range gens {
			nSlices := 1 + rng.Intn(3)
			count := int64(nSlices)
			if rng.Intn(6) == 0 {
				count++ // one slice not published (yet)
			}
			devIndex := 0
			for s := range nSlices {
				sl := &resource.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%s-g%d-%d", driver, strings.ReplaceAll(pool, "/", "-"), gen, s)}}
				sl.Spec.Driver = driver
				sl.Spec.Pool = resource.ResourcePool{Name: pool, Generation: gen, ResourceSliceCount: count}
				switch r := rng.Intn(10); {
				case r < 6:
					sl.Spec.NodeName = ptrTo(node)
				case r < 7:
					sl.Spec.NodeName = ptrTo(fmt.Sprintf("node-%d", rng.Intn(4)))
				default:
					sl.Spec.AllNodes = ptrTo(true)
				}
				if partitioned && s == 0 {
					sl.Spec.SharedCounters = randomCounterSets(rng)
				}
				if partitioned && attrOnSlice && (defect != 1 || s == 0) {
					sl.Spec.PartitionTypeAttribute = ptrTo(resource.FullyQualifiedName(poolDriver0 + "/profile"))
				}
				for range rng.Intn(6) {
					name := fmt.Sprintf("dev-%d", devIndex)
					devIndex++
					if rng.Intn(25) == 0 && devIndex > 1 {
						name = fmt.Sprintf("dev-%d", rng.Intn(devIndex-1)) // named twice
					}
					d := randomPoolDevice(rng, driver, name, partitioned, cores, defect)
					sl.Spec.Devices = append(sl.Spec.Devices, d)
					if gen == newest {
						refs = append(refs, devRef{driver, pool, name, d.AllowMultipleAllocations != nil})
					}
				}
				c.slices = append(c.slices, sl)
			}
		}
	}
	// Claims: each holds 1-3 devices, some through adminAccess, some as
	// shares; a few name devices the pools no longer have.
	for i := range rng.Intn(8) {
		cl := &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("claim-%d", i), UID: types.UID(fmt.Sprintf("uid-%d", i))}}
		alloc := &resource.AllocationResult{}
		for j := range 1 + rng.Intn(3) {
			if len(refs) == 0 {
				break
			}
			ref := refs[rng.Intn(len(refs))]
			if rng.Intn(15) == 0 {
				ref.name = "gone"
			}
			res := resource.DeviceRequestAllocationResult{Request: fmt.Sprintf("r%d", j), Driver: ref.driver, Pool: ref.pool, Device: ref.name}
			if rng.Intn(6) == 0 {
				res.AdminAccess = ptrTo(true)
			}
			if ref.shared || rng.Intn(10) == 0 {
				res.ShareID = ptrTo(types.UID(fmt.Sprintf("00000000-0000-0000-0000-%012d", i*10+j)))
				res.ConsumedCapacity = map[resource.QualifiedName]apiresource.Quantity{"bandwidth": *apiresource.NewScaledQuantity(int64(10*(1+rng.Intn(8))), 9)}
				if rng.Intn(3) == 0 {
					res.ConsumedCapacity["memory"] = *apiresource.NewQuantity(int64(1+rng.Intn(40))<<30, apiresource.BinarySI)
				}
			}
			alloc.Devices.Results = append(alloc.Devices.Results, res)
		}
		if rng.Intn(5) > 0 {
			cl.Status.Allocation = alloc
		}
		c.claims = append(c.claims, cl)
	}
	for i := range rng.Intn(3) {
		r := &resource.DeviceTaintRule{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("rule-%d", i)}}
		r.Spec.Taint = resource.DeviceTaint{Key: "example.com/maintenance", Effect: []resource.DeviceTaintEffect{resource.DeviceTaintEffectNoSchedule, resource.DeviceTaintEffectNoExecute, resource.DeviceTaintEffectNone}[rng.Intn(3)]}
		if rng.Intn(5) > 0 && len(refs) > 0 {
			ref := refs[rng.Intn(len(refs))]
			sel := &resource.DeviceTaintSelector{Driver: ptrTo(ref.driver)}
			if rng.Intn(2) == 0 {
				sel.Pool = ptrTo(ref.pool)
			}
			if rng.Intn(2) == 0 {
				sel.Device = ptrTo(ref.name)
			}
			r.Spec.DeviceSelector = sel
		}
		c.rules = append(c.rules, r)
	}
	return c
}

// randomCounterSets: one or two sets of memory and (sometimes) cores.
func randomCounterSets(rng *rand.Rand) []resource.CounterSet {
	var sets []resource.CounterSet
	for i := range 1 + rng.Intn(2) {
		counters := map[string]resource.Counter{"memory": {Value: *apiresource.NewQuantity(int64(20*(1+rng.Intn(6)))<<30, apiresource.BinarySI)}}
		if rng.Intn(2) == 0 {
			counters["cores"] = resource.Counter{Value: *apiresource.NewQuantity(int64(4+rng.Intn(60)), apiresource.DecimalSI)}
		}
		sets = append(sets, resource.CounterSet{Name: fmt.Sprintf("gpu-%d", i), Counters: counters})
	}
	return sets
}

var profiles = []struct {
	name          string
	memory, cores int64
}{{"full", 80, 64}, {"half", 40, 32}, {"quarter", 20, 16}}

// randomPoolDevice is a plain, partitionable or shared device; defect 0
// leaves the profile attribute off a partition, 2 and 3 give one a cost of
// its own (more memory, another counter set). The attribute is written without its domain only by the driver of
// that domain (others would lack it, a defect).
func randomPoolDevice(rng *rand.Rand, driver, name string, partitioned, cores bool, defect int) resource.Device {
	d := resource.Device{Name: name, Attributes: map[resource.QualifiedName]resource.DeviceAttribute{"index": {IntValue: ptrTo(int64(rng.Intn(8)))}}}
	switch {
	case partitioned && rng.Intn(5) > 0:
		p := profiles[rng.Intn(len(profiles))]
		mem := p.memory
		if defect == 2 && rng.Intn(4) == 0 {
			mem += 10
		}
		counters := map[string]resource.Counter{"memory": {Value: *apiresource.NewQuantity(mem<<30, apiresource.BinarySI)}}
		if cores {
			counters["cores"] = resource.Counter{Value: *apiresource.NewQuantity(p.cores, apiresource.DecimalSI)}
		}
		set := "gpu-0"
		if defect == 3 && rng.Intn(3) == 0 {
			set = "gpu-1" // may not exist; a cost of its own
		}
		d.ConsumesCounters = []resource.DeviceCounterConsumption{{CounterSet: set, Counters: counters}}
		switch {
		case defect == 0 && rng.Intn(4) == 0:
		case driver == poolDriver0 && rng.Intn(2) == 0:
			d.Attributes["profile"] = resource.DeviceAttribute{StringValue: ptrTo(p.name)}
		default:
			d.Attributes[poolDriver0+"/profile"] = resource.DeviceAttribute{StringValue: ptrTo(p.name)}
		}
	case rng.Intn(3) == 0:
		d.AllowMultipleAllocations = ptrTo(true)
		d.Capacity = map[resource.QualifiedName]resource.DeviceCapacity{"bandwidth": {Value: *apiresource.NewScaledQuantity(int64(50*(1+rng.Intn(4))), 9)}}
		if rng.Intn(2) == 0 {
			d.Capacity["memory"] = resource.DeviceCapacity{Value: *apiresource.NewQuantity(int64(16*(1+rng.Intn(4)))<<30, apiresource.BinarySI)}
		}
	}
	if rng.Intn(6) == 0 {
		d.Taints = []resource.DeviceTaint{{Key: "example.com/ecc", Effect: []resource.DeviceTaintEffect{resource.DeviceTaintEffectNoSchedule, resource.DeviceTaintEffectNoExecute, resource.DeviceTaintEffectNone}[rng.Intn(3)]}}
	}
	return d
}

// comparePoolStatuses says how got differs from upstream's want, or "".
func comparePoolStatuses(want []resourcev1alpha3.PoolStatus, got []resource.PoolStatus) string {
	if len(want) != len(got) {
		return fmt.Sprintf("%d pools, upstream %d", len(got), len(want))
	}
	var diffs []string
	for i := range want {
		w, g := want[i], got[i]
		at := w.Driver + "/" + w.PoolName
		add := func(field, wv, gv string) {
			if wv != gv {
				diffs = append(diffs, fmt.Sprintf("pool %s: %s: upstream %s, drakit %s", at, field, wv, gv))
			}
		}
		add("driver", w.Driver, g.Driver)
		add("poolName", w.PoolName, g.PoolName)
		add("generation", fmt.Sprint(w.Generation), fmt.Sprint(g.Generation))
		add("nodeName", strPtr(w.NodeName), strPtr(g.NodeName))
		add("resourceSliceCount", int32Ptr(w.ResourceSliceCount), int32Ptr(g.ResourceSliceCount))
		add("totalDevices", int32Ptr(w.TotalDevices), int32Ptr(g.TotalDevices))
		add("allocatedDevices", int32Ptr(w.AllocatedDevices), int32Ptr(g.AllocatedDevices))
		add("availableDevices", int32Ptr(w.AvailableDevices), int32Ptr(g.AvailableDevices))
		add("unavailableDevices", int32Ptr(w.UnavailableDevices), int32Ptr(g.UnavailableDevices))
		we, ge := w.ValidationError, g.ValidationError
		if we != nil && ge != nil && (strings.HasPrefix(*we, poolstatus.PrefixPartitionTypeMissing+" device ") || strings.HasPrefix(*we, poolstatus.PrefixPartitionCostMismatch)) {
			// Names the first device (or type) upstream's lister order
			// brings; the prefix says the same.
			we, ge = ptrTo(strings.SplitN(*we, " ", 2)[0]), ptrTo(strings.SplitN(*ge, " ", 2)[0])
		}
		add("validationError", strPtr(we), strPtr(ge))
		add("partitionSummary", partitionsString(w.PartitionSummary), partitionsString(toAPIPartitions(g.PartitionSummary)))
		add("shareableSummary", shareableString(w.ShareableSummary), shareableString(toAPIShareable(g.ShareableSummary)))
	}
	return strings.Join(diffs, "; ")
}

func strPtr(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return strconv.Quote(*s)
}

func int32Ptr(n *int32) string {
	if n == nil {
		return "<nil>"
	}
	return fmt.Sprint(*n)
}

func qty(q *apiresource.Quantity) string {
	if q == nil {
		return "<nil>"
	}
	// By value: the same amount may be written in another format.
	return q.AsDec().String()
}

func partitionsString(ps []resourcev1alpha3.PartitionTypeStatus) string {
	if ps == nil {
		return "<nil>"
	}
	var parts []string
	for _, p := range ps {
		parts = append(parts, fmt.Sprintf("%s=%s:%s/%s", p.Attribute, p.Type, int32Ptr(p.Allocatable), int32Ptr(p.Total)))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func shareableString(s *resourcev1alpha3.ShareableSummaryStatus) string {
	if s == nil {
		return "<nil>"
	}
	out := fmt.Sprintf("full %s partial %s", int32Ptr(s.FullyAvailableDevices), int32Ptr(s.PartiallyAvailableDevices))
	for _, c := range s.Capacity {
		out += fmt.Sprintf(" %s=%s-%s=%s", c.Name, qty(c.Total), qty(c.Consumed), qty(c.Available))
	}
	return out
}

func toAPIPartitions(ps []resource.PartitionTypeStatus) []resourcev1alpha3.PartitionTypeStatus {
	if ps == nil {
		return nil
	}
	out := []resourcev1alpha3.PartitionTypeStatus{}
	for _, p := range ps {
		out = append(out, resourcev1alpha3.PartitionTypeStatus{Attribute: p.Attribute, Type: p.Type, Total: p.Total, Allocatable: p.Allocatable})
	}
	return out
}

func toAPIShareable(s *resource.ShareableSummaryStatus) *resourcev1alpha3.ShareableSummaryStatus {
	if s == nil {
		return nil
	}
	out := &resourcev1alpha3.ShareableSummaryStatus{FullyAvailableDevices: s.FullyAvailableDevices, PartiallyAvailableDevices: s.PartiallyAvailableDevices}
	for _, c := range s.Capacity {
		out.Capacity = append(out.Capacity, resourcev1alpha3.ShareableCapacityStatus{Name: c.Name, Total: c.Total, Consumed: c.Consumed, Available: c.Available})
	}
	return out
}
