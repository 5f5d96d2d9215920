package cel

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/cel/internal/simple"
	"github.com/drakit/drakit/apis/resource/features"
)

func TestParseSimpleSelector(t *testing.T) {
	accepted := []string{
		`device.driver == "gpu.example.com"`,
		`device.driver == 'gpu.example.com'`,
		`device.driver != ""`,
		`"gpu.example.com" == device.driver`,
		`device.driver < "m"`,
		`device.attributes["net.example.com"].rack == 3`,
		`device.attributes["net.example.com"].rack <= -3`,
		`3 < device.attributes["net.example.com"].rack`,
		`device.attributes["gpu.example.com"].model == "h100"`,
		`device.attributes['gpu.example.com']["model"] >= 'a'`,
		`device.attributes["gpu.example.com"].healthy`,
		`device.attributes["gpu.example.com"].healthy == false`,
		`!device.attributes["gpu.example.com"].healthy`,
		`!!(device.driver == "a")`,
		`device.driver == "a" && device.attributes["a"].x > 1 || !(device.attributes["b"].y == true)`,
		` ( device . driver=="a" )&&(device.attributes [ "a" ] . x!=0) `,
		"device.driver ==\t\"a\"\n&&\r\ftrue",
		`true`,
		`device.attributes["a"]._x9 == 9223372036854775807`,
		`device.attributes["a"].x == "grüße"`,
		// Library calls.
		`device.driver in ["a", "b"]`,
		`device.driver.startsWith("gpu") && device.driver.endsWith(".com") && device.driver.contains("example")`,
		`device.attributes["a"].x in [1, -2]`,
		`device.attributes["a"].uuid.matches("^gpu-[0-9a-f]+7$")`,
		`device.attributes["a"].v.isGreaterThan(semver("1.2.0")) || device.attributes["a"].v.isLessThan(semver('1.0.0-rc.1'))`,
		`device.attributes["a"].v.compareTo(semver("1.2.0")) >= 0`,
		`device.attributes["a"].v.major() == 1 && device.attributes["a"].v.minor() > 2 && device.attributes["a"].v.patch() != 0`,
		`device.capacity["a"].memory.compareTo(quantity("16Gi")) > 0`,
		`device.capacity["a"]["memory"].isLessThan(quantity("60Gi")) || device.capacity["a"].memory.isGreaterThan(quantity("500m"))`,
		`cel.bind(a, device.attributes["gpu.example.com"], a.model.startsWith("h") && a.cores >= 64 && a.healthy)`,
		`cel.bind(a, device.attributes["gpu.example.com"], a.model in ["a100", "l40"] && a.driverVersion.major() == 1 && a.driverVersion.minor() >= 5)`,
		`cel.bind(a, device.attributes["x"], cel.bind(a, device.attributes["y"], a.z == 1) && a["z"] == 2)`,
	}
	for _, e := range accepted {
		if _, ok := simple.Parse(e, true); !ok {
			t.Errorf("legacy: refused %s", e)
		}
		if _, ok := simple.Parse(e, false); !ok {
			t.Errorf("1.37: refused %s", e)
		}
		if _, err := Compile(e, Options{Release: 31, Stored: true}); err != nil {
			t.Errorf("legacy: %s does not compile: %v", e, err)
		}
		if _, err := Compile(e, Options{Stored: true, SkipCostEstimate: true}); err != nil {
			t.Errorf("1.37: %s does not compile: %v", e, err)
		}
	}
	onlyFollowed := []string{
		`device.allowMultipleAllocations`,
		`!device.allowMultipleAllocations`,
		`device.allowMultipleAllocations == true`,
		`device.driver == "a" && device.allowMultipleAllocations`,
	}
	for _, e := range onlyFollowed {
		if _, ok := simple.Parse(e, true); ok {
			t.Errorf("legacy: accepted %s", e)
		}
		if _, ok := simple.Parse(e, false); !ok {
			t.Errorf("1.37: refused %s", e)
		}
		if _, err := Compile(e, Options{Stored: true, SkipCostEstimate: true}); err != nil {
			t.Errorf("1.37: %s does not compile: %v", e, err)
		}
	}
	refused := []string{
		``,
		`device.driver`,                         // not a bool
		`!device.driver`,                        // not a bool
		`device.driver == 1`,                    // string with int
		`device.allowMultipleAllocations == 1`,  // bool with int
		`device.driver == device.driver`,        // no literal
		`1 == 1`,                                // no operand
		`device.attributes["a"].x == 1 == true`, // chained comparison
		`(device.attributes["a"].x == 1) == true`,          // comparison of a comparison
		`(device.driver) == "a"`,                           // parenthesized operand
		`device.attributes["a"].x == 1u`,                   // uint
		`device.attributes["a"].x == 1.0`,                  // double
		`device.attributes["a"].x == 0x10`,                 // hex
		`device.attributes["a"].x == 010`,                  // leading zero
		`device.attributes["a"].x == 9223372036854775808`,  // does not fit
		`device.attributes["a"].x == -9223372036854775808`, // fits, but declined
		`device.attributes["a"].x == --1`,
		`device.attributes["a"].x == -(1)`,
		`device.attributes["a"].x - 1 == 0`,
		`device.attributes["a"].x == "a\"b"`,       // escape
		`device.attributes["a"].x == r"a"`,         // raw string
		`device.attributes["a"].x == b"a"`,         // bytes
		`device.attributes["a"].x == """a"""`,      // triple-quoted
		`device.attributes["a"].x == "a`,           // unterminated
		"device.attributes[\"a\"].x == \"a\nb\"",   // newline in string
		`device.attributes["a"].x == 1 // comment`, // comment
		`device.attributes["a"].in == 1`,           // reserved word
		`device.attributes["a"].null`,              // reserved word
		`device.attributes["a/b"].x == 1`,          // domain with a slash
		`device.attributes["a"]["b/x"] == 1`,       // identifier with a slash
		`device.attributes[""].x == 1`,             // empty domain
		`device.attributes["a"][""] == 1`,          // empty identifier
		`device.attributes.a.x == 1`,               // not an index
		`device.attributes["a"] == 1`,              // the domain map
		`device.attributes["a"].x.y == 1`,          // too deep
		`device.capacity["a"].x == 1`,              // capacity
		`device.foo == 1`,                          // no such field
		`device.capacity["a"].x.compareTo(semver("1.0.0")) > 0`,
		`device.attributes["a"].x.compareTo(quantity("1")) > 0`,
		`device.attributes["a"].x.isGreaterThan(semver("1.0"))`,         // semver() fails
		`device.attributes["a"].x.isGreaterThan(semver("1.0.0", true))`, // normalize
		`device.capacity["a"].x.isGreaterThan(quantity("1E2147483648"))`,
		`device.capacity["a"].x.isGreaterThan(quantity("1 Gi"))`,
		`device.attributes["a"].x.matches("(")`, // does not compile
		`device.attributes["a"].x.matches(device.driver)`,
		`device.attributes["a"].x.startsWith(1)`,
		`device.attributes["a"].x.major().minor() == 1`,
		`device.attributes["a"].x.major() == "1"`,
		`device.attributes["a"].x.major()`,
		`device.attributes["a"].x.size() == 1`,
		`device.driver.major() == 1`,
		`device.allowMultipleAllocations.startsWith("a")`,
		`device.capacity["a"].x.compareTo(quantity("1")) == "a"`,
		`device.driver.startsWith("a") == 1`,
		`device.driver in []`,
		`device.driver in ["a", 1]`,
		`device.driver in ["a",]`,
		`device.driver in "a"`,
		`1 in [1]`,
		`cel.bind(device, device.attributes["a"], device.x == 1)`,
		`cel.bind(a, device.capacity["a"], a.x.isLessThan(quantity("1")))`,
		`cel.bind(a, device.attributes["a"], a)`,
		`cel.bind(a, device.attributes["a"], a.x == 1) && a.x == 1`,
		`cel.bind(a, device.attributes["a/b"], a.x == 1)`,
		`cel.bind(in, device.attributes["a"], in.x == 1)`,
		`device["driver"] == "a"`,                                  // index of the object
		`.device.driver == "a"`,                                    // leading dot
		`other.driver == "a"`,                                      // other variable
		`device.driver == "a" ? true : false`,                      // conditional
		`cel.bind(a, device.driver, a == "x")`,                     // macro
		`device.driver == "a" &&`,                                  // incomplete
		`(device.driver == "a"`,                                    // unbalanced
		`device.driver == "a")`,                                    // unbalanced
		`device.driver == "a" & device.driver == "b"`,              // single &
		`device.attributes["a"].x == 1 || 1`,                       // int where a bool goes
		strings.Repeat("(", 30) + `true` + strings.Repeat(")", 30), // too deep
		"device.driver == \"\xff\"",                                // not UTF-8
	}
	for _, e := range refused {
		if _, ok := simple.Parse(e, false); ok {
			t.Errorf("accepted %s", e)
		}
		if _, ok := simple.Parse(e, true); ok {
			t.Errorf("legacy: accepted %s", e)
		}
	}
	var many []string
	for i := 0; i <= simple.MaxLeaves; i++ {
		many = append(many, fmt.Sprintf(`device.attributes["a"].x == %d`, i))
	}
	if _, ok := simple.Parse(strings.Join(many, " || "), false); ok {
		t.Errorf("accepted %d leaves", len(many))
	}
	if _, ok := simple.Parse(strings.Join(many[:simple.MaxLeaves], " || "), false); !ok {
		t.Errorf("refused %d leaves", simple.MaxLeaves)
	}
}

func TestSimpleSelectorMatch(t *testing.T) {
	const driver = "gpu.example.com"
	dev := &hub.Device{
		Name: "d",
		Attributes: map[hub.QualifiedName]hub.DeviceAttribute{
			"model":                  {StringValue: ptr.To("h100")},
			"gpu.example.com/model":  {StringValue: ptr.To("a100")},
			"cores":                  {IntValue: ptr.To[int64](64)},
			"healthy":                {BoolValue: ptr.To(true)},
			"driverVersion":          {VersionValue: ptr.To("1.2.3")},
			"net.example.com/rack":   {IntValue: ptr.To[int64](3)},
			"ids":                    {IntValues: []int64{1, 2}},
			"gpu.example.com/shadow": {IntValues: []int64{1}},
			"shadow":                 {IntValue: ptr.To[int64](7)},
		},
		Capacity: map[hub.QualifiedName]hub.DeviceCapacity{
			"memory":                 {Value: apiresource.MustParse("16Gi")},
			"gpu.example.com/memory": {Value: apiresource.MustParse("32Gi")},
		},
	}
	tests := []struct {
		expr         string
		legacy       bool
		lists        bool
		match, ok    bool
		legacyOnlyOK bool
	}{
		{expr: `device.driver == "gpu.example.com"`, match: true, ok: true},
		{expr: `device.driver != "gpu.example.com"`, match: false, ok: true},
		// 1.37: the qualified name wins; 1.31: the one that sorts later.
		{expr: `device.attributes["gpu.example.com"].model == "a100"`, match: true, ok: true},
		{expr: `device.attributes["gpu.example.com"].model == "h100"`, legacy: true, match: true, ok: true},
		{expr: `device.attributes["gpu.example.com"].cores >= 64 && device.attributes["gpu.example.com"].healthy`, match: true, ok: true},
		{expr: `device.attributes["net.example.com"].rack < 3`, match: false, ok: true},
		{expr: `device.attributes["net.example.com"].rack == 3 || device.attributes["net.example.com"].missing == 1`, ok: false},
		{expr: `device.attributes["other.example.com"].rack == 3`, ok: false},
		{expr: `device.attributes["gpu.example.com"].cores == "64"`, ok: false},
		{expr: `device.attributes["gpu.example.com"].driverVersion == "1.2.3"`, ok: false},
		{expr: `device.attributes["gpu.example.com"].cores`, ok: false},
		// Lists: left out (the unqualified scalar shows) or list values.
		{expr: `device.attributes["gpu.example.com"].ids == 1`, ok: false},
		{expr: `device.attributes["gpu.example.com"].shadow == 7`, match: true, ok: true},
		{expr: `device.attributes["gpu.example.com"].shadow == 7`, legacy: true, match: true, ok: true},
		{expr: `device.attributes["gpu.example.com"].shadow == 7`, lists: true, ok: false},
		{expr: `device.allowMultipleAllocations`, match: false, ok: true},
		{expr: `true || device.attributes["x"].y == 1`, ok: false},
		{expr: `device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.2.3-rc.1"))`, match: true, ok: true},
		{expr: `device.attributes["gpu.example.com"].driverVersion.compareTo(semver("1.10.0")) == -1`, match: true, ok: true},
		{expr: `device.attributes["gpu.example.com"].driverVersion.minor() == 2`, match: true, ok: true},
		{expr: `device.attributes["gpu.example.com"].model.minor() == 2`, ok: false},
		// 1.37: the qualified capacity wins; 1.31: the one that sorts later.
		{expr: `device.capacity["gpu.example.com"].memory.compareTo(quantity("32Gi")) == 0`, match: true, ok: true},
		{expr: `device.capacity["gpu.example.com"].memory.compareTo(quantity("16Gi")) == 0`, legacy: true, match: true, ok: true},
		{expr: `device.capacity["gpu.example.com"].memory.isLessThan(quantity("16Gi"))`, legacy: true, match: false, ok: true},
		{expr: `device.capacity["net.example.com"].memory.isLessThan(quantity("16Gi"))`, ok: false},
		{expr: `cel.bind(g, device.attributes["gpu.example.com"], g.model.matches("^a1") && g.cores in [32, 64])`, match: true, ok: true},
		{expr: `device.driver.endsWith(".com") && !device.attributes["gpu.example.com"].model.contains("h")`, match: true, ok: true},
		{expr: `device.attributes["gpu.example.com"].cores.startsWith("6")`, ok: false},
	}
	for _, tc := range tests {
		s, ok := simple.Parse(tc.expr, tc.legacy)
		if !ok {
			t.Errorf("%s: refused", tc.expr)
			continue
		}
		match, ok := simpleMatch(s, driver, dev, tc.lists)
		if match != tc.match || ok != tc.ok {
			t.Errorf("%s (legacy %v, lists %v): match %v ok %v, want %v %v", tc.expr, tc.legacy, tc.lists, match, ok, tc.match, tc.ok)
		}
	}

	// A device whose input cannot be built.
	bad := &hub.Device{Name: "bad", Attributes: map[hub.QualifiedName]hub.DeviceAttribute{
		"model":   {StringValue: ptr.To("h100")},
		"version": {VersionValue: ptr.To("one")},
	}}
	for _, legacy := range []bool{false, true} {
		s, _ := simple.Parse(`device.driver == "gpu.example.com"`, legacy)
		if _, ok := simpleMatch(s, driver, bad, false); ok {
			t.Errorf("legacy %v: ok for a device with a bad version", legacy)
		}
	}
}

// TestSimpleSelectorDifferential checks ParseSimpleSelector and Match
// against cel-go on random expressions of the simple grammar and random
// devices: every accepted expression compiles in its environment, and
// whenever Match answers, the compiled program gives the same bool without
// an error.
func TestSimpleSelectorDifferential(t *testing.T) {
	rng := rand.New(rand.NewSource(20261127))
	const (
		expressions      = 1500
		devicesPerExpr   = 24
		minEachKind      = 2000
		deviceVariations = 400
	)
	devices := make([]simpleTestDevice, deviceVariations)
	for i := range devices {
		devices[i] = randomSimpleDevice(rng, i)
	}
	ctx := context.Background()
	var ok, notOK, matched int
	for i := 0; i < expressions; i++ {
		legacy := i%2 == 0
		g := &exprGen{rng: rng, legacy: legacy}
		expr := g.expr(0)
		s, accepted := simple.Parse(expr, legacy)
		if !accepted {
			t.Fatalf("refused generated expression %s", expr)
		}
		var legacyProg *Program
		var progFollowed storedPrograms
		var err error
		if legacy {
			legacyProg, err = Compile(expr, Options{Release: 31, Stored: true})
		} else {
			progFollowed, err = compileStored(expr)
		}
		if err != nil {
			t.Fatalf("accepted expression %s does not compile (legacy %v): %v", expr, legacy, err)
		}
		for j := 0; j < devicesPerExpr; j++ {
			td := &devices[rng.Intn(len(devices))]
			lists := !legacy && rng.Intn(2) == 0
			match, simpleOK := simpleMatch(s, td.driver, td.dev, lists)
			if !simpleOK {
				notOK++
				continue
			}
			ok++
			var want bool
			if legacy {
				want, err = legacyProg.Matches(ctx, NewInput(td.driver, td.dev))
			} else {
				want, err = progFollowed.matches(ctx, td.driver, td.dev, lists)
			}
			if err != nil {
				t.Errorf("%s on %s (legacy %v, lists %v): Match says %v, cel-go fails: %v", expr, td, legacy, lists, match, err)
				continue
			}
			if want != match {
				t.Errorf("%s on %s (legacy %v, lists %v): Match says %v, cel-go %v", expr, td, legacy, lists, match, want)
			}
			if match {
				matched++
			}
		}
	}
	t.Logf("%d evaluations answered (%d true), %d declined", ok, matched, notOK)
	if ok < minEachKind || notOK < minEachKind || matched < minEachKind/4 {
		t.Fatalf("too few cases: %d answered, %d of them true, %d declined; the generators no longer cover both outcomes", ok, matched, notOK)
	}
}

// simpleMatch is the fast path's answer for a device.
func simpleMatch(s *simple.Selector, driver string, dev *hub.Device, lists bool) (match, ok bool) {
	var d simple.Device
	d.Init(driver, dev)
	return s.Match(&d, lists)
}

// storedPrograms are an expression compiled as a stored one in the
// environment of the release drakit follows, without and with
// DRAListTypeAttributes, as the allocator compiles it.
type storedPrograms [2]*Program

func compileStored(expr string) (storedPrograms, error) {
	var p storedPrograms
	for i, lists := range []bool{false, true} {
		var err error
		if p[i], err = Compile(expr, Options{Stored: true, SkipCostEstimate: true, Gates: listGates(lists)}); err != nil {
			return p, err
		}
	}
	return p, nil
}

// listGates are the default gates with DRAListTypeAttributes as lists says.
func listGates(lists bool) features.Gates {
	return features.Defaults().With(features.DRAListTypeAttributes, lists)
}

// matches evaluates the program on the device, with or without its list
// attributes.
func (p storedPrograms) matches(ctx context.Context, driver string, dev *hub.Device, lists bool) (bool, error) {
	i := 0
	if lists {
		i = 1
	}
	return p[i].Matches(ctx, NewInput(driver, dev))
}

type simpleTestDevice struct {
	driver string
	dev    *hub.Device
}

func (d simpleTestDevice) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s {", d.driver)
	for n, a := range d.dev.Attributes {
		fmt.Fprintf(&b, " %s=%s", n, hubAttrString(a))
	}
	if d.dev.AllowMultipleAllocations != nil {
		fmt.Fprintf(&b, " multi=%v", *d.dev.AllowMultipleAllocations)
	}
	if d.dev.NamedResources != nil {
		fmt.Fprintf(&b, " nullLists=%v", d.dev.NamedResources.NullLists)
	}
	return b.String() + " }"
}

func hubAttrString(a hub.DeviceAttribute) string {
	var parts []string
	if a.IntValue != nil {
		parts = append(parts, fmt.Sprint(*a.IntValue))
	}
	if a.BoolValue != nil {
		parts = append(parts, fmt.Sprint(*a.BoolValue))
	}
	if a.StringValue != nil {
		parts = append(parts, fmt.Sprintf("%q", *a.StringValue))
	}
	if a.VersionValue != nil {
		parts = append(parts, "v"+*a.VersionValue)
	}
	if a.IntValues != nil {
		parts = append(parts, fmt.Sprint(a.IntValues))
	}
	if a.BoolValues != nil {
		parts = append(parts, fmt.Sprint(a.BoolValues))
	}
	if a.StringValues != nil {
		parts = append(parts, fmt.Sprintf("%q", a.StringValues))
	}
	if a.VersionValues != nil {
		parts = append(parts, fmt.Sprintf("v%v", a.VersionValues))
	}
	return "(" + strings.Join(parts, ",") + ")"
}

var (
	simpleDrivers    = []string{"gpu.example.com", "net.example.com"}
	simpleIDs        = []string{"model", "rack", "healthy", "index", "driverVersion"}
	simpleStrings    = []string{"h100", "a100", "", "b", "grüße", "gpu-3e7"}
	simpleVersions   = []string{"1.2.3", "1.5.0", "2.0.0-rc.1", "0.9.1", "1.2.3+build"}
	simpleQuantities = []string{"16Gi", "40Gi", "1", "500m", "17179869184"}
	simplePatterns   = []string{"^h[0-9]+$", "^gpu-[0-9a-f]+7$", "1", "(?i)^A", "ü"}
)

// randomSimpleDevice makes a device with attributes of every kind, under
// either spelling, both or neither; now and then a list, an attribute
// with a scalar and a list, one without a value, a bad version or a
// v1alpha2 null list; and capacities under either spelling.
func randomSimpleDevice(rng *rand.Rand, i int) simpleTestDevice {
	driver := simpleDrivers[rng.Intn(len(simpleDrivers))]
	dev := &hub.Device{Name: fmt.Sprintf("dev-%d", i), Attributes: map[hub.QualifiedName]hub.DeviceAttribute{}}
	spellings := func(id string, put func(name string)) {
		for _, domain := range simpleDrivers {
			for _, qualified := range []bool{true, false} {
				if !qualified && domain != driver || rng.Intn(3) == 0 {
					continue
				}
				name := id
				if qualified {
					name = domain + "/" + id
				}
				put(name)
			}
		}
	}
	for _, id := range simpleIDs {
		spellings(id, func(name string) { dev.Attributes[hub.QualifiedName(name)] = randomAttribute(rng, id) })
	}
	if rng.Intn(20) == 0 {
		dev.Attributes["broken"] = hub.DeviceAttribute{VersionValue: ptr.To("one.two")}
	}
	if rng.Intn(20) == 0 {
		dev.Attributes["empty"] = hub.DeviceAttribute{}
	}
	if rng.Intn(20) == 0 {
		dev.Attributes["badList"] = hub.DeviceAttribute{VersionValues: []string{"1.0.0", "x"}}
	}
	if rng.Intn(10) == 0 {
		// A v1alpha2 null list: the 1.31 device leaves it out.
		names := make([]hub.QualifiedName, 0, len(dev.Attributes))
		for n := range dev.Attributes {
			names = append(names, n)
		}
		if len(names) > 0 {
			n := names[rng.Intn(len(names))]
			dev.NamedResources = &hub.NamedResourcesLayout{NullLists: []hub.QualifiedName{n}}
		}
	}
	switch rng.Intn(3) {
	case 0:
		dev.AllowMultipleAllocations = ptr.To(true)
	case 1:
		dev.AllowMultipleAllocations = ptr.To(false)
	}
	spellings("memory", func(name string) {
		if dev.Capacity == nil {
			dev.Capacity = map[hub.QualifiedName]hub.DeviceCapacity{}
		}
		dev.Capacity[hub.QualifiedName(name)] = hub.DeviceCapacity{Value: apiresource.MustParse(simpleQuantities[rng.Intn(len(simpleQuantities))])}
	})
	return simpleTestDevice{driver: driver, dev: dev}
}

// randomAttribute is an attribute of a random kind, mostly the kind the
// identifier suggests.
func randomAttribute(rng *rand.Rand, id string) hub.DeviceAttribute {
	var a hub.DeviceAttribute
	kind := rng.Intn(10)
	if rng.Intn(3) > 0 {
		kind = map[string]int{"model": 3, "rack": 0, "healthy": 5, "index": 1, "driverVersion": 7}[id]
	}
	switch kind {
	case 0, 1, 2:
		a.IntValue = ptr.To(int64(rng.Intn(7) - 3))
	case 3, 4:
		a.StringValue = ptr.To(simpleStrings[rng.Intn(len(simpleStrings))])
	case 5, 6:
		a.BoolValue = ptr.To(rng.Intn(2) == 0)
	case 7:
		if rng.Intn(10) == 0 {
			a.VersionValue = ptr.To("1.2") // does not parse
		} else {
			a.VersionValue = ptr.To(simpleVersions[rng.Intn(len(simpleVersions))])
		}
	case 8:
		switch rng.Intn(4) {
		case 0:
			a.IntValues = []int64{1, 2}
		case 1:
			a.StringValues = []string{"h100"}
		case 2:
			a.BoolValues = []bool{true}
		case 3:
			a.VersionValues = []string{"1.0.0"}
		}
	case 9:
		// A scalar and a list at once.
		a.IntValue = ptr.To(int64(rng.Intn(3)))
		a.StringValues = []string{"x"}
	}
	return a
}

// exprGen writes random expressions of the simple grammar, with random
// spacing, quotes and operand order.
type exprGen struct {
	rng    *rand.Rand
	legacy bool
	bound  []string // names cel.bind gave to device.attributes[domain], "name=domain"
}

func (g *exprGen) sp() string {
	return []string{"", " ", " ", "  ", "\n", "\t"}[g.rng.Intn(6)]
}

func (g *exprGen) quote(s string) string {
	if g.rng.Intn(2) == 0 {
		return "'" + s + "'"
	}
	return `"` + s + `"`
}

func (g *exprGen) pick(list []string) string { return list[g.rng.Intn(len(list))] }

func (g *exprGen) expr(depth int) string {
	if depth < 3 {
		switch g.rng.Intn(7) {
		case 0:
			return g.expr(depth+1) + g.sp() + "&&" + g.sp() + g.expr(depth+1)
		case 1:
			return g.expr(depth+1) + g.sp() + "||" + g.sp() + g.expr(depth+1)
		case 2:
			return "!" + g.sp() + "(" + g.sp() + g.expr(depth+1) + g.sp() + ")"
		case 3:
			return "(" + g.expr(depth+1) + ")"
		case 4:
			name := g.pick([]string{"a", "b", "_x"})
			domain := g.pick(simpleDrivers)
			g.bound = append(g.bound, name+"="+domain)
			body := g.expr(depth + 1)
			g.bound = g.bound[:len(g.bound)-1]
			return "cel.bind(" + name + "," + g.sp() + "device.attributes[" + g.quote(domain) + "]," + g.sp() + body + ")"
		}
	}
	return g.leaf()
}

func (g *exprGen) literal(kind int) string {
	switch kind {
	case 0:
		return fmt.Sprint(g.rng.Intn(7) - 3)
	case 1:
		return g.quote(g.pick(simpleStrings))
	}
	return g.pick([]string{"true", "false"})
}

func (g *exprGen) op() string { return g.pick([]string{"==", "!=", "<", "<=", ">", ">="}) }

func (g *exprGen) leaf() string {
	op := g.op()
	cmp := func(operand, lit string) string {
		if g.rng.Intn(4) == 0 {
			return lit + g.sp() + op + g.sp() + operand
		}
		return operand + g.sp() + op + g.sp() + lit
	}
	n := 10
	if !g.legacy {
		n = 11
	}
	switch g.rng.Intn(n) {
	case 0:
		return cmp("device"+g.sp()+"."+g.sp()+"driver", g.quote(g.pick(simpleDrivers)))
	case 1:
		if g.rng.Intn(8) == 0 {
			return "true"
		}
		return "!" + g.sp() + g.attribute()
	case 2:
		return g.attribute()
	case 3:
		// Versions.
		attr := g.attribute()
		v := `semver(` + g.quote(g.pick(simpleVersions)) + `)`
		switch g.rng.Intn(4) {
		case 0:
			return attr + ".isGreaterThan(" + v + ")"
		case 1:
			return attr + ".isLessThan(" + v + ")"
		case 2:
			return cmp(attr+".compareTo("+v+")", fmt.Sprint(g.rng.Intn(3)-1))
		}
		return cmp(attr+"."+g.pick([]string{"major", "minor", "patch"})+"()", fmt.Sprint(g.rng.Intn(4)))
	case 4:
		// Quantities.
		domain := g.pick(simpleDrivers)
		if g.rng.Intn(10) == 0 {
			domain = "other.example.com"
		}
		c := "device.capacity[" + g.quote(domain) + "]" + g.pick([]string{".memory", `["memory"]`, ".other"})
		q := "quantity(" + g.quote(g.pick(simpleQuantities)) + ")"
		switch g.rng.Intn(3) {
		case 0:
			return c + ".isGreaterThan(" + q + ")"
		case 1:
			return c + ".isLessThan(" + q + ")"
		}
		return cmp(c+".compareTo("+q+")", fmt.Sprint(g.rng.Intn(3)-1))
	case 5:
		// Strings.
		operand := g.attribute()
		if g.rng.Intn(4) == 0 {
			operand = "device.driver"
		}
		if g.rng.Intn(2) == 0 {
			return operand + ".matches(" + g.quote(g.pick(simplePatterns)) + ")"
		}
		return operand + "." + g.pick([]string{"startsWith", "endsWith", "contains"}) + "(" + g.quote(g.pick(simpleStrings)) + ")"
	case 6:
		// Lists.
		kind := g.rng.Intn(3)
		items := []string{g.literal(kind)}
		for g.rng.Intn(2) == 0 {
			items = append(items, g.literal(kind))
		}
		return g.attribute() + " in [" + strings.Join(items, ","+g.sp()) + "]"
	case 10:
		if g.rng.Intn(2) == 0 {
			return "device.allowMultipleAllocations"
		}
		return cmp("device.allowMultipleAllocations", g.literal(2))
	}
	return cmp(g.attribute(), g.literal(g.rng.Intn(3)))
}

func (g *exprGen) attribute() string {
	id := g.pick(simpleIDs)
	sel := "." + g.sp() + id
	if g.rng.Intn(4) == 0 {
		sel = "[" + g.quote(id) + "]"
	}
	if len(g.bound) > 0 && g.rng.Intn(2) == 0 {
		name, _, _ := strings.Cut(g.bound[g.rng.Intn(len(g.bound))], "=")
		return name + sel
	}
	domain := g.pick(simpleDrivers)
	if g.rng.Intn(10) == 0 {
		domain = "other.example.com"
	}
	return "device.attributes" + g.sp() + "[" + g.sp() + g.quote(domain) + g.sp() + "]" + g.sp() + sel
}

// TestSimpleSelectorMutations feeds the recognizer broken and altered
// expressions: generated ones with bytes cut out, inserted or swapped. It
// must never panic, and whatever it still accepts must compile in the
// environment it was accepted for and agree with cel-go where Match
// answers, so that a gap in the grammar cannot turn an expression cel-go
// refuses (or reads differently) into a fast answer.
func TestSimpleSelectorMutations(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	const mutations = 3000
	pieces := []string{"(", ")", "[", "]", ".", ",", "!", "&&", "||", "==", "<", "in", "'", `"`, "\\", "-", "0", "9223372036854775808", "device", "cel", "x", " ", "\n", "/", "?", "{", "}", "u", "1.5", "null"}
	devices := make([]simpleTestDevice, 50)
	for i := range devices {
		devices[i] = randomSimpleDevice(rng, i)
	}
	ctx := context.Background()
	accepted, refused := 0, 0
	for i := 0; i < mutations; i++ {
		legacy := i%2 == 0
		expr := (&exprGen{rng: rng, legacy: legacy}).expr(0)
		b := []byte(expr)
		switch rng.Intn(3) {
		case 0: // cut a run of bytes out
			at := rng.Intn(len(b))
			b = append(b[:at], b[min(len(b), at+1+rng.Intn(4)):]...)
		case 1: // insert a piece
			at := rng.Intn(len(b) + 1)
			b = append(b[:at], append([]byte(pieces[rng.Intn(len(pieces))]), b[at:]...)...)
		default: // swap two bytes
			x, y := rng.Intn(len(b)), rng.Intn(len(b))
			b[x], b[y] = b[y], b[x]
		}
		mutated := string(b)
		s, ok := simple.Parse(mutated, legacy)
		if !ok {
			refused++
			continue
		}
		accepted++
		var legacyProg *Program
		var progFollowed storedPrograms
		var err error
		if legacy {
			legacyProg, err = Compile(mutated, Options{Release: 31, Stored: true})
		} else {
			progFollowed, err = compileStored(mutated)
		}
		if err != nil {
			t.Errorf("accepted %q (legacy %v), which does not compile: %v", mutated, legacy, err)
			continue
		}
		for j := 0; j < 4; j++ {
			td := &devices[rng.Intn(len(devices))]
			match, answered := simpleMatch(s, td.driver, td.dev, false)
			if !answered {
				continue
			}
			var want bool
			if legacy {
				want, err = legacyProg.Matches(ctx, NewInput(td.driver, td.dev))
			} else {
				want, err = progFollowed.matches(ctx, td.driver, td.dev, false)
			}
			if err != nil || want != match {
				t.Errorf("%q on %s (legacy %v): Match says %v, cel-go %v, %v", mutated, td, legacy, match, want, err)
			}
		}
	}
	// Both sides must be exercised, or the test says nothing.
	if accepted < mutations/10 || refused < mutations/10 {
		t.Fatalf("%d mutated expressions accepted, %d refused: too few of one kind to judge", accepted, refused)
	}
	t.Logf("%d mutated expressions accepted and checked, %d refused", accepted, refused)
}

// TestFastPathProgram: a fast-path program of the simple grammar is not
// compiled until a device needs cel-go, answers as cel-go does then, and
// stays compiled; an expression outside the grammar is compiled at once.
func TestFastPathProgram(t *testing.T) {
	opts := Options{Stored: true, SkipCostEstimate: true, FastPath: true}
	p, err := Compile(`device.attributes["gpu.example.com"].model == "a100"`, opts)
	if err != nil {
		t.Fatal(err)
	}
	if p.Compiled() {
		t.Fatal("compiled although of the simple grammar")
	}
	ctx := context.Background()
	model := hub.Device{Attributes: map[hub.QualifiedName]hub.DeviceAttribute{"model": {StringValue: ptr.To("a100")}}}
	if ok, err := p.Matches(ctx, NewInput("gpu.example.com", &model)); !ok || err != nil {
		t.Fatalf("%t, %v", ok, err)
	}
	if p.Compiled() {
		t.Fatal("compiled for a device the fast path answers for")
	}
	if _, err := p.Matches(ctx, NewInput("gpu.example.com", &hub.Device{})); err == nil || !strings.Contains(err.Error(), "no such key: model") {
		t.Fatalf("device without the attribute: %v", err)
	}
	if !p.Compiled() {
		t.Fatal("not compiled after cel-go answered")
	}
	q, err := Compile(`device.attributes["gpu.example.com"].model.size() > 0`, opts)
	if err != nil || !q.Compiled() {
		t.Fatalf("outside the grammar: compiled %t, %v", q != nil && q.Compiled(), err)
	}
	// Without FastPath, or for new expressions, cel-go compiles at once.
	for _, o := range []Options{{Stored: true}, {FastPath: true}} {
		if r, err := Compile(`device.driver == "x"`, o); err != nil || !r.Compiled() {
			t.Errorf("%+v: compiled %t, %v", o, r != nil && r.Compiled(), err)
		}
	}
}
