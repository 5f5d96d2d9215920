package validation

import (
	"strings"
	"testing"

	"k8s.io/api/resource/v1beta1"
	"k8s.io/api/resource/v1beta2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/features"
)

// expectSome fails unless errs has each of the "Type path" pairs of want
// and none of those of absent; other errors are allowed.
func expectSome(t *testing.T, errs field.ErrorList, want, absent []string) {
	t.Helper()
	have := map[string]bool{}
	for _, s := range summary(errs) {
		have[s] = true
	}
	for _, w := range want {
		if !have[w] {
			t.Errorf("no %q in %q", w, summary(errs))
		}
	}
	for _, a := range absent {
		if have[a] {
			t.Errorf("unexpected %q in %q", a, summary(errs))
		}
	}
}

// The rules 1.37 checks declaratively on a v1beta1 object are reported
// under v1beta1's paths, the handwritten-only ones under v1's, and a field
// that both check with different rules under both. Its subtests are
// independent, one per rule, and longer than 80 lines together for that
// reason.
func TestV1beta1DeclarativePaths(t *testing.T) {
	meta := metav1.ObjectMeta{Name: "c", Namespace: "default", ResourceVersion: "1"}
	derived := Options{FeatureGates: features.Defaults().With(features.DRADerivedAttributes, true)}
	claim := func(r v1beta1.DeviceRequest) *v1beta1.ResourceClaim {
		r.Name, r.DeviceClassName = "gpu", "gpu.example.com"
		return &v1beta1.ResourceClaim{ObjectMeta: meta, Spec: v1beta1.ResourceClaimSpec{Devices: v1beta1.DeviceClaim{Requests: []v1beta1.DeviceRequest{r}}}}
	}
	const req = "spec.devices.requests[0]."
	selectors := make([]v1beta1.DeviceSelector, 33)
	for i := range selectors {
		selectors[i].CEL = &v1beta1.CELDeviceSelector{Expression: "true"}
	}

	t.Run("toleration: key declarative, value handwritten", func(t *testing.T) {
		c := claim(v1beta1.DeviceRequest{Tolerations: []v1beta1.DeviceToleration{{Key: "a b", Operator: v1beta1.DeviceTolerationOpEqual, Value: "c d", Effect: "Sometimes"}}})
		expectErrors(t, ValidateObject(c, Options{}),
			"Invalid "+req+"tolerations[0].key", "Invalid "+req+"exactly.tolerations[0].value", "NotSupported "+req+"tolerations[0].effect")
	})
	t.Run("an empty allocation mode is the handwritten rule's", func(t *testing.T) {
		c := claim(v1beta1.DeviceRequest{AllocationMode: "", Count: 1})
		c.Spec.Devices.Requests[0].DeviceClassName = ""
		expectErrors(t, ValidateObject(c, Options{}),
			"NotSupported "+req+"exactly.allocationMode", "Required "+req+"exactly.deviceClassName")
	})
	t.Run("derived attributes: size, name and expression declarative", func(t *testing.T) {
		c := claim(v1beta1.DeviceRequest{DerivedAttributes: []v1beta1.DeviceDerivedAttribute{{Name: "", Expression: ""}}})
		expectErrors(t, ValidateObject(c, derived),
			"Required "+req+"derivedAttributes[0].name", "Required "+req+"derivedAttributes[0].expression")
		many := make([]v1beta1.DeviceDerivedAttribute, 33)
		for i := range many {
			many[i] = v1beta1.DeviceDerivedAttribute{Name: v1beta1.FullyQualifiedName("example.com/a" + strings.Repeat("x", i)), Expression: "1"}
		}
		c = claim(v1beta1.DeviceRequest{DerivedAttributes: many})
		expectSome(t, ValidateObject(c, derived),
			[]string{"TooMany " + req + "derivedAttributes", "Invalid " + req + "exactly.derivedAttributes[0].name"},
			[]string{"TooMany " + req + "exactly.derivedAttributes", "Invalid " + req + "derivedAttributes[0].name"})
	})
	t.Run("template: selectors declarative on create, handwritten when unchanged", func(t *testing.T) {
		tmpl := &v1beta1.ResourceClaimTemplate{ObjectMeta: meta, Spec: v1beta1.ResourceClaimTemplateSpec{Spec: claim(v1beta1.DeviceRequest{Selectors: selectors}).Spec}}
		expectErrors(t, ValidateObject(tmpl, Options{}), "TooMany spec.spec.devices.requests[0].selectors")
		expectErrors(t, ValidateObjectUpdate(tmpl, tmpl, Options{}), "TooMany spec.spec.devices.requests[0].exactly.selectors")
	})
	t.Run("v1beta2 keeps its own paths", func(t *testing.T) {
		c := &v1beta2.ResourceClaim{ObjectMeta: meta, Spec: v1beta2.ResourceClaimSpec{Devices: v1beta2.DeviceClaim{Requests: []v1beta2.DeviceRequest{{
			Name: "gpu", Exactly: &v1beta2.ExactDeviceRequest{DeviceClassName: "gpu.example.com", AllocationMode: "Some"},
		}}}}}
		expectErrors(t, ValidateObject(c, Options{}), "NotSupported "+req+"exactly.allocationMode")
	})

	slice := func(d v1beta1.BasicDevice) *v1beta1.ResourceSlice {
		return &v1beta1.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: "s", ResourceVersion: "1"}, Spec: v1beta1.ResourceSliceSpec{
			Driver: "gpu.example.com", Pool: v1beta1.ResourcePool{Name: "p", ResourceSliceCount: 1}, AllNodes: true,
			Devices: []v1beta1.Device{{Name: "d", Basic: &d}},
		}}
	}
	const dev = "spec.devices[0]."
	t.Run("attribute whose list value is dropped: the union finds no value", func(t *testing.T) {
		s := slice(v1beta1.BasicDevice{Attributes: map[v1beta1.QualifiedName]v1beta1.DeviceAttribute{"models": {StringValues: []string{"a"}}}})
		expectErrors(t, ValidateObject(s, Options{}), "Invalid "+dev+"basic.attributes[models]")
	})
	t.Run("attribute with a value and an empty list: the handwritten union only", func(t *testing.T) {
		on := Options{FeatureGates: features.Defaults().With(features.DRAListTypeAttributes, true)}
		s := slice(v1beta1.BasicDevice{Attributes: map[v1beta1.QualifiedName]v1beta1.DeviceAttribute{"x": {IntValue: ptr(int64(1)), StringValues: []string{}}}})
		expectErrors(t, ValidateObject(s, on), "Invalid "+dev+"attributes[x]", "Invalid "+dev+"attributes[x].strings")
	})
	t.Run("a long attribute name: both unions, under both paths", func(t *testing.T) {
		name := strings.Repeat("a", 120)
		s := slice(v1beta1.BasicDevice{Attributes: map[v1beta1.QualifiedName]v1beta1.DeviceAttribute{v1beta1.QualifiedName(name): {}}})
		short := truncateIfTooLongV1(name, v1AttributeAndCapacityKeyTruncation)
		expectSome(t, ValidateObject(s, Options{}),
			[]string{"Invalid " + dev + "attributes[" + short + "]", "Invalid " + dev + "basic.attributes[" + name + "]"}, nil)
	})
	t.Run("counter consumption: declarative on create, handwritten when the devices are unchanged", func(t *testing.T) {
		counters := map[string]v1beta1.Counter{"mem": {}}
		s := slice(v1beta1.BasicDevice{ConsumesCounters: []v1beta1.DeviceCounterConsumption{
			{CounterSet: "a", Counters: counters}, {CounterSet: "a", Counters: counters}, {CounterSet: "B_", Counters: counters},
		}})
		expectErrors(t, ValidateObject(s, Options{}), "TooMany "+dev+"basic.consumesCounters")
		s.Spec.Devices[0].Basic.ConsumesCounters = s.Spec.Devices[0].Basic.ConsumesCounters[:2]
		expectErrors(t, ValidateObject(s, Options{}), "Duplicate "+dev+"basic.consumesCounters[1]")
		expectErrors(t, ValidateObjectUpdate(s, s, Options{}), "Duplicate "+dev+"consumesCounters[1]")
		changed := s.DeepCopy()
		changed.Spec.Devices[0].Basic.Taints = []v1beta1.DeviceTaint{{Key: "k", Effect: "Never"}}
		expectErrors(t, ValidateObjectUpdate(changed, s, Options{}),
			"Duplicate "+dev+"basic.consumesCounters[1]", "NotSupported "+dev+"basic.taints[0].effect")
	})
	t.Run("taint: effect declarative, key handwritten", func(t *testing.T) {
		s := slice(v1beta1.BasicDevice{Taints: []v1beta1.DeviceTaint{{Key: "a b", Effect: ""}}})
		expectErrors(t, ValidateObject(s, Options{}), "Invalid "+dev+"taints[0].key", "Required "+dev+"basic.taints[0].effect")
	})
}
