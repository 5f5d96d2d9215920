package resourcev1

import (
	"context"
	"errors"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	clienttesting "k8s.io/client-go/testing"

	"github.com/drakit/drakit/hubclient"
)

// TestFieldSelectors: a driver's selector, written with client-go's v1
// constants as upstream's ResourceSlice controller writes it, reaches each
// served version in that version's labels; one the version cannot serve is
// the Bad Request the server would answer (upstream's controller, asked to
// reconcile one pool, takes it as "filter by pool name yourself").
func TestFieldSelectors(t *testing.T) {
	selector := fields.Set{resourcev1.ResourceSliceSelectorDriver: "gpu.example.com", resourcev1.ResourceSliceSelectorNodeName: "node-1"}.String()
	for version, want := range map[string]string{
		"v1":       "spec.driver=gpu.example.com,spec.nodeName=node-1",
		"v1beta2":  "spec.driver=gpu.example.com,spec.nodeName=node-1",
		"v1beta1":  "spec.driver=gpu.example.com,spec.nodeName=node-1",
		"v1alpha3": "spec.driver=gpu.example.com,spec.nodeName=node-1",
		"v1alpha2": "driverName=gpu.example.com,nodeName=node-1",
	} {
		t.Run(version, func(t *testing.T) {
			f, c := newFake(t, version)
			ctx := context.Background()
			if _, err := c.ResourceSlices().List(ctx, metav1.ListOptions{FieldSelector: selector}); err != nil {
				t.Fatal(err)
			}
			w, err := c.ResourceSlices().Watch(ctx, metav1.ListOptions{FieldSelector: selector})
			if err != nil {
				t.Fatal(err)
			}
			w.Stop()
			var got []string
			for _, a := range append(f.kube.Actions(), f.own.Actions()...) {
				switch a := a.(type) {
				case clienttesting.ListAction:
					got = append(got, a.GetListRestrictions().Fields.String())
				case clienttesting.WatchAction:
					got = append(got, a.GetWatchRestrictions().Fields.String())
				}
			}
			if len(got) != 2 || got[0] != want || got[1] != want {
				t.Errorf("the server got the selectors %q, want %q for the list and the watch", got, want)
			}
			if version == "v1" {
				return // the server's own v1 answers for itself
			}
			poolSelector := selector + "," + resourcev1.ResourceSliceSelectorPoolName + "=pool-1"
			_, err = c.ResourceSlices().List(ctx, metav1.ListOptions{FieldSelector: poolSelector})
			var fe *hubclient.FieldSelectorError
			if version == "v1beta2" || version == "v1beta1" {
				// The fake says no release: the server answers for itself.
				if err != nil {
					t.Errorf("pool selector: %v", err)
				}
				return
			}
			if !apierrors.IsBadRequest(err) || !errors.As(err, &fe) || fe.Field != resourcev1.ResourceSliceSelectorPoolName || fe.Version != version {
				t.Errorf("pool selector: got %v, want a Bad Request for spec.pool.name in %s", err, version)
			}
		})
	}
}
