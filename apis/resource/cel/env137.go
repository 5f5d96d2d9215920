package cel

import (
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/version"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"

	"github.com/drakit/drakit/apis/resource/features"
)

// The device selectors of Kubernetes 1.37 (resource.k8s.io v1, v1beta2 and
// v1beta1 as a 1.37 API server and scheduler see them).
//
// The environment is the Kubernetes CEL base environment of
// k8s.io/apiserver, whose copy in this module is the 1.37 one, built for
// the compatibility version 1.36: new expressions get the libraries
// introduced up to 1.36, stored expressions everything 1.37 has (the
// StoredExpressions half of the EnvSet is right here, as the module is of
// the same release). On top of it, as the 1.37 DRA package does:
// cel.bind (ext.Bindings version 0), one of four declarations of the
// device variable, and, with DRAListTypeAttributes, includes().
//
// The four declarations of `device` (all of object type
// kubernetes.DRADevice):
//
//   - 1.31: driver, attributes, capacity; attribute values typed "any".
//   - 1.34: as 1.31 plus allowMultipleAllocations (bool); with
//     DRAConsumableCapacity.
//   - 1.36: as 1.31 but attribute values typed dyn, so that list-valued
//     attributes can be iterated (exists, all, ...); with
//     DRAListTypeAttributes.
//   - 1.36 with both: allowMultipleAllocations and dyn attribute values;
//     with both gates.
//
// New expressions get the one their gates choose. Stored expressions
// ignore gates, as k8s.io/apiserver's EnvSet does: they get all four
// declarations, of which the last (both features) wins, and includes()
// (which 1.37's own lists library also provides).

// deviceVariant137 says which declaration of the device variable new
// expressions get.
type deviceVariant137 uint8

const (
	deviceVariant131 deviceVariant137 = iota
	deviceVariant134ConsumableCapacity
	deviceVariant136ListTypeAttributes
	deviceVariant136Both
	numDeviceVariants137
)

func (v deviceVariant137) consumableCapacity() bool {
	return v == deviceVariant134ConsumableCapacity || v == deviceVariant136Both
}

func (v deviceVariant137) listTypeAttributes() bool {
	return v == deviceVariant136ListTypeAttributes || v == deviceVariant136Both
}

func (v deviceVariant137) String() string {
	return [...]string{"1.31", "1.34 consumable capacity", "1.36 list type attributes", "1.36 consumable capacity and list type attributes"}[v]
}

// deviceVariantFor picks the declaration for the gates.
func deviceVariantFor(g features.Gates) deviceVariant137 {
	cc := g.Enabled(features.DRAConsumableCapacity)
	lt := g.Enabled(features.DRAListTypeAttributes)
	switch {
	case cc && lt:
		return deviceVariant136Both
	case lt:
		return deviceVariant136ListTypeAttributes
	case cc:
		return deviceVariant134ConsumableCapacity
	}
	return deviceVariant131
}

// Names in the 1.37 device object.
const (
	device137Var            = "device"
	device137TypeName       = "kubernetes.DRADevice"
	device137Driver         = "driver"
	device137MultiAlloc     = "allowMultipleAllocations"
	device137Attributes     = "attributes"
	device137Capacity       = "capacity"
	release137CompatVersion = 36
)

// deviceDecl137 is one declaration of the device variable with the types
// the size estimator walks.
type deviceDecl137 struct {
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

// deviceDecls137 declares the four variants. Every size is the limit that
// validation of a ResourceSlice enforces: driver names of 63 bytes,
// domains of 63, identifiers of 32, 32 attributes and capacities per
// device, string values of 64 bytes and (1.36) 48 values per list, and a
// bool of size 1 (so that comparisons of allowMultipleAllocations are not
// estimated as free).
func deviceDecls137() [numDeviceVariants137]deviceDecl137 {
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

	object := func(multipleAllocations bool, attribute *apiservercel.DeclType) deviceDecl137 {
		fields := map[string]*apiservercel.DeclField{}
		add := func(name string, t *apiservercel.DeclType) {
			fields[name] = apiservercel.NewDeclField(name, t, true, nil, nil)
		}
		add(device137Driver, driver)
		add(device137Attributes, byDomainAndID(attribute))
		add(device137Capacity, capacity)
		if multipleAllocations {
			add(device137MultiAlloc, multiAlloc)
		}
		return deviceDecl137{device: apiservercel.NewObjectType(device137TypeName, fields), attribute: attribute}
	}
	var d [numDeviceVariants137]deviceDecl137
	d[deviceVariant131] = object(false, scalar)
	d[deviceVariant134ConsumableCapacity] = object(true, scalar)
	d[deviceVariant136ListTypeAttributes] = object(false, scalarOrList)
	d[deviceVariant136Both] = object(true, scalarOrList)
	return d
}

// env137 is the EnvSet for one variant: its NewExpressions half has the
// variant's declaration, its StoredExpressions half all of them.
type env137 struct {
	once  sync.Once
	set   *environment.EnvSet
	decls [numDeviceVariants137]deviceDecl137
	err   error
}

var envs137 [numDeviceVariants137]env137

// storedDeviceVariant137 is the declaration that wins in the
// StoredExpressions environment: the last one declared.
const storedDeviceVariant137 = deviceVariant136Both

func getEnv137(v deviceVariant137) (*env137, error) {
	e := &envs137[v]
	e.once.Do(func() {
		e.decls = deviceDecls137()
		set, err := environment.MustBaseEnvSet(version.MajorMinor(1, release137CompatVersion)).Extend(options137(v, e.decls)...)
		if err != nil {
			e.err = fmt.Errorf("building the CEL environment of Kubernetes 1.37 for device variant %s: %w", v, err)
			return
		}
		e.set = set
	})
	return e, e.err
}

// decl returns the device declaration an environment type sees.
func (e *env137) decl(v deviceVariant137, stored bool) deviceDecl137 {
	if stored {
		return e.decls[storedDeviceVariant137]
	}
	return e.decls[v]
}

func (e *env137) env(stored bool) *cel.Env {
	if stored {
		return e.set.StoredExpressionsEnv()
	}
	return e.set.NewExpressionsEnv()
}

// options137 are the DRA additions to the base environment. FeatureEnabled
// decides for new expressions; stored expressions take every option that
// has not been removed, in order, so the declarations are listed oldest
// first and the last one wins there.
func options137(v deviceVariant137, decls [numDeviceVariants137]deviceDecl137) []environment.VersionedOptions {
	deviceOption := func(introduced uint, variant deviceVariant137) environment.VersionedOptions {
		t := decls[variant].device
		return environment.VersionedOptions{
			IntroducedVersion: version.MajorMinor(1, introduced),
			FeatureEnabled:    func() bool { return v == variant },
			EnvOptions:        []cel.EnvOption{cel.Variable(device137Var, t.CelType())},
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
		deviceOption(31, deviceVariant131),
		deviceOption(34, deviceVariant134ConsumableCapacity),
		// 1.37 declares these two as introduced in 1.36, because a 1.36
		// server already behaved so with the gates on.
		deviceOption(36, deviceVariant136ListTypeAttributes),
		deviceOption(36, deviceVariant136Both),
		{
			// x.includes(y): list membership, or equality for a value
			// that is not a list. 1.37's lists library (version 1) has
			// it too, but new expressions are checked as of 1.36.
			IntroducedVersion: version.MajorMinor(1, 36),
			FeatureEnabled:    v.listTypeAttributes,
			EnvOptions:        []cel.EnvOption{library.IncludesOption()},
		},
	}
}
