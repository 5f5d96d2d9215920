package app

import (
	"errors"
	"fmt"
	"io"

	"github.com/drakit/drakit/cmd/drakit/internal/manifest"
)

// reporter prints problems as they are found, one line each, and counts
// the errors: "error: <where>: <what>" and "warning: <where>: <what>".
type reporter struct {
	w        io.Writer
	errors   int
	warnings int
}

func newReporter(w io.Writer) *reporter { return &reporter{w: w} }

func (r *reporter) report(e *manifest.Error, warning bool) {
	if warning {
		r.warnings++
		fmt.Fprintf(r.w, "warning: %s\n", e.Error())
		return
	}
	r.errors++
	fmt.Fprintf(r.w, "error: %s\n", e.Error())
}

// fail reports any error as an error line.
func (r *reporter) fail(err error) {
	var e *manifest.Error
	if errors.As(err, &e) {
		r.report(e, false)
		return
	}
	r.errors++
	fmt.Fprintf(r.w, "error: %s\n", oneLine(err.Error()))
}
