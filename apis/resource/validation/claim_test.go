package validation

import (
	"fmt"
	"strings"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource/features"
)

// claimWith is v1Claim with its device claim changed by f.
func claimWith(f func(d *resourcev1.DeviceClaim)) *resourcev1.ResourceClaim {
	return v1Claim(func(c *resourcev1.ResourceClaim) { f(&c.Spec.Devices) })
}

func exact(d *resourcev1.DeviceClaim) *resourcev1.ExactDeviceRequest { return d.Requests[0].Exactly }

func fast(d *resourcev1.DeviceClaim) *resourcev1.DeviceSubRequest {
	return &d.Requests[1].FirstAvailable[0]
}

const (
	req0 = "spec.devices.requests[0]"
	ex0  = req0 + ".exactly"
	req1 = "spec.devices.requests[1]"
	fa10 = req1 + ".firstAvailable[0]"
	con2 = "spec.devices.constraints[2]"
	cfg0 = "spec.devices.config[0]"
)

func nStrings(n int, f func(i int) string) []string { return repeat(n, f) }

func TestV1ClaimRequests(t *testing.T) {
	runV1Cases(t, []v1Case{
		{name: "request name", obj: claimWith(func(d *resourcev1.DeviceClaim) { d.Requests[0].Name = "GPU" }),
			// The constraint and config naming "gpu" now name nothing.
			want: []string{"Invalid " + req0 + ".name", "Invalid spec.devices.constraints[0].requests[0]", "Invalid spec.devices.config[0].requests[0]",
				"Invalid " + ex0 + ".derivedAttributes[0].name"}},
		{name: "duplicate request", obj: claimWith(func(d *resourcev1.DeviceClaim) { d.Requests = append(d.Requests, d.Requests[0]) }),
			want: []string{"Duplicate spec.devices.requests[2]"}},
		{name: "too many requests", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			for i := 0; len(d.Requests) <= V1DeviceRequestsMaxSize; i++ {
				d.Requests = append(d.Requests, resourcev1.DeviceRequest{Name: fmt.Sprintf("r-%d", i), Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "BAD"}})
			}
		}), want: []string{"TooMany spec.devices.requests"}, details: []string{"TooMany spec.devices.requests: must have at most 32 items"}},
		{name: "neither exactly nor firstAvailable", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			d.Requests[0].Exactly = nil
		}), want: []string{"Required " + req0}, details: []string{"Required " + req0 + ": exactly one of `exactly` or `firstAvailable` is required"}},
		{name: "empty firstAvailable is unset", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			d.Requests[0].Exactly, d.Requests[0].FirstAvailable = nil, []resourcev1.DeviceSubRequest{}
		}), want: []string{"Required " + req0}},
		{name: "both exactly and firstAvailable", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			d.Requests[1].Exactly = &resourcev1.ExactDeviceRequest{DeviceClassName: "nic.example.com"}
		}), want: []string{"Invalid " + req1}, details: []string{"Invalid " + req1 + ": but multiple fields are set"}},
		{name: "both set: the declarative validation checks both", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			d.Requests[1].Exactly = &resourcev1.ExactDeviceRequest{DeviceClassName: "BAD_CLASS", // handwritten only: not reported
				AllocationMode:    "Sometimes",
				DerivedAttributes: []resourcev1.DeviceDerivedAttribute{{Expression: "x"}}}
			fast(d).DeviceClassName = ""
			d.Requests[1].FirstAvailable = append(d.Requests[1].FirstAvailable, d.Requests[1].FirstAvailable[1])
		}), want: []string{"Invalid " + req1, "NotSupported " + req1 + ".exactly.allocationMode", "Required " + req1 + ".exactly.derivedAttributes[0].name",
			"Required " + fa10 + ".deviceClassName", "Duplicate " + req1 + ".firstAvailable[2]"}},
		{name: "too many sub-requests", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			for i := 0; len(d.Requests[1].FirstAvailable) <= V1FirstAvailableMaxSize; i++ {
				d.Requests[1].FirstAvailable = append(d.Requests[1].FirstAvailable, resourcev1.DeviceSubRequest{Name: fmt.Sprintf("s-%d", i), DeviceClassName: "x"})
			}
		}), want: []string{"TooMany " + req1 + ".firstAvailable"}},
		{name: "duplicate sub-request", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			d.Requests[1].FirstAvailable = append(d.Requests[1].FirstAvailable, d.Requests[1].FirstAvailable[1])
		}), want: []string{"Duplicate " + req1 + ".firstAvailable[2]"}},
		{name: "sub-request name", obj: claimWith(func(d *resourcev1.DeviceClaim) { d.Requests[1].FirstAvailable[1].Name = "Slow" }),
			want: []string{"Invalid " + req1 + ".firstAvailable[1].name", "Invalid spec.devices.config[0].requests[1]"}},
		{name: "exact class required", obj: claimWith(func(d *resourcev1.DeviceClaim) { exact(d).DeviceClassName = "" }),
			want: []string{"Required " + ex0 + ".deviceClassName"}},
		{name: "exact class name", obj: claimWith(func(d *resourcev1.DeviceClaim) { exact(d).DeviceClassName = "Gpu" }),
			want: []string{"Invalid " + ex0 + ".deviceClassName"}},
		{name: "sub-request class required", obj: claimWith(func(d *resourcev1.DeviceClaim) { fast(d).DeviceClassName = "" }),
			want: []string{"Required " + fa10 + ".deviceClassName"}},
		{name: "sub-request class name", obj: claimWith(func(d *resourcev1.DeviceClaim) { fast(d).DeviceClassName = "nic_class" }),
			want: []string{"Invalid " + fa10 + ".deviceClassName"}},
		{name: "allocation mode", obj: claimWith(func(d *resourcev1.DeviceClaim) { exact(d).AllocationMode = "Some" }),
			want: []string{"NotSupported " + ex0 + ".allocationMode"}, details: []string{"NotSupported " + ex0 + `.allocationMode: supported values: "All", "ExactCount"`}},
		{name: "count with All", obj: claimWith(func(d *resourcev1.DeviceClaim) { fast(d).Count = 2 }),
			want: []string{"Invalid " + fa10 + ".count"}, details: []string{"Invalid " + fa10 + ".count: must not be specified when allocationMode is 'All'"}},
		{name: "negative count", obj: claimWith(func(d *resourcev1.DeviceClaim) { exact(d).Count = -1 }),
			want: []string{"Invalid " + ex0 + ".count"}, details: []string{"Invalid " + ex0 + ".count: must be greater than zero"}},
		{name: "count defaults to one", obj: claimWith(func(d *resourcev1.DeviceClaim) { exact(d).Count, exact(d).AllocationMode = 0, "" })},
		// 1.37 checks neither the keys nor the quantities of capacity
		// requests.
		{name: "capacity requests are not checked", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			exact(d).Capacity.Requests = map[resourcev1.QualifiedName]apiresource.Quantity{"Bad Key/x/y": q("-1")}
		})},
	})
}

func TestV1ClaimSelectors(t *testing.T) {
	long := strings.Repeat("a", V1CELSelectorExpressionMaxLength+1)
	sel := func(expr string) *resourcev1.ResourceClaim {
		return claimWith(func(d *resourcev1.DeviceClaim) { exact(d).Selectors[0].CEL.Expression = expr })
	}
	const e = ex0 + ".selectors[0].cel.expression"
	runV1Cases(t, []v1Case{
		{name: "too many", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			fast(d).Selectors = make([]resourcev1.DeviceSelector, V1DeviceSelectorsMaxSize+1) // entries not checked
		}), want: []string{"TooMany " + fa10 + ".selectors"}},
		{name: "no cel", obj: claimWith(func(d *resourcev1.DeviceClaim) { exact(d).Selectors[0].CEL = nil }),
			want: []string{"Required " + ex0 + ".selectors[0].cel"}},
		{name: "does not compile", obj: sel("device.syntax error"), want: []string{"Invalid " + e}, details: []string{"Invalid " + e + ": Syntax error"}},
		{name: "empty", obj: sel(""), want: []string{"Invalid " + e}},
		{name: "required (compiler's verdict)", obj: sel("required"), want: []string{"Required " + e}},
		{name: "internal", obj: sel("internal"), want: []string{"Internal " + e}},
		{name: "too long", obj: sel(long), want: []string{"TooLong " + e}, details: []string{"TooLong " + e + ": may not be more than 10240 bytes"}},
		{name: "too expensive", obj: sel("cost=1000001 device.x"), want: []string{"Forbidden " + e}, details: []string{"Forbidden " + e + ": too complex, exceeds cost limit"}},
		{name: "at the cost limit", obj: sel("cost=1000000 device.x")},
	})
	t.Run("too long is not compiled", func(t *testing.T) {
		env, cel := testEnvV1(nil)
		validateV1(env, opCreate, sel(long), nil, Options{})
		for _, c := range cel.calls {
			if c.expression == long {
				t.Error("an expression over the length limit was compiled")
			}
		}
	})
}

func TestV1ClaimTolerations(t *testing.T) {
	tol := func(f func(*resourcev1.DeviceToleration)) *resourcev1.ResourceClaim {
		return claimWith(func(d *resourcev1.DeviceClaim) { f(&exact(d).Tolerations[0]) })
	}
	const t0 = ex0 + ".tolerations[0]"
	runV1Cases(t, []v1Case{
		{name: "key", obj: tol(func(x *resourcev1.DeviceToleration) { x.Key = "bad key" }), want: []string{"Invalid " + t0 + ".key"}},
		{name: "operator", obj: tol(func(x *resourcev1.DeviceToleration) { x.Operator = "Matches" }), want: []string{"NotSupported " + t0 + ".operator"},
			details: []string{"NotSupported " + t0 + `.operator: supported values: "Equal", "Exists"`}},
		{name: "operator defaults to Equal", obj: tol(func(x *resourcev1.DeviceToleration) { x.Operator = "" })},
		{name: "value with Exists", obj: tol(func(x *resourcev1.DeviceToleration) { x.Operator = resourcev1.DeviceTolerationOpExists }),
			want: []string{"Invalid " + t0 + ".value"}, details: []string{"Invalid " + t0 + ".value: must be empty for operator `Exists`"}},
		{name: "value with Equal", obj: tol(func(x *resourcev1.DeviceToleration) { x.Value = "a b" }), want: []string{"Invalid " + t0 + ".value"}},
		{name: "effect", obj: tol(func(x *resourcev1.DeviceToleration) { x.Effect = "NoRun" }), want: []string{"NotSupported " + t0 + ".effect"},
			details: []string{"NotSupported " + t0 + `.effect: supported values: "NoExecute", "NoSchedule", "None"`}},
		{name: "sub-request", obj: claimWith(func(d *resourcev1.DeviceClaim) { fast(d).Tolerations[0].Effect = "Later" }),
			want: []string{"NotSupported " + fa10 + ".tolerations[0].effect"}},
		{name: "no size limit", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			for len(exact(d).Tolerations) <= 2*resourcev1.DeviceTolerationsMaxLength {
				exact(d).Tolerations = append(exact(d).Tolerations, tolerations1()...)
			}
		})},
	})
}

func TestV1ClaimDerivedAttributes(t *testing.T) {
	da := func(f func(a *resourcev1.DeviceDerivedAttribute)) *resourcev1.ResourceClaim {
		return claimWith(func(d *resourcev1.DeviceClaim) { f(&exact(d).DerivedAttributes[0]) })
	}
	const a0 = ex0 + ".derivedAttributes[0]"
	tooMany := claimWith(func(d *resourcev1.DeviceClaim) {
		for len(exact(d).DerivedAttributes) <= V1DeviceDerivedAttributesMaxSize {
			exact(d).DerivedAttributes = append(exact(d).DerivedAttributes, exact(d).DerivedAttributes[0])
		}
	})
	// Declarative: TooMany (and no entry checked); handwritten: every
	// repeated name.
	tooManyWant := append([]string{"TooMany " + ex0 + ".derivedAttributes"},
		nStrings(V1DeviceDerivedAttributesMaxSize, func(i int) string { return fmt.Sprintf("Duplicate %s.derivedAttributes[%d]", ex0, i+1) })...)
	runV1Cases(t, []v1Case{
		{name: "not used by a constraint", obj: da(func(a *resourcev1.DeviceDerivedAttribute) { a.Name = "dra.example.com/other" }),
			want: []string{"Invalid " + a0 + ".name"}, details: []string{"Invalid " + a0 + ".name: must be referenced by at least one matchAttribute or distinctAttribute constraint"}},
		{name: "used by a constraint for the parent request", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			d.Constraints[1].DistinctAttribute = fqn("dra.example.com/speed")
			fast(d).DerivedAttributes[0].Name = "dra.example.com/speed"
		})},
		{name: "used by a constraint for all requests", obj: da(func(a *resourcev1.DeviceDerivedAttribute) { a.Name = "dra.example.com/model" })},
		{name: "not used by a constraint for a sibling", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			d.Requests[1].FirstAvailable[1].DerivedAttributes = fast(d).DerivedAttributes
			d.Constraints[1].Requests = []string{"nic/fast"}
		}), want: []string{"Invalid " + req1 + ".firstAvailable[1].derivedAttributes[0].name"}},
		{name: "name required", obj: da(func(a *resourcev1.DeviceDerivedAttribute) { a.Name = "" }), want: []string{"Required " + a0 + ".name"}},
		{name: "name format", obj: da(func(a *resourcev1.DeviceDerivedAttribute) { a.Name = "numa" }),
			want: []string{"Invalid " + a0 + ".name"}, details: []string{"Invalid " + a0 + ".name: a fully qualified name must be a domain and a name separated by a slash"}},
		{name: "expression required", obj: da(func(a *resourcev1.DeviceDerivedAttribute) { a.Expression = "" }), want: []string{"Required " + a0 + ".expression"}},
		{name: "expression compiles", obj: da(func(a *resourcev1.DeviceDerivedAttribute) { a.Expression = "syntax error" }), want: []string{"Invalid " + a0 + ".expression"}},
		{name: "expression too long", obj: da(func(a *resourcev1.DeviceDerivedAttribute) {
			a.Expression = strings.Repeat("x", V1CELSelectorExpressionMaxLength+1)
		}), want: []string{"TooLong " + a0 + ".expression"}, details: []string{"TooLong " + a0 + ".expression: may not be more than 10240 bytes"}},
		{name: "expression at the length limit", obj: da(func(a *resourcev1.DeviceDerivedAttribute) {
			a.Expression = strings.Repeat("x", V1CELSelectorExpressionMaxLength)
		})},
		{name: "duplicate", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			exact(d).DerivedAttributes = append(exact(d).DerivedAttributes, exact(d).DerivedAttributes[0])
		}), want: []string{"Duplicate " + ex0 + ".derivedAttributes[1]"}},
		{name: "too many", obj: tooMany, want: tooManyWant},
		{name: "too expensive", obj: da(func(a *resourcev1.DeviceDerivedAttribute) { a.Expression = "cost=1000001 x" }),
			want: []string{"Forbidden " + a0 + ".expression", "Forbidden spec.devices"}},
		{name: "claim total too expensive", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			exact(d).DerivedAttributes[0].Expression = "cost=600000 x"
			fast(d).DerivedAttributes[0].Expression = "cost=400001 y"
		}), want: []string{"Forbidden spec.devices"}, details: []string{"Forbidden spec.devices: total cost of derived attribute CEL expressions in the claim exceeds cost limit"}},
		{name: "claim total at the limit", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			exact(d).DerivedAttributes[0].Expression = "cost=600000 x"
			fast(d).DerivedAttributes[0].Expression = "cost=399999 y"
		})},
	})
}

func TestV1ClaimConstraints(t *testing.T) {
	con := func(f func(c *resourcev1.DeviceConstraint)) *resourcev1.ResourceClaim {
		return claimWith(func(d *resourcev1.DeviceClaim) { f(&d.Constraints[2]) })
	}
	runV1Cases(t, []v1Case{
		{name: "too many", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			for len(d.Constraints) <= V1DeviceConstraintsMaxSize {
				d.Constraints = append(d.Constraints, resourcev1.DeviceConstraint{})
			}
		}), want: []string{"TooMany spec.devices.constraints"}},
		{name: "neither attribute", obj: con(func(c *resourcev1.DeviceConstraint) { c.MatchAttribute = nil }),
			want: []string{"Required " + con2}},
		{name: "neither attribute, DRAConsumableCapacity off", obj: con(func(c *resourcev1.DeviceConstraint) { c.MatchAttribute = nil }),
			gates: gatesV1{features.DRAConsumableCapacity: false}, want: []string{"Required " + con2 + ".matchAttribute"}},
		{name: "no domain", obj: con(func(c *resourcev1.DeviceConstraint) { c.MatchAttribute = fqn("model") }),
			want: []string{"Invalid " + con2 + ".matchAttribute"}, details: []string{"Invalid " + con2 + ".matchAttribute: a fully qualified name must be a domain and a name separated by a slash"}},
		{name: "upper-case domain (declarative)", obj: con(func(c *resourcev1.DeviceConstraint) { c.MatchAttribute = fqn("Dra.example.com/model") }),
			want: []string{"Invalid " + con2 + ".matchAttribute"}, details: []string{"Invalid " + con2 + ".matchAttribute: prefix: a lowercase RFC 1123 subdomain"}},
		// 1.35+: the empty string is no longer Required but fails both
		// the identifier and the slash rule.
		{name: "empty name", obj: con(func(c *resourcev1.DeviceConstraint) { c.MatchAttribute = fqn("") }),
			want: []string{"Invalid " + con2 + ".matchAttribute"}, details: []string{
				"Invalid " + con2 + ".matchAttribute: a valid C identifier must start with alphabetic character",
				"Invalid " + con2 + ".matchAttribute: a fully qualified name must be a domain and a name separated by a slash"}},
		{name: "empty domain", obj: con(func(c *resourcev1.DeviceConstraint) { c.MatchAttribute = fqn("/model") }),
			want: []string{"Invalid " + con2 + ".matchAttribute"}, details: []string{"Invalid " + con2 + ".matchAttribute: prefix must not be empty"}},
		{name: "identifier", obj: con(func(c *resourcev1.DeviceConstraint) {
			c.DistinctAttribute, c.MatchAttribute = fqn("dra.example.com/mo-del"), nil
		}),
			want: []string{"Invalid " + con2 + ".distinctAttribute"}},
		{name: "identifier too long", obj: con(func(c *resourcev1.DeviceConstraint) {
			c.MatchAttribute = fqn("dra.example.com/" + strings.Repeat("a", V1IdentifierMaxLength+1))
		}), want: []string{"TooLong " + con2 + ".matchAttribute"}},
		{name: "distinctAttribute next to matchAttribute (declarative)", obj: con(func(c *resourcev1.DeviceConstraint) { c.DistinctAttribute = fqn("rack") }),
			want: []string{"Invalid " + con2 + ".distinctAttribute"}},
		{name: "two slashes pass", obj: con(func(c *resourcev1.DeviceConstraint) { c.MatchAttribute = fqn("dra.example.com/a/b") })},
		{name: "two slashes, Strict", obj: con(func(c *resourcev1.DeviceConstraint) { c.MatchAttribute = fqn("dra.example.com/a/b") }), strict: true,
			want: []string{"Invalid " + con2 + ".matchAttribute"}},
		{name: "unknown request", obj: con(func(c *resourcev1.DeviceConstraint) { c.Requests = []string{"tpu"} }),
			want: []string{"Invalid " + con2 + ".requests[0]"}},
		{name: "unknown sub-request", obj: con(func(c *resourcev1.DeviceConstraint) { c.Requests = []string{"gpu/a", "nic/medium"} }),
			want: []string{"Invalid " + con2 + ".requests[0]", "Invalid " + con2 + ".requests[1]"}},
		{name: "two slashes in a reference", obj: con(func(c *resourcev1.DeviceConstraint) { c.Requests = []string{"nic/fast/x"} }),
			want: []string{"Invalid " + con2 + ".requests[0]"}},
		{name: "duplicate reference", obj: con(func(c *resourcev1.DeviceConstraint) { c.Requests = []string{"gpu", "gpu"} }),
			want: []string{"Duplicate " + con2 + ".requests[1]"}},
		{name: "too many references", obj: con(func(c *resourcev1.DeviceConstraint) {
			c.Requests = nStrings(V1DeviceRequestsMaxSize+1, func(int) string { return "gpu" })
		}), want: []string{"TooMany " + con2 + ".requests"}},
	})
}

func TestV1ClaimConfig(t *testing.T) {
	cfg := func(f func(c *resourcev1.DeviceClaimConfiguration)) *resourcev1.ResourceClaim {
		return claimWith(func(d *resourcev1.DeviceClaim) { f(&d.Config[0]) })
	}
	params := func(s string) *resourcev1.ResourceClaim {
		return cfg(func(c *resourcev1.DeviceClaimConfiguration) {
			c.Opaque.Parameters = runtime.RawExtension{Raw: []byte(s)}
		})
	}
	driver := func(s string) *resourcev1.ResourceClaim {
		return cfg(func(c *resourcev1.DeviceClaimConfiguration) { c.Opaque.Driver = s })
	}
	const d, p = cfg0 + ".opaque.driver", cfg0 + ".opaque.parameters"
	runV1Cases(t, []v1Case{
		{name: "too many", obj: claimWith(func(d *resourcev1.DeviceClaim) {
			for len(d.Config) <= V1DeviceConfigMaxSize {
				d.Config = append(d.Config, resourcev1.DeviceClaimConfiguration{})
			}
		}), want: []string{"TooMany spec.devices.config"}},
		{name: "opaque required", obj: cfg(func(c *resourcev1.DeviceClaimConfiguration) { c.Opaque = nil }), want: []string{"Required " + cfg0 + ".opaque"}},
		{name: "unknown request", obj: cfg(func(c *resourcev1.DeviceClaimConfiguration) { c.Requests = []string{"nic/medium"} }),
			want: []string{"Invalid " + cfg0 + ".requests[0]"}},
		{name: "driver required", obj: driver(""), want: []string{"Required " + d}},
		{name: "driver (declarative wording)", obj: driver("dra_example.com"), want: []string{"Invalid " + d},
			details: []string{"Invalid " + d + ": (e.g. 'Example.com'"}, absent: []string{"Invalid " + d + ": (e.g. 'example.com'"}},
		{name: "driver too long (in characters)", obj: driver(strings.Repeat("a", DriverNameMaxLength+1)), want: []string{"TooLong " + d},
			details: []string{"TooLong " + d + ": may not be more than 63 characters"}, absent: []string{"TooLong " + d + ": bytes"}},
		{name: "upper-case driver passes", obj: driver("DRA.example.com")},
		{name: "upper-case driver, Strict", obj: driver("DRA.example.com"), strict: true, want: []string{"Invalid " + d}},
		{name: "parameters required", obj: params(""), want: []string{"Required " + p}},
		{name: "parameters null", obj: params("null"), want: []string{"Required " + p}},
		{name: "parameters not an object", obj: params("[1]"), want: []string{"Invalid " + p}, details: []string{"Invalid " + p + ": must be a valid JSON object"}},
		{name: "parameters not JSON", obj: params("{"), want: []string{"Invalid " + p}, details: []string{"Invalid " + p + ": error parsing data as JSON"}},
		{name: "parameters too long", obj: params(`{"a":"` + strings.Repeat("x", V1OpaqueParametersMaxLength) + `"}`), want: []string{"TooLong " + p}},
	})
}

func TestV1ClaimMetaAndAdmin(t *testing.T) {
	inNamespace := func(ns string) *resourcev1.ResourceClaim {
		return v1Claim(func(c *resourcev1.ResourceClaim) { c.Namespace = ns })
	}
	runV1Cases(t, []v1Case{
		{name: "name", obj: v1Claim(func(c *resourcev1.ResourceClaim) { c.Name = "Claim" }), want: []string{"Invalid metadata.name"}},
		{name: "admin access needs the label", obj: inNamespace("team-a"), want: []string{"Forbidden " + req0 + ".adminAccess"},
			details: []string{"Forbidden " + req0 + ".adminAccess: requires the `resource.kubernetes.io/admin-access: true` label"}},
		{name: "namespace lookup fails", obj: inNamespace("broken"), want: []string{"Internal " + req0 + ".adminAccess"}},
		{name: "no admin access, no label needed", obj: v1Claim(func(c *resourcev1.ResourceClaim) {
			c.Namespace = "team-a"
			c.Spec.Devices.Requests[0].Exactly.AdminAccess = ptr(false)
		})},
		{name: "update of the spec", op: opUpdate, old: v1Claim(),
			obj:  claimWith(func(d *resourcev1.DeviceClaim) { exact(d).Count = 3 }),
			want: []string{"Invalid spec"}, details: []string{"Invalid spec: field is immutable"}},
		{name: "update does not validate the spec again", op: opUpdate,
			old: claimWith(func(d *resourcev1.DeviceClaim) { exact(d).DeviceClassName = "Old_Class" }),
			obj: claimWith(func(d *resourcev1.DeviceClaim) { exact(d).DeviceClassName = "Old_Class" })},
		{name: "update of the name", op: opUpdate, old: v1Claim(), obj: v1Claim(func(c *resourcev1.ResourceClaim) { c.Name = "other" }),
			want: []string{"Invalid metadata.name"}},
	})
	t.Run("no namespace lookup", func(t *testing.T) {
		env, _ := testEnvV1(nil)
		env.namespaceLabels = nil
		expectErrors(t, validateV1(env, opCreate, inNamespace("team-a"), nil, Options{}))
	})
}

func TestV1Template(t *testing.T) {
	tmpl := func(f func(t *resourcev1.ResourceClaimTemplate)) *resourcev1.ResourceClaimTemplate {
		return v1Template(f)
	}
	upperDomain := func(t *resourcev1.ResourceClaimTemplate) {
		t.Spec.Spec.Devices.Constraints[2].MatchAttribute = fqn("Dra.example.com/model")
	}
	// A derived attribute with an upper-case domain, used by a constraint:
	// only the declarative validation rejects it.
	upperDerived := func(t *resourcev1.ResourceClaimTemplate) {
		upperDomain(t)
		t.Spec.Spec.Devices.Requests[0].Exactly.DerivedAttributes[0].Name = "Dra.example.com/model"
	}
	runV1Cases(t, []v1Case{
		{name: "paths under spec.spec", obj: tmpl(func(t *resourcev1.ResourceClaimTemplate) {
			t.Spec.Spec.Devices.Requests[0].Exactly.DeviceClassName = ""
		}),
			want: []string{"Required spec.spec.devices.requests[0].exactly.deviceClassName"}},
		{name: "template metadata", obj: tmpl(func(t *resourcev1.ResourceClaimTemplate) {
			t.Spec.ObjectMeta.Name = "x"
			t.Spec.ObjectMeta.Finalizers = []string{"example.com/f"}
			t.Spec.ObjectMeta.Labels = map[string]string{"bad key": "x"}
		}), want: []string{"Forbidden spec.metadata.name", "Forbidden spec.metadata.finalizers", "Invalid spec.metadata.labels"}},
		{name: "admin access: the claim's path", obj: tmpl(func(t *resourcev1.ResourceClaimTemplate) { t.Namespace = "team-a" }),
			want: []string{"Forbidden " + req0 + ".adminAccess"}},
		{name: "update of the spec", op: opUpdate, old: v1Template(),
			obj:  tmpl(func(t *resourcev1.ResourceClaimTemplate) { t.Spec.Spec.Devices.Requests[0].Exactly.Count = 5 }),
			want: []string{"Invalid spec"}},
		{name: "update validates the spec again", op: opUpdate,
			old: tmpl(func(t *resourcev1.ResourceClaimTemplate) {
				t.Spec.Spec.Devices.Requests[0].Exactly.Selectors[0].CEL.Expression = "syntax error"
			}),
			obj: tmpl(func(t *resourcev1.ResourceClaimTemplate) {
				t.Spec.Spec.Devices.Requests[0].Exactly.Selectors[0].CEL.Expression = "syntax error"
			}),
			want: []string{"Invalid spec.spec.devices.requests[0].exactly.selectors[0].cel.expression"}},
		{name: "unchanged spec: no declarative errors", op: opUpdate, old: tmpl(upperDomain), obj: tmpl(upperDomain)},
		// The declarative validation ratchets field by field: unchanged
		// constraints are skipped, changed ones validated.
		{name: "changed requests: no declarative errors in constraints", op: opUpdate, old: tmpl(upperDomain),
			obj: tmpl(func(t *resourcev1.ResourceClaimTemplate) {
				upperDomain(t)
				t.Spec.Spec.Devices.Requests[0].Exactly.Count = 5
			}), want: []string{"Invalid spec"}},
		{name: "changed constraints: declarative errors", op: opUpdate, old: tmpl(upperDomain),
			obj: tmpl(func(t *resourcev1.ResourceClaimTemplate) {
				upperDomain(t)
				t.Spec.Spec.Devices.Constraints = append(t.Spec.Spec.Devices.Constraints, t.Spec.Spec.Devices.Constraints[0])
			}), want: []string{"Invalid spec", "Invalid spec.spec.devices.constraints[2].matchAttribute"}},
		{name: "changed request: declarative errors in it", op: opUpdate, old: tmpl(upperDerived),
			obj: tmpl(func(t *resourcev1.ResourceClaimTemplate) {
				upperDerived(t)
				exact := t.Spec.Spec.Devices.Requests[0].Exactly
				exact.DerivedAttributes = append(exact.DerivedAttributes, resourcev1.DeviceDerivedAttribute{Name: "dra.example.com/numa", Expression: "x"})
			}), want: []string{"Invalid spec", "Invalid spec.spec.devices.requests[0].exactly.derivedAttributes[0].name"}},
		{name: "unchanged request: no declarative errors in it", op: opUpdate, old: tmpl(upperDerived),
			obj: tmpl(func(t *resourcev1.ResourceClaimTemplate) {
				upperDerived(t)
				t.Spec.Spec.Devices.Requests[1].FirstAvailable[1].Count = 2
			}), want: []string{"Invalid spec"}},
		{name: "update needs no admin label", op: opUpdate,
			old: tmpl(func(t *resourcev1.ResourceClaimTemplate) { t.Namespace = "team-a" }),
			obj: tmpl(func(t *resourcev1.ResourceClaimTemplate) {
				t.Namespace = "team-a"
				t.Labels = map[string]string{"a": "b"}
			})},
	})
}

// TestV1RealCEL runs the claim rules with the 1.37 compiler of package
// apis/resource/cel.
func TestV1RealCEL(t *testing.T) {
	const sel, da = ex0 + ".selectors[0].cel.expression", ex0 + ".derivedAttributes[0].expression"
	expensive := `device.attributes.all(d, device.attributes[d].all(a, device.attributes.all(d2, device.attributes[d2].all(b, true))))`
	cases := []struct {
		name string
		obj  *resourcev1.ResourceClaim
		want []string
	}{
		{"valid", v1Claim(), nil},
		{"undeclared", claimWith(func(d *resourcev1.DeviceClaim) { exact(d).Selectors[0].CEL.Expression = "foo == 1" }), []string{"Invalid " + sel}},
		{"empty", claimWith(func(d *resourcev1.DeviceClaim) { exact(d).Selectors[0].CEL.Expression = "" }), []string{"Invalid " + sel}},
		{"not bool", claimWith(func(d *resourcev1.DeviceClaim) { exact(d).Selectors[0].CEL.Expression = `device.driver` }), []string{"Invalid " + sel}},
		{"too expensive", claimWith(func(d *resourcev1.DeviceClaim) { exact(d).Selectors[0].CEL.Expression = expensive }), []string{"Forbidden " + sel}},
		{"derived quantity", claimWith(func(d *resourcev1.DeviceClaim) {
			exact(d).DerivedAttributes[0].Expression = `device.capacity["dra.example.com"].memory`
		}), []string{"Invalid " + da}},
		{"derived too expensive", claimWith(func(d *resourcev1.DeviceClaim) {
			exact(d).DerivedAttributes[0].Expression = "string(" + expensive + ")"
		}), []string{"Forbidden " + da, "Forbidden spec.devices"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := envV1{compileCEL: compileWithCEL}
			expectErrors(t, validateV1(env, opCreate, tc.obj, nil, Options{}), tc.want...)
		})
	}
}
