package cel

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/blang/semver/v4"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/drakit/drakit/apis/resource"
)

// eval runs the program on the input. An aborted evaluation of a cancelled
// context wraps the context's cause.
func (p *Program) eval(ctx context.Context, in *Input) (ref.Val, error) {
	if err := p.compile(); err != nil {
		return nil, err
	}
	vars, err := in.variables(p.shape)
	if err != nil {
		return nil, err
	}
	val, _, err := p.compiled.program.ContextEval(ctx, vars)
	if err != nil {
		if ctx.Err() != nil && strings.Contains(err.Error(), "operation interrupted") {
			return nil, fmt.Errorf("%w: %w", err, context.Cause(ctx))
		}
		return nil, err
	}
	return val, nil
}

var boolType = reflect.TypeOf(true)

// Matches evaluates a selector for a device. An error means the expression
// could not be evaluated for this device: a missing attribute (a domain
// the device lacks is an empty map, an identifier it lacks is "no such
// key"), an unusable attribute or capacity of the device, a result that is
// not a bool, the runtime cost limit ("actual cost limit exceeded") or a
// cancelled context. The scheduler treats such an error as a failure of
// the allocation. A fast-path program that cannot be compiled (which
// cannot happen) fails with the *Error Compile would have given.
func (p *Program) Matches(ctx context.Context, in *Input) (bool, error) {
	if p.simple != nil {
		if match, ok := p.simple.Match(&in.fast, p.shape == shapeLists); ok {
			return match, nil
		}
	}
	val, err := p.eval(ctx, in)
	if err != nil {
		return false, err
	}
	if b, ok := val.(types.Bool); ok {
		return bool(b), nil
	}
	native, err := val.ConvertToNative(boolType)
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
func (p *Program) Derive(ctx context.Context, in *Input) (*resource.DeviceAttribute, error) {
	val, err := p.eval(ctx, in)
	if err != nil {
		return nil, err
	}
	return derivedAttribute(val)
}

func derivedAttribute(val ref.Val) (*resource.DeviceAttribute, error) {
	switch v := val.Value().(type) {
	case bool:
		return &resource.DeviceAttribute{BoolValue: &v}, nil
	case int64:
		return &resource.DeviceAttribute{IntValue: &v}, nil
	case string:
		return &resource.DeviceAttribute{StringValue: &v}, nil
	case semver.Version:
		s := v.String()
		return &resource.DeviceAttribute{VersionValue: &s}, nil
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
		return &resource.DeviceAttribute{StringValues: []string{}}, nil
	}
	elems := make([]any, n)
	for i := range n {
		elems[i] = list.Get(types.Int(i)).Value()
	}
	attr := &resource.DeviceAttribute{}
	var err error
	switch elems[0].(type) {
	case bool:
		attr.BoolValues, err = listOf(elems, "bool", func(b bool) bool { return b })
	case int64:
		attr.IntValues, err = listOf(elems, "int", func(x int64) int64 { return x })
	case string:
		attr.StringValues, err = listOf(elems, "string", func(s string) string { return s })
	case semver.Version:
		attr.VersionValues, err = listOf(elems, "semver", semver.Version.String)
	default:
		return nil, fmt.Errorf("unsupported list element type: %T", elems[0])
	}
	if err != nil {
		return nil, err
	}
	return attr, nil
}

// listOf converts the elements of a derived list, which must all be E.
func listOf[E, T any](elems []any, want string, conv func(E) T) ([]T, error) {
	out := make([]T, len(elems))
	for i, e := range elems {
		x, ok := e.(E)
		if !ok {
			return nil, fmt.Errorf("expected list element at index %d to be %s, got %T", i, want, e)
		}
		out[i] = conv(x)
	}
	return out, nil
}

// attributeValue is the CEL value of one attribute in the device variable
// of the release drakit follows: the list if the attribute has one, else
// the scalar.
func attributeValue(a resource.DeviceAttribute) (ref.Val, error) {
	switch {
	case a.IntValues != nil:
		return refList(a.IntValues, func(v int64) (ref.Val, error) { return types.Int(v), nil })
	case a.BoolValues != nil:
		return refList(a.BoolValues, func(v bool) (ref.Val, error) { return types.Bool(v), nil })
	case a.StringValues != nil:
		return refList(a.StringValues, func(v string) (ref.Val, error) { return types.String(v), nil })
	case a.VersionValues != nil:
		return refList(a.VersionValues, semverValue)
	}
	return scalarValue(a)
}

// scalarValue is the CEL value of the attribute's scalar: the first of
// IntValue, BoolValue, StringValue and VersionValue that is set.
func scalarValue(a resource.DeviceAttribute) (ref.Val, error) {
	switch {
	case a.IntValue != nil:
		return types.Int(*a.IntValue), nil
	case a.BoolValue != nil:
		return types.Bool(*a.BoolValue), nil
	case a.StringValue != nil:
		return types.String(*a.StringValue), nil
	case a.VersionValue != nil:
		return semverValue(*a.VersionValue)
	}
	return nil, errors.New("unsupported attribute value")
}

func semverValue(s string) (ref.Val, error) {
	v, err := semver.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("parse semantic version: %w", err)
	}
	return apiservercel.Semver{Version: v}, nil
}

func refList[T any](values []T, conv func(T) (ref.Val, error)) (ref.Val, error) {
	vals := make([]ref.Val, len(values))
	for i, v := range values {
		var err error
		if vals[i], err = conv(v); err != nil {
			return nil, err
		}
	}
	return types.NewRefValList(types.DefaultTypeAdapter, vals), nil
}
