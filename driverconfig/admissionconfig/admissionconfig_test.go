package admissionconfig

import (
	"fmt"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func served(t *testing.T, minor int) *Served {
	t.Helper()
	s, err := ServedByRelease(minor)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// rulesOf writes a webhook's rules as "v1,v1beta2: deviceclasses resourceclaims".
func rulesOf(rules []admissionregistrationv1.RuleWithOperations) string {
	var parts []string
	for _, r := range rules {
		parts = append(parts, strings.Join(r.APIVersions, ",")+": "+strings.Join(r.Resources, " "))
	}
	return strings.Join(parts, "; ")
}

func TestWebhookRulesPerRelease(t *testing.T) {
	want := map[int]string{
		30: "v1alpha2: resourceclaimparameters resourceclassparameters",
		31: "v1alpha3: deviceclasses resourceclaims resourceclaimtemplates",
		// 1.32 and 1.33 serve v1alpha3's core kinds too, in v1beta1's shape.
		32: "v1beta1,v1alpha3: deviceclasses resourceclaims resourceclaimtemplates",
		33: "v1beta2,v1beta1,v1alpha3: deviceclasses resourceclaims resourceclaimtemplates",
		34: "v1,v1beta2,v1beta1: deviceclasses resourceclaims resourceclaimtemplates",
		37: "v1,v1beta2,v1beta1: deviceclasses resourceclaims resourceclaimtemplates",
	}
	for minor, w := range want {
		t.Run(fmt.Sprintf("1.%d", minor), func(t *testing.T) {
			cfg, err := ValidatingWebhookConfiguration(served(t, minor), WebhookOptions{Drivers: []string{"gpu.example.com"}, URL: "https://127.0.0.1:8443/validate"})
			if err != nil {
				t.Fatal(err)
			}
			w0 := cfg.Webhooks[0]
			if got := rulesOf(w0.Rules); got != w {
				t.Errorf("rules %s, want %s", got, w)
			}
			if *w0.MatchPolicy != admissionregistrationv1.Equivalent || *w0.FailurePolicy != admissionregistrationv1.Fail || *w0.SideEffects != admissionregistrationv1.SideEffectClassNone || *w0.TimeoutSeconds != DefaultTimeoutSeconds {
				t.Errorf("policies: %+v", w0)
			}
		})
	}
	// Releases that serve nothing holding opaque configuration.
	for _, minor := range []int{26, 29} {
		if _, err := ValidatingWebhookConfiguration(served(t, minor), WebhookOptions{Drivers: []string{"gpu.example.com"}, URL: "https://x/"}); err == nil || !strings.Contains(err.Error(), "no webhook is needed") {
			t.Errorf("1.%d: %v", minor, err)
		}
	}
	if _, err := ServedByRelease(38); err == nil {
		t.Error("1.38: no error")
	}
}

func TestWebhookOptionErrors(t *testing.T) {
	s := served(t, 37)
	svc := &admissionregistrationv1.ServiceReference{Namespace: "ns", Name: "svc"}
	cases := []struct {
		o    WebhookOptions
		want string
	}{
		{WebhookOptions{URL: "https://x/"}, "no driver name"},
		{WebhookOptions{Drivers: []string{"GPU"}, URL: "https://x/"}, `driver name "GPU"`},
		{WebhookOptions{Drivers: []string{"gpu"}, URL: "https://x/"}, "at least three labels"},
		{WebhookOptions{Drivers: []string{"gpu.example.com"}}, "service"},
		{WebhookOptions{Drivers: []string{"gpu.example.com"}, URL: "http://x/"}, "https"},
		{WebhookOptions{Drivers: []string{"gpu.example.com"}, URL: "https://x/", Service: svc}, "not both"},
		{WebhookOptions{Drivers: []string{"gpu.example.com"}, URL: "https://x/", TimeoutSeconds: 31}, "1 to 30"},
	}
	for _, c := range cases {
		if _, err := ValidatingWebhookConfiguration(s, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.o, err, c.want)
		}
	}
}

func TestSlicePolicy(t *testing.T) {
	o := SlicePolicyOptions{Drivers: []string{"gpu.example.com"}, ServiceAccountNamespace: "gpu", ServiceAccountName: "plugin"}
	for minor, want := range map[int]string{30: "variables.slice.?nodeName", 31: "variables.slice.spec.?nodeName", 37: "variables.slice.spec.?nodeName"} {
		vap, binding, err := ResourceSlicePolicy(served(t, minor), o)
		if err != nil {
			t.Fatal(err)
		}
		if got := vap.Spec.Variables[2].Expression; !strings.HasPrefix(got, want) {
			t.Errorf("1.%d: node name %s, want %s...", minor, got, want)
		}
		if binding.Spec.PolicyName != vap.Name {
			t.Errorf("binding names %s", binding.Spec.PolicyName)
		}
		// The policy drakit writes passes drakit's lint on its release.
		if f := Lint([]runtime.Object{vap}, served(t, minor)); len(f) > 0 {
			t.Errorf("1.%d: the generated policy has findings: %v", minor, f)
		}
	}
	if _, _, err := ResourceSlicePolicy(served(t, 29), o); err == nil {
		t.Error("1.29: no error")
	}
}

func vwc(policy admissionregistrationv1.MatchPolicyType, versions ...string) *admissionregistrationv1.ValidatingWebhookConfiguration {
	return &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "hook"},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name:        "opaque-config.gpu.example.com",
			MatchPolicy: &policy,
			Rules: []admissionregistrationv1.RuleWithOperations{{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
				Rule:       admissionregistrationv1.Rule{APIGroups: []string{"resource.k8s.io"}, APIVersions: versions, Resources: []string{"resourceclaims", "resourceclaimtemplates"}},
			}},
		}},
	}
}

func vap(expr string, versions ...string) *admissionregistrationv1.ValidatingAdmissionPolicy {
	return &admissionregistrationv1.ValidatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "admin-access"},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
				RuleWithOperations: admissionregistrationv1.RuleWithOperations{
					Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
					Rule:       admissionregistrationv1.Rule{APIGroups: []string{"resource.k8s.io"}, APIVersions: versions, Resources: []string{"resourceclaims"}},
				},
			}}},
			Validations: []admissionregistrationv1.Validation{{Expression: expr}},
		},
	}
}

func TestLint(t *testing.T) {
	// upstream's example admin-access policy (k/k#129530): v1beta1's flat
	// requests.
	const flat = "!object.spec.devices.requests.exists(e, has(e.adminAccess) && e.adminAccess)"
	const exactly = "!object.spec.devices.requests.exists(e, has(e.exactly) && has(e.exactly.adminAccess) && e.exactly.adminAccess)"
	cases := []struct {
		name    string
		release int
		obj     runtime.Object
		want    []string
	}{
		{"generated-like config is clean", 37, vwc(admissionregistrationv1.Equivalent, "v1", "v1beta2", "v1beta1"), nil},
		{"only v1beta1 on 1.38's predecessor is fine with Equivalent", 37, vwc(admissionregistrationv1.Equivalent, "v1beta1"), nil},
		{"only v1beta1 with Exact leaves v1 and v1beta2 out", 37, vwc(admissionregistrationv1.Exact, "v1beta1"),
			[]string{"error: ValidatingWebhookConfiguration hook: webhooks[0].rules[0].apiVersions: on 1.37 requests for resourceclaims in v1, v1beta2 skip the webhook opaque-config.gpu.example.com (matchPolicy Exact)",
				"error: ValidatingWebhookConfiguration hook: webhooks[0].rules[0].apiVersions: on 1.37 requests for resourceclaimtemplates in v1, v1beta2 skip"}},
		{"v1 on 1.33 matches nothing", 33, vwc(admissionregistrationv1.Equivalent, "v1"),
			[]string{"warning: ValidatingWebhookConfiguration hook: webhooks[0].rules[0].apiVersions[0]: 1.33 serves no resource.k8s.io/v1",
				"error: ValidatingWebhookConfiguration hook: webhooks[0].rules[0].apiVersions: on 1.33 the webhook opaque-config.gpu.example.com matches no request for resourceclaims: it names v1, and 1.33 serves resourceclaims only in v1beta2, v1beta1, v1alpha3",
				"error: ValidatingWebhookConfiguration hook: webhooks[0].rules[0].apiVersions: on 1.33 the webhook opaque-config.gpu.example.com matches no request for resourceclaimtemplates"}},
		{"flat CEL on v1", 37, vap(flat, "v1"),
			[]string{"error: ValidatingAdmissionPolicy admin-access: spec.validations[0].expression: does not type-check against resource.k8s.io/v1 ResourceClaim as 1.37 serves it: ERROR: <input>:1:44: undefined field 'adminAccess'"}},
		{"flat CEL on v1beta1 is right", 37, vap(flat, "v1beta1"), nil},
		{"exactly CEL on v1beta1", 37, vap(exactly, "v1beta1"),
			[]string{"error: ValidatingAdmissionPolicy admin-access: spec.validations[0].expression: does not type-check against resource.k8s.io/v1beta1 ResourceClaim as 1.37 serves it: ERROR: <input>:1:44: undefined field 'exactly'"}},
		{"exactly CEL on v1 and v1beta2 is right", 37, vap(exactly, "v1", "v1beta2"), nil},
		{"upstream's list on 1.37: v1alpha3 has no claims any more", 37, vap(flat, "v1alpha3", "v1beta1"),
			[]string{"warning: ValidatingAdmissionPolicy admin-access: spec.matchConstraints.resourceRules[0].apiVersions[0]: 1.37 does not serve resourceclaims in resource.k8s.io/v1alpha3 (it serves it in v1, v1beta2, v1beta1)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Lint([]runtime.Object{c.obj}, served(t, c.release))
			if len(got) != len(c.want) {
				t.Fatalf("got %d findings, want %d:\n%v", len(got), len(c.want), got)
			}
			for i := range got {
				if !strings.HasPrefix(got[i].String(), c.want[i]) {
					t.Errorf("finding %d:\n got %s\nwant %s...", i, got[i], c.want[i])
				}
			}
		})
	}
}
