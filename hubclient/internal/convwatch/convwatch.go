// Package convwatch passes the events of a watch on with their objects
// converted: hubclient's watches convert a served version's objects to the
// hub, hubclient/resourcev1's convert hub objects to v1. Unlike
// apimachinery's watch.Filter, Stop also ends the goroutine when the
// consumer has stopped reading.
package convwatch

import (
	"net/http"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

type convertingWatch struct {
	src     watch.Interface
	convert func(runtime.Object) (runtime.Object, error)
	out     chan watch.Event
	stop    chan struct{}
	once    sync.Once
}

// New passes the events of src on with their objects converted by
// convert: Added, Modified, Deleted and Bookmark events carry the
// converted object, Error events pass unchanged, and an object that
// cannot be converted becomes an Error event whose Status has convert's
// error (which should name the object); the watch goes on.
func New(src watch.Interface, convert func(runtime.Object) (runtime.Object, error)) watch.Interface {
	w := &convertingWatch{src: src, convert: convert, out: make(chan watch.Event), stop: make(chan struct{})}
	go w.run()
	return w
}

func (w *convertingWatch) run() {
	defer close(w.out)
	in := w.src.ResultChan()
	for {
		var ev watch.Event
		var ok bool
		select {
		case ev, ok = <-in:
			if !ok {
				return
			}
		case <-w.stop:
			return
		}
		if ev.Type != watch.Error && ev.Object != nil {
			hub, err := w.convert(ev.Object)
			if err != nil {
				// Not the server's fault and not fatal for the watch: the
				// caller sees which object could not be converted.
				ev = watch.Event{Type: watch.Error, Object: &metav1.Status{
					Status:  metav1.StatusFailure,
					Code:    http.StatusInternalServerError,
					Reason:  metav1.StatusReasonInternalError,
					Message: err.Error(),
				}}
			} else {
				ev.Object = hub
			}
		}
		select {
		case w.out <- ev:
		case <-w.stop:
			return
		}
	}
}

// Stop ends the watch and the one it reads from; ResultChan is closed soon
// after.
func (w *convertingWatch) Stop() {
	w.once.Do(func() {
		close(w.stop)
		w.src.Stop()
	})
}

func (w *convertingWatch) ResultChan() <-chan watch.Event { return w.out }
