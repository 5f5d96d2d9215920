package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/drakit/drakit/internal/jsonfields"
)

// MaxDecodedBytes bounds the memory that decoding one object into its Go
// type may take, as estimated from the sizes of the Go values the JSON
// asks for. Lists multiply: "devices: [1,1,1,...]" is two bytes per entry
// in the manifest but a 176-byte Device per entry in memory, so a 3 MiB
// document could ask for 250 MB and the growing slice for four times
// that. The largest objects the API accepts take well under 1 MiB; a 3 MiB
// v1alpha3 ResourceSlice full of small devices (the API allows 128) takes
// about 12 MiB.
const MaxDecodedBytes = 64 << 20

// smallDocument is the size under which no document can reach
// MaxDecodedBytes (the largest ratio of memory to JSON is below 200), so
// that the common case pays nothing for the check. FuzzReader lowers it.
var smallDocument = 256 << 10

// checkDecodedSize estimates what decoding js into a value of type t
// takes and returns an error naming the largest list when it is over
// MaxDecodedBytes.
func checkDecodedSize(js []byte, t reflect.Type) (path string, err error) {
	if len(js) < smallDocument {
		return "", nil
	}
	s := &sizer{dec: json.NewDecoder(bytes.NewReader(js))}
	s.dec.UseNumber()
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s.value(t, "") != nil || s.total <= MaxDecodedBytes {
		return "", nil // not valid JSON: the decoder says why
	}
	return s.worstPath, fmt.Errorf("a list of %d entries, too many to decode: this object would take about %s of memory, over drakit's limit of %s (the API server accepts far shorter lists)",
		s.worstCount, formatBytes(int(s.total>>20)<<20), formatBytes(MaxDecodedBytes))
}

// sizer walks a JSON value beside the Go type it will be decoded into,
// adding up the memory of the values decoding allocates: list and map
// entries, strings, and what pointers point to.
type sizer struct {
	dec   *json.Decoder
	total int64

	worstPath  string // the list whose entries take the most
	worstCount int
	worstBytes int64
}

// value consumes one JSON value; t is nil where the type is not known
// (unknown fields, values that decode themselves), which counts only the
// bytes of strings.
func (s *sizer) value(t reflect.Type, path string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
		if t.Kind() != reflect.Pointer {
			s.total += int64(t.Size())
		}
	}
	if t != nil && (reflect.PointerTo(t).Implements(unmarshalerType) || t.Kind() == reflect.Interface) {
		t = nil
	}
	tok, err := s.dec.Token()
	if err != nil {
		return err
	}
	switch tok := tok.(type) {
	case string:
		s.total += int64(len(tok))
		return nil
	case json.Delim:
		if tok == '[' {
			return s.list(t, path)
		}
		return s.object(t, path)
	}
	return nil
}

func (s *sizer) list(t reflect.Type, path string) error {
	var elem reflect.Type
	if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		elem = t.Elem()
	}
	start, n := s.total, 0
	for s.dec.More() {
		if elem != nil {
			s.total += int64(elem.Size())
		}
		if err := s.value(elem, fmt.Sprintf("%s[%d]", path, n)); err != nil {
			return err
		}
		n++
	}
	if took := s.total - start; took > s.worstBytes {
		s.worstPath, s.worstCount, s.worstBytes = path, n, took
	}
	_, err := s.dec.Token() // ']'
	return err
}

func (s *sizer) object(t reflect.Type, path string) error {
	var fields map[string]reflect.Type
	var mapElem reflect.Type
	if t != nil {
		switch t.Kind() {
		case reflect.Struct:
			fields = jsonfields.Of(t)
		case reflect.Map:
			mapElem = t.Elem()
		}
	}
	for s.dec.More() {
		tok, err := s.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		var ft reflect.Type
		switch {
		case fields != nil:
			ft = fields[key]
		case mapElem != nil:
			ft = mapElem
			// A map entry: the key, the value and the map's own
			// bookkeeping.
			s.total += int64(len(key)) + int64(t.Key().Size()) + int64(mapElem.Size()) + 8
		}
		if err := s.value(ft, joinPath(path, key)); err != nil {
			return err
		}
	}
	_, err := s.dec.Token() // '}'
	return err
}
