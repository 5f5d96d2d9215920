package cmdutil

import (
	"errors"
	"fmt"
	"io"

	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
)

// Reporter prints problems as they are found, one line each, and counts
// them: "error: <where>: <what>" and "warning: <where>: <what>".
type Reporter struct {
	w io.Writer
	// Errors and Warnings count the lines printed.
	Errors   int
	Warnings int
}

// NewReporter is a Reporter printing to w (standard error).
func NewReporter(w io.Writer) *Reporter { return &Reporter{w: w} }

// Report prints a problem of the input as an error or a warning.
func (r *Reporter) Report(e *manifest.Error, warning bool) {
	if warning {
		r.Warnings++
		fmt.Fprintf(r.w, "warning: %s\n", e.Error())
		return
	}
	r.Errors++
	fmt.Fprintf(r.w, "error: %s\n", e.Error())
}

// Fail reports any error as an error line.
func (r *Reporter) Fail(err error) {
	var e *manifest.Error
	if errors.As(err, &e) {
		r.Report(e, false)
		return
	}
	r.Errors++
	fmt.Fprintf(r.w, "error: %s\n", OneLine(err.Error()))
}
