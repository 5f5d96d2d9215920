package inputs_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
)

func TestMain(m *testing.M) { cmdtesting.Main(m) }

// factory is a fixed build, without a cluster.
var factory = cmdtesting.NewFactory()

func TestUnreadableFile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("uses /proc")
	}
	// /proc/self/mem opens but fails on the first read, like a bad disk.
	code, stdout, stderr := cmdtesting.Run(factory, []string{"convert", "-f", "/proc/self/mem", "-f", "examples/v1alpha1/resourceclasses.yaml", "--output-version", "resource.k8s.io/v1alpha3"}, nil)
	if code != 1 || stdout != "" || stderr != "error: /proc/self/mem: cannot read: read /proc/self/mem: input/output error\n" {
		t.Errorf("exit %d\nstdout: %q\nstderr: %q", code, stdout, stderr)
	}
	if os.Getuid() != 0 {
		dir := t.TempDir()
		path := filepath.Join(dir, "secret.yaml")
		os.WriteFile(path, []byte("kind: A\n"), 0o000)
		code, _, stderr = cmdtesting.Run(factory, []string{"validate", "-f", path}, nil)
		if code != 1 || stderr != "error: "+path+": permission denied\n" {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	}
}

func TestDirectories(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a manifest"), 0o644)
	claim, _ := os.ReadFile("examples/v1alpha3/resourceclaimtemplates.yaml")
	os.WriteFile(filepath.Join(dir, "sub", "t.yml"), claim, 0o644)

	code, _, stderr := cmdtesting.Run(factory, []string{"validate", "-f", dir}, nil)
	if code != 1 || stderr != "error: "+dir+": directory holds no .yaml, .yml or .json files (use -R to look into its subdirectories)\n" {
		t.Errorf("without -R: exit %d, stderr %q", code, stderr)
	}
	code, stdout, stderr := cmdtesting.Run(factory, []string{"validate", "-f", dir, "-R"}, nil)
	if code != 0 || stdout != "Summary: 1 object, 1 valid, 0 invalid\n" {
		t.Errorf("with -R: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
