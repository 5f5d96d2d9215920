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
)

// Device is what a v1alpha3 selector sees of one device: the variable
// `device` with its driver, its attributes and its capacities, each keyed
// by domain and then by identifier. It is built once and can be matched
// against any number of programs, concurrently.
//
// A hub device keeps attributes and capacities in one list; entries with a
// QuantityValue are capacities, all others attributes. Names without a
// domain ("model") belong to the driver's domain. The legacy v1alpha2 value
// types that v1alpha3 lacks are offered as lists: intSlice as list(int),
// stringSlice as list(string). When two entries end up with the same domain
// and identifier (say "model" and "<driver>/model"), the later one in the
// list wins.
type Device struct {
	driver     string
	attributes []resource.DeviceAttribute

	once  sync.Once
	value ref.Val
	err   error
}

// NewDevice prepares the selector input for a device of the given driver.
// The attributes are not copied and must not change afterwards.
func NewDevice(driver string, attributes []resource.DeviceAttribute) *Device {
	return &Device{driver: driver, attributes: attributes}
}

// Driver is the device's driver.
func (d *Device) Driver() string { return d.driver }

// emptyMap is what looking up an unknown domain yields.
var emptyMap = types.NewRefValMap(types.DefaultTypeAdapter, map[ref.Val]ref.Val{})

func (d *Device) build() {
	attributes := map[string]map[ref.Val]ref.Val{}
	capacity := map[string]map[ref.Val]ref.Val{}
	for _, attr := range d.attributes {
		domain, id := SplitQualifiedName(string(attr.Name), d.driver)
		target := attributes
		var value ref.Val
		if attr.QuantityValue != nil {
			target = capacity
			q := attr.QuantityValue.DeepCopy()
			value = apiservercel.Quantity{Quantity: &q}
		} else {
			v, err := attributeValue(attr)
			if err != nil {
				// Like the API server, a device with an unusable attribute
				// cannot be matched by any expression.
				d.err = fmt.Errorf("attribute %s: %w", attr.Name, err)
				return
			}
			value = v
		}
		if target[domain] == nil {
			target[domain] = map[ref.Val]ref.Val{}
		}
		target[domain][types.String(id)] = value
	}
	d.value = types.NewRefValMap(types.DefaultTypeAdapter, map[ref.Val]ref.Val{
		types.String(driverField):    types.String(d.driver),
		types.String(attributeField): domainMap(attributes),
		types.String(capacityField):  domainMap(capacity),
	})
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

func attributeValue(attr resource.DeviceAttribute) (ref.Val, error) {
	switch {
	case attr.IntValue != nil:
		return types.Int(*attr.IntValue), nil
	case attr.BoolValue != nil:
		return types.Bool(*attr.BoolValue), nil
	case attr.StringValue != nil:
		return types.String(*attr.StringValue), nil
	case attr.VersionValue != nil:
		v, err := semver.Parse(*attr.VersionValue)
		if err != nil {
			return nil, fmt.Errorf("parse semantic version: %w", err)
		}
		return apiservercel.Semver{Version: v}, nil
	case attr.IntSliceValue != nil:
		return types.NewDynamicList(types.DefaultTypeAdapter, append([]int64(nil), attr.IntSliceValue.Ints...)), nil
	case attr.StringSliceValue != nil:
		return types.NewStringList(types.DefaultTypeAdapter, append([]string(nil), attr.StringSliceValue.Strings...)), nil
	}
	return nil, errors.New("unsupported attribute value")
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
