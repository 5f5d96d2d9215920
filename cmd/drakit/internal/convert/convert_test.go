package convert

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
	"github.com/drakit/drakit/cmd/drakit/internal/printer"
)

func gv(version string) schema.GroupVersion {
	return schema.GroupVersion{Group: "resource.k8s.io", Version: version}
}

// run converts input and returns the output, the problems reported and
// the counts.
func run(t *testing.T, input string, opts Options, format printer.Format) (string, []string, Stats) {
	t.Helper()
	var problems []string
	c := &Converter{Options: opts, Report: func(e *manifest.Error, warning bool) {
		prefix := "error: "
		if warning {
			prefix = "warning: "
		}
		problems = append(problems, prefix+e.Error())
	}}
	var out bytes.Buffer
	st, err := c.Stream(printer.NewStream(&out, format), manifest.NewReader(strings.NewReader(input), "in.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), problems, st
}

const v1alpha1Claim = `# keep me
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata:
  name: gpu
  namespace: ns
spec:
  resourceClassName: gpu.example.com
`

const configMap = `apiVersion:   v1     # odd spacing stays
kind: ConfigMap
metadata: {name: cm}
data:
  key: "value"
`

func TestSameVersionAndOtherGroupsAreByteForByte(t *testing.T) {
	input := "---\n" + v1alpha1Claim + "---\n" + configMap + "--- # trailing comment\n"
	checkByteForByte(t, input, Options{Target: gv("v1alpha1"), Strict: true}, Stats{Unchanged: 1, Other: 1})
}

// checkByteForByte converts input as YAML with opts and wants it back
// exactly as it was, without problems and with the stats want.
func checkByteForByte(t *testing.T, input string, opts Options, want Stats) {
	t.Helper()
	out, problems, st := run(t, input, opts, printer.YAML)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	if out != input {
		t.Errorf("output differs from input:\n%s", cmp.Diff(input, out))
	}
	if st != want {
		t.Errorf("stats %+v, want %+v", st, want)
	}
}

func TestConvertKeepsCommentsOrderAndAddsNoNoise(t *testing.T) {
	input := v1alpha1Claim + "---\n" + configMap
	out, problems, st := run(t, input, Options{Target: gv("v1alpha3"), Strict: true}, printer.YAML)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	want := `# keep me
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: gpu
  namespace: ns
spec:
  devices:
    requests:
    - allocationMode: ExactCount
      count: 1
      deviceClassName: gpu.example.com
      name: resource
---
` + configMap
	if out != want {
		t.Errorf("unexpected output:\n%s", cmp.Diff(want, out))
	}
	if st != (Stats{Converted: 1, Other: 1}) {
		t.Errorf("stats %+v", st)
	}
}

func TestDefaultsOnlyWhenAsked(t *testing.T) {
	claim := `apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: gpu
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu.example.com
`
	out, _, st := run(t, claim, Options{Target: gv("v1alpha3"), Strict: true}, printer.YAML)
	if out != claim || st.Unchanged != 1 {
		t.Fatalf("without --defaults the claim must stay as it is:\n%s", out)
	}
	out, _, st = run(t, claim, Options{Target: gv("v1alpha3"), Strict: true, Defaults: true}, printer.YAML)
	if !strings.Contains(out, "allocationMode: ExactCount") || !strings.Contains(out, "count: 1") || st.Converted != 1 {
		t.Fatalf("--defaults did not default the request:\n%s", out)
	}
	// A claim whose defaults are all set already stays byte for byte.
	out, _, st = run(t, out, Options{Target: gv("v1alpha3"), Strict: true, Defaults: true}, printer.YAML)
	if st.Unchanged != 1 {
		t.Fatalf("a defaulted claim was rewritten: %+v\n%s", st, out)
	}
}

func TestListsAreConvertedItemByItem(t *testing.T) {
	input := `# a list as kubectl get prints it
apiVersion: v1
kind: List
metadata:
  resourceVersion: ""
items:
- apiVersion: resource.k8s.io/v1alpha2
  kind: ResourceClass
  metadata:
    name: gpu.example.com
  driverName: gpu.example.com
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: cm
  data:
    num: "1"
---
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceClaimList
metadata: {}
items:
- metadata:
    name: a
  spec:
    resourceClassName: gpu.example.com
`
	out, problems, st := run(t, input, Options{Target: gv("v1alpha3"), Strict: true}, printer.YAML)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	want := `# a list as kubectl get prints it
apiVersion: v1
items:
- apiVersion: resource.k8s.io/v1alpha3
  kind: DeviceClass
  metadata:
    name: gpu.example.com
  spec:
    selectors:
    - cel:
        expression: device.driver == "gpu.example.com"
- apiVersion: v1
  data:
    num: "1"
  kind: ConfigMap
  metadata:
    name: cm
kind: List
metadata:
  resourceVersion: ""
---
apiVersion: resource.k8s.io/v1alpha3
items:
- metadata:
    name: a
  spec:
    devices:
      requests:
      - allocationMode: ExactCount
        count: 1
        deviceClassName: gpu.example.com
        name: resource
kind: ResourceClaimList
metadata: {}
`
	if out != want {
		t.Errorf("unexpected output:\n%s", cmp.Diff(want, out))
	}
	if st.Converted != 2 {
		t.Errorf("stats %+v", st)
	}
}

func TestJSONOutput(t *testing.T) {
	out, problems, _ := run(t, v1alpha1Claim+"---\n"+configMap+"---\n{\"apiVersion\":\"v1\",\"kind\":\"Secret\"}\n", Options{Target: gv("v1alpha2"), Strict: true}, printer.JSON)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	want := `{
    "apiVersion": "resource.k8s.io/v1alpha2",
    "kind": "ResourceClaim",
    "metadata": {
        "name": "gpu",
        "namespace": "ns"
    },
    "spec": {
        "resourceClassName": "gpu.example.com"
    }
}
{
    "apiVersion": "v1",
    "data": {
        "key": "value"
    },
    "kind": "ConfigMap",
    "metadata": {
        "name": "cm"
    }
}
{"apiVersion":"v1","kind":"Secret"}
`
	if out != want {
		t.Errorf("unexpected output:\n%s", cmp.Diff(want, out))
	}
}

func TestErrorsAreReportedAndTheStreamGoesOn(t *testing.T) {
	input := `apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata:
  name: s
spec:
  driver: d
  nodeName: node-a
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  devices: []
---
apiVersion: resource.k8s.io/v2
kind: ResourceClaim
metadata:
  name: future
---
apiVersion: resource.k8s.io/v1alpha1
kind: DeviceClass
metadata:
  name: wrong-version
---
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata:
  name: typo
  namespace: ns
spec:
  resourceClassName: gpu.example.com
  alocationMode: Immediate
---
kind: ResourceClaim
---
apiVersion: resource.k8s.io/v1alpha1
kind: ResourceClaim
metadata:
  name: fine
spec:
  resourceClassName: gpu.example.com
`
	_, problems, st := run(t, input, Options{Target: gv("v1alpha1"), Strict: true}, printer.YAML)
	want := []string{
		`error: in.yaml:1: document 1: ResourceSlice s: cannot convert to resource.k8s.io/v1alpha1: kind ResourceSlice does not exist in v1alpha1; it exists only in: v1alpha2 (as ResourceSlice), v1alpha3 (as ResourceSlice), v1beta1 (as ResourceSlice), v1beta2 (as ResourceSlice), v1 (as ResourceSlice)`,
		`error: in.yaml:11: document 2: ResourceClaim future: unknown version "v2" of resource.k8s.io: drakit knows v1alpha1, v1alpha2, v1alpha3, v1beta1, v1beta2, v1`,
		`error: in.yaml:16: document 3: DeviceClass wrong-version: resource.k8s.io/v1alpha1 has no kind "DeviceClass"`,
		`error: in.yaml:28: document 4: ResourceClaim ns/typo: spec.alocationMode: unknown field "alocationMode"`,
		`error: in.yaml:30: document 5: ResourceClaim: apiVersion is not set`,
	}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if st != (Stats{Failed: 5, Unchanged: 1}) {
		t.Errorf("stats %+v", st)
	}
}

// TestExamplesRoundTrip converts every example, defaulted as the API
// server stores it, to every version and back to its own: the result must
// be the object it started as. (Without its defaults, an example comes back
// with them where a trip goes through a version without the field.)
func TestExamplesRoundTrip(t *testing.T) {
	files := exampleFiles(t)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		own := filepath.Base(filepath.Dir(f))
		data, problems, _ := run(t, string(raw), Options{Target: gv(own), Strict: true, Defaults: true}, printer.YAML)
		if len(problems) > 0 {
			t.Fatalf("%s defaulted: %v", f, problems)
		}
		for _, via := range []string{"v1alpha1", "v1alpha2", "v1alpha3"} {
			there, problems, _ := run(t, string(data), Options{Target: gv(via), Strict: true}, printer.YAML)
			if len(problems) > 0 {
				if strings.Contains(strings.Join(problems, "\n"), "does not exist in") {
					continue // a kind the version does not have
				}
				t.Fatalf("%s to %s: %v", f, via, problems)
			}
			back, problems, _ := run(t, there, Options{Target: gv(own), Strict: true}, printer.YAML)
			if len(problems) > 0 {
				t.Fatalf("%s to %s and back: %v", f, via, problems)
			}
			if diff := cmp.Diff(objects(t, string(data)), objects(t, back)); diff != "" {
				t.Errorf("%s to %s and back changed (-before +after):\n%s", f, via, diff)
			}
		}
	}
}

func exampleFiles(t testing.TB) []string {
	files, err := filepath.Glob("../../../../examples/v1alpha*/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	return files
}

// objects parses a YAML stream into its objects.
func objects(t *testing.T, stream string) []map[string]any {
	var out []map[string]any
	for _, doc := range strings.Split(stream, "\n---\n") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		if obj != nil {
			out = append(out, obj)
		}
	}
	return out
}

// TestSkipKindsNotInTarget: with the option, a document whose kind the
// target lacks is left out with a warning, and so is such an item of a
// List, whose other items stay; without it, both are errors.
func TestSkipKindsNotInTarget(t *testing.T) {
	input := `apiVersion: resource.k8s.io/v1alpha1
kind: PodScheduling
metadata:
  name: sched
  namespace: ns
spec:
  selectedNode: node-a
---
apiVersion: v1
kind: List
items:
- apiVersion: resource.k8s.io/v1alpha1
  kind: PodScheduling
  metadata: {name: sched-2, namespace: ns}
- apiVersion: resource.k8s.io/v1alpha1
  kind: ResourceClaim
  metadata: {name: kept, namespace: ns}
  spec: {resourceClassName: gpu.example.com}
`
	out, problems, st := run(t, input, Options{Target: gv("v1"), Strict: true, SkipKindsNotInTarget: true}, printer.YAML)
	if len(problems) != 2 || !strings.HasPrefix(problems[0], "warning: in.yaml:1: document 1: PodScheduling ns/sched: left out") ||
		!strings.Contains(problems[1], "left out of the List") {
		t.Errorf("problems: %q", problems)
	}
	if st.Skipped != 1 || st.Converted != 1 || st.Failed != 0 {
		t.Errorf("stats %+v", st)
	}
	if strings.Contains(out, "PodScheduling") || !strings.Contains(out, "name: kept") || !strings.Contains(out, "apiVersion: resource.k8s.io/v1\n") {
		t.Errorf("output:\n%s", out)
	}

	_, problems, st = run(t, input, Options{Target: gv("v1"), Strict: true}, printer.YAML)
	if st.Failed != 2 || len(problems) != 2 || !strings.HasPrefix(problems[0], "error: ") {
		t.Errorf("without the option: stats %+v, problems %q", st, problems)
	}
}
