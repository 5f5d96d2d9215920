package stash

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	jsoniter "github.com/json-iterator/go"
	"github.com/modern-go/reflect2"
)

// What a version cannot say at all of a hub value is derived from the types,
// not written field by field: the fields of a hub struct whose JSON names
// none of the version's own types has are lost in that version (LostFields),
// and a stash keeps each of them that is set, whole, under its hub JSON name,
// and gives it back whole. A field added to a hub type is therefore kept by
// every version that does not have it, with no code of its own: not in the
// versions' conversions, nor in the payloads, nor in the reader (which reads
// a kept hub value's fields by name, see reader.keptField).
//
// The payload types hold kept values as an embedded hub struct (Device holds
// a resource.Device, Slice a resource.ResourceSliceSpec, Class a
// resource.DeviceClassSpec): the payload's JSON has the kept fields beside
// its own, as encoding/json writes an embedded struct, and a field of the
// payload's own hides the hub field of the same name. A kept field is
// written when it is set: a pointer, slice or map that is not nil (an empty
// list is written as [], so that it comes back empty and not nil), any other
// value that is not zero. That is exactly how format 1 wrote the same fields
// (as pointers to lists where the hub's JSON would leave an empty list out),
// so the payloads did not change: format 1 stays format 1.

// Fields is a set of the fields of the hub struct type T.
type Fields[T any] struct {
	fieldSet
}

// fieldSet is a list of fields of one struct type, with its check whether
// any of them is set (see check.go).
type fieldSet struct {
	list  []*fieldInfo
	check *check
}

func newFieldSet(typ reflect.Type, list []*fieldInfo) fieldSet {
	return fieldSet{list: list, check: newCheck(&checkView{typ: typ, lost: list})}
}

// fieldInfo is one field of a hub struct.
type fieldInfo struct {
	name   string // JSON
	goPath string // the selector from the struct: "Name", or "Spec.Name" for an inlined struct's
	offset uintptr
	typ    reflect.Type
	kind   reflect.Kind // typ's, asked once
}

// set reports whether the field of the struct at base is set.
func (f *fieldInfo) set(base unsafe.Pointer) bool {
	p := unsafe.Add(base, f.offset)
	switch f.kind {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		return *(*unsafe.Pointer)(p) != nil
	case reflect.String:
		return *(*string)(p) != ""
	case reflect.Bool:
		return *(*bool)(p)
	default:
		return !reflect.NewAt(f.typ, p).Elem().IsZero()
	}
}

// copy sets the field of the struct at to to that of the struct at from:
// the common kinds by a typed store (which the garbage collector sees as
// such), the rest through reflect.
func (f *fieldInfo) copy(from, to unsafe.Pointer) {
	p, q := unsafe.Add(from, f.offset), unsafe.Add(to, f.offset)
	switch f.kind {
	case reflect.Pointer, reflect.Map:
		*(*unsafe.Pointer)(q) = *(*unsafe.Pointer)(p)
	case reflect.Slice:
		*(*[]byte)(q) = *(*[]byte)(p) // the header; the elements are shared
	case reflect.String:
		*(*string)(q) = *(*string)(p)
	case reflect.Bool:
		*(*bool)(q) = *(*bool)(p)
	default:
		f.value(to).Set(f.value(from))
	}
}

// value is the field of the struct at base, settable.
func (f *fieldInfo) value(base unsafe.Pointer) reflect.Value {
	return reflect.NewAt(f.typ, unsafe.Add(base, f.offset)).Elem()
}

// LostFields are the fields of the hub struct type T that a version cannot
// say at all: those whose JSON names none of the version's types (shownBy,
// one value of each) has, less handled, the JSON names of the fields that
// the version's conversion shows in a way of its own or keeps partly (a
// v1alpha2 device's capacity, shown as quantities). A type's names include
// those of its embedded and inlined structs.
//
// It panics when T is not a struct, or when handled names no field of T: a
// mistake that any test of the version finds.
func LostFields[T any](shownBy []any, handled ...string) *Fields[T] {
	shown := map[string]bool{}
	for _, v := range shownBy {
		jsonNames(reflect.TypeOf(v), shown)
	}
	all := hubFields(reflect.TypeFor[T]())
	for _, name := range handled {
		if all.byName[name] == nil {
			panic(fmt.Sprintf("stash.LostFields: %s has no field %q", reflect.TypeFor[T](), name))
		}
		shown[name] = true
	}
	var lost []*fieldInfo
	for _, f := range all.list {
		if !shown[f.name] {
			lost = append(lost, f)
		}
	}
	return &Fields[T]{newFieldSet(reflect.TypeFor[T](), lost)}
}

// AllFields are the fields of the hub struct type T but except, JSON
// names: for the tests that ask whether a value says anything beyond
// some fields, whatever fields T gains. It panics as LostFields does.
func AllFields[T any](except ...string) *Fields[T] {
	return LostFields[T](nil, except...)
}

// Names are the JSON names of the fields, in declaration order.
func (fs *Fields[T]) Names() []string {
	names := make([]string, len(fs.list))
	for i, f := range fs.list {
		names[i] = f.name
	}
	return names
}

// AnySet reports whether any of the fields is set in v.
func (fs *Fields[T]) AnySet(v *T) bool {
	return fs.check.anySet(unsafe.Pointer(v))
}

// Keep copies into kept each of the fields that is set in in, sharing its
// memory, and reports whether there was any.
func (fs *Fields[T]) Keep(in, kept *T) bool {
	from, to := unsafe.Pointer(in), unsafe.Pointer(kept)
	any := false
	for _, f := range fs.list {
		if f.set(from) {
			f.copy(from, to)
			any = true
		}
	}
	return any
}

// Restore copies the fields from kept, what Keep kept, into out, sharing
// their memory: each is what was kept, or unset.
func (fs *Fields[T]) Restore(kept, out *T) {
	from, to := unsafe.Pointer(kept), unsafe.Pointer(out)
	if !fs.check.anySet(from) && !fs.check.anySet(to) {
		return // nearly always: nothing kept, and out, just converted, sets none
	}
	for _, f := range fs.list {
		if f.set(from) || f.set(to) {
			f.copy(from, to)
		}
	}
}

// structFields are the fields of a hub struct, by position and JSON name.
type structFields struct {
	list   []*fieldInfo
	byName map[string]*fieldInfo
}

var hubFieldsCache sync.Map // reflect.Type -> *structFields

// hubFields describes the struct type typ: its fields by JSON name, those
// of embedded and inlined structs among them, as encoding/json reads them
// (fields without a JSON name, unexported or "-", left out).
func hubFields(typ reflect.Type) *structFields {
	if cached, ok := hubFieldsCache.Load(typ); ok {
		return cached.(*structFields)
	}
	if typ.Kind() != reflect.Struct {
		panic(fmt.Sprintf("stash: %s is not a struct", typ))
	}
	out := &structFields{byName: map[string]*fieldInfo{}}
	addFields(typ, 0, "", out)
	cached, _ := hubFieldsCache.LoadOrStore(typ, out)
	return cached.(*structFields)
}

// addFields adds the fields of typ, at offset in the outer struct, to out:
// its named fields first, then those of its embedded and inlined structs
// that a shallower field of the same name does not hide.
func addFields(typ reflect.Type, offset uintptr, goPath string, out *structFields) {
	var embedded []reflect.StructField
	for i := 0; i < typ.NumField(); i++ {
		sf := typ.Field(i)
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case name == "" && sf.Type.Kind() == reflect.Struct && (sf.Anonymous || opts == "inline"):
			embedded = append(embedded, sf)
		case !sf.IsExported():
		default:
			if name == "" {
				name = sf.Name
			}
			f := &fieldInfo{name: name, goPath: goPath + sf.Name, offset: offset + sf.Offset, typ: sf.Type, kind: sf.Type.Kind()}
			out.list = append(out.list, f)
			out.byName[name] = f
		}
	}
	for _, sf := range embedded {
		inner := &structFields{byName: map[string]*fieldInfo{}}
		addFields(sf.Type, offset+sf.Offset, goPath+sf.Name+".", inner)
		for _, f := range inner.list {
			if out.byName[f.name] == nil {
				out.list = append(out.list, f)
				out.byName[f.name] = f
			}
		}
	}
}

// jsonNames adds the JSON member names of typ's values to names: its
// fields' and those of its embedded and inlined structs.
func jsonNames(typ reflect.Type, names map[string]bool) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct {
		panic(fmt.Sprintf("stash: %s is not a struct", typ))
	}
	for i := 0; i < typ.NumField(); i++ {
		sf := typ.Field(i)
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case name == "" && (sf.Anonymous || opts == "inline"):
			jsonNames(sf.Type, names)
		case name == "":
			names[sf.Name] = true
		default:
			names[name] = true
		}
	}
}

// keptLayout is how a payload type with a kept hub value (an embedded hub
// struct) is written: in the hub's order of fields, each field of the kept
// value that is set, and at the place of a field that a field of the
// payload's own hides, that field as its tag says; the payload's other
// fields before (declared before the hub struct) or after (declared after
// it). A payload's JSON therefore reads like the hub value it keeps. Where
// format 1 wrote some members in another order (a claim's status and
// allocation, whose payloads named their fields one by one before they
// embedded the hub struct), the embedded field's tag stash:"a,b,..." names
// those members, which come first in that order, so that the text stays
// what format 1 wrote.
type keptLayout struct {
	kept   int     // the embedded field's index
	offset uintptr // and its offset
	order  []member
	fields *structFields // the kept value's fields the payload shows
}

// member is one member the layout writes: a field of the payload's own
// (own), or of the kept value.
type member struct {
	own       bool
	offset    uintptr      // own: the payload's field's
	typ       reflect.Type // own: its type
	omitempty bool         // own
	field     *fieldInfo   // kept
	name      string
	write     writer // how its value is written
}

// writer says how writeKept writes a member of one type, decided once.
type writer struct {
	payload reflect.Kind // Struct, Pointer or Slice: a payload with a kept value, one behind a pointer, a list of them
	layout  *keptLayout  // payload: the payload's
	size    uintptr      // Slice: of an element
	enc     *memberEncoder
}

func writerOf(t reflect.Type) writer {
	switch {
	case keptPayloads[t]:
		return writer{payload: reflect.Struct, layout: layoutOf(t)}
	case (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice) && keptPayloads[t.Elem()]:
		return writer{payload: t.Kind(), layout: layoutOf(t.Elem()), size: t.Elem().Size()}
	}
	return writer{enc: memberEncoderOf(t)}
}

var keptLayouts sync.Map // reflect.Type -> *keptLayout

func layoutOf(typ reflect.Type) *keptLayout {
	if cached, ok := keptLayouts.Load(typ); ok {
		return cached.(*keptLayout)
	}
	l := &keptLayout{kept: -1}
	var before, after []member
	own := map[string]member{}
	for i := 0; i < typ.NumField(); i++ {
		sf := typ.Field(i)
		if sf.Anonymous {
			if l.kept >= 0 {
				panic(fmt.Sprintf("stash: %s embeds two hub structs", typ))
			}
			l.kept, l.offset = i, sf.Offset
			continue
		}
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		m := member{own: true, offset: sf.Offset, typ: sf.Type, omitempty: strings.Contains(opts, "omitempty"), name: name, write: writerOf(sf.Type)}
		own[name] = m
		if l.kept < 0 {
			before = append(before, m)
		} else {
			after = append(after, m)
		}
	}
	if l.kept < 0 {
		panic(fmt.Sprintf("stash: %s embeds no hub struct", typ))
	}
	all := hubFields(typ.Field(l.kept).Type)
	l.fields = &structFields{byName: map[string]*fieldInfo{}}
	for _, f := range all.list {
		if _, hidden := own[f.name]; !hidden {
			l.fields.list = append(l.fields.list, f)
			l.fields.byName[f.name] = f
		}
	}
	// The members format 1 wrote in an order other than the hub's come
	// first, in that order (the embedded field's stash tag names them).
	var first []*fieldInfo
	if pinned := typ.Field(l.kept).Tag.Get("stash"); pinned != "" {
		for _, name := range strings.Split(pinned, ",") {
			f := all.byName[name]
			if f == nil {
				panic(fmt.Sprintf("stash: %s pins %q, which %s has not", typ, name, typ.Field(l.kept).Type))
			}
			first = append(first, f)
		}
	}
	var middle []member
	placed := map[string]bool{}
	for _, f := range append(first, all.list...) {
		if placed[f.name] {
			continue
		}
		placed[f.name] = true
		if m, hidden := own[f.name]; hidden {
			middle = append(middle, m)
			continue
		}
		middle = append(middle, member{field: f, name: f.name, write: writerOf(f.typ)})
	}
	for _, m := range before {
		if !placed[m.name] {
			l.order = append(l.order, m)
		}
	}
	l.order = append(l.order, middle...)
	for _, m := range after {
		if !placed[m.name] {
			l.order = append(l.order, m)
		}
	}
	cached, _ := keptLayouts.LoadOrStore(typ, l)
	return cached.(*keptLayout)
}

// marshalKept writes v, a pointer to a payload with a kept hub value, as
// keptLayout says: for encoding/json and the codec's other users. Write
// writes a payload into one stream (writeKept), without the copy each
// MarshalJSON makes.
func marshalKept(v any) ([]byte, error) {
	s := codec.BorrowStream(nil)
	defer codec.ReturnStream(s)
	rv := reflect.ValueOf(v)
	writeKept(s, layoutOf(rv.Type().Elem()), rv.UnsafePointer())
	if s.Error != nil {
		return nil, s.Error
	}
	return append([]byte(nil), s.Buffer()...), nil
}

// writeKept writes the payload at p, of the type whose layout l is, into s
// as l says. It works on addresses, not reflect values: it writes every
// payload a conversion stashes.
func writeKept(s *jsoniter.Stream, l *keptLayout, p unsafe.Pointer) {
	kept := unsafe.Add(p, l.offset)
	s.WriteObjectStart()
	more := false
	for i := range l.order {
		m := &l.order[i]
		var at unsafe.Pointer
		if m.own {
			at = unsafe.Add(p, m.offset)
			if m.omitempty && isEmptyAt(m.typ, at) {
				continue
			}
		} else {
			if !m.field.set(kept) {
				continue
			}
			at = unsafe.Add(kept, m.field.offset)
		}
		if more {
			s.WriteMore()
		}
		more = true
		s.WriteObjectField(m.name)
		m.write.at(s, at)
	}
	s.WriteObjectEnd()
}

// memberEncoder writes values of one type with the codec's own encoder for
// it, given their address, as the codec writes a struct's fields: the
// codec's WriteVal would allocate for each (it is handed a pointer). The
// codec's encoder is made at the first write: a layout has a member for
// every field of the hub struct it keeps, and most are never written (the
// fields the version shows), whose encoders would only grow the heap that
// every garbage collection marks.
type memberEncoder struct {
	typ   reflect.Type
	once  sync.Once
	enc   jsoniter.ValEncoder // for the value, or for the pointee when deref
	deref bool                // a pointer: null, or the pointee with enc
}

var memberEncoders sync.Map // reflect.Type -> *memberEncoder

// memberEncoderOf is the memberEncoder of type t.
func memberEncoderOf(t reflect.Type) *memberEncoder {
	if cached, ok := memberEncoders.Load(t); ok {
		return cached.(*memberEncoder)
	}
	cached, _ := memberEncoders.LoadOrStore(t, &memberEncoder{typ: t})
	return cached.(*memberEncoder)
}

// resolve asks the codec for the encoder.
func (me *memberEncoder) resolve() {
	switch rt := reflect2.Type2(me.typ); {
	case !rt.LikePtr():
		me.enc = codec.EncoderOf(rt)
	case me.typ.Kind() == reflect.Pointer && !reflect2.Type2(me.typ.Elem()).LikePtr():
		me.enc, me.deref = codec.EncoderOf(reflect2.Type2(me.typ.Elem())), true
	}
}

// writeMember writes the value of type t at p into s.
func writeMember(s *jsoniter.Stream, t reflect.Type, p unsafe.Pointer) {
	memberEncoderOf(t).write(s, p)
}

// write writes the value at p into s.
func (me *memberEncoder) write(s *jsoniter.Stream, p unsafe.Pointer) {
	me.once.Do(me.resolve)
	t := me.typ
	switch {
	case me.deref:
		if q := *(*unsafe.Pointer)(p); q != nil {
			me.enc.Encode(q, s)
		} else {
			s.WriteNil()
		}
	case me.enc != nil:
		me.enc.Encode(p, s)
	default: // a map, say
		s.WriteVal(reflect.NewAt(t, p).Interface())
	}
}

// keptPayloads are the payload types written by writeKept.
var keptPayloads = map[reflect.Type]bool{
	reflect.TypeFor[Class]():       true,
	reflect.TypeFor[ClaimSpec]():   true,
	reflect.TypeFor[ClaimStatus](): true,
	reflect.TypeFor[Allocation]():  true,
	reflect.TypeFor[Slice]():       true,
	reflect.TypeFor[Device]():      true,
}

// writePayload writes payload, a pointer to a payload, into s: one with a
// kept hub value with writeKept, any other with the codec.
func writePayload(s *jsoniter.Stream, payload any) {
	v := reflect.ValueOf(payload)
	if v.Kind() != reflect.Pointer || v.IsNil() || !keptPayloads[v.Type().Elem()] {
		s.WriteVal(payload)
		return
	}
	writeKept(s, layoutOf(v.Type().Elem()), v.UnsafePointer())
}

// at writes the value at p into s.
func (w *writer) at(s *jsoniter.Stream, p unsafe.Pointer) {
	switch w.payload {
	case reflect.Pointer:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			s.WriteNil()
			return
		}
		writeKept(s, w.layout, q)
	case reflect.Slice:
		h := (*sliceHeader)(p)
		if h.data == nil {
			s.WriteNil()
			return
		}
		s.WriteArrayStart()
		for i := 0; i < h.len; i++ {
			if i > 0 {
				s.WriteMore()
			}
			writeKept(s, w.layout, unsafe.Add(h.data, uintptr(i)*w.size))
		}
		s.WriteArrayEnd()
	case reflect.Struct:
		writeKept(s, w.layout, p)
	default:
		w.enc.write(s, p)
	}
}

// isEmptyAt is encoding/json's omitempty test (isEmptyValue) of the value
// of type t at p, without a reflect value for the common kinds.
func isEmptyAt(t reflect.Type, p unsafe.Pointer) bool {
	switch t.Kind() {
	case reflect.Slice:
		return (*sliceHeader)(p).len == 0
	case reflect.String:
		return len(*(*string)(p)) == 0
	case reflect.Bool:
		return !*(*bool)(p)
	case reflect.Pointer:
		return *(*unsafe.Pointer)(p) == nil
	}
	return isEmptyValue(reflect.NewAt(t, p).Elem())
}

// isEmptyValue is encoding/json's omitempty test.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// byName reads the member key of an object into the field of that JSON
// name of *out, a struct (its embedded structs' fields included), through
// the strict codec (viaCodec); a name *out has no field for is an unknown
// field. It is how the reader reads what it has no code of its own for:
// the fields of a kept hub value, a field added to a hub type, the parts of
// the payloads that are rarely stashed.
func (r *reader) byName(out any, key string) {
	v := reflect.ValueOf(out)
	f := hubFields(v.Type().Elem()).byName[key]
	if f == nil {
		r.unknown(key)
		return
	}
	field := f.value(v.UnsafePointer())
	field.SetZero()
	if r.null() {
		return
	}
	if !r.scalar(field) {
		r.viaCodec(field.Addr().Interface())
	}
}

// scalar reads a string, bool or integer, or a pointer to one, into v
// with the reader itself, sparing the codec's copies; it reports false,
// having read nothing, for any other kind.
func (r *reader) scalar(v reflect.Value) bool {
	t := v.Type()
	if t.Kind() == reflect.Pointer {
		switch t.Elem().Kind() {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int64:
			p := reflect.New(t.Elem())
			r.scalar(p.Elem())
			v.Set(p)
			return true
		}
		return false
	}
	switch t.Kind() {
	case reflect.String:
		v.SetString(r.str())
	case reflect.Bool:
		v.SetBool(r.boolean())
	case reflect.Int:
		v.SetInt(int64(r.int()))
	case reflect.Int64:
		v.SetInt(r.int64())
	default:
		return false
	}
	return true
}
