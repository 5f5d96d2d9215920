// Package stash defines what conversion keeps in the StashAnnotation of a
// converted object, and reads and writes it. Each type holds the hub values
// that the target version cannot show, and nothing that can be derived from
// the target's own fields, and nothing that the defaults of the version the
// value comes from would fill in again. A pointer or a non-empty value means
// "present". What a version cannot say at all is derived from the types
// (LostFields, fields.go) and kept in an embedded hub value; the conversion
// functions of each version decide the rest. Write refuses a stash that
// would take the object's annotations past the API server's limit.
package stash

import (
	"encoding/json"
	"fmt"
	"strings"

	jsoniter "github.com/json-iterator/go"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/apis/resource"
)

// FormatVersion is the value of "v" in every payload this drakit writes.
const FormatVersion = 1

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

// Claim is the stash of a ResourceClaim or ResourceClaimTemplate.
type Claim struct {
	V      int          `json:"v"`
	Spec   *ClaimSpec   `json:"spec,omitempty"`
	Status *ClaimStatus `json:"status,omitempty"`
}

// ClaimSpec holds claim spec values the target cannot show.
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
	Constraints   []resource.DeviceConstraint                `json:"constraints,omitempty"`
	Config        []resource.DeviceClaimConfiguration        `json:"config,omitempty"`
	Controller    string                                     `json:"controller,omitempty"`
	ParametersRef *resource.ResourceClaimParametersReference `json:"parametersRef,omitempty"`
	// AllocationMode is the legacy allocation mode, when it is not
	// WaitForFirstConsumer, which v1alpha1/v1alpha2 default it to.
	AllocationMode resource.AllocationMode `json:"allocationMode,omitempty"`
	// EmptyExactly names, in request order, the requests whose exactly
	// was set with nothing in it, which v1beta1's flat request cannot
	// show (v1beta1 only).
	EmptyExactly []string `json:"emptyExactly,omitempty"`
}

// IsZero reports whether nothing needs to be kept.
func (s *ClaimSpec) IsZero() bool {
	return s.Requests == nil && s.UndefaultedExactly == nil && s.Constraints == nil && s.Config == nil && s.Controller == "" &&
		s.ParametersRef == nil && s.AllocationMode == "" && s.EmptyExactly == nil
}

// ClaimStatus holds claim status values the target cannot show.
type ClaimStatus struct {
	DriverName string      `json:"driverName,omitempty"`
	Allocation *Allocation `json:"allocation,omitempty"`
	// DeallocationRequested is the legacy flag for the targets that lack it
	// (the v1-era versions).
	DeallocationRequested bool `json:"deallocationRequested,omitempty"`
	// Devices is v1's status.devices for the targets that lack it.
	Devices *[]resource.AllocatedDeviceStatus `json:"devices,omitempty"`
}

// Allocation holds allocation values the target cannot show.
type Allocation struct {
	Devices    *resource.DeviceAllocationResult `json:"devices,omitempty"`
	Controller string                           `json:"controller,omitempty"`
	// ResourceHandles replaces the handles derived from the target. In
	// v1alpha1 the first handle's data is left out: it is resourceHandle.
	ResourceHandles *[]resource.ResourceHandle `json:"resourceHandles,omitempty"`
	Shareable       bool                       `json:"shareable,omitempty"`
	// AllocationTimestamp is v1's allocationTimestamp for the targets that
	// lack it.
	AllocationTimestamp *metav1.Time `json:"allocationTimestamp,omitempty"`
	// DerivedHandles is how many handles at the end of the target's
	// resourceHandles (v1alpha2), or whether its resourceHandle (v1alpha1,
	// then 1), were rendered from Devices rather than kept from the hub.
	DerivedHandles int `json:"derivedHandles,omitempty"`
	// DerivedResults says that the target's allocation.devices.results
	// (v1alpha3) were rendered from structured ResourceHandles.
	DerivedResults bool `json:"derivedResults,omitempty"`
}

// IsZero reports whether nothing needs to be kept.
func (a *Allocation) IsZero() bool {
	return a.Devices == nil && a.Controller == "" && a.ResourceHandles == nil && !a.Shareable &&
		a.AllocationTimestamp == nil && a.DerivedHandles == 0 && !a.DerivedResults
}

// IsZero reports whether nothing needs to be kept.
func (s *ClaimStatus) IsZero() bool {
	return s.DriverName == "" && s.Allocation == nil && !s.DeallocationRequested && s.Devices == nil
}

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
var codec = jsoniter.Config{
	EscapeHTML:             false,
	SortMapKeys:            true,
	ValidateJsonRawMessage: true,
}.Froze()

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
	data, err := codec.MarshalToString(payload)
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
	annotations := make(map[string]string, len(meta.Annotations)-1)
	for k, v := range meta.Annotations {
		if k != resource.StashAnnotation {
			annotations[k] = v
		}
	}
	if len(annotations) == 0 {
		annotations = nil
	}
	meta.Annotations = annotations
	payload := P(new(T))
	if err := decode(value, payload); err != nil {
		return nil, &resource.MalformedStashError{Kind: kind, Namespace: meta.Namespace, Name: meta.Name, Err: err}
	}
	return payload, nil
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
	if err == nil && payload.formatVersion() == FormatVersion {
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
	case *head.V != FormatVersion:
		return fmt.Errorf("format version %d is not %d: written by another drakit release", *head.V, FormatVersion)
	}
	dec := json.NewDecoder(strings.NewReader(value))
	dec.DisallowUnknownFields()
	if serr := dec.Decode(payload); serr != nil {
		return serr
	}
	return err
}

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
