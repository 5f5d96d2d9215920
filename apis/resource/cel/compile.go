package cel

import (
	"fmt"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
)

// CompileError is an expression that does not compile. Error() is the
// message the API server of the release puts into its field.Invalid
// error for the expression field (or into field.InternalError when
// Internal is set, which only a broken environment causes).
type CompileError struct {
	// Expression is the expression as given.
	Expression string
	// Message says what is wrong, in the API server's words, for example
	// "compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' ..."
	// or "must evaluate to bool or the unknown type, not int".
	Message string
	// Internal marks a failure of drakit rather than of the expression.
	Internal bool
}

func (e *CompileError) Error() string { return e.Message }

// DeviceProgram is a compiled v1alpha3 selector. It is safe for concurrent use.
type DeviceProgram struct {
	expression string
	program    cel.Program
}

// Expression is the source of the program.
func (p *DeviceProgram) Expression() string { return p.expression }

// NamedResourcesProgram is a compiled v1alpha2 (1.30) named-resources
// selector. It is safe for concurrent use.
type NamedResourcesProgram struct {
	expression string
	program    cel.Program
}

// Expression is the source of the program.
func (p *NamedResourcesProgram) Expression() string { return p.expression }

// CompileDeviceSelector type-checks a v1alpha3 selector expression in the
// environment the 1.31 API server uses for new expressions. The error, if
// any, is a *CompileError whose Error() is the message the 1.31 API server
// would put into field.Invalid.
func CompileDeviceSelector(expression string) (*DeviceProgram, error) {
	return CompileDeviceSelectorIn(expression, NewExpressions)
}

// CompileDeviceSelectorIn is CompileDeviceSelector in the given environment.
// The API server compiles a DeviceClass's selectors as stored expressions
// when an update leaves them unchanged, and a claim's always as stored on
// update (its spec is immutable).
func CompileDeviceSelectorIn(expression string, envType EnvType) (*DeviceProgram, error) {
	prog, cerr := compile(&deviceEnvs, envType, expression, func(t *types.Type) string {
		// 1.31 accepts bool and the "unknown" type, which is what an
		// attribute lookup (typed google.protobuf.Any) yields.
		if t.Kind() == types.BoolKind || t.Kind() == types.AnyKind {
			return ""
		}
		return fmt.Sprintf("must evaluate to %v or the unknown type, not %v", cel.BoolType, t)
	})
	if cerr != nil {
		return nil, cerr
	}
	return &DeviceProgram{expression: expression, program: prog}, nil
}

// CompileNamedResourcesSelector type-checks a v1alpha2 namedResources
// selector (ResourceClaimParameters driverRequests[].requests[] and
// ResourceClassParameters filters[]) in the environment the 1.30 API server
// uses for new expressions. Errors are as for CompileDeviceSelector.
func CompileNamedResourcesSelector(expression string) (*NamedResourcesProgram, error) {
	return CompileNamedResourcesSelectorIn(expression, NewExpressions)
}

// CompileNamedResourcesSelectorIn is CompileNamedResourcesSelector in the
// given environment (stored: a ResourceClaimParameters update that leaves
// driverRequests unchanged).
func CompileNamedResourcesSelectorIn(expression string, envType EnvType) (*NamedResourcesProgram, error) {
	prog, cerr := compile(&namedResourcesEnvs, envType, expression, func(t *types.Type) string {
		// 1.30 insists on bool exactly.
		if t.Kind() == types.BoolKind {
			return ""
		}
		return fmt.Sprintf("must evaluate to %v", cel.BoolType)
	})
	if cerr != nil {
		return nil, cerr
	}
	return &NamedResourcesProgram{expression: expression, program: prog}, nil
}

// compile parses and checks expression; resultProblem says what is wrong
// with the result type, or "" when it is acceptable.
func compile(e *envs, envType EnvType, expression string, resultProblem func(*types.Type) string) (cel.Program, *CompileError) {
	env, err := e.get(envType)
	if err != nil {
		return nil, &CompileError{Expression: expression, Message: err.Error(), Internal: true}
	}
	ast, issues := env.Compile(expression)
	if issues != nil && issues.Err() != nil {
		return nil, &CompileError{Expression: expression, Message: "compilation failed: " + issues.String()}
	}
	if msg := resultProblem(ast.OutputType()); msg != "" {
		return nil, &CompileError{Expression: expression, Message: msg}
	}
	prog, err := env.Program(ast, e.programOptions()...)
	if err != nil {
		return nil, &CompileError{Expression: expression, Message: "program instantiation failed: " + err.Error(), Internal: true}
	}
	return prog, nil
}
