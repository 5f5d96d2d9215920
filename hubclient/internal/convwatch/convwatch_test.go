package convwatch

import (
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// An object that cannot be converted becomes an Error event with the
// conversion's error, and Stop closes the result channel.
func TestWatchConversionError(t *testing.T) {
	src := watch.NewFake()
	w := New(src, func(obj runtime.Object) (runtime.Object, error) {
		return nil, errors.New("bad stash")
	})
	defer w.Stop()
	go src.Add(&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "x"}})
	ev := <-w.ResultChan()
	status, ok := ev.Object.(*metav1.Status)
	if ev.Type != watch.Error || !ok || !strings.Contains(status.Message, "bad stash") {
		t.Fatalf("got %s %#v, want an Error event with the conversion error", ev.Type, ev.Object)
	}
	w.Stop()
	if _, open := <-w.ResultChan(); open {
		t.Error("the result channel stays open after Stop")
	}
}
