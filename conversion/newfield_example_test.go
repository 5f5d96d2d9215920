package conversion

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

// This file is the worked example of docs/architecture.md ("Adding a
// field"): a made-up hub field, Device.ExampleHealth, that no version can
// say, which every version carries in its stash. It takes one step of the
// checklist: the field in apis/resource/types.go, with its doc comment and
// JSON name. Nothing else: no version's conversion, no stash payload, no
// decoder names it, because what a version cannot say is derived from the
// types (stash.LostFields) and read by name (the stash reader's byName). A
// string needs no generated code (deepcopy-gen copies it with the struct;
// conversion-gen only notes, in the v1-era versions' autoConvert, that
// their Device has no such field), so the example skips
// hack/update-codegen.sh, which a real field runs.
//
// The made-up field must not be in drakit, so TestExampleNewField makes the
// step as the edit a maintainer makes to the real file and runs the field's
// test (testdata/newfield/examplehealth_test.go: a slice with the field
// comes back from every version, over the wire, and the stash kept it) on
// the edited packages with go test -overlay. It also shows that the field's
// test can fail: with v1alpha3 claiming to say the field (its name in
// v1alpha3's handled list), v1alpha3 loses it and the test says so. When
// the places the steps edit change shape, the example fails naming the
// step: update the step and the checklist with it.

// fieldStep is one edit of one file of the module.
type fieldStep struct {
	step, file string
	edit       func(fset *token.FileSet, f *ast.File, src []byte) ([]byte, error)
}

var fieldSteps = []fieldStep{
	{"1 (the hub field)", "apis/resource/types.go", func(fset *token.FileSet, f *ast.File, src []byte) ([]byte, error) {
		st := hubStruct(f, "Device")
		if st == nil {
			return nil, fmt.Errorf("no struct type Device")
		}
		off := fset.Position(st.Fields.Closing).Offset
		field := "\n\t// ExampleHealth is made up (docs/architecture.md, \"Adding a field\"):\n" +
			"\t// the health the driver reports. No version can say it.\n" +
			"\t// +optional\n" +
			"\tExampleHealth string `json:\"exampleHealth,omitempty\"`\n"
		return append(append(append([]byte(nil), src[:off]...), field...), src[off:]...), nil
	}},
}

// claimedByV1alpha3 is not a step: it makes v1alpha3 claim to say the field,
// so that the field's test must fail.
var claimedByV1alpha3 = fieldStep{"(v1alpha3 claims the field)", "apis/resource/v1alpha3/conversion.go", func(fset *token.FileSet, f *ast.File, src []byte) ([]byte, error) {
	const handled = `"attributes", "capacity")`
	if bytes.Count(src, []byte(handled)) != 1 {
		return nil, fmt.Errorf("deviceLost's handled names (%s) are not there once", handled)
	}
	return bytes.Replace(src, []byte(handled), []byte(`"attributes", "capacity", "exampleHealth")`), 1), nil
}}

const exampleFieldTest = "testdata/newfield/examplehealth_test.go"

func TestExampleNewField(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(wd)
	if data, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !bytes.HasPrefix(data, []byte("module github.com/drakit/drakit\n")) {
		t.Skipf("%s is not drakit's module root", root)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is needed to build the edited packages: %v", err)
	}
	dir := t.TempDir()
	overlay := func(name string, steps []fieldStep) string {
		replace := map[string]string{}
		for _, s := range steps {
			path := filepath.Join(root, filepath.FromSlash(s.file))
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
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
			copyPath := filepath.Join(dir, name+"-"+strings.ReplaceAll(s.file, "/", "_"))
			if err := os.WriteFile(copyPath, out, 0o644); err != nil {
				t.Fatal(err)
			}
			replace[path] = copyPath
		}
		replace[filepath.Join(root, "conversion", "newfield_examplehealth_test.go")] = filepath.Join(root, "conversion", filepath.FromSlash(exampleFieldTest))
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
		cmd := exec.Command(goTool, "test", "-count=1", "-overlay="+overlayFile, "-run=^TestExampleHealth$", "./conversion")
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	// The one step done: every version carries the field.
	if out, err := run(overlay("field", fieldSteps)); err != nil {
		t.Fatalf("with step 1 done, the field's test fails (%v):\n%s", err, out)
	}
	if testing.Short() {
		return
	}
	// A version that claims to say the field and does not loses it, and
	// the field's test says which.
	out, err := run(overlay("claimed", append(append([]fieldStep{}, fieldSteps...), claimedByV1alpha3)))
	if err == nil || !strings.Contains(out, "--- FAIL: TestExampleHealth") || !strings.Contains(out, "v1alpha3 does not carry exampleHealth") {
		t.Errorf("with v1alpha3 claiming the field, want the field's test to fail for v1alpha3; got (%v):\n%s", err, out)
	}
}

// hubStruct is the struct type name declares.
func hubStruct(f *ast.File, name string) *ast.StructType {
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
