package cluster

import (
	"context"
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ListPods lists the pods of all namespaces that have not ended, as the
// scheduler's informer lists them (status.phase neither Succeeded nor
// Failed), sorted by namespace and name. A pod of a server before 1.31,
// whose claims client-go cannot read, is read again as GetPod reads it.
func (c *Cluster) ListPods(ctx context.Context) ([]*corev1.Pod, error) {
	list, err := c.Kube.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: "status.phase!=Succeeded,status.phase!=Failed"})
	if err != nil {
		return nil, c.Explain(err, "listing pods")
	}
	pods := make([]*corev1.Pod, 0, len(list.Items))
	for i := range list.Items {
		pod := &list.Items[i]
		if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
			continue // a server (or a fake) that ignores the selector
		}
		if sourcesLost(pod) {
			if pod, err = c.GetPod(ctx, pod.Namespace, pod.Name); err != nil {
				return nil, err
			}
		}
		pods = append(pods, pod)
	}
	sort.Slice(pods, func(i, j int) bool {
		if pods[i].Namespace != pods[j].Namespace {
			return pods[i].Namespace < pods[j].Namespace
		}
		return pods[i].Name < pods[j].Name
	})
	return pods, nil
}
