// Package planner answers the capacity questions of DRA clusters with
// allocator.PlacePods, the scheduler's placement of pods with their claims
// (and its NodeResourcesFit): which pending pods fit when nodes of a kind
// are added (Place), how many nodes of which group make them all fit
// (MakePlan), and how many more replicas of a pod fit now (MakeHeadroom).
//
// A node group (NodeGroup, read by ReadNodeGroups) is a template Node and
// the ResourceSlices a node of the group publishes; Group.Node and
// Group.NodeSlices make its i-th node, with the pool fields filled in as a
// driver fills them (see NodeGroup for the schema and the rules).
//
// # Monotonicity
//
// PlacePods tries the nodes in order and gives each pod the first that
// fits; nodes only fill up. Nodes added come after the cluster's. When no
// slice of the cluster reaches a node of the group (no allNodes slice, no
// node selector that matches the group's template, no per-device node
// selection), what a pod takes on an added node is taken from that node
// alone: its own pools, its cpu, memory and pod slots. Then, by induction
// over the queue, the placement with N+1 nodes is the placement with N
// nodes plus, on node N+1, pods that found no node with N: the pods on
// the cluster's nodes and on the first N added ones are the same. So:
//
//   - the pods the cluster's nodes place are the same whatever is added,
//     and the added nodes receive, in queue order, exactly the pods the
//     cluster leaves (the residual pods); the search places those on the
//     added nodes alone, with the claims as the cluster's placement left
//     them;
//   - one placement of the residual pods on MaxSize nodes of a group gives
//     every N at once: the fewest nodes that place every pod the group can
//     place is the index of the last node used, plus one, and with one
//     node fewer the pods of that last node find no node (FirstFit);
//   - a residual pod that MaxSize nodes leave unplaced while the last
//     node is empty cannot be placed by any number of the group's nodes.
//
// This is exact only as far as PlacePods models the scheduler (its
// differences are listed in allocator/pods.go): the scheduler scores
// nodes, and does not fill them in order, so that the scheduler may need
// no fewer nodes than the plan but may spread pods differently.
//
// Where a slice of the cluster reaches the group's nodes, a pod on an
// added node may take a device that a later pod needed on another node,
// and placement need not be monotone in N. There the group's N is found
// by bisection over whole placements (Bisection), which presumes
// monotonicity, and then lowered while N-1 still places as many pods: the
// answer places the pods and N-1 does not, but a smaller N that places
// them may exist. The cheapest mix is not looked for then.
//
// # The cheapest mix
//
// Among the groups with a cost, MakePlan builds a mix greedily: at each
// step the group whose nodes place the remaining pods at the lowest cost
// per pod placed (with as many nodes as it needs for all it can place)
// joins the mix; the pods it places leave the remaining ones. Each group
// of the mix is then trimmed while one node fewer still places all those
// pods. Guaranteed, and tested on random clusters:
//
//   - the mix places every pod some group with a cost places on its own
//     (unless the groups' MaxSize runs out first; Mix.Places counts them);
//   - with one node fewer of any group of the mix, some of those pods find
//     no node (the trim stops there; MakePlan places the pods once more
//     with the mix to confirm);
//   - it costs no more than any single group's own plan that places as
//     many pods (such a plan replaces it when cheaper: Mix.How).
//
// Not guaranteed: that no cheaper mix exists. Finding it is bin packing
// with several bin sizes, which is NP-hard; the greedy mix may be beaten
// by a mix of other proportions.
//
// # Headroom
//
// MakeHeadroom places the cluster's pods, then copies of a pod (or of a
// PodTemplate's pod: its claims are made from its ResourceClaimTemplates
// per copy, before any pod exists) until one finds no node
// (allocator.PlaceReplicas). The copies are of one kind and nodes only
// fill up, so the count is exact: placing Total copies after the
// cluster's pods places them all, and one more finds no node.
//
// # What is simulated
//
// The scheduler's filters as allocator.PlacePods applies them: NodeName,
// NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit (on
// nodes whose status.allocatable lists pods: give group templates
// status.allocatable) and DynamicResources; not simulated are those of
// allocator.NotSimulated (pod affinity and anti-affinity, topology spread,
// volumes, host ports) and preemption.
package planner
