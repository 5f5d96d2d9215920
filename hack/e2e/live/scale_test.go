package live

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/cmd/drakit/app"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
	"github.com/drakit/drakit/hubclient"
)

// The scale of issue 25's target: 1,000 nodes with 8 devices each and
// 2,000 claims, 1,000 of them allocated (device 0 of every node) and
// 1,000 not; the pending pod's claim asks for 8 devices, which no node
// has free, so the replay fails on every node.
const (
	scaleNS      = "drakit-scale"
	scaleNodes   = 1000
	scaleDevices = 8
	scaleClaims  = 2000
)

// BenchmarkPendingPod runs "drakit describe pod" for the pending pod and,
// side by side on the same server, "kubectl get resourceslices,
// resourceclaims -A -o json", the listing an operator runs today. Issue
// 25 asks for at most 2 s and at most twice kubectl's time.
func BenchmarkPendingPod(b *testing.B) {
	s := e2eenv.Get(b)
	s.RequireVersion(b, "v1")
	kubeconfig := s.Kubeconfig(b)
	populateScale(b, s)
	b.Run("drakit-describe-pod", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var out, errOut bytes.Buffer
			code := app.Run([]string{"describe", "pod", "pending", "-n", scaleNS, "--kubeconfig", kubeconfig}, genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
			if code != 0 || !strings.Contains(out.String(), "nodes can run "+scaleNS+"/pending: ") {
				b.Fatalf("exit %d:\n%s%s", code, out.String(), errOut.String())
			}
		}
	})
	b.Run("kubectl-get", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cmd := exec.Command("kubectl", "--kubeconfig", kubeconfig, "get", "resourceslices,resourceclaims", "-A", "-o", "json")
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("kubectl: %v: %s", err, out)
			}
		}
	})
}

func populateScale(b *testing.B, s *e2eenv.Server) {
	ctx := context.Background()
	kube, err := kubernetes.NewForConfig(s.Config)
	if err != nil {
		b.Fatal(err)
	}
	hub, err := hubclient.NewForConfig(s.Config, hubclient.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := kube.CoreV1().Pods(scaleNS).Get(ctx, "pending", metav1.GetOptions{}); err == nil {
		return // populated by an earlier run against this server
	}
	must := func(err error) {
		if err != nil && !apierrors.IsAlreadyExists(err) {
			b.Fatal(err)
		}
	}
	_, err = kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: scaleNS}}, metav1.CreateOptions{})
	must(err)
	_, err = kube.CoreV1().ServiceAccounts(scaleNS).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default"}}, metav1.CreateOptions{})
	must(err)
	class := &resource.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: "gpu.scale.example.com"}}
	class.Spec.Selectors = []resource.DeviceSelector{{CEL: &resource.CELDeviceSelector{Expression: `device.driver == "gpu.scale.example.com"`}}}
	_, err = hub.DeviceClasses().Create(ctx, class, metav1.CreateOptions{})
	must(err)
	parallel(b, scaleNodes, func(i int) error {
		name := fmt.Sprintf("scale-%04d", i)
		if err := createReadyNode(ctx, kube, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
		slice := &resource.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: name}}
		slice.Spec.Driver, slice.Spec.NodeName = "gpu.scale.example.com", ptr.To(name)
		slice.Spec.Pool = resource.ResourcePool{Name: name, Generation: 1, ResourceSliceCount: 1}
		for d := 0; d < scaleDevices; d++ {
			slice.Spec.Devices = append(slice.Spec.Devices, resource.Device{
				Name:       fmt.Sprintf("gpu-%d", d),
				Attributes: map[resource.QualifiedName]resource.DeviceAttribute{"index": {IntValue: ptr.To(int64(d))}},
				Capacity:   map[resource.QualifiedName]resource.DeviceCapacity{"memory": {Value: apiresource.MustParse("80Gi")}},
			})
		}
		_, err := hub.ResourceSlices().Create(ctx, slice, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			err = nil
		}
		return err
	})
	parallel(b, scaleClaims, func(i int) error {
		claim := &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("claim-%04d", i), Namespace: scaleNS}}
		claim.Spec.Devices.Requests = []resource.DeviceRequest{{Name: "gpu", Exactly: &resource.ExactDeviceRequest{DeviceClassName: class.Name, AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1}}}
		if i == scaleClaims-1 {
			claim.Spec.Devices.Requests[0].Exactly.Count = scaleDevices
		}
		stored, err := hub.ResourceClaims(scaleNS).Create(ctx, claim, metav1.CreateOptions{})
		if err != nil || i >= scaleNodes {
			return err
		}
		node := fmt.Sprintf("scale-%04d", i)
		stored.Status.Allocation = &resource.AllocationResult{
			Devices:      resource.DeviceAllocationResult{Results: []resource.DeviceRequestAllocationResult{{Request: "gpu", Driver: "gpu.scale.example.com", Pool: node, Device: "gpu-0"}}},
			NodeSelector: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{node}}}}}},
		}
		_, err = hub.ResourceClaims(scaleNS).UpdateStatus(ctx, stored, metav1.UpdateOptions{})
		return err
	})
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "pending", Namespace: scaleNS}}
	pod.Spec.Containers = []corev1.Container{{Name: "c", Image: "c"}}
	pod.Spec.ResourceClaims = []corev1.PodResourceClaim{{Name: "gpus", ResourceClaimName: ptr.To(fmt.Sprintf("claim-%04d", scaleClaims-1))}}
	_, err = kube.CoreV1().Pods(scaleNS).Create(ctx, pod, metav1.CreateOptions{})
	must(err)
}

// parallel runs f for 0..n-1 on 16 goroutines and fails on the first error.
func parallel(b *testing.B, n int, f func(int) error) {
	var wg sync.WaitGroup
	errs := make(chan error, n)
	next := make(chan int)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := f(i); err != nil {
					errs <- err
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
}
