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
// field"): made-up hub fields that no version can say, which every version
// carries in its stash, with no stash code, because what a version cannot
// say is derived from the types (stash.LostFields; in a claim, at any
// depth, stash.NewTree) and read by name (the stash reader's byName).
//
//   - Device.ExampleHealth takes one step of the checklist: the field in
//     apis/resource/types.go, with its doc comment and JSON name. A string
//     in a struct that no version converts by sharing memory needs no
//     generated code (deepcopy-gen copies it with the struct;
//     conversion-gen only notes, in the v1-era versions' autoConvert, that
//     their Device has no such field), so this example skips
//     hack/update-codegen.sh, which a real field runs.
//   - ExactDeviceRequest.ExampleRetries, a claim field, takes the field in
//     types.go, the one function conversion-gen asks for in each v1-era
//     version that converted ExactDeviceRequest by sharing memory (v1,
//     v1beta2: three hand-written files in all), and the conversions of
//     hack/update-codegen.sh, which the example runs with conversion-gen on
//     a copy of the module's sources (regenerate).
//
// The made-up fields must not be in drakit, so TestExampleNewField makes
// the steps as the edits a maintainer makes to the real files and runs the
// field's test (testdata/newfield: an object with the field comes back
// from every version, over the wire, and the stash kept it) on the edited
// packages with go test -overlay. It also shows that the field's test can
// fail: with a version claiming to say the field (v1alpha3 naming it among
// its device's handled fields, v1 among its claim tree's handled paths),
// that version loses it and the test says so. When the places the steps
// edit change shape, the example fails naming the step: update the step
// and the checklist with it.

// fieldStep is one edit of one file of the module.
type fieldStep struct {
	step, file string
	edit       func(fset *token.FileSet, f *ast.File, src []byte) ([]byte, error)
}

// fieldExample is one made-up field: the steps that add it, the field's
// test, and an edit that makes a version claim to say it, which the
// field's test must catch.
type fieldExample struct {
	field string
	steps []fieldStep
	// codegen: the step "hack/update-codegen.sh" is needed (the field is
	// in a type that conversion-gen converts by sharing memory), and the
	// example runs conversion-gen as that script does, on a copy of the
	// module with the other steps done.
	codegen   bool
	test, run string // the field's test: its file in testdata, its name
	claimed   fieldStep
	claimedBy string // what the field's test says then
}

var fieldExamples = []fieldExample{{
	field: "Device.ExampleHealth",
	steps: []fieldStep{
		{"2 (the hub field)", "apis/resource/types.go", addHubField("Device",
			"\n\t// ExampleHealth is made up (docs/architecture.md, \"Adding a field\"):\n"+
				"\t// the health the driver reports. No version can say it.\n"+
				"\t// +optional\n"+
				"\tExampleHealth string `json:\"exampleHealth,omitempty\"`\n")},
	},
	test: "testdata/newfield/examplehealth_test.go", run: "TestExampleHealth",
	// v1alpha3 claims the field: its name among deviceLost's handled ones.
	claimed: fieldStep{"(v1alpha3 claims the field)", "apis/resource/v1alpha3/conversion.go", replaceOnce(
		`"attributes", "capacity")`, `"attributes", "capacity", "exampleHealth")`)},
	claimedBy: "v1alpha3 does not carry exampleHealth",
}, {
	field: "ExactDeviceRequest.ExampleRetries",
	steps: []fieldStep{
		{"2 (the hub field)", "apis/resource/types.go", addHubField("ExactDeviceRequest",
			"\n\t// ExampleRetries is made up (docs/architecture.md, \"Adding a field\"):\n"+
				"\t// how often to retry preparing the devices. No version can say it.\n"+
				"\t// +optional\n"+
				"\tExampleRetries int32 `json:\"exampleRetries,omitempty\"`\n")},
		{"3 (conversion-gen asks for it)", "apis/resource/v1/conversion.go", manualConvert("v1", "resourcev1")},
		{"3 (conversion-gen asks for it)", "apis/resource/v1beta2/conversion.go", manualConvert("v1beta2", "resourcev1beta2")},
	},
	codegen: true,
	test:    "testdata/newfield/exampleretries_test.go", run: "TestExampleRetries",
	// v1 claims the field: its path among the handled ones of v1's claim
	// spec tree.
	claimed: fieldStep{"(v1 claims the field)", "apis/resource/v1/conversion.go", replaceOnce(
		`"spec", stash.Kept("spec"), stash.Handled("spec.allocationMode")`,
		`"spec", stash.Kept("spec"), stash.Handled("spec.allocationMode", "spec.devices.requests.exactly.exampleRetries")`)},
	claimedBy: "v1 does not carry exampleRetries",
}}

// addHubField adds field at the end of the hub struct type name.
func addHubField(name, field string) func(*token.FileSet, *ast.File, []byte) ([]byte, error) {
	return func(fset *token.FileSet, f *ast.File, src []byte) ([]byte, error) {
		st := hubStruct(f, name)
		if st == nil {
			return nil, fmt.Errorf("no struct type %s", name)
		}
		off := fset.Position(st.Fields.Closing).Offset
		return append(append(append([]byte(nil), src[:off]...), field...), src[off:]...), nil
	}
}

// manualConvert is the one function conversion-gen asks for when a hub
// type it converted by sharing memory gains a field the version's type
// lacks: the conversion to the version, calling the generated one, the
// field going to the stash.
func manualConvert(version, alias string) func(*token.FileSet, *ast.File, []byte) ([]byte, error) {
	return func(fset *token.FileSet, f *ast.File, src []byte) ([]byte, error) {
		if !bytes.Contains(src, []byte(alias+" \"k8s.io/api/resource/"+version+"\"")) {
			return nil, fmt.Errorf("no import of k8s.io/api/resource/%s as %s", version, alias)
		}
		fn := fmt.Sprintf("\n// Convert_resource_ExactDeviceRequest_To_%[1]s_ExactDeviceRequest: exampleRetries,\n"+
			"// which %[1]s lacks, goes to the stash.\n"+
			"func Convert_resource_ExactDeviceRequest_To_%[1]s_ExactDeviceRequest(in *hub.ExactDeviceRequest, out *%[2]s.ExactDeviceRequest, s conversion.Scope) error {\n"+
			"\treturn autoConvert_resource_ExactDeviceRequest_To_%[1]s_ExactDeviceRequest(in, out, s)\n}\n", version, alias)
		return append(append([]byte(nil), src...), fn...), nil
	}
}

// replaceOnce replaces old, which must be there once, with new.
func replaceOnce(old, new string) func(*token.FileSet, *ast.File, []byte) ([]byte, error) {
	return func(_ *token.FileSet, _ *ast.File, src []byte) ([]byte, error) {
		if bytes.Count(src, []byte(old)) != 1 {
			return nil, fmt.Errorf("%s is not there once", old)
		}
		return bytes.Replace(src, []byte(old), []byte(new), 1), nil
	}
}

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
	for _, ex := range fieldExamples {
		t.Run(ex.field, func(t *testing.T) {
			if ex.codegen && os.Getenv("DRAKIT_EXAMPLE_CODEGEN") != "1" && os.Getenv("DRAKIT_FUZZ_FULL") != "1" {
				// About a minute on two cores: CI's full run (hack/test.sh)
				// has it; a plain go test ./... keeps within its time.
				t.Skip("runs conversion-gen: only with DRAKIT_EXAMPLE_CODEGEN=1 or DRAKIT_FUZZ_FULL=1")
			}
			dir := t.TempDir()
			edited := editFiles(t, root, ex.steps)
			generated := map[string][]byte{}
			if ex.codegen {
				generated = regenerate(t, goTool, root, filepath.Join(dir, "module"), edited)
			}
			run := func(name string, files map[string][]byte) (string, error) {
				replace := map[string]string{}
				for file, data := range files {
					copyPath := filepath.Join(dir, name+"-"+strings.ReplaceAll(file, "/", "_"))
					if err := os.WriteFile(copyPath, data, 0o644); err != nil {
						t.Fatal(err)
					}
					replace[filepath.Join(root, filepath.FromSlash(file))] = copyPath
				}
				replace[filepath.Join(root, "conversion", "newfield_"+filepath.Base(ex.test))] = filepath.Join(root, "conversion", filepath.FromSlash(ex.test))
				data, err := json.Marshal(map[string]any{"Replace": replace})
				if err != nil {
					t.Fatal(err)
				}
				overlay := filepath.Join(dir, name+".json")
				if err := os.WriteFile(overlay, data, 0o644); err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command(goTool, "test", "-count=1", "-overlay="+overlay, "-run=^"+ex.run+"$", "./conversion")
				cmd.Dir = root
				out, err := cmd.CombinedOutput()
				return string(out), err
			}
			files := map[string][]byte{}
			for file, data := range edited {
				files[file] = data
			}
			for file, data := range generated {
				files[file] = data
			}

			// The steps done: every version carries the field.
			if out, err := run("field", files); err != nil {
				t.Fatalf("with the steps done, the field's test fails (%v):\n%s", err, out)
			}
			if testing.Short() {
				return
			}
			// A version that claims to say the field and does not loses
			// it, and the field's test says which.
			claimed := editFiles(t, root, append(append([]fieldStep{}, ex.steps...), ex.claimed))
			for file, data := range generated {
				claimed[file] = data
			}
			out, err := run("claimed", claimed)
			if err == nil || !strings.Contains(out, "--- FAIL: "+ex.run) || !strings.Contains(out, ex.claimedBy) {
				t.Errorf("with %s, want the field's test to fail saying %q; got (%v):\n%s", ex.claimed.step, ex.claimedBy, err, out)
			}
		})
	}
}

// editFiles makes the steps' edits, in order, to the module's files, and
// returns the edited files by their path in the module.
func editFiles(t *testing.T, root string, steps []fieldStep) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, s := range steps {
		src, ok := out[s.file]
		if !ok {
			var err error
			if src, err = os.ReadFile(filepath.Join(root, filepath.FromSlash(s.file))); err != nil {
				t.Fatal(err)
			}
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, s.file, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		edited, err := s.edit(fset, f, src)
		if err == nil {
			edited, err = format.Source(edited)
		}
		if err != nil {
			t.Fatalf("step %s, %s: %v; the file changed shape: update the step here and the checklist in docs/architecture.md", s.step, s.file, err)
		}
		out[s.file] = edited
	}
	return out
}

// regenerate is the step "hack/update-codegen.sh" for conversions: it
// copies what the generators read (the module's go.mod and go.sum, the
// header, apis and internal) to dir, writes the edited files over it, runs
// conversion-gen as the script does, and returns the generated files that
// changed, by their path in the module. (A scalar field changes no
// deep-copy, defaulter or OpenAPI code of the hub.)
func regenerate(t *testing.T, goTool, root, dir string, edited map[string][]byte) map[string][]byte {
	t.Helper()
	for _, top := range []string{"go.mod", "go.sum", "hack/boilerplate.go.txt", "apis", "internal"} {
		src := filepath.Join(root, filepath.FromSlash(top))
		err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return os.MkdirAll(filepath.Join(dir, rel), 0o755)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for file, data := range edited {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(file)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	versions, err := filepath.Glob(filepath.Join(dir, "apis", "resource", "v[0-9]*"))
	if err != nil {
		t.Fatal(err)
	}
	var pkgs, dirs []string
	for _, v := range append(versions, filepath.Join(dir, "apis", "resource", "v1alpha3", "kubeapi")) {
		rel, _ := filepath.Rel(dir, v)
		dirs = append(dirs, filepath.ToSlash(rel))
		pkgs = append(pkgs, "github.com/drakit/drakit/"+filepath.ToSlash(rel))
	}
	cmd := exec.Command(goTool, append([]string{"tool", "conversion-gen", "--go-header-file", "hack/boilerplate.go.txt",
		"--output-file", "zz_generated.conversion.go"}, pkgs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("step 3 (hack/update-codegen.sh): conversion-gen: %v\n%s", err, out)
	}
	out := map[string][]byte{}
	for _, d := range dirs {
		file := d + "/zz_generated.conversion.go"
		was, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		now, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(was, now) {
			out[file] = now
		}
	}
	if len(out) == 0 {
		t.Fatalf("step 3 (hack/update-codegen.sh): conversion-gen changed nothing; the example's field needs no generated code: drop the step")
	}
	return out
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
