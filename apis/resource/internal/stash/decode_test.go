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

	"github.com/drakit/drakit/internal/fuzzer"
)

// payloadTypes are every payload type decodePayload knows.
func payloadTypes() []func() Payload {
	return []func() Payload{
		func() Payload { return &Class{} },
		func() Payload { return &Claim{} },
		func() Payload { return &Slice{} },
	}
}

// payloadFiller fills payloads with every kind of value a payload can
// hold: the fuzzer's (quantities in canonical form, raw extensions that are
// JSON, pointers to lists that are nil or point to a list) with strings of
// any bytes, invalid UTF-8 and every character JSON escapes included.
func payloadFiller(seed int64) *randfill.Filler {
	return fuzzer.New(seed).Funcs(fuzzer.HardStrings()...).Funcs(
		func(c *Class, fill randfill.Continue) { fill.FillNoCustom(c); clearHidden(c) },
		func(s *Slice, fill randfill.Continue) { fill.FillNoCustom(s); clearHidden(s) },
		func(d *Device, fill randfill.Continue) { fill.FillNoCustom(d); clearHidden(d) },
		func(s *ClaimSpec, fill randfill.Continue) { fill.FillNoCustom(s); clearHidden(s) },
		func(s *ClaimStatus, fill randfill.Continue) { fill.FillNoCustom(s); clearHidden(s) },
		func(a *Allocation, fill randfill.Continue) { fill.FillNoCustom(a); clearHidden(a) },
		fillLost,
	)
}

// lostPaths are paths of a claim's structs, one of each kind of step.
var lostPaths = []string{
	"spec",
	"spec.devices",
	"spec.devices.requests[0].exactly",
	"spec.devices.requests[12].firstAvailable[1]",
	"spec.devices.config[0].opaque",
	"status.allocation.devices.results[3]",
	"status.devices[0].networkData",
}

// fillLost fills a Lost with structs of random paths: nil, or one to
// three of them (never empty: an empty Lost is left out, as none).
func fillLost(l *Lost, c randfill.Continue) {
	if c.Intn(3) == 0 {
		*l = nil
		return
	}
	*l = Lost{}
	for n := 1 + c.Intn(3); n > 0; n-- {
		path := lostPaths[c.Intn(len(lostPaths))]
		v := reflect.New(lostType(claimType, path))
		c.Fill(v.Interface())
		(*l)[path] = v.Interface()
	}
}

// clearHidden clears the fields of the hub value that payload (a pointer
// to a payload type with one) keeps which a field of the payload's own
// hides: no conversion sets them, and JSON cannot say them.
func clearHidden(payload any) {
	v := reflect.ValueOf(payload).Elem()
	l := layoutOf(v.Type())
	kept := v.Field(l.kept)
	for i := 0; i < kept.NumField(); i++ {
		name, _, _ := strings.Cut(kept.Type().Field(i).Tag.Get("json"), ",")
		if l.fields.byName[name] == nil {
			kept.Field(i).SetZero()
		}
	}
}

// exactly compares payloads exactly; quantities must have the same value,
// format and text.
var exactly = cmp.Comparer(func(a, b apiresource.Quantity) bool {
	return a.Cmp(b) == 0 && a.Format == b.Format && a.String() == b.String()
})

// TestWriteReadRoundTrip is the differential test of the writer (codec)
// and the hand-written decoders: random payloads of every type, with every
// field filled at random (nil and empty lists, strings of any bytes), are
// written as Write writes them and read back as Take reads them, and must
// come back exactly. Every member path that a payload type can have must
// have been written at least once, so that a field the decoders do not
// know fails here: as an unknown field, or as one never exercised.
func TestWriteReadRoundTrip(t *testing.T) {
	iterations := fuzzer.Iterations(5000, 500)
	tested := 0
	for _, newPayload := range payloadTypes() {
		typ := reflect.TypeOf(newPayload()).Elem()
		seen := map[string]bool{}
		for i := range iterations {
			in := newPayload()
			payloadFiller(int64(i)).Fill(in)
			value, err := codec.MarshalToString(in)
			if err != nil {
				t.Fatalf("%s seed %d: writing: %v", typ.Name(), i, err)
			}
			out := newPayload()
			if err := decodePayload(value, out); err != nil {
				t.Fatalf("%s seed %d: reading: %v\n%s", typ.Name(), i, err, value)
			}
			if d := cmp.Diff(in, out, exactly); d != "" {
				t.Fatalf("%s seed %d: read back differently (-written +read):\n%s\n%s", typ.Name(), i, d, value)
			}
			var tree any
			if err := json.Unmarshal([]byte(value), &tree); err != nil {
				t.Fatalf("%s seed %d: not JSON: %v\n%s", typ.Name(), i, err, value)
			}
			jsonPaths(tree, "", seen)
		}
		want := map[string]bool{}
		typePaths(typ, "", want, nil)
		for path := range want {
			if !seen[path] {
				t.Errorf("%s: %s was never written", typ.Name(), path)
			}
		}
		tested++
	}
	if tested == 0 || tested != len(payloadTypes()) {
		t.Fatalf("tested %d payload types of %d", tested, len(payloadTypes()))
	}
}

var (
	rawExtensionType = reflect.TypeOf(runtime.RawExtension{})
	quantityType     = reflect.TypeOf(apiresource.Quantity{})
)

// typePaths adds to paths every member path that values of typ can have,
// as json tags name them: ".spec.requests[].name". Inlined structs add
// their members to the enclosing object's; values with a MarshalJSON of
// their own end a path.
func typePaths(typ reflect.Type, prefix string, paths map[string]bool, visiting []reflect.Type) {
	for typ.Kind() == reflect.Ptr || typ.Kind() == reflect.Slice {
		if typ.Kind() == reflect.Slice {
			prefix += "[]"
		}
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || typ == rawExtensionType || typ == quantityType {
		return
	}
	for _, v := range visiting {
		if v == typ {
			panic("recursive type " + typ.String())
		}
	}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case !f.IsExported() || name == "-":
		case f.Anonymous && name == "":
			typePaths(f.Type, prefix, paths, append(visiting, typ))
		default:
			paths[prefix+"."+name] = true
			typePaths(f.Type, prefix+"."+name, paths, append(visiting, typ))
		}
	}
}

// jsonPaths adds the member paths of a decoded JSON value to paths.
func jsonPaths(v any, prefix string, paths map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, member := range v {
			paths[prefix+"."+k] = true
			jsonPaths(member, prefix+"."+k, paths)
		}
	case []any:
		for _, elem := range v {
			jsonPaths(elem, prefix+"[]", paths)
		}
	}
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
	payloads := []struct {
		payload func() Payload
		format  string // the JSON, with %s for the quantity
	}{
		// Read by hand.
		{func() Payload { return &Claim{} }, `{"v":1,"spec":{"requests":[{"name":"r","exactly":{"deviceClassName":"c","capacity":{"requests":{"m":%s}}}}]}}`},
		{func() Payload { return &Claim{} }, `{"v":1,"status":{"allocation":{"devices":{"results":[{"request":"r","driver":"d","pool":"p","device":"x","consumedCapacity":{"m":%s}}]}}}}`},
		// Read by the strict codec.
		{func() Payload { return &Slice{} }, `{"v":1,"devices":[{"index":0,"name":"a","capacity":{"m":{"value":%s}}}]}`},
		{func() Payload { return &Slice{} }, `{"v":1,"sharedCounters":[{"name":"s","counters":{"c":{"value":%s}}}]}`},
	}
	for _, p := range payloads {
		for _, q := range []string{`"1E-2147483647"`, `"1E2147483648"`, `" 1E-5000 "`} {
			in := fmt.Sprintf(p.format, q)
			if err := decodePayload(in, p.payload()); err == nil || !strings.Contains(err.Error(), "out of range") {
				t.Errorf("%s: %v, want the exponent refused", in, err)
			}
		}
		in := fmt.Sprintf(p.format, `"1E-1000"`)
		if err := decodePayload(in, p.payload()); err != nil {
			t.Errorf("%s: %v", in, err)
		}
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
			fuzzer.New(int64(i)).Funcs(fillLost).Fill(p)
			value, err := codec.MarshalToString(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(value)
		}
	}
	// Claims with lost fields by path (format 2), as the versions write
	// them, and paths that lead nowhere.
	f.Add(`{"v":2,"lost":{"spec.devices.requests[1].exactly":{"exampleRetries":3,"tolerations":[{"key":"a"}]}}}`)
	f.Add(`{"v":2,"spec":{"controller":"c"},"lost":{"spec.devices.config[0]":{"requests":["a"]},"status.allocation.devices.results[0]":{"shareID":"x"}}}`)
	f.Add(`{"v":2,"lost":{"spec.devices.requests[-1]":{},"status.devices[01]":{},"spec..devices":null}}`)
	f.Add(`{"v":2,"lost":{"spec.devices.requests":{},"status.allocation.devices.results[0].request":{}}}`)
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
