package stash

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// reader is a strict JSON (RFC 8259) reader over a string, for the
// hand-written payload decoders in decode.go. Reading a stash is most of
// the cost of converting a stashed object back, and most of that cost is
// allocation: a string without escapes is therefore handed out as a
// substring of the annotation value, which is immutable, instead of a copy.
//
// The first error stops the reader: every later call returns a zero value,
// and err says what was wrong and where.
type reader struct {
	s     string
	i     int
	err   error
	depth int // of the value raw is skipping
}

// maxDepth bounds the nesting raw accepts, as encoding/json does, so that
// a hostile payload cannot exhaust the stack.
const maxDepth = 10000

func (r *reader) fail(format string, args ...interface{}) {
	if r.err == nil {
		r.err = fmt.Errorf("offset %d: %s", r.i, fmt.Sprintf(format, args...))
	}
}

func (r *reader) ws() {
	for r.i < len(r.s) {
		switch r.s[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte without consuming it (0 at the end
// or after an error).
func (r *reader) peek() byte {
	if r.err != nil {
		return 0
	}
	r.ws()
	if r.i >= len(r.s) {
		return 0
	}
	return r.s[r.i]
}

// null consumes a null literal if one comes next and reports whether it did.
func (r *reader) null() bool {
	if r.peek() == 'n' {
		r.literal("null")
		return r.err == nil
	}
	return false
}

func (r *reader) literal(lit string) {
	if len(r.s)-r.i >= len(lit) && r.s[r.i:r.i+len(lit)] == lit {
		r.i += len(lit)
		return
	}
	r.fail("invalid literal, expected %s", lit)
}

// object starts reading an object; it returns false for null (and on
// errors). Read its members with member.
func (r *reader) object() bool {
	switch r.peek() {
	case '{':
		r.i++
		return true
	case 'n':
		r.literal("null")
	default:
		r.unexpected("an object")
	}
	return false
}

// member reads the next key of an object begun with object, and the colon
// after it; first says whether it is the first member. It returns false
// at the closing brace (which it consumes) and on errors.
func (r *reader) member(first bool) (string, bool) {
	c := r.peek()
	if c == '}' {
		r.i++
		return "", false
	}
	if !first {
		if c != ',' {
			r.unexpected(`"," or "}"`)
			return "", false
		}
		r.i++
		c = r.peek()
	}
	if c != '"' {
		r.unexpected("a field name")
		return "", false
	}
	key := r.str()
	if r.peek() != ':' {
		r.unexpected(`":"`)
		return "", false
	}
	r.i++
	return key, r.err == nil
}

// array starts reading an array; it returns false for null (and on errors).
// Read its elements with elem.
func (r *reader) array() bool {
	switch r.peek() {
	case '[':
		r.i++
		return true
	case 'n':
		r.literal("null")
	default:
		r.unexpected("an array")
	}
	return false
}

// elem reports whether another element of an array begun with array
// follows (consuming the comma before it); it consumes the closing bracket.
func (r *reader) elem(first bool) bool {
	c := r.peek()
	if c == ']' {
		r.i++
		return false
	}
	if !first {
		if c != ',' {
			r.unexpected(`"," or "]"`)
			return false
		}
		r.i++
	}
	return r.err == nil
}

func (r *reader) unexpected(want string) {
	if r.err != nil {
		return
	}
	if r.i >= len(r.s) {
		r.fail("unexpected end of JSON, expected %s", want)
		return
	}
	r.fail("unexpected %q, expected %s", r.s[r.i], want)
}

// str reads a string value. null leaves it empty, as encoding/json does.
func (r *reader) str() string {
	switch r.peek() {
	case '"':
	case 'n':
		r.literal("null")
		return ""
	default:
		r.unexpected("a string")
		return ""
	}
	start := r.i + 1
	for j := start; j < len(r.s); j++ {
		switch c := r.s[j]; {
		case c == '"':
			r.i = j + 1
			return r.s[start:j]
		case c == '\\':
			return r.unescape(start, j)
		case c < 0x20:
			r.i = j
			r.fail("control character %q in string", c)
			return ""
		}
	}
	r.i = len(r.s)
	r.fail("unterminated string")
	return ""
}

// unescape reads the rest of a string that has an escape at j, copying it.
func (r *reader) unescape(start, j int) string {
	buf := make([]byte, 0, j-start+16)
	buf = append(buf, r.s[start:j]...)
	for j < len(r.s) {
		c := r.s[j]
		switch {
		case c == '"':
			r.i = j + 1
			return string(buf)
		case c < 0x20:
			r.i = j
			r.fail("control character %q in string", c)
			return ""
		case c != '\\':
			buf = append(buf, c)
			j++
			continue
		}
		if j+1 >= len(r.s) {
			break
		}
		switch e := r.s[j+1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			rn, ok := r.hex4(j + 2)
			if !ok {
				return ""
			}
			j += 6
			if utf16.IsSurrogate(rn) {
				// A pair makes one rune; a lone half is U+FFFD, as in
				// encoding/json.
				if j+1 < len(r.s) && r.s[j] == '\\' && r.s[j+1] == 'u' {
					if lo, ok := r.hex4(j + 2); ok {
						if pair := utf16.DecodeRune(rn, lo); pair != utf8.RuneError {
							buf = utf8.AppendRune(buf, pair)
							j += 6
							continue
						}
					} else {
						return ""
					}
				}
				rn = utf8.RuneError
			}
			buf = utf8.AppendRune(buf, rn)
			continue
		default:
			r.i = j
			r.fail("invalid escape %q in string", "\\"+string(e))
			return ""
		}
		j += 2
	}
	r.i = len(r.s)
	r.fail("unterminated string")
	return ""
}

func (r *reader) hex4(at int) (rune, bool) {
	if at+4 > len(r.s) {
		r.i = at
		r.fail("truncated \\u escape")
		return 0, false
	}
	v, err := strconv.ParseUint(r.s[at:at+4], 16, 32)
	if err != nil || r.s[at] == '+' || r.s[at] == '-' {
		r.i = at
		r.fail("invalid \\u escape %q", r.s[at:at+4])
		return 0, false
	}
	return rune(v), true
}

// boolean reads true or false; null leaves false.
func (r *reader) boolean() bool {
	switch r.peek() {
	case 't':
		r.literal("true")
		return r.err == nil
	case 'f':
		r.literal("false")
	case 'n':
		r.literal("null")
	default:
		r.unexpected("a boolean")
	}
	return false
}

// int64 reads an integer number; null leaves 0. A fraction or exponent is
// an error, as it is for encoding/json decoding into an integer.
func (r *reader) int64() int64 {
	switch c := r.peek(); {
	case c == 'n':
		r.literal("null")
		return 0
	case c != '-' && (c < '0' || c > '9'):
		r.unexpected("an integer")
		return 0
	}
	start := r.i
	num := r.number()
	if r.err != nil {
		return 0
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		r.i = start
		r.fail("%s is not an integer that fits 64 bits", num)
		return 0
	}
	return v
}

// int reads an integer that fits an int.
func (r *reader) int() int {
	v := r.int64()
	if int64(int(v)) != v {
		r.fail("%d does not fit an int", v)
		return 0
	}
	return int(v)
}

// number reads a JSON number and returns its text.
func (r *reader) number() string {
	start := r.i
	j := r.i
	if j < len(r.s) && r.s[j] == '-' {
		j++
	}
	ok := true
	if j < len(r.s) && r.s[j] == '0' {
		j++ // no further digits may follow a leading zero; end() sees any
	} else {
		j, ok = r.digits(j)
	}
	if ok && j < len(r.s) && r.s[j] == '.' {
		j, ok = r.digits(j + 1)
	}
	if ok && j < len(r.s) && (r.s[j] == 'e' || r.s[j] == 'E') {
		j++
		if j < len(r.s) && (r.s[j] == '+' || r.s[j] == '-') {
			j++
		}
		j, ok = r.digits(j)
	}
	if !ok {
		return ""
	}
	r.i = j
	return r.s[start:j]
}

// digits skips the run of digits that must start at j and returns where it
// ends; an empty run is an error.
func (r *reader) digits(j int) (int, bool) {
	d := j
	for j < len(r.s) && r.s[j] >= '0' && r.s[j] <= '9' {
		j++
	}
	if j == d {
		r.i = j
		r.unexpected("a digit")
		return j, false
	}
	return j, true
}

// raw skips one value, checking that it is valid JSON, and returns its text.
func (r *reader) raw() string {
	c := r.peek()
	start := r.i
	if c == '{' || c == '[' {
		if r.depth++; r.depth > maxDepth {
			r.fail("nested deeper than %d levels", maxDepth)
			return ""
		}
		defer func() { r.depth-- }()
	}
	switch {
	case c == '{':
		r.i++
		for first := true; ; first = false {
			if _, ok := r.member(first); !ok {
				break
			}
			r.raw()
		}
	case c == '[':
		r.i++
		for first := true; r.elem(first); first = false {
			r.raw()
		}
	case c == '"':
		r.str()
	case c == 't':
		r.literal("true")
	case c == 'f':
		r.literal("false")
	case c == 'n':
		r.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		r.number()
	default:
		r.unexpected("a value")
	}
	if r.err != nil {
		return ""
	}
	return r.s[start:r.i]
}

// end checks that nothing but white space follows the value.
func (r *reader) end() {
	if r.err == nil {
		r.ws()
		if r.i < len(r.s) {
			r.unexpected("the end of the payload")
		}
	}
}

// unknown records a field the payload type does not have.
func (r *reader) unknown(key string) {
	r.fail("unknown field %q", key)
}
