package stash

import (
	"fmt"
	"reflect"

	jsoniter "github.com/json-iterator/go"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/quantityguard"
)

// The decoders below read what converting a stashed object back reads most
// (requests, constraints, config, allocation results, device attributes)
// member by member with reader: about three times faster than a
// reflection-based decoder and with a fraction of its allocations, which is
// what keeps reading a stash within a few deep copies of the object (see
// conversion's BenchmarkConversion). Every other member, a field that a hub
// type gains among them, is read by its JSON name through a strict
// json-iterator configuration (byName, viaCodec), so that a new field needs
// no code here.
//
// They follow the json tags of the types exactly: field names are case
// sensitive, an unknown field is an error, null leaves a field at its zero
// value and an empty array gives an empty, non-nil slice. Payloads are
// written with json-iterator (codec, in stash.go). TestWriteReadRoundTrip
// fills every field of every payload at random, writes and reads it, and
// fails when one does not come back.
//
// Each decoder is a switch over member names inside fields (an object) or
// list (an array), with byName as its default.

// decodePayload decodes value into payload with the hand-written decoders.
func decodePayload(value string, payload Payload) error {
	r := &reader{s: value}
	switch p := payload.(type) {
	case *Class:
		r.class(p)
	case *Claim:
		r.claim(p)
	case *Slice:
		r.slice(p)
	default:
		// Payload's method is unexported, so every payload type is one of
		// the above; a new one must get a decoder here, not fall back.
		return fmt.Errorf("no decoder for stash payload %T", payload)
	}
	r.end()
	return r.err
}

// fields reads an object, calling field with each member's name to read its
// value. It returns false, having read null, for null (and on errors).
func (r *reader) fields(field func(key string)) bool {
	if !r.object() {
		return false
	}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return true
		}
		field(key)
	}
}

// list reads an array, each element with elem into a new zero element:
// null is nil, [] an empty list that is not nil.
func list[T any](r *reader, elem func(*reader, *T)) []T {
	if !r.array() {
		return nil
	}
	out := []T{}
	for first := true; r.elem(first); first = false {
		var zero T
		out = append(out, zero)
		elem(r, &out[len(out)-1])
	}
	return out
}

// optional reads a value with read into a new T; null is nil.
func optional[T any](r *reader, read func(*reader, *T)) *T {
	if r.null() {
		return nil
	}
	out := new(T)
	read(r, out)
	return out
}

// optionalList reads a list as list does, behind a pointer: null is nil.
func optionalList[T any](r *reader, elem func(*reader, *T)) *[]T {
	if r.null() {
		return nil
	}
	l := list(r, elem)
	if l == nil {
		return nil // an error
	}
	return &l
}

func (r *reader) class(out *Class) {
	r.fields(func(key string) {
		switch key {
		case "v":
			out.V = r.int()
		case "selectors":
			out.Selectors = list(r, (*reader).deviceSelector)
		case "config":
			out.Config = list(r, func(r *reader, c *resource.DeviceClassConfiguration) {
				r.configElement(&c.DeviceConfiguration, nil, nil)
			})
		default:
			r.byName(out, key)
		}
	})
}

func (r *reader) claim(out *Claim) {
	r.fields(func(key string) {
		switch key {
		case "v":
			out.V = r.int()
		case "spec":
			out.Spec = optional(r, (*reader).claimSpec)
		case "status":
			out.Status = optional(r, (*reader).claimStatus)
		case "lost":
			out.Lost = r.lost()
		default:
			r.unknown(key)
		}
	})
}

func (r *reader) claimSpec(out *ClaimSpec) {
	r.fields(func(key string) {
		switch key {
		case "requests":
			out.Requests = optionalList(r, (*reader).deviceRequest)
		case "constraints":
			out.Constraints = list(r, (*reader).deviceConstraint)
		case "config":
			out.Config = list(r, func(r *reader, c *resource.DeviceClaimConfiguration) {
				r.configElement(&c.DeviceConfiguration, &c.Requests, nil)
			})
		default:
			r.byName(out, key)
		}
	})
}

func (r *reader) deviceRequest(out *resource.DeviceRequest) {
	r.fields(func(key string) {
		switch key {
		case "name":
			out.Name = r.str()
		case "exactly":
			out.Exactly = optional(r, (*reader).exactRequest)
		case "firstAvailable":
			out.FirstAvailable = list(r, (*reader).subRequest)
		default:
			r.byName(out, key)
		}
	})
}

func (r *reader) exactRequest(out *resource.ExactDeviceRequest) {
	r.fields(func(key string) {
		switch key {
		case "deviceClassName":
			out.DeviceClassName = r.str()
		case "selectors":
			out.Selectors = list(r, (*reader).deviceSelector)
		case "allocationMode":
			out.AllocationMode = resource.DeviceAllocationMode(r.str())
		case "count":
			out.Count = r.int64()
		case "adminAccess":
			out.AdminAccess = r.optionalBool()
		case "tolerations":
			out.Tolerations = list(r, (*reader).toleration)
		case "capacity":
			out.Capacity = optional(r, (*reader).capacityRequirements)
		default:
			r.byName(out, key)
		}
	})
}

func (r *reader) subRequest(out *resource.DeviceSubRequest) {
	r.fields(func(key string) {
		switch key {
		case "name":
			out.Name = r.str()
		case "deviceClassName":
			out.DeviceClassName = r.str()
		case "selectors":
			out.Selectors = list(r, (*reader).deviceSelector)
		case "allocationMode":
			out.AllocationMode = resource.DeviceAllocationMode(r.str())
		case "count":
			out.Count = r.int64()
		case "tolerations":
			out.Tolerations = list(r, (*reader).toleration)
		case "capacity":
			out.Capacity = optional(r, (*reader).capacityRequirements)
		default:
			r.byName(out, key)
		}
	})
}

func (r *reader) toleration(out *resource.DeviceToleration) {
	r.fields(func(key string) {
		switch key {
		case "key":
			out.Key = r.str()
		case "operator":
			out.Operator = resource.DeviceTolerationOperator(r.str())
		case "value":
			out.Value = r.str()
		case "effect":
			out.Effect = resource.DeviceTaintEffect(r.str())
		default:
			r.byName(out, key)
		}
	})
}

func (r *reader) capacityRequirements(out *resource.CapacityRequirements) {
	r.fields(func(key string) {
		switch key {
		case "requests":
			out.Requests = r.quantities()
		default:
			r.byName(out, key)
		}
	})
}

// quantities reads a map of quantities keyed by qualified names.
func (r *reader) quantities() map[resource.QualifiedName]apiresource.Quantity {
	var out map[resource.QualifiedName]apiresource.Quantity
	if r.fields(func(key string) {
		if out == nil {
			out = map[resource.QualifiedName]apiresource.Quantity{}
		}
		out[resource.QualifiedName(key)] = r.quantity()
	}) && out == nil {
		out = map[resource.QualifiedName]apiresource.Quantity{} // {}
	}
	return out
}

func (r *reader) deviceConstraint(out *resource.DeviceConstraint) {
	r.fields(func(key string) {
		switch key {
		case "requests":
			out.Requests = r.strings()
		case "matchAttribute":
			out.MatchAttribute = optional(r, func(r *reader, name *resource.FullyQualifiedName) {
				*name = resource.FullyQualifiedName(r.str())
			})
		default:
			r.byName(out, key)
		}
	})
}

func (r *reader) deviceSelector(out *resource.DeviceSelector) {
	r.fields(func(key string) {
		switch key {
		case "cel":
			out.CEL = optional(r, func(r *reader, cel *resource.CELDeviceSelector) {
				r.fields(func(key string) {
					switch key {
					case "expression":
						cel.Expression = r.str()
					default:
						r.byName(cel, key)
					}
				})
			})
		default:
			r.byName(out, key)
		}
	})
}

// configElement reads one element of a config list: the inlined
// DeviceConfiguration, with "requests" (into requests) and "source" (into
// source) where the element type has them; nil means it does not.
func (r *reader) configElement(out *resource.DeviceConfiguration, requests *[]string, source *resource.AllocationConfigSource) {
	r.fields(func(key string) {
		switch {
		case key == "opaque":
			out.Opaque = optional(r, func(r *reader, o *resource.OpaqueDeviceConfiguration) {
				r.fields(func(key string) {
					switch key {
					case "driver":
						o.Driver = r.str()
					case "parameters":
						r.rawExtension(&o.Parameters)
					default:
						r.byName(o, key)
					}
				})
			})
		case key == "requests" && requests != nil:
			*requests = r.strings()
		case key == "source" && source != nil:
			*source = resource.AllocationConfigSource(r.str())
		default:
			r.byName(out, key)
		}
	})
}

func (r *reader) claimStatus(out *ClaimStatus) {
	r.fields(func(key string) {
		switch key {
		case "allocation":
			out.Allocation = optional(r, (*reader).allocation)
		default:
			r.byName(out, key)
		}
	})
}

func (r *reader) allocation(out *Allocation) {
	r.fields(func(key string) {
		switch key {
		case "devices":
			out.Devices = optional(r, (*reader).deviceAllocationResult)
		case "allocationTimestamp":
			out.AllocationTimestamp = r.optionalTime()
		case "derivedHandles":
			out.DerivedHandles = r.int()
		default:
			r.byName(out, key)
		}
	})
}

// lost reads a claim payload's lost fields by path: each path must lead to
// a struct of a claim, whose fields are read by name.
func (r *reader) lost() Lost {
	var out Lost
	if r.fields(func(path string) {
		typ := lostType(claimType, path)
		if typ == nil {
			r.fail("lost: a claim has no struct at %q", path)
			return
		}
		v := reflect.New(typ)
		r.fields(func(key string) { r.byName(v.Interface(), key) })
		if out == nil {
			out = Lost{}
		}
		out[path] = v.Interface()
	}) && out == nil {
		out = Lost{} // {}
	}
	return out
}

func (r *reader) deviceAllocationResult(out *resource.DeviceAllocationResult) {
	r.fields(func(key string) {
		switch key {
		case "results":
			out.Results = list(r, (*reader).deviceResult)
		case "config":
			out.Config = list(r, func(r *reader, c *resource.DeviceAllocationConfiguration) {
				r.configElement(&c.DeviceConfiguration, &c.Requests, &c.Source)
			})
		default:
			r.byName(out, key)
		}
	})
}

func (r *reader) deviceResult(out *resource.DeviceRequestAllocationResult) {
	r.fields(func(key string) {
		switch key {
		case "request":
			out.Request = r.str()
		case "driver":
			out.Driver = r.str()
		case "pool":
			out.Pool = r.str()
		case "device":
			out.Device = r.str()
		case "adminAccess":
			out.AdminAccess = r.optionalBool()
		case "tolerations":
			out.Tolerations = list(r, (*reader).toleration)
		case "shareID":
			out.ShareID = optional(r, func(r *reader, id *types.UID) { *id = types.UID(r.str()) })
		case "consumedCapacity":
			out.ConsumedCapacity = r.quantities()
		default:
			r.byName(out, key)
		}
	})
}

func (r *reader) slice(out *Slice) {
	r.fields(func(key string) {
		switch key {
		case "v":
			out.V = r.int()
		case "devices":
			out.Devices = list(r, (*reader).device)
		default:
			r.byName(out, key)
		}
	})
}

func (r *reader) device(out *Device) {
	r.fields(func(key string) {
		switch key {
		case "index":
			out.Index = r.int()
		case "name":
			out.Name = r.str()
		case "attributes":
			out.Attributes = nil
			if r.fields(func(key string) {
				if out.Attributes == nil {
					out.Attributes = map[resource.QualifiedName]Attribute{}
				}
				var a Attribute
				r.attribute(&a)
				out.Attributes[resource.QualifiedName(key)] = a
			}) && out.Attributes == nil {
				out.Attributes = map[resource.QualifiedName]Attribute{} // {}
			}
		case "namedResources":
			out.NamedResources = optional(r, func(r *reader, l *resource.NamedResourcesLayout) {
				name := func(r *reader, n *resource.QualifiedName) { *n = resource.QualifiedName(r.str()) }
				r.fields(func(key string) {
					switch key {
					case "order":
						l.Order = list(r, name)
					case "nullLists":
						l.NullLists = list(r, name)
					default:
						r.byName(l, key)
					}
				})
			})
		default:
			r.byName(out, key)
		}
	})
}

func (r *reader) attribute(out *Attribute) {
	r.fields(func(key string) {
		switch key {
		case "int":
			out.IntValue = r.optionalInt64()
		case "bool":
			out.BoolValue = r.optionalBool()
		case "string":
			out.StringValue = r.optionalString()
		case "version":
			out.VersionValue = r.optionalString()
		case "ints":
			out.IntValues = optionalList(r, func(r *reader, v *int64) { *v = r.int64() })
		case "strings":
			out.StringValues = optionalList(r, func(r *reader, v *string) { *v = r.str() })
		default:
			r.byName(out, key)
		}
	})
}

// quantity reads a quantity as its UnmarshalJSON does, refusing first what
// apimachinery would never finish parsing.
func (r *reader) quantity() apiresource.Quantity {
	var q apiresource.Quantity
	if raw := r.raw(); r.err == nil {
		data := []byte(raw)
		if err := quantityguard.CheckUnmarshalJSON(data); err != nil {
			r.fail("quantity: %v", err)
		} else if err := q.UnmarshalJSON(data); err != nil {
			r.fail("quantity: %v", err)
		}
	}
	return q
}

func (r *reader) optionalInt64() *int64 {
	if r.null() {
		return nil
	}
	v := r.int64()
	return &v
}

// optionalTime reads a time as metav1.Time's UnmarshalJSON does.
func (r *reader) optionalTime() *metav1.Time {
	if r.null() {
		return nil
	}
	t := &metav1.Time{}
	if raw := r.raw(); r.err == nil {
		if err := t.UnmarshalJSON([]byte(raw)); err != nil {
			r.fail("time: %v", err)
		}
	}
	return t
}

// viaCodec reads one value into out, a pointer, with strict: for what the
// hand-written decoders leave to byName, a reflection-based decoder is fast
// enough. Its quantities are checked first, as everywhere else.
func (r *reader) viaCodec(out any) {
	if r.peek() == 0 {
		r.unexpected("a value")
		return
	}
	start := r.i
	raw := r.raw()
	if r.err != nil {
		return
	}
	if err := quantityguard.CheckJSON([]byte(raw), reflect.TypeOf(out)); err != nil {
		r.i = start
		r.fail("%v", err)
		return
	}
	if err := strict.UnmarshalFromString(raw, out); err != nil {
		r.i = start
		r.fail("%v", err)
	}
}

// strict reads what viaCodec reads: like codec, but field names are case
// sensitive and unknown fields are an error, as in the hand-written
// decoders.
var strict = jsoniter.Config{
	EscapeHTML:             false,
	SortMapKeys:            true,
	ValidateJsonRawMessage: true,
	DisallowUnknownFields:  true,
	CaseSensitive:          true,
}.Froze()

func (r *reader) strings() []string {
	return list(r, func(r *reader, s *string) { *s = r.str() })
}

func (r *reader) optionalBool() *bool {
	if r.null() {
		return nil
	}
	v := r.boolean()
	return &v
}

func (r *reader) optionalString() *string {
	if r.null() {
		return nil
	}
	v := r.str()
	return &v
}

// rawExtension reads a value into a RawExtension as its UnmarshalJSON
// does: null leaves it empty, anything else is kept as it is written.
func (r *reader) rawExtension(out *runtime.RawExtension) {
	if r.null() {
		return
	}
	if raw := r.raw(); r.err == nil {
		out.Raw = []byte(raw)
	}
}
