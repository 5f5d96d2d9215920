// Package validate is "drakit validate": manifests checked offline with
// the rules the API server of each version's release applies (or those of
// --as-version), and with --from-cluster against a live cluster's
// namespaces and stored objects.
package validate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cliresource "k8s.io/cli-runtime/pkg/resource"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/apis/resource/validation"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/inputs"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/objects"
	"github.com/drakit/drakit/conversion"
)

var (
	validateLong = `Validate DRA manifests, without a cluster (or with --from-cluster against
one), with the rules the API server of each version's release applies on
create:

` + rulesTable() + `
Objects checked with the rules of 1.37 are checked as a 1.37 cluster with
the feature gates of --feature-gates would check them (by default the
gates' 1.37 defaults). Such a cluster silently drops a field whose gate is
off before it validates the object; drakit validates the object without
the field, as the cluster would, and prints a warning for each dropped
field:

  claims.yaml:7: document 2: ResourceClaim.resource.k8s.io "gpu": warning: spec.devices.requests[0].exactly.derivedAttributes would be dropped: feature gate DRADerivedAttributes is off

Warnings go to standard error, as kubectl prints an API server's
warnings, and leave the exit code alone; with -o json they are in the
object's entry.

With the 1.37 rules a claim or claim template with adminAccess needs the
label resource.kubernetes.io/admin-access: "true" on its namespace. drakit
takes the labels from the core/v1 Namespace documents of its input (kubectl
get namespaces -o yaml); in a namespace that has no such document the rule
is not checked (the namespace is unknown), and a warning says so. An
object that needs a namespace whose document comes later in the input is
reported after the rest of the input.

With --from-cluster, the cluster of kubectl's connection flags
(--kubeconfig, --context, ...) is the background, and nothing is written
to it: the namespaces' labels come from it; each object is checked in the
version the cluster serves for its kind (its release's rules); and an
object the cluster holds (same kind, namespace and name) is checked as an
update of the stored one (immutable fields, status rules), or with
--subresource status as a status update. A line on standard error says
for each object which check it got.

With --as-version, every object is first converted to that version and
checked with its rules: will these manifests still be valid after an
upgrade? With resource.k8s.io/v1 that is what a 1.37 cluster with the
given feature gates would refuse. Objects whose kind the target version
lacks (PodSchedulingContext, the v1alpha2 parameters kinds) are left out
with a warning, as convert --skip-kinds-not-in-target leaves them out, and
counted in the summary.

Each invalid object is reported on one line, as kubectl reports the
server's answer, after its file, line and document (counted from 1):

  claims.yaml:7: document 2: resourceclaims.resource.k8s.io "gpu" is invalid: spec.devices.requests[0].deviceClassName: Required value

Documents of other API groups are skipped and counted in the summary,
except Namespaces, which are read for their labels. With -o json the
report is one JSON object, for programs: every object with its result, the
server-style causes of each error and its warnings, every input problem,
and the summary.

With --lint the ResourceSlices and DeviceClasses are also checked together,
as the scheduler will see them (allocator/poolstatus.Lint): pools whose
newest generation lacks slices (or has more than resourceSliceCount, or
whose slices disagree on it, or say 0, as a synthetic template slice
might), pools mid-rollout, devices named twice in a pool, counters declared
twice or consumed but not declared, and every DeviceClass (of the input;
with --from-cluster also the cluster's) evaluated on every device of the
newest generations with the allocator's CEL: a class that matches no device
is a warning, a selector that fails on a device an error naming the first
such device and CEL's message (such as "no such key: type" when a fake
driver's devices lack an attribute the real class reads), since the
scheduler fails the claim there instead of skipping the device. With
--from-cluster and no slices in the input, the cluster's slices are
checked: new classes against the devices a cluster has. Node groups
(planner.drakit.io/v1alpha1 NodeGroup, as drakit plan reads them) are
linted by the slices their first node would publish. Findings are
printed after the objects ("lint: error: ..." or "lint: warning: ...")
and counted in the summary.

Exit code 0 when every object is valid, 1 when one is invalid, an input
could not be read or --lint found an error, 2 for a wrong command line.

Validating one object may take at most --timeout (default 10s): CEL
selectors are compiled and type-checked as the API server does, which
takes about 50 ms for each selector at the length limit, and one claim
can have hundreds. An object that takes longer is reported as an error
and validation stops there.`

	validateExample = `  # Validate the examples of every version
  drakit validate -f examples/ -R

  # Would the 1.30 manifests be valid in 1.31?
  drakit validate -f examples/v1alpha2 --as-version resource.k8s.io/v1alpha3

  # What would a 1.37 cluster without device taints refuse or drop of the 1.31 manifests?
  drakit validate -f examples/v1alpha3 --as-version resource.k8s.io/v1 --feature-gates DRADeviceTaints=false,DRADeviceTaintRules=false

  # Do the cluster's DeviceClasses match the devices a node template (or a fake driver) publishes?
  drakit validate --lint -f template-slices.yaml --from-cluster

  # Machine-readable report from standard input, with the namespaces' labels
  kubectl get namespaces,resourceclaims -A -o yaml | drakit validate -f - -o json`
)

// Options are the options of "drakit validate".
type Options struct {
	cliresource.FilenameOptions
	// AsVersion is --as-version: convert every object to this version
	// first and apply its rules; empty for each object's own version.
	AsVersion string
	// Output is -o: empty for text, or json.
	Output string
	// Strict makes unknown and duplicate fields errors.
	Strict bool
	// RejectQuirks also rejects what the release's API server accepts
	// only by accident.
	RejectQuirks bool
	// FeatureGates are the gates of the cluster whose rules are the
	// followed release's, in kube-apiserver's syntax.
	FeatureGates string
	// Timeout bounds the validation of one object (0: no limit).
	Timeout time.Duration
	// FromCluster checks against the cluster of ClusterFlags; Subresource
	// "status" checks status updates of the stored objects.
	FromCluster  bool
	Subresource  string
	ClusterFlags *cluster.Flags
	// Lint also checks the slices' pools and matches the classes against
	// their devices (allocator/poolstatus.Lint).
	Lint bool

	asVersion *schema.GroupVersion
	gates     features.Gates
	inputs    []inputs.Input
	// validateObject checks an object as a create
	// (validation.ValidateObjectWithWarnings; tests give one that never
	// ends).
	validateObject func(runtime.Object, validation.Options) (field.ErrorList, []validation.DropWarning)

	genericiooptions.IOStreams
}

// NewOptions are the options with their defaults.
func NewOptions(streams genericiooptions.IOStreams) *Options {
	return &Options{Strict: true, Timeout: 10 * time.Second, ClusterFlags: cluster.NewFlags(),
		validateObject: validation.ValidateObjectWithWarnings, IOStreams: streams}
}

// NewCmdValidate is "drakit validate".
func NewCmdValidate(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewOptions(streams)
	cmd := &cobra.Command{
		Use:     "validate -f FILENAME",
		Short:   "Check manifests against the validation rules of their release",
		Long:    validateLong,
		Example: validateExample,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Complete(f, cmd, args); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run(f)
		},
	}
	inputs.AddFilenameFlags(cmd, &o.FilenameOptions, "to validate")
	cmd.Flags().StringVar(&o.AsVersion, "as-version", o.AsVersion, "convert every object to this version first and apply its rules: "+strings.Join(cmdutil.GroupVersions(), ", "))
	cmd.Flags().StringVarP(&o.Output, "output", "o", o.Output, "output format: empty for text, or json")
	cmd.Flags().BoolVar(&o.Strict, "strict", o.Strict, "treat unknown and duplicate fields as errors (false: warn and drop them)")
	cmd.Flags().BoolVar(&o.RejectQuirks, "reject-quirks", o.RejectQuirks, "also reject what the release's API server accepts only by accident (upper-case driver names, qualified names with several '/', duplicate allocation results, ...)")
	cmd.Flags().DurationVar(&o.Timeout, "timeout", o.Timeout, "give up on an object whose validation takes longer (0: no limit)")
	cmd.Flags().StringVar(&o.FeatureGates, "feature-gates", o.FeatureGates, "the cluster's feature gates for the objects checked with the rules of 1.37, in kube-apiserver's syntax (DRADeviceTaints=false,DRAListTypeAttributes=true; AllAlpha and AllBeta too); default: the 1.37 defaults")
	cmd.Flags().BoolVar(&o.FromCluster, "from-cluster", o.FromCluster, "check against the cluster of kubectl's connection flags: namespace labels from it, each object in the version the cluster serves, and an object the cluster holds as an update of the stored one (nothing is written)")
	cmd.Flags().BoolVar(&o.Lint, "lint", o.Lint, "also lint the ResourceSlices (and node groups' template slices) and DeviceClasses as the scheduler will see them: incomplete pools and rollouts, devices named twice, counters, and each class (of the input, and with --from-cluster of the cluster) against every device, with CEL's error where a selector fails; with --from-cluster and no slices in the input, the cluster's slices")
	cmd.Flags().StringVar(&o.Subresource, "subresource", o.Subresource, `with --from-cluster, "status": check objects as status updates of the stored ones`)
	o.ClusterFlags.AddTo(cmd.Flags(), false)
	_ = cmd.RegisterFlagCompletionFunc("as-version", cmdutil.CompleteGroupVersions)
	_ = cmd.RegisterFlagCompletionFunc("subresource", cmdutil.FixedCompletion("status"))
	_ = cmd.RegisterFlagCompletionFunc("output", cmdutil.FixedCompletion("json"))
	return cmd
}

// Complete reads --as-version, -o and --feature-gates, and lists the
// inputs.
func (o *Options) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	if o.AsVersion != "" {
		gv, err := cmdutil.ParseGroupVersion("--as-version", o.AsVersion)
		if err != nil {
			return err
		}
		o.asVersion = &gv
	}
	if o.Output != "" && o.Output != "json" {
		return cmdutil.UsageErrorf("unknown output format %q: leave -o out for text, or use json", o.Output)
	}
	gates, err := cmdutil.ParseFeatureGates("--feature-gates", o.FeatureGates)
	if err != nil {
		return err
	}
	o.gates = gates
	o.inputs, err = inputs.Expand(o.FilenameOptions)
	return err
}

// Validate checks --subresource.
func (o *Options) Validate() error {
	if o.Subresource != "" && o.Subresource != "status" {
		return cmdutil.UsageErrorf("--subresource %q: only status is known", o.Subresource)
	}
	if o.Subresource != "" && !o.FromCluster {
		return cmdutil.UsageErrorf("--subresource needs --from-cluster: a status update is checked against the stored object")
	}
	return nil
}

// Run validates the inputs' objects as they are read, with --from-cluster
// against the cluster f connects to, and writes the report.
func (o *Options) Run(f cmdutil.Factory) error {
	r, err := o.start(f)
	if err != nil {
		return err
	}
	defer r.out.Flush()
	for _, in := range o.inputs {
		err := r.readInput(in)
		if r.stopped != nil {
			// Nothing more is read or checked: the summary says what
			// was.
			break
		}
		if err != nil {
			return err
		}
	}
	for _, v := range r.held {
		if r.stopped != nil {
			break
		}
		r.check(v, true)
	}
	if o.Lint && r.stopped == nil {
		if err := r.lint(); err != nil {
			return err
		}
	}
	return r.finish()
}

// start connects to the cluster with --from-cluster and prepares the run.
func (o *Options) start(f cmdutil.Factory) (*validateRun, error) {
	r := &validateRun{o: o, s: o.IOStreams, asVersion: o.asVersion, sum: validationSummary{ByKind: map[string]int{}}}
	r.namespaces = newNamespaceBook()
	if o.FromCluster {
		c, err := f.Cluster(o.ClusterFlags)
		if err != nil {
			return nil, err
		}
		r.cluster = &clusterCheck{c: c, subresource: o.Subresource}
		if err := r.cluster.readNamespaces(r.namespaces); err != nil {
			return nil, err
		}
	}
	r.out = bufio.NewWriter(o.Out)
	if o.Output == "json" {
		r.report = newJSONReport(r.out)
	}
	r.reader = &objects.Reader{Strict: o.Strict, Report: r.problem}
	r.lintIn.where = map[string]*objects.Object{}
	r.opts = validation.Options{Strict: o.RejectQuirks, FeatureGates: o.gates, NamespaceLabels: r.namespaces.lookup}
	return r, nil
}

// validationResult is one entry of the JSON report: an object with its
// result, or an input problem (Error set).
type validationResult struct {
	Source     string               `json:"source"`
	Document   int                  `json:"document,omitempty"`
	Line       int                  `json:"line,omitempty"`
	Path       string               `json:"path,omitempty"`
	APIVersion string               `json:"apiVersion,omitempty"`
	Kind       string               `json:"kind,omitempty"`
	Namespace  string               `json:"namespace,omitempty"`
	Name       string               `json:"name,omitempty"`
	Valid      bool                 `json:"valid"`
	Warning    bool                 `json:"warning,omitempty"`
	Message    string               `json:"message,omitempty"`
	Causes     []metav1.StatusCause `json:"causes,omitempty"`
	Warnings   []validationWarning  `json:"warnings,omitempty"`
	// CheckedAs says, with --from-cluster, whether the object was checked
	// as a create or as an update of the stored one.
	CheckedAs string `json:"checkedAs,omitempty"`
	Error     string `json:"error,omitempty"`
	// Lint is the severity of a finding of --lint ("error", "warning");
	// Path is then the field, Message the object and what is wrong.
	Lint string `json:"lint,omitempty"`
}

// validationWarning is a warning about a valid or invalid object: a field
// the cluster would drop (Field and FeatureGates set), or a rule that
// could not be checked.
type validationWarning struct {
	Field        string   `json:"field,omitempty"`
	Message      string   `json:"message"`
	FeatureGates []string `json:"featureGates,omitempty"`
}

type validationSummary struct {
	Objects  int `json:"objects"`
	Valid    int `json:"valid"`
	Invalid  int `json:"invalid"`
	Errors   int `json:"inputErrors"`
	Warnings int `json:"warnings"`
	// Dropped counts the fields a cluster with the feature gates would
	// drop.
	Dropped int `json:"droppedFields"`
	// NotInTarget counts the objects left out because --as-version has
	// no such kind.
	NotInTarget int `json:"notInTarget,omitempty"`
	// LintErrors and LintWarnings count the findings of --lint,
	// NodeGroups the node groups whose slices it checked.
	LintErrors   int            `json:"lintErrors,omitempty"`
	LintWarnings int            `json:"lintWarnings,omitempty"`
	NodeGroups   int            `json:"nodeGroups,omitempty"`
	Skipped      int            `json:"skipped"`
	ByKind       map[string]int `json:"skippedKinds,omitempty"`
}

// toValidate is an object to validate, in the version it is checked in.
type toValidate struct {
	obj   *objects.Object
	typed runtime.Object
	gvk   schema.GroupVersionKind
	// validate checks typed; nil for Options.validateObject (a create).
	validate func(runtime.Object, validation.Options) (field.ErrorList, []validation.DropWarning)
	// checkedAs says what the check was (--from-cluster).
	checkedAs string
}

func (v *toValidate) groupKind() schema.GroupKind {
	return schema.GroupKind{Group: resource.GroupName, Kind: v.gvk.Kind}
}

// validateRun is one run of validate: what it was asked, where it writes,
// and what it has seen so far.
type validateRun struct {
	o          *Options
	s          genericiooptions.IOStreams
	cluster    *clusterCheck // with --from-cluster
	out        *bufio.Writer
	report     *jsonReport // with -o json; nil for text
	asVersion  *schema.GroupVersion
	reader     *objects.Reader
	namespaces *namespaceBook
	opts       validation.Options
	sum        validationSummary
	// held are the objects whose namespace had no Namespace document yet
	// when they were read: checked at the end.
	held []toValidate
	// stopped is set when an object took longer than --timeout.
	stopped error
	// lintIn are the slices and classes --lint checks.
	lintIn lintInputs
}

// problem reports a problem of the input: text goes to standard error as
// it comes; JSON keeps it in the report.
func (r *validateRun) problem(e *manifest.Error, warning bool) {
	if warning {
		r.sum.Warnings++
	} else {
		r.sum.Errors++
	}
	if r.report != nil {
		r.report.add(validationResult{Source: e.Source, Document: e.Index, Line: e.Line, Path: e.Path, Warning: warning, Error: e.Error()})
		return
	}
	r.out.Flush()
	prefix := "error"
	if warning {
		prefix = "warning"
	}
	fmt.Fprintf(r.s.ErrOut, "%s: %s\n", prefix, e.Error())
}

// readInput reads one input and checks its objects as they come.
func (r *validateRun) readInput(in inputs.Input) error {
	rc, err := in.Open(r.s.In)
	if err != nil {
		r.problem(asManifestError(err), false)
		return nil
	}
	defer rc.Close()
	return r.reader.Each(manifest.NewReader(rc, in.Name), r.take)
}

// take checks one object of the input, converted to --as-version and
// prepared as an update with --from-cluster; a Namespace is recorded and
// other objects are counted as skipped.
func (r *validateRun) take(obj *objects.Object) error {
	if obj.Typed == nil {
		if obj.GVK.Group == "" && obj.GVK.Version == "v1" && obj.GVK.Kind == "Namespace" {
			readNamespace(obj, r.o.Strict, r.namespaces, r.problem)
			return nil
		}
		if r.o.Lint && isNodeGroup(obj) {
			r.sum.NodeGroups++
			r.lintIn.collectNodeGroup(obj, r.problem)
			return nil
		}
		r.sum.Skipped++
		r.sum.ByKind[obj.Head.APIVersion+" "+obj.Head.Kind]++
		return nil
	}
	if r.o.Lint {
		r.lintIn.collect(obj)
	}
	v := toValidate{obj: obj, typed: obj.Typed, gvk: obj.GVK}
	if r.asVersion != nil && v.gvk.GroupVersion() != *r.asVersion {
		if !r.convert(&v) {
			return nil
		}
	}
	if r.cluster != nil {
		how, err := r.cluster.prepare(&v, r.asVersion)
		if err != nil {
			r.problem(obj.Errorf("%v", err), false)
			return nil
		}
		v.checkedAs = how
	}
	if r.check(v, false) {
		r.held = append(r.held, v)
	}
	return r.stopped
}

// convert converts the object to --as-version, reporting why not when
// it cannot.
func (r *validateRun) convert(v *toValidate) bool {
	converted, err := conversion.Convert(v.typed, *r.asVersion)
	var notIn *resource.KindNotInVersionError
	if errors.As(err, &notIn) {
		// Not an error of the object: the target has no place for it
		// at all.
		r.sum.NotInTarget++
		r.problem(v.obj.Errorf("left out: cannot convert to %s: %v", r.asVersion, err), true)
		return false
	}
	if err != nil {
		r.problem(v.obj.Errorf("cannot convert to %s: %v", r.asVersion, err), false)
		return false
	}
	v.typed = converted
	v.gvk = converted.GetObjectKind().GroupVersionKind()
	return true
}

// check validates one object and reports it. Until the input is read
// (final false) an object whose namespace has not been seen yet is held
// back (the Namespace document may come later) and check says so; such
// objects are reported at the end.
func (r *validateRun) check(v toValidate, final bool) (held bool) {
	r.namespaces.ask()
	validate := v.validate
	if validate == nil {
		validate = r.o.validateObject
	}
	errs, warnings, panicked, timedOut := validateSafely(v.typed, validate, r.opts, r.o.Timeout)
	if timedOut {
		r.problem(v.obj.Errorf("validation did not finish within %s (--timeout); the objects after it were not validated: split its selectors over several objects or shorten them, or raise --timeout", r.o.Timeout), false)
		r.stopped = cmdutil.ErrFailed
		return false
	}
	if panicked != nil {
		r.problem(v.obj.Errorf("internal error in validation: %v (please report it, with this document)", panicked), false)
		return false
	}
	if len(r.namespaces.missed) > 0 && !final {
		return true
	}
	res := r.result(v, errs, warnings)
	if r.report != nil {
		r.report.add(res)
		return false
	}
	r.print(v, res)
	return false
}

// result is the outcome of one object, counted in the summary.
func (r *validateRun) result(v toValidate, errs field.ErrorList, warnings []validation.DropWarning) validationResult {
	r.sum.Objects++
	res := validationResult{Source: v.obj.Doc.Source, Document: v.obj.Doc.Index, Line: v.obj.Line(), Path: v.obj.At,
		APIVersion: v.gvk.GroupVersion().String(), Kind: v.gvk.Kind, Namespace: v.obj.Head.Metadata.Namespace, Name: v.obj.Head.Metadata.Name, Valid: true, CheckedAs: v.checkedAs}
	for _, w := range warnings {
		vw := validationWarning{Field: w.Path, Message: droppedMessage(w)}
		for _, g := range w.Gates {
			vw.FeatureGates = append(vw.FeatureGates, string(g))
		}
		res.Warnings = append(res.Warnings, vw)
	}
	r.sum.Dropped += len(warnings)
	if missed := r.namespaces.missed; len(missed) > 0 {
		res.Warnings = append(res.Warnings, validationWarning{Message: fmt.Sprintf("the admin-access rule was not checked: namespace %q has no Namespace document in the input", missed[0])})
	}
	if len(errs) == 0 {
		r.sum.Valid++
		return res
	}
	r.sum.Invalid++
	status := apierrors.NewInvalid(v.groupKind(), v.obj.Head.Metadata.Name, errs)
	res.Valid = false
	res.Message = status.Error()
	if status.ErrStatus.Details != nil {
		res.Causes = status.ErrStatus.Details.Causes
	}
	return res
}

// print writes one object's outcome as text: how it was checked and its
// warnings on standard error, the reasons it is invalid on standard
// output.
func (r *validateRun) print(v toValidate, res validationResult) {
	gk := v.groupKind()
	if res.CheckedAs != "" {
		r.out.Flush()
		fmt.Fprintf(r.s.ErrOut, "%s: %s %q: checked as %s\n", location(v.obj), gk, v.obj.Head.Metadata.Name, res.CheckedAs)
	}
	if len(res.Warnings) > 0 {
		r.out.Flush()
		for _, w := range res.Warnings {
			what := w.Message
			if w.Field != "" {
				what = w.Field + " " + w.Message
			}
			fmt.Fprintf(r.s.ErrOut, "%s: %s %q: warning: %s\n", location(v.obj), gk, v.obj.Head.Metadata.Name, what)
		}
	}
	if !res.Valid {
		fmt.Fprintf(r.out, "%s: %s\n", location(v.obj), foldLines(res.Message))
	}
}

// finish writes the summary (or the JSON report) and decides the exit
// code.
func (r *validateRun) finish() error {
	if r.report != nil {
		if err := r.report.finish(r.sum); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(r.out, summaryLine(r.sum, r.asVersion))
	}
	if err := r.out.Flush(); err != nil {
		return err
	}
	if r.sum.Invalid > 0 || r.sum.Errors > 0 || r.sum.LintErrors > 0 {
		return cmdutil.ErrFailed
	}
	return nil
}

// readNamespace records the labels of a core/v1 Namespace document.
func readNamespace(obj *objects.Object, strict bool, book *namespaceBook, problem func(*manifest.Error, bool)) {
	ns := &corev1.Namespace{}
	warnings, e := obj.Doc.Decode(obj.JSON, ns, strict, obj.At)
	for _, w := range warnings {
		w.Object = obj.Name()
		problem(w, true)
	}
	if e != nil {
		e.Object = obj.Name()
		problem(e, false)
		return
	}
	if !book.add(ns.Name, ns.Labels) {
		problem(obj.Errorf("a second Namespace named %q", ns.Name), false)
	}
}

// location is "file:line: document N" for an object, with the list item.
func location(obj *objects.Object) string {
	loc := fmt.Sprintf("%s:%d: document %d", obj.Doc.Source, obj.Line(), obj.Doc.Index)
	if obj.At != "" {
		loc += ": " + obj.At
	}
	return loc
}

func summaryLine(sum validationSummary, asVersion *schema.GroupVersion) string {
	line := fmt.Sprintf("Summary: %d %s, %d valid, %d invalid", sum.Objects, cmdutil.Plural(sum.Objects, "object", "objects"), sum.Valid, sum.Invalid)
	if sum.Dropped > 0 {
		line += fmt.Sprintf("; %d %s would be dropped (feature gates off)", sum.Dropped, cmdutil.Plural(sum.Dropped, "field", "fields"))
	}
	if sum.NotInTarget > 0 && asVersion != nil {
		line += fmt.Sprintf("; %d left out (kind not in %s)", sum.NotInTarget, asVersion)
	}
	if sum.Skipped > 0 {
		var kinds []string
		for k, n := range sum.ByKind {
			kinds = append(kinds, fmt.Sprintf("%s: %d", k, n))
		}
		sort.Strings(kinds)
		line += fmt.Sprintf("; %d of other groups skipped (%s)", sum.Skipped, strings.Join(kinds, ", "))
	}
	if sum.Errors > 0 {
		line += fmt.Sprintf("; %d input %s", sum.Errors, cmdutil.Plural(sum.Errors, "error", "errors"))
	}
	if sum.NodeGroups > 0 {
		line += fmt.Sprintf("; %d node %s linted", sum.NodeGroups, cmdutil.Plural(sum.NodeGroups, "group", "groups"))
	}
	if sum.LintErrors > 0 || sum.LintWarnings > 0 {
		line += fmt.Sprintf("; lint: %d %s, %d %s", sum.LintErrors, cmdutil.Plural(sum.LintErrors, "error", "errors"), sum.LintWarnings, cmdutil.Plural(sum.LintWarnings, "warning", "warnings"))
	}
	return line
}

// jsonReport writes the JSON report as it goes, so that memory does not
// grow with the number of objects.
type jsonReport struct {
	w     io.Writer
	n     int
	err   error
	start bool
}

func newJSONReport(w io.Writer) *jsonReport { return &jsonReport{w: w} }

func (r *jsonReport) add(res validationResult) {
	if r.err != nil {
		return
	}
	if !r.start {
		_, r.err = io.WriteString(r.w, "{\n    \"results\": [\n")
		r.start = true
	} else {
		_, r.err = io.WriteString(r.w, ",\n")
	}
	if r.err != nil {
		return
	}
	r.err = writeIndented(r.w, res, "        ")
	r.n++
}

func (r *jsonReport) finish(sum validationSummary) error {
	if r.err != nil {
		return r.err
	}
	if !r.start {
		if _, err := io.WriteString(r.w, "{\n    \"results\": ["); err != nil {
			return err
		}
	} else if _, err := io.WriteString(r.w, "\n    "); err != nil {
		return err
	}
	if _, err := io.WriteString(r.w, "],\n    \"summary\": "); err != nil {
		return err
	}
	if len(sum.ByKind) == 0 {
		sum.ByKind = nil
	}
	if err := writeIndented(r.w, sum, "    "); err != nil {
		return err
	}
	_, err := io.WriteString(r.w, "\n}\n")
	return err
}

func writeIndented(w io.Writer, v any, prefix string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // CEL expressions are full of & and <
	enc.SetIndent(prefix, "    ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	if strings.HasSuffix(prefix, "        ") {
		if _, err := io.WriteString(w, prefix); err != nil {
			return err
		}
	}
	_, err := w.Write(bytes.TrimRight(buf.Bytes(), "\n"))
	return err
}

func asManifestError(err error) *manifest.Error {
	if e, ok := err.(*manifest.Error); ok {
		return e
	}
	return &manifest.Error{Err: err}
}

// foldLines puts a multi-line message (CEL compile errors have several) on
// one line, so that every invalid object takes exactly one line.
func foldLines(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, " ")
}

// validateSafely runs the validation, turning a panic (a bug met by one
// object) into a result, so that one object cannot crash the command, and
// gives up after timeout (if not 0), leaving the validation running: the
// command stops then.
func validateSafely(obj runtime.Object, validate func(runtime.Object, validation.Options) (field.ErrorList, []validation.DropWarning), opts validation.Options, timeout time.Duration) (errs field.ErrorList, warnings []validation.DropWarning, panicked any, timedOut bool) {
	type answer struct {
		errs     field.ErrorList
		warnings []validation.DropWarning
		panicked any
	}
	done := make(chan answer, 1)
	go func() {
		var a answer
		defer func() {
			a.panicked = recover()
			done <- a
		}()
		a.errs, a.warnings = validate(obj, opts)
	}()
	var expired <-chan time.Time
	if timeout > 0 {
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case a := <-done:
		return a.errs, a.warnings, a.panicked, false
	case <-expired:
		return nil, nil, nil, true
	}
}
