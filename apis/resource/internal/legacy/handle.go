package legacy

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/drakit/drakit/apis/resource"
)

// appendDevicesJSON appends what json.Marshal makes of devices, field for
// field (the json tags of the hub types, omitempty included), without
// reflection. TestDevicesJSONMatchesEncodingJSON holds it to json.Marshal;
// a field added to these types must be added here.
func appendDevicesJSON(b []byte, d *resource.DeviceAllocationResult) ([]byte, error) {
	b = append(b, '{')
	comma := false
	if len(d.Results) > 0 {
		b = append(b, `"results":[`...)
		for i := range d.Results {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendResultJSON(b, &d.Results[i])
		}
		b = append(b, ']')
		comma = true
	}
	if len(d.Config) > 0 {
		if comma {
			b = append(b, ',')
		}
		b = append(b, `"config":[`...)
		for i := range d.Config {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendConfigJSON(b, &d.Config[i]); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

func appendResultJSON(b []byte, r *resource.DeviceRequestAllocationResult) []byte {
	var f fields
	b = f.str(b, `"request":`, r.Request)
	b = f.str(b, `"driver":`, r.Driver)
	b = f.str(b, `"pool":`, r.Pool)
	b = f.str(b, `"device":`, r.Device)
	return f.close(b)
}

func appendConfigJSON(b []byte, c *resource.DeviceAllocationConfiguration) ([]byte, error) {
	var f fields
	b = f.str(b, `"source":`, string(c.Source))
	if len(c.Requests) > 0 {
		b = f.name(b, `"requests":`)
		b = append(b, '[')
		for i, r := range c.Requests {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, r)
		}
		b = append(b, ']')
	}
	if o := c.Opaque; o != nil {
		b = f.name(b, `"opaque":`)
		var of fields
		b = of.str(b, `"driver":`, o.Driver)
		// A struct is never empty to encoding/json: parameters is always
		// written, as null when it holds nothing.
		b = of.name(b, `"parameters":`)
		params, err := json.Marshal(o.Parameters)
		if err != nil {
			return nil, err
		}
		b = append(b, params...)
		b = of.close(b)
	}
	return f.close(b), nil
}

// fields writes the members of one object, opening it with the first.
type fields struct{ open bool }

func (f *fields) name(b []byte, name string) []byte {
	if f.open {
		b = append(b, ',')
	} else {
		b = append(b, '{')
		f.open = true
	}
	return append(b, name...)
}

// str writes a string member unless it is empty (omitempty).
func (f *fields) str(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	return appendString(f.name(b, name), value)
}

func (f *fields) close(b []byte) []byte {
	if !f.open {
		return append(b, "{}"...)
	}
	return append(b, '}')
}

// appendString writes s as a JSON string. Plain ASCII, which is what names
// are, is written as it is; anything else is left to encoding/json, so that
// its escaping (HTML characters, U+2028, invalid UTF-8) is followed exactly.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			quoted, _ := json.Marshal(s) // a string always marshals
			return append(b, quoted...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
