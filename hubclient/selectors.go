package hubclient

import (
	"fmt"
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/util/version"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
)

// Field selectors are written with the hub's field labels, which are v1's
// (a ResourceSlice's spec.driver, spec.nodeName, spec.pool.name); each
// version has labels of its own (v1alpha2 selects a slice by driverName
// and nodeName), listed in the catalogue. Label selectors need nothing:
// labels are metadata, the same in every version.

// listOptions is opts with its field selector written in the labels of the
// version s, in which the server serves hubKind. A selector that version
// cannot serve is refused with a *FieldSelectorError (a 400 Bad Request, as
// the API server answers it) and never sent.
func (c *Client) listOptions(hubKind string, s served, opts metav1.ListOptions) (metav1.ListOptions, error) {
	if opts.FieldSelector == "" {
		return opts, nil
	}
	sel, err := fields.ParseSelector(opts.FieldSelector)
	if err != nil {
		return opts, apierrors.NewBadRequest(fmt.Sprintf("the field selector %q of a %s list does not parse: %v", opts.FieldSelector, hubKind, err))
	}
	translated, err := sel.Transform(func(field, value string) (string, string, error) {
		l, ok := labelFor(s.labels, field)
		if !ok || (l.Since != 0 && c.releaseBefore(l.Since)) {
			return "", "", c.fieldSelectorError(hubKind, s, field, l)
		}
		return l.Name, value, nil
	})
	if err != nil {
		return opts, err
	}
	opts.FieldSelector = translated.String()
	return opts, nil
}

func labelFor(labels []catalogue.FieldLabel, hub string) (catalogue.FieldLabel, bool) {
	for _, l := range labels {
		if l.Hub == hub {
			return l, true
		}
	}
	return catalogue.FieldLabel{}, false
}

// releaseBefore tells whether the server is known to be an older release
// than 1.minor. A server whose release is unknown (GET /version failed or
// did not say) is taken to accept the label: it then answers for itself.
func (c *Client) releaseBefore(minor int) bool {
	r := c.serverRelease()
	return r != 0 && r < minor
}

// serverRelease is the server's minor release, read once, the first time a
// selector depends on it; 0 when it is not known.
func (c *Client) serverRelease() int {
	c.releaseOnce.Do(func() {
		if c.disc == nil {
			return
		}
		info, err := c.disc.ServerVersion()
		if err != nil {
			return
		}
		v, err := version.ParseGeneric(info.GitVersion)
		if err != nil || v.Major() != 1 {
			return
		}
		c.release = int(v.Minor())
	})
	return c.release
}

func (c *Client) fieldSelectorError(hubKind string, s served, field string, l catalogue.FieldLabel) *FieldSelectorError {
	e := &FieldSelectorError{Kind: hubKind, Version: s.version, Field: field, Release: c.serverRelease()}
	if l.Hub == field {
		e.Since = l.Since
	}
	for _, other := range s.labels {
		if other.Since == 0 || !c.releaseBefore(other.Since) {
			e.Selectable = append(e.Selectable, other.Hub)
		}
		if other.Name == field && other.Hub != field {
			e.OwnNameOf = other.Hub
		}
	}
	return e
}

// FieldSelectorError is a field selector that the version the server serves
// a kind in cannot serve: it names a label the version does not have, or one
// that the server's release does not accept yet (a ResourceSlice's
// spec.pool.name before 1.37). hubclient refuses it before sending, with
// the answer the API server would give: 400 Bad Request
// (apierrors.IsBadRequest holds). That is also the answer on which
// upstream's ResourceSlice controller, asked to reconcile one pool, stops
// selecting by pool name and filters the slices itself.
type FieldSelectorError struct {
	// Kind is the hub kind.
	Kind string
	// Version is the version the server serves the kind in.
	Version string
	// Release is the server's minor release (1.Release), 0 when unknown.
	Release int
	// Field is the label as the caller wrote it.
	Field string
	// Since, when not 0, is the first release that accepts Field in
	// Version: the server is older.
	Since int
	// Selectable are the hub's labels the kind can be selected on here.
	Selectable []string
	// OwnNameOf is set when Field is Version's own name for a hub label:
	// that label, the one to use.
	OwnNameOf string
}

func (e *FieldSelectorError) Error() string {
	where := fmt.Sprintf("%s in %s/%s", e.Kind, resource.GroupName, e.Version)
	server := "the server"
	if e.Release != 0 {
		server = fmt.Sprintf("the Kubernetes 1.%d server", e.Release)
	}
	var b strings.Builder
	if e.Since != 0 {
		fmt.Fprintf(&b, "field selector %q: %s, which %s serves, can select on %s from Kubernetes 1.%d on", e.Field, where, server, e.Field, e.Since)
	} else {
		fmt.Fprintf(&b, "field selector %q: %s, which %s serves, cannot select on %s", e.Field, where, server, e.Field)
	}
	fmt.Fprintf(&b, "; it can select on %s", strings.Join(e.Selectable, ", "))
	if e.OwnNameOf != "" {
		fmt.Fprintf(&b, " (%s is %s's own name for %s: field selectors are written with the hub's labels, which are v1's, and each version is sent its own; use %s)", e.Field, e.Version, e.OwnNameOf, e.OwnNameOf)
	} else {
		b.WriteString(": select on those and filter what the list returns")
	}
	return b.String()
}

// Status is the API server's answer to such a selector, 400 Bad Request.
func (e *FieldSelectorError) Status() metav1.Status {
	return metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusBadRequest,
		Reason:  metav1.StatusReasonBadRequest,
		Message: e.Error(),
		Details: &metav1.StatusDetails{Group: resource.GroupName, Kind: e.Kind},
	}
}

var _ apierrors.APIStatus = (*FieldSelectorError)(nil)
