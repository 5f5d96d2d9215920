package validate

import (
	"fmt"

	"github.com/drakit/drakit/apis/resource/validation"
)

// namespaceBook holds the labels of the Namespace documents read so far,
// for the admin-access rule of the 1.37 validators, and notes the
// namespaces a validation asked for but the input has not (or not yet)
// given.
type namespaceBook struct {
	labels map[string]map[string]string
	missed []string
}

func newNamespaceBook() *namespaceBook {
	return &namespaceBook{labels: map[string]map[string]string{}}
}

// add records a Namespace document; false if one of that name came before.
func (b *namespaceBook) add(name string, labels map[string]string) bool {
	if _, ok := b.labels[name]; ok {
		return false
	}
	if labels == nil {
		labels = map[string]string{}
	}
	b.labels[name] = labels
	return true
}

// lookup is validation.Options.NamespaceLabels: an unknown namespace skips
// the rule (validation.ErrNamespaceUnknown) and is noted in missed.
func (b *namespaceBook) lookup(namespace string) (map[string]string, error) {
	if labels, ok := b.labels[namespace]; ok {
		return labels, nil
	}
	b.missed = append(b.missed, namespace)
	return nil, fmt.Errorf("namespace %q: %w", namespace, validation.ErrNamespaceUnknown)
}

// ask starts the validation of one object: missed is emptied.
func (b *namespaceBook) ask() { b.missed = b.missed[:0] }
