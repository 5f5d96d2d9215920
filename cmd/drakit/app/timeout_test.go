package app

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/allocator"
)

// The deadline reaches the allocator's search, and the error names the
// claim being allocated with its file and document, and what to do.
func TestAllocateTimeoutNamesTheClaim(t *testing.T) {
	code, stdout, stderr := runDrakit([]string{"allocate", "-f", "examples/v1", "--timeout", "1ns"}, nil)
	if code != 1 || stdout != "" {
		t.Fatalf("exit %d, stdout:\n%s", code, stdout)
	}
	want := regexp.MustCompile(`^error: examples/v1/[a-z-]+\.yaml:\d+: document \d+: ResourceClaim [a-z0-9-]+/[a-z0-9-]+: the allocation on node [a-z0-9-]+ did not finish within 1ns \(--timeout\): .*raise --timeout\n`)
	if !want.MatchString(stderr) {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// A panic in the allocator is an error that asks for a report, not a
// crash.
func TestAllocatePanicIsReported(t *testing.T) {
	allocateObjects = func(context.Context, []runtime.Object, allocator.ObjectOptions) ([]allocator.ObjectResult, error) {
		panic("index out of range")
	}
	t.Cleanup(func() { allocateObjects = allocator.AllocateObjects })
	code, _, stderr := runDrakit([]string{"allocate", "-f", "examples/v1"}, nil)
	if code != 1 || !strings.HasPrefix(stderr, "error: internal error in the allocator: index out of range (please report it, with the input)") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// --timeout bounds each claim's search, not the run: claims that each
// take a moment all get allocated even when together they take longer.
func TestAllocateTimeoutIsPerClaim(t *testing.T) {
	var in strings.Builder
	in.WriteString("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n")
	const count = 600
	for n := 0; n < count; n++ {
		fmt.Fprintf(&in, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-%d}\nspec:\n  driver: gpu.example.com\n  nodeName: node-%d\n  pool: {name: node-%d, generation: 1, resourceSliceCount: 1}\n  devices: [{name: gpu-0}]\n", n, n, n)
	}
	for c := 0; c < count; c++ {
		fmt.Fprintf(&in, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c%d, namespace: ns}\nspec:\n  devices:\n    requests: [{name: gpu, exactly: {deviceClassName: gpu}}]\n", c)
	}
	// 600 claims, claim i on node i after the i nodes before it: 180,000
	// calls in all, each claim's at most 600.
	const timeout = 50 * time.Millisecond
	start := time.Now()
	code, _, stderr := runDrakit([]string{"allocate", "-f", "-", "--timeout", timeout.String()}, []byte(in.String()))
	if code != 0 || !strings.Contains(stderr, "Summary: 600 claims allocated") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if elapsed := time.Since(start); elapsed < timeout {
		t.Skipf("the whole run took %s, less than --timeout: nothing shown", elapsed)
	}
}

// pigeonholes is an inventory of ten groups of five devices and eleven
// claims that each want four devices of one group: they cannot all fit,
// and the allocator's search, choosing four of five devices in one of ten
// groups for each claim, does not find that out in any time that matters.
func pigeonholes() string {
	var b strings.Builder
	b.WriteString("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\nspec: {}\n---\n")
	b.WriteString("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: example.com\n  nodeName: node-a\n  pool: {name: p, generation: 1, resourceSliceCount: 1}\n  devices:\n")
	for g := 0; g < 10; g++ {
		for i := 0; i < 5; i++ {
			fmt.Fprintf(&b, "  - name: d%d-%d\n    attributes:\n      example.com/group: {int: %d}\n", g, i, g)
		}
	}
	for k := 0; k < 11; k++ {
		fmt.Fprintf(&b, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c%d, namespace: ns}\nspec:\n  devices:\n    requests:\n    - name: r\n      exactly: {deviceClassName: c, count: 4}\n    constraints:\n    - requests: [r]\n      matchAttribute: example.com/group\n", k)
	}
	return b.String()
}

// A search that does not end in practice ends at --timeout, naming the
// claims allocated together.
func TestAllocateTimeoutStopsARealSearch(t *testing.T) {
	code, stdout, stderr := runDrakit([]string{"allocate", "-f", "-", "--all-or-nothing", "--timeout", "300ms"}, []byte(pigeonholes()))
	want := "error: claims ResourceClaim ns/c0, ResourceClaim ns/c1, ResourceClaim ns/c2, ResourceClaim ns/c3, ResourceClaim ns/c4, ResourceClaim ns/c5, ResourceClaim ns/c6, ResourceClaim ns/c7, ResourceClaim ns/c8, ResourceClaim ns/c9, ResourceClaim ns/c10: the allocation on node node-a did not finish within 300ms (--timeout):"
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, want) {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
