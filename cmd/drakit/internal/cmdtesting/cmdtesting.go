// Package cmdtesting runs drakit's command line in tests, as kubectl's
// k8s.io/kubectl/pkg/cmd/testing does for kubectl's: a Factory with a
// fixed build and, when a test asks for one, a fake cluster; the whole
// command tree run in-process from the repository's root, so that paths
// read as in the README; and golden files, one per case, under
// cmd/drakit/app/testdata/golden, holding the case's exit code, standard
// output and standard error. After a deliberate change of output:
//
//	go test ./cmd/drakit/app/... -run Golden -update
//
// A command's tests (in its package under cmd/drakit/app, as package
// <command>_test) call Main from their TestMain.
package cmdtesting

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/app"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster/clustertest"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

var update = flag.Bool("update", false, "rewrite the golden files with the current output")

// AppDir is the directory of the root command, relative to the
// repository's root: its testdata holds the inputs, the fake cluster's
// objects and the golden files of every command.
const AppDir = "cmd/drakit/app"

var (
	// RepoRoot is the repository's root, where the tests run.
	RepoRoot string
	// PackageDir is the directory of the package under test (where its
	// testdata/fuzz seed corpus is).
	PackageDir string
)

// Main runs a command package's tests from the repository's root.
func Main(m *testing.M) {
	flag.Parse()
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	PackageDir = wd
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			panic("cmdtesting: no go.mod above " + wd)
		}
		root = parent
	}
	RepoRoot = root
	if err := os.Chdir(RepoRoot); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

// InputFile is the path of a test input under cmd/drakit/app/testdata/input.
func InputFile(name string) string { return AppDir + "/testdata/input/" + name }

// Factory is the cmdutil.Factory of the tests: a build whose output does
// not depend on the toolchain that runs the tests, and a fake cluster (or,
// without one, the cluster the flags select).
type Factory struct {
	// Fake is the fake cluster, or nil.
	Fake *clustertest.Fake
}

// NewFactory is a Factory without a fake cluster.
func NewFactory() *Factory { return &Factory{} }

// NewFakeClusterFactory is a Factory over a fake cluster serving
// resource.k8s.io in versions (see clustertest.New), holding the objects
// of cmd/drakit/app/testdata/live/cluster.yaml.
func NewFakeClusterFactory(t testing.TB, versions ...string) *Factory {
	t.Helper()
	fake, err := clustertest.New(versions...)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := os.ReadFile(filepath.Join(AppDir, "testdata/live/cluster.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fake.Load(string(docs)); err != nil {
		t.Fatal(err)
	}
	return &Factory{Fake: fake}
}

// Build is a fixed build.
func (f *Factory) Build() cmdutil.BuildInfo {
	return cmdutil.BuildInfo{Version: "v0.0.0-test", GitCommit: "0123456789abcdef0123456789abcdef01234567", GoVersion: "go1.x", Platform: "linux/amd64"}
}

// Cluster is the fake cluster, in the namespace of -n if given, or the
// cluster of the flags when there is no fake one.
func (f *Factory) Cluster(flags *cluster.Flags) (*cluster.Cluster, error) {
	if f.Fake == nil {
		return flags.Connect()
	}
	c := *f.Fake.Cluster
	if ns := flags.Config.Namespace; ns != nil && *ns != "" {
		c.Namespace = *ns
	}
	return &c, nil
}

// Run runs drakit with args over f, with stdin as standard input, and
// returns its exit code and what it wrote.
func Run(f cmdutil.Factory, args []string, stdin []byte) (code int, stdout, stderr string) {
	return RunAs(f, "drakit", args, stdin)
}

// RunAs is Run for a drakit called name ("kubectl dra").
func RunAs(f cmdutil.Factory, name string, args []string, stdin []byte) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = app.Execute(f, name, args, genericiooptions.IOStreams{In: bytes.NewReader(stdin), Out: &out, ErrOut: &errOut})
	return code, out.String(), errOut.String()
}

// Case is a command line whose whole output a golden file holds.
type Case struct {
	// Name names the golden file: testdata/golden/<Name>.golden.
	Name string
	// Args are drakit's arguments.
	Args []string
	// Stdin is a file whose content is standard input.
	Stdin string
}

// GoldenFile is the golden file of a case.
func GoldenFile(name string) string {
	return filepath.Join(AppDir, "testdata", "golden", name+".golden")
}

// Golden runs each case over f as a subtest and compares what it did with
// its golden file, or with -update writes the file.
func Golden(t *testing.T, f cmdutil.Factory, cases []Case) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got := Render(t, f, c)
			path := GoldenFile(c.Name)
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
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (run with -update after a deliberate change):\n%s", path, lineDiff(string(want), got))
			}
		})
	}
}

// Render runs a case over f and renders what it did, as its golden file
// holds it.
func Render(t testing.TB, f cmdutil.Factory, c Case) string {
	t.Helper()
	var stdin []byte
	if c.Stdin != "" {
		var err error
		if stdin, err = os.ReadFile(c.Stdin); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := Run(f, c.Args, stdin)
	var b strings.Builder
	fmt.Fprintf(&b, "$ drakit %s", strings.Join(c.Args, " "))
	if c.Stdin != "" {
		fmt.Fprintf(&b, " < %s", c.Stdin)
	}
	fmt.Fprintf(&b, "\n# exit code %d\n# stdout:\n%s", code, stdout)
	if stdout != "" && !strings.HasSuffix(stdout, "\n") {
		b.WriteString("\n# (no newline at end)\n")
	}
	fmt.Fprintf(&b, "# stderr:\n%s", stderr)
	return b.String()
}

// SameOnEveryRelease runs the cases against fake clusters that serve the
// resource.k8s.io versions of 1.31-1.33 (v1alpha3) and of 1.32-1.33
// (v1beta1, v1beta2, with v1alpha3's DeviceTaintRule), and checks that
// each answers as the golden file of the 1.37 cluster (v1) says: what the
// versions cannot say travels in drakit's stash, so the version that a
// line names is the only difference.
func SameOnEveryRelease(t *testing.T, cases []Case) {
	t.Helper()
	for _, version := range []string{"v1alpha3", "v1beta1", "v1beta2"} {
		t.Run(version, func(t *testing.T) {
			f := NewFakeClusterFactory(t, version, "v1alpha3")
			for _, c := range cases {
				want, err := os.ReadFile(GoldenFile(c.Name))
				if err != nil {
					t.Fatal(err)
				}
				got := strings.ReplaceAll(Render(t, f, c), "resource.k8s.io/"+version+")", "resource.k8s.io/v1)")
				if got != string(want) {
					t.Errorf("%s: differs from the v1 answer:\n--- v1\n%s\n--- %s\n%s", c.Name, want, version, got)
				}
			}
		})
	}
}

// lineDiff shows the first lines that differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want: %s\n   got: %s\n", i+1, wl, gl)
			if shown++; shown == 10 {
				break
			}
		}
	}
	return b.String()
}
