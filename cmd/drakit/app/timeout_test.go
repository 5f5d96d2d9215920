package app

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/apis/resource/validation"
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

// An allocator that does not look at its deadline does not keep drakit
// from coming back.
func TestAllocateTimeoutWithoutTheAllocator(t *testing.T) {
	release := make(chan struct{})
	allocateObjects = func(ctx context.Context, objs []runtime.Object, opts allocator.ObjectOptions) ([]allocator.ObjectResult, error) {
		<-release
		return nil, nil
	}
	stopGrace = 10 * time.Millisecond
	t.Cleanup(func() {
		close(release)
		allocateObjects, stopGrace = allocator.AllocateObjects, 2*time.Second
	})
	code, _, stderr := runDrakit([]string{"allocate", "-f", "examples/v1", "--timeout", "20ms"}, nil)
	if code != 1 || !strings.HasPrefix(stderr, "error: the allocation did not finish within 20ms (--timeout):") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// One object whose validation does not end stops validate after
// --timeout, naming the object.
func TestValidateTimeoutNamesTheObject(t *testing.T) {
	release := make(chan struct{})
	validateObject = func(obj runtime.Object, opts validation.Options) (field.ErrorList, []validation.DropWarning) {
		<-release
		return nil, nil
	}
	t.Cleanup(func() {
		close(release)
		validateObject = validation.ValidateObjectWithWarnings
	})
	code, stdout, stderr := runDrakit([]string{"validate", "-f", "examples/v1/deviceclasses.yaml", "--timeout", "20ms"}, nil)
	want := regexp.MustCompile(`^error: examples/v1/deviceclasses\.yaml:\d+: document 1: DeviceClass [a-z0-9.-]+: validation did not finish within 20ms \(--timeout\); the objects after it were not validated: .*raise --timeout\n$`)
	if code != 1 || !want.MatchString(stderr) || stdout != "Summary: 0 objects, 0 valid, 0 invalid; 1 input error\n" {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
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
