package e2eenv

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/drakit/drakit/apis/resource/catalogue"
)

// CatalogueServes reports whether drakit's catalogue says that the
// server's release serves kind (its name in version) in version. A kind the
// catalogue places in other releases may still be served in another shape
// (1.32 and 1.33 serve v1alpha3's DeviceClass changed in place); the tests
// use this to tell a kind that is rightly missing from a wrongly missing one.
func (s *Server) CatalogueServes(version, kind string) bool {
	for _, v := range catalogue.Versions {
		if v.Name != version {
			continue
		}
		k, ok := v.Kind(kind)
		return ok && k.Served.Contains(s.Minor())
	}
	return false
}

// CatalogueServesHub reports whether, by drakit's catalogue, the server's
// release serves the hub kind in any version.
func (s *Server) CatalogueServesHub(hubKind string) bool {
	for _, v := range catalogue.Versions {
		if k, ok := v.HubKind(hubKind); ok && k.Served.Contains(s.Minor()) {
			return true
		}
	}
	return false
}

// AdminNamespace creates a namespace for the calling test that allows
// admin access: claims and templates with adminAccess, and status updates
// that newly set it in a result, are only accepted in a namespace with the
// admin-access label (ga-facts §1.5). 1.33 used the key
// resource.k8s.io/admin-access; 1.34 moved it to the one the v1 API
// package declares.
func (s *Server) AdminNamespace(t testing.TB) string {
	t.Helper()
	key := resourcev1.DRAAdminNamespaceLabelKey
	if s.Minor() == 33 {
		key = "resource.k8s.io/admin-access"
	}
	cs, err := kubernetes.NewForConfig(s.Config)
	if err != nil {
		t.Fatalf("core clientset: %v", err)
	}
	ns, err := cs.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "drakit-e2e-admin-", Labels: map[string]string{key: "true"}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create namespace with label %s=true: %v", key, err)
	}
	return ns.Name
}

// DeclaredFeatureNode creates a Node called name whose status declares the
// given node features (status.declaredFeatures, NodeDeclaredFeatures gate),
// as a kubelet would register it; the suite runs no kubelet, and some
// admission checks (ResourceSlices with node allocatable resources) want
// such a node. Nodes accept their status on create. Like namespaces, it is
// left behind: etcd is thrown away after the run.
func (s *Server) DeclaredFeatureNode(t testing.TB, name string, features ...string) {
	t.Helper()
	cs, err := kubernetes.NewForConfig(s.Config)
	if err != nil {
		t.Fatalf("core clientset: %v", err)
	}
	node, err := cs.CoreV1().Nodes().Create(context.Background(), &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status:     corev1.NodeStatus{DeclaredFeatures: features},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create node %s: %v", name, err)
	}
	if len(node.Status.DeclaredFeatures) != len(features) {
		t.Fatalf("node %s was stored with declaredFeatures %v, not %v: is the NodeDeclaredFeatures gate on (hack/e2e.sh server_gates)?", name, node.Status.DeclaredFeatures, features)
	}
}
