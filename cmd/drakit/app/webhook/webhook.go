// Package webhook is "drakit webhook": the admission side of a DRA driver's
// opaque configuration. serve runs a validating webhook that checks the
// configs of ResourceClaims, ResourceClaimTemplates and DeviceClasses (and
// 1.30's parameter objects) against the schemas a driver publishes, with
// no driver code; config writes the ValidatingWebhookConfiguration (and
// the kubelet plugin's ResourceSlice policy) for a release or a live
// cluster; lint checks existing webhook configurations and admission
// policies against a release.
package webhook

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/driverconfig/admissionconfig"
)

var webhookExample = `  # Check a driver's opaque configs against its published schemas
  drakit webhook serve --schemas schemas.yaml --tls-cert-file tls.crt --tls-private-key-file tls.key

  # The ValidatingWebhookConfiguration for it on a 1.33 cluster
  drakit webhook config --driver gpu.example.com --release 1.33 \
    --service-namespace gpu --service-name gpu-webhook --ca-bundle-file ca.crt

  # Which webhooks and policies of a cluster miss versions or use another version's fields?
  drakit webhook lint --from-cluster`

// NewCmdWebhook is "drakit webhook", with serve, config and lint.
func NewCmdWebhook(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "webhook (serve | config | lint)",
		Short:   "Admission for drivers' opaque configs: a no-code webhook, its configuration per release, and a lint of webhooks and policies",
		Example: webhookExample,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.UsageErrorf("webhook what? serve, config or lint")
		},
	}
	cmd.AddCommand(NewCmdServe(f, streams), NewCmdConfig(f, streams), NewCmdLint(f, streams))
	return cmd
}

// parseRelease reads --release: "1.33", "v1.33" or "1.33.13".
func parseRelease(value string) (int, error) {
	v, err := version.ParseGeneric(value)
	if err != nil || v.Major() != 1 {
		return 0, cmdutil.UsageErrorf("--release %q: give a Kubernetes release as 1.MINOR, for example 1.33", value)
	}
	minor := int(v.Minor())
	if minor < catalogue.FirstRelease || minor > catalogue.Release {
		return 0, cmdutil.UsageErrorf("--release %s: drakit knows what Kubernetes 1.%d to 1.%d serve", value, catalogue.FirstRelease, catalogue.Release)
	}
	return minor, nil
}

// releaseCompletion completes --release with the releases drakit knows.
func releaseCompletion(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	var out []string
	for m := catalogue.FirstRelease; m <= catalogue.Release; m++ {
		out = append(out, "1."+strconv.Itoa(m))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// servedByCluster is what the cluster serves of resource.k8s.io, from its
// discovery, with its release.
func servedByCluster(c *cluster.Cluster) (*admissionconfig.Served, error) {
	gitVersion, minor, err := c.ServerRelease()
	if err != nil {
		return nil, err
	}
	disc := c.Kube.Discovery()
	groups, err := disc.ServerGroups()
	if err != nil {
		return nil, c.Explain(err, "discovering the API groups")
	}
	var lists []*metav1.APIResourceList
	for _, g := range groups.Groups {
		if g.Name != resource.GroupName {
			continue
		}
		for _, v := range g.Versions {
			l, err := disc.ServerResourcesForGroupVersion(v.GroupVersion)
			if err != nil {
				return nil, c.Explain(err, "discovering the resources of "+v.GroupVersion)
			}
			lists = append(lists, l)
		}
	}
	return admissionconfig.ServedFromDiscovery(lists, minor, fmt.Sprintf("the cluster's discovery (Kubernetes %s)", gitVersion)), nil
}

// servedLine says what s serves, for a comment or a message.
func servedLine(s *admissionconfig.Served) string {
	var parts []string
	for _, v := range s.Versions() {
		parts = append(parts, v+" ("+strings.Join(s.Resources[v], ", ")+")")
	}
	if len(parts) == 0 {
		return "no version of " + resource.GroupName
	}
	return resource.GroupName + " " + strings.Join(parts, ", ")
}

// toUnstructured is obj's content without the fields an object never
// sent has (metadata.creationTimestamp: null).
func toUnstructured(obj runtime.Object) (map[string]any, error) {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	if md, ok := u["metadata"].(map[string]any); ok {
		delete(md, "creationTimestamp")
	}
	if st, ok := u["status"].(map[string]any); ok && len(st) == 0 {
		delete(u, "status")
	}
	return u, nil
}
