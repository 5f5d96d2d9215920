// Package catalogue is the one list of what drakit knows about
// resource.k8s.io: every served version with the Kubernetes releases that
// served it, and every kind of each version with its hub kind, REST
// resource (plural), scope, subresources and the fields its lists can select
// on.
//
// Everything else reads it: the scheme (apis/resource/install), conversion's
// kind names, the CLI's kind lookup and version command, the validators'
// dispatch, the OpenAPI builder and hubclient's negotiation and field
// selectors. Adding a version
// means adding its package and one entry to Versions.
package catalogue

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/drakit/drakit/apis/resource"
	v1 "github.com/drakit/drakit/apis/resource/v1"
	"github.com/drakit/drakit/apis/resource/v1alpha1"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
	"github.com/drakit/drakit/apis/resource/v1beta1"
	"github.com/drakit/drakit/apis/resource/v1beta2"
)

// Releases is a range of Kubernetes 1.x minor releases, both ends included:
// {26, 26} is 1.26 alone, {27, 30} is 1.27 to 1.30.
type Releases struct {
	First, Last int
}

// String writes the range as people write it: "1.26" or "1.27-1.30".
func (r Releases) String() string {
	if r.First == r.Last {
		return fmt.Sprintf("1.%d", r.First)
	}
	return fmt.Sprintf("1.%d-1.%d", r.First, r.Last)
}

// Contains tells whether minor release 1.minor is in the range.
func (r Releases) Contains(minor int) bool {
	return r.First <= minor && minor <= r.Last
}

// Kind is one kind of one version.
type Kind struct {
	// Name is the kind's name in this version (ResourceClass in v1alpha1).
	Name string
	// Hub is the hub's name for the same kind (DeviceClass). The hub uses
	// the newest name a kind ever had.
	Hub string
	// Resource is the REST resource, the lower-case plural
	// ("resourceclasses").
	Resource string
	// Namespaced tells whether objects of the kind live in a namespace.
	Namespaced bool
	// Status tells whether the kind has a status subresource.
	Status bool
	// Served are the releases whose API server served this kind in this
	// version.
	Served Releases
	// Registered, when not zero, are the releases whose API server
	// registered the kind's REST resource in this version in any shape,
	// where that is more than Served: v1alpha3's four core kinds were
	// served by 1.32 and 1.33 too, in a shape drakit does not have. An
	// upgrade check asks Registered (RegisteredIn); everything that
	// reads or writes objects asks Served.
	Registered Releases
	// Lifecycle, when set, is what this kind's prerelease-lifecycle
	// markers say where they differ from its version's (LifecycleOf).
	Lifecycle *Lifecycle
	// Rules, when not 0, is the release whose rules apply to this kind
	// where it differs from its version's: v1alpha3's DeviceTaintRule and
	// ResourcePoolStatusRequest are 1.37 kinds in a version whose other
	// kinds drakit has in their 1.31 shape.
	Rules int
	// KubeAPI tells whether the kind's Go types are k8s.io/api's, as
	// client-go's clients, listers and informers hand them out; drakit
	// generates clients only for the kinds k8s.io/api no longer has.
	KubeAPI bool
	// FieldLabels are the fields a list or watch of the kind can select on
	// in this version (metav1.ListOptions.FieldSelector). Nil means what
	// the API server allows every kind that registers no labels of its
	// own: metadata.name and metadata.namespace (see SelectableFields).
	FieldLabels []FieldLabel
}

// FieldLabel is a field that lists and watches of a kind can select on, as
// the API server of the releases that serve the kind registers it:
// AddFieldLabelConversionFunc in k8s.io/kubernetes'
// pkg/apis/resource/<version>/conversion.go decides which labels a request
// may name, GetAttrs in pkg/registry/resource/<kind>/strategy.go what
// they match.
type FieldLabel struct {
	// Name is the label in this version ("driverName" in v1alpha2).
	Name string
	// Hub is the hub's label for the same field, which is v1's
	// ("spec.driver"): the hub has v1's shape.
	Hub string
	// Since, when not 0, is the first release whose API server accepts the
	// label in this version; the releases before it that serve the kind
	// refuse it.
	Since int
}

// metadataLabels are what an API server lets a list select on for a kind
// that registers no field labels of its own
// (runtime.DefaultMetaV1FieldSelectorConversion).
var metadataLabels = []FieldLabel{
	{Name: "metadata.name", Hub: "metadata.name"},
	{Name: "metadata.namespace", Hub: "metadata.namespace"},
}

// The field labels of ResourceSlice. 1.30 names the top-level fields of
// its v1alpha2 slice; 1.31 moved them under spec, and 1.37 added the pool's
// name in the versions it serves then (v1, v1beta2, v1beta1). metadata.namespace
// is not among them: the slice's conversion function refuses what it does
// not list.
var (
	sliceLabelsV1alpha2 = []FieldLabel{
		{Name: "metadata.name", Hub: "metadata.name"},
		{Name: "nodeName", Hub: "spec.nodeName"},
		{Name: "driverName", Hub: "spec.driver"},
	}
	sliceLabelsV1alpha3 = []FieldLabel{
		{Name: "metadata.name", Hub: "metadata.name"},
		{Name: "spec.nodeName", Hub: "spec.nodeName"},
		{Name: "spec.driver", Hub: "spec.driver"},
	}
	sliceLabels = append(slices.Clip(sliceLabelsV1alpha3),
		FieldLabel{Name: "spec.pool.name", Hub: "spec.pool.name", Since: 37})
)

// SelectableFields are the labels a list or watch of the kind can select
// on in this version, at any release that serves it (see FieldLabel.Since).
func (k Kind) SelectableFields() []FieldLabel {
	if k.FieldLabels == nil {
		return metadataLabels
	}
	return k.FieldLabels
}

// FieldLabel finds the label of this version for the hub's label hub.
func (k Kind) FieldLabel(hub string) (FieldLabel, bool) {
	for _, l := range k.SelectableFields() {
		if l.Hub == hub {
			return l, true
		}
	}
	return FieldLabel{}, false
}

// RulesOf is the release whose rules apply to objects of kind k of v.
func (v Version) RulesOf(k Kind) int {
	if k.Rules != 0 {
		return k.Rules
	}
	return v.Rules
}

// OwnTypes tells whether drakit has Go types of its own for any kind of
// the version: those versions get drakit's generated clients, listers,
// informers and apply configurations.
func (v Version) OwnTypes() bool {
	for _, k := range v.Kinds {
		if !k.KubeAPI {
			return true
		}
	}
	return false
}

// ListName is the name of the kind's list type ("ResourceClassList").
func (k Kind) ListName() string { return k.Name + "List" }

// Version is one served version of resource.k8s.io.
type Version struct {
	// Name is the version ("v1alpha2").
	Name string
	// Served are the releases whose API server served the version, for
	// any of its kinds.
	Served Releases
	// Rules is the release whose validation rules drakit applies to
	// objects of this version: the newest release that served the
	// version in the shape drakit's types have.
	Rules int
	// EnabledByDefault are the releases whose API server served the
	// version without --runtime-config; zero for none (alpha and, since
	// 1.24, beta versions are off by default). Source:
	// pkg/controlplane/instance.go of each release (ga-facts.md §1.2).
	EnabledByDefault Releases
	// Lifecycle is what the +k8s:prerelease-lifecycle-gen markers of the
	// version's kinds say (a kind may differ: Kind.Lifecycle).
	Lifecycle Lifecycle
	// Kinds are the version's kinds, in the order the documentation lists
	// them (classes, claims, templates, then the rest).
	Kinds []Kind
	// AddToScheme registers the version's types, defaults and conversions.
	AddToScheme func(*runtime.Scheme) error
}

// GroupVersion is the version with its group.
func (v Version) GroupVersion() schema.GroupVersion {
	return schema.GroupVersion{Group: resource.GroupName, Version: v.Name}
}

// Kind finds a kind by its name in this version.
func (v Version) Kind(name string) (Kind, bool) {
	for _, k := range v.Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// HubKind finds the kind that the hub calls hub.
func (v Version) HubKind(hub string) (Kind, bool) {
	for _, k := range v.Kinds {
		if k.Hub == hub {
			return k, true
		}
	}
	return Kind{}, false
}

// Versions are the versions of resource.k8s.io that drakit knows, oldest
// first. The last one is the preferred version of the scheme.
var Versions = []Version{
	{
		Name:        "v1alpha1",
		Served:      Releases{26, 26},
		Rules:       26,
		Lifecycle:   Lifecycle{Introduced: 26, Source: "k8s.io/api v0.26 resource/v1alpha1/types.go markers (introduced only: no prerelease-lifecycle file for alpha); removed from the scheme in 1.27 (api-facts.md §0)"},
		AddToScheme: v1alpha1.AddToScheme,
		Kinds: []Kind{
			{Name: "ResourceClass", Hub: "DeviceClass", Resource: "resourceclasses", Served: Releases{26, 26}},
			{Name: "ResourceClaim", Hub: "ResourceClaim", Resource: "resourceclaims", Namespaced: true, Status: true, Served: Releases{26, 26}},
			{Name: "ResourceClaimTemplate", Hub: "ResourceClaimTemplate", Resource: "resourceclaimtemplates", Namespaced: true, Served: Releases{26, 26}},
			{Name: "PodScheduling", Hub: "PodSchedulingContext", Resource: "podschedulings", Namespaced: true, Status: true, Served: Releases{26, 26}},
		},
	},
	{
		// v1alpha2 as 1.30 served it, with structured parameters.
		Name:        "v1alpha2",
		Served:      Releases{27, 30},
		Rules:       30,
		Lifecycle:   Lifecycle{Introduced: 26, Source: "k8s.io/api v0.30 resource/v1alpha2/types.go markers (introduced=1.26, carried over from v1alpha1; no prerelease-lifecycle file for alpha); removed from the scheme in 1.31 (api-facts.md §0)"},
		AddToScheme: v1alpha2.AddToScheme,
		Kinds: []Kind{
			{Name: "ResourceClass", Hub: "DeviceClass", Resource: "resourceclasses", Served: Releases{27, 30}},
			{Name: "ResourceClaim", Hub: "ResourceClaim", Resource: "resourceclaims", Namespaced: true, Status: true, Served: Releases{27, 30}},
			{Name: "ResourceClaimTemplate", Hub: "ResourceClaimTemplate", Resource: "resourceclaimtemplates", Namespaced: true, Served: Releases{27, 30}},
			{Name: "PodSchedulingContext", Hub: "PodSchedulingContext", Resource: "podschedulingcontexts", Namespaced: true, Status: true, Served: Releases{27, 30}},
			{Name: "ResourceSlice", Hub: "ResourceSlice", Resource: "resourceslices", Served: Releases{30, 30}, FieldLabels: sliceLabelsV1alpha2},
			{Name: "ResourceClaimParameters", Hub: "ResourceClaimParameters", Resource: "resourceclaimparameters", Namespaced: true, Served: Releases{30, 30}},
			{Name: "ResourceClassParameters", Hub: "ResourceClassParameters", Resource: "resourceclassparameters", Namespaced: true, Served: Releases{30, 30}},
		},
	},
	{
		// v1alpha3: its four 1.31 kinds in their 1.31 shape (1.32 and 1.33
		// served them in another shape, which drakit does not have), and
		// the two kinds it served later in their 1.37 shape.
		Name:        "v1alpha3",
		Served:      Releases{31, 37},
		Rules:       31,
		Lifecycle:   Lifecycle{Introduced: 31, Deprecated: 34, Removed: 37, Replacement: "v1beta1", Source: "k8s.io/api v0.33 resource/v1alpha3/zz_generated.prerelease-lifecycle.go (ga-facts.md §1.1); the kinds were unregistered in 1.34 (pkg/registry/resource/rest/storage_resource.go)"},
		AddToScheme: v1alpha3.AddToScheme,
		Kinds: []Kind{
			{Name: "DeviceClass", Hub: "DeviceClass", Resource: "deviceclasses", Served: Releases{31, 31}, Registered: Releases{31, 33}},
			{Name: "ResourceClaim", Hub: "ResourceClaim", Resource: "resourceclaims", Namespaced: true, Status: true, Served: Releases{31, 31}, Registered: Releases{31, 33}},
			{Name: "ResourceClaimTemplate", Hub: "ResourceClaimTemplate", Resource: "resourceclaimtemplates", Namespaced: true, Served: Releases{31, 31}, Registered: Releases{31, 33}},
			{Name: "PodSchedulingContext", Hub: "PodSchedulingContext", Resource: "podschedulingcontexts", Namespaced: true, Status: true, Served: Releases{31, 31}, Lifecycle: &Lifecycle{Introduced: 26, Source: "k8s.io/api v0.31 resource/v1alpha3/types.go marker introduced=1.26; unregistered in 1.32 with classic DRA (ga-facts.md §1.1)"}},
			{Name: "ResourceSlice", Hub: "ResourceSlice", Resource: "resourceslices", Served: Releases{31, 31}, FieldLabels: sliceLabelsV1alpha3, Registered: Releases{31, 33}},
			{Name: "DeviceTaintRule", Hub: "DeviceTaintRule", Resource: "devicetaintrules", Status: true, Served: Releases{33, 37}, Rules: 37, KubeAPI: true, Lifecycle: &Lifecycle{Introduced: 33, Deprecated: 36, Removed: 39, Source: "k8s.io/api v0.37.2 resource/v1alpha3/zz_generated.prerelease-lifecycle.go"}},
			{Name: "ResourcePoolStatusRequest", Hub: "ResourcePoolStatusRequest", Resource: "resourcepoolstatusrequests", Status: true, Served: Releases{36, 37}, Rules: 37, KubeAPI: true, Lifecycle: &Lifecycle{Introduced: 36, Deprecated: 39, Removed: 42, Source: "k8s.io/api v0.37.2 resource/v1alpha3/zz_generated.prerelease-lifecycle.go"}},
		},
	},
	{
		// v1beta1 as 1.37 serves it (1.32-1.37; off by default from 1.33).
		Name:        "v1beta1",
		Served:      Releases{32, 37},
		Rules:       37,
		Lifecycle:   Lifecycle{Introduced: 32, Deprecated: 35, Removed: 38, Source: "k8s.io/api v0.37.2 resource/v1beta1/zz_generated.prerelease-lifecycle.go; the 1.37 server warns \"resource.k8s.io/v1beta1 ResourceSlice is deprecated in v1.35+, unavailable in v1.38+\" (users-and-releases.md §2)"},
		AddToScheme: v1beta1.AddToScheme,
		Kinds: []Kind{
			{Name: "DeviceClass", Hub: "DeviceClass", Resource: "deviceclasses", Served: Releases{32, 37}, KubeAPI: true},
			{Name: "ResourceClaim", Hub: "ResourceClaim", Resource: "resourceclaims", Namespaced: true, Status: true, Served: Releases{32, 37}, KubeAPI: true},
			{Name: "ResourceClaimTemplate", Hub: "ResourceClaimTemplate", Resource: "resourceclaimtemplates", Namespaced: true, Served: Releases{32, 37}, KubeAPI: true},
			{Name: "ResourceSlice", Hub: "ResourceSlice", Resource: "resourceslices", Served: Releases{32, 37}, KubeAPI: true, FieldLabels: sliceLabels},
		},
	},
	{
		// v1beta2 as 1.37 serves it (1.33-1.37).
		Name:        "v1beta2",
		Served:      Releases{33, 37},
		Rules:       37,
		Lifecycle:   Lifecycle{Introduced: 33, Deprecated: 36, Removed: 39, Source: "k8s.io/api v0.37.2 resource/v1beta2/zz_generated.prerelease-lifecycle.go"},
		AddToScheme: v1beta2.AddToScheme,
		Kinds: []Kind{
			{Name: "DeviceClass", Hub: "DeviceClass", Resource: "deviceclasses", Served: Releases{33, 37}, KubeAPI: true},
			{Name: "ResourceClaim", Hub: "ResourceClaim", Resource: "resourceclaims", Namespaced: true, Status: true, Served: Releases{33, 37}, KubeAPI: true},
			{Name: "ResourceClaimTemplate", Hub: "ResourceClaimTemplate", Resource: "resourceclaimtemplates", Namespaced: true, Served: Releases{33, 37}, KubeAPI: true},
			{Name: "ResourceSlice", Hub: "ResourceSlice", Resource: "resourceslices", Served: Releases{33, 37}, KubeAPI: true, FieldLabels: sliceLabels},
			{Name: "DeviceTaintRule", Hub: "DeviceTaintRule", Resource: "devicetaintrules", Status: true, Served: Releases{36, 37}, KubeAPI: true, Lifecycle: &Lifecycle{Introduced: 36, Deprecated: 39, Removed: 42, Source: "k8s.io/api v0.37.2 resource/v1beta2/zz_generated.prerelease-lifecycle.go"}},
		},
	},
	{
		// v1, served since 1.34 and enabled by default.
		Name:             "v1",
		Served:           Releases{34, 37},
		Rules:            37,
		EnabledByDefault: Releases{34, 37},
		Lifecycle:        Lifecycle{Introduced: 34, Source: "k8s.io/api v0.37.2 resource/v1/types.go (GA: no prerelease-lifecycle markers); on by default from 1.34 (pkg/controlplane/instance.go, stableAPIGroupVersionsEnabledByDefault)"},
		AddToScheme:      v1.AddToScheme,
		Kinds: []Kind{
			{Name: "DeviceClass", Hub: "DeviceClass", Resource: "deviceclasses", Served: Releases{34, 37}, KubeAPI: true},
			{Name: "ResourceClaim", Hub: "ResourceClaim", Resource: "resourceclaims", Namespaced: true, Status: true, Served: Releases{34, 37}, KubeAPI: true},
			{Name: "ResourceClaimTemplate", Hub: "ResourceClaimTemplate", Resource: "resourceclaimtemplates", Namespaced: true, Served: Releases{34, 37}, KubeAPI: true},
			{Name: "ResourceSlice", Hub: "ResourceSlice", Resource: "resourceslices", Served: Releases{34, 37}, KubeAPI: true, FieldLabels: sliceLabels},
			{Name: "DeviceTaintRule", Hub: "DeviceTaintRule", Resource: "devicetaintrules", Status: true, Served: Releases{37, 37}, KubeAPI: true, Lifecycle: &Lifecycle{Introduced: 37, Source: "k8s.io/api v0.37.2 resource/v1/types.go (GA: no prerelease-lifecycle markers)"}},
		},
	},
}

// Lookup finds a version by name ("v1alpha2").
func Lookup(version string) (Version, error) {
	for _, v := range Versions {
		if v.Name == version {
			return v, nil
		}
	}
	return Version{}, fmt.Errorf("unknown version %q of %s: drakit knows %s", version, resource.GroupName, Names())
}

// Names lists the versions, oldest first, as "v1alpha1, v1alpha2, ...".
func Names() string {
	names := make([]string, len(Versions))
	for i, v := range Versions {
		names[i] = v.Name
	}
	return strings.Join(names, ", ")
}

// GroupVersions are the versions with their group, oldest first.
func GroupVersions() []schema.GroupVersion {
	out := make([]schema.GroupVersion, len(Versions))
	for i, v := range Versions {
		out[i] = v.GroupVersion()
	}
	return out
}

// HubKinds lists every hub kind that some version serves, each once, in
// the order they first appear in Versions.
func HubKinds() []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range Versions {
		for _, k := range v.Kinds {
			if !seen[k.Hub] {
				seen[k.Hub] = true
				out = append(out, k.Hub)
			}
		}
	}
	return out
}

// KindIn returns how version names the hub kind hub. For a kind the
// version does not have it returns a *resource.KindNotInVersionError that
// lists the versions which do, with the kind's name in each.
func KindIn(hub, version string) (Kind, error) {
	v, err := Lookup(version)
	if err != nil {
		return Kind{}, err
	}
	if k, ok := v.HubKind(hub); ok {
		return k, nil
	}
	return Kind{}, notIn(hub, version, false)
}

// NameIn is KindIn for names: the name version gives to a hub kind or to a
// hub list kind ("DeviceClassList" is "ResourceClassList" in v1alpha1).
func NameIn(hub, version string) (string, error) {
	item, isList := strings.CutSuffix(hub, "List")
	if !isList {
		k, err := KindIn(hub, version)
		return k.Name, err
	}
	v, err := Lookup(version)
	if err != nil {
		return "", err
	}
	if k, ok := v.HubKind(item); ok {
		return k.ListName(), nil
	}
	return "", notIn(item, version, true)
}

// HubName is the hub's name for a kind or list kind of this version
// (DeviceClassList for v1alpha1's ResourceClassList).
func (v Version) HubName(kind string) (string, bool) {
	if k, ok := v.Kind(kind); ok {
		return k.Hub, true
	}
	if item, isList := strings.CutSuffix(kind, "List"); isList {
		if k, ok := v.Kind(item); ok {
			return k.Hub + "List", true
		}
	}
	return "", false
}

// notIn is the error for a hub kind, or its list when list is set, that
// version lacks; it lists the versions that have it, with its name in each.
func notIn(hub, version string, list bool) error {
	err := &resource.KindNotInVersionError{Kind: hub, Version: version}
	if list {
		err.Kind = hub + "List"
	}
	for _, other := range Versions {
		if k, ok := other.HubKind(hub); ok {
			name := k.Name
			if list {
				name = k.ListName()
			}
			err.Versions = append(err.Versions, fmt.Sprintf("%s (as %s)", other.Name, name))
		}
	}
	return err
}

// Find looks up what a user typed for a kind: its name or resource in any
// case ("resourceclaim", "ResourceClaim", "resourceclaims"), in version,
// or, when version is "", in the newest version that has it.
func Find(name, version string) (Version, Kind, bool) {
	for i := len(Versions) - 1; i >= 0; i-- {
		v := Versions[i]
		if version != "" && v.Name != version {
			continue
		}
		for _, k := range v.Kinds {
			if strings.EqualFold(name, k.Name) || strings.EqualFold(name, k.Resource) {
				return v, k, true
			}
		}
	}
	return Version{}, Kind{}, false
}

// Release is the Kubernetes minor release 1.N that drakit follows: its
// rules are those of the live code (validation of the served versions'
// current shape, the allocator, the device selectors' CEL environment),
// its feature gates those of apis/resource/features, and the k8s.io
// modules drakit builds on are of that release. Only frozen rules (1.26,
// 1.30, 1.31 validation) name another release. A test keeps the four in
// agreement (TestFollowedReleaseAgrees).
const Release = 37
