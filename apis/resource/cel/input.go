package cel

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/cel/internal/simple"
	"github.com/drakit/drakit/internal/quantityguard"
)

// Input is what an expression sees of one device, built from the hub
// device the first time a program needs it, in the layout of the
// program's release and gates (its shape), and kept for every later
// program of that shape. It can be evaluated by any number of programs,
// concurrently.
//
// The layouts:
//
//   - the device variable of the release drakit follows: driver,
//     allowMultipleAllocations (false when unset), attributes and
//     capacity, keyed by domain and then identifier. Names without a
//     domain ("model") belong to the driver's domain; of "model" and
//     "<driver>/model" the fully qualified one is used. List-valued
//     attributes are CEL lists with DRAListTypeAttributes (a list wins
//     over a scalar beside it) and left out without, as upstream's
//     compiler leaves them out.
//   - the v1alpha3 (1.31) device variable: driver, attributes and
//     capacity; of the two spellings of a name the one that sorts later
//     wins, as 1.31's attributes came in name order with the later entry
//     winning; list-valued attributes and v1alpha2 null lists are left
//     out, as 1.31 had none.
//   - the v1alpha2 (1.30) namedResources variables attributes.quantity
//     (the Value of each capacity), attributes.bool, attributes.int,
//     attributes.intslice (IntValues), attributes.string,
//     attributes.stringslice (StringValues) and attributes.version, keyed
//     by attribute name. BoolValues and VersionValues have no v1alpha2
//     type and are left out, as is an attribute without any value.
//
// Capacities are quantities (their request policies are not visible). As
// upstream, a device with an unusable attribute (no value, a version that
// does not parse) or a capacity beyond quantityguard's bound, whose
// comparisons could take unbounded time, cannot be evaluated at all.
type Input struct {
	// fast is what the fast path (Options.FastPath) needs, and holds the
	// driver and the device.
	fast simple.Device
	// shapes are built when a program first needs them.
	shapes atomic.Pointer[[numShapes]lazyVariables]
}

// lazyVariables are an Input's variables in one shape.
type lazyVariables struct {
	once sync.Once
	vars interpreter.Activation
	err  error
}

// shape is a layout of the variables of one device.
type shape uint8

const (
	shapeScalars shape = iota // the device variable without list attributes
	shapeLists                // the device variable with list attributes
	shapeV1alpha3
	shapeNamedResources
	numShapes
)

// NewInput prepares the input of a device of the given driver. The device
// is not copied; it is read on first use and must not change afterwards.
// nil stands for a device without attributes and capacities.
func NewInput(driver string, device *resource.Device) *Input {
	in := &Input{}
	in.init(driver, device)
	return in
}

// NewInputs prepares the inputs of a slice's devices in one allocation;
// use them by address (&inputs[i]).
func NewInputs(driver string, devices []resource.Device) []Input {
	inputs := make([]Input, len(devices))
	for i := range devices {
		inputs[i].init(driver, &devices[i])
	}
	return inputs
}

func (in *Input) init(driver string, device *resource.Device) {
	in.fast.Init(driver, device)
}

// Driver is the device's driver.
func (in *Input) Driver() string { return in.fast.Driver() }

// FreeVariables drops the CEL variables built so far, keeping what the
// fast path learnt about the device; a program that needs them again
// builds them again. It is safe to call while other goroutines evaluate.
func (in *Input) FreeVariables() {
	if in.shapes.Load() != nil {
		in.shapes.Store(nil)
	}
}

// variables are the input's variables in shape s.
func (in *Input) variables(s shape) (interpreter.Activation, error) {
	shapes := in.shapes.Load()
	if shapes == nil {
		// Most inputs are only ever judged by the fast path: room for the
		// variables only when cel-go needs them.
		in.shapes.CompareAndSwap(nil, new([numShapes]lazyVariables))
		shapes = in.shapes.Load()
	}
	l := &shapes[s]
	l.once.Do(func() {
		driver, device := in.fast.Driver(), in.fast.Device()
		switch s {
		case shapeScalars, shapeLists:
			l.vars, l.err = deviceVariables(driver, device, s == shapeLists)
		case shapeV1alpha3:
			l.vars, l.err = v1alpha3Variables(driver, device)
		default:
			l.vars, l.err = namedResourcesVariables(device)
		}
	})
	return l.vars, l.err
}

// deviceActivation is an activation of the one variable device: no map
// to build and hash per device, as map[string]any would need.
type deviceActivation struct {
	device any
}

func (a deviceActivation) ResolveName(name string) (any, bool) {
	if name == deviceVar {
		return a.device, true
	}
	return nil, false
}

func (a deviceActivation) Parent() interpreter.Activation { return nil }

// deviceVariables is the device variable of the release drakit follows.
// Names are taken in a fixed order, unqualified ones first, so that a
// fully qualified name wins over the same name without a domain and
// errors do not depend on map order.
func deviceVariables(driver string, dev *resource.Device, lists bool) (interpreter.Activation, error) {
	if dev == nil {
		dev = &resource.Device{}
	}
	attrs := map[string]map[ref.Val]ref.Val{}
	caps := map[string]map[ref.Val]ref.Val{}
	order := func(names []string) {
		sort.Slice(names, func(i, j int) bool {
			qi, qj := strings.Contains(names[i], "/"), strings.Contains(names[j], "/")
			if qi != qj {
				return !qi
			}
			return names[i] < names[j]
		})
	}
	put := func(m map[string]map[ref.Val]ref.Val, name string, v ref.Val, size int) {
		domain, id := SplitQualifiedName(name, driver)
		if m[domain] == nil {
			// Most devices have names of one domain only: room for
			// all of them at once.
			m[domain] = make(map[ref.Val]ref.Val, size)
		}
		m[domain][types.String(id)] = v
	}

	names := make([]string, 0, len(dev.Attributes))
	for name, attr := range dev.Attributes {
		if lists || !simple.IsList(attr) {
			names = append(names, string(name))
		}
	}
	order(names)
	for _, name := range names {
		v, err := attributeValue(dev.Attributes[resource.QualifiedName(name)])
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		put(attrs, name, v, len(names))
	}

	names = names[:0]
	for name := range dev.Capacity {
		names = append(names, string(name))
	}
	order(names)
	for _, name := range names {
		if err := quantityguard.CheckQuantity(dev.Capacity[resource.QualifiedName(name)].Value); err != nil {
			return nil, fmt.Errorf("capacity %s: %w", name, err)
		}
	}
	for _, name := range names {
		q := dev.Capacity[resource.QualifiedName(name)].Value.DeepCopy()
		put(caps, name, apiservercel.Quantity{Quantity: &q}, len(names))
	}

	multi := dev.AllowMultipleAllocations != nil && *dev.AllowMultipleAllocations
	// Every field is present, whichever declaration the program was
	// compiled with; the declaration decides what compiles.
	return deviceActivation{device: map[string]any{
		driverField:     driver,
		multiAllocField: multi,
		attributesField: byDomainOf(attrs),
		capacityField:   byDomainOf(caps),
	}}, nil
}

// v1alpha3Variables is the device variable of 1.31.
func v1alpha3Variables(driver string, dev *resource.Device) (interpreter.Activation, error) {
	attributes := map[string]map[ref.Val]ref.Val{}
	capacity := map[string]map[ref.Val]ref.Val{}
	if dev != nil {
		// The error of the attribute that sorts first is reported, so that
		// the message does not depend on map order.
		var err error
		var errName resource.QualifiedName
		for name, attr := range dev.Attributes {
			if simple.IsNullList(dev, name) || (!simple.HasScalar(attr) && simple.IsList(attr)) {
				// A list attribute, or a v1alpha2 list that was null.
				continue
			}
			value, e := scalarValue(attr)
			if e != nil {
				if err == nil || name < errName {
					err, errName = fmt.Errorf("attribute %s: %w", name, e), name
				}
				continue
			}
			putLaterWins(attributes, string(name), driver, value)
		}
		if err != nil {
			return nil, err
		}
		if err := capacityError(dev.Capacity); err != nil {
			return nil, err
		}
		for name, c := range dev.Capacity {
			q := c.Value.DeepCopy()
			putLaterWins(capacity, string(name), driver, apiservercel.Quantity{Quantity: &q})
		}
	}
	return deviceActivation{device: types.NewRefValMap(types.DefaultTypeAdapter, map[ref.Val]ref.Val{
		types.String(driverField):     types.String(driver),
		types.String(attributesField): byDomainOf(attributes),
		types.String(capacityField):   byDomainOf(capacity),
	})}, nil
}

// putLaterWins stores value under the domain and identifier of name. Of a
// name without a domain and the same name written with the driver's
// domain, the one that sorts later wins, whatever order the map gave them
// in.
func putLaterWins(target map[string]map[ref.Val]ref.Val, name, driver string, value ref.Val) {
	domain, id := SplitQualifiedName(name, driver)
	ids := target[domain]
	if ids == nil {
		ids = map[ref.Val]ref.Val{}
		target[domain] = ids
	}
	key := types.String(id)
	if _, taken := ids[key]; taken {
		// The entry there came from the other spelling of the name.
		other := domain + "/" + id
		if name == other {
			other = id
		}
		if name < other {
			return
		}
	}
	ids[key] = value
}

// capacityError is the error of the capacity that sorts first among those
// beyond the quantity bound (quantityguard.CheckQuantity).
func capacityError(capacity map[resource.QualifiedName]resource.DeviceCapacity) error {
	var err error
	var errName resource.QualifiedName
	for name, c := range capacity {
		if e := quantityguard.CheckQuantity(c.Value); e != nil && (err == nil || name < errName) {
			err, errName = fmt.Errorf("capacity %s: %w", name, e), name
		}
	}
	return err
}

// SplitQualifiedName splits an attribute or capacity name into its domain
// and identifier; a name without a domain belongs to defaultDomain (the
// device's driver).
func SplitQualifiedName(name, defaultDomain string) (domain, id string) {
	if domain, id, found := strings.Cut(name, "/"); found {
		return domain, id
	}
	return defaultDomain, name
}

// byDomain is device.attributes or device.capacity: looking up a domain
// the device does not have gives an empty map, so that
// device.attributes["other.example.com"].x fails with "no such key: x",
// while `"other.example.com" in device.attributes` is false.
type byDomain struct {
	traits.Mapper
}

func (m byDomain) Find(key ref.Val) (ref.Val, bool) {
	if v, found := m.Mapper.Find(key); found {
		return v, true
	}
	return emptyDomain, true
}

// Get is used by index operations that do not go through Find.
func (m byDomain) Get(key ref.Val) ref.Val {
	v, _ := m.Find(key)
	return v
}

// emptyDomain is what looking up a domain the device lacks gives.
var emptyDomain = types.NewRefValMap(types.DefaultTypeAdapter, map[ref.Val]ref.Val{})

func byDomainOf(m map[string]map[ref.Val]ref.Val) ref.Val {
	outer := make(map[ref.Val]ref.Val, len(m))
	for domain, ids := range m {
		outer[types.String(domain)] = types.NewRefValMap(types.DefaultTypeAdapter, ids)
	}
	return byDomain{Mapper: types.NewRefValMap(types.DefaultTypeAdapter, outer)}
}
