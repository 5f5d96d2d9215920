package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// An Object is one JSON object of a document, as found by Objects.
type Object struct {
	// Path is the object's field path in the form used by Paths; "" is
	// the document itself.
	Path string
	// At leads to the object for AddMember and DuplicateFirstMember: one
	// object key per step, or "[]" for the first element of an array.
	At []string
}

// Objects lists the JSON objects in doc, the document itself first. It
// looks only at the first element of each array, and lists neither the
// objects at the paths in stopAt nor anything inside them.
func Objects(doc []byte, stopAt ...string) ([]Object, error) {
	stop := map[string]bool{}
	for _, s := range stopAt {
		stop[s] = true
	}
	var out []Object
	var walk func(raw []byte, path string, at []string) error
	walk = func(raw []byte, path string, at []string) error {
		if path != "" && stop[path] {
			return nil
		}
		switch firstByte(raw) {
		case '{':
			out = append(out, Object{Path: path, At: append([]string(nil), at...)})
			ms, err := members(raw)
			if err != nil {
				return err
			}
			for _, m := range ms {
				p := m.key
				if path != "" {
					p = path + "." + m.key
				}
				if err := walk(m.raw, p, append(at, m.key)); err != nil {
					return err
				}
			}
		case '[':
			var elems []json.RawMessage
			if err := json.Unmarshal(raw, &elems); err != nil {
				return err
			}
			if len(elems) > 0 {
				return walk(elems[0], path+"[]", append(at, "[]"))
			}
		}
		return nil
	}
	if err := walk(doc, "", nil); err != nil {
		return nil, err
	}
	return out, nil
}

// AddMember returns a copy of doc in which the object reached by at
// starts with the member "key": value. value must be valid JSON. The rest
// of the document is kept byte for byte.
func AddMember(doc []byte, at []string, key, value string) ([]byte, error) {
	return edit(doc, at, func(ms []member) ([]member, error) {
		return append([]member{{key: key, raw: []byte(value)}}, ms...), nil
	})
}

// DuplicateFirstMember returns a copy of doc in which the first member of
// the object reached by at appears twice in a row. It fails if that
// object is empty.
func DuplicateFirstMember(doc []byte, at []string) ([]byte, error) {
	return edit(doc, at, func(ms []member) ([]member, error) {
		if len(ms) == 0 {
			return nil, fmt.Errorf("object at %q is empty", strings.Join(at, "."))
		}
		return append([]member{ms[0]}, ms...), nil
	})
}

type member struct {
	key string
	raw []byte
}

func firstByte(raw []byte) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

// members splits a JSON object into its members, in document order and
// keeping duplicates.
func members(raw []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object: %.40s", raw)
	}
	var ms []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("unexpected token %v", tok)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		ms = append(ms, member{key: key, raw: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after JSON object")
	}
	return ms, nil
}

func writeObject(ms []member) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.raw)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func edit(doc []byte, at []string, f func([]member) ([]member, error)) ([]byte, error) {
	if len(at) == 0 {
		ms, err := members(doc)
		if err != nil {
			return nil, err
		}
		if ms, err = f(ms); err != nil {
			return nil, err
		}
		return writeObject(ms), nil
	}
	if at[0] == "[]" {
		var elems []json.RawMessage
		if err := json.Unmarshal(doc, &elems); err != nil {
			return nil, err
		}
		if len(elems) == 0 {
			return nil, fmt.Errorf("empty array on the way to the object")
		}
		e, err := edit(elems[0], at[1:], f)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		b.WriteByte('[')
		b.Write(e)
		for _, rest := range elems[1:] {
			b.WriteByte(',')
			b.Write(rest)
		}
		b.WriteByte(']')
		return b.Bytes(), nil
	}
	ms, err := members(doc)
	if err != nil {
		return nil, err
	}
	for i := range ms {
		if ms[i].key == at[0] {
			if ms[i].raw, err = edit(ms[i].raw, at[1:], f); err != nil {
				return nil, err
			}
			return writeObject(ms), nil
		}
	}
	return nil, fmt.Errorf("no member %q", at[0])
}
