package validation

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/api/resource/v1alpha3"
	"k8s.io/api/resource/v1beta1"
	"k8s.io/api/resource/v1beta2"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource/features"
)

// These tests go through the registry (ValidateObject*WithWarnings), so
// they see what a 1.37 server does with a write: drop the fields whose
// gate is off, then validate what is left.

// unlabelled is the namespace lookup of a cluster whose namespaces lack
// the admin-access label, so that a kept adminAccess is an error.
func unlabelled(string) (map[string]string, error) { return map[string]string{"team": "a"}, nil }

// minimal objects: nothing gated, valid with any gates.

func dropClaim(mut func(*resourcev1.ResourceClaim)) *resourcev1.ResourceClaim {
	c := &resourcev1.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "claim", Namespace: "team-a", ResourceVersion: "5"},
		Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{
			{Name: "a", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu"}},
		}}},
	}
	if mut != nil {
		mut(c)
	}
	return c
}

// dropAllocated is dropClaim allocated, with mut applied to its one result
// and then to the claim.
func dropAllocated(result func(*resourcev1.DeviceRequestAllocationResult), mut func(*resourcev1.ResourceClaim)) *resourcev1.ResourceClaim {
	return dropClaim(func(c *resourcev1.ResourceClaim) {
		r := resourcev1.DeviceRequestAllocationResult{Request: "a", Driver: "gpu.example.com", Pool: "p", Device: "d0"}
		if result != nil {
			result(&r)
		}
		c.Status.Allocation = &resourcev1.AllocationResult{Devices: resourcev1.DeviceAllocationResult{Results: []resourcev1.DeviceRequestAllocationResult{r}}}
		if mut != nil {
			mut(c)
		}
	})
}

func dropSlice(mut func(*resourcev1.ResourceSlice)) *resourcev1.ResourceSlice {
	s := &resourcev1.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "slice", ResourceVersion: "5"},
		Spec: resourcev1.ResourceSliceSpec{
			Driver:   "gpu.example.com",
			Pool:     resourcev1.ResourcePool{Name: "p", ResourceSliceCount: 1},
			NodeName: ptr("node-a"),
			Devices:  []resourcev1.Device{{Name: "d0"}},
		},
	}
	if mut != nil {
		mut(s)
	}
	return s
}

func dropDevice(mut func(*resourcev1.Device)) *resourcev1.ResourceSlice {
	return dropSlice(func(s *resourcev1.ResourceSlice) { mut(&s.Spec.Devices[0]) })
}

func counters1() map[string]resourcev1.Counter {
	return map[string]resourcev1.Counter{"memory": {Value: apiresource.MustParse("1Gi")}}
}

// dropCase is one field a gate covers, set to a value that validation
// rejects, so that the outcome shows whether the field reached validation.
type dropCase struct {
	name string
	// off are the gates turned off; the others are on.
	off []features.Name
	// op is opCreate or opStatus; an update of the main resource (or a
	// second status update) with the object itself as the stored one is
	// tried too.
	op  operation
	obj runtime.Object
	// before is the stored object of a status update.
	before runtime.Object
	// path is the dropped field, as the warning names it.
	path string
	// errPath is where the rules report the bad value while the field
	// is kept (often path itself).
	errPath string
	// gates are the gates the warning names (default: off).
	gates []features.Name
	// keptOnUpdate is an error path that proves, after an update with
	// the field in the stored object, that the field was kept: "" means
	// errPath is reported again; "!spec" means no error on exactly "spec"
	// (a claim's spec is immutable, so a dropped field would change it);
	// "-" means the rules do not look at an unchanged field again
	// (ratcheting), so the absent warning is the only sign.
	keptOnUpdate string
}

// dropCases has one case per gated field, through the registry. It is a
// table, longer than 80 lines for that reason: each case reads on its own.
func dropCases() []dropCase {
	badToleration := []resourcev1.DeviceToleration{{Key: "k", Operator: "Sometimes"}}
	share := types.UID("not-a-uuid")
	return []dropCase{
		{name: "DRAPrioritizedList: firstAvailable", off: []features.Name{features.DRAPrioritizedList},
			obj: dropClaim(func(c *resourcev1.ResourceClaim) {
				c.Spec.Devices.Requests[0] = resourcev1.DeviceRequest{Name: "a", FirstAvailable: []resourcev1.DeviceSubRequest{{Name: "Bad_Sub", DeviceClassName: "gpu"}}}
			}),
			path: "spec.devices.requests[0].firstAvailable", keptOnUpdate: "!spec"},
		{name: "DRADeviceTaints: exactly.tolerations", off: []features.Name{features.DRADeviceTaints},
			obj:  dropClaim(func(c *resourcev1.ResourceClaim) { c.Spec.Devices.Requests[0].Exactly.Tolerations = badToleration }),
			path: "spec.devices.requests[0].exactly.tolerations", keptOnUpdate: "!spec"},
		{name: "DRADeviceTaints: slice taints", off: []features.Name{features.DRADeviceTaints},
			obj:  dropDevice(func(d *resourcev1.Device) { d.Taints = []resourcev1.DeviceTaint{{Key: "k", Effect: "Sometimes"}} }),
			path: "spec.devices[0].taints", keptOnUpdate: "-"},
		{name: "DRAAdminAccess: exactly.adminAccess", off: []features.Name{features.DRAAdminAccess},
			obj:  dropClaim(func(c *resourcev1.ResourceClaim) { c.Spec.Devices.Requests[0].Exactly.AdminAccess = ptr(true) }),
			path: "spec.devices.requests[0].exactly.adminAccess", errPath: "spec.devices.requests[0].adminAccess", keptOnUpdate: "!spec"},
		{name: "DRAAdminAccess: results[].adminAccess", off: []features.Name{features.DRAAdminAccess}, op: opStatus,
			obj:    dropAllocated(func(r *resourcev1.DeviceRequestAllocationResult) { r.AdminAccess = ptr(true) }, nil),
			before: dropClaim(nil),
			path:   "status.allocation.devices.results[0].adminAccess", keptOnUpdate: "!status.allocation"},
		{name: "DRAConsumableCapacity: distinctAttribute", off: []features.Name{features.DRAConsumableCapacity},
			obj: dropClaim(func(c *resourcev1.ResourceClaim) {
				c.Spec.Devices.Constraints = []resourcev1.DeviceConstraint{{DistinctAttribute: fqn("no-domain")}}
			}),
			path: "spec.devices.constraints[0].distinctAttribute", keptOnUpdate: "!spec"},
		{name: "DRAConsumableCapacity: requestPolicy", off: []features.Name{features.DRAConsumableCapacity},
			obj: dropDevice(func(d *resourcev1.Device) {
				d.Capacity = map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{"memory": {
					Value:         apiresource.MustParse("1Gi"),
					RequestPolicy: &resourcev1.CapacityRequestPolicy{ValidValues: []apiresource.Quantity{apiresource.MustParse("2Gi")}},
				}}
			}),
			path: "spec.devices[0].capacity[memory].requestPolicy", keptOnUpdate: "-"},
		{name: "DRAConsumableCapacity: results[].shareID", off: []features.Name{features.DRAConsumableCapacity}, op: opStatus,
			obj:    dropAllocated(func(r *resourcev1.DeviceRequestAllocationResult) { r.ShareID = &share }, nil),
			before: dropClaim(nil),
			path:   "status.allocation.devices.results[0].shareID", keptOnUpdate: "!status.allocation"},
		{name: "DRADerivedAttributes: exactly.derivedAttributes", off: []features.Name{features.DRADerivedAttributes},
			obj: dropClaim(func(c *resourcev1.ResourceClaim) {
				c.Spec.Devices.Requests[0].Exactly.DerivedAttributes = []resourcev1.DeviceDerivedAttribute{{Name: "no-domain", Expression: "device.driver"}}
			}),
			path: "spec.devices.requests[0].exactly.derivedAttributes", keptOnUpdate: "!spec"},
		{name: "DRAResourceClaimDeviceStatus: status.devices", off: []features.Name{features.DRAResourceClaimDeviceStatus, features.DRADeviceBindingConditions, features.DRAResourceClaimGranularStatusAuthorization}, op: opStatus,
			obj: dropAllocated(nil, func(c *resourcev1.ResourceClaim) {
				c.Status.Devices = []resourcev1.AllocatedDeviceStatus{{Driver: "gpu.example.com", Pool: "p", Device: "not-allocated"}}
			}),
			before: dropClaim(nil),
			path:   "status.devices", gates: []features.Name{features.DRAResourceClaimDeviceStatus}},
		{name: "DRADeviceBindingConditions: results[].bindingConditions", off: []features.Name{features.DRADeviceBindingConditions}, op: opStatus,
			obj:    dropAllocated(func(r *resourcev1.DeviceRequestAllocationResult) { r.BindingConditions = []string{"not a name"} }, nil),
			before: dropClaim(nil),
			path:   "status.allocation.devices.results[0].bindingConditions", keptOnUpdate: "!status.allocation"},
		{name: "DRADeviceBindingConditions: slice bindingConditions", off: []features.Name{features.DRADeviceBindingConditions},
			obj:  dropDevice(func(d *resourcev1.Device) { d.BindingConditions = []string{"not a name"} }),
			path: "spec.devices[0].bindingConditions"},
		{name: "DRAPartitionableDevices: consumesCounters", off: []features.Name{features.DRAPartitionableDevices, features.DRADeviceCompatibilityGroups, features.DRAPartitionableDevicesType},
			obj: dropDevice(func(d *resourcev1.Device) {
				d.ConsumesCounters = []resourcev1.DeviceCounterConsumption{{CounterSet: "Bad_Set", Counters: counters1()}}
			}),
			path: "spec.devices[0].consumesCounters", gates: []features.Name{features.DRAPartitionableDevices}},
		{name: "DRADeviceCompatibilityGroups: compatibilityGroups", off: []features.Name{features.DRADeviceCompatibilityGroups},
			obj: dropDevice(func(d *resourcev1.Device) {
				d.ConsumesCounters = []resourcev1.DeviceCounterConsumption{{CounterSet: "set", Counters: counters1(), CompatibilityGroups: []string{"Bad_Group"}}}
			}),
			path: "spec.devices[0].consumesCounters[0].compatibilityGroups", keptOnUpdate: "-"},
		{name: "DRANodeAllocatableResources: nodeAllocatableResources", off: []features.Name{features.DRANodeAllocatableResources},
			obj: dropDevice(func(d *resourcev1.Device) {
				d.NodeAllocatableResources = map[corev1.ResourceName]resourcev1.NodeAllocatableResource{"example.com/foo": {}}
			}),
			path: "spec.devices[0].nodeAllocatableResources"},
		{name: "DRAListTypeAttributes: strings", off: []features.Name{features.DRAListTypeAttributes},
			obj: dropDevice(func(d *resourcev1.Device) {
				d.Attributes = map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{"a": {StringValues: []string{strings.Repeat("x", 65)}}}
			}),
			path: "spec.devices[0].attributes[a].strings"},
		{name: "DRAPartitionableDevicesType: partitionTypeAttribute", off: []features.Name{features.DRAPartitionableDevicesType},
			obj:  dropSlice(func(s *resourcev1.ResourceSlice) { s.Spec.PartitionTypeAttribute = fqn("no-domain") }),
			path: "spec.partitionTypeAttribute"},
		{name: "DRAPartitionableDevicesType: defaultPartitionTypeAttribute", off: []features.Name{features.DRAPartitionableDevicesType},
			obj: &v1alpha3.ResourcePoolStatusRequest{ObjectMeta: metav1.ObjectMeta{Name: "r", ResourceVersion: "5"},
				Spec: v1alpha3.ResourcePoolStatusRequestSpec{Driver: "gpu.example.com", DefaultPartitionTypeAttribute: ptr("no-domain")}},
			path: "spec.defaultPartitionTypeAttribute", keptOnUpdate: "!spec"},
		{name: "DRAOptionalNodeOperations: slice skipNodeOperations", off: []features.Name{features.DRAOptionalNodeOperations},
			obj:  dropSlice(func(s *resourcev1.ResourceSlice) { s.Spec.SkipNodeOperations = []resourcev1.SkipNodeOperation{"Bogus"} }),
			path: "spec.skipNodeOperations", keptOnUpdate: "-"},
		{name: "DRAOptionalNodeOperations: results[].skipNodeOperations", off: []features.Name{features.DRAOptionalNodeOperations}, op: opStatus,
			obj: dropAllocated(func(r *resourcev1.DeviceRequestAllocationResult) {
				r.SkipNodeOperations = []resourcev1.SkipNodeOperation{"Bogus"}
			}, nil),
			before: dropClaim(nil),
			path:   "status.allocation.devices.results[0].skipNodeOperations", keptOnUpdate: "!status.allocation"},
		{name: "DRAExtendedResource: extendedResourceName", off: []features.Name{features.DRAExtendedResource},
			obj: &resourcev1.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: "gpu", ResourceVersion: "5"},
				Spec: resourcev1.DeviceClassSpec{ExtendedResourceName: ptr("kubernetes.io/gpu")}},
			path: "spec.extendedResourceName"},
	}
}

// gatesOff is every gate on (AllAlpha, AllBeta) except off, locks ignored.
func gatesOff(t *testing.T, off ...features.Name) features.Gates {
	t.Helper()
	g, err := features.Parse("AllAlpha=true,AllBeta=true")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range off {
		g = g.With(n, false)
	}
	return g
}

// errorsUnder lists the errors at path or inside it.
func errorsUnder(errs field.ErrorList, path string) field.ErrorList {
	var out field.ErrorList
	for _, e := range errs {
		if e.Field == path || strings.HasPrefix(e.Field, path+".") || strings.HasPrefix(e.Field, path+"[") {
			out = append(out, e)
		}
	}
	return out
}

func validateWithWarnings(op operation, obj, old runtime.Object, opts Options) (field.ErrorList, []DropWarning) {
	switch op {
	case opCreate:
		return ValidateObjectWithWarnings(obj, opts)
	case opUpdate:
		return ValidateObjectUpdateWithWarnings(obj, old, opts)
	}
	return ValidateObjectStatusUpdateWithWarnings(obj, old, opts)
}

// TestValidateDropsGatedFields: for every field of ga-facts section 6,
// with its gate on the field is validated and nothing is dropped; with the
// gate off it is dropped with a warning naming the field and the gate, and
// its bad value is not reported; on an update whose stored object uses the
// field it is kept although the gate is off.
func TestValidateDropsGatedFields(t *testing.T) {
	for _, tc := range dropCases() {
		t.Run(tc.name, func(t *testing.T) {
			errPath := tc.errPath
			if errPath == "" {
				errPath = tc.path
			}
			wantGates := tc.gates
			if wantGates == nil {
				wantGates = tc.off
			}
			on := Options{FeatureGates: gatesOff(t), NamespaceLabels: unlabelled}
			off := Options{FeatureGates: gatesOff(t, tc.off...), NamespaceLabels: unlabelled}

			errs, warnings := validateWithWarnings(tc.op, tc.obj, tc.before, on)
			if len(warnings) != 0 {
				t.Errorf("gate on: warnings %v", warnings)
			}
			if len(errorsUnder(errs, errPath)) == 0 {
				t.Errorf("gate on: the bad value is not reported at %s: %v", errPath, errs)
			}

			errs, warnings = validateWithWarnings(tc.op, tc.obj, tc.before, off)
			want := DropWarning{Path: tc.path, Gates: wantGates}.String()
			if len(warnings) != 1 || warnings[0].String() != want {
				t.Errorf("gate off: warnings %q, want [%q]", warningLines(warnings), want)
			}
			if bad := errorsUnder(errs, errPath); len(bad) > 0 {
				t.Errorf("gate off: the dropped field was validated: %v", bad)
			}
			if bad := errorsUnder(errs, tc.path); len(bad) > 0 {
				t.Errorf("gate off: the dropped field was validated: %v", bad)
			}

			// An update of an object that uses the field keeps it.
			op := opUpdate
			if tc.op == opStatus {
				op = opStatus
			}
			errs, warnings = validateWithWarnings(op, tc.obj, tc.obj, off)
			if len(warnings) != 0 {
				t.Errorf("update, stored object uses the field: warnings %v", warnings)
			}
			switch kept := tc.keptOnUpdate; {
			case kept == "":
				if len(errorsUnder(errs, errPath)) == 0 {
					t.Errorf("update: the kept field is not validated at %s: %v", errPath, errs)
				}
			case strings.HasPrefix(kept, "!"):
				for _, e := range errs {
					if e.Field == kept[1:] {
						t.Errorf("update: %s changed, so the field was dropped: %v", kept[1:], e)
					}
				}
			}
		})
	}
}

// TestDropCasesCoverEveryGatedField: every gate of ga-facts section 6 has
// a case above.
func TestDropCasesCoverEveryGatedField(t *testing.T) {
	covered := map[features.Name]bool{}
	for _, tc := range dropCases() {
		for _, g := range tc.off {
			covered[g] = true
		}
	}
	for _, g := range []features.Name{
		features.DRAPrioritizedList, features.DRADeviceTaints, features.DRAAdminAccess, features.DRAConsumableCapacity,
		features.DRADerivedAttributes, features.DRAResourceClaimDeviceStatus, features.DRADeviceBindingConditions,
		features.DRAPartitionableDevices, features.DRADeviceCompatibilityGroups, features.DRANodeAllocatableResources,
		features.DRAListTypeAttributes, features.DRAPartitionableDevicesType, features.DRAOptionalNodeOperations,
		features.DRAExtendedResource,
	} {
		if !covered[g] {
			t.Errorf("no case turns %s off", g)
		}
	}
}

// With the 1.37 defaults (DRAListTypeAttributes off) a slice whose
// attribute has only a list value loses the value and is then refused for
// an attribute without one: the server's answer, which the warning
// explains.
func TestListAttributeDroppedLeavesNoValue(t *testing.T) {
	s := dropDevice(func(d *resourcev1.Device) {
		d.Attributes = map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{"lanes": {IntValues: []int64{1, 2}}}
	})
	errs, warnings := ValidateObjectWithWarnings(s, Options{})
	if want := warningLine("spec.devices[0].attributes[lanes].ints", features.DRAListTypeAttributes); len(warnings) != 1 || warnings[0].String() != want {
		t.Errorf("warnings %q, want [%q]", warningLines(warnings), want)
	}
	expectErrors(t, errs, "Invalid spec.devices[0].attributes[lanes]")
}

// A v1beta1 object is validated in its v1 form; its warnings name the
// fields where v1beta1 has them. v1beta2 has v1's paths.
func TestDropWarningsInTheObjectsVersion(t *testing.T) {
	off := Options{FeatureGates: gatesOff(t, features.DRADeviceTaints, features.DRAAdminAccess)}
	meta := metav1.ObjectMeta{Name: "c", Namespace: "team-a"}
	tol := []v1beta1.DeviceToleration{{Key: "k", Operator: v1beta1.DeviceTolerationOpExists}}
	for _, tc := range []struct {
		name string
		obj  runtime.Object
		want []string
	}{
		{"v1beta1 claim", &v1beta1.ResourceClaim{ObjectMeta: meta, Spec: v1beta1.ResourceClaimSpec{Devices: v1beta1.DeviceClaim{Requests: []v1beta1.DeviceRequest{
			{Name: "a", DeviceClassName: "gpu", AdminAccess: ptr(true), Tolerations: tol},
			{Name: "b", FirstAvailable: []v1beta1.DeviceSubRequest{{Name: "s", DeviceClassName: "gpu", Tolerations: tol}}},
		}}}}, []string{
			warningLine("spec.devices.requests[0].tolerations", features.DRADeviceTaints),
			warningLine("spec.devices.requests[1].firstAvailable[0].tolerations", features.DRADeviceTaints),
			warningLine("spec.devices.requests[0].adminAccess", features.DRAAdminAccess),
		}},
		{"v1beta1 template", &v1beta1.ResourceClaimTemplate{ObjectMeta: meta, Spec: v1beta1.ResourceClaimTemplateSpec{Spec: v1beta1.ResourceClaimSpec{Devices: v1beta1.DeviceClaim{Requests: []v1beta1.DeviceRequest{
			{Name: "a", DeviceClassName: "gpu", Tolerations: tol},
		}}}}}, []string{warningLine("spec.spec.devices.requests[0].tolerations", features.DRADeviceTaints)}},
		{"v1beta1 slice", &v1beta1.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: "s"}, Spec: v1beta1.ResourceSliceSpec{
			Driver: "gpu.example.com", Pool: v1beta1.ResourcePool{Name: "p", ResourceSliceCount: 1}, NodeName: "node-a",
			Devices: []v1beta1.Device{{Name: "d0", Basic: &v1beta1.BasicDevice{Taints: []v1beta1.DeviceTaint{{Key: "k", Effect: v1beta1.DeviceTaintEffectNoSchedule}}}}},
		}}, []string{warningLine("spec.devices[0].basic.taints", features.DRADeviceTaints)}},
		{"v1beta2 claim", &v1beta2.ResourceClaim{ObjectMeta: meta, Spec: v1beta2.ResourceClaimSpec{Devices: v1beta2.DeviceClaim{Requests: []v1beta2.DeviceRequest{
			{Name: "a", Exactly: &v1beta2.ExactDeviceRequest{DeviceClassName: "gpu", Tolerations: []v1beta2.DeviceToleration{{Key: "k", Operator: v1beta2.DeviceTolerationOpExists}}}},
		}}}}, []string{warningLine("spec.devices.requests[0].exactly.tolerations", features.DRADeviceTaints)}},
		{"v1 List", &resourcev1.ResourceSliceList{Items: []resourcev1.ResourceSlice{
			*dropSlice(nil),
			*dropDevice(func(d *resourcev1.Device) {
				d.Taints = []resourcev1.DeviceTaint{{Key: "k", Effect: resourcev1.DeviceTaintEffectNoSchedule}}
			}),
		}}, []string{warningLine("items[1].spec.devices[0].taints", features.DRADeviceTaints)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs, warnings := ValidateObjectWithWarnings(tc.obj, off)
			if len(errs) != 0 {
				t.Errorf("errors: %v", errs)
			}
			expectWarnings(t, warnings, tc.want)
		})
	}
}

func TestV1PathInVersion(t *testing.T) {
	for _, tc := range []struct{ version, kind, in, want string }{
		{"v1beta1", "ResourceClaim", "spec.devices.requests[3].exactly.capacity", "spec.devices.requests[3].capacity"},
		{"v1beta1", "ResourceClaim", "spec.devices.requests[3].firstAvailable[1].capacity", "spec.devices.requests[3].firstAvailable[1].capacity"},
		{"v1beta1", "ResourceClaim", "spec.devices.constraints[0].distinctAttribute", "spec.devices.constraints[0].distinctAttribute"},
		{"v1beta1", "ResourceClaim", "status.allocation.devices.results[0].shareID", "status.allocation.devices.results[0].shareID"},
		{"v1beta1", "ResourceClaimTemplate", "spec.spec.devices.requests[0].exactly.derivedAttributes", "spec.spec.devices.requests[0].derivedAttributes"},
		{"v1beta1", "ResourceSlice", "spec.devices[12].capacity[memory].requestPolicy", "spec.devices[12].basic.capacity[memory].requestPolicy"},
		{"v1beta1", "ResourceSlice", "spec.sharedCounters", "spec.sharedCounters"},
		{"v1beta1", "DeviceClass", "spec.extendedResourceName", "spec.extendedResourceName"},
		{"v1beta2", "ResourceSlice", "spec.devices[0].taints", "spec.devices[0].taints"},
		{"v1beta2", "ResourceClaim", "spec.devices.requests[0].exactly.tolerations", "spec.devices.requests[0].exactly.tolerations"},
	} {
		if got := v1PathInVersion(tc.version, tc.kind, tc.in); got != tc.want {
			t.Errorf("%s %s %s: got %s, want %s", tc.version, tc.kind, tc.in, got, tc.want)
		}
	}
}

// An update without metadata.resourceVersion: refused for v1
// DeviceTaintRules and ResourcePoolStatusRequests (main resource and
// status), as their storage refuses it before validating; allowed for the
// v1alpha3 and v1beta2 DeviceTaintRules and the other kinds.
func TestUpdateWithoutResourceVersion(t *testing.T) {
	taint := resourcev1.DeviceTaint{Key: "k", Effect: resourcev1.DeviceTaintEffectNoSchedule, TimeAdded: &added1}
	v1rule := &resourcev1.DeviceTaintRule{ObjectMeta: metav1.ObjectMeta{Name: "r", ResourceVersion: "4"}, Spec: resourcev1.DeviceTaintRuleSpec{Taint: taint}}
	b2rule := &v1beta2.DeviceTaintRule{ObjectMeta: metav1.ObjectMeta{Name: "r", ResourceVersion: "4"}, Spec: v1beta2.DeviceTaintRuleSpec{Taint: v1beta2.DeviceTaint{Key: "k", Effect: v1beta2.DeviceTaintEffectNoSchedule, TimeAdded: &added1}}}
	a3rule := &v1alpha3.DeviceTaintRule{ObjectMeta: metav1.ObjectMeta{Name: "r", ResourceVersion: "4"}, Spec: v1alpha3.DeviceTaintRuleSpec{Taint: v1alpha3.DeviceTaint{Key: "k", Effect: v1alpha3.DeviceTaintEffectNoSchedule, TimeAdded: &added1}}}
	rpsr := &v1alpha3.ResourcePoolStatusRequest{ObjectMeta: metav1.ObjectMeta{Name: "q", ResourceVersion: "4"}, Spec: v1alpha3.ResourcePoolStatusRequestSpec{Driver: "gpu.example.com"}}
	claim := dropClaim(nil)
	without := func(o runtime.Object, rv string) runtime.Object {
		c := o.DeepCopyObject()
		c.(metav1.Object).SetResourceVersion(rv)
		return c
	}
	refused := "Invalid metadata.resourceVersion"
	for _, tc := range []struct {
		name    string
		op      operation
		stored  runtime.Object
		refused bool
	}{
		{"v1 DeviceTaintRule", opUpdate, v1rule, true},
		{"v1 DeviceTaintRule status", opStatus, v1rule, true},
		{"v1beta2 DeviceTaintRule", opUpdate, b2rule, false},
		{"v1alpha3 DeviceTaintRule", opUpdate, a3rule, false},
		{"v1alpha3 DeviceTaintRule status", opStatus, a3rule, false},
		{"ResourcePoolStatusRequest", opUpdate, rpsr, true},
		{"ResourcePoolStatusRequest status", opStatus, rpsr, true},
		{"v1 ResourceClaim", opUpdate, claim, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, rv := range []string{"", "0"} {
				errs, _ := validateWithWarnings(tc.op, without(tc.stored, rv), tc.stored, Options{})
				if !tc.refused {
					expectErrors(t, errs)
					continue
				}
				expectErrors(t, errs, refused)
				if len(errs) == 1 && (errs[0].Detail != "must be specified for an update" || fmt.Sprint(errs[0].BadValue) != "0") {
					t.Errorf("got %v, want the generic registry's Invalid value: 0: must be specified for an update", errs[0])
				}
			}
			// With a resourceVersion the update is validated as usual.
			errs, _ := validateWithWarnings(tc.op, tc.stored, tc.stored, Options{})
			expectErrors(t, errs)
		})
	}
}

// A namespace the caller does not know skips the admin-access rule; a
// failed lookup is an internal error, as on the server.
func TestAdminAccessNamespaceUnknown(t *testing.T) {
	claim := dropClaim(func(c *resourcev1.ResourceClaim) { c.Spec.Devices.Requests[0].Exactly.AdminAccess = ptr(true) })
	for _, tc := range []struct {
		name   string
		lookup func(string) (map[string]string, error)
		want   []string
	}{
		{"labelled", func(string) (map[string]string, error) {
			return map[string]string{resourcev1.DRAAdminNamespaceLabelKey: "true"}, nil
		}, nil},
		{"unlabelled", unlabelled, []string{"Forbidden spec.devices.requests[0].adminAccess"}},
		{"unknown", func(ns string) (map[string]string, error) { return nil, ErrNamespaceUnknown }, nil},
		{"unknown, wrapped", func(ns string) (map[string]string, error) {
			return nil, fmt.Errorf("namespace %s: %w", ns, ErrNamespaceUnknown)
		}, nil},
		{"lookup failed", func(string) (map[string]string, error) { return nil, errors.New("connection refused") }, []string{"Internal spec.devices.requests[0].adminAccess"}},
		{"no lookup", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectErrors(t, ValidateObject(claim, Options{NamespaceLabels: tc.lookup}), tc.want...)
		})
	}
}
