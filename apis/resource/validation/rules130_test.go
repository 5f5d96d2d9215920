package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/apis/resource/v1alpha2"
)

func a2Claim(muts ...func(*v1alpha2.ResourceClaim)) *v1alpha2.ResourceClaim {
	c := &v1alpha2.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "claim", Namespace: "ns", ResourceVersion: "7"},
		Spec:       v1alpha2.ResourceClaimSpec{ResourceClassName: "example-class"},
	}
	for _, m := range muts {
		m(c)
	}
	return c
}

var (
	pod1a2 = v1alpha2.ResourceClaimConsumerReference{Resource: "pods", Name: "pod-1", UID: "uid-1"}
	pod2a2 = v1alpha2.ResourceClaimConsumerReference{Resource: "pods", Name: "pod-2", UID: "uid-2"}
)

// a2Allocated is a claim allocated with structured parameters and reserved
// for pod-1.
func a2Allocated(muts ...func(*v1alpha2.ResourceClaim)) *v1alpha2.ResourceClaim {
	return a2Claim(append([]func(*v1alpha2.ResourceClaim){func(c *v1alpha2.ResourceClaim) {
		c.Status = v1alpha2.ResourceClaimStatus{
			DriverName: "dra.example.com",
			Allocation: &v1alpha2.AllocationResult{
				ResourceHandles: []v1alpha2.ResourceHandle{{
					DriverName: "dra.example.com",
					StructuredData: &v1alpha2.StructuredResourceHandle{
						NodeName: "node-1",
						Results: []v1alpha2.DriverAllocationResult{{
							AllocationResultModel: v1alpha2.AllocationResultModel{NamedResources: &v1alpha2.NamedResourcesAllocationResult{Name: "gpu-0"}},
						}},
					},
				}},
				AvailableOnNodes: nodeSelectorFor("node-1"),
			},
			ReservedFor: []v1alpha2.ResourceClaimConsumerReference{pod1a2},
		}
	}}, muts...)...)
}

func a2Class(muts ...func(*v1alpha2.ResourceClass)) *v1alpha2.ResourceClass {
	c := &v1alpha2.ResourceClass{
		ObjectMeta:           metav1.ObjectMeta{Name: "example-class", ResourceVersion: "3"},
		DriverName:           "dra.example.com",
		StructuredParameters: ptr(true),
	}
	for _, m := range muts {
		m(c)
	}
	return c
}

func a2Template(muts ...func(*v1alpha2.ResourceClaimTemplate)) *v1alpha2.ResourceClaimTemplate {
	t := &v1alpha2.ResourceClaimTemplate{
		ObjectMeta: metav1.ObjectMeta{Name: "template", Namespace: "ns", ResourceVersion: "3"},
		Spec:       v1alpha2.ResourceClaimTemplateSpec{Spec: v1alpha2.ResourceClaimSpec{ResourceClassName: "example-class"}},
	}
	for _, m := range muts {
		m(t)
	}
	return t
}

func a2Scheduling(muts ...func(*v1alpha2.PodSchedulingContext)) *v1alpha2.PodSchedulingContext {
	s := &v1alpha2.PodSchedulingContext{
		ObjectMeta: metav1.ObjectMeta{Name: "pod-1", Namespace: "ns", ResourceVersion: "3"},
		Spec:       v1alpha2.PodSchedulingContextSpec{SelectedNode: "node-1", PotentialNodes: []string{"node-1"}},
	}
	for _, m := range muts {
		m(s)
	}
	return s
}

func a2Slice(muts ...func(*v1alpha2.ResourceSlice)) *v1alpha2.ResourceSlice {
	q := apiresource.MustParse("40Gi")
	s := &v1alpha2.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "node-1-dra", ResourceVersion: "3"},
		NodeName:   "node-1",
		DriverName: "dra.example.com",
		ResourceModel: v1alpha2.ResourceModel{NamedResources: &v1alpha2.NamedResourcesResources{
			Instances: []v1alpha2.NamedResourcesInstance{{
				Name: "gpu-0",
				Attributes: []v1alpha2.NamedResourcesAttribute{
					{Name: "memory", NamedResourcesAttributeValue: v1alpha2.NamedResourcesAttributeValue{QuantityValue: &q}},
					{Name: "healthy", NamedResourcesAttributeValue: v1alpha2.NamedResourcesAttributeValue{BoolValue: ptr(true)}},
					{Name: "cores", NamedResourcesAttributeValue: v1alpha2.NamedResourcesAttributeValue{IntValue: ptr(int64(8))}},
					{Name: "lanes", NamedResourcesAttributeValue: v1alpha2.NamedResourcesAttributeValue{IntSliceValue: &v1alpha2.NamedResourcesIntSlice{Ints: []int64{1, 2}}}},
					{Name: "model", NamedResourcesAttributeValue: v1alpha2.NamedResourcesAttributeValue{StringValue: ptr("a100")}},
					{Name: "tags", NamedResourcesAttributeValue: v1alpha2.NamedResourcesAttributeValue{StringSliceValue: &v1alpha2.NamedResourcesStringSlice{Strings: []string{"x"}}}},
					{Name: "driver-version", NamedResourcesAttributeValue: v1alpha2.NamedResourcesAttributeValue{VersionValue: ptr("1.2.3-rc.1+build.5")}},
				},
			}, {Name: "gpu-1"}},
		}},
	}
	for _, m := range muts {
		m(s)
	}
	return s
}

func a2ClaimParams(muts ...func(*v1alpha2.ResourceClaimParameters)) *v1alpha2.ResourceClaimParameters {
	p := &v1alpha2.ResourceClaimParameters{
		ObjectMeta:    metav1.ObjectMeta{Name: "params", Namespace: "ns", ResourceVersion: "3"},
		GeneratedFrom: &v1alpha2.ResourceClaimParametersReference{APIGroup: "example.com", Kind: "GPUParams", Name: "p"},
		Shareable:     true,
		DriverRequests: []v1alpha2.DriverRequests{{
			DriverName:       "dra.example.com",
			VendorParameters: runtime.RawExtension{Raw: []byte(`{"a":1}`)},
			Requests: []v1alpha2.ResourceRequest{{
				ResourceRequestModel: v1alpha2.ResourceRequestModel{NamedResources: &v1alpha2.NamedResourcesRequest{Selector: `attributes.bool["healthy"]`}},
			}},
		}},
	}
	for _, m := range muts {
		m(p)
	}
	return p
}

func a2ClassParams(muts ...func(*v1alpha2.ResourceClassParameters)) *v1alpha2.ResourceClassParameters {
	p := &v1alpha2.ResourceClassParameters{
		ObjectMeta:       metav1.ObjectMeta{Name: "params", Namespace: "ns", ResourceVersion: "3"},
		GeneratedFrom:    &v1alpha2.ResourceClassParametersReference{Kind: "GPUClassParams", Name: "p", Namespace: "ns"},
		VendorParameters: []v1alpha2.VendorParameters{{DriverName: "dra.example.com"}},
		Filters: []v1alpha2.ResourceFilter{{
			DriverName:          "dra.example.com",
			ResourceFilterModel: v1alpha2.ResourceFilterModel{NamedResources: &v1alpha2.NamedResourcesFilter{Selector: `attributes.quantity["memory"].isGreaterThan(quantity("10Gi"))`}},
		}},
	}
	for _, m := range muts {
		m(p)
	}
	return p
}

func TestV1alpha2Claims(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "claim", obj: a2Claim()},
		{name: "claim: all fields", obj: a2Claim(func(c *v1alpha2.ResourceClaim) {
			c.Spec.AllocationMode = v1alpha2.AllocationModeImmediate
			c.Spec.ParametersRef = &v1alpha2.ResourceClaimParametersReference{APIGroup: "resource.k8s.io", Kind: "ResourceClaimParameters", Name: "params"}
		})},
		{name: "claim: empty class name", obj: a2Claim(func(c *v1alpha2.ResourceClaim) { c.Spec.ResourceClassName = "" }), want: []string{"Invalid spec.resourceClassName"}},
		{name: "claim: 64-character class name", obj: a2Claim(func(c *v1alpha2.ResourceClaim) { c.Spec.ResourceClassName = strings.Repeat("c", 64) })},
		{name: "claim: parametersRef", obj: a2Claim(func(c *v1alpha2.ResourceClaim) {
			c.Spec.ParametersRef = &v1alpha2.ResourceClaimParametersReference{Kind: "K"}
		}),
			want: []string{"Required spec.parametersRef.name"}},
		{name: "claim: allocationMode", obj: a2Claim(func(c *v1alpha2.ResourceClaim) { c.Spec.AllocationMode = "immediate" }),
			want: []string{"NotSupported spec.allocationMode"}},
		{name: "claim update: spec immutable", op: opUpdate, old: a2Claim(), obj: a2Claim(func(c *v1alpha2.ResourceClaim) {
			c.Spec.AllocationMode = v1alpha2.AllocationModeImmediate
		}), want: []string{"Invalid spec"}},
		{name: "claim update: finalizer", op: opUpdate, old: a2Claim(), obj: a2Claim(func(c *v1alpha2.ResourceClaim) {
			c.Finalizers = []string{v1alpha2.Finalizer}
		})},

		{name: "template", obj: a2Template()},
		{name: "template: generateName in the template", obj: a2Template(func(tp *v1alpha2.ResourceClaimTemplate) { tp.Spec.GenerateName = "x-" }),
			want: []string{"Forbidden spec.metadata.generateName"}},
		{name: "template: claim rules", obj: a2Template(func(tp *v1alpha2.ResourceClaimTemplate) { tp.Spec.Spec.ResourceClassName = "A" }),
			want: []string{"Invalid spec.spec.resourceClassName"}},
		{name: "template update: immutable", op: opUpdate, old: a2Template(), obj: a2Template(func(tp *v1alpha2.ResourceClaimTemplate) {
			tp.Spec.Spec.ResourceClassName = "other"
		}), want: []string{"Invalid spec"}},

		{name: "class", obj: a2Class(func(c *v1alpha2.ResourceClass) {
			c.ParametersRef = &v1alpha2.ResourceClassParametersReference{APIGroup: "resource.k8s.io", Kind: "ResourceClassParameters", Name: "p", Namespace: "ns"}
			c.SuitableNodes = nodeSelectorFor("node-1")
		})},
		{name: "class: driver name", obj: a2Class(func(c *v1alpha2.ResourceClass) { c.DriverName = "" }), want: []string{"Required driverName", "Invalid driverName"}},
		{name: "class: parametersRef", obj: a2Class(func(c *v1alpha2.ResourceClass) {
			c.ParametersRef = &v1alpha2.ResourceClassParametersReference{Namespace: "Bad"}
		}), want: []string{"Required parametersRef.kind", "Required parametersRef.name", "Invalid parametersRef.namespace"}},
		{name: "class: suitableNodes", obj: a2Class(func(c *v1alpha2.ResourceClass) {
			c.SuitableNodes = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
				MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn}},
			}}}
		}), want: []string{"Required suitableNodes.nodeSelectorTerms[0].matchExpressions[0].values"}},
		{name: "class update: mutable", op: opUpdate, old: a2Class(), obj: a2Class(func(c *v1alpha2.ResourceClass) { c.StructuredParameters = nil })},

		{name: "scheduling", obj: a2Scheduling()},
		{name: "scheduling: nodes", obj: a2Scheduling(func(s *v1alpha2.PodSchedulingContext) {
			s.Spec.PotentialNodes = append(repeat(129, nodeName), "node-0", "-")
		}), want: []string{"TooLong spec.potentialNodes", "Duplicate spec.potentialNodes[129]", "Invalid spec.potentialNodes[130]"}},
		{name: "scheduling status: claims", op: opStatus, old: a2Scheduling(), obj: a2Scheduling(func(s *v1alpha2.PodSchedulingContext) {
			s.Status.ResourceClaims = []v1alpha2.ResourceClaimSchedulingStatus{
				{Name: "a", UnsuitableNodes: []string{"node-1", "node-1"}}, {Name: "a", UnsuitableNodes: repeat(128, nodeName)},
			}
		}), want: []string{"Duplicate status.claims[0].unsuitableNodes[1]", "Duplicate status.claims[1]"}},
		{name: "scheduling status: 1.30 keeps the stored labels", op: opStatus, old: a2Scheduling(), obj: a2Scheduling(func(s *v1alpha2.PodSchedulingContext) {
			s.Labels = map[string]string{"-": "-"}
		})},
	})
}

// TestV1alpha2ResourceClaimStatus checks the 1.30 status rules of a claim.
// It is a table of cases, longer than 80 lines for that reason: each
// case reads on its own.
func TestV1alpha2ResourceClaimStatus(t *testing.T) {
	handles := func(n int) []v1alpha2.ResourceHandle {
		out := make([]v1alpha2.ResourceHandle, n)
		for i := range out {
			out[i] = v1alpha2.ResourceHandle{DriverName: "dra.example.com", Data: "x"}
		}
		return out
	}
	runCases(t, []ruleCase{
		{name: "allocate", op: opStatus, old: a2Claim(), obj: a2Allocated()},
		{name: "opaque handles", op: opStatus, old: a2Claim(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			c.Status.Allocation.ResourceHandles = handles(32)
			c.Status.Allocation.ResourceHandles[0].Data = strings.Repeat("d", 16384)
		})},
		{name: "33 handles", op: opStatus, old: a2Claim(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			c.Status.Allocation.ResourceHandles = handles(33)
		}), want: []string{"TooLong status.allocation.resourceHandles"}},
		{name: "handle data over 16KiB", op: opStatus, old: a2Claim(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			c.Status.Allocation.ResourceHandles = handles(1)
			c.Status.Allocation.ResourceHandles[0].Data = strings.Repeat("é", 8193)
		}), want: []string{"TooLong status.allocation.resourceHandles[0].data"}},
		{name: "handle without driver", op: opStatus, old: a2Claim(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			c.Status.Allocation.ResourceHandles[0].DriverName = ""
		}), want: []string{"Required status.allocation.resourceHandles[0].driverName", "Invalid status.allocation.resourceHandles[0].driverName"}},
		{name: "data and structuredData", op: opStatus, old: a2Claim(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			c.Status.Allocation.ResourceHandles[0].Data = "x"
		}), want: []string{"Invalid status.allocation.resourceHandles[0]"}},
		{name: "structuredData: empty is accepted", op: opStatus, old: a2Claim(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			c.Status.Allocation.ResourceHandles[0].StructuredData = &v1alpha2.StructuredResourceHandle{}
		})},
		{name: "structuredData rules", op: opStatus, old: a2Claim(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			sd := c.Status.Allocation.ResourceHandles[0].StructuredData
			sd.NodeName = "Node"
			sd.Results = append(sd.Results,
				v1alpha2.DriverAllocationResult{},
				v1alpha2.DriverAllocationResult{AllocationResultModel: v1alpha2.AllocationResultModel{NamedResources: &v1alpha2.NamedResourcesAllocationResult{Name: "GPU"}}})
		}), want: []string{
			"Invalid status.allocation.resourceHandles[0].structuredData.nodeName",
			"Required status.allocation.resourceHandles[0].structuredData.results[1]",
			"Invalid status.allocation.resourceHandles[0].structuredData.results[2].namedResources.name",
		}},
		{name: "allocation without driverName", op: opStatus, old: a2Claim(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			c.Status.DriverName = ""
		}), want: []string{"Required status.driverName"}},
		{name: "availableOnNodes", op: opStatus, old: a2Claim(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			c.Status.Allocation.AvailableOnNodes = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
				MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.uid", Operator: corev1.NodeSelectorOpIn, Values: []string{"x"}}},
			}}}
		}), want: []string{"Invalid status.allocation.availableOnNodes.nodeSelectorTerms[0].matchFields[0].key"}},
		{name: "the allocation is immutable once set", op: opStatus, old: a2Allocated(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			c.Status.Allocation.Shareable = true
		}), want: []string{"Invalid status.allocation"}},
		{name: "the allocation may be removed", op: opStatus,
			old: a2Allocated(func(c *v1alpha2.ResourceClaim) { c.Status.ReservedFor = nil }),
			obj: a2Claim(func(c *v1alpha2.ResourceClaim) { c.Status.DriverName = "dra.example.com" })},
		{name: "reservedFor needs an allocation", op: opStatus, old: a2Claim(), obj: a2Claim(func(c *v1alpha2.ResourceClaim) {
			c.Status.ReservedFor = []v1alpha2.ResourceClaimConsumerReference{pod1a2}
		}), want: []string{"Forbidden status.reservedFor"}},
		{name: "unshareable claim", op: opStatus, old: a2Allocated(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			c.Status.ReservedFor = append(c.Status.ReservedFor, pod2a2)
		}), want: []string{"Forbidden status.reservedFor"}},
		{name: "reservedFor limits", op: opStatus, old: a2Claim(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			c.Status.Allocation.Shareable = true
			c.Status.ReservedFor = nil
			for i := 0; i < 33; i++ {
				c.Status.ReservedFor = append(c.Status.ReservedFor, v1alpha2.ResourceClaimConsumerReference{Resource: "pods", Name: "p", UID: types.UID(nodeName(i))})
			}
			c.Status.ReservedFor = append(c.Status.ReservedFor, v1alpha2.ResourceClaimConsumerReference{UID: "node-0"})
		}), want: []string{"TooLong status.reservedFor", "Duplicate status.reservedFor[33].uid"}},
		{name: "no new consumer while deleting", op: opStatus,
			old: a2Allocated(func(c *v1alpha2.ResourceClaim) { c.DeletionTimestamp = &deletedAt; c.Status.ReservedFor = nil }),
			obj: a2Allocated(), want: []string{"Forbidden status.reservedFor"}},
		{name: "deallocation while reserved", op: opStatus, old: a2Allocated(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			c.Status.DeallocationRequested = true
		}), want: []string{"Forbidden status.deallocationRequested"}},
		{name: "deallocation without allocation", op: opStatus, old: a2Claim(), obj: a2Claim(func(c *v1alpha2.ResourceClaim) {
			c.Status.DeallocationRequested = true
		}), want: []string{"Forbidden status"}},
		{name: "deallocation withdrawn", op: opStatus,
			old: a2Allocated(func(c *v1alpha2.ResourceClaim) { c.Status.ReservedFor = nil; c.Status.DeallocationRequested = true }),
			obj: a2Allocated(func(c *v1alpha2.ResourceClaim) { c.Status.ReservedFor = nil }), want: []string{"Forbidden status.deallocationRequested"}},
		{name: "1.30 keeps the stored labels in a status update", op: opStatus, old: a2Claim(), obj: a2Allocated(func(c *v1alpha2.ResourceClaim) {
			c.Labels = map[string]string{"-": "x"}
		})},
	})
}

func TestV1alpha2ResourceSlice(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "valid", obj: a2Slice()},
		{name: "no node", obj: a2Slice(func(s *v1alpha2.ResourceSlice) { s.NodeName = "" })},
		{name: "bad node", obj: a2Slice(func(s *v1alpha2.ResourceSlice) { s.NodeName = "Node-1" }), want: []string{"Invalid nodeName"}},
		{name: "driver", obj: a2Slice(func(s *v1alpha2.ResourceSlice) { s.DriverName = "dra example" }), want: []string{"Invalid driverName"}},
		{name: "no model: Required on the empty path", obj: a2Slice(func(s *v1alpha2.ResourceSlice) { s.NamedResources = nil }), want: []string{"Required <nil>"}},
		{name: "empty namedResources is accepted", obj: a2Slice(func(s *v1alpha2.ResourceSlice) { s.NamedResources = &v1alpha2.NamedResourcesResources{} })},
		{name: "instances", obj: a2Slice(func(s *v1alpha2.ResourceSlice) {
			s.NamedResources.Instances = append(s.NamedResources.Instances, v1alpha2.NamedResourcesInstance{Name: "gpu-1"}, v1alpha2.NamedResourcesInstance{Name: "GPU"})
		}), want: []string{"Duplicate namedResources.instances[2].name", "Invalid namedResources.instances[3].name"}},
		{name: "attributes", obj: a2Slice(func(s *v1alpha2.ResourceSlice) {
			s.NamedResources.Instances[1].Attributes = []v1alpha2.NamedResourcesAttribute{
				{Name: "a", NamedResourcesAttributeValue: v1alpha2.NamedResourcesAttributeValue{IntValue: ptr(int64(1))}},
				{Name: "a", NamedResourcesAttributeValue: v1alpha2.NamedResourcesAttributeValue{IntValue: ptr(int64(1))}},
				{Name: "Bad_Name", NamedResourcesAttributeValue: v1alpha2.NamedResourcesAttributeValue{IntValue: ptr(int64(1))}},
				{Name: "none"},
				{Name: "two", NamedResourcesAttributeValue: v1alpha2.NamedResourcesAttributeValue{IntValue: ptr(int64(1)), StringValue: ptr("x")}},
				{Name: "version", NamedResourcesAttributeValue: v1alpha2.NamedResourcesAttributeValue{VersionValue: ptr("1.02.3")}},
			}
		}), want: []string{
			"Duplicate namedResources.instances[1].attributes[1].name",
			"Invalid namedResources.instances[1].attributes[2].name",
			"Required namedResources.instances[1].attributes[3]",
			"Invalid namedResources.instances[1].attributes[4]",
			"Invalid namedResources.instances[1].attributes[5].version",
		}},
		{name: "update: node and driver are immutable", op: opUpdate, old: a2Slice(), obj: a2Slice(func(s *v1alpha2.ResourceSlice) {
			s.NodeName = "node-2"
			s.DriverName = "other.example.com"
		}), want: []string{"Invalid nodeName", "Invalid driverName"}},
		{name: "update: instances may change", op: opUpdate, old: a2Slice(), obj: a2Slice(func(s *v1alpha2.ResourceSlice) {
			s.NamedResources.Instances = s.NamedResources.Instances[:1]
		})},
	})
}

func TestV1alpha2Parameters(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "claim parameters", obj: a2ClaimParams()},
		{name: "claim parameters: minimal", obj: a2ClaimParams(func(p *v1alpha2.ResourceClaimParameters) { p.GeneratedFrom = nil; p.DriverRequests = nil })},
		{name: "claim parameters: generatedFrom", obj: a2ClaimParams(func(p *v1alpha2.ResourceClaimParameters) {
			p.GeneratedFrom = &v1alpha2.ResourceClaimParametersReference{}
		}), want: []string{"Required generatedFrom.kind", "Required generatedFrom.name"}},
		{name: "claim parameters: driver requests", obj: a2ClaimParams(func(p *v1alpha2.ResourceClaimParameters) {
			p.DriverRequests = append(p.DriverRequests, p.DriverRequests[0], v1alpha2.DriverRequests{DriverName: "Other_Driver"})
			p.DriverRequests[0].Requests = append(p.DriverRequests[0].Requests,
				v1alpha2.ResourceRequest{},
				v1alpha2.ResourceRequest{ResourceRequestModel: v1alpha2.ResourceRequestModel{NamedResources: &v1alpha2.NamedResourcesRequest{}}})
		}), want: []string{
			"Required driverRequests[0].requests[1]",
			"Required driverRequests[0].requests[2].namedResources.selector",
			"Duplicate driverRequests[1].driverName",
			"Invalid driverRequests[2].driverName",
			"Required driverRequests[2].requests",
		}},
		{name: "class parameters", obj: a2ClassParams()},
		{name: "class parameters: generatedFrom", obj: a2ClassParams(func(p *v1alpha2.ResourceClassParameters) {
			p.GeneratedFrom = &v1alpha2.ResourceClassParametersReference{Kind: "K", Name: "n", Namespace: "-ns"}
		}), want: []string{"Invalid generatedFrom.namespace"}},
		{name: "class parameters: filters and vendor parameters", obj: a2ClassParams(func(p *v1alpha2.ResourceClassParameters) {
			p.Filters = append(p.Filters, v1alpha2.ResourceFilter{DriverName: "dra.example.com"},
				v1alpha2.ResourceFilter{DriverName: "b.example.com", ResourceFilterModel: v1alpha2.ResourceFilterModel{NamedResources: &v1alpha2.NamedResourcesFilter{}}})
			p.VendorParameters = append(p.VendorParameters, v1alpha2.VendorParameters{DriverName: "dra.example.com"}, v1alpha2.VendorParameters{})
		}), want: []string{
			"Duplicate filters[1].driverName",
			"Required filters[1]",
			"Required filters[2].namedResources.selector",
			"Duplicate vendorParameters[1].driverName",
			"Required vendorParameters[2].driverName",
			"Invalid vendorParameters[2].driverName",
		}},
		{name: "class parameters update", op: opUpdate, old: a2ClassParams(), obj: a2ClassParams(func(p *v1alpha2.ResourceClassParameters) {
			p.VendorParameters = nil
		})},
		{name: "claim parameters update", op: opUpdate, old: a2ClaimParams(), obj: a2ClaimParams(func(p *v1alpha2.ResourceClaimParameters) {
			p.Shareable = false
		})},
	})
}
