package hubclient

import (
	"context"
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"
	fakediscovery "k8s.io/client-go/discovery/fake"
	clienttesting "k8s.io/client-go/testing"
)

// served133beta2 is 1.33 with only v1beta2 enabled.
var served133beta2 = map[string][]apiRes{"v1beta2": {
	{"deviceclasses", "DeviceClass", false}, {"resourceclaims", "ResourceClaim", true}, {"resourceclaims/status", "ResourceClaim", true},
	{"resourceclaimtemplates", "ResourceClaimTemplate", true}, {"resourceslices", "ResourceSlice", false},
}}

// sentSelectors are the field selectors of the lists, watches and
// collection deletes of resource that reached the fakes, in order.
func (f *fakeCluster) sentSelectors(resource string) []string {
	var out []string
	for _, a := range append(f.kube.Actions(), f.own.Actions()...) {
		if a.GetResource().Resource != resource {
			continue
		}
		switch a := a.(type) {
		case clienttesting.ListAction:
			out = append(out, a.GetVerb()+" "+a.GetListRestrictions().Fields.String())
		case clienttesting.WatchAction:
			out = append(out, a.GetVerb()+" "+a.GetWatchRestrictions().Fields.String())
		case clienttesting.DeleteCollectionAction:
			out = append(out, a.GetVerb()+" "+a.GetListRestrictions().Fields.String())
		}
	}
	return out
}

// TestFieldSelectorsPerVersion: a field selector with the hub's (v1's)
// labels reaches the server in the served version's labels, in lists,
// watches and collection deletes alike; one the version cannot serve is a
// Bad Request that names the field, the kind, the version and what it can
// select on, and nothing is sent.
func TestFieldSelectorsPerVersion(t *testing.T) {
	for _, tc := range []struct {
		name     string
		served   map[string][]apiRes
		release  string // the server's gitVersion; "" leaves the fake's own, which says no release
		kind     string
		selector string
		sent     string   // the selector the server gets
		errs     []string // the error names all of these
	}{
		{name: "v1alpha2 slice labels", served: served130, release: "v1.30.14", kind: "ResourceSlice",
			selector: "spec.driver=gpu.example.com,spec.nodeName=node-1", sent: "driverName=gpu.example.com,nodeName=node-1"},
		{name: "v1alpha2 keeps the operator", served: served130, kind: "ResourceSlice",
			selector: "spec.nodeName!=,metadata.name==s", sent: "metadata.name=s,nodeName!="},
		{name: "v1alpha2 has no pool name", served: served130, release: "v1.30.14", kind: "ResourceSlice",
			selector: "spec.driver=d,spec.pool.name=p",
			errs:     []string{`field selector "spec.pool.name"`, "ResourceSlice in resource.k8s.io/v1alpha2", "Kubernetes 1.30 server", "cannot select on spec.pool.name", "it can select on metadata.name, spec.nodeName, spec.driver", "filter what the list returns"}},
		{name: "v1alpha2's own name", served: served130, kind: "ResourceSlice", selector: "driverName=d",
			errs: []string{`field selector "driverName"`, "driverName is v1alpha2's own name for spec.driver", "use spec.driver"}},
		{name: "a slice has no namespace", served: served130, kind: "ResourceSlice", selector: "metadata.namespace=default",
			errs: []string{"cannot select on metadata.namespace"}},
		{name: "v1alpha3 slice labels", served: served133, kind: "ResourceSlice",
			selector: "spec.driver=d,spec.nodeName=n", sent: "spec.driver=d,spec.nodeName=n"},
		{name: "v1alpha3 has no pool name", served: served133, kind: "ResourceSlice", selector: "spec.pool.name=p",
			errs: []string{"ResourceSlice in resource.k8s.io/v1alpha3", "cannot select on spec.pool.name", "it can select on metadata.name, spec.nodeName, spec.driver"}},
		{name: "v1beta2 of 1.37 selects on the pool", served: served133beta2, release: "v1.37.2", kind: "ResourceSlice",
			selector: "spec.pool.name=p", sent: "spec.pool.name=p"},
		{name: "v1beta2 of 1.33 does not", served: served133beta2, release: "v1.33.13", kind: "ResourceSlice",
			selector: "spec.pool.name=p",
			errs:     []string{"ResourceSlice in resource.k8s.io/v1beta2, which the Kubernetes 1.33 server serves, can select on spec.pool.name from Kubernetes 1.37 on", "it can select on metadata.name, spec.nodeName, spec.driver:"}},
		{name: "an unknown release answers for itself", served: served133beta2, kind: "ResourceSlice",
			selector: "spec.pool.name=p", sent: "spec.pool.name=p"},
		{name: "claims select on metadata", served: served130, kind: "ResourceClaim",
			selector: "metadata.namespace=default,metadata.name=c", sent: "metadata.name=c,metadata.namespace=default"},
		{name: "claims select on nothing else", served: served130, kind: "ResourceClaim", selector: "spec.driver=d",
			errs: []string{"ResourceClaim in resource.k8s.io/v1alpha2", "cannot select on spec.driver", "it can select on metadata.name, metadata.namespace"}},
		{name: "not a selector", served: served130, kind: "ResourceSlice", selector: "spec.driver",
			errs: []string{`the field selector "spec.driver" of a ResourceSlice list does not parse`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := newFakeCluster()
			setDiscovery(cs, tc.served)
			if tc.release != "" {
				cs.Discovery().(*fakediscovery.FakeDiscovery).FakedServerVersion = &version.Info{GitVersion: tc.release}
			}
			c, err := New(cs.clientsets(), cs.Discovery(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			opts := metav1.ListOptions{FieldSelector: tc.selector}
			var calls []func() error
			var resource string
			switch tc.kind {
			case "ResourceSlice":
				r := c.ResourceSlices()
				resource = "resourceslices"
				calls = []func() error{
					func() error { _, err := r.List(ctx, opts); return err },
					func() error { w, err := r.Watch(ctx, opts); stopWatch(w); return err },
					func() error { return r.DeleteCollection(ctx, metav1.DeleteOptions{}, opts) },
				}
			case "ResourceClaim":
				r := c.ResourceClaims("default")
				resource = "resourceclaims"
				calls = []func() error{
					func() error { _, err := r.List(ctx, opts); return err },
					func() error { w, err := r.Watch(ctx, opts); stopWatch(w); return err },
					func() error { return r.DeleteCollection(ctx, metav1.DeleteOptions{}, opts) },
				}
			}
			for i, call := range calls {
				err := call()
				if tc.errs == nil {
					if err != nil {
						t.Fatalf("call %d: %v", i, err)
					}
					continue
				}
				if !apierrors.IsBadRequest(err) {
					t.Fatalf("call %d: got %v, want a Bad Request", i, err)
				}
				for _, want := range tc.errs {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("call %d: the error %q does not say %q", i, err, want)
					}
				}
			}
			var want []string
			if tc.errs == nil {
				want = []string{"list " + tc.sent, "watch " + tc.sent, "delete-collection " + tc.sent}
			}
			if got := cs.sentSelectors(resource); strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("the server got %q, want %q", got, want)
			}
		})
	}
}

func stopWatch(w interface{ Stop() }) {
	if w != nil {
		w.Stop()
	}
}

// TestFieldSelectorErrorDetails: the error is found with errors.As and
// says what it found, and the server's release is asked for only when a
// label depends on it.
func TestFieldSelectorErrorDetails(t *testing.T) {
	cs := newFakeCluster()
	setDiscovery(cs, served133beta2)
	d := cs.Discovery().(*fakediscovery.FakeDiscovery)
	d.FakedServerVersion = &version.Info{GitVersion: "v1.33.13"}
	c, err := New(cs.clientsets(), d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	versionAsked := func() int {
		n := 0
		for _, a := range d.Actions() {
			if a.GetResource().Resource == "version" {
				n++
			}
		}
		return n
	}
	ctx := context.Background()
	if _, err := c.ResourceSlices().List(ctx, metav1.ListOptions{FieldSelector: "spec.driver=d"}); err != nil {
		t.Fatal(err)
	}
	if n := versionAsked(); n != 0 {
		t.Errorf("the release was asked %d times for a selector that does not depend on it", n)
	}
	for range 2 {
		_, err = c.ResourceSlices().List(ctx, metav1.ListOptions{FieldSelector: "spec.pool.name=p"})
	}
	var fe *FieldSelectorError
	if !errors.As(err, &fe) {
		t.Fatalf("got %v, want a *FieldSelectorError", err)
	}
	want := FieldSelectorError{Kind: "ResourceSlice", Version: "v1beta2", Release: 33, Field: "spec.pool.name", Since: 37,
		Selectable: []string{"metadata.name", "spec.nodeName", "spec.driver"}}
	if fe.Kind != want.Kind || fe.Version != want.Version || fe.Release != want.Release || fe.Field != want.Field || fe.Since != want.Since ||
		strings.Join(fe.Selectable, ",") != strings.Join(want.Selectable, ",") || fe.OwnNameOf != "" {
		t.Errorf("got %+v, want %+v", *fe, want)
	}
	if n := versionAsked(); n != 1 {
		t.Errorf("the release was asked %d times, want once", n)
	}
}
