package validation

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The constructors below build errors with the wording of the 1.26–1.31
// releases. apimachinery's own constructors changed their messages later
// (1.33 says "may not be more than N bytes" and hides the value), and these
// releases used two different "too long" messages: one for strings and one
// for lists, so both are kept here.

// tooLongString reports a string longer than max bytes.
func tooLongString(path *field.Path, value string, max int) *field.Error {
	return &field.Error{
		Type:     field.ErrorTypeTooLong,
		Field:    path.String(),
		BadValue: value,
		Detail:   fmt.Sprintf("must have at most %d bytes", max),
	}
}

// tooLongMax reports a list with more than max entries, or a string that
// the release measured with the same wording ("may not be longer than").
// value is what the release puts in the error: the length or the string.
func tooLongMax(path *field.Path, value any, max int) *field.Error {
	return &field.Error{
		Type:     field.ErrorTypeTooLong,
		Field:    path.String(),
		BadValue: value,
		Detail:   fmt.Sprintf("may not be longer than %d", max),
	}
}

// notSupported reports a value outside of a fixed set, listing the set the
// way the releases do (quoted, comma separated).
func notSupported(path *field.Path, value string, valid []string) *field.Error {
	quoted := make([]string, len(valid))
	for i, v := range valid {
		quoted[i] = fmt.Sprintf("%q", v)
	}
	return &field.Error{
		Type:     field.ErrorTypeNotSupported,
		Field:    path.String(),
		BadValue: value,
		Detail:   "supported values: " + strings.Join(quoted, ", "),
	}
}

// strictDetail marks the message of an error only Strict reports.
func strictDetail(msg, release string) string {
	return msg + " (Options.Strict: the " + release + " API server accepts this)"
}

// dedupe drops errors that repeat an earlier one exactly. The API server
// runs several overlapping validations on an update (the generic metadata
// checks, the create validation of the new object and the update
// validation, which itself validates the new object again), so it reports
// many errors two or three times; callers want each once.
func dedupe(errs field.ErrorList) field.ErrorList {
	if len(errs) < 2 {
		return errs
	}
	type key struct {
		typ    field.ErrorType
		path   string
		detail string
		value  string
	}
	seen := make(map[key]bool, len(errs))
	out := errs[:0:0]
	for _, e := range errs {
		k := key{e.Type, e.Field, e.Detail, fmt.Sprintf("%#v", e.BadValue)}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, e)
	}
	return out
}

// prefixed returns errs with every path placed under prefix, for the items
// of a List.
func prefixed(errs field.ErrorList, prefix *field.Path) field.ErrorList {
	for _, e := range errs {
		switch e.Field {
		case "", "<nil>":
			e.Field = prefix.String()
		default:
			e.Field = prefix.String() + "." + e.Field
		}
	}
	return errs
}
