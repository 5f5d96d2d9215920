package allocbench

import (
	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/dynamic-resource-allocation/structured"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource"
)

// The scenarios are written once, as drakit hub objects, and translated to
// k8s.io/api/resource/v1 for upstream's allocator. The hub has v1's shape,
// so the translation is a near field-by-field copy of every field v1 has
// (metadata, and the spec of classes, slices and claims; a claim's status
// is left out, since the allocators read only the spec), keeping nil apart
// from empty lists and maps. It differs from a plain copy in two ways only:
//
//   - an `exactly` request and each firstAvailable alternative get the
//     defaults the API server gives them: an unset allocation mode becomes
//     ExactCount, and an ExactCount request without a count asks for one
//     device (upstream's allocator expects defaulted objects; drakit's
//     applies the same defaults itself);
//   - the hub's legacy fields, which only the alpha versions before 1.31
//     can say, have no home in v1 and are left out: a class's
//     suitableNodes, parametersRef and structuredParameters, a claim's
//     controller, parametersRef and allocationMode, a slice's
//     noResourceModel and a device's namedResources layout. No scenario
//     sets them (drakit refuses the claims and classes that rely on
//     controllers or parameter objects as Unsupported).
//
// A device in the hub is v1's flat device; 1.31's device without `basic`
// reads as a device without attributes (as the hub reads v1alpha3 and
// v1beta1), which both drakit and upstream can select, so no device is
// left out any more. TestTranslateIsACopy checks on random hub objects that
// the translation equals the hub object read as v1 from its JSON, defaults
// aside.

func toV1Class(c *resource.DeviceClass) *resourceapi.DeviceClass {
	return &resourceapi.DeviceClass{
		ObjectMeta: *c.ObjectMeta.DeepCopy(),
		Spec: resourceapi.DeviceClassSpec{
			Selectors: copyList(c.Spec.Selectors, toV1Selector),
			Config: copyList(c.Spec.Config, func(cfg resource.DeviceClassConfiguration) resourceapi.DeviceClassConfiguration {
				return resourceapi.DeviceClassConfiguration{DeviceConfiguration: toV1Config(cfg.DeviceConfiguration)}
			}),
			ExtendedResourceName: copyPtr(c.Spec.ExtendedResourceName),
		},
	}
}

func toV1Selector(s resource.DeviceSelector) resourceapi.DeviceSelector {
	if s.CEL == nil {
		return resourceapi.DeviceSelector{}
	}
	return resourceapi.DeviceSelector{CEL: &resourceapi.CELDeviceSelector{Expression: s.CEL.Expression}}
}

func toV1Config(c resource.DeviceConfiguration) resourceapi.DeviceConfiguration {
	if c.Opaque == nil {
		return resourceapi.DeviceConfiguration{}
	}
	return resourceapi.DeviceConfiguration{Opaque: &resourceapi.OpaqueDeviceConfiguration{Driver: c.Opaque.Driver, Parameters: *c.Opaque.Parameters.DeepCopy()}}
}

func toV1Slice(s *resource.ResourceSlice) *resourceapi.ResourceSlice {
	return &resourceapi.ResourceSlice{
		ObjectMeta: *s.ObjectMeta.DeepCopy(),
		Spec: resourceapi.ResourceSliceSpec{
			Driver:                 s.Spec.Driver,
			Pool:                   resourceapi.ResourcePool{Name: s.Spec.Pool.Name, Generation: s.Spec.Pool.Generation, ResourceSliceCount: s.Spec.Pool.ResourceSliceCount},
			NodeName:               copyPtr(s.Spec.NodeName),
			NodeSelector:           s.Spec.NodeSelector.DeepCopy(),
			AllNodes:               copyPtr(s.Spec.AllNodes),
			Devices:                copyList(s.Spec.Devices, toV1Device),
			PerDeviceNodeSelection: copyPtr(s.Spec.PerDeviceNodeSelection),
			SharedCounters: copyList(s.Spec.SharedCounters, func(cs resource.CounterSet) resourceapi.CounterSet {
				return resourceapi.CounterSet{Name: cs.Name, Counters: copyMap[string, string](cs.Counters, toV1Counter)}
			}),
			PartitionTypeAttribute: castPtr[resource.FullyQualifiedName, resourceapi.FullyQualifiedName](s.Spec.PartitionTypeAttribute),
			SkipNodeOperations:     castList[resource.SkipNodeOperation, resourceapi.SkipNodeOperation](s.Spec.SkipNodeOperations),
		},
	}
}

func toV1Device(d resource.Device) resourceapi.Device {
	return resourceapi.Device{
		Name:       d.Name,
		Attributes: copyMap[resource.QualifiedName, resourceapi.QualifiedName](d.Attributes, toV1Attribute),
		Capacity:   copyMap[resource.QualifiedName, resourceapi.QualifiedName](d.Capacity, toV1Capacity),
		ConsumesCounters: copyList(d.ConsumesCounters, func(c resource.DeviceCounterConsumption) resourceapi.DeviceCounterConsumption {
			return resourceapi.DeviceCounterConsumption{
				CounterSet:          c.CounterSet,
				Counters:            copyMap[string, string](c.Counters, toV1Counter),
				CompatibilityGroups: castList[string, string](c.CompatibilityGroups),
			}
		}),
		NodeName:     copyPtr(d.NodeName),
		NodeSelector: d.NodeSelector.DeepCopy(),
		AllNodes:     copyPtr(d.AllNodes),
		Taints: copyList(d.Taints, func(t resource.DeviceTaint) resourceapi.DeviceTaint {
			return resourceapi.DeviceTaint{Key: t.Key, Value: t.Value, Effect: resourceapi.DeviceTaintEffect(t.Effect), TimeAdded: t.TimeAdded.DeepCopy()}
		}),
		BindsToNode:              copyPtr(d.BindsToNode),
		BindingConditions:        castList[string, string](d.BindingConditions),
		BindingFailureConditions: castList[string, string](d.BindingFailureConditions),
		AllowMultipleAllocations: copyPtr(d.AllowMultipleAllocations),
		NodeAllocatableResources: copyMap[corev1.ResourceName, corev1.ResourceName](d.NodeAllocatableResources, func(r resource.NodeAllocatableResource) resourceapi.NodeAllocatableResource {
			var out resourceapi.NodeAllocatableResource
			if m := r.Mapping; m != nil {
				out.Mapping = &resourceapi.NodeAllocatableMapping{
					CapacityKey:        castPtr[resource.QualifiedName, resourceapi.QualifiedName](m.CapacityKey),
					CapacityMultiplier: copyQuantity(m.CapacityMultiplier),
					DeviceMultiplier:   copyQuantity(m.DeviceMultiplier),
				}
			}
			if o := r.Overhead; o != nil {
				out.Overhead = &resourceapi.NodeAllocatableOverhead{PerPod: copyQuantity(o.PerPod), PerContainer: copyQuantity(o.PerContainer)}
			}
			return out
		}),
	}
}

func toV1Attribute(a resource.DeviceAttribute) resourceapi.DeviceAttribute {
	return resourceapi.DeviceAttribute{
		IntValue:      copyPtr(a.IntValue),
		BoolValue:     copyPtr(a.BoolValue),
		StringValue:   copyPtr(a.StringValue),
		VersionValue:  copyPtr(a.VersionValue),
		IntValues:     copyList(a.IntValues, same[int64]),
		BoolValues:    copyList(a.BoolValues, same[bool]),
		StringValues:  castList[string, string](a.StringValues),
		VersionValues: castList[string, string](a.VersionValues),
	}
}

func toV1Capacity(c resource.DeviceCapacity) resourceapi.DeviceCapacity {
	out := resourceapi.DeviceCapacity{Value: c.Value.DeepCopy()}
	if p := c.RequestPolicy; p != nil {
		out.RequestPolicy = &resourceapi.CapacityRequestPolicy{
			Default:     copyQuantity(p.Default),
			ValidValues: copyList(p.ValidValues, apiresource.Quantity.DeepCopy),
		}
		if r := p.ValidRange; r != nil {
			out.RequestPolicy.ValidRange = &resourceapi.CapacityRequestPolicyRange{Min: copyQuantity(r.Min), Max: copyQuantity(r.Max), Step: copyQuantity(r.Step)}
		}
	}
	return out
}

func toV1Counter(c resource.Counter) resourceapi.Counter {
	return resourceapi.Counter{Value: c.Value.DeepCopy()}
}

func toV1Claim(c *resource.ResourceClaim) *resourceapi.ResourceClaim {
	return &resourceapi.ResourceClaim{
		ObjectMeta: *c.ObjectMeta.DeepCopy(),
		Spec: resourceapi.ResourceClaimSpec{Devices: resourceapi.DeviceClaim{
			Requests: copyList(c.Spec.Devices.Requests, toV1Request),
			Constraints: copyList(c.Spec.Devices.Constraints, func(con resource.DeviceConstraint) resourceapi.DeviceConstraint {
				return resourceapi.DeviceConstraint{
					Requests:          castList[string, string](con.Requests),
					MatchAttribute:    castPtr[resource.FullyQualifiedName, resourceapi.FullyQualifiedName](con.MatchAttribute),
					DistinctAttribute: castPtr[resource.FullyQualifiedName, resourceapi.FullyQualifiedName](con.DistinctAttribute),
				}
			}),
			Config: copyList(c.Spec.Devices.Config, func(cfg resource.DeviceClaimConfiguration) resourceapi.DeviceClaimConfiguration {
				return resourceapi.DeviceClaimConfiguration{Requests: castList[string, string](cfg.Requests), DeviceConfiguration: toV1Config(cfg.DeviceConfiguration)}
			}),
		}},
	}
}

func toV1Request(r resource.DeviceRequest) resourceapi.DeviceRequest {
	out := resourceapi.DeviceRequest{Name: r.Name}
	if e := r.Exactly; e != nil {
		out.Exactly = &resourceapi.ExactDeviceRequest{
			DeviceClassName:   e.DeviceClassName,
			Selectors:         copyList(e.Selectors, toV1Selector),
			AllocationMode:    resourceapi.DeviceAllocationMode(e.AllocationMode),
			Count:             e.Count,
			AdminAccess:       copyPtr(e.AdminAccess),
			Tolerations:       copyList(e.Tolerations, toV1Toleration),
			Capacity:          toV1CapacityRequirements(e.Capacity),
			DerivedAttributes: copyList(e.DerivedAttributes, toV1DerivedAttribute),
		}
		defaultModeAndCount(&out.Exactly.AllocationMode, &out.Exactly.Count)
	}
	out.FirstAvailable = copyList(r.FirstAvailable, func(s resource.DeviceSubRequest) resourceapi.DeviceSubRequest {
		sub := resourceapi.DeviceSubRequest{
			Name:              s.Name,
			DeviceClassName:   s.DeviceClassName,
			Selectors:         copyList(s.Selectors, toV1Selector),
			AllocationMode:    resourceapi.DeviceAllocationMode(s.AllocationMode),
			Count:             s.Count,
			Tolerations:       copyList(s.Tolerations, toV1Toleration),
			Capacity:          toV1CapacityRequirements(s.Capacity),
			DerivedAttributes: copyList(s.DerivedAttributes, toV1DerivedAttribute),
		}
		defaultModeAndCount(&sub.AllocationMode, &sub.Count)
		return sub
	})
	return out
}

// defaultModeAndCount gives a request the API server's defaults: an unset
// mode is ExactCount, and ExactCount without a count asks for one device.
func defaultModeAndCount(mode *resourceapi.DeviceAllocationMode, count *int64) {
	if *mode == "" {
		*mode = resourceapi.DeviceAllocationModeExactCount
	}
	if *mode == resourceapi.DeviceAllocationModeExactCount && *count == 0 {
		*count = 1
	}
}

func toV1Toleration(t resource.DeviceToleration) resourceapi.DeviceToleration {
	return resourceapi.DeviceToleration{
		Key:               t.Key,
		Operator:          resourceapi.DeviceTolerationOperator(t.Operator),
		Value:             t.Value,
		Effect:            resourceapi.DeviceTaintEffect(t.Effect),
		TolerationSeconds: copyPtr(t.TolerationSeconds),
	}
}

func toV1CapacityRequirements(c *resource.CapacityRequirements) *resourceapi.CapacityRequirements {
	if c == nil {
		return nil
	}
	return &resourceapi.CapacityRequirements{Requests: copyMap[resource.QualifiedName, resourceapi.QualifiedName](c.Requests, apiresource.Quantity.DeepCopy)}
}

func toV1DerivedAttribute(a resource.DeviceDerivedAttribute) resourceapi.DeviceDerivedAttribute {
	return resourceapi.DeviceDerivedAttribute{Name: resourceapi.FullyQualifiedName(a.Name), Expression: a.Expression}
}

// Copies that keep nil apart from empty.

func copyList[T, U any](in []T, f func(T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i := range in {
		out[i] = f(in[i])
	}
	return out
}

func castList[T, U ~string](in []T) []U {
	return copyList(in, func(s T) U { return U(s) })
}

func copyMap[K, L ~string, V, W any](in map[K]V, f func(V) W) map[L]W {
	if in == nil {
		return nil
	}
	out := make(map[L]W, len(in))
	for k, v := range in {
		out[L(k)] = f(v)
	}
	return out
}

func copyPtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func castPtr[T, U ~string](p *T) *U {
	if p == nil {
		return nil
	}
	v := U(*p)
	return &v
}

func copyQuantity(q *apiresource.Quantity) *apiresource.Quantity {
	if q == nil {
		return nil
	}
	v := q.DeepCopy()
	return &v
}

func same[T any](v T) T { return v }

// classLister serves classes to upstream's allocator.
type classLister map[string]*resourceapi.DeviceClass

func (l classLister) List() ([]*resourceapi.DeviceClass, error) {
	var out []*resourceapi.DeviceClass
	for _, c := range l {
		out = append(out, c)
	}
	return out, nil
}

func (l classLister) Get(name string) (*resourceapi.DeviceClass, error) {
	if c, ok := l[name]; ok {
		return c, nil
	}
	return nil, &notFound{name}
}

type notFound struct{ name string }

func (e *notFound) Error() string { return "deviceclass " + e.name + " not found" }

// upstreamInputs is a scenario's inventory in v1 form.
type upstreamInputs struct {
	features allocator.Features
	classes  classLister
	slices   []*resourceapi.ResourceSlice
	// base are the inventory's own allocations (Allocated and the results
	// of AllocatedClaims); state is base plus what runners committed.
	base  []*resource.AllocationResult
	state structured.AllocatedState
}

// toUpstream translates an inventory for upstream's allocator. With
// Features.DeviceTaintRules the rules' taints are merged into the devices
// they select (taintRules), since upstream's allocator does not read
// DeviceTaintRules: the scheduler's slice tracker (resourceslice/tracker,
// EnableDeviceTaintRules) patches the slices before the allocator sees
// them, and so does this harness.
func toUpstream(inv *Inventory) *upstreamInputs {
	in := &upstreamInputs{features: inv.Features, classes: classLister{}}
	for _, c := range inv.Classes {
		in.classes[c.Name] = toV1Class(c)
	}
	for _, s := range inv.Slices {
		v1 := toV1Slice(s)
		if inv.Features.DeviceTaintRules {
			taintRules(v1, inv.TaintRules)
		}
		in.slices = append(in.slices, v1)
	}
	if len(inv.Allocated) > 0 {
		held := &resource.AllocationResult{}
		for _, id := range inv.Allocated {
			held.Devices.Results = append(held.Devices.Results, resource.DeviceRequestAllocationResult{Request: "held", Driver: id.Driver, Pool: id.Pool, Device: id.Device})
		}
		in.base = append(in.base, held)
	}
	for _, c := range inv.AllocatedClaims {
		if c.Status.Allocation != nil {
			in.base = append(in.base, c.Status.Allocation)
		}
	}
	in.resetState()
	return in
}

// resetState makes the allocated state the inventory's own again.
func (in *upstreamInputs) resetState() {
	in.state = structured.AllocatedState{
		AllocatedDevices:         sets.New[structured.DeviceID](),
		AllocatedSharedDeviceIDs: sets.New[structured.SharedDeviceID](),
		AggregatedCapacity:       structured.NewConsumedCapacityCollection(),
	}
	for _, r := range in.base {
		in.hold(r)
	}
}

// hold adds an allocation to the allocated state the way the scheduler
// gathers it from allocated claims: an adminAccess result holds nothing
// (1.32+), a result with a shareID holds its share and adds its consumed
// capacity to the device's total, any other result holds the device.
func (in *upstreamInputs) hold(r *resource.AllocationResult) {
	for _, d := range r.Devices.Results {
		id := structured.MakeDeviceID(d.Driver, d.Pool, d.Device)
		switch {
		case d.AdminAccess != nil && *d.AdminAccess:
		case d.ShareID != nil:
			in.state.AllocatedSharedDeviceIDs.Insert(structured.MakeSharedDeviceID(id, d.ShareID))
			consumed := map[resourceapi.QualifiedName]apiresource.Quantity{}
			for k, v := range d.ConsumedCapacity {
				consumed[resourceapi.QualifiedName(k)] = v.DeepCopy()
			}
			in.state.AggregatedCapacity.Insert(structured.NewDeviceConsumedCapacity(id, consumed))
		default:
			in.state.AllocatedDevices.Insert(id)
		}
	}
}

// taintRules appends the taint of every rule to the devices of the slice
// that the rule's selector picks (driver, pool and device name, each
// optional; a rule without selector picks nothing), in rule order, as the
// tracker's applyPatches does.
func taintRules(s *resourceapi.ResourceSlice, rules []*resource.DeviceTaintRule) {
	for _, rule := range rules {
		sel := rule.Spec.DeviceSelector
		if sel == nil || sel.Driver != nil && *sel.Driver != s.Spec.Driver || sel.Pool != nil && *sel.Pool != s.Spec.Pool.Name {
			continue
		}
		for i := range s.Spec.Devices {
			if sel.Device != nil && *sel.Device != s.Spec.Devices[i].Name {
				continue
			}
			t := rule.Spec.Taint
			s.Spec.Devices[i].Taints = append(s.Spec.Devices[i].Taints, resourceapi.DeviceTaint{
				Key: t.Key, Value: t.Value, Effect: resourceapi.DeviceTaintEffect(t.Effect), TimeAdded: t.TimeAdded.DeepCopy()})
		}
	}
}
