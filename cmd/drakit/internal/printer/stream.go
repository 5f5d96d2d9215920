package printer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Format is an output format.
type Format int

const (
	// YAML writes a YAML stream, documents separated by "---" lines.
	YAML Format = iota
	// JSON writes a stream of indented JSON objects, one after the other,
	// which kubectl, jq and json.Decoder all read.
	JSON
	// Keep writes each document in the format it was read in, with the
	// separators it had: what rewriting a file in place needs.
	Keep
)

// ParseFormat reads the value of an -o flag.
func ParseFormat(s string) (Format, error) {
	switch s {
	case "yaml", "":
		return YAML, nil
	case "json":
		return JSON, nil
	}
	return YAML, fmt.Errorf("unknown output format %q: use yaml or json", s)
}

// Stream writes documents to w, one after the other, keeping what the
// input had where it can: separators, leading comments, and the bytes of
// documents that did not change.
type Stream struct {
	w       io.Writer
	format  Format
	n       int // documents written
	newline bool
	buf     []byte
}

// NewStream returns a Stream that writes to w in format f.
func NewStream(w io.Writer, f Format) *Stream {
	return &Stream{w: w, format: f, newline: true}
}

// Source is a document as read: what Stream needs to write it unchanged or
// to put a new body in its place.
type Source struct {
	// Separator is the separator line in front of the document, if any.
	Separator []byte
	// Comments are the comment and blank lines in front of the content.
	Comments []byte
	// Content is the document without its leading comments.
	Content []byte
	// JSON is the document as JSON (nil for an empty document).
	JSON []byte
	// IsJSON reports that Content is JSON rather than YAML.
	IsJSON bool
}

func (s *Stream) effective(src *Source) Format {
	if s.format == Keep {
		if src.IsJSON {
			return JSON
		}
		return YAML
	}
	return s.format
}

// separator starts a new document in a YAML stream.
func (s *Stream) separator(src *Source) {
	if !s.newline {
		s.buf = append(s.buf, '\n')
	}
	switch {
	case src.Separator != nil:
		s.buf = append(s.buf, src.Separator...)
		if !bytes.HasSuffix(src.Separator, []byte{'\n'}) {
			s.buf = append(s.buf, '\n')
		}
	case s.n > 0 && s.format != Keep:
		s.buf = append(s.buf, "---\n"...)
	}
}

// Unchanged writes the document as it was read: byte for byte when the
// output format is its own, else re-encoded without changing its content.
func (s *Stream) Unchanged(src *Source) error {
	s.buf = s.buf[:0]
	f := s.effective(src)
	if src.JSON == nil { // an empty document: comments only
		if f == JSON && s.format != Keep {
			return nil
		}
		s.separator(src)
		s.buf = append(s.buf, src.Comments...)
		return s.flush(false)
	}
	switch {
	case f == YAML && !src.IsJSON, f == JSON && src.IsJSON && s.format == Keep:
		s.separator(src)
		s.buf = append(s.buf, src.Comments...)
		s.buf = append(s.buf, src.Content...)
	case f == JSON && src.IsJSON:
		s.buf = append(s.buf, src.Content...)
		if !bytes.HasSuffix(s.buf, []byte{'\n'}) {
			s.buf = append(s.buf, '\n')
		}
	default:
		var v any
		dec := json.NewDecoder(bytes.NewReader(src.JSON))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return err
		}
		m, _ := v.(map[string]any)
		return s.Object(src, m)
	}
	return s.flush(true)
}

// Object writes obj, unstructured content, in place of the document src
// (which may be nil), keeping src's separator and leading comments in a
// YAML stream.
func (s *Stream) Object(src *Source, obj map[string]any) error {
	if src == nil {
		src = &Source{}
	}
	s.buf = s.buf[:0]
	var err error
	if s.effective(src) == JSON {
		if s.format == Keep {
			s.separator(src)
		}
		s.buf, err = AppendJSON(s.buf, obj)
	} else {
		s.separator(src)
		s.buf = append(s.buf, src.Comments...)
		s.buf, err = AppendYAML(s.buf, obj)
	}
	if err != nil {
		return err
	}
	return s.flush(true)
}

func (s *Stream) flush(counts bool) error {
	if len(s.buf) == 0 {
		return nil
	}
	if _, err := s.w.Write(s.buf); err != nil {
		return err
	}
	s.newline = s.buf[len(s.buf)-1] == '\n'
	if counts || len(s.buf) > 0 {
		s.n++
	}
	return nil
}

// Documents is the number of documents written so far.
func (s *Stream) Documents() int { return s.n }
