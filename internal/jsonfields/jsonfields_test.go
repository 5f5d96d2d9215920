package jsonfields

import (
	"reflect"
	"testing"
)

type base struct {
	Kind  string `json:"kind"`
	Shown string `json:"shown"`
}

type object struct {
	base   `json:",inline"`
	*extra        // no tag: inlined too
	Shown  int    `json:"shown"` // the outer field wins
	Named  string `json:"named,omitempty"`
	Plain  bool
	Hidden string `json:"-"`
	secret string
}

type extra struct {
	Extra []string `json:"extra"`
}

func TestOf(t *testing.T) {
	got := Of(reflect.TypeOf(object{}))
	want := map[string]reflect.Type{
		"kind":  reflect.TypeOf(""),
		"shown": reflect.TypeOf(0),
		"named": reflect.TypeOf(""),
		"Plain": reflect.TypeOf(false),
		"extra": reflect.TypeOf([]string{}),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Of(object) = %v, want %v", got, want)
	}
}
