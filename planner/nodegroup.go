package planner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
)

// GroupVersion is the API group and version of NodeGroup documents.
var GroupVersion = schema.GroupVersion{Group: "planner.drakit.io", Version: "v1alpha1"}

// maxCost bounds a node's cost, so that the costs of plans, summed in
// thousandths, stay within int64 for any number of nodes up to 2^31.
var maxCost = apiresource.MustParse("1M")

// NodeGroupKind is the kind of a node group document.
const NodeGroupKind = "NodeGroup"

// NodeGroup is a kind of node that can be added to a cluster: the Node a
// new node of the group registers as and the ResourceSlices its DRA
// drivers publish. It is drakit's own document, read from YAML or JSON:
//
//	apiVersion: planner.drakit.io/v1alpha1
//	kind: NodeGroup
//	metadata:
//	  name: gpu-h100            # nodes are gpu-h100-0, gpu-h100-1, ...
//	spec:
//	  maxSize: 50               # the most nodes the group may add
//	  cost: "32.5"              # optional: what one node costs (any unit, all groups alike)
//	  template:                 # a core/v1 Node: labels, taints, status.allocatable
//	    metadata:
//	      labels: {gpu.example.com/model: H100}
//	    spec:
//	      taints: [{key: gpu, value: "true", effect: NoSchedule}]
//	    status:
//	      allocatable: {cpu: "96", memory: 1Ti, pods: "110"}
//	  resourceSlices:           # what a node publishes, any resource.k8s.io version
//	  - apiVersion: resource.k8s.io/v1
//	    kind: ResourceSlice
//	    spec:
//	      driver: gpu.example.com
//	      devices: [{name: gpu-0}, {name: gpu-1}]
//
// Each node of the group gets the template with the name
// "<group>-<index>" (index from 0) and the label kubernetes.io/hostname
// set to it, as the kubelet sets it. Its slices are filled in as a driver
// fills them: spec.nodeName is the node; the pool is node-local, named
// after the node ("<node>", or "<node>/<pool>" when the template names a
// pool, so that a driver's several pools stay apart); pool.generation is
// the template's or 1; pool.resourceSliceCount is the number of the
// template's slices of that driver and pool (a pool whose count is wrong
// is incomplete and never used, the scale-from-zero failure of Cluster
// Autoscaler); metadata.name is "<node>-<driver>-<index>". Template slices
// must be node-local: allNodes, nodeSelector and perDeviceNodeSelection
// are refused.
type NodeGroup struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              NodeGroupSpec `json:"spec"`
}

// NodeGroupSpec is what a node of the group is and how many there may be.
type NodeGroupSpec struct {
	// MaxSize is the most nodes the group may add; at least 1.
	MaxSize int32 `json:"maxSize"`
	// Cost is what one node of the group costs, in any unit that all
	// groups share (per hour, per month); optional. The cheapest mix of
	// groups is looked for only among groups with a cost.
	Cost *apiresource.Quantity `json:"cost,omitempty"`
	// Template is the Node of every node of the group; its name is set
	// per node.
	Template corev1.Node `json:"template"`
	// ResourceSlices are the slices a node of the group publishes, in any
	// version of resource.k8s.io.
	ResourceSlices []runtime.RawExtension `json:"resourceSlices,omitempty"`
}

// Group is a NodeGroup read and checked, with its slices in hub form.
type Group struct {
	Name    string
	MaxSize int
	// Cost is in thousandths (Quantity.MilliValue); HasCost when given.
	Cost    int64
	HasCost bool
	// Template is the Node; Slices the template slices (hub).
	Template *corev1.Node
	Slices   []*resource.ResourceSlice
	// Source names where the group came from, for messages.
	Source string
}

// ReadNodeGroups reads NodeGroup documents (YAML, "---" between
// documents, or JSON) from r; source names r in errors. Documents of other
// kinds are an error: a node group file holds node groups only.
func ReadNodeGroups(r io.Reader, source string) ([]*Group, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(r, 4096)
	var out []*Group
	for i := 0; ; i++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", source, i+1, err)
		}
		if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
			continue
		}
		g, err := DecodeNodeGroup(raw, fmt.Sprintf("%s: document %d", source, i+1))
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	names := map[string]bool{}
	for _, g := range out {
		if names[g.Name] {
			return nil, fmt.Errorf("%snode group %q: a second group of that name; give each group a name of its own", prefix(g.Source), g.Name)
		}
		names[g.Name] = true
	}
	return out, nil
}

// DecodeNodeGroup decodes and checks one NodeGroup document (JSON or
// YAML); where, when not empty, names it in errors. Unknown fields are
// errors.
func DecodeNodeGroup(data []byte, where string) (*Group, error) {
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s%w", prefix(where), err)
	}
	var ng NodeGroup
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ng); err != nil {
		return nil, fmt.Errorf("%s%w", prefix(where), err)
	}
	if gv := GroupVersion.String(); ng.APIVersion != gv || ng.Kind != NodeGroupKind {
		return nil, fmt.Errorf("%sapiVersion %q, kind %q: a node group file holds apiVersion: %s, kind: %s", prefix(where), ng.APIVersion, ng.Kind, gv, NodeGroupKind)
	}
	return newGroup(&ng, where)
}

// newGroup checks the group and converts its slices to the hub.
func newGroup(ng *NodeGroup, where string) (*Group, error) {
	name := ng.Name
	at := func(field, format string, args ...any) error {
		return fmt.Errorf("%snode group %q: %s: %s", prefix(where), name, field, fmt.Sprintf(format, args...))
	}
	// Node names are "<group>-<index>": the group's name must leave room
	// for them in a DNS subdomain.
	if errs := validation.IsDNS1123Subdomain(name + "-0"); name == "" || len(errs) > 0 {
		return nil, at("metadata.name", "%q is not a name for nodes (%s); use lower case letters, digits, '-' and '.'", name, strings.Join(errs, "; "))
	}
	if ng.Spec.MaxSize < 1 {
		return nil, at("spec.maxSize", "%d: a group adds at least one node; set spec.maxSize to 1 or more", ng.Spec.MaxSize)
	}
	g := &Group{Name: name, MaxSize: int(ng.Spec.MaxSize), Source: where}
	if c := ng.Spec.Cost; c != nil {
		if c.Sign() < 0 {
			return nil, at("spec.cost", "%s: a cost is not negative", c.String())
		}
		if c.Cmp(maxCost) > 0 {
			// Costs are summed in thousandths in an int64.
			return nil, at("spec.cost", "%s: at most %s; use a larger unit", c.String(), maxCost.String())
		}
		g.Cost, g.HasCost = c.MilliValue(), true
	}
	g.Template = ng.Spec.Template.DeepCopy()
	g.Template.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "Node"}
	for i, raw := range ng.Spec.ResourceSlices {
		field := fmt.Sprintf("spec.resourceSlices[%d]", i)
		s, err := hubSlice(raw.Raw)
		if err != nil {
			return nil, at(field, "%v", err)
		}
		switch {
		case s.Spec.AllNodes != nil && *s.Spec.AllNodes:
			return nil, at(field+".spec.allNodes", "a node group's slices are node-local; publish network-attached devices in the cluster's slices")
		case s.Spec.NodeSelector != nil:
			return nil, at(field+".spec.nodeSelector", "a node group's slices are node-local; publish network-attached devices in the cluster's slices")
		case s.Spec.PerDeviceNodeSelection != nil && *s.Spec.PerDeviceNodeSelection:
			return nil, at(field+".spec.perDeviceNodeSelection", "a node group's slices are node-local, each device on its node")
		case s.Spec.Driver == "":
			return nil, at(field+".spec.driver", "required")
		}
		g.Slices = append(g.Slices, s)
	}
	return g, nil
}

// prefix is where, as the start of a message.
func prefix(where string) string {
	if where == "" {
		return ""
	}
	return where + ": "
}

// hubSlice converts a ResourceSlice of any version to the hub.
func hubSlice(data []byte) (*resource.ResourceSlice, error) {
	u := &unstructured.Unstructured{}
	if err := json.Unmarshal(data, &u.Object); err != nil {
		return nil, err
	}
	gvk := u.GroupVersionKind()
	if gvk.Group != resource.GroupName || gvk.Kind != "ResourceSlice" {
		return nil, fmt.Errorf("apiVersion %q, kind %q: a ResourceSlice of %s is wanted", u.GetAPIVersion(), u.GetKind(), resource.GroupName)
	}
	typed, err := conversion.Scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(u.Object, typed, true); err != nil {
		return nil, err
	}
	typed.GetObjectKind().SetGroupVersionKind(gvk)
	hub, err := conversion.ToHub(typed)
	if err != nil {
		return nil, err
	}
	s, ok := hub.(*resource.ResourceSlice)
	if !ok {
		return nil, fmt.Errorf("converts to %T, not a ResourceSlice", hub)
	}
	return s, nil
}

// NodeName is the name of the group's node of that index.
func (g *Group) NodeName(index int) string {
	return fmt.Sprintf("%s-%d", g.Name, index)
}

// Node is the group's node of that index.
func (g *Group) Node(index int) *corev1.Node {
	n := g.Template.DeepCopy()
	name := g.NodeName(index)
	n.Name, n.GenerateName, n.UID, n.ResourceVersion = name, "", "", ""
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	n.Labels[corev1.LabelHostname] = name
	return n
}

// NodeSlices are the slices the group's node of that index publishes,
// with their pool fields filled as the node's driver fills them.
func (g *Group) NodeSlices(index int) []*resource.ResourceSlice {
	node := g.NodeName(index)
	type pool struct{ driver, name string }
	counts := map[pool]int64{}
	for _, s := range g.Slices {
		counts[pool{s.Spec.Driver, s.Spec.Pool.Name}]++
	}
	out := make([]*resource.ResourceSlice, len(g.Slices))
	for i, t := range g.Slices {
		s := t.DeepCopy()
		s.Name, s.GenerateName, s.UID, s.ResourceVersion = fmt.Sprintf("%s-%s-%d", node, s.Spec.Driver, i), "", "", ""
		s.Spec.NodeName = &node
		poolName := node
		if t.Spec.Pool.Name != "" {
			poolName = node + "/" + t.Spec.Pool.Name
		}
		s.Spec.Pool.Name = poolName
		if s.Spec.Pool.Generation == 0 {
			s.Spec.Pool.Generation = 1
		}
		s.Spec.Pool.ResourceSliceCount = counts[pool{t.Spec.Driver, t.Spec.Pool.Name}]
		out[i] = s
	}
	return out
}
