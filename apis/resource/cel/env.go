package cel

import (
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"
)

// EnvType chooses between the two environments the API server keeps for
// every kind of expression.
type EnvType int

const (
	// NewExpressions is the environment for expressions that are being
	// written: created, or changed by an update. It offers only the
	// libraries of the release before (the API server's compatibility
	// version), so that a downgrade still understands them.
	NewExpressions EnvType = iota
	// StoredExpressions is the environment for expressions that were already
	// stored and are left unchanged by an update. It offers everything the
	// release knows.
	StoredExpressions
)

func (t EnvType) String() string {
	if t == StoredExpressions {
		return "StoredExpressions"
	}
	return "NewExpressions"
}

// Limits that the API server applies to every evaluation.
const (
	// PerCallCostLimit is the runtime cost after which an evaluation is
	// aborted (k8s.io/apiserver PerCallLimit).
	PerCallCostLimit = 1000000
	// interruptCheckFrequency is how many comprehension iterations pass
	// between checks of the context.
	interruptCheckFrequency = 100
	// maxAttributesPerDevice bounds the maps of the device variable
	// (ResourceSliceMaxAttributesAndCapacitiesPerDevice).
	maxAttributesPerDevice = 32
)

// baseOptions is the API server's base environment (k8s.io/apiserver
// environment.MustBaseEnvSet) as of the given compatibility minor version
// of Kubernetes 1.x. Libraries that drakit does not implement are listed in
// doc.go.
func baseOptions(compatMinor int) []cel.EnvOption {
	opts := []cel.EnvOption{
		cel.HomogeneousAggregateLiterals(),
		cel.EagerlyValidateDeclarations(true),
		cel.DefaultUTCTimeZone(true),
		cel.Lib(urlLibrary{}),
		cel.Lib(regexLibrary{}),
		cel.Lib(listsLibrary{}),
		cel.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
	}
	if compatMinor >= 28 {
		opts = append(opts,
			cel.CrossTypeNumericComparisons(true),
			cel.OptionalTypes(),
			cel.Lib(quantityLibrary{}),
		)
	}
	if compatMinor >= 29 {
		opts = append(opts,
			cel.ASTValidators(
				cel.ValidateDurationLiterals(),
				cel.ValidateTimestampLiterals(),
				cel.ValidateRegexLiterals(),
				cel.ValidateHomogeneousAggregateLiterals(),
			),
			ext.Strings(ext.StringsVersion(2)),
			ext.Sets(),
		)
	} else {
		opts = append(opts, ext.Strings(ext.StringsVersion(0)))
	}
	if compatMinor >= 30 {
		opts = append(opts, cel.Lib(ipLibrary{}), cel.Lib(cidrLibrary{}))
	}
	return opts
}

// programOptions are the options of every program: cost tracking with the
// API server's per-call limit, and context checks in comprehensions.
func programOptions() []cel.ProgramOption {
	return []cel.ProgramOption{
		cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost),
		cel.CostLimit(PerCallCostLimit),
		cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)),
		cel.InterruptCheckFrequency(interruptCheckFrequency),
	}
}

// fastProgramOptions are programOptions without cost tracking, for
// expressions whose estimated cost stays within the limit anyway.
func fastProgramOptions() []cel.ProgramOption {
	return []cel.ProgramOption{
		cel.EvalOptions(cel.OptOptimize),
		cel.InterruptCheckFrequency(interruptCheckFrequency),
	}
}

// maxAttributeValueLength bounds attribute strings
// (DeviceAttributeMaxValueLength) for cost estimates.
const maxAttributeValueLength = 64

// Releases whose environments this package reproduces: the device
// selectors of 1.31 (v1alpha3) and the named-resources selectors of 1.30
// (v1alpha2). The new-expressions environment of a release is the base
// environment of the release before.
const (
	deviceRelease         = 31
	namedResourcesRelease = 30
)

func compatMinor(release int, t EnvType) int {
	if t == StoredExpressions {
		return release
	}
	return release - 1
}

type envs struct {
	once  sync.Once
	build func(EnvType) (*cel.Env, error)
	env   [2]*cel.Env
	err   error
}

func (e *envs) get(t EnvType) (*cel.Env, error) {
	e.once.Do(func() {
		for _, typ := range []EnvType{NewExpressions, StoredExpressions} {
			env, err := e.build(typ)
			if err != nil {
				e.err = fmt.Errorf("building the %s CEL environment: %w", typ, err)
				return
			}
			e.env[typ] = env
		}
	})
	if t != NewExpressions && t != StoredExpressions {
		return nil, fmt.Errorf("unknown CEL environment type %d", int(t))
	}
	return e.env[t], e.err
}

// ---------------------------------------------------------------------------
// v1alpha3 (1.31): one variable, device.

const (
	deviceVar      = "device"
	driverField    = "driver"
	attributeField = "attributes"
	capacityField  = "capacity"
	deviceTypeName = "kubernetes.DRADevice"
)

var (
	deviceType = types.NewObjectType(deviceTypeName)
	// Attribute values are typed as the API server types them: "any"
	// (google.protobuf.Any), which the checker lets every operator accept.
	deviceFields = map[string]*types.Type{
		driverField:    types.StringType,
		attributeField: types.NewMapType(types.StringType, types.NewMapType(types.StringType, types.AnyType)),
		capacityField:  types.NewMapType(types.StringType, types.NewMapType(types.StringType, QuantityType)),
	}
	deviceFieldNames = []string{driverField, attributeField, capacityField}
)

// deviceTypeProvider adds the object type kubernetes.DRADevice to the
// environment's types, so that the checker knows its three fields and
// rejects any other (device.foo).
type deviceTypeProvider struct {
	types.Provider
}

func (p deviceTypeProvider) FindStructType(name string) (*types.Type, bool) {
	if name == deviceTypeName {
		return types.NewTypeTypeWithParam(deviceType), true
	}
	return p.Provider.FindStructType(name)
}

func (p deviceTypeProvider) FindStructFieldNames(name string) ([]string, bool) {
	if name == deviceTypeName {
		return append([]string(nil), deviceFieldNames...), true
	}
	return p.Provider.FindStructFieldNames(name)
}

func (p deviceTypeProvider) FindStructFieldType(name, field string) (*types.FieldType, bool) {
	if name == deviceTypeName {
		t, ok := deviceFields[field]
		if !ok {
			return nil, false
		}
		return &types.FieldType{Type: t}, true
	}
	return p.Provider.FindStructFieldType(name, field)
}

func (p deviceTypeProvider) NewValue(name string, fields map[string]ref.Val) ref.Val {
	if name == deviceTypeName {
		return types.NewErr("%s values cannot be constructed in an expression", deviceTypeName)
	}
	return p.Provider.NewValue(name, fields)
}

var deviceEnvs = envs{build: func(t EnvType) (*cel.Env, error) {
	base, err := cel.NewEnv(baseOptions(compatMinor(deviceRelease, t))...)
	if err != nil {
		return nil, err
	}
	return base.Extend(
		cel.CustomTypeProvider(deviceTypeProvider{Provider: base.CELTypeProvider()}),
		cel.Variable(deviceVar, deviceType),
		cel.Lib(semverLibrary{}),
		ext.Bindings(),
	)
}}

// ---------------------------------------------------------------------------
// v1alpha2 (1.30): one map variable per value type.

// Value types of named-resources attributes, as named in the variables
// attributes.<type>.
const (
	namedQuantity    = "quantity"
	namedBool        = "bool"
	namedInt         = "int"
	namedIntSlice    = "intslice"
	namedString      = "string"
	namedStringSlice = "stringslice"
	namedVersion     = "version"
)

var namedValueTypes = []struct {
	name string
	t    *cel.Type
}{
	{namedQuantity, QuantityType},
	{namedBool, cel.BoolType},
	{namedInt, cel.IntType},
	{namedIntSlice, cel.ListType(cel.IntType)},
	{namedString, cel.StringType},
	{namedStringSlice, cel.ListType(cel.StringType)},
	{namedVersion, SemverType},
}

const namedVarPrefix = "attributes."

var namedResourcesEnvs = envs{build: func(t EnvType) (*cel.Env, error) {
	opts := baseOptions(compatMinor(namedResourcesRelease, t))
	for _, v := range namedValueTypes {
		opts = append(opts, cel.Variable(namedVarPrefix+v.name, cel.MapType(cel.StringType, v.t)))
	}
	opts = append(opts, cel.Lib(semverLibrary{}))
	return cel.NewEnv(opts...)
}}
