package resourcev1

import (
	"context"
	"errors"
	"strings"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	acv1 "k8s.io/client-go/applyconfigurations/resource/v1"
	clienttesting "k8s.io/client-go/testing"

	"github.com/drakit/drakit/apis/resource"
)

func TestPatch(t *testing.T) {
	forEachVersion(t, func(t *testing.T, f *fakeCluster, c *Client) {
		ctx := context.Background()
		claims := c.ResourceClaims("default")
		if _, err := claims.Create(ctx, v1Claim("c1"), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		want := v1Claim("c1")

		// Merge patch, in v1's paths (requests[].exactly, which neither
		// v1beta1 nor v1alpha2 has).
		got, err := claims.Patch(ctx, "c1", types.MergePatchType, []byte(`{"metadata":{"labels":{"x":"y"}},"spec":{"devices":{"constraints":null}}}`), metav1.PatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want.Labels["x"] = "y"
		want.Spec.Devices.Constraints = nil
		same(t, f, "merge patch", want, got)

		// JSON patch, with a test that holds.
		got, err = claims.Patch(ctx, "c1", types.JSONPatchType, []byte(`[{"op":"test","path":"/spec/devices/requests/0/exactly/count","value":2},{"op":"replace","path":"/spec/devices/requests/0/exactly/count","value":7}]`), metav1.PatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want.Spec.Devices.Requests[0].Exactly.Count = 7
		same(t, f, "JSON patch", want, got)
		if _, err := claims.Patch(ctx, "c1", types.JSONPatchType, []byte(`[{"op":"test","path":"/spec/devices/requests/0/exactly/count","value":2}]`), metav1.PatchOptions{}); err == nil {
			t.Errorf("a JSON patch whose test fails was applied")
		}

		// Strategic merge patch: labels merge, and status.reservedFor
		// merges by uid (its patch strategy in the v1 types), where a
		// merge patch would replace the list.
		want.Status = v1Status("u1")
		cur, err := claims.Get(ctx, "c1", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cur.Status = want.Status
		if _, err := claims.UpdateStatus(ctx, cur, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		got, err = claims.Patch(ctx, "c1", types.StrategicMergePatchType, []byte(`{"status":{"reservedFor":[{"resource":"pods","name":"pod-u2","uid":"u2"}]}}`), metav1.PatchOptions{}, "status")
		if err != nil {
			t.Fatal(err)
		}
		// The order is strategicpatch's, as on the server.
		want.Status = v1Status("u2", "u1")
		same(t, f, "strategic merge patch of the status", want, got)
		got, err = claims.Patch(ctx, "c1", types.StrategicMergePatchType, []byte(`{"metadata":{"labels":{"z":"w"}}}`), metav1.PatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want.Labels["z"] = "w"
		same(t, f, "strategic merge patch of the labels", want, got)
	})
}

// TestPatchConvertedPath: what only the client-side patch of a server
// without v1 does.
func TestPatchConvertedPath(t *testing.T) {
	for _, v := range []string{"v1beta1", "v1alpha2"} {
		t.Run(v, func(t *testing.T) {
			ctx := context.Background()
			f, c := newFake(t, v)
			classes := c.DeviceClasses()
			if _, err := classes.Create(ctx, v1Class("gpu"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			// A field v1 does not have is the caller's error, named.
			_, err := classes.Patch(ctx, "gpu", types.MergePatchType, []byte(`{"spec":{"bogus":1}}`), metav1.PatchOptions{})
			if !apierrors.IsBadRequest(err) || !strings.Contains(err.Error(), "bogus") {
				t.Errorf("patch with an unknown field: %v, want Bad Request naming it", err)
			}
			if _, err := classes.Patch(ctx, "gpu", types.MergePatchType, []byte(`{"metadata":{"name":"other"}}`), metav1.PatchOptions{}); !apierrors.IsBadRequest(err) {
				t.Errorf("patch renaming the object: %v, want Bad Request", err)
			}

			// A conflict with another writer: computed again on the new state.
			conflicts, updates := 0, 0
			resourceName := "deviceclasses"
			if v == "v1alpha2" {
				resourceName = "resourceclasses"
			}
			gr := schema.GroupResource{Group: resource.GroupName, Resource: resourceName}
			f.PrependReactor("update", resourceName, func(clienttesting.Action) (bool, runtime.Object, error) {
				updates++
				if conflicts < 1 {
					conflicts++
					return true, nil, apierrors.NewConflict(gr, "gpu", errors.New("the object has been modified"))
				}
				return false, nil, nil
			})
			got, err := classes.Patch(ctx, "gpu", types.MergePatchType, []byte(`{"metadata":{"labels":{"x":"y"}}}`), metav1.PatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if updates != 2 || got.Labels["x"] != "y" {
				t.Errorf("after one conflict: %d writes (want 2), labels %v", updates, got.Labels)
			}

			// A patch that names its own resourceVersion is not retried.
			conflicts, updates = -100, 0
			_, err = classes.Patch(ctx, "gpu", types.MergePatchType, []byte(`{"metadata":{"resourceVersion":"12345","labels":{"x":"z"}}}`), metav1.PatchOptions{})
			if !apierrors.IsConflict(err) || updates != 1 {
				t.Errorf("patch with its own resourceVersion: %v after %d writes, want one Conflict", err, updates)
			}

			// A patch that changes nothing writes nothing.
			updates = 0
			if _, err := classes.Patch(ctx, "gpu", types.MergePatchType, []byte(`{"metadata":{"labels":{"x":"y"}}}`), metav1.PatchOptions{}); err != nil || updates != 0 {
				t.Errorf("no-op patch: %v after %d writes", err, updates)
			}
			if _, err := classes.Patch(ctx, "gpu", types.PatchType("application/bogus"), []byte(`{}`), metav1.PatchOptions{}); err == nil {
				t.Errorf("an unknown patch type was accepted")
			}
		})
	}
}

func claimApply(manager string) *acv1.ResourceClaimApplyConfiguration {
	return acv1.ResourceClaim("c1", "default").
		WithLabels(map[string]string{"app": manager}).
		WithSpec(acv1.ResourceClaimSpec().WithDevices(acv1.DeviceClaim().WithRequests(
			acv1.DeviceRequest().WithName("gpu").WithExactly(acv1.ExactDeviceRequest().
				WithDeviceClassName("gpu.example.com").WithAllocationMode(resourcev1.DeviceAllocationModeExactCount).WithCount(2)))))
}

func TestApply(t *testing.T) {
	forEachVersion(t, func(t *testing.T, f *fakeCluster, c *Client) {
		ctx := context.Background()
		claims := c.ResourceClaims("default")
		created, err := claims.Apply(ctx, claimApply("a"), metav1.ApplyOptions{FieldManager: "a"})
		if err != nil {
			t.Fatal(err)
		}
		want := &resourcev1.ResourceClaim{
			ObjectMeta: metav1.ObjectMeta{Name: "c1", Namespace: "default", Labels: map[string]string{"app": "a"}},
			Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{
				{Name: "gpu", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "gpu.example.com", AllocationMode: resourcev1.DeviceAllocationModeExactCount, Count: 2}},
			}}},
		}
		same(t, f, "created by apply", want, created)

		// Another manager's different value for a's label.
		byB := acv1.ResourceClaim("c1", "default").WithLabels(map[string]string{"app": "b"})
		if _, err := claims.Apply(ctx, byB, metav1.ApplyOptions{FieldManager: "b"}); !apierrors.IsConflict(err) {
			t.Fatalf("b applying a's label: %v, want a Conflict", err)
		}
		forced, err := claims.Apply(ctx, byB, metav1.ApplyOptions{FieldManager: "b", Force: true})
		if err != nil {
			t.Fatal(err)
		}
		want.Labels["app"] = "b"
		same(t, f, "forced apply", want, forced)

		// The status, by a third manager.
		st := acv1.ResourceClaim("c1", "default").WithStatus(acv1.ResourceClaimStatus().WithReservedFor(
			acv1.ResourceClaimConsumerReference().WithResource("pods").WithName("pod-u1").WithUID("u1")))
		withStatus, err := claims.ApplyStatus(ctx, st, metav1.ApplyOptions{FieldManager: "controller"})
		if err != nil {
			t.Fatal(err)
		}
		want.Status.ReservedFor = []resourcev1.ResourceClaimConsumerReference{{Resource: "pods", Name: "pod-u1", UID: "u1"}}
		same(t, f, "status apply", want, withStatus)

		// An apply patch through Patch, in YAML.
		patched, err := claims.Patch(ctx, "c1", types.ApplyPatchType, []byte("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c1\n  namespace: default\n  labels:\n    extra: \"yes\"\n"), metav1.PatchOptions{FieldManager: "c"})
		if err != nil {
			t.Fatal(err)
		}
		want.Labels["extra"] = "yes"
		same(t, f, "apply patch", want, patched)

		if _, err := claims.Apply(ctx, nil, metav1.ApplyOptions{FieldManager: "a"}); err == nil {
			t.Errorf("a nil apply configuration was accepted")
		}
		if _, err := claims.Apply(ctx, &acv1.ResourceClaimApplyConfiguration{}, metav1.ApplyOptions{FieldManager: "a"}); err == nil {
			t.Errorf("an apply configuration without a name was accepted")
		}
	})
}
