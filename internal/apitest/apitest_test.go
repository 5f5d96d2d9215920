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
