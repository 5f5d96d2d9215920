package objects

import (
	"io"
	"sync"

	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
)

// EachParallel is Each with the documents converted and decoded by
// several goroutines (workers): a cluster export of thousands of
// documents is read on every core. prepare, which may be nil, runs in
// those goroutines for every object, after its typed decoding, and its
// answer is handed to fn with the object; fn runs in the caller's
// goroutine, for the objects in order, and the problems of each document
// are reported in order too, just before its objects: the output is that
// of Each.
func (rd *Reader) EachParallel(r *manifest.Reader, workers int, prepare func(*Object) any, fn func(*Object, any) error) error {
	if workers < 1 {
		workers = 1
	}
	// At most window documents are in flight, so that memory stays that
	// of the objects kept, not of the whole stream converted ahead.
	window := 8 * workers
	type job struct {
		doc  *manifest.Document
		err  error
		done chan []event
	}
	jobs := make(chan *job, window)
	work := make(chan *job, window)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				j.done <- rd.collect(j.doc, prepare)
			}
		}()
	}
	go func() {
		defer close(jobs)
		defer close(work)
		for {
			doc, err := r.Next()
			if err == io.EOF {
				return
			}
			j := &job{doc: doc, err: err, done: make(chan []event, 1)}
			if err == nil && !doc.Empty() {
				work <- j
			}
			jobs <- j
		}
	}()
	var failed error
	for j := range jobs {
		if j.err != nil {
			if failed == nil {
				rd.report(asError(j.err), false)
			}
			continue
		}
		if j.doc.Empty() {
			continue
		}
		for _, ev := range <-j.done {
			switch {
			case failed != nil:
			case ev.obj == nil:
				rd.report(ev.err, ev.warning)
			default:
				failed = fn(ev.obj, ev.prepared)
			}
		}
	}
	wg.Wait()
	return failed
}

// event is a problem or an object of a document, in the order found.
type event struct {
	err      *manifest.Error
	warning  bool
	obj      *Object
	prepared any
}

// collect reads a document as Each does, recording what Each would
// report and pass on.
func (rd *Reader) collect(doc *manifest.Document, prepare func(*Object) any) []event {
	var events []event
	shadow := &Reader{Strict: rd.Strict, Report: func(e *manifest.Error, warning bool) {
		events = append(events, event{err: e, warning: warning})
	}}
	_ = shadow.document(doc, func(obj *Object) error {
		ev := event{obj: obj}
		if prepare != nil {
			ev.prepared = prepare(obj)
		}
		events = append(events, ev)
		return nil
	})
	return events
}
