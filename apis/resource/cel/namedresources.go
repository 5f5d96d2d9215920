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
type NamedResourcesInstance struct {
	attributes []resource.DeviceAttribute

	once sync.Once
	vars activation
	err  error
}

// NewNamedResourcesInstance prepares the selector input from a hub
// device's attributes. They are not copied and must not change afterwards.
func NewNamedResourcesInstance(attributes []resource.DeviceAttribute) *NamedResourcesInstance {
	return &NamedResourcesInstance{attributes: attributes}
}

func (n *NamedResourcesInstance) build() {
	maps := map[string]map[ref.Val]ref.Val{}
	for _, v := range namedValueTypes {
		maps[v.name] = map[ref.Val]ref.Val{}
	}
	for _, attr := range n.attributes {
		name := types.String(attr.Name)
		switch {
		case attr.QuantityValue != nil:
			q := attr.QuantityValue.DeepCopy()
			maps[namedQuantity][name] = apiservercel.Quantity{Quantity: &q}
		case attr.BoolValue != nil:
			maps[namedBool][name] = types.Bool(*attr.BoolValue)
		case attr.IntValue != nil:
			maps[namedInt][name] = types.Int(*attr.IntValue)
		case attr.IntSliceValue != nil:
			maps[namedIntSlice][name] = types.NewDynamicList(types.DefaultTypeAdapter, append([]int64(nil), attr.IntSliceValue.Ints...))
		case attr.StringValue != nil:
			maps[namedString][name] = types.String(*attr.StringValue)
		case attr.StringSliceValue != nil:
			maps[namedStringSlice][name] = types.NewStringList(types.DefaultTypeAdapter, append([]string(nil), attr.StringSliceValue.Strings...))
		case attr.VersionValue != nil:
			v, err := semver.Parse(*attr.VersionValue)
			if err != nil {
				n.err = fmt.Errorf("extract attributes with type %s: attribute %q: parse semantic version: %v", namedVersion, string(attr.Name), err)
				return
			}
			maps[namedVersion][name] = apiservercel.Semver{Version: v}
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
