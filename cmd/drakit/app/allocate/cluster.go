package allocate

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/features"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/objects"
	"github.com/drakit/drakit/conversion"
)

// addClusterInventory adds the cluster's inventory to inv, before what the
// input holds: its classes, slices and DeviceTaintRules; its allocated
// claims, which hold their devices (a claim of the input with the same
// namespace and name replaces the stored one: "what if it were this?");
// its nodes, unless the input has a Node of that name.
//
// The scheduler's feature gates become those of the server's release
// (its defaults, --feature-gates over them), said on standard error.
func (o *Options) addClusterInventory(f cmdutil.Factory, inv *inventory) (features.Gates, error) {
	c, err := f.Cluster(o.ClusterFlags)
	if err != nil {
		return features.Gates{}, err
	}
	gates, about, err := c.SchedulerGates(o.FeatureGates)
	if err != nil {
		return gates, err
	}
	o.features = allocator.FeaturesFromGates(gates)
	fmt.Fprintf(o.ErrOut, "Feature gates: %s\n", about)
	return gates, o.addLive(c, inv)
}

// addLive adds what the cluster holds to inv.
func (o *Options) addLive(c *cluster.Cluster, inv *inventory) error {
	live, err := c.ReadInventory(context.Background())
	if err != nil {
		return err
	}
	given := map[string]bool{}
	for _, e := range inv.claims {
		given[claimID(e)] = true
	}
	named := claimsNamedByPods(inv.pods)
	var objs []runtime.Object
	var background []*claimEntry
	add := func(hub runtime.Object) error {
		obj, err := conversion.FromHub(hub, "v1")
		if err != nil {
			return fmt.Errorf("%s: converting a stored object to resource.k8s.io/v1: %w", c.Where, err)
		}
		objs = append(objs, obj)
		return nil
	}
	for _, cl := range live.Classes {
		if err := add(cl); err != nil {
			return err
		}
	}
	for _, s := range live.Slices {
		if err := add(s); err != nil {
			return err
		}
	}
	for _, cl := range live.Claims {
		id := cl.Namespace + "/" + cl.Name
		// An unallocated stored claim takes part only when a pod of the
		// input uses it: then it is allocated with that pod.
		if given[id] || (cl.Status.Allocation == nil && !named[id]) {
			continue
		}
		if err := add(cl); err != nil {
			return err
		}
		background = append(background, backgroundClaim(cl))
	}
	inv.objects = append(objs, inv.objects...)
	inv.claims = append(background, inv.claims...)
	inv.slices = append(append([]*resource.ResourceSlice(nil), live.Slices...), inv.slices...)
	inv.taintRules = append(append([]*resource.DeviceTaintRule(nil), live.TaintRules...), inv.taintRules...)
	inv.nodes = mergeNodes(inv.nodes, live.Nodes)
	return addClusterTemplates(c, inv)
}

// addClusterTemplates reads from the cluster the ResourceClaimTemplates
// that the input's pods name and the input lacks, so that their claims can
// be made. A template the cluster lacks too leaves its pod waiting, as
// the resourceclaim controller leaves it.
func addClusterTemplates(c *cluster.Cluster, inv *inventory) error {
	have := map[string]bool{}
	for _, t := range inv.templates {
		have[t.Head.Metadata.Namespace+"/"+t.Head.Metadata.Name] = true
	}
	for _, p := range inv.pods {
		for _, rc := range p.pod.Spec.ResourceClaims {
			if rc.ResourceClaimTemplateName == nil {
				continue
			}
			ns, name := p.pod.Namespace, *rc.ResourceClaimTemplateName
			if have[ns+"/"+name] {
				continue
			}
			have[ns+"/"+name] = true
			t, err := c.GetTemplate(context.Background(), ns, name)
			if apierrors.IsNotFound(err) {
				continue
			}
			if err != nil {
				return err
			}
			typed, err := conversion.FromHub(t, "v1")
			if err != nil {
				return fmt.Errorf("%s: converting resourceclaimtemplate %s/%s to resource.k8s.io/v1: %w", c.Where, ns, name, err)
			}
			inv.templates = append(inv.templates, clusterObject("ResourceClaimTemplate", ns, name, typed))
		}
	}
	return nil
}

// backgroundClaim is the entry of a stored claim: it takes part in the
// allocation (its devices are held) but is not part of the answer.
func backgroundClaim(c *resource.ResourceClaim) *claimEntry {
	return &claimEntry{obj: clusterObject("ResourceClaim", c.Namespace, c.Name, nil), version: "v1", background: true}
}

// clusterObject is the entry of an object read from the cluster, in
// resource.k8s.io/v1 (typed, when the caller has it so); it is in no file.
func clusterObject(kind, namespace, name string, typed runtime.Object) *objects.Object {
	gvk := resourcev1.SchemeGroupVersion.WithKind(kind)
	obj := &objects.Object{Typed: typed, GVK: gvk}
	obj.Head.Kind, obj.Head.APIVersion = kind, gvk.GroupVersion().String()
	obj.Head.Metadata.Namespace, obj.Head.Metadata.Name = namespace, name
	return obj
}

// claimsNamedByPods are the claims ("namespace/name") the pods use by
// name: spec.resourceClaims[].resourceClaimName and the claims made from
// their templates that status.resourceClaimStatuses names.
func claimsNamedByPods(pods []*podEntry) map[string]bool {
	named := map[string]bool{}
	for _, p := range pods {
		for _, rc := range p.pod.Spec.ResourceClaims {
			if rc.ResourceClaimName != nil {
				named[p.pod.Namespace+"/"+*rc.ResourceClaimName] = true
			}
		}
		for _, st := range p.pod.Status.ResourceClaimStatuses {
			if st.ResourceClaimName != nil {
				named[p.pod.Namespace+"/"+*st.ResourceClaimName] = true
			}
		}
	}
	return named
}

// mergeNodes: the input's nodes, then the cluster's that the input does
// not name.
func mergeNodes(given, live []*corev1.Node) []*corev1.Node {
	names := map[string]bool{}
	for _, n := range given {
		names[n.Name] = true
	}
	out := given
	for _, n := range live {
		if !names[n.Name] {
			out = append(out, n)
		}
	}
	return out
}

// foregroundClaims drops the cluster's claims from the answer.
func foregroundClaims(claims []*claimEntry) []*claimEntry {
	var out []*claimEntry
	for _, c := range claims {
		if !c.background {
			out = append(out, c)
		}
	}
	return out
}
