package manifest

import (
	"errors"
	"io"
	"strings"
	"testing"
)

type readDoc struct {
	index     int
	startLine int
	line      int
	sep       string
	comments  string
	content   string
	format    Format
	err       string
}

func readAll(t *testing.T, input string, max int) []readDoc {
	t.Helper()
	r := NewReader(strings.NewReader(input), "in.yaml")
	if max > 0 {
		r.SetMaxDocumentBytes(max)
	}
	var out []readDoc
	for i := 0; i < 100; i++ {
		d, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error is a %T, not an *Error: %v", err, err)
			}
			out = append(out, readDoc{index: e.Index, line: e.Line, err: e.Error()})
			continue
		}
		out = append(out, readDoc{index: d.Index, startLine: d.StartLine, line: d.Line(), sep: string(d.Separator),
			comments: string(d.Comments()), content: string(d.Content()), format: d.Format})
	}
	t.Fatal("the reader does not stop")
	return nil
}

func TestReaderSplitsAndKeepsEverything(t *testing.T) {
	input := "# header\n\n---\n# first\napiVersion: v1\nkind: A\n--- # second\nkind: B\n...\nkind: C\n---\n"
	got := readAll(t, input, 0)
	want := []readDoc{
		{index: 0, startLine: 1, line: 3, comments: "# header\n\n"},
		{index: 1, startLine: 4, line: 5, sep: "---\n", comments: "# first\n", content: "apiVersion: v1\nkind: A\n"},
		{index: 2, startLine: 8, line: 8, sep: "--- # second\n", content: "kind: B\n"},
		{index: 3, startLine: 10, line: 10, sep: "...\n", content: "kind: C\n"},
		{index: 0, sep: "---\n", line: 0},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d documents, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("document %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	// Concatenating separators and raw documents gives the input back.
	var b strings.Builder
	for _, d := range got {
		b.WriteString(d.sep + d.comments + d.content)
	}
	if b.String() != input {
		t.Errorf("documents do not add up to the input:\n%q\n%q", b.String(), input)
	}
}

func TestReaderSeparatorLookalikes(t *testing.T) {
	// Only "---" alone (or with a comment) separates; "---x" and a
	// "---" inside a block scalar (indented) do not.
	input := "a: |\n  ---\n  text\nb: ---x\n---x: 1\n"
	got := readAll(t, input, 0)
	if len(got) != 1 || got[0].content != input {
		t.Fatalf("got %+v", got)
	}
}

func TestReaderJSONStreams(t *testing.T) {
	input := "{\"kind\":\"A\",\"s\":\"}{\\\"\"}{\"kind\":\"B\"}\n\n{\n  \"kind\": \"C\"\n}\n---\nkind: D\n"
	got := readAll(t, input, 0)
	want := []struct {
		content string
		format  Format
		line    int
	}{
		{`{"kind":"A","s":"}{\""}`, JSON, 1},
		{"{\"kind\":\"B\"}\n", JSON, 1},
		{"{\n  \"kind\": \"C\"\n}\n", JSON, 3},
		{"kind: D\n", YAML, 7},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d documents: %+v", len(got), got)
	}
	for i, w := range want {
		if got[i].content != w.content || got[i].format != w.format || got[i].line != w.line {
			t.Errorf("document %d: got %q %v line %d, want %q %v line %d", i+1, got[i].content, got[i].format, got[i].line, w.content, w.format, w.line)
		}
	}
}

func TestReaderCRLFAndBOM(t *testing.T) {
	got := readAll(t, "\xef\xbb\xbfkind: A\r\n---\r\nkind: B\r\n", 0)
	if len(got) != 2 || got[0].content != "kind: A\r\n" || got[1].sep != "---\r\n" || got[1].content != "kind: B\r\n" {
		t.Fatalf("got %+v", got)
	}
}

func TestReaderOversizeSkipsOnlyThatDocument(t *testing.T) {
	big := "kind: A\nx: " + strings.Repeat("y", 200) + "\n"
	got := readAll(t, "kind: first\n---\n"+big+"---\nkind: last\n", 100)
	if len(got) != 3 {
		t.Fatalf("got %+v", got)
	}
	if got[0].content != "kind: first\n" || got[2].content != "kind: last\n" || got[2].index != 3 {
		t.Errorf("the documents around the big one are wrong: %+v", got)
	}
	if got[1].index != 2 || got[1].line != 3 || !strings.Contains(got[1].err, "document 2: document is larger than 100 bytes") {
		t.Errorf("the big document is not reported as such: %+v", got[1])
	}
	// A single line over the limit, and a JSON document over it.
	got = readAll(t, strings.Repeat("z", 500)+"\n---\nkind: B\n", 100)
	if len(got) != 2 || got[0].err == "" || got[1].content != "kind: B\n" {
		t.Errorf("long line: %+v", got)
	}
	got = readAll(t, "{\"a\":\""+strings.Repeat("z", 500)+"\"}{\"kind\":\"B\"}", 100)
	if len(got) != 2 || got[0].err == "" || got[1].content != `{"kind":"B"}` {
		t.Errorf("big JSON: %+v", got)
	}
}

func TestReaderBinaryStopsTheSource(t *testing.T) {
	got := readAll(t, "kind: A\n---\nkind: \x00\x01\x02\n---\nkind: C\n", 0)
	if len(got) != 2 || got[0].content != "kind: A\n" || !strings.Contains(got[1].err, "in.yaml:3: document 2: not UTF-8 text") {
		t.Fatalf("got %+v", got)
	}
	got = readAll(t, "kind: \xff\xfe\n", 0)
	if len(got) != 1 || !strings.Contains(got[0].err, "not UTF-8 text") {
		t.Fatalf("got %+v", got)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("input/output error") }

func TestReaderReadError(t *testing.T) {
	r := NewReader(failingReader{}, "disk.yaml")
	_, err := r.Next()
	if err == nil || err.Error() != "disk.yaml: cannot read: input/output error" {
		t.Fatalf("got %v", err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("reading goes on after a read error: %v", err)
	}
}
