package preflight

import (
	"fmt"
	"sort"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/driverconfig/admissionconfig"
)

// TypeCheckPolicy type-checks the CEL expressions of an admission policy
// as the target's API server would, against the objects of the versions
// its rules match there with the default versions
// (admissionconfig.Lint, the API server's own policy type checker over
// drakit's OpenAPI documents; issue 34's lint), and reports the
// expressions that do not type-check. CheckPolicyCEL reads field paths
// only, and also for versions the policy does not match yet; this catches
// what a path cannot show (wrong types, unknown functions). Findings on a
// path in skip are left out (CheckPolicyCEL reported it already).
func (c Checker) TypeCheckPolicy(name, apiVersion string, p *admissionregistrationv1.ValidatingAdmissionPolicy, skip map[string]bool) []Finding {
	served := defaultServed(c.To)
	var out []Finding
	for _, f := range admissionconfig.Lint([]runtime.Object{p}, served) {
		if !strings.HasSuffix(f.Field, "xpression") || skip[f.Field] {
			continue
		}
		sev := Breaking
		if f.Severity != admissionconfig.Error {
			sev = Warning
		}
		out = append(out, Finding{
			Severity: sev, Check: CheckPolicyCEL, Object: name, APIVersion: apiVersion, Path: f.Field, Release: rel(c.To),
			Why: fmt.Sprintf("does not type-check against %s: %s", served.About, f.Message),
			Do:  "rewrite the expression for the versions the policy matches there (drakit explain shows their fields)",
		})
	}
	return out
}

// defaultServed is what the API server of release minor serves with the
// default versions: the versions enabled by default, or, before any was
// (1.26 to 1.33, where every version of the group needed
// --runtime-config), every one it registers. The Announced release is
// the followed one less what the markers remove.
func defaultServed(minor int) *admissionconfig.Served {
	s := &admissionconfig.Served{Release: minor, Resources: map[string][]string{}}
	anyDefault := false
	for _, hub := range catalogue.HubKinds() {
		for _, k := range catalogue.ServedIn(hub, minor) {
			anyDefault = anyDefault || k.EnabledByDefault
		}
	}
	for _, hub := range catalogue.HubKinds() {
		for _, k := range catalogue.ServedIn(hub, minor) {
			if k.EnabledByDefault || !anyDefault {
				s.Resources[k.Version.Name] = append(s.Resources[k.Version.Name], k.Kind.Resource)
			}
		}
	}
	var versions []string
	for v, rs := range s.Resources {
		sort.Strings(rs)
		versions = append(versions, v)
	}
	sort.Strings(versions)
	s.About = fmt.Sprintf("resource.k8s.io %s as Kubernetes %s serves it by default", strings.Join(versions, ", "), rel(minor))
	return s
}
