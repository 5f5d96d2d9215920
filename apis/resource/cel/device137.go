package cel

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/blang/semver/v4"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
	resourcev1 "k8s.io/api/resource/v1"
	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/drakit/drakit/internal/quantityguard"
)

// Device137 is what a 1.37 selector or derived attribute sees of a device:
// the device variable. Attribute and capacity names without a domain
// ("model") belong to the driver's domain; when a device has both "model"
// and "<driver>/model", the fully qualified one is used.
type Device137 struct {
	// Driver is the driver of the slice the device is in.
	Driver string
	// AllowMultipleAllocations is device.allowMultipleAllocations (false
	// when nil); only expressions compiled with DRAConsumableCapacity, or
	// stored ones, can read it.
	AllowMultipleAllocations *bool
	// Attributes are the device's attributes. List-valued ones (ints,
	// bools, strings, versions) become CEL lists.
	Attributes map[resourcev1.QualifiedName]resourcev1.DeviceAttribute
	// Capacity are the device's capacities; CEL sees their values as
	// quantities (the request policy is not visible).
	Capacity map[resourcev1.QualifiedName]resourcev1.DeviceCapacity
}

// DeviceFromV1 is the selector input for a device of a v1 ResourceSlice of
// the given driver. It refers to the device's maps, which must not change
// while the result (or an Input137 made from it) is in use.
func DeviceFromV1(driver string, d *resourcev1.Device) Device137 {
	return Device137{
		Driver:                   driver,
		AllowMultipleAllocations: d.AllowMultipleAllocations,
		Attributes:               d.Attributes,
		Capacity:                 d.Capacity,
	}
}

// Input137 is a Device137 converted to CEL values once, so that it can be
// evaluated by any number of programs, concurrently.
type Input137 struct {
	device Device137

	once sync.Once
	vars deviceActivation137 // the activation: device = {...}
	err  error
}

// deviceActivation137 is an activation of the one variable device: no map
// to build and hash per device, as map[string]any would need.
type deviceActivation137 struct {
	device map[string]any
}

func (a deviceActivation137) ResolveName(name string) (any, bool) {
	if name == device137Var {
		return a.device, true
	}
	return nil, false
}

func (a deviceActivation137) Parent() interpreter.Activation { return nil }

// NewInput137 prepares d for evaluation. d's maps are read on first use
// and must not change afterwards.
func NewInput137(d Device137) *Input137 {
	return &Input137{device: d}
}

// splitName137 splits an attribute or capacity name into domain and
// identifier; a name without a domain belongs to defaultDomain.
func splitName137(name, defaultDomain string) (domain, id string) {
	if domain, id, found := strings.Cut(name, "/"); found {
		return domain, id
	}
	return defaultDomain, name
}

func (in *Input137) build() {
	d := in.device
	attrs := map[string]map[ref.Val]ref.Val{}
	caps := map[string]map[ref.Val]ref.Val{}

	// Names in a fixed order, unqualified ones first, so that a fully
	// qualified name wins over the same name without a domain and
	// errors do not depend on map order.
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
		domain, id := splitName137(name, d.Driver)
		if m[domain] == nil {
			// Most devices have names of one domain only: room for
			// all of them at once.
			m[domain] = make(map[ref.Val]ref.Val, size)
		}
		m[domain][types.String(id)] = v
	}

	names := make([]string, 0, len(d.Attributes))
	for name := range d.Attributes {
		names = append(names, string(name))
	}
	order(names)
	for _, name := range names {
		v, err := attributeValue137(d.Attributes[resourcev1.QualifiedName(name)])
		if err != nil {
			// As upstream: a device with an unusable attribute cannot be
			// evaluated at all.
			in.err = fmt.Errorf("attribute %s: %w", name, err)
			return
		}
		put(attrs, name, v, len(names))
	}

	names = names[:0]
	for name := range d.Capacity {
		names = append(names, string(name))
	}
	order(names)
	for _, name := range names {
		if err := quantityguard.CheckQuantity(d.Capacity[resourcev1.QualifiedName(name)].Value); err != nil {
			// A comparison with it could take unbounded time.
			in.err = fmt.Errorf("capacity %s: %w", name, err)
			return
		}
	}
	for _, name := range names {
		q := d.Capacity[resourcev1.QualifiedName(name)].Value.DeepCopy()
		put(caps, name, apiservercel.Quantity{Quantity: &q}, len(names))
	}

	multi := false
	if d.AllowMultipleAllocations != nil {
		multi = *d.AllowMultipleAllocations
	}
	// Every field is present, whichever declaration the program was
	// compiled with; the declaration decides what compiles.
	in.vars = deviceActivation137{device: map[string]any{
		device137Driver:     d.Driver,
		device137MultiAlloc: multi,
		device137Attributes: byDomain137Of(attrs),
		device137Capacity:   byDomain137Of(caps),
	}}
}

// attributeValue137 is the CEL value of one attribute: the list if the
// attribute has one, else the scalar.
func attributeValue137(a resourcev1.DeviceAttribute) (ref.Val, error) {
	switch {
	case a.IntValues != nil:
		vals := make([]ref.Val, len(a.IntValues))
		for i, v := range a.IntValues {
			vals[i] = types.Int(v)
		}
		return types.NewRefValList(types.DefaultTypeAdapter, vals), nil
	case a.BoolValues != nil:
		vals := make([]ref.Val, len(a.BoolValues))
		for i, v := range a.BoolValues {
			vals[i] = types.Bool(v)
		}
		return types.NewRefValList(types.DefaultTypeAdapter, vals), nil
	case a.StringValues != nil:
		vals := make([]ref.Val, len(a.StringValues))
		for i, v := range a.StringValues {
			vals[i] = types.String(v)
		}
		return types.NewRefValList(types.DefaultTypeAdapter, vals), nil
	case a.VersionValues != nil:
		vals := make([]ref.Val, len(a.VersionValues))
		for i, s := range a.VersionValues {
			v, err := semver.Parse(s)
			if err != nil {
				return nil, fmt.Errorf("parse semantic version: %w", err)
			}
			vals[i] = apiservercel.Semver{Version: v}
		}
		return types.NewRefValList(types.DefaultTypeAdapter, vals), nil
	case a.IntValue != nil:
		return types.Int(*a.IntValue), nil
	case a.BoolValue != nil:
		return types.Bool(*a.BoolValue), nil
	case a.StringValue != nil:
		return types.String(*a.StringValue), nil
	case a.VersionValue != nil:
		v, err := semver.Parse(*a.VersionValue)
		if err != nil {
			return nil, fmt.Errorf("parse semantic version: %w", err)
		}
		return apiservercel.Semver{Version: v}, nil
	}
	return nil, errors.New("unsupported attribute value")
}

// byDomain137 is device.attributes or device.capacity: looking up a domain
// the device does not have gives an empty map, so that
// device.attributes["other.example.com"].x fails with "no such key: x",
// while `"other.example.com" in device.attributes` is false.
type byDomain137 struct {
	traits.Mapper
	empty ref.Val
}

func (m byDomain137) Find(key ref.Val) (ref.Val, bool) {
	if v, found := m.Mapper.Find(key); found {
		return v, true
	}
	return m.empty, true
}

func (m byDomain137) Get(key ref.Val) ref.Val {
	v, _ := m.Find(key)
	return v
}

// emptyDomain137 is what looking up a domain the device lacks gives.
var emptyDomain137 = types.NewRefValMap(types.DefaultTypeAdapter, map[ref.Val]ref.Val{})

func byDomain137Of(m map[string]map[ref.Val]ref.Val) ref.Val {
	outer := make(map[ref.Val]ref.Val, len(m))
	for domain, ids := range m {
		outer[types.String(domain)] = types.NewRefValMap(types.DefaultTypeAdapter, ids)
	}
	return byDomain137{Mapper: types.NewRefValMap(types.DefaultTypeAdapter, outer), empty: emptyDomain137}
}

// eval runs the program. An aborted evaluation of a cancelled context
// wraps the context's cause.
func (p *Program137) eval(ctx context.Context, in *Input137) (ref.Val, error) {
	in.once.Do(in.build)
	if in.err != nil {
		return nil, in.err
	}
	val, _, err := p.program.ContextEval(ctx, in.vars)
	if err != nil {
		if ctx.Err() != nil && strings.Contains(err.Error(), "operation interrupted") {
			return nil, fmt.Errorf("%w: %w", err, context.Cause(ctx))
		}
		return nil, err
	}
	return val, nil
}

var boolType137 = reflect.TypeOf(true)

// Matches evaluates a selector for a device. An error means the expression
// could not be evaluated for this device: a missing attribute (a domain
// the device lacks is an empty map, an identifier it lacks is "no such
// key"), an unusable attribute of the device, a result that is not a
// bool, the runtime cost limit ("actual cost limit exceeded") or a
// cancelled context. The scheduler treats such an error as a failure of
// the allocation.
func (p *Program137) Matches(ctx context.Context, in *Input137) (bool, error) {
	val, err := p.eval(ctx, in)
	if err != nil {
		return false, err
	}
	if b, ok := val.(types.Bool); ok {
		return bool(b), nil
	}
	native, err := val.ConvertToNative(boolType137)
	if err != nil {
		return false, fmt.Errorf("CEL result of type %s could not be converted to bool: %w", val.Type().TypeName(), err)
	}
	b, ok := native.(bool)
	if !ok {
		return false, fmt.Errorf("CEL result of type %T is not a bool", native)
	}
	return b, nil
}

// Derive evaluates a derived attribute for a device and returns the
// attribute it gives: a scalar, or a list whose elements are all of one
// kind (an empty list is an empty string list).
func (p *Program137) Derive(ctx context.Context, in *Input137) (*resourcev1.DeviceAttribute, error) {
	val, err := p.eval(ctx, in)
	if err != nil {
		return nil, err
	}
	return derivedAttribute137(val)
}

func derivedAttribute137(val ref.Val) (*resourcev1.DeviceAttribute, error) {
	switch v := val.Value().(type) {
	case bool:
		return &resourcev1.DeviceAttribute{BoolValue: &v}, nil
	case int64:
		return &resourcev1.DeviceAttribute{IntValue: &v}, nil
	case string:
		return &resourcev1.DeviceAttribute{StringValue: &v}, nil
	case semver.Version:
		s := v.String()
		return &resourcev1.DeviceAttribute{VersionValue: &s}, nil
	}
	list, ok := val.(traits.Lister)
	if !ok {
		return nil, fmt.Errorf("unsupported CEL return type: %T", val.Value())
	}
	size, ok := list.Size().Value().(int64)
	if !ok {
		return nil, fmt.Errorf("expected list size to be int64, got %T", list.Size().Value())
	}
	n := int(size)
	if n == 0 {
		return &resourcev1.DeviceAttribute{StringValues: []string{}}, nil
	}
	elems := make([]any, n)
	for i := range n {
		elems[i] = list.Get(types.Int(i)).Value()
	}
	mismatch := func(i int, want string) error {
		return fmt.Errorf("expected list element at index %d to be %s, got %T", i, want, elems[i])
	}
	attr := &resourcev1.DeviceAttribute{}
	switch elems[0].(type) {
	case bool:
		attr.BoolValues = make([]bool, n)
		for i, e := range elems {
			b, ok := e.(bool)
			if !ok {
				return nil, mismatch(i, "bool")
			}
			attr.BoolValues[i] = b
		}
	case int64:
		attr.IntValues = make([]int64, n)
		for i, e := range elems {
			x, ok := e.(int64)
			if !ok {
				return nil, mismatch(i, "int")
			}
			attr.IntValues[i] = x
		}
	case string:
		attr.StringValues = make([]string, n)
		for i, e := range elems {
			s, ok := e.(string)
			if !ok {
				return nil, mismatch(i, "string")
			}
			attr.StringValues[i] = s
		}
	case semver.Version:
		attr.VersionValues = make([]string, n)
		for i, e := range elems {
			v, ok := e.(semver.Version)
			if !ok {
				return nil, mismatch(i, "semver")
			}
			attr.VersionValues[i] = v.String()
		}
	default:
		return nil, fmt.Errorf("unsupported list element type: %T", elems[0])
	}
	return attr, nil
}
