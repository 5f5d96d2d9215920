package specnorm

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func decode(t *testing.T, s string, useNumber bool) any {
	t.Helper()
	var v any
	dec := json.NewDecoder(strings.NewReader(s))
	if useNumber {
		dec.UseNumber()
	}
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{{
		name: "old list of references",
		in:   `{"type":"array","description":"d","items":{"allOf":[{"$ref":"#/x"}],"default":{}}}`,
		want: `{"type":"array","items":{"$ref":"#/x"}}`,
	}, {
		name: "old list of strings and map of integers",
		in:   `{"properties":{"a":{"items":{"type":"string","default":""}},"b":{"additionalProperties":{"type":"integer","default":0}}}}`,
		want: `{"properties":{"a":{"items":{"type":"string"}},"b":{"additionalProperties":{"type":"integer"}}}}`,
	}, {
		name: "a default that means something stays",
		in:   `{"items":{"type":"string","default":"x"}}`,
		want: `{"items":{"type":"string","default":"x"}}`,
	}, {
		name: "a property's own default and allOf stay",
		in:   `{"properties":{"p":{"allOf":[{"$ref":"#/x"}],"default":{}}}}`,
		want: `{"properties":{"p":{"allOf":[{"$ref":"#/x"}],"default":{}}}}`,
	}, {
		name: "a property called description stays",
		in:   `{"properties":{"description":{"type":"string","description":"text"}}}`,
		want: `{"properties":{"description":{"type":"string"}}}`,
	}, {
		name: "allOf of more than a reference stays",
		in:   `{"items":{"allOf":[{"$ref":"#/x","x-y":1}],"default":{}}}`,
		want: `{"items":{"allOf":[{"$ref":"#/x","x-y":1}]}}`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, useNumber := range []bool{false, true} {
				in := decode(t, tc.in, useNumber)
				before := decode(t, tc.in, useNumber)
				got := Normalize(in)
				if diff := cmp.Diff(decode(t, tc.want, useNumber), got); diff != "" {
					t.Errorf("UseNumber=%v (-want +got):\n%s", useNumber, diff)
				}
				if diff := cmp.Diff(before, in); diff != "" {
					t.Errorf("Normalize changed its input:\n%s", diff)
				}
			}
		})
	}
}
