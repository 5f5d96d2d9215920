// Package podclaims turns pods into the claims that the control plane
// gives them before and during scheduling: the order of the scheduler's
// queue, the claims the resourceclaim controller makes from
// ResourceClaimTemplates, and the claim the scheduler makes for extended
// resources that a DeviceClass serves. It works on hub objects and knows
// nothing of devices.
package podclaims

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"

	"github.com/drakit/drakit/apis/resource"
)

// Annotations the control plane sets on the claims it makes.
const (
	// PodClaimNameAnnotation names the pod's resourceClaims entry a claim
	// was made for (resourceapi.PodResourceClaimAnnotation).
	PodClaimNameAnnotation = "resource.kubernetes.io/pod-claim-name"
	// ExtendedResourceClaimAnnotation marks the claim the scheduler makes
	// for a pod's extended resources (resourceapi.ExtendedResourceClaimAnnotation).
	ExtendedResourceClaimAnnotation = "resource.kubernetes.io/extended-resource-claim"
	// DeviceClassPrefix makes the implicit extended resource name of a
	// DeviceClass (resourceapi.ResourceDeviceClassPrefix).
	DeviceClassPrefix = "deviceclass.resource.kubernetes.io/"
)

// QueueOrder returns the indices of the pods in the order the scheduler's
// queue pops them (the PrioritySort plugin): higher priority first, then
// the earlier creation time (the queue orders by the time a pod was
// added, which for pods read from an export is their creation), then the
// order given.
func QueueOrder(pods []*corev1.Pod) []int {
	order := make([]int, len(pods))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		pa, pb := corev1helpers.PodPriority(pods[a]), corev1helpers.PodPriority(pods[b])
		if pa != pb {
			if pa > pb {
				return -1
			}
			return 1
		}
		ta, tb := pods[a].CreationTimestamp.Time, pods[b].CreationTimestamp.Time
		return ta.Compare(tb)
	})
	return order
}

// nameChars are the characters the API server uses for the random
// suffix of generateName (k8s.io/apimachinery/pkg/util/rand).
const nameChars = "bcdfghjklmnpqrstvwxz2456789"

// maxGeneratedBase is how much of a generateName the API server keeps
// (63 characters minus the 5 random ones).
const maxGeneratedBase = 58

// GeneratedName is the name the API server would give an object with this
// generateName, except that the 5 characters it draws at random come from
// a hash of seed and attempt: the same input makes the same names on every
// run. Callers pass attempt 0 first and a higher one when the name is
// taken.
func GeneratedName(generateName, seed string, attempt int) string {
	base := generateName
	if len(base) > maxGeneratedBase {
		base = base[:maxGeneratedBase]
	}
	h := sha256.New()
	h.Write([]byte(seed))
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(attempt))
	h.Write(n[:])
	sum := h.Sum(nil)
	suffix := make([]byte, 5)
	for i := range suffix {
		suffix[i] = nameChars[int(sum[i])%len(nameChars)]
	}
	return base + string(suffix)
}

// TemplateGenerateName is the generateName the resourceclaim controller
// gives a claim made for a pod's resourceClaims entry: <pod>-<entry>-,
// or, when that is longer than 57 characters, both names cut in
// proportion to their lengths (and no final hyphen), so that the entry's
// name is not lost to the API server's cut at the end.
func TemplateGenerateName(podName, podClaimName string) string {
	const maxBaseLen = 57
	name := podName + "-" + podClaimName + "-"
	if len(name) <= maxBaseLen {
		return name
	}
	return podName[:len(podName)*maxBaseLen/len(name)] + "-" + podClaimName[:len(podClaimName)*maxBaseLen/len(name)]
}

// FromTemplate makes the claim the resourceclaim controller creates for
// the pod's resourceClaims entry podClaimName from the template: the
// template's labels and annotations plus the pod-claim-name annotation,
// the pod as controlling owner, the template's claim spec.
func FromTemplate(pod *corev1.Pod, podClaimName, name string, template *resource.ResourceClaimTemplate) *resource.ResourceClaim {
	annotations := map[string]string{}
	for k, v := range template.Spec.Annotations {
		annotations[k] = v
	}
	annotations[PodClaimNameAnnotation] = podClaimName
	var labels map[string]string
	if len(template.Spec.Labels) > 0 {
		labels = map[string]string{}
		for k, v := range template.Spec.Labels {
			labels[k] = v
		}
	}
	return &resource.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{
			Name:            name,
			Namespace:       pod.Namespace,
			GenerateName:    TemplateGenerateName(pod.Name, podClaimName),
			OwnerReferences: []metav1.OwnerReference{podOwner(pod)},
			Annotations:     annotations,
			Labels:          labels,
		},
		Spec: *template.Spec.Spec.DeepCopy(),
	}
}

func podOwner(pod *corev1.Pod) metav1.OwnerReference {
	isTrue := true
	return metav1.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: pod.Name, UID: pod.UID, Controller: &isTrue}
}

// OwnedBy reports whether the pod is the claim's controlling owner, as
// the controller and the scheduler check before using a claim they made.
func OwnedBy(claim *resource.ResourceClaim, pod *corev1.Pod) bool {
	for _, o := range claim.OwnerReferences {
		if o.Name == pod.Name && o.UID == pod.UID && o.Controller != nil && *o.Controller {
			return true
		}
	}
	return false
}
