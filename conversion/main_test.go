package conversion

import (
	"flag"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestMain tunes the runtime for the round-trip tests, which with
// DRAKIT_FUZZ_FULL=1 fill, convert and compare millions of short-lived
// objects (hack/test.sh's longest package): garbage collection runs a
// quarter as often, and the runtime keeps no memory profile unless one is
// asked for (-memprofile), which otherwise walks every sampled allocation's
// deep reflect stack at each collection. Neither changes what a test checks.
// Benchmarks (-bench) run with the runtime's defaults, as programs that
// convert do.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		debug.SetGCPercent(400)
		if f := flag.Lookup("test.memprofile"); f == nil || f.Value.String() == "" {
			runtime.MemProfileRate = 0
		}
	}
	os.Exit(m.Run())
}
