// Package manifest reads Kubernetes manifests from YAML and JSON streams one
// document at a time, so that memory depends on the largest document and not
// on the length of the stream. It keeps what a rewriting tool needs to leave
// a file as its author wrote it: the separator lines, the comments in front
// of each document and the exact bytes of every document.
package manifest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	yamlv3 "sigs.k8s.io/yaml/goyaml.v3"
)

// MaxDocumentBytes is the largest document drakit reads: 3 MiB, the request
// size limit of the Kubernetes API server, so that nothing drakit accepts
// would be refused by a cluster for its size alone.
const MaxDocumentBytes = 3 << 20

// Format is the syntax of a document.
type Format int

const (
	// YAML is any document that does not start with '{'.
	YAML Format = iota
	// JSON is a document that starts with '{' and ends at the matching '}'.
	JSON
)

func (f Format) String() string {
	if f == JSON {
		return "json"
	}
	return "yaml"
}

// Document is one document of a stream.
type Document struct {
	// Source names the stream, as the user gave it (a path, or "-" for stdin).
	Source string
	// Index is the position of the document among the non-empty documents
	// of its source, counted from 1. Empty documents have Index 0.
	Index int
	// StartLine is the line of the first byte of Raw, counted from 1.
	StartLine int
	// Separator is the "---" (or "...") line that preceded the document,
	// byte for byte with its line ending, or nil when there was none.
	Separator []byte
	// Raw is the document exactly as read, without Separator: the leading
	// comments and blank lines first, then the content.
	Raw []byte
	// CommentLen is the length of the leading comments and blank lines.
	CommentLen int
	// Format is the syntax of the content.
	Format Format

	// tree is Raw parsed, for FieldLine; treeParsed says it was tried.
	tree       *yamlv3.Node
	treeParsed bool
}

// Empty reports a document with no content: only blank lines and comments.
func (d *Document) Empty() bool { return d.Index == 0 }

// Comments returns the comment and blank lines in front of the content.
func (d *Document) Comments() []byte { return d.Raw[:d.CommentLen] }

// Content returns the document without its leading comments.
func (d *Document) Content() []byte { return d.Raw[d.CommentLen:] }

// Line is the line on which the content starts.
func (d *Document) Line() int {
	return d.StartLine + bytes.Count(d.Raw[:d.CommentLen], []byte{'\n'})
}

// Reader splits a stream into documents. Documents are separated by lines
// that hold only "---" or "..." (optionally followed by a comment), as in
// kubectl; a document starting with '{' is read as one JSON value, so JSON
// streams ("{...}{...}") and pretty-printed JSON work as well.
type Reader struct {
	br     *bufio.Reader
	source string
	max    int

	line    int    // number of the line being read
	pending []byte // bytes of the current line read but not yet returned
	partial bool   // the next piece continues the current line
	sep     []byte // separator line for the next document
	index   int    // Index of the last non-empty document
	stopped bool   // the stream cannot be read any further

	inDocument bool // the content of document index is being read
}

// NewReader returns a Reader for r; source names the stream in documents
// and errors.
func NewReader(r io.Reader, source string) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), source: source, max: MaxDocumentBytes}
}

// SetMaxDocumentBytes changes the size limit (tests use small limits).
func (r *Reader) SetMaxDocumentBytes(n int) { r.max = n }

// piece is a line, or a part of one: readLine cuts lines that are longer
// than its caller can use, and a JSON value can end in the middle of one.
type piece struct {
	data  []byte
	line  int  // the line it belongs to
	start bool // it starts the line
}

// Next returns the next document, or io.EOF after the last one. A document
// over the size limit is skipped and reported as an *Error; reading can go
// on with the following document. Errors that leave the rest of the stream
// unreadable (binary data, a failing read) are returned once, and every
// later call returns io.EOF.
func (r *Reader) Next() (*Document, error) {
	if r.stopped {
		return nil, io.EOF
	}
	doc := &Document{Source: r.source, Separator: r.sep}
	r.sep = nil
	r.inDocument = false
	var buf []byte
	for {
		p, err := r.readLine(r.max - len(buf))
		if err != nil {
			return nil, r.stop(err)
		}
		if p.data == nil { // end of stream
			r.stopped = true
			if len(buf) == 0 && doc.Separator == nil {
				return nil, io.EOF
			}
			doc.Raw, doc.CommentLen = buf, len(buf)
			return doc, nil
		}
		if p.start && isSeparator(p.data) {
			if len(buf) == 0 && doc.Separator == nil {
				// A stream that starts with "---": nothing to keep
				// before it.
				doc.Separator = p.data
				continue
			}
			r.sep = p.data
			doc.Raw, doc.CommentLen = buf, len(buf)
			return doc, nil
		}
		if doc.StartLine == 0 {
			doc.StartLine = p.line
		}
		if isBlankOrComment(p.data) {
			buf = append(buf, p.data...)
			if len(buf) > r.max {
				return nil, r.skipOversize(doc, p.line)
			}
			continue
		}
		doc.CommentLen = len(buf)
		r.index++
		doc.Index = r.index
		r.inDocument = true
		if firstNonSpace(p.data) == '{' {
			doc.Format = JSON
			return r.readJSON(doc, buf, p)
		}
		return r.readYAML(doc, buf, p)
	}
}

// readYAML collects lines up to the next separator.
func (r *Reader) readYAML(doc *Document, buf []byte, p piece) (*Document, error) {
	for {
		buf = append(buf, p.data...)
		if len(buf) > r.max {
			doc.Raw = buf // Line counts the comment lines held in it
			return nil, r.skipOversize(doc, doc.Line())
		}
		var err error
		if p, err = r.readLine(r.max - len(buf)); err != nil {
			return nil, r.stop(err)
		}
		if p.data == nil {
			r.stopped = true
			break
		}
		if p.start && isSeparator(p.data) {
			r.sep = p.data
			break
		}
	}
	doc.Raw = buf
	return doc, nil
}

// readJSON collects one JSON value that starts in p. What follows the
// value on its last line is kept for the next document, unless it is only
// white space, which stays with this one.
func (r *Reader) readJSON(doc *Document, buf []byte, p piece) (*Document, error) {
	var sc jsonScanner
	tooBig := false
	for {
		data := p.data
		end := sc.scan(data)
		if end >= 0 && len(bytes.TrimSpace(data[end:])) > 0 {
			r.unread(data[end:])
			data = data[:end]
		}
		if !tooBig {
			buf = append(buf, data...)
			tooBig = len(buf) > r.max
		}
		if end >= 0 {
			break
		}
		limit := r.max - len(buf)
		if tooBig {
			limit = 64 << 10 // only scanning now, not keeping
		}
		var err error
		if p, err = r.readLine(limit); err != nil {
			return nil, r.stop(err)
		}
		if p.data == nil { // unterminated: the decoder will say what is wrong
			r.stopped = true
			break
		}
	}
	if tooBig {
		doc.Raw = buf // Line counts the comment lines held in it
		return nil, r.oversizeError(doc, doc.Line())
	}
	doc.Raw = buf
	return doc, nil
}

// skipOversize reports a document over the limit and skips the rest of it,
// up to the next separator, so that reading can go on after it.
func (r *Reader) skipOversize(doc *Document, line int) error {
	for {
		p, err := r.readLine(64 << 10)
		if err != nil {
			return r.stop(err)
		}
		if p.data == nil {
			r.stopped = true
			break
		}
		if p.start && isSeparator(p.data) {
			r.sep = p.data
			break
		}
	}
	return r.oversizeError(doc, line)
}

func (r *Reader) oversizeError(doc *Document, line int) error {
	if doc.Index == 0 {
		r.index++
		doc.Index = r.index
	}
	return &Error{Source: r.source, Index: doc.Index, Line: line,
		Err: fmt.Errorf("document is larger than %s, the API server's request limit; split it into smaller documents", formatBytes(r.max))}
}

// stop ends reading after an error that leaves the stream unusable. The
// error is placed in the document being read.
func (r *Reader) stop(err error) error {
	r.stopped = true
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Source: r.source, Line: r.line, Err: fmt.Errorf("cannot read: %w", err)}
	}
	if e.Index == 0 && r.line > 0 {
		e.Index = r.index
		if !r.inDocument {
			e.Index++
		}
	}
	return e
}

// unread puts the rest of the current line back, to be read next.
func (r *Reader) unread(rest []byte) {
	r.pending = append(append([]byte(nil), rest...), r.pending...)
	r.partial = true
}

// readLine returns the next line with its line ending (the last line of
// the stream may have none), or a nil piece at the end of the stream. A
// line longer than limit+1 bytes comes in pieces: the first limit+1 bytes
// (rounded down to whole characters), the rest from the next calls. It
// never holds more than limit+1 bytes plus one buffer.
func (r *Reader) readLine(limit int) (piece, error) {
	if limit < 0 {
		limit = 0
	}
	start := !r.partial
	out := r.pending
	r.pending = nil
	ended := len(out) > 0 && out[len(out)-1] == '\n'
	for !ended && len(out) <= limit {
		chunk, err := r.br.ReadSlice('\n')
		out = append(out, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			ended = true
			break
		}
		if err != nil {
			return piece{}, err
		}
		ended = true
	}
	if len(out) == 0 {
		return piece{}, nil
	}
	r.partial = false
	if len(out) > limit+1 {
		cut := limit + 1
		for cut > 1 && !utf8.RuneStart(out[cut]) {
			cut--
		}
		r.pending = append([]byte(nil), out[cut:]...)
		out = out[:cut]
		r.partial = true
	} else if !ended {
		r.partial = true
	}
	if start {
		r.line++
	}
	if bytes.IndexByte(out, 0) >= 0 || (!utf8.Valid(out) && !(r.partial && utf8.Valid(out[:lastRuneStart(out)]))) {
		return piece{}, &Error{Source: r.source, Line: r.line,
			Err: errors.New("not UTF-8 text (binary data?); drakit reads YAML and JSON manifests")}
	}
	if r.line == 1 && start {
		out = bytes.TrimPrefix(out, []byte("\xef\xbb\xbf"))
	}
	return piece{data: out, line: r.line, start: start}, nil
}

// lastRuneStart is the index of the start of the last character in b: a
// piece cut at a limit may end inside one.
func lastRuneStart(b []byte) int {
	i := len(b)
	for k := 0; i > 0 && k < utf8.UTFMax; k++ {
		i--
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return len(b)
}

// isSeparator reports a document separator line: "---" or "..." at the
// start of the line, followed by nothing but white space or a comment.
func isSeparator(line []byte) bool {
	if len(line) < 3 {
		return false
	}
	if !bytes.HasPrefix(line, []byte("---")) && !bytes.HasPrefix(line, []byte("...")) {
		return false
	}
	rest := line[3:]
	if len(rest) == 0 {
		return true
	}
	if rest[0] != ' ' && rest[0] != '\t' && rest[0] != '\n' && rest[0] != '\r' {
		return false
	}
	rest = bytes.TrimSpace(rest)
	return len(rest) == 0 || rest[0] == '#'
}

func isBlankOrComment(line []byte) bool {
	t := bytes.TrimLeft(line, " \t\r\n")
	return len(t) == 0 || t[0] == '#'
}

func firstNonSpace(line []byte) byte {
	t := bytes.TrimLeft(line, " \t\r\n")
	if len(t) == 0 {
		return 0
	}
	return t[0]
}

// jsonScanner finds the end of a JSON value that starts with '{' by
// counting brackets outside of strings. It does not validate: the decoder
// does that later, with a better message.
type jsonScanner struct {
	depth    int
	started  bool
	inString bool
	escaped  bool
}

// scan consumes b and returns the offset just after the end of the value,
// or -1 if the value goes on past b.
func (s *jsonScanner) scan(b []byte) int {
	for i, c := range b {
		if s.inString {
			switch {
			case s.escaped:
				s.escaped = false
			case c == '\\':
				s.escaped = true
			case c == '"':
				s.inString = false
			}
			continue
		}
		switch c {
		case '"':
			s.inString = true
		case '{', '[':
			s.depth++
			s.started = true
		case '}', ']':
			s.depth--
			if s.started && s.depth <= 0 {
				return i + 1
			}
		}
	}
	return -1
}

func formatBytes(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
