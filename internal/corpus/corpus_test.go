package corpus

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource/features"
)

const object = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: c\n"

func TestParseCase(t *testing.T) {
	data := []byte(`# the stored status is kept: quirk of 1.37
# operation: status
# old: c.old.yaml   # the stored object
# requires: DRAResourceClaimDeviceStatus
# namespace: admin-access
# resourceVersion: omit
# expect: FieldValueRequired spec
# expect: FieldValueInvalid spec.driver
# not a key: free text further down
` + object)
	got, err := ParseCase("dir/c.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	want := &Case{
		Path:                "dir/c.yaml",
		Comment:             "the stored status is kept: quirk of 1.37",
		Operation:           OperationStatus,
		Old:                 "c.old.yaml",
		Requires:            "DRAResourceClaimDeviceStatus",
		Namespace:           AdminAccessNamespace,
		OmitResourceVersion: true,
		Expect:              []string{"FieldValueInvalid spec.driver", "FieldValueRequired spec"},
		Data:                data,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if p := got.OldPath(); p != filepath.Join("dir", "c.old.yaml") {
		t.Errorf("OldPath %q", p)
	}
	if !got.Expects() {
		t.Error("a case with expected errors does not expect anything")
	}
}

// A create is the default; a key on the first line leaves no comment; the
// header ends at the first line that is not a comment.
func TestParseCaseDefaults(t *testing.T) {
	got, err := ParseCase("c.yaml", []byte("# expect: valid\n"+object+"# operation: update\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Operation != OperationCreate || got.Comment != "" || !got.Valid || len(got.Expect) != 0 || got.Old != "" {
		t.Errorf("%+v", got)
	}
}

// A case without expect lines parses, so that a replay can record the
// server's answer into it, but does not count as expecting anything.
func TestParseCaseWithoutExpectations(t *testing.T) {
	got, err := ParseCase("c.yaml", []byte("# new case\n"+object))
	if err != nil {
		t.Fatal(err)
	}
	if got.Expects() {
		t.Errorf("%+v expects something", got)
	}
}

func TestParseCaseMalformed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		header string
		// want is the start of the error: file and, where a line is to
		// blame, the line; then what is wrong.
		want, what string
	}{
		{"unknown operation", "# a case\n# operation: patch\n# expect: valid\n", "c.yaml:2: ", `unknown operation "patch"`},
		{"empty value", "# operation: create\n# expect:\n", "c.yaml:2: ", `"expect" without a value`},
		{"empty value before a comment", "# old: # later\n# expect: valid\n", "c.yaml:1: ", `"old" without a value`},
		{"second operation", "# operation: create\n# operation: update\n# expect: valid\n", "c.yaml:2: ", `a second "operation" (the first is on line 1)`},
		{"unknown namespace", "# namespace: kube-system\n# expect: valid\n", "c.yaml:1: ", `unknown namespace "kube-system"`},
		{"resourceVersion", "# resourceVersion: 7\n# expect: valid\n", "c.yaml:1: ", `resourceVersion "7" (only omit)`},
		{"valid after errors", "# expect: FieldValueRequired spec\n# expect: valid\n", "c.yaml:2: ", `"expect: valid" with other expect lines`},
		{"error after valid", "# expect: valid\n# expect: FieldValueRequired spec\n", "c.yaml:2: ", `an expected error after "expect: valid"`},
		{"expect without field", "# a case\n# operation: create\n# expect: FieldValueInvalid\n", "c.yaml:3: ", `expect "FieldValueInvalid" is neither valid nor`},
		{"expect not a reason", "# expect: invalid spec.driver\n", "c.yaml:1: ", `expect "invalid spec.driver" is neither`},
		{"create with old", "# expect: valid\n# old: c.old.yaml\n", "c.yaml:2: ", "a create has no old object"},
		{"update without old", "# operation: update\n# expect: valid\n", "c.yaml: ", `an update needs "# old:"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseCase("c.yaml", []byte(tc.header+object))
			if err == nil {
				t.Fatalf("no error; read %+v", c)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tc.want) || !strings.Contains(msg, tc.what) {
				t.Errorf("error %q, want %q followed by %q", msg, tc.want, tc.what)
			}
		})
	}
}

func TestReadCase(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.yaml")
	if _, err := ReadCase(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("missing file: error %v does not name %s", err, path)
	}
	if err := os.WriteFile(path, []byte("# operation: sideways\n"+object), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCase(path); err == nil || !strings.HasPrefix(err.Error(), path+":1: ") {
		t.Errorf("error %v, want one naming %s:1", err, path)
	}
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadDrift(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, DriftFile, `reasons:
  paths: the server reports v1beta1's paths
cases:
  v1beta1/a:
    reason: paths
    drakit:
    - FieldValueRequired spec
    - FieldValueInvalid spec.driver
  v1/b:
    reason: paths
    drakit: []
`)
	got, err := ReadDrift(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Drift{
		"v1beta1/a": {Reason: "the server reports v1beta1's paths", Drakit: []string{"FieldValueInvalid spec.driver", "FieldValueRequired spec"}},
		"v1/b":      {Reason: "the server reports v1beta1's paths"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}

	for name, content := range map[string]string{
		`case v1/b names reason "nope", which is not under reasons`: "reasons: {}\ncases:\n  v1/b: {reason: nope}\n",
		`unknown field "reson"`: "reasons: {}\ncases:\n  v1/b: {reson: nope}\n",
	} {
		writeFile(t, dir, DriftFile, content)
		if _, err := ReadDrift(dir); err == nil || !strings.HasPrefix(err.Error(), DriftFile+": ") || !strings.Contains(err.Error(), name) {
			t.Errorf("error %v, want %s: ... %s", err, DriftFile, name)
		}
	}
}

func TestReadGates(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, GatesFile, "DRADeviceTaints=false,DRADeviceTaintRules=false\n")
	g, err := ReadGates(dir)
	if err != nil {
		t.Fatal(err)
	}
	if g.Enabled(features.Name("DRADeviceTaints")) {
		t.Error("DRADeviceTaints is on")
	}
	writeFile(t, dir, GatesFile, "DRADeviceTaints=maybe\n")
	if _, err := ReadGates(dir); err == nil || !strings.HasPrefix(err.Error(), GatesFile+": ") {
		t.Errorf("error %v, want one naming %s", err, GatesFile)
	}
}
