package cel

import (
	"context"
	"fmt"
	"sync"

	"github.com/blang/semver/v4"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/drakit/drakit/apis/resource"
)

// NamedResourcesInstance is what a v1alpha2 (1.30) named-resources selector
// sees of one instance: the variables attributes.quantity, attributes.bool,
// attributes.int, attributes.intslice, attributes.string,
// attributes.stringslice and attributes.version, each a map from attribute
// name to the values of that type. It is built once and can be matched
// against any number of programs, concurrently.
//
// It is built from a hub device: attributes.quantity from the Value of each
// entry of its Capacity, the others from its Attributes (intslice from
// IntValues, stringslice from StringValues, which a v1alpha2 instance
// holds even when its list is empty). BoolValues and VersionValues have no
// v1alpha2 type and are left out, as is an attribute without any value.
type NamedResourcesInstance struct {
	device *resource.Device

	once sync.Once
	vars activation
	err  error
}

// NewNamedResourcesInstance prepares the selector input from a hub device.
// It is not copied and must not change afterwards; nil stands for an
// instance without attributes.
func NewNamedResourcesInstance(device *resource.Device) *NamedResourcesInstance {
	return &NamedResourcesInstance{device: device}
}

func (n *NamedResourcesInstance) build() {
	maps := map[string]map[ref.Val]ref.Val{}
	for _, v := range namedValueTypes {
		maps[v.name] = map[ref.Val]ref.Val{}
	}
	if dev := n.device; dev != nil {
		for name, c := range dev.Capacity {
			q := c.Value.DeepCopy()
			maps[namedQuantity][types.String(name)] = apiservercel.Quantity{Quantity: &q}
		}
		// The error of the version that sorts first is reported, so that
		// the message does not depend on map order.
		var errName resource.QualifiedName
		for qn, attr := range dev.Attributes {
			name := types.String(qn)
			switch {
			case attr.BoolValue != nil:
				maps[namedBool][name] = types.Bool(*attr.BoolValue)
			case attr.IntValue != nil:
				maps[namedInt][name] = types.Int(*attr.IntValue)
			case attr.IntValues != nil:
				maps[namedIntSlice][name] = types.NewDynamicList(types.DefaultTypeAdapter, append([]int64(nil), attr.IntValues...))
			case attr.StringValue != nil:
				maps[namedString][name] = types.String(*attr.StringValue)
			case attr.StringValues != nil:
				maps[namedStringSlice][name] = types.NewStringList(types.DefaultTypeAdapter, append([]string(nil), attr.StringValues...))
			case attr.VersionValue != nil:
				v, err := semver.Parse(*attr.VersionValue)
				if err != nil {
					if n.err == nil || qn < errName {
						n.err = fmt.Errorf("extract attributes with type %s: attribute %q: parse semantic version: %v", namedVersion, string(qn), err)
						errName = qn
					}
					continue
				}
				maps[namedVersion][name] = apiservercel.Semver{Version: v}
			}
		}
		if n.err != nil {
			return
		}
		if err := capacityError(dev.Capacity); err != nil {
			n.err = fmt.Errorf("extract attributes with type %s: %w", namedQuantity, err)
			return
		}
	}
	n.vars = activation{}
	for typ, m := range maps {
		n.vars[namedVarPrefix+typ] = types.NewRefValMap(types.DefaultTypeAdapter, m)
	}
}

// Matches evaluates the selector for an instance.
func (p *NamedResourcesProgram) Matches(ctx context.Context, n *NamedResourcesInstance) (bool, error) {
	n.once.Do(n.build)
	if n.err != nil {
		return false, n.err
	}
	return evalBool(ctx, p.program, n.vars)
}
