package planner

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/apis/resource"
)

// gen makes random clusters and groups: nodes with cpu, memory, pod
// slots, labels and GPUs (node-local slices), pending pods that ask for
// cpu and memory and for GPUs through templates, with node selectors and
// priorities; with shared, a network-attached pool that every node
// reaches (placement is then not monotone in the nodes added).
type gen struct {
	r *rand.Rand
}

func quantity(s string) apiresource.Quantity { return apiresource.MustParse(s) }

func sizedNode(name string, cpu, pods int, labels map[string]string) *corev1.Node {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
	n.Status.Allocatable = corev1.ResourceList{
		corev1.ResourceCPU:    *apiresource.NewQuantity(int64(cpu), apiresource.DecimalSI),
		corev1.ResourceMemory: quantity("64Gi"),
		corev1.ResourcePods:   *apiresource.NewQuantity(int64(pods), apiresource.DecimalSI),
	}
	return n
}

func gpuSlice(name, node string, n int) *resource.ResourceSlice {
	s := &resource.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: name}}
	s.Spec.Driver = "gpu.example.com"
	if node != "" {
		s.Spec.NodeName = &node
		s.Spec.Pool = resource.ResourcePool{Name: node, Generation: 1, ResourceSliceCount: 1}
	}
	for i := range n {
		s.Spec.Devices = append(s.Spec.Devices, resource.Device{Name: fmt.Sprintf("gpu-%d", i)})
	}
	return s
}

func deviceClass(name, driver string) *resourcev1.DeviceClass {
	c := &resourcev1.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: name}}
	c.Spec.Selectors = []resourcev1.DeviceSelector{{CEL: &resourcev1.CELDeviceSelector{Expression: fmt.Sprintf("device.driver == %q", driver)}}}
	return c
}

func claimTemplate(name, class string, count int64) *resourcev1.ResourceClaimTemplate {
	t := &resourcev1.ResourceClaimTemplate{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}}
	t.Spec.Spec.Devices.Requests = []resourcev1.DeviceRequest{{Name: "dev", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: class, Count: count}}}
	return t
}

func pendingPod(name string, cpu int, templates []string, selector map[string]string, priority int32) *corev1.Pod {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name)}}
	pod.Spec.Priority = &priority
	pod.Spec.NodeSelector = selector
	req := corev1.ResourceList{corev1.ResourceMemory: quantity("1Gi")}
	if cpu > 0 {
		req[corev1.ResourceCPU] = *apiresource.NewQuantity(int64(cpu), apiresource.DecimalSI)
	}
	pod.Spec.Containers = []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: req}}}
	for i, t := range templates {
		pod.Spec.ResourceClaims = append(pod.Spec.ResourceClaims, corev1.PodResourceClaim{Name: fmt.Sprintf("c%d", i), ResourceClaimTemplateName: &t})
	}
	return pod
}

func (g *gen) labels() map[string]string {
	return map[string]string{"pool": []string{"a", "b"}[g.r.IntN(2)]}
}

func (g *gen) cluster(shared bool) *Cluster {
	c := &Cluster{Objects: []runtime.Object{
		deviceClass("gpu", "gpu.example.com"), deviceClass("nic", "nic.example.com"),
		claimTemplate("one-gpu", "gpu", 1), claimTemplate("two-gpu", "gpu", 2), claimTemplate("nic", "nic", 1),
	}}
	for i := range g.r.IntN(5) {
		name := fmt.Sprintf("node-%d", i)
		c.Nodes = append(c.Nodes, sizedNode(name, 1+g.r.IntN(8), 2+g.r.IntN(8), g.labels()))
		if k := g.r.IntN(4); k > 0 {
			c.Objects = append(c.Objects, gpuSlice(name+"-gpus", name, k))
		}
	}
	if shared {
		s := &resource.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: "nics"}}
		s.Spec.Driver, s.Spec.AllNodes = "nic.example.com", ptr(true)
		s.Spec.Pool = resource.ResourcePool{Name: "fabric", Generation: 1, ResourceSliceCount: 1}
		for i := range 1 + g.r.IntN(6) {
			s.Spec.Devices = append(s.Spec.Devices, resource.Device{Name: fmt.Sprintf("nic-%d", i)})
		}
		c.Objects = append(c.Objects, s)
	}
	for i := range 1 + g.r.IntN(20) {
		var templates []string
		switch g.r.IntN(5) {
		case 0, 1:
			templates = []string{"one-gpu"}
		case 2:
			templates = []string{"two-gpu"}
		}
		if shared && g.r.IntN(3) == 0 {
			templates = append(templates, "nic")
		}
		var selector map[string]string
		if g.r.IntN(4) == 0 {
			selector = g.labels()
		}
		c.Pods = append(c.Pods, pendingPod(fmt.Sprintf("p%02d", i), g.r.IntN(4), templates, selector, int32(g.r.IntN(3))))
	}
	return c
}

func (g *gen) groups() []*Group {
	var out []*Group
	for i := range 1 + g.r.IntN(3) {
		grp := &Group{Name: fmt.Sprintf("g%d", i), MaxSize: 1 + g.r.IntN(6), Cost: int64(1000 * (1 + g.r.IntN(5))), HasCost: g.r.IntN(5) > 0}
		grp.Template = sizedNode("", 2+g.r.IntN(10), 3+g.r.IntN(10), g.labels())
		if k := g.r.IntN(5); k > 0 {
			t := gpuSlice("t", "", k)
			t.Spec.Pool = resource.ResourcePool{}
			grp.Slices = []*resource.ResourceSlice{t}
		}
		out = append(out, grp)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// placedNames places the cluster with the nodes added and returns the
// pending pods placed.
func placedNames(t *testing.T, c *Cluster, adds []Add) map[string]bool {
	t.Helper()
	p, err := Place(context.Background(), c, adds)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for i, r := range p.Pods {
		if c.Pods[i].Spec.NodeName == "" && r.Node != "" {
			out[r.Name] = true
		}
	}
	return out
}

func countsOf(counts []Count, groups []*Group) []Add { return addsOf(counts, groups) }

// For random clusters and groups, every plan is confirmed by placing the
// pods again: a group's plan places every pod the cluster does and every
// pod it says it places, and with one node fewer it does not; the mix
// likewise, one node fewer of any of its groups leaving a pod unplaced;
// no pod the plan calls unplaceable is placed by MaxSize nodes of any
// group; and MakePlan's own final placement confirms it.
func TestPlansPlaceEveryPod(t *testing.T) {
	ctx := context.Background()
	seeds := 120
	if testing.Short() {
		seeds = 30
	}
	var withNodes, mixes, greedy, never, bisected int
	defer func() {
		t.Logf("%d seeds: %d group plans with nodes, %d bisected, %d mixes (%d of several groups), %d pods no group places", seeds, withNodes, bisected, mixes, greedy, never)
		// The checks below must have had something to check.
		if withNodes == 0 || mixes == 0 || greedy == 0 || never == 0 || bisected == 0 {
			t.Errorf("the generator makes too few interesting plans")
		}
	}()
	for seed := range seeds {
		g := &gen{r: rand.New(rand.NewPCG(uint64(seed), 35))}
		shared := seed%4 == 3
		c, groups := g.cluster(shared), g.groups()
		plan, err := MakePlan(ctx, c, groups)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !plan.Verified {
			t.Errorf("seed %d: the final placement does not confirm the plan: %v", seed, plan.Unverified)
		}
		if shared && plan.Monotone {
			t.Errorf("seed %d: a network-attached pool, yet monotone", seed)
		}
		base := placedNames(t, c, nil)
		never += len(plan.Never)
		for k, gp := range plan.Groups {
			grp := groups[k]
			if gp.Nodes > 0 {
				withNodes++
			}
			if gp.Search == Bisection {
				bisected++
			}
			got := placedNames(t, c, []Add{{grp, gp.Nodes}})
			for name := range base {
				// Monotone only: a pod on an added node may take the
				// shared NIC a pod that fits now needed.
				if plan.Monotone && !got[name] {
					t.Errorf("seed %d: group %s with %d nodes: %s, which fits now, is not placed", seed, grp.Name, gp.Nodes, name)
				}
			}
			for _, name := range gp.Places {
				if !got[name] {
					t.Errorf("seed %d: group %s with %d nodes: %s is not placed", seed, grp.Name, gp.Nodes, name)
				}
			}
			if gp.Nodes > 0 {
				fewer := placedNames(t, c, []Add{{grp, gp.Nodes - 1}})
				if len(fewer) >= len(got) {
					t.Errorf("seed %d: group %s: %d nodes place %d pods, as many as %d nodes", seed, grp.Name, gp.Nodes-1, len(fewer), gp.Nodes)
				}
			}
			all := placedNames(t, c, []Add{{grp, grp.MaxSize}})
			if len(all) != len(got) {
				t.Errorf("seed %d: group %s: MaxSize %d nodes place %d pods, the plan's %d nodes %d", seed, grp.Name, grp.MaxSize, len(all), gp.Nodes, len(got))
			}
			for _, o := range plan.Never {
				if all[o.Name] {
					t.Errorf("seed %d: %s is called unplaceable, but group %s places it", seed, o.Name, grp.Name)
				}
			}
		}
		if plan.Mix == nil {
			continue
		}
		mixes++
		if plan.Mix.How == "greedy" && len(plan.Mix.Counts) > 1 {
			greedy++
		}
		adds := countsOf(plan.Mix.Counts, groups)
		got := placedNames(t, c, adds)
		if len(got) < len(base)+plan.Mix.Places {
			t.Errorf("seed %d: the mix %v places %d pods, want %d", seed, plan.Mix.Counts, len(got), len(base)+plan.Mix.Places)
		}
		for k := range adds {
			fewer := append([]Add(nil), adds...)
			fewer[k].Count--
			if n := len(placedNames(t, c, fewer)); n >= len(got) {
				t.Errorf("seed %d: the mix %v with one node of %s fewer places %d pods, as many", seed, plan.Mix.Counts, fewer[k].Group.Name, n)
			}
		}
		for k, gp := range plan.Groups {
			if groups[k].HasCost && len(gp.Places) >= plan.Mix.Places && gp.Cost < plan.Mix.Cost {
				t.Errorf("seed %d: group %s alone places %d pods for %d, the mix %d for %d", seed, gp.Group, len(gp.Places), gp.Cost, plan.Mix.Places, plan.Mix.Cost)
			}
		}
	}
}

// Headroom: placing exactly the reported number of replicas after the
// cluster's pods places them all, and one more leaves one unplaced.
func TestHeadroomIsExact(t *testing.T) {
	ctx := context.Background()
	seeds := 80
	if testing.Short() {
		seeds = 20
	}
	for seed := range seeds {
		g := &gen{r: rand.New(rand.NewPCG(uint64(seed), 36))}
		c := g.cluster(seed%3 == 2)
		for _, grp := range g.groups() {
			for i := range grp.MaxSize {
				c.Nodes = append(c.Nodes, grp.Node(i))
				for _, s := range grp.NodeSlices(i) {
					c.Objects = append(c.Objects, s)
				}
			}
		}
		replica := c.Pods[g.r.IntN(len(c.Pods))].DeepCopy()
		replica.Name, replica.UID = "web", "uid-web"
		h, err := MakeHeadroom(ctx, c, replica, 10000)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if h.Capped {
			t.Fatalf("seed %d: capped at %d", seed, h.Total)
		}
		sum := 0
		for _, n := range h.PerNode {
			sum += n.Replicas
		}
		if sum != h.Total {
			t.Errorf("seed %d: per node %v adds up to %d, not %d", seed, h.PerNode, sum, h.Total)
		}
		// The cluster as its pods leave it, then the replicas as pods
		// of the input.
		after, err := Place(ctx, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		settled := &Cluster{Nodes: c.Nodes}
		for _, obj := range c.Objects {
			if kindOf(obj) != "ResourceClaim" {
				settled.Objects = append(settled.Objects, obj)
			}
		}
		for i, cl := range after.Claims {
			if i < len(after.Claims)-after.Made || cl.Err == nil {
				settled.Objects = append(settled.Objects, cl.Claim)
			}
		}
		for _, r := range after.Pods {
			if r.Node != "" {
				settled.Pods = append(settled.Pods, r.Pod)
			}
		}
		for _, n := range []int{h.Total, h.Total + 1} {
			run := *settled
			run.Pods = append([]*corev1.Pod(nil), settled.Pods...)
			for i := range n {
				p := replica.DeepCopy()
				p.Name, p.UID = fmt.Sprintf("web-%d", i), types.UID(fmt.Sprintf("uid-web-%d", i))
				run.Pods = append(run.Pods, p)
			}
			placed := placedNames(t, &run, nil)
			if want := min(n, h.Total); len(placed) != want {
				t.Errorf("seed %d: %d replicas (headroom %d): %d placed", seed, n, h.Total, len(placed))
			}
		}
	}
}

// A group of the largest size is searched with no more nodes than there
// are pods: the plan is as quick as with a small group, and a node of
// the cluster with the name of a group's node is refused.
func TestHugeMaxSize(t *testing.T) {
	g := &gen{r: rand.New(rand.NewPCG(7, 35))}
	c := g.cluster(false)
	groups := g.groups()[:1]
	groups[0].MaxSize = 1<<31 - 1
	plan, err := MakePlan(context.Background(), c, groups)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Verified || plan.Groups[0].Nodes > len(c.Pods) {
		t.Errorf("plan: %+v", plan.Groups[0])
	}
	c.Nodes = append(c.Nodes, sizedNode(groups[0].NodeName(123456), 1, 1, nil))
	if _, err := MakePlan(context.Background(), c, groups); err == nil || err.Error() != `node group "g0": its node g0-123456 has the name of a node of the cluster; rename the group` {
		t.Errorf("a taken name: %v", err)
	}
	c.Nodes[len(c.Nodes)-1].Name = "g0-0123" // not a name the group gives
	if _, err := MakePlan(context.Background(), c, groups); err != nil {
		t.Errorf("g0-0123: %v", err)
	}
}
