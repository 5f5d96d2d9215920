// Package jsonfields tells which Go type each JSON member of a struct
// decodes into, for code that walks a JSON document beside the type it
// will be decoded into: to find the field a decoding error is about (the
// CLI) or the quantities to check first (quantityguard).
package jsonfields

import (
	"reflect"
	"strings"
	"sync"
)

var cache sync.Map // reflect.Type -> map[string]reflect.Type

// Of maps the JSON names of struct type t's fields to their types, as
// encoding/json reads them: fields tagged "-" and unexported ones are
// left out, a field without a name in its tag goes by its Go name, and
// the fields of an embedded struct without a name of its own (",inline",
// or no tag) are members of t, unless t has a field of the same name.
func Of(t reflect.Type) map[string]reflect.Type {
	if m, ok := cache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	var inlined []reflect.Type
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" && f.Anonymous {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				inlined = append(inlined, ft)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = f.Type
	}
	for _, ft := range inlined {
		for name, typ := range Of(ft) {
			if _, taken := m[name]; !taken {
				m[name] = typ
			}
		}
	}
	cache.Store(t, m)
	return m
}
