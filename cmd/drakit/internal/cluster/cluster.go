package cluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/drakit/drakit/hubclient"
)

// RBACHint says where the permissions drakit needs are written down.
const RBACHint = "the ClusterRole in examples/rbac/drakit-reader.yaml grants everything drakit reads"

// Cluster is a connection to one cluster, for reading.
type Cluster struct {
	// Hub reads resource.k8s.io objects as hub objects, whatever version
	// the cluster serves.
	Hub *hubclient.Client
	// Kube reads Pods, Nodes and Namespaces.
	Kube kubernetes.Interface
	// Namespace is the namespace of the context or of -n.
	Namespace string
	// Where names the cluster in errors: the server's address and the
	// context.
	Where string
}

// New is a Cluster over the given clients (tests give fakes).
func New(hub *hubclient.Client, kube kubernetes.Interface, namespace, where string) *Cluster {
	if namespace == "" {
		namespace = "default"
	}
	return &Cluster{Hub: hub, Kube: kube, Namespace: namespace, Where: where}
}

// Connect makes the clients of the flags' cluster and asks it which
// versions of resource.k8s.io it serves. Errors name the server and the
// context and say what to do.
func (f *Flags) Connect() (*Cluster, error) {
	loader := f.Config.ToRawKubeConfigLoader()
	namespace, _, err := loader.Namespace()
	if err != nil {
		return nil, fmt.Errorf("reading the kubeconfig: %w; give one with --kubeconfig or KUBECONFIG", err)
	}
	cfg, err := f.Config.ToRESTConfig()
	if err != nil {
		return nil, fmt.Errorf("no cluster to talk to: %v; give a kubeconfig with --kubeconfig or KUBECONFIG, or --server", oneLine(err.Error()))
	}
	where := describeServer(cfg, f.contextName())
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	hub, err := hubclient.NewForConfig(cfg, hubclient.Options{})
	c := &Cluster{Kube: kube, Hub: hub, Namespace: namespace, Where: where}
	if err != nil {
		return nil, c.Explain(err, "discovering the versions of resource.k8s.io")
	}
	if c.Namespace == "" {
		c.Namespace = "default"
	}
	return c, nil
}

// contextName is the context the flags select: --context, or the
// kubeconfig's current context; empty in a pod.
func (f *Flags) contextName() string {
	if f.Config.Context != nil && *f.Config.Context != "" {
		return *f.Config.Context
	}
	raw, err := f.Config.ToRawKubeConfigLoader().RawConfig()
	if err != nil {
		return ""
	}
	return raw.CurrentContext
}

func describeServer(cfg *rest.Config, context string) string {
	where := "the API server at " + cfg.Host
	if context != "" {
		where += " (context " + context + ")"
	}
	return where
}

// Explain turns an error of the cluster into one that says what drakit was
// doing, on which server, and what to do about it: a missing permission,
// a server that cannot be reached or does not accept the credentials, a
// resource.k8s.io version or kind the cluster does not serve.
func (c *Cluster) Explain(err error, doing string) error {
	if err == nil {
		return nil
	}
	var notServed *hubclient.NotServedError
	var noVersion *hubclient.NoVersionError
	var netErr net.Error
	var urlErr *url.Error
	msg := oneLine(err.Error())
	switch {
	case errors.As(err, &notServed):
		msg = fmt.Sprintf("the cluster does not serve %s: its release lacks the kind (it serves resource.k8s.io %s)", notServed.Kind, strings.Join(notServed.Served, ", "))
	case errors.As(err, &noVersion):
		msg = "the cluster serves no version of resource.k8s.io that drakit reads: " + oneLine(noVersion.Error())
	case apierrors.IsForbidden(err):
		msg = fmt.Sprintf("permission denied: %s; %s", msg, RBACHint)
	case apierrors.IsUnauthorized(err):
		msg = fmt.Sprintf("the server did not accept the credentials: %s; check the user of the context (--user, --token) or log in again", msg)
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		msg = fmt.Sprintf("no answer in time: %s; check the address and the network, or raise --request-timeout", msg)
	case errors.As(err, &urlErr) || errors.As(err, &netErr):
		msg = fmt.Sprintf("cannot reach the server: %s; check --kubeconfig, --context or --server and that the cluster is up", msg)
	}
	return &Error{Doing: doing, Where: c.Where, Msg: msg, Err: err}
}

// Error is a failure of drakit's conversation with a cluster.
type Error struct {
	// Doing is what drakit was doing ("listing resourceslices").
	Doing string
	// Where names the server and context.
	Where string
	// Msg says what went wrong and what to do.
	Msg string
	// Err is the error as the client returned it.
	Err error
}

func (e *Error) Error() string {
	where := ""
	if e.Where != "" {
		where = " on " + e.Where
	}
	return e.Doing + where + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
