package completion_test

import (
	"strings"
	"testing"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
)

func TestMain(m *testing.M) { cmdtesting.Main(m) }

func TestCompletion(t *testing.T) {
	f := cmdtesting.NewFactory()
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		code, stdout, stderr := cmdtesting.Run(f, []string{"completion", shell}, nil)
		if code != 0 || stderr != "" || !strings.Contains(stdout, "drakit") {
			t.Errorf("%s: exit %d, stderr %q", shell, code, stderr)
		}
	}
	// Dynamic completion: versions, kinds and fields.
	code, stdout, _ := cmdtesting.Run(f, []string{"__complete", "convert", "--output-version", ""}, nil)
	if code != 0 || !strings.Contains(stdout, "resource.k8s.io/v1alpha2\n") {
		t.Errorf("version completion: %q", stdout)
	}
	code, stdout, _ = cmdtesting.Run(f, []string{"__complete", "explain", "resourceclaim.spec.dev"}, nil)
	if code != 0 || !strings.Contains(stdout, "resourceclaim.spec.devices\n") {
		t.Errorf("field completion: %q", stdout)
	}
	code, stdout, _ = cmdtesting.Run(f, []string{"__complete", "explain", "--api-version", "resource.k8s.io/v1alpha1", ""}, nil)
	if code != 0 || !strings.Contains(stdout, "podscheduling\n") || strings.Contains(stdout, "deviceclass") {
		t.Errorf("kind completion: %q", stdout)
	}
	code, _, stderr := cmdtesting.Run(f, []string{"completion", "tcsh"}, nil)
	if code != 2 || !strings.Contains(stderr, `invalid argument "tcsh"`) {
		t.Errorf("unknown shell: exit %d, %q", code, stderr)
	}
}
