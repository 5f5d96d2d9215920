package cel

import (
	"fmt"
	"reflect"

	"github.com/blang/semver/v4"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// SemverType is the CEL type of semantic versions, named as Kubernetes names
// it so that type names in error messages match the API server's.
var SemverType = cel.ObjectType("kubernetes.Semver")

// Semver is a semantic version as a CEL value. Versions are parsed strictly
// (github.com/blang/semver/v4 Parse): "1.2" or "v1.2.3" are not versions.
type Semver struct {
	semver.Version
}

// ConvertToNative gives the version as a semver.Version or as its string.
func (v Semver) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if reflect.TypeOf(v.Version).AssignableTo(typeDesc) {
		return v.Version, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return v.Version.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'Semver' to '%v'", typeDesc)
}

// ConvertToType supports only the identity conversion and type().
func (v Semver) ConvertToType(typeVal ref.Type) ref.Val {
	switch typeVal {
	case SemverType:
		return v
	case types.TypeType:
		return SemverType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", SemverType, typeVal)
}

// Equal compares by semantic-version precedence: build metadata is ignored.
func (v Semver) Equal(other ref.Val) ref.Val {
	o, ok := other.(Semver)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(v.Version.EQ(o.Version))
}

// Type is SemverType.
func (v Semver) Type() ref.Type { return SemverType }

// Value is the semver.Version.
func (v Semver) Value() any { return v.Version }

// semverLibrary is the Kubernetes semver function library: semver(),
// isSemver(), and the members isGreaterThan, isLessThan, compareTo, major,
// minor and patch.
type semverLibrary struct{}

func (semverLibrary) LibraryName() string { return "k8s.semver" }

func (semverLibrary) CompileOptions() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("semver",
			cel.Overload("string_to_semver", []*cel.Type{cel.StringType}, SemverType,
				cel.UnaryBinding(func(arg ref.Val) ref.Val {
					s, ok := arg.Value().(string)
					if !ok {
						return types.MaybeNoSuchOverloadErr(arg)
					}
					v, err := semver.Parse(s)
					if err != nil {
						return types.WrapErr(err)
					}
					return Semver{Version: v}
				}))),
		cel.Function("isSemver",
			cel.Overload("is_semver_string", []*cel.Type{cel.StringType}, cel.BoolType,
				cel.UnaryBinding(func(arg ref.Val) ref.Val {
					s, ok := arg.Value().(string)
					if !ok {
						return types.MaybeNoSuchOverloadErr(arg)
					}
					_, err := semver.Parse(s)
					return types.Bool(err == nil)
				}))),
		cel.Function("isGreaterThan",
			cel.MemberOverload("semver_is_greater_than", []*cel.Type{SemverType, SemverType}, cel.BoolType,
				semverCompare(func(c int) ref.Val { return types.Bool(c > 0) }))),
		cel.Function("isLessThan",
			cel.MemberOverload("semver_is_less_than", []*cel.Type{SemverType, SemverType}, cel.BoolType,
				semverCompare(func(c int) ref.Val { return types.Bool(c < 0) }))),
		cel.Function("compareTo",
			cel.MemberOverload("semver_compare_to", []*cel.Type{SemverType, SemverType}, cel.IntType,
				semverCompare(func(c int) ref.Val { return types.Int(c) }))),
		cel.Function("major",
			cel.MemberOverload("semver_major", []*cel.Type{SemverType}, cel.IntType,
				semverPart(func(v semver.Version) uint64 { return v.Major }))),
		cel.Function("minor",
			cel.MemberOverload("semver_minor", []*cel.Type{SemverType}, cel.IntType,
				semverPart(func(v semver.Version) uint64 { return v.Minor }))),
		cel.Function("patch",
			cel.MemberOverload("semver_patch", []*cel.Type{SemverType}, cel.IntType,
				semverPart(func(v semver.Version) uint64 { return v.Patch }))),
	}
}

func (semverLibrary) ProgramOptions() []cel.ProgramOption { return nil }

func semverCompare(result func(int) ref.Val) cel.OverloadOpt {
	return cel.BinaryBinding(func(lhs, rhs ref.Val) ref.Val {
		a, ok := lhs.Value().(semver.Version)
		if !ok {
			return types.MaybeNoSuchOverloadErr(lhs)
		}
		b, ok := rhs.Value().(semver.Version)
		if !ok {
			return types.MaybeNoSuchOverloadErr(rhs)
		}
		return result(a.Compare(b))
	})
}

func semverPart(part func(semver.Version) uint64) cel.OverloadOpt {
	return cel.UnaryBinding(func(arg ref.Val) ref.Val {
		v, ok := arg.Value().(semver.Version)
		if !ok {
			return types.MaybeNoSuchOverloadErr(arg)
		}
		return types.Int(part(v))
	})
}
