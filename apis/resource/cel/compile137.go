package cel

import (
	"fmt"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/library"

	"github.com/drakit/drakit/apis/resource/features"
)

// Limits of 1.37 device selectors and derived attributes.
const (
	// SelectorMaxLength137 is the longest expression (in bytes) a 1.37
	// server accepts; longer ones are refused without being compiled.
	SelectorMaxLength137 = resourcev1.CELSelectorExpressionMaxLength
	// SelectorMaxCost137 is the largest estimated cost of one new
	// expression, and the default runtime cost limit of an evaluation.
	SelectorMaxCost137 = resourcev1.CELSelectorExpressionMaxCost
	// DerivedAttributesMaxCost137 bounds both the estimated cost of one
	// derived attribute and the sum of the estimated costs of all derived
	// attributes of a claim (Forbidden on spec.devices).
	DerivedAttributesMaxCost137 = resourcev1.DeviceClaimDerivedAttributeCELMaxCost
)

// tooComplex137 is the detail of the Forbidden error for an expression
// whose estimated cost is too high.
const tooComplex137 = "too complex, exceeds cost limit"

// Options137 says how to compile a 1.37 expression.
type Options137 struct {
	// Gates are the feature gates of the server. DRAConsumableCapacity
	// declares device.allowMultipleAllocations, DRAListTypeAttributes
	// types attribute values as dyn (list-valued attributes), adds
	// includes() and lets derived attributes be lists. Other gates do not
	// matter. Stored expressions ignore the gates.
	Gates features.Gates
	// Stored compiles in the environment for expressions that the server
	// already holds (what the scheduler uses): every library 1.37 knows
	// and the device variable with all its fields, whatever the gates
	// say. Stored expressions are neither length- nor cost-checked: a 1.37
	// server does not validate them at all (validation skips an
	// unchanged DeviceClass selector and a claim's, whose spec is
	// immutable). Otherwise the expression is new: compiled as of 1.36,
	// with the gates, at most SelectorMaxLength137 bytes long and of an
	// estimated cost of at most SelectorMaxCost137.
	Stored bool
	// DerivedAttribute compiles a derived attribute's expression, whose
	// result must be a string, int, bool or semver, or (with
	// DRAListTypeAttributes, or when stored) a list of those, instead of
	// a selector, whose result must be bool (or the attribute value type,
	// checked when evaluated).
	DerivedAttribute bool
	// CostLimit is the runtime cost after which an evaluation is aborted;
	// 0 means SelectorMaxCost137, which is what the scheduler uses.
	CostLimit uint64
	// SkipCostEstimate leaves out the estimate of the worst-case cost
	// (MaxCost is then 0) for a stored expression, which no limit applies
	// to: what an allocator wants, as the scheduler's selector cache
	// compiles without it too. Evaluations are still aborted at
	// CostLimit. New expressions are always estimated.
	SkipCostEstimate bool
}

// Error137 is why a 1.37 server refuses an expression. FieldError gives
// the error it reports for the expression's field.
type Error137 struct {
	// Type is the kind of field error: TooLong (longer than
	// SelectorMaxLength137, not compiled), Invalid (does not compile, or
	// the result type is wrong), Forbidden (estimated cost too high) or
	// InternalError (drakit could not build the environment).
	Type field.ErrorType
	// Detail is the message, in the server's words, for example
	// "compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' ...",
	// "must evaluate to bool or the unknown type, not int" or
	// "too complex, exceeds cost limit".
	Detail string
	// Expression is the expression as given.
	Expression string
	// MaxCost is the estimated cost when Type is Forbidden. For a derived
	// attribute it still counts towards the claim's total.
	MaxCost uint64
}

func (e *Error137) Error() string { return e.Detail }

// FieldError is the error a 1.37 server reports at path.
func (e *Error137) FieldError(path *field.Path) *field.Error {
	switch e.Type {
	case field.ErrorTypeTooLong:
		return field.TooLong(path, "", SelectorMaxLength137)
	case field.ErrorTypeInvalid:
		return field.Invalid(path, e.Expression, e.Detail)
	case field.ErrorTypeForbidden:
		return field.Forbidden(path, e.Detail)
	}
	return field.InternalError(path, &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: e.Detail})
}

// Program137 is a compiled 1.37 selector or derived attribute. It is safe
// for concurrent use.
type Program137 struct {
	expression string
	program    cel.Program
	outputType *cel.Type
	maxCost    uint64
	derived    bool
}

// Expression is the source of the program.
func (p *Program137) Expression() string { return p.expression }

// MaxCost is the estimated worst-case cost of one evaluation, which new
// expressions must keep at or below SelectorMaxCost137 and derived
// attributes of one claim at or below DerivedAttributesMaxCost137 in
// total.
func (p *Program137) MaxCost() uint64 { return p.maxCost }

// OutputType is the type the checker inferred for the result, such as
// "bool", "int", "list(string)", "dyn" or "google.protobuf.Any".
func (p *Program137) OutputType() string { return p.outputType.String() }

// DerivedAttribute says whether the program was compiled as a derived
// attribute.
func (p *Program137) DerivedAttribute() bool { return p.derived }

// CompileSelector137 compiles a device selector (or, with
// opts.DerivedAttribute, a derived attribute) as a 1.37 server does. The
// error is an *Error137.
func CompileSelector137(expression string, opts Options137) (*Program137, error) {
	fail := func(t field.ErrorType, detail string) (*Program137, error) {
		return nil, &Error137{Type: t, Detail: detail, Expression: expression}
	}
	if !opts.Stored && len(expression) > SelectorMaxLength137 {
		return fail(field.ErrorTypeTooLong, fmt.Sprintf("may not be more than %d bytes", SelectorMaxLength137))
	}

	variant := deviceVariantFor(opts.Gates)
	e, err := getEnv137(variant)
	if err != nil {
		return fail(field.ErrorTypeInternal, "unexpected error loading CEL environment: "+err.Error())
	}
	env := e.env(opts.Stored)
	decl := e.decl(variant, opts.Stored)

	ast, issues := env.Compile(expression)
	if issues != nil && issues.Err() != nil {
		return fail(field.ErrorTypeInvalid, "compilation failed: "+issues.String())
	}
	out := ast.OutputType()
	if opts.DerivedAttribute {
		lists := variant.listTypeAttributes() || opts.Stored
		if !derivedResultAllowed(out, lists) {
			what := "a primitive scalar (string, integer, boolean, semver)"
			if lists {
				what += " or a list of these scalars"
			}
			return fail(field.ErrorTypeInvalid, fmt.Sprintf("must evaluate to %s, not %v", what, out))
		}
	} else if !out.IsExactType(cel.BoolType) && !out.IsExactType(decl.attribute.CelType()) {
		// The attribute value type is "any" or dyn: whether such a value
		// is a bool is found out when evaluating.
		return fail(field.ErrorTypeInvalid, fmt.Sprintf("must evaluate to %v or the unknown type, not %v", cel.BoolType, out))
	}

	limit := opts.CostLimit
	if limit == 0 {
		limit = SelectorMaxCost137
	}
	prog, err := env.Program(ast, cel.CostLimit(limit), cel.InterruptCheckFrequency(celconfig.CheckFrequency))
	if err != nil {
		return fail(field.ErrorTypeInternal, "program instantiation failed: "+err.Error())
	}

	var maxCost uint64
	if !opts.Stored || !opts.SkipCostEstimate {
		est, err := env.EstimateCost(ast, &library.CostEstimator{SizeEstimator: sizeEstimator137{decl}})
		if err != nil {
			return fail(field.ErrorTypeInternal, "cost estimation failed: "+err.Error())
		}
		maxCost = est.Max
	}
	if !opts.Stored {
		limit := uint64(SelectorMaxCost137)
		if opts.DerivedAttribute {
			limit = min(SelectorMaxCost137, DerivedAttributesMaxCost137)
		}
		if maxCost > limit {
			return nil, &Error137{Type: field.ErrorTypeForbidden, Detail: tooComplex137, Expression: expression, MaxCost: maxCost}
		}
	}

	return &Program137{
		expression: expression,
		program:    prog,
		outputType: out,
		maxCost:    maxCost,
		derived:    opts.DerivedAttribute,
	}, nil
}

// derivedResultAllowed says whether a derived attribute may evaluate to t:
// a scalar an attribute can hold, a value whose type is only known when
// evaluating (an attribute lookup), or, if lists are allowed, a list of
// one of those.
func derivedResultAllowed(t *cel.Type, lists bool) bool {
	if derivedElementAllowed(t) {
		return true
	}
	if lists && t.Kind() == types.ListKind && len(t.Parameters()) == 1 {
		return derivedElementAllowed(t.Parameters()[0])
	}
	return false
}

func derivedElementAllowed(t *cel.Type) bool {
	for _, ok := range []*cel.Type{cel.BoolType, cel.IntType, cel.StringType, cel.AnyType, cel.DynType, apiservercel.SemverType} {
		if t.IsExactType(ok) {
			return true
		}
	}
	return false
}

// sizeEstimator137 gives the cost estimator the largest size of what an
// expression reaches through the device variable, from the sizes of the
// declaration (see deviceDecls137); nothing else has a known size.
type sizeEstimator137 struct {
	decl deviceDecl137
}

func (s sizeEstimator137) EstimateSize(node checker.AstNode) *checker.SizeEstimate {
	path := node.Path()
	if len(path) == 0 || path[0] != device137Var {
		return nil
	}
	t := s.decl.device
	for _, step := range path[1:] {
		switch step {
		case "@items", "@values":
			t = t.ElemType
		case "@keys":
			t = t.KeyType
		default:
			if f, ok := t.Fields[step]; ok {
				t = f.Type
			} else if t.ElemType == s.decl.attribute {
				// device.attributes[domain].id: a field selection on the
				// map of one domain's attributes.
				t = s.decl.attribute
			} else {
				return nil
			}
		}
		if t == nil {
			return nil
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(t.MaxElements)}
}

func (sizeEstimator137) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}
