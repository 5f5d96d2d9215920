package stash

import (
	"bytes"
	"fmt"
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource"
)

// The encoders below write the payload types field by field into a byte
// slice. Encoding with json-iterator's reflection was the largest cost of
// a conversion that writes a stash; written by hand it takes about half
// the time, and it allocates only the annotation value (see
// BenchmarkEncode).
//
// They must write exactly what codec (json-iterator) writes, byte for
// byte: a stash written by an earlier release must be written again
// unchanged when its object goes through another round trip, or every
// such object would look changed. So they follow json-iterator, not
// encoding/json, wherever the two differ:
//
//   - members in struct order, inlined structs in place, keys as the
//     tags spell them;
//   - omitempty leaves out a nil pointer, an empty string, slice or map, 0
//     and false, but never a struct; a pointer to a nil slice is null, to
//     an empty one [];
//   - a nil slice without omitempty is null;
//   - strings escape only ", \ and the control characters (\n, \r and \t
//     by name, the others as \u00XX); everything else, invalid UTF-8 and
//     U+2028/U+2029 included, is copied as it is (EscapeHTML is false);
//   - a value with MarshalJSON is written as that method returns it, not
//     compacted or checked, less one trailing newline;
//   - no payload holds a map: one added must have its keys sorted
//     (SortMapKeys).
//
// A field added to a payload type, or to a hub type a payload holds, must
// be added here too: TestEncoderMatchesJSONIterator fills every field at
// random and compares with codec, and fails until it is.

// encode returns payload as codec would write it.
func encode(payload Payload) (string, error) {
	scratch := buffers.Get().(*[]byte)
	buf, err := appendPayload((*scratch)[:0], payload)
	var data string
	if err == nil {
		data = string(buf)
	}
	if cap(buf) <= maxPooledBuffer {
		*scratch = buf[:0]
		buffers.Put(scratch)
	}
	if err != nil {
		// The MarshalJSON of a value in the payload failed: a RawExtension
		// whose Object does not marshal or whose bytes are not JSON. Only
		// a hand-made payload can hold one, and json-iterator's error says
		// which field it is (in its own words, which Write returned
		// before): let codec give it.
		if _, codecErr := codec.MarshalToString(payload); codecErr != nil {
			return "", codecErr
		}
		return "", err
	}
	return data, nil
}

// buffers holds the buffers that encode writes into, so that encoding a
// payload costs one allocation: the string it returns. (The writer itself
// stays on the stack: keep its methods free of func values and interfaces
// that it would escape through.)
var buffers = sync.Pool{New: func() any {
	buf := make([]byte, 0, 1024)
	return &buf
}}

// maxPooledBuffer keeps an unusually large payload from pinning its
// buffer in the pool.
const maxPooledBuffer = 64 << 10

// appendPayload appends payload to buf as codec writes it. The error is
// that of a MarshalJSON method in the payload; buf is then unusable.
func appendPayload(buf []byte, payload Payload) ([]byte, error) {
	w := writer{buf: buf}
	w.payload(payload)
	return w.buf, w.err
}

// writer appends JSON to buf. It knows where commas go: more is true when
// the last thing written is a complete value or a key (whose value
// follows), so that the next member or element needs a comma; open sets it
// back to false. A value alone never touches it.
type writer struct {
	buf  []byte
	more bool
	err  error // of the first MarshalJSON that failed
}

func (w *writer) payload(payload Payload) {
	switch p := payload.(type) {
	case *Class:
		w.class(p)
	case *Claim:
		w.claim(p)
	case *Slice:
		w.slice(p)
	case nil:
		w.null()
	default:
		// As in decodePayload: a new payload type needs an encoder here.
		w.err = fmt.Errorf("no encoder for stash payload %T", payload)
	}
}

func (w *writer) open(c byte) {
	w.buf = append(w.buf, c)
	w.more = false
}

func (w *writer) close(c byte) {
	w.buf = append(w.buf, c)
	w.more = true
}

// key begins an object member. Keys are the payloads' json tags, which
// need no escapes.
func (w *writer) key(name string) {
	if w.more {
		w.buf = append(w.buf, ',')
	}
	w.buf = append(w.buf, '"')
	w.buf = append(w.buf, name...)
	w.buf = append(w.buf, '"', ':')
	w.more = true
}

// elem begins an array element.
func (w *writer) elem() {
	if w.more {
		w.buf = append(w.buf, ',')
	}
	w.more = true
}

func (w *writer) null() {
	w.buf = append(w.buf, "null"...)
}

func (w *writer) boolean(v bool) {
	w.buf = strconv.AppendBool(w.buf, v)
}

func (w *writer) int(v int64) {
	w.buf = strconv.AppendInt(w.buf, v, 10)
}

// plain holds the bytes that json-iterator's Stream.WriteString copies
// into a string as they are: all but the quote, the backslash and those
// below 0x20. Bytes of 0x80 and above are copied without a look at the
// UTF-8 they belong to.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// str writes s quoted and escaped as json-iterator's Stream.WriteString
// does: \", \\, \n, \r and \t, and \u00XX for the other control
// characters (\b and \f too).
func (w *writer) str(s string) {
	w.buf = append(w.buf, '"')
	done := 0 // s[:done] is written
	for i := 0; i < len(s); i++ {
		c := s[i]
		if plain[c] {
			continue
		}
		w.buf = append(w.buf, s[done:i]...)
		switch c {
		case '"', '\\':
			w.buf = append(w.buf, '\\', c)
		case '\n':
			w.buf = append(w.buf, '\\', 'n')
		case '\r':
			w.buf = append(w.buf, '\\', 'r')
		case '\t':
			w.buf = append(w.buf, '\\', 't')
		default:
			w.buf = append(w.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		done = i + 1
	}
	w.buf = append(w.buf, s[done:]...)
	w.buf = append(w.buf, '"')
}

// The field helpers write a member with omitempty: not at all when the
// value is empty. Lists are written in loops of their own, as decode.go
// reads them: a helper that took a func to write each element would make
// the writer escape to the heap.

func (w *writer) strField(name, v string) {
	if v != "" {
		w.key(name)
		w.str(v)
	}
}

func (w *writer) intField(name string, v int64) {
	if v != 0 {
		w.key(name)
		w.int(v)
	}
}

func (w *writer) boolField(name string, v bool) {
	if v {
		w.key(name)
		w.boolean(true)
	}
}

func (w *writer) optionalStrField(name string, v *string) {
	if v != nil {
		w.key(name)
		w.str(*v)
	}
}

func (w *writer) stringsField(name string, v []string) {
	if len(v) > 0 {
		w.key(name)
		w.strings(v)
	}
}

// strings writes a list of strings; nil is null.
func (w *writer) strings(l []string) {
	if l == nil {
		w.null()
		return
	}
	w.open('[')
	for _, s := range l {
		w.elem()
		w.str(s)
	}
	w.close(']')
}

// quantity writes q as its MarshalJSON does: its String, quoted (and never
// in need of escapes). String caches the text in its receiver, so it is
// called on a copy: the payload shares its quantities with the object
// being converted, which must not change, and which other goroutines may
// be reading. A quantity with its text cached (parsed ones) costs no
// allocation, unlike MarshalJSON.
func (w *writer) quantity(q *apiresource.Quantity) {
	text := *q
	w.buf = append(w.buf, '"')
	w.buf = append(w.buf, text.String()...)
	w.buf = append(w.buf, '"')
}

// rawExtension writes what the value's MarshalJSON returns, as
// json-iterator does: its bytes as they are (normally Raw, without a
// copy), less one trailing newline. On an error it writes nothing and
// keeps going, as json-iterator does, and encode asks codec for the words.
func (w *writer) rawExtension(re *runtime.RawExtension) {
	if re.Raw == nil && re.Object == nil {
		w.null() // what MarshalJSON returns, but without allocating it
		return
	}
	data, err := re.MarshalJSON()
	if err != nil {
		if w.err == nil {
			w.err = err
		}
		return
	}
	w.buf = append(w.buf, bytes.TrimSuffix(data, []byte{'\n'})...)
}

func (w *writer) class(c *Class) {
	if c == nil {
		w.null()
		return
	}
	w.open('{')
	w.key("v")
	w.int(int64(c.V))
	if len(c.Selectors) > 0 {
		w.key("selectors")
		w.deviceSelectors(c.Selectors)
	}
	if len(c.Config) > 0 {
		w.key("config")
		w.open('[')
		for i := range c.Config {
			w.elem()
			w.open('{')
			w.deviceConfiguration(&c.Config[i].DeviceConfiguration)
			w.close('}')
		}
		w.close(']')
	}
	if ref := c.ParametersRef; ref != nil {
		w.key("parametersRef")
		w.open('{')
		w.strField("apiGroup", ref.APIGroup)
		w.strField("kind", ref.Kind)
		w.strField("name", ref.Name)
		w.strField("namespace", ref.Namespace)
		w.close('}')
	}
	if c.StructuredParameters != nil {
		w.key("structuredParameters")
		w.boolean(*c.StructuredParameters)
	}
	w.close('}')
}

func (w *writer) claim(c *Claim) {
	if c == nil {
		w.null()
		return
	}
	w.open('{')
	w.key("v")
	w.int(int64(c.V))
	if c.Spec != nil {
		w.key("spec")
		w.claimSpec(c.Spec)
	}
	if c.Status != nil {
		w.key("status")
		w.claimStatus(c.Status)
	}
	w.close('}')
}

func (w *writer) claimSpec(s *ClaimSpec) {
	w.open('{')
	if s.Requests != nil { // a pointer: only nil is left out
		w.key("requests")
		if requests := *s.Requests; requests == nil {
			w.null()
		} else {
			w.open('[')
			for i := range requests {
				w.elem()
				w.deviceRequest(&requests[i])
			}
			w.close(']')
		}
	}
	if len(s.Constraints) > 0 {
		w.key("constraints")
		w.open('[')
		for i := range s.Constraints {
			w.elem()
			w.deviceConstraint(&s.Constraints[i])
		}
		w.close(']')
	}
	if len(s.Config) > 0 {
		w.key("config")
		w.open('[')
		for i := range s.Config {
			c := &s.Config[i]
			w.elem()
			w.open('{')
			w.stringsField("requests", c.Requests)
			w.deviceConfiguration(&c.DeviceConfiguration)
			w.close('}')
		}
		w.close(']')
	}
	w.strField("controller", s.Controller)
	if ref := s.ParametersRef; ref != nil {
		w.key("parametersRef")
		w.open('{')
		w.strField("apiGroup", ref.APIGroup)
		w.strField("kind", ref.Kind)
		w.strField("name", ref.Name)
		w.close('}')
	}
	w.strField("allocationMode", string(s.AllocationMode))
	w.close('}')
}

func (w *writer) deviceRequest(r *resource.DeviceRequest) {
	w.open('{')
	w.strField("name", r.Name)
	w.strField("deviceClassName", r.DeviceClassName)
	if len(r.Selectors) > 0 {
		w.key("selectors")
		w.deviceSelectors(r.Selectors)
	}
	w.strField("allocationMode", string(r.AllocationMode))
	w.intField("count", r.Count)
	w.boolField("adminAccess", r.AdminAccess)
	w.close('}')
}

func (w *writer) deviceConstraint(c *resource.DeviceConstraint) {
	w.open('{')
	w.stringsField("requests", c.Requests)
	if c.MatchAttribute != nil {
		w.key("matchAttribute")
		w.str(string(*c.MatchAttribute))
	}
	w.close('}')
}

// deviceSelectors writes a list that omitempty leaves out when empty.
func (w *writer) deviceSelectors(l []resource.DeviceSelector) {
	w.open('[')
	for i := range l {
		w.elem()
		w.open('{')
		if cel := l[i].CEL; cel != nil {
			w.key("cel")
			w.open('{')
			w.strField("expression", cel.Expression)
			w.close('}')
		}
		w.close('}')
	}
	w.close(']')
}

// deviceConfiguration writes the members of an inlined DeviceConfiguration,
// which the config list elements have after their own (struct order).
func (w *writer) deviceConfiguration(c *resource.DeviceConfiguration) {
	if o := c.Opaque; o != nil {
		w.key("opaque")
		w.open('{')
		w.strField("driver", o.Driver)
		w.key("parameters") // a struct: omitempty does not apply
		w.rawExtension(&o.Parameters)
		w.close('}')
	}
}

func (w *writer) claimStatus(s *ClaimStatus) {
	w.open('{')
	w.strField("driverName", s.DriverName)
	if s.Allocation != nil {
		w.key("allocation")
		w.allocation(s.Allocation)
	}
	w.close('}')
}

func (w *writer) allocation(a *Allocation) {
	w.open('{')
	if a.Devices != nil {
		w.key("devices")
		w.deviceAllocationResult(a.Devices)
	}
	w.strField("controller", a.Controller)
	if a.ResourceHandles != nil { // a pointer: only nil is left out
		w.key("resourceHandles")
		if handles := *a.ResourceHandles; handles == nil {
			w.null()
		} else {
			w.open('[')
			for i := range handles {
				w.elem()
				w.resourceHandle(&handles[i])
			}
			w.close(']')
		}
	}
	w.boolField("shareable", a.Shareable)
	w.intField("derivedHandles", int64(a.DerivedHandles))
	w.boolField("derivedResults", a.DerivedResults)
	w.close('}')
}

func (w *writer) deviceAllocationResult(d *resource.DeviceAllocationResult) {
	w.open('{')
	if len(d.Results) > 0 {
		w.key("results")
		w.open('[')
		for i := range d.Results {
			r := &d.Results[i]
			w.elem()
			w.open('{')
			w.strField("request", r.Request)
			w.strField("driver", r.Driver)
			w.strField("pool", r.Pool)
			w.strField("device", r.Device)
			w.close('}')
		}
		w.close(']')
	}
	if len(d.Config) > 0 {
		w.key("config")
		w.open('[')
		for i := range d.Config {
			c := &d.Config[i]
			w.elem()
			w.open('{')
			w.strField("source", string(c.Source))
			w.stringsField("requests", c.Requests)
			w.deviceConfiguration(&c.DeviceConfiguration)
			w.close('}')
		}
		w.close(']')
	}
	w.close('}')
}

func (w *writer) resourceHandle(h *resource.ResourceHandle) {
	w.open('{')
	w.strField("driverName", h.DriverName)
	w.strField("data", h.Data)
	if h.StructuredData != nil {
		w.key("structuredData")
		w.structuredHandle(h.StructuredData)
	}
	w.close('}')
}

func (w *writer) structuredHandle(s *resource.StructuredResourceHandle) {
	w.open('{')
	w.key("vendorClassParameters") // structs: omitempty does not apply
	w.rawExtension(&s.VendorClassParameters)
	w.key("vendorClaimParameters")
	w.rawExtension(&s.VendorClaimParameters)
	w.strField("nodeName", s.NodeName)
	w.key("results") // no omitempty: a nil list is null
	if s.Results == nil {
		w.null()
	} else {
		w.open('[')
		for i := range s.Results {
			w.elem()
			w.driverResult(&s.Results[i])
		}
		w.close(']')
	}
	w.close('}')
}

// driverResult writes a DriverAllocationResult, with its inlined
// AllocationResultModel.
func (w *writer) driverResult(r *resource.DriverAllocationResult) {
	w.open('{')
	w.key("vendorRequestParameters")
	w.rawExtension(&r.VendorRequestParameters)
	if n := r.NamedResources; n != nil {
		w.key("namedResources")
		w.open('{')
		w.strField("name", n.Name)
		w.close('}')
	}
	w.close('}')
}

func (w *writer) slice(s *Slice) {
	if s == nil {
		w.null()
		return
	}
	w.open('{')
	w.key("v")
	w.int(int64(s.V))
	if p := s.Pool; p != nil {
		w.key("pool")
		w.open('{')
		w.strField("name", p.Name)
		w.intField("generation", p.Generation)
		w.intField("resourceSliceCount", p.ResourceSliceCount)
		w.close('}')
	}
	if s.NodeSelector != nil {
		w.key("nodeSelector")
		w.nodeSelector(s.NodeSelector)
	}
	w.boolField("allNodes", s.AllNodes)
	w.boolField("noResourceModel", s.NoResourceModel)
	if len(s.Devices) > 0 {
		w.key("devices")
		w.open('[')
		for i := range s.Devices {
			w.elem()
			w.device(&s.Devices[i])
		}
		w.close(']')
	}
	w.close('}')
}

func (w *writer) nodeSelector(s *corev1.NodeSelector) {
	w.open('{')
	w.key("nodeSelectorTerms") // no omitempty: a nil list is null
	if s.NodeSelectorTerms == nil {
		w.null()
	} else {
		w.open('[')
		for i := range s.NodeSelectorTerms {
			t := &s.NodeSelectorTerms[i]
			w.elem()
			w.open('{')
			if len(t.MatchExpressions) > 0 {
				w.key("matchExpressions")
				w.nodeSelectorRequirements(t.MatchExpressions)
			}
			if len(t.MatchFields) > 0 {
				w.key("matchFields")
				w.nodeSelectorRequirements(t.MatchFields)
			}
			w.close('}')
		}
		w.close(']')
	}
	w.close('}')
}

// nodeSelectorRequirements writes a list that omitempty leaves out when
// empty.
func (w *writer) nodeSelectorRequirements(l []corev1.NodeSelectorRequirement) {
	w.open('[')
	for i := range l {
		r := &l[i]
		w.elem()
		w.open('{')
		w.key("key") // key and operator have no omitempty
		w.str(r.Key)
		w.key("operator")
		w.str(string(r.Operator))
		w.stringsField("values", r.Values)
		w.close('}')
	}
	w.close(']')
}

func (w *writer) device(d *Device) {
	w.open('{')
	w.key("index") // index and name have no omitempty
	w.int(int64(d.Index))
	w.key("name")
	w.str(d.Name)
	w.boolField("basicMissing", d.BasicMissing)
	if d.Attributes != nil { // a pointer: only nil is left out
		w.key("attributes")
		if attrs := *d.Attributes; attrs == nil {
			w.null()
		} else {
			w.open('[')
			for i := range attrs {
				w.elem()
				w.attribute(&attrs[i])
			}
			w.close(']')
		}
	}
	w.close('}')
}

func (w *writer) attribute(a *resource.DeviceAttribute) {
	w.open('{')
	w.strField("name", string(a.Name))
	if a.IntValue != nil {
		w.key("int")
		w.int(*a.IntValue)
	}
	if a.BoolValue != nil {
		w.key("bool")
		w.boolean(*a.BoolValue)
	}
	w.optionalStrField("string", a.StringValue)
	w.optionalStrField("version", a.VersionValue)
	if a.QuantityValue != nil {
		w.key("quantity")
		w.quantity(a.QuantityValue)
	}
	if s := a.IntSliceValue; s != nil {
		w.key("intSlice")
		w.open('{')
		w.key("ints") // no omitempty: a nil list is null
		if s.Ints == nil {
			w.null()
		} else {
			w.open('[')
			for _, v := range s.Ints {
				w.elem()
				w.int(v)
			}
			w.close(']')
		}
		w.close('}')
	}
	if s := a.StringSliceValue; s != nil {
		w.key("stringSlice")
		w.open('{')
		w.key("strings") // no omitempty: a nil list is null
		w.strings(s.Strings)
		w.close('}')
	}
	w.close('}')
}
