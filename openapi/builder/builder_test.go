package builder

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource/catalogue"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kube-openapi/pkg/spec3"
)

// TestPublishedFilesAreCurrent: the files under openapi/spec are what the
// builder builds now (hack/verify-codegen.sh checks the same for the whole
// tree; this points at the builder directly).
func TestPublishedFilesAreCurrent(t *testing.T) {
	dir := filepath.Join("..", "spec")
	check := func(name string, doc interface{}, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := Encode(doc)
		if err != nil {
			t.Fatal(err)
		}
		published, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != string(published) {
			t.Errorf("openapi/spec/%s is out of date; run hack/update-codegen.sh", name)
		}
	}
	v2, err := V2()
	check("swagger.json", v2, err)
	group, err := V3Group()
	check(V3FileName(""), group, err)
	for _, v := range Versions() {
		doc, err := V3(v)
		check(V3FileName(v), doc, err)
	}
}

func TestDefinitionName(t *testing.T) {
	for goName, want := range map[string]string{
		"github.com/drakit/drakit/apis/resource/v1alpha3.ResourceClaim": "io.k8s.api.resource.v1alpha3.ResourceClaim",
		"k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta":               "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
		"k8s.io/api/core/v1.NodeSelector":                               "io.k8s.api.core.v1.NodeSelector",
		"k8s.io/apimachinery/pkg/api/resource.Quantity":                 "io.k8s.apimachinery.pkg.api.resource.Quantity",
		"example/pkg.Type": "example.pkg.Type",
	} {
		if got := DefinitionName(goName); got != want {
			t.Errorf("DefinitionName(%q) = %q, want %q", goName, got, want)
		}
	}
}

// TestEveryVersionHasDetails: every version of the catalogue has the
// document details of its release, so that it has documents.
func TestEveryVersionHasDetails(t *testing.T) {
	for _, v := range catalogue.Versions {
		if _, ok := documentDetails[v.Rules]; !ok {
			t.Errorf("%s: no documentDetails for release 1.%d; add them to served.go", v.Name, v.Rules)
		}
		for _, k := range v.Kinds {
			if _, ok := documentDetails[v.RulesOf(k)]; !ok {
				t.Errorf("%s %s: no documentDetails for release 1.%d; add them to served.go", v.Name, k.Name, v.RulesOf(k))
			}
		}
	}
	if len(served) != len(catalogue.Versions) {
		t.Errorf("documents for %v, the catalogue has %s", Versions(), catalogue.Names())
	}
}

func operation(doc *spec3.OpenAPI, path, method string) *spec3.Operation {
	item, ok := doc.Paths.Paths[path]
	if !ok {
		return nil
	}
	switch method {
	case "get":
		return item.Get
	case "put":
		return item.Put
	case "post":
		return item.Post
	case "patch":
		return item.Patch
	case "delete":
		return item.Delete
	}
	return nil
}

// TestOperations checks operation IDs, actions and query parameters of a
// few operations against the real servers' documents.
func TestOperations(t *testing.T) {
	type op struct {
		version, path, method, id, action string
		params                            []string
	}
	listParams := []string{"allowWatchBookmarks", "continue", "fieldSelector", "labelSelector", "limit", "resourceVersion", "resourceVersionMatch", "sendInitialEvents", "timeoutSeconds", "watch"}
	listParamsSharded := []string{"allowWatchBookmarks", "continue", "fieldSelector", "labelSelector", "limit", "resourceVersion", "resourceVersionMatch", "sendInitialEvents", "shardSelector", "timeoutSeconds", "watch"}
	for _, tc := range []op{
		{"v1alpha3", "/apis/resource.k8s.io/v1alpha3/namespaces/{namespace}/resourceclaims", "get", "listResourceV1alpha3NamespacedResourceClaim", "list", listParams},
		// 1.26 did not have sendInitialEvents yet.
		{"v1alpha1", "/apis/resource.k8s.io/v1alpha1/namespaces/{namespace}/podschedulings", "get", "listResourceV1alpha1NamespacedPodScheduling", "list",
			[]string{"allowWatchBookmarks", "continue", "fieldSelector", "labelSelector", "limit", "resourceVersion", "resourceVersionMatch", "timeoutSeconds", "watch"}},
		{"v1alpha1", "/apis/resource.k8s.io/v1alpha1/namespaces/{namespace}/podschedulings", "delete", "deleteResourceV1alpha1CollectionNamespacedPodScheduling", "deletecollection",
			[]string{"continue", "dryRun", "fieldSelector", "gracePeriodSeconds", "labelSelector", "limit", "orphanDependents", "propagationPolicy", "resourceVersion", "resourceVersionMatch", "timeoutSeconds"}},
		{"v1alpha2", "/apis/resource.k8s.io/v1alpha2/resourceslices/{name}", "patch", "patchResourceV1alpha2ResourceSlice", "patch", []string{"dryRun", "fieldManager", "fieldValidation", "force"}},
		{"v1alpha2", "/apis/resource.k8s.io/v1alpha2/resourceslices/{name}", "delete", "deleteResourceV1alpha2ResourceSlice", "delete", []string{"dryRun", "gracePeriodSeconds", "orphanDependents", "propagationPolicy"}},
		{"v1alpha3", "/apis/resource.k8s.io/v1alpha3/namespaces/{namespace}/resourceclaims/{name}/status", "put", "replaceResourceV1alpha3NamespacedResourceClaimStatus", "put", []string{"dryRun", "fieldManager", "fieldValidation"}},
		{"v1alpha3", "/apis/resource.k8s.io/v1alpha3/deviceclasses", "post", "createResourceV1alpha3DeviceClass", "post", []string{"dryRun", "fieldManager", "fieldValidation"}},
		{"v1alpha3", "/apis/resource.k8s.io/v1alpha3/watch/resourceclaims", "get", "watchResourceV1alpha3ResourceClaimListForAllNamespaces", "watchlist", nil},
		// v1alpha3's 1.31 kinds keep 1.31's parameters; its 1.37 kinds
		// have 1.37's (ignoreStoreReadErrorWithClusterBreakingPotential
		// from 1.32, shardSelector from 1.36).
		{"v1alpha3", "/apis/resource.k8s.io/v1alpha3/deviceclasses/{name}", "delete", "deleteResourceV1alpha3DeviceClass", "delete", []string{"dryRun", "gracePeriodSeconds", "orphanDependents", "propagationPolicy"}},
		{"v1alpha3", "/apis/resource.k8s.io/v1alpha3/devicetaintrules/{name}", "delete", "deleteResourceV1alpha3DeviceTaintRule", "delete", []string{"dryRun", "gracePeriodSeconds", "ignoreStoreReadErrorWithClusterBreakingPotential", "orphanDependents", "propagationPolicy"}},
		{"v1alpha3", "/apis/resource.k8s.io/v1alpha3/resourcepoolstatusrequests", "get", "listResourceV1alpha3ResourcePoolStatusRequest", "list", listParamsSharded},
		{"v1alpha3", "/apis/resource.k8s.io/v1alpha3/resourcepoolstatusrequests/{name}/status", "put", "replaceResourceV1alpha3ResourcePoolStatusRequestStatus", "put", []string{"dryRun", "fieldManager", "fieldValidation"}},
		{"v1beta1", "/apis/resource.k8s.io/v1beta1/namespaces/{namespace}/resourceclaims", "get", "listResourceV1beta1NamespacedResourceClaim", "list", listParamsSharded},
		{"v1beta2", "/apis/resource.k8s.io/v1beta2/devicetaintrules/{name}/status", "patch", "patchResourceV1beta2DeviceTaintRuleStatus", "patch", []string{"dryRun", "fieldManager", "fieldValidation", "force"}},
		{"v1", "/apis/resource.k8s.io/v1/devicetaintrules/{name}", "delete", "deleteResourceV1DeviceTaintRule", "delete", []string{"dryRun", "gracePeriodSeconds", "ignoreStoreReadErrorWithClusterBreakingPotential", "orphanDependents", "propagationPolicy"}},
		{"v1", "/apis/resource.k8s.io/v1/resourceslices", "delete", "deleteResourceV1CollectionResourceSlice", "deletecollection",
			[]string{"continue", "dryRun", "fieldSelector", "gracePeriodSeconds", "ignoreStoreReadErrorWithClusterBreakingPotential", "labelSelector", "limit", "orphanDependents", "propagationPolicy", "resourceVersion", "resourceVersionMatch", "sendInitialEvents", "shardSelector", "timeoutSeconds"}},
	} {
		doc, err := V3(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		o := operation(doc, tc.path, tc.method)
		if o == nil {
			t.Errorf("%s %s: no such operation", tc.method, tc.path)
			continue
		}
		if o.OperationId != tc.id {
			t.Errorf("%s %s: operation ID %s, want %s", tc.method, tc.path, o.OperationId, tc.id)
		}
		if got := o.Extensions[actionExtension]; got != tc.action {
			t.Errorf("%s %s: action %v, want %s", tc.method, tc.path, got, tc.action)
		}
		var params []string
		for _, p := range o.Parameters {
			params = append(params, p.Name)
		}
		if !reflect.DeepEqual(params, tc.params) {
			t.Errorf("%s %s: parameters %v, want %v", tc.method, tc.path, params, tc.params)
		}
	}
}

// TestOptionParamsPerRelease: a query parameter is only documented for the
// releases that knew it.
func TestOptionParamsPerRelease(t *testing.T) {
	names := func(minor int, options documentedOptions) []string {
		var out []string
		for _, p := range optionParams(release{minor: minor}, options) {
			out = append(out, p.name)
		}
		return out
	}
	has := func(list []string, s string) bool {
		for _, item := range list {
			if item == s {
				return true
			}
		}
		return false
	}
	if has(names(26, metav1.ListOptions{}), "sendInitialEvents") || !has(names(30, metav1.ListOptions{}), "sendInitialEvents") {
		t.Error("sendInitialEvents should start with 1.27")
	}
	if has(names(31, metav1.DeleteOptions{}), "ignoreStoreReadErrorWithClusterBreakingPotential") || !has(names(32, metav1.DeleteOptions{}), "ignoreStoreReadErrorWithClusterBreakingPotential") {
		t.Error("ignoreStoreReadErrorWithClusterBreakingPotential should start with 1.32")
	}
	if has(names(31, metav1.DeleteOptions{}), "preconditions") {
		t.Error("preconditions is a struct and cannot be a query parameter")
	}
}

// TestDeleteResponses: a DELETE of one object answers with the object,
// except for 1.37's v1 DeviceTaintRule, whose storage returns a Status
// (v1beta2's and v1alpha3's legacy storage returns the object).
func TestDeleteResponses(t *testing.T) {
	for _, tc := range []struct{ version, path, want string }{
		{"v1", "/apis/resource.k8s.io/v1/devicetaintrules/{name}", "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status"},
		{"v1beta2", "/apis/resource.k8s.io/v1beta2/devicetaintrules/{name}", "#/components/schemas/io.k8s.api.resource.v1beta2.DeviceTaintRule"},
		{"v1alpha3", "/apis/resource.k8s.io/v1alpha3/devicetaintrules/{name}", "#/components/schemas/io.k8s.api.resource.v1alpha3.DeviceTaintRule"},
		{"v1", "/apis/resource.k8s.io/v1/resourceslices/{name}", "#/components/schemas/io.k8s.api.resource.v1.ResourceSlice"},
		{"v1", "/apis/resource.k8s.io/v1/namespaces/{namespace}/resourceclaims/{name}", "#/components/schemas/io.k8s.api.resource.v1.ResourceClaim"},
	} {
		doc, err := V3(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		o := operation(doc, tc.path, "delete")
		if o == nil {
			t.Errorf("delete %s: no such operation", tc.path)
			continue
		}
		for _, code := range []int{200, 202} {
			r := o.Responses.StatusCodeResponses[code]
			if r == nil || r.Content["application/json"] == nil || r.Content["application/json"].Schema == nil {
				t.Errorf("delete %s: no %d response", tc.path, code)
				continue
			}
			if got := r.Content["application/json"].Schema.Ref.String(); got != tc.want {
				t.Errorf("delete %s: %d response %s, want %s", tc.path, code, got, tc.want)
			}
		}
	}
}

// TestSharedDefinitionsPerDocument: the shared definitions of a version's
// document are those of the newest release of its kinds: 1.31's lacked
// DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential (1.32),
// v1alpha3 (1.31 kinds and two 1.37 kinds) and v1 have it.
func TestSharedDefinitionsPerDocument(t *testing.T) {
	for version, want := range map[string]bool{"v1alpha1": false, "v1alpha2": false, "v1alpha3": true, "v1beta1": true, "v1": true} {
		doc, err := V3(version)
		if err != nil {
			t.Fatal(err)
		}
		_, has := doc.Components.Schemas["io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"].Properties["ignoreStoreReadErrorWithClusterBreakingPotential"]
		if has != want {
			t.Errorf("%s: DeleteOptions has ignoreStoreReadErrorWithClusterBreakingPotential: %v, want %v", version, has, want)
		}
	}
}

func TestV3UnknownVersion(t *testing.T) {
	if _, err := V3("v2"); err == nil || !strings.Contains(err.Error(), "v1alpha1 v1alpha2 v1alpha3 v1beta1 v1beta2 v1]") {
		t.Errorf("V3(v2) error = %v, want one naming the versions", err)
	}
}

func BenchmarkV3(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := V3("v1alpha3"); err != nil {
			b.Fatal(err)
		}
	}
}
