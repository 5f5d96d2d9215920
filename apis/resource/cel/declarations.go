package cel

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/version"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"

	"github.com/drakit/drakit/apis/resource/cel/internal/simple"
	"github.com/drakit/drakit/apis/resource/features"
)

// The releases, oldest first.

// namedResourcesSelectors are the v1alpha2 (1.30) namedResources
// selectors (ResourceClaimParameters driverRequests[].requests[] and
// ResourceClassParameters filters[]): one map variable per value type. The
// 1.30 package built its environment with strict cost.
var namedResourcesSelectors = release{
	minor:        30,
	declarations: func() []declaration { return []declaration{{}} },
	options: func(int, []declaration) []environment.VersionedOptions {
		return append(semverAndQuantityOptions(), namedResourcesOptions()...)
	},
	shape: func(features.Gates) shape { return shapeNamedResources },
}

// v1alpha3Selectors are the v1alpha3 (1.31) device selectors: the device
// variable with driver, attributes and capacity, and cel.bind. The 1.31
// package built its environment without strict cost.
var v1alpha3Selectors = release{
	minor:        31,
	declarations: func() []declaration { return []declaration{deviceDeclarations()[variantPlain]} },
	options: func(_ int, decls []declaration) []environment.VersionedOptions {
		return append(semverAndQuantityOptions(), environment.VersionedOptions{
			// Present in both environments.
			IntroducedVersion: version.MajorMinor(1, 0),
			EnvOptions: []cel.EnvOption{
				cel.Variable(deviceVar, decls[0].device.CelType()),
				ext.Bindings(ext.BindingsVersion(0)),
			},
			DeclTypes: []*apiservercel.DeclType{decls[0].device},
		})
	},
	shape:         func(features.Gates) shape { return shapeV1alpha3 },
	simpleGrammar: func(e string) (*simple.Selector, bool) { return simple.Parse(e, true) },
	flatCallCosts: true,
}

// deviceSelectors are the device selectors and derived attributes of the
// release drakit follows (resource.k8s.io v1, v1beta2 and v1beta1 as its
// API server and scheduler see them).
//
// The environment is the base environment of this copy of k8s.io/apiserver,
// built for the compatibility version: new expressions get the libraries
// introduced up to the release before, stored expressions everything. On
// top of it, as the release's DRA package does: cel.bind (ext.Bindings
// version 0), one of four declarations of the device variable, and, with
// DRAListTypeAttributes, includes().
//
// The four declarations of `device` (all of object type
// kubernetes.DRADevice), named by what they add:
//
//   - plain (1.31): driver, attributes, capacity; attribute values typed
//     "any".
//   - multiple allocations (1.34): plus allowMultipleAllocations (bool);
//     with DRAConsumableCapacity.
//   - list attributes (1.36): attribute values typed dyn, so that
//     list-valued attributes can be iterated (exists, all, ...); with
//     DRAListTypeAttributes.
//   - both, with both gates.
//
// New expressions get the one their gates choose. Stored expressions
// ignore gates, as k8s.io/apiserver's EnvSet does: they get all four
// declarations, of which the last (both) wins, and includes() (which the
// release's own lists library also provides). The gates still decide
// whether the input offers list attributes (DRAListTypeAttributes), as
// upstream's compiler does for the scheduler.
var deviceSelectors = release{
	minor: 37,
	declarations: func() []declaration {
		d := deviceDeclarations()
		return d[:]
	},
	variant:       deviceVariantFor,
	storedVariant: variantBoth,
	options:       deviceOptions,
	shape: func(g features.Gates) shape {
		if g.Enabled(features.DRAListTypeAttributes) {
			return shapeLists
		}
		return shapeScalars
	},
	simpleGrammar: func(e string) (*simple.Selector, bool) { return simple.Parse(e, false) },
	limits:        true,
}

// Names in the device object.
const (
	deviceVar           = "device"
	deviceTypeName      = "kubernetes.DRADevice"
	driverField         = "driver"
	multiAllocField     = "allowMultipleAllocations"
	attributesField     = "attributes"
	capacityField       = "capacity"
	namedVariablePrefix = "attributes."
)

// The variants of the device declaration.
const (
	variantPlain = iota
	variantMultipleAllocations
	variantListAttributes
	variantBoth
	numDeviceVariants
)

// deviceVariantFor picks the declaration for the gates.
func deviceVariantFor(g features.Gates) int {
	cc := g.Enabled(features.DRAConsumableCapacity)
	lt := g.Enabled(features.DRAListTypeAttributes)
	switch {
	case cc && lt:
		return variantBoth
	case lt:
		return variantListAttributes
	case cc:
		return variantMultipleAllocations
	}
	return variantPlain
}

// declaration is one declaration of the device variable with the types the
// size estimator walks; the zero declaration is that of a release without
// the device variable.
type declaration struct {
	device *apiservercel.DeclType
	// attribute is the type of device.attributes[domain][id].
	attribute *apiservercel.DeclType
}

// sized is t with a maximum size (of a string, list or map) the cost
// estimator uses.
func sized(t *apiservercel.DeclType, maxElements uint64) *apiservercel.DeclType {
	c := *t
	c.MaxElements = int64(maxElements)
	return &c
}

// deviceDeclarations declares the four variants. Every size is the limit
// that validation of a ResourceSlice enforces: driver names of 63 bytes,
// domains of 63, identifiers of 32, 32 attributes and capacities per
// device, string values of 64 bytes and 48 values per list, and a bool of
// size 1 (so that comparisons of allowMultipleAllocations are not
// estimated as free). Releases that estimate no cost ignore the sizes.
func deviceDeclarations() [numDeviceVariants]declaration {
	domain := sized(apiservercel.StringType, resourcev1.DeviceMaxDomainLength)
	id := sized(apiservercel.StringType, resourcev1.DeviceMaxIDLength)
	driver := sized(apiservercel.StringType, resourcev1.DriverNameMaxLength)
	multiAlloc := sized(apiservercel.BoolType, 1)
	const perDevice = resourcev1.ResourceSliceMaxAttributesAndCapacitiesPerDevice
	byDomainAndID := func(value *apiservercel.DeclType) *apiservercel.DeclType {
		return apiservercel.NewMapType(domain, apiservercel.NewMapType(id, value, perDevice), perDevice)
	}
	capacity := byDomainAndID(apiservercel.QuantityDeclType)

	scalar := sized(apiservercel.AnyType, resourcev1.DeviceAttributeMaxValueLength)
	// A dyn value may be a scalar or a list; its size bound covers both.
	scalarOrList := sized(apiservercel.DynType, uint64(max(resourcev1.DeviceAttributeMaxValueLength, resourcev1.ResourceSliceMaxAttributeValuesPerDevice)))

	object := func(multipleAllocations bool, attribute *apiservercel.DeclType) declaration {
		fields := map[string]*apiservercel.DeclField{}
		add := func(name string, t *apiservercel.DeclType) {
			fields[name] = apiservercel.NewDeclField(name, t, true, nil, nil)
		}
		add(driverField, driver)
		add(attributesField, byDomainAndID(attribute))
		add(capacityField, capacity)
		if multipleAllocations {
			add(multiAllocField, multiAlloc)
		}
		return declaration{device: apiservercel.NewObjectType(deviceTypeName, fields), attribute: attribute}
	}
	var d [numDeviceVariants]declaration
	d[variantPlain] = object(false, scalar)
	d[variantMultipleAllocations] = object(true, scalar)
	d[variantListAttributes] = object(false, scalarOrList)
	d[variantBoth] = object(true, scalarOrList)
	return d
}

// deviceOptions are the DRA additions of deviceSelectors to the base
// environment. FeatureEnabled decides for new expressions; stored
// expressions take every option that has not been removed, in order, so
// the declarations are listed oldest first and the last one wins there.
func deviceOptions(v int, decls []declaration) []environment.VersionedOptions {
	deviceOption := func(introduced uint, variant int) environment.VersionedOptions {
		t := decls[variant].device
		return environment.VersionedOptions{
			IntroducedVersion: version.MajorMinor(1, introduced),
			FeatureEnabled:    func() bool { return v == variant },
			EnvOptions:        []cel.EnvOption{cel.Variable(deviceVar, t.CelType())},
			DeclTypes:         []*apiservercel.DeclType{t},
		}
	}
	return []environment.VersionedOptions{
		{
			// drakit's own: quantity() and isQuantity() refuse strings
			// whose exponent apimachinery would never finish parsing
			// (see guardedQuantityParsing); same version as the quantity
			// library they replace.
			IntroducedVersion: version.MajorMinor(1, 28),
			EnvOptions:        guardedQuantityParsing(),
		},
		{
			// cel.bind(name, value, expression).
			IntroducedVersion: version.MajorMinor(1, 31),
			EnvOptions:        []cel.EnvOption{ext.Bindings(ext.BindingsVersion(0))},
		},
		deviceOption(31, variantPlain),
		deviceOption(34, variantMultipleAllocations),
		// Declared as introduced in 1.36, because a 1.36 server already
		// behaved so with the gates on.
		deviceOption(36, variantListAttributes),
		deviceOption(36, variantBoth),
		{
			// x.includes(y): list membership, or equality for a value
			// that is not a list. The base environment's lists library
			// (version 1, 1.37) has it too, but new expressions are
			// checked as of the release before.
			IntroducedVersion: version.MajorMinor(1, 36),
			FeatureEnabled:    func() bool { return v == variantListAttributes || v == variantBoth },
			EnvOptions:        []cel.EnvOption{library.IncludesOption()},
		},
	}
}

// semverAndQuantityOptions are declarations that the releases before 1.32
// add to the base environment.
func semverAndQuantityOptions() []environment.VersionedOptions {
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

// namedResourcesOptions declares attributes.<type> for every value type,
// each a map from attribute name to value.
func namedResourcesOptions() []environment.VersionedOptions {
	var vars []cel.EnvOption
	for _, v := range namedValueTypes {
		vars = append(vars, cel.Variable(namedVariablePrefix+v.name, cel.MapType(cel.StringType, v.t)))
	}
	return []environment.VersionedOptions{{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions:        vars,
	}}
}
