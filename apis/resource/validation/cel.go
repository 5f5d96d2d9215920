package validation

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	drakitcel "github.com/drakit/drakit/apis/resource/cel"
)

// selectorCompiler type-checks CEL selectors in the environment of a
// release. stored says the expression was already stored by the API server
// and is unchanged by the update, which makes the release use its more
// permissive "stored expressions" environment. The error is a
// *drakitcel.Error for an expression that does not compile; any
// other error is a failure of the compiler itself.
type selectorCompiler interface {
	// deviceSelector compiles a v1alpha3 (1.31) device selector.
	deviceSelector(expression string, stored bool) error
	// namedResourcesSelector compiles a v1alpha2 (1.30) namedResources selector.
	namedResourcesSelector(expression string, stored bool) error
}

// releaseCEL compiles with the environments of package
// apis/resource/cel, remembering outcomes for the duration of one
// validation (a List or a class often repeats the same expression).
type releaseCEL struct {
	seen map[celKey]error
}

type celKey struct {
	named      bool
	stored     bool
	expression string
}

func newReleaseCEL() *releaseCEL { return &releaseCEL{seen: map[celKey]error{}} }

// newSelectorCompiler makes the compiler for one validation; tests replace
// it to observe which environment each expression is compiled in.
var newSelectorCompiler = func() selectorCompiler { return newReleaseCEL() }

func (r *releaseCEL) deviceSelector(expression string, stored bool) error {
	k := celKey{false, stored, expression}
	if err, ok := r.seen[k]; ok {
		return err
	}
	_, err := drakitcel.Compile(expression, drakitcel.Options{Release: 31, Stored: stored})
	r.seen[k] = err
	return err
}

func (r *releaseCEL) namedResourcesSelector(expression string, stored bool) error {
	k := celKey{true, stored, expression}
	if err, ok := r.seen[k]; ok {
		return err
	}
	_, err := drakitcel.Compile(expression, drakitcel.Options{Release: 30, Stored: stored})
	r.seen[k] = err
	return err
}

// celError turns a compiler error into the field error the release
// reports: Invalid with the compiler's message for an expression that does
// not compile, InternalError for anything else.
func celError(err error, expression string, p *field.Path) *field.Error {
	var ce *drakitcel.Error
	if errors.As(err, &ce) && ce.Type == field.ErrorTypeInvalid {
		return field.Invalid(p, expression, ce.Detail)
	}
	return field.InternalError(p, fmt.Errorf("compiling the CEL expression: %w", err))
}

// deviceSelectorExpression checks a v1alpha3 selector expression (1.31's
// validateCELSelector). An empty expression is not special: it fails to
// compile (Invalid).
func (c *checker) deviceSelectorExpression(expression string, stored bool, p *field.Path) field.ErrorList {
	if c.cel == nil {
		return nil
	}
	if err := c.cel.deviceSelector(expression, stored); err != nil {
		return field.ErrorList{celError(err, expression, p)}
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
	if err := c.cel.namedResourcesSelector(expression, stored); err != nil {
		return field.ErrorList{celError(err, expression, p)}
	}
	return nil
}
