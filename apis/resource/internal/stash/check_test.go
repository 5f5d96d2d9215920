package stash

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
	"unsafe"
)

// checkCompiledAgrees tests every check made so far that has a compiled
// function against the walk of its view (the reference), on values made
// at random along the view: each field it looks at set or not, each list
// empty or not, each pointer nil or not. It returns how many checks it
// tested.
func checkCompiledAgrees(t *testing.T, values int) int {
	t.Helper()
	checks.Lock()
	all := append([]*check(nil), checks.all...)
	checks.Unlock()
	tested := map[string]bool{}
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range all {
		if !c.compiled || tested[c.signature] {
			continue
		}
		tested[c.signature] = true
		set := 0
		for range values {
			v := reflect.New(c.view.typ)
			fillView(r, c.view, v.UnsafePointer())
			want := c.view.anySet(v.UnsafePointer())
			if got := c.anySet(v.UnsafePointer()); got != want {
				t.Fatalf("%s: the compiled check says %v, the walk %v, of %+v", c.signature, got, want, v.Elem().Interface())
			}
			if want {
				set++
			}
		}
		if set == 0 || set == values {
			t.Errorf("%s: %d of %d values set: the values do not tell set from unset", c.signature, set, values)
		}
	}
	return len(tested)
}

// fillView sets, at random, the fields the view looks at in the struct at
// p, and fills the structs its links lead to.
func fillView(r *rand.Rand, v *checkView, p unsafe.Pointer) {
	for _, f := range v.lost {
		if r.IntN(4) == 0 {
			setSomething(r, f.value(p))
		}
	}
	for i := range v.links {
		l := &v.links[i]
		field := l.field.value(p)
		switch l.kind {
		case reflect.Struct:
			fillView(r, l.view, field.Addr().UnsafePointer())
		case reflect.Pointer:
			if r.IntN(2) == 0 {
				field.Set(reflect.New(field.Type().Elem()))
				fillView(r, l.view, field.UnsafePointer())
			}
		default:
			if n := r.IntN(4) - 1; n >= 0 {
				field.Set(reflect.MakeSlice(field.Type(), n, n))
				for j := range n {
					fillView(r, l.view, field.Index(j).Addr().UnsafePointer())
				}
			}
		}
	}
}

// setSomething makes v, which is zero, set as fieldInfo.set says: the
// least that sets it (an empty list, an empty map, a struct with one
// field set).
func setSomething(r *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Unix(1, 0)))
			return
		}
		var exported []int
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				exported = append(exported, i)
			}
		}
		if len(exported) > 0 {
			setSomething(r, v.Field(exported[r.IntN(len(exported))]))
		}
	}
}

// TestChecksOwn: the package's own checks (the payloads' emptiness tests)
// are compiled, and say what the walks of their views say.
func TestChecksOwn(t *testing.T) {
	for _, f := range []*fieldSet{&claimSpecFields.fieldSet, &claimStatusFields.fieldSet, &allocationFields.fieldSet} {
		if !f.check.compiled {
			t.Errorf("%s has no compiled function: run hack/update-codegen.sh", f.check.signature)
		}
	}
	if n := checkCompiledAgrees(t, 2000); n < 3 {
		t.Errorf("%d checks tested, want the package's own three at least", n)
	}
}
