package cmdutil

import (
	"errors"
	"fmt"
	"strings"
)

// Exit codes. kubectl exits 1 for every error; drakit keeps 1 for bad input
// and negative results and gives a wrong command line 2, as many Unix tools
// do, so that a CI script can tell "the manifests are wrong" from "the
// call is wrong".
const (
	// ExitOK: everything worked and every object was valid.
	ExitOK = 0
	// ExitFailure: bad input, invalid objects, unsatisfiable claims.
	ExitFailure = 1
	// ExitUsage: the command line itself is wrong.
	ExitUsage = 2
)

// UsageError is a wrong command line: exit code 2 and a pointer to --help.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// UsageErrorf makes a UsageError of a message.
func UsageErrorf(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// IsUsageError tells whether err is (or wraps) a UsageError.
func IsUsageError(err error) bool {
	var usage *UsageError
	return errors.As(err, &usage)
}

// failedError: see ErrFailed.
type failedError struct{}

func (*failedError) Error() string { return "failed" }

// ErrFailed means the command has printed its problems and must exit 1;
// nothing more is printed.
var ErrFailed error = &failedError{}

// OneLine puts a message on one line, with single spaces.
func OneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
