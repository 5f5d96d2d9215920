package quantityguard

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// CheckFields returns an Invalid error for every quantity in v (a Go value,
// typically a pointer to an API object, whose fields have JSON tags) that
// CheckQuantity refuses, at its field path under root: for example
// spec.devices[0].capacity[memory].value. Map entries are visited in key
// order, so the list is always the same. Values of types that hold no
// quantity are not walked.
func CheckFields(v any, root *field.Path) field.ErrorList {
	if !anyOutOfBound(reflect.ValueOf(v)) {
		return nil
	}
	var errs field.ErrorList
	walkValue(reflect.ValueOf(v), root, func(path *field.Path, err error) {
		errs = append(errs, field.Invalid(path, field.OmitValueType{}, err.Error()))
	})
	return errs
}

// FirstField is the first error CheckFields would return, or nil.
func FirstField(v any, root *field.Path) *field.Error {
	if !anyOutOfBound(reflect.ValueOf(v)) {
		return nil
	}
	var first *field.Error
	walkValue(reflect.ValueOf(v), root, func(path *field.Path, err error) {
		if first == nil {
			first = field.Invalid(path, field.OmitValueType{}, err.Error())
		}
	})
	return first
}

var holdsQuantity sync.Map // reflect.Type -> bool

// mayHold reports whether a value of type t can hold a quantity.
func mayHold(t reflect.Type) bool {
	if b, ok := holdsQuantity.Load(t); ok {
		return b.(bool)
	}
	holdsQuantity.Store(t, false) // a recursive type holds one only through another field
	b := computeMayHold(t)
	holdsQuantity.Store(t, b)
	return b
}

func computeMayHold(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Struct:
		if t == quantityType {
			return true
		}
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); (f.IsExported() || f.Anonymous) && mayHold(f.Type) {
				return true
			}
		}
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return mayHold(t.Elem())
	case reflect.Map:
		return mayHold(t.Elem())
	}
	return false
}

var structFields sync.Map // reflect.Type -> []int

// quantityFields are the indexes of the fields of struct type t that can
// hold a quantity (exported or embedded ones).
func quantityFields(t reflect.Type) []int {
	if f, ok := structFields.Load(t); ok {
		return f.([]int)
	}
	var fields []int
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); (f.IsExported() || f.Anonymous) && mayHold(f.Type) {
			fields = append(fields, i)
		}
	}
	structFields.Store(t, fields)
	return fields
}

// anyOutOfBound reports whether v holds a quantity beyond the bound. It
// is the common case's walk: no paths, no sorting, one look-up per struct
// type, so that checking an object within the bound costs little more
// than reading its quantities; walkValue then finds the paths of the rare
// object beyond it.
func anyOutOfBound(v reflect.Value) bool {
	return v.IsValid() && mayHold(v.Type()) && holdsOutOfBound(v)
}

// holdsOutOfBound is anyOutOfBound for a v whose type can hold a quantity.
func holdsOutOfBound(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer:
		return !v.IsNil() && holdsOutOfBound(v.Elem())
	case reflect.Struct:
		if v.Type() == quantityType {
			return v.CanInterface() && CheckQuantity(v.Interface().(resource.Quantity)) != nil
		}
		for _, i := range quantityFields(v.Type()) {
			if holdsOutOfBound(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if holdsOutOfBound(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if holdsOutOfBound(it.Value()) {
				return true
			}
		}
	}
	return false
}

func walkValue(v reflect.Value, path *field.Path, visit func(*field.Path, error)) {
	if !v.IsValid() || !mayHold(v.Type()) {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			walkValue(v.Elem(), path, visit)
		}
	case reflect.Struct:
		if v.Type() == quantityType {
			if !v.CanInterface() {
				return // unexported: not part of the JSON form
			}
			if err := CheckQuantity(v.Interface().(resource.Quantity)); err != nil {
				visit(path, err)
			}
			return
		}
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() && !f.Anonymous {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			p := path
			if name != "" || !f.Anonymous {
				if name == "" {
					name = f.Name
				}
				p = child(path, name)
			}
			walkValue(v.Field(i), p, visit)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkValue(v.Index(i), indexOf(path, i), visit)
		}
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			return strings.Compare(fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface()))
		})
		for _, k := range keys {
			walkValue(v.MapIndex(k), keyOf(path, fmt.Sprint(k.Interface())), visit)
		}
	}
}

func child(p *field.Path, name string) *field.Path {
	if p == nil {
		return field.NewPath(name)
	}
	return p.Child(name)
}

func indexOf(p *field.Path, i int) *field.Path {
	if p == nil {
		return field.NewPath("").Index(i)
	}
	return p.Index(i)
}

func keyOf(p *field.Path, k string) *field.Path {
	if p == nil {
		return field.NewPath("").Key(k)
	}
	return p.Key(k)
}
