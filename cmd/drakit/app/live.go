package app

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

func newDescribeCommand(f cmdutil.Factory, s genericiooptions.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "describe (pod | resourceclaim) NAME",
		Short: "Explain a pod's or a claim's DRA state in a live cluster (read-only)",
		Long: `Describe reads a cluster (any release from 1.30 to 1.37, whatever version
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
                               and the pods it is reserved for.`,
		Example: `  # Why is the pod pending? (any cluster from 1.30 to 1.37)
  drakit describe pod inference -n serving

  # What did its claim get?
  drakit describe claim inference-gpus-x7k2p -n serving --context prod`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.UsageErrorf("describe what? pod NAME or resourceclaim NAME")
		},
	}
	cmd.AddCommand(newDescribePodCommand(f, s), newDescribeClaimCommand(f, s))
	return cmd
}

func newDescribePodCommand(f cmdutil.Factory, s genericiooptions.IOStreams) *cobra.Command {
	flags := cluster.NewFlags()
	var explain bool
	var featureGates string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:     "pod NAME",
		Aliases: []string{"pods", "po"},
		Short:   "Why is this pod pending? Its claims and the scheduler's DRA decision replayed",
		Example: `  # Why is my pod pending?
  drakit describe pod inference -n serving

  # The same, as a kubectl plugin, with the nodes of each reason
  kubectl dra describe pod inference -n serving --explain`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := f.Cluster(flags)
			if err != nil {
				return err
			}
			return describePod(cmd.Context(), s, c, args[0], podReplay{featureGates: featureGates, timeout: timeout, explain: explain})
		},
	}
	flags.AddTo(cmd.Flags(), false)
	cmd.Flags().BoolVar(&explain, "explain", false, "name the nodes of each reason, the allocator's explanation and the claims holding their devices")
	cmd.Flags().StringVar(&featureGates, "feature-gates", "", "the scheduler's feature gates, in kube-apiserver's syntax, over the defaults of the server's release")
	cmd.Flags().DurationVar(&timeout, "timeout", 10*time.Second, "give up when the search of the pod's claims over the nodes takes longer (0: no limit)")
	return cmd
}

// podReplay are the settings of describe pod's replay.
type podReplay struct {
	featureGates string
	timeout      time.Duration
	explain      bool
}

func describePod(ctx context.Context, s genericiooptions.IOStreams, c *cluster.Cluster, name string, r podReplay) error {
	if ctx == nil {
		ctx = context.Background()
	}
	pod, err := c.GetPod(ctx, c.Namespace, name)
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
		gates, text, err := c.SchedulerGates(r.featureGates)
		if err != nil {
			return cmdutil.GatesError(err, r.featureGates)
		}
		about = text
		if replay, err = describe.ReplayPod(ctx, pod, claims, inv, allocator.FeaturesFromGates(gates), r.timeout); err != nil {
			return fmt.Errorf("replaying the scheduling of pod %s/%s: %w", pod.Namespace, pod.Name, err)
		}
	}
	out := bufio.NewWriter(s.Out)
	describe.PrintPod(out, pod, claims, replay, inv, about, r.explain)
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

func newDescribeClaimCommand(f cmdutil.Factory, s genericiooptions.IOStreams) *cobra.Command {
	flags := cluster.NewFlags()
	cmd := &cobra.Command{
		Use:     "resourceclaim NAME",
		Aliases: []string{"resourceclaims", "claim", "claims"},
		Short:   "What did this claim get? Its devices, their status and the pods it is reserved for",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := f.Cluster(flags)
			if err != nil {
				return err
			}
			ctx := context.Background()
			claim, err := c.GetClaim(ctx, c.Namespace, args[0])
			if err != nil {
				return err
			}
			inv := &cluster.Inventory{Version: c.Hub.Version()}
			if claim.Status.Allocation != nil {
				if inv, err = c.ReadInventory(ctx); err != nil {
					return err
				}
			}
			out := bufio.NewWriter(s.Out)
			describe.PrintClaim(out, claim, inv)
			return out.Flush()
		},
	}
	flags.AddTo(cmd.Flags(), false)
	return cmd
}

func newGetCommand(f cmdutil.Factory, s genericiooptions.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "get (devices | resourceclaims)",
		Short: "List the devices of a live cluster with their holders, or its claims with their devices (read-only)",
		Example: `  # Which devices are free, and which claims hold the others?
  drakit get devices --driver gpu.example.com

  # Claims of all namespaces with their nodes and devices
  drakit get resourceclaims -A`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.UsageErrorf("get what? devices or resourceclaims")
		},
	}
	cmd.AddCommand(newGetDevicesCommand(f, s), newGetClaimsCommand(f, s))
	return cmd
}

func newGetDevicesCommand(f cmdutil.Factory, s genericiooptions.IOStreams) *cobra.Command {
	flags := cluster.NewFlags()
	var filter describe.DeviceFilter
	var freeOnly bool
	cmd := &cobra.Command{
		Use:     "devices",
		Aliases: []string{"device"},
		Short:   "What is free? Devices per node and pool with their holder, shares, capacity left and taints",
		Example: `  # Free GPUs on node-a
  drakit get devices --node node-a --class gpu.example.com --free`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := f.Cluster(flags)
			if err != nil {
				return err
			}
			ctx := context.Background()
			inv, err := c.ReadInventory(ctx)
			if err != nil {
				return err
			}
			rows, err := describe.Devices(ctx, inv, filter)
			if err != nil {
				return err
			}
			if freeOnly {
				kept := rows[:0]
				for _, r := range rows {
					if r.Free() || r.Multiple {
						kept = append(kept, r)
					}
				}
				rows = kept
			}
			if len(rows) == 0 {
				fmt.Fprintln(s.ErrOut, "No devices found.")
				return nil
			}
			return describe.PrintDevices(s.Out, rows)
		},
	}
	flags.AddTo(cmd.Flags(), false)
	cmd.Flags().StringVar(&filter.Driver, "driver", "", "only the devices of this driver")
	cmd.Flags().StringVar(&filter.Node, "node", "", "only the devices local to this node")
	cmd.Flags().StringVar(&filter.Class, "class", "", "only the devices this DeviceClass selects")
	cmd.Flags().BoolVar(&freeOnly, "free", false, "only devices nothing holds (and shared devices)")
	return cmd
}

func newGetClaimsCommand(f cmdutil.Factory, s genericiooptions.IOStreams) *cobra.Command {
	flags := cluster.NewFlags()
	cmd := &cobra.Command{
		Use:     "resourceclaims",
		Aliases: []string{"resourceclaim", "claims", "claim"},
		Short:   "Claims with their state, node, devices and the pods they are reserved for",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := f.Cluster(flags)
			if err != nil {
				return err
			}
			ns := c.Namespace
			if flags.AllNamespaces {
				ns = ""
			}
			claims, err := c.ListClaims(context.Background(), ns)
			if err != nil {
				return err
			}
			if len(claims) == 0 {
				if ns == "" {
					fmt.Fprintln(s.ErrOut, "No resources found")
				} else {
					fmt.Fprintf(s.ErrOut, "No resources found in %s namespace.\n", ns)
				}
				return nil
			}
			return describe.PrintClaims(s.Out, claims, ns == "")
		},
	}
	flags.AddTo(cmd.Flags(), true)
	return cmd
}
