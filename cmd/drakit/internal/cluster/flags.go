// Package cluster is drakit's read-only access to a live cluster: kubectl's
// connection flags (k8s.io/cli-runtime's ConfigFlags), the resource.k8s.io
// objects through hubclient in whatever version the cluster serves, the
// core objects (Nodes, Pods, Namespaces) through client-go, and errors
// that name what failed where. Nothing in this package writes to the
// cluster: it only gets and lists.
package cluster

import (
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"
)

// Flags are kubectl's connection flags (--kubeconfig, --context, --cluster,
// --user, -n/--namespace, --request-timeout, --server, --as, ...) and -A,
// --all-namespaces. Without a kubeconfig, in a pod, the in-cluster config
// is used, as kubectl does.
type Flags struct {
	Config        *genericclioptions.ConfigFlags
	AllNamespaces bool

	fs *pflag.FlagSet
}

// connectionFlags are the flags whose use says "talk to a cluster".
var connectionFlags = []string{"kubeconfig", "context", "cluster", "user", "server", "token", "as", "as-group", "as-uid", "namespace", "request-timeout"}

// NewFlags are the flags with kubectl's defaults.
func NewFlags() *Flags {
	return &Flags{Config: genericclioptions.NewConfigFlags(true)}
}

// AddTo adds kubectl's connection flags to fs; withAllNamespaces adds -A,
// --all-namespaces too (for the commands that list).
func (f *Flags) AddTo(fs *pflag.FlagSet, withAllNamespaces bool) {
	f.fs = fs
	f.Config.AddFlags(fs)
	if withAllNamespaces {
		fs.BoolVarP(&f.AllNamespaces, "all-namespaces", "A", false, "list the objects of all namespaces (the namespace of the context or -n is ignored)")
	}
}

// Explicit tells whether a connection flag was given on the command line.
func (f *Flags) Explicit() bool {
	if f.fs == nil {
		return false
	}
	for _, name := range connectionFlags {
		if fl := f.fs.Lookup(name); fl != nil && fl.Changed {
			return true
		}
	}
	return false
}
