// Package e2eenv connects the e2e tests to the API server hack/e2e.sh
// started, described by DRAKIT_E2E_* environment variables.
package e2eenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/drakit/drakit/generated/clientset/versioned"
)

// Server is the API server under test.
type Server struct {
	// KubeVersion is the release, e.g. "v1.30.14".
	KubeVersion string
	// ResourceVersion is the resource.k8s.io version it prefers (the
	// newest it serves), e.g. "v1alpha2" on 1.30 and "v1" on 1.37.
	ResourceVersion string
	// ResourceVersions are all the resource.k8s.io versions it serves,
	// preferred first: just ResourceVersion on 1.30 and 1.33; v1, v1beta2,
	// v1beta1 and v1alpha3 on 1.37.
	ResourceVersions []string
	// Config reaches the server as a member of system:masters.
	Config *rest.Config
	// Clientset is drakit's generated clientset for Config.
	Clientset versioned.Interface
	// Discovery is a discovery client for Config.
	Discovery discovery.DiscoveryInterface
}

// Get returns the server under test. Without DRAKIT_E2E_HOST the test is
// skipped, unless DRAKIT_E2E_REQUIRED=1 (set by hack/e2e.sh), where a
// missing server is a failure.
func Get(t testing.TB) *Server {
	t.Helper()
	host := os.Getenv("DRAKIT_E2E_HOST")
	if host == "" {
		if os.Getenv("DRAKIT_E2E_REQUIRED") == "1" {
			t.Fatal("DRAKIT_E2E_HOST is not set although DRAKIT_E2E_REQUIRED=1; run the suite through hack/e2e.sh")
		}
		t.Skip("no API server: run hack/e2e.sh, which starts kube-apiserver and sets DRAKIT_E2E_HOST")
	}
	s := &Server{
		KubeVersion:      os.Getenv("DRAKIT_E2E_KUBE_VERSION"),
		ResourceVersion:  os.Getenv("DRAKIT_E2E_RESOURCE_VERSION"),
		ResourceVersions: strings.Fields(os.Getenv("DRAKIT_E2E_RESOURCE_VERSIONS")),
		Config: &rest.Config{
			Host:            host,
			BearerToken:     os.Getenv("DRAKIT_E2E_TOKEN"),
			TLSClientConfig: rest.TLSClientConfig{Insecure: true},
			// The suite runs many calls in a row; client-side throttling
			// would only make it slower.
			QPS:       1000,
			Burst:     1000,
			Timeout:   30 * time.Second,
			UserAgent: "drakit-e2e",
		},
	}
	if len(s.ResourceVersions) == 0 && s.ResourceVersion != "" {
		s.ResourceVersions = []string{s.ResourceVersion}
	}
	if s.KubeVersion == "" || s.ResourceVersion == "" {
		t.Fatal("DRAKIT_E2E_KUBE_VERSION and DRAKIT_E2E_RESOURCE_VERSION must be set with DRAKIT_E2E_HOST (hack/e2e.sh writes them)")
	}
	var err error
	if s.Clientset, err = versioned.NewForConfig(s.Config); err != nil {
		t.Fatalf("clientset for %s: %v", host, err)
	}
	if s.Discovery, err = discovery.NewDiscoveryClientForConfig(s.Config); err != nil {
		t.Fatalf("discovery client for %s: %v", host, err)
	}
	return s
}

// Minor is the minor release of the server, e.g. 30 for v1.30.14.
func (s *Server) Minor() int {
	var major, minor, patch int
	if _, err := fmt.Sscanf(strings.TrimPrefix(s.KubeVersion, "v"), "%d.%d.%d", &major, &minor, &patch); err != nil {
		return 0
	}
	return minor
}

// RequireVersion skips the test unless the server prefers one of the given
// resource.k8s.io versions (its ResourceVersion). Tests of a version that a
// server may serve besides its preferred one use RequireServed.
func (s *Server) RequireVersion(t testing.TB, versions ...string) {
	t.Helper()
	for _, v := range versions {
		if v == s.ResourceVersion {
			return
		}
	}
	t.Skipf("kube-apiserver %s serves resource.k8s.io/%s, this test needs %s", s.KubeVersion, s.ResourceVersion, strings.Join(versions, " or "))
}

// Serves reports whether the server serves resource.k8s.io/<version>.
func (s *Server) Serves(version string) bool {
	for _, v := range s.ResourceVersions {
		if v == version {
			return true
		}
	}
	return false
}

// RequireServed skips the test unless the server serves
// resource.k8s.io/<version>, preferred or not.
func (s *Server) RequireServed(t testing.TB, version string) {
	t.Helper()
	if !s.Serves(version) {
		t.Skipf("kube-apiserver %s serves resource.k8s.io %s, this test needs %s", s.KubeVersion, strings.Join(s.ResourceVersions, ", "), version)
	}
}

// Namespace creates a namespace of its own for the calling test. It is not
// deleted: without a controller manager a deleted namespace never finishes
// terminating, and etcd is thrown away after the run anyway.
func (s *Server) Namespace(t testing.TB) string {
	t.Helper()
	cs, err := kubernetes.NewForConfig(s.Config)
	if err != nil {
		t.Fatalf("core clientset: %v", err)
	}
	ns, err := cs.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "drakit-e2e-"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create namespace: %v", err)
	}
	return ns.Name
}

// Kubeconfig writes a kubeconfig for the server as the tests reach it (a
// member of system:masters) into the test's temporary directory and
// returns its path, for the drakit commands a test runs with
// --kubeconfig.
func (s *Server) Kubeconfig(t testing.TB) string {
	t.Helper()
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
`, s.Config.Host, s.Config.BearerToken)
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
