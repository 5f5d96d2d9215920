package preflight

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/conversion"
)

// Rule is what an admission webhook's rule or an admission policy's
// resource rule says about which requests it matches.
type Rule struct {
	// Path is the rule's field path ("webhooks[0].rules[1]").
	Path        string
	APIGroups   []string
	APIVersions []string
	Resources   []string
	// Exact is matchPolicy: Exact (requests in other versions of the
	// same resource are not matched).
	Exact bool
}

// WebhookRules are the rules of a validating webhook configuration.
func WebhookRules(cfg *admissionregistrationv1.ValidatingWebhookConfiguration) []Rule {
	var out []Rule
	for i, w := range cfg.Webhooks {
		out = append(out, webhookRules(fmt.Sprintf("webhooks[%d]", i), w.Rules, w.MatchPolicy)...)
	}
	return out
}

// MutatingWebhookRules are the rules of a mutating webhook configuration.
func MutatingWebhookRules(cfg *admissionregistrationv1.MutatingWebhookConfiguration) []Rule {
	var out []Rule
	for i, w := range cfg.Webhooks {
		out = append(out, webhookRules(fmt.Sprintf("webhooks[%d]", i), w.Rules, w.MatchPolicy)...)
	}
	return out
}

func webhookRules(at string, rules []admissionregistrationv1.RuleWithOperations, policy *admissionregistrationv1.MatchPolicyType) []Rule {
	var out []Rule
	for j, r := range rules {
		out = append(out, Rule{Path: fmt.Sprintf("%s.rules[%d]", at, j), APIGroups: r.APIGroups, APIVersions: r.APIVersions, Resources: r.Resources,
			Exact: policy != nil && *policy == admissionregistrationv1.Exact})
	}
	return out
}

// PolicyRules are the resource rules of an admission policy's
// matchConstraints.
func PolicyRules(m *admissionregistrationv1.MatchResources) []Rule {
	if m == nil {
		return nil
	}
	var out []Rule
	for j, r := range m.ResourceRules {
		out = append(out, Rule{Path: fmt.Sprintf("spec.matchConstraints.resourceRules[%d]", j), APIGroups: r.APIGroups, APIVersions: r.APIVersions, Resources: r.Resources,
			Exact: m.MatchPolicy != nil && *m.MatchPolicy == admissionregistrationv1.Exact})
	}
	return out
}

// matchesGroup tells whether a rule's API groups include resource.k8s.io.
func matchesGroup(groups []string) bool {
	return slices.Contains(groups, resource.GroupName) || slices.Contains(groups, "*")
}

// ruleKinds lists the hub kinds a rule's resources name ("*" and
// "*/status" name all), and the resources it names that no release of
// resource.k8s.io drakit knows.
func ruleKinds(resources []string) (hubs []string, unknown []string) {
	seen := map[string]bool{}
	for _, r := range resources {
		res, _, _ := strings.Cut(r, "/")
		if res == "*" {
			for _, h := range catalogue.HubKinds() {
				if !seen[h] {
					seen[h] = true
					hubs = append(hubs, h)
				}
			}
			continue
		}
		_, k, ok := catalogue.Find(res, "")
		if !ok || k.Resource != res {
			unknown = append(unknown, r)
			continue
		}
		if !seen[k.Hub] {
			seen[k.Hub] = true
			hubs = append(hubs, k.Hub)
		}
	}
	return hubs, unknown
}

// matchedVersions are the versions of hub a rule would match at release
// minor on a cluster with the default --runtime-config: the listed ones
// that are enabled by default there ("*" matches every enabled one).
func matchedVersions(r Rule, hub string, minor int) (matched, enabled []string) {
	for _, s := range catalogue.ServedIn(hub, minor) {
		if !s.EnabledByDefault {
			continue
		}
		enabled = append(enabled, s.Version.Name)
		if slices.Contains(r.APIVersions, "*") || slices.Contains(r.APIVersions, s.Version.Name) {
			matched = append(matched, s.Version.Name)
		}
	}
	return matched, enabled
}

// CheckRules checks the rules of an admission webhook configuration or
// policy (what names it; check is CheckWebhook or CheckPolicyMatch): a
// rule on resource.k8s.io resources that matches, on the target release
// with its default versions, no version of a kind it names stops seeing
// those requests; with matchPolicy Exact, a version it does not list is
// not seen either; resources the target does not have are named.
func (c Checker) CheckRules(check, name, apiVersion string, rules []Rule) []Finding {
	var out []Finding
	for _, r := range rules {
		if !matchesGroup(r.APIGroups) {
			continue
		}
		hubs, unknown := ruleKinds(r.Resources)
		wildcardGroup := !slices.Contains(r.APIGroups, resource.GroupName)
		base := Finding{Object: name, APIVersion: apiVersion, Path: r.Path, Release: rel(c.To), Check: check}
		if len(unknown) > 0 && !wildcardGroup {
			f := base
			f.Severity = Warning
			f.Path = r.Path + ".resources"
			f.Why = fmt.Sprintf("names %s, which no version of resource.k8s.io has", strings.Join(unknown, ", "))
			f.Do = "fix the resource names (lower-case plurals: " + strings.Join(pluralsIn(c.To), ", ") + ")"
			out = append(out, f)
		}
		var gone []string
		for _, hub := range hubs {
			if len(catalogue.ServedIn(hub, c.To)) == 0 {
				if !slices.Contains(r.Resources, "*") && !slices.Contains(r.Resources, "*/*") {
					gone = append(gone, plural(hub))
				}
				continue
			}
			matched, enabled := matchedVersions(r, hub, c.To)
			f := base
			f.Path = r.Path + ".apiVersions"
			switch {
			case len(enabled) == 0 && !listsRegistered(r, hub, c.To):
				// Before 1.34 every version needs --runtime-config; a rule
				// none of whose versions the target has matches nothing
				// whatever the cluster enables.
				f.Severity = Breaking
				f.Why = fmt.Sprintf("matches %s of resource.k8s.io only in %s; %s has it only in %s, so its requests never reach this rule", plural(hub), strings.Join(r.APIVersions, ", "), rel(c.To), servedList(hub, c.To))
				f.Do = "add the version the cluster enables to apiVersions"
			case len(enabled) == 0:
				continue // the versions are the cluster's choice (--runtime-config): nothing to compare
			case len(matched) == 0:
				f.Severity = Breaking
				f.Why = fmt.Sprintf("matches %s %s only in %s; %s serves it by default in %s only, so its requests no longer reach this rule (matchPolicy Equivalent converts only to listed versions the server serves)", plural(hub), "of resource.k8s.io", strings.Join(r.APIVersions, ", "), rel(c.To), strings.Join(enabled, ", "))
				f.Do = fmt.Sprintf("add %s to apiVersions (and check that what the rule calls sees that version's shape)", strings.Join(enabled, ", "))
			case r.Exact && len(matched) < len(enabled):
				f.Severity = Breaking
				f.Why = fmt.Sprintf("matchPolicy Exact: requests for %s in %s are not matched", plural(hub), strings.Join(missing(enabled, matched), ", "))
				f.Do = "add those versions, or use matchPolicy Equivalent"
			default:
				continue
			}
			out = append(out, f)
		}
		if len(gone) > 0 {
			f := base
			f.Severity = Warning
			f.Path = r.Path + ".resources"
			f.Why = fmt.Sprintf("names %s, which %s does not have in any version", strings.Join(gone, ", "), rel(c.To))
			f.Do = "remove them from the rule (classic DRA's kinds were removed in 1.32; see docs/migration.md)"
			out = append(out, f)
		}
	}
	return out
}

// listsRegistered tells whether a rule names ("*" included) a version in
// which release minor registers hub.
func listsRegistered(r Rule, hub string, minor int) bool {
	for _, s := range catalogue.ServedIn(hub, minor) {
		if slices.Contains(r.APIVersions, "*") || slices.Contains(r.APIVersions, s.Version.Name) {
			return true
		}
	}
	return false
}

func missing(all, have []string) []string {
	var out []string
	for _, v := range all {
		if !slices.Contains(have, v) {
			out = append(out, v)
		}
	}
	return out
}

func pluralsIn(minor int) []string {
	var out []string
	for _, hub := range catalogue.HubKindsIn(minor) {
		out = append(out, plural(hub))
	}
	return out
}

// CELExpression is one CEL expression of an admission policy, with its
// field path ("spec.validations[0].expression").
type CELExpression struct {
	Path, Expression string
}

// PolicyExpressions are the CEL expressions of a ValidatingAdmissionPolicy.
func PolicyExpressions(spec *admissionregistrationv1.ValidatingAdmissionPolicySpec) []CELExpression {
	var out []CELExpression
	add := func(path, expr string) {
		if expr != "" {
			out = append(out, CELExpression{Path: path, Expression: expr})
		}
	}
	for i, v := range spec.Validations {
		add(fmt.Sprintf("spec.validations[%d].expression", i), v.Expression)
		add(fmt.Sprintf("spec.validations[%d].messageExpression", i), v.MessageExpression)
	}
	for i, m := range spec.MatchConditions {
		add(fmt.Sprintf("spec.matchConditions[%d].expression", i), m.Expression)
	}
	for i, v := range spec.Variables {
		add(fmt.Sprintf("spec.variables[%d].expression", i), v.Expression)
	}
	for i, a := range spec.AuditAnnotations {
		add(fmt.Sprintf("spec.auditAnnotations[%d].valueExpression", i), a.ValueExpression)
	}
	return out
}

// CheckPolicyCEL checks the CEL expressions of an admission policy
// against the versions it will see on the target: where the policy has to
// match the target's default version (the versions it lists are not
// enabled there), the field paths its expressions select on the object
// are looked up in that version's types. A path that a listed version has
// and the target's version does not (v1beta1's
// spec.devices.requests[].adminAccess is v1's
// spec.devices.requests[].exactly.adminAccess) is reported: once the
// version is added, has() of it is false and selecting it is an error.
// The check follows selections from object and oldObject and the
// variables of the comprehension macros (exists, all, map, filter,
// exists_one) bound to their lists' items; it does not type-check the
// expressions.
func (c Checker) CheckPolicyCEL(name, apiVersion string, rules []Rule, exprs []CELExpression) []Finding {
	var out []Finding
	for _, r := range rules {
		if !matchesGroup(r.APIGroups) {
			continue
		}
		hubs, _ := ruleKinds(r.Resources)
		var listed, target []string
		for _, hub := range hubs {
			matched, enabled := matchedVersions(r, hub, c.To)
			if len(enabled) == 0 {
				continue
			}
			if len(matched) > 0 {
				target = appendNew(target, matched...)
			} else {
				target = appendNew(target, enabled...)
			}
			for _, v := range r.APIVersions {
				if v != "*" {
					listed = appendNew(listed, v)
				}
			}
		}
		if len(target) == 0 || len(listed) == 0 {
			continue
		}
		targetPaths := fieldPaths(hubs, target)
		listedPaths := fieldPaths(hubs, listed)
		for _, e := range exprs {
			var bad []string
			for _, p := range selectedPaths(e.Expression) {
				if !targetPaths[p] && listedPaths[p] {
					bad = appendNew(bad, p)
				}
			}
			if len(bad) == 0 {
				continue
			}
			sort.Strings(bad)
			out = append(out, Finding{
				Severity: Breaking, Check: CheckPolicyCEL, Object: name, APIVersion: apiVersion, Path: e.Path, Release: rel(c.To),
				Why: fmt.Sprintf("selects %s, which resource.k8s.io/%s has and %s (what %s serves by default) does not: once the policy matches %s, the expression sees the other shape",
					quoteAll(bad), strings.Join(listed, ", "), strings.Join(target, ", "), rel(c.To), strings.Join(target, ", ")),
				Do: fmt.Sprintf("rewrite the expression for %s (v1beta2 and v1 moved a request's fields under exactly and a device's out of basic: docs/conversion.md), or keep matching the old version only where the cluster still serves it", strings.Join(target, ", ")),
			})
		}
	}
	return out
}

func appendNew(list []string, vs ...string) []string {
	for _, v := range vs {
		if !slices.Contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// celChain matches a chain of selections rooted at an identifier
// (object.spec.devices.requests, e.adminAccess), with the character after
// it, which tells a call from a selection.
var celChain = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)((?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)+)\s*(\(?)`)

// celMacro matches a comprehension macro with the variable it binds.
var celMacro = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*\.\s*(?:exists_one|exists|all|map|filter)\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*,`)

// selectedPaths are the field paths an expression selects on the object
// (dotted JSON names from the object's root, lists transparent:
// "spec.devices.requests.adminAccess"), following the variables the
// comprehension macros bind.
func selectedPaths(expr string) []string {
	bound := map[string]string{}
	resolve := func(chain string) (string, bool) {
		var parts []string
		for _, p := range strings.Split(chain, ".") {
			if p = strings.TrimSpace(p); p != "" {
				parts = append(parts, p)
			}
		}
		if len(parts) == 0 {
			return "", false
		}
		root, rest := parts[0], parts[1:]
		switch {
		case root == "object" || root == "oldObject":
			return strings.Join(rest, "."), true
		case bound[root] != "":
			return strings.Join(append([]string{bound[root]}, rest...), "."), true
		}
		return "", false
	}
	for _, m := range celMacro.FindAllStringSubmatch(expr, -1) {
		if p, ok := resolve(m[1]); ok && p != "" {
			bound[m[2]] = p
		}
	}
	var out []string
	for _, m := range celChain.FindAllStringSubmatch(expr, -1) {
		chain := m[1] + m[2]
		if m[3] == "(" {
			if i := strings.LastIndex(chain, "."); i >= 0 {
				chain = chain[:i] // a method: exists, all, size, ...
			}
		}
		if p, ok := resolve(chain); ok && p != "" {
			out = appendNew(out, p)
		}
	}
	return out
}

var fieldPathCache sync.Map

// fieldPaths are the JSON field paths of the kinds hubs in versions
// (dotted, lists transparent), every prefix included.
func fieldPaths(hubs, versions []string) map[string]bool {
	out := map[string]bool{}
	for _, v := range versions {
		for _, hub := range hubs {
			key := v + "/" + hub
			cached, ok := fieldPathCache.Load(key)
			if !ok {
				paths := map[string]bool{}
				if name, err := conversion.KindIn(hub, v); err == nil {
					if obj, err := conversion.Scheme.New(groupVersion(v).WithKind(name)); err == nil {
						collectPaths(reflect.TypeOf(obj), "", paths, map[reflect.Type]bool{})
					}
				}
				fieldPathCache.Store(key, paths)
				cached = paths
			}
			for p := range cached.(map[string]bool) {
				out[p] = true
			}
		}
	}
	return out
}

func collectPaths(t reflect.Type, prefix string, paths map[string]bool, onPath map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || onPath[t] {
		return
	}
	onPath[t] = true
	defer delete(onPath, t)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		p := prefix
		if tag != "" {
			if p != "" {
				p += "."
			}
			p += tag
			paths[p] = true
		}
		collectPaths(f.Type, p, paths, onPath)
	}
}
