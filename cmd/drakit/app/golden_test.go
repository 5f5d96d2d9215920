package app

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster/clustertest"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

// The golden tests run drakit commands in-process, from the repository
// root so that paths read as in the README, and compare exit code, standard
// output and standard error with testdata/golden/<name>.golden. After a
// deliberate change of output:
//
//	go test ./cmd/drakit/app -run TestGolden -update

var update = flag.Bool("update", false, "rewrite the golden files with the current output")

// repoRoot is where the golden commands run.
var repoRoot string

// appDir is this package's directory, relative to repoRoot.
const appDir = "cmd/drakit/app"

func TestMain(m *testing.M) {
	flag.Parse()
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	repoRoot = filepath.Clean(filepath.Join(wd, "../../.."))
	if err := os.Chdir(repoRoot); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

type goldenCase struct {
	name  string
	args  []string
	stdin string // a file whose content is standard input
}

func inputFile(name string) string { return appDir + "/testdata/input/" + name }

var goldenCases = []goldenCase{
	// Usage errors: exit 2.
	{name: "usage-unknown-command", args: []string{"convrt"}},
	// validate
	// allocate

	// the rest
	{name: "help", args: []string{}},
}

func TestGolden(t *testing.T) { testGoldenCases(t, goldenCases) }

// testGoldenCases runs each case as a subtest and compares what it did with
// its golden file, or with -update writes the file. Every golden test
// (TestGolden*) uses it, so that -run TestGolden -update rewrites them all
// alike.
func testGoldenCases(t *testing.T, cases []goldenCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := runGolden(t, c)
			path := filepath.Join(appDir, "testdata", "golden", c.name+".golden")
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

// runGolden runs a case and renders what it did.
func runGolden(t *testing.T, c goldenCase) string {
	t.Helper()
	var stdin []byte
	if c.stdin != "" {
		var err error
		if stdin, err = os.ReadFile(c.stdin); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runDrakit(c.args, stdin)
	var b strings.Builder
	fmt.Fprintf(&b, "$ drakit %s", strings.Join(c.args, " "))
	if c.stdin != "" {
		fmt.Fprintf(&b, " < %s", c.stdin)
	}
	fmt.Fprintf(&b, "\n# exit code %d\n# stdout:\n%s", code, stdout)
	if stdout != "" && !strings.HasSuffix(stdout, "\n") {
		b.WriteString("\n# (no newline at end)\n")
	}
	fmt.Fprintf(&b, "# stderr:\n%s", stderr)
	return b.String()
}

func runDrakit(args []string, stdin []byte) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Execute(tf, "drakit", args, genericiooptions.IOStreams{In: bytes.NewReader(stdin), Out: &out, ErrOut: &errOut})
	return code, out.String(), errOut.String()
}

// testFactory is the Factory of the tests: a build whose output does not
// depend on the toolchain that runs the tests, and the fake cluster of
// withFakeCluster (else the cluster of the flags).
type testFactory struct{ fake *clustertest.Fake }

var tf = &testFactory{}

func (f *testFactory) Build() cmdutil.BuildInfo {
	return cmdutil.BuildInfo{Version: "v0.0.0-test", GitCommit: "0123456789abcdef0123456789abcdef01234567", GoVersion: "go1.x", Platform: "linux/amd64"}
}

func (f *testFactory) Cluster(flags *cluster.Flags) (*cluster.Cluster, error) {
	if f.fake == nil {
		return flags.Connect()
	}
	c := *f.fake.Cluster
	if ns := flags.Config.Namespace; ns != nil && *ns != "" {
		c.Namespace = *ns
	}
	return &c, nil
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
