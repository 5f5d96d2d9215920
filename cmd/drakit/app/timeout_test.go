package app

import (
	"context"
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
