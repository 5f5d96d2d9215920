package admissionconfig

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/install"
)

// Served is what an API server serves of resource.k8s.io: for each
// version, the REST resources (plurals, without subresources) it serves
// in it. It is what the webhook configuration and the policy name, and
// what Lint holds rules against.
type Served struct {
	// Release is the server's minor release (33 for 1.33), or 0 when it
	// is not known.
	Release int
	// Resources maps a version ("v1beta1") to its resources, sorted.
	Resources map[string][]string
	// About says in a few words where the set comes from ("Kubernetes
	// 1.33", "the cluster's discovery (Kubernetes v1.33.13)").
	About string
}

// ServedByRelease is what the API server of Kubernetes 1.minor can serve,
// from drakit's catalogue: every kind registered in a version in that
// release, in any shape (catalogue.Kind.RegisteredIn: v1alpha3's core
// kinds in 1.32 and 1.33 count). A version that is off by default is
// served all the same: a cluster may enable it with --runtime-config, and
// a rule naming it is right; a rule leaving it out is a hole on those
// clusters.
func ServedByRelease(minor int) (*Served, error) {
	if minor < catalogue.FirstRelease || minor > catalogue.Release {
		return nil, fmt.Errorf("Kubernetes 1.%d: drakit knows what releases 1.%d to 1.%d serve of %s", minor, catalogue.FirstRelease, catalogue.Release, resource.GroupName)
	}
	s := &Served{Release: minor, Resources: map[string][]string{}, About: fmt.Sprintf("Kubernetes 1.%d", minor)}
	for _, v := range catalogue.Versions {
		for _, k := range v.Kinds {
			if k.RegisteredIn().Contains(minor) {
				s.Resources[v.Name] = append(s.Resources[v.Name], k.Resource)
			}
		}
	}
	for _, rs := range s.Resources {
		sort.Strings(rs)
	}
	return s, nil
}

// ServedFromDiscovery is what a live API server serves, from its
// discovery documents of resource.k8s.io (one APIResourceList per served
// version; subresources are dropped). minor is the server's release, 0
// when unknown; about says where the lists come from.
func ServedFromDiscovery(lists []*metav1.APIResourceList, minor int, about string) *Served {
	s := &Served{Release: minor, Resources: map[string][]string{}, About: about}
	for _, l := range lists {
		if l == nil {
			continue
		}
		group, version, ok := strings.Cut(l.GroupVersion, "/")
		if !ok || group != resource.GroupName {
			continue
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || slices.Contains(s.Resources[version], r.Name) {
				continue
			}
			s.Resources[version] = append(s.Resources[version], r.Name)
		}
		sort.Strings(s.Resources[version])
	}
	return s
}

// Versions are the served versions, newest first (the catalogue's order
// reversed; versions the catalogue does not know last, by name).
func (s *Served) Versions() []string {
	var out []string
	for v := range s.Resources {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := versionIndex(out[i]), versionIndex(out[j])
		if a != b {
			return a > b
		}
		return out[i] < out[j]
	})
	return out
}

func versionIndex(version string) int {
	for i, v := range catalogue.Versions {
		if v.Name == version {
			return i
		}
	}
	return -1
}

// Serves tells whether version serves resource ("resourceclaims"; a
// subresource "resourceclaims/status" counts as its resource).
func (s *Served) Serves(version, res string) bool {
	res, _, _ = strings.Cut(res, "/")
	return slices.Contains(s.Resources[version], res)
}

// VersionsOf are the versions that serve res, newest first.
func (s *Served) VersionsOf(res string) []string {
	var out []string
	for _, v := range s.Versions() {
		if s.Serves(v, res) {
			out = append(out, v)
		}
	}
	return out
}

// Release names the release for messages: "1.33", or "the cluster".
func (s *Served) release() string {
	if s.Release == 0 {
		return "the target"
	}
	return fmt.Sprintf("1.%d", s.Release)
}

// scheme has every version drakit knows, to find a kind's Go type.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
}()

// CarriesConfig tells whether objects of kind (its name in version)
// can hold drivers' opaque configuration: a field opaque
// (DeviceClass, ResourceClaim, ResourceClaimTemplate from v1alpha3 on) or
// vendorParameters (1.30's ResourceClaimParameters and
// ResourceClassParameters), found in the kind's Go type. The claims,
// templates and classes of v1alpha1 and v1alpha2 hold none: they name a
// parameters object instead.
func CarriesConfig(version, kind string) bool {
	gvk := schema.GroupVersionKind{Group: resource.GroupName, Version: version, Kind: kind}
	t, ok := scheme.AllKnownTypes()[gvk]
	if !ok {
		return false
	}
	return hasConfigField(t, map[reflect.Type]bool{})
}

// hasConfigField looks for a field named Opaque or VendorParameters in t,
// outside the status (an allocation's copy of the configs is the
// scheduler's, not the user's).
func hasConfigField(t reflect.Type, seen map[reflect.Type]bool) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return false
	}
	seen[t] = true
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		switch f.Name {
		case "Opaque", "VendorParameters":
			return true
		case "Status", "ObjectMeta", "TypeMeta":
			continue
		}
		if hasConfigField(f.Type, seen) {
			return true
		}
	}
	return false
}

// ConfigResources are the resources of version that can hold opaque
// configuration, as far as drakit's catalogue knows the version's kinds,
// among those s serves.
func (s *Served) ConfigResources(version string) []string {
	v, err := catalogue.Lookup(version)
	if err != nil {
		return nil
	}
	var out []string
	for _, k := range v.Kinds {
		if s.Serves(version, k.Resource) && CarriesConfig(version, k.Name) {
			out = append(out, k.Resource)
		}
	}
	sort.Strings(out)
	return out
}
