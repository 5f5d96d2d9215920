package allocator

import (
	"context"
	"os"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
