package allocator

import (
	"context"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

func sizedNode(name, cpu, memory string, pods int) *corev1.Node {
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
	n.Status.Allocatable = corev1.ResourceList{
		corev1.ResourceCPU:    apiresource.MustParse(cpu),
		corev1.ResourceMemory: apiresource.MustParse(memory),
		corev1.ResourcePods:   *apiresource.NewQuantity(int64(pods), apiresource.DecimalSI),
	}
	return n
}

func requestingPod(name, cpu, memory string) *corev1.Pod {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name)}}
	req := corev1.ResourceList{}
	if cpu != "" {
		req[corev1.ResourceCPU] = apiresource.MustParse(cpu)
	}
	if memory != "" {
		req[corev1.ResourceMemory] = apiresource.MustParse(memory)
	}
	pod.Spec.Containers = []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: req}}}
	return pod
}

// NodeResourcesFit: pods bound to a node take its allocatable resources
// and a pod slot; a pending pod goes to the first node with room, and a
// pod that fits nowhere gets the scheduler's reasons, each counted (a
// node short of cpu and memory counts under both), sorted as text.
func TestPlacePodsResourcesFit(t *testing.T) {
	nodes := []*corev1.Node{
		sizedNode("a", "4", "8Gi", 3),
		sizedNode("b", "2", "16Gi", 1),
		sizedNode("c", "8", "4Gi", 10),
	}
	bound := requestingPod("bound", "3", "4Gi")
	bound.Spec.NodeName = "a"
	done := requestingPod("done", "4", "8Gi")
	done.Spec.NodeName = "a"
	done.Status.Phase = corev1.PodSucceeded // ended: holds nothing
	onB := requestingPod("on-b", "", "")
	onB.Spec.NodeName = "b"
	objs := []runtime.Object{
		bound, done, onB,
		requestingPod("p1", "1", "1Gi"), // a: 1 cpu left
		requestingPod("p2", "2", "2Gi"), // a full (cpu), b full (pods): c
		requestingPod("p3", "7", "1Gi"), // a and b short, c 6 cpu left: fits nowhere
		requestingPod("p4", "", "5Gi"),  // a has 3Gi, b no slot, c 4Gi (2Gi used): nowhere
		requestingPod("p5", "", ""),     // a has a slot (bound, p1; done ended)
	}
	p, err := PlacePods(context.Background(), objs, ObjectOptions{Nodes: nodes}, PodOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"ns/p1": "a", "ns/p2": "c", "ns/p3": "", "ns/p4": "", "ns/p5": "a"}
	for _, r := range p.Pods {
		if w, ok := want[r.Name]; ok && r.Node != w {
			t.Errorf("%s on %q, want %q (%s)", r.Name, r.Node, w, r.SchedulerMessage)
		}
	}
	msgs := map[string]string{}
	for _, r := range p.Pods {
		msgs[r.Name] = r.SchedulerMessage
	}
	// p3: a has 0 cpu left of 4 (7 > 4: unresolvable), b has no slot
	// and 2 cpu (unresolvable), c has 6 cpu left of 8 (resolvable).
	if got, want := msgs["ns/p3"], "0/3 nodes are available: 1 Too many pods, 3 Insufficient cpu. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."; got != want {
		t.Errorf("p3:\n got %s\nwant %s", got, want)
	}
	if got, want := msgs["ns/p4"], "0/3 nodes are available: 1 Too many pods, 2 Insufficient memory. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."; got != want {
		t.Errorf("p4:\n got %s\nwant %s", got, want)
	}
	var line string
	for _, r := range p.Pods {
		if r.Name == "ns/p3" {
			line = r.Failure.Line(r.Name)
		}
	}
	if !strings.Contains(line, "too many pods, insufficient cpu") || !strings.Contains(line, "2 insufficient cpu") {
		t.Errorf("p3's reasons: %s", line)
	}
}

// A node whose status.allocatable lacks pods (written by hand: labels, a
// device plugin's resource) is not checked: drakit's inputs have many
// such nodes, where the scheduler would run nothing at all.
func TestPlacePodsResourcesUncheckedNode(t *testing.T) {
	objs := []runtime.Object{requestingPod("big", "1000", "1Ti")}
	bare := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "bare"}}
	bare.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: apiresource.MustParse("1")}
	p, err := PlacePods(context.Background(), objs, ObjectOptions{Nodes: []*corev1.Node{bare}}, PodOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Pods[0].Node != "bare" {
		t.Errorf("big on %q: %s", p.Pods[0].Node, p.Pods[0].SchedulerMessage)
	}
}

// Many pods of one kind fill nodes by cpu in order, whatever the number
// of workers, and the kind's cursor never skips a node that still has
// room for it.
func TestPlacePodsResourcesFillInOrder(t *testing.T) {
	var nodes []*corev1.Node
	for i := range 20 {
		nodes = append(nodes, sizedNode(fmt.Sprintf("n%02d", i), fmt.Sprint(1+i%4), "64Gi", 110))
	}
	var objs []runtime.Object
	for i := range 60 {
		objs = append(objs, requestingPod(fmt.Sprintf("p%02d", i), "1", "1Gi"))
	}
	for _, workers := range []int{1, 3} {
		p, err := PlacePods(context.Background(), objs, ObjectOptions{Nodes: nodes}, PodOptions{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		perNode := map[string]int{}
		placed := 0
		for _, r := range p.Pods {
			if r.Node != "" {
				perNode[r.Node]++
				placed++
			}
		}
		// cpu 1+2+3+4 per four nodes: 50 in all.
		if placed != 50 {
			t.Errorf("workers %d: %d placed, want 50", workers, placed)
		}
		for i, n := range nodes {
			if perNode[n.Name] != 1+i%4 {
				t.Errorf("workers %d: %d pods on %s, want %d", workers, perNode[n.Name], n.Name, 1+i%4)
			}
		}
	}
}

// PlaceReplicas: copies of a pod with a template's claim fill the GPUs
// node by node; the first copy that finds none stops the count, with the
// scheduler's message.
func TestPlaceReplicas(t *testing.T) {
	objs := []runtime.Object{
		class("gpu", `device.driver == "gpu.example.com"`),
		slice("a", "gpu.example.com", "a", onNode("a"), gpus(2, func(int) int { return 0 })...),
		slice("b", "gpu.example.com", "b", onNode("b"), gpus(3, func(int) int { return 0 })...),
	}
	tmpl := &resourceapi.ResourceClaimTemplate{ObjectMeta: metav1.ObjectMeta{Name: "one-gpu", Namespace: "ns"}}
	tmpl.Spec.Spec.Devices.Requests = []resourceapi.DeviceRequest{{Name: "gpu", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: "gpu"}}}
	objs = append(objs, tmpl)
	pod := requestingPod("worker", "", "")
	pod.Spec.ResourceClaims = []corev1.PodResourceClaim{{Name: "gpu", ResourceClaimTemplateName: ptrTo("one-gpu")}}
	first := pod.DeepCopy()
	first.Name, first.UID = "first", "uid-first"
	objs = append(objs, first) // takes one GPU of a before the copies
	nodes := []*corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, {ObjectMeta: metav1.ObjectMeta{Name: "b"}}}
	placement, reps, err := PlaceReplicas(context.Background(), objs, pod, 100, ObjectOptions{Nodes: nodes}, PodOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(placement.Pods) != 1 || placement.Pods[0].Node != "a" {
		t.Errorf("the input's pod: %+v", placement.Pods)
	}
	if len(reps.Placed) != 4 || reps.PerNode["a"] != 1 || reps.PerNode["b"] != 3 {
		t.Errorf("placed %d, per node %v; want 4 (a 1, b 3)", len(reps.Placed), reps.PerNode)
	}
	if reps.Stopped == nil || !strings.Contains(reps.Stopped.SchedulerMessage, "0/2 nodes are available: 2 cannot allocate all claims") {
		t.Errorf("stopped: %+v", reps.Stopped)
	}
	_, reps, err = PlaceReplicas(context.Background(), objs, pod, 2, ObjectOptions{Nodes: nodes}, PodOptions{})
	if err != nil || len(reps.Placed) != 2 || reps.Stopped != nil {
		t.Errorf("at most 2: %v, %+v", err, reps)
	}
}
