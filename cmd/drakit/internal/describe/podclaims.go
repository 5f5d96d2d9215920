// Package describe answers the operator's questions about a cluster's DRA
// state from what package cluster read: why is this pod pending (its
// claims and the scheduler's DRA decision replayed), what did this claim
// get, which devices are free. It reads nothing itself, so every answer
// can be tested with fixtures.
package describe

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
)

// PodClaim is one claim a pod needs and what became of it.
type PodClaim struct {
	// Name is the name in the pod (spec.resourceClaims[].name), or
	// "extended resources" for the claim the scheduler makes for the
	// extended resources DeviceClasses back.
	Name string
	// Source says where the claim comes from: "resourceClaimName",
	// "template NAME", "extended resources".
	Source string
	// ClaimName is the ResourceClaim's name; empty while a template's
	// claim has not been made.
	ClaimName string
	// Claim is the stored claim; nil when it does not exist (yet).
	Claim *resource.ResourceClaim
	// Template is the template of a claim that is still to be made.
	Template *resource.ResourceClaimTemplate
	// Synthetic is the claim drakit made to stand for one that does not
	// exist yet (from the template, or for extended resources), for the
	// replay.
	Synthetic *resource.ResourceClaim
}

// TemplateGetter reads a claim template (namespace, name).
type TemplateGetter func(namespace, name string) (*resource.ResourceClaimTemplate, error)

// PodClaims lists the claims of pod: the ones of spec.resourceClaims,
// those made from templates found through status.resourceClaimStatuses,
// and the claim of the extended resources DeviceClasses back. claims are
// the cluster's claims; templates are read only for claims not made yet.
func PodClaims(pod *corev1.Pod, claims []*resource.ResourceClaim, classes []*resource.DeviceClass, getTemplate TemplateGetter) ([]*PodClaim, error) {
	byName := map[string]*resource.ResourceClaim{}
	for _, c := range claims {
		if c.Namespace == pod.Namespace {
			byName[c.Name] = c
		}
	}
	made := map[string]*string{}
	for _, s := range pod.Status.ResourceClaimStatuses {
		made[s.Name] = s.ResourceClaimName
	}
	var out []*PodClaim
	for _, rc := range pod.Spec.ResourceClaims {
		pc := &PodClaim{Name: rc.Name}
		switch {
		case rc.ResourceClaimName != nil:
			pc.Source, pc.ClaimName = "resourceClaimName", *rc.ResourceClaimName
		case rc.ResourceClaimTemplateName != nil:
			pc.Source = "template " + *rc.ResourceClaimTemplateName
			if name := made[rc.Name]; name != nil {
				pc.ClaimName = *name
			}
		}
		if pc.ClaimName != "" {
			pc.Claim = byName[pc.ClaimName]
		}
		if pc.Claim == nil && rc.ResourceClaimTemplateName != nil && getTemplate != nil {
			t, err := getTemplate(pod.Namespace, *rc.ResourceClaimTemplateName)
			if err != nil {
				return nil, err
			}
			pc.Template = t
			pc.Synthetic = claimFromTemplate(pod, rc.Name, t)
		}
		out = append(out, pc)
	}
	if ext := extendedClaim(pod, byName, classes); ext != nil {
		out = append(out, ext)
	}
	return out, nil
}

func claimFromTemplate(pod *corev1.Pod, name string, t *resource.ResourceClaimTemplate) *resource.ResourceClaim {
	c := &resource.ResourceClaim{Spec: *t.Spec.Spec.DeepCopy()}
	c.Namespace, c.Name = pod.Namespace, pod.Name+"-"+name+" (to be made)"
	return c
}

// extendedClaim is the claim of the pod's extended resources that
// DeviceClasses back: the stored one named by
// status.extendedResourceClaimStatus, else one drakit makes as the
// scheduler would (one request per resource, a count of devices).
func extendedClaim(pod *corev1.Pod, byName map[string]*resource.ResourceClaim, classes []*resource.DeviceClass) *PodClaim {
	if s := pod.Status.ExtendedResourceClaimStatus; s != nil {
		return &PodClaim{Name: "extended resources", Source: "extended resources", ClaimName: s.ResourceClaimName, Claim: byName[s.ResourceClaimName]}
	}
	backing := map[corev1.ResourceName]string{}
	for _, c := range classes {
		backing[corev1.ResourceName("deviceclass.resource.kubernetes.io/"+c.Name)] = c.Name
		if c.Spec.ExtendedResourceName != nil {
			backing[corev1.ResourceName(*c.Spec.ExtendedResourceName)] = c.Name
		}
	}
	counts := map[corev1.ResourceName]int64{}
	for _, ctr := range append(append([]corev1.Container(nil), pod.Spec.InitContainers...), pod.Spec.Containers...) {
		for name, q := range ctr.Resources.Requests {
			if _, ok := backing[name]; ok {
				counts[name] += q.Value()
			}
		}
		for name, q := range ctr.Resources.Limits {
			if _, ok := backing[name]; ok && ctr.Resources.Requests == nil {
				counts[name] += q.Value()
			}
		}
	}
	if len(counts) == 0 {
		return nil
	}
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, string(n))
	}
	sort.Strings(names)
	c := &resource.ResourceClaim{}
	c.Namespace, c.Name = pod.Namespace, pod.Name+"-extended-resources (to be made)"
	for i, n := range names {
		c.Spec.Devices.Requests = append(c.Spec.Devices.Requests, resource.DeviceRequest{
			Name:    fmt.Sprintf("container-%d-request-%d", 0, i),
			Exactly: &resource.ExactDeviceRequest{DeviceClassName: backing[corev1.ResourceName(n)], AllocationMode: resource.DeviceAllocationModeExactCount, Count: counts[corev1.ResourceName(n)]},
		})
	}
	return &PodClaim{Name: "extended resources", Source: "extended resources " + strings.Join(names, ", "), Synthetic: c}
}

// quantityString prints a quantity as the API does.
func quantityString(q apiresource.Quantity) string { return q.String() }
