package convert_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
)

func TestMain(m *testing.M) { cmdtesting.Main(m) }

// factory is a fixed build, without a cluster.
var factory = cmdtesting.NewFactory()

var goldenCases = []cmdtesting.Case{
	// The README's first command (v1alpha1 to v1, skipping), and the other
	// directions.
	{Name: "convert-v1alpha1-to-v1alpha3", Args: []string{"convert", "-f", "examples/v1alpha1", "-R", "--output-version", "resource.k8s.io/v1alpha3"}},
	{Name: "convert-v1alpha1-to-v1-skip", Args: []string{"convert", "-f", "examples/v1alpha1", "-R", "--output-version", "resource.k8s.io/v1", "--skip-kinds-not-in-target"}},
	{Name: "convert-v1-to-v1alpha3", Args: []string{"convert", "-f", "examples/v1", "--output-version", "resource.k8s.io/v1alpha3"}},
	{Name: "convert-v1alpha2-to-v1alpha3", Args: []string{"convert", "-f", "examples/v1alpha2", "--output-version", "resource.k8s.io/v1alpha3"}},
	{Name: "convert-v1alpha3-to-v1alpha2", Args: []string{"convert", "-f", "examples/v1alpha3", "--output-version", "resource.k8s.io/v1alpha2"}},
	{Name: "convert-v1alpha3-to-v1alpha1-slices", Args: []string{"convert", "-f", "examples/v1alpha3", "--output-version", "resource.k8s.io/v1alpha1"}},
	{Name: "convert-json", Args: []string{"convert", "-f", "examples/v1alpha1/resourceclasses.yaml", "--output-version", "resource.k8s.io/v1alpha2", "-o", "json"}},
	{Name: "convert-stdin", Args: []string{"convert", "-f", "-", "--output-version", "resource.k8s.io/v1alpha1"}, Stdin: "examples/v1alpha3/deviceclasses.yaml"},
	{Name: "convert-defaults", Args: []string{"convert", "-f", "examples/v1alpha3/resourceclaimtemplates.yaml", "--output-version", "resource.k8s.io/v1alpha3", "--defaults"}},
	{Name: "convert-lists", Args: []string{"convert", "-f", cmdtesting.InputFile("lists.yaml"), "--output-version", "resource.k8s.io/v1alpha3"}},
	{Name: "convert-not-strict", Args: []string{"convert", "-f", cmdtesting.InputFile("unknown-field.yaml"), "--output-version", "resource.k8s.io/v1alpha1", "--strict=false"}},
	// The goldens of the migration recipe (docs/migration.md): a real
	// export of a 1.30 cluster's claims brought to v1 for kubectl create,
	// and the same export made creatable again at its own version (what
	// the recipe does to the kinds v1 has no place for).
	{Name: "convert-export-for-create", Args: []string{"convert", "-f", cmdtesting.InputFile("export-1.30-claims.yaml"), "--output-version", "resource.k8s.io/v1", "--for-create"}},
	{Name: "convert-export-same-version-for-create", Args: []string{"convert", "-f", cmdtesting.InputFile("export-1.30-claims.yaml"), "--output-version", "resource.k8s.io/v1alpha2", "--for-create"}},
	// Bad input: one line each, exit 1, nothing on stdout.
	{Name: "bad-malformed-yaml", Args: []string{"convert", "-f", cmdtesting.InputFile("malformed.yaml"), "--output-version", "resource.k8s.io/v1alpha1"}},
	{Name: "bad-malformed-json", Args: []string{"convert", "-f", cmdtesting.InputFile("malformed.json"), "--output-version", "resource.k8s.io/v1alpha1"}},
	{Name: "bad-unknown-version", Args: []string{"convert", "-f", cmdtesting.InputFile("unknown-version.yaml"), "--output-version", "resource.k8s.io/v1alpha1"}},
	{Name: "bad-unknown-kind", Args: []string{"convert", "-f", cmdtesting.InputFile("unknown-kind.yaml"), "--output-version", "resource.k8s.io/v1alpha1"}},
	{Name: "bad-unknown-field", Args: []string{"convert", "-f", cmdtesting.InputFile("unknown-field.yaml"), "--output-version", "resource.k8s.io/v1alpha1"}},
	{Name: "bad-duplicate-field", Args: []string{"convert", "-f", cmdtesting.InputFile("duplicate-field.yaml"), "--output-version", "resource.k8s.io/v1alpha3"}},
	{Name: "bad-wrong-type", Args: []string{"convert", "-f", cmdtesting.InputFile("wrong-type.yaml"), "--output-version", "resource.k8s.io/v1alpha2"}},
	{Name: "bad-alias-bomb", Args: []string{"convert", "-f", cmdtesting.InputFile("alias-bomb.yaml"), "--output-version", "resource.k8s.io/v1alpha3"}},
	{Name: "bad-binary", Args: []string{"convert", "-f", cmdtesting.InputFile("binary.yaml"), "--output-version", "resource.k8s.io/v1alpha3"}},
	{Name: "bad-no-kind", Args: []string{"convert", "-f", cmdtesting.InputFile("no-kind.yaml"), "--output-version", "resource.k8s.io/v1alpha3"}},
	{Name: "bad-missing-file", Args: []string{"convert", "-f", cmdtesting.InputFile("no-such-file.yaml"), "--output-version", "resource.k8s.io/v1alpha3"}},
	{Name: "bad-huge-exponent", Args: []string{"convert", "-f", cmdtesting.InputFile("huge-exponent.yaml"), "--output-version", "resource.k8s.io/v1alpha3"}},
	{Name: "bad-mixed", Args: []string{"convert", "-f", cmdtesting.InputFile("mixed.yaml"), "--output-version", "resource.k8s.io/v1alpha3"}},
	// Usage errors: exit 2.
	{Name: "usage-no-output-version", Args: []string{"convert", "-f", "examples/v1alpha1"}},
	{Name: "usage-bad-output-version", Args: []string{"convert", "-f", "examples/v1alpha1", "--output-version", "resource.k8s.io/v2"}},
	{Name: "usage-skip-in-place", Args: []string{"convert", "-f", "examples/v1alpha1", "--output-version", "resource.k8s.io/v1", "--skip-kinds-not-in-target", "--in-place"}},
	{Name: "usage-version-without-group", Args: []string{"convert", "-f", "examples/v1alpha1", "--output-version", "v1alpha3"}},
	{Name: "usage-bad-output", Args: []string{"convert", "-f", "examples/v1alpha1", "--output-version", "resource.k8s.io/v1alpha3", "-o", "xml"}},
	{Name: "usage-no-input", Args: []string{"convert", "--output-version", "resource.k8s.io/v1alpha3"}},
	{Name: "usage-in-place-stdin", Args: []string{"convert", "-f", "-", "--output-version", "resource.k8s.io/v1alpha3", "--in-place"}},
	{Name: "usage-unknown-flag", Args: []string{"convert", "--output-verison", "resource.k8s.io/v1alpha3"}},
	{Name: "help-convert", Args: []string{"convert", "--help"}},
}

func TestGolden(t *testing.T) { cmdtesting.Golden(t, factory, goldenCases) }

// copyExamples copies the example files of a version into a new
// directory.
func copyExamples(t *testing.T, version string) string {
	t.Helper()
	dir := t.TempDir()
	files, _ := filepath.Glob(filepath.Join("examples", version, "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type fileState struct {
	data  []byte
	mode  os.FileMode
	mtime time.Time
}

func snapshot(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		info, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		out[e.Name()] = fileState{data: data, mode: info.Mode(), mtime: info.ModTime()}
	}
	return out
}

func TestInPlaceRewritesFilesAtomically(t *testing.T) {
	dir := copyExamples(t, "v1alpha1")
	claims := filepath.Join(dir, "resourceclaims.yaml")
	if err := os.Chmod(claims, 0o640); err != nil {
		t.Fatal(err)
	}
	// A file already at the target version is left alone, mtime and all.
	v3 := filepath.Join(dir, "already-v1alpha3.yaml")
	v3data, _ := os.ReadFile("examples/v1alpha3/resourceclaims.yaml")
	os.WriteFile(v3, v3data, 0o644)
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(v3, old, old)
	// A JSON file stays JSON.
	js := filepath.Join(dir, "class.json")
	os.WriteFile(js, []byte(`{"apiVersion":"resource.k8s.io/v1alpha1","kind":"ResourceClass","metadata":{"name":"x"},"driverName":"gpu.example.com"}`), 0o600)

	// What convert prints for the claims, to compare with the rewrite.
	code, want, stderr := cmdtesting.Run(factory, []string{"convert", "-f", claims, "--output-version", "resource.k8s.io/v1alpha3"}, nil)
	if code != 0 {
		t.Fatalf("convert: %d %s", code, stderr)
	}

	code, stdout, stderr := cmdtesting.Run(factory, []string{"convert", "-f", dir, "--output-version", "resource.k8s.io/v1alpha3", "--in-place"}, nil)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "already-v1alpha3.yaml: unchanged\n") || !strings.Contains(stdout, "resourceclaims.yaml: rewritten (3 converted, 1 of other groups)\n") {
		t.Errorf("unexpected report:\n%s", stdout)
	}
	after := snapshot(t, dir)
	if got := string(after["resourceclaims.yaml"].data); got != want {
		t.Errorf("the rewritten file differs from convert's output:\n%s", got)
	}
	if m := after["resourceclaims.yaml"].mode.Perm(); m != 0o640 {
		t.Errorf("mode %v, want 0640", m)
	}
	if !after["already-v1alpha3.yaml"].mtime.Equal(old) {
		t.Errorf("an unchanged file was rewritten")
	}
	var obj map[string]any
	if err := json.Unmarshal(after["class.json"].data, &obj); err != nil || obj["kind"] != "DeviceClass" {
		t.Errorf("the JSON file is not a converted JSON document: %v\n%s", err, after["class.json"].data)
	}
	if m := after["class.json"].mode.Perm(); m != 0o600 {
		t.Errorf("mode %v, want 0600", m)
	}
	for name := range after {
		if strings.Contains(name, ".drakit-") {
			t.Errorf("temporary file %s left behind", name)
		}
	}
}

func TestInPlaceChangesNothingOnAnyError(t *testing.T) {
	dir := copyExamples(t, "v1alpha3")
	// Slices cannot go to v1alpha1, and one claim has a typo: several
	// files would convert, but none may change.
	bad, _ := os.ReadFile(cmdtesting.InputFile("unknown-field.yaml"))
	os.WriteFile(filepath.Join(dir, "zz-typo.yaml"), bad, 0o644)
	before := snapshot(t, dir)
	code, stdout, stderr := cmdtesting.Run(factory, []string{"convert", "-f", dir, "--output-version", "resource.k8s.io/v1alpha1", "--in-place"}, nil)
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	if stdout != "" {
		t.Errorf("stdout: %s", stdout)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[5], "error: no file was changed (5 problems)") {
		t.Errorf("want 4 slice errors, 1 typo and the summary:\n%s", stderr)
	}
	after := snapshot(t, dir)
	if len(after) != len(before) {
		t.Errorf("files were added or removed: %d before, %d after", len(before), len(after))
	}
	for name, b := range before {
		a := after[name]
		if !bytes.Equal(a.data, b.data) || a.mode != b.mode || !a.mtime.Equal(b.mtime) {
			t.Errorf("%s changed", name)
		}
	}
}

func TestInPlaceFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.yaml")
	data, _ := os.ReadFile("examples/v1alpha1/resourceclasses.yaml")
	os.WriteFile(target, data, 0o644)
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink("real.yaml", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	code, _, stderr := cmdtesting.Run(factory, []string{"convert", "-f", link, "--output-version", "resource.k8s.io/v1alpha3", "--in-place"}, nil)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	got, _ := os.ReadFile(target)
	if !strings.Contains(string(got), "kind: DeviceClass") {
		t.Errorf("the link's target was not converted:\n%s", got)
	}
}

func TestOversizeDocumentIsOneErrorAndTheRestIsRead(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: huge\ndata:\n")
	for i := 0; b.Len() <= 3<<20; i++ {
		b.WriteString("  key" + strings.Repeat("x", 10) + string(rune('a'+i%26)) + strings.Repeat("0", 6) + ": " + strings.Repeat("v", 1000) + "\n")
	}
	b.WriteString("---\napiVersion: resource.k8s.io/v1alpha3\nkind: DeviceClass\nmetadata:\n  name: fine\nspec: {}\n---\napiVersion: resource.k8s.io/v1alpha1\nkind: ResourceClaim\nmetadata:\n  name: typo\nspec:\n  resourceClassNam: x\n")
	path := filepath.Join(dir, "big.yaml")
	os.WriteFile(path, []byte(b.String()), 0o644)
	typoLine := strings.Count(b.String()[:strings.Index(b.String(), "resourceClassNam")], "\n") + 1
	code, stdout, stderr := cmdtesting.Run(factory, []string{"convert", "-f", path, "--output-version", "resource.k8s.io/v1alpha3"}, nil)
	want := "error: " + path + ":1: document 1: document is larger than 3 MiB, the API server's request limit; split it into smaller documents\n" +
		fmt.Sprintf("error: %s:%d: document 3: ResourceClaim typo: spec.resourceClassNam: unknown field \"resourceClassNam\"\n", path, typoLine)
	if code != 1 || stdout != "" || stderr != want {
		t.Errorf("exit %d\nstdout: %q\nstderr:\n%s\nwant:\n%s", code, stdout, stderr, want)
	}
}

// TestStdinAndFileGiveTheSameOutput: "-" reads standard input like a file.
func TestStdinAndFileGiveTheSameOutput(t *testing.T) {
	for _, f := range []string{"examples/v1alpha2/resourceclaims.yaml", cmdtesting.InputFile("lists.yaml")} {
		data, _ := os.ReadFile(f)
		_, fromFile, _ := cmdtesting.Run(factory, []string{"convert", "-f", f, "--output-version", "resource.k8s.io/v1alpha3"}, nil)
		_, fromStdin, _ := cmdtesting.Run(factory, []string{"convert", "-f", "-", "--output-version", "resource.k8s.io/v1alpha3"}, data)
		if fromFile != fromStdin || fromFile == "" {
			t.Errorf("%s: stdin and file differ", f)
		}
	}
}

// TestSameVersionIsIdentity: converting the examples to their own version
// gives every file back byte for byte.
func TestSameVersionIsIdentity(t *testing.T) {
	for _, version := range []string{"v1alpha1", "v1alpha2", "v1alpha3"} {
		files, _ := filepath.Glob(filepath.Join("examples", version, "*.yaml"))
		for _, f := range files {
			data, _ := os.ReadFile(f)
			code, stdout, stderr := cmdtesting.Run(factory, []string{"convert", "-f", f, "--output-version", "resource.k8s.io/" + version}, nil)
			if code != 0 || stdout != string(data) {
				t.Errorf("%s: exit %d, %s\noutput differs from the file", f, code, stderr)
			}
		}
	}
}
