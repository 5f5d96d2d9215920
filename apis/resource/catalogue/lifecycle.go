package catalogue

import (
	"fmt"
)

// FirstRelease is the first Kubernetes minor release that served
// resource.k8s.io (v1alpha1 in 1.26).
const FirstRelease = 26

// Announced is the release after the one drakit follows: what drakit
// knows of it is only what the followed release announces (the
// prerelease-lifecycle markers of its types, which its API server repeats
// as warnings). AnnouncedIn says which facts those are.
const Announced = Release + 1

// Lifecycle is what a kind's +k8s:prerelease-lifecycle-gen markers say, as
// k8s.io/api's generated APILifecycleIntroduced, APILifecycleDeprecated and
// APILifecycleRemoved methods return them: minor releases of 1.x, 0 where
// there is no marker (alpha versions before 1.32 and GA versions have
// none). Removed is when the API server is to stop serving the kind in
// this version; the Served and Registered releases of the catalogue say
// when it did.
type Lifecycle struct {
	Introduced, Deprecated, Removed int
	// Replacement is the version the markers name as the replacement,
	// if any.
	Replacement string
	// Source says where the values were read.
	Source string
}

// LifecycleOf is the lifecycle of kind k of v: the kind's own where it
// has one, else the version's.
func (v Version) LifecycleOf(k Kind) Lifecycle {
	if k.Lifecycle != nil {
		return *k.Lifecycle
	}
	return v.Lifecycle
}

// RegisteredIn are the releases whose API server registered the kind's
// resource in this version, in any shape (see Kind.Registered).
func (k Kind) RegisteredIn() Releases {
	if k.Registered != (Releases{}) {
		return k.Registered
	}
	return k.Served
}

// IsZero tells whether the range is empty (the zero Releases).
func (r Releases) IsZero() bool { return r == Releases{} }

// Storage is the version an API server writes a kind's objects in (its
// storage version) over a range of releases.
type Storage struct {
	// Hub is the hub kind.
	Hub string
	// Releases are the releases that store the kind in Version.
	Releases Releases
	// Version is the storage version.
	Version string
	// Source says where the fact was read.
	Source string
}

// Storages are the storage versions of every hub kind in every release
// from FirstRelease to Release. Before 1.32 each release served one
// version and stored its kinds in it; from 1.32 on, the release's
// emulatedStorageVersion and the overrides of
// default_storage_factory_builder.go decide, as test/integration/etcd/data.go
// of each release states (TestStorageVersionsMatchUpstream reads them
// where the module cache has them).
var Storages = []Storage{
	{Hub: "DeviceClass", Releases: Releases{26, 26}, Version: "v1alpha1", Source: srcAlphaStorage},
	{Hub: "ResourceClaim", Releases: Releases{26, 26}, Version: "v1alpha1", Source: srcAlphaStorage},
	{Hub: "ResourceClaimTemplate", Releases: Releases{26, 26}, Version: "v1alpha1", Source: srcAlphaStorage},
	{Hub: "PodSchedulingContext", Releases: Releases{26, 26}, Version: "v1alpha1", Source: srcAlphaStorage},

	{Hub: "DeviceClass", Releases: Releases{27, 30}, Version: "v1alpha2", Source: srcAlphaStorage},
	{Hub: "ResourceClaim", Releases: Releases{27, 30}, Version: "v1alpha2", Source: srcAlphaStorage},
	{Hub: "ResourceClaimTemplate", Releases: Releases{27, 30}, Version: "v1alpha2", Source: srcAlphaStorage},
	{Hub: "PodSchedulingContext", Releases: Releases{27, 30}, Version: "v1alpha2", Source: srcAlphaStorage},
	{Hub: "ResourceSlice", Releases: Releases{30, 30}, Version: "v1alpha2", Source: srcAlphaStorage},
	{Hub: "ResourceClaimParameters", Releases: Releases{30, 30}, Version: "v1alpha2", Source: srcAlphaStorage},
	{Hub: "ResourceClassParameters", Releases: Releases{30, 30}, Version: "v1alpha2", Source: srcAlphaStorage},

	{Hub: "DeviceClass", Releases: Releases{31, 31}, Version: "v1alpha3", Source: srcAlphaStorage},
	{Hub: "ResourceClaim", Releases: Releases{31, 31}, Version: "v1alpha3", Source: srcAlphaStorage},
	{Hub: "ResourceClaimTemplate", Releases: Releases{31, 31}, Version: "v1alpha3", Source: srcAlphaStorage},
	{Hub: "PodSchedulingContext", Releases: Releases{31, 31}, Version: "v1alpha3", Source: srcAlphaStorage},
	{Hub: "ResourceSlice", Releases: Releases{31, 31}, Version: "v1alpha3", Source: srcAlphaStorage},

	{Hub: "DeviceClass", Releases: Releases{32, 33}, Version: "v1beta1", Source: srcBetaStorage},
	{Hub: "ResourceClaim", Releases: Releases{32, 33}, Version: "v1beta1", Source: srcBetaStorage},
	{Hub: "ResourceClaimTemplate", Releases: Releases{32, 33}, Version: "v1beta1", Source: srcBetaStorage},
	{Hub: "ResourceSlice", Releases: Releases{32, 33}, Version: "v1beta1", Source: srcBetaStorage},

	{Hub: "DeviceClass", Releases: Releases{34, 34}, Version: "v1beta2", Source: srcBetaStorage},
	{Hub: "ResourceClaim", Releases: Releases{34, 34}, Version: "v1beta2", Source: srcBetaStorage},
	{Hub: "ResourceClaimTemplate", Releases: Releases{34, 34}, Version: "v1beta2", Source: srcBetaStorage},
	{Hub: "ResourceSlice", Releases: Releases{34, 34}, Version: "v1beta2", Source: srcBetaStorage},

	{Hub: "DeviceClass", Releases: Releases{35, 37}, Version: "v1", Source: srcV1Storage},
	{Hub: "ResourceClaim", Releases: Releases{35, 37}, Version: "v1", Source: srcV1Storage},
	{Hub: "ResourceClaimTemplate", Releases: Releases{35, 37}, Version: "v1", Source: srcV1Storage},
	{Hub: "ResourceSlice", Releases: Releases{35, 37}, Version: "v1", Source: srcV1Storage},

	{Hub: "DeviceTaintRule", Releases: Releases{33, 36}, Version: "v1alpha3", Source: srcOverrideStorage},
	{Hub: "DeviceTaintRule", Releases: Releases{37, 37}, Version: "v1beta2", Source: srcOverrideStorage + `; the 1.37 override's comment: "v1 has higher priority, but to support downgrades v1beta2 is picked manually"`},
	{Hub: "ResourcePoolStatusRequest", Releases: Releases{36, 37}, Version: "v1alpha3", Source: srcOverrideStorage},
}

const (
	srcAlphaStorage    = "each release serves one version and stores in it (api-facts.md §0); test/integration/etcd/data.go of k8s.io/kubernetes v1.26.15, v1.30.14, v1.31.14"
	srcBetaStorage     = "pkg/apis/resource/install/install.go SetVersionPriority and k8s.io/apiserver emulatedStorageVersion; test/integration/etcd/data.go ExpectedGVK (ga-facts.md §1.3); k/k#127511 (v1beta1 storage from 1.32)"
	srcV1Storage       = "test/integration/etcd/data.go ExpectedGVK of k8s.io/kubernetes v1.35-v1.37 (ga-facts.md §1.3); k/k#133876 (v1 storage from 1.35, no downgrade to 1.33)"
	srcOverrideStorage = "pkg/kubeapiserver/default_storage_factory_builder.go override; test/integration/etcd/data.go ExpectedGVK (ga-facts.md §1.3)"
)

// StorageVersion is the version release 1.minor stores hub kind hub in.
// ok is false when that release does not have the kind, and for releases
// drakit does not know (after Release: see AnnouncedStorage).
func StorageVersion(hub string, minor int) (Storage, bool) {
	for _, s := range Storages {
		if s.Hub == hub && s.Releases.Contains(minor) {
			return s, true
		}
	}
	return Storage{}, false
}

// AnnouncedStorage is what drakit assumes of the storage version of hub
// kind hub in the Announced release: the followed release's. Nothing
// announces a change of storage version, and a storage version is never
// removed from the next release's scheme (that would make its objects
// unreadable).
func AnnouncedStorage(hub string) (Storage, bool) {
	s, ok := StorageVersion(hub, Release)
	if !ok {
		return s, false
	}
	s.Releases = Releases{Announced, Announced}
	s.Source = fmt.Sprintf("assumed: 1.%d's (%s); 1.%d announces no change", Release, s.Version, Release)
	return s, true
}

// KnownRelease tells whether drakit knows what 1.minor serves and stores:
// FirstRelease to Release, and Announced.
func KnownRelease(minor int) bool {
	return FirstRelease <= minor && minor <= Announced
}

// ServedKind is a kind that a release serves in a version.
type ServedKind struct {
	Version Version
	Kind    Kind
	// EnabledByDefault is whether the release serves the version without
	// --runtime-config.
	EnabledByDefault bool
	// Deprecated is whether the kind's lifecycle markers call it
	// deprecated in that release (the API server then warns on every
	// request).
	Deprecated bool
}

// ServedIn lists the versions in which release 1.minor registers the
// REST resource of hub kind hub (in any shape: Kind.Registered), oldest
// version first. For the Announced release it is what the followed
// release serves, less what its lifecycle markers remove.
func ServedIn(hub string, minor int) []ServedKind {
	var out []ServedKind
	for _, v := range Versions {
		k, ok := v.HubKind(hub)
		if !ok {
			continue
		}
		lc := v.LifecycleOf(k)
		at := minor
		if minor == Announced {
			if lc.Removed != 0 && lc.Removed <= Announced {
				continue
			}
			at = Release
		}
		if !k.RegisteredIn().Contains(at) {
			continue
		}
		out = append(out, ServedKind{
			Version:          v,
			Kind:             k,
			EnabledByDefault: v.EnabledByDefault.Contains(at),
			Deprecated:       lc.Deprecated != 0 && lc.Deprecated <= minor,
		})
	}
	return out
}

// Serves tells whether release 1.minor registers hub kind hub in version.
func Serves(hub, version string, minor int) (ServedKind, bool) {
	for _, s := range ServedIn(hub, minor) {
		if s.Version.Name == version {
			return s, true
		}
	}
	return ServedKind{}, false
}

// HubKindsIn lists the hub kinds that release 1.minor serves in some
// version.
func HubKindsIn(minor int) []string {
	var out []string
	for _, hub := range HubKinds() {
		if len(ServedIn(hub, minor)) > 0 {
			out = append(out, hub)
		}
	}
	return out
}

// Decodes tells whether an API server of release 1.minor can read objects
// of hub kind hub stored in version: it registers the kind in that version
// (an API server decodes every version it registers, enabled or not). For
// the Announced release, a version that its lifecycle removes from serving
// is still read when it was a storage version before: decoding it must stay
// for the objects stored in it (k/k#132275).
func Decodes(hub, version string, minor int) bool {
	if _, ok := Serves(hub, version, minor); ok {
		return true
	}
	if minor == Announced {
		for _, s := range Storages {
			if s.Hub == hub && s.Version == version {
				if _, ok := Serves(hub, version, Release); ok {
					return true
				}
			}
		}
	}
	return false
}

// PreferredIn is the version a client should use for hub kind hub with
// release 1.minor: the newest one enabled by default, else the newest
// served (which needs --runtime-config).
func PreferredIn(hub string, minor int) (ServedKind, bool) {
	served := ServedIn(hub, minor)
	for i := len(served) - 1; i >= 0; i-- {
		if served[i].EnabledByDefault {
			return served[i], true
		}
	}
	if len(served) == 0 {
		return ServedKind{}, false
	}
	return served[len(served)-1], true
}

// ReleaseFacts is what drakit knows of one release, for programs (drakit
// version -o json publishes it).
type ReleaseFacts struct {
	// Release is "1.33".
	Release string `json:"release"`
	// Announced is set for the release after the one drakit follows,
	// whose facts are what that one announces.
	Announced bool        `json:"announced,omitempty"`
	Kinds     []KindFacts `json:"kinds"`
	// Sources say where the facts of an announced release come from.
	Sources []string `json:"sources,omitempty"`
}

// KindFacts are one hub kind's versions and storage in one release.
type KindFacts struct {
	// Kind is the hub's name for the kind.
	Kind    string         `json:"kind"`
	Served  []VersionFacts `json:"served"`
	Storage string         `json:"storageVersion,omitempty"`
	// StorageSource says where the storage version was read.
	StorageSource string `json:"storageSource,omitempty"`
}

// VersionFacts is one version that serves a kind in a release.
type VersionFacts struct {
	Version          string `json:"version"`
	Name             string `json:"name"`
	Resource         string `json:"resource"`
	EnabledByDefault bool   `json:"enabledByDefault"`
	Introduced       string `json:"introduced,omitempty"`
	Deprecated       string `json:"deprecated,omitempty"`
	Removed          string `json:"removed,omitempty"`
	// Source says where the lifecycle was read.
	Source string `json:"source"`
}

// Facts lists, for every release from FirstRelease to Announced, every hub
// kind it has with the versions that serve it and its storage version,
// each with its source.
func Facts() []ReleaseFacts {
	var out []ReleaseFacts
	for minor := FirstRelease; minor <= Announced; minor++ {
		rf := ReleaseFacts{Release: fmt.Sprintf("1.%d", minor), Announced: minor == Announced}
		for _, hub := range HubKindsIn(minor) {
			kf := KindFacts{Kind: hub}
			for _, s := range ServedIn(hub, minor) {
				lc := s.Version.LifecycleOf(s.Kind)
				kf.Served = append(kf.Served, VersionFacts{
					Version: s.Version.Name, Name: s.Kind.Name, Resource: s.Kind.Resource,
					EnabledByDefault: s.EnabledByDefault,
					Introduced:       minorString(lc.Introduced), Deprecated: minorString(lc.Deprecated), Removed: minorString(lc.Removed),
					Source: lc.Source,
				})
			}
			st, ok := StorageVersion(hub, minor)
			if minor == Announced {
				st, ok = AnnouncedStorage(hub)
			}
			if ok {
				kf.Storage, kf.StorageSource = st.Version, st.Source
			}
			rf.Kinds = append(rf.Kinds, kf)
		}
		if minor == Announced {
			rf.Sources = []string{fmt.Sprintf("1.%d's prerelease-lifecycle markers (k8s.io/api v0.%d) and its API server's deprecation warnings; nothing else of 1.%d is known", Release, Release, Announced)}
		}
		out = append(out, rf)
	}
	return out
}

func minorString(minor int) string {
	if minor == 0 {
		return ""
	}
	return fmt.Sprintf("1.%d", minor)
}

// ParseRelease reads "1.33", "v1.33" or "v1.33.13" as minor 33. Only
// Kubernetes 1.x releases are known.
func ParseRelease(s string) (int, error) {
	t := s
	if len(t) > 0 && t[0] == 'v' {
		t = t[1:]
	}
	var major, minor int
	var rest string
	n, _ := fmt.Sscanf(t, "%d.%d%s", &major, &minor, &rest)
	if n < 2 || major != 1 || minor < 0 || (rest != "" && rest[0] != '.' && rest[0] != '-' && rest[0] != '+') {
		return 0, fmt.Errorf("release %q is not a Kubernetes release: write it as 1.<minor> (1.33)", s)
	}
	return minor, nil
}

// KnownReleases says which releases drakit knows, for messages.
func KnownReleases() string {
	return fmt.Sprintf("1.%d to 1.%d, and 1.%d as 1.%d announces it", FirstRelease, Release, Announced, Release)
}
