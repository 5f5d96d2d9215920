package app

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	cliresource "k8s.io/cli-runtime/pkg/resource"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/convert"
	"github.com/drakit/drakit/cmd/drakit/internal/inputs"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/printer"
)

type convertOptions struct {
	files         cliresource.FilenameOptions
	outputVersion string
	output        string
	defaults      bool
	inPlace       bool
	strict        bool
	skipMissing   bool
	forCreate     bool
}

func newConvertCommand(f cmdutil.Factory, s genericiooptions.IOStreams) *cobra.Command {
	o := &convertOptions{}
	cmd := &cobra.Command{
		Use:   "convert -f FILENAME --output-version resource.k8s.io/VERSION",
		Short: "Convert manifests between versions of resource.k8s.io",
		Long: `Convert DRA manifests to another version of resource.k8s.io.

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
with --in-place no file is changed.`,
		Example: `  # Convert the 1.26 examples to the 1.31 API, printing YAML
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
  drakit convert -f claim.yaml --output-version resource.k8s.io/v1alpha3 --defaults`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd, s)
		},
	}
	inputs.AddFilenameFlags(cmd, &o.files, "to convert")
	cmd.Flags().StringVar(&o.outputVersion, "output-version", "", "the version to convert to: "+strings.Join(cmdutil.GroupVersions(), ", "))
	cmd.Flags().StringVarP(&o.output, "output", "o", "yaml", "output format: yaml or json")
	cmd.Flags().BoolVar(&o.defaults, "defaults", false, "apply the defaults of the target version")
	cmd.Flags().BoolVar(&o.inPlace, "in-place", false, "rewrite the files instead of printing; each document keeps its format")
	cmd.Flags().BoolVar(&o.strict, "strict", true, "treat unknown and duplicate fields as errors (false: warn and drop them)")
	cmd.Flags().BoolVar(&o.skipMissing, "skip-kinds-not-in-target", false, "leave out, with a warning, the objects whose kind the target version does not have (not with --in-place)")
	cmd.Flags().BoolVar(&o.forCreate, "for-create", false, "remove the metadata the API server sets (uid, resourceVersion, creationTimestamp, managedFields, ...), so that kubectl create -f takes the output; status stays")
	_ = cmd.MarkFlagRequired("output-version")
	_ = cmd.RegisterFlagCompletionFunc("output-version", cmdutil.CompleteGroupVersions)
	_ = cmd.RegisterFlagCompletionFunc("output", cmdutil.FixedCompletion("yaml", "json"))
	return cmd
}

func (o *convertOptions) run(cmd *cobra.Command, s genericiooptions.IOStreams) error {
	target, err := cmdutil.ParseGroupVersion("--output-version", o.outputVersion)
	if err != nil {
		return err
	}
	format, err := printer.ParseFormat(o.output)
	if err != nil {
		return &cmdutil.UsageError{Err: err}
	}
	if o.inPlace && o.skipMissing {
		return cmdutil.UsageErrorf("--skip-kinds-not-in-target leaves objects out; with --in-place that would delete them from the files, so convert to standard output instead")
	}
	if o.inPlace && cmd.Flags().Changed("output") {
		return cmdutil.UsageErrorf("--in-place writes each document in its own format; leave out -o")
	}
	inputs, err := inputs.Expand(o.files)
	if err != nil {
		return err
	}
	rep := cmdutil.NewReporter(s.ErrOut)
	conv := &convert.Converter{
		Options: convert.Options{Target: target, Defaults: o.defaults, Strict: o.strict, SkipKindsNotInTarget: o.skipMissing, ForCreate: o.forCreate},
		Report:  rep.Report,
	}
	if o.inPlace {
		for _, in := range inputs {
			if in.Path == "" {
				return cmdutil.UsageErrorf("--in-place rewrites files; it cannot be used with -f - (standard input)")
			}
		}
		return o.runInPlace(conv, inputs, rep, s)
	}

	sp := printer.NewSpool()
	defer sp.Close()
	bw := bufio.NewWriterSize(sp, 64<<10)
	out := printer.NewStream(bw, format)
	for _, in := range inputs {
		if _, err := convertInput(conv, out, in, s.In, rep); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if rep.Errors > 0 {
		return cmdutil.ErrFailed
	}
	return sp.CopyTo(s.Out)
}

// convertInput converts one input into out. Problems with the input are
// reported; the error is for a failing output only.
func convertInput(conv *convert.Converter, out *printer.Stream, in inputs.Input, stdin io.Reader, rep *cmdutil.Reporter) (convert.Stats, error) {
	rc, err := in.Open(stdin)
	if err != nil {
		rep.Fail(err)
		return convert.Stats{}, nil
	}
	defer rc.Close()
	return conv.Stream(out, manifest.NewReader(rc, in.Name))
}

// runInPlace converts every file next to itself and replaces the files
// only when all of them converted without an error.
func (o *convertOptions) runInPlace(conv *convert.Converter, ins []inputs.Input, rep *cmdutil.Reporter, s genericiooptions.IOStreams) error {
	type done struct {
		in        inputs.Input
		repl      *replacement
		stats     convert.Stats
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
		fmt.Fprintf(s.ErrOut, "error: no file was changed (%d %s)\n", rep.Errors, cmdutil.Plural(rep.Errors, "problem", "problems"))
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
	if at, restored, err := replaceAll(repls); err != nil {
		rep.Fail(&manifest.Error{Source: changed[at].in.Name, Err: err})
		if restored {
			fmt.Fprintln(s.ErrOut, "error: no file was changed")
		}
		return cmdutil.ErrFailed
	}
	for _, d := range pending {
		if d.unchanged {
			fmt.Fprintf(s.Out, "%s: unchanged\n", d.in.Name)
			continue
		}
		fmt.Fprintf(s.Out, "%s: %s\n", d.in.Name, describeStats(d.stats))
	}
	return nil
}

func describeStats(st convert.Stats) string {
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
