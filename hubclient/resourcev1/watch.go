package resourcev1

import (
	"net/http"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// v1Watch passes on the events of a hubclient watch with their hub objects
// converted to v1: Added, Modified, Deleted and Bookmark events carry a
// *resourcev1.X (a bookmark's has only its resourceVersion, and
// annotations, as the server sent it); Error events pass unchanged. An
// object that cannot be converted becomes an Error event whose Status names
// it, and the watch goes on.
type v1Watch struct {
	src     watch.Interface
	convert func(runtime.Object) (runtime.Object, error)
	out     chan watch.Event
	stop    chan struct{}
	once    sync.Once
}

func newV1Watch(src watch.Interface, convert func(runtime.Object) (runtime.Object, error)) watch.Interface {
	w := &v1Watch{src: src, convert: convert, out: make(chan watch.Event), stop: make(chan struct{})}
	go w.run()
	return w
}

func (w *v1Watch) run() {
	defer close(w.out)
	in := w.src.ResultChan()
	for {
		var ev watch.Event
		select {
		case e, ok := <-in:
			if !ok {
				return
			}
			ev = e
		case <-w.stop:
			return
		}
		if ev.Type != watch.Error && ev.Object != nil {
			obj, err := w.convert(ev.Object)
			if err != nil {
				ev = watch.Event{Type: watch.Error, Object: &metav1.Status{
					Status:  metav1.StatusFailure,
					Code:    http.StatusInternalServerError,
					Reason:  metav1.StatusReasonInternalError,
					Message: err.Error(),
				}}
			} else {
				ev.Object = obj
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
func (w *v1Watch) Stop() {
	w.once.Do(func() {
		close(w.stop)
		w.src.Stop()
	})
}

func (w *v1Watch) ResultChan() <-chan watch.Event { return w.out }
