package cel

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/library"

	"github.com/drakit/drakit/apis/resource/cel/internal/simple"
	"github.com/drakit/drakit/apis/resource/features"
)

// Limits of device selectors and derived attributes in the releases that
// have them (from 1.32 on; see Options.Release).
const (
	// SelectorMaxLength is the longest new expression (in bytes) a server
	// accepts; longer ones are refused without being compiled.
	SelectorMaxLength = resourcev1.CELSelectorExpressionMaxLength
	// SelectorMaxCost is the largest estimated cost of one new
	// expression.
	SelectorMaxCost = resourcev1.CELSelectorExpressionMaxCost
	// DerivedAttributesMaxCost bounds both the estimated cost of one
	// derived attribute and the sum of the estimated costs of all derived
	// attributes of a claim (Forbidden on spec.devices).
	DerivedAttributesMaxCost = resourcev1.DeviceClaimDerivedAttributeCELMaxCost
	// PerCallCostLimit is the default runtime cost after which an
	// evaluation is aborted: the API server's per-call limit, which 1.30
	// and 1.31 applied to selectors, and the size of the limit later
	// releases gave selectors of their own (SelectorMaxCost).
	PerCallCostLimit = celconfig.PerCallLimit
)

// tooComplex is the detail of the Forbidden error for an expression whose
// estimated cost is too high.
const tooComplex = "too complex, exceeds cost limit"

// Options says in which environment to compile an expression.
type Options struct {
	// Release is the Kubernetes minor release 1.N whose environment
	// compiles: 0 is the one drakit follows (catalogue.Release); 31 the
	// v1alpha3 device selectors of 1.31, 30 the v1alpha2 namedResources
	// selectors of 1.30 (which see the variables attributes.<type>
	// instead of device).
	Release int
	// Gates are the feature gates of the server. In the release drakit
	// follows, DRAConsumableCapacity declares
	// device.allowMultipleAllocations, DRAListTypeAttributes types
	// attribute values as dyn, adds includes(), lets derived attributes be
	// lists and puts list-valued attributes into the input. Other gates
	// and other releases do not look at them. Stored expressions ignore
	// the gates for what compiles.
	Gates features.Gates
	// Stored compiles in the environment for expressions that the server
	// already holds (what the scheduler uses): every library the release
	// knows and the device variable with all its fields, whatever the
	// gates say. Stored expressions are neither length- nor cost-checked:
	// a server does not validate them at all. Otherwise the expression is
	// new: compiled as of the release before, with the gates, and (from
	// 1.32 on) at most SelectorMaxLength bytes long and of an estimated
	// cost of at most SelectorMaxCost.
	Stored bool
	// DerivedAttribute compiles a derived attribute's expression, whose
	// result must be a string, int, bool or semver, or (with
	// DRAListTypeAttributes, or when stored) a list of those, instead of
	// a selector, whose result must be bool (or the attribute value type,
	// checked when evaluated). Releases before 1.32 have none.
	DerivedAttribute bool
	// CostLimit is the runtime cost after which an evaluation is aborted;
	// 0 means PerCallCostLimit, which is what servers and the scheduler
	// use.
	CostLimit uint64
	// SkipCostEstimate leaves out the estimate of the worst-case cost
	// (MaxCost is then 0) for a stored expression, which no limit applies
	// to: what an allocator wants, as the scheduler's selector cache
	// compiles without it too. Evaluations are still aborted at
	// CostLimit. New expressions are always estimated where the release
	// limits them.
	SkipCostEstimate bool
	// FastPath judges a stored selector of a plain shape without cel-go
	// where it can (package internal/simple: comparisons of the driver,
	// scalar attributes and capacities with literals, joined by &&, ||
	// and !), and compiles it with cel-go only when a device needs that
	// (Program.Compiled): what an allocator wants, whose first claim
	// would otherwise pay for compiling every selector of its classes.
	// Answers and errors are cel-go's either way. Only the 1.31
	// environment and that of the release followed have it.
	FastPath bool
}

// Error is why a server refuses an expression. FieldError gives the error
// it reports for the expression's field.
type Error struct {
	// Type is the kind of field error: TooLong (longer than
	// SelectorMaxLength, not compiled), Invalid (does not compile, or the
	// result type is wrong), Forbidden (estimated cost too high) or
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

func (e *Error) Error() string { return e.Detail }

// FieldError is the error the server reports at path.
func (e *Error) FieldError(path *field.Path) *field.Error {
	switch e.Type {
	case field.ErrorTypeTooLong:
		return field.TooLong(path, "", SelectorMaxLength)
	case field.ErrorTypeInvalid:
		return field.Invalid(path, e.Expression, e.Detail)
	case field.ErrorTypeForbidden:
		return field.Forbidden(path, e.Detail)
	}
	return field.InternalError(path, &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: e.Detail})
}

// Program is a compiled selector or derived attribute. It is safe for
// concurrent use.
type Program struct {
	expression string
	derived    bool
	// shape is how the program's release and gates see a device.
	shape shape
	// simple judges most devices without cel-go (Options.FastPath); nil
	// when not asked for or when the expression is not of its grammar.
	simple *simple.Selector

	// compiled is the cel-go program; with the fast path it is made the
	// first time an evaluation needs it (deferred).
	compiled compiled
	deferred *deferredCompile
}

// compiled is what cel-go made of an expression.
type compiled struct {
	program    cel.Program
	outputType *cel.Type
	maxCost    uint64
}

// deferredCompile is a compile left for the first evaluation that needs it.
type deferredCompile struct {
	release *release
	opts    Options
	once    sync.Once
	done    atomic.Bool
	err     error
}

// Expression is the source of the program.
func (p *Program) Expression() string { return p.expression }

// MaxCost is the estimated worst-case cost of one evaluation, which new
// expressions must keep at or below SelectorMaxCost and derived
// attributes of one claim at or below DerivedAttributesMaxCost in total;
// 0 when it was not estimated (SkipCostEstimate, a release before 1.32, or
// a fast-path program not compiled yet).
func (p *Program) MaxCost() uint64 {
	if !p.Compiled() {
		return 0
	}
	return p.compiled.maxCost
}

// OutputType is the type the checker inferred for the result, such as
// "bool", "int", "list(string)", "dyn" or "google.protobuf.Any". A
// fast-path program is compiled for it.
func (p *Program) OutputType() string {
	if p.compile() != nil {
		return ""
	}
	return p.compiled.outputType.String()
}

// DerivedAttribute says whether the program was compiled as a derived
// attribute.
func (p *Program) DerivedAttribute() bool { return p.derived }

// Compiled says whether cel-go has compiled the program: always, but for a
// fast-path program (Options.FastPath) that no evaluation has needed
// cel-go for yet.
func (p *Program) Compiled() bool { return p.deferred == nil || p.deferred.done.Load() }

// compile makes sure a fast-path program is compiled. The error is the
// *Error Compile would have returned, which for an expression of the
// simple grammar cannot happen (every such expression compiles).
func (p *Program) compile() error {
	d := p.deferred
	if d == nil {
		return nil
	}
	d.once.Do(func() {
		var err *Error
		if p.compiled, err = build(p.expression, d.release, d.opts); err != nil {
			d.err = err
		}
		d.done.Store(true)
	})
	return d.err
}

// Compile compiles a device selector (or, with opts.DerivedAttribute, a
// derived attribute) as the server of opts.Release does. The error is an
// *Error.
func Compile(expression string, opts Options) (*Program, error) {
	r, err := releaseOf(opts.Release)
	if err != nil {
		return nil, &Error{Type: field.ErrorTypeInternal, Detail: "unexpected error loading CEL environment: " + err.Error(), Expression: expression}
	}
	p := &Program{expression: expression, derived: opts.DerivedAttribute, shape: r.shape(opts.Gates)}
	if opts.FastPath && opts.Stored && !opts.DerivedAttribute && r.simpleGrammar != nil {
		if s, ok := r.simpleGrammar(expression); ok {
			p.simple = s
			p.deferred = &deferredCompile{release: r, opts: opts}
			return p, nil
		}
	}
	var cerr *Error
	if p.compiled, cerr = build(expression, r, opts); cerr != nil {
		return nil, cerr
	}
	return p, nil
}

// build compiles with cel-go: length, type-check, result type, program,
// cost estimate and its limit, in the order a server checks them.
func build(expression string, r *release, opts Options) (compiled, *Error) {
	fail := func(t field.ErrorType, detail string) (compiled, *Error) {
		return compiled{}, &Error{Type: t, Detail: detail, Expression: expression}
	}
	if r.limits && !opts.Stored && len(expression) > SelectorMaxLength {
		return fail(field.ErrorTypeTooLong, fmt.Sprintf("may not be more than %d bytes", SelectorMaxLength))
	}
	if opts.DerivedAttribute && !r.limits {
		return fail(field.ErrorTypeInternal, fmt.Sprintf("Kubernetes 1.%d has no derived attributes", r.minor))
	}
	variant := r.variantFor(opts.Gates)
	env, decl, err := r.env(variant, opts.Stored)
	if err != nil {
		return fail(field.ErrorTypeInternal, "unexpected error loading CEL environment: "+err.Error())
	}

	ast, issues := env.Compile(expression)
	if issues != nil && issues.Err() != nil {
		return fail(field.ErrorTypeInvalid, "compilation failed: "+issues.String())
	}
	out := ast.OutputType()
	if problem := resultProblem(out, decl, opts.DerivedAttribute, opts.Stored || variant == variantListAttributes || variant == variantBoth); problem != "" {
		return fail(field.ErrorTypeInvalid, problem)
	}

	prog, err := env.Program(ast, programOptions(r, opts)...)
	if err != nil {
		return fail(field.ErrorTypeInternal, "program instantiation failed: "+err.Error())
	}

	var maxCost uint64
	if r.limits && (!opts.Stored || !opts.SkipCostEstimate) {
		est, err := env.EstimateCost(ast, &library.CostEstimator{SizeEstimator: sizeEstimator{decl}})
		if err != nil {
			return fail(field.ErrorTypeInternal, "cost estimation failed: "+err.Error())
		}
		maxCost = est.Max
	}
	if r.limits && !opts.Stored {
		limit := uint64(SelectorMaxCost)
		if opts.DerivedAttribute {
			limit = min(SelectorMaxCost, DerivedAttributesMaxCost)
		}
		if maxCost > limit {
			return compiled{}, &Error{Type: field.ErrorTypeForbidden, Detail: tooComplex, Expression: expression, MaxCost: maxCost}
		}
	}
	return compiled{program: prog, outputType: out, maxCost: maxCost}, nil
}

// programOptions are added to the base environment's own, which turn on
// cost tracking and charge calls of the Kubernetes libraries by the
// Kubernetes cost model.
func programOptions(r *release, opts Options) []cel.ProgramOption {
	limit := opts.CostLimit
	if limit == 0 {
		limit = PerCallCostLimit
	}
	po := []cel.ProgramOption{cel.CostLimit(limit), cel.InterruptCheckFrequency(celconfig.CheckFrequency)}
	if r.flatCallCosts {
		// A nil estimator leaves every call at cel-go's default cost.
		po = append(po, cel.CostTracking(nil))
	}
	return po
}

// resultProblem says what is wrong with the result type out, or "" when it
// is acceptable. A selector must give bool; where the device variable is
// declared also the attribute value type ("any" or dyn), whether that is a
// bool being found out when evaluating. A derived attribute must give a
// value an attribute can hold, or with lists a list of them.
func resultProblem(out *cel.Type, decl declaration, derived, lists bool) string {
	switch {
	case derived:
		if derivedResultAllowed(out, lists) {
			return ""
		}
		what := "a primitive scalar (string, integer, boolean, semver)"
		if lists {
			what += " or a list of these scalars"
		}
		return fmt.Sprintf("must evaluate to %s, not %v", what, out)
	case decl.attribute == nil:
		// namedResources selectors insist on bool exactly.
		if out.IsExactType(cel.BoolType) {
			return ""
		}
		return fmt.Sprintf("must evaluate to %v", cel.BoolType)
	case out.IsExactType(cel.BoolType) || out.IsExactType(decl.attribute.CelType()):
		return ""
	}
	return fmt.Sprintf("must evaluate to %v or the unknown type, not %v", cel.BoolType, out)
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

// sizeEstimator gives the cost estimator the largest size of what an
// expression reaches through the device variable, from the sizes of the
// declaration (see deviceDeclarations); nothing else has a known size.
type sizeEstimator struct {
	decl declaration
}

func (s sizeEstimator) EstimateSize(node checker.AstNode) *checker.SizeEstimate {
	path := node.Path()
	if len(path) == 0 || path[0] != deviceVar || s.decl.device == nil {
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

func (sizeEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}
