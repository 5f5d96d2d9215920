package hubclient

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/generated/clientset/versioned"
)

// Options tune how a Client chooses versions.
type Options struct {
	// Version, when set (a version of the catalogue: "v1alpha1" to "v1"), uses that
	// version for every kind instead of negotiating; New fails if the
	// server does not serve it.
	Version string
	// WarningHandler receives the Client's own warnings, as a rest.Config's
	// receives the server's: what a write keeps only in the stash annotation
	// although the cluster's components read it from the served version's
	// fields (a v1 attribute name that a 1.30 slice cannot hold). Nil logs
	// them with klog (rest.WarningLogger); NewForConfig then uses the
	// rest.Config's handler, when it has one. rest.NoWarnings{} drops them.
	WarningHandler rest.WarningHandlerWithContext
}

// Client works with hub objects against the resource.k8s.io version(s) the
// server serves. It is safe for concurrent use. The choice of versions is
// made once, in New; a client made before a cluster upgrade keeps using the
// versions it found (create a new one to negotiate again).
type Client struct {
	cs       Clientsets
	served   map[string]served // by hub kind
	version  string            // the newest known version the server serves
	versions []string          // every resource.k8s.io version the server serves, as discovery lists them

	disc     discovery.ServerVersionInterface
	warnings rest.WarningHandlerWithContext
	// release is the server's minor release (1.release), read the first
	// time a field selector depends on it; 0 when the server did not say.
	release     int
	releaseOnce sync.Once
}

// served is where one hub kind lives on the server.
type served struct {
	version    string // e.g. "v1alpha2"
	kind       string // the kind's name in that version, e.g. ResourceClass
	resource   string // e.g. "resourceclasses"
	namespaced bool
	status     bool // has a status subresource
	backend    backendFactory
	kubeAPI    bool                   // reached through client-go's clientset (catalogue.Kind.KubeAPI)
	labels     []catalogue.FieldLabel // what lists can select on (catalogue.Kind.SelectableFields)
}

// NewForConfig makes the clientsets and discovery client for cfg and
// negotiates versions with New. client-go's clientset asks for protobuf, as
// Kubernetes' own components do, unless cfg names a content type. The
// Client's warnings go where cfg's go, unless opts names a handler.
func NewForConfig(cfg *rest.Config, opts Options) (*Client, error) {
	own, err := versioned.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	kubeCfg := rest.CopyConfig(cfg)
	if kubeCfg.ContentType == "" {
		kubeCfg.ContentType = runtime.ContentTypeProtobuf
		kubeCfg.AcceptContentTypes = runtime.ContentTypeProtobuf + "," + runtime.ContentTypeJSON
	}
	kube, err := kubernetes.NewForConfig(kubeCfg)
	if err != nil {
		return nil, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	if opts.WarningHandler == nil {
		if cfg.WarningHandlerWithContext != nil {
			opts.WarningHandler = cfg.WarningHandlerWithContext
		} else if cfg.WarningHandler != nil {
			opts.WarningHandler = withContext{cfg.WarningHandler}
		}
	}
	return New(Clientsets{Kube: kube, Drakit: own}, disc, opts)
}

// New asks the server, through disc, which versions of resource.k8s.io it
// serves and which resources each version has, and picks for every hub kind
// the newest version drakit knows that serves it. It fails when the server
// serves none of drakit's versions, or not opts.Version when that is set.
func New(cs Clientsets, disc discovery.DiscoveryInterface, opts Options) (*Client, error) {
	if opts.Version != "" && !known(opts.Version) {
		return nil, fmt.Errorf("hubclient: Options.Version %q is not a version drakit knows (%s)", opts.Version, strings.Join(knownVersions(), ", "))
	}
	groups, err := disc.ServerGroups()
	if err != nil {
		return nil, fmt.Errorf("hubclient: discovering the API groups of the server: %w", err)
	}
	c := &Client{cs: cs, served: map[string]served{}, disc: disc, warnings: warningHandler(opts)}
	for _, g := range groups.Groups {
		if g.Name != resource.GroupName {
			continue
		}
		for _, v := range g.Versions {
			c.versions = append(c.versions, v.Version)
		}
	}
	// Newest first, so that the first version found for a kind wins.
	for i := len(catalogue.Versions) - 1; i >= 0; i-- {
		version := catalogue.Versions[i].Name
		if !contains(c.versions, version) || (opts.Version != "" && version != opts.Version) {
			continue
		}
		if err := c.addVersion(disc, version); err != nil {
			return nil, err
		}
	}
	if c.version == "" {
		return nil, &NoVersionError{Served: c.versions, Wanted: opts.Version}
	}
	return c, nil
}

func (c *Client) addVersion(disc discovery.DiscoveryInterface, version string) error {
	gv := schema.GroupVersion{Group: resource.GroupName, Version: version}
	list, err := disc.ServerResourcesForGroupVersion(gv.String())
	if err != nil {
		return fmt.Errorf("hubclient: discovering the resources of %s: %w", gv, err)
	}
	statuses := map[string]bool{}
	for _, r := range list.APIResources {
		if base, sub, ok := strings.Cut(r.Name, "/"); ok && sub == "status" {
			statuses[base] = true
		}
	}
	for _, r := range list.APIResources {
		if strings.Contains(r.Name, "/") {
			continue
		}
		factory, ok := backends[version][r.Kind]
		if !ok {
			// A kind drakit does not have (a later release's addition).
			continue
		}
		hubKind, err := conversion.HubKind(gv.WithKind(r.Kind))
		if err != nil {
			continue
		}
		if _, taken := c.served[hubKind]; taken {
			continue
		}
		var kind catalogue.Kind
		if v, err := catalogue.Lookup(version); err == nil {
			kind, _ = v.Kind(r.Kind)
		}
		c.served[hubKind] = served{
			version: version, kind: r.Kind, resource: r.Name,
			namespaced: r.Namespaced, status: statuses[r.Name], backend: factory,
			kubeAPI: kind.KubeAPI, labels: kind.SelectableFields(),
		}
		if c.version == "" {
			c.version = version
		}
	}
	return nil
}

// Version is the newest resource.k8s.io version drakit knows that the
// server serves, e.g. "v1alpha3".
func (c *Client) Version() string { return c.version }

// Clientsets are the clientsets the Client talks through, for callers that
// need to reach a served version directly (package hubclient/resourcev1
// passes v1 calls to client-go's typed client as they are).
func (c *Client) Clientsets() Clientsets { return c.cs }

// ServedVersions are all versions of resource.k8s.io the server serves, as
// discovery reported them (including ones drakit does not know).
func (c *Client) ServedVersions() []string { return append([]string(nil), c.versions...) }

// VersionFor reports the version used for a hub kind (DeviceClass,
// ResourceClaim, ...) and whether the server serves the kind at all.
func (c *Client) VersionFor(hubKind string) (string, bool) {
	s, ok := c.served[hubKind]
	return s.version, ok
}

func (c *Client) lookup(hubKind string) (served, error) {
	s, ok := c.served[hubKind]
	if !ok {
		var kinds []string
		for k := range c.served {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		return served{}, &NotServedError{Kind: hubKind, Served: c.versions, ServedKinds: kinds}
	}
	return s, nil
}

// NotServedError reports a kind that the server does not serve in any
// version drakit knows, for example PodSchedulingContext on Kubernetes 1.32
// and later, or ResourceSlice on 1.26.
type NotServedError struct {
	// Kind is the hub kind.
	Kind string
	// Served are the resource.k8s.io versions the server serves.
	Served []string
	// ServedKinds are the hub kinds the server does serve.
	ServedKinds []string
}

func (e *NotServedError) Error() string {
	return fmt.Sprintf("the server does not serve %s in any resource.k8s.io version drakit knows (it serves resource.k8s.io %s, with the kinds %s)",
		e.Kind, listOrNone(e.Served), listOrNone(e.ServedKinds))
}

// NoVersionError reports a server that serves none of drakit's versions of
// resource.k8s.io (or not the one Options.Version asks for).
type NoVersionError struct {
	// Served are the versions of resource.k8s.io the server serves.
	Served []string
	// Wanted is Options.Version, if it was set.
	Wanted string
}

func (e *NoVersionError) Error() string {
	want := strings.Join(knownVersions(), ", ")
	if e.Wanted != "" {
		want = e.Wanted
	}
	return fmt.Sprintf("the server serves resource.k8s.io %s, not %s: enable a version drakit knows on the API server (1.34 and later serve v1 by default; older releases need, for example, --runtime-config=resource.k8s.io/v1alpha3=true and the DynamicResourceAllocation feature gate)",
		listOrNone(e.Served), want)
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, ", ")
}

func known(version string) bool {
	return contains(knownVersions(), version)
}

func knownVersions() []string {
	var out []string
	for _, v := range catalogue.Versions {
		out = append(out, v.Name)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
