// Package get is "drakit get": the devices of a live cluster with their
// state and holders, how full its pools are (also from files), or its
// claims with their devices, read with kubectl's connection flags;
// nothing is written to the cluster.
package get

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/describe"
)

var (
	getExample = `  # Which devices are free, and which claims hold the others?
  drakit get devices --driver gpu.example.com

  # How full is each pool: devices in use, tainted, free; counters and shared capacity left
  drakit get pools

  # Claims of all namespaces with their nodes and devices
  drakit get resourceclaims -A`

	getDevicesExample = `  # Free GPUs on node-a
  drakit get devices --node node-a --class gpu.example.com --free`
)

// NewCmdGet is "drakit get", with devices and resourceclaims.
func NewCmdGet(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "get (devices | pools | resourceclaims)",
		Short:   "List the devices of a live cluster with their state and holders, how full its pools are, or its claims with their devices (read-only)",
		Example: getExample,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.UsageErrorf("get what? devices, pools or resourceclaims")
		},
	}
	cmd.AddCommand(NewCmdGetDevices(f, streams), NewCmdGetPools(f, streams), NewCmdGetClaims(f, streams))
	return cmd
}

// DevicesOptions are the options of "drakit get devices".
type DevicesOptions struct {
	ClusterFlags *cluster.Flags
	// Filter keeps the devices of a driver, node or class.
	Filter describe.DeviceFilter
	// Free keeps only the devices nothing holds (and shared devices).
	Free bool

	cluster *cluster.Cluster

	genericiooptions.IOStreams
}

// NewDevicesOptions are the options with their defaults.
func NewDevicesOptions(streams genericiooptions.IOStreams) *DevicesOptions {
	return &DevicesOptions{ClusterFlags: cluster.NewFlags(), IOStreams: streams}
}

// NewCmdGetDevices is "drakit get devices".
func NewCmdGetDevices(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewDevicesOptions(streams)
	cmd := &cobra.Command{
		Use:     "devices",
		Aliases: []string{"device"},
		Short:   "What is free? Devices per node and pool with their state, holder, shares, capacity left and taints",
		Example: getDevicesExample,
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
	cmd.Flags().StringVar(&o.Filter.Driver, "driver", o.Filter.Driver, "only the devices of this driver")
	cmd.Flags().StringVar(&o.Filter.Node, "node", o.Filter.Node, "only the devices local to this node")
	cmd.Flags().StringVar(&o.Filter.Class, "class", o.Filter.Class, "only the devices this DeviceClass selects")
	cmd.Flags().BoolVar(&o.Free, "free", o.Free, "only devices nothing holds (and shared devices)")
	return cmd
}

// Complete connects to the cluster.
func (o *DevicesOptions) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	c, err := f.Cluster(o.ClusterFlags)
	o.cluster = c
	return err
}

// Validate has nothing to check.
func (o *DevicesOptions) Validate() error { return nil }

// Run lists the devices.
func (o *DevicesOptions) Run() error {
	ctx := context.Background()
	inv, err := o.cluster.ReadInventory(ctx)
	if err != nil {
		return err
	}
	rows, err := describe.Devices(ctx, inv, o.Filter)
	if err != nil {
		return err
	}
	if o.Free {
		kept := rows[:0]
		for _, r := range rows {
			if r.Free() || r.Multiple {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	if len(rows) == 0 {
		fmt.Fprintln(o.ErrOut, "No devices found.")
		return nil
	}
	return describe.PrintDevices(o.Out, rows)
}

// ClaimsOptions are the options of "drakit get resourceclaims".
type ClaimsOptions struct {
	// ClusterFlags have -A, --all-namespaces.
	ClusterFlags *cluster.Flags

	cluster *cluster.Cluster

	genericiooptions.IOStreams
}

// NewClaimsOptions are the options with their defaults.
func NewClaimsOptions(streams genericiooptions.IOStreams) *ClaimsOptions {
	return &ClaimsOptions{ClusterFlags: cluster.NewFlags(), IOStreams: streams}
}

// NewCmdGetClaims is "drakit get resourceclaims".
func NewCmdGetClaims(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewClaimsOptions(streams)
	cmd := &cobra.Command{
		Use:     "resourceclaims",
		Aliases: []string{"resourceclaim", "claims", "claim"},
		Short:   "Claims with their state, node, devices and the pods they are reserved for",
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
	o.ClusterFlags.AddTo(cmd.Flags(), true)
	return cmd
}

// Complete connects to the cluster.
func (o *ClaimsOptions) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	c, err := f.Cluster(o.ClusterFlags)
	o.cluster = c
	return err
}

// Validate has nothing to check.
func (o *ClaimsOptions) Validate() error { return nil }

// Run lists the claims of the namespace, or of all with -A.
func (o *ClaimsOptions) Run() error {
	ns := o.cluster.Namespace
	if o.ClusterFlags.AllNamespaces {
		ns = ""
	}
	claims, err := o.cluster.ListClaims(context.Background(), ns)
	if err != nil {
		return err
	}
	if len(claims) == 0 {
		if ns == "" {
			fmt.Fprintln(o.ErrOut, "No resources found")
		} else {
			fmt.Fprintf(o.ErrOut, "No resources found in %s namespace.\n", ns)
		}
		return nil
	}
	return describe.PrintClaims(o.Out, claims, ns == "")
}
