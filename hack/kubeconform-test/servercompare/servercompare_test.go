// Package servercompare compares drakit's published OpenAPI documents
// (openapi/spec) with the ones the real API servers served, as the
// Kubernetes repository records them in api/openapi-spec of each release:
// v1alpha1 with 1.26.15, v1alpha2 with 1.30.14, v1alpha3's DeviceClass,
// ResourceClaim, ResourceClaimTemplate, PodSchedulingContext and
// ResourceSlice with 1.31.14, and v1alpha3's DeviceTaintRule and
// ResourcePoolStatusRequest, v1beta1, v1beta2 and v1 with 1.37.2.
//
// The documents are compared structurally, ignoring descriptions (drakit
// documents its types in its own words): every path, operation, parameter,
// response, definition, property, type, format, required list, default and
// x-kubernetes-* extension. The differences that remain are listed in
// knownDifferences with the reason for each; the test fails on any other
// difference, and on a listed one that no longer occurs.
//
// The Kubernetes modules are read from the module cache ("go mod
// download"), never imported.
package servercompare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/drakit/drakit/internal/specnorm"
)

// release is a Kubernetes release and the resource.k8s.io version it
// served, or some of that version's resources.
type release struct {
	// name is the comparison's name in knownDifferences: the version, or
	// the version and release when a version is compared with more than
	// one release.
	name       string
	kubernetes string // module version of k8s.io/kubernetes
	version    string
	// resources, when not nil, are the only REST resources compared: the
	// real document must serve exactly these, and only their paths and
	// the definitions those use are compared. drakit's v1alpha3 holds the
	// kinds of 1.31 as 1.31 served them and the two kinds 1.33-1.37 added
	// as 1.37 serves them; each release is compared on its own kinds.
	resources []string
}

var releases = []release{
	{name: "v1alpha1", kubernetes: "v1.26.15", version: "v1alpha1"},
	{name: "v1alpha2", kubernetes: "v1.30.14", version: "v1alpha2"},
	{name: "v1alpha3", kubernetes: "v1.31.14", version: "v1alpha3",
		resources: []string{"deviceclasses", "podschedulingcontexts", "resourceclaims", "resourceclaimtemplates", "resourceslices"}},
	{name: "v1alpha3@1.37", kubernetes: "v1.37.2", version: "v1alpha3",
		resources: []string{"devicetaintrules", "resourcepoolstatusrequests"}},
	{name: "v1beta1", kubernetes: "v1.37.2", version: "v1beta1"},
	{name: "v1beta2", kubernetes: "v1.37.2", version: "v1beta2"},
	{name: "v1", kubernetes: "v1.37.2", version: "v1"},
}

// difference is one place where the two documents differ.
type difference struct {
	pointer string // JSON pointer into the documents
	side    string // "real" or "ours": the only one that has it; "both": different values
	real    interface{}
	ours    interface{}
}

func (d difference) String() string {
	switch d.side {
	case "real":
		return fmt.Sprintf("%s: only the real document has %s", d.pointer, short(d.real))
	case "ours":
		return fmt.Sprintf("%s: only drakit's document has %s", d.pointer, short(d.ours))
	}
	return fmt.Sprintf("%s: real %s, drakit %s", d.pointer, short(d.real), short(d.ours))
}

func short(v interface{}) string {
	data, _ := json.Marshal(v)
	if len(data) > 200 {
		return string(data[:200]) + "..."
	}
	return string(data)
}

// knownDifference is a difference the test expects, with its reason.
// pattern is matched against the JSON pointer with path.Match (a "*"
// stands for one segment or part of one).
type knownDifference struct {
	document string // "v2", "v3", "v3 group" or "v2 group"; several separated by "|"
	// releases are the comparisons that show it: release names
	// ("v1alpha3", "v1alpha3@1.37"), or Kubernetes releases ("v1.26.15")
	// for the documents of the group's discovery path.
	releases []string
	pattern  string
	side     string
	// when, if set, must also hold for the difference: a pattern alone
	// cannot say which values may differ.
	when   func(d difference) bool
	reason string
}

// Comparison names for knownDifferences.
var (
	alphaVersions = []string{"v1alpha1", "v1alpha2", "v1alpha3"}
	// ofFollowed are the comparisons with the documents of the followed
	// release's server (1.37.2).
	ofFollowed     = []string{"v1alpha3@1.37", "v1beta1", "v1beta2", "v1"}
	allComparisons = append(append([]string(nil), alphaVersions...), ofFollowed...)
	// withNodeSelector are the comparisons whose documents use core/v1
	// NodeSelector (v1alpha3's 1.37 kinds do not).
	withNodeSelector = []string{"v1alpha1", "v1alpha2", "v1alpha3", "v1beta1", "v1beta2", "v1"}
)

// cborMediaTypes are the media types of the CBORServingAndStorage feature.
var cborMediaTypes = []string{"application/cbor", "application/cbor-seq", "application/apply-patch+cbor"}

// onlyCBORAdded tells whether the real list of media types is drakit's
// with CBOR media types added, and nothing else changed.
func onlyCBORAdded(d difference) bool {
	real, rok := d.real.([]interface{})
	ours, ook := d.ours.([]interface{})
	if !rok || !ook {
		return false
	}
	var kept []interface{}
	added := 0
	for _, item := range real {
		if s, ok := item.(string); ok && contains(cborMediaTypes, s) {
			added++
			continue
		}
		kept = append(kept, item)
	}
	return added > 0 && equal(kept, ours)
}

const cborReason = "Kubernetes' api/openapi-spec files are generated by a server with every alpha feature on " +
	"(hack/update-openapi-spec.sh: --feature-gates=AllAlpha=true,AllBeta=true,OpenAPIEnums=false), so 1.37's list the " +
	"CBOR media types of the CBORServingAndStorage feature, which is alpha and off by default in 1.37 " +
	"(a server with default gates neither accepts nor offers CBOR); drakit's documents are those of a server with default gates"

const enumReason = "a running API server lists the values of enum types (the OpenAPIEnums feature, beta and on by default " +
	"since 1.24; hack/e2e checks the operators against live 1.30 and 1.33 servers), but the files in api/openapi-spec " +
	"are generated with that feature off"

var knownDifferences = []knownDifference{
	{
		document: "v3", releases: alphaVersions, side: "both",
		pattern: "/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions/x-kubernetes-group-version-kind",
		reason: "the real servers of 1.26-1.31 list DeleteOptions as a kind of every group version of the cluster (about 60); " +
			"drakit's documents list the core group version and the document's own version only, as 1.37's do",
	},
	{
		document: "v3", releases: alphaVersions, side: "both",
		pattern: "/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent/x-kubernetes-group-version-kind",
		reason:  "as for DeleteOptions: the real list of 1.26-1.31 names every group version of the cluster",
	},
	{
		document: "v2", releases: allComparisons, side: "both",
		pattern: "/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions/x-kubernetes-group-version-kind",
		reason:  "every group version of the cluster in the real document; the core group and the six resource.k8s.io versions in drakit's",
	},
	{
		document: "v2", releases: allComparisons, side: "both",
		pattern: "/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent/x-kubernetes-group-version-kind",
		reason:  "every group version of the cluster in the real document; the core group and the six resource.k8s.io versions in drakit's",
	},
	{
		document: "v2", releases: allComparisons, side: "both",
		pattern: "/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status/x-kubernetes-group-version-kind",
		reason: "drakit's one v2 document holds every version, so Status is listed as the kind of " +
			"resource.k8s.io/v1alpha1 and v1alpha2 (whose releases registered it) in every comparison; " +
			"each real document lists only its own release's (1.31's and 1.37's: none)",
	},
	{
		document: "v3", releases: withNodeSelector, side: "ours",
		pattern: "/components/schemas/io.k8s.api.core.v1.NodeSelectorRequirement/properties/operator/enum",
		reason:  enumReason,
	},
	{
		document: "v2", releases: withNodeSelector, side: "ours",
		pattern: "/definitions/io.k8s.api.core.v1.NodeSelectorRequirement/properties/operator/enum",
		reason:  "as in the v3 documents: live servers list the enum, the committed api/openapi-spec files do not",
	},
	{
		document: "v3", releases: ofFollowed, side: "ours",
		pattern: "/components/schemas/io.k8s.api.resource.*/properties/*/enum",
		reason: "the enum types of the v1 era (allocation modes, config sources, taint effects, toleration operators): " +
			enumReason,
	},
	{
		document: "v3", releases: []string{"v1beta1", "v1beta2", "v1"}, side: "ours",
		pattern: "/components/schemas/io.k8s.api.resource.*/properties/skipNodeOperations/items/enum",
		reason:  "the SkipNodeOperation values of 1.37, an enum type in a list: " + enumReason,
	},
	{
		document: "v2", releases: ofFollowed, side: "ours",
		pattern: "/definitions/io.k8s.api.resource.*/properties/*/enum",
		reason:  "as in the v3 documents: live servers list the enum values, the committed api/openapi-spec files do not",
	},
	{
		document: "v2", releases: []string{"v1beta1", "v1beta2", "v1"}, side: "ours",
		pattern: "/definitions/io.k8s.api.resource.*/properties/skipNodeOperations/items/enum",
		reason:  "as in the v3 documents: live servers list the enum values, the committed api/openapi-spec files do not",
	},
	{
		document: "v2", releases: []string{"v1alpha1"}, side: "ours",
		pattern: "/definitions/io.k8s.*/properties/*/x-kubernetes-list-*",
		reason: "the v2 document describes the shared meta/v1 and core/v1 types as the newest release (1.37) does; " +
			"their list-type markers came with 1.27, so 1.26's document lacks them " +
			"(the v1alpha1 OpenAPI v3 document matches 1.26 exactly)",
	},
	{
		document: "v3", releases: alphaVersions, side: "ours",
		pattern: "/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ShardInfo",
		reason: "drakit's documents describe the shared meta/v1 types as apimachinery v0.37 defines them; " +
			"ShardInfo came with 1.36 (alpha, ShardedListAndWatch) and a server sets it only when a list was " +
			"asked for with shardSelector, which drakit's documents of 1.26-1.31 do not offer",
	},
	{
		document: "v2", releases: alphaVersions, side: "ours",
		pattern: "/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ShardInfo",
		reason: "drakit's documents describe the shared meta/v1 types as apimachinery v0.37 defines them; " +
			"ShardInfo came with 1.36 (alpha, ShardedListAndWatch) and a server sets it only when a list was " +
			"asked for with shardSelector, which drakit's documents of 1.26-1.31 do not offer",
	},
	{
		document: "v3", releases: alphaVersions, side: "ours",
		pattern: "/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta/properties/shardInfo",
		reason:  "as for ShardInfo: the ListMeta of apimachinery v0.37",
	},
	{
		document: "v2", releases: alphaVersions, side: "ours",
		pattern: "/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta/properties/shardInfo",
		reason:  "as for ShardInfo: the ListMeta of apimachinery v0.37",
	},
	{
		document: "v3", releases: []string{"v1alpha2", "v1alpha3"}, side: "real",
		pattern: "/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status/properties/details/x-kubernetes-list-type",
		reason: "1.27-1.31 marked the details of a Status (an object) with list-type atomic by mistake; " +
			"apimachinery v0.37's definitions no longer do, and the marker never meant anything on an object",
	},
	{
		document: "v2", releases: []string{"v1alpha2", "v1alpha3"}, side: "real",
		pattern: "/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status/properties/details/x-kubernetes-list-type",
		reason: "1.27-1.31 marked the details of a Status (an object) with list-type atomic by mistake; " +
			"apimachinery v0.37's definitions no longer do, and the marker never meant anything on an object",
	},
	{
		document: "v2", releases: alphaVersions, side: "ours",
		pattern: "/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions/properties/ignoreStoreReadErrorWithClusterBreakingPotential",
		reason: "the v2 document describes the shared meta/v1 types as the newest release (1.37) does; " +
			"DeleteOptions gained ignoreStoreReadErrorWithClusterBreakingPotential in 1.32 " +
			"(the v3 documents of v1alpha1 and v1alpha2 leave it out, as 1.26 and 1.30 did)",
	},
	{
		document: "v3", releases: []string{"v1alpha3"}, side: "ours",
		pattern: "/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions/properties/ignoreStoreReadErrorWithClusterBreakingPotential",
		reason: "drakit's v1alpha3 document also holds DeviceTaintRule and ResourcePoolStatusRequest as 1.37 serves them, " +
			"so its shared definitions are 1.37's, with the DeleteOptions field (1.32+) that those kinds' delete " +
			"operations take as a query parameter; the operations of the 1.31 kinds keep 1.31's parameters",
	},
	{
		document: "v3", releases: ofFollowed, side: "real",
		pattern: "/paths/*/*/responses/*/content/application~1cbor",
		reason:  cborReason,
	},
	{
		document: "v3", releases: ofFollowed, side: "real",
		pattern: "/paths/*/*/responses/*/content/application~1cbor-seq",
		reason:  cborReason,
	},
	{
		document: "v3", releases: ofFollowed, side: "real",
		pattern: "/paths/*/*/requestBody/content/application~1apply-patch+cbor",
		reason:  cborReason,
	},
	{
		document: "v2", releases: ofFollowed, side: "both", when: onlyCBORAdded,
		pattern: "/paths/*/*/produces",
		reason:  cborReason,
	},
	{
		document: "v2", releases: ofFollowed, side: "both", when: onlyCBORAdded,
		pattern: "/paths/*/*/consumes",
		reason:  cborReason,
	},
	{
		document: "v3 group", releases: []string{"v1.26.15"}, side: "ours",
		pattern: "/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup/properties/*/x-kubernetes-list-type",
		reason: "there is one document of the group's discovery path for all versions, shaped like the newest " +
			"release's; the list-type markers of meta/v1 came with 1.27",
	},
	{
		document: "v3 group", releases: []string{"v1.37.2"}, side: "real",
		pattern: "/paths/~1apis~1resource.k8s.io~1/get/responses/200/content/application~1cbor",
		reason:  cborReason,
	},
	{
		document: "v2 group", releases: []string{"v1.37.2"}, side: "both", when: onlyCBORAdded,
		pattern: "/get/*",
		reason:  cborReason,
	},
}

// moduleDir returns the directory of k8s.io/kubernetes@version in the
// module cache, downloading it if needed.
func moduleDir(t *testing.T, version string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", "k8s.io/kubernetes@"+version)
	cmd.Dir = t.TempDir() // outside of any module: nothing here changes
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOFLAGS=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || err != nil || info.Error != "" || info.Dir == "" {
		t.Fatalf("go mod download k8s.io/kubernetes@%s: %v %s %s %s", version, err, info.Error, stderr.Bytes(), out)
	}
	return info.Dir
}

// published is the directory of drakit's published documents.
func published(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "openapi", "spec"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func readJSON(t *testing.T, file string) interface{} {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return v
}

// normalized is a document with descriptions dropped and element schemas
// in one form, on both sides of every comparison (see internal/specnorm).
func normalized(v interface{}) interface{} {
	return specnorm.Normalize(v)
}

// compare lists the differences between real and ours.
func compare(real, ours interface{}, pointer string, out *[]difference) {
	rm, rok := real.(map[string]interface{})
	om, ook := ours.(map[string]interface{})
	if rok && ook {
		keys := map[string]bool{}
		for k := range rm {
			keys[k] = true
		}
		for k := range om {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			p := pointer + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
			rv, inReal := rm[k]
			ov, inOurs := om[k]
			switch {
			case !inOurs:
				*out = append(*out, difference{pointer: p, side: "real", real: rv})
			case !inReal:
				*out = append(*out, difference{pointer: p, side: "ours", ours: ov})
			default:
				compare(rv, ov, p, out)
			}
		}
		return
	}
	rl, rok := real.([]interface{})
	ol, ook := ours.([]interface{})
	if rok && ook && len(rl) == len(ol) {
		for i := range rl {
			compare(rl[i], ol[i], fmt.Sprintf("%s/%d", pointer, i), out)
		}
		return
	}
	if !equal(real, ours) {
		*out = append(*out, difference{pointer: pointer, side: "both", real: real, ours: ours})
	}
}

func equal(a, b interface{}) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// check fails on every difference that knownDifferences does not explain,
// and on every known difference of this comparison that did not occur.
func check(t *testing.T, document, version string, diffs []difference) {
	t.Helper()
	used := map[int]bool{}
	for _, d := range diffs {
		explained := false
		for i, k := range knownDifferences {
			if !k.appliesTo(document, version) || k.side != d.side || (k.when != nil && !k.when(d)) {
				continue
			}
			if ok, _ := path.Match(k.pattern, d.pointer); ok {
				explained, used[i] = true, true
				break
			}
		}
		if !explained {
			t.Errorf("%s", d)
		}
	}
	for i, k := range knownDifferences {
		if k.appliesTo(document, version) && !used[i] {
			t.Errorf("known difference %s (%s) no longer occurs; remove it from knownDifferences", k.pattern, k.reason)
		}
	}
}

// appliesTo tells whether k is expected in the comparison of document for
// version.
func (k knownDifference) appliesTo(document, version string) bool {
	return contains(strings.Split(k.document, "|"), document) && contains(k.releases, version)
}

func contains(list []string, s string) bool {
	for _, item := range list {
		if item == s {
			return true
		}
	}
	return false
}

// TestV3Documents compares each version's OpenAPI v3 document with the
// one its release's API server served.
func TestV3Documents(t *testing.T) {
	for _, r := range releases {
		t.Run(r.name, func(t *testing.T) {
			name := "apis__resource.k8s.io__" + r.version + "_openapi.json"
			real := readJSON(t, filepath.Join(moduleDir(t, r.kubernetes), "api", "openapi-spec", "v3", name))
			ours := readJSON(t, filepath.Join(published(t), name))
			if r.resources != nil {
				real = v3Part(t, real, r, true)
				ours = v3Part(t, ours, r, false)
			}
			var diffs []difference
			compare(normalized(real), normalized(ours), "", &diffs)
			check(t, "v3", r.name, diffs)
		})
	}
}

// TestV3GroupDocument compares the document of the group's discovery path
// with each release's. These comparisons are named by the Kubernetes
// release in knownDifferences ("v1.26.15").
func TestV3GroupDocument(t *testing.T) {
	const name = "apis__resource.k8s.io_openapi.json"
	ours := normalized(readJSON(t, filepath.Join(published(t), name)))
	seen := map[string]bool{}
	for _, r := range releases {
		if seen[r.kubernetes] {
			continue
		}
		seen[r.kubernetes] = true
		t.Run(r.kubernetes, func(t *testing.T) {
			real := readJSON(t, filepath.Join(moduleDir(t, r.kubernetes), "api", "openapi-spec", "v3", name))
			var diffs []difference
			compare(normalized(real), ours, "", &diffs)
			check(t, "v3 group", r.kubernetes, diffs)
		})
	}
}

// TestV2Document compares, per version, the part of drakit's OpenAPI v2
// document that belongs to the version with the same part of its
// release's swagger.json: the version's paths (with the shared parameters
// they refer to written out) and the definitions they use, plus the
// document's info and security.
func TestV2Document(t *testing.T) {
	ours := readJSON(t, filepath.Join(published(t), "swagger.json"))
	for _, r := range releases {
		t.Run(r.name, func(t *testing.T) {
			real := readJSON(t, filepath.Join(moduleDir(t, r.kubernetes), "api", "openapi-spec", "swagger.json"))
			var diffs []difference
			compare(normalized(versionPart(t, real, r, true)), normalized(versionPart(t, ours, r, false)), "", &diffs)
			check(t, "v2", r.name, diffs)
		})
	}
	// The group's discovery path, with the newest release's; this
	// comparison is named by its Kubernetes release in knownDifferences.
	t.Run("group", func(t *testing.T) {
		newest := releases[len(releases)-1].kubernetes
		real := readJSON(t, filepath.Join(moduleDir(t, newest), "api", "openapi-spec", "swagger.json"))
		var diffs []difference
		compare(normalized(groupPath(t, real)), normalized(groupPath(t, ours)), "", &diffs)
		check(t, "v2 group", newest, diffs)
	})
}

// resourceOf is the REST resource a path of version belongs to, "" for
// the version's discovery path and for paths of other versions.
func resourceOf(p, version string) string {
	rest, ok := strings.CutPrefix(p, "/apis/resource.k8s.io/"+version+"/")
	if !ok {
		return ""
	}
	rest = strings.TrimPrefix(rest, "watch/")
	if after, ok := strings.CutPrefix(rest, "namespaces/{namespace}/"); ok {
		rest = after
	}
	resource, _, _ := strings.Cut(rest, "/")
	return resource
}

// keepPath tells whether the comparison r covers path p, a path under the
// version's prefix. On the real side, a path of a resource r does not
// list fails the test: the real server must serve exactly r.resources.
func keepPath(t *testing.T, p string, r release, real bool) bool {
	t.Helper()
	resource := resourceOf(p, r.version)
	if resource == "" || r.resources == nil || contains(r.resources, resource) {
		return true
	}
	if real {
		t.Fatalf("the real document of %s (%s) has path %s, of a resource the comparison leaves out", r.version, r.kubernetes, p)
	}
	return false
}

// v3Part cuts the part of an OpenAPI v3 document that belongs to the
// resources of r: their paths and the version's discovery path, and the
// schemas those use.
func v3Part(t *testing.T, doc interface{}, r release, real bool) interface{} {
	t.Helper()
	root, _ := doc.(map[string]interface{})
	paths, _ := root["paths"].(map[string]interface{})
	components, _ := root["components"].(map[string]interface{})
	schemas, _ := components["schemas"].(map[string]interface{})

	kept := map[string]interface{}{}
	found := map[string]bool{}
	for p, item := range paths {
		if keepPath(t, p, r, real) {
			kept[p] = item
			found[resourceOf(p, r.version)] = true
		}
	}
	for _, resource := range r.resources {
		if real && !found[resource] {
			t.Fatalf("the real document of %s (%s) has no path of %s", r.version, r.kubernetes, resource)
		}
	}
	used := map[string]interface{}{}
	visitRefs(t, kept, "#/components/schemas/", schemas, used)

	out := map[string]interface{}{}
	for k, v := range root {
		out[k] = v
	}
	c := map[string]interface{}{}
	for k, v := range components {
		c[k] = v
	}
	c["schemas"] = used
	out["components"] = c
	out["paths"] = kept
	return out
}

// visitRefs adds to used every definition of defs that v refers to
// (through $refs starting with prefix), directly or not.
func visitRefs(t *testing.T, v interface{}, prefix string, defs, used map[string]interface{}) {
	t.Helper()
	switch x := v.(type) {
	case map[string]interface{}:
		if ref, ok := x["$ref"].(string); ok && strings.HasPrefix(ref, prefix) {
			name := strings.TrimPrefix(ref, prefix)
			if _, seen := used[name]; !seen {
				def, ok := defs[name]
				if !ok {
					t.Fatalf("$ref %s names no definition", ref)
				}
				used[name] = def
				visitRefs(t, def, prefix, defs, used)
			}
		}
		for _, item := range x {
			visitRefs(t, item, prefix, defs, used)
		}
	case []interface{}:
		for _, item := range x {
			visitRefs(t, item, prefix, defs, used)
		}
	}
}

func groupPath(t *testing.T, doc interface{}) interface{} {
	t.Helper()
	paths, _ := doc.(map[string]interface{})["paths"].(map[string]interface{})
	item, ok := paths["/apis/resource.k8s.io/"]
	if !ok {
		t.Fatal("no path /apis/resource.k8s.io/ in the OpenAPI v2 document")
	}
	return item
}

// versionPart cuts the part of an OpenAPI v2 document that belongs to the
// version (and resources) of r.
func versionPart(t *testing.T, doc interface{}, r release, real bool) map[string]interface{} {
	t.Helper()
	root, _ := doc.(map[string]interface{})
	paths, _ := root["paths"].(map[string]interface{})
	params, _ := root["parameters"].(map[string]interface{})
	defs, _ := root["definitions"].(map[string]interface{})

	prefix := "/apis/resource.k8s.io/" + r.version + "/"
	kept := map[string]interface{}{}
	for p, item := range paths {
		if strings.HasPrefix(p, prefix) && keepPath(t, p, r, real) {
			kept[p] = resolveParameters(t, item, params)
		}
	}
	if len(kept) == 0 {
		t.Fatalf("no paths under %s in the OpenAPI v2 document", prefix)
	}

	used := map[string]interface{}{}
	visitRefs(t, kept, "#/definitions/", defs, used)
	return map[string]interface{}{
		"swagger":             root["swagger"],
		"info":                root["info"],
		"security":            root["security"],
		"securityDefinitions": root["securityDefinitions"],
		"paths":               kept,
		"definitions":         used,
	}
}

// resolveParameters writes out the "#/parameters/..." references of a
// path item: the names the builder gives shared parameters carry a hash
// of their text, which differs with the descriptions.
func resolveParameters(t *testing.T, v interface{}, params map[string]interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		if ref, ok := x["$ref"].(string); ok && strings.HasPrefix(ref, "#/parameters/") {
			p, ok := params[strings.TrimPrefix(ref, "#/parameters/")]
			if !ok {
				t.Fatalf("$ref %s names no parameter", ref)
			}
			return p
		}
		out := make(map[string]interface{}, len(x))
		for k, item := range x {
			out[k] = resolveParameters(t, item, params)
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, item := range x {
			out[i] = resolveParameters(t, item, params)
		}
		return out
	default:
		return v
	}
}
