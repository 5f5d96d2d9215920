package stash

import (
	"reflect"
	"slices"
	"testing"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/apis/resource"
)

// TestLostFields: the fields a version cannot say are the hub fields whose
// JSON names none of its types has, less those it handles; Keep keeps each
// that is set (an empty list is set), Restore gives them back (and unsets
// those nothing kept), and a handled name that is no field is a mistake
// found at once.
func TestLostFields(t *testing.T) {
	type basic struct {
		Attributes map[string]string `json:"attributes"`
	}
	type device struct {
		Name  string `json:"name"`
		Basic basic  `json:"basic"`
		basic `json:",inline"`
	}
	lost := LostFields[resource.Device]([]any{device{}}, "capacity")
	var want []string
	for _, f := range hubFields(reflect.TypeFor[resource.Device]()).list {
		if f.name != "name" && f.name != "attributes" && f.name != "capacity" {
			want = append(want, f.name)
		}
	}
	if got := lost.Names(); !slices.Equal(got, want) || !slices.Contains(got, "bindingConditions") {
		t.Errorf("lost %v, want %v", got, want)
	}

	in := resource.Device{Name: "gpu-0", Capacity: map[resource.QualifiedName]resource.DeviceCapacity{}, BindingConditions: []string{}}
	if !lost.AnySet(&in) {
		t.Errorf("an empty bindingConditions is not set")
	}
	var kept resource.Device
	if !lost.Keep(&in, &kept) || kept.BindingConditions == nil || kept.Name != "" || kept.Capacity != nil {
		t.Errorf("kept %+v: want bindingConditions alone, empty and not nil", kept)
	}
	out := resource.Device{Name: "gpu-0"}
	lost.Restore(&kept, &out)
	if out.BindingConditions == nil || len(out.BindingConditions) != 0 || out.Name != "gpu-0" {
		t.Errorf("restored %+v", out)
	}
	// Each is what was kept, or unset: a lost field that out sets of its
	// own (out reused) goes when nothing was kept.
	stale := resource.Device{Name: "gpu-0", BindingConditions: []string{"old"}}
	lost.Restore(&resource.Device{}, &stale)
	if stale.BindingConditions != nil || stale.Name != "gpu-0" {
		t.Errorf("restored nothing kept over %+v", stale)
	}
	if lost.AnySet(&resource.Device{Name: "x", Attributes: map[resource.QualifiedName]resource.DeviceAttribute{}}) {
		t.Errorf("fields the version shows count as lost")
	}

	defer func() {
		if recover() == nil {
			t.Errorf("a handled name that is no field of the hub type was accepted")
		}
	}()
	LostFields[resource.Device]([]any{device{}}, "noSuchField")
}

// TestKeptPayloadText: a payload with a kept hub value writes it in the
// hub's order, its own fields at the place of the hub fields they hide, an
// empty list as [], and reads back as it was.
func TestKeptPayloadText(t *testing.T) {
	node := ""
	in := &Slice{V: FormatVersion, EmptyDevices: true, Devices: []Device{{Index: 1}}}
	in.NodeName = &node
	in.SharedCounters = []resource.CounterSet{}
	in.NoResourceModel = true
	in.Devices[0].Name = "gpu-1"
	in.Devices[0].BindingConditions = []string{}
	value, err := codec.MarshalToString(in)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"v":1,"emptyDevices":true,"nodeName":"","devices":[{"index":1,"name":"gpu-1","bindingConditions":[]}],"sharedCounters":[],"noResourceModel":true}`
	if value != want {
		t.Errorf("got  %s\nwant %s", value, want)
	}
	out := &Slice{}
	if err := decodePayload(value, out); err != nil || !reflect.DeepEqual(in, out) {
		t.Errorf("read back %+v, %v; want %+v", out, err, in)
	}
}

// TestFieldSetAnySet: the compiled test whether any field is set says what
// fieldInfo.set says of each field, for every kind it sorts fields by: a
// value with one field set is set, whichever field it is, and the zero
// value is not.
func TestFieldSetAnySet(t *testing.T) {
	type kinds struct {
		Pointer *int              `json:"pointer"`
		Map     map[string]string `json:"map"`
		Slice   []string          `json:"slice"`
		String  string            `json:"string"`
		Bool    bool              `json:"bool"`
		Int     int64             `json:"int"`
		Small   int32             `json:"small"`
		Struct  metav1.Time       `json:"struct"`
	}
	all := AllFields[kinds]()
	if n := len(all.list); n != reflect.TypeFor[kinds]().NumField() {
		t.Fatalf("%d fields, want one per field of the struct", n)
	}
	if all.AnySet(&kinds{}) {
		t.Errorf("the zero value has a field set")
	}
	one := 1
	for name, v := range map[string]kinds{
		"pointer":     {Pointer: &one},
		"empty map":   {Map: map[string]string{}},
		"empty slice": {Slice: []string{}},
		"string":      {String: "x"},
		"bool":        {Bool: true},
		"int":         {Int: -1},
		"small":       {Small: 1},
		"struct":      {Struct: metav1.Unix(1, 0)},
	} {
		if !all.AnySet(&v) {
			t.Errorf("%s: not set", name)
		}
		set := 0
		for _, f := range all.list {
			if f.set(unsafe.Pointer(&v)) {
				set++
			}
		}
		if set != 1 {
			t.Errorf("%s: %d fields set by fieldInfo.set, want 1", name, set)
		}
	}
	if empty := (kinds{String: ""}); all.AnySet(&empty) {
		t.Errorf("an empty string is set")
	}
}
