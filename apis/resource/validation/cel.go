package validation

import (
	"errors"

	"k8s.io/apimachinery/pkg/util/validation/field"

	drakitcel "github.com/drakit/drakit/apis/resource/cel"
)

// compileCEL is validation's one way into CEL, for every release's rules:
// it compiles an expression as the server of opts.Release does and
// returns its estimated cost, or the error the server reports for it,
// without a path (celFieldError places it). An estimated cost above the
// limit is not an error here: the caller decides, as it also counts a
// derived attribute's cost towards its claim's total. compileWithCEL is
// the one of package apis/resource/cel; tests replace it to observe which
// environment each expression is compiled in.
type compileCEL func(expression string, opts drakitcel.Options) (maxCost uint64, err *field.Error)

// compileWithCEL compiles with drakitcel.Compile.
func compileWithCEL(expression string, opts drakitcel.Options) (uint64, *field.Error) {
	p, err := drakitcel.Compile(expression, opts)
	if err == nil {
		return p.MaxCost(), nil
	}
	var e *drakitcel.Error
	if !errors.As(err, &e) {
		return 0, field.InternalError(nil, err)
	}
	if e.Type == field.ErrorTypeForbidden {
		return e.MaxCost, nil
	}
	return 0, e.FieldError(nil)
}

// rememberCEL remembers compile's outcomes for the duration of one
// validation (a List or a class often repeats the same expression).
func rememberCEL(compile compileCEL) compileCEL {
	type key struct {
		expression string
		opts       drakitcel.Options
	}
	type outcome struct {
		cost uint64
		err  *field.Error
	}
	seen := map[key]outcome{}
	return func(expression string, opts drakitcel.Options) (uint64, *field.Error) {
		k := key{expression, opts}
		if o, ok := seen[k]; ok {
			return o.cost, o.err
		}
		cost, err := compile(expression, opts)
		seen[k] = outcome{cost, err}
		return cost, err
	}
}

// newCELCompiler makes the compiler of one validation by the frozen
// releases' rules; tests replace it. The live rules take theirs from
// envV1.compileCEL.
var newCELCompiler = func() compileCEL { return rememberCEL(compileWithCEL) }

// celFieldError is the error reported at p for the compiler's error, as
// the API server's convertCELErrorToValidationError makes it: Required at
// p, Invalid at p with the expression as the value, an internal error as
// it is at p.
func celFieldError(err *field.Error, expression string, p *field.Path) *field.Error {
	switch err.Type {
	case field.ErrorTypeRequired:
		return field.Required(p, err.Detail)
	case field.ErrorTypeInvalid:
		return field.Invalid(p, expression, err.Detail)
	case field.ErrorTypeInternal:
		e := *err
		e.Field = p.String()
		return &e
	}
	return field.InternalError(p, errors.New("unsupported error type: "+err.Error()))
}

// deviceSelectorExpression checks a v1alpha3 selector expression (1.31's
// validateCELSelector). stored says the expression was already stored by
// the API server and is unchanged by the update, which makes the release
// use its more permissive "stored expressions" environment. An empty
// expression is not special: it fails to compile (Invalid).
func (c *checker) deviceSelectorExpression(expression string, stored bool, p *field.Path) field.ErrorList {
	if c.cel == nil {
		return nil
	}
	if _, err := c.cel(expression, drakitcel.Options{Release: 31, Stored: stored}); err != nil {
		return field.ErrorList{celFieldError(err, expression, p)}
	}
	return nil
}

// namedResourcesSelectorExpression checks a v1alpha2 selector (1.30's
// validateSelector of the namedResources package): it is Required, then
// must compile.
func (c *checker) namedResourcesSelectorExpression(expression string, stored bool, p *field.Path) field.ErrorList {
	if expression == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	if c.cel == nil {
		return nil
	}
	if _, err := c.cel(expression, drakitcel.Options{Release: 30, Stored: stored}); err != nil {
		return field.ErrorList{celFieldError(err, expression, p)}
	}
	return nil
}
