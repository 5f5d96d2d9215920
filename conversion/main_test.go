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
func TestMain(m *testing.M) {
	debug.SetGCPercent(400)
	flag.Parse()
	if f := flag.Lookup("test.memprofile"); f == nil || f.Value.String() == "" {
		runtime.MemProfileRate = 0
	}
	os.Exit(m.Run())
}
