// Package describe is "drakit describe": a pod's or a claim's DRA state in
// a live cluster, read with kubectl's connection flags; nothing is written
// to the cluster.
package describe

import (
	"bufio"
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/describe"
)

var (
	describeLong = `Describe reads a cluster (any release from 1.30 to 1.37, whatever version
of resource.k8s.io it serves) with kubectl's connection flags, and writes
nothing to it.

  describe pod NAME            why is this pod pending? Its claims (named,
                               from templates, for extended resources),
                               each one's state, and the scheduler's DRA
                               decision replayed on the live inventory:
                               how many nodes fail for which reason, in
                               the words of "allocate" with pods
                               (--explain: the nodes of each reason and
                               the claims holding their devices), the
                               device taints that keep it away. The
                               scheduler has the default feature gates of
                               the server's release (--feature-gates
                               changes them).
  describe resourceclaim NAME  what did this claim get? Its devices with
                               driver, pool, node, attributes, capacities,
                               share, tolerations, binding conditions, the
                               driver's status (conditions, network data)
                               and the pods it is reserved for.`

	describeExample = `  # Why is the pod pending? (any cluster from 1.30 to 1.37)
  drakit describe pod inference -n serving

  # What did its claim get?
  drakit describe claim inference-gpus-x7k2p -n serving --context prod`

	describePodExample = `  # Why is my pod pending?
  drakit describe pod inference -n serving

  # The same, as a kubectl plugin, with the nodes of each reason
  kubectl dra describe pod inference -n serving --explain`
)

// NewCmdDescribe is "drakit describe", with pod and resourceclaim.
func NewCmdDescribe(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "describe (pod | resourceclaim) NAME",
		Short:   "Explain a pod's or a claim's DRA state in a live cluster (read-only)",
		Long:    describeLong,
		Example: describeExample,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.UsageErrorf("describe what? pod NAME or resourceclaim NAME")
		},
	}
	cmd.AddCommand(NewCmdDescribePod(f, streams), NewCmdDescribeClaim(f, streams))
	return cmd
}

// PodOptions are the options of "drakit describe pod".
type PodOptions struct {
	ClusterFlags *cluster.Flags
	// Explain names the nodes of each reason, the allocator's explanation
	// and the claims holding their devices.
	Explain bool
	// FeatureGates are the scheduler's gates over the defaults of the
	// server's release, in kube-apiserver's syntax.
	FeatureGates string
	// Timeout bounds the search of the pod's claims over the nodes (0: no
	// limit).
	Timeout time.Duration

	name    string
	cluster *cluster.Cluster

	genericiooptions.IOStreams
}

// NewPodOptions are the options with their defaults.
func NewPodOptions(streams genericiooptions.IOStreams) *PodOptions {
	return &PodOptions{ClusterFlags: cluster.NewFlags(), Timeout: 10 * time.Second, IOStreams: streams}
}

// NewCmdDescribePod is "drakit describe pod".
func NewCmdDescribePod(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewPodOptions(streams)
	cmd := &cobra.Command{
		Use:     "pod NAME",
		Aliases: []string{"pods", "po"},
		Short:   "Why is this pod pending? Its claims and the scheduler's DRA decision replayed",
		Example: describePodExample,
		Args:    cobra.ExactArgs(1),
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
	cmd.Flags().BoolVar(&o.Explain, "explain", o.Explain, "name the nodes of each reason, the allocator's explanation and the claims holding their devices")
	cmd.Flags().StringVar(&o.FeatureGates, "feature-gates", o.FeatureGates, "the scheduler's feature gates, in kube-apiserver's syntax, over the defaults of the server's release")
	cmd.Flags().DurationVar(&o.Timeout, "timeout", o.Timeout, "give up when the search of the pod's claims over the nodes takes longer (0: no limit)")
	return cmd
}

// Complete connects to the cluster and takes the pod's name.
func (o *PodOptions) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	c, err := f.Cluster(o.ClusterFlags)
	if err != nil {
		return err
	}
	o.cluster, o.name = c, args[0]
	return nil
}

// Validate has nothing to check: --feature-gates is read over the
// defaults of the server's release, when the pod needs a replay.
func (o *PodOptions) Validate() error { return nil }

// Run reads the pod, its claims and the inventory, replays the
// scheduler's DRA decision when the pod waits for it, and describes it.
func (o *PodOptions) Run() error {
	ctx := context.Background()
	c := o.cluster
	pod, err := c.GetPod(ctx, c.Namespace, o.name)
	if err != nil {
		return err
	}
	inv, err := c.ReadInventory(ctx)
	if err != nil {
		return err
	}
	getTemplate := func(ns, name string) (*resource.ResourceClaimTemplate, error) { return c.GetTemplate(ctx, ns, name) }
	claims, err := describe.PodClaims(pod, inv.Claims, inv.Classes, getTemplate)
	if err != nil {
		return err
	}
	var replay *describe.Replay
	var about string
	if needsReplay(pod, claims) {
		gates, text, err := c.SchedulerGates(o.FeatureGates)
		if err != nil {
			return cmdutil.GatesError(err, o.FeatureGates)
		}
		about = text
		if replay, err = describe.ReplayPod(ctx, pod, claims, inv, allocator.FeaturesFromGates(gates), o.Timeout); err != nil {
			return fmt.Errorf("replaying the scheduling of pod %s/%s: %w", pod.Namespace, pod.Name, err)
		}
	}
	out := bufio.NewWriter(o.Out)
	describe.PrintPod(out, pod, claims, replay, inv, about, o.Explain)
	return out.Flush()
}

// needsReplay: a pod not on a node yet with claims, or on a node with a
// claim not allocated (the scheduler never saw it; the kubelet waits).
func needsReplay(pod *corev1.Pod, claims []*describe.PodClaim) bool {
	for _, pc := range claims {
		if pod.Spec.NodeName == "" || pc.Claim == nil || pc.Claim.Status.Allocation == nil {
			return true
		}
	}
	return false
}

// ClaimOptions are the options of "drakit describe resourceclaim".
type ClaimOptions struct {
	ClusterFlags *cluster.Flags

	name    string
	cluster *cluster.Cluster

	genericiooptions.IOStreams
}

// NewClaimOptions are the options with their defaults.
func NewClaimOptions(streams genericiooptions.IOStreams) *ClaimOptions {
	return &ClaimOptions{ClusterFlags: cluster.NewFlags(), IOStreams: streams}
}

// NewCmdDescribeClaim is "drakit describe resourceclaim".
func NewCmdDescribeClaim(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewClaimOptions(streams)
	cmd := &cobra.Command{
		Use:     "resourceclaim NAME",
		Aliases: []string{"resourceclaims", "claim", "claims"},
		Short:   "What did this claim get? Its devices, their status and the pods it is reserved for",
		Args:    cobra.ExactArgs(1),
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
	return cmd
}

// Complete connects to the cluster and takes the claim's name.
func (o *ClaimOptions) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	c, err := f.Cluster(o.ClusterFlags)
	if err != nil {
		return err
	}
	o.cluster, o.name = c, args[0]
	return nil
}

// Validate has nothing to check.
func (o *ClaimOptions) Validate() error { return nil }

// Run reads the claim (and, when it is allocated, the inventory its
// devices are in) and describes it.
func (o *ClaimOptions) Run() error {
	ctx := context.Background()
	c := o.cluster
	claim, err := c.GetClaim(ctx, c.Namespace, o.name)
	if err != nil {
		return err
	}
	inv := &cluster.Inventory{Version: c.Hub.Version()}
	if claim.Status.Allocation != nil {
		if inv, err = c.ReadInventory(ctx); err != nil {
			return err
		}
	}
	out := bufio.NewWriter(o.Out)
	describe.PrintClaim(out, claim, inv)
	return out.Flush()
}
