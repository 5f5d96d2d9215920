package allocator

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func smallNodes() []*corev1.Node {
	return []*corev1.Node{
		{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{"zone": "a"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "n2", Labels: map[string]string{"zone": "b"}},
			Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: "dedicated", Value: "ml", Effect: corev1.TaintEffectNoSchedule}}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "n3"}, Spec: corev1.NodeSpec{Unschedulable: true}},
	}
}

func placeSmall(t *testing.T, explain bool) *Placement {
	t.Helper()
	text, err := os.ReadFile("testdata/pods-small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs := decodeAll(t, string(text), false)
	p, err := PlacePods(context.Background(), objs, ObjectOptions{Nodes: smallNodes()}, PodOptions{Explain: explain})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func podByName(p *Placement, name string) PodResult {
	for _, r := range p.Pods {
		if r.Name == "ml/"+name {
			return r
		}
	}
	return PodResult{}
}

// The queue takes urgent (priority 100) first: the shared claim goes to
// n1, the first node; sharer must follow it there but asks for zone b;
// early and late take the rest of n1 in creation order... late finds n1
// full, n2 tainted and n3 unschedulable; ext tolerates n2's taint and
// gets its two GPUs through a claim made for example.com/gpu.
func TestPlacePodsSmallCluster(t *testing.T) {
	p := placeSmall(t, false)
	want := map[string]string{"urgent": "n1", "early": "n1", "late": "", "sharer": "", "ext": "n2", "missing": ""}
	for name, node := range want {
		if got := podByName(p, name).Node; got != node {
			t.Errorf("pod %s on %q, want %q", name, got, node)
		}
	}
	late := podByName(p, "late")
	if late.Failure == nil {
		t.Fatalf("late has no failure")
	}
	line := late.Failure.Line("ml/late")
	for _, part := range []string{"0/3 nodes can run ml/late", "1 not enough devices for claim gpu (asks 1, at most 0 free)", "1 untolerated taint dedicated=ml:NoSchedule", "1 unschedulable"} {
		if !strings.Contains(line, part) {
			t.Errorf("line %q lacks %q", line, part)
		}
	}
	sharer := podByName(p, "sharer").Failure.Line("ml/sharer")
	if !strings.Contains(sharer, "claim gpu allocated where the node cannot use it") {
		t.Errorf("sharer: %s", sharer)
	}
	if w := podByName(p, "missing").Waiting; !strings.Contains(w, "no-such-template") {
		t.Errorf("missing waits for %q", w)
	}
	ext := podByName(p, "ext")
	if ext.Pod.Status.ExtendedResourceClaimStatus == nil || len(ext.Claims) != 1 {
		t.Fatalf("ext: %+v", ext)
	}
	var extClaim *ObjectResult
	for i := range p.Claims {
		if p.Claims[i].Name == ext.Claims[0] {
			extClaim = &p.Claims[i]
		}
	}
	if extClaim == nil || extClaim.Result.Allocation == nil || len(extClaim.Result.Allocation.Devices.Results) != 2 {
		t.Fatalf("ext claim: %+v", extClaim)
	}
	if !strings.HasPrefix(ext.Claims[0], "ml/ext-extended-resources-") {
		t.Errorf("ext claim name %s", ext.Claims[0])
	}
	// two made from the template, one for extended resources
	if p.Made != 3 {
		t.Errorf("made %d claims, want 3", p.Made)
	}
}

// Two runs name the made claims the same.
func TestPlacePodsDeterministicNames(t *testing.T) {
	a, b := placeSmall(t, false), placeSmall(t, true)
	if len(a.Claims) != len(b.Claims) {
		t.Fatalf("%d vs %d claims", len(a.Claims), len(b.Claims))
	}
	for i := range a.Claims {
		if a.Claims[i].Name != b.Claims[i].Name || a.Claims[i].Node != b.Claims[i].Node {
			t.Errorf("claim %d: %s on %s vs %s on %s", i, a.Claims[i].Name, a.Claims[i].Node, b.Claims[i].Name, b.Claims[i].Node)
		}
	}
	if r := podByName(b, "late").Failure.Reasons[0]; len(r.Nodes) != 1 {
		t.Errorf("explain keeps nodes: %+v", r)
	}
}

// A synthetic cluster big enough for batches of several nodes: pods of a
// few kinds, several of which fit nowhere and fail on every node.
func workersCluster(t *testing.T) ([]runtime.Object, []*corev1.Node) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
`)
	var nodes []*corev1.Node
	for i := 0; i < 40; i++ {
		zone := fmt.Sprintf("z%d", i%3)
		nodes = append(nodes, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("n%02d", i), Labels: map[string]string{"zone": zone}}})
		fmt.Fprintf(&b, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: n%02d}\nspec:\n  driver: gpu.example.com\n  nodeName: n%02d\n  pool: {name: n%02d, resourceSliceCount: 1}\n  devices:\n", i, i, i)
		for d := 0; d < 1+i%4; d++ {
			fmt.Fprintf(&b, "  - {name: gpu-%d, attributes: {numa: {int: %d}}}\n", d, d%2)
		}
	}
	for count := 1; count <= 5; count++ {
		fmt.Fprintf(&b, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t%d, namespace: ml}\nspec:\n  spec:\n    devices:\n      requests:\n      - {name: gpus, exactly: {deviceClassName: gpu, count: %d}}\n      constraints:\n      - {matchAttribute: gpu.example.com/numa}\n", count, count)
	}
	for i := 0; i < 120; i++ {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p%03d, namespace: ml, uid: u%03d}\nspec:\n", i, i)
		if i%5 == 0 {
			fmt.Fprintf(&b, "  nodeSelector: {zone: z%d}\n", i%3)
		}
		fmt.Fprintf(&b, "  containers: [{name: c, image: x}]\n  resourceClaims:\n  - {name: gpus, resourceClaimTemplateName: t%d}\n", 1+i%5)
	}
	return decodeAll(t, b.String(), false), nodes
}

// The placement and the reasons do not depend on the number of workers.
func TestPlacePodsWorkersAgree(t *testing.T) {
	objs, nodes := workersCluster(t)
	describe := func(workers int) string {
		p, err := PlacePods(context.Background(), objs, ObjectOptions{Nodes: nodes}, PodOptions{Workers: workers, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		placed := 0
		for _, r := range p.Pods {
			fmt.Fprintf(&b, "%s %s %v", r.Name, r.Node, r.Claims)
			if r.Failure != nil {
				fmt.Fprintf(&b, " %s", r.Failure.Line(r.Name))
				for _, reason := range r.Failure.Reasons {
					fmt.Fprintf(&b, " %v", reason.Nodes)
				}
			} else {
				placed++
			}
			b.WriteString("\n")
		}
		for _, c := range p.Claims {
			if c.Result.Allocation != nil {
				fmt.Fprintf(&b, "%s %v\n", c.Name, c.Result.Allocation.Devices.Results)
			}
		}
		if placed == 0 || placed == len(p.Pods) {
			t.Fatalf("%d of %d pods placed: the cluster tests nothing", placed, len(p.Pods))
		}
		return b.String()
	}
	want := describe(1)
	for _, w := range []int{2, 3, 8} {
		if got := describe(w); got != want {
			t.Errorf("%d workers differ from one:\n%s\nwant:\n%s", w, got, want)
		}
	}
}

// AllocateObjects takes pods too: its results are the claims, given and
// made, with their allocations.
func TestAllocateObjectsWithPods(t *testing.T) {
	text, err := os.ReadFile("testdata/pods-small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	results, err := AllocateObjects(context.Background(), decodeAll(t, string(text), false), ObjectOptions{Nodes: smallNodes()})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	allocated := 0
	for _, r := range results {
		names = append(names, r.Name)
		if r.Err == nil && r.Result.Allocation != nil {
			allocated++
		}
	}
	if len(results) != 4 || names[0] != "ml/shared" || allocated != 3 {
		t.Errorf("results %v, %d allocated; want the shared claim (allocated), two made from the template (one allocated) and the claim for ext (allocated)", names, allocated)
	}
}

// A pod that cannot be read is an error naming it.
func TestPlacePodsRejectsBadPod(t *testing.T) {
	objs := decodeAll(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: bad, namespace: ml}\nspec: {bogus: 1}", false)
	_, err := PlacePods(context.Background(), objs, ObjectOptions{}, PodOptions{})
	if err == nil || !strings.Contains(err.Error(), `Pod "bad"`) || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("error %v", err)
	}
}

// A context that has ended stops the placement with its error rather than
// leaving pods unplaced as if no node fitted.
func TestPlacePodsStopped(t *testing.T) {
	text, err := os.ReadFile("testdata/pods-small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err = PlacePods(ctx, decodeAll(t, string(text), false), ObjectOptions{Nodes: smallNodes()}, PodOptions{PodTimeout: time.Hour})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v", err)
	}
}
