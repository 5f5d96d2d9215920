package planner

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/allocator"
)

// Search says how a group's fewest nodes were found.
type Search string

const (
	// FirstFit: one placement of the pods the cluster leaves on MaxSize
	// nodes of the group; the fewest nodes are those up to the last one
	// used (exact: see doc.go, Monotonicity).
	FirstFit Search = "first-fit"
	// Bisection: the cluster's slices reach the group's nodes, so that
	// placement need not be monotone; N found by bisection over whole
	// placements, then checked: N places the pods, N-1 does not.
	Bisection Search = "bisection"
)

// PodOutcome is where a pending pod goes in a plan, or why it goes
// nowhere.
type PodOutcome struct {
	// Name is "namespace/name".
	Name string `json:"name"`
	// Node is where the pod goes, "" for nowhere; Group the group of
	// Node, "" for a node of the cluster.
	Node  string `json:"node,omitempty"`
	Group string `json:"group,omitempty"`
	// Message is, for a pod that goes nowhere, the scheduler's message
	// (PodResult.SchedulerMessage), its error (SchedulerError), or why
	// it waits (a missing claim or template).
	Message string `json:"message,omitempty"`
}

// GroupPlan is what one group alone does for the pending pods.
type GroupPlan struct {
	Group string `json:"group"`
	// Nodes is the fewest nodes of the group that place every pending
	// pod the group can place with MaxSize nodes: with Nodes-1, one of
	// them is not placed.
	Nodes int `json:"nodes"`
	// Places are the pending pods that fit on no node of the cluster and
	// that the group's nodes place.
	Places []string `json:"places,omitempty"`
	// Unplaced are the pending pods that the cluster's nodes and Nodes
	// nodes of the group leave unplaced (with FirstFit, what MaxSize
	// nodes leave too; with Bisection, a pod that fits now may be among
	// them, its device taken by a pod on an added node).
	Unplaced []string `json:"unplaced,omitempty"`
	// Placed counts the pending pods placed in all, on the cluster's
	// nodes and Nodes nodes of the group.
	Placed int `json:"placed"`
	// Exhausted is set when all MaxSize nodes were used and pods remain
	// unplaced: a larger group might place more of them.
	Exhausted bool `json:"exhausted,omitempty"`
	// Cost is Nodes times the group's cost, in thousandths; HasCost when
	// the group has a cost.
	Cost    int64  `json:"costMilli,omitempty"`
	HasCost bool   `json:"hasCost,omitempty"`
	Search  Search `json:"search"`
	// maxPlaced are the pending pods placed with MaxSize nodes.
	maxPlaced []string
}

// Count is a number of nodes of a group in a plan.
type Count struct {
	Group string `json:"group"`
	Nodes int    `json:"nodes"`
}

// Mix is the cheapest combination of groups found (see doc.go, The
// cheapest mix, for what is guaranteed).
type Mix struct {
	Counts []Count `json:"counts"`
	// Cost is in thousandths of the groups' unit.
	Cost int64 `json:"costMilli"`
	// Places counts the pending pods it places beyond the cluster's.
	Places int `json:"places"`
	// How: "greedy" (the greedy mix, trimmed) or "single group" (one
	// group's own plan was cheaper).
	How string `json:"how"`
	// placed are the pods it places beyond the cluster's.
	placed map[string]bool
}

// Plan is the answer to "how many nodes of which group make these pods
// fit".
type Plan struct {
	// Pending counts the pending pods.
	Pending int `json:"pending"`
	// FitNow are the pending pods the cluster's nodes place as they are.
	FitNow []PodOutcome `json:"fitNow,omitempty"`
	// Groups are the groups' own plans, in the order given.
	Groups []GroupPlan `json:"groups"`
	// Mix is the cheapest mix of the groups with a cost (nil when none
	// has one, or when placement is not monotone).
	Mix *Mix `json:"mix,omitempty"`
	// Recommended are the nodes the final placement added: the Mix, else
	// the group with the fewest nodes that places every pod some group
	// can place, else every group's own plan together.
	Recommended []Count `json:"recommended,omitempty"`
	// Result is every pending pod in the final placement.
	Result []PodOutcome `json:"result"`
	// Never are the pending pods that no group places, with the
	// scheduler's message of the final placement.
	Never []PodOutcome `json:"never,omitempty"`
	// Verified is set when the final placement placed every pod the plan
	// said it would; Unverified lists the others (none, barring a defect
	// in the reasoning of doc.go; say so when it happens).
	Verified   bool     `json:"verified"`
	Unverified []string `json:"unverified,omitempty"`
	// Monotone is set when no slice of the cluster reaches the groups'
	// nodes, so that FirstFit applied to every group.
	Monotone bool `json:"monotone"`
}

// MakePlan finds, for the pending pods of the cluster, each group's
// fewest nodes, the cheapest mix of the groups with a cost, and the pods
// that no group can place; it then places the pods once more with the
// recommended nodes added, so that every number of the plan is one that
// placement confirms.
func MakePlan(ctx context.Context, c *Cluster, groups []*Group) (*Plan, error) {
	if err := checkNames(c, groups); err != nil {
		return nil, err
	}
	base, err := Place(ctx, c, nil)
	if err != nil {
		return nil, err
	}
	s := &session{c: c, everPlaced: map[string]bool{}}
	plan := &Plan{Monotone: true}
	for i, p := range c.Pods {
		if p.Spec.NodeName != "" {
			continue
		}
		plan.Pending++
		r := base.Pods[i]
		switch {
		case r.Node != "":
			plan.FitNow = append(plan.FitNow, PodOutcome{Name: r.Name, Node: r.Node})
		case r.Failure != nil && r.SchedulerError == "" && r.Waiting == "":
			s.residual = append(s.residual, p)
		}
	}
	s.reduced = reducedObjects(c.Objects, base.Placement)
	s.fitNow = len(plan.FitNow)
	placedBy := map[string][]string{}
	for _, g := range groups {
		reaches, err := reachesNewNodes(c.Objects, g)
		if err != nil {
			return nil, err
		}
		var gp *GroupPlan
		if !reaches {
			gp, err = s.firstFit(ctx, g)
		} else {
			plan.Monotone = false
			gp, err = s.bisect(ctx, g)
		}
		if err != nil {
			return nil, err
		}
		for _, name := range gp.Places {
			placedBy[name] = append(placedBy[name], g.Name)
		}
		for _, name := range gp.maxPlaced {
			s.everPlaced[name] = true
		}
		plan.Groups = append(plan.Groups, *gp)
	}
	if plan.Monotone {
		if plan.Mix, err = s.cheapestMix(ctx, groups, plan.Groups, placedBy); err != nil {
			return nil, err
		}
	}
	plan.Recommended = recommend(plan, len(placedBy))
	final, err := Place(ctx, c, addsOf(plan.Recommended, groups))
	if err != nil {
		return nil, err
	}
	plan.Verified = true
	fitNow := map[string]bool{}
	for _, o := range plan.FitNow {
		fitNow[o.Name] = true
	}
	want := planned(plan, placedBy)
	placed := 0
	for i, p := range c.Pods {
		if p.Spec.NodeName != "" {
			continue
		}
		r := final.Pods[i]
		o := PodOutcome{Name: r.Name, Node: r.Node, Group: final.GroupOf[r.Node]}
		if r.Node == "" {
			o.Message = messageOf(r)
			if !s.everPlaced[r.Name] && !fitNow[r.Name] {
				plan.Never = append(plan.Never, o)
			}
			if plan.Monotone && (fitNow[r.Name] || want[r.Name]) {
				plan.Verified = false
				plan.Unverified = append(plan.Unverified, r.Name)
			}
		} else {
			placed++
		}
		plan.Result = append(plan.Result, o)
	}
	if !plan.Monotone {
		// Without monotonicity the plan promises counts: the final
		// placement is the recommended group's own.
		for _, gp := range plan.Groups {
			if len(plan.Recommended) == 1 && gp.Group == plan.Recommended[0].Group && placed < gp.Placed {
				plan.Verified = false
			}
		}
	}
	return plan, nil
}

// planned are the pods the recommended nodes should place beyond the
// cluster's: those of the groups in it (of the Mix, the pods it placed).
func planned(plan *Plan, placedBy map[string][]string) map[string]bool {
	in := map[string]bool{}
	for _, c := range plan.Recommended {
		in[c.Group] = true
	}
	want := map[string]bool{}
	if plan.Mix != nil && plan.Mix.How == "greedy" {
		for name := range plan.Mix.placed {
			want[name] = true
		}
		return want
	}
	for name, gs := range placedBy {
		for _, g := range gs {
			if in[g] {
				want[name] = true
			}
		}
	}
	return want
}

func messageOf(r allocator.PodResult) string {
	switch {
	case r.Waiting != "":
		return r.Waiting
	case r.SchedulerError != "":
		return r.SchedulerError
	}
	return r.SchedulerMessage
}

// checkNames refuses a group whose nodes would take the name of a node
// of the cluster. (Two groups' nodes never share a name: "<group>-<n>"
// ends in digits after the group's name.)
func checkNames(c *Cluster, groups []*Group) error {
	names := map[string]bool{}
	for _, g := range groups {
		if names[g.Name] {
			return fmt.Errorf("%snode group %q: a second group of that name; give each group a name of its own", prefix(g.Source), g.Name)
		}
		names[g.Name] = true
	}
	for _, n := range c.Nodes {
		for _, g := range groups {
			suffix, ok := strings.CutPrefix(n.Name, g.Name+"-")
			if i, err := strconv.Atoi(suffix); ok && err == nil && i >= 0 && i < g.MaxSize && strconv.Itoa(i) == suffix {
				return fmt.Errorf("%snode group %q: its node %s has the name of a node of the cluster; rename the group", prefix(g.Source), g.Name, n.Name)
			}
		}
	}
	return nil
}

// upTo is the most nodes of a group a search adds for pods pods: each
// node a pod goes to holds one at least, so more nodes than pods change
// nothing (with first-fit, a node after the last one used is empty).
func upTo(g *Group, pods int) int {
	return min(g.MaxSize, max(pods, 1))
}

// session is what the searches of one plan share.
type session struct {
	c *Cluster
	// residual are the pending pods the cluster's nodes leave unplaced,
	// for no other reason than that no node fits them.
	residual []*corev1.Pod
	// reduced are the objects of placements on new nodes alone: the
	// cluster's classes, rules and templates, and the claims as the
	// cluster's placement left them (allocated ones hold their devices).
	reduced []runtime.Object
	// everPlaced are the pending pods some group's MaxSize nodes place.
	everPlaced map[string]bool
	// fitNow counts the pending pods the cluster's nodes place.
	fitNow int
}

// reducedObjects are the cluster's objects but its slices, and the
// claims as the placement left them: the claims given, and the claims it
// made and allocated.
func reducedObjects(objs []runtime.Object, base *allocator.Placement) []runtime.Object {
	var out []runtime.Object
	for _, obj := range objs {
		switch kindOf(obj) {
		case "ResourceSlice", "ResourceClaim":
			continue
		}
		out = append(out, obj)
	}
	given := len(base.Claims) - base.Made
	for i, c := range base.Claims {
		if i < given || c.Err == nil {
			out = append(out, c.Claim)
		}
	}
	return out
}

// onNewNodes places pods on the layout's nodes alone (no node of the
// cluster), as the cluster's placement left the claims. With no slice of
// the cluster reaching them, this is what the layout's nodes receive
// when they come after the cluster's (doc.go, Monotonicity).
func (s *session) onNewNodes(ctx context.Context, pods []*corev1.Pod, layout []Add) (*Placement, error) {
	c := &Cluster{Objects: s.reduced, Pods: pods, Features: s.c.Features, PodTimeout: s.c.PodTimeout}
	return Place(ctx, c, layout)
}

// used is, per group, the nodes of the placement up to the last one a
// pod went to, and the pods placed on the added nodes.
func used(p *Placement) (map[string]int, []string) {
	index := map[string]int{}
	for i, n := range p.Added {
		index[n.Name] = i
	}
	counts := map[string]int{}
	var placed []string
	first := map[string]int{}
	for i, n := range p.Added {
		g := p.GroupOf[n.Name]
		if _, ok := first[g]; !ok {
			first[g] = i
		}
	}
	for _, r := range p.Pods {
		g, ok := p.GroupOf[r.Node]
		if r.Node == "" || !ok || r.Bound {
			continue
		}
		placed = append(placed, r.Name)
		counts[g] = max(counts[g], index[r.Node]-first[g]+1)
	}
	return counts, placed
}

// firstFit is a group's plan where placement is monotone: the residual
// pods on MaxSize nodes of the group, once.
func (s *session) firstFit(ctx context.Context, g *Group) (*GroupPlan, error) {
	gp := &GroupPlan{Group: g.Name, Search: FirstFit, HasCost: g.HasCost}
	if len(s.residual) > 0 {
		p, err := s.onNewNodes(ctx, s.residual, []Add{{g, upTo(g, len(s.residual))}})
		if err != nil {
			return nil, err
		}
		counts, placed := used(p)
		gp.Nodes, gp.Places, gp.maxPlaced = counts[g.Name], placed, placed
		for _, r := range p.Pods {
			if r.Node == "" {
				gp.Unplaced = append(gp.Unplaced, r.Name)
			}
		}
		gp.Exhausted = gp.Nodes == g.MaxSize && len(gp.Unplaced) > 0
	}
	gp.Cost = int64(gp.Nodes) * g.Cost
	gp.Placed = s.fitNow + len(gp.Places)
	return gp, nil
}

// bisect is a group's plan where the cluster's slices reach the group's
// nodes: whole placements, the number of residual pods placed with
// MaxSize nodes the target, the fewest nodes that reach it by bisection
// (which presumes monotonicity), then lowered while one node fewer still
// reaches it, so that N places them and N-1 does not.
func (s *session) bisect(ctx context.Context, g *Group) (*GroupPlan, error) {
	gp := &GroupPlan{Group: g.Name, Search: Bisection, HasCost: g.HasCost}
	residual := map[string]bool{}
	for _, p := range s.residual {
		residual[p.Namespace+"/"+p.Name] = true
	}
	type outcome struct {
		placed, unplaced []string // pending pods
		fromResidual     []string // placed pods the cluster alone leaves
	}
	placedWith := func(n int) (*outcome, error) {
		p, err := Place(ctx, s.c, []Add{{g, n}})
		if err != nil {
			return nil, err
		}
		o := &outcome{}
		for i, r := range p.Pods {
			if s.c.Pods[i].Spec.NodeName != "" {
				continue
			}
			switch {
			case r.Node == "":
				o.unplaced = append(o.unplaced, r.Name)
			case residual[r.Name]:
				o.fromResidual = append(o.fromResidual, r.Name)
				fallthrough
			default:
				o.placed = append(o.placed, r.Name)
			}
		}
		return o, nil
	}
	if len(s.residual) == 0 {
		// Every pod fits now, and adding nodes cannot place more.
		gp.Placed = s.fitNow
		return gp, nil
	}
	// Pods that fit now may move to added nodes too: as many nodes as
	// pending pods are enough.
	most := upTo(g, len(s.c.Pods))
	best, err := placedWith(most)
	if err != nil {
		return nil, err
	}
	gp.maxPlaced = best.placed
	target := len(best.placed)
	lo, hi := 0, most
	for lo < hi {
		mid := (lo + hi) / 2
		o, err := placedWith(mid)
		if err != nil {
			return nil, err
		}
		if len(o.placed) >= target {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	n := hi
	for n > 0 {
		o, err := placedWith(n - 1)
		if err != nil {
			return nil, err
		}
		if len(o.placed) < target {
			break
		}
		n--
	}
	if n < most {
		if best, err = placedWith(n); err != nil {
			return nil, err
		}
	}
	gp.Nodes, gp.Places, gp.Unplaced, gp.Placed = n, best.fromResidual, best.unplaced, len(best.placed)
	gp.Exhausted = n == g.MaxSize && len(best.unplaced) > 0
	gp.Cost = int64(n) * g.Cost
	return gp, nil
}

// groupByName finds a group.
func groupByName(groups []*Group, name string) *Group {
	for _, g := range groups {
		if g.Name == name {
			return g
		}
	}
	return nil
}

func addsOf(counts []Count, groups []*Group) []Add {
	var out []Add
	for _, c := range counts {
		if c.Nodes > 0 {
			out = append(out, Add{groupByName(groups, c.Group), c.Nodes})
		}
	}
	return out
}

// recommend picks the nodes of the final placement: the mix; else,
// where placement is monotone, the group with the fewest nodes that
// places every pod some group places, else every group's own plan
// together; where it is not, the group that places the most pods (the
// fewest nodes among those).
func recommend(plan *Plan, placeable int) []Count {
	if plan.Mix != nil {
		return plan.Mix.Counts
	}
	best := -1
	for i, gp := range plan.Groups {
		var better bool
		switch {
		case best < 0:
			better = !plan.Monotone || len(gp.Places) == placeable
		case plan.Monotone:
			better = len(gp.Places) == placeable && gp.Nodes < plan.Groups[best].Nodes
		default:
			b := plan.Groups[best]
			better = gp.Placed > b.Placed || gp.Placed == b.Placed && gp.Nodes < b.Nodes
		}
		if better {
			best = i
		}
	}
	if best >= 0 {
		gp := plan.Groups[best]
		if gp.Nodes == 0 {
			return nil
		}
		return []Count{{gp.Group, gp.Nodes}}
	}
	var out []Count
	for _, gp := range plan.Groups {
		if gp.Nodes > 0 {
			out = append(out, Count{gp.Group, gp.Nodes})
		}
	}
	return out
}
