package validation

import (
	"strings"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func classWith(f func(s *resourcev1.DeviceClassSpec)) *resourcev1.DeviceClass {
	return v1Class(func(c *resourcev1.DeviceClass) { f(&c.Spec) })
}

func TestV1DeviceClass(t *testing.T) {
	badSelector := classWith(func(s *resourcev1.DeviceClassSpec) { s.Selectors[0].CEL.Expression = "syntax error" })
	longParams := classWith(func(s *resourcev1.DeviceClassSpec) {
		s.Config[0].Opaque.Parameters = runtime.RawExtension{Raw: []byte(`{"a":"` + strings.Repeat("x", V1OpaqueParametersMaxLength) + `"}`)}
	})
	ern := func(name string) *resourcev1.DeviceClass {
		return classWith(func(s *resourcev1.DeviceClassSpec) { s.ExtendedResourceName = ptr(name) })
	}
	const e = "spec.extendedResourceName"
	runV1Cases(t, []v1Case{
		{name: "name", obj: v1Class(func(c *resourcev1.DeviceClass) { c.Name = "GPU" }), want: []string{"Invalid metadata.name"}},
		{name: "too many selectors", obj: classWith(func(s *resourcev1.DeviceClassSpec) {
			s.Selectors = make([]resourcev1.DeviceSelector, V1DeviceSelectorsMaxSize+1)
		}), want: []string{"TooMany spec.selectors"}},
		{name: "selector needs cel", obj: classWith(func(s *resourcev1.DeviceClassSpec) { s.Selectors[0].CEL = nil }), want: []string{"Required spec.selectors[0].cel"}},
		{name: "selector compiles", obj: badSelector, want: []string{"Invalid spec.selectors[0].cel.expression"}},
		{name: "unchanged selectors are stored", op: opUpdate, old: badSelector,
			obj: classWith(func(s *resourcev1.DeviceClassSpec) {
				s.Selectors[0].CEL.Expression = "syntax error"
				s.ExtendedResourceName = nil
			})},
		{name: "changed selectors are new", op: opUpdate, old: badSelector,
			obj: classWith(func(s *resourcev1.DeviceClassSpec) {
				s.Selectors[0].CEL.Expression = "syntax error"
				s.Selectors = append(s.Selectors, cel1("true"))
			}), want: []string{"Invalid spec.selectors[0].cel.expression"}},
		{name: "too many configs", obj: classWith(func(s *resourcev1.DeviceClassSpec) {
			s.Config = make([]resourcev1.DeviceClassConfiguration, V1DeviceConfigMaxSize+1)
		}), want: []string{"TooMany spec.config"}},
		{name: "config needs opaque", obj: classWith(func(s *resourcev1.DeviceClassSpec) { s.Config[0].Opaque = nil }), want: []string{"Required spec.config[0].opaque"}},
		{name: "config driver", obj: classWith(func(s *resourcev1.DeviceClassSpec) { s.Config[0].Opaque.Driver = "-dra" }),
			want: []string{"Invalid spec.config[0].opaque.driver"}},
		{name: "parameters too long", obj: longParams, want: []string{"TooLong spec.config[0].opaque.parameters"}},
		{name: "unchanged parameters are not limited", op: opUpdate, old: longParams,
			obj: v1Class(func(c *resourcev1.DeviceClass) {
				c.Spec = *longParams.Spec.DeepCopy()
				c.Labels = map[string]string{"a": "b"}
			})},
		{name: "extended resource: domain required", obj: ern("gpu"), want: []string{"Invalid " + e},
			details: []string{"Invalid " + e + ": a name must be a domain-prefixed path, such as 'example.com/my-prop'"}},
		{name: "extended resource: kubernetes.io", obj: ern("kubernetes.io/gpu"), want: []string{"Invalid " + e},
			details: []string{"Invalid " + e + `: must not have "kubernetes.io/" domain`}},
		{name: "extended resource: requests.", obj: ern("requests.example.com/gpu"), want: []string{"Invalid " + e}},
		{name: "extended resource: qualified name", obj: ern("example.com/-gpu"), want: []string{"Invalid " + e}},
		// The names a class implies are not valid as explicit names.
		{name: "extended resource: deviceclass prefix", obj: ern(resourcev1.ResourceDeviceClassPrefix + "gpu"), want: []string{"Invalid " + e}},
		{name: "extended resource unchanged on update (handwritten message)", op: opUpdate, old: ern("gpu"),
			obj: v1Class(func(c *resourcev1.DeviceClass) {
				c.Spec.ExtendedResourceName = ptr("gpu")
				c.Labels = map[string]string{"a": "b"}
			}),
			want: []string{"Invalid " + e}, details: []string{"Invalid " + e + ": must be a valid extended resource name"}},
		{name: "update of the name", op: opUpdate, old: v1Class(), obj: v1Class(func(c *resourcev1.DeviceClass) { c.Name = "other" }),
			want: []string{"Invalid metadata.name"}},
	})
}

func TestV1DeviceTaintRule(t *testing.T) {
	rule := func(f func(s *resourcev1.DeviceTaintRuleSpec)) *resourcev1.DeviceTaintRule {
		return v1TaintRule(func(r *resourcev1.DeviceTaintRule) { f(&r.Spec) })
	}
	badEffect := rule(func(s *resourcev1.DeviceTaintRuleSpec) { s.Taint.Effect = "Evict" })
	status := func(f func(c *[]metav1.Condition)) *resourcev1.DeviceTaintRule {
		return v1TaintRule(func(r *resourcev1.DeviceTaintRule) { f(&r.Status.Conditions) })
	}
	const ds, ta = "spec.deviceSelector", "spec.taint"
	runV1Cases(t, []v1Case{
		{name: "name", obj: v1TaintRule(func(r *resourcev1.DeviceTaintRule) { r.Name = "Rule" }), want: []string{"Invalid metadata.name"}},
		{name: "no selector", obj: rule(func(s *resourcev1.DeviceTaintRuleSpec) { s.DeviceSelector = nil })},
		{name: "empty selector", obj: rule(func(s *resourcev1.DeviceTaintRuleSpec) { s.DeviceSelector = &resourcev1.DeviceTaintSelector{} })},
		{name: "selector driver", obj: rule(func(s *resourcev1.DeviceTaintRuleSpec) { s.DeviceSelector.Driver = ptr("") }), want: []string{"Required " + ds + ".driver"}},
		{name: "selector pool", obj: rule(func(s *resourcev1.DeviceTaintRuleSpec) { s.DeviceSelector.Pool = ptr("a/") }), want: []string{"Invalid " + ds + ".pool"}},
		{name: "selector device", obj: rule(func(s *resourcev1.DeviceTaintRuleSpec) { s.DeviceSelector.Device = ptr("gpu.0") }), want: []string{"Invalid " + ds + ".device"}},
		{name: "taint key", obj: rule(func(s *resourcev1.DeviceTaintRuleSpec) { s.Taint.Key = "" }), want: []string{"Invalid " + ta + ".key"}},
		{name: "taint value", obj: rule(func(s *resourcev1.DeviceTaintRuleSpec) { s.Taint.Value = strings.Repeat("v", 64) }), want: []string{"Invalid " + ta + ".value"}},
		{name: "taint effect required", obj: rule(func(s *resourcev1.DeviceTaintRuleSpec) { s.Taint.Effect = "" }), want: []string{"Required " + ta + ".effect"}},
		{name: "taint effect", obj: badEffect, want: []string{"NotSupported " + ta + ".effect"}},
		{name: "unchanged effect is not checked", op: opUpdate, old: badEffect,
			obj: rule(func(s *resourcev1.DeviceTaintRuleSpec) { s.Taint.Effect = "Evict"; s.Taint.Value = "unplanned" })},
		{name: "changed effect is", op: opUpdate, old: v1TaintRule(), obj: badEffect, want: []string{"NotSupported " + ta + ".effect"}},
		{name: "status: conditions", op: opStatus, old: v1TaintRule(), obj: status(func(c *[]metav1.Condition) {
			(*c)[0].Reason = ""
			*c = append(*c, (*c)[0])
		}), want: []string{"Required status.conditions[0].reason", "Required status.conditions[1].reason", "Duplicate status.conditions[1]"}},
		{name: "status: too many conditions", op: opStatus, old: v1TaintRule(), obj: status(func(c *[]metav1.Condition) {
			for i := 0; len(*c) <= V1DeviceTaintRuleStatusMaxConditions; i++ {
				*c = append(*c, metav1.Condition{Type: "T" + string(rune('a'+i)), Status: metav1.ConditionTrue, LastTransitionTime: added1, Reason: "R"})
			}
		}), want: []string{"TooMany status.conditions"}},
		{name: "status update keeps the spec", op: opStatus, old: v1TaintRule(), obj: badEffect},
		{name: "update keeps the status", op: opUpdate, old: v1TaintRule(), obj: status(func(c *[]metav1.Condition) { (*c)[0].Status = "Maybe" })},
	})
}
