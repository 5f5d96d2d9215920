package printer

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
	yamlv3 "sigs.k8s.io/yaml/goyaml.v3"
)

// trickyStrings read as something other than themselves if printed plain
// carelessly, in YAML 1.1 (kubectl), YAML 1.2, or both.
var trickyStrings = []string{
	"", " ", "a", "true", "True", "FALSE", "yes", "No", "on", "OFF", "y", "n", "~", "null", "Null",
	"0", "12", "-1", "+1", "0x1F", "0X1F", "0o17", "0O17", "017", "0b101", "0B101", "0o+7", "0o-7", "0b+1", "0b-1", "0o+0", "1_000", "1.5", ".5", "1e3", "-1.2e-3",
	".inf", "-.Inf", ".NaN", "12:30", "1:20:30.5", "2024-01-01", "2024-01-01T10:00:00Z", "2001-12-14 21:59:43.10 -5",
	"1.2.3", "v1.2.3", "12.4.1", "80Gi", "100m", "-", "--", "---", "...", "- a", "? a", ": a", "a: b", "a:b", "a:",
	"#x", "a #b", "a#b", "&a", "*a", "!a", "|", ">", "'", "\"", "%a", "@a", "`a", "[a]", "{a}", "a,b", "<<", "=",
	"tab\there", "trailing ", " leading", "multi\nline", "multi\nline\n", "multi\nline\n\n", "\nleading newline",
	"line with trailing space \nnext", "a\r\nb", "ctrl\x01char", "del\x7f", "unicode é ü 漢字", "nbsp\u00a0x",
	"line\u2028sep", "bom\ufeff", "emoji 😀", `device.driver == "gpu.example.com"`,
	`device.attributes["gpu.example.com"].model == "H100" && device.capacity["gpu.example.com"].memory.compareTo(quantity("80Gi")) >= 0`,
	"{\"node\":\"node-a\",\"devices\":[\"GPU-1\"]}", "a\n  indented\nb", "   \n", "x\n   \ny",
}

// readBack parses YAML the way kubectl does (YAML 1.1) and as a YAML 1.2
// parser does; both must give want.
func readBack(t *testing.T, out []byte, want any) {
	t.Helper()
	var v11 any
	if err := yaml.Unmarshal(out, &v11); err != nil {
		t.Fatalf("YAML 1.1 parser rejects the output: %v\n%s", err, out)
	}
	wantJSON, _ := json.Marshal(want)
	gotJSON, _ := json.Marshal(v11)
	if !bytes.Equal(normalize(t, wantJSON), normalize(t, gotJSON)) {
		t.Fatalf("YAML 1.1 reads back\n%s\nwant\n%s\nfrom\n%s", gotJSON, wantJSON, out)
	}
	var v12 any
	if err := yamlv3.Unmarshal(out, &v12); err != nil {
		t.Fatalf("YAML 1.2 parser rejects the output: %v\n%s", err, out)
	}
	got12, err := json.Marshal(v12)
	if err != nil {
		t.Fatalf("YAML 1.2 reads back something without a JSON form: %v\n%s", err, out)
	}
	if !bytes.Equal(normalize(t, wantJSON), normalize(t, got12)) {
		t.Fatalf("YAML 1.2 reads back\n%s\nwant\n%s\nfrom\n%s", got12, wantJSON, out)
	}
}

func normalize(t *testing.T, js []byte) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return out
}

func TestTrickyStringsReadBack(t *testing.T) {
	for _, s := range trickyStrings {
		obj := map[string]any{
			"value": s,
			s:       "as key",
			"list":  []any{s, map[string]any{"k": s}, []any{s}},
			"nested": map[string]any{
				"deeper": map[string]any{"value": s},
			},
		}
		out, err := AppendYAML(nil, obj)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		readBack(t, out, obj)
	}
}

func TestScalarStyles(t *testing.T) {
	// The choices kubectl's printer makes, which users are used to.
	cases := map[string]string{
		"plain":                                `plain`,
		"gpu.example.com":                      `gpu.example.com`,
		`device.driver == "gpu.example.com"`:   `device.driver == "gpu.example.com"`,
		"true":                                 `"true"`,
		"123":                                  `"123"`,
		"2024-01-01T10:00:00Z":                 `"2024-01-01T10:00:00Z"`,
		"12.4.1":                               `12.4.1`,
		"a: b":                                 `'a: b'`,
		"":                                     `""`,
		"it's: here":                           `'it''s: here'`,
		"tab\there":                            `"tab\there"`,
		"{\"node\":\"node-a\"}":                `'{"node":"node-a"}'`,
		"&&":                                   `'&&'`,
		"device.attributes[\"x\"].a && true":   `device.attributes["x"].a && true`,
		"80Gi":                                 `80Gi`,
		"0b5e2c1a-7d3f-4e8b-9c6a-1f2d3e4a5b6c": `0b5e2c1a-7d3f-4e8b-9c6a-1f2d3e4a5b6c`,
	}
	for in, want := range cases {
		out, err := AppendYAML(nil, map[string]any{"k": in})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(strings.TrimPrefix(string(out), "k: "), "\n"); got != want {
			t.Errorf("%q printed as %s, want %s", in, got, want)
		}
	}
}

func TestLayout(t *testing.T) {
	obj := map[string]any{
		"apiVersion": "resource.k8s.io/v1alpha3",
		"kind":       "ResourceClaim",
		"metadata":   map[string]any{"name": "x", "labels": map[string]any{}},
		"spec": map[string]any{
			"devices": map[string]any{
				"requests": []any{
					map[string]any{"name": "gpu", "count": int64(2), "selectors": []any{map[string]any{"cel": map[string]any{"expression": "a\nb\n"}}}},
				},
				"constraints": []any{},
				"matrix":      []any{[]any{int64(1), int64(2)}, []any{}},
			},
		},
		"status": nil,
		"ratio":  1.5,
		"whole":  3.0,
	}
	got, err := AppendYAML(nil, obj)
	if err != nil {
		t.Fatal(err)
	}
	want := `apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  labels: {}
  name: x
ratio: 1.5
spec:
  devices:
    constraints: []
    matrix:
    - - 1
      - 2
    - []
    requests:
    - count: 2
      name: gpu
      selectors:
      - cel:
          expression: |
            a
            b
status: null
whole: 3
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	readBack(t, got, obj)
}

func TestKeyOrderMatchesKubectl(t *testing.T) {
	keys := map[string]any{"item10": 1, "item2": 1, "Zeta": 1, "alpha": 1, "a-b": 1, "ab": 1, "a_b": 1, "a.b": 1, "a/b": 1, "1": 1, "10": 1, "9": 1, "é": 1, "e": 1}
	want, err := yaml.Marshal(keys) // goyaml, as kubectl prints
	if err != nil {
		t.Fatal(err)
	}
	got, err := AppendYAML(nil, keys)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("key order differs from kubectl's:\ngot\n%s\nwant\n%s", got, want)
	}
}

// TestExamplesMatchKubectl prints every example the way kubectl would
// (sigs.k8s.io/yaml) and with this printer: the YAML must be the same
// content and, for these realistic objects, the same bytes, except where
// kubectl folds a line longer than 80 characters.
func TestExamplesMatchKubectl(t *testing.T) {
	files, _ := filepath.Glob("../../../../examples/*/*.yaml")
	if len(files) == 0 {
		t.Fatal("no examples found")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range strings.Split(string(data), "\n---\n") {
			var obj map[string]any
			if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
				t.Fatalf("%s document %d: %v", f, i+1, err)
			}
			want, err := yaml.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			got, err := AppendYAML(nil, obj)
			if err != nil {
				t.Fatal(err)
			}
			readBack(t, got, obj)
			if hasLongLine(got) {
				// kubectl folds long strings over several lines; drakit
				// keeps one value on one line (easier to grep and diff).
				continue
			}
			if string(got) != string(want) {
				t.Errorf("%s document %d printed differently from kubectl:\ngot\n%s\nwant\n%s", f, i+1, got, want)
			}
		}
	}
}

func FuzzAppendYAML(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8Valid(s) {
			return // JSON content is always valid UTF-8
		}
		obj := map[string]any{"v": s, s: []any{s, map[string]any{s: s}}}
		out, err := AppendYAML(nil, obj)
		if err != nil {
			t.Fatal(err)
		}
		readBack(t, out, obj)
	})
}

func utf8Valid(s string) bool {
	return reflect.ValueOf(s).IsValid() && strings.ToValidUTF8(s, "\uFFFD") == s
}

func hasLongLine(out []byte) bool {
	for _, line := range bytes.Split(out, []byte("\n")) {
		if len(line) > 80 {
			return true
		}
	}
	return false
}

// TestNumberLikeStringsReadBack prints every short string made of the
// characters that numbers, dates and their prefixes use, and reads each back
// with both parsers: each must come back as the same string. The fuzzer
// found "0O0" and "0o+0" one at a time; this walks the whole neighbourhood.
func TestNumberLikeStringsReadBack(t *testing.T) {
	var all []string
	for _, set := range []struct {
		alphabet string
		maxLen   int
	}{
		{"019+-._:boxOBXeEpTtZ ", 3},
		{"0o+-b1x_.", 4},
		{"0o+-b1", 5},
	} {
		all = appendStrings(all, "", set.alphabet, set.maxLen)
	}
	const batch = 2000
	for start := 0; start < len(all); start += batch {
		list := all[start:min(start+batch, len(all))]
		values := make([]any, len(list))
		for i, s := range list {
			values[i] = s
		}
		out, err := AppendYAML(nil, map[string]any{"v": values})
		if err != nil {
			t.Fatal(err)
		}
		var v11 struct{ V []any }
		if err := yaml.Unmarshal(out, &v11); err != nil {
			t.Fatalf("YAML 1.1 parser rejects the output: %v", err)
		}
		var v12 struct {
			V []any `yaml:"v"`
		}
		if err := yamlv3.Unmarshal(out, &v12); err != nil {
			t.Fatalf("YAML 1.2 parser rejects the output: %v", err)
		}
		for i, s := range list {
			if got, ok := v11.V[i].(string); !ok || got != s {
				t.Errorf("YAML 1.1 reads %q back as %#v (printed %s)", s, v11.V[i], lineOf(out, i))
			}
			if got, ok := v12.V[i].(string); !ok || got != s {
				t.Errorf("YAML 1.2 reads %q back as %#v (printed %s)", s, v12.V[i], lineOf(out, i))
			}
		}
	}
}

// appendStrings appends prefix and every extension of it by up to n
// characters of alphabet.
func appendStrings(to []string, prefix, alphabet string, n int) []string {
	if prefix != "" {
		to = append(to, prefix)
	}
	if n == 0 {
		return to
	}
	for i := 0; i < len(alphabet); i++ {
		to = appendStrings(to, prefix+alphabet[i:i+1], alphabet, n-1)
	}
	return to
}

// lineOf is the printed line of the i-th list entry.
func lineOf(out []byte, i int) string {
	lines := strings.Split(string(out), "\n")
	if i+1 < len(lines) {
		return strings.TrimSpace(lines[i+1])
	}
	return "?"
}
