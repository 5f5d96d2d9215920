package cel

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/internal/quantityguard"
)

// QuantityType is the CEL type of resource quantities (device capacities,
// v1alpha2 quantity attributes, quantity()).
var QuantityType = cel.ObjectType("kubernetes.Quantity")

// Quantity is a resource.Quantity as a CEL value. It is never modified once
// made: arithmetic returns new quantities.
type Quantity struct {
	*resource.Quantity
}

// ConvertToNative gives the *resource.Quantity or its canonical string.
func (q Quantity) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if reflect.TypeOf(q.Quantity).AssignableTo(typeDesc) {
		return q.Quantity, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return q.Quantity.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'Quantity' to '%v'", typeDesc)
}

// ConvertToType supports only the identity conversion and type().
func (q Quantity) ConvertToType(typeVal ref.Type) ref.Val {
	switch typeVal {
	case QuantityType:
		return q
	case types.TypeType:
		return QuantityType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", QuantityType, typeVal)
}

// Equal compares numerically: quantity("1k") == quantity("1000").
func (q Quantity) Equal(other ref.Val) ref.Val {
	o, ok := other.(Quantity)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(q.Quantity.Equal(*o.Quantity))
}

// Type is QuantityType.
func (q Quantity) Type() ref.Type { return QuantityType }

// Value is the *resource.Quantity.
func (q Quantity) Value() any { return q.Quantity }

// quantityLibrary is the Kubernetes quantity function library (1.28+):
// quantity(), isQuantity(), sign() and the members isGreaterThan,
// isLessThan, compareTo, asApproximateFloat, asInteger, isInteger, add and
// sub. As in Kubernetes, sign is a global function, sign(q), even though
// the upstream documentation writes it as a member.
type quantityLibrary struct{}

func (quantityLibrary) LibraryName() string { return "k8s.quantity" }

func (quantityLibrary) CompileOptions() []cel.EnvOption {
	q, i := QuantityType, cel.IntType
	return []cel.EnvOption{
		cel.Function("quantity",
			cel.Overload("string_to_quantity", []*cel.Type{cel.StringType}, q,
				cel.UnaryBinding(func(arg ref.Val) ref.Val {
					s, ok := arg.Value().(string)
					if !ok {
						return types.MaybeNoSuchOverloadErr(arg)
					}
					if err := quantityguard.Check(s); err != nil {
						return types.WrapErr(err)
					}
					parsed, err := resource.ParseQuantity(s)
					if err != nil {
						return types.WrapErr(err)
					}
					return Quantity{Quantity: &parsed}
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
		cel.Function("sign",
			cel.Overload("quantity_sign", []*cel.Type{q}, i,
				quantityUnary(func(x *resource.Quantity) ref.Val { return types.Int(x.Sign()) }))),
		cel.Function("isGreaterThan",
			cel.MemberOverload("quantity_is_greater_than", []*cel.Type{q, q}, cel.BoolType,
				quantityBinary(func(a, b *resource.Quantity) ref.Val { return types.Bool(a.Cmp(*b) > 0) }))),
		cel.Function("isLessThan",
			cel.MemberOverload("quantity_is_less_than", []*cel.Type{q, q}, cel.BoolType,
				quantityBinary(func(a, b *resource.Quantity) ref.Val { return types.Bool(a.Cmp(*b) < 0) }))),
		cel.Function("compareTo",
			cel.MemberOverload("quantity_compare_to", []*cel.Type{q, q}, i,
				quantityBinary(func(a, b *resource.Quantity) ref.Val { return types.Int(a.Cmp(*b)) }))),
		cel.Function("asApproximateFloat",
			cel.MemberOverload("quantity_get_float", []*cel.Type{q}, cel.DoubleType,
				quantityUnary(func(x *resource.Quantity) ref.Val { return types.Double(x.AsApproximateFloat64()) }))),
		cel.Function("asInteger",
			cel.MemberOverload("quantity_get_int", []*cel.Type{q}, i,
				quantityUnary(func(x *resource.Quantity) ref.Val {
					v, ok := x.AsInt64()
					if !ok {
						return types.WrapErr(errors.New("cannot convert value to integer"))
					}
					return types.Int(v)
				}))),
		cel.Function("isInteger",
			cel.MemberOverload("quantity_is_integer", []*cel.Type{q}, cel.BoolType,
				quantityUnary(func(x *resource.Quantity) ref.Val {
					_, ok := x.AsInt64()
					return types.Bool(ok)
				}))),
		cel.Function("add",
			cel.MemberOverload("quantity_add", []*cel.Type{q, q}, q,
				quantityBinary(func(a, b *resource.Quantity) ref.Val { return quantityArith(a, b, false) })),
			cel.MemberOverload("quantity_add_int", []*cel.Type{q, i}, q,
				quantityWithInt(func(a, b *resource.Quantity) ref.Val { return quantityArith(a, b, false) }))),
		cel.Function("sub",
			cel.MemberOverload("quantity_sub", []*cel.Type{q, q}, q,
				quantityBinary(func(a, b *resource.Quantity) ref.Val { return quantityArith(a, b, true) })),
			cel.MemberOverload("quantity_sub_int", []*cel.Type{q, i}, q,
				quantityWithInt(func(a, b *resource.Quantity) ref.Val { return quantityArith(a, b, true) }))),
	}
}

func (quantityLibrary) ProgramOptions() []cel.ProgramOption { return nil }

func quantityArith(a, b *resource.Quantity, subtract bool) ref.Val {
	sum := a.DeepCopy()
	if subtract {
		sum.Sub(*b)
	} else {
		sum.Add(*b)
	}
	return Quantity{Quantity: &sum}
}

func quantityUnary(f func(*resource.Quantity) ref.Val) cel.OverloadOpt {
	return cel.UnaryBinding(func(arg ref.Val) ref.Val {
		x, ok := arg.Value().(*resource.Quantity)
		if !ok {
			return types.MaybeNoSuchOverloadErr(arg)
		}
		return f(x)
	})
}

func quantityBinary(f func(a, b *resource.Quantity) ref.Val) cel.OverloadOpt {
	return cel.BinaryBinding(func(lhs, rhs ref.Val) ref.Val {
		a, ok := lhs.Value().(*resource.Quantity)
		if !ok {
			return types.MaybeNoSuchOverloadErr(lhs)
		}
		b, ok := rhs.Value().(*resource.Quantity)
		if !ok {
			return types.MaybeNoSuchOverloadErr(rhs)
		}
		return f(a, b)
	})
}

// quantityWithInt handles add(int) and sub(int): the integer counts as a
// plain decimal quantity.
func quantityWithInt(f func(a, b *resource.Quantity) ref.Val) cel.OverloadOpt {
	return cel.BinaryBinding(func(lhs, rhs ref.Val) ref.Val {
		a, ok := lhs.Value().(*resource.Quantity)
		if !ok {
			return types.MaybeNoSuchOverloadErr(lhs)
		}
		n, ok := rhs.Value().(int64)
		if !ok {
			return types.MaybeNoSuchOverloadErr(rhs)
		}
		return f(a, resource.NewQuantity(n, resource.DecimalExponent))
	})
}
