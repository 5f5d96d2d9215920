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
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"testing"

	v1 "k8s.io/api/resource/v1"
	resourcev1alpha3 "k8s.io/api/resource/v1alpha3"
	"k8s.io/api/resource/v1beta1"
	"k8s.io/api/resource/v1beta2"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	sigsjson "sigs.k8s.io/json"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/install"
	"github.com/drakit/drakit/apis/resource/v1alpha1"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// release is one upstream k8s.io/api release and the kinds of a
// resource.k8s.io version that drakit has in that release's shape.
type release struct {
	module  string // k8s.io/api version
	gv      schema.GroupVersion
	sample  runtime.Object // any drakit type of the version, for its package path
	sources []string       // files of resource/<version> that declare the types
	// kinds are drakit's kinds of the version (without their Lists) that
	// are compared with this release; nil means all of them.
	kinds []string
	// foreign are the kinds of the version that this release has
	// fixtures for (in an older-release directory) in a shape drakit does
	// not have, with the reason. Their fixtures are not decoded.
	foreign map[string]string
	// kubeAPI marks a release whose types drakit registers directly (the
	// k8s.io/api of its own dependency line): there is no drakit copy
	// to compare, only the check that the scheme holds k8s.io/api's types.
	kubeAPI bool
}

// lateAlpha3 are the kinds drakit's v1alpha3 has in their 1.37 shape; its
// other kinds are 1.31's.
var lateAlpha3 = []string{"DeviceTaintRule", "ResourcePoolStatusRequest"}

const alpha3Shape = "1.32 and 1.33 served v1alpha3's DeviceClass, ResourceClaim, ResourceClaimTemplate and ResourceSlice in their own shape, which drakit does not have: drakit's are 1.31's and are compared with k8s.io/api v0.31.14"

var releases = []release{
	{module: "v0.26.15", gv: v1alpha1.SchemeGroupVersion, sample: &v1alpha1.ResourceClaim{}, sources: []string{"types.go"}},
	{module: "v0.30.14", gv: v1alpha2.SchemeGroupVersion, sample: &v1alpha2.ResourceClaim{}, sources: []string{"types.go", "namedresources.go"}},
	{
		module: "v0.31.14", gv: v1alpha3.SchemeGroupVersion, sample: &v1alpha3.ResourceClaim{}, sources: []string{"types.go"},
		kinds: []string{"DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "PodSchedulingContext", "ResourceSlice"},
	},
	{
		module: "v0.37.2", gv: v1alpha3.SchemeGroupVersion, sample: &resourcev1alpha3.DeviceTaintRule{}, sources: []string{"types.go"},
		kinds: lateAlpha3, kubeAPI: true,
		foreign: map[string]string{
			"DeviceClass":           alpha3Shape,
			"ResourceClaim":         alpha3Shape,
			"ResourceClaimTemplate": alpha3Shape,
			"ResourceSlice":         alpha3Shape,
		},
	},
	{module: "v0.37.2", gv: v1beta1.SchemeGroupVersion, sample: &v1beta1.ResourceClaim{}, sources: []string{"types.go"}, kubeAPI: true},
	{module: "v0.37.2", gv: v1beta2.SchemeGroupVersion, sample: &v1beta2.ResourceClaim{}, sources: []string{"types.go"}, kubeAPI: true},
	{module: "v0.37.2", gv: v1.SchemeGroupVersion, sample: &v1.ResourceClaim{}, sources: []string{"types.go"}, kubeAPI: true},
}

func (r release) name() string { return r.gv.Version + "@" + r.module }

// has tells whether kind (a List too) is one of the release's kinds.
func (r release) has(kind string) bool {
	if r.kinds == nil {
		return true
	}
	for _, k := range r.kinds {
		if kind == k || kind == k+"List" {
			return true
		}
	}
	return false
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

// packageKinds returns every kind the scheme has for gv whose Go type is
// in pkg, with its type.
func packageKinds(scheme *runtime.Scheme, gv schema.GroupVersion, pkg string) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for kind, t := range scheme.KnownTypes(gv) {
		if t.PkgPath() == pkg {
			out[kind] = t
		}
	}
	return out
}

// ownKinds returns the release's kinds (with their Lists) that the scheme
// has, with drakit's types.
func ownKinds(scheme *runtime.Scheme, r release) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for kind, t := range packageKinds(scheme, r.gv, reflect.TypeOf(r.sample).Elem().PkgPath()) {
		if r.has(kind) {
			out[kind] = t
		}
	}
	return out
}

// requireKubeAPITypes checks a release whose types drakit takes from
// k8s.io/api: the scheme registers the release's kinds with the Go types
// of k8s.io/api/resource/<version>, and the k8s.io/api this module builds
// with is the release's.
func requireKubeAPITypes(t *testing.T, scheme *runtime.Scheme, r release) {
	t.Helper()
	want := "k8s.io/api/resource/" + r.gv.Version
	kinds := ownKinds(scheme, r)
	if len(kinds) == 0 {
		t.Fatalf("the scheme has no kind of %s in %s", r.gv, want)
	}
	for kind, typ := range scheme.KnownTypes(r.gv) {
		if r.has(kind) && strings.HasPrefix(typ.PkgPath(), "github.com/drakit/") {
			t.Errorf("%s %s is drakit's %s.%s, want k8s.io/api's type (%s)", r.gv, kind, typ.PkgPath(), typ.Name(), want)
		}
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("no build information to read k8s.io/api's version from")
	}
	for _, dep := range info.Deps {
		if dep.Path == "k8s.io/api" && dep.Version != r.module {
			t.Errorf("this module builds with k8s.io/api %s, the release is %s", dep.Version, r.module)
		}
	}
}

// TestEveryKindCompared requires every kind of every version drakit
// serves to be compared with exactly one upstream release, and every
// listed kind to exist.
func TestEveryKindCompared(t *testing.T) {
	scheme := newScheme()
	for _, v := range catalogue.Versions {
		gv := v.GroupVersion()
		var rs []release
		for _, r := range releases {
			if r.gv == gv {
				rs = append(rs, r)
			}
		}
		if len(rs) == 0 {
			t.Errorf("%s: no upstream release to compare it with", gv)
			continue
		}
		for _, k := range v.Kinds {
			var in []string
			for _, r := range rs {
				if r.has(k.Name) {
					in = append(in, r.module)
				}
			}
			if len(in) != 1 {
				t.Errorf("%s %s is compared with %d releases %v, want exactly one", gv, k.Name, len(in), in)
			}
		}
		for _, r := range rs {
			kinds := ownKinds(scheme, r)
			for _, k := range r.kinds {
				if kinds[k] == nil {
					t.Errorf("%s: drakit has no kind %s", r.name(), k)
				}
			}
		}
	}
}

// fixture is one object of the round-trip suite: <dir>/<group>.<version>.<kind>.<format>.
type fixture struct {
	dir, kind, format string
	path              string
	after             string // the .after_roundtrip file beside it, if upstream has one
}

// fixtures lists the round-trip fixtures of r's version, in every
// directory (HEAD and the older releases), by directory and kind. A
// file that fits no pattern fails the test.
func fixtures(t *testing.T, moduleDir string, r release) []fixture {
	t.Helper()
	prefix := "resource.k8s.io." + r.gv.Version + "."
	files, err := filepath.Glob(filepath.Join(moduleDir, "testdata", "*", prefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []fixture
	after := map[string]bool{}
	for _, f := range files {
		base := strings.TrimPrefix(filepath.Base(f), prefix)
		dir := filepath.Base(filepath.Dir(f))
		kind, format, ok := strings.Cut(base, ".")
		switch {
		case !ok || strings.Contains(format, "/"):
			t.Fatalf("unexpected fixture %s", f)
		case format == "pb" || format == "after_roundtrip.pb":
			// drakit has no protobuf encoding.
		case format == "json" || format == "yaml":
			fx := fixture{dir: dir, kind: kind, format: format, path: f}
			a := filepath.Join(filepath.Dir(f), prefix+kind+".after_roundtrip."+format)
			if _, err := os.Stat(a); err == nil {
				fx.after = a
				after[a] = true
			}
			out = append(out, fx)
		case format == "after_roundtrip.json" || format == "after_roundtrip.yaml":
		default:
			t.Fatalf("unexpected fixture %s", f)
		}
	}
	for _, f := range files {
		if strings.Contains(filepath.Base(f), ".after_roundtrip.") && !strings.HasSuffix(f, ".pb") && !after[f] {
			t.Errorf("%s has no fixture beside it", f)
		}
	}
	return out
}

// decode reads a JSON or YAML fixture into obj as the API machinery's
// serializers do (YAML is turned into JSON first), but strictly: the
// unknown and duplicate fields are returned.
func decode(format string, data []byte, obj runtime.Object) ([]error, error) {
	if format == "yaml" {
		j, err := sigsyaml.YAMLToJSON(data)
		if err != nil {
			return nil, err
		}
		data = j
	} else {
		// Compact first: embedded RawExtensions keep the indentation.
		var c bytes.Buffer
		if err := json.Compact(&c, data); err != nil {
			return nil, err
		}
		data = c.Bytes()
	}
	return sigsjson.UnmarshalStrict(data, obj, sigsjson.DisallowDuplicateFields, sigsjson.DisallowUnknownFields)
}

// encode writes obj as the API machinery's serializers do, and the
// fixture's bytes in the same form: JSON compact (the suite writes it
// indented, which says nothing about the types), YAML as it is.
func encode(t *testing.T, format string, obj runtime.Object, fixture []byte) (got, want []byte) {
	t.Helper()
	j, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	if format == "json" {
		var c bytes.Buffer
		if err := json.Compact(&c, fixture); err != nil {
			t.Fatal(err)
		}
		return j, c.Bytes()
	}
	y, err := sigsyaml.JSONToYAML(j)
	if err != nil {
		t.Fatal(err)
	}
	return y, fixture
}

// TestUpstreamFixtures decodes every upstream round-trip fixture of the
// release's kinds (JSON and YAML, HEAD and the older releases'
// directories) strictly into drakit's type and checks that encoding it
// again gives the same bytes, or those of the after_roundtrip file where
// upstream has one: an object written by an older release may hold
// fields that the release no longer has (decoding drops them; they are
// logged) or lack fields that are written now. The after_roundtrip file
// itself must decode strictly and re-encode identically. The JSON and
// YAML forms of a fixture must decode to the same object.
func TestUpstreamFixtures(t *testing.T) {
	scheme := newScheme()
	for _, r := range releases {
		t.Run(r.name(), func(t *testing.T) {
			fxs := fixtures(t, moduleDir(t, r.module), r)
			seen := map[string]bool{}
			foreignSeen := map[string]bool{}
			decoded := map[string]runtime.Object{} // dir/kind -> JSON-decoded object
			count := map[string]int{}
			for _, fx := range fxs {
				if !r.has(fx.kind) {
					if _, ok := r.foreign[fx.kind]; ok {
						foreignSeen[fx.kind] = true
						t.Logf("not decoded: %s/%s.%s (%s)", fx.dir, fx.kind, fx.format, r.foreign[fx.kind])
						continue
					}
					if _, err := scheme.New(r.gv.WithKind(fx.kind)); err == nil {
						t.Errorf("fixture %s/%s.%s is of drakit kind %s, which this release does not compare", fx.dir, fx.kind, fx.format, fx.kind)
					} else {
						t.Errorf("fixture %s/%s.%s: drakit has no kind %s in %s", fx.dir, fx.kind, fx.format, fx.kind, r.gv)
					}
					continue
				}
				if fx.dir == "HEAD" {
					seen[fx.kind] = true
				}
				count[fx.dir+" "+fx.format]++
				t.Run(fx.dir+"/"+fx.kind+"."+fx.format, func(t *testing.T) {
					obj := roundTrip(t, scheme, r, fx)
					if obj == nil {
						return
					}
					key := fx.dir + "/" + fx.kind
					if other, ok := decoded[key]; ok {
						if !apiequality.Semantic.DeepEqual(other, obj) {
							t.Errorf("the JSON and YAML fixtures decode to different objects")
						}
					} else {
						decoded[key] = obj
					}
				})
			}
			for _, k := range names(count) {
				t.Logf("%s: %d fixtures decoded", k, count[k])
			}
			for kind := range ownKinds(scheme, r) {
				if !strings.HasSuffix(kind, "List") && !seen[kind] {
					t.Errorf("upstream has no HEAD fixture for drakit kind %s", kind)
				}
			}
			for kind := range r.foreign {
				if !foreignSeen[kind] {
					t.Errorf("foreign kind %s has no fixture: remove it from the list", kind)
				}
			}
		})
	}
}

// roundTrip decodes one fixture and checks its re-encoding. It returns
// the decoded object, or nil when it could not be decoded.
func roundTrip(t *testing.T, scheme *runtime.Scheme, r release, fx fixture) runtime.Object {
	data, err := os.ReadFile(fx.path)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := scheme.New(r.gv.WithKind(fx.kind))
	if err != nil {
		t.Fatalf("drakit has no kind %s in %s: %v", fx.kind, r.gv, err)
	}
	strictErrs, err := decode(fx.format, data, obj)
	if err != nil {
		t.Fatalf("decoding: %v", err)
	}
	want := data
	if fx.after != "" {
		if want, err = os.ReadFile(fx.after); err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(want, data) {
			t.Errorf("%s is identical to the fixture", filepath.Base(fx.after))
		}
		for _, e := range strictErrs {
			t.Logf("dropped as upstream's after_roundtrip file does: %v", e)
		}
	} else if len(strictErrs) > 0 {
		t.Errorf("strict decoding: %v", strictErrs)
	}
	got, wantBytes := encode(t, fx.format, obj, want)
	if !bytes.Equal(got, wantBytes) {
		wantName := filepath.Base(fx.path)
		if fx.after != "" {
			wantName = filepath.Base(fx.after)
		}
		t.Errorf("re-encoding differs from %s:\n got: %s\nwant: %s", wantName, got, wantBytes)
	}
	if fx.after != "" {
		again, err := scheme.New(r.gv.WithKind(fx.kind))
		if err != nil {
			t.Fatal(err)
		}
		strictErrs, err := decode(fx.format, want, again)
		if err != nil || len(strictErrs) > 0 {
			t.Fatalf("decoding %s: %v %v", filepath.Base(fx.after), err, strictErrs)
		}
		if got, wantBytes := encode(t, fx.format, again, want); !bytes.Equal(got, wantBytes) {
			t.Errorf("re-encoding %s differs:\n got: %s\nwant: %s", filepath.Base(fx.after), got, wantBytes)
		}
	}
	return obj
}

// field is one struct field: its name (the type name for an embedded
// field), its type written with full import paths, and its struct tag.
type field struct {
	name     string
	typ      string
	tag      map[string]string
	embedded bool
}

// knownDifference is a difference between a drakit and an upstream
// struct tag that changes nothing on the wire.
type knownDifference struct {
	what, why string
	// matches tells whether the difference between upstream's field u
	// and drakit's o is this one, and nothing more.
	matches func(u, o field) bool
}

var knownDifferences = []knownDifference{{
	what: `embedded field: drakit json:",inline", upstream json:""`,
	why: `k8s.io/api v0.37 writes json:"" on embedded fields (TypeMeta, DeviceConfiguration) where v0.33 and older wrote json:",inline", as drakit ` +
		`does. Both tags give the field no JSON name, so encoding/json, json-iterator and sigs.k8s.io/json inline the embedded struct either way ` +
		`("inline" is no option they know), so the wire is the same, as the fixture round trips check`,
	matches: func(u, o field) bool {
		if !u.embedded || !o.embedded || u.tag["json"] != "" || o.tag["json"] != ",inline" {
			return false
		}
		rest := func(tag map[string]string) map[string]string {
			out := map[string]string{}
			for k, v := range tag {
				if k != "json" {
					out[k] = v
				}
			}
			return out
		}
		return reflect.DeepEqual(rest(u.tag), rest(o.tag))
	},
}}

// decl is a named type: the fields of a struct, or the underlying type.
type decl struct {
	isStruct   bool
	fields     []field
	underlying string
	refs       []string // the unqualified type names the declaration uses (upstream's only)
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
		var refs []string
		var typeString func(e ast.Expr) string
		typeString = func(e ast.Expr) string {
			switch x := e.(type) {
			case *ast.Ident:
				refs = append(refs, x.Name)
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
				if _, dup := out[ts.Name.Name]; dup {
					t.Fatalf("%s: type %s is declared twice", fset.Position(ts.Pos()), ts.Name.Name)
				}
				refs = nil
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					out[ts.Name.Name] = decl{underlying: typeString(ts.Type), refs: refs}
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
						fields = append(fields, field{name: n, typ: typ, tag: parseTag(t, tag), embedded: len(f.Names) == 0})
					}
				}
				out[ts.Name.Name] = decl{isStruct: true, fields: fields, refs: refs}
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
			d.fields = append(d.fields, field{name: f.Name, typ: typeString(f.Type), tag: parseTag(t, string(f.Tag)), embedded: f.Anonymous})
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

// reachable returns the names of the upstream declarations that the
// kinds use, directly or through other declarations.
func reachable(up map[string]decl, kinds map[string]reflect.Type) map[string]bool {
	out := map[string]bool{}
	var visit func(string)
	visit = func(name string) {
		d, ok := up[name]
		if !ok || out[name] {
			return
		}
		out[name] = true
		for _, r := range d.refs {
			visit(r)
		}
	}
	for kind := range kinds {
		visit(kind)
	}
	return out
}

// TestUpstreamTypes compares every type of the release's kinds with
// upstream's declaration: field names and order, field types and the
// complete struct tags. Every upstream type the kinds use must be
// drakit's, and every drakit type they use must be upstream's. A type
// that upstream declares but no kind uses (v0.37's v1alpha3 keeps
// DeviceSelector after DeviceTaintSelector lost its selectors) must
// still be in drakit's package, used by its other kinds, and is compared
// too.
func TestUpstreamTypes(t *testing.T) {
	scheme := newScheme()
	for _, r := range releases {
		t.Run(r.name(), func(t *testing.T) {
			if r.kubeAPI {
				requireKubeAPITypes(t, scheme, r)
				return
			}
			dir := filepath.Join(moduleDir(t, r.module), "resource", r.gv.Version)
			up := upstreamDecls(t, dir, r.sources)
			pkg := reflect.TypeOf(r.sample).Elem().PkgPath()
			kinds := ownKinds(scheme, r)
			if len(up) == 0 || len(kinds) == 0 {
				t.Fatalf("nothing to compare: %d upstream types, %d drakit kinds", len(up), len(kinds))
			}
			ours := drakitDecls(t, kinds, pkg)
			wholePackage := drakitDecls(t, packageKinds(scheme, r.gv, pkg), pkg)
			used := reachable(up, kinds)
			compare := map[string]bool{}
			for _, name := range names(up) {
				switch _, ok := ours[name]; {
				case ok:
					compare[name] = true
				case used[name]:
					t.Errorf("type %s of upstream is not used by any drakit %s kind", name, r.name())
				case wholePackage[name].isStruct || wholePackage[name].underlying != "":
					t.Logf("type %s is declared upstream but used by none of its kinds; drakit's (used by its other kinds) is compared", name)
					compare[name] = true
				default:
					t.Errorf("type %s of upstream is not in drakit's %s", name, r.gv.Version)
				}
			}
			for _, name := range names(ours) {
				if _, ok := up[name]; !ok {
					t.Errorf("drakit type %s does not exist upstream", name)
				}
			}
			t.Logf("comparing %d upstream types (%d used by the kinds) with %d drakit types", len(compare), len(used), len(ours))
			known := map[int][]string{}
			defer func() {
				for k, fields := range known {
					t.Logf("known difference (%s) in %d fields %v: %s", knownDifferences[k].what, len(fields), fields, knownDifferences[k].why)
				}
			}()
			for _, name := range names(compare) {
				u, o := up[name], wholePackage[name]
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
					if uf.embedded != of.embedded {
						t.Errorf("%s.%s: embedded upstream %v, drakit %v", name, uf.name, uf.embedded, of.embedded)
					}
					if !reflect.DeepEqual(uf.tag, of.tag) {
						if k := whichKnown(uf, of); k >= 0 {
							known[k] = append(known[k], name+"."+uf.name)
						} else {
							t.Errorf("%s.%s: upstream tag %v, drakit %v", name, uf.name, uf.tag, of.tag)
						}
					}
				}
			}
		})
	}
}

// whichKnown returns the index of the known difference between
// upstream's field u and drakit's o, or -1.
func whichKnown(u, o field) int {
	for i, k := range knownDifferences {
		if k.matches(u, o) {
			return i
		}
	}
	return -1
}

func fieldNames(fs []field) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.name)
	}
	return out
}
