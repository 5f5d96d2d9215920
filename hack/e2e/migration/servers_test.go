// Package migration runs the recipe of docs/migration.md on real servers:
// the DRA objects of a 1.30 cluster (every v1alpha2 kind, allocated claims
// among them) go to a 1.37 cluster as v1 and come back to a fresh 1.30
// cluster, where they must equal the originals. Once with the drakit
// binary and kubectl-shaped files (recipe_test.go), once with hubclient
// (hub_test.go).
//
// It needs three servers at once, which hack/e2e.sh starts in its
// migration phase and describes with env files (those of the per-server
// phase): DRAKIT_E2E_MIGRATE_FROM (1.30), DRAKIT_E2E_MIGRATE_TO (1.37) and
// DRAKIT_E2E_MIGRATE_BACK (a second, empty 1.30). DRAKIT_E2E_DRAKIT names
// the drakit binary; without it the test builds one.
package migration

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// servers are the three API servers of the migration.
type servers struct {
	from, to, back *e2eenv.Server
}

// getServers returns the servers hack/e2e.sh described, or skips the test:
// in the per-server phase (DRAKIT_E2E_HOST set, no migration files) and
// when run by hand without servers. hack/e2e.sh's migration phase sets
// DRAKIT_E2E_REQUIRED=1 without DRAKIT_E2E_HOST, where missing files fail.
func getServers(t *testing.T) servers {
	t.Helper()
	files := map[string]string{}
	for _, v := range []string{"DRAKIT_E2E_MIGRATE_FROM", "DRAKIT_E2E_MIGRATE_TO", "DRAKIT_E2E_MIGRATE_BACK"} {
		files[v] = os.Getenv(v)
		if files[v] == "" {
			if os.Getenv("DRAKIT_E2E_REQUIRED") == "1" && os.Getenv("DRAKIT_E2E_HOST") == "" {
				t.Fatalf("%s is not set; hack/e2e.sh's migration phase sets it", v)
			}
			t.Skipf("%s is not set: the migration needs three servers, which hack/e2e.sh starts in its migration phase (or hack/e2e.sh --serve prints the line)", v)
		}
	}
	s := servers{
		from: serverFromFile(t, files["DRAKIT_E2E_MIGRATE_FROM"]),
		to:   serverFromFile(t, files["DRAKIT_E2E_MIGRATE_TO"]),
		back: serverFromFile(t, files["DRAKIT_E2E_MIGRATE_BACK"]),
	}
	for _, c := range []struct {
		srv  *e2eenv.Server
		want string
	}{{s.from, "v1alpha2"}, {s.to, "v1"}, {s.back, "v1alpha2"}} {
		if c.srv.ResourceVersion != c.want {
			t.Fatalf("kube-apiserver %s prefers resource.k8s.io/%s; the migration goes from v1alpha2 (1.30) to v1 (1.37) and back", c.srv.KubeVersion, c.srv.ResourceVersion)
		}
	}
	if s.from.Config.Host == s.back.Config.Host {
		t.Fatal("DRAKIT_E2E_MIGRATE_BACK names the same server as DRAKIT_E2E_MIGRATE_FROM; the way back needs a fresh one")
	}
	return s
}

// serverFromFile reads one of hack/e2e.sh's env.sh files ("export K=V"
// lines) and connects to that server the way every other package does,
// through e2eenv, whose contract is the environment.
func serverFromFile(t *testing.T, path string) *e2eenv.Server {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the migration's server description: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "export "))
		k, v, ok := strings.Cut(line, "=")
		if !ok || !strings.HasPrefix(k, "DRAKIT_E2E_") {
			continue
		}
		t.Setenv(k, strings.Trim(v, `"`))
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return e2eenv.Get(t)
}

// namespace creates the namespace name on every server, as an upgraded
// cluster still has its namespaces.
func (s servers) namespace(t *testing.T, name string) {
	t.Helper()
	for _, srv := range []*e2eenv.Server{s.from, s.to, s.back} {
		cs, err := kubernetes.NewForConfig(srv.Config)
		if err != nil {
			t.Fatal(err)
		}
		_, err = cs.CoreV1().Namespaces().Create(ctx(t), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("kube-apiserver %s: create namespace %s: %v", srv.KubeVersion, name, err)
		}
	}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}

// runID makes the names of one run unique: the servers outlive a test run
// under hack/e2e.sh --serve, and cluster-scoped names must not collide.
func runID(prefix string) string {
	return fmt.Sprintf("%s%d", prefix, time.Now().UnixNano()%1e8)
}

// drakitBinary is the drakit an operator would run: DRAKIT_E2E_DRAKIT, or
// one built from the main module with go build.
func drakitBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("DRAKIT_E2E_DRAKIT"); bin != "" {
		return bin
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "drakit")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/drakit")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/drakit in %s: %v\n%s", root, err, out)
	}
	return bin
}
