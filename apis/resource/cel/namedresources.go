package cel

import (
	"fmt"

	"github.com/blang/semver/v4"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/drakit/drakit/apis/resource"
)

// namedResourcesVariables are the variables of a v1alpha2 (1.30)
// namedResources selector: attributes.<type> for every value type, each a
// map from attribute name to the values of that type (see Input).
func namedResourcesVariables(dev *resource.Device) (interpreter.Activation, error) {
	maps := map[string]map[ref.Val]ref.Val{}
	for _, v := range namedValueTypes {
		maps[v.name] = map[ref.Val]ref.Val{}
	}
	if dev != nil {
		for name, c := range dev.Capacity {
			q := c.Value.DeepCopy()
			maps[namedQuantity][types.String(name)] = apiservercel.Quantity{Quantity: &q}
		}
		// The error of the version that sorts first is reported, so that
		// the message does not depend on map order.
		var err error
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
				v, e := semver.Parse(*attr.VersionValue)
				if e != nil {
					if err == nil || qn < errName {
						err = fmt.Errorf("extract attributes with type %s: attribute %q: parse semantic version: %v", namedVersion, string(qn), e)
						errName = qn
					}
					continue
				}
				maps[namedVersion][name] = apiservercel.Semver{Version: v}
			}
		}
		if err != nil {
			return nil, err
		}
		if err := capacityError(dev.Capacity); err != nil {
			return nil, fmt.Errorf("extract attributes with type %s: %w", namedQuantity, err)
		}
	}
	vars := namedActivation{}
	for typ, m := range maps {
		vars[namedVariablePrefix+typ] = types.NewRefValMap(types.DefaultTypeAdapter, m)
	}
	return vars, nil
}

// namedActivation resolves the variables attributes.<type>.
type namedActivation map[string]any

func (a namedActivation) ResolveName(name string) (any, bool) {
	v, ok := a[name]
	return v, ok
}

func (a namedActivation) Parent() interpreter.Activation { return nil }
