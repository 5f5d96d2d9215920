package simple

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

// A Selector is a device selector of a shape so plain that its result can
// be worked out without cel-go: comparisons of device.driver,
// device.allowMultipleAllocations, scalar attributes and a few library
// calls on attributes and capacities with literals, joined by &&, || and
// !.
type Selector struct {
	expression string
	legacy     bool
	nodes      []simpleNode // nodes[0] is the root
}

// simpleNode is one node of the expression tree. Children are indexes
// into Selector.nodes.
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

// Limits beyond which Parse declines or Match does not
// answer, well inside what cel-go's parser accepts (its recursion limit,
// its expression size limit) and what an evaluation may cost (a string
// operation costs in proportion to the lengths).
const (
	simpleMaxLength = 4096
	simpleMaxDepth  = 24
	// MaxLeaves is the most comparisons a selector may have.
	MaxLeaves       = 64
	simpleMaxString = 128
)

// Parse returns the simple form of a device selector, or false when the
// expression is not of the simple grammar. legacy selects 1.31's
// environment of stored expressions (whose device has no
// allowMultipleAllocations); otherwise that of the release drakit
// follows. Every expression it accepts compiles in that environment. The
// grammar:
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
func Parse(expression string, legacy bool) (*Selector, bool) {
	if len(expression) > simpleMaxLength || !utf8.ValidString(expression) {
		return nil, false
	}
	toks, ok := simpleTokens(expression)
	if !ok {
		return nil, false
	}
	p := &simpleParser{toks: toks, legacy: legacy, s: &Selector{expression: expression, legacy: legacy}}
	p.s.nodes = append(p.s.nodes, simpleNode{}) // room for the root
	t, ok := p.expr(0)
	if !ok || p.pos != len(p.toks) {
		return nil, false
	}
	root, ok := p.asBool(t)
	if !ok || p.leaves > MaxLeaves {
		return nil, false
	}
	p.s.nodes[0] = p.s.nodes[root]
	return p.s, true
}

// Expression is the source of the selector.
func (s *Selector) Expression() string { return s.expression }

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
	s        *Selector
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
