package mutate

// Token is a span of text, [Start, End).
type Token struct{ Start, End int }

// Tokens cuts src into tokens, skipping whitespace and comments. It
// accepts any input: a byte it does not know is a token of its own, and
// an unterminated string runs to the end of its line.
func Tokens(src []byte) []Token {
	var toks []Token
	for i := 0; i < len(src); {
		c := src[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '"':
			i++
			for i < len(src) && src[i] != '"' && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) {
					i++
				}
				i++
			}
			if i < len(src) && src[i] == '"' {
				i++
			}
		case isIDStart(c) || isDigit(c):
			for i < len(src) && isIDChar(src[i]) {
				i++
			}
		case c == '%' || c == '^' || c == '@' || c == '#' || c == '!':
			i++
			if c == '#' && i < len(src) && src[i] == '-' && i+1 < len(src) && src[i+1] == '}' {
				i += 2
				break
			}
			for i < len(src) && (isIDChar(src[i]) || src[i] == '-') {
				i++
			}
		case hasAt(src, i, "->") || hasAt(src, i, "{-#"):
			i += len("->")
			if c == '{' {
				i++
			}
		case hasAt(src, i, "..."):
			i += 3
		default:
			i++
		}
		toks = append(toks, Token{start, i})
	}
	return toks
}

func hasAt(src []byte, i int, s string) bool {
	return len(src)-i >= len(s) && string(src[i:i+len(s)]) == s
}

func isDigit(c byte) bool   { return c >= '0' && c <= '9' }
func isIDStart(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isIDChar(c byte) bool  { return isIDStart(c) || isDigit(c) || c == '$' || c == '.' }
