package allocator

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
)

const manifests = `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClass
metadata: {name: legacy-gpu}
driverName: gpu.example.com
---
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata: {name: n1-gpu}
nodeName: n1
driverName: gpu.example.com
namedResources:
  instances:
  - name: gpu-0
    attributes:
    - {name: model, string: a100}
  - name: gpu-1
    attributes:
    - {name: model, string: h100}
  - name: gpu-2
---
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata: {name: old, namespace: ns}
spec: {resourceClassName: legacy-gpu}
---
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata: {name: mid, namespace: ns}
spec: {resourceClassName: legacy-gpu}
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: new, namespace: ns}
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu
      selectors:
      - cel: {expression: '!("model" in device.attributes["gpu.example.com"])'}
`

func decodeAll(t *testing.T, text string, typed bool) []runtime.Object {
	t.Helper()
	var objs []runtime.Object
	for _, doc := range strings.Split(text, "\n---\n") {
		if typed {
			obj, _, err := conversion.Codecs.UniversalDeserializer().Decode([]byte(doc), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			objs = append(objs, obj)
			continue
		}
		u := &unstructured.Unstructured{}
		data, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := u.UnmarshalJSON(data); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, u)
	}
	return objs
}

func TestAllocateObjectsInEveryVersion(t *testing.T) {
	for _, typed := range []bool{true, false} {
		objs := decodeAll(t, manifests, typed)
		results, err := AllocateObjects(context.Background(), objs, ObjectOptions{Node: node("n1"), Mode: Sequential})
		if err != nil {
			t.Fatal(err)
		}
		if len(results) != 3 {
			t.Fatalf("%d results", len(results))
		}
		var got []map[string]any
		for _, r := range results {
			if r.Err != nil {
				t.Fatalf("%s: %v", r.Name, r.Err)
			}
			if _, isU := r.Claim.(*unstructured.Unstructured); isU == typed {
				t.Errorf("%s: result is unstructured=%v, input was typed=%v", r.Name, isU, typed)
			}
			content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(r.Claim)
			if err != nil {
				t.Fatal(err)
			}
			status, _ := content["status"].(map[string]any)
			got = append(got, status)
			if av := content["apiVersion"]; av != "resource.k8s.io/"+r.Version {
				t.Errorf("%s: apiVersion %v, want version %s", r.Name, av, r.Version)
			}
		}
		// v1alpha1: the single opaque resourceHandle carries the v1alpha3
		// device results as JSON; the status names the driver.
		if got[0]["driverName"] != "gpu.example.com" {
			t.Errorf("v1alpha1 status: %v", got[0])
		}
		handle, _, _ := unstructured.NestedString(got[0], "allocation", "resourceHandle")
		if !strings.Contains(handle, `"device":"gpu-0"`) || !strings.Contains(handle, `"pool":"n1"`) {
			t.Errorf("v1alpha1 resourceHandle %q", handle)
		}
		// v1alpha2: structured handles with named resources.
		handles, _, _ := unstructured.NestedSlice(got[1], "allocation", "resourceHandles")
		if len(handles) != 1 {
			t.Fatalf("v1alpha2 resourceHandles %#v", handles)
		}
		h := handles[0].(map[string]any)
		nodeName, _, _ := unstructured.NestedString(h, "structuredData", "nodeName")
		named, _, _ := unstructured.NestedSlice(h, "structuredData", "results")
		if h["driverName"] != "gpu.example.com" || nodeName != "n1" || len(named) != 1 {
			t.Fatalf("v1alpha2 resourceHandles %#v", handles)
		}
		if name, _, _ := unstructured.NestedString(named[0].(map[string]any), "namedResources", "name"); name != "gpu-1" {
			t.Errorf("v1alpha2 named resource %q", name)
		}
		// v1alpha3: allocation.devices.
		res, _, _ := unstructured.NestedSlice(got[2], "allocation", "devices", "results")
		if !reflect.DeepEqual(res, []any{map[string]any{"request": "gpu", "driver": "gpu.example.com", "pool": "n1", "device": "gpu-2"}}) {
			t.Errorf("v1alpha3 results %#v", res)
		}
		sel, _, _ := unstructured.NestedSlice(got[2], "allocation", "nodeSelector", "nodeSelectorTerms")
		if len(sel) != 1 {
			t.Errorf("v1alpha3 node selector %#v", sel)
		}
	}
}

func TestAllocateObjectsRoundTrip(t *testing.T) {
	// A claim that comes back allocated keeps its devices when given again.
	objs := decodeAll(t, manifests, true)
	first, err := AllocateObjects(context.Background(), objs, ObjectOptions{Node: node("n1"), Mode: Sequential})
	if err != nil {
		t.Fatal(err)
	}
	again := append([]runtime.Object{}, objs[:3]...)
	again = append(again, first[0].Claim) // allocated v1alpha1 claim: gpu-0
	again = append(again, objs[4])        // unallocated v1alpha2 claim
	second, err := AllocateObjects(context.Background(), again, ObjectOptions{Node: node("n1")})
	if err != nil {
		t.Fatal(err)
	}
	if !second[0].Result.AlreadyAllocated || !reflect.DeepEqual(second[0].Claim, first[0].Claim) {
		t.Errorf("allocated claim changed: %#v", second[0].Claim)
	}
	if d := devicesOf(second[1].Result.Allocation); !reflect.DeepEqual(d, []string{"resource=gpu.example.com/n1/gpu-1"}) {
		t.Errorf("second claim got %v", d)
	}
}

func TestAllocateObjectsRejectsOtherKinds(t *testing.T) {
	objs := decodeAll(t, `apiVersion: resource.k8s.io/v1alpha3
kind: PodSchedulingContext
metadata: {name: p, namespace: ns}
spec: {}`, true)
	if _, err := AllocateObjects(context.Background(), objs, ObjectOptions{}); err == nil || !strings.Contains(err.Error(), `PodSchedulingContext "p" plays no part in allocation`) {
		t.Fatalf("got %v", err)
	}
	if _, err := AllocateObjects(context.Background(), []runtime.Object{&corev1.Node{}}, ObjectOptions{}); err == nil || !strings.Contains(err.Error(), "is not a resource.k8s.io type") {
		t.Fatalf("got %v", err)
	}
	bad := decodeAll(t, `apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: c}
spec: {selectorz: []}`, false)
	if _, err := AllocateObjects(context.Background(), bad, ObjectOptions{}); err == nil || !strings.Contains(err.Error(), `selectorz`) {
		t.Fatalf("got %v", err)
	}
}

// A v1alpha2 claim allocated by 1.30's structured parameters holds its
// devices in structured handles; they are in use for other claims.
func TestLegacyStructuredAllocationHoldsDevices(t *testing.T) {
	objs := decodeAll(t, manifests, true)[:3] // classes and the v1alpha2 slice
	objs = append(objs, decodeAll(t, `apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata: {name: held, namespace: ns}
spec: {resourceClassName: legacy-gpu}
status:
  driverName: gpu.example.com
  allocation:
    resourceHandles:
    - driverName: gpu.example.com
      structuredData:
        nodeName: n1
        results:
        - namedResources: {name: gpu-0}
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: new, namespace: ns}
spec:
  devices:
    requests:
    - {name: gpu, deviceClassName: gpu}`, true)...)
	results, err := AllocateObjects(context.Background(), objs, ObjectOptions{Node: node("n1")})
	if err != nil {
		t.Fatal(err)
	}
	if !results[0].Result.AlreadyAllocated || results[1].Err != nil {
		t.Fatalf("%+v", results)
	}
	if d := devicesOf(results[1].Result.Allocation); !reflect.DeepEqual(d, []string{"gpu=gpu.example.com/n1/gpu-1"}) {
		t.Errorf("got %v, want gpu-1 (gpu-0 is held by the v1alpha2 claim)", d)
	}
}

func TestAllocateObjectsOnFirstFit(t *testing.T) {
	const inventory = `apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata: {name: n1}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, resourceSliceCount: 1}
  devices:
  - {name: gpu-0, basic: {}}
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata: {name: n2}
spec:
  driver: gpu.example.com
  nodeName: n2
  pool: {name: n2, resourceSliceCount: 1}
  devices:
  - {name: gpu-0, basic: {}}
  - {name: gpu-1, basic: {}}`
	claimOf := func(name string, count int) string {
		return fmt.Sprintf(`apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: %s, namespace: ns}
spec:
  devices:
    requests:
    - {name: gpu, deviceClassName: gpu, count: %d}`, name, count)
	}
	objs := decodeAll(t, strings.Join([]string{inventory, claimOf("one", 1), claimOf("two", 2), claimOf("three", 3)}, "\n---\n"), true)
	nodes := []*corev1.Node{node("n1"), node("n2")}

	t.Run("Sequential", func(t *testing.T) {
		results, err := AllocateObjects(context.Background(), objs, ObjectOptions{Nodes: nodes, Mode: Sequential})
		if err != nil {
			t.Fatal(err)
		}
		// one fits on n1; two does not fit on n1 and takes both devices of
		// n2; three fits nowhere.
		var got []string
		for _, r := range results {
			line := r.Name + " on " + r.Node + ":"
			for _, f := range r.Failures {
				line += " " + f.Node.Name + "=" + string(f.Err.(*ClaimError).Reason)
			}
			got = append(got, line)
		}
		want := []string{"ns/one on n1:", "ns/two on n2: n1=NotEnoughDevices", "ns/three on : n1=NotEnoughDevices n2=NotEnoughDevices"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %q\nwant %q", got, want)
		}
		if results[1].Claim == nil || results[2].Claim != nil || results[2].Err == nil {
			t.Errorf("claims: %+v", results)
		}
	})

	t.Run("Joint", func(t *testing.T) {
		// Two claims of one device each fit together only on n2; the
		// failures on n1 are forgotten.
		pair := decodeAll(t, strings.Join([]string{inventory, claimOf("one", 1), claimOf("other", 1)}, "\n---\n"), true)
		results, err := AllocateObjects(context.Background(), pair, ObjectOptions{Nodes: nodes, Mode: Joint})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range results {
			if r.Err != nil || r.Node != "n2" || len(r.Failures) != 0 {
				t.Errorf("%s: %v on %q, failures %v", r.Name, r.Err, r.Node, r.Failures)
			}
		}
		// With three, the claims need six devices: none fits anywhere.
		results, err = AllocateObjects(context.Background(), objs, ObjectOptions{Nodes: nodes, Mode: Joint})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range results {
			if r.Err == nil || len(r.Failures) != 2 || r.Node != "" {
				t.Errorf("%s: %v on %q, failures %v", r.Name, r.Err, r.Node, r.Failures)
			}
		}
	})

	t.Run("no node", func(t *testing.T) {
		results, err := AllocateObjects(context.Background(), objs[:4], ObjectOptions{Nodes: []*corev1.Node{nil}})
		if err != nil {
			t.Fatal(err)
		}
		if r := results[0]; !IsReason(r.Err, ReasonNoMatch) || len(r.Failures) != 1 || r.Failures[0].Node != nil {
			t.Errorf("%v, failures %v", r.Err, r.Failures)
		}
	})
}

// The first-fit search over nodes starts each claim where the last claim
// of its spec stopped (claimKind). It must place every claim where trying
// every node from the first would: nodes only fill up. Random clusters of
// a few nodes and claims of a few specs, some with a matchAttribute
// constraint, against that plain search.
func TestFirstFitKindsPlaceAsEveryNodeWould(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := 0; round < 300; round++ {
		nodes, objs, hub := randomFirstFitCase(rng)
		results, err := AllocateObjects(context.Background(), objs, ObjectOptions{Nodes: nodes, Mode: Sequential})
		if err != nil {
			t.Fatal(err)
		}
		want := plainFirstFit(t, hub, nodes)
		for i, r := range results {
			if r.Node != want[i] {
				t.Fatalf("round %d: claim %s on %q, trying every node puts it on %q", round, r.Name, r.Node, want[i])
			}
			if r.Node == "" && len(r.Failures) != len(nodes) {
				t.Fatalf("round %d: claim %s: %d failures for %d nodes", round, r.Name, len(r.Failures), len(nodes))
			}
			var ce *ClaimError
			if r.Err != nil && (!errors.As(r.Err, &ce) || ce.Claim != r.Name) {
				t.Fatalf("round %d: claim %s: error names another claim: %v", round, r.Name, r.Err)
			}
		}
	}
}

func randomFirstFitCase(rng *rand.Rand) ([]*corev1.Node, []runtime.Object, *hubInput) {
	class := &resourcev1.DeviceClass{TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "DeviceClass"}, ObjectMeta: metav1.ObjectMeta{Name: "gpu"}}
	var nodes []*corev1.Node
	objs := []runtime.Object{class}
	for n := 0; n < 1+rng.IntN(6); n++ {
		name := fmt.Sprintf("n%d", n)
		nodes = append(nodes, node(name))
		s := &resourcev1.ResourceSlice{TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceSlice"}, ObjectMeta: metav1.ObjectMeta{Name: name}}
		s.Spec.Driver, s.Spec.NodeName = "gpu.example.com", &name
		s.Spec.Pool = resourcev1.ResourcePool{Name: name, ResourceSliceCount: 1}
		for d := 0; d < rng.IntN(5); d++ {
			numa := int64(rng.IntN(2))
			s.Spec.Devices = append(s.Spec.Devices, resourcev1.Device{Name: fmt.Sprintf("gpu-%d", d),
				Attributes: map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{"numa": {IntValue: &numa}}})
		}
		objs = append(objs, s)
	}
	for c := 0; c < 1+rng.IntN(12); c++ {
		kind := rng.IntN(3)
		claim := &resourcev1.ResourceClaim{TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"}, ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("c%d", c), Namespace: "ns"}}
		claim.Spec.Devices.Requests = []resourcev1.DeviceRequest{{Name: "gpu", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu", AllocationMode: resourcev1.DeviceAllocationModeExactCount, Count: int64(1 + kind)}}}
		if kind == 2 {
			attr := resourcev1.FullyQualifiedName("gpu.example.com/numa")
			claim.Spec.Devices.Constraints = []resourcev1.DeviceConstraint{{MatchAttribute: &attr}}
		}
		objs = append(objs, claim)
	}
	in, err := hubObjects(objs)
	if err != nil {
		panic(err)
	}
	return nodes, objs, in
}

// plainFirstFit places each claim on the first node, from the first,
// that can take it, keeping its devices allocated.
func plainFirstFit(t *testing.T, in *hubInput, nodes []*corev1.Node) []string {
	a, err := New(Options{Classes: in.classes, Slices: in.slices, Mode: Sequential})
	if err != nil {
		t.Fatal(err)
	}
	placed := make([]string, len(in.claims))
	for i, c := range in.claims {
		for _, n := range nodes {
			res, err := a.AllocateOn(context.Background(), n, []*resource.ResourceClaim{c})
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Err == nil {
				a.Commit(res)
				placed[i] = n.Name
				break
			}
		}
	}
	return placed
}
