// Package apitest holds helpers for tests of the API types: a
// deterministic filler that sets every field of an object, and a function
// that lists the field paths of a JSON document. Nothing here is used
// outside of tests.
package apitest

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Values the filler uses. They are exported so that tests can refer to
// them in expectations.
var (
	// FillInt is the value of every integer field.
	FillInt int64 = 7
	// FillTime is the value of every metav1.Time and metav1.MicroTime.
	FillTime = time.Date(2024, time.March, 4, 5, 6, 7, 0, time.UTC)
	// FillQuantity is the value of every resource.Quantity.
	FillQuantity = resource.MustParse("8Gi")
	// FillRaw is the value of every runtime.RawExtension.
	FillRaw = `{"apiVersion":"gpu.example.com/v1","kind":"GPUConfig","sharing":{"strategy":"TimeSlicing"}}`
	// FillFields is the value of every metav1.FieldsV1.
	FillFields = `{"f:spec":{}}`
)

// Fill sets every exported field of the object obj points to, recursively:
//
//   - a string (or a type based on string) becomes "<name>Value", where
//     <name> is the JSON name of the field it is in;
//   - integers become FillInt, floats 1.5, booleans true;
//   - pointers are allocated and their target filled;
//   - slices get one filled element and maps one entry, whose key is
//     "<name>Key" for string keys;
//   - runtime.RawExtension becomes FillRaw, metav1.FieldsV1 FillFields,
//     resource.Quantity FillQuantity, metav1.Time and MicroTime FillTime.
//
// Fields tagged json:"-", unexported fields and interfaces are left alone.
// The result only depends on the type, so two calls give equal objects.
// Fill panics if obj is not a non-nil pointer.
func Fill(obj interface{}) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		panic(fmt.Sprintf("apitest.Fill needs a non-nil pointer, got %T", obj))
	}
	fill(v.Elem(), "")
}

var (
	rawExtensionType = reflect.TypeOf(runtime.RawExtension{})
	fieldsV1Type     = reflect.TypeOf(metav1.FieldsV1{})
	quantityType     = reflect.TypeOf(resource.Quantity{})
	timeType         = reflect.TypeOf(metav1.Time{})
	microTimeType    = reflect.TypeOf(metav1.MicroTime{})
)

func fill(v reflect.Value, name string) {
	switch v.Type() {
	case rawExtensionType:
		v.Set(reflect.ValueOf(runtime.RawExtension{Raw: []byte(FillRaw)}))
		return
	case fieldsV1Type:
		v.Set(reflect.ValueOf(metav1.FieldsV1{Raw: []byte(FillFields)}))
		return
	case quantityType:
		v.Set(reflect.ValueOf(FillQuantity.DeepCopy()))
		return
	case timeType:
		v.Set(reflect.ValueOf(metav1.NewTime(FillTime)))
		return
	case microTimeType:
		v.Set(reflect.ValueOf(metav1.NewMicroTime(FillTime)))
		return
	}

	switch v.Kind() {
	case reflect.String:
		v.SetString(name + "Value")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(FillInt)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(FillInt))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), name)
		v.Set(p)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes([]byte(name + "Value"))
			return
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), name)
		v.Set(s)
	case reflect.Map:
		key := reflect.New(v.Type().Key()).Elem()
		if key.Kind() == reflect.String {
			key.SetString(name + "Key")
		} else {
			fill(key, name)
		}
		val := reflect.New(v.Type().Elem()).Elem()
		fill(val, name)
		m := reflect.MakeMap(v.Type())
		m.SetMapIndex(key, val)
		v.Set(m)
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			jsonName, skip := JSONName(f)
			if skip {
				continue
			}
			fill(v.Field(i), jsonName)
		}
	}
}

// JSONName returns the name a struct field has in JSON: the name in its
// json tag, or the Go field name if the tag gives none. skip is true for
// fields tagged json:"-".
func JSONName(f reflect.StructField) (name string, skip bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", true
	}
	name, _, _ = strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, false
}
