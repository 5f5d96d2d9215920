package admissionconfig

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/cel/openapi/resolver"
	"k8s.io/kube-openapi/pkg/validation/spec"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/openapi"
)

// Severity says how bad a Finding is.
type Severity string

const (
	// Error: requests go unchecked, or a rule or expression cannot work
	// on the target.
	Error Severity = "error"
	// Warning: a rule names something the target does not serve; harmless
	// today, a sign the configuration was written for another release.
	Warning Severity = "warning"
)

// Finding is one problem Lint found.
type Finding struct {
	Severity Severity
	// Object names the object: "ValidatingWebhookConfiguration gpu-opaque-config".
	Object string
	// Field is the path of the problem in the object:
	// "webhooks[0].rules[1].apiVersions[2]".
	Field string
	// Message says what is wrong on the target and what to do.
	Message string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s: %s: %s", f.Severity, f.Object, f.Field, f.Message)
}

// Lint reads admission configurations (*admissionregistrationv1.
// ValidatingWebhookConfiguration, MutatingWebhookConfiguration and
// ValidatingAdmissionPolicy; other objects are skipped) and reports, for
// an API server that serves target, the rules of resource.k8s.io that
//
//   - name a version the target does not serve, or a resource a named
//     version does not serve there (a configuration written for another
//     release: harmless while another named version matches, a hole when
//     none does);
//   - leave out a version the target serves a named resource in: with
//     matchPolicy Exact those requests skip the webhook or policy; with
//     Equivalent (the default) they are converted to a named version,
//     unless no named version is served, and then nothing matches;
//
// and the CEL expressions (a policy's validations, message expressions,
// variables, audit annotations and match conditions; a webhook's match
// conditions) that do not type-check against the objects of the versions
// their rules match on the target: field paths of another version, such as
// v1beta1's flat requests[].adminAccess or requests[].deviceClassName on
// v1 objects, where v1 has requests[].exactly. The expressions are checked
// as the API server's own type checker checks a policy (it writes the
// same findings into a policy's status.typeChecking), against drakit's
// OpenAPI documents of each version.
//
// upgrade-check calls Lint once per release of a pair.
func Lint(objs []runtime.Object, target *Served) []Finding {
	l := &linter{target: target, checker: &validating.TypeChecker{SchemaResolver: schemaResolver{}, RestMapper: restMapper(target)}}
	for _, obj := range objs {
		switch o := obj.(type) {
		case *admissionregistrationv1.ValidatingWebhookConfiguration:
			name := "ValidatingWebhookConfiguration " + o.Name
			for i, w := range o.Webhooks {
				p := field.NewPath("webhooks").Index(i)
				l.rules(name, p, w.Rules, w.MatchPolicy, "webhook "+w.Name)
				l.matchConditions(name, p, w.Rules, w.MatchConditions)
			}
		case *admissionregistrationv1.MutatingWebhookConfiguration:
			name := "MutatingWebhookConfiguration " + o.Name
			for i, w := range o.Webhooks {
				p := field.NewPath("webhooks").Index(i)
				l.rules(name, p, w.Rules, w.MatchPolicy, "webhook "+w.Name)
				l.matchConditions(name, p, w.Rules, w.MatchConditions)
			}
		case *admissionregistrationv1.ValidatingAdmissionPolicy:
			l.policy(o)
		}
	}
	return l.findings
}

type linter struct {
	target   *Served
	checker  *validating.TypeChecker
	findings []Finding
}

func (l *linter) add(sev Severity, object string, p *field.Path, format string, args ...any) {
	l.findings = append(l.findings, Finding{Severity: sev, Object: object, Field: p.String(), Message: fmt.Sprintf(format, args...)})
}

// knownResources are the resources resource.k8s.io has in any version
// drakit knows: a rule of all groups ("*") is about those only.
var knownResources = func() map[string]bool {
	out := map[string]bool{}
	for _, v := range catalogue.Versions {
		for _, k := range v.Kinds {
			out[k.Resource] = true
		}
	}
	return out
}()

func (l *linter) rules(object string, p *field.Path, rules []admissionregistrationv1.RuleWithOperations, policy *admissionregistrationv1.MatchPolicyType, what string) {
	exact := policy != nil && *policy == admissionregistrationv1.Exact
	for i, r := range rules {
		l.rule(object, p.Child("rules").Index(i), r.Rule, exact, what)
	}
}

// rule checks one rule against the target.
func (l *linter) rule(object string, p *field.Path, r admissionregistrationv1.Rule, exact bool, what string) {
	if !slices.Contains(r.APIGroups, resource.GroupName) && !slices.Contains(r.APIGroups, "*") {
		return
	}
	allGroups := !slices.Contains(r.APIGroups, resource.GroupName)
	var resources []string // the resource.k8s.io resources the rule names
	allResources := false
	for _, res := range r.Resources {
		main, _, _ := strings.Cut(res, "/")
		switch {
		case main == "*":
			allResources = true
		case knownResources[main] || !allGroups:
			if !slices.Contains(resources, main) {
				resources = append(resources, main)
			}
		}
	}
	if slices.Contains(r.APIVersions, "*") {
		return // every version: nothing left out, nothing unserved
	}
	release := l.target.release()
	servedNamed := map[string]bool{} // resources a named version serves
	for j, v := range r.APIVersions {
		vp := p.Child("apiVersions").Index(j)
		if _, served := l.target.Resources[v]; !served {
			if !allGroups {
				l.add(Warning, object, vp, "%s serves no %s/%s: the version matches nothing there (it serves %s)", release, resource.GroupName, v, strings.Join(l.target.Versions(), ", "))
			}
			continue
		}
		for _, res := range resources {
			if l.target.Serves(v, res) {
				servedNamed[res] = true
			} else if !allGroups {
				l.add(Warning, object, vp, "%s does not serve %s in %s/%s (it serves it in %s)", release, res, resource.GroupName, v, listOrNone(l.target.VersionsOf(res)))
			}
		}
		if allResources {
			for _, res := range l.target.Resources[v] {
				servedNamed[res] = true
			}
		}
	}
	for _, res := range resources {
		servedIn := l.target.VersionsOf(res)
		if len(servedIn) == 0 {
			continue // reported per version above; a kind the release lacks
		}
		var missing []string
		for _, v := range servedIn {
			if !slices.Contains(r.APIVersions, v) {
				missing = append(missing, v)
			}
		}
		switch {
		case !servedNamed[res]:
			l.add(Error, object, p.Child("apiVersions"), "on %s the %s matches no request for %s: it names %s, and %s serves %s only in %s; add %s", release, what, res, strings.Join(r.APIVersions, ", "), release, res, strings.Join(servedIn, ", "), strings.Join(servedIn, ", "))
		case len(missing) > 0 && exact:
			l.add(Error, object, p.Child("apiVersions"), "on %s requests for %s in %s skip the %s (matchPolicy Exact); add %s, or use matchPolicy Equivalent", release, res, strings.Join(missing, ", "), what, strings.Join(missing, ", "))
		}
	}
}

func listOrNone(vs []string) string {
	if len(vs) == 0 {
		return "no version"
	}
	return strings.Join(vs, ", ")
}

// matchConditions type-checks a webhook's match conditions, as a policy's
// expressions are checked, against the versions its rules match.
func (l *linter) matchConditions(object string, p *field.Path, rules []admissionregistrationv1.RuleWithOperations, conds []admissionregistrationv1.MatchCondition) {
	if len(conds) == 0 {
		return
	}
	vap := &admissionregistrationv1.ValidatingAdmissionPolicy{Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
		MatchConstraints: &admissionregistrationv1.MatchResources{},
	}}
	for _, r := range rules {
		vap.Spec.MatchConstraints.ResourceRules = append(vap.Spec.MatchConstraints.ResourceRules, admissionregistrationv1.NamedRuleWithOperations{RuleWithOperations: r})
	}
	ctx := l.checker.CreateContext(vap)
	for i, c := range conds {
		l.expression(object, p.Child("matchConditions").Index(i).Child("expression"), ctx, c.Expression)
	}
}

func (l *linter) policy(o *admissionregistrationv1.ValidatingAdmissionPolicy) {
	object := "ValidatingAdmissionPolicy " + o.Name
	spec := field.NewPath("spec")
	if mc := o.Spec.MatchConstraints; mc != nil {
		exact := mc.MatchPolicy != nil && *mc.MatchPolicy == admissionregistrationv1.Exact
		for i, r := range mc.ResourceRules {
			l.rule(object, spec.Child("matchConstraints", "resourceRules").Index(i), r.Rule, exact, "policy")
		}
	}
	ctx := l.checker.CreateContext(o)
	for i, v := range o.Spec.Variables {
		l.expression(object, spec.Child("variables").Index(i).Child("expression"), ctx, v.Expression)
	}
	for i, c := range o.Spec.MatchConditions {
		l.expression(object, spec.Child("matchConditions").Index(i).Child("expression"), ctx, c.Expression)
	}
	for i, v := range o.Spec.Validations {
		p := spec.Child("validations").Index(i)
		l.expression(object, p.Child("expression"), ctx, v.Expression)
		if v.MessageExpression != "" {
			l.expression(object, p.Child("messageExpression"), ctx, v.MessageExpression)
		}
	}
	for i, a := range o.Spec.AuditAnnotations {
		l.expression(object, spec.Child("auditAnnotations").Index(i).Child("valueExpression"), ctx, a.ValueExpression)
	}
}

// expression reports an expression that does not type-check against a
// version the rules match on the target.
func (l *linter) expression(object string, p *field.Path, ctx *validating.TypeCheckingContext, expr string) {
	for _, r := range l.checker.CheckExpression(ctx, expr) {
		if r.GVK.Group != resource.GroupName {
			continue
		}
		msg := strings.TrimSpace(r.String())
		msg = strings.TrimPrefix(msg, r.GVK.String()+": ")
		l.add(Error, object, p, "does not type-check against %s/%s %s as %s serves it: %s%s", resource.GroupName, r.GVK.Version, r.GVK.Kind, l.target.release(), oneLine(msg), shapeHint(r.GVK.Version))
	}
}

// shapeHint says how requests differ between versions, the usual cause.
func shapeHint(version string) string {
	switch version {
	case "v1", "v1beta2":
		return " (in " + version + " a request's deviceClassName, selectors, allocationMode, count and adminAccess are under exactly or firstAvailable[]; v1beta1 and v1alpha3 had them in the request itself)"
	case "v1beta1", "v1alpha3":
		return " (in " + version + " a request's deviceClassName, selectors, allocationMode, count and adminAccess are in the request itself; v1beta2 and v1 put them under exactly)"
	}
	return ""
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// restMapper maps the resources target serves in resource.k8s.io to their
// kinds: the versions the type checker checks a rule's expressions
// against are those the target serves.
func restMapper(target *Served) meta.RESTMapper {
	var gvs []schema.GroupVersion
	for _, v := range target.Versions() {
		gvs = append(gvs, schema.GroupVersion{Group: resource.GroupName, Version: v})
	}
	m := meta.NewDefaultRESTMapper(gvs)
	for _, v := range target.Versions() {
		cv, err := catalogue.Lookup(v)
		if err != nil {
			continue
		}
		for _, k := range cv.Kinds {
			if !target.Serves(v, k.Resource) {
				continue
			}
			scope := meta.RESTScopeRoot
			if k.Namespaced {
				scope = meta.RESTScopeNamespace
			}
			gvk := schema.GroupVersionKind{Group: resource.GroupName, Version: v, Kind: k.Name}
			m.AddSpecific(gvk, gvk.GroupVersion().WithResource(k.Resource), gvk.GroupVersion().WithResource(strings.ToLower(k.Name)), scope)
		}
	}
	return m
}

// schemaResolver resolves a kind of resource.k8s.io to its schema in
// drakit's published OpenAPI v3 document of the version, references
// inlined as the type checker needs them.
type schemaResolver struct{}

const componentsPrefix = "#/components/schemas/"

func (schemaResolver) ResolveSchema(gvk schema.GroupVersionKind) (*spec.Schema, error) {
	if gvk.Group != resource.GroupName {
		return nil, fmt.Errorf("%v: %w", gvk, resolver.ErrSchemaNotFound)
	}
	root, defs, err := openapi.Schema(gvk.GroupVersion().String(), gvk.Kind)
	if err != nil {
		return nil, fmt.Errorf("%v: %v: %w", gvk, err, resolver.ErrSchemaNotFound)
	}
	var rootName string
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if defs[n] == root {
			rootName = n
		}
	}
	return resolver.PopulateRefs(func(ref string) (*spec.Schema, bool) {
		s, ok := defs[strings.TrimPrefix(ref, componentsPrefix)]
		if !ok {
			return nil, false
		}
		c := *s
		return &c, true
	}, componentsPrefix+rootName)
}
