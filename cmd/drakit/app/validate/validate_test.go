package validate_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

// Golden cases of validate with the live rules: feature gates, Namespaces,
// --as-version resource.k8s.io/v1.
var validateGateCases = []cmdtesting.Case{
	{Name: "validate-v1-gates", Args: []string{"validate", "-f", cmdtesting.InputFile("v1-gates.yaml")}},
	{Name: "validate-v1-gates-on", Args: []string{"validate", "-f", cmdtesting.InputFile("v1-gates.yaml"), "--feature-gates", "DRADerivedAttributes=true,DRAListTypeAttributes=true"}},
	{Name: "validate-v1-gates-json", Args: []string{"validate", "-f", cmdtesting.InputFile("v1-gates.yaml"), "-o", "json"}},
	{Name: "validate-v1beta1-paths", Args: []string{"validate", "-f", cmdtesting.InputFile("v1-gates.yaml"), "--feature-gates", "DRADeviceTaints=false,DRADeviceTaintRules=false,AllAlpha=true"}},
	{Name: "validate-examples-v1-gates-off", Args: []string{"validate", "-f", "examples/v1", "--feature-gates", "DRADeviceTaints=false,DRADeviceTaintRules=false,DRAPartitionableDevices=false"}},
	{Name: "validate-namespaces", Args: []string{"validate", "-f", cmdtesting.InputFile("namespaces.yaml")}},
	{Name: "validate-namespaces-json", Args: []string{"validate", "-f", cmdtesting.InputFile("namespaces.yaml"), "-o", "json"}},
	{Name: "validate-as-v1", Args: []string{"validate", "-f", "examples/v1alpha2", "--as-version", "resource.k8s.io/v1"}},
	{Name: "validate-as-v1-gates", Args: []string{"validate", "-f", "examples/v1alpha1", "-R", "-f", cmdtesting.InputFile("v1-gates.yaml"), "--as-version", "resource.k8s.io/v1", "--feature-gates", "DRADeviceTaints=false,DRADeviceTaintRules=false"}},
	{Name: "validate-broken-v1", Args: []string{"validate", "-f", "examples/broken/v1", "-R"}},
	{Name: "usage-feature-gates-value", Args: []string{"validate", "-f", "examples/v1", "--feature-gates", "DRADeviceTaints=maybe"}},
	{Name: "usage-feature-gates-locked", Args: []string{"validate", "-f", "examples/v1", "--feature-gates", "DRAAdminAccess=false"}},
	{Name: "usage-feature-gates-dependency", Args: []string{"validate", "-f", "examples/v1", "--feature-gates", "DRADeviceTaints=false"}},
	{Name: "help-validate", Args: []string{"validate", "--help"}},
}

// factory is a fixed build, without a cluster.
var factory = cmdtesting.NewFactory()

func TestMain(m *testing.M) { cmdtesting.Main(m) }

var goldenCases = []cmdtesting.Case{
	{Name: "validate-examples", Args: []string{"validate", "-f", "examples", "-R"}},
	{Name: "validate-as-version", Args: []string{"validate", "-f", "examples/v1alpha3", "--as-version", "resource.k8s.io/v1alpha2"}},
	{Name: "validate-invalid", Args: []string{"validate", "-f", cmdtesting.InputFile("invalid.yaml")}},
	{Name: "validate-invalid-json", Args: []string{"validate", "-f", cmdtesting.InputFile("invalid.yaml"), "-f", cmdtesting.InputFile("unknown-field.yaml"), "-o", "json"}},
	{Name: "validate-quirks", Args: []string{"validate", "-f", cmdtesting.InputFile("quirks.yaml")}},
	{Name: "validate-reject-quirks", Args: []string{"validate", "-f", cmdtesting.InputFile("quirks.yaml"), "--reject-quirks"}},
	{Name: "validate-bad-input", Args: []string{"validate", "-f", cmdtesting.InputFile("mixed.yaml"), "-f", cmdtesting.InputFile("malformed.yaml")}},
	{Name: "validate-stdin", Args: []string{"validate", "-f", "-"}, Stdin: cmdtesting.InputFile("lists.yaml")},
	{Name: "validate-lint", Args: []string{"validate", "--lint", "-f", "examples/pools"}},
	{Name: "validate-lint-json", Args: []string{"validate", "--lint", "-f", "examples/pools", "-o", "json"}},
	{Name: "validate-lint-clean", Args: []string{"validate", "--lint", "-f", "examples/v1"}},
	{Name: "validate-lint-nodegroups", Args: []string{"validate", "--lint", "-f", cmdtesting.InputFile("lint-nodegroups.yaml")}},
	// Without --lint a node group is a document of another group.
	{Name: "validate-nodegroups", Args: []string{"validate", "-f", cmdtesting.InputFile("lint-nodegroups.yaml")}},
}

func TestGolden(t *testing.T) { cmdtesting.Golden(t, factory, goldenCases) }

func TestGoldenValidateGates(t *testing.T) { cmdtesting.Golden(t, factory, validateGateCases) }

// Warnings alone leave the exit code at 0 and go to standard error, one
// line per dropped field, naming the field and the gate.
func TestValidateGateWarningsKeepExitCode(t *testing.T) {
	in := []byte(`apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: team-a}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        tolerations: [{key: example.com/k, operator: Exists}]
`)
	code, stdout, stderr := cmdtesting.Run(factory, []string{"validate", "-f", "-", "--feature-gates", "DRADeviceTaints=false,DRADeviceTaintRules=false"}, in)
	if code != cmdutil.ExitOK {
		t.Errorf("exit code %d, want 0: %s%s", code, stdout, stderr)
	}
	want := `<stdin>:1: document 1: ResourceClaim.resource.k8s.io "c": warning: spec.devices.requests[0].exactly.tolerations would be dropped: feature gate DRADeviceTaints is off` + "\n"
	if stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	if !strings.Contains(stdout, "1 field would be dropped") {
		t.Errorf("the summary does not count the dropped field: %q", stdout)
	}
	// The same gates on: nothing dropped, nothing said.
	code, _, stderr = cmdtesting.Run(factory, []string{"validate", "-f", "-"}, in)
	if code != cmdutil.ExitOK || stderr != "" {
		t.Errorf("default gates: exit %d, stderr %q", code, stderr)
	}
}

// The admin-access rule with the labels of the input's Namespaces: the
// labelled namespace passes, the unlabelled one fails with the 1.37 path
// and message, an unknown one is not checked; a Namespace document is not
// counted as skipped.
func TestValidateAdminAccessNamespaces(t *testing.T) {
	code, stdout, stderr := cmdtesting.Run(factory, []string{"validate", "-f", cmdtesting.InputFile("namespaces.yaml"), "-o", "json"}, nil)
	if code != cmdutil.ExitFailure {
		t.Errorf("exit code %d, want 1", code)
	}
	// The parts of the report the test looks at, as a program reads them.
	type result struct {
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
		Valid     bool   `json:"valid"`
		Causes    []struct {
			Field   string `json:"field"`
			Message string `json:"message"`
		} `json:"causes"`
		Warnings []struct {
			Message string `json:"message"`
		} `json:"warnings"`
	}
	var report struct {
		Results []result `json:"results"`
		Summary struct {
			Objects int `json:"objects"`
			Skipped int `json:"skipped"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	got := map[string]result{}
	for _, r := range report.Results {
		got[r.Namespace+"/"+r.Name] = r
	}
	if r := got["ops/monitor"]; !r.Valid || len(r.Warnings) != 0 {
		t.Errorf("labelled namespace: %+v", r)
	}
	r := got["ml-training/sneaky"]
	if r.Valid || len(r.Causes) != 1 || r.Causes[0].Field != "spec.devices.requests[0].adminAccess" ||
		!strings.Contains(r.Causes[0].Message, "admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the containing namespace") {
		t.Errorf("unlabelled namespace: %+v", r)
	}
	if r := got["elsewhere/unknown-namespace"]; !r.Valid || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0].Message, `namespace "elsewhere" has no Namespace document`) {
		t.Errorf("unknown namespace: %+v", r)
	}
	if report.Summary.Skipped != 0 || report.Summary.Objects != 3 {
		t.Errorf("summary %+v: Namespaces are read, not skipped", report.Summary)
	}
	if stderr != "" {
		t.Errorf("stderr: %s", stderr)
	}
}

// The help lists every version with the release of its rules, from the
// catalogue.
func TestValidateHelpListsRulesOfEveryVersion(t *testing.T) {
	_, stdout, _ := cmdtesting.Run(factory, []string{"validate", "--help"}, nil)
	for _, v := range catalogue.Versions {
		if !strings.Contains(stdout, v.GroupVersion().String()) {
			t.Errorf("--help does not list %s", v.GroupVersion())
		}
	}
	for _, line := range []string{
		"resource.k8s.io/v1alpha3   Kubernetes 1.31; DeviceTaintRule, ResourcePoolStatusRequest: 1.37",
		"resource.k8s.io/v1beta1    Kubernetes 1.37",
		"resource.k8s.io/v1         Kubernetes 1.37",
	} {
		if !strings.Contains(stdout, line) {
			t.Errorf("--help lacks %q", line)
		}
	}
}

// Every broken v1-era example says in its first line which field is wrong
// ("# broken: <path>"), and drakit validate names exactly that field.
func TestBrokenExamplesNameTheirField(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("examples", "broken", "v1", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no broken examples: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			content, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(content), "\n")
			path, ok := strings.CutPrefix(first, "# broken: ")
			if !ok {
				t.Fatalf("first line %q does not say which field is broken", first)
			}
			code, stdout, stderr := cmdtesting.Run(factory, []string{"validate", "-f", file}, nil)
			if code != cmdutil.ExitFailure {
				t.Errorf("exit code %d, want 1", code)
			}
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			if len(lines) != 2 || !strings.Contains(lines[0], " is invalid: "+path+": ") {
				t.Errorf("want one invalid object with an error at %s, got:\n%s%s", path, stdout, stderr)
			}
		})
	}
}

// TestLiveGolden: validate --from-cluster against a fake 1.37 cluster
// (cmd/drakit/app/testdata/live/cluster.yaml).
func TestLiveGolden(t *testing.T) {
	cmdtesting.Golden(t, cmdtesting.NewFakeClusterFactory(t, "v1"), []cmdtesting.Case{
		{Name: "live-validate-edits", Args: []string{"validate", "--from-cluster", "-f", cmdtesting.AppDir + "/testdata/live/edits.yaml"}},
		{Name: "live-validate-lint", Args: []string{"validate", "--lint", "--from-cluster", "-f", cmdtesting.InputFile("lint-classes.yaml")}},
	})
}

// TestLiveValidate133: on a cluster serving v1alpha3 (1.31's rules, which
// have no admin-access rule), the edits are checked in v1alpha3.
func TestLiveValidate133(t *testing.T) {
	cmdtesting.Golden(t, cmdtesting.NewFakeClusterFactory(t, "v1alpha3"), []cmdtesting.Case{{Name: "live133-validate-edits", Args: []string{"validate", "--from-cluster", "-f", cmdtesting.AppDir + "/testdata/live/edits.yaml"}}})
}

// TestLiveValidateStatus: --subresource status checks a status update of
// the stored claim; a claim the cluster does not have cannot be one.
func TestLiveValidateStatus(t *testing.T) {
	cmdtesting.Golden(t, cmdtesting.NewFakeClusterFactory(t, "v1"), []cmdtesting.Case{{Name: "live-validate-status", Args: []string{"validate", "--from-cluster", "--subresource", "status", "-f", cmdtesting.AppDir + "/testdata/live/status-edits.yaml"}}})
}
