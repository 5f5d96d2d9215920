package webhook

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	yamlutil "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cliresource "k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/inputs"
	"github.com/drakit/drakit/driverconfig/admissionconfig"
)

var (
	lintLong = `Check ValidatingWebhookConfigurations, MutatingWebhookConfigurations and
ValidatingAdmissionPolicies (admissionregistration.k8s.io/v1, and v1beta1
policies), from files
(-f) or a live cluster (--from-cluster, read-only), against what a
Kubernetes release serves of resource.k8s.io (--release, or with
--from-cluster and no --release the cluster's own discovery).

It reports
  - rules that name a resource.k8s.io version, or a resource in a version,
    the release does not serve (warning: written for another release);
  - rules that match nothing there, because none of their versions serves
    a resource they name (error: those objects are stored unchecked; an
    admission policy that lists only v1beta1 on a 1.38 cluster);
  - with matchPolicy Exact, served versions a rule leaves out (error: those
    requests skip the webhook or policy);
  - CEL (policies' validations, message expressions, variables, match
    conditions and audit annotations; webhooks' match conditions) that does
    not type-check against the objects of the versions the rules match:
    another version's field paths, such as v1beta1's flat
    requests[].adminAccess or requests[].deviceClassName on v1 objects,
    where v1 has requests[].exactly. The API server's own policy type
    checker does the checking, with drakit's OpenAPI documents.

A lint of admission configuration, not of resource.k8s.io objects (which
drakit validate checks), so it lives with drakit webhook config, which
writes configurations that pass it. Exit code 1 when there is an error.`

	lintExample = `  # Before upgrading a cluster to 1.37: its webhooks and policies against 1.37
  drakit webhook lint --from-cluster --release 1.37

  # A Helm chart's output
  helm template gpu-driver ./chart | drakit webhook lint -f - --release 1.34`
)

// LintOptions are the options of "drakit webhook lint".
type LintOptions struct {
	cliresource.FilenameOptions
	ClusterFlags *cluster.Flags
	FromCluster  bool
	Release      string

	objs   []runtime.Object
	served *admissionconfig.Served
	genericiooptions.IOStreams
}

// NewLintOptions are the options with their defaults.
func NewLintOptions(streams genericiooptions.IOStreams) *LintOptions {
	return &LintOptions{ClusterFlags: cluster.NewFlags(), IOStreams: streams}
}

// NewCmdLint is "drakit webhook lint".
func NewCmdLint(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewLintOptions(streams)
	cmd := &cobra.Command{
		Use:     "lint (-f FILENAME | --from-cluster) [--release 1.N]",
		Short:   "Check webhook configurations and admission policies against the resource.k8s.io versions a release serves",
		Long:    lintLong,
		Example: lintExample,
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
	inputs.AddFilenameFlags(cmd, &o.FilenameOptions, "to check")
	o.ClusterFlags.AddTo(cmd.Flags(), false)
	cmd.Flags().BoolVar(&o.FromCluster, "from-cluster", o.FromCluster, "check the webhook configurations and policies of the cluster of kubectl's connection flags")
	cmd.Flags().StringVar(&o.Release, "release", o.Release, "the Kubernetes release to check against, as 1.MINOR (default with --from-cluster: what the cluster serves)")
	_ = cmd.RegisterFlagCompletionFunc("release", releaseCompletion)
	return cmd
}

// Complete reads the objects and the target.
func (o *LintOptions) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	if o.FromCluster == (len(o.Filenames) > 0) {
		return cmdutil.UsageErrorf("give the objects to check: -f FILENAME or --from-cluster (one of them)")
	}
	if !o.FromCluster && o.Release == "" {
		return cmdutil.UsageErrorf("give the release to check against: --release 1.N")
	}
	var c *cluster.Cluster
	if o.FromCluster {
		var err error
		if c, err = f.Cluster(o.ClusterFlags); err != nil {
			return err
		}
		if o.objs, err = readFromCluster(c); err != nil {
			return err
		}
	} else {
		ins, err := inputs.Expand(o.FilenameOptions)
		if err != nil {
			return err
		}
		for _, in := range ins {
			objs, err := readFile(in, o.In)
			if err != nil {
				return err
			}
			o.objs = append(o.objs, objs...)
		}
	}
	if o.Release != "" {
		minor, err := parseRelease(o.Release)
		if err != nil {
			return err
		}
		o.served, err = admissionconfig.ServedByRelease(minor)
		return err
	}
	var err error
	o.served, err = servedByCluster(c)
	return err
}

// Validate has nothing more to check.
func (o *LintOptions) Validate() error { return nil }

// Run prints the findings, one per line.
func (o *LintOptions) Run() error {
	findings := admissionconfig.Lint(o.objs, o.served)
	errs := 0
	for _, f := range findings {
		fmt.Fprintln(o.Out, f.String())
		if f.Severity == admissionconfig.Error {
			errs++
		}
	}
	fmt.Fprintf(o.ErrOut, "%d %s checked against %s: %d %s, %d %s.\n",
		len(o.objs), cmdutil.Plural(len(o.objs), "webhook configuration or policy", "webhook configurations and policies"), o.served.About,
		errs, cmdutil.Plural(errs, "error", "errors"), len(findings)-errs, cmdutil.Plural(len(findings)-errs, "warning", "warnings"))
	if errs > 0 {
		return cmdutil.ErrFailed
	}
	return nil
}

// readFromCluster lists the cluster's webhook configurations and
// policies. A cluster that does not serve policies (before 1.30) has
// none.
func readFromCluster(c *cluster.Cluster) ([]runtime.Object, error) {
	ctx := context.Background()
	ar := c.Kube.AdmissionregistrationV1()
	var out []runtime.Object
	vwcs, err := ar.ValidatingWebhookConfigurations().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, c.Explain(err, "listing validatingwebhookconfigurations")
	}
	for i := range vwcs.Items {
		out = append(out, &vwcs.Items[i])
	}
	mwcs, err := ar.MutatingWebhookConfigurations().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, c.Explain(err, "listing mutatingwebhookconfigurations")
	}
	for i := range mwcs.Items {
		out = append(out, &mwcs.Items[i])
	}
	vaps, err := ar.ValidatingAdmissionPolicies().List(ctx, metav1.ListOptions{})
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		return nil, c.Explain(err, "listing validatingadmissionpolicies")
	default:
		for i := range vaps.Items {
			out = append(out, &vaps.Items[i])
		}
	}
	return out, nil
}

// readFile reads the documents of one input (a List's items count as
// documents) and keeps the admissionregistration.k8s.io/v1 objects it
// checks; other objects are skipped. A document of those kinds in
// another version is an error that says which version to give.
func readFile(in inputs.Input, stdin io.Reader) ([]runtime.Object, error) {
	var r io.Reader = stdin
	if in.Path != "" {
		f, err := os.Open(in.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.Name, err)
		}
		defer f.Close()
		r = f
	}
	dec := yamlutil.NewYAMLOrJSONDecoder(bufio.NewReader(r), 4096)
	var out []runtime.Object
	for doc := 1; ; doc++ {
		var u unstructured.Unstructured
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, fmt.Errorf("%s: document %d: %w", in.Name, doc, err)
		}
		if u.Object == nil {
			continue
		}
		items := []unstructured.Unstructured{u}
		if u.IsList() {
			l, err := u.ToList()
			if err != nil {
				return nil, fmt.Errorf("%s: document %d: %w", in.Name, doc, err)
			}
			items = l.Items
		}
		for _, item := range items {
			obj, err := typed(item)
			if err != nil {
				return nil, fmt.Errorf("%s: document %d: %w", in.Name, doc, err)
			}
			if obj != nil {
				out = append(out, obj)
			}
		}
	}
}

// checked are the kinds lint reads.
var checked = map[string]bool{"ValidatingWebhookConfiguration": true, "MutatingWebhookConfiguration": true, "ValidatingAdmissionPolicy": true}

func typed(u unstructured.Unstructured) (runtime.Object, error) {
	gvk := u.GroupVersionKind()
	if gvk.Group != admissionregistrationv1.GroupName || !checked[gvk.Kind] {
		return nil, nil
	}
	v1 := gvk.GroupVersion().WithKind(gvk.Kind)
	v1.Version = "v1"
	switch {
	case gvk.Version == "v1":
	case gvk.Version == "v1beta1" && gvk.Kind == "ValidatingAdmissionPolicy":
		// A v1beta1 policy (1.28-1.33 charts) has v1's fields and
		// defaults: read it as v1.
		u.SetAPIVersion(v1.GroupVersion().String())
	default:
		return nil, fmt.Errorf("%s %s is %s: drakit webhook lint reads admissionregistration.k8s.io/v1 (and v1beta1 ValidatingAdmissionPolicies); kubectl get -o yaml writes v1", gvk.Kind, u.GetName(), gvk.GroupVersion())
	}
	obj, err := scheme.Scheme.New(v1)
	if err != nil {
		return nil, err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(u.Object, obj, true); err != nil {
		return nil, fmt.Errorf("%s %s: %w", gvk.Kind, u.GetName(), err)
	}
	return obj, nil
}
