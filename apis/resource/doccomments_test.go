package resource

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestHubDocComments requires a doc comment on every exported type of the
// hub and on every exported field of its structs (embedded ones included),
// beginning with the name it documents, in every hand-written file of the
// package. The comments are where the hub says what a field means, whether
// it is legacy and which versions can say it.
func TestHubDocComments(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	types, fields := 0, 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "zz_generated") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				if !ts.Name.IsExported() {
					continue
				}
				types++
				doc := ts.Doc
				if doc == nil && !gd.Lparen.IsValid() {
					doc = gd.Doc
				}
				checkDoc(t, fset, ts.Pos(), "type "+ts.Name.Name, ts.Name.Name, doc)
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, field := range st.Fields.List {
					for _, fieldName := range exportedNames(field) {
						fields++
						checkDoc(t, fset, field.Pos(), "field "+ts.Name.Name+"."+fieldName, fieldName, field.Doc)
					}
				}
			}
		}
	}
	if types == 0 || fields == 0 {
		t.Fatalf("found %d exported types and %d exported fields: the test does not see the hub", types, fields)
	}
}

// exportedNames are the exported names a struct field declares: its
// names, or the type name of an embedded field.
func exportedNames(field *ast.Field) []string {
	var names []string
	if len(field.Names) == 0 {
		typ := field.Type
		if star, ok := typ.(*ast.StarExpr); ok {
			typ = star.X
		}
		switch x := typ.(type) {
		case *ast.SelectorExpr:
			return []string{x.Sel.Name}
		case *ast.Ident:
			if x.IsExported() {
				return []string{x.Name}
			}
		}
		return nil
	}
	for _, n := range field.Names {
		if n.IsExported() {
			names = append(names, n.Name)
		}
	}
	return names
}

func checkDoc(t *testing.T, fset *token.FileSet, pos token.Pos, what, name string, doc *ast.CommentGroup) {
	t.Helper()
	if doc == nil {
		t.Errorf("%s: %s has no doc comment", fset.Position(pos), what)
		return
	}
	text := doc.Text()
	if first, _, _ := strings.Cut(strings.TrimSpace(text), " "); strings.TrimSuffix(first, ",") != name {
		t.Errorf("%s: the doc comment of %s does not begin with %q: %q", fset.Position(pos), what, name, text)
	}
}
