// Package app is the drakit command line: the root command, which
// assembles the commands of the packages below it, and the functions that
// run it and turn its errors into kubectl's conventions for messages and
// exit codes. convert, validate, allocate, explain and openapi work on
// resource.k8s.io manifests without a cluster; validate and allocate also
// against a live one (--from-cluster), and get and describe read live
// clusters, all read-only. The main package only calls Main.
package app

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/cmd/drakit/app/allocate"
	"github.com/drakit/drakit/cmd/drakit/app/completion"
	"github.com/drakit/drakit/cmd/drakit/app/convert"
	"github.com/drakit/drakit/cmd/drakit/app/describe"
	"github.com/drakit/drakit/cmd/drakit/app/explain"
	"github.com/drakit/drakit/cmd/drakit/app/get"
	"github.com/drakit/drakit/cmd/drakit/app/openapi"
	"github.com/drakit/drakit/cmd/drakit/app/plan"
	"github.com/drakit/drakit/cmd/drakit/app/upgradecheck"
	"github.com/drakit/drakit/cmd/drakit/app/validate"
	versioncmd "github.com/drakit/drakit/cmd/drakit/app/version"
	"github.com/drakit/drakit/cmd/drakit/app/webhook"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

// version is set at build time:
//
//	go build -ldflags "-X github.com/drakit/drakit/cmd/drakit/app.version=v0.1.0" ./cmd/drakit
//
// Otherwise the module version from the build information is used
// (go install ...@v0.1.0), or "devel".
var version = ""

// Main runs drakit with the process's arguments and streams and returns
// the exit code.
func Main() int {
	return RunAs(displayName(os.Args[0]), os.Args[1:], genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr})
}

// Run runs drakit with args (without the program name) and returns the
// exit code. Errors are printed to streams.ErrOut as one "error: ..." line
// each.
func Run(args []string, streams genericiooptions.IOStreams) int {
	return RunAs("drakit", args, streams)
}

// RunAs is Run for a drakit called name: "drakit", or "kubectl dra" as a
// kubectl plugin (see displayName).
func RunAs(name string, args []string, streams genericiooptions.IOStreams) int {
	return Execute(cmdutil.NewFactory(version), name, args, streams)
}

// Execute runs the command tree over f (tests give a fake one) and
// returns the exit code: ExitUsage for a wrong command line, with a
// pointer to --help; ExitFailure for any other error.
func Execute(f cmdutil.Factory, name string, args []string, streams genericiooptions.IOStreams) int {
	root := NewDrakitCommand(f, streams)
	asPlugin(root, name)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	switch {
	case err == nil:
		return cmdutil.ExitOK
	case errors.Is(err, cmdutil.ErrFailed):
		// The command reported its problems already.
		return cmdutil.ExitFailure
	case cmdutil.IsUsageError(err) || missingFlags(cmd):
		fmt.Fprintf(streams.ErrOut, "error: %s\n", cmdutil.OneLine(err.Error()))
		if cmd != nil {
			fmt.Fprintf(streams.ErrOut, "See '%s --help' for usage.\n", cmd.CommandPath())
		}
		return cmdutil.ExitUsage
	}
	fmt.Fprintf(streams.ErrOut, "error: %s\n", cmdutil.OneLine(err.Error()))
	return cmdutil.ExitFailure
}

var (
	rootLong = `drakit works with the manifests of Kubernetes Dynamic Resource Allocation
(the resource.k8s.io API group), without a cluster or against a live one
(read-only: get, describe, --from-cluster). It knows every version the
group ever had:

` + versionTable() + `
and converts between them without losing anything: what a version cannot
say is kept in the annotation conversion.drakit.io/stash and restored when
the object is converted back.

Input is given with -f, as files, directories (with -R to recurse) or "-"
for standard input, in YAML or JSON, one document or many.

Exit codes: 0 success, 1 bad input or a negative result (invalid objects,
unsatisfiable claims), 2 a wrong command line.`

	rootExample = `  # Move the 1.26 example manifests to resource.k8s.io/v1 (PodScheduling has no kind there)
  drakit convert -f examples/v1alpha1 -R --output-version resource.k8s.io/v1 --skip-kinds-not-in-target

  # Check manifests against the rules of their own release
  drakit validate -f examples/ -R

  # See where the example claims would be allocated
  drakit allocate -f examples/v1alpha3 -o wide

  # Read the documentation of a field
  drakit explain resourceclaim.spec.devices.requests --api-version resource.k8s.io/v1alpha3`
)

// NewDrakitCommand builds the drakit command tree over f, writing to
// streams, as kubectl's NewKubectlCommand builds kubectl's.
func NewDrakitCommand(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:           "drakit",
		Short:         "Convert, validate, allocate and explain Kubernetes DRA manifests, and read a cluster's DRA state",
		Long:          rootLong,
		Example:       rootExample,
		SilenceErrors: true,
		SilenceUsage:  true,
		// A bare "drakit" prints help, as kubectl does.
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cmdutil.UsageErrorf("unknown command %q for %q", args[0], cmd.CommandPath())
			}
			return cmd.Help()
		},
		Args: cobra.ArbitraryArgs,
	}
	root.SetIn(streams.In)
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return &cmdutil.UsageError{Err: err}
	})
	root.CompletionOptions.HiddenDefaultCmd = false
	root.AddCommand(
		convert.NewCmdConvert(f, streams),
		validate.NewCmdValidate(f, streams),
		allocate.NewCmdAllocate(f, streams),
		plan.NewCmdPlan(f, streams),
		explain.NewCmdExplain(f, streams),
		describe.NewCmdDescribe(f, streams),
		get.NewCmdGet(f, streams),
		openapi.NewCmdOpenAPI(f, streams),
		upgradecheck.NewCmdUpgradeCheck(f, streams),
		webhook.NewCmdWebhook(f, streams),
		versioncmd.NewCmdVersion(f, streams),
		completion.NewCmdCompletion(f, streams),
	)
	root.CompletionOptions.DisableDefaultCmd = true
	argsAreUsage(root)
	return root
}

// argsAreUsage makes the argument checks of c and its subcommands report
// a UsageError, so that a wrong number of arguments exits 2. (Flag errors
// become UsageErrors through the root's FlagErrorFunc.)
func argsAreUsage(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				if cmdutil.IsUsageError(err) {
					return err
				}
				return &cmdutil.UsageError{Err: err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		argsAreUsage(sub)
	}
}

// missingFlags tells whether cmd failed because a required flag is missing
// or a flag group is broken: cobra checks both before the command runs and
// returns its own error, so the check is repeated here to recognise it.
func missingFlags(cmd *cobra.Command) bool {
	return cmd != nil && (cmd.ValidateRequiredFlags() != nil || cmd.ValidateFlagGroups() != nil)
}

// versionTable lists the catalogue's versions with their releases, one per
// line, for the help text.
func versionTable() string {
	var b strings.Builder
	for _, v := range catalogue.Versions {
		releases := "Kubernetes " + strings.Replace(v.Served.String(), "-", " to ", 1)
		fmt.Fprintf(&b, "  %-26s %s\n", v.GroupVersion().String(), releases)
	}
	return b.String()
}
