package simple

import (
	"strings"
)

// Match evaluates the selector for a device. ok is false when the real
// evaluation might not simply give a bool: a missing domain, attribute or
// capacity, an attribute of another kind than the literal or the function
// needs (or a list), a device whose CEL input cannot be built (an
// attribute without a value, a version that does not parse, also in the
// scalar of an attribute that has a list beside it, a capacity beyond the
// quantity bound), a long string. The caller then evaluates the compiled
// expression, which gives the same result or the error. Every leaf is
// looked at, whatever && and || would skip, so that an error never goes
// unseen. lists tells whether the input of the release followed holds
// list attributes (DRAListTypeAttributes) or leaves them out; a selector
// of the 1.31 grammar ignores it (1.31's input always leaves them out).
func (s *Selector) Match(d *Device, lists bool) (match, ok bool) {
	m := modeScalars
	switch {
	case s.legacy:
		m = modeLegacy
	case lists:
		m = modeLists
	}
	if !d.usable(m) {
		return false, false
	}
	return s.eval(0, d, m)
}

func (s *Selector) eval(i int32, d *Device, m mode) (match, ok bool) {
	n := &s.nodes[i]
	switch n.kind {
	case simpleConst:
		return n.literal.b, true
	case simpleNot:
		m, ok := s.eval(n.children[0], d, m)
		return !m, ok
	case simpleAnd, simpleOr:
		result := n.kind == simpleAnd
		for _, c := range n.children {
			m, ok := s.eval(c, d, m)
			if !ok {
				return false, false
			}
			if n.kind == simpleAnd {
				result = result && m
			} else {
				result = result || m
			}
		}
		return result, true
	}
	return s.leaf(n, d, m)
}

func (s *Selector) leaf(n *simpleNode, d *Device, m mode) (match, ok bool) {
	v, ok := d.value(m, n.operand)
	if !ok {
		return false, false
	}
	if v, ok = applyCall(n, v); !ok {
		return false, false
	}
	switch n.op {
	case opTruth:
		return v.b, v.kind == kindBool
	case opIn:
		if v.kind != n.list[0].kind {
			return false, false
		}
		for _, l := range n.list {
			if compareValues(v, l) == 0 {
				return true, true
			}
		}
		return false, true
	}
	if v.kind != n.literal.kind {
		return false, false
	}
	c := compareValues(v, n.literal)
	switch n.op {
	case opEq:
		return c == 0, true
	case opNe:
		return c != 0, true
	case opLt:
		return c < 0, true
	case opLe:
		return c <= 0, true
	case opGt:
		return c > 0, true
	case opGe:
		return c >= 0, true
	}
	return false, false
}

// applyCall is the result of the leaf's method on v, as the Kubernetes CEL
// libraries and cel-go's strings compute it; false when v is not of the
// kind the method needs.
func applyCall(n *simpleNode, v simpleValue) (simpleValue, bool) {
	switch n.call {
	case callNone:
		return v, true
	case callMajor, callMinor, callPatch:
		if v.kind != kindVersion {
			return v, false
		}
		x := v.v.Major
		if n.call == callMinor {
			x = v.v.Minor
		} else if n.call == callPatch {
			x = v.v.Patch
		}
		return simpleValue{kind: kindInt, i: int64(x)}, true
	case callCompareTo, callIsGreaterThan, callIsLessThan:
		if v.kind != n.arg.kind {
			return v, false
		}
		c := compareValues(v, n.arg)
		switch n.call {
		case callIsGreaterThan:
			return simpleValue{kind: kindBool, b: c == 1}, true
		case callIsLessThan:
			return simpleValue{kind: kindBool, b: c == -1}, true
		}
		return simpleValue{kind: kindInt, i: int64(c)}, true
	}
	if v.kind != kindString {
		return v, false
	}
	var b bool
	switch n.call {
	case callMatches:
		b = n.re.MatchString(v.s)
	case callStartsWith:
		b = strings.HasPrefix(v.s, n.arg.s)
	case callEndsWith:
		b = strings.HasSuffix(v.s, n.arg.s)
	case callContains:
		b = strings.Contains(v.s, n.arg.s)
	}
	return simpleValue{kind: kindBool, b: b}, true
}

// compareValues orders two values of one kind as CEL and the libraries do:
// ints by value, strings by their bytes, false before true, versions by
// semver precedence, quantities by amount.
func compareValues(a, b simpleValue) int {
	switch a.kind {
	case kindInt:
		switch {
		case a.i < b.i:
			return -1
		case a.i > b.i:
			return 1
		}
		return 0
	case kindString:
		return strings.Compare(a.s, b.s)
	case kindVersion:
		return a.v.Compare(b.v)
	case kindQuantity:
		return a.q.Cmp(*b.q)
	}
	switch {
	case a.b == b.b:
		return 0
	case !a.b:
		return -1
	}
	return 1
}
