package cel

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blang/semver/v4"

	"github.com/drakit/drakit/apis/resource"
)

// A SimpleSelector is a device selector of a shape so plain that its result
// can be worked out without cel-go: comparisons of device.driver,
// device.allowMultipleAllocations and scalar attributes with literals,
// joined by &&, || and !. Compiling a selector in cel-go costs far more
// than an allocator's first claim should (parsing, checking and planning
// the program), and building the CEL input of every device even more; the
// selectors DeviceClasses and claims use in practice are mostly of this
// shape.
//
// It is not a CEL implementation. ParseSimpleSelector recognizes a small
// grammar and refuses everything else, and Match answers only when the real
// evaluation would give that plain bool without an error; otherwise the
// caller compiles the expression and asks cel-go, so that errors and their
// messages stay cel-go's.
type SimpleSelector struct {
	expression string
	legacy     bool
	nodes      []simpleNode // nodes[0] is the root
}

// simpleNode is one node of the expression tree. Children are indexes
// into SimpleSelector.nodes.
type simpleNode struct {
	kind     simpleKind
	children []int32 // and, or: two or more; not: one

	// A leaf: operand op literal (op is opTruth for a bare operand).
	operand simpleOperand
	op      simpleOp
	literal simpleLiteral
}

type simpleKind uint8

const (
	simpleAnd simpleKind = iota
	simpleOr
	simpleNot
	simpleLeaf
	simpleConst // a bool literal on its own: literal.b
)

// simpleOperand is what a leaf looks at.
type simpleOperand struct {
	field  simpleField
	domain string // attributes: the domain (map key)
	id     string // attributes: the identifier
}

type simpleField uint8

const (
	fieldDriver simpleField = iota
	fieldMultiAlloc
	fieldAttribute
)

type simpleOp uint8

const (
	opTruth simpleOp = iota // the operand itself, which must be a bool
	opEq
	opNe
	opLt
	opLe
	opGt
	opGe
)

// flip is the operator with its operands swapped: 3 < x is x > 3.
func (o simpleOp) flip() simpleOp {
	switch o {
	case opLt:
		return opGt
	case opLe:
		return opGe
	case opGt:
		return opLt
	case opGe:
		return opLe
	}
	return o
}

type literalKind uint8

const (
	litNone literalKind = iota
	litInt
	litString
	litBool
)

type simpleLiteral struct {
	kind literalKind
	i    int64
	s    string
	b    bool
}

// Limits beyond which ParseSimpleSelector declines, well inside what
// cel-go's parser accepts (its recursion limit, its expression size limit)
// and what an evaluation may cost.
const (
	simpleMaxLength = 4096
	simpleMaxDepth  = 24
	simpleMaxLeaves = 64
)

// ParseSimpleSelector returns the simple form of a device selector, or false
// when the expression is not of the simple grammar. legacy selects the 1.31
// environment (CompileDeviceSelectorIn with StoredExpressions, whose device
// has no allowMultipleAllocations); otherwise the 1.37 environment of
// stored expressions (CompileSelector137 with Stored). Every expression it
// accepts compiles in that environment. The grammar:
//
//	expr    = and { "||" and }
//	and     = rel { "&&" rel }
//	rel     = unary [ relop unary ]    relop: == != < <= > >=
//	unary   = "!" unary | member | literal
//	member  = "device" "." "driver"
//	        | "device" "." "allowMultipleAllocations"
//	        | "device" "." "attributes" "[" string "]" ( "." ident | "[" string "]" )
//	        | "(" expr ")"
//	literal = int | "-" int | string | "true" | "false"
//
// where a comparison has one member and one literal of a kind it can be
// compared with: a string for device.driver, a bool for
// allowMultipleAllocations, any for an attribute. Strings are single- or
// double-quoted without escapes; ints are decimal and fit an int64;
// identifiers are CEL identifiers that are not reserved words. Comments,
// other literals (floats, uints, bytes, raw or triple-quoted strings),
// other variables, fields, functions and operators are refused.
func ParseSimpleSelector(expression string, legacy bool) (*SimpleSelector, bool) {
	if len(expression) > simpleMaxLength || !utf8.ValidString(expression) {
		return nil, false
	}
	toks, ok := simpleTokens(expression)
	if !ok {
		return nil, false
	}
	p := &simpleParser{toks: toks, legacy: legacy, s: &SimpleSelector{expression: expression, legacy: legacy}}
	p.s.nodes = append(p.s.nodes, simpleNode{}) // room for the root
	t, ok := p.expr(0)
	if !ok || p.pos != len(p.toks) {
		return nil, false
	}
	root, ok := p.asBool(t)
	if !ok || p.leaves > simpleMaxLeaves {
		return nil, false
	}
	p.s.nodes[0] = p.s.nodes[root]
	return p.s, true
}

// Expression is the source of the selector.
func (s *SimpleSelector) Expression() string { return s.expression }

// ---------------------------------------------------------------------------
// Tokens.

type tokKind uint8

const (
	tokIdent tokKind = iota
	tokInt
	tokString
	tokPunct
)

type simpleToken struct {
	kind tokKind
	text string // ident, punctuation, the string's contents, the int's digits
}

// simpleTokens splits an expression into tokens; false for anything the
// grammar has no token for.
func simpleTokens(s string) ([]simpleToken, bool) {
	var toks []simpleToken
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i + 1
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			toks = append(toks, simpleToken{tokIdent, s[i:j]})
			i = j
		case '0' <= c && c <= '9':
			j := i + 1
			for j < len(s) && '0' <= s[j] && s[j] <= '9' {
				j++
			}
			// No octal-looking leading zeros, no hex, no uint suffix,
			// no float, no digits glued to a name.
			if j-i > 1 && c == '0' || j < len(s) && (isIdentByte(s[j]) || s[j] == '.') {
				return nil, false
			}
			toks = append(toks, simpleToken{tokInt, s[i:j]})
			i = j
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' || s[j] == '\n' || s[j] == '\r' {
					return nil, false
				}
				j++
			}
			if j >= len(s) {
				return nil, false
			}
			if j == i+1 && j+1 < len(s) && s[j+1] == c {
				// """ or ''': a triple-quoted string.
				return nil, false
			}
			toks = append(toks, simpleToken{tokString, s[i+1 : j]})
			i = j + 1
		default:
			two := ""
			if i+1 < len(s) {
				two = s[i : i+2]
			}
			switch two {
			case "&&", "||", "==", "!=", "<=", ">=":
				toks = append(toks, simpleToken{tokPunct, two})
				i += 2
				continue
			case "//":
				return nil, false
			}
			switch c {
			case '.', '[', ']', '(', ')', '!', '<', '>', '-':
				toks = append(toks, simpleToken{tokPunct, s[i : i+1]})
				i++
			default:
				return nil, false
			}
		}
	}
	return toks, true
}

func isIdentByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// celReserved are the words CEL does not allow as identifiers (the
// language's keywords and the words it reserves).
var celReserved = map[string]bool{
	"as": true, "break": true, "const": true, "continue": true, "else": true,
	"false": true, "for": true, "function": true, "if": true, "import": true,
	"in": true, "let": true, "loop": true, "package": true, "namespace": true,
	"null": true, "return": true, "true": true, "var": true, "void": true,
	"while": true,
}

// ---------------------------------------------------------------------------
// Parsing.

// term is what a sub-expression turned out to be: a bool expression (a
// node), an operand or a literal.
type term struct {
	kind    termKind
	node    int32
	operand simpleOperand
	literal simpleLiteral
}

type termKind uint8

const (
	termBool termKind = iota
	termOperand
	termLiteral
)

type simpleParser struct {
	toks   []simpleToken
	pos    int
	legacy bool
	leaves int
	s      *SimpleSelector
}

func (p *simpleParser) peek(text string) bool {
	return p.pos < len(p.toks) && p.toks[p.pos].kind == tokPunct && p.toks[p.pos].text == text
}

func (p *simpleParser) add(n simpleNode) int32 {
	p.s.nodes = append(p.s.nodes, n)
	return int32(len(p.s.nodes) - 1)
}

// expr parses expr (or, with and, the and rule): a chain of && or ||.
func (p *simpleParser) expr(depth int) (term, bool) {
	return p.chain(depth, "||", simpleOr, func() (term, bool) {
		return p.chain(depth, "&&", simpleAnd, func() (term, bool) { return p.rel(depth) })
	})
}

func (p *simpleParser) chain(depth int, op string, kind simpleKind, next func() (term, bool)) (term, bool) {
	first, ok := next()
	if !ok || !p.peek(op) {
		return first, ok
	}
	n, ok := p.asBool(first)
	if !ok {
		return term{}, false
	}
	children := []int32{n}
	for p.peek(op) {
		p.pos++
		t, ok := next()
		if !ok {
			return term{}, false
		}
		n, ok := p.asBool(t)
		if !ok {
			return term{}, false
		}
		children = append(children, n)
	}
	return term{kind: termBool, node: p.add(simpleNode{kind: kind, children: children})}, true
}

// asBool makes a term that stands where CEL wants a bool into a node:
// a bool expression, a bool literal, or an operand that is (or, for an
// attribute, may be) a bool.
func (p *simpleParser) asBool(t term) (int32, bool) {
	switch t.kind {
	case termBool:
		return t.node, true
	case termLiteral:
		if t.literal.kind != litBool {
			return 0, false
		}
		return p.add(simpleNode{kind: simpleConst, literal: t.literal}), true
	}
	if t.operand.field == fieldDriver {
		return 0, false
	}
	p.leaves++
	return p.add(simpleNode{kind: simpleLeaf, operand: t.operand, op: opTruth}), true
}

var simpleRelops = map[string]simpleOp{"==": opEq, "!=": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe}

// rel parses a comparison of an operand with a literal, or a single unary.
func (p *simpleParser) rel(depth int) (term, bool) {
	left, ok := p.unary(depth)
	if !ok || p.pos >= len(p.toks) || p.toks[p.pos].kind != tokPunct {
		return left, ok
	}
	op, isRel := simpleRelops[p.toks[p.pos].text]
	if !isRel {
		return left, true
	}
	p.pos++
	right, ok := p.unary(depth)
	if !ok {
		return term{}, false
	}
	if p.pos < len(p.toks) && p.toks[p.pos].kind == tokPunct {
		if _, chained := simpleRelops[p.toks[p.pos].text]; chained {
			return term{}, false
		}
	}
	if left.kind == termLiteral && right.kind == termOperand {
		left, right, op = right, left, op.flip()
	}
	if left.kind != termOperand || right.kind != termLiteral {
		return term{}, false
	}
	switch left.operand.field {
	case fieldDriver:
		if right.literal.kind != litString {
			return term{}, false
		}
	case fieldMultiAlloc:
		if right.literal.kind != litBool {
			return term{}, false
		}
	}
	p.leaves++
	return term{kind: termBool, node: p.add(simpleNode{kind: simpleLeaf, operand: left.operand, op: op, literal: right.literal})}, true
}

func (p *simpleParser) unary(depth int) (term, bool) {
	if depth > simpleMaxDepth || p.pos >= len(p.toks) {
		return term{}, false
	}
	t := p.toks[p.pos]
	switch t.kind {
	case tokInt:
		p.pos++
		i, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return term{}, false
		}
		return term{kind: termLiteral, literal: simpleLiteral{kind: litInt, i: i}}, true
	case tokString:
		p.pos++
		return term{kind: termLiteral, literal: simpleLiteral{kind: litString, s: t.text}}, true
	case tokIdent:
		switch t.text {
		case "true", "false":
			p.pos++
			return term{kind: termLiteral, literal: simpleLiteral{kind: litBool, b: t.text == "true"}}, true
		case "device":
			return p.member()
		}
		return term{}, false
	}
	switch t.text {
	case "-":
		// A negative int literal: the minus right before the digits.
		p.pos++
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != tokInt {
			return term{}, false
		}
		i, err := strconv.ParseInt(p.toks[p.pos].text, 10, 64)
		if err != nil {
			return term{}, false
		}
		p.pos++
		return term{kind: termLiteral, literal: simpleLiteral{kind: litInt, i: -i}}, true
	case "!":
		p.pos++
		inner, ok := p.unary(depth + 1)
		if !ok {
			return term{}, false
		}
		n, ok := p.asBool(inner)
		if !ok {
			return term{}, false
		}
		return term{kind: termBool, node: p.add(simpleNode{kind: simpleNot, children: []int32{n}})}, true
	case "(":
		p.pos++
		inner, ok := p.expr(depth + 1)
		if !ok || !p.peek(")") {
			return term{}, false
		}
		p.pos++
		// Parentheses hold a bool: (device.driver) == "x" is fine CEL,
		// but rare; keep the grammar small.
		n, ok := p.asBool(inner)
		if !ok {
			return term{}, false
		}
		return term{kind: termBool, node: n}, true
	}
	return term{}, false
}

// member parses what follows the variable device.
func (p *simpleParser) member() (term, bool) {
	p.pos++ // device
	field, ok := p.selectField()
	if !ok {
		return term{}, false
	}
	switch field {
	case "driver":
		return term{kind: termOperand, operand: simpleOperand{field: fieldDriver}}, true
	case "allowMultipleAllocations":
		if p.legacy {
			return term{}, false
		}
		return term{kind: termOperand, operand: simpleOperand{field: fieldMultiAlloc}}, true
	case "attributes":
		domain, ok := p.index()
		if !ok {
			return term{}, false
		}
		var id string
		if p.peek("[") {
			id, ok = p.index()
		} else {
			id, ok = p.selectField()
		}
		if !ok || !simpleName(domain) || !simpleName(id) {
			return term{}, false
		}
		return term{kind: termOperand, operand: simpleOperand{field: fieldAttribute, domain: domain, id: id}}, true
	}
	return term{}, false
}

// simpleName is a domain or identifier Match can look up: one that maps to
// exactly the attribute names domain/id and (for the driver's domain) id.
func simpleName(s string) bool {
	return s != "" && !strings.Contains(s, "/")
}

// selectField parses "." ident.
func (p *simpleParser) selectField() (string, bool) {
	if !p.peek(".") || p.pos+1 >= len(p.toks) {
		return "", false
	}
	t := p.toks[p.pos+1]
	if t.kind != tokIdent || celReserved[t.text] {
		return "", false
	}
	p.pos += 2
	return t.text, true
}

// index parses "[" string "]".
func (p *simpleParser) index() (string, bool) {
	if !p.peek("[") || p.pos+2 >= len(p.toks) {
		return "", false
	}
	t := p.toks[p.pos+1]
	if t.kind != tokString {
		return "", false
	}
	p.pos++
	p.pos++
	if !p.peek("]") {
		return "", false
	}
	p.pos++
	return t.text, true
}

// ---------------------------------------------------------------------------
// Matching.

// SimpleDevice is what Match needs of a device. Keep one per device and
// reuse it: it remembers whether the device's CEL input can be built at
// all, which costs a look at every attribute.
type SimpleDevice struct {
	driver string
	device *resource.Device
	// listAttributes: the 1.37 input offers list attributes
	// (DRAListTypeAttributes) instead of leaving them out.
	listAttributes bool

	usableLegacy, usable137 usability
}

type usability uint8

const (
	usabilityUnknown usability = iota
	usabilityYes
	usabilityNo
)

// NewSimpleDevice prepares a device of the given driver for Match.
// listAttributes tells whether the 1.37 input of the device (Input137)
// holds its list attributes (the allocator's DRAListTypeAttributes) or
// leaves them out; the 1.31 input (Device) always leaves them out. The
// device must not change afterwards.
func NewSimpleDevice(driver string, device *resource.Device, listAttributes bool) SimpleDevice {
	return SimpleDevice{driver: driver, device: device, listAttributes: listAttributes}
}

// Match evaluates the selector for a device. ok is false when the real
// evaluation might not simply give a bool: a missing domain or attribute,
// an attribute of another kind than the literal it is compared with (or a
// list), a device whose CEL input cannot be built (an attribute without a
// value, a version that does not parse). The caller then evaluates the
// compiled expression, which gives the same result or the error. Every
// leaf is looked at, whatever && and || would skip, so that an error
// never goes unseen.
func (s *SimpleSelector) Match(d *SimpleDevice) (match, ok bool) {
	if !d.usable(s.legacy) {
		return false, false
	}
	return s.eval(0, d)
}

func (s *SimpleSelector) eval(i int32, d *SimpleDevice) (match, ok bool) {
	n := &s.nodes[i]
	switch n.kind {
	case simpleConst:
		return n.literal.b, true
	case simpleNot:
		m, ok := s.eval(n.children[0], d)
		return !m, ok
	case simpleAnd, simpleOr:
		result := n.kind == simpleAnd
		for _, c := range n.children {
			m, ok := s.eval(c, d)
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
	return s.leaf(n, d)
}

func (s *SimpleSelector) leaf(n *simpleNode, d *SimpleDevice) (match, ok bool) {
	var v simpleLiteral
	switch n.operand.field {
	case fieldDriver:
		v = simpleLiteral{kind: litString, s: d.driver}
	case fieldMultiAlloc:
		multi := d.device.AllowMultipleAllocations
		v = simpleLiteral{kind: litBool, b: multi != nil && *multi}
	case fieldAttribute:
		attr, found := d.attribute(s.legacy, n.operand.domain, n.operand.id)
		if !found {
			return false, false
		}
		if v, ok = scalarOf(attr); !ok {
			return false, false
		}
	}
	if n.op == opTruth {
		if v.kind != litBool {
			return false, false
		}
		return v.b, true
	}
	if v.kind != n.literal.kind {
		return false, false
	}
	c := compareLiterals(v, n.literal)
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

// compareLiterals orders two values of one kind as CEL does: ints by value,
// strings by their bytes, false before true.
func compareLiterals(a, b simpleLiteral) int {
	switch a.kind {
	case litInt:
		switch {
		case a.i < b.i:
			return -1
		case a.i > b.i:
			return 1
		}
		return 0
	case litString:
		return strings.Compare(a.s, b.s)
	}
	switch {
	case a.b == b.b:
		return 0
	case !a.b:
		return -1
	}
	return 1
}

// scalarOf is the value CEL sees of an attribute the input holds, if it is
// an int, string or bool: the first of IntValue, BoolValue, StringValue
// that is set, as both inputs take them; a list (for the 1.37 input that
// holds lists, list values come first), a version or no value at all is
// not.
func scalarOf(attr *resource.DeviceAttribute) (simpleLiteral, bool) {
	switch {
	case attr.IntValue != nil:
		return simpleLiteral{kind: litInt, i: *attr.IntValue}, true
	case attr.BoolValue != nil:
		return simpleLiteral{kind: litBool, b: *attr.BoolValue}, true
	case attr.StringValue != nil:
		return simpleLiteral{kind: litString, s: *attr.StringValue}, true
	}
	return simpleLiteral{}, false
}

// attribute finds the attribute the device's CEL input has under domain
// and id; nil when there is none, or when the input holds a list there
// (which scalarOf would not see as one).
func (d *SimpleDevice) attribute(legacy bool, domain, id string) (*resource.DeviceAttribute, bool) {
	dev := d.device
	qualified := domain + "/" + id
	q, hasQ := dev.Attributes[resource.QualifiedName(qualified)]
	var u resource.DeviceAttribute
	hasU := false
	if domain == d.driver {
		u, hasU = dev.Attributes[resource.QualifiedName(id)]
	}
	if legacy {
		// Device holds an attribute's scalar, leaving out attributes
		// with only a list (and v1alpha2 null lists), and of the two
		// spellings keeps the one that sorts later.
		hasQ = hasQ && hasScalar(q) && !isNullList(dev, resource.QualifiedName(qualified))
		hasU = hasU && hasScalar(u) && !isNullList(dev, resource.QualifiedName(id))
		switch {
		case hasQ && hasU:
			if qualified > id {
				return &q, true
			}
			return &u, true
		case hasQ:
			return &q, true
		case hasU:
			return &u, true
		}
		return nil, false
	}
	// Input137: the qualified name wins; lists are either left out (the
	// allocator drops them) or list values, which no literal matches.
	for _, c := range []struct {
		attr  *resource.DeviceAttribute
		found bool
	}{{&q, hasQ}, {&u, hasU}} {
		if !c.found {
			continue
		}
		if isList(*c.attr) {
			if d.listAttributes {
				return nil, false
			}
			continue
		}
		return c.attr, true
	}
	return nil, false
}

// usable reports whether the device's CEL input can be built: every
// attribute it holds has a value CEL can represent. The 1.31 Device and
// the 1.37 Input137 fail alike on an attribute without any value and on a
// version that does not parse, each looking only at the attributes it
// holds.
func (d *SimpleDevice) usable(legacy bool) bool {
	cache := &d.usable137
	if legacy {
		cache = &d.usableLegacy
	}
	if *cache == usabilityUnknown {
		*cache = usabilityNo
		if d.checkUsable(legacy) {
			*cache = usabilityYes
		}
	}
	return *cache == usabilityYes
}

func (d *SimpleDevice) checkUsable(legacy bool) bool {
	if d.device == nil || strings.Contains(d.driver, "/") {
		// No device, or a driver whose qualified names would split
		// elsewhere: not worth reasoning about.
		return false
	}
	for name, attr := range d.device.Attributes {
		if legacy {
			// Device: scalars first, lists and null lists left out.
			if isNullList(d.device, name) {
				continue
			}
			if !scalarUsable(attr) && !isList(attr) {
				return false
			}
			continue
		}
		// Input137: lists first, or none at all when the allocator
		// drops them.
		if isList(attr) {
			if d.listAttributes && attr.IntValues == nil && attr.BoolValues == nil && attr.StringValues == nil && !versionsParse(attr.VersionValues) {
				return false
			}
			continue
		}
		if !scalarUsable(attr) {
			return false
		}
	}
	return true
}

// hasScalar reports whether the attribute has a scalar value.
func hasScalar(attr resource.DeviceAttribute) bool {
	return attr.IntValue != nil || attr.BoolValue != nil || attr.StringValue != nil || attr.VersionValue != nil
}

// scalarUsable reports whether the attribute's scalar value, the first of
// IntValue, BoolValue, StringValue and VersionValue that is set, can be
// represented in CEL.
func scalarUsable(attr resource.DeviceAttribute) bool {
	switch {
	case attr.IntValue != nil || attr.BoolValue != nil || attr.StringValue != nil:
		return true
	case attr.VersionValue != nil:
		_, err := semver.Parse(*attr.VersionValue)
		return err == nil
	}
	return false
}

func versionsParse(versions []string) bool {
	for _, v := range versions {
		if _, err := semver.Parse(v); err != nil {
			return false
		}
	}
	return true
}
