package allocator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
)

// ObjectOptions are the settings of AllocateObjects.
type ObjectOptions struct {
	// Node is the node the claims are for; nil for none (see Options.Node).
	// The claims are allocated in one Allocate call (see Mode).
	Node *corev1.Node
	// Nodes, when not empty, replace Node with a search over these nodes,
	// in order; a nil entry stands for no node. In Sequential mode each
	// claim goes to the first node that can take it, and its devices are
	// in use for the claims after it (a claim that finds them taken fails
	// as if they had been allocated before the call). In Joint mode all
	// claims go to the first node that can take all of them.
	Nodes []*corev1.Node
	// Mode relates the claims; Joint by default.
	Mode Mode
	// Features are the allocator's features (see Options.Features); nil
	// means DefaultFeatures.
	Features *Features
	// DeviceTaintRules are added to the DeviceTaintRules given among the
	// objects (see Options.DeviceTaintRules).
	DeviceTaintRules []*resource.DeviceTaintRule
	// ClaimTimeout, when positive, bounds the search of each claim over
	// the nodes, or of the one call that allocates the claims together
	// (Joint mode, or without Nodes); with pods, each pod's search
	// (PodOptions.PodTimeout). A search that outlasts it stops
	// AllocateObjects with a *StoppedError naming the claims and the node.
	// It plays the part of the scheduler's DRA filter timeout
	// (DRASchedulerFilterTimeout), which bounds one node's Filter: one
	// claim whose search never ends in practice is found out whatever the
	// size of the cluster, and a run over many claims is not cut short.
	ClaimTimeout time.Duration
}

// ObjectResult is the outcome for one claim given to AllocateObjects.
type ObjectResult struct {
	// Name is the claim's "namespace/name".
	Name string
	// Version is the claim's version ("v1alpha1" to "v1").
	Version string
	// Claim is the claim in its own version with status.allocation filled
	// in (allocation.devices from v1alpha3 on, v1alpha2 resourceHandles
	// with structuredData, v1alpha1 resourceHandle), typed or unstructured
	// as it was given. It is nil when Err is set.
	Claim runtime.Object
	// Result is the hub result.
	Result Result
	// Err is Result.Err.
	Err error
	// Node is the name of the node the claim was allocated on; empty for
	// no node, for a claim that came allocated and for one that was not
	// allocated.
	Node string
	// Failures say why the claim could not be allocated, one entry per
	// node tried, in order: all nodes for a claim that was not allocated,
	// the nodes before Node for one that was. With Node rather than Nodes
	// there is at most one entry, for a claim that was not allocated. In
	// Sequential mode over Nodes the claims of one spec share their
	// failures: a node that failed for an earlier claim of the same spec
	// is not tried again, and its entry is that claim's (naming it, with
	// the numbers of that moment). The slice is shared: do not modify it.
	Failures []NodeFailure
}

// StoppedError is AllocateObjects' error when its context ends before
// the allocation does: it names what was being allocated then, so that a
// caller with a deadline can say which claims take too long.
type StoppedError struct {
	// Claims are the claims ("namespace/name") of the call that was
	// stopped: one in Sequential mode with several nodes, else all that
	// were being allocated together.
	Claims []string
	// Node is the node tried; nil for no node.
	Node *corev1.Node
	// Err is the context's error.
	Err error
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("allocating %s on %s: %v", strings.Join(e.Claims, ", "), describeNodeOrNone(e.Node), e.Err)
}

func (e *StoppedError) Unwrap() error { return e.Err }

func describeNodeOrNone(n *corev1.Node) string {
	if n == nil {
		return "no node"
	}
	return "node " + n.Name
}

// stopped wraps the error of a call that the context ended.
func stopped(err error, node *corev1.Node, claims []*resource.ResourceClaim) error {
	if err == nil || !(errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return err
	}
	e := &StoppedError{Node: node, Err: err}
	for _, c := range claims {
		if c.Status.Allocation == nil {
			e.Claims = append(e.Claims, claimName(c))
		}
	}
	return e
}

// NodeFailure is why a claim could not be allocated on one node.
type NodeFailure struct {
	// Node is the node tried; nil for no node.
	Node *corev1.Node
	// Err is the claim's error there, a *ClaimError.
	Err error
}

// AllocateObjects allocates claims written in any version of
// resource.k8s.io, given together with the classes, slices and
// DeviceTaintRules (of any version that has the kind) to use, as typed
// objects or *unstructured.Unstructured; nodes are given in ObjectOptions.
// Claims that already have an
// allocation count as allocated (their devices are in use) and come back
// unchanged; every other claim is allocated, on ObjectOptions.Node or on
// the first of ObjectOptions.Nodes that fits. The results are in the order
// the claims appear in objs. With core/v1 Pods among the objects, the
// pods are placed as PlacePods does (templates may be given then) and the
// results are Placement.Claims: the claims given, then those made.
// Objects of other kinds (PodSchedulingContext, ...) are rejected, naming
// the object, so that nothing given is silently ignored. The error return
// is for unusable input and a cancelled context; claims that cannot be
// allocated get their error in the result.
func AllocateObjects(ctx context.Context, objs []runtime.Object, opts ObjectOptions) ([]ObjectResult, error) {
	if hasPods(objs) {
		placed, err := PlacePods(ctx, objs, opts, PodOptions{PodTimeout: opts.ClaimTimeout})
		if err != nil {
			return nil, err
		}
		return placed.Claims, nil
	}
	in, err := hubObjects(objs)
	if err != nil {
		return nil, err
	}
	in.taintRules = append(in.taintRules, opts.DeviceTaintRules...)
	var outcomes []claimOutcome
	if len(opts.Nodes) == 0 {
		outcomes, err = allocateOnNode(ctx, in, opts)
	} else {
		outcomes, err = allocateOnFirstFit(ctx, in, opts)
	}
	if err != nil {
		return nil, err
	}
	out := make([]ObjectResult, len(outcomes))
	for i, o := range outcomes {
		r := o.result
		out[i] = ObjectResult{Name: claimName(in.claims[i]), Version: in.versions[i], Result: r, Err: r.Err, Node: o.node, Failures: o.failures}
		if r.Err != nil {
			continue
		}
		hub := in.claims[i]
		if !r.AlreadyAllocated {
			hub = r.AllocatedClaim()
			if v := in.versions[i]; v == "v1alpha1" || v == "v1alpha2" {
				// Before v1alpha3 the status names the driver that handled
				// the allocation; with structured allocation that is the
				// driver of the devices, when there is exactly one. Later
				// versions have no such field.
				hub.Status.DriverName = singleDriver(r.Allocation)
			}
		}
		obj, err := conversion.FromHub(hub, in.versions[i])
		if err != nil {
			return nil, fmt.Errorf("claim %s: writing the allocation back as %s: %w", out[i].Name, in.versions[i], err)
		}
		if in.wasUnstructured[i] {
			content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
			if err != nil {
				return nil, fmt.Errorf("claim %s: %w", out[i].Name, err)
			}
			obj = &unstructured.Unstructured{Object: content}
		}
		out[i].Claim = obj
	}
	return out, nil
}

// hubInput is what AllocateObjects was given, in hub types, in the order
// given; versions and wasUnstructured say how to write each claim back.
type hubInput struct {
	classes         []*resource.DeviceClass
	slices          []*resource.ResourceSlice
	taintRules      []*resource.DeviceTaintRule
	claims          []*resource.ResourceClaim
	versions        []string
	wasUnstructured []bool
}

func hubObjects(objs []runtime.Object) (*hubInput, error) {
	in := &hubInput{}
	for i, obj := range objs {
		if obj == nil {
			return nil, fmt.Errorf("object %d is nil", i)
		}
		gvk, isUnstructured, err := kindOf(obj)
		if err != nil {
			return nil, fmt.Errorf("object %d: %w", i, err)
		}
		typed := obj
		if isUnstructured {
			u := obj.(*unstructured.Unstructured)
			if typed, err = conversion.Scheme.New(gvk); err != nil {
				return nil, fmt.Errorf("object %d (%s %q): %w", i, gvk.Kind, u.GetName(), err)
			}
			// Unknown fields are an error: dropping them would lose data.
			if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(u.Object, typed, true); err != nil {
				return nil, fmt.Errorf("object %d (%s %q): %w", i, gvk.Kind, u.GetName(), err)
			}
			typed.GetObjectKind().SetGroupVersionKind(gvk)
		}
		hub, err := conversion.ToHub(typed)
		if err != nil {
			return nil, fmt.Errorf("object %d (%s): %w", i, gvk.Kind, err)
		}
		switch h := hub.(type) {
		case *resource.DeviceClass:
			in.classes = append(in.classes, h)
		case *resource.ResourceSlice:
			in.slices = append(in.slices, h)
		case *resource.DeviceTaintRule:
			in.taintRules = append(in.taintRules, h)
		case *resource.ResourceClaim:
			in.claims = append(in.claims, h)
			in.versions = append(in.versions, gvk.Version)
			in.wasUnstructured = append(in.wasUnstructured, isUnstructured)
		default:
			return nil, fmt.Errorf("object %d: %s %q plays no part in allocation; give DeviceClasses (ResourceClasses), ResourceSlices, DeviceTaintRules and ResourceClaims", i, gvk.Kind, nameOf(obj))
		}
	}
	return in, nil
}

// claimOutcome is what became of one claim: its last result, the node it
// was allocated on and why other nodes could not take it.
type claimOutcome struct {
	result   Result
	node     string
	failures []NodeFailure
}

// allocateOnNode allocates all claims in one call on one node. Claims that
// come allocated are part of the call and hold their devices during it.
func allocateOnNode(ctx context.Context, in *hubInput, opts ObjectOptions) ([]claimOutcome, error) {
	node := opts.Node
	a, err := New(Options{Classes: in.classes, Slices: in.slices, Node: node, Mode: opts.Mode, Features: opts.Features, DeviceTaintRules: in.taintRules})
	if err != nil {
		return nil, err
	}
	ctx, cancel := withClaimTimeout(ctx, opts.ClaimTimeout)
	defer cancel()
	results, err := a.Allocate(ctx, in.claims)
	if err != nil {
		return nil, stopped(err, node, in.claims)
	}
	out := make([]claimOutcome, len(results))
	for i, r := range results {
		out[i].result = r
		switch {
		case r.Err != nil:
			out[i].failures = []NodeFailure{{Node: node, Err: r.Err}}
		case !r.AlreadyAllocated:
			out[i].node = nodeName(node)
		}
	}
	return out, nil
}

// allocateOnFirstFit tries the nodes in order: per claim in Sequential
// mode, keeping the devices of each claim allocated (Commit) for the
// claims after it, or for all claims together in Joint mode. Claims that
// come allocated hold their devices throughout.
func allocateOnFirstFit(ctx context.Context, in *hubInput, opts ObjectOptions) ([]claimOutcome, error) {
	nodes, mode := opts.Nodes, opts.Mode
	out := make([]claimOutcome, len(in.claims))
	var held []*resource.ResourceClaim
	var pending []int // indices of the claims to allocate
	for i, c := range in.claims {
		if c.Status.Allocation != nil {
			held = append(held, c)
			out[i].result = Result{Claim: c, Allocation: c.Status.Allocation, AlreadyAllocated: true}
			continue
		}
		pending = append(pending, i)
	}
	a, err := New(Options{Classes: in.classes, Slices: in.slices, AllocatedClaims: held, Mode: mode, Features: opts.Features, DeviceTaintRules: in.taintRules})
	if err != nil {
		return nil, err
	}
	if mode == Joint {
		ctx, cancel := withClaimTimeout(ctx, opts.ClaimTimeout)
		defer cancel()
		return out, allocateJointOnFirstFit(ctx, a, in, nodes, pending, out)
	}
	kinds := map[string]*claimKind{}
	for _, i := range pending {
		k := claimKindOf(kinds, in.claims[i])
		if err := allocateClaimOnFirstFit(ctx, a, nodes, in.claims[i], k, opts.ClaimTimeout, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// claimKind is what the claims of one spec (and namespace) share in a
// first-fit search. The nodes before cursor failed for an earlier claim
// of the kind, and since committed devices stay allocated (nodes only
// fill up) they fail for this one too: a claim starts at the cursor, and
// a cluster of many nodes and many claims of a few kinds is searched
// about once per kind, not once per claim. The failures of the nodes
// before the cursor are kept once per kind and shared by its claims.
type claimKind struct {
	cursor   int
	failures []NodeFailure // of the nodes before cursor; only appended to
}

func claimKindOf(kinds map[string]*claimKind, c *resource.ResourceClaim) *claimKind {
	key, err := json.Marshal([]any{c.Namespace, &c.Spec})
	if err != nil {
		// Unreachable for API types; a kind of its own is correct, only
		// slower.
		return &claimKind{}
	}
	k := kinds[string(key)]
	if k == nil {
		k = &claimKind{}
		kinds[string(key)] = k
	}
	return k
}

// allocateClaimOnFirstFit allocates one claim on the first node from its
// kind's cursor that can take it and keeps its devices allocated (Commit)
// for the claims after it; the nodes before are its failures.
func allocateClaimOnFirstFit(ctx context.Context, a *Allocator, nodes []*corev1.Node, c *resource.ResourceClaim, k *claimKind, timeout time.Duration, out *claimOutcome) error {
	ctx, cancel := withClaimTimeout(ctx, timeout)
	defer cancel()
	claim := []*resource.ResourceClaim{c}
	for ; k.cursor < len(nodes); k.cursor++ {
		node := nodes[k.cursor]
		results, err := a.AllocateOn(ctx, node, claim)
		if err != nil {
			return stopped(err, node, claim)
		}
		if results[0].Err == nil {
			out.result, out.node = results[0], nodeName(node)
			out.failures = k.failures[:k.cursor:k.cursor]
			a.Commit(results)
			return nil
		}
		k.failures = append(k.failures, NodeFailure{Node: node, Err: results[0].Err})
	}
	out.failures = k.failures[:len(k.failures):len(k.failures)]
	out.result = Result{Claim: c, Err: lastFailureFor(out.failures, c)}
	return nil
}

// lastFailureFor is the failure on the last node, naming the claim c
// (the failures of a kind name the claim that met them first).
func lastFailureFor(failures []NodeFailure, c *resource.ResourceClaim) error {
	if len(failures) == 0 {
		return &ClaimError{Claim: claimName(c), Reason: ReasonNotEnough, Detail: "no node to try"}
	}
	err := failures[len(failures)-1].Err
	var ce *ClaimError
	if errors.As(err, &ce) && ce.Claim != claimName(c) {
		copied := *ce
		copied.Claim = claimName(c)
		return &copied
	}
	return err
}

// withClaimTimeout bounds ctx by timeout when it is positive.
func withClaimTimeout(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, timeout)
}

// allocateJointOnFirstFit allocates all pending claims on the first node
// that can take all of them.
func allocateJointOnFirstFit(ctx context.Context, a *Allocator, in *hubInput, nodes []*corev1.Node, pending []int, out []claimOutcome) error {
	claims := make([]*resource.ResourceClaim, len(pending))
	for k, i := range pending {
		claims[k] = in.claims[i]
	}
	for _, node := range nodes {
		results, err := a.AllocateOn(ctx, node, claims)
		if err != nil {
			return stopped(err, node, claims)
		}
		allFit := true
		for _, r := range results {
			allFit = allFit && r.Err == nil
		}
		for k, i := range pending {
			out[i].result = results[k]
			if allFit {
				out[i].node = nodeName(node)
				out[i].failures = nil
			} else if results[k].Err != nil {
				out[i].failures = append(out[i].failures, NodeFailure{Node: node, Err: results[k].Err})
			}
		}
		if allFit {
			a.Commit(results)
			return nil
		}
	}
	return nil
}

func nodeName(n *corev1.Node) string {
	if n == nil {
		return ""
	}
	return n.Name
}

func singleDriver(a *resource.AllocationResult) string {
	driver := ""
	for _, r := range a.Devices.Results {
		if driver != "" && r.Driver != driver {
			return ""
		}
		driver = r.Driver
	}
	return driver
}

func kindOf(obj runtime.Object) (schema.GroupVersionKind, bool, error) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		gvk := u.GroupVersionKind()
		if gvk.Group != resource.GroupName {
			return gvk, true, fmt.Errorf("%s %q is not in the %s group", gvk.Kind, u.GetName(), resource.GroupName)
		}
		return gvk, true, nil
	}
	gvks, _, err := conversion.Scheme.ObjectKinds(obj)
	if err != nil {
		return schema.GroupVersionKind{}, false, fmt.Errorf("%T is not a resource.k8s.io type: %w", obj, err)
	}
	for _, gvk := range gvks {
		if gvk.Group == resource.GroupName {
			return gvk, false, nil
		}
	}
	return schema.GroupVersionKind{}, false, fmt.Errorf("%T is not a resource.k8s.io type", obj)
}

func nameOf(obj runtime.Object) string {
	if m, ok := obj.(interface{ GetName() string }); ok {
		return m.GetName()
	}
	return ""
}
