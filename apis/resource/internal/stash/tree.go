package stash

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	jsoniter "github.com/json-iterator/go"
)

// A claim nests structs deep (a request, its exactly, an alternative, a
// constraint, a config, an allocation result, a device's status), and a
// field that a hub type gains anywhere in it must be kept by every version
// that cannot say it, with no code of its own. A Tree is what one version
// cannot say anywhere in a hub struct type, derived once from the types:
// walking the hub type and the version's type side by side, field by
// field, by JSON name, it finds in each nested struct the fields whose
// names the version's struct lacks (LostFields' rule, at every depth).
// Hints (Handled, Whole, Flatten, Rendered, Kept) describe the few places
// where a version's conversion shows a value in a way of its own.
//
// Converting to the version, Collect gathers the lost fields that are set
// into a Lost, keyed by field path ("spec.devices.requests[1].exactly"),
// which the claim payload writes under "lost"; converting back, Restore
// puts each where its path still leads (a request removed since gets
// nothing), only the fields the version cannot say. Most places have
// nothing lost: the walk visits only the paths that lead to a lost field,
// so that a version that says everything the hub says pays nothing.

// Hint says how a version shows the hub field at a path (JSON names from
// the tree's prefix, without list positions: "spec.devices.requests").
type Hint struct {
	kind  hintKind
	paths []string
}

type hintKind int

const (
	hintHandled hintKind = iota
	hintWhole
	hintFlatten
	hintRendered
	hintKept
)

// Handled: the version's conversion shows the fields at paths in a way of
// its own, or the payload keeps them whole (a v1alpha1 claim's requests):
// neither lost nor walked.
func Handled(paths ...string) Hint { return Hint{hintHandled, paths} }

// Whole: the payload keeps the list or struct at path whole when anything
// in it is lost (WholeAt(path).SaysMore tells), so Collect does not look
// inside.
func Whole(paths ...string) Hint { return Hint{hintWhole, paths} }

// Flatten: the version shows the struct at path inline, in its parent's
// type (v1beta1's flat request shows the hub request's exactly).
func Flatten(paths ...string) Hint { return Hint{hintFlatten, paths} }

// Rendered: the version shows the struct at path in terms of its own,
// with no struct for it (a v1alpha1 claim's devices: its resourceClassName
// and the kept requests): each of its fields is lost unless handled.
func Rendered(paths ...string) Hint { return Hint{hintRendered, paths} }

// Kept: the payload keeps the lost fields of the struct at path itself (in
// the hub struct it embeds, see LostAt); Collect walks only what is below.
func Kept(paths ...string) Hint { return Hint{hintKept, paths} }

// Tree is what a version cannot say anywhere in the hub struct type T.
type Tree[T any] struct {
	prefix string
	root   *node
	nodes  map[string]*node   // by path without positions
	wholes map[string][]*edge // the edges from the root to each Whole node
	found  *check             // whether Collect finds anything (foundView)
	any    *check             // whether anything lost is set (fullView)
}

// node is a struct type at one path of the hub type, with something lost at
// or below it.
type node struct {
	typ      reflect.Type
	path     string
	lost     []*fieldInfo // the fields the version cannot say
	kept     bool         // the payload keeps lost itself
	whole    bool
	children []*edge
	// collects: Collect may find something at or below: a lost field in
	// a struct neither Kept nor Whole, not below a Whole one.
	collects bool
}

// edge leads from a struct to a struct below it (link), where something
// is lost.
type edge struct {
	link
	node *node
}

// link is a field that leads from a struct to structs below it: a field
// that is a struct, a pointer to one, or a list of them.
type link struct {
	field *fieldInfo
	kind  reflect.Kind // Struct, Pointer or Slice
	size  uintptr      // of a list's element
}

// NewTree derives the tree of T, the hub type at prefix ("spec", "status"),
// against version, a value of the version's type for it. It panics when a
// hint names a path the hub type does not have, or where the types cannot
// be walked without one: mistakes that any test of the version finds.
func NewTree[T any](version any, prefix string, hints ...Hint) *Tree[T] {
	b := &treeBuilder{hints: map[string]hintKind{}, used: map[string]bool{}}
	for _, h := range hints {
		for _, p := range h.paths {
			b.hints[p] = h.kind
		}
	}
	t := &Tree[T]{prefix: prefix, nodes: map[string]*node{}, wholes: map[string][]*edge{}}
	vt := reflect.TypeOf(version)
	for vt.Kind() == reflect.Pointer {
		vt = vt.Elem()
	}
	t.root = b.walk(reflect.TypeFor[T](), vt, prefix, true)
	for p := range b.hints {
		if !b.used[p] {
			panic(fmt.Sprintf("stash.NewTree: %s has no field at hinted path %q", reflect.TypeFor[T](), p))
		}
	}
	if t.root != nil {
		t.index(t.root, nil)
		t.root.markCollects()
	}
	t.found = newCheck(foundView(t.root))
	t.any = newCheck(fullView(t.root))
	return t
}

func (n *node) markCollects() bool {
	if n.whole {
		return false
	}
	n.collects = !n.kept && len(n.lost) > 0
	for _, e := range n.children {
		if e.node.markCollects() {
			n.collects = true
		}
	}
	return n.collects
}

type treeBuilder struct {
	hints map[string]hintKind
	used  map[string]bool
}

func (b *treeBuilder) hint(path string) (hintKind, bool) {
	k, ok := b.hints[path]
	if ok {
		b.used[path] = true
	}
	return k, ok
}

// walk compares the hub struct type hub, at path, with the version's type
// ver (nil: the version has no struct for it). It returns nil when nothing
// at or below path is lost.
func (b *treeBuilder) walk(hub, ver reflect.Type, path string, root bool) *node {
	n := &node{typ: hub, path: path}
	if k, ok := b.hint(path); ok {
		n.kept = k == hintKept
		n.whole = k == hintWhole
	}
	var shown map[string]reflect.Type
	if ver != nil {
		shown = versionFields(ver)
	}
	for _, f := range hubFields(hub).list {
		p := path + "." + f.name
		k, hinted := b.hint(p)
		if hinted && k == hintHandled {
			continue
		}
		vt, ok := shown[f.name]
		switch {
		case hinted && k == hintFlatten:
			vt, ok = ver, true
		case hinted && k == hintRendered:
			vt, ok = nil, true
		}
		if !ok {
			n.lost = append(n.lost, f)
			continue
		}
		if child := b.below(f, vt, p); child != nil {
			n.children = append(n.children, child)
		}
	}
	if len(n.lost) == 0 && len(n.children) == 0 && !n.whole && !root {
		return nil
	}
	return n
}

// below is the edge for the shown hub field f, at path, that the version
// shows as a field of type ver (nil: in a way of its own), or nil when
// nothing below it is lost.
func (b *treeBuilder) below(f *fieldInfo, ver reflect.Type, path string) *edge {
	e := &edge{link: link{field: f, kind: f.typ.Kind()}}
	hub := f.typ
	switch hub.Kind() {
	case reflect.Pointer:
		hub = hub.Elem()
	case reflect.Slice:
		hub = hub.Elem()
		e.size = hub.Size()
	case reflect.Struct:
	case reflect.Map:
		if elem := hub.Elem(); elem.Kind() == reflect.Struct && !opaque(elem) && (ver == nil || ver.Kind() != reflect.Map || ver.Elem() != elem) {
			// No map of structs in a claim differs between the hub and a
			// version; a tree does not follow one.
			panic(fmt.Sprintf("stash.NewTree: %s is a map of %s, which a tree cannot follow: hint it", path, elem))
		}
		return nil
	default:
		return nil
	}
	if hub.Kind() != reflect.Struct || opaque(hub) {
		return nil
	}
	for ver != nil && (ver.Kind() == reflect.Pointer || ver.Kind() == reflect.Slice) {
		ver = ver.Elem()
	}
	if ver == hub {
		return nil // the same type says the same
	}
	if ver != nil && ver.Kind() != reflect.Struct {
		panic(fmt.Sprintf("stash.NewTree: the hub's %s is a struct, the version's is %s: hint it", path, ver))
	}
	e.node = b.walk(hub, ver, path, false)
	if e.node == nil {
		return nil
	}
	return e
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// opaque reports whether values of the struct type t write themselves
// (a quantity, a time): their fields are not members.
func opaque(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(jsonMarshaler) || p.Implements(jsonMarshaler) || t.Implements(textMarshaler) || p.Implements(textMarshaler)
}

// versionFields are the JSON member names of the struct type typ's values,
// with their fields' types; those of embedded and inlined structs too.
func versionFields(typ reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	var add func(reflect.Type)
	add = func(typ reflect.Type) {
		for i := 0; i < typ.NumField(); i++ {
			sf := typ.Field(i)
			name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
			switch {
			case name == "-":
			case name == "" && (sf.Anonymous || opts == "inline") && sf.Type.Kind() == reflect.Struct:
				add(sf.Type)
			case name == "":
				out[sf.Name] = sf.Type
			default:
				if _, ok := out[name]; !ok {
					out[name] = sf.Type
				}
			}
		}
	}
	add(typ)
	return out
}

func (t *Tree[T]) index(n *node, from []*edge) {
	t.nodes[n.path] = n
	if n.whole {
		t.wholes[n.path] = slices.Clone(from)
	}
	for _, e := range n.children {
		t.index(e.node, append(from, e))
	}
}

// LostAt are the fields the version cannot say of the struct at path, a T:
// what a payload that embeds a T keeps (see Kept). None when nothing is lost
// there. It panics when the struct at path is not a T.
func LostAt[T, R any](t *Tree[R], path string) *Fields[T] {
	return &Fields[T]{newFieldSet(reflect.TypeFor[T](), lostAt[T](t, path))}
}

// ShownAt are the fields of the struct at path, a T, that the version can
// say: all those LostAt does not name.
func ShownAt[T, R any](t *Tree[R], path string) *Fields[T] {
	lost := lostAt[T](t, path)
	var shown []*fieldInfo
	for _, f := range hubFields(reflect.TypeFor[T]()).list {
		if !slices.Contains(lost, f) {
			shown = append(shown, f)
		}
	}
	return &Fields[T]{newFieldSet(reflect.TypeFor[T](), shown)}
}

// lostAt is the list LostAt and ShownAt share, without a check of its own.
func lostAt[T, R any](t *Tree[R], path string) []*fieldInfo {
	n := t.nodes[path]
	if n == nil {
		return nil
	}
	if n.typ != reflect.TypeFor[T]() {
		panic(fmt.Sprintf("stash.LostAt: %s is a %s, not a %s", path, n.typ, reflect.TypeFor[T]()))
	}
	return n.lost
}

// Paths are the paths, without positions, of the structs with fields the
// version cannot say, each with their names: for tests and documentation.
func (t *Tree[T]) Paths() map[string][]string {
	out := map[string][]string{}
	for p, n := range t.nodes {
		if len(n.lost) > 0 {
			for _, f := range n.lost {
				out[p] = append(out[p], f.name)
			}
		}
	}
	return out
}

// AnySet reports whether anything the version cannot say is set anywhere
// in v: in the structs the payload keeps the lost fields of (Kept), in the
// lists it keeps whole (Whole), or in what Collect collects. A conversion
// asks it first, once, and asks no more when nothing is: nearly always.
func (t *Tree[T]) AnySet(v *T) bool {
	return t.any.anySet(unsafe.Pointer(v))
}

// WholeAt is the Whole path of the tree, resolved once: the conversions
// that ask for every object keep it. It panics when path is not a Whole
// path, a mistake that any test of the version finds.
func (t *Tree[T]) WholeAt(path string) WholeList[T] {
	edges, ok := t.wholes[path]
	if !ok {
		if t.nodes[path] == nil {
			// Nothing lost there.
			return WholeList[T]{newCheck(&checkView{typ: reflect.TypeFor[T]()})}
		}
		panic(fmt.Sprintf("stash: %s is not a Whole path", path))
	}
	return WholeList[T]{newCheck(wholeView(t.root, edges))}
}

// WholeList is a Whole path of a Tree[T] (WholeAt).
type WholeList[T any] struct {
	check *check
}

// SaysMore reports whether anything the version cannot say is set at or
// below the path in v: whether the payload must keep it whole.
func (w WholeList[T]) SaysMore(v *T) bool {
	return w.check.anySet(unsafe.Pointer(v))
}

// elems are the structs the link leads to from the struct at base: n of
// them, each size bytes after the one before, from first.
func (l *link) elems(base unsafe.Pointer) (first unsafe.Pointer, n int) {
	p := unsafe.Add(base, l.field.offset)
	switch l.kind {
	case reflect.Struct:
		return p, 1
	case reflect.Pointer:
		if q := *(*unsafe.Pointer)(p); q != nil {
			return q, 1
		}
		return nil, 0
	default:
		s := (*sliceHeader)(p)
		return s.data, s.len
	}
}

type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// Lost holds, by field path from the claim ("spec.devices.requests[1].exactly",
// a template's claim spec being "spec"), a hub struct of the path's type
// with the fields that the version cannot say set as they were: the
// claim payload's "lost" member. Each is written with its set fields under
// their JSON names, and read by name (the reader's byName).
type Lost map[string]any

// Collect is what v, the hub value at the tree's prefix, sets of what the
// version cannot say, outside the places the payload keeps itself (Kept,
// Whole): added to lost, which it returns (allocated only when needed).
func (t *Tree[T]) Collect(v *T, lost Lost) Lost {
	if !t.found.anySet(unsafe.Pointer(v)) {
		// Most trees collect nothing, and most values have nothing to
		// collect: neither costs an allocation.
		return lost
	}
	return t.root.collect(unsafe.Pointer(v), t.prefix, make([]pathStep, 0, 8), lost)
}

// pathStep is one step of a path being walked: a field, and a position in
// it when it is a list (-1 otherwise).
type pathStep struct {
	name  string
	index int
}

func (n *node) collect(p unsafe.Pointer, prefix string, path []pathStep, lost Lost) Lost {
	if !n.collects {
		return lost
	}
	if !n.kept {
		var kept reflect.Value
		for _, f := range n.lost {
			if f.set(p) {
				if !kept.IsValid() {
					kept = reflect.New(n.typ)
				}
				f.copy(p, kept.UnsafePointer())
			}
		}
		if kept.IsValid() {
			if lost == nil {
				lost = Lost{}
			}
			lost[pathString(prefix, path)] = kept.Interface()
		}
	}
	for _, e := range n.children {
		first, count := e.elems(p)
		for i := 0; i < count; i++ {
			index := i
			if e.kind != reflect.Slice {
				index = -1
			}
			lost = e.node.collect(unsafe.Add(first, uintptr(i)*e.size), prefix, append(path, pathStep{e.field.name, index}), lost)
		}
	}
	return lost
}

func pathString(prefix string, path []pathStep) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, s := range path {
		b.WriteByte('.')
		b.WriteString(s.name)
		if s.index >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// Restore puts what lost keeps under the tree's prefix back into out, the
// hub value at the prefix converted from the version: at each path that
// still leads to a struct (a list as long, a pointer set), the fields the
// version cannot say there, each as it was kept or unset.
func (t *Tree[T]) Restore(lost Lost, out *T) {
	if len(lost) == 0 {
		return // nearly always: even ranging over an empty map costs an iterator
	}
	for path, kept := range lost {
		rest, ok := strings.CutPrefix(path, t.prefix)
		if !ok || (rest != "" && rest[0] != '.') {
			continue
		}
		steps, ok := parsePath(rest)
		if !ok {
			continue
		}
		n, target := t.root, unsafe.Pointer(out)
		plain := t.prefix
		for _, s := range steps {
			plain += "." + s.name
			if n == nil || target == nil || n.whole {
				n = nil // the payload keeps a Whole list itself
				break
			}
			var next *edge
			for _, e := range n.children {
				if e.field.name == s.name {
					next = e
				}
			}
			if next == nil || (next.kind == reflect.Slice) != (s.index >= 0) {
				n = nil
				break
			}
			n, target = next.node, step(next, target, s.index)
		}
		if n == nil || target == nil || n.path != plain || n.kept || n.whole {
			continue // nowhere to go, or what the payload keeps itself
		}
		kv := reflect.ValueOf(kept)
		if kv.Kind() != reflect.Pointer || kv.Type().Elem() != n.typ || kv.IsNil() {
			continue
		}
		from := kv.UnsafePointer()
		for _, f := range n.lost {
			if f.set(from) || f.set(target) {
				f.copy(from, target)
			}
		}
	}
}

// step is the struct that e leads to from base, at index in a list; nil
// when there is none.
func step(e *edge, base unsafe.Pointer, index int) unsafe.Pointer {
	first, n := e.elems(base)
	if index < 0 {
		index = 0
	}
	if index >= n {
		return nil
	}
	return unsafe.Add(first, uintptr(index)*e.size)
}

// parsePath splits ".devices.requests[1].exactly" into its steps.
func parsePath(rest string) ([]pathStep, bool) {
	if rest == "" {
		return nil, true
	}
	var steps []pathStep
	for _, part := range strings.Split(rest[1:], ".") {
		s := pathStep{name: part, index: -1}
		if name, index, ok := strings.Cut(part, "["); ok {
			digits, closed := strings.CutSuffix(index, "]")
			i, err := strconv.Atoi(digits)
			if !closed || err != nil || i < 0 || digits != strconv.Itoa(i) {
				return nil, false
			}
			s = pathStep{name: name, index: i}
		}
		if s.name == "" {
			return nil, false
		}
		steps = append(steps, s)
	}
	return steps, true
}

// lostType is the hub struct type at path from the struct type root, or
// nil when root has no struct there: what the reader reads a "lost" entry
// into.
func lostType(root reflect.Type, path string) reflect.Type {
	steps, ok := parsePath("." + path)
	if !ok || path == "" {
		return nil
	}
	typ := root
	for _, s := range steps {
		if typ.Kind() != reflect.Struct {
			return nil
		}
		f := hubFields(typ).byName[s.name]
		if f == nil {
			return nil
		}
		typ = f.typ
		if s.index >= 0 {
			if typ.Kind() != reflect.Slice {
				return nil
			}
			typ = typ.Elem()
		} else if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
	}
	if typ.Kind() != reflect.Struct || opaque(typ) {
		return nil
	}
	return typ
}

// MarshalJSON writes each kept struct with its set fields, by path in
// order.
func (l Lost) MarshalJSON() ([]byte, error) {
	s := codec.BorrowStream(nil)
	defer codec.ReturnStream(s)
	l.writeTo(s)
	if s.Error != nil {
		return nil, s.Error
	}
	return append([]byte(nil), s.Buffer()...), nil
}

func (l Lost) writeTo(s *jsoniter.Stream) {
	paths := make([]string, 0, len(l))
	for p := range l {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	s.WriteObjectStart()
	for i, p := range paths {
		if i > 0 {
			s.WriteMore()
		}
		s.WriteObjectField(p)
		v := reflect.ValueOf(l[p])
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct || v.IsNil() {
			s.Error = fmt.Errorf("lost %s: %T is not a pointer to a struct", p, l[p])
			return
		}
		base := v.UnsafePointer()
		s.WriteObjectStart()
		more := false
		for _, f := range hubFields(v.Type().Elem()).list {
			if !f.set(base) {
				continue
			}
			if more {
				s.WriteMore()
			}
			more = true
			s.WriteObjectField(f.name)
			writeMember(s, f.typ, unsafe.Add(base, f.offset))
		}
		s.WriteObjectEnd()
	}
	s.WriteObjectEnd()
}

// UnmarshalJSON reads what MarshalJSON writes, with encoding/json: the
// payloads are read by decode.go; this is for encoding/json's reading of
// a payload (the error messages of decode, the fuzz test's reference).
func (l *Lost) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if raw == nil {
		*l = nil
		return nil
	}
	out := Lost{}
	for p, value := range raw {
		typ := lostType(claimType, p)
		if typ == nil {
			return fmt.Errorf("lost: a claim has no struct at %q", p)
		}
		v := reflect.New(typ)
		dec := json.NewDecoder(strings.NewReader(string(value)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v.Interface()); err != nil {
			return fmt.Errorf("lost %s: %w", p, err)
		}
		out[p] = v.Interface()
	}
	*l = out
	return nil
}
