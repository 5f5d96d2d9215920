package app

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

func TestEveryCommandHasHelpWithExamples(t *testing.T) {
	root := NewDrakitCommand(tf, genericiooptions.IOStreams{})
	for _, cmd := range root.Commands() {
		if cmd.Name() == "help" {
			continue
		}
		if cmd.Example == "" || cmd.Short == "" {
			t.Errorf("%s has no examples or no short description", cmd.Name())
		}
		code, stdout, _ := runDrakit([]string{cmd.Name(), "--help"}, nil)
		if code != 0 || !strings.Contains(stdout, "Examples:") {
			t.Errorf("%s --help: exit %d", cmd.Name(), code)
		}
	}
}
