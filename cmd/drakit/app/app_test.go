package app_test

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/app"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

func TestMain(m *testing.M) { cmdtesting.Main(m) }

// factory is a fixed build, without a cluster.
var factory = cmdtesting.NewFactory()

// The root's own cases; each command's are in its package.
func TestGolden(t *testing.T) {
	cmdtesting.Golden(t, factory, []cmdtesting.Case{
		{Name: "help", Args: []string{}},
		{Name: "usage-unknown-command", Args: []string{"convrt"}},
	})
}

// TestEveryCommandHasHelpWithExamples keeps --help useful.
func TestEveryCommandHasHelpWithExamples(t *testing.T) {
	root := app.NewDrakitCommand(factory, genericiooptions.IOStreams{})
	for _, cmd := range root.Commands() {
		if cmd.Name() == "help" {
			continue
		}
		if cmd.Example == "" || cmd.Short == "" {
			t.Errorf("%s has no examples or no short description", cmd.Name())
		}
		code, stdout, _ := cmdtesting.Run(factory, []string{cmd.Name(), "--help"}, nil)
		if code != 0 || !strings.Contains(stdout, "Examples:") {
			t.Errorf("%s --help: exit %d", cmd.Name(), code)
		}
	}
}

// TestPluginName: installed as kubectl-dra, drakit names itself as kubectl
// users call it, in help, examples and errors.
func TestPluginName(t *testing.T) {
	code, stdout, _ := cmdtesting.RunAs(factory, "kubectl dra", []string{"describe", "pod", "--help"}, nil)
	if code != 0 || !strings.Contains(stdout, "  kubectl dra describe pod NAME [flags]") || !strings.Contains(stdout, "  kubectl dra describe pod inference -n serving") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
	code, _, stderr := cmdtesting.RunAs(factory, "kubectl dra", []string{"get"}, nil)
	if code != cmdutil.ExitUsage || !strings.Contains(stderr, "See 'kubectl dra get --help' for usage.") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
