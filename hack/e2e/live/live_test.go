// Package live tests drakit's cluster commands (describe, get, allocate
// --from-cluster, validate --from-cluster) against the real API servers of
// hack/e2e.sh: the objects of testdata/cluster.yaml are stored through
// hubclient in whatever version the server serves, pods are left pending
// (the suite runs no scheduler), and the commands run in-process with a
// kubeconfig for the server, as a user would run them. Their whole
// output is compared with testdata/golden (go test ./live/ -update
// rewrites it), once as an administrator and once as a user bound to
// examples/rbac/drakit-reader.yaml, whose answers must be the same. The
// golden answers count the cluster's nodes and list its claims: hack/e2e.sh
// runs this package alone, before the others add theirs.
package live

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/cmd/drakit/app"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
	"github.com/drakit/drakit/hubclient"
)

const ns = "drakit-live"

var update = flag.Bool("update", false, "rewrite testdata/golden with the server's answers (the 1.37 server first: the others' files are kept only where they differ)")

// goldenCases are the commands whose whole output testdata/golden holds:
// NAME.golden, or NAME.1.MINOR.golden where a release answers otherwise
// (its scheduler's default gates, what its version can store).
var goldenCases = []struct {
	name string
	args []string
}{
	{"describe-pod-pending", []string{"describe", "pod", "big", "-n", ns}},
	{"describe-pod-pending-explain", []string{"describe", "pod", "big", "-n", ns, "--explain"}},
	{"describe-pod-tainted", []string{"describe", "pod", "inference", "-n", ns, "--explain"}},
	{"describe-pod-tainted-gates", []string{"describe", "pod", "inference", "-n", ns, "--feature-gates", "DRADeviceTaints=true,DRADeviceTaintRules=true"}},
	{"describe-pod-template-not-made", []string{"describe", "pod", "waiting", "-n", ns}},
	{"describe-pod-running", []string{"describe", "pod", "trainer", "-n", ns}},
	{"describe-claim", []string{"describe", "claim", "train-gpus", "-n", ns}},
	{"describe-claim-shared", []string{"describe", "resourceclaim", "net-a", "-n", ns}},
	{"get-devices", []string{"get", "devices", "--driver", "gpu.live.example.com"}},
	{"get-devices-free", []string{"get", "devices", "--driver", "gpu.live.example.com", "--free"}},
	{"get-devices-shared", []string{"get", "devices", "--driver", "nic.live.example.com"}},
	{"get-resourceclaims", []string{"get", "resourceclaims", "-A"}},
	{"get-pools", []string{"get", "pools"}},
	{"get-pools-per-node", []string{"get", "pools", "--per-node", "--driver", "gpu.live.example.com"}},
	{"allocate-what-if", []string{"allocate", "--from-cluster", "-f", "testdata/whatif.yaml", "-o", "wide"}},
	{"allocate-pod-what-if", []string{"allocate", "--from-cluster", "-f", "testdata/whatif-pod.yaml", "-o", "wide", "--explain"}},
	{"validate-update", []string{"validate", "--from-cluster", "-f", "testdata/edit.yaml"}},
	{"validate-kind", []string{"validate", "--from-cluster", "-f", "testdata/taint-rule.yaml"}},
	{"validate-status", []string{"validate", "--from-cluster", "--subresource", "status", "-f", "testdata/status-edit.yaml"}},
}

// normalize takes out what differs from run to run: the server's address
// and the resourceVersions the server hands out.
func normalize(out, host string) string {
	out = strings.ReplaceAll(out, host, "https://SERVER")
	return resourceVersion.ReplaceAllString(out, `resourceVersion N`)
}

var resourceVersion = regexp.MustCompile(`resourceVersion "?[0-9]+"?`)

// compareGolden compares with the release's file, else the common one;
// with -update it writes the common file on the release drakit follows
// and elsewhere a release's file only where the answer differs.
func compareGolden(t *testing.T, s *e2eenv.Server, name, got string) {
	t.Helper()
	common := filepath.Join("testdata", "golden", name+".golden")
	own := filepath.Join("testdata", "golden", fmt.Sprintf("%s.1.%d.golden", name, s.Minor()))
	if *update {
		path := own
		if s.Minor() == catalogue.Release {
			path = common
		} else if want, err := os.ReadFile(common); err == nil && string(want) == got {
			_ = os.Remove(own)
			return
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	path := own
	want, err := os.ReadFile(own)
	if os.IsNotExist(err) {
		path = common
		want, err = os.ReadFile(common)
	}
	if err != nil {
		t.Fatalf("%v (run go test ./live/ -run TestLive -update against the 1.%d server first, then the others)", err, catalogue.Release)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("differs from %s (-want +got; -update rewrites it):\n%s", path, diff)
	}
}

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
	kubeconfig := s.Kubeconfig(t)
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := app.Run(append(args, "--kubeconfig", kubeconfig), genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
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
	bindReader(t, ctx, kube, "drakit-live-jane")
	t.Run("golden", func(t *testing.T) {
		for _, tc := range goldenCases {
			t.Run(tc.name, func(t *testing.T) {
				answer := func(args ...string) string {
					code, out, errOut := run(args...)
					return normalize(fmt.Sprintf("$ drakit %s\n# exit code %d\n# stdout:\n%s# stderr:\n%s", strings.Join(tc.args, " "), code, out, errOut), s.Config.Host)
				}
				got := answer(tc.args...)
				compareGolden(t, s, tc.name, got)
				// The read-only ClusterRole is enough: the same answer.
				if asJane := answer(append(tc.args, "--as", "drakit-live-jane")...); asJane != got {
					t.Errorf("as a user with the ClusterRole of examples/rbac (-admin +jane):\n%s", cmp.Diff(got, asJane))
				}
			})
		}
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
	// The nodes go when the test is done: the packages after this one
	// share the server, and a 1.37 server checks the nodes a slice can
	// reach (an allNodes slice with nodeAllocatableResources needs every
	// node to declare the feature).
	var nodes []string
	t.Cleanup(func() {
		for _, name := range nodes {
			if err := kube.CoreV1().Nodes().Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting node %s: %v", name, err)
			}
		}
	})
	for i, doc := range strings.Split(string(data), "\n---\n") {
		var head struct {
			metav1.TypeMeta
			Metadata metav1.ObjectMeta `json:"metadata"`
		}
		if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
			t.Fatal(err)
		}
		if head.Kind == "Node" {
			nodes = append(nodes, head.Metadata.Name)
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
		return createReadyNode(ctx, kube, o)
	case "Pod":
		o := &corev1.Pod{}
		if err := yaml.UnmarshalStrict(doc, o); err != nil {
			return err
		}
		status := o.Status
		stored, err := createPod(ctx, kube, o, hub.Version() == "v1alpha2")
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
		if hub.Version() == "v1alpha2" {
			// 1.30's scheduler copies the driver of the devices (one per
			// claim with structured parameters) into status.driverName,
			// which its validation requires with an allocation.
			status.DriverName = status.Allocation.Devices.Results[0].Driver
		}
		stored.Status = status
		_, err = hub.ResourceClaims(o.Namespace).UpdateStatus(ctx, stored, metav1.UpdateOptions{})
		return err
	}
	return fmt.Errorf("kind %q is not supported", kind)
}

// createPod creates the pod; legacy writes its claims in the shape of
// 1.30 and before (spec.resourceClaims[].source), which client-go no
// longer knows.
func createPod(ctx context.Context, kube kubernetes.Interface, pod *corev1.Pod, legacy bool) (*corev1.Pod, error) {
	if !legacy {
		return kube.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{})
	}
	data, err := json.Marshal(pod)
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, err
	}
	claims, _ := obj["spec"].(map[string]any)["resourceClaims"].([]any)
	for _, c := range claims {
		entry := c.(map[string]any)
		source := map[string]any{}
		for _, key := range []string{"resourceClaimName", "resourceClaimTemplateName"} {
			if v, ok := entry[key]; ok {
				source[key] = v
				delete(entry, key)
			}
		}
		entry["source"] = source
	}
	if data, err = json.Marshal(obj); err != nil {
		return nil, err
	}
	stored := &corev1.Pod{}
	err = kube.CoreV1().RESTClient().Post().Namespace(pod.Namespace).Resource("pods").
		SetHeader("Content-Type", "application/json").Body(data).Do(ctx).Into(stored)
	return stored, err
}

// createReadyNode creates the node as a kubelet would leave it once
// ready: the API server's admission taints a new node
// node.kubernetes.io/not-ready:NoSchedule, which the node lifecycle
// controller removes when the kubelet reports Ready; the suite runs
// neither, so it removes the taint itself.
func createReadyNode(ctx context.Context, kube kubernetes.Interface, node *corev1.Node) error {
	stored, err := kube.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	if len(stored.Spec.Taints) == len(node.Spec.Taints) {
		return nil
	}
	stored.Spec.Taints = node.Spec.Taints
	_, err = kube.CoreV1().Nodes().Update(ctx, stored, metav1.UpdateOptions{})
	return err
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
