package convert

import (
	"fmt"

	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
)

// serverObjectMeta are the fields of an object's metadata that the API
// server sets and a client never writes. An object exported from one
// cluster carries them; creating it on another fails ("resourceVersion
// should not be set on objects to be created"), or, for uid and
// creationTimestamp, is overwritten anyway, and managedFields would name
// the managers and versions of the old cluster. Everything a user says
// (name, namespace, labels, annotations, ownerReferences, finalizers,
// generateName) stays.
var serverObjectMeta = []string{
	"uid", "resourceVersion", "generation", "creationTimestamp",
	"deletionTimestamp", "deletionGracePeriodSeconds", "managedFields", "selfLink",
}

// serverListMeta are the fields of a list's metadata that only say where a
// list read from a server was in its history.
var serverListMeta = []string{"resourceVersion", "continue", "remainingItemCount", "selfLink"}

// stripForCreate removes what the API server owns from obj, a whole
// document (an object, a "kind: List" or a typed list), so that `kubectl
// create -f` can create it on another cluster. Status is kept: create
// ignores it, and `kubectl replace --subresource=status -f` of the same
// file brings it back. It returns whether anything was removed. An object
// that was being deleted is passed to deleting with its path in the
// document, since creating it again brings back what its old cluster was
// about to remove.
func stripForCreate(obj map[string]any, at string, deleting func(obj map[string]any, path string)) bool {
	if items, ok := obj["items"].([]any); ok {
		changed := stripFields(obj, serverListMeta)
		if md, ok := obj["metadata"].(map[string]any); ok && len(md) == 0 {
			// kubectl get -o yaml writes metadata: {resourceVersion: ""}.
			delete(obj, "metadata")
			changed = true
		}
		for i, item := range items {
			if m, ok := item.(map[string]any); ok {
				if stripForCreate(m, joinPath(at, fmt.Sprintf("items[%d]", i)), deleting) {
					changed = true
				}
			}
		}
		return changed
	}
	if md, ok := obj["metadata"].(map[string]any); ok && md["deletionTimestamp"] != nil {
		deleting(obj, joinPath(at, "metadata.deletionTimestamp"))
	}
	return stripFields(obj, serverObjectMeta)
}

// stripFields deletes the given keys from obj's metadata.
func stripFields(obj map[string]any, keys []string) bool {
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		return false
	}
	changed := false
	for _, k := range keys {
		if _, ok := md[k]; ok {
			delete(md, k)
			changed = true
		}
	}
	return changed
}

// forCreate applies Options.ForCreate to content, what is about to be
// written for doc, and warns about objects that were being deleted.
func (c *Converter) forCreate(doc *manifest.Document, content map[string]any) bool {
	return stripForCreate(content, "", func(obj map[string]any, path string) {
		w := doc.Errorf("the object was being deleted where it was read; --for-create drops the deletion timestamp, so creating it brings the object back: leave it out if it should stay deleted")
		w.Object, w.Path = objectName(obj), path
		c.report(w, true)
	})
}

// objectName names an unstructured object as manifest.Head.Object does.
func objectName(obj map[string]any) string {
	kind, _ := obj["kind"].(string)
	md, _ := obj["metadata"].(map[string]any)
	ns, _ := md["namespace"].(string)
	name, _ := md["name"].(string)
	return manifest.ObjectName(kind, ns, name)
}
