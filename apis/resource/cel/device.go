package cel

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/blang/semver/v4"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/quantityguard"
)

// Device is what a v1alpha3 selector sees of one device: the variable
// `device` with its driver, its attributes and its capacities, each keyed
// by domain and then by identifier. It is built once and can be matched
// against any number of programs, concurrently.
//
// It is built from a hub device: device.attributes from its Attributes,
// device.capacity from the Value of each entry of its Capacity. Names
// without a domain ("model") belong to the driver's domain. When two
// names end up with the same domain and identifier (say "model" and
// "<driver>/model"), the one that sorts later wins; that is the rule of
// the 1.31 v1alpha3 device, whose attributes came in name order with the
// later entry winning.
//
// List-valued attributes (IntValues, BoolValues, StringValues,
// VersionValues: a v1alpha2 intSlice or stringSlice, or a 1.36+ list
// attribute) are left out: the 1.31 environment has no list attributes.
// Offering them, with includes() and the list semantics of the
// DRAListTypeAttributes feature gate, belongs to a 1.37 environment, which
// is a later issue.
type Device struct {
	driver string
	device *resource.Device

	once  sync.Once
	value ref.Val
	err   error
}

// NewDevice prepares the selector input for a device of the given driver.
// The device is not copied and must not change afterwards; nil stands for a
// device without attributes and capacities.
func NewDevice(driver string, device *resource.Device) *Device {
	return &Device{driver: driver, device: device}
}

// Driver is the device's driver.
func (d *Device) Driver() string { return d.driver }

// emptyMap is what looking up an unknown domain yields.
var emptyMap = types.NewRefValMap(types.DefaultTypeAdapter, map[ref.Val]ref.Val{})

func (d *Device) build() {
	attributes := map[string]map[ref.Val]ref.Val{}
	capacity := map[string]map[ref.Val]ref.Val{}
	if dev := d.device; dev != nil {
		// The error of the attribute that sorts first is reported, so that
		// the message does not depend on map order.
		var errName resource.QualifiedName
		for name, attr := range dev.Attributes {
			if isNullList(dev, name) {
				// A v1alpha2 list that was null: a list attribute.
				continue
			}
			value, ok, err := attributeValue(attr)
			if err != nil {
				// Like the API server, a device with an unusable attribute
				// cannot be matched by any expression.
				if d.err == nil || name < errName {
					d.err, errName = fmt.Errorf("attribute %s: %w", name, err), name
				}
				continue
			}
			if ok {
				put(attributes, string(name), d.driver, value)
			}
		}
		if d.err != nil {
			return
		}
		if d.err = capacityError(dev.Capacity); d.err != nil {
			return
		}
		for name, c := range dev.Capacity {
			q := c.Value.DeepCopy()
			put(capacity, string(name), d.driver, apiservercel.Quantity{Quantity: &q})
		}
	}
	d.value = types.NewRefValMap(types.DefaultTypeAdapter, map[ref.Val]ref.Val{
		types.String(driverField):    types.String(d.driver),
		types.String(attributeField): domainMap(attributes),
		types.String(capacityField):  domainMap(capacity),
	})
}

// put stores value under the domain and identifier of name. Of a name
// without a domain and the same name written with the driver's domain, the
// one that sorts later wins, whatever order the map gave them in.
func put(target map[string]map[ref.Val]ref.Val, name, driver string, value ref.Val) {
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
// beyond the quantity bound (quantityguard.CheckQuantity), whose
// comparisons could take unbounded time: like an unusable attribute, such a
// capacity makes the device unusable for every expression.
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

// isNullList reports whether name is a v1alpha2 intSlice or stringSlice
// attribute whose list was null: a list attribute, whatever its values say.
func isNullList(dev *resource.Device, name resource.QualifiedName) bool {
	if dev.NamedResources == nil {
		return false
	}
	for _, n := range dev.NamedResources.NullLists {
		if n == name {
			return true
		}
	}
	return false
}

// SplitQualifiedName splits an attribute or capacity name into its domain
// and identifier; a name without a domain belongs to defaultDomain (the
// device's driver).
func SplitQualifiedName(name, defaultDomain string) (domain, id string) {
	if i := strings.IndexByte(name, '/'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return defaultDomain, name
}

// attributeValue is the CEL value of a scalar attribute; ok is false for a
// list-valued attribute and for one without any value.
func attributeValue(attr resource.DeviceAttribute) (value ref.Val, ok bool, err error) {
	switch {
	case attr.IntValue != nil:
		return types.Int(*attr.IntValue), true, nil
	case attr.BoolValue != nil:
		return types.Bool(*attr.BoolValue), true, nil
	case attr.StringValue != nil:
		return types.String(*attr.StringValue), true, nil
	case attr.VersionValue != nil:
		v, err := semver.Parse(*attr.VersionValue)
		if err != nil {
			return nil, false, fmt.Errorf("parse semantic version: %w", err)
		}
		return apiservercel.Semver{Version: v}, true, nil
	}
	if isList(attr) {
		return nil, false, nil
	}
	return nil, false, errors.New("unsupported attribute value")
}

// isList reports whether the attribute holds a list (possibly empty, as a
// v1alpha2 intSlice or stringSlice may be).
func isList(attr resource.DeviceAttribute) bool {
	return attr.IntValues != nil || attr.BoolValues != nil || attr.StringValues != nil || attr.VersionValues != nil
}

func domainMap(m map[string]map[ref.Val]ref.Val) ref.Val {
	outer := make(map[ref.Val]ref.Val, len(m))
	for domain, ids := range m {
		outer[types.String(domain)] = types.NewRefValMap(types.DefaultTypeAdapter, ids)
	}
	return defaultingMap{Mapper: types.NewRefValMap(types.DefaultTypeAdapter, outer)}
}

// defaultingMap answers lookups of unknown keys with an empty map, so that
// device.attributes["other.domain"].x is "no such key: x" rather than an
// error about the domain, while `"other.domain" in device.attributes` stays
// false.
type defaultingMap struct {
	traits.Mapper
}

func (m defaultingMap) Find(key ref.Val) (ref.Val, bool) {
	if v, found := m.Mapper.Find(key); found {
		return v, true
	}
	return emptyMap, true
}

// Get is used by index operations that do not go through Find.
func (m defaultingMap) Get(key ref.Val) ref.Val {
	v, _ := m.Find(key)
	return v
}

// activation resolves the variables of one evaluation.
type activation map[string]any

func (a activation) ResolveName(name string) (any, bool) {
	v, ok := a[name]
	return v, ok
}

func (a activation) Parent() interpreter.Activation { return nil }

// Matches evaluates the selector for a device. An error means the
// expression could not be evaluated for this device (a missing attribute,
// a failed conversion, the cost limit, a cancelled context); the
// Kubernetes scheduler treats that as a failure of the whole allocation.
func (p *DeviceProgram) Matches(ctx context.Context, d *Device) (bool, error) {
	d.once.Do(d.build)
	if d.err != nil {
		return false, d.err
	}
	return evalBool(ctx, p.program, activation{deviceVar: d.value})
}

var boolType = reflect.TypeOf(true)

func evalBool(ctx context.Context, prog cel.Program, act activation) (bool, error) {
	result, _, err := prog.ContextEval(ctx, act)
	if err != nil {
		return false, err
	}
	if b, ok := result.(types.Bool); ok {
		return bool(b), nil
	}
	native, err := result.ConvertToNative(boolType)
	if err != nil {
		return false, fmt.Errorf("CEL result of type %s could not be converted to bool: %w", result.Type().TypeName(), err)
	}
	b, ok := native.(bool)
	if !ok {
		return false, fmt.Errorf("CEL result of type %T is not a bool", native)
	}
	return b, nil
}
