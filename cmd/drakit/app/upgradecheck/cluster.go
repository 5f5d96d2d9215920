package upgradecheck

import (
	"context"
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/preflight"
)

// listKind lists every object of hub kind hub the cluster serves, as hub
// objects; ok is false when the cluster does not serve the kind, or
// hubclient has no client for it (ResourcePoolStatusRequest: requests
// are one-shot and hold nothing to keep).
func listKind(ctx context.Context, c *cluster.Cluster, hub string) (objs []runtime.Object, ok bool, err error) {
	if _, served := c.Hub.VersionFor(hub); !served {
		return nil, false, nil
	}
	var list runtime.Object
	opts := metav1.ListOptions{}
	switch hub {
	case "DeviceClass":
		list, err = c.Hub.DeviceClasses().List(ctx, opts)
	case "ResourceClaim":
		list, err = c.Hub.ResourceClaims("").List(ctx, opts)
	case "ResourceClaimTemplate":
		list, err = c.Hub.ResourceClaimTemplates("").List(ctx, opts)
	case "PodSchedulingContext":
		list, err = c.Hub.PodSchedulingContexts("").List(ctx, opts)
	case "ResourceSlice":
		list, err = c.Hub.ResourceSlices().List(ctx, opts)
	case "DeviceTaintRule":
		list, err = c.Hub.DeviceTaintRules().List(ctx, opts)
	case "ResourceClaimParameters":
		list, err = c.Hub.ResourceClaimParameters("").List(ctx, opts)
	case "ResourceClassParameters":
		list, err = c.Hub.ResourceClassParameters("").List(ctx, opts)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, c.Explain(err, "listing "+pluralOf(hub))
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, true, err
	}
	return items, true, nil
}

func pluralOf(hub string) string {
	if _, k, ok := catalogue.Find(hub, ""); ok {
		return k.Resource
	}
	return hub
}

// checkCluster checks the cluster's DRA objects, storage, webhook
// configurations, admission policies and roles, and makes the storage
// plan.
func (r *run) checkCluster(c *cluster.Cluster) error {
	ctx := context.Background()
	live := r.checker
	live.Live = true
	names := map[string][]string{}
	stored := map[string][]runtime.Object{}
	for _, hub := range catalogue.HubKinds() {
		items, ok, err := listKind(ctx, c, hub)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		names[hub] = []string{}
		for _, obj := range items {
			m, err := meta.Accessor(obj)
			if err != nil {
				return err
			}
			name := preflight.ObjectName(hub, m.GetNamespace(), m.GetName())
			names[hub] = append(names[hub], name)
			r.add(live.CheckObject(obj, name)...)
		}
		r.report.Checked[hub] += len(items)
		stored[hub] = items
	}
	r.add(preflight.CheckStorage(r.checker.From, r.checker.To, names)...)
	if err := r.checkClusterPolicies(ctx, c); err != nil {
		return err
	}
	if r.o.StoragePlan {
		r.report.StoragePlan = preflight.Plan(r.checker.From, r.checker.To, stored)
	}
	return nil
}

// checkClusterPolicies checks the cluster's webhook configurations,
// validating admission policies and roles. A kind the user may not list
// is named in an input error and left out: the rest is still checked.
func (r *run) checkClusterPolicies(ctx context.Context, c *cluster.Cluster) error {
	skip := func(err error, what string) bool {
		if err == nil {
			return false
		}
		if apierrors.IsForbidden(err) || apierrors.IsNotFound(err) {
			r.report.InputErrors = append(r.report.InputErrors, fmt.Sprintf("%s were not checked: %v", what, c.Explain(err, "listing "+what)))
			return true
		}
		r.report.InputErrors = append(r.report.InputErrors, c.Explain(err, "listing "+what).Error())
		return true
	}
	ar := c.Kube.AdmissionregistrationV1()
	if l, err := ar.ValidatingWebhookConfigurations().List(ctx, metav1.ListOptions{}); !skip(err, "validatingwebhookconfigurations") {
		for i := range l.Items {
			cfg := &l.Items[i]
			r.report.Checked["ValidatingWebhookConfiguration"]++
			r.add(r.checker.CheckRules(preflight.CheckWebhook, "ValidatingWebhookConfiguration "+cfg.Name, "", preflight.WebhookRules(cfg))...)
		}
	}
	if l, err := ar.MutatingWebhookConfigurations().List(ctx, metav1.ListOptions{}); !skip(err, "mutatingwebhookconfigurations") {
		for i := range l.Items {
			cfg := &l.Items[i]
			r.report.Checked["MutatingWebhookConfiguration"]++
			r.add(r.checker.CheckRules(preflight.CheckWebhook, "MutatingWebhookConfiguration "+cfg.Name, "", preflight.MutatingWebhookRules(cfg))...)
		}
	}
	if l, err := ar.ValidatingAdmissionPolicies().List(ctx, metav1.ListOptions{}); !skip(err, "validatingadmissionpolicies") {
		for i := range l.Items {
			p := &l.Items[i]
			r.report.Checked["ValidatingAdmissionPolicy"]++
			r.add(r.checkPolicy("ValidatingAdmissionPolicy "+p.Name, "", p)...)
		}
	}
	rb := c.Kube.RbacV1()
	if l, err := rb.ClusterRoles().List(ctx, metav1.ListOptions{}); !skip(err, "clusterroles") {
		for i := range l.Items {
			role := &l.Items[i]
			r.report.Checked["ClusterRole"]++
			r.add(r.checker.CheckRole("ClusterRole "+role.Name, "", role.Rules, true)...)
		}
	}
	if l, err := rb.Roles("").List(ctx, metav1.ListOptions{}); !skip(err, "roles") {
		for i := range l.Items {
			role := &l.Items[i]
			r.report.Checked["Role"]++
			r.add(r.checker.CheckRole(roleName(role), "", role.Rules, false)...)
		}
	}
	return nil
}

func roleName(r *rbacv1.Role) string {
	return preflight.ObjectName("Role", r.Namespace, r.Name)
}
