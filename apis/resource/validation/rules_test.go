package validation

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"

	drakitcel "github.com/drakit/drakit/apis/resource/cel"
	"github.com/drakit/drakit/apis/resource/features"
)

// ---------------------------------------------------------------------------
// Harness: the v1 rules are not registered, so the tests run them directly
// through rules.run, as the registry would.

// gatesV1 overrides some gates; the others keep their 1.37 defaults.
type gatesV1 map[features.Name]bool

func (g gatesV1) gates() features.Gates {
	out := features.Defaults()
	for name, on := range g {
		out = out.With(name, on)
	}
	return out
}

// celCallV1 records one compilation by fakeCELV1.
type celCallV1 struct {
	expression string
	opts       drakitcel.Options
}

// fakeCELV1 stands in for the 1.37 compiler: an expression containing
// "syntax error" (or "", as in 1.37) is Invalid, one containing "required"
// Required, one containing "internal" an internal error; "cost=N ..."
// costs N, anything else 1. It records every call.
type fakeCELV1 struct{ calls []celCallV1 }

func (f *fakeCELV1) compile(expression string, opts drakitcel.Options) (uint64, *field.Error) {
	f.calls = append(f.calls, celCallV1{expression, opts})
	switch {
	case strings.Contains(expression, "required"):
		return 0, field.Required(nil, "expression required")
	case expression == "", strings.Contains(expression, "syntax error"):
		return 0, field.Invalid(nil, nil, "compilation failed: ERROR: <input>:1:1: Syntax error")
	case strings.Contains(expression, "internal"):
		return 0, field.InternalError(nil, fmt.Errorf("compiler broke"))
	}
	if rest, ok := strings.CutPrefix(expression, "cost="); ok {
		n, err := strconv.ParseUint(strings.Fields(rest)[0], 10, 64)
		if err != nil {
			panic(err)
		}
		return n, nil
	}
	return 1, nil
}

const adminNamespace = "ns"

// namespaceLabelsV1 labels namespace "ns" for admin access; "broken" cannot
// be read.
func namespaceLabelsV1(namespace string) (map[string]string, error) {
	switch namespace {
	case adminNamespace:
		return map[string]string{resourcev1.DRAAdminNamespaceLabelKey: "true"}, nil
	case "broken":
		return nil, fmt.Errorf("namespace %q: connection refused", namespace)
	}
	return map[string]string{"team": "a"}, nil
}

func testEnvV1(gates gatesV1) (envV1, *fakeCELV1) {
	cel := &fakeCELV1{}
	return envV1{gates: gates.gates(), compileCEL: cel.compile, namespaceLabels: namespaceLabelsV1}, cel
}

// withoutDrops leaves out the dropping of gated fields, so that the rule
// tables test the validation alone, as upstream's validation tests do
// whatever the gates: a field a case sets reaches the rules. The strategy
// around them (drop, then validate) is tested through the registry in
// dropvalidate_test.go.
func (r rulesV1Set) withoutDrops() rulesV1Set {
	r.claim.drop, r.claim.dropStatus = nil, nil
	r.template.drop = nil
	r.class.drop = nil
	r.slice.drop = nil
	r.taintRule.drop = nil
	return r
}

// validateV1 runs the rules for obj's kind as the registry would for op,
// without the drops (withoutDrops).
func validateV1(env envV1, op operation, obj, old runtime.Object, opts Options) field.ErrorList {
	r := rulesV1(env).withoutDrops()
	switch o := obj.(type) {
	case *resourcev1.ResourceClaim:
		return runRulesV1(r.claim, op, o, old, opts)
	case *resourcev1.ResourceClaimTemplate:
		return runRulesV1(r.template, op, o, old, opts)
	case *resourcev1.DeviceClass:
		return runRulesV1(r.class, op, o, old, opts)
	case *resourcev1.ResourceSlice:
		return runRulesV1(r.slice, op, o, old, opts)
	case *resourcev1.DeviceTaintRule:
		return runRulesV1(r.taintRule, op, o, old, opts)
	}
	panic(fmt.Sprintf("no v1 rules for %T", obj))
}

func runRulesV1[T object](r rules[T], op operation, obj T, old runtime.Object, opts Options) field.ErrorList {
	o := obj.DeepCopyObject().(T)
	var prev T
	if old != nil {
		prev = old.DeepCopyObject().(T)
	}
	errs, _ := r.run(o, prev, op, opts, release("1.37"), "v1")
	return dedupe(errs)
}

// v1Case is one row of a v1 rule table: obj to create, or obj with old for
// an update or a status update; gates override defaults. want lists "Type
// path" pairs; details "Type path: substring" that some error of that type
// and path must contain in its detail, absent such pairs that no error may
// have (a handwritten error the declarative one replaces).
type v1Case struct {
	name    string
	op      operation
	obj     runtime.Object
	old     runtime.Object
	gates   gatesV1
	strict  bool
	want    []string
	details []string
	absent  []string
}

func runV1Cases(t *testing.T, cases []v1Case) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, _ := testEnvV1(tc.gates)
			errs := validateV1(env, tc.op, tc.obj, tc.old, Options{Strict: tc.strict})
			expectErrors(t, errs, tc.want...)
			expectDetails(t, errs, tc.details...)
			for _, d := range tc.absent {
				head, sub, _ := strings.Cut(d, ": ")
				for _, e := range errs {
					if shortTypes[e.Type]+" "+e.Field == head && strings.Contains(e.Detail, sub) {
						t.Errorf("unexpected %s: %s", head, e.Detail)
					}
				}
			}
		})
	}
}

// expectDetails checks "Type path: substring" entries.
func expectDetails(t *testing.T, errs field.ErrorList, details ...string) {
	t.Helper()
	for _, d := range details {
		head, sub, _ := strings.Cut(d, ": ")
		found := false
		for _, e := range errs {
			if shortTypes[e.Type]+" "+e.Field == head && strings.Contains(e.Detail, sub) {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s with detail containing %q in %v", head, sub, errs)
		}
	}
}

// ---------------------------------------------------------------------------
// Full objects: every 1.37 field set, validly.

var (
	added1 = metav1.NewTime(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	q      = apiresource.MustParse
	qp     = func(s string) *apiresource.Quantity { v := apiresource.MustParse(s); return &v }
)

func fqn(s string) *resourcev1.FullyQualifiedName { v := resourcev1.FullyQualifiedName(s); return &v }

func cel1(expr string) resourcev1.DeviceSelector {
	return resourcev1.DeviceSelector{CEL: &resourcev1.CELDeviceSelector{Expression: expr}}
}

func opaque1(driver, params string) *resourcev1.OpaqueDeviceConfiguration {
	return &resourcev1.OpaqueDeviceConfiguration{Driver: driver, Parameters: runtime.RawExtension{Raw: []byte(params)}}
}

func tolerations1() []resourcev1.DeviceToleration {
	return []resourcev1.DeviceToleration{
		{Key: "example.com/flaky", Operator: resourcev1.DeviceTolerationOpEqual, Value: "yes", Effect: resourcev1.DeviceTaintEffectNoExecute, TolerationSeconds: ptr(int64(30))},
		{Operator: resourcev1.DeviceTolerationOpExists, Effect: resourcev1.DeviceTaintEffectNone},
		{Key: "maintenance", Operator: resourcev1.DeviceTolerationOpExists},
	}
}

// v1ClaimSpec uses exactly (with admin access, tolerations, capacity,
// derived attributes) and firstAvailable, both constraint kinds and a
// configuration.
func v1ClaimSpec() resourcev1.ResourceClaimSpec {
	return resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{
		Requests: []resourcev1.DeviceRequest{
			{Name: "gpu", Exactly: &resourcev1.ExactDeviceRequest{
				DeviceClassName: "gpu.example.com",
				Selectors:       []resourcev1.DeviceSelector{cel1(`device.attributes["dra.example.com"].model == "a100"`)},
				AllocationMode:  resourcev1.DeviceAllocationModeExactCount,
				Count:           2,
				AdminAccess:     ptr(true),
				Tolerations:     tolerations1(),
				Capacity:        &resourcev1.CapacityRequirements{Requests: map[resourcev1.QualifiedName]apiresource.Quantity{"memory": q("1Gi")}},
				DerivedAttributes: []resourcev1.DeviceDerivedAttribute{
					{Name: "dra.example.com/numa", Expression: `device.attributes["dra.example.com"].numa`},
				},
			}},
			{Name: "nic", FirstAvailable: []resourcev1.DeviceSubRequest{
				{
					Name: "fast", DeviceClassName: "nic.example.com",
					Selectors:      []resourcev1.DeviceSelector{cel1(`device.attributes["nic.example.com"].speed >= 100`)},
					AllocationMode: resourcev1.DeviceAllocationModeAll,
					Tolerations:    tolerations1(),
					Capacity:       &resourcev1.CapacityRequirements{Requests: map[resourcev1.QualifiedName]apiresource.Quantity{"bandwidth": q("10G")}},
					DerivedAttributes: []resourcev1.DeviceDerivedAttribute{
						{Name: "dra.example.com/rack", Expression: `device.attributes["nic.example.com"].rack`},
					},
				},
				{Name: "slow", DeviceClassName: "nic.example.com", AllocationMode: resourcev1.DeviceAllocationModeExactCount, Count: 1},
			}},
		},
		Constraints: []resourcev1.DeviceConstraint{
			{Requests: []string{"gpu", "nic/fast"}, MatchAttribute: fqn("dra.example.com/numa")},
			{Requests: []string{"nic"}, DistinctAttribute: fqn("dra.example.com/rack")},
			{MatchAttribute: fqn("dra.example.com/model")},
		},
		Config: []resourcev1.DeviceClaimConfiguration{
			{Requests: []string{"gpu", "nic/slow"}, DeviceConfiguration: resourcev1.DeviceConfiguration{Opaque: opaque1("dra.example.com", `{"sharing":"timeSlicing"}`)}},
			{DeviceConfiguration: resourcev1.DeviceConfiguration{Opaque: opaque1("nic.example.com", `{}`)}},
		},
	}}
}

func v1Claim(muts ...func(*resourcev1.ResourceClaim)) *resourcev1.ResourceClaim {
	c := &resourcev1.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "claim", Namespace: adminNamespace, ResourceVersion: "7", Labels: map[string]string{"app": "x"}},
		Spec:       v1ClaimSpec(),
	}
	for _, m := range muts {
		m(c)
	}
	return c
}

const shareID1 = "123e4567-e89b-12d3-a456-426614174000"

func v1Allocation() *resourcev1.AllocationResult {
	share := types.UID(shareID1)
	return &resourcev1.AllocationResult{
		Devices: resourcev1.DeviceAllocationResult{
			Results: []resourcev1.DeviceRequestAllocationResult{
				{
					Request: "gpu", Driver: "dra.example.com", Pool: "node-1", Device: "gpu-0",
					AdminAccess: ptr(true), Tolerations: tolerations1(),
					BindingConditions: []string{"example.com/attached"}, BindingFailureConditions: []string{"example.com/failed"},
					ShareID:            &share,
					ConsumedCapacity:   map[resourcev1.QualifiedName]apiresource.Quantity{"memory": q("1Gi")},
					SkipNodeOperations: []resourcev1.SkipNodeOperation{resourcev1.SkipNodeOperationNodePrepareResources, resourcev1.SkipNodeOperationNodeUnprepareResources},
				},
				{Request: "gpu", Driver: "dra.example.com", Pool: "node-1", Device: "gpu-1", SkipNodeOperations: []resourcev1.SkipNodeOperation{resourcev1.SkipNodeOperationAll}},
				{Request: "nic/fast", Driver: "nic.example.com", Pool: "cluster/rack-1", Device: "nic-0"},
			},
			Config: []resourcev1.DeviceAllocationConfiguration{
				{Source: resourcev1.AllocationConfigSourceClass, Requests: []string{"gpu"}, DeviceConfiguration: resourcev1.DeviceConfiguration{Opaque: opaque1("dra.example.com", `{}`)}},
				{Source: resourcev1.AllocationConfigSourceClaim, DeviceConfiguration: resourcev1.DeviceConfiguration{Opaque: opaque1("dra.example.com", `{"a":1}`)}},
			},
		},
		NodeSelector:        nodeSelectorFor("node-1"),
		AllocationTimestamp: &added1,
	}
}

var (
	pod1v1   = resourcev1.ResourceClaimConsumerReference{Resource: "pods", Name: "pod-1", UID: "uid-1"}
	workload = resourcev1.ResourceClaimConsumerReference{APIGroup: "apps", Resource: "statefulsets", Name: "db", UID: "uid-9"}
)

func v1DeviceStatus() resourcev1.AllocatedDeviceStatus {
	return resourcev1.AllocatedDeviceStatus{
		Driver: "dra.example.com", Pool: "node-1", Device: "gpu-0", ShareID: ptr(shareID1),
		Conditions: []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, LastTransitionTime: added1, Reason: "Prepared", Message: "ok"}},
		Data:       &runtime.RawExtension{Raw: []byte(`{"health":"good"}`)},
		NetworkData: &resourcev1.NetworkDeviceData{
			InterfaceName: "eth1", IPs: []string{"10.9.8.1/24", "2001:db8::1/64"}, HardwareAddress: "ea:9f:2a:1b:0c:11",
		},
	}
}

// v1Allocated is v1Claim with a full status.
func v1Allocated(muts ...func(*resourcev1.ResourceClaim)) *resourcev1.ResourceClaim {
	return v1Claim(append([]func(*resourcev1.ResourceClaim){func(c *resourcev1.ResourceClaim) {
		c.Status = resourcev1.ResourceClaimStatus{
			Allocation:  v1Allocation(),
			ReservedFor: []resourcev1.ResourceClaimConsumerReference{pod1v1, workload},
			Devices:     []resourcev1.AllocatedDeviceStatus{v1DeviceStatus()},
		}
	}}, muts...)...)
}

func v1Template(muts ...func(*resourcev1.ResourceClaimTemplate)) *resourcev1.ResourceClaimTemplate {
	t := &resourcev1.ResourceClaimTemplate{
		ObjectMeta: metav1.ObjectMeta{Name: "template", Namespace: adminNamespace, ResourceVersion: "3"},
		Spec: resourcev1.ResourceClaimTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "x"}, Annotations: map[string]string{"example.com/note": "x"}},
			Spec:       v1ClaimSpec(),
		},
	}
	for _, m := range muts {
		m(t)
	}
	return t
}

func v1Class(muts ...func(*resourcev1.DeviceClass)) *resourcev1.DeviceClass {
	c := &resourcev1.DeviceClass{
		ObjectMeta: metav1.ObjectMeta{Name: "gpu.example.com", ResourceVersion: "3", Generation: 1},
		Spec: resourcev1.DeviceClassSpec{
			Selectors:            []resourcev1.DeviceSelector{cel1(`device.driver == "dra.example.com"`)},
			Config:               []resourcev1.DeviceClassConfiguration{{DeviceConfiguration: resourcev1.DeviceConfiguration{Opaque: opaque1("dra.example.com", `{"x":true}`)}}},
			ExtendedResourceName: ptr("example.com/gpu"),
		},
	}
	for _, m := range muts {
		m(c)
	}
	return c
}

func v1TaintRule(muts ...func(*resourcev1.DeviceTaintRule)) *resourcev1.DeviceTaintRule {
	r := &resourcev1.DeviceTaintRule{
		ObjectMeta: metav1.ObjectMeta{Name: "maintenance", ResourceVersion: "3", Generation: 1},
		Spec: resourcev1.DeviceTaintRuleSpec{
			DeviceSelector: &resourcev1.DeviceTaintSelector{Driver: ptr("dra.example.com"), Pool: ptr("node-1"), Device: ptr("gpu-0")},
			Taint:          resourcev1.DeviceTaint{Key: "example.com/maintenance", Value: "planned", Effect: resourcev1.DeviceTaintEffectNoExecute, TimeAdded: &added1},
		},
		Status: resourcev1.DeviceTaintRuleStatus{Conditions: []metav1.Condition{
			{Type: resourcev1.DeviceTaintConditionEvictionInProgress, Status: metav1.ConditionFalse, LastTransitionTime: added1, Reason: "Completed", ObservedGeneration: 1},
		}},
	}
	for _, m := range muts {
		m(r)
	}
	return r
}

func attrString(s string) resourcev1.DeviceAttribute {
	return resourcev1.DeviceAttribute{StringValue: &s}
}

// v1Device is a device with every per-device field of 1.37 (node selection
// by name, as for a slice with perDeviceNodeSelection).
func v1Device(name string) resourcev1.Device {
	return resourcev1.Device{
		Name: name,
		Attributes: map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{
			"model":                attrString("a100"),
			"partitionType":        attrString("full"),
			"dra.example.com/numa": {IntValue: ptr(int64(0))},
			"driverVersion":        {VersionValue: ptr("1.2.3-rc.1+build.5")},
			"fast":                 {BoolValue: ptr(true)},
			"lanes":                {IntValues: []int64{1, 2}},
			"features":             {BoolValues: []bool{true, false}},
			"vendor.example.com/tags": {
				StringValues: []string{"a", "b"},
			},
			"firmware": {VersionValues: []string{"1.0.0", "2.0.0"}},
		},
		Capacity: map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{
			"memory": {Value: q("40Gi"), RequestPolicy: &resourcev1.CapacityRequestPolicy{
				Default:    qp("1Gi"),
				ValidRange: &resourcev1.CapacityRequestPolicyRange{Min: qp("1Gi"), Max: qp("40Gi"), Step: qp("1Gi")},
			}},
			"cores": {Value: q("8"), RequestPolicy: &resourcev1.CapacityRequestPolicy{
				Default: qp("2"), ValidValues: []apiresource.Quantity{q("1"), q("2"), q("4"), q("8")},
			}},
			"dra.example.com/slots": {Value: q("4")},
		},
		ConsumesCounters: []resourcev1.DeviceCounterConsumption{{
			CounterSet: "gpu-counters", Counters: map[string]resourcev1.Counter{"memory": {Value: q("40Gi")}},
			CompatibilityGroups: []string{"whole", "mig"},
		}},
		NodeName:                 ptr("node-1"),
		Taints:                   []resourcev1.DeviceTaint{{Key: "example.com/degraded", Value: "ecc", Effect: resourcev1.DeviceTaintEffectNoSchedule, TimeAdded: &added1}},
		BindsToNode:              ptr(true),
		BindingConditions:        []string{"example.com/attached"},
		BindingFailureConditions: []string{"example.com/failed"},
		AllowMultipleAllocations: ptr(true),
		NodeAllocatableResources: map[corev1.ResourceName]resourcev1.NodeAllocatableResource{
			corev1.ResourceMemory: {
				Mapping:  &resourcev1.NodeAllocatableMapping{CapacityKey: ptr(resourcev1.QualifiedName("memory")), CapacityMultiplier: qp("1")},
				Overhead: &resourcev1.NodeAllocatableOverhead{PerPod: qp("10Mi"), PerContainer: qp("1Mi")},
			},
			corev1.ResourceCPU: {Mapping: &resourcev1.NodeAllocatableMapping{DeviceMultiplier: qp("2")}},
			"hugepages-2Mi":    {Overhead: &resourcev1.NodeAllocatableOverhead{PerPod: qp("0")}},
		},
	}
}

// v1Slice has devices with every field, each selecting nodes its own way.
func v1Slice(muts ...func(*resourcev1.ResourceSlice)) *resourcev1.ResourceSlice {
	gpu1 := v1Device("gpu-1")
	gpu1.NodeName, gpu1.AllNodes = nil, ptr(true)
	gpu2 := v1Device("gpu-2")
	gpu2.NodeName, gpu2.NodeSelector = nil, nodeSelectorFor("node-2")
	s := &resourcev1.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "node-1-gpus", ResourceVersion: "5", Generation: 1},
		Spec: resourcev1.ResourceSliceSpec{
			Driver:                 "dra.example.com",
			Pool:                   resourcev1.ResourcePool{Name: "cluster/node-1", Generation: 3, ResourceSliceCount: 2},
			PerDeviceNodeSelection: ptr(true),
			Devices:                []resourcev1.Device{v1Device("gpu-0"), gpu1, gpu2},
			PartitionTypeAttribute: fqn("dra.example.com/partitionType"),
			SkipNodeOperations:     []resourcev1.SkipNodeOperation{resourcev1.SkipNodeOperationNodePrepareResources, resourcev1.SkipNodeOperationAll},
		},
	}
	for _, m := range muts {
		m(s)
	}
	return s
}

// v1CounterSlice is the other slice of the pool: the shared counters.
func v1CounterSlice(muts ...func(*resourcev1.ResourceSlice)) *resourcev1.ResourceSlice {
	s := &resourcev1.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "node-1-counters", ResourceVersion: "5", Generation: 1},
		Spec: resourcev1.ResourceSliceSpec{
			Driver:   "dra.example.com",
			Pool:     resourcev1.ResourcePool{Name: "cluster/node-1", Generation: 3, ResourceSliceCount: 2},
			NodeName: ptr("node-1"),
			SharedCounters: []resourcev1.CounterSet{
				{Name: "gpu-counters", Counters: map[string]resourcev1.Counter{"memory": {Value: q("80Gi")}, "sm": {Value: q("132")}}},
				{Name: "nic-counters", Counters: map[string]resourcev1.Counter{"bandwidth": {Value: q("400G")}}},
			},
		},
	}
	for _, m := range muts {
		m(s)
	}
	return s
}

// gatesAllV1 enables every gate that changes validation.
var gatesAllV1 = gatesV1{
	features.DRAConsumableCapacity:       true,
	features.DRAListTypeAttributes:       true,
	features.DRAFractionalCapacityRange:  true,
	features.DRAPartitionableDevicesType: true,
}

// TestV1ValidObjects: the full objects pass every operation, with the
// default gates and with all gates enabled, and the CEL expressions of a
// create are compiled (stored ones are not).
func TestV1ValidObjects(t *testing.T) {
	claim, allocated := v1Claim(), v1Allocated()
	renamedLabels := func(o metav1.Object) { o.SetLabels(map[string]string{"app": "y"}) }
	steps := []struct {
		name     string
		op       operation
		obj, old runtime.Object
	}{
		{"claim create", opCreate, claim, nil},
		{"claim update", opUpdate, v1Claim(func(c *resourcev1.ResourceClaim) { renamedLabels(c) }), claim},
		{"claim allocate", opStatus, allocated, claim},
		{"claim status unchanged", opStatus, allocated, allocated},
		{"claim deallocate", opStatus, claim, v1Allocated(func(c *resourcev1.ResourceClaim) { c.Status.ReservedFor = nil; c.Status.Devices = nil })},
		{"template create", opCreate, v1Template(), nil},
		{"template update", opUpdate, v1Template(func(t *resourcev1.ResourceClaimTemplate) { renamedLabels(t) }), v1Template()},
		{"class create", opCreate, v1Class(), nil},
		{"class update", opUpdate, v1Class(func(c *resourcev1.DeviceClass) { c.Spec.ExtendedResourceName = ptr("example.com/other") }), v1Class()},
		{"slice create", opCreate, v1Slice(), nil},
		{"counter slice create", opCreate, v1CounterSlice(), nil},
		{"slice for all nodes", opCreate, v1CounterSlice(func(s *resourcev1.ResourceSlice) { s.Spec.NodeName, s.Spec.AllNodes = nil, ptr(true) }), nil},
		{"slice for selected nodes", opCreate, v1CounterSlice(func(s *resourcev1.ResourceSlice) {
			s.Spec.NodeName, s.Spec.NodeSelector = nil, &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
				MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "example.com/rack", Operator: corev1.NodeSelectorOpIn, Values: []string{"r1", "r2"}}},
				MatchFields:      []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"node-9"}}},
			}}}
		}), nil},
		{"slice update", opUpdate, v1Slice(func(s *resourcev1.ResourceSlice) { s.Spec.Pool.Generation = 4 }), v1Slice()},
		{"taint rule create", opCreate, v1TaintRule(), nil},
		{"taint rule update", opUpdate, v1TaintRule(func(r *resourcev1.DeviceTaintRule) { r.Spec.Taint.Effect = resourcev1.DeviceTaintEffectNone }), v1TaintRule()},
		{"taint rule status", opStatus, v1TaintRule(func(r *resourcev1.DeviceTaintRule) { r.Status.Conditions[0].Status = metav1.ConditionTrue }), v1TaintRule()},
	}
	for _, gates := range []gatesV1{nil, gatesAllV1} {
		for _, s := range steps {
			t.Run(fmt.Sprintf("%s/gates=%d", s.name, len(gates)), func(t *testing.T) {
				obj := s.obj
				if s.name == "slice create" && gates == nil {
					// partitionTypeAttribute needs its alpha gate.
					obj = v1Slice(func(s *resourcev1.ResourceSlice) { s.Spec.PartitionTypeAttribute = nil })
				}
				if s.name == "slice update" && gates == nil {
					t.Skip("partitionTypeAttribute is Forbidden while DRAPartitionableDevicesType is off")
				}
				env, _ := testEnvV1(gates)
				expectErrors(t, validateV1(env, s.op, obj, s.old, Options{Strict: true}))
			})
		}
	}

	t.Run("CEL", func(t *testing.T) {
		env, cel := testEnvV1(gatesV1{features.DRAListTypeAttributes: true})
		expectErrors(t, validateV1(env, opCreate, claim, nil, Options{}))
		var got []string
		for _, c := range cel.calls {
			got = append(got, fmt.Sprintf("%v %q %s", c.opts.DerivedAttribute, c.opts.Gates.String(), c.expression))
		}
		sort.Strings(got)
		want := []string{
			`false "DRAListTypeAttributes=true" device.attributes["dra.example.com"].model == "a100"`,
			`false "DRAListTypeAttributes=true" device.attributes["nic.example.com"].speed >= 100`,
			`true "DRAListTypeAttributes=true" device.attributes["dra.example.com"].numa`,
			`true "DRAListTypeAttributes=true" device.attributes["nic.example.com"].rack`,
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("compiled\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}

		cel.calls = nil
		expectErrors(t, validateV1(env, opUpdate, v1Claim(func(c *resourcev1.ResourceClaim) { c.Labels = nil }), claim, Options{}))
		expectErrors(t, validateV1(env, opUpdate, v1Class(func(c *resourcev1.DeviceClass) { c.Labels = map[string]string{"a": "b"} }), v1Class(), Options{}))
		if len(cel.calls) != 0 {
			t.Errorf("stored expressions compiled: %v", cel.calls)
		}
		// A template update validates the whole spec as new.
		expectErrors(t, validateV1(env, opUpdate, v1Template(), v1Template(), Options{}))
		if len(cel.calls) != 4 {
			t.Errorf("template update compiled %d expressions, want 4", len(cel.calls))
		}
	})
}

// TestV1RulesShape: every kind has create and update rules, status rules
// exactly for claims and taint rules, and the scopes are the server's.
func TestV1RulesShape(t *testing.T) {
	r := rulesV1(envV1{})
	if !r.claim.namespaced || !r.template.namespaced || r.class.namespaced || r.slice.namespaced || r.taintRule.namespaced {
		t.Error("scopes differ from the server's")
	}
	if r.claim.status == nil || r.taintRule.status == nil || r.template.status != nil || r.class.status != nil || r.slice.status != nil {
		t.Error("status rules differ from the server's subresources")
	}
	env, _ := testEnvV1(nil)
	errs := validateV1(env, opStatus, v1Class(), v1Class(), Options{})
	expectErrors(t, errs, "NotFound status")
}
