package cel

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"k8s.io/apimachinery/pkg/api/resource"
	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/drakit/drakit/internal/quantityguard"
)

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
