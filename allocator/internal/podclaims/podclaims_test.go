package podclaims

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/apis/resource"
)

func TestQueueOrder(t *testing.T) {
	at := func(s int) metav1.Time { return metav1.NewTime(time.Unix(int64(s), 0)) }
	prio := func(p int32) *int32 { return &p }
	pods := []*corev1.Pod{
		{ObjectMeta: metav1.ObjectMeta{Name: "b", CreationTimestamp: at(5)}},
		{ObjectMeta: metav1.ObjectMeta{Name: "a", CreationTimestamp: at(1)}},
		{ObjectMeta: metav1.ObjectMeta{Name: "hi", CreationTimestamp: at(9)}, Spec: corev1.PodSpec{Priority: prio(10)}},
		{ObjectMeta: metav1.ObjectMeta{Name: "b2", CreationTimestamp: at(5)}},
	}
	var got []string
	for _, i := range QueueOrder(pods) {
		got = append(got, pods[i].Name)
	}
	if strings.Join(got, ",") != "hi,a,b,b2" {
		t.Errorf("order %v", got)
	}
}

func TestTemplateGenerateName(t *testing.T) {
	if got := TemplateGenerateName("train-7", "gpus"); got != "train-7-gpus-" {
		t.Errorf("short: %q", got)
	}
	long := TemplateGenerateName(strings.Repeat("p", 60), strings.Repeat("c", 20))
	// Both names cut in proportion (60*57/82=41, 20*57/82=13), no final hyphen.
	if long != strings.Repeat("p", 41)+"-"+strings.Repeat("c", 13) {
		t.Errorf("long: %q", long)
	}
	a, b := GeneratedName("x-", "seed", 0), GeneratedName("x-", "seed", 0)
	if a != b || len(a) != 7 || a == GeneratedName("x-", "seed", 1) {
		t.Errorf("generated %q %q", a, b)
	}
	if n := GeneratedName(strings.Repeat("z", 70), "s", 0); len(n) != 63 {
		t.Errorf("generated name of %d characters", len(n))
	}
}

func quantity(s string) corev1.ResourceList {
	return corev1.ResourceList{"example.com/gpu": apiresource.MustParse(s), corev1.ResourceCPU: apiresource.MustParse("1")}
}

// An init container that is not a sidecar reuses what the containers
// after it get; a sidecar and a container each get a request, named by
// container index and the resource's index among its sorted requests.
func TestExtendedClaim(t *testing.T) {
	ern := "example.com/gpu"
	classes := NewClasses([]*resource.DeviceClass{{ObjectMeta: metav1.ObjectMeta{Name: "gpu"}, Spec: resource.DeviceClassSpec{ExtendedResourceName: &ern}}})
	always := corev1.ContainerRestartPolicyAlways
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u"}, Spec: corev1.PodSpec{
		InitContainers: []corev1.Container{
			{Name: "init", Resources: corev1.ResourceRequirements{Requests: quantity("3")}},
			{Name: "side", RestartPolicy: &always, Resources: corev1.ResourceRequirements{Requests: quantity("1")}},
		},
		Containers: []corev1.Container{{Name: "main", Resources: corev1.ResourceRequirements{Requests: quantity("2")}}},
	}}
	e := ExtendedOf(pod, classes)
	if e == nil {
		t.Fatal("no extended resources")
	}
	node := &corev1.Node{}
	via, unfit := e.ForNode(node)
	if unfit != "" || len(via) != 1 {
		t.Fatalf("via %v unfit %q", via, unfit)
	}
	claim, mappings := e.Claim("p-extended-resources-abcde", via)
	var got []string
	for _, r := range claim.Spec.Devices.Requests {
		got = append(got, r.Name+"="+r.Exactly.DeviceClassName+"x"+string(rune('0'+r.Exactly.Count)))
	}
	// init needs 3: side (1) and main (2) cover it, so it adds none.
	if strings.Join(got, " ") != "container-1-request-1=gpux1 container-2-request-1=gpux2" {
		t.Errorf("requests %v", got)
	}
	if len(mappings) != 4 || claim.Annotations[ExtendedResourceClaimAnnotation] != "true" || !OwnedBy(claim, pod) {
		t.Errorf("mappings %v, claim %+v", mappings, claim.ObjectMeta)
	}
	// A node that lists the resource serves it with a device plugin.
	node.Status.Allocatable = corev1.ResourceList{"example.com/gpu": apiresource.MustParse("4")}
	if via, unfit := e.ForNode(node); len(via) != 0 || unfit != "" {
		t.Errorf("device plugin node: via %v unfit %q", via, unfit)
	}
}
