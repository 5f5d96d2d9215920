package allocator

import (
	"slices"
	"strconv"

	"github.com/drakit/drakit/apis/resource"
)

// attrKind says how a constraint reads an attribute (attrValues).
type attrKind uint8

const (
	// attrMatch: matchAttribute on single values. A list value equals no
	// other device's value (matchAttribute accepts it for a single
	// device), as upstream v0.37.2 compares single values only.
	attrMatch attrKind = iota
	// attrDistinct: distinctAttribute on single values; a list value
	// takes no part.
	attrDistinct
	// attrSet (ListTypeAttributes): every value is interned with the
	// elements of a list (Allocator.attributeElems), and constraints
	// compare sets of elements; a list without elements cannot take part,
	// as upstream's experimental allocator knows no type for it.
	attrSet
)

// valueType is the type of an attribute value: values of two types never
// compare equal (1 and "1" differ), and a list is a type of its own.
type valueType uint8

const (
	valueString valueType = iota + 1
	valueInt
	valueBool
	valueVersion
	valueIntList
	valueBoolList
	valueStringList
	valueVersionList
	// valueUnique is a list value under attrMatch: one per device, so
	// that it equals no other device's value.
	valueUnique
)

func (t valueType) isList() bool { return t >= valueIntList && t <= valueVersionList }

// valueKey is an attribute value as constraints compare it: its type and,
// for integers and booleans, num; for strings and versions (compared as
// written, like the scheduler does) and lists, text (lists encoded element
// by element, unambiguously).
type valueKey struct {
	typ  valueType
	num  int64
	text string
}

// keyOf is the key of an attribute's value; false when it has none.
func keyOf(attr *resource.DeviceAttribute) (valueKey, bool) {
	switch {
	case attr.StringValue != nil:
		return valueKey{typ: valueString, text: *attr.StringValue}, true
	case attr.IntValue != nil:
		return valueKey{typ: valueInt, num: *attr.IntValue}, true
	case attr.BoolValue != nil:
		return boolKey(*attr.BoolValue), true
	case attr.VersionValue != nil:
		return valueKey{typ: valueVersion, text: *attr.VersionValue}, true
	case attr.IntValues != nil:
		var b []byte
		for _, n := range attr.IntValues {
			b = strconv.AppendInt(b, n, 10)
			b = append(b, ',')
		}
		return valueKey{typ: valueIntList, text: string(b)}, true
	case attr.StringValues != nil:
		return valueKey{typ: valueStringList, text: stringsKey(attr.StringValues)}, true
	case attr.BoolValues != nil:
		b := make([]byte, len(attr.BoolValues))
		for i, v := range attr.BoolValues {
			b[i] = 'f'
			if v {
				b[i] = 't'
			}
		}
		return valueKey{typ: valueBoolList, text: string(b)}, true
	case attr.VersionValues != nil:
		return valueKey{typ: valueVersionList, text: stringsKey(attr.VersionValues)}, true
	}
	return valueKey{}, false
}

func boolKey(b bool) valueKey {
	k := valueKey{typ: valueBool}
	if b {
		k.num = 1
	}
	return k
}

// stringsKey encodes a list of strings unambiguously.
func stringsKey(list []string) string {
	var b []byte
	for _, s := range list {
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
	}
	return string(b)
}

// elementKeys are the keys of the elements of a list-valued attribute, as
// keyOf gives single values.
func elementKeys(attr *resource.DeviceAttribute) []valueKey {
	var keys []valueKey
	for _, n := range attr.IntValues {
		keys = append(keys, valueKey{typ: valueInt, num: n})
	}
	for _, b := range attr.BoolValues {
		keys = append(keys, boolKey(b))
	}
	for _, s := range attr.StringValues {
		keys = append(keys, valueKey{typ: valueString, text: s})
	}
	for _, v := range attr.VersionValues {
		keys = append(keys, valueKey{typ: valueVersion, text: v})
	}
	return keys
}

// attrValuesKey names a slice's cached attribute values: the attribute
// (or a derived attribute's expression) and how a constraint reads it.
type attrValuesKey struct {
	name resource.FullyQualifiedName
	kind attrKind
}

// attrValues gives, per device of the slice, the interned value of an
// attribute for a constraint of the given kind, or -1 where the device
// cannot take part (see attrKind).
func (a *Allocator) attrValues(e *sliceEntry, name resource.FullyQualifiedName, kind attrKind) []int32 {
	cacheKey := attrValuesKey{name, kind}
	if values, ok := e.attributeValues[cacheKey]; ok {
		return values
	}
	if e.attributeValues == nil {
		e.attributeValues = map[attrValuesKey][]int32{}
	}
	values := make([]int32, len(e.devices))
	for i := range e.devices {
		values[i] = -1
		if attr, ok := lookupAttribute(e.devices[i].Attributes, e.driver, name); ok {
			values[i] = a.valueID(&attr, kind, e, i)
		}
	}
	e.attributeValues[cacheKey] = values
	return values
}

// valueID interns the value of an attribute of device d of the entry for
// a constraint of the given kind, as attrKind describes; -1 when the
// device cannot take part.
func (a *Allocator) valueID(attr *resource.DeviceAttribute, kind attrKind, e *sliceEntry, d int) int32 {
	key, ok := keyOf(attr)
	switch {
	case !ok:
		return -1
	case kind == attrSet:
		return a.setValueID(attr, key)
	case key.typ.isList() && kind == attrDistinct:
		return -1
	case key.typ.isList():
		key = valueKey{typ: valueUnique, text: e.key + "\x00" + e.devices[d].Name}
	}
	return a.intern(key)
}

// intern numbers a value key.
func (a *Allocator) intern(key valueKey) int32 {
	id, seen := a.attributeValueIDs[key]
	if !seen {
		id = int32(len(a.attributeValueIDs))
		a.attributeValueIDs[key] = id
	}
	return id
}

// setValueID interns a value for attrSet, with the elements of a list: -1
// for an empty list.
func (a *Allocator) setValueID(attr *resource.DeviceAttribute, key valueKey) int32 {
	if !key.typ.isList() {
		return a.intern(key)
	}
	if id, seen := a.attributeValueIDs[key]; seen {
		if a.attributeElems[id] == nil {
			return -1 // empty
		}
		return id
	}
	id := a.intern(key)
	var elems []int32
	for _, k := range elementKeys(attr) {
		elems = append(elems, a.intern(k))
	}
	slices.Sort(elems)
	elems = slices.Compact(elems)
	if len(elems) == 0 {
		return -1
	}
	if a.attributeElems == nil {
		a.attributeElems = map[int32][]int32{}
	}
	a.attributeElems[id] = elems
	return id
}
