package app

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

func newCompletionCommand(f cmdutil.Factory, s genericiooptions.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print a shell completion script",
		Long: `Print the completion script of drakit for a shell. Completion covers
commands, flags, versions for --output-version and friends, and the kinds
and fields of drakit explain.`,
		Example: `  # bash, for this shell
  source <(drakit completion bash)

  # bash, for every shell (needs the bash-completion package)
  drakit completion bash > /etc/bash_completion.d/drakit

  # zsh
  drakit completion zsh > "${fpath[1]}/_drakit"

  # fish
  drakit completion fish > ~/.config/fish/completions/drakit.fish

  # PowerShell
  drakit completion powershell | Out-String | Invoke-Expression`,
		ValidArgs: []string{"bash", "zsh", "fish", "powershell"},
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cmdutil.UsageErrorf("completion takes one argument: bash, zsh, fish or powershell")
			}
			return cobra.OnlyValidArgs(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			root := cmd.Root()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(s.Out, true)
			case "zsh":
				return root.GenZshCompletion(s.Out)
			case "fish":
				return root.GenFishCompletion(s.Out, true)
			default:
				return root.GenPowerShellCompletionWithDesc(s.Out)
			}
		},
	}
	return cmd
}
