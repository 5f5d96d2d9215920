package cel

import (
	"regexp"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// listsLibrary is the Kubernetes list library of the API server's base
// environment: isSorted, sum, min, max, indexOf and lastIndexOf.
type listsLibrary struct{}

func (listsLibrary) LibraryName() string { return "k8s.lists" }

type namedType struct {
	name string
	t    *cel.Type
}

// Element types for which sum and the ordering functions are declared,
// with the overload ids Kubernetes uses.
var (
	summable = []namedType{
		{"int", cel.IntType}, {"uint", cel.UintType}, {"double", cel.DoubleType}, {"duration", cel.DurationType},
	}
	summableZero = map[string]ref.Val{
		"int": types.Int(0), "uint": types.Uint(0), "double": types.Double(0), "duration": types.Duration{},
	}
	ordered = []namedType{
		{"int", cel.IntType}, {"uint", cel.UintType}, {"double", cel.DoubleType}, {"bool", cel.BoolType},
		{"duration", cel.DurationType}, {"timestamp", cel.TimestampType}, {"string", cel.StringType},
		{"bytes", cel.BytesType},
	}
)

func (listsLibrary) CompileOptions() []cel.EnvOption {
	var isSorted, sum, lowest, highest []cel.FunctionOpt
	for _, o := range ordered {
		isSorted = append(isSorted, cel.MemberOverload("list_"+o.name+"_is_sorted_bool",
			[]*cel.Type{cel.ListType(o.t)}, cel.BoolType, cel.UnaryBinding(listIsSorted)))
		lowest = append(lowest, cel.MemberOverload("list_"+o.name+"_min_"+o.name,
			[]*cel.Type{cel.ListType(o.t)}, o.t, cel.UnaryBinding(listExtreme("min", types.IntOne))))
		highest = append(highest, cel.MemberOverload("list_"+o.name+"_max_"+o.name,
			[]*cel.Type{cel.ListType(o.t)}, o.t, cel.UnaryBinding(listExtreme("max", types.IntNegOne))))
	}
	for _, s := range summable {
		zero := summableZero[s.name]
		sum = append(sum, cel.MemberOverload("list_"+s.name+"_sum_"+s.name,
			[]*cel.Type{cel.ListType(s.t)}, s.t, cel.UnaryBinding(func(list ref.Val) ref.Val { return listSum(zero, list) })))
	}
	a := cel.TypeParamType("A")
	return []cel.EnvOption{
		cel.Function("isSorted", isSorted...),
		cel.Function("sum", sum...),
		cel.Function("min", lowest...),
		cel.Function("max", highest...),
		cel.Function("indexOf", cel.MemberOverload("list_a_index_of_int",
			[]*cel.Type{cel.ListType(a), a}, cel.IntType, cel.BinaryBinding(func(l, x ref.Val) ref.Val { return listIndex(l, x, false) }))),
		cel.Function("lastIndexOf", cel.MemberOverload("list_a_last_index_of_int",
			[]*cel.Type{cel.ListType(a), a}, cel.IntType, cel.BinaryBinding(func(l, x ref.Val) ref.Val { return listIndex(l, x, true) }))),
	}
}

func (listsLibrary) ProgramOptions() []cel.ProgramOption { return nil }

func listIsSorted(list ref.Val) ref.Val {
	it, ok := list.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(list)
	}
	var prev traits.Comparer
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		c, ok := next.(traits.Comparer)
		if !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		if prev != nil && prev.Compare(next) == types.IntOne {
			return types.False
		}
		prev = c
	}
	return types.True
}

func listSum(zero, list ref.Val) ref.Val {
	it, ok := list.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(list)
	}
	acc := zero
	for i := it.Iterator(); i.HasNext() == types.True; {
		adder, ok := acc.(traits.Adder)
		if !ok {
			return types.MaybeNoSuchOverloadErr(acc)
		}
		acc = adder.Add(i.Next())
		if types.IsError(acc) {
			return acc
		}
	}
	return acc
}

// listExtreme keeps the first element and replaces it whenever comparing it
// with the next one gives replaceOn (1 for min, -1 for max).
func listExtreme(name string, replaceOn ref.Val) func(ref.Val) ref.Val {
	return func(list ref.Val) ref.Val {
		it, ok := list.(traits.Iterable)
		if !ok {
			return types.MaybeNoSuchOverloadErr(list)
		}
		var best traits.Comparer
		for i := it.Iterator(); i.HasNext() == types.True; {
			next := i.Next()
			c, ok := next.(traits.Comparer)
			if !ok {
				return types.MaybeNoSuchOverloadErr(next)
			}
			if best == nil || best.Compare(next) == replaceOn {
				best = c
			}
		}
		if best == nil {
			return types.NewErr("%s called on empty list", name)
		}
		return best.(ref.Val)
	}
}

func listIndex(list, item ref.Val, last bool) ref.Val {
	l, ok := list.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(list)
	}
	n := l.Size().(types.Int)
	for k := types.Int(0); k < n; k++ {
		i := k
		if last {
			i = n - 1 - k
		}
		if l.Get(i).Equal(item) == types.True {
			return i
		}
	}
	return types.Int(-1)
}

// regexLibrary is the Kubernetes regex library: find and findAll.
type regexLibrary struct{}

func (regexLibrary) LibraryName() string { return "k8s.regex" }

func (regexLibrary) CompileOptions() []cel.EnvOption {
	s := cel.StringType
	return []cel.EnvOption{
		cel.Function("find", cel.MemberOverload("string_find_string", []*cel.Type{s, s}, s,
			cel.BinaryBinding(func(str, re ref.Val) ref.Val { return regexFind(nil, str, re) }))),
		cel.Function("findAll",
			cel.MemberOverload("string_find_all_string", []*cel.Type{s, s}, cel.ListType(s),
				cel.BinaryBinding(func(str, re ref.Val) ref.Val { return regexFindAll(nil, str, re, types.Int(-1)) })),
			cel.MemberOverload("string_find_all_string_int", []*cel.Type{s, s, cel.IntType}, cel.ListType(s),
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					if len(args) != 3 {
						return types.NoSuchOverloadErr()
					}
					return regexFindAll(nil, args[0], args[1], args[2])
				}))),
	}
}

// ProgramOptions compiles constant patterns once per program.
func (regexLibrary) ProgramOptions() []cel.ProgramOption {
	precompiled := func(fn func(re *regexp.Regexp, args ...ref.Val) ref.Val) func(interpreter.InterpretableCall, string) (interpreter.InterpretableCall, error) {
		return func(call interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
			re, err := regexp.Compile(pattern)
			if err != nil {
				return nil, err
			}
			return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(),
				func(args ...ref.Val) ref.Val { return fn(re, args...) }), nil
		}
	}
	return []cel.ProgramOption{cel.OptimizeRegex(
		&interpreter.RegexOptimization{Function: "find", RegexIndex: 1, Factory: precompiled(func(re *regexp.Regexp, args ...ref.Val) ref.Val {
			if len(args) != 2 {
				return types.NoSuchOverloadErr()
			}
			return regexFind(re, args[0], args[1])
		})},
		&interpreter.RegexOptimization{Function: "findAll", RegexIndex: 1, Factory: precompiled(func(re *regexp.Regexp, args ...ref.Val) ref.Val {
			switch len(args) {
			case 2:
				return regexFindAll(re, args[0], args[1], types.Int(-1))
			case 3:
				return regexFindAll(re, args[0], args[1], args[2])
			}
			return types.NoSuchOverloadErr()
		})},
	)}
}

// compileRegex uses re when the pattern was compiled ahead of time.
func compileRegex(re *regexp.Regexp, pattern ref.Val) (*regexp.Regexp, ref.Val) {
	if re != nil {
		return re, nil
	}
	p, ok := pattern.Value().(string)
	if !ok {
		return nil, types.MaybeNoSuchOverloadErr(pattern)
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, types.NewErr("Illegal regex: %v", err.Error())
	}
	return re, nil
}

func regexFind(re *regexp.Regexp, str, pattern ref.Val) ref.Val {
	s, ok := str.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(str)
	}
	re, errVal := compileRegex(re, pattern)
	if errVal != nil {
		return errVal
	}
	return types.String(re.FindString(s))
}

func regexFindAll(re *regexp.Regexp, str, pattern, limit ref.Val) ref.Val {
	s, ok := str.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(str)
	}
	n, ok := limit.Value().(int64)
	if !ok {
		return types.MaybeNoSuchOverloadErr(limit)
	}
	re, errVal := compileRegex(re, pattern)
	if errVal != nil {
		return errVal
	}
	return types.NewStringList(types.DefaultTypeAdapter, re.FindAllString(s, int(n)))
}
