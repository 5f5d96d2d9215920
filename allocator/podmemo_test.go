package allocator

import (
	"context"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// kindsCluster is a cluster whose pods are mostly kinds of their own
// (tolerations of their own), in two namespaces, naming their claims two
// ways, some with two claims or a claim in place on one node, some
// asking for devices of a pool every node reaches: the pods that share a
// draKind but not a kind.
func kindsCluster(t *testing.T) ([]runtime.Object, []*corev1.Node) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: net}
spec:
  driver: gpu.example.com
  allNodes: true
  pool: {name: net, resourceSliceCount: 1}
  devices:
  - {name: net-0, attributes: {kind: {string: net}, numa: {int: 0}}}
  - {name: net-1, attributes: {kind: {string: net}, numa: {int: 1}}}
  - {name: net-2, attributes: {kind: {string: net}, numa: {int: 1}}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: held, namespace: ml}
spec:
  devices:
    requests:
    - {name: gpu, exactly: {deviceClassName: gpu}}
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: n05, device: gpu-0}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields:
        - {key: metadata.name, operator: In, values: [n05]}
  reservedFor:
  - {resource: pods, name: owner, uid: uid-owner}
---
apiVersion: v1
kind: Pod
metadata: {name: owner, namespace: ml, uid: uid-owner}
spec:
  nodeName: n05
  containers: [{name: c, image: x}]
  resourceClaims: [{name: held, resourceClaimName: held}]
`)
	var nodes []*corev1.Node
	for i := 0; i < 40; i++ {
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("n%02d", i), Labels: map[string]string{"zone": fmt.Sprintf("z%d", i%3)}}}
		if i%7 == 3 {
			node.Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "x", Effect: corev1.TaintEffectNoSchedule}}
		}
		nodes = append(nodes, node)
		fmt.Fprintf(&b, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: n%02d}\nspec:\n  driver: gpu.example.com\n  nodeName: n%02d\n  pool: {name: n%02d, resourceSliceCount: 1}\n  devices:\n", i, i, i)
		for d := 0; d < 1+i%5; d++ {
			fmt.Fprintf(&b, "  - {name: gpu-%d, attributes: {kind: {string: '%s'}, numa: {int: %d}}}\n", d, []string{"x", "y"}[(i+d)%2], d%2)
		}
	}
	templates := map[string]string{
		"t1":  "requests: [{name: gpus, exactly: {deviceClassName: gpu, count: 1, selectors: [{cel: {expression: 'device.attributes[\"gpu.example.com\"].kind != \"net\"'}}]}}]",
		"t2":  "requests: [{name: gpus, exactly: {deviceClassName: gpu, count: 2}}]\n      constraints: [{matchAttribute: gpu.example.com/numa}]",
		"t3":  "requests: [{name: gpus, exactly: {deviceClassName: gpu, count: 3, selectors: [{cel: {expression: 'device.attributes[\"gpu.example.com\"].kind == \"x\"'}}]}}]",
		"t4":  "requests: [{name: gpus, exactly: {deviceClassName: gpu, count: 4}}]",
		"tn":  "requests: [{name: gpus, exactly: {deviceClassName: gpu, count: 1, selectors: [{cel: {expression: 'device.attributes[\"gpu.example.com\"].kind == \"net\"'}}]}}]",
		"t2y": "requests: [{name: a, exactly: {deviceClassName: gpu, selectors: [{cel: {expression: 'device.attributes[\"gpu.example.com\"].kind == \"y\"'}}]}}, {name: b, exactly: {deviceClassName: gpu}}]",
	}
	for _, ns := range []string{"ml", "other"} {
		for name, spec := range templates {
			fmt.Fprintf(&b, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: %s, namespace: %s}\nspec:\n  spec:\n    devices:\n      %s\n", name, ns, spec)
		}
	}
	names := []string{"t1", "t2", "t3", "t4", "tn", "t2y", "t1", "t2"}
	for i := 0; i < 150; i++ {
		ns := "ml"
		if i%4 == 1 {
			ns = "other"
		}
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p%03d, namespace: %s, uid: u%03d}\nspec:\n", i, ns, i)
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "  tolerations: [{key: own-%d, operator: Exists}]\n", i)
		case 1:
			b.WriteString("  tolerations: [{key: dedicated, operator: Exists}]\n")
		}
		if i%11 == 4 {
			fmt.Fprintf(&b, "  nodeSelector: {zone: z%d}\n", i%3)
		}
		entry := "gpus"
		if i%5 == 2 {
			entry = "accel"
		}
		fmt.Fprintf(&b, "  containers: [{name: c, image: x}]\n  resourceClaims:\n  - {name: %s, resourceClaimTemplateName: %s}\n", entry, names[i%len(names)])
		if i%9 == 7 {
			b.WriteString("  - {name: second, resourceClaimTemplateName: t1}\n")
		}
		if ns == "ml" && i%10 == 6 {
			b.WriteString("  - {name: held, resourceClaimName: held}\n")
		}
	}
	return decodeAll(t, b.String(), false), nodes
}

// Pods of kinds of their own skip the nodes where pods with the same
// claims failed before (podmemo.go), and count their reasons later: each
// pod's placement, reasons and allocation must be those of a placement
// that knew nothing before it, where the pod tries every node. The
// oracle places each pod alone, after the pods placed before it, bound
// with their claims allocated.
func TestPlacePodsKindsOfTheirOwn(t *testing.T) {
	objs, nodes := kindsCluster(t)
	ctx := context.Background()
	whole, err := PlacePods(ctx, objs, ObjectOptions{Nodes: nodes}, PodOptions{Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	// The fixed objects: all but the pods and the claim in place (the
	// oracle gives the claims as the whole placement left them).
	var fixed []runtime.Object
	for _, o := range objs {
		switch o.GetObjectKind().GroupVersionKind().Kind {
		case "Pod", "ResourceClaim":
		default:
			fixed = append(fixed, o)
		}
	}
	claims := map[string]runtime.Object{}
	for _, c := range whole.Claims {
		claims[c.Name] = c.Claim
	}
	placed, failed := 0, 0
	var before []PodResult
	for _, r := range whole.Pods {
		if r.Name == "ml/owner" {
			before = append(before, r)
			continue
		}
		in := append([]runtime.Object(nil), fixed...)
		given := map[string]bool{}
		for _, p := range append(append([]PodResult(nil), before...), r) {
			pod := p.Pod.DeepCopy()
			pod.APIVersion, pod.Kind = "v1", "Pod"
			if p.Name == r.Name {
				pod = nil
				for _, o := range objs {
					if u, ok := o.(metav1.Object); ok && u.GetNamespace()+"/"+u.GetName() == r.Name && o.GetObjectKind().GroupVersionKind().Kind == "Pod" {
						in = append(in, o)
					}
				}
			} else {
				in = append(in, pod)
			}
			for _, c := range p.Claims {
				if !given[c] && (p.Name != r.Name || c == "ml/held") {
					given[c] = true
					in = append(in, claims[c])
				}
			}
		}
		alone, err := PlacePods(ctx, in, ObjectOptions{Nodes: nodes}, PodOptions{Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		got := alone.Pods[len(alone.Pods)-1]
		if got.Name != r.Name {
			t.Fatalf("oracle for %s placed %s last", r.Name, got.Name)
		}
		// A pod with a toleration of its own is the only one of its
		// kind; the others share their kind's reasons, counted when the
		// kind first tried each node (pods.go), and are held to their
		// node and devices only.
		own := strings.Contains(fmt.Sprint(r.Pod.Spec.Tolerations), "own-")
		if a, b := describePod(r, whole, own), describePod(got, alone, own); a != b {
			t.Errorf("pod %s:\nin the whole placement:\n%s\nalone after the pods before it:\n%s", r.Name, a, b)
		}
		if r.Node != "" {
			placed++
			before = append(before, r)
		} else if own && r.Failure != nil {
			failed++
		}
	}
	if placed < 20 || failed < 10 {
		t.Errorf("%d pods placed, %d of kinds of their own not: the cluster tests little", placed, failed)
	}
}

// describePod is a pod's result: node and the devices of its claims, and
// with reasons its reasons in full (examples, numbers and nodes) and the
// scheduler's words.
func describePod(r PodResult, p *Placement, reasons bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "node %q claims %v error %q would fit %q\n", r.Node, r.Claims, r.SchedulerError, r.WouldFit)
	if f := r.Failure; f != nil && reasons {
		fmt.Fprintf(&b, "message %q\n", r.SchedulerMessage)
		fmt.Fprintf(&b, "%s %v\n", f.Line(r.Name), f.Scheduler)
		for _, reason := range f.Reasons {
			fmt.Fprintf(&b, "  %s: %q %v\n", reason, reason.Example, reason.Nodes)
		}
	}
	for _, c := range p.Claims {
		for _, name := range r.Claims {
			if c.Name == name && c.Result.Allocation != nil && !c.Result.AlreadyAllocated {
				fmt.Fprintf(&b, "%s %v\n", c.Name, c.Result.Allocation.Devices.Results)
			}
		}
	}
	return b.String()
}
