package allocator

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// schedulerCluster is a class over gpu.example.com and one slice per
// node, whose devices (name:kind:numa) are given per node.
func schedulerCluster(devices map[string]string) string {
	var b strings.Builder
	b.WriteString(`apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
`)
	for _, node := range []string{"n0", "n1", "n2"} {
		list, ok := devices[node]
		if !ok {
			continue
		}
		b.WriteString("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + node + "}\nspec:\n  driver: gpu.example.com\n  nodeName: " + node +
			"\n  pool: {name: " + node + ", generation: 1, resourceSliceCount: 1}\n  devices:\n")
		for _, d := range strings.Fields(list) {
			f := strings.Split(d, ":")
			b.WriteString("  - {name: " + f[0] + ", attributes: {kind: {string: '" + f[1] + "'}, numa: {int: " + f[2] + "}}}\n")
		}
	}
	return b.String()
}

func schedulerNodes(names ...string) []*corev1.Node {
	var nodes []*corev1.Node
	for _, n := range names {
		nodes = append(nodes, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n, Labels: map[string]string{"name": n}}})
	}
	return nodes
}

func placeText(t *testing.T, text string, nodes []*corev1.Node) *Placement {
	t.Helper()
	p, err := PlacePods(context.Background(), decodeAll(t, text, false), ObjectOptions{Nodes: nodes}, PodOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const allUnderConstraint = `
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ml}
spec:
  devices:
    requests:
    - name: r0
      exactly:
        deviceClassName: gpu
        selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].kind == "x"'}}]
    - name: r1
      exactly:
        deviceClassName: gpu
        allocationMode: All
        selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].kind == "y"'}}]
    constraints:
    - matchAttribute: gpu.example.com/numa
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml, uid: uid-p}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: c, resourceClaimName: c}]
`

// Upstream's search gives r0 dev0 (numa 0) and then meets dev1 (numa 1)
// in r1's All: it ends the call with an error instead of trying dev2 for
// r0, and the scheduler fails the pod (SchedulerError). drakit's
// allocator would place it; the pod is not placed, and drakit says both.
func TestPlacePodsAllUnderConstraintAborts(t *testing.T) {
	text := schedulerCluster(map[string]string{"n0": "dev0:x:0 dev1:y:1 dev2:x:1"}) + allUnderConstraint
	p := placeText(t, text, schedulerNodes("n0"))
	r := podByName(p, "p")
	want := `running "DynamicResources" filter plugin: claim ml/c, request r1: cannot add device gpu.example.com/n0/dev1 because a claim constraint would not be satisfied`
	if r.SchedulerError != want || r.WouldFit != "n0" || r.Node != "" || r.Failure != nil {
		t.Errorf("got error %q, would fit %q, node %q, failure %v; want the error %q on n0 and no placement", r.SchedulerError, r.WouldFit, r.Node, r.Failure, want)
	}

	// Where upstream's first choice agrees with the All request, there is
	// no error: dev0 (numa 1) for r0, then dev1 (numa 1).
	text = schedulerCluster(map[string]string{"n0": "dev0:x:1 dev1:y:1 dev2:x:0"}) + allUnderConstraint
	r = podByName(placeText(t, text, schedulerNodes("n0")), "p")
	if r.SchedulerError != "" || r.Node != "n0" {
		t.Errorf("agreeing first choice: error %q, node %q; want placed on n0", r.SchedulerError, r.Node)
	}
}

// In a cluster of fewer than 100 nodes the scheduler filters every node:
// a node after the one drakit picks that makes upstream end its call
// fails the pod all the same.
func TestPlacePodsAbortOnLaterNode(t *testing.T) {
	text := schedulerCluster(map[string]string{"n0": "dev0:x:1 dev1:y:1", "n1": "dev0:x:0 dev1:y:1 dev2:x:1"}) + allUnderConstraint
	r := podByName(placeText(t, text, schedulerNodes("n0", "n1")), "p")
	if !strings.Contains(r.SchedulerError, "cannot add device gpu.example.com/n1/dev1") || r.WouldFit != "n0" || r.Node != "" {
		t.Errorf("got error %q, would fit %q, node %q; want n1's error, n0 as drakit's node", r.SchedulerError, r.WouldFit, r.Node)
	}
}

// A device of an All request that lacks the attribute a constraint
// compares: drakit fails the node, upstream ends the call there.
func TestPlacePodsAllLackingAttributeAborts(t *testing.T) {
	text := schedulerCluster(map[string]string{"n0": "dev0:x:0 dev1:y:0"}) + allUnderConstraint + `
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n0-more}
spec:
  driver: gpu.example.com
  nodeName: n0
  pool: {name: n0-more, generation: 1, resourceSliceCount: 1}
  devices:
  - {name: bare, attributes: {kind: {string: 'y'}}}
`
	r := podByName(placeText(t, text, schedulerNodes("n0")), "p")
	want := `running "DynamicResources" filter plugin: claim ml/c, request r1: cannot add device gpu.example.com/n0-more/bare because a claim constraint would not be satisfied`
	if r.SchedulerError != want || r.Failure == nil || r.WouldFit != "" {
		t.Errorf("got error %q, failure %v, would fit %q; want %q with drakit's failure", r.SchedulerError, r.Failure, r.WouldFit, want)
	}
}

// The scheduler's message counts nodes by its own reasons, sorted as
// text, then preemption's. A pod sharing a claim allocated on n1 whose
// own claim also fails on n0 gets the allocation's reason on n0, not the
// shared claim's: the DRA filter allocates first.
func TestPlacePodsSchedulerMessage(t *testing.T) {
	text := schedulerCluster(map[string]string{"n0": "g0:x:0", "n1": "g0:x:0 g1:x:0", "n2": "g0:x:0"}) + `
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared, namespace: ml}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: n1, device: g0}]
    nodeSelector:
      nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]
  reservedFor: [{resource: pods, name: other, uid: uid-other}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: two, namespace: ml}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu, count: 2}}]
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml, uid: uid-p}
spec:
  containers: [{name: c, image: x}]
  nodeSelector: {name: n0}
  resourceClaims: [{name: shared, resourceClaimName: shared}, {name: two, resourceClaimName: two}]
`
	nodes := schedulerNodes("n0", "n1", "n2")
	nodes[2].Labels = nil
	r := podByName(placeText(t, text, nodes), "p")
	want := "0/3 nodes are available: 1 cannot allocate all claims, 2 node(s) didn't match Pod's node affinity/selector. " +
		"preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
	if r.SchedulerMessage != want {
		t.Errorf("message\n%s\nwant\n%s", r.SchedulerMessage, want)
	}
	if line := r.Failure.Line(r.Name); !strings.Contains(line, "1 not enough devices for claim two") || strings.Contains(line, "allocated where") {
		t.Errorf("drakit's line %q: want n0's own failure, not the shared claim's", line)
	}

	// Without the selector and with the shared claim on n2 (whose one
	// device it holds): n0 and n2 cannot allocate "two"; n1 can, and then
	// reports the shared claim, which it cannot use.
	text = strings.Replace(strings.Replace(text, "  nodeSelector: {name: n0}\n", "", 1), "values: [n1]", "values: [n2]", 1)
	text = strings.Replace(text, "pool: n1, device: g0", "pool: n2, device: g0", 1)
	r = podByName(placeText(t, text, schedulerNodes("n0", "n1", "n2")), "p")
	want = "0/3 nodes are available: 1 resourceclaim not available on the node, 2 cannot allocate all claims. " +
		"preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
	if r.SchedulerMessage != want {
		t.Errorf("message\n%s\nwant\n%s", r.SchedulerMessage, want)
	}
}

// A class that does not exist: the scheduler's PreFilter rejects the pod
// before any node. A pod that may not preempt says so.
func TestPlacePodsSchedulerPreFilter(t *testing.T) {
	text := schedulerCluster(map[string]string{"n0": "g0:x:0"}) + `
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ml}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: nvidia}}]
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml, uid: uid-p}
spec:
  containers: [{name: c, image: x}]
  preemptionPolicy: Never
  resourceClaims: [{name: c, resourceClaimName: c}]
`
	want := "0/1 nodes are available: request gpu: device class nvidia does not exist. preemption: not eligible due to preemptionPolicy=Never."
	nodes := schedulerNodes("n0")
	for _, unschedulable := range []bool{false, true} {
		// PreFilter comes before every node filter: an unschedulable
		// node does not change the message.
		nodes[0].Spec.Unschedulable = unschedulable
		r := podByName(placeText(t, text, nodes), "p")
		if r.SchedulerMessage != want {
			t.Errorf("unschedulable %v: message\n%s\nwant\n%s", unschedulable, r.SchedulerMessage, want)
		}
	}
}

// A claim allocated on n1 and reserved for no pod, for a pod that must run
// on n0: no node fits, the DRA plugin's PostFilter deallocates the claim,
// and the scheduler's next attempt allocates it on n0.
func TestPlacePodsDeallocatesAndRetries(t *testing.T) {
	text := schedulerCluster(map[string]string{"n0": "g0:x:0", "n1": "g0:x:0"}) + `
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ml}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: n1, device: g0}]
    nodeSelector:
      nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml, uid: uid-p}
spec:
  containers: [{name: c, image: x}]
  nodeSelector: {name: n0}
  resourceClaims: [{name: c, resourceClaimName: c}]
`
	r := podByName(placeText(t, text, schedulerNodes("n0", "n1")), "p")
	first := "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 resourceclaim not available on the node. " +
		"deallocation of ResourceClaim completed, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
	if r.Node != "n0" || r.Deallocated != "ml/c" || r.FirstMessage != first || r.Failure != nil {
		t.Errorf("got node %q, deallocated %q, first message\n%s\nfailure %v; want n0 after deallocating ml/c, first message\n%s", r.Node, r.Deallocated, r.FirstMessage, r.Failure, first)
	}

	// Reserved for another pod, the claim stays, and so does the pod.
	text = strings.Replace(text, "      nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]\n",
		"      nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]\n  reservedFor: [{resource: pods, name: other, uid: uid-other}]\n", 1)
	r = podByName(placeText(t, text, schedulerNodes("n0", "n1")), "p")
	if r.Node != "" || r.Deallocated != "" || !strings.Contains(r.SchedulerMessage, "1 resourceclaim not available on the node. preemption:") {
		t.Errorf("reserved claim: node %q, deallocated %q, message %q; want unplaced, no deallocation", r.Node, r.Deallocated, r.SchedulerMessage)
	}
}

// heldDev1 is a claim allocated before the call that holds n0's dev1.
const heldDev1 = `
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: held, namespace: ml}
spec:
  devices:
    requests:
    - name: r
      exactly: {deviceClassName: gpu}
status:
  allocation:
    devices:
      results:
      - {request: r, driver: gpu.example.com, pool: n0, device: dev1}
`

// Upstream's search meets an All request's devices in order and stops at
// the first it cannot use. A device that breaks the constraint before the
// one in use ends the call with an error; one in use before it only fails
// the node. drakit fails the request for the device in use either way, and
// says upstream's error only in the first case.
func TestPlacePodsAllAbortBeforeDeviceInUse(t *testing.T) {
	for _, tc := range []struct {
		name, devices, wantError string
	}{{
		name:      "constraint first",
		devices:   "dev0:y:0 dev1:y:0 dev2:x:1",
		wantError: `running "DynamicResources" filter plugin: claim ml/c, request r1: cannot add device gpu.example.com/n0/dev0 because a claim constraint would not be satisfied`,
	}, {
		name:    "in use first",
		devices: "dev1:y:0 dev0:y:0 dev2:x:1",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			text := schedulerCluster(map[string]string{"n0": tc.devices}) + allUnderConstraint + heldDev1
			r := podByName(placeText(t, text, schedulerNodes("n0")), "p")
			if r.SchedulerError != tc.wantError || r.Node != "" || r.Failure == nil {
				t.Errorf("got error %q, node %q, failure %v; want error %q, not placed, drakit's failure", r.SchedulerError, r.Node, r.Failure, tc.wantError)
			}
		})
	}
}

// A later claim of the pod that cannot be allocated does not hide the
// error with which upstream's search ends on an earlier one; an earlier
// claim that cannot be allocated stops the search before it.
func TestPlacePodsAllAbortBeforeLaterClaim(t *testing.T) {
	const none = `
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: none, namespace: ml}
spec:
  devices:
    requests:
    - name: r
      exactly:
        deviceClassName: gpu
        selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].kind == "z"'}}]
`
	base := schedulerCluster(map[string]string{"n0": "dev0:x:0 dev1:y:1 dev2:x:1"}) + allUnderConstraint + none
	for _, tc := range []struct {
		name, claims, wantError string
	}{{
		name:      "aborting claim first",
		claims:    "[{name: c, resourceClaimName: c}, {name: none, resourceClaimName: none}]",
		wantError: `running "DynamicResources" filter plugin: claim ml/c, request r1: cannot add device gpu.example.com/n0/dev1 because a claim constraint would not be satisfied`,
	}, {
		name:   "failing claim first",
		claims: "[{name: none, resourceClaimName: none}, {name: c, resourceClaimName: c}]",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			text := base + `
---
apiVersion: v1
kind: Pod
metadata: {name: q, namespace: ml, uid: uid-q}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: ` + tc.claims + "\n"
			r := podByName(placeText(t, text, schedulerNodes("n0")), "q")
			if r.SchedulerError != tc.wantError || r.Node != "" {
				t.Errorf("got error %q, node %q; want error %q and no placement", r.SchedulerError, r.Node, tc.wantError)
			}
		})
	}
}

// A pod that shares a claim allocated without allocationTimestamp: the
// 1.37 scheduler picks a node and fails in PreBind on every attempt (the
// API server refuses the timestamp it adds to the allocation); with
// DRADeviceBindingConditions off, or with a timestamp, it binds.
func TestPlacePodsReservationNeedsTimestamp(t *testing.T) {
	claim := func(stamp string) string {
		return `
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared, namespace: ml}
spec:
  devices:
    requests:
    - name: r
      exactly: {deviceClassName: gpu}
status:
  allocation:` + stamp + `
    devices:
      results:
      - {request: r, driver: gpu.example.com, pool: n0, device: dev0}
  reservedFor:
  - {resource: pods, name: b, uid: uid-b}
---
apiVersion: v1
kind: Pod
metadata: {name: b, namespace: ml, uid: uid-b}
spec:
  nodeName: n0
  containers: [{name: c, image: x}]
  resourceClaims: [{name: g, resourceClaimName: shared}]
---
apiVersion: v1
kind: Pod
metadata: {name: q, namespace: ml, uid: uid-q}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: g, resourceClaimName: shared}]
`
	}
	cluster := schedulerCluster(map[string]string{"n0": "dev0:x:0"})
	want := `running PreBind plugin "DynamicResources": add reservation to claim ml/shared: ResourceClaim.resource.k8s.io "shared" is invalid: status.allocation: Invalid value: null: field cannot be modified once set`
	r := podByName(placeText(t, cluster+claim(""), schedulerNodes("n0")), "q")
	if r.SchedulerError != want || r.WouldFit != "n0" || r.Node != "" {
		t.Errorf("without timestamp: error %q, would fit %q, node %q; want %q on n0 and no placement", r.SchedulerError, r.WouldFit, r.Node, want)
	}
	r = podByName(placeText(t, cluster+claim("\n    allocationTimestamp: \"2026-01-02T03:04:05Z\""), schedulerNodes("n0")), "q")
	if r.SchedulerError != "" || r.Node != "n0" {
		t.Errorf("with timestamp: error %q, node %q; want placed on n0", r.SchedulerError, r.Node)
	}
	f := DefaultFeatures()
	f.DeviceBindingAndStatus = false
	p, err := PlacePods(context.Background(), decodeAll(t, cluster+claim(""), false), ObjectOptions{Nodes: schedulerNodes("n0"), Features: &f}, PodOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := podByName(p, "q"); r.SchedulerError != "" || r.Node != "n0" {
		t.Errorf("binding conditions off: error %q, node %q; want placed on n0", r.SchedulerError, r.Node)
	}
}
