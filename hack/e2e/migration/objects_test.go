package migration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

const group = "resource.k8s.io"

// runLabel marks every object of a run; exports select by it so that a run
// sees nothing the other packages (or an earlier run) left on the servers.
const runLabel = "drakit.io/migration"

// kind is a resource of v1alpha2 and what the recipe does with it.
type kind struct {
	// v1alpha2 is its resource in v1alpha2 (1.30).
	v1alpha2 string
	// v1 is its resource in v1 (1.37); "" when v1 has no such kind and
	// the recipe keeps the 1.30 export aside for the way back.
	v1         string
	namespaced bool
	// status: the kind has a status subresource, which create ignores.
	status bool
}

// toV1 is the order of docs/migration.md for creating on 1.37: classes,
// then claims with their status (allocations before any slice, so that
// the scheduler never sees an allocated device as free), templates, and
// slices last.
var toV1 = []kind{
	{v1alpha2: "resourceclasses", v1: "deviceclasses"},
	{v1alpha2: "resourceclaims", v1: "resourceclaims", namespaced: true, status: true},
	{v1alpha2: "resourceclaimtemplates", v1: "resourceclaimtemplates", namespaced: true},
	{v1alpha2: "resourceslices", v1: "resourceslices"},
}

// keptAside are the v1alpha2 kinds v1 cannot hold.
var keptAside = []kind{
	{v1alpha2: "resourceclassparameters", namespaced: true},
	{v1alpha2: "resourceclaimparameters", namespaced: true},
	{v1alpha2: "podschedulingcontexts", namespaced: true, status: true},
}

// toV1alpha2 is the order for the way back to 1.30: the same, with the
// parameters kinds before the claims that name them and the scheduling
// contexts last.
var toV1alpha2 = []kind{toV1[0], keptAside[0], keptAside[1], toV1[1], toV1[2], toV1[3], keptAside[2]}

func (k kind) resource(version string) string {
	if version == "v1" {
		return k.v1
	}
	return k.v1alpha2
}

// fixture reads testdata/cluster-1.30.yaml for a run: names prefixed with
// run, namespaced objects in ns. The objects come in the file's order,
// keyed by their v1alpha2 resource.
func fixture(t *testing.T, run, ns string) map[string][]*unstructured.Unstructured {
	t.Helper()
	raw, err := os.ReadFile("testdata/cluster-1.30.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer("RUN", run, "NAMESPACE", ns).Replace(string(raw))
	byResource := map[string][]*unstructured.Unstructured{}
	resources := map[string]string{}
	for _, k := range toV1alpha2 {
		resources[kindOf(k.v1alpha2)] = k.v1alpha2
	}
	for i, doc := range strings.Split(text, "\n---\n") {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
			t.Fatalf("testdata/cluster-1.30.yaml: document %d: %v", i+1, err)
		}
		u := &unstructured.Unstructured{Object: m}
		r, ok := resources[u.GetKind()]
		if !ok {
			t.Fatalf("testdata/cluster-1.30.yaml: document %d: kind %q is not a v1alpha2 kind of the recipe", i+1, u.GetKind())
		}
		byResource[r] = append(byResource[r], u)
	}
	for _, k := range toV1alpha2 {
		if len(byResource[k.v1alpha2]) == 0 {
			t.Fatalf("testdata/cluster-1.30.yaml has no %s; the migration covers every v1alpha2 kind", k.v1alpha2)
		}
	}
	return byResource
}

// kindOf is the v1alpha2 kind of a resource.
func kindOf(resource string) string {
	return map[string]string{
		"resourceclasses": "ResourceClass", "resourceclassparameters": "ResourceClassParameters",
		"resourceclaimparameters": "ResourceClaimParameters", "resourceslices": "ResourceSlice",
		"resourceclaimtemplates": "ResourceClaimTemplate", "resourceclaims": "ResourceClaim",
		"podschedulingcontexts": "PodSchedulingContext",
	}[resource]
}

func dyn(t *testing.T, srv *e2eenv.Server, version, resource string, namespace string) dynamic.ResourceInterface {
	t.Helper()
	c, err := dynamic.NewForConfig(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Resource(schema.GroupVersionResource{Group: group, Version: version, Resource: resource})
	if namespace != "" {
		return r.Namespace(namespace)
	}
	return r
}

// create does what `kubectl create -f` does with each object (kubectl's
// default --validate=strict included) and, for kinds with a status,
// `kubectl replace --subresource=status -f` of the same objects.
func create(t *testing.T, srv *e2eenv.Server, version string, k kind, objs []*unstructured.Unstructured) {
	t.Helper()
	for _, o := range objs {
		r := dyn(t, srv, version, k.resource(version), o.GetNamespace())
		if _, err := r.Create(ctx(t), o, metav1.CreateOptions{FieldValidation: "Strict"}); err != nil {
			t.Fatalf("kube-apiserver %s: create %s %s: %v", srv.KubeVersion, k.resource(version), key(o), err)
		}
	}
	if !k.status {
		return
	}
	for _, o := range objs {
		if _, ok := o.Object["status"]; !ok {
			continue
		}
		r := dyn(t, srv, version, k.resource(version), o.GetNamespace())
		// No resourceVersion: an unconditional update, as kubectl
		// replace sends for a file without one.
		if _, err := r.UpdateStatus(ctx(t), o, metav1.UpdateOptions{FieldValidation: "Strict"}); err != nil {
			t.Fatalf("kube-apiserver %s: replace the status of %s %s: %v", srv.KubeVersion, k.resource(version), key(o), err)
		}
	}
}

// export lists a resource as `kubectl get <resource> -A -l <runLabel>=run
// -o yaml` does (with --show-managed-fields: the recipe must cope with
// them), as a v1 List whose items carry apiVersion and kind.
func export(t *testing.T, srv *e2eenv.Server, version, resource, run string) []byte {
	t.Helper()
	list, err := dyn(t, srv, version, resource, "").List(ctx(t), metav1.ListOptions{LabelSelector: runLabel + "=" + run})
	if err != nil {
		t.Fatalf("kube-apiserver %s: list %s.%s: %v", srv.KubeVersion, resource, version, err)
	}
	items := make([]any, len(list.Items))
	for i, item := range list.Items {
		if item.GetAPIVersion() == "" || item.GetKind() == "" {
			t.Fatalf("%s %s: the list item has no apiVersion or kind", resource, key(&item))
		}
		items[i] = item.Object
	}
	out, err := yaml.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// items reads the objects of a List file.
func items(t *testing.T, what string, data []byte) []*unstructured.Unstructured {
	t.Helper()
	var l struct {
		Kind  string           `json:"kind"`
		Items []map[string]any `json:"items"`
	}
	if err := yaml.Unmarshal(data, &l); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if l.Kind != "List" {
		t.Fatalf("%s: kind %q, want List", what, l.Kind)
	}
	out := make([]*unstructured.Unstructured, len(l.Items))
	for i, m := range l.Items {
		out[i] = &unstructured.Unstructured{Object: m}
	}
	return out
}

func key(o *unstructured.Unstructured) string {
	if o.GetNamespace() == "" {
		return o.GetName()
	}
	return o.GetNamespace() + "/" + o.GetName()
}

// comparable is an object without what its server set on its own: uid,
// resourceVersion, creationTimestamp, generation and managedFields (and
// an empty status). All the rest, spec, status, labels, annotations (the stash among them) and
// the legacy kinds' top-level fields, must match exactly.
func comparable(o *unstructured.Unstructured) map[string]any {
	c := o.DeepCopy()
	for _, f := range []string{"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields"} {
		unstructured.RemoveNestedField(c.Object, "metadata", f)
	}
	// An empty status is no status: v1's is a struct, which Go's JSON
	// writes as {} even when nothing is set.
	if st, ok := c.Object["status"].(map[string]any); ok && len(st) == 0 {
		delete(c.Object, "status")
	}
	// Numbers as JSON reads them, whichever decoder produced the object.
	js, _ := json.Marshal(c.Object)
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	_ = dec.Decode(&m)
	return m
}

// sameObjects fails unless got holds exactly the objects of want, each
// equal to its counterpart (see comparable).
func sameObjects(t *testing.T, what string, want, got []*unstructured.Unstructured) {
	t.Helper()
	byKey := map[string]*unstructured.Unstructured{}
	for _, o := range got {
		byKey[o.GetKind()+" "+key(o)] = o
	}
	for _, w := range want {
		k := w.GetKind() + " " + key(w)
		g, ok := byKey[k]
		if !ok {
			t.Errorf("%s: %s is missing", what, k)
			continue
		}
		delete(byKey, k)
		if d := cmp.Diff(comparable(w), comparable(g)); d != "" {
			t.Errorf("%s: %s differs (-want +got):\n%s", what, k, d)
		}
	}
	for k := range byKey {
		t.Errorf("%s: %s was not expected", what, k)
	}
}

// deleteRun removes the cluster-scoped objects of a run from a server
// (namespaced ones stay with their namespace, which never finishes
// terminating without a controller manager).
func deleteRun(t *testing.T, srv *e2eenv.Server, version, run string, kinds []kind) {
	for _, k := range kinds {
		if k.namespaced || k.resource(version) == "" {
			continue
		}
		err := dyn(t, srv, version, k.resource(version), "").DeleteCollection(ctx(t), metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: runLabel + "=" + run})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("kube-apiserver %s: delete the %s of run %s: %v", srv.KubeVersion, k.resource(version), run, err)
		}
	}
}

// names lists objects for messages.
func names(objs []*unstructured.Unstructured) string {
	var out []string
	for _, o := range objs {
		out = append(out, fmt.Sprintf("%s %s", o.GetKind(), key(o)))
	}
	return strings.Join(out, ", ")
}
