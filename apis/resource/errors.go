package resource

import (
	"fmt"
	"strings"
)

// StashAnnotation is the annotation in which conversion keeps what the target
// version of an object cannot express, so that converting back restores it.
// Its value is a JSON object with a format version ("v":1); the fields are
// documented in docs/conversion.md. It is present only when needed, and
// conversion to the hub removes it.
const StashAnnotation = "conversion.drakit.io/stash"

// MalformedStashError reports a StashAnnotation that cannot be read: it was
// edited by hand, truncated, or written by a newer drakit.
//
// +k8s:deepcopy-gen=false
type MalformedStashError struct {
	// Kind is the kind of the object that carries the annotation.
	Kind string
	// Namespace is the namespace of that object, empty for a
	// cluster-scoped one.
	Namespace string
	// Name is the name of that object.
	Name string
	// Err says what is wrong with the annotation's value.
	Err error
}

func (e *MalformedStashError) Error() string {
	return fmt.Sprintf("%s %q: annotation %s is malformed: %v (restore the value written by the conversion, or remove the annotation to give up what it kept)",
		e.Kind, objectName(e.Namespace, e.Name), StashAnnotation, e.Err)
}

func (e *MalformedStashError) Unwrap() error { return e.Err }

// TotalAnnotationSizeLimit is the most the annotations of an object may
// hold for the API server to accept it: 256 KiB, counted as the sum of
// len(key)+len(value) over all annotations. It is apimachinery's
// TotalAnnotationSizeLimitB (k8s.io/apimachinery/pkg/api/validation),
// repeated here so that conversion need not import the validation package.
const TotalAnnotationSizeLimit = 256 << 10

// StashTooLargeError reports a conversion whose StashAnnotation would push
// the annotations of the converted object past TotalAnnotationSizeLimit:
// the API server would refuse the object. Conversion returns it instead of
// an object that cannot be stored. It happens when the target version
// cannot say a large part of a large object, for example a v1alpha2
// ResourceSlice with many devices whose attributes are not in v1alpha3's
// order, converted to v1alpha3.
//
// +k8s:deepcopy-gen=false
type StashTooLargeError struct {
	// Kind is the kind of the converted object, in the target version.
	Kind string
	// Namespace is the namespace of that object, empty for a
	// cluster-scoped one.
	Namespace string
	// Name is the name of that object.
	Name string
	// StashSize is the length of the annotation's value.
	StashSize int
	// TotalSize is the size of all the object's annotations with the stash,
	// counted as the API server counts it.
	TotalSize int
	// Limit is the API server's limit, TotalAnnotationSizeLimit.
	Limit int
}

func (e *StashTooLargeError) Error() string {
	return fmt.Sprintf("%s %q: annotation %s would hold %d bytes and take the object's annotations to %d bytes, past the API server's limit of %d bytes (the target version cannot say this much of the object: keep it in a version that can, or make it smaller)",
		e.Kind, objectName(e.Namespace, e.Name), StashAnnotation, e.StashSize, e.TotalSize, e.Limit)
}

// objectName is namespace/name, or name alone for a cluster-scoped object.
func objectName(namespace, name string) string {
	if namespace != "" {
		return namespace + "/" + name
	}
	return name
}

// KindNotInVersionError reports a conversion of a kind to a version that
// does not have it, for example ResourceSlice to v1alpha1.
//
// +k8s:deepcopy-gen=false
type KindNotInVersionError struct {
	// Kind is the kind as the caller named it.
	Kind string
	// Version is the requested target version.
	Version string
	// Versions lists the versions that do serve the kind, oldest first,
	// each with the kind's name there.
	Versions []string
}

func (e *KindNotInVersionError) Error() string {
	return fmt.Sprintf("kind %s does not exist in %s; it exists only in: %s",
		e.Kind, e.Version, strings.Join(e.Versions, ", "))
}
