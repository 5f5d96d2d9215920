package cel

import (
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"

	"github.com/drakit/drakit/internal/quantityguard"
)

// EnvType chooses between the two environments the API server keeps for
// every kind of expression.
type EnvType int

const (
	// NewExpressions is the environment for expressions that are being
	// written: created, or changed by an update. It offers only the
	// libraries of the release's compatibility version (the release
	// before), so that a downgrade still understands them.
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

// Limits of every evaluation.
const (
	// PerCallCostLimit is the runtime cost after which an evaluation is
	// aborted. It is the API server's per-call limit, which the releases
	// this package reproduces applied to selectors; later releases gave
	// selectors a limit of their own (CELSelectorExpressionMaxCost) of the
	// same size. Neither 1.30 nor 1.31 rejected a selector for its
	// estimated cost when it was written, so no limit applies at compile
	// time.
	PerCallCostLimit = 1000000
	// maxAttributesPerDevice bounds the maps of the device variable
	// (ResourceSliceMaxAttributesAndCapacitiesPerDevice); the API server
	// declares it on the map types, where cost estimates read it.
	maxAttributesPerDevice = 32
)

// release is a Kubernetes minor release 1.N whose selector environments
// this package reproduces, with the libraries of the Kubernetes CEL base
// environment (k8s.io/apiserver/pkg/cel/environment) as that release had
// them. Supporting another release takes one more value of this type.
type release uint

const (
	// release130 checks v1alpha2 named-resources selectors.
	release130 release = 30
	// release131 checks v1alpha3 device selectors.
	release131 release = 31
)

// compatibilityVersion is what the release's API server passed to the base
// environment for new expressions (environment.DefaultCompatibilityVersion
// of that release): the release before, so that an expression it accepts
// is understood after a downgrade by one release.
func (r release) compatibilityVersion() *version.Version {
	return version.MajorMinor(1, uint(r)-1)
}

// version is the release itself. Everything introduced up to it is what
// its API server offered to stored expressions.
func (r release) version() *version.Version {
	return version.MajorMinor(1, uint(r))
}

// envAt is the base environment as of ver, extended by the selector's own
// declarations. Only the NewExpressions half of the EnvSet is used: its
// StoredExpressions half holds everything this copy of k8s.io/apiserver
// knows, which is more than any older release offered.
func envAt(ver *version.Version, opts []environment.VersionedOptions) (*cel.Env, error) {
	set, err := environment.MustBaseEnvSet(ver).Extend(opts...)
	if err != nil {
		return nil, err
	}
	return set.NewExpressionsEnv(), nil
}

// envs builds and keeps the two environments of one kind of selector in
// one release.
type envs struct {
	release release
	options func() []environment.VersionedOptions
	// libraryCallCosts says whether calls of Kubernetes library functions
	// cost what the Kubernetes cost model says at run time ("strict cost"
	// in the release's terms) rather than cel-go's flat cost of one call.
	// Each release's DRA package chose this for its own environment.
	libraryCallCosts bool

	once sync.Once
	env  [2]*cel.Env
	err  error
}

func (e *envs) get(t EnvType) (*cel.Env, error) {
	if t != NewExpressions && t != StoredExpressions {
		return nil, fmt.Errorf("unknown CEL environment type %d", int(t))
	}
	e.once.Do(func() {
		opts := append(commonOptions(), e.options()...)
		for typ, ver := range map[EnvType]*version.Version{
			NewExpressions:    e.release.compatibilityVersion(),
			StoredExpressions: e.release.version(),
		} {
			env, err := envAt(ver, opts)
			if err != nil {
				e.err = fmt.Errorf("building the %s CEL environment of Kubernetes 1.%d: %w", typ, uint(e.release), err)
				return
			}
			e.env[typ] = env
		}
	})
	return e.env[t], e.err
}

// programOptions are added to the base environment's own, which turn on
// cost tracking with the API server's per-call limit and charge calls of
// the Kubernetes libraries by the Kubernetes cost model.
func (e *envs) programOptions() []cel.ProgramOption {
	opts := []cel.ProgramOption{
		cel.CostLimit(PerCallCostLimit),
		cel.InterruptCheckFrequency(celconfig.CheckFrequency),
	}
	if !e.libraryCallCosts {
		// A nil estimator leaves every call at cel-go's default cost.
		opts = append(opts, cel.CostTracking(nil))
	}
	return opts
}

// commonOptions are declarations that both kinds of selector add to the
// base environment.
func commonOptions() []environment.VersionedOptions {
	return []environment.VersionedOptions{
		{
			// The DRA packages of 1.30 and 1.31 declared the semver
			// functions themselves, in both environments; version 0 of the
			// library is the same set of functions. From 1.33 on the base
			// environment carries the library (version 1, which adds
			// semver(string, bool)); cel-go then ignores this second copy,
			// because a library of the same name is already present.
			IntroducedVersion: version.MajorMinor(1, 0),
			EnvOptions:        []cel.EnvOption{library.SemverLib(library.SemverVersion(0))},
		},
		{
			// Same version as the quantity library of the base environment,
			// whose two parsing functions these replace.
			IntroducedVersion: version.MajorMinor(1, 28),
			EnvOptions:        guardedQuantityParsing(),
		},
	}
}

// guardedQuantityParsing redefines the implementations of quantity(string)
// and isQuantity(string) with the same overload ids and signatures (cel-go
// lets a later declaration replace the binding). apimachinery's
// ParseQuantity does not return for exponents that wrap around its int32
// scale ("1E2147483648"), and neither the cost limit nor a cancelled
// context interrupts a single function call, so such strings are refused
// by quantityguard before they get there. Everything else is parsed and
// reported exactly as the library does.
func guardedQuantityParsing() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("quantity",
			cel.Overload("string_to_quantity", []*cel.Type{cel.StringType}, apiservercel.QuantityType,
				cel.UnaryBinding(func(arg ref.Val) ref.Val {
					s, ok := arg.Value().(string)
					if !ok {
						return types.MaybeNoSuchOverloadErr(arg)
					}
					if err := quantityguard.Check(s); err != nil {
						return types.WrapErr(err)
					}
					q, err := resource.ParseQuantity(s)
					if err != nil {
						return types.WrapErr(err)
					}
					return apiservercel.Quantity{Quantity: &q}
				}))),
		cel.Function("isQuantity",
			cel.Overload("is_quantity_string", []*cel.Type{cel.StringType}, cel.BoolType,
				cel.UnaryBinding(func(arg ref.Val) ref.Val {
					s, ok := arg.Value().(string)
					if !ok {
						return types.MaybeNoSuchOverloadErr(arg)
					}
					if quantityguard.Check(s) != nil {
						return types.False
					}
					_, err := resource.ParseQuantity(s)
					return types.Bool(err == nil)
				}))),
	}
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

// deviceOptions declares the object type kubernetes.DRADevice, with
// exactly the fields driver, attributes and capacity (so that device.foo
// does not compile), the variable device of that type, and cel.bind.
// Attribute values are typed "any" (google.protobuf.Any), which every
// operator accepts at compile time; capacities are quantities.
func deviceOptions() []environment.VersionedOptions {
	byDomainAndID := func(value *apiservercel.DeclType) *apiservercel.DeclType {
		ids := apiservercel.NewMapType(apiservercel.StringType, value, maxAttributesPerDevice)
		return apiservercel.NewMapType(apiservercel.StringType, ids, maxAttributesPerDevice)
	}
	fields := map[string]*apiservercel.DeclField{}
	for name, t := range map[string]*apiservercel.DeclType{
		driverField:    apiservercel.StringType,
		attributeField: byDomainAndID(apiservercel.AnyType),
		capacityField:  byDomainAndID(apiservercel.QuantityDeclType),
	} {
		fields[name] = apiservercel.NewDeclField(name, t, true, nil, nil)
	}
	device := apiservercel.NewObjectType(deviceTypeName, fields)
	return []environment.VersionedOptions{{
		// Present in both environments of every release that has device
		// selectors.
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions: []cel.EnvOption{
			cel.Variable(deviceVar, device.CelType()),
			// cel.bind(name, value, expression): lets a selector name the
			// attributes of one domain once.
			ext.Bindings(ext.BindingsVersion(0)),
		},
		DeclTypes: []*apiservercel.DeclType{device},
	}}
}

// The 1.31 DRA package built its environment without strict cost.
var deviceEnvs = envs{release: release131, options: deviceOptions, libraryCallCosts: false}

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
	{namedQuantity, apiservercel.QuantityType},
	{namedBool, cel.BoolType},
	{namedInt, cel.IntType},
	{namedIntSlice, cel.ListType(cel.IntType)},
	{namedString, cel.StringType},
	{namedStringSlice, cel.ListType(cel.StringType)},
	{namedVersion, apiservercel.SemverType},
}

const namedVarPrefix = "attributes."

// namedResourcesOptions declares attributes.<type> for every value type,
// each a map from attribute name to value.
func namedResourcesOptions() []environment.VersionedOptions {
	var vars []cel.EnvOption
	for _, v := range namedValueTypes {
		vars = append(vars, cel.Variable(namedVarPrefix+v.name, cel.MapType(cel.StringType, v.t)))
	}
	return []environment.VersionedOptions{{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions:        vars,
	}}
}

// The 1.30 named-resources package built its environment with strict cost.
var namedResourcesEnvs = envs{release: release130, options: namedResourcesOptions, libraryCallCosts: true}
