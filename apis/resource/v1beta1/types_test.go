package v1beta1_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"testing"

	upstream "k8s.io/api/resource/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource/v1beta1"
	"github.com/drakit/drakit/internal/apitest"
	"github.com/drakit/drakit/internal/fuzzer"
)

// kinds are the kinds of resource.k8s.io/v1beta1 in their 1.37 shape,
// each with drakit's and k8s.io/api v0.37.2's type.
var kinds = map[string]struct{ ours, theirs func() any }{
	"DeviceClass": {
		func() any { return &v1beta1.DeviceClass{} },
		func() any { return &upstream.DeviceClass{} },
	},
	"DeviceClassList": {
		func() any { return &v1beta1.DeviceClassList{} },
		func() any { return &upstream.DeviceClassList{} },
	},
	"ResourceClaim": {
		func() any { return &v1beta1.ResourceClaim{} },
		func() any { return &upstream.ResourceClaim{} },
	},
	"ResourceClaimList": {
		func() any { return &v1beta1.ResourceClaimList{} },
		func() any { return &upstream.ResourceClaimList{} },
	},
	"ResourceClaimTemplate": {
		func() any { return &v1beta1.ResourceClaimTemplate{} },
		func() any { return &upstream.ResourceClaimTemplate{} },
	},
	"ResourceClaimTemplateList": {
		func() any { return &v1beta1.ResourceClaimTemplateList{} },
		func() any { return &upstream.ResourceClaimTemplateList{} },
	},
	"ResourceSlice": {
		func() any { return &v1beta1.ResourceSlice{} },
		func() any { return &upstream.ResourceSlice{} },
	},
	"ResourceSliceList": {
		func() any { return &v1beta1.ResourceSliceList{} },
		func() any { return &upstream.ResourceSliceList{} },
	},
}

// TestSameJSON checks every kind against k8s.io/api v0.37.2 in both
// directions.
func TestSameJSON(t *testing.T) {
	for kind, k := range kinds {
		t.Run(kind, func(t *testing.T) {
			apitest.SameJSON(t, k.ours, k.theirs, fuzzer.Iterations(300, 40))
		})
	}
}

// TestKindsAreChecked requires a SameJSON check for every kind drakit's
// AddToScheme registers, and for every kind k8s.io/api registers for
// v1beta1, so that a kind added on either side without a check fails.
func TestKindsAreChecked(t *testing.T) {
	var checked []string
	for kind := range kinds {
		checked = append(checked, kind)
	}
	sort.Strings(checked)

	ours := runtime.NewScheme()
	if err := v1beta1.AddToScheme(ours); err != nil {
		t.Fatal(err)
	}
	own := apitest.OwnKinds(ours, v1beta1.SchemeGroupVersion, &v1beta1.DeviceClass{})
	if len(own) == 0 {
		t.Fatal("AddToScheme registers no v1beta1 kind")
	}
	if diff := apitest.DiffPaths(checked, own); diff != "" {
		t.Errorf("kinds checked by SameJSON differ from the kinds AddToScheme registers:\n%s", diff)
	}

	theirs := runtime.NewScheme()
	if err := upstream.AddToScheme(theirs); err != nil {
		t.Fatal(err)
	}
	want := apitest.OwnKinds(theirs, upstream.SchemeGroupVersion, &upstream.DeviceClass{})
	if diff := apitest.DiffPaths(checked, want); diff != "" {
		t.Errorf("kinds checked by SameJSON differ from k8s.io/api's v1beta1 kinds:\n%s", diff)
	}
}

// TestStructTags compares every struct reachable from the kinds with
// k8s.io/api's field by field (apitest.SameFields): Go field names and
// types, json, protobuf and patch tags, which SameJSON cannot see.
func TestStructTags(t *testing.T) {
	var pairs [][2]any
	for _, k := range kinds {
		pairs = append(pairs, [2]any{k.ours(), k.theirs()})
	}
	apitest.SameFields(t, pairs...)
}

// TestEmptyJSON pins what empty objects write: the members without
// omitempty (a request's deviceClassName, a claim's requests, a taint's
// key and effect, a device status's conditions, ...) and the non-pointer
// structs that are always written.
func TestEmptyJSON(t *testing.T) {
	for _, tc := range []struct {
		obj  any
		want string
	}{
		{&v1beta1.ResourceClaim{}, `{"metadata":{},"spec":{"devices":{"requests":null}},"status":{}}`},
		{&v1beta1.ResourceClaimTemplate{}, `{"metadata":{},"spec":{"metadata":{},"spec":{"devices":{"requests":null}}}}`},
		{&v1beta1.DeviceClass{}, `{"metadata":{},"spec":{}}`},
		{&v1beta1.ResourceSlice{}, `{"metadata":{},"spec":{"driver":"","pool":{"name":"","generation":0,"resourceSliceCount":0}}}`},
		{&v1beta1.ResourceSliceList{}, `{"metadata":{},"items":null}`},
		{&v1beta1.DeviceRequest{}, `{"name":"","deviceClassName":""}`},
		{&v1beta1.DeviceSubRequest{}, `{"name":"","deviceClassName":""}`},
		{&v1beta1.Device{}, `{"name":""}`},
		{&v1beta1.BasicDevice{}, `{}`},
		{&v1beta1.DeviceTaint{}, `{"key":"","effect":""}`},
		{&v1beta1.DeviceToleration{}, `{}`},
		{&v1beta1.AllocationResult{}, `{"devices":{}}`},
		{&v1beta1.DeviceRequestAllocationResult{}, `{"request":"","driver":"","pool":"","device":""}`},
		{&v1beta1.AllocatedDeviceStatus{}, `{"driver":"","pool":"","device":"","conditions":null}`},
		{&v1beta1.CapacityRequestPolicy{}, `{"default":null}`},
		{&v1beta1.DeviceCapacity{}, `{"value":"0"}`},
		{&v1beta1.CounterSet{}, `{"name":""}`},
		{&v1beta1.DeviceCounterConsumption{}, `{"counterSet":""}`},
		{&v1beta1.DeviceAllocationConfiguration{}, `{"source":""}`},
		{&v1beta1.OpaqueDeviceConfiguration{}, `{"driver":"","parameters":null}`},
		{&v1beta1.DeviceDerivedAttribute{}, `{"name":"","expression":""}`},
	} {
		data, err := json.Marshal(tc.obj)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != tc.want {
			t.Errorf("%T: got %s, want %s", tc.obj, data, tc.want)
		}
	}
}

// TestSliceNodeFieldsArePlain pins the v1beta1 form of a slice's node
// fields: nodeName is a string and allNodes a bool, both left out when
// empty or false.
func TestSliceNodeFieldsArePlain(t *testing.T) {
	spec := v1beta1.ResourceSliceSpec{Driver: "d", NodeName: "n", AllNodes: true}
	data, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"driver":"d","pool":{"name":"","generation":0,"resourceSliceCount":0},"nodeName":"n","allNodes":true}`
	if string(data) != want {
		t.Errorf("got %s, want %s", data, want)
	}
}

func TestDeviceTaintString(t *testing.T) {
	for _, tc := range []struct {
		taint v1beta1.DeviceTaint
		want  string
	}{
		{v1beta1.DeviceTaint{Key: "k"}, "k"},
		{v1beta1.DeviceTaint{Key: "k", Value: "v"}, "k=v:"},
		{v1beta1.DeviceTaint{Key: "k", Effect: v1beta1.DeviceTaintEffectNoExecute}, "k:NoExecute"},
		{v1beta1.DeviceTaint{Key: "k", Value: "v", Effect: v1beta1.DeviceTaintEffectNone}, "k=v:None"},
	} {
		if got := tc.taint.String(); got != tc.want {
			t.Errorf("%#v: got %q, want %q", tc.taint, got, tc.want)
		}
		theirs := upstream.DeviceTaint{Key: tc.taint.Key, Value: tc.taint.Value, Effect: upstream.DeviceTaintEffect(tc.taint.Effect)}
		if got, want := tc.taint.String(), theirs.String(); got != want {
			t.Errorf("%#v: got %q, k8s.io/api writes %q", tc.taint, got, want)
		}
	}
}

// TestConstants compares every constant of the package with k8s.io/api's
// constant of the same name, value and type name.
func TestConstants(t *testing.T) {
	for _, tc := range []struct {
		name         string
		ours, theirs any
	}{
		{"Finalizer", v1beta1.Finalizer, upstream.Finalizer},
		{"ExtendedResourceClaimAnnotation", v1beta1.ExtendedResourceClaimAnnotation, upstream.ExtendedResourceClaimAnnotation},
		{"PodResourceClaimAnnotation", v1beta1.PodResourceClaimAnnotation, upstream.PodResourceClaimAnnotation},
		{"ResourceDeviceClassPrefix", v1beta1.ResourceDeviceClassPrefix, upstream.ResourceDeviceClassPrefix},
		{"ResourceSliceSelectorNodeName", v1beta1.ResourceSliceSelectorNodeName, upstream.ResourceSliceSelectorNodeName},
		{"ResourceSliceSelectorDriver", v1beta1.ResourceSliceSelectorDriver, upstream.ResourceSliceSelectorDriver},
		{"ResourceSliceSelectorPoolName", v1beta1.ResourceSliceSelectorPoolName, upstream.ResourceSliceSelectorPoolName},
		{"SkipNodeOperationNodePrepareResources", v1beta1.SkipNodeOperationNodePrepareResources, upstream.SkipNodeOperationNodePrepareResources},
		{"SkipNodeOperationNodeUnprepareResources", v1beta1.SkipNodeOperationNodeUnprepareResources, upstream.SkipNodeOperationNodeUnprepareResources},
		{"SkipNodeOperationAll", v1beta1.SkipNodeOperationAll, upstream.SkipNodeOperationAll},
		{"DriverNameMaxLength", v1beta1.DriverNameMaxLength, upstream.DriverNameMaxLength},
		{"ResourceSliceMaxSharedCapacity", v1beta1.ResourceSliceMaxSharedCapacity, upstream.ResourceSliceMaxSharedCapacity},
		{"ResourceSliceMaxDevices", v1beta1.ResourceSliceMaxDevices, upstream.ResourceSliceMaxDevices},
		{"ResourceSliceMaxDevicesWithAdvancedFeatures", v1beta1.ResourceSliceMaxDevicesWithAdvancedFeatures, upstream.ResourceSliceMaxDevicesWithAdvancedFeatures},
		{"PoolNameMaxLength", v1beta1.PoolNameMaxLength, upstream.PoolNameMaxLength},
		{"BindingConditionsMaxSize", v1beta1.BindingConditionsMaxSize, upstream.BindingConditionsMaxSize},
		{"BindingFailureConditionsMaxSize", v1beta1.BindingFailureConditionsMaxSize, upstream.BindingFailureConditionsMaxSize},
		{"ResourceSliceMaxCounterSets", v1beta1.ResourceSliceMaxCounterSets, upstream.ResourceSliceMaxCounterSets},
		{"ResourceSliceMaxCountersPerCounterSet", v1beta1.ResourceSliceMaxCountersPerCounterSet, upstream.ResourceSliceMaxCountersPerCounterSet},
		{"ResourceSliceMaxDeviceCounterConsumptionsPerDevice", v1beta1.ResourceSliceMaxDeviceCounterConsumptionsPerDevice, upstream.ResourceSliceMaxDeviceCounterConsumptionsPerDevice},
		{"ResourceSliceMaxCountersPerDeviceCounterConsumption", v1beta1.ResourceSliceMaxCountersPerDeviceCounterConsumption, upstream.ResourceSliceMaxCountersPerDeviceCounterConsumption},
		{"DeviceCompatibilityGroupsMaxSize", v1beta1.DeviceCompatibilityGroupsMaxSize, upstream.DeviceCompatibilityGroupsMaxSize},
		{"ResourceSliceMaxAttributesAndCapacitiesPerDevice", v1beta1.ResourceSliceMaxAttributesAndCapacitiesPerDevice, upstream.ResourceSliceMaxAttributesAndCapacitiesPerDevice},
		{"ResourceSliceMaxAttributeValuesPerDevice", v1beta1.ResourceSliceMaxAttributeValuesPerDevice, upstream.ResourceSliceMaxAttributeValuesPerDevice},
		{"DeviceMaxDomainLength", v1beta1.DeviceMaxDomainLength, upstream.DeviceMaxDomainLength},
		{"DeviceMaxIDLength", v1beta1.DeviceMaxIDLength, upstream.DeviceMaxIDLength},
		{"DeviceAttributeMaxValueLength", v1beta1.DeviceAttributeMaxValueLength, upstream.DeviceAttributeMaxValueLength},
		{"DeviceTaintsMaxLength", v1beta1.DeviceTaintsMaxLength, upstream.DeviceTaintsMaxLength},
		{"DeviceTaintEffectNone", v1beta1.DeviceTaintEffectNone, upstream.DeviceTaintEffectNone},
		{"DeviceTaintEffectNoSchedule", v1beta1.DeviceTaintEffectNoSchedule, upstream.DeviceTaintEffectNoSchedule},
		{"DeviceTaintEffectNoExecute", v1beta1.DeviceTaintEffectNoExecute, upstream.DeviceTaintEffectNoExecute},
		{"DeviceRequestsMaxSize", v1beta1.DeviceRequestsMaxSize, upstream.DeviceRequestsMaxSize},
		{"DeviceConstraintsMaxSize", v1beta1.DeviceConstraintsMaxSize, upstream.DeviceConstraintsMaxSize},
		{"DeviceConfigMaxSize", v1beta1.DeviceConfigMaxSize, upstream.DeviceConfigMaxSize},
		{"DRAAdminNamespaceLabelKey", v1beta1.DRAAdminNamespaceLabelKey, upstream.DRAAdminNamespaceLabelKey},
		{"DeviceSelectorsMaxSize", v1beta1.DeviceSelectorsMaxSize, upstream.DeviceSelectorsMaxSize},
		{"FirstAvailableDeviceRequestMaxSize", v1beta1.FirstAvailableDeviceRequestMaxSize, upstream.FirstAvailableDeviceRequestMaxSize},
		{"DeviceTolerationsMaxLength", v1beta1.DeviceTolerationsMaxLength, upstream.DeviceTolerationsMaxLength},
		{"DeviceDerivedAttributesMaxSize", v1beta1.DeviceDerivedAttributesMaxSize, upstream.DeviceDerivedAttributesMaxSize},
		{"DeviceAllocationModeExactCount", v1beta1.DeviceAllocationModeExactCount, upstream.DeviceAllocationModeExactCount},
		{"DeviceAllocationModeAll", v1beta1.DeviceAllocationModeAll, upstream.DeviceAllocationModeAll},
		{"CELSelectorExpressionMaxCost", v1beta1.CELSelectorExpressionMaxCost, upstream.CELSelectorExpressionMaxCost},
		{"DeviceClaimDerivedAttributeCELMaxCost", v1beta1.DeviceClaimDerivedAttributeCELMaxCost, upstream.DeviceClaimDerivedAttributeCELMaxCost},
		{"CELSelectorExpressionMaxLength", v1beta1.CELSelectorExpressionMaxLength, upstream.CELSelectorExpressionMaxLength},
		{"OpaqueParametersMaxLength", v1beta1.OpaqueParametersMaxLength, upstream.OpaqueParametersMaxLength},
		{"DeviceTolerationOpExists", v1beta1.DeviceTolerationOpExists, upstream.DeviceTolerationOpExists},
		{"DeviceTolerationOpEqual", v1beta1.DeviceTolerationOpEqual, upstream.DeviceTolerationOpEqual},
		{"ResourceClaimReservedForMaxSize", v1beta1.ResourceClaimReservedForMaxSize, upstream.ResourceClaimReservedForMaxSize},
		{"AllocationResultsMaxSize", v1beta1.AllocationResultsMaxSize, upstream.AllocationResultsMaxSize},
		{"AllocationConfigSourceClass", v1beta1.AllocationConfigSourceClass, upstream.AllocationConfigSourceClass},
		{"AllocationConfigSourceClaim", v1beta1.AllocationConfigSourceClaim, upstream.AllocationConfigSourceClaim},
		{"AllocatedDeviceStatusMaxConditions", v1beta1.AllocatedDeviceStatusMaxConditions, upstream.AllocatedDeviceStatusMaxConditions},
		{"AllocatedDeviceStatusDataMaxLength", v1beta1.AllocatedDeviceStatusDataMaxLength, upstream.AllocatedDeviceStatusDataMaxLength},
		{"NetworkDeviceDataMaxIPs", v1beta1.NetworkDeviceDataMaxIPs, upstream.NetworkDeviceDataMaxIPs},
		{"NetworkDeviceDataInterfaceNameMaxLength", v1beta1.NetworkDeviceDataInterfaceNameMaxLength, upstream.NetworkDeviceDataInterfaceNameMaxLength},
		{"NetworkDeviceDataHardwareAddressMaxLength", v1beta1.NetworkDeviceDataHardwareAddressMaxLength, upstream.NetworkDeviceDataHardwareAddressMaxLength},
		{"GroupName", v1beta1.GroupName, upstream.GroupName},
		{"SchemeGroupVersion", v1beta1.SchemeGroupVersion, upstream.SchemeGroupVersion},
	} {
		ot, tt := reflect.TypeOf(tc.ours), reflect.TypeOf(tc.theirs)
		if ot.Name() != tt.Name() || ot.Kind() != tt.Kind() {
			t.Errorf("%s: type %s, k8s.io/api %s", tc.name, ot, tt)
		}
		if o, th := fmt.Sprint(tc.ours), fmt.Sprint(tc.theirs); o != th {
			t.Errorf("%s = %s, k8s.io/api %s", tc.name, o, th)
		}
	}
}
