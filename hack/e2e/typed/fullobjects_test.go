package typed

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	rv1 "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// The objects of the 1.37 tests (v1, v1beta2, v1beta1), written once in
// v1's shape. Each sets every field of what it describes that 1.37 stores,
// including those of the alpha gates hack/e2e.sh turns
// on (README.md says which gate keeps which field); the server must store
// each exactly as sent. v1beta2 has v1's JSON shape; v1beta1's objects are
// converted from these (see inVersion), which the test checks is lossless.
//
// Every value is one the 1.37 server has no default for: allocation modes,
// counts, toleration operators, taint times and the pool status limit are
// all spelt out, so that what was sent and what is stored are the same.

// fullDeviceClass uses every field of a DeviceClass: selectors, config and
// the extended resource name (DRAExtendedResource, GA).
const fullDeviceClass = `
selectors:
- cel:
    expression: device.driver == "gpu.example.com"
- cel:
    expression: device.attributes["gpu.example.com"].model == "a100"
config:
- opaque:
    driver: gpu.example.com
    parameters: {sharing: time-slicing}
extendedResourceName: example.com/gpu
`

// fullClaimSpec uses every field of a claim's spec: exact requests with
// tolerations, derived attributes (DRADerivedAttributes, alpha), capacity
// (DRAConsumableCapacity) and admin access (the namespace needs the
// admin-access label), a prioritized list, both kinds of constraints and
// opaque config.
const fullClaimSpec = `
devices:
  requests:
  - name: gpus
    exactly:
      deviceClassName: gpu
      selectors:
      - cel:
          expression: device.capacity["gpu.example.com"].memory.compareTo(quantity("8Gi")) >= 0
      allocationMode: ExactCount
      count: 2
      tolerations:
      - {key: example.com/unhealthy, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
      derivedAttributes:
      - name: gpu.example.com/slot
        expression: device.attributes["gpu.example.com"].pcieRoot
  - name: nic
    firstAvailable:
    - name: fast
      deviceClassName: nic
      selectors:
      - cel:
          expression: device.attributes["nic.example.com"].speed == "100G"
      allocationMode: ExactCount
      count: 1
      tolerations:
      - {key: example.com/maintenance, operator: Equal, value: planned, effect: NoSchedule}
      capacity:
        requests: {bandwidth: 10G}
    - name: any
      deviceClassName: nic
      allocationMode: All
  - name: share
    exactly:
      deviceClassName: fpga
      allocationMode: ExactCount
      count: 1
      capacity:
        requests: {memory: 4Gi}
  - name: admin
    exactly:
      deviceClassName: gpu
      allocationMode: All
      adminAccess: true
  constraints:
  - requests: [gpus]
    matchAttribute: gpu.example.com/slot
  - requests: [gpus, nic/fast]
    matchAttribute: example.com/numa
  - requests: [share]
    distinctAttribute: fpga.example.com/slot
  config:
  - requests: [gpus]
    opaque:
      driver: gpu.example.com
      parameters: {mig: 1g.5gb}
`

// fullNodeSlice is a node-local slice whose first device uses every device
// field that a slice with a node name allows: all eight attribute kinds
// (the lists: DRAListTypeAttributes, alpha), capacity with both kinds of
// request policy (DRAConsumableCapacity; fractional ranges:
// DRAFractionalCapacityRange), taints, binding conditions and node
// allocatable resources (DRANodeAllocatableResources, alpha; admission
// wants the node to exist and declare the feature, so NODE is replaced by
// such a node), and the slice skips a node operation.
const fullNodeSlice = `
driver: gpu.example.com
nodeName: NODE
pool: {name: NODE, generation: 1, resourceSliceCount: 1}
skipNodeOperations: [NodeUnprepareResources]
devices:
- name: gpu-0
  attributes:
    model: {string: a100}
    pcieRoot: {string: "pci0000:00"}
    cores: {int: 6912}
    mig: {bool: true}
    driverVersion: {version: 535.104.5}
    numaNodes: {ints: [0, 1]}
    features: {strings: [fp64, tf32]}
    flags: {bools: [true, false]}
    firmware: {versions: [1.2.3, 1.3.0]}
  capacity:
    memory: {value: 40Gi}
    bandwidth:
      value: 1600Gi
      requestPolicy:
        default: 100Gi
        validRange: {min: 10Gi, max: 1600Gi, step: 10Gi}
    slots:
      value: "8"
      requestPolicy:
        default: "1"
        validValues: ["1", "2", "4", "8"]
  allowMultipleAllocations: true
  taints:
  - {key: example.com/unhealthy, value: ecc-errors, effect: NoSchedule, timeAdded: "2026-07-01T09:00:00Z"}
  bindsToNode: true
  bindingConditions: [gpu.example.com/attached]
  bindingFailureConditions: [gpu.example.com/attach-failed]
  nodeAllocatableResources:
    memory:
      mapping: {capacityKey: memory, capacityMultiplier: "1"}
      overhead: {perPod: 64Mi, perContainer: 16Mi}
    cpu:
      mapping: {deviceMultiplier: "2"}
- name: gpu-1
  attributes:
    model: {string: a100}
  capacity:
    memory: {value: 40Gi}
`

// fromYAML decodes y strictly into a new T: a misspelt field fails here,
// not silently on the server.
func fromYAML[T any](t *testing.T, what, y string) T {
	t.Helper()
	var v T
	if err := yaml.UnmarshalStrict([]byte(y), &v); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// v1DeviceClass, v1Claim, ... build the v1 objects from the YAML above.
func v1DeviceClass(t *testing.T, name string) *rv1.DeviceClass {
	return &rv1.DeviceClass{ObjectMeta: meta("", name), Spec: fromYAML[rv1.DeviceClassSpec](t, "fullDeviceClass", fullDeviceClass)}
}

func v1Claim(t *testing.T, ns, name string) *rv1.ResourceClaim {
	return &rv1.ResourceClaim{ObjectMeta: meta(ns, name), Spec: fromYAML[rv1.ResourceClaimSpec](t, "fullClaimSpec", fullClaimSpec)}
}

// v1Slice builds a slice from one of the slice YAMLs, with NODE and POOL
// replaced.
func v1Slice(t *testing.T, what, spec, name, node, pool string) *rv1.ResourceSlice {
	spec = strings.ReplaceAll(strings.ReplaceAll(spec, "NODE", node), "POOL", pool)
	return &rv1.ResourceSlice{ObjectMeta: meta("", name), Spec: fromYAML[rv1.ResourceSliceSpec](t, what, spec)}
}

// inVersion converts a v1 object to the given version with drakit's conversion
// and fails unless that was lossless: the result carries no stash, and
// converting it back gives the v1 object again.
func inVersion[T runtime.Object](t *testing.T, obj runtime.Object, version string) T {
	t.Helper()
	gv := schema.GroupVersion{Group: resource.GroupName, Version: version}
	out, err := conversion.Convert(obj, gv)
	if err != nil {
		t.Fatalf("convert %T to %s: %v", obj, version, err)
	}
	if a := out.(metav1.Object).GetAnnotations(); a[resource.StashAnnotation] != "" {
		t.Fatalf("converting %T to %s stashed %s: the test object must fit %s", obj, version, a[resource.StashAnnotation], version)
	}
	back, err := conversion.Convert(out, rv1.SchemeGroupVersion)
	if err != nil {
		t.Fatalf("convert %T back to v1: %v", out, err)
	}
	back.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	want := obj.DeepCopyObject()
	want.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	assertSameContent(t, fmt.Sprintf("%T through %s and back", obj, version), want, back)
	typed, ok := out.(T)
	if !ok {
		t.Fatalf("converting %T to %s gave %T", obj, version, out)
	}
	typed.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	return typed
}

// allocatableNode creates the Node that fullNodeSlice names: admission
// (NodeDeclaredFeatureValidator, active while DRANodeAllocatableResources
// is on) refuses a slice with nodeAllocatableResources unless its node
// exists and declares the feature. It returns once the admission plugin,
// which reads nodes from an informer, sees the node: until then a dry-run
// create of probe is refused with "not found".
func allocatableNode(t *testing.T, srv *e2eenv.Server, name string, probe func() error) {
	t.Helper()
	srv.DeclaredFeatureNode(t, name, "DRANodeAllocatableResources")
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := probe()
		if err == nil {
			return
		}
		if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "not found") || time.Now().After(deadline) {
			t.Fatalf("dry-run create of a slice on node %s (created with declaredFeatures [DRANodeAllocatableResources]): %v", name, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// dryRunCreate is the probe of allocatableNode for any typed client.
func dryRunCreate[T object](ctx context.Context, create func(context.Context, T, metav1.CreateOptions) (T, error), obj T) error {
	_, err := create(ctx, obj.DeepCopyObject().(T), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"})
	return err
}
