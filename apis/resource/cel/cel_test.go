package cel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource"
)

// entry is one attribute or capacity of a test device.
type entry struct {
	name     resource.QualifiedName
	attr     *resource.DeviceAttribute
	capacity *resource.DeviceCapacity
}

func intAttr(name string, v int64) entry {
	return entry{name: resource.QualifiedName(name), attr: &resource.DeviceAttribute{IntValue: &v}}
}
func boolAttr(name string, v bool) entry {
	return entry{name: resource.QualifiedName(name), attr: &resource.DeviceAttribute{BoolValue: &v}}
}
func strAttr(name, v string) entry {
	return entry{name: resource.QualifiedName(name), attr: &resource.DeviceAttribute{StringValue: &v}}
}
func verAttr(name, v string) entry {
	return entry{name: resource.QualifiedName(name), attr: &resource.DeviceAttribute{VersionValue: &v}}
}
func listAttr(name string, a resource.DeviceAttribute) entry {
	return entry{name: resource.QualifiedName(name), attr: &a}
}
func qty(name, v string) entry {
	return entry{name: resource.QualifiedName(name), capacity: &resource.DeviceCapacity{Value: apiresource.MustParse(v)}}
}

// hubDevice makes a hub device from attributes and capacities.
func hubDevice(entries ...entry) *resource.Device {
	d := &resource.Device{Name: "dev"}
	for _, e := range entries {
		if e.attr != nil {
			if d.Attributes == nil {
				d.Attributes = map[resource.QualifiedName]resource.DeviceAttribute{}
			}
			d.Attributes[e.name] = *e.attr
		} else {
			if d.Capacity == nil {
				d.Capacity = map[resource.QualifiedName]resource.DeviceCapacity{}
			}
			d.Capacity[e.name] = *e.capacity
		}
	}
	return d
}

// testDevice is a device of driver dra.example.com with attributes in its
// own domain (some written with the domain, some without) and in another.
func testDevice() *Input {
	return NewInput("dra.example.com", hubDevice(
		intAttr("cores", 8),
		boolAttr("dra.example.com/healthy", true),
		strAttr("model", "a100"),
		verAttr("driverVersion", "1.2.3"),
		strAttr("other.example.com/zone", "z1"),
		intAttr("other.example.com/numa", 1),
		qty("memory", "40Gi"),
		qty("other.example.com/bandwidth", "100G"),
		listAttr("lanes", resource.DeviceAttribute{IntValues: []int64{1, 2}}),
		listAttr("tags", resource.DeviceAttribute{StringValues: []string{"x", "y"}}),
		listAttr("flags", resource.DeviceAttribute{BoolValues: []bool{true}}),
		listAttr("versions", resource.DeviceAttribute{VersionValues: []string{"1.0.0"}}),
	))
}

func TestDeviceSelectorEvaluation(t *testing.T) {
	for _, tc := range []struct {
		expr    string
		want    bool
		wantErr string
	}{
		{expr: `true`, want: true},
		{expr: `false`, want: false},
		{expr: `device.driver == "dra.example.com"`, want: true},
		// Unqualified names fall into the driver's domain, whether the
		// slice wrote them with or without it.
		{expr: `device.attributes["dra.example.com"].cores == 8`, want: true},
		{expr: `device.attributes["dra.example.com"]["cores"] > 4`, want: true},
		{expr: `device.attributes["dra.example.com"].healthy`, want: true},
		{expr: `device.attributes["dra.example.com"].model == "a100"`, want: true},
		{expr: `device.attributes["other.example.com"].zone == "z1" && device.attributes["other.example.com"].numa == 1`, want: true},
		{expr: `"zone" in device.attributes["dra.example.com"]`, want: false},
		// Unknown domains are empty maps.
		{expr: `"no.such.domain" in device.attributes`, want: false},
		{expr: `"dra.example.com" in device.attributes`, want: true},
		{expr: `device.attributes["no.such.domain"].size() == 0`, want: true},
		{expr: `device.attributes["no.such.domain"].x == 1`, wantErr: "no such key: x"},
		{expr: `device.attributes["dra.example.com"].missing == 1`, wantErr: "no such key: missing"},
		{expr: `device.capacity["no.such.domain"].size() == 0`, want: true},
		// A non-bool attribute as the whole result is a runtime error.
		{expr: `device.attributes["dra.example.com"].cores`, wantErr: "could not be converted to bool"},
		// cel.bind
		{expr: `cel.bind(dra, device.attributes["dra.example.com"], dra.healthy && dra.cores >= 8)`, want: true},
		{expr: `cel.bind(x, 3, x * x == 9)`, want: true},
		// semver
		{expr: `device.attributes["dra.example.com"].driverVersion.isGreaterThan(semver("1.2.0"))`, want: true},
		{expr: `device.attributes["dra.example.com"].driverVersion.isLessThan(semver("1.2.0"))`, want: false},
		{expr: `device.attributes["dra.example.com"].driverVersion.compareTo(semver("1.2.3")) == 0`, want: true},
		{expr: `device.attributes["dra.example.com"].driverVersion == semver("1.2.3+build")`, want: true},
		{expr: `semver("1.2.3").major() == 1 && semver("1.2.3").minor() == 2 && semver("1.2.3").patch() == 3`, want: true},
		{expr: `semver("1.0.0-alpha").isLessThan(semver("1.0.0"))`, want: true},
		{expr: `isSemver("1.2.3") && !isSemver("1.2") && !isSemver("v1.2.3")`, want: true},
		{expr: `semver("1.2") == semver("1.2.0")`, wantErr: "No Major.Minor.Patch"},
		// quantity
		{expr: `device.capacity["dra.example.com"].memory.isGreaterThan(quantity("32Gi"))`, want: true},
		{expr: `device.capacity["dra.example.com"].memory.compareTo(quantity("40Gi")) == 0`, want: true},
		{expr: `device.capacity["other.example.com"].bandwidth == quantity("100G")`, want: true},
		{expr: `quantity("1k") == quantity("1000")`, want: true},
		{expr: `quantity("50k").add(20) == quantity("50020")`, want: true},
		// add and sub return a pointer to a Quantity, whose equality only
		// works from the left: with the result on the right of ==, the
		// Kubernetes library answers "no such overload" (as the API server
		// and the scheduler do).
		{expr: `quantity("50020") == quantity("50k").add(20)`, wantErr: "no such overload"},
		{expr: `quantity("50k").sub(quantity("20k")) == quantity("30k")`, want: true},
		{expr: `quantity("50k").add(20).sub(quantity("100k")).sub(-50000) == quantity("20")`, want: true},
		{expr: `quantity("50k").asInteger() == 50000 && quantity("50k").isInteger()`, want: true},
		{expr: `quantity("9999999999999999999999999999999999999G").isInteger()`, want: false},
		{expr: `quantity("9999999999999999999999999999999999999G").asInteger() > 0`, wantErr: "cannot convert value to integer"},
		{expr: `quantity("1.5").asApproximateFloat() == 1.5`, want: true},
		{expr: `sign(quantity("-1")) == -1 && sign(quantity("0")) == 0`, want: true},
		{expr: `isQuantity("1.3Gi") && !isQuantity("200K") && !isQuantity("1,3G") && isQuantity("Mi")`, want: true},
		{expr: `quantity("200K") == quantity("1")`, wantErr: "unable to parse quantity's suffix"},
		// Exponents that apimachinery would never finish parsing: drakit's
		// quantityguard refuses them before the Kubernetes library parses.
		{expr: `quantity("1E-2147483647") == quantity("1")`, wantErr: "out of range"},
		{expr: `quantity("1E2147483648") == quantity("1")`, wantErr: "out of range"},
		{expr: `!isQuantity("1E-2147483647") && !isQuantity("1E-5000") && isQuantity("1E-1000")`, want: true},
		{expr: `quantity("50M").isLessThan(quantity("50Mi"))`, want: true},
		// List-valued attributes (v1alpha2 intSlice and stringSlice, the
		// list attributes of 1.36+) are not part of the 1.31 device.
		{expr: `"lanes" in device.attributes["dra.example.com"] || "tags" in device.attributes["dra.example.com"]`, want: false},
		{expr: `"flags" in device.attributes["dra.example.com"] || "versions" in device.attributes["dra.example.com"]`, want: false},
		{expr: `device.attributes["dra.example.com"].lanes.size() == 2`, wantErr: "no such key: lanes"},
		{expr: `device.attributes["dra.example.com"].size() == 4 && device.capacity["dra.example.com"].size() == 1`, want: true},
		{expr: `device.attributes["other.example.com"].size() == 2 && device.capacity["other.example.com"].size() == 1`, want: true},
		// base environment
		{expr: `[3, 1, 2].sum() == 6 && [1, 2, 3].isSorted() && [3, 1].min() == 1 && [3, 1].max() == 3`, want: true},
		{expr: `[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2`, want: true},
		{expr: `[].sum() == 0`, want: true},
		{expr: `"abc123".find("[0-9]+") == "123" && "a1b2".findAll("[0-9]") == ["1", "2"]`, want: true},
		{expr: `"a1b2c3".findAll("[0-9]", 2).size() == 2`, want: true},
		{expr: `device.attributes["dra.example.com"].model.upperAscii() == "A100"`, want: true},
		{expr: `sets.contains([1, 2], [2])`, want: true},
		{expr: `1 < 1.5`, want: true},
		{expr: `optional.of(1).hasValue()`, want: true},
		{expr: `device.attributes["dra.example.com"].model.matches("^a[0-9]+$")`, want: true},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			p, err := Compile(tc.expr, Options{Release: 31})
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			got, err := p.Matches(context.Background(), testDevice())
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("want error containing %q, got %v (result %v)", tc.wantErr, err, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("evaluate: %v", err)
			}
			if got != tc.want {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDeviceSelectorCompileErrors(t *testing.T) {
	for _, tc := range []struct {
		expr    string
		wantMsg string // whole message when exact, else a prefix
		exact   bool
	}{
		{expr: `1`, wantMsg: "must evaluate to bool or the unknown type, not int", exact: true},
		{expr: `device.driver`, wantMsg: "must evaluate to bool or the unknown type, not string", exact: true},
		{expr: `"a" + "b"`, wantMsg: "must evaluate to bool or the unknown type, not string", exact: true},
		{expr: `cel.bind(x, dyn(true), x)`, wantMsg: "must evaluate to bool or the unknown type, not dyn", exact: true},
		{expr: `device.capacity["a"].b`, wantMsg: "must evaluate to bool or the unknown type, not kubernetes.Quantity", exact: true},
		{expr: `?!`, wantMsg: "compilation failed: ERROR: <input>:1:1: Syntax error:"},
		{expr: ``, wantMsg: "compilation failed: ERROR: <input>:1:0: Syntax error: mismatched input '<EOF>'"},
		{expr: `device.foo == 1`, wantMsg: "compilation failed: ERROR: <input>:1:7: undefined field 'foo'"},
		{expr: `undeclared == 1`, wantMsg: "compilation failed: ERROR: <input>:1:1: undeclared reference to 'undeclared'"},
		{expr: `device.driver == 1`, wantMsg: "compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(string, int)'"},
		{expr: `[1, "a"].size() == 2`, wantMsg: "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'"},
		{expr: `"x".matches("[")`, wantMsg: "compilation failed: ERROR: <input>:1:13: invalid matches argument"},
		{expr: `duration("1x") > duration("1s")`, wantMsg: "compilation failed: ERROR: <input>:1:10: invalid duration argument"},
		// sign is declared as a global function only.
		{expr: `quantity("1").sign() == 1`, wantMsg: "compilation failed: ERROR: <input>:1:19: found no matching overload for 'sign'"},
		// Libraries that arrived after 1.31 are in neither environment,
		// although k8s.io/apiserver knows them: two-variable
		// comprehensions (1.32), semver(string, bool) (1.33), cel-go's
		// list extension (1.34) and includes (1.37).
		{expr: `[1, 2].all(i, v, v > 0)`, wantMsg: "compilation failed: ERROR: <input>:1:11: undeclared reference to 'all'"},
		{expr: `semver("1.2.3", true) == semver("1.2.3")`, wantMsg: "compilation failed: ERROR: <input>:1:7: found no matching overload for 'semver' applied to '(string, bool)'"},
		{expr: `[[1], [2]].flatten() == [1, 2]`, wantMsg: "compilation failed: ERROR: <input>:1:19: undeclared reference to 'flatten'"},
		{expr: `[1, 2].includes(1)`, wantMsg: "compilation failed: ERROR: <input>:1:16: undeclared reference to 'includes'"},
		// v1alpha2 variables do not exist in v1alpha3.
		{expr: `attributes.int["x"] == 1`, wantMsg: "compilation failed: ERROR: <input>:1:1: undeclared reference to 'attributes'"},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			for _, stored := range []bool{false, true} {
				env := fmt.Sprintf("stored=%t", stored)
				p, err := Compile(tc.expr, Options{Release: 31, Stored: stored})
				if err == nil {
					t.Fatalf("%s: compiled, want error %q", env, tc.wantMsg)
				}
				if p != nil {
					t.Errorf("%s: program returned together with an error", env)
				}
				var ce *Error
				if !errors.As(err, &ce) {
					t.Fatalf("%s: error %T is not an *Error", env, err)
				}
				if ce.Expression != tc.expr || ce.Type != field.ErrorTypeInvalid {
					t.Errorf("%s: Error %+v", env, ce)
				}
				if tc.exact && ce.Error() != tc.wantMsg || !strings.HasPrefix(ce.Error(), tc.wantMsg) {
					t.Errorf("%s: message %q, want %q", env, ce.Error(), tc.wantMsg)
				}
			}
		})
	}
}

func TestFormatLibraryOnlyInStoredExpressions(t *testing.T) {
	// The format library arrived in 1.31: the 1.31 API server accepts it
	// in stored selectors only, as new ones are checked against 1.30.
	const expr = `format.dns1123Label().validate("x").hasValue() == false && format.dns1123Label().validate("X").hasValue()`
	if _, err := Compile(expr, Options{Release: 31}); err == nil || !strings.HasPrefix(err.Error(), "compilation failed: ERROR: <input>:1:1: undeclared reference to 'format'") {
		t.Fatalf("new expressions: %v", err)
	}
	p, err := Compile(expr, Options{Release: 31, Stored: true})
	if err != nil {
		t.Fatalf("stored expressions: %v", err)
	}
	if ok, err := p.Matches(context.Background(), testDevice()); err != nil || !ok {
		t.Fatalf("got %v, %v", ok, err)
	}
	// 1.30 had no format library at all.
	if _, err := Compile(expr, Options{Release: 30, Stored: true}); err == nil {
		t.Fatal("v1alpha2 stored expressions accepted the format library")
	}
}

func TestLibraryCallCosts(t *testing.T) {
	// The 1.31 DRA package charged every call one unit at run time; the 1.30
	// named-resources package used the Kubernetes cost model, under which
	// find() costs by the length of the string it searches.
	const expr = `"abcdefghijabcdefghij".find("[0-9]+") == ""`
	cost := func(prog interface {
		ContextEval(context.Context, any) (ref.Val, *cel.EvalDetails, error)
	}, vars any) uint64 {
		t.Helper()
		_, det, err := prog.ContextEval(context.Background(), vars)
		if err != nil || det == nil || det.ActualCost() == nil {
			t.Fatalf("evaluation: %v, %v", det, err)
		}
		return *det.ActualCost()
	}
	d, err := Compile(expr, Options{Release: 31})
	if err != nil {
		t.Fatal(err)
	}
	vars, err := testDevice().variables(d.shape)
	if err != nil {
		t.Fatal(err)
	}
	if got := cost(d.compiled.program, vars); got != 1 {
		t.Errorf("v1alpha3 cost %d, want 1", got)
	}
	n, err := Compile(expr, Options{Release: 30})
	if err != nil {
		t.Fatal(err)
	}
	vars, err = NewInput("", nil).variables(n.shape)
	if err != nil {
		t.Fatal(err)
	}
	if got := cost(n.compiled.program, vars); got <= 1 {
		t.Errorf("v1alpha2 cost %d, want the library's cost of find", got)
	}
}

func TestDeviceWithBadVersion(t *testing.T) {
	// The API server accepts versions by a regular expression; a value the
	// semver parser refuses makes every selector fail for the device.
	d := NewInput("d", hubDevice(verAttr("v", "01.2.3"), intAttr("w", 1)))
	p, err := Compile("true", Options{Release: 31})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Matches(context.Background(), d); err == nil || !strings.Contains(err.Error(), "attribute v: parse semantic version") {
		t.Fatalf("got %v", err)
	}
	empty := NewInput("d", hubDevice(listAttr("x", resource.DeviceAttribute{})))
	if _, err := p.Matches(context.Background(), empty); err == nil || !strings.Contains(err.Error(), "attribute x: unsupported attribute value") {
		t.Fatalf("got %v", err)
	}
	// With several bad attributes, the one that sorts first is named,
	// whatever order the map gives.
	for i := 0; i < 20; i++ {
		two := NewInput("d", hubDevice(verAttr("b", "01.2.3"), listAttr("c", resource.DeviceAttribute{}), verAttr("a", "1.2"), verAttr("d", "x")))
		if _, err := p.Matches(context.Background(), two); err == nil || !strings.HasPrefix(err.Error(), "attribute a: parse semantic version") {
			t.Fatalf("got %v", err)
		}
	}
	// A v1alpha2 list that was null is a list attribute, not a bad one.
	null := hubDevice(listAttr("x", resource.DeviceAttribute{}), intAttr("y", 1))
	null.NamedResources = &resource.NamedResourcesLayout{NullLists: []resource.QualifiedName{"x"}}
	q, _ := Compile(`!("x" in device.attributes["d"]) && device.attributes["d"].y == 1`, Options{Release: 31})
	if ok, err := q.Matches(context.Background(), NewInput("d", null)); err != nil || !ok {
		t.Fatalf("got %v, %v", ok, err)
	}
	// No device at all: no attributes, no capacity.
	q, _ = Compile(`device.driver == "d" && device.attributes["d"].size() == 0 && device.capacity["d"].size() == 0`, Options{Release: 31})
	if ok, err := q.Matches(context.Background(), NewInput("d", nil)); err != nil || !ok {
		t.Fatalf("got %v, %v", ok, err)
	}
}

func TestLaterNameWins(t *testing.T) {
	// Of "x" and "<driver>/x", the name that sorts later wins (the 1.31
	// rule, where a device's entries came in name order and the later one
	// won), whatever order the maps give.
	for i := 0; i < 20; i++ {
		d := NewInput("d.io", hubDevice(intAttr("d.io/x", 1), intAttr("x", 2), qty("d.io/m", "1"), qty("m", "2")))
		p, _ := Compile(`device.attributes["d.io"].x == 2 && device.capacity["d.io"].m == quantity("2")`, Options{Release: 31})
		if ok, err := p.Matches(context.Background(), d); err != nil || !ok {
			t.Fatalf("got %v, %v", ok, err)
		}
		d = NewInput("z.io", hubDevice(intAttr("z.io/x", 1), intAttr("x", 2), qty("z.io/m", "1"), qty("m", "2")))
		p, _ = Compile(`device.attributes["z.io"].x == 1 && device.capacity["z.io"].m == quantity("1")`, Options{Release: 31})
		if ok, err := p.Matches(context.Background(), d); err != nil || !ok {
			t.Fatalf("got %v, %v", ok, err)
		}
	}
}

func TestCancelledContext(t *testing.T) {
	p, err := Compile(`[1,2,3,4,5,6,7,8,9,10].all(x, [1,2,3,4,5,6,7,8,9,10].all(y, [1,2,3,4,5,6,7,8,9,10].all(z, x+y+z > 0)))`, Options{Release: 31})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Matches(ctx, testDevice()); err == nil {
		t.Fatal("want an error for a cancelled context")
	}
}

func TestCostLimit(t *testing.T) {
	// Nested comprehensions over a 1000-element list cost far more than the
	// per-call limit.
	p, err := Compile(`cel.bind(l, [0,1,2,3,4,5,6,7,8,9].map(a, [0,1,2,3,4,5,6,7,8,9].map(b, [0,1,2,3,4,5,6,7,8,9].map(c, a*100+b*10+c))).flatten().flatten(), l.all(x, l.all(y, x + y >= 0)))`, Options{Release: 31})
	if err != nil {
		// flatten is not in the environment; fall back to a plain product.
		p, err = Compile(`cel.bind(l, [0,1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7,8,9], l.all(a, l.all(b, l.all(c, l.all(d, a+b+c+d >= 0)))))`, Options{Release: 31})
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Matches(context.Background(), testDevice()); err == nil || !strings.Contains(err.Error(), "cost limit") {
		t.Fatalf("want a cost limit error, got %v", err)
	}
}

func TestNamedResourcesSelector(t *testing.T) {
	inst := NewInput("", hubDevice(
		intAttr("cores", 8),
		boolAttr("healthy", true),
		strAttr("model", "a100"),
		verAttr("driver-version", "1.2.3"),
		qty("memory", "40Gi"),
		listAttr("lanes", resource.DeviceAttribute{IntValues: []int64{1, 2}}),
		listAttr("tags", resource.DeviceAttribute{StringValues: []string{"x"}}),
		listAttr("none", resource.DeviceAttribute{IntValues: []int64{}}),
		listAttr("flags", resource.DeviceAttribute{BoolValues: []bool{true}}),
	))
	for _, tc := range []struct {
		expr    string
		want    bool
		wantErr string
	}{
		{expr: `attributes.int["cores"] == 8`, want: true},
		{expr: `attributes.bool["healthy"]`, want: true},
		{expr: `attributes.string["model"] == "a100"`, want: true},
		{expr: `attributes.version["driver-version"].isGreaterThan(semver("1.0.0"))`, want: true},
		{expr: `attributes.quantity["memory"].isGreaterThan(quantity("1Gi"))`, want: true},
		{expr: `attributes.intslice["lanes"].size() == 2`, want: true},
		{expr: `"x" in attributes.stringslice["tags"]`, want: true},
		{expr: `"cores" in attributes.string`, want: false},
		{expr: `attributes.intslice["none"].size() == 0 && attributes.intslice.size() == 2 && attributes.stringslice.size() == 1`, want: true},
		{expr: `attributes.bool.size() == 1 && attributes.quantity.size() == 1 && attributes.int.size() == 1 && attributes.string.size() == 1 && attributes.version.size() == 1`, want: true},
		{expr: `attributes.int["missing"] == 1`, wantErr: "no such key"},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			p, err := Compile(tc.expr, Options{Release: 30})
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Matches(context.Background(), inst)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("want error %q, got %v", tc.wantErr, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	for expr, msg := range map[string]string{
		`attributes.int["x"]`:       "must evaluate to bool",
		`dyn(true)`:                 "must evaluate to bool",
		`device.driver == "x"`:      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'device'",
		`attributes.float["x"] > 1`: "compilation failed: ERROR: <input>:1:1: undeclared reference to 'attributes'",
	} {
		_, err := Compile(expr, Options{Release: 30})
		if err == nil || !strings.HasPrefix(err.Error(), msg) {
			t.Errorf("%s: got %v, want %q", expr, err, msg)
		}
	}
}

func TestNamedResourcesBadVersion(t *testing.T) {
	p, err := Compile("true", Options{Release: 30})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		inst := NewInput("", hubDevice(verAttr("b", "01.2.3"), verAttr("a", "1.2"), intAttr("c", 1)))
		if _, err := p.Matches(context.Background(), inst); err == nil || !strings.HasPrefix(err.Error(), `extract attributes with type version: attribute "a": parse semantic version`) {
			t.Fatalf("got %v", err)
		}
	}
	if ok, err := p.Matches(context.Background(), NewInput("", nil)); err != nil || !ok {
		t.Fatalf("nil device: %v, %v", ok, err)
	}
}

func TestDeviceSharedAcrossGoroutines(t *testing.T) {
	d := testDevice()
	p, _ := Compile(`device.attributes["dra.example.com"].cores == 8`, Options{Release: 31})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ok, err := p.Matches(context.Background(), d); !ok || err != nil {
				t.Errorf("got %v, %v", ok, err)
			}
		}()
	}
	wg.Wait()
}

func BenchmarkMatches(b *testing.B) {
	p, _ := Compile(`device.driver == "dra.example.com" && device.attributes["dra.example.com"].cores >= 8 && device.capacity["dra.example.com"].memory.isGreaterThan(quantity("32Gi"))`, Options{Release: 31})
	d := testDevice()
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if ok, err := p.Matches(ctx, d); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

func TestNetworkLibraries(t *testing.T) {
	for _, tc := range []struct {
		expr    string
		want    bool
		wantErr string
	}{
		{expr: `url("https://example.com:80/path?k=v&k=w").getHost() == "example.com:80"`, want: true},
		{expr: `url("https://example.com:80/p").getHostname() == "example.com" && url("https://example.com:80/p").getPort() == "80"`, want: true},
		{expr: `url("https://example.com/a%20b").getEscapedPath() == "/a%20b" && url("https://x/?k=v&k=w").getQuery()["k"] == ["v", "w"]`, want: true},
		{expr: `url("/absolute/path").getScheme() == "" && isURL("https://x") && !isURL("relative")`, want: true},
		{expr: `url("relative") == url("relative")`, wantErr: "URL parse error"},
		{expr: `ip("10.0.0.1").family() == 4 && ip("::1").family() == 6 && ip("::1").isLoopback()`, want: true},
		{expr: `isIP("10.0.0.1") && !isIP("::ffff:10.0.0.1") && !isIP("fe80::1%eth0") && ip.isCanonical("2001:db8::1") && !ip.isCanonical("2001:DB8::1")`, want: true},
		{expr: `string(ip("10.0.0.1")) == "10.0.0.1" && ip("10.0.0.1") == ip("10.0.0.1") && type(ip("10.0.0.1")) == net.IP`, want: true},
		{expr: `ip("fe80::1").isLinkLocalUnicast() && ip("ff02::1").isLinkLocalMulticast() && ip("8.8.8.8").isGlobalUnicast() && ip("0.0.0.0").isUnspecified()`, want: true},
		{expr: `cidr("10.0.0.0/8").containsIP("10.1.2.3") && cidr("10.0.0.0/8").containsIP(ip("10.1.2.3")) && !cidr("10.0.0.0/8").containsIP("11.0.0.1")`, want: true},
		{expr: `cidr("10.0.0.0/8").containsCIDR("10.1.0.0/16") && !cidr("10.1.0.0/16").containsCIDR(cidr("10.0.0.0/8"))`, want: true},
		{expr: `cidr("10.1.2.3/8").masked() == cidr("10.0.0.0/8") && cidr("10.1.2.3/8").ip() == ip("10.1.2.3") && cidr("10.1.2.3/8").prefixLength() == 8`, want: true},
		{expr: `isCIDR("10.0.0.0/8") && !isCIDR("10.0.0.0") && string(cidr("10.0.0.0/8")) == "10.0.0.0/8" && type(cidr("10.0.0.0/8")) == net.CIDR`, want: true},
		{expr: `ip("::ffff:1.2.3.4").family() == 6`, wantErr: "IPv4-mapped IPv6 address"},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			p, err := Compile(tc.expr, Options{Release: 31})
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Matches(context.Background(), testDevice())
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("want error %q, got %v", tc.wantErr, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %v, %v", got, err)
			}
		})
	}
	// ip and cidr arrived in 1.30: the 1.30 API server accepts them only in
	// stored named-resources selectors, the 1.31 server everywhere.
	if _, err := Compile(`isIP("1.2.3.4")`, Options{Release: 30}); err == nil || !strings.Contains(err.Error(), "undeclared reference to 'isIP'") {
		t.Errorf("1.30 new expressions: %v", err)
	}
	if _, err := Compile(`isIP("1.2.3.4")`, Options{Release: 30, Stored: true}); err != nil {
		t.Errorf("1.30 stored expressions: %v", err)
	}
	if _, err := Compile(`isURL("https://x")`, Options{Release: 30}); err != nil {
		t.Errorf("url library in 1.30: %v", err)
	}
}
