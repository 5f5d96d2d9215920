package planner

import (
	"os"
	"strings"
	"testing"
)

// A node's slices carry the pool fields a driver fills in: the node's
// name, a pool per node ("<node>/<pool>" for a named one), generation 1
// and the count of the template's slices of that driver and pool, so
// that the allocator finds every pool complete.
func TestNodeGroupInstances(t *testing.T) {
	f, err := os.Open("testdata/groups.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	groups, err := ReadNodeGroups(f, "groups.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 2 || groups[0].Name != "gpu-h100" || groups[0].MaxSize != 4 || !groups[0].HasCost || groups[0].Cost != 32500 || groups[1].HasCost {
		t.Fatalf("groups: %+v %+v", groups[0], groups[1])
	}
	g := groups[0]
	n := g.Node(2)
	if n.Name != "gpu-h100-2" || n.Labels["kubernetes.io/hostname"] != "gpu-h100-2" || n.Labels["gpu.example.com/model"] != "H100" || len(n.Spec.Taints) != 1 {
		t.Errorf("node: %+v", n.ObjectMeta)
	}
	if g.Template.Name != "" || g.Template.Labels["kubernetes.io/hostname"] != "" {
		t.Errorf("the template changed: %+v", g.Template.ObjectMeta)
	}
	slices := g.NodeSlices(2)
	want := []struct {
		name, pool string
		count      int64
	}{
		{"gpu-h100-2-gpu.example.com-0", "gpu-h100-2", 2},
		{"gpu-h100-2-gpu.example.com-1", "gpu-h100-2", 2},
		{"gpu-h100-2-nic.example.com-2", "gpu-h100-2/rdma", 1},
	}
	for i, w := range want {
		s := slices[i]
		if s.Name != w.name || s.Spec.Pool.Name != w.pool || s.Spec.Pool.ResourceSliceCount != w.count || s.Spec.Pool.Generation != 1 || s.Spec.NodeName == nil || *s.Spec.NodeName != "gpu-h100-2" {
			t.Errorf("slice %d: %s pool %+v node %v", i, s.Name, s.Spec.Pool, s.Spec.NodeName)
		}
	}
	if g.Slices[0].Spec.NodeName != nil {
		t.Errorf("the template slice changed")
	}
}

func TestNodeGroupErrors(t *testing.T) {
	head := "apiVersion: planner.drakit.io/v1alpha1\nkind: NodeGroup\nmetadata: {name: g}\n"
	for _, tc := range []struct{ doc, want string }{
		{"apiVersion: v1\nkind: Node\nmetadata: {name: g}\n", `apiVersion "v1", kind "Node": a node group file holds apiVersion: planner.drakit.io/v1alpha1, kind: NodeGroup`},
		{head + "spec: {maxSize: 0}\n", `node group "g": spec.maxSize: 0: a group adds at least one node`},
		{head + "spec: {maxSize: 1, cost: \"-1\"}\n", `spec.cost: -1: a cost is not negative`},
		{head + "spec: {maxSize: 1, size: 3}\n", `unknown field "size"`},
		{head + "spec: {maxSize: 1, cost: \"2M\"}\n", `spec.cost: 2M: at most 1M; use a larger unit`},
		{"apiVersion: planner.drakit.io/v1alpha1\nkind: NodeGroup\nmetadata: {name: Big_Group}\nspec: {maxSize: 1}\n", `metadata.name: "Big_Group" is not a name for nodes`},
		{head + "spec:\n  maxSize: 1\n  resourceSlices:\n  - {apiVersion: resource.k8s.io/v1, kind: ResourceSlice, spec: {driver: d, allNodes: true}}\n", `spec.resourceSlices[0].spec.allNodes: a node group's slices are node-local`},
		{head + "spec:\n  maxSize: 1\n  resourceSlices:\n  - {apiVersion: v1, kind: Node}\n", `spec.resourceSlices[0]: apiVersion "v1", kind "Node": a ResourceSlice of resource.k8s.io is wanted`},
		{head + "spec: {maxSize: 1}\n---\n" + head + "spec: {maxSize: 2}\n", `node group "g": a second group of that name`},
	} {
		_, err := ReadNodeGroups(strings.NewReader(tc.doc), "f.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "f.yaml: document ") {
			t.Errorf("%q:\n got %v\nwant ...%s", tc.doc, err, tc.want)
		}
	}
}

// Bad node group documents give errors, never a panic; what decodes
// makes nodes and slices.
func FuzzDecodeNodeGroup(f *testing.F) {
	data, err := os.ReadFile("testdata/groups.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, doc := range strings.Split(string(data), "\n---\n") {
		f.Add([]byte(doc))
	}
	f.Add([]byte("apiVersion: planner.drakit.io/v1alpha1\nkind: NodeGroup\nmetadata: {name: g}\nspec: {maxSize: 1, resourceSlices: [{}]}\n"))
	f.Add([]byte("apiVersion: planner.drakit.io/v1alpha1\nkind: NodeGroup\nmetadata: {name: g}\nspec: {maxSize: 1, cost: 1e400}\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		g, err := DecodeNodeGroup(doc, "fuzz")
		if err != nil {
			return
		}
		n := g.Node(g.MaxSize - 1)
		for _, s := range g.NodeSlices(g.MaxSize - 1) {
			if *s.Spec.NodeName != n.Name || s.Spec.Pool.ResourceSliceCount < 1 {
				t.Fatalf("slice %s: node %s, pool %+v", s.Name, *s.Spec.NodeName, s.Spec.Pool)
			}
		}
	})
}
