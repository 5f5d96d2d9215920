package v1beta2_test

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	upstream "k8s.io/api/resource/v1beta2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource/v1beta2"
	"github.com/drakit/drakit/internal/apitest"
	"github.com/drakit/drakit/internal/fuzzer"
)

// pair is one kind: new empty values of drakit's type and of k8s.io/api's.
type pair struct {
	ours, theirs func() any
}

// kinds has every kind of resource.k8s.io/v1beta2 and its List.
var kinds = map[string]pair{
	"DeviceClass":               {func() any { return &v1beta2.DeviceClass{} }, func() any { return &upstream.DeviceClass{} }},
	"DeviceClassList":           {func() any { return &v1beta2.DeviceClassList{} }, func() any { return &upstream.DeviceClassList{} }},
	"DeviceTaintRule":           {func() any { return &v1beta2.DeviceTaintRule{} }, func() any { return &upstream.DeviceTaintRule{} }},
	"DeviceTaintRuleList":       {func() any { return &v1beta2.DeviceTaintRuleList{} }, func() any { return &upstream.DeviceTaintRuleList{} }},
	"ResourceClaim":             {func() any { return &v1beta2.ResourceClaim{} }, func() any { return &upstream.ResourceClaim{} }},
	"ResourceClaimList":         {func() any { return &v1beta2.ResourceClaimList{} }, func() any { return &upstream.ResourceClaimList{} }},
	"ResourceClaimTemplate":     {func() any { return &v1beta2.ResourceClaimTemplate{} }, func() any { return &upstream.ResourceClaimTemplate{} }},
	"ResourceClaimTemplateList": {func() any { return &v1beta2.ResourceClaimTemplateList{} }, func() any { return &upstream.ResourceClaimTemplateList{} }},
	"ResourceSlice":             {func() any { return &v1beta2.ResourceSlice{} }, func() any { return &upstream.ResourceSlice{} }},
	"ResourceSliceList":         {func() any { return &v1beta2.ResourceSliceList{} }, func() any { return &upstream.ResourceSliceList{} }},
}

func TestSameJSONAsUpstream(t *testing.T) {
	names := make([]string, 0, len(kinds))
	for name := range kinds {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := kinds[name]
		t.Run(name, func(t *testing.T) {
			apitest.SameJSON(t, p.ours, p.theirs, fuzzer.Iterations(300, 40))
		})
	}
}

// ownKinds returns the kinds of this package that addToScheme registers.
func ownKinds(t *testing.T, addToScheme func(*runtime.Scheme) error, sample runtime.Object) []string {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := addToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	return apitest.OwnKinds(scheme, v1beta2.SchemeGroupVersion, sample)
}

// Every kind AddToScheme registers has a SameJSON check, every check is
// for a registered kind, and the kinds are those k8s.io/api registers.
func TestEveryKindChecked(t *testing.T) {
	got := ownKinds(t, v1beta2.AddToScheme, &v1beta2.DeviceClass{})
	var want []string
	for name := range kinds {
		want = append(want, name)
	}
	if diff := apitest.DiffPaths(got, want); diff != "" {
		t.Errorf("registered kinds and SameJSON checks differ:\n%s", diff)
	}
	theirs := ownKinds(t, upstream.AddToScheme, &upstream.DeviceClass{})
	if diff := apitest.DiffPaths(got, theirs); diff != "" {
		t.Errorf("registered kinds differ from k8s.io/api:\n%s", diff)
	}
	if v1beta2.SchemeGroupVersion != upstream.SchemeGroupVersion {
		t.Errorf("group version %v, k8s.io/api has %v", v1beta2.SchemeGroupVersion, upstream.SchemeGroupVersion)
	}
}

// exportedNames lists the exported top-level types, constants and
// variables declared in the hand-written files of the package in dir.
func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, file := range files {
		base := filepath.Base(file)
		if strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "zz_generated") || strings.HasPrefix(base, "generated") || strings.HasPrefix(base, "types_swagger") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						names = append(names, "type "+s.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							names = append(names, gd.Tok.String()+" "+n.Name)
						}
					}
				}
			}
		}
	}
	return names
}

// The package declares the types, constants and variables of k8s.io/api's
// resource/v1beta2, and no others.
func TestSameDeclarationsAsUpstream(t *testing.T) {
	pkg, err := build.Import("k8s.io/api/resource/v1beta2", ".", build.FindOnly)
	if err != nil {
		t.Fatal(err)
	}
	ours := exportedNames(t, ".")
	theirs := exportedNames(t, pkg.Dir)
	if len(theirs) < 50 {
		t.Fatalf("found only %d declarations in %s", len(theirs), pkg.Dir)
	}
	if diff := apitest.DiffPaths(ours, theirs); diff != "" {
		t.Errorf("exported declarations differ from k8s.io/api:\n%s", diff)
	}
}

// The constants have k8s.io/api's values (and types: each pair must
// compare without conversion).
func TestConstantValues(t *testing.T) {
	check := func(name string, ours, theirs any) {
		t.Helper()
		if ours != theirs {
			t.Errorf("%s = %v, k8s.io/api has %v", name, ours, theirs)
		}
	}
	check("AllocatedDeviceStatusDataMaxLength", v1beta2.AllocatedDeviceStatusDataMaxLength, upstream.AllocatedDeviceStatusDataMaxLength)
	check("AllocatedDeviceStatusMaxConditions", v1beta2.AllocatedDeviceStatusMaxConditions, upstream.AllocatedDeviceStatusMaxConditions)
	check("AllocationConfigSourceClaim", string(v1beta2.AllocationConfigSourceClaim), string(upstream.AllocationConfigSourceClaim))
	check("AllocationConfigSourceClass", string(v1beta2.AllocationConfigSourceClass), string(upstream.AllocationConfigSourceClass))
	check("AllocationResultsMaxSize", v1beta2.AllocationResultsMaxSize, upstream.AllocationResultsMaxSize)
	check("BindingConditionsMaxSize", v1beta2.BindingConditionsMaxSize, upstream.BindingConditionsMaxSize)
	check("BindingFailureConditionsMaxSize", v1beta2.BindingFailureConditionsMaxSize, upstream.BindingFailureConditionsMaxSize)
	check("CELSelectorExpressionMaxCost", v1beta2.CELSelectorExpressionMaxCost, upstream.CELSelectorExpressionMaxCost)
	check("CELSelectorExpressionMaxLength", v1beta2.CELSelectorExpressionMaxLength, upstream.CELSelectorExpressionMaxLength)
	check("DRAAdminNamespaceLabelKey", v1beta2.DRAAdminNamespaceLabelKey, upstream.DRAAdminNamespaceLabelKey)
	check("DeviceAllocationModeAll", string(v1beta2.DeviceAllocationModeAll), string(upstream.DeviceAllocationModeAll))
	check("DeviceAllocationModeExactCount", string(v1beta2.DeviceAllocationModeExactCount), string(upstream.DeviceAllocationModeExactCount))
	check("DeviceAttributeMaxValueLength", v1beta2.DeviceAttributeMaxValueLength, upstream.DeviceAttributeMaxValueLength)
	check("DeviceClaimDerivedAttributeCELMaxCost", v1beta2.DeviceClaimDerivedAttributeCELMaxCost, upstream.DeviceClaimDerivedAttributeCELMaxCost)
	check("DeviceCompatibilityGroupsMaxSize", v1beta2.DeviceCompatibilityGroupsMaxSize, upstream.DeviceCompatibilityGroupsMaxSize)
	check("DeviceConfigMaxSize", v1beta2.DeviceConfigMaxSize, upstream.DeviceConfigMaxSize)
	check("DeviceConstraintsMaxSize", v1beta2.DeviceConstraintsMaxSize, upstream.DeviceConstraintsMaxSize)
	check("DeviceDerivedAttributesMaxSize", v1beta2.DeviceDerivedAttributesMaxSize, upstream.DeviceDerivedAttributesMaxSize)
	check("DeviceMaxDomainLength", v1beta2.DeviceMaxDomainLength, upstream.DeviceMaxDomainLength)
	check("DeviceMaxIDLength", v1beta2.DeviceMaxIDLength, upstream.DeviceMaxIDLength)
	check("DeviceRequestsMaxSize", v1beta2.DeviceRequestsMaxSize, upstream.DeviceRequestsMaxSize)
	check("DeviceSelectorsMaxSize", v1beta2.DeviceSelectorsMaxSize, upstream.DeviceSelectorsMaxSize)
	check("DeviceTaintConditionEvictionInProgress", v1beta2.DeviceTaintConditionEvictionInProgress, upstream.DeviceTaintConditionEvictionInProgress)
	check("DeviceTaintEffectNoExecute", string(v1beta2.DeviceTaintEffectNoExecute), string(upstream.DeviceTaintEffectNoExecute))
	check("DeviceTaintEffectNoSchedule", string(v1beta2.DeviceTaintEffectNoSchedule), string(upstream.DeviceTaintEffectNoSchedule))
	check("DeviceTaintEffectNone", string(v1beta2.DeviceTaintEffectNone), string(upstream.DeviceTaintEffectNone))
	check("DeviceTaintRuleStatusMaxConditions", v1beta2.DeviceTaintRuleStatusMaxConditions, upstream.DeviceTaintRuleStatusMaxConditions)
	check("DeviceTaintsMaxLength", v1beta2.DeviceTaintsMaxLength, upstream.DeviceTaintsMaxLength)
	check("DeviceTolerationOpEqual", string(v1beta2.DeviceTolerationOpEqual), string(upstream.DeviceTolerationOpEqual))
	check("DeviceTolerationOpExists", string(v1beta2.DeviceTolerationOpExists), string(upstream.DeviceTolerationOpExists))
	check("DeviceTolerationsMaxLength", v1beta2.DeviceTolerationsMaxLength, upstream.DeviceTolerationsMaxLength)
	check("DriverNameMaxLength", v1beta2.DriverNameMaxLength, upstream.DriverNameMaxLength)
	check("ExtendedResourceClaimAnnotation", v1beta2.ExtendedResourceClaimAnnotation, upstream.ExtendedResourceClaimAnnotation)
	check("Finalizer", v1beta2.Finalizer, upstream.Finalizer)
	check("FirstAvailableDeviceRequestMaxSize", v1beta2.FirstAvailableDeviceRequestMaxSize, upstream.FirstAvailableDeviceRequestMaxSize)
	check("GroupName", v1beta2.GroupName, upstream.GroupName)
	check("NetworkDeviceDataHardwareAddressMaxLength", v1beta2.NetworkDeviceDataHardwareAddressMaxLength, upstream.NetworkDeviceDataHardwareAddressMaxLength)
	check("NetworkDeviceDataInterfaceNameMaxLength", v1beta2.NetworkDeviceDataInterfaceNameMaxLength, upstream.NetworkDeviceDataInterfaceNameMaxLength)
	check("NetworkDeviceDataMaxIPs", v1beta2.NetworkDeviceDataMaxIPs, upstream.NetworkDeviceDataMaxIPs)
	check("OpaqueParametersMaxLength", v1beta2.OpaqueParametersMaxLength, upstream.OpaqueParametersMaxLength)
	check("PodResourceClaimAnnotation", v1beta2.PodResourceClaimAnnotation, upstream.PodResourceClaimAnnotation)
	check("PoolNameMaxLength", v1beta2.PoolNameMaxLength, upstream.PoolNameMaxLength)
	check("ResourceClaimReservedForMaxSize", v1beta2.ResourceClaimReservedForMaxSize, upstream.ResourceClaimReservedForMaxSize)
	check("ResourceDeviceClassPrefix", v1beta2.ResourceDeviceClassPrefix, upstream.ResourceDeviceClassPrefix)
	check("ResourceSliceMaxAttributeValuesPerDevice", v1beta2.ResourceSliceMaxAttributeValuesPerDevice, upstream.ResourceSliceMaxAttributeValuesPerDevice)
	check("ResourceSliceMaxAttributesAndCapacitiesPerDevice", v1beta2.ResourceSliceMaxAttributesAndCapacitiesPerDevice, upstream.ResourceSliceMaxAttributesAndCapacitiesPerDevice)
	check("ResourceSliceMaxCounterSets", v1beta2.ResourceSliceMaxCounterSets, upstream.ResourceSliceMaxCounterSets)
	check("ResourceSliceMaxCountersPerCounterSet", v1beta2.ResourceSliceMaxCountersPerCounterSet, upstream.ResourceSliceMaxCountersPerCounterSet)
	check("ResourceSliceMaxCountersPerDeviceCounterConsumption", v1beta2.ResourceSliceMaxCountersPerDeviceCounterConsumption, upstream.ResourceSliceMaxCountersPerDeviceCounterConsumption)
	check("ResourceSliceMaxDeviceCounterConsumptionsPerDevice", v1beta2.ResourceSliceMaxDeviceCounterConsumptionsPerDevice, upstream.ResourceSliceMaxDeviceCounterConsumptionsPerDevice)
	check("ResourceSliceMaxDevices", v1beta2.ResourceSliceMaxDevices, upstream.ResourceSliceMaxDevices)
	check("ResourceSliceMaxDevicesWithAdvancedFeatures", v1beta2.ResourceSliceMaxDevicesWithAdvancedFeatures, upstream.ResourceSliceMaxDevicesWithAdvancedFeatures)
	check("ResourceSliceMaxSharedCapacity", v1beta2.ResourceSliceMaxSharedCapacity, upstream.ResourceSliceMaxSharedCapacity)
	check("ResourceSliceSelectorDriver", v1beta2.ResourceSliceSelectorDriver, upstream.ResourceSliceSelectorDriver)
	check("ResourceSliceSelectorNodeName", v1beta2.ResourceSliceSelectorNodeName, upstream.ResourceSliceSelectorNodeName)
	check("ResourceSliceSelectorPoolName", v1beta2.ResourceSliceSelectorPoolName, upstream.ResourceSliceSelectorPoolName)
	check("SkipNodeOperationAll", string(v1beta2.SkipNodeOperationAll), string(upstream.SkipNodeOperationAll))
	check("SkipNodeOperationNodePrepareResources", string(v1beta2.SkipNodeOperationNodePrepareResources), string(upstream.SkipNodeOperationNodePrepareResources))
	check("SkipNodeOperationNodeUnprepareResources", string(v1beta2.SkipNodeOperationNodeUnprepareResources), string(upstream.SkipNodeOperationNodeUnprepareResources))
}

// DeviceTaint.String writes the four forms k8s.io/api writes.
func TestDeviceTaintString(t *testing.T) {
	now := metav1.Now()
	for _, key := range []string{"", "example.com/k"} {
		for _, value := range []string{"", "v"} {
			for _, effect := range []string{"", "NoExecute"} {
				ours := v1beta2.DeviceTaint{Key: key, Value: value, Effect: v1beta2.DeviceTaintEffect(effect), TimeAdded: &now}
				theirs := upstream.DeviceTaint{Key: key, Value: value, Effect: upstream.DeviceTaintEffect(effect), TimeAdded: &now}
				if got, want := ours.String(), theirs.String(); got != want {
					t.Errorf("%q/%q/%q: String() = %q, k8s.io/api writes %q", key, value, effect, got, want)
				}
			}
		}
	}
}
