package stash

import (
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// Every conversion asks, of every object and of every list item in it,
// whether anything the version cannot say is set there (Fields.AnySet,
// WholeList.SaysMore, the start of Tree.Collect); nearly always nothing is.
// Walking the derived field lists for the answer costs a call and a switch
// per field, several times what a compiled test of the same fields costs,
// and made the conversions slower than the hand-written tests the stash had
// before it was derived from the types. So each such question is a check:
// a view of the fields and nested structs to look at, derived from the
// types as before, and a compiled function for it, which
// hack/update-codegen.sh generates from the views of every check the
// versions make (GenerateChecks, zz_generated.checks.go). A view without a
// compiled function (the generated file is out of date) is walked: the
// answer is the same, only slower, and TestChecksCompiled says to
// regenerate. The walk is the reference the generated functions are tested
// against.

// checkView is what a check looks at in a value of the struct type typ:
// whether any of the fields lost is set (as fieldInfo.set says), or
// anything at the end of any of the links.
type checkView struct {
	typ   reflect.Type
	lost  []*fieldInfo
	links []checkLink
}

// checkLink leads to the structs whose view is view.
type checkLink struct {
	link
	view *checkView
}

// anySet walks the view over the struct at p.
func (v *checkView) anySet(p unsafe.Pointer) bool {
	for _, f := range v.lost {
		if f.set(p) {
			return true
		}
	}
	for i := range v.links {
		l := &v.links[i]
		first, n := l.elems(p)
		for j := 0; j < n; j++ {
			if l.view.anySet(unsafe.Add(first, uintptr(j)*l.size)) {
				return true
			}
		}
	}
	return false
}

// signature names the view: the struct type, the JSON names of the fields
// lost, and each link's name, kind (. a struct, * a pointer, [] a list) and
// view. Checks with the same signature share one compiled function.
func (v *checkView) signature() string {
	var b strings.Builder
	v.writeSignature(&b)
	return b.String()
}

func (v *checkView) writeSignature(b *strings.Builder) {
	b.WriteString(v.typ.String())
	b.WriteByte('{')
	for i, f := range v.lost {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.name)
	}
	for i, l := range v.links {
		if i > 0 || len(v.lost) > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(l.field.name)
		b.WriteString(linkMark[l.kind])
		l.view.writeSignature(b)
	}
	b.WriteByte('}')
}

var linkMark = map[reflect.Kind]string{reflect.Struct: ".", reflect.Pointer: "*", reflect.Slice: "[]"}

// check is one question the conversions ask: the view, and the function
// that answers it: the one compiled for the view once registered, until
// then (or when there is none) the walk of the view; for a view that looks
// at nothing, one that says no.
type check struct {
	view      *checkView
	signature string
	compiled  bool
	anySet    func(unsafe.Pointer) bool // whether anything the view looks at is set in the struct at p
}

func nothingSet(unsafe.Pointer) bool { return false }

// empty reports whether the view looks at nothing.
func (v *checkView) empty() bool { return len(v.lost) == 0 && len(v.links) == 0 }

// checks are every check made, and the compiled functions by signature.
var checks struct {
	sync.Mutex
	all      []*check
	compiled map[string]func(unsafe.Pointer) bool
}

// newCheck makes the check of view, with its compiled function if one is
// registered already.
func newCheck(view *checkView) *check {
	c := &check{view: view, signature: view.signature(), anySet: view.anySet}
	if view.empty() {
		c.anySet = nothingSet
		return c
	}
	checks.Lock()
	defer checks.Unlock()
	if f := checks.compiled[c.signature]; f != nil {
		c.anySet, c.compiled = f, true
	}
	checks.all = append(checks.all, c)
	return c
}

// registerChecks is called by the generated file's init with its compiled
// functions. The package's own checks are made before any init runs; they
// get theirs here, the versions' checks when they are made.
func registerChecks(compiled map[string]func(unsafe.Pointer) bool) {
	checks.Lock()
	defer checks.Unlock()
	checks.compiled = compiled
	for _, c := range checks.all {
		if f := compiled[c.signature]; f != nil && !c.compiled {
			c.anySet, c.compiled = f, true
		}
	}
}

// fullView looks at everything lost at or below the node n: the fields
// lost there and the links to every node below.
func fullView(n *node) *checkView {
	v := &checkView{typ: n.typ, lost: n.lost}
	for _, e := range n.children {
		v.links = append(v.links, checkLink{e.link, fullView(e.node)})
	}
	return v
}

// foundView looks at what Tree.Collect collects at or below the node n:
// the fields lost in the nodes that are neither Kept nor Whole, nor below a
// Whole one (node.collects).
func foundView(n *node) *checkView {
	v := &checkView{typ: n.typ}
	if !n.collects {
		return v
	}
	if !n.kept {
		v.lost = n.lost
	}
	for _, e := range n.children {
		if e.node.collects {
			v.links = append(v.links, checkLink{e.link, foundView(e.node)})
		}
	}
	return v
}

// wholeView looks, from the node from, along edges to a Whole node, at
// everything lost at or below that node (fullView).
func wholeView(from *node, edges []*edge) *checkView {
	if len(edges) == 0 {
		return fullView(from)
	}
	e := edges[0]
	return &checkView{typ: from.typ, links: []checkLink{{e.link, wholeView(e.node, edges[1:])}}}
}
