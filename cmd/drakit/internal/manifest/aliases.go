package manifest

import (
	"bytes"

	yamlv2 "go.yaml.in/yaml/v2"
)

// YAML aliases let a small document stand for a huge one. The YAML library
// limits how many nodes aliases may add (about 400,000), but not how large
// they are: a 1 MiB string repeated by 300 aliases is a 1 MiB document that
// turns into 315 MB of JSON, with 1.7 GB allocated on the way, and 3,000
// aliases take it past 3 GB. So drakit measures what the aliases expand to
// before it converts the document to JSON, and refuses a document that
// would grow past MaxDocumentBytes.

// checkAliases refuses a YAML document whose aliases expand it past
// MaxDocumentBytes. Only documents with an anchor ('&') and an alias ('*')
// are looked at closer: the others cannot expand.
func (d *Document) checkAliases() *Error {
	if bytes.IndexByte(d.Raw, '&') < 0 || bytes.IndexByte(d.Raw, '*') < 0 {
		return nil
	}
	// The same parser as the conversion to JSON, so that both see the same
	// structure. Decoding into interface{} shares the bytes of repeated
	// strings and keeps within the library's limit on aliased nodes, so it
	// stays cheap; it is the JSON of the result that would be large.
	var v any
	if err := yamlv2.Unmarshal(d.Raw, &v); err != nil {
		return nil // not well-formed: the conversion says why
	}
	if n := expandedSize(v, MaxDocumentBytes); n > MaxDocumentBytes {
		return d.Errorf("YAML aliases expand the document past %s (an alias bomb?); write the repeated parts out, or split the document", formatBytes(MaxDocumentBytes))
	}
	return nil
}

// expandedSize is a lower bound of the size of v as JSON, counted until it
// passes limit: the bytes of every key and string, one byte for each other
// scalar and for each separator.
func expandedSize(v any, limit int) int {
	size := 0
	var walk func(v any)
	walk = func(v any) {
		if size > limit {
			return
		}
		switch t := v.(type) {
		case string:
			size += len(t) + 2
		case map[any]any:
			size += 2
			for k, e := range t {
				walk(k)
				size++
				walk(e)
			}
		case []any:
			size += 2
			for _, e := range t {
				walk(e)
				size++
			}
		default:
			size++
		}
	}
	walk(v)
	return size
}
