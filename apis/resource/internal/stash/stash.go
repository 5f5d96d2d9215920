// Package stash defines what conversion keeps in the StashAnnotation of a
// converted object, and reads and writes it. Each type holds the hub values
// that the target version cannot show, and nothing that can be derived from
// the target's own fields, and nothing that the defaults of the version the
// value comes from would fill in again. A pointer or a non-empty value means
// "present". What a version cannot say at all is derived from the types
// (LostFields, fields.go) and kept in an embedded hub value; in a claim, at
// every depth (Tree, tree.go): the spec's, status' and allocation's lost
// fields in the hub structs the payloads embed, lists kept whole where any
// item says more than the version can, and the lost fields of any other
// nested struct by field path (Claim.Lost, format 2). The conversion
// functions of each version decide the rest: what a version shows in a
// way of its own. Write refuses a stash that would take the object's
// annotations past the API server's limit.
package stash

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	jsoniter "github.com/json-iterator/go"
	"github.com/modern-go/reflect2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/apis/resource"
)

// FormatVersion is the value of "v" in the payloads this drakit writes,
// but for a claim payload with lost fields by path (Claim.Lost), which is
// FormatVersionLost. Format 2 is format 1 with that member: a reader of
// format 2 reads format 1, and a drakit that knows only format 1 refuses a
// format 2 payload as written by another drakit release, rather than
// losing what it cannot read.
const (
	FormatVersion     = 1
	FormatVersionLost = 2
)

// Class is the stash of a DeviceClass (ResourceClass in v1alpha1/v1alpha2):
// the class spec's fields the target cannot say (see LostFields), and, for
// v1alpha1/v1alpha2, the selectors after the driver's, which driverName
// shows.
type Class struct {
	V int `json:"v"`
	// The kept fields of the class spec, each under its own name.
	resource.DeviceClassSpec
}

// MarshalJSON writes the kept fields that are set (see fields.go).
func (c *Class) MarshalJSON() ([]byte, error) { return marshalKept(c) }

// Claim is the stash of a ResourceClaim or ResourceClaimTemplate: what
// the target cannot say of the claim's spec and status, the structs a
// claim spec and status nest included.
type Claim struct {
	V      int          `json:"v"`
	Spec   *ClaimSpec   `json:"spec,omitempty"`
	Status *ClaimStatus `json:"status,omitempty"`
	// Lost holds, by field path, what the target cannot say of the structs
	// nested in the spec and status that the payloads below do not keep
	// (see Tree): a field that a hub type gains where no version's code
	// keeps the struct whole. A payload with it is format 2 (V is
	// FormatVersionLost), so that a drakit that would not understand it
	// says so.
	Lost Lost `json:"lost,omitempty"`
}

// SetLost adds lost to the payload, making it format 2 when there is any.
func (c *Claim) SetLost(lost Lost) {
	if len(lost) > 0 {
		c.Lost, c.V = lost, FormatVersionLost
	}
}

// ClaimSpec holds claim spec values the target cannot show: the spec's
// fields the target lacks (see LostFields, LostAt), and what the target
// shows in a way of its own (requests, constraints and config, each whole).
type ClaimSpec struct {
	// Requests replaces the requests the target shows: the single request
	// derived from resourceClassName (v1alpha1/v1alpha2), whose first
	// exactly.deviceClassName is left out, being the target's
	// resourceClassName; or v1alpha3's flat requests. Left out too are the
	// allocation mode and count that the defaults give back (ExactCount, and
	// a count of one for ExactCount) and a toleration's operator Equal,
	// except where UndefaultedExactly says otherwise.
	Requests *[]resource.DeviceRequest `json:"requests,omitempty"`
	// UndefaultedExactly lists, in increasing order, the positions in
	// Requests of the requests whose exactly, which has no class, keeps its
	// allocation mode and count as they are, without the defaults: as
	// v1beta1's defaulting leaves a request without a class (no mode, or
	// ExactCount without a count).
	UndefaultedExactly []int `json:"undefaultedExactly,omitempty"`
	// Constraints replaces the constraints the target shows, if any.
	Constraints []resource.DeviceConstraint         `json:"constraints,omitempty"`
	Config      []resource.DeviceClaimConfiguration `json:"config,omitempty"`
	// The kept fields of the spec, each under its own name (the legacy
	// controller, parametersRef, and allocationMode when it is not
	// WaitForFirstConsumer, which v1alpha1/v1alpha2 default it to).
	resource.ResourceClaimSpec
	// EmptyExactly names, in request order, the requests whose exactly
	// shows nothing in the target's flat request (v1beta1 only): set with
	// nothing in it, or with only what the target cannot say.
	EmptyExactly []string `json:"emptyExactly,omitempty"`
}

// MarshalJSON writes the kept fields that are set (see fields.go).
func (s *ClaimSpec) MarshalJSON() ([]byte, error) { return marshalKept(s) }

// IsZero reports whether nothing needs to be kept.
func (s *ClaimSpec) IsZero() bool {
	return s.Requests == nil && s.UndefaultedExactly == nil && s.Constraints == nil && s.Config == nil &&
		s.EmptyExactly == nil && !claimSpecFields.AnySet(&s.ResourceClaimSpec)
}

// ClaimStatus holds claim status values the target cannot show: the
// status fields the target lacks, and the allocation's.
type ClaimStatus struct {
	Allocation *Allocation `json:"allocation,omitempty"`
	// The kept fields of the status, each under its own name; format 1
	// wrote these four first, in this order.
	resource.ResourceClaimStatus `stash:"driverName,allocation,deallocationRequested,devices"`
}

// MarshalJSON writes the kept fields that are set (see fields.go).
func (s *ClaimStatus) MarshalJSON() ([]byte, error) { return marshalKept(s) }

// Allocation holds allocation values the target cannot show.
type Allocation struct {
	// Devices replaces the device allocation the target shows (the results
	// whole where any of them says more than the target can).
	Devices *resource.DeviceAllocationResult `json:"devices,omitempty"`
	// The kept fields of the allocation, each under its own name; format 1
	// wrote these first, in this order. ResourceHandles replaces the
	// handles derived from the target: in v1alpha1 the first handle's data
	// is left out, being resourceHandle.
	resource.AllocationResult `stash:"devices,controller,resourceHandles,shareable,allocationTimestamp"`
	// DerivedHandles is how many handles at the end of the target's
	// resourceHandles (v1alpha2), or whether its resourceHandle (v1alpha1,
	// then 1), were rendered from Devices rather than kept from the hub.
	DerivedHandles int `json:"derivedHandles,omitempty"`
	// DerivedResults says that the target's allocation.devices.results
	// (v1alpha3) were rendered from structured ResourceHandles.
	DerivedResults bool `json:"derivedResults,omitempty"`
}

// MarshalJSON writes the kept fields that are set (see fields.go).
func (a *Allocation) MarshalJSON() ([]byte, error) { return marshalKept(a) }

// IsZero reports whether nothing needs to be kept.
func (a *Allocation) IsZero() bool {
	return a.Devices == nil && a.DerivedHandles == 0 && !a.DerivedResults && !allocationFields.AnySet(&a.AllocationResult)
}

// IsZero reports whether nothing needs to be kept.
func (s *ClaimStatus) IsZero() bool {
	return s.Allocation == nil && !claimStatusFields.AnySet(&s.ResourceClaimStatus)
}

// The fields of the hub values the claim payloads keep (all but those a
// field of the payload's own hides, which no conversion sets).
var (
	claimSpecFields   = AllFields[resource.ResourceClaimSpec]()
	claimStatusFields = AllFields[resource.ResourceClaimStatus]("allocation")
	allocationFields  = AllFields[resource.AllocationResult]("devices")
	claimType         = reflect.TypeFor[resource.ResourceClaim]()
)

// Slice is the stash of a ResourceSlice: the fields of the slice spec the
// target cannot say (see LostFields), or cannot tell from unset (a set
// nodeName "" or allNodes false where the target has a plain string or
// bool), and what the target says of the pool, the devices and the list of
// devices in a way of its own.
type Slice struct {
	V int `json:"v"`
	// Pool is the pool where the target derives one (v1alpha2) and the
	// pool differs from it.
	Pool *resource.ResourcePool `json:"pool,omitempty"`
	// Devices holds per-device values, by position in spec.devices.
	Devices []Device `json:"devices,omitempty"`
	// EmptyDevices says that spec.devices was an empty list rather than
	// none, for the targets whose JSON leaves an empty list out (the
	// v1-era versions) while v1alpha2's instances and v1alpha3's devices
	// write [] apart from null.
	EmptyDevices bool `json:"emptyDevices,omitempty"`
	// The kept fields of the slice spec, each under its own name.
	resource.ResourceSliceSpec
}

// MarshalJSON writes the kept fields that are set (see fields.go).
func (s *Slice) MarshalJSON() ([]byte, error) { return marshalKept(s) }

// Device holds the values of one device that the target cannot say: the
// device's fields the target lacks (see LostFields), and what the target
// shows partly (attributes and capacities the target cannot show, a
// v1alpha2 layout).
type Device struct {
	// Index and Name (the kept device's) locate the device; Name guards
	// against reordering.
	Index int `json:"index"`
	// Attributes are the attributes the target cannot show (list-valued
	// ones, for the versions before them), or all of them where the target
	// shows them differently, in the stash's form.
	Attributes map[resource.QualifiedName]Attribute `json:"attributes,omitempty"`
	// The kept fields of the device, each under its own name: its name,
	// the fields the target lacks, capacities in full that the target
	// shows only partly, the legacy v1alpha2 layout.
	resource.Device
}

// MarshalJSON writes the kept fields that are set (see fields.go).
func (d *Device) MarshalJSON() ([]byte, error) { return marshalKept(d) }

// Attribute is a hub DeviceAttribute as a stash keeps it: under the hub's
// JSON names, with each list behind a pointer, so that a list the hub holds
// empty is written as [] where the hub's own JSON would leave it out (a
// v1alpha2 intSlice or stringSlice may be empty, or null; see
// resource.NamedResourcesLayout). A nil pointer is a nil list.
type Attribute struct {
	IntValue      *int64    `json:"int,omitempty"`
	BoolValue     *bool     `json:"bool,omitempty"`
	StringValue   *string   `json:"string,omitempty"`
	VersionValue  *string   `json:"version,omitempty"`
	IntValues     *[]int64  `json:"ints,omitempty"`
	BoolValues    *[]bool   `json:"bools,omitempty"`
	StringValues  *[]string `json:"strings,omitempty"`
	VersionValues *[]string `json:"versions,omitempty"`
}

// AttributeOf is a in the stash's form; it shares a's lists.
func AttributeOf(a *resource.DeviceAttribute) Attribute {
	out := Attribute{IntValue: a.IntValue, BoolValue: a.BoolValue, StringValue: a.StringValue, VersionValue: a.VersionValue}
	if a.IntValues != nil {
		out.IntValues = &a.IntValues
	}
	if a.BoolValues != nil {
		out.BoolValues = &a.BoolValues
	}
	if a.StringValues != nil {
		out.StringValues = &a.StringValues
	}
	if a.VersionValues != nil {
		out.VersionValues = &a.VersionValues
	}
	return out
}

// Hub is the hub attribute a stash attribute keeps; it shares its lists.
func (a *Attribute) Hub() resource.DeviceAttribute {
	out := resource.DeviceAttribute{IntValue: a.IntValue, BoolValue: a.BoolValue, StringValue: a.StringValue, VersionValue: a.VersionValue}
	if a.IntValues != nil {
		out.IntValues = *a.IntValues
	}
	if a.BoolValues != nil {
		out.BoolValues = *a.BoolValues
	}
	if a.StringValues != nil {
		out.StringValues = *a.StringValues
	}
	if a.VersionValues != nil {
		out.VersionValues = *a.VersionValues
	}
	return out
}

// codec writes every payload: json-iterator, which is already part of every
// program that uses apimachinery (structured-merge-diff builds on it),
// configured as its ConfigCompatibleWithStandardLibrary is but without HTML
// escaping, so that CEL expressions keep their "<" and "&&" readable. Map
// keys are sorted, so that the same payload is always the same text. The
// payloads with a kept hub value write it themselves (marshalKept). Payloads
// are read by the decoders of decode.go; TestWriteReadRoundTrip holds the two
// together.
var codec = func() jsoniter.API {
	c := codecConfig.Froze()
	c.RegisterExtension(&mapLenExtension{})
	return c
}()

// codecConfig is the codec's configuration, without its extension.
var codecConfig = jsoniter.Config{
	EscapeHTML:             false,
	SortMapKeys:            true,
	ValidateJsonRawMessage: true,
}

// mapLenExtension gives the codec's map encoders an IsEmpty that asks the
// map's length. json-iterator's own ranges over the map to find out, which
// allocates an iterator (216 bytes in two allocations) for every omitempty
// map field of every struct it writes, set or not: a claim's kept results,
// say, each with its consumedCapacity. The text is the same.
type mapLenExtension struct{ jsoniter.DummyExtension }

func (*mapLenExtension) DecorateEncoder(typ reflect2.Type, enc jsoniter.ValEncoder) jsoniter.ValEncoder {
	if typ.Kind() != reflect.Map {
		return enc
	}
	return mapLenEncoder{enc, typ.Type1()}
}

type mapLenEncoder struct {
	jsoniter.ValEncoder
	typ reflect.Type
}

func (e mapLenEncoder) IsEmpty(p unsafe.Pointer) bool {
	return reflect.NewAt(e.typ, p).Elem().Len() == 0
}

// Encode returns v as a stash writes its values. legacy.HandleFromDevices
// writes a v1alpha1 resourceHandle with it.
func Encode(v any) (string, error) {
	return codec.MarshalToString(v)
}

// Write stores payload in the annotations of meta, the metadata of an
// object of the given kind (named in errors). It copies the map first:
// converted objects share memory with their input, which must not change.
//
// It refuses, with a *resource.StashTooLargeError, a stash that would take
// the object's annotations past resource.TotalAnnotationSizeLimit, counted
// as the API server counts it: the server would refuse the object.
func Write(meta *metav1.ObjectMeta, kind string, payload Payload) error {
	data, err := encodePayload(payload)
	if err != nil {
		return fmt.Errorf("%s %q: writing annotation %s: %w", kind, objectName(meta), resource.StashAnnotation, err)
	}
	total := len(resource.StashAnnotation) + len(data)
	annotations := make(map[string]string, len(meta.Annotations)+1)
	for k, v := range meta.Annotations {
		if k != resource.StashAnnotation {
			total += len(k) + len(v)
			annotations[k] = v
		}
	}
	if total > resource.TotalAnnotationSizeLimit {
		return &resource.StashTooLargeError{Kind: kind, Namespace: meta.Namespace, Name: meta.Name,
			StashSize: len(data), TotalSize: total, Limit: resource.TotalAnnotationSizeLimit}
	}
	annotations[resource.StashAnnotation] = data
	meta.Annotations = annotations
	return nil
}

func objectName(meta *metav1.ObjectMeta) string {
	if meta.Namespace != "" {
		return meta.Namespace + "/" + meta.Name
	}
	return meta.Name
}

// Take removes the stash from meta (copying the map) and decodes it. It
// returns nil when there is none; the payload is allocated only when there
// is one, which keeps converting an object without a stash cheap. kind
// names the object in errors.
func Take[T any, P interface {
	*T
	Payload
}](meta *metav1.ObjectMeta, kind string) (P, error) {
	value, ok := meta.Annotations[resource.StashAnnotation]
	if !ok {
		return nil, nil
	}
	var annotations map[string]string // none left: nil, as when none were written
	if len(meta.Annotations) > 1 {
		annotations = make(map[string]string, len(meta.Annotations)-1)
		for k, v := range meta.Annotations {
			if k != resource.StashAnnotation {
				annotations[k] = v
			}
		}
	}
	meta.Annotations = annotations
	payload := P(new(T))
	if err := decode(value, payload); err != nil {
		return nil, &resource.MalformedStashError{Kind: kind, Namespace: meta.Namespace, Name: meta.Name, Err: err}
	}
	return payload, nil
}

// encodePayload writes payload as the codec writes it, in one stream: the
// payloads with a kept hub value, at any depth, are written by writeKept
// straight into it, not through their MarshalJSON's copies.
func encodePayload(payload Payload) (string, error) {
	s := codec.BorrowStream(nil)
	defer codec.ReturnStream(s)
	switch p := payload.(type) {
	case *Claim:
		p.writeTo(s)
	default:
		writePayload(s, payload)
	}
	if s.Error != nil {
		return "", s.Error
	}
	return string(s.Buffer()), nil
}

// The layouts of the claim's payloads, resolved once.
var (
	claimSpecLayout   = layoutOf(reflect.TypeFor[ClaimSpec]())
	claimStatusLayout = layoutOf(reflect.TypeFor[ClaimStatus]())
)

// writeTo writes the claim payload as the codec writes its fields.
func (c *Claim) writeTo(s *jsoniter.Stream) {
	s.WriteObjectStart()
	s.WriteObjectField("v")
	s.WriteInt(c.V)
	if c.Spec != nil {
		s.WriteMore()
		s.WriteObjectField("spec")
		writeKept(s, claimSpecLayout, unsafe.Pointer(c.Spec))
	}
	if c.Status != nil {
		s.WriteMore()
		s.WriteObjectField("status")
		writeKept(s, claimStatusLayout, unsafe.Pointer(c.Status))
	}
	if len(c.Lost) > 0 {
		s.WriteMore()
		s.WriteObjectField("lost")
		c.Lost.writeTo(s)
	}
	s.WriteObjectEnd()
}

// Payload is implemented by every stash type: it reports its "v".
type Payload interface {
	formatVersion() int
}

func (c *Class) formatVersion() int { return c.V }
func (c *Claim) formatVersion() int { return c.V }
func (s *Slice) formatVersion() int { return s.V }

// decode reads a payload strictly in one pass (decode.go); only when that
// fails does it look again, with encoding/json, to say what is wrong in
// words a user can act on.
func decode(value string, payload Payload) error {
	err := decodePayload(value, payload)
	if err == nil && knownVersion(payload.formatVersion()) {
		if c, ok := payload.(*Claim); ok && c.Lost != nil && c.V < FormatVersionLost {
			return fmt.Errorf(`member "lost" in a format %d payload: it needs format %d`, c.V, FormatVersionLost)
		}
		return nil
	}
	var head struct {
		V *int `json:"v"`
	}
	if herr := json.Unmarshal([]byte(value), &head); herr != nil {
		return fmt.Errorf("not a JSON object: %v", herr)
	}
	switch {
	case head.V == nil:
		return fmt.Errorf(`no format version ("v")`)
	case !knownVersion(*head.V):
		return fmt.Errorf("format version %d is not %d or %d: written by another drakit release", *head.V, FormatVersion, FormatVersionLost)
	}
	dec := json.NewDecoder(strings.NewReader(value))
	dec.DisallowUnknownFields()
	if serr := dec.Decode(payload); serr != nil {
		return serr
	}
	return err
}

// knownVersion reports whether this drakit reads payloads of format v.
func knownVersion(v int) bool { return v == FormatVersion || v == FormatVersionLost }

// Layout is a stashed legacy layout as the hub holds it: an empty order or
// nullLists is none, as the hub's JSON, which leaves an empty list of
// either out, writes it (a stash may say "order": [], which is no order).
func Layout(l *resource.NamedResourcesLayout) *resource.NamedResourcesLayout {
	emptyOrder := l != nil && l.Order != nil && len(l.Order) == 0
	emptyNullLists := l != nil && l.NullLists != nil && len(l.NullLists) == 0
	if !emptyOrder && !emptyNullLists {
		return l
	}
	out := *l
	if emptyOrder {
		out.Order = nil
	}
	if emptyNullLists {
		out.NullLists = nil
	}
	return &out
}
