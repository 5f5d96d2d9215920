package conversion

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// The benchmarks set each conversion beside a deep copy of the same object:
// BenchmarkConversion/<Kind>/<version>/<direction>/{deepcopy,convert,deepcopy-result}. A
// conversion that needs no stash should cost at most 1.5x the deep copy, one
// that writes or reads a stash at most 5x. The direction says which:
// "to-hub" and "from-hub" need none, "to-hub+stash" and "from-hub+stash" do.
// v1beta2 and v1 have the same shape, and a conversion between the two
// ("<Kind>/v1beta2-v1/to-v1", ".../to-v1beta2", through the hub as every
// Convert) should cost at most 1.1x the deep copy.

// benchObjects are realistic objects in v1alpha3, and, for what only the
// v1-era versions can say, in v1; every other version gets its object by
// conversion, with a stash where it needs one.
var benchObjects = map[string]string{
	"ResourceClaim": `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: trainer-gpus
  namespace: ml
  uid: 0b0c3e5e-3c3c-4e0e-9a51-4ab0c6b2a001
  resourceVersion: "4711"
  labels: {app: trainer, team: ml}
spec:
  devices:
    requests:
    - {name: resource, deviceClassName: gpu.example.com, allocationMode: ExactCount, count: 1}
status:
  allocation:
    devices:
      results:
      - {request: resource, driver: gpu.example.com, pool: node-1, device: gpu-3}
    nodeSelector: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [node-1]}]}]}
  reservedFor:
  - {resource: pods, name: trainer-0, uid: 0b0c3e5e-3c3c-4e0e-9a51-4ab0c6b2a002}
`,
	"ResourceClaimRich": `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: trainer-gpus
  namespace: ml
  uid: 0b0c3e5e-3c3c-4e0e-9a51-4ab0c6b2a001
  labels: {app: trainer, team: ml}
spec:
  devices:
    requests:
    - name: gpus
      deviceClassName: gpu.example.com
      allocationMode: ExactCount
      count: 2
      selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}}]
    - {name: nic, deviceClassName: nic.example.com, allocationMode: ExactCount, count: 1}
    constraints: [{requests: [gpus, nic], matchAttribute: example.com/numa}]
    config:
    - requests: [gpus]
      opaque: {driver: gpu.example.com, parameters: {sharing: timeSliced, interval: 10ms}}
status:
  allocation:
    devices:
      results:
      - {request: gpus, driver: gpu.example.com, pool: node-1, device: gpu-0}
      - {request: gpus, driver: gpu.example.com, pool: node-1, device: gpu-1}
      - {request: nic, driver: nic.example.com, pool: node-1, device: nic-0}
    nodeSelector: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [node-1]}]}]}
`,
	"DeviceClass": `
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: gpu.example.com, labels: {vendor: example}}
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
`,
	"DeviceClassRich": `
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: big-gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
  - cel: {expression: 'device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0'}
  config:
  - opaque: {driver: gpu.example.com, parameters: {mode: exclusive}}
`,
	"PodSchedulingContext": `
apiVersion: resource.k8s.io/v1alpha3
kind: PodSchedulingContext
metadata: {name: trainer-0, namespace: ml}
spec: {selectedNode: node-1, potentialNodes: [node-1, node-2, node-3, node-4]}
status:
  resourceClaims: [{name: gpus, unsuitableNodes: [node-3, node-4]}]
`,
	"ResourceSlice": slice(8),
	// A claim of 1.37 that the alpha versions can only keep in a stash:
	// prioritized alternatives, tolerations, a capacity request,
	// distinctAttribute, and a status with later result fields and
	// devices' status. In an alpha version the stash is most of the
	// object: reading it back (to-hub+stash) decodes JSON into a hub
	// claim three times the size of the alpha one, about 3x the deep copy
	// of that result but 6-10x the deep copy of the small alpha input, so
	// this case misses the 5x target against its input (measured on a
	// quiet machine: 16-18 us against 1.8-2.9 us).
	"ResourceClaimV1Rich": `
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: trainer-gpus
  namespace: ml
  uid: 0b0c3e5e-3c3c-4e0e-9a51-4ab0c6b2a001
  resourceVersion: "4711"
  labels: {app: trainer, team: ml}
spec:
  devices:
    requests:
    - name: gpus
      firstAvailable:
      - name: big
        deviceClassName: big-gpu.example.com
        allocationMode: ExactCount
        count: 1
        selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}}]
      - {name: small, deviceClassName: gpu.example.com, allocationMode: ExactCount, count: 2}
    - name: nic
      exactly:
        deviceClassName: nic.example.com
        allocationMode: ExactCount
        count: 1
        tolerations: [{key: example.com/maintenance, operator: Exists, effect: NoSchedule}]
        capacity: {requests: {bandwidth: 10G}}
    constraints:
    - {requests: [gpus, nic], matchAttribute: example.com/numa}
    - {requests: [gpus], distinctAttribute: example.com/card}
    config:
    - requests: [gpus]
      opaque: {driver: gpu.example.com, parameters: {sharing: timeSliced, interval: 10ms}}
status:
  allocation:
    devices:
      results:
      - {request: gpus/small, driver: gpu.example.com, pool: node-1, device: gpu-0}
      - {request: gpus/small, driver: gpu.example.com, pool: node-1, device: gpu-1}
      - request: nic
        driver: nic.example.com
        pool: node-1
        device: nic-0
        shareID: 7d1f2c3a-0000-4000-8000-000000000001
        consumedCapacity: {bandwidth: 10G}
        tolerations: [{key: example.com/maintenance, operator: Exists, effect: NoSchedule}]
    nodeSelector: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [node-1]}]}]}
    allocationTimestamp: "2026-01-02T03:00:00Z"
  reservedFor:
  - {resource: pods, name: trainer-0, uid: 0b0c3e5e-3c3c-4e0e-9a51-4ab0c6b2a002}
  devices:
  - driver: nic.example.com
    pool: node-1
    device: nic-0
    shareID: 7d1f2c3a-0000-4000-8000-000000000001
    networkData: {interfaceName: eth1, ips: [10.0.0.7/24], hardwareAddress: "ea:9f:d3:1a:00:01"}
`,
	"DeviceTaintRule": `
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: node-1-maintenance, labels: {reason: maintenance}}
spec:
  deviceSelector: {driver: gpu.example.com, pool: node-1}
  taint: {key: example.com/maintenance, value: planned, effect: NoExecute, timeAdded: "2026-01-02T03:00:00Z"}
status:
  conditions:
  - {type: EvictionInProgress, status: "False", reason: Completed, message: "no pods left", lastTransitionTime: "2026-01-02T03:05:00Z", observedGeneration: 1}
`,
}

// slice builds a node's slice of n GPUs, each with a few attributes and a
// capacity, in the canonical order v1alpha3 maps convert to.
func slice(n int) string {
	var b strings.Builder
	b.WriteString(`
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata: {name: node-1-gpu.example.com}
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices:
`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `  - name: gpu-%d
    basic:
      attributes:
        driverVersion: {version: 1.2.3}
        index: {int: %d}
        model: {string: a100}
        uuid: {string: GPU-%08d}
      capacity: {memory: 40Gi}
`, i, i, i)
	}
	return b.String()
}

func BenchmarkConversion(b *testing.B) {
	for _, name := range []string{"ResourceClaim", "ResourceClaimRich", "ResourceClaimV1Rich", "DeviceClass", "DeviceClassRich",
		"PodSchedulingContext", "ResourceSlice", "DeviceTaintRule"} {
		obj := decode(&testing.T{}, benchObjects[name])
		hubObj, err := ToHub(obj)
		if err != nil {
			b.Fatal(err)
		}
		for _, gv := range Versions {
			version := gv.Version
			versioned, err := FromHub(hubObj, version)
			if err != nil {
				continue // the kind does not exist there
			}
			stashed := hasStash(versioned)
			suffix := ""
			if stashed {
				suffix = "+stash"
			}
			b.Run(name+"/"+version+"/to-hub"+suffix, func(b *testing.B) {
				pair(b, versioned, func() (runtime.Object, error) { return ToHub(versioned) })
			})
			b.Run(name+"/"+version+"/from-hub"+suffix, func(b *testing.B) {
				pair(b, hubObj, func() (runtime.Object, error) { return FromHub(hubObj, version) })
			})
		}
		// v1beta2 and v1 directly, as a client that reads one and writes the
		// other converts.
		b2, err := FromHub(hubObj, "v1beta2")
		if err != nil {
			continue
		}
		v1obj, err := FromHub(hubObj, "v1")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/v1beta2-v1/to-v1", func(b *testing.B) {
			pair(b, b2, func() (runtime.Object, error) { return Convert(b2, gv("v1")) })
		})
		b.Run(name+"/v1beta2-v1/to-v1beta2", func(b *testing.B) {
			pair(b, v1obj, func() (runtime.Object, error) { return Convert(v1obj, gv("v1beta2")) })
		})
	}
}

// pair runs the deep copy of obj, the conversion, and a deep copy of the
// conversion's result as sub-benchmarks, so that benchstat and a plain
// reader see them side by side. The targets are set against the deep copy
// of obj; the result's deep copy shows what merely building the output
// costs, which is more where the target version's shape is heavier (the
// hub's attribute and capacity maps against a v1alpha2 ResourceSlice's
// lists).
func pair(b *testing.B, obj runtime.Object, convert func() (runtime.Object, error)) {
	b.Run("deepcopy", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_ = obj.DeepCopyObject()
		}
	})
	b.Run("convert", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := convert(); err != nil {
				b.Fatal(err)
			}
		}
	})
	result, err := convert()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("deepcopy-result", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_ = result.DeepCopyObject()
		}
	})
}

func hasStash(obj runtime.Object) bool {
	m, err := meta.Accessor(obj)
	if err != nil {
		return false
	}
	_, ok := m.GetAnnotations()[hub.StashAnnotation]
	return ok
}

// BenchmarkResourceSliceFloor measures the least that any conversion of the
// benchmark slice from v1alpha2 to the hub has to do, next to v1alpha2's deep
// copy, the real conversion and the deep copy of its result (pair): allocate
// the devices and, per device, the attribute and capacity maps that the hub
// (v1's shape) requires, and insert every entry, sharing the values with the
// input as the conversion does. Nothing is checked, sorted or stashed. The
// same for v1alpha3, whose capacity map holds bare quantities where the
// hub's holds them with their request policy.
//
// A Go map allocates its slots eight at a time, so a hub device's two maps
// take about 2 KB however few entries they hold, where a v1alpha2 instance's
// attribute list takes under 0.5 KB. The floor from v1alpha2 therefore costs
// about what the hub's own deep copy costs, several times v1alpha2's: the
// 1.5x target for conversions without a stash cannot be met by any
// conversion into these maps that does not share memory with its input.
// This benchmark shows how close the real one comes to the floor. The
// opposite direction, the hub to v1alpha2, costs about half a deep copy of
// its input for the same reason.
func BenchmarkResourceSliceFloor(b *testing.B) {
	h, err := ToHub(decode(&testing.T{}, benchObjects["ResourceSlice"]))
	if err != nil {
		b.Fatal(err)
	}
	a2obj, err := FromHub(h, "v1alpha2")
	if err != nil {
		b.Fatal(err)
	}
	a2 := a2obj.(*v1alpha2.ResourceSlice)
	b.Run("v1alpha2/floor", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			floorSink = floorFromInstances(a2.NamedResources.Instances)
		}
	})
	b.Run("v1alpha2", func(b *testing.B) {
		pair(b, a2, func() (runtime.Object, error) { return ToHub(a2) })
	})
	a3 := decode(&testing.T{}, benchObjects["ResourceSlice"]).(*v1alpha3.ResourceSlice)
	b.Run("v1alpha3/floor", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			floorSink = floorFromDevices(a3.Spec.Devices)
		}
	})
	b.Run("v1alpha3", func(b *testing.B) {
		pair(b, a3, func() (runtime.Object, error) { return ToHub(a3) })
	})
}

// floorSink keeps the floor's result alive, so that the compiler cannot
// leave out the work.
var floorSink []hub.Device

func floorFromInstances(in []v1alpha2.NamedResourcesInstance) []hub.Device {
	out := make([]hub.Device, len(in))
	for i := range in {
		quantities := 0
		for j := range in[i].Attributes {
			if in[i].Attributes[j].QuantityValue != nil {
				quantities++
			}
		}
		d := &out[i]
		d.Name = in[i].Name
		d.Attributes = make(map[hub.QualifiedName]hub.DeviceAttribute, len(in[i].Attributes)-quantities)
		d.Capacity = make(map[hub.QualifiedName]hub.DeviceCapacity, quantities)
		for j := range in[i].Attributes {
			a := &in[i].Attributes[j]
			if a.QuantityValue != nil {
				d.Capacity[hub.QualifiedName(a.Name)] = hub.DeviceCapacity{Value: *a.QuantityValue}
				continue
			}
			d.Attributes[hub.QualifiedName(a.Name)] = hub.DeviceAttribute{
				IntValue: a.IntValue, BoolValue: a.BoolValue, StringValue: a.StringValue, VersionValue: a.VersionValue,
			}
		}
	}
	return out
}

func floorFromDevices(in []v1alpha3.Device) []hub.Device {
	out := make([]hub.Device, len(in))
	for i := range in {
		d, basic := &out[i], in[i].Basic
		d.Name = in[i].Name
		d.Attributes = make(map[hub.QualifiedName]hub.DeviceAttribute, len(basic.Attributes))
		d.Capacity = make(map[hub.QualifiedName]hub.DeviceCapacity, len(basic.Capacity))
		for name, a := range basic.Attributes {
			d.Attributes[hub.QualifiedName(name)] = hub.DeviceAttribute{
				IntValue: a.IntValue, BoolValue: a.BoolValue, StringValue: a.StringValue, VersionValue: a.VersionValue,
			}
		}
		for name, q := range basic.Capacity {
			d.Capacity[hub.QualifiedName(name)] = hub.DeviceCapacity{Value: q}
		}
	}
	return out
}
