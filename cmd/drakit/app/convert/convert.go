// Package convert is "drakit convert": manifests from one version of
// resource.k8s.io to another, printed or rewritten in place.
package convert

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cliresource "k8s.io/cli-runtime/pkg/resource"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	convertstream "github.com/drakit/drakit/cmd/drakit/internal/convert"
	"github.com/drakit/drakit/cmd/drakit/internal/inputs"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/printer"
)

var (
	convertLong = `Convert DRA manifests to another version of resource.k8s.io.

Every document comes out in the order it came in: a stream stays a stream
(no List is made of it). Objects already at the target version, and
documents of other API groups, are written back byte for byte. "kind: List"
and the typed lists (ResourceClaimList, ...) are converted item by item. The
comments in front of each document are kept. No defaults are added unless
--defaults is given.

Conversion loses nothing: what the target version cannot express is kept in
the annotation conversion.drakit.io/stash, and converting back restores it.
A kind that does not exist in the target version (ResourceSlice in
v1alpha1, say) is an error. With --skip-kinds-not-in-target such documents
(and such items of a List) are left out of the output instead, each named
in a warning: PodScheduling and PodSchedulingContext, say, when bringing a
1.26-1.31 export to v1, where classic DRA's scheduling state has no home.

--for-create makes the output of "kubectl get -o yaml" creatable on another
cluster: it removes what the API server sets (metadata.uid,
resourceVersion, generation, creationTimestamp, deletionTimestamp,
deletionGracePeriodSeconds, managedFields, selfLink, and a List's
resourceVersion and continue) from every document, converted or not.
Status stays: "kubectl create" ignores it and "kubectl replace
--subresource=status" of the same file restores it (docs/migration.md).

Unknown and duplicate fields are errors; with --strict=false they are
warnings and the fields are dropped. Every problem is reported on one line
with the file, line, document (counted from 1) and field path, and the
command exits 1 without writing anything: standard output gets nothing, and
with --in-place no file is changed.`

	convertExample = `  # Convert the 1.26 examples to the 1.31 API, printing YAML
  drakit convert -f examples/v1alpha1 -R --output-version resource.k8s.io/v1alpha3

  # Read standard input, print JSON
  cat claims.yaml | drakit convert -f - --output-version resource.k8s.io/v1alpha2 -o json

  # Rewrite files in place (atomically; untouched on any error)
  drakit convert -f manifests/ -R --output-version resource.k8s.io/v1alpha3 --in-place

  # Bring a 1.26 export to the 1.37 API, leaving out what v1 has no kind for
  drakit convert -f examples/v1alpha1 -R --output-version resource.k8s.io/v1 --skip-kinds-not-in-target

  # A 1.30 cluster's export, ready for "kubectl create -f" on a 1.37 cluster
  kubectl get resourceclaims -A -o yaml >claims.yaml
  drakit convert -f claims.yaml --output-version resource.k8s.io/v1 --for-create >claims-v1.yaml

  # Fill in the defaults of the target version as well
  drakit convert -f claim.yaml --output-version resource.k8s.io/v1alpha3 --defaults`
)

// Options are the options of "drakit convert".
type Options struct {
	cliresource.FilenameOptions
	// OutputVersion is the version to convert to, --output-version.
	OutputVersion string
	// Output is -o: yaml or json (not with InPlace).
	Output string
	// Defaults applies the defaults of the target version.
	Defaults bool
	// InPlace rewrites the files instead of printing.
	InPlace bool
	// Strict makes unknown and duplicate fields errors.
	Strict bool
	// SkipKindsNotInTarget leaves out, with a warning, the objects whose
	// kind the target version lacks.
	SkipKindsNotInTarget bool
	// ForCreate removes the metadata the API server sets.
	ForCreate bool

	target        schema.GroupVersion
	format        printer.Format
	outputChanged bool
	// rename puts a file in place of another (os.Rename); the tests make
	// it fail, to see that a set of files is replaced all or nothing.
	rename func(oldpath, newpath string) error

	genericiooptions.IOStreams
}

// NewOptions are the options with their defaults.
func NewOptions(streams genericiooptions.IOStreams) *Options {
	return &Options{Output: "yaml", Strict: true, rename: os.Rename, IOStreams: streams}
}

// NewCmdConvert is "drakit convert".
func NewCmdConvert(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewOptions(streams)
	cmd := &cobra.Command{
		Use:     "convert -f FILENAME --output-version resource.k8s.io/VERSION",
		Short:   "Convert manifests between versions of resource.k8s.io",
		Long:    convertLong,
		Example: convertExample,
		Args:    cobra.NoArgs,
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
	inputs.AddFilenameFlags(cmd, &o.FilenameOptions, "to convert")
	cmd.Flags().StringVar(&o.OutputVersion, "output-version", o.OutputVersion, "the version to convert to: "+strings.Join(cmdutil.GroupVersions(), ", "))
	cmd.Flags().StringVarP(&o.Output, "output", "o", o.Output, "output format: yaml or json")
	cmd.Flags().BoolVar(&o.Defaults, "defaults", o.Defaults, "apply the defaults of the target version")
	cmd.Flags().BoolVar(&o.InPlace, "in-place", o.InPlace, "rewrite the files instead of printing; each document keeps its format")
	cmd.Flags().BoolVar(&o.Strict, "strict", o.Strict, "treat unknown and duplicate fields as errors (false: warn and drop them)")
	cmd.Flags().BoolVar(&o.SkipKindsNotInTarget, "skip-kinds-not-in-target", o.SkipKindsNotInTarget, "leave out, with a warning, the objects whose kind the target version does not have (not with --in-place)")
	cmd.Flags().BoolVar(&o.ForCreate, "for-create", o.ForCreate, "remove the metadata the API server sets (uid, resourceVersion, creationTimestamp, managedFields, ...), so that kubectl create -f takes the output; status stays")
	_ = cmd.MarkFlagRequired("output-version")
	_ = cmd.RegisterFlagCompletionFunc("output-version", cmdutil.CompleteGroupVersions)
	_ = cmd.RegisterFlagCompletionFunc("output", cmdutil.FixedCompletion("yaml", "json"))
	return cmd
}

// Complete reads --output-version and -o.
func (o *Options) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	target, err := cmdutil.ParseGroupVersion("--output-version", o.OutputVersion)
	if err != nil {
		return err
	}
	format, err := printer.ParseFormat(o.Output)
	if err != nil {
		return &cmdutil.UsageError{Err: err}
	}
	o.target, o.format = target, format
	o.outputChanged = cmd.Flags().Changed("output")
	return nil
}

// Validate checks the flags that do not go together.
func (o *Options) Validate() error {
	if o.InPlace && o.SkipKindsNotInTarget {
		return cmdutil.UsageErrorf("--skip-kinds-not-in-target leaves objects out; with --in-place that would delete them from the files, so convert to standard output instead")
	}
	if o.InPlace && o.outputChanged {
		return cmdutil.UsageErrorf("--in-place writes each document in its own format; leave out -o")
	}
	return nil
}

// Run converts the inputs to standard output, which gets nothing unless
// every input converted, or with --in-place rewrites them.
func (o *Options) Run() error {
	ins, err := inputs.Expand(o.FilenameOptions)
	if err != nil {
		return err
	}
	rep := cmdutil.NewReporter(o.ErrOut)
	conv := &convertstream.Converter{
		Options: convertstream.Options{Target: o.target, Defaults: o.Defaults, Strict: o.Strict, SkipKindsNotInTarget: o.SkipKindsNotInTarget, ForCreate: o.ForCreate},
		Report:  rep.Report,
	}
	if o.InPlace {
		for _, in := range ins {
			if in.Path == "" {
				return cmdutil.UsageErrorf("--in-place rewrites files; it cannot be used with -f - (standard input)")
			}
		}
		return o.runInPlace(conv, ins, rep)
	}

	sp := printer.NewSpool()
	defer sp.Close()
	bw := bufio.NewWriterSize(sp, 64<<10)
	out := printer.NewStream(bw, o.format)
	for _, in := range ins {
		if _, err := convertInput(conv, out, in, o.In, rep); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if rep.Errors > 0 {
		return cmdutil.ErrFailed
	}
	return sp.CopyTo(o.Out)
}

// convertInput converts one input into out. Problems with the input are
// reported; the error is for a failing output only.
func convertInput(conv *convertstream.Converter, out *printer.Stream, in inputs.Input, stdin io.Reader, rep *cmdutil.Reporter) (convertstream.Stats, error) {
	rc, err := in.Open(stdin)
	if err != nil {
		rep.Fail(err)
		return convertstream.Stats{}, nil
	}
	defer rc.Close()
	return conv.Stream(out, manifest.NewReader(rc, in.Name))
}

// runInPlace converts every file next to itself and replaces the files
// only when all of them converted without an error.
func (o *Options) runInPlace(conv *convertstream.Converter, ins []inputs.Input, rep *cmdutil.Reporter) error {
	type done struct {
		in        inputs.Input
		repl      *replacement
		stats     convertstream.Stats
		unchanged bool
	}
	var pending []done
	abortAll := func() {
		for _, d := range pending {
			d.repl.abort()
		}
	}
	for _, in := range ins {
		repl, err := newReplacement(in.Path)
		if err != nil {
			rep.Fail(&manifest.Error{Source: in.Name, Err: inputs.DescribePathError(err)})
			continue
		}
		before := rep.Errors
		bw := bufio.NewWriterSize(repl, 64<<10)
		st, err := convertInput(conv, printer.NewStream(bw, printer.Keep), in, nil, rep)
		if err == nil {
			err = bw.Flush()
		}
		if err == nil {
			err = repl.finish()
		} else {
			repl.abort()
		}
		if err != nil {
			rep.Fail(&manifest.Error{Source: in.Name, Err: err})
			continue
		}
		if rep.Errors > before {
			repl.abort()
			continue
		}
		pending = append(pending, done{in: in, repl: repl, stats: st})
	}
	if rep.Errors > 0 {
		abortAll()
		fmt.Fprintf(o.ErrOut, "error: no file was changed (%d %s)\n", rep.Errors, cmdutil.Plural(rep.Errors, "problem", "problems"))
		return cmdutil.ErrFailed
	}
	var changed []*done
	var repls []*replacement
	for i := range pending {
		d := &pending[i]
		if d.unchanged = d.repl.unchanged(); d.unchanged {
			d.repl.abort()
			continue
		}
		changed = append(changed, d)
		repls = append(repls, d.repl)
	}
	if at, restored, err := replaceAll(repls, o.rename); err != nil {
		rep.Fail(&manifest.Error{Source: changed[at].in.Name, Err: err})
		if restored {
			fmt.Fprintln(o.ErrOut, "error: no file was changed")
		}
		return cmdutil.ErrFailed
	}
	for _, d := range pending {
		if d.unchanged {
			fmt.Fprintf(o.Out, "%s: unchanged\n", d.in.Name)
			continue
		}
		fmt.Fprintf(o.Out, "%s: %s\n", d.in.Name, describeStats(d.stats))
	}
	return nil
}

func describeStats(st convertstream.Stats) string {
	var parts []string
	if st.Converted > 0 {
		parts = append(parts, fmt.Sprintf("%d converted", st.Converted))
	}
	if st.Unchanged > 0 {
		parts = append(parts, fmt.Sprintf("%d already at the target version", st.Unchanged))
	}
	if st.Other > 0 {
		parts = append(parts, fmt.Sprintf("%d of other groups", st.Other))
	}
	return "rewritten (" + strings.Join(parts, ", ") + ")"
}
