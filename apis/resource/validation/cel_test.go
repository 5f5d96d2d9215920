package validation

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	drakitcel "github.com/drakit/drakit/apis/resource/cel"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// TestCELWithReleaseEnvironments uses the real environments.
func TestCELWithReleaseEnvironments(t *testing.T) {
	request := func(expr string) *v1alpha3.ResourceClaim {
		return a3Claim(func(c *v1alpha3.ResourceClaim) {
			c.Spec.Devices.Requests[0].Selectors = []v1alpha3.DeviceSelector{celSelector(expr)}
		})
	}
	filter := func(expr string) *v1alpha2.ResourceClassParameters {
		return a2ClassParams(func(p *v1alpha2.ResourceClassParameters) { p.Filters[0].NamedResources.Selector = expr })
	}
	request2 := func(expr string) *v1alpha2.ResourceClaimParameters {
		return a2ClaimParams(func(p *v1alpha2.ResourceClaimParameters) {
			p.DriverRequests[0].Requests[0].NamedResources.Selector = expr
		})
	}
	const reqExpr = "Invalid spec.devices.requests[0].selectors[0].cel.expression"
	runCases(t, []ruleCase{
		{name: "v1alpha3 attribute, capacity and semver", obj: request(
			`device.attributes["dra.example.com"].model == "a100" && device.capacity["dra.example.com"].memory.compareTo(quantity("10Gi")) >= 0 && device.attributes["dra.example.com"].driverVersion.isGreaterThan(semver("1.0.0"))`)},
		{name: "v1alpha3 cel.bind", obj: request(`cel.bind(d, device.driver, d == "dra.example.com")`)},
		{name: "v1alpha3 syntax error", obj: request(`device.driver ==`), want: []string{reqExpr}},
		{name: "v1alpha3 unknown variable", obj: request(`attributes.int["x"] > 1`), want: []string{reqExpr}},
		{name: "v1alpha3 not a bool", obj: request(`device.driver`), want: []string{reqExpr}},
		{name: "v1alpha3 empty expression fails to compile", obj: request(``), want: []string{reqExpr}},
		{name: "v1alpha3 class selector", obj: a3Class(func(c *v1alpha3.DeviceClass) {
			c.Spec.Selectors = append(c.Spec.Selectors, celSelector(`1 + `))
		}), want: []string{"Invalid spec.selectors[1].cel.expression"}},
		{name: "v1alpha3 template selector", obj: a3Template(func(tp *v1alpha3.ResourceClaimTemplate) {
			tp.Spec.Spec.Devices.Requests[0].Selectors[0].CEL.Expression = "device.nope"
		}), want: []string{"Invalid spec.spec.devices.requests[0].selectors[0].cel.expression"}},
		{name: "v1alpha2 filter", obj: filter(`attributes.int["cores"] >= 4 && attributes.version["v"].isLessThan(semver("2.0.0"))`)},
		{name: "v1alpha2 filter, bad", obj: filter(`attributes.int["cores"] >=`), want: []string{"Invalid filters[0].namedResources.selector"}},
		{name: "v1alpha2 filter, not a bool", obj: filter(`attributes.string["model"]`), want: []string{"Invalid filters[0].namedResources.selector"}},
		{name: "v1alpha2 request, v1alpha3 syntax", obj: request2(`device.driver == "x"`), want: []string{"Invalid driverRequests[0].requests[0].namedResources.selector"}},
	})

	// The message is the compiler's.
	errs := ValidateObject(request(`device.driver`), Options{})
	if len(errs) != 1 || !strings.Contains(errs[0].Detail, "must evaluate to bool") {
		t.Errorf("want the compiler's message, got %v", errs)
	}
}

// fakeCEL records which environment each expression is compiled in and
// fails expressions by prefix: "bad" always, "newonly" in the
// new-expressions environment only, "broken" with an internal error.
type fakeCEL struct {
	mu    sync.Mutex
	calls []string
}

func (f *fakeCEL) compile(expr string, opts drakitcel.Options) (uint64, *field.Error) {
	f.mu.Lock()
	env := "new"
	if opts.Stored {
		env = "stored"
	}
	f.calls = append(f.calls, env+":"+expr)
	f.mu.Unlock()
	switch {
	case strings.HasPrefix(expr, "bad"), strings.HasPrefix(expr, "newonly") && !opts.Stored:
		return 0, field.Invalid(nil, nil, "compilation failed")
	case strings.HasPrefix(expr, "broken"):
		return 0, field.InternalError(nil, errors.New("environment failed"))
	}
	return 1, nil
}

// withFakeCEL makes the frozen rules compile with a fake, without
// remembering outcomes, so that every compilation is seen.
func withFakeCEL(t *testing.T) *fakeCEL {
	f := &fakeCEL{}
	prev := newCELCompiler
	newCELCompiler = func() compileCEL { return f.compile }
	t.Cleanup(func() { newCELCompiler = prev })
	return f
}

// TestStoredExpressions checks which environment each release uses for
// the selectors of an update.
func TestStoredExpressions(t *testing.T) {
	setReq := func(expr string) func(*v1alpha3.ResourceClaim) {
		return func(c *v1alpha3.ResourceClaim) { c.Spec.Devices.Requests[0].Selectors[0].CEL.Expression = expr }
	}
	setClass := func(expr string) func(*v1alpha3.DeviceClass) {
		return func(c *v1alpha3.DeviceClass) { c.Spec.Selectors[0].CEL.Expression = expr }
	}
	setClaimParams := func(expr string) func(*v1alpha2.ResourceClaimParameters) {
		return func(p *v1alpha2.ResourceClaimParameters) {
			p.DriverRequests[0].Requests[0].NamedResources.Selector = expr
		}
	}
	setClassParams := func(expr string) func(*v1alpha2.ResourceClassParameters) {
		return func(p *v1alpha2.ResourceClassParameters) { p.Filters[0].NamedResources.Selector = expr }
	}
	for _, tc := range []struct {
		name      string
		tc        ruleCase
		wantCalls []string
	}{
		{name: "claim create: new", tc: ruleCase{obj: a3Claim(setReq("e"))}, wantCalls: []string{"new:e"}},
		{name: "claim update: new (as a create) and stored", tc: ruleCase{op: opUpdate, obj: a3Claim(setReq("e")), old: a3Claim(setReq("e"))},
			wantCalls: []string{"new:e", "stored:e"}},
		{name: "claim update: the create pass still reports new-only syntax", tc: ruleCase{op: opUpdate,
			obj: a3Claim(setReq("newonly")), old: a3Claim(setReq("newonly")),
			want: []string{"Invalid spec.devices.requests[0].selectors[0].cel.expression"}},
			wantCalls: []string{"new:newonly", "stored:newonly"}},
		{name: "claim status update: no CEL", tc: ruleCase{op: opStatus, obj: a3Allocated(setReq("bad")), old: a3Claim(setReq("bad"))}},
		{name: "template update", tc: ruleCase{op: opUpdate, obj: a3Template(), old: a3Template()},
			wantCalls: []string{"new:" + a3Spec().Devices.Requests[0].Selectors[0].CEL.Expression, "stored:" + a3Spec().Devices.Requests[0].Selectors[0].CEL.Expression}},
		{name: "class update, selectors unchanged", tc: ruleCase{op: opUpdate, obj: a3Class(setClass("e"), func(c *v1alpha3.DeviceClass) { c.Spec.Config = nil }), old: a3Class(setClass("e"))},
			wantCalls: []string{"new:e", "stored:e"}},
		{name: "class update, selectors changed", tc: ruleCase{op: opUpdate, obj: a3Class(setClass("e")), old: a3Class(setClass("f"))},
			wantCalls: []string{"new:e", "new:e"}},
		{name: "claim parameters update, requests unchanged: stored only", tc: ruleCase{op: opUpdate,
			obj: a2ClaimParams(setClaimParams("newonly"), func(p *v1alpha2.ResourceClaimParameters) { p.Shareable = false }),
			old: a2ClaimParams(setClaimParams("newonly"))},
			wantCalls: []string{"stored:newonly"}},
		{name: "claim parameters update, requests changed: new", tc: ruleCase{op: opUpdate,
			obj: a2ClaimParams(setClaimParams("newonly")), old: a2ClaimParams(setClaimParams("x")),
			want: []string{"Invalid driverRequests[0].requests[0].namedResources.selector"}},
			wantCalls: []string{"new:newonly"}},
		{name: "class parameters update: always new", tc: ruleCase{op: opUpdate,
			obj: a2ClassParams(setClassParams("newonly")), old: a2ClassParams(setClassParams("newonly")),
			want: []string{"Invalid filters[0].namedResources.selector"}},
			wantCalls: []string{"new:newonly"}},
		{name: "a compiler failure is an internal error", tc: ruleCase{obj: a3Class(setClass("broken"))},
			wantCalls: []string{"new:broken"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := withFakeCEL(t)
			if tc.name == "a compiler failure is an internal error" {
				tc.tc.want = []string{"Internal spec.selectors[0].cel.expression"}
			}
			runCases(t, []ruleCase{tc.tc})
			if strings.Join(f.calls, " ") != strings.Join(tc.wantCalls, " ") {
				t.Errorf("compiled %q, want %q", f.calls, tc.wantCalls)
			}
		})
	}
}

// TestRememberCEL: one validation compiles each expression once per
// environment, and remembers failures too.
func TestRememberCEL(t *testing.T) {
	f := &fakeCEL{}
	compile := rememberCEL(f.compile)
	for range 2 {
		for _, expr := range []string{"e", "bad"} {
			for _, stored := range []bool{false, true} {
				compile(expr, drakitcel.Options{Release: 31, Stored: stored})
			}
		}
	}
	if _, err := compile("bad", drakitcel.Options{Release: 31}); err == nil || err.Type != field.ErrorTypeInvalid {
		t.Errorf("remembered failure: %v", err)
	}
	if want := "new:e stored:e new:bad stored:bad"; strings.Join(f.calls, " ") != want {
		t.Errorf("compiled %q, want %q", f.calls, want)
	}
}
