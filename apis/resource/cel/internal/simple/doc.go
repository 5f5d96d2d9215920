// Package simple is the fast path of package cel: it judges device
// selectors of a plain shape without cel-go. Compiling a selector in
// cel-go costs far more than an allocator's first claim should (parsing,
// checking and planning the program), and building the CEL input of every
// device even more; the selectors DeviceClasses and claims use in
// practice are mostly of this shape.
//
// It is not a CEL implementation. Parse recognizes a small grammar
// (lexer.go, parser.go) and refuses everything else, and Match (eval.go,
// device.go) answers only when the real evaluation would give that plain
// bool without an error; otherwise the caller evaluates the compiled
// expression with cel-go, so that errors and their messages stay
// cel-go's. Package cel's tests hold it to cel-go: the differential tests
// and FuzzSimpleSelector compare every answer with cel-go's.
package simple
