package stash

import (
	"fmt"
	"reflect"

	jsoniter "github.com/json-iterator/go"
	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/quantityguard"
)

// The decoders below read the payload types field by field with reader:
// about three times faster than a reflection-based decoder and with a
// fraction of its allocations, which is what keeps reading a stash within
// a few deep copies of the object (see conversion's BenchmarkConversion).
//
// They follow the json tags of the types exactly: field names are case
// sensitive, an unknown field is an error, null leaves a field at its zero
// value and an empty array gives an empty, non-nil slice. Payloads are
// written with json-iterator (codec, in stash.go). The parts that came
// with the v1 hub and are rarely stashed (device status, counters, taints,
// capacity policies, node allocatable resources) are handed to a strict
// json-iterator configuration instead (viaCodec). A field added to a payload
// type, or to a hub type a payload holds, must be added here:
// TestWriteReadRoundTrip fills every field at random, writes and reads it,
// and fails until it is.

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

func (r *reader) class(out *Class) {
	if !r.object() {
		return
	}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "v":
			out.V = r.int()
		case "selectors":
			out.Selectors = r.deviceSelectors()
		case "config":
			if r.array() {
				out.Config = []resource.DeviceClassConfiguration{}
				for first := true; r.elem(first); first = false {
					var c resource.DeviceClassConfiguration
					r.deviceConfiguration(&c.DeviceConfiguration, nil)
					out.Config = append(out.Config, c)
				}
			} else {
				out.Config = nil
			}
		case "parametersRef":
			out.ParametersRef = nil
			if r.object() {
				ref := &resource.ResourceClassParametersReference{}
				for first := true; ; first = false {
					key, ok := r.member(first)
					if !ok {
						break
					}
					switch key {
					case "apiGroup":
						ref.APIGroup = r.str()
					case "kind":
						ref.Kind = r.str()
					case "name":
						ref.Name = r.str()
					case "namespace":
						ref.Namespace = r.str()
					default:
						r.unknown(key)
					}
				}
				out.ParametersRef = ref
			}
		case "structuredParameters":
			out.StructuredParameters = r.optionalBool()
		case "suitableNodes":
			out.SuitableNodes = r.optionalNodeSelector()
		case "extendedResourceName":
			out.ExtendedResourceName = r.optionalString()
		default:
			r.unknown(key)
		}
	}
}

func (r *reader) claim(out *Claim) {
	if !r.object() {
		return
	}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "v":
			out.V = r.int()
		case "spec":
			out.Spec = nil
			if r.object() {
				out.Spec = &ClaimSpec{}
				r.claimSpec(out.Spec)
			}
		case "status":
			out.Status = nil
			if r.object() {
				out.Status = &ClaimStatus{}
				r.claimStatus(out.Status)
			}
		default:
			r.unknown(key)
		}
	}
}

// claimSpec reads the members of an object begun by the caller.
func (r *reader) claimSpec(out *ClaimSpec) {
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "requests":
			out.Requests = nil
			if r.array() {
				requests := []resource.DeviceRequest{}
				for first := true; r.elem(first); first = false {
					requests = append(requests, resource.DeviceRequest{})
					r.deviceRequest(&requests[len(requests)-1])
				}
				out.Requests = &requests
			}
		case "undefaultedExactly":
			out.UndefaultedExactly = r.ints()
		case "constraints":
			out.Constraints = nil
			if r.array() {
				out.Constraints = []resource.DeviceConstraint{}
				for first := true; r.elem(first); first = false {
					out.Constraints = append(out.Constraints, resource.DeviceConstraint{})
					r.deviceConstraint(&out.Constraints[len(out.Constraints)-1])
				}
			}
		case "config":
			out.Config = nil
			if r.array() {
				out.Config = []resource.DeviceClaimConfiguration{}
				for first := true; r.elem(first); first = false {
					var c resource.DeviceClaimConfiguration
					r.deviceConfiguration(&c.DeviceConfiguration, &c.Requests)
					out.Config = append(out.Config, c)
				}
			}
		case "controller":
			out.Controller = r.str()
		case "parametersRef":
			out.ParametersRef = nil
			if r.object() {
				ref := &resource.ResourceClaimParametersReference{}
				for first := true; ; first = false {
					key, ok := r.member(first)
					if !ok {
						break
					}
					switch key {
					case "apiGroup":
						ref.APIGroup = r.str()
					case "kind":
						ref.Kind = r.str()
					case "name":
						ref.Name = r.str()
					default:
						r.unknown(key)
					}
				}
				out.ParametersRef = ref
			}
		case "allocationMode":
			out.AllocationMode = resource.AllocationMode(r.str())
		case "emptyExactly":
			out.EmptyExactly = r.strings()
		default:
			r.unknown(key)
		}
	}
}

func (r *reader) deviceRequest(out *resource.DeviceRequest) {
	if !r.object() {
		return
	}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "name":
			out.Name = r.str()
		case "exactly":
			out.Exactly = nil
			if r.object() {
				out.Exactly = &resource.ExactDeviceRequest{}
				r.exactRequest(out.Exactly)
			}
		case "firstAvailable":
			out.FirstAvailable = nil
			if r.array() {
				out.FirstAvailable = []resource.DeviceSubRequest{}
				for first := true; r.elem(first); first = false {
					out.FirstAvailable = append(out.FirstAvailable, resource.DeviceSubRequest{})
					r.subRequest(&out.FirstAvailable[len(out.FirstAvailable)-1])
				}
			}
		default:
			r.unknown(key)
		}
	}
}

// exactRequest reads the members of an object begun by the caller.
func (r *reader) exactRequest(out *resource.ExactDeviceRequest) {
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "deviceClassName":
			out.DeviceClassName = r.str()
		case "selectors":
			out.Selectors = r.deviceSelectors()
		case "allocationMode":
			out.AllocationMode = resource.DeviceAllocationMode(r.str())
		case "count":
			out.Count = r.int64()
		case "adminAccess":
			out.AdminAccess = r.optionalBool()
		case "tolerations":
			out.Tolerations = r.tolerations()
		case "capacity":
			out.Capacity = r.capacityRequirements()
		case "derivedAttributes":
			out.DerivedAttributes = r.derivedAttributes()
		default:
			r.unknown(key)
		}
	}
}

func (r *reader) subRequest(out *resource.DeviceSubRequest) {
	if !r.object() {
		return
	}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "name":
			out.Name = r.str()
		case "deviceClassName":
			out.DeviceClassName = r.str()
		case "selectors":
			out.Selectors = r.deviceSelectors()
		case "allocationMode":
			out.AllocationMode = resource.DeviceAllocationMode(r.str())
		case "count":
			out.Count = r.int64()
		case "tolerations":
			out.Tolerations = r.tolerations()
		case "capacity":
			out.Capacity = r.capacityRequirements()
		case "derivedAttributes":
			out.DerivedAttributes = r.derivedAttributes()
		default:
			r.unknown(key)
		}
	}
}

func (r *reader) tolerations() []resource.DeviceToleration {
	if !r.array() {
		return nil
	}
	out := []resource.DeviceToleration{}
	for first := true; r.elem(first); first = false {
		var t resource.DeviceToleration
		if r.object() {
			for first := true; ; first = false {
				key, ok := r.member(first)
				if !ok {
					break
				}
				switch key {
				case "key":
					t.Key = r.str()
				case "operator":
					t.Operator = resource.DeviceTolerationOperator(r.str())
				case "value":
					t.Value = r.str()
				case "effect":
					t.Effect = resource.DeviceTaintEffect(r.str())
				case "tolerationSeconds":
					t.TolerationSeconds = r.optionalInt64()
				default:
					r.unknown(key)
				}
			}
		}
		out = append(out, t)
	}
	return out
}

func (r *reader) capacityRequirements() *resource.CapacityRequirements {
	if !r.object() {
		return nil
	}
	out := &resource.CapacityRequirements{}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return out
		}
		if key != "requests" {
			r.unknown(key)
			return out
		}
		out.Requests = r.quantities()
	}
}

// quantities reads a map of quantities keyed by qualified names.
func (r *reader) quantities() map[resource.QualifiedName]apiresource.Quantity {
	if !r.object() {
		return nil
	}
	out := map[resource.QualifiedName]apiresource.Quantity{}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return out
		}
		out[resource.QualifiedName(key)] = r.quantity()
	}
}

func (r *reader) derivedAttributes() []resource.DeviceDerivedAttribute {
	if !r.array() {
		return nil
	}
	out := []resource.DeviceDerivedAttribute{}
	for first := true; r.elem(first); first = false {
		var d resource.DeviceDerivedAttribute
		if r.object() {
			for first := true; ; first = false {
				key, ok := r.member(first)
				if !ok {
					break
				}
				switch key {
				case "name":
					d.Name = resource.FullyQualifiedName(r.str())
				case "expression":
					d.Expression = r.str()
				default:
					r.unknown(key)
				}
			}
		}
		out = append(out, d)
	}
	return out
}

func (r *reader) deviceConstraint(out *resource.DeviceConstraint) {
	if !r.object() {
		return
	}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "requests":
			out.Requests = r.strings()
		case "matchAttribute":
			out.MatchAttribute = r.optionalFullyQualifiedName()
		case "distinctAttribute":
			out.DistinctAttribute = r.optionalFullyQualifiedName()
		default:
			r.unknown(key)
		}
	}
}

func (r *reader) optionalFullyQualifiedName() *resource.FullyQualifiedName {
	if r.null() {
		return nil
	}
	name := resource.FullyQualifiedName(r.str())
	return &name
}

func (r *reader) deviceSelectors() []resource.DeviceSelector {
	if !r.array() {
		return nil
	}
	out := []resource.DeviceSelector{}
	for first := true; r.elem(first); first = false {
		var sel resource.DeviceSelector
		if r.object() {
			for first := true; ; first = false {
				key, ok := r.member(first)
				if !ok {
					break
				}
				if key != "cel" {
					r.unknown(key)
					break
				}
				sel.CEL = nil
				if r.object() {
					sel.CEL = &resource.CELDeviceSelector{}
					for first := true; ; first = false {
						key, ok := r.member(first)
						if !ok {
							break
						}
						if key != "expression" {
							r.unknown(key)
							break
						}
						sel.CEL.Expression = r.str()
					}
				}
			}
		}
		out = append(out, sel)
	}
	return out
}

// deviceConfiguration reads one element of a config list: the inlined
// DeviceConfiguration, with "requests" (into requests) and "source" (into
// source) where the element type has them; nil means it does not.
func (r *reader) deviceConfiguration(out *resource.DeviceConfiguration, requests *[]string) {
	r.configElement(out, requests, nil)
}

func (r *reader) configElement(out *resource.DeviceConfiguration, requests *[]string, source *resource.AllocationConfigSource) {
	if !r.object() {
		return
	}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch {
		case key == "opaque":
			out.Opaque = nil
			if r.object() {
				o := &resource.OpaqueDeviceConfiguration{}
				for first := true; ; first = false {
					key, ok := r.member(first)
					if !ok {
						break
					}
					switch key {
					case "driver":
						o.Driver = r.str()
					case "parameters":
						r.rawExtension(&o.Parameters)
					default:
						r.unknown(key)
					}
				}
				out.Opaque = o
			}
		case key == "requests" && requests != nil:
			*requests = r.strings()
		case key == "source" && source != nil:
			*source = resource.AllocationConfigSource(r.str())
		default:
			r.unknown(key)
		}
	}
}

// claimStatus reads the members of an object begun by the caller.
func (r *reader) claimStatus(out *ClaimStatus) {
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "driverName":
			out.DriverName = r.str()
		case "allocation":
			out.Allocation = nil
			if r.object() {
				out.Allocation = &Allocation{}
				r.allocation(out.Allocation)
			}
		case "deallocationRequested":
			out.DeallocationRequested = r.boolean()
		case "devices":
			out.Devices = nil
			if !r.null() {
				var devices []resource.AllocatedDeviceStatus
				r.viaCodec(&devices)
				if devices == nil {
					devices = []resource.AllocatedDeviceStatus{}
				}
				out.Devices = &devices
			}
		default:
			r.unknown(key)
		}
	}
}

// allocation reads the members of an object begun by the caller.
func (r *reader) allocation(out *Allocation) {
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "devices":
			out.Devices = nil
			if r.object() {
				out.Devices = &resource.DeviceAllocationResult{}
				r.deviceAllocationResult(out.Devices)
			}
		case "controller":
			out.Controller = r.str()
		case "resourceHandles":
			out.ResourceHandles = nil
			if r.array() {
				handles := []resource.ResourceHandle{}
				for first := true; r.elem(first); first = false {
					handles = append(handles, resource.ResourceHandle{})
					r.resourceHandle(&handles[len(handles)-1])
				}
				out.ResourceHandles = &handles
			}
		case "shareable":
			out.Shareable = r.boolean()
		case "allocationTimestamp":
			out.AllocationTimestamp = r.optionalTime()
		case "derivedHandles":
			out.DerivedHandles = r.int()
		case "derivedResults":
			out.DerivedResults = r.boolean()
		default:
			r.unknown(key)
		}
	}
}

// deviceAllocationResult reads the members of an object begun by the
// caller.
func (r *reader) deviceAllocationResult(out *resource.DeviceAllocationResult) {
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "results":
			out.Results = nil
			if r.array() {
				out.Results = []resource.DeviceRequestAllocationResult{}
				for first := true; r.elem(first); first = false {
					out.Results = append(out.Results, resource.DeviceRequestAllocationResult{})
					r.deviceResult(&out.Results[len(out.Results)-1])
				}
			}
		case "config":
			out.Config = nil
			if r.array() {
				out.Config = []resource.DeviceAllocationConfiguration{}
				for first := true; r.elem(first); first = false {
					var c resource.DeviceAllocationConfiguration
					r.configElement(&c.DeviceConfiguration, &c.Requests, &c.Source)
					out.Config = append(out.Config, c)
				}
			}
		default:
			r.unknown(key)
		}
	}
}

func (r *reader) deviceResult(out *resource.DeviceRequestAllocationResult) {
	if !r.object() {
		return
	}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
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
			out.Tolerations = r.tolerations()
		case "bindingConditions":
			out.BindingConditions = r.strings()
		case "bindingFailureConditions":
			out.BindingFailureConditions = r.strings()
		case "shareID":
			out.ShareID = nil
			if !r.null() {
				id := types.UID(r.str())
				out.ShareID = &id
			}
		case "consumedCapacity":
			out.ConsumedCapacity = r.quantities()
		case "skipNodeOperations":
			out.SkipNodeOperations = r.skipNodeOperations()
		default:
			r.unknown(key)
		}
	}
}

func (r *reader) skipNodeOperations() []resource.SkipNodeOperation {
	if !r.array() {
		return nil
	}
	out := []resource.SkipNodeOperation{}
	for first := true; r.elem(first); first = false {
		out = append(out, resource.SkipNodeOperation(r.str()))
	}
	return out
}

func (r *reader) resourceHandle(out *resource.ResourceHandle) {
	if !r.object() {
		return
	}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "driverName":
			out.DriverName = r.str()
		case "data":
			out.Data = r.str()
		case "structuredData":
			out.StructuredData = nil
			if r.object() {
				out.StructuredData = &resource.StructuredResourceHandle{}
				r.structuredHandle(out.StructuredData)
			}
		default:
			r.unknown(key)
		}
	}
}

// structuredHandle reads the members of an object begun by the caller.
func (r *reader) structuredHandle(out *resource.StructuredResourceHandle) {
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "vendorClassParameters":
			r.rawExtension(&out.VendorClassParameters)
		case "vendorClaimParameters":
			r.rawExtension(&out.VendorClaimParameters)
		case "nodeName":
			out.NodeName = r.str()
		case "results":
			out.Results = nil
			if r.array() {
				out.Results = []resource.DriverAllocationResult{}
				for first := true; r.elem(first); first = false {
					out.Results = append(out.Results, resource.DriverAllocationResult{})
					r.driverResult(&out.Results[len(out.Results)-1])
				}
			}
		default:
			r.unknown(key)
		}
	}
}

func (r *reader) driverResult(out *resource.DriverAllocationResult) {
	if !r.object() {
		return
	}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "vendorRequestParameters":
			r.rawExtension(&out.VendorRequestParameters)
		case "namedResources":
			out.NamedResources = nil
			if r.object() {
				out.NamedResources = &resource.NamedResourcesAllocationResult{}
				for first := true; ; first = false {
					key, ok := r.member(first)
					if !ok {
						break
					}
					if key != "name" {
						r.unknown(key)
						break
					}
					out.NamedResources.Name = r.str()
				}
			}
		default:
			r.unknown(key)
		}
	}
}

func (r *reader) slice(out *Slice) {
	if !r.object() {
		return
	}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "v":
			out.V = r.int()
		case "pool":
			out.Pool = nil
			if r.object() {
				p := &resource.ResourcePool{}
				for first := true; ; first = false {
					key, ok := r.member(first)
					if !ok {
						break
					}
					switch key {
					case "name":
						p.Name = r.str()
					case "generation":
						p.Generation = r.int64()
					case "resourceSliceCount":
						p.ResourceSliceCount = r.int64()
					default:
						r.unknown(key)
					}
				}
				out.Pool = p
			}
		case "nodeSelector":
			out.NodeSelector = r.optionalNodeSelector()
		case "nodeName":
			out.NodeName = r.optionalString()
		case "allNodes":
			out.AllNodes = r.optionalBool()
		case "noResourceModel":
			out.NoResourceModel = r.boolean()
		case "emptyDevices":
			out.EmptyDevices = r.boolean()
		case "perDeviceNodeSelection":
			out.PerDeviceNodeSelection = r.optionalBool()
		case "sharedCounters":
			out.SharedCounters = nil
			if !r.null() {
				var sets []resource.CounterSet
				r.viaCodec(&sets)
				if sets == nil {
					sets = []resource.CounterSet{}
				}
				out.SharedCounters = &sets
			}
		case "partitionTypeAttribute":
			out.PartitionTypeAttribute = r.optionalFullyQualifiedName()
		case "skipNodeOperations":
			out.SkipNodeOperations = nil
			if !r.null() {
				ops := r.skipNodeOperations()
				out.SkipNodeOperations = &ops
			}
		case "devices":
			out.Devices = nil
			if r.array() {
				out.Devices = []Device{}
				for first := true; r.elem(first); first = false {
					out.Devices = append(out.Devices, Device{})
					r.device(&out.Devices[len(out.Devices)-1])
				}
			}
		default:
			r.unknown(key)
		}
	}
}

func (r *reader) optionalNodeSelector() *corev1.NodeSelector {
	if !r.object() {
		return nil
	}
	out := &corev1.NodeSelector{}
	r.nodeSelector(out)
	return out
}

// nodeSelector reads the members of an object begun by the caller.
func (r *reader) nodeSelector(out *corev1.NodeSelector) {
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		if key != "nodeSelectorTerms" {
			r.unknown(key)
			return
		}
		out.NodeSelectorTerms = nil
		if !r.array() {
			continue
		}
		out.NodeSelectorTerms = []corev1.NodeSelectorTerm{}
		for first := true; r.elem(first); first = false {
			var term corev1.NodeSelectorTerm
			if r.object() {
				for first := true; ; first = false {
					key, ok := r.member(first)
					if !ok {
						break
					}
					switch key {
					case "matchExpressions":
						term.MatchExpressions = r.nodeSelectorRequirements()
					case "matchFields":
						term.MatchFields = r.nodeSelectorRequirements()
					default:
						r.unknown(key)
					}
				}
			}
			out.NodeSelectorTerms = append(out.NodeSelectorTerms, term)
		}
	}
}

func (r *reader) nodeSelectorRequirements() []corev1.NodeSelectorRequirement {
	if !r.array() {
		return nil
	}
	out := []corev1.NodeSelectorRequirement{}
	for first := true; r.elem(first); first = false {
		var req corev1.NodeSelectorRequirement
		if r.object() {
			for first := true; ; first = false {
				key, ok := r.member(first)
				if !ok {
					break
				}
				switch key {
				case "key":
					req.Key = r.str()
				case "operator":
					req.Operator = corev1.NodeSelectorOperator(r.str())
				case "values":
					req.Values = r.strings()
				default:
					r.unknown(key)
				}
			}
		}
		out = append(out, req)
	}
	return out
}

func (r *reader) device(out *Device) {
	if !r.object() {
		return
	}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
		switch key {
		case "index":
			out.Index = r.int()
		case "name":
			out.Name = r.str()
		case "attributes":
			out.Attributes = nil
			if r.object() {
				out.Attributes = map[resource.QualifiedName]Attribute{}
				for first := true; ; first = false {
					key, ok := r.member(first)
					if !ok {
						break
					}
					var a Attribute
					r.attribute(&a)
					out.Attributes[resource.QualifiedName(key)] = a
				}
			}
		case "capacity":
			out.Capacity = nil
			r.viaCodec(&out.Capacity)
		case "consumesCounters":
			out.ConsumesCounters = nil
			if !r.null() {
				var consumption []resource.DeviceCounterConsumption
				r.viaCodec(&consumption)
				if consumption == nil {
					consumption = []resource.DeviceCounterConsumption{}
				}
				out.ConsumesCounters = &consumption
			}
		case "nodeName":
			out.NodeName = r.optionalString()
		case "nodeSelector":
			out.NodeSelector = r.optionalNodeSelector()
		case "allNodes":
			out.AllNodes = r.optionalBool()
		case "taints":
			out.Taints = nil
			if !r.null() {
				var taints []resource.DeviceTaint
				r.viaCodec(&taints)
				if taints == nil {
					taints = []resource.DeviceTaint{}
				}
				out.Taints = &taints
			}
		case "bindsToNode":
			out.BindsToNode = r.optionalBool()
		case "bindingConditions":
			out.BindingConditions = r.optionalStrings()
		case "bindingFailureConditions":
			out.BindingFailureConditions = r.optionalStrings()
		case "allowMultipleAllocations":
			out.AllowMultipleAllocations = r.optionalBool()
		case "nodeAllocatableResources":
			out.NodeAllocatableResources = nil
			r.viaCodec(&out.NodeAllocatableResources)
		case "namedResources":
			out.NamedResources = nil
			if r.object() {
				out.NamedResources = &resource.NamedResourcesLayout{}
				for first := true; ; first = false {
					key, ok := r.member(first)
					if !ok {
						break
					}
					switch key {
					case "order":
						out.NamedResources.Order = r.qualifiedNames()
					case "nullLists":
						out.NamedResources.NullLists = r.qualifiedNames()
					default:
						r.unknown(key)
					}
				}
			}
		default:
			r.unknown(key)
		}
	}
}

func (r *reader) attribute(out *Attribute) {
	if !r.object() {
		return
	}
	for first := true; ; first = false {
		key, ok := r.member(first)
		if !ok {
			return
		}
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
			out.IntValues = nil
			if r.array() {
				ints := []int64{}
				for first := true; r.elem(first); first = false {
					ints = append(ints, r.int64())
				}
				out.IntValues = &ints
			}
		case "bools":
			out.BoolValues = nil
			if r.array() {
				bools := []bool{}
				for first := true; r.elem(first); first = false {
					bools = append(bools, r.boolean())
				}
				out.BoolValues = &bools
			}
		case "strings":
			out.StringValues = r.optionalStrings()
		case "versions":
			out.VersionValues = r.optionalStrings()
		default:
			r.unknown(key)
		}
	}
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

func (r *reader) qualifiedNames() []resource.QualifiedName {
	if !r.array() {
		return nil
	}
	out := []resource.QualifiedName{}
	for first := true; r.elem(first); first = false {
		out = append(out, resource.QualifiedName(r.str()))
	}
	return out
}

// optionalStrings reads a pointer to a list of strings: null is nil, and
// an empty array points to an empty list.
func (r *reader) optionalStrings() *[]string {
	if r.null() {
		return nil
	}
	l := r.strings()
	if l == nil {
		return nil // an error
	}
	return &l
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

// viaCodec reads one value into out, a pointer, with strict: for the parts
// of a payload that came with the v1 hub and are rarely stashed (device
// status, counters, taints, capacity policies, node allocatable resources),
// a reflection-based decoder is fast enough. Its quantities are checked
// first, as everywhere else.
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
	if !r.array() {
		return nil
	}
	out := []string{}
	for first := true; r.elem(first); first = false {
		out = append(out, r.str())
	}
	return out
}

func (r *reader) ints() []int {
	if !r.array() {
		return nil
	}
	out := []int{}
	for first := true; r.elem(first); first = false {
		out = append(out, r.int())
	}
	return out
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
