package conversion

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/api/resource/v1beta1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	hub "github.com/drakit/drakit/apis/resource"
)

// Each case is one row of docs/conversion.md: an object in one version, what
// it must look like in another (stash annotation included, to the letter),
// and that converting it back gives the original again.

func gv(version string) schema.GroupVersion {
	return schema.GroupVersion{Group: hub.GroupName, Version: version}
}

// decode reads a YAML manifest strictly into its typed object.
func decode(t *testing.T, manifest string) runtime.Object {
	t.Helper()
	data, err := yaml.YAMLToJSON([]byte(manifest))
	if err != nil {
		t.Fatalf("bad test YAML: %v", err)
	}
	obj, _, err := serializer.NewCodecFactory(Scheme, serializer.EnableStrict).UniversalDeserializer().Decode(data, nil, nil)
	if err != nil {
		t.Fatalf("decoding test YAML: %v", err)
	}
	return obj
}

// sameJSON compares an object with a YAML manifest as JSON values, so that
// field order and formatting do not matter but every field and value does.
func sameJSON(t *testing.T, got runtime.Object, want string) {
	t.Helper()
	gotJSON, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, err := yaml.YAMLToJSON([]byte(want))
	if err != nil {
		t.Fatalf("bad expected YAML: %v", err)
	}
	var g, w any
	if err := json.Unmarshal(gotJSON, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(wantJSON, &w); err != nil {
		t.Fatal(err)
	}
	dropNulls(g)
	dropNulls(w)
	if !reflect.DeepEqual(g, w) {
		gy, _ := yaml.JSONToYAML(gotJSON)
		t.Errorf("got:\n%s\nwant:\n%s", gy, want)
	}
}

// dropNulls removes null values (creationTimestamp, raw extensions) and the
// empty status that encoded objects carry, so the expectations need not
// repeat them. An empty list is not null and still counts.
func dropNulls(v any) {
	if m, ok := v.(map[string]any); ok {
		if st, ok := m["status"].(map[string]any); ok && len(st) == 0 {
			delete(m, "status")
		}
		for k, child := range m {
			if child == nil {
				delete(m, k)
			}
		}
		for _, child := range m {
			dropNulls(child)
		}
	}
	if l, ok := v.([]any); ok {
		for _, child := range l {
			dropNulls(child)
		}
	}
}

func convertOK(t *testing.T, obj runtime.Object, version string) runtime.Object {
	t.Helper()
	out, err := Convert(obj, gv(version))
	if err != nil {
		t.Fatalf("Convert to %s: %v", version, err)
	}
	return out
}

type row struct {
	name string
	in   string // manifest in its own version
	to   string // target version
	want string // expected manifest in the target version
	// back, if set, is the expected manifest after converting `want` back;
	// by default it is `in` itself (lossless).
	back string
}

func runRows(t *testing.T, rows []row) {
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			in := decode(t, r.in)
			before := in.DeepCopyObject()
			out := convertOK(t, in, r.to)
			sameJSON(t, out, r.want)
			if !reflect.DeepEqual(before, in) {
				t.Errorf("Convert modified its input")
			}
			// Back from what the target version's server would store.
			stored := decode(t, r.want)
			back := convertOK(t, stored, in.GetObjectKind().GroupVersionKind().Version)
			expectBack := r.back
			if expectBack == "" {
				expectBack = r.in
			}
			sameJSON(t, back, expectBack)
		})
	}
}

func TestConvertClasses(t *testing.T) {
	runRows(t, []row{{
		name: "driverName becomes a driver selector, nothing stashed",
		in: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClass
metadata: {name: gpu}
driverName: gpu.example.com
suitableNodes:
  nodeSelectorTerms: [{matchExpressions: [{key: gpu, operator: Exists}]}]
`,
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
  suitableNodes:
    nodeSelectorTerms: [{matchExpressions: [{key: gpu, operator: Exists}]}]
`,
	}, {
		name: "selectors after the driver's and config are stashed",
		in: `
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: big-gpu}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
  - cel: {expression: 'device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0'}
  config:
  - opaque: {driver: gpu.example.com, parameters: {sharing: exclusive}}
`,
		to: "v1alpha1",
		want: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClass
metadata:
  name: big-gpu
  annotations:
    conversion.drakit.io/stash: '{"v":1,"selectors":[{"cel":{"expression":"device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0"}}],"config":[{"opaque":{"driver":"gpu.example.com","parameters":{"sharing":"exclusive"}}}]}'
driverName: gpu.example.com
`,
	}, {
		name: "a class without a driver selector has an empty driverName",
		in: `
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: any}
spec:
  selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}}]
`,
		to: "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClass
metadata:
  name: any
  annotations:
    conversion.drakit.io/stash: '{"v":1,"selectors":[{"cel":{"expression":"device.attributes[\"gpu.example.com\"].model == \"a100\""}}]}'
driverName: ""
`,
	}, {
		name: "parametersRef and structuredParameters are stashed in v1alpha3",
		in: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClass
metadata: {name: gpu}
driverName: gpu.example.com
parametersRef: {apiGroup: gpu.example.com, kind: ClassParameters, name: defaults, namespace: gpu-system}
structuredParameters: true
`,
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata:
  name: gpu
  annotations:
    conversion.drakit.io/stash: '{"v":1,"parametersRef":{"apiGroup":"gpu.example.com","kind":"ClassParameters","name":"defaults","namespace":"gpu-system"},"structuredParameters":true}'
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
`,
	}, {
		name: "structuredParameters is stashed in v1alpha1 and native in v1alpha2",
		in: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClass
metadata: {name: gpu}
driverName: gpu.example.com
structuredParameters: false
`,
		to: "v1alpha1",
		want: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClass
metadata:
  name: gpu
  annotations:
    conversion.drakit.io/stash: '{"v":1,"structuredParameters":false}'
driverName: gpu.example.com
`,
	}})
}

func TestConvertClaims(t *testing.T) {
	runRows(t, []row{{
		name: "resourceClassName is one request for one device of the class; the default allocationMode needs no stash",
		in: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
`,
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests: [{name: resource, deviceClassName: gpu, allocationMode: ExactCount, count: 1}]
`,
	}, {
		name: "allocationMode and parametersRef are stashed",
		in: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  resourceClassName: gpu
  allocationMode: Immediate
  parametersRef: {apiGroup: gpu.example.com, kind: ClaimParameters, name: two}
`,
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"parametersRef":{"apiGroup":"gpu.example.com","kind":"ClaimParameters","name":"two"},"allocationMode":"Immediate"}}'
spec:
  devices:
    requests: [{name: resource, deviceClassName: gpu, allocationMode: ExactCount, count: 1}]
`,
	}, {
		name: "a one-request v1alpha3 claim shows its class; the rest is stashed without it and without v1alpha3's defaults",
		in: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  controller: gpu.example.com
  devices:
    requests:
    - name: gpus
      deviceClassName: gpu
      allocationMode: ExactCount
      count: 2
      selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}}]
    constraints: [{requests: [gpus], matchAttribute: gpu.example.com/numa}]
`,
		to: "v1alpha1",
		want: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"gpus","exactly":{"selectors":[{"cel":{"expression":"device.attributes[\"gpu.example.com\"].model == \"a100\""}}],"count":2}}],"constraints":[{"requests":["gpus"],"matchAttribute":"gpu.example.com/numa"}],"controller":"gpu.example.com"}}'
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
`,
	}, {
		name: "requests: [] stays apart from no requests",
		in: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices: {requests: []}
`,
		to: "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[]}}'
spec: {resourceClassName: "", allocationMode: WaitForFirstConsumer}
`,
	}, {
		name: "templates convert their claim spec the same way",
		in: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaimTemplate
metadata: {name: t, namespace: ns}
spec:
  metadata: {labels: {app: trainer}}
  spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
`,
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaimTemplate
metadata: {name: t, namespace: ns}
spec:
  metadata: {labels: {app: trainer}}
  spec:
    devices:
      requests: [{name: resource, deviceClassName: gpu, allocationMode: ExactCount, count: 1}]
`,
	}, {
		name: "a claim without its default allocationMode comes back with it",
		in: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec: {resourceClassName: gpu}
`,
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests: [{name: resource, deviceClassName: gpu, allocationMode: ExactCount, count: 1}]
`,
		back: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
`,
	}, {
		name: "requests without their defaults are stashed as they are and come back defaulted",
		in: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests: [{name: gpus, deviceClassName: gpu}, {name: nics, deviceClassName: nic, count: 2}]
`,
		to: "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"gpus","exactly":{}},{"name":"nics","exactly":{"deviceClassName":"nic","count":2}}]}}'
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
`,
		back: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests:
    - {name: gpus, deviceClassName: gpu, allocationMode: ExactCount, count: 1}
    - {name: nics, deviceClassName: nic, allocationMode: ExactCount, count: 2}
`,
	}, {
		name: "a v1beta1 request without a class keeps the mode and count v1beta1's defaulting leaves it",
		in:   v1beta1NoClass,
		to:   "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"gpu","exactly":{"count":2},"firstAvailable":[{"name":"big","deviceClassName":"big-gpu"}]},{"name":"nic","exactly":{"deviceClassName":"nic"}}],"undefaultedExactly":[0]}}'
spec:
  devices:
    requests:
    - {name: gpu, deviceClassName: "", count: 2}
    - {name: nic, deviceClassName: nic, allocationMode: ExactCount, count: 1}
`,
	}, {
		name: "a v1beta1 request without a class keeps the mode and count v1beta1's defaulting leaves it",
		in:   v1beta1NoClass,
		to:   "v1alpha1",
		want: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"gpu","exactly":{"count":2},"firstAvailable":[{"name":"big","deviceClassName":"big-gpu"}]},{"name":"nic","exactly":{"deviceClassName":"nic"}}],"undefaultedExactly":[0]}}'
spec: {resourceClassName: "", allocationMode: WaitForFirstConsumer}
`,
	}})
}

// v1beta1NoClass is a v1beta1 claim whose first request sets a count beside
// firstAvailable, without a class and a mode, as v1beta1's defaulting leaves
// it (no server stores it: a request with alternatives sets no exact field).
const v1beta1NoClass = `
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: ""
      count: 2
      firstAvailable: [{name: big, deviceClassName: big-gpu, allocationMode: ExactCount, count: 1}]
    - {name: nic, deviceClassName: nic, allocationMode: ExactCount, count: 1}
`

func TestConvertAllocations(t *testing.T) {
	runRows(t, []row{{
		name: "resourceHandle is the status driver's single handle",
		in: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec: {resourceClassName: gpu}
status:
  driverName: gpu.example.com
  allocation:
    resourceHandle: '{"gpu":"GPU-1"}'
    availableOnNodes: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [node-1]}]}]}
    shareable: true
`,
		to: "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec: {resourceClassName: gpu}
status:
  driverName: gpu.example.com
  allocation:
    resourceHandles: [{driverName: gpu.example.com, data: '{"gpu":"GPU-1"}'}]
    availableOnNodes: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [node-1]}]}]}
    shareable: true
`,
	}, {
		name: "structured handles show as v1alpha3 device results",
		in: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
status:
  driverName: gpu.example.com
  allocation:
    resourceHandles:
    - driverName: gpu.example.com
      structuredData:
        nodeName: node-1
        results: [{namedResources: {name: gpu-0}}, {namedResources: {name: gpu-1}}]
    availableOnNodes: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [node-1]}]}]}
`,
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"status":{"driverName":"gpu.example.com","allocation":{"resourceHandles":[{"driverName":"gpu.example.com","structuredData":{"vendorClassParameters":null,"vendorClaimParameters":null,"nodeName":"node-1","results":[{"vendorRequestParameters":null,"namedResources":{"name":"gpu-0"}},{"vendorRequestParameters":null,"namedResources":{"name":"gpu-1"}}]}}],"derivedResults":true}}}'
spec:
  devices:
    requests: [{name: resource, deviceClassName: gpu, allocationMode: ExactCount, count: 1}]
status:
  allocation:
    devices:
      results:
      - {request: resource, driver: gpu.example.com, pool: node-1, device: gpu-0}
      - {request: resource, driver: gpu.example.com, pool: node-1, device: gpu-1}
    nodeSelector: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [node-1]}]}]}
`,
	}, {
		name: "v1alpha3 device results show as structured handles",
		in: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests: [{name: resource, deviceClassName: gpu, allocationMode: ExactCount, count: 1}]
status:
  allocation:
    devices:
      results: [{request: resource, driver: gpu.example.com, pool: node-1, device: gpu-0}]
`,
		to: "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"status":{"allocation":{"devices":{"results":[{"request":"resource","driver":"gpu.example.com","pool":"node-1","device":"gpu-0"}]},"derivedHandles":1}}}'
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
status:
  allocation:
    resourceHandles:
    - driverName: gpu.example.com
      structuredData:
        vendorClassParameters: null
        vendorClaimParameters: null
        nodeName: node-1
        results: [{vendorRequestParameters: null, namedResources: {name: gpu-0}}]
`,
	}, {
		name: "v1alpha3 device results show as the v1alpha1 resourceHandle",
		in: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests: [{name: resource, deviceClassName: gpu, allocationMode: ExactCount, count: 1}]
status:
  allocation:
    devices:
      results: [{request: resource, driver: gpu.example.com, pool: node-1, device: gpu-0}]
`,
		to: "v1alpha1",
		want: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"status":{"allocation":{"devices":{"results":[{"request":"resource","driver":"gpu.example.com","pool":"node-1","device":"gpu-0"}]},"derivedHandles":1}}}'
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
status:
  allocation:
    resourceHandle: '{"results":[{"request":"resource","driver":"gpu.example.com","pool":"node-1","device":"gpu-0"}]}'
`,
	}})
}

func TestConvertSlicesAndScheduling(t *testing.T) {
	runRows(t, []row{{
		name: "named resources are devices; quantities are capacity; the order and lists are stashed",
		in: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata: {name: node-1-gpu}
nodeName: node-1
driverName: gpu.example.com
namedResources:
  instances:
  - name: gpu-0
    attributes:
    - {name: model, string: a100}
    - {name: memory, quantity: 40Gi}
    - {name: cores, intSlice: {ints: [0, 1]}}
`,
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata:
  name: node-1-gpu
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","attributes":{"cores":{"ints":[0,1]}},"namedResources":{"order":["model","memory","cores"]}}]}'
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices:
  - name: gpu-0
    basic:
      attributes: {model: {string: a100}}
      capacity: {memory: 40Gi}
`,
	}, {
		name: "a sorted v1alpha2 device needs no stash",
		in: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata: {name: node-1-gpu}
nodeName: node-1
driverName: gpu.example.com
namedResources:
  instances:
  - name: gpu-0
    attributes: [{name: model, string: a100}, {name: memory, quantity: 40Gi}]
`,
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata: {name: node-1-gpu}
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices:
  - name: gpu-0
    basic:
      attributes: {model: {string: a100}}
      capacity: {memory: 40Gi}
`,
	}, {
		name: "a pool and node selector v1alpha2 cannot say are stashed",
		in: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata: {name: fabric}
spec:
  driver: nic.example.com
  pool: {name: rack-7, generation: 3, resourceSliceCount: 2}
  nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: rack, operator: In, values: ["7"]}]}]}
  devices: [{name: nic-0, basic: {attributes: {speed: {int: 400}}}}]
`,
		to: "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata:
  name: fabric
  annotations:
    conversion.drakit.io/stash: '{"v":1,"pool":{"name":"rack-7","generation":3,"resourceSliceCount":2},"nodeSelector":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"rack","operator":"In","values":["7"]}]}]}}'
driverName: nic.example.com
namedResources:
  instances: [{name: nic-0, attributes: [{name: speed, int: 400}]}]
`,
	}, {
		name: "PodScheduling is PodSchedulingContext",
		in: `
apiVersion: resource.k8s.io/v1alpha1
kind: PodScheduling
metadata: {name: pod, namespace: ns}
spec: {selectedNode: node-1, potentialNodes: [node-1, node-2]}
status:
  resourceClaims: [{name: gpu, unsuitableNodes: [node-2]}]
`,
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: PodSchedulingContext
metadata: {name: pod, namespace: ns}
spec: {selectedNode: node-1, potentialNodes: [node-1, node-2]}
status:
  resourceClaims: [{name: gpu, unsuitableNodes: [node-2]}]
`,
	}, {
		name: "lists convert item by item under the renamed kind",
		in: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClassList
metadata: {resourceVersion: "7"}
items:
- metadata: {name: gpu}
  driverName: gpu.example.com
`,
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClassList
metadata: {resourceVersion: "7"}
items:
- metadata: {name: gpu}
  spec:
    selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
`,
	}})
}

// Edits made to the converted object win over the stash.
func TestConvertEditedAfterConversion(t *testing.T) {
	t.Run("class driverName", func(t *testing.T) {
		a1 := decode(t, `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClass
metadata:
  name: c
  annotations:
    conversion.drakit.io/stash: '{"v":1,"selectors":[{"cel":{"expression":"true"}}]}'
driverName: new.example.com
`)
		sameJSON(t, convertOK(t, a1, "v1alpha3"), `
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: c}
spec:
  selectors:
  - cel: {expression: 'device.driver == "new.example.com"'}
  - cel: {expression: "true"}
`)
	})
	t.Run("claim resourceClassName", func(t *testing.T) {
		a1 := decode(t, `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"gpus","exactly":{"allocationMode":"ExactCount","count":2}}]}}'
spec: {resourceClassName: edited-class}
`)
		sameJSON(t, convertOK(t, a1, "v1alpha3"), `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests: [{name: gpus, deviceClassName: edited-class, allocationMode: ExactCount, count: 2}]
`)
	})
	t.Run("v1alpha3 results edited after they were derived from handles", func(t *testing.T) {
		a2 := decode(t, `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec: {resourceClassName: gpu}
status:
  allocation:
    resourceHandles:
    - driverName: gpu.example.com
      structuredData: {nodeName: node-1, results: [{namedResources: {name: gpu-0}}]}
`)
		a3 := convertOK(t, a2, "v1alpha3")
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(a3)
		if err != nil {
			t.Fatal(err)
		}
		results, _, _ := unstructured.NestedSlice(u, "status", "allocation", "devices", "results")
		results[0].(map[string]any)["device"] = "gpu-7"
		if err := unstructured.SetNestedSlice(u, results, "status", "allocation", "devices", "results"); err != nil {
			t.Fatal(err)
		}
		h, err := ToHub(unstructuredTyped{t, u}.typed("v1alpha3", "ResourceClaim"))
		if err != nil {
			t.Fatal(err)
		}
		alloc := h.(*hub.ResourceClaim).Status.Allocation
		if len(alloc.Devices.Results) != 1 || alloc.Devices.Results[0].Device != "gpu-7" {
			t.Errorf("the edited results were not kept: %+v", alloc.Devices.Results)
		}
		if len(alloc.ResourceHandles) != 1 {
			t.Errorf("the stashed handles were not restored: %+v", alloc.ResourceHandles)
		}
	})
	t.Run("slice attributes edited after conversion", func(t *testing.T) {
		a3 := decode(t, `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","attributes":{"cores":{"ints":[0,1]}},"namedResources":{"order":["model","cores"]}}]}'
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices: [{name: gpu-0, basic: {attributes: {model: {string: h100}}}}]
`)
		// The edited attribute is v1alpha3's; the list it could not show,
		// and the order, come back from the stash.
		sameJSON(t, convertOK(t, a3, "v1alpha2"), `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata: {name: s}
nodeName: node-1
driverName: gpu.example.com
namedResources:
  instances: [{name: gpu-0, attributes: [{name: model, string: h100}, {name: cores, intSlice: {ints: [0, 1]}}]}]
`)
	})
}

type unstructuredTyped struct {
	t *testing.T
	u map[string]any
}

func (x unstructuredTyped) typed(version, kind string) runtime.Object {
	obj, err := Scheme.New(gv(version).WithKind(kind))
	if err != nil {
		x.t.Fatal(err)
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(x.u, obj); err != nil {
		x.t.Fatal(err)
	}
	return obj
}

func TestConvertMalformedStash(t *testing.T) {
	for _, tc := range []struct{ name, value, want string }{
		{"not JSON", `{"v":1,`, "not a JSON object"},
		{"no version", `{"spec":{}}`, `no format version`},
		{"newer format", `{"v":3}`, "format version 3"},
		{"lost fields in format 1", `{"v":1,"lost":{"spec.devices":{}}}`, `needs format 2`},
		{"lost fields at no struct", `{"v":2,"lost":{"spec.devices.requests":{}}}`, `no struct at "spec.devices.requests"`},
		{"unknown field", `{"v":1,"spec":{"colour":"red"}}`, `unknown field "colour"`},
		{"wrong type", `{"v":1,"spec":{"requests":"all"}}`, "cannot unmarshal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj := decode(t, `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata: {name: broken, namespace: team-a}
spec: {resourceClassName: gpu}
`)
			obj.(metaObject).SetAnnotations(map[string]string{hub.StashAnnotation: tc.value})
			_, err := Convert(obj, gv("v1alpha3"))
			var mse *hub.MalformedStashError
			if !errors.As(err, &mse) {
				t.Fatalf("want a *MalformedStashError, got %v", err)
			}
			if mse.Kind != "ResourceClaim" || mse.Namespace != "team-a" || mse.Name != "broken" {
				t.Errorf("error names %s %s/%s, want ResourceClaim team-a/broken", mse.Kind, mse.Namespace, mse.Name)
			}
			for _, s := range []string{tc.want, hub.StashAnnotation, `"team-a/broken"`} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

type metaObject interface {
	SetAnnotations(map[string]string)
}

func TestConvertKindNotInVersion(t *testing.T) {
	for _, tc := range []struct {
		manifest, to string
		versions     []string
	}{
		{`
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata: {name: s}
spec: {driver: d, pool: {name: p, resourceSliceCount: 1}, nodeName: node-1}
`, "v1alpha1", []string{"v1alpha2 (as ResourceSlice)", "v1alpha3 (as ResourceSlice)", "v1beta1 (as ResourceSlice)", "v1beta2 (as ResourceSlice)", "v1 (as ResourceSlice)"}},
		{`
apiVersion: resource.k8s.io/v1alpha2
kind: PodSchedulingContext
metadata: {name: pod, namespace: ns}
spec: {selectedNode: node-1}
`, "v1", []string{"v1alpha1 (as PodScheduling)", "v1alpha2 (as PodSchedulingContext)", "v1alpha3 (as PodSchedulingContext)"}},
		{`
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: maintenance}
spec:
  taint: {key: example.com/maintenance, effect: NoSchedule, timeAdded: "2026-01-02T03:00:00Z"}
`, "v1beta1", []string{"v1alpha3 (as DeviceTaintRule)", "v1beta2 (as DeviceTaintRule)", "v1 (as DeviceTaintRule)"}},
		{`
apiVersion: resource.k8s.io/v1beta2
kind: DeviceTaintRuleList
items: []
`, "v1alpha2", []string{"v1alpha3 (as DeviceTaintRuleList)", "v1beta2 (as DeviceTaintRuleList)", "v1 (as DeviceTaintRuleList)"}},
		{`
apiVersion: resource.k8s.io/v1alpha3
kind: ResourcePoolStatusRequest
metadata: {name: gpus}
spec: {driver: gpu.example.com, limit: 100}
`, "v1", []string{"v1alpha3 (as ResourcePoolStatusRequest)"}},
		{`
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaimParameters
metadata: {name: p, namespace: ns}
`, "v1alpha3", []string{"v1alpha2 (as ResourceClaimParameters)"}},
		{`
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClassParametersList
items: []
`, "v1alpha1", []string{"v1alpha2 (as ResourceClassParametersList)"}},
	} {
		obj := decode(t, tc.manifest)
		_, err := Convert(obj, gv(tc.to))
		var kerr *hub.KindNotInVersionError
		if !errors.As(err, &kerr) {
			t.Fatalf("want a *KindNotInVersionError, got %v", err)
		}
		if kerr.Version != tc.to || !reflect.DeepEqual(kerr.Versions, tc.versions) {
			t.Errorf("got %+v, want version %s and %v", kerr, tc.to, tc.versions)
		}
	}
}

func TestConvertSameVersionIsIdentity(t *testing.T) {
	obj := decode(t, `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations: {conversion.drakit.io/stash: '{"v":1,"spec":{"controller":"x"}}'}
spec: {resourceClassName: gpu}
`)
	out := convertOK(t, obj, "v1alpha2")
	if out == obj {
		t.Fatal("Convert returned its input, not a copy")
	}
	if !reflect.DeepEqual(out, obj) {
		t.Errorf("same-version conversion changed the object")
	}
}

func TestConvertUnstructured(t *testing.T) {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "resource.k8s.io/v1alpha1",
		"kind":       "ResourceClass",
		"metadata":   map[string]any{"name": "gpu"},
		"driverName": "gpu.example.com",
	}}
	out, err := Convert(u, gv("v1alpha3"))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := out.(*unstructured.Unstructured)
	if !ok {
		t.Fatalf("unstructured in, %T out", out)
	}
	if got.GetKind() != "DeviceClass" || got.GetAPIVersion() != "resource.k8s.io/v1alpha3" {
		t.Errorf("got %s %s", got.GetAPIVersion(), got.GetKind())
	}
	sel, _, _ := unstructured.NestedSlice(got.Object, "spec", "selectors")
	if len(sel) != 1 {
		t.Errorf("selectors: %v", sel)
	}

	u.Object["driverNmae"] = "typo"
	if _, err := Convert(u, gv("v1alpha3")); err == nil || !strings.Contains(err.Error(), "driverNmae") {
		t.Errorf("an unknown field must be an error naming it, got %v", err)
	}

	// apimachinery would never finish parsing this quantity: refused at once.
	slice := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "resource.k8s.io/v1alpha3",
		"kind":       "ResourceSlice",
		"metadata":   map[string]any{"name": "node-a"},
		"spec": map[string]any{
			"driver": "gpu.example.com", "nodeName": "node-a",
			"pool": map[string]any{"name": "node-a", "resourceSliceCount": int64(1)},
			"devices": []any{map[string]any{
				"name":  "gpu-0",
				"basic": map[string]any{"capacity": map[string]any{"memory": "1E2147483648"}},
			}},
		},
	}}
	if _, err := Convert(slice, gv("v1alpha2")); err == nil || !strings.Contains(err.Error(), `ResourceSlice "node-a": spec.devices[0].basic.capacity.memory: quantity "1E2147483648": the exponent 2147483648 is out of range`) {
		t.Errorf("a quantity with a huge exponent must be an error naming it, got %v", err)
	}

	other := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}}
	if _, err := Convert(other, gv("v1alpha3")); err == nil {
		t.Error("an object of another group must be refused")
	}
}

// hubRow is a row for what only the hub (or a v1-era version) can say: a
// hub object, defaulted, what it must look like in an alpha version (stash
// annotation included, to the letter), and that converting that back gives
// the hub object again.
type hubRow struct {
	name string
	in   runtime.Object
	to   string
	want string
}

func runHubRows(t *testing.T, rows []hubRow) {
	for _, r := range rows {
		t.Run(r.name+" ("+r.to+")", func(t *testing.T) {
			before := r.in.DeepCopyObject()
			out, err := FromHub(r.in, r.to)
			if err != nil {
				t.Fatalf("FromHub to %s: %v", r.to, err)
			}
			sameJSON(t, out, r.want)
			if !reflect.DeepEqual(before, r.in) {
				t.Errorf("FromHub modified its input")
			}
			back, err := ToHub(decode(t, r.want))
			if err != nil {
				t.Fatalf("back to the hub: %v", err)
			}
			clearTypeMeta(back)
			if d := diff(r.in, back); d != "" {
				t.Errorf("back in the hub (-in +back):\n%s", d)
			}
		})
	}
}

func ptrTo[T any](v T) *T { return &v }

// hubClaim is a defaulted hub claim with the given requests.
func hubClaim(requests ...hub.DeviceRequest) *hub.ResourceClaim {
	return &hub.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "ns"},
		Spec: hub.ResourceClaimSpec{
			AllocationMode: hub.AllocationModeWaitForFirstConsumer,
			Devices:        hub.DeviceClaim{Requests: requests},
		},
	}
}

func exactly(name, class string, e hub.ExactDeviceRequest) hub.DeviceRequest {
	e.DeviceClassName = class
	if e.AllocationMode == "" {
		e.AllocationMode, e.Count = hub.DeviceAllocationModeExactCount, max(e.Count, 1)
	}
	return hub.DeviceRequest{Name: name, Exactly: &e}
}

func TestConvertHubClasses(t *testing.T) {
	class := &hub.DeviceClass{
		ObjectMeta: metav1.ObjectMeta{Name: "gpu"},
		Spec: hub.DeviceClassSpec{
			Selectors:            []hub.DeviceSelector{hub.DriverSelector("gpu.example.com")},
			ExtendedResourceName: ptrTo("example.com/gpu"),
		},
	}
	runHubRows(t, []hubRow{{
		name: "extendedResourceName is stashed",
		in:   class,
		to:   "v1alpha1",
		want: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClass
metadata:
  name: gpu
  annotations:
    conversion.drakit.io/stash: '{"v":1,"extendedResourceName":"example.com/gpu"}'
driverName: gpu.example.com
`,
	}, {
		name: "extendedResourceName is stashed",
		in:   class,
		to:   "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClass
metadata:
  name: gpu
  annotations:
    conversion.drakit.io/stash: '{"v":1,"extendedResourceName":"example.com/gpu"}'
driverName: gpu.example.com
`,
	}, {
		name: "extendedResourceName is stashed",
		in:   class,
		to:   "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata:
  name: gpu
  annotations:
    conversion.drakit.io/stash: '{"v":1,"extendedResourceName":"example.com/gpu"}'
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
`,
	}})
}

func TestConvertHubRequests(t *testing.T) {
	exact := hub.DeviceAllocationModeExactCount
	firstAvailable := hub.DeviceRequest{Name: "gpu", FirstAvailable: []hub.DeviceSubRequest{
		{Name: "big", DeviceClassName: "big-gpu", AllocationMode: exact, Count: 1},
		{Name: "small", DeviceClassName: "small-gpu", AllocationMode: exact, Count: 2},
	}}
	tolerating := exactly("gpu", "gpu", hub.ExactDeviceRequest{Tolerations: []hub.DeviceToleration{
		{Key: "example.com/maintenance", Operator: hub.DeviceTolerationOpExists},
		{Key: "example.com/flaky", Operator: hub.DeviceTolerationOpEqual, Value: "yes"},
	}})
	distinct := hubClaim(exactly("nic", "nic", hub.ExactDeviceRequest{Count: 2}))
	distinct.Spec.Devices.Constraints = []hub.DeviceConstraint{
		{Requests: []string{"nic"}, MatchAttribute: ptrTo(hub.FullyQualifiedName("example.com/numa"))},
		{Requests: []string{"nic"}, DistinctAttribute: ptrTo(hub.FullyQualifiedName("example.com/card"))},
	}
	runHubRows(t, []hubRow{{
		name: "firstAvailable shows its first alternative; the requests are stashed without defaults",
		in:   hubClaim(firstAvailable),
		to:   "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"gpu","firstAvailable":[{"name":"big","deviceClassName":"big-gpu"},{"name":"small","deviceClassName":"small-gpu","count":2}]}]}}'
spec:
  devices:
    requests: [{name: gpu, deviceClassName: big-gpu, allocationMode: ExactCount, count: 1}]
`,
	}, {
		name: "firstAvailable is stashed; resourceClassName is empty without exactly",
		in:   hubClaim(firstAvailable),
		to:   "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"gpu","firstAvailable":[{"name":"big","deviceClassName":"big-gpu"},{"name":"small","deviceClassName":"small-gpu","count":2}]}]}}'
spec: {resourceClassName: "", allocationMode: WaitForFirstConsumer}
`,
	}, {
		name: "tolerations are stashed with the requests, without the default operator",
		in:   hubClaim(tolerating),
		to:   "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu","tolerations":[{"key":"example.com/maintenance","operator":"Exists"},{"key":"example.com/flaky","value":"yes"}]}}]}}'
spec:
  devices:
    requests: [{name: gpu, deviceClassName: gpu, allocationMode: ExactCount, count: 1}]
`,
	}, {
		name: "adminAccess true is the flat request's true; false is stashed",
		in: hubClaim(
			exactly("watch", "gpu", hub.ExactDeviceRequest{AdminAccess: ptrTo(true)}),
			exactly("use", "gpu", hub.ExactDeviceRequest{AdminAccess: ptrTo(false)})),
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"watch","exactly":{"deviceClassName":"gpu","adminAccess":true}},{"name":"use","exactly":{"deviceClassName":"gpu","adminAccess":false}}]}}'
spec:
  devices:
    requests:
    - {name: watch, deviceClassName: gpu, allocationMode: ExactCount, count: 1, adminAccess: true}
    - {name: use, deviceClassName: gpu, allocationMode: ExactCount, count: 1}
`,
	}, {
		name: "a request with neither exactly nor firstAvailable is stashed",
		in:   hubClaim(hub.DeviceRequest{Name: "nothing"}),
		to:   "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"nothing"}]}}'
spec:
  devices:
    requests: [{name: nothing, deviceClassName: ""}]
`,
	}, {
		name: "an empty exactly is a flat request with nothing set",
		in:   hubClaim(hub.DeviceRequest{Name: "empty", Exactly: &hub.ExactDeviceRequest{}}),
		to:   "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests: [{name: empty, deviceClassName: ""}]
`,
	}, {
		name: "constraints with distinctAttribute are stashed; the others are shown",
		in:   distinct,
		to:   "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"constraints":[{"requests":["nic"],"matchAttribute":"example.com/numa"},{"requests":["nic"],"distinctAttribute":"example.com/card"}]}}'
spec:
  devices:
    requests: [{name: nic, deviceClassName: nic, allocationMode: ExactCount, count: 2}]
    constraints: [{requests: [nic], matchAttribute: example.com/numa}]
`,
	}})

	t.Run("claim config is stashed in v1alpha1 and v1alpha2", func(t *testing.T) {
		runRows(t, []row{{
			name: "config",
			in: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests: [{name: resource, deviceClassName: gpu, allocationMode: ExactCount, count: 1}]
    config: [{requests: [resource], opaque: {driver: gpu.example.com, parameters: {sharing: timeSliced}}}]
`,
			to: "v1alpha2",
			want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"config":[{"requests":["resource"],"opaque":{"driver":"gpu.example.com","parameters":{"sharing":"timeSliced"}}}]}}'
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
`,
		}})
	})

	t.Run("adminAccess true from v1alpha3 is the hub's true", func(t *testing.T) {
		runRows(t, []row{{
			name: "adminAccess",
			in: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests: [{name: resource, deviceClassName: gpu, allocationMode: ExactCount, count: 1, adminAccess: true}]
`,
			to: "v1alpha2",
			want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"resource","exactly":{"adminAccess":true}}]}}'
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
`,
		}})
	})

	t.Run("edited v1alpha3 requests win over the stash", func(t *testing.T) {
		a3 := decode(t, `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"gpu","firstAvailable":[{"name":"big","deviceClassName":"big-gpu"},{"name":"small","deviceClassName":"small-gpu","count":2}]}],"constraints":[{"requests":["gpu"],"distinctAttribute":"example.com/card"}]}}'
spec:
  devices:
    requests: [{name: gpu, deviceClassName: huge-gpu, allocationMode: ExactCount, count: 1}]
    constraints: [{requests: [gpu], matchAttribute: example.com/numa}]
`)
		h, err := ToHub(a3)
		if err != nil {
			t.Fatal(err)
		}
		want := hubClaim(exactly("gpu", "huge-gpu", hub.ExactDeviceRequest{}))
		want.Spec.Devices.Constraints = []hub.DeviceConstraint{{Requests: []string{"gpu"}, MatchAttribute: ptrTo(hub.FullyQualifiedName("example.com/numa"))}}
		clearTypeMeta(h)
		if d := diff(want, h); d != "" {
			t.Errorf("(-want +got):\n%s", d)
		}
	})
}

func TestConvertHubStatus(t *testing.T) {
	allocated := hubClaim(exactly(hub.LegacyRequestName, "gpu", hub.ExactDeviceRequest{}))
	allocated.Status = hub.ResourceClaimStatus{
		Allocation: &hub.AllocationResult{
			Devices: hub.DeviceAllocationResult{Results: []hub.DeviceRequestAllocationResult{
				{Request: "resource", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"},
			}},
			AllocationTimestamp: ptrTo(metav1.Unix(1767322800, 0)),
		},
		Devices: []hub.AllocatedDeviceStatus{{Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0",
			NetworkData: &hub.NetworkDeviceData{InterfaceName: "eth1"}}},
		ReservedFor:           []hub.ResourceClaimConsumerReference{{Resource: "pods", Name: "trainer-0", UID: "0b0c3e5e"}},
		DeallocationRequested: true,
	}
	allocated.Status.Allocation.Shareable = true
	allocated.Status.Allocation.Controller = "gpu.example.com"
	later := hubClaim(hub.DeviceRequest{Name: "gpu", FirstAvailable: []hub.DeviceSubRequest{
		{Name: "big", DeviceClassName: "big-gpu", AllocationMode: hub.DeviceAllocationModeExactCount, Count: 1}}})
	later.Status.Allocation = &hub.AllocationResult{Devices: hub.DeviceAllocationResult{Results: []hub.DeviceRequestAllocationResult{
		{Request: "gpu/big", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0", AdminAccess: ptrTo(true)},
		{Request: "gpu/big", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-1"},
	}}}
	runHubRows(t, []hubRow{{
		name: "status.devices and allocationTimestamp are stashed; the other status fields",
		in:   allocated,
		to:   "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"status":{"allocation":{"shareable":true,"allocationTimestamp":"2026-01-02T03:00:00Z"},"devices":[{"driver":"gpu.example.com","pool":"node-1","device":"gpu-0","conditions":null,"networkData":{"interfaceName":"eth1"}}]}}'
spec:
  devices:
    requests: [{name: resource, deviceClassName: gpu, allocationMode: ExactCount, count: 1}]
status:
  allocation:
    devices:
      results: [{request: resource, driver: gpu.example.com, pool: node-1, device: gpu-0}]
    controller: gpu.example.com
  reservedFor: [{resource: pods, name: trainer-0, uid: 0b0c3e5e}]
  deallocationRequested: true
`,
	}, {
		name: "status.devices and allocationTimestamp are stashed; the other status fields",
		in:   allocated,
		to:   "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"status":{"allocation":{"devices":{"results":[{"request":"resource","driver":"gpu.example.com","pool":"node-1","device":"gpu-0"}]},"controller":"gpu.example.com","allocationTimestamp":"2026-01-02T03:00:00Z","derivedHandles":1},"devices":[{"driver":"gpu.example.com","pool":"node-1","device":"gpu-0","conditions":null,"networkData":{"interfaceName":"eth1"}}]}}'
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
status:
  allocation:
    resourceHandles:
    - driverName: gpu.example.com
      structuredData:
        vendorClassParameters: null
        vendorClaimParameters: null
        nodeName: node-1
        results: [{vendorRequestParameters: null, namedResources: {name: gpu-0}}]
    shareable: true
  reservedFor: [{resource: pods, name: trainer-0, uid: 0b0c3e5e}]
  deallocationRequested: true
`,
	}, {
		name: "status.devices and allocationTimestamp are stashed; the other status fields",
		in:   allocated,
		to:   "v1alpha1",
		want: `
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"status":{"allocation":{"devices":{"results":[{"request":"resource","driver":"gpu.example.com","pool":"node-1","device":"gpu-0"}]},"controller":"gpu.example.com","allocationTimestamp":"2026-01-02T03:00:00Z","derivedHandles":1},"devices":[{"driver":"gpu.example.com","pool":"node-1","device":"gpu-0","conditions":null,"networkData":{"interfaceName":"eth1"}}]}}'
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
status:
  allocation:
    resourceHandle: '{"results":[{"request":"resource","driver":"gpu.example.com","pool":"node-1","device":"gpu-0"}]}'
    shareable: true
  reservedFor: [{resource: pods, name: trainer-0, uid: 0b0c3e5e}]
  deallocationRequested: true
`,
	}, {
		name: "results with later fields are stashed; an alternative's result shows as it is",
		in:   later,
		to:   "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"requests":[{"name":"gpu","firstAvailable":[{"name":"big","deviceClassName":"big-gpu"}]}]},"status":{"allocation":{"devices":{"results":[{"request":"gpu/big","driver":"gpu.example.com","pool":"node-1","device":"gpu-0","adminAccess":true},{"request":"gpu/big","driver":"gpu.example.com","pool":"node-1","device":"gpu-1"}]}}}}'
spec:
  devices:
    requests: [{name: gpu, deviceClassName: big-gpu, allocationMode: ExactCount, count: 1}]
status:
  allocation:
    devices:
      results:
      - {request: gpu/big, driver: gpu.example.com, pool: node-1, device: gpu-0}
      - {request: gpu/big, driver: gpu.example.com, pool: node-1, device: gpu-1}
`,
	}})
}

func TestConvertHubSlices(t *testing.T) {
	q := apiresource.MustParse
	nodes := &hub.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "s"},
		Spec: hub.ResourceSliceSpec{Driver: "gpu.example.com", Pool: hub.ResourcePool{Name: "gpu.example.com", ResourceSliceCount: 1},
			NodeName: ptrTo(""), AllNodes: ptrTo(false), Devices: []hub.Device{}},
	}
	partitioned := &hub.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "s"},
		Spec: hub.ResourceSliceSpec{
			Driver: "gpu.example.com", Pool: hub.ResourcePool{Name: "pool", ResourceSliceCount: 2},
			PerDeviceNodeSelection: ptrTo(true),
			SharedCounters:         []hub.CounterSet{{Name: "gpu-0", Counters: map[string]hub.Counter{"memory": {Value: q("40Gi")}}}},
			PartitionTypeAttribute: ptrTo(hub.FullyQualifiedName("gpu.example.com/profile")),
			SkipNodeOperations:     []hub.SkipNodeOperation{hub.SkipNodeOperationAll},
			Devices: []hub.Device{{
				Name:       "gpu-0-half",
				Attributes: map[hub.QualifiedName]hub.DeviceAttribute{"profile": {StringValue: ptrTo("half")}},
				ConsumesCounters: []hub.DeviceCounterConsumption{{CounterSet: "gpu-0",
					Counters: map[string]hub.Counter{"memory": {Value: q("20Gi")}}}},
				NodeName: ptrTo("node-1"),
				Taints:   []hub.DeviceTaint{{Key: "example.com/maintenance", Effect: hub.DeviceTaintEffectNoSchedule}},
			}},
		},
	}
	shared := &hub.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "s"},
		Spec: hub.ResourceSliceSpec{
			Driver: "gpu.example.com", Pool: hub.ResourcePool{Name: "node-1", ResourceSliceCount: 1}, NodeName: ptrTo("node-1"),
			Devices: []hub.Device{{
				Name: "gpu-0",
				Attributes: map[hub.QualifiedName]hub.DeviceAttribute{
					"model": {StringValue: ptrTo("a100")},
					"cores": {IntValues: []int64{0, 1}},
				},
				Capacity: map[hub.QualifiedName]hub.DeviceCapacity{"memory": {Value: q("40Gi"),
					RequestPolicy: &hub.CapacityRequestPolicy{Default: ptrTo(q("1Gi")), ValidRange: &hub.CapacityRequestPolicyRange{Min: ptrTo(q("1Gi"))}}}},
				AllowMultipleAllocations: ptrTo(true),
			}},
		},
	}
	clash := &hub.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "s"},
		Spec: hub.ResourceSliceSpec{
			Driver: "gpu.example.com", Pool: hub.ResourcePool{Name: "node-1", ResourceSliceCount: 1}, NodeName: ptrTo("node-1"),
			Devices: []hub.Device{{
				Name: "gpu-0",
				Attributes: map[hub.QualifiedName]hub.DeviceAttribute{
					"size":  {IntValue: ptrTo[int64](2)},
					"flags": {BoolValues: []bool{true, false}},
				},
				Capacity: map[hub.QualifiedName]hub.DeviceCapacity{"size": {Value: q("1Gi")}, "memory": {Value: q("40Gi")}},
			}},
		},
	}
	runHubRows(t, []hubRow{{
		name: "a set empty nodeName and a false allNodes are stashed",
		in:   nodes,
		to:   "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"nodeName":"","allNodes":false}'
spec:
  driver: gpu.example.com
  pool: {name: gpu.example.com, generation: 0, resourceSliceCount: 1}
  devices: []
`,
	}, {
		name: "a set empty nodeName and a false allNodes are stashed",
		in:   nodes,
		to:   "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"nodeName":"","allNodes":false}'
driverName: gpu.example.com
namedResources: {instances: []}
`,
	}, {
		name: "partitionable devices: the slice's and the devices' later fields are stashed",
		in:   partitioned,
		to:   "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0-half","consumesCounters":[{"counterSet":"gpu-0","counters":{"memory":{"value":"20Gi"}}}],"nodeName":"node-1","taints":[{"key":"example.com/maintenance","effect":"NoSchedule"}]}],"perDeviceNodeSelection":true,"sharedCounters":[{"name":"gpu-0","counters":{"memory":{"value":"40Gi"}}}],"partitionTypeAttribute":"gpu.example.com/profile","skipNodeOperations":["*"]}'
spec:
  driver: gpu.example.com
  pool: {name: pool, generation: 0, resourceSliceCount: 2}
  devices: [{name: gpu-0-half, basic: {attributes: {profile: {string: half}}}}]
`,
	}, {
		name: "partitionable devices: the slice's and the devices' later fields are stashed",
		in:   partitioned,
		to:   "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"pool":{"name":"pool","resourceSliceCount":2},"devices":[{"index":0,"name":"gpu-0-half","consumesCounters":[{"counterSet":"gpu-0","counters":{"memory":{"value":"20Gi"}}}],"nodeName":"node-1","taints":[{"key":"example.com/maintenance","effect":"NoSchedule"}]}],"perDeviceNodeSelection":true,"sharedCounters":[{"name":"gpu-0","counters":{"memory":{"value":"40Gi"}}}],"partitionTypeAttribute":"gpu.example.com/profile","skipNodeOperations":["*"]}'
driverName: gpu.example.com
namedResources:
  instances: [{name: gpu-0-half, attributes: [{name: profile, string: half}]}]
`,
	}, {
		name: "list attributes and request policies are stashed; the capacity's value is shown",
		in:   shared,
		to:   "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","attributes":{"cores":{"ints":[0,1]}},"capacity":{"memory":{"value":"40Gi","requestPolicy":{"default":"1Gi","validRange":{"min":"1Gi"}}}},"allowMultipleAllocations":true}]}'
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices: [{name: gpu-0, basic: {attributes: {model: {string: a100}}, capacity: {memory: 40Gi}}}]
`,
	}, {
		name: "int lists are shown; request policies are stashed",
		in:   shared,
		to:   "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","capacity":{"memory":{"value":"40Gi","requestPolicy":{"default":"1Gi","validRange":{"min":"1Gi"}}}},"allowMultipleAllocations":true}]}'
nodeName: node-1
driverName: gpu.example.com
namedResources:
  instances:
  - name: gpu-0
    attributes: [{name: cores, intSlice: {ints: [0, 1]}}, {name: model, string: a100}, {name: memory, quantity: 40Gi}]
`,
	}, {
		name: "bool lists, and a capacity named like an attribute, are stashed",
		in:   clash,
		to:   "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","attributes":{"flags":{"bools":[true,false]}},"capacity":{"size":{"value":"1Gi"}}}]}'
nodeName: node-1
driverName: gpu.example.com
namedResources:
  instances:
  - name: gpu-0
    attributes: [{name: size, int: 2}, {name: memory, quantity: 40Gi}]
`,
	}})

	runRows(t, []row{{
		name: "no resource model is stashed in v1alpha3",
		in: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata: {name: node-1-gpu}
nodeName: node-1
driverName: gpu.example.com
`,
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata:
  name: node-1-gpu
  annotations:
    conversion.drakit.io/stash: '{"v":1,"noResourceModel":true}'
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices: null
`,
	}, {
		name: "no devices are no instances",
		in: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata: {name: node-1-gpu}
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices: null
`,
		to: "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata: {name: node-1-gpu}
nodeName: node-1
driverName: gpu.example.com
namedResources: {instances: null}
`,
	}, {
		name: "null and empty lists: the hub holds empty lists, the layout names the null ones",
		in: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata: {name: node-1-gpu}
nodeName: node-1
driverName: gpu.example.com
namedResources:
  instances:
  - name: gpu-0
    attributes: [{name: cores, intSlice: {ints: null}}, {name: ids, stringSlice: {strings: []}}]
`,
		to: "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata:
  name: node-1-gpu
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","attributes":{"cores":{"ints":[]},"ids":{"strings":[]}},"namedResources":{"nullLists":["cores"]}}]}'
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices: [{name: gpu-0, basic: {}}]
`,
	}, {
		name: "a v1alpha3 device without basic comes back with an empty one",
		in: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata: {name: node-1-gpu}
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices: [{name: gpu-0}]
`,
		to: "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata: {name: node-1-gpu}
nodeName: node-1
driverName: gpu.example.com
namedResources:
  instances: [{name: gpu-0}]
`,
		back: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata: {name: node-1-gpu}
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices: [{name: gpu-0, basic: {}}]
`,
	}})
}

// TestConvertRefusesInvalidInstances: a v1alpha2 instance that lists a name
// twice, or an attribute with a quantity and another value, has no hub
// form; the 1.30 API server rejects both.
func TestConvertRefusesInvalidInstances(t *testing.T) {
	for _, tc := range []struct{ attributes, want string }{
		{`[{name: a, int: 1}, {name: b, int: 2}, {name: a, string: x}]`,
			`ResourceSlice "node-1": namedResources.instances[1].attributes[2]: the name "a" is listed twice in the instance; the 1.30 API server rejects such a slice`},
		{`[{name: a, int: 1}, {name: m, quantity: 1Gi}, {name: m, quantity: 2Gi}]`,
			`ResourceSlice "node-1": namedResources.instances[1].attributes[2]: the name "m" is listed twice in the instance; the 1.30 API server rejects such a slice`},
		{`[{name: m, quantity: 1Gi, int: 1}]`,
			`ResourceSlice "node-1": namedResources.instances[1].attributes[0]: "m" has a quantity and another value; the 1.30 API server rejects such a slice`},
	} {
		a2 := decode(t, `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata: {name: node-1}
nodeName: node-1
driverName: gpu.example.com
namedResources:
  instances:
  - {name: gpu-0}
  - {name: gpu-1, attributes: `+tc.attributes+`}
`)
		for _, to := range []string{"v1alpha3", runtime.APIVersionInternal} {
			var err error
			if to == runtime.APIVersionInternal {
				_, err = ToHub(a2)
			} else {
				_, err = Convert(a2, gv(to))
			}
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s to %s: got %v, want %s", tc.attributes, to, err, tc.want)
			}
		}
	}
}

// TestConvertLateKinds: v1alpha3's DeviceTaintRule and
// ResourcePoolStatusRequest have the hub's shape and convert field by
// field.
func TestConvertLateKinds(t *testing.T) {
	for _, manifest := range []string{`
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceTaintRule
metadata: {name: maintenance}
spec:
  deviceSelector: {driver: gpu.example.com, pool: node-1}
  taint: {key: example.com/maintenance, value: planned, effect: NoExecute, timeAdded: "2026-01-02T03:00:00Z"}
status:
  conditions: [{type: EvictionInProgress, status: "False", reason: NoPods, message: "", lastTransitionTime: "2026-01-02T03:00:00Z"}]
`, `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourcePoolStatusRequest
metadata: {name: gpus}
spec: {driver: gpu.example.com, poolName: node-1, limit: 10}
status:
  poolCount: 1
  pools: [{driver: gpu.example.com, poolName: node-1, generation: 3, resourceSliceCount: 1, totalDevices: 8, allocatedDevices: 2, availableDevices: 6, unavailableDevices: 0, nodeName: node-1}]
`} {
		obj := decode(t, manifest)
		kind := obj.GetObjectKind().GroupVersionKind().Kind
		t.Run(kind, func(t *testing.T) {
			if _, err := KindIn(kind, "v1alpha3"); err != nil {
				t.Fatalf("the catalogue does not list %s in v1alpha3: %v", kind, err)
			}
			h, err := ToHub(obj)
			if err != nil {
				t.Fatal(err)
			}
			back, err := FromHub(h, "v1alpha3")
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, back, manifest)
		})
	}
}

// The v1-era versions (v1beta1, v1beta2, v1): a case per row of their
// columns in docs/conversion.md. v1beta2 and v1 say the same, so each hub
// case for v1 runs for v1beta2 too (gaRows).

// gaRows returns rows with, after each row for v1, the same row for
// v1beta2.
func gaRows(rows []hubRow) []hubRow {
	var out []hubRow
	for _, r := range rows {
		out = append(out, r)
		if r.to == "v1" {
			b2 := r
			b2.to = "v1beta2"
			b2.want = strings.Replace(r.want, "apiVersion: resource.k8s.io/v1\n", "apiVersion: resource.k8s.io/v1beta2\n", 1)
			out = append(out, b2)
		}
	}
	return out
}

func TestConvertV1EraClasses(t *testing.T) {
	class := func(set func(*hub.DeviceClassSpec)) *hub.DeviceClass {
		c := &hub.DeviceClass{
			ObjectMeta: metav1.ObjectMeta{Name: "gpu"},
			Spec:       hub.DeviceClassSpec{Selectors: []hub.DeviceSelector{hub.DriverSelector("gpu.example.com")}},
		}
		if set != nil {
			set(&c.Spec)
		}
		return c
	}
	full := class(func(s *hub.DeviceClassSpec) {
		s.Config = []hub.DeviceClassConfiguration{{DeviceConfiguration: hub.DeviceConfiguration{Opaque: &hub.OpaqueDeviceConfiguration{
			Driver: "gpu.example.com", Parameters: runtime.RawExtension{Raw: []byte(`{"sharing":"exclusive"}`)}}}}}
		s.ExtendedResourceName = ptrTo("example.com/gpu")
	})
	suitable := class(func(s *hub.DeviceClassSpec) {
		s.SuitableNodes = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "gpu", Operator: corev1.NodeSelectorOpExists}}}}}
	})
	params := class(func(s *hub.DeviceClassSpec) {
		s.ParametersRef = &hub.ResourceClassParametersReference{APIGroup: "gpu.example.com", Kind: "GPUClassParameters", Name: "big", Namespace: "drivers"}
	})
	structured := class(func(s *hub.DeviceClassSpec) { s.StructuredParameters = ptrTo(true) })
	var rows []hubRow
	for _, to := range []string{"v1beta1", "v1"} {
		rows = append(rows, hubRow{
			name: "selectors, config and extendedResourceName are copied",
			in:   full,
			to:   to,
			want: `
apiVersion: resource.k8s.io/` + to + `
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
  config: [{opaque: {driver: gpu.example.com, parameters: {sharing: exclusive}}}]
  extendedResourceName: example.com/gpu
`,
		}, hubRow{
			name: "suitableNodes is stashed",
			in:   suitable,
			to:   to,
			want: `
apiVersion: resource.k8s.io/` + to + `
kind: DeviceClass
metadata:
  name: gpu
  annotations:
    conversion.drakit.io/stash: '{"v":1,"suitableNodes":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"gpu","operator":"Exists"}]}]}}'
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
`,
		}, hubRow{
			name: "parametersRef is stashed",
			in:   params,
			to:   to,
			want: `
apiVersion: resource.k8s.io/` + to + `
kind: DeviceClass
metadata:
  name: gpu
  annotations:
    conversion.drakit.io/stash: '{"v":1,"parametersRef":{"apiGroup":"gpu.example.com","kind":"GPUClassParameters","name":"big","namespace":"drivers"}}'
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
`,
		}, hubRow{
			name: "structuredParameters is stashed",
			in:   structured,
			to:   to,
			want: `
apiVersion: resource.k8s.io/` + to + `
kind: DeviceClass
metadata:
  name: gpu
  annotations:
    conversion.drakit.io/stash: '{"v":1,"structuredParameters":true}'
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
`,
		})
	}
	runHubRows(t, gaRows(rows))
}

func TestConvertV1EraClaims(t *testing.T) {
	q := apiresource.MustParse
	rich := hubClaim(
		exactly("gpu", "gpu", hub.ExactDeviceRequest{
			Selectors:      []hub.DeviceSelector{{CEL: &hub.CELDeviceSelector{Expression: `device.attributes["gpu.example.com"].model == "a100"`}}},
			AllocationMode: hub.DeviceAllocationModeAll,
			AdminAccess:    ptrTo(true),
			Tolerations:    []hub.DeviceToleration{{Key: "example.com/maintenance", Operator: hub.DeviceTolerationOpExists}},
			Capacity:       &hub.CapacityRequirements{Requests: map[hub.QualifiedName]apiresource.Quantity{"memory": q("8Gi")}},
		}),
		hub.DeviceRequest{Name: "nic", FirstAvailable: []hub.DeviceSubRequest{
			{Name: "fast", DeviceClassName: "fast-nic", AllocationMode: hub.DeviceAllocationModeExactCount, Count: 1},
			{Name: "slow", DeviceClassName: "slow-nic", AllocationMode: hub.DeviceAllocationModeExactCount, Count: 2},
		}},
	)
	rich.Spec.Devices.Constraints = []hub.DeviceConstraint{
		{Requests: []string{"gpu", "nic"}, MatchAttribute: ptrTo(hub.FullyQualifiedName("example.com/numa"))},
		{Requests: []string{"gpu"}, DistinctAttribute: ptrTo(hub.FullyQualifiedName("example.com/card"))},
	}
	rich.Spec.Devices.Config = []hub.DeviceClaimConfiguration{{Requests: []string{"gpu"}, DeviceConfiguration: hub.DeviceConfiguration{
		Opaque: &hub.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: runtime.RawExtension{Raw: []byte(`{"sharing":"timeSliced"}`)}}}}}
	legacyClaim := hubClaim(exactly("gpu", "gpu", hub.ExactDeviceRequest{}))
	legacyClaim.Spec.Controller = "gpu.example.com"
	legacyClaim.Spec.ParametersRef = &hub.ResourceClaimParametersReference{APIGroup: "gpu.example.com", Kind: "GPUClaimParameters", Name: "two"}
	legacyClaim.Spec.AllocationMode = hub.AllocationModeImmediate
	emptyExactly := hubClaim(exactly("gpu", "gpu", hub.ExactDeviceRequest{}), hub.DeviceRequest{Name: "empty", Exactly: &hub.ExactDeviceRequest{}})

	runHubRows(t, gaRows([]hubRow{{
		name: "requests, constraints and config are copied",
		in:   rich,
		to:   "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}}]
        allocationMode: All
        adminAccess: true
        tolerations: [{key: example.com/maintenance, operator: Exists}]
        capacity: {requests: {memory: 8Gi}}
    - name: nic
      firstAvailable:
      - {name: fast, deviceClassName: fast-nic, allocationMode: ExactCount, count: 1}
      - {name: slow, deviceClassName: slow-nic, allocationMode: ExactCount, count: 2}
    constraints:
    - {requests: [gpu, nic], matchAttribute: example.com/numa}
    - {requests: [gpu], distinctAttribute: example.com/card}
    config: [{requests: [gpu], opaque: {driver: gpu.example.com, parameters: {sharing: timeSliced}}}]
`,
	}, {
		name: "exactly is flat on the request; firstAvailable, constraints and config are copied",
		in:   rich,
		to:   "v1beta1",
		want: `
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu
      selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}}]
      allocationMode: All
      adminAccess: true
      tolerations: [{key: example.com/maintenance, operator: Exists}]
      capacity: {requests: {memory: 8Gi}}
    - name: nic
      deviceClassName: ""
      firstAvailable:
      - {name: fast, deviceClassName: fast-nic, allocationMode: ExactCount, count: 1}
      - {name: slow, deviceClassName: slow-nic, allocationMode: ExactCount, count: 2}
    constraints:
    - {requests: [gpu, nic], matchAttribute: example.com/numa}
    - {requests: [gpu], distinctAttribute: example.com/card}
    config: [{requests: [gpu], opaque: {driver: gpu.example.com, parameters: {sharing: timeSliced}}}]
`,
	}, {
		name: "an exactly with nothing in it is named in the stash",
		in:   emptyExactly,
		to:   "v1beta1",
		want: `
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"emptyExactly":["empty"]}}'
spec:
  devices:
    requests:
    - {name: gpu, deviceClassName: gpu, allocationMode: ExactCount, count: 1}
    - {name: empty, deviceClassName: ""}
`,
	}, {
		name: "controller, parametersRef and allocationMode are stashed",
		in:   legacyClaim,
		to:   "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"controller":"gpu.example.com","parametersRef":{"apiGroup":"gpu.example.com","kind":"GPUClaimParameters","name":"two"},"allocationMode":"Immediate"}}'
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu, allocationMode: ExactCount, count: 1}}]
`,
	}, {
		name: "controller, parametersRef and allocationMode are stashed",
		in:   legacyClaim,
		to:   "v1beta1",
		want: `
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"spec":{"controller":"gpu.example.com","parametersRef":{"apiGroup":"gpu.example.com","kind":"GPUClaimParameters","name":"two"},"allocationMode":"Immediate"}}'
spec:
  devices:
    requests: [{name: gpu, deviceClassName: gpu, allocationMode: ExactCount, count: 1}]
`,
	}}))

	runRows(t, []row{{
		name: "allocationMode WaitForFirstConsumer, the default, needs no stash",
		in: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec: {resourceClassName: gpu, allocationMode: WaitForFirstConsumer}
`,
		to: "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests: [{name: resource, exactly: {deviceClassName: gpu, allocationMode: ExactCount, count: 1}}]
`,
	}, {
		name: "a v1beta1 request with exact fields and no class has an exactly, defaulted as a 1.37 server stores it",
		in: `
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests:
    - {name: any, deviceClassName: "", selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}], allocationMode: ExactCount, count: 1}
`,
		to: "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests:
    - name: any
      exactly: {deviceClassName: "", selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}], allocationMode: ExactCount, count: 1}
`,
	}, {
		name: "a v1beta1 request with firstAvailable only has no exactly",
		in: `
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaimTemplate
metadata: {name: c, namespace: ns}
spec:
  metadata: {}
  spec:
    devices:
      requests:
      - name: gpu
        deviceClassName: ""
        firstAvailable: [{name: big, deviceClassName: big-gpu, allocationMode: ExactCount, count: 1}]
`,
		to: "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: c, namespace: ns}
spec:
  metadata: {}
  spec:
    devices:
      requests:
      - name: gpu
        firstAvailable: [{name: big, deviceClassName: big-gpu, allocationMode: ExactCount, count: 1}]
`,
	}})
}

func TestConvertV1EraStatus(t *testing.T) {
	allocated := hubClaim(exactly(hub.LegacyRequestName, "gpu", hub.ExactDeviceRequest{}))
	allocated.Status = hub.ResourceClaimStatus{
		DriverName: "gpu.example.com",
		Allocation: &hub.AllocationResult{
			Devices: hub.DeviceAllocationResult{
				Results: []hub.DeviceRequestAllocationResult{{
					Request: "resource", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0",
					AdminAccess: ptrTo(false), ShareID: ptrTo(types.UID("4c5d")), BindingConditions: []string{"attached"},
					Tolerations: []hub.DeviceToleration{{Key: "example.com/maintenance", Operator: hub.DeviceTolerationOpExists}},
				}},
				Config: []hub.DeviceAllocationConfiguration{{Source: hub.AllocationConfigSourceClaim, DeviceConfiguration: hub.DeviceConfiguration{
					Opaque: &hub.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: runtime.RawExtension{Raw: []byte(`{"sharing":"timeSliced"}`)}}}}},
			},
			NodeSelector: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
				MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"node-1"}}}}}},
			AllocationTimestamp: ptrTo(metav1.Unix(1767322800, 0)),
			Controller:          "gpu.example.com",
			Shareable:           true,
		},
		Devices: []hub.AllocatedDeviceStatus{{Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0",
			NetworkData: &hub.NetworkDeviceData{InterfaceName: "eth1"}}},
		ReservedFor:           []hub.ResourceClaimConsumerReference{{Resource: "pods", Name: "trainer-0", UID: "0b0c3e5e"}},
		DeallocationRequested: true,
	}
	handles := hubClaim(exactly(hub.LegacyRequestName, "gpu", hub.ExactDeviceRequest{}))
	handles.Status.Allocation = &hub.AllocationResult{ResourceHandles: []hub.ResourceHandle{{
		DriverName: "gpu.example.com",
		StructuredData: &hub.StructuredResourceHandle{NodeName: "node-1", Results: []hub.DriverAllocationResult{{
			AllocationResultModel: hub.AllocationResultModel{NamedResources: &hub.NamedResourcesAllocationResult{Name: "gpu-0"}},
		}}},
	}}}
	both := handles.DeepCopy()
	both.Status.Allocation.Devices.Results = []hub.DeviceRequestAllocationResult{{Request: "gpu", Driver: "gpu.example.com", Pool: "pool-a", Device: "gpu-3"}}
	var rows []hubRow
	for _, tc := range []struct{ to, requests string }{
		{"v1", `[{name: resource, exactly: {deviceClassName: gpu, allocationMode: ExactCount, count: 1}}]`},
		{"v1beta1", `[{name: resource, deviceClassName: gpu, allocationMode: ExactCount, count: 1}]`},
	} {
		rows = append(rows, hubRow{
			name: "driverName, deallocationRequested, controller and shareable are stashed; the rest is copied",
			in:   allocated,
			to:   tc.to,
			want: `
apiVersion: resource.k8s.io/` + tc.to + `
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"status":{"driverName":"gpu.example.com","allocation":{"controller":"gpu.example.com","shareable":true},"deallocationRequested":true}}'
spec:
  devices:
    requests: ` + tc.requests + `
status:
  allocation:
    devices:
      results:
      - request: resource
        driver: gpu.example.com
        pool: node-1
        device: gpu-0
        adminAccess: false
        tolerations: [{key: example.com/maintenance, operator: Exists}]
        bindingConditions: [attached]
        shareID: 4c5d
      config: [{source: FromClaim, opaque: {driver: gpu.example.com, parameters: {sharing: timeSliced}}}]
    nodeSelector:
      nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [node-1]}]}]
    allocationTimestamp: "2026-01-02T03:00:00Z"
  reservedFor: [{resource: pods, name: trainer-0, uid: 0b0c3e5e}]
  devices: [{driver: gpu.example.com, pool: node-1, device: gpu-0, networkData: {interfaceName: eth1}}]
`,
		}, hubRow{
			name: "structured handles without results show as results",
			in:   handles,
			to:   tc.to,
			want: `
apiVersion: resource.k8s.io/` + tc.to + `
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"status":{"allocation":{"resourceHandles":[{"driverName":"gpu.example.com","structuredData":{"vendorClassParameters":null,"vendorClaimParameters":null,"nodeName":"node-1","results":[{"vendorRequestParameters":null,"namedResources":{"name":"gpu-0"}}]}}],"derivedResults":true}}}'
spec:
  devices:
    requests: ` + tc.requests + `
status:
  allocation:
    devices:
      results: [{request: resource, driver: gpu.example.com, pool: node-1, device: gpu-0}]
`,
		}, hubRow{
			name: "structured handles beside results are stashed; the results are copied",
			in:   both,
			to:   tc.to,
			want: `
apiVersion: resource.k8s.io/` + tc.to + `
kind: ResourceClaim
metadata:
  name: c
  namespace: ns
  annotations:
    conversion.drakit.io/stash: '{"v":1,"status":{"allocation":{"resourceHandles":[{"driverName":"gpu.example.com","structuredData":{"vendorClassParameters":null,"vendorClaimParameters":null,"nodeName":"node-1","results":[{"vendorRequestParameters":null,"namedResources":{"name":"gpu-0"}}]}}]}}}'
spec:
  devices:
    requests: ` + tc.requests + `
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: pool-a, device: gpu-3}]
`,
		})
	}
	runHubRows(t, gaRows(rows))
}

func TestConvertV1EraSlices(t *testing.T) {
	q := apiresource.MustParse
	unset := &hub.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "s"},
		Spec: hub.ResourceSliceSpec{Driver: "gpu.example.com", Pool: hub.ResourcePool{Name: "gpu.example.com", ResourceSliceCount: 1},
			NodeName: ptrTo(""), AllNodes: ptrTo(false)},
	}
	full := &hub.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "s"},
		Spec: hub.ResourceSliceSpec{
			Driver: "gpu.example.com", Pool: hub.ResourcePool{Name: "pool", Generation: 3, ResourceSliceCount: 2},
			NodeSelector: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
				MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "gpu", Operator: corev1.NodeSelectorOpExists}}}}},
			PerDeviceNodeSelection: ptrTo(true),
			SharedCounters:         []hub.CounterSet{{Name: "gpu-0", Counters: map[string]hub.Counter{"memory": {Value: q("40Gi")}}}},
			PartitionTypeAttribute: ptrTo(hub.FullyQualifiedName("gpu.example.com/profile")),
			SkipNodeOperations:     []hub.SkipNodeOperation{hub.SkipNodeOperationAll},
			Devices: []hub.Device{{
				Name: "gpu-0-half",
				Attributes: map[hub.QualifiedName]hub.DeviceAttribute{
					"profile": {StringValue: ptrTo("half")},
					"cores":   {IntValues: []int64{0, 1}},
				},
				Capacity: map[hub.QualifiedName]hub.DeviceCapacity{"memory": {Value: q("20Gi"),
					RequestPolicy: &hub.CapacityRequestPolicy{Default: ptrTo(q("1Gi"))}}},
				ConsumesCounters: []hub.DeviceCounterConsumption{{CounterSet: "gpu-0",
					Counters: map[string]hub.Counter{"memory": {Value: q("20Gi")}}}},
				NodeName:                 ptrTo("node-1"),
				Taints:                   []hub.DeviceTaint{{Key: "example.com/maintenance", Effect: hub.DeviceTaintEffectNoSchedule, TimeAdded: ptrTo(metav1.Unix(1767322800, 0))}},
				BindsToNode:              ptrTo(true),
				BindingConditions:        []string{"attached"},
				BindingFailureConditions: []string{"failed"},
				AllowMultipleAllocations: ptrTo(true),
			}, {
				Name:         "anywhere",
				AllNodes:     ptrTo(true),
				NodeSelector: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpExists}}}}},
				NodeAllocatableResources: map[corev1.ResourceName]hub.NodeAllocatableResource{
					"memory": {Overhead: &hub.NodeAllocatableOverhead{PerPod: ptrTo(q("1Gi"))}},
				},
			}, {
				Name: "empty",
			}},
		},
	}
	named := &hub.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "s"},
		Spec: hub.ResourceSliceSpec{
			Driver: "gpu.example.com", Pool: hub.ResourcePool{Name: "node-1", ResourceSliceCount: 1}, NodeName: ptrTo("node-1"),
			NoResourceModel: true,
			Devices: []hub.Device{{
				Name:           "gpu-0",
				Attributes:     map[hub.QualifiedName]hub.DeviceAttribute{"a": {IntValue: ptrTo[int64](1)}, "b": {IntValue: ptrTo[int64](2)}},
				NamedResources: &hub.NamedResourcesLayout{Order: []hub.QualifiedName{"b", "a"}},
			}},
		},
	}
	runHubRows(t, gaRows([]hubRow{{
		name: "a set empty nodeName and a false allNodes are stashed",
		in:   unset,
		to:   "v1beta1",
		want: `
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"nodeName":"","allNodes":false}'
spec:
  driver: gpu.example.com
  pool: {name: gpu.example.com, generation: 0, resourceSliceCount: 1}
`,
	}, {
		name: "a set empty nodeName and a false allNodes are copied",
		in:   unset,
		to:   "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  pool: {name: gpu.example.com, generation: 0, resourceSliceCount: 1}
  nodeName: ""
  allNodes: false
`,
	}, {
		name: "an empty device list, which the JSON leaves out, is stashed",
		in: &hub.ResourceSlice{
			ObjectMeta: metav1.ObjectMeta{Name: "s"},
			Spec:       hub.ResourceSliceSpec{Driver: "gpu.example.com", Pool: hub.ResourcePool{Name: "node-1", ResourceSliceCount: 1}, NodeName: ptrTo("node-1"), Devices: []hub.Device{}},
		},
		to: "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"emptyDevices":true}'
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
`,
	}, {
		name: "an attribute whose value is an empty list, which the JSON leaves out, is stashed",
		in: &hub.ResourceSlice{
			ObjectMeta: metav1.ObjectMeta{Name: "s"},
			Spec: hub.ResourceSliceSpec{Driver: "gpu.example.com", Pool: hub.ResourcePool{Name: "node-1", ResourceSliceCount: 1}, NodeName: ptrTo("node-1"),
				Devices: []hub.Device{{Name: "gpu-0", Attributes: map[hub.QualifiedName]hub.DeviceAttribute{
					"cores": {IntValues: []int64{}}, "model": {StringValue: ptrTo("a100")},
				}}}},
		},
		to: "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","attributes":{"cores":{"ints":[]}}}]}'
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices:
  - name: gpu-0
    attributes:
      cores: {}
      model: {string: a100}
`,
	}, {
		name: "every slice and device field is copied",
		in:   full,
		to:   "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  pool: {name: pool, generation: 3, resourceSliceCount: 2}
  nodeSelector:
    nodeSelectorTerms: [{matchExpressions: [{key: gpu, operator: Exists}]}]
  perDeviceNodeSelection: true
  sharedCounters: [{name: gpu-0, counters: {memory: {value: 40Gi}}}]
  partitionTypeAttribute: gpu.example.com/profile
  skipNodeOperations: ["*"]
  devices:
  - name: gpu-0-half
    attributes: {profile: {string: half}, cores: {ints: [0, 1]}}
    capacity: {memory: {value: 20Gi, requestPolicy: {default: 1Gi}}}
    consumesCounters: [{counterSet: gpu-0, counters: {memory: {value: 20Gi}}}]
    nodeName: node-1
    taints: [{key: example.com/maintenance, effect: NoSchedule, timeAdded: "2026-01-02T03:00:00Z"}]
    bindsToNode: true
    bindingConditions: [attached]
    bindingFailureConditions: [failed]
    allowMultipleAllocations: true
  - name: anywhere
    allNodes: true
    nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: Exists}]}]}
    nodeAllocatableResources: {memory: {overhead: {perPod: 1Gi}}}
  - name: empty
`,
	}, {
		name: "the device fields are under basic, which is always written",
		in:   full,
		to:   "v1beta1",
		want: `
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  pool: {name: pool, generation: 3, resourceSliceCount: 2}
  nodeSelector:
    nodeSelectorTerms: [{matchExpressions: [{key: gpu, operator: Exists}]}]
  perDeviceNodeSelection: true
  sharedCounters: [{name: gpu-0, counters: {memory: {value: 40Gi}}}]
  partitionTypeAttribute: gpu.example.com/profile
  skipNodeOperations: ["*"]
  devices:
  - name: gpu-0-half
    basic:
      attributes: {profile: {string: half}, cores: {ints: [0, 1]}}
      capacity: {memory: {value: 20Gi, requestPolicy: {default: 1Gi}}}
      consumesCounters: [{counterSet: gpu-0, counters: {memory: {value: 20Gi}}}]
      nodeName: node-1
      taints: [{key: example.com/maintenance, effect: NoSchedule, timeAdded: "2026-01-02T03:00:00Z"}]
      bindsToNode: true
      bindingConditions: [attached]
      bindingFailureConditions: [failed]
      allowMultipleAllocations: true
  - name: anywhere
    basic:
      allNodes: true
      nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: Exists}]}]}
      nodeAllocatableResources: {memory: {overhead: {perPod: 1Gi}}}
  - {name: empty, basic: {}}
`,
	}, {
		name: "noResourceModel and the named-resources layout are stashed",
		in:   named,
		to:   "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","namedResources":{"order":["b","a"]}}],"noResourceModel":true}'
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices: [{name: gpu-0, attributes: {a: {int: 1}, b: {int: 2}}}]
`,
	}, {
		name: "noResourceModel and the named-resources layout are stashed",
		in:   named,
		to:   "v1beta1",
		want: `
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","namedResources":{"order":["b","a"]}}],"noResourceModel":true}'
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices: [{name: gpu-0, basic: {attributes: {a: {int: 1}, b: {int: 2}}}}]
`,
	}}))

	runRows(t, []row{{
		name: "a v1beta1 device without basic comes back with an empty one; nodeName \"\" and allNodes false are unset",
		in: `
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  pool: {name: p, generation: 0, resourceSliceCount: 1}
  nodeName: ""
  allNodes: false
  nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: gpu, operator: Exists}]}]}
  devices: [{name: gpu-0}]
`,
		to: "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  pool: {name: p, generation: 0, resourceSliceCount: 1}
  nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: gpu, operator: Exists}]}]}
  devices: [{name: gpu-0}]
`,
		back: `
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  pool: {name: p, generation: 0, resourceSliceCount: 1}
  nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: gpu, operator: Exists}]}]}
  devices: [{name: gpu-0, basic: {}}]
`,
	}})
}

// TestConvertV1EraTaintRules: DeviceTaintRule is the same in v1alpha3 (in
// its 1.37 shape), v1beta2 and v1, and in the hub: every field is copied.
func TestConvertV1EraTaintRules(t *testing.T) {
	rule := func(version string) string {
		return `
apiVersion: resource.k8s.io/` + version + `
kind: DeviceTaintRule
metadata: {name: maintenance}
spec:
  deviceSelector: {driver: gpu.example.com, pool: node-1, device: gpu-0}
  taint: {key: example.com/maintenance, value: planned, effect: NoExecute, timeAdded: "2026-01-02T03:00:00Z"}
status:
  conditions: [{type: EvictionInProgress, status: "False", reason: NoPods, message: "", lastTransitionTime: "2026-01-02T03:00:00Z"}]
`
	}
	var rows []row
	for _, from := range []string{"v1alpha3", "v1beta2", "v1"} {
		for _, to := range []string{"v1alpha3", "v1beta2", "v1"} {
			if from != to {
				rows = append(rows, row{name: from + " to " + to, in: rule(from), to: to, want: rule(to)})
			}
		}
	}
	runRows(t, rows)
}

// TestConvertV1Beta1KeepsEmpty: unlike upstream's v1beta1 conversion, which
// makes empty lists and maps nil, drakit's keeps them apart from none, on
// Go values (the JSON of most of them leaves both out).
func TestConvertV1Beta1KeepsEmpty(t *testing.T) {
	in := &v1beta1.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "ns"},
		Spec: v1beta1.ResourceClaimSpec{Devices: v1beta1.DeviceClaim{Requests: []v1beta1.DeviceRequest{{
			Name: "gpu", DeviceClassName: "gpu", AllocationMode: v1beta1.DeviceAllocationModeExactCount, Count: 1,
			Selectors: []v1beta1.DeviceSelector{}, Tolerations: []v1beta1.DeviceToleration{}, DerivedAttributes: []v1beta1.DeviceDerivedAttribute{},
		}}}},
	}
	slice := &v1beta1.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "s"},
		Spec: v1beta1.ResourceSliceSpec{Driver: "d", Pool: v1beta1.ResourcePool{Name: "p", ResourceSliceCount: 1}, Devices: []v1beta1.Device{{
			Name: "gpu-0", Basic: &v1beta1.BasicDevice{
				Attributes: map[v1beta1.QualifiedName]v1beta1.DeviceAttribute{}, Capacity: map[v1beta1.QualifiedName]v1beta1.DeviceCapacity{},
				ConsumesCounters: []v1beta1.DeviceCounterConsumption{}, Taints: []v1beta1.DeviceTaint{},
			},
		}}},
	}
	h, err := ToHub(in)
	if err != nil {
		t.Fatal(err)
	}
	e := h.(*hub.ResourceClaim).Spec.Devices.Requests[0].Exactly
	if e == nil || e.Selectors == nil || e.Tolerations == nil || e.DerivedAttributes == nil {
		t.Errorf("the hub request lost an empty list: %+v", e)
	}
	hs, err := ToHub(slice)
	if err != nil {
		t.Fatal(err)
	}
	d := hs.(*hub.ResourceSlice).Spec.Devices[0]
	if d.Attributes == nil || d.Capacity == nil || d.ConsumesCounters == nil || d.Taints == nil {
		t.Errorf("the hub device lost an empty list or map: %+v", d)
	}
	for _, tc := range []struct{ obj, hub runtime.Object }{{in, h}, {slice, hs}} {
		back, err := FromHub(tc.hub, "v1beta1")
		if err != nil {
			t.Fatal(err)
		}
		clearTypeMeta(back)
		if d := diff(tc.obj, back); d != "" {
			t.Errorf("back in v1beta1 (-in +back):\n%s", d)
		}
	}
}
