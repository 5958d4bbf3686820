package affine

// The lexer reproduces the parts of MLIR's Lexer (mlir/lib/AsmParser) that
// decide how text inside an affine map or set splits into tokens and which
// lexical errors are reported where. Tokens that can never appear in an
// affine structure (strings, @names, `{`, …) are still recognised, so that
// the parser rejects them with the message mlir-opt gives.

type tokenKind uint8

const (
	tokEOF tokenKind = iota
	tokError
	tokIdent    // bare identifier, integer type or keyword without a role here
	tokFloorDiv // keyword floordiv
	tokCeilDiv  // keyword ceildiv
	tokMod      // keyword mod
	tokSymbol   // keyword symbol
	tokInteger
	tokPercentIdent
	tokLParen
	tokRParen
	tokLSquare
	tokRSquare
	tokLess
	tokGreater
	tokEqual
	tokPlus
	tokStar
	tokMinus
	tokArrow
	tokColon
	tokComma
	tokOther // any other well-formed token
)

type token struct {
	kind     tokenKind
	pos, end int // byte offsets of the spelling in the source
}

type lexer struct {
	src string
	pos int
	// err is the first lexical error, reported when its token is lexed.
	err *Error
}

func isAlpha(c byte) bool    { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isHexDigit(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// at returns the byte at i, or 0 past the end, like MLIR's NUL-terminated
// buffer.
func (l *lexer) at(i int) byte {
	if i < len(l.src) {
		return l.src[i]
	}
	return 0
}

func (l *lexer) errorAt(pos int, msg string) token {
	if l.err == nil {
		l.err = &Error{Offset: pos, Msg: msg}
	}
	return token{kind: tokError, pos: pos, end: pos}
}

func (l *lexer) form(kind tokenKind, start int) token {
	return token{kind: kind, pos: start, end: l.pos}
}

func (l *lexer) next() token {
	for {
		start := l.pos
		if start >= len(l.src) {
			return token{kind: tokEOF, pos: len(l.src), end: len(l.src)}
		}
		c := l.src[start]
		l.pos++
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0:
			// MLIR skips a NUL that is not the end of the buffer.
			continue
		case isAlpha(c) || c == '_':
			return l.bareIdentifier(start)
		case isDigit(c):
			return l.number(start)
		}
		switch c {
		case ':':
			return l.form(tokColon, start)
		case ',':
			return l.form(tokComma, start)
		case '.':
			if l.at(l.pos) != '.' || l.at(l.pos+1) != '.' {
				return l.errorAt(l.pos, "expected three consecutive dots for an ellipsis")
			}
			l.pos += 2
			return l.form(tokOther, start)
		case '(':
			return l.form(tokLParen, start)
		case ')':
			return l.form(tokRParen, start)
		case '{':
			if l.at(l.pos) == '-' && l.at(l.pos+1) == '#' {
				l.pos += 2
			}
			return l.form(tokOther, start)
		case '}', '?', '|':
			return l.form(tokOther, start)
		case '[':
			return l.form(tokLSquare, start)
		case ']':
			return l.form(tokRSquare, start)
		case '<':
			return l.form(tokLess, start)
		case '>':
			return l.form(tokGreater, start)
		case '=':
			return l.form(tokEqual, start)
		case '+':
			return l.form(tokPlus, start)
		case '*':
			return l.form(tokStar, start)
		case '-':
			if l.at(l.pos) == '>' {
				l.pos++
				return l.form(tokArrow, start)
			}
			return l.form(tokMinus, start)
		case '/':
			if l.at(l.pos) == '/' {
				for l.pos < len(l.src) && l.src[l.pos] != '\n' && l.src[l.pos] != '\r' {
					l.pos++
				}
				continue
			}
			return l.errorAt(start, "unexpected character")
		case '@':
			return l.atIdentifier(start)
		case '#':
			if l.at(l.pos) == '-' && l.at(l.pos+1) == '}' {
				l.pos += 2
				return l.form(tokOther, start)
			}
			return l.prefixedIdentifier(start)
		case '!', '^', '%':
			return l.prefixedIdentifier(start)
		case '"':
			return l.stringLiteral(start)
		}
		return l.errorAt(start, "unexpected character")
	}
}

func isIdentChar(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '_' || c == '$' || c == '.'
}

func (l *lexer) bareIdentifier(start int) token {
	for isIdentChar(l.at(l.pos)) {
		l.pos++
	}
	kind := tokIdent
	switch l.src[start:l.pos] {
	case "floordiv":
		kind = tokFloorDiv
	case "ceildiv":
		kind = tokCeilDiv
	case "mod":
		kind = tokMod
	case "symbol":
		kind = tokSymbol
	}
	return l.form(kind, start)
}

func (l *lexer) number(start int) token {
	if l.src[start] == '0' && l.at(l.pos) == 'x' {
		// "0x" without a hex digit is the integer 0 followed by an
		// identifier.
		if !isHexDigit(l.at(l.pos + 1)) {
			return l.form(tokInteger, start)
		}
		l.pos += 2
		for isHexDigit(l.at(l.pos)) {
			l.pos++
		}
		return l.form(tokInteger, start)
	}
	for isDigit(l.at(l.pos)) {
		l.pos++
	}
	if l.at(l.pos) != '.' {
		return l.form(tokInteger, start)
	}
	l.pos++
	for isDigit(l.at(l.pos)) {
		l.pos++
	}
	if c := l.at(l.pos); c == 'e' || c == 'E' {
		d := l.at(l.pos + 1)
		if isDigit(d) || (d == '-' || d == '+') && isDigit(l.at(l.pos+2)) {
			l.pos += 2
			for isDigit(l.at(l.pos)) {
				l.pos++
			}
		}
	}
	return l.form(tokOther, start) // a float literal
}

func isPunct(c byte) bool { return c == '$' || c == '.' || c == '_' || c == '-' }

func (l *lexer) prefixedIdentifier(start int) token {
	var kind tokenKind
	var msg string
	switch l.src[start] {
	case '#':
		kind, msg = tokOther, "invalid attribute name"
	case '%':
		kind, msg = tokPercentIdent, "invalid SSA name"
	case '^':
		kind, msg = tokOther, "invalid block name"
	default:
		kind, msg = tokOther, "invalid type identifier"
	}
	c := l.at(l.pos)
	switch {
	case isDigit(c):
		for isDigit(l.at(l.pos)) {
			l.pos++
		}
	case isAlpha(c) || isPunct(c):
		for {
			l.pos++
			c := l.at(l.pos)
			if !isAlpha(c) && !isDigit(c) && !isPunct(c) {
				break
			}
		}
	default:
		return l.errorAt(l.pos-1, msg)
	}
	return l.form(kind, start)
}

func (l *lexer) atIdentifier(start int) token {
	c := l.at(l.pos)
	l.pos++
	if c == '"' {
		if t := l.stringLiteral(l.pos - 1); t.kind == tokError {
			return t
		}
		return l.form(tokOther, start)
	}
	if !isAlpha(c) && c != '_' {
		return l.errorAt(l.pos-1, "@ identifier expected to start with letter or '_'")
	}
	for isIdentChar(l.at(l.pos)) {
		l.pos++
	}
	return l.form(tokOther, start)
}

// stringLiteral lexes a string whose opening quote is at start.
func (l *lexer) stringLiteral(start int) token {
	for {
		if l.pos >= len(l.src) {
			return l.errorAt(len(l.src), "expected '\"' in string literal")
		}
		c := l.src[l.pos]
		l.pos++
		switch c {
		case '"':
			return l.form(tokOther, start)
		case '\n', '\v', '\f':
			return l.errorAt(l.pos-1, "expected '\"' in string literal")
		case '\\':
			switch d := l.at(l.pos); {
			case d == '"' || d == '\\' || d == 'n' || d == 't':
				l.pos++
			case isHexDigit(d) && isHexDigit(l.at(l.pos+1)):
				l.pos += 2
			default:
				return l.errorAt(l.pos-1, "unknown escape in string literal")
			}
		}
	}
}
