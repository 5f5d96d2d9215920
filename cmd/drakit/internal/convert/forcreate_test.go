package convert

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/cmd/drakit/internal/printer"
)

// exported is what `kubectl get resourceclaims,configmaps -o yaml` prints
// for a 1.30 cluster: a List whose items carry everything the server set.
const exported = `apiVersion: v1
kind: List
metadata:
  resourceVersion: ""
items:
- apiVersion: resource.k8s.io/v1alpha2
  kind: ResourceClaim
  metadata:
    creationTimestamp: "2026-11-25T13:00:00Z"
    finalizers: [resource.kubernetes.io/delete-protection]
    generation: 1
    labels: {app: train}
    managedFields:
    - apiVersion: resource.k8s.io/v1alpha2
      fieldsType: FieldsV1
      fieldsV1: {"f:spec": {}}
      manager: kubectl-create
      operation: Update
      time: "2026-11-25T13:00:00Z"
    name: gpu
    namespace: ns
    ownerReferences:
    - {apiVersion: v1, kind: Pod, name: trainer, uid: 5a0c4f52-7d3e-4b8e-9f0a-1c2d3e4f5a6b}
    resourceVersion: "4711"
    uid: 0f6e2bc8-2d7c-4c55-8a0a-6d3f2b1e9c11
  spec:
    allocationMode: WaitForFirstConsumer
    resourceClassName: gpu.example.com
  status:
    driverName: gpu.example.com
    reservedFor:
    - {name: trainer, resource: pods, uid: 5a0c4f52-7d3e-4b8e-9f0a-1c2d3e4f5a6b}
- apiVersion: v1
  kind: ConfigMap
  metadata:
    creationTimestamp: "2026-11-25T13:00:00Z"
    deletionGracePeriodSeconds: 0
    deletionTimestamp: "2026-11-25T13:05:00Z"
    name: settings
    namespace: ns
    resourceVersion: "4712"
    uid: 1a2b3c4d-0000-4000-8000-000000000001
  data: {key: value}
`

func TestForCreateStripsServerMetadata(t *testing.T) {
	for _, target := range []string{"v1", "v1alpha2"} {
		t.Run(target, func(t *testing.T) {
			out, problems, st := run(t, exported, Options{Target: gv(target), Strict: true, ForCreate: true}, printer.YAML)
			wantProblem := "warning: in.yaml:1: document 1: ConfigMap ns/settings: items[1].metadata.deletionTimestamp: the object was being deleted"
			if len(problems) != 1 || !strings.HasPrefix(problems[0], wantProblem) {
				t.Errorf("problems: %q, want one starting with %q", problems, wantProblem)
			}
			wantStats := Stats{Converted: 1}
			if target == "v1alpha2" {
				// Already at the target: not converted, but without the server's fields.
				// written again without the server's fields (a List
				// is of the core group).
				wantStats = Stats{Other: 1}
			}
			if st != wantStats {
				t.Errorf("stats %+v, want %+v", st, wantStats)
			}
			var got map[string]any
			if err := yaml.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if _, ok := got["metadata"]; ok {
				t.Errorf("the List's metadata is still there: %v", got["metadata"])
			}
			items := got["items"].([]any)
			claim := items[0].(map[string]any)
			wantMeta := map[string]any{
				"name": "gpu", "namespace": "ns", "labels": map[string]any{"app": "train"},
				"finalizers": []any{"resource.kubernetes.io/delete-protection"},
				"ownerReferences": []any{map[string]any{
					"apiVersion": "v1", "kind": "Pod", "name": "trainer", "uid": "5a0c4f52-7d3e-4b8e-9f0a-1c2d3e4f5a6b",
				}},
			}
			if target == "v1" {
				// v1 has no place for the status' driverName.
				wantMeta["annotations"] = map[string]any{"conversion.drakit.io/stash": `{"v":1,"status":{"driverName":"gpu.example.com"}}`}
			}
			if d := cmp.Diff(wantMeta, claim["metadata"]); d != "" {
				t.Errorf("claim metadata (-want +got):\n%s", d)
			}
			status, _ := claim["status"].(map[string]any)
			if len(status["reservedFor"].([]any)) != 1 {
				t.Errorf("the claim's status was not kept: %v", claim["status"])
			}
			if claim["apiVersion"] != "resource.k8s.io/"+target {
				t.Errorf("claim apiVersion %v", claim["apiVersion"])
			}
			cm := items[1].(map[string]any)
			if d := cmp.Diff(map[string]any{"name": "settings", "namespace": "ns"}, cm["metadata"]); d != "" {
				t.Errorf("ConfigMap metadata (-want +got):\n%s", d)
			}
		})
	}
}

func TestWithoutForCreateServerMetadataStays(t *testing.T) {
	out, _, _ := run(t, exported, Options{Target: gv("v1alpha2"), Strict: true}, printer.YAML)
	if out != exported {
		t.Errorf("without --for-create an object at the target version must stay byte for byte:\n%s", cmp.Diff(exported, out))
	}
	out, _, _ = run(t, exported, Options{Target: gv("v1"), Strict: true}, printer.YAML)
	for _, field := range []string{"resourceVersion: \"4711\"", "uid: 0f6e2bc8", "managedFields:", "creationTimestamp:"} {
		if !strings.Contains(out, field) {
			t.Errorf("converted without --for-create, %q is gone:\n%s", field, out)
		}
	}
}

// A document with nothing to remove stays byte for byte, comments and all.
func TestForCreateLeavesCleanDocumentsAlone(t *testing.T) {
	input := v1alpha1Claim + "---\n" + configMap
	checkByteForByte(t, input, Options{Target: gv("v1alpha1"), Strict: true, ForCreate: true}, Stats{Unchanged: 1, Other: 1})
}

func TestForCreateTypedList(t *testing.T) {
	input := `apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClassList
metadata: {resourceVersion: "99", continue: abc, remainingItemCount: 3}
items:
- metadata: {name: gpu, uid: u1, resourceVersion: "98", generation: 2}
  driverName: gpu.example.com
`
	out, problems, _ := run(t, input, Options{Target: gv("v1"), Strict: true, ForCreate: true}, printer.YAML)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	want := `apiVersion: resource.k8s.io/v1
items:
- metadata:
    name: gpu
  spec:
    selectors:
    - cel:
        expression: device.driver == "gpu.example.com"
kind: DeviceClassList
`
	if out != want {
		t.Errorf("(-want +got):\n%s", cmp.Diff(want, out))
	}
}
