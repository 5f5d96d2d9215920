// Package completion is "drakit completion": the shell completion
// scripts.
package completion

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

var (
	completionLong = `Print the completion script of drakit for a shell. Completion covers
commands, flags, versions for --output-version and friends, and the kinds
and fields of drakit explain.`

	completionExample = `  # bash, for this shell
  source <(drakit completion bash)

  # bash, for every shell (needs the bash-completion package)
  drakit completion bash > /etc/bash_completion.d/drakit

  # zsh
  drakit completion zsh > "${fpath[1]}/_drakit"

  # fish
  drakit completion fish > ~/.config/fish/completions/drakit.fish

  # PowerShell
  drakit completion powershell | Out-String | Invoke-Expression`
)

// shells are the shells completion knows.
var shells = []string{"bash", "zsh", "fish", "powershell"}

// Options are the options of "drakit completion".
type Options struct {
	// Shell is the argument: bash, zsh, fish or powershell.
	Shell string

	root *cobra.Command

	genericiooptions.IOStreams
}

// NewOptions are the options with their defaults.
func NewOptions(streams genericiooptions.IOStreams) *Options {
	return &Options{IOStreams: streams}
}

// NewCmdCompletion is "drakit completion".
func NewCmdCompletion(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewOptions(streams)
	cmd := &cobra.Command{
		Use:       "completion bash|zsh|fish|powershell",
		Short:     "Print a shell completion script",
		Long:      completionLong,
		Example:   completionExample,
		ValidArgs: shells,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cmdutil.UsageErrorf("completion takes one argument: bash, zsh, fish or powershell")
			}
			return cobra.OnlyValidArgs(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Complete(f, cmd, args); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run()
		},
	}
	return cmd
}

// Complete takes the shell and the command tree to complete.
func (o *Options) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	o.Shell, o.root = args[0], cmd.Root()
	return nil
}

// Validate has nothing to check: cobra checked the shell.
func (o *Options) Validate() error { return nil }

// Run prints the script.
func (o *Options) Run() error {
	switch o.Shell {
	case "bash":
		return o.root.GenBashCompletionV2(o.Out, true)
	case "zsh":
		return o.root.GenZshCompletion(o.Out)
	case "fish":
		return o.root.GenFishCompletion(o.Out, true)
	}
	return o.root.GenPowerShellCompletionWithDesc(o.Out)
}
