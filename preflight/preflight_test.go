package preflight_test

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	resourcev1 "k8s.io/api/resource/v1"
	resourcev1beta1 "k8s.io/api/resource/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/preflight"
)

// brief writes the breaking findings of a storage check as
// "check object @release", sorted.
func brief(fs []preflight.Finding, sev preflight.Severity) []string {
	var out []string
	for _, f := range fs {
		if f.Severity == sev {
			out = append(out, fmt.Sprintf("%s %s @%s", f.Check, f.Object, f.Release))
		}
	}
	sort.Strings(out)
	return out
}

func TestCheckStorage(t *testing.T) {
	core := func(check, release string) []string {
		var out []string
		for _, r := range []string{"deviceclasses", "resourceclaims", "resourceclaimtemplates", "resourceslices"} {
			out = append(out, fmt.Sprintf("%s stored %s @%s", check, r, release))
		}
		return out
	}
	for _, c := range []struct {
		from, to int
		want     []string
	}{
		// v1alpha2 is unreadable on 1.31; the parameters kinds are gone.
		{30, 31, append(core("stored-objects", "1.31"),
			"kind-not-served stored resourceclaimparameters @1.31", "kind-not-served stored resourceclassparameters @1.31",
			"stored-objects stored podschedulingcontexts @1.31")},
		// Written by 1.31 as v1alpha3 and not since: unreadable on 1.34.
		{32, 34, core("stored-objects", "1.34")},
		{33, 34, core("stored-objects", "1.34")},
		{34, 35, nil},
		{36, 37, nil},
		// 1.32 stores v1beta1, unknown to 1.31.
		{32, 31, core("downgrade", "1.31")},
		// 1.34 stores v1beta2, which 1.33 reads.
		{34, 33, nil},
		// 1.35 stores v1, unknown to 1.33.
		{35, 33, core("downgrade", "1.33")},
		{37, 36, nil},
		{37, 38, nil},
	} {
		got := brief(preflight.CheckStorage(c.from, c.to, nil), preflight.Breaking)
		want := slices.Clone(c.want)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("1.%d -> 1.%d:\n got %q\nwant %q", c.from, c.to, got, want)
		}
	}
	// 1.38 stops serving v1beta1, the storage version of 1.32 and 1.33.
	if got := brief(preflight.CheckStorage(37, 38, nil), preflight.Warning); len(got) != 4 {
		t.Errorf("1.37 -> 1.38 warnings: %q", got)
	}
	// A cluster's objects: kinds it holds none of are left out, the others
	// name their objects.
	fs := preflight.CheckStorage(30, 31, map[string][]string{"ResourceClaim": {"ResourceClaim a/b"}, "DeviceClass": {}})
	if len(fs) != 1 || fs[0].Count != 1 || fs[0].Objects[0] != "ResourceClaim a/b" {
		t.Errorf("with objects: %+v", fs)
	}
}

func v1Claim(name string, req resourcev1.DeviceRequest) *resourcev1.ResourceClaim {
	return &resourcev1.ResourceClaim{
		TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec:       resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{req}}},
	}
}

func checks(fs []preflight.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s %s %s", f.Severity, f.Check, f.Path))
	}
	return out
}

func TestCheckObject(t *testing.T) {
	exact := resourcev1.DeviceRequest{Name: "gpu", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu.example.com", AllocationMode: resourcev1.DeviceAllocationModeExactCount, Count: 1}}
	prioritized := resourcev1.DeviceRequest{Name: "gpu", FirstAvailable: []resourcev1.DeviceSubRequest{{Name: "big", DeviceClassName: "gpu.example.com", AllocationMode: resourcev1.DeviceAllocationModeExactCount, Count: 1}}}
	beta := &resourcev1beta1.ResourceClaim{
		TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1beta1", Kind: "ResourceClaim"},
		ObjectMeta: metav1.ObjectMeta{Name: "old", Namespace: "default"},
		Spec:       resourcev1beta1.ResourceClaimSpec{Devices: resourcev1beta1.DeviceClaim{Requests: []resourcev1beta1.DeviceRequest{{Name: "gpu", DeviceClassName: "gpu.example.com", AllocationMode: resourcev1beta1.DeviceAllocationModeExactCount, Count: 1}}}},
	}
	for _, c := range []struct {
		name     string
		from, to int
		obj      runtime.Object
		want     []string
	}{
		{"v1 on 1.37", 36, 37, v1Claim("a", exact), nil},
		{"v1 on 1.33", 34, 33, v1Claim("a", exact), []string{"Breaking version-not-served "}},
		{"v1beta1 on 1.37", 36, 37, beta, []string{"Warning version-not-enabled "}},
		{"v1beta1 on 1.38", 37, 38, beta, []string{"Breaking version-not-served "}},
		// firstAvailable: off by default before 1.34; 1.33 drops it and
		// then refuses a request with neither exactly nor firstAvailable.
		{"prioritized on 1.33", 34, 33, v1Claim("p", prioritized), []string{
			"Breaking version-not-served ",
			"Breaking validation spec.devices.requests[0]",
			"Breaking fields-dropped spec.devices.requests[0].firstAvailable",
		}},
		// The other way, the field takes effect.
		{"prioritized from 1.33 to 1.34", 33, 34, v1Claim("p", prioritized), []string{"Info fields-take-effect spec.devices.requests[0].firstAvailable"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := checks(preflight.Checker{From: c.from, To: c.to}.CheckObject(c.obj, "x"))
			sort.Strings(got)
			want := slices.Clone(c.want)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %q\nwant %q", got, want)
			}
		})
	}
	// A field that takes effect only on the target: device taints are off
	// by default before 1.36.
	slice := &resourcev1.ResourceSlice{
		TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceSlice"},
		ObjectMeta: metav1.ObjectMeta{Name: "s"},
		Spec: resourcev1.ResourceSliceSpec{Driver: "gpu.example.com", NodeName: ptr.To("n"), Pool: resourcev1.ResourcePool{Name: "n", ResourceSliceCount: 1},
			Devices: []resourcev1.Device{{Name: "d", Taints: []resourcev1.DeviceTaint{{Key: "example.com/broken", Effect: resourcev1.DeviceTaintEffectNoSchedule}}}}},
	}
	got := checks(preflight.Checker{From: 35, To: 36}.CheckObject(slice, "s"))
	if !slices.Equal(got, []string{"Info fields-take-effect spec.devices[0].taints"}) {
		t.Errorf("taints 1.35 -> 1.36: %q", got)
	}
	got = checks(preflight.Checker{From: 36, To: 35}.CheckObject(slice, "s"))
	if !slices.Contains(got, "Breaking fields-dropped spec.devices[0].taints") {
		t.Errorf("taints 1.36 -> 1.35: %q", got)
	}
	// What the target's version cannot say: a v1alpha2 claim's parameters
	// in 1.31's v1alpha3.
	hub, err := conversion.ToHub(v1Claim("a", exact))
	if err != nil {
		t.Fatal(err)
	}
	old, err := conversion.FromHub(hub, "v1alpha2")
	if err != nil {
		t.Fatal(err)
	}
	got = checks(preflight.Checker{From: 30, To: 31}.CheckObject(old, "old"))
	if !slices.Contains(got, "Breaking version-not-served ") {
		t.Errorf("v1alpha2 on 1.31: %q", got)
	}
	// Admin access: the namespace label changes between 1.33 and 1.34.
	admin := exact
	admin.Exactly = admin.Exactly.DeepCopy()
	admin.Exactly.AdminAccess = ptr.To(true)
	for _, c := range []struct {
		from, to int
		want     bool
	}{{33, 34, true}, {35, 33, true}, {34, 37, false}, {32, 33, false}, {0, 37, false}} {
		got := checks(preflight.Checker{From: c.from, To: c.to}.CheckObject(v1Claim("admin", admin), "admin"))
		if has := slices.Contains(got, "Warning semantics spec.devices.requests[0]"); has != c.want {
			t.Errorf("admin access 1.%d -> 1.%d: %q", c.from, c.to, got)
		}
	}
	// A cluster's hub object, with or without the apiVersion hubclient
	// gives it (resource.k8s.io/__internal, found on the real servers).
	for _, gvk := range []schema.GroupVersionKind{{}, {Group: "resource.k8s.io", Version: runtime.APIVersionInternal, Kind: "ResourceClaim"}} {
		h := hub.DeepCopyObject()
		h.GetObjectKind().SetGroupVersionKind(gvk)
		if got := checks(preflight.Checker{From: 37, To: 38, Live: true}.CheckObject(h, "live")); len(got) != 0 {
			t.Errorf("live hub object %v on 1.38: %q", gvk, got)
		}
		if got := checks(preflight.Checker{From: 34, To: 33, Live: true}.CheckObject(h, "live")); len(got) != 0 {
			t.Errorf("live hub object %v on 1.33: %q", gvk, got)
		}
	}
}

func webhook(versions []string, exact bool) *admissionregistrationv1.ValidatingWebhookConfiguration {
	w := admissionregistrationv1.ValidatingWebhook{Name: "w", Rules: []admissionregistrationv1.RuleWithOperations{{
		Rule: admissionregistrationv1.Rule{APIGroups: []string{"resource.k8s.io"}, APIVersions: versions, Resources: []string{"resourceclaims", "podschedulingcontexts"}},
	}}}
	if exact {
		w.MatchPolicy = ptr.To(admissionregistrationv1.Exact)
	}
	return &admissionregistrationv1.ValidatingWebhookConfiguration{Webhooks: []admissionregistrationv1.ValidatingWebhook{w}}
}

func TestCheckRules(t *testing.T) {
	for _, c := range []struct {
		name     string
		to       int
		versions []string
		exact    bool
		want     []string
	}{
		{"v1beta1 only on 1.37", 37, []string{"v1beta1"}, false, []string{"Breaking webhook-rule webhooks[0].rules[0].apiVersions", "Warning webhook-rule webhooks[0].rules[0].resources"}},
		{"v1beta1 and v1 on 1.37", 37, []string{"v1beta1", "v1"}, false, []string{"Warning webhook-rule webhooks[0].rules[0].resources"}},
		{"any version on 1.38", 38, []string{"*"}, false, []string{"Warning webhook-rule webhooks[0].rules[0].resources"}},
		// 1.33 enables no version by default: nothing to compare.
		{"v1beta1 on 1.33", 33, []string{"v1beta1"}, false, []string{"Warning webhook-rule webhooks[0].rules[0].resources"}},
		{"v1alpha3 on 1.31", 31, []string{"v1alpha3"}, true, nil},
		// 1.33 has no v1 at all, whatever the cluster enables.
		{"v1 on 1.33", 33, []string{"v1"}, false, []string{"Breaking webhook-rule webhooks[0].rules[0].apiVersions", "Warning webhook-rule webhooks[0].rules[0].resources"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := checks(preflight.Checker{To: c.to}.CheckRules(preflight.CheckWebhook, "w", "", preflight.WebhookRules(webhook(c.versions, c.exact))))
			sort.Strings(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestCheckPolicyCEL(t *testing.T) {
	rules := []preflight.Rule{{Path: "r", APIGroups: []string{"resource.k8s.io"}, APIVersions: []string{"v1beta1"}, Resources: []string{"resourceclaims"}}}
	for expr, want := range map[string]string{
		// The v1beta1 shape of a request (k/k#129530's example policy).
		`!object.spec.devices.requests.exists(e, has(e.adminAccess) && e.adminAccess)`: `"spec.devices.requests.adminAccess"`,
		// Nested macros follow the variables.
		`object.spec.devices.requests.all(r, r.selectors.all(s, s.cel.expression != ""))`: `"spec.devices.requests.selectors", "spec.devices.requests.selectors.cel.expression"`,
		// Fields both shapes have.
		`object.spec.devices.requests.size() < 4 && request.userInfo.username != ""`: "",
		`object.metadata.name.startsWith("gpu")`:                                     "",
	} {
		fs := preflight.Checker{To: 37}.CheckPolicyCEL("p", "", rules, []preflight.CELExpression{{Path: "e", Expression: expr}})
		switch {
		case want == "" && len(fs) != 0:
			t.Errorf("%s: %v", expr, fs[0].Why)
		case want != "" && (len(fs) != 1 || !strings.Contains(fs[0].Why, "selects "+want+",")):
			t.Errorf("%s: got %+v, want %s", expr, fs, want)
		}
	}
	// Matching v1 already: the policy sees v1, whose paths are checked.
	rules[0].APIVersions = []string{"v1"}
	if fs := (preflight.Checker{To: 37}).CheckPolicyCEL("p", "", rules, []preflight.CELExpression{{Expression: `object.spec.devices.requests.exists(e, has(e.exactly) && e.exactly.adminAccess == true)`}}); len(fs) != 0 {
		t.Errorf("v1 policy: %+v", fs)
	}
}

func TestCheckRole(t *testing.T) {
	status := rbacv1.PolicyRule{APIGroups: []string{"resource.k8s.io"}, Resources: []string{"resourceclaims/status"}, Verbs: []string{"update", "patch"}}
	driver := rbacv1.PolicyRule{APIGroups: []string{"resource.k8s.io"}, Resources: []string{"resourceclaims/driver"}, ResourceNames: []string{"gpu.example.com"}, Verbs: []string{"associated-node:update"}}
	gone := rbacv1.PolicyRule{APIGroups: []string{"resource.k8s.io"}, Resources: []string{"resourceclasses", "podschedulingcontexts/status"}, Verbs: []string{"get"}}
	for _, c := range []struct {
		name  string
		to    int
		rules []rbacv1.PolicyRule
		want  []string
	}{
		{"status writer on 1.36", 36, []rbacv1.PolicyRule{status}, []string{"Breaking rbac-status-authorization rules[0]"}},
		{"status writer on 1.35", 35, []rbacv1.PolicyRule{status}, nil},
		{"driver on 1.36", 36, []rbacv1.PolicyRule{status, driver}, nil},
		{"everything on 1.37", 37, []rbacv1.PolicyRule{{APIGroups: []string{"*"}, Resources: []string{"*"}, Verbs: []string{"*"}}}, nil},
		{"classic kinds on 1.32", 32, []rbacv1.PolicyRule{gone}, []string{"Warning rbac-resource rules[0].resources"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := checks(preflight.Checker{To: c.to}.CheckRole("r", "", c.rules, true))
			if !slices.Equal(got, c.want) {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
		})
	}
	// Aggregation: the aggregated role collects the labelled role's rules.
	agg := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "agg"}, AggregationRule: &rbacv1.AggregationRule{ClusterRoleSelectors: []metav1.LabelSelector{{MatchLabels: map[string]string{"a": "b"}}}}}
	part := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "part", Labels: map[string]string{"a": "b"}}, Rules: []rbacv1.PolicyRule{status}}
	other := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "other"}, Rules: []rbacv1.PolicyRule{driver}}
	preflight.Aggregate([]*rbacv1.ClusterRole{agg, part, other})
	if len(agg.Rules) != 1 || agg.Rules[0].Resources[0] != "resourceclaims/status" {
		t.Errorf("aggregated rules: %+v", agg.Rules)
	}
}

func TestPlan(t *testing.T) {
	hubOf := func(obj runtime.Object) runtime.Object {
		h, err := conversion.ToHub(obj)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	exact := resourcev1.DeviceRequest{Name: "gpu", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu.example.com", AllocationMode: resourcev1.DeviceAllocationModeExactCount, Count: 1}}
	prioritized := resourcev1.DeviceRequest{Name: "gpu", FirstAvailable: []resourcev1.DeviceSubRequest{{Name: "big", DeviceClassName: "gpu.example.com", AllocationMode: resourcev1.DeviceAllocationModeExactCount, Count: 1}}}
	objs := map[string][]runtime.Object{"ResourceClaim": {hubOf(v1Claim("a", exact)), hubOf(v1Claim("p", prioritized))}}

	// 1.33 -> 1.34: rewrite on 1.33 (v1beta1), where firstAvailable's
	// gate is off by default; an update keeps what the object uses.
	steps := preflight.Plan(33, 34, objs)
	if len(steps) != 1 || steps[0].Method != preflight.MethodMigrate || steps[0].Release != "1.33" || steps[0].Version != "v1beta1" || steps[0].Proven != 2 {
		t.Fatalf("1.33 -> 1.34: %+v", steps)
	}
	// 1.37 -> 1.38: nothing breaks; a StorageVersionMigration on 1.37's
	// GA API moves what 1.32 and 1.33 stored as v1beta1 to v1.
	steps = preflight.Plan(37, 38, objs)
	if len(steps) != 1 || steps[0].Method != preflight.MethodNone || steps[0].Proven != 2 || steps[0].Release != "1.37" || steps[0].Migration == nil {
		t.Fatalf("1.37 -> 1.38: %+v", steps)
	}
	steps = preflight.Plan(36, 37, objs)
	if steps[0].Migration == nil || steps[0].Migration.Spec.Resource.Resource != "resourceclaims" {
		t.Fatalf("1.36 -> 1.37: %+v", steps)
	}
	// 1.35 -> 1.33 recreates on 1.33, whose defaults drop firstAvailable:
	// that claim would not survive.
	steps = preflight.Plan(35, 33, objs)
	if len(steps) != 1 || steps[0].Method != preflight.MethodMigrate || steps[0].Release != "1.34" {
		t.Fatalf("1.35 -> 1.33: %+v", steps)
	}
	steps = preflight.Plan(30, 31, objs)
	if len(steps) != 1 || steps[0].Method != preflight.MethodRecreate || steps[0].Proven != 1 || len(steps[0].Failed) != 1 || steps[0].Failed[0].Object != "ResourceClaim default/p" {
		t.Fatalf("1.30 -> 1.31: %+v", steps)
	}
}

func TestTypeCheckPolicy(t *testing.T) {
	policy := func(versions []string, expr string) *admissionregistrationv1.ValidatingAdmissionPolicy {
		return &admissionregistrationv1.ValidatingAdmissionPolicy{
			ObjectMeta: metav1.ObjectMeta{Name: "p"},
			Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
				MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
					RuleWithOperations: admissionregistrationv1.RuleWithOperations{Rule: admissionregistrationv1.Rule{APIGroups: []string{"resource.k8s.io"}, APIVersions: versions, Resources: []string{"resourceclaims"}}},
				}}},
				Validations: []admissionregistrationv1.Validation{{Expression: expr}},
			},
		}
	}
	for _, c := range []struct {
		versions []string
		expr     string
		want     int
	}{
		// A type error a path cannot show.
		{[]string{"v1"}, `object.spec.devices.requests.size() == "two"`, 1},
		// v1beta1's shape on the v1 objects the policy matches.
		{[]string{"v1beta1", "v1"}, `object.spec.devices.requests.all(r, !has(r.adminAccess))`, 1},
		{[]string{"v1"}, `object.spec.devices.requests.all(r, !has(r.exactly) || r.exactly.adminAccess != true)`, 0},
		// Matching nothing on 1.37: nothing to type-check against
		// (CheckRules reports the rule).
		{[]string{"v1beta1"}, `object.spec.devices.requests.size() == "two"`, 0},
	} {
		fs := preflight.Checker{To: 37}.TypeCheckPolicy("p", "", policy(c.versions, c.expr), nil)
		if len(fs) != c.want {
			t.Errorf("%v %s: %d findings, want %d: %+v", c.versions, c.expr, len(fs), c.want, fs)
		}
	}
}

// A claim allocated without allocationTimestamp is flagged on a move to a
// release whose scheduler adds one in PreBind (1.36 on) from one that did
// not (or an unknown one); not before, not between two such releases, and
// not when it has one.
func TestCheckAllocationTimestamp(t *testing.T) {
	claim := func(stamped bool) *resourcev1.ResourceClaim {
		c := &resourcev1.ResourceClaim{
			TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"},
			ObjectMeta: metav1.ObjectMeta{Name: "shared", Namespace: "ml"},
			Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{{
				Name: "r", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu", AllocationMode: resourcev1.DeviceAllocationModeExactCount, Count: 1}}}}},
			Status: resourcev1.ResourceClaimStatus{Allocation: &resourcev1.AllocationResult{Devices: resourcev1.DeviceAllocationResult{
				Results: []resourcev1.DeviceRequestAllocationResult{{Request: "r", Driver: "gpu.example.com", Pool: "n0", Device: "g0"}}}}},
		}
		if stamped {
			c.Status.Allocation.AllocationTimestamp = &metav1.Time{}
		}
		return c
	}
	flagged := func(fs []preflight.Finding) bool {
		for _, f := range fs {
			if f.Path == "status.allocation.allocationTimestamp" {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		from, to int
		stamped  bool
		want     bool
	}{{35, 37, false, true}, {35, 36, false, true}, {0, 37, false, true}, {34, 35, false, false}, {35, 37, true, false}, {36, 37, false, false}} {
		got := flagged(preflight.Checker{From: c.from, To: c.to}.CheckObject(claim(c.stamped), "ResourceClaim ml/shared"))
		if got != c.want {
			t.Errorf("1.%d to 1.%d, timestamp %v: flagged %v, want %v", c.from, c.to, c.stamped, got, c.want)
		}
	}
}
