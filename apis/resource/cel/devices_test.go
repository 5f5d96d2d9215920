package cel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	hub "github.com/drakit/drakit/apis/resource"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/apis/resource/features"
)

// gateCombos are the four combinations of the two gates that shape the
// environment.
var gateCombos = []struct {
	name       string
	gates      features.Gates
	consumable bool
	lists      bool
}{
	{"plain", features.Defaults().With(features.DRAConsumableCapacity, false), false, false},
	{"consumable", features.Defaults(), true, false},
	{"lists", features.Defaults().With(features.DRAConsumableCapacity, false).With(features.DRAListTypeAttributes, true), false, true},
	{"both", features.Defaults().With(features.DRAListTypeAttributes, true), true, true},
}

func TestDeviceVariantFor(t *testing.T) {
	want := []int{variantPlain, variantMultipleAllocations, variantListAttributes, variantBoth}
	for i, c := range gateCombos {
		if got := deviceVariantFor(c.gates); got != want[i] {
			t.Errorf("%s: variant %d, want %d", c.name, got, want[i])
		}
	}
	// The 1.37 defaults have consumable capacity but no list attributes.
	if got := deviceVariantFor(features.Defaults()); got != variantMultipleAllocations {
		t.Errorf("defaults: variant %d", got)
	}
}

// TestCompile checks what compiles in which environment: for each
// expression, whether it compiles as a new expression under each gate
// combination (stored expressions ignore the gates and get everything).
func TestCompile(t *testing.T) {
	type need int
	const (
		always need = iota
		consumable
		lists
		never
	)
	tests := []struct {
		expr   string
		new    need
		stored bool
		err    string // substring of the error when it does not compile
	}{
		{expr: `true`, new: always, stored: true},
		{expr: `device.driver == "dra.example.com"`, new: always, stored: true},
		{expr: `device.attributes["dra.example.com"].model`, new: always, stored: true},
		{expr: `device.capacity["dra.example.com"].memory.isGreaterThan(quantity("1Gi"))`, new: always, stored: true},
		{expr: `cel.bind(dra, device.attributes["dra.example.com"], dra.a && dra.b)`, new: always, stored: true},
		// Base environment as of 1.36: semver with normalisation (1.33),
		// cel-go's list extension (1.34), two-variable comprehensions (1.32).
		{expr: `semver("v1.2", true).major() == 1`, new: always, stored: true},
		{expr: `[3, 1, 2].sort() == [1, 2, 3]`, new: always, stored: true},
		{expr: `{"a": 1}.all(k, v, v > 0)`, new: always, stored: true},
		{expr: `isQuantity("1Gi") && ip("10.0.0.1").family() == 4`, new: always, stored: true},
		// The 1.34 field.
		{expr: `device.allowMultipleAllocations`, new: consumable, stored: true, err: "undefined field 'allowMultipleAllocations'"},
		{expr: `!device.allowMultipleAllocations || device.driver == "x"`, new: consumable, stored: true, err: "undefined field 'allowMultipleAllocations'"},
		// 1.36 list attributes: dyn values can be iterated, includes().
		{expr: `device.attributes["dra.example.com"].ids.exists(i, i == 1)`, new: lists, stored: true, err: "compilation failed"},
		{expr: `device.attributes["dra.example.com"].ids.includes(1)`, new: lists, stored: true, err: "compilation failed"},
		{expr: `[1, 2].includes(1)`, new: lists, stored: true, err: "includes"},
		// Never.
		{expr: `device.foo`, new: never, err: "undefined field 'foo'"},
		{expr: `other.x`, new: never, err: "undeclared reference to 'other'"},
		{expr: `?!`, new: never, err: "Syntax error"},
		{expr: ``, new: never, err: "compilation failed"},
		{expr: `1`, new: never, err: "must evaluate to bool or the unknown type, not int"},
		{expr: `device.driver`, new: never, err: "must evaluate to bool or the unknown type, not string"},
		{expr: `device.capacity["a"]["b"]`, new: never, err: "must evaluate to bool or the unknown type, not kubernetes.Quantity"},
		{expr: `device.allowMultipleAllocations.size()`, new: never, err: ""},
	}
	for _, tc := range tests {
		for _, c := range gateCombos {
			for _, stored := range []bool{false, true} {
				want := tc.stored
				if !stored {
					switch tc.new {
					case always:
						want = true
					case consumable:
						want = c.consumable
					case lists:
						want = c.lists
					case never:
						want = false
					}
				}
				name := fmt.Sprintf("%s/%s/stored=%t", tc.expr, c.name, stored)
				p, err := Compile(tc.expr, Options{Gates: c.gates, Stored: stored})
				if want {
					if err != nil {
						t.Errorf("%s: %v", name, err)
					} else if p.Expression() != tc.expr {
						t.Errorf("%s: Expression() = %q", name, p.Expression())
					}
					continue
				}
				if err == nil {
					t.Errorf("%s: compiled", name)
					continue
				}
				var e *Error
				if !errors.As(err, &e) || e.Type != field.ErrorTypeInvalid || e.Expression != tc.expr {
					t.Errorf("%s: error %#v, want an Invalid *Error", name, err)
				}
				if !strings.Contains(err.Error(), tc.err) {
					t.Errorf("%s: error %q does not contain %q", name, err, tc.err)
				}
			}
		}
	}
}

func TestCompileErrorMessages(t *testing.T) {
	_, err := Compile(`device.allowMultipleAllocations`, Options{Gates: gateCombos[0].gates})
	want := "compilation failed: ERROR: <input>:1:7: undefined field 'allowMultipleAllocations'"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want it to start with %q", err, want)
	}
	fe := err.(*Error).FieldError(field.NewPath("spec", "selectors").Index(0).Child("cel", "expression"))
	if fe.Type != field.ErrorTypeInvalid || fe.Field != "spec.selectors[0].cel.expression" || fe.BadValue != `device.allowMultipleAllocations` || fe.Detail != err.Error() {
		t.Errorf("field error %#v", fe)
	}
}

func TestLength(t *testing.T) {
	path := field.NewPath("spec", "devices", "requests").Index(0).Child("exactly", "selectors").Index(0).Child("cel", "expression")
	// 10,240 bytes compile.
	ok := "true" + strings.Repeat(" ", SelectorMaxLength-4)
	if _, err := Compile(ok, Options{}); err != nil {
		t.Fatalf("%d bytes: %v", len(ok), err)
	}
	// 10,241 bytes are refused before compiling: an expression that would
	// not compile either reports only the length.
	for _, expr := range []string{ok + " ", strings.Repeat("?", SelectorMaxLength+1)} {
		_, err := Compile(expr, Options{})
		var e *Error
		if !errors.As(err, &e) || e.Type != field.ErrorTypeTooLong {
			t.Fatalf("%d bytes: error %v", len(expr), err)
		}
		if e.Detail != "may not be more than 10240 bytes" {
			t.Errorf("detail %q", e.Detail)
		}
		fe := e.FieldError(path)
		if got, want := fe.Error(), "spec.devices.requests[0].exactly.selectors[0].cel.expression: Too long: may not be more than 10240 bytes"; got != want {
			t.Errorf("field error %q, want %q", got, want)
		}
		// Derived attributes have the same limit.
		if _, err := Compile(expr, Options{DerivedAttribute: true}); !errors.As(err, &e) || e.Type != field.ErrorTypeTooLong {
			t.Errorf("derived: error %v", err)
		}
	}
	// Stored expressions are not length-checked.
	if _, err := Compile(ok+" ", Options{Stored: true}); err != nil {
		t.Errorf("stored: %v", err)
	}
}

// expensive is estimated at 85,555,551 (from the API server's tests of
// the cost limit).
const expensive = `[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))`

func TestCostLimitFollowed(t *testing.T) {
	for _, derived := range []bool{false, true} {
		_, err := Compile(expensive, Options{DerivedAttribute: derived})
		var e *Error
		if !errors.As(err, &e) || e.Type != field.ErrorTypeForbidden || e.Detail != "too complex, exceeds cost limit" || e.MaxCost != 85555551 {
			t.Fatalf("derived=%t: error %#v", derived, err)
		}
		fe := e.FieldError(field.NewPath("spec", "selectors").Index(0).Child("cel", "expression"))
		if got, want := fe.Error(), "spec.selectors[0].cel.expression: Forbidden: too complex, exceeds cost limit"; got != want {
			t.Errorf("field error %q, want %q", got, want)
		}
	}

	// A stored expression compiles whatever its cost; evaluating it hits
	// the runtime limit.
	p, err := Compile(expensive, Options{Stored: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.MaxCost() != 85555551 {
		t.Errorf("MaxCost %d", p.MaxCost())
	}
	_, err = p.Matches(context.Background(), NewInput("dra.example.com", nil))
	if err == nil || !strings.Contains(err.Error(), "actual cost limit exceeded") {
		t.Errorf("evaluation error %v", err)
	}

	// A lower runtime limit.
	p, err = Compile(`device.attributes["dra.example.com"].exists_one(x, x == "a")`, Options{CostLimit: 3})
	if err != nil {
		t.Fatal(err)
	}
	in := NewInput("dra.example.com", &hub.Device{Attributes: map[hub.QualifiedName]hub.DeviceAttribute{
		"a": {BoolValue: ptr.To(true)}, "b": {BoolValue: ptr.To(true)}, "c": {BoolValue: ptr.To(true)},
	}})
	if _, err := p.Matches(context.Background(), in); err == nil || !strings.Contains(err.Error(), "actual cost limit exceeded") {
		t.Errorf("evaluation with limit 3: %v", err)
	}
}

// TestEstimatedCost pins the estimated costs of expressions whose cost
// the API server's own tests pin, under every gate combination and both
// environments.
func TestEstimatedCost(t *testing.T) {
	tests := []struct {
		expr  string
		cost  uint64
		needs string // "consumable", "lists" or "" (new expressions)
	}{
		{`device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0"))`, 6, ""},
		{`"no-such-domain" in device.attributes`, 3, ""},
		{`device.driver == ""`, 2, ""},
		{`device.driver == "dra.example.com"`, 4, ""},
		{`device.attributes["dra.example.com"].name`, 4, ""},
		{`cel.bind(dra, device.attributes["dra.example.com"], dra.name)`, 15, ""},
		{`device.attributes["dra.example.com"].name > 0`, 5, ""},
		{`device.attributes["dra.example.com"].name == "fish"`, 5, ""},
		{`"name" in device.capacity["dra.example.com"] && device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))`, 10, ""},
		{`!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))`, 11, ""},
		{`device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && device.attributes["dra.example.com"].c`, 12, ""},
		{`device.attributes.exists_one(x, x == "dra.example.com")`, 164, ""},
		{`device.attributes["dra.example.com"].exists_one(x, x == "services")`, 133, ""},
		{`device.attributes["dra.example.com"].services.split("example").size() >= 2`, 19, ""},
		{`device.attributes["dra.example.com"].services.matches("[^a]?sym")`, 18, ""},
		{`device.capacity.exists_one(x, x == "dra.example.com")`, 164, ""},
		{`device.capacity["dra.example.com"].exists_one(x, x == "memory")`, 133, ""},
		{`
device.capacity["dra.example.com"].quantity.isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"].bool &&
device.attributes["dra.example.com"].int > 0 &&
device.attributes["dra.example.com"].string == "fish" &&
device.attributes["dra.example.com"].version.isGreaterThan(semver("0.0.1")) &&
device.capacity["dra.example.com"]["quantity"].isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"]["bool"] &&
device.attributes["dra.example.com"]["int"] > 0 &&
device.attributes["dra.example.com"]["string"] == "fish" &&
device.attributes["dra.example.com"]["version"].isGreaterThan(semver("0.0.1"))
`, 52, ""},
		{expensive, 85555551, ""},
		{`device.allowMultipleAllocations == true`, 3, "consumable"},
		{`device.attributes["dra.example.com"].names.exists(x, x > 0)`, 5 + (3+3)*64, "lists"},
		{`device.attributes["dra.example.com"].names.includes("a")`, 4 + 64, "lists"},
	}
	for _, tc := range tests {
		for _, c := range gateCombos {
			for _, stored := range []bool{false, true} {
				if !stored && (tc.needs == "consumable" && !c.consumable || tc.needs == "lists" && !c.lists) {
					continue
				}
				p, err := Compile(tc.expr, Options{Gates: c.gates, Stored: true})
				if !stored {
					p, err = Compile(tc.expr, Options{Gates: c.gates})
				}
				if tc.cost > SelectorMaxCost && !stored {
					if err == nil {
						t.Errorf("%s/%s: compiled", tc.expr, c.name)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s/%s/stored=%t: %v", tc.expr, c.name, stored, err)
					continue
				}
				if p.MaxCost() != tc.cost {
					t.Errorf("%s/%s/stored=%t: cost %d, want %d", tc.expr, c.name, stored, p.MaxCost(), tc.cost)
				}
			}
		}
	}
}

func TestDerivedAttributeCompile(t *testing.T) {
	tests := []struct {
		expr   string
		ok     bool // as a new expression without list attributes
		lists  bool // as a new expression with list attributes, and stored
		output string
	}{
		{`device.attributes["dra.example.com"].model`, true, true, ""},
		{`1`, true, true, "int"},
		{`"a" + "b"`, true, true, "string"},
		{`device.driver == "x"`, true, true, "bool"},
		{`semver("1.0.0")`, true, true, "kubernetes.Semver"},
		{`[1, 2]`, false, true, "list(int)"},
		{`["a"]`, false, true, "list(string)"},
		{`[semver("1.0.0")]`, false, true, "list(kubernetes.Semver)"},
		{`device.attributes["dra.example.com"].ids.map(x, x * 2)`, false, true, ""},
		{`1.5`, false, false, ""},
		{`quantity("1")`, false, false, ""},
		{`{"a": 1}`, false, false, ""},
		{`[[1]]`, false, false, ""},
		{`[1.5]`, false, false, ""},
	}
	for _, tc := range tests {
		for _, c := range gateCombos {
			for _, stored := range []bool{false, true} {
				want := tc.ok
				if c.lists || stored {
					want = tc.lists
				}
				// An iteration over an attribute needs dyn values.
				if strings.Contains(tc.expr, ".map(") && !c.lists && !stored {
					want = false
				}
				name := fmt.Sprintf("%s/%s/stored=%t", tc.expr, c.name, stored)
				p, err := Compile(tc.expr, Options{Gates: c.gates, Stored: stored, DerivedAttribute: true})
				if !want {
					var e *Error
					if !errors.As(err, &e) || e.Type != field.ErrorTypeInvalid {
						t.Errorf("%s: error %v", name, err)
						continue
					}
					if strings.Contains(tc.expr, ".map(") {
						continue
					}
					detail := "must evaluate to a primitive scalar (string, integer, boolean, semver), not "
					if c.lists || stored {
						detail = "must evaluate to a primitive scalar (string, integer, boolean, semver) or a list of these scalars, not "
					}
					if !strings.HasPrefix(e.Detail, detail) {
						t.Errorf("%s: detail %q", name, e.Detail)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if !p.DerivedAttribute() {
					t.Errorf("%s: not marked as derived attribute", name)
				}
				if tc.output != "" && p.OutputType() != tc.output {
					t.Errorf("%s: output type %s, want %s", name, p.OutputType(), tc.output)
				}
			}
		}
	}
}

func followedDevice() *hub.Device {
	return &hub.Device{
		Attributes: map[hub.QualifiedName]hub.DeviceAttribute{
			"model":                    {StringValue: ptr.To("a100")},
			"cores":                    {IntValue: ptr.To(int64(64))},
			"healthy":                  {BoolValue: ptr.To(true)},
			"driverVersion":            {VersionValue: ptr.To("1.2.3")},
			"other.example.com/zone":   {StringValue: ptr.To("z1")},
			"ids":                      {IntValues: []int64{1, 2, 3}},
			"names":                    {StringValues: []string{"x", "y"}},
			"flags":                    {BoolValues: []bool{false}},
			"versions":                 {VersionValues: []string{"1.0.0", "2.0.0"}},
			"shadowed":                 {StringValue: ptr.To("unqualified")},
			"dra.example.com/shadowed": {StringValue: ptr.To("qualified")},
		},
		Capacity: map[hub.QualifiedName]hub.DeviceCapacity{
			"memory":                    {Value: resource.MustParse("40Gi")},
			"other.example.com/slices":  {Value: resource.MustParse("7")},
			"dra.example.com/bandwidth": {Value: resource.MustParse("100M")},
		},
	}
}

func TestMatches(t *testing.T) {
	tests := []struct {
		expr  string
		match bool
		err   string
		lists bool // needs DRAListTypeAttributes as a new expression
		// listAttr reads a list attribute, which the input holds only
		// with DRAListTypeAttributes.
		listAttr bool
	}{
		// Default domain: names without a domain belong to the driver.
		{expr: `device.attributes["dra.example.com"].model == "a100"`, match: true},
		{expr: `device.attributes["dra.example.com"]["cores"] > 32`, match: true},
		{expr: `device.attributes["dra.example.com"].healthy`, match: true},
		{expr: `device.attributes["dra.example.com"].driverVersion.isGreaterThan(semver("1.0.0"))`, match: true},
		{expr: `device.attributes["other.example.com"].zone == "z1"`, match: true},
		{expr: `device.attributes["dra.example.com"].shadowed == "qualified"`, match: true},
		{expr: `device.driver == "dra.example.com"`, match: true},
		{expr: `device.capacity["dra.example.com"].memory.compareTo(quantity("40Gi")) == 0`, match: true},
		{expr: `device.capacity["dra.example.com"].bandwidth.isGreaterThan(quantity("10M"))`, match: true},
		{expr: `device.capacity["other.example.com"].slices.asInteger() == 7`, match: true},
		{expr: `cel.bind(dra, device.attributes["dra.example.com"], dra.model == "a100" && dra.cores == 64)`, match: true},
		// Missing domains are empty maps; missing identifiers are errors.
		{expr: `"no.such.domain" in device.attributes`, match: false},
		{expr: `"dra.example.com" in device.attributes && "other.example.com" in device.capacity`, match: true},
		{expr: `device.attributes["no.such.domain"].size() == 0 && device.capacity["no.such.domain"].size() == 0`, match: true},
		{expr: `has(device.attributes["no.such.domain"].model)`, match: false},
		{expr: `device.attributes["no.such.domain"].model == "a100"`, err: "no such key: model"},
		{expr: `device.attributes["dra.example.com"].nope`, err: "no such key: nope"},
		{expr: `device.attributes["dra.example.com"].model`, err: "CEL result of type string could not be converted to bool"},
		// Lists.
		{expr: `device.attributes["dra.example.com"].ids.exists(i, i == 2)`, match: true, lists: true, listAttr: true},
		{expr: `device.attributes["dra.example.com"].names.includes("y")`, match: true, lists: true, listAttr: true},
		{expr: `device.attributes["dra.example.com"].model.includes("a100")`, match: true, lists: true},
		{expr: `device.attributes["dra.example.com"].flags.all(f, !f)`, match: true, lists: true, listAttr: true},
		{expr: `device.attributes["dra.example.com"].versions.exists(v, v.isGreaterThan(semver("1.5.0")))`, match: true, lists: true, listAttr: true},
		{expr: `device.attributes["dra.example.com"].ids.size() == 3`, match: true, listAttr: true},
		{expr: `device.attributes["dra.example.com"].names`, err: "CEL result of type list could not be converted to bool", listAttr: true},
		{expr: `device.attributes["dra.example.com"].cores.exists(x, x > 0)`, err: "expected iterable type", lists: true},
		// The guard against quantities that would never finish parsing.
		{expr: `quantity("1E2147483648").isInteger()`, err: "1E2147483648"},
	}
	in := NewInput("dra.example.com", followedDevice())
	ctx := context.Background()
	for _, tc := range tests {
		for _, c := range gateCombos {
			for _, stored := range []bool{false, true} {
				if (tc.lists && !c.lists && !stored) || (tc.listAttr && !c.lists) {
					continue
				}
				name := fmt.Sprintf("%s/%s/stored=%t", tc.expr, c.name, stored)
				p, err := Compile(tc.expr, Options{Gates: c.gates, Stored: stored})
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				got, err := p.Matches(ctx, in)
				if tc.err != "" {
					if err == nil || !strings.Contains(err.Error(), tc.err) {
						t.Errorf("%s: error %v, want %q", name, err, tc.err)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", name, err)
				} else if got != tc.match {
					t.Errorf("%s: %t", name, got)
				}
			}
		}
	}
}

// TestListAttributesNeedTheGate: without DRAListTypeAttributes the input
// leaves list attributes out (a scalar beside a list too), as upstream's
// compiler does, also for stored expressions, which can name them.
func TestListAttributesNeedTheGate(t *testing.T) {
	dev := followedDevice()
	dev.Attributes["both"] = hub.DeviceAttribute{IntValue: ptr.To(int64(1)), IntValues: []int64{1}}
	for _, c := range gateCombos {
		for _, expr := range []string{`device.attributes["dra.example.com"].ids.size() == 3`, `device.attributes["dra.example.com"].both == [1]`} {
			p, err := Compile(expr, Options{Gates: c.gates, Stored: true})
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Matches(context.Background(), NewInput("dra.example.com", dev))
			if c.lists && (err != nil || !got) {
				t.Errorf("%s/%s: %t, %v", expr, c.name, got, err)
			}
			if !c.lists && (err == nil || !strings.Contains(err.Error(), "no such key")) {
				t.Errorf("%s/%s: error %v, want no such key", expr, c.name, err)
			}
		}
	}
}

func TestAllowMultipleAllocations(t *testing.T) {
	p, err := Compile(`device.allowMultipleAllocations`, Options{Gates: features.Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []*bool{nil, ptr.To(false), ptr.To(true)} {
		got, err := p.Matches(context.Background(), NewInput("d", &hub.Device{AllowMultipleAllocations: v}))
		if err != nil || got != (v != nil && *v) {
			t.Errorf("%v: %t, %v", v, got, err)
		}
	}
}

func TestUnusableAttribute(t *testing.T) {
	p, err := Compile(`true`, Options{Gates: features.Defaults().With(features.DRAListTypeAttributes, true)})
	if err != nil {
		t.Fatal(err)
	}
	for _, attr := range []hub.DeviceAttribute{
		{VersionValue: ptr.To("1.0")},
		{VersionValues: []string{"1.0.0", "v2"}},
		{},
	} {
		in := NewInput("d", &hub.Device{Attributes: map[hub.QualifiedName]hub.DeviceAttribute{"bad": attr}})
		if _, err := p.Matches(context.Background(), in); err == nil || !strings.HasPrefix(err.Error(), "attribute bad: ") {
			t.Errorf("%+v: error %v", attr, err)
		}
	}
}

func TestInputFromHubDevice(t *testing.T) {
	d := &hub.Device{
		Name:                     "gpu-0",
		AllowMultipleAllocations: ptr.To(true),
		Attributes:               map[hub.QualifiedName]hub.DeviceAttribute{"model": {StringValue: ptr.To("x")}},
		Capacity:                 map[hub.QualifiedName]hub.DeviceCapacity{"mem": {Value: resource.MustParse("1Gi")}},
	}
	p, err := Compile(`device.allowMultipleAllocations && device.attributes["gpu.example.com"].model == "x" && device.capacity["gpu.example.com"].mem.isGreaterThan(quantity("1Mi")) && device.driver == "gpu.example.com"`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := p.Matches(context.Background(), NewInput("gpu.example.com", d)); !ok || err != nil {
		t.Errorf("%t, %v", ok, err)
	}
}

func TestDerive(t *testing.T) {
	lists := gateCombos[3].gates
	tests := []struct {
		expr string
		want hub.DeviceAttribute
		err  string
	}{
		{expr: `device.attributes["dra.example.com"].model`, want: hub.DeviceAttribute{StringValue: ptr.To("a100")}},
		{expr: `device.attributes["dra.example.com"].cores * 2`, want: hub.DeviceAttribute{IntValue: ptr.To(int64(128))}},
		{expr: `device.attributes["dra.example.com"].healthy`, want: hub.DeviceAttribute{BoolValue: ptr.To(true)}},
		{expr: `device.attributes["dra.example.com"].driverVersion`, want: hub.DeviceAttribute{VersionValue: ptr.To("1.2.3")}},
		{expr: `semver("v1.2", true)`, want: hub.DeviceAttribute{VersionValue: ptr.To("1.2.0")}},
		{expr: `device.attributes["dra.example.com"].ids.map(x, x * 10)`, want: hub.DeviceAttribute{IntValues: []int64{10, 20, 30}}},
		{expr: `device.attributes["dra.example.com"].names`, want: hub.DeviceAttribute{StringValues: []string{"x", "y"}}},
		{expr: `device.attributes["dra.example.com"].flags`, want: hub.DeviceAttribute{BoolValues: []bool{false}}},
		{expr: `device.attributes["dra.example.com"].versions`, want: hub.DeviceAttribute{VersionValues: []string{"1.0.0", "2.0.0"}}},
		{expr: `device.attributes["dra.example.com"].ids.filter(x, x > 5)`, want: hub.DeviceAttribute{StringValues: []string{}}},
		{expr: `[dyn(1), dyn("a")]`, err: "expected list element at index 1 to be int"},
		{expr: `device.capacity["dra.example.com"].memory == quantity("1") ? 1 : device.attributes["x"].y`, err: "no such key: y"},
	}
	in := NewInput("dra.example.com", followedDevice())
	for _, tc := range tests {
		p, err := Compile(tc.expr, Options{Gates: lists, DerivedAttribute: true})
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		got, err := p.Derive(context.Background(), in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.expr, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		if fmt.Sprintf("%+v", attrString(*got)) != fmt.Sprintf("%+v", attrString(tc.want)) {
			t.Errorf("%s: got %s, want %s", tc.expr, attrString(*got), attrString(tc.want))
		}
		if tc.want.StringValues != nil && got.StringValues == nil {
			t.Errorf("%s: nil list", tc.expr)
		}
	}
}

func attrString(a hub.DeviceAttribute) string {
	var parts []string
	if a.IntValue != nil {
		parts = append(parts, fmt.Sprintf("int=%d", *a.IntValue))
	}
	if a.BoolValue != nil {
		parts = append(parts, fmt.Sprintf("bool=%t", *a.BoolValue))
	}
	if a.StringValue != nil {
		parts = append(parts, fmt.Sprintf("string=%q", *a.StringValue))
	}
	if a.VersionValue != nil {
		parts = append(parts, fmt.Sprintf("version=%q", *a.VersionValue))
	}
	if a.IntValues != nil {
		parts = append(parts, fmt.Sprintf("ints=%v", a.IntValues))
	}
	if a.BoolValues != nil {
		parts = append(parts, fmt.Sprintf("bools=%v", a.BoolValues))
	}
	if a.StringValues != nil {
		parts = append(parts, fmt.Sprintf("strings=%q", a.StringValues))
	}
	if a.VersionValues != nil {
		parts = append(parts, fmt.Sprintf("versions=%q", a.VersionValues))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

func TestCancel(t *testing.T) {
	p, err := Compile(`device.attributes["dra.example.com"].map(key, device.attributes["dra.example.com"][key] * 20).filter(e, e > 50).exists(e, e == 60)`, Options{Stored: true})
	if err != nil {
		t.Fatal(err)
	}
	attrs := map[hub.QualifiedName]hub.DeviceAttribute{}
	for i := range int64(1000) {
		attrs[hub.QualifiedName(fmt.Sprintf("attr%d", i))] = hub.DeviceAttribute{IntValue: ptr.To(i)}
	}
	in := NewInput("dra.example.com", &hub.Device{Attributes: attrs})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Matches(ctx, in); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want one wrapping %v", err, context.Canceled)
	}
	if ok, err := p.Matches(context.Background(), in); err != nil || !ok {
		t.Errorf("%t, %v", ok, err)
	}
}

func TestConcurrentMatches(t *testing.T) {
	p, err := Compile(`device.attributes["dra.example.com"].cores == 64`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := NewInput("dra.example.com", followedDevice())
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if ok, err := p.Matches(context.Background(), in); !ok || err != nil {
					t.Errorf("%t, %v", ok, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
