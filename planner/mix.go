package planner

import (
	"context"

	corev1 "k8s.io/api/core/v1"
)

// cheapestMix looks for the cheapest mix of the groups with a cost that
// places every pod some group can place (see doc.go, The cheapest mix):
// greedily the group whose nodes place the remaining pods at the lowest
// cost per pod placed, then each group of the mix trimmed while one node
// fewer still places them all; a single group's own plan that places
// them all for less replaces it. nil when no group has a cost.
func (s *session) cheapestMix(ctx context.Context, groups []*Group, plans []GroupPlan, placedBy map[string][]string) (*Mix, error) {
	var costed []int
	for i, g := range groups {
		if g.HasCost {
			costed = append(costed, i)
		}
	}
	if len(costed) == 0 {
		return nil, nil
	}
	var remaining []*corev1.Pod
	for _, p := range s.residual {
		if len(placedBy[p.Namespace+"/"+p.Name]) > 0 {
			remaining = append(remaining, p)
		}
	}
	if len(remaining) == 0 {
		// Nothing to buy: the cluster places every pod some group could.
		return nil, nil
	}
	target := remaining
	var layout []Add
	usedGroup := map[string]bool{}
	placed := map[string]bool{}
	first := true
	for len(remaining) > 0 {
		bestGroup, bestNodes := -1, 0
		var bestPlaced []string
		var bestScore float64
		for _, i := range costed {
			g := groups[i]
			if usedGroup[g.Name] {
				continue
			}
			var nodes int
			var got []string
			if first {
				// The groups' own plans are this step: the pods no group
				// places take nothing from any node.
				nodes, got = plans[i].Nodes, plans[i].Places
			} else {
				p, err := s.onNewNodes(ctx, remaining, []Add{{g, upTo(g, len(remaining))}})
				if err != nil {
					return nil, err
				}
				var counts map[string]int
				counts, got = used(p)
				nodes = counts[g.Name]
			}
			if len(got) == 0 {
				continue
			}
			score := float64(g.Cost) * float64(nodes) / float64(len(got))
			if bestGroup < 0 || score < bestScore || score == bestScore && nodes < bestNodes {
				bestGroup, bestNodes, bestPlaced, bestScore = i, nodes, got, score
			}
		}
		first = false
		if bestGroup < 0 {
			break
		}
		g := groups[bestGroup]
		usedGroup[g.Name] = true
		layout = append(layout, Add{g, bestNodes})
		for _, name := range bestPlaced {
			placed[name] = true
		}
		var rest []*corev1.Pod
		for _, p := range remaining {
			if !placed[p.Namespace+"/"+p.Name] {
				rest = append(rest, p)
			}
		}
		remaining = rest
	}
	// Trim: one node fewer of a group, while the layout still places
	// every pod the greedy steps placed.
	places := func(layout []Add) (bool, error) {
		p, err := s.onNewNodes(ctx, target, layout)
		if err != nil {
			return false, err
		}
		n := 0
		for _, r := range p.Pods {
			if r.Node != "" {
				n++
			}
		}
		return n >= len(placed), nil
	}
	for changed := true; changed; {
		changed = false
		for k := range layout {
			for layout[k].Count > 0 {
				layout[k].Count--
				ok, err := places(layout)
				if err != nil {
					return nil, err
				}
				if !ok {
					layout[k].Count++
					break
				}
				changed = true
			}
		}
	}
	mix := &Mix{How: "greedy", Places: len(placed), placed: placed}
	for _, a := range layout {
		if a.Count > 0 {
			mix.Counts = append(mix.Counts, Count{a.Group.Name, a.Count})
			mix.Cost += int64(a.Count) * a.Group.Cost
		}
	}
	for _, i := range costed {
		gp := plans[i]
		if len(gp.Places) >= mix.Places && (len(gp.Places) > mix.Places || gp.Cost < mix.Cost) {
			mix = &Mix{How: "single group", Cost: gp.Cost, Places: len(gp.Places)}
			if gp.Nodes > 0 {
				mix.Counts = []Count{{gp.Group, gp.Nodes}}
			}
		}
	}
	return mix, nil
}
