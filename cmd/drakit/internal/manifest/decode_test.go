package manifest

import (
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// firstDoc reads the first non-empty document of input.
func firstDoc(t *testing.T, input string) *Document {
	t.Helper()
	r := NewReader(strings.NewReader(input), "in.yaml")
	for {
		d, err := r.Next()
		if err != nil {
			t.Fatalf("reading: %v", err)
		}
		if !d.Empty() {
			return d
		}
	}
}

func decodeSlice(t *testing.T, input string, strict bool) (warnings []string, err string) {
	t.Helper()
	d := firstDoc(t, input)
	js, ws, e := d.ToJSON(strict)
	for _, w := range ws {
		warnings = append(warnings, w.Error())
	}
	if e != nil {
		return warnings, e.Error()
	}
	var slice v1alpha3.ResourceSlice
	ws, e = d.Decode(js, &slice, strict, "")
	for _, w := range ws {
		warnings = append(warnings, w.Error())
	}
	if e != nil {
		return warnings, e.Error()
	}
	return warnings, ""
}

const sliceHead = `# a slice
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata:
  name: s
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool:
    name: node-a
    generation: 1
    resourceSliceCount: 1
  devices:
  - name: gpu-0
    basic:
      attributes:
        model:
          string: A100
      capacity:
        memory: 80Gi
`

func TestDecodeErrorsNameFieldAndLine(t *testing.T) {
	cases := []struct {
		name, input string
		strict      bool
		want        string
		warnings    []string
	}{
		{"valid", sliceHead, true, "", nil},
		{"unknown field", sliceHead + "  - name: gpu-1\n    bsaic: {}\n", true,
			`in.yaml:22: document 1: spec.devices[1].bsaic: unknown field "bsaic"`, nil},
		{"unknown field, not strict", sliceHead + "  - name: gpu-1\n    bsaic: {}\n", false,
			"", []string{`in.yaml:22: document 1: spec.devices[1].bsaic: unknown field "bsaic"`}},
		{"duplicate YAML key", strings.Replace(sliceHead, "    generation: 1\n", "    generation: 1\n    generation: 2\n", 1), true,
			`in.yaml:12: document 1: ResourceSlice s: spec.pool.generation: duplicate field "generation" (the last value would win; remove one of them)`, nil},
		{"duplicate YAML key, not strict", strings.Replace(sliceHead, "    generation: 1\n", "    generation: 1\n    generation: 2\n", 1), false,
			"", []string{`in.yaml:12: document 1: ResourceSlice s: spec.pool.generation: duplicate field "generation" (the last value would win; remove one of them)`}},
		{"bad quantity", strings.Replace(sliceHead, "80Gi", "80GG", 1), true,
			`in.yaml:20: document 1: spec.devices[0].basic.capacity[memory]: not a quantity; write a number with an optional suffix, like 80Gi, 1.5 or 500m (unable to parse quantity's suffix)`, nil},
		{"wrong type", strings.Replace(sliceHead, "generation: 1", "generation: one", 1), true,
			`in.yaml:11: document 1: spec.pool.generation: must be an integer, not a string`, nil},
		{"list for object", strings.Replace(sliceHead, "    basic:\n", "    basic: []\n    x:\n", 1), true,
			`in.yaml:15: document 1: spec.devices[0].basic: must be an object, not a list`, nil},
		{"syntax", sliceHead + "  - name: [unclosed\n", true,
			`in.yaml:21: document 1: invalid YAML: did not find expected ',' or ']'`, nil},
		{"tab indentation", "apiVersion: v1\nkind: A\nmetadata:\n\tname: x\n", true,
			`in.yaml:4: document 1: invalid YAML: found character that cannot start any token`, nil},
		{"scalar document", "just text\n", true,
			`in.yaml:1: document 1: a manifest must be an object with apiVersion and kind; this document is a string`, nil},
		{"list document", "- a\n- b\n", true,
			`in.yaml:1: document 1: a manifest must be an object with apiVersion and kind; this document is a list`, nil},
		{"JSON syntax", "{\n  \"kind\": \"ResourceSlice\",\n  \"spec\": {,}\n}\n", true,
			`in.yaml:3: document 1: invalid JSON: invalid character ',' looking for beginning of object key string`, nil},
		{"alias bomb", aliasBomb(), true,
			`in.yaml:1: document 1: YAML aliases expand too much (an alias bomb?); write the repeated parts out`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			warnings, err := decodeSlice(t, c.input, c.strict)
			if err != c.want {
				t.Errorf("error\n got %s\nwant %s", err, c.want)
			}
			if strings.Join(warnings, "\n") != strings.Join(c.warnings, "\n") {
				t.Errorf("warnings\n got %q\nwant %q", warnings, c.warnings)
			}
		})
	}
}

// aliasBomb is the "billion laughs" of YAML: nine levels of nine aliases.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	prev := "a"
	for _, name := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		b.WriteString(name + ": &" + name + " [")
		for k := 0; k < 9; k++ {
			if k > 0 {
				b.WriteString(",")
			}
			b.WriteString("*" + prev)
		}
		b.WriteString("]\n")
		prev = name
	}
	return b.String()
}

func TestPeekHead(t *testing.T) {
	cases := map[string]string{
		"kind: A\n":                              `in.yaml:1: document 1: A: apiVersion is not set`,
		"kind: \"A\\nB\"\n":                      `in.yaml:1: document 1: "A\nB": apiVersion is not set`,
		"apiVersion: v1\n":                       `in.yaml:1: document 1: kind is not set`,
		"metadata: {name: x}\n":                  `in.yaml:1: document 1: x: apiVersion and kind are not set; every manifest needs both`,
		"apiVersion: 1\nkind: A\n":               `in.yaml:1: document 1: apiVersion: must be a string, not a number`,
		"apiVersion: v1\nkind: A\nmetadata: 3\n": `in.yaml:3: document 1: metadata: must be an object, not a number`,
	}
	for input, want := range cases {
		d := firstDoc(t, input)
		js, _, e := d.ToJSON(true)
		if e != nil {
			t.Fatal(e)
		}
		_, e = d.PeekHead(js, "")
		got := ""
		if e != nil {
			got = e.Error()
		}
		if got != want {
			t.Errorf("%q:\n got %s\nwant %s", input, got, want)
		}
	}
}

func TestLineOf(t *testing.T) {
	raw := []byte("a: 1\nb:\n  c:\n  - x: 1\n  - x: 2\n    y.z/w: 3\n  m:\n    k.e.y: 4\n")
	cases := map[string]int{
		"a": 1, "b": 2, "b.c": 3, "b.c[0]": 4, "b.c[1].x": 5, "b.c[1].y.z/w": 6, "b.m[k.e.y]": 8, "b.m.k.e.y": 8,
		"b.nothing": 2, "": 1,
	}
	for path, want := range cases {
		if got := LineOf(raw, path, false); got != want {
			t.Errorf("LineOf(%q) = %d, want %d", path, got, want)
		}
	}
}
