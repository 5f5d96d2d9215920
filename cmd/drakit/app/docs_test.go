package app_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/app"
)

// TestDocsNameEveryCommand: the CLI's row of docs/architecture.md's layout
// and the CLI's entry in the README name every command drakit has, so that
// a new command cannot be left out of them.
func TestDocsNameEveryCommand(t *testing.T) {
	// cmdtesting.Main runs the tests in the module's root.
	root := "."
	sections := map[string]string{}
	arch, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(arch), "\n") {
		if strings.HasPrefix(line, "| `cmd/drakit` |") {
			sections["docs/architecture.md's row of cmd/drakit"] = line
		}
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	if start := strings.Index(text, "- The **`drakit` CLI**"); start >= 0 {
		entry := text[start:]
		if end := strings.Index(entry[1:], "\n- "); end >= 0 {
			entry = entry[:end+1]
		}
		sections["README.md's entry of the drakit CLI"] = entry
	}
	if len(sections) != 2 {
		t.Fatalf("found %d of the two places that list the commands; update the test with the docs", len(sections))
	}
	cmd := app.NewDrakitCommand(factory, genericiooptions.IOStreams{})
	for _, c := range cmd.Commands() {
		if c.Name() == "help" {
			continue
		}
		for where, section := range sections {
			if !strings.Contains(section, "`"+c.Name()+"`") {
				t.Errorf("%s does not name the command %s", where, c.Name())
			}
		}
	}
}
