package webhook

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/printer"
	"github.com/drakit/drakit/driverconfig/admissionconfig"
)

var (
	configLong = `Write the ValidatingWebhookConfiguration that sends a driver's opaque
configs to its webhook (the driverconfig admission handler, or drakit
webhook serve), for a Kubernetes release (--release) or a live cluster
(--from-cluster, from its discovery; nothing is written to it).

The rules name exactly the resource.k8s.io versions and resources the
target serves that hold opaque configs: DeviceClasses, ResourceClaims and
ResourceClaimTemplates (from 1.31), 1.30's ResourceClaimParameters and
ResourceClassParameters; CREATE and UPDATE; versions that are off by
default count (a cluster may enable them). failurePolicy is Fail (a webhook
that does not answer refuses rather than admits), sideEffects None,
admissionReviewVersions v1.

matchPolicy is Equivalent. Every served version is named, so requests
reach the webhook as the user sent them and the errors carry the user's
paths. Equivalent covers what the configuration does not name: a version
the cluster enables later or a release newer than the configuration. The
API server converts such a request to a named version and calls the
webhook with that, so nothing is stored unchecked and the webhook never
gets a version it does not understand. With Exact those requests would
skip the webhook silently, as a configuration listing only v1beta1 does on
a v1 cluster.

With --service-account NAMESPACE/NAME it also writes the
ValidatingAdmissionPolicy and its binding that let the driver's kubelet
plugin (that service account) create, update and delete only
ResourceSlices of the node its pod runs on and of its own driver names.
The node comes from the service account token
(request.userInfo.extra["authentication.kubernetes.io/node-name"], on by
default from 1.30); the policy needs 1.30 or later.`

	configExample = `  # A webhook behind a Service, for 1.33
  drakit webhook config --driver gpu.example.com --release 1.33 \
    --service-namespace gpu --service-name gpu-webhook --ca-bundle-file ca.crt

  # For the cluster of the current context, with the kubelet plugin's slice policy
  drakit webhook config --driver gpu.example.com --driver compute-domain.example.com --from-cluster \
    --url https://webhook.example.com:8443/validate --ca-bundle-file ca.crt \
    --service-account gpu/gpu-kubelet-plugin`
)

// ConfigOptions are the options of "drakit webhook config".
type ConfigOptions struct {
	ClusterFlags *cluster.Flags
	// FromCluster reads what the cluster serves; Release names a release
	// instead.
	FromCluster bool
	Release     string
	// Webhook is where and how the webhook is called.
	Webhook admissionconfig.WebhookOptions
	// ServiceNamespace, ServiceName, ServicePath and ServicePort build
	// Webhook.Service.
	ServiceNamespace, ServiceName, ServicePath string
	ServicePort                                int32
	// CABundleFile is read into Webhook.CABundle.
	CABundleFile string
	// ServiceAccount, NAMESPACE/NAME, adds the ResourceSlice policy.
	ServiceAccount string
	// Output is yaml or json.
	Output string

	minor  int
	served *admissionconfig.Served
	genericiooptions.IOStreams
}

// NewConfigOptions are the options with their defaults.
func NewConfigOptions(streams genericiooptions.IOStreams) *ConfigOptions {
	return &ConfigOptions{ClusterFlags: cluster.NewFlags(), ServicePath: "/validate", ServicePort: 443, Output: "yaml", IOStreams: streams}
}

// NewCmdConfig is "drakit webhook config".
func NewCmdConfig(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewConfigOptions(streams)
	cmd := &cobra.Command{
		Use:     "config --driver NAME (--release 1.N | --from-cluster) (--service-namespace NS --service-name NAME | --url URL)",
		Short:   "Write the webhook configuration (and the kubelet plugin's slice policy) a driver needs on a release or cluster",
		Long:    configLong,
		Example: configExample,
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
	o.ClusterFlags.AddTo(cmd.Flags(), false)
	fl := cmd.Flags()
	fl.StringArrayVar(&o.Webhook.Drivers, "driver", nil, "a driver name whose configs the webhook checks; repeat for a driver with several names")
	fl.StringVar(&o.Release, "release", o.Release, "the Kubernetes release to write for, as 1.MINOR")
	fl.BoolVar(&o.FromCluster, "from-cluster", o.FromCluster, "write for the cluster of kubectl's connection flags: the versions its discovery lists")
	fl.StringVar(&o.ServiceNamespace, "service-namespace", o.ServiceNamespace, "the namespace of the webhook's Service")
	fl.StringVar(&o.ServiceName, "service-name", o.ServiceName, "the name of the webhook's Service")
	fl.StringVar(&o.ServicePath, "service-path", o.ServicePath, "the path the webhook serves reviews on")
	fl.Int32Var(&o.ServicePort, "service-port", o.ServicePort, "the Service's port")
	fl.StringVar(&o.Webhook.URL, "url", o.Webhook.URL, "the webhook's https URL, instead of a Service")
	fl.StringVar(&o.CABundleFile, "ca-bundle-file", o.CABundleFile, "PEM file of the CA that signed the webhook's certificate (the configuration's caBundle)")
	fl.Int32Var(&o.Webhook.TimeoutSeconds, "timeout-seconds", admissionconfig.DefaultTimeoutSeconds, "how long the API server waits for the webhook (1 to 30)")
	fl.StringVar(&o.Webhook.Name, "name", o.Webhook.Name, `the configuration's name (default "<driver>-opaque-config")`)
	fl.StringVar(&o.Webhook.WebhookName, "webhook-name", o.Webhook.WebhookName, `the webhook's name (default "opaque-config.<driver>")`)
	fl.StringVar(&o.ServiceAccount, "service-account", o.ServiceAccount, "NAMESPACE/NAME of the driver's kubelet plugin: also write the policy that limits it to ResourceSlices of its node and driver")
	fl.StringVarP(&o.Output, "output", "o", o.Output, "yaml or json")
	_ = cmd.MarkFlagRequired("driver")
	_ = cmd.RegisterFlagCompletionFunc("release", releaseCompletion)
	_ = cmd.RegisterFlagCompletionFunc("output", cmdutil.FixedCompletion("yaml", "json"))
	_ = cmd.MarkFlagFilename("ca-bundle-file", "crt", "pem")
	return cmd
}

// Complete reads the CA bundle and finds out what the target serves.
func (o *ConfigOptions) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	if o.FromCluster == (o.Release != "") {
		return cmdutil.UsageErrorf("give the target: --release 1.N or --from-cluster (one of them)")
	}
	if o.Output != "yaml" && o.Output != "json" {
		return cmdutil.UsageErrorf("--output %q: yaml or json", o.Output)
	}
	if o.ServiceName != "" || o.ServiceNamespace != "" {
		path := o.ServicePath
		port := o.ServicePort
		o.Webhook.Service = &admissionregistrationv1.ServiceReference{Namespace: o.ServiceNamespace, Name: o.ServiceName, Path: &path, Port: &port}
	}
	if o.CABundleFile != "" {
		data, err := os.ReadFile(o.CABundleFile)
		if err != nil {
			return fmt.Errorf("reading the CA bundle: %w", err)
		}
		if !bytes.Contains(data, []byte("-----BEGIN CERTIFICATE-----")) {
			return fmt.Errorf("%s holds no PEM certificate: --ca-bundle-file is the CA that signed the webhook's serving certificate", o.CABundleFile)
		}
		o.Webhook.CABundle = data
	}
	if o.Release != "" {
		minor, err := parseRelease(o.Release)
		if err != nil {
			return err
		}
		o.served, err = admissionconfig.ServedByRelease(minor)
		return err
	}
	c, err := f.Cluster(o.ClusterFlags)
	if err != nil {
		return err
	}
	o.served, err = servedByCluster(c)
	return err
}

// Validate checks the flags that go together.
func (o *ConfigOptions) Validate() error {
	if o.Webhook.Service != nil && o.Webhook.URL != "" {
		return cmdutil.UsageErrorf("--url and --service-name/--service-namespace: give one")
	}
	if o.Webhook.Service == nil && o.Webhook.URL == "" {
		return cmdutil.UsageErrorf("where is the webhook? give --service-namespace and --service-name, or --url")
	}
	if o.ServiceAccount != "" {
		ns, name, ok := strings.Cut(o.ServiceAccount, "/")
		if !ok || ns == "" || name == "" || strings.Contains(name, "/") {
			return cmdutil.UsageErrorf("--service-account %q: give NAMESPACE/NAME", o.ServiceAccount)
		}
	}
	return nil
}

// Run writes the objects.
func (o *ConfigOptions) Run() error {
	cfg, err := admissionconfig.ValidatingWebhookConfiguration(o.served, o.Webhook)
	if err != nil {
		return err
	}
	objs := []runtime.Object{cfg}
	if o.ServiceAccount != "" {
		ns, name, _ := strings.Cut(o.ServiceAccount, "/")
		vap, binding, err := admissionconfig.ResourceSlicePolicy(o.served, admissionconfig.SlicePolicyOptions{
			Drivers: o.Webhook.Drivers, ServiceAccountNamespace: ns, ServiceAccountName: name,
		})
		if err != nil {
			return err
		}
		objs = append(objs, vap, binding)
	}
	return writeObjects(o.Out, o.Output, objs, o.header(cfg))
}

// header is the YAML comment above the objects: for whom they are, what
// the target serves, and why matchPolicy is Equivalent.
func (o *ConfigOptions) header(cfg *admissionregistrationv1.ValidatingWebhookConfiguration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by drakit webhook config for driver %s on %s,\n", strings.Join(o.Webhook.Drivers, ", "), o.served.About)
	fmt.Fprintf(&b, "# which serves %s.\n", servedLine(o.served))
	b.WriteString("# The rules name every version it serves the kinds holding opaque configs in.\n")
	b.WriteString("# matchPolicy Equivalent: a request in a version not named here (enabled later,\n")
	b.WriteString("# or a newer release) is converted to a named one and still checked; with Exact\n")
	b.WriteString("# it would skip the webhook.\n")
	return b.String()
}

// writeObjects writes objs as YAML documents after header, or as a JSON
// v1 List (one object alone as itself), as kubectl prints.
func writeObjects(w interface{ Write([]byte) (int, error) }, format string, objs []runtime.Object, header string) error {
	items := make([]any, 0, len(objs))
	for _, obj := range objs {
		u, err := toUnstructured(obj)
		if err != nil {
			return err
		}
		items = append(items, u)
	}
	if format == "json" {
		var doc any = items[0]
		if len(items) > 1 {
			doc = map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{}, "items": items}
		}
		out, err := printer.AppendJSON(nil, doc)
		if err != nil {
			return err
		}
		_, err = w.Write(append(out, '\n'))
		return err
	}
	var b bytes.Buffer
	b.WriteString(header)
	for _, item := range items {
		out, err := yaml.Marshal(item)
		if err != nil {
			return err
		}
		b.WriteString("---\n")
		b.Write(out)
	}
	_, err := w.Write(b.Bytes())
	return err
}
