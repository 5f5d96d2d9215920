package openapi_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/drakit/drakit/openapi"
)

// The facts below are those of the API reference of each release (see
// /work/shared/spec/api-facts.md, sections 1, 2 and 6, for v1alpha1,
// v1alpha2 and v1alpha3's 1.31 kinds, and ga-facts.md, sections 1, 3 and
// 10, for v1beta1, v1beta2 and v1 as 1.37 serves them and v1alpha3's
// DeviceTaintRule and ResourcePoolStatusRequest): the kinds and how they
// are served, the fields of every type with their JSON types, the
// required fields, the list and patch semantics and the defaults that the
// OpenAPI v3 documents of the real API servers show. The test checks the
// published documents against them without any network access;
// hack/kubeconform-test/servercompare compares the documents with the real
// servers' in full.

// servedKind is a kind and how the API server serves it.
type servedKind struct {
	kind, resource string
	namespaced     bool
	status         bool
}

// versionFacts are the facts of one version.
type versionFacts struct {
	version string
	kinds   []servedKind
	// types: one line per definition, "Type: field:t field:t ...", where t
	// is s(tring), i(nteger), b(oolean), a(rray), o(bject) or r (a $ref).
	// "@object" stands for apiVersion:s kind:s metadata:r, "@list" for a
	// List (apiVersion, kind, metadata and items, items required).
	types string
	// required: "Type: field field".
	required string
	// lists: "Type.field: listType [key ...] [merge=key]".
	lists string
	// defaults: "Type.field: JSON value".
	defaults string
}

var facts = []versionFacts{
	{
		version: "v1alpha1",
		kinds: []servedKind{
			{"ResourceClass", "resourceclasses", false, false},
			{"ResourceClaim", "resourceclaims", true, true},
			{"ResourceClaimTemplate", "resourceclaimtemplates", true, false},
			{"PodScheduling", "podschedulings", true, true},
		},
		types: `
AllocationResult: resourceHandle:s availableOnNodes:r shareable:b
PodScheduling: @object spec:r status:r
PodSchedulingList: @list
PodSchedulingSpec: selectedNode:s potentialNodes:a
PodSchedulingStatus: resourceClaims:a
ResourceClaim: @object spec:r status:r
ResourceClaimConsumerReference: apiGroup:s resource:s name:s uid:s
ResourceClaimList: @list
ResourceClaimParametersReference: apiGroup:s kind:s name:s
ResourceClaimSchedulingStatus: name:s unsuitableNodes:a
ResourceClaimSpec: resourceClassName:s parametersRef:r allocationMode:s
ResourceClaimStatus: driverName:s allocation:r reservedFor:a deallocationRequested:b
ResourceClaimTemplate: @object spec:r
ResourceClaimTemplateList: @list
ResourceClaimTemplateSpec: metadata:r spec:r
ResourceClass: @object driverName:s parametersRef:r suitableNodes:r
ResourceClassList: @list
ResourceClassParametersReference: apiGroup:s kind:s name:s namespace:s`,
		required: `
PodScheduling: spec
ResourceClaim: spec
ResourceClaimConsumerReference: resource name uid
ResourceClaimParametersReference: kind name
ResourceClaimSpec: resourceClassName
ResourceClaimTemplate: spec
ResourceClaimTemplateSpec: spec
ResourceClass: driverName
ResourceClassParametersReference: kind name`,
		lists: `
ResourceClaimStatus.reservedFor: map uid
PodSchedulingSpec.potentialNodes: set
PodSchedulingStatus.resourceClaims: map name
ResourceClaimSchedulingStatus.unsuitableNodes: set`,
		defaults: `
ResourceClaim.spec: {}
ResourceClaimSpec.resourceClassName: ""`,
	},
	{
		version: "v1alpha2",
		kinds: []servedKind{
			{"ResourceClass", "resourceclasses", false, false},
			{"ResourceClaim", "resourceclaims", true, true},
			{"ResourceClaimTemplate", "resourceclaimtemplates", true, false},
			{"PodSchedulingContext", "podschedulingcontexts", true, true},
			{"ResourceSlice", "resourceslices", false, false},
			{"ResourceClaimParameters", "resourceclaimparameters", true, false},
			{"ResourceClassParameters", "resourceclassparameters", true, false},
		},
		types: `
AllocationResult: resourceHandles:a availableOnNodes:r shareable:b
DriverAllocationResult: vendorRequestParameters:r namedResources:r
DriverRequests: driverName:s vendorParameters:r requests:a
NamedResourcesAllocationResult: name:s
NamedResourcesAttribute: name:s quantity:r bool:b int:i intSlice:r string:s stringSlice:r version:s
NamedResourcesFilter: selector:s
NamedResourcesInstance: name:s attributes:a
NamedResourcesIntSlice: ints:a
NamedResourcesRequest: selector:s
NamedResourcesResources: instances:a
NamedResourcesStringSlice: strings:a
PodSchedulingContext: @object spec:r status:r
PodSchedulingContextList: @list
PodSchedulingContextSpec: selectedNode:s potentialNodes:a
PodSchedulingContextStatus: resourceClaims:a
ResourceClaim: @object spec:r status:r
ResourceClaimConsumerReference: apiGroup:s resource:s name:s uid:s
ResourceClaimList: @list
ResourceClaimParameters: @object generatedFrom:r shareable:b driverRequests:a
ResourceClaimParametersList: @list
ResourceClaimParametersReference: apiGroup:s kind:s name:s
ResourceClaimSchedulingStatus: name:s unsuitableNodes:a
ResourceClaimSpec: resourceClassName:s parametersRef:r allocationMode:s
ResourceClaimStatus: driverName:s allocation:r reservedFor:a deallocationRequested:b
ResourceClaimTemplate: @object spec:r
ResourceClaimTemplateList: @list
ResourceClaimTemplateSpec: metadata:r spec:r
ResourceClass: @object driverName:s parametersRef:r suitableNodes:r structuredParameters:b
ResourceClassList: @list
ResourceClassParameters: @object generatedFrom:r vendorParameters:a filters:a
ResourceClassParametersList: @list
ResourceClassParametersReference: apiGroup:s kind:s name:s namespace:s
ResourceFilter: driverName:s namedResources:r
ResourceHandle: driverName:s data:s structuredData:r
ResourceRequest: vendorParameters:r namedResources:r
ResourceSlice: @object nodeName:s driverName:s namedResources:r
ResourceSliceList: @list
StructuredResourceHandle: vendorClassParameters:r vendorClaimParameters:r nodeName:s results:a
VendorParameters: driverName:s parameters:r`,
		required: `
NamedResourcesAllocationResult: name
NamedResourcesAttribute: name
NamedResourcesFilter: selector
NamedResourcesInstance: name
NamedResourcesIntSlice: ints
NamedResourcesRequest: selector
NamedResourcesResources: instances
NamedResourcesStringSlice: strings
PodSchedulingContext: spec
ResourceClaim: spec
ResourceClaimConsumerReference: resource name uid
ResourceClaimParametersReference: kind name
ResourceClaimSpec: resourceClassName
ResourceClaimTemplate: spec
ResourceClaimTemplateSpec: spec
ResourceClass: driverName
ResourceClassParametersReference: kind name
ResourceSlice: driverName
StructuredResourceHandle: results`,
		lists: `
AllocationResult.resourceHandles: atomic
DriverRequests.requests: atomic
NamedResourcesInstance.attributes: atomic
NamedResourcesIntSlice.ints: atomic
NamedResourcesResources.instances: atomic
NamedResourcesStringSlice.strings: atomic
PodSchedulingContextSpec.potentialNodes: atomic
PodSchedulingContextStatus.resourceClaims: map name
ResourceClaimParameters.driverRequests: atomic
ResourceClaimSchedulingStatus.unsuitableNodes: atomic
ResourceClaimStatus.reservedFor: map uid merge=uid
ResourceClassParameters.filters: atomic
ResourceClassParameters.vendorParameters: atomic
StructuredResourceHandle.results: atomic`,
		defaults: `
ResourceClaim.spec: {}
ResourceSlice.driverName: ""`,
	},
	{
		version: "v1alpha3",
		kinds: []servedKind{
			{"DeviceClass", "deviceclasses", false, false},
			{"ResourceClaim", "resourceclaims", true, true},
			{"ResourceClaimTemplate", "resourceclaimtemplates", true, false},
			{"PodSchedulingContext", "podschedulingcontexts", true, true},
			{"ResourceSlice", "resourceslices", false, false},
			// The kinds v1alpha3 gained after 1.31, as 1.37 serves them.
			{"DeviceTaintRule", "devicetaintrules", false, true},
			{"ResourcePoolStatusRequest", "resourcepoolstatusrequests", false, true},
		},
		types: `
AllocationResult: devices:r nodeSelector:r controller:s
BasicDevice: attributes:o capacity:o
CELDeviceSelector: expression:s
Device: name:s basic:r
DeviceAllocationConfiguration: source:s requests:a opaque:r
DeviceAllocationResult: results:a config:a
DeviceAttribute: int:i bool:b string:s version:s
DeviceClaim: requests:a constraints:a config:a
DeviceClaimConfiguration: requests:a opaque:r
DeviceClass: @object spec:r
DeviceClassConfiguration: opaque:r
DeviceClassList: @list
DeviceClassSpec: selectors:a config:a suitableNodes:r
DeviceConstraint: requests:a matchAttribute:s
DeviceRequest: name:s deviceClassName:s selectors:a allocationMode:s count:i adminAccess:b
DeviceRequestAllocationResult: request:s driver:s pool:s device:s
DeviceSelector: cel:r
OpaqueDeviceConfiguration: driver:s parameters:r
PodSchedulingContext: @object spec:r status:r
PodSchedulingContextList: @list
PodSchedulingContextSpec: selectedNode:s potentialNodes:a
PodSchedulingContextStatus: resourceClaims:a
ResourceClaim: @object spec:r status:r
ResourceClaimConsumerReference: apiGroup:s resource:s name:s uid:s
ResourceClaimList: @list
ResourceClaimSchedulingStatus: name:s unsuitableNodes:a
ResourceClaimSpec: devices:r controller:s
ResourceClaimStatus: allocation:r reservedFor:a deallocationRequested:b
ResourceClaimTemplate: @object spec:r
ResourceClaimTemplateList: @list
ResourceClaimTemplateSpec: metadata:r spec:r
ResourcePool: name:s generation:i resourceSliceCount:i
ResourceSlice: @object spec:r
ResourceSliceList: @list
ResourceSliceSpec: driver:s pool:r nodeName:s nodeSelector:r allNodes:b devices:a
DeviceTaint: key:s value:s effect:s timeAdded:r
DeviceTaintRule: @object spec:r status:r
DeviceTaintRuleList: @list
DeviceTaintRuleSpec: deviceSelector:r taint:r
DeviceTaintRuleStatus: conditions:a
DeviceTaintSelector: driver:s pool:s device:s
PartitionTypeStatus: attribute:s type:s total:i allocatable:i
PoolStatus: driver:s poolName:s generation:i resourceSliceCount:i totalDevices:i allocatedDevices:i availableDevices:i unavailableDevices:i nodeName:s validationError:s partitionSummary:a shareableSummary:r
ResourcePoolStatusRequest: @object spec:r status:r
ResourcePoolStatusRequestList: @list
ResourcePoolStatusRequestSpec: driver:s poolName:s limit:i defaultPartitionTypeAttribute:s
ResourcePoolStatusRequestStatus: poolCount:i pools:a conditions:a
ShareableCapacityStatus: name:s total:r consumed:r available:r
ShareableSummaryStatus: fullyAvailableDevices:i partiallyAvailableDevices:i capacity:a`,
		required: `
CELDeviceSelector: expression
Device: name
DeviceAllocationConfiguration: source
DeviceClass: spec
DeviceRequest: name deviceClassName
DeviceRequestAllocationResult: request driver pool device
OpaqueDeviceConfiguration: driver parameters
PodSchedulingContext: spec
ResourceClaim: spec
ResourceClaimConsumerReference: resource name uid
ResourceClaimSchedulingStatus: name
ResourceClaimTemplate: spec
ResourceClaimTemplateSpec: spec
ResourcePool: name generation resourceSliceCount
ResourceSlice: spec
ResourceSliceSpec: driver pool
DeviceTaint: key effect
DeviceTaintRule: spec
DeviceTaintRuleSpec: taint
PartitionTypeStatus: attribute type total allocatable
PoolStatus: driver poolName generation
ResourcePoolStatusRequest: metadata spec
ResourcePoolStatusRequestSpec: driver
ResourcePoolStatusRequestStatus: poolCount
ShareableCapacityStatus: name total consumed available
ShareableSummaryStatus: fullyAvailableDevices partiallyAvailableDevices`,
		lists: `
DeviceAllocationConfiguration.requests: atomic
DeviceAllocationResult.config: atomic
DeviceAllocationResult.results: atomic
DeviceClaim.config: atomic
DeviceClaim.constraints: atomic
DeviceClaim.requests: atomic
DeviceClaimConfiguration.requests: atomic
DeviceClassSpec.config: atomic
DeviceClassSpec.selectors: atomic
DeviceConstraint.requests: atomic
DeviceRequest.selectors: atomic
PodSchedulingContextSpec.potentialNodes: atomic
PodSchedulingContextStatus.resourceClaims: map name
ResourceClaimSchedulingStatus.unsuitableNodes: atomic
ResourceClaimStatus.reservedFor: map uid merge=uid
ResourceSliceSpec.devices: atomic
DeviceTaintRuleStatus.conditions: map type merge=type
PoolStatus.partitionSummary: atomic
ResourcePoolStatusRequestStatus.conditions: map type merge=type
ResourcePoolStatusRequestStatus.pools: atomic
ShareableSummaryStatus.capacity: atomic`,
		defaults: `
DeviceRequest.adminAccess: false
DeviceRequest.name: ""
DeviceRequest.deviceClassName: ""
ResourceClaimSpec.devices: {}
ResourcePool.generation: 0
DeviceTaint.effect: ""
DeviceTaintRuleSpec.taint: {}
PoolStatus.generation: 0
ResourcePoolStatusRequestSpec.limit: 100`,
	},
	{
		version:  "v1beta1",
		kinds:    v1EraKinds[:4],
		types:    v1beta1Types,
		required: v1beta1Required,
		lists:    v1beta1Lists,
		defaults: v1beta1Defaults,
	},
	{
		version:  "v1beta2",
		kinds:    v1EraKinds,
		types:    v1Types,
		required: v1Required,
		lists:    v1Lists,
		defaults: v1Defaults,
	},
	{
		version:  "v1",
		kinds:    v1EraKinds,
		types:    v1Types,
		required: v1Required,
		lists:    v1Lists,
		defaults: v1Defaults,
	},
}

// The facts of the v1 era (ga-facts.md, sections 1 and 3). v1beta2 and v1
// have the same types in 1.37 (section 3.2); v1beta1 differs in the
// request (flat, no ExactDeviceRequest), the device (basic) and has no
// DeviceTaintRule (section 3.3).
var v1EraKinds = []servedKind{
	{"DeviceClass", "deviceclasses", false, false},
	{"ResourceClaim", "resourceclaims", true, true},
	{"ResourceClaimTemplate", "resourceclaimtemplates", true, false},
	{"ResourceSlice", "resourceslices", false, false},
	{"DeviceTaintRule", "devicetaintrules", false, true},
}

// v1CommonTypes are the types v1beta1, v1beta2 and v1 share.
const v1CommonTypes = `
AllocatedDeviceStatus: driver:s pool:s device:s shareID:s conditions:a data:r networkData:r
AllocationResult: devices:r nodeSelector:r allocationTimestamp:r
CELDeviceSelector: expression:s
CapacityRequestPolicy: default:r validValues:a validRange:r
CapacityRequestPolicyRange: min:r max:r step:r
CapacityRequirements: requests:o
Counter: value:r
CounterSet: name:s counters:o
DeviceAllocationConfiguration: source:s requests:a opaque:r
DeviceAllocationResult: results:a config:a
DeviceAttribute: int:i bool:b string:s version:s ints:a bools:a strings:a versions:a
DeviceCapacity: value:r requestPolicy:r
DeviceClaim: requests:a constraints:a config:a
DeviceClaimConfiguration: requests:a opaque:r
DeviceClass: @object spec:r
DeviceClassConfiguration: opaque:r
DeviceClassList: @list
DeviceClassSpec: selectors:a config:a extendedResourceName:s
DeviceConstraint: requests:a matchAttribute:s distinctAttribute:s
DeviceCounterConsumption: counterSet:s counters:o compatibilityGroups:a
DeviceDerivedAttribute: name:s expression:s
DeviceRequestAllocationResult: request:s driver:s pool:s device:s adminAccess:b tolerations:a bindingConditions:a bindingFailureConditions:a shareID:s consumedCapacity:o skipNodeOperations:a
DeviceSelector: cel:r
DeviceSubRequest: name:s deviceClassName:s selectors:a allocationMode:s count:i tolerations:a capacity:r derivedAttributes:a
DeviceTaint: key:s value:s effect:s timeAdded:r
DeviceToleration: key:s operator:s value:s effect:s tolerationSeconds:i
NetworkDeviceData: interfaceName:s ips:a hardwareAddress:s
NodeAllocatableMapping: capacityKey:s capacityMultiplier:r deviceMultiplier:r
NodeAllocatableOverhead: perPod:r perContainer:r
NodeAllocatableResource: mapping:r overhead:r
OpaqueDeviceConfiguration: driver:s parameters:r
ResourceClaim: @object spec:r status:r
ResourceClaimConsumerReference: apiGroup:s resource:s name:s uid:s
ResourceClaimList: @list
ResourceClaimSpec: devices:r
ResourceClaimStatus: allocation:r reservedFor:a devices:a
ResourceClaimTemplate: @object spec:r
ResourceClaimTemplateList: @list
ResourceClaimTemplateSpec: metadata:r spec:r
ResourcePool: name:s generation:i resourceSliceCount:i
ResourceSlice: @object spec:r
ResourceSliceList: @list
ResourceSliceSpec: driver:s pool:r nodeName:s nodeSelector:r allNodes:b devices:a perDeviceNodeSelection:b sharedCounters:a partitionTypeAttribute:s skipNodeOperations:a`

const v1Types = v1CommonTypes + `
Device: name:s attributes:o capacity:o consumesCounters:a nodeName:s nodeSelector:r allNodes:b taints:a bindsToNode:b bindingConditions:a bindingFailureConditions:a allowMultipleAllocations:b nodeAllocatableResources:o
DeviceRequest: name:s exactly:r firstAvailable:a
DeviceTaintRule: @object spec:r status:r
DeviceTaintRuleList: @list
DeviceTaintRuleSpec: deviceSelector:r taint:r
DeviceTaintRuleStatus: conditions:a
DeviceTaintSelector: driver:s pool:s device:s
ExactDeviceRequest: deviceClassName:s selectors:a allocationMode:s count:i adminAccess:b tolerations:a capacity:r derivedAttributes:a`

const v1beta1Types = v1CommonTypes + `
BasicDevice: attributes:o capacity:o consumesCounters:a nodeName:s nodeSelector:r allNodes:b taints:a bindsToNode:b bindingConditions:a bindingFailureConditions:a allowMultipleAllocations:b nodeAllocatableResources:o
Device: name:s basic:r
DeviceRequest: name:s deviceClassName:s selectors:a allocationMode:s count:i adminAccess:b firstAvailable:a tolerations:a capacity:r derivedAttributes:a`

// Required: the fields marked +required. ResourceClaim, DeviceClass and
// ResourceClaimTemplate mark spec optional from 1.33 on (1.31's v1alpha3
// required it).
const v1CommonRequired = `
AllocatedDeviceStatus: driver pool device
CELDeviceSelector: expression
CapacityRequestPolicyRange: min
Counter: value
CounterSet: name counters
DeviceAllocationConfiguration: source
DeviceCapacity: value
DeviceCounterConsumption: counterSet counters
DeviceDerivedAttribute: name expression
DeviceRequestAllocationResult: request driver pool device
DeviceSubRequest: name deviceClassName
DeviceTaint: key effect
OpaqueDeviceConfiguration: driver parameters
ResourceClaimConsumerReference: resource name uid
ResourcePool: name generation resourceSliceCount
ResourceSlice: spec
ResourceSliceSpec: driver pool`

const v1Required = v1CommonRequired + `
Device: name
DeviceRequest: name
DeviceTaintRule: spec
DeviceTaintRuleSpec: taint
ExactDeviceRequest: deviceClassName`

// v1beta1's deviceClassName is optional since 1.33 (a request may use
// firstAvailable instead).
const v1beta1Required = v1CommonRequired + `
Device: name
DeviceRequest: name`

const v1CommonLists = `
AllocatedDeviceStatus.conditions: map type
CapacityRequestPolicy.validValues: atomic
DeviceAllocationConfiguration.requests: atomic
DeviceAllocationResult.config: atomic
DeviceAllocationResult.results: atomic
DeviceAttribute.bools: atomic
DeviceAttribute.ints: atomic
DeviceAttribute.strings: atomic
DeviceAttribute.versions: atomic
DeviceClaim.config: atomic
DeviceClaim.constraints: atomic
DeviceClaim.requests: atomic
DeviceClaimConfiguration.requests: atomic
DeviceClassSpec.config: atomic
DeviceClassSpec.selectors: atomic
DeviceConstraint.requests: atomic
DeviceCounterConsumption.compatibilityGroups: atomic
DeviceRequestAllocationResult.bindingConditions: atomic
DeviceRequestAllocationResult.bindingFailureConditions: atomic
DeviceRequestAllocationResult.skipNodeOperations: set
DeviceRequestAllocationResult.tolerations: atomic
DeviceSubRequest.derivedAttributes: atomic
DeviceSubRequest.selectors: atomic
DeviceSubRequest.tolerations: atomic
NetworkDeviceData.ips: atomic
ResourceClaimStatus.devices: map driver device pool shareID
ResourceClaimStatus.reservedFor: map uid merge=uid
ResourceSliceSpec.devices: atomic
ResourceSliceSpec.sharedCounters: atomic
ResourceSliceSpec.skipNodeOperations: set`

const v1Lists = v1CommonLists + `
Device.bindingConditions: atomic
Device.bindingFailureConditions: atomic
Device.consumesCounters: atomic
Device.taints: atomic
DeviceRequest.firstAvailable: atomic
DeviceTaintRuleStatus.conditions: map type merge=type
ExactDeviceRequest.derivedAttributes: atomic
ExactDeviceRequest.selectors: atomic
ExactDeviceRequest.tolerations: atomic`

const v1beta1Lists = v1CommonLists + `
BasicDevice.bindingConditions: atomic
BasicDevice.bindingFailureConditions: atomic
BasicDevice.consumesCounters: atomic
BasicDevice.taints: atomic
DeviceRequest.derivedAttributes: atomic
DeviceRequest.firstAvailable: atomic
DeviceRequest.selectors: atomic
DeviceRequest.tolerations: atomic`

// Defaults: +default markers (the toleration operator), a non-pointer
// struct field's empty object, and the zero value of scalars the JSON
// always carries (section 3.0).
const v1CommonDefaults = `
AllocationResult.devices: {}
DeviceRequestAllocationResult.request: ""
DeviceTaint.effect: ""
DeviceTaint.key: ""
DeviceToleration.operator: "Equal"
ResourceClaim.spec: {}
ResourceClaimSpec.devices: {}
ResourcePool.generation: 0
ResourceSliceSpec.pool: {}`

const v1Defaults = v1CommonDefaults + `
DeviceTaintRuleSpec.taint: {}
ExactDeviceRequest.deviceClassName: ""`

// v1beta1's deviceClassName has no omitempty: a request that only uses
// firstAvailable carries "deviceClassName": "".
const v1beta1Defaults = v1CommonDefaults + `
DeviceRequest.deviceClassName: ""`

// v3Doc is the part of an OpenAPI v3 document the test reads.
type v3Doc struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]schema `json:"schemas"`
	} `json:"components"`
}

type schema struct {
	RawType    json.RawMessage   `json:"type"`
	Ref        string            `json:"$ref"`
	AllOf      []schema          `json:"allOf"`
	Properties map[string]schema `json:"properties"`
	Required   []string          `json:"required"`
	Default    json.RawMessage   `json:"default"`
	ListType   string            `json:"x-kubernetes-list-type"`
	MapKeys    []string          `json:"x-kubernetes-list-map-keys"`
	Strategy   string            `json:"x-kubernetes-patch-strategy"`
	MergeKey   string            `json:"x-kubernetes-patch-merge-key"`
	Kinds      []struct {
		Group, Version, Kind string
	} `json:"x-kubernetes-group-version-kind"`
}

// shortType is the letter of the facts tables for a property schema.
func (s schema) shortType() string {
	if s.Ref != "" || len(s.AllOf) > 0 {
		return "r"
	}
	var t string
	_ = json.Unmarshal(s.RawType, &t)
	switch t {
	case "string":
		return "s"
	case "integer":
		return "i"
	case "boolean":
		return "b"
	case "array":
		return "a"
	case "object":
		return "o"
	}
	return "?" + string(s.RawType)
}

func loadV3(t *testing.T, version string) v3Doc {
	t.Helper()
	data, err := openapi.Document("resource.k8s.io/"+version, "v3")
	if err != nil {
		t.Fatal(err)
	}
	var doc v3Doc
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// lines splits a facts table into "key: value" pairs.
func lines(t *testing.T, table string) [][2]string {
	t.Helper()
	var out [][2]string
	for _, line := range strings.Split(strings.TrimSpace(table), "\n") {
		key, value, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("bad facts line %q", line)
		}
		out = append(out, [2]string{strings.TrimSpace(key), strings.TrimSpace(value)})
	}
	return out
}

func TestFactsTypesAndFields(t *testing.T) {
	for _, f := range facts {
		t.Run(f.version, func(t *testing.T) {
			doc := loadV3(t, f.version)
			prefix := "io.k8s.api.resource." + f.version + "."
			want := map[string]map[string]string{}
			for _, l := range lines(t, f.types) {
				fields := map[string]string{}
				for _, field := range strings.Fields(l[1]) {
					switch field {
					case "@object":
						fields["apiVersion"], fields["kind"], fields["metadata"] = "s", "s", "r"
					case "@list":
						fields["apiVersion"], fields["kind"], fields["metadata"], fields["items"] = "s", "s", "r", "a"
					default:
						name, typ, _ := strings.Cut(field, ":")
						fields[name] = typ
					}
				}
				want[prefix+l[0]] = fields
			}
			got := map[string]map[string]string{}
			for name, s := range doc.Components.Schemas {
				if !strings.HasPrefix(name, prefix) {
					continue
				}
				fields := map[string]string{}
				for prop, p := range s.Properties {
					fields[prop] = p.shortType()
				}
				got[name] = fields
			}
			for name, w := range want {
				if !reflect.DeepEqual(got[name], w) {
					t.Errorf("%s: fields %v, want %v", name, got[name], w)
				}
			}
			for name := range got {
				if _, ok := want[name]; !ok {
					t.Errorf("the document defines %s, which the version does not have", name)
				}
			}
		})
	}
}

func TestFactsRequired(t *testing.T) {
	for _, f := range facts {
		t.Run(f.version, func(t *testing.T) {
			doc := loadV3(t, f.version)
			prefix := "io.k8s.api.resource." + f.version + "."
			want := map[string][]string{}
			for _, l := range lines(t, f.required) {
				want[prefix+l[0]] = strings.Fields(l[1])
			}
			for _, k := range f.kinds {
				want[prefix+k.kind+"List"] = []string{"items"}
			}
			for name, s := range doc.Components.Schemas {
				if !strings.HasPrefix(name, prefix) {
					continue
				}
				got := append([]string(nil), s.Required...)
				w := append([]string(nil), want[name]...)
				sort.Strings(got)
				sort.Strings(w)
				if !reflect.DeepEqual(got, w) && (len(got) > 0 || len(w) > 0) {
					t.Errorf("%s: required %v, want %v", name, s.Required, want[name])
				}
			}
		})
	}
}

func TestFactsListsAndPatches(t *testing.T) {
	for _, f := range facts {
		t.Run(f.version, func(t *testing.T) {
			doc := loadV3(t, f.version)
			prefix := "io.k8s.api.resource." + f.version + "."
			want := map[string]string{}
			for _, l := range lines(t, f.lists) {
				want[prefix+l[0]] = l[1]
			}
			got := map[string]string{}
			for name, s := range doc.Components.Schemas {
				if !strings.HasPrefix(name, prefix) {
					continue
				}
				for prop, p := range s.Properties {
					if p.ListType == "" && p.Strategy == "" {
						continue
					}
					desc := strings.Join(append([]string{p.ListType}, p.MapKeys...), " ")
					if p.Strategy != "" {
						desc += " " + p.Strategy + "=" + p.MergeKey
					}
					got[name+"."+prop] = desc
				}
			}
			// The items of a List carry no list semantics of their own
			// here; only the fields of the version's types are facts.
			for _, k := range f.kinds {
				delete(got, prefix+k.kind+"List.items")
			}
			if !reflect.DeepEqual(got, want) {
				for k, v := range want {
					if got[k] != v {
						t.Errorf("%s: %q, want %q", k, got[k], v)
					}
				}
				for k, v := range got {
					if _, ok := want[k]; !ok {
						t.Errorf("%s: %q, which the facts do not have", k, v)
					}
				}
			}
		})
	}
}

func TestFactsDefaults(t *testing.T) {
	for _, f := range facts {
		t.Run(f.version, func(t *testing.T) {
			doc := loadV3(t, f.version)
			prefix := "io.k8s.api.resource." + f.version + "."
			for _, l := range lines(t, f.defaults) {
				typ, prop, _ := strings.Cut(l[0], ".")
				p := doc.Components.Schemas[prefix+typ].Properties[prop]
				if string(p.Default) != l[1] {
					t.Errorf("%s.%s: default %s, want %s", typ, prop, p.Default, l[1])
				}
			}
		})
	}
}

// TestFactsKindsAndPaths: each kind and its List carry their group, version
// and kind, and the paths are those of the kind's scope and subresources.
func TestFactsKindsAndPaths(t *testing.T) {
	for _, f := range facts {
		t.Run(f.version, func(t *testing.T) {
			doc := loadV3(t, f.version)
			prefix := "io.k8s.api.resource." + f.version + "."
			base := "/apis/resource.k8s.io/" + f.version
			wantPaths := map[string][]string{base + "/": {"get"}}
			for _, k := range f.kinds {
				for _, kind := range []string{k.kind, k.kind + "List"} {
					s := doc.Components.Schemas[prefix+kind]
					want := fmt.Sprintf("[{resource.k8s.io %s %s}]", f.version, kind)
					if got := fmt.Sprint(s.Kinds); got != want {
						t.Errorf("%s: x-kubernetes-group-version-kind %s, want %s", kind, got, want)
					}
				}
				collection, watch := base+"/"+k.resource, base+"/watch/"+k.resource
				if k.namespaced {
					collection = base + "/namespaces/{namespace}/" + k.resource
					watch = base + "/watch/namespaces/{namespace}/" + k.resource
					wantPaths[base+"/"+k.resource] = []string{"get"}
					wantPaths[base+"/watch/"+k.resource] = []string{"get"}
				}
				wantPaths[collection] = []string{"delete", "get", "post"}
				wantPaths[collection+"/{name}"] = []string{"delete", "get", "patch", "put"}
				wantPaths[watch] = []string{"get"}
				wantPaths[watch+"/{name}"] = []string{"get"}
				if k.status {
					wantPaths[collection+"/{name}/status"] = []string{"get", "patch", "put"}
				}
			}
			gotPaths := map[string][]string{}
			for p, item := range doc.Paths {
				for method := range item {
					if method != "parameters" {
						gotPaths[p] = append(gotPaths[p], method)
					}
				}
				sort.Strings(gotPaths[p])
			}
			if !reflect.DeepEqual(gotPaths, wantPaths) {
				for p, w := range wantPaths {
					if !reflect.DeepEqual(gotPaths[p], w) {
						t.Errorf("path %s: operations %v, want %v", p, gotPaths[p], w)
					}
				}
				for p := range gotPaths {
					if _, ok := wantPaths[p]; !ok {
						t.Errorf("path %s should not exist", p)
					}
				}
			}
		})
	}
}

// TestFactsV2DefinitionCounts: the OpenAPI v2 part of each version has as
// many resource.k8s.io definitions as the release's swagger.json (18, 39
// and 35 in 1.26, 1.30 and 1.31; 46, 51 and 51 for v1beta1, v1beta2 and v1
// in 1.37), and no defaults, as the API server prunes them. v1alpha3 has
// its 35 of 1.31 and the 14 that 1.37's swagger.json has for
// DeviceTaintRule and ResourcePoolStatusRequest.
func TestFactsV2DefinitionCounts(t *testing.T) {
	want := map[string]int{"v1alpha1": 18, "v1alpha2": 39, "v1alpha3": 35 + 14, "v1beta1": 46, "v1beta2": 51, "v1": 51}
	for version, n := range want {
		data, err := openapi.Document("resource.k8s.io/"+version, "v2")
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Definitions map[string]json.RawMessage `json:"definitions"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		got := 0
		for name := range doc.Definitions {
			if strings.HasPrefix(name, "io.k8s.api.resource."+version+".") {
				got++
			}
		}
		if got != n {
			t.Errorf("%s: %d definitions in the OpenAPI v2 document, want %d", version, got, n)
		}
		var generic interface{}
		if err := json.Unmarshal(data, &generic); err != nil {
			t.Fatal(err)
		}
		if where := defaultsIn(generic, ""); len(where) > 0 {
			t.Errorf("%s: the OpenAPI v2 document has defaults at %v", version, where)
		}
		// The walk finds the defaults the v3 document has.
		var v3 interface{}
		if err := json.Unmarshal(mustDocument(t, version, "v3"), &v3); err != nil {
			t.Fatal(err)
		}
		if len(defaultsIn(v3, "")) == 0 {
			t.Errorf("%s: no defaults found in the OpenAPI v3 document", version)
		}
	}
}

// defaultsIn lists the JSON pointers of the defaults in a decoded document.
// A property called "default" (CapacityRequestPolicy's) is no default.
func defaultsIn(v interface{}, pointer string) []string {
	var out []string
	switch t := v.(type) {
	case map[string]interface{}:
		for k, item := range t {
			p := pointer + "/" + k
			if k == "default" {
				out = append(out, p)
			}
			if k == "properties" {
				if props, ok := item.(map[string]interface{}); ok {
					for name, prop := range props {
						out = append(out, defaultsIn(prop, p+"/"+name)...)
					}
					continue
				}
			}
			out = append(out, defaultsIn(item, p)...)
		}
	case []interface{}:
		for i, item := range t {
			out = append(out, defaultsIn(item, fmt.Sprintf("%s/%d", pointer, i))...)
		}
	}
	return out
}

func mustDocument(t *testing.T, version, format string) []byte {
	t.Helper()
	data, err := openapi.Document("resource.k8s.io/"+version, format)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
