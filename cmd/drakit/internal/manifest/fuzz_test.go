package manifest

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// FuzzReader reads arbitrary streams with a document size limit between
// 16 bytes and 64 KiB, and converts every document to JSON and decodes it
// as a ResourceSlice (any kind would do: the decoder reports field
// problems the same way for all). Whatever the input:
//   - nothing panics, and the reader stops;
//   - no document is larger than the limit, and indexes count up from 1;
//   - every problem is an *Error that names the source and, when it is
//     about a document, the document (counted from 1);
//   - a stream read without a problem comes back byte for byte from the
//     separators and documents (a byte order mark aside).
//
// The seeds (testdata/fuzz/FuzzReader) are YAML and JSON streams,
// multi-document, with comments, lists, anchors and aliases, and broken
// ones. To fuzz:
//
//	go test ./cmd/drakit/internal/manifest -run '^$' -fuzz '^FuzzReader$' -fuzztime 1m
func FuzzReader(f *testing.F) {
	f.Add([]byte("# c\napiVersion: v1\nkind: List\nitems: []\n---\n{\"kind\":\"A\"}{\"kind\":\"B\"}\n...\na: &x [1]\nb: *x\n"), uint16(4096))
	f.Add([]byte("---\n--- # c\n...\n"), uint16(16))
	// The estimate of decoded sizes runs on every document here.
	small := smallDocument
	smallDocument = 0
	f.Cleanup(func() { smallDocument = small })
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) {
		max := 16 + int(limit)%(64<<10)
		r := NewReader(bytes.NewReader(data), "fuzz.yaml")
		r.SetMaxDocumentBytes(max)
		var back []byte
		failed := false
		last := 0
		for n := 0; ; n++ {
			if n > len(data)+2 {
				t.Fatalf("the reader does not stop: %d documents from %d bytes", n, len(data))
			}
			d, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				failed = true
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("error is a %T, not an *Error: %v", err, err)
				}
				checkNamed(t, e)
				continue
			}
			back = append(append(back, d.Separator...), d.Raw...)
			if len(d.Raw) > max {
				t.Fatalf("document %d has %d bytes, over the limit of %d", d.Index, len(d.Raw), max)
			}
			if d.Empty() {
				continue
			}
			if d.Index <= last {
				t.Fatalf("document index %d after %d", d.Index, last)
			}
			last = d.Index
			decodeAny(t, d)
		}
		if !failed && !bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) && !bytes.Equal(back, data) {
			t.Fatalf("the documents do not add up to the stream:\n got %q\nwant %q", back, data)
		}
	})
}

// decodeAny converts d to JSON and decodes it, checking that every problem
// names the document.
func decodeAny(t *testing.T, d *Document) {
	js, warnings, e := d.ToJSON(false)
	for _, w := range warnings {
		checkNamed(t, w)
	}
	if e != nil {
		checkNamed(t, e)
		return
	}
	if _, e := d.PeekHead(js, ""); e != nil {
		checkNamed(t, e)
	}
	var slice v1alpha3.ResourceSlice
	warnings, e = d.Decode(js, &slice, true, "")
	for _, w := range warnings {
		checkNamed(t, w)
	}
	if e != nil {
		checkNamed(t, e)
	}
}

// checkNamed checks that a problem names its source and document, on one
// line.
func checkNamed(t *testing.T, e *Error) {
	t.Helper()
	msg := e.Error()
	if e.Source != "fuzz.yaml" || !strings.HasPrefix(msg, "fuzz.yaml") {
		t.Fatalf("problem does not name the source: %q", msg)
	}
	if e.Index < 1 || !strings.Contains(msg, "document ") {
		t.Fatalf("problem does not name the document: %q", msg)
	}
	if strings.ContainsAny(msg, "\n\r") {
		t.Fatalf("problem takes more than one line: %q", msg)
	}
	if e.Err == nil {
		t.Fatalf("problem without a reason: %q", msg)
	}
}
