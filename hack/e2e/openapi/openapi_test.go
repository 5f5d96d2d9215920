// Package openapi compares drakit's published OpenAPI v3 document of the
// served version (openapi/spec/apis__resource.k8s.io__<version>_openapi.json)
// with the one the API server publishes at /openapi/v3, structurally:
// descriptions aside, and element schemas brought to one form on both sides
// (internal/specnorm), every schema, property, type, format, default,
// required list, extension and path must be the same. The differences that
// are expected are listed below, each with its reason; an unlisted
// difference fails the test, and so does a listed one that no longer
// occurs.
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
}

const (
	onlyServer = "only in the server's document"
	onlyDrakit = "only in drakit's document"
	differs    = "differs"
)

const (
	releaseVersion = "the server's document carries the release it was built from; drakit's document is not tied to a release"
	metaKinds      = "the server registers DeleteOptions and WatchEvent in every API group it serves and lists them all; drakit's document has only its own group"
	classicDRA     = "Kubernetes 1.32 removed classic DRA from v1alpha3 in place: controller, deallocationRequested, suitableNodes and PodSchedulingContext are gone"
	added133       = "added to v1alpha3 after 1.31 (1.32/1.33 alpha and beta features: prioritized list, device taints and tolerations, partitionable devices, device status, admin access in results); drakit's v1alpha3 is the 1.31 shape"
	requestReq     = "since 1.33 a request names deviceClassName or firstAvailable, so deviceClassName is no longer required"
	adminAcc       = "1.33 made adminAccess a pointer without a default (1.31: a boolean defaulting to false)"
	shardInfo      = "drakit's documents describe the shared meta/v1 types as apimachinery v0.37 defines them; ShardInfo (ListMeta.shardInfo) came with 1.36 (alpha, ShardedListAndWatch) and is set only for lists asked for with shardSelector, which the documents of 1.26-1.31 do not offer"
	statusDetails  = "1.27-1.33 marked the details of a Status (an object) with list-type atomic by mistake; apimachinery v0.37's definitions no longer do, and the marker never meant anything on an object"
	later137       = "drakit's v1alpha3 has DeviceTaintRule and ResourcePoolStatusRequest as 1.37 serves them: the rule's status subresource and the None effect came with 1.35, shardSelector with 1.36, ResourcePoolStatusRequest with 1.36"
	selector135    = "1.35 removed deviceClassName and selectors from a DeviceTaintRule's selector; drakit's v1alpha3 DeviceTaintRule is the 1.37 one"
	deleteOpt      = "DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential (and its delete query parameter) were added in Kubernetes 1.32"
)

func expectations(minor int) []expected {
	common := []expected{
		{"/info/version", differs, releaseVersion},
		{"/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions/x-kubernetes-group-version-kind", differs, metaKinds},
		{"/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent/x-kubernetes-group-version-kind", differs, metaKinds},
		{"/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ShardInfo", onlyDrakit, shardInfo},
		{"/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta/properties/shardInfo", onlyDrakit, shardInfo},
		{"/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status/properties/details/x-kubernetes-list-type", onlyServer, statusDetails},
	}
	if minor < 32 {
		return common
	}
	s := "/components/schemas/io.k8s.api.resource.v1alpha3."
	out := append(common,
		expected{s + "AllocationResult/properties/controller", onlyDrakit, classicDRA},
		expected{s + "DeviceClassSpec/properties/suitableNodes", onlyDrakit, classicDRA},
		expected{s + "ResourceClaimSpec/properties/controller", onlyDrakit, classicDRA},
		expected{s + "ResourceClaimStatus/properties/deallocationRequested", onlyDrakit, classicDRA},
		expected{s + "PodSchedulingContext", onlyDrakit, classicDRA},
		expected{s + "PodSchedulingContextList", onlyDrakit, classicDRA},
		expected{s + "PodSchedulingContextSpec", onlyDrakit, classicDRA},
		expected{s + "PodSchedulingContextStatus", onlyDrakit, classicDRA},
		expected{s + "ResourceClaimSchedulingStatus", onlyDrakit, classicDRA},
		expected{"/paths//apis/resource.k8s.io/v1alpha3/namespaces/{namespace}/podschedulingcontexts", onlyDrakit, classicDRA},
		expected{"/paths//apis/resource.k8s.io/v1alpha3/podschedulingcontexts", onlyDrakit, classicDRA},
		expected{"/paths//apis/resource.k8s.io/v1alpha3/watch/namespaces/{namespace}/podschedulingcontexts", onlyDrakit, classicDRA},
		expected{"/paths//apis/resource.k8s.io/v1alpha3/watch/podschedulingcontexts", onlyDrakit, classicDRA},
		expected{s + "DeviceRequest/required", differs, requestReq},
		expected{s + "DeviceRequest/properties/adminAccess/default", onlyDrakit, adminAcc},
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
		out = append(out, expected{s + name, onlyServer, added133})
	}
	// drakit's v1alpha3 has DeviceTaintRule and ResourcePoolStatusRequest
	// in their 1.37 shape.
	out = append(out,
		expected{s + "DeviceTaint/properties/effect/enum", differs, later137},
		expected{s + "DeviceTaintRule/properties/status", onlyDrakit, later137},
		expected{s + "DeviceTaintRuleStatus", onlyDrakit, later137},
		expected{s + "DeviceTaintSelector/properties/deviceClassName", onlyServer, selector135},
		expected{s + "DeviceTaintSelector/properties/selectors", onlyServer, selector135},
		expected{"/paths//apis/resource.k8s.io/v1alpha3/devicetaintrules/{name}/status", onlyDrakit, later137},
	)
	for _, p := range []string{"devicetaintrules/delete", "devicetaintrules/get", "watch/devicetaintrules", "watch/devicetaintrules/{name}"} {
		out = append(out, expected{"/paths//apis/resource.k8s.io/v1alpha3/" + p + "/parameters[shardSelector]", onlyDrakit, later137})
	}
	for _, name := range []string{"ResourcePoolStatusRequest", "ResourcePoolStatusRequestList", "ResourcePoolStatusRequestSpec",
		"ResourcePoolStatusRequestStatus", "PoolStatus", "PartitionTypeStatus", "ShareableSummaryStatus", "ShareableCapacityStatus"} {
		out = append(out, expected{s + name, onlyDrakit, later137})
	}
	for _, p := range []string{"resourcepoolstatusrequests", "watch/resourcepoolstatusrequests"} {
		out = append(out, expected{"/paths//apis/resource.k8s.io/v1alpha3/" + p, onlyDrakit, later137})
	}
	// The delete-collection and delete operations of every served kind have
	// the new query parameter.
	for _, p := range []string{"deviceclasses", "namespaces/{namespace}/resourceclaims", "namespaces/{namespace}/resourceclaimtemplates", "resourceslices"} {
		base := "/paths//apis/resource.k8s.io/v1alpha3/" + p
		out = append(out,
			expected{base + "/delete/parameters[ignoreStoreReadErrorWithClusterBreakingPotential]", onlyServer, deleteOpt},
			expected{base + "/{name}/delete/parameters[ignoreStoreReadErrorWithClusterBreakingPotential]", onlyServer, deleteOpt},
		)
	}
	return out
}

func TestOpenAPIMatchesServer(t *testing.T) {
	srv := e2eenv.Get(t)
	version := srv.ResourceVersion
	file := filepath.Join(specDir, "apis__resource.k8s.io__"+version+"_openapi.json")
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("drakit's published OpenAPI v3 document for %s: %v (hack/openapi-publish writes it)", version, err)
	}
	var mine any
	if err := json.Unmarshal(raw, &mine); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	serverRaw, err := srv.Discovery.RESTClient().Get().AbsPath("/openapi/v3/apis/resource.k8s.io/" + version).DoRaw(ctx)
	if err != nil {
		t.Fatalf("GET /openapi/v3/apis/resource.k8s.io/%s from kube-apiserver %s: %v", version, srv.KubeVersion, err)
	}
	var theirs any
	if err := json.Unmarshal(serverRaw, &theirs); err != nil {
		t.Fatal(err)
	}

	diffs := map[string]string{}
	compare(specnorm.Normalize(theirs), specnorm.Normalize(mine), "", diffs)

	rules := expectations(srv.Minor())
	used := make([]bool, len(rules))
	var paths []string
	for p := range diffs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	explained := 0
	for _, p := range paths {
		kind := diffs[p]
		found := false
		for i, r := range rules {
			if kind == r.kind && under(p, r.prefix) {
				used[i], found = true, true
				break
			}
		}
		if found {
			explained++
			continue
		}
		t.Errorf("%s: %s (not a listed difference)", p, kind)
	}
	for i, r := range rules {
		if !used[i] {
			t.Errorf("listed difference %s (%s, %s) does not occur any more; remove it", r.prefix, r.kind, r.reason)
		}
	}
	t.Logf("kube-apiserver %s, resource.k8s.io/%s: %d structural differences, all listed", srv.KubeVersion, version, explained)
	if testing.Verbose() {
		reasons := map[string][]string{}
		for _, p := range paths {
			for _, r := range rules {
				if diffs[p] == r.kind && under(p, r.prefix) {
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

// under reports whether path is prefix or inside it.
func under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/") || strings.HasPrefix(path, prefix+"[")
}

// compare records in diffs every place where server and drakit differ.
// Lists of objects that all have a "name" (operation parameters) are
// compared by name, other lists element by element.
func compare(server, drakit any, path string, diffs map[string]string) {
	switch s := server.(type) {
	case map[string]any:
		d, ok := drakit.(map[string]any)
		if !ok {
			diffs[path] = differs
			return
		}
		for k, sv := range s {
			dv, ok := d[k]
			if !ok {
				diffs[path+"/"+k] = onlyServer
				continue
			}
			compare(sv, dv, path+"/"+k, diffs)
		}
		for k := range d {
			if _, ok := s[k]; !ok {
				diffs[path+"/"+k] = onlyDrakit
			}
		}
	case []any:
		d, ok := drakit.([]any)
		if !ok {
			diffs[path] = differs
			return
		}
		sm, sok := byName(s)
		dm, dok := byName(d)
		if sok && dok {
			for n, sv := range sm {
				if dv, ok := dm[n]; ok {
					compare(sv, dv, fmt.Sprintf("%s[%s]", path, n), diffs)
				} else {
					diffs[fmt.Sprintf("%s[%s]", path, n)] = onlyServer
				}
			}
			for n := range dm {
				if _, ok := sm[n]; !ok {
					diffs[fmt.Sprintf("%s[%s]", path, n)] = onlyDrakit
				}
			}
			return
		}
		if len(s) != len(d) {
			diffs[path] = differs
			return
		}
		for i := range s {
			compare(s[i], d[i], fmt.Sprintf("%s/%d", path, i), diffs)
		}
	default:
		if !reflect.DeepEqual(server, drakit) {
			diffs[path] = differs
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
