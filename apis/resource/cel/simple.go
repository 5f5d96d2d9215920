package cel

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blang/semver/v4"
	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/quantityguard"
)

// A SimpleSelector is a device selector of a shape so plain that its result
// can be worked out without cel-go: comparisons of device.driver,
// device.allowMultipleAllocations, scalar attributes and a few library
// calls on attributes and capacities with literals, joined by &&, || and
// !. Compiling a selector in cel-go costs far more than an allocator's
// first claim should (parsing, checking and planning the program), and
// building the CEL input of every device even more; the selectors
// DeviceClasses and claims use in practice are mostly of this shape.
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

	// A leaf: operand[.call(arg)] op literal, where op is opTruth for a
	// bare operand and opIn for membership in list.
	operand simpleOperand
	call    simpleCall
	arg     simpleValue
	re      *regexp.Regexp // the argument of matches
	op      simpleOp
	literal simpleValue
	list    []simpleValue
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
	domain string // attributes and capacity: the domain (map key)
	id     string // attributes and capacity: the identifier
	// The names a device may have it under: domain/id, and id when the
	// domain is the driver's.
	qualified, unqualified resource.QualifiedName
}

// namedOperand is an attribute or capacity operand.
func namedOperand(field simpleField, domain, id string) simpleOperand {
	return simpleOperand{field: field, domain: domain, id: id,
		qualified: resource.QualifiedName(domain + "/" + id), unqualified: resource.QualifiedName(id)}
}

type simpleField uint8

const (
	fieldDriver simpleField = iota
	fieldMultiAlloc
	fieldAttribute
	fieldCapacity
)

// simpleCall is a library function called on the operand.
type simpleCall uint8

const (
	callNone simpleCall = iota
	callMajor
	callMinor
	callPatch
	callCompareTo
	callIsGreaterThan
	callIsLessThan
	callMatches
	callStartsWith
	callEndsWith
	callContains
)

var simpleCalls = map[string]simpleCall{
	"major": callMajor, "minor": callMinor, "patch": callPatch,
	"compareTo": callCompareTo, "isGreaterThan": callIsGreaterThan, "isLessThan": callIsLessThan,
	"matches": callMatches, "startsWith": callStartsWith, "endsWith": callEndsWith, "contains": callContains,
}

type simpleOp uint8

const (
	opTruth simpleOp = iota // the operand itself, which must be a bool
	opEq
	opNe
	opLt
	opLe
	opGt
	opGe
	opIn
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

// valueKind is the kind of a value; kindDyn, for the type of a term, says
// that it is known only at run time (an attribute).
type valueKind uint8

const (
	kindDyn valueKind = iota
	kindInt
	kindString
	kindBool
	kindVersion
	kindQuantity
)

type simpleValue struct {
	kind valueKind
	i    int64
	s    string
	b    bool
	v    semver.Version
	q    *apiresource.Quantity
}

// Limits beyond which ParseSimpleSelector declines or Match does not
// answer, well inside what cel-go's parser accepts (its recursion limit,
// its expression size limit) and what an evaluation may cost (a string
// operation costs in proportion to the lengths).
const (
	simpleMaxLength = 4096
	simpleMaxDepth  = 24
	simpleMaxLeaves = 64
	simpleMaxString = 128
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
//	rel     = unary [ relop unary ] | unary "in" "[" literal { "," literal } "]"
//	unary   = "!" unary | operand | literal | "(" expr ")"
//	        | "cel" "." "bind" "(" ident "," attrs "," expr ")"
//	operand = "device" "." "driver" [ string method ]
//	        | "device" "." "allowMultipleAllocations"
//	        | ( attrs | ident ) key [ attribute method ]
//	        | "device" "." "capacity" "[" string "]" key quantity method
//	attrs   = "device" "." "attributes" "[" string "]"
//	key     = "." ident | "[" string "]"
//	literal = int | "-" int | string | "true" | "false"
//
// relop is one of == != < <= > >=; the ident before key is a name that an
// enclosing cel.bind gave to attrs. Methods: on strings
// matches/startsWith/endsWith/contains(string); on versions
// major()/minor()/patch() and compareTo/isGreaterThan/isLessThan
// (semver(string)); on quantities compareTo/isGreaterThan/isLessThan
// (quantity(string)). A comparison has one operand and one literal of a
// kind it can be compared with (a string for device.driver, an int for
// compareTo, ...); a list holds literals of one kind. Strings are single-
// or double-quoted without escapes, at most simpleMaxString bytes; ints are
// decimal and fit an int64; regular expressions, versions and quantities
// must parse; identifiers are CEL identifiers that are not reserved words.
// Comments, other literals (floats, uints, bytes, raw or triple-quoted
// strings), other variables, fields, functions and operators are refused.
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
			if j >= len(s) || j-i-1 > simpleMaxString {
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
			case '.', ',', '[', ']', '(', ')', '!', '<', '>', '-':
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
// node), an operand (with the call made on it) or a literal.
type term struct {
	kind termKind
	node int32
	leaf simpleNode // an operand: operand, call, arg, re
	lit  simpleValue
}

type termKind uint8

const (
	termBool termKind = iota
	termOperand
	termLiteral
)

// staticKind is the type cel-go's checker gives the operand of a leaf:
// kindDyn for an attribute as it is.
func staticKind(n *simpleNode) valueKind {
	switch n.call {
	case callMajor, callMinor, callPatch, callCompareTo:
		return kindInt
	case callNone:
	default:
		return kindBool
	}
	switch n.operand.field {
	case fieldDriver:
		return kindString
	case fieldMultiAlloc:
		return kindBool
	case fieldCapacity:
		return kindQuantity
	}
	return kindDyn
}

// binding is a name cel.bind gave to device.attributes[domain].
type binding struct {
	name, domain string
}

type simpleParser struct {
	toks     []simpleToken
	pos      int
	legacy   bool
	leaves   int
	bindings []binding
	s        *SimpleSelector
}

func (p *simpleParser) peek(text string) bool {
	return p.pos < len(p.toks) && p.toks[p.pos].kind == tokPunct && p.toks[p.pos].text == text
}

// peekIdent reports whether the next token is the identifier text.
func (p *simpleParser) peekIdent(text string) bool {
	return p.pos < len(p.toks) && p.toks[p.pos].kind == tokIdent && p.toks[p.pos].text == text
}

// accept consumes the punctuation text if it comes next.
func (p *simpleParser) accept(text string) bool {
	if p.peek(text) {
		p.pos++
		return true
	}
	return false
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
	for p.accept(op) {
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
		if t.lit.kind != kindBool {
			return 0, false
		}
		return p.add(simpleNode{kind: simpleConst, literal: t.lit}), true
	}
	if k := staticKind(&t.leaf); k != kindBool && k != kindDyn {
		return 0, false
	}
	p.leaves++
	n := t.leaf
	n.kind, n.op = simpleLeaf, opTruth
	return p.add(n), true
}

var simpleRelops = map[string]simpleOp{"==": opEq, "!=": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe}

// relop is the comparison operator that comes next, if any.
func (p *simpleParser) relop() (simpleOp, bool) {
	if p.pos >= len(p.toks) {
		return 0, false
	}
	t := p.toks[p.pos]
	if t.kind == tokIdent && t.text == "in" {
		return opIn, true
	}
	if t.kind != tokPunct {
		return 0, false
	}
	op, ok := simpleRelops[t.text]
	return op, ok
}

// rel parses a comparison of an operand with a literal, a membership test,
// or a single unary.
func (p *simpleParser) rel(depth int) (term, bool) {
	left, ok := p.unary(depth)
	if !ok {
		return term{}, false
	}
	op, isRel := p.relop()
	if !isRel {
		return left, true
	}
	p.pos++
	var n simpleNode
	if op == opIn {
		list, ok := p.list()
		if !ok || left.kind != termOperand {
			return term{}, false
		}
		n = left.leaf
		n.list = list
		if k := staticKind(&n); k != kindDyn && k != list[0].kind {
			return term{}, false
		}
	} else {
		right, ok := p.unary(depth)
		if !ok {
			return term{}, false
		}
		if left.kind == termLiteral && right.kind == termOperand {
			left, right, op = right, left, op.flip()
		}
		if left.kind != termOperand || right.kind != termLiteral {
			return term{}, false
		}
		n = left.leaf
		n.literal = right.lit
		if k := staticKind(&n); k != kindDyn && k != right.lit.kind {
			return term{}, false
		}
	}
	if _, chained := p.relop(); chained {
		return term{}, false
	}
	n.kind, n.op = simpleLeaf, op
	p.leaves++
	return term{kind: termBool, node: p.add(n)}, true
}

// list parses what follows in: "[" literal { "," literal } "]", literals
// of one kind (CEL's list literals are homogeneous).
func (p *simpleParser) list() ([]simpleValue, bool) {
	if !p.accept("[") {
		return nil, false
	}
	var list []simpleValue
	for {
		lit, ok := p.literal()
		if !ok || len(list) > 0 && lit.kind != list[0].kind {
			return nil, false
		}
		list = append(list, lit)
		if p.accept("]") {
			return list, true
		}
		if !p.accept(",") {
			return nil, false
		}
	}
}

// literal parses an int, string or bool literal; on false, nothing is
// consumed.
func (p *simpleParser) literal() (simpleValue, bool) {
	start := p.pos
	v, ok := p.literalToken()
	if !ok {
		p.pos = start
	}
	return v, ok
}

func (p *simpleParser) literalToken() (simpleValue, bool) {
	if p.pos >= len(p.toks) {
		return simpleValue{}, false
	}
	t := p.toks[p.pos]
	switch t.kind {
	case tokInt:
		p.pos++
		i, err := strconv.ParseInt(t.text, 10, 64)
		return simpleValue{kind: kindInt, i: i}, err == nil
	case tokString:
		p.pos++
		return simpleValue{kind: kindString, s: t.text}, true
	case tokIdent:
		if t.text == "true" || t.text == "false" {
			p.pos++
			return simpleValue{kind: kindBool, b: t.text == "true"}, true
		}
	case tokPunct:
		// A negative int literal: the minus right before the digits.
		if t.text == "-" && p.pos+1 < len(p.toks) && p.toks[p.pos+1].kind == tokInt {
			p.pos += 2
			i, err := strconv.ParseInt(p.toks[p.pos-1].text, 10, 64)
			return simpleValue{kind: kindInt, i: -i}, err == nil
		}
	}
	return simpleValue{}, false
}

func (p *simpleParser) unary(depth int) (term, bool) {
	if depth > simpleMaxDepth || p.pos >= len(p.toks) {
		return term{}, false
	}
	t := p.toks[p.pos]
	if t.kind == tokInt || t.kind == tokString || t.kind == tokIdent && (t.text == "true" || t.text == "false") || p.peek("-") {
		lit, ok := p.literal()
		return term{kind: termLiteral, lit: lit}, ok
	}
	if t.kind == tokIdent {
		switch {
		case t.text == "device":
			return p.member()
		case p.bound(t.text) != "":
			p.pos++
			return p.attribute(p.bound(t.text))
		case t.text == "cel":
			return p.bind(depth)
		}
		return term{}, false
	}
	switch {
	case p.accept("!"):
		inner, ok := p.unary(depth + 1)
		if !ok {
			return term{}, false
		}
		n, ok := p.asBool(inner)
		if !ok {
			return term{}, false
		}
		return term{kind: termBool, node: p.add(simpleNode{kind: simpleNot, children: []int32{n}})}, true
	case p.accept("("):
		inner, ok := p.expr(depth + 1)
		if !ok || !p.accept(")") {
			return term{}, false
		}
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

// bound is the domain the innermost cel.bind of name gave it, or "".
func (p *simpleParser) bound(name string) string {
	for i := len(p.bindings) - 1; i >= 0; i-- {
		if p.bindings[i].name == name {
			return p.bindings[i].domain
		}
	}
	return ""
}

// bind parses cel.bind(name, device.attributes["domain"], expr), in which
// name.id stands for device.attributes["domain"].id.
func (p *simpleParser) bind(depth int) (term, bool) {
	p.pos++ // cel
	if !p.accept(".") || !p.peekIdent("bind") {
		return term{}, false
	}
	p.pos++
	if !p.accept("(") || p.pos >= len(p.toks) || p.toks[p.pos].kind != tokIdent {
		return term{}, false
	}
	name := p.toks[p.pos].text
	switch {
	case celReserved[name], name == "device", name == "cel", name == "semver", name == "quantity":
		return term{}, false
	}
	p.pos++
	if !p.accept(",") || !p.peekIdent("device") {
		return term{}, false
	}
	p.pos++
	if field, ok := p.selectField(); !ok || field != "attributes" {
		return term{}, false
	}
	domain, ok := p.index()
	if !ok || !simpleName(domain) || !p.accept(",") {
		return term{}, false
	}
	p.bindings = append(p.bindings, binding{name, domain})
	body, ok := p.expr(depth + 1)
	p.bindings = p.bindings[:len(p.bindings)-1]
	if !ok || !p.accept(")") {
		return term{}, false
	}
	n, ok := p.asBool(body)
	if !ok {
		return term{}, false
	}
	return term{kind: termBool, node: n}, true
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
		return p.call(simpleNode{operand: simpleOperand{field: fieldDriver}})
	case "allowMultipleAllocations":
		if p.legacy {
			return term{}, false
		}
		return term{kind: termOperand, leaf: simpleNode{operand: simpleOperand{field: fieldMultiAlloc}}}, true
	case "attributes", "capacity":
		domain, ok := p.index()
		if !ok || !simpleName(domain) {
			return term{}, false
		}
		if field == "attributes" {
			return p.attribute(domain)
		}
		id, ok := p.key()
		if !ok {
			return term{}, false
		}
		t, ok := p.call(simpleNode{operand: namedOperand(fieldCapacity, domain, id)})
		if !ok || t.leaf.call == callNone {
			// A quantity is only of use with a method.
			return term{}, false
		}
		return t, true
	}
	return term{}, false
}

// attribute parses the key after device.attributes[domain] (or a name
// bound to it) and a method called on the attribute.
func (p *simpleParser) attribute(domain string) (term, bool) {
	id, ok := p.key()
	if !ok {
		return term{}, false
	}
	return p.call(simpleNode{operand: namedOperand(fieldAttribute, domain, id)})
}

// key parses "." ident or "[" string "]": an identifier Match can look up.
func (p *simpleParser) key() (string, bool) {
	var id string
	var ok bool
	if p.peek("[") {
		id, ok = p.index()
	} else {
		id, ok = p.selectField()
	}
	return id, ok && simpleName(id)
}

// call parses a method call on the operand of n, if one follows: a
// library function the operand's type has, with a literal argument of the
// right kind.
func (p *simpleParser) call(n simpleNode) (term, bool) {
	operand := term{kind: termOperand, leaf: n}
	if !p.peek(".") {
		return operand, true
	}
	name, ok := p.selectField()
	if !ok || !p.accept("(") {
		return term{}, false
	}
	n.call = simpleCalls[name]
	field := n.operand.field
	switch n.call {
	case callMajor, callMinor, callPatch:
		if field != fieldAttribute {
			return term{}, false
		}
	case callCompareTo, callIsGreaterThan, callIsLessThan:
		fn := "semver"
		if field == fieldCapacity {
			fn = "quantity"
		} else if field != fieldAttribute {
			return term{}, false
		}
		if !p.peekIdent(fn) {
			return term{}, false
		}
		p.pos++
		s, ok := p.stringArg()
		if !ok {
			return term{}, false
		}
		if fn == "semver" {
			v, err := semver.Parse(s)
			if err != nil {
				// semver() would fail at run time.
				return term{}, false
			}
			n.arg = simpleValue{kind: kindVersion, v: v}
		} else {
			if quantityguard.Check(s) != nil {
				return term{}, false
			}
			q, err := apiresource.ParseQuantity(s)
			if err != nil {
				return term{}, false
			}
			n.arg = simpleValue{kind: kindQuantity, q: &q}
		}
	case callMatches, callStartsWith, callEndsWith, callContains:
		if field != fieldAttribute && field != fieldDriver || p.pos >= len(p.toks) || p.toks[p.pos].kind != tokString {
			return term{}, false
		}
		s := p.toks[p.pos].text
		p.pos++
		if n.call == callMatches {
			// cel-go refuses a literal pattern that does not compile
			// (and runs the same RE2 matcher).
			re, err := regexp.Compile(s)
			if err != nil {
				return term{}, false
			}
			n.re = re
		}
		n.arg = simpleValue{kind: kindString, s: s}
	default:
		return term{}, false
	}
	if !p.accept(")") || p.peek(".") {
		return term{}, false
	}
	return term{kind: termOperand, leaf: n}, true
}

// stringArg parses "(" string ")".
func (p *simpleParser) stringArg() (string, bool) {
	if !p.accept("(") || p.pos >= len(p.toks) || p.toks[p.pos].kind != tokString {
		return "", false
	}
	s := p.toks[p.pos].text
	p.pos++
	return s, p.accept(")")
}

// simpleName is a domain or identifier Match can look up: one that maps to
// exactly the names domain/id and (for the driver's domain) id.
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
	p.pos += 2
	if !p.accept("]") {
		return "", false
	}
	return t.text, true
}

// ---------------------------------------------------------------------------
// Matching.

// SimpleDevice is what Match needs of a device. Keep one per device and
// reuse it: it remembers whether the device's CEL input can be built at
// all, which costs a look at every attribute, and the versions it parsed.
type SimpleDevice struct {
	driver string
	device *resource.Device
	// listAttributes: the 1.37 input offers list attributes
	// (DRAListTypeAttributes) instead of leaving them out.
	listAttributes bool

	usableLegacy, usable137 usability
	versions                []parsedVersion
}

type usability uint8

const (
	usabilityUnknown usability = iota
	usabilityYes
	usabilityNo
)

// parsedVersion is the parsed VersionValue of an attribute, found by the
// pointer, which the attribute map's values share.
type parsedVersion struct {
	text *string
	v    semver.Version
	err  error
}

// NewSimpleDevice prepares a device of the given driver for Match.
// listAttributes tells whether the 1.37 input of the device (Input137)
// holds its list attributes (the allocator's DRAListTypeAttributes) or
// leaves them out; the 1.31 input (Device) always leaves them out. The
// device must not change afterwards.
func NewSimpleDevice(driver string, device *resource.Device, listAttributes bool) SimpleDevice {
	return SimpleDevice{driver: driver, device: device, listAttributes: listAttributes}
}

// Match evaluates the selector for a device. ok is false when the real
// evaluation might not simply give a bool: a missing domain, attribute or
// capacity, an attribute of another kind than the literal or the function
// needs (or a list), a device whose CEL input cannot be built (an
// attribute without a value, a version that does not parse, also in the
// scalar of an attribute that has a list beside it, a capacity beyond the
// quantity bound), a long string. The caller then evaluates the compiled expression, which gives
// the same result or the error. Every leaf is looked at, whatever && and
// || would skip, so that an error never goes unseen.
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
	v, ok := d.value(s.legacy, n.operand)
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

// value is what the device's CEL input holds for the operand; false when
// it holds nothing there, a list, or a string too long to be sure that
// the evaluation stays within its cost limit.
func (d *SimpleDevice) value(legacy bool, o simpleOperand) (simpleValue, bool) {
	var v simpleValue
	switch o.field {
	case fieldDriver:
		v = simpleValue{kind: kindString, s: d.driver}
	case fieldMultiAlloc:
		multi := d.device.AllowMultipleAllocations
		v = simpleValue{kind: kindBool, b: multi != nil && *multi}
	case fieldCapacity:
		q, found := d.capacity(legacy, &o)
		return simpleValue{kind: kindQuantity, q: q}, found
	case fieldAttribute:
		attr, found := d.attribute(legacy, &o)
		if !found {
			return v, false
		}
		var ok bool
		if v, ok = d.scalarOf(attr); !ok {
			return v, false
		}
	}
	return v, v.kind != kindString || len(v.s) <= simpleMaxString
}

// scalarOf is the value CEL sees of an attribute the input holds as a
// scalar: the first of IntValue, BoolValue, StringValue and VersionValue
// that is set, as both inputs take them.
func (d *SimpleDevice) scalarOf(attr *resource.DeviceAttribute) (simpleValue, bool) {
	switch {
	case attr.IntValue != nil:
		return simpleValue{kind: kindInt, i: *attr.IntValue}, true
	case attr.BoolValue != nil:
		return simpleValue{kind: kindBool, b: *attr.BoolValue}, true
	case attr.StringValue != nil:
		return simpleValue{kind: kindString, s: *attr.StringValue}, true
	case attr.VersionValue != nil:
		v, err := d.parseVersion(attr.VersionValue)
		return simpleValue{kind: kindVersion, v: v}, err == nil
	}
	return simpleValue{}, false
}

// parseVersion parses a VersionValue once.
func (d *SimpleDevice) parseVersion(text *string) (semver.Version, error) {
	for i := range d.versions {
		if d.versions[i].text == text {
			return d.versions[i].v, d.versions[i].err
		}
	}
	v, err := semver.Parse(*text)
	d.versions = append(d.versions, parsedVersion{text: text, v: v, err: err})
	return v, err
}

// attribute finds the attribute the device's CEL input has under domain
// and id; false when there is none, or when the input holds a list there.
func (d *SimpleDevice) attribute(legacy bool, o *simpleOperand) (*resource.DeviceAttribute, bool) {
	dev := d.device
	q, hasQ := dev.Attributes[o.qualified]
	var u resource.DeviceAttribute
	hasU := false
	if o.domain == d.driver {
		u, hasU = dev.Attributes[o.unqualified]
	}
	if legacy {
		// Device holds an attribute's scalar, leaving out attributes
		// with only a list (and v1alpha2 null lists), and of the two
		// spellings keeps the one that sorts later.
		hasQ = hasQ && hasScalar(q) && !isNullList(dev, o.qualified)
		hasU = hasU && hasScalar(u) && !isNullList(dev, o.unqualified)
		switch {
		case hasQ && hasU:
			if o.qualified > o.unqualified {
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
	// allocator drops them) or list values, which Match does not judge.
	if hasQ && isList(q) {
		if d.listAttributes {
			return nil, false
		}
		hasQ = false
	}
	if hasQ {
		return &q, true
	}
	if hasU && isList(u) {
		return nil, false
	}
	return &u, hasU
}

// capacity finds the quantity the device's CEL input has under domain and
// id: of the two spellings of a name, Device keeps the one that sorts
// later, Input137 the qualified one.
func (d *SimpleDevice) capacity(legacy bool, o *simpleOperand) (*apiresource.Quantity, bool) {
	dev := d.device
	q, hasQ := dev.Capacity[o.qualified]
	var u resource.DeviceCapacity
	hasU := false
	if o.domain == d.driver {
		u, hasU = dev.Capacity[o.unqualified]
	}
	switch {
	case hasQ && hasU && legacy && o.unqualified > o.qualified:
		return &u.Value, true
	case hasQ:
		return &q.Value, true
	case hasU:
		return &u.Value, true
	}
	return nil, false
}

// usable reports whether the device's CEL input can be built: every
// attribute it holds has a value CEL can represent and every capacity is
// within the quantity bound. The 1.31 Device and the 1.37 Input137 fail
// alike on an attribute without any value, on a version that does not
// parse and on a capacity beyond the bound, each looking only at the
// attributes it holds.
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
	for _, c := range d.device.Capacity {
		// Both inputs refuse a capacity beyond the quantity bound.
		if quantityguard.CheckQuantity(c.Value) != nil {
			return false
		}
	}
	for name, attr := range d.device.Attributes {
		if legacy {
			// Device: the scalar if there is one (a list beside it does
			// not save a scalar that cannot be represented), else a list
			// or a null list, which are left out.
			if isNullList(d.device, name) {
				continue
			}
			if hasScalar(attr) {
				if !d.scalarUsable(attr) {
					return false
				}
			} else if !isList(attr) {
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
		if !d.scalarUsable(attr) {
			return false
		}
	}
	return true
}

// scalarUsable reports whether the attribute's scalar value, the first of
// IntValue, BoolValue, StringValue and VersionValue that is set, can be
// represented in CEL.
func (d *SimpleDevice) scalarUsable(attr resource.DeviceAttribute) bool {
	switch {
	case attr.IntValue != nil || attr.BoolValue != nil || attr.StringValue != nil:
		return true
	case attr.VersionValue != nil:
		_, err := d.parseVersion(attr.VersionValue)
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
