// Package live tests drakit's cluster commands (describe, get, allocate
// --from-cluster, validate --from-cluster) against the real API servers of
// hack/e2e.sh: the objects of testdata/cluster.yaml are stored through
// hubclient in whatever version the server serves, pods are left pending
// (the suite runs no scheduler), and the commands run in-process with a
// kubeconfig for the server, as a user would run them.
package live

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/app"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
	"github.com/drakit/drakit/hubclient"
)

const ns = "drakit-live"

func TestLive(t *testing.T) {
	s := e2eenv.Get(t)
	ctx := context.Background()
	kube, err := kubernetes.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	hub, err := hubclient.NewForConfig(s.Config, hubclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	load(t, ctx, kube, hub)
	kubeconfig := writeKubeconfig(t, s.Config.Host, s.Config.BearerToken)
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := app.Run(append(args, "--kubeconfig", kubeconfig), app.Streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
		return code, out.String(), errOut.String()
	}
	expect := func(t *testing.T, args []string, wantCode int, wants ...string) {
		t.Helper()
		code, out, errOut := run(args...)
		all := out + errOut
		if code != wantCode {
			t.Errorf("drakit %s: exit %d, want %d:\n%s", strings.Join(args, " "), code, wantCode, all)
		}
		for _, w := range wants {
			if !strings.Contains(all, w) {
				t.Errorf("drakit %s: lacks %q:\n%s", strings.Join(args, " "), w, all)
			}
		}
	}
	served := fmt.Sprintf("resource.k8s.io/%s,", hub.Version())
	t.Run("describe pod", func(t *testing.T) {
		expect(t, []string{"describe", "pod", "inference", "-n", ns, "--explain"}, 0,
			"ResourceClaim:  inference-gpus-x7k2p (template two-gpus)", "State:          not allocated", served,
			"nodes can run drakit-live/inference:", "not enough devices for claim gpus (request gpus)",
			"Claims holding devices it would get (1): drakit-live/train-gpus",
			"drakit-live-a: not enough devices for claim gpus (request gpus)",
			"drakit-live-b: gpu.live.example.com/drakit-live-b/gpu-1 example.com/ecc=failing:NoSchedule")
		expect(t, []string{"describe", "pod", "waiting", "-n", ns}, 0, "waiting for the claim of template two-gpus to be made")
		expect(t, []string{"describe", "pod", "trainer", "-n", ns}, 0, "allocated on drakit-live-a: gpu.live.example.com/drakit-live-a/gpu-0, gpu.live.example.com/drakit-live-a/gpu-1; reserved for pod trainer")
	})
	t.Run("describe claim", func(t *testing.T) {
		expect(t, []string{"describe", "claim", "train-gpus", "-n", ns}, 0,
			"gpu.live.example.com/drakit-live-a/gpu-0 (request gpus):", "Attributes:   index=0,model=A100", "Capacity:     memory=80Gi",
			"Conditions:   Ready=True (Prepared)", "Reserved for: pod trainer")
	})
	t.Run("get", func(t *testing.T) {
		expect(t, []string{"get", "devices", "--driver", "gpu.live.example.com"}, 0,
			"drakit-live-a   gpu.live.example.com   drakit-live-a   gpu-0    drakit-live/train-gpus", "<free>")
		expect(t, []string{"get", "resourceclaims", "-n", ns}, 0, "train-gpus", "allocated,reserved")
	})
	t.Run("allocate what-if", func(t *testing.T) {
		expect(t, []string{"allocate", "--from-cluster", "-f", "testdata/whatif.yaml", "-o", "wide"}, 0,
			"drakit-live/one-gpu", "drakit-live-b", "allocated")
	})
	t.Run("validate update", func(t *testing.T) {
		expect(t, []string{"validate", "--from-cluster", "-f", "testdata/edit.yaml"}, 1,
			"checked as an update of the stored object (resourceVersion", "field is immutable")
	})
	t.Run("read-only ClusterRole is enough", func(t *testing.T) {
		bindReader(t, ctx, kube, "drakit-live-jane")
		expect(t, []string{"describe", "pod", "inference", "-n", ns, "--as", "drakit-live-jane"}, 0, "nodes can run drakit-live/inference")
		expect(t, []string{"get", "devices", "--as", "drakit-live-jane"}, 0, "drakit-live/train-gpus")
		expect(t, []string{"validate", "--from-cluster", "-f", "testdata/edit.yaml", "--as", "drakit-live-jane"}, 1, "field is immutable")
	})
	t.Run("failures", func(t *testing.T) {
		expect(t, []string{"get", "devices", "--as", "drakit-live-nobody"}, 1, "permission denied:", "drakit-live-nobody", "examples/rbac/drakit-reader.yaml")
		expect(t, []string{"get", "devices", "--server", "https://127.0.0.1:1"}, 1, "cannot reach the server")
		expect(t, []string{"describe", "pod", "nosuch", "-n", ns}, 1, `pods "nosuch" not found`)
	})
}

// load stores testdata/cluster.yaml: core objects with client-go,
// resource.k8s.io objects through hubclient in the served version; claim
// and pod status as the scheduler and kube-controller-manager would write
// them. Kinds the server does not serve are left out.
func load(t testing.TB, ctx context.Context, kube kubernetes.Interface, hub *hubclient.Client) {
	data, err := os.ReadFile("testdata/cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for i, doc := range strings.Split(string(data), "\n---\n") {
		var head metav1.TypeMeta
		if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
			t.Fatal(err)
		}
		if err := store(ctx, kube, hub, head.Kind, []byte(doc)); err != nil && !apierrors.IsAlreadyExists(err) {
			var notServed *hubclient.NotServedError
			if ok := asNotServed(err, &notServed); ok {
				continue
			}
			t.Fatalf("testdata/cluster.yaml document %d (%s): %v", i+1, head.Kind, err)
		}
	}
}

func asNotServed(err error, target **hubclient.NotServedError) bool {
	e, ok := err.(*hubclient.NotServedError)
	if ok {
		*target = e
	}
	return ok
}

func store(ctx context.Context, kube kubernetes.Interface, hub *hubclient.Client, kind string, doc []byte) error {
	create := metav1.CreateOptions{}
	switch kind {
	case "Namespace":
		o := &corev1.Namespace{}
		if err := yaml.UnmarshalStrict(doc, o); err != nil {
			return err
		}
		if _, err := kube.CoreV1().Namespaces().Create(ctx, o, create); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
		// No kube-controller-manager makes the service account pods need.
		sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: o.Name}}
		_, err := kube.CoreV1().ServiceAccounts(o.Name).Create(ctx, sa, create)
		return err
	case "Node":
		o := &corev1.Node{}
		if err := yaml.UnmarshalStrict(doc, o); err != nil {
			return err
		}
		_, err := kube.CoreV1().Nodes().Create(ctx, o, create)
		return err
	case "Pod":
		o := &corev1.Pod{}
		if err := yaml.UnmarshalStrict(doc, o); err != nil {
			return err
		}
		status := o.Status
		stored, err := kube.CoreV1().Pods(o.Namespace).Create(ctx, o, create)
		if err != nil {
			return err
		}
		stored.Status.Phase, stored.Status.ResourceClaimStatuses = status.Phase, status.ResourceClaimStatuses
		_, err = kube.CoreV1().Pods(o.Namespace).UpdateStatus(ctx, stored, metav1.UpdateOptions{})
		return err
	case "DeviceClass":
		o := &resource.DeviceClass{}
		if err := yaml.UnmarshalStrict(doc, o); err != nil {
			return err
		}
		_, err := hub.DeviceClasses().Create(ctx, o, create)
		return err
	case "ResourceSlice":
		o := &resource.ResourceSlice{}
		if err := yaml.UnmarshalStrict(doc, o); err != nil {
			return err
		}
		_, err := hub.ResourceSlices().Create(ctx, o, create)
		return err
	case "DeviceTaintRule":
		o := &resource.DeviceTaintRule{}
		if err := yaml.UnmarshalStrict(doc, o); err != nil {
			return err
		}
		_, err := hub.DeviceTaintRules().Create(ctx, o, create)
		return err
	case "ResourceClaimTemplate":
		o := &resource.ResourceClaimTemplate{}
		if err := yaml.UnmarshalStrict(doc, o); err != nil {
			return err
		}
		_, err := hub.ResourceClaimTemplates(o.Namespace).Create(ctx, o, create)
		return err
	case "ResourceClaim":
		o := &resource.ResourceClaim{}
		if err := yaml.UnmarshalStrict(doc, o); err != nil {
			return err
		}
		status := o.Status
		stored, err := hub.ResourceClaims(o.Namespace).Create(ctx, o, create)
		if err != nil || status.Allocation == nil {
			return err
		}
		stored.Status = status
		_, err = hub.ResourceClaims(o.Namespace).UpdateStatus(ctx, stored, metav1.UpdateOptions{})
		return err
	}
	return fmt.Errorf("kind %q is not supported", kind)
}

// bindReader stores the ClusterRole of examples/rbac and binds user to it.
func bindReader(t testing.TB, ctx context.Context, kube kubernetes.Interface, user string) {
	data, err := os.ReadFile("../../../examples/rbac/drakit-reader.yaml")
	if err != nil {
		t.Fatal(err)
	}
	role := &rbacv1.ClusterRole{}
	if err := yaml.UnmarshalStrict(data, role); err != nil {
		t.Fatal(err)
	}
	if _, err := kube.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: user},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: role.Name},
		Subjects:   []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: user}},
	}
	if _, err := kube.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
}

func writeKubeconfig(t testing.TB, host, token string) string {
	path := filepath.Join(t.TempDir(), "kubeconfig")
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster: {server: %q, insecure-skip-tls-verify: true}
users:
- name: e2e
  user: {token: %q}
contexts:
- name: e2e
  context: {cluster: e2e, user: e2e}
current-context: e2e
`, host, token)
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
