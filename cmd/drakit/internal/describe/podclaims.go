// Package describe answers the operator's questions about a cluster's DRA
// state from what package cluster read: why is this pod pending (its
// claims and the scheduler's DRA decision replayed), what did this claim
// get, which devices are free. It reads nothing itself, so every answer
// can be tested with fixtures.
package describe

import (
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
	// TemplateMissing is set when the template of a claim still to be
	// made does not exist.
	TemplateMissing bool
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
			switch {
			case apierrors.IsNotFound(err):
				pc.TemplateMissing = true
			case err != nil:
				return nil, err
			}
			pc.Template = t
		}
		out = append(out, pc)
	}
	if ext := extendedClaim(pod, byName, classes); ext != nil {
		out = append(out, ext)
	}
	return out, nil
}

// extendedClaim is the claim of the pod's extended resources that
// DeviceClasses back: the stored one named by
// status.extendedResourceClaimStatus, else the one the scheduler is to
// make when it picks a node (the replay makes it as the scheduler would).
func extendedClaim(pod *corev1.Pod, byName map[string]*resource.ResourceClaim, classes []*resource.DeviceClass) *PodClaim {
	if s := pod.Status.ExtendedResourceClaimStatus; s != nil {
		return &PodClaim{Name: "extended resources", Source: "extended resources", ClaimName: s.ResourceClaimName, Claim: byName[s.ResourceClaimName]}
	}
	backed := map[corev1.ResourceName]bool{}
	for _, c := range classes {
		backed[corev1.ResourceName("deviceclass.resource.kubernetes.io/"+c.Name)] = true
		if c.Spec.ExtendedResourceName != nil {
			backed[corev1.ResourceName(*c.Spec.ExtendedResourceName)] = true
		}
	}
	names := map[string]bool{}
	for _, ctr := range append(append([]corev1.Container(nil), pod.Spec.InitContainers...), pod.Spec.Containers...) {
		for _, list := range []corev1.ResourceList{ctr.Resources.Requests, ctr.Resources.Limits} {
			for name := range list {
				if backed[name] {
					names[string(name)] = true
				}
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	return &PodClaim{Name: "extended resources", Source: "extended resources " + strings.Join(sorted, ", ")}
}

// quantityString prints a quantity as the API does.
func quantityString(q apiresource.Quantity) string { return q.String() }
