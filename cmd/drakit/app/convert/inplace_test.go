package convert

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/conversion"
)

// failingRename is os.Rename, except that call number n (from 0) fails.
func failingRename(n int) func(oldpath, newpath string) error {
	calls := 0
	return func(from, to string) error {
		calls++
		if calls-1 == n {
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: errors.New("injected failure")}
		}
		return os.Rename(from, to)
	}
}

// convertInPlace runs convert --in-place over dir to version, with rename
// putting the files in place (nil for os.Rename), and returns the exit
// code drakit would give and what it wrote to standard error.
func convertInPlace(dir, version string, rename func(oldpath, newpath string) error) (code int, stderr string) {
	streams, _, _, errOut := genericiooptions.NewTestIOStreams()
	o := NewOptions(streams)
	o.Filenames, o.OutputVersion, o.InPlace = []string{dir}, version, true
	if rename != nil {
		o.rename = rename
	}
	err := o.Complete(nil, NewCmdConvert(nil, streams), nil)
	if err == nil {
		err = o.Validate()
	}
	if err == nil {
		err = o.Run()
	}
	switch {
	case err == nil:
		return cmdutil.ExitOK, errOut.String()
	case errors.Is(err, cmdutil.ErrFailed):
		return cmdutil.ExitFailure, errOut.String()
	case cmdutil.IsUsageError(err):
		return cmdutil.ExitUsage, errOut.String() + "error: " + err.Error() + "\n"
	}
	return cmdutil.ExitFailure, errOut.String() + "error: " + err.Error() + "\n"
}

// packageDir is the package's directory, where the tests start (TestMain
// then moves to the repository's root).
var packageDir, _ = os.Getwd()

// inPlaceFiles writes the files into a new directory.
func inPlaceFiles(t testing.TB, files map[string][]byte) string {
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readFiles(t testing.TB, dir string) map[string][]byte {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = data
	}
	return out
}

func sameFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for name, data := range a {
		if other, ok := b[name]; !ok || !bytes.Equal(data, other) {
			return false
		}
	}
	return true
}

// checkInPlace runs convert --in-place over files, with the rename number
// failAt failing (none if failAt < 0), and checks that it rewrote every
// file as a run without the failure does, or left every file as it was,
// with no file of its own left behind.
func checkInPlace(t *testing.T, files map[string][]byte, version string, failAt int) (code int, stderr string) {
	refDir := inPlaceFiles(t, files)
	refCode, _ := convertInPlace(refDir, version, nil)
	want := readFiles(t, refDir)

	dir := inPlaceFiles(t, files)
	var rename func(oldpath, newpath string) error
	if failAt >= 0 {
		rename = failingRename(failAt)
	}
	code, stderr = convertInPlace(dir, version, rename)
	got := readFiles(t, dir)
	switch {
	case code == 0 && refCode != 0:
		t.Fatalf("succeeded with a failing rename where the plain run failed:\n%s", stderr)
	case code == 0 && !sameFiles(got, want):
		t.Fatalf("succeeded, but the files differ from those of a plain run")
	case code != 0 && !sameFiles(got, files):
		t.Fatalf("exit %d, and the files are not as they were (names %v):\n%s", code, keys(got), stderr)
	}
	return code, stderr
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestInPlaceIsAllOrNothingAcrossFiles(t *testing.T) {
	files := map[string][]byte{}
	for _, name := range []string{"resourceclasses.yaml", "resourceclaims.yaml", "resourceclaimtemplates.yaml"} {
		data, err := os.ReadFile(filepath.Join("examples/v1alpha1", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = data
	}
	// The second and third file cannot be replaced: the first must get
	// its old content back.
	for _, failAt := range []int{0, 1, 2} {
		code, stderr := checkInPlace(t, files, "resource.k8s.io/v1alpha3", failAt)
		if code != 1 || !strings.Contains(stderr, "cannot replace the file: rename") || !strings.Contains(stderr, "injected failure") || !strings.HasSuffix(stderr, "error: no file was changed\n") {
			t.Errorf("rename %d failing: exit %d, stderr:\n%s", failAt, code, stderr)
		}
	}
	if code, stderr := checkInPlace(t, files, "resource.k8s.io/v1alpha3", -1); code != 0 {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// FuzzConvertInPlace rewrites two fuzzed files and one example file in
// place, with one of the renames that put the new files in place failing
// (or none). Either every file is rewritten exactly as a run without the
// failure rewrites it, or every file is left byte for byte as it was, and
// no temporary file is left behind.
//
//	go test ./cmd/drakit/app/convert -run '^$' -fuzz '^FuzzConvertInPlace$' -fuzztime 1m
func FuzzConvertInPlace(f *testing.F) {
	// TestMain runs the tests in the repository's root; the seed corpus
	// is in the package's directory.
	example, err := os.ReadFile("examples/v1alpha1/resourceclaims.yaml")
	if err != nil {
		f.Fatal(err)
	}
	class, err := os.ReadFile("examples/v1alpha1/resourceclasses.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Chdir(packageDir)
	f.Add(class, []byte(`{"apiVersion":"resource.k8s.io/v1alpha2","kind":"ResourceClass","metadata":{"name":"x"},"driverName":"d"}`), uint8(2), uint8(1))
	f.Add([]byte("# only a comment\n"), []byte("apiVersion: v1\nkind: ConfigMap\n"), uint8(2), uint8(0))
	f.Add([]byte("kind: ResourceClaim\n"), class, uint8(2), uint8(3))
	f.Fuzz(func(t *testing.T, a, b []byte, target, failAt uint8) {
		files := map[string][]byte{"a.yaml": a, "b.json": b, "c.yaml": example}
		version := conversion.Versions[int(target)%len(conversion.Versions)].String()
		fail := int(failAt%4) - 1 // -1: no failure; else one of up to three renames
		checkInPlace(t, files, version, fail)
	})
}
