// Package printer writes API objects the way kubectl prints them: YAML with
// the keys of every mapping sorted and compact sequences, or indented JSON.
//
// The YAML writer works on unstructured content (what
// runtime.DefaultUnstructuredConverter produces, or encoding/json with
// UseNumber) and writes it directly, without a YAML library round trip:
// converting a long stream spends most of its time printing, and the
// output must read back to exactly the same content in any YAML 1.1 or 1.2
// parser, which is why strings that could be read as anything else are
// quoted.
//
// A Spool holds a command's output until the command knows it succeeded.
package printer

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// AppendYAML appends v, a mapping, as one YAML document (without a "---"
// line) to dst.
func AppendYAML(dst []byte, v map[string]any) ([]byte, error) {
	if len(v) == 0 {
		return append(dst, "{}\n"...), nil
	}
	return appendMapping(dst, v, 0, false)
}

// appendMapping writes the entries of m, one per line at indent; with
// inline set the first entry continues the current line (after "- ").
func appendMapping(dst []byte, m map[string]any, indent int, inline bool) ([]byte, error) {
	keys := sortedKeys(m)
	var err error
	for i, k := range keys {
		if i > 0 || !inline {
			dst = appendIndent(dst, indent)
		}
		if len(k) > maxImplicitKey {
			dst, err = appendExplicitEntry(dst, k, m[k], indent)
		} else {
			dst = appendScalarString(dst, k, true)
			dst = append(dst, ':')
			dst, err = appendValue(dst, m[k], indent, false)
		}
		if err != nil {
			return dst, fmt.Errorf("%s: %w", k, err)
		}
	}
	return dst, nil
}

// maxImplicitKey is the longest key written as "key: value". YAML limits
// such keys to 1024 characters and some parsers to fewer; longer keys are
// written in the explicit form "? key" / ": value".
const maxImplicitKey = 128

func appendExplicitEntry(dst []byte, k string, v any, indent int) ([]byte, error) {
	dst = append(dst, "? "...)
	dst = appendScalarString(dst, k, true)
	dst = append(dst, '\n')
	dst = appendIndent(dst, indent)
	dst = append(dst, ':')
	if s, ok := v.([]any); ok && len(s) > 0 {
		// Indent the sequence: the compact form is not allowed after ":".
		dst = append(dst, '\n')
		return appendSequence(dst, s, indent+2, false)
	}
	return appendValue(dst, v, indent, false)
}

// appendSequence writes the items of s as "- item" lines at indent.
func appendSequence(dst []byte, s []any, indent int, inline bool) ([]byte, error) {
	var err error
	for i, item := range s {
		if i > 0 || !inline {
			dst = appendIndent(dst, indent)
		}
		dst = append(dst, '-')
		if dst, err = appendValue(dst, item, indent, true); err != nil {
			return dst, fmt.Errorf("[%d]: %w", i, err)
		}
	}
	return dst, nil
}

// appendValue writes v after a "key:" or "-" that is already on the line
// and ends the line. indent is the column of that key or dash.
func appendValue(dst []byte, v any, indent int, inSequence bool) ([]byte, error) {
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			return append(dst, " {}\n"...), nil
		}
		if inSequence {
			dst = append(dst, ' ')
			return appendMapping(dst, v, indent+2, true)
		}
		dst = append(dst, '\n')
		return appendMapping(dst, v, indent+2, false)
	case []any:
		if len(v) == 0 {
			return append(dst, " []\n"...), nil
		}
		if inSequence {
			dst = append(dst, ' ')
			return appendSequence(dst, v, indent+2, true)
		}
		// Compact style, as kubectl: the dashes line up with the key.
		dst = append(dst, '\n')
		return appendSequence(dst, v, indent, false)
	case string:
		dst = append(dst, ' ')
		if block, ok := literalBlock(v); ok {
			return appendLiteral(dst, v, block, indent+2), nil
		}
		dst = appendScalarString(dst, v, false)
	case nil:
		dst = append(dst, " null"...)
	case bool:
		dst = append(dst, ' ')
		dst = strconv.AppendBool(dst, v)
	case int64:
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, v, 10)
	case int:
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(v), 10)
	case int32:
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(v), 10)
	case uint64:
		dst = append(dst, ' ')
		dst = strconv.AppendUint(dst, v, 10)
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return dst, fmt.Errorf("%v has no JSON form", v)
		}
		dst = append(dst, ' ')
		dst = appendFloat(dst, v)
	case json.Number:
		if !isNumber(string(v)) {
			return dst, fmt.Errorf("%q is not a number", string(v))
		}
		dst = append(dst, ' ')
		dst = append(dst, v...)
	default:
		return dst, fmt.Errorf("cannot print a value of type %T", v)
	}
	return append(dst, '\n'), nil
}

func appendIndent(dst []byte, n int) []byte {
	for ; n > 0; n-- {
		dst = append(dst, ' ')
	}
	return dst
}

// appendFloat writes a float as encoding/json does (3 for 3.0): JSON does
// not tell the two apart, and kubectl prints them this way.
func appendFloat(dst []byte, f float64) []byte {
	data, err := json.Marshal(f)
	if err != nil {
		return strconv.AppendFloat(dst, f, 'g', -1, 64)
	}
	return append(dst, data...)
}

// literalBlock reports whether s, a string of several lines, can be
// written as a literal block ("|") and with which chomping indicator.
func literalBlock(s string) (string, bool) {
	if !strings.Contains(s, "\n") {
		return "", false
	}
	body := strings.TrimRight(s, "\n")
	if first := strings.TrimLeft(body, "\n"); first == "" || first[0] == ' ' || first[0] == '\t' {
		// The first line with text sets the block's indentation: a
		// leading space there would need an indentation indicator.
		return "", false
	}
	for _, line := range strings.Split(body, "\n") {
		if line != "" && strings.TrimLeft(line, " \t") == "" {
			// White space alone on a line would be read back as an
			// empty line.
			return "", false
		}
		if strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
			// Kept by the literal style, but invisible and easily lost
			// by editors: quote such strings, as kubectl does.
			return "", false
		}
		for _, r := range line {
			if !isPrintable(r) && r != '\t' {
				return "", false
			}
		}
	}
	switch trailing := len(s) - len(body); trailing {
	case 0:
		return "|-", true
	case 1:
		return "|", true
	default:
		return "|+", true
	}
}

func appendLiteral(dst []byte, s, indicator string, indent int) []byte {
	dst = append(dst, indicator...)
	dst = append(dst, '\n')
	body := s
	if indicator != "|+" {
		body = strings.TrimRight(s, "\n")
	} else {
		body = strings.TrimSuffix(s, "\n")
	}
	for _, line := range strings.Split(body, "\n") {
		if line != "" {
			dst = appendIndent(dst, indent)
			dst = append(dst, line...)
		}
		dst = append(dst, '\n')
	}
	return dst
}

// appendScalarString writes s plain when every YAML parser reads it back
// as the same string, else single-quoted, or double-quoted when it holds
// characters that need escapes.
func appendScalarString(dst []byte, s string, isKey bool) []byte {
	if s == "" || looksLikeOtherType(s) {
		// Double quotes say "this is a string" most clearly, as kubectl
		// writes "true" or "2024-01-01".
		return appendDoubleQuoted(dst, s)
	}
	if canBePlain(s) {
		return append(dst, s...)
	}
	if canBeSingleQuoted(s) {
		dst = append(dst, '\'')
		for i := 0; i < len(s); i++ {
			if s[i] == '\'' {
				dst = append(dst, '\'')
			}
			dst = append(dst, s[i])
		}
		return append(dst, '\'')
	}
	return appendDoubleQuoted(dst, s)
}

// appendDoubleQuoted writes s with the escapes that YAML and Go share.
func appendDoubleQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for _, r := range s {
		switch r {
		case '"':
			dst = append(dst, `\"`...)
		case '\\':
			dst = append(dst, `\\`...)
		case '\n':
			dst = append(dst, `\n`...)
		case '\t':
			dst = append(dst, `\t`...)
		case '\r':
			dst = append(dst, `\r`...)
		default:
			if isPrintable(r) {
				dst = utf8.AppendRune(dst, r)
			} else if r <= 0xFFFF {
				dst = fmt.Appendf(dst, `\u%04X`, r)
			} else {
				dst = fmt.Appendf(dst, `\U%08X`, r)
			}
		}
	}
	return append(dst, '"')
}

// isPrintable is the set of characters YAML allows unescaped, less the
// ones that some parsers treat as line breaks or byte order marks.
func isPrintable(r rune) bool {
	switch r {
	case 0x85, 0x2028, 0x2029, 0xFEFF:
		return false
	}
	return r >= 0x20 && r != 0x7F && unicode.IsPrint(r) || r > 0x7F && unicode.IsGraphic(r) && !unicode.Is(unicode.Cc, r)
}

func canBeSingleQuoted(s string) bool {
	for _, r := range s {
		if !isPrintable(r) {
			return false
		}
	}
	return true
}

// canBePlain reports whether s can be written without quotes: it must not
// start or end like YAML syntax, contain a comment or mapping indicator,
// or read as another type under YAML 1.1 (which kubectl uses) or 1.2.
func canBePlain(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '\t', '.', '~', '<', '=':
		// '.' (.inf, .nan, "..."), '~' (null), '<' and '=' (merge and
		// value keys) can start strings that read as something else;
		// quoting a few harmless ones keeps the rule short.
		return false
	}
	last := s[len(s)-1]
	if last == ' ' || last == '\t' || last == ':' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':' && i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t'):
			return false
		case c == '#' && i > 0 && (s[i-1] == ' ' || s[i-1] == '\t'):
			return false
		case c < 0x20 || c == 0x7F:
			return false
		case c >= 0x80:
			r, _ := utf8.DecodeRuneInString(s[i:])
			if !isPrintable(r) {
				return false
			}
		}
	}
	return !looksLikeOtherType(s)
}

// looksLikeOtherType reports strings that a YAML 1.1 or 1.2 parser would
// read as null, a boolean, a number or a timestamp.
func looksLikeOtherType(s string) bool {
	switch strings.ToLower(s) {
	case "null", "true", "false", "yes", "no", "on", "off", "y", "n",
		"+.inf": // infinity (".inf", "-.inf" and ".nan" start with a character canBePlain quotes)
		return true
	}
	c := s[0]
	if c != '+' && (c < '0' || c > '9') {
		return false
	}
	// Anything that starts like a number is checked loosely: ints in any
	// base with underscores (prefixes in either case: readers built on Go's
	// strconv take "0O17" and "0B1" as numbers), floats, sexagesimals and dates all start with
	// a digit or a sign and use only these characters.
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '_', c == '.', c == ':', c == '-', c == '+', c == 'e', c == 'E',
			c == 'x', c == 'X', c == 'o', c == 'O', c == 'b', c == 'B', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F',
			c == 'T', c == 't', c == 'Z', c == ' ':
		default:
			return false
		}
	}
	return isYAMLNumberOrTime(s)
}

// isYAMLNumberOrTime is the precise test for strings made only of number
// and date characters.
func isYAMLNumberOrTime(s string) bool {
	t := strings.ReplaceAll(s, "_", "")
	if t == "" {
		return false
	}
	if _, err := strconv.ParseInt(t, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(t, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return true
	}
	if signedBasePrefix(t) {
		return true
	}
	if isSexagesimal(t) {
		return true
	}
	// Dates and timestamps: 2006-01-02, 2006-1-2T15:04:05Z, ...
	if len(s) >= 8 && s[4] == '-' {
		return true
	}
	// Leading zeros (octal in YAML 1.1) and large numbers: all digits.
	digits := strings.TrimLeft(t, "+-")
	return digits != "" && strings.Trim(digits, "0123456789") == ""
}

// signedBasePrefix reports the binary and octal forms that goyaml (v2
// and v3, which kubectl and sigs.k8s.io/yaml use) reads as ints beyond
// Go's own syntax: after "0b" or "0o" (or "-0b", "-0o") it parses the rest
// in that base, and Go's parser takes a sign there, so "0o+7" and "0b-1"
// are numbers. Any such string of digits and signs is quoted.
func signedBasePrefix(t string) bool {
	t = strings.TrimPrefix(t, "-")
	rest, ok := strings.CutPrefix(t, "0b")
	if !ok {
		rest, ok = strings.CutPrefix(t, "0o")
	}
	return ok && rest != "" && strings.Trim(rest, "+-0123456789") == ""
}

func isSexagesimal(s string) bool {
	if !strings.Contains(s, ":") {
		return false
	}
	s = strings.TrimLeft(s, "+-")
	for _, part := range strings.Split(s, ":") {
		part = strings.TrimSuffix(part, ".")
		if part == "" {
			return false
		}
		if strings.Trim(part, "0123456789.") != "" {
			return false
		}
	}
	return true
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// sortedKeys orders keys as kubectl's YAML printer does: characters
// compare as usual, except that a letter sorts after anything else and
// runs of digits compare as numbers ("item2" before "item10").
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	if len(keys) > 1 {
		sort.Slice(keys, func(i, j int) bool { return keyLess(keys[i], keys[j]) })
	}
	return keys
}

func keyLess(a, b string) bool {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return len(a) < len(b)
	}
	for i > 0 && !utf8.RuneStart(a[i]) { // compare whole characters
		i--
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	la, lb := unicode.IsLetter(ra), unicode.IsLetter(rb)
	switch {
	case la && lb:
		return ra < rb
	case la || lb:
		return lb
	}
	na, ea := digitRun(a, i)
	nb, eb := digitRun(b, i)
	if na != nb {
		return na < nb
	}
	if ea != eb {
		return ea < eb
	}
	if ra != rb {
		return ra < rb
	}
	return a < b
}

// digitRun reads the number written by the digits at s[i:] (0 if none)
// and returns it with the index after them.
func digitRun(s string, i int) (uint64, int) {
	var n uint64
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + uint64(s[i]-'0')
	}
	return n, i
}
