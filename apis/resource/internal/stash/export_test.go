package stash

import "testing"

// For the external tests, which load every version (and so every check
// the versions make), as this package's own tests cannot.

// CheckCompiledAgrees is checkCompiledAgrees.
func CheckCompiledAgrees(t *testing.T, values int) int { return checkCompiledAgrees(t, values) }

// Uncompiled are the signatures of the checks made without a compiled
// function.
func Uncompiled() []string {
	checks.Lock()
	defer checks.Unlock()
	var out []string
	for _, c := range checks.all {
		if !c.compiled {
			out = append(out, c.signature)
		}
	}
	return out
}
