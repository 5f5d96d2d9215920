package printer

import (
	"bytes"
	"encoding/json"
)

// AppendJSON appends v as JSON indented by four spaces, as kubectl prints
// it, followed by a newline. Unlike kubectl it leaves <, > and & alone:
// CEL expressions are full of them and \u0026\u0026 helps no one.
func AppendJSON(dst []byte, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "    ")
	if err := enc.Encode(v); err != nil {
		return dst, err
	}
	return append(dst, buf.Bytes()...), nil
}

// IndentJSON appends the JSON document js, re-indented like AppendJSON.
func IndentJSON(dst []byte, js []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, bytes.TrimSpace(js), "", "    "); err != nil {
		return dst, err
	}
	dst = append(dst, buf.Bytes()...)
	return append(dst, '\n'), nil
}
