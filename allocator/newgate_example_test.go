package allocator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// This file is the worked example of docs/architecture.md ("The
// allocator"): a made-up gate, DRAExampleDeviceHealth, added end to end.
// With the gate on, a device whose attribute "health" says "degraded"
// cannot be used: a request passes it by, an All request that selects it
// fails. A real gate takes these steps:
//
//  1. apis/resource/features: the gate, its stage and default.
//  2. features.go: a Features field (ExampleDeviceHealth) and its line in
//     FeaturesFromGates.
//  3. The plan stage (planrequest.go, checkSpec): a request field the gate
//     adds is refused with ReasonFeatureDisabled while the gate is off.
//     This gate adds none.
//  4. The view stage (gather.go, usable): slices that need the gate are
//     left out while it is off. This gate needs none.
//  5. The candidates (candidates.go, judge): the rule on one device, as a
//     case of its filter. A device that cannot be used is a case of
//     unusable, switched by the Features field:
//
//     case sc.f.ExampleDeviceHealth && degraded(dev):
//     return "reports health degraded (ExampleDeviceHealth)"
//
//     judge counts it, names the first such device in the claim's error
//     and fails an All request that selects it.
//  6. The search (solve.go, eligible, take, untakeLast): only for a rule
//     that depends on what else is taken. This one does not.
//  7. The results (results.go, appendResults): what the allocation
//     records of the gate. This one records nothing.
//  8. allocator/verify judges the new rule independently, hack/allocbench
//     passes the gate to upstream's allocator (UpstreamFeatures), and
//     doc.go lists the rule.
//
// The made-up gate must not be in drakit, and a test cannot add a field to
// Features nor a case to unusable. So TestExampleNewGate makes steps 1, 2
// and 5 as the edits a maintainer makes to the real files (exampleSteps),
// and runs the gate's test (testdata/newgate/devicehealth_test.go) on the
// edited package with go test -overlay: the sources stay as they are, and
// nothing in them exists for the example's sake. When a file the steps
// edit changes shape (the const block of the gates, the Features struct,
// FeaturesFromGates's literal, unusable's switch), the example fails
// naming the step: update the step and the checklist with it.

// exampleStep is one edit of one file of the module.
type exampleStep struct {
	step, file string
	// edit returns the file's new text.
	edit func(fset *token.FileSet, f *ast.File, src []byte) ([]byte, error)
}

// exampleSteps are steps 1, 2 and 5 of the checklist for the made-up
// gate; the others have nothing to do for it.
var exampleSteps = []exampleStep{
	{"1 (the gate)", "apis/resource/features/gates.go", func(fset *token.FileSet, f *ast.File, src []byte) ([]byte, error) {
		consts := genDeclWith(f, token.CONST, "DRAAdminAccess")
		specs := compositeOf(f, "specs")
		if consts == nil || specs == nil {
			return nil, fmt.Errorf("no const block with DRAAdminAccess or no var specs = []Spec{...}")
		}
		return exampleInsert(fset, src,
			exampleEdit{consts.Rparen, "\t// DRAExampleDeviceHealth (alpha, off) is made up: degraded devices cannot be used.\n\tDRAExampleDeviceHealth Name = \"DRAExampleDeviceHealth\"\n"},
			exampleEdit{specs.Rbrace, "\t{Name: DRAExampleDeviceHealth, Stage: Alpha, DependsOn: []Name{DynamicResourceAllocation}, DRA: true},\n"},
		)
	}},
	{"2 (the Features field)", "allocator/features.go", func(fset *token.FileSet, f *ast.File, src []byte) ([]byte, error) {
		features := structOf(f, "Features")
		fromGates := returnedComposite(f, "FeaturesFromGates")
		if features == nil || fromGates == nil {
			return nil, fmt.Errorf("no struct type Features or FeaturesFromGates returns no composite literal")
		}
		return exampleInsert(fset, src,
			exampleEdit{features.Fields.Closing, "\tExampleDeviceHealth bool\n"},
			exampleEdit{fromGates.Rbrace, "\tExampleDeviceHealth: g.Enabled(features.DRAExampleDeviceHealth),\n"},
		)
	}},
	{"5 (the rule)", "allocator/candidates.go", func(fset *token.FileSet, f *ast.File, src []byte) ([]byte, error) {
		sw := firstSwitch(f, "unusable")
		if sw == nil {
			return nil, fmt.Errorf("candidateScan.unusable has no switch")
		}
		return exampleInsert(fset, src,
			exampleEdit{sw.Body.Rbrace, "case sc.f.ExampleDeviceHealth && degraded(dev):\n\treturn \"reports health degraded (ExampleDeviceHealth)\"\n"},
			exampleEdit{f.FileEnd, "\n// degraded says whether the device reports its health as degraded.\nfunc degraded(dev *resource.Device) bool {\n\th, ok := dev.Attributes[\"health\"]\n\treturn ok && h.StringValue != nil && *h.StringValue == \"degraded\"\n}\n"},
		)
	}},
}

// exampleGateTest is the gate's test, added to the package by the overlay.
const exampleGateTest = "testdata/newgate/devicehealth_test.go"

func TestExampleNewGate(t *testing.T) {
	root := exampleModuleRoot(t)
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is needed to build the edited package: %v", err)
	}
	dir := t.TempDir()

	// overlay writes the edited files of steps (and the gate's test) and
	// returns the overlay file that puts them in place.
	overlay := func(name string, steps []exampleStep) string {
		replace := map[string]string{}
		edited := map[string][]byte{}
		for _, s := range steps {
			path := filepath.Join(root, filepath.FromSlash(s.file))
			src, ok := edited[path]
			if !ok {
				if src, err = os.ReadFile(path); err != nil {
					t.Fatal(err)
				}
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			out, err := s.edit(fset, f, src)
			if err == nil {
				out, err = format.Source(out)
			}
			if err != nil {
				t.Fatalf("step %s, %s: %v; the file changed shape: update the step here and the checklist in docs/architecture.md", s.step, s.file, err)
			}
			edited[path] = out
		}
		for path, src := range edited {
			copyPath := filepath.Join(dir, name+"-"+filepath.Base(path))
			if err := os.WriteFile(copyPath, src, 0o644); err != nil {
				t.Fatal(err)
			}
			replace[path] = copyPath
		}
		replace[filepath.Join(root, "allocator", "newgate_devicehealth_test.go")] = filepath.Join(root, "allocator", filepath.FromSlash(exampleGateTest))
		data, err := json.Marshal(map[string]any{"Replace": replace})
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, name+".json")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return file
	}
	run := func(overlayFile string) (string, error) {
		cmd := exec.Command(goTool, "test", "-count=1", "-overlay="+overlayFile, "-run=^TestExampleDeviceHealth$", "./allocator")
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	// Every step done: the gate's test passes.
	if out, err := run(overlay("all", exampleSteps)); err != nil {
		t.Fatalf("with steps 1, 2 and 5 done, the gate's test fails (%v):\n%s", err, out)
	}
	if testing.Short() {
		return
	}
	// Without the rule (step 5), the gate's test builds and fails: it
	// tests the rule, not only that the code compiles.
	out, err := run(overlay("norule", exampleSteps[:2]))
	if err == nil || !strings.Contains(out, "--- FAIL: TestExampleDeviceHealth") || !strings.Contains(out, "step 5, gate on") {
		t.Errorf("without step 5, want the gate's test to fail at step 5; got (%v):\n%s", err, out)
	}
}

// exampleModuleRoot is the directory of drakit's go.mod; the example
// skips where the package is not in drakit's own tree (vendored).
func exampleModuleRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(wd)
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !bytes.HasPrefix(data, []byte("module github.com/drakit/drakit\n")) {
		t.Skipf("%s is not drakit's module root", root)
	}
	return root
}

// exampleEdit is text to insert before a position.
type exampleEdit struct {
	pos  token.Pos
	text string
}

// exampleInsert puts each text before its position in src.
func exampleInsert(fset *token.FileSet, src []byte, edits ...exampleEdit) ([]byte, error) {
	out := append([]byte(nil), src...)
	// Last first, so that the earlier offsets stay.
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		if !e.pos.IsValid() {
			return nil, fmt.Errorf("no position for %q", e.text)
		}
		off := fset.Position(e.pos).Offset
		if i > 0 && fset.Position(edits[i-1].pos).Offset > off {
			return nil, fmt.Errorf("edits out of order")
		}
		out = append(out[:off], append([]byte(e.text), out[off:]...)...)
	}
	return out, nil
}

// genDeclWith is the declaration of kind tok that declares name.
func genDeclWith(f *ast.File, tok token.Token, name string) *ast.GenDecl {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != tok {
			continue
		}
		for _, s := range g.Specs {
			if v, ok := s.(*ast.ValueSpec); ok {
				for _, n := range v.Names {
					if n.Name == name {
						return g
					}
				}
			}
		}
	}
	return nil
}

// compositeOf is the composite literal a package variable is set to.
func compositeOf(f *ast.File, name string) *ast.CompositeLit {
	g := genDeclWith(f, token.VAR, name)
	if g == nil {
		return nil
	}
	for _, s := range g.Specs {
		v := s.(*ast.ValueSpec)
		for i, n := range v.Names {
			if n.Name == name && i < len(v.Values) {
				c, _ := v.Values[i].(*ast.CompositeLit)
				return c
			}
		}
	}
	return nil
}

// structOf is the struct type name declares.
func structOf(f *ast.File, name string) *ast.StructType {
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			for _, s := range g.Specs {
				if ts := s.(*ast.TypeSpec); ts.Name.Name == name {
					st, _ := ts.Type.(*ast.StructType)
					return st
				}
			}
		}
	}
	return nil
}

// funcDecl is the function or method name.
func funcDecl(f *ast.File, name string) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == name && fn.Body != nil {
			return fn
		}
	}
	return nil
}

// returnedComposite is the composite literal the function returns.
func returnedComposite(f *ast.File, name string) *ast.CompositeLit {
	fn := funcDecl(f, name)
	if fn == nil {
		return nil
	}
	for _, s := range fn.Body.List {
		if r, ok := s.(*ast.ReturnStmt); ok && len(r.Results) == 1 {
			c, _ := r.Results[0].(*ast.CompositeLit)
			return c
		}
	}
	return nil
}

// firstSwitch is the first switch statement of the function.
func firstSwitch(f *ast.File, name string) *ast.SwitchStmt {
	fn := funcDecl(f, name)
	if fn == nil {
		return nil
	}
	for _, s := range fn.Body.List {
		if sw, ok := s.(*ast.SwitchStmt); ok {
			return sw
		}
	}
	return nil
}
