// Package app is the drakit command line: convert, validate, allocate and
// explain resource.k8s.io manifests offline, with kubectl's conventions for
// flags, output and exit codes. The main package only calls Main.
package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/spf13/cobra"
)

// Exit codes. kubectl exits 1 for every error; drakit keeps 1 for bad input
// and negative results and gives a wrong command line 2, as many Unix tools
// do, so that a CI script can tell "the manifests are wrong" from "the
// call is wrong".
const (
	// ExitOK: everything worked and every object was valid.
	ExitOK = 0
	// ExitFailure: bad input, invalid objects, unsatisfiable claims.
	ExitFailure = 1
	// ExitUsage: the command line itself is wrong.
	ExitUsage = 2
)

// Streams are the standard streams a command uses; tests give it buffers.
type Streams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// Main runs drakit with the process's arguments and streams and returns
// the exit code.
func Main() int {
	return RunAs(displayName(os.Args[0]), os.Args[1:], Streams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr})
}

// Run runs drakit with args (without the program name) and returns the
// exit code. Errors are printed to s.ErrOut as one "error: ..." line each.
func Run(args []string, s Streams) int {
	return RunAs("drakit", args, s)
}

// RunAs is Run for a drakit called name: "drakit", or "kubectl dra" as a
// kubectl plugin (see displayName).
func RunAs(name string, args []string, s Streams) int {
	root := NewRootCommand(s)
	asPlugin(root, name)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err == nil {
		return ExitOK
	}
	var failed *failedError
	if errors.As(err, &failed) {
		// The command reported its problems already.
		return ExitFailure
	}
	var usage *usageError
	if errors.As(err, &usage) || missingFlags(cmd) {
		fmt.Fprintf(s.ErrOut, "error: %s\n", oneLine(err.Error()))
		if cmd != nil {
			fmt.Fprintf(s.ErrOut, "See '%s --help' for usage.\n", cmd.CommandPath())
		}
		return ExitUsage
	}
	fmt.Fprintf(s.ErrOut, "error: %s\n", oneLine(err.Error()))
	return ExitFailure
}

// NewRootCommand builds the drakit command tree writing to s.
func NewRootCommand(s Streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "drakit",
		Short: "Convert, validate, allocate and explain Kubernetes DRA manifests offline",
		Long: `drakit works with the manifests of Kubernetes Dynamic Resource Allocation
(the resource.k8s.io API group) without a cluster. It knows every version
the group ever had:

` + versionTable() + `
and converts between them without losing anything: what a version cannot
say is kept in the annotation conversion.drakit.io/stash and restored when
the object is converted back.

Input is given with -f, as files, directories (with -R to recurse) or "-"
for standard input, in YAML or JSON, one document or many.

Exit codes: 0 success, 1 bad input or a negative result (invalid objects,
unsatisfiable claims), 2 a wrong command line.`,
		Example: `  # Move the 1.26 example manifests to the 1.31 API
  drakit convert -f examples/v1alpha1 -R --output-version resource.k8s.io/v1alpha3

  # Check manifests against the rules of their own release
  drakit validate -f examples/ -R

  # See where the example claims would be allocated
  drakit allocate -f examples/v1alpha3 -o wide

  # Read the documentation of a field
  drakit explain resourceclaim.spec.devices.requests --api-version resource.k8s.io/v1alpha3`,
		SilenceErrors: true,
		SilenceUsage:  true,
		// A bare "drakit" prints help, as kubectl does.
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unknown command %q for %q", args[0], cmd.CommandPath())
			}
			return cmd.Help()
		},
		Args: cobra.ArbitraryArgs,
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.ErrOut)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return &usageError{err: err}
	})
	root.CompletionOptions.HiddenDefaultCmd = false
	root.AddCommand(
		newConvertCommand(s),
		newValidateCommand(s),
		newAllocateCommand(s),
		newExplainCommand(s),
		newDescribeCommand(s),
		newGetCommand(s),
		newOpenAPICommand(s),
		newVersionCommand(s),
		newCompletionCommand(s),
	)
	root.CompletionOptions.DisableDefaultCmd = true
	argsAreUsage(root)
	return root
}

// argsAreUsage makes the argument checks of c and its subcommands report
// a usageError, so that a wrong number of arguments exits 2. (Flag errors
// become usageErrors through the root's FlagErrorFunc.)
func argsAreUsage(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				var usage *usageError
				if errors.As(err, &usage) {
					return err
				}
				return &usageError{err: err}
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

// usageError is a wrong command line: exit code 2 and a pointer to --help.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...)}
}

// failedError means the command has printed its problems and must exit 1.
type failedError struct{}

func (*failedError) Error() string { return "failed" }

var errFailed = &failedError{}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}
