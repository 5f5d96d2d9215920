package apitest

import (
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type inner struct {
	Name string `json:"name"`
}

type sample struct {
	Text    string                       `json:"text"`
	Num     int64                        `json:"num,omitempty"`
	Flag    *bool                        `json:"flag,omitempty"`
	List    []inner                      `json:"list"`
	Map     map[string]resource.Quantity `json:"map"`
	Raw     runtime.RawExtension         `json:"raw"`
	When    metav1.Time                  `json:"when"`
	Skipped string                       `json:"-"`
	inner
}

func TestFill(t *testing.T) {
	var got sample
	Fill(&got)
	tr := true
	want := sample{
		Text:  "textValue",
		Num:   FillInt,
		Flag:  &tr,
		List:  []inner{{Name: "nameValue"}},
		Map:   map[string]resource.Quantity{"mapKey": FillQuantity},
		Raw:   runtime.RawExtension{Raw: []byte(FillRaw)},
		When:  metav1.NewTime(FillTime),
		inner: inner{},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Fill:\n got %#v\nwant %#v", got, want)
	}
}

func TestPaths(t *testing.T) {
	doc := `{"a":{"b":[{"c":1},{"d":null}],"e":[],"f":{}},"m":{"x":{"y":1}},"s":["x"]}`
	got, err := Paths([]byte(doc), "m")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.b[].c", "a.b[].d", "a.e", "a.f", "m", "s[]"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Paths = %q, want %q", got, want)
	}
	if d := DiffPaths([]string{"a", "b"}, []string{"b", "c"}); !strings.Contains(d, "missing (expected, not found):\n\tc") || !strings.Contains(d, "unexpected (found, not expected):\n\ta") {
		t.Errorf("DiffPaths message: %s", d)
	}
	if d := DiffPaths([]string{"a", "b"}, []string{"b", "a"}); d != "" {
		t.Errorf("DiffPaths of equal sets: %s", d)
	}
}

func TestEdit(t *testing.T) {
	doc := []byte(`{"k":"v","spec":{"items":[{"x":1},{"y":2}],"m":{}},"meta":{"z":3}}`)
	objs, err := Objects(doc, "meta")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, o := range objs {
		paths = append(paths, o.Path+"="+strings.Join(o.At, "/"))
	}
	if want := []string{"=", "spec=spec", "spec.items[]=spec/items/[]", "spec.m=spec/m"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("Objects = %q, want %q", paths, want)
	}
	got, err := AddMember(doc, []string{"spec", "items", "[]"}, "new", `true`)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"k":"v","spec":{"items":[{"new":true,"x":1},{"y":2}],"m":{}},"meta":{"z":3}}`; string(got) != want {
		t.Errorf("AddMember = %s, want %s", got, want)
	}
	if got, err = AddMember(doc, []string{"spec", "m"}, "new", `1`); err != nil || string(got) != `{"k":"v","spec":{"items":[{"x":1},{"y":2}],"m":{"new":1}},"meta":{"z":3}}` {
		t.Errorf("AddMember into an empty object = %s, %v", got, err)
	}
	if got, err = DuplicateFirstMember(doc, nil); err != nil || string(got) != `{"k":"v","k":"v","spec":{"items":[{"x":1},{"y":2}],"m":{}},"meta":{"z":3}}` {
		t.Errorf("DuplicateFirstMember = %s, %v", got, err)
	}
	if _, err = DuplicateFirstMember(doc, []string{"spec", "m"}); err == nil {
		t.Error("DuplicateFirstMember of an empty object did not fail")
	}
}

// The two sides of sameJSON: a field only drakit has, one only upstream
// has, and one that is omitempty on one side only, each fail.
func TestSameJSONFindsDifferences(t *testing.T) {
	type upstream struct {
		A string  `json:"a"`
		B *string `json:"b,omitempty"`
		C []int   `json:"c"`
	}
	type same struct {
		A string  `json:"a"`
		B *string `json:"b,omitempty"`
		C []int   `json:"c"`
	}
	type extra struct {
		A string  `json:"a"`
		B *string `json:"b,omitempty"`
		C []int   `json:"c"`
		D string  `json:"d"`
	}
	type missing struct {
		A string `json:"a"`
		C []int  `json:"c"`
	}
	type omits struct {
		A string  `json:"a"`
		B *string `json:"b,omitempty"`
		C []int   `json:"c,omitempty"`
	}
	theirs := func() any { return &upstream{} }
	if errs := sameJSON(func() any { return &same{} }, theirs, 20); len(errs) != 0 {
		t.Errorf("equal types: %v", errs)
	}
	for name, ours := range map[string]func() any{
		"extra":   func() any { return &extra{} },
		"missing": func() any { return &missing{} },
		"omits":   func() any { return &omits{} },
	} {
		if errs := sameJSON(ours, theirs, 20); len(errs) == 0 {
			t.Errorf("%s: no difference found", name)
		}
	}
}

// The field comparer of SameFields finds a different json tag, protobuf
// number, Go type and field count, and takes ",inline" and "" as the same.
// Each variant is a type named Kind of its own function, as drakit's and
// k8s.io/api's types of a kind share their name.
func TestSameFieldsFindsDifferences(t *testing.T) {
	type Inner struct {
		N int `json:"n" protobuf:"varint,1,opt,name=n"`
	}
	base := func() any {
		type Kind struct {
			Inner `json:",inline"`
			A     string `json:"a,omitempty" protobuf:"bytes,2,opt,name=a"`
		}
		return &Kind{}
	}
	compare := func(ours, theirs any) []error {
		pkg := reflect.TypeOf(ours).Elem().PkgPath()
		c := fieldComparer{ours: pkg, theirs: pkg, seen: map[reflect.Type]bool{}}
		return c.compare("Kind", reflect.TypeOf(ours).Elem(), reflect.TypeOf(theirs).Elem())
	}
	if errs := compare(base(), base()); len(errs) != 0 {
		t.Errorf("equal types: %v", errs)
	}
	inline := func() any {
		type Kind struct {
			Inner `json:""`
			A     string `json:"a,omitempty" protobuf:"bytes,2,opt,name=a"`
		}
		return &Kind{}
	}
	if errs := compare(base(), inline()); len(errs) != 0 {
		t.Errorf(`json:"" and json:",inline" differ: %v`, errs)
	}
	for name, theirs := range map[string]func() any{
		"json": func() any {
			type Kind struct {
				Inner `json:",inline"`
				A     string `json:"a" protobuf:"bytes,2,opt,name=a"`
			}
			return &Kind{}
		},
		"protobuf": func() any {
			type Kind struct {
				Inner `json:",inline"`
				A     string `json:"a,omitempty" protobuf:"bytes,3,opt,name=a"`
			}
			return &Kind{}
		},
		"type": func() any {
			type Kind struct {
				Inner `json:",inline"`
				A     *string `json:"a,omitempty" protobuf:"bytes,2,opt,name=a"`
			}
			return &Kind{}
		},
		"fields": func() any {
			type Kind struct {
				Inner `json:",inline"`
			}
			return &Kind{}
		},
	} {
		if errs := compare(base(), theirs()); len(errs) != 1 {
			t.Errorf("%s: %d differences, want 1: %v", name, len(errs), errs)
		}
	}
}
