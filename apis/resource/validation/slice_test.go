package validation

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource/features"
)

// sliceWith is v1Slice changed by f; devWith changes its first device.
func sliceWith(f func(s *resourcev1.ResourceSliceSpec)) *resourcev1.ResourceSlice {
	return v1Slice(func(s *resourcev1.ResourceSlice) { f(&s.Spec) })
}

func devWith(f func(d *resourcev1.Device)) *resourcev1.ResourceSlice {
	return sliceWith(func(s *resourcev1.ResourceSliceSpec) { f(&s.Devices[0]) })
}

func counterSliceWith(f func(s *resourcev1.ResourceSliceSpec)) *resourcev1.ResourceSlice {
	return v1CounterSlice(func(s *resourcev1.ResourceSlice) { f(&s.Spec) })
}

// plainDevice has no advanced features.
func plainDevice(i int) resourcev1.Device { return resourcev1.Device{Name: fmt.Sprintf("dev-%d", i)} }

const d0 = "spec.devices[0]"

// withPartitions enables the gate partitionTypeAttribute needs.
var withPartitions = gatesV1{features.DRAPartitionableDevicesType: true}

func TestV1SliceSpec(t *testing.T) {
	cases := []v1Case{
		{name: "driver required", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.Driver = "" }), want: []string{"Required spec.driver"}},
		{name: "driver (handwritten wording)", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.Driver = "dra_example.com" }),
			want: []string{"Invalid spec.driver"}, details: []string{"Invalid spec.driver: a lowercase RFC 1123 subdomain"},
			absent: []string{"Invalid spec.driver: 'Example.com'"}},
		{name: "driver too long (bytes)", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.Driver = strings.Repeat("d", 64) }),
			want: []string{"TooLong spec.driver"}, details: []string{"TooLong spec.driver: may not be more than 63 bytes"}},
		{name: "upper-case driver, Strict", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.Driver = "DRA.example.com" }), strict: true,
			want: []string{"Invalid spec.driver"}},
		{name: "pool name required", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.Pool.Name = "" }), want: []string{"Required spec.pool.name"}},
		{name: "pool name", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.Pool.Name = "a//B" }), want: []string{"Invalid spec.pool.name"}},
		{name: "pool name too long", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.Pool.Name = strings.Repeat("a/", 127) + "a" }),
			want: []string{"TooLong spec.pool.name"}},
		{name: "slice count", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.Pool.ResourceSliceCount = 0 }), want: []string{"Invalid spec.pool.resourceSliceCount"}},
		{name: "generation", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.Pool.Generation = -1 }), want: []string{"Invalid spec.pool.generation"}},
		{name: "no node selection", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.NodeName = nil }), want: []string{"Required spec"}},
		{name: "two node selections", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.AllNodes = ptr(true) }), want: []string{"Invalid spec"},
			details: []string{"Invalid spec: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set"}},
		{name: "empty node name", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.NodeName = ptr("") }),
			want: []string{"Invalid spec.nodeName", "Required spec"}},
		{name: "node name", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.NodeName = ptr("Node_1") }), want: []string{"Invalid spec.nodeName"}},
		{name: "allNodes false", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.NodeName, s.AllNodes = nil, ptr(false) }),
			want: []string{"Invalid spec.allNodes", "Required spec"}},
		{name: "perDeviceNodeSelection false", obj: sliceWith(func(s *resourcev1.ResourceSliceSpec) {
			s.PerDeviceNodeSelection, s.Devices = ptr(false), []resourcev1.Device{plainDevice(0)}
			s.PartitionTypeAttribute = nil
		}), want: []string{"Invalid spec.perDeviceNodeSelection", "Required spec"}},
		{name: "node selector terms", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) {
			s.NodeName, s.NodeSelector = nil, nodeSelectorFor("node-1")
			s.NodeSelector.NodeSelectorTerms = append(s.NodeSelector.NodeSelectorTerms, s.NodeSelector.NodeSelectorTerms[0])
		}), want: []string{"Invalid spec.nodeSelector.nodeSelectorTerms"}},
		{name: "node selector", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) {
			s.NodeName, s.NodeSelector = nil, nodeSelectorFor("Node_1")
		}), want: []string{"Invalid spec.nodeSelector.nodeSelectorTerms[0].matchFields[0].values[0]"}},
		{name: "counters and devices", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.Devices = []resourcev1.Device{plainDevice(0)} }),
			want: []string{"Invalid spec"}, details: []string{"Invalid spec: only one of `sharedCounters` or `devices` is allowed"}},
		{name: "skip prepare alone", obj: sliceWith(func(s *resourcev1.ResourceSliceSpec) {
			s.SkipNodeOperations = []resourcev1.SkipNodeOperation{resourcev1.SkipNodeOperationNodePrepareResources}
		}), gates: withPartitions, want: []string{"Invalid spec.skipNodeOperations"}},
		{name: "skip operation values", obj: sliceWith(func(s *resourcev1.ResourceSliceSpec) {
			s.SkipNodeOperations = []resourcev1.SkipNodeOperation{resourcev1.SkipNodeOperationNodeUnprepareResources, "Later", resourcev1.SkipNodeOperationNodeUnprepareResources}
		}), gates: withPartitions, want: []string{"NotSupported spec.skipNodeOperations[1]", "Duplicate spec.skipNodeOperations[2]"},
			details: []string{`NotSupported spec.skipNodeOperations[1]: supported values: "*", "NodePrepareResources", "NodeUnprepareResources"`}},
		{name: "update: immutable fields", op: opUpdate, old: v1CounterSlice(), obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) {
			s.Driver, s.Pool.Name, s.NodeName = "other.example.com", "other", ptr("node-2")
		}), want: []string{"Invalid spec.driver", "Invalid spec.pool.name", "Invalid spec.nodeName"}},
		{name: "update: node name set", op: opUpdate, old: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.NodeName, s.AllNodes = nil, ptr(true) }),
			obj: v1CounterSlice(), want: []string{"Invalid spec.nodeName"}},
		{name: "update: unchanged skip operations are not checked by value", op: opUpdate, gates: withPartitions,
			old: sliceWith(func(s *resourcev1.ResourceSliceSpec) { s.SkipNodeOperations = []resourcev1.SkipNodeOperation{"Old"} }),
			obj: sliceWith(func(s *resourcev1.ResourceSliceSpec) {
				s.SkipNodeOperations = []resourcev1.SkipNodeOperation{"Old"}
				s.Pool.Generation++
			})},
		{name: "name", obj: v1CounterSlice(func(s *resourcev1.ResourceSlice) { s.Name = "Slice" }), want: []string{"Invalid metadata.name"}},
	}
	runV1Cases(t, cases)
}

func TestV1SliceDevices(t *testing.T) {
	plain := func(n int) []resourcev1.Device {
		out := make([]resourcev1.Device, n)
		for i := range out {
			out[i] = plainDevice(i)
		}
		return out
	}
	runV1Cases(t, []v1Case{
		{name: "max devices", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) {
			s.SharedCounters, s.Devices = nil, plain(V1SliceMaxDevices)
		})},
		{name: "too many devices", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) {
			s.SharedCounters, s.Devices = nil, plain(V1SliceMaxDevices+1)
			s.Devices[0].Name = "BAD" // not checked
		}), want: []string{"TooMany spec.devices"}, details: []string{"TooMany spec.devices: must have at most 128 items"}},
		{name: "too many devices with taints", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) {
			s.SharedCounters, s.Devices = nil, plain(V1SliceMaxDevicesWithAdvancedFeatures+1)
			s.Devices[3].Taints = []resourcev1.DeviceTaint{{Key: "k", Effect: resourcev1.DeviceTaintEffectNoSchedule}}
		}), want: []string{"TooMany spec.devices"}, details: []string{"TooMany spec.devices: must have at most 64 items"}},
		{name: "too many devices with list attributes: declarative rules still apply", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) {
			s.SharedCounters, s.Devices = nil, plain(V1SliceMaxDevicesWithAdvancedFeatures+1)
			s.Devices[1].Attributes = map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{"a": {IntValues: []int64{1}}, "b": {}}
			s.Devices[2].Taints = []resourcev1.DeviceTaint{{Key: "BAD KEY", Effect: "Soon"}} // the key is handwritten only
			s.Devices[2].ConsumesCounters = []resourcev1.DeviceCounterConsumption{{CounterSet: "c", Counters: map[string]resourcev1.Counter{"x": {}}, CompatibilityGroups: []string{"G"}}}
		}), want: []string{"TooMany spec.devices", "Invalid spec.devices[1].attributes[b]", "NotSupported spec.devices[2].taints[0].effect",
			"Invalid spec.devices[2].consumesCounters[0].compatibilityGroups[0]"}},
		{name: "duplicate device", obj: sliceWith(func(s *resourcev1.ResourceSliceSpec) { s.Devices[1].Name = "gpu-0" }), gates: withPartitions,
			want: []string{"Duplicate spec.devices[1]"}},
		{name: "device name", obj: devWith(func(d *resourcev1.Device) { d.Name = "GPU" }), gates: withPartitions, want: []string{"Invalid " + d0 + ".name"}},
		{name: "per-device node selection off", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) {
			s.SharedCounters = nil
			s.Devices = []resourcev1.Device{plainDevice(0)}
			s.Devices[0].AllNodes = ptr(true)
		}), want: []string{"Invalid " + d0}, details: []string{"Invalid " + d0 + ": can only be set if `perDeviceNodeSelection` is set to true"}},
		{name: "per-device: none", obj: devWith(func(d *resourcev1.Device) { d.NodeName = nil }), gates: withPartitions, want: []string{"Required " + d0}},
		{name: "per-device: two", obj: devWith(func(d *resourcev1.Device) { d.AllNodes = ptr(true) }), gates: withPartitions, want: []string{"Invalid " + d0},
			details: []string{"Invalid " + d0 + ": exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection`"}},
		{name: "per-device: empty node name", obj: devWith(func(d *resourcev1.Device) { d.NodeName = ptr("") }), gates: withPartitions,
			want: []string{"Invalid " + d0 + ".nodeName", "Required " + d0}},
		{name: "per-device: node name", obj: devWith(func(d *resourcev1.Device) { d.NodeName = ptr("-node") }), gates: withPartitions,
			want: []string{"Invalid " + d0 + ".nodeName"}},
		{name: "per-device: allNodes false", obj: devWith(func(d *resourcev1.Device) { d.NodeName, d.AllNodes = nil, ptr(false) }), gates: withPartitions,
			want: []string{"Invalid " + d0 + ".allNodes", "Required " + d0}},
		{name: "per-device: node selector", obj: devWith(func(d *resourcev1.Device) { d.NodeName, d.NodeSelector = nil, &corev1.NodeSelector{} }),
			gates: withPartitions, want: []string{"Required " + d0 + ".nodeSelector.nodeSelectorTerms"}},
		{name: "binding conditions", obj: devWith(func(d *resourcev1.Device) { d.BindingConditions = []string{"example.com/failed"} }),
			gates: withPartitions, want: []string{"Invalid " + d0 + ".bindingFailureConditions[0]"}},
		{name: "too many binding conditions", obj: devWith(func(d *resourcev1.Device) { d.BindingConditions = []string{"a", "b", "c", "d", "e"} }),
			gates: withPartitions, want: []string{"TooMany " + d0 + ".bindingConditions"}},
	})
}

func TestV1SliceAttributes(t *testing.T) {
	attr := func(name string, a resourcev1.DeviceAttribute) *resourcev1.ResourceSlice {
		return devWith(func(d *resourcev1.Device) { d.Attributes[resourcev1.QualifiedName(name)] = a })
	}
	ap := func(name string) string { return d0 + ".attributes[" + name + "]" }
	long := strings.Repeat("s", V1AttributeValueMaxLength+1)
	cases := []v1Case{
		{name: "name", obj: attr("bad-name", attrString("x")), want: []string{"Invalid " + d0 + ".attributes"}},
		{name: "empty name", obj: attr("", attrString("x")), want: []string{"Invalid " + d0 + ".attributes"}},
		{name: "domain", obj: attr("Bad_domain/x", attrString("x")), want: []string{"Invalid " + d0 + ".attributes"}},
		{name: "empty domain", obj: attr("/x", attrString("x")), want: []string{"Invalid " + d0 + ".attributes"},
			details: []string{"Invalid " + d0 + ".attributes: the domain must not be empty"}},
		{name: "empty identifier", obj: attr("dra.example.com/", attrString("x")), want: []string{"Invalid " + d0 + ".attributes"},
			details: []string{"Invalid " + d0 + ".attributes: the name must not be empty"}},
		{name: "identifier too long", obj: attr(strings.Repeat("i", V1IdentifierMaxLength+1), attrString("x")), want: []string{"TooLong " + d0 + ".attributes"}},
		{name: "upper-case domain passes", obj: attr("DRA.example.com/x", attrString("x"))},
		{name: "upper-case domain, Strict", obj: attr("DRA.example.com/x", attrString("x")), strict: true, want: []string{"Invalid " + d0 + ".attributes"}},
		{name: "two slashes pass", obj: attr("a/b/c", attrString("x"))},
		{name: "two slashes, Strict", obj: attr("a/b/c", attrString("x")), strict: true, want: []string{"Invalid " + d0 + ".attributes"}},
		{name: "domain too long", obj: attr(strings.Repeat("d", 70)+"/x", attrString("x")), want: []string{"TooLong " + d0 + ".attributes"}},
		{name: "long name truncated in the path", obj: attr(strings.Repeat("d", 90)+"/identifier", resourcev1.DeviceAttribute{}),
			// The handwritten error names the shortened key, the declarative
			// one the whole key; as the paths differ, both are reported.
			want: []string{"TooLong " + d0 + ".attributes", "Invalid " + ap(strings.Repeat("d", 47)+"..."+strings.Repeat("d", 35)+"/identifier"),
				"Invalid " + ap(strings.Repeat("d", 90)+"/identifier")}},
		{name: "no value", obj: attr("empty", resourcev1.DeviceAttribute{}), want: []string{"Invalid " + ap("empty")},
			details: []string{"Invalid " + ap("empty") + ": must specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`"},
			absent:  []string{"Invalid " + ap("empty") + ": exactly one value must be specified"}},
		{name: "two values", obj: attr("two", resourcev1.DeviceAttribute{IntValue: ptr(int64(1)), StringValue: ptr("x")}), want: []string{"Invalid " + ap("two")},
			details: []string{"Invalid " + ap("two") + ": must specify exactly one of"}, absent: []string{"Invalid " + ap("two") + ": exactly one value must be specified"}},
		{name: "empty list alone", obj: attr("e", resourcev1.DeviceAttribute{IntValues: []int64{}}),
			want: []string{"Invalid " + ap("e") + ".ints", "Invalid " + ap("e")}, details: []string{"Invalid " + ap("e") + ": must specify one of"}},
		{name: "value and empty list (handwritten union)", obj: attr("e", resourcev1.DeviceAttribute{IntValue: ptr(int64(1)), BoolValues: []bool{}}),
			want: []string{"Invalid " + ap("e") + ".bools", "Invalid " + ap("e")}, details: []string{"Invalid " + ap("e") + ": exactly one value must be specified"},
			absent: []string{"Invalid " + ap("e") + ": must specify"}},
		{name: "string too long", obj: attr("s", attrString(long)), want: []string{"TooLong " + ap("s") + ".string"}},
		{name: "version", obj: attr("v", resourcev1.DeviceAttribute{VersionValue: ptr("1.2")}), want: []string{"Invalid " + ap("v") + ".version"}},
		{name: "version too long", obj: attr("v", resourcev1.DeviceAttribute{VersionValue: ptr("1.2.3-" + long)}), want: []string{"TooLong " + ap("v") + ".version"}},
		{name: "strings item", obj: attr("s", resourcev1.DeviceAttribute{StringValues: []string{"ok", long}}), want: []string{"TooLong " + ap("s") + ".strings[1]"}},
		{name: "versions item", obj: attr("v", resourcev1.DeviceAttribute{VersionValues: []string{"01.0.0"}}), want: []string{"Invalid " + ap("v") + ".versions[0]"}},
		{name: "empty strings and versions", obj: attr("v", resourcev1.DeviceAttribute{StringValues: []string{}, VersionValues: []string{}}),
			want: []string{"Invalid " + ap("v") + ".strings", "Invalid " + ap("v") + ".versions", "Invalid " + ap("v")}},
		{name: "too many attributes and capacities", obj: devWith(func(d *resourcev1.Device) {
			for i := 0; len(d.Attributes)+len(d.Capacity) <= V1MaxAttributesAndCapacities; i++ {
				d.Attributes[resourcev1.QualifiedName(fmt.Sprintf("a%d", i))] = resourcev1.DeviceAttribute{BoolValue: ptr(true)}
			}
		}), want: []string{"Invalid " + d0}, details: []string{"Invalid " + d0 + ": the total number of attributes and capacities must not exceed 32"}},
		{name: "too many attribute values", obj: devWith(func(d *resourcev1.Device) {
			d.Attributes["many"] = resourcev1.DeviceAttribute{IntValues: make([]int64, V1MaxAttributeValues)}
		}), want: []string{"Invalid " + d0}, details: []string{"Invalid " + d0 + ": the total number of attribute values must not exceed 48"}},
	}
	for i := range cases {
		cases[i].gates = withPartitions
	}
	runV1Cases(t, cases)
}

// TestV1SliceCapacity checks device capacities and their request
// policies. It is a table of cases, longer than 80 lines for that reason: each
// case reads on its own.
func TestV1SliceCapacity(t *testing.T) {
	policy := func(f func(p *resourcev1.CapacityRequestPolicy)) *resourcev1.ResourceSlice {
		return devWith(func(d *resourcev1.Device) {
			c := d.Capacity["memory"]
			c.RequestPolicy = c.RequestPolicy.DeepCopy()
			f(c.RequestPolicy)
			d.Capacity["memory"] = c
		})
	}
	values := func(f func(p *resourcev1.CapacityRequestPolicy)) *resourcev1.ResourceSlice {
		return devWith(func(d *resourcev1.Device) {
			c := d.Capacity["cores"]
			c.RequestPolicy = c.RequestPolicy.DeepCopy()
			f(c.RequestPolicy)
			d.Capacity["cores"] = c
		})
	}
	qs := func(s ...string) []apiresource.Quantity {
		out := make([]apiresource.Quantity, len(s))
		for i := range s {
			out[i] = q(s[i])
		}
		return out
	}
	// A fractional range: integer arithmetic accepts it, milli arithmetic
	// sees 0.75 is not 0.5 plus whole steps of 0.5.
	fractional := devWith(func(d *resourcev1.Device) {
		d.Capacity["share"] = resourcev1.DeviceCapacity{Value: q("2"), RequestPolicy: &resourcev1.CapacityRequestPolicy{
			Default: qp("0.75"), ValidRange: &resourcev1.CapacityRequestPolicyRange{Min: qp("0.5"), Max: qp("1.5"), Step: qp("0.5")}}}
	})
	const m, c = d0 + ".capacity[memory].requestPolicy", d0 + ".capacity[cores].requestPolicy"
	cases := []v1Case{
		{name: "policy needs multiple allocations", obj: devWith(func(d *resourcev1.Device) { d.AllowMultipleAllocations = nil }),
			want: []string{"Forbidden " + m, "Forbidden " + c}, details: []string{"Forbidden " + m + ": allowMultipleAllocations must be true"}},
		{name: "capacity name", obj: devWith(func(d *resourcev1.Device) { d.Capacity["a-b"] = resourcev1.DeviceCapacity{Value: q("1")} }),
			want: []string{"Invalid " + d0 + ".capacity"}},
		{name: "values and range", obj: policy(func(p *resourcev1.CapacityRequestPolicy) { p.ValidValues = qs("1Gi") }), want: []string{"Forbidden " + m}},
		{name: "values need a default", obj: values(func(p *resourcev1.CapacityRequestPolicy) { p.Default = nil }), want: []string{"Required " + c + ".default"}},
		{name: "values sorted", obj: values(func(p *resourcev1.CapacityRequestPolicy) { p.ValidValues = qs("1", "4", "2") }), want: []string{"Invalid " + c + ".validValues[2]"}},
		{name: "values unique", obj: values(func(p *resourcev1.CapacityRequestPolicy) { p.ValidValues = qs("1", "2", "2") }), want: []string{"Duplicate " + c + ".validValues[2]"}},
		{name: "value over capacity", obj: values(func(p *resourcev1.CapacityRequestPolicy) { p.ValidValues = qs("2", "16") }),
			want: []string{"Invalid " + c + ".validValues[1]"}, details: []string{"Invalid " + c + ".validValues[1]: option is larger than capacity value: 8"}},
		{name: "default not a value", obj: values(func(p *resourcev1.CapacityRequestPolicy) { p.Default = qp("3") }),
			want: []string{"Invalid " + c + ".validValues"}, details: []string{"Invalid " + c + ".validValues: default value is not valid according to the requestPolicy"}},
		{name: "too many values", obj: values(func(p *resourcev1.CapacityRequestPolicy) {
			p.ValidValues = qs("1", "2", "3", "4", "5", "6", "7", "8", "8", "8", "8")
		}), want: []string{"TooMany " + c + ".validValues", "Invalid " + c + ".validValues"}},
		{name: "1 and 1000m are duplicates as integers", obj: values(func(p *resourcev1.CapacityRequestPolicy) {
			p.ValidValues, p.Default = qs("1", "1000m"), qp("1")
		}), want: []string{"Duplicate " + c + ".validValues[1]"}},
		{name: "1 and 1000m are different decimals", gates: gatesV1{features.DRAFractionalCapacityRange: true}, obj: values(func(p *resourcev1.CapacityRequestPolicy) {
			p.ValidValues, p.Default = qs("1", "1000m"), qp("1")
		})},
		{name: "range needs a default", obj: policy(func(p *resourcev1.CapacityRequestPolicy) { p.Default = nil }), want: []string{"Required " + m + ".default"}},
		{name: "range needs min", obj: policy(func(p *resourcev1.CapacityRequestPolicy) { p.ValidRange.Min = nil }), want: []string{"Required " + m + ".validRange.min"}},
		{name: "min over capacity", obj: policy(func(p *resourcev1.CapacityRequestPolicy) {
			p.ValidRange.Min, p.ValidRange.Max, p.ValidRange.Step, p.Default = qp("41Gi"), nil, nil, qp("41Gi")
		}), want: []string{"Invalid " + m + ".validRange.min"}},
		{name: "default under min", obj: policy(func(p *resourcev1.CapacityRequestPolicy) { p.Default = qp("512Mi"); p.ValidRange.Step = nil }),
			want: []string{"Invalid " + m + ".validRange.default"}, details: []string{"Invalid " + m + ".validRange.default: default is less than min: 1Gi"}},
		{name: "max under min", obj: policy(func(p *resourcev1.CapacityRequestPolicy) { p.ValidRange.Max = qp("512Mi"); p.ValidRange.Step = nil }),
			want: []string{"Invalid " + m + ".validRange.max", "Invalid " + m + ".validRange.default"}},
		{name: "max over capacity", obj: policy(func(p *resourcev1.CapacityRequestPolicy) { p.ValidRange.Max = qp("41Gi") }),
			want: []string{"Invalid " + m + ".validRange.max"}},
		{name: "step not positive", obj: policy(func(p *resourcev1.CapacityRequestPolicy) { p.ValidRange.Step = qp("0") }),
			want: []string{"Invalid " + m + ".validRange.step"}, details: []string{"Invalid " + m + ".validRange.step: must be greater than zero"}},
		{name: "one step over capacity", obj: policy(func(p *resourcev1.CapacityRequestPolicy) { p.ValidRange.Step = qp("40Gi") }),
			want: []string{"Invalid " + m + ".validRange.step"}},
		{name: "default between steps", obj: policy(func(p *resourcev1.CapacityRequestPolicy) { p.Default = qp("1536Mi") }),
			want: []string{"Invalid " + m + ".validRange.step"}, details: []string{"Invalid " + m + ".validRange.step: value is not a multiple of a given step (1Gi) from (1Gi)"}},
		{name: "bound over int64", obj: devWith(func(d *resourcev1.Device) {
			d.Capacity["huge"] = resourcev1.DeviceCapacity{Value: q("1e20"), RequestPolicy: &resourcev1.CapacityRequestPolicy{
				Default: qp("0"), ValidRange: &resourcev1.CapacityRequestPolicyRange{Min: qp("0"), Max: qp("1e19"), Step: qp("1")}}}
		}), want: []string{"Invalid " + d0 + ".capacity[huge].requestPolicy.validRange.max"},
			details: []string{"Invalid " + d0 + ".capacity[huge].requestPolicy.validRange.max: must not be larger than 9223372036854775807"}},
		{name: "fractional range, integer arithmetic", obj: fractional},
		{name: "fractional range, milli arithmetic", obj: fractional, gates: gatesV1{features.DRAFractionalCapacityRange: true},
			want: []string{"Invalid " + d0 + ".capacity[share].requestPolicy.validRange.step"}},
		{name: "not representable in milli units", gates: gatesV1{features.DRAFractionalCapacityRange: true}, obj: devWith(func(d *resourcev1.Device) {
			d.Capacity["share"] = resourcev1.DeviceCapacity{Value: q("2"), RequestPolicy: &resourcev1.CapacityRequestPolicy{
				Default: qp("0.5"), ValidRange: &resourcev1.CapacityRequestPolicyRange{Min: qp("0.5"), Step: qp("0.0005")}}}
		}), want: []string{"Invalid " + d0 + ".capacity[share].requestPolicy.validRange.step"},
			details: []string{"Invalid " + d0 + ".capacity[share].requestPolicy.validRange.step: value cannot be represented as a milli value"}},
		{name: "update: unchanged capacity is not validated", op: opUpdate,
			old: devWith(func(d *resourcev1.Device) {
				d.Capacity["dra.example.com/slots"] = resourcev1.DeviceCapacity{Value: q("4"), RequestPolicy: &resourcev1.CapacityRequestPolicy{}}
			}),
			obj: devWith(func(d *resourcev1.Device) {
				d.Capacity["dra.example.com/slots"] = resourcev1.DeviceCapacity{Value: q("4"), RequestPolicy: &resourcev1.CapacityRequestPolicy{}}
				d.Attributes["new"] = attrString("x")
			})},
		// 1.37 looks at allowMultipleAllocations only with changed capacity.
		{name: "update: unchanged capacity, multiple allocations off", op: opUpdate, old: v1Slice(),
			obj: devWith(func(d *resourcev1.Device) { d.AllowMultipleAllocations = ptr(false) })},
		{name: "update: changed capacity is validated", op: opUpdate, old: v1Slice(),
			obj: devWith(func(d *resourcev1.Device) {
				d.AllowMultipleAllocations = ptr(false)
				d.Capacity["dra.example.com/slots"] = resourcev1.DeviceCapacity{Value: q("5")}
			}), want: []string{"Forbidden " + m, "Forbidden " + c}},
	}
	for i := range cases {
		if cases[i].gates == nil {
			cases[i].gates = gatesV1{}
		}
		cases[i].gates[features.DRAPartitionableDevicesType] = true
	}
	runV1Cases(t, cases)
}

func TestV1SliceTaints(t *testing.T) {
	taint := func(f func(t *resourcev1.DeviceTaint)) *resourcev1.ResourceSlice {
		return devWith(func(d *resourcev1.Device) { f(&d.Taints[0]) })
	}
	const t0 = d0 + ".taints[0]"
	badEffect := taint(func(t *resourcev1.DeviceTaint) { t.Effect = "Evict" })
	cases := []v1Case{
		{name: "key required", obj: taint(func(t *resourcev1.DeviceTaint) { t.Key = "" }), want: []string{"Invalid " + t0 + ".key"}},
		{name: "key", obj: taint(func(t *resourcev1.DeviceTaint) { t.Key = "a/b/c" }), want: []string{"Invalid " + t0 + ".key"}},
		{name: "value", obj: taint(func(t *resourcev1.DeviceTaint) { t.Value = "-x" }), want: []string{"Invalid " + t0 + ".value"}},
		{name: "effect required", obj: taint(func(t *resourcev1.DeviceTaint) { t.Effect = "" }), want: []string{"Required " + t0 + ".effect"}},
		{name: "effect", obj: badEffect, want: []string{"NotSupported " + t0 + ".effect"}},
		{name: "effect None", obj: taint(func(t *resourcev1.DeviceTaint) { t.Effect = resourcev1.DeviceTaintEffectNone })},
		{name: "time added defaults", obj: taint(func(t *resourcev1.DeviceTaint) { t.TimeAdded = nil })},
		{name: "too many", obj: devWith(func(d *resourcev1.Device) {
			for len(d.Taints) <= V1DeviceTaintsMaxLength {
				d.Taints = append(d.Taints, resourcev1.DeviceTaint{Key: "bad key", Effect: "Soon"}) // the key is not checked
			}
		}), want: append([]string{"TooMany " + d0 + ".taints"}, nStrings(V1DeviceTaintsMaxLength, func(i int) string {
			return fmt.Sprintf("NotSupported %s.taints[%d].effect", d0, i+1)
		})...)},
		{name: "update: unchanged devices", op: opUpdate, old: badEffect, obj: v1Slice(func(s *resourcev1.ResourceSlice) {
			s.Spec.Devices[0].Taints[0].Effect = "Evict"
			s.Spec.Pool.Generation++
		})},
		{name: "update: unchanged taints of changed devices (declarative)", op: opUpdate, old: badEffect, obj: v1Slice(func(s *resourcev1.ResourceSlice) {
			s.Spec.Devices[0].Taints[0].Effect = "Evict"
			s.Spec.Devices[1].Attributes["new"] = attrString("x")
		}), want: []string{"NotSupported " + t0 + ".effect"}},
	}
	for i := range cases {
		cases[i].gates = withPartitions
	}
	runV1Cases(t, cases)
}

func TestV1SliceCounters(t *testing.T) {
	cc := func(f func(c *resourcev1.DeviceCounterConsumption)) *resourcev1.ResourceSlice {
		return devWith(func(d *resourcev1.Device) { f(&d.ConsumesCounters[0]) })
	}
	set := func(f func(c *resourcev1.CounterSet)) *resourcev1.ResourceSlice {
		return counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { f(&s.SharedCounters[0]) })
	}
	many := func(n int, bad string) map[string]resourcev1.Counter {
		m := map[string]resourcev1.Counter{bad: {}}
		for i := 0; len(m) < n; i++ {
			m[fmt.Sprintf("c%d", i)] = resourcev1.Counter{}
		}
		return m
	}
	const c0, s0 = d0 + ".consumesCounters[0]", "spec.sharedCounters[0]"
	cases := []v1Case{
		{name: "counter set required", obj: cc(func(c *resourcev1.DeviceCounterConsumption) { c.CounterSet = "" }), want: []string{"Required " + c0 + ".counterSet"}},
		{name: "counter set name", obj: cc(func(c *resourcev1.DeviceCounterConsumption) { c.CounterSet = "Set" }), want: []string{"Invalid " + c0 + ".counterSet"}},
		{name: "counters required", obj: cc(func(c *resourcev1.DeviceCounterConsumption) { c.Counters = nil }), want: []string{"Required " + c0 + ".counters"}},
		{name: "counter name", obj: cc(func(c *resourcev1.DeviceCounterConsumption) { c.Counters["Mem"] = resourcev1.Counter{} }), want: []string{"Invalid " + c0 + ".counters"}},
		{name: "too many counters: names still checked", obj: cc(func(c *resourcev1.DeviceCounterConsumption) {
			c.Counters = many(V1SliceMaxCountersPerDeviceCounterConsumption+1, "Bad")
		}), want: []string{"TooMany " + c0 + ".counters", "Invalid " + c0 + ".counters"}},
		{name: "too many consumptions", obj: devWith(func(d *resourcev1.Device) {
			for i := 0; len(d.ConsumesCounters) <= V1SliceMaxDeviceCounterConsumptionsPerDevice; i++ {
				d.ConsumesCounters = append(d.ConsumesCounters, resourcev1.DeviceCounterConsumption{CounterSet: fmt.Sprintf("s%d", i)})
			}
		}), want: []string{"TooMany " + d0 + ".consumesCounters"}},
		{name: "duplicate consumption", obj: devWith(func(d *resourcev1.Device) { d.ConsumesCounters = append(d.ConsumesCounters, d.ConsumesCounters[0]) }),
			want: []string{"Duplicate " + d0 + ".consumesCounters[1]"}},
		{name: "compatibility groups", obj: cc(func(c *resourcev1.DeviceCounterConsumption) { c.CompatibilityGroups = []string{"Whole", "mig"} }),
			want: []string{"Invalid " + c0 + ".compatibilityGroups[0]"}},
		{name: "duplicate compatibility group", obj: cc(func(c *resourcev1.DeviceCounterConsumption) { c.CompatibilityGroups = []string{"mig", "mig"} }),
			want: []string{"Duplicate " + c0 + ".compatibilityGroups[1]"}},
		{name: "too many compatibility groups", obj: cc(func(c *resourcev1.DeviceCounterConsumption) { c.CompatibilityGroups = []string{"a", "b", "C"} }),
			want: []string{"TooMany " + c0 + ".compatibilityGroups"}},
		{name: "set name required", obj: set(func(c *resourcev1.CounterSet) { c.Name = "" }), want: []string{"Required " + s0 + ".name"}},
		{name: "set name", obj: set(func(c *resourcev1.CounterSet) { c.Name = "GPU" }), want: []string{"Invalid " + s0 + ".name"}},
		{name: "set counters required", obj: set(func(c *resourcev1.CounterSet) { c.Counters = map[string]resourcev1.Counter{} }), want: []string{"Required " + s0 + ".counters"}},
		{name: "set too many counters", obj: set(func(c *resourcev1.CounterSet) { c.Counters = many(V1SliceMaxCountersPerCounterSet+1, "Bad") }),
			want: []string{"TooMany " + s0 + ".counters", "Invalid " + s0 + ".counters"}},
		{name: "duplicate set", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) { s.SharedCounters[1].Name = s.SharedCounters[0].Name }),
			want: []string{"Duplicate spec.sharedCounters[1]"}},
		{name: "too many sets", obj: counterSliceWith(func(s *resourcev1.ResourceSliceSpec) {
			for i := 0; len(s.SharedCounters) <= V1SliceMaxCounterSets; i++ {
				s.SharedCounters = append(s.SharedCounters, resourcev1.CounterSet{Name: fmt.Sprintf("set-%d", i)})
			}
		}), want: []string{"TooMany spec.sharedCounters"}},
	}
	for i := range cases {
		cases[i].gates = withPartitions
	}
	runV1Cases(t, cases)
}

func TestV1SliceNodeAllocatableResources(t *testing.T) {
	nar := func(name corev1.ResourceName, r resourcev1.NodeAllocatableResource) *resourcev1.ResourceSlice {
		return devWith(func(d *resourcev1.Device) { d.NodeAllocatableResources[name] = r })
	}
	mapping := func(m resourcev1.NodeAllocatableMapping) *resourcev1.ResourceSlice {
		return nar(corev1.ResourceCPU, resourcev1.NodeAllocatableResource{Mapping: &m})
	}
	key := func(s string) *resourcev1.QualifiedName { k := resourcev1.QualifiedName(s); return &k }
	const n, cpu = d0 + ".nodeAllocatableResources", d0 + ".nodeAllocatableResources[cpu].mapping"
	cases := []v1Case{
		{name: "not node-allocatable", obj: nar("example.com/widgets", resourcev1.NodeAllocatableResource{Overhead: &resourcev1.NodeAllocatableOverhead{PerPod: qp("1")}}),
			want: []string{"Invalid " + n + "[example.com/widgets]"}},
		{name: "ephemeral storage is not", obj: nar(corev1.ResourceEphemeralStorage, resourcev1.NodeAllocatableResource{Overhead: &resourcev1.NodeAllocatableOverhead{PerPod: qp("1")}}),
			want: []string{"Invalid " + n + "[ephemeral-storage]"}},
		{name: "neither mapping nor overhead", obj: nar(corev1.ResourceCPU, resourcev1.NodeAllocatableResource{}), want: []string{"Required " + n + "[cpu]"}},
		{name: "empty capacity key", obj: mapping(resourcev1.NodeAllocatableMapping{CapacityKey: key(""), CapacityMultiplier: qp("1")}),
			want: []string{"Invalid " + cpu + ".capacityKey"}},
		{name: "unknown capacity key", obj: mapping(resourcev1.NodeAllocatableMapping{CapacityKey: key("cores2"), CapacityMultiplier: qp("1")}),
			want: []string{"NotFound " + cpu + ".capacityKey"}},
		{name: "capacity key needs a multiplier", obj: mapping(resourcev1.NodeAllocatableMapping{CapacityKey: key("cores")}),
			want: []string{"Required " + cpu + ".capacityMultiplier"}},
		{name: "multiplier needs a capacity key (and the union one of them)", obj: mapping(resourcev1.NodeAllocatableMapping{CapacityMultiplier: qp("1")}),
			want: []string{"Required " + cpu + ".capacityKey", "Invalid " + cpu}, details: []string{"Invalid " + cpu + ": must specify one of: `capacityKey`, `deviceMultiplier`"}},
		{name: "capacity key and device multiplier", obj: mapping(resourcev1.NodeAllocatableMapping{CapacityKey: key("cores"), CapacityMultiplier: qp("1"), DeviceMultiplier: qp("1")}),
			want: []string{"Invalid " + cpu}, details: []string{"Invalid " + cpu + ": must specify exactly one of: `capacityKey`, `deviceMultiplier`"}},
		{name: "multipliers positive", obj: mapping(resourcev1.NodeAllocatableMapping{CapacityKey: key("cores"), CapacityMultiplier: qp("0")}),
			want: []string{"Invalid " + cpu + ".capacityMultiplier"}},
		{name: "device multiplier positive", obj: mapping(resourcev1.NodeAllocatableMapping{DeviceMultiplier: qp("-1")}),
			want: []string{"Invalid " + cpu + ".deviceMultiplier"}},
		{name: "empty overhead", obj: nar(corev1.ResourceCPU, resourcev1.NodeAllocatableResource{Overhead: &resourcev1.NodeAllocatableOverhead{}}),
			want: []string{"Invalid " + n + "[cpu].overhead"}},
		{name: "negative overhead", obj: nar(corev1.ResourceCPU, resourcev1.NodeAllocatableResource{Overhead: &resourcev1.NodeAllocatableOverhead{PerPod: qp("-1"), PerContainer: qp("-1m")}}),
			want: []string{"Invalid " + n + "[cpu].overhead.perPod", "Invalid " + n + "[cpu].overhead.perContainer"}},
	}
	for i := range cases {
		cases[i].gates = withPartitions
	}
	runV1Cases(t, cases)
}

func TestV1SlicePartitionTypeAttribute(t *testing.T) {
	pta := func(name string, f func(s *resourcev1.ResourceSliceSpec)) *resourcev1.ResourceSlice {
		return sliceWith(func(s *resourcev1.ResourceSliceSpec) {
			s.PartitionTypeAttribute = fqn(name)
			if f != nil {
				f(s)
			}
		})
	}
	const p = "spec.partitionTypeAttribute"
	runV1Cases(t, []v1Case{
		{name: "gate off", obj: v1Slice(), want: []string{"Forbidden " + p}},
		{name: "gate off, unchanged on update", op: opUpdate, old: v1Slice(), obj: sliceWith(func(s *resourcev1.ResourceSliceSpec) { s.Pool.Generation++ })},
		{name: "gate off, changed on update", op: opUpdate, old: v1Slice(), obj: pta("dra.example.com/model", nil), want: []string{"Forbidden " + p}},
		{name: "no domain", obj: pta("partitionType", nil), gates: withPartitions, want: []string{"Invalid " + p}},
		{name: "no device consumes counters", gates: withPartitions, obj: pta("dra.example.com/partitionType", func(s *resourcev1.ResourceSliceSpec) {
			for i := range s.Devices {
				s.Devices[i].ConsumesCounters = nil
			}
		}), want: []string{"Invalid " + p}, details: []string{"Invalid " + p + ": may only be set on a slice which declares devices that consume counters"}},
		{name: "attribute missing", gates: withPartitions, obj: pta("dra.example.com/partitionType", func(s *resourcev1.ResourceSliceSpec) {
			delete(s.Devices[1].Attributes, "partitionType")
		}), want: []string{"Required spec.devices[1].attributes[dra.example.com/partitionType]"}},
		{name: "attribute not a string", gates: withPartitions, obj: pta("dra.example.com/partitionType", func(s *resourcev1.ResourceSliceSpec) {
			s.Devices[2].Attributes["partitionType"] = resourcev1.DeviceAttribute{IntValue: ptr(int64(1))}
		}), want: []string{"Invalid spec.devices[2].attributes[dra.example.com/partitionType]"}},
		{name: "devices without counters need no attribute", gates: withPartitions, obj: pta("dra.example.com/partitionType", func(s *resourcev1.ResourceSliceSpec) {
			delete(s.Devices[1].Attributes, "partitionType")
			s.Devices[1].ConsumesCounters = nil
		})},
		{name: "another domain, by its full name", gates: withPartitions, obj: pta("other.example.com/kind", func(s *resourcev1.ResourceSliceSpec) {
			for i := range s.Devices {
				s.Devices[i].Attributes["other.example.com/kind"] = attrString("mig")
			}
		})},
		{name: "another domain is not found bare", gates: withPartitions, obj: pta("other.example.com/partitionType", nil),
			want: []string{"Required spec.devices[0].attributes[other.example.com/partitionType]", "Required spec.devices[1].attributes[other.example.com/partitionType]",
				"Required spec.devices[2].attributes[other.example.com/partitionType]"}},
	})
}
