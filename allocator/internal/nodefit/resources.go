package nodefit

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	resourcehelper "k8s.io/component-helpers/resource"
)

// The scheduler's NodeResourcesFit filter (noderesources/fit.go in
// k8s.io/kubernetes v1.37.2) runs after NodeAffinity (and NodePorts) and
// before DynamicResources. It compares what a pod requests, computed by
// component-helpers' PodRequests (init containers and sidecars as the
// kubelet runs them, overhead, pod-level resources), with the node's
// status.allocatable minus what the pods bound to the node request, and
// counts the pods against allocatable pods. It keeps every reason
// ("Too many pods", "Insufficient cpu", "Insufficient memory",
// "Insufficient ephemeral-storage", "Insufficient <name>" for scalar
// resources); the scheduler's message counts each of them.

// Reasons of NodeResourcesFit, in the scheduler's words.
const (
	SchedulerTooManyPods = "Too many pods"
	insufficientPrefix   = "Insufficient "
)

// Requests is what a pod asks of a node's allocatable resources, in the
// units the scheduler compares (millicores, bytes, counts).
type Requests struct {
	MilliCPU, Memory, EphemeralStorage int64
	// Scalar are the extended resources, hugepages and the other scalar
	// resources (schedutil.IsScalarResourceName), without zeros.
	Scalar map[corev1.ResourceName]int64
}

// IsZero reports whether the pod asks for nothing but a pod slot.
func (r *Requests) IsZero() bool {
	return r.MilliCPU == 0 && r.Memory == 0 && r.EphemeralStorage == 0 && len(r.Scalar) == 0
}

// PodRequests is what the pod asks of a node, as the scheduler computes
// it for a pending pod (its PreFilter) or, with bound, for a pod the node
// already runs (PodInfo.CalculateResource: the larger of the spec's and
// the status' resources, InPlacePodVerticalScaling being GA). Pod-level
// resources count (PodLevelResources, on by default in 1.37).
func PodRequests(pod *corev1.Pod, bound bool) Requests {
	list := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{UseStatusResources: bound})
	var r Requests
	for name, q := range list {
		switch name {
		case corev1.ResourceCPU:
			r.MilliCPU += q.MilliValue()
		case corev1.ResourceMemory:
			r.Memory += q.Value()
		case corev1.ResourceEphemeralStorage:
			r.EphemeralStorage += q.Value()
		case corev1.ResourcePods:
		default:
			if v := q.Value(); v != 0 && isScalarResourceName(name) {
				if r.Scalar == nil {
					r.Scalar = map[corev1.ResourceName]int64{}
				}
				r.Scalar[name] += v
			}
		}
	}
	return r
}

// isScalarResourceName is the scheduler's schedutil.IsScalarResourceName:
// extended resources, hugepages, names with the kubernetes.io/ prefix and
// attachable volumes.
func isScalarResourceName(name corev1.ResourceName) bool {
	s := string(name)
	prefixedNative := strings.Contains(s, corev1.ResourceDefaultNamespacePrefix)
	return isExtended(s, prefixedNative) || strings.HasPrefix(s, corev1.ResourceHugePagesPrefix) ||
		prefixedNative || strings.HasPrefix(s, corev1.ResourceAttachableVolumesPrefix)
}

// isExtended is v1helper.IsExtendedResourceName.
func isExtended(s string, prefixedNative bool) bool {
	if !strings.Contains(s, "/") || prefixedNative || strings.HasPrefix(s, corev1.DefaultResourceRequestsPrefix) {
		return false
	}
	return len(validation.IsQualifiedName(corev1.DefaultResourceRequestsPrefix+s)) == 0
}

// Resources is what NodeResourcesFit knows of one node: its allocatable
// resources and what the pods on it request.
type Resources struct {
	// Checked is set for a node whose status.allocatable lists pods, as
	// the kubelet always reports it; a node without (a Node written by
	// hand, with labels and maybe a device plugin's resource) is not
	// checked, since the scheduler would run no pod there at all
	// (allocatable pods 0).
	Checked     bool
	Allocatable Requests
	AllowedPods int64
	Requested   Requests
	Pods        int64
}

// NewResources reads the node's status.allocatable.
func NewResources(node *corev1.Node) *Resources {
	_, pods := node.Status.Allocatable[corev1.ResourcePods]
	r := &Resources{Checked: pods}
	for name, q := range node.Status.Allocatable {
		switch name {
		case corev1.ResourceCPU:
			r.Allocatable.MilliCPU = q.MilliValue()
		case corev1.ResourceMemory:
			r.Allocatable.Memory = q.Value()
		case corev1.ResourceEphemeralStorage:
			r.Allocatable.EphemeralStorage = q.Value()
		case corev1.ResourcePods:
			r.AllowedPods = q.Value()
		default:
			if isScalarResourceName(name) {
				if r.Allocatable.Scalar == nil {
					r.Allocatable.Scalar = map[corev1.ResourceName]int64{}
				}
				r.Allocatable.Scalar[name] = q.Value()
			}
		}
	}
	return r
}

// Add counts a pod that runs on the node.
func (n *Resources) Add(req Requests) {
	n.Pods++
	n.Requested.MilliCPU += req.MilliCPU
	n.Requested.Memory += req.Memory
	n.Requested.EphemeralStorage += req.EphemeralStorage
	for name, v := range req.Scalar {
		if n.Requested.Scalar == nil {
			n.Requested.Scalar = map[corev1.ResourceName]int64{}
		}
		n.Requested.Scalar[name] += v
	}
}

// Fit is NodeResourcesFit's Filter for a pod that asks for req: nil when
// the node has room, else the scheduler's reasons, in its order (pods,
// cpu, memory, ephemeral-storage, then scalar resources by name; the
// scheduler visits those in map order, which its message, sorting the
// reasons, does not show). delegated says whether a scalar resource the
// node does not list is left to the DRA filter (a DeviceClass serves
// it: DRAExtendedResource). unresolvable is set when some request exceeds
// the node's whole allocatable amount, which preemption cannot help.
func (n *Resources) Fit(req *Requests, delegated func(corev1.ResourceName) bool) (reasons []string, unresolvable bool) {
	if !n.Checked {
		return nil, false
	}
	if n.Pods+1 > n.AllowedPods {
		reasons = append(reasons, SchedulerTooManyPods)
	}
	if req.IsZero() {
		return reasons, false
	}
	check := func(name string, want, alloc, used int64) {
		if want > 0 && want > alloc-used {
			reasons = append(reasons, insufficientPrefix+name)
			if want > alloc {
				unresolvable = true
			}
		}
	}
	check(string(corev1.ResourceCPU), req.MilliCPU, n.Allocatable.MilliCPU, n.Requested.MilliCPU)
	check(string(corev1.ResourceMemory), req.Memory, n.Allocatable.Memory, n.Requested.Memory)
	check(string(corev1.ResourceEphemeralStorage), req.EphemeralStorage, n.Allocatable.EphemeralStorage, n.Requested.EphemeralStorage)
	if len(req.Scalar) > 0 {
		names := make([]string, 0, len(req.Scalar))
		for name := range req.Scalar {
			names = append(names, string(name))
		}
		slices.Sort(names)
		for _, s := range names {
			name := corev1.ResourceName(s)
			alloc := n.Allocatable.Scalar[name]
			if alloc <= 0 && delegated != nil && delegated(name) {
				continue
			}
			check(s, req.Scalar[name], alloc, n.Requested.Scalar[name])
		}
	}
	return reasons, unresolvable
}

// Summary is the reasons in drakit's words: "insufficient cpu, memory",
// "too many pods".
func Summary(reasons []string) string {
	var parts []string
	pods := false
	for _, r := range reasons {
		if r == SchedulerTooManyPods {
			pods = true
			continue
		}
		parts = append(parts, strings.TrimPrefix(r, insufficientPrefix))
	}
	s := ""
	if pods {
		s = "too many pods"
	}
	if len(parts) > 0 {
		if s != "" {
			s += ", "
		}
		s += "insufficient " + strings.Join(parts, ", ")
	}
	return s
}
