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
	obj := e.Name
	if e.Namespace != "" {
		obj = e.Namespace + "/" + e.Name
	}
	return fmt.Sprintf("%s %q: annotation %s is malformed: %v (restore the value written by the conversion, or remove the annotation to give up what it kept)",
		e.Kind, obj, StashAnnotation, e.Err)
}

func (e *MalformedStashError) Unwrap() error { return e.Err }

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
