// Package upgradecheck runs "drakit upgrade-check --from-cluster" against
// the real API servers of hack/e2e.sh, each holding the objects of
// testdata/objects.yaml (written through hubclient in the version it
// serves), with the v1beta1-only admission policy and the pre-1.36 driver
// role of testdata/admission.yaml given as manifests (stored in the
// shared server they would disturb the packages that lint every policy
// there): the 1.30.14 server checked against 1.31 and 1.37 (every object
// flagged: 1.31 cannot read v1alpha2), the 1.33.13 server (which stores
// its claims as v1beta1 whatever version they are written in) against
// 1.37, and the 1.37.2 server against 1.33 (the downgrade refused, with
// the reason) and 1.38.
// Each run's findings about these objects are compared with
// testdata/golden (go test ./upgradecheck/ -update rewrites them); the
// other packages' objects on the same server are left out of the
// comparison. The storage plan of each run is proven on every object of
// the cluster, and the test requires that those of this package survive.
package upgradecheck

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/app"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
	"github.com/drakit/drakit/hubclient"
	"github.com/drakit/drakit/preflight"
)

// ours are the names of our resource.k8s.io objects by (hub) kind.
var ours = map[string][]string{}

var update = flag.Bool("update", false, "rewrite testdata/golden with the findings of this server")

// targets are the releases each server is checked against.
var targets = map[int][]string{
	30: {"1.31", "1.37"},
	33: {"1.37"},
	37: {"1.33", "1.38"},
}

func TestUpgradeCheck(t *testing.T) {
	s := e2eenv.Get(t)
	to, ok := targets[s.Minor()]
	if !ok {
		t.Skipf("no upgrade check for kube-apiserver %s", s.KubeVersion)
	}
	ctx := context.Background()
	kube, err := kubernetes.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	hub, err := hubclient.NewForConfig(s.Config, hubclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ns := s.Namespace(t)
	mine := load(t, ctx, kube, hub, ns)
	kubeconfig := s.Kubeconfig(t)
	for _, target := range to {
		t.Run("to-"+target, func(t *testing.T) {
			args := []string{"upgrade-check", "--from-cluster", "-f", "testdata/admission.yaml", "--to", target, "--storage-plan", "-o", "json", "--kubeconfig", kubeconfig}
			var out, errOut bytes.Buffer
			code := app.Run(args, genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
			var rep struct {
				From        string
				Findings    []preflight.Finding
				StoragePlan []preflight.PlanStep
				InputErrors []string
			}
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("drakit %s: exit %d, %v:\n%s%s", strings.Join(args, " "), code, err, out.String(), errOut.String())
			}
			if want := fmt.Sprintf("1.%d", s.Minor()); rep.From != want {
				t.Errorf("from %q, want the server's %s", rep.From, want)
			}
			if len(rep.InputErrors) > 0 {
				t.Errorf("input errors: %q", rep.InputErrors)
			}
			got, flagged := render(rep.Findings, mine, ns)
			executed := 0
			// Every object of ours is in a breaking finding: the DRA
			// objects on every target but 1.38 (which reads what 1.37
			// stores), the policy and the role where the target serves
			// v1 by default and checks the status permissions (1.36 on).
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			for name, dra := range mine {
				if dra && target == "1.38" || !dra && target < "1.36" {
					continue
				}
				if !flagged[name] {
					t.Errorf("%s is in no breaking finding", name)
				}
			}
			for _, step := range rep.StoragePlan {
				for _, f := range step.Failed {
					if _, ok := mine[f.Object]; ok {
						t.Errorf("storage plan: %s would not survive: %s", f.Object, f.Why)
					}
				}
				if step.Release == rep.From {
					executed += execute(t, ctx, kube, hub, step, ns)
				}
			}
			// The plans that run on the server itself: 1.33's rewrite
			// before 1.34, 1.37's migration before 1.38.
			if (rep.From == "1.33" || target == "1.38") && executed != len(ours) {
				t.Errorf("the storage plan ran on %d kinds of ours, want %d", executed, len(ours))
			}
			compareGolden(t, fmt.Sprintf("1.%d-to-%s", s.Minor(), target), got)
		})
	}
	if s.Minor() == 33 {
		t.Run("recreated-on-1.37", func(t *testing.T) { recreate(t, ctx, hub, ns) })
	}
}

// recreate carries our objects of the 1.33 server to the 1.37 server of
// the same run through hubclient, as the export, convert and create steps
// of a plan do, and reads them back there: every one must be equal to
// what 1.33 holds, the server-set metadata aside. They are deleted from
// 1.37 at once (the live package lists that server's claims).
func recreate(t *testing.T, ctx context.Context, from *hubclient.Client, ns string) {
	env := siblingEnv(t, "v1.37.")
	if env == nil {
		t.Skip("no 1.37 server in this run of hack/e2e.sh")
	}
	cfg := &rest.Config{Host: env["DRAKIT_E2E_HOST"], BearerToken: env["DRAKIT_E2E_TOKEN"], TLSClientConfig: rest.TLSClientConfig{Insecure: true}, UserAgent: "drakit-e2e"}
	to, err := hubclient.NewForConfig(cfg, hubclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := to.Version(); v != "v1" {
		t.Fatalf("the 1.37 server serves %s, want v1", v)
	}
	const target = "default"
	n := 0
	for kind, names := range ours {
		for _, name := range names {
			before, err := get(ctx, from, kind, ns, name)
			if err != nil {
				t.Fatal(err)
			}
			obj := forCreate(before)
			if m := obj.(metav1.Object); m.GetNamespace() != "" {
				m.SetNamespace(target)
			}
			if _, err := createHub(ctx, to, obj, target); err != nil {
				t.Errorf("creating %s %s on 1.37: %v", kind, name, err)
				continue
			}
			t.Cleanup(func() { deleteHub(to, kind, target, name) })
			after, err := get(ctx, to, kind, target, name)
			if err != nil {
				t.Fatal(err)
			}
			want := forCreate(before)
			if m := want.(metav1.Object); m.GetNamespace() != "" {
				m.SetNamespace(target)
			}
			if diff := cmp.Diff(want, forCreate(after)); diff != "" {
				t.Errorf("%s %s read back from 1.37 differs from 1.33's (-1.33 +1.37):\n%s", kind, name, diff)
			}
			n++
		}
	}
	t.Logf("%d objects of the 1.33 server created on the 1.37 server through hubclient and read back equal", n)
}

// forCreate is a copy of obj without what a server sets.
func forCreate(obj runtime.Object) runtime.Object {
	out := obj.DeepCopyObject()
	m := out.(metav1.Object)
	m.SetUID("")
	m.SetResourceVersion("")
	m.SetCreationTimestamp(metav1.Time{})
	m.SetManagedFields(nil)
	m.SetGeneration(0)
	out.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
	return out
}

// siblingEnv reads the env.sh that hack/e2e.sh wrote for another server
// of the same run (its directory's name starts with prefix, "v1.37."),
// beside this server's; nil when there is none.
func siblingEnv(t *testing.T, prefix string) map[string]string {
	own := os.Getenv("DRAKIT_E2E_KUBECONFIG")
	if own == "" {
		return nil
	}
	dirs, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(own)), prefix+"*"))
	for _, dir := range dirs {
		if strings.Contains(filepath.Base(dir), "-") {
			continue // a variant or the fresh server of the migration
		}
		data, err := os.ReadFile(filepath.Join(dir, "env.sh"))
		if err != nil {
			continue
		}
		env := map[string]string{}
		for _, line := range strings.Split(string(data), "\n") {
			k, v, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
			if ok {
				env[k] = strings.Trim(v, `"`)
			}
		}
		if env["DRAKIT_E2E_HOST"] != "" {
			return env
		}
	}
	return nil
}

// render writes the findings about our objects, one block per finding:
// severity, check, release, why, what to do and which of our objects,
// with the test's namespace as NS. flagged are our objects in breaking
// findings.
func render(findings []preflight.Finding, mine map[string]bool, ns string) (string, map[string]bool) {
	flagged := map[string]bool{}
	var blocks []string
	for _, f := range findings {
		var ours []string
		if _, ok := mine[f.Object]; ok {
			ours = append(ours, f.Object)
		}
		for _, o := range f.Objects {
			if _, ok := mine[o]; ok {
				ours = append(ours, o)
			}
		}
		if len(ours) == 0 {
			continue
		}
		sort.Strings(ours)
		if f.Severity == preflight.Breaking {
			for _, o := range ours {
				flagged[o] = true
			}
		}
		b := fmt.Sprintf("%s %s %s %s\n  why: %s\n  do: %s\n  objects: %s\n", f.Severity, f.Check, f.Release, f.Path, f.Why, f.Do, strings.Join(ours, ", "))
		blocks = append(blocks, strings.ReplaceAll(b, ns+"/", "NS/"))
	}
	sort.Strings(blocks)
	return strings.Join(blocks, ""), flagged
}

// execute runs a storage plan step on the server it is for (and says
// whether it had objects of ours to run on): the
// StorageVersionMigration it gives is created (dry run: the suite runs no
// kube-controller-manager to carry it out), and our objects of its kind
// are written again through hubclient, as the migration or the no-op
// updates of the step would, and read back equal.
func execute(t *testing.T, ctx context.Context, kube kubernetes.Interface, hub *hubclient.Client, step preflight.PlanStep, ns string) int {
	t.Helper()
	if step.Method != preflight.MethodMigrate && step.Method != preflight.MethodNone || len(ours[step.Kind]) == 0 {
		return 0
	}
	if step.Migration != nil {
		if _, err := kube.StoragemigrationV1().StorageVersionMigrations().Create(ctx, step.Migration, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}); err != nil {
			t.Errorf("storage plan %s: the server refuses its StorageVersionMigration: %v", step.Resource, err)
		}
	}
	for _, name := range ours[step.Kind] {
		before, after, err := rewrite(ctx, hub, step.Kind, ns, name)
		if err != nil {
			t.Errorf("storage plan %s: rewriting %s: %v", step.Resource, name, err)
			continue
		}
		if diff := cmp.Diff(comparable(before), comparable(after)); diff != "" {
			t.Errorf("storage plan %s: %s differs after it was written again (-before +after):\n%s", step.Resource, name, diff)
		}
	}
	t.Logf("storage plan %s (%s on %s as %s): %d of our objects written again and read back equal", step.Resource, step.Method, step.Release, step.Version, len(ours[step.Kind]))
	return 1
}

// comparable is an object without what a write changes by itself: its
// resourceVersion and managed fields.
func comparable(obj runtime.Object) runtime.Object {
	out := obj.DeepCopyObject()
	if m, ok := out.(metav1.Object); ok {
		m.SetResourceVersion("")
		m.SetManagedFields(nil)
	}
	return out
}

// rewrite reads an object of ours through hubclient, writes it back
// unchanged, and reads it again.
func rewrite(ctx context.Context, hub *hubclient.Client, kind, ns, name string) (before, after runtime.Object, err error) {
	if before, err = get(ctx, hub, kind, ns, name); err != nil {
		return nil, nil, err
	}
	switch o := before.DeepCopyObject().(type) {
	case *resource.DeviceClass:
		_, err = hub.DeviceClasses().Update(ctx, o, metav1.UpdateOptions{})
	case *resource.ResourceSlice:
		_, err = hub.ResourceSlices().Update(ctx, o, metav1.UpdateOptions{})
	case *resource.ResourceClaim:
		_, err = hub.ResourceClaims(ns).Update(ctx, o, metav1.UpdateOptions{})
	case *resource.ResourceClaimTemplate:
		_, err = hub.ResourceClaimTemplates(ns).Update(ctx, o, metav1.UpdateOptions{})
	}
	if err != nil {
		return nil, nil, err
	}
	after, err = get(ctx, hub, kind, ns, name)
	return before, after, err
}

// get reads an object of ours through hubclient.
func get(ctx context.Context, hub *hubclient.Client, kind, ns, name string) (runtime.Object, error) {
	switch kind {
	case "DeviceClass":
		return hub.DeviceClasses().Get(ctx, name, metav1.GetOptions{})
	case "ResourceSlice":
		return hub.ResourceSlices().Get(ctx, name, metav1.GetOptions{})
	case "ResourceClaim":
		return hub.ResourceClaims(ns).Get(ctx, name, metav1.GetOptions{})
	case "ResourceClaimTemplate":
		return hub.ResourceClaimTemplates(ns).Get(ctx, name, metav1.GetOptions{})
	}
	return nil, fmt.Errorf("no kind %s here", kind)
}

func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./upgradecheck/ -update against the server writes it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("differs from %s (-want +got; -update rewrites it):\n%s", path, diff)
	}
}

// load stores testdata/objects.yaml through hubclient in the version the
// server serves (namespaced ones in ns), to be deleted when the test
// ends. It returns the names the
// findings give our objects ("ResourceClaim ns/uc-one-gpu",
// "ValidatingAdmissionPolicy uc-v1beta1-only"), true for those of
// resource.k8s.io.
func load(t *testing.T, ctx context.Context, kube kubernetes.Interface, hub *hubclient.Client, ns string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile("testdata/objects.yaml")
	if err != nil {
		t.Fatal(err)
	}
	mine := map[string]bool{}
	for _, doc := range strings.Split(string(data), "\n---\n") {
		var head metav1.TypeMeta
		if err := yaml.Unmarshal([]byte(doc), &head); err != nil || head.Kind == "" {
			t.Fatalf("testdata/objects.yaml: %v", err)
		}
		gv, err := schema.ParseGroupVersion(head.APIVersion)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case gv.Group == resource.GroupName:
			obj, err := conversion.Scheme.New(gv.WithKind(head.Kind))
			if err != nil {
				t.Fatal(err)
			}
			if err := yaml.UnmarshalStrict([]byte(doc), obj); err != nil {
				t.Fatal(err)
			}
			h, err := conversion.ToHub(obj)
			if err != nil {
				t.Fatal(err)
			}
			name, err := createHub(ctx, hub, h, ns)
			if err != nil {
				t.Fatalf("creating %s: %v", head.Kind, err)
			}
			mine[name] = true
			m, _ := h.(metav1.Object)
			ours[head.Kind] = append(ours[head.Kind], m.GetName())
			kind, objName := head.Kind, m.GetName()
			t.Cleanup(func() { deleteHub(hub, kind, ns, objName) })
		default:
			t.Fatalf("testdata/objects.yaml: unexpected %s", head.Kind)
		}
	}
	// The policy and the role are read from testdata/admission.yaml.
	mine["ValidatingAdmissionPolicy uc-v1beta1-only"] = false
	mine["ClusterRole uc-kubelet-plugin"] = false
	return mine
}

// createHub creates a hub object through hubclient and returns its name as
// the findings write it. Cluster-scoped objects that exist already (a run
// against the same server before) are kept.
func createHub(ctx context.Context, hub *hubclient.Client, obj runtime.Object, ns string) (string, error) {
	var err error
	var name string
	switch o := obj.(type) {
	case *resource.DeviceClass:
		name = preflight.ObjectName("DeviceClass", "", o.Name)
		_, err = hub.DeviceClasses().Create(ctx, o, metav1.CreateOptions{})
	case *resource.ResourceSlice:
		name = preflight.ObjectName("ResourceSlice", "", o.Name)
		_, err = hub.ResourceSlices().Create(ctx, o, metav1.CreateOptions{})
	case *resource.ResourceClaim:
		o.Namespace = ns
		name = preflight.ObjectName("ResourceClaim", ns, o.Name)
		_, err = hub.ResourceClaims(ns).Create(ctx, o, metav1.CreateOptions{})
	case *resource.ResourceClaimTemplate:
		o.Namespace = ns
		name = preflight.ObjectName("ResourceClaimTemplate", ns, o.Name)
		_, err = hub.ResourceClaimTemplates(ns).Create(ctx, o, metav1.CreateOptions{})
	default:
		return "", fmt.Errorf("unexpected %T", obj)
	}
	if apierrors.IsAlreadyExists(err) {
		err = nil
	}
	return name, err
}

// deleteHub deletes an object of ours (cluster-scoped ones would be in
// the other packages' lists).
func deleteHub(hub *hubclient.Client, kind, ns, name string) {
	ctx := context.Background()
	switch kind {
	case "DeviceClass":
		_ = hub.DeviceClasses().Delete(ctx, name, metav1.DeleteOptions{})
	case "ResourceSlice":
		_ = hub.ResourceSlices().Delete(ctx, name, metav1.DeleteOptions{})
	case "ResourceClaim":
		_ = hub.ResourceClaims(ns).Delete(ctx, name, metav1.DeleteOptions{})
	case "ResourceClaimTemplate":
		_ = hub.ResourceClaimTemplates(ns).Delete(ctx, name, metav1.DeleteOptions{})
	}
}
