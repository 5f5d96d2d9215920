package validation

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/api/validate"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/features"
)

// ResourceSlice (1.37).

// ValidateResourceSliceV1 validates a slice being created.
func (c *checkerV1) ValidateResourceSliceV1(s *resourcev1.ResourceSlice) field.ErrorList {
	errs := objectMeta(&s.ObjectMeta, false)
	return append(errs, c.validateResourceSliceSpecV1(&s.Spec, nil, field.NewPath("spec"))...)
}

// ValidateResourceSliceUpdateV1 validates an update: the spec again, with
// driver, pool name and node name immutable. Capacity and taints of a
// device that kept its name are validated only if they changed.
func (c *checkerV1) ValidateResourceSliceUpdateV1(s, old *resourcev1.ResourceSlice) field.ErrorList {
	errs := objectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta)
	return append(errs, c.validateResourceSliceSpecV1(&s.Spec, &old.Spec, field.NewPath("spec"))...)
}

// validateResourceSliceSpecV1 validates a create (old nil) or an update.
// It includes the declarative rules of the spec: the gate and format of
// partitionTypeAttribute, the values of skipNodeOperations, and the
// declarative rules of devices (declarativeDeviceV1), each only when the
// field is new or changed.
func (c *checkerV1) validateResourceSliceSpecV1(spec, old *resourcev1.ResourceSliceSpec, p *field.Path) field.ErrorList {
	errs := c.validateDriverNameV1(spec.Driver, p.Child("driver"), handwrittenOnly)
	errs = append(errs, validateResourcePoolV1(&spec.Pool, p.Child("pool"))...)
	if old != nil {
		errs = append(errs, immutable(spec.Pool.Name, old.Pool.Name, p.Child("pool", "name"))...)
		errs = append(errs, immutable(spec.Driver, old.Driver, p.Child("driver"))...)
		errs = append(errs, immutable(spec.NodeName, old.NodeName, p.Child("nodeName"))...)
	}

	errs = append(errs, sliceNodeSelectionV1(spec, p)...)

	if spec.SharedCounters != nil && spec.Devices != nil {
		errs = append(errs, field.Invalid(p, "", "only one of `sharedCounters` or `devices` is allowed"))
	}

	errs = append(errs, c.sliceDevicesV1(spec, old, p.Child("devices"))...)
	errs = append(errs, sharedCounterSetsV1(spec, old, p.Child("sharedCounters"))...)

	if spec.PartitionTypeAttribute != nil {
		errs = append(errs, validatePartitionTypeAttributeV1(spec, p)...)
		if old == nil || old.PartitionTypeAttribute == nil || *old.PartitionTypeAttribute != *spec.PartitionTypeAttribute {
			errs = append(errs, c.declarativePartitionTypeAttributeV1(string(*spec.PartitionTypeAttribute), p.Child("partitionTypeAttribute"))...)
		}
	}

	sp := p.Child("skipNodeOperations")
	errs = append(errs, validateSkipNodeOperationsV1(spec.SkipNodeOperations, sp)...)
	if old == nil || !semanticEqual(spec.SkipNodeOperations, old.SkipNodeOperations) {
		var oldOps []resourcev1.SkipNodeOperation
		if old != nil {
			oldOps = old.SkipNodeOperations
		}
		errs = append(errs, declarativeSkipNodeOperationsV1(spec.SkipNodeOperations, oldOps, sp)...)
	}
	return errs
}

// sliceNodeSelectionV1 is the part of validateResourceSliceSpec that
// checks where the slice's devices are: exactly one of nodeName,
// nodeSelector, allNodes and perDeviceNodeSelection, each valid.
func sliceNodeSelectionV1(spec *resourcev1.ResourceSliceSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	var set []string
	if spec.NodeName != nil {
		if *spec.NodeName != "" {
			set = append(set, "`nodeName`")
			errs = append(errs, validateNodeNameV1(*spec.NodeName, p.Child("nodeName"))...)
		} else {
			errs = append(errs, field.Invalid(p.Child("nodeName"), "", "must be either unset or set to a non-empty string"))
		}
	}
	if spec.NodeSelector != nil {
		set = append(set, "`nodeSelector`")
		errs = append(errs, nodeSelectorV1(spec.NodeSelector, p.Child("nodeSelector"))...)
		if terms := spec.NodeSelector.NodeSelectorTerms; len(terms) != V1SliceNodeSelectorTerms {
			errs = append(errs, field.Invalid(p.Child("nodeSelector", "nodeSelectorTerms"), terms, "must have exactly one node selector term"))
		}
	}
	if spec.AllNodes != nil {
		if *spec.AllNodes {
			set = append(set, "`allNodes`")
		} else {
			errs = append(errs, field.Invalid(p.Child("allNodes"), false, "must be either unset or set to true"))
		}
	}
	if spec.PerDeviceNodeSelection != nil {
		if *spec.PerDeviceNodeSelection {
			set = append(set, "`perDeviceNodeSelection`")
		} else {
			errs = append(errs, field.Invalid(p.Child("perDeviceNodeSelection"), false, "must be either unset or set to true"))
		}
	}
	const oneOf = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required"
	switch len(set) {
	case 0:
		errs = append(errs, field.Required(p, oneOf))
	case 1:
	default:
		errs = append(errs, field.Invalid(p, fmt.Sprintf("{%s}", strings.Join(set, ", ")), oneOf+", but multiple fields are set"))
	}
	return errs
}

// sliceDevicesV1 is the part of validateResourceSliceSpec that checks
// spec.devices (dp): their number, each device, and, for a slice with too
// many devices, the declarative rules of each.
func (c *checkerV1) sliceDevicesV1(spec, old *resourcev1.ResourceSliceSpec, dp *field.Path) field.ErrorList {
	maxDevices := V1SliceMaxDevices
	if haveDeviceTaintsV1(spec) || haveConsumesCountersV1(spec) || haveListAttributesV1(spec) {
		maxDevices = V1SliceMaxDevicesWithAdvancedFeatures
	}
	devices := declarativeCoverage(old == nil || !semanticEqual(spec.Devices, old.Devices))
	errs := validateSetV1(spec.Devices, maxDevices, func(d resourcev1.Device, ip *field.Path) field.ErrorList {
		return c.validateDeviceV1(&d, lookupDeviceV1(old, d.Name), ip, spec.PerDeviceNodeSelection, devices)
	}, func(d resourcev1.Device) string { return d.Name }, handwrittenOnly, dp)
	if len(spec.Devices) > maxDevices && devices {
		// The declarative validation has no limit of its own and checks
		// the devices the handwritten validation skipped.
		for i := range spec.Devices {
			errs = append(errs, c.declarativeDeviceV1(&spec.Devices[i], dp.Index(i))...)
		}
	}
	return errs
}

// sharedCounterSetsV1 is the part of validateResourceSliceSpec that checks
// spec.sharedCounters (p).
func sharedCounterSetsV1(spec, old *resourcev1.ResourceSliceSpec, p *field.Path) field.ErrorList {
	// The declarative validation skips the counter sets an update left
	// unchanged (matched by name), and in a changed one what did not
	// change.
	counters := declarativeCoverage(old == nil || !semanticEqual(spec.SharedCounters, old.SharedCounters))
	return validateSetV1(spec.SharedCounters, V1SliceMaxCounterSets, func(cs resourcev1.CounterSet, cp *field.Path) field.ErrorList {
		var o *resourcev1.CounterSet
		if old != nil {
			o = lookupNamedV1(old.SharedCounters, cs.Name, func(cs *resourcev1.CounterSet) string { return cs.Name })
		}
		return validateCounterSetV1(&cs, o, cp, counters && coverageOf(cs, o))
	}, func(cs resourcev1.CounterSet) string { return cs.Name }, counters, p)
}

// declarativePartitionTypeAttributeV1: Forbidden while
// DRAPartitionableDevicesType is disabled (the registry drops the field on
// create then, so this shows on updates of slices that had it), else the
// declarative fully-qualified-name format.
func (c *checkerV1) declarativePartitionTypeAttributeV1(name string, p *field.Path) field.ErrorList {
	if !c.enabled(features.DRAPartitionableDevicesType) {
		return field.ErrorList{field.Forbidden(p, "")}
	}
	return append(validate.ResourceFullyQualifiedName(declarativeCtx, declarativeOp, p, &name, nil), c.strictSlashesV1(name, p)...)
}

// validatePartitionTypeAttributeV1: the slice must have devices that
// consume counters, and each of them must have the named attribute (by its
// full name, or bare when its domain is the driver's) as a string. A
// malformed name is left to the declarative format check.
func validatePartitionTypeAttributeV1(spec *resourcev1.ResourceSliceSpec, p *field.Path) field.ErrorList {
	name := string(*spec.PartitionTypeAttribute)
	if !haveConsumesCountersV1(spec) {
		return field.ErrorList{field.Invalid(p.Child("partitionTypeAttribute"), name, "may only be set on a slice which declares devices that consume counters")}
	}
	if malformedFullyQualifiedNameV1(name) {
		return nil
	}
	bare, _ := strings.CutPrefix(name, spec.Driver+"/")
	var errs field.ErrorList
	for i := range spec.Devices {
		d := &spec.Devices[i]
		if len(d.ConsumesCounters) == 0 {
			continue
		}
		ap := p.Child("devices").Index(i).Child("attributes").Key(name)
		attr, ok := lookupQualifiedAttributeV1(d.Attributes, name, bare)
		switch {
		case !ok:
			errs = append(errs, field.Required(ap, "device consumes counters and `partitionTypeAttribute` names this attribute, so it must be set"))
		case attr.StringValue == nil:
			errs = append(errs, field.Invalid(ap, attr, "must be a string value because `partitionTypeAttribute` names this attribute"))
		}
	}
	return errs
}

// malformedFullyQualifiedNameV1 reports whether the handwritten
// fully-qualified-name check has any error for name.
func malformedFullyQualifiedNameV1(name string) bool {
	parts := strings.Split(name, "/")
	switch len(parts) {
	case 1:
		return true
	case 2:
	default:
		return false // 1.37 does not check names with more than one '/'
	}
	domain, id := parts[0], parts[1]
	return domain == "" || id == "" || len(domain) > DriverNameMaxLength ||
		len(validation.IsDNS1123Subdomain(strings.ToLower(domain))) > 0 ||
		len(id) > V1IdentifierMaxLength || len(validation.IsCIdentifier(id)) > 0
}

// lookupQualifiedAttributeV1 finds an attribute by its full name, then by
// bare (the name without the driver's domain).
func lookupQualifiedAttributeV1(attrs map[resourcev1.QualifiedName]resourcev1.DeviceAttribute, name, bare string) (resourcev1.DeviceAttribute, bool) {
	if a, ok := attrs[resourcev1.QualifiedName(name)]; ok {
		return a, true
	}
	if bare != "" {
		a, ok := attrs[resourcev1.QualifiedName(bare)]
		return a, ok
	}
	return resourcev1.DeviceAttribute{}, false
}

func haveListAttributesV1(spec *resourcev1.ResourceSliceSpec) bool {
	for _, d := range spec.Devices {
		for _, a := range d.Attributes {
			if a.BoolValues != nil || a.IntValues != nil || a.StringValues != nil || a.VersionValues != nil {
				return true
			}
		}
	}
	return false
}

func haveDeviceTaintsV1(spec *resourcev1.ResourceSliceSpec) bool {
	for _, d := range spec.Devices {
		if len(d.Taints) > 0 {
			return true
		}
	}
	return false
}

func haveConsumesCountersV1(spec *resourcev1.ResourceSliceSpec) bool {
	for _, d := range spec.Devices {
		if len(d.ConsumesCounters) > 0 {
			return true
		}
	}
	return false
}

// lookupDeviceV1 returns the device of the stored spec with the same name.
func lookupDeviceV1(spec *resourcev1.ResourceSliceSpec, name string) *resourcev1.Device {
	if spec == nil {
		return nil
	}
	for i := range spec.Devices {
		if spec.Devices[i].Name == name {
			return &spec.Devices[i]
		}
	}
	return nil
}

// validateCounterSetV1: a name (DNS label) and at least one counter, at
// most V1SliceMaxCountersPerCounterSet, named by DNS labels. Counter values
// are any quantity. old is the stored set of that name; declarative says
// whether the declarative validation looks at the set, whose errors it
// then reports for a new name and for new counter names.
func validateCounterSetV1(cs, old *resourcev1.CounterSet, p *field.Path, declarative declarativeCoverage) field.ErrorList {
	var errs field.ErrorList
	if cs.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else {
		errs = append(errs, shortNameV1(cs.Name, p.Child("name"), declarative && old == nil)...)
	}
	var oldCounters map[string]resourcev1.Counter
	if old != nil {
		oldCounters = old.Counters
	}
	return append(errs, countersV1(cs.Counters, oldCounters, V1SliceMaxCountersPerCounterSet, p.Child("counters"), declarative)...)
}

// countersV1 is the counters rule of counter sets and of counter
// consumption: required, at most max, names DNS labels (on the map's
// path). Where the declarative validation looks at the counters, it
// checks the names the stored counters (old) do not have, even where the
// handwritten one stops at too many counters.
func countersV1(counters, old map[string]resourcev1.Counter, max int, p *field.Path, declarative declarativeCoverage) field.ErrorList {
	if len(counters) == 0 {
		return field.ErrorList{field.Required(p, "")}
	}
	declarative = declarative.ifChanged(old == nil || !semanticEqual(counters, old))
	// The declarative validation looks at the names the stored counters
	// do not have.
	nameCoverage := func(name string) declarativeCoverage { _, stored := old[name]; return declarative.ifChanged(!stored) }
	errs := validateMapV1(counters, max, DNSLabelMaxLength, func(name string, p *field.Path) field.ErrorList {
		return shortNameV1(name, p, nameCoverage(name))
	}, nil, p)
	if len(counters) > max {
		for _, name := range sortedKeys(counters) {
			if nameCoverage(name) {
				errs = append(errs, validate.ShortName(declarativeCtx, declarativeOp, p, &name, nil)...)
			}
		}
	}
	return errs
}

func validateResourcePoolV1(pool *resourcev1.ResourcePool, p *field.Path) field.ErrorList {
	errs := validatePoolNameV1(pool.Name, p.Child("name"))
	if pool.ResourceSliceCount <= 0 {
		errs = append(errs, field.Invalid(p.Child("resourceSliceCount"), pool.ResourceSliceCount, "must be greater than zero"))
	}
	if pool.Generation < 0 {
		errs = append(errs, field.Invalid(p.Child("generation"), pool.Generation, "must be greater than or equal to zero"))
	}
	return errs
}

// validateDeviceV1 validates a device of a slice; old is the stored device
// of that name on an update, declarative says whether the declarative
// validation looks at the devices (they are new or changed).
func (c *checkerV1) validateDeviceV1(d *resourcev1.Device, old *resourcev1.Device, p *field.Path, perDeviceNodeSelection *bool, declarative declarativeCoverage) field.ErrorList {
	multi := d.AllowMultipleAllocations != nil && *d.AllowMultipleAllocations
	errs := dnsLabel(d.Name, p.Child("name"))
	if n := len(d.Attributes) + len(d.Capacity); n > V1MaxAttributesAndCapacities {
		errs = append(errs, field.Invalid(p, n, fmt.Sprintf("the total number of attributes and capacities must not exceed %d", V1MaxAttributesAndCapacities)))
	}
	if n := numEntriesDeviceAttributeV1(d); n > V1MaxAttributeValues {
		errs = append(errs, field.Invalid(p, n, fmt.Sprintf("the total number of attribute values must not exceed %d", V1MaxAttributeValues)))
	}
	ap := p.Child("attributes")
	errs = append(errs, validateMapV1(d.Attributes, -1, v1AttributeAndCapacityKeyTruncation, c.qualifiedNameKeyV1, nil, ap)...)
	for _, name := range sortedKeys(d.Attributes) {
		a := d.Attributes[name]
		short := ap.Key(truncateIfTooLongV1(string(name), v1AttributeAndCapacityKeyTruncation))
		errs = append(errs, validateDeviceAttributeV1(&a, short, ap.Key(string(name)), declarative)...)
	}
	if old == nil || !semanticEqual(old.Capacity, d.Capacity) {
		capacity := validateSingleAllocatableDeviceCapacityV1
		if multi {
			capacity = c.validateMultiAllocatableDeviceCapacityV1
		}
		errs = append(errs, validateMapV1(d.Capacity, -1, v1AttributeAndCapacityKeyTruncation, c.qualifiedNameKeyV1, capacity, p.Child("capacity"))...)
	}
	tp := p.Child("taints")
	if old == nil || !semanticEqual(old.Taints, d.Taints) {
		errs = append(errs, validateSliceV1(d.Taints, V1DeviceTaintsMaxLength, func(t resourcev1.DeviceTaint, ip *field.Path) field.ErrorList {
			return validateDeviceTaintV1(&t, nil, ip)
		}, tp)...)
		if declarative && len(d.Taints) > V1DeviceTaintsMaxLength {
			errs = append(errs, declarativeTaintsV1(d.Taints, tp)...)
		}
	} else if declarative {
		errs = append(errs, declarativeTaintsV1(d.Taints, tp)...)
	}
	errs = append(errs, validateSetV1(d.ConsumesCounters, V1SliceMaxDeviceCounterConsumptionsPerDevice,
		func(cc resourcev1.DeviceCounterConsumption, cp *field.Path) field.ErrorList {
			return validateDeviceCounterConsumptionV1(&cc, cp, declarative)
		},
		func(cc resourcev1.DeviceCounterConsumption) string { return cc.CounterSet }, declarative, p.Child("consumesCounters"))...)

	if perDeviceNodeSelection != nil && *perDeviceNodeSelection {
		const oneOf = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec"
		var set []string
		if d.NodeName != nil {
			if *d.NodeName != "" {
				set = append(set, "`nodeName`")
				errs = append(errs, validateNodeNameV1(*d.NodeName, p.Child("nodeName"))...)
			} else {
				errs = append(errs, field.Invalid(p.Child("nodeName"), "", "must not be empty"))
			}
		}
		if d.NodeSelector != nil {
			set = append(set, "`nodeSelector`")
			errs = append(errs, nodeSelectorV1(d.NodeSelector, p.Child("nodeSelector"))...)
		}
		if d.AllNodes != nil {
			if *d.AllNodes {
				set = append(set, "`allNodes`")
			} else {
				errs = append(errs, field.Invalid(p.Child("allNodes"), false, "must be either unset or set to true"))
			}
		}
		switch len(set) {
		case 0:
			errs = append(errs, field.Required(p, oneOf))
		case 1:
		default:
			errs = append(errs, field.Invalid(p, fmt.Sprintf("{%s}", strings.Join(set, ", ")), oneOf))
		}
	} else if d.NodeName != nil || d.NodeSelector != nil || d.AllNodes != nil {
		errs = append(errs, field.Invalid(p, nil, "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec"))
	}

	errs = append(errs, validateDeviceBindingParametersV1(d.BindingConditions, d.BindingFailureConditions, p)...)
	return append(errs, validateNodeAllocatableResourcesV1(d.NodeAllocatableResources, d.Capacity, p.Child("nodeAllocatableResources"), declarative)...)
}

func (c *checkerV1) qualifiedNameKeyV1(name resourcev1.QualifiedName, p *field.Path) field.ErrorList {
	return c.validateQualifiedNameV1(string(name), p)
}

// declarativeDeviceV1 applies every declarative rule of a device, for
// devices the handwritten validation did not look at.
func (c *checkerV1) declarativeDeviceV1(d *resourcev1.Device, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, name := range sortedKeys(d.Attributes) {
		a := d.Attributes[name]
		errs = append(errs, declarativeAttributeUnionV1(&a, p.Child("attributes").Key(string(name)))...)
	}
	cp := p.Child("consumesCounters")
	errs = append(errs, validateSetV1(d.ConsumesCounters, V1SliceMaxDeviceCounterConsumptionsPerDevice,
		func(cc resourcev1.DeviceCounterConsumption, ip *field.Path) field.ErrorList {
			var errs field.ErrorList
			if cc.CounterSet == "" {
				errs = append(errs, field.Required(ip.Child("counterSet"), ""))
			} else {
				errs = append(errs, validate.ShortName(declarativeCtx, declarativeOp, ip.Child("counterSet"), &cc.CounterSet, nil)...)
			}
			if len(cc.Counters) == 0 {
				errs = append(errs, field.Required(ip.Child("counters"), ""))
			}
			for _, name := range sortedKeys(cc.Counters) {
				errs = append(errs, validate.ShortName(declarativeCtx, declarativeOp, ip.Child("counters"), &name, nil)...)
			}
			return append(errs, declarativeCompatibilityGroupsV1(cc.CompatibilityGroups, ip.Child("compatibilityGroups"))...)
		},
		func(cc resourcev1.DeviceCounterConsumption) string { return cc.CounterSet }, coveredByDeclarative,

		cp)...)
	errs = append(errs, declarativeTaintsV1(d.Taints, p.Child("taints"))...)
	if n := len(d.BindingConditions); n > V1BindingConditionsMaxSize {
		errs = append(errs, field.TooMany(p.Child("bindingConditions"), n, V1BindingConditionsMaxSize).WithOrigin("maxItems"))
	}
	if n := len(d.BindingFailureConditions); n > V1BindingFailureConditionsMaxSize {
		errs = append(errs, field.TooMany(p.Child("bindingFailureConditions"), n, V1BindingFailureConditionsMaxSize).WithOrigin("maxItems"))
	}
	np := p.Child("nodeAllocatableResources")
	for _, name := range sortedKeys(d.NodeAllocatableResources) {
		if m := d.NodeAllocatableResources[name].Mapping; m != nil {
			errs = append(errs, declarativeNodeAllocatableMappingV1(m, np.Key(string(name)).Child("mapping"))...)
		}
	}
	return errs
}

// declarativeTaintsV1: every taint needs an effect, one of NoExecute,
// NoSchedule, None.
func declarativeTaintsV1(taints []resourcev1.DeviceTaint, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range taints {
		ep := p.Index(i).Child("effect")
		if taints[i].Effect == "" {
			errs = append(errs, field.Required(ep, ""))
		} else {
			errs = append(errs, validate.Enum(declarativeCtx, declarativeOp, ep, &taints[i].Effect, nil, v1TaintEffects, nil)...)
		}
	}
	return errs
}

// validateNodeAllocatableResourcesV1: each key a node-allocatable
// resource (cpu, memory, hugepages-*), each entry with a mapping or an
// overhead. Where the declarative validation looks at the device, also the
// declarative union of the mapping (declarativeNodeAllocatableMappingV1).
func validateNodeAllocatableResourcesV1(resources map[corev1.ResourceName]resourcev1.NodeAllocatableResource, capacity map[resourcev1.QualifiedName]resourcev1.DeviceCapacity, p *field.Path, declarative declarativeCoverage) field.ErrorList {
	var errs field.ErrorList
	for _, name := range sortedKeys(resources) {
		r := resources[name]
		kp := p.Key(string(name))
		if !isNodeAllocatableResourceNameV1(name) {
			errs = append(errs, field.Invalid(kp, name, "must be a node allocatable resource name"))
		}
		if r.Mapping == nil && r.Overhead == nil {
			errs = append(errs, field.Required(kp, "at least one of mapping or overhead must be set"))
		}
		if r.Mapping != nil {
			errs = append(errs, validateNodeAllocatableMappingV1(r.Mapping, capacity, kp.Child("mapping"))...)
			if declarative {
				errs = append(errs, declarativeNodeAllocatableMappingV1(r.Mapping, kp.Child("mapping"))...)
			}
		}
		if r.Overhead != nil {
			errs = append(errs, validateNodeAllocatableOverheadMappingV1(r.Overhead, kp.Child("overhead"))...)
		}
	}
	return errs
}

// isNodeAllocatableResourceNameV1 is 1.37's IsNodeAllocatableResourceName.
func isNodeAllocatableResourceNameV1(name corev1.ResourceName) bool {
	return name == corev1.ResourceCPU || name == corev1.ResourceMemory || strings.HasPrefix(string(name), corev1.ResourceHugePagesPrefix)
}

// validateNodeAllocatableMappingV1: capacityKey non-empty and a capacity
// of the device, capacityKey and capacityMultiplier set together,
// multipliers positive.
func validateNodeAllocatableMappingV1(m *resourcev1.NodeAllocatableMapping, capacity map[resourcev1.QualifiedName]resourcev1.DeviceCapacity, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if m.CapacityKey != nil {
		if *m.CapacityKey == "" {
			errs = append(errs, field.Invalid(p.Child("capacityKey"), "", "capacityKey must not be an empty string"))
		} else if _, ok := capacity[*m.CapacityKey]; !ok {
			errs = append(errs, field.NotFound(p.Child("capacityKey"), *m.CapacityKey))
		}
		if m.CapacityMultiplier == nil {
			errs = append(errs, field.Required(p.Child("capacityMultiplier"), "capacityMultiplier is required when capacityKey is set").WithOrigin("dependentRequired"))
		} else if m.CapacityMultiplier.Sign() <= 0 {
			errs = append(errs, field.Invalid(p.Child("capacityMultiplier"), m.CapacityMultiplier.String(), "must be positive"))
		}
	}
	if m.DeviceMultiplier != nil && m.DeviceMultiplier.Sign() <= 0 {
		errs = append(errs, field.Invalid(p.Child("deviceMultiplier"), m.DeviceMultiplier.String(), "must be positive"))
	}
	if m.CapacityMultiplier != nil && m.CapacityKey == nil {
		errs = append(errs, field.Required(p.Child("capacityKey"), "capacityKey is required when capacityMultiplier is set").WithOrigin("dependentRequired"))
	}
	return errs
}

var v1NodeAllocatableMappingUnion = validate.NewUnionMembership(validate.NewUnionMember("capacityKey"), validate.NewUnionMember("deviceMultiplier"))

// declarativeNodeAllocatableMappingV1: exactly one of capacityKey and
// deviceMultiplier.
func declarativeNodeAllocatableMappingV1(m *resourcev1.NodeAllocatableMapping, p *field.Path) field.ErrorList {
	return validate.Union(declarativeCtx, declarativeOp, p, m, nil, v1NodeAllocatableMappingUnion,
		func(m *resourcev1.NodeAllocatableMapping) bool { return m != nil && m.CapacityKey != nil },
		func(m *resourcev1.NodeAllocatableMapping) bool { return m != nil && m.DeviceMultiplier != nil })
}

// validateNodeAllocatableOverheadMappingV1: perPod or perContainer, not
// negative.
func validateNodeAllocatableOverheadMappingV1(o *resourcev1.NodeAllocatableOverhead, p *field.Path) field.ErrorList {
	if o.PerPod == nil && o.PerContainer == nil {
		return field.ErrorList{field.Invalid(p, "", "at least one of perPod or perContainer must be set")}
	}
	var errs field.ErrorList
	if o.PerPod != nil && o.PerPod.Sign() < 0 {
		errs = append(errs, field.Invalid(p.Child("perPod"), o.PerPod.String(), "must be non-negative"))
	}
	if o.PerContainer != nil && o.PerContainer.Sign() < 0 {
		errs = append(errs, field.Invalid(p.Child("perContainer"), o.PerContainer.String(), "must be non-negative"))
	}
	return errs
}

// numEntriesDeviceAttributeV1 counts attribute values: a scalar (or an
// attribute without a non-empty list) counts as one, a list as its items.
func numEntriesDeviceAttributeV1(d *resourcev1.Device) int {
	n := 0
	for _, a := range d.Attributes {
		items := len(a.BoolValues) + len(a.IntValues) + len(a.StringValues) + len(a.VersionValues)
		if items == 0 {
			n++
		} else {
			n += items
		}
	}
	return n
}

// validateDeviceCounterConsumptionV1: a counterSet (DNS label) and at least
// one counter, at most V1SliceMaxCountersPerDeviceCounterConsumption. With
// declarative, the declarative rules of compatibilityGroups.
func validateDeviceCounterConsumptionV1(cc *resourcev1.DeviceCounterConsumption, p *field.Path, declarative declarativeCoverage) field.ErrorList {
	var errs field.ErrorList
	if cc.CounterSet == "" {
		errs = append(errs, field.Required(p.Child("counterSet"), ""))
	} else {
		errs = append(errs, shortNameV1(cc.CounterSet, p.Child("counterSet"), declarative)...)
	}
	errs = append(errs, countersV1(cc.Counters, nil, V1SliceMaxCountersPerDeviceCounterConsumption, p.Child("counters"), declarative)...)
	if declarative {
		errs = append(errs, declarativeCompatibilityGroupsV1(cc.CompatibilityGroups, p.Child("compatibilityGroups"))...)
	}
	return errs
}

// declarativeCompatibilityGroupsV1: at most
// V1DeviceCompatibilityGroupsMaxSize groups (nothing else checked when
// more), each a DNS label, no duplicates.
func declarativeCompatibilityGroupsV1(groups []string, p *field.Path) field.ErrorList {
	if len(groups) > V1DeviceCompatibilityGroupsMaxSize {
		return field.ErrorList{field.TooMany(p, len(groups), V1DeviceCompatibilityGroupsMaxSize).WithOrigin("maxItems")}
	}
	var errs field.ErrorList
	for i := range groups {
		errs = append(errs, validate.ShortName(declarativeCtx, declarativeOp, p.Index(i), &groups[i], nil)...)
	}
	return append(errs, duplicatesV1(groups, self[string], coveredByDeclarative, p)...)
}

// attributeUnionDetailV1 is the message of the handwritten "exactly one
// value" rule; the declarative union words it differently, which is how
// v1beta1DeclarativePathsV1 tells the two apart.
const attributeUnionDetailV1 = "exactly one value must be specified"

var v1AttributeUnion = validate.NewUnionMembership(
	validate.NewUnionMember("int"), validate.NewUnionMember("bool"), validate.NewUnionMember("string"), validate.NewUnionMember("version"),
	validate.NewUnionMember("ints"), validate.NewUnionMember("bools"), validate.NewUnionMember("strings"), validate.NewUnionMember("versions"))

// declarativeAttributeUnionV1 is the declarative union of an attribute's
// values, where an empty list counts as unset.
func declarativeAttributeUnionV1(a *resourcev1.DeviceAttribute, p *field.Path) field.ErrorList {
	return validate.Union(declarativeCtx, declarativeOp, p, a, nil, v1AttributeUnion,
		func(a *resourcev1.DeviceAttribute) bool { return a.IntValue != nil },
		func(a *resourcev1.DeviceAttribute) bool { return a.BoolValue != nil },
		func(a *resourcev1.DeviceAttribute) bool { return a.StringValue != nil },
		func(a *resourcev1.DeviceAttribute) bool { return a.VersionValue != nil },
		func(a *resourcev1.DeviceAttribute) bool { return len(a.IntValues) != 0 },
		func(a *resourcev1.DeviceAttribute) bool { return len(a.BoolValues) != 0 },
		func(a *resourcev1.DeviceAttribute) bool { return len(a.StringValues) != 0 },
		func(a *resourcev1.DeviceAttribute) bool { return len(a.VersionValues) != 0 })
}

// validateDeviceAttributeV1: exactly one value; strings and versions (and
// their list items) at most V1AttributeValueMaxLength bytes, versions
// semver; a list, if present, not empty. p has the attribute's name
// shortened as 1.37's handwritten validation does, keyPath the whole name.
// Where the declarative validation looks at the device, its union (which
// lists the members) reports the "exactly one" rule on keyPath and
// replaces the handwritten error, unless the paths differ (a long name),
// when both are reported. The union counts an empty list as unset where
// the handwritten rule counts it as set, so
// `ints: []` alone is an error of both kinds and `int: 1, ints: []` keeps
// the handwritten one. (Over protobuf, or JSON encoded with omitempty, an
// empty list arrives as no list at all.)
func validateDeviceAttributeV1(a *resourcev1.DeviceAttribute, p, keyPath *field.Path, declarative declarativeCoverage) field.ErrorList {
	var errs field.ErrorList
	n := 0
	if a.BoolValue != nil {
		n++
	}
	if a.IntValue != nil {
		n++
	}
	if a.StringValue != nil {
		n++
		errs = append(errs, validateDeviceAttributeStringValueV1(*a.StringValue, p.Child("string"))...)
	}
	if a.VersionValue != nil {
		n++
		errs = append(errs, validateDeviceAttributeVersionValueV1(*a.VersionValue, p.Child("version"))...)
	}
	notEmpty := func(set bool, size int, value any, lp *field.Path) {
		if !set {
			return
		}
		n++
		if size == 0 {
			errs = append(errs, field.Invalid(lp, value, "must not be empty if specified"))
		}
	}
	notEmpty(a.BoolValues != nil, len(a.BoolValues), a.BoolValues, p.Child("bools"))
	notEmpty(a.IntValues != nil, len(a.IntValues), a.IntValues, p.Child("ints"))
	notEmpty(a.StringValues != nil, len(a.StringValues), a.StringValues, p.Child("strings"))
	for i, s := range a.StringValues {
		errs = append(errs, validateDeviceAttributeStringValueV1(s, p.Child("strings").Index(i)).WithOrigin("maxBytes")...)
	}
	notEmpty(a.VersionValues != nil, len(a.VersionValues), a.VersionValues, p.Child("versions"))
	for i, v := range a.VersionValues {
		errs = append(errs, validateDeviceAttributeVersionValueV1(v, p.Child("versions").Index(i))...)
	}

	var union field.ErrorList
	if declarative {
		union = declarativeAttributeUnionV1(a, keyPath)
	}
	if len(union) == 0 || keyPath.String() != p.String() {
		switch n {
		case 0:
			errs = append(errs, field.Invalid(p, "", attributeUnionDetailV1).WithOrigin("union"))
		case 1:
		default:
			errs = append(errs, field.Invalid(p, *a, attributeUnionDetailV1).WithOrigin("union"))
		}
	}
	return append(errs, union...)
}

func validateDeviceAttributeStringValueV1(s string, p *field.Path) field.ErrorList {
	if len(s) > V1AttributeValueMaxLength {
		return field.ErrorList{field.TooLong(p, "", V1AttributeValueMaxLength)}
	}
	return nil
}

func validateDeviceAttributeVersionValueV1(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !semverPattern.MatchString(v) {
		errs = append(errs, field.Invalid(p, v, semverMessage))
	}
	if len(v) > V1AttributeValueMaxLength {
		errs = append(errs, field.TooLong(p, "", V1AttributeValueMaxLength))
	}
	return errs
}

// validateMultiAllocatableDeviceCapacityV1 checks the requestPolicy of a
// capacity of a device that allows multiple allocations.
func (c *checkerV1) validateMultiAllocatableDeviceCapacityV1(capacity resourcev1.DeviceCapacity, p *field.Path) field.ErrorList {
	if capacity.RequestPolicy == nil {
		return nil
	}
	return c.validateRequestPolicyV1(capacity.Value, capacity.RequestPolicy, p.Child("requestPolicy"))
}

// validateSingleAllocatableDeviceCapacityV1: a requestPolicy needs
// allowMultipleAllocations.
func validateSingleAllocatableDeviceCapacityV1(capacity resourcev1.DeviceCapacity, p *field.Path) field.ErrorList {
	if capacity.RequestPolicy != nil {
		return field.ErrorList{field.Forbidden(p.Child("requestPolicy"), "allowMultipleAllocations must be true")}
	}
	return nil
}

// validateRequestPolicyV1 includes validateValidRequestValues: not both
// validValues and validRange; either needs a default.
func (c *checkerV1) validateRequestPolicyV1(max apiresource.Quantity, policy *resourcev1.CapacityRequestPolicy, p *field.Path) field.ErrorList {
	switch {
	case len(policy.ValidValues) > 0 && policy.ValidRange != nil:
		return field.ErrorList{field.Forbidden(p, `exactly one policy can be specified, cannot specify "validValues" and "validRange" at the same time`)}
	case len(policy.ValidValues) > 0:
		if policy.Default == nil {
			return field.ErrorList{field.Required(p.Child("default"), "required when validValues is defined")}
		}
		return c.validateRequestPolicyValidValuesV1(*policy.Default, max, policy.ValidValues, p.Child("validValues"))
	case policy.ValidRange != nil:
		if policy.Default == nil {
			return field.ErrorList{field.Required(p.Child("default"), "required when validRange is defined")}
		}
		return c.validateRequestPolicyRangeV1(*policy.Default, max, *policy.ValidRange, p.Child("validRange"))
	}
	return nil
}

// validateRequestPolicyValidValuesV1: ascending, at most
// V1CapacityRequestPolicyDiscreteMaxOptions unique values (compared as
// integers, or as decimals with DRAFractionalCapacityRange), none above
// the capacity, one of them the default. Errors about the default are
// reported on validValues.
func (c *checkerV1) validateRequestPolicyValidValuesV1(def, max apiresource.Quantity, values []apiresource.Quantity, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := 0; i+1 < len(values); i++ {
		if values[i].Cmp(values[i+1]) > 0 {
			errs = append(errs, field.Invalid(p.Index(i+1), values[i+1].String(), "values must be sorted in ascending order"))
		}
	}
	key := quantityKeyIntV1
	if c.enabled(features.DRAFractionalCapacityRange) {
		key = quantityKeyAsDecV1
	}
	foundDefault := false
	errs = append(errs, validateSetV1(values, V1CapacityRequestPolicyDiscreteMaxOptions, func(v apiresource.Quantity, vp *field.Path) field.ErrorList {
		if v.Cmp(def) == 0 {
			foundDefault = true
		}
		if v.Cmp(max) > 0 {
			return field.ErrorList{field.Invalid(vp, v.String(), fmt.Sprintf("option is larger than capacity value: %s", max.String()))}
		}
		return nil
	}, key, handwrittenOnly, p)...)
	if !foundDefault {
		errs = append(errs, field.Invalid(p, def.String(), "default value is not valid according to the requestPolicy"))
	}
	return errs
}

func quantityKeyIntV1(q apiresource.Quantity) string { return strconv.FormatInt(q.Value(), 10) }

func quantityKeyAsDecV1(q apiresource.Quantity) string { return q.AsDec().String() }

// validateRequestPolicyRangeV1: min required and at most the capacity;
// max, if set, between min and the capacity; the default within [min,
// max]; step, if set, positive, min+step at most the capacity, and default
// and max whole steps above min. The step arithmetic is done on integers,
// which must lie in [0, MaxInt64], or, with DRAFractionalCapacityRange and
// a fractional value, on milli-units, which every value must be exactly
// representable in.
func (c *checkerV1) validateRequestPolicyRangeV1(def, capacity apiresource.Quantity, r resourcev1.CapacityRequestPolicyRange, p *field.Path) field.ErrorList {
	if r.Min == nil {
		return field.ErrorList{field.Required(p.Child("min"), "required when validRange is defined")}
	}
	var errs field.ErrorList
	if r.Min.Cmp(capacity) > 0 {
		errs = append(errs, field.Invalid(p.Child("min"), r.Min.String(), fmt.Sprintf("min is larger than capacity value: %s", capacity.String())))
	}
	if def.Cmp(*r.Min) < 0 {
		errs = append(errs, field.Invalid(p.Child("default"), def.String(), fmt.Sprintf("default is less than min: %s", r.Min.String())))
	}
	if r.Max != nil {
		if r.Min.Cmp(*r.Max) > 0 {
			errs = append(errs, field.Invalid(p.Child("max"), r.Min.String(), fmt.Sprintf("min is larger than max: %s", r.Max.String())))
		}
		if r.Max.Cmp(capacity) > 0 {
			errs = append(errs, field.Invalid(p.Child("max"), r.Max.String(), fmt.Sprintf("max is larger than capacity value: %s", capacity.String())))
		}
		if def.Cmp(*r.Max) > 0 {
			errs = append(errs, field.Invalid(p.Child("default"), def.String(), fmt.Sprintf("default is more than max: %s", r.Max.String())))
		}
	}
	bounds := []struct {
		q    *apiresource.Quantity
		name string
	}{{&def, "default"}, {r.Min, "min"}, {r.Max, "max"}, {r.Step, "step"}}
	useMilli := false
	if c.enabled(features.DRAFractionalCapacityRange) {
		useMilli = rangeHasFractionalV1(r) || isFractionalQuantityV1(def)
		if useMilli {
			unsafe := false
			for _, b := range bounds {
				if b.q == nil {
					continue
				}
				if milli := apiresource.NewMilliQuantity(b.q.MilliValue(), b.q.Format); b.q.Cmp(*milli) != 0 {
					errs = append(errs, field.Invalid(p.Child(b.name), b.q.String(), "value cannot be represented as a milli value"))
					unsafe = true
				}
			}
			if unsafe {
				return errs
			}
		}
	}
	if r.Step == nil {
		return errs
	}
	if r.Step.Sign() <= 0 {
		return append(errs, field.Invalid(p.Child("step"), r.Step.String(), "must be greater than zero"))
	}
	added := r.Min.DeepCopy()
	added.Add(*r.Step)
	if added.Cmp(capacity) > 0 {
		errs = append(errs, field.Invalid(p.Child("step"), r.Step.String(), fmt.Sprintf("one step %s is larger than capacity value: %s", added.String(), capacity.String())))
	}
	if !useMilli {
		unsafe := false
		for _, b := range bounds {
			if b.q == nil {
				continue
			}
			if e := validateInt64RangeV1(*b.q, p.Child(b.name)); len(e) > 0 {
				errs = append(errs, e...)
				unsafe = true
			}
		}
		if unsafe {
			return errs
		}
	}
	errs = append(errs, validateRequestPolicyRangeStepV1(def, *r.Min, *r.Step, useMilli, p.Child("step"))...)
	if r.Max != nil {
		errs = append(errs, validateRequestPolicyRangeStepV1(*r.Max, *r.Min, *r.Step, useMilli, p.Child("step"))...)
	}
	return errs
}

// validateRequestPolicyRangeStepV1: value - min must be a multiple of
// step.
func validateRequestPolicyRangeStepV1(value, min, step apiresource.Quantity, useMilli bool, p *field.Path) field.ErrorList {
	var v, m, s int64
	if useMilli {
		v, m, s = value.MilliValue(), min.MilliValue(), step.MilliValue()
	} else {
		v, m, s = value.Value(), min.Value(), step.Value()
	}
	if (v-m)%s != 0 {
		return field.ErrorList{field.Invalid(p, value.String(), fmt.Sprintf("value is not a multiple of a given step (%s) from (%s)", step.String(), min.String()))}
	}
	return nil
}

// validateInt64RangeV1: a range bound must lie in [0, MaxInt64] for the
// integer step arithmetic.
func validateInt64RangeV1(q apiresource.Quantity, p *field.Path) field.ErrorList {
	if q.Sign() < 0 {
		return field.ErrorList{field.Invalid(p, q.String(), apimachineryvalidation.IsNegativeErrorMsg)}
	}
	if q.CmpInt64(math.MaxInt64) > 0 {
		return field.ErrorList{field.Invalid(p, q.String(), "must not be larger than 9223372036854775807")}
	}
	return nil
}

func rangeHasFractionalV1(r resourcev1.CapacityRequestPolicyRange) bool {
	for _, q := range []*apiresource.Quantity{r.Min, r.Max, r.Step} {
		if q != nil && isFractionalQuantityV1(*q) {
			return true
		}
	}
	return false
}

// isFractionalQuantityV1 reports whether q has a fractional part.
func isFractionalQuantityV1(q apiresource.Quantity) bool {
	d := q.AsDec()
	if d.Scale() <= 0 {
		return false
	}
	unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale())), nil)
	return new(big.Int).Rem(d.UnscaledBig(), unit).Sign() != 0
}
