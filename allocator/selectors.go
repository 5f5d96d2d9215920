package allocator

import (
	"context"

	"github.com/drakit/drakit/apis/resource/cel"
)

// selectorID gives an expression its index in the per-slice result tables,
// compiling it on first sight. Compiled programs belong to the Allocator,
// never to a package-level cache (only the CEL environments are shared,
// as upstream's are): a fresh Allocator pays for every compile as a fresh
// process would, which is what hack/allocbench's cold benchmarks measure.
func (a *Allocator) selectorID(expression string) (int, error) {
	if id, ok := a.selectorIDs[expression]; ok {
		return id, nil
	}
	if !a.legacy {
		// Without the cost estimate, as the scheduler's selector cache
		// compiles: no limit applies to a stored expression's estimate.
		program, err := cel.CompileSelector137(expression, cel.Options137{Stored: true, SkipCostEstimate: true})
		if err != nil {
			return -1, err
		}
		id := len(a.selectorPrograms137)
		a.selectorPrograms137 = append(a.selectorPrograms137, program)
		a.selectorIDs[expression] = id
		return id, nil
	}
	program, err := a.compiled.DeviceSelector(expression)
	if err != nil {
		return -1, err
	}
	id := len(a.selectorPrograms)
	a.selectorPrograms = append(a.selectorPrograms, program)
	a.selectorIDs[expression] = id
	return id, nil
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
	var program *cel.DeviceProgram
	if a.legacy {
		program = a.selectorPrograms[id]
	}
	for w := range mask {
		todo := mask[w] &^ r.known[w]
		for todo != 0 {
			b := trailingZeros(todo)
			todo &^= 1 << uint(b)
			d := w*64 + b
			a.stats.Evaluations++
			var ok bool
			var err error
			if program != nil {
				if e.inputs == nil {
					e.inputs = make([]*cel.Device, len(e.devices))
				}
				in := e.inputs[d]
				if in == nil {
					in = cel.NewDevice(e.driver, &e.devices[d])
					e.inputs[d] = in
				}
				ok, err = program.Matches(ctx, in)
			} else {
				var in *cel.Input137
				if in, err = a.input137(e, d); err == nil {
					ok, err = a.selectorPrograms137[id].Matches(ctx, in)
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
