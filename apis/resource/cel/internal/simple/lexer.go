package simple

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
