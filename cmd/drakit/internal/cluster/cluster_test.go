package cluster

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"syscall"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/spf13/pflag"

	"github.com/drakit/drakit/hubclient"
)

// TestExplain: each failure of a conversation with a cluster becomes one
// error that says what drakit did, where, what went wrong and what to do.
func TestExplain(t *testing.T) {
	c := &Cluster{Where: "the API server at https://k:6443 (context prod)"}
	slices := schema.GroupResource{Group: "resource.k8s.io", Resource: "resourceslices"}
	for _, tc := range []struct {
		name string
		err  error
		want []string
	}{
		{"forbidden", apierrors.NewForbidden(slices, "", errors.New(`User "jane" cannot list resource "resourceslices"`)),
			[]string{"listing resourceslices on the API server at https://k:6443 (context prod): permission denied:", `User "jane" cannot list`, "examples/rbac/drakit-reader.yaml"}},
		{"unauthorized", apierrors.NewUnauthorized("token expired"),
			[]string{"did not accept the credentials", "--user, --token"}},
		{"unreachable", &url.Error{Op: "Get", URL: "https://k:6443/api", Err: syscall.ECONNREFUSED},
			[]string{"cannot reach the server", "connection refused", "--kubeconfig, --context or --server"}},
		{"timeout", context.DeadlineExceeded, []string{"no answer in time", "--request-timeout"}},
		{"no version", &hubclient.NoVersionError{Served: []string{"v2"}},
			[]string{"serves no version of resource.k8s.io that drakit reads", "serves resource.k8s.io v2"}},
		{"kind not served", &hubclient.NotServedError{Kind: "ResourceSlice", Served: []string{"v1alpha1"}},
			[]string{"does not serve ResourceSlice: its release lacks the kind (it serves resource.k8s.io v1alpha1)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := c.Explain(tc.err, "listing resourceslices")
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q\nlacks %q", err, w)
				}
			}
			if !errors.Is(err, tc.err) {
				t.Errorf("the error does not wrap the client's")
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("not one line: %q", err)
			}
		})
	}
}

// TestExplicit: only connection flags given on the command line count.
func TestExplicit(t *testing.T) {
	f := NewFlags()
	fs := newFlagSet()
	f.AddTo(fs, true)
	if f.Explicit() {
		t.Fatal("explicit before parsing")
	}
	if err := fs.Parse([]string{"-A"}); err != nil {
		t.Fatal(err)
	}
	if f.Explicit() || !f.AllNamespaces {
		t.Fatal("-A is not a connection flag")
	}
	if err := fs.Parse([]string{"--context", "prod"}); err != nil {
		t.Fatal(err)
	}
	if !f.Explicit() {
		t.Fatal("--context is a connection flag")
	}
}

func newFlagSet() *pflag.FlagSet { return pflag.NewFlagSet("test", pflag.ContinueOnError) }
