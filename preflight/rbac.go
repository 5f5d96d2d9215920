package preflight

import (
	"fmt"
	"slices"
	"strings"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
)

// GranularStatusRelease is the first release whose API server checks the
// synthetic resourceclaims/binding and resourceclaims/driver permissions
// on a claim's status updates by default: the
// DRAResourceClaimGranularStatusAuthorization gate, beta and on by
// default from then (pkg/registry/resource/utils.go,
// AuthorizedForBinding and AuthorizedForDeviceStatus).
const GranularStatusRelease = 36

// Aggregate fills the rules of the aggregated ClusterRoles among roles
// from the ClusterRoles whose labels their aggregationRule selects, as
// the controller-manager's aggregation controller does on a cluster (the
// roles of a manifest have none yet). Roles are changed in place.
func Aggregate(roles []*rbacv1.ClusterRole) {
	for _, r := range roles {
		if r.AggregationRule == nil {
			continue
		}
		var rules []rbacv1.PolicyRule
		for _, sel := range r.AggregationRule.ClusterRoleSelectors {
			s, err := metav1.LabelSelectorAsSelector(&sel)
			if err != nil {
				continue
			}
			for _, other := range roles {
				if other != r && other.AggregationRule == nil && s.Matches(labels.Set(other.Labels)) {
					rules = append(rules, other.Rules...)
				}
			}
		}
		if len(rules) > 0 {
			r.Rules = rules
		}
	}
}

// CheckRole checks the rules of a Role or ClusterRole: rules on
// resource.k8s.io resources the target does not have, and, when the
// target checks the synthetic status permissions (GranularStatusRelease
// on), a role that may update claims' status but holds neither
// resourceclaims/binding nor resourceclaims/driver. clusterWide is set for
// a ClusterRole (binding is checked cluster-wide, so a Role cannot grant
// it).
func (c Checker) CheckRole(name, apiVersion string, rules []rbacv1.PolicyRule, clusterWide bool) []Finding {
	var out []Finding
	base := Finding{Object: name, APIVersion: apiVersion, Release: rel(c.To)}
	var statusWriter, binding, driver bool
	var statusPath string
	for i, r := range rules {
		if !matchesGroup(r.APIGroups) {
			continue
		}
		path := fmt.Sprintf("rules[%d]", i)
		hubs, unknown := ruleKinds(r.Resources)
		var gone []string
		for _, hub := range hubs {
			if len(catalogue.ServedIn(hub, c.To)) == 0 && !slices.Contains(r.Resources, "*") {
				gone = append(gone, plural(hub))
			}
		}
		if slices.Contains(r.APIGroups, resource.GroupName) {
			for _, u := range unknown {
				if !isSyntheticSubresource(u) {
					gone = append(gone, u)
				}
			}
		}
		if len(gone) > 0 {
			f := base
			f.Severity, f.Check, f.Path = Warning, CheckRBACResource, path+".resources"
			f.Why = fmt.Sprintf("grants on %s, which %s does not have", strings.Join(gone, ", "), rel(c.To))
			f.Do = "remove them (or rename: resourceclasses became deviceclasses in 1.31; classic DRA's kinds were removed in 1.32)"
			out = append(out, f)
		}
		if grants(r, "resourceclaims/status", "update", "patch") {
			if !statusWriter {
				statusPath = path
			}
			statusWriter = true
		}
		if grantsAny(r, "resourceclaims/binding") {
			binding = true
		}
		if grantsAny(r, "resourceclaims/driver") {
			driver = true
		}
	}
	if c.To >= GranularStatusRelease && statusWriter && !binding && !driver {
		f := base
		f.Severity, f.Check, f.Path = Breaking, CheckRBACStatus, statusPath
		f.Why = fmt.Sprintf("may update resourceclaims/status but holds neither resourceclaims/binding nor resourceclaims/driver: from %s (gate DRAResourceClaimGranularStatusAuthorization, beta, on by default) a status update that changes status.allocation or status.reservedFor also needs its verb on resourceclaims/binding (cluster-wide), and one that changes status.devices needs associated-node:<verb> or arbitrary-node:<verb> on resourceclaims/driver with the driver's name in resourceNames", rel(GranularStatusRelease))
		f.Do = "a driver: add {apiGroups: [resource.k8s.io], resources: [resourceclaims/driver], resourceNames: [<driver name>], verbs: [associated-node:update, associated-node:patch]} (arbitrary-node:... for a controller that is not on the claim's node); a scheduler-like allocator: add {resources: [resourceclaims/binding], verbs: [update, patch]} to a ClusterRole"
		if !clusterWide {
			f.Do += " (binding is checked without a namespace: only a ClusterRole grants it)"
		}
		out = append(out, f)
	}
	return out
}

func isSyntheticSubresource(r string) bool {
	return r == "resourceclaims/binding" || r == "resourceclaims/driver"
}

// grants tells whether rule r grants one of verbs on resource (as
// "resourceclaims/status"), wildcards included.
func grants(r rbacv1.PolicyRule, res string, verbs ...string) bool {
	if !grantsAny(r, res) {
		return false
	}
	for _, v := range r.Verbs {
		if v == "*" || slices.Contains(verbs, v) {
			return true
		}
	}
	return false
}

// grantsAny tells whether rule r names resource res (wildcards included),
// whatever the verbs.
func grantsAny(r rbacv1.PolicyRule, res string) bool {
	if !matchesGroup(r.APIGroups) || len(r.Verbs) == 0 {
		return false
	}
	base, _, _ := strings.Cut(res, "/")
	for _, have := range r.Resources {
		if have == res || have == "*" || have == "*/*" || have == base+"/*" {
			return true
		}
	}
	return false
}
