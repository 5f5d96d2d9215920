package get

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cliresource "k8s.io/cli-runtime/pkg/resource"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/allocator/poolstatus"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/inputs"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/objects"
	"github.com/drakit/drakit/conversion"
)

var (
	getPoolsLong = `How full is each pool? Per pool (or per node with --per-node) the devices of
its newest generation: in use (held by an allocated claim; adminAccess
results hold nothing), tainted (NoSchedule or NoExecute, of their own or
from a DeviceTaintRule), without counters left (partitionable devices that
no longer fit into what the devices in use leave of the pool's shared
counters: they cannot be carved now), and free. COUNTERS LEFT is what is
left of each shared counter, SHARED LEFT what is left of the capacity of
devices that allow multiple allocations, summed device by device. With
-o wide, CARVABLE says per shape of partitionable device (its partition
type, or what it consumes: "gpu-0/memory=40Gi") how many more fit together
of how many there are ("half:1/2").

A pool whose newest generation lacks slices is not used by the scheduler
and has no counts: RollingOut while an older generation is still
published, else Incomplete; a complete pool that still has slices of older
generations says how many.

The numbers are computed from the slices, claims and DeviceTaintRules, so
they work on any cluster; the alpha ResourcePoolStatusRequest API need not
be enabled. -o json and -o yaml give every pool with its devices and, as
status, what kube-controller-manager's ResourcePoolStatusRequest controller
(DRAResourcePoolStatus) would report, field for field.

Without -f the cluster of kubectl's connection flags is read (nothing is
written to it); with -f the files' slices, claims and DeviceTaintRules are
counted instead, without a cluster.`

	getPoolsExample = `  # How full is each GPU pool of the cluster?
  drakit get pools --driver gpu.example.com

  # Per node
  drakit get pools --per-node

  # From files: an export of a cluster, or the slices a node template publishes
  drakit get pools -f examples/v1 -o yaml`
)

// PoolsOptions are the options of "drakit get pools".
type PoolsOptions struct {
	ClusterFlags *cluster.Flags
	cliresource.FilenameOptions
	// Driver and Pool keep the pools of a driver and of a name.
	Driver, Pool string
	// PartitionTypeAttribute groups partitionable devices whose slices
	// name no partitionTypeAttribute (the request's
	// defaultPartitionTypeAttribute).
	PartitionTypeAttribute string
	// PerNode lists nodes instead of pools.
	PerNode bool
	// Output is -o: empty for a table, json or yaml.
	Output string

	cluster *cluster.Cluster
	inputs  []inputs.Input

	genericiooptions.IOStreams
}

// NewPoolsOptions are the options with their defaults.
func NewPoolsOptions(streams genericiooptions.IOStreams) *PoolsOptions {
	return &PoolsOptions{ClusterFlags: cluster.NewFlags(), IOStreams: streams}
}

// NewCmdGetPools is "drakit get pools".
func NewCmdGetPools(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewPoolsOptions(streams)
	cmd := &cobra.Command{
		Use:     "pools",
		Aliases: []string{"pool", "resourcepools"},
		Short:   "How full is each pool? Devices in use, tainted, without counters left and free, counters and shared capacity left, rollouts",
		Long:    getPoolsLong,
		Example: getPoolsExample,
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
	inputs.AddFilenameFlags(cmd, &o.FilenameOptions, "with slices, claims and DeviceTaintRules to count instead of a cluster's")
	cmd.Flags().StringVar(&o.Driver, "driver", o.Driver, "only the pools of this driver")
	cmd.Flags().StringVar(&o.Pool, "pool", o.Pool, "only the pools of this name")
	cmd.Flags().StringVar(&o.PartitionTypeAttribute, "partition-type-attribute", o.PartitionTypeAttribute, "group the partitionable devices of pools whose slices name no partitionTypeAttribute by this attribute (as a ResourcePoolStatusRequest's defaultPartitionTypeAttribute), for -o json and yaml")
	cmd.Flags().BoolVar(&o.PerNode, "per-node", o.PerNode, "one row per node: the devices of complete pools tied to it")
	cmd.Flags().StringVarP(&o.Output, "output", "o", o.Output, "output format: empty for a table, wide (with what can still be carved of each shape of partition), json or yaml")
	_ = cmd.RegisterFlagCompletionFunc("output", cmdutil.FixedCompletion("wide", "json", "yaml"))
	return cmd
}

// Complete lists the inputs of -f, or connects to the cluster.
func (o *PoolsOptions) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	switch o.Output {
	case "", "wide", "json", "yaml":
	default:
		return cmdutil.UsageErrorf("unknown output format %q: leave -o out for a table, or use wide, json or yaml", o.Output)
	}
	if len(o.Filenames) > 0 {
		var err error
		o.inputs, err = inputs.Expand(o.FilenameOptions)
		return err
	}
	c, err := f.Cluster(o.ClusterFlags)
	o.cluster = c
	return err
}

// Validate has nothing to check that Complete has not.
func (o *PoolsOptions) Validate() error { return nil }

// Run counts and prints.
func (o *PoolsOptions) Run() error {
	in := poolstatus.Input{Driver: o.Driver, PoolName: o.Pool, DefaultPartitionTypeAttribute: o.PartitionTypeAttribute}
	if o.cluster != nil {
		inv, err := o.cluster.ReadInventory(context.Background())
		if err != nil {
			return err
		}
		in.Slices, in.Claims, in.TaintRules = inv.Slices, inv.Claims, inv.TaintRules
	} else {
		objs, err := readHubObjects(o.inputs, o.In, o.ErrOut)
		if err != nil {
			return err
		}
		in.Slices, in.Claims, in.TaintRules = objs.Slices, objs.Claims, objs.TaintRules
	}
	r := poolstatus.Compute(in)
	switch o.Output {
	case "json", "yaml":
		return printPoolsAs(o.Out, r, o.Output)
	}
	for _, p := range r.Pools {
		if p.Invalid != "" {
			fmt.Fprintf(o.ErrOut, "warning: pool %s/%s is invalid: %s; the scheduler uses none of its devices\n", p.Driver, p.Name, p.Invalid)
		}
	}
	if o.PerNode {
		if len(r.Nodes) == 0 {
			fmt.Fprintln(o.ErrOut, "No devices tied to a node found.")
			return nil
		}
		return PrintPoolNodes(o.Out, r.Nodes)
	}
	if len(r.Pools) == 0 {
		fmt.Fprintln(o.ErrOut, "No pools found.")
		return nil
	}
	return PrintPools(o.Out, r.Pools, o.Output == "wide")
}

func printPoolsAs(w io.Writer, r *poolstatus.Report, format string) error {
	js, err := json.MarshalIndent(r, "", "    ")
	if err != nil {
		return err
	}
	if format == "yaml" {
		y, err := yaml.JSONToYAML(js)
		if err != nil {
			return err
		}
		_, err = w.Write(y)
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", js)
	return err
}

// PrintPools writes the pools as a kubectl table; wide adds CARVABLE, per
// shape of partition how many more fit together of how many.
func PrintPools(w io.Writer, pools []*poolstatus.Pool, wide bool) error {
	tw := tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
	head := "DRIVER\tPOOL\tNODE\tGENERATION\tSTATE\tDEVICES\tIN USE\tTAINTED\tNO COUNTERS\tFREE\tCOUNTERS LEFT\tSHARED LEFT"
	if wide {
		head += "\tCARVABLE"
	}
	fmt.Fprintln(tw, head)
	for _, p := range pools {
		node := p.Node
		if node == "" {
			node = "<none>"
		}
		counts := "-\t-\t-\t-\t-"
		if p.Usable() {
			c := p.Devices
			counts = fmt.Sprintf("%d\t%d\t%d\t%d\t%d", c.Total, c.InUse, c.Tainted, c.NoCounters, c.Free)
		}
		var counters, shared []string
		for _, c := range p.Counters {
			counters = append(counters, fmt.Sprintf("%s/%s=%s/%s", c.Set, c.Name, c.Left.String(), c.Value.String()))
		}
		for _, c := range p.Shared {
			shared = append(shared, fmt.Sprintf("%s=%s/%s", c.Name, c.Left.String(), c.Total.String()))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s", p.Driver, p.Name, node, p.Rollout.Generation, poolState(p), counts, joinOrNone(counters), joinOrNone(shared))
		if wide {
			var carvable []string
			for _, part := range p.Partitions {
				carvable = append(carvable, fmt.Sprintf("%s:%d/%d", part.Type, part.Allocatable, part.Total))
			}
			fmt.Fprintf(tw, "\t%s", joinOrNone(carvable))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// poolState is the STATE column: Complete, Invalid, RollingOut or
// Incomplete with the slices of the newest generation, and the slices of
// older generations still published.
func poolState(p *poolstatus.Pool) string {
	ro := p.Rollout
	s := string(ro.State)
	switch {
	case ro.State != poolstatus.PoolComplete:
		s += fmt.Sprintf(" (%d/%d slices)", ro.Slices, ro.ResourceSliceCount)
	case p.Invalid != "":
		s = "Invalid"
	}
	if ro.OlderSlices > 0 {
		s += fmt.Sprintf(", %d old %s", ro.OlderSlices, cmdutil.Plural(int(ro.OlderSlices), "slice", "slices"))
	}
	return s
}

// PrintPoolNodes writes the nodes as a kubectl table.
func PrintPoolNodes(w io.Writer, nodes []*poolstatus.Node) error {
	tw := tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
	fmt.Fprintln(tw, "NODE\tPOOLS\tDEVICES\tIN USE\tTAINTED\tNO COUNTERS\tFREE")
	for _, n := range nodes {
		c := n.Devices
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\n", n.Name, n.Pools, c.Total, c.InUse, c.Tainted, c.NoCounters, c.Free)
	}
	return tw.Flush()
}

func joinOrNone(list []string) string {
	if len(list) == 0 {
		return "<none>"
	}
	return strings.Join(list, ",")
}

// hubObjects are the objects of the group read from files, in hub form.
type hubObjects struct {
	Slices     []*resource.ResourceSlice
	Claims     []*resource.ResourceClaim
	TaintRules []*resource.DeviceTaintRule
	Classes    []*resource.DeviceClass
}

// hubbed is an object of the group in hub form, or why it is not.
type hubbed struct {
	hub any
	err error
}

// toHub converts an object of the group to the hub; nil for others.
func toHub(obj *objects.Object) any {
	if obj.Typed == nil {
		return nil
	}
	hub, err := conversion.ToHub(obj.Typed)
	return hubbed{hub, err}
}

// readHubObjects reads the inputs' slices, claims, DeviceTaintRules and
// classes of any version; documents of other kinds are passed over. A
// problem of the input is reported on errOut, and any makes it fail.
func readHubObjects(ins []inputs.Input, stdin io.Reader, errOut io.Writer) (*hubObjects, error) {
	rep := cmdutil.NewReporter(errOut)
	out := &hubObjects{}
	reader := &objects.Reader{Strict: true, Report: rep.Report}
	for _, in := range ins {
		rc, err := in.Open(stdin)
		if err != nil {
			rep.Fail(err)
			continue
		}
		// Documents are decoded and converted on every core (an export
		// of a large cluster has tens of thousands), taken in order.
		err = reader.EachParallel(manifest.NewReader(rc, in.Name), runtime.GOMAXPROCS(0), toHub, func(obj *objects.Object, prepared any) error {
			h, ok := prepared.(hubbed)
			if !ok {
				return nil
			}
			if h.err != nil {
				rep.Report(obj.Errorf("%v", h.err), false)
				return nil
			}
			switch h := h.hub.(type) {
			case *resource.ResourceSlice:
				out.Slices = append(out.Slices, h)
			case *resource.ResourceClaim:
				out.Claims = append(out.Claims, h)
			case *resource.DeviceTaintRule:
				out.TaintRules = append(out.TaintRules, h)
			case *resource.DeviceClass:
				out.Classes = append(out.Classes, h)
			}
			return nil
		})
		rc.Close()
		if err != nil {
			return nil, err
		}
	}
	if rep.Errors > 0 {
		fmt.Fprintf(errOut, "error: nothing was counted (%d input %s)\n", rep.Errors, cmdutil.Plural(rep.Errors, "problem", "problems"))
		return nil, cmdutil.ErrFailed
	}
	return out, nil
}
