package describe

import (
	"context"
	"errors"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/drakit/drakit/allocator"
)

// A pod search that outlasted --timeout names its claims and node and
// says what to do; any other error passes unchanged.
func TestPodSearchStopped(t *testing.T) {
	stopped := &allocator.StoppedError{Claims: []string{"ml/a", "ml/b"}, Node: &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-3"}}, Err: context.DeadlineExceeded}
	want := "claims ml/a, ml/b: the search on node node-3 did not finish within 2s (--timeout, per pod): narrow the claims' selectors or device counts, or raise --timeout"
	if got := PodSearchStopped(stopped, 2*time.Second); got == nil || got.Error() != want {
		t.Errorf("got %v\nwant %s", got, want)
	}
	one := &allocator.StoppedError{Claims: []string{"ml/a"}, Err: context.DeadlineExceeded}
	want = "claim ml/a: the search did not finish within 2s (--timeout, per pod): narrow the claims' selectors or device counts, or raise --timeout"
	if got := PodSearchStopped(one, 2*time.Second); got == nil || got.Error() != want {
		t.Errorf("got %v\nwant %s", got, want)
	}
	other := errors.New("object 3 (Pod \"x\"): bad")
	if got := PodSearchStopped(other, time.Second); got != other {
		t.Errorf("another error changed: %v", got)
	}
}
