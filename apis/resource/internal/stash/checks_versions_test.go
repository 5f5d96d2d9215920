package stash_test

import (
	"testing"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/internal/stash"
)

// The checks made before any test runs: the versions' and this package's,
// not those of the tests' own types.
var uncompiled = stash.Uncompiled()

// TestChecksCompiled: every check the versions make has its compiled
// function: zz_generated.checks.go is up to date with the types and the
// versions' trees. An out-of-date file gives the same answers, slower.
func TestChecksCompiled(t *testing.T) {
	if len(catalogue.Versions) == 0 {
		t.Fatal("no versions loaded")
	}
	for _, s := range uncompiled {
		t.Errorf("no compiled function for the check %s: run hack/update-codegen.sh", s)
	}
}

// TestChecksCompiledAgree: every compiled function says what the walk of
// its check's view says, on values made at random along the view.
func TestChecksCompiledAgree(t *testing.T) {
	if n := stash.CheckCompiledAgrees(t, 2000); n < 20 {
		t.Errorf("%d checks tested; the versions make more than 20", n)
	}
}
