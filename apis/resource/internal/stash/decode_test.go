package stash

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"

	"github.com/drakit/drakit/apis/resource"
)

// payloadTypes are every payload type decodePayload knows.
func payloadTypes() []func() Payload {
	return []func() Payload{
		func() Payload { return &Class{} },
		func() Payload { return &Claim{} },
		func() Payload { return &Slice{} },
	}
}

func payloadFiller(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.2).NumElements(0, 3).Funcs(
		func(re *runtime.RawExtension, c randfill.Continue) {
			*re = runtime.RawExtension{}
			switch c.Intn(3) {
			case 1:
				re.Raw = []byte(fmt.Sprintf(`{"kind":"Config","n":%d,"s":%q,"l":[1,-2.5e3,true,null,{}]}`, c.Int63n(1000), c.String(8)))
			case 2:
				re.Raw = []byte(fmt.Sprintf(`[%d]`, c.Int63()))
			}
		},
		func(q *apiresource.Quantity, c randfill.Continue) {
			// In canonical form, so that writing it again gives the same text.
			text := apiresource.NewQuantity(c.Int63n(1<<40)-1<<39, apiresource.BinarySI).String()
			once := apiresource.MustParse(text)
			*q = apiresource.MustParse(once.String())
		},
		// The payloads' pointers to lists exist to keep an empty list
		// apart from none; a pointer to a nil list means nothing.
		func(l *[]resource.DeviceRequest, c randfill.Continue) {
			*l = make([]resource.DeviceRequest, c.Intn(3))
			for i := range *l {
				c.Fill(&(*l)[i])
			}
		},
		func(l *[]resource.ResourceHandle, c randfill.Continue) {
			*l = make([]resource.ResourceHandle, c.Intn(3))
			for i := range *l {
				c.Fill(&(*l)[i])
			}
		},
		func(l *[]resource.DeviceAttribute, c randfill.Continue) {
			*l = make([]resource.DeviceAttribute, c.Intn(3))
			for i := range *l {
				c.Fill(&(*l)[i])
			}
		},
	)
}

// TestDecodersMatchReflection fills every payload type at random (every
// field, nil and empty lists, strings with any runes), writes it as
// conversion does and reads it back both with the hand-written decoders
// and with json-iterator's reflection: the two must agree exactly, and
// must give back what was written. A field missing from decode.go fails
// here as an unknown field.
func TestDecodersMatchReflection(t *testing.T) {
	cmpQuantity := cmp.Comparer(func(a, b apiresource.Quantity) bool { return a.Cmp(b) == 0 && a.Format == b.Format })
	iterations := 3000
	if testing.Short() {
		iterations = 300
	}
	for _, newPayload := range payloadTypes() {
		name := reflect.TypeOf(newPayload()).Elem().Name()
		filled := map[string]bool{}
		for i := 0; i < iterations; i++ {
			in := newPayload()
			payloadFiller(int64(i)).Fill(in)
			value, err := codec.MarshalToString(in)
			if err != nil {
				t.Fatalf("%s seed %d: encoding: %v", name, i, err)
			}
			byHand, byReflection := newPayload(), newPayload()
			if err := decodePayload(value, byHand); err != nil {
				t.Fatalf("%s seed %d: hand-written decoder: %v\n%s", name, i, err, value)
			}
			if err := codec.UnmarshalFromString(value, byReflection); err != nil {
				t.Fatalf("%s seed %d: reflection: %v\n%s", name, i, err, value)
			}
			if d := cmp.Diff(byReflection, byHand, cmpQuantity); d != "" {
				t.Fatalf("%s seed %d: the decoders disagree (-reflection +hand):\n%s\n%s", name, i, d, value)
			}
			// What was read writes the same payload again (comparing with
			// in itself would fail on the empty lists omitempty drops).
			again, err := codec.MarshalToString(byHand)
			if err != nil || again != value {
				t.Fatalf("%s seed %d: read back and written again: %v\n%s\nwas\n%s", name, i, err, again, value)
			}
			for _, field := range topLevelKeys(t, value) {
				filled[field] = true
			}
		}
		// Every field of the payload type must have been exercised.
		typ := reflect.TypeOf(newPayload()).Elem()
		for f := 0; f < typ.NumField(); f++ {
			key, _, _ := strings.Cut(typ.Field(f).Tag.Get("json"), ",")
			if !filled[key] {
				t.Errorf("%s: field %q was never written by the filler", name, key)
			}
		}
	}
}

func topLevelKeys(t *testing.T, value string) []string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(value), &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// TestDecodeStrings covers the string escapes json-iterator and
// encoding/json may write, and those a hand-edited stash may hold.
func TestDecodeStrings(t *testing.T) {
	for in, want := range map[string]string{
		`"plain"`:                              "plain",
		`""`:                                   "",
		`"a\"b\\c\/d"`:                         `a"b\c/d`,
		`"\b\f\n\r\t"`:                         "\b\f\n\r\t",
		`"\u00e9\u0001"`:                       "é\x01",
		`"\ud83d\ude00 smile"`:                 "😀 smile",
		`"lone \ud83d half"`:                   "lone \uFFFD half",
		`"lone \ude00\u0041"`:                  "lone \uFFFDA",
		`"é and 😀 unescaped"`:                  "é and 😀 unescaped",
		`"device.driver == \"x\""`:             `device.driver == "x"`,
		`null`:                                 "",
		`"\ud83d\u0041"`:                       "\uFFFDA",
		`"tail escape \u0041"`:                 "tail escape A",
		`"mixed \u00e9 é \" end"`:              `mixed é é " end`,
		`"x\u2028y"`:                           "x\u2028y",
		`"` + strings.Repeat("a", 300) + `\n"`: strings.Repeat("a", 300) + "\n",
	} {
		r := &reader{s: in}
		got := r.str()
		r.end()
		if r.err != nil || got != want {
			t.Errorf("%s: got %q, %v; want %q", in, got, r.err, want)
		}
		// encoding/json agrees.
		var std string
		if err := json.Unmarshal([]byte(in), &std); err != nil || std != want {
			t.Errorf("%s: encoding/json reads %q, %v", in, std, err)
		}
	}
}

// TestDecodeRejects: malformed payloads are errors, never a partial
// success, and never a panic.
// TestDecodeRefusesHugeExponents: apimachinery would never finish parsing
// these quantities, so a stash holding one is malformed.
func TestDecodeRefusesHugeExponents(t *testing.T) {
	for _, q := range []string{`"1E-2147483647"`, `"1E2147483648"`, `" 1E-5000 "`} {
		in := `{"v":1,"devices":[{"index":0,"name":"a","attributes":[{"name":"m","quantity":` + q + `}]}]}`
		if err := decodePayload(in, &Slice{}); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("%s: %v, want the exponent refused", q, err)
		}
	}
	in := `{"v":1,"devices":[{"index":0,"name":"a","attributes":[{"name":"m","quantity":"1E-1000"}]}]}`
	if err := decodePayload(in, &Slice{}); err != nil {
		t.Errorf("1E-1000: %v", err)
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, in := range []string{
		``, ` `, `[]`, `"s"`, `{`, `{"v":1`, `{"v":1,}`, `{"v":1}x`, `{"v":1}{}`, `{v:1}`, `{"v" 1}`,
		`{"v":01}`, `{"v":1.5}`, `{"v":1e2}`, `{"v":-}`, `{"v":99999999999999999999}`, `{"v":"1"}`,
		`{"v":1,"selectors":{}}`, `{"v":1,"selectors":[{"cel":{"expression":1}}]}`,
		`{"v":1,"selectors":[{"CEL":{}}]}`, `{"v":1,"Selectors":[]}`, `{"v":1,"bogus":true}`,
		`{"v":1,"selectors":[{"cel":{"expression":"a` + "\x01" + `"}}]}`,
		`{"v":1,"selectors":[{"cel":{"expression":"\x"}}]}`,
		`{"v":1,"selectors":[{"cel":{"expression":"\u12"}}]}`,
		`{"v":1,"selectors":[{"cel":{"expression":"\u12zz"}}]}`,
		`{"v":1,"selectors":[{"cel":{"expression":"unterminated}}]}`,
		`{"v":1,"config":[{"opaque":{"parameters":{"a":}}}]}`,
		`{"v":1,"config":[{"opaque":{"parameters":[1,]}}]}`,
		`{"v":1,"config":[{"opaque":{"parameters":tru}}]}`,
		`{"v":1,"config":[{"opaque":{"parameters":1.}}]}`, `{"v":1,"config":[{"opaque":{"parameters":1e}}]}`,
		`{"v":1,"config":[{"opaque":{"parameters":1e+}}]}`, `{"v":1,"config":[{"opaque":{"parameters":-.5}}]}`,
		`{"v":1,"config":[{"opaque":{"parameters":01}}]}`, `{"v":1,"config":[{"opaque":{"parameters":[-]}}]}`,
		`{"v":1,"config":[{"opaque":{"parameters":` + strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1) + `}}]}`,
		`{"v":1,"structuredParameters":"yes"}`, `{"v":1,"config":[{"requests":["a"]}]}`,
	} {
		if err := decodePayload(in, &Class{}); err == nil {
			t.Errorf("%q: accepted", in)
		}
	}
}

// FuzzDecodeAgreesWithEncodingJSON mutates valid payloads: whatever the
// hand-written decoders accept, encoding/json (strict) must accept with the
// same result; they never panic. go test runs the seeds; go test -fuzz
// explores.
func FuzzDecodeAgreesWithEncodingJSON(f *testing.F) {
	for i := 0; i < 20; i++ {
		for _, newPayload := range payloadTypes() {
			p := newPayload()
			payloadFiller(int64(i)).Fill(p)
			value, err := codec.MarshalToString(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(value)
		}
	}
	f.Fuzz(func(t *testing.T, value string) {
		for _, newPayload := range payloadTypes() {
			got := newPayload()
			if err := decodePayload(value, got); err != nil || !utf8.ValidString(value) || hasDuplicateKeys(value) {
				// Invalid UTF-8 is kept by drakit and replaced by
				// encoding/json; duplicate keys merge objects there and
				// replace them here. A stash drakit writes has neither.
				continue
			}
			want := newPayload()
			dec := json.NewDecoder(strings.NewReader(value))
			dec.DisallowUnknownFields()
			if err := dec.Decode(want); err != nil {
				t.Fatalf("accepted what encoding/json rejects (%v): %s", err, value)
			}
			cmpQuantity := cmp.Comparer(func(a, b apiresource.Quantity) bool { return a.Cmp(b) == 0 && a.Format == b.Format })
			if d := cmp.Diff(want, got, cmpQuantity); d != "" {
				t.Fatalf("disagrees with encoding/json (-std +hand):\n%s\n%s", d, value)
			}
		}
	})
}

// hasDuplicateKeys reports whether an object in value has a key twice.
func hasDuplicateKeys(value string) bool {
	dec := json.NewDecoder(strings.NewReader(value))
	type frame struct {
		keys   map[string]bool
		object bool
		key    bool // the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if k, ok := tok.(string); ok {
				if top.keys[k] {
					return true
				}
				top.keys[k] = true
				top.key = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}, object: true, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true // a value ended
		}
	}
}
