package app

import (
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

// PluginName is the name drakit has as a kubectl plugin: installed as
// kubectl-dra on PATH, it runs as "kubectl dra ...".
const PluginName = "kubectl-dra"

// displayName is how drakit was called, for help and errors: "drakit",
// or "kubectl dra" when run as a kubectl plugin (kubectl runs plugins
// with the plugin's file as argv[0]; an underscore in the file name is a
// dash in the command, as kubectl maps them).
func displayName(argv0 string) string {
	base := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	if rest, ok := strings.CutPrefix(base, "kubectl-"); ok && rest != "" {
		return "kubectl " + strings.ReplaceAll(rest, "_", "-")
	}
	return "drakit"
}

// asPlugin makes root's help, examples and errors name the command as
// kubectl users call it.
func asPlugin(root *cobra.Command, name string) {
	if name == "drakit" {
		return
	}
	if root.Annotations == nil {
		root.Annotations = map[string]string{}
	}
	root.Annotations[cobra.CommandDisplayNameAnnotation] = name
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Example = strings.ReplaceAll(c.Example, "  drakit ", "  "+name+" ")
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
