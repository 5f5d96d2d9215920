package catalogue_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/install"
)

// lifecycled is what k8s.io/api's zz_generated.prerelease-lifecycle.go
// gives a type.
type lifecycled interface {
	APILifecycleIntroduced() (major, minor int)
	APILifecycleDeprecated() (major, minor int)
	APILifecycleRemoved() (major, minor int)
}

// TestLifecycleMatchesKubeAPI holds the catalogue's lifecycle of every kind
// whose Go type is k8s.io/api's (v0.37.2) to the generated methods of
// that type and of its list, and a GA kind to having none.
func TestLifecycleMatchesKubeAPI(t *testing.T) {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	checked := 0
	for _, v := range catalogue.Versions {
		for _, k := range v.Kinds {
			if !k.KubeAPI {
				continue
			}
			lc := v.LifecycleOf(k)
			for _, name := range []string{k.Name, k.ListName()} {
				obj, err := scheme.New(v.GroupVersion().WithKind(name))
				if err != nil {
					t.Fatalf("%s %s: %v", v.Name, name, err)
				}
				l, ok := obj.(lifecycled)
				if !ok {
					if lc.Deprecated != 0 || lc.Removed != 0 {
						t.Errorf("%s %s: the catalogue says deprecated 1.%d, removed 1.%d; k8s.io/api's type has no lifecycle", v.Name, name, lc.Deprecated, lc.Removed)
					}
					continue
				}
				checked++
				for _, c := range []struct {
					what string
					f    func() (int, int)
					want int
				}{{"introduced", l.APILifecycleIntroduced, lc.Introduced}, {"deprecated", l.APILifecycleDeprecated, lc.Deprecated}, {"removed", l.APILifecycleRemoved, lc.Removed}} {
					major, minor := c.f()
					if major != 1 || minor != c.want {
						t.Errorf("%s %s %s: k8s.io/api says %d.%d, the catalogue 1.%d (%s)", v.Name, name, c.what, major, minor, c.want, lc.Source)
					}
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d types checked against k8s.io/api", checked)
	}
}

// TestStoragesConsistent holds the storage table to the rest of the
// catalogue: each release stores a kind in one version, which it serves,
// and has a storage version for every kind it serves.
func TestStoragesConsistent(t *testing.T) {
	for minor := catalogue.FirstRelease; minor <= catalogue.Release; minor++ {
		for _, hub := range catalogue.HubKinds() {
			n := 0
			for _, s := range catalogue.Storages {
				if s.Hub == hub && s.Releases.Contains(minor) {
					n++
					if _, ok := catalogue.Serves(hub, s.Version, minor); !ok {
						t.Errorf("1.%d stores %s as %s, which it does not serve", minor, hub, s.Version)
					}
					if s.Source == "" {
						t.Errorf("1.%d %s: no source", minor, hub)
					}
				}
			}
			served := len(catalogue.ServedIn(hub, minor)) > 0
			if served && n != 1 || !served && n != 0 {
				t.Errorf("1.%d %s: served %v, %d storage versions", minor, hub, served, n)
			}
		}
	}
}

// TestReleaseFacts checks the facts the issues and upgrades depend on,
// as ga-facts.md, api-facts.md and users-and-releases.md state them.
func TestReleaseFacts(t *testing.T) {
	served := func(hub string, minor int) string {
		var names []string
		for _, s := range catalogue.ServedIn(hub, minor) {
			n := s.Version.Name
			if s.EnabledByDefault {
				n += "*"
			}
			names = append(names, n)
		}
		return strings.Join(names, ",")
	}
	for _, c := range []struct {
		hub   string
		minor int
		want  string
	}{
		{"DeviceClass", 26, "v1alpha1"},
		{"DeviceClass", 30, "v1alpha2"},
		{"DeviceClass", 31, "v1alpha3"},
		{"DeviceClass", 32, "v1alpha3,v1beta1"},
		{"DeviceClass", 33, "v1alpha3,v1beta1,v1beta2"},
		{"DeviceClass", 34, "v1beta1,v1beta2,v1*"},
		{"DeviceClass", 37, "v1beta1,v1beta2,v1*"},
		{"DeviceClass", 38, "v1beta2,v1*"},
		{"ResourceSlice", 29, ""},
		{"PodSchedulingContext", 31, "v1alpha3"},
		{"PodSchedulingContext", 32, ""},
		{"DeviceTaintRule", 33, "v1alpha3"},
		{"DeviceTaintRule", 36, "v1alpha3,v1beta2"},
		{"DeviceTaintRule", 37, "v1alpha3,v1beta2,v1*"},
		{"DeviceTaintRule", 38, "v1alpha3,v1beta2,v1*"},
		{"ResourcePoolStatusRequest", 35, ""},
		{"ResourcePoolStatusRequest", 36, "v1alpha3"},
	} {
		if got := served(c.hub, c.minor); got != c.want {
			t.Errorf("1.%d serves %s in %q, want %q", c.minor, c.hub, got, c.want)
		}
	}
	for _, c := range []struct {
		hub, version string
		minor        int
		want         bool
	}{
		{"ResourceClaim", "v1alpha2", 31, false}, // 1.30 -> 1.31: unreadable
		{"ResourceClaim", "v1alpha3", 32, true},
		{"ResourceClaim", "v1alpha3", 34, false}, // stored before 1.32: rewrite before 1.34
		{"ResourceClaim", "v1beta1", 31, false},  // no downgrade 1.32 -> 1.31
		{"ResourceClaim", "v1beta2", 33, true},   // 1.34 -> 1.33 reads 1.34's storage
		{"ResourceClaim", "v1", 33, false},       // no downgrade 1.35 -> 1.33
		{"ResourceClaim", "v1beta1", 38, true},   // decoding stays (k/k#132275)
		{"DeviceTaintRule", "v1beta2", 36, true}, // 1.37's storage picked for downgrades
	} {
		if got := catalogue.Decodes(c.hub, c.version, c.minor); got != c.want {
			t.Errorf("1.%d decodes %s %s: %v, want %v", c.minor, c.version, c.hub, got, c.want)
		}
	}
	facts := catalogue.Facts()
	if len(facts) != catalogue.Announced-catalogue.FirstRelease+1 || !facts[len(facts)-1].Announced {
		t.Fatalf("Facts: %d releases, the last announced %v", len(facts), facts[len(facts)-1].Announced)
	}
	for _, rf := range facts {
		for _, kf := range rf.Kinds {
			if kf.Storage == "" || kf.StorageSource == "" {
				t.Errorf("%s %s: no storage version", rf.Release, kf.Kind)
			}
			for _, vf := range kf.Served {
				if vf.Source == "" {
					t.Errorf("%s %s %s: no source", rf.Release, kf.Kind, vf.Version)
				}
			}
		}
	}
}

func TestParseRelease(t *testing.T) {
	for in, want := range map[string]int{"1.33": 33, "v1.33.13": 33, "1.38": 38, "v1.30.14-gke.1": 30} {
		if got, err := catalogue.ParseRelease(in); err != nil || got != want {
			t.Errorf("ParseRelease(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "33", "2.1", "1.x", "1.33x", "v"} {
		if got, err := catalogue.ParseRelease(in); err == nil {
			t.Errorf("ParseRelease(%q) = %d, want an error", in, got)
		}
	}
}

// etcdEntry matches an entry of test/integration/etcd/data.go: the
// resource's group, version and plural, and the block up to the next
// entry, which may name the stored GVK.
var (
	etcdEntry    = regexp.MustCompile(`gvr\("resource\.k8s\.io", "(v[0-9a-z]+)", "([a-z]+)"\): \{`)
	etcdExpected = regexp.MustCompile(`ExpectedGVK:\s*gvkP\("resource\.k8s\.io", "(v[0-9a-z]+)", "([A-Za-z]+)"\)`)
)

// TestStorageVersionsMatchUpstream reads the storage version of every
// resource.k8s.io resource from test/integration/etcd/data.go of each
// k8s.io/kubernetes release in the module cache (the etcd test's
// ExpectedGVK, or the resource's own version where it names none) and
// compares it with Storages. Releases whose module is not in the cache
// are skipped (k8s.io/kubernetes is not a dependency of drakit; go mod
// download k8s.io/kubernetes@v1.N.M fetches one).
func TestStorageVersionsMatchUpstream(t *testing.T) {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env GOMODCACHE: %v", err)
	}
	dirs, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "k8s.io", "kubernetes@v1.*"))
	sort.Strings(dirs)
	seen := map[int]bool{}
	for _, dir := range dirs {
		var minor int
		if _, err := fmt.Sscanf(filepath.Base(dir), "kubernetes@v1.%d.", &minor); err != nil || seen[minor] {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, "test", "integration", "etcd", "data.go"))
		if err != nil {
			continue
		}
		seen[minor] = true
		text := string(data)
		locs := etcdEntry.FindAllStringSubmatchIndex(text, -1)
		for i, loc := range locs {
			version, plural := text[loc[2]:loc[3]], text[loc[4]:loc[5]]
			end := len(text)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			stored := version
			if m := etcdExpected.FindStringSubmatch(text[loc[1]:end]); m != nil {
				stored = m[1]
			}
			_, k, ok := catalogue.Find(plural, version)
			if !ok {
				t.Errorf("1.%d: %s %s is not in the catalogue", minor, version, plural)
				continue
			}
			s, ok := catalogue.StorageVersion(k.Hub, minor)
			if !ok || s.Version != stored {
				t.Errorf("1.%d stores %s as %s (%s), the catalogue says %q", minor, plural, stored, filepath.Base(dir), s.Version)
			}
		}
	}
	if len(seen) == 0 {
		t.Skip("no k8s.io/kubernetes module in the module cache")
	}
	t.Logf("checked against the etcd test data of %d releases", len(seen))
}
