package v1_test

import (
	"fmt"
	"testing"

	upstream "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"

	v1 "github.com/drakit/drakit/apis/resource/v1"
	"github.com/drakit/drakit/internal/apitest"
	"github.com/drakit/drakit/internal/fuzzer"
)

// pair is one kind of this package and the k8s.io/api type of the same name.
type pair struct {
	ours, theirs func() any
}

// sameJSONKinds has one entry per kind (Lists included) that AddToScheme
// registers; TestEveryKindChecked keeps it complete.
var sameJSONKinds = map[string]pair{
	"DeviceClass":               {func() any { return &v1.DeviceClass{} }, func() any { return &upstream.DeviceClass{} }},
	"DeviceClassList":           {func() any { return &v1.DeviceClassList{} }, func() any { return &upstream.DeviceClassList{} }},
	"DeviceTaintRule":           {func() any { return &v1.DeviceTaintRule{} }, func() any { return &upstream.DeviceTaintRule{} }},
	"DeviceTaintRuleList":       {func() any { return &v1.DeviceTaintRuleList{} }, func() any { return &upstream.DeviceTaintRuleList{} }},
	"ResourceClaim":             {func() any { return &v1.ResourceClaim{} }, func() any { return &upstream.ResourceClaim{} }},
	"ResourceClaimList":         {func() any { return &v1.ResourceClaimList{} }, func() any { return &upstream.ResourceClaimList{} }},
	"ResourceClaimTemplate":     {func() any { return &v1.ResourceClaimTemplate{} }, func() any { return &upstream.ResourceClaimTemplate{} }},
	"ResourceClaimTemplateList": {func() any { return &v1.ResourceClaimTemplateList{} }, func() any { return &upstream.ResourceClaimTemplateList{} }},
	"ResourceSlice":             {func() any { return &v1.ResourceSlice{} }, func() any { return &upstream.ResourceSlice{} }},
	"ResourceSliceList":         {func() any { return &v1.ResourceSliceList{} }, func() any { return &upstream.ResourceSliceList{} }},
}

// ownKinds are the kinds of this package that AddToScheme registers.
func ownKinds(t *testing.T) []string {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := v1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	return apitest.OwnKinds(scheme, v1.SchemeGroupVersion, &v1.DeviceClass{})
}

// TestEveryKindChecked fails when a kind is registered without a SameJSON
// check, or a check names a kind that is not registered.
func TestEveryKindChecked(t *testing.T) {
	kinds := ownKinds(t)
	if len(kinds) != 10 {
		t.Errorf("AddToScheme registers %d kinds of this package, want the 5 kinds of resource.k8s.io/v1 and their Lists: %v", len(kinds), kinds)
	}
	registered := map[string]bool{}
	for _, k := range kinds {
		registered[k] = true
		if _, ok := sameJSONKinds[k]; !ok {
			t.Errorf("kind %s is registered but has no SameJSON check", k)
		}
	}
	for k := range sameJSONKinds {
		if !registered[k] {
			t.Errorf("kind %s has a SameJSON check but is not registered", k)
		}
	}
}

// TestSameJSONAsUpstream compares every kind with k8s.io/api v0.37.2
// resource/v1, both ways.
func TestSameJSONAsUpstream(t *testing.T) {
	for _, k := range ownKinds(t) {
		p, ok := sameJSONKinds[k]
		if !ok {
			continue // reported by TestEveryKindChecked
		}
		t.Run(k, func(t *testing.T) {
			apitest.SameJSON(t, p.ours, p.theirs, fuzzer.Iterations(300, 40))
		})
	}
}

// TestConstants compares every constant of the package with its k8s.io/api
// counterpart.
func TestConstants(t *testing.T) {
	for _, c := range []struct {
		name        string
		ours, their any
	}{
		{"Finalizer", v1.Finalizer, upstream.Finalizer},
		{"ExtendedResourceClaimAnnotation", v1.ExtendedResourceClaimAnnotation, upstream.ExtendedResourceClaimAnnotation},
		{"PodResourceClaimAnnotation", v1.PodResourceClaimAnnotation, upstream.PodResourceClaimAnnotation},
		{"ResourceDeviceClassPrefix", v1.ResourceDeviceClassPrefix, upstream.ResourceDeviceClassPrefix},
		{"SubresourceBinding", v1.SubresourceBinding, upstream.SubresourceBinding},
		{"SubresourceDriver", v1.SubresourceDriver, upstream.SubresourceDriver},
		{"VerbPrefixAssociatedNode", v1.VerbPrefixAssociatedNode, upstream.VerbPrefixAssociatedNode},
		{"VerbPrefixArbitraryNode", v1.VerbPrefixArbitraryNode, upstream.VerbPrefixArbitraryNode},
		{"DRAAdminNamespaceLabelKey", v1.DRAAdminNamespaceLabelKey, upstream.DRAAdminNamespaceLabelKey},
		{"DeviceTaintConditionEvictionInProgress", v1.DeviceTaintConditionEvictionInProgress, upstream.DeviceTaintConditionEvictionInProgress},
		{"ResourceSliceSelectorNodeName", v1.ResourceSliceSelectorNodeName, upstream.ResourceSliceSelectorNodeName},
		{"ResourceSliceSelectorDriver", v1.ResourceSliceSelectorDriver, upstream.ResourceSliceSelectorDriver},
		{"ResourceSliceSelectorPoolName", v1.ResourceSliceSelectorPoolName, upstream.ResourceSliceSelectorPoolName},

		{"SkipNodeOperationNodePrepareResources", string(v1.SkipNodeOperationNodePrepareResources), string(upstream.SkipNodeOperationNodePrepareResources)},
		{"SkipNodeOperationNodeUnprepareResources", string(v1.SkipNodeOperationNodeUnprepareResources), string(upstream.SkipNodeOperationNodeUnprepareResources)},
		{"SkipNodeOperationAll", string(v1.SkipNodeOperationAll), string(upstream.SkipNodeOperationAll)},
		{"DeviceTaintEffectNone", string(v1.DeviceTaintEffectNone), string(upstream.DeviceTaintEffectNone)},
		{"DeviceTaintEffectNoSchedule", string(v1.DeviceTaintEffectNoSchedule), string(upstream.DeviceTaintEffectNoSchedule)},
		{"DeviceTaintEffectNoExecute", string(v1.DeviceTaintEffectNoExecute), string(upstream.DeviceTaintEffectNoExecute)},
		{"DeviceAllocationModeExactCount", string(v1.DeviceAllocationModeExactCount), string(upstream.DeviceAllocationModeExactCount)},
		{"DeviceAllocationModeAll", string(v1.DeviceAllocationModeAll), string(upstream.DeviceAllocationModeAll)},
		{"DeviceTolerationOpExists", string(v1.DeviceTolerationOpExists), string(upstream.DeviceTolerationOpExists)},
		{"DeviceTolerationOpEqual", string(v1.DeviceTolerationOpEqual), string(upstream.DeviceTolerationOpEqual)},
		{"AllocationConfigSourceClass", string(v1.AllocationConfigSourceClass), string(upstream.AllocationConfigSourceClass)},
		{"AllocationConfigSourceClaim", string(v1.AllocationConfigSourceClaim), string(upstream.AllocationConfigSourceClaim)},

		{"DriverNameMaxLength", v1.DriverNameMaxLength, upstream.DriverNameMaxLength},
		{"ResourceSliceMaxSharedCapacity", v1.ResourceSliceMaxSharedCapacity, upstream.ResourceSliceMaxSharedCapacity},
		{"ResourceSliceMaxDevices", v1.ResourceSliceMaxDevices, upstream.ResourceSliceMaxDevices},
		{"ResourceSliceMaxDevicesWithAdvancedFeatures", v1.ResourceSliceMaxDevicesWithAdvancedFeatures, upstream.ResourceSliceMaxDevicesWithAdvancedFeatures},
		{"PoolNameMaxLength", v1.PoolNameMaxLength, upstream.PoolNameMaxLength},
		{"BindingConditionsMaxSize", v1.BindingConditionsMaxSize, upstream.BindingConditionsMaxSize},
		{"BindingFailureConditionsMaxSize", v1.BindingFailureConditionsMaxSize, upstream.BindingFailureConditionsMaxSize},
		{"ResourceSliceMaxCounterSets", v1.ResourceSliceMaxCounterSets, upstream.ResourceSliceMaxCounterSets},
		{"ResourceSliceMaxCountersPerCounterSet", v1.ResourceSliceMaxCountersPerCounterSet, upstream.ResourceSliceMaxCountersPerCounterSet},
		{"ResourceSliceMaxDeviceCounterConsumptionsPerDevice", v1.ResourceSliceMaxDeviceCounterConsumptionsPerDevice, upstream.ResourceSliceMaxDeviceCounterConsumptionsPerDevice},
		{"ResourceSliceMaxCountersPerDeviceCounterConsumption", v1.ResourceSliceMaxCountersPerDeviceCounterConsumption, upstream.ResourceSliceMaxCountersPerDeviceCounterConsumption},
		{"DeviceCompatibilityGroupsMaxSize", v1.DeviceCompatibilityGroupsMaxSize, upstream.DeviceCompatibilityGroupsMaxSize},
		{"ResourceSliceMaxAttributesAndCapacitiesPerDevice", v1.ResourceSliceMaxAttributesAndCapacitiesPerDevice, upstream.ResourceSliceMaxAttributesAndCapacitiesPerDevice},
		{"ResourceSliceMaxAttributeValuesPerDevice", v1.ResourceSliceMaxAttributeValuesPerDevice, upstream.ResourceSliceMaxAttributeValuesPerDevice},
		{"DeviceMaxDomainLength", v1.DeviceMaxDomainLength, upstream.DeviceMaxDomainLength},
		{"DeviceMaxIDLength", v1.DeviceMaxIDLength, upstream.DeviceMaxIDLength},
		{"DeviceAttributeMaxValueLength", v1.DeviceAttributeMaxValueLength, upstream.DeviceAttributeMaxValueLength},
		{"DeviceTaintsMaxLength", v1.DeviceTaintsMaxLength, upstream.DeviceTaintsMaxLength},
		{"DeviceTaintRuleStatusMaxConditions", v1.DeviceTaintRuleStatusMaxConditions, upstream.DeviceTaintRuleStatusMaxConditions},
		{"DeviceRequestsMaxSize", v1.DeviceRequestsMaxSize, upstream.DeviceRequestsMaxSize},
		{"DeviceConstraintsMaxSize", v1.DeviceConstraintsMaxSize, upstream.DeviceConstraintsMaxSize},
		{"DeviceConfigMaxSize", v1.DeviceConfigMaxSize, upstream.DeviceConfigMaxSize},
		{"DeviceSelectorsMaxSize", v1.DeviceSelectorsMaxSize, upstream.DeviceSelectorsMaxSize},
		{"FirstAvailableDeviceRequestMaxSize", v1.FirstAvailableDeviceRequestMaxSize, upstream.FirstAvailableDeviceRequestMaxSize},
		{"DeviceTolerationsMaxLength", v1.DeviceTolerationsMaxLength, upstream.DeviceTolerationsMaxLength},
		{"DeviceDerivedAttributesMaxSize", v1.DeviceDerivedAttributesMaxSize, upstream.DeviceDerivedAttributesMaxSize},
		{"CELSelectorExpressionMaxCost", v1.CELSelectorExpressionMaxCost, upstream.CELSelectorExpressionMaxCost},
		{"DeviceClaimDerivedAttributeCELMaxCost", v1.DeviceClaimDerivedAttributeCELMaxCost, upstream.DeviceClaimDerivedAttributeCELMaxCost},
		{"CELSelectorExpressionMaxLength", v1.CELSelectorExpressionMaxLength, upstream.CELSelectorExpressionMaxLength},
		{"OpaqueParametersMaxLength", v1.OpaqueParametersMaxLength, upstream.OpaqueParametersMaxLength},
		{"ResourceClaimReservedForMaxSize", v1.ResourceClaimReservedForMaxSize, upstream.ResourceClaimReservedForMaxSize},
		{"AllocationResultsMaxSize", v1.AllocationResultsMaxSize, upstream.AllocationResultsMaxSize},
		{"AllocatedDeviceStatusMaxConditions", v1.AllocatedDeviceStatusMaxConditions, upstream.AllocatedDeviceStatusMaxConditions},
		{"AllocatedDeviceStatusDataMaxLength", v1.AllocatedDeviceStatusDataMaxLength, upstream.AllocatedDeviceStatusDataMaxLength},
		{"NetworkDeviceDataMaxIPs", v1.NetworkDeviceDataMaxIPs, upstream.NetworkDeviceDataMaxIPs},
		{"NetworkDeviceDataInterfaceNameMaxLength", v1.NetworkDeviceDataInterfaceNameMaxLength, upstream.NetworkDeviceDataInterfaceNameMaxLength},
		{"NetworkDeviceDataHardwareAddressMaxLength", v1.NetworkDeviceDataHardwareAddressMaxLength, upstream.NetworkDeviceDataHardwareAddressMaxLength},
	} {
		// %T%#v: the Go type (int or string) must match as well as the value.
		if got, want := fmt.Sprintf("%T %#v", c.ours, c.ours), fmt.Sprintf("%T %#v", c.their, c.their); got != want {
			t.Errorf("%s = %s, k8s.io/api has %s", c.name, got, want)
		}
	}
}

// TestDeviceTaintString compares DeviceTaint.String with k8s.io/api's for
// every combination of empty and set key, value and effect.
func TestDeviceTaintString(t *testing.T) {
	for _, key := range []string{"", "example.com/k"} {
		for _, value := range []string{"", "v"} {
			for _, effect := range []string{"", "NoSchedule"} {
				ours := v1.DeviceTaint{Key: key, Value: value, Effect: v1.DeviceTaintEffect(effect)}
				theirs := upstream.DeviceTaint{Key: key, Value: value, Effect: upstream.DeviceTaintEffect(effect)}
				if got, want := ours.String(), theirs.String(); got != want {
					t.Errorf("%#v.String() = %q, k8s.io/api gives %q", ours, got, want)
				}
			}
		}
	}
}

// TestFieldsAsUpstream compares every struct reachable from the kinds
// with k8s.io/api's field by field (apitest.SameFields), and requires all
// 52 struct types of the package to have been compared.
func TestFieldsAsUpstream(t *testing.T) {
	var pairs [][2]any
	for _, p := range sameJSONKinds {
		pairs = append(pairs, [2]any{p.ours(), p.theirs()})
	}
	if n := apitest.SameFields(t, pairs...); n != 52 {
		t.Errorf("compared %d struct types, want the 52 of the package", n)
	}
}
