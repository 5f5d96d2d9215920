package validation

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource/features"
)

// The naming rule of the drop rules (drop.go; docs/architecture.md, "The
// hub"): on each type of rules (a type whose name ends in "Drops"), every
// gate DRA<Feature> the rules clear fields for has exactly one
// dropDisabledDRA<Feature>Fields, which asks d.off with
// dra<Feature>FeatureInUse of the old object and DRA<Feature> as its first
// gate, and exactly one dra<Feature>FeatureInUse. Nothing else on such a
// type is named like a drop or an in-use function, but the dispatchers and
// the one rule without a gate below.

var (
	dropRuleName  = regexp.MustCompile(`^dropDisabledDRA([A-Z][A-Za-z0-9]*)Fields$`)
	inUseRuleName = regexp.MustCompile(`^dra([A-Z][A-Za-z0-9]*)FeatureInUse$`)
)

// dropDispatchers run a type's rules in the server's order; they clear
// nothing themselves.
var dropDispatchers = map[string]bool{"dropDisabledFields": true, "dropDisabledStatusFields": true}

// gatelessDropRules clear fields for another reason than a gate.
var gatelessDropRules = map[string]string{
	"dropDeallocatedStatusDevices": "a claim status update drops the status.devices entries of the devices it deallocates, whatever the gates (upstream's name)",
}

// gatesWithoutDrops are the DRA gates of the features package that gate no
// field of resource.k8s.io (features' doc comments say so), and so have no
// drop rule. Every other DRA gate must have one.
var gatesWithoutDrops = map[features.Name]bool{
	features.DynamicResourceAllocation:                   true,
	features.DRADeviceTaintRules:                         true,
	features.DRASchedulerFilterTimeout:                   true,
	features.DRAResourcePoolStatus:                       true,
	features.DRAResourceClaimGranularStatusAuthorization: true,
	features.DRAWorkloadResourceClaims:                   true,
	features.DRAFractionalCapacityRange:                  true,
}

// dropNames are the drop and in-use functions found, by type and feature.
type dropNames struct {
	drops, inUse map[string]map[string]int
	// gates are the gates the drop functions are named after.
	gates map[features.Name]bool
}

// checkDropNames returns one line for each function of files that breaks
// the naming rule, and for each gate of a type that lacks its pair.
func checkDropNames(fset *token.FileSet, files []*ast.File) ([]string, dropNames) {
	found := dropNames{drops: map[string]map[string]int{}, inUse: map[string]map[string]int{}, gates: map[features.Name]bool{}}
	var problems []string
	report := func(n ast.Node, format string, args ...any) {
		pos := fset.Position(n.Pos())
		problems = append(problems, filepath.Base(pos.Filename)+": "+fmt.Sprintf(format, args...))
	}
	known := func(gate string) bool {
		s, ok := features.Lookup(features.Name(gate))
		return ok && s.DRA
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
				continue
			}
			typ := receiverType(fn.Recv.List[0].Type)
			if !strings.HasSuffix(typ, "Drops") {
				continue
			}
			name := fn.Name.Name
			calls := offCalls(fn.Body)
			switch {
			case dropDispatchers[name]:
				if len(calls) > 0 {
					report(fn, "%s.%s is a dispatcher but asks d.off itself; move the rule into a dropDisabledDRA<Feature>Fields", typ, name)
				}
			case gatelessDropRules[name] != "":
				if len(calls) > 0 {
					report(fn, "%s.%s is listed as a rule without a gate but asks d.off", typ, name)
				}
			case dropRuleName.MatchString(name):
				feature := dropRuleName.FindStringSubmatch(name)[1]
				if found.drops[typ] == nil {
					found.drops[typ] = map[string]int{}
				}
				found.drops[typ][feature]++
				if found.drops[typ][feature] == 2 {
					report(fn, "%s has a second %s: one drop function per gate", typ, name)
				}
				if !known("DRA" + feature) {
					report(fn, "%s.%s: DRA%s is not a DRA gate of the features package; name the function after the gate it drops for", typ, name, feature)
				}
				if len(calls) != 1 {
					report(fn, "%s.%s asks d.off %d times, want once", typ, name, len(calls))
					continue
				}
				call := calls[0]
				if len(call.Args) < 2 || gateOf(call.Args[1]) != "DRA"+feature {
					report(fn, "%s.%s: the first gate passed to d.off is %s, want features.DRA%s", typ, name, gateOrNone(call), feature)
				} else {
					found.gates[features.Name("DRA"+feature)] = true
				}
				if want := "dra" + feature + "FeatureInUse"; calledMethod(call.Args[0]) != want {
					report(fn, "%s.%s: d.off is asked with %s, want d.%s(old)", typ, name, exprString(fset, call.Args[0]), want)
				}
			case inUseRuleName.MatchString(name):
				feature := inUseRuleName.FindStringSubmatch(name)[1]
				if found.inUse[typ] == nil {
					found.inUse[typ] = map[string]int{}
				}
				found.inUse[typ][feature]++
				if !known("DRA" + feature) {
					report(fn, "%s.%s: DRA%s is not a DRA gate of the features package; name the function after the gate it answers for", typ, name, feature)
				}
			case strings.HasPrefix(strings.ToLower(name), "drop") || strings.Contains(name, "InUse"):
				report(fn, "%s.%s breaks the naming rule: dropDisabledDRA<Feature>Fields and dra<Feature>FeatureInUse, <Feature> the gate's name after DRA", typ, name)
			default:
				if len(calls) > 0 {
					report(fn, "%s.%s asks d.off but is not a dropDisabledDRA<Feature>Fields", typ, name)
				}
			}
		}
	}
	for typ, byFeature := range found.drops {
		for feature := range byFeature {
			if found.inUse[typ][feature] == 0 {
				problems = append(problems, fmt.Sprintf("%s: gate DRA%s has dropDisabledDRA%sFields but no dra%sFeatureInUse", typ, feature, feature, feature))
			}
		}
	}
	for typ, byFeature := range found.inUse {
		for feature, n := range byFeature {
			if found.drops[typ][feature] == 0 {
				problems = append(problems, fmt.Sprintf("%s: gate DRA%s has dra%sFeatureInUse but no dropDisabledDRA%sFields", typ, feature, feature, feature))
			}
			if n > 1 {
				problems = append(problems, fmt.Sprintf("%s: %d functions dra%sFeatureInUse: one in-use function per gate", typ, n, feature))
			}
		}
	}
	sort.Strings(problems)
	return problems, found
}

// receiverType is the name of a receiver's type, without a pointer.
func receiverType(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// offCalls are the calls x.off(...) in body.
func offCalls(body *ast.BlockStmt) []*ast.CallExpr {
	var calls []*ast.CallExpr
	if body == nil {
		return nil
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "off" {
				calls = append(calls, c)
			}
		}
		return true
	})
	return calls
}

// gateOf is X of an argument features.X, "" for anything else.
func gateOf(e ast.Expr) string {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if pkg, ok := s.X.(*ast.Ident); !ok || pkg.Name != "features" {
		return ""
	}
	return s.Sel.Name
}

func gateOrNone(c *ast.CallExpr) string {
	if len(c.Args) < 2 || gateOf(c.Args[1]) == "" {
		return "no gate of the features package"
	}
	return "features." + gateOf(c.Args[1])
}

// calledMethod is m of an argument x.m(...), "" for anything else.
func calledMethod(e ast.Expr) string {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return ""
	}
	if s, ok := c.Fun.(*ast.SelectorExpr); ok {
		return s.Sel.Name
	}
	return ""
}

func exprString(fset *token.FileSet, e ast.Expr) string {
	var b strings.Builder
	if err := printer.Fprint(&b, fset, e); err != nil {
		return "an expression"
	}
	return b.String()
}

// parsePackageSources parses the package's files other than tests.
func parsePackageSources(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// TestDropNamesFollowTheRule: the drop rules of the package follow the
// naming rule, and every DRA gate that gates a field has its pair.
func TestDropNamesFollowTheRule(t *testing.T) {
	fset, files := parsePackageSources(t)
	problems, found := checkDropNames(fset, files)
	for _, p := range problems {
		t.Error(p)
	}
	if len(found.drops) == 0 {
		t.Fatal("no drop functions found: has the package moved them?")
	}
	for _, s := range features.Known() {
		switch {
		case !s.DRA:
		case gatesWithoutDrops[s.Name] && found.gates[s.Name]:
			t.Errorf("%s has drop rules but is listed in gatesWithoutDrops", s.Name)
		case !gatesWithoutDrops[s.Name] && !found.gates[s.Name]:
			t.Errorf("%s has no dropDisabled%sFields: add the fields the server drops while it is off, or list it in gatesWithoutDrops if it gates no field", s.Name, s.Name)
		}
	}
}

// TestDropNameRuleCatchesBadNames: the check fails on each way of breaking
// the rule.
func TestDropNameRuleCatchesBadNames(t *testing.T) {
	const src = `package validation

type exampleDrops struct{ *dropper }

// An in-use function with upstream's irregular name.
func (d exampleDrops) dropDisabledDRADeviceTaintsFields(n, o *T) {
	_ = d.off(d.draDeviceTaintsInUse(o), features.DRADeviceTaints)
}
func (exampleDrops) draDeviceTaintsInUse(o *T) bool { return false }

// A drop function without its in-use function.
func (d exampleDrops) dropDisabledDRAPrioritizedListFields(n, o *T) {
	_ = d.off(d.draPrioritizedListFeatureInUse(o), features.DRAPrioritizedList)
}

// A drop function named otherwise.
func (d exampleDrops) dropDeviceBindingConditionsFields(n, o *T) {
	_ = d.off(d.draDeviceBindingConditionsFeatureInUse(o), features.DRADeviceBindingConditions)
}
func (exampleDrops) draDeviceBindingConditionsFeatureInUse(o *T) bool { return false }

// The wrong gate.
func (d exampleDrops) dropDisabledDRAAdminAccessFields(n, o *T) {
	_ = d.off(d.draAdminAccessFeatureInUse(o), features.DRAConsumableCapacity)
}
func (exampleDrops) draAdminAccessFeatureInUse(o *T) bool { return false }

// The in-use test inline.
func (d exampleDrops) dropDisabledDRAListTypeAttributesFields(n, o *T) {
	_ = d.off(o != nil, features.DRAListTypeAttributes)
}
func (exampleDrops) draListTypeAttributesFeatureInUse(o *T) bool { return false }

// A gate that does not exist, and an in-use function without its drop.
func (d exampleDrops) dropDisabledDRAMadeUpFields(n, o *T) {
	_ = d.off(d.draMadeUpFeatureInUse(o), features.DRAMadeUp)
}
func (exampleDrops) draMadeUpFeatureInUse(o *T) bool { return false }
func (exampleDrops) draDerivedAttributesFeatureInUse(o *T) bool { return false }

// A well-named pair: no problem.
func (d exampleDrops) dropDisabledDRAOptionalNodeOperationsFields(n, o *T) {
	_ = d.off(d.draOptionalNodeOperationsFeatureInUse(o), features.DRAOptionalNodeOperations)
}
func (exampleDrops) draOptionalNodeOperationsFeatureInUse(o *T) bool { return false }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "example.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	problems, _ := checkDropNames(fset, []*ast.File{f})
	want := []string{
		"exampleDrops.draDeviceTaintsInUse breaks the naming rule",
		"exampleDrops.dropDisabledDRADeviceTaintsFields: d.off is asked with d.draDeviceTaintsInUse(o), want d.draDeviceTaintsFeatureInUse(old)",
		"gate DRADeviceTaints has dropDisabledDRADeviceTaintsFields but no draDeviceTaintsFeatureInUse",
		"gate DRAPrioritizedList has dropDisabledDRAPrioritizedListFields but no draPrioritizedListFeatureInUse",
		"exampleDrops.dropDeviceBindingConditionsFields breaks the naming rule",
		"gate DRADeviceBindingConditions has draDeviceBindingConditionsFeatureInUse but no dropDisabledDRADeviceBindingConditionsFields",
		"exampleDrops.dropDisabledDRAAdminAccessFields: the first gate passed to d.off is features.DRAConsumableCapacity, want features.DRAAdminAccess",
		"exampleDrops.dropDisabledDRAListTypeAttributesFields: d.off is asked with o != nil, want d.draListTypeAttributesFeatureInUse(old)",
		"exampleDrops.dropDisabledDRAMadeUpFields: DRAMadeUp is not a DRA gate",
		"exampleDrops.draMadeUpFeatureInUse: DRAMadeUp is not a DRA gate",
		"gate DRADerivedAttributes has draDerivedAttributesFeatureInUse but no dropDisabledDRADerivedAttributesFields",
	}
	for _, w := range want {
		n := 0
		for _, p := range problems {
			if strings.Contains(p, w) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("want one problem containing %q, got %d", w, n)
		}
	}
	if len(problems) != len(want) {
		t.Errorf("got %d problems, want %d:\n%s", len(problems), len(want), strings.Join(problems, "\n"))
	}
	for _, p := range problems {
		if strings.Contains(p, "OptionalNodeOperations") {
			t.Errorf("a pair that keeps the rule is reported: %s", p)
		}
	}
}
