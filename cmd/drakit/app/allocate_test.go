package app

import (
	"strings"
	"testing"
)

// A script that feeds drakit allocate a cluster's export must not fail
// because a namespace has no claims: with nothing to allocate, nothing is
// unsatisfiable.
func TestAllocateWithoutClaims(t *testing.T) {
	const emptyList = "apiVersion: v1\nkind: List\nitems: []\n"
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
	}{
		{name: "inventory only", args: []string{"-f", "examples/v1alpha3/deviceclasses.yaml", "-f", "examples/v1alpha3/resourceslices.yaml", "-f", "examples/v1alpha3/nodes.yaml"}},
		{name: "inventory only, table", args: []string{"-f", "examples/v1alpha3/deviceclasses.yaml", "-f", "examples/v1alpha3/resourceslices.yaml", "-o", "wide"}},
		{name: "other kinds only", args: []string{"-f", "examples/v1alpha3/podschedulingcontexts.yaml", "-f", "examples/v1alpha3/resourceclaimtemplates.yaml", "-o", "json"}},
		{name: "empty List on stdin", args: []string{"-f", "-"}, stdin: emptyList},
		{name: "empty stdin", args: []string{"-f", "-"}},
		{name: "on a node, all or nothing", args: []string{"-f", "examples/v1alpha3/resourceslices.yaml", "--node", "node-a", "--all-or-nothing"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runDrakit(append([]string{"allocate"}, tc.args...), []byte(tc.stdin))
			if code != 0 {
				t.Errorf("exit code %d, want 0; stderr:\n%s", code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if !strings.HasPrefix(stderr, "No ResourceClaim in the input: nothing to allocate.\nSummary: 0 claims allocated, 0 allocated before, 0 unsatisfiable") {
				t.Errorf("stderr:\n%s", stderr)
			}
			if strings.Contains(stderr, "error:") {
				t.Errorf("stderr reports an error:\n%s", stderr)
			}
		})
	}

	// Input problems still fail: the claim with an unknown field is not read.
	code, _, stderr := runDrakit([]string{"allocate", "-f", "examples/v1alpha3/deviceclasses.yaml", "-f", inputFile("unknown-field.yaml")}, nil)
	if code != 1 || !strings.Contains(stderr, "error: nothing was allocated") {
		t.Errorf("with an input problem: exit code %d, stderr:\n%s", code, stderr)
	}
}
