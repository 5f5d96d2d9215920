package allocator

import (
	"context"
	"errors"
	"fmt"

	"github.com/drakit/drakit/apis/resource/cel"
	"github.com/drakit/drakit/apis/resource/features"
)

// selectorProgram is one selector expression and its program. A program
// of the fast path's grammar is compiled with cel-go only when a device
// needs that (cel.Options.FastPath).
type selectorProgram struct {
	expression string
	program    *cel.Program
	// err is why a deferred compile failed.
	err error
}

// selectorID gives an expression its index in the per-slice result tables.
// An expression of the fast path's grammar is not compiled until a device
// needs the real program (see evaluate); any other is compiled now.
// Compiled programs belong to the Allocator, never to a package-level
// cache (only the CEL environments are shared, as upstream's are): a
// fresh Allocator pays for every compile as a fresh process would, which
// is what hack/allocbench's cold benchmarks measure.
func (a *Allocator) selectorID(expression string) (int, error) {
	if id, ok := a.selectorIDs[expression]; ok {
		// A deferred compile that failed fails from now on as an
		// immediate one would have.
		return id, a.selectors[id].err
	}
	program, err := cel.Compile(expression, a.celOptions())
	if err != nil {
		return -1, err
	}
	if program.Compiled() {
		a.stats.Compiled++
	}
	id := len(a.selectors)
	a.selectors = append(a.selectors, selectorProgram{expression: expression, program: program})
	a.selectorIDs[expression] = id
	return id, nil
}

// celOptions compile as the scheduler does the expressions it finds
// stored: in the environment of the release drakit follows, with the
// gates the features come from, and without the cost estimate, as the
// scheduler's selector cache compiles (no limit applies to a stored
// expression's estimate). The zero Features too: every gate off.
func (a *Allocator) celOptions() cel.Options {
	return cel.Options{Stored: true, SkipCostEstimate: true, Gates: celGates(a.features), FastPath: true}
}

// celGates are the gates of the features that shape the CEL environment
// and its input: DRAConsumableCapacity (device.allowMultipleAllocations)
// and DRAListTypeAttributes (list attributes in the input).
func celGates(f Features) features.Gates {
	return features.Defaults().
		With(features.DRAConsumableCapacity, f.ConsumableCapacity).
		With(features.DRAListTypeAttributes, f.ListTypeAttributes)
}

// evaluate makes sure the selector's result is known for the devices in mask.
func (a *Allocator) evaluate(ctx context.Context, e *sliceEntry, id int, mask []uint64) error {
	if len(e.results) <= id {
		e.results = append(e.results, make([]*selectorResults, id+1-len(e.results))...)
	}
	r := e.results[id]
	if r == nil {
		r = newSelectorResults(e.words)
		e.results[id] = r
	}
	sel := &a.selectors[id]
	compiled := sel.program.Compiled()
	for w := range mask {
		todo := mask[w] &^ r.known[w]
		for todo != 0 {
			b := trailingZeros(todo)
			todo &^= 1 << uint(b)
			d := w*64 + b
			a.stats.Evaluations++
			ok, err := sel.program.Matches(ctx, a.input(e, d))
			if !compiled && sel.program.Compiled() {
				compiled = true
				a.stats.Compiled++
			}
			if err != nil && isCompileError(err) {
				// Cannot happen for an expression of the fast path's
				// grammar; selectorID reports the error from now on.
				sel.err = err
				return fmt.Errorf("selector %q does not compile: %w", sel.expression, err)
			}
			if err != nil {
				if ctx.Err() != nil {
					// A cancelled call says nothing about the device.
					return ctx.Err()
				}
				r.failed[w] |= 1 << uint(b)
				if r.errs == nil {
					r.errs = map[int32]error{}
				}
				r.errs[int32(d)] = err
			} else if ok {
				r.match[w] |= 1 << uint(b)
			}
			r.known[w] |= 1 << uint(b)
		}
	}
	return nil
}

// isCompileError tells a deferred compile's failure (a *cel.Error) from an
// evaluation's. Out of line, so that the target of errors.As is not
// allocated for every evaluation.
func isCompileError(err error) bool {
	var compileErr *cel.Error
	return errors.As(err, &compileErr)
}
