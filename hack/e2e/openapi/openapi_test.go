// Package openapi compares drakit's published OpenAPI documents with the
// ones the API server publishes, for every resource.k8s.io version it
// serves: the v3 document of the version
// (openapi/spec/apis__resource.k8s.io__<version>_openapi.json against
// /openapi/v3/apis/resource.k8s.io/<version>), the v3 document of the
// group's discovery path, and the version's part of the v2 document
// (openapi/spec/swagger.json against /openapi/v2). The comparison is
// structural: descriptions aside, and element schemas brought to one form on
// both sides (internal/specnorm), every schema, property, type, format,
// default, required list, extension, path, operation and parameter must be
// the same. The differences that are expected are listed below, each with
// its reason; an unlisted difference fails the test, and so does a listed
// one that no longer occurs.
//
// Both sides are cut to the resources the release serves (compared): a
// kind of drakit's version that drakit's catalogue places in other releases
// (v1alpha3's 1.31 kinds on 1.37, its PodSchedulingContext on 1.33) is left
// out together with the schemas only it uses.
//
// On 1.37 (every version of the v1 era) nothing differs but the release in
// info.version and, in the v2 document, the group versions listed for the
// shared meta kinds. The same documents are compared offline, without a
// server, with the api/openapi-spec files of k8s.io/kubernetes of each
// release (1.37.2 included) by hack/kubeconform-test/servercompare; those
// files are generated with every alpha gate on and OpenAPIEnums off, so
// there CBOR media types only the files have and enum values only drakit's
// have are listed differences; a live server (CBOR off, enums on) shows
// neither.
package openapi

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
	"github.com/drakit/drakit/internal/specnorm"
)

const specDir = "../../../openapi/spec"

// expected is one known difference: every difference whose path is prefix
// or lies under it, of the given kind, is explained by reason.
type expected struct {
	prefix string
	kind   string // onlyServer, onlyDrakit or differs
	reason string
	// when, if set, must hold for the two values as well: a path alone
	// cannot say which values may differ.
	when func(server, drakit any) bool
}

// difference is what compare found at one path.
type difference struct {
	kind           string
	server, drakit any
}

// explains tells whether r explains the difference d at path p.
func (r expected) explains(p string, d difference) bool {
	return d.kind == r.kind && under(p, r.prefix) && (r.when == nil || r.when(d.server, d.drakit))
}

const (
	onlyServer = "only in the server's document"
	onlyDrakit = "only in drakit's document"
	differs    = "differs"
)

const (
	releaseVersion        = "the server's document carries the release it was built from; drakit's document is not tied to a release"
	metaKinds             = "the server registers DeleteOptions and WatchEvent in every API group it serves and lists them all; drakit's document has only its own group"
	classicDRA            = "Kubernetes 1.32 removed classic DRA from v1alpha3 in place: controller, deallocationRequested, suitableNodes and PodSchedulingContext are gone"
	addedAfterAlpha3      = "added to v1alpha3 after 1.31 (1.32/1.33 alpha and beta features: prioritized list, device taints and tolerations, partitionable devices, device status, admin access in results); drakit's v1alpha3 is the 1.31 shape"
	requestReq            = "since 1.33 a request names deviceClassName or firstAvailable, so deviceClassName is no longer required"
	adminAcc              = "1.33 made adminAccess a pointer without a default (1.31: a boolean defaulting to false)"
	shardInfo             = "drakit's documents describe the shared meta/v1 types as apimachinery v0.37 defines them; ShardInfo (ListMeta.shardInfo) came with 1.36 (alpha, ShardedListAndWatch) and is set only for lists asked for with shardSelector, which the documents of 1.26-1.31 do not offer"
	statusDetails         = "1.27-1.33 marked the details of a Status (an object) with list-type atomic by mistake; apimachinery v0.37's definitions no longer do, and the marker never meant anything on an object"
	alpha3LaterKinds      = "drakit's v1alpha3 has DeviceTaintRule and ResourcePoolStatusRequest as 1.37 serves them: the rule's status subresource and the None effect came with 1.35, shardSelector with 1.36, ResourcePoolStatusRequest with 1.36"
	taintSelectorNarrowed = "1.35 removed deviceClassName and selectors from a DeviceTaintRule's selector; drakit's v1alpha3 DeviceTaintRule is the 1.37 one"
	metaKindsV2           = "the server's v2 document lists DeleteOptions and WatchEvent as kinds of every group version of the cluster; drakit's one v2 document lists the core group and every resource.k8s.io version drakit knows (the entries of the versions this server serves are the same)"
	statusKindsV2         = "drakit's one v2 document lists Status as a kind of resource.k8s.io/v1alpha1 and v1alpha2, whose releases registered it; a server lists it only for the versions it serves that do (1.37: none)"
	deleteOptV2           = "drakit's one v2 document describes the shared meta/v1 types as 1.37 does; DeleteOptions gained ignoreStoreReadErrorWithClusterBreakingPotential in 1.32 (the v3 documents of the alpha versions leave it out, as their releases did)"
	deleteOpt             = "DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential (and its delete query parameter) were added in Kubernetes 1.32"
)

// expectations are the known differences of one document ("v3", "v3
// group" or "v2") on a release.
func expectations(srv *e2eenv.Server, document string) []expected {
	switch document {
	case "v3":
		return v3Expectations(srv.Minor())
	case "v2":
		return v2Expectations(srv)
	case "v3 group":
		return []expected{{"/info/version", differs, releaseVersion, nil}}
	}
	return nil
}

func v3Expectations(minor int) []expected {
	common := []expected{
		{"/info/version", differs, releaseVersion, nil},
	}
	// drakit's documents describe the shared meta/v1 types as 1.37 does,
	// and list only the core group and their own version for the meta
	// kinds, as 1.37's per-version documents do.
	if minor < 37 {
		common = append(common,
			expected{"/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions/x-kubernetes-group-version-kind", differs, metaKinds, nil},
			expected{"/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent/x-kubernetes-group-version-kind", differs, metaKinds, nil},
			expected{"/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ShardInfo", onlyDrakit, shardInfo, nil},
			expected{"/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta/properties/shardInfo", onlyDrakit, shardInfo, nil},
			expected{"/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status/properties/details/x-kubernetes-list-type", onlyServer, statusDetails, nil},
		)
	}
	if minor < 32 || minor >= 37 {
		return common
	}
	s := "/components/schemas/io.k8s.api.resource.v1alpha3."
	out := append(common,
		expected{s + "AllocationResult/properties/controller", onlyDrakit, classicDRA, nil},
		expected{s + "DeviceClassSpec/properties/suitableNodes", onlyDrakit, classicDRA, nil},
		expected{s + "ResourceClaimSpec/properties/controller", onlyDrakit, classicDRA, nil},
		expected{s + "ResourceClaimStatus/properties/deallocationRequested", onlyDrakit, classicDRA, nil},
		expected{s + "DeviceRequest/required", differs, requestReq, nil},
		expected{s + "DeviceRequest/properties/adminAccess/default", onlyDrakit, adminAcc, nil},
	)
	for _, name := range []string{"AllocatedDeviceStatus", "Counter", "CounterSet", "DeviceCounterConsumption", "DeviceSubRequest",
		"DeviceToleration", "NetworkDeviceData",
		"BasicDevice/properties/allNodes", "BasicDevice/properties/consumesCounters", "BasicDevice/properties/nodeName",
		"BasicDevice/properties/nodeSelector", "BasicDevice/properties/taints",
		"DeviceRequest/properties/firstAvailable", "DeviceRequest/properties/tolerations",
		"DeviceRequestAllocationResult/properties/adminAccess", "DeviceRequestAllocationResult/properties/tolerations",
		"ResourceClaimStatus/properties/devices",
		"ResourceSliceSpec/properties/perDeviceNodeSelection", "ResourceSliceSpec/properties/sharedCounters",
	} {
		out = append(out, expected{s + name, onlyServer, addedAfterAlpha3, nil})
	}
	// drakit's v1alpha3 has DeviceTaintRule in its 1.37 shape.
	out = append(out,
		expected{s + "DeviceTaint/properties/effect/enum", differs, alpha3LaterKinds, nil},
		expected{s + "DeviceTaintRule/properties/status", onlyDrakit, alpha3LaterKinds, nil},
		expected{s + "DeviceTaintRuleStatus", onlyDrakit, alpha3LaterKinds, nil},
		expected{s + "DeviceTaintSelector/properties/deviceClassName", onlyServer, taintSelectorNarrowed, nil},
		expected{s + "DeviceTaintSelector/properties/selectors", onlyServer, taintSelectorNarrowed, nil},
		expected{"/paths//apis/resource.k8s.io/v1alpha3/devicetaintrules/{name}/status", onlyDrakit, alpha3LaterKinds, nil},
	)
	for _, p := range []string{"devicetaintrules/delete", "devicetaintrules/get", "watch/devicetaintrules", "watch/devicetaintrules/{name}"} {
		out = append(out, expected{"/paths//apis/resource.k8s.io/v1alpha3/" + p + "/parameters[shardSelector]", onlyDrakit, alpha3LaterKinds, nil})
	}
	// The delete-collection and delete operations of every served kind have
	// the new query parameter.
	for _, p := range []string{"deviceclasses", "namespaces/{namespace}/resourceclaims", "namespaces/{namespace}/resourceclaimtemplates", "resourceslices"} {
		base := "/paths//apis/resource.k8s.io/v1alpha3/" + p
		out = append(out,
			expected{base + "/delete/parameters[ignoreStoreReadErrorWithClusterBreakingPotential]", onlyServer, deleteOpt, nil},
			expected{base + "/{name}/delete/parameters[ignoreStoreReadErrorWithClusterBreakingPotential]", onlyServer, deleteOpt, nil},
		)
	}
	return out
}

func v2Expectations(srv *e2eenv.Server) []expected {
	d := "/definitions/io.k8s.apimachinery.pkg.apis.meta.v1."
	sameKinds := sameResourceKinds(srv.ResourceVersions)
	out := []expected{
		{"/info/version", differs, releaseVersion, nil},
		{d + "DeleteOptions/x-kubernetes-group-version-kind", differs, metaKindsV2, sameKinds},
		{d + "WatchEvent/x-kubernetes-group-version-kind", differs, metaKindsV2, sameKinds},
		{d + "Status/x-kubernetes-group-version-kind", differs, statusKindsV2, sameKinds},
	}
	if srv.Minor() < 32 {
		out = append(out, expected{d + "DeleteOptions/properties/ignoreStoreReadErrorWithClusterBreakingPotential", onlyDrakit, deleteOptV2, nil})
	}
	// The rest is what the version's v3 document shows, under the names
	// of the v2 document.
	for _, e := range v3Expectations(srv.Minor()) {
		if e.reason == releaseVersion || e.reason == metaKinds {
			continue
		}
		if strings.HasSuffix(e.prefix, "/default") {
			// The v2 documents carry no defaults, the server's as drakit's.
			continue
		}
		e.prefix = strings.Replace(e.prefix, "/components/schemas/", "/definitions/", 1)
		out = append(out, e)
	}
	return out
}

// sameResourceKinds is the condition of the v2 group-version-kind lists of
// the shared meta kinds: the core group's entries are the same on both
// sides, and so are the resource.k8s.io entries of the versions the server
// serves; only other groups (the server's) and versions the server does
// not serve (drakit's) may differ.
func sameResourceKinds(served []string) func(server, drakit any) bool {
	pick := func(list any) (core, group []string, ok bool) {
		items, isList := list.([]any)
		if !isList {
			return nil, nil, false
		}
		for _, item := range items {
			m, _ := item.(map[string]any)
			g, _ := m["group"].(string)
			v, _ := m["version"].(string)
			k, _ := m["kind"].(string)
			switch {
			case g == "":
				core = append(core, v+"/"+k)
			case g == "resource.k8s.io" && contains(served, v):
				group = append(group, v+"/"+k)
			}
		}
		sort.Strings(core)
		sort.Strings(group)
		return core, group, true
	}
	return func(server, drakit any) bool {
		sc, sg, ok1 := pick(server)
		dc, dg, ok2 := pick(drakit)
		return ok1 && ok2 && reflect.DeepEqual(sc, dc) && reflect.DeepEqual(sg, dg)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestOpenAPIMatchesServer compares the v3 document of every version the
// server serves.
func TestOpenAPIMatchesServer(t *testing.T) {
	srv := e2eenv.Get(t)
	for _, version := range srv.ResourceVersions {
		t.Run(version, func(t *testing.T) {
			mine := readSpec(t, "apis__resource.k8s.io__"+version+"_openapi.json")
			theirs := serverDocument(t, srv, "/openapi/v3/apis/resource.k8s.io/"+version)
			keep := comparedResources(t, srv, version)
			checkDifferences(t, srv, "v3", version,
				specnorm.Normalize(v3Part(t, theirs, version, keep)), specnorm.Normalize(v3Part(t, mine, version, keep)))
		})
	}
}

// TestOpenAPIGroupMatchesServer compares the v3 document of the group's
// discovery path (/apis/resource.k8s.io/), which lists the served
// versions' APIGroup.
func TestOpenAPIGroupMatchesServer(t *testing.T) {
	srv := e2eenv.Get(t)
	mine := readSpec(t, "apis__resource.k8s.io_openapi.json")
	theirs := serverDocument(t, srv, "/openapi/v3/apis/resource.k8s.io")
	checkDifferences(t, srv, "v3 group", "", specnorm.Normalize(theirs), specnorm.Normalize(mine))
}

// TestOpenAPIv2MatchesServer compares, for every version the server serves,
// the version's part of drakit's v2 document with the same part of the
// server's /openapi/v2: the version's paths (with the shared parameters
// they refer to written out) and the definitions they use, with the
// document's info and security.
func TestOpenAPIv2MatchesServer(t *testing.T) {
	srv := e2eenv.Get(t)
	mine := readSpec(t, "swagger.json")
	theirs := serverDocument(t, srv, "/openapi/v2")
	for _, version := range srv.ResourceVersions {
		t.Run(version, func(t *testing.T) {
			keep := comparedResources(t, srv, version)
			checkDifferences(t, srv, "v2", version,
				specnorm.Normalize(v2Part(t, theirs, version, keep)), specnorm.Normalize(v2Part(t, mine, version, keep)))
		})
	}
}

func readSpec(t *testing.T, name string) any {
	t.Helper()
	file := filepath.Join(specDir, name)
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("drakit's published OpenAPI document %s: %v (hack/openapi-publish writes it)", file, err)
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return doc
}

func serverDocument(t *testing.T, srv *e2eenv.Server, path string) any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	raw, err := srv.Discovery.RESTClient().Get().AbsPath(path).SetHeader("Accept", "application/json").DoRaw(ctx)
	if err != nil {
		t.Fatalf("GET %s from kube-apiserver %s: %v", path, srv.KubeVersion, err)
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("GET %s from kube-apiserver %s: %v", path, srv.KubeVersion, err)
	}
	return doc
}

// checkDifferences fails on every difference between theirs and mine that
// the expectations of document do not explain, and on every expectation
// that explains none.
func checkDifferences(t *testing.T, srv *e2eenv.Server, document, version string, theirs, mine any) {
	t.Helper()
	diffs := map[string]difference{}
	compare(theirs, mine, "", diffs)

	rules := expectations(srv, document)
	used := make([]bool, len(rules))
	var paths []string
	for p := range diffs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	explained, unexplained := 0, 0
	for _, p := range paths {
		found := false
		for i, r := range rules {
			if r.explains(p, diffs[p]) {
				used[i], found = true, true
				break
			}
		}
		if found {
			explained++
			continue
		}
		unexplained++
		t.Errorf("%s: %s (not a listed difference): server %s, drakit %s", p, diffs[p].kind, short(diffs[p].server), short(diffs[p].drakit))
	}
	for i, r := range rules {
		if !used[i] {
			t.Errorf("listed difference %s (%s, %s) does not occur any more; remove it", r.prefix, r.kind, r.reason)
		}
	}
	what := "resource.k8s.io/" + version
	if version == "" {
		what = "resource.k8s.io"
	}
	nPaths, nSchemas := size(mine)
	t.Logf("kube-apiserver %s, %s document of %s (%d paths, %d schemas compared): %d listed structural differences, %d unlisted",
		srv.KubeVersion, document, what, nPaths, nSchemas, explained, unexplained)
	if testing.Verbose() {
		reasons := map[string][]string{}
		for _, p := range paths {
			for _, r := range rules {
				if r.explains(p, diffs[p]) {
					reasons[r.reason] = append(reasons[r.reason], p+" ("+r.kind+")")
					break
				}
			}
		}
		for reason, ps := range reasons {
			t.Logf("%s:\n  %s", reason, strings.Join(ps, "\n  "))
		}
	}
}

// size counts the paths and the schemas (v3) or definitions (v2) of a
// document, for the log: a comparison of nearly nothing shows there.
func size(doc any) (paths, schemas int) {
	root, _ := doc.(map[string]any)
	p, _ := root["paths"].(map[string]any)
	defs, _ := root["definitions"].(map[string]any)
	if components, ok := root["components"].(map[string]any); ok {
		defs, _ = components["schemas"].(map[string]any)
	}
	return len(p), len(defs)
}

// short is a value's JSON, cut for an error message.
func short(v any) string {
	raw, _ := json.Marshal(v)
	if len(raw) > 300 {
		return string(raw[:300]) + "..."
	}
	return string(raw)
}

// under reports whether path is prefix or inside it.
func under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/") || strings.HasPrefix(path, prefix+"[")
}

// compare records in diffs every place where server and drakit differ.
// Lists of objects that all have a "name" (operation parameters) are
// compared by name, other lists element by element.
func compare(server, drakit any, path string, diffs map[string]difference) {
	switch s := server.(type) {
	case map[string]any:
		d, ok := drakit.(map[string]any)
		if !ok {
			diffs[path] = difference{differs, server, drakit}
			return
		}
		for k, sv := range s {
			dv, ok := d[k]
			if !ok {
				diffs[path+"/"+k] = difference{onlyServer, sv, nil}
				continue
			}
			compare(sv, dv, path+"/"+k, diffs)
		}
		for k := range d {
			if _, ok := s[k]; !ok {
				diffs[path+"/"+k] = difference{onlyDrakit, nil, d[k]}
			}
		}
	case []any:
		d, ok := drakit.([]any)
		if !ok {
			diffs[path] = difference{differs, server, drakit}
			return
		}
		sm, sok := byName(s)
		dm, dok := byName(d)
		if sok && dok {
			for n, sv := range sm {
				if dv, ok := dm[n]; ok {
					compare(sv, dv, fmt.Sprintf("%s[%s]", path, n), diffs)
				} else {
					diffs[fmt.Sprintf("%s[%s]", path, n)] = difference{onlyServer, sv, nil}
				}
			}
			for n := range dm {
				if _, ok := sm[n]; !ok {
					diffs[fmt.Sprintf("%s[%s]", path, n)] = difference{onlyDrakit, nil, dm[n]}
				}
			}
			return
		}
		if len(s) != len(d) {
			diffs[path] = difference{differs, server, drakit}
			return
		}
		for i := range s {
			compare(s[i], d[i], fmt.Sprintf("%s/%d", path, i), diffs)
		}
	default:
		if !reflect.DeepEqual(server, drakit) {
			diffs[path] = difference{differs, server, drakit}
		}
	}
}

// byName indexes a list of objects by their "name" when every element has
// a distinct one.
func byName(list []any) (map[string]any, bool) {
	if len(list) == 0 {
		return nil, false
	}
	out := map[string]any{}
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, false
		}
		n, ok := m["name"].(string)
		if !ok {
			return nil, false
		}
		if _, dup := out[n]; dup {
			return nil, false
		}
		out[n] = e
	}
	return out, true
}
