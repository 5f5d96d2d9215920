// Package upgradecheck is "drakit upgrade-check": before a cluster moves
// from one Kubernetes release to another, what of its resource.k8s.io
// objects, manifests, admission webhooks and policies and RBAC rules
// breaks on the target, with what to do, and, for a live cluster, a
// storage plan proven on its objects. The checks are package preflight's;
// this package reads the manifests and the cluster and reports.
package upgradecheck

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cliresource "k8s.io/cli-runtime/pkg/resource"
	sjson "sigs.k8s.io/json"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/inputs"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/objects"
	"github.com/drakit/drakit/preflight"
)

var (
	upgradeCheckLong = `Check, before an upgrade or a downgrade, what breaks on the target
release (--to) of Kubernetes DRA (resource.k8s.io): in manifests (-f:
files, directories with -R, or - for standard input, such as the output of
helm template) and in a live cluster (--from-cluster, with kubectl's
connection flags; nothing is written to it).

Releases: ` + catalogue.KnownReleases() + `. A control plane
moves one release at a time; the check walks every release between --from
and --to.

It reports, each finding with its object (file:line and document for
manifests), why and what to do:

  - stored objects a release on the way cannot read (by the storage
    versions of every release: 1.31 cannot read 1.30's v1alpha2; objects
    stored before 1.32 must be rewritten before 1.34), kinds the target
    does not have, and downgrades that are not supported (1.32 to 1.31,
    1.35 to 1.33); needs --from, or --from-cluster;
  - resource.k8s.io manifests in a version the target does not serve,
    serves only with --runtime-config, or deprecates;
  - fields the target's version cannot say, fields the target drops on
    write because their feature gate is off there by default (or they do
    not exist yet), and fields that take effect only on the target;
  - objects the target's validation refuses (on create for manifests, on
    their next update for a cluster's objects);
  - ValidatingWebhookConfigurations, MutatingWebhookConfigurations and
    ValidatingAdmissionPolicies whose rules match, on the target with its
    default versions, no version of a DRA resource they name (a rule for
    v1beta1 only on a cluster serving v1), or whose CEL expressions use
    fields of another version's shape;
  - Roles and ClusterRoles (aggregated ones with the rules they collect)
    granting on resources the target lacks, and, from 1.36, status
    writers without resourceclaims/binding or resourceclaims/driver.

With --storage-plan (and --from-cluster), every kind the cluster holds gets
a plan (a StorageVersionMigration, a rewrite, or export, convert and
recreate), proven on each object: it is converted to the version the plan
writes and back, compared, and validated with that release's rules; the
objects that would not survive are listed.

The facts (what each release serves, enables, deprecates, removes and
stores) are drakit's catalogue: drakit version -o json lists them with
their sources.

Exit code 0 when nothing breaks, 1 when a finding breaks (or an input
could not be read, or a planned object would not survive), 2 for a wrong
command line. With -o json the report is one JSON object for CI.`

	upgradeCheckExample = `  # What in these manifests breaks on 1.37?
  drakit upgrade-check -f manifests/ -R --to 1.37

  # A chart, rendered
  helm template my-driver ./chart | drakit upgrade-check -f - --from 1.33 --to 1.34

  # This cluster, before its upgrade to 1.38, for CI
  drakit upgrade-check --from-cluster --to 1.38 -o json

  # Can this cluster go back to 1.33? With the storage plan of its objects
  drakit upgrade-check --from-cluster --to 1.33 --storage-plan`
)

// Options are the options of "drakit upgrade-check".
type Options struct {
	cliresource.FilenameOptions
	// From and To are --from and --to ("1.33").
	From, To string
	// FromCluster checks the cluster of ClusterFlags.
	FromCluster  bool
	ClusterFlags *cluster.Flags
	// StoragePlan makes and proves the storage plan (--from-cluster).
	StoragePlan bool
	// Output is -o: empty for text, or json.
	Output string

	from, to int
	inputs   []inputs.Input

	genericiooptions.IOStreams
}

// NewOptions are the options with their defaults.
func NewOptions(streams genericiooptions.IOStreams) *Options {
	return &Options{ClusterFlags: cluster.NewFlags(), IOStreams: streams}
}

// NewCmdUpgradeCheck is "drakit upgrade-check".
func NewCmdUpgradeCheck(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewOptions(streams)
	cmd := &cobra.Command{
		Use:     "upgrade-check --to RELEASE [-f FILENAME | --from-cluster]",
		Short:   "Check what breaks in manifests or a cluster on an upgrade or downgrade, with a storage plan",
		Long:    upgradeCheckLong,
		Example: upgradeCheckExample,
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
	inputs.AddFilenameFlags(cmd, &o.FilenameOptions, "to check")
	cmd.Flags().StringVar(&o.To, "to", o.To, "the target release (1.26 to 1.38)")
	cmd.Flags().StringVar(&o.From, "from", o.From, "the release the cluster runs (with --from-cluster: the server's)")
	cmd.Flags().BoolVar(&o.FromCluster, "from-cluster", o.FromCluster, "check the cluster of kubectl's connection flags: its DRA objects, webhook configurations, admission policies and RBAC roles (nothing is written)")
	cmd.Flags().BoolVar(&o.StoragePlan, "storage-plan", o.StoragePlan, "with --from-cluster: the storage plan of every kind the cluster holds, proven on its objects")
	cmd.Flags().StringVarP(&o.Output, "output", "o", o.Output, "output format: empty for text, or json")
	o.ClusterFlags.AddTo(cmd.Flags(), false)
	_ = cmd.RegisterFlagCompletionFunc("output", cmdutil.FixedCompletion("json"))
	releases := make([]string, 0, catalogue.Announced-catalogue.FirstRelease+1)
	for m := catalogue.FirstRelease; m <= catalogue.Announced; m++ {
		releases = append(releases, fmt.Sprintf("1.%d", m))
	}
	_ = cmd.RegisterFlagCompletionFunc("to", cmdutil.FixedCompletion(releases...))
	_ = cmd.RegisterFlagCompletionFunc("from", cmdutil.FixedCompletion(releases...))
	return cmd
}

// Complete reads --to, --from and -o, and lists the inputs.
func (o *Options) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	var err error
	if o.To == "" {
		return cmdutil.UsageErrorf("--to is required: the release to check against (%s)", catalogue.KnownReleases())
	}
	if o.to, err = parseRelease("--to", o.To); err != nil {
		return err
	}
	if o.From != "" {
		if o.from, err = parseRelease("--from", o.From); err != nil {
			return err
		}
	}
	if o.Output != "" && o.Output != "json" {
		return cmdutil.UsageErrorf("unknown output format %q: leave -o out for text, or use json", o.Output)
	}
	if len(o.Filenames) > 0 {
		o.inputs, err = inputs.Expand(o.FilenameOptions)
	}
	return err
}

func parseRelease(flag, value string) (int, error) {
	minor, err := catalogue.ParseRelease(value)
	if err != nil {
		return 0, cmdutil.UsageErrorf("%s: %v", flag, err)
	}
	if !catalogue.KnownRelease(minor) {
		return 0, cmdutil.UsageErrorf("%s %s: drakit knows %s", flag, value, catalogue.KnownReleases())
	}
	return minor, nil
}

// Validate checks that there is something to check.
func (o *Options) Validate() error {
	if len(o.Filenames) == 0 && !o.FromCluster {
		return cmdutil.UsageErrorf("nothing to check: give manifests with -f, or --from-cluster")
	}
	if o.StoragePlan && !o.FromCluster {
		return cmdutil.UsageErrorf("--storage-plan needs --from-cluster: the plan is proven on the cluster's objects")
	}
	return nil
}

// Report is what upgrade-check prints with -o json.
type Report struct {
	From string `json:"from,omitempty"`
	To   string `json:"to"`
	// Direction is "upgrade", "downgrade" or "same".
	Direction   string               `json:"direction,omitempty"`
	Findings    []preflight.Finding  `json:"findings"`
	Summary     preflight.Summary    `json:"summary"`
	StoragePlan []preflight.PlanStep `json:"storagePlan,omitempty"`
	// InputErrors are the inputs that could not be read.
	InputErrors []string `json:"inputErrors,omitempty"`
	// Checked counts what was checked, by kind.
	Checked map[string]int `json:"checked"`
}

// run is one run: what was found so far.
type run struct {
	o       *Options
	checker preflight.Checker
	report  Report
	// roles are the ClusterRoles of the manifests, checked at the end
	// when aggregation has filled them.
	roles []placedRole
}

type placedRole struct {
	role *rbacv1.ClusterRole
	obj  *objects.Object
}

// Run checks and reports.
func (o *Options) Run(f cmdutil.Factory) error {
	r := &run{o: o, report: Report{Checked: map[string]int{}}}
	var c *cluster.Cluster
	if o.FromCluster {
		var err error
		if c, err = f.Cluster(o.ClusterFlags); err != nil {
			return err
		}
		gitVersion, minor, err := c.ServerRelease()
		if err != nil {
			return err
		}
		if o.from != 0 && o.from != minor {
			return cmdutil.UsageErrorf("--from %s, but the cluster runs %s: leave --from out with --from-cluster", o.From, gitVersion)
		}
		if !catalogue.KnownRelease(minor) {
			return fmt.Errorf("the cluster runs %s: drakit knows %s", gitVersion, catalogue.KnownReleases())
		}
		o.from = minor
	}
	r.checker = preflight.Checker{From: o.from, To: o.to}
	r.report.To = fmt.Sprintf("1.%d", o.to)
	if o.from != 0 {
		r.report.From = fmt.Sprintf("1.%d", o.from)
		r.report.Direction = direction(o.from, o.to)
	}
	for _, in := range o.inputs {
		r.readInput(in)
	}
	r.checkRoles()
	if c != nil {
		if err := r.checkCluster(c); err != nil {
			return err
		}
	} else if o.from != 0 {
		r.add(preflight.CheckStorage(o.from, o.to, nil)...)
	}
	preflight.Sort(r.report.Findings)
	r.report.Summary = preflight.Summarize(r.report.Findings)
	if r.report.Findings == nil {
		r.report.Findings = []preflight.Finding{}
	}
	if err := r.print(); err != nil {
		return err
	}
	failedPlan := false
	for _, s := range r.report.StoragePlan {
		failedPlan = failedPlan || len(s.Failed) > 0
	}
	if r.report.Summary.Breaking > 0 || len(r.report.InputErrors) > 0 || failedPlan {
		return cmdutil.ErrFailed
	}
	return nil
}

func direction(from, to int) string {
	switch {
	case to > from:
		return "upgrade"
	case to < from:
		return "downgrade"
	}
	return "same"
}

func (r *run) add(fs ...preflight.Finding) {
	r.report.Findings = append(r.report.Findings, fs...)
}

// problem records an input that could not be read.
func (r *run) problem(e *manifest.Error, warning bool) {
	if warning {
		return
	}
	r.report.InputErrors = append(r.report.InputErrors, e.Error())
}

func (r *run) readInput(in inputs.Input) {
	rc, err := in.Open(r.o.In)
	if err != nil {
		r.report.InputErrors = append(r.report.InputErrors, err.Error())
		return
	}
	defer rc.Close()
	rd := &objects.Reader{Report: r.problem}
	_ = rd.Each(manifest.NewReader(rc, in.Name), func(obj *objects.Object) error {
		r.checkManifest(obj)
		return nil
	})
}

// checkManifest checks one object of the input.
func (r *run) checkManifest(obj *objects.Object) {
	name := obj.Name()
	apiVersion := obj.Head.APIVersion
	var fs []preflight.Finding
	switch {
	case obj.Typed != nil:
		fs = r.checker.CheckObject(obj.Typed, name)
	case obj.GVK.Group == admissionregistrationv1.GroupName && obj.GVK.Kind == "ValidatingWebhookConfiguration":
		var cfg admissionregistrationv1.ValidatingWebhookConfiguration
		if !r.decode(obj, &cfg) {
			return
		}
		fs = r.checker.CheckRules(preflight.CheckWebhook, name, apiVersion, preflight.WebhookRules(&cfg))
	case obj.GVK.Group == admissionregistrationv1.GroupName && obj.GVK.Kind == "MutatingWebhookConfiguration":
		var cfg admissionregistrationv1.MutatingWebhookConfiguration
		if !r.decode(obj, &cfg) {
			return
		}
		fs = r.checker.CheckRules(preflight.CheckWebhook, name, apiVersion, preflight.MutatingWebhookRules(&cfg))
	case obj.GVK.Group == admissionregistrationv1.GroupName && obj.GVK.Kind == "ValidatingAdmissionPolicy":
		// v1 and v1beta1 have the same shape in what is read here.
		var p admissionregistrationv1.ValidatingAdmissionPolicy
		if !r.decode(obj, &p) {
			return
		}
		fs = r.checkPolicy(name, apiVersion, &p)
	case obj.GVK.Group == rbacv1.GroupName && obj.GVK.Kind == "ClusterRole":
		var role rbacv1.ClusterRole
		if !r.decode(obj, &role) {
			return
		}
		r.roles = append(r.roles, placedRole{role: &role, obj: obj})
		return
	case obj.GVK.Group == rbacv1.GroupName && obj.GVK.Kind == "Role":
		var role rbacv1.Role
		if !r.decode(obj, &role) {
			return
		}
		fs = r.checker.CheckRole(name, apiVersion, role.Rules, false)
	default:
		r.report.Checked["other"]++
		return
	}
	r.report.Checked[obj.Head.Kind]++
	for i := range fs {
		r.place(&fs[i], obj)
	}
	r.add(fs...)
}

func (r *run) checkPolicy(name, apiVersion string, p *admissionregistrationv1.ValidatingAdmissionPolicy) []preflight.Finding {
	rules := preflight.PolicyRules(p.Spec.MatchConstraints)
	fs := r.checker.CheckRules(preflight.CheckPolicyMatch, name, apiVersion, rules)
	cel := r.checker.CheckPolicyCEL(name, apiVersion, rules, preflight.PolicyExpressions(&p.Spec))
	seen := map[string]bool{}
	for _, f := range cel {
		seen[f.Path] = true
	}
	fs = append(fs, cel...)
	return append(fs, r.checker.TypeCheckPolicy(name, apiVersion, p, seen)...)
}

// checkRoles checks the ClusterRoles of the manifests, aggregated ones
// with the rules of the roles they select.
func (r *run) checkRoles() {
	roles := make([]*rbacv1.ClusterRole, len(r.roles))
	for i, p := range r.roles {
		roles[i] = p.role
	}
	preflight.Aggregate(roles)
	for _, p := range r.roles {
		r.report.Checked["ClusterRole"]++
		fs := r.checker.CheckRole(p.obj.Name(), p.obj.Head.APIVersion, p.role.Rules, true)
		for i := range fs {
			if p.role.AggregationRule != nil {
				fs[i].Why = "(aggregated) " + fs[i].Why
				fs[i].Path = "aggregationRule"
			}
			r.place(&fs[i], p.obj)
		}
		r.add(fs...)
	}
}

// decode reads obj's JSON into out; a failure is an input error.
func (r *run) decode(obj *objects.Object, out any) bool {
	if err := sjson.UnmarshalCaseSensitivePreserveInts(obj.JSON, out); err != nil {
		r.problem(obj.Errorf("%v", err), false)
		return false
	}
	return true
}

// place sets the finding's file, document and line: the field's line
// where the manifest has it, else the object's.
func (r *run) place(f *preflight.Finding, obj *objects.Object) {
	f.Source, f.Document, f.Line = obj.Doc.Source, obj.Doc.Index, obj.Line()
	if f.Path == "" {
		return
	}
	path := f.Path
	if i := strings.IndexAny(path, ", "); i >= 0 {
		path = path[:i]
	}
	if obj.At != "" {
		path = obj.At + "." + path
	}
	if l := obj.Doc.FieldLine(path, false); l > 0 {
		f.Line = l
	}
}

// print writes the report: JSON, or text grouped by severity and check,
// findings with the same why and what to do written once with their
// places.
func (r *run) print() error {
	w := bufio.NewWriter(r.o.Out)
	defer w.Flush()
	if r.o.Output == "json" {
		data, err := json.MarshalIndent(r.report, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", data)
		return err
	}
	rep := r.report
	head := "Checked against " + rep.To
	if rep.From != "" && rep.From != rep.To {
		head = fmt.Sprintf("Checked %s from %s to %s", rep.Direction, rep.From, rep.To)
	}
	fmt.Fprintf(w, "%s: %d breaking, %d %s, %d informational.\n", head, rep.Summary.Breaking, rep.Summary.Warning, cmdutil.Plural(rep.Summary.Warning, "warning", "warnings"), rep.Summary.Info)
	// Inputs that could not be read go to standard error, as kubectl
	// writes errors (with -o json they are in the report).
	for _, e := range rep.InputErrors {
		fmt.Fprintf(r.o.ErrOut, "error: %s\n", e)
	}
	for _, sev := range []preflight.Severity{preflight.Breaking, preflight.Warning, preflight.Info} {
		groups := group(rep.Findings, sev)
		if len(groups) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", sev)
		for _, g := range groups {
			fmt.Fprintf(w, "  [%s] %s (%d)\n", g.check, g.why, len(g.places))
			fmt.Fprintf(w, "    do: %s\n", g.do)
			for i, p := range g.places {
				if i == maxPlaces && len(g.places) > maxPlaces+1 {
					fmt.Fprintf(w, "    ... and %d more (-o json lists all)\n", len(g.places)-maxPlaces)
					break
				}
				fmt.Fprintf(w, "    %s\n", p)
			}
		}
	}
	if len(rep.StoragePlan) > 0 {
		fmt.Fprintf(w, "\nStorage plan:\n")
		for _, s := range rep.StoragePlan {
			fmt.Fprintf(w, "  %s: %d %s, %s on %s as %s: %d proven, %d would not survive\n", s.Resource, s.Objects, cmdutil.Plural(s.Objects, "object", "objects"), s.Method, s.Release, s.Version, s.Proven, len(s.Failed))
			fmt.Fprintf(w, "    why: %s\n", s.Why)
			for _, c := range s.Commands {
				fmt.Fprintf(w, "    $ %s\n", strings.ReplaceAll(c, "\n", "\n      "))
			}
			for i, fl := range s.Failed {
				if i == maxPlaces {
					fmt.Fprintf(w, "    ... and %d more (-o json lists all)\n", len(s.Failed)-maxPlaces)
					break
				}
				fmt.Fprintf(w, "    not surviving: %s: %s\n", fl.Object, fl.Why)
			}
		}
	}
	return nil
}

// maxPlaces is how many places of a group the text output lists.
const maxPlaces = 10

type findingGroup struct {
	check, why, do string
	places         []string
}

// group collects the findings of severity sev that share check, why and
// what to do, in the order of the (sorted) findings.
func group(findings []preflight.Finding, sev preflight.Severity) []*findingGroup {
	var out []*findingGroup
	index := map[string]*findingGroup{}
	for _, f := range findings {
		if f.Severity != sev {
			continue
		}
		key := f.Check + "\x00" + f.Why + "\x00" + f.Do
		g, ok := index[key]
		if !ok {
			g = &findingGroup{check: f.Check, why: f.Why, do: f.Do}
			index[key] = g
			out = append(out, g)
		}
		g.places = append(g.places, placeOf(f))
	}
	return out
}

// placeOf writes where a finding is: file:line: document n: object:
// path, or the object and the objects it covers.
func placeOf(f preflight.Finding) string {
	var b strings.Builder
	if f.Source != "" {
		b.WriteString(f.Source)
		if f.Line > 0 {
			fmt.Fprintf(&b, ":%d", f.Line)
		}
		if f.Document > 0 {
			fmt.Fprintf(&b, ": document %d", f.Document)
		}
		b.WriteString(": ")
	}
	b.WriteString(f.Object)
	if f.APIVersion != "" && f.Source != "" {
		fmt.Fprintf(&b, " (%s)", f.APIVersion)
	}
	if f.Path != "" {
		b.WriteString(": " + f.Path)
	}
	if f.Release != "" && strings.HasPrefix(f.Object, "stored ") {
		b.WriteString(" on the way to " + f.Release)
	}
	if f.Count > 0 {
		names := f.Objects
		more := ""
		if len(names) > maxPlaces {
			names, more = names[:maxPlaces], fmt.Sprintf(", ... and %d more", len(f.Objects)-maxPlaces)
		}
		fmt.Fprintf(&b, ": %d %s: %s%s", f.Count, cmdutil.Plural(f.Count, "object", "objects"), strings.Join(names, ", "), more)
	}
	return b.String()
}
