// Package allocate is "drakit allocate": claims allocated and pods placed
// offline, as the scheduler of the followed release would, from the
// classes, slices, DeviceTaintRules and nodes given with them (and with
// --from-cluster, a live cluster's); the output as objects or a table, and
// each failure explained in the scheduler's manner.
package allocate

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	cliresource "k8s.io/cli-runtime/pkg/resource"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	convertstream "github.com/drakit/drakit/cmd/drakit/internal/convert"
	"github.com/drakit/drakit/cmd/drakit/internal/describe"
	"github.com/drakit/drakit/cmd/drakit/internal/inputs"
	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/objects"
	"github.com/drakit/drakit/cmd/drakit/internal/printer"
)

var (
	allocateLong = `Allocate ResourceClaims as the scheduler of Kubernetes 1.37 does, from the
classes, ResourceSlices and DeviceTaintRules given with them (with
--from-cluster, also those of a live cluster).

The features are those of a 1.37 scheduler with the feature gates of
--feature-gates (kube-apiserver's syntax; default: the 1.37 defaults;
with --from-cluster, the defaults of the server's release, which the flag
changes).
On by default: firstAvailable alternatives (DRAPrioritizedList) and admin
access (DRAAdminAccess), both locked on; partitionable devices with shared
counters and per-device node selection (DRAPartitionableDevices); device
taints and tolerations (DRADeviceTaints) and DeviceTaintRules
(DRADeviceTaintRules); shared devices with consumable capacity
(DRAConsumableCapacity); binding conditions (DRADeviceBindingConditions).
Off by default: list-type attributes (DRAListTypeAttributes), derived
attributes (DRADerivedAttributes), compatibility groups
(DRADeviceCompatibilityGroups), optional node operations
(DRAOptionalNodeOperations) and fractional capacity ranges
(DRAFractionalCapacityRange). To leave out what 1.32 and later added,
turn their gates off:
  --feature-gates DRAPartitionableDevices=false,DRADeviceTaints=false,DRADeviceTaintRules=false,DRAConsumableCapacity=false,DRADeviceBindingConditions=false
That is 1.37's allocator with those gates off, not 1.31's, which differed
in more than gates and is not kept. firstAvailable and admin access stay
on (locked; claims written for 1.31 have no firstAvailable, and 1.31
already had admin access).

The inputs hold, in any versions and any order:
  - ResourceClaims to allocate; claims that already carry an allocation
    keep it and hold their devices (and their share of a shared device);
  - DeviceClasses (ResourceClasses in v1alpha1/v1alpha2) and ResourceSlices,
    the inventory;
  - DeviceTaintRules (v1alpha3, v1beta2, v1), whose taints the devices
    they select carry as if their slices did;
  - core/v1 Nodes, whose labels decide which network-attached slices
    (spec.nodeSelector) and devices a node reaches, and whose
    status.declaredFeatures which slices with skipNodeOperations it may use;
  - core/v1 Pods and ResourceClaimTemplates (any version): see Pods below.
Documents of other kinds are skipped and counted.

With --node the claims are allocated on that node (a Node document of that
name, or else a bare node with that name and no labels). Without --node
each claim goes to the first node that can satisfy it: the Node documents
in the order given, then the nodes named by slices (with --from-cluster
the cluster's Nodes only, as the scheduler has them).

Claims are allocated one after the other, each keeping what it got. With
--all-or-nothing they are allocated together, as the claims of one pod:
all of them or none.

Output: the claims with their allocation in their own versions (-o yaml,
the default, or json), or a table with one row per allocated device
(-o wide): claim, request ("request/alternative" for an alternative of
firstAvailable), driver, pool, device, node, status, then what the result
records for the device: the share ID and consumed capacity of a shared
device, the request's tolerations (key=value:Effect, key:Effect for
Exists, * for any key), the device's binding conditions and admin access.
Every claim that cannot be satisfied is explained on standard error,
naming the claim, the request (or "request/alternative") and each reason
with the nodes that gave it (counted when there are more than three;
--explain lists them), and the exit code is 1.
Input without claims is not an error: there is nothing to allocate, and
the exit code is 0.

Pods: with Pods in the input, drakit places them as the scheduler of
Kubernetes 1.37 does for DRA. Pending pods (without spec.nodeName) are
taken in the order of the scheduler's queue: higher priority first, then
the older creation time, then input order; pods with spec.nodeName hold
the devices of their claims. A pod's spec.resourceClaims name claims
(resourceClaimName; a claim allocated for another pod is shared and the
pod must go where that allocation is usable) or templates
(resourceClaimTemplateName; the claim is made as the resourceclaim
controller makes it, with a name derived from the pod and the entry so
that every run gives the same names, unless status.resourceClaimStatuses
names an existing claim). Container requests of an extended resource that
a DeviceClass serves (spec.extendedResourceName or
deviceclass.resource.kubernetes.io/<class>) get the claim the scheduler
makes, on nodes that do not list the resource in status.allocatable. All
claims of a pod are allocated together, on the first node (in the order
above) that the pod may use: node name, node selector, required node
affinity, taints with effect NoSchedule or NoExecute against the pod's
tolerations, unschedulable nodes, and the pod's requests of cpu, memory,
ephemeral storage and extended resources and its pod slot against the
node's status.allocatable minus what the pods on it request (on nodes
whose status.allocatable lists pods, as the kubelet reports it; the
scheduler's words: "Insufficient cpu", "Too many pods"). To ask how many
nodes would make the pods fit, see drakit plan. Not simulated, so a
placement is no promise: ` + allocator.NotSimulated + `.
Output with pods: the pods with spec.nodeName and the claims (made ones
included) with their allocation (-o yaml|json), or one row per pod and
device (-o wide). A pod that no node can run is explained on standard
error in the scheduler's manner, nodes counted by reason:
  0/3 nodes can run ml/train-7: 2 not enough devices for claim gpus (asks 8, at most 4 free), 1 node selector
--explain (-v) adds, per reason, the nodes and the claims holding the
devices of the first of them; with -o json the explanations are JSON
objects, one per line.

With --from-cluster the cluster of kubectl's connection flags
(--kubeconfig, --context, ...; any release from 1.30 on) is the
background: its classes, slices, DeviceTaintRules and nodes join the
input's, and its allocated claims hold their devices; a claim of the input
with the namespace and name of a stored one replaces it ("what if this
claim were changed?"). Only the input's claims are printed, and nothing
is written to the cluster.

The search of each claim over the nodes (of each pod, of all claims
together with --all-or-nothing) gives up after --timeout (default 10s),
as the scheduler's DRA filter does, naming the claims it was allocating,
with exit code 1: a claim over many devices with constraints can need a
search that does not end in practice. Many claims take as long as they
take.`

	allocateExample = `  # Where would the example claims go? (1.37: shared NICs, taints, alternatives)
  drakit allocate -f examples/v1 -o wide

  # The same without what 1.32 and later added (their gates off)
  drakit allocate -f examples/v1 -o wide --feature-gates DRAPartitionableDevices=false,DRADeviceTaints=false,DRADeviceTaintRules=false,DRAConsumableCapacity=false,DRADeviceBindingConditions=false

  # On one node, all claims together (one pod)
  drakit allocate -f inventory.yaml -f pod-claims.yaml --node node-b --all-or-nothing

  # Where would the example pods go, and why not?
  drakit allocate -f examples/pods -o wide --explain

  # Would these claims fit on the cluster now, next to what it has allocated?
  drakit allocate --from-cluster -f new-claims.yaml -o wide --context prod

  # Claims from a 1.37 cluster, inventory as kubectl prints it
  kubectl get deviceclasses,resourceslices,devicetaintrules,resourceclaims,nodes -A -o yaml | drakit allocate -f -

  # Claims from a 1.30 cluster
  kubectl get resourceclasses,resourceslices,resourceclaims,nodes -A -o yaml | drakit allocate -f -`
)

// Options are the options of "drakit allocate".
type Options struct {
	cliresource.FilenameOptions
	// Node is --node: allocate on this node (default: the first node
	// that fits each claim).
	Node string
	// Output is -o: yaml, json or wide (a table).
	Output string
	// Strict makes unknown and duplicate fields errors.
	Strict bool
	// AllOrNothing allocates all claims together, as the claims of one
	// pod, or none.
	AllOrNothing bool
	// FeatureGates are the scheduler's gates, in kube-apiserver's syntax,
	// over the followed release's defaults (with FromCluster, over those
	// of the server's release).
	FeatureGates string
	// Timeout bounds the search of one claim (or pod, or of all claims
	// with AllOrNothing); 0: no limit.
	Timeout time.Duration
	// Explain names the nodes of each reason a claim or pod failed.
	Explain bool
	// FromCluster allocates against the inventory of the cluster of
	// ClusterFlags.
	FromCluster  bool
	ClusterFlags *cluster.Flags

	format printer.Format
	inputs []inputs.Input
	// gates and features are those of a scheduler with the gates of
	// --feature-gates (with --from-cluster, set once connected).
	gates    features.Gates
	features allocator.Features
	// allocateObjects is allocator.AllocateObjects (tests give one that
	// panics).
	allocateObjects func(context.Context, []runtime.Object, allocator.ObjectOptions) ([]allocator.ObjectResult, error)

	genericiooptions.IOStreams
}

// NewOptions are the options with their defaults.
func NewOptions(streams genericiooptions.IOStreams) *Options {
	return &Options{Output: "yaml", Strict: true, Timeout: 10 * time.Second, ClusterFlags: cluster.NewFlags(),
		allocateObjects: allocator.AllocateObjects, IOStreams: streams}
}

// NewCmdAllocate is "drakit allocate".
func NewCmdAllocate(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewOptions(streams)
	cmd := &cobra.Command{
		Use:     "allocate -f FILENAME [--node NODE]",
		Short:   "Place pods and allocate claims from the devices of ResourceSlices, as the scheduler would",
		Long:    allocateLong,
		Example: allocateExample,
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
	inputs.AddFilenameFlags(cmd, &o.FilenameOptions, "with pods, claims, templates, classes, slices, DeviceTaintRules and nodes")
	cmd.Flags().StringVar(&o.Node, "node", o.Node, "allocate on this node (default: the first node that fits each claim)")
	cmd.Flags().StringVarP(&o.Output, "output", "o", o.Output, "output format: yaml, json or wide (a table)")
	cmd.Flags().BoolVar(&o.Strict, "strict", o.Strict, "treat unknown and duplicate fields as errors (false: warn and drop them)")
	cmd.Flags().BoolVar(&o.AllOrNothing, "all-or-nothing", o.AllOrNothing, "allocate all claims together, as the claims of one pod, or none")
	cmd.Flags().StringVar(&o.FeatureGates, "feature-gates", o.FeatureGates, "the scheduler's feature gates, in kube-apiserver's syntax (DRAConsumableCapacity=false,DRAListTypeAttributes=true; AllAlpha and AllBeta too); default: the 1.37 defaults, or with --from-cluster those of the server's release")
	cmd.Flags().DurationVar(&o.Timeout, "timeout", o.Timeout, "give up when the search of one claim (or pod, or of all claims with --all-or-nothing) takes longer (0: no limit); one claim over many devices can need a search that never ends in practice")
	cmd.Flags().BoolVarP(&o.Explain, "explain", "v", o.Explain, "for claims and pods that cannot be allocated or placed, name the nodes of each reason (for pods, also the claims holding their devices)")
	cmd.Flags().BoolVar(&o.FromCluster, "from-cluster", o.FromCluster, "read the classes, slices, DeviceTaintRules, nodes and allocated claims of the cluster (kubectl's connection flags) and allocate the given claims against them; nothing is written to the cluster")
	o.ClusterFlags.AddTo(cmd.Flags(), false)
	_ = cmd.RegisterFlagCompletionFunc("output", cmdutil.FixedCompletion("yaml", "json", "wide"))
	return cmd
}

// Complete reads -o and --feature-gates (without --from-cluster: with
// it, the flag applies over the defaults of the server's release, read
// once connected), and lists the inputs.
func (o *Options) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	switch o.Output {
	case "yaml", "json":
		o.format, _ = printer.ParseFormat(o.Output)
	case "wide":
	default:
		return cmdutil.UsageErrorf("unknown output format %q: use yaml, json or wide", o.Output)
	}
	var gates features.Gates
	if !o.FromCluster {
		var err error
		if gates, err = cmdutil.ParseFeatureGates("--feature-gates", o.FeatureGates); err != nil {
			return err
		}
	}
	o.gates, o.features = gates, allocator.FeaturesFromGates(gates)
	var err error
	o.inputs, err = inputs.Expand(o.FilenameOptions)
	return err
}

// Validate has nothing to check that Complete has not.
func (o *Options) Validate() error { return nil }

// claimEntry is one claim from the input and what became of it.
type claimEntry struct {
	obj     *objects.Object
	version string
	outcome allocator.ObjectResult
	// background: a claim of the cluster (--from-cluster), not of the input.
	background bool
}

// failureGroup is one reason a claim could not be allocated and the
// nodes that gave it: the same request and reason, whatever numbers the
// detail names on each node.
type failureGroup struct {
	key   string
	texts []string // the explanation on each node
	idx   []int    // the nodes' places in the order tried (Failures)
}

// same reports whether every node of the group gave the same explanation.
func (g *failureGroup) same() bool {
	for _, t := range g.texts {
		if t != g.texts[0] {
			return false
		}
	}
	return true
}

// namedNodes is how many nodes a reason may name on the error line; more
// are counted, and --explain lists them.
const namedNodes = 3

// failureGroups groups the claim's failures by request and reason, in
// the order first met. A group of a few nodes whose explanations differ
// is split by explanation, so that each one is shown.
func (c *claimEntry) failureGroups() []*failureGroup {
	var groups []*failureGroup
	byKey := map[string]*failureGroup{}
	for i, f := range c.outcome.Failures {
		why := explainFailure(f.Err)
		key := why
		var ce *allocator.ClaimError
		if errors.As(f.Err, &ce) {
			key = ce.Request + "\x00" + string(ce.Reason)
		}
		g := byKey[key]
		if g == nil {
			g = &failureGroup{key: key}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.texts = append(g.texts, why)
		g.idx = append(g.idx, i)
	}
	var out []*failureGroup
	for _, g := range groups {
		if len(g.idx) > namedNodes || g.same() {
			out = append(out, g)
			continue
		}
		byText := map[string]*failureGroup{}
		for i, t := range g.texts {
			sub := byText[t]
			if sub == nil {
				sub = &failureGroup{key: g.key}
				byText[t] = sub
				out = append(out, sub)
			}
			sub.texts = append(sub.texts, t)
			sub.idx = append(sub.idx, g.idx[i])
		}
	}
	return out
}

// explain says why the claim could not be allocated, one part per reason:
// the nodes that gave it (named when there are a few, counted when there
// are more) and the explanation of the first of them.
func (c *claimEntry) explain(groups []*failureGroup, tried int) string {
	if len(groups) == 1 && tried == 1 && c.outcome.Failures[0].Node == nil {
		return groups[0].texts[0]
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		n := len(g.idx)
		var where string
		switch {
		case n == tried && tried > 1 && n <= namedNodes:
			where = "on every node tried (" + c.nodeNames(g.idx) + ")"
		case n <= namedNodes:
			where = "on " + c.nodeNames(g.idx)
		case n == tried:
			where = fmt.Sprintf("on all %d nodes tried, first %s", n, c.nodeName(g.idx[0]))
		default:
			where = fmt.Sprintf("on %d of %d nodes tried, first %s", n, tried, c.nodeName(g.idx[0]))
		}
		parts[i] = where + ": " + g.texts[0]
	}
	return strings.Join(parts, "; ")
}

// explainNodes lists, for --explain, the nodes of each reason that the
// error line only counted: one line per reason, the nodes in runs as
// "describe pod --explain" writes them (never every node of a cluster).
func (c *claimEntry) explainNodes(groups []*failureGroup) []string {
	var lines []string
	for _, g := range groups {
		n := len(g.idx)
		if n <= namedNodes {
			continue
		}
		lines = append(lines, fmt.Sprintf("  %d %s (%s): %s", n, cmdutil.Plural(n, "node", "nodes"), shortReason(g), describe.NodeRunsText(g.idx, c.nodeName)))
	}
	return lines
}

// nodeName names the node of the claim's i-th failure.
func (c *claimEntry) nodeName(i int) string { return describeNode(c.outcome.Failures[i].Node) }

// nodeNames names the nodes of the given failures, in one text.
func (c *claimEntry) nodeNames(idx []int) string {
	names := make([]string, len(idx))
	for k, i := range idx {
		names[k] = c.nodeName(i)
	}
	return strings.Join(names, ", ")
}

// shortReason names a group's reason without a node's numbers.
func shortReason(g *failureGroup) string {
	request, reason, ok := strings.Cut(g.key, "\x00")
	if !ok {
		return g.texts[0]
	}
	if request == "" {
		return reason
	}
	return fmt.Sprintf("request %q: %s", request, reason)
}

// inventory is what the input holds for allocate.
type inventory struct {
	// objects are the classes, slices and claims, typed in their own
	// versions, in inputs.Input order: what allocator.AllocateObjects takes.
	objects []runtime.Object
	slices  []*resource.ResourceSlice // the slices in hub form, for the nodes they name
	claims  []*claimEntry             // the claims, in the order of objects
	// taintRules are the DeviceTaintRules in hub form, in inputs.Input order.
	taintRules []*resource.DeviceTaintRule
	nodes      []*corev1.Node
	skipped    map[string]int
	// pods and templates are used only when there are pods; without
	// them templates are skipped and counted.
	pods      []*podEntry
	podNames  map[string]bool
	templates []*objects.Object
}

// Run reads the inputs (and with --from-cluster the cluster f connects
// to), allocates the claims or places the pods, and writes the result.
func (o *Options) Run(f cmdutil.Factory) error {
	gates := o.gates
	rep := cmdutil.NewReporter(o.ErrOut)
	inv, err := o.read(o.inputs, rep)
	if err != nil {
		return err
	}
	if rep.Errors > 0 {
		fmt.Fprintf(o.ErrOut, "error: nothing was allocated (%d input %s)\n", rep.Errors, cmdutil.Plural(rep.Errors, "problem", "problems"))
		return cmdutil.ErrFailed
	}
	if o.FromCluster {
		if gates, err = o.addClusterInventory(f, inv); err != nil {
			return cmdutil.GatesError(err, o.FeatureGates)
		}
	}
	if len(inv.pods) > 0 {
		return o.runPods(inv, rep, o.format, gates)
	}
	return o.runClaims(inv, rep, o.format, gates)
}

// runClaims allocates the claims of the input, without pods, and reports
// each one that cannot be allocated.
func (o *Options) runClaims(inv *inventory, rep *cmdutil.Reporter, format printer.Format, gates features.Gates) error {
	for _, t := range inv.templates {
		inv.skipped[t.Head.APIVersion+" "+t.Head.Kind]++
	}
	if len(inv.claims) == 0 {
		// Not an error: an export of a namespace without claims is
		// allocated when it has none unsatisfiable.
		fmt.Fprintln(o.ErrOut, "No ResourceClaim in the input: nothing to allocate.")
		fmt.Fprintln(o.ErrOut, allocationSummary(0, 0, 0, inv.skipped))
		return nil
	}
	if n := len(inv.taintRules); n > 0 && !o.features.DeviceTaintRules {
		// A 1.37 scheduler with the gate off ignores the rules; say so,
		// since their taints are then missing from every answer.
		fmt.Fprintf(o.ErrOut, "note: %d %s not applied: feature gate %s is off\n", n, cmdutil.Plural(n, "DeviceTaintRule", "DeviceTaintRules"), offTaintRuleGate(gates))
	}
	tried := len(o.candidateNodes(inv))
	if err := o.allocate(inv); err != nil {
		rep.Fail(err)
		return cmdutil.ErrFailed
	}
	inv.claims = foregroundClaims(inv.claims)

	out := bufio.NewWriter(o.Out)
	var err error
	if o.Output == "wide" {
		err = printTable(out, inv)
	} else {
		err = printClaims(out, inv, format)
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		return err
	}
	if failed := o.reportClaims(inv, rep, tried); failed > 0 {
		return cmdutil.ErrFailed
	}
	return nil
}

// reportClaims explains each claim that could not be allocated, then
// writes the summary; it returns how many failed.
func (o *Options) reportClaims(inv *inventory, rep *cmdutil.Reporter, tried int) int {
	failed, allocated, held := 0, 0, 0
	for _, c := range inv.claims {
		switch {
		case c.outcome.Err != nil:
			failed++
			groups := c.failureGroups()
			e := c.obj.Errorf("cannot be allocated: %s", c.explain(groups, tried))
			rep.Report(e, false)
			if o.Explain {
				for _, line := range c.explainNodes(groups) {
					fmt.Fprintln(o.ErrOut, line)
				}
			}
		case c.outcome.Result.AlreadyAllocated:
			held++
		default:
			allocated++
		}
	}
	fmt.Fprintln(o.ErrOut, allocationSummary(allocated, held, failed, inv.skipped))
	return failed
}

// allocate fills in the outcome of every claim: each claim (or, with
// --all-or-nothing, all claims together) on the first candidate node that
// fits. It gives up after --timeout.
func (o *Options) allocate(inv *inventory) error {
	mode := allocator.Sequential
	if o.AllOrNothing {
		mode = allocator.Joint
	}
	features := o.features
	opts := allocator.ObjectOptions{Nodes: o.candidateNodes(inv), Mode: mode, Features: &features, DeviceTaintRules: inv.taintRules, ClaimTimeout: o.Timeout}
	results, err := o.allocateSafely(context.Background(), inv.objects, opts)
	var stopped *allocator.StoppedError
	if errors.As(err, &stopped) && errors.Is(err, context.DeadlineExceeded) {
		return o.timeoutError(inv, stopped)
	}
	if err != nil {
		return err
	}
	for i, c := range inv.claims {
		c.outcome = results[i]
	}
	return nil
}

// allocateSafely is allocateObjects with a panic turned into an error
// that asks for a report.
func (o *Options) allocateSafely(ctx context.Context, objs []runtime.Object, opts allocator.ObjectOptions) (results []allocator.ObjectResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in the allocator: %v (please report it, with the input)", r)
		}
	}()
	return o.allocateObjects(ctx, objs, opts)
}

// timeoutError says that allocation took longer than --timeout, naming
// the claims being allocated when it stopped (with their file and
// document when there is one), and what to do.
func (o *Options) timeoutError(inv *inventory, stopped *allocator.StoppedError) error {
	what := "the allocation"
	var claims []*claimEntry
	if stopped != nil {
		for _, name := range stopped.Claims {
			for _, c := range inv.claims {
				if claimID(c) == name {
					claims = append(claims, c)
					break
				}
			}
		}
		if stopped.Node != nil {
			what += " on node " + stopped.Node.Name
		}
	}
	msg := fmt.Sprintf("%s did not finish within %s (--timeout): the search over the requests and the devices that match them is too large; narrow the claim's selectors or device counts, give --node, or raise --timeout", what, o.Timeout)
	switch {
	case len(claims) == 1:
		return claims[0].obj.Errorf("%s", msg)
	case len(claims) > 1:
		names := make([]string, len(claims))
		for i, c := range claims {
			names[i] = c.obj.Name()
		}
		return fmt.Errorf("claims %s: %s", strings.Join(names, ", "), msg)
	}
	return errors.New(msg)
}

// claimID is the claim's "namespace/name", as the allocator names it.
func claimID(c *claimEntry) string {
	h := c.obj.Head.Metadata
	if h.Namespace == "" {
		return h.Name
	}
	return h.Namespace + "/" + h.Name
}

// candidateNodes are the nodes to try: the one given with --node, else
// the Node documents and then the nodes named by slices; with none of
// these, no node (only slices that every node reaches).
func (o *Options) candidateNodes(inv *inventory) []*corev1.Node {
	if o.Node != "" {
		for _, n := range inv.nodes {
			if n.Name == o.Node {
				return []*corev1.Node{n}
			}
		}
		return []*corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: o.Node}}}
	}
	nodes := append([]*corev1.Node(nil), inv.nodes...)
	if o.FromCluster {
		// The cluster's Nodes are all the nodes there are: the scheduler
		// never places a pod on a node a slice names but the cluster
		// lacks.
		if len(nodes) == 0 {
			return []*corev1.Node{nil}
		}
		return nodes
	}
	known := map[string]bool{}
	for _, n := range nodes {
		known[n.Name] = true
	}
	var named []string
	for _, sl := range inv.slices {
		if sl.Spec.NodeName == nil {
			continue
		}
		if n := *sl.Spec.NodeName; n != "" && !known[n] {
			known[n] = true
			named = append(named, n)
		}
	}
	sort.Strings(named)
	for _, n := range named {
		nodes = append(nodes, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n}})
	}
	if len(nodes) == 0 {
		return []*corev1.Node{nil}
	}
	return nodes
}

// explainFailure says why a claim failed, naming the request and the
// reason.
func explainFailure(err error) string {
	var ce *allocator.ClaimError
	if !errors.As(err, &ce) {
		return err.Error()
	}
	msg := ""
	if ce.Request != "" {
		msg = fmt.Sprintf("request %q: ", ce.Request)
	}
	msg += string(ce.Reason) + ": " + ce.Detail
	if ce.Err != nil {
		msg += ": " + ce.Err.Error()
	}
	return msg
}

// offTaintRuleGate names the gate that keeps DeviceTaintRules from being
// applied: DRADeviceTaintRules, or DRADeviceTaints which it depends on.
func offTaintRuleGate(g features.Gates) features.Name {
	if !g.Enabled(features.DRADeviceTaints) {
		return features.DRADeviceTaints
	}
	return features.DRADeviceTaintRules
}

func describeNode(n *corev1.Node) string {
	if n == nil {
		return "no node (only devices that every node reaches)"
	}
	return n.Name
}

// allocatedObject is the claim in its own version with its allocation, or
// as it was given when it was not allocated or came allocated.
func (c *claimEntry) allocatedObject() runtime.Object {
	if c.outcome.Err != nil || c.outcome.Result.AlreadyAllocated {
		return c.obj.Typed
	}
	return c.outcome.Claim
}

func printClaims(w *bufio.Writer, inv *inventory, format printer.Format) error {
	out := printer.NewStream(w, format)
	for _, c := range inv.claims {
		src := &printer.Source{}
		if c.obj.At == "" {
			src.Comments = c.obj.Doc.Comments()
		}
		if c.obj.At == "" && (c.outcome.Err != nil || c.outcome.Result.AlreadyAllocated) {
			src.Content, src.JSON, src.IsJSON = c.obj.Doc.Content(), c.obj.JSON, c.obj.Doc.Format == manifest.JSON
			if err := out.Unchanged(src); err != nil {
				return err
			}
			continue
		}
		content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(c.allocatedObject())
		if err != nil {
			return fmt.Errorf("%s: %w", c.obj.Name(), err)
		}
		convertstream.PruneNoise(content)
		if err := out.Object(src, content); err != nil {
			return err
		}
	}
	return nil
}

func allocationSummary(allocated, held, failed int, skipped map[string]int) string {
	line := fmt.Sprintf("Summary: %d %s allocated, %d allocated before, %d unsatisfiable", allocated, cmdutil.Plural(allocated, "claim", "claims"), held, failed)
	if len(skipped) > 0 {
		var kinds []string
		total := 0
		for k, n := range skipped {
			kinds = append(kinds, fmt.Sprintf("%s: %d", k, n))
			total += n
		}
		sort.Strings(kinds)
		line += fmt.Sprintf("; %d other %s skipped (%s)", total, cmdutil.Plural(total, "object", "objects"), strings.Join(kinds, ", "))
	}
	return line
}
