package podclaims

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/drakit/drakit/apis/resource"
)

// Classes maps extended resource names to the DeviceClasses that serve
// them, as the scheduler's extended resource cache does: a class's
// spec.extendedResourceName and its implicit
// deviceclass.resource.kubernetes.io/<class>; when two classes name the
// same resource, the newer one wins, and of two equally old ones the one
// with the lower name.
type Classes map[corev1.ResourceName]*resource.DeviceClass

// NewClasses indexes the classes.
func NewClasses(classes []*resource.DeviceClass) Classes {
	m := Classes{}
	for _, c := range classes {
		if name := c.Spec.ExtendedResourceName; name != nil {
			rn := corev1.ResourceName(*name)
			if old := m[rn]; old == nil || newer(c, old) {
				m[rn] = c
			}
		}
		m[corev1.ResourceName(DeviceClassPrefix+c.Name)] = c
	}
	return m
}

func newer(c, old *resource.DeviceClass) bool {
	switch c.CreationTimestamp.Time.Compare(old.CreationTimestamp.Time) {
	case 1:
		return true
	case 0:
		return c.Name < old.Name
	}
	return false
}

// isExtendedResourceName is the scheduler's IsDRAExtendedResourceName:
// an extended resource name (with a domain, not kubernetes.io's, usable
// as a quota name) or an implicit DeviceClass name.
func isExtendedResourceName(name corev1.ResourceName) bool {
	s := string(name)
	if strings.HasPrefix(s, DeviceClassPrefix) {
		return true
	}
	if !strings.Contains(s, "/") || strings.Contains(s, "kubernetes.io/") || strings.HasPrefix(s, corev1.DefaultResourceRequestsPrefix) {
		return false
	}
	return len(validation.IsQualifiedName(corev1.DefaultResourceRequestsPrefix+s)) == 0
}

// Extended is what a pod asks of extended resources that DeviceClasses
// serve: the pod's effective requests (init containers and sidecars
// counted as the scheduler counts them), by resource name.
type Extended struct {
	pod      *corev1.Pod
	classes  Classes
	requests map[corev1.ResourceName]int64
	names    []corev1.ResourceName // sorted
}

// ExtendedOf returns what the pod asks of extended resources, nil when it
// asks for none that a class serves (then the scheduler makes no claim).
func ExtendedOf(pod *corev1.Pod, classes Classes) *Extended {
	reqs := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})
	backed := false
	e := &Extended{pod: pod, classes: classes, requests: map[corev1.ResourceName]int64{}}
	for name, q := range reqs {
		if q.IsZero() || !isExtendedResourceName(name) {
			continue
		}
		if classes[name] != nil {
			backed = true
		}
		e.requests[name] = q.Value()
		e.names = append(e.names, name)
	}
	if !backed {
		return nil
	}
	slices.Sort(e.names)
	return e
}

// ForNode says which of the resources the node must provide through DRA:
// those a class serves and the node does not list in
// status.allocatable (a device plugin serves the others). unfit names a
// resource that neither the node nor a class provides.
func (e *Extended) ForNode(node *corev1.Node) (viaDRA []corev1.ResourceName, unfit corev1.ResourceName) {
	for _, name := range e.names {
		q, listed := node.Status.Allocatable[name]
		switch {
		case e.classes[name] != nil && q.IsZero():
			viaDRA = append(viaDRA, name)
		case !listed:
			return nil, name
		}
	}
	return viaDRA, ""
}

// Claim makes the claim the scheduler makes for the pod on a node that
// provides the resources viaDRA through DRA: one ExactCount request per
// container and resource (init containers that are not sidecars reuse
// the requests of the containers that run after them, and share the
// largest of theirs), named container-<index>-request-<index of the
// resource among the container's sorted requests>, sorted by name; and
// the container-to-request mappings for the pod's status.
func (e *Extended) Claim(name string, viaDRA []corev1.ResourceName) (*resource.ResourceClaim, []corev1.ContainerExtendedResourceRequest) {
	pod := e.pod
	isTrue := true
	claim := &resource.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{
			Name:         name,
			Namespace:    pod.Namespace,
			GenerateName: pod.Name + "-extended-resources-",
			OwnerReferences: []metav1.OwnerReference{
				{APIVersion: "v1", Kind: "Pod", Name: pod.Name, UID: pod.UID, Controller: &isTrue},
			},
			Annotations: map[string]string{ExtendedResourceClaimAnnotation: "true"},
		},
	}
	containers := slices.Clone(pod.Spec.InitContainers)
	containers = append(containers, pod.Spec.Containers...)
	var mappings []corev1.ContainerExtendedResourceRequest
	for _, rn := range viaDRA {
		reqs, m := requestsFor(containers, len(pod.Spec.InitContainers), rn, e.classes[rn].Name)
		claim.Spec.Devices.Requests = append(claim.Spec.Devices.Requests, reqs...)
		mappings = append(mappings, m...)
	}
	slices.SortFunc(claim.Spec.Devices.Requests, func(a, b resource.DeviceRequest) int { return strings.Compare(a.Name, b.Name) })
	return claim, mappings
}

// requestsFor makes the requests and mappings of one resource
// (createRequestsAndMappings' loop body upstream).
func requestsFor(containers []corev1.Container, numInit int, rn corev1.ResourceName, class string) ([]resource.DeviceRequest, []corev1.ContainerExtendedResourceRequest) {
	longLived := make([]*resource.DeviceRequest, len(containers))
	var longMappings, shortMappings []corev1.ContainerExtendedResourceRequest
	var shortIdx []int
	for i := range containers {
		sidecar := containers[i].RestartPolicy != nil && *containers[i].RestartPolicy == corev1.ContainerRestartPolicyAlways
		if i < numInit && !sidecar {
			shortIdx = append(shortIdx, i)
			continue
		}
		req, m := containerRequest(i, &containers[i], rn, class, nil)
		longLived[i] = req
		longMappings = append(longMappings, m...)
	}
	var largest *resource.DeviceRequest
	shortNames := map[string]bool{}
	for _, i := range shortIdx {
		req, m := containerRequest(i, &containers[i], rn, class, longLived[i:])
		if req != nil {
			shortNames[req.Name] = true
			if largest == nil || largest.Exactly.Count < req.Exactly.Count {
				largest = req
			}
		}
		shortMappings = append(shortMappings, m...)
	}
	if largest != nil && len(shortNames) > 1 {
		for i := range shortMappings {
			if shortNames[shortMappings[i].RequestName] {
				shortMappings[i].RequestName = largest.Name
			}
		}
	}
	var out []resource.DeviceRequest
	if largest != nil {
		out = append(out, *largest)
	}
	for _, r := range longLived {
		if r != nil {
			out = append(out, *r)
		}
	}
	return out, append(longMappings, shortMappings...)
}

// containerRequest is the request one container needs for the resource,
// after using up the reusable requests (those of containers that run
// after an init container); nil when those cover it.
func containerRequest(index int, c *corev1.Container, rn corev1.ResourceName, class string, reusable []*resource.DeviceRequest) (*resource.DeviceRequest, []corev1.ContainerExtendedResourceRequest) {
	q, ok := c.Resources.Requests[rn]
	if !ok {
		return nil, nil
	}
	want, ok := q.AsInt64()
	if !ok || want == 0 {
		return nil, nil
	}
	var mappings []corev1.ContainerExtendedResourceRequest
	sum := int64(0)
	for _, r := range reusable {
		if r == nil {
			continue
		}
		sum += r.Exactly.Count
		mappings = append(mappings, corev1.ContainerExtendedResourceRequest{ContainerName: c.Name, ResourceName: string(rn), RequestName: r.Name})
		if sum >= want {
			return nil, mappings
		}
	}
	keys := make([]string, 0, len(c.Resources.Requests))
	for k := range c.Resources.Requests {
		keys = append(keys, string(k))
	}
	slices.Sort(keys)
	name := fmt.Sprintf("container-%d-request-%d", index, slices.Index(keys, string(rn)))
	req := &resource.DeviceRequest{Name: name, Exactly: &resource.ExactDeviceRequest{
		DeviceClassName: class, AllocationMode: resource.DeviceAllocationModeExactCount, Count: want - sum,
	}}
	return req, append(mappings, corev1.ContainerExtendedResourceRequest{ContainerName: c.Name, ResourceName: string(rn), RequestName: name})
}
