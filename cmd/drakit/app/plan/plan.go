// Package plan is "drakit plan": capacity planning with devices. From a
// cluster in files (or with --from-cluster a live one) and node groups,
// which pending pods fit when nodes of a group are added (--add), how
// many nodes of which group make them all fit (the default), and how many
// more replicas of a pod fit now (--headroom); pods are placed as the
// scheduler of the followed release places them (package planner).
package plan

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cliresource "k8s.io/cli-runtime/pkg/resource"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/describe"
	"github.com/drakit/drakit/cmd/drakit/internal/inputs"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/objects"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/planner"
)

var (
	planLong = `Plan capacity with devices: place the pending pods of a cluster as the
scheduler of Kubernetes 1.37 would (claims from templates, shared claims,
extended resources, node filters and NodeResourcesFit: cpu, memory,
ephemeral storage, pods and extended resources against status.allocatable
minus what the pods on the node request), with nodes of node groups added.

The inputs (-f) hold, in any versions and any order, what drakit allocate
reads (DeviceClasses, ResourceSlices, DeviceTaintRules, ResourceClaims,
ResourceClaimTemplates, Nodes, Pods: those with spec.nodeName hold their
claims' devices and their requests, the others are pending) and node
groups: documents of drakit's own kind

  apiVersion: planner.drakit.io/v1alpha1
  kind: NodeGroup
  metadata: {name: gpu-h100}          # nodes gpu-h100-0, gpu-h100-1, ...
  spec:
    maxSize: 50                       # the most nodes the group adds
    cost: "32.5"                      # optional: one node's cost, any unit
    template: {metadata: {labels: ...}, spec: {taints: ...},
               status: {allocatable: {cpu: "96", memory: 1Ti, pods: "110"}}}
    resourceSlices:                   # what one node publishes
    - {apiVersion: resource.k8s.io/v1, kind: ResourceSlice,
       spec: {driver: gpu.example.com, devices: [...]}}

A node of a group is the template named <group>-<index>, labelled
kubernetes.io/hostname, and publishes the template's slices filled in as a
driver fills them: nodeName, a pool per node named after it, the
template's generation or 1, resourceSliceCount the number of the
template's slices of the pool.

Three questions:
  (default)           the fewest nodes of each group that place every pending
                      pod the group can place, the cheapest mix of the groups
                      with a cost (greedy: see docs/planning.md for what is
                      guaranteed), and the pods no group can place, with the
                      scheduler's message; the plan is confirmed by placing
                      the pods once more with the recommended nodes.
  --add GROUP=N       which pending pods fit, and where, with N nodes of the
                      group added (repeat for several groups).
  --headroom NS/NAME  how many more replicas of a Pod or PodTemplate of the
                      input fit now, per node and in total, once the pending
                      pods are placed; its claims are made from its
                      ResourceClaimTemplates per replica, before any pod
                      exists. Exactly that many fit; one more does not.

With --from-cluster the cluster of kubectl's connection flags is the
background: its classes, slices, DeviceTaintRules, claims, nodes and pods.
Its pending pods (no spec.nodeName) whose spec.schedulerName is
--scheduler-name are the pods to place, unless the input has pods; nothing
is written to the cluster.

Output: a table (the default), or the answer as YAML or JSON (-o). The exit
code is 1 when a pending pod fits nowhere (a plan or --add), 0 otherwise.
Not simulated: ` + allocator.NotSimulated + `, preemption.`

	planExample = `  # How many nodes of which group make the example's pending pods fit?
  drakit plan -f examples/planning

  # Which pods fit, and where, with two nodes of gpu-h100 added?
  drakit plan -f examples/planning --add gpu-h100=2

  # How many more inference servers (PodTemplate ml/server) fit now?
  drakit plan -f examples/planning --headroom ml/server

  # The live cluster's pending pods, and the groups of a file
  drakit plan --from-cluster -f node-groups.yaml --context prod`
)

// Options are the options of "drakit plan".
type Options struct {
	cliresource.FilenameOptions
	// Add are the --add GROUP=N flags.
	Add []string
	// Headroom names the Pod or PodTemplate (namespace/name) to replicate.
	Headroom string
	// MaxReplicas bounds the headroom's search.
	MaxReplicas int
	// Output is -o: table, yaml or json.
	Output string
	// Strict makes unknown and duplicate fields errors.
	Strict       bool
	FeatureGates string
	Timeout      time.Duration
	// FromCluster reads the cluster of ClusterFlags; SchedulerName picks
	// its pending pods.
	FromCluster   bool
	SchedulerName string
	ClusterFlags  *cluster.Flags

	inputs   []inputs.Input
	adds     []addFlag
	features allocator.Features

	genericiooptions.IOStreams
}

type addFlag struct {
	group string
	count int
}

// NewOptions are the options with their defaults.
func NewOptions(streams genericiooptions.IOStreams) *Options {
	return &Options{Output: "table", Strict: true, Timeout: 10 * time.Second, MaxReplicas: 100000,
		SchedulerName: corev1.DefaultSchedulerName, ClusterFlags: cluster.NewFlags(), IOStreams: streams}
}

// NewCmdPlan is "drakit plan".
func NewCmdPlan(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewOptions(streams)
	cmd := &cobra.Command{
		Use:     "plan -f FILENAME [--add GROUP=N | --headroom NAMESPACE/NAME]",
		Short:   "Plan capacity: how many nodes of which group make the pending pods fit, which fit with nodes added, how many more replicas fit",
		Long:    planLong,
		Example: planExample,
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
	inputs.AddFilenameFlags(cmd, &o.FilenameOptions, "with node groups, pods, claims, templates, classes, slices, DeviceTaintRules and nodes")
	cmd.Flags().StringArrayVar(&o.Add, "add", o.Add, "GROUP=N: add N nodes of the group and place the pending pods (repeat for several groups)")
	cmd.Flags().StringVar(&o.Headroom, "headroom", o.Headroom, "NAMESPACE/NAME of a Pod or PodTemplate of the input: how many more replicas of it fit now")
	cmd.Flags().IntVar(&o.MaxReplicas, "max-replicas", o.MaxReplicas, "with --headroom, stop counting at this many replicas")
	cmd.Flags().StringVarP(&o.Output, "output", "o", o.Output, "output format: table, yaml or json")
	cmd.Flags().BoolVar(&o.Strict, "strict", o.Strict, "treat unknown and duplicate fields as errors (false: warn and drop them)")
	cmd.Flags().StringVar(&o.FeatureGates, "feature-gates", o.FeatureGates, "the scheduler's feature gates, in kube-apiserver's syntax; default: the 1.37 defaults, or with --from-cluster those of the server's release")
	cmd.Flags().DurationVar(&o.Timeout, "timeout", o.Timeout, "give up when the search of one pod over the nodes takes longer (0: no limit)")
	cmd.Flags().BoolVar(&o.FromCluster, "from-cluster", o.FromCluster, "read the classes, slices, DeviceTaintRules, claims, nodes and pods of the cluster (kubectl's connection flags); its pending pods are placed unless the input has pods")
	cmd.Flags().StringVar(&o.SchedulerName, "scheduler-name", o.SchedulerName, "with --from-cluster, the spec.schedulerName of the pending pods to place")
	o.ClusterFlags.AddTo(cmd.Flags(), false)
	_ = cmd.RegisterFlagCompletionFunc("output", cmdutil.FixedCompletion("table", "yaml", "json"))
	return cmd
}

// Complete parses --add, -o and --feature-gates and lists the inputs.
func (o *Options) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	switch o.Output {
	case "table", "yaml", "json":
	default:
		return cmdutil.UsageErrorf("unknown output format %q: use table, yaml or json", o.Output)
	}
	for _, a := range o.Add {
		group, n, ok := strings.Cut(a, "=")
		count, err := strconv.Atoi(n)
		if !ok || group == "" || err != nil || count < 0 {
			return cmdutil.UsageErrorf("--add %q: write GROUP=N, N a number of nodes (0 or more)", a)
		}
		o.adds = append(o.adds, addFlag{group, count})
	}
	if !o.FromCluster {
		gates, err := cmdutil.ParseFeatureGates("--feature-gates", o.FeatureGates)
		if err != nil {
			return err
		}
		o.features = allocator.FeaturesFromGates(gates)
	}
	if len(o.Filenames) == 0 && o.FromCluster {
		// The cluster alone: its pending pods, or --headroom of one of
		// its pods.
		return nil
	}
	var err error
	o.inputs, err = inputs.Expand(o.FilenameOptions)
	return err
}

// Validate refuses flags that do not go together.
func (o *Options) Validate() error {
	if len(o.Add) > 0 && o.Headroom != "" {
		return cmdutil.UsageErrorf("--add and --headroom ask different questions: give one of them")
	}
	if o.Headroom != "" && !strings.Contains(o.Headroom, "/") {
		return cmdutil.UsageErrorf("--headroom %q: write NAMESPACE/NAME", o.Headroom)
	}
	if o.MaxReplicas < 1 {
		return cmdutil.UsageErrorf("--max-replicas %d: give 1 or more", o.MaxReplicas)
	}
	if len(o.inputs) == 0 && !o.FromCluster {
		return cmdutil.UsageErrorf("nothing to plan: give the cluster and node groups with -f, or --from-cluster")
	}
	return nil
}

// input is what the files (and the cluster) hold.
type input struct {
	cluster   planner.Cluster
	groups    []*planner.Group
	templates map[string]*corev1.PodTemplate
	podNames  map[string]bool
	nodeNames map[string]bool
}

var (
	podKind         = schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
	nodeKind        = schema.GroupVersionKind{Version: "v1", Kind: "Node"}
	podTemplateKind = schema.GroupVersionKind{Version: "v1", Kind: "PodTemplate"}
	nodeGroupKind   = planner.GroupVersion.WithKind(planner.NodeGroupKind)
)

// Run reads the inputs, asks the question and writes the answer.
func (o *Options) Run(f cmdutil.Factory) error {
	rep := cmdutil.NewReporter(o.ErrOut)
	in := &input{templates: map[string]*corev1.PodTemplate{}, podNames: map[string]bool{}, nodeNames: map[string]bool{}}
	reader := &objects.Reader{Strict: o.Strict, Report: rep.Report}
	for _, i := range o.inputs {
		rc, err := i.Open(o.In)
		if err != nil {
			rep.Fail(err)
			continue
		}
		err = reader.Each(manifest.NewReader(rc, i.Name), func(obj *objects.Object) error {
			o.take(in, obj, rep)
			return nil
		})
		rc.Close()
		if err != nil {
			return err
		}
	}
	if rep.Errors > 0 {
		fmt.Fprintf(o.ErrOut, "error: nothing was planned (%d input %s)\n", rep.Errors, cmdutil.Plural(rep.Errors, "problem", "problems"))
		return cmdutil.ErrFailed
	}
	if o.FromCluster {
		if err := o.addCluster(f, in); err != nil {
			return cmdutil.GatesError(err, o.FeatureGates)
		}
	}
	features := o.features
	in.cluster.Features = &features
	in.cluster.PodTimeout = o.Timeout
	ctx := context.Background()
	switch {
	case o.Headroom != "":
		return o.runHeadroom(ctx, in)
	case len(o.adds) > 0:
		return o.runAdd(ctx, in)
	}
	return o.runPlan(ctx, in)
}

// take files one object of the input.
func (o *Options) take(in *input, obj *objects.Object, rep *cmdutil.Reporter) {
	decode := func(into any) bool {
		warnings, e := obj.Doc.Decode(obj.JSON, into, o.Strict, obj.At)
		for _, w := range warnings {
			w.Object = obj.Name()
			rep.Report(w, true)
		}
		if e != nil {
			e.Object = obj.Name()
			rep.Report(e, false)
			return false
		}
		return true
	}
	switch obj.GVK {
	case podKind:
		pod := &corev1.Pod{}
		if !decode(pod) {
			return
		}
		key := pod.Namespace + "/" + pod.Name
		if in.podNames[key] {
			rep.Report(obj.Errorf("a second Pod named %s", key), false)
			return
		}
		in.podNames[key] = true
		pod.APIVersion, pod.Kind = "v1", "Pod"
		in.cluster.Pods = append(in.cluster.Pods, pod)
	case nodeKind:
		node := &corev1.Node{}
		if !decode(node) {
			return
		}
		if in.nodeNames[node.Name] {
			rep.Report(obj.Errorf("a second Node named %q", node.Name), false)
			return
		}
		in.nodeNames[node.Name] = true
		in.cluster.Nodes = append(in.cluster.Nodes, node)
	case podTemplateKind:
		t := &corev1.PodTemplate{}
		if decode(t) {
			in.templates[t.Namespace+"/"+t.Name] = t
		}
	case nodeGroupKind:
		g, err := planner.DecodeNodeGroup(obj.JSON, "")
		if err != nil {
			rep.Report(obj.Errorf("%v", err), false)
			return
		}
		g.Source = obj.Name()
		for _, other := range in.groups {
			if other.Name == g.Name {
				rep.Report(obj.Errorf("a second NodeGroup named %q", g.Name), false)
				return
			}
		}
		in.groups = append(in.groups, g)
	default:
		if obj.Typed == nil {
			// Other kinds play no part.
			return
		}
		hub, err := conversion.ToHub(obj.Typed)
		if err != nil {
			rep.Report(obj.Errorf("%v", err), false)
			return
		}
		switch hub.(type) {
		case *resource.DeviceClass, *resource.ResourceSlice, *resource.DeviceTaintRule, *resource.ResourceClaim, *resource.ResourceClaimTemplate:
			in.cluster.Objects = append(in.cluster.Objects, obj.Typed)
		}
	}
}

// addCluster adds the live cluster's inventory and pods before the
// input's: its pending pods only when the input has none.
func (o *Options) addCluster(f cmdutil.Factory, in *input) error {
	c, err := f.Cluster(o.ClusterFlags)
	if err != nil {
		return err
	}
	gates, about, err := c.SchedulerGates(o.FeatureGates)
	if err != nil {
		return err
	}
	o.features = allocator.FeaturesFromGates(gates)
	fmt.Fprintf(o.ErrOut, "Feature gates: %s\n", about)
	ctx := context.Background()
	live, err := c.ReadInventory(ctx)
	if err != nil {
		return err
	}
	pods, err := c.ListPods(ctx)
	if err != nil {
		return err
	}
	givenClaims := map[string]bool{}
	for _, obj := range in.cluster.Objects {
		if m, ok := obj.(interface {
			GetNamespace() string
			GetName() string
		}); ok && kindName(obj) == "ResourceClaim" {
			givenClaims[m.GetNamespace()+"/"+m.GetName()] = true
		}
	}
	var objs []runtime.Object
	for _, x := range live.Classes {
		objs = append(objs, x)
	}
	for _, x := range live.Slices {
		objs = append(objs, x)
	}
	for _, x := range live.TaintRules {
		objs = append(objs, x)
	}
	for _, x := range live.Claims {
		if !givenClaims[x.Namespace+"/"+x.Name] {
			v1, err := conversion.FromHub(x, "v1")
			if err != nil {
				return fmt.Errorf("%s: resourceclaim %s/%s: %w", c.Where, x.Namespace, x.Name, err)
			}
			objs = append(objs, v1)
		}
	}
	in.cluster.Objects = append(objs, in.cluster.Objects...)
	for _, n := range live.Nodes {
		if !in.nodeNames[n.Name] {
			in.cluster.Nodes = append(in.cluster.Nodes, n)
		}
	}
	placeLive := len(in.cluster.Pods) == 0
	var add []*corev1.Pod
	for _, p := range pods {
		if in.podNames[p.Namespace+"/"+p.Name] {
			continue
		}
		scheduler := p.Spec.SchedulerName
		if scheduler == "" {
			// The API server defaults it; an object written by hand
			// may lack it.
			scheduler = corev1.DefaultSchedulerName
		}
		if p.Spec.NodeName == "" && (!placeLive || scheduler != o.SchedulerName) {
			continue
		}
		p.APIVersion, p.Kind = "v1", "Pod"
		add = append(add, p)
	}
	in.cluster.Pods = append(add, in.cluster.Pods...)
	// The templates the pods name, from the cluster when the input
	// lacks them.
	have := map[string]bool{}
	for _, obj := range in.cluster.Objects {
		if m, ok := obj.(interface {
			GetNamespace() string
			GetName() string
		}); ok && kindName(obj) == "ResourceClaimTemplate" {
			have[m.GetNamespace()+"/"+m.GetName()] = true
		}
	}
	for _, p := range in.cluster.Pods {
		for _, rc := range p.Spec.ResourceClaims {
			if rc.ResourceClaimTemplateName == nil || have[p.Namespace+"/"+*rc.ResourceClaimTemplateName] {
				continue
			}
			have[p.Namespace+"/"+*rc.ResourceClaimTemplateName] = true
			t, err := c.GetTemplate(ctx, p.Namespace, *rc.ResourceClaimTemplateName)
			if err != nil {
				continue // the pod waits for it, as the resourceclaim controller leaves it
			}
			v1, err := conversion.FromHub(t, "v1")
			if err != nil {
				return err
			}
			in.cluster.Objects = append(in.cluster.Objects, v1)
		}
	}
	return nil
}

func kindName(obj runtime.Object) string {
	return obj.GetObjectKind().GroupVersionKind().Kind
}

func (o *Options) group(in *input, name string) (*planner.Group, error) {
	for _, g := range in.groups {
		if g.Name == name {
			return g, nil
		}
	}
	var names []string
	for _, g := range in.groups {
		names = append(names, g.Name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("--add %s: the input has no NodeGroup; give a file of node groups with -f", name)
	}
	return nil, fmt.Errorf("--add %s: no NodeGroup of that name in the input (it has %s)", name, strings.Join(names, ", "))
}

// runAdd places the pods with the nodes of --add.
func (o *Options) runAdd(ctx context.Context, in *input) error {
	var adds []planner.Add
	for _, a := range o.adds {
		g, err := o.group(in, a.group)
		if err != nil {
			return err
		}
		if a.count > g.MaxSize {
			return fmt.Errorf("--add %s=%d: the group's spec.maxSize is %d", a.group, a.count, g.MaxSize)
		}
		adds = append(adds, planner.Add{Group: g, Count: a.count})
	}
	p, err := planner.Place(ctx, &in.cluster, adds)
	if err != nil {
		return describe.PodSearchStopped(err, o.Timeout)
	}
	var outcomes []planner.PodOutcome
	unplaced := 0
	for i, r := range p.Pods {
		if in.cluster.Pods[i].Spec.NodeName != "" {
			continue
		}
		po := planner.PodOutcome{Name: r.Name, Node: r.Node, Group: p.GroupOf[r.Node]}
		if r.Node == "" {
			unplaced++
			po.Message = podMessage(r)
		}
		outcomes = append(outcomes, po)
	}
	if o.Output != "table" {
		if err := o.print(map[string]any{"pods": outcomes}); err != nil {
			return err
		}
	} else {
		w := tabwriter.NewWriter(o.Out, 0, 8, 2, ' ', 0)
		fmt.Fprintln(w, "POD\tNODE\tGROUP")
		for _, po := range outcomes {
			fmt.Fprintf(w, "%s\t%s\t%s\n", po.Name, orDash(po.Node), orDash(po.Group))
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	for _, po := range outcomes {
		if po.Node == "" {
			fmt.Fprintf(o.ErrOut, "%s: %s\n", po.Name, po.Message)
		}
	}
	fmt.Fprintf(o.ErrOut, "Summary: %d of %d pending %s placed with %s added\n", len(outcomes)-unplaced, len(outcomes), cmdutil.Plural(len(outcomes), "pod", "pods"), describeAdds(adds))
	fmt.Fprintln(o.ErrOut, "Not simulated: "+allocator.NotSimulated+", preemption.")
	if unplaced > 0 {
		return cmdutil.ErrFailed
	}
	return nil
}

func describeAdds(adds []planner.Add) string {
	var parts []string
	for _, a := range adds {
		parts = append(parts, fmt.Sprintf("%d %s of %s", a.Count, cmdutil.Plural(a.Count, "node", "nodes"), a.Group.Name))
	}
	return strings.Join(parts, ", ")
}

func podMessage(r allocator.PodResult) string {
	switch {
	case r.Waiting != "":
		return "waits: " + r.Waiting
	case r.SchedulerError != "":
		return r.SchedulerError
	}
	return r.SchedulerMessage
}

// runPlan makes the plan and writes it.
func (o *Options) runPlan(ctx context.Context, in *input) error {
	if len(in.groups) == 0 {
		return fmt.Errorf("no NodeGroup in the input: give a file of node groups with -f (see drakit plan --help)")
	}
	plan, err := planner.MakePlan(ctx, &in.cluster, in.groups)
	if err != nil {
		return describe.PodSearchStopped(err, o.Timeout)
	}
	if o.Output != "table" {
		if err := o.print(plan); err != nil {
			return err
		}
	} else if err := o.printPlan(plan, in.groups); err != nil {
		return err
	}
	for _, po := range plan.Never {
		fmt.Fprintf(o.ErrOut, "%s: no group can place it: %s\n", po.Name, po.Message)
	}
	if !plan.Verified {
		fmt.Fprintf(o.ErrOut, "warning: placing the pods with the recommended nodes left %s unplaced, which the plan placed (please report it, with the input)\n", strings.Join(plan.Unverified, ", "))
	}
	fmt.Fprintf(o.ErrOut, "Summary: %d pending %s, %d fit now, %d no group can place\n", plan.Pending, cmdutil.Plural(plan.Pending, "pod", "pods"), len(plan.FitNow), len(plan.Never))
	fmt.Fprintln(o.ErrOut, "Not simulated: "+allocator.NotSimulated+", preemption.")
	if len(plan.Never) > 0 {
		return cmdutil.ErrFailed
	}
	return nil
}

func (o *Options) printPlan(plan *planner.Plan, groups []*planner.Group) error {
	w := tabwriter.NewWriter(o.Out, 0, 8, 2, ' ', 0)
	fmt.Fprintln(w, "GROUP\tNODES\tMAX\tPLACES\tUNPLACED\tCOST\tSEARCH")
	for k, gp := range plan.Groups {
		cost := "-"
		if gp.HasCost {
			cost = milli(gp.Cost)
		}
		nodes := strconv.Itoa(gp.Nodes)
		if gp.Exhausted {
			nodes += " (all)"
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%s\t%s\n", gp.Group, nodes, groups[k].MaxSize, len(gp.Places), len(gp.Unplaced), cost, gp.Search)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(o.Out)
	if plan.Mix != nil {
		fmt.Fprintf(o.Out, "Cheapest mix (%s): %s; cost %s; places %d more %s\n", plan.Mix.How, describeCounts(plan.Mix.Counts), milli(plan.Mix.Cost), plan.Mix.Places, cmdutil.Plural(plan.Mix.Places, "pod", "pods"))
	}
	fmt.Fprintf(o.Out, "Recommended: %s\n\n", describeCounts(plan.Recommended))
	w = tabwriter.NewWriter(o.Out, 0, 8, 2, ' ', 0)
	fmt.Fprintln(w, "POD\tNODE\tGROUP")
	for _, po := range plan.Result {
		fmt.Fprintf(w, "%s\t%s\t%s\n", po.Name, orDash(po.Node), orDash(po.Group))
	}
	return w.Flush()
}

func describeCounts(counts []planner.Count) string {
	if len(counts) == 0 {
		return "no nodes"
	}
	var parts []string
	for _, c := range counts {
		parts = append(parts, fmt.Sprintf("%d %s of %s", c.Nodes, cmdutil.Plural(c.Nodes, "node", "nodes"), c.Group))
	}
	return strings.Join(parts, ", ")
}

// milli writes a cost in thousandths as a decimal ("32.5").
func milli(v int64) string {
	return strconv.FormatFloat(float64(v)/1000, 'f', -1, 64)
}

// runHeadroom counts the replicas of --headroom that fit.
func (o *Options) runHeadroom(ctx context.Context, in *input) error {
	pod, err := o.headroomPod(in)
	if err != nil {
		return err
	}
	h, err := planner.MakeHeadroom(ctx, &in.cluster, pod, o.MaxReplicas)
	if err != nil {
		return describe.PodSearchStopped(err, o.Timeout)
	}
	if o.Output != "table" {
		return o.print(h)
	}
	w := tabwriter.NewWriter(o.Out, 0, 8, 2, ' ', 0)
	fmt.Fprintln(w, "NODE\tREPLICAS")
	for _, n := range h.PerNode {
		fmt.Fprintf(w, "%s\t%d\n", n.Node, n.Replicas)
	}
	total := strconv.Itoa(h.Total)
	if h.Capped {
		total = "at least " + total
	}
	fmt.Fprintf(w, "TOTAL\t%s\n", total)
	if err := w.Flush(); err != nil {
		return err
	}
	if h.Capped {
		fmt.Fprintf(o.ErrOut, "Stopped at --max-replicas %d: more may fit\n", o.MaxReplicas)
	} else {
		fmt.Fprintf(o.ErrOut, "Replica %d would not fit: %s\n", h.Total+1, h.Stopped)
	}
	fmt.Fprintln(o.ErrOut, "Not simulated: "+allocator.NotSimulated+", preemption.")
	return nil
}

// headroomPod is the pod --headroom names: a PodTemplate's pod, or a Pod
// of the input (taken out of the pods to place).
func (o *Options) headroomPod(in *input) (*corev1.Pod, error) {
	if t := in.templates[o.Headroom]; t != nil {
		return planner.PodFromTemplate(t), nil
	}
	for i, p := range in.cluster.Pods {
		if p.Namespace+"/"+p.Name == o.Headroom {
			in.cluster.Pods = append(in.cluster.Pods[:i:i], in.cluster.Pods[i+1:]...)
			return p, nil
		}
	}
	return nil, fmt.Errorf("--headroom %s: no Pod or PodTemplate of that namespace and name in the input", o.Headroom)
}

func (o *Options) print(v any) error {
	js, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if o.Output == "json" {
		_, err = fmt.Fprintf(o.Out, "%s\n", js)
		return err
	}
	y, err := yaml.JSONToYAML(js)
	if err != nil {
		return err
	}
	_, err = io.WriteString(o.Out, string(y))
	return err
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
