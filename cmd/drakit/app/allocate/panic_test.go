package allocate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/allocator"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

// A panic in the allocator is an error that asks for a report, not a
// crash.
func TestAllocatePanicIsReported(t *testing.T) {
	streams, _, _, errOut := genericiooptions.NewTestIOStreams()
	o := NewOptions(streams)
	o.allocateObjects = func(context.Context, []runtime.Object, allocator.ObjectOptions) ([]allocator.ObjectResult, error) {
		panic("index out of range")
	}
	o.Filenames = []string{"examples/v1"}
	err := o.Complete(nil, NewCmdAllocate(nil, streams), nil)
	if err == nil {
		err = o.Validate()
	}
	if err == nil {
		err = o.Run(nil)
	}
	if !errors.Is(err, cmdutil.ErrFailed) || !strings.HasPrefix(errOut.String(), "error: internal error in the allocator: index out of range (please report it, with the input)") {
		t.Errorf("error %v, stderr:\n%s", err, errOut.String())
	}
}
