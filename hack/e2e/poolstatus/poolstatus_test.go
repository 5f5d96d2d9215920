// Package poolstatus compares drakit's pool utilization
// (allocator/poolstatus) with what kube-controller-manager's
// ResourcePoolStatusRequest controller writes on a real 1.37 cluster: the
// objects of examples/pools (a partitionable GPU with a half allocated, a
// fake driver's slice with a tainted device and an admin's claim, a NIC
// shared by two claims) are stored with drivers of their own, a request is
// made for each complete pool, and the status the controller writes must
// be Pool.Status computed from the objects read back. It runs where
// hack/e2e.sh starts kube-controller-manager with that controller
// (DRAKIT_E2E_POOLSTATUS_CONTROLLER=1, set with the scheduler's
// components on the 1.37 server); elsewhere it is skipped.
package poolstatus

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	resourcev1alpha3 "k8s.io/api/resource/v1alpha3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/allocator/poolstatus"
	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
	"github.com/drakit/drakit/hubclient"
)

// Drivers, nodes and a rack label of this package's own, so that the
// other packages' slices and claims on the server do not count, and its
// devices reach none of their nodes (hack/e2e/scheduler runs beside it).
var renames = strings.NewReplacer(
	"gpu.example.com", "gpu.poolstatus-e2e.example.com",
	"nic.example.com", "nic.poolstatus-e2e.example.com",
	"node-a", "poolstatus-e2e-node-a",
	"node-b", "poolstatus-e2e-node-b",
	"node-c", "poolstatus-e2e-node-c",
	"topology.example.com/rack", "poolstatus-e2e.example.com/rack",
)

const gpuDriver = "gpu.poolstatus-e2e.example.com"

func TestPoolStatusController(t *testing.T) {
	s := e2eenv.Get(t)
	if os.Getenv("DRAKIT_E2E_POOLSTATUS_CONTROLLER") != "1" {
		t.Skip("no ResourcePoolStatusRequest controller: hack/e2e.sh starts kube-controller-manager with it on the 1.37 server (DRAKIT_E2E_POOLSTATUS_CONTROLLER=1)")
	}
	ctx := context.Background()
	kube, err := kubernetes.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	hub, err := hubclient.NewForConfig(s.Config, hubclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	load(t, ctx, s, hub)

	// The objects as the server holds them.
	slices, err := hub.ResourceSlices().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	claims, err := hub.ResourceClaims("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rules, err := hub.DeviceTaintRules().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in := poolstatus.Input{}
	for i := range slices.Items {
		in.Slices = append(in.Slices, &slices.Items[i])
	}
	for i := range claims.Items {
		in.Claims = append(in.Claims, &claims.Items[i])
	}
	for i := range rules.Items {
		in.TaintRules = append(in.TaintRules, &rules.Items[i])
	}

	// One request per complete pool: the controller does not answer while
	// a pool it covers is incomplete (node-b rolls out).
	for _, pool := range []struct{ driver, name, attribute string }{
		{gpuDriver, "poolstatus-e2e-node-a", gpuDriver + "/profile"},
		{gpuDriver, "poolstatus-e2e-node-c", ""},
		{"nic.poolstatus-e2e.example.com", "rack-r1", ""},
	} {
		t.Run(pool.driver+"/"+pool.name, func(t *testing.T) {
			req := &resourcev1alpha3.ResourcePoolStatusRequest{ObjectMeta: metav1.ObjectMeta{GenerateName: "drakit-e2e-"}}
			req.Spec.Driver, req.Spec.PoolName = pool.driver, &pool.name
			if pool.attribute != "" {
				req.Spec.DefaultPartitionTypeAttribute = &pool.attribute
			}
			created, err := kube.ResourceV1alpha3().ResourcePoolStatusRequests().Create(ctx, req, metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				_ = kube.ResourceV1alpha3().ResourcePoolStatusRequests().Delete(context.Background(), created.Name, metav1.DeleteOptions{})
			})
			var status *resourcev1alpha3.ResourcePoolStatusRequestStatus
			for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
				got, err := kube.ResourceV1alpha3().ResourcePoolStatusRequests().Get(ctx, created.Name, metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if got.Status != nil {
					status = got.Status
					break
				}
			}
			if status == nil {
				t.Fatalf("the controller wrote no status within 90s")
			}
			in := in
			in.Driver, in.PoolName, in.DefaultPartitionTypeAttribute = pool.driver, pool.name, pool.attribute
			want := asJSON(t, status.Pools)
			got := asJSON(t, poolstatus.Compute(in).Statuses())
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("drakit's Pool.Status differs from the controller's (-controller +drakit):\n%s", diff)
			}
			text, _ := json.Marshal(status.Pools)
			t.Logf("the controller and drakit: %s", text)
		})
	}
}

// asJSON is the statuses as generic JSON: the hub's fields have the API's
// names, and quantities are compared by their canonical text.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// load stores examples/pools with this package's drivers, its claims in
// a namespace of the test (the admin's in one that allows admin access),
// each allocated claim's status written as the scheduler would.
func load(t *testing.T, ctx context.Context, s *e2eenv.Server, hub *hubclient.Client) {
	data, err := os.ReadFile("../../../examples/pools/cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ns, admin := s.Namespace(t), s.AdminNamespace(t)
	for _, doc := range strings.Split(renames.Replace(string(data)), "\n---\n") {
		var head struct {
			Kind     string            `json:"kind"`
			Metadata metav1.ObjectMeta `json:"metadata"`
		}
		if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
			t.Fatal(err)
		}
		switch head.Kind {
		case "DeviceClass":
			o := &resource.DeviceClass{}
			mustDecode(t, doc, o)
			o.Name = "poolstatus-e2e-" + o.Name
			if _, err := hub.DeviceClasses().Create(ctx, o, metav1.CreateOptions{}); err != nil {
				t.Fatalf("DeviceClass %s: %v", o.Name, err)
			}
			t.Cleanup(func() { _ = hub.DeviceClasses().Delete(context.Background(), o.Name, metav1.DeleteOptions{}) })
		case "ResourceSlice":
			o := &resource.ResourceSlice{}
			mustDecode(t, doc, o)
			o.Name = "poolstatus-e2e-" + o.Name
			if _, err := hub.ResourceSlices().Create(ctx, o, metav1.CreateOptions{}); err != nil {
				t.Fatalf("ResourceSlice %s: %v", o.Name, err)
			}
			t.Cleanup(func() { _ = hub.ResourceSlices().Delete(context.Background(), o.Name, metav1.DeleteOptions{}) })
		case "ResourceClaim":
			o := &resource.ResourceClaim{}
			mustDecode(t, doc, o)
			o.Namespace = ns
			if o.Spec.Devices.Requests[0].Exactly != nil && o.Spec.Devices.Requests[0].Exactly.AdminAccess != nil {
				o.Namespace = admin
			}
			o.Spec.Devices.Requests[0].Exactly.DeviceClassName = "poolstatus-e2e-" + o.Spec.Devices.Requests[0].Exactly.DeviceClassName
			status := o.Status
			stored, err := hub.ResourceClaims(o.Namespace).Create(ctx, o, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("ResourceClaim %s: %v", o.Name, err)
			}
			stored.Status = status
			if _, err := hub.ResourceClaims(o.Namespace).UpdateStatus(ctx, stored, metav1.UpdateOptions{}); err != nil {
				t.Fatalf("ResourceClaim %s status: %v", o.Name, err)
			}
		}
	}
}

func mustDecode(t *testing.T, doc string, into any) {
	t.Helper()
	if err := yaml.UnmarshalStrict([]byte(doc), into); err != nil {
		t.Fatal(err)
	}
}
