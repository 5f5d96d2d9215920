package conversion

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	hub "github.com/drakit/drakit/apis/resource"
)

// TestRelabelLayouts guards the unsafe casts of relabel.go: every kind of
// v1beta2 has a kind of the same name in v1 whose Go type has the same
// layout, recursively (the same fields under the same names, tags, offsets
// and sizes, of types that are the same or the two packages' types of the
// same name, laid out alike), and Convert has a relabeler for it in both
// directions.
func TestRelabelLayouts(t *testing.T) {
	kinds := kindsUnderTest(t)
	if len(kinds["v1beta2"]) == 0 || !reflect.DeepEqual(kinds["v1beta2"], kinds["v1"]) {
		t.Fatalf("v1beta2 has the kinds %v, v1 %v: relabelling needs the same", kinds["v1beta2"], kinds["v1"])
	}
	pkgs := [2]string{}
	for _, kind := range kinds["v1beta2"] {
		a := reflect.TypeOf(newObject(t, gv("v1beta2").WithKind(kind)))
		b := reflect.TypeOf(newObject(t, gv("v1").WithKind(kind)))
		pkgs = [2]string{a.Elem().PkgPath(), b.Elem().PkgPath()}
		if err := sameLayout(a, b, pkgs, map[[2]reflect.Type]bool{}); err != nil {
			t.Errorf("%s: %v", kind, err)
		}
		if relabelers[a] == nil || relabelers[b] == nil {
			t.Errorf("%s: no relabeler for %v or %v", kind, a, b)
		}
	}
	if want := 2 * len(kinds["v1"]); len(relabelers) != want {
		t.Errorf("%d relabelers, want %d (each kind of v1beta2 and v1)", len(relabelers), want)
	}
}

// sameLayout reports how a and b differ in memory layout, or nil. Types of
// the two packages pkgs may stand for each other when they have the same
// name and the same layout; any other type must be the same on both sides.
func sameLayout(a, b reflect.Type, pkgs [2]string, seen map[[2]reflect.Type]bool) error {
	if a == b || seen[[2]reflect.Type{a, b}] {
		return nil
	}
	seen[[2]reflect.Type{a, b}] = true
	if a.Kind() != b.Kind() || a.Size() != b.Size() || a.Align() != b.Align() {
		return fmt.Errorf("%v and %v: %v of %d bytes against %v of %d", a, b, a.Kind(), a.Size(), b.Kind(), b.Size())
	}
	if a.Name() != b.Name() {
		return fmt.Errorf("%v and %v: other names", a, b)
	}
	if a.Name() != "" && !(a.PkgPath() == pkgs[0] && b.PkgPath() == pkgs[1]) {
		return fmt.Errorf("%v and %v: different types outside %s and %s", a, b, pkgs[0], pkgs[1])
	}
	switch a.Kind() {
	case reflect.Struct:
		if a.NumField() != b.NumField() {
			return fmt.Errorf("%v has %d fields, %v %d", a, a.NumField(), b, b.NumField())
		}
		for i := range a.NumField() {
			fa, fb := a.Field(i), b.Field(i)
			if fa.Name != fb.Name || fa.Tag != fb.Tag || fa.Offset != fb.Offset || fa.Anonymous != fb.Anonymous {
				return fmt.Errorf("%v.%s `%s` at %d and %v.%s `%s` at %d differ", a, fa.Name, fa.Tag, fa.Offset, b, fb.Name, fb.Tag, fb.Offset)
			}
			if err := sameLayout(fa.Type, fb.Type, pkgs, seen); err != nil {
				return fmt.Errorf("%v.%s: %w", a, fa.Name, err)
			}
		}
	case reflect.Pointer, reflect.Slice:
		return sameLayout(a.Elem(), b.Elem(), pkgs, seen)
	case reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Errorf("%v and %v: other lengths", a, b)
		}
		return sameLayout(a.Elem(), b.Elem(), pkgs, seen)
	case reflect.Map:
		if err := sameLayout(a.Key(), b.Key(), pkgs, seen); err != nil {
			return err
		}
		return sameLayout(a.Elem(), b.Elem(), pkgs, seen)
	case reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return fmt.Errorf("%v and %v: %v types must be the same", a, b, a.Kind())
	}
	return nil
}

// TestRelabelIsTheTripThroughTheHub: converting between v1beta2 and v1
// gives exactly what converting to the hub and from there gives, for random
// objects without a stash (relabelled) and for objects with one, converted
// from random hub objects (through the hub).
func TestRelabelIsTheTripThroughTheHub(t *testing.T) {
	t.Parallel() // with the round trips: their subtests share the cores
	kinds := kindsUnderTest(t)
	for _, kind := range kinds["v1"] {
		for _, pair := range [][2]string{{"v1beta2", "v1"}, {"v1", "v1beta2"}} {
			t.Run(kind+"/"+pair[0]+"-"+pair[1], func(t *testing.T) {
				t.Parallel()
				f := filler(seed(t) + nameSeed(kind+pair[0]))
				hubKind, err := HubKind(gv(pair[0]).WithKind(kind))
				if err != nil {
					t.Fatal(err)
				}
				relabelled, stashed := 0, 0
				for i := range iterations() {
					var in runtime.Object
					switch i % 4 {
					case 0, 1:
						in = newObject(t, gv(pair[0]).WithKind(kind))
						f.Fill(in)
					case 2:
						// Stashes where the hub has what the version
						// cannot say.
						h := newObject(t, hub.SchemeGroupVersion.WithKind(hubKind))
						f.Fill(h)
						if in, err = FromHub(h, pair[0]); err != nil {
							t.Fatal(err)
						}
					case 3:
						// An empty stash, and in a list an item's TypeMeta
						// too, where nothing needs one.
						in = newObject(t, gv(pair[0]).WithKind(kind))
						f.Fill(in)
						markFirst(t, in, gv(pair[0]).WithKind(kind))
					}
					original := in.DeepCopyObject()
					h, err := ToHub(in)
					if err != nil {
						t.Fatalf("iteration %d: to hub: %v", i, err)
					}
					want, err := FromHub(h, pair[1])
					if err != nil {
						t.Fatalf("iteration %d: from hub: %v", i, err)
					}
					if _, ok := relabelers[reflect.TypeOf(in)](in); ok {
						relabelled++
					} else {
						stashed++
					}
					got, err := Convert(in, gv(pair[1]))
					if err != nil {
						t.Fatalf("iteration %d: %v", i, err)
					}
					if d := diff(want, got); d != "" {
						t.Fatalf("iteration %d: %s -> %s is not the trip through the hub (-hub +direct):\n%s", i, pair[0], pair[1], d)
					}
					if d := diff(original, in); d != "" {
						t.Fatalf("iteration %d: conversion modified its input (-before +after):\n%s", i, d)
					}
				}
				if relabelled == 0 || stashed == 0 {
					t.Errorf("%d objects relabelled, %d through the hub: both ways must be tried", relabelled, stashed)
				}
			})
		}
	}
}

// markFirst gives obj, or the first item of a list, an empty stash, and the
// item its kind.
func markFirst(t *testing.T, obj runtime.Object, gvk schema.GroupVersionKind) {
	t.Helper()
	if !meta.IsListType(obj) {
		m, err := meta.Accessor(obj)
		if err != nil {
			t.Fatal(err)
		}
		m.SetAnnotations(map[string]string{hub.StashAnnotation: `{"v":1}`})
		return
	}
	first := true
	if err := meta.EachListItem(obj, func(item runtime.Object) error {
		if first {
			item.GetObjectKind().SetGroupVersionKind(gvk.GroupVersion().WithKind(strings.TrimSuffix(gvk.Kind, "List")))
			first = false
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
