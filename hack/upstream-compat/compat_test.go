package upstreamcompat

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	sigsjson "sigs.k8s.io/json"

	"github.com/drakit/drakit/apis/resource/install"
	"github.com/drakit/drakit/apis/resource/v1alpha1"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// release is one upstream k8s.io/api release and the resource.k8s.io
// version it served.
type release struct {
	module  string // k8s.io/api version
	gv      schema.GroupVersion
	sample  runtime.Object // any drakit type of the version, for its package path
	sources []string       // files of resource/<version> that declare the types
}

var releases = []release{
	{"v0.26.15", v1alpha1.SchemeGroupVersion, &v1alpha1.ResourceClaim{}, []string{"types.go"}},
	{"v0.30.14", v1alpha2.SchemeGroupVersion, &v1alpha2.ResourceClaim{}, []string{"types.go", "namedresources.go"}},
	{"v0.31.14", v1alpha3.SchemeGroupVersion, &v1alpha3.ResourceClaim{}, []string{"types.go"}},
}

func newScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	return scheme
}

// moduleDir returns the directory of k8s.io/api@version, downloading it
// through the module proxy if it is not in the module cache yet.
func moduleDir(t *testing.T, version string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", "k8s.io/api@"+version)
	// Run outside of any module, so that nothing here is changed.
	cmd.Dir = t.TempDir()
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOFLAGS=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || err != nil || info.Error != "" || info.Dir == "" {
		t.Fatalf("go mod download k8s.io/api@%s: %v %s %s %s", version, err, info.Error, stderr.Bytes(), out)
	}
	return info.Dir
}

// ownKinds returns the kinds the scheme has for r.gv whose Go type is
// drakit's, with their types.
func ownKinds(scheme *runtime.Scheme, r release) map[string]reflect.Type {
	pkg := reflect.TypeOf(r.sample).Elem().PkgPath()
	out := map[string]reflect.Type{}
	for kind, t := range scheme.KnownTypes(r.gv) {
		if t.PkgPath() == pkg {
			out[kind] = t
		}
	}
	return out
}

// TestUpstreamFixtures decodes every upstream round-trip fixture of the
// version strictly into drakit's type and checks that encoding it again
// gives the same bytes.
func TestUpstreamFixtures(t *testing.T) {
	scheme := newScheme()
	for _, r := range releases {
		t.Run(r.gv.Version, func(t *testing.T) {
			dir := moduleDir(t, r.module)
			files, err := filepath.Glob(filepath.Join(dir, "testdata", "HEAD", "resource.k8s.io."+r.gv.Version+".*.json"))
			if err != nil {
				t.Fatal(err)
			}
			if len(files) == 0 {
				t.Fatalf("no %s fixtures in %s", r.gv.Version, dir)
			}
			seen := map[string]bool{}
			for _, f := range files {
				kind := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "resource.k8s.io."+r.gv.Version+"."), ".json")
				seen[kind] = true
				t.Run(kind, func(t *testing.T) {
					data, err := os.ReadFile(f)
					if err != nil {
						t.Fatal(err)
					}
					obj, err := scheme.New(r.gv.WithKind(kind))
					if err != nil {
						t.Fatalf("drakit has no kind %s in %s: %v", kind, r.gv, err)
					}
					strictErrs, err := sigsjson.UnmarshalStrict(data, obj, sigsjson.DisallowDuplicateFields, sigsjson.DisallowUnknownFields)
					if err != nil {
						t.Fatalf("decoding: %v", err)
					}
					if len(strictErrs) > 0 {
						t.Fatalf("strict decoding: %v", strictErrs)
					}
					var want bytes.Buffer
					if err := json.Compact(&want, data); err != nil {
						t.Fatal(err)
					}
					got, err := json.Marshal(obj)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want.Bytes()) {
						t.Errorf("re-encoding differs from the fixture:\n got: %s\nwant: %s", got, want.Bytes())
					}
				})
			}
			for kind := range ownKinds(scheme, r) {
				if !strings.HasSuffix(kind, "List") && !seen[kind] {
					t.Errorf("upstream has no fixture for drakit kind %s", kind)
				}
			}
		})
	}
}

// field is one struct field: its name (the type name for an embedded
// field), its type written with full import paths, and its struct tag.
type field struct {
	name string
	typ  string
	tag  map[string]string
}

// decl is a named type: the fields of a struct, or the underlying type.
type decl struct {
	isStruct   bool
	fields     []field
	underlying string
}

// parseTag splits a struct tag into its key:"value" pairs.
func parseTag(t *testing.T, tag string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for tag = strings.TrimSpace(tag); tag != ""; tag = strings.TrimSpace(tag) {
		key, rest, ok := strings.Cut(tag, ":")
		if !ok || len(rest) == 0 || rest[0] != '"' {
			t.Fatalf("malformed struct tag %q", tag)
		}
		end := 1
		for end < len(rest) && rest[end] != '"' {
			if rest[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(rest) {
			t.Fatalf("malformed struct tag %q", tag)
		}
		value, err := strconv.Unquote(rest[:end+1])
		if err != nil {
			t.Fatalf("malformed struct tag %q: %v", tag, err)
		}
		if _, dup := out[key]; dup {
			t.Fatalf("struct tag %q repeats %s", tag, key)
		}
		out[key] = value
		tag = rest[end+1:]
	}
	return out
}

// upstreamDecls parses the type declarations of the given upstream files.
func upstreamDecls(t *testing.T, dir string, files []string) map[string]decl {
	t.Helper()
	out := map[string]decl{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		imports := map[string]string{}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			alias := path.Base(p)
			if imp.Name != nil {
				alias = imp.Name.Name
			}
			imports[alias] = p
		}
		var typeString func(e ast.Expr) string
		typeString = func(e ast.Expr) string {
			switch x := e.(type) {
			case *ast.Ident:
				return x.Name
			case *ast.SelectorExpr:
				return imports[x.X.(*ast.Ident).Name] + "." + x.Sel.Name
			case *ast.StarExpr:
				return "*" + typeString(x.X)
			case *ast.ArrayType:
				if x.Len != nil {
					t.Fatalf("%s: arrays are not expected", fset.Position(x.Pos()))
				}
				return "[]" + typeString(x.Elt)
			case *ast.MapType:
				return "map[" + typeString(x.Key) + "]" + typeString(x.Value)
			}
			t.Fatalf("%s: unexpected type expression %T", fset.Position(e.Pos()), e)
			return ""
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					out[ts.Name.Name] = decl{underlying: typeString(ts.Type)}
					continue
				}
				var fields []field
				for _, f := range st.Fields.List {
					tag := ""
					if f.Tag != nil {
						tag, _ = strconv.Unquote(f.Tag.Value)
					}
					typ := typeString(f.Type)
					names := []string{}
					for _, n := range f.Names {
						names = append(names, n.Name)
					}
					if len(names) == 0 { // embedded: the field is named after its type
						names = []string{typ[strings.LastIndex(typ, ".")+1:]}
					}
					for _, n := range names {
						fields = append(fields, field{name: n, typ: typ, tag: parseTag(t, tag)})
					}
				}
				out[ts.Name.Name] = decl{isStruct: true, fields: fields}
			}
		}
	}
	return out
}

// drakitDecls collects, by reflection, every named type of drakit's
// version package that the kinds of the version use.
func drakitDecls(t *testing.T, kinds map[string]reflect.Type, pkg string) map[string]decl {
	t.Helper()
	var typeString func(reflect.Type) string
	typeString = func(rt reflect.Type) string {
		if rt.Name() != "" {
			if rt.PkgPath() == "" || rt.PkgPath() == pkg {
				return rt.Name()
			}
			return rt.PkgPath() + "." + rt.Name()
		}
		switch rt.Kind() {
		case reflect.Pointer:
			return "*" + typeString(rt.Elem())
		case reflect.Slice:
			return "[]" + typeString(rt.Elem())
		case reflect.Map:
			return "map[" + typeString(rt.Key()) + "]" + typeString(rt.Elem())
		}
		t.Fatalf("unexpected type %v", rt)
		return ""
	}
	out := map[string]decl{}
	var visit func(reflect.Type)
	visit = func(rt reflect.Type) {
		switch rt.Kind() {
		case reflect.Pointer, reflect.Slice:
			visit(rt.Elem())
			return
		case reflect.Map:
			visit(rt.Key())
			visit(rt.Elem())
			return
		}
		if rt.PkgPath() != pkg {
			return
		}
		if _, done := out[rt.Name()]; done {
			return
		}
		if rt.Kind() != reflect.Struct {
			out[rt.Name()] = decl{underlying: rt.Kind().String()}
			return
		}
		d := decl{isStruct: true}
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			d.fields = append(d.fields, field{name: f.Name, typ: typeString(f.Type), tag: parseTag(t, string(f.Tag))})
		}
		out[rt.Name()] = d
		for i := 0; i < rt.NumField(); i++ {
			visit(rt.Field(i).Type)
		}
	}
	for _, rt := range kinds {
		visit(rt)
	}
	return out
}

func names[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestUpstreamTypes compares every type of the version with upstream's
// declaration: field names and order, field types and the complete
// struct tags.
func TestUpstreamTypes(t *testing.T) {
	scheme := newScheme()
	for _, r := range releases {
		t.Run(r.gv.Version, func(t *testing.T) {
			dir := filepath.Join(moduleDir(t, r.module), "resource", r.gv.Version)
			up := upstreamDecls(t, dir, r.sources)
			pkg := reflect.TypeOf(r.sample).Elem().PkgPath()
			kinds := ownKinds(scheme, r)
			if len(up) == 0 || len(kinds) == 0 {
				t.Fatalf("nothing to compare: %d upstream types, %d drakit kinds", len(up), len(kinds))
			}
			ours := drakitDecls(t, kinds, pkg)
			t.Logf("comparing %d upstream types with %d drakit types", len(up), len(ours))
			for _, name := range names(up) {
				if _, ok := ours[name]; !ok {
					t.Errorf("type %s of upstream is not used by any drakit %s kind", name, r.gv.Version)
				}
			}
			for _, name := range names(ours) {
				u, ok := up[name]
				if !ok {
					t.Errorf("drakit type %s does not exist upstream", name)
					continue
				}
				o := ours[name]
				if u.isStruct != o.isStruct || u.underlying != o.underlying {
					t.Errorf("type %s: upstream is %q (struct %v), drakit %q (struct %v)", name, u.underlying, u.isStruct, o.underlying, o.isStruct)
					continue
				}
				if len(u.fields) != len(o.fields) {
					t.Errorf("type %s: upstream has %d fields %v, drakit %d %v", name, len(u.fields), fieldNames(u.fields), len(o.fields), fieldNames(o.fields))
					continue
				}
				for i := range u.fields {
					uf, of := u.fields[i], o.fields[i]
					if uf.name != of.name {
						t.Errorf("type %s field %d: upstream %s, drakit %s", name, i, uf.name, of.name)
						continue
					}
					if uf.typ != of.typ {
						t.Errorf("%s.%s: upstream type %s, drakit %s", name, uf.name, uf.typ, of.typ)
					}
					if !reflect.DeepEqual(uf.tag, of.tag) {
						t.Errorf("%s.%s: upstream tag %v, drakit %v", name, uf.name, uf.tag, of.tag)
					}
				}
			}
		})
	}
}

func fieldNames(fs []field) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.name)
	}
	return out
}
