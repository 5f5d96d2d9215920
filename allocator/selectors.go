package allocator

import (
	"context"
	"fmt"

	"github.com/drakit/drakit/apis/resource/cel"
)

// selectorProgram is one selector expression: its simple form, if it has
// one, and its compiled program, made when first needed.
type selectorProgram struct {
	expression string
	// simple judges most devices without cel-go (cel.SimpleSelector);
	// nil when the expression is not of the simple grammar.
	simple *cel.SimpleSelector
	// The program, once compiled: program for the 1.31 semantics
	// (legacy), program137 otherwise.
	program    *cel.DeviceProgram
	program137 *cel.Program137
	// err is why a deferred compile failed.
	err error
}

// selectorID gives an expression its index in the per-slice result tables.
// An expression of the simple grammar is not compiled until a device needs
// the real program (see evaluate); any other is compiled now. Compiled
// programs belong to the Allocator, never to a package-level cache (only
// the CEL environments are shared, as upstream's are): a fresh Allocator
// pays for every compile as a fresh process would, which is what
// hack/allocbench's cold benchmarks measure.
func (a *Allocator) selectorID(expression string) (int, error) {
	if id, ok := a.selectorIDs[expression]; ok {
		// A deferred compile that failed fails from now on as an
		// immediate one would have.
		return id, a.selectors[id].err
	}
	sel := selectorProgram{expression: expression}
	if simple, ok := cel.ParseSimpleSelector(expression, false); ok {
		sel.simple = simple
	} else if err := a.compile(&sel); err != nil {
		return -1, err
	}
	id := len(a.selectors)
	a.selectors = append(a.selectors, sel)
	a.selectorIDs[expression] = id
	return id, nil
}

// compile compiles the selector's program in the environment of stored
// expressions.
func (a *Allocator) compile(sel *selectorProgram) error {
	a.stats.Compiled++
	// Without the cost estimate, as the scheduler's selector cache
	// compiles: no limit applies to a stored expression's estimate.
	program, err := cel.CompileSelector137(sel.expression, cel.Options137{Stored: true, SkipCostEstimate: true})
	if err != nil {
		return err
	}
	sel.program137 = program
	return nil
}

// evaluate makes sure the selector's result is known for the devices in mask.
func (a *Allocator) evaluate(ctx context.Context, e *sliceEntry, id int, mask []uint64) error {
	for len(e.results) <= id {
		e.results = append(e.results, nil)
	}
	r := e.results[id]
	if r == nil {
		r = &selectorResults{
			known:  make([]uint64, e.words),
			match:  make([]uint64, e.words),
			failed: make([]uint64, e.words),
		}
		e.results[id] = r
	}
	sel := &a.selectors[id]
	if sel.simple != nil && e.simple == nil {
		e.simple = make([]cel.SimpleDevice, len(e.devices))
		for d := range e.devices {
			e.simple[d] = cel.NewSimpleDevice(e.driver, &e.devices[d], a.features.ListTypeAttributes)
		}
	}
	for w := range mask {
		todo := mask[w] &^ r.known[w]
		for todo != 0 {
			b := trailingZeros(todo)
			todo &^= 1 << uint(b)
			d := w*64 + b
			a.stats.Evaluations++
			if sel.simple != nil {
				if match, ok := sel.simple.Match(&e.simple[d]); ok {
					if match {
						r.match[w] |= 1 << uint(b)
					}
					r.known[w] |= 1 << uint(b)
					continue
				}
			}
			if sel.program == nil && sel.program137 == nil {
				if sel.err == nil {
					sel.err = a.compile(sel)
				}
				if sel.err != nil {
					// Cannot happen for an expression
					// ParseSimpleSelector accepts; selectorID reports
					// the error from now on.
					return fmt.Errorf("selector %q does not compile: %w", sel.expression, sel.err)
				}
			}
			var ok bool
			var err error
			if sel.program != nil {
				if e.inputs == nil {
					e.inputs = make([]*cel.Device, len(e.devices))
				}
				in := e.inputs[d]
				if in == nil {
					in = cel.NewDevice(e.driver, &e.devices[d])
					e.inputs[d] = in
				}
				ok, err = sel.program.Matches(ctx, in)
			} else {
				var in *cel.Input137
				if in, err = a.input137(e, d); err == nil {
					ok, err = sel.program137.Matches(ctx, in)
				}
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
