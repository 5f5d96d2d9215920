package repocheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// No live identifier carries a Kubernetes release: when drakit follows a
// new release, the code that follows it is edited, not renamed, and a name
// such as fooV137 or release131Rules would be wrong the day after (or would
// hide which rules are frozen). Versions are not releases: v1alpha3 and
// validateDeviceRequestV1alpha3 name an API version, and the frozen rules
// of 1.26, 1.30 and 1.31 carry their release only in their file names
// (apis/resource/validation/rules126.go, ...), their identifiers carry the
// version.
//
// Checked: every name declared in a Go file of the main module (functions,
// methods, types, constants, variables, fields, parameters, locals, labels,
// import names), tests included, and every Go file name, in the main
// module and in the modules of their own under hack/ (suites against
// upstream modules and real API servers): a suite's names outlive the
// release it first ran against as much as the library's do. Left out:
//   - generated files (their names come from the API: ast.IsGenerated);
//   - testdata and vendor directories (not Go code of a module);
//   - directory names: hack/e2e/apiserver-1.30 is the module that builds
//     the 1.30 server, a past release that stays what it is.

// releaseInName finds a Kubernetes release in a name: 1.20 to 1.49 written
// without the dot (137, not 1370 or 37), with an underscore (1_37), or two
// digits after a word that says release (release37, minor31, k8s37).
var releaseInName = regexp.MustCompile(`(?:^|[^0-9])1_?[2-4][0-9](?:[^0-9]|$)|(?i:release|minor|kube|k8s|kubernetes)_?[2-4][0-9](?:[^0-9]|$)`)

// allowedNames are the names that carry a release and may: each names a
// past release that is the subject of a test, which no later release
// changes (a fake cluster of 1.30 stays one), not the release drakit
// follows. A name of the release drakit follows is never allowed.
var allowedNames = map[string]string{
	// hubclient's discovery fixtures: what a cluster of each past release
	// serves.
	"served126":      "hubclient: the discovery of a 1.26 cluster",
	"served130":      "hubclient: the discovery of a 1.30 cluster",
	"served133":      "hubclient: the discovery of a 1.33 cluster",
	"served133beta2": "hubclient: a 1.33 cluster with only v1beta2 served",
	// The CLI against fake clusters of past releases.
	"TestLive130":         "cmd/drakit: a fake 1.30 cluster",
	"TestLiveValidate133": "cmd/drakit: validation against a fake 1.33 cluster",
	"TestLiveGates133":    "cmd/drakit: a fake 1.33 cluster's default gates",
}

// frozenRulesFile is the one form of Go file name that carries a release:
// the frozen rules of a past release and their tests.
var frozenRulesFile = regexp.MustCompile(`^apis/resource/validation/rules1[0-9][0-9](_test)?\.go$`)

// moduleRoot is the directory of the main module's go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			if !strings.HasPrefix(string(data), "module github.com/drakit/drakit\n") {
				t.Skipf("%s is not drakit's main module (vendored?)", dir)
			}
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the package: not in drakit's source tree")
		}
		dir = parent
	}
}

// moduleGoFiles are the Go files of the repository under root (the main
// module's and those of the modules under it), as paths relative to root
// with slashes, and the directories of the modules under root.
func moduleGoFiles(t *testing.T, root string) (files, otherModules []string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					otherModules = append(otherModules, rel)
				}
			}
			return nil
		}
		if strings.HasSuffix(rel, ".go") {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, otherModules
}

// declaredNames are the names n declares.
func declaredNames(n ast.Node) []*ast.Ident {
	switch d := n.(type) {
	case *ast.FuncDecl:
		return []*ast.Ident{d.Name}
	case *ast.TypeSpec:
		return []*ast.Ident{d.Name}
	case *ast.ValueSpec:
		return d.Names
	case *ast.Field:
		return d.Names
	case *ast.ImportSpec:
		if d.Name != nil {
			return []*ast.Ident{d.Name}
		}
	case *ast.LabeledStmt:
		return []*ast.Ident{d.Label}
	case *ast.AssignStmt:
		if d.Tok == token.DEFINE {
			return identsOf(d.Lhs...)
		}
	case *ast.RangeStmt:
		if d.Tok == token.DEFINE {
			return identsOf(d.Key, d.Value)
		}
	}
	return nil
}

func identsOf(exprs ...ast.Expr) []*ast.Ident {
	var ids []*ast.Ident
	for _, e := range exprs {
		if id, ok := e.(*ast.Ident); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// namesWithRelease returns, for a parsed file, "file:line: name" for each
// declared name that carries a release and is not allowed, and the allowed
// names it declares.
func namesWithRelease(fset *token.FileSet, f *ast.File, allowed map[string]string) (bad []string, used []string) {
	ast.Inspect(f, func(n ast.Node) bool {
		for _, id := range declaredNames(n) {
			if !releaseInName.MatchString(id.Name) {
				continue
			}
			if allowed[id.Name] != "" {
				used = append(used, id.Name)
				continue
			}
			pos := fset.Position(id.Pos())
			bad = append(bad, pos.Filename+":"+strconv.Itoa(pos.Line)+": "+id.Name)
		}
		return true
	})
	return bad, used
}

// TestNoReleaseInNames: no name declared in the main module and no Go file
// name carries a release, but the allowed ones above.
func TestNoReleaseInNames(t *testing.T) {
	root := moduleRoot(t)
	files, others := moduleGoFiles(t, root)
	if len(files) < 100 {
		t.Fatalf("found only %d Go files under %s: is the walk wrong?", len(files), root)
	}
	t.Logf("%d Go files, with those of the modules %s", len(files), strings.Join(others, ", "))
	if !slices.Contains(others, "hack/e2e") {
		t.Fatalf("the walk found no module at hack/e2e (found %v): is it wrong?", others)
	}
	fset := token.NewFileSet()
	used := map[string]bool{}
	var bad []string
	for _, rel := range files {
		if releaseInName.MatchString(filepath.Base(rel)) && !frozenRulesFile.MatchString(rel) {
			bad = append(bad, rel+": the file name carries a release (only the frozen rules' files do)")
		}
		f, err := parser.ParseFile(fset, filepath.Join(root, filepath.FromSlash(rel)), nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if ast.IsGenerated(f) {
			continue
		}
		b, u := namesWithRelease(fset, f, allowedNames)
		for _, name := range u {
			used[name] = true
		}
		for _, line := range b {
			bad = append(bad, strings.TrimPrefix(line, root+string(filepath.Separator)))
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s carries a Kubernetes release; name what it is, not when (see internal/repocheck/names_test.go)", b)
	}
	// An allowance nothing uses any more is removed, so that the list
	// stays the list of exceptions there are.
	for name := range allowedNames {
		if !used[name] {
			t.Errorf("allowedNames lists %s, which no file declares any more; remove it", name)
		}
	}
}

// TestReleaseInNameFindsReleases: the pattern finds the ways a release is
// written into a name, and leaves versions and other numbers alone.
func TestReleaseInNameFindsReleases(t *testing.T) {
	for _, name := range []string{"fooV137", "release131Rules", "rules126", "TestDefaults137", "listParams137", "v137", "served1_30", "minor37Defaults", "Release31", "k8s37", "gates131", "in137"} {
		if !releaseInName.MatchString(name) {
			t.Errorf("%s: no release found", name)
		}
	}
	for _, name := range []string{"V1alpha2", "validateDeviceRequestV1alpha3", "v1beta2", "int32", "uint64", "DNS1123Label", "RFC3339Nano", "sha256", "BenchmarkImpossibleCounters1000", "gpu1", "numa7", "make32Selectors", "base64", "v2Document", "utf16", "maxRequests32"} {
		if releaseInName.MatchString(name) {
			t.Errorf("%s: a release found where there is none", name)
		}
	}
}

// TestNamesWithReleaseReportsDeclarations: each kind of declaration with a
// release in its name is reported, uses of names declared elsewhere are
// not, and an allowed name is counted as used.
func TestNamesWithReleaseReportsDeclarations(t *testing.T) {
	const src = `package p

import k8s137 "example.com/x"

type rules131 struct{ fieldV137 int }

const defaults137 = 1

var served130 = 2

func release131Rules(param137 int) (result137 int) {
	local137 := k8s137.Thing137
	for i137 := range 3 {
		_ = i137
	}
loop137:
	for {
		break loop137
	}
	return local137
}

func (r rules131) method137() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	bad, used := namesWithRelease(fset, f, map[string]string{"served130": "a test's reason"})
	var names []string
	for _, b := range bad {
		names = append(names, b[strings.LastIndex(b, " ")+1:])
	}
	want := []string{"k8s137", "rules131", "fieldV137", "defaults137", "release131Rules", "param137", "result137", "local137", "i137", "loop137", "method137"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("reported %v, want %v (Thing137 is a use, served130 allowed)", names, want)
	}
	if len(used) != 1 || used[0] != "served130" {
		t.Errorf("allowed names used: %v, want [served130]", used)
	}
}
