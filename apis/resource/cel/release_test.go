package cel

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/util/version"

	"github.com/drakit/drakit/apis/resource/catalogue"
)

// TestFollowedReleaseAgrees: the release drakit follows is one constant,
// catalogue.Release, and everything that depends on it agrees: the CEL
// environment of Release 0 is that release's, with its compatibility
// version (the release before); the k8s.io modules the main module builds
// on are of that release (k8s.io/apiserver, whose base environment and
// StoredExpressions half the environment takes; k8s.io/api, whose limits
// it uses; k8s.io/component-base, against whose feature gate
// apis/resource/features' gate table is fuzzed); and hack/allocbench
// measures against upstream's allocator of that release
// (k8s.io/dynamic-resource-allocation). Following a new release changes
// them together, or this fails.
func TestFollowedReleaseAgrees(t *testing.T) {
	r, err := releaseOf(0)
	if err != nil {
		t.Fatal(err)
	}
	if r.minor != catalogue.Release {
		t.Errorf("CEL environment of release 0 is 1.%d, catalogue.Release is 1.%d", r.minor, catalogue.Release)
	}
	if got, want := r.compatibilityVersion(), version.MajorMinor(1, uint(catalogue.Release-1)); !got.EqualTo(want) {
		t.Errorf("compatibility version %v, want %v", got, want)
	}
	if !r.limits || r.simpleGrammar == nil {
		t.Errorf("the followed release's environment lacks limits (%t) or the fast path (%t)", r.limits, r.simpleGrammar != nil)
	}

	root := filepath.Join("..", "..", "..")
	for file, modules := range map[string][]string{
		filepath.Join(root, "go.mod"):                       {"k8s.io/apiserver", "k8s.io/api", "k8s.io/component-base"},
		filepath.Join(root, "hack", "allocbench", "go.mod"): {"k8s.io/dynamic-resource-allocation"},
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range modules {
			found := regexp.MustCompile(`(?m)^\s*(?:require\s+)?` + regexp.QuoteMeta(m) + `\s+v0\.(\d+)\.\d+`).FindSubmatch(data)
			if found == nil {
				t.Errorf("%s: no requirement of %s", file, m)
				continue
			}
			if minor, _ := strconv.Atoi(string(found[1])); minor != catalogue.Release {
				t.Errorf("%s requires %s v0.%d, catalogue.Release is 1.%d", file, m, minor, catalogue.Release)
			}
		}
	}
}
