package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/apis/resource/v1alpha1"
)

func a1Claim(muts ...func(*v1alpha1.ResourceClaim)) *v1alpha1.ResourceClaim {
	c := &v1alpha1.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "claim", Namespace: "ns", ResourceVersion: "7", UID: "u-1"},
		Spec:       v1alpha1.ResourceClaimSpec{ResourceClassName: "example-class"},
	}
	for _, m := range muts {
		m(c)
	}
	return c
}

// a1Allocated is a claim allocated by dra.example.com and reserved for pod-1.
func a1Allocated(muts ...func(*v1alpha1.ResourceClaim)) *v1alpha1.ResourceClaim {
	return a1Claim(append([]func(*v1alpha1.ResourceClaim){func(c *v1alpha1.ResourceClaim) {
		c.Status = v1alpha1.ResourceClaimStatus{
			DriverName:  "dra.example.com",
			Allocation:  &v1alpha1.AllocationResult{ResourceHandle: "handle"},
			ReservedFor: []v1alpha1.ResourceClaimConsumerReference{pod1a1},
		}
	}}, muts...)...)
}

var (
	pod1a1 = v1alpha1.ResourceClaimConsumerReference{Resource: "pods", Name: "pod-1", UID: "uid-1"}
	pod2a1 = v1alpha1.ResourceClaimConsumerReference{Resource: "pods", Name: "pod-2", UID: "uid-2"}
)

func a1Consumers(n int) []v1alpha1.ResourceClaimConsumerReference {
	out := make([]v1alpha1.ResourceClaimConsumerReference, n)
	for i := range out {
		out[i] = v1alpha1.ResourceClaimConsumerReference{Resource: "pods", Name: nodeName(i), UID: types.UID(nodeName(i))}
	}
	return out
}

func a1Class(muts ...func(*v1alpha1.ResourceClass)) *v1alpha1.ResourceClass {
	c := &v1alpha1.ResourceClass{
		ObjectMeta: metav1.ObjectMeta{Name: "example-class", ResourceVersion: "3"},
		DriverName: "dra.example.com",
	}
	for _, m := range muts {
		m(c)
	}
	return c
}

func a1Template(muts ...func(*v1alpha1.ResourceClaimTemplate)) *v1alpha1.ResourceClaimTemplate {
	t := &v1alpha1.ResourceClaimTemplate{
		ObjectMeta: metav1.ObjectMeta{Name: "template", Namespace: "ns", ResourceVersion: "3"},
		Spec: v1alpha1.ResourceClaimTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "demo"}},
			Spec:       v1alpha1.ResourceClaimSpec{ResourceClassName: "example-class"},
		},
	}
	for _, m := range muts {
		m(t)
	}
	return t
}

func a1Scheduling(muts ...func(*v1alpha1.PodScheduling)) *v1alpha1.PodScheduling {
	s := &v1alpha1.PodScheduling{
		ObjectMeta: metav1.ObjectMeta{Name: "pod-1", Namespace: "ns", ResourceVersion: "3"},
		Spec:       v1alpha1.PodSchedulingSpec{SelectedNode: "node-1", PotentialNodes: []string{"node-1", "node-2"}},
	}
	for _, m := range muts {
		m(s)
	}
	return s
}

func TestV1alpha1ResourceClaim(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "minimal claim, allocationMode defaulted", obj: a1Claim()},
		{name: "all fields", obj: a1Claim(func(c *v1alpha1.ResourceClaim) {
			c.Spec.AllocationMode = v1alpha1.AllocationModeImmediate
			c.Spec.ParametersRef = &v1alpha1.ResourceClaimParametersReference{APIGroup: "example.com", Kind: "Params", Name: "p"}
		})},
		{name: "no namespace: the request's", obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Namespace = "" })},
		{name: "bad name", obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Name = "Claim_1" }), want: []string{"Invalid metadata.name"}},
		{name: "no name", obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Name = "" }), want: []string{"Required metadata.name"}},
		{name: "generateName", obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Name, c.GenerateName = "", "claim-" })},
		{name: "bad generateName", obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Name, c.GenerateName = "", "Claim-" }),
			want: []string{"Invalid metadata.generateName", "Invalid metadata.name"}},
		{name: "status is dropped on create", obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Status.DriverName = "-bad-"; c.Status.DeallocationRequested = true })},
		{name: "64-character class name is a subdomain", obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Spec.ResourceClassName = strings.Repeat("a", 64) })},
		{name: "empty class name is Invalid", obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Spec.ResourceClassName = "" }), want: []string{"Invalid spec.resourceClassName"}},
		{name: "bad class name", obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Spec.ResourceClassName = "Example" }), want: []string{"Invalid spec.resourceClassName"}},
		{name: "254-character class name", obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Spec.ResourceClassName = strings.Repeat("a", 254) }), want: []string{"Invalid spec.resourceClassName"}},
		{name: "parametersRef without kind and name", obj: a1Claim(func(c *v1alpha1.ResourceClaim) {
			c.Spec.ParametersRef = &v1alpha1.ResourceClaimParametersReference{APIGroup: "example.com"}
		}), want: []string{"Required spec.parametersRef.kind", "Required spec.parametersRef.name"}},
		{name: "unknown allocationMode", obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Spec.AllocationMode = "Sometimes" }), want: []string{"NotSupported spec.allocationMode"}},

		{name: "update: labels may change", op: opUpdate, old: a1Claim(),
			obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Labels = map[string]string{"a": "b"} })},
		{name: "update: spec is immutable", op: opUpdate, old: a1Claim(),
			obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Spec.ResourceClassName = "other" }), want: []string{"Invalid spec"}},
		{name: "update: defaulting is not a change", op: opUpdate,
			old: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Spec.AllocationMode = v1alpha1.AllocationModeWaitForFirstConsumer }),
			obj: a1Claim()},
		{name: "update: name is immutable", op: opUpdate, old: a1Claim(),
			obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Name = "other" }), want: []string{"Invalid metadata.name"}},
		{name: "update: status changes are ignored", op: opUpdate, old: a1Claim(),
			obj: a1Claim(func(c *v1alpha1.ResourceClaim) {
				c.Status.ReservedFor = []v1alpha1.ResourceClaimConsumerReference{pod1a1}
			})},
		{name: "update: missing resourceVersion comes from the stored object", op: opUpdate, old: a1Claim(),
			obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.ResourceVersion = "" })},
	})
}

// TestV1alpha1ResourceClaimStatus checks the 1.26 status rules of a claim.
// It is a table of cases, longer than 80 lines for that reason: each
// case reads on its own.
func TestV1alpha1ResourceClaimStatus(t *testing.T) {
	deleting := func(c *v1alpha1.ResourceClaim) { c.DeletionTimestamp = &deletedAt }
	runCases(t, []ruleCase{
		{name: "allocate and reserve", op: opStatus, old: a1Claim(), obj: a1Allocated()},
		{name: "spec changes are ignored", op: opStatus, old: a1Claim(),
			obj: a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Spec.ResourceClassName = "Bad" })},
		{name: "1.26 validates label changes in a status update", op: opStatus, old: a1Claim(),
			obj: a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Labels = map[string]string{"-": "x"} }), want: []string{"Invalid metadata.labels"}},
		{name: "allocation needs driverName", op: opStatus, old: a1Claim(),
			obj: a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.DriverName = "" }), want: []string{"Required status.driverName"}},
		{name: "driverName alone", op: opStatus, old: a1Claim(),
			obj: a1Claim(func(c *v1alpha1.ResourceClaim) { c.Status.DriverName = "dra.example.com" })},
		{name: "bad driverName", op: opStatus, old: a1Claim(),
			obj: a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.DriverName = "-dra" }), want: []string{"Invalid status.driverName"}},
		{name: "63-byte driverName", op: opStatus, old: a1Claim(),
			obj: a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.DriverName = strings.Repeat("d", 63) })},
		{name: "64-byte driverName", op: opStatus, old: a1Claim(),
			obj: a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.DriverName = strings.Repeat("d", 64) }), want: []string{"TooLong status.driverName"}},
		{name: "upper-case driverName is accepted", op: opStatus, old: a1Claim(),
			obj: a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.DriverName = "DRA.example.com" })},
		{name: "resourceHandle of 16384 bytes", op: opStatus, old: a1Claim(),
			obj: a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.Allocation.ResourceHandle = strings.Repeat("x", 16384) })},
		{name: "resourceHandle of 16385 bytes", op: opStatus, old: a1Claim(),
			obj:  a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.Allocation.ResourceHandle = strings.Repeat("x", 16385) }),
			want: []string{"TooLong status.allocation.resourceHandle"}},
		{name: "resourceHandle length counts bytes", op: opStatus, old: a1Claim(),
			obj: a1Allocated(func(c *v1alpha1.ResourceClaim) {
				c.Status.Allocation.ResourceHandle = strings.Repeat("x", 16383) + "é"
			}),
			want: []string{"TooLong status.allocation.resourceHandle"}},
		{name: "availableOnNodes", op: opStatus, old: a1Claim(), obj: a1Allocated(func(c *v1alpha1.ResourceClaim) {
			c.Status.Allocation.AvailableOnNodes = nodeSelectorFor("node-1")
		})},
		{name: "availableOnNodes without terms", op: opStatus, old: a1Claim(), obj: a1Allocated(func(c *v1alpha1.ResourceClaim) {
			c.Status.Allocation.AvailableOnNodes = &corev1.NodeSelector{}
		}), want: []string{"Required status.allocation.availableOnNodes.nodeSelectorTerms"}},
		{name: "reservedFor entry without fields", op: opStatus, old: a1Claim(), obj: a1Allocated(func(c *v1alpha1.ResourceClaim) {
			c.Status.ReservedFor = []v1alpha1.ResourceClaimConsumerReference{{}}
		}), want: []string{"Required status.reservedFor[0].name", "Required status.reservedFor[0].resource", "Required status.reservedFor[0].uid"}},
		{name: "reservedFor duplicate uid", op: opStatus, old: a1Claim(), obj: a1Allocated(func(c *v1alpha1.ResourceClaim) {
			c.Status.Allocation.Shareable = true
			c.Status.ReservedFor = []v1alpha1.ResourceClaimConsumerReference{pod1a1, {Resource: "pods", Name: "other", UID: pod1a1.UID}}
		}), want: []string{"Duplicate status.reservedFor[1].uid"}},
		{name: "32 consumers of a shareable claim", op: opStatus, old: a1Claim(), obj: a1Allocated(func(c *v1alpha1.ResourceClaim) {
			c.Status.Allocation.Shareable = true
			c.Status.ReservedFor = a1Consumers(32)
		})},
		{name: "33 consumers", op: opStatus, old: a1Claim(), obj: a1Allocated(func(c *v1alpha1.ResourceClaim) {
			c.Status.Allocation.Shareable = true
			c.Status.ReservedFor = a1Consumers(33)
		}), want: []string{"TooLong status.reservedFor"}},
		{name: "reservedFor needs an allocation", op: opStatus, old: a1Claim(), obj: a1Claim(func(c *v1alpha1.ResourceClaim) {
			c.Status.ReservedFor = []v1alpha1.ResourceClaimConsumerReference{pod1a1}
		}), want: []string{"Forbidden status.reservedFor"}},
		{name: "an unshareable claim has one consumer", op: opStatus, old: a1Allocated(), obj: a1Allocated(func(c *v1alpha1.ResourceClaim) {
			c.Status.ReservedFor = append(c.Status.ReservedFor, pod2a1)
		}), want: []string{"Forbidden status.reservedFor"}},
		{name: "a shareable claim has several", op: opStatus, old: a1Allocated(), obj: a1Allocated(func(c *v1alpha1.ResourceClaim) {
			c.Status.Allocation.Shareable = true
			c.Status.ReservedFor = append(c.Status.ReservedFor, pod2a1)
		})},
		{name: "1.26: the allocation may change", op: opStatus, old: a1Allocated(), obj: a1Allocated(func(c *v1alpha1.ResourceClaim) {
			c.Status.Allocation.ResourceHandle = "other"
		})},
		{name: "no new consumer while deleting", op: opStatus,
			old: a1Allocated(deleting, func(c *v1alpha1.ResourceClaim) { c.Status.Allocation.Shareable = true }),
			obj: a1Allocated(func(c *v1alpha1.ResourceClaim) {
				c.Status.Allocation.Shareable = true
				c.Status.ReservedFor = append(c.Status.ReservedFor, pod2a1)
			}), want: []string{"Forbidden status.reservedFor"}},
		{name: "consumers may leave while deleting", op: opStatus,
			old: a1Allocated(deleting, func(c *v1alpha1.ResourceClaim) {
				c.Status.Allocation.Shareable = true
				c.Status.ReservedFor = append(c.Status.ReservedFor, pod2a1)
			}),
			obj: a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.Allocation.Shareable = true })},
		{name: "no new consumer while deallocating", op: opStatus,
			old:  a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.ReservedFor = nil; c.Status.DeallocationRequested = true }),
			obj:  a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.DeallocationRequested = true }),
			want: []string{"Forbidden status.reservedFor"}},
		{name: "request deallocation", op: opStatus,
			old: a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.ReservedFor = nil }),
			obj: a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.ReservedFor = nil; c.Status.DeallocationRequested = true })},
		{name: "no deallocation while reserved", op: opStatus, old: a1Allocated(),
			obj:  a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.DeallocationRequested = true }),
			want: []string{"Forbidden status.deallocationRequested"}},
		{name: "deallocation needs an allocation", op: opStatus, old: a1Claim(),
			obj:  a1Claim(func(c *v1alpha1.ResourceClaim) { c.Status.DeallocationRequested = true }),
			want: []string{"Forbidden status"}},
		{name: "deallocation request cannot be withdrawn", op: opStatus,
			old:  a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.ReservedFor = nil; c.Status.DeallocationRequested = true }),
			obj:  a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.ReservedFor = nil }),
			want: []string{"Forbidden status.deallocationRequested"}},
		{name: "deallocation completes with the allocation", op: opStatus,
			old: a1Allocated(func(c *v1alpha1.ResourceClaim) { c.Status.ReservedFor = nil; c.Status.DeallocationRequested = true }),
			obj: a1Claim()},
	})
}

func TestV1alpha1ResourceClaimTemplate(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "valid", obj: a1Template()},
		{name: "annotations in the template", obj: a1Template(func(tp *v1alpha1.ResourceClaimTemplate) {
			tp.Spec.Annotations = map[string]string{"example.com/x": "y"}
		})},
		{name: "name in the template", obj: a1Template(func(tp *v1alpha1.ResourceClaimTemplate) { tp.Spec.Name = "x" }),
			want: []string{"Forbidden spec.metadata.name"}},
		{name: "uid and finalizers in the template", obj: a1Template(func(tp *v1alpha1.ResourceClaimTemplate) {
			tp.Spec.UID = "x"
			tp.Spec.Finalizers = []string{}
		}), want: []string{"Forbidden spec.metadata.uID", "Forbidden spec.metadata.finalizers"}},
		{name: "bad label in the template", obj: a1Template(func(tp *v1alpha1.ResourceClaimTemplate) {
			tp.Spec.Labels = map[string]string{"a": "-"}
		}), want: []string{"Invalid spec.metadata.labels"}},
		{name: "claim spec rules", obj: a1Template(func(tp *v1alpha1.ResourceClaimTemplate) {
			tp.Spec.Spec.ResourceClassName = ""
			tp.Spec.Spec.AllocationMode = "Later"
			tp.Spec.Spec.ParametersRef = &v1alpha1.ResourceClaimParametersReference{}
		}), want: []string{"Invalid spec.spec.resourceClassName", "NotSupported spec.spec.allocationMode",
			"Required spec.spec.parametersRef.kind", "Required spec.spec.parametersRef.name"}},
		{name: "update: spec is immutable", op: opUpdate, old: a1Template(),
			obj: a1Template(func(tp *v1alpha1.ResourceClaimTemplate) { tp.Spec.Labels = nil }), want: []string{"Invalid spec"}},
		{name: "update: metadata may change", op: opUpdate, old: a1Template(),
			obj: a1Template(func(tp *v1alpha1.ResourceClaimTemplate) { tp.Annotations = map[string]string{"a": "b"} })},
	})
}

func TestV1alpha1ResourceClass(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "valid", obj: a1Class(func(c *v1alpha1.ResourceClass) {
			c.ParametersRef = &v1alpha1.ResourceClassParametersReference{Kind: "ConfigMap", Name: "cm", Namespace: "kube-system"}
			c.SuitableNodes = nodeSelectorFor("node-1")
		})},
		{name: "a namespace is dropped", obj: a1Class(func(c *v1alpha1.ResourceClass) { c.Namespace = "ns" })},
		{name: "empty driverName", obj: a1Class(func(c *v1alpha1.ResourceClass) { c.DriverName = "" }),
			want: []string{"Required driverName", "Invalid driverName"}},
		{name: "upper-case driverName is accepted", obj: a1Class(func(c *v1alpha1.ResourceClass) { c.DriverName = "DRA.Example.COM" })},
		{name: "bad driverName", obj: a1Class(func(c *v1alpha1.ResourceClass) { c.DriverName = "dra_example" }), want: []string{"Invalid driverName"}},
		{name: "driverName over 63 bytes", obj: a1Class(func(c *v1alpha1.ResourceClass) { c.DriverName = strings.Repeat("a", 64) }),
			want: []string{"TooLong driverName"}},
		{name: "parametersRef without kind and name", obj: a1Class(func(c *v1alpha1.ResourceClass) {
			c.ParametersRef = &v1alpha1.ResourceClassParametersReference{}
		}), want: []string{"Required parametersRef.kind", "Required parametersRef.name"}},
		{name: "parametersRef with a bad namespace", obj: a1Class(func(c *v1alpha1.ResourceClass) {
			c.ParametersRef = &v1alpha1.ResourceClassParametersReference{Kind: "ConfigMap", Name: "cm", Namespace: "a.b"}
		}), want: []string{"Invalid parametersRef.namespace"}},
		{name: "suitableNodes without terms", obj: a1Class(func(c *v1alpha1.ResourceClass) { c.SuitableNodes = &corev1.NodeSelector{} }),
			want: []string{"Required suitableNodes.nodeSelectorTerms"}},
		{name: "bad name", obj: a1Class(func(c *v1alpha1.ResourceClass) { c.Name = "-class" }), want: []string{"Invalid metadata.name"}},
		{name: "update: everything may change", op: opUpdate, old: a1Class(), obj: a1Class(func(c *v1alpha1.ResourceClass) {
			c.DriverName = "other.example.com"
			c.SuitableNodes = nodeSelectorFor("node-2")
		})},
		{name: "update: still validated", op: opUpdate, old: a1Class(), obj: a1Class(func(c *v1alpha1.ResourceClass) { c.DriverName = "" }),
			want: []string{"Required driverName", "Invalid driverName"}},
	})
}

func TestV1alpha1PodScheduling(t *testing.T) {
	withClaims := func(s *v1alpha1.PodScheduling) {
		s.Status.ResourceClaims = []v1alpha1.ResourceClaimSchedulingStatus{{Name: "gpu", UnsuitableNodes: []string{"node-2"}}}
	}
	runCases(t, []ruleCase{
		{name: "valid", obj: a1Scheduling()},
		{name: "128 potential nodes", obj: a1Scheduling(func(s *v1alpha1.PodScheduling) { s.Spec.PotentialNodes = repeat(128, nodeName) })},
		{name: "129 potential nodes", obj: a1Scheduling(func(s *v1alpha1.PodScheduling) { s.Spec.PotentialNodes = repeat(129, nodeName) }),
			want: []string{"TooLong spec.potentialNodes"}},
		{name: "duplicate potential node", obj: a1Scheduling(func(s *v1alpha1.PodScheduling) { s.Spec.PotentialNodes = []string{"n", "n"} }),
			want: []string{"Duplicate spec.potentialNodes[1]"}},
		{name: "a repeated bad node is reported once", obj: a1Scheduling(func(s *v1alpha1.PodScheduling) { s.Spec.PotentialNodes = []string{"N", "N"} }),
			want: []string{"Invalid spec.potentialNodes[0]", "Duplicate spec.potentialNodes[1]"}},
		{name: "selectedNode is not validated", obj: a1Scheduling(func(s *v1alpha1.PodScheduling) { s.Spec.SelectedNode = "Not A Node" })},
		{name: "status is dropped on create", obj: a1Scheduling(func(s *v1alpha1.PodScheduling) {
			s.Status.ResourceClaims = []v1alpha1.ResourceClaimSchedulingStatus{{Name: "a"}, {Name: "a"}}
		})},
		{name: "update: spec may change", op: opUpdate, old: a1Scheduling(), obj: a1Scheduling(func(s *v1alpha1.PodScheduling) {
			s.Spec.SelectedNode = "node-2"
		})},
		{name: "update: still validated", op: opUpdate, old: a1Scheduling(), obj: a1Scheduling(func(s *v1alpha1.PodScheduling) {
			s.Spec.PotentialNodes = []string{"Node"}
		}), want: []string{"Invalid spec.potentialNodes[0]"}},
		{name: "status: valid", op: opStatus, old: a1Scheduling(), obj: a1Scheduling(withClaims)},
		{name: "status: spec changes are ignored", op: opStatus, old: a1Scheduling(), obj: a1Scheduling(withClaims, func(s *v1alpha1.PodScheduling) {
			s.Spec.PotentialNodes = []string{"Bad"}
		})},
		{name: "status: duplicate claim (reported on status.claims)", op: opStatus, old: a1Scheduling(), obj: a1Scheduling(func(s *v1alpha1.PodScheduling) {
			s.Status.ResourceClaims = []v1alpha1.ResourceClaimSchedulingStatus{{Name: "gpu"}, {Name: "gpu"}}
		}), want: []string{"Duplicate status.claims[1]"}},
		{name: "status: unsuitable nodes", op: opStatus, old: a1Scheduling(), obj: a1Scheduling(func(s *v1alpha1.PodScheduling) {
			s.Status.ResourceClaims = []v1alpha1.ResourceClaimSchedulingStatus{
				{Name: "a", UnsuitableNodes: []string{"node_1", "node-2", "node-2"}},
				{Name: "b", UnsuitableNodes: repeat(129, nodeName)},
			}
		}), want: []string{"Invalid status.claims[0].unsuitableNodes[0]", "Duplicate status.claims[0].unsuitableNodes[2]",
			"TooLong status.claims[1].unsuitableNodes"}},
	})
}

func nodeSelectorFor(node string) *corev1.NodeSelector {
	return &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
		MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{node}}},
	}}}
}
