package allocbench

import (
	"bufio"
	"fmt"
	"io"
	"time"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"
)

// Cluster is a cluster export for the pod benchmarks and the pod
// differential test, in k8s.io/api's types, which both drakit
// (allocator.PlacePods) and upstream's allocator take: one GPU class,
// nodes in the order the scheduler tries them, their slices, claim
// templates, shared claims and pending pods.
type Cluster struct {
	Classes   []*resourceapi.DeviceClass
	Nodes     []*corev1.Node
	Slices    []*resourceapi.ResourceSlice
	Templates []*resourceapi.ResourceClaimTemplate
	Claims    []*resourceapi.ResourceClaim
	Pods      []*corev1.Pod
}

// ClusterSpec sizes the synthetic cluster of the pod benchmark.
type ClusterSpec struct {
	Nodes, GPUsPerNode, Pods int
}

const clusterDriver = "gpu.example.com"

// clusterTemplate is a template of the synthetic cluster and its share of
// the pods (of every 20).
type clusterTemplate struct {
	name  string
	share int
	spec  resourceapi.DeviceClaim
}

// clusterTemplates: one H100 (8 in 20), two GPUs on one NUMA node (5),
// four H100 on one NUMA node (4), eight GPUs (1), and two that no node
// satisfies: a model no node has (1) and five A100 on one NUMA node,
// which has four (1).
func clusterTemplates() []clusterTemplate {
	return []clusterTemplate{
		{"gpu-1", 8, deviceClaim(gpuRequest("gpu", 1, `device.attributes["gpu.example.com"].model == "H100"`))},
		{"gpu-2-numa", 5, numa(deviceClaim(gpuRequest("gpus", 2, "")))},
		{"gpu-4-numa", 4, numa(deviceClaim(gpuRequest("gpus", 4, `device.attributes["gpu.example.com"].model == "H100"`)))},
		{"gpu-8", 1, deviceClaim(gpuRequest("gpus", 8, ""))},
		{"b200", 1, deviceClaim(gpuRequest("gpu", 1, `device.attributes["gpu.example.com"].model == "B200"`))},
		{"a100-5-numa", 1, numa(deviceClaim(gpuRequest("gpus", 5, `device.attributes["gpu.example.com"].model == "A100"`)))},
	}
}

func gpuRequest(name string, count int64, selector string) resourceapi.DeviceRequest {
	r := resourceapi.DeviceRequest{Name: name, Exactly: &resourceapi.ExactDeviceRequest{
		DeviceClassName: clusterDriver, AllocationMode: resourceapi.DeviceAllocationModeExactCount, Count: count}}
	if selector != "" {
		r.Exactly.Selectors = []resourceapi.DeviceSelector{{CEL: &resourceapi.CELDeviceSelector{Expression: selector}}}
	}
	return r
}

func deviceClaim(reqs ...resourceapi.DeviceRequest) resourceapi.DeviceClaim {
	return resourceapi.DeviceClaim{Requests: reqs}
}

func numa(c resourceapi.DeviceClaim) resourceapi.DeviceClaim {
	attr := resourceapi.FullyQualifiedName(clusterDriver + "/numaNode")
	c.Constraints = append(c.Constraints, resourceapi.DeviceConstraint{MatchAttribute: &attr})
	return c
}

// clusterZones label the nodes round-robin.
const clusterZones = 4

var clusterEpoch = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// SyntheticCluster is the benchmark's cluster: spec.Nodes nodes (every
// tenth with A100, the others H100), one slice of spec.GPUsPerNode GPUs per
// node (half on each NUMA node), and spec.Pods pending pods made from the
// templates (one in ten with priority 10, one in seven asking for a zone
// by nodeSelector, creation times a second apart).
func SyntheticCluster(spec ClusterSpec) *Cluster {
	c := &Cluster{Classes: []*resourceapi.DeviceClass{gpuClass()}}
	for i := 0; i < spec.Nodes; i++ {
		name := fmt.Sprintf("node-%05d", i)
		model := "H100"
		if i%10 == 9 {
			model = "A100"
		}
		c.Nodes = append(c.Nodes, clusterNode(name, map[string]string{"zone": fmt.Sprintf("z%d", i%clusterZones)}))
		c.Slices = append(c.Slices, gpuSlice(name, spec.GPUsPerNode, func(d int) (string, int64) { return model, int64(d * 2 / spec.GPUsPerNode) }))
	}
	templates := clusterTemplates()
	for _, t := range templates {
		c.Templates = append(c.Templates, template(t.name, t.spec))
	}
	for i := 0; i < spec.Pods; i++ {
		pod := clusterPod(i, templateOf(templates, i))
		if i%10 == 3 {
			pod.Spec.Priority = ptrTo(int32(10))
		}
		if i%7 == 0 {
			pod.Spec.NodeSelector = map[string]string{"zone": fmt.Sprintf("z%d", (i/7)%clusterZones)}
		}
		c.Pods = append(c.Pods, pod)
	}
	return c
}

// twoModelPairs are the models of the two-models shape's nodes, NUMA node
// 0's first: three models across the cluster, two on each node.
var twoModelPairs = [3][2]string{{"H100", "A100"}, {"H100", "L40S"}, {"A100", "L40S"}}

// twoModelTemplates are the twelve specs of the two-models shape, one pod
// in twelve each: 1, 2, 4 and 8 GPUs, of any model or of one, some on one
// NUMA node. Every one fits on an empty node of some kind; a third of the
// cluster's GPUs stays free, so that every pod is placed.
func twoModelTemplates() []clusterTemplate {
	model := func(m string) string { return `device.attributes["gpu.example.com"].model == "` + m + `"` }
	return []clusterTemplate{
		{"gpu-1", 1, deviceClaim(gpuRequest("gpu", 1, ""))},
		{"h100-1", 1, deviceClaim(gpuRequest("gpu", 1, model("H100")))},
		{"a100-1", 1, deviceClaim(gpuRequest("gpu", 1, model("A100")))},
		{"l40s-1", 1, deviceClaim(gpuRequest("gpu", 1, model("L40S")))},
		{"gpu-2-numa", 1, numa(deviceClaim(gpuRequest("gpus", 2, "")))},
		{"h100-2-numa", 1, numa(deviceClaim(gpuRequest("gpus", 2, model("H100"))))},
		{"a100-2", 1, deviceClaim(gpuRequest("gpus", 2, model("A100")))},
		{"l40s-2-numa", 1, numa(deviceClaim(gpuRequest("gpus", 2, model("L40S"))))},
		{"gpu-4-numa", 1, numa(deviceClaim(gpuRequest("gpus", 4, "")))},
		{"h100-4-numa", 1, numa(deviceClaim(gpuRequest("gpus", 4, model("H100"))))},
		{"l40s-4-numa", 1, numa(deviceClaim(gpuRequest("gpus", 4, model("L40S"))))},
		{"gpu-8", 1, deviceClaim(gpuRequest("gpus", 8, ""))},
	}
}

// TwoModelCluster is the benchmark's second shape: spec.Nodes nodes, each
// with two GPU models, one per NUMA node (twoModelPairs in turn), one
// slice of spec.GPUsPerNode GPUs per node, and spec.Pods pending pods of
// the twelve twoModelTemplates interleaved (pod i asks for template i mod
// 12), creation times a second apart. Unlike SyntheticCluster, a pod's
// kind (its claim's spec) decides which nodes it can use and how it packs
// them, so the kinds fill the cluster at different speeds.
func TwoModelCluster(spec ClusterSpec) *Cluster {
	c := &Cluster{Classes: []*resourceapi.DeviceClass{gpuClass()}}
	for i := 0; i < spec.Nodes; i++ {
		name := fmt.Sprintf("node-%05d", i)
		pair := twoModelPairs[i%len(twoModelPairs)]
		c.Nodes = append(c.Nodes, clusterNode(name, map[string]string{"zone": fmt.Sprintf("z%d", i%clusterZones)}))
		c.Slices = append(c.Slices, gpuSlice(name, spec.GPUsPerNode, func(d int) (string, int64) {
			numaNode := int64(d * 2 / spec.GPUsPerNode)
			return pair[numaNode], numaNode
		}))
	}
	templates := twoModelTemplates()
	for _, t := range templates {
		c.Templates = append(c.Templates, template(t.name, t.spec))
	}
	for i := 0; i < spec.Pods; i++ {
		c.Pods = append(c.Pods, clusterPod(i, templates[i%len(templates)].name))
	}
	return c
}

// clusterShapes are the shapes of BenchmarkPods, by name.
var clusterShapes = []struct {
	name string
	make func(ClusterSpec) *Cluster
}{
	{"one-model", SyntheticCluster},
	{"two-models", TwoModelCluster},
}

func templateOf(templates []clusterTemplate, i int) string {
	k := i % 20
	for _, t := range templates {
		if k < t.share {
			return t.name
		}
		k -= t.share
	}
	return templates[0].name
}

func ptrTo[T any](v T) *T { return &v }

func gpuClass() *resourceapi.DeviceClass {
	return &resourceapi.DeviceClass{
		TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "DeviceClass"},
		ObjectMeta: metav1.ObjectMeta{Name: clusterDriver},
		Spec: resourceapi.DeviceClassSpec{Selectors: []resourceapi.DeviceSelector{
			{CEL: &resourceapi.CELDeviceSelector{Expression: `device.driver == "gpu.example.com"`}}}},
	}
}

func clusterNode(name string, labels map[string]string) *corev1.Node {
	all := map[string]string{"kubernetes.io/hostname": name}
	for k, v := range labels {
		all[k] = v
	}
	return &corev1.Node{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: metav1.ObjectMeta{Name: name, Labels: all}}
}

// gpuSlice is a node's slice of n GPUs; attrs gives each one's model and
// NUMA node.
func gpuSlice(node string, n int, attrs func(d int) (string, int64)) *resourceapi.ResourceSlice {
	s := &resourceapi.ResourceSlice{
		TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceSlice"},
		ObjectMeta: metav1.ObjectMeta{Name: node + "-gpu"},
		Spec: resourceapi.ResourceSliceSpec{Driver: clusterDriver, NodeName: &node,
			Pool: resourceapi.ResourcePool{Name: node, Generation: 1, ResourceSliceCount: 1}},
	}
	for d := 0; d < n; d++ {
		model, numaNode := attrs(d)
		s.Spec.Devices = append(s.Spec.Devices, resourceapi.Device{
			Name: fmt.Sprintf("gpu-%d", d),
			Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
				"model": {StringValue: &model}, "numaNode": {IntValue: &numaNode}},
			Capacity: map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{"memory": {Value: apiresource.MustParse("80Gi")}},
		})
	}
	return s
}

func template(name string, spec resourceapi.DeviceClaim) *resourceapi.ResourceClaimTemplate {
	return &resourceapi.ResourceClaimTemplate{
		TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaimTemplate"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ml"},
		Spec:       resourceapi.ResourceClaimTemplateSpec{Spec: resourceapi.ResourceClaimSpec{Devices: spec}},
	}
}

func clusterPod(i int, templateName string) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("job-%05d", i), Namespace: "ml",
			UID:               types.UID(fmt.Sprintf("00000000-0000-4000-8000-%012d", i)),
			CreationTimestamp: metav1.NewTime(clusterEpoch.Add(time.Duration(i) * time.Second))},
		Spec: corev1.PodSpec{
			Containers:     []corev1.Container{{Name: "main", Image: "example.com/job:1"}},
			ResourceClaims: []corev1.PodResourceClaim{{Name: "gpus", ResourceClaimTemplateName: &templateName}},
		},
	}
}

// WriteYAML writes the cluster as one YAML document per object, the way
// `kubectl get -o yaml` prints each object.
func (c *Cluster) WriteYAML(out io.Writer) error {
	w := bufio.NewWriterSize(out, 1<<20)
	var err error
	write := func(obj any) {
		if err != nil {
			return
		}
		var data []byte
		if data, err = yaml.Marshal(obj); err == nil {
			_, err = fmt.Fprintf(w, "---\n%s", data)
		}
	}
	for _, o := range c.Classes {
		write(o)
	}
	for _, o := range c.Nodes {
		write(o)
	}
	for _, o := range c.Slices {
		write(o)
	}
	for _, o := range c.Templates {
		write(o)
	}
	for _, o := range c.Claims {
		write(o)
	}
	for _, o := range c.Pods {
		write(o)
	}
	if err != nil {
		return err
	}
	return w.Flush()
}
