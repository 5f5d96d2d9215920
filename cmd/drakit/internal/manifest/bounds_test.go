package manifest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"

	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// repeatedString is a document with one string of size bytes and n aliases
// of it: small to read, size*n bytes as JSON.
func repeatedString(size, n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceSlice\nmetadata:\n  name: s\n  annotations:\n    a: &a \"")
	b.WriteString(strings.Repeat("x", size))
	b.WriteString("\"\n  labels: {")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("k" + strings.Repeat("0", 1+i%3) + string(rune('a'+i%26)) + strings.Repeat("z", i/26) + ": *a")
	}
	b.WriteString("}\n")
	return b.String()
}

// mergedMaps grows by aliases and merge keys ("<<: *m"): every level holds
// the level before it twice, starting from a 64 KiB string. (Few aliases
// of large values: the YAML library's own limit does not see them.)
func mergedMaps(levels int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nm0: &m0 {a: \"" + strings.Repeat("x", 64<<10) + "\"}\n")
	for i := 1; i <= levels; i++ {
		prev := "m" + string(rune('0'+i-1))
		name := "m" + string(rune('0'+i))
		b.WriteString(name + ": &" + name + " {" + name + ": *" + prev + ", <<: *" + prev + "}\n")
	}
	return b.String()
}

func TestAliasExpansionIsBounded(t *testing.T) {
	cases := []struct {
		name  string
		input string
		want  string // "" if the document is accepted
	}{
		{"1 MiB string times 300", repeatedString(1<<20, 300),
			"in.yaml:1: document 1: YAML aliases expand the document past 3 MiB (an alias bomb?); write the repeated parts out, or split the document"},
		{"64 KiB doubled 6 times", mergedMaps(6),
			"in.yaml:1: document 1: YAML aliases expand the document past 3 MiB (an alias bomb?); write the repeated parts out, or split the document"},
		{"nested aliases, nine levels of nine", aliasBomb(),
			"in.yaml:1: document 1: YAML aliases expand too much (an alias bomb?); write the repeated parts out"},
		// What aliases are for stays possible.
		{"100 KiB string times 20", repeatedString(100<<10, 20), ""},
		{"64 KiB doubled 4 times", mergedMaps(4), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := firstDoc(t, c.input)
			_, _, e := d.ToJSON(true)
			got := ""
			if e != nil {
				got = e.Error()
			}
			if got != c.want {
				t.Errorf("error\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// Nesting is bounded by the parsers: 10,000 levels for YAML, 10,000 for
// JSON (encoding/json). Past that the document is refused, naming it.
func TestDeepNestingIsRefused(t *testing.T) {
	deepYAML := "apiVersion: v1\nkind: ConfigMap\ndata: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n"
	d := firstDoc(t, deepYAML)
	if _, _, e := d.ToJSON(true); e == nil || !strings.HasPrefix(e.Error(), "in.yaml:3: document 1: ") || !strings.Contains(e.Error(), "max depth") {
		t.Errorf("deep YAML: got %v", e)
	}

	deepJSON := `{"apiVersion":"resource.k8s.io/v1alpha3","kind":"ResourceSlice","spec":` + strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20001)
	d = firstDoc(t, deepJSON)
	js, _, e := d.ToJSON(true)
	if e != nil {
		t.Fatalf("ToJSON: %v", e)
	}
	var slice v1alpha3.ResourceSlice
	if _, e := d.Decode(js, &slice, true, ""); e == nil || !strings.HasPrefix(e.Error(), "in.yaml:1: document 1: ") || !strings.Contains(e.Error(), "exceeded max depth") {
		t.Errorf("deep JSON: got %v", e)
	}
}

// BenchmarkAliasBombRefused is the cost of refusing a 1 MiB document whose
// aliases would make 315 MB of JSON (3 s and 1.7 GB without the check).
func BenchmarkAliasBombRefused(b *testing.B) {
	input := repeatedString(1<<20, 300)
	b.ReportAllocs()
	for b.Loop() {
		d := firstDocB(b, input)
		if _, _, e := d.ToJSON(true); e == nil {
			b.Fatal("accepted")
		}
	}
}

// BenchmarkDeepYAMLRefused is the cost of the deepest YAML nesting.
func BenchmarkDeepYAMLRefused(b *testing.B) {
	input := "apiVersion: v1\nkind: ConfigMap\ndata: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n"
	b.ReportAllocs()
	for b.Loop() {
		d := firstDocB(b, input)
		if _, _, e := d.ToJSON(true); e == nil {
			b.Fatal("accepted")
		}
	}
}

// BenchmarkLargestYAMLDocument reads and decodes a ResourceSlice just
// under MaxDocumentBytes: the most work one document can ask of the
// reader and decoder.
func BenchmarkLargestYAMLDocument(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(sliceHead[:strings.Index(sliceHead, "  - name: gpu-0")])
	for i := 0; sb.Len() < MaxDocumentBytes-200; i++ {
		sb.WriteString("  - name: gpu-")
		sb.WriteString(strings.Repeat("0", 1+i%7))
		sb.WriteString(string(rune('a' + i%26)))
		sb.WriteString("\n    basic:\n      attributes:\n        model: {string: a100}\n")
	}
	input := sb.String()
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	for b.Loop() {
		d := firstDocB(b, input)
		js, _, e := d.ToJSON(false)
		if e != nil {
			b.Fatal(e)
		}
		var slice v1alpha3.ResourceSlice
		if _, e := d.Decode(js, &slice, false, ""); e != nil {
			b.Fatal(e)
		}
	}
}

func firstDocB(b *testing.B, input string) *Document {
	b.Helper()
	r := NewReader(strings.NewReader(input), "in.yaml")
	d, err := r.Next()
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// A long list of small entries that decode into large values is refused
// before decoding; as long a list of what the API allows is not.
func TestDecodedSizeIsBounded(t *testing.T) {
	wide := `{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","spec":{"driver":"d","devices":[` + strings.Repeat("{},", 500000) + "{}]}}\n"
	d := firstDoc(t, wide)
	js, _, e := d.ToJSON(true)
	if e != nil {
		t.Fatal(e)
	}
	var slice resourcev1.ResourceSlice
	_, e = d.Decode(js, &slice, true, "")
	want := "in.yaml:1: document 1: spec.devices: a list of 500001 entries, too many to decode: this object would take about 83 MiB of memory, over drakit's limit of 64 MiB (the API server accepts far shorter lists)"
	if e == nil || e.Error() != want {
		t.Errorf("got  %v\nwant %s", e, want)
	}

	// 3 MiB of named devices with an attribute each: about 30 MiB.
	var sb strings.Builder
	sb.WriteString(`{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","spec":{"driver":"d","devices":[`)
	for i := 0; sb.Len() < MaxDocumentBytes-100; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"name":"d%d","attributes":{"m":{"string":"x"}}}`, i)
	}
	sb.WriteString("]}}")
	if path, err := checkDecodedSize([]byte(sb.String()), reflect.TypeOf(&slice)); err != nil {
		t.Errorf("a 3 MiB slice of named devices is refused: %s: %v", path, err)
	}
}
