package validate

import (
	"errors"
	"regexp"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/apis/resource/validation"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

// One object whose validation does not end stops validate after
// --timeout, naming the object.
func TestValidateTimeoutNamesTheObject(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	o := NewOptions(streams)
	o.validateObject = func(obj runtime.Object, opts validation.Options) (field.ErrorList, []validation.DropWarning) {
		<-release
		return nil, nil
	}
	o.Filenames, o.Timeout = []string{"examples/v1/deviceclasses.yaml"}, 20*time.Millisecond
	err := o.Complete(nil, NewCmdValidate(nil, streams), nil)
	if err == nil {
		err = o.Validate()
	}
	if err == nil {
		err = o.Run(nil)
	}
	code, stdout, stderr := 0, out.String(), errOut.String()
	if err != nil {
		code = 1
	}
	want := regexp.MustCompile(`^error: examples/v1/deviceclasses\.yaml:\d+: document 1: DeviceClass [a-z0-9.-]+: validation did not finish within 20ms \(--timeout\); the objects after it were not validated: .*raise --timeout\n$`)
	if code != 1 || !errors.Is(err, cmdutil.ErrFailed) || !want.MatchString(stderr) || stdout != "Summary: 0 objects, 0 valid, 0 invalid; 1 input error\n" {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
